/* ikc ikbench: the TRAC-IK protocol (ikit/robot_protocol.h) on any URDF arm --
 * the numeric solver alone, and where the chain has a closed form, the
 * numeric solver seeded by it and the closed form alone: success rate, mean
 * and median time per query; text or JSON. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include <ikit/robot_protocol.h>

#include "ikc.h"
#include "robot_arm.h"

/* The most queries: the goals take 56 bytes each. */
#define MAX_QUERIES 1000000
/* The protocol's N; TRAC-IK's goal seed (ik_tests.cpp calls srand(1)), and
 * bench_robot_ik's for the splitmix goals (the same goals as that benchmark). */
#define DEFAULT_QUERIES 10000
#define TRAC_IK_SEED 1
#define SPLITMIX_SEED 12345

typedef struct ikbench_request {
    ikc_arm_args args;
    int queries, seed, json, wall_budget;
    ik_robot_protocol_goals goals_from;
} ikbench_request;

/* One clock's times of one solver: the mean over all queries, over the
 * successful ones (TRAC-IK's figure), and the median, in ms. */
typedef struct times_ms {
    double mean, mean_success, median;
} times_ms;

/* One solver's figures: success %, solutions per query, and its times by
 * the budget's clock and by the other one. */
typedef struct figures {
    double success_pct, solutions;
    times_ms budget, other;
} figures;

static void usage(FILE *out) {
    fprintf(out,
            "usage: ikc ikbench ARM.urdf --tip LINK [--base LINK] [-n N] [--goals trac-ik|splitmix]\n"
            "                   [--seed S] [--budget-clock cpu|wall] [--json]\n"
            "\n"
            "Runs the TRAC-IK protocol (Beeson and Ames 2015) on the chain from the base link\n"
            "(the robot's root by default) to LINK: N configurations uniform within the joint\n"
            "limits (continuous joints in [-pi, pi]), forward kinematics gives each goal pose,\n"
            "each is solved from the mid-range seed with 5 ms per query; success when each of\n"
            "x, y, z, roll, pitch, yaw is within 1e-5 and every joint inside its limits.\n"
            "Times are read on two clocks, this thread's CPU time and the wall clock (which\n"
            "TRAC-IK's runs read); the 5 ms budget runs on --budget-clock. Each clock gives the\n"
            "mean over all queries (failures included), the mean over the successful ones\n"
            "(TRAC-IK's figure: \"msecs per successful sample\") and the median.\n"
            "Solvers: the numeric one alone; where the arm has a closed form (6R with a\n"
            "spherical wrist or three parallel axes), the numeric one seeded by it, and the\n"
            "closed form alone (every solution, each checked by forward kinematics; its mean\n"
            "time on the budget's clock is one pass over all the goals, as a clock read costs\n"
            "about as much).\n"
            "\n"
            "  -n N            configurations (default %d, at most %d)\n"
            "  --goals G       trac-ik (default): drawn as TRAC-IK's ik_tests.cpp draws them,\n"
            "                  glibc's rand() after srand(S), joint by joint (on Linux the same\n"
            "                  goals as TRAC-IK's runs); splitmix: ikit's own generator (the\n"
            "                  goals of bench_robot_ik)\n"
            "  --seed S        the generator's seed (default %d for trac-ik, as ik_tests.cpp;\n"
            "                  %d for splitmix, as bench_robot_ik)\n"
            "  --budget-clock C  cpu (default: the figures hold on a busy machine) or wall\n"
            "                  (TRAC-IK's)\n"
            "  --json          print the figures as JSON\n"
            "\n"
            "example:\n"
            "  ikc ikbench ur5.urdf --base base_link --tip ee_link -n 1000\n"
            "\n"
            "exit codes: 0 ok, 2 bad usage, 3 file missing, 4 file malformed, 5 unknown link.\n",
            DEFAULT_QUERIES, MAX_QUERIES, TRAC_IK_SEED, SPLITMIX_SEED);
}

static int parse(int argc, char **argv, ikbench_request *req) {
    static const char *const valued[] = {"--tip", "--base", "-n", "--seed", "--goals", "--budget-clock"};
    int i, seeded = 0;
    memset(req, 0, sizeof *req);
    req->queries = DEFAULT_QUERIES;
    req->goals_from = IK_ROBOT_PROTOCOL_GOALS_TRAC_IK;
    for (i = 0; i < argc; ++i) {
        const char *a = argv[i], *value = NULL;
        int code;
        if (strcmp(a, "--json") == 0) {
            req->json = 1;
            continue;
        }
        code = ikc_arm_arg("ikbench", "", argc, argv, &i, valued, sizeof valued / sizeof valued[0], usage, &req->args,
                           &value);
        if (code == IKC_ARG_TAKEN) continue;
        if (code != IKC_ARG_VALUE) return code;
        if (strcmp(a, "-n") == 0) {
            if (!ikc_parse_int(value, &req->queries) || req->queries < 1 || req->queries > MAX_QUERIES) {
                fprintf(stderr, "ikc ikbench: -n wants a whole number from 1 to %d, not '%s'\n", MAX_QUERIES,
                        ikc_shown(value));
                return IKC_EXIT_USAGE;
            }
        } else if (strcmp(a, "--goals") == 0) {
            if (strcmp(value, "trac-ik") != 0 && strcmp(value, "splitmix") != 0) {
                fprintf(stderr, "ikc ikbench: --goals wants trac-ik or splitmix, not '%s'\n", ikc_shown(value));
                return IKC_EXIT_USAGE;
            }
            req->goals_from = value[0] == 't' ? IK_ROBOT_PROTOCOL_GOALS_TRAC_IK : IK_ROBOT_PROTOCOL_GOALS_SPLITMIX;
        } else if (strcmp(a, "--budget-clock") == 0) {
            if (strcmp(value, "cpu") != 0 && strcmp(value, "wall") != 0) {
                fprintf(stderr, "ikc ikbench: --budget-clock wants cpu or wall, not '%s'\n", ikc_shown(value));
                return IKC_EXIT_USAGE;
            }
            req->wall_budget = value[0] == 'w';
        } else if (!ikc_parse_int(value, &req->seed) || req->seed < 0) {
            fprintf(stderr, "ikc ikbench: --seed wants a whole number >= 0, not '%s'\n", ikc_shown(value));
            return IKC_EXIT_USAGE;
        } else {
            seeded = 1;
        }
    }
    if (!seeded) req->seed = req->goals_from == IK_ROBOT_PROTOCOL_GOALS_TRAC_IK ? TRAC_IK_SEED : SPLITMIX_SEED;
    if (!req->args.path || !req->args.tip) {
        fprintf(stderr, "ikc ikbench: needs ARM.urdf and --tip LINK\n");
        usage(stderr);
        return IKC_EXIT_USAGE;
    }
    if (!ikc_is_urdf(req->args.path)) {
        fprintf(stderr, "ikc ikbench: %s: not a URDF file (.urdf)\n", ikc_shown(req->args.path));
        return IKC_EXIT_USAGE;
    }
    return IKC_EXIT_OK;
}

/* The protocol's clocks: this thread's CPU time and the wall clock. */
static double thread_clock(void *user) {
    (void)user;
    return ikc_cpu_now();
}

static double wall_clock(void *user) {
    (void)user;
    return ikc_now();
}

/* The mean over all `count` times, over those that succeeded, and the
 * median (sorts `times`), in ms; with total_override >= 0 (the closed
 * form's one pass) both means take that total, the second over the
 * successes only (a bound: failures cost as much as the rest). */
static times_ms summarize(double *times, const unsigned char *success, int count, double total_override) {
    times_ms t;
    double total = 0, total_success = 0;
    long successes = 0;
    int i;
    for (i = 0; i < count; ++i) {
        total += times[i];
        if (success[i]) {
            total_success += times[i];
            ++successes;
        }
    }
    if (total_override >= 0) total = total_success = total_override;
    t.mean = 1e3 * total / count;
    t.mean_success = successes ? 1e3 * total_success / (double)successes : 0;
    t.median = 1e3 * ikc_median(times, count);
    return t;
}

/* Every query with `solver`: success rate, solutions per query, the times
 * on both clocks; the closed form's mean on the budget's clock from
 * ik_robot_protocol_time_analytic. */
static figures run_solver(const ik_robot_protocol *p, ik_robot_protocol_solver solver, double *times,
                          double *other_times, unsigned char *success) {
    figures f;
    long successes = 0, solutions = 0;
    int i;
    for (i = 0; i < p->queries; ++i) {
        ik_robot_protocol_answer answer;
        ik_robot_protocol_solve(p, solver, i, &answer);
        times[i] = answer.seconds;
        other_times[i] = answer.report_seconds;
        success[i] = (unsigned char)answer.success;
        successes += answer.success;
        solutions += answer.solutions;
    }
    f.success_pct = 100.0 * (double)successes / p->queries;
    f.solutions = (double)solutions / p->queries;
    f.budget = summarize(times, success, p->queries,
                         solver == IK_ROBOT_PROTOCOL_ANALYTIC ? ik_robot_protocol_time_analytic(p) : -1);
    f.other = summarize(other_times, success, p->queries, -1);
    return f;
}

static void add_times(cJSON *o, const char *clock, times_ms t) {
    char key[40];
    snprintf(key, sizeof key, "%s_mean_ms", clock);
    cJSON_AddNumberToObject(o, key, t.mean);
    snprintf(key, sizeof key, "%s_mean_success_ms", clock);
    cJSON_AddNumberToObject(o, key, t.mean_success);
    snprintf(key, sizeof key, "%s_median_ms", clock);
    cJSON_AddNumberToObject(o, key, t.median);
}

/* A solver's figures: success_pct, mean_ms, mean_success_ms and median_ms
 * on the budget's clock, and cpu_* and wall_* for each clock. */
static cJSON *figures_json(figures f, int closed_form, int wall_budget) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "success_pct", f.success_pct);
    cJSON_AddNumberToObject(o, "mean_ms", f.budget.mean);
    cJSON_AddNumberToObject(o, "mean_success_ms", f.budget.mean_success);
    cJSON_AddNumberToObject(o, "median_ms", f.budget.median);
    add_times(o, "cpu", wall_budget ? f.other : f.budget);
    add_times(o, "wall", wall_budget ? f.budget : f.other);
    if (closed_form) cJSON_AddNumberToObject(o, "solutions_per_query", f.solutions);
    return o;
}

static const char *goals_name(ik_robot_protocol_goals g) {
    return g == IK_ROBOT_PROTOCOL_GOALS_TRAC_IK ? "trac-ik" : "splitmix";
}

static void print_json(const ikbench_request *req, const char *base, const ik_robot_protocol *p, const figures *f) {
    cJSON *root = cJSON_CreateObject();
    const int closed_form = p->model.kind != IK_ROBOT_ANALYTIC_NONE;
    cJSON_AddItemToObject(root, "file", ikc_json_text(req->args.path));
    cJSON_AddItemToObject(root, "base", ikc_json_text(base));
    cJSON_AddItemToObject(root, "tip", ikc_json_text(req->args.tip));
    cJSON_AddNumberToObject(root, "variables", p->variables);
    cJSON_AddNumberToObject(root, "queries", p->queries);
    cJSON_AddStringToObject(root, "goals", goals_name(req->goals_from));
    cJSON_AddNumberToObject(root, "seed", req->seed);
    cJSON_AddStringToObject(root, "budget_clock", req->wall_budget ? "wall" : "cpu");
    cJSON_AddNumberToObject(root, "timeout_ms", IK_ROBOT_PROTOCOL_TIMEOUT_S * 1e3);
    cJSON_AddNumberToObject(root, "tolerance", IK_ROBOT_PROTOCOL_EPS);
    cJSON_AddStringToObject(root, "scalar", sizeof(ik_real) == sizeof(double) ? "double" : "float");
    cJSON_AddStringToObject(root, "closed_form", ik_robot_analytic_kind_str(p->model.kind));
    if (!closed_form) cJSON_AddStringToObject(root, "no_closed_form", p->no_closed_form);
    cJSON_AddItemToObject(root, "numeric", figures_json(f[IK_ROBOT_PROTOCOL_NUMERIC], 0, req->wall_budget));
    cJSON_AddItemToObject(
        root, "seeded",
        closed_form ? figures_json(f[IK_ROBOT_PROTOCOL_SEEDED], 0, req->wall_budget) : cJSON_CreateNull());
    cJSON_AddItemToObject(
        root, "analytic",
        closed_form ? figures_json(f[IK_ROBOT_PROTOCOL_ANALYTIC], 1, req->wall_budget) : cJSON_CreateNull());
    ikc_json_print(root);
}

/* One solver's line: success, then each clock's mean, mean per success and median. */
static void print_solver(const char *name, const ikbench_request *req, figures f, double unit, const char *unit_name,
                         const char *note) {
    const times_ms cpu = req->wall_budget ? f.other : f.budget, wall = req->wall_budget ? f.budget : f.other;
    printf(
        "  %-9s %7.2f %%  CPU mean %.4f %s (%.4f a success) median %.4f; wall mean %.4f (%.4f a success) median "
        "%.4f%s\n",
        name, f.success_pct, cpu.mean * unit, unit_name, cpu.mean_success * unit, cpu.median * unit, wall.mean * unit,
        wall.mean_success * unit, wall.median * unit, note);
}

static void print_text(const ikbench_request *req, const char *base, const ik_robot_protocol *p, const figures *f) {
    char note[120];
    printf(
        "TRAC-IK protocol on %s, %s..%s (%d variables): %d configurations (%s goals, seed %d), mid-range seed, "
        "5 ms per query on the %s clock, 1e-5 per axis, %s build\n",
        ikc_shown(req->args.path), ikc_shown(base), ikc_shown(req->args.tip), p->variables, p->queries,
        goals_name(req->goals_from), req->seed, req->wall_budget ? "wall" : "CPU",
        sizeof(ik_real) == sizeof(double) ? "double" : "float");
    print_solver("numeric:", req, f[IK_ROBOT_PROTOCOL_NUMERIC], 1, "ms", "");
    if (p->model.kind == IK_ROBOT_ANALYTIC_NONE) {
        printf("  analytic: no closed form (%s)\n", p->no_closed_form);
        return;
    }
    print_solver("seeded:", req, f[IK_ROBOT_PROTOCOL_SEEDED], 1, "ms", "  (numeric from the closed form's solutions)");
    snprintf(note, sizeof note, "  %.2f solutions (%s; the %s mean is one pass)",
             f[IK_ROBOT_PROTOCOL_ANALYTIC].solutions, ik_robot_analytic_kind_str(p->model.kind),
             req->wall_budget ? "wall" : "CPU");
    print_solver("analytic:", req, f[IK_ROBOT_PROTOCOL_ANALYTIC], 1e3, "us", note);
}

int ikc_ikbench(int argc, char **argv) {
    ikbench_request req;
    ik_urdf *urdf = NULL;
    ikc_arm arm;
    ik_robot_protocol protocol;
    ik_transform *goals = NULL;
    void *scratch = NULL;
    ik_error error;
    figures f[3];
    const char *base;
    double *times, *other_times;
    unsigned char *success;
    int code = parse(argc, argv, &req);
    memset(&protocol, 0, sizeof protocol);
    memset(f, 0, sizeof f);
    if (code != IKC_EXIT_OK) return code < 0 ? IKC_EXIT_OK : code;
    if ((code = ikc_urdf_load("ikbench", req.args.path, &urdf)) != IKC_EXIT_OK) return code;
    base = req.args.base ? req.args.base : urdf->links[urdf->root_link].name;
    if ((code = ikc_arm_chain("ikbench", urdf, req.args.base, req.args.tip, &arm)) != IKC_EXIT_OK) {
        ik_urdf_free(urdf);
        return code;
    }
    if (arm.chain.variable_count == 0) {
        fprintf(stderr, "ikc ikbench: no joint moves between '%s' and '%s'\n", ikc_shown(base),
                ikc_shown(req.args.tip));
        ik_urdf_free(urdf);
        return IKC_EXIT_USAGE;
    }
    times = malloc((size_t)req.queries * sizeof *times);
    other_times = malloc((size_t)req.queries * sizeof *other_times);
    success = malloc((size_t)req.queries);
    goals = malloc((size_t)req.queries * sizeof *goals);
    scratch = malloc(ik_robot_protocol_scratch_size(&arm.chain));
    if (!times || !other_times || !success || !goals || !scratch) {
        fprintf(stderr, "ikc ikbench: out of memory\n");
        code = IKC_EXIT_FAILURE;
    } else if (ik_robot_protocol_init_goals(&protocol, &arm.chain, req.queries, req.goals_from, (unsigned long)req.seed,
                                            goals, scratch, ik_robot_protocol_scratch_size(&arm.chain),
                                            req.wall_budget ? wall_clock : thread_clock, NULL, &error) != IK_OK) {
        fprintf(stderr, "ikc ikbench: %s\n", error.message);
        code = IKC_EXIT_FORMAT;
    }
    protocol.report_clock_s = req.wall_budget ? thread_clock : wall_clock;
    if (code != IKC_EXIT_OK) {
        free(other_times);
        free(success);
        free(times);
        free(goals);
        free(scratch);
        ik_urdf_free(urdf);
        return code;
    }
    f[IK_ROBOT_PROTOCOL_NUMERIC] = run_solver(&protocol, IK_ROBOT_PROTOCOL_NUMERIC, times, other_times, success);
    if (protocol.model.kind != IK_ROBOT_ANALYTIC_NONE) {
        f[IK_ROBOT_PROTOCOL_SEEDED] = run_solver(&protocol, IK_ROBOT_PROTOCOL_SEEDED, times, other_times, success);
        f[IK_ROBOT_PROTOCOL_ANALYTIC] = run_solver(&protocol, IK_ROBOT_PROTOCOL_ANALYTIC, times, other_times, success);
    }
    if (req.json)
        print_json(&req, base, &protocol, f);
    else
        print_text(&req, base, &protocol, f);
    free(other_times);
    free(success);
    free(times);
    free(goals);
    free(scratch);
    ik_urdf_free(urdf);
    return IKC_EXIT_OK;
}

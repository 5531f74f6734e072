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
/* The protocol's N, and bench_robot_ik's goal seed (the same goals). */
#define DEFAULT_QUERIES 10000
#define DEFAULT_SEED 12345

typedef struct ikbench_request {
    ikc_arm_args args;
    int queries, seed, json;
} ikbench_request;

/* One solver's figures: success %, mean and median ms over all queries, solutions per query. */
typedef struct figures {
    double success_pct, mean_ms, median_ms, solutions;
} figures;

static void usage(FILE *out) {
    fprintf(out,
            "usage: ikc ikbench ARM.urdf --tip LINK [--base LINK] [-n N] [--seed S] [--json]\n"
            "\n"
            "Runs the TRAC-IK protocol (Beeson and Ames 2015) on the chain from the base link\n"
            "(the robot's root by default) to LINK: N configurations uniform within the joint\n"
            "limits (continuous joints in [-pi, pi]), forward kinematics gives each goal pose,\n"
            "each is solved from the mid-range seed with 5 ms per query; success when each of\n"
            "x, y, z, roll, pitch, yaw is within 1e-5 and every joint inside its limits; the\n"
            "mean time is over all queries, failures included (this thread's CPU time).\n"
            "Solvers: the numeric one alone; where the arm has a closed form (6R with a\n"
            "spherical wrist or three parallel axes), the numeric one seeded by it, and the\n"
            "closed form alone (every solution, each checked by forward kinematics; its mean\n"
            "time is one pass over all the goals, as a clock read costs about as much).\n"
            "\n"
            "  -n N       configurations (default %d, at most %d)\n"
            "  --seed S   the configurations' random seed (default %d, as bench_robot_ik)\n"
            "  --json     print the figures as JSON\n"
            "\n"
            "example:\n"
            "  ikc ikbench ur5.urdf --base base_link --tip ee_link -n 1000\n"
            "\n"
            "exit codes: 0 ok, 2 bad usage, 3 file missing, 4 file malformed, 5 unknown link.\n",
            DEFAULT_QUERIES, MAX_QUERIES, DEFAULT_SEED);
}

static int parse(int argc, char **argv, ikbench_request *req) {
    static const char *const valued[] = {"--tip", "--base", "-n", "--seed"};
    int i;
    memset(req, 0, sizeof *req);
    req->queries = DEFAULT_QUERIES;
    req->seed = DEFAULT_SEED;
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
        } else if (!ikc_parse_int(value, &req->seed) || req->seed < 0) {
            fprintf(stderr, "ikc ikbench: --seed wants a whole number >= 0, not '%s'\n", ikc_shown(value));
            return IKC_EXIT_USAGE;
        }
    }
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

/* Every query with `solver`: success rate, mean and median time, solutions
 * per query; the closed form's mean from ik_robot_protocol_time_analytic. */
/* The protocol's clock: this thread's CPU time. */
static double thread_clock(void *user) {
    (void)user;
    return ikc_cpu_now();
}

static figures run_solver(const ik_robot_protocol *p, ik_robot_protocol_solver solver, double *times) {
    figures f;
    double total = 0;
    long successes = 0, solutions = 0;
    int i;
    for (i = 0; i < p->queries; ++i) {
        ik_robot_protocol_answer answer;
        ik_robot_protocol_solve(p, solver, i, &answer);
        times[i] = answer.seconds;
        total += answer.seconds;
        successes += answer.success;
        solutions += answer.solutions;
    }
    if (solver == IK_ROBOT_PROTOCOL_ANALYTIC) total = ik_robot_protocol_time_analytic(p);
    f.success_pct = 100.0 * (double)successes / p->queries;
    f.mean_ms = 1e3 * total / p->queries;
    f.median_ms = 1e3 * ikc_median(times, p->queries);
    f.solutions = (double)solutions / p->queries;
    return f;
}

static cJSON *figures_json(figures f, int closed_form) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "success_pct", f.success_pct);
    cJSON_AddNumberToObject(o, "mean_ms", f.mean_ms);
    cJSON_AddNumberToObject(o, "median_ms", f.median_ms);
    if (closed_form) cJSON_AddNumberToObject(o, "solutions_per_query", f.solutions);
    return o;
}

static void print_json(const ikbench_request *req, const char *base, const ik_robot_protocol *p, const figures *f) {
    cJSON *root = cJSON_CreateObject();
    const int closed_form = p->model.kind != IK_ROBOT_ANALYTIC_NONE;
    cJSON_AddItemToObject(root, "file", ikc_json_text(req->args.path));
    cJSON_AddItemToObject(root, "base", ikc_json_text(base));
    cJSON_AddItemToObject(root, "tip", ikc_json_text(req->args.tip));
    cJSON_AddNumberToObject(root, "variables", p->variables);
    cJSON_AddNumberToObject(root, "queries", p->queries);
    cJSON_AddNumberToObject(root, "seed", req->seed);
    cJSON_AddNumberToObject(root, "timeout_ms", IK_ROBOT_PROTOCOL_TIMEOUT_S * 1e3);
    cJSON_AddNumberToObject(root, "tolerance", IK_ROBOT_PROTOCOL_EPS);
    cJSON_AddStringToObject(root, "scalar", sizeof(ik_real) == sizeof(double) ? "double" : "float");
    cJSON_AddStringToObject(root, "closed_form", ik_robot_analytic_kind_str(p->model.kind));
    if (!closed_form) cJSON_AddStringToObject(root, "no_closed_form", p->no_closed_form);
    cJSON_AddItemToObject(root, "numeric", figures_json(f[IK_ROBOT_PROTOCOL_NUMERIC], 0));
    cJSON_AddItemToObject(root, "seeded",
                          closed_form ? figures_json(f[IK_ROBOT_PROTOCOL_SEEDED], 0) : cJSON_CreateNull());
    cJSON_AddItemToObject(root, "analytic",
                          closed_form ? figures_json(f[IK_ROBOT_PROTOCOL_ANALYTIC], 1) : cJSON_CreateNull());
    ikc_json_print(root);
}

static void print_text(const ikbench_request *req, const char *base, const ik_robot_protocol *p, const figures *f) {
    printf(
        "TRAC-IK protocol on %s, %s..%s (%d variables): %d configurations (seed %d), mid-range seed, "
        "5 ms per query, 1e-5 per axis, %s build\n",
        ikc_shown(req->args.path), ikc_shown(base), ikc_shown(req->args.tip), p->variables, p->queries, req->seed,
        sizeof(ik_real) == sizeof(double) ? "double" : "float");
    printf("  numeric:  %7.2f %%  mean %.4f ms  median %.4f ms\n", f[IK_ROBOT_PROTOCOL_NUMERIC].success_pct,
           f[IK_ROBOT_PROTOCOL_NUMERIC].mean_ms, f[IK_ROBOT_PROTOCOL_NUMERIC].median_ms);
    if (p->model.kind == IK_ROBOT_ANALYTIC_NONE) {
        printf("  analytic: no closed form (%s)\n", p->no_closed_form);
        return;
    }
    printf("  seeded:   %7.2f %%  mean %.4f ms  median %.4f ms  (numeric from the closed form's solutions)\n",
           f[IK_ROBOT_PROTOCOL_SEEDED].success_pct, f[IK_ROBOT_PROTOCOL_SEEDED].mean_ms,
           f[IK_ROBOT_PROTOCOL_SEEDED].median_ms);
    printf(
        "  analytic: %7.2f %%  mean %.2f us (one pass)  median %.2f us (with a clock read)  %.2f solutions "
        "(%s)\n",
        f[IK_ROBOT_PROTOCOL_ANALYTIC].success_pct, f[IK_ROBOT_PROTOCOL_ANALYTIC].mean_ms * 1e3,
        f[IK_ROBOT_PROTOCOL_ANALYTIC].median_ms * 1e3, f[IK_ROBOT_PROTOCOL_ANALYTIC].solutions,
        ik_robot_analytic_kind_str(p->model.kind));
}

int ikc_ikbench(int argc, char **argv) {
    ikbench_request req;
    ik_urdf *urdf = NULL;
    ikc_arm arm;
    ik_robot_protocol protocol;
    ik_transform *goals = NULL;
    void *scratch = NULL;
    ik_error error;
    figures f[3] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}};
    const char *base;
    double *times;
    int code = parse(argc, argv, &req);
    memset(&protocol, 0, sizeof protocol);
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
    goals = malloc((size_t)req.queries * sizeof *goals);
    scratch = malloc(ik_robot_protocol_scratch_size(&arm.chain));
    if (!times || !goals || !scratch ||
        ik_robot_protocol_init(&protocol, &arm.chain, req.queries, (unsigned long)req.seed, goals, scratch,
                               ik_robot_protocol_scratch_size(&arm.chain), thread_clock, NULL, &error) != IK_OK) {
        fprintf(stderr, "ikc ikbench: %s\n", times && goals && scratch ? error.message : "out of memory");
        code = times && goals && scratch ? IKC_EXIT_FORMAT : IKC_EXIT_FAILURE;
    }
    if (code != IKC_EXIT_OK) {
        free(times);
        free(goals);
        free(scratch);
        ik_urdf_free(urdf);
        return code;
    }
    f[IK_ROBOT_PROTOCOL_NUMERIC] = run_solver(&protocol, IK_ROBOT_PROTOCOL_NUMERIC, times);
    if (protocol.model.kind != IK_ROBOT_ANALYTIC_NONE) {
        f[IK_ROBOT_PROTOCOL_SEEDED] = run_solver(&protocol, IK_ROBOT_PROTOCOL_SEEDED, times);
        f[IK_ROBOT_PROTOCOL_ANALYTIC] = run_solver(&protocol, IK_ROBOT_PROTOCOL_ANALYTIC, times);
    }
    if (req.json)
        print_json(&req, base, &protocol, f);
    else
        print_text(&req, base, &protocol, f);
    free(times);
    free(goals);
    free(scratch);
    ik_urdf_free(urdf);
    return IKC_EXIT_OK;
}

/* The TRAC-IK benchmark protocol on one robot chain (see robot_protocol.h). */
#include <ikit/robot_protocol.h>

#include <stdint.h>
#include <string.h>

size_t ik_robot_protocol_scratch_size(const ik_robot_chain *chain) {
    return chain ? ik_robot_ik_scratch_size(chain->variable_count) : 0;
}

static double now(const ik_robot_protocol *p) { return p->clock_s ? p->clock_s(p->clock_user) : 0; }
static double report_now(const ik_robot_protocol *p) {
    return p->report_clock_s ? p->report_clock_s(p->report_clock_user) : 0;
}

/* glibc's rand() (TYPE_3, the default): 31 words seeded by the Park-Miller
 * sequence r_i = 16807 r_(i-1) mod (2^31 - 1) from r_0 = seed (0 taken as
 * 1; computed by Schrage's method as glibc does), then the additive feedback
 * r_i = r_(i-3) + r_(i-31) mod 2^32 with output r_i >> 1, the first 310
 * outputs dropped (the algorithm as glibc's random_r.c implements it; the
 * same numbers as srand(seed) then rand() on Linux). */
typedef struct glibc_rand {
    uint32_t r[31];
    int front, rear;
} glibc_rand;

static int32_t glibc_rand_next(glibc_rand *g) {
    uint32_t value;
    g->r[g->front] += g->r[g->rear];
    value = g->r[g->front] >> 1;
    if (++g->front >= 31) g->front = 0;
    if (++g->rear >= 31) g->rear = 0;
    return (int32_t)value;
}

static void glibc_srand(glibc_rand *g, unsigned int seed) {
    int32_t word;
    int i;
    if (seed == 0) seed = 1;
    g->r[0] = seed;
    word = (int32_t)seed;
    for (i = 1; i < 31; ++i) {
        const long hi = word / 127773, lo = word % 127773;
        word = (int32_t)(16807 * lo - 2836 * hi);
        if (word < 0) word += 2147483647;
        g->r[i] = (uint32_t)word;
    }
    g->front = 3;
    g->rear = 0;
    for (i = 0; i < 310; ++i) glibc_rand_next(g);
}

/* The goals: configuration i is drawn uniform in [lower, upper] per
 * variable by splitmix64 (one state over all draws, from random_seed), and
 * forward kinematics gives its tip frame in the base frame. */
ik_result ik_robot_protocol_init(ik_robot_protocol *p, const ik_robot_chain *chain, int queries,
                                 unsigned long random_seed, ik_transform *goals, void *scratch, size_t scratch_bytes,
                                 ik_robot_ik_clock clock, void *clock_user, ik_error *error) {
    return ik_robot_protocol_init_goals(p, chain, queries, IK_ROBOT_PROTOCOL_GOALS_SPLITMIX, random_seed, goals,
                                        scratch, scratch_bytes, clock, clock_user, error);
}

ik_result ik_robot_protocol_init_goals(ik_robot_protocol *p, const ik_robot_chain *chain, int queries,
                                       ik_robot_protocol_goals goals_from, unsigned long random_seed,
                                       ik_transform *goals, void *scratch, size_t scratch_bytes,
                                       ik_robot_ik_clock clock, void *clock_user, ik_error *error) {
    ik_real lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS], q[IK_ROBOT_MAX_JOINTS];
    ik_bool limited[IK_ROBOT_MAX_JOINTS];
    uint64_t state = random_seed;
    glibc_rand trac;
    int i, v;
    ik_error_clear(error);
    if (!p || !chain || !goals || !scratch) {
        ik_error_set(error, 0, 0, -1, "%s is NULL",
                     !p       ? "the protocol"
                     : !chain ? "the chain"
                     : !goals ? "goals"
                              : "scratch");
        return IK_ERR_NULL;
    }
    memset(p, 0, sizeof *p);
    if (queries < 1) {
        ik_error_set(error, 0, 0, -1, "%d queries; the protocol needs at least 1", queries);
        return IK_ERR_RANGE;
    }
    if (goals_from != IK_ROBOT_PROTOCOL_GOALS_SPLITMIX && goals_from != IK_ROBOT_PROTOCOL_GOALS_TRAC_IK) {
        ik_error_set(error, 0, 0, -1, "unknown goal source %d", (int)goals_from);
        return IK_ERR_RANGE;
    }
    if (scratch_bytes < ik_robot_protocol_scratch_size(chain)) {
        ik_error_set(error, 0, 0, -1, "scratch of %lu bytes; the chain's solves need %lu", (unsigned long)scratch_bytes,
                     (unsigned long)ik_robot_protocol_scratch_size(chain));
        return IK_ERR_RANGE;
    }
    if (ik_robot_variable_limits(chain, lower, upper, limited, NULL) != IK_OK) {
        ik_error_set(error, 0, 0, -1, "the chain's joint limits leave a variable no value");
        return IK_ERR_RANGE;
    }
    p->chain = chain;
    p->queries = queries;
    p->goals = goals;
    p->scratch = scratch;
    p->scratch_bytes = scratch_bytes;
    p->clock_s = clock;
    p->clock_user = clock_user;
    p->goals_from = goals_from;
    p->variables = chain->variable_count;
    for (v = 0; v < p->variables; ++v) {
        p->lower[v] = lower[v];
        p->upper[v] = upper[v];
        p->seed[v] = (ik_real)((p->lower[v] + p->upper[v]) / 2);
    }
    glibc_srand(&trac, (unsigned int)random_seed);
    for (i = 0; i < queries; ++i) {
        ik_transform tip;
        if (goals_from == IK_ROBOT_PROTOCOL_GOALS_TRAC_IK)
            for (v = 0; v < p->variables; ++v) {
                const double f = (double)glibc_rand_next(&trac) / 2147483647.0;
                q[v] = (ik_real)(p->lower[v] + f * (p->upper[v] - p->lower[v]));
            }
        else
            ik_robot_random_configuration(lower, upper, p->variables, &state, q);
        if (ik_robot_fk(chain, q, &tip, NULL) != IK_OK || !ik_transform_finite(tip)) {
            ik_error_set(error, 0, 0, -1, "forward kinematics could not place goal %d", i);
            return IK_ERR_NONFINITE;
        }
        goals[i] = ik_transform_identity();
        goals[i].translation = tip.translation;
        goals[i].rotation = tip.rotation;
    }
    if (ik_robot_analytic_prepare(chain, &p->model, &p->no_closed_form) != IK_OK && !p->no_closed_form)
        p->no_closed_form = "the chain's numbers are out of range";
    return IK_OK;
}

ik_transform ik_robot_protocol_goal(const ik_robot_protocol *p, int query) { return p->goals[query]; }

/* Success of a numeric solve: every variable inside [lower, upper]. */
static int inside(const ik_robot_protocol *p, const ik_real *q) {
    int v;
    for (v = 0; v < p->variables; ++v)
        if (!((double)q[v] >= p->lower[v] && (double)q[v] <= p->upper[v])) return 0;
    return 1;
}

/* The closed form's job on one goal (q_out takes the solutions). */
static ik_robot_analytic closed_form_job(const ik_robot_protocol *p, ik_transform goal, ik_real *q_out, int *count) {
    ik_robot_analytic closed = ik_robot_analytic_def();
    closed.model = &p->model;
    closed.goal_position_bs = goal.translation;
    closed.goal_rotation_bs = goal.rotation;
    closed.q_seed = p->seed;
    closed.q_out = q_out;
    closed.solution_count = count;
    return closed;
}

/* The numeric solve of TRAC-IK's test: from the mid-range seed, random
 * restarts seeded by the query's number, stopped by the 5 ms budget (an
 * iteration cap far beyond it), with closed-form starts for _SEEDED. */
ik_result ik_robot_protocol_solve(const ik_robot_protocol *p, ik_robot_protocol_solver solver, int query,
                                  ik_robot_protocol_answer *answer) {
    ik_transform goal;
    double start, report_start;
    if (!p || !answer || !p->goals) return IK_ERR_NULL;
    memset(answer, 0, sizeof *answer);
    if (query < 0 || query >= p->queries || (int)solver < 0 || solver > IK_ROBOT_PROTOCOL_ANALYTIC) return IK_ERR_RANGE;
    goal = ik_robot_protocol_goal(p, query);
    answer->found_by = IK_ROBOT_START_SEED;
    if (solver == IK_ROBOT_PROTOCOL_ANALYTIC) {
        ik_robot_analytic closed = closed_form_job(p, goal, answer->q, &answer->solutions);
        report_start = report_now(p);
        start = now(p);
        ik_robot_analytic_run(&closed);
        answer->seconds = now(p) - start;
        answer->report_seconds = report_now(p) - report_start;
        answer->success = answer->solutions > 0;
    } else {
        ik_robot_ik job = ik_robot_ik_def();
        ik_bool reached = 0;
        job.chain = p->chain;
        job.goal_position_bs = goal.translation;
        job.goal_rotation_bs = goal.rotation;
        job.q_seed = p->seed;
        job.q_out = answer->q;
        job.reached = &reached;
        job.found_by = &answer->found_by;
        job.max_iterations = 1000000;
        job.clock_s = p->clock_s;
        job.clock_user = p->clock_user;
        job.time_budget_s = IK_ROBOT_PROTOCOL_TIMEOUT_S;
        job.random_seed = (unsigned long)query + 1;
        job.scratch = p->scratch;
        job.scratch_bytes = p->scratch_bytes;
        job.analytic_starts = solver == IK_ROBOT_PROTOCOL_SEEDED;
        job.analytic_model = &p->model;
        report_start = report_now(p);
        start = now(p);
        ik_robot_ik_run(&job);
        answer->seconds = now(p) - start;
        answer->report_seconds = report_now(p) - report_start;
        answer->success = reached && inside(p, answer->q);
        answer->solutions = answer->success;
    }
    return IK_OK;
}

double ik_robot_protocol_time_analytic(const ik_robot_protocol *p) {
    ik_real q[IK_ROBOT_ANALYTIC_MAX_SOLUTIONS * 6];
    int count = 0, i;
    double start = now(p);
    for (i = 0; i < p->queries; ++i) {
        ik_robot_analytic closed = closed_form_job(p, ik_robot_protocol_goal(p, i), q, &count);
        ik_robot_analytic_run(&closed);
    }
    return now(p) - start;
}

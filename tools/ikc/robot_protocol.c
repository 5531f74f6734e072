/* ikc: the TRAC-IK protocol on one robot chain (see robot_protocol.h). */
#define _POSIX_C_SOURCE 200809L
#include "robot_protocol.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double ikc_protocol_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double job_clock(void *user) {
    (void)user;
    return ikc_protocol_now();
}

int ikc_protocol_init(ikc_protocol *p, const ik_robot_chain *chain, int queries, unsigned long random_seed,
                      const char **why) {
    ik_real lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS], q[IK_ROBOT_MAX_JOINTS];
    ik_bool limited[IK_ROBOT_MAX_JOINTS];
    uint64_t state = random_seed;
    int i, v;
    memset(p, 0, sizeof *p);
    p->chain = chain;
    p->queries = queries;
    if (ik_robot_variable_limits(chain, lower, upper, limited, NULL) != IK_OK) {
        *why = "the chain's joint limits leave a variable no value";
        return -1;
    }
    p->variables = chain->variable_count;
    for (v = 0; v < p->variables; ++v) {
        p->lower[v] = lower[v];
        p->upper[v] = upper[v];
        p->seed[v] = (ik_real)((p->lower[v] + p->upper[v]) / 2);
    }
    p->scratch_bytes = ik_robot_ik_scratch_size(p->variables);
    p->goals = malloc((size_t)queries * 7 * sizeof *p->goals);
    p->scratch = malloc(p->scratch_bytes);
    if (!p->goals || !p->scratch) {
        *why = "out of memory";
        return -1;
    }
    for (i = 0; i < queries; ++i) {
        ik_transform tip;
        double *g = p->goals + (size_t)i * 7;
        ik_robot_random_configuration(lower, upper, p->variables, &state, q);
        ik_robot_fk(chain, q, &tip, NULL);
        g[0] = tip.translation.x;
        g[1] = tip.translation.y;
        g[2] = tip.translation.z;
        g[3] = tip.rotation.x;
        g[4] = tip.rotation.y;
        g[5] = tip.rotation.z;
        g[6] = tip.rotation.w;
    }
    if (ik_robot_analytic_prepare(chain, &p->model, &p->no_closed_form) != IK_OK && !p->no_closed_form)
        p->no_closed_form = "the chain's numbers are out of range";
    return 0;
}

void ikc_protocol_free(ikc_protocol *p) {
    free(p->goals);
    free(p->scratch);
    p->goals = NULL;
    p->scratch = NULL;
}

ik_transform ikc_protocol_goal(const ikc_protocol *p, int query) {
    const double *g = p->goals + (size_t)query * 7;
    ik_transform t = ik_transform_identity();
    t.translation = ik_v3((ik_real)g[0], (ik_real)g[1], (ik_real)g[2]);
    t.rotation = ik_q((ik_real)g[3], (ik_real)g[4], (ik_real)g[5], (ik_real)g[6]);
    return t;
}

static int inside(const ikc_protocol *p, const ik_real *q) {
    int v;
    for (v = 0; v < p->variables; ++v)
        if (!((double)q[v] >= p->lower[v] && (double)q[v] <= p->upper[v])) return 0;
    return 1;
}

/* The closed form's job on query i (the answer's q takes the solutions). */
static ik_robot_analytic closed_form_job(const ikc_protocol *p, ik_transform goal, ik_real *q_out, int *count) {
    ik_robot_analytic closed = ik_robot_analytic_def();
    closed.model = &p->model;
    closed.goal_position_bs = goal.translation;
    closed.goal_rotation_bs = goal.rotation;
    closed.q_seed = p->seed;
    closed.q_out = q_out;
    closed.solution_count = count;
    return closed;
}

void ikc_protocol_solve(const ikc_protocol *p, ikc_protocol_solver solver, int query, ikc_protocol_answer *answer) {
    const ik_transform goal = ikc_protocol_goal(p, query);
    double start;
    answer->solutions = 0;
    answer->found_by = IK_ROBOT_START_SEED;
    if (solver == IKC_PROTOCOL_ANALYTIC) {
        ik_robot_analytic closed = closed_form_job(p, goal, answer->q, &answer->solutions);
        start = ikc_protocol_now();
        ik_robot_analytic_run(&closed);
        answer->seconds = ikc_protocol_now() - start;
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
        job.clock_s = job_clock;
        job.time_budget_s = IKC_PROTOCOL_TIMEOUT_S;
        job.random_seed = (unsigned long)query + 1;
        job.scratch = p->scratch;
        job.scratch_bytes = p->scratch_bytes;
        job.analytic_starts = solver == IKC_PROTOCOL_SEEDED;
        job.analytic_model = &p->model;
        start = ikc_protocol_now();
        ik_robot_ik_run(&job);
        answer->seconds = ikc_protocol_now() - start;
        answer->success = reached && inside(p, answer->q);
        answer->solutions = answer->success;
    }
}

double ikc_protocol_analytic_batch(const ikc_protocol *p) {
    ik_real q[IK_ROBOT_ANALYTIC_MAX_SOLUTIONS * 6];
    int count = 0, i;
    double start = ikc_protocol_now();
    for (i = 0; i < p->queries; ++i) {
        ik_robot_analytic closed = closed_form_job(p, ikc_protocol_goal(p, i), q, &count);
        ik_robot_analytic_run(&closed);
    }
    return ikc_protocol_now() - start;
}

/* ikc: the TRAC-IK protocol (Beeson and Ames, "TRAC-IK: An open-source
 * library for improved solving of generic inverse kinematics", Humanoids
 * 2015; trac_ik_examples/src/ik_tests.cpp) on one robot chain, shared by
 * `ikc ikbench` and bench/bench_robot_ik:
 *  - N configurations uniform within the limits (continuous joints in
 *    [-pi, pi]), drawn by splitmix64 from a seed; forward kinematics gives
 *    each goal pose;
 *  - each goal is solved from the mid-range seed (lower + upper) / 2 with a
 *    5 ms budget;
 *  - success when each of x, y, z and the three rotation components of the
 *    twist error is within 1e-5 (ik_robot_ik's `reached`), inside the limits;
 *  - the time per query, failures included, read from this thread's CPU clock.
 * Three solvers: the numeric one alone (ik_robot_ik, analytic_starts = 0),
 * the numeric one with closed-form starts (analytic_starts = 1, the model
 * prepared once), and the closed form alone (ik_robot_analytic: success
 * when it returns a solution; every one is inside the limits and checked by
 * its FK). */
#ifndef IKC_ROBOT_PROTOCOL_H
#define IKC_ROBOT_PROTOCOL_H

#include <stddef.h>

#include <ikit/robot.h>
#include <ikit/robot_analytic.h>
#include <ikit/robot_ik.h>

#define IKC_PROTOCOL_TIMEOUT_S 0.005
#define IKC_PROTOCOL_EPS 1e-5

typedef enum ikc_protocol_solver {
    IKC_PROTOCOL_NUMERIC,
    IKC_PROTOCOL_SEEDED,
    IKC_PROTOCOL_ANALYTIC
} ikc_protocol_solver;

typedef struct ikc_protocol {
    const ik_robot_chain *chain;
    int variables, queries;
    double lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS]; /* each variable's range as drawn */
    ik_real seed[IK_ROBOT_MAX_JOINTS];                             /* the mid-range */
    double *goals;                 /* [7 * queries]: x, y, z, qx, qy, qz, qw in the base frame */
    ik_robot_analytic_model model; /* kind NONE when the chain has no closed form */
    const char *no_closed_form;    /* then why; NULL otherwise */
    void *scratch;                 /* for ik_robot_ik */
    size_t scratch_bytes;
} ikc_protocol;

/* One query's answer. */
typedef struct ikc_protocol_answer {
    int success;
    int solutions;              /* the closed form's count (the others: 1 on success) */
    ik_robot_ik_start found_by; /* the numeric solvers' */
    double seconds;             /* this query's CPU time */
    ik_real q[IK_ROBOT_MAX_JOINTS > IK_ROBOT_ANALYTIC_MAX_SOLUTIONS * 6 ? IK_ROBOT_MAX_JOINTS
                                                                        : IK_ROBOT_ANALYTIC_MAX_SOLUTIONS * 6];
} ikc_protocol_answer;

/* This thread's CPU time in seconds. */
double ikc_protocol_now(void);

/* The goals of `queries` >= 1 configurations drawn from `random_seed`
 * (each variable's range from ik_robot_variable_limits: [-pi, pi] for
 * continuous joints), the seed, and the closed form where the chain has one.
 * 0 on success, -1 when memory ran out or the chain's limits are bad, with
 * *why saying which. Free with ikc_protocol_free (also after a failure). */
int ikc_protocol_init(ikc_protocol *p, const ik_robot_chain *chain, int queries, unsigned long random_seed,
                      const char **why);
void ikc_protocol_free(ikc_protocol *p);

/* The goal of query i. */
ik_transform ikc_protocol_goal(const ikc_protocol *p, int query);

/* Solves query i with `solver` (IKC_PROTOCOL_ANALYTIC and _SEEDED need a
 * closed form), timed on its own. */
void ikc_protocol_solve(const ikc_protocol *p, ikc_protocol_solver solver, int query, ikc_protocol_answer *answer);

/* Seconds for the closed form over all the goals, timed as a whole: a CPU
 * clock read is a system call about as long as one closed-form query, so a
 * per-query time of the closed form is mostly the clock. */
double ikc_protocol_analytic_batch(const ikc_protocol *p);

#endif

/* ikit robot protocol: the TRAC-IK benchmark protocol (Beeson and Ames,
 * "TRAC-IK: An open-source library for improved solving of generic inverse
 * kinematics", Humanoids 2015; trac_ik_examples/src/ik_tests.cpp) on one
 * robot chain, as `ikc ikbench` and bench/bench_robot_ik run it:
 *  - N configurations uniform within the limits (continuous joints in
 *    [-pi, pi]), drawn by splitmix64 from a seed, or exactly as TRAC-IK's
 *    ik_tests.cpp draws them (IK_ROBOT_PROTOCOL_GOALS_TRAC_IK); forward
 *    kinematics gives each goal pose;
 *  - each goal is solved from the mid-range seed (lower + upper) / 2 with a
 *    5 ms budget;
 *  - success when each of x, y, z and the three rotation components of the
 *    twist error is within 1e-5 (ik_robot_ik's `reached`), inside the limits;
 *  - the time per query, failures included, read from the caller's clock
 *    (the benchmarks pass this thread's CPU clock; the library reads none),
 *    and from a second clock when one is given (ikc ikbench reads the wall
 *    clock, which TRAC-IK's runs read, beside the CPU clock). TRAC-IK
 *    reports the mean over the successful queries only; the callers report
 *    both means.
 * Three solvers: the numeric one alone (ik_robot_ik, analytic_starts = 0),
 * the numeric one with closed-form starts (analytic_starts = 1, the model
 * prepared once), and the closed form alone (ik_robot_analytic: success
 * when it returns a solution; every one is inside the limits and checked by
 * its FK). Every buffer is the caller's. */
#ifndef IKIT_ROBOT_PROTOCOL_H
#define IKIT_ROBOT_PROTOCOL_H

#include <stddef.h>

#include <ikit/error.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/robot.h>
#include <ikit/robot_analytic.h>
#include <ikit/robot_ik.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IK_ROBOT_PROTOCOL_TIMEOUT_S 0.005
#define IK_ROBOT_PROTOCOL_EPS 1e-5

typedef enum ik_robot_protocol_solver {
    IK_ROBOT_PROTOCOL_NUMERIC,
    IK_ROBOT_PROTOCOL_SEEDED,
    IK_ROBOT_PROTOCOL_ANALYTIC
} ik_robot_protocol_solver;

/* Where the goals' configurations come from. */
typedef enum ik_robot_protocol_goals {
    IK_ROBOT_PROTOCOL_GOALS_SPLITMIX, /* ik_robot_random_configuration: splitmix64 from the seed (ikit's own) */
    IK_ROBOT_PROTOCOL_GOALS_TRAC_IK   /* as trac_ik_examples/src/ik_tests.cpp: srand(seed) (it calls srand(1)),
                                         then for each query, for each joint in chain order,
                                         q = lower + (rand() / RAND_MAX) (upper - lower), in double, with glibc's
                                         rand() (its additive feedback generator r_i = r_(i-3) + r_(i-31), output
                                         r_i >> 1, RAND_MAX 2^31 - 1), computed here from the seed with no global
                                         state: on Linux the same goals as TRAC-IK's own runs */
} ik_robot_protocol_goals;

typedef struct ik_robot_protocol {
    const ik_robot_chain *chain;
    int variables, queries;
    double lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS]; /* each variable's range as drawn */
    ik_real seed[IK_ROBOT_MAX_JOINTS];                             /* the mid-range */
    ik_transform *goals;           /* [queries], the caller's: each goal's position and rotation in the base frame */
    ik_robot_analytic_model model; /* kind NONE when the chain has no closed form */
    const char *no_closed_form;    /* then why; NULL otherwise */
    void *scratch;                 /* the caller's, for ik_robot_ik */
    size_t scratch_bytes;
    ik_robot_ik_clock clock_s; /* seconds, read around each query and as the budget's clock; NULL: no budget, 0 s */
    void *clock_user;
    ik_robot_ik_clock report_clock_s; /* NULL (init's default), or a second clock read around each query only
                                         (answer->report_seconds; it sets no budget), set after init */
    void *report_clock_user;
    ik_robot_protocol_goals goals_from; /* how init drew the goals */
} ik_robot_protocol;

/* One query's answer. */
typedef struct ik_robot_protocol_answer {
    ik_bool success;
    int solutions;              /* the closed form's count (the others: 1 on success) */
    ik_robot_ik_start found_by; /* the numeric solvers' */
    double seconds;             /* this query's time by clock_s */
    double report_seconds;      /* by report_clock_s (0 without one) */
    ik_real q[IK_ROBOT_MAX_JOINTS > IK_ROBOT_ANALYTIC_MAX_SOLUTIONS * 6 ? IK_ROBOT_MAX_JOINTS
                                                                        : IK_ROBOT_ANALYTIC_MAX_SOLUTIONS * 6];
} ik_robot_protocol_answer;

/* Bytes of scratch the protocol's numeric solves need on `chain`. */
size_t ik_robot_protocol_scratch_size(const ik_robot_chain *chain);

/* Sets up `p` on `chain`: the goals of `queries` >= 1 configurations drawn
 * from `random_seed` into goals [queries] (each variable's range from
 * ik_robot_variable_limits: [-pi, pi] for continuous joints), the seed, and
 * the closed form where the chain has one (else no_closed_form says why).
 * `scratch` holds ik_robot_protocol_scratch_size(chain) bytes, aligned for
 * ik_real. `clock` (may be NULL) times each query, with `clock_user`.
 * Returns IK_ERR_NULL, IK_ERR_RANGE (queries < 1, scratch too small, a
 * variable whose limits leave it no value) or IK_ERR_NONFINITE (a goal
 * that forward kinematics could not place), with a message in *error (may
 * be NULL). */
ik_result ik_robot_protocol_init(ik_robot_protocol *p, const ik_robot_chain *chain, int queries,
                                 unsigned long random_seed, ik_transform *goals, void *scratch, size_t scratch_bytes,
                                 ik_robot_ik_clock clock, void *clock_user, ik_error *error);

/* ik_robot_protocol_init with the goals drawn as `goals_from` says (init:
 * IK_ROBOT_PROTOCOL_GOALS_SPLITMIX); IK_ERR_RANGE for an unknown one. */
ik_result ik_robot_protocol_init_goals(ik_robot_protocol *p, const ik_robot_chain *chain, int queries,
                                       ik_robot_protocol_goals goals_from, unsigned long random_seed,
                                       ik_transform *goals, void *scratch, size_t scratch_bytes,
                                       ik_robot_ik_clock clock, void *clock_user, ik_error *error);

/* The goal of query i (0 <= i < p->queries). */
ik_transform ik_robot_protocol_goal(const ik_robot_protocol *p, int query);

/* Solves query i with `solver` (IK_ROBOT_PROTOCOL_ANALYTIC and _SEEDED need
 * a closed form: model.kind not NONE), timed on its own. Returns IK_ERR_NULL
 * or IK_ERR_RANGE (query or solver out of range; answer cleared), else
 * IK_OK whether or not the goal was reached (see answer->success). */
ik_result ik_robot_protocol_solve(const ik_robot_protocol *p, ik_robot_protocol_solver solver, int query,
                                  ik_robot_protocol_answer *answer);

/* Seconds for the closed form over all the goals, timed as a whole: a CPU
 * clock read is a system call about as long as one closed-form query, so a
 * per-query time of the closed form is mostly the clock. 0 without a
 * clock. */
double ik_robot_protocol_time_analytic(const ik_robot_protocol *p);

#ifdef __cplusplus
}
#endif
#endif

/* ikit robot pose IK: joint values q that put a robot chain's tip at a goal
 * pose (position and orientation, in the chain's base frame), with the
 * joint limits always kept.
 *
 * Each iteration measures the 6-D twist error from the tip to the goal,
 *   e_p = p_goal - p_tip
 *   e_r = rotation vector of R_goal R_tip^-1   (axis times angle, base frame)
 * (the error KDL and TRAC-IK measure), and takes one damped least-squares
 * step dq = J^T (J J^T + lambda^2 I)^-1 e over the geometric Jacobian of
 * ik_robot_jacobian_tip (ik_ls_dls_*, with the error-adaptive damping of
 * Sugihara 2011, lambda^2 = |e|^2 / 2 + 1e-6 (0.1 reach)^2). Position rows
 * are scaled by sqrt(position_importance), orientation rows by
 * sqrt(orientation_importance) * reach / 4 (reach: the summed joint offsets of
 * the chain, so a turn weighs as the distance it moves a point a quarter of
 * the reach away).
 *
 * Limits: a variable the step would push past a limit is held on it and the
 * step solved again for the others (the clamping loop of Baerlocher and
 * Boulic 2004). A rotational variable whose limits span a full turn or more
 * (continuous joints, and revolute ones such as the UR5's +-pi; up to two
 * ik_real steps short, as URDF limits are rounded inward) is never held: it
 * is moved back by whole turns, which leaves the pose unchanged (then
 * clamped: a value in the rounding gap moves by at most those steps).
 * Continuous joints' values are returned wrapped to (-pi, pi].
 *
 * When an attempt stalls (the error has not fallen by 0.1 % for
 * `stall_iterations` iterations, or the attempt has used
 * `attempt_iterations`), the solve restarts from a random configuration
 * uniform inside the limits (continuous joints in [-pi, pi]), drawn from a
 * generator seeded by `random_seed`, so runs are deterministic (for an
 * iteration budget; a time budget stops where the clock says). This is the
 * random-restart scheme of TRAC-IK's KDL-RR solver (Beeson and Ames,
 * "TRAC-IK: An open-source library for improved solving of generic
 * inverse kinematics", Humanoids 2015). The solve stops at the first
 * configuration whose error is within tolerance on every axis of each part
 * with an importance above 0 (|e_p.x| <= position_tolerance.x, ..., |e_r.z| <=
 * angle_tolerance.z), or when the
 * budget runs out; then it returns the best configuration seen (smallest
 * weighted error) with reached = 0.
 *
 * Redundancy (a 7-DOF arm such as the Panda): with null_space_gain > 0,
 * each step also moves q by (I - J^+ J) z (ik_ls_dls_project_null: the
 * task error changes only to second order), z_v = gain w_v d_v, the
 * gradient of the objective H = sum_v w_v d_v^2 / 2 (Liegeois 1977): with
 * prefer = IK_ROBOT_PREFER_SEED, d_v = seed_v - q_v and w_v = 1; with
 * IK_ROBOT_PREFER_MID_RANGE, d_v = mid_v - q_v over the limited variables
 * and w_v = (h_min / h_v)^2 (h_v the half-range, h_min the smallest), so
 * H measures the distance from the limits in half-ranges. Once the goal is
 * reached, up to null_space_iterations more steps run while the goal stays
 * within tolerance and H falls by 0.1 % a step; the last configuration
 * within tolerance is returned.
 *
 * Analytic starts: where the chain has a closed form (ik_robot_analytic_prepare
 * accepts it: 6R arms with a spherical wrist or three parallel axes), and
 * the seed itself does not reach the goal, the solve first tries the
 * closed-form solutions inside the limits (ik_robot_analytic, in the order
 * `prefer` gives: nearest the seed, or farthest from the limits), each as
 * the start of an attempt: one that is within tolerance by the solver's own
 * FK ends the solve with no iteration; one that is not (float rounding, a
 * tolerance finer than the closed form's check) is refined by the steps
 * above until it stalls, and the next one is tried. For a position-only goal
 * the closed form is asked for the seed's tip orientation at the goal
 * position. When none reaches the goal (or the arm has no closed form, or
 * no solution fits the limits), the random restarts follow as usual.
 * `found_by` reports which start gave the answer.
 *
 * Nothing allocates: `scratch` holds ik_robot_ik_scratch_size(variables)
 * bytes of caller memory, aligned for ik_real. The time budget reads the
 * caller's clock (`clock_s`), so the core library needs none.
 */
#ifndef IKIT_ROBOT_IK_H
#define IKIT_ROBOT_IK_H

#include <stddef.h>

#include <ikit/chain_base.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/robot.h>
#include <ikit/robot_analytic.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where the returned configuration's attempt started. */
typedef enum ik_robot_ik_start {
    IK_ROBOT_START_SEED,             /* the seed, refined by steps (or the seed itself) */
    IK_ROBOT_START_ANALYTIC,         /* a closed-form solution, as it is (no step) */
    IK_ROBOT_START_ANALYTIC_REFINED, /* a closed-form solution, refined by steps */
    IK_ROBOT_START_RANDOM            /* a random restart, refined by steps */
} ik_robot_ik_start;

/* A short name of a start ("seed", "analytic", "analytic, refined", "random restart"). */
const char *ik_robot_ik_start_str(ik_robot_ik_start start);

/* A clock in seconds (any origin; only differences are used). */
typedef double (*ik_robot_ik_clock)(void *user);

typedef struct ik_robot_ik {
    unsigned long defaulted; /* IK_JOB_DEFAULTED, set by ik_robot_ik_def(); do not touch */

    /* Inputs. */
    const ik_robot_chain *chain;
    ik_vec3 goal_position_bs; /* the tip's goal position, base frame */
    ik_quat goal_rotation_bs; /* the tip's goal orientation, base frame; unit (|q| within 1e-3 of 1);
                                 default identity */
    const ik_real *q_seed;    /* [chain->variable_count]: where the first attempt starts; inside the
                                 limits (continuous joints: any finite value) */

    /* Options. */
    ik_real position_importance;    /* >= 0; default 1 */
    ik_real orientation_importance; /* >= 0; default 1; 0 solves for the position only (and ignores
                                   angle_tolerance and goal_rotation_bs) */
    ik_vec3 position_tolerance;     /* per base axis, > 0; default 1e-5 each (TRAC-IK's default) */
    ik_vec3 angle_tolerance;        /* per axis of e_r, radians, > 0; default 1e-5 each */
    int max_iterations;             /* iteration budget over all attempts, >= 1; default 2000 */
    ik_robot_ik_clock clock_s;      /* NULL (default): no time budget; else read before each iteration */
    void *clock_user;               /* passed to clock_s */
    double time_budget_s;           /* with clock_s: seconds, > 0; default 0.005 (TRAC-IK's) */
    int attempt_iterations;         /* iterations before an attempt restarts, >= 1; default 30 */
    int stall_iterations;           /* iterations without a 0.1 % gain before it restarts, >= 1; default 6 */
    unsigned long random_seed;      /* restarts' generator; default 1 */
    ik_real null_space_gain;        /* >= 0, at most 1; default 0 (no secondary objective) */
    ik_robot_prefer prefer;         /* what the null-space objective pulls toward; default IK_ROBOT_PREFER_SEED */
    int null_space_iterations;      /* >= 0: steps after reaching the goal, with null_space_gain > 0; default 30 */
    ik_bool analytic_starts;        /* default 1: try the closed-form solutions first where the chain has them */
    const ik_robot_analytic_model *analytic_model; /* NULL (default): prepared from `chain` on each run that
                                  needs it (about 0.4 us on the UR5); or one prepared once from this chain
                                  (one of kind NONE, from a chain with no closed form: no closed-form starts) */
    void *scratch;                                 /* ik_robot_ik_scratch_size(chain->variable_count) bytes */
    size_t scratch_bytes;

    /* Outputs (q_out is required, the rest may be NULL). */
    ik_real *q_out;              /* [chain->variable_count]; may be the same array as q_seed */
    ik_bool *reached;            /* 1 when every axis is within tolerance */
    ik_real *position_error;     /* |p_goal - p_tip| at q_out (0 when position_importance is 0) */
    ik_real *angle_error;        /* angle of R_goal R_tip^-1 at q_out, radians in [0, pi] (0 when
                                    orientation_importance is 0) */
    int *iterations;             /* iterations taken, over all attempts */
    int *restarts;               /* attempts started from a random configuration */
    ik_robot_ik_start *found_by; /* where the returned configuration's attempt started */
    ik_error *error_field;       /* NULL, or cleared on IK_OK, else path names the bad field
                                    ("q_seed", index = variable) */
} ik_robot_ik;

/* A job with the defaults documented above and every pointer NULL. */
ik_robot_ik ik_robot_ik_def(void);

/* Bytes of scratch for a chain of `variable_count` variables (0 when negative). */
size_t ik_robot_ik_scratch_size(int variable_count);

/* Validate, then solve. Returns IK_OK when it ran, reached or not (see
 * *reached); IK_ERR_NOT_DEFAULTED, IK_ERR_NULL (chain, q_seed, q_out,
 * scratch), IK_ERR_NONFINITE (goal, importances, tolerances, seed, chain
 * numbers), IK_ERR_RANGE (an importance < 0 or both 0, a tolerance <= 0, a zero
 * budget, a rotation not of unit length, a seed value outside its limits,
 * limits that leave a variable no value, a bad chain, an analytic_model
 * with a closed form prepared from another chain), IK_ERR_DEGENERATE (a
 * mimic multiplier of 0), IK_ERR_CAPACITY (scratch too small). On an error
 * no output is written. */
ik_result ik_robot_ik_run(const ik_robot_ik *job);

#ifdef __cplusplus
}
#endif
#endif

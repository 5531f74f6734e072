/* ikit analytic robot IK: every closed-form solution of a 6R arm whose
 * geometry allows one, found from the chain's own axes (not from a robot's
 * name or a DH table).
 *
 * The chain is read at joint values 0 as a product of exponentials (Brockett):
 * joint i turns about the base-frame axis h_i through the point p_i, and
 *   T(theta) = E_1(theta_1) ... E_6(theta_6) M
 * with M the tip's frame at zero. Two shapes are solved, each by the
 * canonical subproblems of Elias and Wen ("IK-Geo: Unified robot inverse
 * kinematics using subproblem decomposition", 2022): SP1 (the angle turning
 * one vector onto another), SP3 (the angle putting a turned point at a
 * distance) and SP4 (the angle putting a turned vector at a height along a
 * direction); SP2 (two angles about two axes) is an SP4 then an SP1.
 *
 *  - IK_ROBOT_ANALYTIC_SPHERICAL_WRIST: axes 4, 5, 6 meet in a point w and
 *    axes 2 and 3 are parallel (the IRB 2400 and most industrial arms; the
 *    decoupling of Pieper 1968). The wrist centre goes to w_t = T M^-1 w,
 *    which E_4 E_5 E_6 leave alone: theta_1 by SP4 (rotations about axes
 *    parallel to h_2 keep a point's height along h_2), theta_3 by SP3
 *    (rotation about axis 2 keeps the distance to p_2), theta_2 by SP1; then
 *    R_4 R_5 R_6 = (R_1 R_2 R_3)^T R_T R_M^T by SP4, SP1, SP1.
 *  - IK_ROBOT_ANALYTIC_THREE_PARALLEL: axes 2, 3, 4 parallel and axes 5 and 6
 *    meeting in a point c (the UR family; the closed form of Hawkins,
 *    "Analytic inverse kinematics for the Universal Robots UR-5/UR-10 arms",
 *    2013, restated in subproblems): theta_1 by SP4 on c's height along h_2,
 *    theta_5 by SP4 on h_2^T R_1^T R_T R_M^T h_6 = h_2^T R_5 h_6, theta_6 by
 *    SP1, then the planar theta_2, theta_3 as above on a point of axis 4, and
 *    theta_4 by SP1.
 * Up to 2 x 2 x 2 = 8 solutions. Other chains are refused (IK_ERR_UNSUPPORTED,
 * with the reason).
 *
 * Each solution's joint values are mapped to the variables (mimic-free
 * chains: one revolute or continuous joint per variable, in order), moved
 * by whole turns into the limits (to the copy nearest the seed where the
 * range holds several; continuous joints wrapped to (-pi, pi]) as soon as
 * the closed form finds it, the branch dropped there when no copy fits; each
 * complete solution is checked by forward kinematics (the product of
 * exponentials, in double, from each angle's cosine and sine as the
 * subproblems give them) against the goal within the tolerances, and
 * the survivors sorted by distance to the seed (or, with prefer =
 * IK_ROBOT_PREFER_MID_RANGE, by the limit cost: the sum of
 * ((q_v - mid_v) / half-range_v)^2 over the variables limited to less than
 * a turn).
 *
 * Nothing allocates; the model is a plain value built once per chain.
 */
#ifndef IKIT_ROBOT_ANALYTIC_H
#define IKIT_ROBOT_ANALYTIC_H

#include <ikit/chain_base.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/robot.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IK_ROBOT_ANALYTIC_MAX_SOLUTIONS 8

typedef enum ik_robot_analytic_kind {
    IK_ROBOT_ANALYTIC_NONE,
    IK_ROBOT_ANALYTIC_SPHERICAL_WRIST,
    IK_ROBOT_ANALYTIC_THREE_PARALLEL
} ik_robot_analytic_kind;

/* A chain's geometry at zero, as the solver needs it. */
typedef struct ik_robot_analytic_model {
    ik_robot_analytic_kind kind;
    const ik_robot_chain *chain;      /* the chain it was built from; must outlive the model */
    ik_vec3 axis_bs[6];               /* h_i, unit, base frame at zero */
    ik_vec3 point_bs[6];              /* p_i, a point on axis i */
    ik_transform home_tip_bs;         /* M */
    ik_vec3 center_bs;                /* w (spherical wrist) or c (axes 5 and 6 meet) */
    ik_real multiplier[6], offset[6]; /* joint value = multiplier q + offset */
    ik_real lower[6], upper[6];       /* each variable's limits (ik_robot_variable_limits) */
    ik_bool limited[6];
    /* The same geometry in double, as each solve reads it (set by prepare, so
     * a query pays only for the solve): unit axes h_i, points p_i, the centre,
     * p_M and R_M^T (row-major), unit vectors across h_4 and h_6 (both along
     * h_5), and for the FK check p_i's part across its axis,
     * p_i - (h_i . p_i) h_i, and h_i x p_i. */
    struct {
        double axis[6][3], point[6][3], center[3], home_tip[3], home_rotation_t[9], across_4[3], across_6[3];
        double point_across[6][3], axis_cross_point[6][3];
    } solve_bs;
} ik_robot_analytic_model;

/* Reads the chain's geometry and decides which closed form applies: axes
 * are parallel when the sine between them is below 1e-5 (float: 1e-4), and
 * meet when the distance between them is below that share of the chain's
 * reach. IK_ERR_NULL; IK_ERR_RANGE, IK_ERR_NONFINITE, IK_ERR_DEGENERATE as
 * ik_robot_variable_limits; IK_ERR_UNSUPPORTED (not 6 variables, a
 * prismatic or mimic joint, neither shape) with *why (may be NULL) saying
 * which; model->kind is IK_ROBOT_ANALYTIC_NONE on any error. */
ik_result ik_robot_analytic_prepare(const ik_robot_chain *chain, ik_robot_analytic_model *model, const char **why);

/* A short name of the kind ("spherical wrist", "three parallel axes", "none"). */
const char *ik_robot_analytic_kind_str(ik_robot_analytic_kind kind);

typedef struct ik_robot_analytic {
    unsigned long defaulted; /* IK_JOB_DEFAULTED, set by ik_robot_analytic_def(); do not touch */

    /* Inputs. */
    const ik_robot_analytic_model *model; /* from ik_robot_analytic_prepare */
    ik_vec3 goal_position_bs;             /* the tip's goal position, base frame */
    ik_quat goal_rotation_bs;             /* unit (|q| within 1e-3 of 1); default identity */
    const ik_real *q_seed;                /* [6] or NULL (the mid-range); solutions sorted by distance to it, and the
                                             value taken by a joint left free at a singular pose */

    /* Options. */
    ik_robot_prefer prefer;     /* the order of the solutions; default IK_ROBOT_PREFER_SEED (nearest first) */
    ik_real position_tolerance; /* per base axis, > 0; default 1e-5 (TRAC-IK's) */
    ik_real angle_tolerance;    /* per axis of the rotation error, radians, > 0; default 1e-5 */

    /* Outputs (q_out and solution_count are required). */
    ik_real *q_out;        /* [IK_ROBOT_ANALYTIC_MAX_SOLUTIONS * 6]: solution s at q_out + 6 s */
    int *solution_count;   /* 0 .. 8; 0 when the pose is out of reach or out of the limits */
    ik_bool *singular;     /* NULL or 1 when a joint was free (wrist or shoulder singular) and took the seed's
                              value, in a branch whose joints before it fit the limits */
    ik_error *error_field; /* NULL, or cleared on IK_OK, else path names the bad field */
} ik_robot_analytic;

/* A job with the defaults documented above and every pointer NULL. */
ik_robot_analytic ik_robot_analytic_def(void);

/* Validate, then solve. IK_OK when it ran (any number of solutions);
 * IK_ERR_NOT_DEFAULTED, IK_ERR_NULL (model, q_out, solution_count),
 * IK_ERR_UNSUPPORTED (a model of kind NONE), IK_ERR_NONFINITE (goal, seed,
 * tolerances), IK_ERR_RANGE (a rotation not of unit length, a tolerance
 * <= 0, an unknown prefer). On an error no output is written. */
ik_result ik_robot_analytic_run(const ik_robot_analytic *job);

#ifdef __cplusplus
}
#endif
#endif

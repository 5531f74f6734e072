/* ikit Jacobian solvers: transpose, gradient descent, damped least squares
 * (DLS) and selectively damped least squares (SDLS), for any number of
 * effectors on a skeleton, with springs, comfort ranges and gravity.
 *
 * The solver turns joints about axes given in each joint's own local frame
 * (after its current rotation): a hinge axis, two or three axes for a ball
 * joint, or the bone axis for a twist like a wrist (seed 002, "joint axis
 * through bone"). A turn by dtheta about local axis a sets
 * rotation_ls = rotation_ls * exp(a dtheta). Translations and scales are
 * never changed, so bone lengths are kept exactly.
 *
 * Each iteration builds the Jacobian of the effectors (Buss 2004): a column
 * per axis, with world axis a at joint position p, effector position s:
 *   position rows  d s / d theta = a x (s - p)
 *   orientation rows              = a
 * then takes one step of the chosen method (for DLS, damped by default in
 * proportion to the remaining squared error, Levenberg-Marquardt style,
 * after Sugihara 2011, so it converges to tight tolerances in a few
 * iterations; see `damping`), adds the secondary objective
 * (springs toward comfort, gravity), scales the step so no angle changes by
 * more than max_step, applies it, clamps hard limits, and updates forward
 * kinematics of only the joints that move.
 *
 * Effector errors: position e = target - effector (clamped to error_clamp *
 * reach, Buss & Kim 2005, so unreachable targets settle instead of
 * jittering); orientation e = rotation vector of target * current^-1, scaled
 * by the reach so both are lengths. Rows are scaled by sqrt(importance).
 * "reach" is the summed length of the bones the solver moves.
 *
 * Secondary objective: springs and gravity give a per-axis step z. DLS and
 * SDLS project it into the null space of the Jacobian, which leaves the
 * effectors in place to first order, and know the springs' hard limits:
 * an axis whose angle plus step would pass a limit is locked there (turned
 * onto the limit, its column removed), z is projected into the null space
 * of the free axes' Jacobian and the free axes take back what the limit
 * turns do to the effectors, repeated until no free axis passes a limit
 * (Baerlocher & Boulic 2004's clamping loop), so the clamp after a step
 * cuts nothing the projection counted on. Each step with a secondary part
 * is then checked after it is applied: it must leave every goal met (or,
 * while the goals are not met yet, shrink the error by a quarter), else it
 * is retried with the secondary part halved, down to none. So once the
 * goals are met, gravity and springs never take an effector out of
 * tolerance; they relax the pose only within the room the goals leave
 * (with tolerance 0, only while the approach is fast). ik_constraint
 * projections are not part of the clamping loop. The transpose and
 * gradient methods add z to the step (seed 002's sum of torques), so a
 * stiff spring can hold an effector short of its target.
 *
 * Limits: the input pose is first brought inside the limits; after each
 * free step the solver clamps each axis into its spring's hard limits and
 * projects each joint with its ik_constraint, and the Jacobian of the next
 * iteration starts from the projected pose.
 *
 * Everything runs in caller memory: `scratch` must hold
 * ik_jacobian_scratch_size(...) bytes, aligned for ik_real.
 *
 * The step of each method over the Jacobian and error rows is ik_ls's
 * (ls_step.h), for solvers over other kinematic models.
 */
#ifndef IKIT_JACOBIAN_H
#define IKIT_JACOBIAN_H

#include <stddef.h>

#include <ikit/chain_base.h>
#include <ikit/constraint.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/skeleton.h>
#include <ikit/spring.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IK_JACOBIAN_MAX_AXES 3

typedef enum ik_jacobian_method {
    /* theta += alpha J^T e, alpha = <e, J J^T e> / |J J^T e|^2 (Buss 2004). */
    IK_JACOBIAN_TRANSPOSE,
    /* Gradient descent on |e|^2 / 2 (seed 003): theta += rate J^T e / |J|_F^2.
     * The gradient of |target - s|^2 / 2 is -J^T e, so stepping along +J^T e
     * lowers the error; |J|_F^2 >= sigma_max^2 keeps rate < 2 inside the
     * stability bound of the linearised problem. */
    IK_JACOBIAN_GRADIENT,
    /* theta += J^T (J J^T + lambda^2 I)^-1 e (Buss 2004, section 5), with
     * lambda^2 = |e|^2 / 2 + 1e-6 reach^2 by default (Sugihara 2011), or a
     * fixed lambda (see `damping`). */
    IK_JACOBIAN_DLS,
    /* Selectively damped least squares (Buss & Kim 2005). */
    IK_JACOBIAN_SDLS
} ik_jacobian_method;

/* One joint the solver may turn, with 1 to 3 axes in its local frame. */
typedef struct ik_jacobian_joint {
    int joint;
    int axis_count;                        /* 1..IK_JACOBIAN_MAX_AXES */
    ik_vec3 axes_ls[IK_JACOBIAN_MAX_AXES]; /* non-zero; normalised by the solver */
} ik_jacobian_joint;

typedef struct ik_jacobian_effector {
    int joint;
    ik_vec3 offset_ls;              /* effector point in the joint's frame (zero: its origin) */
    ik_vec3 target_ms;              /* position goal, in the space of root_ms */
    ik_real importance;             /* >= 0; 0 ignores the position goal */
    ik_bool use_orientation;        /* 0: position only */
    ik_quat target_rotation_ms;     /* orientation goal of the joint (unit) */
    ik_real orientation_importance; /* >= 0 */
} ik_jacobian_effector;

typedef struct ik_jacobian {
    /* skeleton, pose_ls, root_ms, scratch (ik_jacobian_scratch_size bytes) and
     * constraints: one per entry of joints[] (NULL: none), applied with
     * ik_constraint_apply after every step, after the spring limits. */
    ik_chain_base base;
    /* Inputs. */
    const ik_jacobian_joint *joints;       /* [base.listed_joint_count] */
    const ik_jacobian_effector *effectors; /* [effector_count] */
    int effector_count;
    /* Optional: one spring per axis, in the order of joints[] and their axes
     * (NULL: none). Hard limits are always enforced when given. */
    const ik_spring *springs;
    /* Seed 002's preference for low poses: each iteration turns every axis
     * by gravity * (lowering of the moved joints' mean height per radian) /
     * reach. 0 (default) disables it. */
    ik_real gravity;
    ik_vec3 down_ms; /* default (0, -1, 0) */

    /* Options. */
    ik_jacobian_method method; /* default IK_JACOBIAN_DLS */
    ik_real tolerance;         /* position error to stop at, model units; default 1e-3 */
    ik_real angle_tolerance;   /* orientation error to stop at, radians; default 1e-3 */
    int max_iterations;        /* default 100 */
    ik_real damping;           /* DLS: 0 (default) damps by the error, lambda^2 = |e|^2 / 2 +
                                * 1e-6 reach^2 over the weighted error rows (Sugihara 2011's
                                * Levenberg-Marquardt damping); > 0 is a fixed lambda as a
                                * fraction of the reach (0.1 was the old default) */
    ik_real max_step;          /* largest angle change per iteration, radians; default pi/4
                                * (SDLS's gamma_max) */
    ik_real error_clamp;       /* position error clamp as a fraction of the reach; default 0.5 */
    ik_real gradient_rate;     /* IK_JACOBIAN_GRADIENT step rate in (0, 2); default 1 */
    ik_real min_step;          /* stop when no angle changes more than this; default 1e-6 */

    /* Outputs (each may be NULL). */
    int *iterations;      /* iterations taken */
    ik_real *error;       /* largest effector position error after the solve (finite for
                             any finite target) */
    ik_real *angle_error; /* largest orientation error (radians) after the solve */
} ik_jacobian;

/* A job with the defaults documented above and every pointer NULL. */
ik_jacobian ik_jacobian_def(void);
/* An effector on `joint` with a position goal of importance 1, no orientation goal. */
ik_jacobian_effector ik_jacobian_effector_make(int joint, ik_vec3 target_ms);
/* A joint turning about one local axis (a hinge, or the bone axis for a twist). */
ik_jacobian_joint ik_jacobian_hinge(int joint, ik_vec3 axis_ls);
/* A joint turning about its local x, y and z axes (a ball joint). */
ik_jacobian_joint ik_jacobian_ball(int joint);

/* Bytes of scratch a solve needs for a skeleton of `skeleton_joints` joints,
 * `axis_count` axes in total over the solver's joints and `effector_count`
 * effectors (room is kept for orientation goals on all of them). */
size_t ik_jacobian_scratch_size(int skeleton_joints, int axis_count, int effector_count);

/* Validate, then iterate until every effector is within tolerance of its
 * target (of the nearest point it can reach, for a target out of reach),
 * the step becomes smaller than min_step (unless, by the linearised model,
 * it closes at least half the remaining error), the error stops falling (every 8
 * iterations it must drop by 0.5% of itself while some target is out of
 * reach, by 0.05% otherwise), or max_iterations is reached. With springs
 * (stiffness > 0) or gravity the solve goes on relaxing after the goals are
 * met, until the step falls under min_step (seed 002's tail settling). With
 * ik_constraint limits, no springs or gravity and every target in reach, a
 * stall short of the targets (an 8-iteration window gaining under 5% of
 * the error) restarts from a fresh pose inside the limits, up to 8 times
 * within max_iterations, and the best pose found is returned. Returns
 * IK_OK when it ran (whether or not the targets were reached: see `error`),
 * IK_ERR_NULL, IK_ERR_NONFINITE, IK_ERR_RANGE, IK_ERR_DEGENERATE (a zero
 * axis) or IK_ERR_CAPACITY (scratch too small); on an error the pose is
 * untouched. */
ik_result ik_jacobian_run(const ik_jacobian *job);

#ifdef __cplusplus
}
#endif
#endif

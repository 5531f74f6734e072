/* ikit FABRIK: Forward And Backward Reaching Inverse Kinematics (Aristidou
 * and Lasenby 2011; seed 004), on a single chain or on a joint tree with
 * several end effectors.
 *
 * The solved joints are a list as described in chain_base.h (ascending skeleton
 * indices, the first is the fixed base). Effectors are positions in that list;
 * each gets a model-space target. Per iteration:
 *   backward pass (tips to base): each effector is put on its target, then
 *     every joint is placed on the line to its previous position at its bone
 *     length from its (already placed) child; at a sub-base where several
 *     branches meet, the placements of all branches are averaged, weighted
 *     by the effector importances below them (the paper's centroid);
 *   forward pass (base to tips): the base goes back to its start; every joint
 *     is placed at its bone length from its parent, towards its backward-pass
 *     position.
 * Joints that lead to no effector follow their parents rigidly.
 *
 * Constraints (constraint.h, one per listed joint) are applied inside both
 * passes, as the paper does. Backward, where a joint is its parent's only
 * active child, the parent turns onto the line to the joint, then takes the
 * frame that puts the joint's local rotation (from the joint's own frame,
 * set one step earlier) inside its limits, which moves the parent's
 * placement. Forward: each joint turns by the minimum rotation taking its
 * bone onto the new direction, expressed in its parent's frame, then the
 * constraint projects that local rotation, and its children are placed from
 * the projected rotation. The same rotational forward pass is used when a
 * sub-base has several branches (the joint turns by the weighted average of
 * the branches' minimum rotations, so its rigid shape is kept); otherwise the
 * passes run on positions only and the rotations are recovered once at the
 * end with that same minimum-rotation rule, which keeps each bone's twist.
 *
 * A plain chain (one effector at the last listed joint, each listed joint's
 * link parent the one before it, no constraint set) takes a leaner path:
 * positions only, lengths precomputed, squared comparisons, the base's
 * backward position used to stop half an iteration early when it is
 * already within tolerance (the chain shifted back onto its base is then a
 * solution), a target out of reach met in one pass by laying the chain
 * straight towards it (the paper's algorithm 1), an end-game for targets
 * near full extension (below), and the rotations recovered once at the end
 * by the same minimum-rotation rule.
 *
 * The end-game: for a target from 0.8 of the chain's length L out, where
 * FABRIK crawls, a plain chain of 3 or more joints may be bent into a plane
 * arc that spans the target (every joint turning by the same angle, found
 * by Newton's method, bulging to the side the chain does; it counts as one
 * iteration). A straight chain is bent at once (FABRIK cannot bend it
 * towards a target on its own line). Any other pose is bent at most once,
 * the first time an iteration leaves more than half the error, and only if
 * no joint moves by more than 10 times the end's distance to the target
 * when the solve began. So a cold solve (the end far from the target) is
 * reshaped into the arc, while a pose warm-started from the previous frame
 * of a moving target, which already nearly reaches, moves by at most that
 * much (an elbow stays an elbow unless the arc is that close) and follows
 * smoothly; near full extension it is bent into the arc once the arc is
 * that close to it. Tracking a target
 * that moves 1e-3 L a frame between 0.7 L and beyond reach and around near
 * full extension (tests/test_fabrik.c, test_tracking_smooth), no joint
 * moves by more than 22 times the target's step in a frame while the
 * target is within reach (a straight chain whose target comes back within
 * reach by one step must bend by about 19 steps anyway: the singularity).
 * With 1 iteration a frame the chain lags near full extension, and when
 * the target then leaves reach the one-pass straightening snaps it (by up
 * to 87 steps, as FABRIK without the end-game).
 *
 * The loop stops when every effector is within `tolerance` of its target,
 * when the largest effector error improves by less than tolerance / 1000 in
 * an iteration (an unreachable target, a locked constraint), or after
 * `max_iterations`.
 *
 * A chain with limits (one effector at the end, constraints set) that is
 * still short of its target when an iteration gains less than 2% of the
 * error hands over to CCD sweeps (ccd.h, with its restarts from fresh poses
 * inside the limits, which escape the local minima limits make) for the
 * iterations left: FABRIK's projections alone stall or crawl on such chains
 * (on a humanoid arm, 31% of the targets met). An effector's target rotation, when given, sets that
 * joint's model rotation at the end (then its constraint applies).
 */
#ifndef IKIT_FABRIK_H
#define IKIT_FABRIK_H

#include <ikit/chain_base.h>
#include <ikit/constraint.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/skeleton.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ik_fabrik {
    ik_chain_base base; /* skeleton, pose_ls, constraints, root_ms, scratch (chain_base.h) */
    /* inputs */
    const int *joints;                  /* [base.listed_joint_count] see chain_base.h */
    const int *effectors;               /* [effector_count] positions in `joints`; NULL: the last joint */
    int effector_count;                 /* default 1 */
    const ik_vec3 *targets_ms;          /* [effector_count] */
    const ik_quat *target_rotations_ms; /* [effector_count] or NULL; unit rotations */
    const ik_real *importances;         /* [effector_count] > 0, or NULL for all 1 */
    /* options */
    ik_real tolerance;  /* model units; default 1e-3 */
    int max_iterations; /* default 1000, as CCD (ccd.h); CCD sweeps of the end-game count */
    /* outputs (may be NULL) */
    int *iterations; /* iterations run */
    ik_real *error;  /* largest effector distance to its target at the end */
} ik_fabrik;

/* Defaults: one effector (the last joint), tolerance 1e-3, 1000 iterations,
 * every pointer NULL. */
ik_fabrik ik_fabrik_def(void);

/* Bytes of scratch a solve of `joint_count` listed joints needs. */
size_t ik_fabrik_scratch_size(int joint_count);

/* Validates (IK_ERR_NULL, IK_ERR_RANGE for counts, effector positions,
 * weights <= 0, tolerance < 0 or max_iterations < 0, IK_ERR_HIERARCHY,
 * IK_ERR_NONFINITE for targets, target rotations, weights, root_ms or the
 * pose the chain reads, IK_ERR_DEGENERATE for a zero target rotation,
 * constraint errors from ik_constraint_validate, IK_ERR_CAPACITY for
 * scratch_bytes under ik_fabrik_scratch_size), then solves. On error
 * nothing is written. */
ik_result ik_fabrik_run(const ik_fabrik *job);

#ifdef __cplusplus
}
#endif
#endif

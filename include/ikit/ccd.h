/* ikit CCD: cyclic coordinate descent on a chain (seed 004).
 *
 * One iteration (a sweep) visits the chain from the joint before the end
 * effector back to the root; each joint turns by the minimum rotation taking
 * its joint-to-effector direction onto its joint-to-target direction,
 * expressed in its parent's frame, capped at `max_step_angle` (damping), then
 * projected by its constraint (constraint.h) before the next joint is
 * visited, so the limits hold at every step. The loop stops when the
 * effector is within `tolerance` of the target (checked after every joint),
 * or, for a target farther from the chain's base than the chain is long,
 * within `tolerance` of the closest the chain can come (|t - base| minus
 * the summed bone lengths); when 16 sweeps in a row improve the error by
 * less than 0.1% of itself (limits holding the chain back; CCD's slow
 * plateaus, where the error can hang near one value for a hundred sweeps
 * before falling, still gain more than that); or after `max_iterations`
 * sweeps. On the FABRIK paper's test (10 unit bones, straight start, targets
 * in a ball of 0.9 times the length, tolerance 1e-3 of the length) CCD
 * takes about 47 sweeps on average, but 1 target in 600 needs 500 to 1000,
 * hence the default cap of 1000. On a chain with limits and a target inside
 * the reach ball, a stall short of the target (the error falling by less
 * than 1% in 8 sweeps) starts the sweeps again from a fresh pose inside the
 * limits (ik_constraint_sample at repeatable pseudo-random points), up to
 * 16 times within the sweep cap, and the best pose found is kept: limits
 * make local minima that sweeps from one start cannot leave. A target
 * rotation, when given, sets the end joint's model rotation at the end
 * (then its constraint applies).
 */
#ifndef IKIT_CCD_H
#define IKIT_CCD_H

#include <ikit/chain_base.h>
#include <ikit/constraint.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/skeleton.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ik_ccd {
    ik_chain_base base; /* skeleton, pose_ls, constraints, root_ms, scratch (chain_base.h) */
    /* inputs */
    const int *joints; /* [base.listed_joint_count] root-first, each below the previous; the last is the effector */
    ik_vec3 target_ms;
    const ik_quat *target_rotation_ms; /* NULL, or the end joint's wanted model rotation */
    /* options */
    ik_real max_step_angle; /* radians per joint step, in (0, pi]; default pi (no cap) */
    ik_real tolerance;      /* default 1e-3 */
    int max_iterations;     /* sweeps; default 1000 */
    /* outputs (may be NULL) */
    int *iterations;
    ik_real *error; /* effector distance to the target at the end */
} ik_ccd;

ik_ccd ik_ccd_def(void);

/* Bytes of scratch a solve of `joint_count` chain joints needs. */
size_t ik_ccd_scratch_size(int joint_count);

/* Validates (as ik_fabrik_run, plus IK_ERR_RANGE for max_step_angle outside
 * (0, pi]), then solves. On error nothing is written. */
ik_result ik_ccd_run(const ik_ccd *job);

#ifdef __cplusplus
}
#endif
#endif

/* ikit two-bone IK over many limbs with their rotations solved in place:
 * the call for a caller that keeps each limb's local rotations in arrays (a
 * crowd, numpy arrays from Python) and wants the new ones written there.
 *
 * Every limb is solved as ik_two_bone_run would solve it with the shared
 * options of `limb` and its own joints, target and pole. Where the options
 * allow the batch job (no hinge, no extra twist, full weight, and a pole
 * per limb or none), it runs on ik_two_bone_batch_run's lanes, a few
 * hundred limbs at a time, and the new rotations are old * correction,
 * normalised as ik_two_bone_run normalises its own (the single job's
 * answer to rounding); otherwise, one ik_two_bone_run per limb.
 */
#ifndef IKIT_TWO_BONE_IN_PLACE_H
#define IKIT_TWO_BONE_IN_PLACE_H

#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/two_bone.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ik_two_bone_in_place {
    /* The options every limb shares, as ik_two_bone_def() made them and the
     * caller set them: use_pole with pole_ms (one pole for every limb, when
     * pole_ms below is NULL), the hinge, soften, twist, weight and
     * reach_tolerance. Its joint matrices, target, rotation and output
     * pointers are not read; keep_end_rotation must be 0. */
    ik_two_bone limb;

    int count; /* limbs; 0 is allowed (nothing is read or written) */

    /* In [count]: limb i's joints' model-space matrices, its target, and
     * its pole (NULL: limb.use_pole and limb.pole_ms say). */
    const ik_mat4 *start_ms;
    const ik_mat4 *mid_ms;
    const ik_mat4 *end_ms;
    const ik_vec3 *target_ms;
    const ik_vec3 *pole_ms;

    /* In and out [count]: the start and mid joints' local rotations. */
    ik_quat *start_rotation_ls;
    ik_quat *mid_rotation_ls;

    /* Out [count], optional (NULL): as ik_two_bone's reached and residual. */
    ik_bool *reached;
    ik_real *residual;
    /* Out, optional: the index of the limb that failed, -1 when none did. */
    int *failed_limb;

    unsigned long defaulted; /* IK_JOB_DEFAULTED, set by ik_two_bone_in_place_def(); do not touch */
} ik_two_bone_in_place;

/* limb = ik_two_bone_def(), count 0, every pointer NULL. */
ik_two_bone_in_place ik_two_bone_in_place_def(void);

/* Solve the limbs in order. Returns IK_ERR_NOT_DEFAULTED for a job (or a
 * `limb`) not made by its _def(), IK_ERR_NULL for a missing array (with
 * count > 0), IK_ERR_RANGE for a negative count or keep_end_rotation set:
 * then nothing is written. Otherwise stops at the first limb whose solve
 * fails and returns its ik_two_bone_run result (IK_ERR_NONFINITE for NaN
 * or infinite input, IK_ERR_DEGENERATE for a zero rotation, ...), its index
 * in *failed_limb: the limbs before it are solved, its reached is 0, and it
 * and those after keep their rotations. IK_OK when every limb solved. */
ik_result ik_two_bone_in_place_run(const ik_two_bone_in_place *job);

#ifdef __cplusplus
}
#endif
#endif

/* ikit batch two-bone IK: many limbs in one call, eight at a time on AVX
 * lanes where the processor has AVX (chosen at run time; the float build on
 * x86-64 with GCC or Clang), else four (SSE2 lanes in the float build on
 * x86-64; plain scalar code in the double build, on WebAssembly and
 * elsewhere). The lanes give the same answers either way.
 *
 * Each limb is what an ik_two_bone job would be with the same matrices,
 * target, pole, weight, soften and reach_tolerance, and no hinge, no twist
 * and no keep_end_rotation: the answers are ik_two_bone_run's (to
 * rounding), and so are the per-limb errors. The common case -- the start
 * and mid frames rotations or mirrors with a uniform scale, a bent limb of
 * usual size, full weight, a swing short of a half turn -- runs in the
 * lanes; any other limb (straight or folded, zero-length bones, a
 * non-uniform scale above it, a weight below 1, NaN or infinite inputs,
 * ...) is handed to ik_two_bone_run itself, one limb at a time, so it gets
 * exactly the single solver's answer, only not at the batch's speed.
 *
 * What is left to the single job: hinge limits (use_hinge), the extra
 * twist, keep_end_rotation, and options that differ from limb to limb
 * other than the pole and the weight.
 *
 * Inputs are arrays the caller already has: the three joints' model-space
 * matrices, limb i's at byte offset i * joint_stride from start_ms, mid_ms
 * and end_ms (so one skeleton pose array per character, laid end to end,
 * serves: point start_ms at the first character's thigh and set the stride
 * to one character's pose), and packed arrays of targets, poles and
 * weights. The outputs are the two local rotation corrections: the new
 * local rotations are start_rotation_ls * start_correction_ls and
 * mid_rotation_ls * mid_correction_ls (the single job's results).
 */
#ifndef IKIT_TWO_BONE_BATCH_H
#define IKIT_TWO_BONE_BATCH_H

#include <stddef.h>

#include <ikit/math.h>
#include <ikit/result.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ik_two_bone_batch {
    int count; /* limbs; 0 is allowed (nothing is read or written) */

    /* In: model-space matrices of the start, mid and end joints; limb i's
     * at (const char *)start_ms + i * joint_stride (likewise mid, end).
     * joint_stride 0 means packed arrays, sizeof(ik_mat4). */
    const ik_mat4 *start_ms;
    const ik_mat4 *mid_ms;
    const ik_mat4 *end_ms;
    size_t joint_stride;

    const ik_vec3 *target_ms; /* in [count] */
    const ik_vec3 *pole_ms;   /* in [count], or NULL for no pole (as use_pole 0) */
    const ik_real *weight;    /* in [count], or NULL for 1 each */

    /* Shared by every limb, as in ik_two_bone. Defaults 0 and 1e-3. */
    ik_real soften;
    ik_real reach_tolerance;

    /* Out [count]: the local corrections (unit, w of either sign). */
    ik_quat *start_correction_ls;
    ik_quat *mid_correction_ls;
    /* Out [count], optional (NULL): as ik_two_bone's reached and residual,
     * and each limb's ik_two_bone_run result. A limb that fails gets the
     * identity corrections and reached 0; its residual is not written. */
    ik_bool *reached;
    ik_real *residual;
    ik_result *status;

    unsigned long defaulted; /* IK_JOB_DEFAULTED, set by ik_two_bone_batch_def(); do not touch */
} ik_two_bone_batch;

/* count 0, every pointer NULL, joint_stride 0, soften 0, reach_tolerance 1e-3. */
ik_two_bone_batch ik_two_bone_batch_def(void);

/* Solve every limb. Returns IK_ERR_NOT_DEFAULTED for a job not made by
 * ik_two_bone_batch_def(), IK_ERR_NULL for a missing array (with count >
 * 0), IK_ERR_RANGE for a negative count, a joint_stride that is not a
 * multiple of sizeof(ik_real) or soften outside [0, 1), IK_ERR_NONFINITE
 * for a NaN or infinite soften or reach_tolerance: then nothing is
 * written. Otherwise every limb is solved and the result is IK_OK when
 * each limb's was, else the first failing limb's (see `status`). */
ik_result ik_two_bone_batch_run(const ik_two_bone_batch *job);

#ifdef __cplusplus
}
#endif
#endif

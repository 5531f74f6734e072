/* ikit batch aim: many joints aimed in one call, eight at a time on AVX
 * lanes where the processor has AVX (chosen at run time; the float build on
 * x86-64 with GCC or Clang), else four (SSE2 lanes in the float build on
 * x86-64; plain scalar code in the double build, on WebAssembly and
 * elsewhere). The lanes give the same answers either way.
 *
 * Each joint is what an ik_aim job would be with the same joint matrix,
 * target, pole and weight, and the batch's shared forward, up and offset
 * axes (one rig's head: every character of a crowd shares them), with no
 * twist: the answers are ik_aim_run's correction_ls (to rounding), and so
 * are the per-joint errors. The common case -- a joint frame that is a
 * rotation or mirror with a uniform scale, full weight, a swing short of
 * about 170 degrees -- runs in the lanes; any other joint (a weight below
 * 1, a shear or non-uniform scale above it, a target on its origin or
 * behind it, NaN or infinite inputs, ...) is handed to ik_aim_run itself,
 * one at a time, so it gets exactly the single solver's answer, only not at
 * the batch's speed. Left to the single job: the twist, per-joint axes and
 * offsets, chains (ik_look_at_chain).
 *
 * Joint i's matrix is read at byte offset i * joint_stride from joint_ms
 * (0: packed); targets, poles and weights are packed arrays. The output is
 * the local correction C: the new local rotation is rotation_ls * C.
 */
#ifndef IKIT_AIM_BATCH_H
#define IKIT_AIM_BATCH_H

#include <stddef.h>

#include <ikit/math.h>
#include <ikit/result.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ik_aim_batch {
    int count; /* joints; 0 is allowed */

    const ik_mat4 *joint_ms;  /* in: joint i's at (const char *)joint_ms + i * joint_stride */
    size_t joint_stride;      /* bytes; 0 means sizeof(ik_mat4) */
    const ik_vec3 *target_ms; /* in [count] */
    const ik_vec3 *pole_ms;   /* in [count], or NULL for +Y each (ik_aim_def's pole) */
    const ik_real *weight;    /* in [count], or NULL for 1 each */

    /* Shared by every joint, in each joint's own frame, as in ik_aim.
     * Defaults: forward +Z, up +Y, offset 0. */
    ik_vec3 forward_ls;
    ik_vec3 up_ls;
    ik_vec3 offset_ls;

    ik_quat *correction_ls; /* out [count]: unit, w >= 0 */
    /* Out [count], optional (NULL): as ik_aim's reached, and each joint's
     * ik_aim_run result. A joint that fails gets the identity and reached 0. */
    ik_bool *reached;
    ik_result *status;

    unsigned long defaulted; /* IK_JOB_DEFAULTED, set by ik_aim_batch_def(); do not touch */
} ik_aim_batch;

ik_aim_batch ik_aim_batch_def(void);

/* Aim every joint. Returns IK_ERR_NOT_DEFAULTED for a job not made by
 * ik_aim_batch_def(), IK_ERR_NULL for a missing array (with count > 0),
 * IK_ERR_RANGE for a negative count or a joint_stride that is not a
 * multiple of sizeof(ik_real): then nothing is written. Otherwise every
 * joint is solved and the result is IK_OK when each joint's was, else the
 * first failing joint's (see `status`). */
ik_result ik_aim_batch_run(const ik_aim_batch *job);

#ifdef __cplusplus
}
#endif
#endif

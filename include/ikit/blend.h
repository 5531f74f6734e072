/* ikit blending: two poses, clips or takes mixed per joint. Joint j moves
 * from a's transform toward b's by w_j = weight * mask[j] (mask NULL: every
 * joint 1): translations and scales by lerp, rotations by slerp on the
 * shortest arc (q and -q are one rotation, so b is taken on a's side).
 * A mask picks the joints b drives: 1 on a subtree (ik_blend_mask_subtree)
 * lays, say, one clip's upper body over another's legs. */
#ifndef IKIT_BLEND_H
#define IKIT_BLEND_H

#include <ikit/clip.h>
#include <ikit/skeleton.h>
#include <ikit/take.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out_ls[j] = blend(a_ls[j], b_ls[j], weight * mask[j]) for `joint_count`
 * joints; out_ls may be a_ls or b_ls. IK_ERR_NULL for a missing pose,
 * IK_ERR_RANGE for a count below 1 or a weight or mask entry outside
 * [0, 1] (NaN included), IK_ERR_NONFINITE for a non-finite transform or a
 * zero rotation; nothing is written on error. */
ik_result ik_blend_poses(const ik_transform *a_ls, const ik_transform *b_ls, int joint_count, ik_real weight,
                         const ik_real *mask, ik_transform *out_ls);

/* Clips a and b sampled at their own times on top of `rest_ls`, then
 * blended into out_ls; `b_scratch_ls` [joint_count] holds b's pose. The
 * clips are validated against joint_count. */
ik_result ik_blend_clips(const ik_clip *a, ik_real time_a, const ik_clip *b, ik_real time_b,
                         const ik_transform *rest_ls, int joint_count, ik_real weight, const ik_real *mask,
                         ik_transform *b_scratch_ls, ik_transform *out_ls);

/* Two takes of the same joints and frame count blended frame by frame into
 * `out` (counts and frame time set as a's; out's poses may be a's or b's). */
ik_result ik_blend_takes(const ik_take *a, const ik_take *b, ik_real weight, const ik_real *mask, ik_take *out);

/* mask[j] = weight for `joint` and every joint below it, 0 elsewhere. */
ik_result ik_blend_mask_subtree(const ik_skeleton *skeleton, int joint, ik_real weight, ik_real *mask);

#ifdef __cplusplus
}
#endif
#endif

/* ikit body frame: a humanoid rig's up, forward and left axes and its leg
 * length in model space, under the root_ms its skeleton hangs from (a
 * glTF's node transforms above the skin, a Z-up file's turn): what the
 * foot-contact and clean-up jobs take as up_ms and leg_length, and where a
 * slope or stairs are laid. */
#ifndef IKIT_BODY_FRAME_H
#define IKIT_BODY_FRAME_H

#include <ikit/error.h>
#include <ikit/humanoid.h>
#include <ikit/math.h>
#include <ikit/result.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ik_body_frame {
    ik_vec3 up_ms, forward_ms, left_ms; /* unit */
    ik_real leg_length;                 /* model units: the legs' mean length (hip to knee to ankle) */
} ik_body_frame;

/* The frame of `rig` under `root_ms` (NULL: identity): each of the rig's
 * root-space axes (up_rs, forward_rs, left_rs) carried by root_ms's 3x3
 * part and normalised, and leg_length = (l1 + l2 + r1 + r2) / 2 (the two
 * legs' upper and lower bones) times the length of root_ms's second column
 * (the root's scale along y, the rest up of the files ikit reads). Returns
 * IK_ERR_NULL, IK_ERR_NONFINITE for a root_ms with NaN or infinity, or
 * IK_ERR_DEGENERATE when root_ms flattens an axis to zero, with a message
 * in *error (may be NULL); *out is written only on IK_OK. */
ik_result ik_body_frame_compute(const ik_humanoid *rig, const ik_mat4 *root_ms, ik_body_frame *out, ik_error *error);

#ifdef __cplusplus
}
#endif
#endif

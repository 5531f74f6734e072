/* ikit aim: turn one joint so an axis, drawn through an offset point, points
 * at a target (seed 001's QuatAim, seed 004's bone look-at). The same aim
 * spread over a chain of joints (spine, neck, head) is in look_at_chain.h.
 *
 * Frames: the joint's local frame is the frame its model-space matrix
 * `joint_ms` maps from, so `forward_ls`, `up_ls` and `offset_ls` are given
 * in the same units and axes as the joint's children.
 */
#ifndef IKIT_AIM_H
#define IKIT_AIM_H

#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/skeleton.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Aim one joint. The ray from `offset_ls` along `forward_ls` is turned about
 * the joint's origin until it passes through `target_ms`; then the joint
 * turns about the line from its origin to the target (which keeps the ray on
 * the target) so that `up_ls` points to the side of that line `pole_ms`
 * points to, and finally by `twist` radians more about the same line
 * (right-handed about the direction from joint to target). `weight` blends
 * the whole correction in from the identity along the shortest arc.
 *
 * The correction C is a rotation in the joint's local frame: the new local
 * rotation is `*rotation_ls * C`, and the new model matrix is joint_ms * C.
 * That is exact when the joint's own local scale is uniform; any scale,
 * shear or mirror above the joint is fine.
 *
 * Defaults (ik_aim_def): forward +Z (seed 001's QuatAim aims z, glTF models
 * face +Z), up +Y, pole +Y, offset 0, twist 0, weight 1, every pointer NULL.
 *
 * Results: IK_ERR_NOT_DEFAULTED for a job not made by ik_aim_def() (a
 * zeroed one); IK_ERR_NULL when the job or joint_ms is NULL or both
 * rotation_ls and correction_ls are NULL; IK_ERR_NONFINITE for NaN or
 * infinity in any input; IK_ERR_RANGE when weight is outside [0, 1];
 * IK_ERR_DEGENERATE for a zero forward or up axis, a zero input rotation, a
 * singular joint_ms, or distances so large their squares overflow (the
 * joint's frame is worked in units of its scale squared: in float, scales
 * from about 1e-9 to 1e9 and targets up to about 1e19 / scale away). On any
 * error no output is written.
 *
 * A target on the joint's origin leaves the rotation as it is (IK_OK,
 * reached 0). A pole along the aim line, or a zero pole, gives the minimum
 * rotation that aims the ray (plus the twist), with no flip. */
typedef struct ik_aim {
    const ik_mat4 *joint_ms; /* model-space matrix of the joint in its current pose */
    ik_vec3 target_ms;       /* point to aim at */
    ik_vec3 forward_ls;      /* aim axis; any non-zero length */
    ik_vec3 up_ls;           /* axis kept toward the pole; any non-zero length */
    ik_vec3 pole_ms;         /* model-space direction the up axis should lean to; zero: none */
    ik_vec3 offset_ls;       /* where the aim ray starts (an eye, a muzzle) */
    ik_real twist;           /* extra turn about the aim line, radians */
    ik_real weight;          /* 0 keeps the pose, 1 aims fully */

    ik_quat *rotation_ls;   /* in/out, optional: the joint's local rotation */
    ik_quat *correction_ls; /* out, optional: C, with w >= 0 */
    /* out, optional: 1 when the ray can pass through the target ahead of the
     * offset (whatever the weight) */
    ik_bool *reached;

    unsigned long defaulted; /* IK_JOB_DEFAULTED, set by ik_aim_def(); do not touch */
} ik_aim;

ik_aim ik_aim_def(void);
ik_result ik_aim_run(const ik_aim *job);

#ifdef __cplusplus
}
#endif
#endif

/* ikit limb bend: the way a limb found by joint name (named_chains.h) bends
 * of itself, a knee forward and an elbow back, on any rig (humanoid or
 * not, mirrored, lying on its back): the figure's axes at rest, and each
 * leg's or arm's hinge in its middle joint's frame, for ik_two_bone's
 * hinge_axis_ls and ik_limb_natural_pole (`ikc solve --target` without a
 * --pole). */
#ifndef IKIT_LIMB_BEND_H
#define IKIT_LIMB_BEND_H

#include <ikit/error.h>
#include <ikit/math.h>
#include <ikit/named_chains.h>
#include <ikit/result.h>
#include <ikit/skeleton.h>
#include <ikit/two_bone.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The figure's axes at rest, in model space (root_ms applied). */
typedef struct ik_figure_axes {
    ik_bool known; /* 0: nothing tells where the figure faces (up_ms and forward_ms zero) */
    ik_vec3 up_ms, forward_ms;
} ik_figure_axes;

/* The axes of `skeleton` under `root_ms` (NULL: identity), from its limbs
 * found by name, `chains` [chain_count] (ik_named_chains_find): up is the
 * mean of the legs' unit rest directions from ankle to hip (else the
 * humanoid rig's up, else from the root to the head, else +y); forward
 * where the toes or the face point (ik_figure_forward), else the humanoid
 * rig's forward made square to up. Returns IK_OK (known or not),
 * IK_ERR_NULL, IK_ERR_NONFINITE for root_ms, or IK_ERR_RANGE for a chain
 * with a joint outside the skeleton, with a message in *error (may be
 * NULL). */
ik_result ik_limb_bend_axes(const ik_skeleton *skeleton, const ik_mat4 *root_ms, const ik_named_chain *chains,
                            int chain_count, ik_figure_axes *out, ik_error *error);

/* The hinge of a three-joint "leg" or "arm" `limb` (ik_limb_hinge of its
 * rest joints a, b, c with the figure's forward and up), as an axis in the
 * middle joint's own frame M: M^-1 h normalised, which also holds where M
 * is mirrored (a turn about M^-1 h is then a turn the other way about h).
 * rest_model_ms [skeleton->joint_count] is forward kinematics of the rest
 * pose under the same root_ms as `figure`. For a figure whose forward is
 * unknown the rest bend alone tells: the middle joint's offset k off the
 * start-to-end line stands in for forward (-k for an elbow), when the
 * limb is bent by more than 2 degrees (|u x v|^2 > 1.2e-3 |u|^2 |v|^2).
 * Returns IK_OK with *hinge_ls; IK_ERR_NOT_FOUND when the limb has no
 * natural bend (another kind or length of chain, a straight limb of a
 * figure facing nowhere); IK_ERR_NULL, IK_ERR_RANGE (a joint outside the
 * skeleton), IK_ERR_NONFINITE (rest_model_ms) or IK_ERR_DEGENERATE (a
 * singular middle frame), each with a message in *error (may be NULL). */
ik_result ik_limb_bend_hinge(const ik_skeleton *skeleton, const ik_mat4 *rest_model_ms, const ik_figure_axes *figure,
                             const ik_named_chain *limb, ik_vec3 *hinge_ls, ik_error *error);

/* The largest natural bend, degrees: the humanoid's knee and elbow limit. */
#define IK_LIMB_BEND_MAX_DEG 150

/* A two-bone job bound to a limb's start, middle and end (ik_two_bone_bind:
 * joints [3]) made to bend the limb its natural way toward job->target_ms
 * (set it first): about hinge_ls (ik_limb_bend_hinge), 0 to
 * IK_LIMB_BEND_MAX_DEG degrees, swinging in the plane of its hinge as the
 * end goes to the target (the pole ik_limb_natural_pole of the joints'
 * positions in model_ms, with the model-space hinge sgn(det M) M h, M the
 * middle joint's matrix, at the limb's length from the middle of start and
 * target). model_ms: forward kinematics of the pose being solved. Returns
 * IK_ERR_NULL, IK_ERR_NONFINITE (a joint position, the target or the hinge)
 * or IK_ERR_DEGENERATE (a zero hinge), with a message in *error (may be
 * NULL); the job is changed only on IK_OK. */
ik_result ik_limb_bend_two_bone(ik_two_bone *job, const ik_mat4 *model_ms, const int joints[3], ik_vec3 hinge_ls,
                                ik_error *error);

#ifdef __cplusplus
}
#endif
#endif

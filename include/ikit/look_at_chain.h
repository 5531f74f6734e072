/* ikit look-at chain: the aim of aim.h spread over a chain of joints
 * (spine, neck, head), each turning its share toward the target.
 */
#ifndef IKIT_LOOK_AT_CHAIN_H
#define IKIT_LOOK_AT_CHAIN_H

#include <ikit/aim.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/skeleton.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Aim a chain: `joints` [count] root-first, each a proper ancestor of the
 * next (not necessarily its parent). The aim ray (`forward_ls`, `up_ls`,
 * `offset_ls`) is given in the LAST joint's frame. Joint i, in order, runs
 * the aim of ik_aim on that ray expressed in its own frame with weight
 * weights[i]; the last joint always uses weight 1 so it ends aimed. With
 * `weights` NULL, joint i uses 1 / (count - i), an even split of what is
 * left. Each step writes pose_ls[joints[i]].rotation (translation and scale
 * are never touched).
 *
 * `model_ms` must hold the forward kinematics of `pose_ls` under `root_ms`
 * (NULL: identity) on entry; on exit it holds them again for the new pose.
 *
 * Results: as ik_aim_run, plus IK_ERR_NULL for a missing skeleton, pose,
 * model, joint or parent array; IK_ERR_RANGE for count < 1 or above
 * IK_LOOK_AT_CHAIN_MAX, a joint index out of range or a weight outside
 * [0, 1]; IK_ERR_HIERARCHY when a joint is not a proper ancestor of the
 * next. Inputs are validated before anything is written; a step that still
 * fails (a joint frame and target distance whose product overflows) puts
 * every rotation back and recomputes model_ms from it, so on any error
 * pose_ls is as it was on entry. */
#define IK_LOOK_AT_CHAIN_MAX 32

typedef struct ik_look_at_chain {
    const ik_skeleton *skeleton;
    ik_transform *pose_ls;  /* in/out [joint_count] */
    ik_mat4 *model_ms;      /* in/out [joint_count] */
    const ik_mat4 *root_ms; /* above every root; NULL for the identity */
    const int *joints;      /* [count] */
    const ik_real *weights; /* [count] or NULL; the last entry is not read */
    int count;

    ik_vec3 target_ms;
    ik_vec3 pole_ms;
    ik_vec3 forward_ls; /* in the last joint's frame */
    ik_vec3 up_ls;      /* in the last joint's frame */
    ik_vec3 offset_ls;  /* in the last joint's frame */
    ik_real twist;

    ik_bool *reached;        /* out, optional: the last joint's `reached` */
    unsigned long defaulted; /* IK_JOB_DEFAULTED, set by ik_look_at_chain_def(); do not touch */
} ik_look_at_chain;

/* Defaults as ik_aim_def, with count 0 and every pointer NULL. Run refuses
 * a job not made by it (IK_ERR_NOT_DEFAULTED). */
ik_look_at_chain ik_look_at_chain_def(void);
ik_result ik_look_at_chain_run(const ik_look_at_chain *job);

#ifdef __cplusplus
}
#endif
#endif

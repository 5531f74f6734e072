/* Spread an aim over a chain of joints (spine, neck, head): seed 004's bone
 * look-at, each joint taking a weighted share and the last one finishing. */
#include <ikit/aim.h>
#include <ikit/look_at_chain.h>

#include <stddef.h>

#include "aim_frame.h"

ik_look_at_chain ik_look_at_chain_def(void) {
    ik_aim aim = ik_aim_def();
    ik_look_at_chain job;
    job.skeleton = NULL;
    job.pose_ls = NULL;
    job.model_ms = NULL;
    job.root_ms = NULL;
    job.joints = NULL;
    job.weights = NULL;
    job.count = 0;
    job.target_ms = aim.target_ms;
    job.pole_ms = aim.pole_ms;
    job.forward_ls = aim.forward_ls;
    job.up_ls = aim.up_ls;
    job.offset_ls = aim.offset_ls;
    job.twist = aim.twist;
    job.reached = NULL;
    job.defaulted = IK_JOB_DEFAULTED;
    return job;
}

/* Only the joints on the path from `top` down to `bottom` matter to the next
 * step; they are the ancestors of `bottom` with indices from `top` up, and
 * parents-first order makes increasing index a valid update order. */
static void refresh_path(const ik_look_at_chain *job, int top, int bottom) {
    int k;
    for (k = top; k <= bottom; ++k)
        if (ik_skeleton_is_descendant(job->skeleton, bottom, k))
            ik_skeleton_fk_joint(job->skeleton, k, job->pose_ls, job->root_ms, job->model_ms);
}

/* After the last step: everything below the first joint, except the path
 * joints above the last one, which the steps already brought up to date. */
static void refresh_rest(const ik_look_at_chain *job, int first, int last) {
    const ik_skeleton *sk = job->skeleton;
    int k;
    for (k = first; k < sk->joint_count; ++k)
        if (ik_skeleton_is_descendant(sk, k, first) && (k >= last || !ik_skeleton_is_descendant(sk, last, k)))
            ik_skeleton_fk_joint(job->skeleton, k, job->pose_ls, job->root_ms, job->model_ms);
}

static ik_result validate(const ik_look_at_chain *job) {
    const ik_skeleton *sk;
    int i, k, first;
    if (!job) return IK_ERR_NULL;
    if (job->defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    if (!job->skeleton || !job->pose_ls || !job->model_ms || !job->joints) return IK_ERR_NULL;
    sk = job->skeleton;
    if (!sk->parents) return IK_ERR_NULL;
    if (job->count < 1 || job->count > IK_LOOK_AT_CHAIN_MAX) return IK_ERR_RANGE;
    for (i = 0; i < job->count; ++i)
        if (job->joints[i] < 0 || job->joints[i] >= sk->joint_count) return IK_ERR_RANGE;
    for (i = 1; i < job->count; ++i)
        if (job->joints[i] == job->joints[i - 1] || !ik_skeleton_is_descendant(sk, job->joints[i], job->joints[i - 1]))
            return IK_ERR_HIERARCHY;
    if (!ik_vec3_finite(job->target_ms) || !ik_vec3_finite(job->pole_ms) || !ik_vec3_finite(job->forward_ls) ||
        !ik_vec3_finite(job->up_ls) || !ik_vec3_finite(job->offset_ls) || !ik_finite(job->twist) ||
        (job->root_ms && !ik_mat4_finite(job->root_ms)))
        return IK_ERR_NONFINITE;
    if (job->weights) {
        for (i = 0; i + 1 < job->count; ++i) {
            if (!ik_finite(job->weights[i])) return IK_ERR_NONFINITE;
            if (!(job->weights[i] >= 0 && job->weights[i] <= 1)) return IK_ERR_RANGE;
        }
    }
    /* Everything forward kinematics will read: the subtree's local poses and
     * the matrix above the first joint. */
    first = job->joints[0];
    for (k = first; k < sk->joint_count; ++k)
        if (ik_skeleton_is_descendant(sk, k, first) && !ik_transform_finite(job->pose_ls[k])) return IK_ERR_NONFINITE;
    if (sk->parents[first] >= 0 && !ik_mat4_finite(&job->model_ms[sk->parents[first]])) return IK_ERR_NONFINITE;
    for (i = 0; i < job->count; ++i)
        if (!ik_mat4_finite(&job->model_ms[job->joints[i]])) return IK_ERR_NONFINITE;
    if (ik_vec3_is_zero(job->forward_ls) || ik_vec3_is_zero(job->up_ls)) return IK_ERR_DEGENERATE;
    /* Rotations keep each matrix's column lengths and determinant, so a chain
     * matrix that passes ik_aim_run's singularity test now passes it at its
     * step too, and no step fails after earlier joints were written. */
    for (i = 0; i < job->count; ++i) {
        ik_quat q = job->pose_ls[job->joints[i]].rotation;
        if (!(ik_quat_dot(q, q) > 0) || !ik_aim_frame_usable(&job->model_ms[job->joints[i]])) return IK_ERR_DEGENERATE;
    }
    return IK_OK;
}

/* Joint i sees the last joint's ray through E = M_i^-1 M_last: offset E o,
 * forward and up E_lin f, E_lin u. It runs ik_aim on that ray with its weight,
 * then the path down to the last joint is brought up to date for the next;
 * the rest of the subtree once, at the end. A step can still fail after the
 * checks above when a joint's frame and the target's distance multiply past
 * the number range (frames scaled by 1e12 and more); the rotations written
 * so far are then put back from `saved`, so an error never leaves a
 * half-turned chain. */
ik_result ik_look_at_chain_run(const ik_look_at_chain *job) {
    ik_quat saved[IK_LOOK_AT_CHAIN_MAX];
    ik_result result = validate(job);
    int i, last;
    if (result != IK_OK) return result;
    last = job->joints[job->count - 1];
    for (i = 0; i < job->count; ++i) saved[i] = job->pose_ls[job->joints[i]].rotation;
    for (i = 0; i < job->count && result == IK_OK; ++i) {
        int j = job->joints[i];
        ik_aim aim = ik_aim_def();
        aim.joint_ms = &job->model_ms[j];
        aim.target_ms = job->target_ms;
        aim.pole_ms = job->pole_ms;
        aim.twist = job->twist;
        aim.rotation_ls = &job->pose_ls[j].rotation;
        if (i + 1 < job->count) {
            ik_mat4 inv, rel;
            ik_mat4_inverse(&job->model_ms[j], &inv);
            rel = ik_mat4_mul(&inv, &job->model_ms[last]);
            aim.offset_ls = ik_mat4_transform_point(&rel, job->offset_ls);
            aim.forward_ls = ik_mat4_transform_vector(&rel, job->forward_ls);
            aim.up_ls = ik_mat4_transform_vector(&rel, job->up_ls);
            aim.weight = job->weights ? job->weights[i] : 1 / (ik_real)(job->count - i);
        } else {
            aim.offset_ls = job->offset_ls;
            aim.forward_ls = job->forward_ls;
            aim.up_ls = job->up_ls;
            aim.reached = job->reached;
        }
        result = ik_aim_run(&aim);
        if (result == IK_OK && i + 1 < job->count) refresh_path(job, j, last);
    }
    if (result == IK_OK)
        refresh_rest(job, job->joints[0], last);
    else {
        for (i = 0; i < job->count; ++i) job->pose_ls[job->joints[i]].rotation = saved[i];
        ik_skeleton_fk_subtree(job->skeleton, job->joints[0], job->pose_ls, job->root_ms, job->model_ms);
    }
    return result;
}

/* Per-joint blending of poses, clips and takes. See blend.h. */
#include <ikit/blend.h>

#include <string.h>

static ik_bool unit_weight(ik_real w) { return w >= 0 && w <= 1; }

static ik_result check_pose(const ik_transform *pose, int joint_count) {
    int j;
    for (j = 0; j < joint_count; ++j)
        if (!ik_transform_finite(pose[j]) || ik_quat_dot(pose[j].rotation, pose[j].rotation) == 0)
            return IK_ERR_NONFINITE;
    return IK_OK;
}

static ik_result check_weights(int joint_count, ik_real weight, const ik_real *mask) {
    int j;
    if (joint_count < 1 || !unit_weight(weight)) return IK_ERR_RANGE;
    for (j = 0; mask && j < joint_count; ++j)
        if (!unit_weight(mask[j])) return IK_ERR_RANGE;
    return IK_OK;
}

/* t = lerp(t_a, t_b, w), s = lerp(s_a, s_b, w), q = slerp(q_a, +-q_b, w)
 * with the sign of q_b making q_a . q_b >= 0 (ik_quat_slerp). */
static void blend_unchecked(const ik_transform *a, const ik_transform *b, int joint_count, ik_real weight,
                            const ik_real *mask, ik_transform *out) {
    int j;
    for (j = 0; j < joint_count; ++j) {
        ik_real w = mask ? weight * mask[j] : weight;
        ik_transform t;
        /* the ends exactly: a joint the mask leaves out keeps a's bits */
        if (w == 0 || w == 1) {
            out[j] = w == 0 ? a[j] : b[j];
            continue;
        }
        t.translation = ik_vec3_lerp(a[j].translation, b[j].translation, w);
        t.scale = ik_vec3_lerp(a[j].scale, b[j].scale, w);
        t.rotation = ik_quat_slerp(ik_quat_normalize(a[j].rotation), ik_quat_normalize(b[j].rotation), w);
        out[j] = t;
    }
}

ik_result ik_blend_poses(const ik_transform *a_ls, const ik_transform *b_ls, int joint_count, ik_real weight,
                         const ik_real *mask, ik_transform *out_ls) {
    ik_result r;
    if (!a_ls || !b_ls || !out_ls) return IK_ERR_NULL;
    if ((r = check_weights(joint_count, weight, mask)) != IK_OK) return r;
    if ((r = check_pose(a_ls, joint_count)) != IK_OK || (r = check_pose(b_ls, joint_count)) != IK_OK) return r;
    blend_unchecked(a_ls, b_ls, joint_count, weight, mask, out_ls);
    return IK_OK;
}

ik_result ik_blend_clips(const ik_clip *a, ik_real time_a, const ik_clip *b, ik_real time_b,
                         const ik_transform *rest_ls, int joint_count, ik_real weight, const ik_real *mask,
                         ik_transform *b_scratch_ls, ik_transform *out_ls) {
    ik_result r;
    if (!a || !b || !rest_ls || !b_scratch_ls || !out_ls) return IK_ERR_NULL;
    if (!ik_finite(time_a) || !ik_finite(time_b)) return IK_ERR_NONFINITE;
    if ((r = check_weights(joint_count, weight, mask)) != IK_OK) return r;
    if ((r = ik_clip_validate(a, joint_count, NULL)) != IK_OK || (r = ik_clip_validate(b, joint_count, NULL)) != IK_OK)
        return r;
    if ((r = check_pose(rest_ls, joint_count)) != IK_OK) return r;
    memcpy(b_scratch_ls, rest_ls, (size_t)joint_count * sizeof *b_scratch_ls);
    ik_clip_sample(b, time_b, b_scratch_ls);
    memcpy(out_ls, rest_ls, (size_t)joint_count * sizeof *out_ls);
    ik_clip_sample(a, time_a, out_ls);
    blend_unchecked(out_ls, b_scratch_ls, joint_count, weight, mask, out_ls);
    return IK_OK;
}

ik_result ik_blend_takes(const ik_take *a, const ik_take *b, ik_real weight, const ik_real *mask, ik_take *out) {
    ik_result r;
    int f;
    if (!a || !b || !out || !out->poses_ls) return IK_ERR_NULL;
    if ((r = ik_take_validate(a, NULL)) != IK_OK || (r = ik_take_validate(b, NULL)) != IK_OK) return r;
    if (a->joint_count != b->joint_count || a->frame_count != b->frame_count) return IK_ERR_RANGE;
    if ((r = check_weights(a->joint_count, weight, mask)) != IK_OK) return r;
    out->frame_count = a->frame_count;
    out->joint_count = a->joint_count;
    out->frame_time = a->frame_time;
    for (f = 0; f < a->frame_count; ++f)
        blend_unchecked(ik_take_pose(a, f), ik_take_pose(b, f), a->joint_count, weight, mask, ik_take_pose(out, f));
    return IK_OK;
}

ik_result ik_blend_mask_subtree(const ik_skeleton *skeleton, int joint, ik_real weight, ik_real *mask) {
    int j;
    if (!skeleton || !mask) return IK_ERR_NULL;
    if (joint < 0 || joint >= skeleton->joint_count || !unit_weight(weight)) return IK_ERR_RANGE;
    /* parents come first: a joint is in the subtree when it is `joint` or its parent is */
    for (j = 0; j < skeleton->joint_count; ++j) {
        int p = skeleton->parents[j];
        mask[j] = j == joint || (j > joint && p >= 0 && mask[p] > 0 && weight > 0) ? weight : 0;
    }
    return IK_OK;
}

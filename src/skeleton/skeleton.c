/* Skeleton hierarchy, validation, forward kinematics and chains. */
#include <ikit/skeleton.h>

#include <stdio.h>
#include <string.h>

static void set_error(ik_skeleton_error *error, int joint, const char *what) {
    if (!error) return;
    error->joint = joint;
    snprintf(error->message, sizeof error->message, "joint %d: %s", joint, what);
}

/* Parents-first (p < i) means every walk up strictly decreases the index, so
 * it ends at a root: a cycle cannot exist. Rotations must be unit within
 * 1e-3 (they are normalised by the caller's exporter, not here). */
ik_result ik_skeleton_init(ik_skeleton *skeleton, int joint_count, const int *parents,
                           const char *const *names, const ik_transform *rest_ls,
                           ik_skeleton_error *error) {
    int i, j;
    if (error) {
        error->joint = -1;
        error->message[0] = '\0';
    }
    if (!skeleton || (joint_count > 0 && (!parents || !rest_ls))) {
        set_error(error, -1, "skeleton, parents and rest poses are required");
        return IK_ERR_NULL;
    }
    if (joint_count < 0) {
        set_error(error, -1, "negative joint count");
        return IK_ERR_RANGE;
    }
    for (i = 0; i < joint_count; ++i) {
        ik_real qlen;
        if (parents[i] < -1 || parents[i] >= joint_count) {
            set_error(error, i, "parent index out of range");
            return IK_ERR_RANGE;
        }
        if (parents[i] >= i) {
            set_error(error, i, "parent does not come before its child (parents-first order or a cycle)");
            return IK_ERR_HIERARCHY;
        }
        if (!ik_transform_finite(rest_ls[i])) {
            set_error(error, i, "rest transform holds NaN or infinity");
            return IK_ERR_NONFINITE;
        }
        qlen = ik_quat_length(rest_ls[i].rotation);
        if (IK_FABS(qlen - 1) > (ik_real)1e-3) {
            set_error(error, i, "rest rotation is not a unit quaternion");
            return IK_ERR_DEGENERATE;
        }
    }
    if (names) {
        for (i = 0; i < joint_count; ++i) {
            if (!names[i] || !names[i][0]) continue;
            for (j = 0; j < i; ++j) {
                if (names[j] && strcmp(names[i], names[j]) == 0) {
                    set_error(error, i, "duplicate joint name");
                    return IK_ERR_HIERARCHY;
                }
            }
        }
    }
    skeleton->joint_count = joint_count;
    skeleton->parents = parents;
    skeleton->names = names;
    skeleton->rest_ls = rest_ls;
    return IK_OK;
}

int ik_skeleton_find(const ik_skeleton *skeleton, const char *name) {
    int i;
    if (!skeleton || !skeleton->names || !name) return -1;
    for (i = 0; i < skeleton->joint_count; ++i)
        if (skeleton->names[i] && strcmp(skeleton->names[i], name) == 0) return i;
    return -1;
}

const char *ik_skeleton_name(const ik_skeleton *skeleton, int joint) {
    if (!skeleton || !skeleton->names || joint < 0 || joint >= skeleton->joint_count) return "";
    return skeleton->names[joint] ? skeleton->names[joint] : "";
}

ik_bool ik_skeleton_is_descendant(const ik_skeleton *skeleton, int joint, int ancestor) {
    if (joint < 0 || ancestor < 0 || joint >= skeleton->joint_count) return 0;
    while (joint > ancestor) joint = skeleton->parents[joint];
    return joint == ancestor;
}

void ik_skeleton_rest_pose(const ik_skeleton *skeleton, ik_transform *pose_ls) {
    memcpy(pose_ls, skeleton->rest_ls, (size_t)skeleton->joint_count * sizeof *pose_ls);
}

void ik_skeleton_fk_joint(const ik_skeleton *skeleton, int joint, const ik_transform *pose_ls,
                          const ik_mat4 *root_ms, ik_mat4 *model_ms) {
    ik_mat4 local = ik_transform_to_mat4(pose_ls[joint]);
    int p = skeleton->parents[joint];
    if (p >= 0)
        model_ms[joint] = ik_mat4_mul(&model_ms[p], &local);
    else
        model_ms[joint] = root_ms ? ik_mat4_mul(root_ms, &local) : local;
}

void ik_skeleton_fk(const ik_skeleton *skeleton, const ik_transform *pose_ls,
                    const ik_mat4 *root_ms, ik_mat4 *model_ms) {
    int i;
    for (i = 0; i < skeleton->joint_count; ++i) ik_skeleton_fk_joint(skeleton, i, pose_ls, root_ms, model_ms);
}

/* Descendants of j have larger indices; a joint k > j is one when walking up
 * from k reaches j before dropping below it. */
void ik_skeleton_fk_subtree(const ik_skeleton *skeleton, int joint, const ik_transform *pose_ls,
                            const ik_mat4 *root_ms, ik_mat4 *model_ms) {
    int k;
    if (joint < 0 || joint >= skeleton->joint_count) return;
    ik_skeleton_fk_joint(skeleton, joint, pose_ls, root_ms, model_ms);
    for (k = joint + 1; k < skeleton->joint_count; ++k)
        if (ik_skeleton_is_descendant(skeleton, k, joint)) ik_skeleton_fk_joint(skeleton, k, pose_ls, root_ms, model_ms);
}

ik_result ik_skeleton_model_to_local(const ik_skeleton *skeleton, const ik_mat4 *model_ms,
                                     const ik_mat4 *root_ms, ik_transform *pose_ls) {
    ik_result result = IK_OK;
    int i;
    for (i = 0; i < skeleton->joint_count; ++i) {
        int p = skeleton->parents[i];
        const ik_mat4 *parent = p >= 0 ? &model_ms[p] : root_ms;
        ik_mat4 inv, local;
        if (!parent) {
            pose_ls[i] = ik_transform_from_mat4(&model_ms[i]);
            continue;
        }
        if (!ik_mat4_inverse(parent, &inv)) {
            pose_ls[i] = ik_transform_from_mat4(&model_ms[i]);
            result = IK_ERR_DEGENERATE;
            continue;
        }
        local = ik_mat4_mul(&inv, &model_ms[i]);
        pose_ls[i] = ik_transform_from_mat4(&local);
    }
    return result;
}

ik_result ik_skeleton_chain(const ik_skeleton *skeleton, int end_joint, int count, int *chain) {
    int i, j = end_joint;
    if (!skeleton || !chain) return IK_ERR_NULL;
    if (end_joint < 0 || end_joint >= skeleton->joint_count || count < 1) return IK_ERR_RANGE;
    if (ik_skeleton_depth(skeleton, end_joint) < count) return IK_ERR_RANGE;
    for (i = count - 1; i >= 0; --i) {
        chain[i] = j;
        j = skeleton->parents[j];
    }
    return IK_OK;
}

int ik_skeleton_depth(const ik_skeleton *skeleton, int joint) {
    int n = 0;
    if (!skeleton || joint >= skeleton->joint_count) return 0;
    while (joint >= 0) {
        ++n;
        joint = skeleton->parents[joint];
    }
    return n;
}

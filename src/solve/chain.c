/* Chains and joint trees for the iterative solvers: validation, gathering
 * model-space frames and offsets from a pose, writing rotations back. */
#include "chain_links.h"

#include "../math/splitmix.h"

/* Nearest ancestor of joints[k] among joints[0..k-1]: walk up the skeleton
 * while scanning the ascending list downwards. */
static int link_parent(const ik_skeleton *skeleton, const int *joints, int k) {
    int a = skeleton->parents[joints[k]];
    int m = k - 1;
    while (a >= 0 && m >= 0) {
        while (m >= 0 && joints[m] > a) --m;
        if (m >= 0 && joints[m] == a) return m;
        a = skeleton->parents[a];
    }
    return -1;
}

/* Each joint after the first must have a listed ancestor (its link parent);
 * by induction every joint then descends from the first. With
 * `require_chain` the link parent must be the joint listed just before.
 * One link_parent walk per joint: O(count + skeleton depth spanned). */
ik_result ik_chain_validate(const ik_skeleton *skeleton, const int *joints, int count, ik_bool require_chain,
                            ik_error *error) {
    int k;
    if (!skeleton) return ik_field_fail(error, IK_ERR_NULL, "base.skeleton", -1);
    if (!skeleton->parents) return ik_field_fail(error, IK_ERR_NULL, "base.skeleton->parents", -1);
    if (!joints) return ik_field_fail(error, IK_ERR_NULL, "joints", -1);
    if (count < 1) return ik_field_fail(error, IK_ERR_RANGE, "base.listed_joint_count", -1);
    for (k = 0; k < count; ++k) {
        if (joints[k] < 0 || joints[k] >= skeleton->joint_count) return ik_field_fail(error, IK_ERR_RANGE, "joints", k);
        if (k > 0 && joints[k] <= joints[k - 1]) return ik_field_fail(error, IK_ERR_RANGE, "joints", k);
    }
    for (k = 1; k < count; ++k) {
        int up = link_parent(skeleton, joints, k);
        if (up < 0 || (require_chain && up != k - 1)) return ik_field_fail(error, IK_ERR_HIERARCHY, "joints", k);
    }
    return IK_OK;
}

/* The constraints, the root matrix, and every local transform on the paths
 * from each listed joint up to its link parent (for the first, up to a
 * skeleton root). */
ik_result ik_chain_validate_inputs(const ik_skeleton *skeleton, const int *joints, int count,
                                   const ik_constraint *constraints, const ik_mat4 *root_ms,
                                   const ik_transform *pose_ls, ik_error *error) {
    int k, a;
    if (constraints) {
        for (k = 0; k < count; ++k) {
            ik_result r = ik_constraint_validate(&constraints[k]);
            if (r != IK_OK) return ik_field_fail(error, r, "base.constraints", k);
        }
    }
    if (root_ms && !ik_mat4_finite(root_ms)) return ik_field_fail(error, IK_ERR_NONFINITE, "base.root_ms", -1);
    for (k = 0; k < count; ++k) {
        int stop = k == 0 ? -1 : joints[link_parent(skeleton, joints, k)];
        for (a = joints[k]; a != stop; a = skeleton->parents[a])
            if (!ik_transform_finite(pose_ls[a])) return ik_field_fail(error, IK_ERR_NONFINITE, "base.pose_ls", a);
    }
    return IK_OK;
}

/* Local transforms of the joints strictly between `below` and `top`
 * composed: pose[a_1] * ... * pose[parent(below)], a_1 the child of `top`
 * (or the skeleton root when top is -1). */
static ik_transform path_transform(const ik_skeleton *skeleton, const ik_transform *pose_ls, int below, int top) {
    ik_transform t = ik_transform_identity();
    int a = skeleton->parents[below];
    while (a >= 0 && a != top) {
        t = ik_transform_mul(pose_ls[a], t);
        a = skeleton->parents[a];
    }
    return t;
}

/* model(k) = model(link parent) * path * pose[k]: forward kinematics
 * restricted to the listed joints (TRS composition, as ik_transform_mul).
 * The offset in the link parent's frame is S_up (path applied to t_k); when
 * the link parent is the skeleton parent the path is empty, so
 * offset = S_up t_k and between = identity. */
void ik_chain_gather(const ik_skeleton *skeleton, const int *joints, int count, const ik_transform *pose_ls,
                     const ik_mat4 *root_ms, ik_chain_link *links) {
    int k;
    for (k = 0; k < count; ++k) {
        ik_chain_link *l = &links[k];
        int j = joints[k];
        l->parent = k == 0 ? -1 : link_parent(skeleton, joints, k);
        if (l->parent < 0) {
            ik_transform parent_frame = path_transform(skeleton, pose_ls, j, -1);
            if (root_ms) parent_frame = ik_transform_mul(ik_transform_from_mat4(root_ms), parent_frame);
            l->between_ls = parent_frame.rotation;
            l->offset_ls = ik_vec3_zero();
            l->model_ms = ik_transform_mul(parent_frame, pose_ls[j]);
        } else {
            const ik_transform *up = &links[l->parent].model_ms;
            ik_vec3 offset_ls;
            if (skeleton->parents[j] == joints[l->parent]) {
                l->between_ls = ik_quat_identity();
                offset_ls = pose_ls[j].translation;
                l->model_ms.rotation = ik_quat_mul(up->rotation, pose_ls[j].rotation);
                l->model_ms.scale = ik_vec3_mul(up->scale, pose_ls[j].scale);
            } else {
                ik_transform path = path_transform(skeleton, pose_ls, j, joints[l->parent]);
                ik_transform below = ik_transform_mul(path, pose_ls[j]);
                l->between_ls = path.rotation;
                offset_ls = below.translation;
                l->model_ms.rotation = ik_quat_mul(up->rotation, below.rotation);
                l->model_ms.scale = ik_vec3_mul(up->scale, below.scale);
            }
            l->offset_ls = ik_vec3_mul(up->scale, offset_ls);
            l->model_ms.translation = ik_vec3_add(up->translation, ik_quat_rotate(up->rotation, l->offset_ls));
        }
        l->rotation_ls = pose_ls[j].rotation;
        l->length = ik_vec3_length(l->offset_ls);
        l->first_child = -1;
        l->next_sibling = -1;
        if (l->parent >= 0) {
            l->next_sibling = links[l->parent].first_child;
            links[l->parent].first_child = k;
        }
        l->work_ms = ik_vec3_zero();
        l->target_ms = ik_vec3_zero();
        l->work_weight = 0;
        l->branch_weight = 0;
        l->flags = 0;
    }
}

void ik_chain_update(ik_chain_link *links, int count) {
    int k;
    for (k = 0; k < count; ++k) {
        ik_chain_link *l = &links[k];
        if (l->parent >= 0) {
            const ik_transform *up = &links[l->parent].model_ms;
            l->model_ms.translation = ik_vec3_add(up->translation, ik_quat_rotate(up->rotation, l->offset_ls));
        }
        l->model_ms.rotation = ik_quat_normalize(ik_quat_mul(ik_chain_parent_rotation_ms(links, k), l->rotation_ls));
    }
}

ik_result ik_chain_validate_base(const ik_chain_base *base, const int *joints, ik_bool require_chain) {
    ik_error *error = base->error_field;
    ik_result r;
    if (!base->pose_ls) return ik_field_fail(error, IK_ERR_NULL, "base.pose_ls", -1);
    if (!base->scratch) return ik_field_fail(error, IK_ERR_NULL, "base.scratch", -1);
    r = ik_chain_validate(base->skeleton, joints, base->listed_joint_count, require_chain, error);
    if (r != IK_OK) return r;
    if (base->scratch_bytes < ik_chain_scratch_bytes(base->listed_joint_count))
        return ik_field_fail(error, IK_ERR_CAPACITY, "base.scratch_bytes", -1);
    return IK_OK;
}

ik_bool ik_chain_any_limit(const ik_constraint *constraints, int count) {
    int k;
    if (constraints)
        for (k = 0; k < count; ++k)
            if (constraints[k].type != IK_CONSTRAINT_NONE) return 1;
    return 0;
}

/* splitmix64 scaled into [0, 1) in ik_real (a double just below 1 would
 * round to 1 in float). */
static ik_real next_unit(uint64_t *seed) { return (ik_real)(ik_splitmix_unit(seed) * (1 - (double)IK_REAL_EPSILON)); }

void ik_chain_restart(ik_chain_link *links, int count, const ik_constraint *constraints, uint64_t *seed) {
    int k;
    for (k = 0; k < count; ++k) {
        ik_vec3 u;
        if (constraints[k].type == IK_CONSTRAINT_NONE) continue;
        u.x = next_unit(seed);
        u.y = next_unit(seed);
        u.z = next_unit(seed);
        links[k].rotation_ls = ik_constraint_sample(&constraints[k], u);
    }
    ik_chain_update(links, count);
}

void ik_chain_scatter(const int *joints, int count, const ik_chain_link *links, ik_transform *pose_ls) {
    int k;
    for (k = 0; k < count; ++k) pose_ls[joints[k]].rotation = links[k].rotation_ls;
}

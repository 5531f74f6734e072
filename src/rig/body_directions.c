/* A humanoid's segments' directions in its own body frame
 * (ikit/body_directions.h). */
#include <ikit/body_directions.h>

static ik_vec3 joint_at(const ik_mat4 *model_ms, int joint) {
    return joint >= 0 ? ik_mat4_translation(&model_ms[joint]) : ik_vec3_zero();
}

void ik_body_directions(const ik_humanoid *rig, const ik_mat4 *model_ms, ik_vec3 out[IK_BODY_SEGMENTS]) {
    const int *role = rig->map.joint;
    ik_vec3 up = rig->up_rs, left, forward, ends[IK_BODY_SEGMENTS][2];
    ik_real hand = ik_vec3_dot(ik_vec3_cross(rig->left_rs, rig->up_rs), rig->forward_rs) < 0 ? -1 : 1;
    int k, i, top = role[IK_ROLE_NECK] >= 0 ? role[IK_ROLE_NECK] : role[IK_ROLE_HEAD];
    ik_bool whole[IK_BODY_SEGMENTS];
    /* the frame: left = reject(x_thigh_L - x_thigh_R, up), forward = h left x up */
    left = ik_vec3_normalize_or(
        ik_vec3_reject(
            ik_vec3_sub(joint_at(model_ms, role[IK_ROLE_THIGH_L]), joint_at(model_ms, role[IK_ROLE_THIGH_R])), up),
        ik_vec3_zero());
    forward = ik_vec3_scale(ik_vec3_cross(left, up), hand);
    ends[0][0] = joint_at(model_ms, role[IK_ROLE_HIPS]);
    ends[0][1] = joint_at(model_ms, top);
    whole[0] = role[IK_ROLE_HIPS] >= 0 && top >= 0;
    for (k = 0; k < IK_LIMB_COUNT; ++k) {
        const ik_humanoid_limb *l = &rig->limb[k];
        ik_bool has = l->start >= 0 && l->mid >= 0;
        ik_mat4 end = has ? ik_humanoid_limb_end_ms(l, model_ms) : ik_mat4_identity();
        ends[1 + 2 * k][0] = joint_at(model_ms, l->start);
        ends[1 + 2 * k][1] = ends[2 + 2 * k][0] = joint_at(model_ms, l->mid);
        ends[2 + 2 * k][1] = ik_mat4_translation(&end);
        whole[1 + 2 * k] = whole[2 + 2 * k] = has;
    }
    for (i = 0; i < IK_BODY_SEGMENTS; ++i) {
        ik_vec3 d = ik_vec3_normalize_or(ik_vec3_sub(ends[i][1], ends[i][0]), ik_vec3_zero());
        out[i] = whole[i] ? ik_v3(ik_vec3_dot(d, left), ik_vec3_dot(d, up), ik_vec3_dot(d, forward)) : ik_vec3_zero();
    }
}

ik_body_group ik_body_segment_group(int segment) {
    if (segment <= 0) return IK_BODY_TRUNK;
    if (segment <= 4) return segment % 2 ? IK_BODY_UPPER_ARMS : IK_BODY_FOREARMS;
    return segment % 2 ? IK_BODY_THIGHS : IK_BODY_SHINS;
}

const char *ik_body_segment_name(int segment) {
    static const char *const names[IK_BODY_SEGMENTS] = {"trunk",           "left upper arm", "left forearm",
                                                        "right upper arm", "right forearm",  "left thigh",
                                                        "left shin",       "right thigh",    "right shin"};
    return segment >= 0 && segment < IK_BODY_SEGMENTS ? names[segment] : "";
}

const char *ik_body_group_name(ik_body_group group) {
    static const char *const names[IK_BODY_GROUPS] = {"trunk", "upper arms", "forearms", "thighs", "shins"};
    return (int)group >= 0 && group < IK_BODY_GROUPS ? names[group] : "";
}

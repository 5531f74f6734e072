/* Knees bent the wrong way and soles under the floor over a take
 * (ikit/leg_figures.h). */
#include <ikit/leg_figures.h>

#include <math.h>
#include <string.h>

/* theta = acos(u . v), negative when (u x v) . (M h) < 0. */
ik_real ik_leg_knee_bend(const ik_humanoid_limb *l, const ik_mat4 *ms) {
    ik_mat4 end_ms = ik_humanoid_limb_end_ms(l, ms);
    ik_vec3 u = ik_vec3_normalize(ik_vec3_sub(ik_mat4_translation(&ms[l->mid]), ik_mat4_translation(&ms[l->start])));
    ik_vec3 v = ik_vec3_normalize(ik_vec3_sub(ik_mat4_translation(&end_ms), ik_mat4_translation(&ms[l->mid])));
    ik_real angle = ik_acos_safe(ik_vec3_dot(u, v));
    return ik_vec3_dot(ik_vec3_cross(u, v), ik_mat4_transform_turn_axis(&ms[l->mid], l->hinge_axis_ls)) < 0 ? -angle
                                                                                                            : angle;
}

int ik_leg_knee_flip_frames(const ik_humanoid *rig, const ik_take *take, ik_mat4 *model_ms) {
    int f, k, flips = 0;
    for (f = 0; f < take->frame_count; ++f) {
        int flipped = 0;
        ik_skeleton_fk(rig->skeleton, ik_take_pose(take, f), NULL, model_ms);
        for (k = IK_LIMB_LEG_L; k <= IK_LIMB_LEG_R; ++k)
            if (rig->limb[k].start >= 0 && rig->limb[k].mid >= 0)
                flipped |= ik_leg_knee_bend(&rig->limb[k], model_ms) < -ik_rad(2);
        flips += flipped;
    }
    return flips;
}

/* depth = max over the heel, ball and toe tip of floor - p.up. */
ik_real ik_leg_sole_depth(const ik_humanoid *rig, int leg, const ik_mat4 *model_ms) {
    const ik_humanoid_limb *l = &rig->limb[leg];
    int foot = ik_humanoid_limb_foot(l), n = 0, i;
    ik_vec3 soles[3];
    ik_real depth = -(ik_real)HUGE_VAL;
    if (foot < 0) return depth;
    soles[n++] = ik_mat4_transform_point(&model_ms[foot], l->heel_ls);
    soles[n++] = ik_mat4_transform_point(&model_ms[foot], l->ball_ls);
    if (l->toe >= 0) soles[n++] = ik_mat4_transform_point(&model_ms[l->toe], l->toe_tip_ls);
    for (i = 0; i < n; ++i) depth = ik_maxr(depth, rig->floor_rs - ik_vec3_dot(soles[i], rig->up_rs));
    return depth;
}

ik_real ik_leg_deepest_sole(const ik_humanoid *rig, const ik_take *take, ik_mat4 *model_ms) {
    ik_real deepest = 0;
    int f, k;
    for (f = 0; f < take->frame_count; ++f) {
        ik_skeleton_fk(rig->skeleton, ik_take_pose(take, f), NULL, model_ms);
        for (k = IK_LIMB_LEG_L; k <= IK_LIMB_LEG_R; ++k)
            deepest = ik_maxr(deepest, ik_leg_sole_depth(rig, k, model_ms));
    }
    return deepest;
}

ik_real ik_take_limits_excess(const ik_humanoid *rig, const ik_take *take, ik_mat4 *model_ms, ik_mat4 *rest_ms,
                              ik_real *per_frame) {
    ik_humanoid_angles a;
    ik_real worst = 0, excess;
    int f;
    ik_skeleton_fk(rig->skeleton, rig->skeleton->rest_ls, NULL, rest_ms);
    for (f = 0; f < take->frame_count; ++f) {
        ik_skeleton_fk(rig->skeleton, ik_take_pose(take, f), NULL, model_ms);
        ik_humanoid_angles_measure(rig, model_ms, rest_ms, &a);
        excess = ik_humanoid_angles_excess(rig, &a, NULL);
        if (per_frame) per_frame[f] = excess;
        worst = ik_maxr(worst, excess);
    }
    return worst;
}

/* Frame by frame: the knees (a flip is a bend under -2 degrees), the soles'
 * depth, which feet are grounded, and the rig's angles against the rest
 * pose with the grounded feet's ankle and toe angles measured apart. */
ik_result ik_leg_figures_measure(const ik_humanoid *rig, const ik_take *take, const ik_foot_contact *contacts,
                                 int contact_count, ik_real grounded_depth, ik_mat4 *model_ms, ik_mat4 *rest_ms,
                                 ik_leg_figures *out) {
    ik_leg_figures m;
    int f, k, c;
    if (!rig || !rig->skeleton || !take || !model_ms || !rest_ms || !out || (contact_count > 0 && !contacts))
        return IK_ERR_NULL;
    if (take->joint_count != rig->skeleton->joint_count || contact_count < 0) return IK_ERR_RANGE;
    for (c = 0; c < contact_count; ++c)
        if (contacts[c].point < 0 || contacts[c].point >= IK_FOOT_CONTACT_POINTS) return IK_ERR_RANGE;
    if (!ik_finite(grounded_depth)) return IK_ERR_NONFINITE;
    ik_skeleton_fk(rig->skeleton, rig->skeleton->rest_ls, NULL, rest_ms);
    m.sink = m.beyond = m.beyond_grounded = 0;
    m.knee_flips = 0;
    m.beyond_joint = NULL;
    m.beyond_frame = -1;
    for (f = 0; f < take->frame_count; ++f) {
        int flipped = 0;
        ik_bool grounded[2] = {0, 0};
        ik_humanoid_angles angles, feet;
        const char *joint = NULL, *foot_joint = NULL;
        ik_real all, grounded_feet;
        ik_skeleton_fk(rig->skeleton, ik_take_pose(take, f), NULL, model_ms);
        for (k = IK_LIMB_LEG_L; k <= IK_LIMB_LEG_R; ++k) {
            ik_real depth;
            if (ik_humanoid_limb_foot(&rig->limb[k]) < 0) continue;
            flipped |= ik_leg_knee_bend(&rig->limb[k], model_ms) < -ik_rad(2);
            depth = ik_leg_sole_depth(rig, k, model_ms);
            m.sink = ik_maxr(m.sink, depth);
            grounded[k - IK_LIMB_LEG_L] |= depth > -grounded_depth;
        }
        m.knee_flips += flipped;
        for (c = 0; c < contact_count; ++c)
            if (contacts[c].start <= f && f <= contacts[c].end)
                grounded[ik_foot_point_leg(contacts[c].point) - IK_LIMB_LEG_L] = 1;
        ik_humanoid_angles_measure(rig, model_ms, rest_ms, &angles);
        memset(&feet, 0, sizeof feet);
        for (k = 0; k < 2; ++k)
            if (grounded[k]) {
                feet.ankle[k] = angles.ankle[k], feet.toe[k] = angles.toe[k];
                angles.ankle[k] = angles.toe[k] = 0;
            }
        all = ik_humanoid_angles_excess(rig, &angles, &joint);
        grounded_feet = ik_humanoid_angles_excess(rig, &feet, &foot_joint);
        if (ik_maxr(all, grounded_feet) > ik_maxr(m.beyond, m.beyond_grounded))
            m.beyond_joint = all >= grounded_feet ? joint : foot_joint, m.beyond_frame = f;
        m.beyond = ik_maxr(m.beyond, all);
        m.beyond_grounded = ik_maxr(m.beyond_grounded, grounded_feet);
    }
    *out = m;
    return IK_OK;
}

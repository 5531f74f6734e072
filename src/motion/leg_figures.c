/* Knees bent the wrong way and soles under the floor over a take
 * (ikit/leg_figures.h). */
#include <ikit/leg_figures.h>

#include <math.h>

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

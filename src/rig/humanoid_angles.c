/* The angles the humanoid rig's limits bound, measured on a pose, and how
 * far a pose goes beyond them: what "every joint inside its limits" means
 * for a rig whose file carries no limits of its own (glTF and BVH carry
 * none). */
#include <ikit/humanoid.h>

/* The signed angle from a to b about the unit axis n, both seen across n:
 * atan2(n . (a x b), a . b). */
static ik_real angle_about(ik_vec3 a, ik_vec3 b, ik_vec3 n) {
    a = ik_vec3_reject(a, n);
    b = ik_vec3_reject(b, n);
    return IK_ATAN2(ik_vec3_dot(n, ik_vec3_cross(a, b)), ik_vec3_dot(a, b));
}

/* An elbow's or knee's bend (ik_humanoid_limb_bend): the angle from the upper bone to the lower
 * about the hinge in model space (sgn(det M) M hinge_axis_ls for the middle
 * joint's matrix M), 0 straight, negative bent the wrong way. */
ik_real ik_humanoid_limb_bend(const ik_humanoid_limb *l, const ik_mat4 *model_ms) {
    ik_mat4 end_ms = ik_humanoid_limb_end_ms(l, model_ms);
    ik_vec3 a = ik_mat4_translation(&model_ms[l->start]), b = ik_mat4_translation(&model_ms[l->mid]);
    ik_vec3 u = ik_vec3_sub(b, a), v = ik_vec3_sub(ik_mat4_translation(&end_ms), b);
    ik_vec3 h = ik_vec3_normalize(ik_mat4_transform_turn_axis(&model_ms[l->mid], l->hinge_axis_ls));
    ik_real angle = ik_acos_safe(ik_vec3_dot(ik_vec3_normalize(u), ik_vec3_normalize(v)));
    return ik_vec3_dot(ik_vec3_cross(u, v), h) < 0 ? -angle : angle;
}

/* The sole (heel to ball) and the foot's lateral axis of a leg in a pose,
 * from the foot joint (or a virtual ankle's control joint). The axis is
 * M lateral_ls, which turns with the foot; a turn of the foot by +a about
 * it lowers the toes, and the ankle angle by a. */
static void sole_frame(const ik_humanoid_limb *l, const ik_mat4 *model_ms, ik_vec3 *sole, ik_vec3 *lateral) {
    const ik_mat4 *foot = &model_ms[ik_humanoid_limb_foot(l)];
    *sole = ik_vec3_sub(ik_mat4_transform_point(foot, l->ball_ls), ik_mat4_transform_point(foot, l->heel_ls));
    *lateral = ik_vec3_normalize(ik_mat4_transform_vector(foot, l->lateral_ls));
}

ik_real ik_humanoid_leg_ankle(const ik_humanoid_limb *l, const ik_mat4 *model_ms) {
    ik_vec3 sole, lateral;
    ik_mat4 end_ms;
    if (ik_humanoid_limb_foot(l) < 0) return 0;
    end_ms = ik_humanoid_limb_end_ms(l, model_ms);
    sole_frame(l, model_ms, &sole, &lateral);
    return ik_humanoid_ankle_angle(
        sole, ik_vec3_sub(ik_mat4_translation(&model_ms[l->mid]), ik_mat4_translation(&end_ms)), lateral);
}

/* The toes' lift: the angle from the sole to the toe bone (toe joint to the
 * toes' tip) about the foot's lateral axis, toes up positive (the lateral
 * axis is the foot's left, up x forward, so up is a negative turn about it). */
ik_real ik_humanoid_leg_toe_lift(const ik_humanoid_limb *l, const ik_mat4 *model_ms) {
    ik_vec3 sole, lateral, toe;
    if (l->toe < 0 || ik_humanoid_limb_foot(l) < 0) return 0;
    toe =
        ik_vec3_sub(ik_mat4_transform_point(&model_ms[l->toe], l->toe_tip_ls), ik_mat4_translation(&model_ms[l->toe]));
    sole_frame(l, model_ms, &sole, &lateral);
    return -angle_about(sole, toe, lateral);
}

/* asin(s) = atan2(s, sqrt(1 - s^2)), s clamped to [-1, 1]. */
static ik_real asin_safe(ik_real s) {
    s = ik_clampr(s, -1, 1);
    return IK_ATAN2(s, IK_SQRT(1 - s * s));
}

/* A clavicle's elevation along the chest's forward and up: the unit bone
 * (clavicle to upper arm) taken into the chest's frame, d, and asin(d .
 * forward), asin(d . up) with the body's axes in that frame at rest. */
static void clavicle_elevation(const ik_humanoid *rig, int arm, const ik_mat4 *model_ms, const ik_mat4 *chest_axes,
                               ik_real *forward, ik_real *up) {
    const ik_humanoid_limb *l = &rig->limb[arm];
    ik_mat4 inverse;
    ik_vec3 d = ik_vec3_sub(ik_mat4_translation(&model_ms[l->start]), ik_mat4_translation(&model_ms[l->clavicle]));
    if (!ik_mat4_inverse(&model_ms[rig->map.joint[IK_ROLE_CHEST]], &inverse)) inverse = ik_mat4_identity();
    d = ik_vec3_normalize(ik_mat4_transform_vector(&inverse, d));
    *forward = asin_safe(ik_vec3_dot(d, ik_mat4_column(chest_axes, 2)));
    *up = asin_safe(ik_vec3_dot(d, ik_mat4_column(chest_axes, 1)));
}

/* The body's forward and up in the chest's frame at rest, as columns 2
 * and 1 of a matrix (column 0 unused). */
static ik_mat4 chest_axes_at_rest(const ik_humanoid *rig, const ik_mat4 *rest_ms) {
    ik_mat4 axes = ik_mat4_identity(), inverse;
    ik_vec3 up, forward;
    if (!ik_mat4_inverse(&rest_ms[rig->map.joint[IK_ROLE_CHEST]], &inverse)) inverse = ik_mat4_identity();
    up = ik_vec3_normalize(ik_mat4_transform_vector(&inverse, rig->up_rs));
    forward = ik_vec3_normalize(ik_mat4_transform_vector(&inverse, rig->forward_rs));
    axes.m[4] = up.x, axes.m[5] = up.y, axes.m[6] = up.z;
    axes.m[8] = forward.x, axes.m[9] = forward.y, axes.m[10] = forward.z;
    return axes;
}

void ik_humanoid_angles_measure(const ik_humanoid *rig, const ik_mat4 *model_ms, const ik_mat4 *rest_ms,
                                ik_humanoid_angles *out) {
    ik_mat4 chest_axes = chest_axes_at_rest(rig, rest_ms);
    int side;
    for (side = 0; side < 2; ++side) {
        const ik_humanoid_limb *arm = &rig->limb[IK_LIMB_ARM_L + side], *leg = &rig->limb[IK_LIMB_LEG_L + side];
        out->elbow[side] = ik_humanoid_limb_bend(arm, model_ms);
        out->knee[side] = ik_humanoid_limb_bend(leg, model_ms);
        out->ankle[side] = out->toe[side] = 0;
        out->clavicle_forward[side] = out->clavicle_up[side] = 0;
        if (ik_humanoid_limb_foot(leg) >= 0) {
            out->ankle[side] = ik_humanoid_leg_ankle(leg, model_ms);
            out->toe[side] = ik_humanoid_leg_toe_lift(leg, model_ms) - ik_humanoid_leg_toe_lift(leg, rest_ms);
        }
        if (arm->clavicle >= 0) {
            ik_real forward, up, forward_rest, up_rest;
            clavicle_elevation(rig, IK_LIMB_ARM_L + side, model_ms, &chest_axes, &forward, &up);
            clavicle_elevation(rig, IK_LIMB_ARM_L + side, rest_ms, &chest_axes, &forward_rest, &up_rest);
            out->clavicle_forward[side] = forward - forward_rest;
            out->clavicle_up[side] = up - up_rest;
        }
    }
}

/* Beyond [lo, hi] by how much (0 inside); keeps the largest in *worst with
 * its name. */
static void excess(ik_real value, ik_real lo, ik_real hi, const char *name, ik_real *worst, const char **what) {
    ik_real e = value < lo ? lo - value : value > hi ? value - hi : 0;
    if (e > *worst) *worst = e, *what = name;
}

ik_real ik_humanoid_angles_excess(const ik_humanoid *rig, const ik_humanoid_angles *a, const char **what) {
    static const char *const names[2][6] = {
        {"left elbow", "left knee", "left ankle", "left toes", "left clavicle forward", "left clavicle up"},
        {"right elbow", "right knee", "right ankle", "right toes", "right clavicle forward", "right clavicle up"}};
    const ik_humanoid_limits *lim = &rig->limits;
    ik_real worst = 0;
    const char *name = "";
    int side;
    for (side = 0; side < 2; ++side) {
        excess(a->elbow[side], lim->elbow_min, lim->elbow_max, names[side][0], &worst, &name);
        excess(a->knee[side], lim->knee_min, lim->knee_max, names[side][1], &worst, &name);
        excess(a->ankle[side], -lim->ankle_down, lim->ankle_up, names[side][2], &worst, &name);
        excess(a->toe[side], -lim->toe_curl, lim->toe_bend, names[side][3], &worst, &name);
        excess(a->clavicle_forward[side], -IK_PI, lim->clavicle_forward, names[side][4], &worst, &name);
        excess(a->clavicle_up[side], -IK_PI, lim->clavicle_up, names[side][5], &worst, &name);
    }
    if (what) *what = name;
    return worst;
}

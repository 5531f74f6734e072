/* A humanoid's mass model from de Leva (1996), scaled to the rig (see
 * body_mass.h). */
#include <ikit/body_mass.h>

#include <stddef.h>

#define IK_BODY_MASS_SEGMENT_NAME_ITEM(name, text) text,
static const char *const segment_names[IK_MASS_SEG_COUNT] = {IK_BODY_MASS_SEGMENT_LIST(IK_BODY_MASS_SEGMENT_NAME_ITEM)};
#undef IK_BODY_MASS_SEGMENT_NAME_ITEM

const char *ik_body_mass_segment_name(int segment) {
    return segment >= 0 && segment < IK_MASS_SEG_COUNT ? segment_names[segment] : "";
}

/* de Leva (1996), table 4, per sex: each segment's mass in percent of the
 * body's and its centre in percent of the segment's length from the first
 * end point named: head VERT->CERV (vertex to cervicale), trunk
 * CERV->MIDH (to the hip joint centres' midpoint), upper arm SJC->EJC,
 * forearm EJC->WJC, hand WJC->MET3 (wrist to third metacarpale), thigh
 * HJC->KJC, shank KJC->LMAL (to the lateral malleolus: the ankle), foot
 * HEEL->TTIP (to the tip of the longest toe). The mean lengths (cm) of the
 * two segments the rig has no joints for (head, hand), the stature and the
 * leg (thigh + shank) come from the same table. */
typedef struct de_leva_table {
    ik_real head_mass, head_com, trunk_mass, trunk_com, upper_arm_mass, upper_arm_com, forearm_mass, forearm_com;
    ik_real hand_mass, hand_com, thigh_mass, thigh_com, shank_mass, shank_com, foot_mass, foot_com;
    ik_real head_length, hand_length, leg_length, stature;
} de_leva_table;

static const de_leva_table de_leva[2] = {
    /* male */
    {(ik_real)6.94,
     (ik_real)59.76,
     (ik_real)43.46,
     (ik_real)44.86,
     (ik_real)2.71,
     (ik_real)57.72,
     (ik_real)1.62,
     (ik_real)45.74,
     (ik_real)0.61,
     (ik_real)79.00,
     (ik_real)14.16,
     (ik_real)40.95,
     (ik_real)4.33,
     (ik_real)44.59,
     (ik_real)1.37,
     (ik_real)44.15,
     (ik_real)24.29,
     (ik_real)8.62,
     (ik_real)(42.22 + 43.40),
     (ik_real)174.1},
    /* female */
    {(ik_real)6.68,
     (ik_real)58.94,
     (ik_real)42.57,
     (ik_real)41.51,
     (ik_real)2.55,
     (ik_real)57.54,
     (ik_real)1.38,
     (ik_real)45.59,
     (ik_real)0.56,
     (ik_real)74.74,
     (ik_real)14.78,
     (ik_real)36.12,
     (ik_real)4.81,
     (ik_real)44.16,
     (ik_real)1.29,
     (ik_real)40.14,
     (ik_real)24.37,
     (ik_real)7.80,
     (ik_real)(36.85 + 43.52),
     (ik_real)173.5},
};

static ik_vec3 rest_position(const ik_skeleton *s, int joint) {
    ik_mat4 m = ik_skeleton_rest_model(s, joint);
    return ik_mat4_translation(&m);
}

/* Put a segment's centre `point_rs` (root space at rest) on `joint`. */
static ik_bool place(ik_body_mass *mass, const ik_skeleton *s, int segment, int joint, ik_vec3 point_rs, ik_real kg) {
    ik_mat4 m = ik_skeleton_rest_model(s, joint), inv;
    if (!ik_mat4_inverse(&m, &inv)) return 0;
    mass->joint[segment] = joint;
    mass->centre_ls[segment] = ik_mat4_transform_point(&inv, point_rs);
    mass->mass[segment] = kg;
    return 1;
}

ik_result ik_body_mass_init(ik_body_mass *mass, const ik_humanoid *rig, ik_body_mass_table table, ik_real total_mass) {
    const de_leva_table *t;
    const ik_skeleton *s;
    const int *j;
    ik_vec3 cerv, midh, up;
    ik_real leg, stature, trunk_kg;
    int side, shares = 2, spine;
    ik_body_mass out;
    if (!mass || !rig || !rig->skeleton) return IK_ERR_NULL;
    if ((table != IK_BODY_MASS_MALE && table != IK_BODY_MASS_FEMALE) || !ik_finite(total_mass) || !(total_mass > 0))
        return IK_ERR_RANGE;
    t = &de_leva[table];
    s = rig->skeleton;
    j = rig->map.joint;
    up = rig->up_rs;
    /* Stature from the legs: leg / (de Leva's leg over his stature). */
    leg = (ik_real)0.5 * (rig->limb[IK_LIMB_LEG_L].upper_length + rig->limb[IK_LIMB_LEG_L].lower_length +
                          rig->limb[IK_LIMB_LEG_R].upper_length + rig->limb[IK_LIMB_LEG_R].lower_length);
    stature = leg * t->stature / t->leg_length;
    out.stature = stature;
    out.table = table;
    out.total_mass = total_mass;

    /* Head: from the vertex, head_length above the cervicale (the neck
     * joint, else the head joint), its centre head_com of the way down. */
    cerv = rest_position(s, j[IK_ROLE_NECK] >= 0 ? j[IK_ROLE_NECK] : j[IK_ROLE_HEAD]);
    midh = ik_vec3_scale(
        ik_vec3_add(rest_position(s, rig->limb[IK_LIMB_LEG_L].start), rest_position(s, rig->limb[IK_LIMB_LEG_R].start)),
        (ik_real)0.5);
    if (!place(&out, s, IK_MASS_SEG_HEAD, j[IK_ROLE_HEAD],
               ik_vec3_mad(cerv, up, (1 - t->head_com / 100) * t->head_length / t->stature * stature),
               t->head_mass / 100 * total_mass))
        return IK_ERR_DEGENERATE;

    /* Trunk: its centre trunk_com of the way from the cervicale to the hips'
     * midpoint, its mass shared by pelvis, spine and chest. */
    spine = j[IK_ROLE_SPINE];
    if (spine >= 0 && spine != j[IK_ROLE_HIPS] && spine != j[IK_ROLE_CHEST]) shares = 3;
    trunk_kg = t->trunk_mass / 100 * total_mass / (ik_real)shares;
    {
        ik_vec3 c = ik_vec3_lerp(cerv, midh, t->trunk_com / 100);
        if (!place(&out, s, IK_MASS_SEG_TRUNK_LOW, j[IK_ROLE_HIPS], c, trunk_kg) ||
            !place(&out, s, IK_MASS_SEG_TRUNK_MID, shares == 3 ? spine : j[IK_ROLE_HIPS], c,
                   shares == 3 ? trunk_kg : 0) ||
            !place(&out, s, IK_MASS_SEG_TRUNK_HIGH, j[IK_ROLE_CHEST], c, trunk_kg))
            return IK_ERR_DEGENERATE;
    }

    for (side = 0; side < 2; ++side) {
        const ik_humanoid_limb *arm = &rig->limb[IK_LIMB_ARM_L + side], *lg = &rig->limb[IK_LIMB_LEG_L + side];
        ik_mat4 mid = ik_skeleton_rest_model(s, arm->mid), shin = ik_skeleton_rest_model(s, lg->mid);
        ik_vec3 sjc = rest_position(s, arm->start), ejc = ik_mat4_translation(&mid);
        ik_vec3 wjc = ik_mat4_transform_point(&mid, arm->end_offset_ls);
        ik_vec3 hjc = rest_position(s, lg->start), kjc = ik_mat4_translation(&shin);
        ik_vec3 ankle = ik_mat4_transform_point(&shin, lg->end_offset_ls), heel, tip, hand_dir;
        int foot = ik_humanoid_limb_foot(lg);
        if (arm->end >= 0) wjc = rest_position(s, arm->end);
        if (lg->end >= 0) ankle = rest_position(s, lg->end);
        hand_dir = ik_vec3_normalize_or(ik_vec3_sub(wjc, ejc), ik_vec3_neg(up));
        if (!place(&out, s, IK_MASS_SEG_UPPER_ARM_L + side, arm->start, ik_vec3_lerp(sjc, ejc, t->upper_arm_com / 100),
                   t->upper_arm_mass / 100 * total_mass) ||
            !place(&out, s, IK_MASS_SEG_FOREARM_L + side, arm->mid, ik_vec3_lerp(ejc, wjc, t->forearm_com / 100),
                   t->forearm_mass / 100 * total_mass) ||
            !place(&out, s, IK_MASS_SEG_HAND_L + side, arm->end >= 0 ? arm->end : arm->mid,
                   ik_vec3_mad(wjc, hand_dir, t->hand_com / 100 * t->hand_length / t->stature * stature),
                   t->hand_mass / 100 * total_mass) ||
            !place(&out, s, IK_MASS_SEG_THIGH_L + side, lg->start, ik_vec3_lerp(hjc, kjc, t->thigh_com / 100),
                   t->thigh_mass / 100 * total_mass) ||
            !place(&out, s, IK_MASS_SEG_SHANK_L + side, lg->mid, ik_vec3_lerp(kjc, ankle, t->shank_com / 100),
                   t->shank_mass / 100 * total_mass))
            return IK_ERR_DEGENERATE;
        /* Foot: heel to the toes' tip as the rig's sole has them (the toe
         * joint's tip contact, else 0.3 of heel-to-ball past the ball). */
        heel = ik_vec3_mad(ankle, up, -lg->ankle_height);
        tip = ik_vec3_mad(heel, rig->forward_rs, (ik_real)0.2 * leg);
        if (foot >= 0) {
            ik_mat4 fm = ik_skeleton_rest_model(s, foot);
            ik_vec3 ball = ik_mat4_transform_point(&fm, lg->ball_ls);
            heel = ik_mat4_transform_point(&fm, lg->heel_ls);
            tip = ik_vec3_add(ball, ik_vec3_scale(ik_vec3_sub(ball, heel), (ik_real)0.3));
            if (lg->toe >= 0) {
                ik_mat4 tm = ik_skeleton_rest_model(s, lg->toe);
                tip = ik_mat4_transform_point(&tm, lg->toe_tip_ls);
            }
        }
        if (!place(&out, s, IK_MASS_SEG_FOOT_L + side, lg->end >= 0 ? lg->end : lg->mid,
                   ik_vec3_lerp(heel, tip, t->foot_com / 100), t->foot_mass / 100 * total_mass))
            return IK_ERR_DEGENERATE;
    }
    *mass = out;
    return IK_OK;
}

ik_vec3 ik_body_mass_segment_centre(const ik_body_mass *mass, int segment, const ik_mat4 *model_ms) {
    if (segment < 0 || segment >= IK_MASS_SEG_COUNT) return ik_vec3_zero();
    return ik_mat4_transform_point(&model_ms[mass->joint[segment]], mass->centre_ls[segment]);
}

ik_vec3 ik_body_mass_centre(const ik_body_mass *mass, const ik_mat4 *model_ms) {
    ik_vec3 sum = ik_vec3_zero();
    ik_real total = 0;
    int i;
    for (i = 0; i < IK_MASS_SEG_COUNT; ++i) {
        sum = ik_vec3_mad(sum, ik_body_mass_segment_centre(mass, i, model_ms), mass->mass[i]);
        total += mass->mass[i];
    }
    return total > 0 ? ik_vec3_scale(sum, 1 / total) : sum;
}

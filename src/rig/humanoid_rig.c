/* The humanoid rig: what the rest pose tells about the body, read once.
 * Everything here is measured in the skeleton's root space (forward
 * kinematics of the rest pose with the identity above the roots). */
#include <ikit/humanoid.h>

#include <stddef.h>

static ik_vec3 rest_position(const ik_skeleton *s, int joint) {
    ik_mat4 m = ik_skeleton_rest_model(s, joint);
    return ik_mat4_translation(&m);
}

/* A model-space direction or point in a joint's frame: M^-1 applied. */
static ik_vec3 to_joint_vector(const ik_mat4 *inverse, ik_vec3 v) { return ik_mat4_transform_vector(inverse, v); }
static ik_vec3 to_joint_point(const ik_mat4 *inverse, ik_vec3 p) { return ik_mat4_transform_point(inverse, p); }

/* How far below a joint its descendants are looked at by the scans below
 * (a leg down to its sole, a foot's toes and their ends, a head's face: a
 * few joints in real rigs), so that each scan is linear in the joints
 * whatever hangs below (a chain of 50,000 under a hand took 14 s). */
#define BELOW_LEVELS 32

/* k is 1 to BELOW_LEVELS joints below `joint`. */
static ik_bool below_within(const ik_skeleton *s, int k, int joint) {
    return ik_skeleton_levels_below(s, k, joint, BELOW_LEVELS, NULL) > 0;
}

static ik_bool proper_ancestor(const ik_skeleton *s, int ancestor, int joint) {
    return ancestor >= 0 && joint >= 0 && ancestor != joint && ik_skeleton_is_descendant(s, joint, ancestor);
}

static ik_humanoid_limits default_limits(void) {
    ik_humanoid_limits l;
    l.elbow_min = 0;
    l.elbow_max = ik_rad(150);
    l.knee_min = 0;
    l.knee_max = ik_rad(150);
    l.ankle_up = ik_rad(25);
    l.ankle_down = ik_rad(50);
    l.toe_bend = ik_rad(60);
    l.toe_curl = ik_rad(30);
    l.clavicle_forward = ik_rad(30);
    l.clavicle_up = ik_rad(30);
    l.look_max = ik_rad(80);
    l.pelvis_drop = (ik_real)0.4;
    l.pelvis_raise = (ik_real)0.2;
    l.contact_height = (ik_real)0.02;
    return l;
}

/* Lowest height along `up` of `joint` and everything below it (to
 * BELOW_LEVELS). */
static ik_real lowest_below(const ik_skeleton *s, int joint, ik_vec3 up) {
    ik_real low = ik_vec3_dot(rest_position(s, joint), up);
    int k;
    for (k = joint + 1; k < s->joint_count; ++k)
        if (below_within(s, k, joint)) low = ik_minr(low, ik_vec3_dot(rest_position(s, k), up));
    return low;
}

static ik_bool has_children(const ik_skeleton *s, int joint) {
    int k;
    for (k = joint + 1; k < s->joint_count; ++k)
        if (s->parents[k] == joint) return 1;
    return 0;
}

/* seed 001: the elbow and the knee bend about one axis each. */
ik_vec3 ik_limb_hinge(ik_vec3 a, ik_vec3 b, ik_vec3 c, ik_vec3 forward, ik_vec3 up, ik_bool knee) {
    ik_vec3 u = ik_vec3_sub(b, a), v = ik_vec3_sub(c, b);
    ik_vec3 n = ik_vec3_cross(u, v);
    ik_vec3 fallback = ik_vec3_cross(u, knee ? ik_vec3_neg(forward) : forward);
    if (!(ik_vec3_length_sq(fallback) > (ik_real)1e-6 * ik_vec3_length_sq(u)))
        fallback = ik_vec3_cross(u, knee ? ik_vec3_neg(up) : up);
    fallback = ik_vec3_normalize_or(fallback, ik_vec3_any_perpendicular(ik_vec3_normalize(u)));
    /* |u x v|^2 > 1.2e-3 |u|^2 |v|^2: sin^2 of the bend over 1.2e-3, 2 degrees */
    if (ik_vec3_length_sq(n) > (ik_real)1.2e-3 * ik_vec3_length_sq(u) * ik_vec3_length_sq(v) &&
        ik_vec3_dot(n, fallback) > 0)
        return ik_vec3_normalize(n);
    return fallback;
}

static ik_result init_limb(ik_humanoid *rig, int which, int start, int mid, int end, int extra, int rejected_end) {
    const ik_skeleton *s = rig->skeleton;
    ik_humanoid_limb *limb = &rig->limb[which];
    ik_bool leg = which >= IK_LIMB_LEG_L;
    ik_mat4 mid_ms = ik_skeleton_rest_model(s, mid), mid_inv;
    ik_vec3 a = rest_position(s, start), b = ik_mat4_translation(&mid_ms), c, u, v, h;
    if (!proper_ancestor(s, start, mid) || (end >= 0 && !proper_ancestor(s, mid, end))) return IK_ERR_HIERARCHY;
    if (!ik_mat4_inverse(&mid_ms, &mid_inv)) return IK_ERR_DEGENERATE;
    /* Without an end joint the limb ends at a virtual one: where a same-named
     * control joint stood at rest (robot.glb's Foot.L), else one lower bone
     * further along the upper bone's line. */
    if (end >= 0)
        c = rest_position(s, end);
    else if (rejected_end >= 0)
        c = rest_position(s, rejected_end);
    else
        c = ik_vec3_add(b, ik_vec3_sub(b, a));
    u = ik_vec3_sub(b, a);
    v = ik_vec3_sub(c, b);
    limb->start = start;
    limb->mid = mid;
    limb->end = end;
    limb->end_control = end < 0 ? rejected_end : -1;
    limb->clavicle = leg ? -1 : extra;
    limb->toe = leg ? extra : -1;
    limb->upper_length = ik_vec3_length(u);
    limb->lower_length = ik_vec3_length(v);
    if (!(limb->upper_length > 0) || !(limb->lower_length > 0)) return IK_ERR_DEGENERATE;
    limb->end_offset_ls = to_joint_point(&mid_inv, c);
    /* The bend is measured in the mid joint's own frame (ik_two_bone): where
     * that frame is mirrored at rest (a negative determinant: a mirrored
     * rig), a turn about M^-1 h is a turn the other way about h, so the axis
     * is sgn(det M) M^-1 h and the rest bend stays positive. */
    h = ik_limb_hinge(a, b, c, rig->forward_rs, rig->up_rs, leg);
    limb->hinge_axis_ls = ik_vec3_normalize(ik_mat4_transform_turn_axis(&mid_inv, h));
    limb->sole_up_ls = limb->lateral_ls = limb->heel_ls = limb->ball_ls = limb->toe_tip_ls = ik_vec3_zero();
    limb->ankle_height = 0;
    return IK_OK;
}

ik_mat4 ik_humanoid_limb_end_ms(const ik_humanoid_limb *limb, const ik_mat4 *model_ms) {
    ik_mat4 m;
    ik_vec3 end;
    if (limb->end >= 0) return model_ms[limb->end];
    m = model_ms[limb->mid];
    end = ik_mat4_transform_point(&m, limb->end_offset_ls);
    m.m[12] = end.x, m.m[13] = end.y, m.m[14] = end.z;
    return m;
}

void ik_humanoid_carry_end_control(const ik_humanoid *rig, int limb, ik_transform *pose_ls, ik_mat4 *model_ms,
                                   const ik_mat4 *root_ms) {
    const ik_humanoid_limb *l = &rig->limb[limb];
    int parent;
    const ik_mat4 *above;
    ik_mat4 end_ms, inv = ik_mat4_identity();
    if (l->end >= 0 || l->end_control < 0) return;
    parent = rig->skeleton->parents[l->end_control];
    above = parent >= 0 ? &model_ms[parent] : root_ms;
    ik_skeleton_fk_subtree(rig->skeleton, l->start, pose_ls, root_ms, model_ms);
    end_ms = ik_humanoid_limb_end_ms(l, model_ms);
    if (above && !ik_mat4_inverse(above, &inv)) return;
    pose_ls[l->end_control].translation = ik_mat4_transform_point(&inv, ik_mat4_translation(&end_ms));
    ik_skeleton_fk_subtree(rig->skeleton, l->end_control, pose_ls, root_ms, model_ms);
}

/* atan2(l . (f x s), f . s) + pi/2 with f, s the sole and shin off the
 * unit lateral axis l (both projections, so only the bend about l counts). */
ik_real ik_humanoid_ankle_angle(ik_vec3 sole, ik_vec3 shin, ik_vec3 lateral) {
    ik_vec3 l = ik_vec3_normalize_or(lateral, ik_v3(1, 0, 0));
    ik_vec3 f = ik_vec3_reject(sole, l), s = ik_vec3_reject(shin, l);
    ik_real a = IK_ATAN2(ik_vec3_dot(l, ik_vec3_cross(f, s)), ik_vec3_dot(f, s)) + IK_PI / 2;
    return a > IK_PI ? a - 2 * IK_PI : a;
}

/* The toes' tip at rest: the toe's descendant farthest from it (an End
 * Site, "Toe_End"), else `estimate` (0.3 of the heel-to-ball length ahead of
 * the ball, a typical toe). */
static ik_vec3 toe_tip(const ik_skeleton *s, int toe, ik_vec3 estimate) {
    ik_vec3 base = rest_position(s, toe), tip = estimate;
    ik_real best = 0;
    int k;
    for (k = toe + 1; k < s->joint_count; ++k)
        if (below_within(s, k, toe)) {
            ik_vec3 p = rest_position(s, k);
            if (ik_vec3_distance(p, base) > best) {
                best = ik_vec3_distance(p, base);
                tip = p;
            }
        }
    return tip;
}

/* The sole (seed 001's heel and toes): the ankle stands `ankle_height` above
 * the floor; the heel contact is straight below the ankle, the ball contact
 * straight below the toe joint, the toes' tip contact straight below their
 * tip. A foot with no toe has its ball half a foot length ahead of the
 * heel: 0.152 H / 2 of stature H over a leg (hip to ankle) of 0.530 H -
 * 0.039 H, 0.155 leg lengths (Drillis & Contini's segment proportions, as
 * drawn in Winter, Biomechanics and Motor Control of Human Movement,
 * fig. 4.1; the outside measure in tests/outside places it so too).
 * All in the frame of the foot joint, or of a virtual ankle's control joint
 * (ik_humanoid_limb_foot), which stands at the virtual ankle at rest. */
#define TOELESS_BALL ((ik_real)(0.152 / 2 / (0.530 - 0.039)))
static void init_sole(ik_humanoid *rig, int which, ik_real ankle_height) {
    const ik_skeleton *s = rig->skeleton;
    ik_humanoid_limb *limb = &rig->limb[which];
    ik_mat4 foot_ms, foot_inv;
    ik_vec3 ankle, heel, ball;
    limb->ankle_height = ankle_height;
    if (ik_humanoid_limb_foot(limb) < 0) return;
    foot_ms = ik_skeleton_rest_model(s, ik_humanoid_limb_foot(limb));
    if (!ik_mat4_inverse(&foot_ms, &foot_inv)) return;
    ankle = ik_mat4_translation(&foot_ms);
    heel = ik_vec3_mad(ankle, rig->up_rs, -ankle_height);
    if (limb->toe >= 0) {
        ik_vec3 toe = rest_position(s, limb->toe);
        ball = ik_vec3_mad(toe, rig->up_rs, -(ik_vec3_dot(ik_vec3_sub(toe, heel), rig->up_rs)));
    } else {
        ball = ik_vec3_mad(heel, rig->forward_rs, TOELESS_BALL * (limb->upper_length + limb->lower_length));
    }
    limb->sole_up_ls = ik_vec3_normalize(to_joint_vector(&foot_inv, rig->up_rs));
    limb->lateral_ls = ik_vec3_normalize(to_joint_vector(&foot_inv, ik_vec3_cross(rig->up_rs, rig->forward_rs)));
    limb->heel_ls = to_joint_point(&foot_inv, heel);
    limb->ball_ls = to_joint_point(&foot_inv, ball);
    if (limb->toe >= 0) {
        ik_mat4 toe_ms = ik_skeleton_rest_model(s, limb->toe), toe_inv;
        ik_vec3 tip = toe_tip(s, limb->toe, ik_vec3_add(ball, ik_vec3_scale(ik_vec3_sub(ball, heel), (ik_real)0.3)));
        tip = ik_vec3_mad(tip, rig->up_rs, -ik_vec3_dot(ik_vec3_sub(tip, heel), rig->up_rs));
        if (ik_mat4_inverse(&toe_ms, &toe_inv)) limb->toe_tip_ls = to_joint_point(&toe_inv, tip);
    }
}

/* The coordinate axis nearest to the unit v when within 30 degrees of it
 * (rigs are built along their root space's axes; a posed rest pose such as
 * girl.glb's leans), else v itself. */
static ik_vec3 snap_to_axis(ik_vec3 v) {
    ik_real ax = IK_FABS(v.x), ay = IK_FABS(v.y), az = IK_FABS(v.z);
    ik_vec3 axis;
    if (ax >= ay && ax >= az)
        axis = ik_v3(v.x > 0 ? 1 : -1, 0, 0);
    else if (ay >= az)
        axis = ik_v3(0, v.y > 0 ? 1 : -1, 0);
    else
        axis = ik_v3(0, 0, v.z > 0 ? 1 : -1);
    return ik_vec3_dot(axis, v) >= (ik_real)0.866 ? axis : v;
}

/* The descendant of `joint` (to BELOW_LEVELS) farthest from it at rest; -1
 * when it has none. */
static int farthest_below(const ik_skeleton *s, int joint) {
    ik_vec3 base = rest_position(s, joint);
    ik_real best = 0;
    int k, far = -1;
    for (k = joint + 1; k < s->joint_count; ++k)
        if (below_within(s, k, joint) && ik_vec3_distance(rest_position(s, k), base) > best) {
            best = ik_vec3_distance(rest_position(s, k), base);
            far = k;
        }
    return far;
}

/* Toes: each foot's farthest descendant t off the up axis, d = reject(t -
 * ankle, up), counts when |d| is over a quarter of |t - ankle| (a toe, not
 * an End Site straight below); the unit d's are summed and must agree (sum
 * over half their count). Face: the sum of the head's descendants' offsets
 * off the up axis through it, when over a fifth of the farthest one's
 * distance (a jaw, eyes, a nose; a head end straight above gives nothing). */
ik_bool ik_figure_forward(const ik_skeleton *s, const int *feet, int foot_count, int head, ik_vec3 up_rs,
                          ik_vec3 *forward_rs) {
    ik_vec3 sum = ik_vec3_zero(), up = ik_vec3_normalize_or(up_rs, ik_v3(0, 1, 0));
    ik_real reach = 0;
    int i, k, used = 0;
    if (!s || !forward_rs || (foot_count > 0 && !feet)) return 0;
    for (i = 0; i < foot_count; ++i) {
        int tip = feet[i] >= 0 && feet[i] < s->joint_count ? farthest_below(s, feet[i]) : -1;
        ik_vec3 t, d;
        if (tip < 0) continue;
        t = ik_vec3_sub(rest_position(s, tip), rest_position(s, feet[i]));
        d = ik_vec3_reject(t, up);
        if (!(ik_vec3_length_sq(d) > (ik_real)0.0625 * ik_vec3_length_sq(t))) continue;
        sum = ik_vec3_add(sum, ik_vec3_normalize(d));
        ++used;
    }
    if (used > 0 && ik_vec3_length(sum) > (ik_real)0.5 * (ik_real)used) {
        *forward_rs = ik_vec3_normalize(ik_vec3_reject(snap_to_axis(ik_vec3_normalize(sum)), up));
        return 1;
    }
    if (head < 0 || head >= s->joint_count) return 0;
    sum = ik_vec3_zero();
    for (k = head + 1; k < s->joint_count; ++k)
        if (below_within(s, k, head)) {
            ik_vec3 t = ik_vec3_sub(rest_position(s, k), rest_position(s, head));
            sum = ik_vec3_add(sum, ik_vec3_reject(t, up));
            reach = ik_maxr(reach, ik_vec3_length(t));
        }
    if (!(ik_vec3_length(sum) > (ik_real)0.2 * reach)) return 0;
    *forward_rs = ik_vec3_normalize(ik_vec3_reject(snap_to_axis(ik_vec3_normalize(sum)), up));
    return 1;
}

/* How far a limb's middle joint a -> b -> c sits off the line from a to c
 * along `forward`, in lengths of that line: (reject(b - a, c - a) .
 * forward) / |c - a|; 0 when a joint is missing or a = c. */
static ik_real bend_along(const ik_skeleton *s, int a, int b, int c, ik_vec3 forward) {
    ik_vec3 pa, line;
    ik_real length;
    if (a < 0 || b < 0 || c < 0) return 0;
    pa = rest_position(s, a);
    line = ik_vec3_sub(rest_position(s, c), pa);
    length = ik_vec3_length(line);
    if (!(length > 0)) return 0;
    return ik_vec3_dot(ik_vec3_reject(ik_vec3_sub(rest_position(s, b), pa), ik_vec3_scale(line, 1 / length)), forward) /
           length;
}

/* Which way the limbs' rest bends say the body faces, for a figure whose
 * toes and face do not tell: knees bend with the knee ahead of the hip-to-
 * ankle line, elbows with the elbow behind the shoulder-to-wrist line (the
 * only way each hinge bends), so v = sum over knees of bend_along - sum over
 * elbows, measured along `forward`; the sign of v when |v| > 0.05 (some 11
 * degrees of bend in all), else 0. A mirror keeps which side of the line a
 * knee is on, so this holds on a mirrored rig, where the names' left x up
 * points backward. A virtual ankle counts at its control joint. */
static int forward_from_bends(const ik_skeleton *s, const ik_humanoid_map *map, ik_vec3 forward) {
    ik_real v = 0;
    int side;
    for (side = 0; side < 2; ++side) {
        int foot = map->joint[IK_ROLE_FOOT_L + side] >= 0 ? map->joint[IK_ROLE_FOOT_L + side]
                                                          : map->rejected[IK_ROLE_FOOT_L + side];
        v += bend_along(s, map->joint[IK_ROLE_THIGH_L + side], map->joint[IK_ROLE_SHIN_L + side], foot, forward);
        v -= bend_along(s, map->joint[IK_ROLE_UPPER_ARM_L + side], map->joint[IK_ROLE_FOREARM_L + side],
                        map->joint[IK_ROLE_HAND_L + side], forward);
    }
    return v > (ik_real)0.05 ? 1 : v < -(ik_real)0.05 ? -1 : 0;
}

/* Body axes: up from the hips toward the head, left from the right thigh and
 * arm to the left ones (made perpendicular to up), each snapped to a root
 * axis when near one; forward = left x up (a body facing +Z with its left on
 * +X and +Y up, as glTF and CMU figures do), turned round where the left
 * thigh's rest frame is mirrored (a negative determinant: a rig made that
 * way and then mirrored by a joint's scale has its left on the other side,
 * and left x up points backward), and turned to agree with the toes or the
 * face when they tell (ik_figure_forward), else with the knees' and elbows'
 * rest bends (forward_from_bends; a rig mirrored in its rest pose, with
 * proper rotations, has no negative determinant to show it). */
static ik_result init_axes(ik_humanoid *rig) {
    const ik_skeleton *s = rig->skeleton;
    const int *j = rig->map.joint;
    ik_vec3 hips = rest_position(s, j[IK_ROLE_HIPS]);
    ik_vec3 legs = ik_vec3_sub(rest_position(s, j[IK_ROLE_THIGH_L]), rest_position(s, j[IK_ROLE_THIGH_R]));
    ik_vec3 arms = ik_vec3_sub(rest_position(s, j[IK_ROLE_UPPER_ARM_L]), rest_position(s, j[IK_ROLE_UPPER_ARM_R]));
    ik_vec3 up = ik_vec3_sub(rest_position(s, j[IK_ROLE_HEAD]), hips), left, toes;
    ik_mat4 thigh;
    int feet[2];
    feet[0] = j[IK_ROLE_FOOT_L];
    feet[1] = j[IK_ROLE_FOOT_R];
    if (!(ik_vec3_length_sq(up) > 0)) return IK_ERR_DEGENERATE;
    up = snap_to_axis(ik_vec3_normalize(up));
    left = ik_vec3_reject(ik_vec3_add(legs, arms), up);
    if (!(ik_vec3_length_sq(left) > (ik_real)1e-8 * ik_vec3_length_sq(ik_vec3_add(legs, arms))))
        return IK_ERR_DEGENERATE;
    rig->left_rs = snap_to_axis(ik_vec3_normalize(left));
    rig->left_rs = ik_vec3_normalize(ik_vec3_reject(rig->left_rs, up));
    rig->up_rs = up;
    rig->forward_rs = ik_vec3_normalize(ik_vec3_cross(rig->left_rs, up));
    thigh = ik_skeleton_rest_model(s, j[IK_ROLE_THIGH_L]);
    if (ik_mat4_det3(&thigh) < 0) rig->forward_rs = ik_vec3_neg(rig->forward_rs);
    if (ik_figure_forward(s, feet, 2, j[IK_ROLE_HEAD], up, &toes)) {
        if (ik_vec3_dot(toes, rig->forward_rs) < 0) rig->forward_rs = ik_vec3_neg(rig->forward_rs);
    } else if (forward_from_bends(s, &rig->map, rig->forward_rs) < 0) {
        rig->forward_rs = ik_vec3_neg(rig->forward_rs);
    }
    return IK_OK;
}

static void init_look_chain(ik_humanoid *rig) {
    static const int roles[4] = {IK_ROLE_SPINE, IK_ROLE_CHEST, IK_ROLE_NECK, IK_ROLE_HEAD};
    static const ik_real shares[4] = {(ik_real)0.2, (ik_real)0.3, (ik_real)0.5, 1};
    const ik_skeleton *s = rig->skeleton;
    ik_mat4 m, inv;
    int i, n = 0;
    for (i = 0; i < 4; ++i) {
        int joint = rig->map.joint[roles[i]];
        if (joint < 0 || (n > 0 && !proper_ancestor(s, rig->look_chain[n - 1], joint))) continue;
        rig->look_chain[n] = joint;
        rig->look_weights[n] = shares[i];
        ++n;
    }
    rig->look_count = n;
    m = ik_skeleton_rest_model(s, rig->map.joint[IK_ROLE_HEAD]);
    if (!ik_mat4_inverse(&m, &inv)) inv = ik_mat4_identity();
    rig->head_forward_ls = ik_vec3_normalize(to_joint_vector(&inv, rig->forward_rs));
    rig->head_up_ls = ik_vec3_normalize(to_joint_vector(&inv, rig->up_rs));
    m = ik_skeleton_rest_model(s, rig->map.joint[IK_ROLE_CHEST]);
    if (!ik_mat4_inverse(&m, &inv)) inv = ik_mat4_identity();
    rig->chest_forward_ls = ik_vec3_normalize(to_joint_vector(&inv, rig->forward_rs));
}

ik_result ik_humanoid_init(ik_humanoid *rig, const ik_skeleton *skeleton, const ik_humanoid_map *map) {
    const int *j;
    ik_result r;
    int side;
    if (!rig || !skeleton || !map || !skeleton->parents || !skeleton->rest_ls) return IK_ERR_NULL;
    for (side = 0; side < IK_ROLE_COUNT; ++side)
        if (map->joint[side] < -1 || map->joint[side] >= skeleton->joint_count) return IK_ERR_RANGE;
    if (map->missing & IK_HUMANOID_REQUIRED_ROLES) return IK_ERR_NOT_FOUND;
    rig->skeleton = skeleton;
    rig->map = *map;
    rig->limits = default_limits();
    j = map->joint;
    r = init_axes(rig);
    if (r != IK_OK) return r;
    for (side = 0; side < 2; ++side) {
        int clavicle = j[IK_ROLE_CLAVICLE_L + side];
        if (!proper_ancestor(skeleton, j[IK_ROLE_HIPS], j[IK_ROLE_THIGH_L + side]) ||
            !proper_ancestor(skeleton, j[IK_ROLE_CHEST], j[IK_ROLE_UPPER_ARM_L + side]) ||
            (clavicle >= 0 && !proper_ancestor(skeleton, clavicle, j[IK_ROLE_UPPER_ARM_L + side])))
            return IK_ERR_HIERARCHY;
        r = init_limb(rig, IK_LIMB_ARM_L + side, j[IK_ROLE_UPPER_ARM_L + side], j[IK_ROLE_FOREARM_L + side],
                      j[IK_ROLE_HAND_L + side], clavicle, map->rejected[IK_ROLE_HAND_L + side]);
        if (r == IK_OK)
            r = init_limb(rig, IK_LIMB_LEG_L + side, j[IK_ROLE_THIGH_L + side], j[IK_ROLE_SHIN_L + side],
                          j[IK_ROLE_FOOT_L + side], j[IK_ROLE_TOE_L + side], map->rejected[IK_ROLE_FOOT_L + side]);
        if (r != IK_OK) return r;
    }
    /* A figure that stands: its legs hang away from its head (hips to
     * ankles within 60 degrees of -up); a quadruped's spine lies along the
     * ground, its legs hang across it. */
    {
        ik_vec3 down = ik_vec3_zero();
        for (side = 0; side < 2; ++side) {
            const ik_humanoid_limb *leg = &rig->limb[IK_LIMB_LEG_L + side];
            ik_mat4 shin = ik_skeleton_rest_model(skeleton, leg->mid);
            ik_vec3 ankle = ik_mat4_transform_point(&shin, leg->end_offset_ls);
            down = ik_vec3_add(down, ik_vec3_normalize(ik_vec3_sub(ankle, rest_position(skeleton, leg->start))));
        }
        if (!(ik_vec3_dot(ik_vec3_normalize_or(down, ik_vec3_zero()), rig->up_rs) < (ik_real)-0.5))
            return IK_ERR_UNSUPPORTED;
    }
    /* Each ankle's height is measured above its own leg's lowest rest point
     * (a virtual ankle counts), so feet of rigs whose rest legs differ in
     * length (CMU subjects) each get their own sole; a foot joint with
     * nothing below it gives no sole, so it gets a typical 0.08 leg lengths.
     * The floor is the lower of the two soles. */
    for (side = 0; side < 2; ++side) {
        ik_humanoid_limb *leg = &rig->limb[IK_LIMB_LEG_L + side];
        ik_mat4 shin = ik_skeleton_rest_model(skeleton, leg->mid);
        ik_vec3 ankle = ik_mat4_transform_point(&shin, leg->end_offset_ls);
        ik_real low = ik_minr(lowest_below(skeleton, leg->start, rig->up_rs), ik_vec3_dot(ankle, rig->up_rs));
        ik_real h = ik_vec3_dot(ankle, rig->up_rs) - low;
        if (leg->end >= 0 && !has_children(skeleton, leg->end))
            h = ik_maxr(h, (ik_real)0.08 * (leg->upper_length + leg->lower_length));
        init_sole(rig, IK_LIMB_LEG_L + side, h);
        low = ik_vec3_dot(ankle, rig->up_rs) - h;
        rig->floor_rs = side == 0 ? low : ik_minr(rig->floor_rs, low);
    }
    rig->pelvis = j[IK_ROLE_HIPS];
    init_look_chain(rig);
    return IK_OK;
}

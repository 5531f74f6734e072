/* A pose's legs and feet brought inside the rig's limits after a footskate
 * pass, the held contacts kept (ikit/feet_within_limits.h). */
#include <ikit/constraint.h>
#include <ikit/feet_within_limits.h>
#include <ikit/two_bone.h>

/* Turn `joint` by `turn_ms` in model space about its own origin, M' =
 * turn_ms M, mirrored parents included (ik_skeleton_turn_joint_ms), then
 * refresh its subtree. */
static void turn_joint(const ik_humanoid *t, int joint, ik_quat turn_ms, ik_transform *pose, ik_mat4 *model_ms) {
    ik_skeleton_turn_joint_ms(t->skeleton, joint, turn_ms, NULL, pose, model_ms);
    ik_skeleton_fk_subtree(t->skeleton, joint, pose, NULL, model_ms);
}

/* The sole's contact points of a leg in a pose (heel and ball in the foot's
 * frame, the toes' tip in the toe's); returns how many. */
static int sole_points(const ik_humanoid_limb *leg, const ik_mat4 *model_ms, ik_vec3 *points) {
    int n = 0;
    const ik_mat4 *foot = &model_ms[ik_humanoid_limb_foot(leg)];
    points[n++] = ik_mat4_transform_point(foot, leg->heel_ls);
    points[n++] = ik_mat4_transform_point(foot, leg->ball_ls);
    if (leg->toe >= 0) points[n++] = ik_mat4_transform_point(&model_ms[leg->toe], leg->toe_tip_ls);
    return n;
}

/* Soles above the floor: where a sole point is below the target's rest
 * floor (its feet are longer, or pitched otherwise at rest, than the
 * source's), `joint` (the foot about the ankle, or the toe about its own
 * joint) turns about the foot's lateral axis a by the smallest angle that
 * lifts its lowest point p onto the floor: with r = p - pivot split into
 * r_a along a and r_p across it, the height after a turn t is
 *   h(t) = h_pivot + r_a.up + cos t (r_p.up) + sin t ((a x r_p).up) = floor,
 * so t = phi +- acos(-k / R), R = |(r_p.up, (a x r_p).up)|, phi its angle.
 * A few rounds, as lifting one point may lower another; a point the turn
 * cannot lift (the pivot itself too low) is left. Toes (`toe_range`, NULL
 * for the foot: their lift from rest now and its limits) take the root that
 * leaves them within their limits, the smaller such, else the one nearer
 * them turned only as far as the limit (the floor and the limits are then
 * both kept only by the heel lowered: turn_heel_within): a toe pointing
 * down under a foot on its ball (male_base_mesh's toes rest 27 degrees
 * below the sole) reaches the floor either way, and the smaller turn
 * curled it 41 degrees past toe_curl. Each root's lift is measured on the
 * turned toe (the turn's sense against the lift's differs on mirrored
 * frames). */
typedef struct toe_range {
    ik_real lift, lo, hi;
} toe_range;

/* How far a toe lift goes beyond [lo, hi] (0 inside). */
static ik_real toe_excess(const toe_range *r, ik_real lift) {
    return lift < r->lo ? r->lo - lift : lift > r->hi ? lift - r->hi : 0;
}

static void turn_onto_floor(const ik_humanoid *t, ik_real floor, const ik_humanoid_limb *leg, int joint,
                            toe_range *toes, ik_transform *pose, ik_mat4 *model_ms) {
    int round, i;
    for (round = 0; round < 3; ++round) {
        ik_vec3 points[3], pivot = ik_mat4_translation(&model_ms[joint]), a, r, rp;
        ik_real lowest = 0, c1, c2, k0, radius, phi, turn, other;
        int n = sole_points(leg, model_ms, points), first = joint == leg->toe ? 2 : 0, worst = -1;
        for (i = first; i < n; ++i) {
            ik_real h = ik_vec3_dot(points[i], t->up_rs) - floor;
            if (h < lowest) lowest = h, worst = i;
        }
        if (worst < 0 || lowest > -(ik_real)1e-4 * ik_foot_leg_length(t)) return;
        a = ik_vec3_normalize(ik_mat4_transform_turn_axis(&model_ms[ik_humanoid_limb_foot(leg)], leg->lateral_ls));
        r = ik_vec3_sub(points[worst], pivot);
        rp = ik_vec3_reject(r, a);
        c1 = ik_vec3_dot(rp, t->up_rs);
        c2 = ik_vec3_dot(ik_vec3_cross(a, rp), t->up_rs);
        k0 = ik_vec3_dot(pivot, t->up_rs) - floor + ik_vec3_dot(ik_vec3_sub(r, rp), t->up_rs);
        radius = IK_SQRT(c1 * c1 + c2 * c2);
        if (!(radius > 0) || IK_FABS(k0) > radius) return;
        phi = IK_ATAN2(c2, c1);
        turn = ik_wrap_angle(phi + ik_acos_safe(-k0 / radius));
        other = ik_wrap_angle(phi - ik_acos_safe(-k0 / radius));
        if (toes) {
            ik_transform saved = pose[joint];
            ik_real lift_turn, lift_other, e_turn, e_other, before = ik_humanoid_leg_toe_lift(leg, model_ms);
            turn_joint(t, joint, ik_quat_from_axis_angle(a, turn), pose, model_ms);
            lift_turn = toes->lift + ik_humanoid_leg_toe_lift(leg, model_ms) - before;
            pose[joint] = saved;
            turn_joint(t, joint, ik_quat_from_axis_angle(a, other), pose, model_ms);
            lift_other = toes->lift + ik_humanoid_leg_toe_lift(leg, model_ms) - before;
            pose[joint] = saved;
            ik_skeleton_fk_subtree(t->skeleton, joint, pose, NULL, model_ms);
            e_turn = toe_excess(toes, lift_turn), e_other = toe_excess(toes, lift_other);
            if (e_other < e_turn || (e_other == e_turn && IK_FABS(other) < IK_FABS(turn)))
                turn = other, lift_turn = lift_other, e_turn = e_other;
            /* neither within the limits: only as far as the limit on the
             * way (the tip stays under the floor by what is left) */
            if (e_turn > 0) turn *= (ik_clampr(lift_turn, toes->lo, toes->hi) - toes->lift) / (lift_turn - toes->lift);
            toes->lift = ik_clampr(lift_turn, toes->lo, toes->hi);
        } else if (IK_FABS(other) < IK_FABS(turn)) {
            turn = other;
        }
        turn_joint(t, joint, ik_quat_from_axis_angle(a, turn), pose, model_ms);
    }
}

/* A knee the IK pass's easing bent past its limit, on a frame where its
 * foot is not held: the shin swung back about the knee, into the cone of
 * knee_max about the thigh (ik_direction_clamp_cone). */
static void keep_knee_within(const ik_humanoid *t, int k, ik_transform *pose, ik_mat4 *model_ms) {
    const ik_humanoid_limb *leg = &t->limb[k];
    ik_vec3 a = ik_mat4_translation(&model_ms[leg->start]), b = ik_mat4_translation(&model_ms[leg->mid]);
    ik_mat4 end_ms = ik_humanoid_limb_end_ms(leg, model_ms);
    ik_vec3 c = ik_mat4_translation(&end_ms);
    ik_vec3 upper = ik_vec3_normalize(ik_vec3_sub(b, a)), lower = ik_vec3_normalize(ik_vec3_sub(c, b));
    ik_vec3 kept = ik_direction_clamp_cone(lower, upper, t->limits.knee_max);
    if (ik_vec3_dot(kept, lower) >= 1) return;
    turn_joint(t, leg->mid, ik_quat_from_to(lower, kept), pose, model_ms);
    ik_humanoid_carry_end_control(t, k, pose, model_ms, NULL);
}

/* A foot (or toes) turned about the foot's lateral axis L = M lateral_ls
 * into its limits: `angle` the ankle angle (or the toes' lift from rest),
 * lo..hi its range; a turn by -(clamp(angle) - angle) about L moves it
 * there (ik_humanoid_leg_ankle). */
static void turn_within(const ik_humanoid *t, const ik_humanoid_limb *leg, int joint, ik_real angle, ik_real lo,
                        ik_real hi, ik_transform *pose, ik_mat4 *model_ms) {
    ik_real change = ik_clampr(angle, lo, hi) - angle;
    ik_vec3 lateral;
    if (change == 0) return;
    lateral = ik_vec3_normalize(ik_mat4_transform_vector(&model_ms[ik_humanoid_limb_foot(leg)], leg->lateral_ls));
    turn_joint(t, joint, ik_quat_from_axis_angle(lateral, -change), pose, model_ms);
}

/* A leg solved to put its ankle at `ankle_ms` (ik_two_bone from the pose
 * as it stands, the knee kept on its side by ik_limb_natural_pole), then
 * its foot (or a virtual ankle's control joint, carried to the ankle) given
 * the model rotation `foot_ms`. */
static void solve_leg_to(const ik_humanoid *t, int k, ik_vec3 ankle_ms, ik_quat foot_ms, ik_transform *pose,
                         ik_mat4 *model_ms) {
    const ik_humanoid_limb *leg = &t->limb[k];
    int foot = ik_humanoid_limb_foot(leg);
    ik_two_bone job = ik_two_bone_def();
    ik_mat4 end_ms = ik_humanoid_limb_end_ms(leg, model_ms);
    ik_two_bone_bind(&job, model_ms, pose, leg->start, leg->mid, leg->mid);
    job.end_ms = &end_ms;
    job.end_rotation_ls = NULL;
    job.target_ms = ankle_ms;
    job.use_pole = 1;
    job.pole_ms = ik_limb_natural_pole(ik_mat4_translation(&model_ms[leg->start]),
                                       ik_mat4_translation(&model_ms[leg->mid]), ik_mat4_translation(&end_ms), ankle_ms,
                                       ik_mat4_transform_turn_axis(&model_ms[leg->mid], leg->hinge_axis_ls),
                                       leg->upper_length + leg->lower_length);
    if (ik_two_bone_run(&job) != IK_OK) return;
    ik_skeleton_fk_subtree(t->skeleton, leg->start, pose, NULL, model_ms);
    ik_humanoid_carry_end_control(t, k, pose, model_ms, NULL);
    turn_joint(t, foot, ik_quat_mul(foot_ms, ik_quat_conjugate(ik_quat_normalize(ik_mat4_rotation(&model_ms[foot])))),
               pose, model_ms);
}

/* A heel lift's fixed inputs: the leg, the foot as it stood (ankle, model
 * rotation), the pivot and the axis the heel turns up about (the lateral
 * axis; its opposite to lower the heel), and the leg's joints (thigh, shin,
 * foot or control) as they stood, so that every trial starts from the same
 * pose. */
typedef struct heel_lift {
    const ik_humanoid *t;
    int k;
    ik_bool lower;
    ik_real toe_rest; /* the toes' lift at rest (ik_humanoid_leg_toe_lift) */
    ik_real floor;    /* along up in model space */
    ik_vec3 ankle, pivot, lateral;
    ik_quat foot_rotation;
    int joint[3];
    ik_transform saved[3];
} heel_lift;

/* The leg back as it stood before the lift. */
static void lift_restore(const heel_lift *h, ik_transform *pose, ik_mat4 *model_ms) {
    int i;
    for (i = 0; i < 3; ++i) pose[h->joint[i]] = h->saved[i];
    ik_skeleton_fk_subtree(h->t->skeleton, h->joint[0], pose, NULL, model_ms);
    if (!ik_skeleton_is_descendant(h->t->skeleton, h->joint[2], h->joint[0]))
        ik_skeleton_fk_subtree(h->t->skeleton, h->joint[2], pose, NULL, model_ms);
}

/* Whether the toes can keep their tip on the floor within their limits
 * (the toes' stage of keep_within_limits), as an angle: the toes set to
 * each end of their range in turn (their pose restored after), the tip's
 * depth under the floor over the toe bone's length, the smaller of the
 * two; at most 0 where one end keeps the tip up. The toe joint moves in
 * `pose` and `model_ms` only while it is tried. */
static ik_real toe_need(const heel_lift *h, ik_transform *pose, ik_mat4 *model_ms) {
    const ik_humanoid *t = h->t;
    const ik_humanoid_limb *leg = &t->limb[h->k];
    const ik_real ends[2] = {-t->limits.toe_curl, t->limits.toe_bend};
    ik_transform saved = pose[leg->toe];
    ik_real need = IK_PI, length;
    int i;
    length = ik_vec3_length(ik_mat4_transform_vector(&model_ms[leg->toe], leg->toe_tip_ls));
    if (!(length > (ik_real)1e-4 * ik_foot_leg_length(t))) return -IK_PI;
    for (i = 0; i < 2; ++i) {
        ik_real lift = ik_humanoid_leg_toe_lift(leg, model_ms) - h->toe_rest;
        ik_vec3 tip;
        turn_within(t, leg, leg->toe, lift, ends[i], ends[i], pose, model_ms);
        tip = ik_mat4_transform_point(&model_ms[leg->toe], leg->toe_tip_ls);
        need = ik_minr(need, (h->floor - ik_vec3_dot(tip, t->up_rs)) / length);
        pose[leg->toe] = saved;
        ik_skeleton_fk_subtree(t->skeleton, leg->toe, pose, NULL, model_ms);
    }
    return need;
}

/* What a lift must bring to zero or below, as an angle: the ankle angle
 * over ankle_up, or the heel's or ball's depth under the floor over its
 * distance from the pivot (the turn that lifts it there), whichever is
 * more. Lowering the heel: the ankle angle under -ankle_down, or the toes'
 * tip under the floor at either end of their range (toe_need). */
static ik_real lift_need(const heel_lift *h, ik_transform *pose, ik_mat4 *model_ms) {
    const ik_humanoid_limb *leg = &h->t->limb[h->k];
    const ik_mat4 *foot = &model_ms[ik_humanoid_limb_foot(leg)];
    ik_vec3 sole[2];
    ik_real need = ik_humanoid_leg_ankle(leg, model_ms) - h->t->limits.ankle_up;
    int i;
    if (h->lower)
        return ik_maxr(-h->t->limits.ankle_down - ik_humanoid_leg_ankle(leg, model_ms),
                       leg->toe >= 0 ? toe_need(h, pose, model_ms) : -IK_PI);
    sole[0] = ik_mat4_transform_point(foot, leg->heel_ls);
    sole[1] = ik_mat4_transform_point(foot, leg->ball_ls);
    for (i = 0; i < 2; ++i) {
        ik_real lever = ik_vec3_distance(sole[i], h->pivot);
        if (lever > (ik_real)1e-3 * ik_foot_leg_length(h->t))
            need = ik_maxr(need, (h->floor - ik_vec3_dot(sole[i], h->t->up_rs)) / lever);
    }
    return need;
}

/* One trial: the foot turned heel-up (heel-down to lower it) by `angle`
 * about the pivot, the leg solved to it from the saved pose; returns
 * lift_need. */
static ik_real lift_trial(const heel_lift *h, ik_real angle, ik_transform *pose, ik_mat4 *model_ms) {
    ik_quat turn = ik_quat_from_axis_angle(h->lateral, angle);
    ik_vec3 to = ik_vec3_add(h->pivot, ik_quat_rotate(turn, ik_vec3_sub(h->ankle, h->pivot)));
    lift_restore(h, pose, model_ms);
    solve_leg_to(h->t, h->k, to, ik_quat_mul(turn, h->foot_rotation), pose, model_ms);
    return lift_need(h, pose, model_ms);
}

/* Seed 001's heel lift for a foot on the floor whose ankle bends up past
 * ankle_up (the shin leaning further over a flat foot than an ankle
 * allows; CMU 131_01 itself reaches 47 degrees): the foot turns heel-up by
 * an angle th about its lateral axis L through a pivot P on the floor, the
 * ankle A going to P + R(th) (A - P), and the leg is solved to it. P is the
 * toe joint where the toe is held (it stays exactly where it is held), else
 * the ball's contact point (the ball stays on the floor; a held heel leaves
 * its spot: the `lifted` out of ik_feet_within_limits says so, and a
 * retarget holds its contact only where it stays down). The same lift raises a heel or ball that a
 * held toe left under the floor (a toe held at its rest height under a
 * foot turned heel-down: 01_01's last frames on male_base_mesh.glb, 15 mm).
 * The ankle angle falls as th grows (each radian of lift lowers it by one,
 * and the rising ankle straightens the shin), and so does a sole point's
 * depth over its distance from P, so the smallest th that brings both
 * inside is a root of lift_need: bracketed by doubling from the excess,
 * then regula falsi with the Illinois halving, each trial a leg solve from
 * the same pose, ending on the allowed side (within 1e-4 rad).
 * At most ankle_up + ankle_down of lift (a foot on its toes' tips); where
 * even that does not bring the ankle inside (01_01's first frame, a
 * T-pose, on the 131_01 skeleton: hips eased down over a foot turned out
 * of the floor, 80 degrees up) the foot is left as it stood. With `lower`,
 * a foot on its held toe whose ankle points down past ankle_down (131_02's
 * dancer on tiptoe, 60 degrees), or so steeply that its toes would bend
 * past toe_bend to keep their tip on the floor (131_01's kneel played
 * backwards), turns heel-down about the toe joint (a toe-less foot's held
 * ball) the same way until both are inside, or as far as its ankle may
 * flex up (ankle_up). Returns
 * whether the foot turned. */
static ik_bool turn_heel_within(const ik_feet_limits *limits, int k, ik_bool toe_held, ik_bool lower,
                                ik_transform *pose, ik_mat4 *model_ms) {
    const ik_humanoid *t = limits->rig;
    const ik_humanoid_limb *leg = &t->limb[k];
    const ik_real tolerance = (ik_real)1e-4;
    int foot = ik_humanoid_limb_foot(leg), i, side = 0;
    ik_real lo = 0, hi, last, g_lo, g_hi, most = t->limits.ankle_up + t->limits.ankle_down;
    ik_mat4 end_ms = ik_humanoid_limb_end_ms(leg, model_ms);
    heel_lift h;
    if (lower && !toe_held) return 0;
    h.t = t;
    h.k = k;
    h.lower = lower;
    h.toe_rest = limits->toe_rest[k - IK_LIMB_LEG_L];
    h.floor = limits->floor;
    h.ankle = ik_mat4_translation(&end_ms);
    h.pivot = toe_held && leg->toe >= 0 ? ik_mat4_translation(&model_ms[leg->toe])
                                        : ik_mat4_transform_point(&model_ms[foot], leg->ball_ls);
    h.lateral = ik_vec3_normalize(ik_mat4_transform_vector(&model_ms[foot], leg->lateral_ls));
    if (lower) h.lateral = ik_vec3_neg(h.lateral);
    h.foot_rotation = ik_quat_normalize(ik_mat4_rotation(&model_ms[foot]));
    h.joint[0] = leg->start, h.joint[1] = leg->mid, h.joint[2] = foot;
    g_lo = lift_need(&h, pose, model_ms);
    if (!(g_lo > tolerance)) return 0;
    for (i = 0; i < 3; ++i) h.saved[i] = pose[h.joint[i]];
    /* lowered, the heel flexes the ankle up: never past ankle_up (the
     * largest such lowering, by bisection over [0, most]) */
    if (lower) {
        ik_real ok = 0, over = most;
        lift_trial(&h, most, pose, model_ms);
        if (ik_humanoid_leg_ankle(leg, model_ms) > t->limits.ankle_up) {
            for (i = 0; i < 16; ++i) {
                ik_real mid = (ik_real)0.5 * (ok + over);
                lift_trial(&h, mid, pose, model_ms);
                if (ik_humanoid_leg_ankle(leg, model_ms) > t->limits.ankle_up)
                    over = mid;
                else
                    ok = mid;
            }
            most = ok;
        }
        lift_restore(&h, pose, model_ms);
        if (!(most > 0)) return 0;
    }
    last = hi = ik_minr(g_lo, most);
    g_hi = lift_trial(&h, hi, pose, model_ms);
    while (g_hi > 0 && hi < most) {
        lo = hi, g_lo = g_hi;
        last = hi = ik_minr(2 * hi, most);
        g_hi = lift_trial(&h, hi, pose, model_ms);
    }
    if (g_hi > 0 && lower) return hi > 0; /* lowered as far as the ankle allows */
    if (g_hi > 0) {
        lift_restore(&h, pose, model_ms); /* no lift brings it inside: the foot is left as it stood */
        return 0;
    }
    for (i = 0; i < 40 && g_hi < -tolerance && hi - lo > (ik_real)1e-6; ++i) {
        ik_real mid = hi - g_hi * (hi - lo) / (g_hi - g_lo), g_mid;
        if (!(mid > lo && mid < hi)) mid = (ik_real)0.5 * (lo + hi);
        g_mid = lift_trial(&h, mid, pose, model_ms);
        last = mid;
        if (g_mid > 0) {
            lo = mid, g_lo = g_mid;
            if (side == 1) g_hi *= (ik_real)0.5;
            side = 1;
        } else {
            hi = mid, g_hi = g_mid;
            if (side == -1) g_lo *= (ik_real)0.5;
            side = -1;
        }
    }
    /* the leg as solved for hi; already so when the last trial was hi's */
    if (last != hi) lift_trial(&h, hi, pose, model_ms);
    return 1;
}

/* A foot in the air that the turn onto the floor took past its ankle's
 * limits (its ankle too low for the foot to clear the floor inside them):
 * turned back within them, then the leg solved to raise the ankle by the
 * depth d of its lowest sole point under the floor, A' = A + d up. */
static void lift_foot_within(const ik_humanoid *t, ik_real floor, const ik_humanoid_limb *leg, int k,
                             ik_transform *pose, ik_mat4 *model_ms) {
    int foot = ik_humanoid_limb_foot(leg), n, i;
    ik_real angle = ik_humanoid_leg_ankle(leg, model_ms), depth = 0;
    ik_vec3 points[3];
    ik_mat4 end_ms;
    if (angle >= -t->limits.ankle_down && angle <= t->limits.ankle_up) return;
    turn_within(t, leg, foot, angle, -t->limits.ankle_down, t->limits.ankle_up, pose, model_ms);
    n = sole_points(leg, model_ms, points);
    for (i = 0; i < n; ++i) depth = ik_maxr(depth, floor - ik_vec3_dot(points[i], t->up_rs));
    if (!(depth > 0)) return;
    end_ms = ik_humanoid_limb_end_ms(leg, model_ms);
    solve_leg_to(t, k, ik_vec3_mad(ik_mat4_translation(&end_ms), t->up_rs, depth),
                 ik_quat_normalize(ik_mat4_rotation(&model_ms[foot])), pose, model_ms);
}

ik_feet_limits ik_feet_limits_make(const ik_humanoid *rig, const ik_mat4 *rest_ms) {
    ik_feet_limits limits;
    int k;
    limits.rig = rig;
    for (k = 0; k < 2; ++k) limits.toe_rest[k] = ik_humanoid_leg_toe_lift(&rig->limb[IK_LIMB_LEG_L + k], rest_ms);
    limits.floor = rig->floor_rs;
    return limits;
}

void ik_feet_within_limits(const ik_feet_limits *limits, const ik_foot_contact *held, int count, int frame,
                           ik_transform *pose, ik_mat4 *model_ms, ik_bool lifted[2]) {
    const ik_humanoid *t = limits->rig;
    int k, c;
    ik_skeleton_fk(t->skeleton, pose, NULL, model_ms);
    for (k = IK_LIMB_LEG_L; k <= IK_LIMB_LEG_R; ++k) {
        const ik_humanoid_limb *leg = &t->limb[k];
        ik_bool toe_held = 0, foot_held = 0, heel_held = 0, up, virtual_free;
        ik_real rest = limits->toe_rest[k - IK_LIMB_LEG_L];
        if (lifted) lifted[k - IK_LIMB_LEG_L] = 0;
        if (ik_humanoid_limb_foot(leg) < 0) continue;
        for (c = 0; c < count; ++c) {
            ik_bool now = held[c].start <= frame && frame <= held[c].end && ik_foot_point_leg(held[c].point) == k;
            foot_held |= now;
            toe_held |= now && ik_foot_point_is_toe(held[c].point);
            heel_held |= now && !ik_foot_point_is_toe(held[c].point);
        }
        if (!foot_held) keep_knee_within(t, k, pose, model_ms);
        /* a held foot's ankle bent up too far is the heel lift's (below),
         * except on a virtual ankle with no floor to keep (a clean-up's),
         * held at the ankle itself: a lift about the ball would move that
         * point (robot.glb's slid 6 mm), so its foot turns about the ankle,
         * as a foot in the air does */
        virtual_free = leg->end < 0 && !ik_finite(limits->floor);
        if (!toe_held)
            turn_within(t, leg, ik_humanoid_limb_foot(leg), ik_humanoid_leg_ankle(leg, model_ms), -t->limits.ankle_down,
                        foot_held && !virtual_free ? IK_PI : t->limits.ankle_up, pose, model_ms);
        if (!toe_held) turn_onto_floor(t, limits->floor, leg, ik_humanoid_limb_foot(leg), NULL, pose, model_ms);
        if (!foot_held) lift_foot_within(t, limits->floor, leg, k, pose, model_ms);
        up = turn_heel_within(limits, k, toe_held, 0, pose, model_ms);
        if (lifted) lifted[k - IK_LIMB_LEG_L] = up;
        /* a toe-less foot's ball and heel both held: lowering the heel would move it */
        turn_heel_within(limits, k, toe_held && (leg->toe >= 0 || !heel_held), 1, pose, model_ms);
        if (leg->toe >= 0) {
            toe_range toes;
            toes.lo = -t->limits.toe_curl, toes.hi = t->limits.toe_bend;
            toes.lift = ik_humanoid_leg_toe_lift(leg, model_ms) - rest;
            turn_within(t, leg, leg->toe, toes.lift, toes.lo, toes.hi, pose, model_ms);
            toes.lift = ik_clampr(toes.lift, toes.lo, toes.hi);
            turn_onto_floor(t, limits->floor, leg, leg->toe, &toes, pose, model_ms);
        }
    }
}

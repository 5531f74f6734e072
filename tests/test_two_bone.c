/* Two-bone IK: solve, run forward kinematics, check where the joints landed. */
#include <ikit/skeleton.h>
#include <ikit/two_bone.h>
#include <math.h>
#include <string.h>

#include "support/check.h"
#include "support/rng.h"

/* ROLL_TOL_DEG: how far, in degrees, the end joint may turn in one step of
 * a reach sweep beyond its bone's change of direction; in float the
 * knee's direction, 1e-3 of the limb off the line there, is itself only
 * good to about 0.05 degrees. */
#ifdef IKIT_DOUBLE
#define REACH_TOL 1e-9
#define LEN_TOL 1e-9
#define ROLL_TOL_DEG 1e-3
#else
#define REACH_TOL 1e-4f
#define LEN_TOL 2e-5f
#define ROLL_TOL_DEG 0.2f
#endif
#define CASES 100000

/* A limb: root (random placement, uniform scale) > start > mid (its own scale
 * non-uniform) > end, or with a twist joint between start and mid when
 * `extra_joint` is set. */
typedef struct limb {
    int count, start, mid, end;
    int parents[5];
    ik_transform rest[5];
    ik_transform pose[5];
    ik_mat4 model[5];
    ik_skeleton skeleton;
    ik_real l1, l2;
} limb;

static void limb_fk(limb *L) { ik_skeleton_fk(&L->skeleton, L->pose, NULL, L->model); }
static ik_vec3 joint_pos(const limb *L, int j) { return ik_mat4_translation(&L->model[j]); }

static void limb_random(limb *L, rng *r, int extra_joint) {
    ik_real s = rng_range(r, 0.5, 2);
    int i;
    L->count = extra_joint ? 5 : 4;
    for (i = 0; i < L->count; ++i) L->parents[i] = i - 1;
    L->start = 1;
    L->mid = extra_joint ? 3 : 2;
    L->end = L->count - 1;
    L->rest[0] = ik_transform_make(rng_in_ball(r, 3), rng_rotation(r), ik_v3(s, s, s));
    L->rest[1] = ik_transform_make(rng_in_ball(r, 1), rng_rotation(r), ik_v3(1, 1, 1));
    if (extra_joint)
        L->rest[2] =
            ik_transform_make(ik_vec3_scale(rng_direction(r), rng_range(r, 0.2, 0.6)), rng_rotation(r), ik_v3(1, 1, 1));
    /* The mid joint's own scale is non-uniform: its correction must still be exact. */
    L->rest[L->mid] = ik_transform_make(ik_vec3_scale(rng_direction(r), rng_range(r, 0.5, 1.5)), rng_rotation(r),
                                        ik_v3(rng_range(r, 0.7, 1.3), rng_range(r, 0.7, 1.3), rng_range(r, 0.7, 1.3)));
    L->rest[L->end] =
        ik_transform_make(ik_vec3_scale(rng_direction(r), rng_range(r, 0.5, 1.5)), rng_rotation(r), ik_v3(1, 1, 1));
    ik_skeleton_init(&L->skeleton, L->count, L->parents, NULL, L->rest, NULL);
    ik_skeleton_rest_pose(&L->skeleton, L->pose);
    limb_fk(L);
    L->l1 = ik_vec3_distance(joint_pos(L, L->start), joint_pos(L, L->mid));
    L->l2 = ik_vec3_distance(joint_pos(L, L->mid), joint_pos(L, L->end));
}

/* Gives the root the scale `scale` (its translation scaled by the same
 * magnitude) and refreshes the pose, matrices and bone lengths. */
static void limb_set_root_scale(limb *L, ik_vec3 scale) {
    L->rest[0].scale = scale;
    L->rest[0].translation = ik_vec3_scale(L->rest[0].translation, IK_FABS(scale.x));
    ik_skeleton_init(&L->skeleton, L->count, L->parents, NULL, L->rest, NULL);
    ik_skeleton_rest_pose(&L->skeleton, L->pose);
    limb_fk(L);
    L->l1 = ik_vec3_distance(joint_pos(L, L->start), joint_pos(L, L->mid));
    L->l2 = ik_vec3_distance(joint_pos(L, L->mid), joint_pos(L, L->end));
}

static ik_two_bone limb_job(limb *L, ik_vec3 target) {
    ik_two_bone job = ik_two_bone_def();
    ik_two_bone_bind(&job, L->model, L->pose, L->start, L->mid, L->end);
    job.target_ms = target;
    return job;
}

static ik_bool lengths_kept(const limb *L) {
    ik_real full = L->l1 + L->l2;
    return IK_FABS(ik_vec3_distance(joint_pos(L, L->start), joint_pos(L, L->mid)) - L->l1) <= LEN_TOL * full * 10 &&
           IK_FABS(ik_vec3_distance(joint_pos(L, L->mid), joint_pos(L, L->end)) - L->l2) <= LEN_TOL * full * 10;
}

static ik_bool pose_finite(const limb *L) {
    int i;
    for (i = 0; i < L->count; ++i)
        if (!ik_transform_finite(L->pose[i]) || !ik_mat4_finite(&L->model[i])) return 0;
    return 1;
}

/* The point of the knee circle closest to `knee`, by brute force over 3600
 * samples of the circle of seed 000: centre m = a + l1 cos(theta) n, radius
 * l1 sin(theta), with cos(theta) from the law of cosines. */
static ik_real brute_force_knee_distance(ik_vec3 a, ik_vec3 t, ik_real l1, ik_real l2, ik_vec3 knee) {
    ik_real d = ik_vec3_distance(a, t);
    ik_vec3 n = ik_vec3_scale(ik_vec3_sub(t, a), 1 / d);
    ik_real cos_th = ik_clampr((l1 * l1 + d * d - l2 * l2) / (2 * l1 * d), -1, 1);
    ik_real radius = l1 * IK_SQRT(1 - cos_th * cos_th);
    ik_vec3 m = ik_vec3_mad(a, n, l1 * cos_th);
    ik_vec3 e1 = ik_vec3_any_perpendicular(n), e2 = ik_vec3_cross(n, e1);
    ik_real best = 1e30f;
    int i;
    for (i = 0; i < 3600; ++i) {
        ik_real ang = (ik_real)i * 2 * IK_PI / 3600;
        ik_vec3 p = ik_vec3_add(
            m, ik_vec3_add(ik_vec3_scale(e1, radius * IK_COS(ang)), ik_vec3_scale(e2, radius * IK_SIN(ang))));
        best = ik_minr(best, ik_vec3_distance(p, knee));
    }
    return best;
}

static void test_random_limbs(void) {
    rng r = rng_seeded(100);
    check_property reach = {"reachable targets are reached", 0, 0};
    check_property far = {"too far: straight toward the target", 0, 0};
    check_property close = {"too close: longer bone toward the target", 0, 0};
    check_property lengths = {"bone lengths unchanged", 0, 0};
    check_property knee = {"knee is the closest point of the circle", 0, 0};
    check_property finite = {"output finite", 0, 0};
    check_property flag = {"reached flag matches the geometry", 0, 0};
    int i;
    for (i = 0; i < CASES; ++i) {
        limb L;
        ik_vec3 a, t, knee_before, dir;
        ik_real full, dist, residual = -1;
        ik_bool reached = 0;
        ik_two_bone job;
        limb_random(&L, &r, i % 7 == 0);
        a = joint_pos(&L, L.start);
        knee_before = joint_pos(&L, L.mid);
        full = L.l1 + L.l2;
        t = ik_vec3_add(a, ik_vec3_scale(rng_direction(&r), full * rng_range(&r, 0.01, 1.2)));
        dist = ik_vec3_distance(a, t);
        dir = ik_vec3_scale(ik_vec3_sub(t, a), 1 / dist);
        job = limb_job(&L, t);
        job.reached = &reached;
        job.residual = &residual;
        CHECK(ik_two_bone_run(&job) == IK_OK, "case %d", i);
        limb_fk(&L);
        PROPERTY_CASE(finite, pose_finite(&L), "case %d", i);
        PROPERTY_CASE(lengths, lengths_kept(&L), "case %d", i);
        if (dist <= full && dist >= IK_FABS(L.l1 - L.l2)) {
            /* Stay clear of the exact boundary, where rounding decides. */
            ik_real margin = full * (ik_real)1e-4;
            ik_real err = ik_vec3_distance(joint_pos(&L, L.end), t);
            PROPERTY_CASE(reach, err <= REACH_TOL * full,
                          "case %d: error %g of length %g, dist/full %.8f, lmin/full %.8f, %d joints", i, (double)err,
                          (double)full, (double)(dist / full), (double)(IK_FABS(L.l1 - L.l2) / full), L.count);
            if (dist < full - margin && dist > IK_FABS(L.l1 - L.l2) + margin) {
                ik_real best = brute_force_knee_distance(a, t, L.l1, L.l2, knee_before);
                ik_real got = ik_vec3_distance(joint_pos(&L, L.mid), knee_before);
                PROPERTY_CASE(knee, got <= best + full * (ik_real)2e-3, "case %d: knee moved %g, best %g", i,
                              (double)got, (double)best);
            }
            PROPERTY_CASE(flag, reached && residual <= (ik_real)1e-3 * full, "case %d", i);
        } else if (dist > full) {
            ik_vec3 want_knee = ik_vec3_mad(a, dir, L.l1), want_end = ik_vec3_mad(a, dir, full);
            PROPERTY_CASE(far,
                          ik_vec3_distance(joint_pos(&L, L.mid), want_knee) <= REACH_TOL * full * 10 &&
                              ik_vec3_distance(joint_pos(&L, L.end), want_end) <= REACH_TOL * full * 10,
                          "case %d: knee off %g end off %g (%d joints, l1 %g, l2 %g)", i,
                          (double)ik_vec3_distance(joint_pos(&L, L.mid), want_knee),
                          (double)ik_vec3_distance(joint_pos(&L, L.end), want_end), L.count, (double)L.l1,
                          (double)L.l2);
            PROPERTY_CASE(flag, reached == (dist - full <= (ik_real)1e-3 * full), "case %d", i);
        } else {
            ik_real sign = L.l1 > L.l2 ? 1 : -1;
            ik_vec3 want_knee = ik_vec3_mad(a, dir, sign * L.l1);
            ik_vec3 want_end = ik_vec3_mad(a, dir, IK_FABS(L.l1 - L.l2));
            PROPERTY_CASE(close,
                          ik_vec3_distance(joint_pos(&L, L.mid), want_knee) <= REACH_TOL * full * 10 &&
                              ik_vec3_distance(joint_pos(&L, L.end), want_end) <= REACH_TOL * full * 10,
                          "case %d: knee off by %g", i, (double)ik_vec3_distance(joint_pos(&L, L.mid), want_knee));
        }
    }
    property_end(&reach);
    property_end(&far);
    property_end(&close);
    property_end(&lengths);
    property_end(&knee);
    property_end(&finite);
    property_end(&flag);
}

/* Hinged limb: the mid joint's local +X is the hinge, bones along local +Y,
 * so every reachable bend is a turn about X. */
static void limb_hinged(limb *L, rng *r, ik_real bend) {
    int i;
    L->count = 4;
    for (i = 0; i < 4; ++i) L->parents[i] = i - 1;
    L->start = 1;
    L->mid = 2;
    L->end = 3;
    L->rest[0] = ik_transform_make(rng_in_ball(r, 2), rng_rotation(r), ik_v3(1, 1, 1));
    L->rest[1] = ik_transform_make(ik_vec3_zero(), rng_rotation(r), ik_v3(1, 1, 1));
    L->rest[2] = ik_transform_make(ik_v3(0, rng_range(r, 0.5, 1.5), 0), ik_quat_from_axis_angle(ik_v3(1, 0, 0), bend),
                                   ik_v3(1, 1, 1));
    L->rest[3] = ik_transform_make(ik_v3(0, rng_range(r, 0.5, 1.5), 0), ik_quat_identity(), ik_v3(1, 1, 1));
    ik_skeleton_init(&L->skeleton, 4, L->parents, NULL, L->rest, NULL);
    ik_skeleton_rest_pose(&L->skeleton, L->pose);
    limb_fk(L);
    L->l1 = L->rest[2].translation.y;
    L->l2 = L->rest[3].translation.y;
}

/* Bend of the hinged limb: the angle about the hinge (local +X) from the
 * upper bone to the lower bone, both taken into the mid joint's own frame
 * (by the inverse of its model matrix), so a mirrored frame measures the
 * bend with the sign its local rotation has. */
static ik_real limb_bend(const limb *L) {
    ik_mat4 to_mid;
    ik_vec3 u, v;
    ik_mat4_inverse(&L->model[L->mid], &to_mid);
    u = ik_mat4_transform_vector(&to_mid, ik_vec3_sub(joint_pos(L, L->mid), joint_pos(L, L->start)));
    v = ik_mat4_transform_vector(&to_mid, ik_vec3_sub(joint_pos(L, L->end), joint_pos(L, L->mid)));
    return IK_ATAN2(ik_vec3_cross(u, v).x, ik_vec3_dot(u, v));
}

static void test_hinge(void) {
    rng r = rng_seeded(200);
    check_property limits = {"hinge bend stays in [0, 133] degrees", 0, 0};
    check_property reach = {"hinge: reachable inside the range is reached", 0, 0};
    check_property axis = {"hinge: the mid joint turns only about its axis", 0, 0};
    check_property narrow = {"hinge: narrow range [20, 60] degrees", 0, 0};
    const ik_real lo = 0, hi = ik_rad(133);
    int i;
    for (i = 0; i < CASES / 2; ++i) {
        limb L;
        ik_vec3 a, t;
        ik_real full, dist, d_min, bend;
        ik_quat mid_before;
        ik_two_bone job;
        ik_bool narrow_case = i % 5 == 0;
        ik_real range_lo = narrow_case ? ik_rad(20) : lo, range_hi = narrow_case ? ik_rad(60) : hi;
        limb_hinged(&L, &r, rng_range(&r, (double)range_lo, (double)range_hi));
        a = joint_pos(&L, L.start);
        full = L.l1 + L.l2;
        t = ik_vec3_add(a, ik_vec3_scale(rng_direction(&r), full * rng_range(&r, 0.0, 1.2)));
        dist = ik_vec3_distance(a, t);
        mid_before = L.pose[L.mid].rotation;
        job = limb_job(&L, t);
        job.use_hinge = 1;
        job.min_bend = range_lo;
        job.max_bend = range_hi;
        CHECK(ik_two_bone_run(&job) == IK_OK, "case %d", i);
        limb_fk(&L);
        bend = limb_bend(&L);
        if (narrow_case) {
            PROPERTY_CASE(narrow,
                          bend >= range_lo - (ik_real)1e-4 && bend <= range_hi + (ik_real)1e-4 && lengths_kept(&L),
                          "case %d: bend %g deg", i, (double)ik_deg(bend));
        } else {
            PROPERTY_CASE(limits, bend >= lo - (ik_real)1e-4 && bend <= hi + (ik_real)1e-4, "case %d: bend %g deg", i,
                          (double)ik_deg(bend));
        }
        {
            /* mid_after = mid_before * turn about X: the turn has no y, z part. */
            ik_quat turn = ik_quat_mul(ik_quat_conjugate(mid_before), L.pose[L.mid].rotation);
            PROPERTY_CASE(axis, IK_FABS(turn.y) < (ik_real)1e-4 && IK_FABS(turn.z) < (ik_real)1e-4, "case %d", i);
        }
        /* d^2 = l1^2 + l2^2 + 2 l1 l2 cos(bend): the shortest reach at the largest bend. */
        d_min = IK_SQRT(L.l1 * L.l1 + L.l2 * L.l2 + 2 * L.l1 * L.l2 * IK_COS(range_hi));
        if (!narrow_case && dist <= full * (1 - (ik_real)1e-4) && dist >= d_min * (1 + (ik_real)1e-4)) {
            ik_real err = ik_vec3_distance(joint_pos(&L, L.end), t);
            PROPERTY_CASE(reach, err <= REACH_TOL * full * 10, "case %d: error %g", i, (double)err);
        }
    }
    property_end(&limits);
    property_end(&reach);
    property_end(&axis);
    property_end(&narrow);
}

/* The direction of p from the line through a along the unit n. */
static ik_vec3 off_line(ik_vec3 p, ik_vec3 a, ik_vec3 n) {
    return ik_vec3_normalize(ik_vec3_reject(ik_vec3_sub(p, a), n));
}

static void test_pole_twist_soften(void) {
    rng r = rng_seeded(300);
    check_property pole = {"pole: knee on the pole's side", 0, 0};
    check_property twist = {"twist turns the knee about the target line", 0, 0};
    check_property soft = {"soften eases the reach", 0, 0};
    int i;
    for (i = 0; i < 20000; ++i) {
        limb L, M;
        ik_vec3 a, t, n, pole_pt, kp, pp;
        ik_real full;
        ik_two_bone job;
        ik_real tw = rng_range(&r, -3, 3);
        limb_random(&L, &r, 0);
        a = joint_pos(&L, L.start);
        full = L.l1 + L.l2;
        t = ik_vec3_add(a, ik_vec3_scale(rng_direction(&r), full * rng_range(&r, 0.3, 0.9)));
        if (ik_vec3_distance(a, t) < IK_FABS(L.l1 - L.l2) * (ik_real)1.1) continue;
        n = ik_vec3_normalize(ik_vec3_sub(t, a));
        pole_pt = ik_vec3_add(a, ik_vec3_scale(rng_direction(&r), 2));
        M = L;
        ik_skeleton_init(&M.skeleton, M.count, M.parents, NULL, M.rest, NULL);
        job = limb_job(&L, t);
        job.use_pole = 1;
        job.pole_ms = pole_pt;
        ik_two_bone_run(&job);
        limb_fk(&L);
        kp = off_line(joint_pos(&L, L.mid), a, n);
        pp = off_line(pole_pt, a, n);
        PROPERTY_CASE(pole, ik_vec3_dot(kp, pp) > 1 - (ik_real)1e-3, "case %d: dot %g", i, (double)ik_vec3_dot(kp, pp));
        /* Same solve with a twist: the knee turns by `tw` about n. */
        job = limb_job(&M, t);
        job.use_pole = 1;
        job.pole_ms = pole_pt;
        job.twist = tw;
        ik_two_bone_run(&job);
        limb_fk(&M);
        {
            ik_vec3 km = off_line(joint_pos(&M, M.mid), a, n);
            ik_real ang = IK_ATAN2(ik_vec3_dot(n, ik_vec3_cross(kp, km)), ik_vec3_dot(kp, km));
            ik_real diff = IK_FABS(ang - tw);
            diff = ik_minr(diff, 2 * IK_PI - diff);
            PROPERTY_CASE(twist,
                          diff < (ik_real)1e-3 && ik_vec3_distance(joint_pos(&M, M.end), t) < REACH_TOL * full * 10,
                          "case %d: turned %g, asked %g", i, (double)ang, (double)tw);
        }
    }
    property_end(&pole);
    property_end(&twist);
    /* Soften: the reach is continuous and stays below full extension. */
    for (i = 0; i < 2000; ++i) {
        limb L;
        ik_vec3 a, dir;
        ik_real full, prev = 0;
        int k;
        limb_random(&L, &r, 0);
        a = joint_pos(&L, L.start);
        full = L.l1 + L.l2;
        dir = rng_direction(&r);
        for (k = 0; k <= 40; ++k) {
            limb S = L;
            ik_real want = full * ((ik_real)0.7 + (ik_real)k * (ik_real)0.015);
            ik_two_bone job;
            ik_real got;
            ik_skeleton_init(&S.skeleton, S.count, S.parents, NULL, S.rest, NULL);
            job = limb_job(&S, ik_vec3_mad(a, dir, want));
            job.soften = (ik_real)0.2;
            ik_two_bone_run(&job);
            limb_fk(&S);
            got = ik_vec3_distance(a, joint_pos(&S, S.end));
            PROPERTY_CASE(soft,
                          got <= full * (1 + (ik_real)1e-5) && got <= want + full * (ik_real)1e-4 &&
                              (k == 0 || (got >= prev - full * (ik_real)1e-4 && got - prev <= full * (ik_real)0.016)) &&
                              (want > full * (ik_real)0.8 || IK_FABS(got - want) < full * (ik_real)1e-4),
                          "case %d step %d: reach %g for %g (full %g)", i, k, (double)got, (double)want, (double)full);
            prev = got;
        }
    }
    property_end(&soft);
}

/* Following a target in small steps, the knee never jumps. */
/* The solve keeps intermediate quaternions unnormalised: limbs in other
 * units (a root scale of 1e-4 or 1e4: millimetres to tens of kilometres
 * against metres) must still reach, keep their lengths and bend to the pole. */
static void test_units(void) {
    rng r = rng_seeded(350);
    check_property units = {"limbs 1e-4 and 1e4 times the size: reach, lengths, pole side", 0, 0};
    int i;
    for (i = 0; i < 4000; ++i) {
        limb L;
        ik_real s = i % 2 ? (ik_real)1e4 : (ik_real)1e-4, full, dist;
        ik_vec3 a, t, n, pole_pt, kp, pp;
        ik_two_bone job;
        limb_random(&L, &r, 0);
        limb_set_root_scale(&L, ik_v3(s, s, s));
        a = joint_pos(&L, L.start);
        full = L.l1 + L.l2;
        t = ik_vec3_add(a, ik_vec3_scale(rng_direction(&r), full * rng_range(&r, 0.3, 0.95)));
        dist = ik_vec3_distance(a, t);
        pole_pt = ik_vec3_add(a, ik_vec3_scale(rng_direction(&r), full));
        job = limb_job(&L, t);
        job.use_pole = 1;
        job.pole_ms = pole_pt;
        if (dist < IK_FABS(L.l1 - L.l2) * (ik_real)1.1) continue;
        CHECK(ik_two_bone_run(&job) == IK_OK, "case %d", i);
        limb_fk(&L);
        n = ik_vec3_normalize(ik_vec3_sub(t, a));
        kp = off_line(joint_pos(&L, L.mid), a, n);
        pp = off_line(pole_pt, a, n);
        PROPERTY_CASE(units,
                      pose_finite(&L) && lengths_kept(&L) &&
                          ik_vec3_distance(joint_pos(&L, L.end), t) <= REACH_TOL * full * 10 &&
                          ik_vec3_dot(kp, pp) > 1 - (ik_real)1e-3,
                      "case %d (scale %g): error %g of %g", i, (double)s,
                      (double)ik_vec3_distance(joint_pos(&L, L.end), t), (double)full);
    }
    property_end(&units);
}

static void test_continuity(void) {
    rng r = rng_seeded(400);
    check_property smooth = {"knee moves smoothly with the target", 0, 0};
    int i, k;
    for (i = 0; i < 500; ++i) {
        limb L;
        ik_vec3 a, c0, axis1, axis2, knee_prev;
        ik_real full, radius;
        limb_random(&L, &r, 0);
        a = joint_pos(&L, L.start);
        full = L.l1 + L.l2;
        /* Keep the path inside the annulus away from the degenerate reaches. */
        radius = full * rng_range(&r, 0.05, 0.15);
        {
            ik_real lo = IK_FABS(L.l1 - L.l2) + radius + full * (ik_real)0.1;
            ik_real hi = full * (ik_real)0.95 - radius;
            if (lo >= hi) continue;
            c0 = ik_vec3_mad(a, rng_direction(&r), rng_range(&r, (double)lo, (double)hi));
        }
        axis1 = ik_vec3_any_perpendicular(rng_direction(&r));
        axis2 = ik_vec3_normalize(ik_vec3_cross(axis1, rng_direction(&r)));
        knee_prev = ik_vec3_zero();
        for (k = 0; k <= 1000; ++k) {
            ik_real ang = (ik_real)k * 2 * IK_PI / 1000;
            ik_vec3 t = ik_vec3_add(c0, ik_vec3_add(ik_vec3_scale(axis1, radius * IK_COS(ang)),
                                                    ik_vec3_scale(axis2, radius * IK_SIN(ang))));
            ik_two_bone job = limb_job(&L, t);
            ik_two_bone_run(&job);
            limb_fk(&L);
            if (k > 0) {
                ik_real step = ik_vec3_distance(joint_pos(&L, L.mid), knee_prev);
                PROPERTY_CASE(smooth, step < full * (ik_real)0.05, "path %d step %d: knee jumped %g", i, k,
                              (double)step);
            }
            knee_prev = joint_pos(&L, L.mid);
        }
    }
    property_end(&smooth);
}

static void test_weight_and_end_rotation(void) {
    rng r = rng_seeded(500);
    check_property zero = {"weight 0 leaves the pose unchanged", 0, 0};
    check_property partial = {"weight blends each rotation from the input pose", 0, 0};
    check_property keep = {"end joint keeps its model-space rotation", 0, 0};
    int i;
    for (i = 0; i < 10000; ++i) {
        limb L, H, K;
        ik_vec3 t;
        ik_transform before[5];
        ik_two_bone job;
        ik_quat end_rot_before;
        int j, same = 1;
        limb_random(&L, &r, 0);
        /* A non-uniform scale on the mid joint shears the end's frame, where
         * a model-space rotation is not defined: give the mid a uniform one. */
        L.rest[L.mid].scale = ik_v3(1, 1, 1);
        ik_skeleton_rest_pose(&L.skeleton, L.pose);
        limb_fk(&L);
        L.l2 = ik_vec3_distance(joint_pos(&L, L.mid), joint_pos(&L, L.end));
        t = ik_vec3_add(joint_pos(&L, L.start),
                        ik_vec3_scale(rng_direction(&r), (L.l1 + L.l2) * rng_range(&r, 0.3, 0.9)));
        H = L;
        K = L;
        ik_skeleton_init(&H.skeleton, H.count, H.parents, NULL, H.rest, NULL);
        ik_skeleton_init(&K.skeleton, K.count, K.parents, NULL, K.rest, NULL);
        for (j = 0; j < L.count; ++j) before[j] = L.pose[j];
        job = limb_job(&L, t);
        job.weight = 0;
        ik_two_bone_run(&job);
        for (j = 0; j < L.count; ++j)
            same = same && before[j].rotation.x == L.pose[j].rotation.x &&
                   before[j].rotation.y == L.pose[j].rotation.y && before[j].rotation.z == L.pose[j].rotation.z &&
                   before[j].rotation.w == L.pose[j].rotation.w;
        PROPERTY_CASE(zero, same, "case %d", i);
        {
            /* Weight w gives slerp(input, full solution, w) on each local rotation. */
            limb F = H;
            ik_quat want_start, want_mid;
            ik_skeleton_init(&F.skeleton, F.count, F.parents, NULL, F.rest, NULL);
            job = limb_job(&F, t);
            ik_two_bone_run(&job);
            want_start = ik_quat_slerp(H.pose[H.start].rotation, F.pose[F.start].rotation, (ik_real)0.3);
            want_mid = ik_quat_slerp(H.pose[H.mid].rotation, F.pose[F.mid].rotation, (ik_real)0.3);
            job = limb_job(&H, t);
            job.weight = (ik_real)0.3;
            ik_two_bone_run(&job);
            PROPERTY_CASE(partial,
                          IK_FABS(ik_quat_dot(want_start, H.pose[H.start].rotation)) > 1 - (ik_real)1e-5 &&
                              IK_FABS(ik_quat_dot(want_mid, H.pose[H.mid].rotation)) > 1 - (ik_real)1e-5,
                          "case %d", i);
        }
        end_rot_before = ik_mat4_rotation(&K.model[K.end]);
        job = limb_job(&K, t);
        job.keep_end_rotation = 1;
        ik_two_bone_run(&job);
        limb_fk(&K);
        {
            ik_quat after = ik_mat4_rotation(&K.model[K.end]);
            ik_real d = IK_FABS(ik_quat_dot(after, end_rot_before));
            ik_bool reachable = ik_vec3_distance(t, joint_pos(&K, K.start)) > IK_FABS(K.l1 - K.l2) * (ik_real)1.01;
            PROPERTY_CASE(keep,
                          d > 1 - (ik_real)1e-5 && (!reachable || ik_vec3_distance(joint_pos(&K, K.end), t) <
                                                                      REACH_TOL * (K.l1 + K.l2) * 10),
                          "case %d: dot %g, off %g", i, (double)d, (double)ik_vec3_distance(joint_pos(&K, K.end), t));
        }
    }
    property_end(&zero);
    property_end(&partial);
    property_end(&keep);
}

/* A straight limb along +Y from the origin with the given bone lengths. */
static void limb_straight(limb *L, ik_real l1, ik_real l2) {
    int i;
    L->count = 4;
    for (i = 0; i < 4; ++i) L->parents[i] = i - 1;
    L->start = 1;
    L->mid = 2;
    L->end = 3;
    L->rest[0] = ik_transform_identity();
    L->rest[1] = ik_transform_identity();
    L->rest[2] = ik_transform_make(ik_v3(0, l1, 0), ik_quat_identity(), ik_v3(1, 1, 1));
    L->rest[3] = ik_transform_make(ik_v3(0, l2, 0), ik_quat_identity(), ik_v3(1, 1, 1));
    ik_skeleton_init(&L->skeleton, 4, L->parents, NULL, L->rest, NULL);
    ik_skeleton_rest_pose(&L->skeleton, L->pose);
    limb_fk(L);
    L->l1 = l1;
    L->l2 = l2;
}

static ik_result solve_straight(limb *L, ik_vec3 target, ik_bool use_pole, ik_vec3 pole) {
    ik_two_bone job = limb_job(L, target);
    ik_result res;
    job.use_pole = use_pole;
    job.pole_ms = pole;
    res = ik_two_bone_run(&job);
    limb_fk(L);
    return res;
}

static void test_degenerate(void) {
    limb L;
    ik_transform saved[4];
    int j;

    limb_straight(&L, 1, 1);
    CHECK(solve_straight(&L, ik_v3(1, 1, 0), 0, ik_vec3_zero()) == IK_OK, "straight chain, no pole");
    CHECK(pose_finite(&L) && lengths_kept(&L) && ik_vec3_distance(joint_pos(&L, 3), ik_v3(1, 1, 0)) < REACH_TOL * 2,
          "straight chain with no pole bends and reaches");

    limb_straight(&L, 1, 1);
    CHECK(solve_straight(&L, ik_v3(0, 1.5f, 0), 0, ik_vec3_zero()) == IK_OK, "straight chain, target on its line");
    CHECK(pose_finite(&L) && lengths_kept(&L) && ik_vec3_distance(joint_pos(&L, 3), ik_v3(0, 1.5f, 0)) < REACH_TOL * 2,
          "straight chain toward a target on its own line bends and reaches");

    limb_straight(&L, 1, 1);
    CHECK(solve_straight(&L, ik_v3(0, 1.2f, 0), 1, ik_v3(0, 3, 0)) == IK_OK, "pole on the start-to-target line");
    CHECK(pose_finite(&L) && lengths_kept(&L) && ik_vec3_distance(joint_pos(&L, 3), ik_v3(0, 1.2f, 0)) < REACH_TOL * 2,
          "pole on the start-to-target line: defined, reached");

    limb_straight(&L, 1, 0.5f);
    CHECK(solve_straight(&L, ik_vec3_zero(), 0, ik_vec3_zero()) == IK_OK, "target on the start joint");
    CHECK(pose_finite(&L) && lengths_kept(&L) && IK_FABS(ik_vec3_length(joint_pos(&L, 3)) - 0.5f) < REACH_TOL * 2,
          "target on the start joint: end folds back to |l1 - l2|");

    limb_straight(&L, 0, 1);
    CHECK(solve_straight(&L, ik_v3(0.3f, 0.5f, 0.8f), 0, ik_vec3_zero()) == IK_OK, "zero-length upper bone");
    CHECK(pose_finite(&L) && lengths_kept(&L) &&
              ik_vec3_distance(joint_pos(&L, 3), ik_vec3_normalize(ik_v3(0.3f, 0.5f, 0.8f))) < REACH_TOL * 2,
          "zero-length upper bone: the other bone aims at the target");

    limb_straight(&L, 1, 0);
    CHECK(solve_straight(&L, ik_v3(0, 0, 0.5f), 0, ik_vec3_zero()) == IK_OK, "zero-length lower bone");
    CHECK(pose_finite(&L) && lengths_kept(&L) && ik_vec3_distance(joint_pos(&L, 3), ik_v3(0, 0, 1)) < REACH_TOL * 2,
          "zero-length lower bone: reaches toward the target");

    limb_straight(&L, 0, 0);
    CHECK(solve_straight(&L, ik_v3(1, 0, 0), 0, ik_vec3_zero()) == IK_OK && pose_finite(&L), "both bones zero-length");

    /* A singular start matrix (zero scale on the root): error, pose untouched. */
    limb_straight(&L, 1, 1);
    L.pose[0].scale = ik_v3(1, 0, 1);
    limb_fk(&L);
    for (j = 0; j < 4; ++j) saved[j] = L.pose[j];
    {
        ik_two_bone job = limb_job(&L, ik_v3(1, 0, 0));
        ik_bool reached = 1;
        job.reached = &reached;
        CHECK(ik_two_bone_run(&job) == IK_ERR_DEGENERATE, "non-invertible parent transform is reported");
        CHECK(!reached && L.pose[1].rotation.w == saved[1].rotation.w && L.pose[2].rotation.w == saved[2].rotation.w,
              "non-invertible parent transform leaves the pose");
    }

    /* NaN and infinity. */
    limb_straight(&L, 1, 1);
    for (j = 0; j < 4; ++j) saved[j] = L.pose[j];
    {
        ik_two_bone job = limb_job(&L, ik_v3((ik_real)NAN, 0, 0));
        CHECK(ik_two_bone_run(&job) == IK_ERR_NONFINITE, "NaN target");
        job.target_ms = ik_v3(0, (ik_real)INFINITY, 0);
        CHECK(ik_two_bone_run(&job) == IK_ERR_NONFINITE, "infinite target");
        job.target_ms = ik_v3(1, 0, 0);
        job.use_pole = 1;
        job.pole_ms = ik_v3(0, 0, (ik_real)NAN);
        CHECK(ik_two_bone_run(&job) == IK_ERR_NONFINITE, "NaN pole");
        job.use_pole = 0;
        job.weight = (ik_real)NAN;
        CHECK(ik_two_bone_run(&job) == IK_ERR_NONFINITE, "NaN weight");
        job.weight = 1;
        L.model[2].m[13] = (ik_real)INFINITY;
        CHECK(ik_two_bone_run(&job) == IK_ERR_NONFINITE, "infinite joint matrix");
        limb_fk(&L);
        job.use_hinge = 1;
        job.min_bend = 1;
        job.max_bend = 0;
        CHECK(ik_two_bone_run(&job) == IK_ERR_RANGE, "min bend above max bend");
        job.use_hinge = 0;
        job.soften = 1;
        CHECK(ik_two_bone_run(&job) == IK_ERR_RANGE, "soften of 1");
        job.soften = 0;
        job.mid_rotation_ls = NULL;
        CHECK(ik_two_bone_run(&job) == IK_ERR_NULL, "missing output");
        CHECK(ik_two_bone_run(NULL) == IK_ERR_NULL, "NULL job");
        {
            /* a job not made by ik_two_bone_def(): zeroed, then pointed at
             * the limb, or with the tag cleared, is refused untouched */
            ik_two_bone zeroed;
            memset(&zeroed, 0, sizeof zeroed);
            ik_two_bone_bind(&zeroed, L.model, L.pose, L.start, L.mid, L.end);
            zeroed.target_ms = job.target_ms;
            zeroed.weight = 1;
            CHECK(ik_two_bone_run(&zeroed) == IK_ERR_NOT_DEFAULTED, "a zeroed job is refused");
            job.mid_rotation_ls = &L.pose[L.mid].rotation;
            job.defaulted = 0;
            CHECK(ik_two_bone_run(&job) == IK_ERR_NOT_DEFAULTED, "a job without the _def() tag is refused");
        }
        for (j = 0; j < 4; ++j)
            CHECK(L.pose[j].rotation.x == saved[j].rotation.x && L.pose[j].rotation.w == saved[j].rotation.w,
                  "rejected input leaves joint %d untouched", j);
    }
}

/* Same input, same output, bit for bit: every joint of every pose. */
static void test_deterministic(void) {
    rng r1 = rng_seeded(600), r2 = rng_seeded(600);
    int i, same = 1;
    for (i = 0; i < 1000; ++i) {
        limb A, B;
        ik_two_bone ja, jb;
        limb_random(&A, &r1, i % 3 == 0);
        limb_random(&B, &r2, i % 3 == 0);
        ja = limb_job(&A, rng_in_ball(&r1, 4));
        jb = limb_job(&B, rng_in_ball(&r2, 4));
        ja.use_pole = jb.use_pole = i % 2;
        ja.pole_ms = jb.pole_ms = ik_v3(1, 2, 3);
        ik_two_bone_run(&ja);
        ik_two_bone_run(&jb);
        same = same && memcmp(A.pose, B.pose, (size_t)A.count * sizeof A.pose[0]) == 0;
    }
    CHECK(same, "repeated solves give identical bits");
}

/* Mirrored parents, as exporters write for mirrored limbs: a root with a
 * negative determinant, (-1, 1, 1), (-1, -1, -1), (-3, -3, -3) or a random
 * uniform magnitude with an odd number of negative axes, under a random
 * rotation. The end lands on reachable targets with the bones' lengths, the
 * knee on the pole's side; a hinged limb already at its target does not
 * move, and every hinged solve keeps the bend, measured in the mid joint's
 * own frame, inside [min, max]. */
static ik_vec3 mirrored_scale(rng *r, int which) {
    ik_real s = rng_range(r, 0.3, 3);
    int axis = (int)(rng_unit(r) * 3);
    ik_vec3 v = ik_v3(s, s, s);
    switch (which % 5) {
        case 0:
            return ik_v3(-1, 1, 1);
        case 1:
            return ik_v3(-1, -1, -1);
        case 2:
            return ik_v3(-3, -3, -3);
        case 3: /* one axis negated */
            if (axis == 0)
                v.x = -s;
            else if (axis == 1)
                v.y = -s;
            else
                v.z = -s;
            return v;
        default: /* all three negated */
            return ik_v3(-s, -s, -s);
    }
}

static void test_mirrored_parents(void) {
    rng r = rng_seeded(700);
    check_property reach = {"mirrored parent: reachable targets are reached", 0, 0};
    check_property pole = {"mirrored parent: knee on the pole's side", 0, 0};
    check_property still = {"mirrored parent, hinge: a limb at its target does not move", 0, 0};
    check_property limits = {"mirrored parent, hinge: bend stays in [min, max] in the mid's frame", 0, 0};
    check_property hinge_reach = {"mirrored parent, hinge: reachable inside the range is reached", 0, 0};
    check_property keep = {"mirrored parent: keep_end_rotation keeps the end's model frame", 0, 0};
    int i;
    for (i = 0; i < CASES / 5; ++i) {
        limb L;
        ik_vec3 a, t, pole_pt, n;
        ik_real full, dist;
        ik_two_bone job;
        ik_bool use_pole = i % 2;
        limb_random(&L, &r, i % 7 == 0);
        limb_set_root_scale(&L, mirrored_scale(&r, i));
        a = joint_pos(&L, L.start);
        full = L.l1 + L.l2;
        t = ik_vec3_add(a, ik_vec3_scale(rng_direction(&r), full * rng_range(&r, 0.05, 0.999)));
        dist = ik_vec3_distance(a, t);
        pole_pt = ik_vec3_add(a, ik_vec3_scale(rng_direction(&r), full));
        job = limb_job(&L, t);
        job.use_pole = use_pole;
        job.pole_ms = pole_pt;
        CHECK(ik_two_bone_run(&job) == IK_OK, "case %d", i);
        limb_fk(&L);
        if (dist < IK_FABS(L.l1 - L.l2) * (ik_real)1.01) continue;
        PROPERTY_CASE(
            reach,
            pose_finite(&L) && lengths_kept(&L) && ik_vec3_distance(joint_pos(&L, L.end), t) <= REACH_TOL * full * 10,
            "case %d: end %g from the target (length %g)", i, (double)ik_vec3_distance(joint_pos(&L, L.end), t),
            (double)full);
        n = ik_vec3_normalize(ik_vec3_sub(t, a));
        if (use_pole && dist < full * (ik_real)0.99)
            PROPERTY_CASE(
                pole, ik_vec3_dot(off_line(joint_pos(&L, L.mid), a, n), off_line(pole_pt, a, n)) > 1 - (ik_real)1e-3,
                "case %d", i);
    }
    for (i = 0; i < CASES / 5; ++i) {
        limb L;
        ik_vec3 a, t, end_before;
        ik_mat4 end_frame;
        ik_quat start_before, mid_before;
        ik_real full, dist, bend, d_min;
        ik_two_bone job;
        const ik_real lo = ik_rad(5), hi = ik_rad(133);
        limb_hinged(&L, &r, rng_range(&r, (double)lo + 0.05, (double)hi - 0.05));
        limb_set_root_scale(&L, mirrored_scale(&r, i));
        /* Already at the target: nothing to correct. */
        end_before = joint_pos(&L, L.end);
        start_before = L.pose[L.start].rotation;
        mid_before = L.pose[L.mid].rotation;
        job = limb_job(&L, end_before);
        job.use_hinge = 1;
        job.min_bend = lo;
        job.max_bend = hi;
        CHECK(ik_two_bone_run(&job) == IK_OK, "case %d", i);
        limb_fk(&L);
        PROPERTY_CASE(still,
                      IK_FABS(ik_quat_dot(start_before, L.pose[L.start].rotation)) > 1 - (ik_real)1e-5 &&
                          IK_FABS(ik_quat_dot(mid_before, L.pose[L.mid].rotation)) > 1 - (ik_real)1e-5 &&
                          ik_vec3_distance(joint_pos(&L, L.end), end_before) <= REACH_TOL * (L.l1 + L.l2) * 10,
                      "case %d: end moved %g, bend now %g deg", i,
                      (double)ik_vec3_distance(joint_pos(&L, L.end), end_before), (double)ik_deg(limb_bend(&L)));
        /* A random target. */
        a = joint_pos(&L, L.start);
        full = L.l1 + L.l2;
        t = ik_vec3_add(a, ik_vec3_scale(rng_direction(&r), full * rng_range(&r, 0.0, 1.2)));
        dist = ik_vec3_distance(a, t);
        job = limb_job(&L, t);
        job.use_hinge = 1;
        job.min_bend = lo;
        job.max_bend = hi;
        job.use_pole = i % 2;
        job.pole_ms = ik_vec3_add(a, rng_direction(&r));
        job.keep_end_rotation = i % 3 == 0;
        end_frame = L.model[L.end];
        CHECK(ik_two_bone_run(&job) == IK_OK, "case %d", i);
        limb_fk(&L);
        if (job.keep_end_rotation) {
            ik_real off = 0;
            int e;
            for (e = 0; e < 11; ++e) off = ik_maxr(off, IK_FABS(L.model[L.end].m[e] - end_frame.m[e]));
            PROPERTY_CASE(keep, off <= (ik_real)1e-4 * IK_FABS(L.rest[0].scale.x), "case %d: frame off by %g", i,
                          (double)off);
        }
        bend = limb_bend(&L);
        PROPERTY_CASE(limits, bend >= lo - (ik_real)1e-4 && bend <= hi + (ik_real)1e-4, "case %d: bend %g deg", i,
                      (double)ik_deg(bend));
        d_min = IK_SQRT(L.l1 * L.l1 + L.l2 * L.l2 + 2 * L.l1 * L.l2 * IK_COS(hi));
        if (dist <= IK_SQRT(L.l1 * L.l1 + L.l2 * L.l2 + 2 * L.l1 * L.l2 * IK_COS(lo)) * (1 - (ik_real)1e-4) &&
            dist >= d_min * (1 + (ik_real)1e-4))
            PROPERTY_CASE(hinge_reach, ik_vec3_distance(joint_pos(&L, L.end), t) <= REACH_TOL * full * 10,
                          "case %d: error %g", i, (double)ik_vec3_distance(joint_pos(&L, L.end), t));
    }
    property_end(&reach);
    property_end(&pole);
    property_end(&still);
    property_end(&limits);
    property_end(&hinge_reach);
    property_end(&keep);
}

/* Non-uniform ancestors: a root scaled differently along each axis (0.4 to
 * 2.5, sometimes mirrored) under a random rotation, so the start joint's
 * frame is sheared. The limb is rigid in the start's frame y = L^-1 (x - a)
 * (L its model matrix before the solve; any local rotation keeps the bone
 * lengths there): the reachable targets are those within |l1 - l2| to
 * l1 + l2 in y, and the knee bends to the pole's half-plane. Reached and the residual are
 * measured in model space. A hinged limb at its target does not move. */
static void test_nonuniform_parents(void) {
    rng r = rng_seeded(1000);
    check_property reach = {"non-uniform parent: reachable targets are reached", 0, 0};
    check_property pole = {"non-uniform parent: knee on the pole's side in the start's frame", 0, 0};
    check_property flag = {"non-uniform parent: reached and residual measured in model space", 0, 0};
    check_property still = {"non-uniform parent, hinge: a limb at its target does not move", 0, 0};
    int i;
    for (i = 0; i < CASES / 5; ++i) {
        limb L;
        ik_mat4 to_start, frame;
        ik_vec3 a, u_y, v_y, dir, t_y, t, pole_y, k_y;
        ik_real ly1, ly2, frac, full, residual = -1;
        ik_bool reached = 0, use_pole = i % 2;
        ik_two_bone job;
        ik_vec3 scale = ik_v3(rng_range(&r, 0.4, 2.5), rng_range(&r, 0.4, 2.5), rng_range(&r, 0.4, 2.5));
        if (i % 3 == 0) scale.y = -scale.y;
        limb_random(&L, &r, i % 7 == 0);
        limb_set_root_scale(&L, scale);
        a = joint_pos(&L, L.start);
        frame = L.model[L.start];
        ik_mat4_inverse(&frame, &to_start);
        u_y = ik_mat4_transform_vector(&to_start, ik_vec3_sub(joint_pos(&L, L.mid), a));
        v_y = ik_mat4_transform_vector(&to_start, ik_vec3_sub(joint_pos(&L, L.end), joint_pos(&L, L.mid)));
        ly1 = ik_vec3_length(u_y);
        ly2 = ik_vec3_length(v_y);
        frac = rng_range(&r, 0.05, 0.999);
        if ((ly1 + ly2) * frac < IK_FABS(ly1 - ly2) * (ik_real)1.01) continue;
        dir = rng_direction(&r);
        t_y = ik_vec3_scale(dir, (ly1 + ly2) * frac);
        t = ik_mat4_transform_point(&frame, t_y);
        pole_y = ik_vec3_scale(rng_direction(&r), ly1 + ly2);
        full = L.l1 + L.l2;
        job = limb_job(&L, t);
        job.use_pole = use_pole;
        job.pole_ms = ik_mat4_transform_point(&frame, pole_y);
        job.reached = &reached;
        job.residual = &residual;
        CHECK(ik_two_bone_run(&job) == IK_OK, "case %d", i);
        limb_fk(&L);
        PROPERTY_CASE(reach, pose_finite(&L) && ik_vec3_distance(joint_pos(&L, L.end), t) <= REACH_TOL * full * 10,
                      "case %d: end %g from the target (length %g)", i,
                      (double)ik_vec3_distance(joint_pos(&L, L.end), t), (double)full);
        k_y = ik_mat4_transform_point(&to_start, joint_pos(&L, L.mid));
        if (use_pole && frac < (ik_real)0.99)
            PROPERTY_CASE(pole,
                          ik_vec3_dot(off_line(k_y, ik_vec3_zero(), dir), off_line(pole_y, ik_vec3_zero(), dir)) >
                              1 - (ik_real)1e-3,
                          "case %d", i);
        PROPERTY_CASE(
            flag, reached && residual >= 0 && residual <= ik_vec3_distance(joint_pos(&L, L.end), t) + REACH_TOL * full,
            "case %d: residual %g, off %g", i, (double)residual, (double)ik_vec3_distance(joint_pos(&L, L.end), t));
    }
    for (i = 0; i < CASES / 10; ++i) {
        limb L;
        ik_vec3 end_before;
        ik_quat start_before, mid_before;
        ik_two_bone job;
        limb_hinged(&L, &r, rng_range(&r, 0.2, 2.2));
        limb_set_root_scale(&L, ik_v3(rng_range(&r, 0.4, 2.5), rng_range(&r, 0.4, 2.5), rng_range(&r, 0.4, 2.5)));
        end_before = joint_pos(&L, L.end);
        start_before = L.pose[L.start].rotation;
        mid_before = L.pose[L.mid].rotation;
        job = limb_job(&L, end_before);
        job.use_hinge = 1;
        job.min_bend = ik_rad(5);
        CHECK(ik_two_bone_run(&job) == IK_OK, "case %d", i);
        limb_fk(&L);
        PROPERTY_CASE(still,
                      IK_FABS(ik_quat_dot(start_before, L.pose[L.start].rotation)) > 1 - (ik_real)1e-5 &&
                          IK_FABS(ik_quat_dot(mid_before, L.pose[L.mid].rotation)) > 1 - (ik_real)1e-5,
                      "case %d: end moved %g", i, (double)ik_vec3_distance(joint_pos(&L, L.end), end_before));
    }
    property_end(&reach);
    property_end(&pole);
    property_end(&flag);
    property_end(&still);
}

/* The angle, in degrees, between the knee's and the pole's directions off
 * the start-to-target line (the pole's given by its construction). */
static ik_real knee_off_pole_deg(const limb *L, ik_vec3 a, ik_vec3 n, ik_vec3 pole_dir) {
    ik_vec3 k = off_line(joint_pos(L, L->mid), a, n);
    return ik_deg(IK_ATAN2(ik_vec3_length(ik_vec3_cross(k, pole_dir)), ik_vec3_dot(k, pole_dir)));
}

/* Precision where the twist used to cancel: a pole 0.01 to 0.1 degrees off
 * the start-to-target line, and targets at 0.99999 to 1.0 of full reach.
 * The knee must be within 0.5 degrees of the pole's half-plane (in float
 * too). The limb sits near the origin so that rounding of the positions
 * the test reads stays far below the angles measured; near full reach the
 * check applies where the knee is at least 1e-3 of the limb off the line. */
static void test_pole_precision(void) {
    rng r = rng_seeded(800);
    check_property near_line = {"pole 0.01 to 0.1 degrees off the line: knee within 0.5 degrees of its plane", 0, 0};
    check_property near_full = {"target at 0.99999 to 1 of reach: knee within 0.5 degrees of the pole's plane", 0, 0};
    ik_real worst[2] = {0, 0};
    int i;
    for (i = 0; i < CASES / 5; ++i) {
        limb L;
        ik_vec3 a, n, side, t, pole_pt;
        ik_real full, off, ang, dist;
        ik_two_bone job;
        ik_bool at_full = i % 2;
        limb_random(&L, &r, 0);
        L.rest[0].translation = ik_vec3_zero();
        limb_set_root_scale(&L, ik_v3(1, 1, 1));
        a = joint_pos(&L, L.start);
        full = L.l1 + L.l2;
        n = rng_direction(&r);
        side = ik_vec3_normalize(ik_vec3_cross(n, rng_direction(&r)));
        dist = at_full ? full * rng_range(&r, 0.99999, 1.0) : full * rng_range(&r, 0.3, 0.95);
        if (dist < IK_FABS(L.l1 - L.l2) * (ik_real)1.1) continue;
        t = ik_vec3_mad(a, n, dist);
        off = at_full ? rng_range(&r, 0.2, 3.0) : ik_rad(rng_range(&r, 0.01, 0.1));
        pole_pt =
            ik_vec3_add(a, ik_vec3_add(ik_vec3_scale(n, full * IK_COS(off)), ik_vec3_scale(side, full * IK_SIN(off))));
        job = limb_job(&L, t);
        job.use_pole = 1;
        job.pole_ms = pole_pt;
        CHECK(ik_two_bone_run(&job) == IK_OK, "case %d", i);
        limb_fk(&L);
        if (ik_vec3_length(ik_vec3_reject(ik_vec3_sub(joint_pos(&L, L.mid), a), n)) < full * (ik_real)1e-3) continue;
        ang = knee_off_pole_deg(&L, a, n, side);
        worst[at_full] = ik_maxr(worst[at_full], ang);
        if (at_full)
            PROPERTY_CASE(near_full, ang <= (ik_real)0.5, "case %d: %g degrees off at %.7f of reach", i, (double)ang,
                          (double)(dist / full));
        else
            PROPERTY_CASE(near_line, ang <= (ik_real)0.5, "case %d: %g degrees off, pole %g degrees from the line", i,
                          (double)ang, (double)ik_deg(off));
    }
    property_end(&near_line);
    property_end(&near_full);
    printf(
        "pole precision: knee at most %.4f degrees off the pole's plane (pole near the line), %.4f (near full reach)\n",
        (double)worst[0], (double)worst[1]);
}

/* The end joint's rotation change from q0 to q1, in degrees. */
static ik_real turn_deg(ik_quat q0, ik_quat q1) {
    return ik_deg(ik_quat_angle(ik_quat_mul(q1, ik_quat_conjugate(q0))));
}

/* Roll continuity: a target swept along a fixed line from 0.99 to 1.01 of
 * full reach and back in steps of 1e-4 of the reach, solved frame to frame
 * (each solve from the last one's output, as a game does) and from a fixed
 * start pose. The end joint's model rotation may turn, per step, by no more
 * than its bone's change of direction (the bend itself, which near full
 * reach grows as the square root of the distance left, up to 1.4 degrees a
 * step for these limbs) plus ROLL_TOL_DEG: the limb must not roll about its
 * own axis, since a straight limb's roll is defined by the pole (or kept).
 * Before the fix the limb rolled by up to 180 degrees in one step. */
typedef enum sweep_mode { SWEEP_FRAME_TO_FRAME, SWEEP_FROM_START } sweep_mode;

static ik_real sweep_worst_roll(limb *L, ik_vec3 dir, ik_bool use_pole, ik_vec3 pole_pt, ik_bool hinge, sweep_mode mode,
                                ik_real *worst_turn) {
    limb start = *L;
    ik_vec3 a = joint_pos(L, L->start), bone_prev = ik_vec3_zero();
    ik_quat end_prev = ik_quat_identity();
    ik_real full = L->l1 + L->l2, worst = 0;
    int k;
    *worst_turn = 0;
    for (k = 0; k <= 400; ++k) {
        int step = k <= 200 ? k : 400 - k;
        ik_real ratio = (ik_real)0.99 + (ik_real)step * (ik_real)1e-4;
        ik_two_bone job;
        ik_vec3 bone;
        ik_quat end_rot;
        if (mode == SWEEP_FROM_START) {
            memcpy(L->pose, start.pose, sizeof start.pose);
            limb_fk(L);
        }
        job = limb_job(L, ik_vec3_mad(a, dir, full * ratio));
        job.use_pole = use_pole;
        job.pole_ms = pole_pt;
        job.use_hinge = hinge;
        ik_two_bone_run(&job);
        limb_fk(L);
        end_rot = ik_mat4_rotation(&L->model[L->end]);
        bone = ik_vec3_normalize(ik_vec3_sub(joint_pos(L, L->end), joint_pos(L, L->mid)));
        if (k > 0) {
            ik_real turn = turn_deg(end_prev, end_rot);
            ik_real swing =
                ik_deg(IK_ATAN2(ik_vec3_length(ik_vec3_cross(bone_prev, bone)), ik_vec3_dot(bone_prev, bone)));
            worst = ik_maxr(worst, turn - swing);
            *worst_turn = ik_maxr(*worst_turn, turn);
        }
        end_prev = end_rot;
        bone_prev = bone;
    }
    return worst;
}

static void test_roll_continuity(void) {
    rng r = rng_seeded(900);
    static const char *names[8] = {"roll: frame to frame, pole",           "roll: frame to frame, no pole",
                                   "roll: from a start pose, pole",        "roll: from a start pose, no pole",
                                   "roll: hinge, frame to frame, pole",    "roll: hinge, frame to frame, no pole",
                                   "roll: hinge, from a start pose, pole", "roll: hinge, from a start pose, no pole"};
    check_property props[8];
    ik_real worst_turn_all = 0, worst_roll_all = 0;
    int i, c;
    for (c = 0; c < 8; ++c) {
        props[c].name = names[c];
        props[c].cases = props[c].failures = 0;
    }
    for (i = 0; i < 1000; ++i) {
        limb L;
        ik_vec3 dir, pole_pt;
        ik_real worst_turn;
        int hinge = i % 2;
        if (hinge)
            limb_hinged(&L, &r, rng_range(&r, 0.2, 2));
        else
            limb_random(&L, &r, 0);
        dir = rng_direction(&r);
        pole_pt = ik_vec3_add(joint_pos(&L, L.start), ik_vec3_scale(rng_direction(&r), 2));
        for (c = 0; c < 4; ++c) {
            limb S = L;
            ik_real worst;
            ik_skeleton_init(&S.skeleton, S.count, S.parents, NULL, S.rest, NULL);
            worst = sweep_worst_roll(&S, dir, c % 2 == 0, pole_pt, hinge,
                                     c < 2 ? SWEEP_FRAME_TO_FRAME : SWEEP_FROM_START, &worst_turn);
            worst_turn_all = ik_maxr(worst_turn_all, worst_turn);
            worst_roll_all = ik_maxr(worst_roll_all, worst);
            PROPERTY_CASE(props[hinge * 4 + c], worst <= (ik_real)ROLL_TOL_DEG,
                          "limb %d: the end turned %g degrees beyond its bone's swing in one step (l1 %g, l2 %g)", i,
                          (double)worst, (double)L.l1, (double)L.l2);
        }
    }
    for (c = 0; c < 8; ++c) property_end(&props[c]);
    printf("roll sweeps: largest end-joint turn in one step %.3f degrees, largest beyond its bone's swing %.4f\n",
           (double)worst_turn_all, (double)worst_roll_all);
}

/* What a solve reports must be what happened: `reached` and the residual are
 * compared with the end joint's distance from the target after forward
 * kinematics, `residual` within rounding of positions `size` large. */
static ik_bool report_true(const limb *L, ik_vec3 t, ik_bool reached, ik_real residual, ik_real size) {
    ik_real full = L->l1 + L->l2, off = ik_vec3_distance(joint_pos(L, L->end), t), slack = size * REACH_TOL;
    if (!ik_finite(residual) || IK_FABS(residual - off) > slack) return 0;
    return reached ? off <= (ik_real)1e-3 * full + slack : off >= (ik_real)1e-3 * full - slack;
}

/* A pole far from the limb (1e18 to 1e30 in float, 1e150 to 1e300 in
 * double: squared, its offset overflows): the solve is the one for the pole
 * two lengths away in the same direction, and reports what it did. Before
 * the fix a pole near 1e19 in float gave IK_OK with a NaN residual and the
 * identity rotation, and past 2e19 was ignored. */
static void test_far_pole(void) {
    rng r = rng_seeded(1100);
    check_property same = {"far pole: the pose of a near pole in the same direction", 0, 0};
    check_property told = {"far pole: reached and residual are what happened", 0, 0};
    int i;
    for (i = 0; i < 2000; ++i) {
        limb L, N;
        ik_vec3 a, dir, t;
        ik_real full, reach_far = -1, reach_near = -1;
        ik_bool got_far = 0, got_near = 0;
        ik_two_bone job;
#ifdef IKIT_DOUBLE
        ik_real far = (ik_real)pow(10.0, rng_range(&r, 150, 300));
#else
        ik_real far = (ik_real)pow(10.0, rng_range(&r, 18, 30));
#endif
        limb_random(&L, &r, 0);
        N = L;
        ik_skeleton_init(&N.skeleton, N.count, N.parents, NULL, N.rest, NULL);
        a = joint_pos(&L, L.start);
        full = L.l1 + L.l2;
        dir = rng_direction(&r);
        t = ik_vec3_mad(a, rng_direction(&r), full * rng_range(&r, 0.3, 0.95));
        if (ik_vec3_distance(a, t) < IK_FABS(L.l1 - L.l2) * (ik_real)1.01) continue;
        job = limb_job(&L, t);
        job.use_pole = 1;
        job.pole_ms = ik_vec3_scale(dir, far);
        job.reached = &got_far;
        job.residual = &reach_far;
        CHECK(ik_two_bone_run(&job) == IK_OK, "case %d", i);
        limb_fk(&L);
        job = limb_job(&N, t);
        job.use_pole = 1;
        job.pole_ms = ik_vec3_mad(a, dir, 2 * full); /* seen from a, the far pole is along dir to 1e-18 */
        job.reached = &got_near;
        job.residual = &reach_near;
        CHECK(ik_two_bone_run(&job) == IK_OK, "case %d", i);
        limb_fk(&N);
        PROPERTY_CASE(
            same,
            pose_finite(&L) && ik_vec3_distance(joint_pos(&L, L.mid), joint_pos(&N, N.mid)) <= full * (ik_real)1e-3,
            "case %d: knee %g from the near pole's (pole %g away)", i,
            (double)ik_vec3_distance(joint_pos(&L, L.mid), joint_pos(&N, N.mid)), (double)far);
        PROPERTY_CASE(told, got_far && report_true(&L, t, got_far, reach_far, full), "case %d: residual %g, off %g", i,
                      (double)reach_far, (double)ik_vec3_distance(joint_pos(&L, L.end), t));
    }
    property_end(&same);
    property_end(&told);
}

/* Limbs far outside the usual sizes, scaled by their root (1e-12 to 1e12 in
 * float, 1e-150 to 1e150 in double) or by their bone lengths alone: they
 * reach, keep their lengths and report what they did. Before the fix a
 * float limb under a root scale of 1e6 gave IK_OK with a NaN residual and
 * a wrong pose, from 1e7 IK_ERR_DEGENERATE, and limbs 1e10 long an
 * infinite or NaN residual. */
static void test_huge_and_tiny_limbs(void) {
    rng r = rng_seeded(1200);
    check_property reach = {"limbs 1e-12 to 1e12 (float) in size: reachable targets reached, lengths kept", 0, 0};
    check_property told = {"limbs 1e-12 to 1e12 (float) in size: reached and residual are what happened", 0, 0};
    int i, j;
    for (i = 0; i < 2000; ++i) {
        limb L;
        ik_vec3 a, t;
        ik_real full, residual = -1;
        ik_bool reached = 0;
        ik_two_bone job;
#ifdef IKIT_DOUBLE
        ik_real size = (ik_real)pow(10.0, rng_range(&r, -150, 150));
#else
        ik_real size = (ik_real)pow(10.0, rng_range(&r, -12, 12));
#endif
        limb_random(&L, &r, i % 5 == 0);
        if (i % 2) {
            limb_set_root_scale(&L, ik_v3(size, size, size));
        } else {
            for (j = 1; j < L.count; ++j) L.rest[j].translation = ik_vec3_scale(L.rest[j].translation, size);
            L.rest[0].translation = ik_vec3_scale(L.rest[0].translation, size);
            limb_set_root_scale(&L, L.rest[0].scale);
        }
        a = joint_pos(&L, L.start);
        full = L.l1 + L.l2;
        if (!(full > 0) || !ik_finite(full)) continue;
        t = ik_vec3_mad(a, rng_direction(&r), full * rng_range(&r, 0.3, 0.95));
        if (ik_vec3_distance(a, t) < IK_FABS(L.l1 - L.l2) * (ik_real)1.01) continue;
        job = limb_job(&L, t);
        job.use_pole = i % 3 != 0;
        job.pole_ms = ik_vec3_mad(joint_pos(&L, L.mid), rng_direction(&r), full);
        job.reached = &reached;
        job.residual = &residual;
        CHECK(ik_two_bone_run(&job) == IK_OK, "case %d: size %g", i, (double)size);
        limb_fk(&L);
        PROPERTY_CASE(
            reach,
            pose_finite(&L) && lengths_kept(&L) && ik_vec3_distance(joint_pos(&L, L.end), t) <= REACH_TOL * full * 10,
            "case %d: size %g, end %g of its length from the target", i, (double)size,
            (double)(ik_vec3_distance(joint_pos(&L, L.end), t) / full));
        PROPERTY_CASE(told, report_true(&L, t, reached, residual, full + ik_vec3_length(a)),
                      "case %d: size %g, residual %g, off %g", i, (double)size, (double)residual,
                      (double)ik_vec3_distance(joint_pos(&L, L.end), t));
    }
    property_end(&reach);
    property_end(&told);
}

/* A zero input rotation (or one whose squared norm overflows or
 * underflows) is refused as IK_ERR_DEGENERATE, as ik_aim_run does, and
 * nothing is written. Before the fix a zero start rotation gave IK_OK,
 * reached 1 and the identity, with the end far from the target. */
static void test_unusable_input_rotation(void) {
#ifdef IKIT_DOUBLE
    const ik_real huge = 1e200, tiny = 1e-200;
#else
    const ik_real huge = 1e30f, tiny = 1e-30f;
#endif
    const ik_quat bad[3] = {{0, 0, 0, 0}, {huge, huge, 0, huge}, {tiny, 0, 0, tiny}};
    rng r = rng_seeded(1300);
    int k, joint;
    for (k = 0; k < 3; ++k)
        for (joint = 0; joint < 2; ++joint) {
            limb L;
            ik_transform before[5];
            ik_bool reached = 1;
            ik_two_bone job;
            limb_random(&L, &r, 0);
            L.pose[joint ? L.mid : L.start].rotation = bad[k];
            memcpy(before, L.pose, sizeof before);
            job = limb_job(&L, ik_vec3_mad(joint_pos(&L, L.start), rng_direction(&r), (L.l1 + L.l2) * (ik_real)0.7));
            job.reached = &reached;
            CHECK(ik_two_bone_run(&job) == IK_ERR_DEGENERATE && !reached && memcmp(before, L.pose, sizeof before) == 0,
                  "%s input rotation %d of the %s joint refused, nothing written", k ? "unusable" : "zero", k,
                  joint ? "mid" : "start");
        }
}

/* A start joint with its own non-uniform scale (under a parent that is a
 * similarity): the solve is approximate (the mid's frame is sheared), but
 * `reached` and the residual say where the end landed. Before the fix
 * reached was 1 with the end up to 1.7 lengths away. */
static void test_nonuniform_start_scale(void) {
    rng r = rng_seeded(1400);
    check_property told = {"start's own scale non-uniform: reached and residual are what happened", 0, 0};
    int i, hits = 0;
    for (i = 0; i < 5000; ++i) {
        limb L;
        ik_vec3 a, t;
        ik_real full, residual = -1;
        ik_bool reached = 0;
        ik_two_bone job;
        limb_random(&L, &r, i % 4 == 0);
        L.rest[L.start].scale = ik_v3(rng_range(&r, 0.3, 3), rng_range(&r, 0.3, 3), rng_range(&r, 0.3, 3));
        limb_set_root_scale(&L, L.rest[0].scale);
        a = joint_pos(&L, L.start);
        full = L.l1 + L.l2;
        t = ik_vec3_mad(a, rng_direction(&r), full * rng_range(&r, 0.1, 1.1));
        job = limb_job(&L, t);
        job.use_pole = i % 2;
        job.pole_ms = ik_vec3_mad(joint_pos(&L, L.mid), rng_direction(&r), full);
        job.use_hinge = i % 3 == 0;
        job.reached = &reached;
        job.residual = &residual;
        CHECK(ik_two_bone_run(&job) == IK_OK, "case %d", i);
        limb_fk(&L);
        hits += reached;
        PROPERTY_CASE(told, pose_finite(&L) && report_true(&L, t, reached, residual, full + ik_vec3_length(a)),
                      "case %d: reached %d, residual %g, off %g", i, reached, (double)residual,
                      (double)ik_vec3_distance(joint_pos(&L, L.end), t));
    }
    property_end(&told);
    printf("non-uniform start scale: %d of 5000 reached\n", hits);
}

int main(void) {
    test_random_limbs();
    test_hinge();
    test_pole_twist_soften();
    test_units();
    test_continuity();
    test_weight_and_end_rotation();
    test_degenerate();
    test_deterministic();
    test_mirrored_parents();
    test_nonuniform_parents();
    test_pole_precision();
    test_roll_continuity();
    test_far_pole();
    test_huge_and_tiny_limbs();
    test_unusable_input_rotation();
    test_nonuniform_start_scale();
    return check_summary("two_bone");
}

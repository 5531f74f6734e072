/* Aim and look-at chain: solve, rebuild the joint's matrix from the new local
 * rotation, and check where the aim ray and the up axis ended up. */
#include <ikit/aim.h>
#include <ikit/look_at_chain.h>
#include <ikit/result.h>
#include <string.h>

#include "support/check.h"
#include "support/rng.h"

#ifdef IKIT_DOUBLE
#define TOL_DIST 1e-11
#define TOL_ANGLE 1e-10
#define TOL_MATRIX 1e-10
#else
#define TOL_DIST 2e-5f
#define TOL_ANGLE 1e-4f
#define TOL_MATRIX 2e-5f
#endif
#define CASES 100000
#define CHAIN_CASES 20000

/* ---- helpers ------------------------------------------------------------ */

/* A joint under a parent: joint_ms = parent_ms * local(translation, rotation, scale). */
typedef struct aim_case {
    ik_mat4 parent_ms;
    ik_transform local;
    ik_mat4 joint_ms;
    ik_vec3 target_ms, pole_ms, forward_ls, up_ls, offset_ls;
    ik_real twist;
} aim_case;

static ik_mat4 joint_with_rotation(const aim_case *c, ik_quat rotation_ls) {
    ik_mat4 local = ik_mat4_from_trs(c->local.translation, rotation_ls, c->local.scale);
    return ik_mat4_mul(&c->parent_ms, &local);
}

static ik_real uniform_scale(rng *r) { return rng_range(r, 0.5, 2.0); }

static aim_case random_case(rng *r) {
    aim_case c;
    ik_real ps = uniform_scale(r), ls = uniform_scale(r);
    ik_vec3 origin;
    c.parent_ms = ik_mat4_from_trs(rng_in_ball(r, 3), rng_rotation(r), ik_v3(ps, ps, ps));
    c.local = ik_transform_make(rng_in_ball(r, 1), rng_rotation(r), ik_v3(ls, ls, ls));
    c.joint_ms = joint_with_rotation(&c, c.local.rotation);
    origin = ik_mat4_translation(&c.joint_ms);
    c.forward_ls = ik_vec3_scale(rng_direction(r), rng_range(r, 0.2, 3));
    c.up_ls = ik_vec3_scale(rng_direction(r), rng_range(r, 0.2, 3));
    c.offset_ls = rng_unit(r) < 0.3 ? ik_vec3_zero() : rng_in_ball(r, 0.5);
    c.target_ms = ik_vec3_mad(origin, rng_direction(r), rng_range(r, 0.05, 10));
    c.pole_ms = ik_vec3_scale(rng_direction(r), rng_range(r, 0.1, 5));
    c.twist = rng_unit(r) < 0.5 ? 0 : rng_range(r, -3.14159, 3.14159);
    return c;
}

static ik_aim job_for(const aim_case *c, ik_quat *rotation_ls, ik_quat *correction_ls, ik_bool *reached) {
    ik_aim job = ik_aim_def();
    job.joint_ms = &c->joint_ms;
    job.target_ms = c->target_ms;
    job.pole_ms = c->pole_ms;
    job.forward_ls = c->forward_ls;
    job.up_ls = c->up_ls;
    job.offset_ls = c->offset_ls;
    job.twist = c->twist;
    job.rotation_ls = rotation_ls;
    job.correction_ls = correction_ls;
    job.reached = reached;
    return job;
}

/* Where the aim ray starts and points, and how far the target is from it. */
typedef struct ray_report {
    ik_real miss;  /* perpendicular distance from the target to the ray's line */
    ik_real ahead; /* (target - start) . unit direction: > 0 when the target is in front */
    ik_real scale; /* size of the problem: |target - joint| + |start - joint| */
} ray_report;

static ray_report ray_to_target(const ik_mat4 *joint_ms, ik_vec3 offset_ls, ik_vec3 forward_ls, ik_vec3 target_ms) {
    ray_report r;
    ik_vec3 start = ik_mat4_transform_point(joint_ms, offset_ls);
    ik_vec3 dir = ik_vec3_normalize(ik_mat4_transform_vector(joint_ms, forward_ls));
    ik_vec3 to = ik_vec3_sub(target_ms, start);
    ik_vec3 origin = ik_mat4_translation(joint_ms);
    r.miss = ik_vec3_length(ik_vec3_cross(to, dir));
    r.ahead = ik_vec3_dot(to, dir);
    r.scale = ik_vec3_distance(target_ms, origin) + ik_vec3_distance(start, origin);
    return r;
}

/* The case's aim ray (its offset and forward axis) after the joint's local
 * rotation became `rotation_ls`. */
static ray_report ray_after(const aim_case *c, ik_quat rotation_ls) {
    ik_mat4 after = joint_with_rotation(c, rotation_ls);
    return ray_to_target(&after, c->offset_ls, c->forward_ls, c->target_ms);
}

/* Signed angle from b to a about the unit n, after projecting both off n;
 * returns 0 with *ok = 0 when either projection is shorter than `min_sin` of
 * its vector's length. */
static ik_real roll_about(ik_vec3 a, ik_vec3 b, ik_vec3 n, ik_real min_sin, ik_bool *ok) {
    ik_vec3 pa = ik_vec3_reject(a, n), pb = ik_vec3_reject(b, n);
    *ok = ik_vec3_length(pa) > min_sin * ik_vec3_length(a) && ik_vec3_length(pb) > min_sin * ik_vec3_length(b);
    if (!*ok) return 0;
    return IK_ATAN2(ik_vec3_dot(n, ik_vec3_cross(pb, pa)), ik_vec3_dot(pb, pa));
}

/* Angle of the rotation taking a to b (q and -q alike). */
static ik_real rotation_between(ik_quat a, ik_quat b) { return ik_quat_angle(ik_quat_mul(ik_quat_conjugate(a), b)); }

/* ---- aim properties ----------------------------------------------------- */

static void test_aim_random(void) {
    rng r = rng_seeded(101);
    check_property ok = {"aim returns ok with a finite unit rotation", 0, 0};
    check_property hits = {"reached: the ray through the offset passes through the target", 0, 0};
    check_property ahead = {"reached: the target is in front of the offset", 0, 0};
    check_property up_side = {"up axis turned to the pole's side (plus twist)", 0, 0};
    check_property miss_best = {"not reached inside the offset's reach: least possible miss", 0, 0};
    check_property behind = {"not reached otherwise: line through the target, target behind the offset", 0, 0};
    check_property correction = {"rotation_ls out = rotation_ls in * correction, same hemisphere", 0, 0};
    ik_real worst_miss = 0, worst_roll = 0;
    long up_checked = 0, not_reached = 0;
    int i;
    for (i = 0; i < CASES; ++i) {
        aim_case c = random_case(&r);
        ik_quat rot = c.local.rotation, corr;
        ik_bool reached = -1, roll_ok;
        ik_aim job = job_for(&c, &rot, &corr, &reached);
        ik_result res = ik_aim_run(&job);
        ik_mat4 after = joint_with_rotation(&c, rot);
        ray_report ray = ray_after(&c, rot);
        ik_vec3 aim_line = ik_vec3_normalize(ik_vec3_sub(c.target_ms, ik_mat4_translation(&after)));
        ik_real roll;
        PROPERTY_CASE(ok,
                      res == IK_OK && ik_quat_finite(rot) && IK_FABS(ik_quat_length(rot) - 1) < TOL_DIST &&
                          (reached == 0 || reached == 1),
                      "result %d", (int)res);
        PROPERTY_CASE(correction,
                      rotation_between(ik_quat_mul(c.local.rotation, corr), rot) < TOL_ANGLE && corr.w >= 0 &&
                          ik_quat_dot(c.local.rotation, rot) >= 0,
                      "w %g", (double)corr.w);
        if (reached) {
            worst_miss = ik_maxr(worst_miss, ray.miss / ray.scale);
            PROPERTY_CASE(hits, ray.miss < TOL_DIST * ray.scale, "miss %g of %g", (double)ray.miss, (double)ray.scale);
            PROPERTY_CASE(ahead, ray.ahead > -TOL_DIST * ray.scale, "ahead %g", (double)ray.ahead);
        } else {
            /* The offset's distance from the forward line, in model units (uniform scale). */
            ik_vec3 f = ik_vec3_normalize(c.forward_ls);
            ik_vec3 o_perp = ik_vec3_reject(c.offset_ls, f);
            ik_real reach = ik_vec3_length(ik_mat4_transform_vector(&after, o_perp));
            ik_real dist = ik_vec3_distance(c.target_ms, ik_mat4_translation(&after));
            ++not_reached;
            if (dist < reach)
                PROPERTY_CASE(miss_best, IK_FABS(ray.miss - (reach - dist)) < TOL_DIST * ray.scale, "miss %g, best %g",
                              (double)ray.miss, (double)(reach - dist));
            else
                PROPERTY_CASE(behind, ray.miss < TOL_DIST * ray.scale && ray.ahead < TOL_DIST * ray.scale,
                              "miss %g ahead %g", (double)ray.miss, (double)ray.ahead);
        }
        roll = roll_about(ik_mat4_transform_vector(&after, c.up_ls), c.pole_ms, aim_line, (ik_real)0.05, &roll_ok);
        if (roll_ok) {
            ++up_checked;
            worst_roll = ik_maxr(worst_roll, IK_FABS(ik_wrap_angle(roll - c.twist)));
            PROPERTY_CASE(up_side, IK_FABS(ik_wrap_angle(roll - c.twist)) < TOL_ANGLE, "roll %g, twist %g",
                          (double)roll, (double)c.twist);
        }
    }
    printf(
        "aim random: worst relative miss %.3g, worst roll error %.3g rad, up checked in %ld, not reached %ld "
        "of %d\n",
        (double)worst_miss, (double)worst_roll, up_checked, not_reached, CASES);
    CHECK(up_checked > CASES / 2 && not_reached > 100 && not_reached < CASES / 2, "case mix");
    property_end(&ok);
    property_end(&hits);
    property_end(&ahead);
    property_end(&up_side);
    property_end(&miss_best);
    property_end(&behind);
    property_end(&correction);
}

static void test_aim_weight(void) {
    rng r = rng_seeded(102);
    check_property share = {"weight w turns by w times the full correction, same axis", 0, 0};
    check_property zero = {"weight 0 leaves the rotation exactly as it was", 0, 0};
    int i;
    for (i = 0; i < CASES; ++i) {
        aim_case c = random_case(&r);
        ik_quat full_rot = c.local.rotation, part_rot = c.local.rotation, zero_rot = c.local.rotation;
        ik_quat full, part, zero_corr, expected;
        ik_vec3 axis;
        ik_real angle, w = rng_range(&r, 0, 1);
        ik_aim job = job_for(&c, &full_rot, &full, NULL);
        ik_aim_run(&job);
        job = job_for(&c, &part_rot, &part, NULL);
        job.weight = w;
        ik_aim_run(&job);
        ik_quat_to_axis_angle(full, &axis, &angle);
        expected = ik_quat_from_axis_angle(axis, angle * w);
        PROPERTY_CASE(share,
                      rotation_between(expected, part) < TOL_ANGLE &&
                          rotation_between(ik_quat_mul(c.local.rotation, expected), part_rot) < TOL_ANGLE,
                      "w %g angle %g", (double)w, (double)angle);
        job = job_for(&c, &zero_rot, &zero_corr, NULL);
        job.weight = 0;
        ik_aim_run(&job);
        PROPERTY_CASE(zero, memcmp(&zero_rot, &c.local.rotation, sizeof zero_rot) == 0 && zero_corr.w == 1, "");
    }
    property_end(&share);
    property_end(&zero);
}

/* Away from the pole singularity (pole more than 20 degrees off the aim line,
 * up perpendicular to forward, a small offset), a target step of 1e-3 of its
 * distance turns the joint by a comparably small angle: no flips. */
static void test_aim_continuity(void) {
    rng r = rng_seeded(103);
    check_property smooth = {"small target moves give small rotation changes", 0, 0};
    ik_real worst = 0;
    int i, used = 0;
    for (i = 0; i < CASES; ++i) {
        aim_case c = random_case(&r);
        ik_vec3 origin = ik_mat4_translation(&c.joint_ms);
        ik_real dist = ik_vec3_distance(c.target_ms, origin);
        ik_vec3 aim_line = ik_vec3_scale(ik_vec3_sub(c.target_ms, origin), 1 / dist);
        ik_quat a = c.local.rotation, b = c.local.rotation;
        ik_aim job;
        ik_result res;
        ik_real change;
        c.up_ls = ik_vec3_any_perpendicular(ik_vec3_normalize(c.forward_ls));
        c.offset_ls = ik_vec3_scale(c.offset_ls, (ik_real)0.1);
        if (ik_vec3_length(ik_mat4_transform_vector(&c.joint_ms, c.offset_ls)) > (ik_real)0.2 * dist) continue;
        if (ik_vec3_length(ik_vec3_cross(ik_vec3_normalize(c.pole_ms), aim_line)) < (ik_real)0.35) continue;
        ++used;
        job = job_for(&c, &a, NULL, NULL);
        res = ik_aim_run(&job);
        c.target_ms = ik_vec3_mad(c.target_ms, rng_direction(&r), dist * (ik_real)1e-3);
        job = job_for(&c, &b, NULL, NULL);
        res = res == IK_OK ? ik_aim_run(&job) : res;
        change = rotation_between(a, b);
        worst = ik_maxr(worst, change);
        PROPERTY_CASE(smooth, res == IK_OK && change < (ik_real)0.02, "result %d, change %g rad", (int)res,
                      (double)change);
    }
    printf("aim continuity: %d cases, worst change %.3g rad for a 1e-3 step\n", used, (double)worst);
    CHECK(used > CASES / 4, "enough well-conditioned cases (%d)", used);
    property_end(&smooth);
}

/* Scale, shear and mirrors above the joint: the ray still goes through the target. */
static void test_aim_nonuniform_parent(void) {
    rng r = rng_seeded(104);
    check_property hits = {"aim through a non-uniformly scaled or mirrored parent", 0, 0};
    int i;
    for (i = 0; i < CASES / 10; ++i) {
        aim_case c = random_case(&r);
        ik_vec3 s = ik_v3(rng_range(&r, 0.3, 3), rng_range(&r, 0.3, 3), rng_range(&r, 0.3, 3));
        ik_quat rot = c.local.rotation;
        ik_bool reached = 0;
        ik_aim job;
        ray_report ray;
        if (i % 2) s.x = -s.x;
        c.parent_ms = ik_mat4_from_trs(rng_in_ball(&r, 3), rng_rotation(&r), s);
        c.joint_ms = joint_with_rotation(&c, c.local.rotation);
        job = job_for(&c, &rot, NULL, &reached);
        CHECK(ik_aim_run(&job) == IK_OK, "case %d", i);
        ray = ray_after(&c, rot);
        if (reached)
            PROPERTY_CASE(hits, ray.miss < TOL_DIST * ray.scale * 10 && ray.ahead > 0, "miss %g", (double)ray.miss);
    }
    CHECK(hits.cases > CASES / 20, "most cases reachable (%ld of %d)", hits.cases, CASES / 10);
    property_end(&hits);
}

/* Joints scaled by 1e-7 to 1e7 in model space (millimetres to kilometres
 * and beyond), uniformly and not: the frame inversion stays in range (its
 * determinant would under- or overflow in float without rescaling). */
static void test_aim_extreme_scales(void) {
    static const double scales[] = {1e-7, 1e-4, 1e4, 1e7};
    rng r = rng_seeded(105);
    check_property hits = {"aim at joint scales 1e-7 to 1e7", 0, 0};
    int i, k;
    for (k = 0; k < 4; ++k)
        for (i = 0; i < 2000; ++i) {
            aim_case c = random_case(&r);
            ik_real big = (ik_real)scales[k];
            ik_vec3 s = ik_v3(big, big, big), origin;
            ik_quat rot = c.local.rotation;
            ik_bool reached = 0;
            ik_aim job;
            ray_report ray;
            if (i % 2) s = ik_v3(big * rng_range(&r, 0.5, 2), big * rng_range(&r, 0.5, 2), -big);
            c.parent_ms = ik_mat4_from_trs(ik_vec3_scale(rng_in_ball(&r, 3), big), rng_rotation(&r), s);
            c.joint_ms = joint_with_rotation(&c, c.local.rotation);
            origin = ik_mat4_translation(&c.joint_ms);
            c.target_ms = ik_vec3_mad(origin, rng_direction(&r), big * rng_range(&r, 0.5, 10));
            job = job_for(&c, &rot, NULL, &reached);
            CHECK(ik_aim_run(&job) == IK_OK, "scale %g case %d", scales[k], i);
            ray = ray_after(&c, rot);
            PROPERTY_CASE(hits, ik_quat_finite(rot) && IK_FABS(ik_quat_length(rot) - 1) < 1e-5f,
                          "scale %g: rotation not unit", scales[k]);
            if (reached)
                PROPERTY_CASE(hits, ray.miss < TOL_DIST * ray.scale * 10 && ray.ahead > 0, "scale %g: miss %g of %g",
                              scales[k], (double)ray.miss, (double)ray.scale);
        }
    property_end(&hits);
}

/* ---- aim named cases ---------------------------------------------------- */

static aim_case simple_case(void) {
    aim_case c;
    c.parent_ms = ik_mat4_identity();
    c.local = ik_transform_identity();
    c.joint_ms = ik_mat4_identity();
    c.target_ms = ik_v3(0, 0, 5);
    c.pole_ms = ik_v3(0, 1, 0);
    c.forward_ls = ik_v3(0, 0, 1);
    c.up_ls = ik_v3(0, 1, 0);
    c.offset_ls = ik_vec3_zero();
    c.twist = 0;
    return c;
}

static void test_aim_defaults(void) {
    ik_aim job = ik_aim_def();
    CHECK(job.forward_ls.z == 1 && job.forward_ls.x == 0 && job.forward_ls.y == 0, "forward +Z");
    CHECK(job.up_ls.y == 1 && job.pole_ms.y == 1, "up and pole +Y");
    CHECK(job.weight == 1 && job.twist == 0 && ik_vec3_length(job.offset_ls) == 0, "weight 1, twist 0, no offset");
    CHECK(!job.joint_ms && !job.rotation_ls && !job.correction_ls && !job.reached, "pointers NULL");
}

/* Forward +Z to a target on +X: a quarter turn about +Y, up stays +Y. */
static void test_aim_quarter_turn(void) {
    aim_case c = simple_case();
    ik_quat rot = ik_quat_identity();
    ik_bool reached = 0;
    ik_aim job;
    ik_vec3 f, u;
    c.target_ms = ik_v3(4, 0, 0);
    job = job_for(&c, &rot, NULL, &reached);
    CHECK(ik_aim_run(&job) == IK_OK && reached, "quarter turn solved");
    f = ik_quat_rotate(rot, ik_v3(0, 0, 1));
    u = ik_quat_rotate(rot, ik_v3(0, 1, 0));
    CHECK(ik_vec3_distance(f, ik_v3(1, 0, 0)) < TOL_DIST && ik_vec3_distance(u, ik_v3(0, 1, 0)) < TOL_DIST,
          "forward (%g %g %g) up (%g %g %g)", (double)f.x, (double)f.y, (double)f.z, (double)u.x, (double)u.y,
          (double)u.z);
    /* A quarter twist turns up from +Y toward... right-handed about +X: +Y -> +Z. */
    rot = ik_quat_identity();
    c.twist = IK_PI / 2;
    job = job_for(&c, &rot, NULL, NULL);
    ik_aim_run(&job);
    u = ik_quat_rotate(rot, ik_v3(0, 1, 0));
    CHECK(ik_vec3_distance(u, ik_v3(0, 0, 1)) < TOL_DIST, "twist +90 about +X takes up to +Z (%g %g %g)", (double)u.x,
          (double)u.y, (double)u.z);
}

/* An eye off the joint's origin: the eye's ray, not the joint's, hits. */
static void test_aim_eye_offset(void) {
    aim_case c = simple_case();
    ik_quat rot = ik_quat_identity();
    ik_bool reached = 0;
    ik_aim job;
    ray_report ray, joint_ray;
    ik_mat4 after;
    c.offset_ls = ik_v3((ik_real)0.3, (ik_real)0.2, (ik_real)0.1);
    c.target_ms = ik_v3(1, -2, 2);
    job = job_for(&c, &rot, NULL, &reached);
    CHECK(ik_aim_run(&job) == IK_OK && reached, "eye aim solved");
    after = joint_with_rotation(&c, rot);
    ray = ray_after(&c, rot);
    joint_ray = ray_to_target(&after, ik_vec3_zero(), c.forward_ls, c.target_ms);
    CHECK(ray.miss < TOL_DIST * ray.scale && ray.ahead > 0, "eye ray misses by %g", (double)ray.miss);
    CHECK(joint_ray.miss > (ik_real)0.1, "the joint's own axis is parallel to, not on, the eye ray");
}

static void test_aim_target_on_origin(void) {
    aim_case c = simple_case();
    ik_quat rot = ik_quat_normalize(ik_q(1, 2, 3, 4)), before = rot, corr = ik_q(9, 9, 9, 9);
    ik_bool reached = 1;
    ik_aim job;
    c.joint_ms = ik_mat4_from_trs(ik_v3(1, 2, 3), rot, ik_v3(1, 1, 1));
    c.target_ms = ik_v3(1, 2, 3);
    job = job_for(&c, &rot, &corr, &reached);
    CHECK(ik_aim_run(&job) == IK_OK, "target on the origin is not an error");
    CHECK(memcmp(&rot, &before, sizeof rot) == 0 && !reached && corr.w == 1 && corr.x == 0,
          "rotation kept, not reached, identity correction");
}

static void test_aim_zero_axes(void) {
    aim_case c = simple_case();
    ik_quat rot = ik_quat_identity(), corr = ik_q(9, 9, 9, 9);
    ik_bool reached = 7;
    ik_aim job;
    c.forward_ls = ik_vec3_zero();
    job = job_for(&c, &rot, &corr, &reached);
    CHECK(ik_aim_run(&job) == IK_ERR_DEGENERATE, "zero forward axis");
    c = simple_case();
    c.up_ls = ik_vec3_zero();
    job = job_for(&c, &rot, &corr, &reached);
    CHECK(ik_aim_run(&job) == IK_ERR_DEGENERATE, "zero up axis");
    rot = ik_q(0, 0, 0, 0);
    c = simple_case();
    job = job_for(&c, &rot, &corr, &reached);
    CHECK(ik_aim_run(&job) == IK_ERR_DEGENERATE, "zero input rotation");
    CHECK(corr.x == 9 && reached == 7 && rot.w == 0, "outputs untouched");
    /* A forward axis of huge or tiny (but finite, non-zero) length still works. */
    c = simple_case();
    c.target_ms = ik_v3(3, 0, 0);
    c.forward_ls = ik_v3(0, 0, (ik_real)1e-30);
    rot = ik_quat_identity();
    job = job_for(&c, &rot, NULL, NULL);
    CHECK(ik_aim_run(&job) == IK_OK && IK_FABS(ik_quat_rotate(rot, ik_v3(0, 0, 1)).x - 1) < TOL_DIST,
          "tiny forward axis");
}

/* Pole along the aim line, or zero: the minimum rotation, no flip. */
static void test_aim_pole_along_aim_line(void) {
    aim_case c = simple_case();
    ik_quat rot, expected = ik_quat_from_to(ik_v3(0, 0, 1), ik_v3(1, 1, 0));
    ik_aim job;
    int k;
    for (k = 0; k < 3; ++k) {
        c.target_ms = ik_v3(2, 2, 0);
        c.pole_ms = k == 0 ? ik_v3(1, 1, 0) : (k == 1 ? ik_v3(-3, -3, 0) : ik_vec3_zero());
        rot = ik_quat_identity();
        job = job_for(&c, &rot, NULL, NULL);
        CHECK(ik_aim_run(&job) == IK_OK && ik_quat_finite(rot), "pole case %d solved", k);
        CHECK(rotation_between(rot, expected) < TOL_ANGLE, "pole case %d: minimum rotation (off by %g)", k,
              (double)rotation_between(rot, expected));
    }
    /* Up along the forward axis: nothing to roll, still aimed. */
    c = simple_case();
    c.up_ls = ik_v3(0, 0, 2);
    c.target_ms = ik_v3(0, 3, 0);
    rot = ik_quat_identity();
    job = job_for(&c, &rot, NULL, NULL);
    CHECK(ik_aim_run(&job) == IK_OK && ik_vec3_distance(ik_quat_rotate(rot, ik_v3(0, 0, 1)), ik_v3(0, 1, 0)) < TOL_DIST,
          "up along forward");
}

static void test_aim_target_behind(void) {
    aim_case c = simple_case();
    ik_quat rot = ik_quat_identity();
    ik_bool reached = 0;
    ik_aim job;
    ray_report ray;
    ik_vec3 u;
    c.target_ms = ik_v3(0, 0, -3);
    job = job_for(&c, &rot, NULL, &reached);
    CHECK(ik_aim_run(&job) == IK_OK && reached && ik_quat_finite(rot), "target straight behind");
    ray = ray_after(&c, rot);
    u = ik_quat_rotate(rot, c.up_ls);
    CHECK(ray.miss < TOL_DIST * ray.scale && ray.ahead > 0, "turned around: miss %g", (double)ray.miss);
    CHECK(u.y > 1 - TOL_DIST, "up still up after a half turn (%g %g %g)", (double)u.x, (double)u.y, (double)u.z);
}

/* The target nearer than the offset's distance from the forward line:
 * unreachable, and the miss is the least possible, r - |T|. */
static void test_aim_target_inside_offset_reach(void) {
    aim_case c = simple_case();
    ik_quat rot = ik_quat_identity();
    ik_bool reached = 1;
    ik_aim job;
    ray_report ray;
    c.offset_ls = ik_v3(1, 0, 0);
    c.target_ms = ik_v3((ik_real)0.3, (ik_real)0.1, (ik_real)0.2);
    job = job_for(&c, &rot, NULL, &reached);
    CHECK(ik_aim_run(&job) == IK_OK && !reached && ik_quat_finite(rot), "inside the offset's reach");
    ray = ray_after(&c, rot);
    CHECK(IK_FABS(ray.miss - (1 - ik_vec3_length(c.target_ms))) < TOL_DIST, "miss %g", (double)ray.miss);
}

/* A gun barrel longer than the distance to a target in line with it: the
 * target sits between the joint and the muzzle. */
static void test_aim_target_between_joint_and_offset(void) {
    aim_case c = simple_case();
    ik_quat rot = ik_quat_identity();
    ik_bool reached = 1;
    ik_aim job;
    ray_report ray;
    c.offset_ls = ik_v3(0, 0, 2);
    c.target_ms = ik_v3(0, (ik_real)0.5, 1);
    job = job_for(&c, &rot, NULL, &reached);
    CHECK(ik_aim_run(&job) == IK_OK && !reached, "target between joint and muzzle is not reached");
    ray = ray_after(&c, rot);
    CHECK(ray.miss < TOL_DIST * ray.scale && ray.ahead < 0, "line through the target, behind the muzzle");
}

static void test_aim_singular_joint(void) {
    aim_case c = simple_case();
    ik_quat rot = ik_quat_identity();
    ik_aim job;
    c.joint_ms = ik_mat4_from_trs(ik_v3(1, 0, 0), rot, ik_v3(1, 0, 1));
    job = job_for(&c, &rot, NULL, NULL);
    CHECK(ik_aim_run(&job) == IK_ERR_DEGENERATE, "zero scale axis");
    c.joint_ms = ik_mat4_from_trs(ik_v3(1, 0, 0), rot, ik_v3(1, 1, 1));
    c.joint_ms.m[8] = 1;
    c.joint_ms.m[9] = 0;
    c.joint_ms.m[10] = 0;
    job = job_for(&c, &rot, NULL, NULL);
    CHECK(ik_aim_run(&job) == IK_ERR_DEGENERATE, "two equal columns");
    CHECK(rot.w == 1 && rot.x == 0, "rotation untouched");
}

static void test_aim_bad_input(void) {
    const ik_real bad[2] = {(ik_real)NAN, (ik_real)INFINITY};
    aim_case c = simple_case();
    ik_quat rot = ik_quat_identity(), corr = ik_q(9, 9, 9, 9);
    ik_bool reached = 7;
    ik_aim job;
    int field, b, failures = 0;
    CHECK(ik_aim_run(NULL) == IK_ERR_NULL, "NULL job");
    {
        /* a job not made by ik_aim_def() (zeroed, then filled) is refused */
        ik_aim zeroed, filled = job_for(&c, &rot, &corr, &reached);
        memset(&zeroed, 0, sizeof zeroed);
        zeroed.joint_ms = filled.joint_ms;
        zeroed.target_ms = filled.target_ms;
        zeroed.forward_ls = filled.forward_ls;
        zeroed.up_ls = filled.up_ls;
        zeroed.weight = 1;
        zeroed.rotation_ls = &rot;
        CHECK(ik_aim_run(&zeroed) == IK_ERR_NOT_DEFAULTED && rot.w == 1 && rot.x == 0,
              "a zeroed job is refused, rotation untouched");
    }
    job = job_for(&c, &rot, &corr, &reached);
    job.joint_ms = NULL;
    CHECK(ik_aim_run(&job) == IK_ERR_NULL, "NULL joint matrix");
    job = job_for(&c, NULL, NULL, &reached);
    CHECK(ik_aim_run(&job) == IK_ERR_NULL, "no rotation and no correction output");
    job = job_for(&c, NULL, &corr, NULL);
    CHECK(ik_aim_run(&job) == IK_OK && ik_quat_finite(corr), "correction only is fine");
    corr = ik_q(9, 9, 9, 9);
    for (b = 0; b < 2; ++b) {
        for (field = 0; field < 14; ++field) {
            /* Fields 0 to 12 get the bad value (the twist also with weight 0,
             * which leaves the pose as it is, and with weight 0.5, whose
             * partial turn must not hide it); 13 is a finite weight outside
             * [0, 1]. */
            aim_case d = simple_case();
            ik_quat r2 = ik_quat_identity();
            ik_real *const slots[13] = {&d.joint_ms.m[5],  &d.joint_ms.m[13], &d.joint_ms.m[15], &job.target_ms.y,
                                        &job.forward_ls.x, &job.up_ls.z,      &job.pole_ms.x,    &job.offset_ls.y,
                                        &job.twist,        &job.twist,        &job.twist,        &r2.x,
                                        &job.weight};
            job = job_for(&d, &r2, &corr, &reached);
            if (field == 9) job.weight = 0;
            if (field == 10) job.weight = (ik_real)0.5;
            if (field < 13)
                *slots[field] = bad[b];
            else
                job.weight = b ? (ik_real)1.5 : (ik_real)-0.25;
            if (ik_aim_run(&job) != (field < 13 ? IK_ERR_NONFINITE : IK_ERR_RANGE)) ++failures;
            if (corr.x != 9 || reached != 7 || (field != 11 && (r2.w != 1 || r2.x != 0))) ++failures;
        }
    }
    CHECK(failures == 0,
          "NaN/inf in every input gives IK_ERR_NONFINITE, bad weight IK_ERR_RANGE, outputs untouched (%d)", failures);
}

/* ---- look-at chain ------------------------------------------------------ */

/* pelvis, spine, chest, neck, head, with an arm off the chest and a jaw off
 * the head so subtree updates are visible; the shoulder sits between the
 * chest and the neck in index order, off the chain's path. */
enum { PELVIS, SPINE, CHEST, SHOULDER, NECK, HEAD, ELBOW, JAW, BODY_JOINTS };
static const int body_parents[BODY_JOINTS] = {-1, PELVIS, SPINE, CHEST, CHEST, NECK, SHOULDER, HEAD};
static const char *const body_names[BODY_JOINTS] = {"pelvis", "spine", "chest", "shoulder",
                                                    "neck",   "head",  "elbow", "jaw"};

static ik_skeleton body_skeleton(ik_transform *rest_ls) {
    static const ik_real offsets[BODY_JOINTS][3] = {{0, 1, 0},     {0, 0.2f, 0}, {0, 0.2f, 0}, {0.15f, 0.2f, 0},
                                                    {0, 0.25f, 0}, {0, 0.1f, 0}, {0.3f, 0, 0}, {0, -0.05f, 0.08f}};
    ik_skeleton sk;
    int i;
    for (i = 0; i < BODY_JOINTS; ++i)
        rest_ls[i] =
            ik_transform_make(ik_v3(offsets[i][0], offsets[i][1], offsets[i][2]), ik_quat_identity(), ik_v3(1, 1, 1));
    ik_skeleton_init(&sk, BODY_JOINTS, body_parents, body_names, rest_ls, NULL);
    return sk;
}

/* A rotation of at most max_angle radians about a random axis. */
static ik_quat random_turn(rng *r, double max_angle) {
    return ik_quat_from_axis_angle(rng_direction(r), rng_range(r, 0, max_angle));
}

static ik_real bone_length(const ik_mat4 *model_ms, int joint) {
    return ik_vec3_distance(ik_mat4_translation(&model_ms[joint]), ik_mat4_translation(&model_ms[body_parents[joint]]));
}

static void test_chain_random(void) {
    rng r = rng_seeded(201);
    ik_transform rest_ls[BODY_JOINTS];
    ik_skeleton sk = body_skeleton(rest_ls);
    const int joints[3] = {SPINE, NECK, HEAD};
    check_property ok = {"chain solve ok", 0, 0};
    check_property fk = {"model_ms on exit is the FK of the new pose", 0, 0};
    check_property aimed = {"head's eye ray passes through the target", 0, 0};
    check_property up_side = {"head's up axis on the pole's side (plus twist)", 0, 0};
    check_property lengths = {"bone lengths, translations and scales unchanged", 0, 0};
    check_property others = {"joints outside the chain keep their rotations", 0, 0};
    check_property shares = {"each joint turns by its weight times the full aim at its step", 0, 0};
    long reached_count = 0;
    int i;
    for (i = 0; i < CHAIN_CASES; ++i) {
        ik_transform pose_ls[BODY_JOINTS], before_ls[BODY_JOINTS], step_ls[BODY_JOINTS];
        ik_mat4 model_ms[BODY_JOINTS], check_ms[BODY_JOINTS], before_ms[BODY_JOINTS];
        ik_mat4 root_ms = ik_mat4_from_trs(rng_in_ball(&r, 2), rng_rotation(&r), ik_v3(1, 1, 1));
        ik_real weights[3];
        ik_look_at_chain job = ik_look_at_chain_def();
        ik_bool reached = 0, roll_ok, len_ok = 1, others_ok = 1, share_ok = 1;
        ik_result res;
        ik_mat4 head_ms;
        ik_real roll, max_err = 0;
        int k, step;
        ik_skeleton_rest_pose(&sk, pose_ls);
        for (k = 0; k < BODY_JOINTS; ++k) pose_ls[k].rotation = random_turn(&r, 1.0);
        ik_skeleton_fk(&sk, pose_ls, &root_ms, model_ms);
        memcpy(before_ls, pose_ls, sizeof pose_ls);
        memcpy(before_ms, model_ms, sizeof model_ms);
        weights[0] = rng_range(&r, 0, 1);
        weights[1] = rng_range(&r, 0, 1);
        weights[2] = 0; /* not read: the head always finishes */
        job.skeleton = &sk;
        job.pose_ls = pose_ls;
        job.model_ms = model_ms;
        job.root_ms = &root_ms;
        job.joints = joints;
        job.weights = i % 4 ? weights : NULL;
        job.count = 3;
        job.target_ms = ik_vec3_mad(ik_mat4_translation(&model_ms[HEAD]), rng_direction(&r), rng_range(&r, 0.5, 5));
        job.pole_ms = i % 2 ? ik_v3(0, 1, 0) : rng_direction(&r);
        job.offset_ls = ik_v3(0, (ik_real)0.05, (ik_real)0.1);
        job.twist = i % 3 ? 0 : rng_range(&r, -1, 1);
        job.reached = &reached;
        res = ik_look_at_chain_run(&job);
        PROPERTY_CASE(ok, res == IK_OK, "result %d", (int)res);

        ik_skeleton_fk(&sk, pose_ls, &root_ms, check_ms);
        for (k = 0; k < BODY_JOINTS * 16; ++k)
            max_err = ik_maxr(max_err, IK_FABS(check_ms[k / 16].m[k % 16] - model_ms[k / 16].m[k % 16]));
        PROPERTY_CASE(fk, max_err < TOL_MATRIX, "max error %g", (double)max_err);

        head_ms = check_ms[HEAD];
        if (reached) {
            ray_report ray = ray_to_target(&head_ms, job.offset_ls, job.forward_ls, job.target_ms);
            ++reached_count;
            PROPERTY_CASE(aimed, ray.miss < TOL_DIST * ray.scale * 4 && ray.ahead > 0, "miss %g of %g",
                          (double)ray.miss, (double)ray.scale);
        }
        roll = roll_about(ik_mat4_transform_vector(&head_ms, job.up_ls), job.pole_ms,
                          ik_vec3_normalize(ik_vec3_sub(job.target_ms, ik_mat4_translation(&head_ms))), (ik_real)0.05,
                          &roll_ok);
        if (roll_ok)
            PROPERTY_CASE(up_side, IK_FABS(ik_wrap_angle(roll - job.twist)) < TOL_ANGLE, "roll %g", (double)roll);

        for (k = 1; k < BODY_JOINTS; ++k) {
            if (IK_FABS(bone_length(check_ms, k) - bone_length(before_ms, k)) > TOL_DIST) len_ok = 0;
            if (memcmp(&pose_ls[k].translation, &before_ls[k].translation, sizeof(ik_vec3)) != 0 ||
                memcmp(&pose_ls[k].scale, &before_ls[k].scale, sizeof(ik_vec3)) != 0)
                len_ok = 0;
            if (k != SPINE && k != NECK && k != HEAD &&
                memcmp(&pose_ls[k].rotation, &before_ls[k].rotation, sizeof(ik_quat)))
                others_ok = 0;
        }
        PROPERTY_CASE(lengths, len_ok, "");
        PROPERTY_CASE(others, others_ok, "");

        /* Replay: before step s the chain joints above s have their final
         * rotations and the rest their old ones. A full aim of joint s there
         * (the head's ray carried into s's frame) times its weight must be
         * what the chain applied. */
        memcpy(step_ls, before_ls, sizeof step_ls);
        for (step = 0; step < 2; ++step) {
            ik_mat4 step_ms[BODY_JOINTS], inv, rel;
            ik_quat full;
            ik_vec3 axis;
            ik_real angle, w = job.weights ? weights[step] : (ik_real)1 / (ik_real)(3 - step);
            ik_aim aim = ik_aim_def();
            int j = joints[step];
            ik_skeleton_fk(&sk, step_ls, &root_ms, step_ms);
            ik_mat4_inverse(&step_ms[j], &inv);
            rel = ik_mat4_mul(&inv, &step_ms[HEAD]);
            aim.joint_ms = &step_ms[j];
            aim.target_ms = job.target_ms;
            aim.pole_ms = job.pole_ms;
            aim.twist = job.twist;
            aim.offset_ls = ik_mat4_transform_point(&rel, job.offset_ls);
            aim.forward_ls = ik_mat4_transform_vector(&rel, job.forward_ls);
            aim.up_ls = ik_mat4_transform_vector(&rel, job.up_ls);
            aim.correction_ls = &full;
            ik_aim_run(&aim);
            ik_quat_to_axis_angle(full, &axis, &angle);
            if (rotation_between(ik_quat_mul(step_ls[j].rotation, ik_quat_from_axis_angle(axis, angle * w)),
                                 pose_ls[j].rotation) > TOL_ANGLE * 4)
                share_ok = 0;
            step_ls[j].rotation = pose_ls[j].rotation;
        }
        PROPERTY_CASE(shares, share_ok, "weights %g %g", (double)weights[0], (double)weights[1]);
    }
    CHECK(reached_count > CHAIN_CASES / 2, "most chain cases reachable (%ld)", reached_count);
    property_end(&ok);
    property_end(&fk);
    property_end(&aimed);
    property_end(&up_side);
    property_end(&lengths);
    property_end(&others);
    property_end(&shares);
}

/* Joints all on one point, rotations about +Y only: the shares are exact.
 * Joint 0 turns w0 theta, joint 1 w1 (1 - w0) theta, the last the rest. */
static void test_chain_colocated_shares(void) {
    static const int parents[4] = {-1, 0, 1, 2};
    ik_transform rest_ls[4], pose_ls[4];
    ik_mat4 model_ms[4];
    ik_skeleton sk;
    const int joints[3] = {1, 2, 3};
    const ik_real weights[2] = {(ik_real)0.25, (ik_real)0.6};
    int k, pass;
    for (k = 0; k < 4; ++k) rest_ls[k] = ik_transform_identity();
    CHECK(ik_skeleton_init(&sk, 4, parents, NULL, rest_ls, NULL) == IK_OK, "skeleton");
    for (pass = 0; pass < 2; ++pass) {
        ik_real theta = (ik_real)2.5, expected[3], total;
        ik_look_at_chain job = ik_look_at_chain_def();
        ik_skeleton_rest_pose(&sk, pose_ls);
        ik_skeleton_fk(&sk, pose_ls, NULL, model_ms);
        job.skeleton = &sk;
        job.pose_ls = pose_ls;
        job.model_ms = model_ms;
        job.joints = joints;
        job.weights = pass == 0 ? weights : NULL;
        job.count = 3;
        job.target_ms = ik_v3(3 * IK_SIN(theta), 0, 3 * IK_COS(theta));
        CHECK(ik_look_at_chain_run(&job) == IK_OK, "co-located chain");
        if (pass == 0) {
            expected[0] = weights[0] * theta;
            expected[1] = weights[1] * (theta - expected[0]);
        } else {
            expected[0] = theta / 3;
            expected[1] = theta / 3;
        }
        expected[2] = theta - expected[0] - expected[1];
        for (k = 0, total = 0; k < 3; ++k) {
            ik_quat want = ik_quat_from_axis_angle(ik_v3(0, 1, 0), expected[k]);
            total += ik_quat_twist_angle(pose_ls[joints[k]].rotation, ik_v3(0, 1, 0));
            CHECK(rotation_between(pose_ls[joints[k]].rotation, want) < TOL_ANGLE,
                  "pass %d joint %d: %g rad about +Y expected, got %g", pass, k, (double)expected[k],
                  (double)ik_quat_angle(pose_ls[joints[k]].rotation));
        }
        CHECK(IK_FABS(total - theta) < TOL_ANGLE, "shares add up to the full turn");
    }
}

/* Weights 0 above the head: only the head moves, and it is aimed. */
static void test_chain_zero_weights(void) {
    ik_transform rest_ls[BODY_JOINTS], pose_ls[BODY_JOINTS], before_ls[BODY_JOINTS];
    ik_mat4 model_ms[BODY_JOINTS];
    ik_skeleton sk = body_skeleton(rest_ls);
    const int joints[3] = {SPINE, NECK, HEAD};
    const ik_real weights[3] = {0, 0, 0};
    ik_look_at_chain job = ik_look_at_chain_def();
    ik_bool reached = 0;
    ray_report ray;
    ik_skeleton_rest_pose(&sk, pose_ls);
    ik_skeleton_fk(&sk, pose_ls, NULL, model_ms);
    memcpy(before_ls, pose_ls, sizeof pose_ls);
    job.skeleton = &sk;
    job.pose_ls = pose_ls;
    job.model_ms = model_ms;
    job.joints = joints;
    job.weights = weights;
    job.count = 3;
    job.target_ms = ik_v3(2, 1, 1);
    job.reached = &reached;
    CHECK(ik_look_at_chain_run(&job) == IK_OK && reached, "zero-weight chain");
    CHECK(memcmp(&pose_ls[SPINE], &before_ls[SPINE], sizeof(ik_transform)) == 0 &&
              memcmp(&pose_ls[NECK], &before_ls[NECK], sizeof(ik_transform)) == 0,
          "spine and neck untouched");
    ray = ray_to_target(&model_ms[HEAD], job.offset_ls, job.forward_ls, job.target_ms);
    CHECK(ray.miss < TOL_DIST * ray.scale && ray.ahead > 0, "head aimed alone");
    CHECK(ik_quat_angle(pose_ls[HEAD].rotation) > (ik_real)0.3, "head turned");
}

/* One joint: the chain is the plain aim. */
static void test_chain_single_joint(void) {
    ik_transform rest_ls[BODY_JOINTS], pose_ls[BODY_JOINTS];
    ik_mat4 model_ms[BODY_JOINTS];
    ik_skeleton sk = body_skeleton(rest_ls);
    const int joints[1] = {NECK};
    ik_look_at_chain job = ik_look_at_chain_def();
    ray_report ray;
    ik_skeleton_rest_pose(&sk, pose_ls);
    ik_skeleton_fk(&sk, pose_ls, NULL, model_ms);
    job.skeleton = &sk;
    job.pose_ls = pose_ls;
    job.model_ms = model_ms;
    job.joints = joints;
    job.count = 1;
    job.target_ms = ik_v3(-1, 3, 2);
    CHECK(ik_look_at_chain_run(&job) == IK_OK, "single-joint chain");
    ray = ray_to_target(&model_ms[NECK], job.offset_ls, job.forward_ls, job.target_ms);
    CHECK(ray.miss < TOL_DIST * ray.scale && ray.ahead > 0, "neck aimed");
}

static void test_chain_bad_input(void) {
    ik_transform rest_ls[BODY_JOINTS], pose_ls[BODY_JOINTS], before_ls[BODY_JOINTS];
    ik_mat4 model_ms[BODY_JOINTS], before_ms[BODY_JOINTS];
    ik_skeleton sk = body_skeleton(rest_ls);
    int joints[3] = {SPINE, NECK, HEAD};
    ik_real weights[3] = {(ik_real)0.5, (ik_real)0.5, 1};
    ik_look_at_chain job = ik_look_at_chain_def(), base;
    ik_skeleton_rest_pose(&sk, pose_ls);
    ik_skeleton_fk(&sk, pose_ls, NULL, model_ms);
    memcpy(before_ls, pose_ls, sizeof pose_ls);
    memcpy(before_ms, model_ms, sizeof model_ms);
    job.skeleton = &sk;
    job.pose_ls = pose_ls;
    job.model_ms = model_ms;
    job.joints = joints;
    job.weights = weights;
    job.count = 3;
    job.target_ms = ik_v3(0, 2, 3);
    base = job;

    CHECK(ik_look_at_chain_run(NULL) == IK_ERR_NULL, "NULL job");
    job.defaulted = 0;
    CHECK(ik_look_at_chain_run(&job) == IK_ERR_NOT_DEFAULTED, "a job without the _def() tag is refused");
    job = base;
    job.model_ms = NULL;
    CHECK(ik_look_at_chain_run(&job) == IK_ERR_NULL, "NULL model");
    job = base;
    job.count = 0;
    CHECK(ik_look_at_chain_run(&job) == IK_ERR_RANGE, "count 0");
    job = base;
    joints[2] = BODY_JOINTS;
    CHECK(ik_look_at_chain_run(&job) == IK_ERR_RANGE, "joint out of range");
    joints[2] = NECK;
    CHECK(ik_look_at_chain_run(&job) == IK_ERR_HIERARCHY, "a joint listed twice");
    joints[0] = HEAD;
    joints[2] = SPINE;
    CHECK(ik_look_at_chain_run(&job) == IK_ERR_HIERARCHY, "leaf-first order");
    joints[0] = SPINE;
    joints[1] = SHOULDER;
    joints[2] = HEAD;
    CHECK(ik_look_at_chain_run(&job) == IK_ERR_HIERARCHY, "a side branch is not an ancestor");
    joints[1] = NECK;
    weights[1] = (ik_real)1.5;
    CHECK(ik_look_at_chain_run(&job) == IK_ERR_RANGE, "weight above 1");
    weights[1] = (ik_real)NAN;
    CHECK(ik_look_at_chain_run(&job) == IK_ERR_NONFINITE, "NaN weight");
    weights[1] = (ik_real)0.5;
    job.target_ms.x = (ik_real)INFINITY;
    CHECK(ik_look_at_chain_run(&job) == IK_ERR_NONFINITE, "infinite target");
    job = base;
    pose_ls[JAW].translation.y = (ik_real)NAN;
    CHECK(ik_look_at_chain_run(&job) == IK_ERR_NONFINITE, "NaN in a pose forward kinematics would read");
    pose_ls[JAW] = before_ls[JAW];
    pose_ls[PELVIS].translation.y = (ik_real)NAN;
    CHECK(ik_look_at_chain_run(&job) == IK_OK, "NaN in a pose outside the updated subtree is not read");
    memcpy(pose_ls, before_ls, sizeof pose_ls);
    memcpy(model_ms, before_ms, sizeof model_ms);
    job.forward_ls = ik_vec3_zero();
    CHECK(ik_look_at_chain_run(&job) == IK_ERR_DEGENERATE, "zero forward");
    job = base;
    model_ms[NECK].m[0] = model_ms[NECK].m[1] = model_ms[NECK].m[2] = 0;
    CHECK(ik_look_at_chain_run(&job) == IK_ERR_DEGENERATE, "singular joint matrix");
    model_ms[NECK] = before_ms[NECK];
    CHECK(memcmp(pose_ls, before_ls, sizeof pose_ls) == 0 && memcmp(model_ms, before_ms, sizeof model_ms) == 0,
          "nothing written on any error");
    CHECK(ik_look_at_chain_run(&job) == IK_OK, "and the same job is fine once repaired");
}

/* A neck scaled by IK_REAL_MAX^0.3 (3e11 in float): every check before the
 * first step passes, the spine turns, and then the neck's frame times the
 * target's distance overflows at its own step. Nothing may stay written. */
static void test_chain_late_step_failure(void) {
    ik_transform rest_ls[BODY_JOINTS], pose_ls[BODY_JOINTS], before_ls[BODY_JOINTS];
    ik_mat4 model_ms[BODY_JOINTS], before_ms[BODY_JOINTS];
    const ik_real big = (ik_real)pow((double)IK_REAL_MAX, 0.3);
    ik_skeleton sk = body_skeleton(rest_ls);
    int joints[3] = {SPINE, NECK, HEAD};
    ik_look_at_chain job = ik_look_at_chain_def();
    ik_result result;
    rest_ls[NECK].scale = ik_v3(big, big, big);
    ik_skeleton_rest_pose(&sk, pose_ls);
    ik_skeleton_fk(&sk, pose_ls, NULL, model_ms);
    memcpy(before_ls, pose_ls, sizeof pose_ls);
    memcpy(before_ms, model_ms, sizeof model_ms);
    job.skeleton = &sk;
    job.pose_ls = pose_ls;
    job.model_ms = model_ms;
    job.joints = joints;
    job.count = 3;
    job.target_ms = ik_v3(1, 2, 3);
    result = ik_look_at_chain_run(&job);
    CHECK(result == IK_ERR_DEGENERATE, "an overflowing later step is refused (%s)", ik_result_str(result));
    CHECK(memcmp(pose_ls, before_ls, sizeof pose_ls) == 0 && memcmp(model_ms, before_ms, sizeof model_ms) == 0,
          "and the spine's turn, made before it, is undone: pose and model as on entry");
    job.count = IK_LOOK_AT_CHAIN_MAX + 1;
    CHECK(ik_look_at_chain_run(&job) == IK_ERR_RANGE, "a chain longer than IK_LOOK_AT_CHAIN_MAX is refused");
}

int main(void) {
    test_aim_defaults();
    test_aim_quarter_turn();
    test_aim_eye_offset();
    test_aim_target_on_origin();
    test_aim_zero_axes();
    test_aim_pole_along_aim_line();
    test_aim_target_behind();
    test_aim_target_inside_offset_reach();
    test_aim_target_between_joint_and_offset();
    test_aim_singular_joint();
    test_aim_bad_input();
    test_aim_random();
    test_aim_weight();
    test_aim_continuity();
    test_aim_nonuniform_parent();
    test_aim_extreme_scales();
    test_chain_colocated_shares();
    test_chain_zero_weights();
    test_chain_late_step_failure();
    test_chain_single_joint();
    test_chain_bad_input();
    test_chain_random();
    return check_summary("test_aim");
}

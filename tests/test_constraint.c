/* Joint constraints: projection lands inside, inside stays put, hinge
 * projection is the nearest allowed rotation, Euler round trips, validation. */
#include <ikit/constraint.h>

#include "support/check.h"
#include "support/rng.h"

#ifdef IKIT_DOUBLE
#define TOL 1e-9
#define ANGLE_TOL 1e-6
#else
#define TOL 2e-5f
#define ANGLE_TOL 2e-3f
#endif
#define CASES 50000

static ik_real rotation_distance(ik_quat a, ik_quat b) { return ik_quat_angle(ik_quat_mul(ik_quat_conjugate(a), b)); }

static ik_constraint random_constraint(rng *r, int type) {
    ik_quat reference = rng_rotation(r);
    ik_vec3 axis = rng_direction(r);
    ik_real lo = rng_range(r, -3.1, 3.1), hi = rng_range(r, -3.1, 3.1);
    if (lo > hi) {
        ik_real t = lo;
        lo = hi;
        hi = t;
    }
    if (type == IK_CONSTRAINT_HINGE) return ik_constraint_hinge(reference, axis, lo, hi);
    if (type == IK_CONSTRAINT_CONE_TWIST)
        return ik_constraint_cone_twist(reference, axis, rng_range(r, 0, 3.1), lo, hi);
    {
        ik_vec3 a = ik_v3(rng_range(r, -3.1, 3.1), rng_range(r, -1.5, 1.5), rng_range(r, -3.1, 3.1));
        ik_vec3 b = ik_v3(rng_range(r, -3.1, 3.1), rng_range(r, -1.5, 1.5), rng_range(r, -3.1, 3.1));
        ik_vec3 mn = ik_v3(ik_minr(a.x, b.x), ik_minr(a.y, b.y), ik_minr(a.z, b.z));
        ik_vec3 mx = ik_v3(ik_maxr(a.x, b.x), ik_maxr(a.y, b.y), ik_maxr(a.z, b.z));
        return ik_constraint_euler(reference, mn, mx);
    }
}

/* A rotation inside the limits, built from their own description. */
static ik_quat random_inside(rng *r, const ik_constraint *c) {
    ik_quat delta;
    if (c->type == IK_CONSTRAINT_HINGE) {
        delta = ik_quat_from_axis_angle(c->axis, rng_range(r, c->min_angle, c->max_angle));
    } else if (c->type == IK_CONSTRAINT_CONE_TWIST) {
        ik_vec3 swing_axis = ik_vec3_normalize(ik_vec3_reject(rng_direction(r), c->axis));
        ik_quat swing = ik_quat_from_axis_angle(swing_axis, rng_range(r, 0, c->cone_angle));
        ik_quat twist = ik_quat_from_axis_angle(c->axis, rng_range(r, c->min_angle, c->max_angle));
        delta = ik_quat_mul(swing, twist);
    } else {
        delta = ik_quat_from_euler(ik_v3(rng_range(r, c->euler_min.x, c->euler_max.x),
                                         rng_range(r, c->euler_min.y, c->euler_max.y),
                                         rng_range(r, c->euler_min.z, c->euler_max.z)));
    }
    return ik_quat_mul(c->reference_ls, delta);
}

static void test_projection(int type, const char *name_inside, const char *name_fixed, const char *name_idem) {
    rng r = rng_seeded(10 + (uint64_t)type);
    check_property inside = {name_inside, 0, 0};
    check_property fixed = {name_fixed, 0, 0};
    check_property idem = {name_idem, 0, 0};
    int i;
    for (i = 0; i < CASES; ++i) {
        ik_constraint c = random_constraint(&r, type);
        ik_quat q = rng_rotation(&r);
        ik_quat p = ik_constraint_apply(&c, q);
        ik_quat in = random_inside(&r, &c);
        ik_quat in_p = ik_constraint_apply(&c, in);
        PROPERTY_CASE(inside, ik_quat_finite(p) && ik_constraint_check(&c, p, ANGLE_TOL), "type %d", type);
        PROPERTY_CASE(fixed, rotation_distance(in, in_p) < ANGLE_TOL && ik_constraint_check(&c, in, ANGLE_TOL),
                      "moved by %g", (double)rotation_distance(in, in_p));
        PROPERTY_CASE(idem, rotation_distance(p, ik_constraint_apply(&c, p)) < ANGLE_TOL, "");
    }
    property_end(&inside);
    property_end(&fixed);
    property_end(&idem);
}

/* The hinge projection is the nearest allowed rotation: no sampled allowed
 * rotation is closer. */
static void test_hinge_nearest(void) {
    rng r = rng_seeded(20);
    check_property nearest = {"hinge projection is nearest", 0, 0};
    int i, k;
    for (i = 0; i < 5000; ++i) {
        ik_constraint c = random_constraint(&r, IK_CONSTRAINT_HINGE);
        ik_quat q = rng_rotation(&r);
        ik_real best = rotation_distance(q, ik_constraint_apply(&c, q));
        ik_real closest = 10;
        for (k = 0; k < 64; ++k) {
            ik_real d = rotation_distance(q, random_inside(&r, &c));
            if (d < closest) closest = d;
        }
        PROPERTY_CASE(nearest, best <= closest + ANGLE_TOL, "projection %g, sample %g", (double)best, (double)closest);
    }
    property_end(&nearest);
}

/* Rotations built outside the limits by a margin fail the check. */
static void test_outside_detected(void) {
    ik_quat ref = ik_quat_from_axis_angle(ik_v3(0, 0, 1), (ik_real)0.3);
    ik_constraint hinge = ik_constraint_hinge(ref, ik_v3(1, 0, 0), -1, 1);
    ik_constraint cone = ik_constraint_cone_twist(ref, ik_v3(0, 1, 0), (ik_real)0.5, (ik_real)-0.2, (ik_real)0.2);
    ik_constraint euler = ik_constraint_euler(ref, ik_v3(-1, (ik_real)-0.5, 0), ik_v3(1, (ik_real)0.5, (ik_real)0.1));
    ik_quat off_axis = ik_quat_mul(ref, ik_quat_from_axis_angle(ik_v3(0, 1, 0), (ik_real)0.1));
    ik_quat beyond = ik_quat_mul(ref, ik_quat_from_axis_angle(ik_v3(1, 0, 0), (ik_real)1.1));
    ik_quat wide = ik_quat_mul(ref, ik_quat_from_axis_angle(ik_v3(0, 0, 1), (ik_real)0.6));
    ik_quat twisted = ik_quat_mul(ref, ik_quat_from_axis_angle(ik_v3(0, 1, 0), (ik_real)0.3));
    ik_quat z_out = ik_quat_mul(ref, ik_quat_from_euler(ik_v3(0, 0, (ik_real)0.2)));
    CHECK(!ik_constraint_check(&hinge, off_axis, (ik_real)0.01), "hinge rejects a turn off its axis");
    CHECK(!ik_constraint_check(&hinge, beyond, (ik_real)0.01), "hinge rejects 1.1 rad past max 1");
    CHECK(ik_constraint_check(&hinge, ref, 0), "reference is inside");
    CHECK(!ik_constraint_check(&cone, wide, (ik_real)0.01), "cone rejects a 0.6 rad swing");
    CHECK(!ik_constraint_check(&cone, twisted, (ik_real)0.01), "cone rejects 0.3 rad twist");
    CHECK(!ik_constraint_check(&euler, z_out, (ik_real)0.01), "euler rejects z = 0.2");
    {
        ik_quat p = ik_constraint_apply(&cone, wide);
        ik_vec3 bone = ik_quat_rotate(ik_constraint_delta(&cone, p), ik_v3(0, 1, 0));
        CHECK(IK_FABS(ik_acos_safe(bone.y) - (ik_real)0.5) < ANGLE_TOL, "swing clamped to the cone rim: %g",
              (double)ik_acos_safe(bone.y));
    }
    {
        ik_quat p = ik_constraint_apply(&hinge, beyond);
        CHECK(rotation_distance(p, ik_quat_mul(ref, ik_quat_from_axis_angle(ik_v3(1, 0, 0), 1))) < ANGLE_TOL,
              "hinge clamps to max");
    }
    {
        /* Range [2.5, 3]; -3 rad is 0.28 from 3 around the circle but 5.5 from 2.5. */
        ik_constraint wrap = ik_constraint_hinge(ik_quat_identity(), ik_v3(0, 0, 1), (ik_real)2.5, 3);
        ik_quat p = ik_constraint_apply(&wrap, ik_quat_from_axis_angle(ik_v3(0, 0, 1), -3));
        CHECK(rotation_distance(p, ik_quat_from_axis_angle(ik_v3(0, 0, 1), 3)) < ANGLE_TOL,
              "outside angles go to the nearer end around the circle");
    }
    CHECK(ik_constraint_check(NULL, rng_rotation(&(rng){5}), 0), "NULL constraint is always satisfied");
}

static void test_euler_round_trip(void) {
    rng r = rng_seeded(30);
    check_property trip = {"quat -> euler -> quat", 0, 0};
    check_property lock = {"euler round trip at gimbal lock", 0, 0};
    int i;
    for (i = 0; i < CASES; ++i) {
        ik_quat q = rng_rotation(&r);
        ik_vec3 e = ik_euler_from_quat(q);
        ik_real y = (i & 1) ? IK_PI / 2 : -IK_PI / 2;
        ik_quat g = ik_quat_from_euler(ik_v3(rng_range(&r, -3, 3), y, rng_range(&r, -3, 3)));
        PROPERTY_CASE(trip, rotation_distance(q, ik_quat_from_euler(e)) < ANGLE_TOL && IK_FABS(e.y) <= IK_PI / 2 + TOL,
                      "err %g", (double)rotation_distance(q, ik_quat_from_euler(e)));
        PROPERTY_CASE(lock, rotation_distance(g, ik_quat_from_euler(ik_euler_from_quat(g))) < ANGLE_TOL * 10, "");
    }
    property_end(&trip);
    property_end(&lock);
}

static void test_cone_direction(void) {
    rng r = rng_seeded(40);
    check_property inside = {"clamped direction inside the cone, length kept", 0, 0};
    check_property fixed = {"direction inside the cone unchanged", 0, 0};
    int i;
    for (i = 0; i < CASES; ++i) {
        ik_vec3 c = rng_direction(&r);
        ik_vec3 d = ik_vec3_scale(rng_direction(&r), rng_range(&r, 0.1, 10));
        ik_real max_angle = rng_range(&r, 0, 3.1);
        ik_vec3 out = ik_direction_clamp_cone(d, c, max_angle);
        ik_real angle = ik_acos_safe(ik_vec3_dot(ik_vec3_normalize(out), c));
        ik_real before = ik_acos_safe(ik_vec3_dot(ik_vec3_normalize(d), c));
        PROPERTY_CASE(inside,
                      angle <= max_angle + ANGLE_TOL &&
                          IK_FABS(ik_vec3_length(out) - ik_vec3_length(d)) < TOL * 10 * ik_vec3_length(d),
                      "angle %g max %g", (double)angle, (double)max_angle);
        if (before <= max_angle - ANGLE_TOL)
            PROPERTY_CASE(fixed, ik_vec3_distance(out, d) < TOL * 10 * ik_vec3_length(d), "");
    }
    property_end(&inside);
    property_end(&fixed);
    {
        ik_vec3 out = ik_direction_clamp_cone(ik_v3(0, 0, -2), ik_v3(0, 0, 1), (ik_real)0.5);
        CHECK(ik_vec3_finite(out) && IK_FABS(ik_vec3_length(out) - 2) < TOL * 20 && out.z > 0, "opposite direction");
        CHECK(ik_vec3_length(ik_direction_clamp_cone(ik_vec3_zero(), ik_v3(0, 0, 1), (ik_real)0.5)) == 0,
              "zero stays zero");
    }
}

static void test_validate(void) {
    ik_constraint c = ik_constraint_hinge(ik_quat_identity(), ik_v3(0, 0, 1), -1, 1);
    ik_constraint bad;
    CHECK(ik_constraint_validate(&c) == IK_OK, "hinge ok");
    CHECK(ik_constraint_validate(NULL) == IK_ERR_NULL, "NULL");
    bad = c;
    bad.min_angle = 2;
    CHECK(ik_constraint_validate(&bad) == IK_ERR_RANGE, "min > max");
    bad = c;
    bad.max_angle = (ik_real)NAN;
    CHECK(ik_constraint_validate(&bad) == IK_ERR_NONFINITE, "NaN");
    bad = ik_constraint_hinge(ik_quat_identity(), ik_vec3_zero(), -1, 1);
    CHECK(ik_constraint_validate(&bad) == IK_ERR_DEGENERATE, "zero axis");
    bad = ik_constraint_cone_twist(ik_quat_identity(), ik_v3(0, 1, 0), 4, -1, 1);
    CHECK(ik_constraint_validate(&bad) == IK_ERR_RANGE, "cone beyond pi");
    bad = ik_constraint_euler(ik_quat_identity(), ik_v3(-1, -2, -1), ik_v3(1, 1, 1));
    CHECK(ik_constraint_validate(&bad) == IK_ERR_RANGE, "euler y beyond pi/2");
    bad = c;
    bad.reference_ls = ik_q(0, 0, 0, 0);
    CHECK(ik_constraint_validate(&bad) == IK_ERR_DEGENERATE, "zero reference");
    bad = c;
    bad.type = (ik_constraint_type)42;
    CHECK(ik_constraint_validate(&bad) == IK_ERR_RANGE, "unknown type");
    {
        ik_constraint none = ik_constraint_none();
        ik_quat q = ik_quat_from_axis_angle(ik_v3(0, 1, 0), 2);
        ik_quat p = ik_constraint_apply(&none, q);
        CHECK(ik_constraint_validate(&none) == IK_OK && p.x == q.x && p.y == q.y && p.z == q.z && p.w == q.w,
              "none leaves the rotation alone");
    }
}

int main(void) {
    test_projection(IK_CONSTRAINT_HINGE, "hinge: projection inside", "hinge: inside unchanged", "hinge: idempotent");
    test_projection(IK_CONSTRAINT_CONE_TWIST, "cone: projection inside", "cone: inside unchanged", "cone: idempotent");
    test_projection(IK_CONSTRAINT_EULER, "euler: projection inside", "euler: inside unchanged", "euler: idempotent");
    test_hinge_nearest();
    test_outside_detected();
    test_euler_round_trip();
    test_cone_direction();
    test_validate();
    return check_summary("constraint");
}

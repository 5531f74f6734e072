/* Math identities over many seeded random inputs. */
#include <ikit/math.h>
#include <ikit/result.h>
#include <math.h>
#include <string.h>

#include "support/check.h"
#include "support/rng.h"

#ifdef IKIT_DOUBLE
#define TOL 1e-9
#else
#define TOL 2e-5f
#endif
#define CASES 100000

/* q and -q are the same rotation. */
static ik_real quat_distance(ik_quat a, ik_quat b) {
    ik_real d = IK_FABS(ik_quat_dot(a, b));
    return 1 - ik_minr(d, 1);
}

static ik_real vec_err(ik_vec3 a, ik_vec3 b) { return ik_vec3_distance(a, b); }

static void test_quaternion_identities(void) {
    rng r = rng_seeded(1);
    check_property inverse = {"q * q^-1 = 1", 0, 0};
    check_property roundtrip = {"rotate then inverse-rotate", 0, 0};
    check_property length = {"rotation keeps length", 0, 0};
    check_property compose = {"(a b) v = a (b v)", 0, 0};
    check_property axis_angle = {"axis-angle round trip", 0, 0};
    int i;
    for (i = 0; i < CASES; ++i) {
        ik_quat a = rng_rotation(&r), b = rng_rotation(&r);
        ik_vec3 v = ik_vec3_scale(rng_direction(&r), rng_range(&r, 0.01, 10));
        ik_quat id = ik_quat_mul(a, ik_quat_inverse(a));
        ik_vec3 back = ik_quat_rotate(ik_quat_conjugate(a), ik_quat_rotate(a, v));
        ik_vec3 axis;
        ik_real angle;
        PROPERTY_CASE(inverse, quat_distance(id, ik_quat_identity()) < TOL, "w=%g", (double)id.w);
        PROPERTY_CASE(roundtrip, vec_err(back, v) < TOL * 10 * ik_vec3_length(v), "err=%g", (double)vec_err(back, v));
        PROPERTY_CASE(length,
                      IK_FABS(ik_vec3_length(ik_quat_rotate(a, v)) - ik_vec3_length(v)) < TOL * 10 * ik_vec3_length(v),
                      "");
        PROPERTY_CASE(compose,
                      vec_err(ik_quat_rotate(ik_quat_mul(a, b), v), ik_quat_rotate(a, ik_quat_rotate(b, v))) <
                          TOL * 10 * ik_vec3_length(v),
                      "");
        ik_quat_to_axis_angle(a, &axis, &angle);
        PROPERTY_CASE(axis_angle, quat_distance(ik_quat_from_axis_angle(axis, angle), a) < TOL * 10, "angle=%g",
                      (double)angle);
    }
    property_end(&inverse);
    property_end(&roundtrip);
    property_end(&length);
    property_end(&compose);
    property_end(&axis_angle);
}

static void test_from_to(void) {
    rng r = rng_seeded(2);
    check_property maps = {"from_to maps from onto to", 0, 0};
    check_property minimal = {"from_to is the minimum rotation", 0, 0};
    check_property opposite = {"from_to on opposite directions", 0, 0};
    check_property nearly = {"from_to on nearly opposite directions lands exactly, minimally", 0, 0};
    int i;
    for (i = 0; i < CASES; ++i) {
        ik_vec3 u = ik_vec3_scale(rng_direction(&r), rng_range(&r, 0.001, 100));
        ik_vec3 v = ik_vec3_scale(rng_direction(&r), rng_range(&r, 0.001, 100));
        ik_quat q = ik_quat_from_to(u, v);
        ik_vec3 got = ik_vec3_normalize(ik_quat_rotate(q, u));
        ik_real expected_angle = ik_acos_safe(ik_vec3_dot(ik_vec3_normalize(u), ik_vec3_normalize(v)));
        PROPERTY_CASE(maps, vec_err(got, ik_vec3_normalize(v)) < TOL * 20, "err=%g",
                      (double)vec_err(got, ik_vec3_normalize(v)));
        PROPERTY_CASE(minimal, IK_FABS(ik_quat_angle(q) - expected_angle) < (ik_real)(TOL * 200), "angle %g vs %g",
                      (double)ik_quat_angle(q), (double)expected_angle);
        {
            ik_quat h = ik_quat_from_to(u, ik_vec3_neg(u));
            ik_vec3 w = ik_vec3_normalize(ik_quat_rotate(h, u));
            PROPERTY_CASE(opposite, vec_err(w, ik_vec3_neg(ik_vec3_normalize(u))) < TOL * 20 && ik_quat_finite(h), "");
        }
        {
            /* -u turned by 1e-6 to 0.3 rad about an axis perpendicular to u:
             * past 170 degrees the half-way quaternion alone is mostly rounding. */
            ik_real off = (ik_real)pow(10.0, (double)rng_range(&r, -6, -0.5));
            ik_vec3 n = ik_vec3_normalize(ik_vec3_cross(u, rng_direction(&r)));
            ik_vec3 t = ik_quat_rotate(ik_quat_from_axis_angle(n, off), ik_vec3_neg(u));
            ik_quat h = ik_quat_from_to(u, t);
            ik_vec3 axis = ik_v3(h.x, h.y, h.z);
            ik_real err = vec_err(ik_vec3_normalize(ik_quat_rotate(h, u)), ik_vec3_normalize(t));
            PROPERTY_CASE(nearly,
                          err < TOL && IK_FABS(ik_vec3_dot(ik_vec3_normalize(axis), ik_vec3_normalize(u))) < TOL * 10,
                          "off %g: err %g", (double)off, (double)err);
        }
    }
    property_end(&nearly);
    property_end(&maps);
    property_end(&minimal);
    property_end(&opposite);
    CHECK(ik_quat_dot(ik_quat_from_to(ik_vec3_zero(), ik_v3(1, 0, 0)), ik_quat_identity()) == 1,
          "zero vector gives identity");
    CHECK(ik_vec3_distance(ik_quat_rotate(ik_quat_from_to(ik_v3(0, 0, 1), ik_v3(0, 0, -1)), ik_v3(0, 0, 1)),
                           ik_v3(0, 0, -1)) < TOL * 10,
          "exact opposite z");
}

static void test_swing_twist(void) {
    rng r = rng_seeded(3);
    check_property product = {"swing * twist = q", 0, 0};
    check_property twist_axis = {"twist turns about the axis", 0, 0};
    check_property swing_perp = {"swing axis is perpendicular to the axis", 0, 0};
    int i;
    for (i = 0; i < CASES; ++i) {
        ik_quat q = rng_rotation(&r), swing, twist;
        ik_vec3 n = rng_direction(&r);
        ik_quat_swing_twist(q, n, &swing, &twist);
        PROPERTY_CASE(product, quat_distance(ik_quat_mul(swing, twist), q) < TOL * 10, "");
        PROPERTY_CASE(twist_axis, vec_err(ik_quat_rotate(twist, n), n) < TOL * 20, "");
        PROPERTY_CASE(swing_perp, IK_FABS(swing.x * n.x + swing.y * n.y + swing.z * n.z) < TOL * 50, "");
    }
    property_end(&product);
    property_end(&twist_axis);
    property_end(&swing_perp);
}

static void test_interpolation(void) {
    rng r = rng_seeded(4);
    check_property ends = {"slerp and nlerp hit both ends", 0, 0};
    check_property halfway = {"slerp halfway halves the angle", 0, 0};
    int i;
    for (i = 0; i < CASES / 10; ++i) {
        ik_quat a = rng_rotation(&r), b = rng_rotation(&r);
        ik_quat d = ik_quat_mul(ik_quat_conjugate(a), b);
        ik_quat m = ik_quat_slerp(a, b, (ik_real)0.5);
        ik_real full = ik_quat_angle(d);
        ik_real half = ik_quat_angle(ik_quat_mul(ik_quat_conjugate(a), m));
        PROPERTY_CASE(
            ends,
            quat_distance(ik_quat_slerp(a, b, 0), a) < TOL && quat_distance(ik_quat_slerp(a, b, 1), b) < TOL &&
                quat_distance(ik_quat_nlerp(a, b, 0), a) < TOL && quat_distance(ik_quat_nlerp(a, b, 1), b) < TOL,
            "");
        PROPERTY_CASE(halfway, IK_FABS(half * 2 - full) < (ik_real)(TOL * 50), "half %g full %g", (double)half,
                      (double)full);
    }
    property_end(&ends);
    property_end(&halfway);
}

static void test_look(void) {
    rng r = rng_seeded(5);
    check_property forward = {"look: forward axis onto forward", 0, 0};
    check_property up = {"look: up axis on the up side", 0, 0};
    int i;
    ik_vec3 fa = ik_v3(0, 0, 1), ua = ik_v3(0, 1, 0);
    for (i = 0; i < CASES; ++i) {
        ik_vec3 f = rng_direction(&r), u = rng_direction(&r);
        ik_quat q = ik_quat_look(fa, ua, f, u);
        ik_vec3 up_now = ik_quat_rotate(q, ua);
        ik_real s = ik_vec3_length(ik_vec3_cross(f, u));
        PROPERTY_CASE(forward, vec_err(ik_quat_rotate(q, fa), f) < TOL * 20, "");
        /* Away from the fade zone the up axis lies in the (f, u) plane on u's side. */
        if (s > (ik_real)0.2) {
            ik_vec3 pu = ik_vec3_normalize(ik_vec3_reject(u, f));
            PROPERTY_CASE(up, ik_vec3_dot(up_now, pu) > 1 - (ik_real)(TOL * 100), "dot=%g",
                          (double)ik_vec3_dot(up_now, pu));
        }
    }
    property_end(&forward);
    property_end(&up);
    /* No flip: sweeping forward through the up direction changes the result smoothly. */
    {
        ik_quat prev = ik_quat_look(fa, ua, ik_v3(0, -1, (ik_real)0.001), ik_v3(0, 1, 0));
        ik_real worst = 0;
        int k;
        for (k = 1; k <= 2000; ++k) {
            ik_real t = (ik_real)k / 2000 * IK_PI;
            ik_vec3 f = ik_v3((ik_real)0.02, -IK_COS(t), IK_SIN(t));
            ik_quat q = ik_quat_look(fa, ua, f, ik_v3(0, 1, 0));
            ik_real step = ik_quat_angle(ik_quat_mul(ik_quat_conjugate(prev), q));
            worst = ik_maxr(worst, step);
            prev = q;
        }
        CHECK(worst < (ik_real)0.2, "largest step while sweeping past the up vector: %g rad", (double)worst);
    }
}

static void test_matrices(void) {
    rng r = rng_seeded(6);
    check_property inv = {"M^-1 M p = p", 0, 0};
    check_property trs = {"TRS matrix matches transform_point", 0, 0};
    check_property decompose = {"decompose(TRS) = TRS", 0, 0};
    check_property tmul = {"transform_mul matches matrix product", 0, 0};
    check_property tinv = {"transform inverse", 0, 0};
    int i;
    for (i = 0; i < CASES / 10; ++i) {
        ik_vec3 t = rng_in_ball(&r, 10);
        ik_quat q = rng_rotation(&r);
        ik_real us = rng_range(&r, 0.2, 3);
        ik_vec3 s = ik_v3(rng_range(&r, 0.2, 3), rng_range(&r, 0.2, 3), rng_range(&r, 0.2, 3));
        ik_transform a = ik_transform_make(t, q, s);
        ik_transform b = ik_transform_make(rng_in_ball(&r, 5), rng_rotation(&r), ik_v3(us, us, us));
        ik_mat4 m = ik_transform_to_mat4(a), mi;
        ik_vec3 p = rng_in_ball(&r, 5);
        ik_transform d;
        ik_bool ok = ik_mat4_inverse(&m, &mi);
        PROPERTY_CASE(inv, ok && vec_err(ik_mat4_transform_point(&mi, ik_mat4_transform_point(&m, p)), p) < TOL * 200,
                      "");
        PROPERTY_CASE(trs, vec_err(ik_mat4_transform_point(&m, p), ik_transform_point(a, p)) < TOL * 200, "");
        d = ik_transform_from_mat4(&m);
        PROPERTY_CASE(decompose,
                      vec_err(d.translation, t) < TOL * 100 && vec_err(d.scale, s) < TOL * 100 &&
                          quat_distance(d.rotation, q) < TOL * 10,
                      "");
        {
            /* b has uniform scale, so b * a is exact. */
            ik_mat4 mb = ik_transform_to_mat4(b);
            ik_mat4 prod = ik_mat4_mul(&mb, &m);
            ik_transform ba = ik_transform_mul(b, a);
            PROPERTY_CASE(tmul, vec_err(ik_mat4_transform_point(&prod, p), ik_transform_point(ba, p)) < TOL * 300, "");
            PROPERTY_CASE(tinv,
                          vec_err(ik_transform_point(ik_transform_inverse(b), ik_transform_point(b, p)), p) < TOL * 300,
                          "");
        }
    }
    property_end(&inv);
    property_end(&trs);
    property_end(&decompose);
    property_end(&tmul);
    property_end(&tinv);
    {
        ik_mat4 z = ik_mat4_from_trs(ik_v3(1, 2, 3), ik_quat_identity(), ik_v3(1, 0, 1)), out;
        CHECK(!ik_mat4_inverse(&z, &out), "singular matrix reports failure");
        CHECK(ik_mat4_finite(&out), "singular inverse output is finite");
        z.m[5] = (ik_real)NAN;
        CHECK(!ik_mat4_inverse(&z, &out), "NaN matrix reports failure");
    }
}

/* A turn about axis a inside a frame M (rotation, uniform scale, possibly a
 * mirror) seen from outside, M R(a, theta) M^-1, is the turn by theta
 * about ik_mat4_transform_turn_axis(M, a) (normalised); and the axis goes
 * back in through M^-1. Under a mirror the plain M a turns the wrong way. */
static void test_turn_axis(void) {
    static const ik_real mirrors[4][3] = {{1, 1, 1}, {-1, 1, 1}, {-1, -1, -1}, {1, -1, 1}};
    rng r = rng_seeded(8);
    check_property outside = {"M R(a) M^-1 = R(turn axis)", 0, 0}, inside = {"the turn axis goes back in", 0, 0};
    int i;
    for (i = 0; i < CASES / 10; ++i) {
        const ik_real *m = mirrors[i % 4];
        ik_real s = rng_range(&r, 0.1, 10), theta = rng_range(&r, -3, 3);
        ik_mat4 frame = ik_mat4_from_trs(rng_in_ball(&r, 5), rng_rotation(&r), ik_v3(s * m[0], s * m[1], s * m[2]));
        ik_mat4 frame_inverse;
        ik_vec3 a = rng_direction(&r), p = rng_in_ball(&r, 3), axis_out, seen, expected;
        ik_bool ok = ik_mat4_inverse(&frame, &frame_inverse);
        axis_out = ik_vec3_normalize(ik_mat4_transform_turn_axis(&frame, a));
        seen = ik_mat4_transform_point(
            &frame, ik_quat_rotate(ik_quat_from_axis_angle(a, theta), ik_mat4_transform_point(&frame_inverse, p)));
        expected = ik_vec3_add(
            ik_mat4_translation(&frame),
            ik_quat_rotate(ik_quat_from_axis_angle(axis_out, theta), ik_vec3_sub(p, ik_mat4_translation(&frame))));
        PROPERTY_CASE(outside, ok && vec_err(seen, expected) < TOL * 300, "mirror %d", i % 4);
        PROPERTY_CASE(
            inside,
            ok && vec_err(ik_vec3_normalize(ik_mat4_transform_turn_axis(&frame_inverse, axis_out)), a) < TOL * 100,
            "mirror %d", i % 4);
    }
    property_end(&outside);
    property_end(&inside);
}

static void test_misc(void) {
    rng r = rng_seeded(7);
    check_property perp = {"any_perpendicular", 0, 0};
    int i;
    for (i = 0; i < CASES; ++i) {
        ik_vec3 n = rng_direction(&r);
        ik_vec3 p = ik_vec3_any_perpendicular(n);
        PROPERTY_CASE(perp, IK_FABS(ik_vec3_dot(n, p)) < TOL * 10 && IK_FABS(ik_vec3_length(p) - 1) < TOL * 10, "");
    }
    property_end(&perp);
    CHECK(!ik_finite((ik_real)NAN) && !ik_finite((ik_real)INFINITY) && ik_finite(1), "ik_finite");
    CHECK(ik_vec3_length(ik_vec3_normalize(ik_vec3_zero())) == 1, "normalize(0) gives a unit fallback");
    CHECK(ik_quat_finite(ik_quat_normalize(ik_q(0, 0, 0, 0))), "normalize(0 quat) is finite");
    CHECK(strcmp(ik_result_str(IK_OK), "ok") == 0 && strlen(ik_result_str(IK_ERR_PARSE)) > 0 &&
              strcmp(ik_result_str((ik_result)999), "unknown result code") == 0,
          "result messages");
    CHECK(IK_FABS(ik_quat_twist_angle(ik_quat_from_axis_angle(ik_v3(0, 0, 1), (ik_real)0.7), ik_v3(0, 0, 1)) -
                  (ik_real)0.7) < TOL * 10,
          "twist angle");
}

/* Wrapping keeps the angle's sine and cosine and lands in (-pi, pi], also
 * for angles so large that a step of 2 pi leaves them unchanged (which
 * used to loop forever). */
static void test_wrap_angle(void) {
    rng r = rng_seeded(9);
    check_property same = {"wrap keeps sin and cos, lands in (-pi, pi]", 0, 0};
    int i;
    for (i = 0; i < CASES; ++i) {
        ik_real a = (ik_real)(rng_range(&r, -1, 1) * pow(10.0, rng_range(&r, 0, 20))), w = ik_wrap_angle(a);
        PROPERTY_CASE(same,
                      w > -IK_PI && w <= IK_PI && IK_FABS(IK_SIN(w) - IK_SIN(a)) < 1e-5f &&
                          IK_FABS(IK_COS(w) - IK_COS(a)) < 1e-5f,
                      "a %g -> %g", (double)a, (double)w);
    }
    property_end(&same);
    CHECK(ik_wrap_angle(IK_PI) == IK_PI && ik_wrap_angle(-IK_PI) == IK_PI && ik_wrap_angle(0) == 0,
          "pi stays, -pi becomes pi");
    CHECK(!ik_finite(ik_wrap_angle((ik_real)INFINITY)) && !ik_finite(ik_wrap_angle((ik_real)NAN)),
          "infinity and NaN give NaN, and return");
}

int main(void) {
    test_quaternion_identities();
    test_from_to();
    test_swing_twist();
    test_interpolation();
    test_look();
    test_matrices();
    test_turn_axis();
    test_misc();
    test_wrap_angle();
    return check_summary("math");
}

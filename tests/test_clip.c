/* Clip sampling per glTF 2.0 animation samplers: LINEAR (slerp for
 * rotations), STEP, CUBICSPLINE Hermite (Appendix C), clamping outside the
 * keys, and validation. */
#include <ikit/clip.h>
#include <ikit/skeleton.h>

#include <string.h>

#include "support/check.h"
#include "support/rng.h"

#ifdef IKIT_DOUBLE
#define TOL 1e-9
#else
#define TOL 2e-5
#endif

static ik_channel make_channel(int joint, ik_channel_path path, ik_interpolation interp, int keys, const ik_real *times,
                               const ik_real *values) {
    ik_channel ch;
    ch.joint = joint;
    ch.path = path;
    ch.interpolation = interp;
    ch.key_count = keys;
    ch.times = times;
    ch.values = values;
    return ch;
}

static void test_linear_translation(void) {
    ik_real times[3] = {1, 2, 4};
    ik_real values[9] = {0, 0, 0, 2, 4, 6, 2, 4, 10};
    ik_channel ch = make_channel(0, IK_CHANNEL_TRANSLATION, IK_INTERP_LINEAR, 3, times, values);
    ik_real v[3];
    ik_channel_sample(&ch, (ik_real)1.5, v);
    CHECK(IK_FABS(v[0] - 1) < TOL && IK_FABS(v[1] - 2) < TOL && IK_FABS(v[2] - 3) < TOL, "halfway: %g %g %g",
          (double)v[0], (double)v[1], (double)v[2]);
    ik_channel_sample(&ch, 3, v);
    CHECK(IK_FABS(v[2] - 8) < TOL && IK_FABS(v[0] - 2) < TOL, "second segment: %g", (double)v[2]);
    ik_channel_sample(&ch, 2, v);
    CHECK(v[0] == 2 && v[1] == 4 && v[2] == 6, "exactly at a key gives the key");
    ik_channel_sample(&ch, -5, v);
    CHECK(v[0] == 0 && v[1] == 0 && v[2] == 0, "before the first key: clamped to it");
    ik_channel_sample(&ch, 100, v);
    CHECK(v[0] == 2 && v[1] == 4 && v[2] == 10, "after the last key: clamped to it");
}

/* Slerp turns at constant angular speed about the fixed axis between keys. */
static void test_linear_rotation_slerp(void) {
    rng r = rng_seeded(11);
    check_property speed = {"slerp angle grows linearly with u", 0, 0};
    check_property axis_fixed = {"slerp stays on the keys' great circle", 0, 0};
    int i;
    for (i = 0; i < 2000; ++i) {
        ik_vec3 axis = rng_direction(&r);
        ik_real angle = rng_range(&r, 0.01, 3.0), u = rng_range(&r, 0, 1);
        ik_quat q0 = rng_rotation(&r), step = ik_quat_from_axis_angle(axis, angle), q1 = ik_quat_mul(step, q0);
        ik_real times[2] = {0, 2};
        ik_real values[8] = {q0.x, q0.y, q0.z, q0.w, q1.x, q1.y, q1.z, q1.w};
        ik_channel ch = make_channel(0, IK_CHANNEL_ROTATION, IK_INTERP_LINEAR, 2, times, values);
        ik_real v[4];
        ik_quat got, rel, expected;
        ik_channel_sample(&ch, 2 * u, v);
        got = ik_q(v[0], v[1], v[2], v[3]);
        rel = ik_quat_mul(got, ik_quat_conjugate(q0));
        expected = ik_quat_mul(ik_quat_from_axis_angle(axis, angle * u), q0);
        PROPERTY_CASE(speed, IK_FABS(ik_quat_angle(rel) - angle * u) < 1e-3, "angle %g vs %g",
                      (double)ik_quat_angle(rel), (double)(angle * u));
        PROPERTY_CASE(axis_fixed, 1 - IK_FABS(ik_quat_dot(got, expected)) < 1e-5, "u=%g", (double)u);
    }
    property_end(&speed);
    property_end(&axis_fixed);
}

/* Keys q and -q' with q' near q: the shorter arc is taken, so the midpoint is
 * near q rather than half a turn away. */
static void test_slerp_shorter_arc(void) {
    ik_quat q0 = ik_quat_from_axis_angle(ik_v3(0, 1, 0), (ik_real)0.2);
    ik_quat q1 = ik_quat_neg(ik_quat_from_axis_angle(ik_v3(0, 1, 0), (ik_real)0.4));
    ik_real times[2] = {0, 1};
    ik_real values[8] = {q0.x, q0.y, q0.z, q0.w, q1.x, q1.y, q1.z, q1.w};
    ik_channel ch = make_channel(0, IK_CHANNEL_ROTATION, IK_INTERP_LINEAR, 2, times, values);
    ik_real v[4];
    ik_channel_sample(&ch, (ik_real)0.5, v);
    CHECK(IK_FABS(ik_quat_angle(ik_q(v[0], v[1], v[2], v[3])) - (ik_real)0.3) < 1e-4, "midpoint turns 0.3 rad: %g",
          (double)ik_quat_angle(ik_q(v[0], v[1], v[2], v[3])));
}

static void test_step(void) {
    ik_real times[3] = {0, 1, 2};
    ik_real values[9] = {1, 1, 1, 2, 2, 2, 3, 3, 3};
    ik_channel ch = make_channel(0, IK_CHANNEL_SCALE, IK_INTERP_STEP, 3, times, values);
    ik_real v[3];
    ik_channel_sample(&ch, (ik_real)0.999, v);
    CHECK(v[0] == 1, "holds the previous key up to the next: %g", (double)v[0]);
    ik_channel_sample(&ch, 1, v);
    CHECK(v[0] == 2, "switches at the key time");
    ik_channel_sample(&ch, (ik_real)1.5, v);
    CHECK(v[1] == 2, "holds");
    ik_channel_sample(&ch, 9, v);
    CHECK(v[2] == 3, "after the end");
}

/* A cubic f(t) sampled with keys f(t_k) and tangents f'(t_k) is reproduced
 * exactly by the Hermite spline of Appendix C, whatever the key spacing:
 * this checks the basis and that tangents are scaled by the key interval. */
static void test_cubicspline_reproduces_cubics(void) {
    rng r = rng_seeded(12);
    check_property exact = {"CUBICSPLINE reproduces cubic polynomials", 0, 0};
    int i, k, c;
    for (i = 0; i < 500; ++i) {
        ik_real coef[3][4], times[5], values[5 * 9];
        ik_channel ch;
        times[0] = rng_range(&r, -1, 1);
        for (k = 1; k < 5; ++k) times[k] = times[k - 1] + rng_range(&r, 0.05, 2);
        for (c = 0; c < 3; ++c)
            for (k = 0; k < 4; ++k) coef[c][k] = rng_range(&r, -1, 1);
        for (k = 0; k < 5; ++k) {
            ik_real t = times[k];
            for (c = 0; c < 3; ++c) {
                ik_real f = coef[c][0] + t * (coef[c][1] + t * (coef[c][2] + t * coef[c][3]));
                ik_real df = coef[c][1] + t * (2 * coef[c][2] + 3 * t * coef[c][3]);
                values[9 * k + c] = df;     /* in-tangent */
                values[9 * k + 3 + c] = f;  /* value */
                values[9 * k + 6 + c] = df; /* out-tangent */
            }
        }
        ch = make_channel(0, IK_CHANNEL_TRANSLATION, IK_INTERP_CUBICSPLINE, 5, times, values);
        for (k = 0; k < 20; ++k) {
            ik_real t = times[0] + (times[4] - times[0]) * rng_range(&r, 0, 1), v[3], worst = 0;
            ik_channel_sample(&ch, t, v);
            for (c = 0; c < 3; ++c)
                worst =
                    ik_maxr(worst, IK_FABS(v[c] - (coef[c][0] + t * (coef[c][1] + t * (coef[c][2] + t * coef[c][3])))));
            PROPERTY_CASE(exact, worst < 1e-3, "t=%g err=%g", (double)t, (double)worst);
        }
    }
    property_end(&exact);
}

/* Zero tangents give the smoothstep blend 3u^2 - 2u^3; the in-tangent of the
 * first key and the out-tangent of the last never matter; the value, not a
 * tangent, comes out at and beyond the ends. */
static void test_cubicspline_layout(void) {
    ik_real times[2] = {2, 4};
    ik_real values[2 * 9] = {9, 9, 9, 0,  0,  0,  0, 0, 0, /* key 0: in (ignored), value, out */
                             0, 0, 0, 10, 20, 30, 9, 9, 9 /* key 1: in, value, out (ignored) */};
    ik_channel ch = make_channel(0, IK_CHANNEL_SCALE, IK_INTERP_CUBICSPLINE, 2, times, values);
    ik_real v[3], u = (ik_real)0.25;
    ik_channel_sample(&ch, 2 + 2 * u, v);
    CHECK(IK_FABS(v[0] - 10 * (3 * u * u - 2 * u * u * u)) < TOL &&
              IK_FABS(v[2] - 30 * (3 * u * u - 2 * u * u * u)) < TOL,
          "smoothstep: %g", (double)v[0]);
    ik_channel_sample(&ch, 1, v);
    CHECK(v[0] == 0 && v[1] == 0, "before: first value, not its in-tangent");
    ik_channel_sample(&ch, 5, v);
    CHECK(v[0] == 10 && v[1] == 20 && v[2] == 30, "after: last value, not its out-tangent");
}

static void test_cubicspline_rotation_normalised(void) {
    ik_quat a = ik_quat_identity(), b = ik_quat_from_axis_angle(ik_v3(1, 0, 0), (ik_real)1.2);
    ik_real times[2] = {0, 1};
    ik_real values[24] = {0,   0,   0,   0,   a.x, a.y, a.z, a.w, (ik_real)0.3, 0, 0, 0, (ik_real)0.3, 0, 0, 0,
                          b.x, b.y, b.z, b.w, 0,   0,   0,   0};
    ik_channel ch = make_channel(0, IK_CHANNEL_ROTATION, IK_INTERP_CUBICSPLINE, 2, times, values);
    ik_real v[4];
    int i, ok = 1;
    for (i = 0; i <= 10; ++i) {
        ik_channel_sample(&ch, (ik_real)i / 10, v);
        ok &= IK_FABS(ik_quat_length(ik_q(v[0], v[1], v[2], v[3])) - 1) < TOL;
    }
    CHECK(ok, "spline rotations come out unit length");
}

/* Equal key times (a jump) give a key value, never a division by zero. */
static void test_repeated_times(void) {
    ik_real times[3] = {0, 1, 1};
    ik_real values[9] = {0, 0, 0, 1, 1, 1, 5, 5, 5};
    ik_channel ch = make_channel(0, IK_CHANNEL_TRANSLATION, IK_INTERP_LINEAR, 3, times, values);
    ik_real v[3];
    ik_channel_sample(&ch, 1, v);
    CHECK(ik_finite(v[0]) && v[0] == 5, "at the jump: the later key: %g", (double)v[0]);
    ik_channel_sample(&ch, (ik_real)0.5, v);
    CHECK(IK_FABS(v[0] - (ik_real)0.5) < TOL, "before the jump: %g", (double)v[0]);
}

/* The clip writes only the properties it has channels for; FK of the
 * sampled pose puts the tip where the keys say. */
static void test_clip_sample_pose(void) {
    static const int parents[2] = {-1, 0};
    ik_transform rest[2], pose[2];
    ik_skeleton s;
    ik_mat4 model[2];
    ik_quat turn = ik_quat_from_axis_angle(ik_v3(0, 0, 1), IK_PI / 2);
    ik_real times[2] = {0, 1};
    ik_real rot[8] = {0, 0, 0, 1, turn.x, turn.y, turn.z, turn.w};
    ik_real move[6] = {0, 0, 0, 4, 0, 0};
    ik_channel channels[2];
    ik_clip clip;
    ik_vec3 tip;
    rest[0] = ik_transform_identity();
    rest[1] = ik_transform_make(ik_v3(1, 0, 0), ik_quat_identity(), ik_v3(1, 1, 1));
    CHECK(ik_skeleton_init(&s, 2, parents, NULL, rest, NULL) == IK_OK, "skeleton");
    channels[0] = make_channel(0, IK_CHANNEL_ROTATION, IK_INTERP_LINEAR, 2, times, rot);
    channels[1] = make_channel(0, IK_CHANNEL_TRANSLATION, IK_INTERP_LINEAR, 2, times, move);
    clip.name = "turn";
    clip.duration = 1;
    clip.channel_count = 2;
    clip.channels = channels;
    CHECK(ik_clip_validate(&clip, 2, NULL) == IK_OK, "valid clip");
    ik_skeleton_rest_pose(&s, pose);
    ik_clip_sample(&clip, 1, pose);
    ik_skeleton_fk(&s, pose, NULL, model);
    tip = ik_mat4_translation(&model[1]);
    CHECK(ik_vec3_distance(tip, ik_v3(4, 1, 0)) < 1e-5, "tip at (4, 1, 0): %g %g %g", (double)tip.x, (double)tip.y,
          (double)tip.z);
    CHECK(pose[1].translation.x == 1 && pose[0].scale.x == 1, "untouched properties keep the rest pose");
    ik_clip_sample(&clip, (ik_real)0.5, pose);
    ik_skeleton_fk(&s, pose, NULL, model);
    tip = ik_mat4_translation(&model[1]);
    CHECK(ik_vec3_distance(tip, ik_v3(2 + IK_COS(IK_PI / 4), IK_SIN(IK_PI / 4), 0)) < 1e-5, "tip halfway");
}

static void test_validation(void) {
    ik_real times[2] = {0, 1}, bad_times[2] = {1, 0}, nan_times[2] = {0, 0};
    ik_real values[8] = {0, 0, 0, 1, 0, 0, 0, 1}, nan_values[8] = {0, 0, 0, 1, 0, 0, 0, 1};
    ik_channel ch[2];
    ik_clip clip;
    int bad = -7;
    volatile ik_real zero = 0;
    nan_times[1] = zero / zero;
    nan_values[5] = 1 / zero;
    clip.name = NULL;
    clip.duration = 1;
    clip.channels = ch;
    clip.channel_count = 2;
    ch[0] = make_channel(0, IK_CHANNEL_ROTATION, IK_INTERP_LINEAR, 2, times, values);
    ch[1] = make_channel(1, IK_CHANNEL_ROTATION, IK_INTERP_STEP, 2, times, values);
    CHECK(ik_clip_validate(&clip, 2, &bad) == IK_OK && bad == -1, "valid");
    CHECK(ik_clip_validate(NULL, 2, NULL) == IK_ERR_NULL, "NULL clip");
    CHECK(ik_clip_validate(&clip, 1, &bad) == IK_ERR_RANGE && bad == 1, "joint out of range names channel 1");
    ch[1].joint = -1;
    CHECK(ik_clip_validate(&clip, 2, &bad) == IK_ERR_RANGE && bad == 1, "negative joint");
    ch[1].joint = 1;
    ch[1].times = bad_times;
    CHECK(ik_clip_validate(&clip, 2, &bad) == IK_ERR_RANGE, "decreasing times");
    ch[1].times = nan_times;
    CHECK(ik_clip_validate(&clip, 2, &bad) == IK_ERR_NONFINITE, "NaN time");
    ch[1].times = times;
    ch[1].values = nan_values;
    CHECK(ik_clip_validate(&clip, 2, &bad) == IK_ERR_NONFINITE, "infinite value");
    ch[1].values = NULL;
    CHECK(ik_clip_validate(&clip, 2, &bad) == IK_ERR_NULL, "missing values");
    ch[1].values = values;
    ch[1].key_count = 0;
    CHECK(ik_clip_validate(&clip, 2, &bad) == IK_ERR_RANGE, "no keys");
    ch[1].key_count = 2;
    ch[1].path = (ik_channel_path)7;
    CHECK(ik_clip_validate(&clip, 2, &bad) == IK_ERR_RANGE, "unknown path");
    ch[1].path = IK_CHANNEL_ROTATION;
    ch[1].interpolation = (ik_interpolation)9;
    CHECK(ik_clip_validate(&clip, 2, &bad) == IK_ERR_RANGE, "unknown interpolation");
    ch[1].interpolation = IK_INTERP_LINEAR;
    clip.channel_count = -1;
    CHECK(ik_clip_validate(&clip, 2, &bad) == IK_ERR_RANGE, "negative channel count");
}

/* Found by fuzz_glb: finite tangents times a finite key interval past the
 * largest real (tangent REAL_MAX / 8 over an interval of 1e20 seconds) gave
 * inf and NaN scales. Such a segment is sampled linearly: finite, between
 * its two values; an ordinary segment of the same channel is untouched. */
static void test_cubicspline_overflowing_tangents(void) {
    const ik_real big = IK_REAL_MAX / 8;
    ik_real times[3] = {0, (ik_real)1e20, (ik_real)1e20 + (ik_real)1e19};
    ik_real values[3 * 9] = {0,   0,   0,    1, 2, 3, big, -big, big, /* key 0: in, value, out */
                             big, big, -big, 5, 6, 7, 0,   0,    0,   /* key 1 */
                             0,   0,   0,    5, 6, 7, 0,   0,    0};  /* key 2 */
    ik_channel ch = make_channel(0, IK_CHANNEL_SCALE, IK_INTERP_CUBICSPLINE, 3, times, values);
    ik_real v[3];
    int i, ok = 1;
    for (i = 1; i < 10; ++i) {
        ik_real u = (ik_real)i / 10;
        ik_channel_sample(&ch, times[1] * u, v);
        ok &= ik_finite(v[0]) && ik_finite(v[1]) && ik_finite(v[2]) && IK_FABS(v[0] - (1 + 4 * u)) < 1e-3f &&
              IK_FABS(v[2] - (3 + 4 * u)) < 1e-3f;
    }
    CHECK(ok, "overflowing spline segment: finite, linear between its values (%g %g %g)", (double)v[0], (double)v[1],
          (double)v[2]);
    ik_channel_sample(&ch, times[1] + times[1] / 20, v);
    CHECK(IK_FABS(v[0] - 5) < TOL && IK_FABS(v[1] - 6) < TOL && IK_FABS(v[2] - 7) < TOL,
          "the flat segment after it: %g %g %g", (double)v[0], (double)v[1], (double)v[2]);
}

int main(void) {
    test_linear_translation();
    test_linear_rotation_slerp();
    test_slerp_shorter_arc();
    test_step();
    test_cubicspline_reproduces_cubics();
    test_cubicspline_layout();
    test_cubicspline_rotation_normalised();
    test_cubicspline_overflowing_tangents();
    test_repeated_times();
    test_clip_sample_pose();
    test_validation();
    return check_summary("test_clip");
}

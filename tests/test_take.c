/* Takes: frame counts, baking a clip frame by frame (a real CMU take and a
 * spline clip), the take back as a clip that samples to the same poses, and
 * refusals of bad takes. */
#include <ikit/bvh.h>
#include <ikit/take.h>

#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "support/rng.h"

#ifdef IKIT_DOUBLE
#define TOL 1e-9
#else
#define TOL 2e-5
#endif

static int same_transform(ik_transform a, ik_transform b, ik_real tol) {
    ik_real dq = ik_quat_dot(a.rotation, b.rotation);
    return ik_vec3_distance(a.translation, b.translation) <= tol && IK_FABS(dq) >= 1 - tol &&
           ik_vec3_distance(a.scale, b.scale) <= tol;
}

static void test_frame_count(void) {
    CHECK(ik_take_frame_count(0, (ik_real)(1.0 / 30), 100) == 1, "a clip of no duration is one frame");
    CHECK(ik_take_frame_count(1, (ik_real)0.25, 100) == 5, "1 s at 4 fps: frames at 0, .25, .5, .75, 1");
    CHECK(ik_take_frame_count((ik_real)(993 * (1.0 / 120)), (ik_real)(1.0 / 120), 5000) == 994,
          "a whole number of frames up to rounding gets no extra frame");
    CHECK(ik_take_frame_count((ik_real)1.01, (ik_real)0.25, 100) == 6, "a partial last frame is covered");
    CHECK(ik_take_frame_count(1, 0, 100) == 0 && ik_take_frame_count(1, -1, 100) == 0, "frame time must be > 0");
    CHECK(ik_take_frame_count((ik_real)NAN, 1, 100) == 0 && ik_take_frame_count(1, (ik_real)INFINITY, 100) == 0,
          "NaN and infinity refused");
    CHECK(ik_take_frame_count(-1, 1, 100) == 0, "negative duration refused");
    CHECK(ik_take_frame_count((ik_real)1e30, (ik_real)1e-3, 1000000) == 0, "over the caller's maximum refused");
}

/* Bake a two-joint CUBICSPLINE clip; each frame equals the clip sampled at
 * its time; the take as a clip samples back to the same poses, at the keys
 * and (being LINEAR) between them within the segment's chord. */
static void test_bake_and_back(void) {
    ik_transform rest[2], poses[9 * 2];
    ik_real times[3] = {0, 1, 2}, spline[3 * 3 * 3], rot[3 * 4];
    ik_channel ch[2];
    ik_clip clip, back;
    ik_take take;
    ik_take_clip_size size;
    ik_channel out_channels[8];
    ik_real out_times[9], out_values[9 * 20];
    rng r = rng_seeded(5);
    int i, f, j;
    check_property baked = {"baked frame = clip sampled at its time", 0, 0};
    check_property round = {"take as a clip samples to the frame's pose", 0, 0};
    for (i = 0; i < 27; ++i) spline[i] = rng_range(&r, -1, 1);
    for (i = 0; i < 3; ++i) {
        ik_quat q = rng_rotation(&r);
        rot[4 * i] = q.x, rot[4 * i + 1] = q.y, rot[4 * i + 2] = q.z, rot[4 * i + 3] = q.w;
    }
    ch[0].joint = 0, ch[0].path = IK_CHANNEL_TRANSLATION, ch[0].interpolation = IK_INTERP_CUBICSPLINE;
    ch[0].key_count = 3, ch[0].times = times, ch[0].values = spline;
    ch[1].joint = 1, ch[1].path = IK_CHANNEL_ROTATION, ch[1].interpolation = IK_INTERP_LINEAR;
    ch[1].key_count = 3, ch[1].times = times, ch[1].values = rot;
    clip.name = "c", clip.duration = 2, clip.channel_count = 2, clip.channels = ch;
    rest[0] = ik_transform_identity();
    rest[1] = ik_transform_make(ik_v3(0, 1, 0), ik_quat_identity(), ik_v3(1, 2, 1));
    take.frame_count = ik_take_frame_count(clip.duration, (ik_real)0.25, 9);
    take.joint_count = 2, take.frame_time = (ik_real)0.25, take.poses_ls = poses;
    CHECK(take.frame_count == 9, "9 frames: %d", take.frame_count);
    CHECK(ik_take_bake(&take, &clip, rest) == IK_OK, "bake");
    for (f = 0; f < 9; ++f) {
        ik_transform expect[2];
        memcpy(expect, rest, sizeof expect);
        ik_clip_sample(&clip, (ik_real)f * (ik_real)0.25, expect);
        for (j = 0; j < 2; ++j)
            PROPERTY_CASE(baked, same_transform(poses[2 * f + j], expect[j], TOL), "f %d j %d", f, j);
    }
    property_end(&baked);
    CHECK(ik_vec3_distance(poses[3].translation, ik_v3(0, 1, 0)) < TOL && poses[3].scale.y == 2,
          "a joint without a channel keeps its rest");
    size = ik_take_clip_size_of(&take);
    CHECK(size.channel_count == 5 && size.time_count == 9 && size.value_count == (size_t)9 * (7 * 2 + 3),
          "sizes: 2 channels a joint and a scale for the scaled one: %d %d %zu", size.channel_count, size.time_count,
          size.value_count);
    CHECK(ik_take_to_clip(&take, "back", out_channels, out_times, out_values, &back) == IK_OK, "to clip");
    CHECK(ik_clip_validate(&back, 2, NULL) == IK_OK && back.duration == 2 && strcmp(back.name, "back") == 0,
          "the clip is valid, 2 s long and named");
    for (f = 0; f < 9; ++f) {
        ik_transform got[2];
        memcpy(got, rest, sizeof got);
        got[1].scale = ik_v3(7, 7, 7); /* the clip sets it back */
        ik_clip_sample(&back, (ik_real)f * (ik_real)0.25, got);
        for (j = 0; j < 2; ++j) PROPERTY_CASE(round, same_transform(got[j], poses[2 * f + j], TOL), "f %d j %d", f, j);
    }
    property_end(&round);
}

/* The real 120 fps CMU walk: baked at its own frame time, every frame is the
 * file's frame, and the take as a clip gives it back. */
static void test_real_take(void) {
    const char *data = getenv("IKIT_DATA");
    char path[1024];
    ik_bvh *bvh = NULL;
    ik_error err;
    ik_result r;
    ik_take take;
    int f, j;
    check_property same = {"baked CMU frame = clip sampled at the frame", 0, 0};
    if (!data) {
        check_skip("real-asset corpus not found (IKIT_DATA unset)");
        return;
    }
    snprintf(path, sizeof path, "%s/bvh/131_01.bvh", data);
    r = ik_bvh_read_file(path, &bvh, &err);
    if (r == IK_ERR_IO) {
        check_skip("real-asset corpus not found");
        return;
    }
    CHECK(r == IK_OK, "%s: %s", path, err.message);
    if (r != IK_OK) return;
    take.joint_count = bvh->joint_count;
    take.frame_time = (ik_real)bvh->frame_time;
    take.frame_count = ik_take_frame_count(bvh->clip.duration, take.frame_time, 1000000);
    CHECK(take.frame_count == bvh->frame_count, "frames %d vs the file's %d", take.frame_count, bvh->frame_count);
    take.poses_ls = (ik_transform *)malloc((size_t)take.frame_count * (size_t)take.joint_count * sizeof *take.poses_ls);
    if (take.poses_ls && take.frame_count > 0) {
        ik_transform *pose = (ik_transform *)malloc((size_t)take.joint_count * sizeof *pose);
        CHECK(ik_take_bake(&take, &bvh->clip, bvh->rest_ls) == IK_OK, "bake the CMU take");
        CHECK(ik_take_validate(&take, NULL) == IK_OK, "the baked take is valid");
        for (f = 0; pose && f < take.frame_count; f += 7) {
            memcpy(pose, bvh->rest_ls, (size_t)take.joint_count * sizeof *pose);
            ik_clip_sample(&bvh->clip, (ik_real)(f * bvh->frame_time), pose);
            for (j = 0; j < take.joint_count; ++j)
                PROPERTY_CASE(same, same_transform(ik_take_pose(&take, f)[j], pose[j], TOL * 50), "f %d j %d", f, j);
        }
        property_end(&same);
        free(pose);
    }
    free(take.poses_ls);
    ik_bvh_free(bvh);
}

static void test_refusals(void) {
    ik_transform poses[4], rest[2];
    ik_take take;
    ik_clip empty;
    ik_channel ch[2];
    ik_real t[1];
    int bad = 0;
    memset(&empty, 0, sizeof empty);
    rest[0] = rest[1] = ik_transform_identity();
    take.frame_count = 2, take.joint_count = 2, take.frame_time = (ik_real)0.1, take.poses_ls = poses;
    CHECK(ik_take_bake(&take, &empty, rest) == IK_OK, "an empty clip bakes to the rest pose");
    CHECK(ik_take_validate(&take, &bad) == IK_OK && bad == -1, "valid");
    poses[3].translation.y = (ik_real)NAN;
    CHECK(ik_take_validate(&take, &bad) == IK_ERR_NONFINITE && bad == 1, "NaN found in frame 1 (%d)", bad);
    poses[3] = ik_transform_identity();
    poses[2].rotation = ik_q(0, 0, 0, 2);
    CHECK(ik_take_validate(&take, &bad) == IK_ERR_DEGENERATE && bad == 1, "a non-unit rotation found");
    take.frame_time = 0;
    CHECK(ik_take_validate(&take, &bad) == IK_ERR_RANGE && bad == -1, "zero frame time refused");
    CHECK(ik_take_bake(&take, &empty, rest) == IK_ERR_RANGE, "zero frame time refused by bake");
    CHECK(ik_take_to_clip(&take, "x", ch, t, t, &empty) == IK_ERR_RANGE, "and by to_clip");
    take.frame_time = (ik_real)0.1;
    rest[1].translation.x = (ik_real)INFINITY;
    poses[0] = poses[1] = poses[2] = poses[3] = ik_transform_identity();
    CHECK(ik_take_bake(&take, &empty, rest) == IK_ERR_NONFINITE, "an infinite rest pose refused");
    CHECK(ik_vec3_finite(poses[1].translation), "nothing written on error");
    take.frame_count = 0;
    CHECK(ik_take_validate(&take, NULL) == IK_ERR_RANGE, "no frames refused");
    CHECK(ik_take_clip_size_of(&take).channel_count == 0, "no sizes for a bad take");
    CHECK(ik_take_bake(NULL, &empty, rest) == IK_ERR_NULL && ik_take_validate(NULL, NULL) == IK_ERR_NULL, "NULL");
}

int main(void) {
    test_frame_count();
    test_bake_and_back();
    test_real_take();
    test_refusals();
    return check_summary("take");
}

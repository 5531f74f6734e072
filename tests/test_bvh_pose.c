/* Poses back into BVH channels: Euler angles for every axis order give the
 * rotation back through ik_bvh_euler_to_quat (random rotations and the
 * gimbal-locked middle angle of +-90 degrees); a frame written from a pose
 * reads back as that pose through the reader's own clip. */
#define _POSIX_C_SOURCE 200809L
#include <ikit/bvh.h>
#include <ikit/clip.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "support/rng.h"

#ifdef IKIT_DOUBLE
#define TOL 1e-9
#else
#define TOL 2e-5
#endif

static const int orders[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};

/* q and -q are the same rotation. */
static int same_rotation(ik_quat a, ik_quat b) { return IK_FABS(ik_quat_dot(a, b)) > 1 - TOL; }

static ik_quat back(const int axes[3], const double degrees[3]) {
    unsigned char channels[3];
    int c;
    for (c = 0; c < 3; ++c) channels[c] = (unsigned char)(IK_BVH_XROTATION + axes[c]);
    return ik_bvh_euler_to_quat(channels, degrees, 3);
}

static void test_euler_round_trip(void) {
    check_property prop = {"euler round trip", 0, 0};
    rng r = rng_seeded(19);
    int o, i;
    for (o = 0; o < 6; ++o)
        for (i = 0; i < 500; ++i) {
            ik_quat q = rng_rotation(&r);
            double deg[3];
            ik_bvh_quat_to_euler(q, orders[o], deg);
            PROPERTY_CASE(prop, same_rotation(back(orders[o], deg), q) && deg[1] >= -90 && deg[1] <= 90, "order %d", o);
        }
    property_end(&prop);
    for (o = 0; o < 6; ++o) {
        /* the middle angle at +-90 degrees: the outer two share an axis */
        double in[3] = {30, 90, -20}, deg[3];
        ik_quat q = back(orders[o], in);
        ik_bvh_quat_to_euler(q, orders[o], deg);
        CHECK(same_rotation(back(orders[o], deg), q) && fabs(deg[1] - 90) < 1e-2, "gimbal lock, order %d: %g %g %g", o,
              deg[0], deg[1], deg[2]);
    }
}

static void test_frame_from_pose(void) {
    static const char text[] =
        "HIERARCHY\nROOT hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition "
        "Zrotation Xrotation Yrotation\n JOINT knee\n {\n  OFFSET 0 -1 0\n  CHANNELS 3 "
        "Yrotation Zrotation Xrotation\n  JOINT ankle\n  {\n   OFFSET 0 -1 0\n   CHANNELS 1 "
        "Xrotation\n   End Site\n   {\n    OFFSET 0 0 0.2\n   }\n  }\n }\n}\nMOTION\n"
        "Frames: 1\nFrame Time: 0.1\n1 2 3 10 20 30 40 50 60 7\n";
    ik_bvh *bvh = NULL, *again = NULL;
    ik_error err;
    char *out;
    size_t size;
    ik_transform pose[4], read_back[4];
    double values[10];
    rng r = rng_seeded(7);
    int j;
    ik_result res = ik_bvh_read_memory(text, sizeof text - 1, &bvh, &err);
    CHECK(res == IK_OK && bvh->values_per_frame == 10 && bvh->joint_count == 4, "read: %s", err.message);
    if (res != IK_OK) return;
    ik_skeleton_rest_pose(&bvh->skeleton, pose);
    pose[0].translation = ik_v3(-0.5f, 1.25f, 4);
    pose[0].rotation = rng_rotation(&r);
    pose[1].rotation = rng_rotation(&r);
    pose[2].rotation = ik_quat_from_axis_angle(ik_v3(0, 1, 0), 0.5f); /* one channel: not written */
    ik_bvh_frame_from_pose(bvh, pose, bvh->values, values);
    CHECK(values[0] == (double)(ik_real)-0.5 && values[1] == 1.25 && values[2] == 4, "root position");
    CHECK(values[9] == 7, "a joint with one rotation channel keeps the fallback: %g", values[9]);
    /* write the frame out and read it back: the reader's pose is ours */
    memcpy(bvh->values, values, sizeof values);
    res = ik_bvh_write_memory(bvh, &out, &size, &err);
    CHECK(res == IK_OK, "write: %s", err.message);
    if (res == IK_OK) {
        res = ik_bvh_read_memory(out, size, &again, &err);
        CHECK(res == IK_OK, "read back: %s", err.message);
        ik_bvh_text_free(out);
    }
    if (again) {
        ik_skeleton_rest_pose(&again->skeleton, read_back);
        ik_clip_sample(&again->clip, 0, read_back);
        for (j = 0; j < 2; ++j) CHECK(same_rotation(read_back[j].rotation, pose[j].rotation), "joint %d rotation", j);
        CHECK(ik_vec3_distance(read_back[0].translation, pose[0].translation) < 1e-4f, "root translation");
        ik_bvh_free(again);
    }
    ik_bvh_free(bvh);
}

int main(void) {
    test_euler_round_trip();
    test_frame_from_pose();
    return check_summary("test_bvh_pose");
}

/* BVH reading and writing: the real CMU files, sampling against the file's
 * own numbers, round trips, and a table of broken inputs. */
#define _POSIX_C_SOURCE 200809L
#include <ikit/bvh.h>
#include <ikit/clip.h>
#include <ikit/skeleton.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "support/special_files.h"
#include "support/read_errors.h"
#include "support/rng.h"

#ifdef IKIT_DOUBLE
#define TOL 1e-9
#else
#define TOL 2e-5
#endif

/* ---- an independent Euler reference: 3x3 matrices, row-major ------------- */

typedef struct mat3 {
    double m[9];
} mat3;

static mat3 mat3_axis(int axis, double degrees) {
    double a = degrees * 3.14159265358979323846 / 180, c = cos(a), s = sin(a);
    mat3 r;
    memset(&r, 0, sizeof r);
    if (axis == 0) {
        r.m[0] = 1;
        r.m[4] = c;
        r.m[5] = -s;
        r.m[7] = s;
        r.m[8] = c;
    } else if (axis == 1) {
        r.m[4] = 1;
        r.m[0] = c;
        r.m[2] = s;
        r.m[6] = -s;
        r.m[8] = c;
    } else {
        r.m[8] = 1;
        r.m[0] = c;
        r.m[1] = -s;
        r.m[3] = s;
        r.m[4] = c;
    }
    return r;
}

static mat3 mat3_mul(mat3 a, mat3 b) {
    mat3 r;
    int i, j, k;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) {
            double sum = 0;
            for (k = 0; k < 3; ++k) sum += a.m[i * 3 + k] * b.m[k * 3 + j];
            r.m[i * 3 + j] = sum;
        }
    return r;
}

/* R = R_first R_second R_third over the joint's rotation channels. */
static mat3 reference_rotation(const ik_bvh_joint *j, const double *row) {
    mat3 r = mat3_axis(0, 0);
    int c;
    for (c = 0; c < j->channel_count; ++c)
        if (j->channels[c] >= IK_BVH_XROTATION) r = mat3_mul(r, mat3_axis(j->channels[c] - IK_BVH_XROTATION, row[c]));
    return r;
}

/* Largest difference between the quaternion's rotated basis and the matrix columns. */
static double rotation_error(ik_quat q, mat3 r) {
    double worst = 0;
    int col, row;
    for (col = 0; col < 3; ++col) {
        ik_vec3 e = ik_v3(col == 0, col == 1, col == 2);
        ik_vec3 v = ik_quat_rotate(q, e);
        double got[3];
        got[0] = v.x;
        got[1] = v.y;
        got[2] = v.z;
        for (row = 0; row < 3; ++row) {
            double d = fabs(got[row] - r.m[row * 3 + col]);
            if (d > worst) worst = d;
        }
    }
    return worst;
}

static ik_vec3 reference_translation(const ik_bvh_joint *j, const double *row) {
    double p[3];
    int c;
    p[0] = j->offset[0];
    p[1] = j->offset[1];
    p[2] = j->offset[2];
    for (c = 0; c < j->channel_count; ++c)
        if (j->channels[c] <= IK_BVH_ZPOSITION) p[j->channels[c]] = row[c];
    return ik_v3((ik_real)p[0], (ik_real)p[1], (ik_real)p[2]);
}

/* Sample the clip at frame f's time and compare every joint with the file's
 * numbers through the matrix reference. */
static void check_frame(const ik_bvh *bvh, int f, ik_transform *pose, check_property *rot, check_property *pos) {
    const double *row = bvh->values + (size_t)f * (size_t)bvh->values_per_frame;
    int i;
    ik_skeleton_rest_pose(&bvh->skeleton, pose);
    ik_clip_sample(&bvh->clip, (ik_real)(f * bvh->frame_time), pose);
    for (i = 0; i < bvh->joint_count; ++i) {
        const ik_bvh_joint *j = &bvh->joints[i];
        ik_vec3 expected = reference_translation(j, row + j->first_value);
        double scale = 1 + ik_vec3_length(expected);
        double rot_err = rotation_error(pose[i].rotation, reference_rotation(j, row + j->first_value));
        double pos_err = ik_vec3_distance(pose[i].translation, expected);
        PROPERTY_CASE(*rot, rot_err < 10 * TOL, "frame %d joint %s err %g", f, j->name, rot_err);
        PROPERTY_CASE(*pos, pos_err < 10 * TOL * scale, "frame %d joint %s err %g", f, j->name, pos_err);
    }
}

/* Compare two readings: same joints, layout and values within 1e-6. */
static void check_same_bvh(const ik_bvh *a, const ik_bvh *b, const char *what) {
    int i, c, same_joints = a->joint_count == b->joint_count;
    size_t v, total;
    double worst = 0;
    CHECK(same_joints, "%s: joint counts %d vs %d", what, a->joint_count, b->joint_count);
    CHECK(a->frame_count == b->frame_count && a->values_per_frame == b->values_per_frame, "%s: frame layout", what);
    CHECK(fabs(a->frame_time - b->frame_time) < 1e-12, "%s: frame time", what);
    if (!same_joints || a->frame_count != b->frame_count || a->values_per_frame != b->values_per_frame) return;
    for (i = 0; i < a->joint_count; ++i) {
        const ik_bvh_joint *ja = &a->joints[i], *jb = &b->joints[i];
        int same = strcmp(ja->name, jb->name) == 0 && ja->parent == jb->parent && ja->end_site == jb->end_site &&
                   ja->channel_count == jb->channel_count && ja->first_value == jb->first_value;
        for (c = 0; c < 3; ++c) same = same && fabs(ja->offset[c] - jb->offset[c]) <= 1e-6;
        for (c = 0; same && c < ja->channel_count; ++c) same = ja->channels[c] == jb->channels[c];
        CHECK(same, "%s: joint %d (%s) differs", what, i, ja->name);
    }
    total = (size_t)a->frame_count * (size_t)a->values_per_frame;
    for (v = 0; v < total; ++v)
        if (fabs(a->values[v] - b->values[v]) > worst) worst = fabs(a->values[v] - b->values[v]);
    CHECK(worst <= 1e-6, "%s: values differ by %g", what, worst);
}

static void round_trip(const ik_bvh *bvh, const char *what) {
    char *text = NULL, *again = NULL;
    size_t size = 0, size_again = 0;
    ik_bvh *back = NULL, *back_again = NULL;
    ik_error err;
    ik_result r = ik_bvh_write_memory(bvh, &text, &size, &err);
    CHECK(r == IK_OK, "%s: write: %s", what, err.message);
    if (r != IK_OK) return;
    r = ik_bvh_read_memory(text, size, &back, &err);
    CHECK(r == IK_OK, "%s: read back: %s", what, err.message);
    if (r == IK_OK) {
        check_same_bvh(bvh, back, what);
        r = ik_bvh_write_memory(back, &again, &size_again, &err);
        CHECK(r == IK_OK && size_again == size && memcmp(text, again, size) == 0, "%s: second write differs", what);
        r = ik_bvh_read_memory(again, size_again, &back_again, &err);
        CHECK(r == IK_OK, "%s: third read: %s", what, err.message);
        if (back_again) check_same_bvh(bvh, back_again, what);
    }
    ik_bvh_text_free(text);
    ik_bvh_text_free(again);
    ik_bvh_free(back);
    ik_bvh_free(back_again);
}

/* Walk parents up from the last name; every step must meet the name before. */
static void check_chain(const ik_bvh *bvh, const char *const *chain, int count, const char *file) {
    int k, joint = ik_skeleton_find(&bvh->skeleton, chain[count - 1]);
    CHECK(joint >= 0, "%s: no joint %s", file, chain[count - 1]);
    for (k = count - 1; k >= 0 && joint >= 0; --k) {
        CHECK(strcmp(ik_skeleton_name(&bvh->skeleton, joint), chain[k]) == 0, "%s: expected %s, found %s", file,
              chain[k], ik_skeleton_name(&bvh->skeleton, joint));
        joint = bvh->skeleton.parents[joint];
    }
    CHECK(joint == -1, "%s: chain should start at the root", file);
}

static void test_real_files(void) {
    static const char *const leg_131[] = {"Hips",      "LHipJoint", "LeftHip",    "LeftKnee",
                                          "LeftAnkle", "LeftToe",   "LeftToe_End"};
    static const char *const leg_01[] = {"Hips",     "LHipJoint",   "LeftUpLeg",      "LeftLeg",
                                         "LeftFoot", "LeftToeBase", "LeftToeBase_End"};
    static const struct {
        const char *file;
        int frames;
        const char *const *chain;
    } cases[] = {{"131_01.bvh", 994, leg_131}, {"131_02.bvh", 1247, leg_131}, {"01_01.bvh", 2752, leg_01}};
    const char *data = getenv("IKIT_DATA");
    int i;
    if (!data) {
        check_skip("real-asset corpus not found (IKIT_DATA unset)");
        return;
    }
    for (i = 0; i < 3; ++i) {
        char path[1024];
        ik_bvh *bvh = NULL;
        ik_error err;
        ik_result r;
        snprintf(path, sizeof path, "%s/bvh/%s", data, cases[i].file);
        r = ik_bvh_read_file(path, &bvh, &err);
        if (r == IK_ERR_IO) {
            check_skip("real-asset corpus not found");
            return;
        }
        CHECK(r == IK_OK, "%s: %s", path, err.message);
        if (r != IK_OK) continue;
        {
            int end_sites = 0, j, f;
            check_property rot = {"sampled rotation = file's Euler angles", 0, 0};
            check_property pos = {"sampled translation = file's positions", 0, 0};
            check_property cont = {"interpolation is continuous between frames", 0, 0};
            ik_transform *pose = (ik_transform *)malloc((size_t)bvh->joint_count * sizeof *pose);
            ik_transform *prev = (ik_transform *)malloc((size_t)bvh->joint_count * sizeof *prev);
            for (j = 0; j < bvh->joint_count; ++j) end_sites += bvh->joints[j].end_site;
            CHECK(bvh->joint_count == 38 && end_sites == 7, "%s: %d joints, %d End Sites", cases[i].file,
                  bvh->joint_count, end_sites);
            CHECK(bvh->frame_count == cases[i].frames, "%s: %d frames", cases[i].file, bvh->frame_count);
            CHECK(bvh->values_per_frame == 96, "%s: %d values per frame", cases[i].file, bvh->values_per_frame);
            CHECK(fabs(bvh->frame_time - 0.0083333) < 1e-12, "%s: frame time %g", cases[i].file, bvh->frame_time);
            CHECK(bvh->joints[0].channel_count == 6 && bvh->joints[0].channels[0] == IK_BVH_XPOSITION &&
                      bvh->joints[0].channels[3] == IK_BVH_ZROTATION && bvh->joints[1].channel_count == 3,
                  "%s: channel layout", cases[i].file);
            CHECK(ik_clip_validate(&bvh->clip, bvh->joint_count, NULL) == IK_OK, "%s: clip invalid", cases[i].file);
            check_chain(bvh, cases[i].chain, 7, cases[i].file);
            for (f = 0; f < bvh->frame_count; f += 7) check_frame(bvh, f, pose, &rot, &pos);
            check_frame(bvh, bvh->frame_count - 1, pose, &rot, &pos);
            /* Continuity: within one frame interval, ten sub-steps each turn a
             * joint by at most a tenth of the key-to-key angle (plus rounding),
             * so the pose cannot jump anywhere between keys. */
            for (f = 0; f + 1 < bvh->frame_count; f += 53) {
                int s;
                ik_real t0 = (ik_real)(f * bvh->frame_time), t1 = (ik_real)((f + 1) * bvh->frame_time);
                ik_transform *key0 = (ik_transform *)malloc((size_t)bvh->joint_count * sizeof *key0);
                ik_transform *key1 = (ik_transform *)malloc((size_t)bvh->joint_count * sizeof *key1);
                ik_skeleton_rest_pose(&bvh->skeleton, key0);
                ik_skeleton_rest_pose(&bvh->skeleton, key1);
                ik_clip_sample(&bvh->clip, t0, key0);
                ik_clip_sample(&bvh->clip, t1, key1);
                memcpy(prev, key0, (size_t)bvh->joint_count * sizeof *prev);
                for (s = 1; s <= 10; ++s) {
                    ik_skeleton_rest_pose(&bvh->skeleton, pose);
                    ik_clip_sample(&bvh->clip, t0 + (t1 - t0) * (ik_real)s / 10, pose);
                    for (j = 0; j < bvh->joint_count; ++j) {
                        ik_real step =
                            ik_quat_angle(ik_quat_mul(ik_quat_conjugate(prev[j].rotation), pose[j].rotation));
                        ik_real span =
                            ik_quat_angle(ik_quat_mul(ik_quat_conjugate(key0[j].rotation), key1[j].rotation));
                        ik_real move = ik_vec3_distance(prev[j].translation, pose[j].translation);
                        ik_real move_span = ik_vec3_distance(key0[j].translation, key1[j].translation);
                        PROPERTY_CASE(cont,
                                      step <= span / 10 + (ik_real)(2e-3) && move <= move_span / 10 + (ik_real)(1e-3),
                                      "frame %d step %d joint %d: turn %g of %g, move %g of %g", f, s, j, (double)step,
                                      (double)span, (double)move, (double)move_span);
                    }
                    memcpy(prev, pose, (size_t)bvh->joint_count * sizeof *prev);
                }
                free(key0);
                free(key1);
            }
            property_end(&rot);
            property_end(&pos);
            property_end(&cont);
            free(pose);
            free(prev);
        }
        round_trip(bvh, cases[i].file);
        ik_bvh_free(bvh);
    }
}

/* Unusual but valid: six channels below the root, mixed orders, position
 * channels alone, a joint without channels, two End Sites under one joint,
 * CRLF line ends, a name with a space, two roots. */
static const char unusual_bvh[] =
    "HIERARCHY\r\n"
    "ROOT Base\r\n"
    "{\r\n"
    "  OFFSET 1 2 3\r\n"
    "  CHANNELS 3 Yposition Xposition Zposition\r\n"
    "  JOINT Upper Arm\r\n"
    "  {\r\n"
    "    OFFSET 0 1 0\r\n"
    "    CHANNELS 6 Xrotation Zposition Yrotation Xposition Zrotation Yposition\r\n"
    "    JOINT Fixed\r\n"
    "    {\r\n"
    "      OFFSET 0 0.5 0\r\n"
    "      CHANNELS 0\r\n"
    "      End Site\r\n"
    "      {\r\n"
    "        OFFSET 0 0.25 0\r\n"
    "      }\r\n"
    "      End Site\r\n"
    "      {\r\n"
    "        OFFSET 0.25 0 0\r\n"
    "      }\r\n"
    "    }\r\n"
    "  }\r\n"
    "  JOINT Twist\r\n"
    "  {\r\n"
    "    OFFSET 0 0 1\r\n"
    "    CHANNELS 2 Yrotation Xrotation\r\n"
    "  }\r\n"
    "}\r\n"
    "ROOT Other\r\n"
    "{\r\n"
    "  OFFSET 5 0 0\r\n"
    "  CHANNELS 3 Xrotation Yrotation Zrotation\r\n"
    "}\r\n"
    "MOTION\r\n"
    "Frames: 3\r\n"
    "Frame Time: 0.5\r\n"
    "0.1 0.2 0.3  10 0.4 20 0.5 30 0.6  40 50  60 70 80\r\n"
    "\r\n"
    "-1 -2 -3  -170 1e-3 95 -0.5 179.5 2.5e1  -40 -50  -60 -70 -80\r\n"
    "0 0 0  0 0 0 0 0 0  0 0  0 0 0\r\n";

static void test_unusual_layouts(void) {
    ik_bvh *bvh = NULL;
    ik_error err;
    ik_result r = ik_bvh_read_memory(unusual_bvh, sizeof unusual_bvh - 1, &bvh, &err);
    check_property rot = {"unusual layouts: rotations", 0, 0};
    check_property pos = {"unusual layouts: translations", 0, 0};
    ik_transform pose[8];
    int f;
    CHECK(r == IK_OK, "%s", err.message);
    if (r != IK_OK) return;
    CHECK(bvh->joint_count == 7 && bvh->values_per_frame == 14, "%d joints, %d values", bvh->joint_count,
          bvh->values_per_frame);
    CHECK(ik_skeleton_find(&bvh->skeleton, "Upper Arm") == 1, "name with a space");
    CHECK(ik_skeleton_find(&bvh->skeleton, "Fixed_End") == 3 && ik_skeleton_find(&bvh->skeleton, "Fixed_End2") == 4,
          "two End Sites under one joint");
    CHECK(bvh->joints[6].parent == -1 && bvh->joints[6].first_value == 11, "second root");
    CHECK(bvh->clip.channel_count == 5, "%d clip channels", bvh->clip.channel_count);
    for (f = 0; f < 3; ++f) check_frame(bvh, f, pose, &rot, &pos);
    property_end(&rot);
    property_end(&pos);
    ik_skeleton_rest_pose(&bvh->skeleton, pose);
    ik_clip_sample(&bvh->clip, (ik_real)0.5, pose);
    CHECK(IK_FABS(pose[0].translation.x - (ik_real)-2) < TOL && IK_FABS(pose[0].translation.y - (ik_real)-1) < TOL,
          "Yposition comes first in the root's channels");
    CHECK(IK_FABS(pose[2].translation.y - (ik_real)0.5) < TOL, "a joint without channels keeps its OFFSET");
    round_trip(bvh, "unusual layouts");
    ik_bvh_free(bvh);
}

/* ---- broken inputs --------------------------------------------------------- */

#define GOOD_HEAD                                                                                              \
    "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation " \
    "Xrotation\n"                                                                                              \
    "  JOINT Leg\n  {\n    OFFSET 0 -1 0\n    CHANNELS 3 Zrotation Yrotation Xrotation\n    End Site\n    {\n" \
    "      OFFSET 0 -1 0\n    }\n  }\n}\n"

static void test_broken_inputs(void) {
    static const read_case cases[] = {
        {"", IK_ERR_PARSE, 1, "empty input"},
        {"HIERARCHX\nROOT a\n", IK_ERR_PARSE, 1, "wrong magic"},
        {"\n\n<?xml version='1.0'?>", IK_ERR_PARSE, 3, "wrong magic after blank lines"},
        {"HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0", IK_ERR_PARSE, 4, "truncated in OFFSET"},
        {"HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Xrotation", IK_ERR_PARSE, 5, "truncated in CHANNELS"},
        {"HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n", IK_ERR_PARSE, 5, "truncated, block never closed"},
        {"HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n}\n", IK_ERR_PARSE, 6, "no MOTION section"},
        {"HIERARCHY\nMOTION\nFrames: 0\nFrame Time: 1\n", IK_ERR_PARSE, 2, "MOTION before any ROOT"},
        {"HIERARCHY\nROOT\n{\n", IK_ERR_PARSE, 2, "missing joint name"},
        {"HIERARCHY\nROOT Hips\n  OFFSET 0 0 0\n", IK_ERR_PARSE, 3, "missing brace"},
        {"HIERARCHY\nROOT Hips\n{\n  OFFSET 0 nan 0\n}\nMOTION\n", IK_ERR_NONFINITE, 4, "NaN OFFSET"},
        {"HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 -inf\n}\nMOTION\n", IK_ERR_NONFINITE, 4, "infinite OFFSET"},
        {"HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 1e999\n}\nMOTION\n", IK_ERR_NONFINITE, 4, "OFFSET overflows"},
        {"HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0x10 0\n}\nMOTION\n", IK_ERR_PARSE, 4, "hex is not a BVH number"},
        {"HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 7 Xposition\n", IK_ERR_RANGE, 5, "7 channels"},
        {"HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS -1\n", IK_ERR_RANGE, 5, "negative channel count"},
        {"HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 2 Xrotation Wrotation\n", IK_ERR_PARSE, 5,
         "unknown channel"},
        {"HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 2 Xrotation Xrotation\n", IK_ERR_PARSE, 5,
         "channel twice"},
        {"HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Xrotation Yrotation\n}\n", IK_ERR_PARSE, 6,
         "fewer channel names than announced"},
        {"HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  JOINT Hips\n  {\n    OFFSET 0 0 0\n  }\n}\n"
         "MOTION\nFrames: 0\nFrame Time: 1\n",
         IK_ERR_HIERARCHY, 5, "duplicate joint name"},
        {"HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  Joint Leg\n", IK_ERR_PARSE, 5, "misspelt JOINT"},
        {"HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n}\n}\nMOTION\n", IK_ERR_PARSE, 6, "extra closing brace"},
        {GOOD_HEAD "MOTION\nFrames: 1\n", IK_ERR_PARSE, 18, "truncated before Frame Time"},
        {GOOD_HEAD "MOTION\nFrame: 1\n", IK_ERR_PARSE, 17, "misspelt Frames:"},
        {GOOD_HEAD "MOTION\nFrames: -2\nFrame Time: 0.1\n", IK_ERR_RANGE, 17, "negative frame count"},
        {GOOD_HEAD "MOTION\nFrames: 1.5\nFrame Time: 0.1\n", IK_ERR_RANGE, 17, "fractional frame count"},
        {GOOD_HEAD "MOTION\nFrames: 99999999999999999999\nFrame Time: 0.1\n1 2 3 4 5 6 7 8 9\n", IK_ERR_RANGE, 17,
         "frame count that would overflow"},
        {GOOD_HEAD "MOTION\nFrames: 1000000\nFrame Time: 0.1\n1 2 3 4 5 6 7 8 9\n", IK_ERR_RANGE, 17,
         "more frames than the input can hold"},
        {GOOD_HEAD "MOTION\nFrames: 1\nFrame Time: 0\n1 2 3 4 5 6 7 8 9\n", IK_ERR_RANGE, 18, "zero frame time"},
        {GOOD_HEAD "MOTION\nFrames: 1\nFrame Time: inf\n1 2 3 4 5 6 7 8 9\n", IK_ERR_NONFINITE, 18,
         "infinite frame time"},
        {GOOD_HEAD "MOTION\nFrames: 2\nFrame Time: 0.1\n1 2 3 4 5 6 7 8 9\n1 2 3 4 5 6 7 8\n", IK_ERR_PARSE, 20,
         "a frame with a missing channel"},
        {GOOD_HEAD "MOTION\nFrames: 2\nFrame Time: 0.1\n1 2 3 4 5 6 7 8 9 10\n1 2 3 4 5 6 7 8 9\n", IK_ERR_PARSE, 19,
         "a frame with an extra value"},
        {GOOD_HEAD "MOTION\nFrames: 3\nFrame Time: 0.1\n1 2 3 4 5 6 7 8 9\n1 2 3 4 5 6 7 8 9\n", IK_ERR_PARSE, 21,
         "truncated: fewer frames than announced"},
        {GOOD_HEAD "MOTION\nFrames: 1\nFrame Time: 0.1\n1 2 3 4 5 6 7 8 9\n1 2 3\n", IK_ERR_PARSE, 20,
         "data after the last frame"},
        {GOOD_HEAD "MOTION\nFrames: 2\nFrame Time: 0.1\n1 2 3 4 5 6 7 8 9\n1 2 3 4 NaN 6 7 8 9\n", IK_ERR_NONFINITE, 20,
         "NaN in a frame"},
        {GOOD_HEAD "MOTION\nFrames: 1\nFrame Time: 0.1\n1 2 3 4 5 6 7 Infinity 9\n", IK_ERR_NONFINITE, 19,
         "infinity in a frame"},
        {GOOD_HEAD "MOTION\nFrames: 1\nFrame Time: 0.1\n1 2 3 4 5 6 7 8 1e400\n", IK_ERR_NONFINITE, 19,
         "overflowing value in a frame"},
        {GOOD_HEAD "MOTION\nFrames: 1\nFrame Time: 0.1\n1 2 3 4 5 6 7 8 9abc\n", IK_ERR_PARSE, 19, "garbage value"},
    };
    int i;
    for (i = 0; i < (int)(sizeof cases / sizeof cases[0]); ++i) {
        ik_bvh dummy, *bvh = &dummy;
        ik_error err;
        ik_result r = ik_bvh_read_memory(cases[i].text, strlen(cases[i].text), &bvh, &err);
        read_case_check(&cases[i], r, &err, bvh == NULL);
    }
}

static void test_joint_cap(void) {
    size_t cap = (size_t)(IK_BVH_MAX_JOINTS + 1) * 40 + 64, n = 0;
    char *text = (char *)malloc(cap);
    ik_bvh *bvh = NULL;
    ik_error err;
    ik_result r;
    int i;
    n += (size_t)sprintf(text + n, "HIERARCHY\nROOT j0\n{\nOFFSET 0 0 0\n");
    for (i = 1; i <= IK_BVH_MAX_JOINTS; ++i) n += (size_t)sprintf(text + n, "JOINT j%d\n{\nOFFSET 0 0 0\n}\n", i);
    n += (size_t)sprintf(text + n, "}\nMOTION\nFrames: 0\nFrame Time: 1\n");
    r = ik_bvh_read_memory(text, n, &bvh, &err);
    CHECK(r == IK_ERR_RANGE && bvh == NULL && err.line == 5 + 4 * (IK_BVH_MAX_JOINTS - 1), "joint cap: %s (%s)",
          ik_result_str(r), err.message);
    free(text);
}

/* Every prefix of a valid file and seeded random corruptions: never a crash,
 * OK or an error with a line inside the text. */
static void test_truncations_and_corruptions(void) {
    const char *text = unusual_bvh;
    size_t size = sizeof unusual_bvh - 1, cut;
    check_property prefixes = {"every prefix fails cleanly", 0, 0};
    check_property mutants = {"random corruptions fail cleanly", 0, 0};
    rng r = rng_seeded(7);
    char *copy = (char *)malloc(size);
    int i;
    for (cut = 0; cut < size; ++cut) {
        ik_bvh *bvh = NULL;
        ik_error err;
        ik_result result = ik_bvh_read_memory(text, cut, &bvh, &err);
        int fine = (result == IK_OK) ? bvh != NULL : (bvh == NULL && err.line >= 1 && err.message[0] != '\0');
        /* Only a cut inside the trailing line break of the last frame can be complete. */
        if (result == IK_OK) fine = fine && cut >= size - 2;
        PROPERTY_CASE(prefixes, fine, "cut at %lu: %s", (unsigned long)cut, err.message);
        ik_bvh_free(bvh);
    }
    for (i = 0; i < 3000; ++i) {
        ik_bvh *bvh = NULL;
        ik_error err;
        ik_result result;
        static const char alphabet[] = "0123456789.-+eE \n{}nanifXYZrotationposition";
        read_corrupt(&r, copy, text, size, alphabet);
        result = ik_bvh_read_memory(copy, size, &bvh, &err);
        PROPERTY_CASE(mutants, result == IK_OK ? bvh != NULL : bvh == NULL && err.message[0] != '\0', "case %d", i);
        if (bvh) CHECK(ik_clip_validate(&bvh->clip, bvh->joint_count, NULL) == IK_OK, "mutant %d gives a bad clip", i);
        ik_bvh_free(bvh);
    }
    property_end(&prefixes);
    property_end(&mutants);
    free(copy);
}

static void test_writer_refuses_bad_data(void) {
    ik_bvh *bvh = NULL;
    ik_error err;
    char *text = NULL;
    ik_result r = ik_bvh_read_memory(unusual_bvh, sizeof unusual_bvh - 1, &bvh, &err);
    CHECK(r == IK_OK, "%s", err.message);
    if (r != IK_OK) return;
    bvh->values[5] = NAN;
    CHECK(ik_bvh_write_memory(bvh, &text, NULL, &err) == IK_ERR_NONFINITE && text == NULL, "NaN value written");
    bvh->values[5] = 0;
    bvh->joints[3].channel_count = 1;
    CHECK(ik_bvh_write_memory(bvh, &text, NULL, &err) == IK_ERR_HIERARCHY, "End Site with a channel written");
    bvh->joints[3].channel_count = 0;
    bvh->joints[2].parent = 5;
    CHECK(ik_bvh_write_memory(bvh, &text, NULL, &err) == IK_ERR_HIERARCHY, "child before parent written");
    bvh->joints[2].parent = 1;
    bvh->joints[1].first_value = 12;
    CHECK(ik_bvh_write_memory(bvh, &text, NULL, &err) == IK_ERR_RANGE, "channels past the frame written");
    bvh->joints[1].first_value = 3;
    CHECK(ik_bvh_write_memory(bvh, &text, NULL, &err) == IK_OK, "restored data refused: %s", err.message);
    ik_bvh_text_free(text);
    CHECK(ik_bvh_write_file(bvh, "/nonexistent-dir/x.bvh", &err) == IK_ERR_IO, "unwritable path");
    ik_bvh_free(bvh);
    CHECK(ik_bvh_read_file("/nonexistent-dir/x.bvh", &bvh, &err) == IK_ERR_IO && bvh == NULL, "missing file");
    CHECK(ik_bvh_read_memory(NULL, 10, &bvh, &err) == IK_ERR_NULL && bvh == NULL, "NULL data");
}

/* Issue 18 item 11: each OFFSET fits ik_real but their sum down the chain
 * does not: refused on the joint whose rest position overflows, as chain
 * files are; with one large offset the file reads. */
static void test_rest_overflow(void) {
    char text[700];
    double x = 0.75 * (double)IK_REAL_MAX;
    ik_bvh *bvh = NULL;
    ik_error err;
    ik_result r;
    snprintf(text, sizeof text,
             "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Xposition Yposition Zposition\n"
             "  JOINT Spine\n  {\n    OFFSET 0 %.9g 0\n    CHANNELS 3 Zrotation Yrotation Xrotation\n"
             "    JOINT Neck\n    {\n      OFFSET 0 %.9g 0\n      CHANNELS 3 Zrotation Yrotation Xrotation\n"
             "      End Site\n      {\n        OFFSET 0 1 0\n      }\n    }\n  }\n}\n"
             "MOTION\nFrames: 1\nFrame Time: 0.1\n0 0 0 0 0 0 0 0 0\n",
             x, x);
    r = ik_bvh_read_memory(text, strlen(text), &bvh, &err);
    CHECK(r == IK_ERR_NONFINITE && err.line == 10 && strstr(err.message, "'Neck'") && strstr(err.message, "overflows"),
          "summed offsets overflowing ik_real: %s (%s)", err.message, ik_result_str(r));
    CHECK(bvh == NULL, "nothing returned");
    ik_bvh_free(bvh);
    bvh = NULL;
    snprintf(text, sizeof text,
             "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Xposition Yposition Zposition\n"
             "  JOINT Spine\n  {\n    OFFSET 0 %.9g 0\n    CHANNELS 3 Zrotation Yrotation Xrotation\n"
             "    End Site\n    {\n      OFFSET 0 1 0\n    }\n  }\n}\n"
             "MOTION\nFrames: 1\nFrame Time: 0.1\n0 0 0 0 0 0\n",
             x);
    r = ik_bvh_read_memory(text, strlen(text), &bvh, &err);
    CHECK(r == IK_OK, "one large offset reads: %s", err.message);
    ik_bvh_free(bvh);
}

static ik_result read_bvh_file(const char *path, ik_error *error) {
    ik_bvh *bvh = NULL;
    ik_result r = ik_bvh_read_file(path, &bvh, error);
    ik_bvh_free(bvh);
    return r;
}

/* /dev/urandom, /dev/zero, a FIFO, a symlink to /dev/zero, a directory:
 * refused at once (issue 18 item 6), not read without end or waited on. */
static void test_special_files(void) { check_special_files_refused("BVH", read_bvh_file); }

int main(void) {
    test_real_files();
    test_unusual_layouts();
    test_broken_inputs();
    test_joint_cap();
    test_truncations_and_corruptions();
    test_writer_refuses_bad_data();
    test_special_files();
    test_rest_overflow();
    return check_summary("test_bvh");
}

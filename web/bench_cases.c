/* Scripted playground cases, run through the same ikw_ calls the page
 * makes, so one program times them in wasm (tests/js/bench_wasm.mjs, in
 * node and in Chromium) and natively (bench/bench_web.c) on identical
 * inputs. Each case is `frames` frames of a target moving on a circle, one
 * warm-started solve per frame, as the page does while the user drags:
 *   tail DLS / CCD / FABRIK: the loaded chain (the tail) chasing its cube on
 *     a circle of radius 0.4 about the file's target, 0.05 rad a frame;
 *   planar FABRIK: six bones (1 1 1 0.8 0.6 0.4), the tip on a circle of
 *     radius 1 about (2, 0.5), 0.05 rad a frame;
 *   humanoid: both hands on circles of radius 0.15 in front of the chest,
 *     the feet at rest on a 10 degree slope;
 *   robot arm: the six-axis arm of examples/six_axis_arm.urdf (its
 *     kinematics written out below, read by the library's URDF reader), the tool's goal pose on a circle of radius 0.1
 *     about the tool's start place, 0.05 rad a frame, its turn rocking
 *     0.3 sin(0.05 f) rad about the base's z (pose IK with limits,
 *     ik_robot_ik_run);
 *   humanoid full body: the page's full-body mode, both feet pinned,
 *     balance on, on flat ground; the right hand on a circle of radius 0.15
 *     about a point 1.2 arm lengths from the shoulder, out to the side,
 *     ahead and a little below it (the body leans to reach), 0.05 rad a
 *     frame.
 * Returns the sum of the final errors (a check that the work was done). */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include <ikit/planar_chain.h>

#include "ikit_web.h"

enum { SLOT = 0 };

IKW_EXPORT(ikw_bench_name) const char *ikw_bench_name(int which) {
    static const char *const names[IKW_BENCH_CASES] = {"tail DLS+springs",
                                                       "tail CCD",
                                                       "tail FABRIK",
                                                       "planar FABRIK (6 bones)",
                                                       "humanoid (4 limbs, slope)",
                                                       "robot arm (6R, pose)",
                                                       "humanoid full body (reach)"};
    return which >= 0 && which < IKW_BENCH_CASES ? names[which] : "";
}

static float tail_case(int method, int frames) {
    const float *c = ikw_chain_file_target();
    int f;
    if (!c) return -1;
    ikw_chain_reset(SLOT);
    for (f = 0; f < frames; ++f) {
        float a = 0.05f * (float)f;
        if (ikw_chain_solve(SLOT, method, c[0] + 0.4f * cosf(a) - 0.4f, c[1] + 0.4f * sinf(a), c[2], 0, 1) != 0)
            return -1;
    }
    return ikw_chain_error(SLOT);
}

static float planar_case(int frames) {
    static const float lengths[6] = {1, 1, 1, 0.8f, 0.6f, 0.4f};
    ik_real *l = ikw_planar_lengths(), *angles = ikw_planar_angles();
    int f, i;
    for (i = 0; i < 6; ++i) {
        l[i] = lengths[i];
        angles[i] = i == 0 ? 0.3f : -0.15f;
    }
    for (f = 0; f < frames; ++f) {
        float a = 0.05f * (float)f;
        if (ikw_planar_solve(6, 6, IK_PLANAR_CHAIN_FABRIK, 0, 0, 2 + cosf(a), 0.5f + sinf(a), 50, 1) != 0) return -1;
    }
    return ikw_planar_error();
}

static float humanoid_case(int frames) {
    const float *rest;
    float hand[2][3];
    int f, side, k;
    if (ikw_body_init(1.8f) != 0 || ikw_body_full(0, 1) != 0) return -1;
    rest = ikw_body_positions();
    for (side = 0; side < 2; ++side)
        for (k = 0; k < 3; ++k) hand[side][k] = rest[3 * ikw_body_limb_end(side) + k];
    ikw_body_ground(1, 10); /* a 10 degree slope */
    for (side = 2; side < 4; ++side) {
        const float *p = &rest[3 * ikw_body_limb_end(side)];
        ikw_body_goal(side, 1, p[0], p[1], p[2]);
    }
    for (f = 0; f < frames; ++f) {
        float a = 0.05f * (float)f;
        for (side = 0; side < 2; ++side)
            ikw_body_goal(side, 1, hand[side][0] * 0.6f + 0.15f * cosf(a), 1.2f + 0.15f * sinf(a), 0.35f);
        if (ikw_body_solve(1) != 0) return -1;
    }
    return ikw_body_residual(0) + ikw_body_residual(1) + ikw_body_residual(2) + ikw_body_residual(3);
}

static float humanoid_full_case(int frames) {
    const float *rest;
    float centre[3], dir[3] = {-0.8f, -0.2f, 0.55f}, upper = 0, lower = 0, arm, len;
    int f, k, shoulder, elbow, hand;
    if (ikw_body_init(1.8f) != 0 || ikw_body_ground(1, 0) != 0) return -1;
    for (k = 0; k < IK_LIMB_COUNT; ++k) ikw_body_goal(k, 0, 0, 0, 0);
    ikw_body_head_goal(0, 0, 0, 0);
    rest = ikw_body_positions();
    shoulder = ikw_body_role_joint(IK_ROLE_UPPER_ARM_R), elbow = ikw_body_role_joint(IK_ROLE_FOREARM_R);
    hand = ikw_body_role_joint(IK_ROLE_HAND_R);
    len = sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    for (k = 0; k < 3; ++k) {
        float a = rest[3 * elbow + k] - rest[3 * shoulder + k], b = rest[3 * hand + k] - rest[3 * elbow + k];
        upper += a * a, lower += b * b;
    }
    arm = sqrtf(upper) + sqrtf(lower);
    for (k = 0; k < 3; ++k) centre[k] = rest[3 * shoulder + k] + 1.2f * arm * dir[k] / len;
    if (ikw_body_full(1, 1) != 0) return -1;
    for (f = 0; f < frames; ++f) {
        float a = 0.05f * (float)f;
        ikw_body_goal(IK_LIMB_ARM_R, 1, centre[0] + 0.15f * cosf(a), centre[1] + 0.15f * sinf(a), centre[2]);
        if (ikw_body_solve(1) != 0) {
            ikw_body_full(0, 1);
            return -1;
        }
    }
    ikw_body_full(0, 1);
    ikw_body_goal(IK_LIMB_ARM_R, 0, 0, 0, 0);
    return ikw_body_residual(IK_LIMB_ARM_R) + ikw_body_residual(IK_LIMB_LEG_L) + ikw_body_residual(IK_LIMB_LEG_R);
}

static float robot_case(int frames) {
    /* the kinematics of examples/six_axis_arm.urdf */
#define JOINT(name, parent, child, xyz, axis, lower, upper)                                        \
    "<joint name=\"" name "\" type=\"revolute\"><parent link=\"" parent "\"/><child link=\"" child \
    "\"/><origin "                                                                                 \
    "xyz=\"" xyz "\"/><axis xyz=\"" axis "\"/><limit lower=\"" lower "\" upper=\"" upper "\"/></joint>"
    static const char urdf[] =
        "<robot name=\"ikit_six_axis_arm\"><link name=\"base\"/><link name=\"turret\"/><link name=\"upper_arm\"/>"
        "<link name=\"forearm\"/><link name=\"wrist_1\"/><link name=\"wrist_2\"/><link name=\"wrist_3\"/>"
        "<link name=\"tool\"/>" JOINT("base_turn", "base", "turret", "0 0 0.25", "0 0 1", "-2.9", "2.9")
            JOINT("shoulder", "turret", "upper_arm", "0.05 0 0.15", "0 1 0", "-1.6", "1.9")
                JOINT("elbow", "upper_arm", "forearm", "0 0 0.45", "0 1 0", "-2.6", "1.2")
                    JOINT("wrist_roll", "forearm", "wrist_1", "0.2 0 0.05", "1 0 0", "-3.0", "3.0")
                        JOINT("wrist_pitch", "wrist_1", "wrist_2", "0.22 0 0", "0 1 0", "-2.0", "2.0")
                            JOINT("flange_roll", "wrist_2", "wrist_3", "0.06 0 0", "1 0 0", "-3.1", "3.1")
        "<joint name=\"tool_mount\" type=\"fixed\"><parent link=\"wrist_3\"/><child link=\"tool\"/>"
        "<origin xyz=\"0.05 0 0\" rpy=\"0 1.5707963 0\"/></joint></robot>";
#undef JOINT
    char *buffer = ikw_input_buffer((int)sizeof urdf - 1);
    const float *tool;
    float start[7];
    int f;
    if (!buffer) return -1;
    memcpy(buffer, urdf, sizeof urdf - 1);
    if (ikw_robot_read((int)sizeof urdf - 1) != 0 || ikw_robot_use(ikw_robot_tip(0)) != 0) return -1;
    tool = ikw_robot_frames() + 7 * 7;
    memcpy(start, tool, sizeof start);
    for (f = 0; f < frames; ++f) {
        float a = 0.05f * (float)f, turn = 0.3f * sinf(a);
        /* the start turn, then a turn about the base's z: q = (0, 0, sin t/2, cos t/2) * start */
        float s = sinf(turn / 2), c = cosf(turn / 2);
        float qx = c * start[3] - s * start[4], qy = c * start[4] + s * start[3], qz = c * start[5] + s * start[6];
        float qw = c * start[6] - s * start[5];
        if (ikw_robot_solve(start[0] + 0.1f * cosf(a) - 0.1f, start[1] + 0.1f * sinf(a), start[2], qx, qy, qz, qw, 1,
                            1) != 0)
            return -1;
    }
    return ikw_robot_position_error();
}

IKW_EXPORT(ikw_bench_case) float ikw_bench_case(int which, int frames) {
    switch (which) {
        case IKW_BENCH_TAIL_DLS:
            return tail_case(IKW_DLS_SPRINGS, frames);
        case IKW_BENCH_TAIL_CCD:
            return tail_case(IKW_CCD, frames);
        case IKW_BENCH_TAIL_FABRIK:
            return tail_case(IKW_FABRIK, frames);
        case IKW_BENCH_PLANAR_FABRIK:
            return planar_case(frames);
        case IKW_BENCH_HUMANOID:
            return humanoid_case(frames);
        case IKW_BENCH_ROBOT:
            return robot_case(frames);
        case IKW_BENCH_HUMANOID_FULL:
            return humanoid_full_case(frames);
        default:
            return -1;
    }
}

/* A robot arm for the playground: the page reads a URDF file with the
 * browser's own XML parser (web/urdf_file.js; libxml2 is not built for
 * wasm), walks its tree from the root link to a chosen tip link and hands
 * that chain's joints here as plain numbers. This file fills an
 * ik_robot_chain from them exactly as ik_urdf_robot_chain fills one from the
 * native reader (origins through ik_urdf_origin; one variable per distinct
 * mimic leader, in chain order) and solves the tool pose with the numeric
 * pose IK (ik_robot_ik_run), limits kept. */
#include <ikit/robot.h>
#include <ikit/robot_ik.h>
#include <ikit/urdf.h>

#include <math.h>
#include <stdio.h>

#include "ikit_web.h"

enum { IKW_ROBOT_SCRATCH_BYTES = 64 * 1024, IKW_ROBOT_MAX_ITERATIONS = 300 };

static union {
    ik_real align;
    unsigned char bytes[IKW_ROBOT_SCRATCH_BYTES];
} robot_scratch;

static struct {
    double in[IKW_ROBOT_FIELDS * IK_ROBOT_MAX_JOINTS]; /* written by the page (ikw_robot_joint_buffer) */
    ik_robot_chain chain;
    ik_real q[IK_ROBOT_MAX_JOINTS], lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS];
    ik_bool limited[IK_ROBOT_MAX_JOINTS];
    float frames[7 * (IK_ROBOT_MAX_JOINTS + 1)]; /* base, then each joint's child link: x y z qx qy qz qw */
    float position_error, angle_error;
    int iterations, reached;
    unsigned long solves; /* seeds each solve's restarts, so a frame that did not reach tries new ones */
} arm;

IKW_EXPORT(ikw_robot_joint_buffer) double *ikw_robot_joint_buffer(void) { return arm.in; }
IKW_EXPORT(ikw_robot_max_joints) int ikw_robot_max_joints(void) { return IK_ROBOT_MAX_JOINTS; }
IKW_EXPORT(ikw_robot_joint_count) int ikw_robot_joint_count(void) { return arm.chain.joint_count; }
IKW_EXPORT(ikw_robot_variable_count) int ikw_robot_variable_count(void) { return arm.chain.variable_count; }
IKW_EXPORT(ikw_robot_q) ik_real *ikw_robot_q(void) { return arm.q; }
IKW_EXPORT(ikw_robot_lower) const ik_real *ikw_robot_lower(void) { return arm.lower; }
IKW_EXPORT(ikw_robot_upper) const ik_real *ikw_robot_upper(void) { return arm.upper; }
IKW_EXPORT(ikw_robot_frames) const float *ikw_robot_frames(void) { return arm.frames; }
IKW_EXPORT(ikw_robot_position_error) float ikw_robot_position_error(void) { return arm.position_error; }
IKW_EXPORT(ikw_robot_angle_error) float ikw_robot_angle_error(void) { return arm.angle_error; }
IKW_EXPORT(ikw_robot_iterations) int ikw_robot_iterations(void) { return arm.iterations; }
IKW_EXPORT(ikw_robot_reached) int ikw_robot_reached(void) { return arm.reached; }

static ik_result refuse(int joint, const char *why, ik_result r) {
    char text[160];
    snprintf(text, sizeof text, "chain joint %d: %s", joint, why);
    ikw_set_message(text);
    return r;
}

/* One chain joint from its IKW_ROBOT_FIELDS numbers (see ikit_web.h); the
 * variable is assigned by the caller. */
static ik_result read_joint(int k, ik_robot_joint *out, int *leader) {
    const double *f = &arm.in[IKW_ROBOT_FIELDS * k];
    double length;
    int i;
    for (i = 0; i < IKW_ROBOT_FIELDS; ++i)
        if (!isfinite(f[i])) return refuse(k, "a number is not finite", IK_ERR_NONFINITE);
    if (f[0] != (int)f[0] || f[0] < IK_ROBOT_FIXED || f[0] > IK_ROBOT_PRISMATIC)
        return refuse(k, "unknown joint type", IK_ERR_RANGE);
    out->type = (ik_robot_joint_type)(int)f[0];
    out->origin = ik_urdf_origin(f + 1, f + 4);
    length = sqrt(f[7] * f[7] + f[8] * f[8] + f[9] * f[9]);
    if (!(length > 0)) return refuse(k, "the axis is zero", IK_ERR_DEGENERATE);
    out->axis = ik_v3((ik_real)(f[7] / length), (ik_real)(f[8] / length), (ik_real)(f[9] / length));
    /* as ik_urdf_robot_chain: limits only where given, never on continuous joints */
    if (f[10] != 0 && out->type != IK_ROBOT_CONTINUOUS) {
        out->lower = (ik_real)f[11];
        out->upper = (ik_real)f[12];
    } else {
        out->lower = out->upper = 0;
    }
    out->variable = -1;
    out->multiplier = (ik_real)f[14];
    out->offset = (ik_real)f[15];
    *leader = (int)f[13];
    return IK_OK;
}

/* Variable v holds the value of the zero configuration, moved inside its limits. */
static void start_pose(void) {
    int v;
    for (v = 0; v < arm.chain.variable_count; ++v)
        arm.q[v] = arm.limited[v] ? ik_clampr((ik_real)0, arm.lower[v], arm.upper[v]) : 0;
}

/* Each link's frame in the base frame, from arm.q. */
static ik_result store_frames(void) {
    ik_transform links_bs[IK_ROBOT_MAX_JOINTS], tip_bs;
    int k;
    ik_result r = ik_robot_fk(&arm.chain, arm.q, &tip_bs, links_bs);
    if (r != IK_OK) return r;
    arm.frames[0] = arm.frames[1] = arm.frames[2] = 0;
    arm.frames[3] = arm.frames[4] = arm.frames[5] = 0;
    arm.frames[6] = 1;
    for (k = 0; k < arm.chain.joint_count; ++k) {
        float *f = &arm.frames[7 * (k + 1)];
        const ik_transform *t = &links_bs[k];
        f[0] = (float)t->translation.x, f[1] = (float)t->translation.y, f[2] = (float)t->translation.z;
        f[3] = (float)t->rotation.x, f[4] = (float)t->rotation.y, f[5] = (float)t->rotation.z;
        f[6] = (float)t->rotation.w;
    }
    return IK_OK;
}

/* The chain of `joint_count` joints written to ikw_robot_joint_buffer(),
 * base first. A moving joint's field 13 names its final mimic leader (any
 * id: the URDF joint index; its own for an ordinary joint), 14 and 15 the
 * composed multiplier and offset (1 and 0 for an ordinary joint): joints
 * with the same leader share a variable, numbered in chain order (as
 * ik_urdf_robot_chain numbers them). On error the old chain stays and
 * ikw_message() says why. */
IKW_EXPORT(ikw_robot_load) int ikw_robot_load(int joint_count) {
    ik_robot_chain chain;
    int leaders[IK_ROBOT_MAX_JOINTS], bad = -1, k, v;
    ik_result r;
    if (joint_count < 1 || joint_count > IK_ROBOT_MAX_JOINTS) {
        ikw_set_message("the chain must have 1 to 64 joints");
        return IK_ERR_RANGE;
    }
    chain.joint_count = joint_count;
    chain.variable_count = 0;
    for (k = 0; k < joint_count; ++k) {
        int leader;
        r = read_joint(k, &chain.joints[k], &leader);
        if (r != IK_OK) return r;
        if (chain.joints[k].type == IK_ROBOT_FIXED) {
            chain.joints[k].multiplier = 1;
            chain.joints[k].offset = 0;
            continue;
        }
        for (v = 0; v < chain.variable_count && leaders[v] != leader; ++v) continue;
        if (v == chain.variable_count) leaders[chain.variable_count++] = leader;
        chain.joints[k].variable = v;
    }
    if (chain.variable_count == 0) {
        ikw_set_message("the chain has no moving joint");
        return IK_ERR_RANGE;
    }
    r = ik_robot_variable_limits(&chain, arm.lower, arm.upper, arm.limited, &bad);
    if (r != IK_OK) return refuse(bad, "its limits are not usable (lower above upper, or a mimic multiplier of 0)", r);
    arm.chain = chain;
    start_pose();
    return store_frames();
}

/* The configuration the page wrote into ikw_robot_q() (sliders), each value
 * held inside its limits, drawn. */
IKW_EXPORT(ikw_robot_pose) int ikw_robot_pose(void) {
    int v;
    for (v = 0; v < arm.chain.variable_count; ++v) {
        if (!isfinite(arm.q[v])) arm.q[v] = 0;
        if (arm.limited[v]) arm.q[v] = ik_clampr(arm.q[v], arm.lower[v], arm.upper[v]);
    }
    return store_frames();
}

/* The tool (the chain's tip link) toward a goal pose in the base frame,
 * from the current configuration (warm start), within a per-frame budget of
 * IKW_ROBOT_MAX_ITERATIONS; each call seeds the random restarts afresh, so
 * a goal not reached in one frame gets new restarts in the next.
 * orientation 0 solves for the position only. */
IKW_EXPORT(ikw_robot_solve)
int ikw_robot_solve(float x, float y, float z, float qx, float qy, float qz, float qw, int orientation, int repeats) {
    ik_robot_ik job = ik_robot_ik_def();
    ik_real seed[IK_ROBOT_MAX_JOINTS], position_error = 0, angle_error = 0;
    ik_bool reached = 0;
    int iterations = 0, k, v;
    ik_result r = IK_OK;
    ik_quat rotation = ik_q(qx, qy, qz, qw);
    if (arm.chain.variable_count == 0) {
        ikw_set_message("no robot loaded");
        return IK_ERR_RANGE;
    }
    if (!(ik_quat_dot(rotation, rotation) > 1e-12f)) {
        ikw_set_message("the goal rotation is zero");
        return IK_ERR_DEGENERATE;
    }
    for (v = 0; v < arm.chain.variable_count; ++v) seed[v] = arm.q[v];
    job.chain = &arm.chain;
    job.goal_position_bs = ik_v3(x, y, z);
    job.goal_rotation_bs = ik_quat_normalize(rotation);
    job.orientation_importance = orientation ? 1 : 0;
    job.q_seed = seed;
    job.max_iterations = IKW_ROBOT_MAX_ITERATIONS;
    job.random_seed = ++arm.solves;
    job.scratch = robot_scratch.bytes;
    job.scratch_bytes = sizeof robot_scratch.bytes;
    job.q_out = arm.q;
    job.reached = &reached;
    job.position_error = &position_error;
    job.angle_error = &angle_error;
    job.iterations = &iterations;
    for (k = 0; k < (repeats < 1 ? 1 : repeats) && r == IK_OK; ++k) r = ik_robot_ik_run(&job);
    if (r != IK_OK) {
        ikw_set_message(ik_result_str(r));
        return r;
    }
    arm.position_error = (float)position_error;
    arm.angle_error = (float)angle_error;
    arm.iterations = iterations;
    arm.reached = reached;
    return store_frames();
}

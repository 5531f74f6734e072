/* A robot arm for the playground: a URDF document the page hands in is read
 * by the library's own reader (ik_urdf_read_memory, the same words for a bad
 * file as ikc's), the chain from its root link to a chosen tip link made by
 * ik_urdf_robot_chain, and the tool pose solved with the numeric pose IK
 * (ik_robot_ik_run), limits kept. The tip links the page offers are the
 * tree's leaves, best first: most rotating joints above them, then the
 * fewest prismatic ones (a hand's tool point before its fingers), then
 * document order. */
#include <ikit/robot.h>
#include <ikit/robot_ik.h>
#include <ikit/robot_free_ik.h>
#include <ikit/urdf.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ikit_web.h"

enum { IKW_ROBOT_SCRATCH_BYTES = 64 * 1024, IKW_ROBOT_MAX_ITERATIONS = 300 };

static union {
    ik_real align;
    unsigned char bytes[IKW_ROBOT_SCRATCH_BYTES];
} robot_scratch;

static struct {
    ik_urdf *urdf;   /* the robot whose chain is loaded */
    ik_urdf *staged; /* one just read, until a chain of it loads (ikw_robot_use) */
    int *tips, tip_count;
    int variable_joints[IK_ROBOT_MAX_JOINTS]; /* the URDF joint each variable is the value of */
    float joints[4 * IK_ROBOT_MAX_JOINTS];    /* per chain joint: type, axis xyz */
    ik_robot_chain chain;
    ik_real q[IK_ROBOT_MAX_JOINTS], lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS];
    ik_bool limited[IK_ROBOT_MAX_JOINTS];
    float frames[7 * (IK_ROBOT_MAX_JOINTS + 1)]; /* base, then each joint's child link: x y z qx qy qz qw */
    float position_error, angle_error;
    int iterations, reached;
    unsigned long solves; /* seeds each solve's restarts, so a frame that did not reach tries new ones */
} arm;

IKW_EXPORT(ikw_robot_max_joints) int ikw_robot_max_joints(void) { return IK_ROBOT_MAX_JOINTS; }
IKW_EXPORT(ikw_robot_joint_count) int ikw_robot_joint_count(void) { return arm.chain.joint_count; }
IKW_EXPORT(ikw_robot_variable_count) int ikw_robot_variable_count(void) { return arm.chain.variable_count; }
IKW_EXPORT(ikw_robot_q) ik_real *ikw_robot_q(void) { return arm.q; }
IKW_EXPORT(ikw_robot_lower) const ik_real *ikw_robot_lower(void) { return arm.lower; }
IKW_EXPORT(ikw_robot_upper) const ik_real *ikw_robot_upper(void) { return arm.upper; }
IKW_EXPORT(ikw_robot_frames) const float *ikw_robot_frames(void) { return arm.frames; }
IKW_EXPORT(ikw_robot_joints) const float *ikw_robot_joints(void) { return arm.joints; }
IKW_EXPORT(ikw_robot_position_error) float ikw_robot_position_error(void) { return arm.position_error; }
IKW_EXPORT(ikw_robot_angle_error) float ikw_robot_angle_error(void) { return arm.angle_error; }
IKW_EXPORT(ikw_robot_iterations) int ikw_robot_iterations(void) { return arm.iterations; }
IKW_EXPORT(ikw_robot_reached) int ikw_robot_reached(void) { return arm.reached; }

/* The robot the page asks about: the one just read, else the loaded one. */
static const ik_urdf *shown(void) { return arm.staged ? arm.staged : arm.urdf; }

IKW_EXPORT(ikw_robot_name) const char *ikw_robot_name(void) { return shown() && shown()->name ? shown()->name : ""; }
IKW_EXPORT(ikw_robot_link_count) int ikw_robot_link_count(void) { return shown() ? shown()->link_count : 0; }
IKW_EXPORT(ikw_robot_urdf_joint_count) int ikw_robot_urdf_joint_count(void) {
    return shown() ? shown()->joint_count : 0;
}
IKW_EXPORT(ikw_robot_link_name) const char *ikw_robot_link_name(int link) {
    return shown() && link >= 0 && link < shown()->link_count ? shown()->links[link].name : "";
}
IKW_EXPORT(ikw_robot_tip_count) int ikw_robot_tip_count(void) { return arm.tip_count; }
IKW_EXPORT(ikw_robot_tip) int ikw_robot_tip(int k) { return k >= 0 && k < arm.tip_count ? arm.tips[k] : -1; }
/* The name of the URDF joint whose value variable v is (its mimic leader's, for a mimic joint). */
IKW_EXPORT(ikw_robot_variable_name) const char *ikw_robot_variable_name(int v) {
    return arm.urdf && v >= 0 && v < arm.chain.variable_count ? arm.urdf->joints[arm.variable_joints[v]].name : "";
}

/* A leaf's rank: rotating joints above it (more first), then prismatic ones (fewer first). */
static int tip_rank(const ik_urdf *u, int link) {
    int rotating = 0, prismatic = 0;
    for (; u->links[link].parent_joint >= 0; link = u->joints[u->links[link].parent_joint].parent_link) {
        ik_robot_joint_type type = u->joints[u->links[link].parent_joint].type;
        rotating += type == IK_ROBOT_REVOLUTE || type == IK_ROBOT_CONTINUOUS;
        prismatic += type == IK_ROBOT_PRISMATIC;
    }
    return rotating * (IK_URDF_MAX_ITEMS + 1) - prismatic;
}

/* The leaves below the root, best first (a stable insertion sort by rank:
 * document order among equals). */
static ik_result find_tips(const ik_urdf *u) {
    int link, j, k, *ranks, *has_child;
    free(arm.tips);
    arm.tip_count = 0;
    arm.tips = (int *)calloc(3 * ((size_t)u->link_count + 1), sizeof *arm.tips);
    if (!arm.tips) return IK_ERR_NO_MEMORY;
    ranks = arm.tips + u->link_count + 1;
    has_child = ranks + u->link_count + 1;
    for (j = 0; j < u->joint_count; ++j) has_child[u->joints[j].parent_link] = 1;
    for (link = 0; link < u->link_count; ++link) {
        int rank;
        if (link == u->root_link || has_child[link]) continue;
        rank = tip_rank(u, link);
        for (k = arm.tip_count; k > 0 && ranks[k - 1] < rank; --k) {
            arm.tips[k] = arm.tips[k - 1];
            ranks[k] = ranks[k - 1];
        }
        arm.tips[k] = link;
        ranks[k] = rank;
        ++arm.tip_count;
    }
    return IK_OK;
}

/* The URDF document of `length` bytes in ikw_input_buffer() read by the
 * library; its links and tips are then what the page is told about, and its
 * chain is loaded by ikw_robot_use. On error ikw_message() holds the
 * reader's message (ikc's words) and the loaded robot stays. */
IKW_EXPORT(ikw_robot_read) int ikw_robot_read(int length) {
    const char *text = ikw_input_buffer(length);
    ik_urdf *u = NULL;
    ik_error err;
    ik_result r;
    if (!text || length < 0) {
        ikw_set_message("the URDF text is not in the input buffer");
        return IK_ERR_RANGE;
    }
    r = ik_urdf_read_memory(text, (size_t)length, &u, &err);
    if (r == IK_OK) r = find_tips(u);
    if (r == IK_OK && arm.tip_count == 0) {
        snprintf(err.message, sizeof err.message, "no joint moves a link");
        r = IK_ERR_NOT_FOUND;
    }
    if (r != IK_OK) {
        ik_urdf_free(u);
        ikw_set_message(err.message[0] ? err.message : ik_result_str(r));
        ik_urdf_free(arm.staged);
        arm.staged = NULL;
        if (arm.urdf) find_tips(arm.urdf);
        return r;
    }
    ik_urdf_free(arm.staged);
    arm.staged = u;
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
    return ikw_cell_check(arm.q, links_bs);
}

/* The chain from the root link to link `tip` of the robot just read (or,
 * when none is waiting, of the loaded one), made by ik_urdf_robot_chain and
 * posed at zero inside its limits. A robot just read becomes the loaded one.
 * On error the old chain stays, a robot just read is dropped, and
 * ikw_message() says why. */
IKW_EXPORT(ikw_robot_use) int ikw_robot_use(int tip) {
    const ik_urdf *u = shown();
    ik_robot_chain chain;
    ik_error err;
    int variable_joints[IK_ROBOT_MAX_JOINTS], bad = -1, k;
    ik_result r = IK_ERR_RANGE;
    err.message[0] = '\0';
    if (!u || tip < 0 || tip >= u->link_count)
        snprintf(err.message, sizeof err.message, "%s", u ? "no such link" : "no robot read");
    else
        r = ik_urdf_robot_chain(u, u->links[u->root_link].name, u->links[tip].name, &chain, variable_joints, &err);
    if (r == IK_OK && chain.variable_count == 0) {
        snprintf(err.message, sizeof err.message, "the chain has no moving joint");
        r = IK_ERR_RANGE;
    }
    if (r == IK_OK) {
        r = ik_robot_variable_limits(&chain, arm.lower, arm.upper, arm.limited, &bad);
        if (r != IK_OK)
            snprintf(err.message, sizeof err.message,
                     "chain joint %d: its limits are not usable (lower above upper, or a mimic multiplier of 0)", bad);
    }
    if (r != IK_OK) {
        ikw_set_message(err.message[0] ? err.message : ik_result_str(r));
        if (arm.staged) {
            ik_urdf_free(arm.staged);
            arm.staged = NULL;
            if (arm.urdf) find_tips(arm.urdf);
        }
        if (arm.chain.variable_count > 0) ik_robot_variable_limits(&arm.chain, arm.lower, arm.upper, arm.limited, NULL);
        return r;
    }
    if (arm.staged) {
        ik_urdf_free(arm.urdf);
        arm.urdf = arm.staged;
        arm.staged = NULL;
    }
    arm.chain = chain;
    {
        /* Frame names for the cell's readout: the root, then each chain joint's child link (up from the tip). */
        const char *names[IK_ROBOT_MAX_JOINTS + 1] = {NULL};
        int link = tip;
        names[0] = arm.urdf->links[arm.urdf->root_link].name;
        for (k = chain.joint_count; k > 0 && link >= 0; --k) {
            names[k] = arm.urdf->links[link].name;
            link = arm.urdf->links[link].parent_joint >= 0
                       ? arm.urdf->joints[arm.urdf->links[link].parent_joint].parent_link
                       : -1;
        }
        ikw_cell_build(&arm.chain, names); /* an arm it cannot model (too many links) gets no cell */
    }
    for (k = 0; k < chain.variable_count; ++k) arm.variable_joints[k] = variable_joints[k];
    for (k = 0; k < chain.joint_count; ++k) {
        arm.joints[4 * k] = (float)chain.joints[k].type;
        arm.joints[4 * k + 1] = (float)chain.joints[k].axis.x;
        arm.joints[4 * k + 2] = (float)chain.joints[k].axis.y;
        arm.joints[4 * k + 3] = (float)chain.joints[k].axis.z;
    }
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
    for (k = 0; k < (repeats < 1 ? 1 : repeats) && r == IK_OK; ++k) {
        if (!ikw_cell_is_on()) {
            r = ik_robot_ik_run(&job);
            continue;
        }
        /* In the cell: the collision-free pose IK, which reports no errors; measured here. */
        r = ikw_cell_solve(&job, &reached);
        if (r == IK_OK) {
            ik_transform tip_bs;
            r = ik_robot_fk(&arm.chain, arm.q, &tip_bs, NULL);
            position_error = ik_vec3_distance(tip_bs.translation, job.goal_position_bs);
            angle_error = ik_quat_angle(ik_quat_mul(ik_quat_conjugate(job.goal_rotation_bs), tip_bs.rotation));
            iterations = 0;
        }
    }
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

/* `ikc render ROBOT.urdf --tip LINK [--joints q1,... | --pose x,y,z,qx,qy,qz,qw] -o OUT`:
 * a picture of a robot arm's chain, drawn the way ikc draws skeletons
 * (draw.h, scene_view.h): links as bones, joints as dots, revolute limits
 * as hinge arcs, and the goal pose as a cross. The arm stands Z-up as URDF
 * has it, turned to the pictures' Y-up. */
#include <stdlib.h>
#include <string.h>

#include <ikit/constraint.h>
#include <ikit/robot_ik.h>

#include "draw.h"
#include "ikc.h"
#include "robot_arm.h"

typedef struct render_request {
    ikc_arm_args args;
    const char *out;
    ik_real joints[IK_ROBOT_MAX_JOINTS];
    int joint_count;
    ik_real pose[7];
    int pose_count;
    ikc_view view;
    int width, height;
} render_request;

static void usage(FILE *out) {
    fprintf(out,
            "usage: ikc render ROBOT.urdf --tip LINK [--base LINK]\n"
            "                  [--joints q1,q2,... | --pose x,y,z[,qx,qy,qz,qw]]\n"
            "                  [--view front|side|top|persp] [--size WxH] -o OUT.svg|.png|.pdf\n"
            "\n"
            "Draws the chain from the base link (the root by default) to LINK: links as\n"
            "bones, joints as dots, each revolute joint's limits as an arc about its axis\n"
            "(a full circle for a continuous joint or limits a turn or more apart).\n"
            "The joint values are --joints (one per variable, in `ikc info`'s order), or\n"
            "the ones `ikc solve` finds for --pose (drawn as a cross), or else each joint\n"
            "at 0 (moved into its limits).\n"
            "\n"
            "  --size WxH  picture size in pixels (PNG) or points (SVG, PDF); default 1000x800\n"
            "\n"
            "examples:\n"
            "  ikc render ur5.urdf --tip ee_link --joints 0,-1.2,1.5,-0.3,1.57,0 -o ur5.png\n"
            "  ikc render panda.urdf --tip panda_link8 --pose 0.5,0,0.4 -o panda.svg\n"
            "\n"
            "exit codes: 0 ok (a pose out of reach is a warning: the closest pose is drawn),\n"
            "2 bad usage, 3 file missing, 4 file malformed, 5 unknown link, 6 output not\n"
            "written.\n");
}

static int parse(int argc, char **argv, render_request *req) {
    static const char *const valued[] = {"--tip", "--base", "--joints", "--pose", "--view", "--size", "-o", "--output"};
    int i;
    memset(req, 0, sizeof *req);
    req->view = IKC_VIEW_PERSP;
    req->width = 1000;
    req->height = 800;
    for (i = 0; i < argc; ++i) {
        const char *a = argv[i], *value = NULL;
        int code = ikc_arm_arg("render", " for a URDF robot", argc, argv, &i, valued, sizeof valued / sizeof valued[0],
                               usage, &req->args, &value);
        if (code == IKC_ARG_TAKEN) continue;
        if (code != IKC_ARG_VALUE) return code;
        if (strcmp(a, "--joints") == 0) {
            req->joint_count = ikc_parse_reals(value, ',', req->joints, 1, IK_ROBOT_MAX_JOINTS);
            if (req->joint_count < 1) {
                fprintf(stderr, "ikc render: --joints wants numbers split by commas, not '%s'\n", ikc_shown(value));
                return IKC_EXIT_USAGE;
            }
        } else if (strcmp(a, "--pose") == 0) {
            if (!(req->pose_count = ikc_parse_pose("render", value, req->pose))) return IKC_EXIT_USAGE;
        } else if (strcmp(a, "--size") == 0) {
            if (!ikc_parse_size(value, &req->width, &req->height)) {
                fprintf(stderr, "ikc render: --size: want WxH between 64 and 16384, got '%s'\n", ikc_shown(value));
                return IKC_EXIT_USAGE;
            }
        } else if (strcmp(a, "--view") == 0) {
            if (!ikc_view_parse(value, &req->view)) {
                fprintf(stderr, "ikc render: --view: unknown view '%s' (front, side, top, persp)\n", ikc_shown(value));
                return IKC_EXIT_USAGE;
            }
        } else {
            req->out = value;
        }
    }
    if (!req->args.path || !req->args.tip || !req->out || (req->joint_count && req->pose_count)) {
        fprintf(stderr,
                "ikc render: a URDF robot needs FILE, --tip LINK and -o OUT (and --joints or --pose, not both)\n");
        usage(stderr);
        return IKC_EXIT_USAGE;
    }
    return IKC_EXIT_OK;
}

/* The joint values to draw: --joints (inside the limits), the solve of
 * --pose from mid-range, or 0 moved into each variable's limits. */
static int configuration(const render_request *req, const ikc_arm *arm, ik_real *q) {
    ik_real lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS], seed[IK_ROBOT_MAX_JOINTS];
    ik_bool limited[IK_ROBOT_MAX_JOINTS], reached = 0;
    int v, n = arm->chain.variable_count;
    if (ik_robot_variable_limits(&arm->chain, lower, upper, limited, NULL) != IK_OK) {
        fprintf(stderr, "ikc render: %s: the chain's joint limits leave a joint no value\n", ikc_shown(req->args.path));
        return IKC_EXIT_FORMAT;
    }
    if (req->joint_count) {
        if (req->joint_count != n) {
            fprintf(stderr, "ikc render: --joints has %d values; the chain has %d variables\n", req->joint_count, n);
            return IKC_EXIT_USAGE;
        }
        for (v = 0; v < n; ++v) q[v] = req->joints[v];
        return IKC_EXIT_OK;
    }
    for (v = 0; v < n; ++v) {
        q[v] = ik_clampr(0, lower[v], upper[v]);
        seed[v] = (lower[v] + upper[v]) / 2;
    }
    if (req->pose_count) {
        void *scratch = malloc(ik_robot_ik_scratch_size(n));
        ik_robot_ik job = ikc_arm_pose_job(arm, req->pose, req->pose_count, seed, q);
        ik_result r;
        if (!scratch) return IKC_EXIT_FAILURE;
        job.max_iterations = 20000;
        job.scratch = scratch;
        job.scratch_bytes = ik_robot_ik_scratch_size(n);
        job.reached = &reached;
        r = ik_robot_ik_run(&job);
        free(scratch);
        if (r != IK_OK) {
            fprintf(stderr, "ikc render: --pose: %s\n", ik_result_str(r));
            return IKC_EXIT_USAGE;
        }
        if (!reached) fprintf(stderr, "ikc render: warning: the pose is out of reach; drawing the closest pose\n");
    }
    return IKC_EXIT_OK;
}

/* The chain as a skeleton (the base, then each joint's child link) posed at
 * q: model_ms[0] = the Z-up to Y-up turn, model_ms[k + 1] = turn * link k's
 * frame (ik_robot_fk), pose_ls[k + 1] = link k-1's frame^-1 * link k's; each
 * revolute joint a hinge about its axis measured from its origin's rotation,
 * a continuous one a hinge of a whole turn (drawn as a full circle). */
static void pose_chain(const ikc_arm *arm, const ik_real *q, ik_transform *pose_ls, ik_mat4 *model_ms,
                       ik_constraint *constraints) {
    const ik_transform turn =
        ik_transform_make(ik_vec3_zero(), ik_quat_from_axis_angle(ik_v3(1, 0, 0), -IK_PI / 2), ik_v3(1, 1, 1));
    ik_transform links_bs[IK_ROBOT_MAX_JOINTS], tip, previous = ik_transform_identity();
    int k;
    ik_robot_fk(&arm->chain, q, &tip, links_bs);
    pose_ls[0] = turn;
    model_ms[0] = ik_transform_to_mat4(turn);
    memset(constraints, 0, (size_t)(arm->chain.joint_count + 1) * sizeof *constraints);
    for (k = 0; k < arm->chain.joint_count; ++k) {
        const ik_robot_joint *joint = &arm->chain.joints[k];
        pose_ls[k + 1] = ik_transform_mul(ik_transform_inverse(previous), links_bs[k]);
        model_ms[k + 1] = ik_transform_to_mat4(ik_transform_mul(turn, links_bs[k]));
        previous = links_bs[k];
        if (joint->multiplier != 1 || joint->offset != 0) continue;
        if (joint->type == IK_ROBOT_REVOLUTE)
            constraints[k + 1] = ik_constraint_hinge(joint->origin.rotation, joint->axis, joint->lower, joint->upper);
        else if (joint->type == IK_ROBOT_CONTINUOUS)
            constraints[k + 1] = ik_constraint_hinge(joint->origin.rotation, joint->axis, -IK_PI, IK_PI);
    }
}

static int draw(const render_request *req, const ik_urdf *u, const ikc_arm *arm, const ik_real *q) {
    static ik_transform pose_ls[IK_ROBOT_MAX_JOINTS + 1];
    static ik_mat4 model_ms[IK_ROBOT_MAX_JOINTS + 1];
    static ik_constraint constraints[IK_ROBOT_MAX_JOINTS + 1];
    static int parents[IK_ROBOT_MAX_JOINTS + 1], highlight[IK_ROBOT_MAX_JOINTS + 1];
    static const char *names[IK_ROBOT_MAX_JOINTS + 1];
    const int n = arm->chain.joint_count + 1;
    ik_skeleton skeleton;
    ikc_panel panel;
    ikc_picture pic;
    ik_vec3 goal_ms;
    char title[300], error[512];
    int k;
    for (k = 0; k < n; ++k) {
        parents[k] = k - 1;
        highlight[k] = k;
        names[k] = k == 0 ? (req->args.base ? req->args.base : u->links[u->root_link].name)
                          : u->links[u->joints[arm->joints[k - 1]].child_link].name;
    }
    pose_chain(arm, q, pose_ls, model_ms, constraints);
    memset(&skeleton, 0, sizeof skeleton);
    skeleton.joint_count = n;
    skeleton.parents = parents;
    skeleton.names = names;
    skeleton.rest_ls = pose_ls;
    memset(&panel, 0, sizeof panel);
    panel.skeleton = &skeleton;
    panel.pose_ls = pose_ls;
    panel.model_ms = model_ms;
    panel.constraints = constraints;
    panel.highlight = highlight;
    panel.highlight_count = n;
    panel.label_joints = 2;
    if (req->pose_count) {
        goal_ms = ik_v3(req->pose[0], req->pose[2], -req->pose[1]); /* the Z-up to Y-up turn */
        panel.targets_ms = &goal_ms;
        panel.target_count = 1;
    }
    snprintf(title, sizeof title, "%s: %s to %s", ikc_shown(req->args.path), names[0], ikc_shown(req->args.tip));
    memset(&pic, 0, sizeof pic);
    pic.title = title;
    pic.panels = &panel;
    pic.panel_count = 1;
    pic.columns = 1;
    pic.view = req->view;
    pic.width = req->width;
    pic.height = req->height;
    pic.show_ground = 1;
    pic.bones = 1;
    pic.ground_y = ikc_picture_lowest(&pic);
    if (!ikc_picture_check(&pic, error, sizeof error)) {
        fprintf(stderr, "ikc render: %s: %s\n", ikc_shown(req->args.path), error);
        return IKC_EXIT_FORMAT;
    }
    if (!ikc_draw_file(&pic, req->out, error, sizeof error)) {
        fprintf(stderr, "ikc render: %s\n", error);
        return IKC_EXIT_WRITE;
    }
    printf("wrote %s (%d links, %s view)\n", req->out, n, ikc_view_name(req->view));
    return IKC_EXIT_OK;
}

int ikc_robot_render(int argc, char **argv) {
    render_request req;
    ik_urdf *u = NULL;
    ikc_arm arm;
    ik_real q[IK_ROBOT_MAX_JOINTS];
    int code = parse(argc, argv, &req);
    if (code != IKC_EXIT_OK) return code < 0 ? IKC_EXIT_OK : code;
    code = ikc_urdf_load("render", req.args.path, &u);
    if (code == IKC_EXIT_OK) code = ikc_arm_chain("render", u, req.args.base, req.args.tip, &arm);
    if (code == IKC_EXIT_OK) code = configuration(&req, &arm, q);
    if (code == IKC_EXIT_OK) code = draw(&req, u, &arm, q);
    ik_urdf_free(u);
    return code;
}

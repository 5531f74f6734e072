/* `ikc solve ROBOT.urdf --tip LINK --pose x,y,z[,qx,qy,qz,qw]`: the joint
 * values that put a robot arm's tip link at a pose (ik_robot_ik), printed,
 * or with --json printed with every link's pose; with --analytic, every
 * closed-form solution (ik_robot_analytic), nearest the seed first. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include <ikit/robot_analytic.h>
#include <ikit/robot_free_ik.h>
#include <ikit/robot_ik.h>

#include "ikc.h"
#include "robot_arm.h"
#include "robot_cell.h"
#include "solve_roles.h"

typedef struct robot_request {
    ikc_arm_args args;
    ik_real pose[7];
    int pose_count; /* 3: position only; 7: with the orientation */
    ik_real seed[IK_ROBOT_MAX_JOINTS];
    int seed_count; /* 0: mid-range */
    int max_iterations, json, analytic;
    ikc_cell_args cell;
} robot_request;

static void usage(FILE *out) {
    fprintf(out,
            "usage: ikc solve ROBOT.urdf --tip LINK --pose x,y,z[,qx,qy,qz,qw] [--base LINK]\n"
            "                 [--seed q1,q2,...] [--iterations N] [--analytic] [--json]\n"
            "                 [--scene SCENE.json [--margin M] [--srdf FILE] [--package-path NAME=DIR]...]\n"
            "\n"
            "Finds joint values that put link LINK at the pose (in the frame of the base link,\n"
            "the robot's root by default): position x, y, z and, when given, the orientation\n"
            "as a unit quaternion qx, qy, qz, qw (position only without it). Every joint stays\n"
            "inside its limits; tolerance 1e-5 m and rad per axis; the solve starts from\n"
            "--seed (one value per variable, in `ikc info`'s chain order) or mid-range, and\n"
            "restarts from seeded random configurations when it stalls (deterministic).\n"
            "On a 6R arm with a closed form, its solutions are the first starts.\n"
            "\n"
            "  --iterations N  iteration budget (default 20000)\n"
            "  --analytic      list every closed-form solution inside the limits, nearest the\n"
            "                  seed first (6R arms with a spherical wrist or three parallel\n"
            "                  axes, found from the axes; needs the orientation)\n"
            "  --json          print the joint values, the errors and every link's pose\n"
            "  --scene FILE    avoid the obstacles of FILE (JSON: {\"frame\": LINK, \"obstacles\": [{\"name\",\n"
            "                  \"box\": [sx,sy,sz] | \"cylinder\": [r,len] | \"sphere\": r | \"mesh\": FILE,\n"
            "                  \"pose\": [x,y,z,qx,qy,qz,qw]}]}, or MoveIt's .scene text export) and the\n"
            "                  robot itself, using the URDF's\n"
            "                  <collision> geometry (bounded by capsules: an answer called free is free);\n"
            "                  every closed-form branch, then restarts, until a free one reaches the pose\n"
            "  --margin M      least distance kept, metres (default 0.01)\n"
            "  --srdf FILE     leave out the link pairs of the SRDF's <disable_collisions>\n"
            "  --package-path NAME=DIR  where package://NAME/ meshes are (repeatable; also\n"
            "                  ROS_PACKAGE_PATH)\n"
            "\n"
            "examples:\n"
            "  ikc solve ur5.urdf --tip tool0 --pose 0.4,0.2,0.3,1,0,0,0\n"
            "  ikc solve panda.urdf --tip panda_link8 --pose 0.5,0,0.4 --json\n"
            "  ikc solve ur5.urdf --tip tool0 --pose 0.4,0.2,0.3,1,0,0,0 --scene cell.json \\\n"
            "      --package-path example-robot-data=DIR\n"
            "\n"
            "exit codes: 0 ok (a pose out of reach is a warning: the closest pose is\n"
            "printed), 1 no collision-free solution found (the closest one and its contacts\n"
            "are printed), 2 bad usage, 3 file missing, 4 file malformed, 5 unknown link.\n");
}

static int parse(int argc, char **argv, robot_request *req) {
    static const char *const valued[] = {"--tip", "--base", "--pose", "--seed", "--iterations", IKC_CELL_OPTIONS};
    int i;
    memset(req, 0, sizeof *req);
    ikc_cell_args_init(&req->cell);
    req->max_iterations = 20000;
    for (i = 0; i < argc; ++i) {
        const char *a = argv[i], *value = NULL;
        int code;
        if (strcmp(a, "--json") == 0 || strcmp(a, "--analytic") == 0) {
            *(a[2] == 'j' ? &req->json : &req->analytic) = 1;
            continue;
        }
        code = ikc_arm_arg("solve", " for a URDF robot", argc, argv, &i, valued, sizeof valued / sizeof valued[0],
                           usage, &req->args, &value);
        if (code == IKC_ARG_TAKEN) continue;
        if (code != IKC_ARG_VALUE) return code;
        code = ikc_cell_option("solve", a, value, &req->cell);
        if (code == IKC_EXIT_USAGE) return code;
        if (code == IKC_ARG_TAKEN) continue;
        if (strcmp(a, "--pose") == 0) {
            if (!(req->pose_count = ikc_parse_pose("solve", value, req->pose))) return IKC_EXIT_USAGE;
        } else if (strcmp(a, "--seed") == 0) {
            req->seed_count = ikc_parse_reals(value, ',', req->seed, 1, IK_ROBOT_MAX_JOINTS);
            if (req->seed_count < 1) {
                fprintf(stderr, "ikc solve: --seed wants numbers split by commas, not '%s'\n", ikc_shown(value));
                return IKC_EXIT_USAGE;
            }
        } else if (!ikc_parse_int(value, &req->max_iterations) || req->max_iterations < 1) {
            fprintf(stderr, "ikc solve: --iterations wants a whole number >= 1, not '%s'\n", ikc_shown(value));
            return IKC_EXIT_USAGE;
        }
    }
    if ((req->cell.srdf || req->cell.package_count) && !req->cell.scene)
        fprintf(stderr, "ikc solve: note: --srdf and --package-path take effect with --scene\n");
    if (!req->args.path || !req->args.tip || !req->pose_count) {
        fprintf(stderr, "ikc solve: a URDF robot needs FILE, --tip LINK and --pose\n");
        usage(stderr);
        return IKC_EXIT_USAGE;
    }
    return IKC_EXIT_OK;
}

/* Mid-range of each variable's limits, or the --seed values (as many as variables). */
static int seed_for(const robot_request *req, const ikc_arm *arm, ik_real *seed) {
    ik_real lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS];
    ik_bool limited[IK_ROBOT_MAX_JOINTS];
    int v, n = arm->chain.variable_count;
    if (ik_robot_variable_limits(&arm->chain, lower, upper, limited, NULL) != IK_OK) {
        fprintf(stderr, "ikc solve: %s: the chain's joint limits leave a joint no value\n", ikc_shown(req->args.path));
        return IKC_EXIT_FORMAT;
    }
    if (req->seed_count && req->seed_count != n) {
        fprintf(stderr, "ikc solve: --seed has %d values; the chain has %d variables\n", req->seed_count, n);
        return IKC_EXIT_USAGE;
    }
    for (v = 0; v < n; ++v) seed[v] = req->seed_count ? req->seed[v] : (lower[v] + upper[v]) / 2;
    return IKC_EXIT_OK;
}

static void print_text(const ik_urdf *u, const ikc_arm *arm, const ik_real *q, ik_bool reached, ik_real pos_err,
                       ik_real ang_err, int iterations, int restarts, ik_robot_ik_start found_by, double seconds) {
    int v;
    printf(
        "%s after %d iterations, %d restarts (from the %s start), %.3f ms: position error %.3g m, "
        "angle error %.3g rad\n",
        reached ? "reached" : "NOT reached (closest pose found)", iterations, restarts, ik_robot_ik_start_str(found_by),
        seconds * 1e3, (double)pos_err, (double)ang_err);
    for (v = 0; v < arm->chain.variable_count; ++v)
        printf("  %-28s %12.6f  (%.3f deg)\n", ikc_shown(u->joints[arm->variable_joints[v]].name), (double)q[v],
               (double)ik_deg(q[v]));
}

static void print_json(const ik_urdf *u, const robot_request *req, const ikc_arm *arm, const ik_real *q,
                       ik_bool reached, ik_real pos_err, ik_real ang_err, int iterations, int restarts,
                       ik_robot_ik_start found_by) {
    ik_transform links_bs[IK_ROBOT_MAX_JOINTS], tip;
    cJSON *root = cJSON_CreateObject(), *joints, *links;
    int v, k;
    ik_robot_fk(&arm->chain, q, &tip, links_bs);
    cJSON_AddItemToObject(root, "file", ikc_json_text(req->args.path));
    cJSON_AddItemToObject(root, "base", ikc_json_text(req->args.base ? req->args.base : u->links[u->root_link].name));
    cJSON_AddItemToObject(root, "tip", ikc_json_text(req->args.tip));
    cJSON_AddBoolToObject(root, "reached", reached);
    cJSON_AddNumberToObject(root, "position_error", (double)pos_err);
    cJSON_AddNumberToObject(root, "angle_error", (double)ang_err);
    cJSON_AddNumberToObject(root, "iterations", iterations);
    cJSON_AddNumberToObject(root, "restarts", restarts);
    cJSON_AddStringToObject(root, "found_by", ik_robot_ik_start_str(found_by));
    joints = cJSON_AddArrayToObject(root, "joints");
    for (v = 0; v < arm->chain.variable_count; ++v) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "name", ikc_json_text(u->joints[arm->variable_joints[v]].name));
        cJSON_AddNumberToObject(o, "value", (double)q[v]);
        cJSON_AddItemToArray(joints, o);
    }
    links = cJSON_AddArrayToObject(root, "links");
    for (k = 0; k < arm->chain.joint_count; ++k) {
        cJSON *o = cJSON_CreateObject(), *rotation;
        const ik_quat r = links_bs[k].rotation;
        cJSON_AddItemToObject(o, "name", ikc_json_text(u->links[u->joints[arm->joints[k]].child_link].name));
        cJSON_AddItemToObject(o, "position", ikc_vec3_json(links_bs[k].translation));
        rotation = cJSON_AddArrayToObject(o, "rotation_xyzw");
        cJSON_AddItemToArray(rotation, cJSON_CreateNumber((double)r.x));
        cJSON_AddItemToArray(rotation, cJSON_CreateNumber((double)r.y));
        cJSON_AddItemToArray(rotation, cJSON_CreateNumber((double)r.z));
        cJSON_AddItemToArray(rotation, cJSON_CreateNumber((double)r.w));
        cJSON_AddItemToArray(links, o);
    }
    ikc_json_print(root);
}

/* Solves with an iteration budget (no clock: the same answer on every run). */
static int solve(const ik_urdf *u, const robot_request *req, const ikc_arm *arm, const ik_real *seed) {
    ik_real q[IK_ROBOT_MAX_JOINTS], pos_err = 0, ang_err = 0;
    ik_bool reached = 0;
    int iterations = 0, restarts = 0;
    ik_robot_ik_start found_by = IK_ROBOT_START_SEED;
    void *scratch = malloc(ik_robot_ik_scratch_size(arm->chain.variable_count));
    ik_robot_ik job = ikc_arm_pose_job(arm, req->pose, req->pose_count, seed, q);
    ik_error bad;
    ik_result r;
    double start;
    if (!scratch) {
        fprintf(stderr, "ikc solve: out of memory\n");
        return IKC_EXIT_FAILURE;
    }
    job.max_iterations = req->max_iterations;
    job.scratch = scratch;
    job.scratch_bytes = ik_robot_ik_scratch_size(arm->chain.variable_count);
    job.reached = &reached;
    job.position_error = &pos_err;
    job.angle_error = &ang_err;
    job.iterations = &iterations;
    job.restarts = &restarts;
    job.found_by = &found_by;
    job.error_field = &bad;
    start = ikc_now();
    r = ik_robot_ik_run(&job);
    free(scratch);
    if (r != IK_OK) {
        if (strcmp(bad.path, "goal_rotation_bs") == 0)
            fprintf(stderr, "ikc solve: --pose: the quaternion qx,qy,qz,qw must have length 1\n");
        else if (strcmp(bad.path, "q_seed") == 0)
            fprintf(stderr, "ikc solve: --seed: value %d (%s) is outside its joint limits\n", bad.index + 1,
                    ikc_shown(u->joints[arm->variable_joints[bad.index]].name));
        else
            fprintf(stderr, "ikc solve: %s: %s (%s)\n", ikc_shown(req->args.path), ik_result_str(r), bad.path);
        return strcmp(bad.path, "chain") == 0 ? IKC_EXIT_FORMAT : IKC_EXIT_USAGE;
    }
    if (req->json)
        print_json(u, req, arm, q, reached, pos_err, ang_err, iterations, restarts, found_by);
    else
        print_text(u, arm, q, reached, pos_err, ang_err, iterations, restarts, found_by, ikc_now() - start);
    if (!reached) fprintf(stderr, "ikc solve: warning: the pose is out of reach; the closest pose found is printed\n");
    return IKC_EXIT_OK;
}

/* Every closed-form solution: one line per solution (text), or a JSON object
 * with the kind, the singular flag and the solutions as arrays of joint values. */
static void print_solutions(const ik_urdf *u, const robot_request *req, const ikc_arm *arm,
                            const ik_robot_analytic_model *model, const ik_real *q, int count, ik_bool singular) {
    int s, v;
    if (req->json) {
        cJSON *root = cJSON_CreateObject(), *names, *list;
        cJSON_AddItemToObject(root, "file", ikc_json_text(req->args.path));
        cJSON_AddItemToObject(root, "base",
                              ikc_json_text(req->args.base ? req->args.base : u->links[u->root_link].name));
        cJSON_AddItemToObject(root, "tip", ikc_json_text(req->args.tip));
        cJSON_AddStringToObject(root, "kind", ik_robot_analytic_kind_str(model->kind));
        cJSON_AddBoolToObject(root, "singular", singular);
        names = cJSON_AddArrayToObject(root, "joints");
        for (v = 0; v < 6; ++v) cJSON_AddItemToArray(names, ikc_json_text(u->joints[arm->variable_joints[v]].name));
        list = cJSON_AddArrayToObject(root, "solutions");
        for (s = 0; s < count; ++s) {
            cJSON *one = cJSON_CreateArray();
            for (v = 0; v < 6; ++v) cJSON_AddItemToArray(one, cJSON_CreateNumber((double)q[6 * s + v]));
            cJSON_AddItemToArray(list, one);
        }
        ikc_json_print(root);
        return;
    }
    printf("%d analytic solution%s (%s%s), nearest the seed first, radians:\n   ", count, count == 1 ? "" : "s",
           ik_robot_analytic_kind_str(model->kind),
           singular ? "; singular pose: a free joint took the seed's value" : "");
    for (v = 0; v < 6; ++v) printf(" %14.14s", ikc_shown(u->joints[arm->variable_joints[v]].name));
    printf("\n");
    for (s = 0; s < count; ++s) {
        printf("%2d:", s + 1);
        for (v = 0; v < 6; ++v) printf(" %14.6f", (double)q[6 * s + v]);
        printf("\n");
    }
}

/* --analytic: the chain's closed form, if its axes allow one, and all its solutions. */
static int solve_analytic(const ik_urdf *u, const robot_request *req, const ikc_arm *arm, const ik_real *seed) {
    ik_robot_analytic_model model;
    ik_robot_analytic job = ik_robot_analytic_def();
    ik_real q[IK_ROBOT_ANALYTIC_MAX_SOLUTIONS * 6];
    ik_bool singular = 0;
    int count = 0;
    const char *why = NULL;
    ik_result r;
    if (req->pose_count != 7) {
        fprintf(stderr, "ikc solve: --analytic needs the orientation: --pose x,y,z,qx,qy,qz,qw\n");
        return IKC_EXIT_USAGE;
    }
    r = ik_robot_analytic_prepare(&arm->chain, &model, &why);
    if (r != IK_OK) {
        fprintf(stderr, "ikc solve: %s: no closed form for this chain: %s\n", ikc_shown(req->args.path),
                why ? why : ik_result_str(r));
        return IKC_EXIT_FORMAT;
    }
    job.model = &model;
    job.goal_position_bs = ik_v3(req->pose[0], req->pose[1], req->pose[2]);
    job.goal_rotation_bs = ik_q(req->pose[3], req->pose[4], req->pose[5], req->pose[6]);
    job.q_seed = seed;
    job.q_out = q;
    job.solution_count = &count;
    job.singular = &singular;
    r = ik_robot_analytic_run(&job);
    if (r != IK_OK) {
        fprintf(stderr, "ikc solve: --pose: %s\n",
                r == IK_ERR_RANGE ? "the quaternion qx,qy,qz,qw must have length 1" : ik_result_str(r));
        return IKC_EXIT_USAGE;
    }
    print_solutions(u, req, arm, &model, q, count, singular);
    if (count == 0) fprintf(stderr, "ikc solve: warning: no closed-form solution inside the limits reaches the pose\n");
    return IKC_EXIT_OK;
}

/* --scene: the collision-free solve (ik_robot_free_ik), its answer and its
 * contacts; exit 1 when no candidate is free. */
static int solve_in_cell(const ik_urdf *u, const robot_request *req, const ikc_arm *arm, const ik_real *seed) {
    ikc_cell cell;
    ik_real q[IK_ROBOT_MAX_JOINTS];
    ik_bool reached = 0, is_free = 0;
    int candidates = 0, code, v;
    size_t scratch_bytes = ik_robot_ik_scratch_size(arm->chain.variable_count);
    void *scratch = malloc(scratch_bytes);
    ik_robot_free_ik job = ik_robot_free_ik_def();
    ik_robot_collision_report report;
    ik_result r;
    double start;
    if (!scratch) return IKC_EXIT_FAILURE;
    code = ikc_cell_load("solve", u, &req->args, arm, &req->cell, &cell);
    if (code != IKC_EXIT_OK) {
        free(scratch);
        ikc_cell_free(&cell);
        return code;
    }
    job.ik = ikc_arm_pose_job(arm, req->pose, req->pose_count, seed, q);
    job.ik.max_iterations = req->max_iterations;
    job.ik.scratch = scratch;
    job.ik.scratch_bytes = scratch_bytes;
    job.model = &cell.model;
    job.obstacles = cell.scene->obstacles;
    job.obstacle_count = cell.scene->obstacle_count;
    job.margin = req->cell.margin;
    job.q_out = q;
    job.reached = &reached;
    job.free = &is_free;
    job.candidates = &candidates;
    job.report = &report;
    start = ikc_now();
    r = ik_robot_free_ik_run(&job);
    free(scratch);
    if (r != IK_OK) {
        fprintf(stderr, "ikc solve: %s\n",
                r == IK_ERR_RANGE ? "--pose: the quaternion must have length 1, or --seed is "
                                    "outside the limits"
                                  : ik_result_str(r));
        ikc_cell_free(&cell);
        return IKC_EXIT_USAGE;
    }
    printf("%s after %d candidate solve%s, %.3f ms\n",
           reached && is_free ? "reached collision-free"
                              : (reached ? "NO COLLISION-FREE SOLUTION FOUND (the reached candidate with the most "
                                           "clearance is printed)"
                                         : "NOT reached (closest pose found)"),
           candidates, candidates == 1 ? "" : "s", (ikc_now() - start) * 1e3);
    for (v = 0; v < arm->chain.variable_count; ++v)
        printf("  %-28s %12.6f  (%.3f deg)\n", ikc_shown(u->joints[arm->variable_joints[v]].name), (double)q[v],
               (double)ik_deg(q[v]));
    ikc_cell_print_report(&cell, &report, req->cell.margin);
    ikc_cell_free(&cell);
    if (!reached) fprintf(stderr, "ikc solve: warning: the pose is out of reach\n");
    if (reached && !is_free) fprintf(stderr, "ikc solve: no collision-free solution found\n");
    return reached && is_free ? IKC_EXIT_OK : (reached ? IKC_EXIT_FAILURE : IKC_EXIT_OK);
}

int ikc_robot_solve(int argc, char **argv) {
    robot_request req;
    ik_urdf *u = NULL;
    ikc_arm arm;
    ik_real seed[IK_ROBOT_MAX_JOINTS];
    int code = parse(argc, argv, &req);
    if (code != IKC_EXIT_OK) return code < 0 ? IKC_EXIT_OK : code;
    code = ikc_urdf_load("solve", req.args.path, &u);
    if (code == IKC_EXIT_OK) code = ikc_arm_chain("solve", u, req.args.base, req.args.tip, &arm);
    if (code == IKC_EXIT_OK) code = seed_for(&req, &arm, seed);
    if (code == IKC_EXIT_OK)
        code = req.cell.scene ? solve_in_cell(u, &req, &arm, seed)
                              : (req.analytic ? solve_analytic(u, &req, &arm, seed) : solve(u, &req, &arm, seed));
    ik_urdf_free(u);
    return code;
}

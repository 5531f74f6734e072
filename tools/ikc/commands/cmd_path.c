/* `ikc path ARM.urdf --tip LINK --from q1,q2,... --to x,y,z[,qx,qy,qz,qw]`:
 * the tip moved along the straight line from where --from puts it to the
 * pose --to names (ik_robot_path), the fraction of the line achieved
 * printed, and the joint path written as CSV (a header row of joint names,
 * one row per waypoint) or JSON. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include <ikit/robot_path.h>

#include "ikc.h"
#include "robot_arm.h"
#include "robot_cell.h"

typedef struct path_request {
    ikc_arm_args args;
    const char *output;
    ik_real from[IK_ROBOT_MAX_JOINTS];
    int from_count;
    ik_real to[7];
    int to_count;
    ik_real step, rotation_step, joint_step;
    int json;
    ikc_cell_args cell;
} path_request;

static void usage(FILE *out) {
    fprintf(out,
            "usage: ikc path ARM.urdf --tip LINK --from q1,q2,... --to x,y,z[,qx,qy,qz,qw]\n"
            "                [--base LINK] [--step M] [--rotation-step RAD] [--joint-step RAD]\n"
            "                [--scene SCENE.json [--margin M] [--srdf FILE] [--package-path NAME=DIR]...]\n"
            "                [-o PATH.csv|PATH.json] [--json]\n"
            "\n"
            "Moves link LINK along the straight line from its pose at the joint values --from\n"
            "(one per variable, in `ikc info`'s chain order, inside the limits) to the pose\n"
            "--to (in the base link's frame; without the quaternion the orientation stays the\n"
            "start's): the position interpolated linearly, the orientation slerped, in\n"
            "segments of at most --step metres and --rotation-step radians. Each waypoint is\n"
            "solved from the one before (1e-5 m and rad per axis); the path stops at the first\n"
            "one that cannot be reached, that needs a joint past its limit, a joint step over\n"
            "the bound, or (6 joints) another branch of the arm's inverse kinematics, and the\n"
            "fraction of the line achieved is printed (as MoveIt's Cartesian path reports it).\n"
            "With --scene, a waypoint that brings a link within the margin of an obstacle\n"
            "or of another link stops it too (as `ikc solve --scene` and `ikc check` test).\n"
            "\n"
            "  --step M           metres of tool travel per segment (default 0.001)\n"
            "  --rotation-step R  radians of tool turn per segment (default 0.01)\n"
            "  --joint-step R     the most a joint may move between waypoints, radians (metres\n"
            "                     for a prismatic joint); default: 10 times the segment's move,\n"
            "                     |dp| / (a tenth of the arm's reach) + |dtheta| (docs/robot.md)\n"
            "  -o FILE            write the waypoints: .csv (a header row of joint names, one\n"
            "                     row per waypoint, radians or metres) or .json\n"
            "  --scene FILE       keep every link --margin (default 0.01 m) from the obstacles\n"
            "                     of FILE and from the other links (`ikc solve ARM.urdf --help`\n"
            "                     gives the scene's format, --srdf and --package-path)\n"
            "  --json             print the report as JSON\n"
            "\n"
            "example:\n"
            "  ikc path ur5.urdf --tip ee_link --from 0.3,-1.2,1.4,-1.8,-1.4,0.2 \\\n"
            "      --to 0.5,0.2,0.3 -o path.csv\n"
            "\n"
            "exit codes: 0 ok (a path that stops short is a warning), 1 --from in collision\n"
            "(--scene), 2 bad usage, 3 file missing, 4 file malformed, 5 unknown link, 6 output\n"
            "not written.\n");
}

static int parse_positive(const char *option, const char *value, ik_real *out, int zero_ok) {
    if (ikc_parse_real(value, out) && (*out > 0 || (zero_ok && *out == 0))) return IKC_EXIT_OK;
    fprintf(stderr, "ikc path: %s wants a number %s 0, not '%s'\n", option, zero_ok ? ">=" : ">", ikc_shown(value));
    return IKC_EXIT_USAGE;
}

static int parse(int argc, char **argv, path_request *req) {
    static const char *const valued[] = {"--tip",           "--base",       "--from", "--to",          "--step",
                                         "--rotation-step", "--joint-step", "-o",     IKC_CELL_OPTIONS};
    int i;
    memset(req, 0, sizeof *req);
    req->step = (ik_real)0.001;
    req->rotation_step = (ik_real)0.01;
    ikc_cell_args_init(&req->cell);
    for (i = 0; i < argc; ++i) {
        const char *a = argv[i], *value = NULL;
        int code;
        if (strcmp(a, "--json") == 0) {
            req->json = 1;
            continue;
        }
        code = ikc_arm_arg("path", "", argc, argv, &i, valued, sizeof valued / sizeof valued[0], usage, &req->args,
                           &value);
        if (code == IKC_ARG_TAKEN) continue;
        if (code != IKC_ARG_VALUE) return code;
        code = ikc_cell_option("path", a, value, &req->cell);
        if (code == IKC_EXIT_USAGE) return code;
        if (code == IKC_ARG_TAKEN) continue;
        if (strcmp(a, "--from") == 0) {
            req->from_count = ikc_parse_reals(value, ',', req->from, 1, IK_ROBOT_MAX_JOINTS);
            if (req->from_count < 1) {
                fprintf(stderr, "ikc path: --from wants joint values split by commas, not '%s'\n", ikc_shown(value));
                return IKC_EXIT_USAGE;
            }
        } else if (strcmp(a, "--to") == 0) {
            req->to_count = ikc_parse_reals(value, ',', req->to, 3, 7);
            if (req->to_count != 3 && req->to_count != 7) {
                fprintf(stderr, "ikc path: --to wants x,y,z or x,y,z,qx,qy,qz,qw, not '%s'\n", ikc_shown(value));
                return IKC_EXIT_USAGE;
            }
        } else if (strcmp(a, "--step") == 0) {
            if ((code = parse_positive(a, value, &req->step, 0)) != IKC_EXIT_OK) return code;
        } else if (strcmp(a, "--rotation-step") == 0) {
            if ((code = parse_positive(a, value, &req->rotation_step, 0)) != IKC_EXIT_OK) return code;
        } else if (strcmp(a, "--joint-step") == 0) {
            if ((code = parse_positive(a, value, &req->joint_step, 1)) != IKC_EXIT_OK) return code;
        } else {
            req->output = value;
        }
    }
    if (!req->args.path || !req->args.tip || !req->from_count || !req->to_count) {
        fprintf(stderr, "ikc path: needs ARM.urdf, --tip LINK, --from and --to\n");
        usage(stderr);
        return IKC_EXIT_USAGE;
    }
    if (!ikc_is_urdf(req->args.path)) {
        fprintf(stderr, "ikc path: %s: not a URDF file (.urdf)\n", ikc_shown(req->args.path));
        return IKC_EXIT_USAGE;
    }
    if ((req->cell.srdf || req->cell.package_count) && !req->cell.scene)
        fprintf(stderr, "ikc path: note: --srdf and --package-path take effect with --scene\n");
    if (req->output) {
        char ext[16];
        ikc_extension(req->output, ext, sizeof ext);
        if (strcmp(ext, "csv") != 0 && strcmp(ext, "json") != 0) {
            fprintf(stderr, "ikc path: -o %s: the path is written as .csv or .json\n", ikc_shown(req->output));
            return IKC_EXIT_USAGE;
        }
    }
    return IKC_EXIT_OK;
}

/* ---- the written path ---------------------------------------------------- */

/* A growing text buffer for the CSV. */
typedef struct text {
    char *data;
    size_t size, used;
    int failed;
} text;

static void append(text *t, const char *s) {
    size_t n = strlen(s);
    if (t->failed) return;
    if (t->used + n + 1 > t->size) {
        size_t size = (t->used + n + 1) * 2;
        char *grown = realloc(t->data, size);
        if (!grown) {
            t->failed = 1;
            return;
        }
        t->data = grown;
        t->size = size;
    }
    memcpy(t->data + t->used, s, n + 1);
    t->used += n;
}

/* A CSV field: as it is, or in double quotes (quotes doubled) when it holds
 * a comma, a quote or a line break (RFC 4180). */
static void append_field(text *t, const char *s) {
    char one[2] = {0, 0};
    if (!strpbrk(s, ",\"\r\n")) {
        append(t, s);
        return;
    }
    append(t, "\"");
    for (; *s; ++s) {
        one[0] = *s;
        append(t, *s == '"' ? "\"\"" : one);
    }
    append(t, "\"");
}

/* One header row of the variables' joint names, one row per waypoint (%.9g:
 * every float and enough of a double to read back within 1e-9). */
static char *csv_text(const ik_urdf *u, const ikc_arm *arm, const ik_real *q, int count, size_t *size) {
    const int n = arm->chain.variable_count;
    text t = {NULL, 0, 0, 0};
    char number[40];
    int w, v;
    for (v = 0; v < n; ++v) {
        if (v) append(&t, ",");
        append_field(&t, u->joints[arm->variable_joints[v]].name);
    }
    append(&t, "\n");
    for (w = 0; w < count; ++w) {
        for (v = 0; v < n; ++v) {
            snprintf(number, sizeof number, "%s%.9g", v ? "," : "", (double)q[(size_t)w * (size_t)n + (size_t)v]);
            append(&t, number);
        }
        append(&t, "\n");
    }
    if (t.failed) {
        free(t.data);
        return NULL;
    }
    *size = t.used;
    return t.data;
}

typedef struct path_answer {
    int count, segments;
    ik_real fraction;
    ik_robot_path_stop stop;
    ik_transform goal;
} path_answer;

static cJSON *numbers_json(const ik_real *values, int count) {
    cJSON *a = cJSON_CreateArray();
    int i;
    for (i = 0; i < count; ++i) cJSON_AddItemToArray(a, cJSON_CreateNumber((double)values[i]));
    return a;
}

/* The report (and, for the file, the waypoints): file, base, tip, joints,
 * the goal, the steps, segments, waypoint count, fraction and stop. */
static cJSON *report_json(const ik_urdf *u, const path_request *req, const ikc_arm *arm, const path_answer *ans,
                          const ik_real *q) {
    cJSON *root = cJSON_CreateObject(), *names, *list;
    const ik_real position[3] = {ans->goal.translation.x, ans->goal.translation.y, ans->goal.translation.z};
    const ik_real rotation[4] = {ans->goal.rotation.x, ans->goal.rotation.y, ans->goal.rotation.z,
                                 ans->goal.rotation.w};
    const int n = arm->chain.variable_count;
    int v, w;
    cJSON_AddItemToObject(root, "file", ikc_json_text(req->args.path));
    cJSON_AddItemToObject(root, "base", ikc_json_text(req->args.base ? req->args.base : u->links[u->root_link].name));
    cJSON_AddItemToObject(root, "tip", ikc_json_text(req->args.tip));
    names = cJSON_AddArrayToObject(root, "joints");
    for (v = 0; v < n; ++v) cJSON_AddItemToArray(names, ikc_json_text(u->joints[arm->variable_joints[v]].name));
    cJSON_AddItemToObject(root, "goal_position", numbers_json(position, 3));
    cJSON_AddItemToObject(root, "goal_rotation_xyzw", numbers_json(rotation, 4));
    cJSON_AddNumberToObject(root, "step", (double)req->step);
    cJSON_AddNumberToObject(root, "rotation_step", (double)req->rotation_step);
    cJSON_AddNumberToObject(root, "segments", ans->segments);
    cJSON_AddNumberToObject(root, "waypoint_count", ans->count);
    cJSON_AddNumberToObject(root, "fraction", (double)ans->fraction);
    cJSON_AddStringToObject(root, "stop", ik_robot_path_stop_str(ans->stop));
    if (q) {
        list = cJSON_AddArrayToObject(root, "waypoints");
        for (w = 0; w < ans->count; ++w) cJSON_AddItemToArray(list, numbers_json(q + (size_t)w * (size_t)n, n));
    }
    return root;
}

/* The waypoints to -o, atomically (never over the URDF). */
static int write_path(const ik_urdf *u, const path_request *req, const ikc_arm *arm, const path_answer *ans,
                      const ik_real *q) {
    const char *inputs[1];
    ikc_output file;
    char ext[16], *data;
    size_t size = 0;
    int code;
    inputs[0] = req->args.path;
    if (strcmp(ikc_extension(req->output, ext, sizeof ext), "csv") == 0) {
        data = csv_text(u, arm, q, ans->count, &size);
    } else {
        cJSON *root = report_json(u, req, arm, ans, q);
        data = root ? cJSON_Print(root) : NULL;
        cJSON_Delete(root);
        if (data) size = strlen(data);
    }
    if (!data) {
        fprintf(stderr, "ikc path: out of memory\n");
        return IKC_EXIT_FAILURE;
    }
    file.path = req->output;
    file.data = data;
    file.size = size;
    code = ikc_write_outputs("path", &file, 1, inputs, 1, 0);
    free(data);
    return code;
}

/* ---- the run ------------------------------------------------------------- */

/* The job's errors as ikc's messages and exit codes. */
static int job_failed(const ik_urdf *u, const ikc_arm *arm, const path_request *req, ik_result r, const ik_error *bad) {
    if (strcmp(bad->path, "goal_rotation_bs") == 0)
        fprintf(stderr, "ikc path: --to: the quaternion qx,qy,qz,qw must have length 1\n");
    else if (strcmp(bad->path, "q_start") == 0)
        fprintf(stderr, "ikc path: --from: value %d (%s) is outside its joint limits\n", bad->index + 1,
                ikc_shown(u->joints[arm->variable_joints[bad->index]].name));
    else if (strcmp(bad->path, "max_step") == 0 && r == IK_ERR_RANGE)
        fprintf(stderr, "ikc path: the line needs more than %d waypoints at this --step / --rotation-step\n",
                IK_ROBOT_PATH_MAX_WAYPOINTS);
    else
        fprintf(stderr, "ikc path: %s: %s (%s)\n", ikc_shown(req->args.path), ik_result_str(r), bad->path);
    return strcmp(bad->path, "chain") == 0 ? IKC_EXIT_FORMAT : IKC_EXIT_USAGE;
}

/* Why the path stopped, in ikc's words: config_ok is the scene's check. */
static const char *stop_text(ik_robot_path_stop stop) {
    if (stop == IK_ROBOT_PATH_INVALID) return "the next waypoint brings a link within the margin (--scene)";
    return ik_robot_path_stop_str(stop);
}

/* The path, checked against the scene when `cell` is not NULL. */
static int follow(const ik_urdf *u, const path_request *req, const ikc_arm *arm, const ikc_cell *cell) {
    const int n = arm->chain.variable_count;
    ik_robot_path job = ik_robot_path_def();
    path_answer ans;
    ik_transform start;
    ik_real *q = NULL;
    void *scratch = NULL;
    ik_robot_collision_query query;
    ik_error bad;
    ik_result r;
    int code = IKC_EXIT_OK, needed = 0;
    if (req->from_count != n) {
        fprintf(stderr, "ikc path: --from has %d values; the chain has %d variables\n", req->from_count, n);
        return IKC_EXIT_USAGE;
    }
    if (ik_robot_fk(&arm->chain, req->from, &start, NULL) != IK_OK) {
        fprintf(stderr, "ikc path: %s: forward kinematics failed at --from\n", ikc_shown(req->args.path));
        return IKC_EXIT_FORMAT;
    }
    ans.goal = start;
    ans.goal.translation = ik_v3(req->to[0], req->to[1], req->to[2]);
    if (req->to_count == 7) ans.goal.rotation = ik_q(req->to[3], req->to[4], req->to[5], req->to[6]);
    job.chain = &arm->chain;
    job.q_start = req->from;
    job.goal_position_bs = ans.goal.translation;
    job.goal_rotation_bs = ans.goal.rotation;
    job.max_step = req->step;
    job.max_rotation_step = req->rotation_step;
    job.max_joint_step = req->joint_step;
    if (cell) {
        query.model = &cell->model;
        query.chain = &arm->chain;
        query.obstacles = cell->scene->obstacles;
        query.obstacle_count = cell->scene->obstacle_count;
        query.margin = req->cell.margin;
        job.config_ok = ik_robot_collision_query_free;
        job.config_user = &query;
    }
    job.error_field = &bad;
    r = ik_robot_path_waypoint_count(&job, &needed);
    if (r != IK_OK) return job_failed(u, arm, req, r, &bad);
    q = malloc((size_t)needed * (size_t)n * sizeof *q);
    scratch = malloc(ik_robot_path_scratch_size(n));
    if (!q || !scratch) {
        free(q);
        free(scratch);
        fprintf(stderr, "ikc path: out of memory (%d waypoints)\n", needed);
        return IKC_EXIT_FAILURE;
    }
    job.scratch = scratch;
    job.scratch_bytes = ik_robot_path_scratch_size(n);
    job.q_path = q;
    job.max_waypoints = needed;
    job.waypoint_count = &ans.count;
    job.fraction = &ans.fraction;
    job.segments = &ans.segments;
    job.stop = &ans.stop;
    r = ik_robot_path_run(&job);
    if (r != IK_OK) code = job_failed(u, arm, req, r, &bad);
    if (code == IKC_EXIT_OK && ans.stop == IK_ROBOT_PATH_START_INVALID && cell) {
        ik_robot_collision_report report;
        fprintf(stderr, "ikc path: --from is not collision-free with a margin of %g m\n", (double)req->cell.margin);
        if (ik_robot_collision_check(&cell->model, &arm->chain, req->from, cell->scene->obstacles,
                                     cell->scene->obstacle_count, req->cell.margin, &report) == IK_OK)
            ikc_cell_print_report(cell, &report, req->cell.margin);
        code = IKC_EXIT_FAILURE;
    }
    if (code == IKC_EXIT_OK && req->output) code = write_path(u, req, arm, &ans, q);
    if (code == IKC_EXIT_OK) {
        if (req->json) {
            cJSON *root = report_json(u, req, arm, &ans, NULL);
            if (req->output) cJSON_AddItemToObject(root, "output", ikc_json_text(req->output));
            ikc_json_print(root);
        } else {
            printf("fraction %.4f of the line: %d of %d waypoints (%d segments of at most %g m, %g rad); %s%s%s\n",
                   (double)ans.fraction, ans.count, ans.segments + 1, ans.segments, (double)req->step,
                   (double)req->rotation_step, stop_text(ans.stop), req->output ? "; written to " : "",
                   req->output ? ikc_shown(req->output) : "");
        }
        if (ans.stop != IK_ROBOT_PATH_COMPLETE)
            fprintf(stderr, "ikc path: warning: the path stops at %.4f of the line (%s)\n", (double)ans.fraction,
                    stop_text(ans.stop));
    }
    free(q);
    free(scratch);
    return code;
}

int ikc_path(int argc, char **argv) {
    path_request req;
    ik_urdf *u = NULL;
    ikc_arm arm;
    int code = parse(argc, argv, &req);
    if (code != IKC_EXIT_OK) return code < 0 ? IKC_EXIT_OK : code;
    code = ikc_urdf_load("path", req.args.path, &u);
    if (code == IKC_EXIT_OK) code = ikc_arm_chain("path", u, req.args.base, req.args.tip, &arm);
    if (code == IKC_EXIT_OK && arm.chain.variable_count == 0) {
        fprintf(stderr, "ikc path: no joint moves between the base and '%s'\n", ikc_shown(req.args.tip));
        code = IKC_EXIT_USAGE;
    }
    if (code == IKC_EXIT_OK && req.cell.scene) {
        ikc_cell cell;
        code = ikc_cell_load("path", u, &req.args, &arm, &req.cell, &cell);
        if (code == IKC_EXIT_OK) code = follow(u, &req, &arm, &cell);
        ikc_cell_free(&cell);
    } else if (code == IKC_EXIT_OK) {
        code = follow(u, &req, &arm, NULL);
    }
    ik_urdf_free(u);
    return code;
}

/* `ikc solve FILE --target JOINT=x,y,z ...`: pose a character so the named
 * joints reach their targets (and, by role, a humanoid's hands, feet, gaze
 * and stance on the ground: solve_roles.c), and write the result in the
 * input's format. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include <ikit/bvh.h>
#include <ikit/chain_file_solve.h>
#include <ikit/chain_solve.h>
#include <ikit/limb_bend.h>
#include <ikit/take.h>
#include <ikit/target_track_file.h>
#include <ikit/two_bone.h>

#include "asset.h"
#include "draw.h"
#include "mesh_view.h"
#include "ikc.h"
#include "robot_arm.h"
#include "solve_explain.h"
#include "solve_roles.h"

#define MAX_TARGETS 32
#define NAME_SIZE 128
#define MAX_KEYED_TARGETS 100000 /* --targets-file lines */
#define MAX_TAKE_FRAMES 10000000

typedef enum solver_kind {
    SOLVER_AUTO,
    SOLVER_TWO_BONE,
    SOLVER_CCD,
    SOLVER_FABRIK,
    SOLVER_DLS,
    SOLVER_SDLS,
    SOLVER_TRANSPOSE,
    SOLVER_GRADIENT
} solver_kind;

static const char *const solver_names[] = {"auto", "two-bone", "ccd", "fabrik", "dls", "sdls", "transpose", "gradient"};

typedef struct target_request {
    char joint_name[NAME_SIZE];
    ik_vec3 target_ms;
    int joint;
    int chain[IKC_MAX_CHAIN];
    int chain_count;
    int has_pole;
    ik_vec3 pole_ms;
    int has_hinge; /* a limb found by name: its natural bend (ikit/limb_bend.h) when no --pole */
    ik_vec3 hinge_ls;
    solver_kind solver;
    ik_real tolerance; /* --tolerance, else 1e-3 of the chain's reach */
    /* results */
    ik_real residual, reach;
    int reached, iterations;
    double microseconds;
    ik_result result;
    ik_error bad_field; /* the job field a chain solver refused */
} target_request;

typedef struct solve_options {
    solver_kind solver;
    int chain_count;   /* 0: from the limbs found by name, else 3 */
    ik_real tolerance; /* 0: 1e-3 of each chain's reach */
    int max_iterations;
    int json, quiet;
    int overwrite; /* --overwrite: -o may replace an input file */
} solve_options;

static void usage(FILE *out) {
    fprintf(out,
            "usage: ikc solve FILE --target JOINT=x,y,z [--target ...] [--pole JOINT=x,y,z]\n"
            "                 [--left-hand|--right-hand|--left-foot|--right-foot x,y,z]\n"
            "                 [--look-at x,y,z] [--slope DEG[,AZ] | --stairs RISE,RUN[,AZ] |\n"
            "                 --feet-on-ground FILE] [--map FILE]\n"
            "                 [--solver two-bone|ccd|fabrik|dls|sdls|transpose|gradient]\n"
            "                 [--chain N] [--clip NAME [--time T | --all-frames [--fps N]]]\n"
            "                 [--targets-file FILE] [--tolerance D] [--iterations N]\n"
            "                 [--json] [--render PICTURE] [--quiet] -o OUT [--overwrite]\n"
            "\n"
            "Poses FILE so each JOINT reaches its target (model space: the coordinates\n"
            "`ikc info` prints) and writes the pose in FILE's format: glTF/GLB (the nodes'\n"
            "transforms) or BVH (every frame of the take, the one at --time replaced; frame\n"
            "0 without --clip). Targets are solved in the order given, after the humanoid's\n"
            "roles (one full-body solve) when any are given.\n"
            "A URDF robot arm (FILE.urdf, given first) takes other options: see\n"
            "`ikc solve FILE.urdf --help`.\n"
            "\n"
            "  --target J=x,y,z  the joint J should reach (x, y, z); may repeat (up to %d)\n"
            "  --pole J=x,y,z    two-bone: the knee/elbow of the chain ending at (or holding)\n"
            "                    J bends toward this point (default: a leg or arm found by\n"
            "                    name bends its natural way, knee forward, elbow back)\n"
            "  --solver S        default: two-bone for 3-joint chains, fabrik otherwise\n"
            "  --chain N         joints in each chain, counted up from the target joint;\n"
            "                    default: the limb found by name (`ikc info`), else 3, never\n"
            "                    through a joint that carries other limbs\n"
            "  --clip NAME       start from a clip's pose at --time T seconds (default 0)\n"
            "  --all-frames      solve every frame of --clip (the targets held, or moved by\n"
            "                    --targets-file) and write the whole take: BVH frames, or\n"
            "                    the glTF clip's keys (one per frame); a summary per target\n"
            "  --fps N           frames per second of a glTF clip with --all-frames (default\n"
            "                    30; a BVH keeps its own)\n"
            "  --targets-file F  with --all-frames: lines `TIME JOINT x y z` (# comments);\n"
            "                    each joint named is a target, moved linearly between its\n"
            "                    lines' times and held before the first and after the last\n"
            "  --tolerance D     reach tolerance, model units (default 1e-3 of the chain's reach)\n"
            "  --iterations N    iteration cap for the iterative solvers\n"
            "  --json            print every joint's model-space position and each target's\n"
            "                    residual, reached flag, iterations and time, for scripts\n"
            "  --render PICTURE  also draw the solved pose (.svg, .png or .pdf)\n"
            "  -o OUT            output (.gltf/.glb for glTF input, .bvh for BVH input);\n"
            "                    optional with --json or --render. OUT may not be the input\n"
            "                    (or a link to it) nor one of its buffer files, and a .gltf's\n"
            "                    buffers go beside it as OUT's name + .bin\n"
            "  --overwrite       allow OUT to replace those (still written to a temporary\n"
            "                    and renamed, so the input is complete until then)\n"
            "\n"
            "A target out of reach is a warning with its residual, not a failure.\n"
            "\n",
            MAX_TARGETS);
    ikc_roles_usage(out);
    fprintf(out,
            "\n"
            "examples:\n"
            "  ikc solve girl.glb --target Foot.L=0.15,0.25,0.2 -o posed.glb\n"
            "  ikc solve 131_01.bvh --clip motion --time 2 --target LeftAnkle=0.2,0.3,0.1 \\\n"
            "            --pole LeftKnee=0.2,0.5,1 -o posed.bvh\n"
            "  ikc solve examples/tail.chain --target tip=0.8,0.6,-2.2 --solver dls --json\n"
            "  ikc solve robot.glb --left-hand 0.6,2.2,0.9 --look-at 0,2.5,3 -o reach.glb\n"
            "  ikc solve 131_01.bvh --slope 10 --json\n"
            "  ikc solve 131_01.bvh --clip motion --all-frames --target LeftAnkle=2,-15,10 -o held.bvh\n"
            "  ikc solve girl.glb --feet-on-ground bumps.txt --render bumps.png\n"
            "\n"
            "exit codes: 0 ok (also when a target is out of reach), 1 solver failure,\n"
            "2 bad usage or numbers, 3 file missing, 4 file malformed (also a mapping or\n"
            "height-field file), 5 unknown joint or clip, or no humanoid found, 6 output\n"
            "not written.\n");
}

static int parse_solver(const char *text, solver_kind *out) {
    int i;
    for (i = 1; i < (int)(sizeof solver_names / sizeof solver_names[0]); ++i)
        if (strcmp(text, solver_names[i]) == 0) {
            *out = (solver_kind)i;
            return 1;
        }
    if (strcmp(text, "twobone") == 0 || strcmp(text, "two_bone") == 0) {
        *out = SOLVER_TWO_BONE;
        return 1;
    }
    return 0;
}

/* A default chain left with the target joint alone: it hangs from a joint
 * that carries other limbs (ik_named_chain_own_limb) or from the trunk. */
static int explain_own_limb(const ik_asset *asset, const ik_named_chain *chains, int count, const target_request *t) {
    const ik_skeleton *s = asset->skeleton;
    int parent = s->parents[t->joint];
    fprintf(stderr,
            "ikc solve: '%s' hangs from '%s', %s, and '%s' has no joint of its own to turn; give --chain N to turn "
            "N joints up from it anyway\n",
            t->joint_name, parent >= 0 ? ikc_shown(ik_skeleton_name(s, parent)) : "(none)",
            ikc_hang_reason(s, chains, count, t->joint), t->joint_name);
    return IKC_EXIT_USAGE;
}

/* The natural bend of a limb found by name (a knee forward, an elbow
 * back: limb_bend.h), from the figure's axes and its rest pose; 0 when it
 * has none. A chain file's joints carry their own hinges instead. */
static int natural_hinge(const ik_asset *asset, const ik_named_chain *chains, int count, const ik_named_chain *limb,
                         ik_vec3 *hinge_ls) {
    const ik_skeleton *s = asset->skeleton;
    ik_transform *pose = (ik_transform *)malloc((size_t)s->joint_count * sizeof *pose);
    ik_mat4 *rest_ms = (ik_mat4 *)malloc((size_t)s->joint_count * sizeof *rest_ms);
    ik_figure_axes figure;
    int ok = pose && rest_ms && ik_limb_bend_axes(s, &asset->root_ms, chains, count, &figure, NULL) == IK_OK;
    if (ok) {
        ik_skeleton_rest_pose(s, pose);
        ik_skeleton_fk(s, pose, &asset->root_ms, rest_ms);
        ok = ik_limb_bend_hinge(s, rest_ms, &figure, limb, hinge_ls, NULL) == IK_OK;
    }
    free(pose);
    free(rest_ms);
    return ok;
}

/* The chain for a target: --chain N joints up from it; else the limb found
 * by name that ends at it; else 3 joints, not climbing through a joint that
 * carries other limbs. */
static int choose_chain(const ik_asset *asset, const solve_options *opt, target_request *t) {
    ik_named_chain chains[IKC_MAX_CHAINS];
    int n = ikc_asset_chains(asset, chains, IKC_MAX_CHAINS), c, count = opt->chain_count;
    if (count == 0) {
        for (c = 0; c < n; ++c)
            if (chains[c].joints[chains[c].count - 1] == t->joint) {
                if (chains[c].count < 2) return explain_own_limb(asset, chains, n, t);
                memcpy(t->chain, chains[c].joints, (size_t)chains[c].count * sizeof(int));
                t->chain_count = chains[c].count;
                t->has_hinge = !asset->chain_file && natural_hinge(asset, chains, n, &chains[c], &t->hinge_ls);
                return IKC_EXIT_OK;
            }
        count = ik_skeleton_depth(asset->skeleton, t->joint) < 3 ? ik_skeleton_depth(asset->skeleton, t->joint) : 3;
    }
    if (count > ik_skeleton_depth(asset->skeleton, t->joint)) {
        fprintf(stderr, "ikc solve: joint '%s' has only %d joint%s from the root down to it; --chain %d is too long\n",
                t->joint_name, ik_skeleton_depth(asset->skeleton, t->joint),
                ik_skeleton_depth(asset->skeleton, t->joint) == 1 ? "" : "s", count);
        return IKC_EXIT_USAGE;
    }
    ik_skeleton_chain(asset->skeleton, t->joint, count, t->chain);
    t->chain_count =
        opt->chain_count == 0 ? ik_named_chain_own_limb(asset->skeleton, chains, n, t->chain, count) : count;
    if (t->chain_count < 2) return explain_own_limb(asset, chains, n, t);
    return IKC_EXIT_OK;
}

/* One target: bind the chain, run the chosen solver on `pose_ls`, then
 * refresh `model_ms`. A chain file's Jacobian solve turns its hinges about
 * their axes (fixed joints not at all); any other chain's joints but the
 * effector turn as ball joints. */
static ik_result run_solver(const ik_asset *asset, const solve_options *opt, target_request *t, ik_transform *pose_ls,
                            ik_mat4 *model_ms) {
    const ik_skeleton *s = asset->skeleton;
    ik_constraint limits[IKC_MAX_CHAIN], turning_limits[IKC_MAX_CHAIN];
    ik_jacobian_joint turning[IKC_MAX_CHAIN];
    int k, has_limits = asset->constraints != NULL;
    ik_real error = 0;
    ik_result r;
    t->iterations = 1;
    ik_error_clear(&t->bad_field);
    if (t->solver == SOLVER_TWO_BONE) {
        ik_two_bone job = ik_two_bone_def();
        ik_two_bone_bind(&job, model_ms, pose_ls, t->chain[0], t->chain[1], t->chain[2]);
        job.target_ms = t->target_ms;
        job.use_pole = t->has_pole;
        job.pole_ms = t->pole_ms;
        /* a limb found by name bends its natural way (ikit/limb_bend.h) */
        if (!t->has_pole && t->has_hinge) ik_limb_bend_two_bone(&job, model_ms, t->chain, t->hinge_ls, NULL);
        r = ik_two_bone_run(&job);
    } else {
        ik_chain_solve job = ik_chain_solve_def();
        void *scratch;
        for (k = 0; k < t->chain_count; ++k)
            limits[k] = has_limits ? asset->constraints[t->chain[k]] : ik_constraint_none();
        job.method = (ik_chain_method)(t->solver - SOLVER_CCD);
        job.base.skeleton = s;
        job.joints = t->chain;
        job.base.listed_joint_count = t->chain_count;
        job.target_ms = t->target_ms;
        job.base.constraints = has_limits ? limits : NULL;
        job.base.root_ms = &asset->root_ms;
        job.base.pose_ls = pose_ls;
        job.base.error_field = &t->bad_field;
        job.tolerance = t->tolerance;
        job.max_iterations = opt->max_iterations > 0 ? opt->max_iterations : 0;
        job.iterations = &t->iterations;
        job.error = &error;
        if (asset->chain_file && job.method >= IK_CHAIN_DLS) {
            job.turning = turning;
            job.turning_count = ik_chain_file_jacobian_joints(asset->chain_file, t->chain, t->chain_count - 1, turning,
                                                              turning_limits, NULL);
            job.turning_constraints = turning_limits;
            if (job.turning_count == 0) return IK_ERR_RANGE;
        }
        job.base.scratch_bytes = ik_chain_solve_scratch_size(&job);
        scratch = malloc(job.base.scratch_bytes);
        if (!scratch) return IK_ERR_NO_MEMORY;
        job.base.scratch = scratch;
        r = ik_chain_solve_run(&job);
        free(scratch);
    }
    ik_skeleton_fk(s, pose_ls, &asset->root_ms, model_ms);
    return r;
}

static void print_json(const ik_asset *asset, const char *out, const target_request *targets, int target_count,
                       const ikc_roles *roles, const ik_mat4 *model_ms) {
    cJSON *root = cJSON_CreateObject(), *list = cJSON_AddArrayToObject(root, "targets"), *joints;
    int i, k;
    cJSON_AddItemToObject(root, "file", ikc_json_text(asset->path));
    cJSON_AddStringToObject(root, "format", ik_asset_format_name(asset));
    if (out)
        cJSON_AddItemToObject(root, "output", ikc_json_text(out));
    else
        cJSON_AddNullToObject(root, "output");
    for (i = 0; i < target_count; ++i) {
        const target_request *t = &targets[i];
        cJSON *o = cJSON_CreateObject(), *chain = cJSON_AddArrayToObject(o, "chain");
        cJSON_AddItemToObject(o, "joint", ikc_json_text(t->joint_name));
        cJSON_AddStringToObject(o, "solver", solver_names[t->solver]);
        for (k = 0; k < t->chain_count; ++k)
            cJSON_AddItemToArray(chain, ikc_json_text(ik_skeleton_name(asset->skeleton, t->chain[k])));
        cJSON_AddItemToObject(o, "target", ikc_vec3_json(t->target_ms));
        cJSON_AddItemToObject(o, "position", ikc_vec3_json(ik_mat4_translation(&model_ms[t->joint])));
        cJSON_AddNumberToObject(o, "residual", (double)t->residual);
        cJSON_AddBoolToObject(o, "reached", t->reached);
        cJSON_AddNumberToObject(o, "reach", (double)t->reach);
        cJSON_AddNumberToObject(o, "iterations", t->iterations);
        cJSON_AddNumberToObject(o, "microseconds", t->microseconds);
        cJSON_AddItemToArray(list, o);
    }
    if (roles) ikc_roles_json(roles, asset->skeleton, root);
    joints = cJSON_AddArrayToObject(root, "joints");
    for (i = 0; i < asset->skeleton->joint_count; ++i) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "name", ikc_json_text(ik_skeleton_name(asset->skeleton, i)));
        cJSON_AddNumberToObject(o, "parent", asset->skeleton->parents[i]);
        cJSON_AddItemToObject(o, "position", ikc_vec3_json(ik_mat4_translation(&model_ms[i])));
        cJSON_AddItemToArray(joints, o);
    }
    ikc_json_print(root);
}

/* A BVH take's values with the frame nearest `time` (frame 0 without
 * --clip) replaced by the solved pose; every other frame as it was. A take
 * without frames gets one. NULL when out of memory. */
static double *take_with_solved_frame(const ik_bvh *bvh, const ik_transform *pose_ls, ik_real time, int *frame_count) {
    size_t per = (size_t)(bvh->values_per_frame > 0 ? bvh->values_per_frame : 0);
    int frames = bvh->frame_count > 0 ? bvh->frame_count : 1, frame = 0;
    double at = (double)time / bvh->frame_time + 0.5; /* clamped before the cast: --time may be huge */
    double *values = (double *)calloc((size_t)frames * per + per + 1, sizeof *values), *fallback;
    if (!values) return NULL;
    fallback = values + (size_t)frames * per; /* zeros for a take without frames */
    if (bvh->frame_count > 0) {
        frame = at >= (double)frames ? frames - 1 : (int)at;
        memcpy(values, bvh->values, (size_t)frames * per * sizeof *values);
        memcpy(fallback, values + (size_t)frame * per, per * sizeof *values);
    }
    ik_bvh_frame_from_pose(bvh, pose_ls, fallback, values + (size_t)frame * per);
    *frame_count = frames;
    return values;
}

/* The BVH take with the solved frame replaced (take_with_solved_frame), as
 * BVH text, written through a temporary. */
static int write_bvh_file(const ik_asset *asset, const char *out, const ik_transform *pose_ls, ik_real time,
                          int overwrite) {
    ik_bvh take = *asset->bvh;
    double *values;
    int code;
    if (!(values = take_with_solved_frame(asset->bvh, pose_ls, time, &take.frame_count))) {
        fprintf(stderr, "ikc solve: out of memory\n");
        return IKC_EXIT_FAILURE;
    }
    take.values = values;
    code = ikc_write_bvh("solve", asset, &take, out, overwrite);
    free(values);
    return code;
}

/* Write the solved pose in the input's format, atomically. */
static int write_output(ik_asset *asset, const char *out, const ik_transform *pose_ls, ik_real time, int overwrite) {
    char ext[8];
    ik_error err;
    ik_result r;
    ikc_extension(out, ext, sizeof ext);
    ik_error_clear(&err);
    if (asset->gltf) {
        if (strcmp(ext, "gltf") != 0 && strcmp(ext, "glb") != 0) {
            fprintf(stderr, "ikc solve: '%s': a glTF input is written as .gltf or .glb\n", out);
            return IKC_EXIT_USAGE;
        }
        r = ik_gltf_set_pose(asset->gltf, asset->skin, pose_ls, &err);
        if (r != IK_OK) {
            fprintf(stderr, "ikc solve: cannot set the pose: %s\n", err.message[0] ? err.message : ik_result_str(r));
            return IKC_EXIT_FAILURE;
        }
        /* the edit rebuilt the document's skeletons: refresh the view */
        asset->skeleton = &ik_gltf_skeleton(asset->gltf, asset->skin)->skeleton;
        return ikc_write_gltf("solve", asset, out, overwrite);
    }
    if (asset->bvh) {
        if (strcmp(ext, "bvh") != 0) {
            fprintf(stderr, "ikc solve: '%s': a BVH input is written as .bvh\n", out);
            return IKC_EXIT_USAGE;
        }
        return write_bvh_file(asset, out, pose_ls, time, overwrite);
    }
    fprintf(stderr, "ikc solve: a chain file holds no pose to write; use --json or --render\n");
    return IKC_EXIT_USAGE;
}

static int render_result(const ik_asset *asset, const char *picture, const target_request *targets, int count,
                         const ikc_roles *roles, const ik_transform *pose_ls, const ik_mat4 *model_ms,
                         const ik_mat4 *start_ms) {
    ik_vec3 points[MAX_TARGETS + IK_LIMB_COUNT + 1], gaze[2];
    int reached[MAX_TARGETS + IK_LIMB_COUNT + 1], highlight[MAX_TARGETS * IKC_MAX_CHAIN + 3 * IK_LIMB_COUNT + 2];
    int highlight_count = 0, point_count = count, i, k;
    ikc_panel panel;
    ikc_picture pic;
    ikc_mesh mesh;
    ik_vec3 *mesh_ms = NULL;
    char error[512], title[300];
    int code = IKC_EXIT_OK;
    for (i = 0; i < count; ++i) {
        points[i] = targets[i].target_ms;
        reached[i] = targets[i].reached;
        for (k = 0; k < targets[i].chain_count; ++k) highlight[highlight_count++] = targets[i].chain[k];
    }
    if (roles) {
        const ik_humanoid *rig = &roles->humanoid.rig;
        point_count += ikc_roles_marks(roles, points + count, reached + count);
        for (i = 0; i < IK_LIMB_COUNT; ++i) {
            if (!roles->goal_given[i] && !(i >= IK_LIMB_LEG_L && roles->ground_kind != IKC_GROUND_NONE)) continue;
            highlight[highlight_count++] = rig->limb[i].start;
            highlight[highlight_count++] = rig->limb[i].mid;
            if (rig->limb[i].end >= 0) highlight[highlight_count++] = rig->limb[i].end;
        }
        if (roles->look_given) {
            highlight[highlight_count++] = rig->map.joint[IK_ROLE_HEAD];
            gaze[0] = roles->head_ms;
            gaze[1] = ik_vec3_mad(roles->head_ms, roles->gaze_ms, ik_vec3_distance(roles->head_ms, roles->look_ms));
        }
    }
    memset(&panel, 0, sizeof panel);
    panel.skeleton = asset->skeleton;
    panel.pose_ls = pose_ls;
    panel.model_ms = model_ms;
    panel.root_ms = &asset->root_ms;
    panel.constraints = asset->constraints;
    panel.ghost_ms = start_ms;
    panel.highlight = highlight;
    panel.highlight_count = highlight_count;
    panel.targets_ms = points;
    panel.target_reached = reached;
    panel.target_count = point_count;
    if (roles && roles->look_given) {
        panel.lines_ms = gaze;
        panel.line_count = 1;
    }
    panel.label_joints = 1;
    panel.role_joints = highlight;
    panel.role_joint_count = highlight_count;
    ikc_mesh_attach("solve", asset, model_ms, &mesh, &mesh_ms, &panel);
    panel.caption = roles && roles->look_given
                        ? "grey: the pose before solving; orange: solved chains; crosses: targets; dashed: gaze"
                        : "grey: the pose before solving; orange: solved chains; crosses: targets";
    memset(&pic, 0, sizeof pic);
    snprintf(title, sizeof title, "ikc solve %s", asset->path);
    pic.title = title;
    pic.panels = &panel;
    pic.panel_count = 1;
    pic.columns = 1;
    pic.view = IKC_VIEW_PERSP;
    pic.width = 1000;
    pic.height = 800;
    pic.show_ground = 1;
    pic.bones = 1; /* the solved chains show over the mesh */
    pic.ground_y = ikc_picture_lowest(&pic);
    if (roles && roles->ground_kind != IKC_GROUND_NONE) pic.ground = &roles->ground;
    if (!ikc_draw_file(&pic, picture, error, sizeof error)) {
        fprintf(stderr, "ikc solve: %s\n", error);
        code = IKC_EXIT_WRITE;
    }
    if (panel.mesh) ikc_mesh_detach(&mesh, mesh_ms);
    return code;
}

/* What the command line asked for. */
typedef struct solve_command {
    const char *path, *out, *clip_name, *picture;
    target_request targets[MAX_TARGETS];
    int target_count;
    char pole_names[MAX_TARGETS][NAME_SIZE];
    ik_vec3 poles[MAX_TARGETS];
    int pole_count;
    ik_real time;
    solve_options opt;
    ikc_roles roles;
    /* --all-frames */
    int all_frames;
    ik_real fps;
    const char *targets_file;
    ik_target_track_file tracks;
    int track_of[MAX_TARGETS]; /* each target's track in `tracks`, or -1 */
    int frames_missed[MAX_TARGETS];
    ik_real worst_residual[MAX_TARGETS];
} solve_command;

/* One JOINT=x,y,z option (--target or --pole) into name/point, counting it
 * in *count (at most MAX_TARGETS); 0 after an error. */
static int named_point(const char *option, const char *value, char *name, ik_vec3 *point, int *count) {
    if (*count == MAX_TARGETS) {
        fprintf(stderr, "ikc solve: at most %d %s\n", MAX_TARGETS, strcmp(option, "--pole") == 0 ? "poles" : "targets");
        return 0;
    }
    if (!ikc_parse_named_vec3("solve", strcmp(option, "-t") == 0 ? "--target" : option, value, name, NAME_SIZE, point))
        return 0;
    ++*count;
    return 1;
}

/* The value of an option that takes one; 0 after an error. */
static int option_value(const char *a, const char *value, solve_command *c) {
    solve_options *opt = &c->opt;
    if (strcmp(a, "--target") == 0 || strcmp(a, "-t") == 0) {
        target_request *t = &c->targets[c->target_count < MAX_TARGETS ? c->target_count : 0];
        return named_point(a, value, t->joint_name, &t->target_ms, &c->target_count);
    } else if (strcmp(a, "--pole") == 0) {
        int k = c->pole_count < MAX_TARGETS ? c->pole_count : 0;
        return named_point(a, value, c->pole_names[k], &c->poles[k], &c->pole_count);
    } else if (strcmp(a, "--solver") == 0) {
        if (parse_solver(value, &opt->solver)) return 1;
        fprintf(stderr, "ikc solve: unknown solver '%s'\n", value);
        ikc_suggest_name(stderr, solver_names + 1, 7, value, 2);
    } else if (strcmp(a, "--chain") == 0) {
        if (ikc_parse_int(value, &opt->chain_count) && opt->chain_count >= 2 && opt->chain_count <= IKC_MAX_CHAIN)
            return 1;
        fprintf(stderr, "ikc solve: --chain: want a whole number 2..%d, got '%s'\n", IKC_MAX_CHAIN, value);
    } else if (strcmp(a, "--time") == 0) {
        if (ikc_parse_real(value, &c->time) && c->time >= 0) return 1;
        fprintf(stderr, "ikc solve: --time: bad number '%s' (want seconds >= 0)\n", value);
    } else if (strcmp(a, "--tolerance") == 0) {
        if (ikc_parse_real(value, &opt->tolerance) && opt->tolerance > 0) return 1;
        fprintf(stderr, "ikc solve: --tolerance: bad number '%s' (want > 0)\n", value);
    } else if (strcmp(a, "--iterations") == 0) {
        if (ikc_parse_int(value, &opt->max_iterations) && opt->max_iterations >= 1) return 1;
        fprintf(stderr, "ikc solve: --iterations: want a whole number >= 1, got '%s'\n", value);
    } else if (strcmp(a, "--fps") == 0) {
        if (ikc_parse_real(value, &c->fps) && c->fps > 0) return 1;
        fprintf(stderr, "ikc solve: --fps: bad number '%s' (want > 0)\n", value);
    } else if (strcmp(a, "--targets-file") == 0) {
        c->targets_file = value;
        return 1;
    } else {
        const char **slot = strcmp(a, "--clip") == 0     ? &c->clip_name
                            : strcmp(a, "--render") == 0 ? &c->picture
                                                         : &c->out;
        *slot = value;
        return 1;
    }
    return 0;
}

/* The options valued by option_value. */
static int takes_value(const char *a) {
    static const char *const options[] = {
        "-o",     "--output", "--target",    "-t",           "--pole",   "--solver", "--chain",
        "--clip", "--time",   "--tolerance", "--iterations", "--render", "--fps",    "--targets-file"};
    return ikc_is_one_of(a, options, sizeof options / sizeof options[0]);
}

/* What is missing from a command line, or NULL. */
static const char *missing(const solve_command *c) {
    if (!c->path) return "no input FILE given";
    if (c->target_count == 0 && !ikc_roles_any(&c->roles) && !c->targets_file)
        return "no --target JOINT=x,y,z and no humanoid role given";
    if (c->all_frames && !c->clip_name) return "--all-frames needs --clip NAME";
    if (c->all_frames && !c->out) return "--all-frames writes the take: give -o OUT";
    if (c->all_frames && (c->opt.json || c->picture))
        return "--all-frames prints a summary per target; --json and --render are for one frame";
    if (!c->all_frames && (c->targets_file || c->fps > 0)) return "--targets-file and --fps go with --all-frames";
    if (!c->out && !c->opt.json && !c->picture) return "no output: give -o OUT, --json or --render";
    return NULL;
}

/* Parse and check the command line; -1 to go on, else an exit code. */
static int parse_options(int argc, char **argv, solve_command *c) {
    const char *value, *lack;
    int i, role_option;
    for (i = 0; i < argc; ++i) {
        const char *a = argv[i];
        if (ikc_is_help(a)) {
            usage(stdout);
            return IKC_EXIT_OK;
        } else if (takes_value(a)) {
            if (!(value = ikc_option_value("solve", argc, argv, &i)) || !option_value(a, value, c))
                return IKC_EXIT_USAGE;
        } else if (strcmp(a, "--json") == 0 || strcmp(a, "--overwrite") == 0) {
            *(a[2] == 'j' ? &c->opt.json : &c->opt.overwrite) = 1;
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            c->opt.quiet = 1;
        } else if (strcmp(a, "--all-frames") == 0) {
            c->all_frames = 1;
        } else if ((role_option = ikc_roles_option(&c->roles, argc, argv, &i)) != 0) {
            if (role_option < 0) return IKC_EXIT_USAGE;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "ikc solve: unknown option '%s' (see ikc solve --help)\n", a);
            return IKC_EXIT_USAGE;
        } else if (!ikc_input_path("solve", a, &c->path)) {
            return IKC_EXIT_USAGE;
        }
    }
    if ((lack = missing(c)) != NULL) {
        fprintf(stderr, "ikc solve: %s\n", lack);
        usage(stderr);
        return IKC_EXIT_USAGE;
    }
    if (c->roles.map_path && !ikc_roles_any(&c->roles)) {
        fprintf(stderr,
                "ikc solve: --map only names the humanoid's joints; give a role too (--left-hand, --slope, ...)\n");
        return IKC_EXIT_USAGE;
    }
    return -1;
}

/* The pose to start from (rest, or the clip at --time) and its forward
 * kinematics in model and start; returns an exit code. */
static int start_pose(const solve_command *c, const ik_asset *asset, ik_transform *pose, ik_mat4 *model,
                      ik_mat4 *start) {
    ik_skeleton_rest_pose(asset->skeleton, pose);
    if (c->clip_name) {
        int clip = ikc_asset_find_clip("solve", asset, c->clip_name);
        if (clip < 0) return IKC_EXIT_NOT_FOUND;
        ik_clip_sample(ik_asset_clip(asset, clip), c->time, pose);
    }
    ik_skeleton_fk(asset->skeleton, pose, &asset->root_ms, model);
    memcpy(start, model, (size_t)asset->skeleton->joint_count * sizeof *model);
    return IKC_EXIT_OK;
}

/* Each target's joint, chain and solver, before solving anything. */
static int resolve_targets(solve_command *c, const ik_asset *asset) {
    int i, code;
    for (i = 0; i < c->target_count; ++i) {
        target_request *t = &c->targets[i];
        t->joint = ikc_asset_find_joint("solve", asset, t->joint_name);
        if (t->joint < 0) return IKC_EXIT_NOT_FOUND;
        if ((code = choose_chain(asset, &c->opt, t)) != IKC_EXIT_OK) return code;
        t->solver = c->opt.solver != SOLVER_AUTO ? c->opt.solver
                    : t->chain_count == 3        ? SOLVER_TWO_BONE
                                                 : SOLVER_FABRIK;
        if (t->solver == SOLVER_TWO_BONE && t->chain_count != 3) {
            fprintf(stderr,
                    "ikc solve: two-bone needs a chain of 3 joints; the chain for '%s' has %d (use --chain 3)\n",
                    t->joint_name, t->chain_count);
            return IKC_EXIT_USAGE;
        }
    }
    return IKC_EXIT_OK;
}

/* Each --pole on the chains that hold its joint (a warning when none does). */
static int attach_poles(solve_command *c, const ik_asset *asset) {
    int i, k, j;
    for (k = 0; k < c->pole_count; ++k) {
        int joint = ikc_asset_find_joint("solve", asset, c->pole_names[k]), used = 0;
        if (joint < 0) return IKC_EXIT_NOT_FOUND;
        for (i = 0; i < c->target_count; ++i)
            for (j = 0; j < c->targets[i].chain_count; ++j)
                if (c->targets[i].chain[j] == joint) {
                    c->targets[i].has_pole = 1;
                    c->targets[i].pole_ms = c->poles[k];
                    used = 1;
                }
        if (!used)
            fprintf(stderr, "ikc solve: warning: --pole %s is on no target's chain; ignored\n", c->pole_names[k]);
    }
    return IKC_EXIT_OK;
}

/* Solve the targets in order, timing each; an exit code. */
static int solve_targets(solve_command *c, const ik_asset *asset, ik_transform *pose, ik_mat4 *model) {
    int i;
    for (i = 0; i < c->target_count; ++i) {
        target_request *t = &c->targets[i];
        double t0;
        t->reach = ikc_chain_reach(model, t->chain, t->chain_count);
        t->tolerance = c->opt.tolerance > 0 ? c->opt.tolerance : ik_maxr(t->reach * (ik_real)1e-3, (ik_real)1e-6);
        t0 = ikc_now();
        t->result = run_solver(asset, &c->opt, t, pose, model);
        t->microseconds = (ikc_now() - t0) * 1e6;
        if (t->result != IK_OK) {
            char why[512] = "";
            if (t->result == IK_ERR_DEGENERATE)
                ikc_explain_degenerate(asset->skeleton, model, t->chain, t->chain_count, why, sizeof why);
            else if (t->bad_field.path[0] && t->bad_field.index >= 0)
                snprintf(why, sizeof why, "in %s[%d]", t->bad_field.path, t->bad_field.index);
            else if (t->bad_field.path[0])
                snprintf(why, sizeof why, "in %s", t->bad_field.path);
            fprintf(stderr, "ikc solve: %s solver failed on '%s': %s%s%s\n", solver_names[t->solver], t->joint_name,
                    ik_result_str(t->result), why[0] ? ": " : "", why);
            return IKC_EXIT_FAILURE;
        }
    }
    return IKC_EXIT_OK;
}

/* Residuals after every chain moved (a later chain may move an earlier
 * one's root), with a warning that says why for each target missed. */
static void check_residuals(solve_command *c, const ik_asset *asset, const ik_mat4 *model, int warn) {
    int i;
    for (i = 0; i < c->target_count; ++i) {
        target_request *t = &c->targets[i];
        char why[512] = "the target is out of reach";
        t->residual = ik_vec3_distance(ik_mat4_translation(&model[t->joint]), t->target_ms);
        t->reached = t->residual <= t->tolerance * (ik_real)1.01;
        if (t->reached || !warn) continue;
        if (!(ik_vec3_distance(ik_mat4_translation(&model[t->chain[0]]), t->target_ms) > t->reach))
            ikc_explain_short(asset->skeleton, model, t->chain, t->chain_count, t->target_ms,
                              t->solver == SOLVER_TWO_BONE && t->has_hinge && !t->has_pole
                                  ? ik_rad((ik_real)IK_LIMB_BEND_MAX_DEG)
                                  : 0,
                              why, sizeof why);
        fprintf(stderr, "ikc solve: warning: '%s' did not reach (%g, %g, %g): residual %.4g (chain reach %.4g, %s)\n",
                t->joint_name, (double)t->target_ms.x, (double)t->target_ms.y, (double)t->target_ms.z,
                (double)t->residual, (double)t->reach, why);
    }
}

static void print_table(const solve_command *c, const ik_asset *asset) {
    int i;
    printf("%-20s %-9s %-26s %-7s %11s %6s %10s\n", "joint", "solver", "target", "reached", "residual", "iter", "us");
    for (i = 0; i < c->target_count; ++i) {
        const target_request *t = &c->targets[i];
        printf("%-20s %-9s (%7.3f, %7.3f, %7.3f) %-7s %11.3e %6d %10.1f\n", t->joint_name, solver_names[t->solver],
               (double)t->target_ms.x, (double)t->target_ms.y, (double)t->target_ms.z, t->reached ? "yes" : "no",
               (double)t->residual, t->iterations, t->microseconds);
    }
    if (ikc_roles_any(&c->roles)) ikc_roles_table(&c->roles, asset->skeleton);
    if (c->out) printf("wrote %s\n", c->out);
    if (c->picture) printf("wrote %s\n", c->picture);
}

/* --targets-file: each joint it names becomes a target (or moves the
 * --target of that joint), its track remembered in track_of. */
static int attach_tracks(solve_command *c) {
    ik_error err;
    ik_result r;
    int i, k;
    for (i = 0; i < MAX_TARGETS; ++i) c->track_of[i] = -1;
    if (!c->targets_file) return IKC_EXIT_OK;
    r = ik_target_track_file_read_file(c->targets_file, MAX_TARGETS, MAX_KEYED_TARGETS, &c->tracks, &err);
    if (r != IK_OK) return ikc_reader_failed("solve", c->targets_file, r, &err);
    for (k = 0; k < c->tracks.count; ++k) {
        const ik_target_track *track = &c->tracks.tracks[k];
        for (i = 0; i < c->target_count && strcmp(c->targets[i].joint_name, track->joint_name) != 0; ++i) {
        }
        if (i == c->target_count) {
            if (c->target_count == MAX_TARGETS) {
                fprintf(stderr, "ikc solve: at most %d targets with --targets-file\n", MAX_TARGETS);
                return IKC_EXIT_USAGE;
            }
            strcpy(c->targets[c->target_count++].joint_name, track->joint_name);
        }
        c->track_of[i] = k;
        c->targets[i].target_ms = track->keys[0].point_ms;
    }
    return IKC_EXIT_OK;
}

/* One summary line per target over the take: frames reached, worst residual. */
static void print_frames_table(const solve_command *c, int frames) {
    int i;
    printf("%-20s %-9s %-14s %12s\n", "joint", "solver", "frames reached", "worst resid.");
    for (i = 0; i < c->target_count; ++i)
        printf("%-20s %-9s %7d/%-6d %12.3e\n", c->targets[i].joint_name, solver_names[c->targets[i].solver],
               frames - c->frames_missed[i], frames, (double)c->worst_residual[i]);
    printf("wrote %s (%d frames)\n", c->out, frames);
}

/* --all-frames: every frame of the clip (at a BVH's frame time, else 1 /
 * --fps) posed from the clip, solved as one frame is (roles, then targets
 * in order; tracked targets moved to the frame's time), kept in a take and
 * written in the input's format. */
static int solve_all_frames(solve_command *c, ik_asset *asset, ik_transform *pose, ik_mat4 *model) {
    int clip_index = ikc_asset_find_clip("solve", asset, c->clip_name), J = asset->skeleton->joint_count, f, i, code;
    const ik_clip *clip;
    ik_take take;
    ikc_progress bar;
    if (clip_index < 0) return IKC_EXIT_NOT_FOUND;
    clip = ik_asset_clip(asset, clip_index);
    take.joint_count = J;
    take.frame_time = asset->bvh ? (ik_real)asset->bvh->frame_time : 1 / (c->fps > 0 ? c->fps : 30);
    take.frame_count = ik_take_frame_count(clip->duration, take.frame_time, MAX_TAKE_FRAMES);
    if (take.frame_count < 1) {
        fprintf(stderr, "ikc solve: clip '%s' has no frames at this frame time\n", c->clip_name);
        return IKC_EXIT_FORMAT;
    }
    if (!(take.poses_ls = (ik_transform *)malloc((size_t)take.frame_count * (size_t)J * sizeof *take.poses_ls))) {
        fprintf(stderr, "ikc solve: out of memory\n");
        return IKC_EXIT_FAILURE;
    }
    ikc_progress_begin(&bar, "solving frames", take.frame_count, c->opt.quiet);
    for (f = 0, code = IKC_EXIT_OK; f < take.frame_count && code == IKC_EXIT_OK; ++f) {
        ik_real time = ik_minr((ik_real)f * take.frame_time, clip->duration);
        ik_skeleton_rest_pose(asset->skeleton, pose);
        ik_clip_sample(clip, time, pose);
        ik_skeleton_fk(asset->skeleton, pose, &asset->root_ms, model);
        for (i = 0; i < c->target_count; ++i)
            if (c->track_of[i] >= 0)
                c->targets[i].target_ms = ik_target_track_at(&c->tracks.tracks[c->track_of[i]], time);
        if (ikc_roles_any(&c->roles)) code = ikc_roles_solve(&c->roles, asset, pose, model);
        if (code == IKC_EXIT_OK) code = solve_targets(c, asset, pose, model);
        if (code != IKC_EXIT_OK) {
            fprintf(stderr, "ikc solve: stopped at frame %d (%.4g s)\n", f, (double)time);
            break;
        }
        check_residuals(c, asset, model, 0);
        for (i = 0; i < c->target_count; ++i) {
            c->frames_missed[i] += !c->targets[i].reached;
            c->worst_residual[i] = ik_maxr(c->worst_residual[i], c->targets[i].residual);
        }
        memcpy(ik_take_pose(&take, f), pose, (size_t)J * sizeof *pose);
        ikc_progress_step(&bar, f + 1);
    }
    ikc_progress_end(&bar);
    for (i = 0; code == IKC_EXIT_OK && i < c->target_count; ++i)
        if (c->frames_missed[i] > 0)
            fprintf(stderr, "ikc solve: warning: '%s' missed its target in %d of %d frames (worst residual %.4g)\n",
                    c->targets[i].joint_name, c->frames_missed[i], take.frame_count, (double)c->worst_residual[i]);
    if (code == IKC_EXIT_OK)
        code = ikc_write_take("solve", asset, &take, clip_index, clip->name, c->out, c->opt.overwrite);
    if (code == IKC_EXIT_OK && !c->opt.quiet) print_frames_table(c, take.frame_count);
    free(take.poses_ls);
    return code;
}

/* Every step from the start pose to the outputs on the loaded asset. */
static int solve_asset(solve_command *c, ik_asset *asset, ik_transform *pose, ik_mat4 *model, ik_mat4 *start) {
    const ikc_roles *roles = ikc_roles_any(&c->roles) ? &c->roles : NULL;
    int code;
    if ((code = start_pose(c, asset, pose, model, start)) != IKC_EXIT_OK) return code;
    if ((code = attach_tracks(c)) != IKC_EXIT_OK) return code;
    if ((code = resolve_targets(c, asset)) != IKC_EXIT_OK) return code;
    if ((code = attach_poles(c, asset)) != IKC_EXIT_OK) return code;
    c->roles.animated = c->clip_name != NULL;
    if (c->all_frames) return solve_all_frames(c, asset, pose, model);
    if (roles && (code = ikc_roles_solve(&c->roles, asset, pose, model)) != IKC_EXIT_OK) return code;
    if ((code = solve_targets(c, asset, pose, model)) != IKC_EXIT_OK) return code;
    check_residuals(c, asset, model, 1);
    if (c->out && (code = write_output(asset, c->out, pose, c->time, c->opt.overwrite)) != IKC_EXIT_OK) return code;
    if (c->picture && (code = render_result(asset, c->picture, c->targets, c->target_count, roles, pose, model,
                                            start)) != IKC_EXIT_OK)
        return code;
    if (c->opt.json)
        print_json(asset, c->out, c->targets, c->target_count, roles, model);
    else if (!c->opt.quiet)
        print_table(c, asset);
    return IKC_EXIT_OK;
}

int ikc_solve(int argc, char **argv) {
    static solve_command c;
    ik_asset asset;
    ik_transform *pose;
    ik_mat4 *model, *start;
    size_t n;
    int code;
    /* A URDF robot (FILE first): robot_solve.c. */
    if (argc > 0 && ikc_is_urdf(argv[0])) return ikc_robot_solve(argc, argv);
    memset(&c, 0, sizeof c);
    ikc_roles_init(&c.roles);
    if ((code = parse_options(argc, argv, &c)) >= 0) return code;
    if ((code = ikc_asset_load("solve", c.path, &asset)) != IKC_EXIT_OK) return code;
    n = (size_t)asset.skeleton->joint_count;
    pose = (ik_transform *)malloc(n * sizeof *pose);
    model = (ik_mat4 *)malloc(n * sizeof *model);
    start = (ik_mat4 *)malloc(n * sizeof *start);
    if (!pose || !model || !start) {
        fprintf(stderr, "ikc solve: out of memory\n");
        code = IKC_EXIT_FAILURE;
    } else {
        code = solve_asset(&c, &asset, pose, model, start);
    }
    free(pose);
    free(model);
    free(start);
    ikc_roles_free(&c.roles);
    ik_target_track_file_free(&c.tracks);
    ik_asset_free(&asset);
    return code;
}

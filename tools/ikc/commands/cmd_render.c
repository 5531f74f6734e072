/* `ikc render FILE`: a picture of the character -- its skinned mesh when the
 * glTF file has one, else bones and joints; joint limits, targets, the
 * ground -- and, for a clip, a filmstrip of frames. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asset.h"
#include "draw.h"

#include "ikc.h"
#include "label_layout.h"
#include "layout_report.h"
#include "mesh_view.h"
#include "robot_arm.h"

#define MAX_FRAMES 64

static void usage(FILE *out) {
    fprintf(out,
            "usage: ikc render FILE [--clip NAME] [--time T | --frames A:B:STEP]\n"
            "                  [--view front|side|top|persp] [--size WxH] [--columns N]\n"
            "                  [--labels roles|all|none] [--bones | --no-bones] [--no-follow] [--quiet]\n"
            "                  [--layout OUT.json] -o OUT.svg|.png|.pdf\n"
            "\n"
            "Draws FILE's character: a glTF file's skinned mesh, posed and flat shaded in its\n"
            "material's colour; otherwise (BVH, chain files, glTF skins without a mesh) bones\n"
            "as tapered lines and joints as dots. Hinge limits as arcs and ball limits as\n"
            "cones (chain files), targets as crosses (green when the effector is on them, red\n"
            "when not), and a ground grid under the lowest point.\n"
            "\n"
            "  --clip NAME      pose from a clip (a name or number from `ikc info`)\n"
            "  --time T         one frame at T seconds (default 0)\n"
            "  --frames A:B:STEP  a filmstrip: one panel per time from A to B seconds every\n"
            "                   STEP (at most %d); with --clip alone, 8 frames over the clip\n"
            "  --view V         front (looking at the figure's face), side (from its left),\n"
            "                   top, or persp (default)\n"
            "  --size WxH       picture size in pixels (PNG) or points (SVG, PDF)\n"
            "  --columns N      filmstrip panels per row (default: up to 4)\n"
            "  --labels L       joint names: roles (default: the limbs' joints, chain ends,\n"
            "                   targets' joints), all, or none; beside the figure, never on it,\n"
            "                   each joined to its joint by a thin line, none over another or a\n"
            "                   target (a label with no room is left out); a prefix all names\n"
            "                   share (mixamorig:) is dropped and said in the title; a filmstrip\n"
            "                   names joints only when asked\n"
            "  --layout FILE    also write where everything went, as JSON: each panel's box,\n"
            "                   joints, labels and their lines, the figure's outline\n"
            "  --bones          draw the bones, thinner, over the mesh (default: bones only\n"
            "                   without a mesh); --no-bones: the mesh alone\n"
            "  --no-follow      keep the world fixed in a filmstrip, every panel framed alike\n"
            "                   (default: each panel framed on its own figure, so a walk stays\n"
            "                   in view)\n"
            "  --quiet          no progress bar\n"
            "  -o OUT           output file; the extension picks SVG, PNG or PDF\n"
            "\n"
            "examples:\n"
            "  ikc render examples/tail.chain --view side -o tail.png\n"
            "  ikc render robot.glb --clip Robot_Walking --frames 0:0.9:0.15 -o walk.svg\n"
            "  ikc render 131_01.bvh --clip motion --time 2.5 --view front -o pose.pdf\n"
            "\n"
            "A URDF robot arm (FILE.urdf, given first) takes other options: see\n"
            "`ikc render FILE.urdf --help`.\n"
            "\n"
            "exit codes: 0 ok, 2 bad usage or numbers, 3 file missing, 4 file malformed,\n"
            "5 unknown clip, 6 output not written.\n",
            MAX_FRAMES);
}

/* "A:B:STEP" seconds, A <= B, STEP > 0. */
static int parse_frames(const char *text, ik_real *a, ik_real *b, ik_real *step) {
    ik_real v[3];
    if (!ikc_parse_reals(text, ':', v, 3, 3) || !(v[0] <= v[1]) || !(v[2] > 0)) return 0;
    *a = v[0];
    *b = v[1];
    *step = v[2];
    return 1;
}

/* What the command line asked for. */
typedef struct render_options {
    const char *path, *out, *clip_name, *layout;
    ik_real time, frames_from, frames_to, frames_step;
    int have_time, have_frames, width, height, columns, labels, follow, quiet, bones;
    ikc_view view;
} render_options;

/* The value of an option that takes one ("--labels ends"); 0 after an error. */
static int option_value(const char *option, const char *value, render_options *o) {
    if (strcmp(option, "--time") == 0) {
        if (ikc_parse_real(value, &o->time)) return o->have_time = 1;
        fprintf(stderr, "ikc render: --time: bad number '%s'\n", value);
    } else if (strcmp(option, "--frames") == 0) {
        if (parse_frames(value, &o->frames_from, &o->frames_to, &o->frames_step)) return o->have_frames = 1;
        fprintf(stderr, "ikc render: --frames: want A:B:STEP seconds with A <= B and STEP > 0, got '%s'\n", value);
    } else if (strcmp(option, "--view") == 0) {
        if (ikc_view_parse(value, &o->view)) return 1;
        fprintf(stderr, "ikc render: --view: unknown view '%s' (front, side, top, persp)\n", value);
    } else if (strcmp(option, "--size") == 0) {
        if (ikc_parse_size(value, &o->width, &o->height)) return 1;
        fprintf(stderr, "ikc render: --size: want WxH between 64 and 16384, got '%s'\n", value);
    } else if (strcmp(option, "--columns") == 0) {
        if (ikc_parse_int(value, &o->columns) && o->columns >= 1 && o->columns <= MAX_FRAMES) return 1;
        fprintf(stderr, "ikc render: --columns: want 1..%d, got '%s'\n", MAX_FRAMES, value);
    } else if (strcmp(option, "--labels") == 0) {
        /* "ends" is the old name of "roles" */
        o->labels = strcmp(value, "none") == 0                                  ? 0
                    : strcmp(value, "roles") == 0 || strcmp(value, "ends") == 0 ? 1
                    : strcmp(value, "all") == 0                                 ? 2
                                                                                : -1;
        if (o->labels >= 0) return 1;
        fprintf(stderr, "ikc render: --labels: want roles, all or none, got '%s'\n", value);
    } else if (strcmp(option, "--layout") == 0) {
        o->layout = value;
        return 1;
    } else if (strcmp(option, "-o") == 0 || strcmp(option, "--output") == 0) {
        o->out = value;
        return 1;
    } else { /* --clip */
        o->clip_name = value;
        return 1;
    }
    return 0;
}

/* The options valued by option_value. */
static int takes_value(const char *a) {
    static const char *const options[] = {"-o",     "--output", "--clip",    "--time",   "--frames",
                                          "--view", "--size",   "--columns", "--labels", "--layout"};
    return ikc_is_one_of(a, options, sizeof options / sizeof options[0]);
}

/* Parse and check the command line; -1 to go on, else an exit code. */
static int parse_options(int argc, char **argv, render_options *o) {
    const char *value;
    char ext[8];
    int i;
    memset(o, 0, sizeof *o);
    o->frames_step = 1;
    o->labels = -1; /* roles for one frame, none for a filmstrip */
    o->follow = 1;
    o->view = IKC_VIEW_PERSP;
    for (i = 0; i < argc; ++i) {
        const char *a = argv[i];
        if (ikc_is_help(a)) {
            usage(stdout);
            return IKC_EXIT_OK;
        } else if (takes_value(a)) {
            if (!(value = ikc_option_value("render", argc, argv, &i)) || !option_value(a, value, o))
                return IKC_EXIT_USAGE;
        } else if (strcmp(a, "--bones") == 0 || strcmp(a, "--no-bones") == 0) {
            o->bones = strcmp(a, "--bones") == 0;
        } else if (strcmp(a, "--no-follow") == 0) {
            o->follow = 0;
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            o->quiet = 1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "ikc render: unknown option '%s' (see ikc render --help)\n", a);
            return IKC_EXIT_USAGE;
        } else if (!ikc_input_path("render", a, &o->path)) {
            return IKC_EXIT_USAGE;
        }
    }
    if (!o->path || !o->out) {
        fprintf(stderr, "ikc render: %s\n", !o->path ? "no input FILE given" : "no output given (-o OUT.png)");
        usage(stderr);
        return IKC_EXIT_USAGE;
    }
    if ((o->have_time || o->have_frames) && !o->clip_name) {
        fprintf(stderr, "ikc render: --time and --frames need --clip NAME\n");
        return IKC_EXIT_USAGE;
    }
    ikc_extension(o->out, ext, sizeof ext);
    if (strcmp(ext, "png") && strcmp(ext, "svg") && strcmp(ext, "pdf")) {
        fprintf(stderr, "ikc render: '%s': the output name must end in .svg, .png or .pdf\n", o->out);
        return IKC_EXIT_USAGE;
    }
    return -1;
}

/* The frames to draw: the rest pose, one time, A:B:STEP, or eight across
 * the clip. Fills `times` [MAX_FRAMES], *clip and the picture's title;
 * returns the frame count, or 0 after an error (an unknown clip). */
static int choose_frames(const render_options *o, const ik_asset *asset, const ik_clip **clip, ik_real *times,
                         char *title, size_t title_size) {
    char clip_buf[32];
    int c, n, count = 0;
    *clip = NULL;
    if (!o->clip_name) {
        times[0] = 0;
        snprintf(title, title_size, "%s: rest pose", o->path);
        return 1;
    }
    if ((c = ikc_asset_find_clip("render", asset, o->clip_name)) < 0) return 0;
    *clip = ik_asset_clip(asset, c);
    snprintf(title, title_size, "%s: %s", o->path, ikc_asset_clip_name(asset, c, clip_buf, sizeof clip_buf));
    if (o->have_time) {
        times[0] = o->time;
        return 1;
    }
    if (!o->have_frames) {
        for (n = 0; n < 8; ++n) times[n] = (*clip)->duration * (ik_real)n / 7;
        return 8;
    }
    for (n = 0; n < MAX_FRAMES; ++n) {
        ik_real t = o->frames_from + o->frames_step * (ik_real)n;
        if (t > o->frames_to + o->frames_step * (ik_real)1e-4) break;
        times[count++] = t;
    }
    if (o->frames_from + o->frames_step * (ik_real)MAX_FRAMES <= o->frames_to)
        fprintf(stderr, "ikc render: warning: --frames gives more than %d frames; drawing the first %d\n", MAX_FRAMES,
                MAX_FRAMES);
    return count;
}

/* Every chain's joints, for highlighting; returns how many. The joints
 * that matter, for labels, go to `roles` (*role_count): the targets'
 * joints, every joint of a leg or an arm, the ends of other chains. */
static int chain_joints(const ik_asset *asset, int *highlight, int *roles, int *role_count) {
    ik_named_chain chains[IKC_MAX_CHAINS];
    int chain_count = ikc_asset_chains(asset, chains, IKC_MAX_CHAINS), count = 0, i, k;
    *role_count = 0;
    for (i = 0; asset->chain_file && i < asset->chain_file->target_count; ++i)
        roles[(*role_count)++] = asset->chain_file->targets[i].joint;
    for (i = 0; i < chain_count; ++i) {
        int limb = strcmp(chains[i].kind, "leg") == 0 || strcmp(chains[i].kind, "arm") == 0;
        for (k = 0; k < chains[i].count; ++k) {
            highlight[count++] = chains[i].joints[k];
            if (limb || k == 0 || k == chains[i].count - 1) roles[(*role_count)++] = chains[i].joints[k];
        }
    }
    return count;
}

/* Pose frame i at times[i] into poses/models [frame_count * joint_count]
 * and its panel; with `follow`, each frame recentred on the first root
 * across the ground. */
static void pose_frames(const render_options *o, const ik_asset *asset, const ik_clip *clip, const ik_real *times,
                        int frame_count, ik_transform *poses, ik_mat4 *models, ikc_panel *panels, char titles[][48]) {
    int n = asset->skeleton->joint_count, i;
    ikc_progress progress;
    ikc_progress_begin(&progress, "posing frames", frame_count, o->quiet);
    for (i = 0; i < frame_count; ++i) {
        ik_transform *pose = poses + (size_t)i * (size_t)n;
        ik_mat4 *model = models + (size_t)i * (size_t)n;
        ik_mat4 root = asset->root_ms;
        ik_skeleton_rest_pose(asset->skeleton, pose);
        if (clip) ik_clip_sample(clip, times[i], pose);
        ik_skeleton_fk(asset->skeleton, pose, &root, model);
        if (o->follow && frame_count > 1) {
            ik_vec3 r = ik_mat4_translation(&model[0]);
            ik_mat4 shift = ik_mat4_from_trs(ik_v3(-r.x, 0, -r.z), ik_quat_identity(), ik_v3(1, 1, 1));
            root = ik_mat4_mul(&shift, &asset->root_ms);
            ik_skeleton_fk(asset->skeleton, pose, &root, model);
        }
        panels[i].skeleton = asset->skeleton;
        panels[i].pose_ls = pose;
        panels[i].model_ms = model;
        panels[i].root_ms = &asset->root_ms;
        panels[i].constraints = asset->constraints;
        panels[i].label_joints = o->labels >= 0 ? o->labels : frame_count > 1 ? 0 : 1;
        if (clip) {
            snprintf(titles[i], sizeof titles[i], "t = %.3f s", (double)times[i]);
            panels[i].title = titles[i];
        }
        ikc_progress_step(&progress, i + 1);
    }
    ikc_progress_end(&progress);
}

/* A chain file's targets on the first panel, each marked reached when its
 * joint is within 1 cm of it in the first frame. */
static void mark_targets(const ik_asset *asset, const ik_mat4 *models, ik_vec3 *targets, int *reached,
                         ikc_panel *panel) {
    int i, count = asset->chain_file->target_count;
    for (i = 0; i < count; ++i) {
        const ik_chain_target *t = &asset->chain_file->targets[i];
        targets[i] = t->position_ms;
        reached[i] = ik_vec3_distance(ik_mat4_translation(&models[t->joint]), t->position_ms) <= (ik_real)1e-3 * 10;
    }
    panel->targets_ms = targets;
    panel->target_reached = reached;
    panel->target_count = count;
}

/* The picture of `frame_count` panels: columns, size, the ground under the
 * lowest point (a chain floats a little above it). */
static ikc_picture lay_out(const render_options *o, const ik_asset *asset, const char *title, const ikc_panel *panels,
                           int frame_count) {
    ikc_picture pic;
    int rows, i;
    memset(&pic, 0, sizeof pic);
    pic.title = title;
    pic.panels = panels;
    pic.panel_count = frame_count;
    pic.columns = o->columns ? o->columns : (frame_count < 4 ? frame_count : 4);
    pic.view = o->view;
    rows = (frame_count + pic.columns - 1) / pic.columns;
    pic.width = o->width ? o->width : (frame_count == 1 ? 1000 : 300 * pic.columns);
    pic.height = o->height ? o->height : (frame_count == 1 ? 800 : 34 + 360 * rows);
    pic.show_ground = 1;
    pic.shared_frame = !o->follow; /* the figure's travel shows across the frames */
    pic.ground_y = ikc_picture_lowest(&pic);
    if (asset->chain_file) {
        ik_real reach = 0;
        for (i = 0; i < asset->skeleton->joint_count; ++i)
            reach += ik_vec3_length(asset->skeleton->rest_ls[i].translation);
        pic.ground_y -= reach * (ik_real)0.15;
    }
    return pic;
}

/* The mesh in every frame's pose: posed [frame_count * vertex_count], each
 * panel pointed at its own; 0 (and no mesh on the panels, after a warning
 * naming the joint) when a frame cannot be posed. */
static int pose_mesh(const ik_asset *asset, ikc_mesh *mesh, int frame_count, const ik_mat4 *models, ik_vec3 *posed,
                     ikc_panel *panels) {
    int i, joint_count = asset->skeleton->joint_count;
    for (i = 0; i < frame_count; ++i) {
        panels[i].mesh = mesh;
        panels[i].mesh_ms = posed + (size_t)i * (size_t)mesh->vertex_count;
        if (!ikc_mesh_pose_named("render", asset, mesh, models + (size_t)i * (size_t)joint_count,
                                 posed + (size_t)i * (size_t)mesh->vertex_count))
            break;
    }
    if (i == frame_count) return 1;
    for (i = 0; i < frame_count; ++i) panels[i].mesh = NULL;
    return 0;
}

/* Pose, lay out and draw the loaded asset; returns an exit code. */
static int render_asset(const render_options *o, const ik_asset *asset) {
    static ikc_panel panels[MAX_FRAMES];
    static char titles[MAX_FRAMES][48];
    static int highlight[IKC_MAX_CHAINS * IKC_MAX_CHAIN], roles[IKC_MAX_CHAINS * IKC_MAX_CHAIN + IK_CHAIN_MAX_TARGETS];
    static ikc_panel_layout layouts[MAX_FRAMES];
    int role_count;
    const ik_clip *clip;
    ik_real times[MAX_FRAMES];
    char title[256], error[512];
    int n = asset->skeleton->joint_count, targets = asset->chain_file ? asset->chain_file->target_count : 0;
    int frame_count = choose_frames(o, asset, &clip, times, title, sizeof title), code = IKC_EXIT_OK, i;
    ik_transform *poses = (ik_transform *)malloc((size_t)(frame_count ? frame_count : 1) * (size_t)n * sizeof *poses);
    ik_mat4 *models = (ik_mat4 *)malloc((size_t)(frame_count ? frame_count : 1) * (size_t)n * sizeof *models);
    ik_vec3 *target_ms = (ik_vec3 *)malloc((size_t)(targets ? targets : 1) * sizeof *target_ms);
    int *reached = (int *)malloc((size_t)(targets ? targets : 1) * sizeof *reached);
    ikc_picture pic;
    ikc_mesh mesh;
    int have_mesh = ikc_mesh_load(asset, &mesh, error, sizeof error);
    ik_vec3 *posed =
        have_mesh > 0
            ? (ik_vec3 *)malloc((size_t)(frame_count ? frame_count : 1) * (size_t)mesh.vertex_count * sizeof *posed)
            : NULL;
    if (error[0])
        fprintf(stderr, "ikc render: warning: %s%s\n", ikc_shown(error), have_mesh ? "" : "; drawing the bones");
    if (frame_count == 0)
        code = IKC_EXIT_NOT_FOUND;
    else if (!poses || !models || !target_ms || !reached || have_mesh < 0 || (have_mesh > 0 && !posed)) {
        fprintf(stderr, "ikc render: out of memory\n");
        code = IKC_EXIT_FAILURE;
    } else {
        memset(panels, 0, sizeof panels);
        pose_frames(o, asset, clip, times, frame_count, poses, models, panels, titles);
        panels[0].highlight_count = chain_joints(asset, highlight, roles, &role_count);
        for (i = 0; i < frame_count; ++i) {
            panels[i].highlight = highlight;
            panels[i].highlight_count = panels[0].highlight_count;
            panels[i].role_joints = roles;
            panels[i].role_joint_count = role_count;
        }
        if (targets) mark_targets(asset, models, target_ms, reached, &panels[0]);
        if (have_mesh > 0) pose_mesh(asset, &mesh, frame_count, models, posed, panels);
        pic = lay_out(o, asset, title, panels, frame_count);
        pic.bones = o->bones;
        memset(layouts, 0, sizeof layouts);
        if (o->layout) pic.layouts = layouts;
        if (!ikc_picture_check(&pic, error, sizeof error)) {
            fprintf(stderr, "ikc render: %s: %s\n", o->path, error);
            code = IKC_EXIT_FORMAT;
        } else if (!ikc_draw_file(&pic, o->out, error, sizeof error)) {
            fprintf(stderr, "ikc render: %s\n", error);
            code = IKC_EXIT_WRITE;
        } else if (o->layout && !ikc_write_layout(o->layout, &pic)) {
            fprintf(stderr, "ikc render: cannot write '%s'\n", o->layout);
            code = IKC_EXIT_WRITE;
        } else if (!o->quiet) {
            printf("wrote %s (%d frame%s, %s view)\n", o->out, frame_count, frame_count == 1 ? "" : "s",
                   ikc_view_name(o->view));
        }
    }
    free(poses);
    free(models);
    free(target_ms);
    free(reached);
    free(posed);
    if (have_mesh > 0) ikc_mesh_free(&mesh);
    for (i = 0; o->layout && i < frame_count; ++i) ikc_panel_layout_free(&layouts[i]);
    return code;
}

int ikc_render(int argc, char **argv) {
    render_options o;
    ik_asset asset;
    int code;
    /* A URDF robot (FILE first): robot_render.c. */
    if (argc > 0 && ikc_is_urdf(argv[0])) return ikc_robot_render(argc, argv);
    code = parse_options(argc, argv, &o);
    if (code >= 0) return code;
    code = ikc_asset_load("render", o.path, &asset);
    if (code != IKC_EXIT_OK) return code;
    code = render_asset(&o, &asset);
    ik_asset_free(&asset);
    return code;
}

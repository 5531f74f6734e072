/* `ikc render FILE`: a picture of the skeleton -- bones, joints, joint
 * limits, targets, the ground -- and, for a clip, a filmstrip of frames. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asset.h"
#include "draw.h"
#include "ikc.h"

#define MAX_FRAMES 64

static void usage(FILE *out) {
    fprintf(out,
            "usage: ikc render FILE [--clip NAME] [--time T | --frames A:B:STEP]\n"
            "                  [--view front|side|top|persp] [--size WxH] [--columns N]\n"
            "                  [--labels none|ends|all] [--no-follow] [--quiet] -o OUT.svg|.png|.pdf\n"
            "\n"
            "Draws FILE's skeleton: bones as tapered lines, joints as dots, hinge limits as\n"
            "arcs and ball limits as cones (chain files), targets as crosses (green when the\n"
            "effector is on them, red when not), and a ground grid under the lowest joint.\n"
            "\n"
            "  --clip NAME      pose from a clip (a name or number from `ikc info`)\n"
            "  --time T         one frame at T seconds (default 0)\n"
            "  --frames A:B:STEP  a filmstrip: one panel per time from A to B seconds every\n"
            "                   STEP (at most %d); with --clip alone, 8 frames over the clip\n"
            "  --view V         front (looking at the figure's face), side (from its left),\n"
            "                   top, or persp (default)\n"
            "  --size WxH       picture size in pixels (PNG) or points (SVG, PDF)\n"
            "  --columns N      filmstrip panels per row (default: up to 4)\n"
            "  --labels L       joint names: none, ends (default: chain joints and tips), all\n"
            "  --no-follow      keep the world fixed in a filmstrip (default: each panel is\n"
            "                   centred on the root, so a walk stays in view)\n"
            "  --quiet          no progress bar\n"
            "  -o OUT           output file; the extension picks SVG, PNG or PDF\n"
            "\n"
            "examples:\n"
            "  ikc render examples/tail.chain --view side -o tail.png\n"
            "  ikc render robot.glb --clip Robot_Walking --frames 0:0.9:0.15 -o walk.svg\n"
            "  ikc render 131_01.bvh --clip motion --time 2.5 --view front -o pose.pdf\n"
            "\n"
            "exit codes: 0 ok, 2 bad usage or numbers, 3 file missing, 4 file malformed,\n"
            "5 unknown clip, 6 output not written.\n",
            MAX_FRAMES);
}

static int parse_size(const char *text, int *w, int *h) {
    char buf[32];
    const char *x = strchr(text, 'x');
    size_t n;
    if (!x || (n = (size_t)(x - text)) >= sizeof buf) return 0;
    memcpy(buf, text, n);
    buf[n] = '\0';
    return ikc_parse_int(buf, w) && ikc_parse_int(x + 1, h) && *w >= 64 && *h >= 64 && *w <= 16384 && *h <= 16384;
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

int ikc_render(int argc, char **argv) {
    const char *path = NULL, *out = NULL, *clip_name = NULL, *value;
    ik_real time = 0, fa = 0, fb = 0, fstep = 1;
    int have_time = 0, have_frames = 0, width = 0, height = 0, columns = 0, labels = 1, follow = 1, quiet = 0;
    ikc_view view = IKC_VIEW_PERSP;
    ik_asset asset;
    const ik_clip *clip = NULL;
    ik_real times[MAX_FRAMES];
    int frame_count = 1, i, code, n;
    ik_transform *poses = NULL;
    ik_mat4 *models = NULL;
    ikc_panel panels[MAX_FRAMES];
    char titles[MAX_FRAMES][48], title[256], error[512], clip_buf[32];
    ikc_picture pic;
    ikc_progress progress;
    ik_named_chain chains[IKC_MAX_CHAINS];
    int highlight[IKC_MAX_CHAINS * IKC_MAX_CHAIN], highlight_count = 0, chain_count;
    ik_vec3 *targets = NULL;
    int *target_reached = NULL, target_count = 0;

    for (i = 0; i < argc; ++i) {
        const char *a = argv[i];
        if (ikc_is_help(a)) {
            usage(stdout);
            return IKC_EXIT_OK;
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            if (!(out = ikc_option_value("render", argc, argv, &i))) return IKC_EXIT_USAGE;
        } else if (strcmp(a, "--clip") == 0) {
            if (!(clip_name = ikc_option_value("render", argc, argv, &i))) return IKC_EXIT_USAGE;
        } else if (strcmp(a, "--time") == 0) {
            if (!(value = ikc_option_value("render", argc, argv, &i))) return IKC_EXIT_USAGE;
            if (!ikc_parse_real(value, &time)) {
                fprintf(stderr, "ikc render: --time: bad number '%s'\n", value);
                return IKC_EXIT_USAGE;
            }
            have_time = 1;
        } else if (strcmp(a, "--frames") == 0) {
            if (!(value = ikc_option_value("render", argc, argv, &i))) return IKC_EXIT_USAGE;
            if (!parse_frames(value, &fa, &fb, &fstep)) {
                fprintf(stderr, "ikc render: --frames: want A:B:STEP seconds with A <= B and STEP > 0, got '%s'\n",
                        value);
                return IKC_EXIT_USAGE;
            }
            have_frames = 1;
        } else if (strcmp(a, "--view") == 0) {
            if (!(value = ikc_option_value("render", argc, argv, &i))) return IKC_EXIT_USAGE;
            if (!ikc_view_parse(value, &view)) {
                fprintf(stderr, "ikc render: --view: unknown view '%s' (front, side, top, persp)\n", value);
                return IKC_EXIT_USAGE;
            }
        } else if (strcmp(a, "--size") == 0) {
            if (!(value = ikc_option_value("render", argc, argv, &i))) return IKC_EXIT_USAGE;
            if (!parse_size(value, &width, &height)) {
                fprintf(stderr, "ikc render: --size: want WxH between 64 and 16384, got '%s'\n", value);
                return IKC_EXIT_USAGE;
            }
        } else if (strcmp(a, "--columns") == 0) {
            if (!(value = ikc_option_value("render", argc, argv, &i))) return IKC_EXIT_USAGE;
            if (!ikc_parse_int(value, &columns) || columns < 1 || columns > MAX_FRAMES) {
                fprintf(stderr, "ikc render: --columns: want 1..%d, got '%s'\n", MAX_FRAMES, value);
                return IKC_EXIT_USAGE;
            }
        } else if (strcmp(a, "--labels") == 0) {
            if (!(value = ikc_option_value("render", argc, argv, &i))) return IKC_EXIT_USAGE;
            if (strcmp(value, "none") == 0) labels = 0;
            else if (strcmp(value, "ends") == 0) labels = 1;
            else if (strcmp(value, "all") == 0) labels = 2;
            else {
                fprintf(stderr, "ikc render: --labels: want none, ends or all, got '%s'\n", value);
                return IKC_EXIT_USAGE;
            }
        } else if (strcmp(a, "--no-follow") == 0) {
            follow = 0;
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            quiet = 1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "ikc render: unknown option '%s' (see ikc render --help)\n", a);
            return IKC_EXIT_USAGE;
        } else if (path) {
            fprintf(stderr, "ikc render: one file at a time ('%s' and '%s')\n", path, a);
            return IKC_EXIT_USAGE;
        } else {
            path = a;
        }
    }
    if (!path || !out) {
        fprintf(stderr, "ikc render: %s\n", !path ? "no input FILE given" : "no output given (-o OUT.png)");
        usage(stderr);
        return IKC_EXIT_USAGE;
    }
    if ((have_time || have_frames) && !clip_name) {
        fprintf(stderr, "ikc render: --time and --frames need --clip NAME\n");
        return IKC_EXIT_USAGE;
    }
    {
        char ext[8];
        ikc_extension(out, ext, sizeof ext);
        if (strcmp(ext, "png") && strcmp(ext, "svg") && strcmp(ext, "pdf")) {
            fprintf(stderr, "ikc render: '%s': the output name must end in .svg, .png or .pdf\n", out);
            return IKC_EXIT_USAGE;
        }
    }
    code = ikc_asset_load("render", path, &asset);
    if (code != IKC_EXIT_OK) return code;
    if (clip_name) {
        int c = ikc_asset_find_clip("render", &asset, clip_name);
        if (c < 0) {
            ik_asset_free(&asset);
            return IKC_EXIT_NOT_FOUND;
        }
        clip = ik_asset_clip(&asset, c);
        snprintf(title, sizeof title, "%s: %s", path, ikc_asset_clip_name(&asset, c, clip_buf, sizeof clip_buf));
        if (have_frames) {
            frame_count = 0;
            for (n = 0; n < MAX_FRAMES; ++n) {
                ik_real t = fa + fstep * (ik_real)n;
                if (t > fb + fstep * (ik_real)1e-4) break;
                times[frame_count++] = t;
            }
            if (fa + fstep * (ik_real)MAX_FRAMES <= fb)
                fprintf(stderr, "ikc render: warning: --frames gives more than %d frames; drawing the first %d\n",
                        MAX_FRAMES, MAX_FRAMES);
        } else if (have_time) {
            times[0] = time;
        } else {
            frame_count = 8;
            for (n = 0; n < frame_count; ++n) times[n] = clip->duration * (ik_real)n / (ik_real)(frame_count - 1);
        }
    } else {
        times[0] = 0;
        snprintf(title, sizeof title, "%s: rest pose", path);
    }

    n = asset.skeleton->joint_count;
    poses = (ik_transform *)malloc((size_t)frame_count * (size_t)n * sizeof *poses);
    models = (ik_mat4 *)malloc((size_t)frame_count * (size_t)n * sizeof *models);
    if (asset.chain_file && asset.chain_file->target_count > 0) {
        target_count = asset.chain_file->target_count;
        targets = (ik_vec3 *)malloc((size_t)target_count * sizeof *targets);
        target_reached = (int *)malloc((size_t)target_count * sizeof *target_reached);
    }
    if (!poses || !models || (target_count && (!targets || !target_reached))) {
        fprintf(stderr, "ikc render: out of memory\n");
        code = IKC_EXIT_FAILURE;
        goto done;
    }
    chain_count = ikc_asset_chains(&asset, chains, IKC_MAX_CHAINS);
    for (i = 0; i < chain_count; ++i) {
        int k;
        for (k = 0; k < chains[i].count; ++k) highlight[highlight_count++] = chains[i].joints[k];
    }
    memset(panels, 0, sizeof panels);
    ikc_progress_begin(&progress, "posing frames", frame_count, quiet);
    for (i = 0; i < frame_count; ++i) {
        ik_transform *pose = poses + (size_t)i * (size_t)n;
        ik_mat4 *model = models + (size_t)i * (size_t)n;
        ik_mat4 root = asset.root_ms;
        ik_skeleton_rest_pose(asset.skeleton, pose);
        if (clip) ik_clip_sample(clip, times[i], pose);
        ik_skeleton_fk(asset.skeleton, pose, &root, model);
        if (follow && frame_count > 1) {
            /* recentre on the first root, across the ground only */
            ik_vec3 r = ik_mat4_translation(&model[0]);
            ik_mat4 shift = ik_mat4_from_trs(ik_v3(-r.x, 0, -r.z), ik_quat_identity(), ik_v3(1, 1, 1));
            root = ik_mat4_mul(&shift, &asset.root_ms);
            ik_skeleton_fk(asset.skeleton, pose, &root, model);
        }
        panels[i].skeleton = asset.skeleton;
        panels[i].pose_ls = pose;
        panels[i].model_ms = model;
        panels[i].root_ms = &asset.root_ms;
        panels[i].constraints = asset.constraints;
        panels[i].highlight = highlight;
        panels[i].highlight_count = highlight_count;
        panels[i].label_joints = frame_count > 1 && labels == 1 ? 0 : labels;
        if (clip) {
            snprintf(titles[i], sizeof titles[i], "t = %.3f s", (double)times[i]);
            panels[i].title = titles[i];
        }
        ikc_progress_step(&progress, i + 1);
    }
    ikc_progress_end(&progress);
    if (target_count) {
        for (i = 0; i < target_count; ++i) {
            const ik_chain_target *t = &asset.chain_file->targets[i];
            ik_vec3 effector = ik_mat4_translation(&models[t->joint]);
            targets[i] = t->position_ms;
            target_reached[i] = ik_vec3_distance(effector, t->position_ms) <= (ik_real)1e-3 * (ik_real)10;
        }
        panels[0].targets_ms = targets;
        panels[0].target_reached = target_reached;
        panels[0].target_count = target_count;
    }
    memset(&pic, 0, sizeof pic);
    pic.title = title;
    pic.panels = panels;
    pic.panel_count = frame_count;
    pic.columns = columns ? columns : (frame_count < 4 ? frame_count : 4);
    pic.view = view;
    {
        int rows = (frame_count + pic.columns - 1) / pic.columns;
        pic.width = width ? width : (frame_count == 1 ? 1000 : 300 * pic.columns);
        pic.height = height ? height : (frame_count == 1 ? 800 : 34 + 360 * rows);
    }
    pic.show_ground = 1;
    pic.ground_y = ikc_picture_lowest(&pic);
    if (asset.chain_file) {
        /* a chain floats: its ground sits a little below its lowest point */
        ik_real reach = 0;
        for (i = 0; i < n; ++i) reach += ik_vec3_length(asset.skeleton->rest_ls[i].translation);
        pic.ground_y -= reach * (ik_real)0.15;
    }
    if (!ikc_picture_check(&pic, error, sizeof error)) {
        fprintf(stderr, "ikc render: %s: %s\n", path, error);
        code = IKC_EXIT_FORMAT;
        goto done;
    }
    if (!ikc_draw_file(&pic, out, error, sizeof error)) {
        fprintf(stderr, "ikc render: %s\n", error);
        code = IKC_EXIT_WRITE;
        goto done;
    }
    if (!quiet) printf("wrote %s (%d frame%s, %s view)\n", out, frame_count, frame_count == 1 ? "" : "s",
                       ikc_view_name(view));
    code = IKC_EXIT_OK;
done:
    free(poses);
    free(models);
    free(targets);
    free(target_reached);
    ik_asset_free(&asset);
    return code;
}

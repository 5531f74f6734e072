/* `ikc walk RIG -o OUT`: a procedural walk (ikit/walk.h) for any character
 * the humanoid map understands, written into the rig's own format (glTF: a
 * new animation "walk"; BVH: the frames), optionally with a filmstrip. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include <ikit/height_field_file.h>
#include <ikit/walk.h>

#include "asset.h"
#include "draw.h"
#include "humanoid_setup.h"
#include "ikc.h"
#include "mesh_view.h"
#include "walk_view.h"

#define WALK_MAX_FRAMES 100000
#define HEIGHT_FIELD_MAX_BYTES (64u << 20)

typedef struct walk_options {
    const char *path, *out, *map, *render, *height_field;
    ik_real seconds, fps, speed, stride, cadence, step_height, slope, stairs[2];
    int have_speed, have_stride, have_cadence, have_step, have_slope, have_stairs, overwrite, quiet, json;
} walk_options;

static void usage(FILE *out) {
    fprintf(out,
            "usage: ikc walk RIG -o OUT [--seconds S] [--fps F] [--speed V] [--stride L | --cadence C]\n"
            "                [--step-height H] [--slope DEG | --stairs RISE,RUN | --height-field FILE]\n"
            "                [--map FILE] [--render PICTURE] [--overwrite] [--quiet] [--json]\n"
            "\n"
            "A procedural walk cycle for a humanoid character (glTF or BVH): feet on eased\n"
            "periodic paths, planted while they stand, the pelvis bobbing and swaying, arms\n"
            "swinging opposite; the rig's two-bone legs keep the knees forward. Written in\n"
            "the input's format: glTF gains an animation \"walk\", BVH gets the frames.\n"
            "Lengths are in the rig's units; defaults scale with its leg length L.\n"
            "\n"
            "  -o OUT              output (.gltf/.glb for glTF input, .bvh for BVH)\n"
            "  --seconds S         length of the clip (default 4)\n"
            "  --fps F             frames per second (default 30)\n"
            "  --speed V           walking speed, units per second (default 1.2 L)\n"
            "  --stride L          one foot's travel per cycle (two steps; default 1.2 L)\n"
            "  --cadence C         steps per second instead of --stride\n"
            "  --step-height H     the swinging foot's lift (default 0.08 L, at most 0.5 L)\n"
            "  --slope DEG         walk up (negative: down) a slope\n"
            "  --stairs RISE,RUN   walk up stairs starting half a leg ahead\n"
            "  --height-field FILE a height-field file (ikc solve --help: rows of heights),\n"
            "                      x and z in the walk's frame (x to the side, z ahead)\n"
            "  --map FILE          'role = joint name' lines for joints not found by name\n"
            "  --render PICTURE    a filmstrip (.png, .svg or .pdf) of six frames: the\n"
            "                      character's own skinned mesh when it has one, else bones\n"
            "  --overwrite         allow OUT to replace the input\n"
            "  --json              the report as JSON on stdout: frames, fps, the gait (speed,\n"
            "                      stride, cadence, step height), distance, footfalls,\n"
            "                      largest miss, lowest pelvis, the files written\n");
}

static int parse_value(walk_options *o, const char *option, const char *value) {
    ik_real *reals[] = {&o->seconds, &o->fps, &o->speed, &o->stride, &o->cadence, &o->step_height, &o->slope};
    int *flags[] = {NULL, NULL, &o->have_speed, &o->have_stride, &o->have_cadence, &o->have_step, &o->have_slope};
    static const char *const names[] = {"--seconds", "--fps",         "--speed", "--stride",
                                        "--cadence", "--step-height", "--slope"};
    int i;
    for (i = 0; i < 7; ++i)
        if (strcmp(option, names[i]) == 0) {
            if (!ikc_parse_real(value, reals[i])) {
                fprintf(stderr, "ikc walk: %s: want a number, got '%s'\n", option, value);
                return 0;
            }
            if (flags[i]) *flags[i] = 1;
            return 1;
        }
    if (strcmp(option, "--stairs") == 0) {
        if (ikc_parse_reals(value, ',', o->stairs, 2, 2) == 2 && o->stairs[0] > 0 && o->stairs[1] > 0) {
            o->have_stairs = 1;
            return 1;
        }
        fprintf(stderr, "ikc walk: --stairs: want RISE,RUN, both positive, got '%s'\n", value);
        return 0;
    }
    if (strcmp(option, "-o") == 0 || strcmp(option, "--output") == 0)
        o->out = value;
    else if (strcmp(option, "--map") == 0)
        o->map = value;
    else if (strcmp(option, "--render") == 0)
        o->render = value;
    else if (strcmp(option, "--height-field") == 0)
        o->height_field = value;
    return 1;
}

static int parse_args(int argc, char **argv, walk_options *o) {
    static const char *const with_value[] = {
        "-o",      "--output", "--seconds",      "--fps", "--speed", "--stride", "--cadence", "--step-height",
        "--slope", "--stairs", "--height-field", "--map", "--render"};
    static const char *const all[] = {
        "-o",      "--output", "--seconds",      "--fps", "--speed",  "--stride",    "--cadence", "--step-height",
        "--slope", "--stairs", "--height-field", "--map", "--render", "--overwrite", "--quiet",   "--json"};
    int i, k;
    memset(o, 0, sizeof *o);
    o->seconds = 4;
    o->fps = 30;
    for (i = 0; i < argc; ++i) {
        const char *a = argv[i];
        int known = 0;
        if (ikc_is_help(a)) {
            usage(stdout);
            return -1;
        }
        for (k = 0; k < (int)(sizeof with_value / sizeof with_value[0]); ++k)
            if (strcmp(a, with_value[k]) == 0) {
                const char *value = ikc_option_value("walk", argc, argv, &i);
                if (!value || !parse_value(o, a, value)) return 0;
                known = 1;
                break;
            }
        if (known) continue;
        if (strcmp(a, "--overwrite") == 0)
            o->overwrite = 1;
        else if (strcmp(a, "--quiet") == 0)
            o->quiet = 1;
        else if (strcmp(a, "--json") == 0)
            o->json = o->quiet = 1;
        else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "ikc walk: unknown option '%s'\n", a);
            ikc_suggest_name(stderr, all, (int)(sizeof all / sizeof all[0]), a, 2);
            return 0;
        } else if (!o->path)
            o->path = a;
        else {
            fprintf(stderr, "ikc walk: one character file, please ('%s' and '%s')\n", o->path, a);
            return 0;
        }
    }
    if (!o->path || !o->out) {
        fprintf(stderr, "ikc walk: want RIG and -o OUT (ikc walk --help)\n");
        return 0;
    }
    if (o->have_slope + o->have_stairs + (o->height_field != NULL) > 1) {
        fprintf(stderr, "ikc walk: give one of --slope, --stairs and --height-field\n");
        return 0;
    }
    if (!(o->seconds >= 0) || !(o->fps > 0) || o->fps > 1000) {
        fprintf(stderr, "ikc walk: --seconds must not be negative and --fps must be in (0, 1000]\n");
        return 0;
    }
    if (o->have_slope && !(IK_FABS(o->slope) < 60)) {
        fprintf(stderr, "ikc walk: --slope: want an angle under 60 degrees either way, got %g\n", (double)o->slope);
        return 0;
    }
    return 1;
}

/* The ground of the walk frame asked for; `field` holds a height field's
 * samples. Returns an exit code. */
static int make_ground(const walk_options *o, ik_real leg, ik_real distance, ik_height_field_file *field,
                       ik_ground *ground, int *have) {
    *have = 0;
    if (o->have_slope) {
        ik_real a = ik_rad(o->slope);
        *ground = ik_ground_plane(ik_vec3_zero(), ik_v3(0, IK_COS(a), -IK_SIN(a)));
        *have = 1;
    } else if (o->have_stairs) {
        double steps = ceil((double)((distance + leg) / o->stairs[1]));
        *ground = ik_ground_stairs(ik_v3(0, 0, (ik_real)0.5 * leg), ik_v3(0, 0, 1), o->stairs[0], o->stairs[1],
                                   steps > 100000 ? 100000
                                   : steps < 1    ? 1
                                                  : (int)steps);
        *have = 1;
    } else if (o->height_field) {
        size_t length = 0;
        int code;
        ik_error err;
        char *text = ikc_read_text_file("walk", o->height_field, HEIGHT_FIELD_MAX_BYTES, &length, &code);
        ik_result r;
        if (!text) return code;
        r = ik_height_field_file_read_memory(text, length, field, &err);
        free(text);
        if (r != IK_OK) {
            fprintf(stderr, "ikc walk: %s: %s\n", o->height_field, err.message[0] ? err.message : ik_result_str(r));
            return IKC_EXIT_FORMAT;
        }
        /* without an origin: centred across the walk, starting a leg behind it */
        if (!field->has_origin)
            field->origin_ms = ik_v3(-(ik_real)0.5 * field->cell * (ik_real)(field->count_x - 1), 0, -leg);
        *ground = ik_ground_height_field(field->origin_ms, field->cell, field->count_x, field->count_z, field->heights);
        *have = 1;
    }
    return IKC_EXIT_OK;
}

/* The walk's report as JSON, lengths in model units; `cadence` steps per
 * second (ik_walk_cadence, taken while the job's rig is whole: writing the
 * clip rebuilds the skeleton). */
static void print_json(const walk_options *o, const ik_walk *job, ik_real cadence, const ik_walk_report *report,
                       int frames, int code) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddItemToObject(root, "file", ikc_json_text(o->path));
    cJSON_AddNumberToObject(root, "frames", frames);
    cJSON_AddNumberToObject(root, "fps", (double)o->fps);
    cJSON_AddNumberToObject(root, "speed", (double)job->speed);
    cJSON_AddNumberToObject(root, "stride",
                            cadence > 0 ? 2 * (double)job->speed / (double)cadence : (double)job->stride);
    cJSON_AddNumberToObject(root, "cadence", (double)cadence);
    cJSON_AddNumberToObject(root, "step_height", (double)job->step_height);
    cJSON_AddNumberToObject(root, "distance", (double)report->distance);
    cJSON_AddNumberToObject(root, "footfalls", report->steps);
    cJSON_AddNumberToObject(root, "largest_miss", (double)report->worst_residual);
    cJSON_AddNumberToObject(root, "lowest_pelvis", (double)report->lowest_pelvis);
    cJSON_AddItemToObject(root, "output", ikc_json_text(o->out));
    cJSON_AddItemToObject(root, "render", o->render ? ikc_json_text(o->render) : cJSON_CreateNull());
    ikc_json_print_result(root, code);
}

static int walk_asset(const walk_options *o, ik_asset *asset) {
    ikc_humanoid h;
    ik_walk job;
    ik_take take;
    ik_walk_report report;
    ik_real cadence = 0;
    ik_height_field_file field;
    ik_ground ground;
    ik_mat4 *model = NULL;
    const char *problem = "";
    int code, have_ground = 0;
    ik_result r;
    memset(&field, 0, sizeof field);
    memset(&take, 0, sizeof take);
    code = ikc_humanoid_find("walk", asset->skeleton, o->map, &h);
    if (code != IKC_EXIT_OK) return code;
    if (!ikc_humanoid_usable("walk", &h, asset->skeleton, stderr)) {
        ikc_humanoid_free(&h);
        return IKC_EXIT_NOT_FOUND;
    }
    job = ik_walk_def(&h.rig, &asset->root_ms);
    if (o->have_speed) job.speed = o->speed;
    if (o->have_stride) job.stride = o->stride;
    if (o->have_cadence) {
        job.cadence = o->cadence;
        if (!o->have_stride) job.stride = 0;
    }
    if (o->have_step) job.step_height = o->step_height;
    take.frame_time = 1 / o->fps;
    take.joint_count = asset->skeleton->joint_count;
    take.frame_count = ik_take_frame_count(o->seconds, take.frame_time, WALK_MAX_FRAMES);
    if (take.frame_count < 1) {
        fprintf(stderr, "ikc walk: %g seconds at %g frames per second is over %d frames\n", (double)o->seconds,
                (double)o->fps, WALK_MAX_FRAMES);
        code = IKC_EXIT_USAGE;
        goto done;
    }
    {
        ik_real leg = 0;
        int side;
        for (side = 0; side < 2; ++side) {
            const ik_humanoid_limb *l = &h.rig.limb[IK_LIMB_LEG_L + side];
            leg = ik_maxr(leg, (l->upper_length + l->lower_length) * IK_CBRT(IK_FABS(ik_mat4_det3(&asset->root_ms))));
        }
        code = make_ground(o, leg, job.speed * o->seconds, &field, &ground, &have_ground);
        if (code != IKC_EXIT_OK) goto done;
    }
    job.ground = have_ground ? &ground : NULL;
    take.poses_ls = (ik_transform *)malloc(sizeof(ik_transform) * (size_t)take.frame_count * (size_t)take.joint_count);
    model = (ik_mat4 *)malloc(sizeof(ik_mat4) * (size_t)take.joint_count);
    if (!take.poses_ls || !model) {
        fprintf(stderr, "ikc walk: out of memory\n");
        code = IKC_EXIT_FAILURE;
        goto done;
    }
    job.take = &take;
    job.model_ms = model;
    job.report = &report;
    r = ik_walk_validate(&job, &problem);
    if (r != IK_OK) {
        fprintf(stderr, "ikc walk: %s (%s)\n", problem, ik_result_str(r));
        code = r == IK_ERR_RANGE || r == IK_ERR_NONFINITE ? IKC_EXIT_USAGE : IKC_EXIT_FAILURE;
        goto done;
    }
    {
        double t0 = ikc_now();
        r = ik_walk_run(&job);
        if (r != IK_OK) {
            fprintf(stderr, "ikc walk: the walk failed: %s\n", ik_result_str(r));
            code = IKC_EXIT_FAILURE;
            goto done;
        }
        cadence = ik_walk_cadence(&job);
        if (!o->quiet)
            printf(
                "walk: %d frames at %g fps, %.3g units at %.3g units/s, cadence %.3g steps/s, %d footfalls, "
                "largest miss %.3g units (%.0f frames/s)\n",
                take.frame_count, (double)o->fps, (double)report.distance, (double)job.speed, (double)cadence,
                report.steps, (double)report.worst_residual,
                take.frame_count / (ikc_now() - t0 > 0 ? ikc_now() - t0 : 1e-9));
    }
    if (o->render) {
        ikc_walk_picture pic;
        ikc_mesh mesh;
        char error[600];
        char title[300];
        int have_mesh = ikc_mesh_load(asset, &mesh, error, sizeof error), made;
        if (error[0])
            fprintf(stderr, "ikc walk: warning: %s%s\n", ikc_shown(error), have_mesh ? "" : "; drawing the bones");
        snprintf(title, sizeof title, "ikc walk %s", o->path);
        made = have_mesh >= 0 && ikc_walk_picture_make(&pic, &h.rig, &asset->root_ms, &take, job.ground,
                                                       have_mesh > 0 ? &mesh : NULL, 6, 2, title);
        if (!made) {
            if (have_mesh > 0) ikc_mesh_free(&mesh);
            fprintf(stderr, "ikc walk: out of memory for the picture\n");
            code = IKC_EXIT_FAILURE;
            goto done;
        }
        if (!ikc_draw_file(&pic.picture, o->render, error, sizeof error)) {
            fprintf(stderr, "ikc walk: %s\n", error);
            code = IKC_EXIT_WRITE;
        } else if (!o->quiet) {
            printf("wrote %s\n", o->render);
        }
        ikc_walk_picture_free(&pic);
        if (have_mesh > 0) ikc_mesh_free(&mesh);
        if (code != IKC_EXIT_OK) goto done;
    }
    code = ikc_write_take("walk", asset, &take, -1, "walk", o->out, o->overwrite);
    if (code == IKC_EXIT_OK && !o->quiet) printf("wrote %s\n", o->out);
    if (o->json) print_json(o, &job, cadence, &report, take.frame_count, code);
done:
    free(take.poses_ls);
    free(model);
    if (field.heights) ik_height_field_file_free(&field);
    ikc_humanoid_free(&h);
    return code;
}

int ikc_walk(int argc, char **argv) {
    walk_options o;
    ik_asset asset;
    int ok = parse_args(argc, argv, &o), code;
    if (ok < 0) return IKC_EXIT_OK;
    if (!ok) return IKC_EXIT_USAGE;
    if ((code = ikc_asset_load("walk", o.path, &asset)) != IKC_EXIT_OK) return code;
    if (asset.chain_file) {
        fprintf(stderr, "ikc walk: '%s' is a chain, not a character: give a glTF or BVH humanoid\n", o.path);
        code = IKC_EXIT_FORMAT;
    } else {
        code = walk_asset(&o, &asset);
    }
    ik_asset_free(&asset);
    return code;
}

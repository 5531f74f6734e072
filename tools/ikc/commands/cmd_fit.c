/* `ikc fit TAKE -o OUT --error E`: fit few keys with cubic tangents to a
 * take (motion/key_fit.h), compare with per-curve greedy key removal at the
 * same error, write the keys (glTF CUBICSPLINE, or BVH re-baked at its
 * frame rate) and optionally a picture of one channel. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include <ikit/key_fit.h>

#include "asset.h"
#include "curve_plot.h"
#include "ikc.h"

/* A BVH's unit is guessed from its figure's rest extent: an adult's joints,
 * toe to head, span about 1.4 m (CMU's 131_01: 24.3 units of 0.0564 m). */
#define FIGURE_EXTENT_M 1.4
#define MAX_FORCED 4096
#define MAX_FRAMES 10000000

typedef struct fit_options {
    const char *path, *out, *clip_name, *plot, *plot_joint;
    ik_real plot_window[2]; /* seconds; from > to: the default */
    ik_real error_m, offset_m, metres_per_unit, fps;
    ik_key_sharing sharing;
    int forced[MAX_FORCED], forced_count;
    int compare, overwrite, json;
} fit_options;

static void usage(FILE *out) {
    fprintf(out,
            "usage: ikc fit TAKE --error E -o OUT [--clip NAME] [--fps N] [--unit M] [--offset D]\n"
            "               [--sharing auto|joint|skeleton] [--force F,F,...] [--no-compare]\n"
            "               [--plot PICTURE [--plot-joint NAME] [--plot-time A:B]] [--overwrite] [--json]\n"
            "\n"
            "Fits keys with cubic Hermite tangents to a clip sampled at every frame, so\n"
            "that every joint, and the points D along each joint's axes (so twists\n"
            "count), stays within E of the take in model space; prints the keys kept\n"
            "and the error beside per-curve greedy key removal (Blender's decimate) at\n"
            "the same error, and writes OUT in TAKE's format: glTF with the clip's keys\n"
            "replaced by CUBICSPLINE keys, or BVH with the keys re-baked at its rate.\n"
            "\n"
            "  --error E          the largest distance allowed: 1mm, 0.5cm, 0.001m (a\n"
            "                     bare number is metres)\n"
            "  --clip NAME        the clip (a name or number from `ikc info`; default the first)\n"
            "  --fps N            frames per second to sample a glTF clip at (default 30;\n"
            "                     a BVH keeps its own)\n"
            "  --unit M           metres per model unit (default: glTF 1; BVH from its\n"
            "                     joints' rest extent taken as %.1f m)\n"
            "  --offset D         how far along each joint's axes the twist points are\n"
            "                     (default 5cm)\n"
            "  --sharing S        key times shared by a joint's channels (joint), by the\n"
            "                     whole skeleton (skeleton), or whichever stores fewer\n"
            "                     numbers (auto, the default)\n"
            "  --force F,F,...    frames keyed exactly in every channel (foot contacts)\n"
            "  --no-compare       skip the greedy comparison (it is slower than the fit)\n"
            "  --plot PICTURE     one channel's samples, keys and tangents (.png/.svg/.pdf)\n"
            "  --plot-joint NAME  the joint whose rotation is drawn (default the one with\n"
            "                     the most keys)\n"
            "  --plot-time A:B    the seconds drawn (default the take up to 3 s, else the\n"
            "                     3 s in its middle)\n"
            "  --overwrite        -o may replace the input file\n"
            "  --json             the report as JSON on stdout: the take, E, the fitted and\n"
            "                     greedy keys and errors (mm), the files written\n"
            "\n"
            "example:\n"
            "  ikc fit 131_01.bvh --error 1mm -o fitted.bvh --plot keys.png\n",
            FIGURE_EXTENT_M);
}

/* "1mm", "0.5cm", "0.001m" or a bare number of metres. */
static int parse_length(const char *text, ik_real *metres) {
    char number[64];
    size_t n = strlen(text);
    double scale = 1;
    if (n >= 2 && strcmp(text + n - 2, "mm") == 0)
        scale = 1e-3, n -= 2;
    else if (n >= 2 && strcmp(text + n - 2, "cm") == 0)
        scale = 1e-2, n -= 2;
    else if (n >= 1 && text[n - 1] == 'm')
        n -= 1;
    if (n == 0 || n >= sizeof number) return 0;
    memcpy(number, text, n);
    number[n] = '\0';
    if (!ikc_parse_real(number, metres) || !(*metres > 0)) return 0;
    *metres = (ik_real)(*metres * scale);
    return 1;
}

static int parse_forced(const char *text, fit_options *o) {
    const char *at = text;
    while (*at) {
        char buf[32];
        size_t n = strcspn(at, ",");
        if (n == 0 || n >= sizeof buf || o->forced_count >= MAX_FORCED) return 0;
        memcpy(buf, at, n);
        buf[n] = '\0';
        if (!ikc_parse_int(buf, &o->forced[o->forced_count]) || o->forced[o->forced_count] < 0) return 0;
        ++o->forced_count;
        at += n + (at[n] == ',');
    }
    return o->forced_count > 0;
}

static int option_value(const char *a, const char *v, fit_options *o) {
    if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0)
        o->out = v;
    else if (strcmp(a, "--clip") == 0)
        o->clip_name = v;
    else if (strcmp(a, "--plot") == 0)
        o->plot = v;
    else if (strcmp(a, "--plot-joint") == 0)
        o->plot_joint = v;
    else if (strcmp(a, "--plot-time") == 0) {
        if (ikc_parse_reals(v, ':', o->plot_window, 2, 2) != 2 || !(o->plot_window[1] > o->plot_window[0])) {
            fprintf(stderr, "ikc fit: --plot-time '%s': give A:B seconds with A < B\n", v);
            return 0;
        }
    } else if (strcmp(a, "--error") == 0 || strcmp(a, "--offset") == 0) {
        if (!parse_length(v, strcmp(a, "--error") == 0 ? &o->error_m : &o->offset_m)) {
            fprintf(stderr, "ikc fit: %s '%s': give a length above zero, such as 1mm, 0.5cm or 0.001m\n", a, v);
            return 0;
        }
    } else if (strcmp(a, "--fps") == 0 || strcmp(a, "--unit") == 0) {
        ik_real x;
        if (!ikc_parse_real(v, &x) || !(x > 0)) {
            fprintf(stderr, "ikc fit: %s '%s': give a number above zero\n", a, v);
            return 0;
        }
        *(strcmp(a, "--fps") == 0 ? &o->fps : &o->metres_per_unit) = x;
    } else if (strcmp(a, "--sharing") == 0) {
        if (strcmp(v, "auto") == 0)
            o->sharing = IK_KEY_SHARE_AUTO;
        else if (strcmp(v, "joint") == 0)
            o->sharing = IK_KEY_SHARE_JOINT;
        else if (strcmp(v, "skeleton") == 0)
            o->sharing = IK_KEY_SHARE_SKELETON;
        else {
            fprintf(stderr, "ikc fit: --sharing '%s': auto, joint or skeleton\n", v);
            return 0;
        }
    } else if (strcmp(a, "--force") == 0) {
        if (!parse_forced(v, o)) {
            fprintf(stderr, "ikc fit: --force '%s': frame numbers (0 and up) separated by commas, at most %d\n", v,
                    MAX_FORCED);
            return 0;
        }
    }
    return 1;
}

static int takes_value(const char *a) {
    static const char *const options[] = {"-o",      "--output", "--clip", "--plot", "--plot-joint", "--plot-time",
                                          "--error", "--offset", "--fps",  "--unit", "--sharing",    "--force"};
    return ikc_is_one_of(a, options, sizeof options / sizeof options[0]);
}

static int parse_options(int argc, char **argv, fit_options *o) {
    const char *value;
    int i;
    memset(o, 0, sizeof *o);
    o->offset_m = (ik_real)0.05;
    o->fps = 30;
    o->compare = 1;
    for (i = 0; i < argc; ++i) {
        const char *a = argv[i];
        if (ikc_is_help(a)) {
            usage(stdout);
            return IKC_EXIT_OK;
        } else if (takes_value(a)) {
            if (!(value = ikc_option_value("fit", argc, argv, &i)) || !option_value(a, value, o)) return IKC_EXIT_USAGE;
        } else if (strcmp(a, "--no-compare") == 0) {
            o->compare = 0;
        } else if (strcmp(a, "--overwrite") == 0) {
            o->overwrite = 1;
        } else if (strcmp(a, "--json") == 0) {
            o->json = 1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "ikc fit: unknown option '%s' (see ikc fit --help)\n", a);
            return IKC_EXIT_USAGE;
        } else if (!ikc_input_path("fit", a, &o->path)) {
            return IKC_EXIT_USAGE;
        }
    }
    if (!o->path || !o->out || !(o->error_m > 0)) {
        fprintf(stderr, "ikc fit: %s\n",
                !o->path  ? "no input TAKE given"
                : !o->out ? "no output given (-o OUT)"
                          : "no --error E given");
        usage(stderr);
        return IKC_EXIT_USAGE;
    }
    return -1;
}

/* Metres per model unit: --unit; glTF's are metres; a BVH's figure is
 * joints are taken to span FIGURE_EXTENT_M at rest (their largest extent). */
static ik_real metres_per_unit(const fit_options *o, const ik_asset *asset) {
    const ik_skeleton *sk = asset->skeleton;
    ik_mat4 *model;
    ik_vec3 lo, hi;
    ik_real extent;
    int j;
    if (o->metres_per_unit > 0) return o->metres_per_unit;
    if (!asset->bvh) return 1;
    model = (ik_mat4 *)malloc((size_t)sk->joint_count * sizeof *model);
    if (!model) return 1;
    ik_skeleton_fk(sk, sk->rest_ls, NULL, model);
    lo = hi = ik_mat4_translation(&model[0]);
    for (j = 1; j < sk->joint_count; ++j) {
        ik_vec3 p = ik_mat4_translation(&model[j]);
        lo = ik_v3(ik_minr(lo.x, p.x), ik_minr(lo.y, p.y), ik_minr(lo.z, p.z));
        hi = ik_v3(ik_maxr(hi.x, p.x), ik_maxr(hi.y, p.y), ik_maxr(hi.z, p.z));
    }
    free(model);
    extent = ik_maxr(hi.x - lo.x, ik_maxr(hi.y - lo.y, hi.z - lo.z));
    return extent > 0 ? (ik_real)FIGURE_EXTENT_M / extent : 1;
}

/* The fitted clip and what it needs, freed together. */
typedef struct fit_buffers {
    ik_take take;
    ik_channel *channels;
    ik_real *times, *values;
    void *scratch;
    ik_clip clip;
} fit_buffers;

static void buffers_free(fit_buffers *b) {
    free(b->take.poses_ls);
    free(b->channels);
    free(b->times);
    free(b->values);
    free(b->scratch);
}

static void print_row(const char *method, const ik_key_fit_stats *s, ik_real mm_per_unit, double seconds,
                      const char *note) {
    printf("%-18s %8ld %9.2f %12ld %9.3f %9.3f %8.2f s  %s\n", method, s->key_count,
           100.0 * (double)s->key_count / ((double)s->frame_count * s->channel_count), s->curve_key_count,
           (double)(s->max_error * mm_per_unit), (double)(s->mean_error * mm_per_unit), seconds, note);
}

/* A row of the table as JSON. */
static cJSON *row_json(const ik_key_fit_stats *s, ik_real mm_per_unit, double seconds, const char *note) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "keys", (double)s->key_count);
    cJSON_AddNumberToObject(o, "percent_of_frames",
                            100.0 * (double)s->key_count / ((double)s->frame_count * s->channel_count));
    cJSON_AddNumberToObject(o, "curve_keys", (double)s->curve_key_count);
    cJSON_AddNumberToObject(o, "max_error_mm", (double)(s->max_error * mm_per_unit));
    cJSON_AddNumberToObject(o, "mean_error_mm", (double)(s->mean_error * mm_per_unit));
    cJSON_AddNumberToObject(o, "seconds", seconds);
    cJSON_AddItemToObject(o, "keys_timed", ikc_json_text(note));
    return o;
}

/* The rotation channel drawn: --plot-joint's, else the one with most keys. */
static int plot_channel(const fit_options *o, const ik_asset *asset, const ik_clip *clip) {
    int joint = -1, best = -1, c;
    if (o->plot_joint && (joint = ikc_asset_find_joint("fit", asset, o->plot_joint)) < 0) return -1;
    for (c = 0; c < clip->channel_count; ++c) {
        const ik_channel *ch = &clip->channels[c];
        if (ch->path != IK_CHANNEL_ROTATION || (joint >= 0 && ch->joint != joint)) continue;
        if (best < 0 || ch->key_count > clip->channels[best].key_count) best = c;
    }
    return best;
}

static int write_plot(const fit_options *o, const ik_asset *asset, const fit_buffers *b) {
    int c = plot_channel(o, asset, &b->clip), f, i, width;
    const ik_channel *ch;
    ik_real *samples;
    char title[256], error[512];
    ikc_curve_plot plot;
    if (c < 0) {
        if (!o->plot_joint) fprintf(stderr, "ikc fit: no rotation channel to plot\n");
        return o->plot_joint ? IKC_EXIT_NOT_FOUND : IKC_EXIT_FAILURE;
    }
    ch = &b->clip.channels[c];
    width = ik_channel_width(ch->path);
    samples = (ik_real *)malloc((size_t)b->take.frame_count * (size_t)width * sizeof *samples);
    if (!samples) return IKC_EXIT_FAILURE;
    /* the take's rotations on the fitted curve's side (q and -q are one rotation) */
    for (f = 0; f < b->take.frame_count; ++f) {
        ik_quat q = ik_take_pose(&b->take, f)[ch->joint].rotation;
        ik_real fitted[4];
        ik_channel_sample(ch, (ik_real)f * b->take.frame_time, fitted);
        if (ik_quat_dot(q, ik_q(fitted[0], fitted[1], fitted[2], fitted[3])) < 0) q = ik_quat_neg(q);
        samples[f * width + 0] = q.x, samples[f * width + 1] = q.y, samples[f * width + 2] = q.z;
        samples[f * width + 3] = q.w;
    }
    snprintf(title, sizeof title, "%s: %s rotation (quaternion), %d keys over %d frames", ikc_shown(o->path),
             ikc_shown(ik_skeleton_name(asset->skeleton, ch->joint)), ch->key_count, b->take.frame_count);
    plot.title = title;
    plot.fitted = ch;
    plot.samples = samples;
    plot.frame_count = b->take.frame_count;
    plot.frame_time = b->take.frame_time;
    plot.from = o->plot_window[0];
    plot.to = o->plot_window[1];
    if (!(plot.to > plot.from)) {
        ik_real duration = (ik_real)(b->take.frame_count - 1) * b->take.frame_time;
        plot.from = duration > 3 ? duration / 2 - (ik_real)1.5 : 0;
        plot.to = duration > 3 ? plot.from + 3 : duration;
    }
    i = ikc_curve_plot_file(&plot, o->plot, error, sizeof error);
    free(samples);
    if (!i) {
        fprintf(stderr, "ikc fit: %s\n", error);
        return IKC_EXIT_WRITE;
    }
    if (!o->json) printf("drew %s\n", o->plot);
    return IKC_EXIT_OK;
}

/* BVH: the fitted keys baked back at the take's frame rate; glTF: the
 * clip's keys replaced by the fitted CUBICSPLINE keys. */
static int write_fitted(const fit_options *o, ik_asset *asset, const fit_buffers *b, int clip_index) {
    ik_take rebaked = b->take;
    int code;
    if (asset->gltf) return ikc_write_clip("fit", asset, &b->clip, clip_index, b->clip.name, o->out, o->overwrite);
    rebaked.poses_ls =
        (ik_transform *)malloc((size_t)b->take.frame_count * (size_t)b->take.joint_count * sizeof *rebaked.poses_ls);
    if (!rebaked.poses_ls || ik_take_bake(&rebaked, &b->clip, asset->skeleton->rest_ls) != IK_OK) {
        fprintf(stderr, "ikc fit: cannot re-bake the fitted keys\n");
        free(rebaked.poses_ls);
        return IKC_EXIT_FAILURE;
    }
    code = ikc_write_take("fit", asset, &rebaked, clip_index, NULL, o->out, o->overwrite);
    free(rebaked.poses_ls);
    return code;
}

static int fit_asset(const fit_options *o, ik_asset *asset) {
    const ik_clip *source;
    fit_buffers b;
    ik_key_fit job = ik_key_fit_def();
    ik_key_fit_stats ours, greedy;
    ik_key_fit_size size;
    ik_real unit = metres_per_unit(o, asset), mm = (ik_real)1e3 * unit;
    char name_buf[32];
    const char *clip_name;
    int clip_index = o->clip_name ? ikc_asset_find_clip("fit", asset, o->clip_name) : 0, code = IKC_EXIT_FAILURE, i;
    double start, fit_s, greedy_s = 0;
    ik_result r;
    cJSON *json = o->json ? cJSON_CreateObject() : NULL;
    memset(&b, 0, sizeof b);
    if (clip_index < 0) return IKC_EXIT_NOT_FOUND;
    if (!(source = ik_asset_clip(asset, clip_index))) {
        fprintf(stderr, "ikc fit: %s has no motion to fit\n", ikc_shown(o->path));
        return IKC_EXIT_FORMAT;
    }
    clip_name = ikc_asset_clip_name(asset, clip_index, name_buf, sizeof name_buf);
    b.take.joint_count = asset->skeleton->joint_count;
    b.take.frame_time = asset->bvh ? (ik_real)asset->bvh->frame_time : 1 / o->fps;
    b.take.frame_count = ik_take_frame_count(source->duration, b.take.frame_time, MAX_FRAMES);
    if (b.take.frame_count < 2) {
        fprintf(stderr, "ikc fit: clip '%s' of %s is %s: nothing to fit\n", ikc_shown(clip_name), ikc_shown(o->path),
                b.take.frame_count == 1 ? "a single frame" : "not a usable length at this frame time");
        return IKC_EXIT_FORMAT;
    }
    for (i = 0; i < o->forced_count; ++i)
        if (o->forced[i] >= b.take.frame_count) {
            fprintf(stderr, "ikc fit: --force %d: the take has frames 0..%d\n", o->forced[i], b.take.frame_count - 1);
            return IKC_EXIT_USAGE;
        }
    /* the output's size depends on the take's values (scale channels) */
    b.take.poses_ls =
        (ik_transform *)malloc((size_t)b.take.frame_count * (size_t)b.take.joint_count * sizeof(ik_transform));
    if (!b.take.poses_ls) {
        fprintf(stderr, "ikc fit: out of memory\n");
        goto done;
    }
    if ((r = ik_take_bake(&b.take, source, asset->skeleton->rest_ls)) != IK_OK) {
        fprintf(stderr, "ikc fit: clip '%s' cannot be sampled: %s\n", ikc_shown(clip_name), ik_result_str(r));
        code = IKC_EXIT_FORMAT;
        goto done;
    }
    size = ik_key_fit_size_of(&b.take);
    job.scratch_bytes = ik_key_fit_scratch_size(b.take.frame_count, b.take.joint_count);
    if (o->compare) {
        size_t greedy_bytes = ik_key_decimate_scratch_size(b.take.frame_count, b.take.joint_count);
        if (greedy_bytes > job.scratch_bytes) job.scratch_bytes = greedy_bytes;
    }
    b.channels = (ik_channel *)malloc((size_t)size.channel_count * sizeof *b.channels);
    b.times = (ik_real *)malloc(size.time_count * sizeof *b.times);
    b.values = (ik_real *)malloc(size.value_count * sizeof *b.values);
    b.scratch = malloc(job.scratch_bytes);
    if (!b.channels || !b.times || !b.values || !b.scratch) {
        fprintf(stderr, "ikc fit: out of memory\n");
        goto done;
    }
    job.take = &b.take;
    job.skeleton = asset->skeleton;
    job.root_ms = &asset->root_ms;
    job.max_error = o->error_m / unit;
    job.point_offset = o->offset_m / unit;
    job.forced_frames = o->forced;
    job.forced_count = o->forced_count;
    job.sharing = o->sharing;
    job.clip_name = source->name;
    job.scratch = b.scratch;
    job.channels = b.channels, job.times = b.times, job.values = b.values, job.clip = &b.clip;
    job.stats = &ours;
    if (json) {
        cJSON_AddItemToObject(json, "file", ikc_json_text(o->path));
        cJSON_AddItemToObject(json, "clip", ikc_json_text(clip_name));
        cJSON_AddNumberToObject(json, "frames", b.take.frame_count);
        cJSON_AddNumberToObject(json, "fps", 1 / (double)b.take.frame_time);
        cJSON_AddNumberToObject(json, "joints", b.take.joint_count);
        cJSON_AddNumberToObject(json, "error_mm", (double)o->error_m * 1e3);
        cJSON_AddNumberToObject(json, "error_units", (double)job.max_error);
        cJSON_AddNumberToObject(json, "metres_per_unit", (double)unit);
        cJSON_AddItemToObject(json, "unit_from",
                              ikc_json_text(o->metres_per_unit > 0 ? "--unit"
                                            : asset->bvh           ? "the figure's size"
                                                                   : "glTF metres"));
    } else {
        printf("%s, clip '%s': %d frames at %.4g fps, %d joints; E = %.4g mm = %.4g model units (1 unit = %.4g m%s)\n",
               ikc_shown(o->path), ikc_shown(clip_name), b.take.frame_count, 1 / (double)b.take.frame_time,
               b.take.joint_count, (double)o->error_m * 1e3, (double)job.max_error, (double)unit,
               o->metres_per_unit > 0 ? ", --unit"
               : asset->bvh           ? ", guessed from the figure's size; --unit to set"
                                      : "");
    }
    start = ikc_now();
    r = ik_key_fit_run(&job);
    fit_s = ikc_now() - start;
    if (r != IK_OK) {
        int bad = -1;
        if (ik_take_validate(&b.take, &bad) != IK_OK)
            fprintf(stderr, "ikc fit: frame %d of clip '%s' is not a usable pose: %s\n", bad, ikc_shown(clip_name),
                    ik_result_str(ik_take_validate(&b.take, NULL)));
        else
            fprintf(stderr, "ikc fit: cannot fit: %s%s\n", ik_result_str(r),
                    r == IK_ERR_RANGE ? " (is E below what the numbers resolve?)" : "");
        goto done;
    }
    if (o->compare) {
        job.stats = &greedy;
        start = ikc_now();
        r = ik_key_decimate_run(&job);
        greedy_s = ikc_now() - start;
        if (r != IK_OK) {
            fprintf(stderr, "ikc fit: the comparison failed: %s\n", ik_result_str(r));
            goto done;
        }
    }
    if (json) {
        cJSON_AddItemToObject(
            json, "fitted",
            row_json(&ours, mm, fit_s,
                     ours.sharing == IK_KEY_SHARE_SKELETON ? "one set for the skeleton" : "per joint"));
        if (o->compare) cJSON_AddItemToObject(json, "greedy", row_json(&greedy, mm, greedy_s, "per curve"));
    } else {
        printf("%-18s %8s %9s %12s %9s %9s %10s\n", "method", "keys", "% frames", "curve keys", "max mm", "mean mm",
               "time");
        print_row(
            "fitted (ours)", &ours, mm, fit_s,
            ours.sharing == IK_KEY_SHARE_SKELETON ? "one set of key times for the skeleton" : "key times per joint");
        if (o->compare) print_row("greedy per curve", &greedy, mm, greedy_s, "keys: union of each channel's curves'");
    }
    if (o->plot && (code = write_plot(o, asset, &b)) != IKC_EXIT_OK) goto done;
    if ((code = write_fitted(o, asset, &b, clip_index)) == IKC_EXIT_OK && !json)
        printf("wrote %s (%s)\n", o->out,
               asset->gltf ? "CUBICSPLINE keys" : "the Hermite keys re-baked at the take's frame rate");
done:
    buffers_free(&b);
    if (json && cJSON_GetObjectItem(json, "fitted")) {
        cJSON_AddItemToObject(json, "output", ikc_json_text(o->out));
        cJSON_AddItemToObject(json, "plot", o->plot ? ikc_json_text(o->plot) : cJSON_CreateNull());
        ikc_json_print_result(json, code);
    } else {
        cJSON_Delete(json);
    }
    return code;
}

int ikc_fit(int argc, char **argv) {
    fit_options o;
    ik_asset asset;
    int code = parse_options(argc, argv, &o);
    if (code >= 0) return code;
    if ((code = ikc_asset_load("fit", o.path, &asset)) != IKC_EXIT_OK) return code;
    code = fit_asset(&o, &asset);
    ik_asset_free(&asset);
    return code;
}

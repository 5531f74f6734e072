/* End-to-end tests of `ikc contacts` and `ikc clean`: the cleaned CMU take
 * read back and measured against the input's contacts, the JSON and the
 * picture, and every kind of bad take (one frame, zero frame time, NaN
 * values, a foot never down, no foot ever down, upside down) refused with
 * a message and the output left as it was; in-place cycles (the real
 * clips and 131_01 with its travel taken out) reported, kept in place or
 * given their root motion back, the written file read back. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ikit/asset.h>
#include <ikit/skating.h>

#include "support/check.h"
#include "support/ground_check.h"
#include "support/ikc_run.h"
#include "support/motion_fixture.h"

/* A copy of BVH text `src` with at most `frames` frames, its frame time
 * line replaced by `frame_time` (NULL: kept), and `edit` applied to each
 * frame's values (the root's six channels first). */
typedef void (*frame_edit)(double *values, int count, int frame);
static int write_variant(const char *src, const char *dst, int frames, const char *frame_time, frame_edit edit) {
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    static char line[1 << 16];
    double values[512];
    int in_motion = 0, frame = 0;
    if (!in || !out) {
        if (in) fclose(in);
        if (out) fclose(out);
        return 0;
    }
    while (fgets(line, sizeof line, in)) {
        if (!in_motion) {
            if (strncmp(line, "Frames:", 7) == 0) {
                fprintf(out, "Frames: %d\n", frames);
            } else if (strncmp(line, "Frame Time:", 11) == 0) {
                fputs(frame_time ? frame_time : line, out);
                in_motion = 1;
            } else {
                fputs(line, out);
            }
            continue;
        }
        if (frame < frames) {
            char *p = line, *end;
            int n = 0, i;
            while (n < 512) {
                double v = strtod(p, &end);
                if (end == p) break;
                values[n++] = v, p = end;
            }
            if (edit) edit(values, n, frame);
            for (i = 0; i < n; ++i) fprintf(out, i ? " %.9g" : "%.9g", values[i]);
            fputc('\n', out);
        }
        ++frame;
    }
    fclose(in);
    fclose(out);
    return 1;
}

static void nan_value(double *v, int n, int frame) {
    if (frame == 17 && n > 10) v[10] = NAN;
}
static void upside_down(double *v, int n, int frame) {
    (void)frame;
    if (n > 3) v[3] += 180; /* the root's Zrotation */
}
static void spin(double *v, int n, int frame) {
    if (n > 4) v[4] += 6.0 * frame; /* Yrotation: two turns a second at 120 fps */
}
/* LeftHip's Xrotation (values 9..11 are LHipJoint, 12..14 LeftHip as Z Y X):
 * the thigh raised 90 degrees forward, the knee up, in every frame. */
static void left_knee_up(double *v, int n, int frame) {
    (void)frame;
    if (n > 14) v[14] -= 90;
}

static int exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

/* The cleaned take read back: skating measured by forward kinematics
 * against the contacts found in the input. */
static void test_clean_output(const char *data) {
    motion_fixture m, out;
    char args[2048], path[1024], clean_path[600];
    ik_mat4 identity = ik_mat4_identity(), *ref_ms;
    ik_skating_measure job = ik_skating_measure_def();
    ik_skating before, after;
    ik_real metre;
    if (!motion_fixture_read(&m, "131_02.bvh")) {
        check_skip("real-asset corpus not found");
        return;
    }
    motion_fixture_contacts(&m, &identity);
    metre = ik_foot_metre(m.leg_length);
    snprintf(path, sizeof path, "%s/bvh/131_02.bvh", data);
    snprintf(clean_path, sizeof clean_path, "%s/clean.bvh", work_dir);
    snprintf(args, sizeof args, "clean '%s' -o '%s'", path, clean_path);
    CHECK(run(args) == 0, "ikc clean: %s", err_text);
    CHECK(strstr(out_text, "% cut") && strstr(out_text, "frames/s"), "the before/after table: %s", out_text);
    /* read back: the same skeleton, the frames of the file */
    CHECK(motion_fixture_read_path(&out, clean_path), "the cleaned BVH reads back");
    if (!out.bvh) {
        motion_fixture_free(&m);
        return;
    }
    CHECK(out.take.frame_count == m.take.frame_count, "frames kept: %d", out.take.frame_count);
    ref_ms = (ik_mat4 *)malloc((size_t)m.take.joint_count * sizeof(ik_mat4));
    job.rig = &m.rig, job.take = &m.take, job.contacts = m.contacts, job.contact_count = m.contact_count;
    job.up_ms = m.up_ms, job.slide_speed = (ik_real)0.02 * metre, job.model_ms = m.model_ms, job.out = &before;
    CHECK(ik_skating_measure_run(&job) == IK_OK, "measure the input");
    job.take = &out.take, job.reference = &m.take, job.reference_ms = ref_ms, job.out = &after;
    CHECK(ik_skating_measure_run(&job) == IK_OK, "measure the output");
    CHECK(after.travel <= (ik_real)0.1 * before.travel, "skating cut by 90 %%: %g -> %g", (double)before.travel,
          (double)after.travel);
    CHECK(after.worst_travel <= (ik_real)0.005 * metre, "worst contact drifts %g mm in the written file",
          (double)(after.worst_travel / metre * 1000));
    CHECK(after.upper_change <= (ik_real)0.01 * metre && after.knee_snaps == 0, "outside the legs %g mm, snaps %d",
          (double)(after.upper_change / metre * 1000), after.knee_snaps);
    /* the contacts an outside reader finds on the written take, not those
     * held: whole stances held, none slides over 5 mm (31 mm on the input;
     * 11 mm after the clean-up before whole stances were held) */
    {
        ik_real slide_in = ground_worst_slide(&m.rig, &m.take, metre, m.model_ms);
        ik_real slide_out = ground_worst_slide(&out.rig, &out.take, metre, out.model_ms);
        CHECK(slide_in > (ik_real)0.02 * metre && slide_out <= (ik_real)0.005 * metre,
              "the take's own contacts slide %.1f mm before, %.1f mm after", (double)(slide_in / metre * 1000),
              (double)(slide_out / metre * 1000));
    }
    free(ref_ms);
    motion_fixture_free(&out);
    motion_fixture_free(&m);
}

static void test_contacts_json_and_picture(const char *data) {
    motion_fixture m;
    ik_mat4 identity = ik_mat4_identity();
    char args[2048], picture[600];
    cJSON *root, *points;
    struct stat st;
    if (!motion_fixture_read(&m, "131_01.bvh")) {
        check_skip("real-asset corpus not found");
        return;
    }
    motion_fixture_contacts(&m, &identity);
    snprintf(picture, sizeof picture, "%s/contacts.png", work_dir);
    snprintf(args, sizeof args, "contacts '%s/bvh/131_01.bvh' --json -o '%s'", data, picture);
    CHECK(run(args) == 0, "ikc contacts --json: %s", err_text);
    root = cJSON_Parse(out_text);
    points = cJSON_GetObjectItem(root, "points");
    CHECK(points != NULL, "JSON with points");
    if (points) {
        static const char *const keys[4] = {"left_heel", "left_toe", "right_heel", "right_toe"};
        int p, i, total = 0;
        for (p = 0; p < 4; ++p) {
            cJSON *o = cJSON_GetObjectItem(points, keys[p]);
            int expect = 0;
            for (i = 0; i < m.contact_count; ++i) expect += m.contacts[i].point == p;
            total += expect;
            CHECK(o && cJSON_GetObjectItem(o, "count")->valueint == expect &&
                      cJSON_GetArraySize(cJSON_GetObjectItem(o, "contacts")) == expect,
                  "%s: as many contacts as the library finds (%d)", keys[p], expect);
        }
        CHECK(total == m.contact_count, "every contact in the JSON");
    }
    cJSON_Delete(root);
    CHECK(stat(picture, &st) == 0 && st.st_size > 20000, "the picture was drawn");
    motion_fixture_free(&m);
}

/* Each bad take: the exit code, a message naming the problem, and the
 * output file (made beforehand) left as it was. */
static void expect_refusal(const char *take, int code, const char *message) {
    char args[2048], out[600], text[64];
    FILE *f;
    snprintf(out, sizeof out, "%s/kept.bvh", work_dir);
    f = fopen(out, "wb");
    if (f) {
        fputs("keep me", f);
        fclose(f);
    }
    snprintf(args, sizeof args, "clean '%s' -o '%s'", take, out);
    CHECK(run(args) == code, "%s: exit %d wanted: %s", take, code, err_text);
    CHECK(strstr(err_text, message) != NULL, "%s: message '%s' wanted in: %s", take, message, err_text);
    read_text(out, text, sizeof text);
    CHECK(strcmp(text, "keep me") == 0, "%s: the output is untouched", take);
}

/* A variant of `src` (write_variant's frames, frame time and edit) written
 * to `name` in the work directory, then refused by clean (expect_refusal,
 * exit 4) with `message`. */
static void refuse_variant(const char *src, const char *name, int frames, const char *frame_time, frame_edit edit,
                           const char *message) {
    char bad[600];
    snprintf(bad, sizeof bad, "%s/%s", work_dir, name);
    CHECK(write_variant(src, bad, frames, frame_time, edit), "%s written", name);
    expect_refusal(bad, 4, message);
}

static void test_bad_takes(const char *data) {
    char src[1024], bad[600];
    char args[2048];
    snprintf(src, sizeof src, "%s/bvh/131_01.bvh", data);
    if (!exists(src)) {
        check_skip("real-asset corpus not found");
        return;
    }
    refuse_variant(src, "one_frame.bvh", 1, NULL, NULL, "one frame");
    refuse_variant(src, "zero_time.bvh", 200, "Frame Time: 0\n", NULL, "frame time");
    refuse_variant(src, "nan.bvh", 200, NULL, nan_value, "nan.bvh");
    refuse_variant(src, "upside_down.bvh", 400, NULL, upside_down, "upside down");
    refuse_variant(src, "spin.bvh", 400, NULL, spin, "no foot is ever on the ground");
    /* one foot never down: a warning, and the other foot is cleaned */
    snprintf(bad, sizeof bad, "%s/knee_up.bvh", work_dir);
    CHECK(write_variant(src, bad, 994, NULL, left_knee_up), "knee_up.bvh written");
    snprintf(args, sizeof args, "clean '%s' -o '%s/knee_up_clean.bvh'", bad, work_dir);
    CHECK(run(args) == 0, "one foot in the air: %s", err_text);
    CHECK(strstr(err_text, "left heel") && strstr(err_text, "never on the ground"), "warned: %s", err_text);
    snprintf(args, sizeof args, "contacts '%s' --json", bad);
    CHECK(run(args) == 0 && strstr(out_text, "\"left_heel\""), "contacts of one foot in the air");
    CHECK(run("clean") == 2 && run("contacts") == 2, "no TAKE: usage");
    snprintf(args, sizeof args, "clean '%s'", src);
    CHECK(run(args) == 2 && strstr(err_text, "-o OUT is required"), "clean without -o");
    snprintf(args, sizeof args, "contacts '%s' --clip nope", src);
    CHECK(run(args) == 5, "unknown clip");
}

/* ---- in-place cycles ------------------------------------------------------------------------ */

#define MAX_LISTED 64

/* The in-place stances `ikc ARGS` (contacts --json) lists: joint, frames. */
typedef struct listed_stance {
    char joint[128];
    int start, end;
} listed_stance;

typedef struct listed_cycle {
    int in_place;
    double speed, speed_m_s;
    listed_stance stances[MAX_LISTED];
    int count;
} listed_cycle;

static int read_cycle(const char *args, listed_cycle *c) {
    static const char *const keys[4] = {"left_heel", "left_toe", "right_heel", "right_toe"};
    cJSON *root, *in_place, *points;
    int p, i;
    memset(c, 0, sizeof *c);
    if (run(args) != 0) return 0;
    root = cJSON_Parse(out_text);
    in_place = cJSON_GetObjectItem(root, "in_place");
    points = cJSON_GetObjectItem(root, "points");
    if (!in_place || !points) {
        cJSON_Delete(root);
        return 0;
    }
    c->in_place = cJSON_IsTrue(cJSON_GetObjectItem(in_place, "cycle"));
    c->speed = cJSON_GetObjectItem(in_place, "slide_speed")->valuedouble;
    c->speed_m_s = cJSON_GetObjectItem(in_place, "slide_speed_m_s")->valuedouble;
    for (p = 0; p < 4; ++p) {
        cJSON *o = cJSON_GetObjectItem(points, keys[p]), *list = cJSON_GetObjectItem(o, "contacts");
        cJSON *joint = cJSON_GetObjectItem(o, "joint");
        for (i = 0; i < cJSON_GetArraySize(list) && c->count < MAX_LISTED; ++i) {
            cJSON *e = cJSON_GetArrayItem(list, i);
            if (!cJSON_IsTrue(cJSON_GetObjectItem(e, "in_place")) || !cJSON_IsString(joint)) continue;
            snprintf(c->stances[c->count].joint, sizeof c->stances[0].joint, "%s", joint->valuestring);
            c->stances[c->count].start = cJSON_GetObjectItem(e, "start")->valueint;
            c->stances[c->count].end = cJSON_GetObjectItem(e, "end")->valueint;
            ++c->count;
        }
    }
    cJSON_Delete(root);
    return 1;
}

/* The file `ikc clean --root-motion` wrote, read back with the library
 * (clip `clip_name`, or the BVH's frames) and measured by forward
 * kinematics: each listed stance's joint stays within 5 mm of its mean over
 * the stance across up (its heel may rise with the take as it comes off
 * the floor: ik_footskate's follow_heel_lift), the hips' net travel over the take is the slide speed x its
 * duration (within 0.15 leg lengths), the thighs keep their rest lengths,
 * every joint finite. */
static void check_walked(const char *path, const char *clip_name, const listed_cycle *c, const char *what) {
    ik_asset asset;
    ik_humanoid_map map;
    ik_humanoid rig;
    ik_take take;
    ik_mat4 *model_ms;
    ik_vec3 *sum, hips0 = ik_vec3_zero(), up;
    const ik_clip *clip = NULL;
    ik_real leg, metre, worst_hold = 0, worst_thigh = 0, travel = 0, scale;
    int i, f, pass, finite = 1, hips, joints[MAX_LISTED];
    if (ik_asset_load(path, &asset, NULL) != IK_OK) {
        CHECK(0, "%s: %s reads back", what, path);
        return;
    }
    for (i = 0; i < ik_asset_clip_count(&asset); ++i)
        if (!clip_name || strcmp(ik_asset_clip(&asset, i)->name, clip_name) == 0) clip = ik_asset_clip(&asset, i);
    CHECK(clip && ik_humanoid_map_find(asset.skeleton, NULL, 0, &map) == IK_OK &&
              ik_humanoid_init(&rig, asset.skeleton, &map) == IK_OK,
          "%s: the clip and the humanoid read back", what);
    if (!clip) {
        ik_asset_free(&asset);
        return;
    }
    take.joint_count = asset.skeleton->joint_count;
    take.frame_time = asset.bvh ? (ik_real)asset.bvh->frame_time : (ik_real)1 / 60;
    take.frame_count =
        asset.bvh ? asset.bvh->frame_count : ik_take_frame_count(clip->duration, take.frame_time, 100000);
    take.poses_ls = (ik_transform *)malloc((size_t)take.frame_count * (size_t)take.joint_count * sizeof(ik_transform));
    model_ms = (ik_mat4 *)malloc((size_t)take.joint_count * sizeof(ik_mat4));
    sum = (ik_vec3 *)calloc(MAX_LISTED, sizeof(ik_vec3));
    CHECK(ik_take_bake(&take, clip, asset.skeleton->rest_ls) == IK_OK, "%s: baked", what);
    scale = ik_vec3_length(ik_mat4_column(&asset.root_ms, 1));
    leg = ik_foot_leg_length(&rig) * scale;
    metre = ik_foot_metre(leg);
    up = ik_vec3_normalize(ik_mat4_transform_vector(&asset.root_ms, rig.up_rs));
    hips = rig.map.joint[IK_ROLE_HIPS];
    for (i = 0; i < c->count; ++i) joints[i] = ik_skeleton_find(asset.skeleton, c->stances[i].joint);
    for (pass = 0; pass < 2; ++pass)
        for (f = 0; f < take.frame_count; ++f) {
            ik_skeleton_fk(asset.skeleton, ik_take_pose(&take, f), &asset.root_ms, model_ms);
            for (i = 0; i < c->count; ++i) {
                const listed_stance *st = &c->stances[i];
                ik_vec3 at;
                if (joints[i] < 0 || f < st->start || f > st->end) continue;
                at = ik_mat4_translation(&model_ms[joints[i]]);
                if (pass == 0)
                    sum[i] = ik_vec3_add(sum[i], ik_vec3_scale(at, (ik_real)1 / (ik_real)(st->end - st->start + 1)));
                else
                    worst_hold = ik_maxr(worst_hold, ik_vec3_length(ik_vec3_reject(ik_vec3_sub(at, sum[i]), up)));
            }
            if (pass == 1) continue;
            for (i = 0; i < take.joint_count; ++i) finite &= ik_vec3_finite(ik_mat4_translation(&model_ms[i]));
            for (i = IK_LIMB_LEG_L; i <= IK_LIMB_LEG_R; ++i)
                worst_thigh =
                    ik_maxr(worst_thigh,
                            (ik_real)fabs((double)(ik_vec3_distance(ik_mat4_translation(&model_ms[rig.limb[i].start]),
                                                                    ik_mat4_translation(&model_ms[rig.limb[i].mid])) -
                                                   rig.limb[i].upper_length * scale)));
            if (f == 0) hips0 = ik_mat4_translation(&model_ms[hips]);
            if (f == take.frame_count - 1) {
                ik_vec3 d = ik_vec3_sub(ik_mat4_translation(&model_ms[hips]), hips0);
                travel = ik_vec3_length(ik_vec3_sub(d, ik_vec3_scale(up, ik_vec3_dot(d, up))));
            }
        }
    {
        ik_real expected = (ik_real)c->speed * (ik_real)(take.frame_count - 1) * take.frame_time;
        printf(
            "%s: written file: %d stances hold within %.3f mm across up, hips travel %.3f (slide x time %.3f), thighs "
            "%.4f mm\n",
            what, c->count, (double)(worst_hold / metre * 1000), (double)travel, (double)expected,
            (double)(worst_thigh / metre * 1000));
        CHECK(finite, "%s: finite", what);
        CHECK(c->count >= 2 && worst_hold <= (ik_real)0.005 * metre, "%s: a stance foot moved %g mm", what,
              (double)(worst_hold / metre * 1000));
        CHECK((ik_real)fabs((double)(travel - expected)) <= (ik_real)0.15 * leg, "%s: hips travel %g, slide x time %g",
              what, (double)travel, (double)expected);
        CHECK(worst_thigh <= (ik_real)1e-4 * metre, "%s: a thigh changed length by %g mm", what,
              (double)(worst_thigh / metre * 1000));
    }
    free(sum);
    free(model_ms);
    free(take.poses_ls);
    ik_asset_free(&asset);
}

/* The real in-place clips: contacts says so (table and JSON), clean keeps
 * them in place by default and with --in-place (exit 0), and with
 * --root-motion writes a clip that walks and holds its feet. */
static void test_in_place_clips(const char *data) {
    static const char *const clips[3][2] = {
        {"girl.glb", "RunTrack"}, {"robot.glb", "Robot_Walking"}, {"robot.glb", "Robot_Running"}};
    char args[2048], src[1024], out[600];
    int c;
    snprintf(src, sizeof src, "%s/gltf/girl.glb", data);
    if (!exists(src)) {
        check_skip("real-asset corpus not found (gltf)");
        return;
    }
    path_in(out, sizeof out, "run_contacts.png");
    snprintf(args, sizeof args, "contacts '%s' --clip RunTrack -o '%s'", src, out);
    CHECK(run(args) == 0 && strstr(out_text, "in-place cycle") && strstr(out_text, "in place, slid") &&
              strstr(out_text, "m/s by the leg-length metre") && !strstr(err_text, "never on the ground"),
          "contacts on an in-place clip: %s %s", out_text, err_text);
    CHECK(file_size(out) > 20000, "the picture of an in-place clip was drawn");
    for (c = 0; c < 3; ++c) {
        listed_cycle cycle;
        char what[200];
        snprintf(src, sizeof src, "%s/gltf/%s", data, clips[c][0]);
        snprintf(what, sizeof what, "%s %s", clips[c][0], clips[c][1]);
        snprintf(args, sizeof args, "contacts '%s' --clip %s --json", src, clips[c][1]);
        CHECK(read_cycle(args, &cycle) && cycle.in_place && cycle.count >= 2, "%s: in place, %d stances listed", what,
              cycle.count);
        printf("%s: slide %.3f units/s, %.2f m/s\n", what, cycle.speed, cycle.speed_m_s);
        snprintf(out, sizeof out, "%s/kept_%d.glb", work_dir, c);
        snprintf(args, sizeof args, "clean '%s' --clip %s -o '%s'", src, clips[c][1], out);
        CHECK(run(args) == 0 && strstr(out_text, "kept in place") && strstr(out_text, "slid") && exists(out),
              "%s: clean keeps it in place: %s", what, err_text);
        snprintf(args, sizeof args, "clean '%s' --clip %s --in-place -o '%s' --overwrite", src, clips[c][1], out);
        CHECK(run(args) == 0 && strstr(out_text, "kept in place"), "%s: --in-place: %s", what, err_text);
        snprintf(out, sizeof out, "%s/walked_%d.glb", work_dir, c);
        snprintf(args, sizeof args, "clean '%s' --clip %s --root-motion --quiet -o '%s'", src, clips[c][1], out);
        CHECK(run(args) == 0 && strstr(out_text, "root motion put back") && strstr(out_text, "% cut"),
              "%s: --root-motion: %s", what, err_text);
        check_walked(out, clips[c][1], &cycle, what);
        /* the walking clip is no longer in place */
        snprintf(args, sizeof args, "contacts '%s' --clip %s --json", out, clips[c][1]);
        CHECK(read_cycle(args, &cycle) && !cycle.in_place, "%s: the written clip walks", what);
    }
}

/* 131_01 with its hips' travel (first frame to last, per frame) taken out
 * of the root's position channels: found in place at that speed (within 5
 * %), and --root-motion writes a BVH that walks and holds its stances. */
static double travel_x, travel_z;
static void take_travel_out(double *v, int n, int frame) {
    if (n > 2) v[0] -= travel_x * frame, v[2] -= travel_z * frame;
}

static int first_and_last_root(const char *path, double first[3], double last[3]) {
    FILE *f = fopen(path, "rb");
    static char line[1 << 16];
    int in_motion = 0, frames = 0;
    if (!f) return 0;
    while (fgets(line, sizeof line, f)) {
        if (!in_motion) {
            in_motion = strncmp(line, "Frame Time:", 11) == 0;
            continue;
        }
        if (sscanf(line, "%lf %lf %lf", &last[0], &last[1], &last[2]) != 3) continue;
        if (frames++ == 0) memcpy(first, last, 3 * sizeof(double));
    }
    fclose(f);
    return frames;
}

static void test_capture_made_in_place(const char *data) {
    char src[1024], in_place[600], walked[600], args[2048], text[64];
    double first[3] = {0, 0, 0}, last[3] = {0, 0, 0}, speed, metre;
    listed_cycle cycle;
    motion_fixture m;
    int frames;
    FILE *f;
    snprintf(src, sizeof src, "%s/bvh/131_01.bvh", data);
    if (!motion_fixture_read(&m, "131_01.bvh")) {
        check_skip("real-asset corpus not found");
        return;
    }
    metre = (double)ik_foot_metre(ik_foot_leg_length(&m.rig));
    frames = first_and_last_root(src, first, last);
    travel_x = (last[0] - first[0]) / (frames - 1);
    travel_z = (last[2] - first[2]) / (frames - 1);
    speed = sqrt(travel_x * travel_x + travel_z * travel_z) / (double)m.take.frame_time;
    snprintf(in_place, sizeof in_place, "%s/in_place.bvh", work_dir);
    CHECK(write_variant(src, in_place, frames, NULL, take_travel_out), "in_place.bvh written");
    snprintf(args, sizeof args, "contacts '%s' --json", in_place);
    CHECK(read_cycle(args, &cycle) && cycle.in_place, "131_01 made in place is found in place");
    printf("131_01 in place: travel taken out %.3f m/s, slide found %.3f m/s\n", speed / metre, cycle.speed_m_s);
    CHECK(fabs(cycle.speed - speed) <= 0.05 * speed, "slide %g units/s, travel taken out %g", cycle.speed, speed);
    snprintf(walked, sizeof walked, "%s/walked.bvh", work_dir);
    snprintf(args, sizeof args, "clean '%s' --root-motion --quiet -o '%s'", in_place, walked);
    CHECK(run(args) == 0, "--root-motion on a BVH: %s", err_text);
    check_walked(walked, NULL, &cycle, "131_01 made in place");
    /* as captured it walks: --root-motion is refused, the output untouched */
    snprintf(args, sizeof args, "contacts '%s' --json", src);
    CHECK(read_cycle(args, &cycle) && !cycle.in_place && cycle.count == 0, "131_01 as captured is not in place");
    f = fopen(walked, "wb");
    if (f) {
        fputs("keep me", f);
        fclose(f);
    }
    snprintf(args, sizeof args, "clean '%s' --root-motion -o '%s'", src, walked);
    CHECK(run(args) == 4 && strstr(err_text, "not one"), "--root-motion on a walk refused: %s", err_text);
    read_text(walked, text, sizeof text);
    CHECK(strcmp(text, "keep me") == 0, "the output is untouched");
    snprintf(args, sizeof args, "clean '%s' --root-motion --in-place -o '%s'", src, walked);
    CHECK(run(args) == 2 && strstr(err_text, "give one"), "both answers: usage: %s", err_text);
    motion_fixture_free(&m);
}

/* --fps: a glTF clip baked at another rate than the default 60 fps (the
 * Blender add-on's tests give ikc a 120 fps take's own rate): the written
 * clip has a key per frame at that rate; a rate that is not a number from
 * 1 to 10000 is a usage error, for clean and retarget alike. */
static int first_channel_keys(const char *path, int clip) {
    ik_asset asset;
    int keys = -1;
    if (ik_asset_load(path, &asset, NULL) != IK_OK) return -1;
    if (clip < ik_asset_clip_count(&asset) && ik_asset_clip(&asset, clip)->channel_count > 0)
        keys = ik_asset_clip(&asset, clip)->channels[0].key_count;
    ik_asset_free(&asset);
    return keys;
}

static void test_fps_option(const char *data) {
    static const char *const bad[] = {"0", "abc", "1e9", "nan", "12x"};
    char args[3072], src[1024], at60[600], at120[600];
    int i, keys60, keys120;
    snprintf(src, sizeof src, "%s/gltf/girl.glb", data);
    if (!exists(src)) {
        check_skip("real-asset corpus not found (gltf)");
        return;
    }
    path_in(at60, sizeof at60, "run_60.glb");
    path_in(at120, sizeof at120, "run_120.glb");
    snprintf(args, sizeof args, "clean '%s' --clip RunTrack --root-motion -o '%s'", src, at60);
    CHECK(run(args) == 0, "clean at the default rate: %s", err_text);
    snprintf(args, sizeof args, "clean '%s' --clip RunTrack --root-motion --fps 120 -o '%s'", src, at120);
    CHECK(run(args) == 0, "clean --fps 120: %s", err_text);
    keys60 = first_channel_keys(at60, 1), keys120 = first_channel_keys(at120, 1);
    /* RunTrack lasts 1 s: a key on each frame, both ends included */
    CHECK(keys60 == 61 && keys120 == 121, "keys of the 1 s clip: %d at 60 fps, %d at --fps 120", keys60, keys120);
    for (i = 0; i < (int)(sizeof bad / sizeof bad[0]); ++i) {
        snprintf(args, sizeof args, "clean '%s' --clip RunTrack --fps %s -o '%s'", src, bad[i], at120);
        CHECK(run(args) == 2 && strstr(err_text, "frames per second"), "clean --fps %s: usage: %s", bad[i], err_text);
        snprintf(args, sizeof args, "retarget '%s' '%s' --fps %s -o '%s'", src, src, bad[i], at120);
        CHECK(run(args) == 2 && strstr(err_text, "frames per second"), "retarget --fps %s: usage: %s", bad[i],
              err_text);
    }
    snprintf(args, sizeof args, "clean '%s' -o '%s' --fps", src, at120);
    CHECK(run(args) == 2, "clean --fps without a value: usage: %s", err_text);
}

int main(void) {
    const char *data = getenv("IKIT_DATA");
    if (!ikc_run_begin("ikc-motion")) return 1;
    if (!data) {
        check_skip("real-asset corpus not found (IKIT_DATA unset)");
    } else {
        test_clean_output(data);
        test_contacts_json_and_picture(data);
        test_bad_takes(data);
        test_in_place_clips(data);
        test_capture_made_in_place(data);
        test_fps_option(data);
    }
    ikc_run_end();
    return check_summary("test_ikc_motion");
}

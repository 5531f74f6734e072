/* End-to-end tests of `ikc contacts` and `ikc clean`: the cleaned CMU take
 * read back and measured against the input's contacts, the JSON and the
 * picture, and every kind of bad take (one frame, zero frame time, NaN
 * values, a foot never down, no foot ever down, upside down) refused with
 * a message and the output left as it was. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ikit/skating.h>

#include "support/check.h"
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

int main(void) {
    const char *data = getenv("IKIT_DATA");
    if (!ikc_run_begin("ikc-motion")) return 1;
    if (!data) {
        check_skip("real-asset corpus not found (IKIT_DATA unset)");
    } else {
        test_clean_output(data);
        test_contacts_json_and_picture(data);
        test_bad_takes(data);
    }
    ikc_run_end();
    return check_summary("test_ikc_motion");
}

/* End-to-end tests of the ikc tool: run the built binary (IKC_PATH, or the
 * IKC environment variable) on real assets and generated files, and check
 * its output with the library itself -- reload what it wrote, run forward
 * kinematics, count drawn pixels. */
#define _POSIX_C_SOURCE 200809L
#include <cairo.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ikit/bvh.h>
#include <ikit/clip.h>
#include <ikit/gltf.h>
#include <ikit/humanoid.h>
#include <ikit/skeleton.h>

#include "support/big_rig.h"
#include "support/check.h"

#ifndef IKC_PATH
#define IKC_PATH "ikc"
#endif

static const char *ikc_path;
static char work_dir[256];
static char out_text[1 << 20], err_text[1 << 16];

static void read_text(const char *path, char *buf, size_t size) {
    FILE *f = fopen(path, "rb");
    size_t n = 0;
    if (f) {
        n = fread(buf, 1, size - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
}

/* Run ikc with `args` (already shell-quoted); stdout and stderr are kept
 * in out_text and err_text. Returns the exit code, or -1. */
static const char *run_prefix = ""; /* e.g. "timeout 20 " for a run that must end */
static int run(const char *args) {
    char cmd[4096], out_path[300], err_path[300];
    int status;
    snprintf(out_path, sizeof out_path, "%s/stdout.txt", work_dir);
    snprintf(err_path, sizeof err_path, "%s/stderr.txt", work_dir);
    snprintf(cmd, sizeof cmd, "%s'%s' %s >'%s' 2>'%s' </dev/null", run_prefix, ikc_path, args, out_path, err_path);
    status = system(cmd);
    read_text(out_path, out_text, sizeof out_text);
    read_text(err_path, err_text, sizeof err_text);
    if (status == -1 || !WIFEXITED(status)) return -1;
    return WEXITSTATUS(status);
}

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static long file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static void path_in(char *buf, size_t size, const char *name) { snprintf(buf, size, "%s/%s", work_dir, name); }

/* The path of `file` in the real-asset corpus (IKIT_DATA); 0 after
 * check_skip when the corpus or the file is absent. */
static int real_asset(const char *file, char *path, size_t size) {
    const char *data = getenv("IKIT_DATA");
    char why[300];
    if (!data) {
        check_skip("real-asset corpus not found (IKIT_DATA unset)");
        return 0;
    }
    snprintf(path, size, "%s/%s", data, file);
    if (file_size(path) >= 0) return 1;
    snprintf(why, sizeof why, "real-asset corpus not found (%s)", file);
    check_skip(why);
    return 0;
}

static ik_vec3 json_vec3(const cJSON *a) {
    return ik_v3((ik_real)cJSON_GetArrayItem(a, 0)->valuedouble, (ik_real)cJSON_GetArrayItem(a, 1)->valuedouble,
                 (ik_real)cJSON_GetArrayItem(a, 2)->valuedouble);
}

/* A leg with a different rotation channel order at each joint. */
static const char leg_bvh[] =
    "HIERARCHY\n"
    "ROOT Hips\n{\n  OFFSET 0 1 0\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n"
    "  JOINT LeftUpLeg\n  {\n    OFFSET 0.1 -0.05 0\n    CHANNELS 3 Zrotation Yrotation Xrotation\n"
    "    JOINT LeftLeg\n    {\n      OFFSET 0 -0.45 0\n      CHANNELS 3 Xrotation Yrotation Zrotation\n"
    "      JOINT LeftFoot\n      {\n        OFFSET 0 -0.43 0\n        CHANNELS 3 Yrotation Xrotation Zrotation\n"
    "        End Site\n        {\n          OFFSET 0 -0.05 0.1\n        }\n      }\n    }\n  }\n}\n"
    "MOTION\nFrames: 2\nFrame Time: 0.5\n"
    "0 1 0 0 0 0 0 0 5 0 0 10 0 0 0\n"
    "0 1 0.2 0 10 0 0 0 -5 0 0 30 0 0 0\n";

/* scripts/lsan.supp may only name system libraries (issue 18, item 13): a
 * suppression that matched ikit's own code would hide its leaks. Each rule
 * is "leak:lib<name>.so" and no rule mentions ikit or ikc. */
static void test_lsan_suppressions(void) {
    char path[600], text[4096], *line;
    int rules = 0, bad = 0;
    snprintf(path, sizeof path, "%s/scripts/lsan.supp", IKIT_SOURCE_DIR);
    read_text(path, text, sizeof text);
    for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || line[0] == '\0') continue;
        ++rules;
        if (strncmp(line, "leak:lib", 8) != 0 || !strstr(line, ".so") || strstr(line, "ikit") || strstr(line, "ikc"))
            ++bad;
    }
    CHECK(rules > 0 && bad == 0, "scripts/lsan.supp: %d rules, %d not a system library's", rules, bad);
}

static void test_help_and_version(void) {
    CHECK(run("--help") == 0 && strstr(out_text, "exit codes") && strstr(out_text, "render"), "ikc --help");
    CHECK(run("--version") == 0 && strncmp(out_text, "ikc ", 4) == 0, "ikc --version: %s", out_text);
    CHECK(run("solve --help") == 0 && strstr(out_text, "examples") && strstr(out_text, "--pole"), "solve --help");
    CHECK(run("render --help") == 0 && strstr(out_text, "--frames"), "render --help");
    CHECK(run("info --help") == 0 && run("demo --help") == 0, "info/demo --help");
    CHECK(run("frobnicate") == 2 && strstr(err_text, "unknown command"), "unknown command: %s", err_text);
    CHECK(run("") == 2, "no command");
}

static void test_info_real_assets(void) {
    static const char *const files[] = {"gltf/SimpleSkin.gltf", "gltf/girl.glb", "gltf/male_base_mesh.glb",
                                        "gltf/rigged_figure.glb", "gltf/robot.glb", "bvh/01_01.bvh",
                                        "bvh/131_01.bvh", "bvh/131_02.bvh"};
    char args[1024], path[900];
    int i;
    for (i = 0; i < (int)(sizeof files / sizeof files[0]); ++i) {
        if (!real_asset(files[i], path, sizeof path)) continue;
        snprintf(args, sizeof args, "info '%s'", path);
        CHECK(run(args) == 0 && strstr(out_text, "joints:") && strstr(out_text, "clips:"), "info %s: %s", path,
              err_text);
        if (strstr(files[i], "131_01")) {
            CHECK(strstr(out_text, "leg       LeftHip > LeftKnee > LeftAnkle") != NULL, "131_01 leg chain found");
            CHECK(strstr(out_text, "994 frames") != NULL, "131_01 frame count");
        }
        if (strstr(files[i], "robot.glb"))
            CHECK(strstr(out_text, "Robot_Walking") && strstr(out_text, "0.958 s"), "robot clips with durations");
    }
}

static void test_info_generated(void) {
    char bvh[300], chain[300], args[700];
    path_in(bvh, sizeof bvh, "leg.bvh");
    path_in(chain, sizeof chain, "arm.chain");
    write_text(bvh, leg_bvh);
    write_text(chain, "chain arm\njoint shoulder type ball cone 90\njoint elbow length 0.3 direction 1 0 0 type hinge "
                      "axis 0 0 1 limit 0 150\njoint hand length 0.25 type fixed\ntarget cup joint hand position 0.3 0.2 0\n");
    snprintf(args, sizeof args, "info '%s'", bvh);
    CHECK(run(args) == 0, "info generated BVH: %s", err_text);
    CHECK(strstr(out_text, "LeftUpLeg > LeftLeg > LeftFoot") != NULL, "leg found by the name 'foot': %s", out_text);
    CHECK(strstr(out_text, "0.500 s") != NULL, "BVH clip duration (2 frames 0.5 s apart)");
    snprintf(args, sizeof args, "info '%s'", chain);
    CHECK(run(args) == 0 && strstr(out_text, "hinge") && strstr(out_text, "cup"), "info chain file: %s", out_text);
}

/* `ikc info` on a glTF chain 100,000 joints deep (issue 18, item 5): the
 * tree printer recursed once per level and overflowed the stack. */
static void test_info_deep_hierarchy(void) {
    char path[300], args[700];
    char *doc = big_rig_gltf(100000, 1);
    CHECK(doc != NULL, "generated document");
    if (!doc) return;
    path_in(path, sizeof path, "deep.gltf");
    write_text(path, doc);
    free(doc);
    snprintf(args, sizeof args, "info '%s'", path);
    CHECK(run(args) == 0, "info on a 100,000-deep hierarchy exits 0: %s", err_text);
    CHECK(strstr(out_text, "joints: 100000 (1 root)") != NULL, "and lists its joints: %.200s", out_text);
    remove(path);
}

static ik_real bone_length_ms(const ik_mat4 *model, int a, int b) {
    return ik_vec3_distance(ik_mat4_translation(&model[a]), ik_mat4_translation(&model[b]));
}

static void test_solve_bvh(void) {
    char bvh[300], out[300], args[1200];
    ik_bvh *before = NULL, *after = NULL;
    ik_transform pose[8];
    ik_mat4 model_before[8], model_after[8];
    ik_vec3 target = ik_v3(0.15f, 0.35f, 0.25f);
    cJSON *doc, *t0, *joints;
    int foot, j;
    path_in(bvh, sizeof bvh, "leg.bvh");
    path_in(out, sizeof out, "posed.bvh");
    snprintf(args, sizeof args, "solve '%s' --target LeftFoot=0.15,0.35,0.25 --pole LeftLeg=0.1,0.5,1 --json -o '%s'",
             bvh, out);
    CHECK(run(args) == 0, "solve BVH: %s", err_text);
    doc = cJSON_Parse(out_text);
    CHECK(doc != NULL, "solve --json prints JSON: %.200s", out_text);
    if (!doc) return;
    t0 = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "targets"), 0);
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(t0, "reached")), "reachable target reached");
    CHECK(cJSON_GetObjectItem(t0, "residual")->valuedouble < 1e-3, "residual small");
    CHECK(strcmp(cJSON_GetObjectItem(t0, "solver")->valuestring, "two-bone") == 0, "two-bone chosen for a leg");
    joints = cJSON_GetObjectItem(doc, "joints");
    CHECK(cJSON_GetArraySize(joints) == 5, "every joint listed (4 + End Site)");

    /* Reload what was written and check it with the library's FK. */
    CHECK(ik_bvh_read_file(bvh, &before, NULL) == IK_OK && ik_bvh_read_file(out, &after, NULL) == IK_OK,
          "input and output BVH load");
    if (before && after && after->skeleton.joint_count == 5 && after->frame_count == 1) {
        ik_skeleton_rest_pose(&before->skeleton, pose);
        ik_skeleton_fk(&before->skeleton, pose, NULL, model_before);
        ik_skeleton_rest_pose(&after->skeleton, pose);
        ik_clip_sample(&after->clip, 0, pose);
        ik_skeleton_fk(&after->skeleton, pose, NULL, model_after);
        foot = ik_skeleton_find(&after->skeleton, "LeftFoot");
        CHECK(ik_vec3_distance(ik_mat4_translation(&model_after[foot]), target) < 2e-3,
              "written BVH puts the foot on the target (%g away)",
              (double)ik_vec3_distance(ik_mat4_translation(&model_after[foot]), target));
        for (j = 1; j < 5; ++j)
            CHECK(IK_FABS(bone_length_ms(model_after, after->skeleton.parents[j], j) -
                          bone_length_ms(model_before, before->skeleton.parents[j], j)) < 1e-4,
                  "bone %d keeps its length", j);
        for (j = 0; j < 5; ++j) {
            ik_vec3 p = json_vec3(cJSON_GetObjectItem(cJSON_GetArrayItem(joints, j), "position"));
            CHECK(ik_vec3_distance(p, ik_mat4_translation(&model_after[j])) < 2e-3,
                  "--json position of joint %d matches the written file", j);
        }
    } else {
        CHECK(0, "written BVH has the input's joints and one frame");
    }
    ik_bvh_free(before);
    ik_bvh_free(after);
    before = NULL;
    cJSON_Delete(doc);

    /* Out of reach: a warning with the residual, exit 0, reached false. */
    snprintf(args, sizeof args, "solve '%s' --target LeftFoot=3,0,0 --json", bvh);
    CHECK(run(args) == 0 && strstr(err_text, "warning") && strstr(err_text, "out of reach"),
          "out of reach is a warning: %s", err_text);
    doc = cJSON_Parse(out_text);
    t0 = doc ? cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "targets"), 0) : NULL;
    CHECK(t0 && cJSON_IsFalse(cJSON_GetObjectItem(t0, "reached")) &&
              cJSON_GetObjectItem(t0, "residual")->valuedouble > 1.5,
          "unreached target reported with its residual");
    cJSON_Delete(doc);

    /* Iterative solvers on a longer chain, from a clip's pose: the foot on
     * the target and every bone its rest length, from the joints --json lists. */
    snprintf(args, sizeof args,
             "solve '%s' --clip motion --time 0.5 --target LeftFoot=0.25,0.3,0.2 --chain 4 --solver %%s --json", bvh);
    CHECK(ik_bvh_read_file(bvh, &before, NULL) == IK_OK && before->skeleton.joint_count == 5, "input BVH loads");
    if (before && before->skeleton.joint_count == 5) {
        static const char *const solvers[] = {"ccd", "fabrik", "dls", "sdls"};
        ik_vec3 target2 = ik_v3(0.25f, 0.3f, 0.2f), p[5];
        char cmd[1300];
        int s;
        for (s = 0; s < 4; ++s) {
            snprintf(cmd, sizeof cmd, args, solvers[s]);
            CHECK(run(cmd) == 0, "solver %s: %s", solvers[s], err_text);
            doc = cJSON_Parse(out_text);
            joints = doc ? cJSON_GetObjectItem(doc, "joints") : NULL;
            if (cJSON_GetArraySize(joints) != 5) {
                CHECK(0, "solver %s: --json lists the 5 joints: %.200s", solvers[s], out_text);
                cJSON_Delete(doc);
                continue;
            }
            for (j = 0; j < 5; ++j) p[j] = json_vec3(cJSON_GetObjectItem(cJSON_GetArrayItem(joints, j), "position"));
            CHECK(ik_vec3_distance(p[3], target2) < 2e-3, "solver %s puts the foot on the target (%g away)",
                  solvers[s], (double)ik_vec3_distance(p[3], target2));
            for (j = 1; j < 5; ++j)
                CHECK(IK_FABS(ik_vec3_distance(p[before->skeleton.parents[j]], p[j]) -
                              ik_vec3_length(before->skeleton.rest_ls[j].translation)) < 1e-4,
                      "solver %s: bone %d keeps its length", solvers[s], j);
            cJSON_Delete(doc);
        }
    }
    ik_bvh_free(before);
}

static void test_solve_gltf(void) {
    char path[900], out[300], args[1500], validator[600];
    ik_gltf *before = NULL, *after = NULL;
    const ik_gltf_skin *skin;
    ik_transform *pose;
    ik_mat4 *model, *model_after;
    int hip, knee, foot, n, rc;
    ik_vec3 target;
    if (!real_asset("gltf/girl.glb", path, sizeof path)) return;
    if (ik_gltf_read_file(path, &before, NULL) != IK_OK) {
        CHECK(0, "girl.glb loads");
        return;
    }
    skin = ik_gltf_skeleton(before, 0);
    n = skin->skeleton.joint_count;
    pose = (ik_transform *)malloc((size_t)n * sizeof *pose);
    model = (ik_mat4 *)malloc((size_t)n * sizeof *model);
    model_after = (ik_mat4 *)malloc((size_t)n * sizeof *model_after);
    hip = ik_skeleton_find(&skin->skeleton, "UpperLeg.L");
    knee = ik_skeleton_find(&skin->skeleton, "LowerLeg.L");
    foot = ik_skeleton_find(&skin->skeleton, "Foot.L");
    ik_skeleton_rest_pose(&skin->skeleton, pose);
    ik_skeleton_fk(&skin->skeleton, pose, &skin->root_ms, model);
    /* a quarter of the way from the foot to the hip, a little forward: reachable */
    target = ik_vec3_add(ik_vec3_lerp(ik_mat4_translation(&model[foot]), ik_mat4_translation(&model[hip]), 0.25f),
                         ik_v3(0, 0, 0.05f));
    path_in(out, sizeof out, "posed.glb");
    snprintf(args, sizeof args, "solve '%s' --target 'Foot.L=%.6f,%.6f,%.6f' -o '%s' --quiet", path, (double)target.x,
             (double)target.y, (double)target.z, out);
    CHECK(run(args) == 0, "solve glTF: %s", err_text);
    CHECK(ik_gltf_read_file(out, &after, NULL) == IK_OK, "written GLB loads back");
    if (after) {
        const ik_gltf_skin *s2 = ik_gltf_skeleton(after, 0);
        ik_skeleton_rest_pose(&s2->skeleton, pose);
        ik_skeleton_fk(&s2->skeleton, pose, &s2->root_ms, model_after);
        CHECK(ik_vec3_distance(ik_mat4_translation(&model_after[foot]), target) < 2e-3,
              "written glTF puts Foot.L on the target (%g away)",
              (double)ik_vec3_distance(ik_mat4_translation(&model_after[foot]), target));
        CHECK(IK_FABS(bone_length_ms(model_after, hip, knee) - bone_length_ms(model, hip, knee)) < 1e-4 &&
                  IK_FABS(bone_length_ms(model_after, knee, foot) - bone_length_ms(model, knee, foot)) < 1e-4,
              "glTF leg bones keep their lengths");
        ik_gltf_free(after);
    }
    snprintf(validator, sizeof validator, "%s/scripts/validate-gltf.sh", IKIT_SOURCE_DIR);
    if (file_size(validator) > 0) {
        char cmd[1000];
        snprintf(cmd, sizeof cmd, "'%s' '%s' >/dev/null 2>&1", validator, out);
        rc = system(cmd);
        rc = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
        if (rc == 2) check_skip("gltf-validator not installed (scripts/validate-gltf.sh --install)");
        else CHECK(rc == 0, "Khronos validator finds no errors in the solved glTF");
    } else {
        check_skip("scripts/validate-gltf.sh not found");
    }
    free(pose);
    free(model);
    free(model_after);
    ik_gltf_free(before);
}

/* Pixels that are neither the panel's white nor the page's grey. */
static long drawn_pixels(const char *png, int *width, int *height, long *bone_pixels) {
    cairo_surface_t *s = cairo_image_surface_create_from_png(png);
    long drawn = 0;
    int x, y, stride;
    const unsigned char *data;
    *width = *height = 0;
    *bone_pixels = 0;
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return -1;
    }
    *width = cairo_image_surface_get_width(s);
    *height = cairo_image_surface_get_height(s);
    stride = cairo_image_surface_get_stride(s);
    data = cairo_image_surface_get_data(s);
    for (y = 0; y < *height; ++y)
        for (x = 0; x < *width; ++x) {
            unsigned px = *(const unsigned *)(data + y * stride + x * 4);
            unsigned r = (px >> 16) & 255, g = (px >> 8) & 255, b = px & 255;
            if (r < 235 || g < 235 || b < 235) ++drawn;
            if (b > r + 40 || r > b + 60) ++*bone_pixels; /* the blue bones or the orange chains */
        }
    cairo_surface_destroy(s);
    return drawn;
}

static void test_render(void) {
    char bvh[300], chain[300], png[300], svg[300], pdf[300], args[1500], text[512];
    int w, h;
    long drawn, bone;
    path_in(bvh, sizeof bvh, "leg.bvh");
    path_in(chain, sizeof chain, "arm.chain");
    path_in(png, sizeof png, "leg.png");
    path_in(svg, sizeof svg, "leg.svg");
    path_in(pdf, sizeof pdf, "arm.pdf");
    snprintf(args, sizeof args, "render '%s' --view side --size 400x300 -o '%s'", bvh, png);
    CHECK(run(args) == 0, "render PNG: %s", err_text);
    drawn = drawn_pixels(png, &w, &h, &bone);
    CHECK(w == 400 && h == 300, "PNG has the asked size (%dx%d)", w, h);
    CHECK(drawn > 400 * 300 / 50 && bone > 150, "PNG is not blank: %ld drawn, %ld bone pixels", drawn, bone);
    snprintf(args, sizeof args, "render '%s' --clip motion --frames 0:1:0.5 -o '%s'", bvh, svg);
    CHECK(run(args) == 0, "render SVG filmstrip: %s", err_text);
    read_text(svg, text, sizeof text);
    CHECK(strstr(text, "<svg") != NULL && file_size(svg) > 2000, "SVG file written (%ld bytes)", file_size(svg));
    snprintf(args, sizeof args, "render '%s' -o '%s'", chain, pdf);
    CHECK(run(args) == 0, "render PDF: %s", err_text);
    read_text(pdf, text, sizeof text);
    CHECK(strncmp(text, "%PDF", 4) == 0, "PDF file written");
    CHECK(strchr(err_text, '\r') == NULL, "no progress bar when stderr is not a terminal");
}

/* A two-bone leg whose hips sit at (x, 1, 0), with `knee` and `foot` as
 * those joints' offsets (text), written to `path`. */
static void write_far_leg(const char *path, const char *x, const char *knee, const char *foot) {
    char text[1200];
    snprintf(text, sizeof text,
             "HIERARCHY\nROOT Hips\n{\n OFFSET %s 1 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation "
             "Xrotation\n JOINT LeftUpLeg\n {\n  OFFSET 0.1 -0.05 0\n  CHANNELS 3 Zrotation Yrotation Xrotation\n"
             "  JOINT LeftLeg\n  {\n   OFFSET %s\n   CHANNELS 3 Zrotation Yrotation Xrotation\n   JOINT LeftFoot\n"
             "   {\n    OFFSET %s\n    CHANNELS 3 Zrotation Yrotation Xrotation\n    End Site\n    {\n"
             "     OFFSET 0 -0.05 0.1\n    }\n   }\n  }\n }\n}\nMOTION\nFrames: 1\nFrame Time: 0.5\n"
             "%s 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
             x, knee, foot, x);
    write_text(path, text);
}

/* Far-away figures (issue 18, item 4): a leg at x = 5e6, 1e12 and 1e30
 * renders in every view and finishes (the ground's grid loop once added a
 * step that no longer moved a float at 5e6: it never ended), run under
 * `timeout 20`; at 5e6 the bones are visible. A leg whose offsets add up
 * past the largest float, or whose joints span more than it, is refused
 * with a message and exit code 4, nothing written. */
static void test_render_far(void) {
    static const char *const far[3] = {"5e6", "1e12", "1e30"};
    static const char *const views[3] = {"persp", "front", "top"};
    char bvh[300], png[300], args[1500];
    int f, v, w, h;
    long bone;
    path_in(bvh, sizeof bvh, "far.bvh");
    path_in(png, sizeof png, "far.png");
    run_prefix = "timeout 20 ";
    for (f = 0; f < 3; ++f)
        for (v = 0; v < 3; ++v) {
            write_far_leg(bvh, far[f], "0 -0.45 0", "0 -0.43 0");
            snprintf(args, sizeof args, "render '%s' --view %s --size 300x200 -o '%s'", bvh, views[v], png);
            CHECK(run(args) == 0, "render a leg at x = %s, %s view, ends: %s", far[f], views[v], err_text);
            CHECK(drawn_pixels(png, &w, &h, &bone) > 0 && w == 300 && h == 200 && (f > 0 || bone > 20),
                  "and draws it (%dx%d, %ld bone pixels)", w, h, bone);
            remove(png);
        }
#ifdef IKIT_DOUBLE
    write_far_leg(bvh, "0", "1.7e308 0 0", "1.7e308 0 0");
#else
    write_far_leg(bvh, "0", "3e38 0 0", "3e38 0 0");
#endif
    snprintf(args, sizeof args, "render '%s' -o '%s'", bvh, png);
    CHECK(run(args) == 4 && strstr(err_text, "non-finite position") && file_size(png) < 0,
          "an overflowing rest pose is refused: %s", err_text);
    run_prefix = "";
}

static void test_errors(void) {
    char bvh[300], bad[300], args[1200];
    path_in(bvh, sizeof bvh, "leg.bvh");
    path_in(bad, sizeof bad, "bad.bvh");
    write_text(bad, "HIERARCHY\nROOT a\n{\n  OFFSET 0 0 x\n}\n");
    CHECK(run("info /nonexistent/file.glb") == 3 && strstr(err_text, "cannot open"), "missing file: %s", err_text);
    snprintf(args, sizeof args, "info '%s'", bad);
    CHECK(run(args) == 4 && strstr(err_text, "line 4"), "malformed file names its place: %s", err_text);
    snprintf(args, sizeof args, "solve '%s' --target LeftFot=0,0,0 --json", bvh);
    CHECK(run(args) == 5 && strstr(err_text, "did you mean") && strstr(err_text, "LeftFoot"),
          "unknown joint suggests the closest: %s", err_text);
    snprintf(args, sizeof args, "solve '%s' --target LeftFoot=0,zero,0 --json", bvh);
    CHECK(run(args) == 2 && strstr(err_text, "bad numbers"), "bad number: %s", err_text);
    snprintf(args, sizeof args, "solve '%s' --target LeftFoot=0,nan,0 --json", bvh);
    CHECK(run(args) == 2, "NaN refused: %s", err_text);
    snprintf(args, sizeof args, "solve '%s' --target LeftFoot=0,0,0 --clip walk --json", bvh);
    CHECK(run(args) == 5 && strstr(err_text, "no clip"), "unknown clip: %s", err_text);
    snprintf(args, sizeof args, "render '%s' --frobnicate -o x.png", bvh);
    CHECK(run(args) == 2 && strstr(err_text, "unknown option"), "unknown option: %s", err_text);
    snprintf(args, sizeof args, "render '%s' --frames 2:1:0.5 --clip motion -o x.png", bvh);
    CHECK(run(args) == 2, "bad --frames: %s", err_text);
    snprintf(args, sizeof args, "render '%s' -o '%s/no/such/dir/x.png'", bvh, work_dir);
    CHECK(run(args) == 6, "unwritable output: %s", err_text);
}

static void test_demo(void) {
    static const char *const files[] = {"humanoid.png", "humanoid.svg", "humanoid_limits.png", "leg_two_bone.png",
                                        "leg_two_bone.svg", "head_look_at.png", "head_look_at.svg", "tail_springs.png",
                                        "tail_springs.svg", "arms_fabrik_ccd.png", "arms_fabrik_ccd.svg", "scene.gltf",
                                        "humanoid_uneven_ground.png", "humanoid_uneven_ground.svg",
                                        "humanoid_stairs_up.png", "humanoid_stairs_up.svg", "humanoid_stairs_across.png",
                                        "humanoid_stairs_across.svg", "humanoid_staff.png", "humanoid_staff.svg",
                                        "humanoid_look_at.png", "humanoid_look_at.svg"};
    char dir[300], args[400], path[400];
    ik_gltf *scene = NULL;
    int i, w, h;
    long bone;
    path_in(dir, sizeof dir, "demo");
    snprintf(args, sizeof args, "demo -o '%s'", dir);
    CHECK(run(args) == 0, "demo exits 0: %s", err_text);
    CHECK(strstr(out_text, "Scene 1") && strstr(out_text, "us/solve") && strstr(out_text, "Scene 4") &&
              strstr(out_text, "Scene 5") && strstr(out_text, "Scene 8"),
          "demo prints its tables");
    /* every humanoid row reached: feet on the ground, hands on the staff, head on the point */
    {
        const char *row = strstr(out_text, "Scene 5");
        int rows = 0, missed = 0;
        while (row && (row = strstr(row, ")  ")) != NULL) {
            row += 3;
            if (strncmp(row, "yes ", 4) != 0 && strncmp(row, "no ", 3) != 0) continue; /* a table header */
            ++rows;
            missed += row[0] != 'y';
        }
        CHECK(rows >= 22 && missed == 0, "humanoid scenes: %d rows, %d not reached", rows, missed);
    }
    for (i = 0; i < (int)(sizeof files / sizeof files[0]); ++i) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        CHECK(file_size(path) > 1000, "demo wrote %s", files[i]);
    }
    snprintf(path, sizeof path, "%s/leg_two_bone.png", dir);
    CHECK(drawn_pixels(path, &w, &h, &bone) > 10000 && bone > 1000, "leg picture has a skeleton in it");
    snprintf(path, sizeof path, "%s/humanoid_staff.png", dir);
    CHECK(drawn_pixels(path, &w, &h, &bone) > 10000 && bone > 1000, "staff picture has figures in it");
    snprintf(path, sizeof path, "%s/scene.gltf", dir);
    CHECK(ik_gltf_read_file(path, &scene, NULL) == IK_OK && ik_gltf_skin_count(scene) == 6,
          "demo glTF loads with the humanoid, the tail and the four humanoid scenes");
    ik_gltf_free(scene);
}

/* ---- humanoid targets by role ---------------------------------------------- */

/* A character file as the library reads it (the first skin for glTF, the
 * rest pose or frame 0 for BVH), with its humanoid rig. */
typedef struct character {
    ik_gltf *gltf;
    ik_bvh *bvh;
    const ik_skeleton *skeleton;
    ik_mat4 root_ms;
    ik_humanoid_map map;
    ik_humanoid rig;
    ik_transform *pose;
    ik_mat4 *model;
    ik_vec3 up, forward; /* the body's axes in model space */
} character;

static void character_free(character *c) {
    free(c->pose);
    free(c->model);
    ik_gltf_free(c->gltf);
    ik_bvh_free(c->bvh);
    memset(c, 0, sizeof *c);
}

/* Load `path`; `use_frame` samples a BVH's first frame (a file ikc wrote)
 * instead of its rest pose. 0 when it does not load or has no humanoid. */
static int character_load(character *c, const char *path, int use_frame) {
    memset(c, 0, sizeof *c);
    if (strstr(path, ".bvh")) {
        if (ik_bvh_read_file(path, &c->bvh, NULL) != IK_OK) return 0;
        c->skeleton = &c->bvh->skeleton;
        c->root_ms = ik_mat4_identity();
    } else {
        if (ik_gltf_read_file(path, &c->gltf, NULL) != IK_OK) return 0;
        c->skeleton = &ik_gltf_skeleton(c->gltf, 0)->skeleton;
        c->root_ms = ik_gltf_skeleton(c->gltf, 0)->root_ms;
    }
    c->pose = (ik_transform *)malloc((size_t)c->skeleton->joint_count * sizeof *c->pose);
    c->model = (ik_mat4 *)malloc((size_t)c->skeleton->joint_count * sizeof *c->model);
    if (!c->pose || !c->model) return 0;
    ik_skeleton_rest_pose(c->skeleton, c->pose);
    if (use_frame && c->bvh) ik_clip_sample(&c->bvh->clip, 0, c->pose);
    ik_skeleton_fk(c->skeleton, c->pose, &c->root_ms, c->model);
    if (ik_humanoid_map_find(c->skeleton, NULL, 0, &c->map) != IK_OK ||
        ik_humanoid_init(&c->rig, c->skeleton, &c->map) != IK_OK)
        return 0;
    c->up = ik_vec3_normalize(ik_mat4_transform_vector(&c->root_ms, c->rig.up_rs));
    c->forward = ik_vec3_normalize(ik_mat4_transform_vector(&c->root_ms, c->rig.forward_rs));
    return 1;
}

static ik_vec3 joint_ms(const character *c, int joint) { return ik_mat4_translation(&c->model[joint]); }

static ik_real limb_length_ms(const character *c, int limb) {
    const ik_humanoid_limb *l = &c->rig.limb[limb];
    ik_vec3 end = l->end >= 0 ? joint_ms(c, l->end) : ik_mat4_transform_point(&c->model[l->mid], l->end_offset_ls);
    return ik_vec3_distance(joint_ms(c, l->start), joint_ms(c, l->mid)) + ik_vec3_distance(joint_ms(c, l->mid), end);
}

/* --left-hand on real rigs: the written file, reloaded, has the hand on
 * the target, and the bones keep their lengths. */
static void test_solve_left_hand(void) {
    static const char *const files[] = {"gltf/robot.glb", "gltf/male_base_mesh.glb", "bvh/131_01.bvh"};
    int i;
    for (i = 0; i < (int)(sizeof files / sizeof files[0]); ++i) {
        character before, after;
        char path[900], out[300], args[2000];
        const ik_humanoid_limb *arm;
        ik_real reach;
        ik_vec3 shoulder, target;
        cJSON *doc, *goal;
        int hand, j;
        if (!real_asset(files[i], path, sizeof path)) continue;
        if (!character_load(&before, path, 0)) {
            CHECK(0, "%s: the library finds its humanoid", files[i]);
            character_free(&before);
            continue;
        }
        arm = &before.rig.limb[IK_LIMB_ARM_L];
        reach = limb_length_ms(&before, IK_LIMB_ARM_L);
        shoulder = joint_ms(&before, arm->start);
        /* ahead of the shoulder and a little down, well inside the reach */
        target = ik_vec3_mad(shoulder, ik_vec3_normalize(ik_vec3_mad(before.forward, before.up, -0.5f)), 0.6f * reach);
        snprintf(out, sizeof out, "%s/hand%d.%s", work_dir, i, strstr(files[i], ".bvh") ? "bvh" : "glb");
        snprintf(args, sizeof args, "solve '%s' --left-hand %.6f,%.6f,%.6f --json -o '%s'", path, (double)target.x,
                 (double)target.y, (double)target.z, out);
        CHECK(run(args) == 0, "%s: solve --left-hand: %s", files[i], err_text);
        doc = cJSON_Parse(out_text);
        goal = doc ? cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "humanoid"), "goals"), 0) : NULL;
        CHECK(goal && cJSON_IsTrue(cJSON_GetObjectItem(goal, "reached")) &&
                  strcmp(cJSON_GetObjectItem(goal, "role")->valuestring, "left_hand") == 0,
              "%s: --json reports the left hand reached: %.300s", files[i], out_text);
        cJSON_Delete(doc);
        if (!character_load(&after, out, 1)) {
            CHECK(0, "%s: the written file loads back as a humanoid", files[i]);
        } else {
            hand = ik_skeleton_find(after.skeleton, ik_skeleton_name(before.skeleton, arm->end));
            CHECK(hand >= 0 && ik_vec3_distance(joint_ms(&after, hand), target) <= 2e-3f * reach,
                  "%s: the reloaded hand is on the target (%g away, arm %g)", files[i],
                  hand >= 0 ? (double)ik_vec3_distance(joint_ms(&after, hand), target) : -1.0, (double)reach);
            for (j = 0; j < before.skeleton->joint_count && j < after.skeleton->joint_count; ++j) {
                int parent = before.skeleton->parents[j];
                if (parent < 0) continue;
                if (IK_FABS(bone_length_ms(after.model, parent, j) - bone_length_ms(before.model, parent, j)) >
                    1e-3f * reach) {
                    CHECK(0, "%s: bone %s changed its length", files[i], ik_skeleton_name(before.skeleton, j));
                    break;
                }
            }
        }
        character_free(&before);
        character_free(&after);
    }
}

/* Signed height of p above the plane (point, unit normal). */
static ik_real above_plane(ik_vec3 p, ik_vec3 point, ik_vec3 normal) { return ik_vec3_dot(ik_vec3_sub(p, point), normal); }

/* --slope 10: the plane is tilted 10 degrees from the body's up, and in the
 * reloaded file each foot's sole touches it: the heel and the ball on the
 * plane within 1e-3 of the leg length, or, with the heel lifted, the ball on
 * it and the heel above it. */
static void test_solve_slope(void) {
    static const char *const files[] = {"gltf/robot.glb", "gltf/male_base_mesh.glb", "gltf/rigged_figure.glb",
                                        "gltf/girl.glb",  "bvh/131_01.bvh",         "bvh/01_01.bvh"};
    int i;
    for (i = 0; i < (int)(sizeof files / sizeof files[0]); ++i) {
        character before, after;
        char path[900], out[300], args[2000];
        cJSON *doc, *h, *ground, *feet;
        ik_vec3 point, normal;
        int side;
        if (!real_asset(files[i], path, sizeof path)) continue;
        if (!character_load(&before, path, 0)) {
            CHECK(0, "%s: the library finds its humanoid", files[i]);
            character_free(&before);
            continue;
        }
        snprintf(out, sizeof out, "%s/slope%d.%s", work_dir, i, strstr(files[i], ".bvh") ? "bvh" : "glb");
        snprintf(args, sizeof args, "solve '%s' --slope 10 --json -o '%s'", path, out);
        CHECK(run(args) == 0, "%s: solve --slope 10: %s", files[i], err_text);
        doc = cJSON_Parse(out_text);
        h = doc ? cJSON_GetObjectItem(doc, "humanoid") : NULL;
        ground = h ? cJSON_GetObjectItem(h, "ground") : NULL;
        feet = h ? cJSON_GetObjectItem(h, "feet") : NULL;
        if (!ground || !cJSON_GetObjectItem(ground, "normal") || cJSON_GetArraySize(feet) != 2) {
            CHECK(0, "%s: --json describes the ground and both feet: %.300s", files[i], out_text);
            cJSON_Delete(doc);
            character_free(&before);
            continue;
        }
        point = json_vec3(cJSON_GetObjectItem(ground, "point"));
        normal = ik_vec3_normalize(json_vec3(cJSON_GetObjectItem(ground, "normal")));
        CHECK(IK_FABS(ik_deg(ik_acos_safe(ik_vec3_dot(normal, before.up))) - 10) < 0.01f,
              "%s: the slope is 10 degrees (%g)", files[i], (double)ik_deg(ik_acos_safe(ik_vec3_dot(normal, before.up))));
        if (character_load(&after, out, 1)) {
            for (side = 0; side < 2; ++side) {
                /* the sole from the input's rig (the written file's rest pose is the solved one) */
                const ik_humanoid_limb *leg = &before.rig.limb[IK_LIMB_LEG_L + side];
                cJSON *foot = cJSON_GetArrayItem(feet, side);
                ik_real tol = 1e-3f * limb_length_ms(&before, IK_LIMB_LEG_L + side);
                int lifted = cJSON_IsTrue(cJSON_GetObjectItem(foot, "heel_lifted"));
                ik_real heel, ball;
                CHECK(cJSON_IsTrue(cJSON_GetObjectItem(foot, "grounded")), "%s foot %d: grounded", files[i], side);
                if (leg->end >= 0) {
                    heel = above_plane(ik_mat4_transform_point(&after.model[leg->end], leg->heel_ls), point, normal);
                    ball = above_plane(ik_mat4_transform_point(&after.model[leg->end], leg->ball_ls), point, normal);
                } else {
                    /* a virtual ankle stands ankle_height (root-space units) above its heel */
                    ik_vec3 ankle = ik_mat4_transform_point(&after.model[leg->mid], leg->end_offset_ls);
                    ik_real scale = (ik_real)cbrt(fabs((double)ik_mat4_det3(&after.root_ms)));
                    heel = above_plane(ik_vec3_mad(ankle, before.up, -leg->ankle_height * scale), point, normal);
                    ball = heel;
                }
                CHECK(IK_FABS(ball) <= tol || (!lifted && IK_FABS(heel) <= tol),
                      "%s foot %d: on the slope (heel %g, ball %g above it, tolerance %g)", files[i], side,
                      (double)heel, (double)ball, (double)tol);
                CHECK(heel >= -tol && ball >= -tol, "%s foot %d: not under the slope (heel %g, ball %g)", files[i],
                      side, (double)heel, (double)ball);
                if (!lifted)
                    CHECK(IK_FABS(heel) <= tol, "%s foot %d: heel down is on the slope (%g)", files[i], side,
                          (double)heel);
            }
        } else {
            CHECK(0, "%s: the written file loads back", files[i]);
        }
        cJSON_Delete(doc);
        character_free(&before);
        character_free(&after);
    }
}

/* Stairs and a height field on the girl; the ground points reported are
 * on the surface asked for. */
static void test_solve_ground_files(void) {
    char path[900], field[300], png[300], args[2000];
    cJSON *doc, *feet;
    character girl;
    ik_real floor;
    int side, w, h;
    long bone;
    if (!real_asset("gltf/girl.glb", path, sizeof path)) return;
    if (!character_load(&girl, path, 0)) {
        character_free(&girl);
        CHECK(0, "girl.glb loads with its humanoid");
        return;
    }
    /* the rest floor: the height of the legs' lowest rest point */
    floor = ik_mat4_transform_point(&girl.root_ms, ik_vec3_scale(girl.rig.up_rs, girl.rig.floor_rs)).y;
    character_free(&girl);
    path_in(field, sizeof field, "bumps.txt");
    path_in(png, sizeof png, "bumps.png");
    write_text(field, "# a flat field 0.05 above the floor, one row a little higher\n"
                      "cell 0.1\nsize 5 3   # x, z\nheights\n"
                      "0.05 0.05 0.05 0.05 0.05\n0.05 0.05 0.05 0.05 0.05\n0.05 0.05 0.05 0.05 0.05\n");
    snprintf(args, sizeof args, "solve '%s' --feet-on-ground '%s' --json --render '%s'", path, field, png);
    CHECK(run(args) == 0, "height field: %s", err_text);
    doc = cJSON_Parse(out_text);
    feet = doc ? cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "humanoid"), "feet") : NULL;
    for (side = 0; side < 2 && feet; ++side) {
        cJSON *foot = cJSON_GetArrayItem(feet, side);
        CHECK(cJSON_IsTrue(cJSON_GetObjectItem(foot, "grounded")) &&
                  IK_FABS(json_vec3(cJSON_GetObjectItem(foot, "ground_point")).y - floor - 0.05f) < 1e-3f &&
                  cJSON_IsTrue(cJSON_GetObjectItem(foot, "reached")),
              "foot %d stands on the height field: %.400s", side, out_text);
    }
    CHECK(feet != NULL, "--json lists the feet");
    cJSON_Delete(doc);
    CHECK(drawn_pixels(png, &w, &h, &bone) > 20000 && bone > 500, "--render draws the ground and the figure");

    snprintf(args, sizeof args, "solve '%s' --stairs 0.08,0.3 --json", path);
    CHECK(run(args) == 0, "stairs: %s", err_text);
    doc = cJSON_Parse(out_text);
    feet = doc ? cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "humanoid"), "feet") : NULL;
    if (feet) {
        ik_real left = json_vec3(cJSON_GetObjectItem(cJSON_GetArrayItem(feet, 0), "ground_point")).y;
        ik_real right = json_vec3(cJSON_GetObjectItem(cJSON_GetArrayItem(feet, 1), "ground_point")).y;
        CHECK(IK_FABS(left - floor - 0.08f) < 1e-3f && IK_FABS(right - floor) < 1e-3f,
              "stairs climbing to the left: left foot one step up (%g), right on the floor (%g)", (double)left,
              (double)right);
    } else {
        CHECK(0, "--json lists the feet on the stairs: %.300s", out_text);
    }
    cJSON_Delete(doc);
}

/* The elevation of the unit d above the plane across the unit up, radians. */
static ik_real elevation_of(ik_vec3 d, ik_vec3 up) {
    return IK_ATAN2(ik_vec3_dot(d, up), ik_vec3_length(ik_vec3_reject(d, up)));
}

/* --look-at on real rigs, targets in front, to a side, behind (at eye
 * height and above), above and below: the reloaded file's head forward is
 * measured against the direction to the target; --json's residual_degrees
 * is that angle, reached is true iff it is within the tolerance (the
 * default 1 degree, and --look-tolerance 30 once), a miss is a warning on
 * stderr with its residual, and a target behind at eye height leaves the
 * head level (no arching back) while it turns to the target's side. */
static void test_solve_look_at(void) {
    static const char *const files[] = {"gltf/robot.glb", "gltf/male_base_mesh.glb", "gltf/rigged_figure.glb",
                                        "gltf/girl.glb",  "bvh/131_01.bvh",         "bvh/01_01.bvh"};
    static const struct {
        ik_real azimuth, elevation, tolerance; /* degrees from forward toward left, above level; 0: default */
    } looks[] = {{0, 0, 0}, {30, 20, 0}, {-100, 0, 0}, {180, 0, 0}, {150, 0, 0}, {-160, 40, 0}, {0, 85, 0},
                 {0, -60, 0}, {95, 0, 30}};
    int i, k;
    for (i = 0; i < (int)(sizeof files / sizeof files[0]); ++i) {
        character before, after;
        char path[900], out[300], args[2000], tolerance[40];
        int head;
        ik_vec3 eye, left;
        ik_real dist;
        if (!real_asset(files[i], path, sizeof path)) continue;
        if (!character_load(&before, path, 0)) {
            CHECK(0, "%s: the library finds its humanoid", files[i]);
            character_free(&before);
            continue;
        }
        head = before.rig.map.joint[IK_ROLE_HEAD];
        eye = joint_ms(&before, head);
        left = ik_vec3_normalize(ik_mat4_transform_vector(&before.root_ms, before.rig.left_rs));
        dist = 2 * limb_length_ms(&before, IK_LIMB_LEG_L);
        for (k = 0; k < (int)(sizeof looks / sizeof looks[0]); ++k) {
            ik_real a = ik_rad(looks[k].azimuth), e = ik_rad(looks[k].elevation), tol = looks[k].tolerance;
            ik_vec3 dir = ik_vec3_add(ik_vec3_scale(ik_vec3_add(ik_vec3_scale(before.forward, IK_COS(a)),
                                                                ik_vec3_scale(left, IK_SIN(a))),
                                                    IK_COS(e)),
                                      ik_vec3_scale(before.up, IK_SIN(e)));
            ik_vec3 target = ik_vec3_mad(eye, dir, dist), gaze, to;
            cJSON *doc, *look;
            ik_real residual, reported;
            int reached, solved_head;
            snprintf(out, sizeof out, "%s/look%d_%d.%s", work_dir, i, k,
                     strstr(files[i], ".bvh") ? "bvh" : "glb");
            if (tol > 0) snprintf(tolerance, sizeof tolerance, " --look-tolerance %g", (double)tol);
            else tolerance[0] = '\0';
            snprintf(args, sizeof args, "solve '%s' --look-at %.6f,%.6f,%.6f%s --json -o '%s'", path,
                     (double)target.x, (double)target.y, (double)target.z, tolerance, out);
            CHECK(run(args) == 0, "%s look %d: solve --look-at: %s", files[i], k, err_text);
            doc = cJSON_Parse(out_text);
            look = doc ? cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "humanoid"), "look_at") : NULL;
            if (!look || !cJSON_GetObjectItem(look, "residual_degrees")) {
                CHECK(0, "%s look %d: --json reports the look: %.300s", files[i], k, out_text);
                cJSON_Delete(doc);
                continue;
            }
            reported = (ik_real)cJSON_GetObjectItem(look, "residual_degrees")->valuedouble;
            reached = cJSON_IsTrue(cJSON_GetObjectItem(look, "reached"));
            cJSON_Delete(doc);
            if (!character_load(&after, out, 1)) {
                CHECK(0, "%s look %d: the written file loads back", files[i], k);
                character_free(&after);
                continue;
            }
            solved_head = ik_skeleton_find(after.skeleton, ik_skeleton_name(before.skeleton, head));
            gaze = ik_vec3_normalize(
                ik_mat4_transform_vector(&after.model[solved_head], before.rig.head_forward_ls));
            to = ik_vec3_normalize(ik_vec3_sub(target, joint_ms(&after, solved_head)));
            residual = ik_deg(IK_ATAN2(ik_vec3_length(ik_vec3_cross(gaze, to)), ik_vec3_dot(gaze, to)));
            CHECK(IK_FABS(residual - reported) <= 0.05f, "%s look %d: residual %g deg reported, %g measured",
                  files[i], k, (double)reported, (double)residual);
            CHECK(reached == (residual <= (tol > 0 ? tol : 1) + 0.01f),
                  "%s look %d: reached %d with a residual of %g deg (tolerance %g)", files[i], k, reached,
                  (double)residual, (double)(tol > 0 ? tol : 1));
            CHECK(reached || (strstr(err_text, "warning") && strstr(err_text, "residual")),
                  "%s look %d: a miss is a warning with its residual: %s", files[i], k, err_text);
            if (IK_FABS(looks[k].azimuth) <= 30 && IK_FABS(looks[k].elevation) <= 30)
                CHECK(reached, "%s look %d: a target in front is reached (%g deg)", files[i], k,
                      (double)residual);
            if (IK_FABS(looks[k].azimuth) > 90) {
                ik_real gaze_elevation = ik_deg(elevation_of(gaze, before.up));
                ik_real side = ik_vec3_dot(gaze, left);
                CHECK(gaze_elevation <= looks[k].elevation + 3 && gaze_elevation >= -3,
                      "%s look %d: behind at %g deg of elevation, the head pitches to %g deg", files[i], k,
                      (double)looks[k].elevation, (double)gaze_elevation);
                if (looks[k].azimuth != 180)
                    CHECK(side * looks[k].azimuth > 0, "%s look %d: the head turns to the target's side (%g)",
                          files[i], k, (double)side);
            }
            character_free(&after);
        }
        character_free(&before);
    }
}

/* The character's pose at `time` in the clip named `clip` (its forward
 * kinematics in c->model); 0 when there is no such clip. */
static int character_pose_at(character *c, const char *clip, ik_real time) {
    const ik_clip *found = NULL;
    int k;
    if (c->bvh) found = &c->bvh->clip;
    for (k = 0; c->gltf && k < ik_gltf_clip_count(c->gltf); ++k) {
        const ik_clip *candidate = ik_gltf_clip(c->gltf, k, 0);
        if (candidate && candidate->name && strcmp(candidate->name, clip) == 0) found = candidate;
    }
    if (!found) return 0;
    ik_skeleton_rest_pose(c->skeleton, c->pose);
    ik_clip_sample(found, time, c->pose);
    ik_skeleton_fk(c->skeleton, c->pose, &c->root_ms, c->model);
    return 1;
}

/* The ground under a clip's frame (--clip --time with --slope): the ground
 * is laid at the frame's floor (its lower sole), so --slope 0 leaves every
 * joint of the frame where it was (within 1e-4 leg lengths: 0.09 mm on a
 * 0.9 m leg), in the --json positions and in the written file, with no
 * warning; on a 10 degree slope both feet reach, and a swinging foot (its
 * heel more than 0.1 leg lengths above the floor) keeps its height above
 * the ground under it: neither heel nor ball lower above the slope than
 * above the floor, the nearer one as high (within 2e-3 leg lengths).
 * Frames: 131_01 standing at 0 s, left foot planted and right swinging at
 * 1.25 s, mid-stride at 2 s; 131_02; 01_01 mid-jump; robot.glb's and
 * girl.glb's walk and run (Y-up, scaled root). */
static void test_solve_clip_ground(void) {
    static const struct {
        const char *file, *clip;
        ik_real time;
    } frames[] = {{"bvh/131_01.bvh", "motion", 0},      {"bvh/131_01.bvh", "motion", 1.25f},
                  {"bvh/131_01.bvh", "motion", 2},      {"bvh/131_02.bvh", "motion", 3.5f},
                  {"bvh/01_01.bvh", "motion", 5},       {"bvh/01_01.bvh", "motion", 12.4f},
                  {"gltf/robot.glb", "Robot_Walking", 0.3f}, {"gltf/girl.glb", "RunTrack", 0.4f}};
    int i;
    for (i = 0; i < (int)(sizeof frames / sizeof frames[0]); ++i) {
        character before, after;
        char path[900], out[300], args[2000];
        cJSON *doc, *joints, *feet;
        ik_vec3 floor_ms, up;
        ik_real leg, worst = 0, heel_clear[2], ball_clear[2];
        int slope, j, side;
        if (!real_asset(frames[i].file, path, sizeof path)) continue;
        if (!character_load(&before, path, 0) ||
            !character_pose_at(&before, frames[i].clip, frames[i].time)) {
            CHECK(0, "%s: the library finds its humanoid and clip %s", frames[i].file, frames[i].clip);
            character_free(&before);
            continue;
        }
        leg = limb_length_ms(&before, IK_LIMB_LEG_L);
        up = before.up;
        floor_ms = ik_humanoid_floor_point(&before.rig, before.model, &before.root_ms);
        for (side = 0; side < 2; ++side) {
            const ik_humanoid_limb *l = &before.rig.limb[IK_LIMB_LEG_L + side];
            heel_clear[side] = ball_clear[side] = 0;
            if (l->end < 0) continue;
            heel_clear[side] = ik_vec3_dot(
                ik_vec3_sub(ik_mat4_transform_point(&before.model[l->end], l->heel_ls), floor_ms), up);
            ball_clear[side] = ik_vec3_dot(
                ik_vec3_sub(ik_mat4_transform_point(&before.model[l->end], l->ball_ls), floor_ms), up);
        }
        for (slope = 0; slope <= 10; slope += 10) {
            snprintf(out, sizeof out, "%s/clip_ground%d_%d.%s", work_dir, i, slope,
                     strstr(frames[i].file, ".bvh") ? "bvh" : "glb");
            snprintf(args, sizeof args, "solve '%s' --clip %s --time %g --slope %d --json -o '%s'", path,
                     frames[i].clip, (double)frames[i].time, slope, out);
            CHECK(run(args) == 0, "%s t %g: %s", frames[i].file, (double)frames[i].time, err_text);
            CHECK(!strstr(err_text, "warning"), "%s t %g slope %d: no warning: %s", frames[i].file,
                  (double)frames[i].time, slope, err_text);
            doc = cJSON_Parse(out_text);
            joints = doc ? cJSON_GetObjectItem(doc, "joints") : NULL;
            feet = doc ? cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "humanoid"), "feet") : NULL;
            if (cJSON_GetArraySize(joints) != before.skeleton->joint_count || cJSON_GetArraySize(feet) != 2) {
                CHECK(0, "%s: --json lists the joints and feet: %.300s", frames[i].file, out_text);
                cJSON_Delete(doc);
                continue;
            }
            for (side = 0; side < 2; ++side)
                CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(feet, side), "reached")),
                      "%s t %g slope %d: foot %d reached", frames[i].file, (double)frames[i].time, slope,
                      side);
            if (slope == 0) {
                worst = 0;
                for (j = 0; j < before.skeleton->joint_count; ++j) {
                    ik_vec3 p = json_vec3(cJSON_GetObjectItem(cJSON_GetArrayItem(joints, j), "position"));
                    worst = ik_maxr(worst, ik_vec3_distance(p, joint_ms(&before, j)));
                }
                CHECK(worst <= 1e-4f * leg, "%s t %g: --slope 0 moved a joint by %g (leg %g)", frames[i].file,
                      (double)frames[i].time, (double)worst, (double)leg);
                if (character_load(&after, out, 1)) {
                    worst = 0;
                    for (j = 0; j < before.skeleton->joint_count; ++j)
                        worst = ik_maxr(worst, ik_vec3_distance(joint_ms(&after, j), joint_ms(&before, j)));
                    CHECK(worst <= 1e-4f * leg, "%s t %g: the written frame moved a joint by %g (leg %g)",
                          frames[i].file, (double)frames[i].time, (double)worst, (double)leg);
                } else {
                    CHECK(0, "%s: the written file loads back", frames[i].file);
                }
                character_free(&after);
            } else {
                /* the plane through the frame's floor; a swinging heel keeps its height above it */
                ik_vec3 point = json_vec3(cJSON_GetObjectItem(
                    cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "humanoid"), "ground"), "point"));
                ik_vec3 normal = json_vec3(cJSON_GetObjectItem(
                    cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "humanoid"), "ground"), "normal"));
                CHECK(IK_FABS(above_plane(floor_ms, point, normal)) <= 1e-4f * leg,
                      "%s t %g: the slope passes through the frame's floor_ms (%g off)", frames[i].file,
                      (double)frames[i].time, (double)above_plane(floor_ms, point, normal));
                for (side = 0; side < 2; ++side) {
                    const ik_humanoid_limb *l = &before.rig.limb[IK_LIMB_LEG_L + side];
                    int foot = l->end >= 0 ? ik_skeleton_find(before.skeleton,
                                                              ik_skeleton_name(before.skeleton, l->end))
                                           : -1;
                    if (foot < 0 || heel_clear[side] <= 0.1f * leg) continue;
                    if (!character_load(&after, out, 1)) {
                        CHECK(0, "%s: the written file loads back", frames[i].file);
                    } else {
                        ik_real cos_slope = ik_vec3_dot(normal, up);
                        ik_real heel = above_plane(ik_mat4_transform_point(&after.model[foot], l->heel_ls),
                                                   point, normal) /
                                           cos_slope -
                                       heel_clear[side];
                        ik_real ball = above_plane(ik_mat4_transform_point(&after.model[foot], l->ball_ls),
                                                   point, normal) /
                                           cos_slope -
                                       ball_clear[side];
                        CHECK(heel >= -2e-3f * leg && ball >= -2e-3f * leg &&
                                  ik_minr(heel, ball) <= 2e-3f * leg,
                              "%s t %g foot %d: the swinging heel and ball are %g and %g higher above the "
                              "slope than "
                              "above the floor_ms",
                              frames[i].file, (double)frames[i].time, side, (double)heel, (double)ball);
                    }
                    character_free(&after);
                }
            }
            cJSON_Delete(doc);
        }
        character_free(&before);
    }
}

/* Stairs and a height field under a clip's frame (131_01, whose rest floor_ms
 * is 17 units under its frames' feet): the stairs' treads are counted from
 * the frame's floor_ms (each foot's ground point is a whole number of rises
 * above it) and both feet reach them; a flat height field (no origin) leaves
 * the frame where it was. */
static void test_solve_clip_terrain(void) {
    char path[900], field[300], args[2000];
    character before;
    cJSON *doc, *feet, *joints;
    ik_vec3 floor_ms;
    ik_real leg, worst = 0;
    int side, j;
    if (!real_asset("bvh/131_01.bvh", path, sizeof path)) return;
    if (!character_load(&before, path, 0) || !character_pose_at(&before, "motion", 2)) {
        CHECK(0, "131_01.bvh loads with its humanoid");
        character_free(&before);
        return;
    }
    leg = limb_length_ms(&before, IK_LIMB_LEG_L);
    floor_ms = ik_humanoid_floor_point(&before.rig, before.model, &before.root_ms);
    snprintf(args, sizeof args, "solve '%s' --clip motion --time 2 --stairs 1,6 --json", path);
    CHECK(run(args) == 0 && !strstr(err_text, "warning"), "stairs under a frame: %s", err_text);
    doc = cJSON_Parse(out_text);
    feet = doc ? cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "humanoid"), "feet") : NULL;
    for (side = 0; side < 2 && cJSON_GetArraySize(feet) == 2; ++side) {
        cJSON *foot = cJSON_GetArrayItem(feet, side);
        ik_real rises = json_vec3(cJSON_GetObjectItem(foot, "ground_point")).y - floor_ms.y;
        CHECK(cJSON_IsTrue(cJSON_GetObjectItem(foot, "reached")) && rises > -1e-3f &&
                  fabs((double)rises - floor((double)rises + 0.5)) < 1e-3,
              "foot %d: on a tread %g rises above the frame's floor_ms", side, (double)rises);
    }
    CHECK(cJSON_GetArraySize(feet) == 2, "--json lists the feet: %.300s", out_text);
    cJSON_Delete(doc);
    path_in(field, sizeof field, "flat_field.txt");
    write_text(field, "cell 2\nsize 3 3\nheights\n0 0 0\n0 0 0\n0 0 0\n");
    snprintf(args, sizeof args, "solve '%s' --clip motion --time 2 --feet-on-ground '%s' --json", path,
             field);
    CHECK(run(args) == 0 && !strstr(err_text, "warning"), "a flat height field under a frame: %s", err_text);
    doc = cJSON_Parse(out_text);
    joints = doc ? cJSON_GetObjectItem(doc, "joints") : NULL;
    CHECK(cJSON_GetArraySize(joints) == before.skeleton->joint_count, "--json lists the joints");
    for (j = 0;
         j < before.skeleton->joint_count && cJSON_GetArraySize(joints) == before.skeleton->joint_count; ++j)
        worst = ik_maxr(
            worst, ik_vec3_distance(json_vec3(cJSON_GetObjectItem(cJSON_GetArrayItem(joints, j), "position")),
                                    joint_ms(&before, j)));
    CHECK(worst <= 1e-4f * leg, "a flat height field moved a joint by %g (leg %g)", (double)worst,
          (double)leg);
    cJSON_Delete(doc);
    character_free(&before);
}

/* A foot that cannot reach the ground is a warning naming it with its
 * residual, on stderr and in --json, and the exit code stays 0. */
static void test_solve_foot_cannot_reach(void) {
    char path[900], args[2000];
    cJSON *doc, *feet, *right;
    if (!real_asset("bvh/131_01.bvh", path, sizeof path)) return;
    snprintf(args, sizeof args, "solve '%s' --clip motion --time 2 --slope 70,90 --json", path);
    CHECK(run(args) == 0, "a 70 degree slope across the body: exit 0: %s", err_text);
    CHECK(strstr(err_text, "warning: the right foot (RightAnkle) cannot reach the ground: residual") != NULL,
          "the right foot's warning: %s", err_text);
    doc = cJSON_Parse(out_text);
    feet = doc ? cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "humanoid"), "feet") : NULL;
    right = cJSON_GetArrayItem(feet, 1);
    CHECK(right && cJSON_IsFalse(cJSON_GetObjectItem(right, "reached")) &&
              cJSON_GetObjectItem(right, "residual")->valuedouble > 1 &&
              cJSON_GetObjectItem(right, "warning"),
          "--json: the right foot not reached, with its residual and a warning: %.500s", out_text);
    cJSON_Delete(doc);
}

static void test_role_errors(void) {
    static const struct {
        const char *args, *message;
        int code;
    } cases[] = {
        {"--left-hand 1,2", "bad numbers", 2},
        {"--right-hand 1,2,x", "bad numbers", 2},
        {"--left-foot", "needs a value", 2},
        {"--left-hand 1,2,3 --left-hand 1,2,3", "twice", 2},
        {"--look-at nan,0,0", "bad numbers", 2},
        {"--slope 85", "DEGREES", 2},
        {"--slope ten", "DEGREES", 2},
        {"--stairs 0.1", "RISE,RUN", 2},
        {"--stairs -0.1,0.3", "RISE,RUN", 2},
        {"--slope 5 --stairs 0.1,0.3", "one ground", 2},
        {"--map /nonexistent/file.map --left-hand 0,1,0", "cannot open", 3},
        {"--feet-on-ground /nonexistent/field.txt", "cannot open", 3},
    };
    char bvh[300], args[1200], map[300], field[300];
    int i;
    path_in(bvh, sizeof bvh, "leg.bvh");
    for (i = 0; i < (int)(sizeof cases / sizeof cases[0]); ++i) {
        snprintf(args, sizeof args, "solve '%s' --json %s", bvh, cases[i].args);
        CHECK(run(args) == cases[i].code && strstr(err_text, cases[i].message), "solve %s: exit %d, '%s' in: %s",
              cases[i].args, cases[i].code, cases[i].message, err_text);
    }
    /* the leg is no humanoid: exit 5 naming what is missing */
    snprintf(args, sizeof args, "solve '%s' --left-hand 0,1,0 --json", bvh);
    CHECK(run(args) == 5 && strstr(err_text, "no humanoid found") && strstr(err_text, "left_upper_arm"),
          "no humanoid: %s", err_text);
    path_in(map, sizeof map, "bad.map");
    write_text(map, "# roles\nhips = Hips\nleft_elbow = LeftLeg\n");
    snprintf(args, sizeof args, "solve '%s' --map '%s' --left-hand 0,1,0 --json", bvh, map);
    CHECK(run(args) == 4 && strstr(err_text, "bad.map:3"), "bad mapping file names its line: %s", err_text);
    path_in(field, sizeof field, "bad_field.txt");
    write_text(field, "cell 0.1\nsize 3 2\nheights\n0 0 0\n0 0\n");
    snprintf(args, sizeof args, "solve '%s' --feet-on-ground '%s' --json", bvh, field);
    CHECK(run(args) == 4 && strstr(err_text, "bad_field.txt:5") && strstr(err_text, "2 heights"),
          "malformed height field names its line: %s", err_text);
    write_text(field, "cell 0\nsize 3 2\nheights\n0 0 0\n0 0 0\n");
    CHECK(run(args) == 4 && strstr(err_text, ":1:"), "cell 0 refused: %s", err_text);
    snprintf(args, sizeof args, "solve '%s' --map '%s' --json", bvh, map);
    CHECK(run(args) == 2 && strstr(err_text, "--map"), "--map alone: %s", err_text);
}

static void test_info_humanoid(void) {
    char path[900], args[1000];
    if (real_asset("gltf/robot.glb", path, sizeof path)) {
        snprintf(args, sizeof args, "info '%s'", path);
        CHECK(run(args) == 0 && strstr(out_text, "humanoid: found") && strstr(out_text, "left_hand = Palm2.L") &&
                  strstr(out_text, "left_foot: missing"),
              "info robot.glb: the humanoid's roles, the IK-control feet missing: %s", out_text);
    }
    if (real_asset("bvh/131_01.bvh", path, sizeof path)) {
        snprintf(args, sizeof args, "info '%s'", path);
        CHECK(run(args) == 0 && strstr(out_text, "humanoid: found (21 of 21") &&
                  strstr(out_text, "left_hand = LeftWrist"),
              "info 131_01.bvh: every role: %s", out_text);
    }
}

static void test_no_temporary_files_left(void) {
    DIR *d = opendir(work_dir);
    struct dirent *e;
    int left = 0;
    CHECK(d != NULL, "the work directory can be listed");
    if (!d) return;
    while ((e = readdir(d)) != NULL)
        if (strstr(e->d_name, ".ikc-tmp-")) ++left;
    closedir(d);
    CHECK(left == 0, "%d temporary files left behind", left);
}

int main(void) {
    char cmd[400];
    ikc_path = getenv("IKC") ? getenv("IKC") : IKC_PATH;
    snprintf(work_dir, sizeof work_dir, "/tmp/ikit-test-ikc-XXXXXX");
    if (!mkdtemp(work_dir)) {
        perror("mkdtemp");
        return 1;
    }
    /* Under LeakSanitizer: the project's suppressions (system libraries
     * only, see the file), unless the caller set LSAN_OPTIONS itself. */
    {
        char options[600];
        snprintf(options, sizeof options, "suppressions=%s/scripts/lsan.supp:print_suppressions=0", IKIT_SOURCE_DIR);
        setenv("LSAN_OPTIONS", options, 0);
    }
    test_lsan_suppressions();
    test_help_and_version();
    test_info_real_assets();
    test_info_generated();
    test_info_deep_hierarchy();
    test_solve_bvh();
    test_solve_gltf();
    test_render();
    test_render_far();
    test_errors();
    test_info_humanoid();
    test_solve_left_hand();
    test_solve_slope();
    test_solve_ground_files();
    test_solve_look_at();
    test_solve_clip_ground();
    test_solve_clip_terrain();
    test_solve_foot_cannot_reach();
    test_role_errors();
    test_demo();
    test_no_temporary_files_left();
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", work_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", work_dir);
    return check_summary("ikc");
}

/* End-to-end tests of the ikc tool: run the built binary (IKC_PATH, or the
 * IKC environment variable) on real assets and generated files, and check
 * its output with the library itself -- reload what it wrote, run forward
 * kinematics, count drawn pixels. */
#define _POSIX_C_SOURCE 200809L
#include <cairo.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ikit/bvh.h>
#include <ikit/gltf.h>
#include <ikit/skeleton.h>

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
static int run(const char *args) {
    char cmd[4096], out_path[300], err_path[300];
    int status;
    snprintf(out_path, sizeof out_path, "%s/stdout.txt", work_dir);
    snprintf(err_path, sizeof err_path, "%s/stderr.txt", work_dir);
    snprintf(cmd, sizeof cmd, "'%s' %s >'%s' 2>'%s' </dev/null", ikc_path, args, out_path, err_path);
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
    const char *data = getenv("IKIT_DATA");
    char args[1024], path[900];
    int i, seen = 0;
    if (!data) {
        check_skip("real-asset corpus not found (IKIT_DATA unset)");
        return;
    }
    for (i = 0; i < (int)(sizeof files / sizeof files[0]); ++i) {
        snprintf(path, sizeof path, "%s/%s", data, files[i]);
        if (file_size(path) < 0) continue;
        ++seen;
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
    if (!seen) check_skip("real-asset corpus not found");
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
            cJSON *pos = cJSON_GetObjectItem(cJSON_GetArrayItem(joints, j), "position");
            ik_vec3 p = ik_v3((ik_real)cJSON_GetArrayItem(pos, 0)->valuedouble,
                              (ik_real)cJSON_GetArrayItem(pos, 1)->valuedouble,
                              (ik_real)cJSON_GetArrayItem(pos, 2)->valuedouble);
            CHECK(ik_vec3_distance(p, ik_mat4_translation(&model_after[j])) < 2e-3,
                  "--json position of joint %d matches the written file", j);
        }
    } else {
        CHECK(0, "written BVH has the input's joints and one frame");
    }
    ik_bvh_free(before);
    ik_bvh_free(after);
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

    /* Iterative solvers on a longer chain, from a clip's pose. */
    snprintf(args, sizeof args,
             "solve '%s' --clip motion --time 0.5 --target LeftFoot=0.25,0.3,0.2 --chain 4 --solver %%s --json", bvh);
    {
        static const char *const solvers[] = {"ccd", "fabrik", "dls", "sdls"};
        char cmd[1300];
        int s;
        for (s = 0; s < 4; ++s) {
            snprintf(cmd, sizeof cmd, args, solvers[s]);
            CHECK(run(cmd) == 0 && strstr(out_text, "\"reached\":\ttrue"), "solver %s reaches: %s", solvers[s],
                  err_text);
        }
    }
}

static void test_solve_gltf(void) {
    const char *data = getenv("IKIT_DATA");
    char path[900], out[300], args[1500], validator[600];
    ik_gltf *before = NULL, *after = NULL;
    const ik_gltf_skin *skin;
    ik_transform *pose;
    ik_mat4 *model, *model_after;
    int hip, knee, foot, n, rc;
    ik_vec3 target;
    if (!data) {
        check_skip("real-asset corpus not found (IKIT_DATA unset)");
        return;
    }
    snprintf(path, sizeof path, "%s/gltf/girl.glb", data);
    if (ik_gltf_read_file(path, &before, NULL) != IK_OK) {
        check_skip("real-asset corpus not found (girl.glb)");
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
                                        "tail_springs.svg", "arms_fabrik_ccd.png", "arms_fabrik_ccd.svg", "scene.gltf"};
    char dir[300], args[400], path[400];
    ik_gltf *scene = NULL;
    int i, w, h;
    long bone;
    path_in(dir, sizeof dir, "demo");
    snprintf(args, sizeof args, "demo -o '%s'", dir);
    CHECK(run(args) == 0, "demo exits 0: %s", err_text);
    CHECK(strstr(out_text, "Scene 1") && strstr(out_text, "us/solve") && strstr(out_text, "Scene 4"),
          "demo prints its tables");
    for (i = 0; i < (int)(sizeof files / sizeof files[0]); ++i) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        CHECK(file_size(path) > 1000, "demo wrote %s", files[i]);
    }
    snprintf(path, sizeof path, "%s/leg_two_bone.png", dir);
    CHECK(drawn_pixels(path, &w, &h, &bone) > 10000 && bone > 1000, "leg picture has a skeleton in it");
    snprintf(path, sizeof path, "%s/scene.gltf", dir);
    CHECK(ik_gltf_read_file(path, &scene, NULL) == IK_OK && ik_gltf_skin_count(scene) == 2,
          "demo glTF loads with the humanoid and the tail");
    ik_gltf_free(scene);
}

static void test_no_temporary_files_left(void) {
    DIR *d = opendir(work_dir);
    struct dirent *e;
    int left = 0;
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
    /* Under LeakSanitizer: fontconfig (used by cairo's text) keeps its caches
     * until exit by design; those are not ikc's leaks. */
    {
        char supp[300], options[400];
        snprintf(supp, sizeof supp, "%s/lsan.supp", work_dir);
        write_text(supp, "leak:libfontconfig\nleak:FcValueSave\n");
        snprintf(options, sizeof options, "suppressions=%s:print_suppressions=0", supp);
        setenv("LSAN_OPTIONS", options, 0);
    }
    test_help_and_version();
    test_info_real_assets();
    test_info_generated();
    test_solve_bvh();
    test_solve_gltf();
    test_render();
    test_errors();
    test_demo();
    test_no_temporary_files_left();
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", work_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", work_dir);
    return check_summary("ikc");
}

/* End-to-end tests of the ikc tool: run the built binary (IKC_PATH, or the
 * IKC environment variable) on real assets and generated files, and check
 * its output with the library itself -- reload what it wrote, run forward
 * kinematics, count drawn pixels. */
#define _POSIX_C_SOURCE 200809L
#include <cairo.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ikit/asset.h>
#include <ikit/bvh.h>
#include <ikit/clip.h>
#include <ikit/gltf.h>
#include <ikit/humanoid.h>
#include <ikit/robot.h>
#include <ikit/skeleton.h>
#include <ikit/urdf.h>
#include <ikit/utf8.h>
#include <ikit/version.h>
#include <ikit/walk.h>

#include "support/big_rig.h"
#include "support/check.h"
#include "support/ikc_run.h"
#include "support/test_groups.h"

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
    /* One version number: the tool's is the library's, set by CMake. */
    CHECK(run("--version") == 0 && strcmp(out_text, "ikc " IK_VERSION_STRING "\n") == 0, "ikc --version: %s", out_text);
    CHECK(strcmp(ik_version(), IK_VERSION_STRING) == 0, "ik_version() %s", ik_version());
    CHECK(run("solve --help") == 0 && strstr(out_text, "examples") && strstr(out_text, "--pole"), "solve --help");
    CHECK(run("render --help") == 0 && strstr(out_text, "--frames"), "render --help");
    CHECK(run("info --help") == 0 && run("demo --help") == 0, "info/demo --help");
    CHECK(run("frobnicate") == 2 && strstr(err_text, "unknown command"), "unknown command: %s", err_text);
    CHECK(run("") == 2, "no command");
}

static void test_info_real_assets(void) {
    static const char *const files[] = {"gltf/SimpleSkin.gltf",   "gltf/girl.glb",  "gltf/male_base_mesh.glb",
                                        "gltf/rigged_figure.glb", "gltf/robot.glb", "bvh/01_01.bvh",
                                        "bvh/131_01.bvh",         "bvh/131_02.bvh"};
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

/* leg.bvh (leg_bvh) and arm.chain, which many groups read, written into
 * the work directory before any group runs. */
static void write_shared_inputs(void) {
    char path[300];
    path_in(path, sizeof path, "leg.bvh");
    write_text(path, leg_bvh);
    path_in(path, sizeof path, "arm.chain");
    write_text(path,
               "chain arm\njoint shoulder type ball cone 90\n"
               "joint elbow length 0.3 direction 1 0 0 type hinge axis 0 0 1 limit 0 150\n"
               "joint hand length 0.25 type fixed\ntarget cup joint hand position 0.3 0.2 0\n");
}

static void test_info_generated(void) {
    char bvh[300], chain[300], args[700];
    path_in(bvh, sizeof bvh, "leg.bvh");
    path_in(chain, sizeof chain, "arm.chain");
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
    if (before && after && after->skeleton.joint_count == 5 && after->frame_count == before->frame_count) {
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
        CHECK(0, "written BVH has the input's joints and frames");
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
            CHECK(ik_vec3_distance(p[3], target2) < 2e-3, "solver %s puts the foot on the target (%g away)", solvers[s],
                  (double)ik_vec3_distance(p[3], target2));
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
        if (rc == 2)
            check_skip("gltf-validator not installed (scripts/validate-gltf.sh --install)");
        else
            CHECK(rc == 0, "Khronos validator finds no errors in the solved glTF");
    } else {
        check_skip("scripts/validate-gltf.sh not found");
    }
    free(pose);
    free(model);
    free(model_after);
    ik_gltf_free(before);
}

/* ---- output file safety ------------------------------------------------- */

/* Start ikc with `args` (NULL-terminated, args[0] is the command) in a child
 * that waits until *release is closed, so the caller knows its process id
 * before it runs; its output goes to /dev/null. */
static pid_t spawn_held(const char *const *args, int *release) {
    int gate[2];
    pid_t pid;
    if (pipe(gate) != 0) return -1;
    pid = fork();
    if (pid == 0) {
        char byte;
        int null = open("/dev/null", O_RDWR);
        close(gate[1]);
        while (read(gate[0], &byte, 1) < 0 && errno == EINTR) continue;
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 1);
            dup2(null, 2);
        }
        {
            char *argv[32];
            int n = 0;
            argv[n++] = (char *)ikc_path;
            while (args[n - 1] && n < 31) {
                argv[n] = (char *)args[n - 1];
                ++n;
            }
            argv[n] = NULL;
            execv(ikc_path, argv);
        }
        _exit(127);
    }
    close(gate[0]);
    if (pid < 0) {
        close(gate[1]);
        return -1;
    }
    *release = gate[1];
    return pid;
}

static int same_text(const char *path, const char *expected) {
    static char buf[1 << 16];
    read_text(path, buf, sizeof buf);
    return strcmp(buf, expected) == 0;
}

/* Count directory entries whose name contains `part`. */
static int count_named(const char *dir, const char *part) {
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (!d) return -1;
    while ((e = readdir(d)) != NULL)
        if (strstr(e->d_name, part)) ++n;
    closedir(d);
    return n;
}

/* A planted symlink at the name temporaries used to get
 * (".ikc-tmp-<pid>-<name>") is not followed: the file it points to keeps
 * its bytes, and the output is written. */
static void test_temporary_not_predictable(void) {
    char dir[300], bvh[300], out[400], victim[400], planted[500];
    const char *args[8];
    int release, status;
    pid_t pid;
    path_in(dir, sizeof dir, "planted");
    mkdir(dir, 0777);
    path_in(bvh, sizeof bvh, "leg.bvh");
    write_text(bvh, leg_bvh);
    snprintf(out, sizeof out, "%s/out.bvh", dir);
    snprintf(victim, sizeof victim, "%s/victim.txt", dir);
    write_text(victim, "precious\n");
    args[0] = "solve", args[1] = bvh, args[2] = "--target", args[3] = "LeftFoot=0.15,0.35,0.25", args[4] = "-o",
    args[5] = out, args[6] = NULL;
    pid = spawn_held(args, &release);
    CHECK(pid > 0, "ikc started");
    if (pid <= 0) return;
    snprintf(planted, sizeof planted, "%s/.ikc-tmp-%ld-out.bvh", dir, (long)pid);
    CHECK(symlink(victim, planted) == 0, "symlink planted at %s", planted);
    close(release);
    CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "solve succeeds beside a planted symlink (status %d)", status);
    CHECK(same_text(victim, "precious\n"), "the file the planted symlink names is untouched");
    CHECK(file_size(out) > 0, "the output is written");
    unlink(planted);
    CHECK(count_named(dir, ".ikc-tmp-") == 0, "no temporary left");
}

/* A skinned three-joint leg whose only buffer is an external file `bin_name`
 * of `bin_size` bytes (unreferenced data ikc must carry through). */
static void write_leg_gltf(const char *dir, const char *name, const char *bin_name, long bin_size) {
    char path[600], text[1500];
    FILE *f;
    long i;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(text, sizeof text,
             "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":["
             "{\"name\":\"Hips\",\"translation\":[0,1,0],\"children\":[1]},"
             "{\"name\":\"Knee\",\"translation\":[0,-0.45,0],\"children\":[2]},"
             "{\"name\":\"Foot\",\"translation\":[0,-0.43,0]}],"
             "\"skins\":[{\"joints\":[0,1,2]}],\"buffers\":[{\"uri\":\"%s\",\"byteLength\":%ld}]}",
             bin_name, bin_size);
    write_text(path, text);
    snprintf(path, sizeof path, "%s/%s", dir, bin_name);
    f = fopen(path, "wb");
    if (!f) return;
    for (i = 0; i < bin_size; ++i) fputc((int)(i * 7 % 251), f);
    fclose(f);
}

/* 1 when the two files hold the same bytes. */
static int same_bytes(const char *a, const char *b) {
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb, ca, cb;
    while (same) {
        ca = fgetc(fa);
        cb = fgetc(fb);
        if (ca != cb) same = 0;
        if (ca == EOF) break;
    }
    if (fa) fclose(fa);
    if (fb) fclose(fb);
    return same;
}

/* Set a file's modification time far in the past, so any write shows. */
static void age_file(const char *path) {
    struct timeval old[2];
    old[0].tv_sec = old[1].tv_sec = 1000000000;
    old[0].tv_usec = old[1].tv_usec = 0;
    utimes(path, old);
}

static int still_aged(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && (long)st.st_mtime == 1000000000L;
}

/* A glTF with an external girl.bin solved into another folder that holds an
 * unrelated girl.bin: the input's files are never opened for writing (their
 * bytes and modification times stay; they and their folder are read-only),
 * the unrelated girl.bin is untouched, and the buffer goes to posed.bin,
 * named after the output. An existing .bin beside a -o that does not exist
 * yet, or an input's buffer file, is refused with its name and nothing is
 * written. */
static void test_solve_keeps_input_files(void) {
    char in_dir[300], out_dir[300], in[400], in_bin[400], copy[400], girl[400], out[400], out_bin[400], args[2000];
    ik_gltf *g = NULL;
    path_in(in_dir, sizeof in_dir, "keep-in");
    path_in(out_dir, sizeof out_dir, "keep-out");
    mkdir(in_dir, 0777);
    mkdir(out_dir, 0777);
    write_leg_gltf(in_dir, "in.gltf", "girl.bin", 4096);
    write_leg_gltf(out_dir, "ref.gltf", "girl-copy.bin", 4096);
    snprintf(in, sizeof in, "%s/in.gltf", in_dir);
    snprintf(in_bin, sizeof in_bin, "%s/girl.bin", in_dir);
    snprintf(copy, sizeof copy, "%s/girl-copy.bin", out_dir);
    snprintf(girl, sizeof girl, "%s/girl.bin", out_dir);
    snprintf(out, sizeof out, "%s/posed.gltf", out_dir);
    snprintf(out_bin, sizeof out_bin, "%s/posed.bin", out_dir);
    write_text(girl, "unrelated\n");
    age_file(in);
    age_file(in_bin);
    chmod(in, 0444);
    chmod(in_bin, 0444);
    chmod(in_dir, 0555);
    snprintf(args, sizeof args, "solve '%s' --target Foot=0.1,0.4,0.2 --chain 3 -o '%s' --quiet", in, out);
    CHECK(run(args) == 0, "solve a read-only glTF with an external buffer: %s", err_text);
    CHECK(same_bytes(in_bin, copy) && still_aged(in_bin) && still_aged(in),
          "the input's files are not written (bytes and modification times kept)");
    CHECK(same_text(girl, "unrelated\n"), "an unrelated girl.bin in the output folder is untouched");
    CHECK(same_bytes(out_bin, copy), "the buffer is written as posed.bin, named after the output");
    CHECK(ik_gltf_read_file(out, &g, NULL) == IK_OK, "the output reads back with its posed.bin");
    if (g) {
        const ik_gltf_skin *s = ik_gltf_skeleton(g, 0);
        ik_transform pose[3];
        ik_mat4 model[3];
        ik_skeleton_rest_pose(&s->skeleton, pose);
        ik_skeleton_fk(&s->skeleton, pose, &s->root_ms, model);
        CHECK(ik_vec3_distance(ik_mat4_translation(&model[2]), ik_v3(0.1f, 0.4f, 0.2f)) < 1e-3,
              "the written pose puts Foot on its target");
        ik_gltf_free(g);
    }
    /* a second run with the same -o replaces its own earlier pair */
    CHECK(run(args) == 0, "the same -o again replaces posed.gltf and posed.bin: %s", err_text);
    chmod(in_dir, 0777);
    /* the output in the input's own folder: the input's girl.bin is still not written */
    snprintf(out, sizeof out, "%s/same.gltf", in_dir);
    snprintf(args, sizeof args, "solve '%s' --target Foot=0.1,0.4,0.2 --chain 3 -o '%s' --quiet", in, out);
    CHECK(run(args) == 0 && still_aged(in_bin) && same_bytes(in_bin, copy),
          "an output beside the input leaves the input's buffer file alone: %s", err_text);

    /* an existing .bin that is not an earlier output: refused, nothing written */
    snprintf(out, sizeof out, "%s/girl.gltf", out_dir);
    snprintf(args, sizeof args, "solve '%s' --target Foot=0.1,0.4,0.2 --chain 3 -o '%s' --quiet", in, out);
    CHECK(run(args) == 6 && strstr(err_text, girl), "an unrelated existing girl.bin is refused by name: %s", err_text);
    CHECK(same_text(girl, "unrelated\n") && file_size(out) < 0, "nothing written after the refusal");

    /* writing into the input's folder where the output's .bin is the input's buffer: refused */
    chmod(in_bin, 0644);
    write_leg_gltf(in_dir, "in2.gltf", "posed.bin", 64);
    snprintf(in, sizeof in, "%s/in2.gltf", in_dir);
    snprintf(in_bin, sizeof in_bin, "%s/posed.bin", in_dir);
    snprintf(out, sizeof out, "%s/posed.gltf", in_dir);
    write_text(out, "{}");
    age_file(in_bin);
    snprintf(args, sizeof args, "solve '%s' --target Foot=0.1,0.4,0.2 --chain 3 -o '%s' --quiet", in, out);
    CHECK(run(args) == 6 && strstr(err_text, "input"), "an input's buffer file as output is refused: %s", err_text);
    CHECK(still_aged(in_bin) && file_size(in_bin) == 64, "the input's buffer file is kept");
}

/* -o naming the input (the same path, a hard link or a symlink to it) is
 * refused with exit code 6 and the take kept; --overwrite replaces it. */
static void test_solve_refuses_input_as_output(void) {
    char dir[300], take[400], hard[400], sym[400], args[1500], gltf[400];
    const char *outs[3];
    ik_bvh *b = NULL;
    int i;
    path_in(dir, sizeof dir, "same");
    mkdir(dir, 0777);
    snprintf(take, sizeof take, "%s/take.bvh", dir);
    snprintf(hard, sizeof hard, "%s/hard.bvh", dir);
    snprintf(sym, sizeof sym, "%s/sym.bvh", dir);
    write_text(take, leg_bvh);
    unlink(hard);
    unlink(sym);
    CHECK(link(take, hard) == 0 && symlink("take.bvh", sym) == 0, "links made");
    outs[0] = take, outs[1] = hard, outs[2] = sym;
    for (i = 0; i < 3; ++i) {
        snprintf(args, sizeof args, "solve '%s' --target LeftFoot=0.15,0.35,0.25 -o '%s'", take, outs[i]);
        CHECK(run(args) == 6 && strstr(err_text, "--overwrite"), "-o %s (the input) refused: %s", outs[i], err_text);
        CHECK(same_text(take, leg_bvh), "the take is kept after -o %s", outs[i]);
    }
    write_leg_gltf(dir, "leg.gltf", "leg.bin", 64);
    snprintf(gltf, sizeof gltf, "%s/leg.gltf", dir);
    snprintf(args, sizeof args, "solve '%s' --target Foot=0.1,0.4,0.2 --chain 3 -o '%s'", gltf, gltf);
    CHECK(run(args) == 6, "a glTF as its own output refused: %s", err_text);
    snprintf(args, sizeof args, "solve '%s' --target LeftFoot=0.15,0.35,0.25 -o '%s' --overwrite", take, take);
    CHECK(run(args) == 0, "--overwrite replaces the input: %s", err_text);
    CHECK(ik_bvh_read_file(take, &b, NULL) == IK_OK && b->frame_count == 2 && !same_text(take, leg_bvh),
          "the input now holds the take with the solved frame");
    ik_bvh_free(b);
    CHECK(same_text(hard, leg_bvh), "the hard link still names the old take (replaced by rename, not in place)");
}

/* Issue 18 item 6: inputs that are not regular files are refused at once
 * with exit code 3: a device that never ends, a FIFO (as the input and as a
 * height-field file), never read without end or waited on. */
static void test_special_inputs(void) {
    char fifo[300], bvh[300], args[1000];
    path_in(fifo, sizeof fifo, "input.fifo");
    path_in(bvh, sizeof bvh, "leg.bvh");
    write_text(bvh, leg_bvh);
    unlink(fifo);
    CHECK(mkfifo(fifo, 0600) == 0, "FIFO made");
    CHECK(run("info /dev/urandom") == 3 && strstr(err_text, "not a regular file"), "info /dev/urandom: %s", err_text);
    snprintf(args, sizeof args, "info '%s'", fifo);
    CHECK(run(args) == 3 && strstr(err_text, "not a regular file"), "info FIFO: %s", err_text);
    snprintf(args, sizeof args, "solve '%s' --feet-on-ground '%s' --json", bvh, fifo);
    CHECK(run(args) == 3 && strstr(err_text, "not a regular file"), "a FIFO as height field: %s", err_text);
    unlink(fifo);
}

/* `text` with its first `from` replaced by `to` (at most 4 KiB). */
static const char *replaced(const char *text, const char *from, const char *to) {
    static char buf[4096];
    const char *at = strstr(text, from);
    if (!at) return text;
    snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return buf;
}

/* Issue 18 item 7: an ANSI escape and a byte that is not UTF-8 (Latin-1
 * 0xE9) in BVH and chain-file joint names: shown escaped on the terminal
 * (no ESC byte reaches it, stdout is valid UTF-8), and every --json output
 * parses and is valid UTF-8; a glTF node name with bytes 0xFF 0xFE is
 * refused with the node's JSON path. */
static void test_names_shown_safely(void) {
    char bvh[300], chain[300], gltf[300], args[1000];
    cJSON *doc;
    path_in(bvh, sizeof bvh, "evil.bvh");
    path_in(chain, sizeof chain, "evil.chain");
    path_in(gltf, sizeof gltf, "evil.gltf");
    write_text(bvh, replaced(leg_bvh, "JOINT LeftLeg", "JOINT Left\033[31mLeg\351"));
    snprintf(args, sizeof args, "info '%s'", bvh);
    CHECK(run(args) == 0, "info on escape-laden BVH names: %s", err_text);
    CHECK(!strchr(out_text, '\033') && strstr(out_text, "Left\\x1b[31mLeg\\xe9") && ik_utf8_valid(out_text),
          "the names are shown escaped: %s", out_text);
    snprintf(args, sizeof args, "solve '%s' --target LeftFoot=0.15,0.35,0.25 --json", bvh);
    CHECK(run(args) == 0, "solve --json: %s", err_text);
    doc = cJSON_Parse(out_text);
    CHECK(doc && ik_utf8_valid(out_text), "solve --json output is JSON in UTF-8: %.300s", out_text);
    if (doc) {
        const cJSON *name = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "joints"), 2), "name");
        CHECK(cJSON_IsString(name) && strcmp(name->valuestring, "Left\033[31mLeg\xEF\xBF\xBD") == 0,
              "the control character is kept (JSON-escaped), the stray byte becomes U+FFFD");
        cJSON_Delete(doc);
    }
    snprintf(args, sizeof args, "solve '%s' --target LeftLg=0,1,0 --json", bvh);
    CHECK(run(args) == 5 && !strchr(err_text, '\033') && strstr(err_text, "did you mean"),
          "suggestions are shown escaped: %s", err_text);

    write_text(chain,
               "chain arm\njoint sh\033]0;owned\007ould\377er type ball cone 90\n"
               "joint hand length 0.3 direction 1 0 0 type fixed\n");
    snprintf(args, sizeof args, "info '%s'", chain);
    CHECK(run(args) == 0 && !strchr(out_text, '\033') && !strchr(out_text, '\007') && ik_utf8_valid(out_text),
          "chain-file names shown escaped: %s %s", out_text, err_text);
    snprintf(args, sizeof args, "solve '%s' --target hand=0,0.3,0 --chain 2 --json", chain);
    CHECK(run(args) == 0, "chain solve --json: %s", err_text);
    doc = cJSON_Parse(out_text);
    CHECK(doc && ik_utf8_valid(out_text), "chain solve --json output is JSON in UTF-8: %.300s", out_text);
    cJSON_Delete(doc);

    write_text(gltf,
               "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"root\",\"children\":[1]},"
               "{\"name\":\"bad\377\376\",\"translation\":[0,1,0]}],\"skins\":[{\"joints\":[0,1]}]}");
    snprintf(args, sizeof args, "info '%s'", gltf);
    CHECK(run(args) == 4 && strstr(err_text, "/nodes/1/name") && strstr(err_text, "not valid UTF-8") &&
              ik_utf8_valid(err_text),
          "a glTF name that is not UTF-8 is refused with its path: %s", err_text);
}

/* SIGTERM while the output is being written leaves no temporary behind:
 * watch the folder, signal the moment a temporary appears. */
static void test_sigterm_removes_temporary(void) {
    char dir[300], in[400], out[400];
    const char *args[10];
    int attempt, caught = 0;
    path_in(dir, sizeof dir, "sigterm");
    mkdir(dir, 0777);
    write_leg_gltf(dir, "big.gltf", "big.bin", 48L << 20);
    snprintf(in, sizeof in, "%s/big.gltf", dir);
    snprintf(out, sizeof out, "%s/out.glb", dir);
    args[0] = "solve", args[1] = in, args[2] = "--target", args[3] = "Foot=0.1,0.4,0.2", args[4] = "--chain",
    args[5] = "3", args[6] = "-o", args[7] = out, args[8] = "--quiet", args[9] = NULL;
    for (attempt = 0; attempt < 5 && !caught; ++attempt) {
        int release, status = 0, seen = 0;
        pid_t pid = spawn_held(args, &release);
        if (pid <= 0) break;
        close(release);
        while (!seen && waitpid(pid, &status, WNOHANG) == 0) seen = count_named(dir, ".ikc-tmp-") > 0;
        if (seen) {
            kill(pid, SIGTERM);
            waitpid(pid, &status, 0);
        }
        if (WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) {
            caught = 1;
            CHECK(count_named(dir, ".ikc-tmp-") == 0, "SIGTERM mid-write leaves no temporary (attempt %d)",
                  attempt + 1);
        }
        unlink(out);
    }
    if (!caught) check_skip("could not signal ikc while it was writing");
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

/* A pixel of the mesh: not the panel's white, not the ground grid's grey. */
static int mesh_pixel(const unsigned char *data, int stride, int width, int height, double x, double y) {
    int ix = (int)floor(x), iy = (int)floor(y);
    unsigned px, r, g, b;
    if (ix < 0 || iy < 0 || ix >= width || iy >= height) return 0;
    px = *(const unsigned *)(data + iy * stride + ix * 4);
    r = (px >> 16) & 255;
    g = (px >> 8) & 255;
    b = px & 255;
    if (r >= 235 && g >= 235 && b >= 235) return 0;
    return !(abs((int)r - 0xd5) < 12 && abs((int)g - 0xd9) < 12 && abs((int)b - 0xde) < 12);
}

/* The share of the joints and of the points along the bones (every 2 px,
 * the middle 80% of each bone) drawn in the mesh's colours, from the
 * joints' page points of the --layout sidecar. */
static double bone_coverage(const char *png, const cJSON *joints, long *samples) {
    cairo_surface_t *s = cairo_image_surface_create_from_png(png);
    long covered = 0;
    int n = cJSON_GetArraySize(joints), j, k;
    *samples = 0;
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return 0;
    }
    for (j = 0; j < n; ++j) {
        const cJSON *c = cJSON_GetArrayItem(joints, j);
        int parent = cJSON_GetObjectItem(c, "parent")->valueint;
        double x1 = cJSON_GetObjectItem(c, "x")->valuedouble, y1 = cJSON_GetObjectItem(c, "y")->valuedouble, x0, y0,
               len;
        int steps;
        ++*samples;
        covered += mesh_pixel(cairo_image_surface_get_data(s), cairo_image_surface_get_stride(s),
                              cairo_image_surface_get_width(s), cairo_image_surface_get_height(s), x1, y1);
        if (parent < 0) continue;
        x0 = cJSON_GetObjectItem(cJSON_GetArrayItem(joints, parent), "x")->valuedouble;
        y0 = cJSON_GetObjectItem(cJSON_GetArrayItem(joints, parent), "y")->valuedouble;
        len = hypot(x1 - x0, y1 - y0);
        steps = (int)(len * 0.8 / 2);
        for (k = 0; k <= steps && steps > 0; ++k) {
            double t = 0.1 + 0.8 * k / steps;
            ++*samples;
            covered += mesh_pixel(cairo_image_surface_get_data(s), cairo_image_surface_get_stride(s),
                                  cairo_image_surface_get_width(s), cairo_image_surface_get_height(s),
                                  x0 + (x1 - x0) * t, y0 + (y1 - y0) * t);
        }
    }
    cairo_surface_destroy(s);
    return *samples ? (double)covered / (double)*samples : 0;
}

/* Labels of the sidecar that overlap another label or a drawn joint
 * marker; *count gets how many labels there are. */
static int label_collisions(const cJSON *panel, int *count) {
    const cJSON *labels = cJSON_GetObjectItem(panel, "labels"), *joints = cJSON_GetObjectItem(panel, "joints");
    const cJSON *label, *other, *j;
    double r = cJSON_GetObjectItem(panel, "marker_radius")->valuedouble, a[4], b[4];
    int m, bad = 0;
    *count = cJSON_GetArraySize(labels);
    for (label = labels ? labels->child : NULL; label; label = label->next) {
        const cJSON *box = cJSON_GetObjectItem(label, "box");
        for (m = 0; m < 4; ++m) a[m] = cJSON_GetArrayItem(box, m)->valuedouble;
        for (other = label->next; other; other = other->next) {
            const cJSON *other_box = cJSON_GetObjectItem(other, "box");
            for (m = 0; m < 4; ++m) b[m] = cJSON_GetArrayItem(other_box, m)->valuedouble;
            bad += a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
        }
        for (j = joints ? joints->child : NULL; j; j = j->next) {
            double x = cJSON_GetObjectItem(j, "x")->valuedouble, y = cJSON_GetObjectItem(j, "y")->valuedouble;
            if (!cJSON_IsTrue(cJSON_GetObjectItem(j, "marked"))) continue;
            bad += a[0] < x + r && x - r < a[2] && a[1] < y + r && y - r < a[3];
        }
    }
    return bad;
}

/* A warm pixel: the robot's orange or the clay of the other rigs, never the
 * ground's cool greys and blue-greys (whose blue exceeds their red). */
static int warm_pixel(const unsigned char *data, int stride, int x, int y) {
    unsigned px = *(const unsigned *)(data + y * stride + x * 4);
    return (int)((px >> 16) & 255) > (int)(px & 255) + 8;
}

/* Mesh (warm) pixels on the left, right and top edges of the picture (two
 * pixels in), where a framed figure never reaches. */
static long mesh_on_edges(const char *png) {
    cairo_surface_t *s = cairo_image_surface_create_from_png(png);
    const unsigned char *data;
    int w, h, stride, x, y;
    long on = 0;
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return -1;
    }
    data = cairo_image_surface_get_data(s);
    w = cairo_image_surface_get_width(s);
    h = cairo_image_surface_get_height(s);
    stride = cairo_image_surface_get_stride(s);
    for (y = 36; y < h; ++y) on += warm_pixel(data, stride, 2, y) + warm_pixel(data, stride, w - 3, y);
    for (x = 0; x < w; ++x) on += warm_pixel(data, stride, x, 37);
    cairo_surface_destroy(s);
    return on;
}

/* The page y of joint `name` in the sidecar's panel, or NAN. */
static double joint_page_y(const cJSON *panel, const char *name) {
    const cJSON *j;
    cJSON_ArrayForEach(j, cJSON_GetObjectItem(panel, "joints")) {
        if (strcmp(cJSON_GetObjectItem(j, "name")->valuestring, name) == 0)
            return cJSON_GetObjectItem(j, "y")->valuedouble;
    }
    return NAN;
}

/* Framing: in every view each rig's joints lie inside the panel with a
 * margin of 3% and its mesh touches no edge; the Z-up RiggedFigure stands
 * upright (its neck above its feet on the page). */
static void test_render_framing(void) {
    static const char *const rigs[] = {"gltf/robot.glb", "gltf/girl.glb", "gltf/rigged_figure.glb",
                                       "gltf/male_base_mesh.glb"};
    static const char *const views[] = {"front", "side", "top", "persp"};
    char path[600], png[300], json[300], args[1600], *text = (char *)malloc(1 << 22);
    size_t i, v;
    path_in(png, sizeof png, "frame.png");
    path_in(json, sizeof json, "frame.json");
    for (i = 0; i < sizeof rigs / sizeof rigs[0] && text; ++i) {
        if (!real_asset(rigs[i], path, sizeof path)) break;
        for (v = 0; v < 4; ++v) {
            cJSON *doc, *panel;
            const cJSON *j;
            int outside = 0;
            snprintf(args, sizeof args, "render '%s' --view %s --size 600x500 --layout '%s' -q -o '%s'", path, views[v],
                     json, png);
            CHECK(run(args) == 0, "%s: %s", args, err_text);
            read_text(json, text, 1 << 22);
            doc = cJSON_Parse(text);
            panel = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "panels"), 0);
            cJSON_ArrayForEach(j, cJSON_GetObjectItem(panel, "joints")) {
                double x = cJSON_GetObjectItem(j, "x")->valuedouble, y = cJSON_GetObjectItem(j, "y")->valuedouble;
                outside += !(x > 600 * 0.03 && x < 600 * 0.97 && y > 34 + 466 * 0.03 && y < 500 * 0.97);
            }
            CHECK(panel && outside == 0, "%s --view %s: %d joints outside the margin", rigs[i], views[v], outside);
            CHECK(mesh_on_edges(png) == 0, "%s --view %s: the mesh reaches the picture's edge", rigs[i], views[v]);
            if (i == 2 && v != 2)
                CHECK(joint_page_y(panel, "neck_joint_2") < joint_page_y(panel, "leg_joint_L_5"),
                      "RiggedFigure --view %s stands upright", views[v]);
            cJSON_Delete(doc);
        }
    }
    free(text);
}

/* ---- labels beside the figure (issue 26, item 5) ------------------------------ */

static double json_at(const cJSON *array, int k) { return cJSON_GetArrayItem(array, k)->valuedouble; }

/* The sidecar panel's silhouette (the figure's triangles as drawn) filled
 * by cairo without antialiasing on a w x h mask, or NULL. */
static cairo_surface_t *silhouette_mask(const cJSON *panel, int w, int h) {
    const cJSON *t = cJSON_GetObjectItem(panel, "silhouette");
    cairo_surface_t *mask = cairo_image_surface_create(CAIRO_FORMAT_A8, w, h);
    cairo_t *cr = cairo_create(mask);
    int n = cJSON_GetArraySize(t), k;
    const cJSON *v = t ? t->child : NULL;
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    for (k = 0; k + 6 <= n; k += 6) {
        double c[6];
        int e;
        for (e = 0; e < 6; ++e, v = v->next) c[e] = v->valuedouble;
        cairo_move_to(cr, c[0], c[1]);
        cairo_line_to(cr, c[2], c[3]);
        cairo_line_to(cr, c[4], c[5]);
        cairo_close_path(cr);
    }
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
    cairo_fill(cr);
    cairo_destroy(cr);
    cairo_surface_flush(mask);
    return mask;
}

/* The share of box [x0, y0, x1, y1]'s pixels (their centres inside it)
 * that the mask covers. */
static double covered_share(cairo_surface_t *mask, const double *b) {
    const unsigned char *data = cairo_image_surface_get_data(mask);
    int stride = cairo_image_surface_get_stride(mask), w = cairo_image_surface_get_width(mask);
    int h = cairo_image_surface_get_height(mask), x, y;
    long inside = 0, covered = 0;
    for (y = (int)ceil(b[1] - 0.5); y + 0.5 <= b[3]; ++y)
        for (x = (int)ceil(b[0] - 0.5); x + 0.5 <= b[2]; ++x) {
            ++inside;
            covered += x >= 0 && y >= 0 && x < w && y < h && data[y * stride + x] >= 128;
        }
    return inside ? (double)covered / (double)inside : 0;
}

/* 1 when segment s passes through box b shrunk by 1 pixel (sampled every
 * quarter pixel). */
static int segment_through(const double *seg, const double *b) {
    double len = hypot(seg[2] - seg[0], seg[3] - seg[1]);
    int steps = (int)(len * 4) + 1, k;
    for (k = 0; k <= steps; ++k) {
        double t = (double)k / steps, x = seg[0] + (seg[2] - seg[0]) * t, y = seg[1] + (seg[3] - seg[1]) * t;
        if (x > b[0] + 1 && x < b[2] - 1 && y > b[1] + 1 && y < b[3] - 1) return 1;
    }
    return 0;
}

typedef struct label_figures {
    int labels, wanted;
    int overlapping; /* labels over another by more than 5 % of the smaller box */
    int on_figure;   /* labels with more than 5 % of their box on the silhouette */
    int unjoined;    /* leaders not from their own joint to their own box, or through another label */
    int unreadable;  /* boxes less than 13 pixels high (text under 9) */
    int misnamed;    /* names that are not prefix + text */
    double worst_figure;
} label_figures;

/* What the sidecar panel's labels do, measured on its own geometry: boxes
 * against each other and against the silhouette rasterised here, leaders
 * against their joints' page points and boxes. */
static label_figures label_checks(const cJSON *panel, int w, int h) {
    const cJSON *labels = cJSON_GetObjectItem(panel, "labels"), *joints = cJSON_GetObjectItem(panel, "joints"), *a, *b;
    const char *prefix = cJSON_GetStringValue(cJSON_GetObjectItem(panel, "prefix"));
    cairo_surface_t *mask = silhouette_mask(panel, w, h);
    label_figures f;
    memset(&f, 0, sizeof f);
    f.wanted = cJSON_GetObjectItem(panel, "wanted")->valueint;
    cJSON_ArrayForEach(a, labels) {
        double box[4], lead[4], share, jx, jy, ex, ey;
        const cJSON *joint = cJSON_GetArrayItem(joints, cJSON_GetObjectItem(a, "joint")->valueint);
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(a, "name"));
        const char *text = cJSON_GetStringValue(cJSON_GetObjectItem(a, "text"));
        int k;
        ++f.labels;
        for (k = 0; k < 4; ++k) {
            box[k] = json_at(cJSON_GetObjectItem(a, "box"), k);
            lead[k] = json_at(cJSON_GetObjectItem(a, "leader"), k);
        }
        share = covered_share(mask, box);
        f.on_figure += share > 0.05;
        if (share > f.worst_figure) f.worst_figure = share;
        f.unreadable += box[3] - box[1] < 13;
        f.misnamed += !prefix || !name || !text || strncmp(name, prefix, strlen(prefix)) != 0 ||
                      strcmp(name + strlen(prefix), text) != 0;
        /* the leader starts on the label's own joint and ends on its box's edge */
        jx = cJSON_GetObjectItem(joint, "x")->valuedouble;
        jy = cJSON_GetObjectItem(joint, "y")->valuedouble;
        ex = fmin(fmax(lead[2], box[0]), box[2]);
        ey = fmin(fmax(lead[3], box[1]), box[3]);
        f.unjoined += hypot(lead[0] - jx, lead[1] - jy) > 0.01 || hypot(lead[2] - ex, lead[3] - ey) > 0.01 ||
                      fmin(fmin(lead[2] - box[0], box[2] - lead[2]), fmin(lead[3] - box[1], box[3] - lead[3])) > 0.6;
        cJSON_ArrayForEach(b, labels) {
            double other[4], ix, iy;
            if (b == a) continue;
            for (k = 0; k < 4; ++k) other[k] = json_at(cJSON_GetObjectItem(b, "box"), k);
            f.unjoined += segment_through(lead, other);
            ix = fmin(box[2], other[2]) - fmax(box[0], other[0]);
            iy = fmin(box[3], other[3]) - fmax(box[1], other[1]);
            if (b > a && ix > 0 && iy > 0)
                f.overlapping += ix * iy > 0.05 * fmin((box[2] - box[0]) * (box[3] - box[1]),
                                                       (other[2] - other[0]) * (other[3] - other[1]));
        }
    }
    cairo_surface_destroy(mask);
    return f;
}

/* Render `args` (an input and its options) at 1000 x 800 with the layout
 * sidecar and check every panel's labels (label_checks): none on another
 * or on the figure by more than 5 %, each joined to its own joint, readable,
 * named without `prefix`; at least `min_share` of the joints asked for
 * named. Returns the labels placed. */
static int check_labels_of(const char *what, const char *args_in, const char *prefix, double min_share) {
    char png[300], json[300], args[2000], *text = (char *)malloc(1 << 23);
    cJSON *doc, *panel;
    int placed = 0;
    path_in(png, sizeof png, "labels.png");
    path_in(json, sizeof json, "labels.json");
    snprintf(args, sizeof args, "render %s --size 1000x800 --layout '%s' -q -o '%s'", args_in, json, png);
    if (!text) return 0;
    CHECK(run(args) == 0, "%s: %s", args, err_text);
    read_text(json, text, 1 << 23);
    doc = cJSON_Parse(text);
    free(text);
    CHECK(doc != NULL, "%s: the layout sidecar parses", what);
    cJSON_ArrayForEach(panel, cJSON_GetObjectItem(doc, "panels")) {
        label_figures f = label_checks(panel, 1000, 800);
        const char *got = cJSON_GetStringValue(cJSON_GetObjectItem(panel, "prefix"));
        placed += f.labels;
        CHECK(f.overlapping == 0 && f.on_figure == 0,
              "%s: %d of %d labels over another, %d on the figure (worst %.1f %% of its box)", what, f.overlapping,
              f.labels, f.on_figure, f.worst_figure * 100);
        CHECK(f.unjoined == 0 && f.unreadable == 0,
              "%s: %d leaders not joining their label to its joint, %d labels "
              "too small to read",
              what, f.unjoined, f.unreadable);
        CHECK(got && strcmp(got, prefix) == 0 && f.misnamed == 0,
              "%s: prefix '%s' (want '%s') dropped from every "
              "label: %d misnamed",
              what, got ? got : "(none)", prefix, f.misnamed);
        CHECK((f.wanted == 0 || f.labels >= 1) && f.labels >= min_share * f.wanted, "%s: %d of %d joints named", what,
              f.labels, f.wanted);
        printf("%s: %d of %d joints named, worst %.1f %% on the figure\n", what, f.labels, f.wanted,
               f.worst_figure * 100);
    }
    cJSON_Delete(doc);
    return placed;
}

/* Mixamo-like variants of the shared rigs (tests/outside/variants.py:
 * mixamorig: names, a 0.01 armature in centimetres, Z-up, A-pose) written
 * into the work folder; 0 (skipped) where Python or numpy is missing. */
static int write_variants(void) {
    char cmd[3000];
    const char *data = getenv("IKIT_DATA");
    snprintf(cmd, sizeof cmd,
             "cd '%s/tests/outside' && /usr/bin/python3 -c \"import os, variants\n"
             "g, o = os.path.join('%s', 'gltf'), '%s'\n"
             "variants.mixamo_like(os.path.join(g, 'male_base_mesh.glb'), os.path.join(o, 'mixamo_male.glb'))\n"
             "variants.mixamo_like(os.path.join(g, 'male_base_mesh.glb'), os.path.join(o, 'mixamo_male_zup.glb'), "
             "zup=True)\n"
             "variants.mixamo_like(os.path.join(g, 'male_base_mesh.glb'), os.path.join(o, 'mixamo_male_apose.glb'), "
             "apose=40.0)\n"
             "variants.mixamo_like(os.path.join(g, 'girl.glb'), os.path.join(o, 'mixamo_girl.glb'))\n"
             "variants.mixamo_like(os.path.join(g, 'robot.glb'), os.path.join(o, 'mixamo_robot.glb'))\n"
             "\" >/dev/null 2>&1",
             IKIT_SOURCE_DIR, data ? data : "", work_dir);
    if (system(cmd) != 0) {
        check_skip("Mixamo-like variants not written (/usr/bin/python3 with numpy needed)");
        return 0;
    }
    return 1;
}

/* Labels outside the figure (issue 26, item 5) on every glTF character of
 * the corpus and on Mixamo-like variants (names with mixamorig:, the male
 * rig's many finger joints, Z-up, A-pose), in the default, front and side
 * views, the roles and every joint: no label over another or the figure's
 * silhouette by more than 5 % of its box, each joined to its own joint by
 * its leader, readable at 1000 x 800, the common prefix dropped; and in a
 * clip's frame and a solved pose. Rigs and variants from first to end. */
static void labels_beside_figure(size_t first, size_t end, int with_poses) {
    static const char *const rigs[] = {"gltf/robot.glb", "gltf/girl.glb", "gltf/rigged_figure.glb",
                                       "gltf/male_base_mesh.glb", "gltf/SimpleSkin.gltf"};
    static const char *const variants[] = {"mixamo_male", "mixamo_male_zup", "mixamo_male_apose", "mixamo_girl",
                                           "mixamo_robot"};
    static const char *const views[] = {"persp", "front", "side"};
    char path[600], args[1200], what[700], posed[300];
    size_t i, v;
    for (i = first; i < end && i < sizeof rigs / sizeof rigs[0]; ++i) {
        if (!real_asset(rigs[i], path, sizeof path)) return;
        for (v = 0; v < 3; ++v) {
            snprintf(args, sizeof args, "'%s' --view %s", path, views[v]);
            snprintf(what, sizeof what, "%s --view %s", rigs[i], views[v]);
            check_labels_of(what, args, "", i == 4 ? 0 : 0.9);
            snprintf(args, sizeof args, "'%s' --view %s --labels all", path, views[v]);
            snprintf(what, sizeof what, "%s --view %s --labels all", rigs[i], views[v]);
            check_labels_of(what, args, "", 0.5);
        }
    }
    if (with_poses && real_asset("gltf/robot.glb", path, sizeof path)) {
        snprintf(args, sizeof args, "'%s' --clip Robot_Walking --time 0.4 --labels roles", path);
        check_labels_of("robot.glb walking, t = 0.4 s", args, "", 0.9);
    }
    if (with_poses && real_asset("gltf/male_base_mesh.glb", path, sizeof path)) {
        path_in(posed, sizeof posed, "labels_posed.glb");
        snprintf(args, sizeof args, "solve '%s' --left-hand 0.35,1.2,0.35 --right-foot -0.15,0.3,0.25 -o '%s'", path,
                 posed);
        CHECK(run(args) == 0, "%s: %s", args, err_text);
        snprintf(args, sizeof args, "'%s'", posed);
        check_labels_of("male_base_mesh.glb, a solved pose", args, "", 0.9);
    }
    if (!write_variants()) return;
    for (i = first; i < end && i < sizeof variants / sizeof variants[0]; ++i)
        for (v = 0; v < 3; ++v) {
            snprintf(args, sizeof args, "'%s/%s.glb' --view %s --labels %s", work_dir, variants[i], views[v],
                     v == 1 ? "all" : "roles");
            snprintf(what, sizeof what, "%s --view %s --labels %s", variants[i], views[v], v == 1 ? "all" : "roles");
            check_labels_of(what, args, "mixamorig:", v == 1 ? 0.5 : 0.9);
        }
}

/* Every configuration: the robot, a variant, a clip's frame and a solved
 * pose; the other rigs and variants in the float configuration's sweep. */
static void test_labels_beside_figure(void) { labels_beside_figure(0, 1, 1); }
static void test_labels_beside_figure_sweep(void) { labels_beside_figure(1, 5, 0); }

/* Labels on generated rigs of 1,500 joints, a chain and a root with 1,499
 * leaves at one point (issue 18: the layout tested every marker for every
 * spot of every label, and found tips by a scan each): every joint named
 * (--labels all), the first IKC_LABEL_TRIES (1,000) are tried, and those
 * placed overlap neither each other nor a marker; tips named (roles) too. */
static void test_render_many_labels(void) {
    static const char *const modes[] = {"all", "roles"};
    char gltf[300], png[300], json[300], args[1200], *text;
    int deep, m;
    path_in(gltf, sizeof gltf, "many.gltf");
    path_in(png, sizeof png, "many.png");
    path_in(json, sizeof json, "many.json");
    text = (char *)malloc(1 << 22);
    if (!text) return;
    for (deep = 0; deep < 2; ++deep)
        for (m = 0; m < 2; ++m) {
            char *doc = big_rig_gltf(1500, deep);
            cJSON *layout, *panel;
            int labels, bad;
            if (!doc) break;
            write_text(gltf, doc);
            free(doc);
            snprintf(args, sizeof args, "render '%s' --labels %s --layout '%s' -q -o '%s'", gltf, modes[m], json, png);
            CHECK(run(args) == 0, "%s: %s", args, err_text);
            read_text(json, text, 1 << 22);
            layout = cJSON_Parse(text);
            panel = cJSON_GetArrayItem(cJSON_GetObjectItem(layout, "panels"), 0);
            CHECK(panel != NULL, "1,500 joints %s, --labels %s: layout sidecar", deep ? "deep" : "wide", modes[m]);
            if (panel) {
                bad = label_collisions(panel, &labels);
                CHECK(bad == 0 && labels > 0 && labels <= 1000,
                      "1,500 joints %s, --labels %s: %d labels placed, %d collisions", deep ? "deep" : "wide", modes[m],
                      labels, bad);
            }
            cJSON_Delete(layout);
        }
    free(text);
    remove(gltf);
    remove(png);
    remove(json);
}

/* Issue 17: every glTF rig drawn with its skinned mesh over its bones (at
 * least 75% of the points along the bones are mesh pixels: pole targets and
 * other helper bones stick out of some bodies), a picture that is not blank,
 * and labels, named by role or all of them, that overlap neither each other
 * nor a joint marker. */
static void test_render_meshes(void) {
    static const char *const rigs[] = {"gltf/robot.glb", "gltf/girl.glb", "gltf/rigged_figure.glb",
                                       "gltf/male_base_mesh.glb", "gltf/SimpleSkin.gltf"};
    static const char *const label_modes[] = {"none", "roles", "all"};
    char path[600], png[300], json[300], args[1600], *text;
    size_t i, m;
    path_in(png, sizeof png, "rig.png");
    path_in(json, sizeof json, "rig.json");
    for (i = 0; i < sizeof rigs / sizeof rigs[0]; ++i) {
        if (!real_asset(rigs[i], path, sizeof path)) return;
        for (m = 0; m < 3; ++m) {
            cJSON *doc, *panel;
            int w, h, labels, bad;
            long drawn, bone, samples;
            snprintf(args, sizeof args, "render '%s' --labels %s --layout '%s' -q -o '%s'", path, label_modes[m], json,
                     png);
            CHECK(run(args) == 0, "%s: %s", args, err_text);
            drawn = drawn_pixels(png, &w, &h, &bone);
            CHECK(drawn > (long)w * h / 20, "%s: not blank (%ld of %d pixels drawn)", rigs[i], drawn, w * h);
            text = (char *)malloc(1 << 22);
            read_text(json, text, 1 << 22);
            doc = cJSON_Parse(text);
            free(text);
            panel = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "panels"), 0);
            CHECK(panel != NULL, "%s: layout sidecar", rigs[i]);
            if (!panel) {
                cJSON_Delete(doc);
                continue;
            }
            if (m == 0) {
                double cover = bone_coverage(png, cJSON_GetObjectItem(panel, "joints"), &samples);
                CHECK(samples >= 2 && cover >= 0.75, "%s: the mesh covers %.0f%% of %ld points along the bones",
                      rigs[i], cover * 100, samples);
                printf("%s: mesh over %.1f%% of %ld bone points\n", rigs[i], cover * 100, samples);
            }
            bad = label_collisions(panel, &labels);
            CHECK(bad == 0, "%s --labels %s: %d collisions among %d labels", rigs[i], label_modes[m], bad, labels);
            CHECK(m == 0 ? labels == 0 : labels > 0 || i == 4, "%s --labels %s: %d labels", rigs[i], label_modes[m],
                  labels);
            cJSON_Delete(doc);
        }
    }
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
    /* the reader refuses it (issue 18 item 11), naming the joint */
    CHECK(run(args) == 4 && strstr(err_text, "'LeftFoot': rest position overflows") && file_size(png) < 0,
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

/* The pictures `ikc demo` writes, one PNG per scene, in the order it writes them. */
static const char *const demo_pictures[] = {"humanoid",
                                            "humanoid_limits",
                                            "leg_two_bone",
                                            "head_look_at",
                                            "tail_springs",
                                            "arms_fabrik_ccd",
                                            "walk_stairs",
                                            "retarget",
                                            "humanoid_uneven_ground",
                                            "humanoid_stairs_up",
                                            "humanoid_stairs_across",
                                            "humanoid_staff",
                                            "humanoid_look_at",
                                            "humanoid_full_body"};
enum { DEMO_PICTURES = (int)(sizeof demo_pictures / sizeof demo_pictures[0]) };

/* The demo's closing summary in out_text: "Written to DIR/: N files, X MB",
 * then one line per file naming it, in the order written, then which to open
 * first. Checks that it lists every picture and scene.gltf, that N is the
 * directory's file count and X MB their size, and that the file to open
 * first is one it wrote. */
static void check_demo_summary(const char *dir, int files_expected) {
    char head[400], path[400], open_line[400], line_name[80];
    const char *summary, *at, *first;
    double mb = -1, bytes = 0;
    int files = -1, i, in_order = 1, on_disk = count_named(dir, "") - 2; /* less . and .. */
    snprintf(head, sizeof head, "\nWritten to %s/: ", dir);
    summary = strstr(out_text, head);
    CHECK(summary != NULL, "the demo ends with a summary of what it wrote: %.300s", out_text);
    if (!summary) return;
    CHECK(sscanf(summary + strlen(head), "%d files, %lf MB", &files, &mb) == 2 && files == files_expected &&
              on_disk == files_expected,
          "summary counts %d files, the directory holds %d, expected %d", files, on_disk, files_expected);
    at = summary;
    for (i = 0; i <= DEMO_PICTURES; ++i) {
        const char *found;
        snprintf(line_name, sizeof line_name, "\n  %s%s ", i < DEMO_PICTURES ? demo_pictures[i] : "scene",
                 i < DEMO_PICTURES ? ".png" : ".gltf");
        found = strstr(at, line_name);
        in_order &= found != NULL;
        if (found) at = found + 1;
        snprintf(path, sizeof path, "%s/%s", dir, line_name + 3);
        path[strlen(path) - 1] = '\0';
        bytes += (double)file_size(path);
    }
    CHECK(in_order, "the summary lists every picture and scene.gltf in the order written: %s", summary);
    if (files_expected > DEMO_PICTURES + 1)
        for (i = 0; i < DEMO_PICTURES; ++i) {
            snprintf(path, sizeof path, "%s/%s.svg", dir, demo_pictures[i]);
            bytes += (double)file_size(path);
        }
    if (files_expected > 2 * DEMO_PICTURES + 1)
        for (i = 0; i < DEMO_PICTURES; ++i) {
            snprintf(path, sizeof path, "%s/%s.layout.json", dir, demo_pictures[i]);
            bytes += (double)file_size(path);
        }
    CHECK(mb >= 0 && fabs(mb - bytes / 1e6) <= 0.051, "summary says %.1f MB, the files hold %.2f MB", mb, bytes / 1e6);
    snprintf(open_line, sizeof open_line, "\nOpen %s/", dir);
    first = strstr(at, open_line);
    CHECK(first != NULL, "the summary says which picture to open first: %s", summary);
    if (first) {
        char name[80] = "";
        sscanf(first + strlen(open_line), "%79[^ ]", name);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        CHECK(strstr(name, ".png") && file_size(path) > 1000 &&
                  strncmp(first + strlen(open_line) + strlen(name), " first", 6) == 0,
              "the picture to open first (%s) is a PNG the demo wrote", name);
    }
}

/* Issue 26, item 7: every panel of every demo picture framed on what it
 * shows, from the layout the demo wrote beside it: the figure (its joints
 * and its silhouette as drawn: mesh, bones, props) spans at least half of
 * its panel's height and lies inside the panel; and the labels of the
 * pictures that name joints sit beside the figure (label_checks). */
/* Pixels of the PNG in rows y0..y1 that are warm (warm_pixel: the clay of a
 * body) or, with `teal`, of the tail's cube (green and blue well over red). */
static long colour_pixels(const char *png, int y0, int y1, int teal) {
    cairo_surface_t *s = cairo_image_surface_create_from_png(png);
    const unsigned char *data = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s), x, y;
    long count = 0;
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return -1;
    }
    for (y = y0 < 0 ? 0 : y0; y < y1 && y < cairo_image_surface_get_height(s); ++y)
        for (x = 0; x < cairo_image_surface_get_width(s); ++x) {
            unsigned px = *(const unsigned *)(data + y * stride + x * 4);
            int r = (int)((px >> 16) & 255), g = (int)((px >> 8) & 255), b = (int)(px & 255);
            count += teal ? g > r + 40 && b > r + 40 : warm_pixel(data, stride, x, y);
        }
    cairo_surface_destroy(s);
    return count;
}

static void check_demo_framing(const char *dir) {
    char path[400], *text = (char *)malloc(1 << 24);
    int i;
    for (i = 0; i < DEMO_PICTURES && text; ++i) {
        cJSON *doc, *panel;
        int k = 0, w, h;
        long bone;
        double tallest = 0;
        snprintf(path, sizeof path, "%s/%s.png", dir, demo_pictures[i]);
        drawn_pixels(path, &w, &h, &bone);
        snprintf(path, sizeof path, "%s/%s.layout.json", dir, demo_pictures[i]);
        read_text(path, text, 1 << 24);
        doc = cJSON_Parse(text);
        CHECK(doc != NULL, "%s: the demo's layout parses", path);
        cJSON_ArrayForEach(panel, cJSON_GetObjectItem(doc, "panels")) {
            const cJSON *box = cJSON_GetObjectItem(panel, "panel"), *j, *v;
            double top = 1e300, bottom = -1e300, left = 1e300, right = -1e300, py = json_at(box, 1),
                   ph = json_at(box, 3);
            int n = 0;
            cJSON_ArrayForEach(j, cJSON_GetObjectItem(panel, "joints")) {
                top = fmin(top, cJSON_GetObjectItem(j, "y")->valuedouble);
                bottom = fmax(bottom, cJSON_GetObjectItem(j, "y")->valuedouble);
                left = fmin(left, cJSON_GetObjectItem(j, "x")->valuedouble);
                right = fmax(right, cJSON_GetObjectItem(j, "x")->valuedouble);
            }
            cJSON_ArrayForEach(v, cJSON_GetObjectItem(panel, "silhouette")) {
                if (n++ % 2) {
                    top = fmin(top, v->valuedouble);
                    bottom = fmax(bottom, v->valuedouble);
                } else {
                    left = fmin(left, v->valuedouble);
                    right = fmax(right, v->valuedouble);
                }
            }
            /* panels of one picture share a scale, so a crouching figure is
             * shorter than a standing one: each at least 40 %, the tallest 50 % */
            CHECK(bottom - top >= 0.4 * ph, "%s panel %d: the figure spans %.0f %% of the panel's height",
                  demo_pictures[i], k, (bottom - top) / ph * 100);
            tallest = fmax(tallest, (bottom - top) / ph);
            CHECK(
                top >= py && bottom <= py + ph && left >= json_at(box, 0) && right <= json_at(box, 0) + json_at(box, 2),
                "%s panel %d: the figure inside its panel", demo_pictures[i], k);
            if (cJSON_GetArraySize(cJSON_GetObjectItem(panel, "labels")) > 0) {
                label_figures f = label_checks(panel, w, h);
                CHECK(f.overlapping == 0 && f.on_figure == 0 && f.unjoined == 0 && f.labels >= 0.9 * f.wanted,
                      "%s panel %d: %d of %d labels placed; %d over another, %d on the figure, %d not joined to their "
                      "joint",
                      demo_pictures[i], k, f.labels, f.wanted, f.overlapping, f.on_figure, f.unjoined);
            }
            ++k;
        }
        CHECK(tallest >= 0.5, "%s: its tallest figure spans %.0f %% of its panel's height", demo_pictures[i],
              tallest * 100);
        cJSON_Delete(doc);
    }
    free(text);
}

static void test_demo(void) {
    char dir[300], args[400], path[400], svg[400], text[64];
    ik_gltf *scene = NULL;
    int i, w, h, svg_ok = 1;
    long bone, drawn;
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
    /* PNG pictures only by default, each a real picture with something drawn in it */
    for (i = 0; i < DEMO_PICTURES; ++i) {
        snprintf(path, sizeof path, "%s/%s.png", dir, demo_pictures[i]);
        drawn = drawn_pixels(path, &w, &h, &bone);
        CHECK(drawn > 10000 && w >= 400 && h >= 300, "demo wrote %s.png: a %dx%d PNG, %ld pixels drawn",
              demo_pictures[i], w, h, drawn);
    }
    CHECK(count_named(dir, ".svg") == 0, "no SVG without --svg: %d", count_named(dir, ".svg"));
    snprintf(path, sizeof path, "%s/leg_two_bone.png", dir);
    CHECK(drawn_pixels(path, &w, &h, &bone) > 10000 && bone > 1000, "leg picture has a skeleton in it");
    snprintf(path, sizeof path, "%s/humanoid_staff.png", dir);
    CHECK(drawn_pixels(path, &w, &h, &bone) > 10000 && bone > 1000, "staff picture has figures in it");
    /* issue 26, item 7: the tail's cube is drawn (a face or more in each of
     * the six panels), the retargeted figure below the source has a body */
    snprintf(path, sizeof path, "%s/tail_springs.png", dir);
    CHECK(colour_pixels(path, 0, 100000, 1) > 6 * 300, "tail_springs.png draws the cube: %ld of its pixels",
          colour_pixels(path, 0, 100000, 1));
    snprintf(path, sizeof path, "%s/retarget.png", dir);
    drawn_pixels(path, &w, &h, &bone);
    CHECK(colour_pixels(path, h / 2 + 20, h, 0) > (long)w * h / 40,
          "retarget.png: the retargeted figures have "
          "bodies: %ld body pixels in the lower row",
          colour_pixels(path, h / 2 + 20, h, 0));
    snprintf(path, sizeof path, "%s/scene.gltf", dir);
    CHECK(ik_gltf_read_file(path, &scene, NULL) == IK_OK && ik_gltf_skin_count(scene) == 6,
          "demo glTF loads with the humanoid, the tail and the four humanoid scenes");
    ik_gltf_free(scene);
    check_demo_summary(dir, DEMO_PICTURES + 1);
    CHECK(strstr(out_text, "--svg") != NULL, "the summary says how to get SVG pictures");

    /* --svg: each picture as SVG too, beside its PNG; --layout: where
     * everything in it went, beside it too */
    path_in(dir, sizeof dir, "demo_svg");
    snprintf(args, sizeof args, "demo --svg --layout -o '%s'", dir);
    CHECK(run(args) == 0, "demo --svg --layout exits 0: %s", err_text);
    for (i = 0; i < DEMO_PICTURES; ++i) {
        snprintf(path, sizeof path, "%s/%s.png", dir, demo_pictures[i]);
        snprintf(svg, sizeof svg, "%s/%s.svg", dir, demo_pictures[i]);
        read_text(svg, text, sizeof text);
        svg_ok &= file_size(path) > 1000 && file_size(svg) > 1000 && strncmp(text, "<?xml", 5) == 0 &&
                  strstr(text, "<svg") != NULL;
    }
    CHECK(svg_ok, "demo --svg wrote an SVG beside every PNG");
    check_demo_summary(dir, 3 * DEMO_PICTURES + 1);
    check_demo_framing(dir);
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
/* --reach ROLE=x,y,z --pin ROLE --balance (full_body.h): a hand sent 1.2
 * arm lengths ahead of its shoulder at its height lands on the target
 * (the body leans), the pinned feet stay, the centre of mass stays over
 * them; the written file reloads with the hand there; unknown roles and a
 * mix with the per-limb options are usage errors. */
static void test_solve_full_body(void) {
    static const char *const files[] = {"gltf/male_base_mesh.glb", "bvh/131_01.bvh"};
    int i;
    for (i = 0; i < (int)(sizeof files / sizeof files[0]); ++i) {
        character before, after;
        char path[900], out[300], args[2000];
        const ik_humanoid_limb *arm;
        ik_real reach;
        ik_vec3 shoulder, target, feet[2];
        cJSON *doc, *body, *hand_item, *balance;
        int k;
        if (!real_asset(files[i], path, sizeof path)) continue;
        if (!character_load(&before, path, 0)) {
            CHECK(0, "%s: the library finds its humanoid", files[i]);
            character_free(&before);
            continue;
        }
        arm = &before.rig.limb[IK_LIMB_ARM_L];
        reach = limb_length_ms(&before, IK_LIMB_ARM_L);
        shoulder = joint_ms(&before, arm->start);
        target = ik_vec3_mad(shoulder, before.forward, 1.2f * reach);
        for (k = 0; k < 2; ++k) feet[k] = joint_ms(&before, before.rig.limb[IK_LIMB_LEG_L + k].end);
        snprintf(out, sizeof out, "%s/body%d.%s", work_dir, i, strstr(files[i], ".bvh") ? "bvh" : "glb");
        snprintf(args, sizeof args,
                 "solve '%s' --reach left_hand=%.6f,%.6f,%.6f --pin left_foot --pin right_foot --balance --json "
                 "-o '%s'",
                 path, (double)target.x, (double)target.y, (double)target.z, out);
        CHECK(run(args) == 0, "%s: solve --reach: %s", files[i], err_text);
        doc = cJSON_Parse(out_text);
        body = doc ? cJSON_GetObjectItem(doc, "full_body") : NULL;
        hand_item = body ? cJSON_GetArrayItem(cJSON_GetObjectItem(body, "effectors"), 0) : NULL;
        balance = body ? cJSON_GetObjectItem(body, "balance") : NULL;
        CHECK(hand_item && cJSON_IsTrue(cJSON_GetObjectItem(hand_item, "reached")) &&
                  strcmp(cJSON_GetObjectItem(hand_item, "role")->valuestring, "left_hand") == 0,
              "%s: --json reports the left hand reached: %.400s", files[i], out_text);
        CHECK(balance && strcmp(cJSON_GetObjectItem(balance, "status")->valuestring, "kept") == 0 &&
                  cJSON_GetObjectItem(balance, "support_distance")->valuedouble >= 0,
              "%s: balanced: %.400s", files[i], out_text);
        cJSON_Delete(doc);
        if (!character_load(&after, out, 1)) {
            CHECK(0, "%s: the written file loads back as a humanoid", files[i]);
        } else {
            int hand = ik_skeleton_find(after.skeleton, ik_skeleton_name(before.skeleton, arm->end));
            CHECK(hand >= 0 && ik_vec3_distance(joint_ms(&after, hand), target) <= 2e-3f * reach,
                  "%s: the reloaded hand is on the target", files[i]);
            for (k = 0; k < 2; ++k) {
                int foot = ik_skeleton_find(after.skeleton,
                                            ik_skeleton_name(before.skeleton, before.rig.limb[IK_LIMB_LEG_L + k].end));
                CHECK(foot >= 0 && ik_vec3_distance(joint_ms(&after, foot), feet[k]) <= 2e-3f * reach,
                      "%s: pinned foot %d stayed", files[i], k);
            }
        }
        character_free(&after);
        character_free(&before);
        snprintf(args, sizeof args, "solve '%s' --reach left_elbow=0,1,0 --json", path);
        CHECK(run(args) == 2 && strstr(err_text, "no effector's role") && strstr(err_text, "left_hand"),
              "%s: an unknown role is refused with the effectors listed: %s", files[i], err_text);
        snprintf(args, sizeof args, "solve '%s' --pin right_hand --json", path);
        CHECK(run(args) == 2 && strstr(err_text, "hands are not pinned"), "%s: a pinned hand: %s", files[i], err_text);
        snprintf(args, sizeof args, "solve '%s' --reach left_hand=0,1,0 --left-foot 0,0,0 --json", path);
        CHECK(run(args) == 2 && strstr(err_text, "per-limb"), "%s: mixed with --left-foot: %s", files[i], err_text);
        snprintf(args, sizeof args, "solve '%s' --reach left_hand=nan,1,0 --json", path);
        CHECK(run(args) == 2, "%s: a NaN target: %s", files[i], err_text);
    }
}

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

/* `solve TAKE.bvh --clip motion --time T -o out.bvh` writes the whole take:
 * as many frames, every other frame's values as they were, the solved
 * frame's ankle on the target (before, one frame of 994 was written). */
static void test_solve_bvh_take(void) {
    char path[900], out[300], args[2000];
    ik_bvh *before = NULL, *after = NULL;
    ik_transform *pose = NULL;
    ik_mat4 *model = NULL;
    const double time = 2.0;
    int frame, ankle, hip, i, changed = 0;
    ik_vec3 target;
    if (!real_asset("bvh/131_01.bvh", path, sizeof path)) return;
    if (ik_bvh_read_file(path, &before, NULL) != IK_OK) {
        CHECK(0, "131_01.bvh loads");
        return;
    }
    frame = (int)(time / before->frame_time + 0.5);
    ankle = ik_skeleton_find(&before->skeleton, "LeftAnkle");
    hip = ik_skeleton_find(&before->skeleton, "LeftHip");
    pose = (ik_transform *)malloc((size_t)before->skeleton.joint_count * sizeof *pose);
    model = (ik_mat4 *)malloc((size_t)before->skeleton.joint_count * sizeof *model);
    ik_skeleton_rest_pose(&before->skeleton, pose);
    ik_clip_sample(&before->clip, (ik_real)time, pose);
    ik_skeleton_fk(&before->skeleton, pose, NULL, model);
    /* the ankle pulled a third of the way toward its hip: a bent knee */
    target = ik_vec3_lerp(ik_mat4_translation(&model[ankle]), ik_mat4_translation(&model[hip]), 0.3f);
    path_in(out, sizeof out, "take.bvh");
    snprintf(args, sizeof args,
             "solve '%s' --clip motion --time %g --target 'LeftAnkle=%.6f,%.6f,%.6f' -o '%s' --quiet", path, time,
             (double)target.x, (double)target.y, (double)target.z, out);
    CHECK(run(args) == 0, "solve a take: %s", err_text);
    if (ik_bvh_read_file(out, &after, NULL) != IK_OK || after->frame_count != before->frame_count ||
        after->values_per_frame != before->values_per_frame) {
        CHECK(0, "the written take has all %d frames (%d)", before->frame_count, after ? after->frame_count : -1);
    } else {
        for (i = 0; i < before->frame_count; ++i) {
            int k;
            for (k = 0; k < before->values_per_frame; ++k) {
                size_t at = (size_t)i * (size_t)before->values_per_frame + (size_t)k;
                if (i != frame && fabs(after->values[at] - before->values[at]) > 1e-4) {
                    CHECK(0, "frame %d value %d changed: %g -> %g", i, k, before->values[at], after->values[at]);
                    i = before->frame_count;
                    break;
                }
                changed += i == frame && fabs(after->values[at] - before->values[at]) > 1e-4;
            }
        }
        CHECK(changed > 0, "the solved frame %d changed", frame);
        ik_skeleton_rest_pose(&after->skeleton, pose);
        ik_clip_sample(&after->clip, (ik_real)(frame * after->frame_time), pose);
        ik_skeleton_fk(&after->skeleton, pose, NULL, model);
        CHECK(ik_vec3_distance(ik_mat4_translation(&model[ankle]), target) < 2e-3f,
              "the solved frame puts LeftAnkle on the target (%g away)",
              (double)ik_vec3_distance(ik_mat4_translation(&model[ankle]), target));
    }
    free(pose);
    free(model);
    ik_bvh_free(before);
    ik_bvh_free(after);
}

/* Messages name what went wrong: the joint whose zero scale made the
 * geometry degenerate; a one-bone chain whose target is inside its reach
 * can only turn (before: "limits or iterations"); a knee held by its bend
 * limit. */
static void test_solve_messages(void) {
    char leg[300], zero[300], args[1200];
    path_in(leg, sizeof leg, "leg.bvh");
    path_in(zero, sizeof zero, "zero_scale.gltf");
    write_text(zero,
               "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":["
               "{\"name\":\"Hips\",\"translation\":[0,1,0],\"children\":[1]},"
               "{\"name\":\"UpperLeg.L\",\"translation\":[0.1,0,0],\"children\":[2]},"
               "{\"name\":\"LowerLeg.L\",\"translation\":[0,-0.45,0],\"scale\":[0,0,0],\"children\":[3]},"
               "{\"name\":\"Foot.L\",\"translation\":[0,-0.45,0]}],\"skins\":[{\"joints\":[0,1,2,3]}]}");
    snprintf(args, sizeof args, "solve '%s' --target Foot.L=0.1,0.3,0.1 --json", zero);
    CHECK(run(args) == 1 && strstr(err_text, "degenerate geometry") &&
              strstr(err_text, "joint 'LowerLeg.L' has a zero scale"),
          "degenerate geometry names the joint: %s", err_text);
    /* LeftLeg's bone is 0.43 long; the target 0.2 from it */
    snprintf(args, sizeof args, "solve '%s' --target LeftFoot=0.1,0.3,0.1 --chain 2 --json", leg);
    CHECK(run(args) == 0 && strstr(err_text, "a single bone can only turn") && strstr(err_text, "'LeftLeg'") &&
              strstr(err_text, "0.43 long") && !strstr(err_text, "iterations"),
          "one bone, target inside its reach: %s", err_text);
    /* the foot pulled up to the hip: the knee stops at its 150 degrees */
    snprintf(args, sizeof args, "solve '%s' --target LeftFoot=0.1,0.94,0.02 --json", leg);
    CHECK(run(args) == 0 && strstr(err_text, "'LeftLeg' bends at most 150 degrees") && strstr(err_text, "--pole"),
          "a knee at its bend limit: %s", err_text);
}

/* ---- limbs found by name bend their natural way (issue 11, item 4) ---------- */

/* A rig to sweep targets on: a file and where its figure faces and stands
 * in model space, known from how it was made (not from what ikc finds). */
typedef struct bend_rig {
    char label[64], path[900];
    ik_vec3 forward, up;
} bend_rig;

/* A variant of a BVH: every OFFSET mapped by (x, y, z) -> scale * (x, y, z)
 * with x negated (mirror), or turned Z-up ((x, -z, y)). */
static int bvh_variant(const char *from, const char *to, int mirror, int z_up, double scale) {
    ik_bvh *b = NULL;
    int i, ok;
    if (ik_bvh_read_file(from, &b, NULL) != IK_OK) return 0;
    for (i = 0; i < b->joint_count; ++i) {
        double *o = b->joints[i].offset, y = o[1];
        if (mirror) o[0] = -o[0];
        if (z_up) o[1] = -o[2], o[2] = y;
        o[0] *= scale, o[1] *= scale, o[2] *= scale;
    }
    ok = ik_bvh_write_file(b, to, NULL) == IK_OK;
    ik_bvh_free(b);
    return ok;
}

/* A variant of a glTF rig: its body's root joint's rest transform times
 * `local` (a mirror as the scale (-1, 1, 1), a quarter turn, a scale of
 * 100); the figure's axes follow: v -> A local A^-1 v with A the root's
 * model matrix, which `map` gets. The body's root is the root with the most joints below it
 * (girl.glb's IK controls are roots of their own: one of those was
 * mirrored before, leaving the figure as it was). */
static int gltf_variant(const char *from, const char *to, ik_vec3 scale, ik_quat turn, bend_rig *rig, ik_mat4 *map) {
    ik_gltf *g = NULL;
    const ik_gltf_skin *skin;
    ik_transform *pose;
    ik_mat4 a, a_inv, local = ik_mat4_from_trs(ik_vec3_zero(), turn, scale), m;
    int ok = 0, root = -1, most = 0, i, k;
    if (ik_gltf_read_file(from, &g, NULL) != IK_OK) return 0;
    skin = ik_gltf_skeleton(g, 0);
    for (i = 0; i < skin->skeleton.joint_count; ++i) {
        int below = 0;
        if (skin->skeleton.parents[i] >= 0) continue;
        for (k = i + 1; k < skin->skeleton.joint_count; ++k) below += ik_skeleton_is_descendant(&skin->skeleton, k, i);
        if (root < 0 || below > most) root = i, most = below;
    }
    pose = (ik_transform *)malloc((size_t)skin->skeleton.joint_count * sizeof *pose);
    if (root >= 0 && pose) {
        ik_skeleton_rest_pose(&skin->skeleton, pose);
        a = ik_transform_to_mat4(pose[root]);
        a = ik_mat4_mul(&skin->root_ms, &a);
        pose[root].rotation = ik_quat_normalize(ik_quat_mul(pose[root].rotation, turn));
        pose[root].scale = ik_vec3_mul(pose[root].scale, scale);
        if (ik_mat4_inverse(&a, &a_inv)) {
            m = ik_mat4_mul(&a, &local);
            m = ik_mat4_mul(&m, &a_inv);
            *map = m;
            rig->forward = ik_vec3_normalize(ik_mat4_transform_vector(&m, rig->forward));
            rig->up = ik_vec3_normalize(ik_mat4_transform_vector(&m, rig->up));
            ok = ik_gltf_set_pose(g, 0, pose, NULL) == IK_OK && ik_gltf_write_file(g, to, NULL) == IK_OK;
        }
    }
    free(pose);
    ik_gltf_free(g);
    return ok;
}

/* `ikc solve PATH --target END=target --json` from the rest pose: every
 * joint's position into p [count]; `solver` gets the target's solver name.
 * 0 (with `args` for the message) when it does not run or lists other
 * joints. */
static int solve_joints(const char *path, const char *end, ik_vec3 target, ik_vec3 *p, int count, char *solver,
                        size_t solver_size, char *args, size_t args_size) {
    cJSON *doc, *joints, *t0;
    int k, ok;
    snprintf(args, args_size, "solve '%s' --target '%s=%.7g,%.7g,%.7g' --json", path, end, (double)target.x,
             (double)target.y, (double)target.z);
    doc = run(args) == 0 ? cJSON_Parse(out_text) : NULL;
    joints = doc ? cJSON_GetObjectItem(doc, "joints") : NULL;
    t0 = doc ? cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "targets"), 0) : NULL;
    ok = cJSON_GetArraySize(joints) == count && t0;
    for (k = 0; ok && k < count; ++k) p[k] = json_vec3(cJSON_GetObjectItem(cJSON_GetArrayItem(joints, k), "position"));
    if (ok) snprintf(solver, solver_size, "%s", cJSON_GetObjectItem(t0, "solver")->valuestring);
    cJSON_Delete(doc);
    return ok;
}

/* Sweep one limb's end from hanging down to `top` degrees forward, and 30
 * degrees out to its side, at 0.85 limb lengths from its start, each target
 * one `ikc solve --target` from the rest pose, 3 degrees (0.045 limb lengths,
 * 4 cm on a man's leg) apart: the end reaches, the knee stays on the forward
 * side of the hip-ankle line (the elbow on the backward side), and the bend
 * never flips (successive middle-joint offsets within 20 degrees). A
 * mirrored variant (`original` not NULL: the file it was made from, whose
 * model space `map` takes to the variant's) is also solved as the original
 * at the target mapped back: the limb and everything below its end (a foot
 * and its toes, a hand and its fingers) must be the mirror image of the
 * original's within 2e-3 limb lengths. The knee alone does not show a limb
 * rolled half a turn about its hip, bent the other way about its hinge: a
 * mirrored male_base_mesh's toes pointed backward. */
static void sweep_limb(const bend_rig *r, const character *c, int limb, ik_real top, const char *original,
                       const ik_mat4 *map) {
    const ik_humanoid_limb *l = &c->rig.limb[limb];
    const ik_humanoid_limb *other = &c->rig.limb[limb ^ 1];
    ik_real len = limb_length_ms(c, limb), sign = limb >= IK_LIMB_LEG_L ? 1 : -1;
    ik_vec3 start = joint_ms(c, l->start), out;
    ik_vec3 *p = (ik_vec3 *)malloc(2 * (size_t)c->skeleton->joint_count * sizeof *p), *q;
    ik_mat4 map_inv;
    check_property reach = {"natural bend: the end reaches", 0, 0}, side = {"natural bend: side", 0, 0},
                   flip = {"natural bend: no flip", 0, 0}, image = {"natural bend: the original's mirror image", 0, 0};
    int az, n = c->skeleton->joint_count;
    if (!p || (map && !ik_mat4_inverse(map, &map_inv))) {
        CHECK(0, "%s: scratch and the map's inverse", r->label);
        free(p);
        return;
    }
    q = p + n;
    out = ik_vec3_normalize(ik_vec3_reject(ik_vec3_sub(start, joint_ms(c, other->start)), r->up));
    for (az = 0; az < 2; ++az) {
        ik_vec3 prev = ik_vec3_zero(), ahead = ik_vec3_normalize(ik_vec3_mad(r->forward, out, az ? 0.577f : 0));
        ik_real el;
        for (el = 5; el <= top; el += 3) {
            ik_real a = ik_rad(el);
            ik_vec3 dir = ik_vec3_add(ik_vec3_scale(r->up, -IK_COS(a)), ik_vec3_scale(ahead, IK_SIN(a)));
            ik_vec3 target = ik_vec3_mad(start, dir, 0.85f * len), off;
            const char *end_name = ik_skeleton_name(c->skeleton, l->end);
            char args[1200], solver[32];
            int k;
            if (!solve_joints(r->path, end_name, target, p, n, solver, sizeof solver, args, sizeof args)) {
                PROPERTY_CASE(reach, 0, "%s: %s: %s", r->label, args, err_text);
                continue;
            }
            PROPERTY_CASE(reach, ik_vec3_distance(p[l->end], target) < 2e-3f * len && strcmp(solver, "two-bone") == 0,
                          "%s %s at %g deg: %g off", r->label, end_name, (double)el,
                          (double)ik_vec3_distance(p[l->end], target));
            off = ik_vec3_normalize(ik_vec3_reject(ik_vec3_sub(p[l->mid], p[l->start]),
                                                   ik_vec3_normalize(ik_vec3_sub(p[l->end], p[l->start]))));
            PROPERTY_CASE(side, sign * ik_vec3_dot(off, r->forward) > 0.05f, "%s %s at %g deg, %d: %s %g forward",
                          r->label, ik_skeleton_name(c->skeleton, l->mid), (double)el, az, sign > 0 ? "knee" : "elbow",
                          (double)ik_vec3_dot(off, r->forward));
            if (el > 5)
                PROPERTY_CASE(flip, ik_vec3_dot(off, prev) > IK_COS(ik_rad(20)), "%s %s at %g deg: turned %g deg",
                              r->label, ik_skeleton_name(c->skeleton, l->mid), (double)el,
                              (double)ik_deg(ik_acos_safe(ik_vec3_dot(off, prev))));
            prev = off;
            if (!original) continue;
            if (!solve_joints(original, end_name, ik_mat4_transform_point(&map_inv, target), q, n, solver,
                              sizeof solver, args, sizeof args)) {
                PROPERTY_CASE(image, 0, "%s: %s: %s", r->label, args, err_text);
                continue;
            }
            for (k = 0; k < n; ++k) {
                ik_real gap;
                if (k != l->start && !ik_skeleton_is_descendant(c->skeleton, k, l->start)) continue;
                gap = ik_vec3_distance(ik_mat4_transform_point(map, q[k]), p[k]);
                if (gap > 2e-3f * len) break;
            }
            PROPERTY_CASE(image, k == n, "%s %s at %g deg, %d: %s %g limb lengths off the original's mirror image",
                          r->label, end_name, (double)el, az, k < n ? ik_skeleton_name(c->skeleton, k) : "",
                          k < n ? (double)(ik_vec3_distance(ik_mat4_transform_point(map, q[k]), p[k]) / len) : 0.0);
        }
    }
    property_end(&reach);
    property_end(&side);
    property_end(&flip);
    if (original) property_end(&image);
    free(p);
}

/* One rig of the natural-bend sweep: a real asset, where its figure faces,
 * and the variant made of it (mirrored, turned Z-up, scaled). */
typedef struct bend_case {
    const char *file;
    ik_vec3 forward;
    int mirror, z_up;
    double scale;
} bend_case;

/* `--target FOOT` / `--target HAND` with no --pole on every real rig and
 * variants of them (Z-up, scaled by 100, and every one mirrored): knees
 * bend forward and elbows back across the front half-space, small moves
 * never flip them, and a mirrored variant's limb is the mirror image of
 * the original's. Before, a straight CMU leg bent backward with its shin
 * turned round. Each asset's cases are a group of their own (test_natural_bend_*):
 * about 1,700 ikc runs in all. */
static void natural_bend(const bend_case *rigs, int count) {
    int i;
    for (i = 0; i < count; ++i) {
        bend_rig r;
        character c;
        char source[900], stem[64];
        const char *base = strrchr(rigs[i].file, '/') + 1;
        int made = 1;
        ik_mat4 map = ik_mat4_from_trs(ik_vec3_zero(), ik_quat_identity(), ik_v3(-1, 1, 1));
        if (!real_asset(rigs[i].file, source, sizeof source)) continue;
        snprintf(r.label, sizeof r.label, "%s%s%s%s", rigs[i].file, rigs[i].mirror ? " mirrored" : "",
                 rigs[i].z_up ? " Z-up" : "", rigs[i].scale != 1 ? " x100" : "");
        snprintf(stem, sizeof stem, "%.*s", (int)strcspn(base, "."), base);
        r.forward = rigs[i].forward;
        r.up = ik_v3(0, 1, 0);
        if (!rigs[i].mirror && !rigs[i].z_up && rigs[i].scale == 1) {
            snprintf(r.path, sizeof r.path, "%s", source);
        } else if (strstr(source, ".bvh")) {
            snprintf(r.path, sizeof r.path, "%s/%s-variant%d.bvh", work_dir, stem, i);
            made = bvh_variant(source, r.path, rigs[i].mirror, rigs[i].z_up, rigs[i].scale);
            if (rigs[i].z_up) r.forward = ik_v3(r.forward.x, -r.forward.z, r.forward.y), r.up = ik_v3(0, 0, 1);
        } else {
            ik_real s = (ik_real)rigs[i].scale;
            snprintf(r.path, sizeof r.path, "%s/%s-variant%d.glb", work_dir, stem, i);
            made = gltf_variant(source, r.path, ik_v3(rigs[i].mirror ? -s : s, s, s),
                                rigs[i].z_up ? ik_quat_from_axis_angle(ik_v3(1, 0, 0), ik_rad(90)) : ik_quat_identity(),
                                &r, &map);
        }
        if (!made || !character_load(&c, r.path, 0)) {
            CHECK(0, "%s: the variant is written and loads as a humanoid", r.label);
            character_free(&c);
            continue;
        }
        if (c.rig.limb[IK_LIMB_LEG_L].end >= 0)
            sweep_limb(&r, &c, IK_LIMB_LEG_L, 71, rigs[i].mirror ? source : NULL, &map);
        sweep_limb(&r, &c, IK_LIMB_ARM_L, 59, rigs[i].mirror ? source : NULL, &map);
        character_free(&c);
    }
}

static void test_natural_bend_131_01(void) {
    static const bend_case rigs[] = {{"bvh/131_01.bvh", {0, 0, 1}, 0, 0, 1},
                                     {"bvh/131_01.bvh", {0, 0, 1}, 1, 0, 1},
                                     {"bvh/131_01.bvh", {0, 0, 1}, 0, 1, 100}};
    natural_bend(rigs, (int)(sizeof rigs / sizeof rigs[0]));
}

static void test_natural_bend_01_01(void) {
    static const bend_case rigs[] = {{"bvh/01_01.bvh", {0, 0, 1}, 0, 0, 1}, {"bvh/01_01.bvh", {0, 0, 1}, 1, 0, 1}};
    natural_bend(rigs, (int)(sizeof rigs / sizeof rigs[0]));
}

static void test_natural_bend_girl(void) {
    static const bend_case rigs[] = {{"gltf/girl.glb", {0, 0, 1}, 0, 0, 1}, {"gltf/girl.glb", {0, 0, 1}, 1, 0, 1}};
    natural_bend(rigs, (int)(sizeof rigs / sizeof rigs[0]));
}

static void test_natural_bend_male_base_mesh(void) {
    static const bend_case rigs[] = {{"gltf/male_base_mesh.glb", {1, 0, 0}, 0, 0, 1},
                                     {"gltf/male_base_mesh.glb", {1, 0, 0}, 0, 1, 1},
                                     {"gltf/male_base_mesh.glb", {1, 0, 0}, 1, 0, 1}};
    natural_bend(rigs, (int)(sizeof rigs / sizeof rigs[0]));
}

static void test_natural_bend_rigged_figure(void) {
    static const bend_case rigs[] = {{"gltf/rigged_figure.glb", {0, 0, 1}, 0, 0, 1},
                                     {"gltf/rigged_figure.glb", {0, 0, 1}, 0, 0, 100},
                                     {"gltf/rigged_figure.glb", {0, 0, 1}, 1, 0, 100}};
    natural_bend(rigs, (int)(sizeof rigs / sizeof rigs[0]));
}

static void test_natural_bend_robot(void) {
    static const bend_case rigs[] = {{"gltf/robot.glb", {0, 0, 1}, 0, 0, 1}, {"gltf/robot.glb", {0, 0, 1}, 1, 0, 1}};
    natural_bend(rigs, (int)(sizeof rigs / sizeof rigs[0]));
}

/* ---- default chains stay on their own limb (issue 11, item 7) ---------------- */

/* BVH text for one joint with 3 rotation channels (6 for a root). */
#define BVH_JOINT(kind, name, x, y, z) \
    kind " " name "\n{\nOFFSET " #x " " #y " " #z "\nCHANNELS 3 Zrotation Xrotation Yrotation\n"
#define BVH_END(x, y, z) "End Site\n{\nOFFSET " #x " " #y " " #z "\n}\n"

/* A fox in the Khronos sample's names (b_Hip_01, b_Head_05, ...), facing +Z:
 * spine, neck and head, front legs named as arms, hind legs with two foot
 * joints, a tail. */
static const char fox_bvh[] =
    "HIERARCHY\nROOT b_Root_00\n{\nOFFSET 0 0 0\nCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
    BVH_JOINT("JOINT", "b_Hip_01", 0, 0.5, 0)
    BVH_JOINT("JOINT", "b_Spine01_02", 0, 0, 0.2)
    BVH_JOINT("JOINT", "b_Spine02_03", 0, 0, 0.2)
    BVH_JOINT("JOINT", "b_Neck_04", 0, 0.1, 0.1)
    BVH_JOINT("JOINT", "b_Head_05", 0, 0.1, 0.1) BVH_END(0, 0, 0.15) "}\n}\n"
    BVH_JOINT("JOINT", "b_RightUpperArm_06", -0.08, -0.05, 0)
    BVH_JOINT("JOINT", "b_RightForeArm_07", 0, -0.2, -0.02)
    BVH_JOINT("JOINT", "b_RightHand_08", 0, -0.2, 0.02) BVH_END(0, -0.02, 0.05) "}\n}\n}\n"
    BVH_JOINT("JOINT", "b_LeftUpperArm_09", 0.08, -0.05, 0)
    BVH_JOINT("JOINT", "b_LeftForeArm_010", 0, -0.2, -0.02)
    BVH_JOINT("JOINT", "b_LeftHand_011", 0, -0.2, 0.02) BVH_END(0, -0.02, 0.05) "}\n}\n}\n"
    "}\n}\n"
    BVH_JOINT("JOINT", "b_Tail01_012", 0, 0.02, -0.1)
    BVH_JOINT("JOINT", "b_Tail02_013", 0, 0, -0.15)
    BVH_JOINT("JOINT", "b_Tail03_014", 0, 0, -0.15) BVH_END(0, 0, -0.1) "}\n}\n}\n"
    BVH_JOINT("JOINT", "b_LeftLeg01_015", 0.08, -0.05, -0.02)
    BVH_JOINT("JOINT", "b_LeftLeg02_016", 0, -0.2, 0.05)
    BVH_JOINT("JOINT", "b_LeftFoot01_017", 0, -0.2, -0.05)
    BVH_JOINT("JOINT", "b_LeftFoot02_018", 0, -0.04, 0.05) BVH_END(0, 0, 0.03) "}\n}\n}\n}\n"
    BVH_JOINT("JOINT", "b_RightLeg01_019", -0.08, -0.05, -0.02)
    BVH_JOINT("JOINT", "b_RightLeg02_020", 0, -0.2, 0.05)
    BVH_JOINT("JOINT", "b_RightFoot01_021", 0, -0.2, -0.05)
    BVH_JOINT("JOINT", "b_RightFoot02_022", 0, -0.04, 0.05) BVH_END(0, 0, 0.03) "}\n}\n}\n}\n"
    "}\n}\nMOTION\nFrames: 1\nFrame Time: 0.04\n"
    "0 0 0 0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  "
    "0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0\n";

/* A figure whose hands hang straight from the body's lower joint, under a
 * root: root > body_low > hand_L, with legs and a head. */
static const char hands_bvh[] =
    "HIERARCHY\nROOT root\n{\nOFFSET 0 0 0\nCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
    BVH_JOINT("JOINT", "body_low", 0, 1, 0)
    BVH_JOINT("JOINT", "hand_L", 0.3, 0, 0.1) BVH_END(0.1, 0, 0) "}\n"
    BVH_JOINT("JOINT", "hand_R", -0.3, 0, 0.1) BVH_END(-0.1, 0, 0) "}\n"
    BVH_JOINT("JOINT", "thigh_L", 0.1, -0.05, 0)
    BVH_JOINT("JOINT", "shin_L", 0, -0.45, 0.01)
    BVH_JOINT("JOINT", "foot_L", 0, -0.45, -0.01) BVH_END(0, -0.05, 0.12) "}\n}\n}\n"
    BVH_JOINT("JOINT", "thigh_R", -0.1, -0.05, 0)
    BVH_JOINT("JOINT", "shin_R", 0, -0.45, 0.01)
    BVH_JOINT("JOINT", "foot_R", 0, -0.45, -0.01) BVH_END(0, -0.05, 0.12) "}\n}\n}\n"
    BVH_JOINT("JOINT", "chest", 0, 0.4, 0)
    BVH_JOINT("JOINT", "head", 0, 0.3, 0) BVH_END(0, 0.2, 0) "}\n}\n"
    "}\n}\nMOTION\nFrames: 1\nFrame Time: 0.04\n"
    "0 0 0 0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0\n";

/* Solve `args` (with --json) and check which joints moved from `rest`
 * [count] model positions: those in `may_move` (a joint index bitmask up to
 * 64) may, the others must stay within 1e-6. Returns the parsed document. */
static cJSON *solve_moving(const char *args, const ik_vec3 *rest, int count, unsigned long long may_move,
                           const char *what) {
    cJSON *doc = run(args) == 0 ? cJSON_Parse(out_text) : NULL,
          *joints = doc ? cJSON_GetObjectItem(doc, "joints") : NULL;
    int j, moved = -1;
    CHECK(cJSON_GetArraySize(joints) == count, "%s: --json lists every joint: %s", what, err_text);
    if (cJSON_GetArraySize(joints) != count) return doc;
    for (j = 0; j < count && moved < 0; ++j)
        if (!((may_move >> j) & 1) &&
            ik_vec3_distance(json_vec3(cJSON_GetObjectItem(cJSON_GetArrayItem(joints, j), "position")), rest[j]) >
                1e-6f)
            moved = j;
    CHECK(moved < 0, "%s: joint %d (%s) moved", what, moved,
          moved >= 0 ? cJSON_GetObjectItem(cJSON_GetArrayItem(joints, moved), "name")->valuestring : "");
    return doc;
}

/* Rest model positions of a BVH's joints, and its skeleton for names. */
static int bvh_rest(const char *path, ik_bvh **bvh, ik_vec3 *rest, int capacity) {
    ik_transform pose[64];
    ik_mat4 model[64];
    int j;
    if (ik_bvh_read_file(path, bvh, NULL) != IK_OK || (*bvh)->skeleton.joint_count > capacity) return 0;
    ik_skeleton_rest_pose(&(*bvh)->skeleton, pose);
    ik_skeleton_fk(&(*bvh)->skeleton, pose, NULL, model);
    for (j = 0; j < (*bvh)->skeleton.joint_count; ++j) rest[j] = ik_mat4_translation(&model[j]);
    return 1;
}

/* A tail target turns the tail only (before, the chain climbed to the hips
 * and moved the whole fox); `info` names the tail and the neck without the
 * joints that carry other limbs. */
static void test_chain_stops_fox(void) {
    char fox[300], args[1200];
    ik_bvh *b = NULL;
    ik_vec3 rest[64], target;
    unsigned long long tail = 0;
    cJSON *doc;
    int j, tip;
    path_in(fox, sizeof fox, "fox.bvh");
    write_text(fox, fox_bvh);
    if (!bvh_rest(fox, &b, rest, 64)) {
        CHECK(0, "the fox loads");
        ik_bvh_free(b);
        return;
    }
    snprintf(args, sizeof args, "info '%s'", fox);
    CHECK(run(args) == 0 &&
              strstr(out_text, "tail      b_Tail01_012 > b_Tail02_013 > b_Tail03_014 > b_Tail03_014_End") &&
              strstr(out_text, "spine     b_Neck_04 > b_Head_05") &&
              strstr(out_text, "leg       b_LeftLeg01_015 > b_LeftLeg02_016 > b_LeftFoot01_017"),
          "info names the fox's tail and neck below the joints carrying other limbs: %s", out_text);
    tip = ik_skeleton_find(&b->skeleton, "b_Tail03_014_End");
    for (j = 0; j < b->skeleton.joint_count; ++j)
        if (strstr(ik_skeleton_name(&b->skeleton, j), "Tail")) tail |= 1ull << j;
    /* the tip swung a quarter of the tail's length up and to the side */
    target = ik_vec3_add(rest[tip], ik_v3(0.08f, 0.08f, 0.05f));
    snprintf(args, sizeof args, "solve '%s' --target 'b_Tail03_014_End=%.6f,%.6f,%.6f' --json", fox, (double)target.x,
             (double)target.y, (double)target.z);
    doc = solve_moving(args, rest, b->skeleton.joint_count, tail, "tail target");
    if (doc) {
        cJSON *t0 = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "targets"), 0);
        CHECK(cJSON_IsTrue(cJSON_GetObjectItem(t0, "reached")) &&
                  cJSON_GetArraySize(cJSON_GetObjectItem(t0, "chain")) == 4,
              "the tail's four joints reach the target: %.400s", out_text);
    }
    cJSON_Delete(doc);
    /* a hind paw pulled up and forward: the knee (b_LeftLeg02_016) bends
     * forward, found from the paws, with no humanoid to ask */
    target = ik_vec3_add(rest[ik_skeleton_find(&b->skeleton, "b_LeftFoot01_017")], ik_v3(0, 0.12f, 0.08f));
    snprintf(args, sizeof args, "solve '%s' --target 'b_LeftFoot01_017=%.6f,%.6f,%.6f' --json", fox, (double)target.x,
             (double)target.y, (double)target.z);
    doc = run(args) == 0 ? cJSON_Parse(out_text) : NULL;
    if (doc) {
        cJSON *joints = cJSON_GetObjectItem(doc, "joints");
        ik_vec3 hip = json_vec3(cJSON_GetObjectItem(
            cJSON_GetArrayItem(joints, ik_skeleton_find(&b->skeleton, "b_LeftLeg01_015")), "position"));
        ik_vec3 knee = json_vec3(cJSON_GetObjectItem(
            cJSON_GetArrayItem(joints, ik_skeleton_find(&b->skeleton, "b_LeftLeg02_016")), "position"));
        ik_vec3 paw = json_vec3(cJSON_GetObjectItem(
            cJSON_GetArrayItem(joints, ik_skeleton_find(&b->skeleton, "b_LeftFoot01_017")), "position"));
        ik_vec3 off = ik_vec3_reject(ik_vec3_sub(knee, hip), ik_vec3_normalize(ik_vec3_sub(paw, hip)));
        CHECK(ik_vec3_distance(paw, target) < 1e-3f && off.z > 0.2f * ik_vec3_length(off),
              "the fox's hind knee bends forward (%g %g %g off the hip-paw line)", (double)off.x, (double)off.y,
              (double)off.z);
    } else {
        CHECK(0, "the fox's hind paw solves: %s", err_text);
    }
    cJSON_Delete(doc);
    /* no humanoid, for the right reason: the hips and head are found */
    snprintf(args, sizeof args, "solve '%s' --left-hand 0,0.3,0.5 --json", fox);
    CHECK(run(args) == 5 && strstr(err_text, "does not stand upright") && strstr(err_text, "hips = b_Hip_01") &&
              strstr(err_text, "head = b_Head_05") && !strstr(err_text, "missing hips"),
          "the fox is no humanoid, its hips and head found: %s", err_text);
    ik_bvh_free(b);
}

/* Hands hanging straight from the body's lower joint: --target hand_L has
 * no joint of its own to turn, and says so, naming body_low and --chain
 * (before, it turned root > body_low and toppled the figure); --chain 3
 * turns them when asked; a foot still moves its leg alone. */
static void test_chain_stops_hands(void) {
    char path[300], args[1200];
    ik_bvh *b = NULL;
    ik_vec3 rest[64];
    cJSON *doc;
    int j;
    unsigned long long leg = 0;
    path_in(path, sizeof path, "hands.bvh");
    write_text(path, hands_bvh);
    if (!bvh_rest(path, &b, rest, 64)) {
        CHECK(0, "the hands rig loads");
        ik_bvh_free(b);
        return;
    }
    snprintf(args, sizeof args, "info '%s'", path);
    CHECK(run(args) == 0 && strstr(out_text, "hand_L   (hangs from body_low, which carries other limbs"),
          "info: hand_L hangs from body_low: %s", out_text);
    snprintf(args, sizeof args, "solve '%s' --target hand_L=0.4,0.9,0.3 --json", path);
    CHECK(run(args) == 2 && strstr(err_text, "'hand_L' hangs from 'body_low'") && strstr(err_text, "--chain"),
          "--target hand_L: no chain of its own, a usage error that names body_low: %s", err_text);
    snprintf(args, sizeof args, "solve '%s' --target hand_L=0.4,0.9,0.3 --chain 3 --json", path);
    doc = solve_moving(args, rest, b->skeleton.joint_count, ~0ull, "--chain 3");
    CHECK(
        doc && cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "targets"), 0), "reached")),
        "--chain 3 turns root and body_low when asked");
    cJSON_Delete(doc);
    for (j = 0; j < b->skeleton.joint_count; ++j)
        if (strstr(ik_skeleton_name(&b->skeleton, j), "_L") && !strstr(ik_skeleton_name(&b->skeleton, j), "hand"))
            leg |= 1ull << j;
    snprintf(args, sizeof args, "solve '%s' --target foot_L=0.1,0.2,0.2 --json", path);
    doc = solve_moving(args, rest, b->skeleton.joint_count, leg, "--target foot_L");
    cJSON_Delete(doc);
    ik_bvh_free(b);
}

/* A rig of few joints (issue 26, item 8): root > body > hand_L. */
static const char few_bvh[] =
    "HIERARCHY\nROOT root\n{\nOFFSET 0 0 0\nCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
    BVH_JOINT("JOINT", "body", 0, 1, 0)
    BVH_JOINT("JOINT", "hand_L", 0.4, 0.2, 0) BVH_END(0.1, 0, 0) "}\n"
    "}\n}\nMOTION\nFrames: 1\nFrame Time: 0.04\n0 0 0 0 0 0  0 0 0  0 0 0\n";

/* The few-joint rig as glTF (`gltf` and `bin`, a file name beside it):
 * root > body > hand_L, with a mesh of two boxes, the body's skinned to
 * body and the hand's to hand_L; vertex 3's first weight is `weight3`
 * (1: well formed). */
static void write_few_gltf(const char *gltf, const char *dir, const char *bin, float weight3) {
    static const float centre[2][3] = {{0, 1, 0}, {0.4f, 1.2f, 0}},
                       half[2][3] = {{0.15f, 0.3f, 0.1f}, {0.05f, 0.05f, 0.05f}};
    static const unsigned short faces[36] = {0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1,
                                             2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3};
    float positions[16][3], weights[16][4], ibm[3][16];
    unsigned char joints[16][4];
    unsigned short indices[72];
    char path[700], text[2600];
    FILE *f;
    int b, v, k;
    memset(weights, 0, sizeof weights);
    memset(joints, 0, sizeof joints);
    memset(ibm, 0, sizeof ibm);
    for (b = 0; b < 2; ++b)
        for (v = 0; v < 8; ++v) {
            for (k = 0; k < 3; ++k) positions[b * 8 + v][k] = centre[b][k] + ((v >> (2 - k)) & 1 ? 1 : -1) * half[b][k];
            joints[b * 8 + v][0] = (unsigned char)(b + 1);
            weights[b * 8 + v][0] = 1;
        }
    weights[3][0] = weight3;
    for (k = 0; k < 72; ++k) indices[k] = (unsigned short)(faces[k % 36] + (k / 36) * 8);
    for (b = 0; b < 3; ++b) {
        ibm[b][0] = ibm[b][5] = ibm[b][10] = ibm[b][15] = 1;
        ibm[b][13] = b == 0 ? 0 : -(b == 1 ? 1.0f : 1.2f);
        ibm[b][12] = b == 2 ? -0.4f : 0;
    }
    snprintf(path, sizeof path, "%s/%s", dir, bin);
    f = fopen(path, "wb");
    if (!f) return;
    fwrite(positions, 1, sizeof positions, f);
    fwrite(joints, 1, sizeof joints, f);
    fwrite(weights, 1, sizeof weights, f);
    fwrite(indices, 1, sizeof indices, f);
    fwrite(ibm, 1, sizeof ibm, f);
    fclose(f);
    snprintf(
        text, sizeof text,
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0,3]}],\"nodes\":["
        "{\"name\":\"root\",\"children\":[1]},{\"name\":\"body\",\"translation\":[0,1,0],\"children\":[2]},"
        "{\"name\":\"hand_L\",\"translation\":[0.4,0.2,0]},{\"name\":\"figure\",\"mesh\":0,\"skin\":0}],"
        "\"skins\":[{\"joints\":[0,1,2],\"inverseBindMatrices\":4}],"
        "\"meshes\":[{\"name\":\"boxes\",\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":1,"
        "\"WEIGHTS_0\":2},\"indices\":3}]}],\"accessors\":["
        "{\"bufferView\":0,\"componentType\":5126,\"count\":16,\"type\":\"VEC3\",\"min\":[-0.15,0.7,-0.1],"
        "\"max\":[0.45,1.3,0.1]},{\"bufferView\":1,\"componentType\":5121,\"count\":16,\"type\":\"VEC4\"},"
        "{\"bufferView\":2,\"componentType\":5126,\"count\":16,\"type\":\"VEC4\"},"
        "{\"bufferView\":3,\"componentType\":5123,\"count\":72,\"type\":\"SCALAR\"},"
        "{\"bufferView\":4,\"componentType\":5126,\"count\":3,\"type\":\"MAT4\"}],\"bufferViews\":["
        "{\"buffer\":0,\"byteLength\":192},{\"buffer\":0,\"byteOffset\":192,\"byteLength\":64},"
        "{\"buffer\":0,\"byteOffset\":256,\"byteLength\":256},{\"buffer\":0,\"byteOffset\":512,\"byteLength\":144},"
        "{\"buffer\":0,\"byteOffset\":656,\"byteLength\":192}],\"buffers\":[{\"byteLength\":848,\"uri\":\"%s\"}]}",
        bin);
    write_text(gltf, text);
}

/* A hand right under the body joint under the root: its default chain is
 * the hand alone, so a hand target never tilts the character; info and
 * solve say it hangs from the trunk; --chain 3 still turns root and body
 * when asked. */
static void test_chain_off_trunk(void) {
    char path[300], args[1200];
    ik_bvh *b = NULL;
    ik_vec3 rest[8];
    cJSON *doc;
    path_in(path, sizeof path, "few.bvh");
    write_text(path, few_bvh);
    if (!bvh_rest(path, &b, rest, 8)) {
        CHECK(0, "the few-joint rig loads");
        ik_bvh_free(b);
        return;
    }
    snprintf(args, sizeof args, "info '%s'", path);
    CHECK(run(args) == 0 && strstr(out_text, "hand_L   (hangs from body, part of the body's trunk"),
          "info: hand_L hangs from the trunk: %s", out_text);
    snprintf(args, sizeof args, "solve '%s' --target hand_L=0.5,1,0.2 --json", path);
    CHECK(run(args) == 2 && strstr(err_text, "'hand_L' hangs from 'body', part of the body's trunk") &&
              strstr(err_text, "--chain"),
          "--target hand_L: no chain through the body: %s", err_text);
    snprintf(args, sizeof args, "solve '%s' --target hand_L=0.5,1,0.2 --chain 3 --json", path);
    doc = solve_moving(args, rest, b->skeleton.joint_count, ~0ull, "--chain 3");
    cJSON_Delete(doc);
    ik_bvh_free(b);
}

/* Warm (mesh) pixels in a PNG (warm_pixel), or -1. */
static long warm_pixels(const char *png) {
    cairo_surface_t *s = cairo_image_surface_create_from_png(png);
    long warm = 0;
    int x, y;
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return -1;
    }
    for (y = 0; y < cairo_image_surface_get_height(s); ++y)
        for (x = 0; x < cairo_image_surface_get_width(s); ++x)
            warm += warm_pixel(cairo_image_surface_get_data(s), cairo_image_surface_get_stride(s), x, y);
    cairo_surface_destroy(s);
    return warm;
}

/* The few-joint rig as glTF with a mesh: drawn without a warning when well
 * formed; a vertex whose weights follow no joint, or a negative weight, is
 * a warning that names the mesh's primitive, the vertex and the weight
 * (render and solve --render), and the bones are drawn. */
static void test_render_names_bad_mesh(void) {
    static const float weight3[3] = {1, 0, -0.5f};
    static const char *const why[3] = {"", "vertex 3: its weights are all 0", "vertex 3: weight 0 is -0.5"};
    char gltf[300], png[300], args[1200];
    int k;
    path_in(gltf, sizeof gltf, "few.gltf");
    path_in(png, sizeof png, "few.png");
    for (k = 0; k < 3; ++k) {
        write_few_gltf(gltf, work_dir, "few.bin", weight3[k]);
        snprintf(args, sizeof args, "render '%s' -o '%s'", gltf, png);
        CHECK(run(args) == 0, "%s: %s", args, err_text);
        if (k == 0) {
            CHECK(!strstr(err_text, "warning") && warm_pixels(png) > 5000,
                  "the well-formed rig draws its mesh without a warning (%ld warm pixels): %s", warm_pixels(png),
                  err_text);
            continue;
        }
        CHECK(warm_pixels(png) < 1000, "the bones are drawn instead (%ld warm pixels: the orange chain)",
              warm_pixels(png));
        CHECK(strstr(err_text, "warning") && strstr(err_text, "/meshes/0/primitives/0/attributes/WEIGHTS_0") &&
                  strstr(err_text, "mesh 'boxes', ") && strstr(err_text, why[k]) &&
                  strstr(err_text, "drawing the bones"),
              "render names the mesh, the vertex and its weights: %s", err_text);
        snprintf(args, sizeof args, "solve '%s' --target hand_L=0.5,1,0.2 --chain 2 --render '%s'", gltf, png);
        CHECK(run(args) == 0 && strstr(err_text, "mesh 'boxes', ") && strstr(err_text, why[k]),
              "solve --render names them too: %s", err_text);
    }
}

/* Signed height of p above the plane (point, unit normal). */
static ik_real above_plane(ik_vec3 p, ik_vec3 point, ik_vec3 normal) {
    return ik_vec3_dot(ik_vec3_sub(p, point), normal);
}

/* --slope 10: the plane is tilted 10 degrees from the body's up, and in the
 * reloaded file each foot's sole touches it: the heel and the ball on the
 * plane within 1e-3 of the leg length, or, with the heel lifted, the ball on
 * it and the heel above it. */
static void test_solve_slope(void) {
    static const char *const files[] = {"gltf/robot.glb", "gltf/male_base_mesh.glb", "gltf/rigged_figure.glb",
                                        "gltf/girl.glb",  "bvh/131_01.bvh",          "bvh/01_01.bvh"};
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
              "%s: the slope is 10 degrees (%g)", files[i],
              (double)ik_deg(ik_acos_safe(ik_vec3_dot(normal, before.up))));
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
    write_text(field,
               "# a flat field 0.05 above the floor, one row a little higher\n"
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
static void solve_look_at_files(int first, int end) {
    static const char *const files[] = {"gltf/robot.glb",         "bvh/131_01.bvh", "gltf/male_base_mesh.glb",
                                        "gltf/rigged_figure.glb", "gltf/girl.glb",  "bvh/01_01.bvh"};
    static const struct {
        ik_real azimuth, elevation, tolerance; /* degrees from forward toward left, above level; 0: default */
    } looks[] = {{0, 0, 0},     {30, 20, 0}, {-100, 0, 0}, {180, 0, 0}, {150, 0, 0},
                 {-160, 40, 0}, {0, 85, 0},  {0, -60, 0},  {95, 0, 30}};
    int i, k;
    for (i = first; i < end && i < (int)(sizeof files / sizeof files[0]); ++i) {
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
            ik_vec3 dir = ik_vec3_add(
                ik_vec3_scale(ik_vec3_add(ik_vec3_scale(before.forward, IK_COS(a)), ik_vec3_scale(left, IK_SIN(a))),
                              IK_COS(e)),
                ik_vec3_scale(before.up, IK_SIN(e)));
            ik_vec3 target = ik_vec3_mad(eye, dir, dist), gaze, to;
            cJSON *doc, *look;
            ik_real residual, reported;
            int reached, solved_head;
            snprintf(out, sizeof out, "%s/look%d_%d.%s", work_dir, i, k, strstr(files[i], ".bvh") ? "bvh" : "glb");
            if (tol > 0)
                snprintf(tolerance, sizeof tolerance, " --look-tolerance %g", (double)tol);
            else
                tolerance[0] = '\0';
            snprintf(args, sizeof args, "solve '%s' --look-at %.6f,%.6f,%.6f%s --json -o '%s'", path, (double)target.x,
                     (double)target.y, (double)target.z, tolerance, out);
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
            gaze = ik_vec3_normalize(ik_mat4_transform_vector(&after.model[solved_head], before.rig.head_forward_ls));
            to = ik_vec3_normalize(ik_vec3_sub(target, joint_ms(&after, solved_head)));
            residual = ik_deg(IK_ATAN2(ik_vec3_length(ik_vec3_cross(gaze, to)), ik_vec3_dot(gaze, to)));
            CHECK(IK_FABS(residual - reported) <= 0.05f, "%s look %d: residual %g deg reported, %g measured", files[i],
                  k, (double)reported, (double)residual);
            CHECK(reached == (residual <= (tol > 0 ? tol : 1) + 0.01f),
                  "%s look %d: reached %d with a residual of %g deg (tolerance %g)", files[i], k, reached,
                  (double)residual, (double)(tol > 0 ? tol : 1));
            CHECK(reached || (strstr(err_text, "warning") && strstr(err_text, "residual")),
                  "%s look %d: a miss is a warning with its residual: %s", files[i], k, err_text);
            if (IK_FABS(looks[k].azimuth) <= 30 && IK_FABS(looks[k].elevation) <= 30)
                CHECK(reached, "%s look %d: a target in front is reached (%g deg)", files[i], k, (double)residual);
            if (IK_FABS(looks[k].azimuth) > 90) {
                ik_real gaze_elevation = ik_deg(elevation_of(gaze, before.up));
                ik_real side = ik_vec3_dot(gaze, left);
                CHECK(gaze_elevation <= looks[k].elevation + 3 && gaze_elevation >= -3,
                      "%s look %d: behind at %g deg of elevation, the head pitches to %g deg", files[i], k,
                      (double)looks[k].elevation, (double)gaze_elevation);
                if (looks[k].azimuth != 180)
                    CHECK(side * looks[k].azimuth > 0, "%s look %d: the head turns to the target's side (%g)", files[i],
                          k, (double)side);
            }
            character_free(&after);
        }
        character_free(&before);
    }
}

/* Every configuration: a glTF rig and a capture; the four other files in
 * the float configuration's sweep (label slow). */
static void test_solve_look_at(void) { solve_look_at_files(0, 2); }
static void test_solve_look_at_sweep(void) { solve_look_at_files(2, 6); }

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

/* Load what `ikc solve --clip CLIP --time T -o out` wrote, posed as the
 * solved frame: a BVH keeps the whole take with that frame replaced, so it
 * is sampled at T; a glTF's written rest pose is the solved one. */
static int written_frame_load(character *c, const char *path, const char *clip, ik_real time) {
    if (!character_load(c, path, 0)) return 0;
    return !c->bvh || character_pose_at(c, clip, time);
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
    } frames[] = {{"bvh/131_01.bvh", "motion", 0},
                  {"bvh/131_01.bvh", "motion", 1.25f},
                  {"bvh/131_01.bvh", "motion", 2},
                  {"bvh/131_02.bvh", "motion", 3.5f},
                  {"bvh/01_01.bvh", "motion", 5},
                  {"bvh/01_01.bvh", "motion", 12.4f},
                  {"gltf/robot.glb", "Robot_Walking", 0.3f},
                  {"gltf/girl.glb", "RunTrack", 0.4f}};
    int i;
    for (i = 0; i < (int)(sizeof frames / sizeof frames[0]); ++i) {
        character before, after;
        char path[900], out[300], args[2000];
        cJSON *doc, *joints, *feet;
        ik_vec3 floor_ms, up;
        ik_real leg, worst = 0, heel_clear[2], ball_clear[2];
        int slope, j, side;
        if (!real_asset(frames[i].file, path, sizeof path)) continue;
        if (!character_load(&before, path, 0) || !character_pose_at(&before, frames[i].clip, frames[i].time)) {
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
            heel_clear[side] =
                ik_vec3_dot(ik_vec3_sub(ik_mat4_transform_point(&before.model[l->end], l->heel_ls), floor_ms), up);
            ball_clear[side] =
                ik_vec3_dot(ik_vec3_sub(ik_mat4_transform_point(&before.model[l->end], l->ball_ls), floor_ms), up);
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
                      "%s t %g slope %d: foot %d reached", frames[i].file, (double)frames[i].time, slope, side);
            if (slope == 0) {
                worst = 0;
                for (j = 0; j < before.skeleton->joint_count; ++j) {
                    ik_vec3 p = json_vec3(cJSON_GetObjectItem(cJSON_GetArrayItem(joints, j), "position"));
                    worst = ik_maxr(worst, ik_vec3_distance(p, joint_ms(&before, j)));
                }
                CHECK(worst <= 1e-4f * leg, "%s t %g: --slope 0 moved a joint by %g (leg %g)", frames[i].file,
                      (double)frames[i].time, (double)worst, (double)leg);
                if (written_frame_load(&after, out, frames[i].clip, frames[i].time)) {
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
                ik_vec3 point = json_vec3(
                    cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "humanoid"), "ground"), "point"));
                ik_vec3 normal = json_vec3(
                    cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "humanoid"), "ground"), "normal"));
                CHECK(IK_FABS(above_plane(floor_ms, point, normal)) <= 1e-4f * leg,
                      "%s t %g: the slope passes through the frame's floor_ms (%g off)", frames[i].file,
                      (double)frames[i].time, (double)above_plane(floor_ms, point, normal));
                for (side = 0; side < 2; ++side) {
                    const ik_humanoid_limb *l = &before.rig.limb[IK_LIMB_LEG_L + side];
                    int foot =
                        l->end >= 0 ? ik_skeleton_find(before.skeleton, ik_skeleton_name(before.skeleton, l->end)) : -1;
                    if (foot < 0 || heel_clear[side] <= 0.1f * leg) continue;
                    if (!written_frame_load(&after, out, frames[i].clip, frames[i].time)) {
                        CHECK(0, "%s: the written file loads back", frames[i].file);
                    } else {
                        ik_real cos_slope = ik_vec3_dot(normal, up);
                        ik_real heel =
                            above_plane(ik_mat4_transform_point(&after.model[foot], l->heel_ls), point, normal) /
                                cos_slope -
                            heel_clear[side];
                        ik_real ball =
                            above_plane(ik_mat4_transform_point(&after.model[foot], l->ball_ls), point, normal) /
                                cos_slope -
                            ball_clear[side];
                        CHECK(heel >= -2e-3f * leg && ball >= -2e-3f * leg && ik_minr(heel, ball) <= 2e-3f * leg,
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
    snprintf(args, sizeof args, "solve '%s' --clip motion --time 2 --feet-on-ground '%s' --json", path, field);
    CHECK(run(args) == 0 && !strstr(err_text, "warning"), "a flat height field under a frame: %s", err_text);
    doc = cJSON_Parse(out_text);
    joints = doc ? cJSON_GetObjectItem(doc, "joints") : NULL;
    CHECK(cJSON_GetArraySize(joints) == before.skeleton->joint_count, "--json lists the joints");
    for (j = 0; j < before.skeleton->joint_count && cJSON_GetArraySize(joints) == before.skeleton->joint_count; ++j)
        worst =
            ik_maxr(worst, ik_vec3_distance(json_vec3(cJSON_GetObjectItem(cJSON_GetArrayItem(joints, j), "position")),
                                            joint_ms(&before, j)));
    CHECK(worst <= 1e-4f * leg, "a flat height field moved a joint by %g (leg %g)", (double)worst, (double)leg);
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
              cJSON_GetObjectItem(right, "residual")->valuedouble > 1 && cJSON_GetObjectItem(right, "warning"),
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

/* `ikc walk`: a glTF rig gains an animation "walk" whose hips go forward at
 * the speed asked for (along the rig's forward, by the library's own walk
 * frame) and which the library reads back; a BVH gets the frames; the
 * filmstrip is drawn; bad options, a chain and a figure that is not a
 * humanoid get their messages and exit codes, and nothing is written. */
static void test_walk_command(void) {
    char rig[300], bvh_in[300], out[300], picture[300], bvh_out[300], args[1400], leg[300], chain[300], flat[300];
    ik_asset asset;
    if (!real_asset("gltf/male_base_mesh.glb", rig, sizeof rig) || !real_asset("bvh/131_01.bvh", bvh_in, sizeof bvh_in))
        return;
    path_in(out, sizeof out, "walk.glb");
    path_in(picture, sizeof picture, "walk.png");
    path_in(bvh_out, sizeof bvh_out, "walk.bvh");
    snprintf(args, sizeof args, "walk '%s' -o '%s' --seconds 2 --speed 1.3 --stairs 0.15,0.35 --render '%s'", rig, out,
             picture);
    CHECK(run(args) == 0, "walk a glTF rig up stairs: %s", err_text);
    CHECK(file_size(picture) > 1000, "walk filmstrip written");
    /* issue 26, item 6: the filmstrip draws the character's mesh (clay, a
     * warm colour; the bones alone are blue) as render does */
    path_in(flat, sizeof flat, "walk_flat.glb");
    snprintf(args, sizeof args, "walk '%s' -o '%s' --seconds 1 --render '%s' --quiet", rig, flat, picture);
    CHECK(run(args) == 0 && warm_pixels(picture) > 1280L * 1174 / 50,
          "walk --render draws the mesh: %ld mesh pixels: %s", warm_pixels(picture), err_text);
    if (ik_asset_load(out, &asset, NULL) == IK_OK) {
        int c, found = -1;
        for (c = 0; c < ik_asset_clip_count(&asset); ++c)
            if (ik_asset_clip(&asset, c)->name && strcmp(ik_asset_clip(&asset, c)->name, "walk") == 0) found = c;
        CHECK(found >= 0, "the output has an animation called walk");
        if (found >= 0) {
            const ik_clip *clip = ik_asset_clip(&asset, found);
            const ik_skeleton *s = asset.skeleton;
            ik_transform *pose = (ik_transform *)malloc(sizeof(ik_transform) * (size_t)s->joint_count);
            ik_mat4 *model = (ik_mat4 *)malloc(sizeof(ik_mat4) * (size_t)s->joint_count);
            ik_humanoid_map map;
            ik_humanoid hum;
            ik_mat4 frame, inv;
            ik_vec3 at[2];
            int k;
            CHECK(fabs((double)clip->duration - 2) < 1e-3, "walk lasts 2 s: %g", (double)clip->duration);
            if (pose && model && ik_humanoid_map_find(s, NULL, 0, &map) == IK_OK &&
                ik_humanoid_init(&hum, s, &map) == IK_OK && ik_walk_frame(&hum, &asset.root_ms, &frame) == IK_OK &&
                ik_mat4_inverse(&frame, &inv)) {
                for (k = 0; k < 2; ++k) {
                    ik_skeleton_rest_pose(s, pose);
                    ik_clip_sample(clip, (ik_real)(2 * k), pose);
                    ik_skeleton_fk(s, pose, &asset.root_ms, model);
                    at[k] = ik_mat4_transform_point(&inv, ik_mat4_translation(&model[map.joint[IK_ROLE_HIPS]]));
                }
                CHECK(fabs((double)(at[1].z - at[0].z) - 2.6) < 0.01 && at[1].y > at[0].y + 0.3,
                      "hips went 2.6 forward (%g) and up the stairs (%g)", (double)(at[1].z - at[0].z),
                      (double)(at[1].y - at[0].y));
            } else {
                CHECK(0, "the written rig maps as a humanoid");
            }
            free(pose);
            free(model);
        }
        ik_asset_free(&asset);
    } else {
        CHECK(0, "walk output reads back");
    }
    snprintf(args, sizeof args, "walk '%s' -o '%s' --seconds 1 --fps 60 --slope 8", bvh_in, bvh_out);
    CHECK(run(args) == 0, "walk a BVH rig up a slope: %s", err_text);
    if (ik_asset_load(bvh_out, &asset, NULL) == IK_OK) {
        CHECK(asset.bvh->frame_count == 61, "61 frames at 60 fps: %d", asset.bvh->frame_count);
        ik_asset_free(&asset);
    } else {
        CHECK(0, "walk BVH reads back");
    }
    /* bad input: nothing written */
    path_in(out, sizeof out, "never.glb");
    {
        static const struct {
            const char *options;
            int code;
            const char *message;
        } bad[] = {
            {"--speed 0", 2, "speed must be positive"},  {"--speed nan", 2, "--speed"},
            {"--stride -1", 2, "must not be negative"},  {"--step-height 5", 2, "step height"},
            {"--slope 5 --stairs 0.1,0.3", 2, "one of"}, {"--stairs 0.1", 2, "RISE,RUN"},
            {"--cadence 9 --stride 1", 2, "disagree"},   {"--bogus", 2, "unknown option"},
        };
        int i;
        for (i = 0; i < (int)(sizeof bad / sizeof bad[0]); ++i) {
            snprintf(args, sizeof args, "walk '%s' -o '%s' %s", rig, out, bad[i].options);
            CHECK(run(args) == bad[i].code && strstr(err_text, bad[i].message) && file_size(out) < 0,
                  "walk %s: exit %d, '%s' in: %s", bad[i].options, bad[i].code, bad[i].message, err_text);
        }
    }
    path_in(leg, sizeof leg, "leg-only.bvh");
    write_text(leg, leg_bvh);
    snprintf(args, sizeof args, "walk '%s' -o '%s'", leg, bvh_out);
    CHECK(run(args) == 5 && strstr(err_text, "no humanoid found"), "a leg is not a humanoid: %s", err_text);
    path_in(chain, sizeof chain, "walk-arm.chain");
    write_text(chain, "chain arm\njoint shoulder type ball\njoint hand length 0.3 direction 1 0 0 type fixed\n");
    snprintf(args, sizeof args, "walk '%s' -o '%s'", chain, out);
    CHECK(run(args) == 4 && strstr(err_text, "not a character"), "a chain cannot walk: %s", err_text);
}

/* URDF robots: `ikc info` lists the joints, limits and chains; `ikc solve
 * --pose` of a pose made by FK of a known Panda configuration reaches it
 * (FK of the printed joints lands there, inside the limits, and the JSON's
 * last link is the tip at the pose); position only; a pose out of reach
 * warns and exits 0; unknown links, bad quaternions and seeds are refused. */
static void test_robot_commands(void) {
    char path[900], args[2048];
    ik_urdf *u = NULL;
    ik_error err;
    ik_robot_chain chain;
    ik_real q[7] = {0.4f, -0.3f, 0.5f, -2.0f, 0.2f, 1.9f, -0.6f}, solved[7];
    ik_transform goal, tip;
    cJSON *root, *joints, *links;
    int v;
    if (!real_asset("urdf/ur5_joint_limited_robot.urdf", path, sizeof path)) return;
    snprintf(args, sizeof args, "info '%s'", path);
    CHECK(run(args) == 0 && strstr(out_text, "shoulder_pan_joint") && strstr(out_text, "-180.0..180.0 deg") &&
              strstr(out_text, "wrist_3_link > tool0\n      8 joints, 6 variables"),
          "info ur5: %s%s", out_text, err_text);
    if (!real_asset("urdf/panda.urdf", path, sizeof path)) return;
    if (ik_urdf_read_file(path, &u, &err) != IK_OK ||
        ik_urdf_robot_chain(u, "panda_link0", "panda_link8", &chain, NULL, &err) != IK_OK) {
        CHECK(0, "panda: %s", err.message);
        ik_urdf_free(u);
        return;
    }
    ik_robot_fk(&chain, q, &goal, NULL);
    snprintf(args, sizeof args, "solve '%s' --tip panda_link8 --pose %.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g --json", path,
             (double)goal.translation.x, (double)goal.translation.y, (double)goal.translation.z,
             (double)goal.rotation.x, (double)goal.rotation.y, (double)goal.rotation.z, (double)goal.rotation.w);
    CHECK(run(args) == 0, "solve panda: %s", err_text);
    root = cJSON_Parse(out_text);
    joints = cJSON_GetObjectItem(root, "joints");
    links = cJSON_GetObjectItem(root, "links");
    CHECK(root && cJSON_IsTrue(cJSON_GetObjectItem(root, "reached")) && cJSON_GetArraySize(joints) == 7 &&
              cJSON_GetArraySize(links) == 8,
          "solve panda --json: %s", out_text);
    if (cJSON_GetArraySize(joints) == 7 && cJSON_GetArraySize(links) == 8) {
        ik_vec3 last = json_vec3(cJSON_GetObjectItem(cJSON_GetArrayItem(links, 7), "position"));
        for (v = 0; v < 7; ++v) {
            solved[v] = (ik_real)cJSON_GetObjectItem(cJSON_GetArrayItem(joints, v), "value")->valuedouble;
            CHECK(solved[v] >= chain.joints[v].lower && solved[v] <= chain.joints[v].upper, "joint %d inside limits",
                  v);
        }
        ik_robot_fk(&chain, solved, &tip, NULL);
        CHECK(ik_vec3_distance(tip.translation, goal.translation) < 1e-4 &&
                  ik_quat_angle(ik_quat_mul(goal.rotation, ik_quat_conjugate(tip.rotation))) < 1e-4,
              "FK of the printed joints: off by %g m", (double)ik_vec3_distance(tip.translation, goal.translation));
        CHECK(ik_vec3_distance(last, goal.translation) < 1e-4, "the last link listed is the tip, at the pose");
    }
    cJSON_Delete(root);
    snprintf(args, sizeof args, "solve '%s' --tip panda_link8 --pose 0.4,0.1,0.5", path);
    CHECK(run(args) == 0 && strstr(out_text, "reached after") && strstr(out_text, "panda_joint7"),
          "position only: %s%s", out_text, err_text);
    snprintf(args, sizeof args, "solve '%s' --tip panda_link8 --pose 3,0,0.4 --iterations 500", path);
    CHECK(run(args) == 0 && strstr(out_text, "NOT reached") && strstr(err_text, "out of reach"), "out of reach: %s%s",
          out_text, err_text);
    snprintf(args, sizeof args, "solve '%s' --tip panda_lnk8 --pose 0.4,0.1,0.5", path);
    CHECK(run(args) == 5 && strstr(err_text, "did you mean") && strstr(err_text, "panda_link8"), "unknown link: %s",
          err_text);
    snprintf(args, sizeof args, "solve '%s' --tip panda_link8 --pose 0.4,0.1,0.5,0,0,0,2", path);
    CHECK(run(args) == 2 && strstr(err_text, "length 1"), "non-unit quaternion: %s", err_text);
    snprintf(args, sizeof args, "solve '%s' --tip panda_link8 --pose 0.4,0.1,0.5 --seed 0,0,0,0,0,0,0", path);
    CHECK(run(args) == 2 && strstr(err_text, "panda_joint4") && strstr(err_text, "outside"), "seed outside limits: %s",
          err_text);
    snprintf(args, sizeof args, "solve '%s' --pose 0.4,0.1,0.5", path);
    CHECK(run(args) == 2 && strstr(err_text, "--tip"), "no --tip: %s", err_text);
    ik_urdf_free(u);
}

/* `ikc solve ROBOT.urdf --analytic`: on the UR5, for a pose made by FK of a
 * known configuration, every listed solution lands on the pose by FK and is
 * inside the limits, and one is the configuration; the Panda (7 variables)
 * is refused with the reason; a position-only pose is refused. `ikc render
 * ROBOT.urdf` writes the UR5's picture and refuses a wrong joint count. */
static void test_robot_analytic_command(void) {
    char path[900], args[2048];
    ik_urdf *u = NULL;
    ik_error err;
    ik_robot_chain chain;
    const ik_real q[6] = {0.3f, -1.1f, 1.4f, -0.6f, 1.2f, 0.5f};
    ik_transform goal, tip;
    ik_real lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS];
    ik_bool limited[IK_ROBOT_MAX_JOINTS];
    cJSON *root, *solutions;
    int s, v, count, found = 0;
    if (!real_asset("urdf/ur5_joint_limited_robot.urdf", path, sizeof path)) return;
    if (ik_urdf_read_file(path, &u, &err) != IK_OK ||
        ik_urdf_robot_chain(u, "base_link", "ee_link", &chain, NULL, &err) != IK_OK) {
        CHECK(0, "ur5: %s", err.message);
        ik_urdf_free(u);
        return;
    }
    ik_robot_variable_limits(&chain, lower, upper, limited, NULL);
    ik_robot_fk(&chain, q, &goal, NULL);
    snprintf(args, sizeof args, "solve '%s' --tip ee_link --pose %.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g --analytic --json",
             path, (double)goal.translation.x, (double)goal.translation.y, (double)goal.translation.z,
             (double)goal.rotation.x, (double)goal.rotation.y, (double)goal.rotation.z, (double)goal.rotation.w);
    CHECK(run(args) == 0, "solve ur5 --analytic: %s", err_text);
    root = cJSON_Parse(out_text);
    solutions = cJSON_GetObjectItem(root, "solutions");
    count = cJSON_GetArraySize(solutions);
    CHECK(root && count >= 1 && count <= 8 &&
              strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(root, "kind")), "three parallel axes") == 0,
          "solve ur5 --analytic --json: %s", out_text);
    for (s = 0; s < count; ++s) {
        ik_real solved[6];
        double far = 0;
        for (v = 0; v < 6; ++v) {
            solved[v] = (ik_real)cJSON_GetArrayItem(cJSON_GetArrayItem(solutions, s), v)->valuedouble;
            CHECK(solved[v] >= lower[v] && solved[v] <= upper[v], "solution %d joint %d inside limits", s, v);
            far = fmax(far, fabs(remainder((double)solved[v] - q[v], 2 * IK_PI)));
        }
        ik_robot_fk(&chain, solved, &tip, NULL);
        CHECK(ik_vec3_distance(tip.translation, goal.translation) < 1e-4 &&
                  ik_quat_angle(ik_quat_mul(goal.rotation, ik_quat_conjugate(tip.rotation))) < 1e-4,
              "FK of solution %d: off by %g m", s, (double)ik_vec3_distance(tip.translation, goal.translation));
        found += far < 1e-3;
    }
    CHECK(found == 1, "the source configuration is listed once (%d)", found);
    cJSON_Delete(root);
    snprintf(args, sizeof args, "solve '%s' --tip ee_link --pose 0.4,0.1,0.5 --analytic", path);
    CHECK(run(args) == 2 && strstr(err_text, "orientation"), "analytic position only: %s", err_text);
    ik_urdf_free(u);
    {
        char out[300];
        FILE *png;
        long size = 0;
        path_in(out, sizeof out, "ur5.png");
        snprintf(args, sizeof args, "render '%s' --tip ee_link --joints 0.3,-1.1,1.4,-0.6,1.2,0.5 -o '%s'", path, out);
        CHECK(run(args) == 0 && strstr(out_text, "9 links"), "render ur5: %s%s", out_text, err_text);
        png = fopen(out, "rb");
        if (png) {
            fseek(png, 0, SEEK_END);
            size = ftell(png);
            fclose(png);
        }
        CHECK(size > 1000, "render ur5 wrote a picture (%ld bytes)", size);
        snprintf(args, sizeof args, "render '%s' --tip ee_link --joints 0.3,-1.1 -o '%s'", path, out);
        CHECK(run(args) == 2 && strstr(err_text, "6 variables"), "render with 2 joint values: %s", err_text);
    }
    if (!real_asset("urdf/panda.urdf", path, sizeof path)) return;
    snprintf(args, sizeof args, "solve '%s' --tip panda_link8 --pose 0.4,0.1,0.5,0,0,0,1 --analytic", path);
    CHECK(run(args) == 4 && strstr(err_text, "no closed form") && strstr(err_text, "6 joint variables"),
          "panda --analytic: %s", err_text);
}

/* The model positions of every joint of a BVH's frame f (sampled from its
 * clip on its rest pose) into model [joint_count]. */
static void bvh_frame_fk(const ik_bvh *bvh, int f, ik_transform *pose, ik_mat4 *model) {
    ik_skeleton_rest_pose(&bvh->skeleton, pose);
    ik_clip_sample(&bvh->clip, (ik_real)(f * bvh->frame_time), pose);
    ik_skeleton_fk(&bvh->skeleton, pose, NULL, model);
}

/* solve --all-frames with --targets-file on the CMU walk: the left ankle's
 * target, keyed every 10th frame at a third of the way from the ankle to
 * its hip (a bent knee) and moved linearly between, is where FK of every
 * frame of the written take puts the ankle; the head never moves. */
static void test_solve_all_frames(void) {
    char path[900], out[300], targets[300], args[2000];
    ik_bvh *before = NULL, *after = NULL;
    ik_transform *pose;
    ik_mat4 *model, *model_after;
    ik_vec3 *keyed;
    int ankle, hip, head, f, frames, J, missed = 0, moved = 0;
    ik_real worst = 0;
    FILE *file;
    if (!real_asset("bvh/131_01.bvh", path, sizeof path)) return;
    if (ik_bvh_read_file(path, &before, NULL) != IK_OK) {
        CHECK(0, "131_01.bvh loads");
        return;
    }
    J = before->skeleton.joint_count;
    frames = before->frame_count;
    ankle = ik_skeleton_find(&before->skeleton, "LeftAnkle");
    hip = ik_skeleton_find(&before->skeleton, "LeftHip");
    head = ik_skeleton_find(&before->skeleton, "Head");
    pose = (ik_transform *)malloc((size_t)J * sizeof *pose);
    model = (ik_mat4 *)malloc((size_t)J * sizeof *model);
    model_after = (ik_mat4 *)malloc((size_t)J * sizeof *model_after);
    keyed = (ik_vec3 *)malloc((size_t)frames * sizeof *keyed);
    path_in(targets, sizeof targets, "ankle_targets.txt");
    file = fopen(targets, "w");
    fprintf(file, "# time joint x y z\n\n");
    for (f = 0; f < frames; ++f) {
        bvh_frame_fk(before, f, pose, model);
        keyed[f] = ik_vec3_lerp(ik_mat4_translation(&model[ankle]), ik_mat4_translation(&model[hip]), 0.3f);
        if (f % 10 == 0 || f == frames - 1)
            fprintf(file, "%.9g LeftAnkle %.9g %.9g %.9g\n", f * before->frame_time, (double)keyed[f].x,
                    (double)keyed[f].y, (double)keyed[f].z);
    }
    fclose(file);
    path_in(out, sizeof out, "all_frames.bvh");
    snprintf(args, sizeof args, "solve '%s' --clip motion --all-frames --targets-file '%s' -o '%s' --quiet", path,
             targets, out);
    CHECK(run(args) == 0, "solve every frame: %s", err_text);
    if (ik_bvh_read_file(out, &after, NULL) != IK_OK || after->frame_count != frames) {
        CHECK(0, "the written take has all %d frames (%d)", frames, after ? after->frame_count : -1);
    } else {
        for (f = 0; f < frames; ++f) {
            int k = f / 10 * 10, next = k + 10 < frames ? k + 10 : frames - 1;
            /* the file's keys are every 10th frame and the last: linear between */
            ik_vec3 want =
                next == k ? keyed[k] : ik_vec3_lerp(keyed[k], keyed[next], (ik_real)(f - k) / (ik_real)(next - k));
            ik_real miss;
            bvh_frame_fk(after, f, pose, model_after);
            miss = ik_vec3_distance(ik_mat4_translation(&model_after[ankle]), want);
            worst = miss > worst ? miss : worst;
            missed += miss > 2e-3f;
            bvh_frame_fk(before, f, pose, model);
            moved +=
                ik_vec3_distance(ik_mat4_translation(&model_after[head]), ik_mat4_translation(&model[head])) > 1e-3f;
        }
        CHECK(missed == 0, "every frame's ankle on its target: %d of %d frames missed (worst %g)", missed, frames,
              (double)worst);
        CHECK(moved == 0, "the head stays where the take has it (%d frames moved)", moved);
    }
    /* a fixed target on a glTF clip that runs in place: every frame of the
     * written clip (sampled at its 30 fps frame times) has the foot there */
    if (real_asset("gltf/girl.glb", path, sizeof path)) {
        ik_gltf *g = NULL;
        const ik_vec3 fixed = ik_v3(0.1f, 0.2f, 0.1f);
        path_in(out, sizeof out, "girl_run.glb");
        snprintf(args, sizeof args,
                 "solve '%s' --clip RunTrack --all-frames --target Foot.L=0.1,0.2,0.1 -o '%s' --quiet", path, out);
        CHECK(run(args) == 0, "solve every frame of a glTF clip: %s", err_text);
        if (ik_gltf_read_file(out, &g, NULL) == IK_OK) {
            const ik_gltf_skin *skin = ik_gltf_skeleton(g, 0);
            const ik_clip *run_clip = NULL;
            ik_transform girl_pose[64];
            ik_mat4 girl_model[64];
            int c, foot = ik_skeleton_find(&skin->skeleton, "Foot.L"), off = 0, n = 0;
            for (c = 0; c < ik_gltf_clip_count(g); ++c)
                if (ik_gltf_clip(g, c, 0)->name && strcmp(ik_gltf_clip(g, c, 0)->name, "RunTrack") == 0)
                    run_clip = ik_gltf_clip(g, c, 0);
            for (f = 0; run_clip && skin->skeleton.joint_count <= 64 && (ik_real)f / 30 <= run_clip->duration;
                 ++f, ++n) {
                ik_skeleton_rest_pose(&skin->skeleton, girl_pose);
                ik_clip_sample(run_clip, (ik_real)f / 30, girl_pose);
                ik_skeleton_fk(&skin->skeleton, girl_pose, &skin->root_ms, girl_model);
                off += ik_vec3_distance(ik_mat4_translation(&girl_model[foot]), fixed) > 1e-3f;
            }
            CHECK(run_clip && n >= 30 && off == 0, "Foot.L on the fixed target in every frame: %d of %d off", off, n);
            ik_gltf_free(g);
        } else {
            CHECK(0, "the solved glTF loads");
        }
    }
    path_in(out, sizeof out, "all_frames.bvh");
    real_asset("bvh/131_01.bvh", path, sizeof path);
    snprintf(args, sizeof args, "solve '%s' --all-frames --target LeftAnkle=0,0,0 -o '%s' --quiet", path, out);
    CHECK(run(args) == 2 && strstr(err_text, "--all-frames needs --clip"), "--all-frames without --clip: %s", err_text);
    write_text(targets, "0.5 LeftAnkle 1 2 3\n0.25 LeftAnkle 1 2 3\n");
    snprintf(args, sizeof args, "solve '%s' --clip motion --all-frames --targets-file '%s' -o '%s' --quiet", path,
             targets, out);
    CHECK(run(args) == 4 && strstr(err_text, ":2:") && strstr(err_text, "go back"), "times going back: %s", err_text);
    write_text(targets, "0.5 LeftAnkle 1 2\n");
    CHECK(run(args) == 4 && strstr(err_text, ":1:"), "a short line: %s", err_text);
    free(pose);
    free(model);
    free(model_after);
    free(keyed);
    ik_bvh_free(before);
    ik_bvh_free(after);
}

/* ikc fit on the CMU walk at 1 mm (CMU units given): the written BVH (the
 * fitted keys re-baked) puts every joint within 1 mm of the take (plus the
 * BVH text's rounding), the table shows ours under 10 % of the frames and
 * below the greedy method, the plot is written; glTF keeps CUBICSPLINE
 * keys that sample within E; bad errors are refused. */
static void test_fit(void) {
    char path[900], out[300], plot[300], args[2000];
    const double unit = 0.0254 / 0.45, E = 0.001 / unit;
    ik_bvh *before = NULL, *after = NULL;
    ik_transform *pose;
    ik_mat4 *model, *model_after;
    const char *row;
    long ours_keys = -1, greedy_keys = -1;
    double ours_percent = 100;
    int f, j, J, bad = 0;
    double worst = 0;
    if (!real_asset("bvh/131_01.bvh", path, sizeof path)) return;
    path_in(out, sizeof out, "fitted.bvh");
    path_in(plot, sizeof plot, "fit_keys.png");
    snprintf(args, sizeof args, "fit '%s' --error 1mm --unit %.9g -o '%s' --plot '%s'", path, unit, out, plot);
    CHECK(run(args) == 0, "fit the walk: %s", err_text);
    if ((row = strstr(out_text, "fitted (ours)")) != NULL) sscanf(row + 13, "%ld %lf", &ours_keys, &ours_percent);
    if ((row = strstr(out_text, "greedy per curve")) != NULL) sscanf(row + 16, "%ld", &greedy_keys);
    CHECK(ours_keys > 0 && ours_percent <= 10 && greedy_keys > ours_keys,
          "at most 10 %% of frames and fewer keys than greedy: %ld (%g %%) vs %ld\n%s", ours_keys, ours_percent,
          greedy_keys, out_text);
    CHECK(file_size(plot) > 1000, "the plot is written");
    if (ik_bvh_read_file(path, &before, NULL) != IK_OK || ik_bvh_read_file(out, &after, NULL) != IK_OK ||
        after->frame_count != before->frame_count) {
        CHECK(0, "the fitted BVH loads with every frame");
    } else {
        J = before->skeleton.joint_count;
        pose = (ik_transform *)malloc((size_t)J * sizeof *pose);
        model = (ik_mat4 *)malloc((size_t)J * sizeof *model);
        model_after = (ik_mat4 *)malloc((size_t)J * sizeof *model_after);
        for (f = 0; f < before->frame_count; ++f) {
            bvh_frame_fk(before, f, pose, model);
            bvh_frame_fk(after, f, pose, model_after);
            for (j = 0; j < J; ++j) {
                double d =
                    (double)ik_vec3_distance(ik_mat4_translation(&model[j]), ik_mat4_translation(&model_after[j]));
                worst = d > worst ? d : worst;
                /* the BVH keeps 6 decimals of each angle and offset */
                bad += d > E * 1.02;
            }
        }
        CHECK(bad == 0, "every joint of every frame within 1 mm (worst %.3g mm, %d misses)", worst * unit * 1e3, bad);
        free(pose);
        free(model);
        free(model_after);
    }
    ik_bvh_free(before);
    ik_bvh_free(after);
    if (real_asset("gltf/robot.glb", path, sizeof path)) {
        ik_gltf *g = NULL;
        path_in(out, sizeof out, "fitted.glb");
        snprintf(args, sizeof args, "fit '%s' --clip Robot_Walking --error 1mm --no-compare -o '%s'", path, out);
        CHECK(run(args) == 0, "fit a glTF clip: %s", err_text);
        if (ik_gltf_read_file(out, &g, NULL) == IK_OK) {
            int clip, c, cubic = 1;
            const ik_clip *fitted = NULL;
            for (clip = 0; clip < ik_gltf_clip_count(g); ++clip) {
                const ik_clip *k = ik_gltf_clip(g, clip, 0);
                if (k && k->name && strcmp(k->name, "Robot_Walking") == 0) fitted = k;
            }
            for (c = 0; fitted && c < fitted->channel_count; ++c)
                cubic &= fitted->channels[c].interpolation == IK_INTERP_CUBICSPLINE;
            CHECK(fitted && fitted->channel_count > 0 && cubic, "the glTF clip now has CUBICSPLINE keys");
            ik_gltf_free(g);
        } else {
            CHECK(0, "the fitted glTF loads");
        }
    }
    snprintf(args, sizeof args, "fit '%s' --error 0 -o '%s'", path, out);
    CHECK(run(args) == 2 && strstr(err_text, "--error"), "--error 0 refused: %s", err_text);
    snprintf(args, sizeof args, "fit '%s' --error 1furlong -o '%s'", path, out);
    CHECK(run(args) == 2, "a bad unit refused: %s", err_text);
}

/* ikc fit refuses takes it cannot fit, with the reason: one frame, a
 * frame time of 0, a NaN channel; nothing is written. */
static void test_fit_bad_takes(void) {
    static const char *const head =
        "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n"
        " CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n"
        " JOINT Knee\n {\n  OFFSET 0 -1 0\n  CHANNELS 3 Zrotation Yrotation Xrotation\n"
        "  End Site\n  {\n   OFFSET 0 -1 0\n  }\n }\n}\nMOTION\n";
    static const char *const motions[3] = {
        "Frames: 1\nFrame Time: 0.0083333\n0 0 0 0 0 0 10 0 0\n",
        "Frames: 2\nFrame Time: 0\n0 0 0 0 0 0 10 0 0\n0 0 0 0 0 0 20 0 0\n",
        "Frames: 2\nFrame Time: 0.0083333\n0 0 0 0 0 0 10 0 0\n0 0 0 0 0 nan 20 0 0\n"};
    static const char *const why[3] = {"single frame", "frame time must be > 0", "not finite"};
    char in[300], out[300], text[1000], args[1000];
    int i;
    path_in(in, sizeof in, "bad_take.bvh");
    path_in(out, sizeof out, "bad_take_fit.bvh");
    for (i = 0; i < 3; ++i) {
        snprintf(text, sizeof text, "%s%s", head, motions[i]);
        write_text(in, text);
        snprintf(args, sizeof args, "fit '%s' --error 1mm -o '%s'", in, out);
        CHECK(run(args) == 4 && strstr(err_text, why[i]) && file_size(out) < 0, "bad take %d refused: %s", i, err_text);
    }
}

/* The groups, in the order a run without arguments takes (see
 * support/test_groups.h): ctest runs each as test_ikc.NAME, side by side. */
static const test_group groups[] = {
    TEST_GROUP(lsan_suppressions),
    TEST_GROUP(help_and_version),
    TEST_GROUP(info_real_assets),
    TEST_GROUP(info_generated),
    TEST_GROUP(info_deep_hierarchy),
    TEST_GROUP(solve_bvh),
    TEST_GROUP(solve_gltf),
    TEST_GROUP(render),
    TEST_GROUP(render_far),
    TEST_GROUP(render_meshes),
    TEST_GROUP(render_many_labels),
    TEST_GROUP(labels_beside_figure),
    TEST_GROUP_SLOW(labels_beside_figure_sweep),
    TEST_GROUP(render_framing),
    TEST_GROUP(errors),
    TEST_GROUP(info_humanoid),
    TEST_GROUP(solve_left_hand),
    TEST_GROUP(solve_full_body),
    TEST_GROUP(solve_bvh_take),
    TEST_GROUP(solve_messages),
    TEST_GROUP_SLOW(natural_bend_131_01),
    TEST_GROUP_SLOW(natural_bend_01_01),
    TEST_GROUP_SLOW(natural_bend_girl),
    TEST_GROUP_SLOW(natural_bend_male_base_mesh),
    TEST_GROUP_SLOW(natural_bend_rigged_figure),
    TEST_GROUP_SLOW(natural_bend_robot),
    TEST_GROUP(chain_stops_fox),
    TEST_GROUP(chain_stops_hands),
    TEST_GROUP(chain_off_trunk),
    TEST_GROUP(render_names_bad_mesh),
    TEST_GROUP(solve_slope),
    TEST_GROUP(solve_ground_files),
    TEST_GROUP(solve_look_at),
    TEST_GROUP_SLOW(solve_look_at_sweep),
    TEST_GROUP(solve_clip_ground),
    TEST_GROUP(solve_clip_terrain),
    TEST_GROUP(solve_foot_cannot_reach),
    TEST_GROUP(role_errors),
    TEST_GROUP(demo),
    TEST_GROUP(temporary_not_predictable),
    TEST_GROUP(sigterm_removes_temporary),
    TEST_GROUP(solve_keeps_input_files),
    TEST_GROUP(solve_refuses_input_as_output),
    TEST_GROUP(special_inputs),
    TEST_GROUP(names_shown_safely),
    TEST_GROUP(walk_command),
    TEST_GROUP(robot_commands),
    TEST_GROUP(robot_analytic_command),
    TEST_GROUP(solve_all_frames),
    TEST_GROUP(fit),
    TEST_GROUP(fit_bad_takes),
};

/* test_ikc [GROUP...]: the groups named, or all; each run in a work
 * directory of its own, which must hold no temporary file at the end. */
int main(int argc, char **argv) {
    if (!ikc_run_begin("ikc")) return 1;
    write_shared_inputs();
    if (!test_groups_run(groups, (int)(sizeof groups / sizeof groups[0]), argc, argv)) {
        ikc_run_end();
        return 2;
    }
    test_no_temporary_files_left();
    ikc_run_end();
    return check_summary("ikc");
}

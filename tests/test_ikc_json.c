/* The commands' --json reports (issue 26, item 9), read back with cJSON and
 * checked against the file as the library reads it: `ikc info --json` on
 * every shared asset (joints, parents, rest positions by forward
 * kinematics, the humanoid's roles, clips), on a chain file and on a
 * skeleton that is no humanoid; the refusals. `ikc retarget --json` and
 * `ikc clean --json` against the same runs' tables, with a failing check
 * and a cycle made in place; `ikc fit --json` with its written keys
 * checked against the take; `ikc walk --json` against the written clip. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include <ikit/asset.h>
#include <ikit/clip.h>
#include <ikit/humanoid.h>
#include <ikit/skeleton.h>

#include "support/check.h"
#include "support/ikc_run.h"
#include "support/test_groups.h"

/* stdout parsed as one JSON object, NULL (and a failed check) otherwise. */
static cJSON *run_json(const char *args, int *code) {
    cJSON *root;
    *code = run(args);
    root = cJSON_Parse(out_text);
    CHECK(root && cJSON_IsObject(root), "ikc %s: not one JSON object: %.200s%s", args, out_text, err_text);
    return root;
}

static const char *text_of(const cJSON *o, const char *key) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(item) ? item->valuestring : NULL;
}

/* The joints against the asset: names, parents, rest positions under the
 * root (FK of the rest pose) within 1e-5 of the largest extent. */
static void check_joints(const char *what, const cJSON *joints, const ik_asset *asset) {
    const ik_skeleton *s = asset->skeleton;
    ik_transform *pose = (ik_transform *)malloc((size_t)s->joint_count * sizeof *pose);
    ik_mat4 *ms = (ik_mat4 *)malloc((size_t)s->joint_count * sizeof *ms);
    double worst = 0, extent = 1e-9;
    int j, names = 0, parents = 0;
    CHECK(cJSON_GetArraySize(joints) == s->joint_count, "%s: %d joints listed, %d in the file", what,
          cJSON_GetArraySize(joints), s->joint_count);
    ik_skeleton_rest_pose(s, pose);
    ik_skeleton_fk(s, pose, &asset->root_ms, ms);
    for (j = 0; j < s->joint_count && j < cJSON_GetArraySize(joints); ++j) {
        const cJSON *o = cJSON_GetArrayItem(joints, j), *p = cJSON_GetObjectItem(o, "rest_ms");
        const char *name = text_of(o, "name");
        ik_vec3 at = ik_mat4_translation(&ms[j]);
        names += name && strcmp(name, ik_skeleton_name(s, j)) == 0;
        parents += cJSON_GetObjectItem(o, "parent") && cJSON_GetObjectItem(o, "parent")->valueint == s->parents[j];
        if (cJSON_GetArraySize(p) == 3) {
            double d[3] = {cJSON_GetArrayItem(p, 0)->valuedouble - (double)at.x,
                           cJSON_GetArrayItem(p, 1)->valuedouble - (double)at.y,
                           cJSON_GetArrayItem(p, 2)->valuedouble - (double)at.z};
            worst = fmax(worst, sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]));
        } else {
            worst = HUGE_VAL;
        }
        extent = fmax(extent, (double)ik_vec3_length(at));
    }
    CHECK(names == s->joint_count && parents == s->joint_count, "%s: %d names and %d parents of %d agree", what, names,
          parents, s->joint_count);
    CHECK(worst <= 1e-5 * extent, "%s: a rest position %g off forward kinematics", what, worst);
    free(pose);
    free(ms);
}

/* The humanoid's roles against ik_humanoid_map_find on the same skeleton. */
static void check_roles(const char *what, const cJSON *humanoid, const ik_asset *asset) {
    const cJSON *roles = cJSON_GetObjectItem(humanoid, "roles");
    ik_humanoid_map map;
    ik_humanoid rig;
    int role, agree = 0;
    ik_result found = ik_humanoid_map_find(asset->skeleton, NULL, 0, &map);
    int usable = found == IK_OK && ik_humanoid_init(&rig, asset->skeleton, &map) == IK_OK;
    CHECK(cJSON_IsBool(cJSON_GetObjectItem(humanoid, "usable")) &&
              cJSON_IsTrue(cJSON_GetObjectItem(humanoid, "usable")) == usable,
          "%s: usable %d", what, usable);
    for (role = 0; role < IK_ROLE_COUNT; ++role) {
        const cJSON *item = cJSON_GetObjectItem(roles, ik_humanoid_role_name(role));
        if (map.joint[role] < 0)
            agree += cJSON_IsNull(item);
        else
            agree += cJSON_IsString(item) &&
                     strcmp(item->valuestring, ik_skeleton_name(asset->skeleton, map.joint[role])) == 0;
    }
    CHECK(agree == IK_ROLE_COUNT, "%s: %d of %d roles agree with the map", what, agree, IK_ROLE_COUNT);
}

static void check_clips(const char *what, const cJSON *clips, const ik_asset *asset) {
    int c, agree = 0;
    CHECK(cJSON_GetArraySize(clips) == ik_asset_clip_count(asset), "%s: %d clips listed, %d in the file", what,
          cJSON_GetArraySize(clips), ik_asset_clip_count(asset));
    for (c = 0; c < ik_asset_clip_count(asset) && c < cJSON_GetArraySize(clips); ++c) {
        const cJSON *o = cJSON_GetArrayItem(clips, c);
        agree +=
            fabs(cJSON_GetObjectItem(o, "duration")->valuedouble - (double)ik_asset_clip(asset, c)->duration) < 1e-6 &&
            cJSON_GetObjectItem(o, "channels")->valueint == ik_asset_clip(asset, c)->channel_count;
    }
    CHECK(agree == ik_asset_clip_count(asset), "%s: %d clips agree", what, agree);
}

static void test_info_real_assets(void) {
    static const char *const files[] = {"gltf/SimpleSkin.gltf",   "gltf/girl.glb",  "gltf/male_base_mesh.glb",
                                        "gltf/rigged_figure.glb", "gltf/robot.glb", "bvh/01_01.bvh",
                                        "bvh/131_01.bvh",         "bvh/131_02.bvh"};
    char path[900], args[1100];
    int i, code;
    for (i = 0; i < (int)(sizeof files / sizeof files[0]); ++i) {
        ik_asset asset;
        cJSON *root;
        if (!real_asset(files[i], path, sizeof path)) continue;
        snprintf(args, sizeof args, "info '%s' --json", path);
        root = run_json(args, &code);
        CHECK(code == 0, "%s: exit %d: %s", args, code, err_text);
        if (!root) continue;
        if (ik_asset_load(path, &asset, NULL) != IK_OK) {
            CHECK(0, "%s does not load", path);
            cJSON_Delete(root);
            continue;
        }
        CHECK(text_of(root, "file") && strcmp(text_of(root, "file"), path) == 0 && text_of(root, "format"),
              "%s: file and format", files[i]);
        check_joints(files[i], cJSON_GetObjectItem(root, "joints"), &asset);
        check_clips(files[i], cJSON_GetObjectItem(root, "clips"), &asset);
        if (cJSON_IsObject(cJSON_GetObjectItem(root, "humanoid")))
            check_roles(files[i], cJSON_GetObjectItem(root, "humanoid"), &asset);
        else
            CHECK(0, "%s: no humanoid object", files[i]);
        /* as many chains as the table lists (its "chains found by name: N") */
        {
            int chains = cJSON_GetArraySize(cJSON_GetObjectItem(root, "chains")), listed = -1;
            const char *at;
            snprintf(args, sizeof args, "info '%s'", path);
            at = run(args) == 0 ? strstr(out_text, "chains found by name: ") : NULL;
            if (at) listed = atoi(at + strlen("chains found by name: "));
            CHECK(chains == listed, "%s: %d chains in JSON, %d in the table", files[i], chains, listed);
        }
        if (asset.gltf) CHECK(cJSON_IsObject(cJSON_GetObjectItem(root, "skin")), "%s: the skin", files[i]);
        ik_asset_free(&asset);
        cJSON_Delete(root);
    }
}

/* A chain file (targets, no humanoid), a tail that is no humanoid (the
 * required roles listed as missing), and the refusals. */
static void test_info_generated(void) {
    char chain[300], tail[300], args[700];
    cJSON *root;
    int code;
    path_in(chain, sizeof chain, "arm.chain");
    write_text(chain,
               "chain arm\njoint shoulder type ball cone 90\njoint elbow length 0.3 direction 1 0 0 type hinge "
               "axis 0 0 1 limit 0 150\njoint hand length 0.25 type fixed\ntarget cup joint hand position 0.3 0.2 0\n");
    snprintf(args, sizeof args, "info '%s' --json", chain);
    root = run_json(args, &code);
    if (root) {
        const cJSON *targets = cJSON_GetObjectItem(root, "targets");
        CHECK(code == 0 && cJSON_GetArraySize(cJSON_GetObjectItem(root, "joints")) == 3 &&
                  cJSON_IsNull(cJSON_GetObjectItem(root, "humanoid")) && cJSON_GetArraySize(targets) == 1 &&
                  strcmp(text_of(cJSON_GetArrayItem(targets, 0), "name"), "cup") == 0 &&
                  strcmp(text_of(cJSON_GetArrayItem(targets, 0), "joint"), "hand") == 0,
              "chain file: %s", out_text);
        cJSON_Delete(root);
    }
    path_in(tail, sizeof tail, "tail.bvh");
    write_text(tail,
               "HIERARCHY\nROOT Base\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n JOINT Tail1\n"
               " {\n  OFFSET 0 1 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  End Site\n  {\n   OFFSET 0 1 0\n"
               "  }\n }\n}\nMOTION\nFrames: 2\nFrame Time: 0.1\n0 0 0 0 0 0\n0 0 0 10 0 0\n");
    snprintf(args, sizeof args, "info '%s' --json", tail);
    root = run_json(args, &code);
    if (root) {
        const cJSON *h = cJSON_GetObjectItem(root, "humanoid"), *missing = cJSON_GetObjectItem(h, "missing");
        int i, thigh = 0;
        for (i = 0; i < cJSON_GetArraySize(missing); ++i)
            thigh |= strcmp(cJSON_GetArrayItem(missing, i)->valuestring, "left_thigh") == 0;
        CHECK(code == 0 && cJSON_IsFalse(cJSON_GetObjectItem(h, "usable")) && thigh &&
                  cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(h, "roles"), "left_thigh")),
              "no humanoid: usable false, left_thigh missing: %s", out_text);
        cJSON_Delete(root);
    }
    snprintf(args, sizeof args, "info '%s' --json --map '%s/none.map'", tail, work_dir);
    CHECK(run(args) == 3 && out_text[0] == '\0', "a missing mapping file: exit 3, nothing on stdout: %s", err_text);
}

static double number_at(const cJSON *o, const char *path) {
    char key[64];
    const char *dot;
    while ((dot = strchr(path, '.')) != NULL) {
        snprintf(key, sizeof key, "%.*s", (int)(dot - path), path);
        o = cJSON_GetObjectItem(o, key);
        path = dot + 1;
    }
    o = cJSON_GetObjectItem(o, path);
    return cJSON_IsNumber(o) ? o->valuedouble : NAN;
}

/* The number after `label` in the last table run's stdout, NAN if absent. */
static double table_number(const char *label) {
    const char *at = strstr(out_text, label);
    return at ? atof(at + strlen(label)) : NAN;
}

/* `ikc retarget --json` against the same run's table, the crossed-legs map
 * (exit 7, each failed group listed), then `ikc clean --json` of the result
 * against its table, and of a cycle made in place. */
static void test_retarget_and_clean(void) {
    char source[900], rig[900], out[300], cleaned[300], map_file[300], args[3000];
    double held, slide, thighs;
    cJSON *root;
    int code;
    if (!real_asset("bvh/131_01.bvh", source, sizeof source) || !real_asset("gltf/robot.glb", rig, sizeof rig)) return;
    path_in(out, sizeof out, "walk.glb");
    snprintf(args, sizeof args, "retarget '%s' '%s' -o '%s' --quiet", source, rig, out);
    code = run(args);
    {
        const char *at = strstr(out_text, " contacts held");
        while (at && at > out_text && at[-1] != ' ') --at;
        held = at ? atof(at) : NAN;
    }
    slide = table_number("slide worst ");
    thighs = table_number("thighs ");
    CHECK(code == 0 && held > 0 && slide >= 0 && thighs >= 0, "retarget's table: exit %d, %g held, slide %g, thighs %g",
          code, held, slide, thighs);
    snprintf(args, sizeof args, "retarget '%s' '%s' -o '%s' --overwrite --json", source, rig, out);
    root = run_json(args, &code);
    if (root) {
        CHECK(code == 0 && cJSON_IsTrue(cJSON_GetObjectItem(root, "written")) && number_at(root, "exit_code") == 0 &&
                  file_size(out) > 0 && cJSON_GetArraySize(cJSON_GetObjectItem(root, "checks_failed")) == 0,
              "retarget --json: exit %d, written: %s", code, err_text);
        CHECK(number_at(root, "contacts_held") == held, "contacts held: %g in JSON, %g in the table",
              number_at(root, "contacts_held"), held);
        CHECK(fabs(number_at(root, "ground.worst_slide_mm") - slide) < 0.051,
              "worst slide: %g in JSON, %g in the table", number_at(root, "ground.worst_slide_mm"), slide);
        CHECK(fabs(number_at(root, "directions.thighs.median_deg") - thighs) < 0.051 &&
                  number_at(root, "directions.thighs.goal_p95_deg") > 39.9,
              "thighs: %g in JSON, %g in the table", number_at(root, "directions.thighs.median_deg"), thighs);
        CHECK(number_at(root, "after_ik.travel_mm") < number_at(root, "before_ik.travel_mm"),
              "travel cut by the IK pass");
        cJSON_Delete(root);
    }
    /* crossed legs: every group fails; the file is written all the same */
    path_in(map_file, sizeof map_file, "crossed.map");
    write_text(map_file,
               "left_thigh = RightHip\nright_thigh = LeftHip\nleft_shin = RightKnee\nright_shin = LeftKnee\n"
               "left_foot = RightAnkle\nright_foot = LeftAnkle\nleft_toe = RightToe\nright_toe = LeftToe\n");
    {
        char bvh_rig[900], crossed[300];
        if (real_asset("bvh/131_02.bvh", bvh_rig, sizeof bvh_rig)) {
            path_in(crossed, sizeof crossed, "crossed.bvh");
            snprintf(args, sizeof args, "retarget '%s' '%s' --target-map '%s' -o '%s' --json", source, bvh_rig,
                     map_file, crossed);
            root = run_json(args, &code);
            if (root) {
                const cJSON *failed = cJSON_GetObjectItem(root, "checks_failed");
                int i, trunk = 0;
                for (i = 0; i < cJSON_GetArraySize(failed); ++i)
                    trunk |= strcmp(cJSON_GetArrayItem(failed, i)->valuestring, "trunk") == 0;
                CHECK(code == 7 && number_at(root, "exit_code") == 7 &&
                          cJSON_IsTrue(cJSON_GetObjectItem(root, "written")) && trunk && file_size(crossed) > 0,
                      "crossed legs --json: exit %d, %d checks failed: %s", code, cJSON_GetArraySize(failed), out_text);
                cJSON_Delete(root);
            }
        }
    }
    /* the clean-up of the result */
    path_in(cleaned, sizeof cleaned, "walk_clean.glb");
    snprintf(args, sizeof args, "clean '%s' --clip retarget -o '%s' --quiet", out, cleaned);
    code = run(args);
    slide = table_number("worst slide (mm)");
    {
        const char *at = strstr(out_text, "worst slide (mm)");
        double after = NAN;
        if (at) {
            char *end;
            strtod(at + strlen("worst slide (mm)"), &end);
            after = strtod(end, NULL);
        }
        snprintf(args, sizeof args, "clean '%s' --clip retarget -o '%s' --overwrite --json", out, cleaned);
        root = run_json(args, &code);
        if (root) {
            CHECK(code == 0 && cJSON_IsTrue(cJSON_GetObjectItem(root, "written")) &&
                      cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "in_place"), "cycle")),
                  "clean --json: exit %d: %s", code, err_text);
            CHECK(fabs(number_at(root, "before.outside.worst_slide_mm") - slide) < 0.051 &&
                      fabs(number_at(root, "after.outside.worst_slide_mm") - after) < 0.051,
                  "clean's slides: %g and %g in JSON, %g and %g in the table",
                  number_at(root, "before.outside.worst_slide_mm"), number_at(root, "after.outside.worst_slide_mm"),
                  slide, after);
            CHECK(number_at(root, "after.travel_mm") <= number_at(root, "before.travel_mm"), "clean cuts the travel");
            cJSON_Delete(root);
        }
    }
    /* a cycle made in place, kept so */
    if (real_asset("gltf/girl.glb", rig, sizeof rig)) {
        snprintf(args, sizeof args, "clean '%s' --clip RunTrack -o '%s' --overwrite --json", rig, cleaned);
        root = run_json(args, &code);
        if (root) {
            const cJSON *ip = cJSON_GetObjectItem(root, "in_place");
            CHECK(code == 0 && cJSON_IsTrue(cJSON_GetObjectItem(root, "kept_in_place")) &&
                      cJSON_IsTrue(cJSON_GetObjectItem(ip, "cycle")) && number_at(ip, "stances") >= 2 &&
                      number_at(ip, "slide_speed_m_s") > 0.5,
                  "in-place cycle --json: exit %d: %s", code, out_text);
            cJSON_Delete(root);
        }
    }
}

/* `ikc fit --json` on 131_01 at 1 mm: the report's figures, and the written
 * BVH read back: every joint within E (the report's error in the file's
 * units) of the take at every frame, by forward kinematics of both. */
static void test_fit(void) {
    char source[900], out[300], args[1400];
    cJSON *root;
    int code;
    if (!real_asset("bvh/131_01.bvh", source, sizeof source)) return;
    path_in(out, sizeof out, "fitted.bvh");
    snprintf(args, sizeof args, "fit '%s' --error 1mm -o '%s' --json", source, out);
    root = run_json(args, &code);
    if (!root) return;
    CHECK(code == 0 && cJSON_IsTrue(cJSON_GetObjectItem(root, "written")) && number_at(root, "frames") == 994 &&
              number_at(root, "fitted.max_error_mm") <= 1.0 + 1e-6 &&
              number_at(root, "fitted.keys") < number_at(root, "greedy.keys"),
          "fit --json: exit %d: %s", code, out_text);
    {
        ik_asset a, b;
        double e = number_at(root, "error_units"), worst = 0;
        if (ik_asset_load(source, &a, NULL) == IK_OK && ik_asset_load(out, &b, NULL) == IK_OK) {
            int n = a.skeleton->joint_count, f, j;
            ik_mat4 *ma = (ik_mat4 *)malloc((size_t)n * sizeof *ma), *mb = (ik_mat4 *)malloc((size_t)n * sizeof *mb);
            ik_transform *pa = (ik_transform *)malloc((size_t)n * sizeof *pa);
            ik_transform *pb = (ik_transform *)malloc((size_t)n * sizeof *pb);
            CHECK(b.bvh && b.bvh->frame_count == a.bvh->frame_count && b.skeleton->joint_count == n,
                  "the fitted BVH keeps the take's frames and joints");
            for (f = 0; f < a.bvh->frame_count && b.bvh && b.bvh->frame_count == a.bvh->frame_count; ++f) {
                ik_real t = (ik_real)(f * a.bvh->frame_time);
                memcpy(pa, a.skeleton->rest_ls, (size_t)n * sizeof *pa);
                memcpy(pb, b.skeleton->rest_ls, (size_t)n * sizeof *pb);
                ik_clip_sample(ik_asset_clip(&a, 0), t, pa);
                ik_clip_sample(ik_asset_clip(&b, 0), t, pb);
                ik_skeleton_fk(a.skeleton, pa, NULL, ma);
                ik_skeleton_fk(b.skeleton, pb, NULL, mb);
                for (j = 0; j < n; ++j)
                    worst =
                        fmax(worst, (double)ik_vec3_distance(ik_mat4_translation(&ma[j]), ik_mat4_translation(&mb[j])));
            }
            printf("fit --json: %g keys, the written BVH within %.4f units of the take (E = %.4f)\n",
                   number_at(root, "fitted.keys"), worst, e);
            CHECK(worst <= e * 1.001, "a joint of the written BVH %.4g units from the take (E %.4g)", worst, e);
            free(ma), free(mb), free(pa), free(pb);
            ik_asset_free(&b);
        }
        ik_asset_free(&a);
    }
    cJSON_Delete(root);
}

/* `ikc walk --json` on girl.glb: the report's distance against the hips'
 * travel read back from the written clip (first to last frame, across up),
 * footfalls against the cadence. */
static void test_walk(void) {
    char rig[900], out[300], args[1400];
    cJSON *root;
    int code;
    if (!real_asset("gltf/girl.glb", rig, sizeof rig)) return;
    path_in(out, sizeof out, "walk.glb");
    snprintf(args, sizeof args, "walk '%s' -o '%s' --seconds 4 --json", rig, out);
    root = run_json(args, &code);
    if (!root) return;
    CHECK(code == 0 && cJSON_IsTrue(cJSON_GetObjectItem(root, "written")) && number_at(root, "frames") == 121 &&
              number_at(root, "cadence") > 0 && number_at(root, "footfalls") >= 4 * number_at(root, "cadence") - 2,
          "walk --json: exit %d: %s", code, out_text);
    {
        ik_asset a;
        ik_humanoid_map map;
        if (ik_asset_load(out, &a, NULL) == IK_OK && ik_humanoid_map_find(a.skeleton, NULL, 0, &map) == IK_OK) {
            int n = a.skeleton->joint_count, c = ik_asset_clip_count(&a) - 1, hips = map.joint[IK_ROLE_HIPS];
            ik_transform *pose = (ik_transform *)malloc((size_t)n * sizeof *pose);
            ik_mat4 *ms = (ik_mat4 *)malloc((size_t)n * sizeof *ms);
            ik_vec3 first, last, d, up = ik_v3(0, 1, 0);
            double travel;
            memcpy(pose, a.skeleton->rest_ls, (size_t)n * sizeof *pose);
            ik_clip_sample(ik_asset_clip(&a, c), 0, pose);
            ik_skeleton_fk(a.skeleton, pose, &a.root_ms, ms);
            first = ik_mat4_translation(&ms[hips]);
            memcpy(pose, a.skeleton->rest_ls, (size_t)n * sizeof *pose);
            ik_clip_sample(ik_asset_clip(&a, c), ik_asset_clip(&a, c)->duration, pose);
            ik_skeleton_fk(a.skeleton, pose, &a.root_ms, ms);
            last = ik_mat4_translation(&ms[hips]);
            d = ik_vec3_sub(last, first);
            travel = (double)ik_vec3_length(ik_vec3_reject(d, up));
            printf("walk --json: distance %.4f, the written hips travel %.4f\n", number_at(root, "distance"), travel);
            CHECK(fabs(travel - number_at(root, "distance")) <= 0.02 * number_at(root, "distance"),
                  "the written hips travel %.4f, the report says %.4f", travel, number_at(root, "distance"));
            free(pose);
            free(ms);
            ik_asset_free(&a);
        } else {
            CHECK(0, "the walked glTF does not load as a humanoid");
        }
    }
    cJSON_Delete(root);
}

static const test_group groups[] = {
    TEST_GROUP(info_real_assets),
    TEST_GROUP(info_generated),
    TEST_GROUP(retarget_and_clean),
    TEST_GROUP(fit),
    TEST_GROUP(walk),
};

int main(int argc, char **argv) {
    int known;
    if (!ikc_run_begin("ikc-json")) return 1;
    known = test_groups_run(groups, (int)(sizeof groups / sizeof groups[0]), argc, argv);
    ikc_run_end();
    return known ? check_summary("test_ikc_json") : 2;
}

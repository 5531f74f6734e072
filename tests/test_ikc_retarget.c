/* `ikc retarget`: the CMU walk onto girl.glb and onto another BVH skeleton,
 * read back and checked by forward kinematics (the new clip is there, the
 * hips travel, soles stay on or above the floor, bones keep their lengths),
 * the glTF validated by the Khronos validator, the filmstrip written; and
 * onto robot.glb (legs ending at virtual ankles, IK controls for feet),
 * then `ikc clean` on that; refusals that write nothing (a take with no
 * foot on the ground, a rig that is no humanoid, a glTF without a skin). */
#define _POSIX_C_SOURCE 200809L
#include <cairo.h>

#include <ikit/asset.h>
#include <ikit/bvh.h>
#include <ikit/humanoid.h>
#include <ikit/take.h>

#include "support/ikc_run.h"

/* The last clip of `path` baked at `frame_time`, checked on its rig: soles
 * on or above the floor, the hips travelling, every joint within
 * `max_beyond` (radians) of the rig's limits (ik_humanoid_angles_excess). */
static void check_written(const char *path, int clips_before, ik_real frame_time, ik_real max_beyond) {
    ik_asset a;
    ik_humanoid_map map;
    ik_humanoid rig;
    ik_take take;
    ik_mat4 *ms, *rest_ms;
    const ik_clip *clip;
    ik_real leg, lowest = 1e30f, travel, beyond = 0;
    ik_vec3 first = ik_vec3_zero(), last = ik_vec3_zero();
    int f, k;
    if (!(ik_asset_load(path, &a, NULL) == IK_OK)) {
        CHECK(0, "%s reads back", path);
        return;
    }
    CHECK(ik_asset_clip_count(&a) == clips_before + 1, "%s: %d clips, %d before", path, ik_asset_clip_count(&a),
          clips_before);
    CHECK(ik_humanoid_map_find(a.skeleton, NULL, 0, &map) == IK_OK && ik_humanoid_init(&rig, a.skeleton, &map) == IK_OK,
          "%s still maps", path);
    clip = ik_asset_clip(&a, ik_asset_clip_count(&a) - 1);
    take.joint_count = a.skeleton->joint_count;
    take.frame_time = frame_time;
    take.frame_count = ik_take_frame_count(clip->duration, frame_time, 100000);
    take.poses_ls = (ik_transform *)malloc((size_t)take.frame_count * (size_t)take.joint_count * sizeof(ik_transform));
    ms = (ik_mat4 *)malloc((size_t)take.joint_count * sizeof(ik_mat4));
    rest_ms = (ik_mat4 *)malloc((size_t)take.joint_count * sizeof(ik_mat4));
    ik_skeleton_fk(a.skeleton, a.skeleton->rest_ls, NULL, rest_ms);
    CHECK(take.frame_count > 100 && ik_take_bake(&take, clip, a.skeleton->rest_ls) == IK_OK,
          "%s: clip bakes (%d frames)", path, take.frame_count);
    leg = (rig.limb[2].upper_length + rig.limb[2].lower_length + rig.limb[3].upper_length + rig.limb[3].lower_length) *
          (ik_real)0.5;
    for (f = 0; f < take.frame_count; ++f) {
        ik_skeleton_fk(a.skeleton, ik_take_pose(&take, f), NULL, ms);
        for (k = IK_LIMB_LEG_L; k <= IK_LIMB_LEG_R; ++k) {
            const ik_humanoid_limb *l = &rig.limb[k];
            ik_vec3 heel = ik_mat4_transform_point(&ms[ik_humanoid_limb_foot(l)], l->heel_ls);
            ik_vec3 ball = ik_mat4_transform_point(&ms[ik_humanoid_limb_foot(l)], l->ball_ls);
            lowest =
                ik_minr(lowest, ik_minr(ik_vec3_dot(heel, rig.up_rs), ik_vec3_dot(ball, rig.up_rs)) - rig.floor_rs);
        }
        {
            ik_humanoid_angles angles;
            ik_humanoid_angles_measure(&rig, ms, rest_ms, &angles);
            beyond = ik_maxr(beyond, ik_humanoid_angles_excess(&rig, &angles, NULL));
        }
        if (f == 0) first = ik_mat4_translation(&ms[map.joint[IK_ROLE_HIPS]]);
        last = ik_mat4_translation(&ms[map.joint[IK_ROLE_HIPS]]);
    }
    travel = ik_vec3_length(ik_vec3_reject(ik_vec3_sub(last, first), rig.up_rs));
    /* 1 cm of a 0.85 m leg */
    CHECK(lowest > -(ik_real)0.01 / (ik_real)0.85 * leg, "%s: a sole %.2f legs below the floor", path,
          (double)(lowest / leg));
    CHECK(travel > leg, "%s: the hips travel %.2f legs", path, (double)(travel / leg));
    CHECK(beyond <= max_beyond, "%s: a joint %.1f degrees past the rig's limits (%.1f allowed)", path,
          (double)ik_deg(beyond), (double)ik_deg(max_beyond));
    free(take.poses_ls);
    free(ms);
    free(rest_ms);
    ik_asset_free(&a);
}

/* The Khronos validator finds no errors in the glTF at `path`. */
static void validate(const char *path, const char *what) {
    char validator[600], cmd[2000];
    int rc;
    snprintf(validator, sizeof validator, "%s/scripts/validate-gltf.sh", IKIT_SOURCE_DIR);
    snprintf(cmd, sizeof cmd, "'%s' '%s' >/dev/null 2>&1", validator, path);
    rc = system(cmd);
    rc = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    if (rc == 2)
        check_skip("gltf-validator not installed (scripts/validate-gltf.sh --install)");
    else
        CHECK(rc == 0, "Khronos validator finds no errors in %s", what);
}

/* The filmstrip's lower row (the retargeted character, its mesh in clay:
 * red over blue by 20 or more) framed on the character: in each of the five
 * panels the clay's mean column lies in the middle half (girl.glb's
 * unskinned IK controls, left at rest, framed it into the right quarter). */
static void check_strip_framed(const char *path) {
    cairo_surface_t *png = cairo_image_surface_create_from_png(path);
    int w, h, stride, x, y, k;
    const unsigned char *px;
    if (cairo_surface_status(png) != CAIRO_STATUS_SUCCESS) {
        CHECK(0, "the filmstrip %s does not read as PNG", path);
        cairo_surface_destroy(png);
        return;
    }
    w = cairo_image_surface_get_width(png), h = cairo_image_surface_get_height(png);
    stride = cairo_image_surface_get_stride(png);
    px = cairo_image_surface_get_data(png);
    for (k = 0; k < 5; ++k) {
        double sum = 0, n = 0, mean;
        int x0 = k * w / 5, x1 = (k + 1) * w / 5;
        for (y = h / 2; y < h; ++y)
            for (x = x0; x < x1; ++x) {
                const unsigned char *p = px + (size_t)y * (size_t)stride + 4 * (size_t)x; /* B G R A */
                if (p[2] > 90 && p[2] >= p[0] + 20) sum += x - x0, n += 1;
            }
        mean = n > 0 ? sum / n / (x1 - x0) : -1;
        CHECK(n > 500 && mean > 0.25 && mean < 0.75,
              "retarget --render: panel %d's character at %.2f of its width (%g pixels)", k, mean, n);
    }
    cairo_surface_destroy(png);
}

static void test_onto_girl(const char *data) {
    char source[1024], rig[1024], out[400], strip[400], cmd[3000];
    int rc;
    ik_asset a;
    int clips;
    snprintf(source, sizeof source, "%s/bvh/131_01.bvh", data);
    snprintf(rig, sizeof rig, "%s/gltf/girl.glb", data);
    if (ik_asset_load(rig, &a, NULL) != IK_OK) {
        check_skip("girl.glb not found");
        return;
    }
    clips = ik_asset_clip_count(&a);
    ik_asset_free(&a);
    path_in(out, sizeof out, "girl_walk.glb");
    path_in(strip, sizeof strip, "strip.png");
    snprintf(cmd, sizeof cmd, "retarget '%s' '%s' -o '%s' --render '%s'", source, rig, out, strip);
    rc = run(cmd);
    CHECK(rc == 0, "retarget onto girl: exit %d: %s", rc, err_text);
    CHECK(strstr(out_text, "after IK") && strstr(out_text, "unit mismatch") && strstr(out_text, "frames/s") &&
              strstr(out_text, "beyond the rig's limits"),
          "the table, with the unit mismatch: %s", out_text);
    CHECK(file_size(strip) > 10000, "filmstrip written (%ld bytes)", file_size(strip));
    check_strip_framed(strip);
    check_written(out, clips, (ik_real)(1.0 / 60), ik_rad(1));
    validate(out, "the retargeted girl");
    /* the hands option runs too */
    path_in(out, sizeof out, "girl_hands.glb");
    snprintf(cmd, sizeof cmd, "retarget '%s' '%s' -o '%s' --hands --quiet", source, rig, out);
    /* girl.glb's right arm rests bent: held at the source's hand, its
     * elbow goes past the limit in some frames, which the checks name */
    rc = run(cmd);
    CHECK((rc == 0 || (rc == 7 && strstr(err_text, "elbow is") && strstr(err_text, "beyond the rig's limits"))) &&
              file_size(out) > 0,
          "--hands: exit %d: %s", rc, err_text);
}

/* `ikc retarget` of the corpus' bvh/TAKE onto gltf/RIG into the work
 * folder's file NAME (its path into out [400]); returns the exit code, the
 * output in out_text. */
static int retarget_into(const char *data, const char *take, const char *rig, const char *name, char *out) {
    char cmd[3000];
    path_in(out, 400, name);
    snprintf(cmd, sizeof cmd, "retarget '%s/bvh/%s' '%s/gltf/%s' -o '%s'", data, take, data, rig, out);
    return run(cmd);
}

/* `ikc clean` of the retarget clip of `in` into the work folder's file NAME
 * (its path into cleaned [400]); returns the exit code. */
static int clean_into(const char *in, const char *name, char *cleaned) {
    char cmd[1000];
    path_in(cleaned, 400, name);
    snprintf(cmd, sizeof cmd, "clean '%s' --clip retarget -o '%s'", in, cleaned);
    return run(cmd);
}

/* Virtual ankles: the walk onto robot.glb with the IK pass (its table shows
 * the feet held), the output checked and validated; `ikc clean` then
 * finds contacts on the robot's own feet (the control joints) and cleans. */
static void test_onto_robot(const char *data) {
    char out[400], cleaned[400];
    int rc = retarget_into(data, "131_02.bvh", "robot.glb", "robot_walk.glb", out);
    {
        int held = 0;
        const char *at = strstr(out_text, "contacts held");
        while (at && at > out_text && at[-1] == ' ') --at;
        while (at && at > out_text && at[-1] >= '0' && at[-1] <= '9') --at;
        if (at) held = atoi(at);
        CHECK(rc == 0 && held >= 12, "retarget onto robot: exit %d, %d contacts held: %s%s", rc, held, out_text,
              err_text);
    }
    check_written(out, 14, (ik_real)(1.0 / 60), ik_rad(1));
    validate(out, "the retargeted robot");
    rc = clean_into(out, "robot_clean.glb", cleaned);
    CHECK(rc == 0 && strstr(err_text, "Foot.L") == NULL && strstr(out_text, "% cut"), "clean the robot: exit %d: %s%s",
          rc, out_text, err_text);
    check_written(cleaned, 14, (ik_real)(1.0 / 60), ik_rad(1));
}

/* 131_01 onto rigged_figure.glb, then `ikc clean` of that: the clean-up of
 * a result inside the rig's limits keeps it within a degree of them (its
 * held ankles went 38 degrees past before session 11, 2 in session 11). */
static void test_clean_keeps_limits(const char *data) {
    char out[400], cleaned[400];
    int rc = retarget_into(data, "131_01.bvh", "rigged_figure.glb", "figure_walk.glb", out);
    CHECK(rc == 0, "retarget onto rigged_figure: exit %d: %s", rc, err_text);
    check_written(out, 1, (ik_real)(1.0 / 60), ik_rad(1));
    rc = clean_into(out, "figure_clean.glb", cleaned);
    CHECK(rc == 0, "clean the retargeted figure: exit %d: %s", rc, err_text);
    check_written(cleaned, 1, (ik_real)(1.0 / 60), ik_rad(1));
}

static void test_onto_bvh(const char *data) {
    char source[1024], rig[1024], out[400], map_file[400], cmd[3000];
    ik_bvh *b = NULL;
    int rc;
    snprintf(source, sizeof source, "%s/bvh/01_01.bvh", data);
    snprintf(rig, sizeof rig, "%s/bvh/131_01.bvh", data);
    path_in(out, sizeof out, "01_01_on_131.bvh");
    snprintf(cmd, sizeof cmd, "retarget '%s' '%s' -o '%s' --quiet", source, rig, out);
    /* every check holds, 01_01's first frame (a T-pose, its feet eased
     * under the floor) too: the foot in the air rises instead of turning
     * past its ankle's limit */
    rc = run(cmd);
    CHECK(rc == 0 && strstr(err_text, "warning") == NULL, "retarget onto a BVH skeleton: exit %d: %s", rc, err_text);
    CHECK(ik_bvh_read_file(out, &b, NULL) == IK_OK && b->frame_count == 2752, "BVH output has the source's frames");
    if (b) ik_bvh_free(b);
    check_written(out, 0, (ik_real)(1.0 / 120), ik_rad(1));
    /* a target map that names the right leg's joints for the left leg's
     * roles and the left's for the right's: the result stands on crossed
     * legs, its body frame turned about, so every group's directions are
     * off: written, each group named in a warning with its most-off segment
     * and frames, and a distinct exit code */
    path_in(map_file, sizeof map_file, "crossed.map");
    write_text(map_file,
               "left_thigh = RightHip\nright_thigh = LeftHip\nleft_shin = RightKnee\nright_shin = LeftKnee\n"
               "left_foot = RightAnkle\nright_foot = LeftAnkle\nleft_toe = RightToe\nright_toe = LeftToe\n");
    path_in(out, sizeof out, "crossed_on_131.bvh");
    snprintf(cmd, sizeof cmd, "retarget '%s' '%s' --target-map '%s' -o '%s' --quiet", source, rig, map_file, out);
    rc = run(cmd);
    CHECK(rc == 7 && strstr(err_text, "the trunk point") && strstr(err_text, "most off: the trunk") &&
              strstr(err_text, "the forearms point") && strstr(err_text, "most off: the left forearm") &&
              strstr(err_text, "was written, but fails") && file_size(out) > 0,
          "crossed legs: exit %d: %s", rc, err_text);
}

/* Every refusal writes nothing. */
static void test_refusals(const char *data) {
    char source[1024], rig[1024], out[400], cmd[3000], path[400];
    ik_bvh *b = NULL;
    int f, rc;
    snprintf(source, sizeof source, "%s/bvh/131_01.bvh", data);
    path_in(out, sizeof out, "never.glb");
    /* a take gliding 3 leg lengths a second: no foot ever planted */
    if (ik_bvh_read_file(source, &b, NULL) == IK_OK) {
        path_in(path, sizeof path, "gliding.bvh");
        for (f = 0; f < b->frame_count; ++f)
            b->values[(size_t)f * (size_t)b->values_per_frame] += 43.0 * b->frame_time * f;
        CHECK(ik_bvh_write_file(b, path, NULL) == IK_OK, "gliding take written");
        ik_bvh_free(b);
        snprintf(rig, sizeof rig, "%s/gltf/girl.glb", data);
        snprintf(cmd, sizeof cmd, "retarget '%s' '%s' -o '%s'", path, rig, out);
        rc = run(cmd);
        CHECK(rc == 4 && strstr(err_text, "no foot is ever on the ground") && file_size(out) < 0,
              "gliding: exit %d: %s", rc, err_text);
    }
    /* a target that is no humanoid: its missing roles named */
    path_in(path, sizeof path, "tail.bvh");
    write_text(path,
               "HIERARCHY\nROOT Base\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n JOINT Tail1\n"
               " {\n  OFFSET 0 1 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  End Site\n  {\n   OFFSET 0 1 0\n"
               "  }\n }\n}\nMOTION\nFrames: 2\nFrame Time: 0.1\n0 0 0 0 0 0\n0 0 0 10 0 0\n");
    path_in(out, sizeof out, "never.bvh");
    snprintf(cmd, sizeof cmd, "retarget '%s' '%s' -o '%s'", source, path, out);
    rc = run(cmd);
    CHECK(rc != 0 && strstr(err_text, "left_thigh") && file_size(out) < 0, "not a humanoid: exit %d: %s", rc, err_text);
    /* a glTF without a skin */
    path_in(path, sizeof path, "noskin.gltf");
    write_text(path, "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"a\"}],\"scenes\":[{\"nodes\":[0]}]}");
    path_in(out, sizeof out, "never.gltf");
    snprintf(cmd, sizeof cmd, "retarget '%s' '%s' -o '%s'", source, path, out);
    rc = run(cmd);
    CHECK(rc == 4 && strstr(err_text, "no skin") && file_size(out) < 0, "no skin: exit %d: %s", rc, err_text);
    /* usage */
    CHECK(run("retarget") == 2, "no arguments: usage");
    snprintf(cmd, sizeof cmd, "retarget '%s' '%s/gltf/girl.glb'", source, data);
    CHECK(run(cmd) == 2 && strstr(err_text, "-o OUT"), "no -o: %s", err_text);
    snprintf(cmd, sizeof cmd, "retarget '%s/bvh/none.bvh' '%s/gltf/girl.glb' -o '%s'", data, data, out);
    CHECK(run(cmd) == 3, "missing source: exit 3");
}

int main(void) {
    const char *data = getenv("IKIT_DATA");
    if (!ikc_run_begin("ikc-retarget")) return 1;
    if (!data) {
        check_skip("real-asset corpus not found (IKIT_DATA unset)");
    } else {
        test_onto_girl(data);
        test_onto_bvh(data);
        test_onto_robot(data);
        test_clean_keeps_limits(data);
        test_refusals(data);
    }
    ikc_run_end();
    return check_summary("test_ikc_retarget");
}

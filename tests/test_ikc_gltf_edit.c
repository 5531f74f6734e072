/* The glTF that `ikc clean`, `ikc fit` and `ikc retarget` write leaves no
 * orphan behind (issue 25, item 5): on robot.glb, girl.glb and
 * male_base_mesh.glb (its clip added by `ikc retarget` first) each output is
 * read back and compared with its input: the other clips' keys bit for bit,
 * meshes and skins unchanged, no accessor or bufferView unreferenced beyond
 * those the input left so, the file no larger than the input less the
 * replaced keys plus the new keys, and the Khronos validator's UNUSED_OBJECT count the input's; the new
 * keys, stored again by the library into the input, read back as stored.
 * Then the case: a robot walk cleaned twice does not grow. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>

#include <ikit/gltf.h>

#include "support/gltf_unused.h"
#include "support/ikc_run.h"

/* The Khronos validator's UNUSED_OBJECT count for `path` (its "codes:"
 * line); -1 when the validator is not installed, -2 when it fails. */
static int validator_unused(const char *path) {
    char cmd[2000], log[400], text[4096];
    const char *at;
    int rc;
    path_in(log, sizeof log, "validator.log");
    snprintf(cmd, sizeof cmd, "sh '%s/scripts/validate-gltf.sh' '%s' >'%s' 2>&1", IKIT_SOURCE_DIR, path, log);
    rc = system(cmd);
    rc = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    if (rc == 2) return -1;
    read_text(log, text, sizeof text);
    if (rc != 0 || !strstr(text, "codes:")) return -2;
    at = strstr(text, "UNUSED_OBJECT=");
    return at ? atoi(at + strlen("UNUSED_OBJECT=")) : 0;
}

/* Bit for bit: channels, times and values. */
static int same_clip(const ik_clip *a, const ik_clip *b) {
    int c;
    if (a->channel_count != b->channel_count) return 0;
    for (c = 0; c < a->channel_count; ++c) {
        const ik_channel *x = &a->channels[c], *y = &b->channels[c];
        size_t values = (size_t)x->key_count * (size_t)ik_channel_width(x->path) *
                        (x->interpolation == IK_INTERP_CUBICSPLINE ? 3 : 1);
        if (x->joint != y->joint || x->path != y->path || x->interpolation != y->interpolation ||
            x->key_count != y->key_count || memcmp(x->times, y->times, (size_t)x->key_count * sizeof(ik_real)) != 0 ||
            memcmp(x->values, y->values, values * sizeof(ik_real)) != 0)
            return 0;
    }
    return 1;
}

/* The same keys up to the float rounding of the writer's quaternion
 * normalisation: times exact, values within 1e-6. */
static int same_keys(const ik_clip *a, const ik_clip *b) {
    int c;
    size_t k;
    if (a->channel_count != b->channel_count) return 0;
    for (c = 0; c < a->channel_count; ++c) {
        const ik_channel *x = &a->channels[c], *y = &b->channels[c];
        size_t values = (size_t)x->key_count * (size_t)ik_channel_width(x->path) *
                        (x->interpolation == IK_INTERP_CUBICSPLINE ? 3 : 1);
        if (x->joint != y->joint || x->path != y->path || x->interpolation != y->interpolation ||
            x->key_count != y->key_count || memcmp(x->times, y->times, (size_t)x->key_count * sizeof(ik_real)) != 0)
            return 0;
        for (k = 0; k < values; ++k)
            if (!(fabs((double)(x->values[k] - y->values[k])) <= 1e-6)) return 0;
    }
    return 1;
}

/* Bytes a clip's keys take at most as float accessors: each channel's
 * times (channels may share them) and values, plus 3 bytes of alignment
 * each and 400 bytes of JSON (accessors, views, sampler, channel). */
static long key_bytes(const ik_clip *clip) {
    long bytes = 0;
    int c;
    for (c = 0; c < clip->channel_count; ++c) {
        const ik_channel *ch = &clip->channels[c];
        long values =
            (long)ch->key_count * ik_channel_width(ch->path) * (ch->interpolation == IK_INTERP_CUBICSPLINE ? 3 : 1);
        bytes += 4 * ((long)ch->key_count + values) + 6 + 400;
    }
    return bytes;
}

/* Bytes a clip's keys take at least as float accessors: each distinct
 * times array once (the reader decodes an accessor once, so channels that
 * share one share the array) and each channel's values. */
static long stored_bytes(const ik_clip *clip) {
    long bytes = 0;
    int c, d;
    for (c = 0; c < clip->channel_count; ++c) {
        const ik_channel *ch = &clip->channels[c];
        int shared = 0;
        for (d = 0; d < c && !shared; ++d) shared = clip->channels[d].times == ch->times;
        bytes += 4 * ((shared ? 0 : (long)ch->key_count) + (long)ch->key_count * ik_channel_width(ch->path) *
                                                               (ch->interpolation == IK_INTERP_CUBICSPLINE ? 3 : 1));
    }
    return bytes;
}

static int same_skin(const ik_gltf_skin *a, const ik_gltf_skin *b) {
    int n = a->skeleton.joint_count, j;
    if (n != b->skeleton.joint_count ||
        memcmp(a->skeleton.parents, b->skeleton.parents, (size_t)n * sizeof(int)) != 0 ||
        memcmp(a->skeleton.rest_ls, b->skeleton.rest_ls, (size_t)n * sizeof(ik_transform)) != 0 ||
        memcmp(a->inverse_bind, b->inverse_bind, (size_t)n * sizeof(ik_mat4)) != 0)
        return 0;
    for (j = 0; j < n; ++j)
        if (strcmp(a->skeleton.names[j], b->skeleton.names[j]) != 0) return 0;
    return 1;
}

static int same_mesh(ik_gltf *a, ik_gltf *b, int index) {
    ik_gltf_skinned_mesh x, y;
    int same;
    if (ik_gltf_skinned_mesh_read(a, index, &x, NULL) != IK_OK) return 0;
    if (ik_gltf_skinned_mesh_read(b, index, &y, NULL) != IK_OK) {
        ik_gltf_skinned_mesh_free(&x);
        return 0;
    }
    same = x.vertex_count == y.vertex_count && x.triangle_count == y.triangle_count && x.part_count == y.part_count &&
           memcmp(x.positions, y.positions, (size_t)x.vertex_count * sizeof(ik_vec3)) == 0 &&
           memcmp(x.joints, y.joints, (size_t)x.vertex_count * 4 * sizeof(int)) == 0 &&
           memcmp(x.weights, y.weights, (size_t)x.vertex_count * 4 * sizeof(ik_real)) == 0 &&
           memcmp(x.indices, y.indices, (size_t)x.triangle_count * 3 * sizeof(int)) == 0;
    ik_gltf_skinned_mesh_free(&x);
    ik_gltf_skinned_mesh_free(&y);
    return same;
}

/* The new keys (clip `edited` of the output) stored by the library into
 * the input, as a replacement of clip `replaced` or an added clip, read
 * back from memory: the keys as stored. */
static void check_stored_again(const char *what, const char *input, const ik_clip *keys, int replaced) {
    ik_gltf *g = NULL, *back = NULL;
    unsigned char *bytes = NULL;
    size_t size = 0;
    ik_error e;
    ik_result r = ik_gltf_read_file(input, &g, &e);
    int index;
    if (r == IK_OK) {
        index = replaced >= 0 ? replaced : ik_gltf_clip_count(g);
        r = replaced >= 0 ? ik_gltf_replace_clip_keys(g, replaced, 0, keys, &e)
                          : ik_gltf_add_clip(g, 0, "again", keys, &e);
        if (r == IK_OK) r = ik_gltf_write_memory(g, 1, &bytes, &size, &e);
        if (r == IK_OK) r = ik_gltf_read_memory(bytes, size, NULL, &back, &e);
        CHECK(r == IK_OK, "%s: the keys stored again: %s", what, e.message);
        if (r == IK_OK)
            CHECK(same_keys(ik_gltf_clip(back, index, 0), keys), "%s: the stored keys read back as stored", what);
    }
    free(bytes);
    ik_gltf_free(back);
    ik_gltf_free(g);
}

/* `output`, written by ikc from `input` with clip `replaced` replaced (or
 * a clip added when -1), against its input. */
static void check_edit(const char *what, const char *input, const char *output, int replaced) {
    ik_gltf *in = NULL, *out = NULL;
    unused_count before, after;
    int clips, edited, c, m, meshes_same = 1, others_same = 1, v_in, v_out;
    long limit;
    if (ik_gltf_read_file(input, &in, NULL) != IK_OK || ik_gltf_read_file(output, &out, NULL) != IK_OK) {
        CHECK(0, "%s: %s and %s read", what, input, output);
        ik_gltf_free(in);
        return;
    }
    clips = ik_gltf_clip_count(in);
    edited = replaced >= 0 ? replaced : clips;
    CHECK(ik_gltf_clip_count(out) == clips + (replaced < 0), "%s: %d clips, %d before", what, ik_gltf_clip_count(out),
          clips);
    if (ik_gltf_clip_count(out) == clips + (replaced < 0)) {
        const ik_clip *keys = ik_gltf_clip(out, edited, 0);
        for (c = 0; c < clips; ++c)
            if (c != replaced && !same_clip(ik_gltf_clip(in, c, 0), ik_gltf_clip(out, c, 0))) others_same = 0;
        CHECK(others_same, "%s: the other clips' keys unchanged bit for bit", what);
        CHECK(ik_clip_validate(keys, ik_gltf_skeleton(out, 0)->skeleton.joint_count, NULL) == IK_OK &&
                  keys->channel_count > 0,
              "%s: the new keys are a valid clip", what);
        /* the replaced keys' bytes go, the new ones come */
        limit = file_size(input) - (replaced >= 0 ? stored_bytes(ik_gltf_clip(in, replaced, 0)) : 0) + key_bytes(keys);
        CHECK(file_size(output) <= limit,
              "%s: %ld bytes, more than the input's %ld less the replaced keys' %ld and plus the new keys' %ld", what,
              file_size(output), file_size(input), replaced >= 0 ? stored_bytes(ik_gltf_clip(in, replaced, 0)) : 0,
              key_bytes(keys));
        check_stored_again(what, input, keys, replaced);
    }
    CHECK(ik_gltf_skin_count(out) == ik_gltf_skin_count(in) &&
              same_skin(ik_gltf_skeleton(in, 0), ik_gltf_skeleton(out, 0)),
          "%s: skins unchanged", what);
    CHECK(ik_gltf_skinned_mesh_count(out) == ik_gltf_skinned_mesh_count(in), "%s: skinned meshes kept", what);
    for (m = 0; m < ik_gltf_skinned_mesh_count(in) && m < ik_gltf_skinned_mesh_count(out); ++m)
        if (!same_mesh(in, out, m)) meshes_same = 0;
    CHECK(meshes_same, "%s: meshes unchanged", what);
    CHECK(count_unused(input, &before) && count_unused(output, &after), "%s: JSON read", what);
    CHECK(after.accessors == before.accessors && after.views == before.views,
          "%s: %d accessors and %d bufferViews unreferenced (of %d, %d), %d and %d in the input", what, after.accessors,
          after.views, after.accessor_total, after.view_total, before.accessors, before.views);
    v_in = validator_unused(input);
    v_out = validator_unused(output);
    if (v_in == -1 || v_out == -1)
        check_skip("gltf-validator not installed (scripts/validate-gltf.sh --install)");
    else
        CHECK(v_in >= 0 && v_out == v_in, "%s: the validator's UNUSED_OBJECT %d, %d in the input", what, v_out, v_in);
    ik_gltf_free(in);
    ik_gltf_free(out);
}

/* Run `ikc ARGS` writing `out`; 0 (after a failed check) when it fails. */
static int ikc_writes(const char *what, const char *args, const char *out) {
    int rc = run(args);
    CHECK(rc == 0 && file_size(out) > 0, "%s: exit %d: %s", what, rc, err_text);
    return rc == 0 && file_size(out) > 0;
}

/* clean and fit on `input`'s clip `clip` (by number), as `name` */
static void clean_and_fit(const char *name, const char *input, int clip) {
    char out[400], args[3000], what[200];
    snprintf(what, sizeof what, "%s clean", name);
    path_in(out, sizeof out, "cleaned.glb");
    snprintf(args, sizeof args, "clean '%s' --clip %d -o '%s' --quiet --overwrite", input, clip, out);
    if (ikc_writes(what, args, out)) check_edit(what, input, out, clip);
    snprintf(what, sizeof what, "%s fit", name);
    path_in(out, sizeof out, "fitted.glb");
    snprintf(args, sizeof args, "fit '%s' --clip %d --error 1mm --no-compare -o '%s' --overwrite", input, clip, out);
    if (ikc_writes(what, args, out)) check_edit(what, input, out, clip);
}

/* `ikc retarget` of `take` onto `rig` into `out` (a clip added). */
static int retarget(const char *name, const char *take, const char *rig, const char *out) {
    char args[3000], what[200];
    snprintf(what, sizeof what, "%s retarget", name);
    snprintf(args, sizeof args, "retarget '%s' '%s' -o '%s' --quiet --overwrite", take, rig, out);
    if (!ikc_writes(what, args, out)) return 0;
    check_edit(what, rig, out, -1);
    return 1;
}

int main(void) {
    char robot[1024], girl[1024], male[1024], walk_01[1024], walk_02[1024], out[400], again[400], args[3000];
    if (!ikc_run_begin("ikc-gltf-edit")) return 1;
    if (real_asset("gltf/robot.glb", robot, sizeof robot) && real_asset("gltf/girl.glb", girl, sizeof girl) &&
        real_asset("gltf/male_base_mesh.glb", male, sizeof male) &&
        real_asset("bvh/131_01.bvh", walk_01, sizeof walk_01) &&
        real_asset("bvh/131_02.bvh", walk_02, sizeof walk_02)) {
        clean_and_fit("robot.glb", robot, 0);
        clean_and_fit("girl.glb", girl, 0);
        path_in(out, sizeof out, "girl_walk.glb");
        retarget("girl.glb", walk_01, girl, out);
        /* the T-posed mesh has no clip: its retargeted walk is cleaned and fitted */
        path_in(out, sizeof out, "male_walk.glb");
        if (retarget("male_base_mesh.glb", walk_01, male, out)) clean_and_fit("male_base_mesh.glb + walk", out, 0);
        /* the case: the robot's retargeted walk cleaned, then the
         * cleaned file cleaned again, which must not grow */
        path_in(out, sizeof out, "robot_walk.glb");
        if (retarget("robot.glb", walk_02, robot, out)) {
            path_in(again, sizeof again, "robot_walk_clean.glb");
            snprintf(args, sizeof args, "clean '%s' --clip retarget -o '%s' --quiet", out, again);
            if (ikc_writes("robot walk clean", args, again)) check_edit("robot walk clean", out, again, 14);
            path_in(out, sizeof out, "robot_walk_clean2.glb");
            snprintf(args, sizeof args, "clean '%s' --clip retarget -o '%s' --quiet", again, out);
            if (ikc_writes("robot walk cleaned twice", args, out)) {
                check_edit("robot walk cleaned twice", again, out, 14);
                CHECK(file_size(out) <= file_size(again), "cleaned twice: %ld bytes, %ld after the first",
                      file_size(out), file_size(again));
            }
        }
    }
    ikc_run_end();
    return check_summary("test_ikc_gltf_edit");
}

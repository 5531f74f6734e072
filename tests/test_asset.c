/* Loading any supported file as one skeleton: the format told by content,
 * else by extension; the skeleton, limits and clips of each format (checked
 * against the document's own); failures that say what the file was taken for. */
#define _POSIX_C_SOURCE 200809L
#include <ikit/asset.h>
#include <ikit/chain_file_solve.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/check.h"

static void example_path(const char *name, char *path, size_t size) {
    const char *here = __FILE__, *cut = strstr(here, "tests/test_asset.c");
    snprintf(path, size, "%.*sexamples/%s", cut ? (int)(cut - here) : 0, here, name);
}

/* A chain file: its skeleton, no clips, and every joint's limits as the
 * chain file's own constraint (a hinge refuses a turn past its limit). */
static void test_chain_file(void) {
    char path[1024];
    ik_asset asset;
    ik_io_error err;
    ik_result r;
    example_path("tail.chain", path, sizeof path);
    r = ik_asset_load(path, &asset, &err);
    CHECK(r == IK_OK, "%s: %s", path, err.message);
    if (r != IK_OK) return;
    CHECK(asset.format == IK_ASSET_CHAIN && asset.chain_file && !asset.gltf && !asset.bvh, "chain format");
    CHECK(asset.skeleton == &asset.chain_file->skeleton && asset.skeleton->joint_count == 14, "chain skeleton");
    CHECK(ik_asset_clip_count(&asset) == 0 && ik_asset_clip(&asset, 0) == NULL, "a chain file has no clips");
    CHECK(strcmp(ik_asset_format_name(&asset), "chain description") == 0, "%s", ik_asset_format_name(&asset));
    CHECK(asset.constraints != NULL, "chain limits");
    if (asset.constraints) {
        const ik_chain_joint *hinge = &asset.chain_file->joints[1];
        ik_quat past = ik_quat_from_axis_angle(hinge->axis_ls, ik_rad(hinge->limit_max_deg + 5));
        ik_quat within = ik_quat_from_axis_angle(hinge->axis_ls, ik_rad(hinge->limit_max_deg - 5));
        CHECK(!ik_constraint_check(&asset.constraints[1], past, 1e-4f) &&
                  ik_constraint_check(&asset.constraints[1], within, 1e-4f),
              "joint 1's limits");
    }
    ik_asset_free(&asset);
    CHECK(asset.chain_file == NULL && asset.skeleton == NULL, "freed");
}

/* The real assets: a GLB picks its largest skin, a BVH has one clip whose
 * first frame sampled is the document's own first frame. */
static void test_real_assets(void) {
    const char *data = getenv("IKIT_DATA");
    char path[1024];
    ik_asset asset;
    ik_io_error err;
    ik_result r;
    if (!data) {
        check_skip("real-asset corpus not found (IKIT_DATA unset)");
        return;
    }
    snprintf(path, sizeof path, "%s/gltf/girl.glb", data);
    r = ik_asset_load(path, &asset, &err);
    if (r == IK_ERR_IO) {
        check_skip("real-asset corpus not found");
        return;
    }
    CHECK(r == IK_OK && asset.format == IK_ASSET_GLTF && asset.binary, "%s: %s", path, err.message);
    if (r == IK_OK) {
        int s, largest = 1;
        for (s = 0; s < ik_gltf_skin_count(asset.gltf); ++s)
            largest &= ik_gltf_skeleton(asset.gltf, s)->skeleton.joint_count <= asset.skeleton->joint_count;
        CHECK(largest && asset.skeleton == &ik_gltf_skeleton(asset.gltf, asset.skin)->skeleton, "largest skin");
        CHECK(ik_asset_clip_count(&asset) == ik_gltf_clip_count(asset.gltf), "glTF clips");
        CHECK(asset.constraints == NULL, "glTF has no limits");
        ik_asset_free(&asset);
    }
    snprintf(path, sizeof path, "%s/bvh/131_01.bvh", data);
    r = ik_asset_load(path, &asset, &err);
    CHECK(r == IK_OK && asset.format == IK_ASSET_BVH && asset.skeleton == &asset.bvh->skeleton, "%s: %s", path,
          err.message);
    if (r == IK_OK) {
        CHECK(ik_asset_clip_count(&asset) == 1 && ik_asset_clip(&asset, 0) == &asset.bvh->clip &&
                  ik_asset_clip(&asset, 1) == NULL,
              "BVH: one clip");
        ik_asset_free(&asset);
    }
}

/* Unreadable content is taken for the format its extension names, and the
 * reader's code and message come back; a missing file is IK_ERR_IO with
 * format unknown. */
static void test_failures(void) {
    static const struct {
        const char *suffix;
        ik_asset_format format;
    } cases[] = {{".bvh", IK_ASSET_BVH}, {".CHAIN", IK_ASSET_CHAIN}, {".glb", IK_ASSET_GLTF}, {"", IK_ASSET_GLTF}};
    char dir[] = "/tmp/ikit_asset_XXXXXX", path[256];
    ik_asset asset;
    ik_io_error err;
    ik_result r;
    int i;
    r = ik_asset_load("/nonexistent-dir/x.glb", &asset, &err);
    CHECK(r == IK_ERR_IO && asset.format == IK_ASSET_UNKNOWN && strstr(err.message, "cannot open"), "missing: %s",
          err.message);
    CHECK(ik_asset_load("x", NULL, &err) == IK_ERR_NULL && ik_asset_load(NULL, &asset, NULL) == IK_ERR_NULL, "NULL");
    if (!mkdtemp(dir)) {
        CHECK(0, "mkdtemp");
        return;
    }
    for (i = 0; i < 4; ++i) {
        FILE *f;
        snprintf(path, sizeof path, "%s/junk%s", dir, cases[i].suffix);
        f = fopen(path, "w");
        CHECK(f != NULL, "%s", path);
        if (!f) continue;
        fputs("no format at all\n", f);
        fclose(f);
        r = ik_asset_load(path, &asset, &err);
        CHECK(r != IK_OK && asset.format == cases[i].format && err.message[0] && !asset.skeleton,
              "%s: %s, format %d: %s", path, ik_result_str(r), (int)asset.format, err.message);
        unlink(path);
    }
    rmdir(dir);
}

int main(void) {
    test_chain_file();
    test_real_assets();
    test_failures();
    return check_summary("test_asset");
}

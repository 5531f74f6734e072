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
    ik_error err;
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
    ik_error err;
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
    ik_error err;
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

/* Reads a whole file into `*data` (malloc'd); its size, or -1. */
static long slurp(const char *path, char **data) {
    FILE *f = fopen(path, "rb");
    long size = -1;
    *data = NULL;
    if (!f) return -1;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (*data = (char *)malloc((size_t)size + 1)) != NULL && fread(*data, 1, (size_t)size, f) == (size_t)size) {
        fclose(f);
        return size;
    }
    fclose(f);
    free(*data);
    *data = NULL;
    return -1;
}

/* From memory: what the same file gives (a chain file; girl.glb and a
 * CMU BVH when the corpus is there), the format told by the bytes or the
 * name, and the readers' messages: a truncated GLB, a glTF file without a
 * skin, text with no format taken for what the name says. */
static void test_memory(void) {
    static const char no_skin[] = "{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [{\"name\": \"a\"}]}";
    static const char truncated[] = "glTF\002\000\000\000garbage";
    const char *data_dir = getenv("IKIT_DATA");
    const char *files[] = {"gltf/girl.glb", "bvh/131_01.bvh"};
    char path[1024], *bytes;
    ik_asset from_file, from_memory;
    ik_error err;
    long size;
    int i, j;
    example_path("tail.chain", path, sizeof path);
    size = slurp(path, &bytes);
    CHECK(size > 0 && ik_asset_load_memory(bytes, (size_t)size, "anything", &from_memory, &err) == IK_OK &&
              from_memory.format == IK_ASSET_CHAIN && from_memory.skeleton->joint_count == 14 &&
              from_memory.constraints,
          "a chain file from memory: %s", err.message);
    free(bytes);
    ik_asset_free(&from_memory);
    for (i = 0; data_dir && i < 2; ++i) {
        snprintf(path, sizeof path, "%s/%s", data_dir, files[i]);
        if ((size = slurp(path, &bytes)) < 0) continue;
        CHECK(ik_asset_load(path, &from_file, &err) == IK_OK &&
                  ik_asset_load_memory(bytes, (size_t)size, NULL, &from_memory, &err) == IK_OK,
              "%s: %s", path, err.message);
        free(bytes); /* the asset holds its own copy */
        if (!from_memory.skeleton) continue;
        CHECK(from_memory.format == from_file.format && from_memory.binary == from_file.binary &&
                  from_memory.skeleton->joint_count == from_file.skeleton->joint_count &&
                  ik_asset_clip_count(&from_memory) == ik_asset_clip_count(&from_file),
              "%s: the same asset from memory", path);
        for (j = 0; j < from_file.skeleton->joint_count; ++j)
            CHECK(strcmp(ik_skeleton_name(from_memory.skeleton, j), ik_skeleton_name(from_file.skeleton, j)) == 0 &&
                      from_memory.skeleton->parents[j] == from_file.skeleton->parents[j],
                  "%s: joint %d", path, j);
        ik_asset_free(&from_file);
        ik_asset_free(&from_memory);
    }
    CHECK(ik_asset_load_memory(truncated, sizeof truncated - 1, "x.glb", &from_memory, &err) == IK_ERR_PARSE &&
              from_memory.format == IK_ASSET_GLTF && strstr(err.message, "byte 8") && strstr(err.message, "truncated"),
          "a truncated GLB: %s", err.message);
    CHECK(ik_asset_load_memory(no_skin, sizeof no_skin - 1, "x.gltf", &from_memory, &err) == IK_ERR_NOT_FOUND &&
              strcmp(err.message, "the glTF file has no skin, so no skeleton to work on") == 0 && !from_memory.gltf,
          "no skin: %s", err.message);
    CHECK(ik_asset_load_memory("no format at all\n", 17, "x.bvh", &from_memory, &err) != IK_OK &&
              from_memory.format == IK_ASSET_BVH && err.message[0],
          "text named .bvh: %s", err.message);
    CHECK(ik_asset_load_memory(NULL, 1, "x", &from_memory, &err) == IK_ERR_NULL &&
              ik_asset_load_memory("x", 1, "x", NULL, &err) == IK_ERR_NULL,
          "NULL");
}

int main(void) {
    test_chain_file();
    test_real_assets();
    test_failures();
    test_memory();
    return check_summary("test_asset");
}

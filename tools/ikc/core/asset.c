/* Loading characters for the commands (printing the loader's message), and
 * picking their default chains. */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "asset.h"
#include "ikc.h"

static int exit_code_for(ik_result r) {
    switch (r) {
        case IK_ERR_IO:
            return IKC_EXIT_NO_FILE;
        case IK_ERR_NO_MEMORY:
            return IKC_EXIT_FAILURE;
        default:
            return IKC_EXIT_FORMAT;
    }
}

int ikc_asset_load(const char *command, const char *path, ik_asset *asset) {
    ik_error err;
    ik_result r = ik_asset_load(path, asset, &err);
    const char *what;
    if (r == IK_OK) return IKC_EXIT_OK;
    if (asset->format == IK_ASSET_UNKNOWN) {
        fprintf(stderr, "ikc %s: %s\n", command, ikc_shown(err.message));
        return exit_code_for(r);
    }
    if (asset->format == IK_ASSET_GLTF && r == IK_ERR_NOT_FOUND) {
        fprintf(stderr, "ikc %s: %s: %s\n", command, path, err.message);
        return exit_code_for(r);
    }
    what = asset->format == IK_ASSET_GLTF ? "glTF" : asset->format == IK_ASSET_BVH ? "BVH" : "chain";
    fprintf(stderr, "ikc %s: %s: not a readable %s file: %s%s%s\n", command, path, what,
            err.message[0] ? ikc_shown(err.message) : ik_result_str(r), err.path[0] ? " at " : "", err.path);
    return exit_code_for(r);
}

const char *ikc_asset_clip_name(const ik_asset *asset, int clip, char *buf, size_t size) {
    const ik_clip *c = ik_asset_clip(asset, clip);
    if (c && c->name && *c->name) return c->name;
    if (asset->bvh) return "motion";
    snprintf(buf, size, "clip %d", clip);
    return buf;
}

int ikc_asset_find_clip(const char *command, const ik_asset *asset, const char *name) {
    int count = ik_asset_clip_count(asset), i, number;
    char buf[32];
    const char *names[256];
    for (i = 0; i < count; ++i)
        if (strcmp(ikc_asset_clip_name(asset, i, buf, sizeof buf), name) == 0) return i;
    if (ikc_parse_int(name, &number) && number >= 0 && number < count) return number;
    if (count == 0) {
        fprintf(stderr, "ikc %s: %s has no clips\n", command, asset->path);
        return -1;
    }
    fprintf(stderr, "ikc %s: no clip '%s' in %s (it has %d; give a name or a number 0..%d)\n", command, name,
            asset->path, count, count - 1);
    for (i = 0; i < count && i < 256; ++i) {
        const ik_clip *c = ik_asset_clip(asset, i);
        names[i] = c && c->name ? c->name : "";
    }
    if (!ikc_suggest_name(stderr, names, i, name, 3))
        fprintf(stderr, "  (no similar name; `ikc info FILE` lists the clips)\n");
    return -1;
}

int ikc_asset_find_joint(const char *command, const ik_asset *asset, const char *name) {
    int j = ik_skeleton_find(asset->skeleton, name);
    if (j >= 0) return j;
    fprintf(stderr, "ikc %s: no joint '%s' in %s\n", command, name, asset->path);
    ikc_suggest_joint(stderr, asset->skeleton, name, 3);
    return -1;
}

int ikc_asset_chains(const ik_asset *asset, ik_named_chain *chains, int max_chains) {
    if (!asset->chain_file) return ik_named_chains_find(asset->skeleton, chains, max_chains);
    return ik_named_chains_to_tips(asset->skeleton, asset->chain_file->name, chains, max_chains);
}

const char *ikc_hang_reason(const ik_skeleton *s, const ik_named_chain *chains, int count, int joint) {
    int parent = s->parents[joint], c;
    for (c = 0; c < count && parent >= 0; ++c) {
        int end = chains[c].joints[chains[c].count - 1];
        if (end != joint && end != parent && ik_skeleton_is_descendant(s, end, parent))
            return "which carries other limbs: turning it would move them too";
    }
    return "part of the body's trunk: turning it would tilt the whole character";
}

ik_real ikc_chain_reach(const ik_mat4 *model_ms, const int *joints, int count) {
    ik_real reach = 0;
    int k;
    for (k = 1; k < count; ++k)
        reach +=
            ik_vec3_distance(ik_mat4_translation(&model_ms[joints[k - 1]]), ik_mat4_translation(&model_ms[joints[k]]));
    return reach;
}

/* `ikc info FILE --json`: the same facts as the table, for scripts -- the
 * joint tree (index, name, parent, rest position in model space), the
 * chains found by name, the humanoid's roles (role -> joint name), a chain
 * file's targets and the clips. */
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "asset.h"
#include "humanoid_setup.h"
#include "ikc.h"
#include "info_json.h"
#include "solve_roles.h"

static cJSON *joints_json(const ik_skeleton *s, const ik_mat4 *model_ms) {
    cJSON *list = cJSON_CreateArray();
    int j;
    for (j = 0; j < s->joint_count; ++j) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "index", j);
        cJSON_AddItemToObject(o, "name", ikc_json_text(ik_skeleton_name(s, j)));
        cJSON_AddNumberToObject(o, "parent", s->parents[j]);
        cJSON_AddItemToObject(o, "rest_ms", ikc_vec3_json(ik_mat4_translation(&model_ms[j])));
        cJSON_AddItemToArray(list, o);
    }
    return list;
}

static cJSON *chains_json(const ik_asset *asset, const ik_mat4 *model_ms) {
    ik_named_chain chains[IKC_MAX_CHAINS];
    int n = ikc_asset_chains(asset, chains, IKC_MAX_CHAINS), c, k;
    cJSON *list = cJSON_CreateArray();
    for (c = 0; c < n; ++c) {
        cJSON *o = cJSON_CreateObject(), *joints = cJSON_CreateArray();
        cJSON_AddItemToObject(o, "kind", ikc_json_text(chains[c].kind));
        for (k = 0; k < chains[c].count; ++k)
            cJSON_AddItemToArray(joints, ikc_json_text(ik_skeleton_name(asset->skeleton, chains[c].joints[k])));
        cJSON_AddItemToObject(o, "joints", joints);
        if (chains[c].count >= 2)
            cJSON_AddNumberToObject(o, "reach", (double)ikc_chain_reach(model_ms, chains[c].joints, chains[c].count));
        else
            cJSON_AddNullToObject(o, "reach");
        cJSON_AddItemToArray(list, o);
    }
    return list;
}

/* {"usable", "roles": {role: joint name or null}, "missing": [required
 * roles not found]}, or null for a chain file without a mapping; *code is
 * the mapping file's exit code when it cannot be read. */
static cJSON *humanoid_json(const ik_asset *asset, const char *map_path, int *code) {
    ikc_humanoid h;
    cJSON *o, *roles, *missing;
    int role;
    *code = IKC_EXIT_OK;
    if (asset->chain_file && !map_path) return cJSON_CreateNull();
    *code = ikc_humanoid_find("info", asset->skeleton, map_path, &h);
    if (*code != IKC_EXIT_OK) {
        ikc_humanoid_free(&h);
        return NULL;
    }
    o = cJSON_CreateObject();
    roles = cJSON_CreateObject();
    missing = cJSON_CreateArray();
    cJSON_AddBoolToObject(o, "usable", h.map_result == IK_OK && h.init_result == IK_OK);
    cJSON_AddItemToObject(
        o, "status", ikc_json_text(h.map_result != IK_OK ? ik_result_str(h.map_result) : ik_result_str(h.init_result)));
    for (role = 0; role < IK_ROLE_COUNT; ++role) {
        int joint = h.map.joint[role];
        cJSON_AddItemToObject(
            roles, ik_humanoid_role_name(role),
            joint >= 0 ? ikc_json_text(ik_skeleton_name(asset->skeleton, joint)) : cJSON_CreateNull());
        if ((IK_HUMANOID_REQUIRED_ROLES & (1ul << role)) && joint < 0)
            cJSON_AddItemToArray(missing, ikc_json_text(ik_humanoid_role_name(role)));
    }
    cJSON_AddItemToObject(o, "roles", roles);
    cJSON_AddItemToObject(o, "missing", missing);
    ikc_humanoid_free(&h);
    return o;
}

static cJSON *clips_json(const ik_asset *asset) {
    cJSON *list = cJSON_CreateArray();
    int n = ik_asset_clip_count(asset), c;
    char buf[32];
    for (c = 0; c < n; ++c) {
        const ik_clip *clip = ik_asset_clip(asset, c);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "index", c);
        cJSON_AddItemToObject(o, "name", ikc_json_text(ikc_asset_clip_name(asset, c, buf, sizeof buf)));
        cJSON_AddNumberToObject(o, "duration", (double)clip->duration);
        cJSON_AddNumberToObject(o, "channels", clip->channel_count);
        if (asset->bvh) {
            cJSON_AddNumberToObject(o, "frames", asset->bvh->frame_count);
            cJSON_AddNumberToObject(o, "frame_time", asset->bvh->frame_time);
        }
        cJSON_AddItemToArray(list, o);
    }
    return list;
}

static cJSON *targets_json(const ik_asset *asset) {
    cJSON *list = cJSON_CreateArray();
    int t;
    for (t = 0; asset->chain_file && t < asset->chain_file->target_count; ++t) {
        const ik_chain_target *tg = &asset->chain_file->targets[t];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "name", ikc_json_text(tg->name));
        cJSON_AddItemToObject(o, "joint", ikc_json_text(ik_skeleton_name(asset->skeleton, tg->joint)));
        cJSON_AddItemToObject(o, "position_ms", ikc_vec3_json(tg->position_ms));
        cJSON_AddNumberToObject(o, "weight", (double)tg->importance);
        cJSON_AddItemToArray(list, o);
    }
    return list;
}

int ikc_info_json(const ik_asset *asset, const ik_mat4 *model_ms, const char *path, const char *map_path) {
    cJSON *root = cJSON_CreateObject(), *humanoid;
    int code;
    cJSON_AddItemToObject(root, "file", ikc_json_text(path));
    cJSON_AddItemToObject(root, "format", ikc_json_text(ik_asset_format_name(asset)));
    if (asset->gltf) {
        const ik_gltf_skin *skin = ik_gltf_skeleton(asset->gltf, asset->skin);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "index", asset->skin);
        cJSON_AddItemToObject(o, "name", skin->name ? ikc_json_text(skin->name) : cJSON_CreateNull());
        cJSON_AddNumberToObject(o, "count", ik_gltf_skin_count(asset->gltf));
        cJSON_AddItemToObject(root, "skin", o);
    }
    if (asset->chain_file) cJSON_AddItemToObject(root, "chain", ikc_json_text(asset->chain_file->name));
    cJSON_AddItemToObject(root, "joints", joints_json(asset->skeleton, model_ms));
    cJSON_AddItemToObject(root, "chains", chains_json(asset, model_ms));
    humanoid = humanoid_json(asset, map_path, &code);
    if (!humanoid) {
        cJSON_Delete(root);
        return code;
    }
    cJSON_AddItemToObject(root, "humanoid", humanoid);
    if (asset->chain_file) cJSON_AddItemToObject(root, "targets", targets_json(asset));
    cJSON_AddItemToObject(root, "clips", clips_json(asset));
    if (!ikc_json_print(root)) {
        fprintf(stderr, "ikc info: out of memory\n");
        return IKC_EXIT_FAILURE;
    }
    return IKC_EXIT_OK;
}

/* glTF 2.0 writer: edits of node transforms as patches on the document,
 * edits of animation channels and samplers (with new accessors over data
 * appended to buffer 0) made to a cJSON tree built from the document, both
 * read back into it; serialisation to .glb or .gltf straight from the
 * document (json_write.h). GLB framing per the glTF 2.0
 * specification, section 4.4: chunk data padded to 4 bytes, the JSON chunk
 * with spaces (0x20) and the BIN chunk with zeros; the BIN chunk may be up to
 * 3 bytes longer than buffer 0's byteLength. */
#include "gltf_prune.h"
#include "gltf_tree.h"
#include "json_write.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GLB_MAGIC 0x46546C67u
#define GLB_CHUNK_JSON 0x4E4F534Au
#define GLB_CHUNK_BIN 0x004E4942u

static ik_result fail_memory(ik_error *error) { return gltf_fail(error, IK_ERR_NO_MEMORY, "", "out of memory"); }

/* Delete every member of obj named `key` after `kept` (all of them when
 * `kept` is NULL): a file may repeat a key, and the reader takes the first
 * one, so an edit that left a repeat behind would read back as the repeat. */
static void remove_members(cJSON *obj, const char *key, const cJSON *kept) {
    cJSON *member = obj ? obj->child : NULL, *next;
    int seen = kept == NULL;
    for (; member; member = next) {
        next = member->next;
        if (member == kept)
            seen = 1;
        else if (seen && member->string && strcmp(member->string, key) == 0)
            cJSON_Delete(cJSON_DetachItemViaPointer(obj, member));
    }
}

/* Replace (or add) obj[key] with item, and delete the key's repeats; item
 * is consumed. */
static int set_member(cJSON *obj, const char *key, cJSON *item) {
    if (!item) return 0;
    if (cJSON_GetObjectItemCaseSensitive(obj, key)) {
        if (!cJSON_ReplaceItemInObjectCaseSensitive(obj, key, item)) return 0;
        remove_members(obj, key, item);
        return 1;
    }
    return cJSON_AddItemToObject(obj, key, item);
}

static int set_number(cJSON *obj, const char *key, double value) {
    return set_member(obj, key, cJSON_CreateNumber(value));
}

static cJSON *numbers(const ik_real *v, int n) {
    double d[16];
    int i;
    for (i = 0; i < n; ++i) d[i] = (double)v[i];
    return cJSON_CreateDoubleArray(d, n);
}

/* The array root[key], created empty when absent. */
static cJSON *root_array(cJSON *root, const char *key) {
    cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, key);
    if (arr) return cJSON_IsArray(arr) ? arr : NULL;
    arr = cJSON_CreateArray();
    if (arr && !cJSON_AddItemToObject(root, key, arr)) {
        cJSON_Delete(arr);
        return NULL;
    }
    return arr;
}

/* The edited tree becomes the document: read back into g->doc (a copy of
 * what ik_gltf_write_memory would print), the buffers changed as `prune`
 * plans (NULL: unchanged), then everything derived from it is built again.
 * The tree and the plan are consumed; on failure the document and its
 * buffers are as they were. */
static ik_result commit_edit(ik_gltf *g, cJSON *tree, gltf_prune *prune, ik_error *error) {
    json_doc edited;
    ik_result r = gltf_tree_read_back(tree, &edited, error);
    cJSON_Delete(tree);
    if (r != IK_OK) {
        if (prune) gltf_prune_free(prune);
        return r;
    }
    if (prune) gltf_prune_apply(g, prune);
    json_doc_free(&g->doc);
    g->doc = edited;
    return gltf_build(g, error);
}

/* An edit given as patches (json_write.h) becomes the document: printed
 * compactly with them and read back into g->doc, then everything derived
 * from it is built again; on failure the document is as it was. */
static ik_result commit_patches(ik_gltf *g, const json_patch *patches, size_t count, ik_error *error) {
    json_out out = {NULL, 0, 0, 0};
    json_doc edited;
    json_error refused;
    int ok;
    if (!json_print(&out, gltf_root(g), patches, count, 0)) {
        int no_memory = out.failed;
        json_out_free(&out);
        return no_memory ? fail_memory(error) : gltf_fail(error, IK_ERR_PARSE, "", "an edit names no object");
    }
    {
        char *fitted = (char *)realloc(out.text, out.length + 1); /* the room json_print guessed, given back */
        if (fitted) out.text = fitted;
    }
    ok = json_doc_adopt(&edited, out.text, out.length, &refused);
    if (!ok) {
        if (refused.out_of_memory) return fail_memory(error);
        return gltf_fail(error, IK_ERR_PARSE, "", "the edited document does not read back (JSON byte %lu): %s",
                         (unsigned long)refused.offset, refused.reason);
    }
    json_doc_free(&g->doc);
    g->doc = edited;
    return gltf_build(g, error);
}

/* Each joint's node gets its pose as translation, rotation (normalised) and
 * scale, its matrix removed: four patches a node, in node order (the order
 * of the node objects in the document); a node listed twice in the skin
 * takes the later joint's pose. */
ik_result ik_gltf_set_pose(ik_gltf *g, int skin, const ik_transform *pose_ls, ik_error *error) {
    const ik_gltf_skin *view;
    int *joint_of, j, n, count;
    double *numbers;
    json_patch *patches;
    ik_result r;
    ik_error_clear(error);
    if (!g || !pose_ls) return IK_ERR_NULL;
    if (!(view = ik_gltf_skeleton(g, skin))) return gltf_fail(error, IK_ERR_RANGE, "/skins", "no skin %d", skin);
    for (j = 0; j < view->skeleton.joint_count; ++j)
        if (!ik_transform_finite(pose_ls[j]) || !(ik_quat_length(pose_ls[j].rotation) > 0))
            return gltf_fail(error, IK_ERR_NONFINITE, "", "pose of joint %d is not finite", j);
    joint_of = (int *)malloc(((size_t)g->node_count + 1) * sizeof *joint_of);
    numbers = (double *)malloc(((size_t)view->skeleton.joint_count + 1) * 10 * sizeof *numbers);
    patches = (json_patch *)calloc(((size_t)view->skeleton.joint_count + 1) * 4, sizeof *patches);
    if (!joint_of || !numbers || !patches) {
        free(joint_of);
        free(numbers);
        free(patches);
        return fail_memory(error);
    }
    for (n = 0; n < g->node_count; ++n) joint_of[n] = -1;
    for (j = 0; j < view->skeleton.joint_count; ++j) joint_of[view->node[j]] = j;
    for (n = 0, count = 0; n < g->node_count; ++n) {
        const json_value *node = g->nodes[n].object;
        double *v = numbers + 10 * (size_t)(count / 4);
        ik_transform p;
        ik_quat q;
        if ((j = joint_of[n]) < 0) continue;
        p = pose_ls[j];
        q = ik_quat_normalize(p.rotation);
        v[0] = (double)p.translation.x, v[1] = (double)p.translation.y, v[2] = (double)p.translation.z;
        v[3] = (double)q.x, v[4] = (double)q.y, v[5] = (double)q.z, v[6] = (double)q.w;
        v[7] = (double)p.scale.x, v[8] = (double)p.scale.y, v[9] = (double)p.scale.z;
        patches[count].object = node;
        patches[count].key = "matrix";
        patches[count++].kind = JSON_PATCH_REMOVE;
        patches[count].object = node;
        patches[count].key = "translation";
        patches[count].kind = JSON_PATCH_NUMBERS;
        patches[count].numbers = v;
        patches[count++].count = 3;
        patches[count].object = node;
        patches[count].key = "rotation";
        patches[count].kind = JSON_PATCH_NUMBERS;
        patches[count].numbers = v + 3;
        patches[count++].count = 4;
        patches[count].object = node;
        patches[count].key = "scale";
        patches[count].kind = JSON_PATCH_NUMBERS;
        patches[count].numbers = v + 7;
        patches[count++].count = 3;
    }
    free(joint_of);
    r = commit_patches(g, patches, (size_t)count, error);
    free(numbers);
    free(patches);
    return r;
}

/* ---- appending key data -------------------------------------------------- */

/* Append bytes to buffer 0 at a 4-byte aligned offset (created if absent). */
static ik_result append_bytes(ik_gltf *g, cJSON *root, const unsigned char *data, size_t n, size_t *offset) {
    gltf_buffer *b;
    size_t start, need;
    cJSON *buffers = root_array(root, "buffers"), *buffer;
    if (!buffers) return IK_ERR_NO_MEMORY;
    if (g->buffer_count == 0) {
        gltf_buffer *list = (gltf_buffer *)calloc(2, sizeof *list);
        buffer = cJSON_CreateObject();
        if (!list || !buffer || !cJSON_AddItemToArray(buffers, buffer)) {
            free(list);
            cJSON_Delete(buffer);
            return IK_ERR_NO_MEMORY;
        }
        free(g->buffers);
        g->buffers = list;
        g->buffer_count = 1;
    }
    b = &g->buffers[0];
    start = (b->size + 3) / 4 * 4;
    need = start + n;
    if (need > b->capacity) {
        size_t capacity = need > 2 * b->capacity ? need : 2 * b->capacity;
        unsigned char *grown = (unsigned char *)realloc(b->data, capacity);
        if (!grown) return IK_ERR_NO_MEMORY;
        b->data = grown;
        b->capacity = capacity;
    }
    memset(b->data + b->size, 0, start - b->size);
    memcpy(b->data + start, data, n);
    b->size = need;
    *offset = start;
    return set_number(cJSON_GetArrayItem(buffers, 0), "byteLength", (double)need) ? IK_OK : IK_ERR_NO_MEMORY;
}

/* Where a clip's data goes: the tree's bufferViews, accessors and the
 * animation's samplers and channels, with how many items each holds
 * (cJSON counts an array by walking it, which made a clip of 50,000
 * channels quadratic). */
typedef struct clip_target {
    cJSON *root, *views, *accessors, *samplers, *channels;
    long view_count, accessor_count, sampler_count;
} clip_target;

/* The tree's views and accessors (created empty when absent) counted once;
 * `samplers` already holds sampler_count items. 0 when out of memory. */
static int clip_target_init(clip_target *t, cJSON *root, cJSON *channels, cJSON *samplers, long sampler_count) {
    t->root = root;
    t->views = root_array(root, "bufferViews");
    t->accessors = root_array(root, "accessors");
    t->channels = channels;
    t->samplers = samplers;
    t->view_count = cJSON_GetArraySize(t->views);
    t->accessor_count = cJSON_GetArraySize(t->accessors);
    t->sampler_count = sampler_count;
    return t->views && t->accessors;
}

/* A FLOAT accessor over `count` elements of `width` reals, in a new
 * bufferView; times (width 1) get the min and max animation inputs need. */
static ik_result add_float_accessor(ik_gltf *g, clip_target *t, const ik_real *values, long count, int width,
                                    long *index) {
    static const char *const types[] = {"", "SCALAR", "VEC2", "VEC3", "VEC4"};
    size_t n = (size_t)count * (size_t)width, i, offset;
    unsigned char *bytes = (unsigned char *)malloc(n * 4 + 1);
    cJSON *view, *acc;
    ik_result r;
    if (!bytes) return IK_ERR_NO_MEMORY;
    for (i = 0; i < n; ++i) {
        float f = (float)values[i];
        uint32_t u;
        memcpy(&u, &f, sizeof u);
        bytes[4 * i] = (unsigned char)u;
        bytes[4 * i + 1] = (unsigned char)(u >> 8);
        bytes[4 * i + 2] = (unsigned char)(u >> 16);
        bytes[4 * i + 3] = (unsigned char)(u >> 24);
    }
    r = append_bytes(g, t->root, bytes, n * 4, &offset);
    free(bytes);
    if (r != IK_OK) return r;
    view = cJSON_CreateObject();
    acc = cJSON_CreateObject();
    if (!view || !acc || !cJSON_AddItemToArray(t->views, view)) {
        cJSON_Delete(view);
        cJSON_Delete(acc);
        return IK_ERR_NO_MEMORY;
    }
    ++t->view_count;
    if (!cJSON_AddItemToArray(t->accessors, acc)) {
        cJSON_Delete(acc);
        return IK_ERR_NO_MEMORY;
    }
    ++t->accessor_count;
    if (!set_number(view, "buffer", 0) || !set_number(view, "byteOffset", (double)offset) ||
        !set_number(view, "byteLength", (double)(n * 4)) ||
        !set_number(acc, "bufferView", (double)(t->view_count - 1)) || !set_number(acc, "componentType", 5126) ||
        !set_number(acc, "count", (double)count) || !set_member(acc, "type", cJSON_CreateString(types[width])))
        return IK_ERR_NO_MEMORY;
    if (width == 1) {
        ik_real lo = (ik_real)(float)values[0], hi = (ik_real)(float)values[count - 1];
        if (!set_member(acc, "min", numbers(&lo, 1)) || !set_member(acc, "max", numbers(&hi, 1)))
            return IK_ERR_NO_MEMORY;
    }
    *index = t->accessor_count - 1;
    return IK_OK;
}

static const char *path_name(ik_channel_path path) {
    return path == IK_CHANNEL_TRANSLATION ? "translation" : path == IK_CHANNEL_ROTATION ? "rotation" : "scale";
}

static const char *interpolation_name(ik_interpolation interpolation) {
    return interpolation == IK_INTERP_LINEAR ? "LINEAR" : interpolation == IK_INTERP_STEP ? "STEP" : "CUBICSPLINE";
}

/* Channels that share key times (the same array and count, such as a
 * fitted joint's) share one input accessor, written for the first of them:
 * first[c] is the first channel with channel c's times, found by sorting
 * the channels by (times, count, index) instead of comparing each with all
 * before it. */
typedef struct times_of {
    uintptr_t times;
    int key_count, channel;
} times_of;

static int compare_times(const void *a, const void *b) {
    const times_of *x = (const times_of *)a, *y = (const times_of *)b;
    if (x->times != y->times) return x->times < y->times ? -1 : 1;
    if (x->key_count != y->key_count) return x->key_count < y->key_count ? -1 : 1;
    return x->channel - y->channel;
}

/* first [channel_count] as above; 0 when out of memory. */
static int first_with_times(const ik_clip *keys, int *first) {
    times_of *order = (times_of *)malloc(((size_t)keys->channel_count + 1) * sizeof *order);
    int c;
    if (!order) return 0;
    for (c = 0; c < keys->channel_count; ++c) {
        order[c].times = (uintptr_t)keys->channels[c].times;
        order[c].key_count = keys->channels[c].key_count;
        order[c].channel = c;
    }
    qsort(order, (size_t)keys->channel_count, sizeof *order, compare_times);
    for (c = 0; c < keys->channel_count; ++c)
        first[order[c].channel] =
            c > 0 && order[c - 1].times == order[c].times && order[c - 1].key_count == order[c].key_count
                ? first[order[c - 1].channel]
                : order[c].channel;
    free(order);
    return 1;
}

/* Channel c of `keys`: its sampler (the input accessor of channel first[c]
 * when that came before; inputs[c] set) and its channel. Rotation keys
 * (not spline tangents) are written normalised, as the specification
 * requires. */
static ik_result append_channel(ik_gltf *g, clip_target *t, const ik_gltf_skin *view, const ik_clip *keys, int c,
                                const int *first, long *inputs) {
    const ik_channel *ch = &keys->channels[c];
    int width = ik_channel_width(ch->path), spline = ch->interpolation == IK_INTERP_CUBICSPLINE;
    long per_key = spline ? 3 : 1, count = (long)ch->key_count * per_key, input, output, k;
    ik_real *values = (ik_real *)malloc((size_t)count * (size_t)width * sizeof(ik_real));
    cJSON *sampler, *channel, *target;
    ik_result r;
    if (!values) return IK_ERR_NO_MEMORY;
    memcpy(values, ch->values, (size_t)count * (size_t)width * sizeof(ik_real));
    if (ch->path == IK_CHANNEL_ROTATION) {
        for (k = 0; k < count; ++k) {
            ik_real *q = values + 4 * k;
            ik_quat n;
            if (spline && k % 3 != 1) continue;
            n = ik_quat_normalize(ik_q(q[0], q[1], q[2], q[3]));
            q[0] = n.x, q[1] = n.y, q[2] = n.z, q[3] = n.w;
        }
    }
    input = first[c] < c ? inputs[first[c]] : -1;
    r = input >= 0 ? IK_OK : add_float_accessor(g, t, ch->times, ch->key_count, 1, &input);
    inputs[c] = input;
    if (r == IK_OK) r = add_float_accessor(g, t, values, count, width, &output);
    free(values);
    if (r != IK_OK) return r;
    sampler = cJSON_CreateObject();
    channel = cJSON_CreateObject();
    target = cJSON_CreateObject();
    if (!sampler || !channel || !target || !cJSON_AddItemToArray(t->samplers, sampler)) {
        cJSON_Delete(sampler);
        cJSON_Delete(channel);
        cJSON_Delete(target);
        return IK_ERR_NO_MEMORY;
    }
    ++t->sampler_count;
    if (!cJSON_AddItemToArray(t->channels, channel)) {
        cJSON_Delete(channel);
        cJSON_Delete(target);
        return IK_ERR_NO_MEMORY;
    }
    if (!set_member(channel, "target", target)) return IK_ERR_NO_MEMORY;
    if (!set_number(sampler, "input", (double)input) || !set_number(sampler, "output", (double)output) ||
        !set_member(sampler, "interpolation", cJSON_CreateString(interpolation_name(ch->interpolation))) ||
        !set_number(channel, "sampler", (double)(t->sampler_count - 1)) ||
        !set_number(target, "node", (double)view->node[ch->joint]) ||
        !set_member(target, "path", cJSON_CreateString(path_name(ch->path))))
        return IK_ERR_NO_MEMORY;
    return IK_OK;
}

/* One sampler and one channel per clip channel (append_channel), after
 * the `sampler_count` samplers `samplers` holds. */
static ik_result append_clip(ik_gltf *g, cJSON *root, const ik_gltf_skin *view, const ik_clip *keys, cJSON *channels,
                             cJSON *samplers, long sampler_count) {
    long *inputs = (long *)malloc(((size_t)keys->channel_count + 1) * sizeof *inputs);
    int *first = (int *)malloc(((size_t)keys->channel_count + 1) * sizeof *first);
    ik_result result = IK_OK;
    clip_target t;
    int c;
    if (!inputs || !first || !first_with_times(keys, first) ||
        !clip_target_init(&t, root, channels, samplers, sampler_count))
        result = IK_ERR_NO_MEMORY;
    for (c = 0; c < keys->channel_count && result == IK_OK; ++c)
        result = append_channel(g, &t, view, keys, c, first, inputs);
    free(inputs);
    free(first);
    return result;
}

static ik_result check_keys(const ik_gltf *g, int skin, const ik_clip *keys, ik_error *error) {
    const ik_gltf_skin *view = ik_gltf_skeleton(g, skin);
    int bad = -1;
    ik_result r;
    if (!view) return gltf_fail(error, IK_ERR_RANGE, "/skins", "no skin %d", skin);
    if ((r = ik_clip_validate(keys, view->skeleton.joint_count, &bad)) != IK_OK)
        return gltf_fail(error, r, "", "clip channel %d: %s", bad, ik_result_str(r));
    if (keys->channel_count < 1) return gltf_fail(error, IK_ERR_RANGE, "", "a clip needs at least one channel");
    return IK_OK;
}

/* A new animation in `tree` holding `keys` (check_keys done). */
static ik_result append_animation(ik_gltf *g, cJSON *tree, int skin, const char *name, const ik_clip *keys) {
    cJSON *animations = root_array(tree, "animations"), *anim = cJSON_CreateObject();
    cJSON *channels = cJSON_CreateArray(), *samplers = cJSON_CreateArray();
    if (!animations || !anim || !channels || !samplers || !cJSON_AddItemToArray(animations, anim)) {
        cJSON_Delete(anim);
        cJSON_Delete(channels);
        cJSON_Delete(samplers);
        return IK_ERR_NO_MEMORY;
    }
    if (!set_member(anim, "channels", channels)) {
        cJSON_Delete(samplers);
        return IK_ERR_NO_MEMORY;
    }
    if (!set_member(anim, "samplers", samplers) || (name && !set_member(anim, "name", cJSON_CreateString(name))))
        return IK_ERR_NO_MEMORY;
    return append_clip(g, tree, ik_gltf_skeleton(g, skin), keys, channels, samplers, 0);
}

ik_result ik_gltf_add_clip(ik_gltf *g, int skin, const char *name, const ik_clip *keys, ik_error *error) {
    cJSON *tree;
    ik_result r;
    ik_error_clear(error);
    if (!g || !keys) return IK_ERR_NULL;
    if ((r = check_keys(g, skin, keys, error)) != IK_OK) return r;
    tree = gltf_tree_of(gltf_root(g));
    if (!tree || append_animation(g, tree, skin, name, keys) != IK_OK) {
        cJSON_Delete(tree);
        return fail_memory(error);
    }
    return commit_edit(g, tree, NULL, error);
}

/* Whether an animation channel drives a skeleton joint's translation,
 * rotation or scale (in_skeleton by node). */
static int drives_skeleton(const cJSON *channel, const int *in_skeleton, int node_count) {
    const cJSON *target = cJSON_GetObjectItemCaseSensitive(channel, "target");
    const cJSON *node = cJSON_GetObjectItemCaseSensitive(target, "node");
    const cJSON *path = cJSON_GetObjectItemCaseSensitive(target, "path");
    return cJSON_IsNumber(node) && node->valueint >= 0 && node->valueint < node_count && in_skeleton[node->valueint] &&
           cJSON_IsString(path) &&
           (strcmp(path->valuestring, "translation") == 0 || strcmp(path->valuestring, "rotation") == 0 ||
            strcmp(path->valuestring, "scale") == 0);
}

/* The animation's channels that stay (not driving the skeleton) into
 * `channels`, and into `samplers` the samplers they use plus those no
 * channel used (the input's own unused samplers stay, with their accessors),
 * each once and in order, the channels renumbered to them; *kept counts
 * the samplers. */
static ik_result keep_other_channels(const ik_gltf *g, const cJSON *anim, const int *in_skeleton, cJSON *channels,
                                     cJSON *samplers, long *kept) {
    const cJSON *old_channels = cJSON_GetObjectItemCaseSensitive(anim, "channels");
    const cJSON *old_samplers = cJSON_GetObjectItemCaseSensitive(anim, "samplers"), *channel, *sampler;
    long count = cJSON_GetArraySize(old_samplers), s = 0;
    /* use[s]: 0 no channel, 1 only replaced ones, 2 a kept one; then the new index */
    long *use = (long *)calloc((size_t)count + 1, sizeof *use);
    ik_result r = IK_OK;
    if (!use) return IK_ERR_NO_MEMORY;
    /* the reader checked every channel's sampler index */
    cJSON_ArrayForEach(channel, old_channels) {
        long *u = &use[cJSON_GetObjectItemCaseSensitive(channel, "sampler")->valueint];
        int stays = !drives_skeleton(channel, in_skeleton, g->node_count);
        if (*u < 1 + stays) *u = 1 + stays;
    }
    *kept = 0;
    cJSON_ArrayForEach(sampler, old_samplers) {
        cJSON *copy;
        if (use[s] == 1) {
            use[s++] = -1;
            continue;
        }
        use[s++] = (*kept)++;
        copy = cJSON_Duplicate(sampler, 1);
        if (!copy || !cJSON_AddItemToArray(samplers, copy)) {
            cJSON_Delete(copy);
            r = IK_ERR_NO_MEMORY;
            break;
        }
    }
    cJSON_ArrayForEach(channel, old_channels) {
        cJSON *copy;
        if (r != IK_OK) break;
        if (drives_skeleton(channel, in_skeleton, g->node_count)) continue;
        copy = cJSON_Duplicate(channel, 1);
        if (!copy || !cJSON_AddItemToArray(channels, copy)) {
            cJSON_Delete(copy);
            r = IK_ERR_NO_MEMORY;
        } else if (!set_number(copy, "sampler",
                               (double)use[cJSON_GetObjectItemCaseSensitive(channel, "sampler")->valueint])) {
            r = IK_ERR_NO_MEMORY;
        }
    }
    free(use);
    return r;
}

/* Channels of the animation on nodes outside the skeleton (or on other
 * properties) are kept with their samplers renumbered; the skeleton's
 * translation, rotation and scale channels give way to `keys`. What the
 * replaced channels alone used (their accessors, then the bufferViews and
 * buffer bytes only those held) is dropped: the references are taken before
 * the edit and after it, and only the difference goes (gltf_prune.h). */
ik_result ik_gltf_replace_clip_keys(ik_gltf *g, int clip, int skin, const ik_clip *keys, ik_error *error) {
    const ik_gltf_skin *view;
    cJSON *tree, *anim, *channels, *samplers;
    int *in_skeleton, j;
    long kept_samplers = 0;
    gltf_refs before;
    gltf_prune prune;
    ik_result r = IK_OK;
    ik_error_clear(error);
    if (!g || !keys) return IK_ERR_NULL;
    if ((r = check_keys(g, skin, keys, error)) != IK_OK) return r;
    if (clip < 0 || clip >= g->animation_count)
        return gltf_fail(error, IK_ERR_RANGE, "/animations", "no animation %d", clip);
    view = ik_gltf_skeleton(g, skin);
    if (!(tree = gltf_tree_of(gltf_root(g)))) return fail_memory(error);
    if (!gltf_refs_of(g, tree, &before)) {
        cJSON_Delete(tree);
        return fail_memory(error);
    }
    anim = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(tree, "animations"), clip);
    in_skeleton = (int *)calloc((size_t)g->node_count + 1, sizeof(int));
    channels = cJSON_CreateArray();
    samplers = cJSON_CreateArray();
    if (!in_skeleton || !channels || !samplers) r = IK_ERR_NO_MEMORY;
    for (j = 0; r == IK_OK && j < view->skeleton.joint_count; ++j) in_skeleton[view->node[j]] = 1;
    if (r == IK_OK) r = keep_other_channels(g, anim, in_skeleton, channels, samplers, &kept_samplers);
    free(in_skeleton);
    if (r == IK_OK) r = append_clip(g, tree, view, keys, channels, samplers, kept_samplers);
    if (r == IK_OK && !set_member(anim, "channels", channels))
        r = IK_ERR_NO_MEMORY;
    else if (r != IK_OK)
        cJSON_Delete(channels);
    if (r == IK_OK && !set_member(anim, "samplers", samplers))
        r = IK_ERR_NO_MEMORY;
    else if (r != IK_OK)
        cJSON_Delete(samplers);
    if (r == IK_OK) r = gltf_prune_plan(g, tree, &before, &prune);
    gltf_refs_free(&before);
    if (r != IK_OK) {
        cJSON_Delete(tree);
        return fail_memory(error);
    }
    return commit_edit(g, tree, &prune, error);
}

/* ---- serialisation ------------------------------------------------------- */

static void put_u32(unsigned char *b, uint32_t v) {
    b[0] = (unsigned char)v;
    b[1] = (unsigned char)(v >> 8);
    b[2] = (unsigned char)(v >> 16);
    b[3] = (unsigned char)(v >> 24);
}

/* Buffer i goes out as the GLB BIN chunk (binary, buffer 0), under the URI
 * external_uri[i] when that is given, or as a base64 data URI; its
 * byteLength is its size. The document is printed with those as patches. */
static ik_result serialise(const ik_gltf *g, int binary, char *const *external_uri, unsigned char **out, size_t *size,
                           ik_error *error) {
    static const char prefix[] = "data:application/octet-stream;base64,";
    const json_value *root = gltf_root(g), *buffer = NULL, *buffers = json_member(root, "buffers");
    const gltf_buffer *bin = NULL;
    json_patch *patches = (json_patch *)calloc(2 * (size_t)g->buffer_count + 1, sizeof *patches);
    char **uris = (char **)calloc((size_t)g->buffer_count + 1, sizeof *uris);
    json_out json = {NULL, 0, 0, 0};
    size_t json_length, json_padded, bin_padded, total, count = 0;
    unsigned char *bytes;
    int i, printed = 0;
    if (!root || !patches || !uris) goto out_of_memory;
    for (i = 0; i < g->buffer_count; ++i) {
        const gltf_buffer *b = &g->buffers[i];
        buffer = buffer ? json_next(buffers, buffer) : json_first(buffers);
        if (!json_is_object(buffer)) goto out_of_memory;
        patches[count].object = buffer;
        patches[count].key = "byteLength";
        patches[count].kind = JSON_PATCH_NUMBER;
        patches[count++].number = (double)b->size;
        patches[count].object = buffer;
        patches[count].key = "uri";
        if (binary && i == 0) {
            bin = b;
            patches[count++].kind = JSON_PATCH_REMOVE;
            continue;
        }
        patches[count].kind = JSON_PATCH_STRING;
        if (external_uri && external_uri[i]) {
            patches[count++].string = external_uri[i];
            continue;
        }
        {
            char *text = gltf_base64_encode(b->data, b->size);
            uris[i] = text ? (char *)malloc(sizeof prefix + strlen(text)) : NULL;
            if (uris[i]) {
                memcpy(uris[i], prefix, sizeof prefix - 1);
                strcpy(uris[i] + sizeof prefix - 1, text);
            }
            free(text);
            if (!uris[i]) goto out_of_memory;
            patches[count++].string = uris[i];
        }
    }
    /* a GLB's header and JSON chunk header come first, filled in after */
    if (binary) json_out_bytes(&json, "GLB header and JSON chunk header.", 20);
    printed = json_print(&json, root, patches, count, !binary);
    for (i = 0; i < g->buffer_count; ++i) free(uris[i]);
    free(uris);
    free(patches);
    uris = NULL;
    patches = NULL;
    if (!printed || json.failed) goto out_of_memory;
    if (!binary) {
        *out = (unsigned char *)json.text;
        *size = json.length;
        return IK_OK;
    }
    json_length = json.length - 20;
    json_padded = (json_length + 3) / 4 * 4;
    bin_padded = bin ? (bin->size + 3) / 4 * 4 : 0;
    total = 12 + 8 + json_padded + (bin ? 8 + bin_padded : 0);
    if ((uint64_t)total > 0xFFFFFFFFu) {
        json_out_free(&json);
        return gltf_fail(error, IK_ERR_RANGE, "/buffers/0", "a GLB file cannot exceed 4 GiB");
    }
    json_out_bytes(&json, "   ", json_padded - json_length);
    if (bin) {
        unsigned char chunk[8];
        put_u32(chunk, (uint32_t)bin_padded);
        put_u32(chunk + 4, GLB_CHUNK_BIN);
        json_out_bytes(&json, (const char *)chunk, 8);
        json_out_bytes(&json, (const char *)bin->data, bin->size);
        json_out_bytes(&json, "\0\0\0", bin_padded - bin->size);
    }
    if (json.failed) goto out_of_memory;
    bytes = (unsigned char *)json.text;
    put_u32(bytes, GLB_MAGIC);
    put_u32(bytes + 4, 2);
    put_u32(bytes + 8, (uint32_t)total);
    put_u32(bytes + 12, (uint32_t)json_padded);
    put_u32(bytes + 16, GLB_CHUNK_JSON);
    *out = bytes;
    *size = total;
    return IK_OK;
out_of_memory:
    for (i = 0; uris && i < g->buffer_count; ++i) free(uris[i]);
    free(uris);
    free(patches);
    json_out_free(&json);
    return fail_memory(error);
}

ik_result ik_gltf_write_memory(const ik_gltf *g, int binary, unsigned char **out, size_t *size, ik_error *error) {
    ik_error_clear(error);
    if (!g || !out || !size) return IK_ERR_NULL;
    return serialise(g, binary, NULL, out, size, error);
}

static ik_result write_bytes(const char *path, const unsigned char *data, size_t size, ik_error *error) {
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(data, 1, size, f) == size;
    if (f && fclose(f) != 0) ok = 0;
    if (!ok) {
        ik_error_set(error, 0, 0, -1, "cannot write %.200s", path);
        return IK_ERR_IO;
    }
    return IK_OK;
}

static int ends_with_glb(const char *path) {
    size_t n = strlen(path);
    const char *ext = path + (n >= 4 ? n - 4 : 0);
    return n >= 4 && ext[0] == '.' && (ext[1] | 32) == 'g' && (ext[2] | 32) == 'l' && (ext[3] | 32) == 'b';
}

void ik_gltf_output_files_free(ik_gltf_output_file *files, int count) {
    int i;
    if (!files) return;
    for (i = 0; i < count; ++i) {
        free(files[i].path);
        free(files[i].data);
    }
    free(files);
}

/* `name` as a URI path segment: bytes outside RFC 3986's unreserved set
 * (section 2.3: ALPHA DIGIT - . _ ~) become %XX (section 2.1). */
static char *uri_of_name(const char *name) {
    static const char hex[] = "0123456789ABCDEF";
    size_t n = strlen(name), i, k = 0;
    char *uri = (char *)malloc(3 * n + 1);
    if (!uri) return NULL;
    for (i = 0; i < n; ++i) {
        unsigned char c = (unsigned char)name[i];
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
            c == '_' || c == '~') {
            uri[k++] = (char)c;
        } else {
            uri[k++] = '%';
            uri[k++] = hex[c >> 4];
            uri[k++] = hex[c & 15];
        }
    }
    uri[k] = '\0';
    return uri;
}

/* The buffers read from external files (except buffer 0 of a .glb, which
 * becomes the BIN chunk) go beside `path` under names taken from it: the
 * file name without its .gltf/.glb extension, then ".bin" for the first,
 * "_1.bin", "_2.bin"... for the next. The document is the last file. */
ik_result ik_gltf_output_files(const ik_gltf *g, const char *path, ik_gltf_output_file **files, int *count,
                               ik_error *error) {
    const char *slash, *base, *dot;
    size_t stem_length;
    char **uris;
    ik_gltf_output_file *list;
    int binary, i, n = 0, external = 0;
    ik_result r = IK_OK;
    ik_error_clear(error);
    if (!g || !path || !files || !count) return IK_ERR_NULL;
    *files = NULL;
    *count = 0;
    binary = ends_with_glb(path);
    slash = strrchr(path, '/');
    base = slash ? slash + 1 : path;
    dot = strrchr(base, '.');
    stem_length = dot && dot != base ? (size_t)(dot - path) : strlen(path);
    list = (ik_gltf_output_file *)calloc((size_t)g->buffer_count + 1, sizeof *list);
    uris = (char **)calloc((size_t)g->buffer_count + 1, sizeof *uris);
    if (!list || !uris) r = IK_ERR_NO_MEMORY;
    for (i = 0; r == IK_OK && i < g->buffer_count; ++i) {
        const gltf_buffer *b = &g->buffers[i];
        char suffix[32];
        if (!b->file_name || (binary && i == 0)) continue;
        if (external == 0)
            strcpy(suffix, ".bin");
        else
            snprintf(suffix, sizeof suffix, "_%d.bin", external);
        ++external;
        list[n].path = (char *)malloc(stem_length + strlen(suffix) + 1);
        list[n].data = (unsigned char *)malloc(b->size + 1);
        if (!list[n].path || !list[n].data) {
            ++n;
            r = IK_ERR_NO_MEMORY;
            break;
        }
        memcpy(list[n].path, path, stem_length);
        strcpy(list[n].path + stem_length, suffix);
        memcpy(list[n].data, b->data, b->size);
        list[n].size = b->size;
        uris[i] = uri_of_name(list[n].path + (size_t)(base - path));
        ++n;
        if (!uris[i]) r = IK_ERR_NO_MEMORY;
    }
    if (r == IK_OK && !(list[n].path = (char *)malloc(strlen(path) + 1))) r = IK_ERR_NO_MEMORY;
    if (r == IK_OK) {
        strcpy(list[n].path, path);
        r = serialise(g, binary, uris, &list[n].data, &list[n].size, error);
    }
    ++n;
    for (i = 0; uris && i < g->buffer_count; ++i) free(uris[i]);
    free(uris);
    if (r != IK_OK) {
        ik_gltf_output_files_free(list, list ? n : 0);
        return r == IK_ERR_NO_MEMORY ? fail_memory(error) : r;
    }
    *files = list;
    *count = n;
    return IK_OK;
}

ik_result ik_gltf_write_file(const ik_gltf *g, const char *path, ik_error *error) {
    ik_gltf_output_file *files = NULL;
    int count = 0, i;
    ik_result r = ik_gltf_output_files(g, path, &files, &count, error);
    for (i = 0; r == IK_OK && i < count; ++i) r = write_bytes(files[i].path, files[i].data, files[i].size, error);
    ik_gltf_output_files_free(files, count);
    return r;
}

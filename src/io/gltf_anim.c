/* glTF 2.0 animations as ik_clips, one per (animation, skin). Sampler rules
 * from the glTF 2.0 specification, section 3.11: input is a FLOAT scalar
 * accessor of key times, output holds one value per key (three, in-tangent,
 * value, out-tangent, for CUBICSPLINE, which needs two keys at least);
 * translation and scale are FLOAT VEC3, rotation VEC4 of FLOAT or of
 * normalised BYTE, UNSIGNED_BYTE, SHORT or UNSIGNED_SHORT. */
#include "gltf_doc.h"

#include <ikit/utf8.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pending_channel {
    int animation;
    int node;
    ik_channel channel; /* joint filled per skin */
} pending_channel;

static ik_result read_sampler(ik_gltf *g, int a, const json_value *sampler, long k, ik_channel_path path,
                              ik_channel *ch, ik_error *error) {
    const json_value *interp = json_member(sampler, "interpolation");
    const char *interp_name = json_string(interp);
    static const char where[] = "/animations/%ld/samplers/%ld";
    gltf_path p;
    long input, output, in_count, out_count, key;
    int type, normalized, width, per_key;
    const gltf_values *times, *values;
    ik_result r;
    if (!json_is_object(sampler))
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_format(&p, where, a, k, NULL), "must be an object");
    if (!interp || (interp_name && strcmp(interp_name, "LINEAR") == 0))
        ch->interpolation = IK_INTERP_LINEAR;
    else if (interp_name && strcmp(interp_name, "STEP") == 0)
        ch->interpolation = IK_INTERP_STEP;
    else if (interp_name && strcmp(interp_name, "CUBICSPLINE") == 0)
        ch->interpolation = IK_INTERP_CUBICSPLINE;
    else
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_format(&p, where, a, k, "interpolation"),
                         "must be LINEAR, STEP or CUBICSPLINE");
    if (!json_member(sampler, "input"))
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_format(&p, where, a, k, "input"), "missing");
    if ((r = gltf_get_index(sampler, "input", (long)g->accessor_count - 1, 0, &input, where, a, k, error)) != IK_OK)
        return r;
    if ((r = gltf_accessor_kind(g, input, &type, &normalized, &width, &in_count, error)) != IK_OK) return r;
    if (type != 5126 || width != 1)
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_format(&p, where, a, k, "input"),
                         "accessor %ld must be a FLOAT SCALAR", input);
    if ((r = gltf_decode_accessor(g, input, &times, error)) != IK_OK) return r;
    for (key = 1; key < in_count; ++key)
        if (times->data[key] < times->data[key - 1])
            return gltf_fail(error, IK_ERR_PARSE, gltf_path_format(&p, where, a, k, "input"),
                             "key times of accessor %ld decrease at key %ld", input, key);
    if (!json_member(sampler, "output"))
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_format(&p, where, a, k, "output"), "missing");
    if ((r = gltf_get_index(sampler, "output", (long)g->accessor_count - 1, 0, &output, where, a, k, error)) != IK_OK)
        return r;
    if ((r = gltf_accessor_kind(g, output, &type, &normalized, &width, &out_count, error)) != IK_OK) return r;
    if (width != ik_channel_width(path) ||
        !(type == 5126 || (path == IK_CHANNEL_ROTATION && normalized && type != 5125)))
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_format(&p, where, a, k, "output"), "accessor %ld must be %s",
                         output,
                         path == IK_CHANNEL_ROTATION ? "VEC4 of FLOAT or normalized integers" : "VEC3 of FLOAT");
    per_key = ch->interpolation == IK_INTERP_CUBICSPLINE ? 3 : 1;
    if (out_count != in_count * per_key)
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_format(&p, where, a, k, "output"),
                         "accessor %ld holds %ld values for %ld keys (%s)", output, out_count, in_count,
                         per_key == 3 ? "CUBICSPLINE needs 3 per key" : "needs 1 per key");
    if (per_key == 3 && in_count < 2)
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_format(&p, where, a, k, NULL),
                         "CUBICSPLINE needs at least 2 keys");
    if ((r = gltf_decode_accessor(g, output, &values, error)) != IK_OK) return r;
    ch->path = path;
    ch->key_count = (int)in_count;
    ch->times = times->data;
    ch->values = values->data;
    return IK_OK;
}

/* Every channel that drives a node's translation, rotation or scale, checked
 * and decoded once; other channels (morph weights, extension targets) are
 * checked for a valid sampler and skipped. */
static ik_result read_channels(ik_gltf *g, pending_channel **out, long *out_count, ik_error *error) {
    const json_value *animations = json_member(gltf_root(g), "animations");
    const json_value *anim;
    pending_channel *pending;
    long total = 0, n = 0;
    int a = 0;
    ik_result r;
    gltf_path p;
    JSON_FOR_EACH(anim, animations) total += json_count(json_member(anim, "channels"));
    pending = (pending_channel *)malloc(((size_t)total + 1) * sizeof *pending);
    if (!pending) return gltf_fail(error, IK_ERR_NO_MEMORY, "/animations", "out of memory");
    JSON_FOR_EACH(anim, animations) {
        const json_value *channels = json_member(anim, "channels");
        const json_value *samplers = json_member(anim, "samplers");
        const json_value *channel, **sampler_items;
        int c = 0, sampler_count;
        if (!json_is_object(anim) || !json_is_array(channels) || !json_is_array(samplers)) {
            free(pending);
            return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "animations", a, NULL),
                             "must be an object with channels and samplers arrays");
        }
        sampler_items = gltf_array_items(samplers, &sampler_count);
        if (!sampler_items) {
            free(pending);
            return gltf_fail(error, IK_ERR_NO_MEMORY, "/animations", "out of memory");
        }
        r = IK_OK;
        JSON_FOR_EACH(channel, channels) {
            const json_value *target = json_member(channel, "target");
            const char *path = json_string(json_member(target, "path"));
            long sampler, node;
            ik_channel_path kind = IK_CHANNEL_TRANSLATION;
            int drives_node = 1;
            if (!json_is_object(channel) || !json_is_object(target) || !path || !json_member(channel, "sampler"))
                r = gltf_fail(error, IK_ERR_PARSE, gltf_path_format(&p, "/animations/%ld/channels/%ld", a, c, NULL),
                              "needs a sampler and a target with a path");
            if (r == IK_OK)
                r = gltf_get_index(channel, "sampler", (long)sampler_count - 1, 0, &sampler,
                                   "/animations/%ld/channels/%ld", a, c, error);
            if (r == IK_OK)
                r = gltf_get_index(target, "node", (long)g->node_count - 1, -1, &node,
                                   "/animations/%ld/channels/%ld/target", a, c, error);
            if (r == IK_OK) {
                if (strcmp(path, "translation") == 0)
                    kind = IK_CHANNEL_TRANSLATION;
                else if (strcmp(path, "rotation") == 0)
                    kind = IK_CHANNEL_ROTATION;
                else if (strcmp(path, "scale") == 0)
                    kind = IK_CHANNEL_SCALE;
                else
                    drives_node = 0;
                if (node < 0) drives_node = 0;
            }
            if (r == IK_OK && drives_node) {
                pending[n].animation = a;
                pending[n].node = (int)node;
                pending[n].channel.joint = -1;
                r = read_sampler(g, a, sampler_items[sampler], sampler, kind, &pending[n].channel, error);
                ++n;
            }
            if (r != IK_OK) break;
            ++c;
        }
        free((void *)sampler_items);
        if (r != IK_OK) {
            free(pending);
            return r;
        }
        ++a;
    }
    *out = pending;
    *out_count = n;
    return IK_OK;
}

/* Where each node is a skin joint: node n's (skin, joint) pairs are
 * entry [first[n], first[n + 1]) of skin_of and joint_of, counted, summed
 * and filled in three passes over the skins' joints (a CSR table). */
typedef struct joint_index {
    int *first, *skin_of, *joint_of;
} joint_index;

static int joint_index_build(const ik_gltf *g, joint_index *x) {
    size_t total = 0;
    int s, j, n;
    for (s = 0; s < g->skin_count; ++s) total += (size_t)g->skins[s].view.skeleton.joint_count;
    x->first = (int *)calloc((size_t)g->node_count + 2, sizeof(int));
    x->skin_of = (int *)malloc((total + 1) * sizeof(int));
    x->joint_of = (int *)malloc((total + 1) * sizeof(int));
    if (!x->first || !x->skin_of || !x->joint_of) return 0;
    for (s = 0; s < g->skin_count; ++s)
        for (j = 0; j < g->skins[s].view.skeleton.joint_count; ++j) ++x->first[g->skins[s].node[j] + 2];
    for (n = 0; n < g->node_count; ++n) x->first[n + 2] += x->first[n + 1];
    /* first[n + 1] is now where node n's entries start; filling moves it to their end, first[n + 2]'s start */
    for (s = 0; s < g->skin_count; ++s)
        for (j = 0; j < g->skins[s].view.skeleton.joint_count; ++j) {
            int at = x->first[g->skins[s].node[j] + 1]++;
            x->skin_of[at] = s;
            x->joint_of[at] = j;
        }
    return 1;
}

static void joint_index_free(joint_index *x) {
    free(x->first);
    free(x->skin_of);
    free(x->joint_of);
}

/* One clip per (animation, skin) with the channels that drive the skin's
 * joints. Work is linear in the channels read, the skins' joints and the
 * clip channels made (at most GLTF_MAX_CLIP_CHANNELS, all in one block,
 * g->clip_channels), and the (animation, skin) pairs are at most
 * GLTF_MAX_CLIPS: a channel reaches its skins through the node's entries
 * in the joint index instead of every skin looking at every channel. */
ik_result gltf_build_clips(ik_gltf *g, ik_error *error) {
    const json_value *animations = json_member(gltf_root(g), "animations");
    const json_value *anim;
    pending_channel *pending = NULL;
    long pending_count = 0, made = 0, i;
    size_t pairs, k;
    joint_index index;
    int a, e;
    ik_result r;
    if (!animations) return IK_OK;
    if (!json_is_array(animations)) return gltf_fail(error, IK_ERR_PARSE, "/animations", "must be an array");
    a = 0;
    JSON_FOR_EACH(anim, animations) {
        const char *name = json_string(json_member(anim, "name"));
        gltf_path p;
        /* glTF is UTF-8 (specification section 3.2): clip names reach terminals and JSON */
        if (name && !ik_utf8_valid(name))
            return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "animations", a, "name"), "not valid UTF-8");
        ++a;
    }
    pairs = (size_t)json_count(animations) * (size_t)g->skin_count;
    if (pairs > (size_t)GLTF_MAX_CLIPS)
        return gltf_fail(error, IK_ERR_UNSUPPORTED, "/animations",
                         "%ld animations on %d skins make more than %ld clips, which are not supported",
                         json_count(animations), g->skin_count, GLTF_MAX_CLIPS);
    if ((r = read_channels(g, &pending, &pending_count, error)) != IK_OK) return r;
    g->animation_count = (int)json_count(animations);
    g->clips = (ik_clip *)calloc(pairs + 1, sizeof *g->clips);
    if (!g->clips || !joint_index_build(g, &index)) {
        if (g->clips) joint_index_free(&index);
        free(pending);
        return gltf_fail(error, IK_ERR_NO_MEMORY, "/animations", "out of memory");
    }
    /* count each clip's channels, within the budget */
    for (i = 0; i < pending_count && r == IK_OK; ++i) {
        int node = pending[i].node;
        for (e = index.first[node]; e < index.first[node + 1]; ++e) {
            ++g->clips[(size_t)pending[i].animation * (size_t)g->skin_count + (size_t)index.skin_of[e]].channel_count;
            if (++made > GLTF_MAX_CLIP_CHANNELS) {
                r = gltf_fail(error, IK_ERR_UNSUPPORTED, "/animations",
                              "more than %ld channels over all skins are not supported", GLTF_MAX_CLIP_CHANNELS);
                break;
            }
        }
    }
    if (r == IK_OK && !(g->clip_channels = (ik_channel *)malloc(((size_t)made + 1) * sizeof(ik_channel))))
        r = gltf_fail(error, IK_ERR_NO_MEMORY, "/animations", "out of memory");
    if (r == IK_OK) {
        /* each clip's channels: its slice of the block, filled in channel order */
        size_t at = 0;
        for (k = 0; k < pairs; ++k) {
            g->clips[k].channels = g->clip_channels + at;
            at += (size_t)g->clips[k].channel_count;
            g->clips[k].channel_count = 0;
        }
        for (i = 0; i < pending_count; ++i) {
            int node = pending[i].node;
            ik_real last = pending[i].channel.times[pending[i].channel.key_count - 1];
            for (e = index.first[node]; e < index.first[node + 1]; ++e) {
                ik_clip *c = &g->clips[(size_t)pending[i].animation * (size_t)g->skin_count + (size_t)index.skin_of[e]];
                ik_channel *added = g->clip_channels + (c->channels - g->clip_channels) + c->channel_count++;
                *added = pending[i].channel;
                added->joint = index.joint_of[e];
                if (last > c->duration) c->duration = last;
            }
        }
        a = 0;
        JSON_FOR_EACH(anim, animations) {
            const char *name = json_string(json_member(anim, "name"));
            for (k = 0; k < (size_t)g->skin_count; ++k) g->clips[(size_t)a * (size_t)g->skin_count + k].name = name;
            ++a;
        }
    }
    joint_index_free(&index);
    free(pending);
    return r;
}

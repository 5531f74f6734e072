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
                              ik_channel *ch, ik_io_error *error) {
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
                         "accessor %ld holds %ld values for %ld keys (%s)", output,
                         out_count, in_count, per_key == 3 ? "CUBICSPLINE needs 3 per key" : "needs 1 per key");
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
static ik_result read_channels(ik_gltf *g, pending_channel **out, long *out_count, ik_io_error *error) {
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
            if (!json_is_object(channel) || !json_is_object(target) || !path ||
                !json_member(channel, "sampler"))
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

ik_result gltf_build_clips(ik_gltf *g, ik_io_error *error) {
    const json_value *animations = json_member(gltf_root(g), "animations");
    const json_value *anim;
    pending_channel *pending = NULL;
    long pending_count = 0, budget = GLTF_MAX_CLIP_CHANNELS, i;
    int *joint_of, s, a;
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
    if ((r = read_channels(g, &pending, &pending_count, error)) != IK_OK) return r;
    g->animation_count = (int)json_count(animations);
    g->clips = (gltf_clip_data *)calloc((size_t)g->animation_count * (size_t)g->skin_count + 1, sizeof *g->clips);
    joint_of = (int *)malloc(((size_t)g->node_count + 1) * sizeof(int));
    if (!g->clips || !joint_of) {
        free(pending);
        free(joint_of);
        return gltf_fail(error, IK_ERR_NO_MEMORY, "/animations", "out of memory");
    }
    for (i = 0; i < g->node_count; ++i) joint_of[i] = -1;
    for (s = 0; s < g->skin_count && r == IK_OK; ++s) {
        const gltf_skin_data *d = &g->skins[s];
        int joints = d->view.skeleton.joint_count, j;
        for (j = 0; j < joints; ++j) joint_of[d->node[j]] = j;
        for (i = 0; i < pending_count; ++i)
            if (joint_of[pending[i].node] >= 0)
                ++g->clips[(size_t)pending[i].animation * (size_t)g->skin_count + (size_t)s].clip.channel_count;
        for (a = 0; a < g->animation_count && r == IK_OK; ++a) {
            gltf_clip_data *c = &g->clips[(size_t)a * (size_t)g->skin_count + (size_t)s];
            budget -= c->clip.channel_count;
            if (budget < 0)
                r = gltf_fail(error, IK_ERR_UNSUPPORTED, "/animations",
                              "more than %ld channels over all skins are not supported", GLTF_MAX_CLIP_CHANNELS);
            else if (!(c->channels = (ik_channel *)malloc(((size_t)c->clip.channel_count + 1) * sizeof(ik_channel))))
                r = gltf_fail(error, IK_ERR_NO_MEMORY, "/animations", "out of memory");
            c->clip.channels = c->channels;
            c->clip.channel_count = 0;
        }
        for (i = 0; i < pending_count && r == IK_OK; ++i) {
            int joint = joint_of[pending[i].node];
            gltf_clip_data *c = &g->clips[(size_t)pending[i].animation * (size_t)g->skin_count + (size_t)s];
            ik_real last;
            if (joint < 0) continue;
            c->channels[c->clip.channel_count] = pending[i].channel;
            c->channels[c->clip.channel_count++].joint = joint;
            last = pending[i].channel.times[pending[i].channel.key_count - 1];
            if (last > c->clip.duration) c->clip.duration = last;
        }
        for (j = 0; j < joints; ++j) joint_of[d->node[j]] = -1;
    }
    a = 0;
    JSON_FOR_EACH(anim, animations) {
        const char *name = json_string(json_member(anim, "name"));
        for (s = 0; s < g->skin_count; ++s)
            g->clips[(size_t)a * (size_t)g->skin_count + (size_t)s].clip.name = name;
        ++a;
    }
    free(pending);
    free(joint_of);
    return r;
}

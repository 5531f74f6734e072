/* A glTF file's own animation on the playground's humanoid. The page reads
 * the file with three.js (the glTF reader in src/io uses cJSON, not built
 * for wasm) and hands each animation track over as numbers: the joint it
 * drives (an index into the skeleton the page handed to ikw_body_load), its
 * path (translation, rotation, scale), its interpolation (LINEAR, STEP,
 * CUBICSPLINE with glTF's in-tangent, value, out-tangent per key), its keys'
 * times and values. This file makes them the channels of an ik_clip (the
 * anim layer), checked by ik_clip_validate, and hands that clip to the
 * humanoid as the pose each solve starts from (ikw_body_set_clip), as a BVH
 * file's motion is: the clip plays with the hands and feet IK applied live. */
#include <ikit/clip.h>

#include <stdio.h>
#include <stdlib.h>

#include "ikit_web.h"

enum { IKW_TRACK_FIELDS = 4 }; /* joint, path, interpolation, key count */

static struct {
    int *header; /* [IKW_TRACK_FIELDS * channel capacity], written by the page */
    float *times_in, *values_in;
    int channel_capacity, time_capacity, value_capacity;
    /* the clip in use (owned; ikw_body_set_clip points at it) */
    ik_channel *channels;
    ik_real *times, *values;
    ik_clip clip;
} tracks;

/* Grows `*array` to hold `count` items of `size` bytes; 0 when out of memory. */
static int grow(void **array, int *capacity, int count, size_t size) {
    void *grown;
    if (count <= *capacity) return 1;
    grown = realloc(*array, (size_t)count * size);
    if (!grown) return 0;
    *array = grown;
    *capacity = count;
    return 1;
}

/* Room for `channels` tracks with `times` key times and `values` numbers in
 * all (CUBICSPLINE tracks count their tangents); 0, or -1 out of memory or
 * for a bad count. Then the page fills ikw_tracks_header/times/values. */
IKW_EXPORT(ikw_tracks_reserve) int ikw_tracks_reserve(int channels, int times, int values) {
    if (channels < 1 || times < 1 || values < 1 || channels > (1 << 20) || times > (1 << 26) || values > (1 << 26))
        return -1;
    if (!grow((void **)&tracks.header, &tracks.channel_capacity, IKW_TRACK_FIELDS * channels, sizeof *tracks.header) ||
        !grow((void **)&tracks.times_in, &tracks.time_capacity, times, sizeof *tracks.times_in) ||
        !grow((void **)&tracks.values_in, &tracks.value_capacity, values, sizeof *tracks.values_in))
        return -1;
    return 0;
}
IKW_EXPORT(ikw_tracks_header) int *ikw_tracks_header(void) { return tracks.header; }
IKW_EXPORT(ikw_tracks_times) float *ikw_tracks_times(void) { return tracks.times_in; }
IKW_EXPORT(ikw_tracks_values) float *ikw_tracks_values(void) { return tracks.values_in; }

static void drop_clip(void) {
    free(tracks.channels);
    free(tracks.times);
    free(tracks.values);
    tracks.channels = NULL;
    tracks.times = tracks.values = NULL;
}

/* The `channel_count` tracks written to the buffers (times and values one
 * after the other, in track order) as the figure's clip. On error the
 * message says which track and why, and the figure keeps the clip it had. */
IKW_EXPORT(ikw_body_load_tracks) int ikw_body_load_tracks(int channel_count) {
    ik_channel *channels;
    ik_real *times, *values;
    ik_clip clip;
    long time_at = 0, value_at = 0;
    int c, bad = -1, time_total = 0, value_total = 0, joints = ikw_body_joint_count();
    ik_result r;
    char text[160];
    if (joints == 0) {
        ikw_set_message("no figure loaded");
        return IK_ERR_NULL;
    }
    if (channel_count < 1 || IKW_TRACK_FIELDS * channel_count > tracks.channel_capacity) {
        ikw_set_message("the track count does not match the reserved buffers");
        return IK_ERR_RANGE;
    }
    /* the counts first: each track's keys must lie inside what was reserved */
    for (c = 0; c < channel_count; ++c) {
        const int *h = &tracks.header[IKW_TRACK_FIELDS * c];
        int width = h[1] == IK_CHANNEL_ROTATION ? 4 : 3, per_key = h[2] == IK_INTERP_CUBICSPLINE ? 3 * width : width;
        if (h[1] < IK_CHANNEL_TRANSLATION || h[1] > IK_CHANNEL_SCALE || h[2] < IK_INTERP_LINEAR ||
            h[2] > IK_INTERP_CUBICSPLINE || h[3] < 1 || h[3] > tracks.time_capacity - time_total ||
            (long)h[3] * per_key > (long)tracks.value_capacity - value_total) {
            snprintf(text, sizeof text, "track %d: a bad path, interpolation or key count", c);
            ikw_set_message(text);
            return IK_ERR_RANGE;
        }
        time_total += h[3];
        value_total += h[3] * per_key;
    }
    channels = (ik_channel *)malloc((size_t)channel_count * sizeof *channels);
    times = (ik_real *)malloc((size_t)time_total * sizeof *times);
    values = (ik_real *)malloc((size_t)value_total * sizeof *values);
    if (!channels || !times || !values) {
        free(channels), free(times), free(values);
        ikw_set_message("out of memory");
        return IK_ERR_NO_MEMORY;
    }
    for (c = 0; c < time_total; ++c) times[c] = tracks.times_in[c];
    for (c = 0; c < value_total; ++c) values[c] = tracks.values_in[c];
    for (c = 0; c < channel_count; ++c) {
        const int *h = &tracks.header[IKW_TRACK_FIELDS * c];
        ik_channel *ch = &channels[c];
        ch->joint = h[0];
        ch->path = (ik_channel_path)h[1];
        ch->interpolation = (ik_interpolation)h[2];
        ch->key_count = h[3];
        ch->times = times + time_at;
        ch->values = values + value_at;
        time_at += h[3];
        value_at += (long)h[3] * ik_channel_width(ch->path) * (ch->interpolation == IK_INTERP_CUBICSPLINE ? 3 : 1);
    }
    clip.name = "";
    clip.channel_count = channel_count;
    clip.channels = channels;
    clip.duration = 0;
    for (c = 0; c < channel_count; ++c)
        if (channels[c].times[channels[c].key_count - 1] > clip.duration)
            clip.duration = channels[c].times[channels[c].key_count - 1];
    r = ik_clip_validate(&clip, joints, &bad);
    if (r != IK_OK) {
        snprintf(text, sizeof text, "track %d: %s (a joint out of range, times going back, or a number not finite)",
                 bad, ik_result_str(r));
        ikw_set_message(text);
        free(channels), free(times), free(values);
        return r;
    }
    /* the figure's old clip goes only now that the new one is good */
    ikw_body_set_clip(NULL, 0);
    drop_clip();
    tracks.channels = channels;
    tracks.times = times;
    tracks.values = values;
    tracks.clip = clip;
    ikw_body_set_clip(&tracks.clip, (ik_real)1 / 60); /* sampled as ikc samples a glTF clip */
    return IK_OK;
}

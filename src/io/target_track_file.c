/* Reading and sampling the target-track text format documented in
 * target_track_file.h, on the io layer's scanner: one `TIME JOINT x y z`
 * line per key, gathered into one track per joint. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ikit/target_track_file.h>

#include "file_read.h"
#include "text_scan.h"

/* One key as read, with its joint's track and where its time stands. */
typedef struct read_key {
    int track;
    ik_text_token at;
    ik_target_key key;
} read_key;

static ik_result fail(ik_error *error, const ik_text_token *at, ik_result r, const char *what) {
    ik_error_set(error, at->line, at->column, at->offset, "%s", what);
    return r;
}

static int find_track(const ik_target_track_file *out, const ik_text_token *name) {
    int i;
    for (i = 0; i < out->count; ++i)
        if (ik_text_is(name, out->tracks[i].joint_name)) return i;
    return -1;
}

/* One line from its first token `time_token`: the time, the joint's track
 * (a new one at the end) and the point into *key. */
static ik_result read_line(ik_text_scan *s, const ik_text_token *time_token, int max_tracks, ik_target_track_file *out,
                           read_key *key, ik_error *error) {
    ik_text_token name, bad;
    double time, xyz[3];
    int n;
    const char *want = "want `TIME JOINT x y z`";
    ik_text_number kind = ik_text_number_parse(time_token, &time);
    if (kind != IK_TEXT_NUMBER_OK)
        return fail(error, time_token, kind == IK_TEXT_NUMBER_NONFINITE ? IK_ERR_NONFINITE : IK_ERR_PARSE,
                    "a time that is not a finite number");
    if (!(time >= 0)) return fail(error, time_token, IK_ERR_RANGE, "a time below 0");
    if (!ik_text_next(s, &name, 0)) return fail(error, &name, IK_ERR_PARSE, want);
    if (name.length >= IK_TARGET_TRACK_NAME_BYTES)
        return fail(error, &name, IK_ERR_PARSE, "a joint name of 128 bytes or more");
    n = ik_text_line_numbers(s, xyz, 3, &bad);
    if (n < 0) return fail(error, &bad, n == -2 ? IK_ERR_NONFINITE : IK_ERR_PARSE, "a value that is not a number");
    if (n != 3) return fail(error, time_token, IK_ERR_PARSE, want);
    key->at = *time_token;
    key->key.time = (ik_real)time;
    key->key.point_ms = ik_v3((ik_real)xyz[0], (ik_real)xyz[1], (ik_real)xyz[2]);
    key->track = find_track(out, &name);
    if (key->track < 0) {
        if (out->count == max_tracks) {
            char what[96];
            snprintf(what, sizeof what, "more than %d joints", max_tracks);
            return fail(error, &name, IK_ERR_RANGE, what);
        }
        key->track = out->count++;
        memcpy(out->tracks[key->track].joint_name, name.text, name.length);
        out->tracks[key->track].joint_name[name.length] = '\0';
    }
    return IK_OK;
}

/* Each track's keys together in storage, in file order; a time before the
 * track's last is refused where it stands. */
static ik_result gather(ik_target_track_file *out, const read_key *keys, int key_count, ik_error *error) {
    int used = 0, t, i;
    for (t = 0; t < out->count; ++t) {
        ik_target_track *track = &out->tracks[t];
        ik_target_key *mine = out->storage + used;
        track->keys = mine;
        for (i = 0; i < key_count; ++i) {
            if (keys[i].track != t) continue;
            if (track->key_count > 0 && keys[i].key.time < mine[track->key_count - 1].time) {
                char what[IK_TARGET_TRACK_NAME_BYTES + 96];
                snprintf(what, sizeof what, "%s's times go back (%g after %g)", track->joint_name,
                         (double)keys[i].key.time, (double)mine[track->key_count - 1].time);
                return fail(error, &keys[i].at, IK_ERR_PARSE, what);
            }
            mine[track->key_count++] = keys[i].key;
        }
        used += track->key_count;
    }
    return IK_OK;
}

ik_result ik_target_track_file_read_memory(const char *data, size_t size, int max_tracks, int max_keys,
                                           ik_target_track_file *out, ik_error *error) {
    ik_text_scan s;
    ik_text_token first;
    read_key *keys = NULL;
    int count = 0, capacity = 0;
    ik_result r = IK_OK;
    ik_error_clear(error);
    if (!out) return IK_ERR_NULL;
    memset(out, 0, sizeof *out);
    if ((!data && size > 0) || max_tracks < 1 || max_keys < 1) return !data && size > 0 ? IK_ERR_NULL : IK_ERR_RANGE;
    out->tracks = (ik_target_track *)calloc((size_t)max_tracks, sizeof *out->tracks);
    if (!out->tracks) r = IK_ERR_NO_MEMORY;
    ik_text_scan_init(&s, data, size, '#');
    while (r == IK_OK && ik_text_next(&s, &first, 1)) {
        if (count == max_keys) {
            char what[64];
            snprintf(what, sizeof what, "more than %d lines", max_keys);
            r = fail(error, &first, IK_ERR_RANGE, what);
            break;
        }
        if (count == capacity) {
            read_key *grown;
            capacity = capacity ? 2 * capacity : 64;
            if (capacity > max_keys) capacity = max_keys;
            grown = (read_key *)realloc(keys, (size_t)capacity * sizeof *keys);
            if (!grown) {
                r = IK_ERR_NO_MEMORY;
                break;
            }
            keys = grown;
        }
        r = read_line(&s, &first, max_tracks, out, &keys[count], error);
        count += r == IK_OK;
    }
    if (r == IK_OK && count == 0) r = fail(error, &first, IK_ERR_PARSE, "no target lines (`TIME JOINT x y z`)");
    if (r == IK_OK && !(out->storage = (ik_target_key *)malloc((size_t)count * sizeof *out->storage)))
        r = IK_ERR_NO_MEMORY;
    if (r == IK_OK) r = gather(out, keys, count, error);
    if (r == IK_ERR_NO_MEMORY) ik_error_set(error, 0, 0, -1, "out of memory for %d target lines", count);
    free(keys);
    if (r != IK_OK) ik_target_track_file_free(out);
    return r;
}

ik_result ik_target_track_file_read_file(const char *path, int max_tracks, int max_keys, ik_target_track_file *out,
                                         ik_error *error) {
    char *data;
    size_t size;
    ik_result r;
    ik_error_clear(error);
    if (!out) return IK_ERR_NULL;
    memset(out, 0, sizeof *out);
    if (!path) return IK_ERR_NULL;
    r = ik_io_read_file(path, &data, &size, error);
    if (r != IK_OK) return r;
    r = ik_target_track_file_read_memory(data, size, max_tracks, max_keys, out, error);
    free(data);
    return r;
}

void ik_target_track_file_free(ik_target_track_file *file) {
    if (!file) return;
    free(file->tracks);
    free(file->storage);
    memset(file, 0, sizeof *file);
}

/* p(t) = p_k + (p_k+1 - p_k) (t - t_k) / (t_k+1 - t_k) between the keys
 * around t; keys at one time give the later one. */
ik_vec3 ik_target_track_at(const ik_target_track *track, ik_real time) {
    const ik_target_key *k = track->keys;
    int i;
    if (!(time > k[0].time)) return k[0].point_ms;
    for (i = 1; i < track->key_count; ++i)
        if (time < k[i].time)
            return ik_vec3_lerp(k[i - 1].point_ms, k[i].point_ms, (time - k[i - 1].time) / (k[i].time - k[i - 1].time));
    return k[track->key_count - 1].point_ms;
}

/* Reading and sampling target tracks. See target_track.h. */
#define _POSIX_C_SOURCE 200809L
#include "target_track.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ikc.h"

#define MAX_FILE_BYTES (64u << 20)

typedef struct parsed_line {
    int track, line;
    ikc_target_key key;
} parsed_line;

/* One line "TIME JOINT x y z" (after comments are cut); 1 parsed, 0 blank, -1 bad. */
static int parse_line(char *text, char *name, ik_real *numbers) {
    char *token[6], *save = NULL;
    int n = 0;
    char *hash = strchr(text, '#');
    if (hash) *hash = '\0';
    for (token[n] = strtok_r(text, " \t\r", &save); token[n] && n < 5; token[n] = strtok_r(NULL, " \t\r", &save)) ++n;
    if (n == 0) return 0;
    if (n != 5 || token[5]) return -1;
    if (strlen(token[1]) >= IKC_TRACK_NAME_SIZE) return -1;
    strcpy(name, token[1]);
    return ikc_parse_real(token[0], &numbers[0]) && ikc_parse_real(token[2], &numbers[1]) &&
                   ikc_parse_real(token[3], &numbers[2]) && ikc_parse_real(token[4], &numbers[3])
               ? 1
               : -1;
}

static int find_track(ikc_target_tracks *out, const char *name) {
    int i;
    for (i = 0; i < out->count; ++i)
        if (strcmp(out->tracks[i].joint_name, name) == 0) return i;
    return -1;
}

int ikc_target_tracks_read(const char *command, const char *path, int max_tracks, int max_keys,
                           ikc_target_tracks *out) {
    size_t length;
    int code = IKC_EXIT_OK, line = 0, parsed_count = 0, used = 0, i, t;
    char *text = ikc_read_text_file(command, path, MAX_FILE_BYTES, &length, &code), *at, *end;
    parsed_line *parsed = NULL;
    memset(out, 0, sizeof *out);
    (void)length;
    if (!text) return code;
    out->tracks = (ikc_target_track *)calloc((size_t)max_tracks + 1, sizeof *out->tracks);
    parsed = (parsed_line *)malloc(((size_t)max_keys + 1) * sizeof *parsed);
    if (!out->tracks || !parsed) {
        fprintf(stderr, "ikc %s: out of memory\n", command);
        code = IKC_EXIT_FAILURE;
        goto done;
    }
    /* every line parsed and given its joint's track */
    for (at = text; at; at = end ? end + 1 : NULL) {
        char name[IKC_TRACK_NAME_SIZE];
        ik_real numbers[4];
        int r;
        if ((end = strchr(at, '\n')) != NULL) *end = '\0';
        r = parse_line(at, name, numbers);
        ++line;
        if (r == 0) continue;
        if (r < 0 || !(numbers[0] >= 0)) {
            fprintf(stderr, "ikc %s: %s:%d: want `TIME JOINT x y z` with TIME >= 0 and finite numbers\n", command,
                    ikc_shown(path), line);
            code = IKC_EXIT_FORMAT;
            goto done;
        }
        if (parsed_count == max_keys || ((t = find_track(out, name)) < 0 && out->count == max_tracks)) {
            fprintf(stderr, "ikc %s: %s:%d: more than %d lines or %d joints\n", command, ikc_shown(path), line,
                    max_keys, max_tracks);
            code = IKC_EXIT_FORMAT;
            goto done;
        }
        if (t < 0) strcpy(out->tracks[t = out->count++].joint_name, name);
        parsed[parsed_count].track = t;
        parsed[parsed_count].line = line;
        parsed[parsed_count].key.time = numbers[0];
        parsed[parsed_count++].key.point_ms = ik_v3(numbers[1], numbers[2], numbers[3]);
    }
    if (parsed_count == 0) {
        fprintf(stderr, "ikc %s: %s: no target lines (`TIME JOINT x y z`)\n", command, ikc_shown(path));
        code = IKC_EXIT_FORMAT;
        goto done;
    }
    /* each track's keys together, in file order, times not going back */
    if (!(out->storage = (ikc_target_key *)malloc((size_t)parsed_count * sizeof *out->storage))) {
        fprintf(stderr, "ikc %s: out of memory\n", command);
        code = IKC_EXIT_FAILURE;
        goto done;
    }
    for (t = 0; t < out->count; ++t) {
        ikc_target_key *keys = out->storage + used;
        out->tracks[t].keys = keys;
        for (i = 0; i < parsed_count; ++i) {
            if (parsed[i].track != t) continue;
            if (out->tracks[t].key_count > 0 && parsed[i].key.time < keys[out->tracks[t].key_count - 1].time) {
                fprintf(stderr, "ikc %s: %s:%d: %s's times go back (%g after %g)\n", command, ikc_shown(path),
                        parsed[i].line, ikc_shown(out->tracks[t].joint_name), (double)parsed[i].key.time,
                        (double)keys[out->tracks[t].key_count - 1].time);
                code = IKC_EXIT_FORMAT;
                goto done;
            }
            keys[out->tracks[t].key_count++] = parsed[i].key;
        }
        used += out->tracks[t].key_count;
    }
done:
    free(parsed);
    free(text);
    if (code != IKC_EXIT_OK) ikc_target_tracks_free(out);
    return code;
}

void ikc_target_tracks_free(ikc_target_tracks *tracks) {
    free(tracks->tracks);
    free(tracks->storage);
    memset(tracks, 0, sizeof *tracks);
}

/* p(t) = p_k + (p_k+1 - p_k) (t - t_k) / (t_k+1 - t_k) between the keys
 * around t; keys at one time give the later one. */
ik_vec3 ikc_target_track_at(const ikc_target_track *track, ik_real time) {
    const ikc_target_key *k = track->keys;
    int i;
    if (!(time > k[0].time)) return k[0].point_ms;
    for (i = 1; i < track->key_count; ++i)
        if (time < k[i].time)
            return ik_vec3_lerp(k[i - 1].point_ms, k[i].point_ms, (time - k[i - 1].time) / (k[i].time - k[i - 1].time));
    return k[track->key_count - 1].point_ms;
}

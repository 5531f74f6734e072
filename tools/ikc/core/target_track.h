/* Targets that move over time, for `ikc solve --all-frames --targets-file`:
 * a file of lines `TIME JOINT x y z` ('#' starts a comment) read into one
 * track of keys per joint, sampled linearly in time. */
#ifndef IKC_TARGET_TRACK_H
#define IKC_TARGET_TRACK_H

#include <ikit/math.h>

#define IKC_TRACK_NAME_SIZE 128

typedef struct ikc_target_key {
    ik_real time; /* seconds */
    ik_vec3 point_ms;
} ikc_target_key;

typedef struct ikc_target_track {
    char joint_name[IKC_TRACK_NAME_SIZE];
    int key_count;
    const ikc_target_key *keys; /* [key_count], times non-decreasing */
} ikc_target_track;

typedef struct ikc_target_tracks {
    int count;
    ikc_target_track *tracks;
    ikc_target_key *storage;
} ikc_target_tracks;

/* Read `path`: at most `max_tracks` joints and `max_keys` lines. Returns an
 * IKC_EXIT_ code after printing "ikc COMMAND: PATH:LINE: ..." on failure
 * (a malformed line, a time not finite or below 0, or a joint's times going
 * back). */
int ikc_target_tracks_read(const char *command, const char *path, int max_tracks, int max_keys, ikc_target_tracks *out);
void ikc_target_tracks_free(ikc_target_tracks *tracks);

/* The track's point at `time`: linear between the keys around it, the first
 * key's before it and the last's after. */
ik_vec3 ikc_target_track_at(const ikc_target_track *track, ik_real time);

#endif

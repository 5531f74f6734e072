/* ikit io: target tracks, targets that move over time (`ikc solve
 * --all-frames --targets-file FILE`): a text file of lines
 *
 *   # '#' starts a comment, to the end of the line
 *   TIME JOINT x y z     seconds (>= 0), a joint name, its target in model space
 *
 * read into one track of keys per joint (in the order the joints first
 * appear, each joint's keys in file order, their times never going back),
 * and sampled linearly in time. */
#ifndef IKIT_TARGET_TRACK_FILE_H
#define IKIT_TARGET_TRACK_FILE_H

#include <stddef.h>

#include <ikit/error.h>
#include <ikit/io_file.h>
#include <ikit/math.h>
#include <ikit/result.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IK_TARGET_TRACK_NAME_BYTES 128

typedef struct ik_target_key {
    ik_real time; /* seconds */
    ik_vec3 point_ms;
} ik_target_key;

typedef struct ik_target_track {
    char joint_name[IK_TARGET_TRACK_NAME_BYTES];
    int key_count;             /* >= 1 */
    const ik_target_key *keys; /* [key_count], times non-decreasing */
} ik_target_track;

typedef struct ik_target_track_file {
    int count;               /* tracks, >= 1 */
    ik_target_track *tracks; /* [count] */
    ik_target_key *storage;  /* every track's keys */
} ik_target_track_file;

/* Parse target-track text held in memory (need not be NUL-terminated): at
 * most `max_tracks` joints and `max_keys` lines. On success release `out`
 * with ik_target_track_file_free; on failure it holds nothing and error (may
 * be NULL) names the line and column. Codes: IK_ERR_PARSE (a line that is
 * not `TIME JOINT x y z`, a joint name of IK_TARGET_TRACK_NAME_BYTES or more,
 * no lines at all, a joint's times going back), IK_ERR_NONFINITE (a value
 * that is not a finite number), IK_ERR_RANGE (a time below 0, more lines or
 * joints than allowed), IK_ERR_NO_MEMORY, IK_ERR_NULL. */
ik_result ik_target_track_file_read_memory(const char *data, size_t size, int max_tracks, int max_keys,
                                           ik_target_track_file *out, ik_error *error);

/* Regular files of at most IK_IO_MAX_FILE_BYTES only (io_file.h); IK_ERR_IO
 * when it cannot be read. */
ik_result ik_target_track_file_read_file(const char *path, int max_tracks, int max_keys, ik_target_track_file *out,
                                         ik_error *error);

void ik_target_track_file_free(ik_target_track_file *file);

/* The track's point at `time`: linear between the keys around it, the first
 * key's before it and the last's after. */
ik_vec3 ik_target_track_at(const ik_target_track *track, ik_real time);

#ifdef __cplusplus
}
#endif
#endif

/* ikit takes: motion as one pose per frame at a fixed frame rate, the form
 * the motion layer works in (foot contacts, clean-up, key fitting, walks).
 * A clip (keys with interpolation) is baked to a take by sampling it at
 * every frame time; a take goes back to a clip with one LINEAR key per
 * frame. A take does not own memory: it points at the caller's poses. */
#ifndef IKIT_TAKE_H
#define IKIT_TAKE_H

#include <stddef.h>

#include <ikit/clip.h>
#include <ikit/math.h>
#include <ikit/result.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ik_take {
    int frame_count;        /* >= 1 */
    int joint_count;        /* >= 1 */
    ik_real frame_time;     /* seconds from one frame to the next, finite and > 0 */
    ik_transform *poses_ls; /* [frame_count * joint_count], frame-major, local space */
} ik_take;

/* Frame `frame`'s pose [joint_count]; no range check. */
static inline ik_transform *ik_take_pose(const ik_take *take, int frame) {
    return take->poses_ls + (size_t)frame * (size_t)take->joint_count;
}

/* Frames that cover `duration` seconds at `frame_time`: frame f is at time
 * f * frame_time and the last one at or just past the end,
 *   count = ceil(x - (1e-3 + 1e-6 x)) + 1,  x = duration / frame_time
 * (1 for duration 0; the slack absorbs the rounding of a duration that is
 * a whole number of frames).
 * 0 when frame_time is not finite and > 0, duration is negative or not
 * finite, or the count exceeds `max_frames`. */
int ik_take_frame_count(ik_real duration, ik_real frame_time, int max_frames);

/* Check the counts, the frame time, and that every pose is finite with
 * unit-length rotations (within 1e-3). On failure *bad_frame (may be NULL)
 * is the first offending frame (-1 for a bad count or frame time). */
ik_result ik_take_validate(const ik_take *take, int *bad_frame);

/* Bake `clip` into `take` (counts and frame_time set by the caller):
 * frame f is `rest_ls` [joint_count] with every channel of the clip
 * applied at time min(f * frame_time, duration). The clip is validated
 * against take->joint_count first; nothing is written on error. */
ik_result ik_take_bake(ik_take *take, const ik_clip *clip, const ik_transform *rest_ls);

/* Buffer sizes for ik_take_to_clip: channels (a translation and a rotation
 * per joint, and a scale for joints whose scale is not 1 in some frame),
 * key times [frame_count] and key values. */
typedef struct ik_take_clip_size {
    int channel_count;
    int time_count;
    size_t value_count;
} ik_take_clip_size;
ik_take_clip_size ik_take_clip_size_of(const ik_take *take);

/* The take as a clip named `name` with one LINEAR key per frame at times
 * f * frame_time, in the caller's `channels`, `times` and `values` (sized by
 * ik_take_clip_size_of). Sampling the clip at a frame's time gives that
 * frame's pose. */
ik_result ik_take_to_clip(const ik_take *take, const char *name, ik_channel *channels, ik_real *times, ik_real *values,
                          ik_clip *clip);

#ifdef __cplusplus
}
#endif
#endif

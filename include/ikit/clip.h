/* ikit animation clips: keyframed channels over a skeleton's joints, sampled
 * into a pose. The model follows glTF 2.0 animation samplers: each channel
 * drives one joint's translation, rotation or scale with its own key times
 * and LINEAR, STEP or CUBICSPLINE interpolation. A clip does not own memory:
 * it points at the caller's arrays. */
#ifndef IKIT_CLIP_H
#define IKIT_CLIP_H

#include <ikit/math.h>
#include <ikit/result.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ik_channel_path {
    IK_CHANNEL_TRANSLATION, /* 3 values per key */
    IK_CHANNEL_ROTATION,    /* 4 values per key: quaternion x, y, z, w */
    IK_CHANNEL_SCALE        /* 3 values per key */
} ik_channel_path;

typedef enum ik_interpolation {
    IK_INTERP_LINEAR,     /* lerp; slerp for rotations */
    IK_INTERP_STEP,       /* hold the previous key */
    IK_INTERP_CUBICSPLINE /* Hermite; values hold (in-tangent, value, out-tangent) per key */
} ik_interpolation;

typedef struct ik_channel {
    int joint;
    ik_channel_path path;
    ik_interpolation interpolation;
    int key_count;
    const ik_real *times;  /* [key_count], seconds, non-decreasing */
    const ik_real *values; /* [key_count * width], times 3 for CUBICSPLINE */
} ik_channel;

typedef struct ik_clip {
    const char *name;
    ik_real duration; /* seconds: the last key time over all channels */
    int channel_count;
    const ik_channel *channels;
} ik_clip;

/* Values per key of a channel (3 or 4), not counting spline tangents. */
int ik_channel_width(ik_channel_path path);

/* Check joint indices against `joint_count`, key counts, non-decreasing finite
 * times and finite values. On failure `*bad_channel` (may be NULL) names the
 * offending channel. */
ik_result ik_clip_validate(const ik_clip *clip, int joint_count, int *bad_channel);

/* The value of one channel at `time` (clamped to its first and last keys),
 * written to `out` [width]. Rotations come out normalised. */
void ik_channel_sample(const ik_channel *channel, ik_real time, ik_real *out);

/* Apply every channel of `clip` at `time` onto `pose_ls` [joint_count]:
 * joints and properties without a channel keep the values already there
 * (typically the rest pose). */
void ik_clip_sample(const ik_clip *clip, ik_real time, ik_transform *pose_ls);

#ifdef __cplusplus
}
#endif
#endif

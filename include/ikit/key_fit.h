/* ikit key fitting: a take (one pose per frame, take.h) turned into a clip
 * of few keys with cubic Hermite tangents (glTF CUBICSPLINE) whose motion
 * stays within a distance E of the take where it is seen: in model space, at
 * every joint and at three points a short distance r along each joint's local
 * axes (so a twist about a bone counts as much as a swing).
 *
 * Method (ik_key_fit_run): greedy insertion. Every channel that varies
 * starts with keys at the first and last frames, at the forced frames and
 * every 8th frame (a seed the pruning below thins out);
 * key values are the take's values, so keyed frames are exact. Between two
 * keys the out-tangent of the first and the in-tangent of the second are
 * fitted by least squares to the frames between them (glTF keeps separate
 * in- and out-tangents, so every segment is fitted on its own). The frame
 * with the largest model-space error then gets a key in the joint that
 * causes most of it (among the worst point's ancestors: translation error
 * seen through the parent plus rotation angle times the distance to the
 * point), and only that joint's two new segments and its subtree on their
 * frames are evaluated again. This repeats until every frame is within E;
 * then one sweep (leaves up) drops every key whose removal keeps its merged
 * segment within E. Chosen over tangent optimisation on a fixed key set
 * because the error bound is the stopping rule itself and each step is
 * local, so a 2,752-frame take fits in under a second.
 *
 * Sharing: the channels of a joint that vary share one set of key times
 * (a joint group); constant channels keep two keys. With
 * IK_KEY_SHARE_SKELETON every varying channel shares one set; AUTO fits
 * both and keeps the one that stores fewer numbers (a time per key time
 * array entry plus three vectors per key).
 *
 * ik_key_decimate_run is the comparison: per-scalar-curve greedy key
 * removal (what Blender's F-curve decimate does): every frame starts as a
 * key and the key whose removal changes its curve least (Hermite with
 * least-squares tangents over the merged segment) goes first, while that
 * change stays under a per-curve tolerance; the tolerance (a length for
 * translations, divided by twice the joint's reach for quaternion
 * components) is searched by bisection for the fewest keys whose
 * model-space error stays within the same E.
 *
 * Core layer: no allocation, the caller passes every buffer. */
#ifndef IKIT_KEY_FIT_H
#define IKIT_KEY_FIT_H

#include <stddef.h>

#include <ikit/clip.h>
#include <ikit/skeleton.h>
#include <ikit/take.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ik_key_sharing {
    IK_KEY_SHARE_AUTO,    /* fit both below, keep the one storing fewer numbers */
    IK_KEY_SHARE_JOINT,   /* a joint's varying channels share their key times */
    IK_KEY_SHARE_SKELETON /* every varying channel shares one set of key times */
} ik_key_sharing;

/* What a fit (or the comparison) kept and how close it stays. */
typedef struct ik_key_fit_stats {
    int frame_count;
    int channel_count;    /* channels (translation, rotation, scale) */
    int curve_count;      /* scalar curves: 3 or 4 per channel */
    long key_count;       /* keys summed over channels, as glTF stores them (ik_key_decimate_run: a
                           * channel's key times are the union of its curves') */
    long curve_key_count; /* keys summed over scalar curves (Blender's count): a rotation key is 4 */
    long stored_numbers;  /* times (once per shared time array) plus in-tangent, value, out-tangent
                           * per key (ik_key_decimate_run: 4 numbers per curve key) */
    ik_real max_error;    /* model units, over every frame, joint and axis point */
    ik_real mean_error;   /* mean over every frame, joint and axis point */
    int worst_frame;
    ik_key_sharing sharing; /* the sharing used (JOINT or SKELETON) */
    ik_real tolerance;      /* ik_key_decimate_run: the per-curve tolerance found (model units) */
} ik_key_fit_stats;

typedef struct ik_key_fit {
    /* inputs */
    const ik_take *take;         /* >= 2 frames, finite, unit rotations */
    const ik_skeleton *skeleton; /* the take's joints (joint_count equal) */
    const ik_mat4 *root_ms;      /* above the roots; NULL for the identity */
    const int *forced_frames;    /* [forced_count] frames keyed in every channel, exact; may be NULL */
    int forced_count;
    /* options */
    ik_real max_error;      /* E, model units, > 0; default 1e-3 */
    ik_real point_offset;   /* r, model units, > 0; default 0.05 (5 cm in metres) */
    ik_key_sharing sharing; /* default AUTO */
    const char *clip_name;  /* the output clip's name; may be NULL */
    void *scratch;          /* ik_key_fit_scratch_size (or _decimate_) bytes, aligned for ik_real */
    size_t scratch_bytes;
    /* outputs: sized by ik_key_fit_size_of (not used by ik_key_decimate_run) */
    ik_channel *channels;
    ik_real *times;
    ik_real *values;
    ik_clip *clip;
    ik_key_fit_stats *stats; /* may be NULL */
    unsigned long defaulted;
} ik_key_fit;

ik_key_fit ik_key_fit_def(void);

/* Output buffer sizes for a take (enough for any fit of it). */
typedef struct ik_key_fit_size {
    int channel_count;
    size_t time_count;
    size_t value_count;
} ik_key_fit_size;
ik_key_fit_size ik_key_fit_size_of(const ik_take *take);

/* Bytes of scratch for a take of `frame_count` frames of `joint_count` joints. */
size_t ik_key_fit_scratch_size(int frame_count, int joint_count);
size_t ik_key_decimate_scratch_size(int frame_count, int joint_count);

/* Validates: NULL pointers (IK_ERR_NULL), a job not from _def
 * (IK_ERR_NOT_DEFAULTED), fewer than 2 frames, a frame time not finite
 * and > 0, joint counts that differ, forced frames out of range, E or r not
 * finite and > 0, small scratch (IK_ERR_RANGE or IK_ERR_CAPACITY), a take
 * with NaN or non-unit rotations (ik_take_validate's code). Then fits and
 * writes the clip (its channels, times and values point into the caller's
 * buffers) and the stats, measured by sampling the written clip at every
 * frame. IK_ERR_RANGE when E is below what the arithmetic resolves. On
 * error the clip is not written. */
ik_result ik_key_fit_run(const ik_key_fit *job);

/* The comparison method (see above) on the same job's inputs; writes only
 * the stats (its keys differ per scalar curve, so they are not a clip). */
ik_result ik_key_decimate_run(const ik_key_fit *job);

#ifdef __cplusplus
}
#endif
#endif

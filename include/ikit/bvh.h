/* ikit io: Biovision Hierarchy (BVH) motion files, read and write.
 *
 * A BVH file has a HIERARCHY (ROOT / JOINT / End Site blocks with an OFFSET
 * and a CHANNELS list) and a MOTION section (frame count, frame time, then
 * one line of channel values per frame, in the order the joints and their
 * channels are declared).
 *
 * What ikit makes of it:
 * - Every ROOT and JOINT becomes a skeleton joint in file order (which is
 *   parents-first). Every End Site becomes a joint too, with no channels,
 *   named "<Parent>_End" ("<Parent>_End2", ... if a joint has several), so it
 *   can serve as an end effector. A CMU file with 31 joints and 7 End Sites
 *   gives a 38-joint skeleton.
 * - Rest pose: translation = OFFSET, identity rotation, unit scale.
 * - A joint may have 0 to 6 channels in any order, each of Xposition,
 *   Yposition, Zposition, Xrotation, Yrotation, Zrotation at most once.
 *   Position channels replace the OFFSET on their axis (axes without a
 *   channel keep the OFFSET). Rotation channels are angles in degrees; the
 *   joint's rotation is the product of the per-axis rotations in the order
 *   the channels are listed: R = R_first * R_second * R_third (for
 *   "Zrotation Yrotation Xrotation", R = Rz Ry Rx).
 * - Frame values are kept as double exactly as read, so writing and reading
 *   again reproduces them (the writer prints each value with the fewest
 *   digits that read back to the same double, at most 17).
 * - `clip` is a ready view for ik_clip_sample: per joint with channels, one
 *   LINEAR translation channel (if it has position channels) and one LINEAR
 *   rotation channel (if it has rotation channels), keys at t = f * frame_time.
 *
 * Errors: IK_ERR_PARSE (syntax, truncation, missing or extra values),
 * IK_ERR_NONFINITE (NaN, inf or out-of-range numbers, offsets whose sum
 * from the root overflows ik_real), IK_ERR_RANGE (counts
 * beyond what the input can hold, or beyond IK_BVH_MAX_JOINTS),
 * IK_ERR_HIERARCHY (a joint name used twice), IK_ERR_IO,
 * IK_ERR_NO_MEMORY, IK_ERR_NULL. The ik_error gets the line and column.
 * Memory is bounded by the input size: counts are checked against the bytes
 * left before anything is allocated. ik_bvh_read_file reads regular files
 * of at most IK_IO_MAX_FILE_BYTES (2 GiB, io_file.h) only: a FIFO or device
 * is IK_ERR_IO, a larger file IK_ERR_UNSUPPORTED, before anything is read.
 */
#ifndef IKIT_BVH_H
#define IKIT_BVH_H

#include <stddef.h>

#include <ikit/clip.h>
#include <ikit/error.h>
#include <ikit/io_file.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/skeleton.h>

#ifdef __cplusplus
extern "C" {
#endif

/* More joints than this is refused (IK_ERR_RANGE); mocap rigs have < 300. */
#define IK_BVH_MAX_JOINTS 4096
/* Longest joint name kept (longer names are refused). */
#define IK_BVH_MAX_NAME 127

typedef enum ik_bvh_channel {
    IK_BVH_XPOSITION,
    IK_BVH_YPOSITION,
    IK_BVH_ZPOSITION,
    IK_BVH_XROTATION,
    IK_BVH_YROTATION,
    IK_BVH_ZROTATION
} ik_bvh_channel;

typedef struct ik_bvh_joint {
    char *name;
    int parent;                /* index or -1 */
    int end_site;              /* 1 for an End Site (never has channels) */
    double offset[3];          /* OFFSET as written in the file */
    int channel_count;         /* 0..6 */
    int first_value;           /* index of its first channel within a frame */
    unsigned char channels[6]; /* ik_bvh_channel, in file order */
} ik_bvh_joint;

typedef struct ik_bvh {
    int joint_count;
    ik_bvh_joint *joints; /* [joint_count], parents-first */
    int values_per_frame; /* sum of channel_count */
    int frame_count;
    double frame_time; /* seconds, > 0 */
    double *values;    /* [frame_count * values_per_frame], frame-major */

    /* Views built from the above (owned, freed by ik_bvh_free). */
    const char **names;    /* [joint_count] */
    int *parents;          /* [joint_count] */
    ik_transform *rest_ls; /* [joint_count] */
    ik_skeleton skeleton;
    ik_clip clip;
    ik_channel *clip_channels; /* [clip.channel_count] */
    ik_real *clip_times;       /* [frame_count] */
    ik_real *clip_values;      /* key values of all clip channels */
} ik_bvh;

/* Parse a BVH text held in memory (need not be NUL-terminated). On success
 * *out owns everything and is released with ik_bvh_free; on failure *out is
 * NULL and error (may be NULL) holds the place and a message. */
ik_result ik_bvh_read_memory(const char *data, size_t size, ik_bvh **out, ik_error *error);
/* Read and parse a file. */
ik_result ik_bvh_read_file(const char *path, ik_bvh **out, ik_error *error);
void ik_bvh_free(ik_bvh *bvh);

/* The rotation R = R_first R_second R_third of `count` rotation angles in
 * degrees about the axes of `channels` (position channels are skipped). */
ik_quat ik_bvh_euler_to_quat(const unsigned char *channels, const double *degrees, int count);

/* The inverse, for writing solved poses: Euler angles in degrees, in the
 * order of the three rotation channels `axes` (0 x, 1 y, 2 z, all
 * different), such that R_axes[0](a0) R_axes[1](a1) R_axes[2](a2) = q, as
 * BVH composes them (the middle angle within -90..90). */
void ik_bvh_quat_to_euler(ik_quat q, const int axes[3], double degrees[3]);

/* One frame of channel values `values` [bvh->values_per_frame] from
 * `pose_ls` [joint_count]: position channels from translations, rotation
 * channels from rotations. A joint with other than three distinct rotation
 * channels keeps the values of `fallback` [values_per_frame] on them (as does
 * every slot no channel of a joint writes). */
void ik_bvh_frame_from_pose(const ik_bvh *bvh, const ik_transform *pose_ls, const double *fallback, double *values);

/* Write `bvh` as BVH text: joints in depth-first order from each root
 * (children in index order), End Sites as "End Site" blocks, then the MOTION
 * section. Only joints, values_per_frame, frame_count, frame_time and values
 * are used; the views may be left empty. IK_ERR_HIERARCHY when the joints
 * are not parents-first or an End Site has children or channels, IK_ERR_RANGE
 * on inconsistent channel layouts, IK_ERR_NONFINITE on NaN or inf values. */
ik_result ik_bvh_write_file(const ik_bvh *bvh, const char *path, ik_error *error);
/* Same, into a NUL-terminated buffer *text of *size bytes (not counting the
 * NUL), released with ik_bvh_text_free. */
ik_result ik_bvh_write_memory(const ik_bvh *bvh, char **text, size_t *size, ik_error *error);
void ik_bvh_text_free(char *text);

#ifdef __cplusplus
}
#endif
#endif

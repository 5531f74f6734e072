/* ikit ground slide: the contacts an outside reader would find on a take,
 * and how far each slides.
 *
 * Retargeting and the footskate clean-up hold the contacts they chose;
 * this measures the result the way anyone reading the written file would,
 * with no knowledge of those: a foot is on the ground while its point (the
 * toe joint, the ball of an ankle without one, or a virtual ankle:
 * ik_foot_point_position) is near the floor and
 * slow, sampled at a fixed rate, and a contact is a run of such samples.
 * Its slide is the largest distance across the up axis between two of its
 * samples. Thresholds are in metres of the file's world (a glTF file's
 * metres; ik_foot_metre for a BVH), so that the figures agree with such a
 * reader's.
 *
 * Defaults (ik_ground_slide_def): within 4 cm of the floor, slower than
 * 25 cm/s (central differences), runs of 0.05 s or longer (3 samples),
 * sampled at 60 Hz; the floor is the 5th percentile of both feet's point
 * heights over the take.
 */
#ifndef IKIT_GROUND_SLIDE_H
#define IKIT_GROUND_SLIDE_H

#include <ikit/humanoid.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/take.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ik_ground_contact {
    int leg;        /* IK_LIMB_LEG_L or IK_LIMB_LEG_R */
    int start, end; /* frames of the take, inclusive (sampled ones) */
    ik_real slide;  /* world units */
} ik_ground_contact;

typedef struct ik_ground_slide {
    const ik_humanoid *rig;
    const ik_take *take;
    const ik_mat4 *root_ms;      /* model to world; NULL: identity */
    ik_real metre;               /* world units per metre, > 0 */
    ik_real near_floor;          /* metres (0.04) */
    ik_real slow;                /* metres per second (0.25) */
    ik_real sample_rate;         /* samples per second (60); a take's frames are stepped by the nearest whole
                                    number of frames, at least 1 */
    ik_real min_seconds;         /* the shortest run (0.05) */
    ik_mat4 *model_ms;           /* scratch [joint_count] */
    ik_vec3 *points;             /* scratch [2 * samples] (ik_ground_slide_samples) */
    ik_real *heights;            /* scratch [4 * samples] */
    ik_ground_contact *contacts; /* out, in order of start per leg, left leg's first */
    int capacity;
    int *count;     /* out: contacts found (may exceed capacity: IK_ERR_CAPACITY) */
    ik_real *floor; /* out, optional: the floor's height along up, world units */
    unsigned long defaulted;
} ik_ground_slide;

ik_ground_slide ik_ground_slide_def(void);

/* How many samples a take gives at `sample_rate` (0 for a bad take). */
int ik_ground_slide_samples(const ik_take *take, ik_real sample_rate);

/* IK_ERR_NOT_DEFAULTED, IK_ERR_NULL, IK_ERR_RANGE (take not of the rig's
 * skeleton, fewer than 2 frames), IK_ERR_DEGENERATE (metre, thresholds or
 * rate not positive, a leg without an end), IK_ERR_NONFINITE (a pose or the
 * root not finite), IK_ERR_CAPACITY (more contacts than capacity: *count
 * says how many). */
ik_result ik_ground_slide_run(const ik_ground_slide *job);

#ifdef __cplusplus
}
#endif
#endif

/* ikit in-place cycles: a walk or run made in place (the hips stay put,
 * each stance foot slides backward along the floor), as game clips and
 * "in place" exports are.
 *
 * Such a take has no foot contacts (ik_foot_contacts: its feet are never
 * still), yet its feet are on the ground: they slide because the body does
 * not travel. ik_in_place_run recognises it from the feet's paths that
 * ik_foot_paths_record keeps and the floor levels ik_foot_contacts_run
 * finds, and gives
 *   - the cycle's slide velocity v (a vector in the floor plane, model
 *     units per second): the mean horizontal velocity of the stance feet;
 *   - the stances: per heel and toe, the intervals of frames it is low
 *     and sliding at about v. They are the foot contacts of the take seen
 *     from a frame moving with v (each planted position is in that frame),
 *     so after ik_in_place_root_motion (the root moved by -v t: the figure
 *     walks forward) they are the take's contacts, ready for ik_footskate.
 *
 * Everything is scaled by the leg length as ik_foot_contacts is, so a take
 * in centimetres, Z-up or mirrored gives the same answer.
 */
#ifndef IKIT_IN_PLACE_H
#define IKIT_IN_PLACE_H

#include <ikit/foot_contacts.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/skeleton.h>
#include <ikit/take.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the detection measured. */
typedef struct ik_in_place_cycle {
    ik_bool in_place;   /* a cycle made in place: every test of the job passed */
    ik_vec3 slide_ms;   /* the stance feet's mean velocity in the floor plane, units per second */
    ik_real speed;      /* |slide_ms| */
    ik_real hips_speed; /* the hips' net horizontal travel over the take, per second */
    ik_real steady;     /* fraction of stance time in stances whose own mean velocity is within
                           steady_tolerance of slide_ms */
    int stance_legs;    /* bit 0: the left leg has a stance, bit 1: the right */
    ik_real cover;      /* fraction of the frames with a foot in a stance */
} ik_in_place_cycle;

/* The job. Speeds are in leg lengths per second or fractions of the slide
 * speed, so they hold on any skeleton. */
typedef struct ik_in_place {
    /* The foot-contacts job as run on the take (paths, frame time, points
     * present, up, leg length, height thresholds, gaps), with its `levels`
     * output filled by that run; its contacts are not read. */
    const ik_foot_contacts *feet;

    /* A cycle slides at least min_speed leg lengths per second (slower feet
     * are contacts). Default 0.3 (ik_foot_contacts' speed_enter). */
    ik_real min_speed;
    /* The hips travel at most this fraction of the slide speed (net, first
     * frame to last). Default 0.25. */
    ik_real max_hips_travel;
    /* A stance frame's velocity differs from v by less than speed_enter |v|
     * to begin a stance and speed_exit |v| to last (hysteresis, as
     * ik_foot_contacts on the moving frame). Defaults 0.6 and 0.95: stylised
     * clips slide unevenly (robot.glb's walk from 0.3 to 2 times its mean
     * within a stance), and a still foot (|v| away) never counts. */
    ik_real speed_enter, speed_exit;
    /* Stances shorter than this (seconds) are dropped. Default 0.05 (a
     * run's stance lasts 0.1 to 0.2 s). */
    ik_real min_duration;
    /* A stance is steady when its mean velocity (its point's horizontal
     * move from first to last frame over the time) is within
     * steady_tolerance |v| of v; a cycle needs min_steady of its stance time
     * steady. Defaults 0.4 and 0.75. */
    ik_real steady_tolerance, min_steady;
    /* A cycle has stances on both legs (each leg with a heel or toe
     * present) and a foot in a stance in at least min_cover of its frames.
     * Default 0.1 (robot.glb's run: 15 %; 131_01 spinning two turns a second
     * swept one toe straight for 5 % of its frames). */
    ik_real min_cover;

    /* Scratch: [frame_count * IK_FOOT_PATH_POINTS] positions and
     * [2 * frame_count] reals. */
    ik_vec3 *shifted_ms;
    ik_real *scratch;

    /* Out: the stances, ordered by start frame (ties by point), each planted
     * position in the frame moving with v (the point's mean of p(t) - v t,
     * t = frame x frame time); *count is how many were found even over
     * `capacity` (IK_ERR_CAPACITY, the first `capacity` written). Only
     * written for a take found in place (*count 0 otherwise). */
    ik_foot_contact *stances;
    int capacity;
    int *count;
    /* Optional out [capacity] (NULL: not written): how far each stance's
     * point slid along the floor in the take as given, model units. */
    ik_real *slides;
    ik_in_place_cycle *out;

    unsigned long defaulted; /* set by ik_in_place_def(); do not touch */
} ik_in_place;

/* A job with the defaults above and nothing bound. */
ik_in_place ik_in_place_def(void);

/* Detect. IK_ERR_NOT_DEFAULTED; IK_ERR_NULL (feet, its paths or levels,
 * scratch, stances, count, out); IK_ERR_RANGE for a threshold out of order
 * (enter above exit, a fraction outside its range) and the foot-contacts
 * job's own range errors; IK_ERR_NONFINITE and IK_ERR_DEGENERATE as
 * ik_foot_contacts_run, and its IK_ERR_UNSUPPORTED for a figure upside down;
 * IK_ERR_CAPACITY when the stances found under some estimate of v exceed
 * `capacity` (*count says how many; a capacity of 2 x frame_count always
 * suffices). A take that is not in place is not an error: out->in_place is
 * 0, *count 0, the measures filled where they could be. */
ik_result ik_in_place_run(const ik_in_place *job);

/* Put the root motion back: the topmost joint above `hips` (the one root
 * motion goes to, so IK controls hanging from the same root come along, as
 * ik_walk moves it) translated by -slide_ms t in every frame (t = frame x
 * frame time), slide_ms given in model space under `root_ms` (NULL:
 * identity) and turned into that joint's parent space. IK_ERR_NULL,
 * IK_ERR_RANGE (hips outside the skeleton, a take of another skeleton),
 * IK_ERR_NONFINITE, IK_ERR_DEGENERATE (a singular root_ms); the take is
 * untouched on error. */
ik_result ik_in_place_root_motion(const ik_skeleton *skeleton, int hips, const ik_mat4 *root_ms, ik_vec3 slide_ms,
                                  ik_take *take);

#ifdef __cplusplus
}
#endif
#endif

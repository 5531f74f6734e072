/* ikit stance clean: the footskate clean-up of a take's own motion, its
 * whole stances held (what `ikc clean` runs).
 *
 * One ik_footskate pass holds the contacts given (ik_foot_contacts on the
 * take, or a cycle's stances); then, a few rounds, the result's own
 * contacts that still slide join them (ik_stance_join) and the pass runs
 * again from the input. A take that kept the rig's limits (within a
 * degree: a retarget's result) keeps them: each pass ends with
 * ik_feet_within_limits on the frames past them by over a degree (a held
 * foot's leg only past two: turning a held foot back moves it), joints
 * only (a take's floor is not the rest floor); a capture already past them
 * is not re-posed. A
 * round is kept only when its worst slide is the least so far and it is no
 * worse otherwise: no more knee flips than the
 * first pass, no speed added over the first pass's or 10 m/s, no sole
 * deeper than the first pass's by over a centimetre (a foot held at two
 * spots the input moved between can drag a leg, or the body down), no
 * joint further past the rig's limits than the first pass's by over a
 * degree (a toe-less foot's ball held beside its heel through a kneel). The
 * take ends as the best round left it, and the contacts as that round held
 * them.
 *
 * Core layer: no allocation (the caller's scratch), builds for wasm32.
 */
#ifndef IKIT_STANCE_CLEAN_H
#define IKIT_STANCE_CLEAN_H

#include <stddef.h>

#include <ikit/foot_contacts.h>
#include <ikit/humanoid.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/take.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the kept round did, against the input (lengths in model units under
 * root_ms). */
typedef struct ik_stance_clean_report {
    int rounds;            /* passes run after the first */
    int kept_round;        /* 0: the first pass */
    ik_real worst_slide;   /* of the result's own contacts (ik_stance_join's measure) */
    ik_real added_speed;   /* the largest speed added to a joint, units per second */
    int knee_flips;        /* frames with a knee bent the wrong way (ik_leg_knee_flip_frames) */
    ik_real deepest_sole;  /* ik_leg_deepest_sole */
    ik_real beyond_limits; /* radians past the rig's limits, the worst joint (ik_take_limits_excess) */
} ik_stance_clean_report;

typedef struct ik_stance_clean {
    const ik_humanoid *rig;
    const ik_mat4 *root_ms;    /* above the roots; NULL: identity */
    ik_take *take;             /* in: the take; out: cleaned */
    ik_foot_contact *contacts; /* in/out: the contacts to hold, under root_ms; out: those the kept round held,
                                  at the spots it held them (moved into reach) */
    int *count;                /* in/out */
    int capacity;              /* of contacts; 2 * frame_count always suffices */
    ik_real metre;             /* units per metre under root_ms (> 0): a glTF file's 1, else ik_foot_metre */
    ik_real leg_length;        /* model units under root_ms (> 0): ik_foot_leg_length times the root's scale */
    int rounds;                /* rounds after the first pass (default 3) */
    const ik_real *levels;     /* optional [IK_FOOT_CONTACT_POINTS]: each point's floor level along up
                                  under root_ms (ik_foot_contacts' levels); a contact planted under its
                                  point's level is held on it (a capture's scatter: CMU 131_02's left toe
                                  plants 23 mm under its level) */
    ik_real blend_time;        /* ik_footskate's (default 0.25 s) */
    ik_bool follow_heel_lift;  /* ik_footskate's (default 1) */
    void *scratch;             /* ik_stance_clean_scratch_size(take, capacity) bytes */
    size_t scratch_bytes;
    ik_stance_clean_report *report; /* optional */
    unsigned long defaulted;
} ik_stance_clean;

ik_stance_clean ik_stance_clean_def(void);
size_t ik_stance_clean_scratch_size(const ik_take *take, int capacity);

/* IK_ERR_NOT_DEFAULTED, IK_ERR_NULL, IK_ERR_RANGE (take not of the rig's
 * skeleton, fewer than 2 frames, a count outside 0..capacity, rounds < 0),
 * IK_ERR_CAPACITY (small scratch), IK_ERR_DEGENERATE (metre or leg length
 * not positive), IK_ERR_NONFINITE, and ik_footskate's errors. On an error
 * after the first pass began the take may be partly cleaned. */
ik_result ik_stance_clean_run(const ik_stance_clean *job);

#ifdef __cplusplus
}
#endif
#endif

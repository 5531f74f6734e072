/* ikit skating: how much a take's planted feet slide, and what a clean-up
 * (ik_footskate) or a retarget changed elsewhere, measured by forward
 * kinematics of every frame.
 *
 * For each contact (ik_foot_contacts), its point's horizontal travel over
 * the contact (the path length across the body's up axis) and the frames
 * in which it slides faster than slide_speed; against a reference take
 * (the input before the clean-up), the largest move of any joint outside
 * the legs and how much straighter the knees got. Distances are in model
 * units; `metre` converts (ik_foot_metre). */
#ifndef IKIT_SKATING_H
#define IKIT_SKATING_H

#include <ikit/foot_contacts.h>
#include <ikit/humanoid.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/take.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ik_skating {
    ik_real travel;       /* horizontal travel of planted points, summed over contacts */
    ik_real worst_travel; /* the largest of one contact */
    int contact_frames;   /* frame steps inside contacts, over all contacts */
    int sliding_frames;   /* of those, steps faster than slide_speed */
    /* With a reference take (else 0): */
    ik_real upper_change;       /* largest distance of a joint outside the legs (a virtual ankle's control
                                   joint counts as its leg) from its reference place */
    int upper_change_joint;     /* which (-1 when none) */
    ik_real knee_straightening; /* largest loss of knee bend from the reference's, radians */
    int knee_snaps;             /* frames where a knee within 2 degrees of straight was bent over 10 in the reference */
    /* With a reference and previous_ms: the largest speed a change added to
     * a joint from one frame to the next, |d_take - d_reference| / frame
     * time (units per second): a pop shows here. */
    ik_real added_speed;
    int added_speed_joint, added_speed_frame;
} ik_skating;

typedef struct ik_skating_measure {
    const ik_humanoid *rig;
    const ik_mat4 *root_ms;          /* NULL: identity */
    const ik_take *take;             /* measured */
    const ik_take *reference;        /* or NULL: the same skeleton's take before a change */
    const ik_foot_contact *contacts; /* the contacts the take should hold, each point's in order of
                                        time without overlaps (as ik_foot_contacts gives them) */
    int contact_count;
    ik_vec3 up_ms;                    /* unit; default +Y */
    ik_real slide_speed;              /* model units per second, > 0 (default 0: set it, e.g.
                                         0.02 * ik_foot_metre(leg length), 2 cm/s) */
    ik_mat4 *model_ms, *reference_ms; /* scratch [joint_count] each (reference_ms only with a reference) */
    ik_vec3 *previous_ms;             /* optional scratch [2 * joint_count] (with a reference): measure added_speed */
    ik_skating *out;
    unsigned long defaulted;
} ik_skating_measure;

ik_skating_measure ik_skating_measure_def(void);

/* IK_ERR_NOT_DEFAULTED, IK_ERR_NULL, IK_ERR_RANGE (takes not of the rig's
 * skeleton or of different frame counts, a contact outside the take or
 * out of order),
 * IK_ERR_NONFINITE, IK_ERR_DEGENERATE (slide_speed <= 0, zero up). */
ik_result ik_skating_measure_run(const ik_skating_measure *job);

#ifdef __cplusplus
}
#endif
#endif

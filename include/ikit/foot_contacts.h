/* ikit foot contacts: the frames of a take in which each foot is planted.
 *
 * Two steps, both on the caller's buffers:
 *   1. ik_foot_paths_record: forward kinematics of every frame, keeping the
 *      model-space positions of the feet's points (each ankle, standing for
 *      the heel, and each toe joint, from the humanoid map) and of the hips.
 *   2. ik_foot_contacts_run: from those paths, per point, the intervals of
 *      frames it stands on the floor, with where it stands.
 *
 * The floor is found from the take, not assumed: per kind of point (ankles,
 * toes) a low percentile of both feet's heights along the body's up axis.
 * A point is planted while it is near that level and slow; every threshold
 * is a fraction of the leg length (hip to ankle at rest), so a take in
 * inches, in CMU units or in metres gives the same contacts.
 *
 * Retargeting (and ik_footskate) consume the contacts: each holds its
 * point's mean position over the contact, one planted position per contact.
 */
#ifndef IKIT_FOOT_CONTACTS_H
#define IKIT_FOOT_CONTACTS_H

#include <stddef.h>

#include <ikit/humanoid.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/skeleton.h>
#include <ikit/take.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The points a path records, per frame in this order. The heels and toes
 * are the contact points; the hips tell which way is up in the take. */
enum {
    IK_FOOT_HEEL_L, /* the left ankle joint */
    IK_FOOT_TOE_L,  /* the left toe joint, or the ball of a toe-less foot (ik_foot_point_position) */
    IK_FOOT_HEEL_R,
    IK_FOOT_TOE_R,
    IK_FOOT_CONTACT_POINTS, /* = 4 */
    IK_FOOT_HIPS = IK_FOOT_CONTACT_POINTS,
    IK_FOOT_PATH_POINTS /* = 5 */
};

/* The leg (IK_LIMB_LEG_L or IK_LIMB_LEG_R) a contact point belongs to, and
 * whether it is a toe. */
static inline int ik_foot_point_leg(int point) { return point < IK_FOOT_HEEL_R ? IK_LIMB_LEG_L : IK_LIMB_LEG_R; }
static inline ik_bool ik_foot_point_is_toe(int point) { return point == IK_FOOT_TOE_L || point == IK_FOOT_TOE_R; }
/* "left heel", "left toe", "right heel", "right toe", "hips"; "" out of range. */
const char *ik_foot_point_name(int point);

/* The joint of each path point on `rig`: ankle, toe per leg and the hips;
 * a virtual ankle's control joint (ik_humanoid_limb_foot: robot.glb's
 * Foot.L, kept at the virtual ankle); -1 for a missing toe or a virtual
 * ankle without a control joint. */
void ik_foot_point_joints(const ik_humanoid *rig, int joints[IK_FOOT_PATH_POINTS]);

/* Where contact point `point` (heel or toe, IK_FOOT_HEEL_L .. IK_FOOT_TOE_R)
 * stands in a pose whose forward kinematics is model_ms: a heel at its
 * foot joint (ik_humanoid_limb_foot); a toe at its toe joint, or on an
 * ankle joint without one at the ball of the foot, a virtual toe (the
 * limb's ball_ls in the foot's frame: on the floor at rest, ahead of the
 * heel), so that a toe-less foot holds and is measured where it stands,
 * not only at its ankle. Returns 0 (out untouched) where the rig lacks the
 * point: no foot joint, or a toe on a virtual ankle (robot.glb's, whose
 * control joint stands at the ankle). With model_ms or out NULL, only
 * whether the rig has the point. */
ik_bool ik_foot_point_position(const ik_humanoid *rig, int point, const ik_mat4 *model_ms, ik_vec3 *out);

/* The body's scale: the mean of both legs' lengths (thigh to knee to ankle
 * at rest), in the rig's model units; and the number of model units in a
 * metre of an average adult, taken as IK_FOOT_LEG_METRES of leg, so a
 * threshold given in metres means the same on any skeleton. */
#define IK_FOOT_LEG_METRES ((ik_real)0.85)
ik_real ik_foot_leg_length(const ik_humanoid *rig);
static inline ik_real ik_foot_metre(ik_real leg_length) { return leg_length / IK_FOOT_LEG_METRES; }

/* Forward kinematics of every frame of `take` on `skeleton` under `root_ms`
 * (NULL: identity), keeping the positions of `joints` [IK_FOOT_PATH_POINTS]
 * in paths_ms[frame * IK_FOOT_PATH_POINTS + point] (the origin for a joint
 * of -1). `model_ms` [joint_count] is scratch. IK_ERR_NULL; IK_ERR_RANGE for
 * a take whose joint count is not the skeleton's or a joint out of range;
 * IK_ERR_NONFINITE for a frame with NaN or infinity (*bad_frame, may be
 * NULL, says which; nothing useful is in paths_ms then). */
ik_result ik_foot_paths_record(const ik_skeleton *skeleton, const ik_take *take, const ik_mat4 *root_ms,
                               const int joints[IK_FOOT_PATH_POINTS], ik_mat4 *model_ms, ik_vec3 *paths_ms,
                               int *bad_frame);

/* The same for a rig's own points (ik_foot_point_position: each heel, each
 * toe or a toe-less ankle's ball, a virtual toe) and its hips, under
 * root_ms; present [IK_FOOT_CONTACT_POINTS] (may be NULL) says which points
 * the rig has, for ik_foot_contacts' present. */
ik_result ik_foot_paths_record_rig(const ik_humanoid *rig, const ik_take *take, const ik_mat4 *root_ms,
                                   ik_mat4 *model_ms, ik_vec3 *paths_ms, ik_bool *present, int *bad_frame);

/* One interval of frames in which a point stands on the floor. */
typedef struct ik_foot_contact {
    int point;          /* IK_FOOT_HEEL_L .. IK_FOOT_TOE_R */
    int start, end;     /* first and last frame, inclusive */
    ik_vec3 planted_ms; /* the point's mean position over the interval */
} ik_foot_contact;

/* The job. Thresholds are in leg lengths (heights) and leg lengths per
 * second (speeds) so they hold on any skeleton. */
typedef struct ik_foot_contacts {
    const ik_vec3 *paths_ms;                 /* [frame_count * IK_FOOT_PATH_POINTS] from ik_foot_paths_record */
    int frame_count;                         /* >= 2 */
    ik_real frame_time;                      /* seconds, > 0 */
    ik_bool present[IK_FOOT_CONTACT_POINTS]; /* which points exist (joint >= 0); default all */
    ik_vec3 up_ms;                           /* the body's up in model space (unit; default +Y) */
    ik_real leg_length;                      /* model units, > 0 (ik_foot_leg_length) */

    /* Floor level per kind of point: this fraction of the frames of both
     * feet's points of that kind (heels, toes) lie lower. Default 0.05. */
    ik_real floor_percentile;
    /* Hysteresis: a contact begins where the height above the level is
     * below height_enter and the speed below speed_enter, and lasts while
     * they stay below height_exit and speed_exit. Defaults 0.04 and 0.08 leg
     * lengths, 0.3 and 0.6 leg lengths per second (a swing moves at 2 or
     * more; a foot shuffling on the floor between 0.5 and 1, so a shuffle
     * splits into several contacts, each held still where it is). The
     * speed is the distance moved over about 1/30 s, per second. */
    ik_real height_enter, height_exit;
    ik_real speed_enter, speed_exit;
    /* Gaps between contacts of a point shorter than max_gap seconds are
     * filled, then contacts shorter than min_duration dropped. Defaults
     * 0.05 s and 0.1 s. */
    ik_real max_gap, min_duration;

    /* Scratch [2 * frame_count]. */
    ik_real *scratch;

    /* Out: the contacts, ordered by start frame (ties by point); *count
     * is how many were found even when that exceeds `capacity`
     * (IK_ERR_CAPACITY, with the first `capacity` written). */
    ik_foot_contact *contacts;
    int capacity;
    int *count;
    /* Optional out (NULL: not written): per frame and contact point
     * (frame * IK_FOOT_CONTACT_POINTS + point), the height above the point's
     * floor level and the speed, model units and units per second; and the
     * floor level of each point (model units along up_ms). */
    ik_real *heights;
    ik_real *speeds;
    ik_real *levels; /* [IK_FOOT_CONTACT_POINTS] */

    unsigned long defaulted; /* set by ik_foot_contacts_def(); do not touch */
} ik_foot_contacts;

/* A job with the defaults above and nothing bound. */
ik_foot_contacts ik_foot_contacts_def(void);

/* Find the contacts. IK_ERR_NOT_DEFAULTED; IK_ERR_NULL; IK_ERR_RANGE for
 * fewer than 2 frames, no contact point present or a threshold out of order
 * (enter above exit, a percentile outside [0, 1)); IK_ERR_NONFINITE for NaN
 * or infinity in the paths, up, leg length or frame time;
 * IK_ERR_DEGENERATE for a zero up, a leg length or frame time <= 0;
 * IK_ERR_UNSUPPORTED for a figure whose hips are not above its feet (by
 * less than a quarter of the leg length in the median frame: upside down or
 * lying). On other errors than IK_ERR_CAPACITY no output is written and
 * *count is 0. A point that
 * never stands gives no contacts (not an error). */
ik_result ik_foot_contacts_run(const ik_foot_contacts *job);

#ifdef __cplusplus
}
#endif
#endif

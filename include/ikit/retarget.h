/* ikit retargeting: a take of one humanoid played on another skeleton,
 * with other proportions, rest pose, names and units.
 *
 * Both skeletons are mapped by humanoid roles (ik_humanoid_map_find, so
 * CMU, Mixamo, Rigify and mapping-file names all work), plus extra joint
 * pairs the caller names (fingers, tails) and, optionally, joints with the
 * same name in both. Each frame:
 *   1. Rotations: every paired joint turns, relative to its own rest, as its
 *      partner turns relative to its rest, the turn expressed in a frame the
 *      two bodies share (each rig's left, up and forward from the humanoid
 *      map). So a T-pose rig plays an A-pose take: only the motion away from
 *      rest is copied, never the rest itself. The limb bones (thigh, shin,
 *      upper arm, forearm) then swing to point where their partners point
 *      (twist kept, but rolled onto the hinge where it left a forearm or
 *      shin bent against it), within the rig's knee and elbow limits, so a
 *      rig whose rest bends a knee does not add that bend. Joints without a
 *      partner keep their rest, but a virtual ankle's control joint
 *      (ik_humanoid_limb_foot: robot.glb's Foot.L), which turns as the
 *      source's foot and stands at the virtual ankle; bone lengths are the
 *      target's own.
 *   2. Root travel: the hips' path, measured from the source's ankle level
 *      under its rest hips, scaled by the ratio of leg lengths (target over
 *      source, thigh + shin at rest) and turned into the target's frame. A
 *      unit mismatch (inches onto metres, a glTF armature scaled x0.01) is
 *      this same ratio; the report gives it.
 *   3. IK (hold_feet, on by default): the source's foot contacts
 *      (ik_foot_contacts on the source take) mapped the same way, each
 *      point's height above its floor level scaled onto the target's height
 *      of that point over its sole, are held by the footskate job
 *      (ik_footskate: two-bone legs, knees on their side, hips moved only
 *      beyond reach, eased); then, per frame, a leg whose foot is not held
 *      keeps its knee and ankle within the rig's limits, feet turn by the
 *      smallest angle that keeps their soles off the floor (not a held toe's
 *      foot), a held or grounded foot whose ankle then bends up past its
 *      limit lifts its heel about its held toe or its ball (a lifted held
 *      heel's contact is cut to the frames it stayed down), and toes are
 *      kept within their limits and off the floor (ik_humanoid_angles
 *      measures every joint against the limits; glTF and BVH carry none of
 *      their own).
 *      Optionally the hands go to the source's hand positions mapped the
 *      same way, arms solved by the humanoid solve (elbows on their side,
 *      hands keeping their retargeted turn).
 *
 * Everything is computed in each skeleton's root space (below any root
 * transform a file puts above it), so a take shown Z-up or mirrored by its
 * file retargets the same as one shown Y-up. No allocation: the caller
 * gives scratch sized by ik_retarget_scratch_size. */
#ifndef IKIT_RETARGET_H
#define IKIT_RETARGET_H

#include <stddef.h>

#include <ikit/foot_contacts.h>
#include <ikit/humanoid.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/take.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A joint of the source played by a joint of the target. */
typedef struct ik_retarget_pair {
    int source_joint, target_joint;
} ik_retarget_pair;

typedef struct ik_retarget_report {
    ik_real scale;                  /* target units per source unit: the ratio of leg lengths */
    ik_real source_leg, target_leg; /* leg lengths (thigh + shin at rest), each in its own root units */
    int paired_joints;              /* target joints that follow a source joint */
    int source_contacts;            /* contacts found on the source take */
} ik_retarget_report;

typedef struct ik_retarget {
    const ik_humanoid *source_rig; /* its skeleton is the source take's */
    const ik_take *source;         /* >= 2 frames */
    const ik_humanoid *target_rig;
    /* Out: frame_count, joint_count (the target's) and frame_time (the
     * source's) set by the caller; every pose written. */
    ik_take *target;

    const ik_retarget_pair *extra_pairs; /* optional [extra_pair_count] */
    int extra_pair_count;
    ik_bool pair_same_names; /* pair unmapped joints with one name in both; default 1 */

    ik_bool hold_feet;         /* the IK pass on contacts; default 1 */
    ik_bool hold_hands;        /* hands at the source's positions, mapped; default 0 */
    ik_foot_contacts contacts; /* thresholds for the source's contacts (ik_foot_contacts_def();
                                  its buffers, counts and axes are set by the job) */
    ik_real blend_time;        /* footskate easing, seconds; default 0.25 */
    /* Whole stances (hold_feet): after the source's contacts are held, the
     * result's own (ik_ground_slide: a toe, or the ball of a toe-less
     * ankle, near the floor and slow, with 25 % more room than its
     * defaults) that still slide are held too, merged with the source's,
     * in up to plant_rounds rounds (default 3; 0 holds only the source's).
     * A pass whose result goes past the rig's limits further than the
     * first pass's is not a round (at most 2 plant_rounds passes after the
     * first): the virtual toes held near where it did are let go. */
    int plant_rounds;
    ik_real ground_metre; /* target root units per metre for those thresholds; 0 (default):
                             ik_foot_metre of the target's legs. ikc passes a glTF's own metres */

    /* Out (optional, NULL: not written): the contacts held on the target,
     * in its root space (under no root transform), in order of start;
     * *contact_count is how many (IK_ERR_CAPACITY when over capacity). */
    ik_foot_contact *target_contacts;
    int contact_capacity;
    int *contact_count;

    void *scratch; /* >= ik_retarget_scratch_size(...) bytes */
    size_t scratch_bytes;
    ik_retarget_report *report; /* optional */
    unsigned long defaulted;    /* set by ik_retarget_def(); do not touch */
} ik_retarget;

ik_retarget ik_retarget_def(void);

/* Scratch for a take of `frame_count` frames from a skeleton of
 * `source_joints` onto one of `target_joints`; 0 for counts below 1. */
size_t ik_retarget_scratch_size(int frame_count, int source_joints, int target_joints);

/* Validate, then retarget every frame. IK_ERR_NOT_DEFAULTED; IK_ERR_NULL;
 * IK_ERR_RANGE (take counts not the skeletons', fewer than 2 frames, a pair
 * out of range or pairing one joint twice); IK_ERR_CAPACITY (scratch, or
 * target_contacts too small); IK_ERR_NONFINITE (NaN or infinity in the
 * source take); IK_ERR_DEGENERATE (a zero leg or frame time);
 * IK_ERR_UNSUPPORTED (the source lying or upside down, or hold_feet on a
 * target leg with no ankle joint nor a control joint for a virtual ankle); IK_ERR_NOT_FOUND with hold_feet when the
 * source's feet are never on the floor (no contacts: nothing to plant; turn
 * hold_feet off to retarget without the IK pass). On error the target take
 * may hold partial frames; the report says what was found. */
ik_result ik_retarget_run(const ik_retarget *job);

#ifdef __cplusplus
}
#endif
#endif

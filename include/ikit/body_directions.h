/* ikit body directions: where a humanoid's segments point in its own body
 * frame, so that two figures of other proportions, rests, units and up
 * axes can be compared pose for pose (retargeting's check: the target's
 * limbs should point where the source's do).
 *
 * Body frame of a pose: up the rig's (up_rs), left the thighs' (left hip
 * joint minus right one, across up), forward = h left x up with h = +-1 the
 * rig's own handedness (sign of (left_rs x up_rs) . forward_rs), so a
 * mirrored rig reads as its mirror image does.
 */
#ifndef IKIT_BODY_DIRECTIONS_H
#define IKIT_BODY_DIRECTIONS_H

#include <ikit/humanoid.h>
#include <ikit/math.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The segments, in order: the trunk (hips to neck, or to the head without
 * one), then per limb (left arm, right arm, left leg, right leg) its upper
 * bone (start to middle joint) and lower bone (middle joint to the limb's
 * end: the hand, or the ankle, a virtual one included). */
#define IK_BODY_SEGMENTS 9

/* Groups the goals are set on. */
typedef enum ik_body_group {
    IK_BODY_TRUNK,
    IK_BODY_UPPER_ARMS,
    IK_BODY_FOREARMS,
    IK_BODY_THIGHS,
    IK_BODY_SHINS,
    IK_BODY_GROUPS
} ik_body_group;

/* Unit directions of the segments in the pose's body frame, components on
 * (left, up, forward); model_ms from ik_skeleton_fk of the rig's skeleton.
 * A degenerate segment (coincident joints) or a missing joint gives zero. */
void ik_body_directions(const ik_humanoid *rig, const ik_mat4 *model_ms, ik_vec3 out[IK_BODY_SEGMENTS]);

/* The group of segment i, and the segment's and group's names ("trunk",
 * "left upper arm", ...; "thighs", ...). */
ik_body_group ik_body_segment_group(int segment);
const char *ik_body_segment_name(int segment);
const char *ik_body_group_name(ik_body_group group);

#ifdef __cplusplus
}
#endif
#endif

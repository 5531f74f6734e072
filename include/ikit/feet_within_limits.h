/* ikit feet within limits: a pose's legs and feet brought inside the rig's
 * limits after a footskate pass, the contacts it held kept (what
 * retargeting and the footskate clean-up run on every frame).
 *
 * glTF and BVH files carry no limits of their own: the rig's are
 * ik_humanoid_limits' defaults. In order, per leg:
 *   - a leg whose foot is not held keeps its knee within knee_max (the
 *     shin swung back) and its ankle within its range (the foot turned
 *     about the ankle); a held heel keeps its ankle above -ankle_down (toes
 *     turned up lift the ball off the floor, never into it), and a held
 *     virtual ankle (robot.glb's, held at the ankle itself) with no floor
 *     to keep within its whole range;
 *   - the foot turns onto the floor about its ankle unless its toe is held
 *     there (the turn would move it); a foot in the air rises instead where
 *     the turn would pass its limits;
 *   - seed 001's heel lift: a foot on the floor whose ankle bends up past
 *     ankle_up turns heel-up about the held toe (the ball's contact point
 *     without one), the leg solved to it; a foot on its held toe whose
 *     ankle points down past ankle_down turns heel-down about it (not a
 *     toe-less foot whose heel is held too: that would move the heel);
 *   - the toes are kept within toe_curl..toe_bend about their own joint and
 *     turned onto the floor.
 * The floor and the contacts come first: a flat foot under a shin leaning
 * further than the ankle's limit keeps the take's flexion (CMU 131_01
 * itself dorsiflexes 47 degrees against a limit of 25).
 *
 * Core layer: no allocation, builds for wasm32. Poses are in the rig's own
 * model space (no root above it).
 */
#ifndef IKIT_FEET_WITHIN_LIMITS_H
#define IKIT_FEET_WITHIN_LIMITS_H

#include <ikit/foot_contacts.h>
#include <ikit/humanoid.h>
#include <ikit/math.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the pass keeps: the rig (its limits), each leg's toe lift at rest
 * (ik_humanoid_leg_toe_lift of the rest pose, which the toes' limits are
 * measured from), the floor's height along the rig's up in its model space
 * (-HUGE_VAL: none, the joints' limits only; a clean-up's take does not
 * stand on the rest floor: a capture's feet stand 19-57 mm off it). */
typedef struct ik_feet_limits {
    const ik_humanoid *rig;
    ik_real toe_rest[2];
    ik_real floor;
} ik_feet_limits;

/* The rig's: rest_ms the rest pose's forward kinematics, the floor the
 * rig's rest floor (floor_rs). */
ik_feet_limits ik_feet_limits_make(const ik_humanoid *rig, const ik_mat4 *rest_ms);

/* Frame `frame`'s `pose` brought inside the limits as above. `held`
 * [count]: the contacts the pass held (only which points are held at the
 * frame is read). `lifted` [2] (may be NULL): whether each leg's heel
 * lifted off its spot (its contact then no longer holds it). model_ms:
 * scratch of the joint count; on return the pose's forward kinematics. */
void ik_feet_within_limits(const ik_feet_limits *limits, const ik_foot_contact *held, int count, int frame,
                           ik_transform *pose, ik_mat4 *model_ms, ik_bool lifted[2]);

#ifdef __cplusplus
}
#endif
#endif

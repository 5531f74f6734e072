/* ikit props: a hand or foot held at a fixed place and orientation on an
 * object (a staff, a box, a ladder rung) that moves and turns (seed 001's
 * "Hands or Feet").
 *
 * A grip stores the effector's pose in the prop's own frame once, when it
 * takes hold; every frame the target is recomputed from the grip and the
 * prop's current transform. Targets are never accumulated from the previous
 * frame's result, so nothing drifts however long the prop keeps moving (seed
 * 001: "I always store a target point"). Two hands on one staff are two grips
 * on the same prop and follow it together.
 */
#ifndef IKIT_PROP_H
#define IKIT_PROP_H

#include <ikit/math.h>
#include <ikit/result.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ik_prop_grip {
    ik_vec3 position_ps; /* effector position in the prop's frame (prop space) */
    ik_quat rotation_ps; /* effector rotation relative to the prop's rotation */
} ik_prop_grip;

/* Take hold: the grip that puts the effector at `position_ms` with rotation
 * `rotation_ms` while the prop is at `prop_ms` (its translation, rotation and
 * scale; scale must have no zero component). IK_ERR_NULL, IK_ERR_NONFINITE,
 * IK_ERR_DEGENERATE for a zero scale or rotation. */
ik_result ik_prop_grip_make(ik_transform prop_ms, ik_vec3 position_ms, ik_quat rotation_ms, ik_prop_grip *grip);

/* The grip's target for the prop at `prop_ms`: position = prop * position_ps,
 * rotation = prop.rotation * rotation_ps. Either output may be NULL.
 * IK_ERR_NULL for a NULL grip, IK_ERR_NONFINITE (outputs untouched). */
ik_result ik_prop_grip_target(const ik_prop_grip *grip, ik_transform prop_ms, ik_vec3 *position_ms,
                              ik_quat *rotation_ms);

#ifdef __cplusplus
}
#endif
#endif

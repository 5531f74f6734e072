/* ikit joint constraints, shared by every solver.
 *
 * A constraint limits a joint's LOCAL rotation (`rotation_ls`, the rotation of
 * its pose transform in the parent's frame). Limits are measured from a
 * reference rotation, normally the joint's rest local rotation: the joint's
 * rotation is written rotation_ls = reference_ls * delta, and the limits apply
 * to `delta`, a rotation expressed in the joint's own frame at the reference.
 * Axes are therefore given in the joint's own frame (for a bone, the
 * direction of its child's rest translation is the usual twist axis).
 *
 *   hinge       delta turns about `axis` only, by an angle in [min, max].
 *   cone_twist  delta = swing * twist (swing-twist split about `axis`):
 *               swing angle <= cone (the bone stays inside a cone about its
 *               reference direction) and twist angle in [min, max].
 *   euler       delta = Rz(e.z) Ry(e.y) Rx(e.x) (turn about x, then y, then z,
 *               all fixed axes of the reference frame) with each angle inside
 *               [euler_min, euler_max] per axis.
 *
 * Angles are radians. min/max ranges lie in [-pi, pi] (euler y in
 * [-pi/2, pi/2]); the cone angle in [0, pi].
 *
 * `ik_constraint_apply` projects a rotation into the allowed set; every
 * solver in ikit calls it on each constrained joint, so after any solve each
 * joint satisfies `ik_constraint_check`.
 */
#ifndef IKIT_CONSTRAINT_H
#define IKIT_CONSTRAINT_H

#include <ikit/math.h>
#include <ikit/result.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ik_constraint_type {
    IK_CONSTRAINT_NONE = 0,
    IK_CONSTRAINT_HINGE,
    IK_CONSTRAINT_CONE_TWIST,
    IK_CONSTRAINT_EULER
} ik_constraint_type;

typedef struct ik_constraint {
    ik_constraint_type type;
    ik_quat reference_ls;         /* limits are measured from this local rotation (unit) */
    ik_vec3 axis;                 /* hinge axis / twist (bone) axis, joint frame, unit */
    ik_real min_angle, max_angle; /* hinge angle range / twist range */
    ik_real cone_angle;           /* cone_twist: largest swing angle */
    ik_vec3 euler_min, euler_max; /* euler: per-axis ranges */
} ik_constraint;

/* No limit. */
ik_constraint ik_constraint_none(void);
/* A hinge about `axis` (normalised here) turning from min_angle to max_angle. */
ik_constraint ik_constraint_hinge(ik_quat reference_ls, ik_vec3 axis, ik_real min_angle, ik_real max_angle);
/* A cone of half-angle `cone_angle` about the bone `axis` (normalised here)
 * plus a twist range about the same axis. */
ik_constraint ik_constraint_cone_twist(ik_quat reference_ls, ik_vec3 axis, ik_real cone_angle, ik_real twist_min,
                                       ik_real twist_max);
/* Per-axis ranges for delta = Rz Ry Rx. */
ik_constraint ik_constraint_euler(ik_quat reference_ls, ik_vec3 euler_min, ik_vec3 euler_max);

/* IK_OK, or IK_ERR_NONFINITE (NaN/inf field), IK_ERR_DEGENERATE (zero axis
 * for hinge/cone_twist, zero reference rotation), IK_ERR_RANGE (bad type,
 * min > max, ranges or cone outside the bounds above). Solvers call it. */
ik_result ik_constraint_validate(const ik_constraint *constraint);

/* The nearest allowed local rotation to `rotation_ls` (unit). NULL or NONE
 * returns it unchanged.
 *   hinge:      the twist part about the axis (the closest rotation about it),
 *               its angle clamped to the range.
 *   cone_twist: swing angle clamped to the cone (same swing axis), twist
 *               clamped to its range.
 *   euler:      each angle of the Euler triple (y in [-pi/2, pi/2]) clamped;
 *               at gimbal lock (y = +-pi/2) x is taken as near 0 as its
 *               range allows and z carries the rest.
 * Angles outside a range go to the nearer end around the circle. */
ik_quat ik_constraint_apply(const ik_constraint *constraint, ik_quat rotation_ls);

/* 1 when `rotation_ls` is inside the limits, allowing `tolerance` radians on
 * every angle. NULL or NONE is always inside. */
ik_bool ik_constraint_check(const ik_constraint *constraint, ik_quat rotation_ls, ik_real tolerance);

/* A rotation inside the limits from three numbers `u` in [0, 1), each range
 * covered uniformly: a hinge angle min + u.x (max - min); a cone-twist swing
 * about the direction at angle 2 pi u.x around the axis (from
 * ik_vec3_any_perpendicular) by cone * u.y, times a twist min + u.z
 * (max - min); Euler angles min + u (max - min) per axis. NULL or NONE
 * gives the reference (identity for NULL). Solvers use it to restart from
 * a fresh pose inside the limits; tests to make reachable targets. */
ik_quat ik_constraint_sample(const ik_constraint *constraint, ik_vec3 u);

/* delta = reference^-1 rotation: the rotation the limits are measured on. */
ik_quat ik_constraint_delta(const ik_constraint *constraint, ik_quat rotation_ls);

/* Euler angles (x, y, z) with q = Rz(z) Ry(y) Rx(x), y in [-pi/2, pi/2]. */
ik_vec3 ik_euler_from_quat(ik_quat q);
/* Rz(e.z) Ry(e.y) Rx(e.x) */
ik_quat ik_quat_from_euler(ik_vec3 e);

/* Position-space helper: `direction` turned towards the unit `center` about
 * their common perpendicular until the angle between them is at most
 * `max_angle`; its length is kept. A zero direction stays zero; one opposite
 * to the centre turns about any perpendicular. */
ik_vec3 ik_direction_clamp_cone(ik_vec3 direction, ik_vec3 center, ik_real max_angle);

#ifdef __cplusplus
}
#endif
#endif

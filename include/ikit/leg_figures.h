/* ikit leg figures: what a clean-up or a retarget must not make worse,
 * measured on a whole take -- knees bent the wrong way, soles under the
 * floor, joints past the rig's limits.
 *
 * Core layer: no allocation (model_ms is the caller's), builds for wasm32.
 */
#ifndef IKIT_LEG_FIGURES_H
#define IKIT_LEG_FIGURES_H

#include <ikit/foot_contacts.h>
#include <ikit/humanoid.h>
#include <ikit/math.h>
#include <ikit/take.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A knee's bend about its hinge (radians), negative when bent the wrong
 * way: the angle between the bones u, v, its sign that of
 * (u x v) . (sgn(det M) M h), M the middle joint's matrix, h its hinge. */
ik_real ik_leg_knee_bend(const ik_humanoid_limb *leg, const ik_mat4 *model_ms);

/* Frames of `take` with a knee bent the wrong way by over 2 degrees
 * (model_ms: scratch of the skeleton's joint count). */
int ik_leg_knee_flip_frames(const ik_humanoid *rig, const ik_take *take, ik_mat4 *model_ms);

/* How deep leg k's lowest sole point (heel and ball in the foot's frame,
 * the toes' tip in the toe's) is under the rig's rest floor in one pose,
 * model units (negative: above it); -infinity for a leg without a foot. */
ik_real ik_leg_sole_depth(const ik_humanoid *rig, int leg, const ik_mat4 *model_ms);

/* The deepest any sole point goes below the rig's rest floor over the
 * take, model units (0 when none does; model_ms: scratch). */
ik_real ik_leg_deepest_sole(const ik_humanoid *rig, const ik_take *take, ik_mat4 *model_ms);

/* How far the take's joints go past the rig's limits
 * (ik_humanoid_angles_excess of each pose against the rest pose), radians:
 * each frame's into per_frame [frame_count] (may be NULL), the worst
 * returned (model_ms, rest_ms: scratch of the skeleton's joint count). */
ik_real ik_take_limits_excess(const ik_humanoid *rig, const ik_take *take, ik_mat4 *model_ms, ik_mat4 *rest_ms,
                              ik_real *per_frame);

/* What a retarget's result must not show, over a take (`ikc retarget`'s
 * checks). */
typedef struct ik_leg_figures {
    ik_real sink;   /* the deepest any sole point goes below the rig's rest floor, model units (0 when none) */
    int knee_flips; /* frames a knee (of a leg with a foot) bends the wrong way by over 2 degrees */
    /* the largest excess over the rig's limits (ik_humanoid_angles_excess of
     * each pose against the rest pose), radians: of any joint but the ankle
     * and toes of a grounded foot; and of those */
    ik_real beyond, beyond_grounded;
    const char *beyond_joint; /* which joint (ik_humanoid_angles_excess's name) for the larger, or NULL */
    int beyond_frame;         /* and in which frame, or -1 */
} ik_leg_figures;

/* The figures of `take` on `rig`: a foot is grounded in a frame when one of
 * contacts [contact_count] (ik_foot_contacts_run) holds it then, or when its
 * sole is within `grounded_depth` model units of the rest floor
 * (ik_leg_sole_depth > -grounded_depth); a grounded foot's ankle and toe
 * angles are counted apart (a foot on the ground may be turned further by
 * the ground than the limits let a foot in the air). model_ms, rest_ms:
 * scratch of the skeleton's joint count. IK_ERR_NULL, IK_ERR_RANGE (a take
 * of another joint count, a contact of a point outside IK_FOOT_CONTACT_POINTS)
 * or IK_ERR_NONFINITE (grounded_depth); *out is written only on IK_OK. */
ik_result ik_leg_figures_measure(const ik_humanoid *rig, const ik_take *take, const ik_foot_contact *contacts,
                                 int contact_count, ik_real grounded_depth, ik_mat4 *model_ms, ik_mat4 *rest_ms,
                                 ik_leg_figures *out);

#ifdef __cplusplus
}
#endif
#endif

/* ikit leg figures: what a clean-up or a retarget must not make worse,
 * measured on a whole take -- knees bent the wrong way, soles under the
 * floor, joints past the rig's limits.
 *
 * Core layer: no allocation (model_ms is the caller's), builds for wasm32.
 */
#ifndef IKIT_LEG_FIGURES_H
#define IKIT_LEG_FIGURES_H

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

#ifdef __cplusplus
}
#endif
#endif

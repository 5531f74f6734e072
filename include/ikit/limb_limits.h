/* ikit limb limits: a humanoid rig's limb limits written as constraints
 * (constraint.h), for solving a limb with a chain solver (CCD, FABRIK, the
 * Jacobian methods: ik_chain_solve) within the limits the rig's own
 * two-bone solve keeps:
 *   elbow / knee:   a hinge about the limb's hinge_axis_ls, the bend within
 *                   [elbow_min, elbow_max] / [knee_min, knee_max] of the
 *                   rig's limits, measured from straight (a constraint
 *                   measures from the rest rotation, so the rest bend is
 *                   taken off both ends);
 *   shoulder / hip: a cone of `cone` about the upper bone's rest direction,
 *                   twist within +-`twist` (the rig has no such limit; a
 *                   chain solver needs one to keep a natural pose);
 *   hand / ankle:   none. */
#ifndef IKIT_LIMB_LIMITS_H
#define IKIT_LIMB_LIMITS_H

#include <ikit/constraint.h>
#include <ikit/error.h>
#include <ikit/humanoid.h>
#include <ikit/result.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The playground's cones and twist (radians): 100 degrees at a shoulder, 90
 * at a hip, a twist of 60 either way. */
#define IK_LIMB_ARM_CONE ((ik_real)(100 * IK_PI / 180))
#define IK_LIMB_LEG_CONE ((ik_real)(90 * IK_PI / 180))
#define IK_LIMB_TWIST ((ik_real)(60 * IK_PI / 180))

/* The constraints of limb `limb` (ik_limb) of `rig`, for its [start, mid,
 * end] joints, into out [3]. The rest bend is the signed angle about
 * hinge_axis_ls from the upper bone's direction to the lower bone's, both
 * in the middle joint's rest frame: atan2((u x l) . h, u . l), u the middle
 * joint's rest translation turned back by its rest rotation, l the end's
 * rest translation. Returns IK_ERR_NULL, IK_ERR_RANGE (limb outside 0 ..
 * IK_LIMB_COUNT - 1, cone outside (0, pi], twist outside [0, pi]),
 * IK_ERR_NONFINITE (cone or twist) or IK_ERR_UNSUPPORTED (a limb ending in
 * a virtual joint: no end joint to solve), with a message in *error (may be
 * NULL); out is written only on IK_OK. */
ik_result ik_limb_limits_make(const ik_humanoid *rig, int limb, ik_real cone, ik_real twist, ik_constraint out[3],
                              ik_error *error);

#ifdef __cplusplus
}
#endif
#endif

/* ikit springs and comfort ranges for the iterative (Jacobian) solvers.
 *
 * Seed 002 gives each joint "springyness": a pull toward a preferred angle
 * that spreads a bend evenly along a tail, stiffer near the root and looser
 * at the tip; and a comfortable range of movement with no spring inside it,
 * growing resistance outside it, and a hard limit the joint never passes.
 *
 * One ik_spring describes one rotational degree of freedom (one axis of an
 * ik_jacobian_joint). Its angle is measured from the skeleton's rest pose:
 * the component along the axis of the rotation vector of rest^-1 * pose
 * (ik_spring_angle); for a hinge that only ever turns about its axis this is
 * exactly the hinge angle.
 *
 * A plain spring toward a rest angle r is the comfort range [r, r].
 */
#ifndef IKIT_SPRING_H
#define IKIT_SPRING_H

#include <ikit/math.h>
#include <ikit/result.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ik_spring {
    /* Fraction of the distance to the comfort range the spring removes per
     * solver iteration, before the growth toward the hard limit; >= 0
     * (0: no spring, 1: snaps back in one step). */
    ik_real stiffness;
    /* No force while comfort_min <= angle <= comfort_max (radians). */
    ik_real comfort_min, comfort_max;
    /* Hard limits (radians): the solver clamps the angle into them.
     * limit_min <= comfort_min <= comfort_max <= limit_max. */
    ik_real limit_min, limit_max;
} ik_spring;

/* A spring of stiffness 0, comfort range [0, 0] and limits [-pi, pi] (no limit). */
ik_spring ik_spring_make(void);
/* A spring of `stiffness` toward the angle `rest`, no limits. */
ik_spring ik_spring_toward(ik_real rest, ik_real stiffness);
/* A comfort range with growing resistance outside it up to hard limits. */
ik_spring ik_spring_comfort(ik_real comfort_min, ik_real comfort_max, ik_real limit_min, ik_real limit_max,
                            ik_real stiffness);

/* IK_OK, IK_ERR_NONFINITE, or IK_ERR_RANGE when the ordering
 * limit_min <= comfort_min <= comfort_max <= limit_max or stiffness >= 0 fails. */
ik_result ik_spring_validate(const ik_spring *spring);

/* The signed angle change the spring asks for in one iteration at `angle`:
 * 0 inside the comfort range; outside it, with d the distance past the
 * nearer comfort edge and room the distance from that edge to the hard
 * limit, -sign(d) * min(|d|, stiffness * |d| / (1 - |d| / room)): a linear
 * pull near the edge that grows without bound at the limit, and never
 * overshoots back past the edge. */
ik_real ik_spring_step(const ik_spring *spring, ik_real angle);

/* Angle of a local rotation `pose_ls` about the unit `axis_ls` measured from
 * `rest_ls`: axis . rotation_vector(rest^-1 * pose), in [-pi, pi]. */
ik_real ik_spring_angle(ik_quat rest_ls, ik_quat pose_ls, ik_vec3 axis_ls);

/* `pose_ls` turned about its own unit `axis_ls` so that its angle (as
 * ik_spring_angle measures it) lies in [limit_min, limit_max]. */
ik_quat ik_spring_clamp(const ik_spring *spring, ik_quat rest_ls, ik_quat pose_ls, ik_vec3 axis_ls);

/* Seed 002's tail: stiffness falling linearly from `root_stiffness` at
 * springs[0] to `tip_stiffness` at springs[count - 1]. */
void ik_spring_taper(ik_spring *springs, int count, ik_real root_stiffness, ik_real tip_stiffness);

#ifdef __cplusplus
}
#endif
#endif

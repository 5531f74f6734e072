/* The humanoid's limbs each solved by a solver picked on the page
 * (web/body_limbs.c). Called by the page's C API (web/ikit_web.c), which
 * hands in the figure's rig; this part calls nothing of the glue's. */
#ifndef IKIT_WEB_BODY_LIMBS_H
#define IKIT_WEB_BODY_LIMBS_H

#include <ikit/constraint.h>
#include <ikit/humanoid.h>
#include <ikit/math.h>

/* Each limb's solver (the page's menu, in this order). */
typedef enum ikw_limb_method {
    IKW_LIMB_TWO_BONE, /* the rig's own closed-form solve */
    IKW_LIMB_FABRIK,
    IKW_LIMB_CCD,
    IKW_LIMB_DLS,
    IKW_LIMB_METHODS
} ikw_limb_method;

/* Per limb: the middle joint (3), the model-space hinge (3), the upper bone's
 * direction (3), the bend's min and max (radians, 0 straight), the upper
 * bone's length, the start joint (3), the cone's axis (3) and half-angle,
 * the limb's method. */
enum { IKW_LIMIT_FLOATS = 20 };

/* Pick limb `limb`'s solver for the figure `rig` (NULL: none loaded); on
 * refusal *why says why. */
ik_result ikw_limbs_pick(const ik_humanoid *rig, int limb, int method, const char **why);
/* The solver limb `limb` takes now: its pick, or the rig's own where the
 * figure's limb ends in a virtual joint. */
int ikw_limb_solver_now(const ik_humanoid *rig, int limb);
void ikw_limb_constraints(const ik_humanoid *rig, int limb, ik_constraint out[3]); /* [start, mid, end] */
ik_result ikw_limbs_solve(const ik_humanoid *rig, ik_transform *pose_ls, ik_mat4 *model_ms, const ik_mat4 *root_ms,
                          const ik_humanoid_goal *goals, ik_humanoid_report *report);
void ikw_limbs_store(const ik_humanoid *rig, const ik_mat4 *model_ms, const ik_mat4 *root_ms);
/* The limits as drawn (IKW_LIMIT_FLOATS per limb) at the stored pose, for
 * the figure loaded now (`current`; NULL: none, the last numbers stay). */
const float *ikw_limbs_draw(const ik_humanoid *current);

#endif

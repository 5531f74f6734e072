/* Helpers shared by the batch tests (test_two_bone_batch, test_aim_batch):
 * comparing a batch's rotations with the single solver's, and the random
 * parents' scales. */
#ifndef IKIT_TEST_BATCH_CHECK_H
#define IKIT_TEST_BATCH_CHECK_H

#include <ikit/math.h>

#include "rng.h"

/* q and p the same rotation (either sign) within tol per component. */
static inline ik_bool same_rotation(ik_quat q, ik_quat p, ik_real tol) {
    ik_real plus =
        ik_maxr(ik_maxr(IK_FABS(q.x - p.x), IK_FABS(q.y - p.y)), ik_maxr(IK_FABS(q.z - p.z), IK_FABS(q.w - p.w)));
    ik_real minus =
        ik_maxr(ik_maxr(IK_FABS(q.x + p.x), IK_FABS(q.y + p.y)), ik_maxr(IK_FABS(q.z + p.z), IK_FABS(q.w + p.w)));
    return ik_minr(plus, minus) <= tol;
}

/* q finite and of unit length within rounding. */
static inline ik_bool quat_finite_unit(ik_quat q) {
    return ik_quat_finite(q) && IK_FABS(ik_quat_dot(q, q) - 1) <= 64 * IK_REAL_EPSILON;
}

/* A uniform scale s drawn in 0.5 to 2 (returned in *s), mirrored when
 * `mirror`: on one axis in a third of the draws, on all three in another
 * third. */
static inline ik_vec3 rng_parent_scale(rng *r, ik_bool mirror, ik_real *s) {
    int kind;
    *s = rng_range(r, 0.5, 2);
    kind = mirror ? (int)(rng_unit(r) * 3) : 0;
    return kind == 1 ? ik_v3(-*s, *s, *s) : kind == 2 ? ik_v3(-*s, -*s, -*s) : ik_v3(*s, *s, *s);
}

#endif

/* ikit solve, private: how the two-bone solvers finish a rotation, shared
 * by the single job (two_bone.c) and the in-place batch
 * (two_bone_in_place.c), so both give the same bits. */
#ifndef IKIT_ROTATION_PRODUCT_H
#define IKIT_ROTATION_PRODUCT_H

#include <ikit/math.h>

/* A product of rotations (old local * correction) whose squared norm is
 * `sq` can be normalised when sq is a normal number: not zero, subnormal,
 * infinite or NaN. A zero or non-finite input rotation makes it fail. */
static inline ik_bool rotation_product_usable(ik_real sq) { return sq >= IK_REAL_MIN && sq <= IK_REAL_MAX; }

/* q / |q| for q . q = sq (rotation_product_usable(sq)). */
static inline ik_quat rotation_product_unit(ik_quat q, ik_real sq) {
    ik_real k = 1 / IK_SQRT(sq);
    return ik_q(q.x * k, q.y * k, q.z * k, q.w * k);
}

#endif

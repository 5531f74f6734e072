/* ikit solve, private: the limb sizes two-bone IK solves directly, shared
 * by the single job (two_bone.c) and the batch (two_bone_batch_lanes.h). */
#ifndef IKIT_TWO_BONE_SIZES_H
#define IKIT_TWO_BONE_SIZES_H

/* The limb sizes (l1 + l2) the solve takes directly: the squared norm of
 * its unnormalised turns grows as the sixth power of the size (the twist's
 * length is about |k||r| g with k and r of sizes l^2 and l), so beyond
 * these, in both directions, the single job first scales the problem by a
 * power of two (solve_rescaled(), exact) and the batch hands the limb to
 * it. A pole further than LIMB_SIZE_MAX from the start joint is brought in
 * along its direction. */
#ifdef IKIT_DOUBLE
#define LIMB_SIZE_MIN 0x1p-120
#define LIMB_SIZE_MAX 0x1p120
#else
#define LIMB_SIZE_MIN 0x1p-16f
#define LIMB_SIZE_MAX 0x1p16f
#endif

#endif

/* The ozz-animation side of bench_two_bone and bench_aim (ozz_peer.cpp,
 * built only when CMake is given -DIKIT_OZZ_DIR, the path to ozz's source,
 * whose libraries are built in IKIT_OZZ_BUILD_DIR; float builds only, as
 * ozz is float). ozz's code stays outside this repository: only this
 * wrapper, which fills and runs its IKTwoBoneJob and IKAimJob, is ours.
 * Plain C types, so the C benchmarks call it. */
#ifndef IKIT_BENCH_OZZ_PEER_H
#define IKIT_BENCH_OZZ_PEER_H

#include <ikit/math.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A limb of the user-shaped two-bone case: the three joints' model-space
 * matrices (16-byte aligned, so that ozz reads them as its Float4x4 in
 * place), the local rotations ikit updates, the target, and the pole as
 * each library takes it: a point for ikit, a direction from the start joint
 * for ozz (its pole_vector). */
typedef struct peer_limb {
    ik_mat4 start_ms, mid_ms, end_ms;
    ik_quat start_rotation_ls, mid_rotation_ls;
    ik_vec3 target_ms, pole_ms, pole_from_start_ms;
} __attribute__((aligned(16))) peer_limb;

/* A head of the user-shaped aim case; the pole is a direction for both. */
typedef struct peer_head {
    ik_mat4 joint_ms;
    ik_quat rotation_ls;
    ik_vec3 target_ms, pole_ms;
} __attribute__((aligned(16))) peer_head;

/* ozz's own copy of the local rotations it corrects, one per limb joint. */
typedef struct ozz_rotations ozz_rotations;

/* `count` identity rotations (NULL when out of memory); set each with
 * ozz_rotation_set. */
ozz_rotations *ozz_rotations_new(int count);
void ozz_rotation_set(ozz_rotations *r, int i, ik_quat q);
void ozz_rotations_free(ozz_rotations *r);

/* One pass over the limbs as a game calls ozz: an IKTwoBoneJob filled
 * (target, pole_vector, the three joints; mid_axis, soften, weight and twist
 * at their defaults) and run for each, and its corrections multiplied into
 * the limb's local rotations (start, mid) in `rotations`. Returns how many
 * runs failed. */
int ozz_two_bone_pass(const peer_limb *limbs, int count, ozz_rotations *rotations);

/* One pass over the heads: an IKAimJob filled (target, forward +Z, up +Y,
 * `offset`, pole_vector, the joint) and run for each, its correction
 * multiplied into the head's rotation in `rotations`. */
int ozz_aim_pass(const peer_head *heads, int count, ik_vec3 offset, ozz_rotations *rotations);

/* The w of rotation i (a checksum, so the work is kept). */
float ozz_rotation_w(const ozz_rotations *r, int i);

#ifdef __cplusplus
}
#endif

#endif

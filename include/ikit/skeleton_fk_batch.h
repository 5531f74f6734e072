/* ikit batch forward kinematics: many poses of one skeleton (a crowd) in
 * one call, four poses at a time (SSE2 lanes in the float build on x86-64;
 * plain scalar code in the double build, on WebAssembly and elsewhere).
 * Each pose's model matrices are those ik_skeleton_fk gives it (the same
 * formulas in the same order: to rounding, and bit for bit where the
 * compiler fuses no multiply-adds).
 */
#ifndef IKIT_SKELETON_FK_BATCH_H
#define IKIT_SKELETON_FK_BATCH_H

#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/skeleton.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Forward kinematics of `count` poses of `skeleton`, laid end to end: pose
 * c is poses_ls[c * joint_count .. (c + 1) * joint_count - 1], its model
 * matrices go to the same places of models_ms, and its roots hang under
 * roots_ms[c] (roots_ms NULL: the identity for every pose). Returns
 * IK_ERR_NULL for a missing skeleton or array (with count > 0), IK_ERR_RANGE
 * for a negative count; then nothing is written. Like ik_skeleton_fk it
 * does not check the poses: NaN in, NaN out. */
ik_result ik_skeleton_fk_batch(const ik_skeleton *skeleton, int count, const ik_transform *poses_ls,
                               const ik_mat4 *roots_ms, ik_mat4 *models_ms);

/* The same for joints first_joint .. last_joint - 1 only (a limb's subtree
 * after its joints turned, when its parents' model matrices are already
 * up to date): the other joints' matrices are read, not written. Also
 * IK_ERR_RANGE for a range outside 0 .. joint_count. */
ik_result ik_skeleton_fk_batch_range(const ik_skeleton *skeleton, int first_joint, int last_joint, int count,
                                     const ik_transform *poses_ls, const ik_mat4 *roots_ms, ik_mat4 *models_ms);

#ifdef __cplusplus
}
#endif
#endif

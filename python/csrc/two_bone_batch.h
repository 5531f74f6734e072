/* The Python package's batch two-bone call: the limbs of arrays in one call
 * from Python, by ik_two_bone_batch_run where the options allow (no hinge,
 * no extra twist, full weight), else one ik_two_bone_run per limb. */
#ifndef IKPY_TWO_BONE_BATCH_H
#define IKPY_TWO_BONE_BATCH_H

#include <ikit/two_bone.h>

/* Solve `count` limbs with the options of `options` (an ik_two_bone_def()
 * job whose pointers and target are ignored): limb i's joints are
 * start_ms[i], mid_ms[i], end_ms[i], its target targets_ms[i], its pole
 * poles_ms[i] when poles_ms is not NULL (options->use_pole is then set), and
 * its rotations start_rotation_ls[i], mid_rotation_ls[i] are solved in
 * place (by the batch job: old * correction, normalised, which is
 * ik_two_bone_run's answer to rounding). reached and residual [count] may
 * be NULL. Stops at the first limb whose solve fails: returns its index
 * with its code in *failure (limbs before it are solved, it and those
 * after are untouched); returns -1 when every limb solved. */
int ikpy_two_bone_batch(const ik_two_bone *options, int count, const ik_mat4 *start_ms, const ik_mat4 *mid_ms,
                        const ik_mat4 *end_ms, const ik_vec3 *targets_ms, const ik_vec3 *poles_ms,
                        ik_quat *start_rotation_ls, ik_quat *mid_rotation_ls, ik_bool *reached, ik_real *residual,
                        ik_result *failure);

#endif

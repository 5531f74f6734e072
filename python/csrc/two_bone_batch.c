/* The Python package's batch two-bone loop (two_bone_batch.h). */
#include "two_bone_batch.h"

#include <stddef.h>

int ikpy_two_bone_batch(const ik_two_bone *options, int count, const ik_mat4 *start_ms, const ik_mat4 *mid_ms,
                        const ik_mat4 *end_ms, const ik_vec3 *targets_ms, const ik_vec3 *poles_ms,
                        ik_quat *start_rotation_ls, ik_quat *mid_rotation_ls, ik_bool *reached,
                        ik_real *residual, ik_result *failure) {
    ik_two_bone job = *options;
    int i;
    job.use_pole = poles_ms != NULL ? 1 : options->use_pole;
    job.keep_end_rotation = 0;
    job.end_rotation_ls = NULL;
    *failure = IK_OK;
    for (i = 0; i < count; ++i) {
        ik_result r;
        job.start_ms = &start_ms[i];
        job.mid_ms = &mid_ms[i];
        job.end_ms = &end_ms[i];
        job.target_ms = targets_ms[i];
        if (poles_ms != NULL) job.pole_ms = poles_ms[i];
        job.start_rotation_ls = &start_rotation_ls[i];
        job.mid_rotation_ls = &mid_rotation_ls[i];
        job.reached = reached != NULL ? &reached[i] : NULL;
        job.residual = residual != NULL ? &residual[i] : NULL;
        r = ik_two_bone_run(&job);
        if (r != IK_OK) {
            *failure = r;
            return i;
        }
    }
    return -1;
}

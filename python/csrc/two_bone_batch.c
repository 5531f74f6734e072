/* The Python package's batch two-bone call (two_bone_batch.h). */
#include "two_bone_batch.h"

#include <ikit/two_bone_batch.h>

#include <stddef.h>

/* Limbs per ik_two_bone_batch_run call: a multiple of the batch's eight
 * lanes, small enough for the corrections to sit on the stack. */
#define IKPY_CHUNK 256

/* One ik_two_bone_run per limb, from `first` on. */
static int solve_one_by_one(ik_two_bone job, int first, int count, const ik_mat4 *start_ms, const ik_mat4 *mid_ms,
                            const ik_mat4 *end_ms, const ik_vec3 *targets_ms, const ik_vec3 *poles_ms,
                            ik_quat *start_rotation_ls, ik_quat *mid_rotation_ls, ik_bool *reached, ik_real *residual,
                            ik_result *failure) {
    int i;
    for (i = first; i < count; ++i) {
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

/* old * correction, normalised as ik_two_bone_run normalises its products;
 * 0 (nothing written) where the product's squared norm is not a normal
 * number (a zero or non-finite old rotation). */
static ik_bool apply_correction(ik_quat *rotation_ls, ik_quat correction) {
    ik_quat turned = ik_quat_mul(*rotation_ls, correction);
    ik_real sq = ik_quat_dot(turned, turned), k;
    if (!(sq >= IK_REAL_MIN && sq <= IK_REAL_MAX)) return 0;
    k = 1 / IK_SQRT(sq);
    *rotation_ls = ik_q(turned.x * k, turned.y * k, turned.z * k, turned.w * k);
    return 1;
}

static ik_bool quat_finite(ik_quat q) { return ik_finite(q.x + q.y + q.z + q.w); }

/* Without a hinge or an extra twist and at full weight, the limbs are the
 * batch job's (ik_two_bone_batch_run, IKPY_CHUNK at a time): it gives each
 * limb's corrections, and the new rotations are old * correction. The
 * batch reads no input rotation, so a limb whose rotations cannot be
 * turned fails here as ik_two_bone_run fails it: IK_ERR_NONFINITE for NaN
 * or infinity, IK_ERR_DEGENERATE for a zero rotation. */
int ikpy_two_bone_batch(const ik_two_bone *options, int count, const ik_mat4 *start_ms, const ik_mat4 *mid_ms,
                        const ik_mat4 *end_ms, const ik_vec3 *targets_ms, const ik_vec3 *poles_ms,
                        ik_quat *start_rotation_ls, ik_quat *mid_rotation_ls, ik_bool *reached, ik_real *residual,
                        ik_result *failure) {
    ik_two_bone job = *options;
    ik_two_bone_batch batch = ik_two_bone_batch_def();
    int first;
    job.use_pole = poles_ms != NULL ? 1 : options->use_pole;
    job.keep_end_rotation = 0;
    job.end_rotation_ls = NULL;
    *failure = IK_OK;
    if (job.use_hinge || job.twist != 0 || !(job.weight >= 1) || (job.use_pole && poles_ms == NULL))
        return solve_one_by_one(job, 0, count, start_ms, mid_ms, end_ms, targets_ms, poles_ms, start_rotation_ls,
                                mid_rotation_ls, reached, residual, failure);
    batch.soften = job.soften;
    batch.reach_tolerance = job.reach_tolerance;
    for (first = 0; first < count; first += IKPY_CHUNK) {
        ik_quat start_correction[IKPY_CHUNK], mid_correction[IKPY_CHUNK];
        ik_bool chunk_reached[IKPY_CHUNK];
        ik_real chunk_residual[IKPY_CHUNK];
        ik_result status[IKPY_CHUNK];
        int i, n = count - first < IKPY_CHUNK ? count - first : IKPY_CHUNK;
        batch.count = n;
        batch.start_ms = &start_ms[first];
        batch.mid_ms = &mid_ms[first];
        batch.end_ms = &end_ms[first];
        batch.target_ms = &targets_ms[first];
        batch.pole_ms = poles_ms != NULL ? &poles_ms[first] : NULL;
        batch.start_correction_ls = start_correction;
        batch.mid_correction_ls = mid_correction;
        batch.reached = chunk_reached;
        batch.residual = chunk_residual;
        batch.status = status;
        ik_two_bone_batch_run(&batch);
        for (i = 0; i < n; ++i) {
            ik_quat *start = &start_rotation_ls[first + i], *mid = &mid_rotation_ls[first + i];
            ik_quat start_before = *start;
            if (status[i] == IK_OK &&
                !(apply_correction(start, start_correction[i]) && apply_correction(mid, mid_correction[i]))) {
                *start = start_before;
                status[i] = IK_ERR_DEGENERATE;
            }
            if (status[i] == IK_ERR_DEGENERATE && !(quat_finite(*start) && quat_finite(*mid)))
                status[i] = IK_ERR_NONFINITE;
            if (status[i] != IK_OK) {
                if (reached != NULL) reached[first + i] = 0;
                *failure = status[i];
                return first + i;
            }
            if (reached != NULL) reached[first + i] = chunk_reached[i];
            if (residual != NULL) residual[first + i] = chunk_residual[i];
        }
    }
    return -1;
}

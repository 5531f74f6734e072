/* ikit io: a read skeleton's names checked with the caller-scratch check of
 * ik_skeleton_init_scratch, and its rest pose composed down the hierarchy
 * must stay finite. */
#include "rest_check.h"

#include <math.h>
#include <stdlib.h>

ik_result ik_io_skeleton_init(ik_skeleton *skeleton, int joint_count, const int *parents, const char *const *names,
                              const ik_transform *rest_ls, ik_error *error) {
    int *scratch = joint_count > 0 ? (int *)malloc(2 * (size_t)joint_count * sizeof *scratch) : NULL;
    ik_result r;
    if (!scratch && joint_count > 0) {
        ik_error_clear(error);
        ik_error_set(error, 0, 0, -1, "out of memory");
        return IK_ERR_NO_MEMORY;
    }
    r = ik_skeleton_init_scratch(skeleton, joint_count, parents, names, rest_ls, scratch, error);
    free(scratch);
    return r;
}

/* Scalar bounds on forward kinematics, parents first. A model matrix is
 * [A c; 0 1]; a joint's is its parent's times its local T(t) R(q) S(s), so
 *   A_j = A_p R S,   c_j = c_p + A_p t,
 * and in the 2-norm ||A_j|| <= ||A_p|| ||R|| max|s| (mirrored axes count by
 * their size) and |c_j| <= |c_p| + ||A_p|| |t|: rotations do not grow
 * lengths. ||R||: ik_mat4_from_trs builds from q of length l the matrix
 * l^2 R(q / l) + (1 - l^2) I, of 2-norm at most rho = l^2 + |1 - l^2| (1 for
 * a unit q). Above the roots stands root_ms's 3x3 part A: ||A||^2 is the
 * largest eigenvalue of A^T A, at most A^T A's largest row sum of magnitudes
 * (as any induced norm bounds the spectral radius), which is exact for a
 * rotation times a scale; and its translation, at most its 1-norm long
 * (|t| too is bounded by its 1-norm: no square to overflow).
 * Rounding: each entry of the local 3x3 part is computed to within about
 * 10 u rho max|s| (u = IK_REAL_EPSILON / 2), so its 2-norm (at most its
 * Frobenius norm) to within 15 eps rho max|s|; a product of 3x3 parts errs by
 * at most gamma_3 |A_p| |L| entrywise, 3 gamma_3 ||A_p|| ||L|| in the 2-norm
 * (Higham, "Accuracy and Stability of Numerical Algorithms", 3.5); a
 * translation by at most gamma_4 sqrt(3) (|c_p| + ||A_p|| |t|). So growing
 * stretch by 32 eps and reach by 8 eps a joint covers the computed matrices
 * (and this file's own rounding, in double), however deep the chain. Every
 * entry of a matrix, and every partial sum forward kinematics forms, is at
 * most the joint's stretch, reach or its local matrix's bound, so bounds
 * below IK_REAL_MAX / 4 prove every joint finite. */
#define STRETCH_SLACK (1 + 32 * (double)IK_REAL_EPSILON)
#define REACH_SLACK (1 + 8 * (double)IK_REAL_EPSILON)
#define BOUND_LIMIT ((double)IK_REAL_MAX / 4)

/* (A^T A)_ij for root_ms's 3x3 part A: the dot product of its columns i, j. */
static double column_dot(const ik_mat4 *a, int i, int j) {
    const ik_real *x = a->m + 4 * i, *y = a->m + 4 * j;
    return (double)x[0] * y[0] + (double)x[1] * y[1] + (double)x[2] * y[2];
}

static double abs_sum(ik_vec3 v) { return fabs((double)v.x) + fabs((double)v.y) + fabs((double)v.z); }

int ik_io_rest_bound(const ik_skeleton *skeleton, const ik_mat4 *root_ms, double *stretch_ms, double *reach_ms) {
    double root_stretch = 1, root_reach = 0;
    int i, j;
    if (root_ms) {
        double widest = 0;
        for (i = 0; i < 3; ++i) {
            double row = 0;
            for (j = 0; j < 3; ++j) row += fabs(column_dot(root_ms, i, j));
            widest = fmax(widest, row);
        }
        root_stretch = sqrt(widest) * STRETCH_SLACK;
        root_reach = abs_sum(ik_mat4_translation(root_ms));
        if (!(root_stretch <= BOUND_LIMIT && root_reach <= BOUND_LIMIT)) return skeleton->joint_count > 0 ? 0 : -1;
    }
    for (j = 0; j < skeleton->joint_count; ++j) {
        const ik_transform *local = &skeleton->rest_ls[j];
        int p = skeleton->parents[j];
        double above_stretch = p >= 0 ? stretch_ms[p] : root_stretch, above_reach = p >= 0 ? reach_ms[p] : root_reach;
        double length_sq = (double)ik_quat_dot(local->rotation, local->rotation);
        double scale =
            fmax(fabs((double)local->scale.x), fmax(fabs((double)local->scale.y), fabs((double)local->scale.z)));
        double local_stretch = (length_sq + fabs(1 - length_sq)) * scale * STRETCH_SLACK;
        stretch_ms[j] = above_stretch * local_stretch;
        reach_ms[j] = (above_reach + above_stretch * abs_sum(local->translation)) * REACH_SLACK;
        if (!(local_stretch <= BOUND_LIMIT && stretch_ms[j] <= BOUND_LIMIT && reach_ms[j] <= BOUND_LIMIT)) return j;
    }
    return -1;
}

int ik_io_rest_overflow(const ik_skeleton *skeleton, const ik_mat4 *root_ms) {
    double *bounds = (double *)malloc(2 * ((size_t)skeleton->joint_count + 1) * sizeof *bounds);
    ik_mat4 *model_ms;
    int i;
    if (!bounds) return -2;
    i = ik_io_rest_bound(skeleton, root_ms, bounds, bounds + skeleton->joint_count + 1);
    free(bounds);
    if (i < 0) return -1;
    model_ms = (ik_mat4 *)malloc(((size_t)skeleton->joint_count + 1) * sizeof *model_ms);
    if (!model_ms) return -2;
    /* model(j) = model(parent(j)) local(j), model(root) = root_ms local(root) */
    ik_skeleton_fk(skeleton, skeleton->rest_ls, root_ms, model_ms);
    for (i = 0; i < skeleton->joint_count; ++i)
        if (!ik_mat4_finite(&model_ms[i])) break;
    free(model_ms);
    return i < skeleton->joint_count ? i : -1;
}

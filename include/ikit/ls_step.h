/* ikit least-squares steps: one step of the Jacobian transpose, gradient
 * descent, damped least squares (DLS) or selectively damped least squares
 * (SDLS) toward an error e over a plain Jacobian J, and the null-space
 * projection of a secondary objective. ik_jacobian_run iterates these over
 * a skeleton; a solver over any other kinematic model (a robot arm's
 * joints) builds its own J and e and takes the same steps.
 *
 * J is rows x cols, column-major: jac[c * rows + r], one column per joint
 * axis, the order in which a Jacobian is built (axis by axis: a x (s - p)
 * for a position row block, a for an orientation block; Buss 2004), and in
 * which a limit locks an axis (by zeroing its column). A step dq has cols
 * entries, an error e rows entries. Rows may be pre-scaled by the square
 * root of a weight (the caller's task weights). SDLS groups rows in blocks
 * of 3 (one effector's position or orientation), so its rows must be a
 * multiple of 3.
 *
 * Nothing allocates: each method states the bytes of scratch it needs
 * (aligned for ik_real), which hold its factorisation between the calls
 * that share it (factor once, then solve for several errors).
 */
#ifndef IKIT_LS_STEP_H
#define IKIT_LS_STEP_H

#include <stddef.h>

#include <ikit/math.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The Jacobian of a linear model e ~ J dq, in caller memory. */
typedef struct ik_ls {
    const ik_real *jac; /* rows x cols, column-major */
    int rows;           /* >= 0 */
    int cols;           /* >= 0 */
} ik_ls;

/* out[rows] = J v[cols] */
void ik_ls_mul_j(const ik_ls *ls, const ik_real *v, ik_real *out);
/* out[cols] = J^T v[rows] */
void ik_ls_mul_jt(const ik_ls *ls, const ik_real *v, ik_real *out);
/* sum a_i b_i over n entries */
ik_real ik_ls_dot(const ik_real *a, const ik_real *b, int n);
/* max |v_i| (0 for n = 0) */
ik_real ik_ls_max_abs(const ik_real *v, int n);
/* Buss & Kim's ClampMaxAbs: scale v so no |v_i| exceeds `limit`. */
void ik_ls_clamp_max_abs(ik_real *v, int n, ik_real limit);

/* Transpose (Buss 2004, section 4): dq = alpha J^T e, alpha = <e, J J^T e> /
 * |J J^T e|^2, the step along J^T e that minimises |e - J dq|; zero when
 * J J^T e = 0. */
size_t ik_ls_transpose_scratch_size(int rows, int cols);
void ik_ls_transpose_step(const ik_ls *ls, const ik_real *e, void *scratch, ik_real *dq);

/* Gradient descent on |e|^2 / 2 (seed 003): dq = rate J^T e / |J|_F^2,
 * which lowers the linearised error for any rate in (0, 2); zero when
 * J = 0. No scratch. */
void ik_ls_gradient_step(const ik_ls *ls, const ik_real *e, ik_real rate, ik_real *dq);

/* Error-adaptive DLS damping (Sugihara 2011, Levenberg-Marquardt):
 * lambda^2 = |e|^2 / 2 + IK_LS_DLS_BIAS * scale^2, scale the model's length
 * (a chain's reach), so e and scale are lengths like the entries of J. */
#define IK_LS_DLS_BIAS ((ik_real)1e-6)
ik_real ik_ls_dls_adaptive_damping_sq(const ik_real *e, int rows, ik_real scale);

/* DLS (Buss 2004, section 5): dq = J^T (J J^T + lambda^2 I)^-1 e, which
 * equals (J^T J + lambda^2 I)^-1 J^T e. ik_ls_dls_factor factors
 * J J^T + (lambda^2 + 16 eps trace(J J^T)) I into scratch (the relative
 * epsilon keeps lambda = 0 solvable away from exact singularities) and
 * returns 0 when that fails (non-finite J); ik_ls_dls_solve then takes one
 * error per call. */
size_t ik_ls_dls_scratch_size(int rows, int cols);
ik_bool ik_ls_dls_factor(const ik_ls *ls, ik_real damping_sq, void *scratch);
void ik_ls_dls_solve(const ik_ls *ls, void *scratch, const ik_real *e, ik_real *dq);
/* z -= J^+ J z, with J^+ = J^T (J J^T + mu I)^-1 and mu a rounding-level
 * fraction of the trace (an undamped pseudo-inverse, whose eigenvalues
 * sigma^2 / (sigma^2 + mu) stay in [0, 1] at singularities): z moves the
 * model only to second order afterwards. Overwrites the DLS factor in
 * scratch; z is left as it was when the factorisation fails. */
void ik_ls_dls_project_null(const ik_ls *ls, void *scratch, ik_real *z);

/* SDLS (Buss & Kim 2005): with J = U diag(sigma) V^T, each singular
 * direction's step sigma_i^-1 (u_i . e) v_i is clamped to its own
 * gamma_i = gamma_max min(1, N_i / M_i), N_i = sum over 3-row blocks l of
 * |u_i on l|, M_i = sigma_i^-1 sum_j |v_ji| sum_l |J block (l, j)|, and
 * the steps are summed (the caller clamps the sum by gamma_max with
 * ik_ls_clamp_max_abs). ik_ls_sdls_decompose computes the SVD into
 * scratch; ik_ls_sdls_solve then takes one error per call, and
 * ik_ls_sdls_project_null removes from z its part along the right
 * singular vectors with sigma_i > 0. Singular values under 64 eps sigma_max
 * count as zero. */
size_t ik_ls_sdls_scratch_size(int rows, int cols);
void ik_ls_sdls_decompose(const ik_ls *ls, void *scratch);
void ik_ls_sdls_solve(const ik_ls *ls, const void *scratch, const ik_real *e, ik_real gamma_max, ik_real *dq);
void ik_ls_sdls_project_null(const ik_ls *ls, const void *scratch, ik_real *z);

#ifdef __cplusplus
}
#endif
#endif

/* One least-squares step over a plain Jacobian: transpose, gradient
 * descent, DLS and SDLS, and null-space projection. See
 * include/ikit/ls_step.h for the shapes. */
#include <ikit/ls_step.h>

#include <string.h>

#include "dense.h"

static ik_real jac_at(const ik_ls *ls, int row, int column) {
    return ls->jac[(size_t)column * (size_t)ls->rows + (size_t)row];
}

static size_t reals(size_t count) { return count * sizeof(ik_real); }

void ik_ls_mul_jt(const ik_ls *ls, const ik_real *v, ik_real *out) {
    int r, c;
    for (c = 0; c < ls->cols; ++c) {
        ik_real s = 0;
        for (r = 0; r < ls->rows; ++r) s += jac_at(ls, r, c) * v[r];
        out[c] = s;
    }
}

void ik_ls_mul_j(const ik_ls *ls, const ik_real *v, ik_real *out) {
    int r, c;
    for (r = 0; r < ls->rows; ++r) out[r] = 0;
    for (c = 0; c < ls->cols; ++c)
        for (r = 0; r < ls->rows; ++r) out[r] += jac_at(ls, r, c) * v[c];
}

ik_real ik_ls_dot(const ik_real *a, const ik_real *b, int n) {
    ik_real s = 0;
    int i;
    for (i = 0; i < n; ++i) s += a[i] * b[i];
    return s;
}

ik_real ik_ls_max_abs(const ik_real *v, int n) {
    ik_real m = 0;
    int i;
    for (i = 0; i < n; ++i) m = ik_maxr(m, IK_FABS(v[i]));
    return m;
}

void ik_ls_clamp_max_abs(ik_real *v, int n, ik_real limit) {
    ik_real m = ik_ls_max_abs(v, n);
    int i;
    if (m > limit)
        for (i = 0; i < n; ++i) v[i] *= limit / m;
}

/* ---- transpose and gradient descent --------------------------------------- */

size_t ik_ls_transpose_scratch_size(int rows, int cols) {
    (void)cols;
    return rows > 0 ? reals((size_t)rows) : 0;
}

/* Buss 2004, section 4: with d = J J^T e, alpha = <e, d> / <d, d> minimises
 * |e - alpha d|. */
void ik_ls_transpose_step(const ik_ls *ls, const ik_real *e, void *scratch, ik_real *dq) {
    ik_real *along = (ik_real *)scratch;
    ik_real denominator, alpha;
    int c;
    ik_ls_mul_jt(ls, e, dq);
    ik_ls_mul_j(ls, dq, along);
    denominator = ik_ls_dot(along, along, ls->rows);
    if (!(denominator > 0)) {
        for (c = 0; c < ls->cols; ++c) dq[c] = 0;
        return;
    }
    alpha = ik_ls_dot(e, along, ls->rows) / denominator;
    for (c = 0; c < ls->cols; ++c) dq[c] *= alpha;
}

/* Seed 003: theta <- theta - eta * d(|s - t|^2 / 2)/d theta, and that
 * gradient is -J^T e with e = t - s, so the update is +eta J^T e (the seed's
 * author found the sign by trial). eta = rate / |J|_F^2: the linearised
 * error decreases for every eta < 2 / sigma_max^2, and |J|_F^2 >=
 * sigma_max^2, so rate < 2 never overshoots the way the seed's fixed eta did
 * near an out-of-reach target. */
void ik_ls_gradient_step(const ik_ls *ls, const ik_real *e, ik_real rate, ik_real *dq) {
    ik_real frobenius = ik_ls_dot(ls->jac, ls->jac, ls->rows * ls->cols);
    int c;
    ik_ls_mul_jt(ls, e, dq);
    for (c = 0; c < ls->cols; ++c) dq[c] = frobenius > 0 ? dq[c] * rate / frobenius : 0;
}

/* ---- damped least squares -------------------------------------------------- */

/* Scratch: the rows x rows factor, then rows and cols of working vectors. */
size_t ik_ls_dls_scratch_size(int rows, int cols) {
    if (rows < 0 || cols < 0) return 0;
    return reals((size_t)rows * (size_t)rows + (size_t)rows + (size_t)cols);
}

/* The DLS damping after Sugihara 2011 ("Solvability-unconcerned inverse
 * kinematics by the Levenberg-Marquardt method", IEEE T-RO 27(5),
 * W_N = E + w_bar): lambda^2 = E + w, E = |e|^2 / 2, w = bias * scale^2.
 * Far from the goals the damping is heavy, so steps stay short near
 * singularities and on unreachable targets; as the error falls the damping
 * falls with it to the small bias w and the step becomes a Gauss-Newton
 * step, which converges in a few iterations where a fixed lambda crawls
 * along the small singular directions of J. Marquardt's safeguard (raise
 * lambda and solve again when a step raises the error) is left out: on
 * ik_jacobian's tests it changed the 5-8 axis and 10-joint outcomes by at
 * most one case in 10000 and made one-update-per-frame tracking 8-15 %
 * slower. */
ik_real ik_ls_dls_adaptive_damping_sq(const ik_real *e, int rows, ik_real scale) {
    return ik_ls_dot(e, e, rows) / 2 + IK_LS_DLS_BIAS * scale * scale;
}

/* square = J J^T + (shift + trace(J J^T) eps ulps) I, and its Cholesky
 * factor in place; 0 when it is not positive definite. */
static ik_bool factor_shifted_gram(const ik_ls *ls, ik_real *square, ik_real shift, int ulps) {
    const int m = ls->rows;
    ik_real trace = 0;
    int i, j, c;
    for (i = 0; i < m; ++i)
        for (j = 0; j <= i; ++j) {
            ik_real s = 0;
            for (c = 0; c < ls->cols; ++c) s += jac_at(ls, i, c) * jac_at(ls, j, c);
            square[j * m + i] = s;
            square[i * m + j] = s;
        }
    for (i = 0; i < m; ++i) trace += square[i * m + i];
    for (i = 0; i < m; ++i) square[i * m + i] += shift + trace * IK_REAL_EPSILON * (ik_real)ulps;
    return ik_dense_cholesky_factor(square, m);
}

ik_bool ik_ls_dls_factor(const ik_ls *ls, ik_real damping_sq, void *scratch) {
    return factor_shifted_gram(ls, (ik_real *)scratch, damping_sq, 16);
}

/* (J J^T + lambda^2 I) y = e by the factor, then dq = J^T y. */
void ik_ls_dls_solve(const ik_ls *ls, void *scratch, const ik_real *e, ik_real *dq) {
    const ik_real *square = (const ik_real *)scratch;
    ik_real *y = (ik_real *)scratch + (size_t)ls->rows * (size_t)ls->rows;
    memcpy(y, e, (size_t)ls->rows * sizeof(ik_real));
    ik_dense_cholesky_solve(square, ls->rows, y);
    ik_ls_mul_jt(ls, y, dq);
}

/* mu = 1024 eps trace(J J^T) + eps: a shift at rounding level (the damped
 * inverse of a step would leak lambda^2 / (sigma^2 + lambda^2) of z into
 * the model), with eps alone for J = 0. */
void ik_ls_dls_project_null(const ik_ls *ls, void *scratch, ik_real *z) {
    ik_real *square = (ik_real *)scratch;
    ik_real *y = square + (size_t)ls->rows * (size_t)ls->rows;
    ik_real *back = y + ls->rows;
    int c;
    if (ls->rows == 0) return;
    if (!factor_shifted_gram(ls, square, IK_REAL_EPSILON, 1024)) return;
    ik_ls_mul_j(ls, z, y);
    ik_dense_cholesky_solve(square, ls->rows, y);
    ik_ls_mul_jt(ls, y, back);
    for (c = 0; c < ls->cols; ++c) z[c] -= back[c];
}

/* ---- selectively damped least squares -------------------------------------- */

/* Scratch views for SDLS: U (rows x rows, column i is u_i), V (rows
 * vectors of cols: row i is v_i), sigma (rows) and rho (cols: each
 * column's summed 3-row block norms sum_l |J block (l, j)|). */
typedef struct sdls_views {
    ik_real *u, *v, *sigma, *rho;
} sdls_views;

static sdls_views sdls_lay_out(const ik_ls *ls, const void *scratch) {
    const size_t m = (size_t)ls->rows, n = (size_t)ls->cols;
    sdls_views s;
    s.u = (ik_real *)scratch;
    s.v = s.u + m * m;
    s.sigma = s.v + m * n;
    s.rho = s.sigma + m;
    return s;
}

size_t ik_ls_sdls_scratch_size(int rows, int cols) {
    if (rows < 0 || cols < 0) return 0;
    return reals((size_t)rows * (size_t)rows + (size_t)rows * (size_t)cols + (size_t)rows + (size_t)cols);
}

/* One-sided Jacobi on J^T gives J^T = V diag(sigma) U^T: V in place of
 * the copied J^T, U as the rotations' right factor. */
void ik_ls_sdls_decompose(const ik_ls *ls, void *scratch) {
    const int m = ls->rows, n = ls->cols;
    sdls_views s = sdls_lay_out(ls, scratch);
    int r, c, b;
    for (r = 0; r < m; ++r)
        for (c = 0; c < n; ++c) s.v[(size_t)r * (size_t)n + (size_t)c] = jac_at(ls, r, c);
    ik_dense_svd_jacobi(s.v, n, m, s.u, s.sigma);
    for (c = 0; c < n; ++c) {
        ik_real rho = 0;
        for (b = 0; b < m; b += 3)
            rho += IK_SQRT(jac_at(ls, b, c) * jac_at(ls, b, c) + jac_at(ls, b + 1, c) * jac_at(ls, b + 1, c) +
                           jac_at(ls, b + 2, c) * jac_at(ls, b + 2, c));
        s.rho[c] = rho;
    }
}

static ik_real largest_singular_value(const ik_ls *ls, const sdls_views *s) {
    ik_real sigma_max = 0;
    int i;
    for (i = 0; i < ls->rows; ++i) sigma_max = ik_maxr(sigma_max, s->sigma[i]);
    return sigma_max;
}

static ik_bool singular_value_used(const sdls_views *s, int i, ik_real sigma_max) {
    return s->sigma[i] > sigma_max * IK_REAL_EPSILON * 64 && s->sigma[i] > 0;
}

/* For each used sigma_i: alpha_i = u_i . e, N_i, M_i and gamma_i as in the
 * header, phi_i = ClampMaxAbs(sigma_i^-1 alpha_i v_i, gamma_i), dq = sum
 * phi_i. */
void ik_ls_sdls_solve(const ik_ls *ls, const void *scratch, const ik_real *e, ik_real gamma_max, ik_real *dq) {
    const int m = ls->rows, n = ls->cols;
    const sdls_views s = sdls_lay_out(ls, scratch);
    const ik_real sigma_max = largest_singular_value(ls, &s);
    int i, c, b;
    for (c = 0; c < n; ++c) dq[c] = 0;
    for (i = 0; i < m; ++i) {
        const ik_real *u = s.u + (size_t)i * (size_t)m;
        const ik_real *v = s.v + (size_t)i * (size_t)n;
        ik_real alpha, n_i = 0, m_i = 0, gamma, largest = 0, scale;
        if (!singular_value_used(&s, i, sigma_max)) continue;
        alpha = ik_ls_dot(u, e, m);
        for (b = 0; b < m; b += 3) n_i += IK_SQRT(u[b] * u[b] + u[b + 1] * u[b + 1] + u[b + 2] * u[b + 2]);
        for (c = 0; c < n; ++c) m_i += IK_FABS(v[c]) * s.rho[c];
        m_i /= s.sigma[i];
        gamma = m_i > 0 ? gamma_max * ik_minr(1, n_i / m_i) : gamma_max;
        scale = alpha / s.sigma[i];
        for (c = 0; c < n; ++c) largest = ik_maxr(largest, IK_FABS(scale * v[c]));
        if (largest > gamma) scale *= gamma / largest;
        for (c = 0; c < n; ++c) dq[c] += scale * v[c];
    }
}

/* z -= sum over used sigma_i of (v_i . z) v_i. */
void ik_ls_sdls_project_null(const ik_ls *ls, const void *scratch, ik_real *z) {
    const sdls_views s = sdls_lay_out(ls, scratch);
    const ik_real sigma_max = largest_singular_value(ls, &s);
    int i, c;
    for (i = 0; i < ls->rows; ++i) {
        const ik_real *v = s.v + (size_t)i * (size_t)ls->cols;
        ik_real along;
        if (!singular_value_used(&s, i, sigma_max)) continue;
        along = ik_ls_dot(v, z, ls->cols);
        for (c = 0; c < ls->cols; ++c) z[c] -= along * v[c];
    }
}

/* Cholesky factorisation and one-sided Jacobi SVD for the small matrices of
 * the least-squares steps (a few rows per effector, one column per degree of
 * freedom). */
#include "dense.h"

#define JACOBI_MAX_SWEEPS 40

/* a = L L^T, column by column: L_jj = sqrt(a_jj - sum_k L_jk^2),
 * L_ij = (a_ij - sum_k L_ik L_jk) / L_jj for i > j (Golub & Van Loan 4.2). */
ik_bool ik_dense_cholesky_factor(ik_real *a, int n) {
    int i, j, k;
    for (j = 0; j < n; ++j) {
        ik_real d = a[j * n + j];
        for (k = 0; k < j; ++k) d -= a[k * n + j] * a[k * n + j];
        if (!(d > 0) || !ik_finite(d)) return 0;
        d = IK_SQRT(d);
        a[j * n + j] = d;
        for (i = j + 1; i < n; ++i) {
            ik_real s = a[j * n + i];
            for (k = 0; k < j; ++k) s -= a[k * n + i] * a[k * n + j];
            a[j * n + i] = s / d;
        }
    }
    return 1;
}

/* Forward substitution L y = b, then back substitution L^T x = y. */
void ik_dense_cholesky_solve(const ik_real *l, int n, ik_real *b) {
    int i, k;
    for (i = 0; i < n; ++i) {
        ik_real s = b[i];
        for (k = 0; k < i; ++k) s -= l[k * n + i] * b[k];
        b[i] = s / l[i * n + i];
    }
    for (i = n - 1; i >= 0; --i) {
        ik_real s = b[i];
        for (k = i + 1; k < n; ++k) s -= l[i * n + k] * b[k];
        b[i] = s / l[i * n + i];
    }
}

static void rotate_columns(ik_real *m, int rows, int p, int q, ik_real c, ik_real s) {
    int r;
    for (r = 0; r < rows; ++r) {
        ik_real x = m[p * rows + r], y = m[q * rows + r];
        m[p * rows + r] = c * x - s * y;
        m[q * rows + r] = s * x + c * y;
    }
}

/* Hestenes' one-sided Jacobi: rotate each pair of columns (p, q) of B until
 * they are orthogonal. With alpha = |b_p|^2, beta = |b_q|^2, gamma = b_p.b_q,
 * zeta = (beta - alpha) / (2 gamma), t = sign(zeta) / (|zeta| + sqrt(1 +
 * zeta^2)), c = 1 / sqrt(1 + t^2), s = c t zeroes the pair's inner product;
 * the same rotations applied to W (starting at I) collect the right factor.
 * Sweeps stop when no pair is further than a few ulps from orthogonal. */
void ik_dense_svd_jacobi(ik_real *b, int rows, int cols, ik_real *w, ik_real *sigma) {
    const ik_real tolerance = IK_REAL_EPSILON * 8;
    int sweep, p, q, r;
    for (p = 0; p < cols * cols; ++p) w[p] = 0;
    for (p = 0; p < cols; ++p) w[p * cols + p] = 1;
    for (sweep = 0; sweep < JACOBI_MAX_SWEEPS; ++sweep) {
        ik_bool rotated = 0;
        for (p = 0; p < cols - 1; ++p) {
            for (q = p + 1; q < cols; ++q) {
                ik_real alpha = 0, beta = 0, gamma = 0, zeta, t, c;
                for (r = 0; r < rows; ++r) {
                    ik_real x = b[p * rows + r], y = b[q * rows + r];
                    alpha += x * x;
                    beta += y * y;
                    gamma += x * y;
                }
                if (!(IK_FABS(gamma) > tolerance * IK_SQRT(alpha * beta))) continue;
                zeta = (beta - alpha) / (2 * gamma);
                t = (zeta >= 0 ? 1 : -1) / (IK_FABS(zeta) + IK_SQRT(1 + zeta * zeta));
                c = 1 / IK_SQRT(1 + t * t);
                rotate_columns(b, rows, p, q, c, c * t);
                rotate_columns(w, cols, p, q, c, c * t);
                rotated = 1;
            }
        }
        if (!rotated) break;
    }
    for (p = 0; p < cols; ++p) {
        ik_real length = 0;
        for (r = 0; r < rows; ++r) length += b[p * rows + r] * b[p * rows + r];
        length = IK_SQRT(length);
        sigma[p] = length;
        if (length > 0)
            for (r = 0; r < rows; ++r) b[p * rows + r] /= length;
    }
}

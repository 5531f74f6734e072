/* Small dense linear algebra behind ls_step.h (library-private).
 * Matrices are column-major: a[col * rows + row]. */
#ifndef IKIT_SOLVE_DENSE_H
#define IKIT_SOLVE_DENSE_H

#include <ikit/math.h>

/* Cholesky factor of the symmetric n x n matrix `a` in place (its lower
 * triangle becomes L with a = L L^T). Returns 0 when `a` is not positive
 * definite. */
ik_bool ik_dense_cholesky_factor(ik_real *a, int n);
/* Solve L L^T x = b in place, with L from ik_dense_cholesky_factor. */
void ik_dense_cholesky_solve(const ik_real *l, int n, ik_real *b);

/* One-sided Jacobi SVD of the rows x cols matrix `b` in place: on return
 * b_in = b_out diag(sigma) w^T, the columns of b_out are unit (or zero where
 * sigma is 0) and mutually orthogonal, and w (cols x cols) is orthogonal. */
void ik_dense_svd_jacobi(ik_real *b, int rows, int cols, ik_real *w, ik_real *sigma);

#endif

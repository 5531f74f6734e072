/* Least-squares steps over a plain Jacobian (ls_step.h): each step checked
 * against the equation it solves, recomputed here in double from J and e:
 * the transpose step lies along J^T e at the best length, DLS satisfies
 * the damped normal equations, SDLS without binding clamps the
 * least-squares normal equations and with them stays inside its clamp,
 * null-space projections leave J z = 0; degenerate Jacobians give finite
 * steps, and no method writes past the scratch it asks for. */
#include <ikit/ls_step.h>
#include <math.h>
#include <string.h>

#include "support/check.h"
#include "support/rng.h"

#define MAX_ROWS 12
#define MAX_COLS 10
#define CASES 2000
/* Scratch for the largest case plus a guard band checked after each call. */
#define GUARD_REALS 64
#define SCRATCH_REALS (MAX_ROWS * MAX_ROWS + MAX_ROWS * MAX_COLS + MAX_ROWS + MAX_COLS + GUARD_REALS)
#define GUARD_VALUE ((ik_real)12345.0)

typedef struct system {
    ik_real jac[MAX_ROWS * MAX_COLS]; /* column-major */
    ik_real e[MAX_ROWS];
    int rows, cols;
    ik_ls ls;
} system_t;

static ik_real scratch[SCRATCH_REALS];

/* Fills the scratch with the guard value; `used` reals of it are the
 * method's, the rest must stay untouched. */
static void guard_scratch(void) {
    int i;
    for (i = 0; i < SCRATCH_REALS; ++i) scratch[i] = GUARD_VALUE;
}

static int guard_intact(size_t used_bytes) {
    size_t i;
    for (i = used_bytes / sizeof(ik_real); i < SCRATCH_REALS; ++i)
        if (scratch[i] != GUARD_VALUE) return 0;
    return 1;
}

static double at(const system_t *s, int r, int c) { return (double)s->jac[c * s->rows + r]; }

/* rows a multiple of 3 in [3, MAX_ROWS], cols in [1, MAX_COLS], entries in
 * [-1, 1], error entries in [-err_size, err_size]. */
static void random_system(system_t *s, rng *g, double err_size) {
    int i;
    s->rows = 3 * (1 + (int)(rng_next(g) % (MAX_ROWS / 3)));
    s->cols = 1 + (int)(rng_next(g) % MAX_COLS);
    for (i = 0; i < s->rows * s->cols; ++i) s->jac[i] = rng_range(g, -1, 1);
    for (i = 0; i < s->rows; ++i) s->e[i] = rng_range(g, -err_size, err_size);
    s->ls.jac = s->jac;
    s->ls.rows = s->rows;
    s->ls.cols = s->cols;
}

/* out[cols] = J^T v, in double */
static void jt_times(const system_t *s, const double *v, double *out) {
    int r, c;
    for (c = 0; c < s->cols; ++c) {
        out[c] = 0;
        for (r = 0; r < s->rows; ++r) out[c] += at(s, r, c) * v[r];
    }
}

/* out[rows] = J v, in double */
static void j_times(const system_t *s, const double *v, double *out) {
    int r, c;
    for (r = 0; r < s->rows; ++r) {
        out[r] = 0;
        for (c = 0; c < s->cols; ++c) out[r] += at(s, r, c) * v[c];
    }
}

static double norm(const double *v, int n) {
    double s = 0;
    int i;
    for (i = 0; i < n; ++i) s += v[i] * v[i];
    return sqrt(s);
}

static double frobenius(const system_t *s) {
    double f = 0;
    int i;
    for (i = 0; i < s->rows * s->cols; ++i) f += (double)s->jac[i] * s->jac[i];
    return sqrt(f);
}

static void to_double(const ik_real *v, int n, double *out) {
    int i;
    for (i = 0; i < n; ++i) out[i] = (double)v[i];
}

static int all_finite(const ik_real *v, int n) {
    int i;
    for (i = 0; i < n; ++i)
        if (!ik_finite(v[i])) return 0;
    return 1;
}

/* Rounding allowance for products of unit-sized entries over these sizes. */
#define SLACK (256 * (double)IK_REAL_EPSILON)

/* dq = alpha J^T e with alpha = <e, J g> / |J g|^2, g = J^T e. */
static void test_transpose_step_along_jt_e(void) {
    check_property prop = {"transpose step is the best multiple of J^T e", 0, 0};
    rng g = rng_seeded(11);
    int k, c;
    for (k = 0; k < CASES; ++k) {
        system_t s;
        ik_real dq[MAX_COLS];
        double e[MAX_ROWS], grad[MAX_COLS], jg[MAX_ROWS], alpha, err = 0, scale;
        random_system(&s, &g, 1);
        guard_scratch();
        ik_ls_transpose_step(&s.ls, s.e, scratch, dq);
        to_double(s.e, s.rows, e);
        jt_times(&s, e, grad);
        j_times(&s, grad, jg);
        alpha = 0;
        for (c = 0; c < s.rows; ++c) alpha += e[c] * jg[c];
        alpha /= norm(jg, s.rows) * norm(jg, s.rows);
        scale = fabs(alpha) * norm(grad, s.cols);
        for (c = 0; c < s.cols; ++c) err = fmax(err, fabs((double)dq[c] - alpha * grad[c]));
        PROPERTY_CASE(prop, err <= SLACK * scale && guard_intact(ik_ls_transpose_scratch_size(s.rows, s.cols)),
                      "%d x %d: off by %g of %g", s.rows, s.cols, err, scale);
    }
    property_end(&prop);
}

/* dq = rate J^T e / |J|_F^2 */
static void test_gradient_step(void) {
    check_property prop = {"gradient step is rate J^T e / |J|_F^2", 0, 0};
    rng g = rng_seeded(12);
    int k, c;
    for (k = 0; k < CASES; ++k) {
        system_t s;
        ik_real dq[MAX_COLS], rate = rng_range(&g, 0.1, 1.9);
        double e[MAX_ROWS], grad[MAX_COLS], f, err = 0;
        random_system(&s, &g, 1);
        ik_ls_gradient_step(&s.ls, s.e, rate, dq);
        to_double(s.e, s.rows, e);
        jt_times(&s, e, grad);
        f = frobenius(&s);
        for (c = 0; c < s.cols; ++c) err = fmax(err, fabs((double)dq[c] - rate * grad[c] / (f * f)));
        PROPERTY_CASE(prop, err <= SLACK * rate * norm(grad, s.cols) / (f * f), "%d x %d: off by %g", s.rows, s.cols,
                      err);
    }
    property_end(&prop);
}

/* |(J^T J + lambda^2 I) dq - J^T e| against the sizes of its terms. */
static double normal_equation_residual(const system_t *s, const ik_real *dq, double lambda_sq, double *size) {
    double d[MAX_COLS] = {0}, jd[MAX_ROWS] = {0}, jtjd[MAX_COLS] = {0}, e[MAX_ROWS] = {0}, rhs[MAX_COLS] = {0};
    double r[MAX_COLS] = {0};
    double f = frobenius(s);
    int c;
    to_double(dq, s->cols, d);
    to_double(s->e, s->rows, e);
    j_times(s, d, jd);
    jt_times(s, jd, jtjd);
    jt_times(s, e, rhs);
    for (c = 0; c < s->cols; ++c) r[c] = jtjd[c] + lambda_sq * d[c] - rhs[c];
    *size = (f * f + lambda_sq) * norm(d, s->cols) + norm(rhs, s->cols);
    return norm(r, s->cols);
}

/* DLS solves (J^T J + lambda^2 I) dq = J^T e, for fixed damping from
 * heavy to light; the factor's own 16 eps trace shift is inside the
 * rounding allowance. */
static void test_dls_normal_equations(void) {
    check_property prop = {"DLS step solves the damped normal equations", 0, 0};
    rng g = rng_seeded(13);
    int k;
    for (k = 0; k < CASES; ++k) {
        system_t s;
        ik_real dq[MAX_COLS], lambda_sq;
        double residual, size;
        ik_bool factored;
        random_system(&s, &g, 1);
        lambda_sq = (ik_real)pow(10, rng_range(&g, -3, 1));
        guard_scratch();
        factored = ik_ls_dls_factor(&s.ls, lambda_sq, scratch);
        ik_ls_dls_solve(&s.ls, scratch, s.e, dq);
        residual = normal_equation_residual(&s, dq, lambda_sq, &size);
        /* Cholesky's backward error grows with the condition number
         * (sigma_max^2 + lambda^2) / lambda^2. */
        PROPERTY_CASE(prop,
                      factored && residual <= SLACK * size * (1 + frobenius(&s) * frobenius(&s) / lambda_sq) &&
                          guard_intact(ik_ls_dls_scratch_size(s.rows, s.cols)),
                      "%d x %d, lambda^2 %g: residual %g of %g", s.rows, s.cols, (double)lambda_sq, residual, size);
    }
    property_end(&prop);
}

/* Sugihara 2011's damping: |e|^2 / 2 + 1e-6 scale^2. */
static void test_adaptive_damping_formula(void) {
    check_property prop = {"adaptive damping is |e|^2 / 2 + 1e-6 scale^2", 0, 0};
    rng g = rng_seeded(14);
    int k;
    for (k = 0; k < CASES; ++k) {
        system_t s;
        ik_real scale = rng_range(&g, 0.01, 100);
        double e[MAX_ROWS], expected, got;
        random_system(&s, &g, rng_range(&g, 0, 10));
        to_double(s.e, s.rows, e);
        expected = norm(e, s.rows) * norm(e, s.rows) / 2 + 1e-6 * (double)scale * scale;
        got = (double)ik_ls_dls_adaptive_damping_sq(s.e, s.rows, scale);
        PROPERTY_CASE(prop, fabs(got - expected) <= 16 * (double)IK_REAL_EPSILON * expected, "%g, expected %g", got,
                      expected);
    }
    CHECK(ik_ls_dls_adaptive_damping_sq(NULL, 0, 2) == (ik_real)4e-6, "no error rows: the bias alone");
    property_end(&prop);
}

/* With gamma_max too large to bind, SDLS is the pseudo-inverse step:
 * J^T (J dq - e) = 0 (the least-squares normal equations). */
static void test_sdls_unclamped_is_least_squares(void) {
    check_property prop = {"unclamped SDLS step solves the least-squares normal equations", 0, 0};
    rng g = rng_seeded(15);
    int k;
    for (k = 0; k < CASES; ++k) {
        system_t s;
        ik_real dq[MAX_COLS];
        double residual, size;
        random_system(&s, &g, 1e-3);
        guard_scratch();
        ik_ls_sdls_decompose(&s.ls, scratch);
        ik_ls_sdls_solve(&s.ls, scratch, s.e, (ik_real)1e6, dq);
        residual = normal_equation_residual(&s, dq, 0, &size);
        /* Random dense J of these sizes has a smallest nonzero singular
         * value rarely below 1e-2: a 1e4 condition allowance on J^T J. */
        PROPERTY_CASE(prop, residual <= SLACK * 1e4 * size && guard_intact(ik_ls_sdls_scratch_size(s.rows, s.cols)),
                      "%d x %d: residual %g of %g", s.rows, s.cols, residual, size);
    }
    property_end(&prop);
}

/* Each singular direction's step is clamped to gamma_i <= gamma_max in
 * its largest component, so the sum has no component past rank *
 * gamma_max <= min(rows, cols) gamma_max; a large error drives the clamps. */
static void test_sdls_step_within_clamp(void) {
    check_property prop = {"SDLS step within its clamp", 0, 0};
    rng g = rng_seeded(16);
    int k, c;
    for (k = 0; k < CASES; ++k) {
        system_t s;
        ik_real dq[MAX_COLS], gamma_max = rng_range(&g, 0.01, 1), largest = 0;
        int rank_bound;
        random_system(&s, &g, 100);
        rank_bound = s.rows < s.cols ? s.rows : s.cols;
        ik_ls_sdls_decompose(&s.ls, scratch);
        ik_ls_sdls_solve(&s.ls, scratch, s.e, gamma_max, dq);
        for (c = 0; c < s.cols; ++c) largest = ik_maxr(largest, IK_FABS(dq[c]));
        PROPERTY_CASE(prop, all_finite(dq, s.cols) && largest <= rank_bound * gamma_max * (1 + 4 * IK_REAL_EPSILON),
                      "%d x %d: %g past %d x %g", s.rows, s.cols, (double)largest, rank_bound, (double)gamma_max);
    }
    property_end(&prop);
}

/* One column j, one 3-row block: sigma = |j| = rho, N = 1, M = 1, so
 * gamma = gamma_max and dq = clamp(j . e / |j|^2, gamma_max). */
static void test_sdls_single_column(void) {
    ik_real jac[3] = {(ik_real)0.6, (ik_real)-0.8, 0}, e[3] = {3, -4, 1}, dq, gamma_max = (ik_real)0.25;
    ik_ls ls;
    ls.jac = jac;
    ls.rows = 3;
    ls.cols = 1;
    ik_ls_sdls_decompose(&ls, scratch);
    ik_ls_sdls_solve(&ls, scratch, e, 100, &dq);
    CHECK(IK_FABS(dq - 5) <= 8 * IK_REAL_EPSILON * 5, "unclamped: %g, expected j . e / |j|^2 = 5", (double)dq);
    ik_ls_sdls_solve(&ls, scratch, e, gamma_max, &dq);
    CHECK(IK_FABS(dq - gamma_max) <= 8 * IK_REAL_EPSILON, "clamped: %g, expected gamma_max", (double)dq);
}

/* SDLS: after projection J z = 0 (relative to |J| |z|), and projecting
 * again changes nothing. DLS's J^+ has the shift mu = 1024 eps trace(J J^T)
 * + eps, which leaves mu / (sigma^2 + mu) of each singular direction, so
 * |J z| <= max over sigma of sigma mu / (sigma^2 + mu) |z| = sqrt(mu) / 2 |z|;
 * and a z SDLS put in the null space stays where it is. */
static void test_null_projections(void) {
    check_property sdls = {"SDLS-projected z moves nothing through J", 0, 0};
    check_property dls = {"DLS-projected z moves J only by its shift", 0, 0};
    rng g = rng_seeded(17);
    int k, c;
    for (k = 0; k < CASES; ++k) {
        system_t s;
        ik_real z[MAX_COLS], again[MAX_COLS], shifted[MAX_COLS];
        double zd[MAX_COLS] = {0}, jz[MAX_ROWS] = {0}, size, z_length, moved = 0, moved_null = 0, trace, mu;
        random_system(&s, &g, 1);
        for (c = 0; c < s.cols; ++c) z[c] = rng_range(&g, -1, 1);
        to_double(z, s.cols, zd);
        z_length = norm(zd, s.cols);
        size = frobenius(&s) * z_length;
        trace = frobenius(&s) * frobenius(&s);
        memcpy(shifted, z, sizeof shifted);

        guard_scratch();
        ik_ls_sdls_decompose(&s.ls, scratch);
        ik_ls_sdls_project_null(&s.ls, scratch, z);
        memcpy(again, z, sizeof again);
        ik_ls_sdls_project_null(&s.ls, scratch, again);
        for (c = 0; c < s.cols; ++c) moved = fmax(moved, fabs((double)again[c] - z[c]));
        to_double(z, s.cols, zd);
        j_times(&s, zd, jz);
        PROPERTY_CASE(sdls,
                      norm(jz, s.rows) <= SLACK * size && moved <= SLACK * z_length &&
                          guard_intact(ik_ls_sdls_scratch_size(s.rows, s.cols)),
                      "%d x %d: |J z| %g of %g, projecting again moved %g", s.rows, s.cols, norm(jz, s.rows), size,
                      moved);

        guard_scratch();
        memcpy(again, z, sizeof again);
        ik_ls_dls_project_null(&s.ls, scratch, again);
        for (c = 0; c < s.cols; ++c) moved_null = fmax(moved_null, fabs((double)again[c] - z[c]));
        ik_ls_dls_project_null(&s.ls, scratch, shifted);
        to_double(shifted, s.cols, zd);
        j_times(&s, zd, jz);
        mu = 1024 * (double)IK_REAL_EPSILON * trace + (double)IK_REAL_EPSILON;
        PROPERTY_CASE(dls,
                      norm(jz, s.rows) <= sqrt(mu) / 2 * z_length * 1.01 + SLACK * size &&
                          moved_null <= SLACK * z_length && guard_intact(ik_ls_dls_scratch_size(s.rows, s.cols)),
                      "%d x %d: |J z| %g, bound %g; a null-space z moved %g", s.rows, s.cols, norm(jz, s.rows),
                      sqrt(mu) / 2 * z_length, moved_null);
    }
    property_end(&sdls);
    property_end(&dls);
}

/* Every method's step and projection on one system: finite, and zero on
 * a zero column's axis; DLS with damping lambda^2. */
static void check_degenerate(const char *name, system_t *s, int zero_column, ik_real lambda_sq) {
    ik_real dq[MAX_COLS], z[MAX_COLS];
    int c, method;
    s->ls.jac = s->jac;
    s->ls.rows = s->rows;
    s->ls.cols = s->cols;
    for (method = 0; method < 4; ++method) {
        for (c = 0; c < MAX_COLS; ++c) dq[c] = z[c] = 1;
        if (method == 0) {
            ik_ls_transpose_step(&s->ls, s->e, scratch, dq);
        } else if (method == 1) {
            ik_ls_gradient_step(&s->ls, s->e, 1, dq);
        } else if (method == 2) {
            CHECK(ik_ls_dls_factor(&s->ls, lambda_sq, scratch), "%s: DLS factor with lambda^2 %g", name,
                  (double)lambda_sq);
            ik_ls_dls_solve(&s->ls, scratch, s->e, dq);
            ik_ls_dls_project_null(&s->ls, scratch, z);
        } else {
            ik_ls_sdls_decompose(&s->ls, scratch);
            ik_ls_sdls_solve(&s->ls, scratch, s->e, (ik_real)0.5, dq);
            ik_ls_sdls_project_null(&s->ls, scratch, z);
        }
        CHECK(all_finite(dq, s->cols) && all_finite(z, s->cols), "%s: method %d gives a non-finite step", name, method);
        CHECK(zero_column < 0 || (dq[zero_column] == 0 && (method < 2 || z[zero_column] == 1)),
              "%s: method %d moves the zero column's axis (%g)", name, method, (double)dq[zero_column]);
    }
}

static void test_degenerate_jacobians(void) {
    system_t s;
    rng g = rng_seeded(18);
    int i, c;

    memset(&s, 0, sizeof s);
    s.rows = 6;
    s.cols = 4;
    for (i = 0; i < s.rows; ++i) s.e[i] = rng_range(&g, -1, 1);
    check_degenerate("zero J", &s, 0, (ik_real)1e-6);
    s.ls.jac = s.jac;
    CHECK(!ik_ls_dls_factor(&s.ls, 0, scratch), "zero J undamped: no factor");

    s.rows = 0;
    check_degenerate("no rows", &s, -1, 0);

    s.rows = 6;
    s.cols = 0;
    check_degenerate("no columns", &s, -1, (ik_real)1e-6);

    /* Rank 1: every column a multiple of the first; one zero column. */
    random_system(&s, &g, 1);
    s.rows = 6;
    s.cols = 5;
    s.ls.rows = 6;
    for (c = 1; c < s.cols; ++c)
        for (i = 0; i < s.rows; ++i) s.jac[c * s.rows + i] = (ik_real)(c == 2 ? 0 : c) * s.jac[i];
    check_degenerate("rank 1 with a zero column, undamped", &s, 2, 0);

    /* A zero row block (an effector no axis moves). */
    random_system(&s, &g, 1);
    s.rows = 6;
    s.cols = 3;
    for (c = 0; c < s.cols; ++c)
        for (i = 3; i < 6; ++i) s.jac[c * s.rows + i] = 0;
    check_degenerate("zero row block, undamped", &s, -1, 0);

    /* Duplicated columns share the step equally under DLS. */
    random_system(&s, &g, 1);
    s.rows = 3;
    s.cols = 2;
    s.ls.rows = 3;
    s.ls.cols = 2;
    for (i = 0; i < 3; ++i) s.jac[3 + i] = s.jac[i];
    {
        ik_real dq[2];
        ik_ls_dls_factor(&s.ls, (ik_real)0.1, scratch);
        ik_ls_dls_solve(&s.ls, scratch, s.e, dq);
        CHECK(dq[0] == dq[1], "duplicated columns: DLS steps %g and %g", (double)dq[0], (double)dq[1]);
    }

    /* A non-finite J cannot be factored. */
    random_system(&s, &g, 1);
    s.jac[1] = (ik_real)NAN;
    CHECK(!ik_ls_dls_factor(&s.ls, (ik_real)0.1, scratch), "DLS factor of a NaN J refused");
}

static void test_helpers(void) {
    ik_real jac[6] = {1, 2, 3, 4, 5, 6}, v2[2] = {1, -1}, v3[3] = {1, 0, -1}, out[3], clamp[3] = {2, -4, 1};
    ik_ls ls;
    ls.jac = jac;
    ls.rows = 3;
    ls.cols = 2;
    ik_ls_mul_j(&ls, v2, out);
    CHECK(out[0] == -3 && out[1] == -3 && out[2] == -3, "J v = (%g %g %g)", (double)out[0], (double)out[1],
          (double)out[2]);
    ik_ls_mul_jt(&ls, v3, out);
    CHECK(out[0] == -2 && out[1] == -2, "J^T v = (%g %g)", (double)out[0], (double)out[1]);
    CHECK(ik_ls_dot(v3, v3, 3) == 2 && ik_ls_max_abs(clamp, 3) == 4 && ik_ls_max_abs(clamp, 0) == 0, "dot and max_abs");
    ik_ls_clamp_max_abs(clamp, 3, 2);
    CHECK(clamp[0] == 1 && clamp[1] == -2 && clamp[2] == (ik_real)0.5, "clamp_max_abs keeps the direction");
    CHECK(ik_ls_transpose_scratch_size(6, 4) >= 6 * sizeof(ik_real) &&
              ik_ls_dls_scratch_size(6, 4) >= 36 * sizeof(ik_real) &&
              ik_ls_sdls_scratch_size(6, 4) >= (36 + 24) * sizeof(ik_real) &&
              ik_ls_sdls_scratch_size(12, 10) <= sizeof scratch - GUARD_REALS * sizeof(ik_real),
          "scratch sizes");
}

int main(void) {
    test_helpers();
    test_transpose_step_along_jt_e();
    test_gradient_step();
    test_dls_normal_equations();
    test_adaptive_damping_formula();
    test_sdls_unclamped_is_least_squares();
    test_sdls_step_within_clamp();
    test_sdls_single_column();
    test_null_projections();
    test_degenerate_jacobians();
    return check_summary("test_ls_step");
}

/* 2D chains: forward kinematics against the closed sums, gradient against
 * finite differences, reach by CCD / FABRIK / gradient descent, limits. */
#include <ikit/planar_chain.h>
#include <string.h>

#include "support/check.h"
#include "support/rng.h"

#ifdef IKIT_DOUBLE
#define TOL 1e-9
#else
#define TOL 2e-4
#endif
#define BONES 10

static void test_fk_and_gradient(void) {
    rng r = rng_seeded(1);
    check_property fk = {"fk matches x_n = x_0 + sum cos(beta_k) l_k", 0, 0};
    check_property grad = {"gradient matches central differences", 0, 0};
    int i, j, k;
    for (i = 0; i < 5000; ++i) {
        ik_real lengths[BONES], angles[BONES], xy[2 * BONES + 2], g[BONES];
        ik_real tx = rng_range(&r, -10, 10), ty = rng_range(&r, -10, 10);
        double sx = 1, sy = -2, beta = 0, worst = 0;
        for (k = 0; k < BONES; ++k) {
            lengths[k] = rng_range(&r, 0, 2);
            angles[k] = rng_range(&r, -3, 3);
            beta += (double)angles[k];
            sx += cos(beta) * (double)lengths[k];
            sy += sin(beta) * (double)lengths[k];
        }
        ik_planar_chain_fk(BONES, lengths, angles, 1, -2, xy);
        PROPERTY_CASE(
            fk, fabs((double)xy[2 * BONES] - sx) < TOL * 10 && fabs((double)xy[2 * BONES + 1] - sy) < TOL * 10, "");
        ik_planar_chain_gradient(BONES, xy, tx, ty, g);
        for (j = 0; j < BONES; ++j) {
            double h = 1e-3, d[2];
            int s;
            for (s = 0; s < 2; ++s) {
                ik_real moved[BONES], p[2 * BONES + 2];
                double ex, ey;
                memcpy(moved, angles, sizeof(moved));
                moved[j] += (ik_real)(s ? -h : h);
                ik_planar_chain_fk(BONES, lengths, moved, 1, -2, p);
                ex = (double)p[2 * BONES] - (double)tx;
                ey = (double)p[2 * BONES + 1] - (double)ty;
                d[s] = 0.5 * (ex * ex + ey * ey);
            }
            if (fabs((d[0] - d[1]) / (2 * h) - (double)g[j]) > worst)
                worst = fabs((d[0] - d[1]) / (2 * h) - (double)g[j]);
        }
        PROPERTY_CASE(grad, worst < (sizeof(ik_real) == 4 ? 0.05 : 1e-4), "worst %g", worst);
    }
    property_end(&fk);
    property_end(&grad);
}

static void test_reach(ik_planar_chain_method method, int iterations, int percent, const char *name) {
    rng r = rng_seeded(10 + (uint64_t)method);
    check_property ok = {name, 0, 0};
    ik_real lengths[BONES], angles[BONES], scratch[3 * BONES + 2], lo[BONES], hi[BONES], xy[2 * BONES + 2];
    int i, k, reached = 0, total = 10000;
    CHECK(sizeof scratch == ik_planar_chain_scratch_size(BONES), "%s: the scratch the header asks for", name);
    for (k = 0; k < BONES; ++k) {
        lengths[k] = 1;
        lo[k] = -2;
        hi[k] = 2;
    }
    for (i = 0; i < total; ++i) {
        ik_planar_chain job = ik_planar_chain_def();
        ik_real err = -1;
        ik_bool limited = i % 4 == 3, inside = 1;
        ik_real radius = rng_range(&r, 0, 9.5), angle = rng_range(&r, -3.14159, 3.14159);
        memset(angles, 0, sizeof(angles));
        job.bone_count = BONES;
        job.lengths = lengths;
        job.angles = angles;
        job.scratch = scratch;
        job.target_x = radius * IK_COS(angle);
        job.target_y = radius * IK_SIN(angle);
        job.method = method;
        job.max_iterations = iterations;
        job.tolerance = (ik_real)0.9e-2;
        job.error = &err;
        if (limited) {
            job.min_angles = lo;
            job.max_angles = hi;
        }
        CHECK(ik_planar_chain_run(&job) == IK_OK, "run");
        ik_planar_chain_fk(BONES, lengths, angles, 0, 0, xy);
        for (k = 0; k < BONES; ++k)
            inside = inside && ik_finite(angles[k]) && (!limited || (angles[k] >= lo[k] && angles[k] <= hi[k]));
        PROPERTY_CASE(ok,
                      inside && IK_FABS(ik_vec3_distance(ik_v3(xy[2 * BONES], xy[2 * BONES + 1], 0),
                                                         ik_v3(job.target_x, job.target_y, 0)) -
                                        err) < (ik_real)TOL * 10,
                      "case %d", i);
        if (!limited && err <= (ik_real)1e-2) ++reached;
    }
    property_end(&ok);
    CHECK(reached * 100 >= (total - total / 4) * percent, "%s: reached %d", name, reached);
}

static void test_degenerate(void) {
    ik_real lengths[3] = {1, 0, 1}, angles[3] = {0, 0, 0}, scratch[11];
    ik_planar_chain job = ik_planar_chain_def();
    int m;
    job.bone_count = 3;
    job.lengths = lengths;
    job.angles = angles;
    job.scratch = scratch;
    {
        ik_planar_chain zeroed;
        memset(&zeroed, 0, sizeof zeroed);
        zeroed.bone_count = 3, zeroed.lengths = lengths, zeroed.angles = angles, zeroed.scratch = scratch;
        CHECK(ik_planar_chain_run(&zeroed) == IK_ERR_NOT_DEFAULTED, "a zeroed job (0 iterations) is refused");
    }
    for (m = 0; m < 3; ++m) {
        job.method = (ik_planar_chain_method)m;
        job.target_x = job.target_y = 0;
        angles[0] = angles[1] = angles[2] = 0;
        CHECK(
            ik_planar_chain_run(&job) == IK_OK && ik_finite(angles[0]) && ik_finite(angles[1]) && ik_finite(angles[2]),
            "target on the base, zero-length bone, method %d", m);
        job.target_x = -5;
        angles[0] = angles[1] = angles[2] = 0;
        CHECK(ik_planar_chain_run(&job) == IK_OK && ik_finite(angles[0]) && ik_finite(angles[2]),
              "straight chain, target behind, method %d", m);
    }
    /* A huge but finite start angle (1e20 rad): once looped forever, as a
     * step of 2 pi leaves such a float unchanged. The tip must still land. */
    lengths[1] = 1;
    for (m = 0; m < 3; ++m) {
        ik_real xy[8], miss;
        job.method = (ik_planar_chain_method)m;
        job.max_iterations = m == IK_PLANAR_CHAIN_GRADIENT ? 2000 : 300;
        job.target_x = 1.5f;
        job.target_y = 1;
        angles[0] = (ik_real)1e20;
        angles[1] = angles[2] = (ik_real)0.3;
        CHECK(ik_planar_chain_run(&job) == IK_OK, "huge start angle, method %d", m);
        ik_planar_chain_fk(3, lengths, angles, job.base_x, job.base_y, xy);
        miss =
            IK_SQRT((xy[6] - job.target_x) * (xy[6] - job.target_x) + (xy[7] - job.target_y) * (xy[7] - job.target_y));
        CHECK(miss < 1e-2f, "huge start angle, method %d: tip misses by %g", m, (double)miss);
    }
    lengths[1] = 0;
    job.max_iterations = ik_planar_chain_def().max_iterations;
    job.target_x = (ik_real)NAN;
    CHECK(ik_planar_chain_run(&job) == IK_ERR_NONFINITE, "NaN target");
    job.target_x = 1;
    lengths[1] = -1;
    CHECK(ik_planar_chain_run(&job) == IK_ERR_RANGE, "negative length");
    lengths[1] = 0;
    job.method = (ik_planar_chain_method)7;
    CHECK(ik_planar_chain_run(&job) == IK_ERR_RANGE, "unknown method");
    CHECK(ik_planar_chain_run(NULL) == IK_ERR_NULL, "NULL job");
}

int main(void) {
    test_fk_and_gradient();
    test_reach(IK_PLANAR_CHAIN_FABRIK, 100, 99, "2d fabrik: finite, limits held, error reported");
    test_reach(IK_PLANAR_CHAIN_CCD, 300, 99, "2d ccd: finite, limits held, error reported");
    test_reach(IK_PLANAR_CHAIN_GRADIENT, 2000, 90, "2d gradient: finite, limits held, error reported");
    test_degenerate();
    return check_summary("planar_chain");
}

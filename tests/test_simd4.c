/* The library's private four-lane vectors (SSE2 in the float build on x86,
 * the plain struct in the double build) against the scalar math of math.h. */
#include <ikit/math.h>
#include <string.h>

#include "../src/math/simd4.h"
#include "support/check.h"
#include "support/rng.h"

#define CASES 100000

static ik_real lane(simd4 a, int i) {
    ik_real lanes[4];
    simd4_store(lanes, a);
    return lanes[i];
}

/* |a - b| within `ulps` units of the last place of the larger magnitude
 * involved (`scale`), so sums that cancel are judged against their terms. */
static ik_bool close(ik_real a, ik_real b, ik_real scale, ik_real ulps) {
    return IK_FABS(a - b) <= ulps * IK_REAL_EPSILON * scale;
}

static ik_vec3 random_vec(rng *r) { return ik_vec3_scale(rng_direction(r), rng_range(r, 0.01, 100)); }

/* A rotation quaternion times 0.5 to 2: products must not assume unit length. */
static ik_quat scaled_rotation(rng *r) {
    ik_quat q = rng_rotation(r);
    ik_real k = rng_range(r, 0.5, 2);
    return ik_q(q.x * k, q.y * k, q.z * k, q.w * k);
}

static void test_lane_algebra(void) {
    rng r = rng_seeded(11);
    check_property dot = {"dot3 and dot4 match the scalar sums", 0, 0};
    check_property cross = {"cross3 matches ik_vec3_cross, lane 3 stays 0", 0, 0};
    check_property product = {"quat_mul matches ik_quat_mul", 0, 0};
    check_property frame = {"transpose3 and combine3 give M^T v and M v", 0, 0};
    int i, k;
    for (i = 0; i < CASES; ++i) {
        ik_vec3 a = random_vec(&r), b = random_vec(&r), c = random_vec(&r), v = random_vec(&r);
        ik_quat p = rng_rotation(&r), q = scaled_rotation(&r);
        simd4 va = simd4_vec3(a), vb = simd4_vec3(b), vc = simd4_vec3(c), vv = simd4_vec3(v), r0, r1, r2;
        ik_real scale = ik_vec3_length(a) * ik_vec3_length(b);
        ik_vec3 x = ik_vec3_cross(a, b);
        simd4 vx = simd4_cross3(va, vb), pq = simd4_quat_mul(simd4_quat(p), simd4_quat(q)), mv, mtv;
        ik_quat expect = ik_quat_mul(p, q);
        ik_real q_scale = ik_quat_length(q);

        PROPERTY_CASE(dot,
                      close(simd4_dot3(va, vb), ik_vec3_dot(a, b), scale, 4) &&
                          close(simd4_dot4(simd4_quat(p), simd4_quat(q)), ik_quat_dot(p, q), q_scale, 4),
                      "case %d", i);
        PROPERTY_CASE(cross,
                      close(lane(vx, 0), x.x, scale, 4) && close(lane(vx, 1), x.y, scale, 4) &&
                          close(lane(vx, 2), x.z, scale, 4) && lane(vx, 3) == 0,
                      "case %d", i);
        PROPERTY_CASE(product,
                      close(lane(pq, 0), expect.x, q_scale, 8) && close(lane(pq, 1), expect.y, q_scale, 8) &&
                          close(lane(pq, 2), expect.z, q_scale, 8) && close(lane(pq, 3), expect.w, q_scale, 8),
                      "case %d", i);

        /* M = [a b c] as columns; rows r_i; M v = combine3(columns), M^T v = combine3(rows). */
        simd4_transpose3(va, vb, vc, &r0, &r1, &r2);
        mv = simd4_combine3(va, vb, vc, vv);
        mtv = simd4_combine3(r0, r1, r2, vv);
        {
            ik_vec3 expect_mv =
                ik_vec3_add(ik_vec3_add(ik_vec3_scale(a, v.x), ik_vec3_scale(b, v.y)), ik_vec3_scale(c, v.z));
            ik_real size = (ik_vec3_length(a) + ik_vec3_length(b) + ik_vec3_length(c)) * ik_vec3_length(v);
            ik_bool ok = lane(r0, 3) == 0 && lane(r1, 3) == 0 && lane(r2, 3) == 0;
            for (k = 0; k < 3; ++k) {
                ik_vec3 row = ik_v3(lane(r0, k), lane(r1, k), lane(r2, k)); /* column k read back */
                ik_vec3 column = k == 0 ? a : k == 1 ? b : c;
                ok = ok && memcmp(&row, &column, sizeof row) == 0;
            }
            ok = ok && close(lane(mv, 0), expect_mv.x, size, 8) && close(lane(mv, 1), expect_mv.y, size, 8) &&
                 close(lane(mv, 2), expect_mv.z, size, 8);
            ok = ok && close(lane(mtv, 0), ik_vec3_dot(a, v), size, 8) &&
                 close(lane(mtv, 1), ik_vec3_dot(b, v), size, 8) && close(lane(mtv, 2), ik_vec3_dot(c, v), size, 8);
            PROPERTY_CASE(frame, ok, "case %d", i);
        }
    }
    property_end(&dot);
    property_end(&cross);
    property_end(&product);
    property_end(&frame);
}

/* simd4_rsqrt is exact in the double build and within a few float ulps in
 * the float build, over 40 binades. */
static void test_rsqrt(void) {
    rng r = rng_seeded(12);
    check_property accurate = {"rsqrt within 4 ulps of 1 / sqrt", 0, 0};
    ik_real worst = 0;
    int i;
    for (i = 0; i < CASES; ++i) {
        ik_real x = (ik_real)pow(2.0, rng_range(&r, -20, 20)), expect = 1 / IK_SQRT(x);
        ik_real got = lane(simd4_rsqrt(simd4_set(x, 1, 4, x)), 0);
        ik_real err = IK_FABS(got - expect) / expect;
        worst = ik_maxr(worst, err);
        PROPERTY_CASE(accurate, err <= 4 * IK_REAL_EPSILON, "x %g: %g vs %g", (double)x, (double)got, (double)expect);
    }
    property_end(&accurate);
    printf("rsqrt: worst relative error %.3g (%.2f ulps)\n", (double)worst, (double)(worst / IK_REAL_EPSILON));
}

static void test_lane_moves(void) {
    struct {
        ik_vec3 first, second;
    } s;
    simd4 a = simd4_set(1, -2, 3, -4), loaded;
    ik_real nan = (ik_real)NAN;
    s.first = ik_v3(5, 6, 7);
    s.second = ik_v3(nan, 0, 0); /* a NaN right after the vec3 must not reach lane 3 */
    loaded = simd4_vec3_load(&s.first);
    CHECK(lane(loaded, 0) == 5 && lane(loaded, 1) == 6 && lane(loaded, 2) == 7 && lane(loaded, 3) == 0,
          "vec3 loaded from memory, lane 3 is 0 whatever follows it");
    CHECK(simd4_x(a) == 1 && lane(simd4_yzxw(a), 0) == -2 && lane(simd4_zxyw(a), 0) == 3 &&
              lane(simd4_wwww(a), 2) == -4 && lane(simd4_yyyy(a), 3) == -2,
          "lane shuffles");
    CHECK(lane(simd4_with_w(a, 9), 3) == 9 && lane(simd4_with_w(a, 9), 2) == 3, "with_w replaces lane 3 only");
    CHECK(lane(simd4_abs(a), 1) == 2 && lane(simd4_max(a, simd4_splat(0)), 3) == 0, "abs and max");
    CHECK(simd4_le3(simd4_set(1, 2, 3, 100), simd4_splat(3)) && !simd4_le3(simd4_set(1, 4, 3, 0), simd4_splat(3)) &&
              !simd4_le3(simd4_set(nan, 0, 0, 0), simd4_splat(3)),
          "le3 looks at lanes 0..2 and fails on NaN");
}

/* The lane-wise operations of the batch solvers, each lane against the
 * scalar operation: division and square root exact (one IEEE rounding
 * either way), min, comparisons, select and mask bits, copysign, and the
 * 4x4 transpose; NaN fails every comparison. */
static void test_batch_lanes(void) {
    rng r = rng_seeded(12);
    check_property exact = {"div, sqrt, min, copysign lane by lane equal the scalar ones", 0, 0};
    check_property masks = {"gt, ge, le, and, or, select and mask_bits lane by lane", 0, 0};
    check_property transpose = {"transpose4 swaps rows and columns", 0, 0};
    int i, k;
    for (i = 0; i < CASES / 10; ++i) {
        ik_real a[4], b[4], m[4][4];
        simd4 va, vb, gt, ge, le, sel, rows[4];
        int bits = 0;
        for (k = 0; k < 4; ++k) {
            a[k] = rng_range(&r, -10, 10);
            b[k] = k == i % 4 ? a[k] : rng_range(&r, -10, 10); /* one lane equal */
        }
        if (i % 7 == 0) a[i % 4] = (ik_real)NAN;
        va = simd4_load(a);
        vb = simd4_load(b);
        gt = simd4_gt(va, vb);
        ge = simd4_ge(va, vb);
        le = simd4_le(va, vb);
        sel = simd4_select(gt, va, vb);
        for (k = 0; k < 4; ++k) {
            ik_real fa = IK_FABS(a[k]);
            PROPERTY_CASE(exact,
                          (a[k] != a[k]) || (lane(simd4_div(va, vb), k) == a[k] / b[k] &&
                                             lane(simd4_sqrt(simd4_abs(va)), k) == IK_SQRT(fa) &&
                                             lane(simd4_min(va, vb), k) == (a[k] < b[k] ? a[k] : b[k]) &&
                                             lane(simd4_copysign(vb, va), k) == IK_COPYSIGN(b[k], a[k])),
                          "case %d lane %d", i, k);
            PROPERTY_CASE(exact, !(a[k] != a[k]) || lane(simd4_min(va, vb), k) == b[k], "NaN: min gives b, case %d", i);
            bits |= (a[k] > b[k]) << k;
            PROPERTY_CASE(masks, lane(sel, k) == (a[k] > b[k] ? a[k] : b[k]) || a[k] != a[k], "case %d lane %d", i, k);
        }
        PROPERTY_CASE(masks, simd4_mask_bits(gt) == bits, "case %d: %x vs %x", i, simd4_mask_bits(gt), bits);
        bits = 0;
        for (k = 0; k < 4; ++k) bits |= (a[k] >= b[k] && a[k] <= b[k]) << k;
        PROPERTY_CASE(masks, simd4_mask_bits(simd4_and(ge, le)) == bits, "case %d", i);
        bits = 0;
        for (k = 0; k < 4; ++k) bits |= (a[k] > b[k] || a[k] <= b[k]) << k;
        PROPERTY_CASE(masks, simd4_mask_bits(simd4_or(gt, le)) == bits, "case %d", i);
        for (k = 0; k < 16; ++k) m[k / 4][k % 4] = rng_range(&r, -1, 1);
        for (k = 0; k < 4; ++k) rows[k] = simd4_load(m[k]);
        simd4_transpose4(&rows[0], &rows[1], &rows[2], &rows[3]);
        for (k = 0; k < 16; ++k) PROPERTY_CASE(transpose, lane(rows[k / 4], k % 4) == m[k % 4][k / 4], "case %d", i);
    }
    property_end(&exact);
    property_end(&masks);
    property_end(&transpose);
}

int main(void) {
    test_batch_lanes();
    test_lane_algebra();
    test_rsqrt();
    test_lane_moves();
    return check_summary("test_simd4");
}

/* Eight float lanes in one AVX register, private to the batch jobs: the
 * lane-wise subset of simd4.h under the same names (simd4, simd4_add, ...),
 * so that a batch kernel written against lanes3.h compiles unchanged for
 * eight lanes. Included only by lanes3.h when IKIT_LANES_WIDE is defined,
 * in a file compiled for AVX (see solve/batch_wide.h) and called only
 * where the processor has AVX. Every lane is the same IEEE operation as
 * in simd4.h (no FMA), and simd4_rsqrt is the same estimate refined by
 * the same Newton step, so the lanes give simd4.h's answers. */
#ifndef IKIT_SIMD8_AVX_H
#define IKIT_SIMD8_AVX_H

#include <ikit/math.h>

#include <immintrin.h>

#define IK_LANES 8

typedef __m256 simd4;

static inline simd4 simd4_splat(ik_real s) { return _mm256_set1_ps(s); }
static inline simd4 simd4_load(const ik_real *p) { return _mm256_loadu_ps(p); }
static inline void simd4_store(ik_real *p, simd4 a) { _mm256_storeu_ps(p, a); }
/* (lo, hi): lanes 0..3 from lo, 4..7 from hi. */
static inline simd4 simd4_from_halves(__m128 lo, __m128 hi) {
    return _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1);
}
static inline __m128 simd4_low_half(simd4 a) { return _mm256_castps256_ps128(a); }
static inline __m128 simd4_high_half(simd4 a) { return _mm256_extractf128_ps(a, 1); }
static inline simd4 simd4_add(simd4 a, simd4 b) { return _mm256_add_ps(a, b); }
static inline simd4 simd4_sub(simd4 a, simd4 b) { return _mm256_sub_ps(a, b); }
static inline simd4 simd4_mul(simd4 a, simd4 b) { return _mm256_mul_ps(a, b); }
static inline simd4 simd4_div(simd4 a, simd4 b) { return _mm256_div_ps(a, b); }
static inline simd4 simd4_sqrt(simd4 a) { return _mm256_sqrt_ps(a); }
/* As simd4.h: the estimate and one Newton step, y (3 - a y^2) / 2. */
static inline simd4 simd4_rsqrt(simd4 a) {
    simd4 y = _mm256_rsqrt_ps(a);
    return _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(0.5f), y),
                         _mm256_sub_ps(_mm256_set1_ps(3), _mm256_mul_ps(_mm256_mul_ps(a, y), y)));
}
static inline simd4 simd4_abs(simd4 a) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a); }
/* As maxps/minps: b unless a > b (a < b), so b where either is NaN. */
static inline simd4 simd4_max(simd4 a, simd4 b) { return _mm256_max_ps(a, b); }
static inline simd4 simd4_min(simd4 a, simd4 b) { return _mm256_min_ps(a, b); }
/* Ordered, non-signalling comparisons, as SSE's cmpgt/cmpge/cmple. */
static inline simd4 simd4_gt(simd4 a, simd4 b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
static inline simd4 simd4_ge(simd4 a, simd4 b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
static inline simd4 simd4_le(simd4 a, simd4 b) { return _mm256_cmp_ps(a, b, _CMP_LE_OQ); }
static inline simd4 simd4_and(simd4 a, simd4 b) { return _mm256_and_ps(a, b); }
static inline simd4 simd4_or(simd4 a, simd4 b) { return _mm256_or_ps(a, b); }
static inline simd4 simd4_select(simd4 mask, simd4 a, simd4 b) {
    return _mm256_or_ps(_mm256_and_ps(mask, a), _mm256_andnot_ps(mask, b));
}
static inline int simd4_mask_bits(simd4 mask) { return _mm256_movemask_ps(mask); }
static inline simd4 simd4_copysign(simd4 a, simd4 b) {
    simd4 sign = _mm256_set1_ps(-0.0f);
    return _mm256_or_ps(_mm256_andnot_ps(sign, a), _mm256_and_ps(sign, b));
}

#endif

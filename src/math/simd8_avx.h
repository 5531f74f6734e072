/* Eight float lanes in one AVX register, private to the batch jobs: the
 * lane-wise subset of simd4.h (simd8_add is simd4_add on eight lanes, ...).
 * The batch kernels do not call these names: they use lanes.h's
 * width-neutral ones, which are these when IKIT_LANES_WIDE is defined.
 * Included only by lanes.h then, in a file compiled for AVX (see
 * solve/batch_wide.h) and called only where the processor has AVX. Every
 * lane is the same IEEE operation as in simd4.h (no FMA), and simd8_rsqrt
 * is the same estimate refined by the same Newton step, so the lanes give
 * simd4.h's answers. */
#ifndef IKIT_SIMD8_AVX_H
#define IKIT_SIMD8_AVX_H

#include <ikit/math.h>

#include <immintrin.h>

typedef __m256 simd8;

static inline simd8 simd8_splat(ik_real s) { return _mm256_set1_ps(s); }
static inline simd8 simd8_load(const ik_real *p) { return _mm256_loadu_ps(p); }
static inline void simd8_store(ik_real *p, simd8 a) { _mm256_storeu_ps(p, a); }
/* (lo, hi): lanes 0..3 from lo, 4..7 from hi. */
static inline simd8 simd8_from_halves(__m128 lo, __m128 hi) {
    return _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1);
}
static inline __m128 simd8_low_half(simd8 a) { return _mm256_castps256_ps128(a); }
static inline __m128 simd8_high_half(simd8 a) { return _mm256_extractf128_ps(a, 1); }
static inline simd8 simd8_add(simd8 a, simd8 b) { return _mm256_add_ps(a, b); }
static inline simd8 simd8_sub(simd8 a, simd8 b) { return _mm256_sub_ps(a, b); }
static inline simd8 simd8_mul(simd8 a, simd8 b) { return _mm256_mul_ps(a, b); }
static inline simd8 simd8_div(simd8 a, simd8 b) { return _mm256_div_ps(a, b); }
static inline simd8 simd8_sqrt(simd8 a) { return _mm256_sqrt_ps(a); }
/* As simd4_rsqrt: the estimate and one Newton step, y (3 - a y^2) / 2. */
static inline simd8 simd8_rsqrt(simd8 a) {
    simd8 y = _mm256_rsqrt_ps(a);
    return _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(0.5f), y),
                         _mm256_sub_ps(_mm256_set1_ps(3), _mm256_mul_ps(_mm256_mul_ps(a, y), y)));
}
static inline simd8 simd8_abs(simd8 a) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a); }
/* As maxps/minps: b unless a > b (a < b), so b where either is NaN. */
static inline simd8 simd8_max(simd8 a, simd8 b) { return _mm256_max_ps(a, b); }
static inline simd8 simd8_min(simd8 a, simd8 b) { return _mm256_min_ps(a, b); }
/* Ordered, non-signalling comparisons, as SSE's cmpgt/cmpge/cmple. */
static inline simd8 simd8_gt(simd8 a, simd8 b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
static inline simd8 simd8_ge(simd8 a, simd8 b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
static inline simd8 simd8_le(simd8 a, simd8 b) { return _mm256_cmp_ps(a, b, _CMP_LE_OQ); }
static inline simd8 simd8_and(simd8 a, simd8 b) { return _mm256_and_ps(a, b); }
static inline simd8 simd8_or(simd8 a, simd8 b) { return _mm256_or_ps(a, b); }
static inline simd8 simd8_select(simd8 mask, simd8 a, simd8 b) {
    return _mm256_or_ps(_mm256_and_ps(mask, a), _mm256_andnot_ps(mask, b));
}
static inline int simd8_mask_bits(simd8 mask) { return _mm256_movemask_ps(mask); }
static inline simd8 simd8_copysign(simd8 a, simd8 b) {
    simd8 sign = _mm256_set1_ps(-0.0f);
    return _mm256_or_ps(_mm256_andnot_ps(sign, a), _mm256_and_ps(sign, b));
}

#endif

/* Four ik_real lanes, private to the library: SSE2 when ik_real is float on
 * x86 (SSE2 is part of every x86-64), otherwise a plain struct that the
 * compiler keeps in scalar registers (double, WebAssembly, other targets).
 * Each lane is one IEEE operation either way, except simd4_rsqrt, which on
 * SSE is the hardware estimate refined once (about 2 float ulps).
 *
 * A vec3 lives in lanes 0..2. Lane 3 of a vec3 is 0 when it is loaded
 * (simd4_vec3, simd4_vec3_load) and the vec3 operations (dot3,
 * cross3, combine3) never mix it into lanes 0..2. */
#ifndef IKIT_SIMD4_H
#define IKIT_SIMD4_H

#include <ikit/math.h>

#if !defined(IKIT_DOUBLE) && (defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2))
#define IKIT_SIMD4_SSE 1
#include <emmintrin.h>
#include <string.h>
#endif

#ifdef IKIT_SIMD4_SSE

typedef __m128 simd4;

static inline simd4 simd4_set(ik_real x, ik_real y, ik_real z, ik_real w) { return _mm_set_ps(w, z, y, x); }
static inline simd4 simd4_splat(ik_real s) { return _mm_set1_ps(s); }
/* Four consecutive reals, no alignment needed. */
static inline simd4 simd4_load(const ik_real *p) { return _mm_loadu_ps(p); }
static inline void simd4_store(ik_real *p, simd4 a) { _mm_storeu_ps(p, a); }
static inline ik_real simd4_x(simd4 a) { return _mm_cvtss_f32(a); }
static inline simd4 simd4_add(simd4 a, simd4 b) { return _mm_add_ps(a, b); }
static inline simd4 simd4_sub(simd4 a, simd4 b) { return _mm_sub_ps(a, b); }
static inline simd4 simd4_mul(simd4 a, simd4 b) { return _mm_mul_ps(a, b); }
/* 1 / sqrt(a) for a > 0: the 12-bit estimate and one Newton step,
 * y (3 - a y^2) / 2, to within about 2^-22 (two float ulps). */
static inline simd4 simd4_rsqrt(simd4 a) {
    simd4 y = _mm_rsqrt_ps(a);
    return _mm_mul_ps(_mm_mul_ps(_mm_set1_ps(0.5f), y), _mm_sub_ps(_mm_set1_ps(3), _mm_mul_ps(_mm_mul_ps(a, y), y)));
}
/* (a[i0], a[i1], a[i2], a[i3]); the indices are constants 0..3. */
#define SIMD4_SHUFFLE(a, i0, i1, i2, i3) _mm_shuffle_ps((a), (a), _MM_SHUFFLE(i3, i2, i1, i0))
/* (a0, a1, a2, s): a with lane 3 replaced. */
static inline simd4 simd4_with_w(simd4 a, ik_real s) {
    simd4 zw = _mm_unpackhi_ps(a, _mm_set1_ps(s)); /* a2, s, a3, s */
    return _mm_shuffle_ps(a, zw, _MM_SHUFFLE(1, 0, 1, 0));
}
/* Rows of the 3x3 matrix with columns c0, c1, c2 (lane 3 of each row 0). */
static inline void simd4_transpose3(simd4 c0, simd4 c1, simd4 c2, simd4 *r0, simd4 *r1, simd4 *r2) {
    simd4 zero = _mm_setzero_ps();
    simd4 t0 = _mm_unpacklo_ps(c0, c1);   /* c0x c1x c0y c1y */
    simd4 t1 = _mm_unpackhi_ps(c0, c1);   /* c0z c1z . . */
    simd4 t2 = _mm_unpacklo_ps(c2, zero); /* c2x 0 c2y 0 */
    simd4 t3 = _mm_unpackhi_ps(c2, zero); /* c2z 0 . . */
    *r0 = _mm_movelh_ps(t0, t2);
    *r1 = _mm_movehl_ps(t2, t0);
    *r2 = _mm_movelh_ps(t1, t3);
}
static inline simd4 simd4_abs(simd4 a) { return _mm_andnot_ps(_mm_set1_ps(-0.0f), a); }
static inline simd4 simd4_max(simd4 a, simd4 b) { return _mm_max_ps(a, b); }
/* 1 when lanes 0..2 are all zero. */
static inline ik_bool simd4_is_zero3(simd4 a) { return (_mm_movemask_ps(_mm_cmpeq_ps(a, _mm_setzero_ps())) & 7) == 7; }
/* 1 when a <= b in each of lanes 0..2 (0 for NaN). */
static inline ik_bool simd4_le3(simd4 a, simd4 b) { return (_mm_movemask_ps(_mm_cmple_ps(a, b)) & 7) == 7; }
/* *v in lanes 0..2, 0 in lane 3, from three 4-byte loads. One 16-byte load
 * across the fields would be a cycle or two cheaper, but where the caller
 * has just written them one by one (a job filled per call) it cannot take
 * its data from those pending stores and waits for them to reach the cache
 * (a store-forwarding stall, about 14 ns a job in bench_aim). The loads are
 * integer ones (movd), which the compiler keeps apart from scalar float
 * reads of the same fields: merged with those, it zeroes the upper lanes
 * through general registers. */
static inline simd4 simd4_vec3_load(const ik_vec3 *v) {
    int x, y, z;
    memcpy(&x, &v->x, sizeof x);
    memcpy(&y, &v->y, sizeof y);
    memcpy(&z, &v->z, sizeof z);
    return _mm_castsi128_ps(
        _mm_unpacklo_epi64(_mm_unpacklo_epi32(_mm_cvtsi32_si128(x), _mm_cvtsi32_si128(y)), _mm_cvtsi32_si128(z)));
}

/* ---- lane-wise operations for batches (one limb per lane) ---------------- */
/* Masks are the result of a comparison: all bits set in a lane where it
 * holds. */
static inline simd4 simd4_div(simd4 a, simd4 b) { return _mm_div_ps(a, b); }
static inline simd4 simd4_sqrt(simd4 a) { return _mm_sqrt_ps(a); }
static inline simd4 simd4_min(simd4 a, simd4 b) { return _mm_min_ps(a, b); }
static inline simd4 simd4_gt(simd4 a, simd4 b) { return _mm_cmpgt_ps(a, b); }
static inline simd4 simd4_ge(simd4 a, simd4 b) { return _mm_cmpge_ps(a, b); }
static inline simd4 simd4_le(simd4 a, simd4 b) { return _mm_cmple_ps(a, b); }
static inline simd4 simd4_and(simd4 a, simd4 b) { return _mm_and_ps(a, b); }
static inline simd4 simd4_or(simd4 a, simd4 b) { return _mm_or_ps(a, b); }
/* a in the lanes where `mask` holds, b elsewhere. */
static inline simd4 simd4_select(simd4 mask, simd4 a, simd4 b) {
    return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}
/* Bit i set when the mask holds in lane i. */
static inline int simd4_mask_bits(simd4 mask) { return _mm_movemask_ps(mask); }
/* |a| with the sign of b, per lane. */
static inline simd4 simd4_copysign(simd4 a, simd4 b) {
    simd4 sign = _mm_set1_ps(-0.0f);
    return _mm_or_ps(_mm_andnot_ps(sign, a), _mm_and_ps(sign, b));
}
/* Transpose the 4x4 block whose rows are r0..r3, in place. */
static inline void simd4_transpose4(simd4 *r0, simd4 *r1, simd4 *r2, simd4 *r3) {
    _MM_TRANSPOSE4_PS(*r0, *r1, *r2, *r3);
}

#else

typedef struct simd4 {
    ik_real v[4];
} simd4;

static inline simd4 simd4_set(ik_real x, ik_real y, ik_real z, ik_real w) {
    simd4 r;
    r.v[0] = x;
    r.v[1] = y;
    r.v[2] = z;
    r.v[3] = w;
    return r;
}
static inline simd4 simd4_splat(ik_real s) { return simd4_set(s, s, s, s); }
static inline simd4 simd4_load(const ik_real *p) { return simd4_set(p[0], p[1], p[2], p[3]); }
static inline void simd4_store(ik_real *p, simd4 a) {
    p[0] = a.v[0];
    p[1] = a.v[1];
    p[2] = a.v[2];
    p[3] = a.v[3];
}
static inline ik_real simd4_x(simd4 a) { return a.v[0]; }
static inline simd4 simd4_add(simd4 a, simd4 b) {
    return simd4_set(a.v[0] + b.v[0], a.v[1] + b.v[1], a.v[2] + b.v[2], a.v[3] + b.v[3]);
}
static inline simd4 simd4_sub(simd4 a, simd4 b) {
    return simd4_set(a.v[0] - b.v[0], a.v[1] - b.v[1], a.v[2] - b.v[2], a.v[3] - b.v[3]);
}
static inline simd4 simd4_mul(simd4 a, simd4 b) {
    return simd4_set(a.v[0] * b.v[0], a.v[1] * b.v[1], a.v[2] * b.v[2], a.v[3] * b.v[3]);
}
static inline simd4 simd4_rsqrt(simd4 a) {
    return simd4_set(1 / IK_SQRT(a.v[0]), 1 / IK_SQRT(a.v[1]), 1 / IK_SQRT(a.v[2]), 1 / IK_SQRT(a.v[3]));
}
#define SIMD4_SHUFFLE(a, i0, i1, i2, i3) simd4_set((a).v[i0], (a).v[i1], (a).v[i2], (a).v[i3])
static inline simd4 simd4_with_w(simd4 a, ik_real s) { return simd4_set(a.v[0], a.v[1], a.v[2], s); }
static inline void simd4_transpose3(simd4 c0, simd4 c1, simd4 c2, simd4 *r0, simd4 *r1, simd4 *r2) {
    *r0 = simd4_set(c0.v[0], c1.v[0], c2.v[0], 0);
    *r1 = simd4_set(c0.v[1], c1.v[1], c2.v[1], 0);
    *r2 = simd4_set(c0.v[2], c1.v[2], c2.v[2], 0);
}
static inline simd4 simd4_vec3_load(const ik_vec3 *v) { return simd4_set(v->x, v->y, v->z, 0); }
static inline simd4 simd4_abs(simd4 a) {
    return simd4_set(IK_FABS(a.v[0]), IK_FABS(a.v[1]), IK_FABS(a.v[2]), IK_FABS(a.v[3]));
}
static inline simd4 simd4_max(simd4 a, simd4 b) {
    return simd4_set(ik_maxr(a.v[0], b.v[0]), ik_maxr(a.v[1], b.v[1]), ik_maxr(a.v[2], b.v[2]),
                     ik_maxr(a.v[3], b.v[3]));
}
static inline ik_bool simd4_is_zero3(simd4 a) { return a.v[0] == 0 && a.v[1] == 0 && a.v[2] == 0; }
static inline ik_bool simd4_le3(simd4 a, simd4 b) { return a.v[0] <= b.v[0] && a.v[1] <= b.v[1] && a.v[2] <= b.v[2]; }

/* ---- lane-wise operations for batches (one limb per lane) ---------------- */
/* Masks are the result of a comparison: 1 in a lane where it holds, else 0. */
static inline simd4 simd4_div(simd4 a, simd4 b) {
    return simd4_set(a.v[0] / b.v[0], a.v[1] / b.v[1], a.v[2] / b.v[2], a.v[3] / b.v[3]);
}
static inline simd4 simd4_sqrt(simd4 a) {
    return simd4_set(IK_SQRT(a.v[0]), IK_SQRT(a.v[1]), IK_SQRT(a.v[2]), IK_SQRT(a.v[3]));
}
/* As SSE's minps: b unless a < b (so b where either is NaN). */
static inline simd4 simd4_min(simd4 a, simd4 b) {
    return simd4_set(a.v[0] < b.v[0] ? a.v[0] : b.v[0], a.v[1] < b.v[1] ? a.v[1] : b.v[1],
                     a.v[2] < b.v[2] ? a.v[2] : b.v[2], a.v[3] < b.v[3] ? a.v[3] : b.v[3]);
}
static inline simd4 simd4_gt(simd4 a, simd4 b) {
    return simd4_set(a.v[0] > b.v[0], a.v[1] > b.v[1], a.v[2] > b.v[2], a.v[3] > b.v[3]);
}
static inline simd4 simd4_ge(simd4 a, simd4 b) {
    return simd4_set(a.v[0] >= b.v[0], a.v[1] >= b.v[1], a.v[2] >= b.v[2], a.v[3] >= b.v[3]);
}
static inline simd4 simd4_le(simd4 a, simd4 b) {
    return simd4_set(a.v[0] <= b.v[0], a.v[1] <= b.v[1], a.v[2] <= b.v[2], a.v[3] <= b.v[3]);
}
static inline simd4 simd4_and(simd4 a, simd4 b) {
    return simd4_set(a.v[0] != 0 && b.v[0] != 0, a.v[1] != 0 && b.v[1] != 0, a.v[2] != 0 && b.v[2] != 0,
                     a.v[3] != 0 && b.v[3] != 0);
}
static inline simd4 simd4_or(simd4 a, simd4 b) {
    return simd4_set(a.v[0] != 0 || b.v[0] != 0, a.v[1] != 0 || b.v[1] != 0, a.v[2] != 0 || b.v[2] != 0,
                     a.v[3] != 0 || b.v[3] != 0);
}
static inline simd4 simd4_select(simd4 mask, simd4 a, simd4 b) {
    return simd4_set(mask.v[0] != 0 ? a.v[0] : b.v[0], mask.v[1] != 0 ? a.v[1] : b.v[1],
                     mask.v[2] != 0 ? a.v[2] : b.v[2], mask.v[3] != 0 ? a.v[3] : b.v[3]);
}
static inline int simd4_mask_bits(simd4 mask) {
    return (mask.v[0] != 0) | (mask.v[1] != 0) << 1 | (mask.v[2] != 0) << 2 | (mask.v[3] != 0) << 3;
}
static inline simd4 simd4_copysign(simd4 a, simd4 b) {
    return simd4_set(IK_COPYSIGN(a.v[0], b.v[0]), IK_COPYSIGN(a.v[1], b.v[1]), IK_COPYSIGN(a.v[2], b.v[2]),
                     IK_COPYSIGN(a.v[3], b.v[3]));
}
static inline void simd4_transpose4(simd4 *r0, simd4 *r1, simd4 *r2, simd4 *r3) {
    simd4 a = *r0, b = *r1, c = *r2, d = *r3;
    *r0 = simd4_set(a.v[0], b.v[0], c.v[0], d.v[0]);
    *r1 = simd4_set(a.v[1], b.v[1], c.v[1], d.v[1]);
    *r2 = simd4_set(a.v[2], b.v[2], c.v[2], d.v[2]);
    *r3 = simd4_set(a.v[3], b.v[3], c.v[3], d.v[3]);
}

#endif

/* ---- built on the lane operations above --------------------------------- */

static inline simd4 simd4_vec3(ik_vec3 v) { return simd4_set(v.x, v.y, v.z, 0); }
static inline simd4 simd4_quat(ik_quat q) { return simd4_set(q.x, q.y, q.z, q.w); }
/* Lanes 0..2 as an ik_vec3. */
static inline ik_vec3 simd4_to_vec3(simd4 a) {
    ik_real lanes[4];
    simd4_store(lanes, a);
    return ik_v3(lanes[0], lanes[1], lanes[2]);
}
static inline ik_quat simd4_to_quat(simd4 a) {
    ik_quat q;
    simd4_store(&q.x, a);
    return q;
}
static inline simd4 simd4_yzxw(simd4 a) { return SIMD4_SHUFFLE(a, 1, 2, 0, 3); }
static inline simd4 simd4_zxyw(simd4 a) { return SIMD4_SHUFFLE(a, 2, 0, 1, 3); }
static inline simd4 simd4_xxxx(simd4 a) { return SIMD4_SHUFFLE(a, 0, 0, 0, 0); }
static inline simd4 simd4_yyyy(simd4 a) { return SIMD4_SHUFFLE(a, 1, 1, 1, 1); }
static inline simd4 simd4_zzzz(simd4 a) { return SIMD4_SHUFFLE(a, 2, 2, 2, 2); }
static inline simd4 simd4_wwww(simd4 a) { return SIMD4_SHUFFLE(a, 3, 3, 3, 3); }
/* a . b over lanes 0..2, summed as (x + z) + y. */
static inline ik_real simd4_dot3(simd4 a, simd4 b) {
    simd4 p = simd4_mul(a, b);
    return simd4_x(simd4_add(simd4_add(p, SIMD4_SHUFFLE(p, 2, 3, 2, 3)), SIMD4_SHUFFLE(p, 1, 1, 1, 1)));
}
/* a . b over all four lanes, summed as (x + z) + (y + w). */
static inline ik_real simd4_dot4(simd4 a, simd4 b) {
    simd4 p = simd4_mul(a, b);
    simd4 s = simd4_add(p, SIMD4_SHUFFLE(p, 2, 3, 2, 3));
    return simd4_x(simd4_add(s, SIMD4_SHUFFLE(s, 1, 1, 1, 1)));
}
/* The quaternion product a b (x, y, z, w lanes), as ik_quat_mul:
 * w_a v_b + w_b v_a + v_a x v_b, w_a w_b - v_a . v_b, four lane products. */
static inline simd4 simd4_quat_mul(simd4 a, simd4 b) {
    simd4 flip_w = simd4_set(1, 1, 1, -1);
    simd4 r = simd4_mul(simd4_wwww(a), b);
    r = simd4_add(r, simd4_mul(simd4_mul(SIMD4_SHUFFLE(a, 0, 1, 2, 0), SIMD4_SHUFFLE(b, 3, 3, 3, 0)), flip_w));
    r = simd4_add(r, simd4_mul(simd4_mul(SIMD4_SHUFFLE(a, 1, 2, 0, 1), SIMD4_SHUFFLE(b, 2, 0, 1, 1)), flip_w));
    return simd4_sub(r, simd4_mul(SIMD4_SHUFFLE(a, 2, 0, 1, 2), SIMD4_SHUFFLE(b, 1, 2, 0, 2)));
}
/* a x b in lanes 0..2: (a * b.yzx - a.yzx * b).yzx. */
static inline simd4 simd4_cross3(simd4 a, simd4 b) {
    return simd4_yzxw(simd4_sub(simd4_mul(a, simd4_yzxw(b)), simd4_mul(simd4_yzxw(a), b)));
}
/* The matrix with columns k0, k1, k2 times v (lanes 0..2). */
static inline simd4 simd4_combine3(simd4 k0, simd4 k1, simd4 k2, simd4 v) {
    return simd4_add(simd4_add(simd4_mul(k0, simd4_xxxx(v)), simd4_mul(k1, simd4_yyyy(v))),
                     simd4_mul(k2, simd4_zzzz(v)));
}

#endif

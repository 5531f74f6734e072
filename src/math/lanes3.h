/* IK_LANES vec3s in structure-of-arrays form, one per lane of `lanes`
 * (lanes.h): the batch solvers' vector type (x, y and z each hold the
 * limbs' values), private to the library. Every operation is the vec3 one
 * of math.h, lane by lane, in the same order of operations. Four lanes, or
 * eight where IKIT_LANES_WIDE is defined; the loaders and stores below are
 * written per width. */
#ifndef IKIT_LANES3_H
#define IKIT_LANES3_H

#include <stddef.h>

#include "lanes.h"

typedef struct lanes3 {
    lanes x, y, z;
} lanes3;

static inline lanes3 lanes3_make(lanes x, lanes y, lanes z) {
    lanes3 r;
    r.x = x;
    r.y = y;
    r.z = z;
    return r;
}
static inline lanes3 lanes3_add(lanes3 a, lanes3 b) {
    return lanes3_make(lanes_add(a.x, b.x), lanes_add(a.y, b.y), lanes_add(a.z, b.z));
}
static inline lanes3 lanes3_sub(lanes3 a, lanes3 b) {
    return lanes3_make(lanes_sub(a.x, b.x), lanes_sub(a.y, b.y), lanes_sub(a.z, b.z));
}
static inline lanes3 lanes3_scale(lanes3 a, lanes s) {
    return lanes3_make(lanes_mul(a.x, s), lanes_mul(a.y, s), lanes_mul(a.z, s));
}
/* a + b s */
static inline lanes3 lanes3_mad(lanes3 a, lanes3 b, lanes s) { return lanes3_add(a, lanes3_scale(b, s)); }
static inline lanes lanes3_dot(lanes3 a, lanes3 b) {
    return lanes_add(lanes_add(lanes_mul(a.x, b.x), lanes_mul(a.y, b.y)), lanes_mul(a.z, b.z));
}
static inline lanes3 lanes3_cross(lanes3 a, lanes3 b) {
    return lanes3_make(lanes_sub(lanes_mul(a.y, b.z), lanes_mul(a.z, b.y)),
                       lanes_sub(lanes_mul(a.z, b.x), lanes_mul(a.x, b.z)),
                       lanes_sub(lanes_mul(a.x, b.y), lanes_mul(a.y, b.x)));
}
static inline lanes3 lanes3_select(lanes mask, lanes3 a, lanes3 b) {
    return lanes3_make(lanes_select(mask, a.x, b.x), lanes_select(mask, a.y, b.y), lanes_select(mask, a.z, b.z));
}

#if IK_LANES == 4
/* Four vec3s, lane i from p[i] (a vec3 that may end the caller's array:
 * no read past its three reals). */
static inline lanes3 lanes3_gather(const ik_vec3 *const p[4]) {
    return lanes3_make(simd4_set(p[0]->x, p[1]->x, p[2]->x, p[3]->x), simd4_set(p[0]->y, p[1]->y, p[2]->y, p[3]->y),
                       simd4_set(p[0]->z, p[1]->z, p[2]->z, p[3]->z));
}

/* Four reals, lane i from base[index[i]]. */
static inline lanes lanes_gather(const ik_real *base, const int index[4]) {
    return simd4_set(base[index[0]], base[index[1]], base[index[2]], base[index[3]]);
}

/* Four vec3s from vec3 i to i + 3 of a packed array, each read with the
 * real after it: the caller makes sure vec3 i + 4 exists. */
static inline lanes3 lanes3_load_run(const ik_vec3 *v) {
    lanes r0 = lanes_load(&v[0].x), r1 = lanes_load(&v[1].x), r2 = lanes_load(&v[2].x), r3 = lanes_load(&v[3].x);
    simd4_transpose4(&r0, &r1, &r2, &r3);
    return lanes3_make(r0, r1, r2);
}

/* Column `col` of four matrices, lane i from m[i]; with *w the column's
 * fourth row. */
static inline lanes3 lanes3_matrix_column(const ik_mat4 *const m[4], int col, lanes *w) {
    lanes r0 = lanes_load(m[0]->m + 4 * col), r1 = lanes_load(m[1]->m + 4 * col);
    lanes r2 = lanes_load(m[2]->m + 4 * col), r3 = lanes_load(m[3]->m + 4 * col);
    simd4_transpose4(&r0, &r1, &r2, &r3);
    if (w) *w = r3;
    return lanes3_make(r0, r1, r2);
}
#else
/* The same loaders for eight lanes: each half is the four-lane SSE form. */
static inline void lanes3_transpose_half(__m128 r[4]) { _MM_TRANSPOSE4_PS(r[0], r[1], r[2], r[3]); }

static inline lanes3 lanes3_gather(const ik_vec3 *const p[8]) {
    __m128 x[2], y[2], z[2];
    int half;
    for (half = 0; half < 2; ++half) {
        const ik_vec3 *const *q = p + 4 * half;
        x[half] = _mm_set_ps(q[3]->x, q[2]->x, q[1]->x, q[0]->x);
        y[half] = _mm_set_ps(q[3]->y, q[2]->y, q[1]->y, q[0]->y);
        z[half] = _mm_set_ps(q[3]->z, q[2]->z, q[1]->z, q[0]->z);
    }
    return lanes3_make(simd8_from_halves(x[0], x[1]), simd8_from_halves(y[0], y[1]), simd8_from_halves(z[0], z[1]));
}

static inline lanes lanes_gather(const ik_real *base, const int index[8]) {
    return simd8_from_halves(_mm_set_ps(base[index[3]], base[index[2]], base[index[1]], base[index[0]]),
                             _mm_set_ps(base[index[7]], base[index[6]], base[index[5]], base[index[4]]));
}

/* Rows r[0..3] of four 4-vectors per half, transposed and joined. */
static inline lanes3 lanes3_join_halves(__m128 lo[4], __m128 hi[4], lanes *w) {
    lanes3_transpose_half(lo);
    lanes3_transpose_half(hi);
    if (w) *w = simd8_from_halves(lo[3], hi[3]);
    return lanes3_make(simd8_from_halves(lo[0], hi[0]), simd8_from_halves(lo[1], hi[1]),
                       simd8_from_halves(lo[2], hi[2]));
}

static inline lanes3 lanes3_load_run(const ik_vec3 *v) {
    __m128 lo[4], hi[4];
    int lane;
    for (lane = 0; lane < 4; ++lane) {
        lo[lane] = _mm_loadu_ps(&v[lane].x);
        hi[lane] = _mm_loadu_ps(&v[lane + 4].x);
    }
    return lanes3_join_halves(lo, hi, NULL);
}

static inline lanes3 lanes3_matrix_column(const ik_mat4 *const m[8], int col, lanes *w) {
    __m128 lo[4], hi[4];
    int lane;
    for (lane = 0; lane < 4; ++lane) {
        lo[lane] = _mm_loadu_ps(m[lane]->m + 4 * col);
        hi[lane] = _mm_loadu_ps(m[lane + 4]->m + 4 * col);
    }
    return lanes3_join_halves(lo, hi, w);
}
#endif

/* Element i of an array of matrices `stride` bytes apart. */
static inline const ik_mat4 *lanes3_strided_matrix(const ik_mat4 *base, size_t stride, int i) {
    return (const ik_mat4 *)(const void *)((const char *)base + (size_t)i * stride);
}

/* IK_LANES quaternions: a vector part and w. */
typedef struct quat_lanes {
    lanes3 v;
    lanes w;
} quat_lanes;

static inline quat_lanes quat_lanes_make(lanes3 v, lanes w) {
    quat_lanes q;
    q.v = v;
    q.w = w;
    return q;
}

/* a b = (w_a v_b + w_b v_a + v_a x v_b, w_a w_b - v_a . v_b) */
static inline quat_lanes quat_lanes_mul(quat_lanes a, quat_lanes b) {
    lanes3 v = lanes3_add(lanes3_add(lanes3_scale(b.v, a.w), lanes3_scale(a.v, b.w)), lanes3_cross(a.v, b.v));
    return quat_lanes_make(v, lanes_sub(lanes_mul(a.w, b.w), lanes3_dot(a.v, b.v)));
}

/* q v q* = (w^2 - |u|^2) v + 2 (u . v) u + 2 w (u x v) (ik_quat_rotate_scaled) */
static inline lanes3 quat_lanes_rotate_scaled(quat_lanes q, lanes3 v) {
    lanes two = lanes_splat(2);
    lanes3 r = lanes3_scale(v, lanes_sub(lanes_mul(q.w, q.w), lanes3_dot(q.v, q.v)));
    r = lanes3_mad(r, q.v, lanes_mul(two, lanes3_dot(q.v, v)));
    return lanes3_mad(r, lanes3_cross(q.v, v), lanes_mul(two, q.w));
}

/* ik_quat_from_to(from, to) lane by lane (math/quat.c), normalised, for the
 * two-bone kernel's swings past about 170 degrees. With l = |from||to| and
 * w = l + from . to: where w > l / 64, (from x to, w); else a half turn
 * about p = unit(from x to), which takes `from` to b = 2 (p . from) p - from,
 * then the half-way quaternion from b to `to`: (b x to, l + b . to) (p, 0).
 * *usable holds where ik_quat_from_to takes neither of its other ways (l
 * zero or not finite: the identity; from x to within rounding of zero: any
 * perpendicular axis) and the squared norm is a normal number. */
static inline quat_lanes quat_lanes_from_to(lanes3 from, lanes3 to, lanes *usable) {
    const lanes one = lanes_splat(1), zero = lanes_splat(0);
    lanes l = lanes_sqrt(lanes_mul(lanes3_dot(from, from), lanes3_dot(to, to)));
    lanes w = lanes_add(l, lanes3_dot(from, to)), c_sq, len_sq, inv;
    lanes3 c = lanes3_cross(from, to), p, b;
    lanes ordinary = lanes_gt(w, lanes_mul(l, lanes_splat((ik_real)(1.0 / 64))));
    quat_lanes split, q;
    c_sq = lanes3_dot(c, c);
    p = lanes3_scale(c, lanes_div(one, lanes_sqrt(c_sq)));
    b = lanes3_sub(lanes3_scale(p, lanes_mul(lanes_splat(2), lanes3_dot(p, from))), from);
    split =
        quat_lanes_mul(quat_lanes_make(lanes3_cross(b, to), lanes_add(l, lanes3_dot(b, to))), quat_lanes_make(p, zero));
    q = quat_lanes_make(lanes3_select(ordinary, c, split.v), lanes_select(ordinary, w, split.w));
    len_sq = lanes_add(lanes3_dot(q.v, q.v), lanes_mul(q.w, q.w));
    *usable = lanes_and(
        lanes_and(lanes_gt(l, zero), lanes_le(l, lanes_splat(IK_REAL_MAX))),
        lanes_and(lanes_or(ordinary, lanes_gt(c_sq, lanes_mul(lanes_mul(l, l),
                                                              lanes_splat(256 * IK_REAL_EPSILON * IK_REAL_EPSILON)))),
                  lanes_and(lanes_ge(len_sq, lanes_splat(IK_REAL_MIN)), lanes_le(len_sq, lanes_splat(IK_REAL_MAX)))));
    inv = lanes_div(one, lanes_sqrt(lanes_select(*usable, len_sq, one)));
    return quat_lanes_make(lanes3_scale(q.v, inv), lanes_mul(q.w, inv));
}

#if IK_LANES == 4
/* Four quaternions back from their lanes, into out[0..3]. */
static inline void quat_lanes_store(quat_lanes q, ik_quat *out) {
    lanes x = q.v.x, y = q.v.y, z = q.v.z, w = q.w;
    simd4_transpose4(&x, &y, &z, &w);
    lanes_store(&out[0].x, x);
    lanes_store(&out[1].x, y);
    lanes_store(&out[2].x, z);
    lanes_store(&out[3].x, w);
}
#else
/* Eight quaternions back from their lanes, into out[0..7]. */
static inline void quat_lanes_store(quat_lanes q, ik_quat *out) {
    __m128 r[4];
    int half, lane;
    for (half = 0; half < 2; ++half) {
        r[0] = half ? simd8_high_half(q.v.x) : simd8_low_half(q.v.x);
        r[1] = half ? simd8_high_half(q.v.y) : simd8_low_half(q.v.y);
        r[2] = half ? simd8_high_half(q.v.z) : simd8_low_half(q.v.z);
        r[3] = half ? simd8_high_half(q.w) : simd8_low_half(q.w);
        lanes3_transpose_half(r);
        for (lane = 0; lane < 4; ++lane) _mm_storeu_ps(&out[4 * half + lane].x, r[lane]);
    }
}
#endif

#endif

/* Four vec3s in structure-of-arrays form, one per lane of simd4: the
 * batch solvers' vector type (x, y and z each hold the four limbs' values),
 * private to the library. Every operation is the vec3 one of math.h, lane
 * by lane, in the same order of operations. */
#ifndef IKIT_LANES3_H
#define IKIT_LANES3_H

#include <stddef.h>

#include "simd4.h"

typedef struct lanes3 {
    simd4 x, y, z;
} lanes3;

static inline lanes3 lanes3_make(simd4 x, simd4 y, simd4 z) {
    lanes3 r;
    r.x = x;
    r.y = y;
    r.z = z;
    return r;
}
static inline lanes3 lanes3_add(lanes3 a, lanes3 b) {
    return lanes3_make(simd4_add(a.x, b.x), simd4_add(a.y, b.y), simd4_add(a.z, b.z));
}
static inline lanes3 lanes3_sub(lanes3 a, lanes3 b) {
    return lanes3_make(simd4_sub(a.x, b.x), simd4_sub(a.y, b.y), simd4_sub(a.z, b.z));
}
static inline lanes3 lanes3_scale(lanes3 a, simd4 s) {
    return lanes3_make(simd4_mul(a.x, s), simd4_mul(a.y, s), simd4_mul(a.z, s));
}
/* a + b s */
static inline lanes3 lanes3_mad(lanes3 a, lanes3 b, simd4 s) { return lanes3_add(a, lanes3_scale(b, s)); }
static inline simd4 lanes3_dot(lanes3 a, lanes3 b) {
    return simd4_add(simd4_add(simd4_mul(a.x, b.x), simd4_mul(a.y, b.y)), simd4_mul(a.z, b.z));
}
static inline lanes3 lanes3_cross(lanes3 a, lanes3 b) {
    return lanes3_make(simd4_sub(simd4_mul(a.y, b.z), simd4_mul(a.z, b.y)),
                       simd4_sub(simd4_mul(a.z, b.x), simd4_mul(a.x, b.z)),
                       simd4_sub(simd4_mul(a.x, b.y), simd4_mul(a.y, b.x)));
}
static inline lanes3 lanes3_select(simd4 mask, lanes3 a, lanes3 b) {
    return lanes3_make(simd4_select(mask, a.x, b.x), simd4_select(mask, a.y, b.y), simd4_select(mask, a.z, b.z));
}

/* Four vec3s, lane i from p[i] (a vec3 that may end the caller's array:
 * no read past its three reals). */
static inline lanes3 lanes3_gather(const ik_vec3 *const p[4]) {
    return lanes3_make(simd4_set(p[0]->x, p[1]->x, p[2]->x, p[3]->x), simd4_set(p[0]->y, p[1]->y, p[2]->y, p[3]->y),
                       simd4_set(p[0]->z, p[1]->z, p[2]->z, p[3]->z));
}

/* Four vec3s from vec3 i to i + 3 of a packed array, each read with the
 * real after it: the caller makes sure vec3 i + 4 exists. */
static inline lanes3 lanes3_load_run(const ik_vec3 *v) {
    simd4 r0 = simd4_load(&v[0].x), r1 = simd4_load(&v[1].x), r2 = simd4_load(&v[2].x), r3 = simd4_load(&v[3].x);
    simd4_transpose4(&r0, &r1, &r2, &r3);
    return lanes3_make(r0, r1, r2);
}

/* Column `col` of four matrices, lane i from m[i]; with *w the column's
 * fourth row. */
static inline lanes3 lanes3_matrix_column(const ik_mat4 *const m[4], int col, simd4 *w) {
    simd4 r0 = simd4_load(m[0]->m + 4 * col), r1 = simd4_load(m[1]->m + 4 * col);
    simd4 r2 = simd4_load(m[2]->m + 4 * col), r3 = simd4_load(m[3]->m + 4 * col);
    simd4_transpose4(&r0, &r1, &r2, &r3);
    if (w) *w = r3;
    return lanes3_make(r0, r1, r2);
}

/* Element i of an array of matrices `stride` bytes apart. */
static inline const ik_mat4 *lanes3_strided_matrix(const ik_mat4 *base, size_t stride, int i) {
    return (const ik_mat4 *)(const void *)((const char *)base + (size_t)i * stride);
}

/* Four quaternions: a vector part and w. */
typedef struct quat_lanes {
    lanes3 v;
    simd4 w;
} quat_lanes;

static inline quat_lanes quat_lanes_make(lanes3 v, simd4 w) {
    quat_lanes q;
    q.v = v;
    q.w = w;
    return q;
}

/* a b = (w_a v_b + w_b v_a + v_a x v_b, w_a w_b - v_a . v_b) */
static inline quat_lanes quat_lanes_mul(quat_lanes a, quat_lanes b) {
    lanes3 v = lanes3_add(lanes3_add(lanes3_scale(b.v, a.w), lanes3_scale(a.v, b.w)), lanes3_cross(a.v, b.v));
    return quat_lanes_make(v, simd4_sub(simd4_mul(a.w, b.w), lanes3_dot(a.v, b.v)));
}

/* q v q* = (w^2 - |u|^2) v + 2 (u . v) u + 2 w (u x v) (ik_quat_rotate_scaled) */
static inline lanes3 quat_lanes_rotate_scaled(quat_lanes q, lanes3 v) {
    simd4 two = simd4_splat(2);
    lanes3 r = lanes3_scale(v, simd4_sub(simd4_mul(q.w, q.w), lanes3_dot(q.v, q.v)));
    r = lanes3_mad(r, q.v, simd4_mul(two, lanes3_dot(q.v, v)));
    return lanes3_mad(r, lanes3_cross(q.v, v), simd4_mul(two, q.w));
}

/* Four quaternions back from their lanes, into out[0..3]. */
static inline void quat_lanes_store(quat_lanes q, ik_quat *out) {
    simd4 x = q.v.x, y = q.v.y, z = q.v.z, w = q.w;
    simd4_transpose4(&x, &y, &z, &w);
    simd4_store(&out[0].x, x);
    simd4_store(&out[1].x, y);
    simd4_store(&out[2].x, z);
    simd4_store(&out[3].x, w);
}

#endif

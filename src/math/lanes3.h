/* Four vec3s in structure-of-arrays form, one per lane of simd4: the
 * batch solvers' vector type (x, y and z each hold the four limbs' values),
 * private to the library. Every operation is the vec3 one of math.h, lane
 * by lane, in the same order of operations. */
#ifndef IKIT_LANES3_H
#define IKIT_LANES3_H

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

#endif

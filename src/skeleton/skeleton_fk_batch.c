/* Forward kinematics of many poses of one skeleton, four poses per step,
 * one per lane: joint by joint (parents first), model = parent model times
 * the local matrix T R S, as ik_skeleton_fk with ik_mat4_from_trs and
 * ik_mat4_mul, the same products summed in the same order. */
#include <ikit/skeleton_fk_batch.h>

#include <stddef.h>

#include "../math/lanes3.h"

/* An affine matrix in four lanes: three columns and the translation. */
typedef struct affine_lanes {
    lanes3 col[3], t;
} affine_lanes;

/* The local matrix of four transforms (ik_mat4_from_trs): with the unit
 * quaternion (x, y, z, w), columns ((1 - 2(yy + zz)), 2(xy + wz),
 * 2(xz - wy)) s_x, (2(xy - wz), 1 - 2(xx + zz), 2(yz + wx)) s_y,
 * (2(xz + wy), 2(yz - wx), 1 - 2(xx + yy)) s_z. Each transform is read as
 * three runs of four reals inside it: (t, q.x), q, (q.w, s). */
static affine_lanes local_lanes(const ik_transform *const tr[4]) {
    const simd4 one = simd4_splat(1), two = simd4_splat(2);
    simd4 a[4], b[4], c[4], xx, yy, zz, xy, xz, yz, wx, wy, wz;
    affine_lanes L;
    int lane;
    for (lane = 0; lane < 4; ++lane) {
        const ik_real *p = &tr[lane]->translation.x;
        a[lane] = simd4_load(p);
        b[lane] = simd4_load(&tr[lane]->rotation.x);
        c[lane] = simd4_load(&tr[lane]->rotation.w);
    }
    simd4_transpose4(&a[0], &a[1], &a[2], &a[3]); /* t.x, t.y, t.z, q.x */
    simd4_transpose4(&b[0], &b[1], &b[2], &b[3]); /* q.x, q.y, q.z, q.w */
    simd4_transpose4(&c[0], &c[1], &c[2], &c[3]); /* q.w, s.x, s.y, s.z */
    xx = simd4_mul(b[0], b[0]);
    yy = simd4_mul(b[1], b[1]);
    zz = simd4_mul(b[2], b[2]);
    xy = simd4_mul(b[0], b[1]);
    xz = simd4_mul(b[0], b[2]);
    yz = simd4_mul(b[1], b[2]);
    wx = simd4_mul(b[3], b[0]);
    wy = simd4_mul(b[3], b[1]);
    wz = simd4_mul(b[3], b[2]);
    L.col[0] = lanes3_scale(lanes3_make(simd4_sub(one, simd4_mul(two, simd4_add(yy, zz))),
                                        simd4_mul(two, simd4_add(xy, wz)), simd4_mul(two, simd4_sub(xz, wy))),
                            c[1]);
    L.col[1] =
        lanes3_scale(lanes3_make(simd4_mul(two, simd4_sub(xy, wz)), simd4_sub(one, simd4_mul(two, simd4_add(xx, zz))),
                                 simd4_mul(two, simd4_add(yz, wx))),
                     c[2]);
    L.col[2] = lanes3_scale(lanes3_make(simd4_mul(two, simd4_add(xz, wy)), simd4_mul(two, simd4_sub(yz, wx)),
                                        simd4_sub(one, simd4_mul(two, simd4_add(xx, yy)))),
                            c[3]);
    L.t = lanes3_make(a[0], a[1], a[2]);
    return L;
}

/* Four parent matrices into lanes (rows 0..2 of each column). */
static affine_lanes matrix_lanes(const ik_mat4 *const m[4]) {
    affine_lanes P;
    P.col[0] = lanes3_matrix_column(m, 0, NULL);
    P.col[1] = lanes3_matrix_column(m, 1, NULL);
    P.col[2] = lanes3_matrix_column(m, 2, NULL);
    P.t = lanes3_matrix_column(m, 3, NULL);
    return P;
}

/* P v (+ P's translation for a point), summed as ik_mat4_mul does:
 * ((p0 v.x + p1 v.y) + p2 v.z) + p3 w. */
static lanes3 apply_lanes(const affine_lanes *P, lanes3 v, ik_bool point) {
    lanes3 r = lanes3_add(lanes3_add(lanes3_scale(P->col[0], v.x), lanes3_scale(P->col[1], v.y)),
                          lanes3_scale(P->col[2], v.z));
    return point ? lanes3_add(r, P->t) : r;
}

/* Column `col` (bottom row `w`) of four matrices back to out[0..filled-1]. */
static void store_column(lanes3 v, ik_real w, int col, ik_mat4 *const out[4], int filled) {
    simd4 r0 = v.x, r1 = v.y, r2 = v.z, r3 = simd4_splat(w);
    ik_real column[4][4];
    int lane;
    simd4_transpose4(&r0, &r1, &r2, &r3);
    if (filled == 4) {
        simd4_store(out[0]->m + 4 * col, r0);
        simd4_store(out[1]->m + 4 * col, r1);
        simd4_store(out[2]->m + 4 * col, r2);
        simd4_store(out[3]->m + 4 * col, r3);
        return;
    }
    simd4_store(column[0], r0);
    simd4_store(column[1], r1);
    simd4_store(column[2], r2);
    simd4_store(column[3], r3);
    for (lane = 0; lane < filled; ++lane) {
        out[lane]->m[4 * col] = column[lane][0];
        out[lane]->m[4 * col + 1] = column[lane][1];
        out[lane]->m[4 * col + 2] = column[lane][2];
        out[lane]->m[4 * col + 3] = column[lane][3];
    }
}

ik_result ik_skeleton_fk_batch_range(const ik_skeleton *skeleton, int first_joint, int last_joint, int count,
                                     const ik_transform *poses_ls, const ik_mat4 *roots_ms, ik_mat4 *models_ms) {
    int first, joint, n;
    if (count < 0) return IK_ERR_RANGE;
    if (count == 0) return IK_OK;
    if (!skeleton || !skeleton->parents || !poses_ls || !models_ms) return IK_ERR_NULL;
    n = skeleton->joint_count;
    if (first_joint < 0 || last_joint > n || first_joint > last_joint) return IK_ERR_RANGE;
    for (first = 0; first < count; first += 4) {
        int filled = count - first < 4 ? count - first : 4, lane;
        size_t pose[4];
        for (lane = 0; lane < 4; ++lane) pose[lane] = (size_t)(lane < filled ? first + lane : first + filled - 1);
        for (joint = first_joint; joint < last_joint; ++joint) {
            const ik_transform *tr[4];
            const ik_mat4 *parent[4];
            ik_mat4 *out[4];
            affine_lanes L, P;
            int p = skeleton->parents[joint];
            for (lane = 0; lane < 4; ++lane) {
                tr[lane] = &poses_ls[pose[lane] * (size_t)n + (size_t)joint];
                out[lane] = &models_ms[pose[lane] * (size_t)n + (size_t)joint];
                parent[lane] = p >= 0     ? &models_ms[pose[lane] * (size_t)n + (size_t)p]
                               : roots_ms ? &roots_ms[pose[lane]]
                                          : NULL;
            }
            L = local_lanes(tr);
            if (parent[0]) {
                P = matrix_lanes(parent);
                L.col[0] = apply_lanes(&P, L.col[0], 0);
                L.col[1] = apply_lanes(&P, L.col[1], 0);
                L.col[2] = apply_lanes(&P, L.col[2], 0);
                L.t = apply_lanes(&P, L.t, 1);
            }
            store_column(L.col[0], 0, 0, out, filled);
            store_column(L.col[1], 0, 1, out, filled);
            store_column(L.col[2], 0, 2, out, filled);
            store_column(L.t, 1, 3, out, filled);
        }
    }
    return IK_OK;
}

ik_result ik_skeleton_fk_batch(const ik_skeleton *skeleton, int count, const ik_transform *poses_ls,
                               const ik_mat4 *roots_ms, ik_mat4 *models_ms) {
    return ik_skeleton_fk_batch_range(skeleton, 0, skeleton ? skeleton->joint_count : 0, count, poses_ls, roots_ms,
                                      models_ms);
}

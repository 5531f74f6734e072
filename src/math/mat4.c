/* Affine 4x4 matrices (column-major, column vectors). */
#include <ikit/math.h>

ik_mat4 ik_mat4_identity(void) {
    ik_mat4 r = {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}};
    return r;
}

/* (a b)[c][r] = sum_k a[k][r] b[c][k]; row 3 stays (0, 0, 0, 1). */
ik_mat4 ik_mat4_mul(const ik_mat4 *a, const ik_mat4 *b) {
    ik_mat4 r;
    const ik_real *x = a->m, *y = b->m;
    int c;
    for (c = 0; c < 4; ++c) {
        ik_real b0 = y[c * 4], b1 = y[c * 4 + 1], b2 = y[c * 4 + 2], b3 = c == 3 ? 1 : 0;
        r.m[c * 4 + 0] = x[0] * b0 + x[4] * b1 + x[8] * b2 + x[12] * b3;
        r.m[c * 4 + 1] = x[1] * b0 + x[5] * b1 + x[9] * b2 + x[13] * b3;
        r.m[c * 4 + 2] = x[2] * b0 + x[6] * b1 + x[10] * b2 + x[14] * b3;
        r.m[c * 4 + 3] = b3;
    }
    return r;
}

ik_real ik_mat4_det3(const ik_mat4 *a) {
    const ik_real *m = a->m;
    return m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) +
           m[8] * (m[1] * m[6] - m[5] * m[2]);
}

ik_vec3 ik_mat4_transform_turn_axis(const ik_mat4 *a, ik_vec3 axis) {
    ik_vec3 v = ik_mat4_transform_vector(a, axis);
    return ik_mat4_det3(a) < 0 ? ik_vec3_neg(v) : v;
}

/* [L t]^-1 = [L^-1  -L^-1 t], with L^-1 = adj(L) / det(L). A determinant
 * below 16 eps max|L_ij|^3 counts as singular. */
ik_bool ik_mat4_inverse(const ik_mat4 *a, ik_mat4 *out) {
    const ik_real *m = a->m;
    ik_real det = ik_mat4_det3(a), inv, scale = 0;
    ik_mat4 r;
    int col, row;
    for (col = 0; col < 3; ++col)
        for (row = 0; row < 3; ++row) scale = ik_maxr(scale, IK_FABS(m[col * 4 + row]));
    if (!ik_mat4_finite(a) || !(IK_FABS(det) > scale * scale * scale * IK_REAL_EPSILON * 16)) {
        *out = ik_mat4_identity();
        return 0;
    }
    inv = 1 / det;
    r.m[0] = (m[5] * m[10] - m[9] * m[6]) * inv;
    r.m[1] = (m[9] * m[2] - m[1] * m[10]) * inv;
    r.m[2] = (m[1] * m[6] - m[5] * m[2]) * inv;
    r.m[4] = (m[8] * m[6] - m[4] * m[10]) * inv;
    r.m[5] = (m[0] * m[10] - m[8] * m[2]) * inv;
    r.m[6] = (m[4] * m[2] - m[0] * m[6]) * inv;
    r.m[8] = (m[4] * m[9] - m[8] * m[5]) * inv;
    r.m[9] = (m[8] * m[1] - m[0] * m[9]) * inv;
    r.m[10] = (m[0] * m[5] - m[4] * m[1]) * inv;
    r.m[12] = -(r.m[0] * m[12] + r.m[4] * m[13] + r.m[8] * m[14]);
    r.m[13] = -(r.m[1] * m[12] + r.m[5] * m[13] + r.m[9] * m[14]);
    r.m[14] = -(r.m[2] * m[12] + r.m[6] * m[13] + r.m[10] * m[14]);
    r.m[3] = r.m[7] = r.m[11] = 0;
    r.m[15] = 1;
    *out = r;
    return 1;
}

/* Columns of R scaled by s, then the translation: M = T R S. */
ik_mat4 ik_mat4_from_trs(ik_vec3 t, ik_quat q, ik_vec3 s) {
    ik_real xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    ik_real xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    ik_real wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    ik_mat4 r;
    r.m[0] = (1 - 2 * (yy + zz)) * s.x;
    r.m[1] = 2 * (xy + wz) * s.x;
    r.m[2] = 2 * (xz - wy) * s.x;
    r.m[3] = 0;
    r.m[4] = 2 * (xy - wz) * s.y;
    r.m[5] = (1 - 2 * (xx + zz)) * s.y;
    r.m[6] = 2 * (yz + wx) * s.y;
    r.m[7] = 0;
    r.m[8] = 2 * (xz + wy) * s.z;
    r.m[9] = 2 * (yz - wx) * s.z;
    r.m[10] = (1 - 2 * (xx + yy)) * s.z;
    r.m[11] = 0;
    r.m[12] = t.x;
    r.m[13] = t.y;
    r.m[14] = t.z;
    r.m[15] = 1;
    return r;
}

ik_bool ik_mat4_finite(const ik_mat4 *a) {
    int i;
    for (i = 0; i < 16; ++i)
        if (!ik_finite(a->m[i])) return 0;
    return 1;
}

/* Gram-Schmidt on the columns (x, then y against x, z = x cross y; x negated
 * for a mirror), then the quaternion of the orthonormal matrix by Shepperd's
 * method: pick the largest of w, x, y, z from the trace and diagonal to
 * divide by. */
ik_quat ik_mat4_rotation(const ik_mat4 *a) {
    ik_vec3 x = ik_vec3_normalize_or(ik_mat4_column(a, 0), ik_v3(1, 0, 0));
    ik_vec3 y = ik_mat4_column(a, 1);
    ik_vec3 z;
    ik_real trace, s;
    if (ik_mat4_det3(a) < 0) x = ik_vec3_neg(x);
    y = ik_vec3_normalize_or(ik_vec3_reject(y, x), ik_vec3_any_perpendicular(x));
    z = ik_vec3_cross(x, y);
    trace = x.x + y.y + z.z;
    if (trace > 0) {
        s = 2 * IK_SQRT(trace + 1);
        return ik_quat_normalize(ik_q((y.z - z.y) / s, (z.x - x.z) / s, (x.y - y.x) / s, s / 4));
    }
    if (x.x > y.y && x.x > z.z) {
        s = 2 * IK_SQRT(1 + x.x - y.y - z.z);
        return ik_quat_normalize(ik_q(s / 4, (y.x + x.y) / s, (z.x + x.z) / s, (y.z - z.y) / s));
    }
    if (y.y > z.z) {
        s = 2 * IK_SQRT(1 + y.y - x.x - z.z);
        return ik_quat_normalize(ik_q((y.x + x.y) / s, s / 4, (z.y + y.z) / s, (z.x - x.z) / s));
    }
    s = 2 * IK_SQRT(1 + z.z - x.x - y.y);
    return ik_quat_normalize(ik_q((z.x + x.z) / s, (z.y + y.z) / s, s / 4, (x.y - y.x) / s));
}

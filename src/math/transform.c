/* Translation-rotation-scale transforms. */
#include <ikit/math.h>

/* (a b)(p) = a(b(p)): t = ta + Ra (Sa tb), R = Ra Rb, S = Sa Sb. */
ik_transform ik_transform_mul(ik_transform a, ik_transform b) {
    return ik_transform_make(ik_transform_point(a, b.translation), ik_quat_mul(a.rotation, b.rotation),
                             ik_vec3_mul(a.scale, b.scale));
}

static ik_real reciprocal_or_zero(ik_real s) { return s != 0 ? 1 / s : 0; }

/* t^-1: S' = 1/S, R' = R^-1, T' = -S' (R' T). */
ik_transform ik_transform_inverse(ik_transform t) {
    ik_vec3 inv_scale =
        ik_v3(reciprocal_or_zero(t.scale.x), reciprocal_or_zero(t.scale.y), reciprocal_or_zero(t.scale.z));
    ik_quat inv_rot = ik_quat_conjugate(ik_quat_normalize(t.rotation));
    ik_vec3 inv_t = ik_vec3_neg(ik_vec3_mul(inv_scale, ik_quat_rotate(inv_rot, t.translation)));
    return ik_transform_make(inv_t, inv_rot, inv_scale);
}

/* Scale = column lengths (x negative for a mirror), rotation from the
 * orthonormalised columns, translation = the last column. */
ik_transform ik_transform_from_mat4(const ik_mat4 *a) {
    ik_vec3 s = ik_v3(ik_vec3_length(ik_mat4_column(a, 0)), ik_vec3_length(ik_mat4_column(a, 1)),
                      ik_vec3_length(ik_mat4_column(a, 2)));
    if (ik_mat4_det3(a) < 0) s.x = -s.x;
    return ik_transform_make(ik_mat4_translation(a), ik_mat4_rotation(a), s);
}

/* Quaternion operations: angles, minimum rotations, interpolation,
 * swing-twist decomposition and the non-flipping look rotation. */
#include <ikit/math.h>

ik_real ik_quat_angle(ik_quat q) {
    /* angle = 2 atan2(|v|, |w|): accurate near 0 and pi, unlike 2 acos(w). */
    ik_real v = IK_SQRT(q.x * q.x + q.y * q.y + q.z * q.z);
    return 2 * IK_ATAN2(v, IK_FABS(q.w));
}

void ik_quat_to_axis_angle(ik_quat q, ik_vec3 *axis, ik_real *angle) {
    ik_quat p = ik_quat_positive_w(q);
    ik_vec3 v = ik_v3(p.x, p.y, p.z);
    ik_real len = ik_vec3_length(v);
    *angle = 2 * IK_ATAN2(len, p.w);
    *axis = len > 0 ? ik_vec3_scale(v, 1 / len) : ik_v3(1, 0, 0);
}

/* Where a and w are nearly opposite, m + a . w <= m / 64 (m = |a||w|, more
 * than about 170 degrees apart), the half-way quaternion (a x w, m + a . w)
 * is mostly rounding, in its scalar part and, near 180 degrees, in its
 * axis, and need not take a onto w. So the turn is split: a half turn
 * H = (p, 0) about p = unit(a x w) (any axis perpendicular to a where a x w
 * is within rounding of zero), which takes a to b = H a = 2 (p . a) p - a,
 * close to -a, then the half-way quaternion from b to w, which are now
 * close. The product takes a onto w whatever rounding did to p; with
 * p = unit(a x w) both turns are about p, so it is the minimum rotation. */
static ik_quat from_to_nearly_opposite(ik_vec3 a, ik_vec3 w, ik_real m) {
    ik_vec3 c = ik_vec3_cross(a, w), p, b;
    ik_real c_sq = ik_vec3_dot(c, c);
    p = c_sq > m * m * (256 * IK_REAL_EPSILON * IK_REAL_EPSILON) ? ik_vec3_scale(c, 1 / IK_SQRT(c_sq))
                                                                 : ik_vec3_any_perpendicular(ik_vec3_normalize(a));
    b = ik_vec3_sub(ik_vec3_scale(p, 2 * ik_vec3_dot(p, a)), a);
    c = ik_vec3_cross(b, w);
    return ik_quat_normalize(ik_quat_mul(ik_q(c.x, c.y, c.z, m + ik_vec3_dot(b, w)), ik_q(p.x, p.y, p.z, 0)));
}

/* q = normalise(u x v, |u||v| + u . v): the half-angle quaternion of the
 * minimum rotation, with no trigonometry; split as above past about 170
 * degrees, so u always lands on v. */
ik_quat ik_quat_from_to(ik_vec3 from, ik_vec3 to) {
    ik_real len = IK_SQRT(ik_vec3_length_sq(from) * ik_vec3_length_sq(to));
    ik_real w = len + ik_vec3_dot(from, to);
    ik_vec3 axis;
    if (!(len > 0) || !ik_finite(len)) return ik_quat_identity();
    if (!(w > len * (ik_real)(1.0 / 64))) return from_to_nearly_opposite(from, to, len);
    axis = ik_vec3_cross(from, to);
    return ik_quat_normalize(ik_q(axis.x, axis.y, axis.z, w));
}

/* slerp(a, b, t) = a sin((1-t) th) / sin th + b sin(t th) / sin th, with b
 * negated when needed to take the shorter arc; nlerp where th is tiny. */
ik_quat ik_quat_slerp(ik_quat a, ik_quat b, ik_real t) {
    ik_real c = ik_quat_dot(a, b);
    ik_real th, s, wa, wb;
    if (c < 0) {
        b = ik_quat_neg(b);
        c = -c;
    }
    if (c > (ik_real)0.9995) return ik_quat_nlerp(a, b, t);
    th = IK_ACOS(c);
    s = IK_SIN(th);
    wa = IK_SIN((1 - t) * th) / s;
    wb = IK_SIN(t * th) / s;
    return ik_quat_normalize(ik_q(a.x * wa + b.x * wb, a.y * wa + b.y * wb, a.z * wa + b.z * wb, a.w * wa + b.w * wb));
}

ik_quat ik_quat_nlerp(ik_quat a, ik_quat b, ik_real t) {
    ik_real s = ik_quat_dot(a, b) < 0 ? -t : t;
    ik_real r = 1 - t;
    return ik_quat_normalize(ik_q(a.x * r + b.x * s, a.y * r + b.y * s, a.z * r + b.z * s, a.w * r + b.w * s));
}

/* Twist = normalise((v . n) n, w): the projection of q onto rotations about
 * n; swing = q twist^-1. When q is a half turn about an axis perpendicular to
 * n, the projection vanishes and the twist is the identity. */
void ik_quat_swing_twist(ik_quat q, ik_vec3 axis, ik_quat *swing, ik_quat *twist) {
    ik_real d = q.x * axis.x + q.y * axis.y + q.z * axis.z;
    ik_quat tw = ik_q(axis.x * d, axis.y * d, axis.z * d, q.w);
    ik_real len_sq = ik_quat_dot(tw, tw);
    tw = len_sq > IK_REAL_EPSILON * IK_REAL_EPSILON ? ik_quat_normalize(tw) : ik_quat_identity();
    if (twist) *twist = tw;
    if (swing) *swing = ik_quat_mul(q, ik_quat_conjugate(tw));
}

/* 2 atan2(v . n, w), wrapped to (-pi, pi]. */
ik_real ik_quat_twist_angle(ik_quat q, ik_vec3 axis) {
    ik_real d = q.x * axis.x + q.y * axis.y + q.z * axis.z;
    ik_real a = 2 * IK_ATAN2(d, q.w);
    if (a > IK_PI) a -= 2 * IK_PI;
    if (a <= -IK_PI) a += 2 * IK_PI;
    return a;
}

/* First the minimum rotation forward_axis -> forward. Then a turn about
 * forward taking the projected up axis onto the projected `up`; that turn is
 * scaled by a smoothstep of sin(angle(forward, up)) over [0, sin 10deg], so it
 * fades out where the up vector stops telling sides apart. */
ik_quat ik_quat_look(ik_vec3 forward_axis, ik_vec3 up_axis, ik_vec3 forward, ik_vec3 up) {
    const ik_real fade = (ik_real)0.17364817766693; /* sin(10 degrees) */
    ik_quat swing = ik_quat_from_to(forward_axis, forward);
    ik_vec3 f = ik_vec3_normalize_or(forward, ik_vec3_normalize(forward_axis));
    ik_vec3 up_now = ik_quat_rotate(swing, up_axis);
    ik_vec3 pu = ik_vec3_reject(up, f);
    ik_vec3 pc = ik_vec3_reject(up_now, f);
    ik_real up_len = ik_vec3_length(up), pc_len = ik_vec3_length(pc);
    ik_real s, k, angle;
    if (!(up_len > 0) || !(pc_len > (ik_real)1e-6 * ik_vec3_length(up_axis))) return swing;
    s = ik_vec3_length(pu) / up_len;
    if (!(s > 0)) return swing;
    k = ik_clampr(s / fade, 0, 1);
    k = k * k * (3 - 2 * k);
    angle = IK_ATAN2(ik_vec3_dot(f, ik_vec3_cross(pc, pu)), ik_vec3_dot(pc, pu));
    return ik_quat_mul(ik_quat_from_axis_angle(f, angle * k), swing);
}

/* ikit math: scalar, vec3, quaternion, affine 4x4 matrix, TRS transform.
 *
 * Small types are passed and returned by value. Quaternions are (x, y, z, w)
 * with w the scalar part and rotate vectors as q v q^-1 (right-handed).
 * Matrices are column-major, m[col * 4 + row], and act on column vectors:
 * p' = M p. A transform applies scale, then rotation, then translation.
 */
#ifndef IKIT_MATH_H
#define IKIT_MATH_H

#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- scalar --------------------------------------------------------------- */

#ifdef IKIT_DOUBLE
typedef double ik_real;
#define IK_REAL_EPSILON 2.220446049250313e-16
#define IK_REAL_MIN 2.2250738585072014e-308 /* smallest normal */
#define IK_REAL_MAX 1.7976931348623157e308
#define IK_SQRT(x) sqrt(x)
#define IK_SIN(x) sin(x)
#define IK_COS(x) cos(x)
#define IK_ACOS(x) acos(x)
#define IK_ATAN2(y, x) atan2(y, x)
#define IK_FABS(x) fabs(x)
#define IK_COPYSIGN(x, y) copysign(x, y)
#define IK_EXP(x) exp(x)
#define IK_CBRT(x) cbrt(x)
#else
typedef float ik_real;
#define IK_REAL_EPSILON 1.1920929e-7f
#define IK_REAL_MIN 1.17549435e-38f /* smallest normal */
#define IK_REAL_MAX 3.40282347e38f
#define IK_SQRT(x) sqrtf(x)
#define IK_SIN(x) sinf(x)
#define IK_COS(x) cosf(x)
#define IK_ACOS(x) acosf(x)
#define IK_ATAN2(y, x) atan2f(y, x)
#define IK_FABS(x) fabsf(x)
#define IK_COPYSIGN(x, y) copysignf(x, y)
#define IK_EXP(x) expf(x)
#define IK_CBRT(x) cbrtf(x)
#endif

#define IK_PI ((ik_real)3.14159265358979323846)

typedef int ik_bool;

static inline ik_real ik_minr(ik_real a, ik_real b) { return a < b ? a : b; }
static inline ik_real ik_maxr(ik_real a, ik_real b) { return a > b ? a : b; }
static inline ik_real ik_clampr(ik_real x, ik_real lo, ik_real hi) { return x < lo ? lo : (x > hi ? hi : x); }
/* True when x is neither NaN nor infinite (x - x is 0 only for finite x). */
static inline ik_bool ik_finite(ik_real x) { return (x - x) == (x - x); }
static inline ik_real ik_deg(ik_real radians) { return radians * ((ik_real)180 / IK_PI); }
static inline ik_real ik_rad(ik_real degrees) { return degrees * (IK_PI / (ik_real)180); }
/* a wrapped to (-pi, pi]. Angles past 4 pi are first reduced through
 * atan2(sin a, cos a), as subtracting 2 pi leaves a large float unchanged;
 * NaN and infinity give NaN. */
static inline ik_real ik_wrap_angle(ik_real a) {
    if (!(IK_FABS(a) <= 4 * IK_PI)) a = IK_ATAN2(IK_SIN(a), IK_COS(a));
    while (a > IK_PI) a -= 2 * IK_PI;
    while (a <= -IK_PI) a += 2 * IK_PI;
    return a;
}
/* acos with its argument clamped to [-1, 1], so rounding never gives NaN. */
static inline ik_real ik_acos_safe(ik_real c) { return IK_ACOS(ik_clampr(c, -1, 1)); }

/* ---- vec3 ----------------------------------------------------------------- */

typedef struct ik_vec3 {
    ik_real x, y, z;
} ik_vec3;

static inline ik_vec3 ik_v3(ik_real x, ik_real y, ik_real z) {
    ik_vec3 r;
    r.x = x;
    r.y = y;
    r.z = z;
    return r;
}
static inline ik_vec3 ik_vec3_zero(void) { return ik_v3(0, 0, 0); }
static inline ik_vec3 ik_vec3_add(ik_vec3 a, ik_vec3 b) { return ik_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline ik_vec3 ik_vec3_sub(ik_vec3 a, ik_vec3 b) { return ik_v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline ik_vec3 ik_vec3_scale(ik_vec3 a, ik_real s) { return ik_v3(a.x * s, a.y * s, a.z * s); }
static inline ik_vec3 ik_vec3_mul(ik_vec3 a, ik_vec3 b) { return ik_v3(a.x * b.x, a.y * b.y, a.z * b.z); }
static inline ik_vec3 ik_vec3_neg(ik_vec3 a) { return ik_v3(-a.x, -a.y, -a.z); }
/* a + b * s */
static inline ik_vec3 ik_vec3_mad(ik_vec3 a, ik_vec3 b, ik_real s) {
    return ik_v3(a.x + b.x * s, a.y + b.y * s, a.z + b.z * s);
}
static inline ik_real ik_vec3_dot(ik_vec3 a, ik_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline ik_vec3 ik_vec3_cross(ik_vec3 a, ik_vec3 b) {
    return ik_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline ik_real ik_vec3_length_sq(ik_vec3 a) { return ik_vec3_dot(a, a); }
static inline ik_real ik_vec3_length(ik_vec3 a) { return IK_SQRT(ik_vec3_dot(a, a)); }
static inline ik_real ik_vec3_distance(ik_vec3 a, ik_vec3 b) { return ik_vec3_length(ik_vec3_sub(a, b)); }
static inline ik_vec3 ik_vec3_lerp(ik_vec3 a, ik_vec3 b, ik_real t) { return ik_vec3_mad(a, ik_vec3_sub(b, a), t); }
static inline ik_bool ik_vec3_finite(ik_vec3 a) { return ik_finite(a.x) && ik_finite(a.y) && ik_finite(a.z); }
/* Exactly zero in every component. */
static inline ik_bool ik_vec3_is_zero(ik_vec3 a) { return a.x == 0 && a.y == 0 && a.z == 0; }
/* a / |a|, or `fallback` when |a| is zero or not finite. */
static inline ik_vec3 ik_vec3_normalize_or(ik_vec3 a, ik_vec3 fallback) {
    ik_real len_sq = ik_vec3_dot(a, a);
    if (!(len_sq > 0) || !ik_finite(len_sq)) return fallback;
    return ik_vec3_scale(a, 1 / IK_SQRT(len_sq));
}
static inline ik_vec3 ik_vec3_normalize(ik_vec3 a) { return ik_vec3_normalize_or(a, ik_v3(1, 0, 0)); }
/* The part of v perpendicular to the unit vector n: v - (v . n) n. */
static inline ik_vec3 ik_vec3_reject(ik_vec3 v, ik_vec3 n) { return ik_vec3_mad(v, n, -ik_vec3_dot(v, n)); }
/* A unit vector perpendicular to the unit vector n (stable for any n). */
ik_vec3 ik_vec3_any_perpendicular(ik_vec3 n);

/* ---- quaternion ----------------------------------------------------------- */

typedef struct ik_quat {
    ik_real x, y, z, w;
} ik_quat;

static inline ik_quat ik_q(ik_real x, ik_real y, ik_real z, ik_real w) {
    ik_quat r;
    r.x = x;
    r.y = y;
    r.z = z;
    r.w = w;
    return r;
}
static inline ik_quat ik_quat_identity(void) { return ik_q(0, 0, 0, 1); }
/* a * b: rotate by b, then by a. */
static inline ik_quat ik_quat_mul(ik_quat a, ik_quat b) {
    return ik_q(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}
static inline ik_quat ik_quat_conjugate(ik_quat q) { return ik_q(-q.x, -q.y, -q.z, q.w); }
static inline ik_real ik_quat_dot(ik_quat a, ik_quat b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
static inline ik_real ik_quat_length(ik_quat q) { return IK_SQRT(ik_quat_dot(q, q)); }
static inline ik_quat ik_quat_neg(ik_quat q) { return ik_q(-q.x, -q.y, -q.z, -q.w); }
static inline ik_bool ik_quat_finite(ik_quat q) {
    return ik_finite(q.x) && ik_finite(q.y) && ik_finite(q.z) && ik_finite(q.w);
}
/* q / |q|, or the identity when |q| is zero or not finite. */
static inline ik_quat ik_quat_normalize(ik_quat q) {
    ik_real len_sq = ik_quat_dot(q, q);
    ik_real inv;
    if (!(len_sq > 0) || !ik_finite(len_sq)) return ik_quat_identity();
    inv = 1 / IK_SQRT(len_sq);
    return ik_q(q.x * inv, q.y * inv, q.z * inv, q.w * inv);
}
/* q^-1 = conj(q) / |q|^2 */
static inline ik_quat ik_quat_inverse(ik_quat q) {
    ik_real len_sq = ik_quat_dot(q, q);
    ik_real inv;
    if (!(len_sq > 0)) return ik_quat_identity();
    inv = 1 / len_sq;
    return ik_q(-q.x * inv, -q.y * inv, -q.z * inv, q.w * inv);
}
/* Rotate v by the unit quaternion q: v + 2w (u x v) + 2 u x (u x v), u = q.xyz. */
static inline ik_vec3 ik_quat_rotate(ik_quat q, ik_vec3 v) {
    ik_vec3 u = ik_v3(q.x, q.y, q.z);
    ik_vec3 t = ik_vec3_scale(ik_vec3_cross(u, v), 2);
    return ik_vec3_add(ik_vec3_mad(v, t, q.w), ik_vec3_cross(u, t));
}
/* q v q* for any q = (u, w): (w^2 - |u|^2) v + 2 (u . v) u + 2 w (u x v),
 * which is |q|^2 times v rotated by q / |q|: for callers that only need a
 * direction, or normalise later, and so skip normalising q. */
static inline ik_vec3 ik_quat_rotate_scaled(ik_quat q, ik_vec3 v) {
    ik_vec3 u = ik_v3(q.x, q.y, q.z);
    ik_vec3 r = ik_vec3_scale(v, q.w * q.w - ik_vec3_dot(u, u));
    r = ik_vec3_mad(r, u, 2 * ik_vec3_dot(u, v));
    return ik_vec3_mad(r, ik_vec3_cross(u, v), 2 * q.w);
}
/* Rotation by `angle` radians about the unit `axis`: (sin(a/2) axis, cos(a/2)). */
static inline ik_quat ik_quat_from_axis_angle(ik_vec3 axis, ik_real angle) {
    ik_real s = IK_SIN(angle * (ik_real)0.5);
    return ik_q(axis.x * s, axis.y * s, axis.z * s, IK_COS(angle * (ik_real)0.5));
}
/* The same rotation with w >= 0 (q and -q rotate alike). */
static inline ik_quat ik_quat_positive_w(ik_quat q) { return q.w < 0 ? ik_quat_neg(q) : q; }

/* Angle in [0, pi] of the rotation q (unit). */
ik_real ik_quat_angle(ik_quat q);
/* Axis (unit; x when the angle is 0) and angle in [0, pi] of the unit q. */
void ik_quat_to_axis_angle(ik_quat q, ik_vec3 *axis, ik_real *angle);
/* The minimum rotation taking direction `from` onto direction `to` (neither
 * needs to be unit). Opposite directions turn half a turn about an axis
 * perpendicular to `from`; a zero vector gives the identity. */
ik_quat ik_quat_from_to(ik_vec3 from, ik_vec3 to);
/* Spherical interpolation along the shorter arc; t in [0, 1]. */
ik_quat ik_quat_slerp(ik_quat a, ik_quat b, ik_real t);
/* Normalised linear interpolation along the shorter arc (cheaper, not constant speed). */
ik_quat ik_quat_nlerp(ik_quat a, ik_quat b, ik_real t);
/* Split q = swing * twist, where twist turns about the unit `axis` and swing
 * turns about an axis perpendicular to it. */
void ik_quat_swing_twist(ik_quat q, ik_vec3 axis, ik_quat *swing, ik_quat *twist);
/* Signed twist angle of q about the unit `axis`, in (-pi, pi]. */
ik_real ik_quat_twist_angle(ik_quat q, ik_vec3 axis);
/* The rotation that turns local `forward_axis` onto `forward` and brings local
 * `up_axis` as close as it can to `up`. Where `forward` and `up` are (nearly)
 * parallel, the up correction fades out smoothly instead of flipping: the
 * result tends to the minimum rotation from `forward_axis` to `forward`. */
ik_quat ik_quat_look(ik_vec3 forward_axis, ik_vec3 up_axis, ik_vec3 forward, ik_vec3 up);

/* ---- affine matrix -------------------------------------------------------- */

typedef struct ik_mat4 {
    ik_real m[16]; /* column-major: m[col * 4 + row]; row 3 is (0, 0, 0, 1) */
} ik_mat4;

ik_mat4 ik_mat4_identity(void);
/* a * b: apply b, then a. */
ik_mat4 ik_mat4_mul(const ik_mat4 *a, const ik_mat4 *b);
/* Inverse of an affine matrix; returns 0 (and the identity) when the 3x3 part
 * is singular or not finite. */
ik_bool ik_mat4_inverse(const ik_mat4 *a, ik_mat4 *out);
ik_mat4 ik_mat4_from_trs(ik_vec3 t, ik_quat r, ik_vec3 s);
static inline ik_vec3 ik_mat4_translation(const ik_mat4 *a) { return ik_v3(a->m[12], a->m[13], a->m[14]); }
static inline ik_vec3 ik_mat4_column(const ik_mat4 *a, int col) {
    return ik_v3(a->m[col * 4], a->m[col * 4 + 1], a->m[col * 4 + 2]);
}
/* M p for a point (w = 1). */
static inline ik_vec3 ik_mat4_transform_point(const ik_mat4 *a, ik_vec3 p) {
    const ik_real *m = a->m;
    return ik_v3(m[0] * p.x + m[4] * p.y + m[8] * p.z + m[12], m[1] * p.x + m[5] * p.y + m[9] * p.z + m[13],
                 m[2] * p.x + m[6] * p.y + m[10] * p.z + m[14]);
}
/* M v for a direction (w = 0). */
static inline ik_vec3 ik_mat4_transform_vector(const ik_mat4 *a, ik_vec3 v) {
    const ik_real *m = a->m;
    return ik_v3(m[0] * v.x + m[4] * v.y + m[8] * v.z, m[1] * v.x + m[5] * v.y + m[9] * v.z,
                 m[2] * v.x + m[6] * v.y + m[10] * v.z);
}
ik_bool ik_mat4_finite(const ik_mat4 *a);
/* Determinant of the 3x3 linear part. */
ik_real ik_mat4_det3(const ik_mat4 *a);
/* The axis of a turn: a turn about `axis` in the frame of `a` is a turn
 * about sgn(det A) A axis outside it. A rotation axis is a pseudo-vector:
 * where A mirrors (a negative determinant) the turn's sense goes round, so
 * the axis flips. With A's inverse it takes an outside axis in. */
ik_vec3 ik_mat4_transform_turn_axis(const ik_mat4 *a, ik_vec3 axis);
/* The rotation of the 3x3 part after removing scale (columns normalised and
 * re-orthogonalised); a mirrored matrix gives the rotation of its unmirrored part. */
ik_quat ik_mat4_rotation(const ik_mat4 *a);

/* ---- transform (translation, rotation, scale) ----------------------------- */

typedef struct ik_transform {
    ik_vec3 translation;
    ik_quat rotation;
    ik_vec3 scale;
} ik_transform;

static inline ik_transform ik_transform_identity(void) {
    ik_transform t;
    t.translation = ik_vec3_zero();
    t.rotation = ik_quat_identity();
    t.scale = ik_v3(1, 1, 1);
    return t;
}
static inline ik_transform ik_transform_make(ik_vec3 translation, ik_quat rotation, ik_vec3 scale) {
    ik_transform t;
    t.translation = translation;
    t.rotation = rotation;
    t.scale = scale;
    return t;
}
static inline ik_mat4 ik_transform_to_mat4(ik_transform t) {
    return ik_mat4_from_trs(t.translation, t.rotation, t.scale);
}
/* p' = T + R (S p) */
static inline ik_vec3 ik_transform_point(ik_transform t, ik_vec3 p) {
    return ik_vec3_add(t.translation, ik_quat_rotate(t.rotation, ik_vec3_mul(t.scale, p)));
}
static inline ik_bool ik_transform_finite(ik_transform t) {
    return ik_vec3_finite(t.translation) && ik_quat_finite(t.rotation) && ik_vec3_finite(t.scale);
}
/* a * b (apply b, then a). Exact when a's scale is uniform; otherwise the
 * shear a non-uniform parent scale would add is dropped. */
ik_transform ik_transform_mul(ik_transform a, ik_transform b);
/* Inverse under the same rule as ik_transform_mul. Zero scale components
 * give zero in the inverse rather than infinity. */
ik_transform ik_transform_inverse(ik_transform t);
/* Decompose an affine matrix into translation, rotation and (positive or,
 * for a mirror, negative-x) scale; shear is dropped. */
ik_transform ik_transform_from_mat4(const ik_mat4 *a);

#ifdef __cplusplus
}
#endif
#endif

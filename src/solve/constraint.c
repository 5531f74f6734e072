/* Joint limits on local rotations: hinge, cone plus twist, per-axis Euler
 * ranges, by swing-twist decomposition about the bone axis. */
#include <ikit/constraint.h>

ik_constraint ik_constraint_none(void) {
    ik_constraint c;
    c.type = IK_CONSTRAINT_NONE;
    c.reference_ls = ik_quat_identity();
    c.axis = ik_v3(1, 0, 0);
    c.min_angle = -IK_PI;
    c.max_angle = IK_PI;
    c.cone_angle = IK_PI;
    c.euler_min = ik_v3(-IK_PI, -IK_PI / 2, -IK_PI);
    c.euler_max = ik_v3(IK_PI, IK_PI / 2, IK_PI);
    return c;
}

ik_constraint ik_constraint_hinge(ik_quat reference_ls, ik_vec3 axis, ik_real min_angle, ik_real max_angle) {
    ik_constraint c = ik_constraint_none();
    c.type = IK_CONSTRAINT_HINGE;
    c.reference_ls = reference_ls;
    c.axis = ik_vec3_normalize_or(axis, ik_vec3_zero());
    c.min_angle = min_angle;
    c.max_angle = max_angle;
    return c;
}

ik_constraint ik_constraint_cone_twist(ik_quat reference_ls, ik_vec3 axis, ik_real cone_angle, ik_real twist_min,
                                       ik_real twist_max) {
    ik_constraint c = ik_constraint_none();
    c.type = IK_CONSTRAINT_CONE_TWIST;
    c.reference_ls = reference_ls;
    c.axis = ik_vec3_normalize_or(axis, ik_vec3_zero());
    c.cone_angle = cone_angle;
    c.min_angle = twist_min;
    c.max_angle = twist_max;
    return c;
}

ik_constraint ik_constraint_euler(ik_quat reference_ls, ik_vec3 euler_min, ik_vec3 euler_max) {
    ik_constraint c = ik_constraint_none();
    c.type = IK_CONSTRAINT_EULER;
    c.reference_ls = reference_ls;
    c.euler_min = euler_min;
    c.euler_max = euler_max;
    return c;
}

static ik_bool range_ok(ik_real lo, ik_real hi, ik_real bound) {
    const ik_real slack = bound * (ik_real)1e-6;
    return lo <= hi && lo >= -bound - slack && hi <= bound + slack;
}

ik_result ik_constraint_validate(const ik_constraint *c) {
    ik_real ref_len, axis_len;
    if (!c) return IK_ERR_NULL;
    if (c->type == IK_CONSTRAINT_NONE) return IK_OK;
    if (c->type != IK_CONSTRAINT_HINGE && c->type != IK_CONSTRAINT_CONE_TWIST && c->type != IK_CONSTRAINT_EULER)
        return IK_ERR_RANGE;
    if (!ik_quat_finite(c->reference_ls) || !ik_vec3_finite(c->axis) || !ik_finite(c->min_angle) ||
        !ik_finite(c->max_angle) || !ik_finite(c->cone_angle) || !ik_vec3_finite(c->euler_min) ||
        !ik_vec3_finite(c->euler_max))
        return IK_ERR_NONFINITE;
    ref_len = ik_quat_length(c->reference_ls);
    if (!(ref_len > 0)) return IK_ERR_DEGENERATE;
    if (IK_FABS(ref_len - 1) > (ik_real)1e-3) return IK_ERR_RANGE;
    if (c->type == IK_CONSTRAINT_EULER) {
        if (!range_ok(c->euler_min.x, c->euler_max.x, IK_PI) || !range_ok(c->euler_min.y, c->euler_max.y, IK_PI / 2) ||
            !range_ok(c->euler_min.z, c->euler_max.z, IK_PI))
            return IK_ERR_RANGE;
        return IK_OK;
    }
    axis_len = ik_vec3_length(c->axis);
    if (!(axis_len > 0)) return IK_ERR_DEGENERATE;
    if (IK_FABS(axis_len - 1) > (ik_real)1e-3) return IK_ERR_RANGE;
    if (!range_ok(c->min_angle, c->max_angle, IK_PI)) return IK_ERR_RANGE;
    if (c->type == IK_CONSTRAINT_CONE_TWIST && !(c->cone_angle >= 0 && c->cone_angle <= IK_PI * (1 + (ik_real)1e-6)))
        return IK_ERR_RANGE;
    return IK_OK;
}

/* How far the angle a lies outside [lo, hi], measured around the circle to
 * the nearer end (0 inside). */
static ik_real range_excess(ik_real a, ik_real lo, ik_real hi) {
    ik_real to_lo, to_hi;
    if (a >= lo && a <= hi) return 0;
    to_lo = IK_FABS(ik_wrap_angle(a - lo));
    to_hi = IK_FABS(ik_wrap_angle(a - hi));
    return ik_minr(to_lo, to_hi);
}

/* a clamped to [lo, hi]; outside, the end nearer around the circle. */
static ik_real clamp_angle(ik_real a, ik_real lo, ik_real hi) {
    if (a >= lo && a <= hi) return a;
    return IK_FABS(ik_wrap_angle(a - lo)) <= IK_FABS(ik_wrap_angle(a - hi)) ? lo : hi;
}

ik_quat ik_constraint_delta(const ik_constraint *c, ik_quat rotation_ls) {
    if (!c) return rotation_ls;
    return ik_quat_mul(ik_quat_conjugate(c->reference_ls), rotation_ls);
}

/* Euler angles of q = Rz(z) Ry(y) Rx(x) from its rotation matrix M:
 * y = atan2(-m20, sqrt(m00^2 + m10^2)), x = atan2(m21, m22), z = atan2(m10, m00).
 * At gimbal lock (cos y = 0) only z -+ x is defined; x = 0 there and
 * z = atan2(-m01, m11). */
ik_vec3 ik_euler_from_quat(ik_quat q) {
    const ik_real gimbal = (ik_real)(sizeof(ik_real) == 4 ? 1e-4 : 1e-9);
    ik_real m00 = 1 - 2 * (q.y * q.y + q.z * q.z);
    ik_real m10 = 2 * (q.x * q.y + q.w * q.z);
    ik_real m20 = 2 * (q.x * q.z - q.w * q.y);
    ik_real m21 = 2 * (q.y * q.z + q.w * q.x);
    ik_real m22 = 1 - 2 * (q.x * q.x + q.y * q.y);
    ik_real m01 = 2 * (q.x * q.y - q.w * q.z);
    ik_real m11 = 1 - 2 * (q.x * q.x + q.z * q.z);
    ik_real cos_y = IK_SQRT(m00 * m00 + m10 * m10);
    ik_real y = IK_ATAN2(-m20, cos_y);
    if (cos_y < gimbal) return ik_v3(0, y, IK_ATAN2(-m01, m11));
    return ik_v3(IK_ATAN2(m21, m22), y, IK_ATAN2(m10, m00));
}

ik_quat ik_quat_from_euler(ik_vec3 e) {
    ik_quat qx = ik_quat_from_axis_angle(ik_v3(1, 0, 0), e.x);
    ik_quat qy = ik_quat_from_axis_angle(ik_v3(0, 1, 0), e.y);
    ik_quat qz = ik_quat_from_axis_angle(ik_v3(0, 0, 1), e.z);
    return ik_quat_mul(qz, ik_quat_mul(qy, qx));
}

/* Swing-twist clamp (seed 004's joint limits, done on the split q = swing
 * twist about the bone axis): the swing keeps its axis with its angle capped
 * at the cone, the twist angle is clamped to its range. */
static ik_quat apply_cone_twist(const ik_constraint *c, ik_quat delta) {
    ik_quat swing, twist;
    ik_vec3 swing_axis;
    ik_real swing_angle, twist_angle;
    ik_quat_swing_twist(delta, c->axis, &swing, &twist);
    ik_quat_to_axis_angle(swing, &swing_axis, &swing_angle);
    if (swing_angle > c->cone_angle) swing = ik_quat_from_axis_angle(swing_axis, c->cone_angle);
    twist_angle = ik_quat_twist_angle(twist, c->axis);
    twist = ik_quat_from_axis_angle(c->axis, clamp_angle(twist_angle, c->min_angle, c->max_angle));
    return ik_quat_mul(swing, twist);
}

/* The projection of q onto rotations about the axis is its twist part;
 * its angle is then clamped. */
static ik_quat apply_hinge(const ik_constraint *c, ik_quat delta) {
    ik_real angle = ik_quat_twist_angle(delta, c->axis);
    return ik_quat_from_axis_angle(c->axis, clamp_angle(angle, c->min_angle, c->max_angle));
}

/* Clamp each Euler angle. At gimbal lock (y = +-pi/2) the rotation depends
 * on z - x (y = +pi/2) or z + x (y = -pi/2) only: x takes the value of its
 * range nearest 0 and z absorbs the difference before its own clamp. */
static ik_quat apply_euler(const ik_constraint *c, ik_quat delta) {
    ik_vec3 e = ik_euler_from_quat(delta);
    if (e.x == 0 && IK_FABS(e.y) > IK_PI / 2 * (ik_real)0.999) {
        e.x = ik_clampr(0, c->euler_min.x, c->euler_max.x);
        e.z = ik_wrap_angle(e.y > 0 ? e.z + e.x : e.z - e.x);
    }
    e.x = clamp_angle(e.x, c->euler_min.x, c->euler_max.x);
    e.y = ik_clampr(e.y, c->euler_min.y, c->euler_max.y);
    e.z = clamp_angle(e.z, c->euler_min.z, c->euler_max.z);
    return ik_quat_from_euler(e);
}

ik_quat ik_constraint_apply(const ik_constraint *c, ik_quat rotation_ls) {
    ik_quat delta, limited;
    if (!c || c->type == IK_CONSTRAINT_NONE) return rotation_ls;
    delta = ik_constraint_delta(c, rotation_ls);
    switch (c->type) {
        case IK_CONSTRAINT_HINGE:
            limited = apply_hinge(c, delta);
            break;
        case IK_CONSTRAINT_CONE_TWIST:
            limited = apply_cone_twist(c, delta);
            break;
        case IK_CONSTRAINT_EULER:
            limited = apply_euler(c, delta);
            break;
        default:
            return rotation_ls;
    }
    return ik_quat_normalize(ik_quat_mul(c->reference_ls, limited));
}

/* reference * delta with delta = swing * twist (cone-twist), a hinge turn,
 * or Rz Ry Rx (Euler), each parameter at its place u in its range. */
ik_quat ik_constraint_sample(const ik_constraint *c, ik_vec3 u) {
    ik_quat delta;
    if (!c) return ik_quat_identity();
    switch (c->type) {
        case IK_CONSTRAINT_HINGE:
            delta = ik_quat_from_axis_angle(c->axis, c->min_angle + u.x * (c->max_angle - c->min_angle));
            break;
        case IK_CONSTRAINT_CONE_TWIST: {
            ik_vec3 side = ik_vec3_any_perpendicular(c->axis), up = ik_vec3_cross(c->axis, side);
            ik_real phi = 2 * IK_PI * u.x;
            ik_vec3 swing_axis = ik_vec3_add(ik_vec3_scale(side, IK_COS(phi)), ik_vec3_scale(up, IK_SIN(phi)));
            delta = ik_quat_mul(ik_quat_from_axis_angle(swing_axis, c->cone_angle * u.y),
                                ik_quat_from_axis_angle(c->axis, c->min_angle + u.z * (c->max_angle - c->min_angle)));
            break;
        }
        case IK_CONSTRAINT_EULER:
            delta =
                ik_quat_from_euler(ik_vec3_add(c->euler_min, ik_vec3_mul(u, ik_vec3_sub(c->euler_max, c->euler_min))));
            break;
        default:
            return c->reference_ls;
    }
    return ik_quat_normalize(ik_quat_mul(c->reference_ls, delta));
}

ik_bool ik_constraint_check(const ik_constraint *c, ik_quat rotation_ls, ik_real tolerance) {
    ik_quat delta, swing, twist;
    ik_real twist_angle;
    if (!c || c->type == IK_CONSTRAINT_NONE) return 1;
    delta = ik_quat_normalize(ik_constraint_delta(c, rotation_ls));
    if (c->type == IK_CONSTRAINT_EULER) {
        ik_vec3 e = ik_euler_from_quat(delta);
        if (e.x == 0 && IK_FABS(e.y) > IK_PI / 2 * (ik_real)0.999) {
            ik_quat nearest = ik_constraint_apply(c, rotation_ls);
            return ik_quat_angle(ik_quat_mul(ik_quat_conjugate(nearest), rotation_ls)) <= tolerance;
        }
        return range_excess(e.x, c->euler_min.x, c->euler_max.x) <= tolerance && e.y >= c->euler_min.y - tolerance &&
               e.y <= c->euler_max.y + tolerance && range_excess(e.z, c->euler_min.z, c->euler_max.z) <= tolerance;
    }
    ik_quat_swing_twist(delta, c->axis, &swing, &twist);
    twist_angle = ik_quat_twist_angle(twist, c->axis);
    if (range_excess(twist_angle, c->min_angle, c->max_angle) > tolerance) return 0;
    if (c->type == IK_CONSTRAINT_HINGE) return ik_quat_angle(swing) <= tolerance;
    return ik_quat_angle(swing) <= c->cone_angle + tolerance;
}

/* Rotate towards the centre in the plane of (centre, direction):
 * d' = |d| (c cos a + u sin a), u the unit part of d perpendicular to c. */
ik_vec3 ik_direction_clamp_cone(ik_vec3 direction, ik_vec3 center, ik_real max_angle) {
    ik_real len = ik_vec3_length(direction);
    ik_vec3 perp;
    if (!(len > 0)) return direction;
    if (ik_vec3_dot(direction, center) >= len * IK_COS(max_angle)) return direction;
    perp = ik_vec3_normalize_or(ik_vec3_reject(direction, center), ik_vec3_any_perpendicular(center));
    return ik_vec3_scale(ik_vec3_add(ik_vec3_scale(center, IK_COS(max_angle)), ik_vec3_scale(perp, IK_SIN(max_angle))),
                         len);
}

/* Aim a joint's forward axis, through an offset, at a target (seed 001's
 * QuatAim, seed 004's bone look-at), keeping its up axis toward a pole. */
#include <ikit/aim.h>

#include <stddef.h>

ik_aim ik_aim_def(void) {
    ik_aim job;
    job.joint_ms = NULL;
    job.target_ms = ik_vec3_zero();
    job.forward_ls = ik_v3(0, 0, 1);
    job.up_ls = ik_v3(0, 1, 0);
    job.pole_ms = ik_v3(0, 1, 0);
    job.offset_ls = ik_vec3_zero();
    job.twist = 0;
    job.weight = 1;
    job.rotation_ls = NULL;
    job.correction_ls = NULL;
    job.reached = NULL;
    return job;
}

static ik_bool inputs_finite(const ik_aim *job) {
    return ik_mat4_finite(job->joint_ms) && ik_vec3_finite(job->target_ms) &&
           ik_vec3_finite(job->forward_ls) && ik_vec3_finite(job->up_ls) && ik_vec3_finite(job->pole_ms) &&
           ik_vec3_finite(job->offset_ls) && ik_finite(job->twist) && ik_finite(job->weight) &&
           (!job->rotation_ls || ik_quat_finite(*job->rotation_ls));
}

/* v / |v|, dividing by the largest component first when |v|^2 would
 * overflow or underflow; zero for the zero vector. */
static ik_vec3 unit_or_zero(ik_vec3 v) {
    ik_real len_sq = ik_vec3_dot(v, v), big;
    if (len_sq > IK_REAL_EPSILON * IK_REAL_EPSILON && ik_finite(len_sq))
        return ik_vec3_scale(v, 1 / IK_SQRT(len_sq));
    big = ik_maxr(IK_FABS(v.x), ik_maxr(IK_FABS(v.y), IK_FABS(v.z)));
    if (!(big > 0)) return ik_vec3_zero();
    v = ik_vec3_scale(v, 1 / big);
    return ik_vec3_scale(v, 1 / IK_SQRT(ik_vec3_dot(v, v)));
}

static ik_bool vec3_is_zero(ik_vec3 v) { return v.x == 0 && v.y == 0 && v.z == 0; }

/* The minimum rotation taking `from` onto `to`, as the half-angle quaternion
 * (from x to, |from||to| + from . to) normalised: no trigonometry (the
 * identity cos(a) = 2 cos^2(a/2) - 1). `len_product` is |from||to|. When the
 * two are opposite, a half turn about any axis perpendicular to `from`. */
static ik_quat min_rotation(ik_vec3 from, ik_vec3 to, ik_real len_product) {
    ik_real w = len_product + ik_vec3_dot(from, to);
    ik_vec3 axis;
    if (w > len_product * (16 * IK_REAL_EPSILON)) {
        axis = ik_vec3_cross(from, to);
        return ik_quat_normalize(ik_q(axis.x, axis.y, axis.z, w));
    }
    axis = ik_vec3_any_perpendicular(unit_or_zero(from));
    return ik_q(axis.x, axis.y, axis.z, 0);
}

/* q^w for a unit q with q.w >= 0: the same axis, w times the angle. */
static ik_quat quat_power(ik_quat q, ik_real w) {
    ik_real v_len = IK_SQRT(q.x * q.x + q.y * q.y + q.z * q.z);
    ik_real half, s;
    if (!(v_len > 0)) return ik_quat_identity();
    half = w * IK_ATAN2(v_len, q.w);
    s = IK_SIN(half) / v_len;
    return ik_q(q.x * s, q.y * s, q.z * s, IK_COS(half));
}

/* Target and pole in the joint's frame, through L^-1 = [c1 x c2; c2 x c0; c0 x c1] / det
 * for the linear part L = [c0 c1 c2], det = c0 . (c1 x c2). A det^2 below
 * (16 eps)^2 |c0|^2 |c1|^2 |c2|^2 (the sine of the angle between a column and
 * the plane of the other two, squared) counts as singular: returns 0. */
static ik_bool to_joint_frame(const ik_mat4 *joint_ms, ik_vec3 to_target_ms, ik_vec3 pole_ms, ik_vec3 *target_ls,
                              ik_vec3 *pole_ls) {
    const ik_real *m = joint_ms->m, tiny = 16 * IK_REAL_EPSILON;
    ik_vec3 c0 = ik_v3(m[0], m[1], m[2]), c1 = ik_v3(m[4], m[5], m[6]), c2 = ik_v3(m[8], m[9], m[10]);
    ik_vec3 k0 = ik_vec3_cross(c1, c2), k1 = ik_vec3_cross(c2, c0), k2 = ik_vec3_cross(c0, c1);
    ik_real det = ik_vec3_dot(c0, k0), inv_det;
    if (!(det * det > tiny * tiny * ik_vec3_dot(c0, c0) * ik_vec3_dot(c1, c1) * ik_vec3_dot(c2, c2))) return 0;
    inv_det = 1 / det;
    *target_ls = ik_vec3_scale(
        ik_v3(ik_vec3_dot(k0, to_target_ms), ik_vec3_dot(k1, to_target_ms), ik_vec3_dot(k2, to_target_ms)), inv_det);
    *pole_ls = ik_vec3_scale(ik_v3(ik_vec3_dot(k0, pole_ms), ik_vec3_dot(k1, pole_ms), ik_vec3_dot(k2, pole_ms)), inv_det);
    return 1;
}

ik_result ik_aim_run(const ik_aim *job) {
    const ik_real tiny = 16 * IK_REAL_EPSILON, small = 64 * IK_REAL_EPSILON;
    ik_vec3 origin_ms, to_target_ms, target_ls, pole_ls, forward, offset_perp, aim_from, up_aimed, up_perp, pole_perp;
    ik_vec3 axis_hat;
    ik_real qq, dd, tt, inv_tt, of, pp, disc, along, ut, aa, bb, roll_cos, roll_sin;
    ik_quat old_ls, swing, correction;
    ik_bool reached;

    if (!job || !job->joint_ms || (!job->rotation_ls && !job->correction_ls)) return IK_ERR_NULL;
    if (!inputs_finite(job)) return IK_ERR_NONFINITE;
    if (!(job->weight >= 0 && job->weight <= 1)) return IK_ERR_RANGE;
    forward = unit_or_zero(job->forward_ls);
    old_ls = job->rotation_ls ? *job->rotation_ls : ik_quat_identity();
    qq = ik_quat_dot(old_ls, old_ls);
    if (vec3_is_zero(forward) || vec3_is_zero(job->up_ls) || !(qq > 0) || !ik_finite(qq)) return IK_ERR_DEGENERATE;

    /* A target on the joint's origin (to rounding) gives no direction to aim in. */
    origin_ms = ik_mat4_translation(job->joint_ms);
    to_target_ms = ik_vec3_sub(job->target_ms, origin_ms);
    dd = ik_vec3_dot(to_target_ms, to_target_ms);
    if (!ik_finite(dd)) return IK_ERR_DEGENERATE;
    if (!(dd > tiny * tiny * (ik_vec3_dot(job->target_ms, job->target_ms) + ik_vec3_dot(origin_ms, origin_ms)))) {
        if (job->correction_ls) *job->correction_ls = ik_quat_identity();
        if (job->reached) *job->reached = 0;
        return IK_OK;
    }
    if (!to_joint_frame(job->joint_ms, to_target_ms, job->pole_ms, &target_ls, &pole_ls)) return IK_ERR_DEGENERATE;

    /* The point on the ray o + s f (f unit) at the target's distance from the
     * origin: |o + s f| = |T| gives s = -(o.f) + sqrt(disc), disc = |T|^2 - |o_perp|^2,
     * o_perp = o - (o.f) f, so o + s f = o_perp + sqrt(disc) f. With disc < 0 the
     * target is closer than the ray ever passes; o_perp, the ray's nearest point,
     * is turned toward it, which leaves the least miss |o_perp| - |T|. Reached
     * needs s >= 0: the target ahead of the offset, not between it and the joint. */
    tt = ik_vec3_dot(target_ls, target_ls);
    of = ik_vec3_dot(job->offset_ls, forward);
    offset_perp = ik_vec3_mad(job->offset_ls, forward, -of);
    pp = ik_vec3_dot(offset_perp, offset_perp);
    disc = tt - pp;
    along = disc > 0 ? IK_SQRT(disc) : 0;
    reached = disc >= 0 && along >= of;
    aim_from = ik_vec3_mad(offset_perp, forward, along);
    ut = disc >= 0 ? tt : IK_SQRT(pp * tt);

    /* Swing: the minimum rotation from u = aim_from to T. Past about 170
     * degrees the computed axis u x T leans off the perpendicular to u by
     * eps / sin(angle), which leaves u off T; a second, small minimum
     * rotation from where u landed to T removes that. */
    swing = min_rotation(aim_from, target_ls, ut);
    if (swing.w < (ik_real)0.1)
        swing = ik_quat_normalize(ik_quat_mul(min_rotation(ik_quat_rotate(swing, aim_from), target_ls, ut), swing));

    /* Roll about the line n = T / |T| through the origin and the target, which
     * keeps the ray on the target: turn the swung up axis a, projected off that
     * line, onto the pole b projected the same way. With S = n . (a x b) =
     * |a||b| sin(phi) and C = a . b = |a||b| cos(phi), the half angle
     * (cos(phi/2), sin(phi/2)) lies along (|a||b| + C, S) or, multiplied by
     * (1 - cos phi) / sin phi, along (S, |a||b| - C): the first for C >= 0, the
     * second near a half turn, where |a||b| + C cancels. Skipped when either
     * projection vanishes (pole or up along the aim line): no flip. */
    inv_tt = 1 / tt;
    up_aimed = ik_quat_rotate(swing, job->up_ls);
    up_perp = ik_vec3_mad(up_aimed, target_ls, -ik_vec3_dot(up_aimed, target_ls) * inv_tt);
    pole_perp = ik_vec3_mad(pole_ls, target_ls, -ik_vec3_dot(pole_ls, target_ls) * inv_tt);
    aa = ik_vec3_dot(up_perp, up_perp);
    bb = ik_vec3_dot(pole_perp, pole_perp);
    if (!ik_finite(tt + pp + aa * bb)) return IK_ERR_DEGENERATE;
    axis_hat = ik_vec3_scale(target_ls, IK_SQRT(inv_tt));
    roll_cos = 1;
    roll_sin = 0;
    if (aa > small * small * ik_vec3_dot(job->up_ls, job->up_ls) && bb > small * small * ik_vec3_dot(pole_ls, pole_ls)) {
        ik_real ab_len = IK_SQRT(aa * bb), c = ik_vec3_dot(up_perp, pole_perp);
        ik_real s = ik_vec3_dot(axis_hat, ik_vec3_cross(up_perp, pole_perp)), inv_len;
        roll_cos = c >= 0 ? ab_len + c : s;
        roll_sin = c >= 0 ? s : ab_len - c;
        inv_len = 1 / IK_SQRT(roll_cos * roll_cos + roll_sin * roll_sin);
        roll_cos *= inv_len;
        roll_sin *= inv_len;
    }

    /* Twist: add twist/2 to the roll's half angle, as a product of unit
     * complex numbers (cos, sin), about the same line n. */
    if (job->twist != 0) {
        ik_real tc = IK_COS(job->twist * (ik_real)0.5), ts = IK_SIN(job->twist * (ik_real)0.5);
        ik_real c = roll_cos * tc - roll_sin * ts;
        roll_sin = roll_sin * tc + roll_cos * ts;
        roll_cos = c;
    }

    /* Weight: C^w, the same axis with w times the angle (slerp from the identity). */
    correction = ik_quat_positive_w(
        ik_quat_mul(ik_q(axis_hat.x * roll_sin, axis_hat.y * roll_sin, axis_hat.z * roll_sin, roll_cos), swing));
    if (job->weight < 1) correction = job->weight > 0 ? quat_power(correction, job->weight) : ik_quat_identity();

    if (job->rotation_ls && job->weight > 0) *job->rotation_ls = ik_quat_normalize(ik_quat_mul(old_ls, correction));
    if (job->correction_ls) *job->correction_ls = correction;
    if (job->reached) *job->reached = reached;
    return IK_OK;
}

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

static ik_bool inputs_finite_each(const ik_aim *job) {
    return ik_mat4_finite(job->joint_ms) && ik_vec3_finite(job->target_ms) &&
           ik_vec3_finite(job->forward_ls) && ik_vec3_finite(job->up_ls) && ik_vec3_finite(job->pole_ms) &&
           ik_vec3_finite(job->offset_ls) && ik_finite(job->twist) && ik_finite(job->weight) &&
           (!job->rotation_ls || ik_quat_finite(*job->rotation_ls));
}

/* A sum of terms is finite only when every term is (NaN and infinities
 * survive addition), so one sum checks them all; only when a sum of finite
 * terms overflows does each get checked on its own. */
static ik_bool inputs_finite(const ik_aim *job) {
    const ik_real *m = job->joint_ms->m;
    ik_vec3 a =
        ik_vec3_add(ik_vec3_add(job->target_ms, job->forward_ls), ik_vec3_add(job->up_ls, job->pole_ms));
    ik_real s0 = (m[0] + m[4]) + (m[8] + m[12]), s1 = (m[1] + m[5]) + (m[9] + m[13]);
    ik_real s2 = (m[2] + m[6]) + (m[10] + m[14]), s3 = (m[3] + m[7]) + (m[11] + m[15]);
    ik_real sum;
    a = ik_vec3_add(a, job->offset_ls);
    s3 += job->twist + job->weight;
    if (job->rotation_ls) {
        ik_quat q = *job->rotation_ls;
        s0 += q.x;
        s1 += q.y;
        s2 += q.z;
        s3 += q.w;
    }
    sum = ((s0 + a.x) + (s1 + a.y)) + ((s2 + a.z) + s3);
    return ik_finite(sum) || inputs_finite_each(job);
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

/* q^w for q with q.w >= 0 (any length): the same axis, w times the angle. */
static ik_quat quat_power(ik_quat q, ik_real w) {
    ik_real v_len = IK_SQRT(q.x * q.x + q.y * q.y + q.z * q.z);
    ik_real half, s;
    if (!(v_len > 0)) return ik_quat_identity();
    half = w * IK_ATAN2(v_len, q.w);
    s = IK_SIN(half) / v_len;
    return ik_q(q.x * s, q.y * s, q.z * s, IK_COS(half));
}

/* Target and pole in the joint's frame. When the linear part L = [c0 c1 c2]
 * is a rotation (or mirror) times a uniform scale s to rounding (equal
 * column lengths, orthogonal columns), L^-1 = L^T / s^2. Otherwise through
 * L^-1 = [c1 x c2; c2 x c0; c0 x c1] / det, det = c0 . (c1 x c2); a det^2
 * below (16 eps)^2 |c0|^2 |c1|^2 |c2|^2 (the sine of the angle between a
 * column and the plane of the other two, squared) counts as singular:
 * returns 0. */
static ik_bool to_joint_frame(const ik_mat4 *joint_ms, ik_vec3 to_target_ms, ik_vec3 pole_ms,
                              ik_vec3 *target_ls, ik_vec3 *pole_ls) {
    const ik_real *m = joint_ms->m, tiny = 16 * IK_REAL_EPSILON;
    ik_vec3 c0 = ik_v3(m[0], m[1], m[2]), c1 = ik_v3(m[4], m[5], m[6]), c2 = ik_v3(m[8], m[9], m[10]), k0, k1,
            k2;
    ik_real l0 = ik_vec3_dot(c0, c0), l1 = ik_vec3_dot(c1, c1), l2 = ik_vec3_dot(c2, c2), spread = tiny * l0,
            det, inv;
    if (l0 > 0 && IK_FABS(l1 - l0) <= spread && IK_FABS(l2 - l0) <= spread &&
        IK_FABS(ik_vec3_dot(c0, c1)) <= spread && IK_FABS(ik_vec3_dot(c0, c2)) <= spread &&
        IK_FABS(ik_vec3_dot(c1, c2)) <= spread) {
        inv = 1 / l0;
        k0 = c0;
        k1 = c1;
        k2 = c2;
    } else {
        k0 = ik_vec3_cross(c1, c2);
        k1 = ik_vec3_cross(c2, c0);
        k2 = ik_vec3_cross(c0, c1);
        det = ik_vec3_dot(c0, k0);
        if (!(det * det > tiny * tiny * l0 * l1 * l2)) return 0;
        inv = 1 / det;
    }
    *target_ls = ik_vec3_scale(
        ik_v3(ik_vec3_dot(k0, to_target_ms), ik_vec3_dot(k1, to_target_ms), ik_vec3_dot(k2, to_target_ms)),
        inv);
    *pole_ls = ik_vec3_scale(
        ik_v3(ik_vec3_dot(k0, pole_ms), ik_vec3_dot(k1, pole_ms), ik_vec3_dot(k2, pole_ms)), inv);
    return 1;
}

ik_result ik_aim_run(const ik_aim *job) {
    const ik_real tiny = 16 * IK_REAL_EPSILON, small = 64 * IK_REAL_EPSILON;
    ik_vec3 origin_ms, to_target_ms, target_ls, pole_ls, forward, offset_perp, aim_from, x, n, swing_axis,
        up_perp;
    ik_real up_sq, pole_sq, up_along, pole_along, qq, ff, dd, tt, inv_t_len, of, pp, disc, along, swing_w, aa,
        bb, roll_cos, roll_sin, hemisphere;
    ik_quat old_ls, swing, correction;
    ik_bool reached, up_is_zero, near_half_turn;

    if (!job || !job->joint_ms || (!job->rotation_ls && !job->correction_ls)) return IK_ERR_NULL;
    if (!inputs_finite(job)) return IK_ERR_NONFINITE;
    if (!(job->weight >= 0 && job->weight <= 1)) return IK_ERR_RANGE;
    ff = ik_vec3_dot(job->forward_ls, job->forward_ls);
    forward = IK_FABS(ff - 1) <= 4 * IK_REAL_EPSILON ? job->forward_ls : unit_or_zero(job->forward_ls);
    up_is_zero = !(ik_vec3_dot(job->up_ls, job->up_ls) > 0) && ik_vec3_is_zero(job->up_ls);
    old_ls = job->rotation_ls ? *job->rotation_ls : ik_quat_identity();
    qq = ik_quat_dot(old_ls, old_ls);
    if ((!(ff > 0) && ik_vec3_is_zero(forward)) || up_is_zero || !(qq > 0) || !ik_finite(qq))
        return IK_ERR_DEGENERATE;

    /* A target on the joint's origin (to rounding) gives no direction to aim in. */
    origin_ms = ik_mat4_translation(job->joint_ms);
    to_target_ms = ik_vec3_sub(job->target_ms, origin_ms);
    dd = ik_vec3_dot(to_target_ms, to_target_ms);
    if (!ik_finite(dd)) return IK_ERR_DEGENERATE;
    if (!(dd > 2 * tiny * tiny * ik_vec3_dot(origin_ms, origin_ms))) {
        if (job->correction_ls) *job->correction_ls = ik_quat_identity();
        if (job->reached) *job->reached = 0;
        return IK_OK;
    }
    if (!to_joint_frame(job->joint_ms, to_target_ms, job->pole_ms, &target_ls, &pole_ls))
        return IK_ERR_DEGENERATE;

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

    /* Swing: the minimum rotation from the unit aim direction
     * x = aim_from / |aim_from| to n = T / |T|, the half-angle quaternion
     * (k, 1 + c) with k = x x n, c = x . n, unnormalised (length^2
     * 2 (1 + c)): every later step is indifferent to the length, and the one
     * normalisation comes at the end. Past about 170 degrees (1 + c < 0.02)
     * the axis k is mostly rounding, and ik_quat_from_to builds the swing in two
     * turns. */
    inv_t_len = 1 / IK_SQRT(tt);
    x = ik_vec3_scale(aim_from, disc >= 0 ? inv_t_len : 1 / IK_SQRT(pp));
    n = ik_vec3_scale(target_ls, inv_t_len);
    swing_axis = ik_vec3_cross(x, n);
    swing_w = 1 + ik_vec3_dot(x, n);
    near_half_turn = !(swing_w > (ik_real)0.02);
    swing = near_half_turn ? ik_quat_from_to(x, n)
                           : ik_q(swing_axis.x, swing_axis.y, swing_axis.z, swing_w);

    /* Roll about the line through the origin and the target, which keeps the
     * ray on the target, turning the up axis to the pole's side: the up axis
     * projected off the aim line, a = u - (u . x) x, swung, onto the pole P
     * projected off the target line. With S = n . (R a x P) = |a||P'| sin(phi)
     * and C = R a . P = |a||P'| cos(phi) (P' the projected pole; its part
     * along n drops out of both), the half angle (cos(phi/2), sin(phi/2))
     * lies along (|a||P'| + C, S) and, multiplying by (1 - cos phi) / sin phi,
     * along (S, |a||P'| - C). The first cancels near a half turn, the second
     * near no turn; their sum with the second's sign made S's,
     * (|a||P'| + C + |S|, sgn(S) (|a||P'| - C + |S|)), is at least |a||P'|
     * long and cancels nowhere. For a perpendicular to x the minimum
     * rotation R is R a = a - (a . n) / (1 + c) (x + n) (Rodrigues' formula
     * with axis x x n), so C = a . P - f (x . P + n . P) and
     * S = n . (a x P) + f (P . k), f = (a . n) / (1 + c): no rotation needed.
     * Near a half turn P is turned back by the (unit) swing instead. The roll
     * is skipped when either projection vanishes (pole or up along the aim
     * line): no flip. */
    up_sq = ik_vec3_dot(job->up_ls, job->up_ls);
    pole_sq = ik_vec3_dot(pole_ls, pole_ls);
    up_along = ik_vec3_dot(job->up_ls, x);
    pole_along = ik_vec3_dot(pole_ls, n);
    up_perp = ik_vec3_mad(job->up_ls, x, -up_along);
    aa = ik_vec3_length_sq(up_perp);
    bb = ik_vec3_length_sq(ik_vec3_mad(pole_ls, n, -pole_along));
    if (!ik_finite(tt + pp + aa * bb)) return IK_ERR_DEGENERATE;
    roll_cos = 1;
    roll_sin = 0;
    if (aa > small * small * up_sq && bb > small * small * pole_sq) {
        ik_real root = IK_SQRT(aa * bb), c, s, abs_s;
        if (!near_half_turn) {
            ik_real f = ik_vec3_dot(up_perp, n) / swing_w;
            c = ik_vec3_dot(up_perp, pole_ls) - f * (ik_vec3_dot(x, pole_ls) + pole_along);
            s = ik_vec3_dot(n, ik_vec3_cross(up_perp, pole_ls)) + f * ik_vec3_dot(pole_ls, swing_axis);
        } else {
            ik_vec3 pole_back = ik_quat_rotate(ik_quat_conjugate(swing), pole_ls);
            c = ik_vec3_dot(up_perp, pole_back);
            s = ik_vec3_dot(x, ik_vec3_cross(up_perp, pole_back));
        }
        abs_s = IK_FABS(s);
        roll_cos = root + c + abs_s;
        roll_sin = IK_COPYSIGN(root - c + abs_s, s);
    }

    /* Twist: add twist/2 to the roll's half angle, a product of complex
     * numbers (cos, sin) about the same line. Then the swing: with r the
     * roll about x, q r = (sin (x + n) + cos k, cos (1 + c)) for q = (k, 1 + c),
     * as k . x = 0 and k x x = n - c x. */
    if (job->twist != 0) {
        ik_real tc = IK_COS(job->twist * (ik_real)0.5), ts = IK_SIN(job->twist * (ik_real)0.5);
        ik_real c = roll_cos * tc - roll_sin * ts;
        roll_sin = roll_sin * tc + roll_cos * ts;
        roll_cos = c;
    }
    if (near_half_turn)
        correction = ik_quat_mul(swing, ik_q(x.x * roll_sin, x.y * roll_sin, x.z * roll_sin, roll_cos));
    else
        correction = ik_q(roll_sin * (x.x + n.x) + roll_cos * swing_axis.x,
                          roll_sin * (x.y + n.y) + roll_cos * swing_axis.y,
                          roll_sin * (x.z + n.z) + roll_cos * swing_axis.z, roll_cos * swing_w);

    /* Weight: C^w, the same axis with w times the angle (slerp from the
     * identity). The result keeps the input's hemisphere (w of C made >= 0),
     * and the one normalisation happens here. */
    if (job->weight < 1)
        correction =
            job->weight > 0 ? quat_power(ik_quat_positive_w(correction), job->weight) : ik_quat_identity();
    hemisphere = IK_COPYSIGN(1, correction.w);
    if (job->rotation_ls && job->weight > 0) {
        ik_quat q = ik_quat_mul(old_ls, correction);
        ik_real k = hemisphere / IK_SQRT(ik_quat_dot(q, q));
        *job->rotation_ls = ik_q(q.x * k, q.y * k, q.z * k, q.w * k);
    }
    if (job->correction_ls) {
        ik_real k = hemisphere / IK_SQRT(ik_quat_dot(correction, correction));
        *job->correction_ls = ik_q(correction.x * k, correction.y * k, correction.z * k, correction.w * k);
    }
    if (job->reached) *job->reached = reached;
    return IK_OK;
}

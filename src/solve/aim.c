/* Aim a joint's forward axis, through an offset, at a target (seed 001's
 * QuatAim, seed 004's bone look-at), keeping its up axis toward a pole. */
#include <ikit/aim.h>

#include <stddef.h>

#include "../math/simd4.h"
#include "aim_frame.h"

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
    job.defaulted = IK_JOB_DEFAULTED;
    return job;
}

static ik_bool inputs_finite(const ik_aim *job) {
    return ik_mat4_finite(job->joint_ms) && ik_vec3_finite(job->target_ms) && ik_vec3_finite(job->forward_ls) &&
           ik_vec3_finite(job->up_ls) && ik_vec3_finite(job->pole_ms) && ik_vec3_finite(job->offset_ls) &&
           ik_finite(job->twist) && ik_finite(job->weight) && (!job->rotation_ls || ik_quat_finite(*job->rotation_ls));
}

/* A failure with code `code`, or IK_ERR_NONFINITE when an input is not
 * finite: NaN and infinity spread through every step, so the solve checks
 * for them only where it stops. */
static ik_result failure(const ik_aim *job, ik_result code) { return inputs_finite(job) ? code : IK_ERR_NONFINITE; }

/* v / |v|, dividing by the largest component first when |v|^2 would
 * overflow or underflow; zero for the zero vector. */
static ik_vec3 unit_or_zero(ik_vec3 v) {
    ik_real len_sq = ik_vec3_dot(v, v), big;
    if (len_sq > IK_REAL_EPSILON * IK_REAL_EPSILON && ik_finite(len_sq)) return ik_vec3_scale(v, 1 / IK_SQRT(len_sq));
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

/* (|c0|^2, |c1|^2, |c2|^2) for the columns c_i of the matrix with rows r_i. */
static simd4 column_lengths_sq(simd4 r0, simd4 r1, simd4 r2) {
    return simd4_add(simd4_add(simd4_mul(r0, r0), simd4_mul(r1, r1)), simd4_mul(r2, r2));
}

/* v0 v1 v2 */
static ik_real lane_product3(simd4 v) { return simd4_x(simd4_mul(simd4_mul(v, simd4_yzxw(v)), simd4_zxyw(v))); }

/* adj(L) = det L^-1 = [r1 x r2, r2 x r0, r0 x r1] (columns) for the rows r_i
 * of L; returns det = r0 . (r1 x r2). */
static ik_real adjugate(simd4 r0, simd4 r1, simd4 r2, simd4 *k0, simd4 *k1, simd4 *k2) {
    *k0 = simd4_cross3(r1, r2);
    *k1 = simd4_cross3(r2, r0);
    *k2 = simd4_cross3(r0, r1);
    return simd4_dot3(r0, *k0);
}

/* The joint's frame: the columns k0, k1, k2 of K = g L^-1, g > 0, for the
 * linear part L = [c0 c1 c2] of joint_ms, rows r_i. When L is a rotation
 * (or mirror) times a uniform scale s to rounding (|c_i|^2 equal,
 * c_i . c_j = 0, within 16 eps s^2), K = L^T = s^2 L^-1: the rows.
 * Otherwise K = sgn(det) adj(L), g = |det|. A det^2 below
 * (16 eps)^2 |c0|^2 |c1|^2 |c2|^2 (the sine of the angle between a column
 * and the plane of the other two, squared) counts as singular: returns 0.
 * That product is the sixth power of the scale, so when it leaves the
 * normal range (scales past about 1e6 or below 1e-6 in float) the rows
 * are first multiplied by h = 1 / (longest column length), and then
 * adj(hL) = h^2 adj(L): g = h^2 |det| = |det(hL)| / h. */
static ik_bool joint_frame(const ik_real *m, simd4 *k0, simd4 *k1, simd4 *k2, ik_real *g) {
    const ik_real tiny = 16 * IK_REAL_EPSILON;
    simd4 r0, r1, r2, col_sq, col_dots, flip;
    ik_real l0, det, col_product, h = 1;
    simd4_transpose3(simd4_load(m), simd4_load(m + 4), simd4_load(m + 8), &r0, &r1, &r2);
    col_sq = column_lengths_sq(r0, r1, r2);
    col_dots = simd4_add(simd4_add(simd4_mul(r0, simd4_yzxw(r0)), simd4_mul(r1, simd4_yzxw(r1))),
                         simd4_mul(r2, simd4_yzxw(r2))); /* c0 . c1, c1 . c2, c2 . c0 */
    l0 = simd4_x(col_sq);
    if (l0 > 0 && simd4_le3(simd4_max(simd4_abs(simd4_sub(col_sq, simd4_splat(l0))), simd4_abs(col_dots)),
                            simd4_splat(tiny * l0))) {
        *k0 = r0;
        *k1 = r1;
        *k2 = r2;
        *g = l0;
        return 1;
    }
    det = adjugate(r0, r1, r2, k0, k1, k2);
    col_product = lane_product3(col_sq);
    if (!(col_product >= IK_REAL_MIN && col_product <= IK_REAL_MAX)) {
        ik_real longest = ik_maxr(l0, ik_maxr(simd4_x(simd4_yzxw(col_sq)), simd4_x(simd4_zxyw(col_sq))));
        simd4 shrink;
        if (!(longest > 0) || !ik_finite(longest)) return 0;
        h = 1 / IK_SQRT(longest);
        shrink = simd4_splat(h);
        r0 = simd4_mul(r0, shrink);
        r1 = simd4_mul(r1, shrink);
        r2 = simd4_mul(r2, shrink);
        det = adjugate(r0, r1, r2, k0, k1, k2);
        col_product = lane_product3(column_lengths_sq(r0, r1, r2));
    }
    if (!(col_product >= IK_REAL_MIN && det * det > tiny * tiny * col_product)) return 0;
    flip = simd4_splat(IK_COPYSIGN(1, det));
    *k0 = simd4_mul(*k0, flip);
    *k1 = simd4_mul(*k1, flip);
    *k2 = simd4_mul(*k2, flip);
    *g = IK_FABS(det) / h;
    return 1;
}

ik_bool ik_aim_frame_usable(const ik_mat4 *joint_ms) {
    simd4 k0, k1, k2;
    ik_real g;
    return joint_frame(joint_ms->m, &k0, &k1, &k2, &g);
}

ik_result ik_aim_run(const ik_aim *job) {
    const ik_real tiny = 16 * IK_REAL_EPSILON, small = 64 * IK_REAL_EPSILON;
    const ik_real *m;
    simd4 origin, target, forward, up, pole, offset, old, k0, k1, k2, to_target, t, p, of, offset_perp, inv_len, x, n,
        k, q1, q2, correction, rotation;
    ik_real roll_scale, ff, uu, pole_sq, qq, dd, g, tt, pp, disc, along, x_offset, x_forward, swing_w, c, s, cs_sq,
        roll_cos, roll_sin, hemisphere, rotation_sq, correction_sq;
    ik_bool reached, near_half_turn, write_rotation;

    if (!job) return IK_ERR_NULL;
    if (job->defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    if (!job->joint_ms || (!job->rotation_ls && !job->correction_ls)) return IK_ERR_NULL;
    /* Each of the job's vectors is read where it is first used. */
    origin = simd4_load(job->joint_ms->m + 12);
    old = job->rotation_ls ? simd4_quat(*job->rotation_ls) : simd4_set(0, 0, 0, 1);

    /* The bottom row of joint_ms is the one input no later step reads. */
    m = job->joint_ms->m;
    if (!ik_finite(m[3] + m[7] + m[11] + m[15]) && !inputs_finite(job)) return IK_ERR_NONFINITE;
    if (!(job->weight >= 0 && job->weight <= 1)) return failure(job, IK_ERR_RANGE);
    forward = simd4_vec3_load(&job->forward_ls);
    ff = simd4_dot3(forward, forward);
    if (!(IK_FABS(ff - 1) <= 4 * IK_REAL_EPSILON)) {
        ik_vec3 f = simd4_to_vec3(forward);
        if (!ik_vec3_finite(f)) return IK_ERR_NONFINITE;
        forward = simd4_vec3(unit_or_zero(f));
    }
    up = simd4_vec3_load(&job->up_ls);
    uu = simd4_dot3(up, up);
    qq = simd4_dot4(old, old);
    if ((!(ff > 0) && simd4_is_zero3(forward)) || (!(uu > 0) && simd4_is_zero3(up)) || !(qq > 0) || !ik_finite(qq))
        return failure(job, IK_ERR_DEGENERATE);

    /* A target on the joint's origin (to rounding) gives no direction to aim in. */
    target = simd4_vec3_load(&job->target_ms);
    to_target = simd4_sub(target, origin);
    dd = simd4_dot3(to_target, to_target);
    if (!(dd > 2 * tiny * tiny * simd4_dot3(origin, origin))) {
        if (!inputs_finite(job)) return IK_ERR_NONFINITE;
        if (job->correction_ls) *job->correction_ls = ik_quat_identity();
        if (job->reached) *job->reached = 0;
        return IK_OK;
    }
    if (!joint_frame(m, &k0, &k1, &k2, &g)) return failure(job, IK_ERR_DEGENERATE);

    /* The target in the joint's frame, T = L^-1 d, is kept as t = K d = g T
     * (no division), the pole as P = K p. The point on the ray
     * o + s f (f unit) at the target's distance from the origin: |o + s f| = |T|
     * gives s = -(o.f) + sqrt(disc), disc = |T|^2 - |o_perp|^2, o_perp = o - (o.f) f,
     * so o + s f = o_perp + sqrt(disc) f, a point |T| long. With disc < 0 the
     * target is closer than the ray ever passes; o_perp, the ray's nearest point,
     * is turned toward it, which leaves the least miss |o_perp| - |T|. Reached
     * needs s >= 0: the target ahead of the offset, not between it and the joint.
     * In t's units, g^2 disc = |t|^2 - g^2 |o_perp|^2, and the unit aim direction
     * is x = (g o_perp + sqrt(g^2 disc) f) / |t| (or o_perp / |o_perp| when
     * disc < 0); the target direction is n = t / |t|. */
    pole = simd4_vec3_load(&job->pole_ms);
    offset = simd4_vec3_load(&job->offset_ls);
    t = simd4_combine3(k0, k1, k2, to_target);
    p = simd4_combine3(k0, k1, k2, pole);
    of = simd4_splat(simd4_dot3(offset, forward));
    offset_perp = simd4_sub(offset, simd4_mul(forward, of));
    pp = simd4_dot3(offset_perp, offset_perp);
    tt = simd4_dot3(t, t);
    pole_sq = simd4_dot3(p, p);
    disc = tt - pp * g * g;
    if (!ik_finite(tt + disc + pole_sq)) return failure(job, IK_ERR_DEGENERATE);
    along = IK_SQRT(disc > 0 ? disc : 0);
    reached = disc >= 0 && along >= simd4_x(of) * g;
    inv_len = simd4_rsqrt(simd4_set(tt, pp, 1, 1));
    if (disc >= 0) {
        x_offset = g * simd4_x(inv_len);
        x_forward = along * simd4_x(inv_len);
    } else {
        x_offset = simd4_x(simd4_yyyy(inv_len));
        x_forward = 0;
    }
    x = simd4_add(simd4_mul(offset_perp, simd4_splat(x_offset)), simd4_mul(forward, simd4_splat(x_forward)));
    n = simd4_mul(t, simd4_xxxx(inv_len));

    /* Swing: the minimum rotation from x to n, the half-angle quaternion
     * q1 = (k, 1 + c) with k = x x n, c = x . n, unnormalised (length^2
     * 2 (1 + c)): every later step is indifferent to the length, and the one
     * normalisation comes at the end. Past about 170 degrees (1 + c < 0.02)
     * the axis k is mostly rounding, and ik_quat_from_to builds the swing in
     * two turns. */
    k = simd4_cross3(x, n);
    swing_w = 1 + simd4_dot3(x, n);
    near_half_turn = !(swing_w > (ik_real)0.02);
    q1 = simd4_with_w(k, swing_w);
    q2 = simd4_add(x, n);

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
     * long and cancels nowhere; |a||P'| = sqrt(C^2 + S^2). For a
     * perpendicular to x the minimum rotation R is
     * R a = a - (a . n) / (1 + c) (x + n) (Rodrigues' formula with axis k),
     * so, times 1 + c and with a . n = u . n - (u . x) c,
     * a . P = u . P - (u . x)(x . P), n . (a x P) = n . (u x P) + (u . x)(P . k):
     * C (1 + c) = (1 + c)(a . P) - (a . n)(x . P + n . P),
     * S (1 + c) = (1 + c) n . (a x P) + (a . n)(P . k), dot products only,
     * no rotation. Near a half turn P is turned back by the (unit) swing
     * instead. The roll is skipped when |a||P'| < 64 eps |u||P| (up or pole
     * along the aim line): no flip. */
    if (!near_half_turn) {
        ik_real ux = simd4_dot3(up, x), x_p = simd4_dot3(x, p), p_k = simd4_dot3(p, k);
        ik_real a_n = simd4_dot3(up, n) - ux * (swing_w - 1);
        ik_real a_p = simd4_dot3(up, p) - ux * x_p;
        ik_real n_ap = simd4_dot3(n, simd4_cross3(up, p)) + ux * p_k;
        c = swing_w * a_p - a_n * (x_p + simd4_dot3(n, p));
        s = swing_w * n_ap + a_n * p_k;
        roll_scale = swing_w;
    } else {
        ik_vec3 xv = simd4_to_vec3(x), a = ik_vec3_reject(simd4_to_vec3(up), xv);
        ik_quat swing = ik_quat_from_to(xv, simd4_to_vec3(n));
        ik_vec3 pole_back = ik_quat_rotate(ik_quat_conjugate(swing), simd4_to_vec3(p));
        c = ik_vec3_dot(a, pole_back);
        s = ik_vec3_dot(xv, ik_vec3_cross(a, pole_back));
        q1 = simd4_quat(swing);
        roll_scale = 1;
    }
    cs_sq = c * c + s * s;
    if (!ik_finite(cs_sq)) return failure(job, IK_ERR_DEGENERATE);
    roll_cos = 1;
    roll_sin = 0;
    if (cs_sq > small * small * roll_scale * roll_scale * uu * pole_sq) {
        ik_real root = IK_SQRT(cs_sq), abs_s = IK_FABS(s);
        roll_cos = root + c + abs_s;
        roll_sin = IK_COPYSIGN(root - c + abs_s, s);
    }

    /* Twist: add twist/2 to the roll's half angle, a product of complex
     * numbers (cos, sin) about the same line. Then the swing: with r the
     * roll about x, q1 r = (sin (x + n) + cos k, cos (1 + c)) = cos q1 + sin q2
     * for q1 = (k, 1 + c), q2 = (x + n, 0), as k . x = 0 and k x x = n - c x. */
    if (job->twist != 0) {
        ik_real tc, ts, rc;
        if (!ik_finite(job->twist)) return IK_ERR_NONFINITE; /* the weight's power below would hide its NaN */
        tc = IK_COS(job->twist * (ik_real)0.5);
        ts = IK_SIN(job->twist * (ik_real)0.5);
        rc = roll_cos * tc - roll_sin * ts;
        roll_sin = roll_sin * tc + roll_cos * ts;
        roll_cos = rc;
    }
    if (near_half_turn)
        correction = simd4_quat_mul(q1, simd4_with_w(simd4_mul(x, simd4_splat(roll_sin)), roll_cos));
    else
        correction = simd4_add(simd4_mul(q1, simd4_splat(roll_cos)), simd4_mul(q2, simd4_splat(roll_sin)));

    /* Weight: C^w, the same axis with w times the angle (slerp from the
     * identity). The result keeps the input's hemisphere (w of C made >= 0:
     * it is already, (1 + c) cos with cos = |a||P'| + C + |S| >= 0, unless
     * a twist or the half-turn swing is in C), and the one normalisation
     * happens here. */
    hemisphere = 1;
    if (job->weight <= 0) {
        if (!inputs_finite(job)) return IK_ERR_NONFINITE;
        correction = simd4_set(0, 0, 0, 1);
    } else if (job->weight < 1) {
        correction = simd4_quat(quat_power(ik_quat_positive_w(simd4_to_quat(correction)), job->weight));
    } else if (job->twist != 0 || near_half_turn) {
        hemisphere = IK_COPYSIGN(1, simd4_x(simd4_wwww(correction)));
    }
    /* At full weight, old C = cos (old q1) + sin (old q2): the two products
     * need only the swing, so they run while the roll is worked out. */
    write_rotation = job->rotation_ls && job->weight > 0;
    rotation = old;
    rotation_sq = 1;
    if (write_rotation) {
        if (job->weight == 1 && !near_half_turn)
            rotation = simd4_add(simd4_mul(simd4_quat_mul(old, q1), simd4_splat(roll_cos)),
                                 simd4_mul(simd4_quat_mul(old, q2), simd4_splat(roll_sin)));
        else
            rotation = simd4_quat_mul(old, correction);
        rotation_sq = simd4_dot4(rotation, rotation);
    }
    correction_sq = job->correction_ls ? simd4_dot4(correction, correction) : 1;
    if (!ik_finite(rotation_sq + correction_sq)) return failure(job, IK_ERR_DEGENERATE);
    if (write_rotation)
        *job->rotation_ls = simd4_to_quat(simd4_mul(rotation, simd4_splat(hemisphere / IK_SQRT(rotation_sq))));
    if (job->correction_ls)
        *job->correction_ls = simd4_to_quat(simd4_mul(correction, simd4_splat(hemisphere / IK_SQRT(correction_sq))));
    if (job->reached) *job->reached = reached;
    return IK_OK;
}

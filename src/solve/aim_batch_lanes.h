/* Batch aim, the lane kernel: ik_aim_run's common path (seed 001's
 * QuatAim, as aim.c works it: the aim point on the ray at the target's
 * distance, the minimum swing onto the target, the roll toward the pole
 * by dot products alone), IK_LANES joints per step, one per lane. A lane
 * whose joint leaves that path is marked and solved afterwards by
 * ik_aim_run itself. Included after lanes3.h by aim_batch.c (four lanes)
 * and aim_batch_wide.c (eight AVX lanes); defines aim_lanes_run. */
#ifndef IKIT_AIM_BATCH_LANES_H
#define IKIT_AIM_BATCH_LANES_H

#include <ikit/aim.h>
#include <ikit/aim_batch.h>

#include <stddef.h>

#include "../math/lanes3.h"

/* The ray, shared by every joint: the unit forward f (aim.c normalises it
 * the same way), the offset's part across it o_perp = o - (o . f) f, its
 * part along it o . f, |o_perp|^2 and 1 / |o_perp|, and the up axis with
 * |up|^2. `usable` is 0 for a zero or non-finite axis or offset: every
 * joint then goes to ik_aim_run, which tells which. */
typedef struct shared_ray {
    ik_vec3 forward, offset_perp, up;
    ik_real along, perp_sq, inv_perp, up_sq; /* inv_perp 0 for no o_perp */
    ik_bool usable;
} shared_ray;

static shared_ray shared_ray_make(const ik_aim_batch *job) {
    shared_ray ray;
    ik_real ff = ik_vec3_dot(job->forward_ls, job->forward_ls);
    ray.forward = job->forward_ls;
    if (!(IK_FABS(ff - 1) <= 4 * IK_REAL_EPSILON)) ray.forward = ik_vec3_scale(ray.forward, 1 / IK_SQRT(ff));
    ray.up = job->up_ls;
    ray.up_sq = ik_vec3_dot(ray.up, ray.up);
    ray.along = ik_vec3_dot(job->offset_ls, ray.forward);
    ray.offset_perp = ik_vec3_mad(job->offset_ls, ray.forward, -ray.along);
    ray.perp_sq = ik_vec3_dot(ray.offset_perp, ray.offset_perp);
    ray.inv_perp = ray.perp_sq > 0 ? 1 / IK_SQRT(ray.perp_sq) : 0;
    /* a forward axis too short or long to square is left to aim.c's careful
     * normalisation */
    ray.usable = ff > IK_REAL_EPSILON * IK_REAL_EPSILON && ff <= IK_REAL_MAX && ray.up_sq > 0 &&
                 ik_finite(ray.up_sq + ray.perp_sq + ray.along + ik_vec3_dot(ray.forward, ray.forward));
    return ray;
}

static lanes3 lanes3_splat(ik_vec3 v) { return lanes3_make(lanes_splat(v.x), lanes_splat(v.y), lanes_splat(v.z)); }

/* What one step of IK_LANES joints produces. */
typedef struct aim_results {
    quat_lanes correction;
    lanes reached, solved;
} aim_results;

/* The joint frame (aim.c's joint_frame, similarity case): with L = [c0 c1
 * c2] a rotation or mirror times a uniform scale to rounding (|c_i|^2
 * equal and c_i . c_j = 0 within 16 eps |c0|^2), K = L^T, g = |c0|^2; then
 * the target and pole in the joint's frame times g are t = L^T d, P = L^T p.
 * The aim point on the ray at the target's distance: disc = |t|^2 -
 * g^2 |o_perp|^2, unit aim direction x = (g o_perp + sqrt(disc) f) / |t|
 * (or o_perp / |o_perp| when disc < 0, the ray's nearest point), target
 * direction n = t / |t|. Reached when disc >= 0 and sqrt(disc) >= (o . f) g. */
static void aim_lanes(const ik_aim_batch *job, const shared_ray *ray, int first, aim_results *out) {
    const lanes zero = lanes_splat(0), one = lanes_splat(1);
    const ik_real tiny = 16 * IK_REAL_EPSILON, small = 64 * IK_REAL_EPSILON;
    size_t stride = job->joint_stride ? job->joint_stride : sizeof(ik_mat4);
    const ik_mat4 *joint[IK_LANES];
    const ik_vec3 *target[IK_LANES], *pole[IK_LANES], default_pole = {0, 1, 0};
    lanes3 c0, c1, c2, origin, d, t, p, x, n, k, up = lanes3_splat(ray->up), q2;
    lanes w0, w1, w2, w3, g, spread, dd, tt, pole_sq, disc, along, inv_t, x_offset, x_forward, swing_w, ok;
    lanes ux, x_p, p_k, a_n, a_p, n_ap, c, s, cs_sq, root, abs_s, roll_cos, roll_sin, rolled, correction_sq;
    quat_lanes correction;
    int lane, index[IK_LANES];
    for (lane = 0; lane < IK_LANES; ++lane) {
        /* lanes past the end repeat the last joint; their results are not stored */
        int i = first + lane < job->count ? first + lane : job->count - 1;
        index[lane] = i;
        joint[lane] = lanes3_strided_matrix(job->joint_ms, stride, i);
        target[lane] = &job->target_ms[i];
        pole[lane] = job->pole_ms ? &job->pole_ms[i] : &default_pole;
    }
    c0 = lanes3_matrix_column(joint, 0, &w0);
    c1 = lanes3_matrix_column(joint, 1, &w1);
    c2 = lanes3_matrix_column(joint, 2, &w2);
    origin = lanes3_matrix_column(joint, 3, &w3);
    if (first + IK_LANES < job->count) {
        d = lanes3_load_run(&job->target_ms[first]);
        p = job->pole_ms ? lanes3_load_run(&job->pole_ms[first]) : lanes3_splat(default_pole);
    } else {
        d = lanes3_gather(target);
        p = lanes3_gather(pole);
    }

    /* The lanes of the common path: a finite bottom row (the one input no
     * other step reads), full weight, a similar frame. NaN fails every
     * comparison, so it leaves the path. */
    w0 = lanes_add(lanes_add(w0, w1), lanes_add(w2, w3));
    ok = lanes_le(lanes_sub(w0, w0), zero);
    if (job->weight) {
        lanes weight = lanes_gather(job->weight, index);
        ok = lanes_and(ok, lanes_and(lanes_ge(weight, one), lanes_le(weight, one)));
    }
    g = lanes3_dot(c0, c0);
    spread = lanes_mul(lanes_splat(tiny), g);
    ok = lanes_and(ok, lanes_gt(g, zero));
    ok = lanes_and(ok, lanes_and(lanes_le(lanes_abs(lanes_sub(lanes3_dot(c1, c1), g)), spread),
                                 lanes_le(lanes_abs(lanes_sub(lanes3_dot(c2, c2), g)), spread)));
    ok = lanes_and(ok, lanes_and(lanes_le(lanes_abs(lanes3_dot(c0, c1)), spread),
                                 lanes_and(lanes_le(lanes_abs(lanes3_dot(c1, c2)), spread),
                                           lanes_le(lanes_abs(lanes3_dot(c2, c0)), spread))));

    /* A target on the joint's origin (to rounding) gives no direction. */
    d = lanes3_sub(d, origin);
    dd = lanes3_dot(d, d);
    ok = lanes_and(ok, lanes_gt(dd, lanes_mul(lanes_splat(2 * tiny * tiny), lanes3_dot(origin, origin))));
    t = lanes3_make(lanes3_dot(c0, d), lanes3_dot(c1, d), lanes3_dot(c2, d));
    p = lanes3_make(lanes3_dot(c0, p), lanes3_dot(c1, p), lanes3_dot(c2, p));
    tt = lanes3_dot(t, t);
    pole_sq = lanes3_dot(p, p);
    disc = lanes_sub(tt, lanes_mul(lanes_splat(ray->perp_sq), lanes_mul(g, g)));
    ok = lanes_and(ok, lanes_le(lanes_abs(lanes_add(lanes_add(tt, disc), pole_sq)), lanes_splat(IK_REAL_MAX)));
    along = lanes_sqrt(lanes_max(disc, zero));
    out->reached = lanes_and(lanes_ge(disc, zero), lanes_ge(along, lanes_mul(lanes_splat(ray->along), g)));
    inv_t = lanes_rsqrt(tt);
    x_offset = lanes_select(lanes_ge(disc, zero), lanes_mul(g, inv_t), lanes_splat(ray->inv_perp));
    x_forward = lanes_select(lanes_ge(disc, zero), lanes_mul(along, inv_t), zero);
    x = lanes3_add(lanes3_scale(lanes3_splat(ray->offset_perp), x_offset),
                   lanes3_scale(lanes3_splat(ray->forward), x_forward));
    n = lanes3_scale(t, inv_t);

    /* Swing: q1 = (x x n, 1 + x . n), unnormalised; past about 170 degrees
     * (1 + c <= 0.02) the joint leaves the path. q2 = (x + n, 0). */
    k = lanes3_cross(x, n);
    swing_w = lanes_add(one, lanes3_dot(x, n));
    ok = lanes_and(ok, lanes_gt(swing_w, lanes_splat((ik_real)0.02)));
    q2 = lanes3_add(x, n);

    /* Roll about the target line toward the pole, by dot products (aim.c):
     * with a_n = u . n - (u . x)(c), a_p = u . P - (u . x)(x . P) and
     * n . (a x P) = n . (u x P) + (u . x)(P . k),
     * C (1 + c) = (1 + c) a_p - a_n (x . P + n . P),
     * S (1 + c) = (1 + c) n . (a x P) + a_n (P . k); the half angle lies
     * along (R + C + |S|, sgn(S) (R - C + |S|)), R = sqrt(C^2 + S^2); no
     * roll below 64 eps |u||P| (1 + c). The correction is
     * cos q1 + sin q2, normalised. */
    ux = lanes3_dot(up, x);
    x_p = lanes3_dot(x, p);
    p_k = lanes3_dot(p, k);
    a_n = lanes_sub(lanes3_dot(up, n), lanes_mul(ux, lanes_sub(swing_w, one)));
    a_p = lanes_sub(lanes3_dot(up, p), lanes_mul(ux, x_p));
    n_ap = lanes_add(lanes3_dot(n, lanes3_cross(up, p)), lanes_mul(ux, p_k));
    c = lanes_sub(lanes_mul(swing_w, a_p), lanes_mul(a_n, lanes_add(x_p, lanes3_dot(n, p))));
    s = lanes_add(lanes_mul(swing_w, n_ap), lanes_mul(a_n, p_k));
    cs_sq = lanes_add(lanes_mul(c, c), lanes_mul(s, s));
    ok = lanes_and(ok, lanes_le(cs_sq, lanes_splat(IK_REAL_MAX)));
    rolled = lanes_gt(
        cs_sq, lanes_mul(lanes_mul(lanes_splat(small * small * ray->up_sq), lanes_mul(swing_w, swing_w)), pole_sq));
    root = lanes_sqrt(cs_sq);
    abs_s = lanes_abs(s);
    roll_cos = lanes_select(rolled, lanes_add(lanes_add(root, c), abs_s), one);
    roll_sin = lanes_select(rolled, lanes_copysign(lanes_add(lanes_sub(root, c), abs_s), s), zero);
    correction = quat_lanes_make(lanes3_add(lanes3_scale(k, roll_cos), lanes3_scale(q2, roll_sin)),
                                 lanes_mul(swing_w, roll_cos));
    correction_sq = lanes_add(lanes3_dot(correction.v, correction.v), lanes_mul(correction.w, correction.w));
    ok = lanes_and(ok, lanes_and(lanes_ge(correction_sq, lanes_splat(IK_REAL_MIN)),
                                 lanes_le(correction_sq, lanes_splat(IK_REAL_MAX))));
    correction_sq = lanes_rsqrt(lanes_select(ok, correction_sq, one));
    out->correction =
        quat_lanes_make(lanes3_scale(correction.v, correction_sq), lanes_mul(correction.w, correction_sq));
    out->solved = ray->usable ? ok : zero;
}

/* A joint off the common path: ik_aim_run on it. */
static ik_result aim_one(const ik_aim_batch *job, int i, ik_quat *correction, ik_bool *reached) {
    ik_aim single = ik_aim_def();
    ik_result r;
    single.joint_ms = lanes3_strided_matrix(job->joint_ms, job->joint_stride ? job->joint_stride : sizeof(ik_mat4), i);
    single.target_ms = job->target_ms[i];
    if (job->pole_ms) single.pole_ms = job->pole_ms[i];
    if (job->weight) single.weight = job->weight[i];
    single.forward_ls = job->forward_ls;
    single.up_ls = job->up_ls;
    single.offset_ls = job->offset_ls;
    single.correction_ls = correction;
    single.reached = reached;
    *reached = 0;
    r = ik_aim_run(&single);
    if (r != IK_OK) {
        *correction = ik_quat_identity();
        *reached = 0;
    }
    return r;
}

/* The whole batch, IK_LANES joints a step (the job already validated). */
static ik_result aim_lanes_run(const ik_aim_batch *job) {
    ik_result r, first_failure = IK_OK;
    shared_ray ray;
    int first;
    ray = shared_ray_make(job);
    for (first = 0; first < job->count; first += IK_LANES) {
        aim_results out;
        ik_quat correction[IK_LANES];
        int lane, solved, reached;
        aim_lanes(job, &ray, first, &out);
        solved = lanes_mask_bits(out.solved);
        reached = lanes_mask_bits(out.reached);
        if (first + IK_LANES <= job->count && solved == IK_LANES_ALL) {
            quat_lanes_store(out.correction, &job->correction_ls[first]);
            for (lane = 0; lane < IK_LANES; ++lane) {
                if (job->reached) job->reached[first + lane] = reached >> lane & 1;
                if (job->status) job->status[first + lane] = IK_OK;
            }
            continue;
        }
        quat_lanes_store(out.correction, correction);
        for (lane = 0; lane < IK_LANES && first + lane < job->count; ++lane) {
            int i = first + lane;
            ik_bool lane_reached = reached >> lane & 1;
            r = IK_OK;
            if (!(solved >> lane & 1)) r = aim_one(job, i, &correction[lane], &lane_reached);
            job->correction_ls[i] = correction[lane];
            if (job->reached) job->reached[i] = lane_reached;
            if (job->status) job->status[i] = r;
            if (r != IK_OK && first_failure == IK_OK) first_failure = r;
        }
    }
    return first_failure;
}

#endif

/* Batch two-bone IK, the lane kernel: ik_two_bone_run's common path
 * (seed 000's closed form, as two_bone.c works it: bend by the law of
 * cosines, swing onto the target line, twist toward the pole or the knee's
 * side), IK_LANES limbs per step, one per lane. Each stage below names the
 * two_bone.c function whose formula it repeats lane by lane; a lane whose
 * limb leaves that path is marked and solved afterwards by ik_two_bone_run
 * itself. Included after lanes3.h by two_bone_batch.c (four lanes) and by
 * two_bone_batch_wide.c (eight AVX lanes); defines two_bone_lanes_run. */
#ifndef IKIT_TWO_BONE_BATCH_LANES_H
#define IKIT_TWO_BONE_BATCH_LANES_H

#include <ikit/two_bone.h>
#include <ikit/two_bone_batch.h>

#include <stddef.h>

#include "../math/lanes3.h"
#include "two_bone_sizes.h"

/* One joint's rotation frame in IK_LANES lanes (two_bone.c's joint_frame_make
 * for a similarity): the columns c_i, s = |c_0| and k_w = sgn(det). Its
 * turns are taken to the joint's frame as (C^T v, w k_w s), s times
 * two_bone.c's (k C^T v, w k_w) with k = 1 / s (a positive factor the
 * normalisation removes). `usable` holds where the columns have equal
 * lengths (within 64 eps) and det^2 >= (1 - 128 eps) s^6 (Hadamard's
 * bound, met only by orthogonal columns), with s^6 a normal number. */
typedef struct frame_lanes {
    lanes3 c0, c1, c2;
    lanes scale, k_w, usable;
} frame_lanes;

/* The frame of the lanes' matrices m[i], made in place (a frame is too big
 * to pass around by value). */
static inline void frame_lanes_make(frame_lanes *f, const ik_mat4 *const m[IK_LANES]) {
    lanes l0, l1, l2, spread, det, cube;
    f->c0 = lanes3_matrix_column(m, 0, NULL);
    f->c1 = lanes3_matrix_column(m, 1, NULL);
    f->c2 = lanes3_matrix_column(m, 2, NULL);
    l0 = lanes3_dot(f->c0, f->c0);
    l1 = lanes3_dot(f->c1, f->c1);
    l2 = lanes3_dot(f->c2, f->c2);
    spread = lanes_mul(lanes_splat(64 * IK_REAL_EPSILON), l0);
    f->scale = lanes_sqrt(l0);
    det = lanes3_dot(f->c0, lanes3_cross(f->c1, f->c2));
    cube = lanes_mul(lanes_mul(l0, l0), l0);
    f->k_w = lanes_copysign(lanes_splat(1), det);
    f->usable = lanes_and(
        lanes_and(lanes_ge(cube, lanes_splat(IK_REAL_MIN)), lanes_le(cube, lanes_splat(IK_REAL_MAX))),
        lanes_and(
            lanes_and(lanes_le(lanes_abs(lanes_sub(l1, l0)), spread), lanes_le(lanes_abs(lanes_sub(l2, l0)), spread)),
            lanes_ge(lanes_mul(det, det), lanes_mul(lanes_splat(1 - 128 * IK_REAL_EPSILON), cube))));
}

/* A model-space vector in the joint's frame, times s: C^T v. */
static lanes3 frame_to_local(const frame_lanes *f, lanes3 v) {
    return lanes3_make(lanes3_dot(f->c0, v), lanes3_dot(f->c1, v), lanes3_dot(f->c2, v));
}

/* A model-space turn in the joint's frame, times s: (C^T v, w k_w s)
 * (to_local). */
static quat_lanes quat_lanes_to_local(const frame_lanes *f, quat_lanes q) {
    return quat_lanes_make(frame_to_local(f, q.v), lanes_mul(q.w, lanes_mul(f->k_w, f->scale)));
}

/* IK_LANES limbs' inputs and, per lane, where each came from. */
typedef struct limb_lanes {
    int index[IK_LANES];
    frame_lanes start, mid;
    lanes3 a, b, c, target, pole;
    lanes full_weight;
} limb_lanes;

static void limb_lanes_load(const ik_two_bone_batch *job, int first, limb_lanes *L) {
    size_t stride = job->joint_stride ? job->joint_stride : sizeof(ik_mat4);
    const ik_mat4 *start[IK_LANES], *mid[IK_LANES], *end[IK_LANES];
    const ik_vec3 *target[IK_LANES], *pole[IK_LANES];
    int lane;
    for (lane = 0; lane < IK_LANES; ++lane) {
        /* lanes past the end repeat the last limb; their results are not stored */
        int i = first + lane < job->count ? first + lane : job->count - 1;
        L->index[lane] = i;
        start[lane] = lanes3_strided_matrix(job->start_ms, stride, i);
        mid[lane] = lanes3_strided_matrix(job->mid_ms, stride, i);
        end[lane] = lanes3_strided_matrix(job->end_ms, stride, i);
        target[lane] = &job->target_ms[i];
        pole[lane] = job->pole_ms ? &job->pole_ms[i] : NULL;
    }
#if defined(__GNUC__) || defined(__clang__)
    /* in a batch too big for the caches (beyond about 4,096 limbs), the
     * joints two steps ahead, on their way in (a strided array of poses is
     * too sparse for the hardware prefetcher); smaller ones lose by it. A
     * matrix need not start a cache line: both lines of the start's and
     * the mid's (columns 0-3), the line of the end's column 3. */
    if (job->count > 4096 && first + 3 * IK_LANES <= job->count) {
        for (lane = 0; lane < IK_LANES; ++lane) {
            int ahead = first + 2 * IK_LANES + lane;
            __builtin_prefetch(lanes3_strided_matrix(job->start_ms, stride, ahead));
            __builtin_prefetch(lanes3_strided_matrix(job->start_ms, stride, ahead)->m + 15);
            __builtin_prefetch(lanes3_strided_matrix(job->mid_ms, stride, ahead));
            __builtin_prefetch(lanes3_strided_matrix(job->mid_ms, stride, ahead)->m + 15);
            __builtin_prefetch(lanes3_strided_matrix(job->end_ms, stride, ahead)->m + 12);
        }
    }
#endif
    frame_lanes_make(&L->start, start);
    L->a = lanes3_matrix_column(start, 3, NULL);
    frame_lanes_make(&L->mid, mid);
    L->b = lanes3_matrix_column(mid, 3, NULL);
    L->c = lanes3_matrix_column(end, 3, NULL);
    /* a run of lanes that is not the array's end is read whole */
    if (first + IK_LANES < job->count) {
        L->target = lanes3_load_run(&job->target_ms[first]);
        if (job->pole_ms) L->pole = lanes3_load_run(&job->pole_ms[first]);
    } else {
        L->target = lanes3_gather(target);
        if (job->pole_ms) L->pole = lanes3_gather(pole);
    }
    if (!job->pole_ms) L->pole = L->a;
    if (job->weight) {
        /* a weight of 1 or more is the full solve, as in ik_two_bone_run */
        L->full_weight = lanes_ge(lanes_gather(job->weight, L->index), lanes_splat(1));
    } else {
        L->full_weight = lanes_ge(lanes_splat(1), lanes_splat(0));
    }
}

/* Soft reach, lane by lane (two_bone.c's soften_reach; exp has no lane
 * form): beyond ds = (1 - soften) L the distance eases as
 * ds + (L - ds)(1 - exp(-(D - ds) / (L - ds))). */
static lanes soften_lanes(lanes distance, lanes full, ik_real soften) {
    ik_real dist[IK_LANES], len[IK_LANES];
    int lane;
    lanes_store(dist, distance);
    lanes_store(len, full);
    for (lane = 0; lane < IK_LANES; ++lane) {
        ik_real ds = len[lane] * (1 - soften), span = len[lane] - ds;
        if (dist[lane] > ds && span > 0) dist[lane] = ds + span * (1 - IK_EXP(-(dist[lane] - ds) / span));
    }
    return lanes_load(dist);
}

/* What one step of IK_LANES limbs produces. */
typedef struct limb_results {
    quat_lanes start_correction, mid_correction;
    lanes residual, reached, solved; /* solved: the lane took the common path */
} limb_results;

static void solve_lanes(const ik_two_bone_batch *job, const limb_lanes *L, limb_results *out) {
    const lanes zero = lanes_splat(0), one = lanes_splat(1);
    lanes3 u = lanes3_sub(L->b, L->a), v = lanes3_sub(L->c, L->b), e = lanes3_sub(L->target, L->a);
    lanes3 pole_rel = lanes3_sub(L->pole, L->a), h, end_rel, m, n, k, j, ref, ref_back;
    lanes vv = lanes3_dot(v, v), l1 = lanes_sqrt(lanes3_dot(u, u)), l2 = lanes_sqrt(vv), full = lanes_add(l1, l2);
    lanes dist = lanes_sqrt(lanes3_dot(e, e)), shortest = lanes_abs(lanes_sub(l1, l2)), d, ok;
    lanes len, h_sq, uv, inv_h, inv_len, kc, cos0, sin0, sin1, c, s, bend_w, half_turn;
    lanes end_sq, end_len, reach, inv_reach, lw, w, kk, ref_sq, rr, pole_sq, has_twist, g, root, cos_part, sin_part,
        abs_sin, twist_sin, twist_cos, start_sq, mid_sq, tol, small_turn;
    quat_lanes bend, swing, start_new, mid_new, swing_twist;

    /* The lanes of the common path (ik_two_bone_run's guards): similar
     * frames, a finite limb of usual size and target, a pole near enough,
     * full weight. NaN fails every comparison, so it leaves the path. */
    pole_sq = lanes3_dot(pole_rel, pole_rel);
    ok = lanes_and(lanes_and(L->start.usable, L->mid.usable), L->full_weight);
    ok = lanes_and(ok,
                   lanes_and(lanes_ge(full, lanes_splat(LIMB_SIZE_MIN)), lanes_le(full, lanes_splat(LIMB_SIZE_MAX))));
    ok = lanes_and(ok, lanes_le(lanes_add(full, dist), lanes_splat(IK_REAL_MAX)));
    if (job->pole_ms) ok = lanes_and(ok, lanes_le(pole_sq, lanes_splat(LIMB_SIZE_MAX * LIMB_SIZE_MAX)));

    /* The distance wanted: softened, then clamped to [|l1 - l2|, l1 + l2]. */
    d = job->soften > 0 ? soften_lanes(dist, full, job->soften) : dist;
    d = lanes_max(shortest, lanes_min(d, full));

    /* 1. bend (free_bend_of_bent_limb): k = (d^2 - l1^2 - l2^2) / (2 l1 l2),
     * exactly 1 at full reach and -1 at full fold (reach_cosine); the limb
     * has cos(alpha0) = u . v / (l1 l2), sin(alpha0) = |h| / (l1 l2),
     * h = u x v; the turn delta = alpha1 - alpha0 about h is
     * (h sin(delta) / |h|, 1 + cos(delta)), and the end lands at
     * u (1 - |v|^2 s) + v (c + (u . v) s). A straight or folded limb (|h|
     * within 1e-5 of l1 l2) leaves the path. */
    h = lanes3_cross(u, v);
    len = lanes_mul(l1, l2);
    h_sq = lanes3_dot(h, h);
    uv = lanes3_dot(u, v);
    ok = lanes_and(ok, lanes_gt(h_sq, lanes_mul(lanes_mul(len, len), lanes_splat((ik_real)1e-10))));
    inv_h = lanes_rsqrt(h_sq);
    inv_len = lanes_div(one, len);
    kc = lanes_mul(lanes_sub(lanes_mul(d, d), lanes_add(lanes_mul(l1, l1), lanes_mul(l2, l2))),
                   lanes_mul(lanes_splat((ik_real)0.5), inv_len));
    kc = lanes_max(lanes_splat(-1), lanes_min(kc, one));
    kc = lanes_select(lanes_ge(d, full), one, lanes_select(lanes_le(d, shortest), lanes_splat(-1), kc));
    cos0 = lanes_mul(uv, inv_len);
    sin0 = lanes_mul(lanes_mul(h_sq, inv_h), inv_len);
    sin1 = lanes_sqrt(lanes_max(lanes_sub(one, lanes_mul(kc, kc)), zero));
    c = lanes_add(lanes_mul(kc, cos0), lanes_mul(sin1, sin0));
    s = lanes_mul(lanes_sub(lanes_mul(sin1, cos0), lanes_mul(kc, sin0)), inv_h);
    end_rel =
        lanes3_add(lanes3_scale(u, lanes_sub(one, lanes_mul(vv, s))), lanes3_scale(v, lanes_add(c, lanes_mul(uv, s))));
    bend_w = lanes_add(one, c);
    half_turn = lanes_le(bend_w, lanes_splat((ik_real)1e-7));
    bend = quat_lanes_make(lanes3_scale(h, lanes_select(half_turn, inv_h, s)), lanes_select(half_turn, zero, bend_w));

    /* 2. swing (swing_and_twist): the minimum rotation taking end_rel onto
     * the target line e, (end_rel x e, |end_rel||e| + end_rel . e) / (reach
     * |e|), with |end_rel| one Newton step from reach = d (or |end_rel|
     * itself for a short reach). A target on the start leaves the path.
     * Past about 170 degrees (w <= |end_rel||e| / 64) the cross product is
     * mostly rounding: there, in the groups that have such a lane (about
     * one limb in 130 of bench_batch's random ones), two_bone.c's
     * ik_quat_from_to lane by lane (quat_lanes_from_to). */
    ok = lanes_and(ok, lanes_gt(dist, lanes_mul(lanes_splat(IK_REAL_EPSILON), full)));
    end_sq = lanes3_dot(end_rel, end_rel);
    end_len = lanes_sqrt(end_sq);
    reach = lanes_select(lanes_ge(d, lanes_mul(full, lanes_splat((ik_real)0.25))), d, end_len);
    inv_reach = lanes_div(one, lanes_mul(reach, dist));
    lw = lanes_mul(lanes_add(reach, lanes_mul(lanes_sub(end_sq, lanes_mul(reach, reach)),
                                              lanes_mul(lanes_mul(lanes_splat((ik_real)0.5), inv_reach), dist))),
                   dist);
    w = lanes_add(lw, lanes3_dot(end_rel, e));
    swing = quat_lanes_make(lanes3_scale(lanes3_cross(end_rel, e), inv_reach), lanes_mul(w, inv_reach));
    small_turn = lanes_gt(w, lanes_mul(lw, lanes_splat((ik_real)(1.0 / 64))));
    if (lanes_mask_bits(lanes_and(ok, small_turn)) != lanes_mask_bits(ok)) {
        lanes opposite_usable;
        quat_lanes opposite = quat_lanes_from_to(end_rel, e, &opposite_usable);
        swing = quat_lanes_make(lanes3_select(small_turn, swing.v, opposite.v),
                                lanes_select(small_turn, swing.w, opposite.w));
        small_turn = lanes_or(small_turn, opposite_usable);
    }
    ok = lanes_and(ok, small_turn);

    /* 3. twist about m = end_rel / reach toward the pole (or, without one,
     * or with one on the target line, the knee u): with k = m x h,
     * j = (h . m) m - h, the reference turned back by the swing r,
     * C = k . r, S = j . r and R = |k||r x n| g, the half angle lies along
     * (R + C + |S|, sgn(S) (R - C + |S|)). No twist where k or the
     * reference is within 1e-5 of the line. */
    m = lanes3_scale(end_rel, lanes_mul(inv_reach, dist));
    n = lanes3_scale(e, lanes_div(one, dist));
    k = lanes3_cross(m, h);
    kk = lanes3_dot(k, k);
    j = lanes3_sub(lanes3_scale(m, lanes3_dot(h, m)), h);
    ref = u;
    ref_sq = lanes3_dot(u, u);
    if (job->pole_ms) {
        lanes3 pn = lanes3_cross(pole_rel, n);
        lanes use_pole;
        rr = lanes3_dot(pn, pn);
        use_pole = lanes_gt(rr, lanes_mul(pole_sq, lanes_splat((ik_real)1e-10)));
        ref = lanes3_select(use_pole, pole_rel, u);
        ref_sq = lanes_select(use_pole, pole_sq, ref_sq);
        if (lanes_mask_bits(use_pole) != IK_LANES_ALL) {
            lanes3 un = lanes3_cross(u, n);
            rr = lanes_select(use_pole, rr, lanes3_dot(un, un));
        }
    } else {
        lanes3 un = lanes3_cross(u, n);
        rr = lanes3_dot(un, un);
    }
    has_twist = lanes_and(lanes_gt(kk, lanes_mul(h_sq, lanes_splat((ik_real)1e-10))),
                          lanes_gt(rr, lanes_mul(ref_sq, lanes_splat((ik_real)1e-10))));
    g = lanes_add(lanes3_dot(swing.v, swing.v), lanes_mul(swing.w, swing.w));
    root = lanes_mul(lanes_sqrt(lanes_mul(kk, rr)), g);
    ref_back = quat_lanes_rotate_scaled(quat_lanes_make(lanes3_scale(swing.v, lanes_splat(-1)), swing.w), ref);
    cos_part = lanes3_dot(k, ref_back);
    sin_part = lanes3_dot(j, ref_back);
    abs_sin = lanes_abs(sin_part);
    twist_sin = lanes_select(has_twist, lanes_copysign(lanes_add(lanes_sub(root, cos_part), abs_sin), sin_part), zero);
    twist_cos = lanes_select(has_twist, lanes_add(lanes_add(root, cos_part), abs_sin), one);
    m = lanes3_select(has_twist, m, lanes3_make(zero, zero, zero));

    /* Model-space turns to local corrections, R^T q R (to_local): the
     * start's of swing * twist, the mid's of the bend (the joint frame's
     * conjugation is multiplicative, so this is the single solver's
     * L(swing) L(twist)). Each is normalised; a squared norm outside the
     * normal range leaves the path. */
    swing_twist = quat_lanes_mul(swing, quat_lanes_make(lanes3_scale(m, twist_sin), twist_cos));
    start_new = quat_lanes_to_local(&L->start, swing_twist);
    mid_new = quat_lanes_to_local(&L->mid, bend);
    start_sq = lanes_add(lanes3_dot(start_new.v, start_new.v), lanes_mul(start_new.w, start_new.w));
    mid_sq = lanes_add(lanes3_dot(mid_new.v, mid_new.v), lanes_mul(mid_new.w, mid_new.w));
    ok = lanes_and(
        ok,
        lanes_and(lanes_and(lanes_ge(start_sq, lanes_splat(IK_REAL_MIN)), lanes_le(start_sq, lanes_splat(IK_REAL_MAX))),
                  lanes_and(lanes_ge(mid_sq, lanes_splat(IK_REAL_MIN)), lanes_le(mid_sq, lanes_splat(IK_REAL_MAX)))));
    start_sq = lanes_rsqrt(lanes_select(ok, start_sq, one));
    mid_sq = lanes_rsqrt(lanes_select(ok, mid_sq, one));
    out->start_correction = quat_lanes_make(lanes3_scale(start_new.v, start_sq), lanes_mul(start_new.w, start_sq));
    out->mid_correction = quat_lanes_make(lanes3_scale(mid_new.v, mid_sq), lanes_mul(mid_new.w, mid_sq));

    /* Where the end lands: the swing takes it onto the target line and the
     * twist turns about that line, so it is |end_rel| from the start along
     * it, and the residual is ||end_rel| - |e||. */
    out->residual = lanes_abs(lanes_sub(end_len, dist));
    tol = lanes_max(lanes_mul(lanes_splat(job->reach_tolerance), full), lanes_splat(IK_REAL_EPSILON * 16));
    out->reached = lanes_le(out->residual, tol);
    out->solved = ok;
}

/* A limb off the common path: ik_two_bone_run on it, from identity local
 * rotations, so that what it writes is the corrections. */
static ik_result solve_one(const ik_two_bone_batch *job, int i, size_t stride, ik_quat *start_correction,
                           ik_quat *mid_correction, ik_bool *reached, ik_real *residual) {
    ik_two_bone single = ik_two_bone_def();
    ik_result r;
    *start_correction = *mid_correction = ik_quat_identity();
    single.start_ms = lanes3_strided_matrix(job->start_ms, stride, i);
    single.mid_ms = lanes3_strided_matrix(job->mid_ms, stride, i);
    single.end_ms = lanes3_strided_matrix(job->end_ms, stride, i);
    single.target_ms = job->target_ms[i];
    single.use_pole = job->pole_ms != NULL;
    if (job->pole_ms) single.pole_ms = job->pole_ms[i];
    if (job->weight) single.weight = job->weight[i];
    single.soften = job->soften;
    single.reach_tolerance = job->reach_tolerance;
    single.start_rotation_ls = start_correction;
    single.mid_rotation_ls = mid_correction;
    single.reached = reached;
    single.residual = residual;
    *reached = 0;
    r = ik_two_bone_run(&single);
    if (r != IK_OK) *start_correction = *mid_correction = ik_quat_identity();
    return r;
}

/* A group of limbs that all took the common path: written whole. */
static void store_group(const ik_two_bone_batch *job, int first, const limb_results *out) {
    int reached = lanes_mask_bits(out->reached), lane;
    quat_lanes_store(out->start_correction, &job->start_correction_ls[first]);
    quat_lanes_store(out->mid_correction, &job->mid_correction_ls[first]);
    if (job->residual) lanes_store(&job->residual[first], out->residual);
    for (lane = 0; lane < IK_LANES; ++lane) {
        if (job->reached) job->reached[first + lane] = reached >> lane & 1;
        if (job->status) job->status[first + lane] = IK_OK;
    }
}

/* A group with a limb off the path, or past the end: limb by limb, those
 * off the path through ik_two_bone_run. Returns the first failure. */
static ik_result store_lanes(const ik_two_bone_batch *job, int first, size_t stride, const limb_results *out) {
    ik_quat start[IK_LANES], mid[IK_LANES];
    ik_real residual[IK_LANES];
    int lane, solved = lanes_mask_bits(out->solved), reached = lanes_mask_bits(out->reached);
    ik_result first_failure = IK_OK;
    quat_lanes_store(out->start_correction, start);
    quat_lanes_store(out->mid_correction, mid);
    lanes_store(residual, out->residual);
    for (lane = 0; lane < IK_LANES && first + lane < job->count; ++lane) {
        int i = first + lane;
        ik_bool lane_reached = reached >> lane & 1;
        ik_result lane_result = IK_OK;
        if (!(solved >> lane & 1))
            lane_result = solve_one(job, i, stride, &start[lane], &mid[lane], &lane_reached, &residual[lane]);
        job->start_correction_ls[i] = start[lane];
        job->mid_correction_ls[i] = mid[lane];
        if (job->reached) job->reached[i] = lane_reached;
        if (job->residual && lane_result == IK_OK) job->residual[i] = residual[lane];
        if (job->status) job->status[i] = lane_result;
        if (lane_result != IK_OK && first_failure == IK_OK) first_failure = lane_result;
    }
    return first_failure;
}

/* The whole batch, IK_LANES limbs a step (the job already validated). */
static ik_result two_bone_lanes_run(const ik_two_bone_batch *job) {
    ik_result r, first_failure = IK_OK;
    size_t stride;
    int first;
    stride = job->joint_stride ? job->joint_stride : sizeof(ik_mat4);
    for (first = 0; first < job->count; first += IK_LANES) {
        limb_lanes L;
        limb_results out;
        limb_lanes_load(job, first, &L);
        solve_lanes(job, &L, &out);
        if (first + IK_LANES <= job->count && lanes_mask_bits(out.solved) == IK_LANES_ALL) {
            store_group(job, first, &out);
        } else {
            r = store_lanes(job, first, stride, &out);
            if (first_failure == IK_OK) first_failure = r;
        }
    }
    return first_failure;
}

#endif

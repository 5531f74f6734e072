/* FABRIK on chains and joint trees with several end effectors (Aristidou and
 * Lasenby 2011, "FABRIK: a fast, iterative solver for the inverse kinematics
 * problem"; seed 004). */
#include <ikit/fabrik.h>

#include <stddef.h>

#include "ccd_links.h"

enum {
    FLAG_ACTIVE = 1,   /* an effector lies at or below this link */
    FLAG_EFFECTOR = 2, /* this link has a target */
    FLAG_RIGID = 4     /* constrained joint or sub-base: needs the rotational pass */
};

ik_fabrik ik_fabrik_def(void) {
    ik_fabrik job;
    job.base.defaulted = IK_JOB_DEFAULTED;
    job.base.skeleton = NULL;
    job.joints = NULL;
    job.base.listed_joint_count = 0;
    job.effectors = NULL;
    job.effector_count = 1;
    job.targets_ms = NULL;
    job.target_rotations_ms = NULL;
    job.importances = NULL;
    job.base.constraints = NULL;
    job.base.root_ms = NULL;
    job.tolerance = (ik_real)1e-3;
    job.max_iterations = 1000;
    job.base.pose_ls = NULL;
    job.base.scratch = NULL;
    job.base.scratch_bytes = 0;
    job.base.error_field = NULL;
    job.iterations = NULL;
    job.error = NULL;
    return job;
}

static int effector_link(const ik_fabrik *job, int i) {
    return job->effectors ? job->effectors[i] : job->base.listed_joint_count - 1;
}

static ik_real effector_importance(const ik_fabrik *job, int i) { return job->importances ? job->importances[i] : 1; }

size_t ik_fabrik_scratch_size(int joint_count) { return ik_chain_scratch_bytes(joint_count); }

static ik_result validate(const ik_fabrik *job) {
    ik_error *error;
    int i;
    ik_result r;
    if (!job) return IK_ERR_NULL;
    if (job->base.defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    error = job->base.error_field;
    ik_field_fail(error, IK_OK, NULL, -1);
    if (!job->targets_ms) return ik_field_fail(error, IK_ERR_NULL, "targets_ms", -1);
    r = ik_chain_validate_base(&job->base, job->joints, 0);
    if (r != IK_OK) return r;
    if (job->effector_count < 1 || (!job->effectors && job->effector_count != 1))
        return ik_field_fail(error, IK_ERR_RANGE, "effector_count", -1);
    if (!ik_finite(job->tolerance)) return ik_field_fail(error, IK_ERR_NONFINITE, "tolerance", -1);
    if (job->tolerance < 0) return ik_field_fail(error, IK_ERR_RANGE, "tolerance", -1);
    if (job->max_iterations < 0) return ik_field_fail(error, IK_ERR_RANGE, "max_iterations", -1);
    for (i = 0; i < job->effector_count; ++i) {
        int e = effector_link(job, i);
        if (e < 0 || e >= job->base.listed_joint_count) return ik_field_fail(error, IK_ERR_RANGE, "effectors", i);
        if (!ik_vec3_finite(job->targets_ms[i])) return ik_field_fail(error, IK_ERR_NONFINITE, "targets_ms", i);
        if (job->importances && !ik_finite(job->importances[i]))
            return ik_field_fail(error, IK_ERR_NONFINITE, "importances", i);
        if (job->importances && !(job->importances[i] > 0)) return ik_field_fail(error, IK_ERR_RANGE, "importances", i);
        if (job->target_rotations_ms) {
            if (!ik_quat_finite(job->target_rotations_ms[i]))
                return ik_field_fail(error, IK_ERR_NONFINITE, "target_rotations_ms", i);
            if (!(ik_quat_length(job->target_rotations_ms[i]) > 0))
                return ik_field_fail(error, IK_ERR_DEGENERATE, "target_rotations_ms", i);
        }
    }
    return ik_chain_validate_inputs(job->base.skeleton, job->joints, job->base.listed_joint_count,
                                    job->base.constraints, job->base.root_ms, job->base.pose_ls, error);
}

/* Flags, targets and branch weights: an effector's target is the weighted
 * mean of the targets given for it (coincident effectors); a link's branch
 * weight is the sum of the effector importances at or below it. Returns 1 when
 * the rotational forward pass is needed (constraints or sub-bases). */
static ik_bool prepare(const ik_fabrik *job, ik_chain_link *links) {
    int n = job->base.listed_joint_count, i, k;
    ik_bool rigid = 0;
    for (i = 0; i < job->effector_count; ++i) {
        ik_chain_link *l = &links[effector_link(job, i)];
        ik_real w = effector_importance(job, i);
        l->flags |= FLAG_EFFECTOR | FLAG_ACTIVE;
        l->target_ms = ik_vec3_mad(l->target_ms, job->targets_ms[i], w);
        l->work_weight += w;
    }
    for (k = n - 1; k >= 0; --k) {
        ik_chain_link *l = &links[k];
        if (l->flags & FLAG_EFFECTOR) {
            l->target_ms = ik_vec3_scale(l->target_ms, 1 / l->work_weight);
            l->branch_weight += l->work_weight;
        }
        l->work_weight = 0;
        if ((l->flags & FLAG_ACTIVE) && l->parent >= 0) {
            ik_chain_link *up = &links[l->parent];
            if (up->branch_weight > 0) up->flags |= FLAG_RIGID; /* second active branch */
            up->flags |= FLAG_ACTIVE;
            up->branch_weight += l->branch_weight;
        }
        if (job->base.constraints && job->base.constraints[k].type != IK_CONSTRAINT_NONE) l->flags |= FLAG_RIGID;
        if (l->flags & FLAG_RIGID) rigid = 1;
    }
    return rigid;
}

/* The link's current bone direction in model space (unit), for degenerate
 * cases where two joints coincide. */
static ik_vec3 bone_direction_ms(const ik_chain_link *links, int k) {
    const ik_chain_link *l = &links[k];
    ik_vec3 d = ik_quat_rotate(links[l->parent].model_ms.rotation, l->offset_ls);
    return ik_vec3_normalize_or(d, ik_v3(1, 0, 0));
}

/* Unit direction from `from` to `to`; where they coincide, link k's bone
 * direction times `sign`. */
static ik_vec3 direction_or_bone(ik_vec3 from, ik_vec3 to, const ik_chain_link *links, int k, ik_real sign) {
    ik_vec3 d = ik_vec3_sub(to, from);
    ik_real len_sq = ik_vec3_dot(d, d);
    if (!(len_sq > IK_REAL_EPSILON * IK_REAL_EPSILON * ik_vec3_dot(from, from)) || !(len_sq > 0))
        return ik_vec3_scale(bone_direction_ms(links, k), sign);
    return ik_vec3_scale(d, 1 / IK_SQRT(len_sq));
}

/* 1 when link k is the only active child of its link parent. */
static ik_bool only_active_child(const ik_chain_link *links, int k) {
    int c;
    for (c = links[links[k].parent].first_child; c >= 0; c = links[c].next_sibling)
        if (c != k && (links[c].flags & FLAG_ACTIVE)) return 0;
    return 1;
}

/* The constraint of link k applied from the child's side (Aristidou and
 * Lasenby 2011 apply limits in both passes; in the backward pass the chain
 * is walked in reverse, so the child's frame is fixed and the parent's
 * adapts). The parent first turns by the minimum rotation taking its bone
 * onto the line to the child's placed position p, Q_up = from_to(Q_up o_k,
 * p - q) Q_up, q its unconstrained placement. Then with the child's frame
 * Q_k (set when the child was placed from its own child), R = (Q_up B_k)^-1
 * Q_k is projected, R' = constrain(R), and the parent takes the frame that
 * makes R' exact, Q_up = Q_k R'^-1 B_k^-1, which moves its placement to
 * q = p - Q_up o_k. Returns q. */
static ik_vec3 place_parent_constrained(ik_chain_link *links, int k, ik_vec3 p, ik_vec3 q,
                                        const ik_constraint *constraint) {
    ik_chain_link *l = &links[k], *up = &links[l->parent];
    ik_quat up_ms = ik_quat_normalize(
        ik_quat_mul(ik_quat_from_to(ik_quat_rotate(up->model_ms.rotation, l->offset_ls), ik_vec3_sub(p, q)),
                    up->model_ms.rotation));
    if (l->first_child >= 0 && constraint->type != IK_CONSTRAINT_NONE) {
        ik_quat frame = ik_quat_mul(up_ms, l->between_ls);
        ik_quat allowed = ik_constraint_apply(constraint, ik_quat_mul(ik_quat_conjugate(frame), l->model_ms.rotation));
        up_ms = ik_quat_normalize(ik_quat_mul(ik_quat_mul(l->model_ms.rotation, ik_quat_conjugate(allowed)),
                                              ik_quat_conjugate(l->between_ls)));
        q = ik_vec3_sub(p, ik_quat_rotate(up_ms, l->offset_ls));
    }
    up->model_ms.rotation = up_ms;
    return q;
}

/* Backward pass: p_e = target; p_parent = centroid over its active children
 * c of p_c + l_c (p_parent - p_c) / |p_parent - p_c|, weighted by branch
 * weight (Aristidou and Lasenby 2011, sections 4 and 5.1). With
 * constraints, a parent with one active child is placed by
 * place_parent_constrained. */
static void backward_pass(ik_chain_link *links, int n, const ik_constraint *constraints) {
    int k;
    for (k = n - 1; k >= 1; --k) {
        ik_chain_link *l = &links[k];
        ik_chain_link *up;
        ik_vec3 p, toward, q;
        if (!(l->flags & FLAG_ACTIVE)) continue;
        p = (l->flags & FLAG_EFFECTOR) ? l->target_ms : ik_vec3_scale(l->work_ms, 1 / l->work_weight);
        l->model_ms.translation = p;
        l->work_ms = ik_vec3_zero();
        l->work_weight = 0;
        up = &links[l->parent];
        toward = direction_or_bone(p, up->model_ms.translation, links, k, -1);
        q = ik_vec3_mad(p, toward, l->length);
        if (constraints && only_active_child(links, k)) q = place_parent_constrained(links, k, p, q, &constraints[k]);
        up->work_ms = ik_vec3_mad(up->work_ms, q, l->branch_weight);
        up->work_weight += l->branch_weight;
    }
    links[0].work_ms = ik_vec3_zero();
    links[0].work_weight = 0;
}

/* Forward pass on positions: p_c = p_parent + l_c (p_c - p_parent) / |p_c - p_parent|
 * (Aristidou and Lasenby 2011, algorithm 1, stage 2). */
static void forward_pass_positions(ik_chain_link *links, int n, ik_vec3 base_ms) {
    int k;
    links[0].model_ms.translation = base_ms;
    for (k = 1; k < n; ++k) {
        ik_chain_link *l = &links[k];
        ik_vec3 from, d;
        if (!(l->flags & FLAG_ACTIVE)) continue;
        from = links[l->parent].model_ms.translation;
        d = direction_or_bone(from, l->model_ms.translation, links, k, 1);
        l->model_ms.translation = ik_vec3_mad(from, d, l->length);
    }
}

/* Forward pass on rotations. Each joint, from the base out, turns by the
 * minimum rotation taking its bone (parent frame: R o_c) onto the direction
 * to where the backward pass put the child (parent frame: P^-1 (p_c - p)),
 * R' = from_to(R o_c, P^-1 (p_c - p)) R; with several active children the
 * per-child rotations are averaged (normalised weighted sum). The constraint
 * then projects R', and every child is placed rigidly: p_c = p + P R' o_c. */
static void forward_pass_rotations(ik_chain_link *links, int n, ik_vec3 base_ms, const ik_constraint *constraints) {
    int k, c;
    links[0].model_ms.translation = base_ms;
    for (k = 0; k < n; ++k) {
        ik_chain_link *l = &links[k];
        ik_quat parent_rot = ik_chain_parent_rotation_ms(links, k);
        ik_quat rot = l->rotation_ls;
        if (l->parent >= 0) {
            const ik_transform *up = &links[l->parent].model_ms;
            l->model_ms.translation = ik_vec3_add(up->translation, ik_quat_rotate(up->rotation, l->offset_ls));
        }
        if (l->flags & FLAG_ACTIVE) {
            ik_quat inv_parent = ik_quat_conjugate(parent_rot);
            ik_quat sum = ik_q(0, 0, 0, 0);
            int turned = 0;
            for (c = l->first_child; c >= 0; c = links[c].next_sibling) {
                const ik_chain_link *child = &links[c];
                ik_vec3 bone, wanted;
                ik_quat turn;
                if (!(child->flags & FLAG_ACTIVE) || !(child->length > 0)) continue;
                bone = ik_quat_rotate(rot, child->offset_ls);
                wanted = ik_quat_rotate(inv_parent, ik_vec3_sub(child->model_ms.translation, l->model_ms.translation));
                turn = ik_quat_from_to(bone, wanted);
                sum.x += turn.x * child->branch_weight;
                sum.y += turn.y * child->branch_weight;
                sum.z += turn.z * child->branch_weight;
                sum.w += turn.w * child->branch_weight;
                turned = 1;
            }
            if (turned) rot = ik_quat_normalize(ik_quat_mul(ik_quat_normalize(sum), rot));
        }
        if (constraints) rot = ik_constraint_apply(&constraints[k], rot);
        l->rotation_ls = rot;
        l->model_ms.rotation = ik_quat_normalize(ik_quat_mul(parent_rot, rot));
    }
}

static ik_real largest_error(const ik_fabrik *job, const ik_chain_link *links) {
    ik_real worst = 0;
    int i;
    for (i = 0; i < job->effector_count; ++i) {
        ik_real d = ik_vec3_distance(links[effector_link(job, i)].model_ms.translation, job->targets_ms[i]);
        if (d > worst) worst = d;
    }
    return worst;
}

/* An effector's target rotation: R = P^-1 Q_target, then its constraint. */
static void apply_target_rotations(const ik_fabrik *job, ik_chain_link *links) {
    int i;
    if (!job->target_rotations_ms) return;
    for (i = 0; i < job->effector_count; ++i) {
        int k = effector_link(job, i);
        ik_quat parent_rot = ik_chain_parent_rotation_ms(links, k);
        ik_quat rot = ik_quat_mul(ik_quat_conjugate(parent_rot), ik_quat_normalize(job->target_rotations_ms[i]));
        if (job->base.constraints) rot = ik_constraint_apply(&job->base.constraints[k], rot);
        links[k].rotation_ls = ik_quat_normalize(rot);
        links[k].model_ms.rotation = ik_quat_normalize(ik_quat_mul(parent_rot, links[k].rotation_ls));
    }
}

/* A chain with one effector at its end: each listed joint's link parent is
 * the joint before it. Without limits it takes the positions-only solver
 * (solve_plain_chain); with some, FABRIK's passes hand over to CCD sweeps
 * (finish_with_ccd). */
static ik_bool is_single_chain(const ik_fabrik *job, const ik_chain_link *links) {
    int k, n = job->base.listed_joint_count;
    if (job->effector_count != 1 || effector_link(job, 0) != n - 1) return 0;
    for (k = 1; k < n; ++k)
        if (links[k].parent != k - 1) return 0;
    return 1;
}

/* The end-game on a limited chain that FABRIK's passes left short of its
 * target: with limits, FABRIK stalls or crawls where the projections of the
 * two passes pull against each other (an elbow hinge at its stop, a twist
 * range that holds the bend plane), often far from the target. It hands
 * over once an iteration gains less than HANDOVER_FRACTION of the error
 * (on the humanoid arm of tests/support/limited_chains.h, FABRIK alone
 * meets 31% of the targets even with 200 iterations). CCD then sweeps from
 * that pose, with restarts inside the limits (ccd_links.h), for the
 * iterations left; each sweep counts as an iteration. Returns the sweeps. */
#define HANDOVER_FRACTION ((ik_real)0.02)

static int finish_with_ccd(const ik_fabrik *job, ik_chain_link *links, int used) {
    ik_ccd_links sweeps;
    int it = 0;
    sweeps.links = links;
    sweeps.count = job->base.listed_joint_count;
    sweeps.joints = job->joints;
    sweeps.pose_ls = job->base.pose_ls;
    sweeps.target_ms = job->targets_ms[0];
    sweeps.constraints = job->base.constraints;
    sweeps.max_step_angle = IK_PI;
    sweeps.tolerance = job->tolerance;
    sweeps.max_sweeps = job->max_iterations - used;
    ik_ccd_links_solve(&sweeps, &it);
    return it;
}

/* ---- plain chains ----------------------------------------------------------- */

/* The step from a joint to its neighbour placed at distance `length`
 * towards where that neighbour was: length d / |d|, d = neighbour - joint.
 * It is computed as (d (length / |d|^2)) sqrt(|d|^2), so the square root
 * runs beside the division and its product, instead of one after the other
 * (this is the solver's critical path). Where the two (nearly) coincide
 * (|d|^2 <= tiny_sq), `fallback` (unit) gives the direction. */
static ik_vec3 bone_step(ik_vec3 d, ik_real length, ik_vec3 fallback, ik_real tiny_sq) {
    ik_real len_sq = ik_vec3_dot(d, d);
    if (!(len_sq > tiny_sq)) return ik_vec3_scale(fallback, length);
    return ik_vec3_scale(ik_vec3_scale(d, length / len_sq), IK_SQRT(len_sq));
}

/* The end-game for targets near full extension, where FABRIK is slowest
 * (on 10 unit bones, from a straight or a bent start, targets beyond 0.9 L
 * take 42 iterations on average and 1 in 8 stalls short): near full
 * extension every solution is nearly straight, and FABRIK's error falls
 * there by a factor near 1 per iteration. The chain is bent into a plane
 * arc that spans the target instead, every joint turning by the same
 * angle phi, in the plane of the target line u and the side w the chain's
 * joints bulge to (so the arc bulges the same way). In that plane's
 * complex coordinate (u real, w imaginary) bone k points along c z^(k-1),
 * z = e^(i phi), and the end sits at c S(phi), S(phi) = sum_k l_k z^(k-1).
 * |S| falls from L at phi = 0; f(phi) = |S|^2 - D^2 is solved by Newton's
 * method, f' = -2 Im(conj(S) C) with C = sum_k (k - 1) l_k z^(k-1), kept
 * inside a bisection bracket on [0, 2 pi / m] for m bones (|S| = 0 there
 * for equal bones; for unequal bones the bracket doubles up to pi, and
 * where even pi leaves |S| > D the chain is left as it is), from the guess
 * of the small-angle expansion for equal bones, |S| / L = 1 - (m^2 - 1)
 * phi^2 / 24. Then c = conj(S) / |S| turns S onto the target line, and the
 * bulge lies on the chord's right, -w. Newton stops with the arc's end
 * ||S| - D| < tolerance / 20 from t (or after 40 steps); the iterations
 * remove whatever is left. Joint k of the arc sits at
 * p_0 + sum_{j <= k} l_j (Re(c z^(j-1)) u + Im(c z^(j-1)) w). */
static ik_real arc_span(const ik_chain_link *links, int bones, ik_real phi, ik_real *sx, ik_real *sy, ik_real *df) {
    ik_real zr = 1, zi = 0, rr = IK_COS(phi), ri = IK_SIN(phi), cx = 0, cy = 0;
    int k;
    *sx = *sy = 0;
    for (k = 1; k <= bones; ++k) {
        ik_real l = links[k].length, t;
        *sx += l * zr;
        *sy += l * zi;
        cx += (ik_real)(k - 1) * l * zr;
        cy += (ik_real)(k - 1) * l * zi;
        t = zr * rr - zi * ri;
        zi = zr * ri + zi * rr;
        zr = t;
    }
    *df = -2 * (*sx * cy - *sy * cx);
    return *sx * *sx + *sy * *sy;
}

/* The arc is used for targets from ARC_FROM of the chain's length: at once
 * when every bone points within asin(STRAIGHT_SIN) (about 0.1 degree) of
 * the first (a straight chain, FABRIK's worst start), otherwise once an
 * iteration leaves more than ARC_CRAWL of the error it started with. The
 * directions are unit only to rounding, hence the sine test
 * |a x b|^2 <= s^2 |a|^2 |b|^2 with a . b > 0. */
#define ARC_FROM ((ik_real)0.8)
#define ARC_CRAWL ((ik_real)0.5)
#define STRAIGHT_SIN ((ik_real)2e-3)

/* A chain that is not straight takes the arc only where no joint moves by
 * more than ARC_MOVE_BUDGET times the end's distance to its target at the
 * start of the solve: a pose warm-started from the previous frame of a
 * moving target already nearly reaches, and replacing it by the arc would
 * make its joints jump (a pop) where FABRIK moves them smoothly (by a small
 * multiple of the target's step); a pose far from its target moves that
 * far anyway. */
#define ARC_MOVE_BUDGET ((ik_real)10)

static ik_bool is_parallel(ik_vec3 a, ik_vec3 b) {
    return ik_vec3_dot(a, b) > 0 && ik_vec3_length_sq(ik_vec3_cross(a, b)) <=
                                        STRAIGHT_SIN * STRAIGHT_SIN * ik_vec3_length_sq(a) * ik_vec3_length_sq(b);
}

/* Walks the arc's joints out from the base (c = zr + i zi, z = e^(i phi)):
 * returns the largest squared distance of a joint from where it is, and
 * with `place` moves the joints onto the arc. */
static ik_real walk_arc(ik_chain_link *links, int bones, ik_vec3 base, ik_vec3 u, ik_vec3 w, ik_real zr, ik_real zi,
                        ik_real phi, ik_bool place) {
    ik_real rr = IK_COS(phi), ri = IK_SIN(phi), worst_sq = 0;
    ik_vec3 p = base;
    int k;
    for (k = 1; k <= bones; ++k) {
        ik_real t = zr * rr - zi * ri;
        p = ik_vec3_mad(p, ik_vec3_add(ik_vec3_scale(u, zr), ik_vec3_scale(w, zi)), links[k].length);
        worst_sq = ik_maxr(worst_sq, ik_vec3_length_sq(ik_vec3_sub(p, links[k].model_ms.translation)));
        if (place) links[k].model_ms.translation = p;
        zi = zr * ri + zi * rr;
        zr = t;
    }
    return worst_sq;
}

/* Bends the chain into the arc (see above) unless that would move a joint
 * farther than max_move (IK_REAL_MAX: no limit, nothing measured); returns
 * 1 when it did. */
static ik_bool bend_into_arc(ik_chain_link *links, int n, ik_vec3 base, ik_vec3 to_target, ik_real reach,
                             ik_real tolerance, ik_real max_move) {
    const int bones = n - 1;
    const ik_vec3 u = ik_vec3_scale(to_target, 1 / reach);
    ik_vec3 bulge = ik_vec3_zero(), w;
    ik_real total_length = 0, lo = 0, hi = 2 * IK_PI / (ik_real)bones, phi, sx, sy, df, f, s_len, zr, zi;
    int k, step;
    for (k = 1; k <= bones; ++k) {
        total_length += links[k].length;
        bulge = ik_vec3_add(bulge, ik_vec3_reject(ik_vec3_sub(links[k].model_ms.translation, base), u));
    }
    /* w = -(bulge side), so that the arc bulges where the chain does */
    w = ik_vec3_length_sq(bulge) > (ik_real)1e-6 * total_length * total_length ? ik_vec3_normalize(ik_vec3_neg(bulge))
                                                                               : ik_vec3_any_perpendicular(u);
    /* unequal bones may need more turn than 2 pi / bones: widen up to pi */
    while (arc_span(links, bones, hi, &sx, &sy, &df) > reach * reach) {
        if (hi >= IK_PI) return 0;
        lo = hi;
        hi = ik_minr(2 * hi, IK_PI);
    }
    phi = ik_clampr(IK_SQRT(24 * (1 - reach / total_length) / (ik_real)(bones * bones - 1)), lo, hi);
    for (step = 0;; ++step) {
        ik_real next;
        f = arc_span(links, bones, phi, &sx, &sy, &df) - reach * reach;
        if (IK_FABS(f) <= (ik_real)0.1 * tolerance * reach || step == 40) break;
        if (f > 0)
            lo = phi;
        else
            hi = phi;
        next = df < 0 ? phi - f / df : lo - 1;
        phi = next > lo && next < hi ? next : (lo + hi) / 2;
    }
    s_len = IK_SQRT(sx * sx + sy * sy);
    if (!(s_len > 0)) return 0;
    zr = sx / s_len;
    zi = -sy / s_len;
    if (max_move < IK_REAL_MAX && !(walk_arc(links, bones, base, u, w, zr, zi, phi, 0) <= max_move * max_move))
        return 0;
    walk_arc(links, bones, base, u, w, zr, zi, phi, 1);
    return 1;
}

/* Aristidou and Lasenby 2011, algorithm 1, on positions only. work_ms holds
 * each bone's unit direction at the start (the fallback for coincident
 * joints); link k's length is that of the bone from k - 1 to k.
 *   unreachable (|t - p_0| >= sum of lengths): the chain is laid straight
 *     towards t in one pass, p_k = p_{k-1} + l_k (t - p_0) / |t - p_0|;
 *   otherwise iterate: backward, p_e = t, p_k = p_{k+1} + l_{k+1} unit(p_k - p_{k+1})
 *     for k > 0 (the base's backward position is never used);
 *     forward, p_0 = base, p_k = p_{k-1} + l_k unit(p_k - p_{k-1}),
 *     until |p_e - t| <= tolerance, the error improves by less than
 *     tolerance / 1000 in an iteration, or max_iterations.
 *   After the backward pass the chain has exact lengths and its end on t;
 *   where the base would land s = base - p_0 with |s| <= tolerance, the
 *   chain shifted by s is already a solution (base in place, end |s| from
 *   t), so the forward pass is skipped. p_0 is off the critical path: the
 *   forward pass does not use it.
 * Each pass carries the joint just placed, p, and the vector d from it to
 * the next joint's old position in registers; with s the step to the next
 * joint, that joint lands at p + s and the vector after it is
 * (old - p) - s, where old - p was formed while s was being computed, so
 * one subtraction after s replaces an addition and a subtraction. */
static int solve_chain_positions(const ik_fabrik *job, ik_chain_link *links, ik_real total_length, ik_bool straight) {
    const int n = job->base.listed_joint_count;
    const ik_vec3 target = job->targets_ms[0], base = links[0].model_ms.translation;
    const ik_real tolerance_sq = job->tolerance * job->tolerance;
    ik_vec3 to_target = ik_vec3_sub(target, base);
    ik_real reach_sq = ik_vec3_dot(to_target, to_target);
    ik_real scale = IK_SQRT(ik_vec3_dot(base, base)) + total_length + IK_SQRT(reach_sq);
    ik_real tiny_sq = scale * scale * IK_REAL_EPSILON * IK_REAL_EPSILON;
    ik_real err_sq, err, previous, move_budget;
    ik_bool near;
    int k, it = 0;
    err_sq = ik_vec3_length_sq(ik_vec3_sub(links[n - 1].model_ms.translation, target));
    if (!(err_sq > tolerance_sq) || job->max_iterations == 0 || n < 2) return 0;
    if (reach_sq >= total_length * total_length) {
        ik_vec3 u = ik_vec3_scale(to_target, 1 / IK_SQRT(reach_sq));
        for (k = 1; k < n; ++k)
            links[k].model_ms.translation = ik_vec3_mad(links[k - 1].model_ms.translation, u, links[k].length);
        return 1;
    }
    near = n > 2 && reach_sq >= ARC_FROM * ARC_FROM * total_length * total_length;
    if (straight && near) {
        near = 0;
        bend_into_arc(links, n, base, to_target, IK_SQRT(reach_sq), job->tolerance, IK_REAL_MAX);
        err_sq = ik_vec3_length_sq(ik_vec3_sub(links[n - 1].model_ms.translation, target));
        if (!(err_sq > tolerance_sq) || job->max_iterations == 1) return 1;
        ++it;
    }
    err = IK_SQRT(err_sq);
    move_budget = ARC_MOVE_BUDGET * err;
    do {
        ik_vec3 p = target, d = ik_vec3_sub(links[n - 2].model_ms.translation, target), s, shift;
        previous = err;
        ++it;
        links[n - 1].model_ms.translation = target;
        for (k = n - 2; k >= 0; --k) {
            ik_vec3 ahead = ik_vec3_sub(links[k > 0 ? k - 1 : 0].model_ms.translation, p);
            s = bone_step(d, links[k + 1].length, ik_vec3_neg(links[k + 1].work_ms), tiny_sq);
            p = ik_vec3_add(p, s);
            if (k > 0) links[k].model_ms.translation = p;
            d = ik_vec3_sub(ahead, s);
        }
        shift = ik_vec3_sub(base, p);
        if (!(ik_vec3_dot(shift, shift) > tolerance_sq)) {
            for (k = 1; k < n; ++k) links[k].model_ms.translation = ik_vec3_add(links[k].model_ms.translation, shift);
            break;
        }
        p = base;
        d = ik_vec3_sub(links[1].model_ms.translation, base);
        for (k = 1; k < n; ++k) {
            ik_vec3 ahead = ik_vec3_sub(links[k < n - 1 ? k + 1 : k].model_ms.translation, p);
            s = bone_step(d, links[k].length, links[k].work_ms, tiny_sq);
            p = ik_vec3_add(p, s);
            links[k].model_ms.translation = p;
            d = ik_vec3_sub(ahead, s);
        }
        err_sq = ik_vec3_length_sq(ik_vec3_sub(p, target));
        if (!(err_sq > tolerance_sq)) break;
        err = IK_SQRT(err_sq);
        if (near && err > ARC_CRAWL * previous && it < job->max_iterations) {
            near = 0;
            if (bend_into_arc(links, n, base, to_target, IK_SQRT(reach_sq), job->tolerance, move_budget)) {
                ++it;
                err_sq = ik_vec3_length_sq(ik_vec3_sub(links[n - 1].model_ms.translation, target));
                if (!(err_sq > tolerance_sq)) break;
                err = IK_SQRT(err_sq);
            }
        }
    } while (it < job->max_iterations && previous - err >= job->tolerance * (ik_real)1e-3);
    return it;
}

static ik_bool is_identity(ik_quat q) { return q.x == 0 && q.y == 0 && q.z == 0 && q.w == 1; }

/* Rotations from the solved positions, base outwards, each joint turning by
 * the minimum rotation in its parent's new frame, as the rotational forward
 * pass does. With D_k the model-space turn of joint k's frame (D_{-1} =
 * identity) and b_k = l u_k its bone at the start: a = D_{k-1} b_k is the
 * bone after its parent turned, the joint's turn is
 * T_k = from_to(a, p_{k+1} - p_k), D_k = T_k D_{k-1}, Q'_k = D_k Q_k and
 * R'_k = (Q'_{k-1} between_k)^-1 Q'_k. |a| = l, so |a| |p_{k+1} - p_k| needs
 * no value from the D chain, and D is brought back to unit length beside
 * the rotation of b (a product of two unit quaternions is unit to rounding,
 * which only scales a, a direction here). Q'_k is normalised (Q_k comes
 * from the caller's pose); the parent frame is unit, so R'_k only needs the
 * renormalising step, and a between rotation that is the identity (the
 * listed parent is the skeleton parent) is not multiplied in. The end joint
 * keeps its local rotation (or takes its target rotation). */
static void write_chain_rotations(const ik_fabrik *job, ik_chain_link *links) {
    const int n = job->base.listed_joint_count;
    ik_quat turn_ms = ik_quat_identity(), parent_ms = ik_quat_normalize(links[0].between_ls);
    int k;
    for (k = 0; k < n; ++k) {
        ik_chain_link *l = &links[k];
        ik_quat model_ms;
        if (k > 0 && !is_identity(l->between_ls)) parent_ms = ik_quat_normalize(ik_quat_mul(parent_ms, l->between_ls));
        if (k < n - 1) {
            const ik_chain_link *child = &links[k + 1];
            ik_vec3 wanted = ik_vec3_sub(child->model_ms.translation, l->model_ms.translation);
            ik_real m = child->length * IK_SQRT(ik_vec3_dot(wanted, wanted));
            ik_vec3 bone = ik_quat_rotate(turn_ms, ik_vec3_scale(child->work_ms, child->length));
            turn_ms = ik_quat_turn_between(bone, wanted, m, ik_quat_renormalize(turn_ms));
            model_ms = ik_quat_normalize(ik_quat_mul(turn_ms, l->model_ms.rotation));
            l->rotation_ls = ik_quat_renormalize(ik_quat_mul(ik_quat_conjugate(parent_ms), model_ms));
        } else if (job->target_rotations_ms) {
            model_ms = ik_quat_normalize(job->target_rotations_ms[0]);
            l->rotation_ls = ik_quat_renormalize(ik_quat_mul(ik_quat_conjugate(parent_ms), model_ms));
        } else {
            model_ms = ik_quat_mul(parent_ms, l->rotation_ls);
        }
        l->model_ms.rotation = model_ms;
        parent_ms = model_ms;
    }
}

/* The plain-chain solve: unit bone directions and the summed length, the
 * positions-only iterations, then rotations (only when something moved). */
static ik_result solve_plain_chain(const ik_fabrik *job, ik_chain_link *links) {
    const int n = job->base.listed_joint_count;
    ik_real total_length = 0, err;
    ik_bool straight = n > 2;
    int k, it;
    for (k = 1; k < n; ++k) {
        ik_chain_link *l = &links[k];
        total_length += l->length;
        l->work_ms =
            l->length > 0
                ? ik_vec3_scale(ik_vec3_sub(l->model_ms.translation, links[k - 1].model_ms.translation), 1 / l->length)
                : ik_v3(1, 0, 0);
        straight = straight && l->length > 0 && is_parallel(l->work_ms, links[1].work_ms);
    }
    it = solve_chain_positions(job, links, total_length, straight);
    err = ik_vec3_distance(links[n - 1].model_ms.translation, job->targets_ms[0]);
    if (it > 0)
        write_chain_rotations(job, links);
    else
        apply_target_rotations(job, links);
    if (!ik_finite(err)) return IK_ERR_NONFINITE;
    if (it > 0 || job->target_rotations_ms) ik_chain_scatter(job->joints, n, links, job->base.pose_ls);
    if (job->iterations) *job->iterations = it;
    if (job->error) *job->error = err;
    return IK_OK;
}

ik_result ik_fabrik_run(const ik_fabrik *job) {
    ik_result r = validate(job);
    ik_chain_link *links;
    ik_vec3 base_ms;
    ik_real err, previous;
    ik_bool rigid, limited;
    int n, it = 0;
    if (r != IK_OK) return r;
    n = job->base.listed_joint_count;
    links = job->base.scratch;
    ik_chain_gather(job->base.skeleton, job->joints, n, job->base.pose_ls, job->base.root_ms, links);
    /* a single chain that gets past the plain solver has a limit */
    limited = is_single_chain(job, links);
    if (limited && !ik_chain_any_limit(job->base.constraints, n)) return solve_plain_chain(job, links);
    rigid = prepare(job, links);
    base_ms = links[0].model_ms.translation;
    /* Constraints also hold when the loop does not run. */
    if (job->base.constraints) forward_pass_rotations(links, n, base_ms, job->base.constraints);
    err = largest_error(job, links);
    while (err > job->tolerance && it < job->max_iterations) {
        previous = err;
        ++it;
        backward_pass(links, n, job->base.constraints);
        if (rigid)
            forward_pass_rotations(links, n, base_ms, job->base.constraints);
        else
            forward_pass_positions(links, n, base_ms);
        err = largest_error(job, links);
        if (previous - err < job->tolerance * (ik_real)1e-3) break;
        if (limited && previous - err < HANDOVER_FRACTION * err) break;
    }
    if (!rigid) forward_pass_rotations(links, n, base_ms, NULL);
    if (err > job->tolerance && it < job->max_iterations && limited) it += finish_with_ccd(job, links, it);
    apply_target_rotations(job, links);
    err = largest_error(job, links);
    if (!ik_finite(err)) return IK_ERR_NONFINITE;
    ik_chain_scatter(job->joints, n, links, job->base.pose_ls);
    if (job->iterations) *job->iterations = it;
    if (job->error) *job->error = err;
    return IK_OK;
}

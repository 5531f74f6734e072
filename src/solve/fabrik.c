/* FABRIK on chains and joint trees with several end effectors (Aristidou and
 * Lasenby 2011, "FABRIK: a fast, iterative solver for the inverse kinematics
 * problem"; seed 004). */
#include <ikit/fabrik.h>

#include <stddef.h>

enum {
    FLAG_ACTIVE = 1,   /* an effector lies at or below this link */
    FLAG_EFFECTOR = 2, /* this link has a target */
    FLAG_RIGID = 4     /* constrained joint or sub-base: needs the rotational pass */
};

ik_fabrik ik_fabrik_def(void) {
    ik_fabrik job;
    job.skeleton = NULL;
    job.joints = NULL;
    job.joint_count = 0;
    job.effectors = NULL;
    job.effector_count = 1;
    job.targets_ms = NULL;
    job.target_rotations_ms = NULL;
    job.weights = NULL;
    job.constraints = NULL;
    job.root_ms = NULL;
    job.tolerance = (ik_real)1e-3;
    job.max_iterations = 20;
    job.pose_ls = NULL;
    job.scratch = NULL;
    job.iterations = NULL;
    job.error = NULL;
    return job;
}

static int effector_link(const ik_fabrik *job, int i) {
    return job->effectors ? job->effectors[i] : job->joint_count - 1;
}

static ik_real effector_weight(const ik_fabrik *job, int i) { return job->weights ? job->weights[i] : 1; }

static ik_result validate(const ik_fabrik *job) {
    const ik_skeleton *s;
    int i, a;
    ik_result r;
    if (!job || !job->skeleton || !job->targets_ms || !job->pose_ls || !job->scratch) return IK_ERR_NULL;
    s = job->skeleton;
    r = ik_chain_validate(s, job->joints, job->joint_count, 0);
    if (r != IK_OK) return r;
    if (job->effector_count < 1 || (!job->effectors && job->effector_count != 1)) return IK_ERR_RANGE;
    if (!ik_finite(job->tolerance)) return IK_ERR_NONFINITE;
    if (job->tolerance < 0 || job->max_iterations < 0) return IK_ERR_RANGE;
    for (i = 0; i < job->effector_count; ++i) {
        int e = effector_link(job, i);
        if (e < 0 || e >= job->joint_count) return IK_ERR_RANGE;
        if (!ik_vec3_finite(job->targets_ms[i])) return IK_ERR_NONFINITE;
        if (job->weights && !ik_finite(job->weights[i])) return IK_ERR_NONFINITE;
        if (job->weights && !(job->weights[i] > 0)) return IK_ERR_RANGE;
        if (job->target_rotations_ms) {
            if (!ik_quat_finite(job->target_rotations_ms[i])) return IK_ERR_NONFINITE;
            if (!(ik_quat_length(job->target_rotations_ms[i]) > 0)) return IK_ERR_DEGENERATE;
        }
    }
    if (job->constraints) {
        for (i = 0; i < job->joint_count; ++i) {
            r = ik_constraint_validate(&job->constraints[i]);
            if (r != IK_OK) return r;
        }
    }
    if (job->root_ms && !ik_mat4_finite(job->root_ms)) return IK_ERR_NONFINITE;
    /* The listed joints and everything above them feed the model frames. */
    for (a = job->joints[0]; a >= 0; a = s->parents[a])
        if (!ik_transform_finite(job->pose_ls[a])) return IK_ERR_NONFINITE;
    for (i = 1; i < job->joint_count; ++i) {
        if (!ik_transform_finite(job->pose_ls[job->joints[i]])) return IK_ERR_NONFINITE;
        for (a = s->parents[job->joints[i]]; a > job->joints[0] && a != job->joints[i - 1]; a = s->parents[a])
            if (!ik_transform_finite(job->pose_ls[a])) return IK_ERR_NONFINITE;
    }
    return IK_OK;
}

/* Flags, targets and branch weights: an effector's target is the weighted
 * mean of the targets given for it (coincident effectors); a link's branch
 * weight is the sum of the effector weights at or below it. Returns 1 when
 * the rotational forward pass is needed (constraints or sub-bases). */
static ik_bool prepare(const ik_fabrik *job, ik_chain_link *links) {
    int n = job->joint_count, i, k;
    ik_bool rigid = 0;
    for (i = 0; i < job->effector_count; ++i) {
        ik_chain_link *l = &links[effector_link(job, i)];
        ik_real w = effector_weight(job, i);
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
        if (job->constraints && job->constraints[k].type != IK_CONSTRAINT_NONE) l->flags |= FLAG_RIGID;
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

/* Backward pass: p_e = target; p_parent = centroid over its active children
 * c of p_c + l_c (p_parent - p_c) / |p_parent - p_c|, weighted by branch
 * weight (Aristidou and Lasenby 2011, sections 4 and 5.1). */
static void backward_pass(ik_chain_link *links, int n) {
    int k;
    for (k = n - 1; k >= 1; --k) {
        ik_chain_link *l = &links[k];
        ik_chain_link *up;
        ik_vec3 p, toward;
        if (!(l->flags & FLAG_ACTIVE)) continue;
        p = (l->flags & FLAG_EFFECTOR) ? l->target_ms : ik_vec3_scale(l->work_ms, 1 / l->work_weight);
        l->model_ms.translation = p;
        l->work_ms = ik_vec3_zero();
        l->work_weight = 0;
        up = &links[l->parent];
        toward = direction_or_bone(p, up->model_ms.translation, links, k, -1);
        up->work_ms = ik_vec3_mad(up->work_ms, ik_vec3_mad(p, toward, l->length), l->branch_weight);
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
static void forward_pass_rotations(ik_chain_link *links, int n, ik_vec3 base_ms,
                                   const ik_constraint *constraints) {
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
        if (job->constraints) rot = ik_constraint_apply(&job->constraints[k], rot);
        links[k].rotation_ls = ik_quat_normalize(rot);
        links[k].model_ms.rotation = ik_quat_normalize(ik_quat_mul(parent_rot, links[k].rotation_ls));
    }
}

ik_result ik_fabrik_run(const ik_fabrik *job) {
    ik_result r = validate(job);
    ik_chain_link *links;
    ik_vec3 base_ms;
    ik_real err, previous;
    ik_bool rigid;
    int n, it = 0;
    if (r != IK_OK) return r;
    n = job->joint_count;
    links = job->scratch;
    ik_chain_gather(job->skeleton, job->joints, n, job->pose_ls, job->root_ms, links);
    rigid = prepare(job, links);
    base_ms = links[0].model_ms.translation;
    /* Constraints also hold when the loop does not run. */
    if (job->constraints) forward_pass_rotations(links, n, base_ms, job->constraints);
    err = largest_error(job, links);
    while (err > job->tolerance && it < job->max_iterations) {
        previous = err;
        ++it;
        backward_pass(links, n);
        if (rigid)
            forward_pass_rotations(links, n, base_ms, job->constraints);
        else
            forward_pass_positions(links, n, base_ms);
        err = largest_error(job, links);
        if (previous - err < job->tolerance * (ik_real)1e-3) break;
    }
    if (!rigid) forward_pass_rotations(links, n, base_ms, NULL);
    apply_target_rotations(job, links);
    err = largest_error(job, links);
    if (!ik_finite(err)) return IK_ERR_NONFINITE;
    ik_chain_scatter(job->joints, n, links, job->pose_ls);
    if (job->iterations) *job->iterations = it;
    if (job->error) *job->error = err;
    return IK_OK;
}

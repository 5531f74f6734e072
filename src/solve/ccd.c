/* Cyclic coordinate descent on a chain (seed 004): each joint from the end
 * back to the root turns its joint-to-effector direction onto its
 * joint-to-target direction, with a step cap and joint limits per step. */
#include <ikit/ccd.h>

#include "ccd_links.h"

#include <stddef.h>

ik_ccd ik_ccd_def(void) {
    ik_ccd job;
    job.base.defaulted = IK_JOB_DEFAULTED;
    job.base.skeleton = NULL;
    job.joints = NULL;
    job.base.listed_joint_count = 0;
    job.target_ms = ik_vec3_zero();
    job.target_rotation_ms = NULL;
    job.base.constraints = NULL;
    job.base.root_ms = NULL;
    job.max_step_angle = IK_PI;
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

size_t ik_ccd_scratch_size(int joint_count) { return ik_chain_scratch_bytes(joint_count); }

static ik_result validate(const ik_ccd *job) {
    ik_error *error;
    ik_result r;
    if (!job) return IK_ERR_NULL;
    if (job->base.defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    error = job->base.error_field;
    ik_field_fail(error, IK_OK, NULL, -1);
    r = ik_chain_validate_base(&job->base, job->joints, 1);
    if (r != IK_OK) return r;
    if (!ik_vec3_finite(job->target_ms)) return ik_field_fail(error, IK_ERR_NONFINITE, "target_ms", -1);
    if (!ik_finite(job->tolerance) || job->tolerance < 0)
        return ik_field_fail(error, ik_finite(job->tolerance) ? IK_ERR_RANGE : IK_ERR_NONFINITE, "tolerance", -1);
    if (!ik_finite(job->max_step_angle)) return ik_field_fail(error, IK_ERR_NONFINITE, "max_step_angle", -1);
    if (job->max_iterations < 0) return ik_field_fail(error, IK_ERR_RANGE, "max_iterations", -1);
    if (!(job->max_step_angle > 0) || job->max_step_angle > IK_PI * (1 + (ik_real)1e-6))
        return ik_field_fail(error, IK_ERR_RANGE, "max_step_angle", -1);
    if (job->target_rotation_ms) {
        if (!ik_quat_finite(*job->target_rotation_ms))
            return ik_field_fail(error, IK_ERR_NONFINITE, "target_rotation_ms", -1);
        if (!(ik_quat_length(*job->target_rotation_ms) > 0))
            return ik_field_fail(error, IK_ERR_DEGENERATE, "target_rotation_ms", -1);
    }
    return ik_chain_validate_inputs(job->base.skeleton, job->joints, job->base.listed_joint_count,
                                    job->base.constraints, job->base.root_ms, job->base.pose_ls, error);
}

/* One joint step, in model space: with p_k the joint, e the effector, t
 * the target, T = from_to(e - p_k, t - p_k) (its angle capped). The joint's
 * model rotation Q_k becomes T Q_k, so its local rotation becomes
 * R' = (P B)^-1 T Q_k (P its parent's model rotation, B between_ls;
 * Q_k = P B R), then R' = constrain(R'). The effector moves rigidly with the
 * joint: e' = p_k + T (e - p_k), or, when the constraint changed R',
 * e' = p_k + Q' Q_k^-1 (e - p_k) with Q' = P B R'. Joints above k are
 * unchanged during the sweep (it runs from the end back), so P and Q_k are
 * those of the last refresh and each step costs O(1); the chain is
 * refreshed once per sweep. Working in model space saves taking both
 * directions into the parent's frame and the turn back out of it; R' is a
 * product of unit quaternions, so one Newton step keeps it unit. A free
 * joint (no limit, no step cap) forms T Q_k in one product with one
 * normalisation (ik_quat_turn_between), and its effector lands exactly on
 * the ray to the target, e' = p_k + (t - p_k) |e - p_k| / |t - p_k|, with
 * |e - p_k| / |t - p_k| = m / |t - p_k|^2, m = |e - p_k| |t - p_k|. */
static ik_vec3 turn_joint(const ik_ccd_links *job, int k, ik_vec3 effector_ms) {
    ik_chain_link *links = job->links, *l = &links[k];
    ik_quat parent_rot = ik_chain_parent_rotation_ms(links, k);
    ik_vec3 origin = l->model_ms.translation;
    ik_vec3 to_effector = ik_vec3_sub(effector_ms, origin), to_target = ik_vec3_sub(job->target_ms, origin);
    ik_quat turn, rot;
    if (job->max_step_angle >= IK_PI && (!job->constraints || job->constraints[k].type == IK_CONSTRAINT_NONE)) {
        ik_real target_sq = ik_vec3_dot(to_target, to_target);
        ik_real m = IK_SQRT(ik_vec3_dot(to_effector, to_effector) * target_sq);
        if (m > 0 && m < IK_REAL_MAX) {
            l->rotation_ls = ik_quat_renormalize(ik_quat_mul(
                ik_quat_conjugate(parent_rot), ik_quat_turn_between(to_effector, to_target, m, l->model_ms.rotation)));
            return ik_vec3_mad(origin, to_target, m / target_sq);
        }
    }
    turn = ik_quat_from_to(to_effector, to_target);
    if (job->max_step_angle < IK_PI && ik_quat_angle(turn) > job->max_step_angle) {
        ik_vec3 axis;
        ik_real angle;
        ik_quat_to_axis_angle(turn, &axis, &angle);
        turn = ik_quat_from_axis_angle(axis, job->max_step_angle);
    }
    rot = ik_quat_renormalize(ik_quat_mul(ik_quat_conjugate(parent_rot), ik_quat_mul(turn, l->model_ms.rotation)));
    if (job->constraints && job->constraints[k].type != IK_CONSTRAINT_NONE) {
        rot = ik_constraint_apply(&job->constraints[k], rot);
        turn = ik_quat_mul(ik_quat_mul(parent_rot, rot), ik_quat_conjugate(l->model_ms.rotation));
    }
    l->rotation_ls = rot;
    return ik_vec3_add(origin, ik_quat_rotate(turn, to_effector));
}

/* The stall test: every STALL_WINDOW sweeps, the error must have dropped by
 * at least STALL_FRACTION of its current value. On the paper's test the
 * slowest reachable targets sit on a plateau (error near 1 for over a
 * hundred sweeps before it falls) and still drop by 0.5% or more per
 * window; a chain held by its limits settles and stops within a few
 * windows. Unreachable targets stop on the reach floor instead: the
 * effector can come no closer than |t - base| - (summed bone lengths). */
#define STALL_WINDOW 16
#define STALL_FRACTION ((ik_real)0.001)

/* Restarts after a stall short of a target inside the reach ball, on a
 * chain with limits: a limited chain has local minima (an elbow hinge that
 * bends the wrong way for a target behind the arm, twist ranges that hold
 * the bend plane), which a fresh start inside the limits escapes. With a
 * fresh start at hand, a stall is called sooner: the error must fall by
 * RESTART_FRACTION of itself every RESTART_WINDOW sweeps (the last attempt
 * has the usual test). On the humanoid arm of tests/support/limited_chains.h,
 * 94% of targets are met from the rest pose, all but about 1 in 600 with
 * restarts. */
#define RESTARTS 16
#define RESTART_WINDOW 8
#define RESTART_FRACTION ((ik_real)0.01)

/* Sweeps from the links' pose until the effector is within tolerance of
 * the reachable floor, a stall (the quick test when `restartable`), or
 * `budget` sweeps; returns the error. */
static ik_real sweep(const ik_ccd_links *job, ik_real floor_err, int budget, ik_bool restartable, int *sweeps) {
    ik_chain_link *links = job->links;
    const int n = job->count;
    const ik_real tolerance_sq = job->tolerance * job->tolerance;
    ik_real err = ik_vec3_distance(links[n - 1].model_ms.translation, job->target_ms), checkpoint = err;
    const int window = restartable ? RESTART_WINDOW : STALL_WINDOW;
    const ik_real fraction = restartable ? RESTART_FRACTION : STALL_FRACTION;
    int it = 0, done = 0, k;
    while (err - floor_err > job->tolerance && it < budget && !done) {
        ik_vec3 effector_ms = links[n - 1].model_ms.translation;
        ++it;
        for (k = n - 2; k >= 0; --k) {
            effector_ms = turn_joint(job, k, effector_ms);
            if (ik_vec3_length_sq(ik_vec3_sub(effector_ms, job->target_ms)) <= tolerance_sq) break;
        }
        ik_chain_update(links, n);
        err = ik_vec3_distance(links[n - 1].model_ms.translation, job->target_ms);
        if (it % window == 0) {
            done = !(checkpoint - err >= fraction * err);
            checkpoint = err;
        }
    }
    *sweeps = it;
    return err;
}

/* Attempts from the given pose, then (limited chains, reachable targets)
 * from up to RESTARTS fresh poses (ik_chain_restart) while sweeps remain.
 * The best attempt's rotations wait in pose_ls; when a later attempt does
 * worse they are loaded back into the links. */
ik_real ik_ccd_links_solve(const ik_ccd_links *job, int *sweeps) {
    ik_chain_link *links = job->links;
    const int n = job->count;
    ik_real reach = 0, floor_err, err, best = 0;
    ik_bool restartable;
    uint64_t seed = 0;
    int k, it = 0, attempt, used;
    for (k = 1; k < n; ++k) reach += links[k].length;
    floor_err = ik_maxr(0, ik_vec3_distance(links[0].model_ms.translation, job->target_ms) - reach);
    restartable = floor_err == 0 && ik_chain_any_limit(job->constraints, n);
    for (attempt = 0;; ++attempt) {
        err = sweep(job, floor_err, job->max_sweeps - it, restartable && attempt < RESTARTS, &used);
        it += used;
        if (attempt > 0 && !(err < best)) {
            for (k = 0; k < n; ++k) links[k].rotation_ls = job->pose_ls[job->joints[k]].rotation;
            ik_chain_update(links, n);
            err = best;
        }
        if (!(err > job->tolerance) || !restartable || attempt == RESTARTS || it >= job->max_sweeps) break;
        ik_chain_scatter(job->joints, n, links, job->pose_ls);
        best = err;
        ik_chain_restart(links, n, job->constraints, &seed);
    }
    *sweeps = it;
    return err;
}

ik_result ik_ccd_run(const ik_ccd *job) {
    ik_result r = validate(job);
    ik_ccd_links sweeps;
    ik_chain_link *links;
    ik_real err;
    int n, k, it = 0;
    if (r != IK_OK) return r;
    n = job->base.listed_joint_count;
    links = job->base.scratch;
    ik_chain_gather(job->base.skeleton, job->joints, n, job->base.pose_ls, job->base.root_ms, links);
    if (job->base.constraints) {
        for (k = 0; k < n; ++k)
            links[k].rotation_ls = ik_constraint_apply(&job->base.constraints[k], links[k].rotation_ls);
        ik_chain_update(links, n);
    }
    sweeps.links = links;
    sweeps.count = n;
    sweeps.joints = job->joints;
    sweeps.pose_ls = job->base.pose_ls;
    sweeps.target_ms = job->target_ms;
    sweeps.constraints = job->base.constraints;
    sweeps.max_step_angle = job->max_step_angle;
    sweeps.tolerance = job->tolerance;
    sweeps.max_sweeps = job->max_iterations;
    err = ik_ccd_links_solve(&sweeps, &it);
    /* The end joint's rotation: R = P^-1 Q_target, then its constraint. */
    if (job->target_rotation_ms) {
        ik_chain_link *end = &links[n - 1];
        ik_quat rot = ik_quat_mul(ik_quat_conjugate(ik_chain_parent_rotation_ms(links, n - 1)),
                                  ik_quat_normalize(*job->target_rotation_ms));
        if (job->base.constraints) rot = ik_constraint_apply(&job->base.constraints[n - 1], rot);
        end->rotation_ls = ik_quat_normalize(rot);
    }
    if (!ik_finite(err)) return IK_ERR_NONFINITE;
    ik_chain_scatter(job->joints, n, links, job->base.pose_ls);
    if (job->iterations) *job->iterations = it;
    if (job->error) *job->error = err;
    return IK_OK;
}

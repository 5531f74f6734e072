/* ik_jacobian_run's secondary objectives and limits: springs, comfort
 * ranges and gravity as a step in the null space of the goals, the
 * clamping loop that locks axes at their hard limits (Baerlocher & Boulic
 * 2004), the limits enforced after each step, and the restarts from fresh
 * poses inside ik_constraint limits. See include/ikit/jacobian.h. */
#include "jacobian_workspace.h"

/* ---- secondary objective: springs and gravity ----------------------------- */

/* The summed offsets x - p of the moving joints x below `joint` from its
 * pivot p. */
static ik_vec3 moving_offsets_below(const ik_jacobian *job, const jacobian_workspace *ws, int joint, ik_vec3 pivot_ms) {
    ik_vec3 sum = ik_vec3_zero();
    int a;
    for (a = 0; a < ws->active_count; ++a) {
        int j = ws->active[a];
        if (j != joint && ik_skeleton_is_descendant(job->base.skeleton, j, joint))
            sum = ik_vec3_add(sum, ik_vec3_sub(ik_mat4_translation(&ws->model_ms[j]), pivot_ms));
    }
    return sum;
}

/* Springs give each axis ik_spring_step at its current angle (kept in
 * ws->angle for the clamping loop). Gravity
 * (seed 002, "keep the limb as low as possible") turns each axis toward
 * lowering the mean height of the moving joints: the height change per
 * radian of joint x about axis a at pivot p is down . (a x (x - p)), so over
 * the joints below p it is down . (a x sum(x - p)), the sum taken once per
 * joint for all its axes. */
ik_bool ik_jacobian_build_secondary(const ik_jacobian *job, jacobian_workspace *ws) {
    const ik_vec3 down = ik_vec3_normalize_or(job->down_ms, ik_v3(0, -1, 0));
    const ik_real gravity_scale = ws->active_count > 0 ? job->gravity / ((ik_real)ws->active_count * ws->reach) : 0;
    ik_bool any = 0;
    int i, k, column = 0;
    for (i = 0; i < job->base.listed_joint_count; ++i) {
        const ik_jacobian_joint *joint = &job->joints[i];
        int d = joint->joint;
        ik_vec3 pivot_ms = ik_mat4_translation(&ws->model_ms[d]);
        ik_vec3 below_ms = gravity_scale != 0 ? moving_offsets_below(job, ws, d, pivot_ms) : ik_vec3_zero();
        for (k = 0; k < joint->axis_count; ++k, ++column) {
            ik_real z = 0;
            ws->angle[column] = 0;
            if (job->springs) {
                ik_vec3 axis_ls = ik_vec3_normalize(joint->axes_ls[k]);
                ws->angle[column] =
                    ik_spring_angle(job->base.skeleton->rest_ls[d].rotation, job->base.pose_ls[d].rotation, axis_ls);
                z += ik_spring_step(&job->springs[column], ws->angle[column]);
            }
            if (gravity_scale != 0)
                z += gravity_scale *
                     ik_vec3_dot(down, ik_vec3_cross(ik_jacobian_world_axis(ws, d, joint->axes_ls[k]), below_ms));
            ws->pull[column] = z;
            if (z != 0) any = 1;
        }
    }
    return any;
}

/* Seed 002: with springs or gravity the chain "keeps moving even when it has
 * found the target, trying to get into a more comfortable position", so the
 * solve goes on while springs or gravity still pull, until the step falls
 * under min_step. */
ik_bool ik_jacobian_has_secondary(const ik_jacobian *job) {
    int i, axes = ik_jacobian_total_axes(job);
    if (job->gravity != 0) return 1;
    if (!job->springs) return 0;
    for (i = 0; i < axes; ++i)
        if (job->springs[i].stiffness > 0) return 1;
    return 0;
}

/* Null-space projection z - J^+ J z. For DLS, J^+ is the undamped
 * pseudo-inverse of ik_ls_dls_project_null (the damped inverse of the step
 * would leak lambda^2 / (sigma^2 + lambda^2) of the spring into the
 * effectors and hold them off their targets); for SDLS, the projection
 * onto the right singular vectors with sigma > 0 of the step's SVD. */
static void project_secondary(const ik_jacobian *job, jacobian_workspace *ws) {
    const ik_ls ls = ik_jacobian_system(ws);
    if (ws->rows == 0) return;
    if (job->method == IK_JACOBIAN_DLS)
        ik_ls_dls_project_null(&ls, ws->ls_scratch, ws->secondary);
    else if (job->method == IK_JACOBIAN_SDLS)
        ik_ls_sdls_project_null(&ls, ws->ls_scratch, ws->secondary);
}

/* ---- the clamping loop ------------------------------------------------------ */

/* An axis whose spring limits are [-pi, pi] has no limit: its angle wraps. */
static ik_bool has_upper_limit(const ik_spring *spring) { return spring->limit_max < IK_PI; }
static ik_bool has_lower_limit(const ik_spring *spring) { return spring->limit_min > -IK_PI; }

/* One round of the clamping loop (Baerlocher & Boulic 2004, "An inverse
 * kinematics architecture enforcing an arbitrary number of strict priority
 * levels", The Visual Computer 20(6), joint limits): every free axis c whose
 * angle plus its step (primary and secondary) would leave [limit_min,
 * limit_max] is locked with the turn that takes it onto the limit,
 * dtheta_c = limit - angle_c; its effector move J_c dtheta_c is taken off
 * lock_error and its column is zeroed, J_c <- 0, so the next round solves
 * with the free axes only. Returns 1 when it locked an axis. */
static ik_bool lock_limit_axes(const ik_jacobian *job, jacobian_workspace *ws) {
    ik_bool any = 0;
    int c, r;
    for (c = 0; c < ws->axes; ++c) {
        const ik_spring *spring = &job->springs[c];
        ik_real after = ws->angle[c] + ws->step[c] + ws->secondary[c], limit;
        ik_real *column = ws->jac + (size_t)c * (size_t)ws->rows;
        if (ws->locked[c]) continue;
        if (has_upper_limit(spring) && after > spring->limit_max)
            limit = spring->limit_max;
        else if (has_lower_limit(spring) && after < spring->limit_min)
            limit = spring->limit_min;
        else
            continue;
        ws->locked[c] = 1;
        ws->lock_step[c] = limit - ws->angle[c];
        for (r = 0; r < ws->rows; ++r) {
            ws->lock_error[r] -= column[r] * ws->lock_step[c];
            column[r] = 0;
        }
        any = 1;
    }
    return any;
}

/* The DLS damping lambda^2: (damping * reach)^2 for a fixed damping > 0,
 * else ik_ls_dls_adaptive_damping_sq over the weighted error rows with the
 * reach as the scale (orientation rows are lengths, scaled by the reach,
 * so the error terms are squared lengths like the entries of J^T J). */
static ik_real dls_damping_sq(const ik_jacobian *job, const jacobian_workspace *ws) {
    ik_real lambda = job->damping * ws->reach;
    if (job->damping > 0) return lambda * lambda;
    return ik_ls_dls_adaptive_damping_sq(ws->err, ws->rows, ws->reach);
}

/* The method's step toward ws->err into ws->step and, when `locked`, the
 * damped step S(J, lock_error) into ws->total, both from one factorisation
 * of J (DLS's Cholesky factor, SDLS's SVD); a DLS factorisation that fails
 * gives a zero step. */
static void primary_step(const ik_jacobian *job, jacobian_workspace *ws, ik_bool locked) {
    const ik_ls ls = ik_jacobian_system(ws);
    int c;
    if (ws->rows == 0 ||
        (job->method == IK_JACOBIAN_DLS && !ik_ls_dls_factor(&ls, dls_damping_sq(job, ws), ws->ls_scratch))) {
        for (c = 0; c < ws->axes; ++c) ws->step[c] = ws->total[c] = 0;
    } else if (job->method == IK_JACOBIAN_TRANSPOSE) {
        ik_ls_transpose_step(&ls, ws->err, ws->ls_scratch, ws->step);
    } else if (job->method == IK_JACOBIAN_GRADIENT) {
        ik_ls_gradient_step(&ls, ws->err, job->gradient_rate, ws->step);
    } else if (job->method == IK_JACOBIAN_DLS) {
        ik_ls_dls_solve(&ls, ws->ls_scratch, ws->err, ws->step);
        if (locked) ik_ls_dls_solve(&ls, ws->ls_scratch, ws->lock_error, ws->total);
    } else {
        ik_ls_sdls_decompose(&ls, ws->ls_scratch);
        ik_ls_sdls_solve(&ls, ws->ls_scratch, ws->err, job->max_step, ws->step);
        if (locked) ik_ls_sdls_solve(&ls, ws->ls_scratch, ws->lock_error, job->max_step, ws->total);
    }
}

/* The primary step into ws->step and, when `pulled`, the secondary one into
 * ws->secondary. For DLS and SDLS with hard limits this is the clamping loop
 * (Baerlocher & Boulic 2004) with the limit turns counted as secondary:
 *   primary    S(J_F, e)                              free axes F
 *   secondary  dtheta_L on the locked axes L, and on F
 *              (I - J_F^+ J_F) z_F + S(J_F, -J_L dtheta_L)
 * where S(J, r) is the method's own damped step toward r (DLS or SDLS: a
 * damped compensation cannot blow up when locking leaves J_F near
 * singular). The clamp after the step then cuts nothing the projection
 * counted on, and the secondary move, limit turns included, leaves the
 * effectors in place up to the damping's leak and second-order terms (both
 * caught by take_step's guard). The loop repeats until no free axis would
 * pass a limit (at most once per axis). */
void ik_jacobian_solve_step(const ik_jacobian *job, jacobian_workspace *ws, ik_bool pulled) {
    const ik_bool clamping_loop =
        pulled && job->springs && (job->method == IK_JACOBIAN_DLS || job->method == IK_JACOBIAN_SDLS);
    ik_bool any_locked = 0;
    int c;
    for (c = 0; c < ws->axes; ++c) ws->locked[c] = 0;
    for (c = 0; c < ws->rows; ++c) ws->lock_error[c] = 0;
    for (;;) {
        primary_step(job, ws, any_locked);
        for (c = 0; c < ws->axes; ++c) ws->secondary[c] = pulled && !ws->locked[c] ? ws->pull[c] : 0;
        if (pulled) project_secondary(job, ws);
        if (any_locked) {
            for (c = 0; c < ws->axes; ++c)
                ws->secondary[c] = ws->locked[c] ? ws->lock_step[c] : ws->secondary[c] + ws->total[c];
        }
        if (!clamping_loop || !lock_limit_axes(job, ws)) return;
        any_locked = 1;
    }
}

/* ---- limits after a step ----------------------------------------------------- */

/* Seed 002's hard limits: each axis clamped into its spring's range, then
 * the joint projected into its constraint. */
void ik_jacobian_enforce_limits(const ik_jacobian *job, int joint_index, int first_column) {
    const ik_jacobian_joint *joint = &job->joints[joint_index];
    ik_transform *pose = &job->base.pose_ls[joint->joint];
    ik_quat rest = job->base.skeleton->rest_ls[joint->joint].rotation;
    int k;
    if (job->springs)
        for (k = 0; k < joint->axis_count; ++k)
            pose->rotation = ik_spring_clamp(&job->springs[first_column + k], rest, pose->rotation,
                                             ik_vec3_normalize(joint->axes_ls[k]));
    if (job->base.constraints)
        pose->rotation = ik_constraint_apply(&job->base.constraints[joint_index], pose->rotation);
}

void ik_jacobian_enforce_all_limits(const ik_jacobian *job) {
    int i, column = 0;
    if (!job->springs && !job->base.constraints) return;
    for (i = 0; i < job->base.listed_joint_count; ++i) {
        ik_jacobian_enforce_limits(job, i, column);
        column += job->joints[i].axis_count;
    }
}

/* ---- restarts ------------------------------------------------------------------ */

/* Restarts: limits make local minima (an elbow hinge bent the wrong way
 * for a target behind the arm, a twist range that holds the bend plane),
 * where every method stalls or crawls short of a target it could reach. A
 * solve with ik_constraint limits and no secondary objective whose targets
 * all lie in reach starts again from a fresh pose inside the limits, up to
 * IK_JACOBIAN_RESTARTS times, when a stall window gains less than
 * IK_JACOBIAN_RESTART_FRACTION of the error (after the last restart, the
 * usual stall test); the best pose found is kept (in ws->saved, which only
 * guarded secondary steps use). The fresh poses are ik_constraint_sample
 * at points of the R3 sequence u_m = frac(1/2 + m (1/g, 1/g^2, 1/g^3)),
 * g = 1.22074408 the positive root of x^4 = x + 1 (Roberts 2018), m
 * counting over restarts and joints: repeatable, and spread over each
 * joint's range. CCD restarts the same way but draws its points from
 * splitmix64 (ik_chain_restart, chain.c). */

/* x - floor(x) for x >= 0 */
static ik_real fraction(ik_real x) { return x - (ik_real)(long)x; }

void ik_jacobian_restart_pose(const ik_jacobian *job, int attempt) {
    const ik_real a1 = (ik_real)0.8191725134, a2 = (ik_real)0.6710436067, a3 = (ik_real)0.5497004779;
    int i;
    for (i = 0; i < job->base.listed_joint_count; ++i) {
        const ik_constraint *c = &job->base.constraints[i];
        ik_real m = (ik_real)(attempt * job->base.listed_joint_count + i);
        if (c->type == IK_CONSTRAINT_NONE) continue;
        job->base.pose_ls[job->joints[i].joint].rotation = ik_constraint_sample(
            c,
            ik_v3(fraction((ik_real)0.5 + m * a1), fraction((ik_real)0.5 + m * a2), fraction((ik_real)0.5 + m * a3)));
    }
}

/* Jacobian-family IK over the joints and effectors of a skeleton: the job
 * (validation, scratch layout), forward kinematics of the moving joints,
 * the goals' measure, the Jacobian and error rows, taking a step and the
 * iteration loop with its stall, stop and restart decisions. The step's
 * linear algebra (transpose, gradient, DLS, SDLS) is least_squares_step.c;
 * springs, gravity, the clamping loop at hard limits and the restart poses
 * are jacobian_limits.c. See include/ikit/jacobian.h for the model. */
#include <string.h>

#include "field_error.h"
#include "jacobian_workspace.h"

#define FLAG_ON_EFFECTOR_PATH 1
#define FLAG_BELOW_SOLVER_JOINT 2
#define FLAG_ACTIVE (FLAG_ON_EFFECTOR_PATH | FLAG_BELOW_SOLVER_JOINT)

static size_t align16(size_t bytes) { return (bytes + 15u) & ~(size_t)15u; }

/* Hands out the next `bytes` of the scratch block, 16-byte aligned; with no
 * block (base NULL) it only counts, so sizing and carving share one layout. */
typedef struct carver {
    char *base;
    size_t used;
} carver;

static void *carve(carver *c, size_t bytes) {
    void *at = c->base ? (void *)(c->base + c->used) : NULL;
    c->used += align16(bytes);
    return at;
}

/* Room for any method's step (SDLS's SVD needs the most). */
static size_t largest_ls_scratch(int rows, int cols) {
    size_t transpose = ik_ls_transpose_scratch_size(rows, cols), dls = ik_ls_dls_scratch_size(rows, cols),
           sdls = ik_ls_sdls_scratch_size(rows, cols);
    size_t largest = transpose > dls ? transpose : dls;
    return sdls > largest ? sdls : largest;
}

/* The workspace's arrays in the scratch block; returns the bytes used. */
static size_t lay_out(jacobian_workspace *ws, char *base, size_t joints, size_t effectors, size_t axes) {
    const size_t real = sizeof(ik_real), rows = 6 * effectors;
    carver c;
    c.base = base;
    c.used = 0;
    ws->model_ms = (ik_mat4 *)carve(&c, joints * sizeof(ik_mat4));
    ws->flags = (int *)carve(&c, joints * sizeof(int));
    ws->active = (int *)carve(&c, joints * sizeof(int));
    ws->locked = (int *)carve(&c, axes * sizeof(int));
    ws->jac = (ik_real *)carve(&c, rows * axes * real);
    ws->ls_scratch = carve(&c, largest_ls_scratch((int)rows, (int)axes));
    ws->err = (ik_real *)carve(&c, rows * real);
    ws->row_tmp = (ik_real *)carve(&c, rows * real);
    ws->lock_error = (ik_real *)carve(&c, rows * real);
    ws->step = (ik_real *)carve(&c, axes * real);
    ws->pull = (ik_real *)carve(&c, axes * real);
    ws->secondary = (ik_real *)carve(&c, axes * real);
    ws->total = (ik_real *)carve(&c, axes * real);
    ws->angle = (ik_real *)carve(&c, axes * real);
    ws->lock_step = (ik_real *)carve(&c, axes * real);
    ws->saved = (ik_real *)carve(&c, 4 * axes * real); /* every solver joint has an axis */
    ws->reach_point = (ik_real *)carve(&c, 4 * effectors * real);
    ws->axes = (int)axes;
    return c.used;
}

size_t ik_jacobian_scratch_size(int skeleton_joints, int axis_count, int effector_count) {
    jacobian_workspace ws;
    if (skeleton_joints < 0 || axis_count < 0 || effector_count < 0) return 0;
    return lay_out(&ws, NULL, (size_t)skeleton_joints, (size_t)effector_count, (size_t)axis_count);
}

ik_jacobian ik_jacobian_def(void) {
    ik_jacobian job;
    memset(&job, 0, sizeof job);
    job.base.defaulted = IK_JOB_DEFAULTED;
    job.down_ms = ik_v3(0, -1, 0);
    job.method = IK_JACOBIAN_DLS;
    job.tolerance = (ik_real)1e-3;
    job.angle_tolerance = (ik_real)1e-3;
    job.max_iterations = 100;
    job.damping = 0;
    job.max_step = IK_PI / 4;
    job.error_clamp = (ik_real)0.5;
    job.gradient_rate = 1;
    job.min_step = (ik_real)1e-6;
    return job;
}

ik_jacobian_effector ik_jacobian_effector_make(int joint, ik_vec3 target_ms) {
    ik_jacobian_effector e;
    e.joint = joint;
    e.offset_ls = ik_vec3_zero();
    e.target_ms = target_ms;
    e.importance = 1;
    e.use_orientation = 0;
    e.target_rotation_ms = ik_quat_identity();
    e.orientation_importance = 1;
    return e;
}

ik_jacobian_joint ik_jacobian_hinge(int joint, ik_vec3 axis_ls) {
    ik_jacobian_joint j;
    memset(&j, 0, sizeof j);
    j.joint = joint;
    j.axis_count = 1;
    j.axes_ls[0] = axis_ls;
    return j;
}

ik_jacobian_joint ik_jacobian_ball(int joint) {
    ik_jacobian_joint j;
    j.joint = joint;
    j.axis_count = 3;
    j.axes_ls[0] = ik_v3(1, 0, 0);
    j.axes_ls[1] = ik_v3(0, 1, 0);
    j.axes_ls[2] = ik_v3(0, 0, 1);
    return j;
}

/* ---- validation ----------------------------------------------------------- */

/* For a job whose options failed validate's combined test (kept apart so
 * a good job pays only for that test): names the first non-finite option,
 * else the first out of range, in the order of the struct. */
static ik_result bad_option(const ik_jacobian *job, ik_error *error) {
    const struct {
        const char *name;
        ik_real value;
        ik_bool in_range;
    } options[] = {{"tolerance", job->tolerance, job->tolerance >= 0},
                   {"angle_tolerance", job->angle_tolerance, job->angle_tolerance >= 0},
                   {"damping", job->damping, job->damping >= 0},
                   {"max_step", job->max_step, job->max_step > 0},
                   {"error_clamp", job->error_clamp, job->error_clamp > 0},
                   {"gradient_rate", job->gradient_rate, job->gradient_rate > 0},
                   {"min_step", job->min_step, job->min_step >= 0},
                   {"gravity", job->gravity, 1}};
    const int count = (int)(sizeof options / sizeof options[0]);
    int i;
    for (i = 0; i < count; ++i)
        if (!ik_finite(options[i].value)) return ik_field_fail(error, IK_ERR_NONFINITE, options[i].name, -1);
    if (!ik_vec3_finite(job->down_ms)) return ik_field_fail(error, IK_ERR_NONFINITE, "down_ms", -1);
    for (i = 0; i < count; ++i)
        if (!options[i].in_range) return ik_field_fail(error, IK_ERR_RANGE, options[i].name, -1);
    return ik_field_fail(error, IK_ERR_RANGE, "options", -1);
}

static ik_result validate(const ik_jacobian *job) {
    const ik_skeleton *skeleton;
    ik_error *error;
    int i, k, axes;
    if (!job) return IK_ERR_NULL;
    if (job->base.defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    error = job->base.error_field;
    ik_field_fail(error, IK_OK, NULL, -1);
    if (!job->base.skeleton) return ik_field_fail(error, IK_ERR_NULL, "base.skeleton", -1);
    if (!job->base.pose_ls) return ik_field_fail(error, IK_ERR_NULL, "base.pose_ls", -1);
    if (!job->joints) return ik_field_fail(error, IK_ERR_NULL, "joints", -1);
    if (!job->effectors) return ik_field_fail(error, IK_ERR_NULL, "effectors", -1);
    if (!job->base.scratch) return ik_field_fail(error, IK_ERR_NULL, "base.scratch", -1);
    skeleton = job->base.skeleton;
    if (skeleton->joint_count < 1 || !skeleton->parents || !skeleton->rest_ls)
        return ik_field_fail(error, IK_ERR_NULL, "base.skeleton", -1);
    if (job->base.listed_joint_count < 1) return ik_field_fail(error, IK_ERR_RANGE, "base.listed_joint_count", -1);
    if (job->effector_count < 1) return ik_field_fail(error, IK_ERR_RANGE, "effector_count", -1);
    if (job->max_iterations < 0) return ik_field_fail(error, IK_ERR_RANGE, "max_iterations", -1);
    if (job->method < IK_JACOBIAN_TRANSPOSE || job->method > IK_JACOBIAN_SDLS)
        return ik_field_fail(error, IK_ERR_RANGE, "method", -1);
    if (!ik_finite(job->tolerance) || !ik_finite(job->angle_tolerance) || !ik_finite(job->damping) ||
        !ik_finite(job->max_step) || !ik_finite(job->error_clamp) || !ik_finite(job->gradient_rate) ||
        !ik_finite(job->min_step) || !ik_finite(job->gravity) || !ik_vec3_finite(job->down_ms) || job->tolerance < 0 ||
        job->angle_tolerance < 0 || job->damping < 0 || !(job->max_step > 0) || !(job->error_clamp > 0) ||
        !(job->gradient_rate > 0) || job->min_step < 0)
        return bad_option(job, error);
    if (job->base.root_ms && !ik_mat4_finite(job->base.root_ms))
        return ik_field_fail(error, IK_ERR_NONFINITE, "base.root_ms", -1);
    for (i = 0; i < skeleton->joint_count; ++i)
        if (!ik_transform_finite(job->base.pose_ls[i]))
            return ik_field_fail(error, IK_ERR_NONFINITE, "base.pose_ls", i);
    for (i = 0; i < job->base.listed_joint_count; ++i) {
        const ik_jacobian_joint *joint = &job->joints[i];
        if (joint->joint < 0 || joint->joint >= skeleton->joint_count || joint->axis_count < 1 ||
            joint->axis_count > IK_JACOBIAN_MAX_AXES)
            return ik_field_fail(error, IK_ERR_RANGE, "joints", i);
        for (k = 0; k < joint->axis_count; ++k) {
            if (!ik_vec3_finite(joint->axes_ls[k])) return ik_field_fail(error, IK_ERR_NONFINITE, "joints", i);
            if (!(ik_vec3_length_sq(joint->axes_ls[k]) > IK_REAL_EPSILON))
                return ik_field_fail(error, IK_ERR_DEGENERATE, "joints", i);
        }
    }
    for (i = 0; i < job->effector_count; ++i) {
        const ik_jacobian_effector *e = &job->effectors[i];
        if (e->joint < 0 || e->joint >= skeleton->joint_count)
            return ik_field_fail(error, IK_ERR_RANGE, "effectors", i);
        if (!ik_vec3_finite(e->offset_ls) || !ik_vec3_finite(e->target_ms) || !ik_finite(e->importance) ||
            !ik_finite(e->orientation_importance) || (e->use_orientation && !ik_quat_finite(e->target_rotation_ms)))
            return ik_field_fail(error, IK_ERR_NONFINITE, "effectors", i);
        if (e->importance < 0 || e->orientation_importance < 0)
            return ik_field_fail(error, IK_ERR_RANGE, "effectors", i);
    }
    axes = ik_jacobian_total_axes(job);
    if (job->springs) {
        for (i = 0; i < axes; ++i) {
            ik_result r = ik_spring_validate(&job->springs[i]);
            if (r != IK_OK) return ik_field_fail(error, r, "springs", i);
        }
    }
    if (job->base.constraints) {
        for (i = 0; i < job->base.listed_joint_count; ++i) {
            ik_result r = ik_constraint_validate(&job->base.constraints[i]);
            if (r != IK_OK) return ik_field_fail(error, r, "base.constraints", i);
        }
    }
    if (job->base.scratch_bytes < ik_jacobian_scratch_size(skeleton->joint_count, axes, job->effector_count))
        return ik_field_fail(error, IK_ERR_CAPACITY, "base.scratch_bytes", -1);
    return IK_OK;
}

/* ---- forward kinematics over the moving joints ---------------------------- */

static void carve_scratch(const ik_jacobian *job, jacobian_workspace *ws) {
    lay_out(ws, (char *)job->base.scratch, (size_t)job->base.skeleton->joint_count, (size_t)job->effector_count,
            (size_t)ik_jacobian_total_axes(job));
}

/* A joint moves when it lies on the path from some effector up to the root
 * and at or below some solver joint; everything else keeps its model
 * matrix from the one full forward-kinematics pass. */
static void mark_active(const ik_jacobian *job, jacobian_workspace *ws) {
    const ik_skeleton *skeleton = job->base.skeleton;
    int i, j;
    memset(ws->flags, 0, (size_t)skeleton->joint_count * sizeof(int));
    for (i = 0; i < job->effector_count; ++i)
        for (j = job->effectors[i].joint; j >= 0 && !(ws->flags[j] & FLAG_ON_EFFECTOR_PATH); j = skeleton->parents[j])
            ws->flags[j] |= FLAG_ON_EFFECTOR_PATH;
    for (i = 0; i < job->base.listed_joint_count; ++i) ws->flags[job->joints[i].joint] |= FLAG_BELOW_SOLVER_JOINT;
    ws->active_count = 0;
    for (j = 0; j < skeleton->joint_count; ++j) {
        int parent = skeleton->parents[j];
        if (parent >= 0 && (ws->flags[parent] & FLAG_BELOW_SOLVER_JOINT)) ws->flags[j] |= FLAG_BELOW_SOLVER_JOINT;
        if ((ws->flags[j] & FLAG_ACTIVE) == FLAG_ACTIVE) ws->active[ws->active_count++] = j;
    }
}

static void update_active_fk(const ik_jacobian *job, jacobian_workspace *ws) {
    int i;
    for (i = 0; i < ws->active_count; ++i) {
        int j = ws->active[i], parent = job->base.skeleton->parents[j];
        ik_mat4 local = ik_transform_to_mat4(job->base.pose_ls[j]);
        if (parent >= 0)
            ws->model_ms[j] = ik_mat4_mul(&ws->model_ms[parent], &local);
        else
            ws->model_ms[j] = job->base.root_ms ? ik_mat4_mul(job->base.root_ms, &local) : local;
    }
}

static ik_vec3 effector_position(const jacobian_workspace *ws, const ik_jacobian_effector *e) {
    return ik_mat4_transform_point(&ws->model_ms[e->joint], e->offset_ls);
}

/* The summed length of every bone the solver moves, plus effector offsets:
 * the length scale for damping, error clamping and orientation rows. A
 * skeleton whose moving bones all have zero length gets 1. */
static ik_real moving_reach(const ik_jacobian *job, const jacobian_workspace *ws) {
    ik_real reach = 0;
    int i;
    for (i = 0; i < ws->active_count; ++i) {
        int j = ws->active[i], parent = job->base.skeleton->parents[j];
        if (parent >= 0 && (ws->flags[parent] & FLAG_ACTIVE) == FLAG_ACTIVE)
            reach +=
                ik_vec3_distance(ik_mat4_translation(&ws->model_ms[j]), ik_mat4_translation(&ws->model_ms[parent]));
    }
    for (i = 0; i < job->effector_count; ++i) {
        const ik_jacobian_effector *e = &job->effectors[i];
        reach += ik_vec3_distance(effector_position(ws, e), ik_mat4_translation(&ws->model_ms[e->joint]));
    }
    return reach > 0 && ik_finite(reach) ? reach : 1;
}

/* |v|, also when |v|^2 would overflow (targets past 1e19 in float): then
 * v is divided by its largest component first. */
static ik_real length_unscaled(ik_vec3 v) {
    ik_real length = ik_vec3_length(v), big;
    if (length < IK_REAL_MAX) return length; /* |v|^2 underflows only for lengths far below any tolerance */
    big = ik_maxr(IK_FABS(v.x), ik_maxr(IK_FABS(v.y), IK_FABS(v.z)));
    if (!ik_finite(big)) return big;
    return big * ik_vec3_length(ik_vec3_scale(v, 1 / big));
}

/* Each effector can only ever be within the ball around its topmost moving
 * pivot whose radius is the summed length of the bones (and offset) below
 * it: that pivot does not move during the solve, and bone lengths are kept.
 * Its target pulled into that ball is its reachable target: an out-of-reach
 * target becomes the nearest point the chain could touch, so the error
 * shrinks to zero as the chain stretches toward it instead of pulling
 * sideways on a straight, singular chain (the oscillation Buss & Kim 2005
 * address by clamping target distance). Neither moves during the solve, so
 * both are worked out once, here. */
static void effector_reachable_targets(const ik_jacobian *job, jacobian_workspace *ws) {
    int i;
    for (i = 0; i < job->effector_count; ++i) {
        const ik_jacobian_effector *e = &job->effectors[i];
        ik_vec3 previous = effector_position(ws, e), centre = previous, offset, point = e->target_ms;
        ik_real radius = 0, distance;
        int j;
        for (j = e->joint; j >= 0 && (ws->flags[j] & FLAG_BELOW_SOLVER_JOINT); j = job->base.skeleton->parents[j]) {
            ik_vec3 here = ik_mat4_translation(&ws->model_ms[j]);
            radius += ik_vec3_distance(previous, here);
            previous = here;
            centre = here;
        }
        offset = ik_vec3_sub(e->target_ms, centre);
        distance = length_unscaled(offset);
        if (!(distance <= radius)) point = ik_vec3_mad(centre, offset, radius / distance);
        ws->reach_point[4 * i] = point.x;
        ws->reach_point[4 * i + 1] = point.y;
        ws->reach_point[4 * i + 2] = point.z;
        ws->reach_point[4 * i + 3] = !(distance <= radius);
    }
}

static ik_vec3 reachable_target(const jacobian_workspace *ws, int index) {
    const ik_real *point = ws->reach_point + 4 * index;
    return ik_v3(point[0], point[1], point[2]);
}

/* ---- effector errors and the Jacobian ------------------------------------- */

/* Rotation vector of target * current^-1 (world frame), angle in [0, pi]. */
static ik_vec3 orientation_error(const jacobian_workspace *ws, const ik_jacobian_effector *e) {
    ik_quat current = ik_mat4_rotation(&ws->model_ms[e->joint]);
    ik_quat delta = ik_quat_positive_w(ik_quat_mul(e->target_rotation_ms, ik_quat_conjugate(current)));
    ik_vec3 axis;
    ik_real angle;
    ik_quat_to_axis_angle(ik_quat_normalize(delta), &axis, &angle);
    return ik_vec3_scale(axis, angle);
}

static ik_bool has_position_rows(const ik_jacobian_effector *e) { return e->importance > 0; }
static ik_bool has_orientation_rows(const ik_jacobian_effector *e) {
    return e->use_orientation && e->orientation_importance > 0;
}

/* Where the goals stand in one pose, measured once per pose: the largest
 * distance of an effector from its target and the largest orientation
 * error (what the solve reports); `met` when every weighted goal is within
 * tolerance of what it can reach (a target out of reach counts as met once
 * the effector is within tolerance of its reachable target, the target
 * pulled into its reach ball, since no pose comes closer); and `gap`, what
 * is left of the weighted goals: the largest distance of an effector from
 * its reachable target plus the largest weighted orientation error times
 * the reach (zero once the chain touches every target it can). */
typedef struct goals {
    ik_real distance, angle, gap;
    ik_bool met;
} goals;

static void measure(const ik_jacobian *job, const jacobian_workspace *ws, goals *g) {
    ik_real reachable_distance = 0, weighted_angle = 0;
    int i;
    g->distance = 0;
    g->angle = 0;
    g->met = 1;
    for (i = 0; i < job->effector_count; ++i) {
        const ik_jacobian_effector *e = &job->effectors[i];
        ik_vec3 s_ms = effector_position(ws, e);
        g->distance = ik_maxr(g->distance, length_unscaled(ik_vec3_sub(e->target_ms, s_ms)));
        if (has_position_rows(e)) {
            ik_real distance = ik_vec3_distance(reachable_target(ws, i), s_ms);
            reachable_distance = ik_maxr(reachable_distance, distance);
            if (distance > job->tolerance) g->met = 0;
        }
        if (e->use_orientation) {
            ik_real angle = ik_vec3_length(orientation_error(ws, e));
            g->angle = ik_maxr(g->angle, angle);
            if (has_orientation_rows(e)) {
                weighted_angle = ik_maxr(weighted_angle, angle);
                if (angle > job->angle_tolerance) g->met = 0;
            }
        }
    }
    g->gap = reachable_distance + weighted_angle * ws->reach;
}

static void put3(ik_real *column, int row, ik_vec3 v) {
    column[row] = v.x;
    column[row + 1] = v.y;
    column[row + 2] = v.z;
}

/* Rows per effector: position (3) then orientation (3), each scaled by
 * sqrt(weight); orientation rows and errors also by the reach. Columns
 * (Buss 2004, section 2): a x (s - p) and a for effectors below the joint,
 * zero otherwise. Position errors (to the reachable target) longer than
 * error_clamp * reach are shortened to it (Buss & Kim 2005, clamping target
 * distance). */
static void build_system(const ik_jacobian *job, jacobian_workspace *ws) {
    const ik_real clamp_length = job->error_clamp * ws->reach;
    int i, k, row = 0, column = 0;
    for (i = 0; i < job->effector_count; ++i) {
        const ik_jacobian_effector *e = &job->effectors[i];
        if (has_position_rows(e)) {
            ik_vec3 delta = ik_vec3_sub(reachable_target(ws, i), effector_position(ws, e));
            ik_real length = ik_vec3_length(delta);
            if (length > clamp_length) delta = ik_vec3_scale(delta, clamp_length / length);
            put3(ws->err, row, ik_vec3_scale(delta, IK_SQRT(e->importance)));
            row += 3;
        }
        if (has_orientation_rows(e)) {
            put3(ws->err, row, ik_vec3_scale(orientation_error(ws, e), IK_SQRT(e->orientation_importance) * ws->reach));
            row += 3;
        }
    }
    ws->rows = row;
    /* A joint's axes share its pivot and which effectors it moves, so the
     * effectors are walked once per joint, filling all its columns. */
    for (i = 0; i < job->base.listed_joint_count; ++i) {
        const ik_jacobian_joint *joint = &job->joints[i];
        ik_vec3 pivot_ms = ik_mat4_translation(&ws->model_ms[joint->joint]);
        ik_vec3 axes_ms[IK_JACOBIAN_MAX_AXES];
        ik_real *cols = ws->jac + (size_t)column * (size_t)ws->rows;
        int e_index;
        for (k = 0; k < joint->axis_count; ++k)
            axes_ms[k] = ik_jacobian_world_axis(ws, joint->joint, joint->axes_ls[k]);
        row = 0;
        for (e_index = 0; e_index < job->effector_count; ++e_index) {
            const ik_jacobian_effector *e = &job->effectors[e_index];
            ik_bool moves = ik_skeleton_is_descendant(job->base.skeleton, e->joint, joint->joint);
            if (has_position_rows(e)) {
                ik_vec3 lever = ik_vec3_sub(effector_position(ws, e), pivot_ms);
                for (k = 0; k < joint->axis_count; ++k)
                    put3(cols + (size_t)k * (size_t)ws->rows, row,
                         moves ? ik_vec3_scale(ik_vec3_cross(axes_ms[k], lever), IK_SQRT(e->importance))
                               : ik_vec3_zero());
                row += 3;
            }
            if (has_orientation_rows(e)) {
                for (k = 0; k < joint->axis_count; ++k)
                    put3(cols + (size_t)k * (size_t)ws->rows, row,
                         moves ? ik_vec3_scale(axes_ms[k], IK_SQRT(e->orientation_importance) * ws->reach)
                               : ik_vec3_zero());
                row += 3;
            }
        }
        column += joint->axis_count;
    }
}

/* ---- applying a step ------------------------------------------------------- */

/* All axes of one joint turn together: rotation_ls * exp(sum_k a_k dtheta_k),
 * then the joint's limits are enforced. */
static void apply_step(const ik_jacobian *job, const ik_real *turns) {
    int i, k, column = 0;
    for (i = 0; i < job->base.listed_joint_count; ++i) {
        const ik_jacobian_joint *joint = &job->joints[i];
        ik_transform *pose = &job->base.pose_ls[joint->joint];
        ik_vec3 turn = ik_vec3_zero();
        ik_real angle;
        for (k = 0; k < joint->axis_count; ++k)
            turn = ik_vec3_mad(turn, ik_vec3_normalize(joint->axes_ls[k]), turns[column + k]);
        angle = ik_vec3_length(turn);
        if (angle > 0)
            pose->rotation = ik_quat_normalize(
                ik_quat_mul(pose->rotation, ik_quat_from_axis_angle(ik_vec3_scale(turn, 1 / angle), angle)));
        ik_jacobian_enforce_limits(job, i, column);
        column += joint->axis_count;
    }
}

static ik_bool all_finite(const ik_real *v, int n) {
    int i;
    for (i = 0; i < n; ++i)
        if (!ik_finite(v[i])) return 0;
    return 1;
}

/* Weighted squared distance of the effectors to their reachable targets
 * after turning the subtree of `joint` by `angle` about the world axis
 * through `pivot_ms` (angle 0: as they are). */
static ik_real cost_after_turn(const ik_jacobian *job, const jacobian_workspace *ws, int joint, ik_vec3 pivot_ms,
                               ik_vec3 axis_ms, ik_real angle) {
    ik_quat turn = ik_quat_from_axis_angle(axis_ms, angle);
    ik_real cost = 0;
    int i;
    for (i = 0; i < job->effector_count; ++i) {
        const ik_jacobian_effector *e = &job->effectors[i];
        ik_vec3 s_ms = effector_position(ws, e);
        if (!has_position_rows(e)) continue;
        if (angle != 0 && ik_skeleton_is_descendant(job->base.skeleton, e->joint, joint))
            s_ms = ik_vec3_add(pivot_ms, ik_quat_rotate(turn, ik_vec3_sub(s_ms, pivot_ms)));
        cost += e->importance * ik_vec3_length_sq(ik_vec3_sub(reachable_target(ws, i), s_ms));
    }
    return cost;
}

/* A stalled step short of the targets is either a true minimum (a chain
 * stretched toward an out-of-reach target, or effectors pulling against
 * each other) or a singular saddle (a straight chain whose target lies on
 * its own line, inside its reach: every column a x (s - p) is then
 * perpendicular to e, so J^T e = 0 for every method). To tell them apart,
 * each axis a (pivot p) is tried alone, the way CCD turns one joint: for
 * each effector, with u and v the parts of s - p and t - p perpendicular to
 * a, the turn atan2(a . (u x v), u . v) brings s nearest t. When such a turn
 * lowers the weighted squared error of all effectors by more than
 * tolerance * sqrt(error), the stall is a saddle and the step becomes the
 * best such turn (capped by max_step); otherwise the solver stops. The
 * decision depends on the pose only, so a solver driven one iteration per
 * frame does not keep kicking a settled chain. */
static ik_bool escape_stall(const ik_jacobian *job, jacobian_workspace *ws) {
    ik_real cost_now = cost_after_turn(job, ws, 0, ik_vec3_zero(), ik_v3(1, 0, 0), 0);
    ik_real best_gain = job->tolerance * IK_SQRT(cost_now), best_turn = 0;
    int best_column = -1, i, k, e_index, column = 0;
    for (i = 0; i < job->base.listed_joint_count; ++i) {
        const ik_jacobian_joint *joint = &job->joints[i];
        ik_vec3 pivot_ms = ik_mat4_translation(&ws->model_ms[joint->joint]);
        for (k = 0; k < joint->axis_count; ++k, ++column) {
            ik_vec3 axis_ms = ik_jacobian_world_axis(ws, joint->joint, joint->axes_ls[k]);
            for (e_index = 0; e_index < job->effector_count; ++e_index) {
                const ik_jacobian_effector *e = &job->effectors[e_index];
                ik_vec3 u, v;
                ik_real turn, gain;
                if (!has_position_rows(e) || !ik_skeleton_is_descendant(job->base.skeleton, e->joint, joint->joint))
                    continue;
                u = ik_vec3_reject(ik_vec3_sub(effector_position(ws, e), pivot_ms), axis_ms);
                v = ik_vec3_reject(ik_vec3_sub(reachable_target(ws, e_index), pivot_ms), axis_ms);
                turn = ik_clampr(IK_ATAN2(ik_vec3_dot(axis_ms, ik_vec3_cross(u, v)), ik_vec3_dot(u, v)), -job->max_step,
                                 job->max_step);
                gain = cost_now - cost_after_turn(job, ws, joint->joint, pivot_ms, axis_ms, turn);
                if (gain > best_gain) {
                    best_gain = gain;
                    best_column = column;
                    best_turn = turn;
                }
            }
        }
    }
    if (best_column < 0) return 0;
    for (column = 0; column < ws->axes; ++column) ws->total[column] = 0;
    ws->total[best_column] = best_turn;
    return 1;
}

/* A step under min_step is a stall unless the linear model says it closes
 * at least half of what is left, |e - J dtheta| <= |e| / 2: then it is a
 * Gauss-Newton step a few rounding errors from the goals (with tolerances
 * near min_step), and taken. */
static ik_bool step_closes_gap(jacobian_workspace *ws) {
    const ik_ls ls = ik_jacobian_system(ws);
    ik_real residual = 0;
    int r;
    ik_ls_mul_j(&ls, ws->total, ws->row_tmp);
    for (r = 0; r < ws->rows; ++r) residual += (ws->err[r] - ws->row_tmp[r]) * (ws->err[r] - ws->row_tmp[r]);
    return 4 * residual <= ik_ls_dot(ws->err, ws->err, ws->rows);
}

static void save_rotations(const ik_jacobian *job, jacobian_workspace *ws) {
    int i;
    for (i = 0; i < job->base.listed_joint_count; ++i) {
        ik_quat q = job->base.pose_ls[job->joints[i].joint].rotation;
        ik_real *slot = ws->saved + 4 * i;
        slot[0] = q.x;
        slot[1] = q.y;
        slot[2] = q.z;
        slot[3] = q.w;
    }
}

/* In reverse order, so a joint listed twice ends with its first saved value. */
static void restore_rotations(const ik_jacobian *job, const jacobian_workspace *ws) {
    int i;
    for (i = job->base.listed_joint_count - 1; i >= 0; --i) {
        const ik_real *slot = ws->saved + 4 * i;
        ik_quat *q = &job->base.pose_ls[job->joints[i].joint].rotation;
        q->x = slot[0];
        q->y = slot[1];
        q->z = slot[2];
        q->w = slot[3];
    }
}

/* The secondary share below which a guarded step drops the secondary part,
 * and the factor by which a guarded step must shrink the goals' gap while
 * they are not met yet. */
#define GUARD_MIN_SHARE ((ik_real)1.0 / 16)
#define GUARD_DECREASE ((ik_real)0.75)

/* Applies step + share * secondary (capped by max_step), updates forward
 * kinematics and measures the new pose into `now`; returns 0 when the solve
 * stops instead (a non-finite step, or one under min_step that escape_stall
 * does not replace), with the pose and `now` as they were. The secondary
 * move holds the effectors only to first order (and up to the damped
 * compensation of limit turns), so for DLS and SDLS every step with a
 * secondary part is guarded, a backtracking line search on that part only:
 * it is accepted when afterwards every goal is met, or, while the goals are
 * not met yet, when their gap fell to GUARD_DECREASE of what it was;
 * otherwise the pose is restored and the step retried with the secondary
 * share halved (1, 1/2, ..., 1/16, then 0: the primary step alone, always
 * taken). So relaxing never takes an effector out of tolerance nor stalls
 * the approach (the task priority of Baerlocher & Boulic 2004: the
 * secondary objective acts only where it leaves the primary task's
 * solution intact). */
static ik_bool take_step(const ik_jacobian *job, jacobian_workspace *ws, goals *now, ik_bool pulled) {
    const ik_bool guarded = pulled && (job->method == IK_JACOBIAN_DLS || job->method == IK_JACOBIAN_SDLS);
    ik_real share = 1;
    goals after;
    int c;
    if (guarded) save_rotations(job, ws);
    for (;;) {
        for (c = 0; c < ws->axes; ++c) ws->total[c] = ws->step[c] + share * ws->secondary[c];
        ik_ls_clamp_max_abs(ws->total, ws->axes, job->max_step);
        if (!all_finite(ws->total, ws->axes)) return 0;
        if (ik_ls_max_abs(ws->total, ws->axes) <= job->min_step &&
            (now->met || (!step_closes_gap(ws) && !escape_stall(job, ws))))
            return 0;
        apply_step(job, ws->total);
        update_active_fk(job, ws);
        measure(job, ws, &after);
        if (!guarded || share == 0 || after.met || (!now->met && after.gap <= now->gap * GUARD_DECREASE)) {
            *now = after;
            return 1;
        }
        restore_rotations(job, ws);
        update_active_fk(job, ws);
        share = share > GUARD_MIN_SHARE ? share / 2 : 0;
    }
}

/* ---- the solve -------------------------------------------------------------- */

/* No-progress stop: every STALL_WINDOW iterations the gap (see `goals`)
 * must have dropped by min(tolerance, fraction * E), E the error (the
 * largest effector distance plus the largest orientation error times the
 * reach): the solve stops when it gains less than one tolerance and less
 * than a fraction of what is left. Progress is measured on the gap, not on
 * E: for a target 1e10 away E is rounded to a float's spacing there (1024),
 * and every step of the chain would look like no progress at all.
 * When some target lies out of its effector's reach, every method crawls
 * near the stretched chain (singular along the line to the target: the
 * excess over the best distance falls like 1/k for DLS and 1/sqrt(k) for
 * the transpose) while E stays above the distance from the target to the
 * reach ball, so the fraction is STALL_FAR and the first term decides:
 * such solves settle in a few dozen iterations. Otherwise (effectors
 * pulling against each other, limits, slow stretches on a reachable
 * target) it is the much smaller STALL_NEAR, which no reachable solve of
 * the paper's test falls under. */
#define STALL_WINDOW 8
#define STALL_FAR ((ik_real)0.005)
#define STALL_NEAR ((ik_real)0.0005)

/* 1 when some weighted position target lies outside its reach ball. */
static ik_bool any_out_of_reach(const ik_jacobian *job, const jacobian_workspace *ws) {
    int i;
    for (i = 0; i < job->effector_count; ++i) {
        if (has_position_rows(&job->effectors[i]) && ws->reach_point[4 * i + 3] != 0) return 1;
    }
    return 0;
}

/* Each iteration: the secondary pull, the stall test on the gap (with a
 * limited, reachable, unpulled solve restarting from a fresh pose, see
 * jacobian_limits.c, and keeping the best pose in ws->saved), the system,
 * the step with its clamping loop, and the guarded application. */
ik_result ik_jacobian_run(const ik_jacobian *job) {
    jacobian_workspace ws;
    goals now, best;
    ik_real remaining, checkpoint = 0, stall_fraction;
    int iteration = 0, attempt = 0, from = 0;
    ik_bool relaxing, restartable;
    ik_result result = validate(job);
    if (result != IK_OK) return result;
    relaxing = ik_jacobian_has_secondary(job);
    memset(&ws, 0, sizeof ws);
    carve_scratch(job, &ws);
    ik_jacobian_enforce_all_limits(job);
    ik_skeleton_fk(job->base.skeleton, job->base.pose_ls, job->base.root_ms, ws.model_ms);
    mark_active(job, &ws);
    ws.reach = moving_reach(job, &ws);
    effector_reachable_targets(job, &ws);
    stall_fraction = any_out_of_reach(job, &ws) ? STALL_FAR : STALL_NEAR;
    restartable = job->base.constraints && !relaxing && stall_fraction == STALL_NEAR;

    measure(job, &ws, &now);
    best = now;
    for (;;) {
        ik_bool pulled;
        if (iteration >= job->max_iterations) break;
        pulled = relaxing && ik_jacobian_build_secondary(job, &ws);
        if (now.met && !pulled) break;
        remaining = now.distance + now.angle * ws.reach;
        if (!now.met && (iteration - from) % STALL_WINDOW == 0) {
            ik_real needed = restartable && attempt < IK_JACOBIAN_RESTARTS
                                 ? IK_JACOBIAN_RESTART_FRACTION * remaining
                                 : ik_minr(job->tolerance, stall_fraction * remaining);
            if (iteration > from && !(checkpoint - now.gap >= needed)) {
                if (!restartable || attempt == IK_JACOBIAN_RESTARTS) break;
                if (attempt == 0 || now.gap < best.gap) {
                    save_rotations(job, &ws);
                    best = now;
                }
                ik_jacobian_restart_pose(job, attempt++);
                ik_jacobian_enforce_all_limits(job);
                ik_skeleton_fk(job->base.skeleton, job->base.pose_ls, job->base.root_ms, ws.model_ms);
                measure(job, &ws, &now);
                from = iteration;
                continue;
            }
            checkpoint = now.gap;
        }
        build_system(job, &ws);
        ik_jacobian_solve_step(job, &ws, pulled);
        if (!take_step(job, &ws, &now, pulled)) break;
        ++iteration;
    }
    if (attempt > 0 && !now.met && !(now.gap < best.gap)) {
        restore_rotations(job, &ws);
        now = best;
    }
    if (job->iterations) *job->iterations = iteration;
    if (job->error) *job->error = now.distance;
    if (job->angle_error) *job->angle_error = now.angle;
    return IK_OK;
}

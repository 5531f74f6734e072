/* Jacobian-family IK: transpose, gradient descent, DLS and SDLS over the
 * joints and effectors of a skeleton, with springs and gravity as a
 * secondary objective. See include/ikit/jacobian.h for the model. */
#include <ikit/jacobian.h>

#include <string.h>

#include "dense.h"

#define FLAG_ON_EFFECTOR_PATH 1
#define FLAG_BELOW_SOLVER_JOINT 2
#define FLAG_ACTIVE (FLAG_ON_EFFECTOR_PATH | FLAG_BELOW_SOLVER_JOINT)

/* Views into the caller's scratch bytes. Matrices are column-major. */
typedef struct workspace {
    ik_mat4 *model_ms;   /* [skeleton joints] */
    int *flags;          /* [skeleton joints] */
    int *active;         /* [skeleton joints]: joints that move, parents first */
    int *locked;         /* axes: 1 while the clamping loop holds the axis at a hard limit */
    int active_count;
    int rows, axes;
    ik_real *jac;        /* rows x axes */
    ik_real *err;        /* rows */
    ik_real *square;     /* rows x rows: J J^T and its Cholesky factor, SDLS left vectors */
    ik_real *jac_t;      /* axes x rows: SDLS right vectors */
    ik_real *sigma;      /* rows */
    ik_real *row_tmp;    /* rows */
    ik_real *lock_error; /* rows: -J_L dtheta_L, what the locked axes' turns do to the effectors, undone */
    ik_real *step;       /* axes: primary step (zero on locked axes) */
    ik_real *pull;       /* axes: secondary objective z as springs and gravity ask */
    ik_real *secondary;  /* axes: projected z, limit turns and their compensation */
    ik_real *total;      /* axes: the step applied */
    ik_real *angle;      /* axes: each axis's spring angle this iteration */
    ik_real *lock_step;  /* axes: the turn of a locked axis onto its limit */
    ik_real *saved;      /* 4 per solver joint: rotations before a guarded step */
    ik_real *axis_tmp;   /* axes */
    ik_real *reach_point; /* 4 per effector: reachable target (x, y, z), 1 when the target is out of reach */
    ik_real reach;
} workspace;

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

/* The workspace's arrays in the scratch block; returns the bytes used. */
static size_t lay_out(workspace *ws, char *base, size_t joints, size_t effectors, size_t axes) {
    const size_t real = sizeof(ik_real), rows = 6 * effectors;
    carver c;
    c.base = base;
    c.used = 0;
    ws->model_ms = (ik_mat4 *)carve(&c, joints * sizeof(ik_mat4));
    ws->flags = (int *)carve(&c, joints * sizeof(int));
    ws->active = (int *)carve(&c, joints * sizeof(int));
    ws->locked = (int *)carve(&c, axes * sizeof(int));
    ws->jac = (ik_real *)carve(&c, rows * axes * real);
    ws->jac_t = (ik_real *)carve(&c, rows * axes * real);
    ws->square = (ik_real *)carve(&c, rows * rows * real);
    ws->err = (ik_real *)carve(&c, rows * real);
    ws->sigma = (ik_real *)carve(&c, rows * real);
    ws->row_tmp = (ik_real *)carve(&c, rows * real);
    ws->lock_error = (ik_real *)carve(&c, rows * real);
    ws->step = (ik_real *)carve(&c, axes * real);
    ws->pull = (ik_real *)carve(&c, axes * real);
    ws->secondary = (ik_real *)carve(&c, axes * real);
    ws->total = (ik_real *)carve(&c, axes * real);
    ws->angle = (ik_real *)carve(&c, axes * real);
    ws->lock_step = (ik_real *)carve(&c, axes * real);
    ws->saved = (ik_real *)carve(&c, 4 * axes * real); /* every solver joint has an axis */
    ws->axis_tmp = (ik_real *)carve(&c, axes * real);
    ws->reach_point = (ik_real *)carve(&c, 4 * effectors * real);
    ws->axes = (int)axes;
    return c.used;
}

size_t ik_jacobian_scratch_size(int skeleton_joints, int axis_count, int effector_count) {
    workspace ws;
    if (skeleton_joints < 0 || axis_count < 0 || effector_count < 0) return 0;
    return lay_out(&ws, NULL, (size_t)skeleton_joints, (size_t)effector_count, (size_t)axis_count);
}

ik_jacobian ik_jacobian_def(void) {
    ik_jacobian job;
    memset(&job, 0, sizeof job);
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

ik_jacobian_effector ik_jacobian_effector_def(int joint, ik_vec3 target_ms) {
    ik_jacobian_effector e;
    e.joint = joint;
    e.offset_ls = ik_vec3_zero();
    e.target_ms = target_ms;
    e.weight = 1;
    e.use_orientation = 0;
    e.target_rotation_ms = ik_quat_identity();
    e.orientation_weight = 1;
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

static int total_axes(const ik_jacobian *job) {
    int i, n = 0;
    for (i = 0; i < job->joint_count; ++i) n += job->joints[i].axis_count;
    return n;
}

static ik_result validate(const ik_jacobian *job) {
    const ik_skeleton *skeleton;
    int i, k, axes;
    if (!job || !job->skeleton || !job->pose_ls || !job->joints || !job->effectors || !job->scratch)
        return IK_ERR_NULL;
    skeleton = job->skeleton;
    if (skeleton->joint_count < 1 || !skeleton->parents || !skeleton->rest_ls) return IK_ERR_NULL;
    if (job->joint_count < 1 || job->effector_count < 1 || job->max_iterations < 0) return IK_ERR_RANGE;
    if (job->method < IK_JACOBIAN_TRANSPOSE || job->method > IK_JACOBIAN_SDLS) return IK_ERR_RANGE;
    if (!ik_finite(job->tolerance) || !ik_finite(job->angle_tolerance) || !ik_finite(job->damping) ||
        !ik_finite(job->max_step) || !ik_finite(job->error_clamp) || !ik_finite(job->gradient_rate) ||
        !ik_finite(job->min_step) || !ik_finite(job->gravity) || !ik_vec3_finite(job->down_ms))
        return IK_ERR_NONFINITE;
    if (job->tolerance < 0 || job->angle_tolerance < 0 || job->damping < 0 || !(job->max_step > 0) ||
        !(job->error_clamp > 0) || !(job->gradient_rate > 0) || job->min_step < 0)
        return IK_ERR_RANGE;
    if (job->root_ms && !ik_mat4_finite(job->root_ms)) return IK_ERR_NONFINITE;
    for (i = 0; i < skeleton->joint_count; ++i)
        if (!ik_transform_finite(job->pose_ls[i])) return IK_ERR_NONFINITE;
    for (i = 0; i < job->joint_count; ++i) {
        const ik_jacobian_joint *joint = &job->joints[i];
        if (joint->joint < 0 || joint->joint >= skeleton->joint_count) return IK_ERR_RANGE;
        if (joint->axis_count < 1 || joint->axis_count > IK_JACOBIAN_MAX_AXES) return IK_ERR_RANGE;
        for (k = 0; k < joint->axis_count; ++k) {
            if (!ik_vec3_finite(joint->axes_ls[k])) return IK_ERR_NONFINITE;
            if (!(ik_vec3_length_sq(joint->axes_ls[k]) > IK_REAL_EPSILON)) return IK_ERR_DEGENERATE;
        }
    }
    for (i = 0; i < job->effector_count; ++i) {
        const ik_jacobian_effector *e = &job->effectors[i];
        if (e->joint < 0 || e->joint >= skeleton->joint_count) return IK_ERR_RANGE;
        if (!ik_vec3_finite(e->offset_ls) || !ik_vec3_finite(e->target_ms) || !ik_finite(e->weight) ||
            !ik_finite(e->orientation_weight) || (e->use_orientation && !ik_quat_finite(e->target_rotation_ms)))
            return IK_ERR_NONFINITE;
        if (e->weight < 0 || e->orientation_weight < 0) return IK_ERR_RANGE;
    }
    axes = total_axes(job);
    if (job->springs) {
        for (i = 0; i < axes; ++i) {
            ik_result r = ik_spring_validate(&job->springs[i]);
            if (r != IK_OK) return r;
        }
    }
    if (job->constraints) {
        for (i = 0; i < job->joint_count; ++i) {
            ik_result r = ik_constraint_validate(&job->constraints[i]);
            if (r != IK_OK) return r;
        }
    }
    if (job->scratch_bytes < ik_jacobian_scratch_size(skeleton->joint_count, axes, job->effector_count))
        return IK_ERR_CAPACITY;
    return IK_OK;
}

/* ---- forward kinematics over the moving joints ---------------------------- */

static void carve_scratch(const ik_jacobian *job, workspace *ws) {
    lay_out(ws, (char *)job->scratch, (size_t)job->skeleton->joint_count, (size_t)job->effector_count,
            (size_t)total_axes(job));
}

/* A joint moves when it lies on the path from some effector up to the root
 * and at or below some solver joint; everything else keeps its model
 * matrix from the one full forward-kinematics pass. */
static void mark_active(const ik_jacobian *job, workspace *ws) {
    const ik_skeleton *skeleton = job->skeleton;
    int i, j;
    memset(ws->flags, 0, (size_t)skeleton->joint_count * sizeof(int));
    for (i = 0; i < job->effector_count; ++i)
        for (j = job->effectors[i].joint; j >= 0 && !(ws->flags[j] & FLAG_ON_EFFECTOR_PATH);
             j = skeleton->parents[j])
            ws->flags[j] |= FLAG_ON_EFFECTOR_PATH;
    for (i = 0; i < job->joint_count; ++i) ws->flags[job->joints[i].joint] |= FLAG_BELOW_SOLVER_JOINT;
    ws->active_count = 0;
    for (j = 0; j < skeleton->joint_count; ++j) {
        int parent = skeleton->parents[j];
        if (parent >= 0 && (ws->flags[parent] & FLAG_BELOW_SOLVER_JOINT)) ws->flags[j] |= FLAG_BELOW_SOLVER_JOINT;
        if ((ws->flags[j] & FLAG_ACTIVE) == FLAG_ACTIVE) ws->active[ws->active_count++] = j;
    }
}

static void update_active_fk(const ik_jacobian *job, workspace *ws) {
    int i;
    for (i = 0; i < ws->active_count; ++i) {
        int j = ws->active[i], parent = job->skeleton->parents[j];
        ik_mat4 local = ik_transform_to_mat4(job->pose_ls[j]);
        if (parent >= 0)
            ws->model_ms[j] = ik_mat4_mul(&ws->model_ms[parent], &local);
        else
            ws->model_ms[j] = job->root_ms ? ik_mat4_mul(job->root_ms, &local) : local;
    }
}

static ik_vec3 effector_position(const workspace *ws, const ik_jacobian_effector *e) {
    return ik_mat4_transform_point(&ws->model_ms[e->joint], e->offset_ls);
}

/* The summed length of every bone the solver moves, plus effector offsets:
 * the length scale for damping, error clamping and orientation rows. A
 * skeleton whose moving bones all have zero length gets 1. */
static ik_real moving_reach(const ik_jacobian *job, const workspace *ws) {
    ik_real reach = 0;
    int i;
    for (i = 0; i < ws->active_count; ++i) {
        int j = ws->active[i], parent = job->skeleton->parents[j];
        if (parent >= 0 && (ws->flags[parent] & FLAG_ACTIVE) == FLAG_ACTIVE)
            reach += ik_vec3_distance(ik_mat4_translation(&ws->model_ms[j]), ik_mat4_translation(&ws->model_ms[parent]));
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
static void effector_reachable_targets(const ik_jacobian *job, workspace *ws) {
    int i;
    for (i = 0; i < job->effector_count; ++i) {
        const ik_jacobian_effector *e = &job->effectors[i];
        ik_vec3 previous = effector_position(ws, e), centre = previous, offset, point = e->target_ms;
        ik_real radius = 0, distance;
        int j;
        for (j = e->joint; j >= 0 && (ws->flags[j] & FLAG_BELOW_SOLVER_JOINT); j = job->skeleton->parents[j]) {
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

static ik_vec3 reachable_target(const workspace *ws, int index) {
    const ik_real *point = ws->reach_point + 4 * index;
    return ik_v3(point[0], point[1], point[2]);
}

/* ---- effector errors and the Jacobian ------------------------------------- */

/* Rotation vector of target * current^-1 (world frame), angle in [0, pi]. */
static ik_vec3 orientation_error(const workspace *ws, const ik_jacobian_effector *e) {
    ik_quat current = ik_mat4_rotation(&ws->model_ms[e->joint]);
    ik_quat delta = ik_quat_positive_w(ik_quat_mul(e->target_rotation_ms, ik_quat_conjugate(current)));
    ik_vec3 axis;
    ik_real angle;
    ik_quat_to_axis_angle(ik_quat_normalize(delta), &axis, &angle);
    return ik_vec3_scale(axis, angle);
}

static ik_bool has_position_rows(const ik_jacobian_effector *e) { return e->weight > 0; }
static ik_bool has_orientation_rows(const ik_jacobian_effector *e) {
    return e->use_orientation && e->orientation_weight > 0;
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

static void measure(const ik_jacobian *job, const workspace *ws, goals *g) {
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

static ik_vec3 world_axis(const workspace *ws, int joint, ik_vec3 axis_ls) {
    return ik_vec3_normalize(ik_mat4_transform_vector(&ws->model_ms[joint], ik_vec3_normalize(axis_ls)));
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
static void build_system(const ik_jacobian *job, workspace *ws) {
    const ik_real clamp_length = job->error_clamp * ws->reach;
    int i, k, row = 0, column = 0;
    for (i = 0; i < job->effector_count; ++i) {
        const ik_jacobian_effector *e = &job->effectors[i];
        if (has_position_rows(e)) {
            ik_vec3 delta = ik_vec3_sub(reachable_target(ws, i), effector_position(ws, e));
            ik_real length = ik_vec3_length(delta);
            if (length > clamp_length) delta = ik_vec3_scale(delta, clamp_length / length);
            put3(ws->err, row, ik_vec3_scale(delta, IK_SQRT(e->weight)));
            row += 3;
        }
        if (has_orientation_rows(e)) {
            put3(ws->err, row, ik_vec3_scale(orientation_error(ws, e), IK_SQRT(e->orientation_weight) * ws->reach));
            row += 3;
        }
    }
    ws->rows = row;
    /* A joint's axes share its pivot and which effectors it moves, so the
     * effectors are walked once per joint, filling all its columns. */
    for (i = 0; i < job->joint_count; ++i) {
        const ik_jacobian_joint *joint = &job->joints[i];
        ik_vec3 pivot_ms = ik_mat4_translation(&ws->model_ms[joint->joint]);
        ik_vec3 axes_ms[IK_JACOBIAN_MAX_AXES];
        ik_real *cols = ws->jac + (size_t)column * (size_t)ws->rows;
        int e_index;
        for (k = 0; k < joint->axis_count; ++k) axes_ms[k] = world_axis(ws, joint->joint, joint->axes_ls[k]);
        row = 0;
        for (e_index = 0; e_index < job->effector_count; ++e_index) {
            const ik_jacobian_effector *e = &job->effectors[e_index];
            ik_bool moves = ik_skeleton_is_descendant(job->skeleton, e->joint, joint->joint);
            if (has_position_rows(e)) {
                ik_vec3 lever = ik_vec3_sub(effector_position(ws, e), pivot_ms);
                for (k = 0; k < joint->axis_count; ++k)
                    put3(cols + (size_t)k * (size_t)ws->rows, row,
                         moves ? ik_vec3_scale(ik_vec3_cross(axes_ms[k], lever), IK_SQRT(e->weight))
                               : ik_vec3_zero());
                row += 3;
            }
            if (has_orientation_rows(e)) {
                for (k = 0; k < joint->axis_count; ++k)
                    put3(cols + (size_t)k * (size_t)ws->rows, row,
                         moves ? ik_vec3_scale(axes_ms[k], IK_SQRT(e->orientation_weight) * ws->reach)
                               : ik_vec3_zero());
                row += 3;
            }
        }
        column += joint->axis_count;
    }
}

/* ---- linear algebra helpers ----------------------------------------------- */

static ik_real jac_at(const workspace *ws, int row, int column) {
    return ws->jac[(size_t)column * (size_t)ws->rows + (size_t)row];
}

/* out[axes] = J^T v[rows] */
static void mul_jt(const workspace *ws, const ik_real *v, ik_real *out) {
    int r, c;
    for (c = 0; c < ws->axes; ++c) {
        ik_real s = 0;
        for (r = 0; r < ws->rows; ++r) s += jac_at(ws, r, c) * v[r];
        out[c] = s;
    }
}

/* out[rows] = J v[axes] */
static void mul_j(const workspace *ws, const ik_real *v, ik_real *out) {
    int r, c;
    for (r = 0; r < ws->rows; ++r) out[r] = 0;
    for (c = 0; c < ws->axes; ++c)
        for (r = 0; r < ws->rows; ++r) out[r] += jac_at(ws, r, c) * v[c];
}

static ik_real dot(const ik_real *a, const ik_real *b, int n) {
    ik_real s = 0;
    int i;
    for (i = 0; i < n; ++i) s += a[i] * b[i];
    return s;
}

static ik_real max_abs(const ik_real *v, int n) {
    ik_real m = 0;
    int i;
    for (i = 0; i < n; ++i) m = ik_maxr(m, IK_FABS(v[i]));
    return m;
}

/* Buss & Kim's ClampMaxAbs: scale v so no component exceeds `limit`. */
static void clamp_max_abs(ik_real *v, int n, ik_real limit) {
    ik_real m = max_abs(v, n);
    int i;
    if (m > limit)
        for (i = 0; i < n; ++i) v[i] *= limit / m;
}

/* ---- the four methods ----------------------------------------------------- */

/* Buss 2004, section 4: dtheta = alpha J^T e with alpha = <e, J J^T e> /
 * <J J^T e, J J^T e>, the step that minimises |e - J dtheta| along J^T e. */
static void step_transpose(workspace *ws) {
    ik_real denominator;
    int c;
    mul_jt(ws, ws->err, ws->step);
    mul_j(ws, ws->step, ws->row_tmp);
    denominator = dot(ws->row_tmp, ws->row_tmp, ws->rows);
    if (!(denominator > 0)) {
        for (c = 0; c < ws->axes; ++c) ws->step[c] = 0;
        return;
    }
    for (c = 0; c < ws->axes; ++c) ws->step[c] *= dot(ws->err, ws->row_tmp, ws->rows) / denominator;
}

/* Seed 003: theta <- theta - eta * d(|s - t|^2 / 2)/d theta, and that
 * gradient is -J^T e with e = t - s, so the update is +eta J^T e (the seed's
 * author found the sign by trial). eta = rate / |J|_F^2: the linearised
 * error decreases for every eta < 2 / sigma_max^2, and |J|_F^2 >=
 * sigma_max^2, so rate < 2 never overshoots the way the seed's fixed eta did
 * near an out-of-reach target. */
static void step_gradient(const ik_jacobian *job, workspace *ws) {
    ik_real frobenius = dot(ws->jac, ws->jac, ws->rows * ws->axes);
    int c;
    mul_jt(ws, ws->err, ws->step);
    for (c = 0; c < ws->axes; ++c) ws->step[c] = frobenius > 0 ? ws->step[c] * job->gradient_rate / frobenius : 0;
}

/* square = J J^T */
static void gram(workspace *ws) {
    const int m = ws->rows;
    int i, j, c;
    for (i = 0; i < m; ++i)
        for (j = 0; j <= i; ++j) {
            ik_real s = 0;
            for (c = 0; c < ws->axes; ++c) s += jac_at(ws, i, c) * jac_at(ws, j, c);
            ws->square[j * m + i] = s;
            ws->square[i * m + j] = s;
        }
}

/* The DLS damping lambda^2. A fixed job->damping > 0 gives (damping *
 * reach)^2. Otherwise it follows the error, Levenberg-Marquardt style
 * (Sugihara 2011, "Solvability-unconcerned inverse kinematics by the
 * Levenberg-Marquardt method", IEEE T-RO 27(5), W_N = E + w_bar):
 *   lambda^2 = E + w,  E = |e|^2 / 2,  w = DLS_BIAS * reach^2
 * over the weighted rows e (orientation rows are lengths, scaled by the
 * reach, so E and w are squared lengths like the entries of J^T J). Far
 * from the goals the damping is heavy, so steps stay short near
 * singularities and on unreachable targets; as the error falls the damping
 * falls with it to the small bias w and the step becomes a Gauss-Newton
 * step, which converges in a few iterations where a fixed lambda crawls
 * along the small singular directions of J. Marquardt's safeguard (raise
 * lambda and solve again when a step raises the error) is left out: on the
 * tests here it changed the 5-8 axis and 10-joint outcomes by at most one
 * case in 10000 and made one-update-per-frame tracking 8-15 % slower;
 * max_step still bounds every step. */
#define DLS_BIAS ((ik_real)1e-6)

static ik_real dls_damping_sq(const ik_jacobian *job, const workspace *ws) {
    ik_real lambda = job->damping * ws->reach;
    if (job->damping > 0) return lambda * lambda;
    return dot(ws->err, ws->err, ws->rows) / 2 + DLS_BIAS * ws->reach * ws->reach;
}

/* Buss 2004, section 5: dtheta = J^T (J J^T + lambda^2 I)^-1 e, solved by
 * Cholesky, which equals (J^T J + lambda^2 I)^-1 J^T e (Sugihara's form
 * with W_N = lambda^2 I). A relative epsilon on the diagonal keeps the
 * matrix solvable away from exact singularities. factor_dls leaves the
 * factor in square (0 when it fails: the step is then zero); solve_dls
 * takes one error. */
static ik_bool factor_dls(const ik_jacobian *job, workspace *ws) {
    const int m = ws->rows;
    ik_real damping_sq = dls_damping_sq(job, ws), trace = 0;
    int i;
    gram(ws);
    for (i = 0; i < m; ++i) trace += ws->square[i * m + i];
    for (i = 0; i < m; ++i) ws->square[i * m + i] += damping_sq + trace * IK_REAL_EPSILON * 16;
    return ik_dense_cholesky_factor(ws->square, m);
}

static void solve_dls(workspace *ws, const ik_real *error, ik_real *out) {
    memcpy(ws->row_tmp, error, (size_t)ws->rows * sizeof(ik_real));
    ik_dense_cholesky_solve(ws->square, ws->rows, ws->row_tmp);
    mul_jt(ws, ws->row_tmp, out);
}

static ik_bool singular_value_used(const workspace *ws, int i, ik_real sigma_max) {
    return ws->sigma[i] > sigma_max * IK_REAL_EPSILON * 64 && ws->sigma[i] > 0;
}

/* Buss & Kim 2005. With J = U diag(sigma) V^T, for each sigma_i > 0:
 *   alpha_i = u_i . e
 *   N_i = sum over effectors l of |u_i restricted to l's 3 rows|
 *   M_i = sigma_i^-1 sum_j |v_ji| sum_l rho_lj, rho_lj = |J block (l, j)|
 *   gamma_i = gamma_max * min(1, N_i / M_i)
 *   phi_i = ClampMaxAbs(sigma_i^-1 alpha_i v_i, gamma_i)
 * and dtheta = ClampMaxAbs(sum phi_i, gamma_max) (the final clamp is the
 * common max_step clamp). The SVD is one-sided Jacobi on J^T, giving
 * J^T = V diag(sigma) U^T: V in jac_t's columns, U in square. Orientation
 * rows count as one more 3-row "effector". decompose_sdls leaves the SVD
 * and each column's sum of rho_lj (in axis_tmp); solve_sdls takes one
 * error. */
static void decompose_sdls(workspace *ws) {
    const int m = ws->rows, n = ws->axes;
    int r, c, b;
    for (r = 0; r < m; ++r)
        for (c = 0; c < n; ++c) ws->jac_t[(size_t)r * (size_t)n + (size_t)c] = jac_at(ws, r, c);
    ik_dense_svd_jacobi(ws->jac_t, n, m, ws->square, ws->sigma);
    for (c = 0; c < n; ++c) {
        ik_real rho = 0;
        for (b = 0; b < m; b += 3)
            rho += IK_SQRT(jac_at(ws, b, c) * jac_at(ws, b, c) + jac_at(ws, b + 1, c) * jac_at(ws, b + 1, c) +
                           jac_at(ws, b + 2, c) * jac_at(ws, b + 2, c));
        ws->axis_tmp[c] = rho;
    }
}

static void solve_sdls(const ik_jacobian *job, const workspace *ws, const ik_real *error, ik_real *out) {
    const int m = ws->rows, n = ws->axes;
    ik_real sigma_max = 0;
    int i, c, b;
    for (c = 0; c < n; ++c) out[c] = 0;
    for (i = 0; i < m; ++i) sigma_max = ik_maxr(sigma_max, ws->sigma[i]);
    for (i = 0; i < m; ++i) {
        const ik_real *u = ws->square + (size_t)i * (size_t)m;
        const ik_real *v = ws->jac_t + (size_t)i * (size_t)n;
        ik_real alpha, n_i = 0, m_i = 0, gamma, largest = 0, scale;
        if (!singular_value_used(ws, i, sigma_max)) continue;
        alpha = dot(u, error, m);
        for (b = 0; b < m; b += 3) n_i += IK_SQRT(u[b] * u[b] + u[b + 1] * u[b + 1] + u[b + 2] * u[b + 2]);
        for (c = 0; c < n; ++c) m_i += IK_FABS(v[c]) * ws->axis_tmp[c];
        m_i /= ws->sigma[i];
        gamma = m_i > 0 ? job->max_step * ik_minr(1, n_i / m_i) : job->max_step;
        scale = alpha / ws->sigma[i];
        for (c = 0; c < n; ++c) largest = ik_maxr(largest, IK_FABS(scale * v[c]));
        if (largest > gamma) scale *= gamma / largest;
        for (c = 0; c < n; ++c) out[c] += scale * v[c];
    }
}

/* ---- secondary objective: springs and gravity ----------------------------- */

/* The summed offsets x - p of the moving joints x below `joint` from its
 * pivot p. */
static ik_vec3 moving_offsets_below(const ik_jacobian *job, const workspace *ws, int joint, ik_vec3 pivot_ms) {
    ik_vec3 sum = ik_vec3_zero();
    int a;
    for (a = 0; a < ws->active_count; ++a) {
        int j = ws->active[a];
        if (j != joint && ik_skeleton_is_descendant(job->skeleton, j, joint))
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
static ik_bool build_secondary(const ik_jacobian *job, workspace *ws) {
    const ik_vec3 down = ik_vec3_normalize_or(job->down_ms, ik_v3(0, -1, 0));
    const ik_real gravity_scale =
        ws->active_count > 0 ? job->gravity / ((ik_real)ws->active_count * ws->reach) : 0;
    ik_bool any = 0;
    int i, k, column = 0;
    for (i = 0; i < job->joint_count; ++i) {
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
                    ik_spring_angle(job->skeleton->rest_ls[d].rotation, job->pose_ls[d].rotation, axis_ls);
                z += ik_spring_step(&job->springs[column], ws->angle[column]);
            }
            if (gravity_scale != 0)
                z += gravity_scale * ik_vec3_dot(down, ik_vec3_cross(world_axis(ws, d, joint->axes_ls[k]), below_ms));
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
static ik_bool has_secondary(const ik_jacobian *job) {
    int i, axes = total_axes(job);
    if (job->gravity != 0) return 1;
    if (!job->springs) return 0;
    for (i = 0; i < axes; ++i)
        if (job->springs[i].stiffness > 0) return 1;
    return 0;
}

/* Null-space projection z - J^+ J z. For DLS, J^+ = J^T (J J^T + mu I)^-1
 * with mu only a rounding-level fraction of the trace (the damped inverse
 * of the step would leak lambda^2 / (sigma^2 + lambda^2) of the spring into
 * the effectors and hold them off their targets); its eigenvalues
 * sigma^2 / (sigma^2 + mu) stay in [0, 1], so it is safe at singularities.
 * For SDLS, the projection onto the right singular vectors with sigma > 0. */
static void project_secondary(const ik_jacobian *job, workspace *ws) {
    int c, i;
    if (ws->rows == 0) return;
    if (job->method == IK_JACOBIAN_DLS) {
        const int m = ws->rows;
        ik_real trace = 0;
        gram(ws);
        for (i = 0; i < m; ++i) trace += ws->square[i * m + i];
        for (i = 0; i < m; ++i) ws->square[i * m + i] += trace * IK_REAL_EPSILON * 1024 + IK_REAL_EPSILON;
        if (!ik_dense_cholesky_factor(ws->square, m)) return;
        mul_j(ws, ws->secondary, ws->row_tmp);
        ik_dense_cholesky_solve(ws->square, ws->rows, ws->row_tmp);
        mul_jt(ws, ws->row_tmp, ws->axis_tmp);
        for (c = 0; c < ws->axes; ++c) ws->secondary[c] -= ws->axis_tmp[c];
    } else if (job->method == IK_JACOBIAN_SDLS) {
        ik_real sigma_max = 0;
        for (i = 0; i < ws->rows; ++i) sigma_max = ik_maxr(sigma_max, ws->sigma[i]);
        for (i = 0; i < ws->rows; ++i) {
            const ik_real *v = ws->jac_t + (size_t)i * (size_t)ws->axes;
            ik_real along;
            if (!singular_value_used(ws, i, sigma_max)) continue;
            along = dot(v, ws->secondary, ws->axes);
            for (c = 0; c < ws->axes; ++c) ws->secondary[c] -= along * v[c];
        }
    }
}

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
static ik_bool lock_limit_axes(const ik_jacobian *job, workspace *ws) {
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

/* The method's step toward ws->err into ws->step and, when `locked`, the
 * damped step S(J, lock_error) into ws->total, both from one factorisation
 * of J (DLS's Cholesky factor, SDLS's SVD). */
static void primary_step(const ik_jacobian *job, workspace *ws, ik_bool locked) {
    int c;
    if (ws->rows == 0 || (job->method == IK_JACOBIAN_DLS && !factor_dls(job, ws))) {
        for (c = 0; c < ws->axes; ++c) ws->step[c] = ws->total[c] = 0;
    } else if (job->method == IK_JACOBIAN_TRANSPOSE) {
        step_transpose(ws);
    } else if (job->method == IK_JACOBIAN_GRADIENT) {
        step_gradient(job, ws);
    } else if (job->method == IK_JACOBIAN_DLS) {
        solve_dls(ws, ws->err, ws->step);
        if (locked) solve_dls(ws, ws->lock_error, ws->total);
    } else {
        decompose_sdls(ws);
        solve_sdls(job, ws, ws->err, ws->step);
        if (locked) solve_sdls(job, ws, ws->lock_error, ws->total);
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
static void solve_step(const ik_jacobian *job, workspace *ws, ik_bool pulled) {
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

/* ---- applying a step ------------------------------------------------------- */

/* Seed 002's hard limits: each axis clamped into its spring's range, then
 * the joint projected into its constraint. */
static void enforce_limits(const ik_jacobian *job, int joint_index, int first_column) {
    const ik_jacobian_joint *joint = &job->joints[joint_index];
    ik_transform *pose = &job->pose_ls[joint->joint];
    ik_quat rest = job->skeleton->rest_ls[joint->joint].rotation;
    int k;
    if (job->springs)
        for (k = 0; k < joint->axis_count; ++k)
            pose->rotation = ik_spring_clamp(&job->springs[first_column + k], rest, pose->rotation,
                                             ik_vec3_normalize(joint->axes_ls[k]));
    if (job->constraints) pose->rotation = ik_constraint_apply(&job->constraints[joint_index], pose->rotation);
}

static void enforce_all_limits(const ik_jacobian *job) {
    int i, column = 0;
    if (!job->springs && !job->constraints) return;
    for (i = 0; i < job->joint_count; ++i) {
        enforce_limits(job, i, column);
        column += job->joints[i].axis_count;
    }
}

/* All axes of one joint turn together: rotation_ls * exp(sum_k a_k dtheta_k),
 * then the joint's limits are enforced. */
static void apply_step(const ik_jacobian *job, const ik_real *turns) {
    int i, k, column = 0;
    for (i = 0; i < job->joint_count; ++i) {
        const ik_jacobian_joint *joint = &job->joints[i];
        ik_transform *pose = &job->pose_ls[joint->joint];
        ik_vec3 turn = ik_vec3_zero();
        ik_real angle;
        for (k = 0; k < joint->axis_count; ++k)
            turn = ik_vec3_mad(turn, ik_vec3_normalize(joint->axes_ls[k]), turns[column + k]);
        angle = ik_vec3_length(turn);
        if (angle > 0)
            pose->rotation = ik_quat_normalize(
                ik_quat_mul(pose->rotation, ik_quat_from_axis_angle(ik_vec3_scale(turn, 1 / angle), angle)));
        enforce_limits(job, i, column);
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
static ik_real cost_after_turn(const ik_jacobian *job, const workspace *ws, int joint, ik_vec3 pivot_ms,
                               ik_vec3 axis_ms, ik_real angle) {
    ik_quat turn = ik_quat_from_axis_angle(axis_ms, angle);
    ik_real cost = 0;
    int i;
    for (i = 0; i < job->effector_count; ++i) {
        const ik_jacobian_effector *e = &job->effectors[i];
        ik_vec3 s_ms = effector_position(ws, e);
        if (!has_position_rows(e)) continue;
        if (angle != 0 && ik_skeleton_is_descendant(job->skeleton, e->joint, joint))
            s_ms = ik_vec3_add(pivot_ms, ik_quat_rotate(turn, ik_vec3_sub(s_ms, pivot_ms)));
        cost += e->weight * ik_vec3_length_sq(ik_vec3_sub(reachable_target(ws, i), s_ms));
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
static ik_bool escape_stall(const ik_jacobian *job, workspace *ws) {
    ik_real cost_now = cost_after_turn(job, ws, 0, ik_vec3_zero(), ik_v3(1, 0, 0), 0);
    ik_real best_gain = job->tolerance * IK_SQRT(cost_now), best_turn = 0;
    int best_column = -1, i, k, e_index, column = 0;
    for (i = 0; i < job->joint_count; ++i) {
        const ik_jacobian_joint *joint = &job->joints[i];
        ik_vec3 pivot_ms = ik_mat4_translation(&ws->model_ms[joint->joint]);
        for (k = 0; k < joint->axis_count; ++k, ++column) {
            ik_vec3 axis_ms = world_axis(ws, joint->joint, joint->axes_ls[k]);
            for (e_index = 0; e_index < job->effector_count; ++e_index) {
                const ik_jacobian_effector *e = &job->effectors[e_index];
                ik_vec3 u, v;
                ik_real turn, gain;
                if (!has_position_rows(e) || !ik_skeleton_is_descendant(job->skeleton, e->joint, joint->joint)) continue;
                u = ik_vec3_reject(ik_vec3_sub(effector_position(ws, e), pivot_ms), axis_ms);
                v = ik_vec3_reject(ik_vec3_sub(reachable_target(ws, e_index), pivot_ms), axis_ms);
                turn = ik_clampr(IK_ATAN2(ik_vec3_dot(axis_ms, ik_vec3_cross(u, v)), ik_vec3_dot(u, v)),
                                 -job->max_step, job->max_step);
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
static ik_bool step_closes_gap(workspace *ws) {
    ik_real residual = 0;
    int r;
    mul_j(ws, ws->total, ws->row_tmp);
    for (r = 0; r < ws->rows; ++r) residual += (ws->err[r] - ws->row_tmp[r]) * (ws->err[r] - ws->row_tmp[r]);
    return 4 * residual <= dot(ws->err, ws->err, ws->rows);
}

static void save_rotations(const ik_jacobian *job, workspace *ws) {
    int i;
    for (i = 0; i < job->joint_count; ++i) {
        ik_quat q = job->pose_ls[job->joints[i].joint].rotation;
        ik_real *slot = ws->saved + 4 * i;
        slot[0] = q.x;
        slot[1] = q.y;
        slot[2] = q.z;
        slot[3] = q.w;
    }
}

/* In reverse order, so a joint listed twice ends with its first saved value. */
static void restore_rotations(const ik_jacobian *job, const workspace *ws) {
    int i;
    for (i = job->joint_count - 1; i >= 0; --i) {
        const ik_real *slot = ws->saved + 4 * i;
        ik_quat *q = &job->pose_ls[job->joints[i].joint].rotation;
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
static ik_bool take_step(const ik_jacobian *job, workspace *ws, goals *now, ik_bool pulled) {
    const ik_bool guarded =
        pulled && (job->method == IK_JACOBIAN_DLS || job->method == IK_JACOBIAN_SDLS);
    ik_real share = 1;
    goals after;
    int c;
    if (guarded) save_rotations(job, ws);
    for (;;) {
        for (c = 0; c < ws->axes; ++c) ws->total[c] = ws->step[c] + share * ws->secondary[c];
        clamp_max_abs(ws->total, ws->axes, job->max_step);
        if (!all_finite(ws->total, ws->axes)) return 0;
        if (max_abs(ws->total, ws->axes) <= job->min_step &&
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
static ik_bool any_out_of_reach(const ik_jacobian *job, const workspace *ws) {
    int i;
    for (i = 0; i < job->effector_count; ++i) {
        if (has_position_rows(&job->effectors[i]) && ws->reach_point[4 * i + 3] != 0) return 1;
    }
    return 0;
}

/* Restarts: limits make local minima (an elbow hinge bent the wrong way
 * for a target behind the arm, a twist range that holds the bend plane),
 * where every method stalls or crawls short of a target it could reach. A
 * solve with ik_constraint limits and no secondary objective whose targets
 * all lie in reach starts again from a fresh pose inside the limits, up to
 * RESTARTS times, when a stall window gains less than RESTART_FRACTION of
 * the error (after the last restart, the usual stall test); the best pose
 * found is kept (in ws->saved, which only guarded secondary steps use).
 * The fresh poses are ik_constraint_sample at points of the R3 sequence
 * u_m = frac(1/2 + m (1/g, 1/g^2, 1/g^3)), g = 1.22074408 the positive
 * root of x^4 = x + 1 (Roberts 2018), m counting over restarts and joints:
 * repeatable, and spread over each joint's range. As ccd.h does for CCD. */
#define RESTARTS 8
#define RESTART_FRACTION ((ik_real)0.05)

/* x - floor(x) for x >= 0 */
static ik_real fraction(ik_real x) { return x - (ik_real)(long)x; }

static void restart_pose(const ik_jacobian *job, int attempt) {
    const ik_real a1 = (ik_real)0.8191725134, a2 = (ik_real)0.6710436067, a3 = (ik_real)0.5497004779;
    int i;
    for (i = 0; i < job->joint_count; ++i) {
        const ik_constraint *c = &job->constraints[i];
        ik_real m = (ik_real)(attempt * job->joint_count + i);
        if (c->type == IK_CONSTRAINT_NONE) continue;
        job->pose_ls[job->joints[i].joint].rotation =
            ik_constraint_sample(c, ik_v3(fraction((ik_real)0.5 + m * a1), fraction((ik_real)0.5 + m * a2),
                                          fraction((ik_real)0.5 + m * a3)));
    }
}

ik_result ik_jacobian_run(const ik_jacobian *job) {
    workspace ws;
    goals now, best;
    ik_real remaining, checkpoint = 0, stall_fraction;
    int iteration = 0, attempt = 0, from = 0;
    ik_bool relaxing, restartable;
    ik_result result = validate(job);
    if (result != IK_OK) return result;
    relaxing = has_secondary(job);
    memset(&ws, 0, sizeof ws);
    carve_scratch(job, &ws);
    enforce_all_limits(job);
    ik_skeleton_fk(job->skeleton, job->pose_ls, job->root_ms, ws.model_ms);
    mark_active(job, &ws);
    ws.reach = moving_reach(job, &ws);
    effector_reachable_targets(job, &ws);
    stall_fraction = any_out_of_reach(job, &ws) ? STALL_FAR : STALL_NEAR;
    restartable = job->constraints && !relaxing && stall_fraction == STALL_NEAR;

    measure(job, &ws, &now);
    best = now;
    for (;;) {
        ik_bool pulled;
        if (iteration >= job->max_iterations) break;
        pulled = relaxing && build_secondary(job, &ws);
        if (now.met && !pulled) break;
        remaining = now.distance + now.angle * ws.reach;
        if (!now.met && (iteration - from) % STALL_WINDOW == 0) {
            ik_real needed = restartable && attempt < RESTARTS ? RESTART_FRACTION * remaining
                                                               : ik_minr(job->tolerance, stall_fraction * remaining);
            if (iteration > from && !(checkpoint - now.gap >= needed)) {
                if (!restartable || attempt == RESTARTS) break;
                if (attempt == 0 || now.gap < best.gap) {
                    save_rotations(job, &ws);
                    best = now;
                }
                restart_pose(job, attempt++);
                enforce_all_limits(job);
                ik_skeleton_fk(job->skeleton, job->pose_ls, job->root_ms, ws.model_ms);
                measure(job, &ws, &now);
                from = iteration;
                continue;
            }
            checkpoint = now.gap;
        }
        build_system(job, &ws);
        solve_step(job, &ws, pulled);
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

/* Robot Cartesian paths (see include/ikit/robot_path.h): the job (defaults,
 * validation, scratch), the line and its segments, the joint-step bound,
 * the branch test on det J, and the walk along the line. */
#include <ikit/robot_ik.h>
#include <ikit/robot_path.h>

#include <math.h>
#include <string.h>

#include "../solve/field_error.h"

#define TWO_PI (2 * IK_PI)
/* A line whose length is a whole number of steps up to rounding is cut into
 * that number of segments, not one more: the quotient is shrunk by this
 * share before it is rounded up. */
#define COUNT_SLACK 1e-5
/* L, the length that makes the Cartesian move dimensionless: this share of the reach. */
#define LEVER_SHARE ((ik_real)0.1)

ik_robot_path ik_robot_path_def(void) {
    ik_robot_path job;
    memset(&job, 0, sizeof job);
    job.defaulted = IK_JOB_DEFAULTED;
    job.goal_rotation_bs = ik_quat_identity();
    job.max_step = (ik_real)0.001;
    job.max_rotation_step = (ik_real)0.01;
    job.joint_step_ratio = 10;
    job.position_tolerance = ik_v3((ik_real)1e-5, (ik_real)1e-5, (ik_real)1e-5);
    job.angle_tolerance = ik_v3((ik_real)1e-5, (ik_real)1e-5, (ik_real)1e-5);
    job.waypoint_iterations = 100;
    job.keep_branch = 1;
    return job;
}

const char *ik_robot_path_stop_str(ik_robot_path_stop stop) {
    switch (stop) {
        case IK_ROBOT_PATH_COMPLETE:
            return "complete";
        case IK_ROBOT_PATH_UNREACHED:
            return "unreached";
        case IK_ROBOT_PATH_LIMIT:
            return "joint limit";
        case IK_ROBOT_PATH_JUMP:
            return "joint jump";
        case IK_ROBOT_PATH_BRANCH:
            return "branch switch";
        case IK_ROBOT_PATH_INVALID:
            return "refused by config_ok";
        case IK_ROBOT_PATH_START_INVALID:
            return "start refused by config_ok";
        default:
            return "unknown";
    }
}

/* ---- scratch ---------------------------------------------------------------- */

/* The walk's arrays in the caller's scratch block. */
typedef struct workspace {
    void *ik_scratch; /* ik_robot_ik_scratch_size(n) */
    ik_real *jac;     /* 6 x n */
    ik_real *q;       /* n: the waypoint being tried */
    ik_real *lower;   /* n: each variable's limits */
    ik_real *upper;
    ik_bool *limited; /* n */
    int *turns;       /* n: the variable turns (revolute or continuous joints only, multiplier +-1) */
} workspace;

static size_t align16(size_t bytes) { return (bytes + 15u) & ~(size_t)15u; }

static size_t lay_out(workspace *ws, char *base, int variables) {
    const size_t n = (size_t)variables, real = sizeof(ik_real);
    size_t used = 0;
#define CARVE(field, type, bytes)                                    \
    do {                                                             \
        ws->field = base ? (type)(void *)(base + used) : (type)NULL; \
        used += align16(bytes);                                      \
    } while (0)
    CARVE(ik_scratch, void *, ik_robot_ik_scratch_size(variables));
    CARVE(jac, ik_real *, 6 * n * real);
    CARVE(q, ik_real *, n * real);
    CARVE(lower, ik_real *, n * real);
    CARVE(upper, ik_real *, n * real);
    CARVE(limited, ik_bool *, n * sizeof(ik_bool));
    CARVE(turns, int *, n * sizeof(int));
#undef CARVE
    return used;
}

size_t ik_robot_path_scratch_size(int variable_count) {
    workspace ws;
    if (variable_count < 0) return 0;
    return lay_out(&ws, NULL, variable_count);
}

/* ---- the line ----------------------------------------------------------------- */

/* The line's ends and how it is cut: T_0 = FK(q_start), T_1 the goal (its
 * rotation normalised), N segments, and the bound on a joint's step. */
typedef struct line {
    ik_transform start, goal;
    ik_vec3 turn_axis; /* R_1 R_0^-1 as a turn about this unit axis (base frame) by turn_angle in [0, pi] */
    ik_real turn_angle;
    int segments;
    ik_real rotation_bound, prismatic_bound; /* per waypoint: radians, metres */
} line;

static ik_bool positive_finite(ik_vec3 v) { return ik_vec3_finite(v) && v.x > 0 && v.y > 0 && v.z > 0; }

/* The fields of the job, its chain and q_start; the limits and kinds into
 * ws (when not NULL: ik_robot_path_waypoint_count validates without
 * scratch), the line into *ln. */
static ik_result validate(const ik_robot_path *job, workspace *ws, line *ln) {
    ik_error *error = job->error_field;
    const ik_robot_chain *chain = job->chain;
    ik_real lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS], reach = 0, lever, length, distance, angle, move;
    ik_bool limited[IK_ROBOT_MAX_JOINTS];
    int turns[IK_ROBOT_MAX_JOINTS], k, v, bad;
    double count;
    ik_result r;
    if (job->defaulted != IK_JOB_DEFAULTED) return ik_field_fail(error, IK_ERR_NOT_DEFAULTED, "defaulted", -1);
    r = ik_robot_chain_check(chain, &bad);
    if (r != IK_OK) return ik_field_fail(error, r, "chain", bad);
    if (chain->variable_count < 1) return ik_field_fail(error, IK_ERR_RANGE, "chain", -1);
    r = ik_robot_variable_limits(chain, lower, upper, limited, &bad);
    if (r != IK_OK) return ik_field_fail(error, r, "chain", bad);
    if (!job->q_start) return ik_field_fail(error, IK_ERR_NULL, "q_start", -1);
    if (!ik_vec3_finite(job->goal_position_bs)) return ik_field_fail(error, IK_ERR_NONFINITE, "goal_position_bs", -1);
    if (!ik_quat_finite(job->goal_rotation_bs)) return ik_field_fail(error, IK_ERR_NONFINITE, "goal_rotation_bs", -1);
    length = ik_quat_length(job->goal_rotation_bs);
    if (!(IK_FABS(length - 1) <= (ik_real)1e-3)) return ik_field_fail(error, IK_ERR_RANGE, "goal_rotation_bs", -1);
#define POSITIVE(field)                                                                        \
    do {                                                                                       \
        if (!ik_finite(job->field)) return ik_field_fail(error, IK_ERR_NONFINITE, #field, -1); \
        if (!(job->field > 0)) return ik_field_fail(error, IK_ERR_RANGE, #field, -1);          \
    } while (0)
    POSITIVE(max_step);
    POSITIVE(max_rotation_step);
    POSITIVE(joint_step_ratio);
#undef POSITIVE
    if (!ik_finite(job->max_joint_step)) return ik_field_fail(error, IK_ERR_NONFINITE, "max_joint_step", -1);
    if (!(job->max_joint_step >= 0)) return ik_field_fail(error, IK_ERR_RANGE, "max_joint_step", -1);
    if (!positive_finite(job->position_tolerance)) return ik_field_fail(error, IK_ERR_RANGE, "position_tolerance", -1);
    if (!positive_finite(job->angle_tolerance)) return ik_field_fail(error, IK_ERR_RANGE, "angle_tolerance", -1);
    if (job->waypoint_iterations < 1) return ik_field_fail(error, IK_ERR_RANGE, "waypoint_iterations", -1);
    /* Each variable's kind, the reach, and q_start inside the limits. */
    for (v = 0; v < chain->variable_count; ++v) turns[v] = 1;
    for (k = 0; k < chain->joint_count; ++k) {
        const ik_robot_joint *joint = &chain->joints[k];
        reach += ik_vec3_length(joint->origin.translation);
        if (joint->type == IK_ROBOT_FIXED) continue;
        v = joint->variable;
        if (joint->type == IK_ROBOT_PRISMATIC || IK_FABS(joint->multiplier) != 1) turns[v] = 0;
        if (joint->type == IK_ROBOT_PRISMATIC)
            reach += ik_maxr(IK_FABS(lower[v]), IK_FABS(upper[v])) * IK_FABS(joint->multiplier);
    }
    if (!(reach > 0 && ik_finite(reach))) reach = 1;
    for (v = 0; v < chain->variable_count; ++v) {
        if (!ik_finite(job->q_start[v])) return ik_field_fail(error, IK_ERR_NONFINITE, "q_start", v);
        if (limited[v] && (job->q_start[v] < lower[v] || job->q_start[v] > upper[v]))
            return ik_field_fail(error, IK_ERR_RANGE, "q_start", v);
    }
    if (ik_robot_fk(chain, job->q_start, &ln->start, NULL) != IK_OK || !ik_transform_finite(ln->start))
        return ik_field_fail(error, IK_ERR_NONFINITE, "chain", -1);
    /* The line: N segments, each at most max_step long and max_rotation_step turned. */
    ln->goal.translation = job->goal_position_bs;
    ln->goal.rotation = ik_quat_normalize(job->goal_rotation_bs);
    ln->goal.scale = ln->start.scale;
    distance = ik_vec3_distance(ln->start.translation, ln->goal.translation);
    ik_quat_to_axis_angle(ik_quat_mul(ln->goal.rotation, ik_quat_conjugate(ln->start.rotation)), &ln->turn_axis,
                          &ln->turn_angle);
    angle = ln->turn_angle;
    if (!ik_finite(distance)) return ik_field_fail(error, IK_ERR_NONFINITE, "goal_position_bs", -1);
    count = ceil(fmax((double)distance / (double)job->max_step, (double)angle / (double)job->max_rotation_step) *
                 (1 - COUNT_SLACK));
    if (!(count < (double)IK_ROBOT_PATH_MAX_WAYPOINTS)) return ik_field_fail(error, IK_ERR_RANGE, "max_step", -1);
    ln->segments = count < 1 ? 1 : (int)count;
    /* The joint-step bound: ratio * (|dp| / L + |dtheta|) (see robot_path.h). */
    lever = reach * LEVER_SHARE;
    move = (distance / lever + angle) / (ik_real)ln->segments;
    ln->rotation_bound = job->max_joint_step > 0 ? job->max_joint_step : job->joint_step_ratio * move;
    ln->prismatic_bound = job->max_joint_step > 0 ? job->max_joint_step : job->joint_step_ratio * move * lever;
    if (ws) {
        for (v = 0; v < chain->variable_count; ++v) {
            ws->lower[v] = lower[v];
            ws->upper[v] = upper[v];
            ws->limited[v] = limited[v];
            ws->turns[v] = turns[v];
        }
    }
    return IK_OK;
}

ik_result ik_robot_path_waypoint_count(const ik_robot_path *job, int *count) {
    line ln;
    ik_result r;
    if (!job || !count) return IK_ERR_NULL;
    r = validate(job, NULL, &ln);
    if (r == IK_OK) *count = ln.segments + 1;
    return r;
}

/* The waypoint at s: p_0 + s (p_1 - p_0), and slerp(R_0, R_1, s) as the
 * turn by s angle about the axis of R_1 R_0^-1, then R_0 (the shorter arc
 * at constant speed, exactly: ik_quat_slerp's normalised-lerp shortcut for
 * turns under 3.6 degrees strays from it by up to 1e-6 rad). */
static ik_transform waypoint_pose(const line *ln, ik_real s) {
    ik_transform t = ln->start;
    t.translation = ik_vec3_lerp(ln->start.translation, ln->goal.translation, s);
    t.rotation = s == 1 ? ln->goal.rotation
                        : ik_quat_normalize(ik_quat_mul(ik_quat_from_axis_angle(ln->turn_axis, s * ln->turn_angle),
                                                        ln->start.rotation));
    return t;
}

/* ---- continuity ----------------------------------------------------------------- */

/* Each turning variable of q moved by whole turns to its copy nearest prev,
 * where that copy is inside its limits (always, for a variable without
 * limits: a continuous joint unwrapped along the path). */
static void nearest_copies(const workspace *ws, const ik_real *prev, ik_real *q, int n) {
    int v;
    for (v = 0; v < n; ++v) {
        ik_real copy;
        if (!ws->turns[v]) continue;
        copy = prev[v] + ik_wrap_angle(q[v] - prev[v]);
        if (!ws->limited[v] || (copy >= ws->lower[v] && copy <= ws->upper[v])) q[v] = copy;
    }
}

/* IK_ROBOT_PATH_COMPLETE when no variable moved further than its bound from
 * prev; else IK_ROBOT_PATH_LIMIT when one that did is a turning variable
 * whose nearest copy (within the bound) lies past a limit (the IK moved it
 * a whole turn back inside: the joint would have to unwind), else
 * IK_ROBOT_PATH_JUMP. */
static ik_robot_path_stop check_steps(const workspace *ws, const line *ln, const ik_real *prev, const ik_real *q,
                                      int n) {
    ik_robot_path_stop stop = IK_ROBOT_PATH_COMPLETE;
    int v;
    for (v = 0; v < n; ++v) {
        const ik_real bound = ws->turns[v] ? ln->rotation_bound : ln->prismatic_bound;
        if (IK_FABS(q[v] - prev[v]) <= bound) continue;
        if (ws->turns[v] && IK_FABS(ik_wrap_angle(q[v] - prev[v])) <= bound) return IK_ROBOT_PATH_LIMIT;
        stop = IK_ROBOT_PATH_JUMP;
    }
    return stop;
}

/* det J's sign below this share of the Hadamard bound (the product of the
 * columns' lengths, which |det J| never exceeds) is rounding: the
 * configuration counts as singular, on no branch (64 steps of ik_real). */
#define SINGULAR_SHARE (64 * (double)IK_REAL_EPSILON)

/* The sign of det J for a 6 x 6 Jacobian (column-major, jac[v * 6 + r]):
 * Gaussian elimination with partial pivoting, in double; -1 or 1, or 0
 * where |det J| is within rounding of 0 (SINGULAR_SHARE). */
static int det_sign(const ik_real *jac) {
    double a[6][6], det = 1, bound = 1;
    int i, j, k;
    for (j = 0; j < 6; ++j) {
        double length = 0;
        for (i = 0; i < 6; ++i) {
            a[i][j] = (double)jac[j * 6 + i];
            length += a[i][j] * a[i][j];
        }
        bound *= sqrt(length);
    }
    for (k = 0; k < 6; ++k) {
        int pivot = k;
        for (i = k + 1; i < 6; ++i)
            if (fabs(a[i][k]) > fabs(a[pivot][k])) pivot = i;
        if (a[pivot][k] == 0) return 0;
        if (pivot != k) {
            for (j = 0; j < 6; ++j) {
                double t = a[k][j];
                a[k][j] = a[pivot][j];
                a[pivot][j] = t;
            }
            det = -det;
        }
        det *= a[k][k];
        for (i = k + 1; i < 6; ++i) {
            const double f = a[i][k] / a[k][k];
            for (j = k; j < 6; ++j) a[i][j] -= f * a[k][j];
        }
    }
    if (!(fabs(det) > SINGULAR_SHARE * bound)) return 0;
    return det > 0 ? 1 : -1;
}

/* The branch of q: det J's sign for a 6-variable chain with keep_branch, else 0 (no test). */
static int branch_of(const ik_robot_path *job, const workspace *ws, const ik_real *q) {
    if (!job->keep_branch || job->chain->variable_count != 6) return 0;
    if (ik_robot_jacobian(job->chain, q, ws->jac) != IK_OK) return 0;
    return det_sign(ws->jac);
}

/* ---- the walk ----------------------------------------------------------------- */

/* One waypoint's pose IK from `prev` into ws->q: the seed only, no closed
 * form, no restart (the budget is one attempt). Returns 1 when reached. */
static ik_bool solve_waypoint(const ik_robot_path *job, workspace *ws, ik_transform pose, const ik_real *prev) {
    ik_robot_ik ik = ik_robot_ik_def();
    ik_bool reached = 0;
    ik.chain = job->chain;
    ik.goal_position_bs = pose.translation;
    ik.goal_rotation_bs = pose.rotation;
    ik.q_seed = prev;
    ik.position_tolerance = job->position_tolerance;
    ik.angle_tolerance = job->angle_tolerance;
    ik.max_iterations = job->waypoint_iterations;
    ik.attempt_iterations = job->waypoint_iterations;
    ik.stall_iterations = job->waypoint_iterations;
    ik.analytic_starts = 0;
    ik.scratch = ws->ik_scratch;
    ik.scratch_bytes = ik_robot_ik_scratch_size(job->chain->variable_count);
    ik.q_out = ws->q;
    ik.reached = &reached;
    return ik_robot_ik_run(&ik) == IK_OK && reached;
}

/* Waypoint 0 is q_start (when config_ok takes it); waypoint i at s = i / N
 * is solved from waypoint i - 1, moved to the nearest copies, and kept when
 * it is reached, within the joint-step bound, on the start's branch and
 * accepted by config_ok; the first that is not ends the walk. */
ik_result ik_robot_path_run(const ik_robot_path *job) {
    workspace ws;
    line ln;
    ik_robot_path_stop stop = IK_ROBOT_PATH_COMPLETE;
    int n, i, written = 0, branch = 0;
    ik_result r;
    if (!job) return IK_ERR_NULL;
    r = validate(job, NULL, &ln);
    if (r == IK_OK && !job->q_path) r = ik_field_fail(job->error_field, IK_ERR_NULL, "q_path", -1);
    if (r == IK_OK && !job->waypoint_count) r = ik_field_fail(job->error_field, IK_ERR_NULL, "waypoint_count", -1);
    if (r == IK_OK && !job->scratch) r = ik_field_fail(job->error_field, IK_ERR_NULL, "scratch", -1);
    if (r == IK_OK && job->scratch_bytes < ik_robot_path_scratch_size(job->chain->variable_count))
        r = ik_field_fail(job->error_field, IK_ERR_CAPACITY, "scratch_bytes", -1);
    if (r == IK_OK && job->max_waypoints < ln.segments + 1)
        r = ik_field_fail(job->error_field, IK_ERR_CAPACITY, "max_waypoints", -1);
    if (r != IK_OK) return r;
    n = job->chain->variable_count;
    lay_out(&ws, (char *)job->scratch, n);
    validate(job, &ws, &ln);
    if (job->config_ok && !job->config_ok(job->config_user, job->q_start, n)) {
        stop = IK_ROBOT_PATH_START_INVALID;
    } else {
        memcpy(job->q_path, job->q_start, (size_t)n * sizeof(ik_real));
        written = 1;
        branch = branch_of(job, &ws, job->q_start);
    }
    for (i = 1; written > 0 && i <= ln.segments; ++i) {
        const ik_real s = i == ln.segments ? 1 : (ik_real)((double)i / (double)ln.segments);
        const ik_real *prev = job->q_path + (size_t)(i - 1) * (size_t)n;
        int now;
        if (!solve_waypoint(job, &ws, waypoint_pose(&ln, s), prev)) {
            stop = IK_ROBOT_PATH_UNREACHED;
            break;
        }
        nearest_copies(&ws, prev, ws.q, n);
        stop = check_steps(&ws, &ln, prev, ws.q, n);
        if (stop != IK_ROBOT_PATH_COMPLETE) break;
        now = branch_of(job, &ws, ws.q);
        if (branch != 0 && now != 0 && now != branch) {
            stop = IK_ROBOT_PATH_BRANCH;
            break;
        }
        if (now != 0) branch = now;
        if (job->config_ok && !job->config_ok(job->config_user, ws.q, n)) {
            stop = IK_ROBOT_PATH_INVALID;
            break;
        }
        memcpy(job->q_path + (size_t)i * (size_t)n, ws.q, (size_t)n * sizeof(ik_real));
        written = i + 1;
    }
    *job->waypoint_count = written;
    if (job->fraction) *job->fraction = written > 0 ? (ik_real)((double)(written - 1) / (double)ln.segments) : 0;
    if (job->segments) *job->segments = ln.segments;
    if (job->stop) *job->stop = stop;
    ik_error_clear(job->error_field);
    return IK_OK;
}

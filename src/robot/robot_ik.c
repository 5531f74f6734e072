/* Robot pose IK: damped least squares on the 6-D twist error with joint
 * limits, closed-form starts and seeded random restarts (see
 * include/ikit/robot_ik.h). The job (defaults, validation, scratch layout),
 * each variable's limits, the error measure, one step, the closed-form
 * starts, and the loop with its stop and restart decisions. */
#include <ikit/ls_step.h>
#include <ikit/robot_ik.h>

#include <stdint.h>
#include <string.h>

#include "../solve/field_error.h"

#define TWO_PI (2 * IK_PI)
/* Limits a whole turn apart up to rounding: the float build rounds each URDF
 * limit inward (urdf.h), so the UR5's +-3.14159265359 span 2 pi less two float
 * steps, and must still turn (held at the limits instead, the UR5's TRAC-IK
 * protocol queries took 0.157 ms instead of 0.066 ms, and 99.94 % reached
 * instead of 99.98 %). */
#define TURN_SLACK (2 * IK_REAL_EPSILON * TWO_PI)
/* The length the damping's bias is measured in, as a share of the reach:
 * lambda^2 = |e|^2 / 2 + 1e-6 (0.1 reach)^2. With the whole reach, the
 * bias alone (lambda ~ 1e-3 reach) held goals near a singular pose a little
 * over 1e-5 short until the attempt stalled (2 of 10000 TRAC-IK protocol
 * queries on the IRB 2400, 1 on the UR5, in every restart); a tenth of it
 * solved all of them, and took fewer iterations on all three arms. */
#define DAMPING_SCALE ((ik_real)0.1)
/* Orientation rows are radians times this share of the reach, so a turn
 * weighs as the distance it moves a point a quarter of the reach away. With
 * the whole reach the rotation rows dominated J J^T; a quarter took 10-20 %
 * fewer iterations on the TRAC-IK protocol's UR5, Panda and IRB 2400 queries
 * and, in the float build, solved 99.99 % of the IRB 2400's instead of 99.79 %
 * (the factor's rounding-level shift, 16 eps trace(J J^T), grows with the
 * trace and damps near-singular poses). */
#define ORIENTATION_ARM ((ik_real)0.25)
/* An attempt gains when its weighted squared error falls below this share of its best. */
#define GAIN_FACTOR ((ik_real)0.999)

ik_robot_ik ik_robot_ik_def(void) {
    ik_robot_ik job;
    memset(&job, 0, sizeof job);
    job.defaulted = IK_JOB_DEFAULTED;
    job.goal_rotation_bs = ik_quat_identity();
    job.position_importance = 1;
    job.orientation_importance = 1;
    job.position_tolerance = ik_v3((ik_real)1e-5, (ik_real)1e-5, (ik_real)1e-5);
    job.angle_tolerance = ik_v3((ik_real)1e-5, (ik_real)1e-5, (ik_real)1e-5);
    job.max_iterations = 2000;
    job.time_budget_s = 0.005;
    job.attempt_iterations = 30;
    job.stall_iterations = 6;
    job.random_seed = 1;
    job.prefer = IK_ROBOT_PREFER_SEED;
    job.null_space_iterations = 30;
    job.analytic_starts = 1;
    return job;
}

const char *ik_robot_ik_start_str(ik_robot_ik_start start) {
    switch (start) {
        case IK_ROBOT_START_SEED:
            return "seed";
        case IK_ROBOT_START_ANALYTIC:
            return "analytic";
        case IK_ROBOT_START_ANALYTIC_REFINED:
            return "analytic, refined";
        case IK_ROBOT_START_RANDOM:
            return "random restart";
        default:
            return "unknown";
    }
}

/* ---- scratch ---------------------------------------------------------------- */

/* The solve's arrays in the caller's scratch block. */
typedef struct workspace {
    ik_real *jac;      /* 6 x n, as ik_robot_jacobian_tip writes it */
    ik_real *rows_jac; /* rows x n: the weighted rows the step solves */
    void *ls_scratch;  /* ik_ls_dls_scratch_size(6, n) */
    ik_real *step;     /* n */
    ik_real *target;   /* 6: the error rows left to the free variables */
    int *locked;       /* n: held at a limit during this step */
    ik_real *q;        /* n: the configuration being improved */
    ik_real *best;     /* n: the best configuration seen */
    ik_real *lower;    /* n: each variable's limits */
    ik_real *upper;
    int *kind; /* n: VARIABLE_LIMITED, VARIABLE_TURNS or VARIABLE_FREE_TURNS */
} workspace;

/* A variable's limits, clamped into; a rotational variable (every joint on
 * it revolute or continuous with multiplier +-1) whose limits span a full
 * turn, moved into them by whole turns; one with no limits at all (only
 * continuous joints), wrapped to (-pi, pi]. */
enum { VARIABLE_LIMITED, VARIABLE_TURNS, VARIABLE_FREE_TURNS };

static size_t align16(size_t bytes) { return (bytes + 15u) & ~(size_t)15u; }

/* Lays the workspace out from `base` (NULL: only counts); returns the bytes. */
static size_t lay_out(workspace *ws, char *base, int variables) {
    const size_t n = (size_t)variables, real = sizeof(ik_real);
    size_t used = 0;
#define CARVE(field, type, bytes)                                    \
    do {                                                             \
        ws->field = base ? (type)(void *)(base + used) : (type)NULL; \
        used += align16(bytes);                                      \
    } while (0)
    CARVE(jac, ik_real *, 6 * n * real);
    CARVE(rows_jac, ik_real *, 6 * n * real);
    CARVE(ls_scratch, void *, ik_ls_dls_scratch_size(6, variables));
    CARVE(step, ik_real *, n * real);
    CARVE(target, ik_real *, 6 * real);
    CARVE(locked, int *, n * sizeof(int));
    CARVE(q, ik_real *, n * real);
    CARVE(best, ik_real *, n * real);
    CARVE(lower, ik_real *, n * real);
    CARVE(upper, ik_real *, n * real);
    CARVE(kind, int *, n * sizeof(int));
#undef CARVE
    return used;
}

size_t ik_robot_ik_scratch_size(int variable_count) {
    workspace ws;
    if (variable_count < 0) return 0;
    return lay_out(&ws, NULL, variable_count);
}

/* ---- limits ----------------------------------------------------------------- */

/* Each variable's limits (ik_robot_variable_limits) and kind: a variable
 * turns when every joint on it is revolute or continuous with multiplier
 * +-1. Also the chain's reach: the summed joint offsets and prismatic
 * travel. */
static ik_result find_limits(const ik_robot_chain *chain, workspace *ws, ik_real *reach, ik_error *error) {
    ik_bool limited[IK_ROBOT_MAX_JOINTS], turns[IK_ROBOT_MAX_JOINTS];
    int k, v, bad;
    ik_result r = ik_robot_variable_limits(chain, ws->lower, ws->upper, limited, &bad);
    if (r != IK_OK) return ik_field_fail(error, r, "chain", bad);
    *reach = 0;
    for (v = 0; v < chain->variable_count; ++v) turns[v] = 1;
    for (k = 0; k < chain->joint_count; ++k) {
        const ik_robot_joint *joint = &chain->joints[k];
        *reach += ik_vec3_length(joint->origin.translation);
        if (joint->type == IK_ROBOT_FIXED) continue;
        v = joint->variable;
        if (joint->type == IK_ROBOT_PRISMATIC || IK_FABS(joint->multiplier) != 1) turns[v] = 0;
        if (joint->type == IK_ROBOT_PRISMATIC)
            *reach += ik_maxr(IK_FABS(ws->lower[v]), IK_FABS(ws->upper[v])) * IK_FABS(joint->multiplier);
    }
    for (v = 0; v < chain->variable_count; ++v) {
        if (!turns[v])
            ws->kind[v] = VARIABLE_LIMITED;
        else if (!limited[v])
            ws->kind[v] = VARIABLE_FREE_TURNS;
        else
            ws->kind[v] = ws->upper[v] - ws->lower[v] >= TWO_PI - TURN_SLACK ? VARIABLE_TURNS : VARIABLE_LIMITED;
    }
    if (!(*reach > 0)) *reach = 1;
    return IK_OK;
}

/* q_v inside its limits: wrapped to (-pi, pi] (free turns); for full-turn
 * limits, q_v = lower + ((q_v - lower) mod 2 pi) when outside them (the same
 * pose); clamped otherwise (and after the wrap, against rounding). */
static void bring_inside(const workspace *ws, ik_real *q, int n) {
    int v;
    for (v = 0; v < n; ++v) {
        ik_real x = q[v];
        if (ws->kind[v] == VARIABLE_FREE_TURNS) {
            q[v] = ik_wrap_angle(x);
            continue;
        }
        if (ws->kind[v] == VARIABLE_TURNS && (x < ws->lower[v] || x > ws->upper[v])) {
            ik_real turns = (ik_real)floor((double)((x - ws->lower[v]) / TWO_PI));
            x -= turns * TWO_PI;
        }
        q[v] = ik_clampr(x, ws->lower[v], ws->upper[v]);
    }
}

/* ---- the error -------------------------------------------------------------- */

/* The twist error from the tip to the goal: e_p = p_goal - p_tip and
 * e_r = rotation vector of R_goal R_tip^-1, both in the base frame. */
typedef struct twist_error {
    ik_vec3 position, rotation;
} twist_error;

static twist_error measure(const ik_robot_ik *job, ik_transform tip_bs) {
    twist_error e;
    ik_vec3 axis;
    ik_real angle;
    e.position = ik_vec3_sub(job->goal_position_bs, tip_bs.translation);
    ik_quat_to_axis_angle(ik_quat_mul(job->goal_rotation_bs, ik_quat_conjugate(tip_bs.rotation)), &axis, &angle);
    e.rotation = ik_vec3_scale(axis, angle);
    return e;
}

static ik_bool within(ik_vec3 e, ik_vec3 tolerance) {
    return IK_FABS(e.x) <= tolerance.x && IK_FABS(e.y) <= tolerance.y && IK_FABS(e.z) <= tolerance.z;
}

/* Every part with an importance is within its per-axis tolerance. */
static ik_bool reached_goal(const ik_robot_ik *job, const twist_error *e) {
    return (job->position_importance == 0 || within(e->position, job->position_tolerance)) &&
           (job->orientation_importance == 0 || within(e->rotation, job->angle_tolerance));
}

/* The weighted rows of a 6-vector (linear part, then angular part: a twist
 * error or a Jacobian column): the linear part times sqrt(w_p), the angular
 * part times sqrt(w_o) reach / 4, each part only when its weight is above 0;
 * returns the number of rows. */
static int weighted_rows(const ik_robot_ik *job, ik_real reach, const ik_real *six, ik_real *rows) {
    const ik_real sp = IK_SQRT(job->position_importance),
                  so = IK_SQRT(job->orientation_importance) * reach * ORIENTATION_ARM;
    int count = 0, i;
    if (job->position_importance > 0)
        for (i = 0; i < 3; ++i) rows[count++] = six[i] * sp;
    if (job->orientation_importance > 0)
        for (i = 3; i < 6; ++i) rows[count++] = six[i] * so;
    return count;
}

/* ---- one step --------------------------------------------------------------- */

/* Holds the variables whose step would leave their (clamped) limits at those
 * limits: each moves onto its limit by d, the error left for the others
 * becomes e - J_v d, and its column leaves J. Returns 1 when any was held. */
static ik_bool hold_at_limits(const workspace *ws, ik_real *q, int rows, int n) {
    ik_bool held = 0;
    int v, r;
    for (v = 0; v < n; ++v) {
        ik_real wanted, limited;
        if (ws->locked[v] || ws->kind[v] != VARIABLE_LIMITED) continue;
        wanted = q[v] + ws->step[v];
        limited = ik_clampr(wanted, ws->lower[v], ws->upper[v]);
        if (limited != wanted) {
            ik_real *column = ws->rows_jac + (size_t)rows * (size_t)v, moved = limited - q[v];
            for (r = 0; r < rows; ++r) {
                ws->target[r] -= column[r] * moved;
                column[r] = 0;
            }
            q[v] = limited;
            ws->locked[v] = 1;
            held = 1;
        }
    }
    return held;
}

/* The tip's Jacobian (into ws->jac) and twist error at ws->q: the error's
 * parts into *e, its weighted rows into e_rows. Returns the row count, 0
 * when the Jacobian cannot be taken. */
static int error_rows(const ik_robot_ik *job, workspace *ws, ik_real reach, ik_real *e_rows, twist_error *e) {
    ik_transform tip_bs;
    ik_real six[6];
    if (ik_robot_jacobian_tip(job->chain, ws->q, ws->jac, &tip_bs) != IK_OK) return 0;
    *e = measure(job, tip_bs);
    six[0] = e->position.x;
    six[1] = e->position.y;
    six[2] = e->position.z;
    six[3] = e->rotation.x;
    six[4] = e->rotation.y;
    six[5] = e->rotation.z;
    return weighted_rows(job, reach, six, e_rows);
}

/* The Jacobian's columns weighted as the error's rows are, into
 * ws->rows_jac (rows x variables, column-major). */
static void weight_jacobian(const ik_robot_ik *job, workspace *ws, ik_real reach, int rows) {
    int v;
    for (v = 0; v < job->chain->variable_count; ++v)
        weighted_rows(job, reach, ws->jac + 6 * v, ws->rows_jac + (size_t)rows * (size_t)v);
}

/* dq = J_w^T (J_w J_w^T + lambda^2 I)^-1 e_w over the weighted rows, with
 * lambda^2 = |e_w|^2 / 2 + 1e-6 (0.1 reach)^2 (Sugihara 2011), repeated with the
 * variables it would push past a limit held there (Baerlocher and Boulic
 * 2004's clamping loop: at most one round per variable, as each round holds
 * one more), so the free variables make up for the held ones instead of the
 * attempt stalling against a limit; then q += dq, brought inside the limits.
 * Returns 0 when the Jacobian cannot be factored. */
static ik_bool take_step(const ik_robot_ik *job, workspace *ws, const ik_real *e_rows, int rows, ik_real reach) {
    const int n = job->chain->variable_count;
    const ik_real damping_sq = ik_ls_dls_adaptive_damping_sq(e_rows, rows, reach * DAMPING_SCALE);
    ik_ls ls;
    int v;
    weight_jacobian(job, ws, reach, rows);
    ls.jac = ws->rows_jac;
    ls.rows = rows;
    ls.cols = n;
    memcpy(ws->target, e_rows, (size_t)rows * sizeof(ik_real));
    for (v = 0; v < n; ++v) ws->locked[v] = 0;
    do {
        if (!ik_ls_dls_factor(&ls, damping_sq, ws->ls_scratch)) return 0;
        ik_ls_dls_solve(&ls, ws->ls_scratch, ws->target, ws->step);
    } while (hold_at_limits(ws, ws->q, rows, n));
    for (v = 0; v < n; ++v)
        if (!ws->locked[v]) ws->q[v] += ws->step[v];
    bring_inside(ws, ws->q, n);
    return 1;
}

/* ---- validation ------------------------------------------------------------- */

static ik_bool positive_finite(ik_vec3 v) { return ik_vec3_finite(v) && v.x > 0 && v.y > 0 && v.z > 0; }

static ik_result validate(const ik_robot_ik *job) {
    ik_error *error = job->error_field;
    const ik_robot_chain *chain = job->chain;
    ik_real length;
    ik_result r;
    int k, bad_joint;
    if (job->defaulted != IK_JOB_DEFAULTED) return ik_field_fail(error, IK_ERR_NOT_DEFAULTED, "defaulted", -1);
    r = ik_robot_chain_check(chain, &bad_joint);
    if (r != IK_OK) return ik_field_fail(error, r, "chain", bad_joint);
    if (chain->variable_count < 1) return ik_field_fail(error, IK_ERR_RANGE, "chain", -1);
    if (!job->q_seed) return ik_field_fail(error, IK_ERR_NULL, "q_seed", -1);
    if (!job->q_out) return ik_field_fail(error, IK_ERR_NULL, "q_out", -1);
    if (!job->scratch) return ik_field_fail(error, IK_ERR_NULL, "scratch", -1);
    if (job->scratch_bytes < ik_robot_ik_scratch_size(chain->variable_count))
        return ik_field_fail(error, IK_ERR_CAPACITY, "scratch_bytes", -1);
    if (!ik_vec3_finite(job->goal_position_bs)) return ik_field_fail(error, IK_ERR_NONFINITE, "goal_position_bs", -1);
    if (!ik_quat_finite(job->goal_rotation_bs)) return ik_field_fail(error, IK_ERR_NONFINITE, "goal_rotation_bs", -1);
    length = ik_quat_length(job->goal_rotation_bs);
    if (job->orientation_importance != 0 && IK_FABS(length - 1) > (ik_real)1e-3)
        return ik_field_fail(error, IK_ERR_RANGE, "goal_rotation_bs", -1);
    if (!ik_finite(job->position_importance)) return ik_field_fail(error, IK_ERR_NONFINITE, "position_importance", -1);
    if (!ik_finite(job->orientation_importance))
        return ik_field_fail(error, IK_ERR_NONFINITE, "orientation_importance", -1);
    if (job->position_importance < 0 || (job->position_importance == 0 && job->orientation_importance == 0))
        return ik_field_fail(error, IK_ERR_RANGE, "position_importance", -1);
    if (job->orientation_importance < 0) return ik_field_fail(error, IK_ERR_RANGE, "orientation_importance", -1);
    if (!positive_finite(job->position_tolerance)) return ik_field_fail(error, IK_ERR_RANGE, "position_tolerance", -1);
    if (!positive_finite(job->angle_tolerance)) return ik_field_fail(error, IK_ERR_RANGE, "angle_tolerance", -1);
    if (job->max_iterations < 1) return ik_field_fail(error, IK_ERR_RANGE, "max_iterations", -1);
    if (job->clock_s && !(job->time_budget_s > 0 && job->time_budget_s < 1e300))
        return ik_field_fail(error, IK_ERR_RANGE, "time_budget_s", -1);
    if (job->attempt_iterations < 1) return ik_field_fail(error, IK_ERR_RANGE, "attempt_iterations", -1);
    if (job->stall_iterations < 1) return ik_field_fail(error, IK_ERR_RANGE, "stall_iterations", -1);
    if (!ik_finite(job->null_space_gain)) return ik_field_fail(error, IK_ERR_NONFINITE, "null_space_gain", -1);
    if (!(job->null_space_gain >= 0 && job->null_space_gain <= 1))
        return ik_field_fail(error, IK_ERR_RANGE, "null_space_gain", -1);
    if (job->prefer != IK_ROBOT_PREFER_SEED && job->prefer != IK_ROBOT_PREFER_MID_RANGE)
        return ik_field_fail(error, IK_ERR_RANGE, "prefer", -1);
    if (job->null_space_iterations < 0) return ik_field_fail(error, IK_ERR_RANGE, "null_space_iterations", -1);
    if (job->analytic_model && job->analytic_model->kind != IK_ROBOT_ANALYTIC_NONE &&
        job->analytic_model->chain != chain)
        return ik_field_fail(error, IK_ERR_RANGE, "analytic_model", -1);
    for (k = 0; k < chain->variable_count; ++k)
        if (!ik_finite(job->q_seed[k])) return ik_field_fail(error, IK_ERR_NONFINITE, "q_seed", k);
    return IK_OK;
}

/* Seed values outside their limits are refused (continuous ones are wrapped). */
static ik_result check_seed(const ik_robot_ik *job, const workspace *ws) {
    int v;
    for (v = 0; v < job->chain->variable_count; ++v)
        if (ws->kind[v] != VARIABLE_FREE_TURNS && (job->q_seed[v] < ws->lower[v] || job->q_seed[v] > ws->upper[v]))
            return ik_field_fail(job->error_field, IK_ERR_RANGE, "q_seed", v);
    return IK_OK;
}

/* ---- the secondary objective ------------------------------------------------ */

/* H = sum_v w_v d_v^2 / 2 at q, and when `z` is not NULL its descent
 * direction z_v = gain w_v d_v (see robot_ik.h): d_v = seed_v - q_v (the
 * short way round for turning variables) and w_v = 1, or d_v = mid_v - q_v
 * and w_v = (h_min / h_v)^2 over the limited variables. */
static ik_real null_space_objective(const ik_robot_ik *job, const workspace *ws, const ik_real *q, ik_real gain,
                                    ik_real *z) {
    const int n = job->chain->variable_count;
    const ik_bool mid_range = job->prefer == IK_ROBOT_PREFER_MID_RANGE;
    ik_real h_min = IK_REAL_MAX, objective = 0;
    int v;
    for (v = 0; v < n && mid_range; ++v)
        if (ws->kind[v] == VARIABLE_LIMITED && ws->upper[v] > ws->lower[v])
            h_min = ik_minr(h_min, (ws->upper[v] - ws->lower[v]) / 2);
    for (v = 0; v < n; ++v) {
        ik_real d = 0, w = 0;
        if (!mid_range) {
            d = job->q_seed[v] - q[v];
            if (ws->kind[v] != VARIABLE_LIMITED) d = ik_wrap_angle(d);
            w = 1;
        } else if (ws->kind[v] == VARIABLE_LIMITED && ws->upper[v] > ws->lower[v]) {
            ik_real h = (ws->upper[v] - ws->lower[v]) / 2;
            d = (ws->lower[v] + ws->upper[v]) / 2 - q[v];
            w = (h_min / h) * (h_min / h);
        }
        objective += w * d * d / 2;
        if (z) z[v] = gain * w * d;
    }
    return objective;
}

/* The null-space polish once the goal is reached (Liegeois 1977): from the
 * best q, move by (I - J^+ J) z (ik_ls_dls_project_null; the task error
 * changes only to second order), then take up to 3 ordinary steps until
 * the goal is within tolerance again; keep the result when it is and H has
 * fallen by 0.1 %, else halve the gain. Stops after null_space_iterations
 * tries or when the gain falls under 1/16 of its start. */
static void polish_in_null_space(const ik_robot_ik *job, workspace *ws, ik_real reach) {
    const int n = job->chain->variable_count;
    ik_real gain = job->null_space_gain, objective = null_space_objective(job, ws, ws->best, 0, NULL), e_rows[6];
    int i, v, correction;
    for (i = 0; i < job->null_space_iterations && gain >= job->null_space_gain / 16; ++i) {
        ik_bool reached = 0;
        ik_real moved_objective;
        twist_error e;
        ik_ls ls;
        memcpy(ws->q, ws->best, (size_t)n * sizeof(ik_real));
        ls.rows = error_rows(job, ws, reach, e_rows, &e);
        if (ls.rows == 0) return;
        weight_jacobian(job, ws, reach, ls.rows);
        ls.jac = ws->rows_jac;
        ls.cols = n;
        null_space_objective(job, ws, ws->q, gain, ws->step);
        ik_ls_dls_project_null(&ls, ws->ls_scratch, ws->step);
        for (v = 0; v < n; ++v) ws->q[v] += ws->step[v];
        bring_inside(ws, ws->q, n);
        for (correction = 0; correction <= 3; ++correction) {
            int rows = error_rows(job, ws, reach, e_rows, &e);
            reached = rows > 0 && reached_goal(job, &e);
            if (reached || rows == 0 || correction == 3 || !take_step(job, ws, e_rows, rows, reach)) break;
        }
        moved_objective = reached ? null_space_objective(job, ws, ws->q, 0, NULL) : objective;
        if (reached && moved_objective < objective * GAIN_FACTOR) {
            objective = moved_objective;
            memcpy(ws->best, ws->q, (size_t)n * sizeof(ik_real));
        } else {
            gain /= 2;
        }
    }
}

/* ---- closed-form starts ------------------------------------------------------ */

static ik_real smallest(ik_vec3 v) { return ik_minr(v.x, ik_minr(v.y, v.z)); }

/* One solve's closed-form starts, asked for only once the seed has not
 * reached the goal: first the solutions inside the limits, in the order
 * `prefer` gives; once those are used up, the solutions beyond the limits
 * (solved without them) clamped into them, for the steps to refine. */
typedef struct closed_starts {
    ik_robot_analytic_model prepared;     /* when the job brings no model */
    const ik_robot_analytic_model *model; /* NULL once there is nothing (more) to ask */
    ik_real q[IK_ROBOT_ANALYTIC_MAX_SOLUTIONS * 6];
    int count, next;
    ik_bool clamped; /* q holds the clamped solutions */
} closed_starts;

/* The closed-form solutions of `model` (ik_robot_analytic, checked by its FK
 * within the job's finest tolerances) into q_out; their count. A part with
 * importance 0 is asked at the seed's tip (its position, or its orientation). */
static int closed_form(const ik_robot_ik *job, const ik_robot_analytic_model *model, ik_real *q_out) {
    ik_robot_analytic closed = ik_robot_analytic_def();
    ik_transform seed_tip;
    int count = 0;
    if (ik_robot_fk(job->chain, job->q_seed, &seed_tip, NULL) != IK_OK) return 0;
    closed.model = model;
    closed.goal_position_bs = job->position_importance > 0 ? job->goal_position_bs : seed_tip.translation;
    closed.goal_rotation_bs = job->orientation_importance > 0 ? job->goal_rotation_bs : seed_tip.rotation;
    closed.q_seed = job->q_seed;
    closed.prefer = job->prefer;
    closed.position_tolerance = smallest(job->position_tolerance);
    closed.angle_tolerance = smallest(job->angle_tolerance);
    closed.q_out = q_out;
    closed.solution_count = &count;
    return ik_robot_analytic_run(&closed) == IK_OK ? count : 0;
}

/* The first batch: the job's model, or one prepared from the chain; none
 * when the option is off or the chain has no closed form. */
static void first_closed_starts(const ik_robot_ik *job, closed_starts *cs) {
    cs->count = cs->next = 0;
    cs->clamped = 0;
    cs->model = job->analytic_model;
    if (!job->analytic_starts || job->chain->variable_count != 6)
        cs->model = NULL;
    else if (!cs->model && ik_robot_analytic_prepare(job->chain, &cs->prepared, NULL) == IK_OK)
        cs->model = &cs->prepared;
    if (cs->model && cs->model->kind == IK_ROBOT_ANALYTIC_NONE) cs->model = NULL;
    if (cs->model) cs->count = closed_form(job, cs->model, cs->q);
}

/* The solutions of the model without limits that lie beyond them, clamped
 * into them (bring_inside; the others were in the first batch). */
static void clamped_closed_starts(const ik_robot_ik *job, const workspace *ws, closed_starts *cs) {
    ik_robot_analytic_model unlimited = *cs->model;
    ik_real beyond[IK_ROBOT_ANALYTIC_MAX_SOLUTIONS * 6];
    int count, i, v;
    for (v = 0; v < 6; ++v) unlimited.limited[v] = 0;
    count = closed_form(job, &unlimited, beyond);
    cs->count = cs->next = 0;
    cs->clamped = 1;
    for (i = 0; i < count; ++i) {
        ik_real *q = cs->q + 6 * cs->count;
        memcpy(q, beyond + 6 * i, 6 * sizeof(ik_real));
        bring_inside(ws, q, 6);
        if (memcmp(q, beyond + 6 * i, 6 * sizeof(ik_real)) != 0) ++cs->count;
    }
}

/* The next closed-form start into q; 0 when none is left. */
static ik_bool next_closed_start(const ik_robot_ik *job, const workspace *ws, closed_starts *cs, ik_real *q) {
    if (cs->next >= cs->count && cs->model && !cs->clamped) clamped_closed_starts(job, ws, cs);
    if (cs->next >= cs->count) return 0;
    memcpy(q, cs->q + 6 * cs->next++, 6 * sizeof(ik_real));
    return 1;
}

/* ---- the solve -------------------------------------------------------------- */

/* The loop: measure the error at q, keep the best q, stop when within
 * tolerance or out of budget; once the seed has not reached the goal, and
 * each time an attempt stalls, start from the next closed-form solution
 * while any is left, then from a random q; else take a step. */
ik_result ik_robot_ik_run(const ik_robot_ik *job) {
    workspace ws;
    ik_transform tip_bs;
    twist_error e;
    ik_real reach, e_rows[6], best_error = IK_REAL_MAX, attempt_best = IK_REAL_MAX;
    closed_starts closed;
    ik_bool reached = 0, closed_asked = 0;
    ik_robot_ik_start attempt_start = IK_ROBOT_START_SEED, best_start = IK_ROBOT_START_SEED;
    int n, iterations = 0, restarts = 0, attempt = 0, stalled = 0;
    uint64_t state;
    double start = 0;
    ik_result r = validate(job);
    if (r != IK_OK) return r;
    n = job->chain->variable_count;
    lay_out(&ws, (char *)job->scratch, n);
    r = find_limits(job->chain, &ws, &reach, job->error_field);
    if (r == IK_OK) r = check_seed(job, &ws);
    if (r != IK_OK) return r;
    state = (uint64_t)job->random_seed;
    if (job->clock_s) start = job->clock_s(job->clock_user);
    memcpy(ws.q, job->q_seed, (size_t)n * sizeof(ik_real));
    bring_inside(&ws, ws.q, n);
    memcpy(ws.best, ws.q, (size_t)n * sizeof(ik_real));
    for (;;) {
        ik_real error;
        ik_bool attempt_over;
        int rows;
        if ((rows = error_rows(job, &ws, reach, e_rows, &e)) == 0) break;
        error = ik_ls_dot(e_rows, e_rows, rows);
        reached = reached_goal(job, &e);
        if (error < best_error || reached) {
            best_error = error;
            best_start = attempt_start == IK_ROBOT_START_ANALYTIC && attempt > 0 ? IK_ROBOT_START_ANALYTIC_REFINED
                                                                                 : attempt_start;
            memcpy(ws.best, ws.q, (size_t)n * sizeof(ik_real));
        }
        if (reached || iterations >= job->max_iterations) break;
        if (job->clock_s && job->clock_s(job->clock_user) - start >= job->time_budget_s) break;
        /* Stall: no 0.1 % gain on the attempt's best for stall_iterations. */
        if (error < attempt_best * GAIN_FACTOR) {
            attempt_best = error;
            stalled = 0;
        } else {
            ++stalled;
        }
        attempt_over = attempt >= job->attempt_iterations || stalled >= job->stall_iterations;
        if (!closed_asked) {
            first_closed_starts(job, &closed);
            closed_asked = 1;
        }
        if ((attempt_over || (attempt_start == IK_ROBOT_START_SEED && iterations == 0)) &&
            next_closed_start(job, &ws, &closed, ws.q)) {
            attempt_start = IK_ROBOT_START_ANALYTIC;
            attempt = 0;
            stalled = 0;
            attempt_best = IK_REAL_MAX;
            continue;
        }
        if (attempt_over) {
            ik_robot_random_configuration(ws.lower, ws.upper, n, &state, ws.q);
            attempt_start = IK_ROBOT_START_RANDOM;
            ++restarts;
            attempt = 0;
            stalled = 0;
            attempt_best = IK_REAL_MAX;
            continue;
        }
        /* A Jacobian that cannot be factored ends the attempt. */
        attempt = take_step(job, &ws, e_rows, rows, reach) ? attempt + 1 : job->attempt_iterations;
        ++iterations;
    }
    if (reached && job->null_space_gain > 0) polish_in_null_space(job, &ws, reach);
    memcpy(job->q_out, ws.best, (size_t)n * sizeof(ik_real));
    if (!reached || job->null_space_gain > 0) {
        ik_robot_fk(job->chain, ws.best, &tip_bs, NULL);
        e = measure(job, tip_bs);
    }
    if (job->reached) *job->reached = reached;
    if (job->position_error) *job->position_error = job->position_importance > 0 ? ik_vec3_length(e.position) : 0;
    if (job->angle_error) *job->angle_error = job->orientation_importance > 0 ? ik_vec3_length(e.rotation) : 0;
    if (job->iterations) *job->iterations = iterations;
    if (job->restarts) *job->restarts = restarts;
    if (job->found_by) *job->found_by = best_start;
    ik_error_clear(job->error_field);
    return IK_OK;
}

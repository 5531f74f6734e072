/* Analytic robot IK (see include/ikit/robot_analytic.h): the chain's axes at
 * zero and which closed form fits them, the canonical subproblems of Elias
 * and Wen's IK-Geo (2022), the two closed forms built from them, and the
 * mapping of each solution into the limits, its FK check and the sort. */
#include <ikit/robot_analytic.h>

#include <math.h>
#include <string.h>

#include "../solve/field_error.h"

#define TWO_PI (2 * IK_PI)
#define PI_DOUBLE 3.14159265358979323846
/* Limits a whole turn apart up to the inward rounding of URDF limits in float (robot_ik.c). */
#define TURN_SLACK (2 * IK_REAL_EPSILON * TWO_PI)

#ifdef IKIT_DOUBLE
/* Axes are parallel below this sine, and meet below this share of the reach. */
#define GEOMETRY_TOL 1e-5
/* A cos t + b sin t = c has no defined t when |(a, b)| falls below this share of its scale. */
#define FREE_TOL 1e-10
/* |c| / |(a, b)| may pass 1 by this much (rounding at a tangent pose) and still give a solution. */
#define TANGENT_SLACK 1e-9
/* Solutions closer than this in every variable are one. */
#define SAME_TOL 1e-7
/* A double root's two branches are reported at least this far either side
 * of it (see solve_cos_sin). */
#define ROOT_SPLIT 1.4e-6
/* An angle this far past a limit is taken as on it (rounding). */
#define LIMIT_SLACK 1e-7
#else
#define GEOMETRY_TOL 1e-4f
#define FREE_TOL 1e-6f
#define TANGENT_SLACK 1e-5f
#define SAME_TOL 1e-4f
#define ROOT_SPLIT 1.4e-3
/* Four float steps at pi: the angle is clamped onto the limit, and the FK
 * check (on the unclamped angle) cannot see the move, so it stays far below
 * the 1e-5 tolerance (it was SAME_TOL, 1e-4: a solution up to 1e-4 rad past
 * a limit was clamped and returned, off the goal by up to 1e-4 per metre). */
#define LIMIT_SLACK 1e-6f
#endif

/* ---- double-precision vectors and rotations ----------------------------------- */

/* The closed forms work in double in both builds: near a singular pose
 * (sin theta_5 ~ 0.01 on the UR5) they amplify rounding by 1 / sin, which in
 * float left 1 in 500 of the TRAC-IK protocol's solutions a little over 1e-5
 * from the goal. */
typedef struct dvec {
    double x, y, z;
} dvec;

typedef struct drot {
    double m[9]; /* row-major */
} drot;

static dvec dv(double x, double y, double z) {
    dvec v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}
static dvec dv_from(ik_vec3 v) { return dv(v.x, v.y, v.z); }
static dvec dv_load(const double v[3]) { return dv(v[0], v[1], v[2]); }
static dvec dv_add(dvec a, dvec b) { return dv(a.x + b.x, a.y + b.y, a.z + b.z); }
static dvec dv_sub(dvec a, dvec b) { return dv(a.x - b.x, a.y - b.y, a.z - b.z); }
static dvec dv_neg(dvec a) { return dv(-a.x, -a.y, -a.z); }
static double dv_dot(dvec a, dvec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static dvec dv_cross(dvec a, dvec b) { return dv(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
static double dv_length(dvec a) { return sqrt(dv_dot(a, a)); }
static dvec dv_unit(dvec a) {
    double len = dv_length(a);
    return dv(a.x / len, a.y / len, a.z / len);
}

/* An angle with its cosine and sine. The subproblems give both with the
 * angle (atan2's and acos's arguments), so no rotation in the solve or in
 * its FK check calls sin or cos. */
typedef struct dangle {
    double t, c, s;
} dangle;

static dangle angle_cs(double t, double c, double s) {
    dangle a;
    a.t = t;
    a.c = c;
    a.s = s;
    return a;
}
static dangle angle_neg(dangle a) { return angle_cs(-a.t, a.c, -a.s); }
/* a + b: cos(a + b) = cos a cos b - sin a sin b, sin(a + b) = sin a cos b + cos a sin b. */
static dangle angle_add(dangle a, dangle b) {
    return angle_cs(a.t + b.t, a.c * b.c - a.s * b.s, a.s * b.c + a.c * b.s);
}

/* The matrix of a quaternion, normalized in double: a float quaternion 1e-7
 * off unit length scales R h_6 by that much, and theta_5 = acos(h_2 . R h_6)
 * magnifies it by 1 / sin theta_5. */
static drot rot_from_quat(ik_quat q) {
    const double n = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
    const double x = q.x / n, y = q.y / n, z = q.z / n, w = q.w / n;
    drot r;
    r.m[0] = 1 - 2 * (y * y + z * z);
    r.m[1] = 2 * (x * y - z * w);
    r.m[2] = 2 * (x * z + y * w);
    r.m[3] = 2 * (x * y + z * w);
    r.m[4] = 1 - 2 * (x * x + z * z);
    r.m[5] = 2 * (y * z - x * w);
    r.m[6] = 2 * (x * z - y * w);
    r.m[7] = 2 * (y * z + x * w);
    r.m[8] = 1 - 2 * (x * x + y * y);
    return r;
}

/* R(k, t) x = cos t x + sin t (k x x) + (1 - cos t)(k . x) k (Rodrigues), k
 * unit: a vector turned without building the matrix. */
static dvec rot_about(dvec k, dangle t, dvec x) {
    const dvec kx = dv_cross(k, x);
    const double along = (1 - t.c) * dv_dot(k, x);
    return dv(t.c * x.x + t.s * kx.x + along * k.x, t.c * x.y + t.s * kx.y + along * k.y,
              t.c * x.z + t.s * kx.z + along * k.z);
}

static drot rot_mul(drot a, drot b) {
    drot r;
    int i, j;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j)
            r.m[3 * i + j] = a.m[3 * i] * b.m[j] + a.m[3 * i + 1] * b.m[3 + j] + a.m[3 * i + 2] * b.m[6 + j];
    return r;
}

static drot rot_transpose(drot a) {
    drot r;
    int i, j;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) r.m[3 * i + j] = a.m[3 * j + i];
    return r;
}

static dvec rot_apply(drot r, dvec v) {
    return dv(r.m[0] * v.x + r.m[1] * v.y + r.m[2] * v.z, r.m[3] * v.x + r.m[4] * v.y + r.m[5] * v.z,
              r.m[6] * v.x + r.m[7] * v.y + r.m[8] * v.z);
}

/* The part of v across the unit `axis`: v - (axis . v) axis. */
static dvec across_axis_part(dvec v, dvec axis) {
    const double along = dv_dot(v, axis);
    return dv_sub(v, dv(axis.x * along, axis.y * along, axis.z * along));
}

/* A unit vector across `axis` (the part of `along` off it). */
static dvec across_axis(dvec along, dvec axis) { return dv_unit(across_axis_part(along, axis)); }

/* ---- the model -------------------------------------------------------------- */

const char *ik_robot_analytic_kind_str(ik_robot_analytic_kind kind) {
    switch (kind) {
        case IK_ROBOT_ANALYTIC_SPHERICAL_WRIST:
            return "spherical wrist";
        case IK_ROBOT_ANALYTIC_THREE_PARALLEL:
            return "three parallel axes";
        default:
            return "none";
    }
}

static ik_bool parallel(ik_vec3 a, ik_vec3 b) { return ik_vec3_length(ik_vec3_cross(a, b)) < GEOMETRY_TOL; }

/* The midpoint of the shortest segment between two non-parallel lines
 * p_a + s h_a and p_b + t h_b, and its length in *gap:
 * s = ((p_b - p_a) x h_b) . n / |n|^2, t = ((p_b - p_a) x h_a) . n / |n|^2, n = h_a x h_b. */
static ik_vec3 meeting_point(ik_vec3 pa, ik_vec3 ha, ik_vec3 pb, ik_vec3 hb, ik_real *gap) {
    ik_vec3 n = ik_vec3_cross(ha, hb), d = ik_vec3_sub(pb, pa);
    ik_real nn = ik_vec3_dot(n, n);
    ik_vec3 ca = ik_vec3_mad(pa, ha, ik_vec3_dot(ik_vec3_cross(d, hb), n) / nn);
    ik_vec3 cb = ik_vec3_mad(pb, hb, ik_vec3_dot(ik_vec3_cross(d, ha), n) / nn);
    *gap = ik_vec3_distance(ca, cb);
    return ik_vec3_lerp(ca, cb, (ik_real)0.5);
}

/* Distance from point x to the line p + t h (h unit): |(x - p) x h|. */
static ik_real line_distance(ik_vec3 x, ik_vec3 p, ik_vec3 h) {
    return ik_vec3_length(ik_vec3_cross(ik_vec3_sub(x, p), h));
}

static ik_result refuse(ik_robot_analytic_model *model, const char **why, const char *reason) {
    memset(model, 0, sizeof *model);
    if (why) *why = reason;
    return IK_ERR_UNSUPPORTED;
}

/* Which closed form fits: a spherical wrist (axes 4, 5 meet in w, axis 6
 * passes through w, axes 2 and 3 parallel and apart), else three parallel
 * axes (2, 3, 4 parallel, 3 apart from 2, axes 5 and 6 meet in c, axis 5
 * not parallel to 2); both need axis 1 not parallel to axis 2. */
static const char *classify(ik_robot_analytic_model *m, ik_real reach) {
    const ik_vec3 *h = m->axis_bs, *p = m->point_bs;
    const ik_real near = GEOMETRY_TOL * reach;
    ik_real gap;
    if (parallel(h[0], h[1])) return "axes 1 and 2 are parallel";
    if (!parallel(h[1], h[2])) return "axes 2 and 3 are not parallel (no closed form for this arm)";
    if (line_distance(p[2], p[1], h[1]) < near) return "axes 2 and 3 coincide";
    if (!parallel(h[3], h[4]) && !parallel(h[4], h[5])) {
        ik_vec3 w = meeting_point(p[3], h[3], p[4], h[4], &gap);
        if (gap < near && line_distance(w, p[5], h[5]) < near) {
            m->kind = IK_ROBOT_ANALYTIC_SPHERICAL_WRIST;
            m->center_bs = w;
            return NULL;
        }
    }
    if (!parallel(h[2], h[3])) return "axes 4, 5, 6 do not meet in a point and axes 2, 3, 4 are not parallel";
    if (parallel(h[4], h[5])) return "axes 5 and 6 are parallel";
    if (parallel(h[1], h[4])) return "axis 5 is parallel to axes 2, 3, 4";
    m->center_bs = meeting_point(p[4], h[4], p[5], h[5], &gap);
    if (!(gap < near)) return "axes 2, 3, 4 are parallel but axes 5 and 6 do not meet";
    m->kind = IK_ROBOT_ANALYTIC_THREE_PARALLEL;
    return NULL;
}

static void store(double to[3], dvec v) {
    to[0] = v.x;
    to[1] = v.y;
    to[2] = v.z;
}

/* The model's geometry in double for the solve: the axes made unit again in
 * double (a float axis 1e-7 off unit length would scale what it turns), and
 * R_M^T. */
static void keep_in_double(ik_robot_analytic_model *m) {
    dvec h[6];
    drot home = rot_transpose(rot_from_quat(m->home_tip_bs.rotation));
    int i;
    for (i = 0; i < 6; ++i) {
        h[i] = dv_unit(dv_from(m->axis_bs[i]));
        store(m->solve_bs.axis[i], h[i]);
        store(m->solve_bs.point[i], dv_from(m->point_bs[i]));
        store(m->solve_bs.point_across[i], across_axis_part(dv_from(m->point_bs[i]), h[i]));
        store(m->solve_bs.axis_cross_point[i], dv_cross(h[i], dv_from(m->point_bs[i])));
    }
    store(m->solve_bs.center, dv_from(m->center_bs));
    store(m->solve_bs.home_tip, dv_from(m->home_tip_bs.translation));
    memcpy(m->solve_bs.home_rotation_t, home.m, sizeof home.m);
    store(m->solve_bs.across_4, across_axis(h[4], h[3]));
    store(m->solve_bs.across_6, across_axis(h[4], h[5]));
}

/* Each moving joint's axis h_i and point p_i in the base frame at joint
 * values 0 (frame_i = origin_1 ... origin_i), and the tip there (M). */
ik_result ik_robot_analytic_prepare(const ik_robot_chain *chain, ik_robot_analytic_model *model, const char **why) {
    ik_real lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS], reach = 0;
    ik_bool limited[IK_ROBOT_MAX_JOINTS];
    ik_transform frame = ik_transform_identity();
    const char *reason;
    int k, n = 0;
    ik_result r;
    if (why) *why = NULL;
    if (!model) return IK_ERR_NULL;
    memset(model, 0, sizeof *model);
    if (!chain) return IK_ERR_NULL;
    r = ik_robot_variable_limits(chain, lower, upper, limited, NULL);
    if (r != IK_OK) return r;
    if (chain->variable_count != 6) return refuse(model, why, "analytic IK needs exactly 6 joint variables");
    for (k = 0; k < chain->joint_count; ++k) {
        const ik_robot_joint *joint = &chain->joints[k];
        if (!ik_transform_finite(joint->origin) || !ik_vec3_finite(joint->axis)) return IK_ERR_NONFINITE;
        frame = ik_transform_mul(frame, joint->origin);
        reach += ik_vec3_length(joint->origin.translation);
        if (joint->type == IK_ROBOT_FIXED) continue;
        if (joint->type == IK_ROBOT_PRISMATIC)
            return refuse(model, why, "a prismatic joint (analytic IK is for 6R arms)");
        if (n >= 6 || joint->variable != n)
            return refuse(model, why, "a mimic joint (each variable must move one joint, in chain order)");
        if (!(ik_vec3_length(joint->axis) > 0)) return IK_ERR_DEGENERATE;
        model->axis_bs[n] = ik_vec3_normalize(ik_quat_rotate(frame.rotation, joint->axis));
        model->point_bs[n] = frame.translation;
        model->multiplier[n] = joint->multiplier;
        model->offset[n] = joint->offset;
        model->lower[n] = lower[n];
        model->upper[n] = upper[n];
        model->limited[n] = limited[n];
        ++n;
    }
    if (!ik_transform_finite(frame)) return IK_ERR_NONFINITE;
    model->home_tip_bs = frame;
    model->chain = chain;
    reason = classify(model, reach > 0 ? reach : 1);
    if (reason) return refuse(model, why, reason);
    keep_in_double(model);
    return IK_OK;
}

/* ---- subproblems (Elias and Wen, IK-Geo 2022) ------------------------------ */

/* a cos t + b sin t = c: t = phi +- delta with phi = atan2(b, a) and
 * delta = acos(x), x = c / |(a, b)|; their cosines and sines by the angle
 * sum: cos phi = a / |(a, b)|, sin phi = b / |(a, b)|, cos delta = x,
 * sin delta = sqrt((1 - x)(1 + x)), so delta = atan2(sin delta, x) (libm's
 * atan2 takes about half the time of its acos). Returns the number of
 * solutions (0, 1, 2), or -1 when |(a, b)| and c vanish against `scale`
 * (every t solves it).
 *
 * With `split`: the base's theta_1 and the elbow's theta_3, whose roots
 * meet where the wrist centre lies on the circle the shoulder offset leaves
 * (x ~ 1) and where the elbow is stretched or folded (x ~ +-1). There the
 * two roots are two branches of the arm, the position depends on the
 * distance from the double root only to second order, and the goal's own
 * rounding decides delta: a goal rounded to float moves x by about 1e-7 to
 * 1e-6, so roots within about sqrt(2e-6) = 1.4e-3 rad of each other came
 * out as one (x clamped to 1) and a branch was lost: in the float build, 8
 * poses in 20,000 random UR5 configurations gave fewer solutions than the
 * double build (7 of 8, 3 of 4, 1 of 2). Both roots are kept, at
 * phi +- ROOT_SPLIT when closer than that (a point ROOT_SPLIT off the double
 * root moves by about r ROOT_SPLIT^2 / 2 along the equation's direction, 1e-6 r
 * in float); the FK check still decides whether each solution reaches the
 * goal. The wrist's theta_4 (spherical wrist) and theta_5 (three parallel
 * axes) are not split: there the tool's orientation follows the root to
 * first order, so a root moved by ROOT_SPLIT would miss the goal. */
static int solve_cos_sin(double a, double b, double c, double scale, ik_bool split, dangle t[2]) {
    double r = sqrt(a * a + b * b), x, phi, delta, cp, sp, sd;
    if (!(r > FREE_TOL * scale)) return fabs(c) <= GEOMETRY_TOL * scale ? -1 : 0;
    x = c / r;
    if (fabs(x) > 1 + TANGENT_SLACK) return 0;
    x = x < -1 ? -1 : x > 1 ? 1 : x;
    sd = sqrt((1 - x) * (1 + x));
    phi = atan2(b, a);
    delta = atan2(sd, x);
    cp = a / r;
    sp = b / r;
    if (split && (delta < ROOT_SPLIT || delta > PI_DOUBLE - ROOT_SPLIT)) {
        /* a double root at phi (x ~ 1) or phi + pi (x ~ -1): its two
         * roots ROOT_SPLIT either side of it (see above) */
        delta = delta < ROOT_SPLIT ? ROOT_SPLIT : PI_DOUBLE - ROOT_SPLIT;
        x = cos(delta);
        sd = sin(delta);
    }
    t[0] = angle_cs(phi + delta, cp * x - sp * sd, sp * x + cp * sd);
    t[1] = angle_cs(phi - delta, cp * x + sp * sd, sp * x - cp * sd);
    return delta > 0 ? 2 : 1;
}

/* SP4: the angles t with h . R(k, t) p = d (k unit). With
 * R(k, t) p = (k.p) k + cos t (p - (k.p) k) + sin t (k x p):
 * cos t (h.p - (k.h)(k.p)) + sin t h.(k x p) = d - (k.h)(k.p). */
static int subproblem4(dvec h, dvec k, dvec p, double d, ik_bool split, dangle t[2]) {
    double kp = dv_dot(k, p), kh = dv_dot(k, h);
    return solve_cos_sin(dv_dot(h, p) - kh * kp, dv_dot(h, dv_cross(k, p)), d - kh * kp,
                         sqrt(dv_dot(h, h) * dv_dot(p, p)), split, t);
}

/* u lies off the axis k: |u x k| > FREE_TOL |u|, compared squared. */
static ik_bool off_axis(dvec u, dvec k) {
    const dvec across = dv_cross(u, k);
    return dv_dot(across, across) > FREE_TOL * FREE_TOL * dv_dot(u, u);
}

/* SP1: the angle t turning u onto v about k (least squares):
 * t = atan2(s, c) with s = k . (u x v), c = u . v - (k.u)(k.v), so
 * cos t = c / |(c, s)| and sin t = s / |(c, s)|. Returns 0 (t untouched)
 * when u or v lies along k (|u x k| <= FREE_TOL |u|), where every t fits. */
static ik_bool subproblem1(dvec k, dvec u, dvec v, dangle *t) {
    double s = dv_dot(k, dv_cross(u, v)), c = dv_dot(u, v) - dv_dot(k, u) * dv_dot(k, v), r;
    if (!(off_axis(u, k) && off_axis(v, k))) return 0;
    r = sqrt(s * s + c * c);
    if (!(r > 0))
        *t = angle_cs(0, 1, 0);
    else {
        const double inv = 1 / r;
        *t = angle_cs(atan2(s, c), c * inv, s * inv);
    }
    return 1;
}

/* ---- the closed forms ------------------------------------------------------- */

/* q = (theta - offset) / multiplier, moved by whole turns (2 pi / |m| in q)
 * into the limits, to the copy nearest the seed; unlimited variables wrapped
 * to (-pi, pi]. Returns 0 when no copy fits. A multiplier of 1 (every
 * mimic-free chain) skips the divisions, and so does a value already in
 * the lowest copy's turn: this runs once per angle found. */
static ik_bool place_in_limits(const ik_robot_analytic_model *m, int v, ik_real theta, ik_real seed, ik_real *q) {
    const ik_real multiplier = m->multiplier[v], slack = LIMIT_SLACK;
    const ik_real period = multiplier == 1 ? (ik_real)TWO_PI : TWO_PI / IK_FABS(multiplier);
    ik_real x = multiplier == 1 ? theta - m->offset[v] : (theta - m->offset[v]) / multiplier, above;
    if (!m->limited[v]) {
        *q = ik_wrap_angle(x);
        return 1;
    }
    /* the lowest copy >= lower - slack: x - floor(above / period) period (floor 0 and 1 without libm) */
    above = x - m->lower[v] + slack;
    if (above >= period && above < 2 * period)
        x -= period;
    else if (!(above >= 0 && above < period))
        x -= (ik_real)floor((double)(above / period)) * period;
    if (x > m->upper[v] + slack) return 0;
    while (x + period <= m->upper[v] + slack && IK_FABS(x + period - seed) < IK_FABS(x - seed)) x += period;
    *q = ik_clampr(x, m->lower[v], m->upper[v]);
    return 1;
}

/* A candidate: each joint's angle, and its variable's value in the limits. */
typedef struct candidate {
    dangle theta[6];
    ik_real q[6];
} candidate;

/* One solve's state: the model, the axes in double, the goal G0 = T M^-1
 * (the motion E_1 ... E_6: R_d = R_T R_M^T, t_d = p_T - R_d p_M), the seed
 * (its joint values for the free ones), and the candidates found. */
typedef struct solve_state {
    const ik_robot_analytic_model *model;
    dvec h[6], p[6], center, home_tip, goal_tip; /* home_tip: p_M; goal_tip: p_T */
    dvec u_4, u_6;                               /* unit vectors across h_4 (along h_5) and across h_6 (along h_5) */
    drot goal_rotation;
    dvec goal_translation;
    ik_real seed[6];
    double seed_theta[6];
    candidate found[IK_ROBOT_ANALYTIC_MAX_SOLUTIONS];
    int count;
    ik_bool singular;
} solve_state;

/* Joint v of candidate c takes the angle t; returns 0 when no copy of it
 * fits the limits, and the branch is dropped right there (before the
 * joints after it are solved). */
static ik_bool take(const solve_state *s, candidate *c, int v, dangle t) {
    c->theta[v] = t;
    return place_in_limits(s->model, v, (ik_real)t.t, s->seed[v], &c->q[v]);
}

/* c into the list (a copy unless it was built in the next free place). */
static void add_candidate(solve_state *s, const candidate *c) {
    if (s->count >= IK_ROBOT_ANALYTIC_MAX_SOLUTIONS) return;
    if (c != &s->found[s->count]) s->found[s->count] = *c;
    ++s->count;
}

/* Where the next two candidates can be built in place: the list's next
 * free places, or `spare` when fewer than two are left. */
static candidate *next_two(solve_state *s, candidate spare[2]) {
    return s->count + 2 <= IK_ROBOT_ANALYTIC_MAX_SOLUTIONS ? &s->found[s->count] : spare;
}

/* R_i^-1 x = R(h_i, -t) x. */
static dvec unturn(const solve_state *s, int i, dangle angle, dvec x) {
    return rot_about(s->h[i], angle_neg(angle), x);
}

/* G0 x = R_d x + t_d. */
static dvec goal_motion(const solve_state *s, dvec x) {
    return dv_add(s->goal_translation, rot_apply(s->goal_rotation, x));
}

/* E_i^-1 x = p_i + R(h_i, -t)(x - p_i). */
static dvec undo_joint(const solve_state *s, int i, dangle angle, dvec x) {
    return dv_add(s->p[i], unturn(s, i, angle, dv_sub(x, s->p[i])));
}

/* A free joint (every value solves) takes the seed's value, and the solve is flagged singular. */
static dangle free_joint(solve_state *s, int i) {
    s->singular = 1;
    return angle_cs(s->seed_theta[i], cos(s->seed_theta[i]), sin(s->seed_theta[i]));
}

/* theta_1 with h_2 . E_1^-1 x_t = h_2 . x (E_2, E_3 and, for three parallel
 * axes, E_4 keep a point's height along h_2): SP4 with k = -h_1 on
 * p = x_t - p_1, d = h_2 . (x - p_1). A free theta_1 (x_t on axis 1: the
 * shoulder over the base) takes the seed's value. Returns the candidates
 * whose theta_1 fits the limits, in out. */
static int solve_base(solve_state *s, dvec x_target, dvec x, candidate out[2]) {
    dangle t1[2];
    int n =
        subproblem4(s->h[1], dv_neg(s->h[0]), dv_sub(x_target, s->p[0]), dv_dot(s->h[1], dv_sub(x, s->p[0])), 1, t1);
    int i, kept = 0;
    if (n < 0) {
        t1[0] = free_joint(s, 0);
        n = 1;
    }
    for (i = 0; i < n; ++i) kept += take(s, &out[kept], 0, t1[i]);
    return kept;
}

/* theta_2, theta_3 with E_2 E_3 x = y (axes 2 and 3 parallel). Rotation
 * about axis 2 keeps the distance to p_2, so |E_3 x - p_2| = |y - p_2|: with
 * a = x - p_3, b = p_3 - p_2, |R a + b|^2 = |a|^2 + |b|^2 + 2 b . R a gives SP3
 * as the SP4 b . R(h_3, t) a = (|y - p_2|^2 - |a|^2 - |b|^2) / 2; then SP1
 * turns E_3 x - p_2 onto y - p_2 about h_2. Returns the copies of `from`
 * with theta_2 and theta_3 set that fit the limits, in out. */
static int solve_elbow(solve_state *s, dvec x, dvec y, const candidate *from, candidate out[2]) {
    dvec a = dv_sub(x, s->p[2]), b = dv_sub(s->p[2], s->p[1]), to_y = dv_sub(y, s->p[1]);
    double d = (dv_dot(to_y, to_y) - dv_dot(a, a) - dv_dot(b, b)) / 2;
    dangle t3[2], t2;
    int n = subproblem4(b, s->h[2], a, d, 1, t3), i, kept = 0;
    if (n < 0) {
        t3[0] = free_joint(s, 2);
        n = 1;
    }
    for (i = 0; i < n; ++i) {
        out[kept] = *from;
        if (!take(s, &out[kept], 2, t3[i])) continue;
        if (!subproblem1(s->h[1], dv_add(rot_about(s->h[2], t3[i], a), b), to_y, &t2)) t2 = free_joint(s, 1);
        kept += take(s, &out[kept], 1, t2);
    }
    return kept;
}

/* The wrist: R(h_4, t4) R(h_5, t5) R(h_6, t6) = Rw, given as v = Rw h_6 and
 * Rw u for a unit u across h_6 (u_6). R_4 R_5 h_6 = v; rotation about h_5
 * keeps h_5 . x, so h_5 . R(h_4, -t4) v = h_5 . h_6 (SP4, free at the wrist
 * singularity where v lies along h_4), then SP1 for t5 turning h_6 onto
 * R_4^T v, and SP1 for t6 turning u onto R_5^T R_4^T Rw u. */
static void solve_wrist(solve_state *s, candidate *c, dvec v, dvec wrist_u) {
    const dvec *h = s->h;
    dangle t4[2], t5, t6;
    int n = subproblem4(h[4], dv_neg(h[3]), v, dv_dot(h[4], h[5]), 0, t4), i;
    if (n < 0) {
        t4[0] = free_joint(s, 3);
        n = 1;
    }
    for (i = 0; i < n; ++i) {
        if (!take(s, c, 3, t4[i])) continue;
        if (!subproblem1(h[4], h[5], unturn(s, 3, t4[i], v), &t5)) t5 = free_joint(s, 4);
        if (!take(s, c, 4, t5)) continue;
        if (!subproblem1(h[5], s->u_6, unturn(s, 4, t5, unturn(s, 3, t4[i], wrist_u)), &t6)) t6 = free_joint(s, 5);
        if (take(s, c, 5, t6)) add_candidate(s, c);
    }
}

/* Spherical wrist: w_t = G0 w; theta_1 (solve_base), theta_2 and theta_3
 * (solve_elbow on E_2 E_3 w = E_1^-1 w_t), then the wrist on
 * Rw = R_4 R_5 R_6 = R_3^T R_2^T R_1^T R_d, applied to h_6 and u_6. */
static void solve_spherical_wrist(solve_state *s) {
    const dvec w = s->center, w_t = goal_motion(s, w);
    const dvec goal_h6 = rot_apply(s->goal_rotation, s->h[5]), goal_u = rot_apply(s->goal_rotation, s->u_6);
    candidate base[2], arm[2];
    int n1 = solve_base(s, w_t, w, base), i, j;
    for (i = 0; i < n1; ++i) {
        const dangle t1 = base[i].theta[0];
        int n23 = solve_elbow(s, w, undo_joint(s, 0, t1, w_t), &base[i], arm);
        dvec h6_1 = unturn(s, 0, t1, goal_h6), u_1 = unturn(s, 0, t1, goal_u);
        for (j = 0; j < n23; ++j) {
            const dangle t2 = arm[j].theta[1], t3 = arm[j].theta[2];
            solve_wrist(s, &arm[j], unturn(s, 2, t3, unturn(s, 1, t2, h6_1)), unturn(s, 2, t3, unturn(s, 1, t2, u_1)));
        }
    }
}

/* Three parallel axes (2, 3, 4), axes 5 and 6 meeting in c: c_t = G0 c
 * = E_1 E_2 E_3 E_4 c gives theta_1 (solve_base). R_2 R_3 R_4 keeps h_2, so
 * h_2^T R_1^T R_d = h_2^T R_5 R_6: on h_6 it is the SP4
 * h_2 . R(h_5, t5) h_6 = h_2 . R_1^T R_d h_6, and transposed it is the SP1
 * R_6 (R_d^T R_1 h_2) = R_5^T h_2 (free where R_d^T R_1 h_2 lies along h_6).
 * Then E_2 E_3 E_4 = E_1^-1 G0 E_6^-1 E_5^-1 is known: solve_elbow on a point
 * p_4 of axis 4 (which E_4 keeps). As axes 2, 3, 4 are parallel,
 * R_2 R_3 R_4 = R(h_4, theta_2 + theta_3 + theta_4) (Hawkins' theta_234):
 * SP1 gives theta_234 from R(h_4, theta_234) u_4 = R_1^T R_d R_6^T R_5^T u_4
 * (u_4 a unit across h_4) once per (theta_1, theta_5), and
 * theta_4 = theta_234 - theta_2 - theta_3 for each elbow. */
static void solve_three_parallel(solve_state *s) {
    const dvec *h = s->h, c = s->center, c_t = goal_motion(s, c), u = s->u_4;
    const drot goal_back = rot_transpose(s->goal_rotation);
    candidate base[2], spare[2], *arm;
    dangle t5[2], t234, t6;
    int n1 = solve_base(s, c_t, c, base), i, j, e;
    for (i = 0; i < n1; ++i) {
        candidate *cur = &base[i];
        const dangle t1 = cur->theta[0];
        /* R_1^T R_d h_6 and R_d^T R_1 h_2 */
        dvec h6_1 = unturn(s, 0, t1, rot_apply(s->goal_rotation, h[5]));
        dvec h2_d = rot_apply(goal_back, rot_about(h[0], t1, h[1]));
        int n5 = subproblem4(h[1], h[4], h[5], dv_dot(h[1], h6_1), 0, t5);
        for (j = 0; j < n5; ++j) {
            dvec y;
            ik_bool have_234;
            int n23;
            if (!take(s, cur, 4, t5[j])) continue;
            if (!subproblem1(h[5], h2_d, unturn(s, 4, t5[j], h[1]), &t6)) t6 = free_joint(s, 5);
            if (!take(s, cur, 5, t6)) continue;
            y = undo_joint(s, 0, t1, goal_motion(s, undo_joint(s, 5, t6, undo_joint(s, 4, t5[j], s->p[3]))));
            have_234 = subproblem1(
                h[3], u, unturn(s, 0, t1, rot_apply(s->goal_rotation, unturn(s, 5, t6, unturn(s, 4, t5[j], u)))),
                &t234);
            arm = next_two(s, spare);
            n23 = solve_elbow(s, s->p[3], y, cur, arm);
            for (e = 0; e < n23; ++e) {
                const dangle t4 = have_234 ? angle_add(t234, angle_neg(angle_add(arm[e].theta[1], arm[e].theta[2])))
                                           : free_joint(s, 3);
                if (take(s, &arm[e], 3, t4)) add_candidate(s, &arm[e]);
            }
        }
    }
}

/* ---- solutions into the limits, checked, sorted ---------------------------- */

/* Variable v's distance from the seed (the short way round for unlimited variables). */
static ik_real variable_gap(const ik_robot_analytic_model *m, int v, ik_real a, ik_real b) {
    return m->limited[v] ? IK_FABS(a - b) : IK_FABS(ik_wrap_angle(a - b));
}

/* angle / sin(angle) for the rotation vector, from sin^2 and cos of the
 * angle: asin(s) / s = 1 + s^2 / 6 + 3 s^4 / 40 + ... while cos > 0 and
 * s < 1e-3 (the next term, 5 s^6 / 112, is below 1e-19 there), atan2(s, c) / s
 * beyond (1 at s = 0). */
static double angle_per_sine(double sine_sq, double cosine) {
    double sine;
    if (cosine > 0 && sine_sq < 1e-6) return 1 + sine_sq * (1.0 / 6 + sine_sq * (3.0 / 40));
    sine = sqrt(sine_sq);
    return sine > 0 ? atan2(sine, cosine) / sine : 1;
}

/* The candidates side by side for the FK check (structure of arrays: one
 * lane per candidate, so the compiler can take two or more at once). */
#define FK_LANES IK_ROBOT_ANALYTIC_MAX_SOLUTIONS

/* With GCC on x86-64 the check is built twice, for SSE2 (two lanes a step)
 * and for AVX (four), and the loader picks the one the processor runs
 * (target_clones); AVX without FMA rounds every lane as SSE2 does, so both
 * give the same answers. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define FK_WIDE __attribute__((target_clones("avx", "default")))
#else
#define FK_WIDE
#endif

/* Forward kinematics of every candidate's joint values as the product of
 * exponentials, in double: E_1 ... E_6 = (R, t) with E_i = (R_i, p_i - R_i p_i)
 * and (R, t)(R_i, t_i) = (R R_i, R t_i + t), each R_i from the angle's own
 * cosine and sine, R(h, t) = cos t I + sin t [h]x + (1 - cos t) h h^T
 * (Rodrigues), and p_i - R_i p_i = (1 - cos t) w_i - sin t (h_i x p_i)
 * with w_i = p_i - (h_i . p_i) h_i. The tip is (R, t) M and the goal T, so
 * the position error is p_T - R p_M - t and the rotation error R_d R^T;
 * pass[k] when every axis of candidate k's position error and of the
 * rotation vector (the skew part, sin(angle) axis, scaled to the angle) is
 * within tolerance. */
static FK_WIDE void check_by_fk(const ik_robot_analytic *job, const solve_state *s, ik_bool pass[FK_LANES]) {
    const ik_robot_analytic_model *m = s->model;
    const double tol = job->position_tolerance, atol = job->angle_tolerance, *g = s->goal_rotation.m;
    const int n = s->count;
    double cosine[6][FK_LANES], sine[6][FK_LANES], r[9][FK_LANES], t[3][FK_LANES];
    double joint_r[9][FK_LANES], joint_t[3][FK_LANES], dp[3][FK_LANES], v[3][FK_LANES], trace[FK_LANES];
    int i, k, a;
    for (k = 0; k < n; ++k)
        for (i = 0; i < 6; ++i) {
            cosine[i][k] = s->found[k].theta[i].c;
            sine[i][k] = s->found[k].theta[i].s;
        }
    for (i = 0; i < 6; ++i) {
        const dvec h = s->h[i];
        const double *w = m->solve_bs.point_across[i], *hp = m->solve_bs.axis_cross_point[i];
        const double xx = h.x * h.x, yy = h.y * h.y, zz = h.z * h.z, xy = h.x * h.y, xz = h.x * h.z, yz = h.y * h.z;
        double(*ri)[FK_LANES] = i == 0 ? r : joint_r, (*ti)[FK_LANES] = i == 0 ? t : joint_t;
        for (k = 0; k < n; ++k) {
            const double c = cosine[i][k], sn = sine[i][k], v1 = 1 - c;
            ri[0][k] = c + xx * v1;
            ri[1][k] = xy * v1 - h.z * sn;
            ri[2][k] = xz * v1 + h.y * sn;
            ri[3][k] = xy * v1 + h.z * sn;
            ri[4][k] = c + yy * v1;
            ri[5][k] = yz * v1 - h.x * sn;
            ri[6][k] = xz * v1 - h.y * sn;
            ri[7][k] = yz * v1 + h.x * sn;
            ri[8][k] = c + zz * v1;
            ti[0][k] = v1 * w[0] - sn * hp[0];
            ti[1][k] = v1 * w[1] - sn * hp[1];
            ti[2][k] = v1 * w[2] - sn * hp[2];
        }
        if (i == 0) continue;
        for (k = 0; k < n; ++k)
            for (a = 0; a < 3; ++a) {
                const double p0 = r[3 * a][k], p1 = r[3 * a + 1][k], p2 = r[3 * a + 2][k];
                r[3 * a][k] = p0 * joint_r[0][k] + p1 * joint_r[3][k] + p2 * joint_r[6][k];
                r[3 * a + 1][k] = p0 * joint_r[1][k] + p1 * joint_r[4][k] + p2 * joint_r[7][k];
                r[3 * a + 2][k] = p0 * joint_r[2][k] + p1 * joint_r[5][k] + p2 * joint_r[8][k];
                t[a][k] += p0 * joint_t[0][k] + p1 * joint_t[1][k] + p2 * joint_t[2][k];
            }
    }
    for (k = 0; k < n; ++k) {
        double e[9];
        for (a = 0; a < 3; ++a)
            dp[a][k] =
                (&s->goal_tip.x)[a] -
                ((r[3 * a][k] * s->home_tip.x + r[3 * a + 1][k] * s->home_tip.y + r[3 * a + 2][k] * s->home_tip.z) +
                 t[a][k]);
        /* e = R_d R^T: e_ij = row i of R_d . row j of R */
        for (a = 0; a < 9; ++a)
            e[a] = g[a - a % 3] * r[3 * (a % 3)][k] + g[a - a % 3 + 1] * r[3 * (a % 3) + 1][k] +
                   g[a - a % 3 + 2] * r[3 * (a % 3) + 2][k];
        v[0][k] = (e[7] - e[5]) / 2;
        v[1][k] = (e[2] - e[6]) / 2;
        v[2][k] = (e[3] - e[1]) / 2;
        trace[k] = (e[0] + e[4] + e[8] - 1) / 2;
    }
    for (k = 0; k < n; ++k) {
        double scale;
        pass[k] = 0;
        if (!(fabs(dp[0][k]) <= tol && fabs(dp[1][k]) <= tol && fabs(dp[2][k]) <= tol)) continue;
        scale = angle_per_sine(v[0][k] * v[0][k] + v[1][k] * v[1][k] + v[2][k] * v[2][k], trace[k]);
        pass[k] = fabs(v[0][k] * scale) <= atol && fabs(v[1][k] * scale) <= atol && fabs(v[2][k] * scale) <= atol;
    }
}

/* The sort key: squared distance to the seed, or the limit cost (see robot_analytic.h). */
static ik_real preference_cost(const ik_robot_analytic *job, const ik_real *q, const ik_real *seed) {
    const ik_robot_analytic_model *m = job->model;
    ik_real cost = 0;
    int v;
    for (v = 0; v < 6; ++v) {
        ik_real d;
        if (job->prefer == IK_ROBOT_PREFER_SEED)
            d = variable_gap(m, v, q[v], seed[v]);
        else if (m->limited[v] && m->upper[v] - m->lower[v] < TWO_PI - TURN_SLACK && m->upper[v] > m->lower[v])
            d = (2 * q[v] - m->lower[v] - m->upper[v]) / (m->upper[v] - m->lower[v]);
        else
            d = 0;
        cost += d * d;
    }
    return cost;
}

/* Checks, removes repeats, and insertion-sorts by the preference cost (the
 * candidates' numbers, each solution then written once). */
static int finish(const ik_robot_analytic *job, const solve_state *s) {
    const ik_robot_analytic_model *m = job->model;
    ik_real distance[IK_ROBOT_ANALYTIC_MAX_SOLUTIONS];
    ik_bool pass[FK_LANES];
    int order[IK_ROBOT_ANALYTIC_MAX_SOLUTIONS], kept = 0, c, v, k;
    check_by_fk(job, s, pass);
    for (c = 0; c < s->count; ++c) {
        const ik_real *q = s->found[c].q;
        ik_real dist;
        ik_bool repeat = 0;
        if (!pass[c]) continue;
        /* a repeat is within SAME_TOL in every variable: the first one
         * apart settles it (at once, mostly: kept solutions come from other
         * branches) */
        for (k = 0; k < kept && !repeat; ++k) {
            const ik_real *other = s->found[order[k]].q;
            for (v = 0; v < 6 && variable_gap(m, v, q[v], other[v]) < SAME_TOL; ++v) continue;
            repeat = v == 6;
        }
        if (repeat) continue;
        dist = preference_cost(job, q, s->seed);
        for (k = kept; k > 0 && distance[k - 1] > dist; --k) {
            distance[k] = distance[k - 1];
            order[k] = order[k - 1];
        }
        distance[k] = dist;
        order[k] = c;
        ++kept;
    }
    for (k = 0; k < kept; ++k) memcpy(job->q_out + 6 * k, s->found[order[k]].q, 6 * sizeof(ik_real));
    return kept;
}

/* ---- the job ------------------------------------------------------------------ */

ik_robot_analytic ik_robot_analytic_def(void) {
    ik_robot_analytic job;
    memset(&job, 0, sizeof job);
    job.defaulted = IK_JOB_DEFAULTED;
    job.goal_rotation_bs = ik_quat_identity();
    job.prefer = IK_ROBOT_PREFER_SEED;
    job.position_tolerance = (ik_real)1e-5;
    job.angle_tolerance = (ik_real)1e-5;
    return job;
}

static ik_result validate(const ik_robot_analytic *job, ik_error *error) {
    int v;
    if (job->defaulted != IK_JOB_DEFAULTED) return ik_field_fail(error, IK_ERR_NOT_DEFAULTED, "defaulted", -1);
    if (!job->model) return ik_field_fail(error, IK_ERR_NULL, "model", -1);
    if (!job->q_out) return ik_field_fail(error, IK_ERR_NULL, "q_out", -1);
    if (!job->solution_count) return ik_field_fail(error, IK_ERR_NULL, "solution_count", -1);
    if (job->model->kind == IK_ROBOT_ANALYTIC_NONE || !job->model->chain)
        return ik_field_fail(error, IK_ERR_UNSUPPORTED, "model", -1);
    if (!ik_vec3_finite(job->goal_position_bs)) return ik_field_fail(error, IK_ERR_NONFINITE, "goal_position_bs", -1);
    if (!ik_quat_finite(job->goal_rotation_bs)) return ik_field_fail(error, IK_ERR_NONFINITE, "goal_rotation_bs", -1);
    if (!(IK_FABS(ik_quat_length(job->goal_rotation_bs) - 1) <= (ik_real)1e-3))
        return ik_field_fail(error, IK_ERR_RANGE, "goal_rotation_bs", -1);
    if (!ik_finite(job->position_tolerance)) return ik_field_fail(error, IK_ERR_NONFINITE, "position_tolerance", -1);
    if (!(job->position_tolerance > 0)) return ik_field_fail(error, IK_ERR_RANGE, "position_tolerance", -1);
    if (!ik_finite(job->angle_tolerance)) return ik_field_fail(error, IK_ERR_NONFINITE, "angle_tolerance", -1);
    if (!(job->angle_tolerance > 0)) return ik_field_fail(error, IK_ERR_RANGE, "angle_tolerance", -1);
    if (job->prefer != IK_ROBOT_PREFER_SEED && job->prefer != IK_ROBOT_PREFER_MID_RANGE)
        return ik_field_fail(error, IK_ERR_RANGE, "prefer", -1);
    for (v = 0; job->q_seed && v < 6; ++v)
        if (!ik_finite(job->q_seed[v])) return ik_field_fail(error, IK_ERR_NONFINITE, "q_seed", v);
    return ik_field_fail(error, IK_OK, NULL, -1);
}

ik_result ik_robot_analytic_run(const ik_robot_analytic *job) {
    const ik_robot_analytic_model *m;
    solve_state s;
    drot home_back;
    ik_result r;
    int v;
    if (!job) return IK_ERR_NULL;
    r = validate(job, job->error_field);
    if (r != IK_OK) return r;
    m = job->model;
    s.model = m;
    s.count = 0;
    s.singular = 0;
    for (v = 0; v < 6; ++v) {
        s.seed[v] = job->q_seed ? job->q_seed[v] : m->limited[v] ? (m->lower[v] + m->upper[v]) / 2 : 0;
        s.seed_theta[v] = (double)m->multiplier[v] * s.seed[v] + m->offset[v];
        s.h[v] = dv_load(m->solve_bs.axis[v]);
        s.p[v] = dv_load(m->solve_bs.point[v]);
    }
    s.center = dv_load(m->solve_bs.center);
    s.u_4 = dv_load(m->solve_bs.across_4);
    s.u_6 = dv_load(m->solve_bs.across_6);
    s.home_tip = dv_load(m->solve_bs.home_tip);
    memcpy(home_back.m, m->solve_bs.home_rotation_t, sizeof home_back.m);
    /* G0 = T M^-1: R_d = R_T R_M^T, t_d = p_T - R_d p_M. */
    s.goal_rotation = rot_mul(rot_from_quat(job->goal_rotation_bs), home_back);
    s.goal_tip = dv_from(job->goal_position_bs);
    s.goal_translation = dv_sub(s.goal_tip, rot_apply(s.goal_rotation, s.home_tip));
    if (m->kind == IK_ROBOT_ANALYTIC_SPHERICAL_WRIST)
        solve_spherical_wrist(&s);
    else
        solve_three_parallel(&s);
    *job->solution_count = finish(job, &s);
    if (job->singular) *job->singular = s.singular;
    return IK_OK;
}

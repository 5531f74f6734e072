/* Analytic robot IK (see include/ikit/robot_analytic.h): the chain's axes at
 * zero and which closed form fits them, the canonical subproblems of Elias
 * and Wen's IK-Geo (2022), the two closed forms built from them, and the
 * mapping of each solution into the limits, its FK check and the sort. */
#include <ikit/robot_analytic.h>

#include <math.h>
#include <string.h>

#include "../solve/field_error.h"

#define TWO_PI (2 * IK_PI)

#ifdef IKIT_DOUBLE
/* Axes are parallel below this sine, and meet below this share of the reach. */
#define GEOMETRY_TOL 1e-5
/* A cos t + b sin t = c has no defined t when |(a, b)| falls below this share of its scale. */
#define FREE_TOL 1e-10
/* |c| / |(a, b)| may pass 1 by this much (rounding at a tangent pose) and still give a solution. */
#define TANGENT_SLACK 1e-9
/* Solutions closer than this in every variable are one. */
#define SAME_TOL 1e-7
#else
#define GEOMETRY_TOL 1e-4f
#define FREE_TOL 1e-6f
#define TANGENT_SLACK 1e-5f
#define SAME_TOL 1e-4f
#endif

/* ---- the model -------------------------------------------------------------- */

const char *ik_robot_analytic_kind_str(ik_robot_analytic_kind kind) {
    switch (kind) {
    case IK_ROBOT_ANALYTIC_SPHERICAL_WRIST: return "spherical wrist";
    case IK_ROBOT_ANALYTIC_THREE_PARALLEL: return "three parallel axes";
    default: return "none";
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
        if (joint->type == IK_ROBOT_PRISMATIC) return refuse(model, why, "a prismatic joint (analytic IK is for 6R arms)");
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
    return IK_OK;
}

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

/* R(k, t) = I + sin t [k]x + (1 - cos t) [k]x^2 (Rodrigues), k unit. */
static drot rot_axis_angle(dvec k, double t) {
    const double s = sin(t), c = cos(t), v = 1 - c;
    drot r;
    r.m[0] = c + k.x * k.x * v;
    r.m[1] = k.x * k.y * v - k.z * s;
    r.m[2] = k.x * k.z * v + k.y * s;
    r.m[3] = k.y * k.x * v + k.z * s;
    r.m[4] = c + k.y * k.y * v;
    r.m[5] = k.y * k.z * v - k.x * s;
    r.m[6] = k.z * k.x * v - k.y * s;
    r.m[7] = k.z * k.y * v + k.x * s;
    r.m[8] = c + k.z * k.z * v;
    return r;
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

/* ---- subproblems (Elias and Wen, IK-Geo 2022) ------------------------------ */

/* a cos t + b sin t = c: t = atan2(b, a) +- acos(c / |(a, b)|). Returns the
 * number of solutions (0, 1, 2), or -1 when |(a, b)| and c vanish against
 * `scale` (every t solves it). */
static int solve_cos_sin(double a, double b, double c, double scale, double t[2]) {
    double r = sqrt(a * a + b * b), x, phi, delta;
    if (!(r > FREE_TOL * scale)) return fabs(c) <= GEOMETRY_TOL * scale ? -1 : 0;
    x = c / r;
    if (fabs(x) > 1 + TANGENT_SLACK) return 0;
    phi = atan2(b, a);
    delta = acos(x < -1 ? -1 : x > 1 ? 1 : x);
    t[0] = phi + delta;
    t[1] = phi - delta;
    return delta > 0 ? 2 : 1;
}

/* SP4: the angles t with h . R(k, t) p = d (k unit). With
 * R(k, t) p = (k.p) k + cos t (p - (k.p) k) + sin t (k x p):
 * cos t (h.p - (k.h)(k.p)) + sin t h.(k x p) = d - (k.h)(k.p). */
static int subproblem4(dvec h, dvec k, dvec p, double d, double t[2]) {
    double kp = dv_dot(k, p), kh = dv_dot(k, h);
    return solve_cos_sin(dv_dot(h, p) - kh * kp, dv_dot(h, dv_cross(k, p)), d - kh * kp, dv_length(h) * dv_length(p),
                         t);
}

/* SP1: the angle t turning u onto v about k (least squares):
 * t = atan2(k . (u x v), u . v - (k.u)(k.v)). Returns 0 (t untouched) when
 * u or v lies along k (|u x k| <= FREE_TOL |u|), where every t fits. */
static ik_bool subproblem1(dvec k, dvec u, dvec v, double *t) {
    double s = dv_dot(k, dv_cross(u, v)), c = dv_dot(u, v) - dv_dot(k, u) * dv_dot(k, v);
    if (!(dv_length(dv_cross(u, k)) > FREE_TOL * dv_length(u) && dv_length(dv_cross(v, k)) > FREE_TOL * dv_length(v)))
        return 0;
    *t = atan2(s, c);
    return 1;
}

/* ---- the closed forms ------------------------------------------------------- */

/* One solve's state: the axes in double, the goal G0 = T M^-1 (the motion
 * E_1 ... E_6: R_d = R_T R_M^T, t_d = p_T - R_d p_M), the seed's joint values
 * for the free ones, and the candidates found. */
typedef struct solve_state {
    dvec h[6], p[6], center, home_tip; /* home_tip: p_M */
    drot goal_rotation;
    dvec goal_translation;
    double seed_theta[6];
    double theta[IK_ROBOT_ANALYTIC_MAX_SOLUTIONS][6];
    int count;
    ik_bool singular;
} solve_state;

static drot turn(const solve_state *s, int i, double angle) { return rot_axis_angle(s->h[i], angle); }

/* G0 x = R_d x + t_d. */
static dvec goal_motion(const solve_state *s, dvec x) {
    return dv_add(s->goal_translation, rot_apply(s->goal_rotation, x));
}

/* E_i^-1 x = p_i + R(h_i, -t)(x - p_i). */
static dvec undo_joint(const solve_state *s, int i, double angle, dvec x) {
    return dv_add(s->p[i], rot_apply(turn(s, i, -angle), dv_sub(x, s->p[i])));
}

/* A free joint (every value solves) takes the seed's value, and the solve is flagged singular. */
static double free_joint(solve_state *s, int i) {
    s->singular = 1;
    return s->seed_theta[i];
}

/* theta_1 with h_2 . E_1^-1 x_t = h_2 . x (E_2, E_3 and, for three parallel
 * axes, E_4 keep a point's height along h_2): SP4 with k = -h_1 on
 * p = x_t - p_1, d = h_2 . (x - p_1). A free theta_1 (x_t on axis 1: the
 * shoulder over the base) takes the seed's value. */
static int solve_base(solve_state *s, dvec x_target, dvec x, double t1[2]) {
    int n = subproblem4(s->h[1], dv_neg(s->h[0]), dv_sub(x_target, s->p[0]), dv_dot(s->h[1], dv_sub(x, s->p[0])), t1);
    if (n < 0) {
        t1[0] = free_joint(s, 0);
        n = 1;
    }
    return n;
}

/* theta_2, theta_3 with E_2 E_3 x = y (axes 2 and 3 parallel). Rotation
 * about axis 2 keeps the distance to p_2, so |E_3 x - p_2| = |y - p_2|: with
 * a = x - p_3, b = p_3 - p_2, |R a + b|^2 = |a|^2 + |b|^2 + 2 b . R a gives SP3
 * as the SP4 b . R(h_3, t) a = (|y - p_2|^2 - |a|^2 - |b|^2) / 2; then SP1
 * turns E_3 x - p_2 onto y - p_2 about h_2. */
static int solve_elbow(solve_state *s, dvec x, dvec y, double t2[2], double t3[2]) {
    dvec a = dv_sub(x, s->p[2]), b = dv_sub(s->p[2], s->p[1]), to_y = dv_sub(y, s->p[1]);
    double d = (dv_dot(to_y, to_y) - dv_dot(a, a) - dv_dot(b, b)) / 2;
    int n = subproblem4(b, s->h[2], a, d, t3), i;
    if (n < 0) {
        t3[0] = free_joint(s, 2);
        n = 1;
    }
    for (i = 0; i < n; ++i) {
        dvec from = dv_add(rot_apply(turn(s, 2, t3[i]), a), b);
        if (!subproblem1(s->h[1], from, to_y, &t2[i])) t2[i] = free_joint(s, 1);
    }
    return n;
}

static void add_candidate(solve_state *s, const double theta[6]) {
    if (s->count < IK_ROBOT_ANALYTIC_MAX_SOLUTIONS) memcpy(s->theta[s->count++], theta, 6 * sizeof(double));
}

/* A unit vector across axis `across` (the part of `along` off it). */
static dvec across_axis(dvec along, dvec axis) {
    dvec r = dv_sub(along, dv(axis.x * dv_dot(along, axis), axis.y * dv_dot(along, axis), axis.z * dv_dot(along, axis)));
    return dv_unit(r);
}

/* The wrist: R(h_4, t4) R(h_5, t5) R(h_6, t6) = Rw. With v = Rw h_6,
 * R_4 R_5 h_6 = v; rotation about h_5 keeps h_5 . x, so
 * h_5 . R(h_4, -t4) v = h_5 . h_6 (SP4, free at the wrist singularity where
 * v lies along h_4), then SP1 for t5 turning h_6 onto R_4^T v, and SP1 for t6
 * turning u onto (R_4 R_5)^T Rw u for a u across h_6. */
static void solve_wrist(solve_state *s, double theta[6], drot wrist_rotation) {
    const dvec *h = s->h;
    dvec v = rot_apply(wrist_rotation, h[5]), u = across_axis(h[4], h[5]);
    double t4[2];
    int n = subproblem4(h[4], dv_neg(h[3]), v, dv_dot(h[4], h[5]), t4), i;
    if (n < 0) {
        t4[0] = free_joint(s, 3);
        n = 1;
    }
    for (i = 0; i < n; ++i) {
        drot undo4 = turn(s, 3, -t4[i]), undo45;
        theta[3] = t4[i];
        if (!subproblem1(h[4], h[5], rot_apply(undo4, v), &theta[4])) theta[4] = free_joint(s, 4);
        undo45 = rot_mul(turn(s, 4, -theta[4]), undo4);
        if (!subproblem1(h[5], u, rot_apply(rot_mul(undo45, wrist_rotation), u), &theta[5]))
            theta[5] = free_joint(s, 5);
        add_candidate(s, theta);
    }
}

/* Spherical wrist: w_t = G0 w; theta_1 (solve_base), theta_2 and theta_3
 * (solve_elbow on E_2 E_3 w = E_1^-1 w_t), then the wrist on
 * R_4 R_5 R_6 = (R_1 R_2 R_3)^T R_d. */
static void solve_spherical_wrist(solve_state *s) {
    const dvec w = s->center, w_t = goal_motion(s, w);
    double t1[2], t2[2], t3[2], theta[6];
    int n1 = solve_base(s, w_t, w, t1), i, j;
    for (i = 0; i < n1; ++i) {
        int n23 = solve_elbow(s, w, undo_joint(s, 0, t1[i], w_t), t2, t3);
        theta[0] = t1[i];
        for (j = 0; j < n23; ++j) {
            drot r123 = rot_mul(rot_mul(turn(s, 0, t1[i]), turn(s, 1, t2[j])), turn(s, 2, t3[j]));
            theta[1] = t2[j];
            theta[2] = t3[j];
            solve_wrist(s, theta, rot_mul(rot_transpose(r123), s->goal_rotation));
        }
    }
}

/* Three parallel axes (2, 3, 4), axes 5 and 6 meeting in c: c_t = G0 c
 * = E_1 E_2 E_3 E_4 c gives theta_1 (solve_base). R_2 R_3 R_4 keeps h_2, so
 * h_2^T R_1^T R_d = h_2^T R_5 R_6: on h_6 it is the SP4
 * h_2 . R(h_5, t5) h_6 = h_2 . R_1^T R_d h_6, and transposed it is the SP1
 * R_6 (R_d^T R_1 h_2) = R_5^T h_2 (free where R_d^T R_1 h_2 lies along h_6).
 * Then E_2 E_3 E_4 = E_1^-1 G0 E_6^-1 E_5^-1 is known: solve_elbow on a point
 * p_4 of axis 4 (which E_4 keeps), and SP1 for theta_4 on
 * R_4 = R_3^T R_2^T (R_1^T R_d R_6^T R_5^T). */
static void solve_three_parallel(solve_state *s) {
    const dvec *h = s->h, c = s->center, c_t = goal_motion(s, c), u = across_axis(h[4], h[3]);
    double t1[2], t5[2], t2[2], t3[2], theta[6];
    int n1 = solve_base(s, c_t, c, t1), i, j, e;
    for (i = 0; i < n1; ++i) {
        drot r1d = rot_mul(turn(s, 0, -t1[i]), s->goal_rotation); /* R_1^T R_d */
        int n5 = subproblem4(h[1], h[4], h[5], dv_dot(h[1], rot_apply(r1d, h[5])), t5);
        theta[0] = t1[i];
        for (j = 0; j < n5; ++j) {
            drot r234;
            dvec y;
            int n23;
            theta[4] = t5[j];
            if (!subproblem1(h[5], rot_apply(rot_transpose(r1d), h[1]), rot_apply(turn(s, 4, -theta[4]), h[1]),
                             &theta[5]))
                theta[5] = free_joint(s, 5);
            y = undo_joint(s, 0, theta[0], goal_motion(s, undo_joint(s, 5, theta[5], undo_joint(s, 4, theta[4], s->p[3]))));
            r234 = rot_mul(rot_mul(r1d, turn(s, 5, -theta[5])), turn(s, 4, -theta[4]));
            n23 = solve_elbow(s, s->p[3], y, t2, t3);
            for (e = 0; e < n23; ++e) {
                drot r4 = rot_mul(rot_mul(turn(s, 2, -t3[e]), turn(s, 1, -t2[e])), r234);
                theta[1] = t2[e];
                theta[2] = t3[e];
                if (!subproblem1(h[3], u, rot_apply(r4, u), &theta[3])) theta[3] = free_joint(s, 3);
                add_candidate(s, theta);
            }
        }
    }
}

/* ---- solutions into the limits, checked, sorted ---------------------------- */

/* q = (theta - offset) / multiplier, moved by whole turns (2 pi / |m| in q)
 * into the limits, to the copy nearest the seed; unlimited variables wrapped
 * to (-pi, pi]. Returns 0 when no copy fits. */
static ik_bool place_in_limits(const ik_robot_analytic_model *m, int v, ik_real theta, ik_real seed, ik_real *q) {
    const ik_real period = TWO_PI / IK_FABS(m->multiplier[v]);
    const ik_real slack = SAME_TOL;
    ik_real x = (theta - m->offset[v]) / m->multiplier[v];
    if (!m->limited[v]) {
        *q = ik_wrap_angle(x);
        return 1;
    }
    x -= (ik_real)floor((double)((x - m->lower[v] + slack) / period)) * period; /* lowest copy >= lower - slack */
    if (x > m->upper[v] + slack) return 0;
    while (x + period <= m->upper[v] + slack && IK_FABS(x + period - seed) < IK_FABS(x - seed)) x += period;
    *q = ik_clampr(x, m->lower[v], m->upper[v]);
    return 1;
}

/* Variable v's distance from the seed (the short way round for unlimited variables). */
static ik_real variable_gap(const ik_robot_analytic_model *m, int v, ik_real a, ik_real b) {
    return m->limited[v] ? IK_FABS(a - b) : IK_FABS(ik_wrap_angle(a - b));
}

/* Forward kinematics of the joint values theta as the product of
 * exponentials, in double: E_1 ... E_6 = (R, t) with E_i = (R_i, p_i - R_i p_i)
 * and (R, t)(R_i, t_i) = (R R_i, R t_i + t). The tip is (R, t) M and the goal
 * G0 M, so the position error is (R_d - R) p_M + t_d - t and the rotation
 * error R_d R^T; every axis of the position error and of the rotation
 * vector (the skew part, sin(angle) axis, scaled to the angle) within tolerance. */
static ik_bool reaches_goal(const ik_robot_analytic *job, const solve_state *s, const double theta[6]) {
    const double tol = job->position_tolerance, atol = job->angle_tolerance;
    drot r = rot_axis_angle(s->h[0], theta[0]), e;
    dvec t = dv_sub(s->p[0], rot_apply(r, s->p[0])), dp, v;
    double sine, cosine, scale;
    int i;
    for (i = 1; i < 6; ++i) {
        drot ri = rot_axis_angle(s->h[i], theta[i]);
        t = dv_add(t, rot_apply(r, dv_sub(s->p[i], rot_apply(ri, s->p[i]))));
        r = rot_mul(r, ri);
    }
    dp = dv_add(rot_apply(s->goal_rotation, s->home_tip), s->goal_translation);
    dp = dv_sub(dp, dv_add(rot_apply(r, s->home_tip), t));
    if (!(fabs(dp.x) <= tol && fabs(dp.y) <= tol && fabs(dp.z) <= tol)) return 0;
    e = rot_mul(s->goal_rotation, rot_transpose(r));
    v = dv((e.m[7] - e.m[5]) / 2, (e.m[2] - e.m[6]) / 2, (e.m[3] - e.m[1]) / 2);
    sine = dv_length(v);
    cosine = (e.m[0] + e.m[4] + e.m[8] - 1) / 2;
    scale = sine > 0 ? atan2(sine, cosine) / sine : 1;
    return fabs(v.x * scale) <= atol && fabs(v.y * scale) <= atol && fabs(v.z * scale) <= atol;
}

/* The sort key: squared distance to the seed, or the limit cost (see robot_analytic.h). */
static ik_real preference_cost(const ik_robot_analytic *job, const ik_real *q, const ik_real *seed) {
    const ik_robot_analytic_model *m = job->model;
    ik_real cost = 0;
    int v;
    for (v = 0; v < 6; ++v) {
        ik_real d;
        if (job->prefer == IK_ROBOT_PREFER_SEED) d = variable_gap(m, v, q[v], seed[v]);
        else if (m->limited[v] && m->upper[v] - m->lower[v] < TWO_PI && m->upper[v] > m->lower[v])
            d = (2 * q[v] - m->lower[v] - m->upper[v]) / (m->upper[v] - m->lower[v]);
        else d = 0;
        cost += d * d;
    }
    return cost;
}

/* Maps, checks, removes repeats, and insertion-sorts by the preference cost. */
static int finish(const ik_robot_analytic *job, const solve_state *s, const ik_real seed[6]) {
    const ik_robot_analytic_model *m = job->model;
    ik_real distance[IK_ROBOT_ANALYTIC_MAX_SOLUTIONS];
    int kept = 0, c, v, k;
    for (c = 0; c < s->count; ++c) {
        ik_real q[6], dist;
        ik_bool fits = 1, repeat = 0;
        for (v = 0; v < 6 && fits; ++v) fits = place_in_limits(m, v, (ik_real)s->theta[c][v], seed[v], &q[v]);
        if (!fits || !reaches_goal(job, s, s->theta[c])) continue;
        for (k = 0; k < kept && !repeat; ++k) {
            ik_real far = 0;
            for (v = 0; v < 6; ++v) far = ik_maxr(far, variable_gap(m, v, q[v], job->q_out[6 * k + v]));
            repeat = far < SAME_TOL;
        }
        if (repeat) continue;
        dist = preference_cost(job, q, seed);
        for (k = kept; k > 0 && distance[k - 1] > dist; --k) {
            distance[k] = distance[k - 1];
            memcpy(job->q_out + 6 * k, job->q_out + 6 * (k - 1), 6 * sizeof(ik_real));
        }
        distance[k] = dist;
        memcpy(job->q_out + 6 * k, q, 6 * sizeof(ik_real));
        ++kept;
    }
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

static ik_result validate(const ik_robot_analytic *job, ik_field_error *where) {
    int v;
    if (job->defaulted != IK_JOB_DEFAULTED) return ik_field_fail(where, IK_ERR_NOT_DEFAULTED, "defaulted", -1);
    if (!job->model) return ik_field_fail(where, IK_ERR_NULL, "model", -1);
    if (!job->q_out) return ik_field_fail(where, IK_ERR_NULL, "q_out", -1);
    if (!job->solution_count) return ik_field_fail(where, IK_ERR_NULL, "solution_count", -1);
    if (job->model->kind == IK_ROBOT_ANALYTIC_NONE || !job->model->chain)
        return ik_field_fail(where, IK_ERR_UNSUPPORTED, "model", -1);
    if (!ik_vec3_finite(job->goal_position_bs)) return ik_field_fail(where, IK_ERR_NONFINITE, "goal_position_bs", -1);
    if (!ik_quat_finite(job->goal_rotation_bs)) return ik_field_fail(where, IK_ERR_NONFINITE, "goal_rotation_bs", -1);
    if (!(IK_FABS(ik_quat_length(job->goal_rotation_bs) - 1) <= (ik_real)1e-3))
        return ik_field_fail(where, IK_ERR_RANGE, "goal_rotation_bs", -1);
    if (!ik_finite(job->position_tolerance)) return ik_field_fail(where, IK_ERR_NONFINITE, "position_tolerance", -1);
    if (!(job->position_tolerance > 0)) return ik_field_fail(where, IK_ERR_RANGE, "position_tolerance", -1);
    if (!ik_finite(job->angle_tolerance)) return ik_field_fail(where, IK_ERR_NONFINITE, "angle_tolerance", -1);
    if (!(job->angle_tolerance > 0)) return ik_field_fail(where, IK_ERR_RANGE, "angle_tolerance", -1);
    if (job->prefer != IK_ROBOT_PREFER_SEED && job->prefer != IK_ROBOT_PREFER_MID_RANGE)
        return ik_field_fail(where, IK_ERR_RANGE, "prefer", -1);
    for (v = 0; job->q_seed && v < 6; ++v)
        if (!ik_finite(job->q_seed[v])) return ik_field_fail(where, IK_ERR_NONFINITE, "q_seed", v);
    return ik_field_fail(where, IK_OK, NULL, -1);
}

ik_result ik_robot_analytic_run(const ik_robot_analytic *job) {
    const ik_robot_analytic_model *m;
    solve_state s;
    ik_real seed[6];
    ik_field_error ignored;
    ik_result r;
    int v;
    if (!job) return IK_ERR_NULL;
    r = validate(job, job->error_field ? job->error_field : &ignored);
    if (r != IK_OK) return r;
    m = job->model;
    s.count = 0;
    s.singular = 0;
    for (v = 0; v < 6; ++v) {
        seed[v] = job->q_seed ? job->q_seed[v] : m->limited[v] ? (m->lower[v] + m->upper[v]) / 2 : 0;
        s.seed_theta[v] = (double)m->multiplier[v] * seed[v] + m->offset[v];
        s.h[v] = dv_unit(dv_from(m->axis_bs[v])); /* unit in double, for the same reason */
        s.p[v] = dv_from(m->point_bs[v]);
    }
    s.center = dv_from(m->center_bs);
    s.home_tip = dv_from(m->home_tip_bs.translation);
    /* G0 = T M^-1: R_d = R_T R_M^T, t_d = p_T - R_d p_M. */
    s.goal_rotation = rot_mul(rot_from_quat(job->goal_rotation_bs),
                              rot_transpose(rot_from_quat(m->home_tip_bs.rotation)));
    s.goal_translation =
        dv_sub(dv_from(job->goal_position_bs), rot_apply(s.goal_rotation, dv_from(m->home_tip_bs.translation)));
    if (m->kind == IK_ROBOT_ANALYTIC_SPHERICAL_WRIST) solve_spherical_wrist(&s);
    else solve_three_parallel(&s);
    *job->solution_count = finish(job, &s, seed);
    if (job->singular) *job->singular = s.singular;
    return IK_OK;
}

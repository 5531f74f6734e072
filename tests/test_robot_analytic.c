/* Analytic robot IK (issue 12): which closed form fits is read from the
 * chain's axes (UR5: three parallel axes; IRB 2400 and a hand-built arm:
 * spherical wrist; Panda, a SCARA, a mimic joint and a 6R of skew axes
 * refused). Round trips random in-limit q -> FK -> analytic IK on the real
 * arms and on rescaled, base-turned and all-continuous variants: one
 * solution lands within 1e-9 (float: 1e-4) of the goal and is the q the
 * goal came from, every solution lands within 1e-5 and is inside the
 * limits, the solutions are sorted by distance to the seed. Named cases:
 * wrist singular (both shapes), the wrist centre over the base, the arm
 * stretched straight, narrowed limits, an unreachable goal, bad input;
 * both elbow branches at an elbow within 5e-4 rad of straight or folded. */
#define _POSIX_C_SOURCE 200809L
#include <ikit/robot.h>
#include <ikit/robot_analytic.h>
#include <ikit/urdf.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/check.h"
#include "support/rng.h"
#include "support/robot_chains.h"

#ifdef IKIT_DOUBLE
#define CLOSE 1e-9
#define SAME_Q 1e-6
#else
#define CLOSE 1e-4
#define SAME_Q 2e-2
#endif
#define TOL 1e-5
#define PI 3.14159265358979323846
#define ROUND_TRIPS 500
#define MAX_Q (IK_ROBOT_ANALYTIC_MAX_SOLUTIONS * 6)

/* ---- chains ---------------------------------------------------------------- */

/* A spherical-wrist arm in the IRB 2400's shape (axes z, y, y, x, y, x; axes
 * 4, 5, 6 meet 0.6 past joint 4) with a shoulder offset of `shoulder` along
 * x and a forearm step of 0.1 up; a fixed flange 0.08 past the wrist. */
static ik_robot_chain spherical_arm(double shoulder) {
    ik_robot_chain c;
    const ik_vec3 x = ik_v3(1, 0, 0), y = ik_v3(0, 1, 0), z = ik_v3(0, 0, 1);
    memset(&c, 0, sizeof c);
    c.joints[0] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0, 0, 0.4f), z, -3, 3, 0);
    c.joints[1] = joint_at(IK_ROBOT_REVOLUTE, ik_v3((ik_real)shoulder, 0, 0.1f), y, -1.8, 1.8, 1);
    c.joints[2] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0, 0, 0.7f), y, -2.8, 1.2, 2);
    c.joints[3] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0, 0, 0.1f), x, -3.4, 3.4, 3);
    c.joints[4] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0.6f, 0, 0), y, -2, 2, 4);
    c.joints[5] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0, 0, 0), x, -6.5, 6.5, 5);
    c.joints[6] = joint_at(IK_ROBOT_FIXED, ik_v3(0.08f, 0, 0), z, 0, 0, -1);
    c.joint_count = 7;
    c.variable_count = 6;
    return c;
}

static int data_path(char *path, size_t size, const char *file) {
    const char *dir = getenv("IKIT_DATA");
    if (!dir) return 0;
    snprintf(path, size, "%s/urdf/%s", dir, file);
    return access(path, R_OK) == 0;
}

/* ---- solving --------------------------------------------------------------- */

typedef struct answer {
    ik_real q[MAX_Q];
    int count;
    ik_bool singular;
    ik_result result;
} answer;

static answer solve(const ik_robot_analytic_model *m, ik_transform goal, const ik_real *seed) {
    ik_robot_analytic job = ik_robot_analytic_def();
    answer a;
    memset(&a, 0, sizeof a);
    job.model = m;
    job.goal_position_bs = goal.translation;
    job.goal_rotation_bs = goal.rotation;
    job.q_seed = seed;
    job.q_out = a.q;
    job.solution_count = &a.count;
    job.singular = &a.singular;
    a.result = ik_robot_analytic_run(&job);
    return a;
}

/* The largest per-axis error of position and of the rotation vector of goal * tip^-1 at q. */
static double pose_error(const ik_robot_chain *c, const ik_real *q, ik_transform goal) {
    ik_transform tip;
    ik_vec3 d, axis;
    ik_real angle;
    if (ik_robot_fk(c, q, &tip, NULL) != IK_OK) return INFINITY;
    d = ik_vec3_sub(goal.translation, tip.translation);
    ik_quat_to_axis_angle(ik_quat_positive_w(ik_quat_mul(goal.rotation, ik_quat_conjugate(tip.rotation))), &axis,
                          &angle);
    axis = ik_vec3_scale(axis, angle);
    return fmax(fmax(fmax(fabs(d.x), fabs(d.y)), fabs(d.z)), fmax(fmax(fabs(axis.x), fabs(axis.y)), fabs(axis.z)));
}

/* Largest difference between two configurations, whole turns apart counting as equal. */
static double turns_apart(const ik_real *a, const ik_real *b) {
    double far = 0;
    int v;
    for (v = 0; v < 6; ++v) far = fmax(far, fabs(remainder((double)a[v] - (double)b[v], 2 * PI)));
    return far;
}

static double seed_distance(const ik_robot_chain *c, const ik_real *q, const ik_real *seed) {
    double sum = 0;
    int v;
    for (v = 0; v < 6; ++v) {
        double lo, hi, d = (double)q[v] - (double)seed[v];
        int wraps;
        variable_range(c, v, &lo, &hi, &wraps);
        if (wraps) d = remainder(d, 2 * PI);
        sum += d * d;
    }
    return sum;
}

/* Every solution lands within TOL, is finite and inside the limits, and
 * they come sorted by distance to the seed; returns the smallest error. */
static double check_solutions(check_property *prop, const ik_robot_chain *c, const answer *a, ik_transform goal,
                              const ik_real *seed) {
    double best = INFINITY;
    int s;
    for (s = 0; s < a->count; ++s) {
        const ik_real *q = a->q + 6 * s;
        double e = pose_error(c, q, goal);
        PROPERTY_CASE(*prop, e <= TOL, "solution %d of %d misses by %g", s, a->count, e);
        PROPERTY_CASE(*prop, inside_limits(c, q), "solution %d outside the limits", s);
        if (s > 0)
            PROPERTY_CASE(*prop, seed_distance(c, q - 6, seed) <= seed_distance(c, q, seed) + 1e-9,
                          "solution %d nearer the seed than %d", s, s - 1);
        best = fmin(best, e);
    }
    return best;
}

/* ROUND_TRIPS random in-limit q -> FK -> analytic IK from the mid-range
 * seed: IK_OK, at least one solution within CLOSE, one equal to q (up to
 * whole turns), every solution checked. */
static void round_trips(const char *name, const ik_robot_chain *c, ik_robot_analytic_kind kind, uint64_t seed_value) {
    ik_robot_analytic_model m;
    check_property prop = {0, 0, 0};
    ik_real seed[6];
    rng r = rng_seeded(seed_value);
    const char *why = NULL;
    long total = 0;
    int i;
    prop.name = name;
    CHECK(ik_robot_analytic_prepare(c, &m, &why) == IK_OK, "%s: %s", name, why ? why : "");
    CHECK(m.kind == kind, "%s: kind %s", name, ik_robot_analytic_kind_str(m.kind));
    if (m.kind != kind) return;
    mid_range(c, seed);
    for (i = 0; i < ROUND_TRIPS; ++i) {
        ik_real q[6];
        ik_transform goal;
        answer a;
        double nearest = INFINITY;
        int s;
        random_in_limits(c, &r, q);
        ik_robot_fk(c, q, &goal, NULL);
        a = solve(&m, goal, seed);
        PROPERTY_CASE(prop, a.result == IK_OK && a.count >= 1, "case %d: result %d, %d solutions", i, a.result,
                      a.count);
        PROPERTY_CASE(prop, check_solutions(&prop, c, &a, goal, seed) <= CLOSE, "case %d: none within %g", i, CLOSE);
        for (s = 0; s < a.count; ++s) nearest = fmin(nearest, turns_apart(a.q + 6 * s, q));
        PROPERTY_CASE(prop, nearest <= SAME_Q, "case %d: the source q is %g from every solution", i, nearest);
        total += a.count;
    }
    property_end(&prop);
    printf("%s: %d round trips, %.2f solutions each\n", name, ROUND_TRIPS, (double)total / ROUND_TRIPS);
}

/* ---- tests ----------------------------------------------------------------- */

static void test_real_arms(void) {
    static const char *const arms[2][3] = {{"ur5_joint_limited_robot.urdf", "base_link", "ee_link"},
                                           {"abb_irb2400.urdf", "base_link", "tool0"}};
    static const ik_robot_analytic_kind kinds[2] = {IK_ROBOT_ANALYTIC_THREE_PARALLEL,
                                                    IK_ROBOT_ANALYTIC_SPHERICAL_WRIST};
    const ik_quat y_up = ik_quat_from_axis_angle(ik_v3(1, 0, 0), (ik_real)(-PI / 2));
    char path[700];
    int a;
    for (a = 0; a < 2; ++a) {
        ik_urdf *u = NULL;
        ik_error err;
        ik_robot_chain chain;
        char name[120];
        if (!data_path(path, sizeof path, arms[a][0])) {
            check_skip("real-asset corpus not found");
            return;
        }
        CHECK(ik_urdf_read_file(path, &u, &err) == IK_OK, "%s: %s", path, err.message);
        if (!u) continue;
        CHECK(ik_urdf_robot_chain(u, arms[a][1], arms[a][2], &chain, NULL, &err) == IK_OK, "%s", err.message);
        round_trips(arms[a][0], &chain, kinds[a], 10 + (uint64_t)a);
        chain = rescaled(chain, 10);
        snprintf(name, sizeof name, "%s, 10 times larger", arms[a][0]);
        round_trips(name, &chain, kinds[a], 20 + (uint64_t)a);
        chain = base_turned(rescaled(chain, (ik_real)0.01), y_up);
        snprintf(name, sizeof name, "%s, 10 times smaller, base turned Y-up", arms[a][0]);
        round_trips(name, &chain, kinds[a], 30 + (uint64_t)a);
        ik_urdf_free(u);
    }
}

static void test_variants(void) {
    const ik_quat y_up = ik_quat_from_axis_angle(ik_v3(1, 0, 0), (ik_real)(-PI / 2));
    ik_robot_chain c = ur_shaped();
    round_trips("UR-shaped 6R", &c, IK_ROBOT_ANALYTIC_THREE_PARALLEL, 1);
    c = all_continuous(ur_shaped());
    round_trips("UR-shaped 6R, continuous joints", &c, IK_ROBOT_ANALYTIC_THREE_PARALLEL, 2);
    c = base_turned(rescaled(ur_shaped(), 10), y_up);
    round_trips("UR-shaped 6R, 10 times larger, base turned Y-up", &c, IK_ROBOT_ANALYTIC_THREE_PARALLEL, 3);
    c = spherical_arm(0.1);
    round_trips("spherical-wrist arm", &c, IK_ROBOT_ANALYTIC_SPHERICAL_WRIST, 4);
    c = spherical_arm(0);
    round_trips("spherical-wrist arm, no shoulder offset", &c, IK_ROBOT_ANALYTIC_SPHERICAL_WRIST, 5);
    c = base_turned(rescaled(all_continuous(spherical_arm(0.1)), (ik_real)0.1), y_up);
    round_trips("spherical-wrist arm, continuous, 10 times smaller, base turned", &c, IK_ROBOT_ANALYTIC_SPHERICAL_WRIST,
                6);
}

/* One named configuration: the goal from FK at q, solved from the mid-range
 * seed; the solutions are checked, one lands within CLOSE, and the singular
 * flag is as expected. */
static void named_pose(const char *name, const ik_robot_chain *c, const ik_real *q, int expect_singular) {
    ik_robot_analytic_model m;
    check_property prop = {0, 0, 0};
    ik_transform goal;
    ik_real seed[6];
    answer a;
    prop.name = name;
    CHECK(ik_robot_analytic_prepare(c, &m, NULL) == IK_OK, "%s", name);
    mid_range(c, seed);
    ik_robot_fk(c, q, &goal, NULL);
    a = solve(&m, goal, seed);
    CHECK(a.result == IK_OK && a.count >= 1, "%s: result %d, %d solutions", name, a.result, a.count);
    CHECK(check_solutions(&prop, c, &a, goal, seed) <= CLOSE, "%s: no solution within %g", name, CLOSE);
    CHECK(a.singular == expect_singular, "%s: singular flag %d", name, a.singular);
    property_end(&prop);
}

static void test_singular_poses(void) {
    const ik_robot_chain sph = spherical_arm(0.1), centred = spherical_arm(0), ur = ur_shaped();
    /* q5 = 0: axes 4 and 6 line up, only q4 + q6 is fixed (q4 takes the seed's value). */
    const ik_real wrist[6] = {(ik_real)0.3, (ik_real)-0.4, (ik_real)0.5, (ik_real)1.1, 0, (ik_real)-0.7};
    /* UR wrist: q5 = 0 puts axis 6 along axes 2, 3, 4. */
    const ik_real ur_wrist[6] = {(ik_real)0.3, (ik_real)-0.5, (ik_real)0.7, (ik_real)0.2, 0, (ik_real)0.4};
    /* No shoulder offset, q3 = -pi/2 puts the wrist centre 0.1 back and 1.3 up from joint 2, and
     * q2 = atan2(0.1, 1.3) turns it right over the base (q1 free); the lengths as the chain holds them. */
    const ik_real over_base[6] = {(ik_real)0.2,       (ik_real)atan2((double)0.1f, (double)0.7f + (double)0.6f),
                                  (ik_real)(-PI / 2), (ik_real)0.4,
                                  (ik_real)0.9,       (ik_real)0.1};
    /* q3 = atan2(-6, 1) lines the forearm's (0.6, 0, 0.1) up with the upper arm: the elbow stretched
     * straight, where SP3 meets its tangent (one elbow solution, nothing free). */
    const ik_real stretched[6] = {(ik_real)0.2, (ik_real)0.3, (ik_real)atan2(-6.0, 1.0),
                                  (ik_real)0.4, (ik_real)0.9, (ik_real)0.1};
    named_pose("spherical wrist singular (q5 = 0)", &sph, wrist, 1);
    named_pose("UR wrist singular (q5 = 0)", &ur, ur_wrist, 1);
    named_pose("wrist centre over the base", &centred, over_base, 1);
    named_pose("elbow stretched straight", &sph, stretched, 0);
}

/* Narrowed limits: every solution of the narrowed arm is inside its limits
 * and is one of the full arm's solutions; some of the full arm's are gone. */
static void test_narrowed_limits(void) {
    ik_robot_chain full = spherical_arm(0.1), narrow = full;
    ik_robot_analytic_model mf, mn;
    const ik_real q[6] = {(ik_real)0.2, (ik_real)0.1, (ik_real)-0.6, (ik_real)0.5, (ik_real)0.7, (ik_real)-0.3};
    ik_transform goal;
    answer af, an;
    int s, t;
    narrow.joints[0].lower = -1;
    narrow.joints[0].upper = 1;
    ik_robot_analytic_prepare(&full, &mf, NULL);
    ik_robot_analytic_prepare(&narrow, &mn, NULL);
    ik_robot_fk(&full, q, &goal, NULL);
    af = solve(&mf, goal, q);
    an = solve(&mn, goal, q);
    CHECK(an.count >= 1 && an.count < af.count, "narrowed: %d of %d solutions", an.count, af.count);
    for (s = 0; s < an.count; ++s) {
        double nearest = INFINITY;
        CHECK(inside_limits(&narrow, an.q + 6 * s), "narrowed solution %d outside the limits", s);
        for (t = 0; t < af.count; ++t) nearest = fmin(nearest, turns_apart(an.q + 6 * s, af.q + 6 * t));
        CHECK(nearest <= SAME_Q, "narrowed solution %d not among the full arm's", s);
    }
    CHECK(turns_apart(an.q, q) <= SAME_Q, "the nearest solution to the seed is not the seed's own");
}

/* The limit cost of robot_analytic.h: variables limited to less than a turn, in half-ranges from mid-range. */
static double limit_cost(const ik_robot_chain *c, const ik_real *q) {
    double cost = 0;
    int v;
    for (v = 0; v < 6; ++v) {
        double lo, hi, d;
        int wraps;
        variable_range(c, v, &lo, &hi, &wraps);
        if (wraps || hi - lo >= 2 * PI) continue;
        d = ((double)q[v] - (lo + hi) / 2) / ((hi - lo) / 2);
        cost += d * d;
    }
    return cost;
}

/* prefer = MID_RANGE: the same solutions, ordered by limit cost, so the first is the farthest from the limits. */
static void test_prefer_mid_range(void) {
    const ik_robot_chain c = spherical_arm(0.1);
    ik_robot_analytic_model m;
    check_property prop = {"prefer mid-range", 0, 0};
    rng r = rng_seeded(77);
    int i, s;
    ik_robot_analytic_prepare(&c, &m, NULL);
    for (i = 0; i < 200; ++i) {
        ik_real q[6], seed[6], ordered[MAX_Q];
        int count = 0, by_seed_count;
        ik_transform goal;
        ik_robot_analytic job = ik_robot_analytic_def();
        answer by_seed;
        random_in_limits(&c, &r, q);
        random_in_limits(&c, &r, seed);
        ik_robot_fk(&c, q, &goal, NULL);
        by_seed = solve(&m, goal, seed);
        by_seed_count = by_seed.count;
        job.model = &m;
        job.goal_position_bs = goal.translation;
        job.goal_rotation_bs = goal.rotation;
        job.q_seed = seed;
        job.prefer = IK_ROBOT_PREFER_MID_RANGE;
        job.q_out = ordered;
        job.solution_count = &count;
        ik_robot_analytic_run(&job);
        PROPERTY_CASE(prop, count == by_seed_count && count >= 1, "case %d: %d and %d solutions", i, count,
                      by_seed_count);
        for (s = 1; s < count; ++s)
            PROPERTY_CASE(prop, limit_cost(&c, ordered + 6 * (s - 1)) <= limit_cost(&c, ordered + 6 * s) + 1e-9,
                          "case %d: solution %d farther from the limits than %d", i, s - 1, s);
        for (s = 0; s < by_seed_count; ++s)
            PROPERTY_CASE(prop, limit_cost(&c, ordered) <= limit_cost(&c, by_seed.q + 6 * s) + 1e-9,
                          "case %d: a solution farther from the limits exists", i);
    }
    property_end(&prop);
}

static void test_unreachable(void) {
    const ik_robot_chain c = ur_shaped();
    ik_robot_analytic_model m;
    ik_transform goal = ik_transform_identity();
    answer a;
    ik_robot_analytic_prepare(&c, &m, NULL);
    goal.translation = ik_v3(5, 0, 0);
    a = solve(&m, goal, NULL);
    CHECK(a.result == IK_OK && a.count == 0, "out of reach: result %d, %d solutions", a.result, a.count);
}

static void expect_refused(const char *what, const ik_robot_chain *c) {
    ik_robot_analytic_model m;
    const char *why = NULL;
    ik_result r = ik_robot_analytic_prepare(c, &m, &why);
    CHECK(r == IK_ERR_UNSUPPORTED && why && m.kind == IK_ROBOT_ANALYTIC_NONE, "%s: result %d", what, r);
    if (why) printf("%s refused: %s\n", what, why);
}

static void test_refused(void) {
    ik_robot_chain skew = spherical_arm(0.1), c;
    char path[700];
    skew.joints[2].axis = ik_vec3_normalize(ik_v3(0.3f, 1, 0)); /* axes 2 and 3 no longer parallel */
    skew.joints[4].origin.translation = ik_v3(0.6f, 0.05f, 0);  /* and the wrist no longer meets */
    expect_refused("a 6R of skew axes", &skew);
    c = scara();
    expect_refused("a SCARA (prismatic, 4 variables)", &c);
    c = with_mimic(ur_shaped());
    expect_refused("a mimic joint", &c);
    if (data_path(path, sizeof path, "panda.urdf")) {
        ik_urdf *u = NULL;
        ik_error err;
        if (ik_urdf_read_file(path, &u, &err) == IK_OK &&
            ik_urdf_robot_chain(u, "panda_link0", "panda_link8", &c, NULL, &err) == IK_OK)
            expect_refused("the Panda (7 variables)", &c);
        ik_urdf_free(u);
    }
}

static void expect_bad(const char *what, ik_robot_analytic job, ik_result expected, const char *field) {
    ik_error where;
    int count = -7;
    ik_real q[MAX_Q];
    ik_result r;
    ik_error_clear(&where);
    q[0] = 42;
    if (job.q_out) job.q_out = q;
    if (job.solution_count) job.solution_count = &count;
    job.error_field = &where;
    r = ik_robot_analytic_run(&job);
    CHECK(r == expected, "%s: result %d", what, r);
    CHECK(field && strcmp(where.path, field) == 0, "%s: field %s", what, where.path[0] ? where.path : "(none)");
    CHECK(count == -7 && q[0] == 42, "%s: an output was written", what);
}

static void test_bad_input(void) {
    const ik_robot_chain c = ur_shaped();
    ik_robot_analytic_model m, none;
    ik_robot_analytic job = ik_robot_analytic_def(), bad;
    ik_real q[MAX_Q], seed[6] = {0, 0, 0, 0, 0, 0};
    int count;
    ik_robot_analytic_prepare(&c, &m, NULL);
    memset(&none, 0, sizeof none);
    job.model = &m;
    job.q_out = q;
    job.solution_count = &count;
    bad = job;
    bad.goal_position_bs.y = (ik_real)NAN;
    expect_bad("NaN goal", bad, IK_ERR_NONFINITE, "goal_position_bs");
    bad = job;
    bad.goal_rotation_bs = ik_q(0, 0, 0, 2);
    expect_bad("rotation of length 2", bad, IK_ERR_RANGE, "goal_rotation_bs");
    bad = job;
    bad.position_tolerance = 0;
    expect_bad("zero tolerance", bad, IK_ERR_RANGE, "position_tolerance");
    bad = job;
    seed[3] = (ik_real)INFINITY;
    bad.q_seed = seed;
    expect_bad("infinite seed", bad, IK_ERR_NONFINITE, "q_seed");
    bad = job;
    bad.model = &none;
    expect_bad("a model that fits no closed form", bad, IK_ERR_UNSUPPORTED, "model");
    bad = job;
    bad.prefer = (ik_robot_prefer)5;
    expect_bad("unknown prefer", bad, IK_ERR_RANGE, "prefer");
    bad = job;
    bad.model = NULL;
    expect_bad("no model", bad, IK_ERR_NULL, "model");
    bad = job;
    bad.defaulted = 0;
    expect_bad("not made by _def()", bad, IK_ERR_NOT_DEFAULTED, "defaulted");
    CHECK(ik_robot_analytic_prepare(NULL, &m, NULL) == IK_ERR_NULL && m.kind == IK_ROBOT_ANALYTIC_NONE,
          "prepare without a chain");
}

/* Both elbow branches at a stretched or folded elbow (issue 29): random
 * configurations of the UR5 with the elbow within 5e-4 rad of stretched and
 * of folded (the IRB 2400's limits keep its elbow from both), goal =
 * FK(q): among the solutions are one of each elbow branch (theta_3 either
 * side of stretched, or folded) with q's shoulder and wrist (theta_1 and
 * theta_5 within 0.01 of q's), each landing within 1e-5. In the float build
 * the goal's rounding clamped SP3's x to 1 and the two branches came out as
 * one: 8 poses in 20,000 random UR5 configurations had a solution fewer
 * than in the double build. The stretched angle is the test's own: with
 * b = p_3 - p_2 and a = x - p_3 (x = p_4, the point SP3 places on the UR5)
 * at theta_3 = 0, |x - p_2| is largest at
 * t = atan2(b . (h_3 x a), b . a - (h_3 . a)(h_3 . b)), in double. */
static double stretched_elbow(const ik_robot_chain *c, const ik_real *q, int point) {
    ik_transform links[IK_ROBOT_MAX_JOINTS], tip;
    ik_real z[6];
    double b[3], a[3], h[3], ha = 0, hb = 0, ba = 0, bha = 0;
    ik_vec3 axis;
    int i;
    memcpy(z, q, sizeof z);
    z[2] = 0;
    ik_robot_fk(c, z, &tip, links);
    axis = ik_quat_rotate(links[2].rotation, c->joints[2].axis);
    for (i = 0; i < 3; ++i) {
        b[i] = (double)(&links[2].translation.x)[i] - (double)(&links[1].translation.x)[i];
        a[i] = (double)(&links[point].translation.x)[i] - (double)(&links[2].translation.x)[i];
        h[i] = (double)(&axis.x)[i];
    }
    for (i = 0; i < 3; ++i) {
        const int j = (i + 1) % 3, k = (i + 2) % 3;
        ha += h[i] * a[i];
        hb += h[i] * b[i];
        ba += b[i] * a[i];
        bha += b[i] * (h[j] * a[k] - h[k] * a[j]);
    }
    return atan2(bha, ba - ha * hb);
}

static void test_elbow_branches(void) {
    static const char *const arms[1][3] = {{"ur5_joint_limited_robot.urdf", "base_link", "ee_link"}};
    char path[700];
    int a;
    for (a = 0; a < 1; ++a) {
        ik_urdf *u = NULL;
        ik_error err;
        ik_robot_chain chain;
        ik_robot_analytic_model model;
        check_property prop = {0, 0, 0};
        rng r = rng_seeded(2900 + (uint64_t)a);
        char name[120];
        int i, s;
        if (!data_path(path, sizeof path, arms[a][0])) {
            check_skip("real-asset corpus not found");
            return;
        }
        CHECK(ik_urdf_read_file(path, &u, &err) == IK_OK, "%s: %s", path, err.message);
        if (!u) continue;
        CHECK(ik_urdf_robot_chain(u, arms[a][1], arms[a][2], &chain, NULL, &err) == IK_OK &&
                  ik_robot_analytic_prepare(&chain, &model, NULL) == IK_OK,
              "%s", err.message);
        snprintf(name, sizeof name, "%s elbow branches", arms[a][0]);
        prop.name = name;
        for (i = 0; i < 400; ++i) {
            const int folded = i % 2;
            ik_real q[6];
            ik_transform goal;
            answer ans;
            int below = 0, above = 0;
            double worst = 0, bend;
            random_in_limits(&chain, &r, q);
            bend = stretched_elbow(&chain, q, 3) + (folded ? PI : 0);
            q[2] = (ik_real)remainder(bend + 5e-4 * (2 * rng_unit(&r) - 1), 2 * PI);
            ik_robot_fk(&chain, q, &goal, NULL);
            ans = solve(&model, goal, NULL);
            for (s = 0; s < ans.count; ++s) {
                const ik_real *x = ans.q + 6 * s;
                const double side = remainder((double)x[2] - bend, 2 * PI);
                worst = fmax(worst, pose_error(&chain, x, goal));
                if (fabs(remainder((double)x[0] - (double)q[0], 2 * PI)) > 0.01 ||
                    fabs(remainder((double)x[4] - (double)q[4], 2 * PI)) > 0.01 || fabs(side) > 0.01)
                    continue;
                below += side < 0;
                above += side > 0;
            }
            PROPERTY_CASE(prop, ans.result == IK_OK && below >= 1 && above >= 1 && worst <= TOL,
                          "theta_3 = %.6f (%s at %.6f): %d solutions, %d and %d either side, worst error %g",
                          (double)q[2], folded ? "folded" : "stretched", bend, ans.count, below, above, worst);
        }
        property_end(&prop);
        ik_urdf_free(u);
    }
}

int main(void) {
    test_variants();
    test_real_arms();
    test_elbow_branches();
    test_singular_poses();
    test_narrowed_limits();
    test_prefer_mid_range();
    test_unreachable();
    test_refused();
    test_bad_input();
    return check_summary("test_robot_analytic");
}

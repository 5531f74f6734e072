/* Robot pose IK (issue 12): round trips random in-limit configuration -> FK
 * -> IK -> FK on the three real arms of $IKIT_DATA/urdf and on hand-built
 * variants (a UR-shaped 6R arm, with continuous joints, rescaled, with its
 * base turned Y-up, with a mimic joint, a SCARA with a prismatic joint):
 * the tip lands within tolerance on every axis, every variable is inside its
 * limits, everything is finite. Unreachable goals give a best effort inside
 * the limits; position-only goals; restarts are deterministic; and one
 * named test per bad input and degenerate case. The round trips run the
 * numeric solver alone (analytic_starts = 0); the closed-form starts are
 * tested on their own: the TRAC-IK protocol's round trips on the UR5 and the
 * IRB 2400 (and the UR-shaped arm) start from a closed-form solution, with
 * the model prepared once or by each run (the same q), and a goal whose
 * solutions leave the limits (one branch, or every branch) still ends
 * inside them. */
#define _POSIX_C_SOURCE 200809L
#include <ikit/robot.h>
#include <ikit/robot_analytic.h>
#include <ikit/robot_ik.h>
#include <ikit/urdf.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/check.h"
#include "support/rng.h"
#include "support/robot_chains.h"

#define TOL ((ik_real)1e-5)
#define ROUND_TRIPS 200
#define HALF_PI 1.5707963267948966

static char data_dir[512];
static double scratch[2048];

static int have_data(void) {
    const char *dir = getenv("IKIT_DATA");
    if (!dir) return 0;
    snprintf(data_dir, sizeof data_dir, "%s/urdf", dir);
    return access(data_dir, R_OK) == 0;
}

/* ---- solving --------------------------------------------------------------- */

static ik_robot_ik job_for(const ik_robot_chain *c, ik_transform goal, const ik_real *seed, ik_real *q_out) {
    ik_robot_ik job = ik_robot_ik_def();
    job.chain = c;
    job.goal_position_bs = goal.translation;
    job.goal_rotation_bs = goal.rotation;
    job.q_seed = seed;
    job.q_out = q_out;
    job.max_iterations = 20000;
    job.scratch = scratch;
    job.scratch_bytes = sizeof scratch;
    return job;
}

/* The tip at q is within `tolerance` of the goal on each of x, y, z and the
 * rotation vector of goal * tip^-1 (the orientation only when `oriented`). */
static int lands_on(const ik_robot_chain *c, const ik_real *q, ik_transform goal, int oriented, double *pos_err,
                    double *ang_err) {
    ik_transform tip;
    ik_vec3 d, axis, rv;
    ik_real angle;
    if (ik_robot_fk(c, q, &tip, NULL) != IK_OK) return 0;
    d = ik_vec3_sub(goal.translation, tip.translation);
    ik_quat_to_axis_angle(ik_quat_mul(goal.rotation, ik_quat_conjugate(tip.rotation)), &axis, &angle);
    rv = ik_vec3_scale(axis, angle);
    *pos_err = ik_vec3_length(d);
    *ang_err = angle;
    return fabs(d.x) <= TOL && fabs(d.y) <= TOL && fabs(d.z) <= TOL &&
           (!oriented || (fabs(rv.x) <= TOL && fabs(rv.y) <= TOL && fabs(rv.z) <= TOL));
}

/* ROUND_TRIPS random in-limit configurations -> FK -> IK (the numeric
 * solver alone) from the mid-range seed -> FK: within tolerance, inside the
 * limits, finite. */
static void round_trips(const char *name, const ik_robot_chain *c, uint64_t seed_value, int oriented) {
    check_property prop = {0, 0, 0};
    rng r = rng_seeded(seed_value);
    ik_real truth[IK_ROBOT_MAX_JOINTS], seed[IK_ROBOT_MAX_JOINTS], q[IK_ROBOT_MAX_JOINTS];
    int i, total_restarts = 0;
    prop.name = name;
    mid_range(c, seed);
    for (i = 0; i < ROUND_TRIPS; ++i) {
        ik_transform goal;
        ik_robot_ik job;
        ik_bool reached = 0;
        ik_real pe = -1, ae = -1;
        int restarts = 0;
        double pos_err = 0, ang_err = 0;
        ik_result res;
        random_in_limits(c, &r, truth);
        ik_robot_fk(c, truth, &goal, NULL);
        job = job_for(c, goal, seed, q);
        job.orientation_importance = oriented ? 1 : 0;
        job.random_seed = (unsigned long)i + 1;
        job.reached = &reached;
        job.position_error = &pe;
        job.angle_error = &ae;
        job.restarts = &restarts;
        job.analytic_starts = 0;
        res = ik_robot_ik_run(&job);
        total_restarts += restarts;
        PROPERTY_CASE(prop,
                      res == IK_OK && reached && lands_on(c, q, goal, oriented, &pos_err, &ang_err) &&
                          inside_limits(c, q) && fabs(pe - pos_err) < 1e-6 &&
                          (oriented ? fabs(ae - ang_err) < 1e-6 : ae == 0),
                      "%s (reached %d, tip off by %g m and %g rad, in limits %d)", ik_result_str(res), (int)reached,
                      pos_err, ang_err, inside_limits(c, q));
    }
    property_end(&prop);
    printf("%s: %d round trips, %d restarts\n", name, ROUND_TRIPS, total_restarts);
}

/* The chain from arm[1] to arm[2] of the shared URDF file arm[0]; 0 when it
 * does not load (a failed check). */
static int load_arm(const char *const arm[3], ik_urdf **u, ik_robot_chain *chain) {
    char path[700];
    ik_error err;
    *u = NULL;
    snprintf(path, sizeof path, "%s/%s", data_dir, arm[0]);
    CHECK(ik_urdf_read_file(path, u, &err) == IK_OK, "%s: %s", path, err.message);
    if (!*u) return 0;
    CHECK(ik_urdf_robot_chain(*u, arm[1], arm[2], chain, NULL, &err) == IK_OK, "%s", err.message);
    return 1;
}

static void test_real_arms(void) {
    static const char *const arms[3][3] = {{"ur5_joint_limited_robot.urdf", "base_link", "ee_link"},
                                           {"panda.urdf", "panda_link0", "panda_link8"},
                                           {"abb_irb2400.urdf", "base_link", "tool0"}};
    int a;
    if (!have_data()) {
        check_skip("real-asset corpus not found");
        return;
    }
    for (a = 0; a < 3; ++a) {
        char name[100];
        ik_urdf *u;
        ik_robot_chain chain;
        if (!load_arm(arms[a], &u, &chain)) continue;
        snprintf(name, sizeof name, "%s pose round trips", arms[a][0]);
        round_trips(name, &chain, 100 + (uint64_t)a, 1);
        snprintf(name, sizeof name, "%s position-only round trips", arms[a][0]);
        round_trips(name, &chain, 200 + (uint64_t)a, 0);
        ik_urdf_free(u);
    }
}

static void test_variants(void) {
    const ik_quat y_up = ik_quat_from_axis_angle(ik_v3(1, 0, 0), (ik_real)-HALF_PI);
    ik_robot_chain c = ur_shaped();
    round_trips("UR-shaped 6R", &c, 1, 1);
    c = all_continuous(ur_shaped());
    round_trips("UR-shaped 6R, continuous joints", &c, 2, 1);
    c = rescaled(ur_shaped(), 10);
    round_trips("UR-shaped 6R, 10 times larger", &c, 3, 1);
    c = rescaled(ur_shaped(), (ik_real)0.1);
    round_trips("UR-shaped 6R, 10 times smaller", &c, 4, 1);
    c = base_turned(ur_shaped(), y_up);
    round_trips("UR-shaped 6R, base turned Y-up", &c, 5, 1);
    c = with_mimic(ur_shaped());
    round_trips("UR-shaped 6R with a mimic joint", &c, 6, 1);
    c = scara();
    round_trips("SCARA with a prismatic joint", &c, 7, 1);
}

/* ik_robot_fk_many: the tip of each configuration exactly as ik_robot_fk
 * gives it; a NaN in the sixth configuration stops it there with its index,
 * the tips before written and the ones after untouched; bad counts and
 * pointers refused. */
static void test_fk_many(void) {
    ik_robot_chain c = ur_shaped();
    enum { COUNT = 9 };
    ik_real q[COUNT * 6];
    ik_transform tips[COUNT], one;
    rng r = rng_seeded(41);
    int i, failed = 7, same = 1;
    for (i = 0; i < COUNT * 6; ++i) q[i] = (ik_real)rng_range(&r, -3, 3);
    CHECK(ik_robot_fk_many(&c, COUNT, q, tips, &failed) == IK_OK && failed == -1, "fk_many: every configuration done");
    for (i = 0; i < COUNT; ++i) {
        CHECK(ik_robot_fk(&c, q + i * 6, &one, NULL) == IK_OK, "fk of configuration %d", i);
        same &= memcmp(&one.translation, &tips[i].translation, sizeof one.translation) == 0 &&
                memcmp(&one.rotation, &tips[i].rotation, sizeof one.rotation) == 0;
    }
    CHECK(same, "fk_many: each tip bit for bit ik_robot_fk's");
    for (i = 0; i < COUNT; ++i) tips[i].translation = ik_v3(7, 7, 7);
    q[5 * 6 + 2] = (ik_real)NAN;
    CHECK(ik_robot_fk_many(&c, COUNT, q, tips, &failed) == IK_ERR_NONFINITE && failed == 5,
          "fk_many: NaN in configuration 5 refused there (%d)", failed);
    CHECK(tips[4].translation.x != 7 && tips[5].translation.x == 7 && tips[8].translation.x == 7,
          "fk_many: tips before the refused one written, from it on untouched");
    CHECK(ik_robot_fk_many(&c, -1, q, tips, &failed) == IK_ERR_RANGE && failed == -1, "fk_many: negative count");
    CHECK(ik_robot_fk_many(&c, 2, NULL, tips, &failed) == IK_ERR_NULL, "fk_many: no configurations");
    CHECK(ik_robot_fk_many(&c, 2, q, tips, NULL) == IK_ERR_NULL, "fk_many: no place for the index");
    CHECK(ik_robot_fk_many(&c, 0, NULL, NULL, &failed) == IK_OK && failed == -1, "fk_many: nothing to do");
}

/* ik_robot_chain_check: a good chain passes; a variable index outside the
 * chain, too many joints, a NaN origin and an infinite axis are refused with
 * the joint at fault, and no chain is IK_ERR_NULL. */
static void test_chain_check(void) {
    ik_robot_chain good = ur_shaped(), c;
    int bad = 7;
    CHECK(ik_robot_chain_check(&good, &bad) == IK_OK && bad == -1, "a good chain passes");
    CHECK(ik_robot_chain_check(NULL, &bad) == IK_ERR_NULL && ik_robot_chain_check(&good, NULL) == IK_OK,
          "no chain refused; no place for the joint is fine");
    c = good;
    c.joints[2].variable = c.variable_count;
    CHECK(ik_robot_chain_check(&c, &bad) == IK_ERR_RANGE && bad == 2, "variable outside the chain: joint %d", bad);
    c = good;
    c.joint_count = IK_ROBOT_MAX_JOINTS + 1;
    CHECK(ik_robot_chain_check(&c, &bad) == IK_ERR_RANGE && bad == -1, "too many joints");
    c = good;
    c.joints[3].origin.translation.y = (ik_real)NAN;
    CHECK(ik_robot_chain_check(&c, &bad) == IK_ERR_NONFINITE && bad == 3, "NaN origin: joint %d", bad);
    c = good;
    c.joints[4].axis.z = (ik_real)INFINITY;
    CHECK(ik_robot_chain_check(&c, &bad) == IK_ERR_NONFINITE && bad == 4, "infinite axis: joint %d", bad);
}

/* ik_robot_jacobian_tip: its tip is ik_robot_fk's, and each column is the
 * central difference (FK(q + h e_v) - FK(q - h e_v)) / 2h of the tip's
 * position and of its rotation (as the rotation vector of R+ R-^-1 / 2h),
 * on the mimic variant, where a variable moves two joints. */
static void test_jacobian_tip(void) {
#ifdef IKIT_DOUBLE
    const double h = 1e-5, tol = 1e-6;
#else
    const double h = 1e-2, tol = 2e-3;
#endif
    ik_robot_chain c = with_mimic(ur_shaped());
    ik_real q[6] = {0.3f, -0.8f, 1.2f, 0.1f, -0.6f, 0.9f}, jac[36];
    ik_transform tip, fk_tip;
    int v, r;
    CHECK(ik_robot_jacobian_tip(&c, q, jac, &tip) == IK_OK && ik_robot_fk(&c, q, &fk_tip, NULL) == IK_OK, "runs");
    CHECK(memcmp(&tip, &fk_tip, sizeof tip) == 0, "the Jacobian's tip is FK's");
    for (v = 0; v < 6; ++v) {
        ik_real plus[6], minus[6];
        ik_transform a, b;
        ik_vec3 axis, rv;
        ik_real angle;
        double fd[6];
        memcpy(plus, q, sizeof plus);
        memcpy(minus, q, sizeof minus);
        plus[v] += (ik_real)h;
        minus[v] -= (ik_real)h;
        ik_robot_fk(&c, plus, &a, NULL);
        ik_robot_fk(&c, minus, &b, NULL);
        ik_quat_to_axis_angle(ik_quat_mul(a.rotation, ik_quat_conjugate(b.rotation)), &axis, &angle);
        rv = ik_vec3_scale(axis, angle);
        fd[0] = (a.translation.x - b.translation.x) / (2 * h);
        fd[1] = (a.translation.y - b.translation.y) / (2 * h);
        fd[2] = (a.translation.z - b.translation.z) / (2 * h);
        fd[3] = rv.x / (2 * h);
        fd[4] = rv.y / (2 * h);
        fd[5] = rv.z / (2 * h);
        for (r = 0; r < 6; ++r)
            CHECK(fabs(jac[v * 6 + r] - fd[r]) < tol, "d row %d / d q%d: %g, finite difference %g", r, v,
                  (double)jac[v * 6 + r], fd[r]);
    }
}

/* ik_robot_variable_limits: a mimic with multiplier -2 and offset 0.5 in
 * [-1.5, 2.5] holds q in [-1, 1] (ends swapped), intersected with the
 * leader's [-0.8, 3]; a variable of continuous joints only has none. */
static void test_variable_limits(void) {
    ik_robot_chain c;
    ik_real lower[2], upper[2];
    ik_bool limited[2];
    int bad = 7;
    memset(&c, 0, sizeof c);
    c.joints[0] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0, 0, 0.1f), ik_v3(0, 0, 1), -0.8, 3, 0);
    c.joints[1] = joint_at(IK_ROBOT_CONTINUOUS, ik_v3(0.3f, 0, 0), ik_v3(0, 0, 1), 0, 0, 1);
    c.joints[2] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0.3f, 0, 0), ik_v3(0, 1, 0), -1.5, 2.5, 0);
    c.joints[2].multiplier = -2;
    c.joints[2].offset = (ik_real)0.5;
    c.joint_count = 3;
    c.variable_count = 2;
    CHECK(ik_robot_variable_limits(&c, lower, upper, limited, &bad) == IK_OK && bad == -1, "limits");
    CHECK(limited[0] && fabs(lower[0] + 0.8) < 1e-6 && fabs(upper[0] - 1) < 1e-6, "q0 in [%g, %g], expected [-0.8, 1]",
          (double)lower[0], (double)upper[0]);
    CHECK(!limited[1] && lower[1] == -IK_PI && upper[1] == IK_PI, "continuous: one turn, no limits");
    c.joints[2].lower = 2;
    c.joints[2].upper = 2.5; /* q in [-1, -0.75], which meets [-0.8, 3] in [-0.8, -0.75] */
    CHECK(ik_robot_variable_limits(&c, lower, upper, limited, &bad) == IK_OK && fabs(upper[0] + 0.75) < 1e-6,
          "narrow overlap [%g, %g]", (double)lower[0], (double)upper[0]);
    c.joints[2].lower = 2.4f; /* q in [-1, -0.95]: no common value */
    CHECK(ik_robot_variable_limits(&c, lower, upper, limited, &bad) == IK_ERR_RANGE && bad == 2, "disjoint limits");
}

/* ---- best effort, budgets, determinism --------------------------------------- */

/* A goal 5 m away from a 1.3 m arm: not reached, the best pose inside the
 * limits, its reported error what FK says and no worse than the seed's. */
static void test_unreachable(void) {
    ik_robot_chain c = ur_shaped();
    ik_real seed[6], q[6];
    ik_transform goal = ik_transform_identity();
    ik_robot_ik job;
    ik_bool reached = 1;
    ik_real pe = -1, ae = -1;
    int restarts = 0;
    double pos_err, ang_err;
    mid_range(&c, seed);
    goal.translation = ik_v3(5, 0, 0);
    job = job_for(&c, goal, seed, q);
    job.max_iterations = 600;
    job.reached = &reached;
    job.position_error = &pe;
    job.angle_error = &ae;
    job.restarts = &restarts;
    CHECK(ik_robot_ik_run(&job) == IK_OK, "an unreachable goal still runs");
    lands_on(&c, q, goal, 1, &pos_err, &ang_err);
    CHECK(!reached, "a goal beyond reach is not reached");
    CHECK(inside_limits(&c, q), "best effort inside the limits");
    CHECK(fabs(pe - pos_err) < 1e-5 && fabs(ae - ang_err) < 1e-5, "reported %g m %g rad, FK says %g m %g rad",
          (double)pe, (double)ae, pos_err, ang_err);
    CHECK(pos_err > 3.5 && pos_err < 5, "closest approach %g m (the arm reaches about 1.3 m)", pos_err);
    CHECK(restarts > 0, "a stalled solve restarts (%d)", restarts);
}

/* The same job twice gives the same q to the bit (seeded restarts). */
static void test_deterministic(void) {
    ik_robot_chain c = ur_shaped();
    ik_real seed[6], q1[6], q2[6];
    ik_transform goal = ik_transform_identity();
    ik_robot_ik job;
    int restarts = 0;
    mid_range(&c, seed);
    goal.translation = ik_v3(0.3f, 2, 0.4f);
    job = job_for(&c, goal, seed, q1);
    job.max_iterations = 300;
    job.restarts = &restarts;
    ik_robot_ik_run(&job);
    job.q_out = q2;
    ik_robot_ik_run(&job);
    CHECK(restarts > 0 && memcmp(q1, q2, sizeof q1) == 0, "two runs with %d restarts give the same q", restarts);
}

/* A goal at the seed's own pose: reached with no iteration. */
static void test_goal_at_seed(void) {
    ik_robot_chain c = ur_shaped();
    ik_real seed[6] = {0.1f, -0.4f, 1, 0.2f, 0.3f, -0.5f}, q[6];
    ik_transform goal;
    ik_robot_ik job;
    ik_bool reached = 0;
    ik_robot_ik_start found_by = IK_ROBOT_START_RANDOM;
    int iterations = -1;
    ik_robot_fk(&c, seed, &goal, NULL);
    job = job_for(&c, goal, seed, q);
    job.reached = &reached;
    job.iterations = &iterations;
    job.found_by = &found_by;
    CHECK(ik_robot_ik_run(&job) == IK_OK && reached && iterations == 0 && memcmp(q, seed, sizeof q) == 0 &&
              found_by == IK_ROBOT_START_SEED,
          "goal at the seed: reached %d after %d iterations from the %s", (int)reached, iterations,
          ik_robot_ik_start_str(found_by));
}

/* The stretched, singular zero configuration's pose, solved from the mid-range
 * seed of a chain whose limits put zero at the middle: the seed is the
 * singular pose itself, slightly moved. */
static void test_singular_goal(void) {
    ik_robot_chain c = ur_shaped();
    ik_real zero[6] = {0, 0, 0, 0, 0, 0}, seed[6] = {0.01f, 0.01f, 0.01f, 0.01f, 0.01f, 0.01f}, q[6];
    ik_transform goal;
    ik_robot_ik job;
    ik_bool reached = 0;
    double pe, ae;
    ik_robot_fk(&c, zero, &goal, NULL);
    job = job_for(&c, goal, seed, q);
    job.reached = &reached;
    CHECK(ik_robot_ik_run(&job) == IK_OK && reached && lands_on(&c, q, goal, 1, &pe, &ae) && inside_limits(&c, q),
          "singular goal: reached %d, off by %g m %g rad", (int)reached, pe, ae);
}

/* A clock that jumps a second per reading: the time budget stops the solve at once. */
static double jumping_clock(void *user) {
    double *t = (double *)user;
    *t += 1;
    return *t;
}

static void test_time_budget(void) {
    ik_robot_chain c = ur_shaped();
    ik_real seed[6], q[6];
    ik_transform goal = ik_transform_identity();
    ik_robot_ik job;
    ik_bool reached = 1;
    int iterations = -1;
    double now = 0;
    mid_range(&c, seed);
    goal.translation = ik_v3(0.5f, 0.2f, 0.3f);
    job = job_for(&c, goal, seed, q);
    job.clock_s = jumping_clock;
    job.clock_user = &now;
    job.time_budget_s = 0.5;
    job.reached = &reached;
    job.iterations = &iterations;
    CHECK(ik_robot_ik_run(&job) == IK_OK && !reached && iterations == 0 && inside_limits(&c, q),
          "time budget spent: reached %d after %d iterations", (int)reached, iterations);
}

/* ---- closed-form starts ------------------------------------------------------ */

/* The TRAC-IK protocol's round trips (random in-limit q -> FK -> IK from the
 * mid-range seed -> FK) with the closed-form starts on: every goal reached
 * on every axis by the solver's own FK check and the test's, inside the
 * limits, from a closed-form start (found_by); the model prepared once and
 * by each run give the same q to the bit. Position-only goals too, where
 * the closed form is asked at the seed's orientation, which the goal's
 * position does not always allow: those are reached from any start. */
static void seeded_round_trips(const char *name, const ik_robot_chain *c, uint64_t seed_value, int oriented) {
    check_property prop = {0, 0, 0};
    rng r = rng_seeded(seed_value);
    ik_robot_analytic_model model;
    ik_real truth[6], seed[6], q[6], q_own[6];
    int i, as_is = 0, refined = 0;
    prop.name = name;
    CHECK(ik_robot_analytic_prepare(c, &model, NULL) == IK_OK, "%s: a closed form", name);
    mid_range(c, seed);
    for (i = 0; i < ROUND_TRIPS; ++i) {
        ik_transform goal;
        ik_robot_ik job;
        ik_bool reached = 0;
        ik_robot_ik_start found_by = IK_ROBOT_START_RANDOM;
        int iterations = -1;
        double pos_err = 0, ang_err = 0;
        ik_result res;
        random_in_limits(c, &r, truth);
        ik_robot_fk(c, truth, &goal, NULL);
        job = job_for(c, goal, seed, q);
        job.orientation_importance = oriented ? 1 : 0;
        job.random_seed = (unsigned long)i + 1;
        job.reached = &reached;
        job.found_by = &found_by;
        job.iterations = &iterations;
        job.analytic_model = &model;
        res = ik_robot_ik_run(&job);
        job.analytic_model = NULL;
        job.q_out = q_own;
        ik_robot_ik_run(&job);
        as_is += found_by == IK_ROBOT_START_ANALYTIC;
        refined += found_by == IK_ROBOT_START_ANALYTIC_REFINED;
        PROPERTY_CASE(
            prop,
            res == IK_OK && reached && lands_on(c, q, goal, oriented, &pos_err, &ang_err) && inside_limits(c, q) &&
                (!oriented || found_by == IK_ROBOT_START_ANALYTIC || found_by == IK_ROBOT_START_ANALYTIC_REFINED) &&
                (found_by != IK_ROBOT_START_ANALYTIC || iterations == 0) && memcmp(q, q_own, sizeof q) == 0,
            "%s (reached %d from the %s start after %d iterations, tip off by %g m and %g rad, in limits %d)",
            ik_result_str(res), (int)reached, ik_robot_ik_start_str(found_by), iterations, pos_err, ang_err,
            inside_limits(c, q));
    }
    property_end(&prop);
    printf("%s: %d round trips, %d from a closed-form solution as it is, %d refined\n", name, ROUND_TRIPS, as_is,
           refined);
}

static void test_analytic_starts(void) {
    static const char *const arms[2][3] = {{"ur5_joint_limited_robot.urdf", "base_link", "ee_link"},
                                           {"abb_irb2400.urdf", "base_link", "tool0"}};
    ik_robot_chain c = ur_shaped();
    int a;
    seeded_round_trips("UR-shaped 6R, closed-form starts", &c, 11, 1);
    seeded_round_trips("UR-shaped 6R, closed-form starts, position only", &c, 12, 0);
    if (!have_data()) {
        check_skip("real-asset corpus not found");
        return;
    }
    for (a = 0; a < 2; ++a) {
        char name[100];
        ik_urdf *u;
        if (!load_arm(arms[a], &u, &c)) continue;
        snprintf(name, sizeof name, "%s closed-form starts", arms[a][0]);
        seeded_round_trips(name, &c, 300 + (uint64_t)a, 1);
        snprintf(name, sizeof name, "%s closed-form starts, position only", arms[a][0]);
        seeded_round_trips(name, &c, 400 + (uint64_t)a, 0);
        ik_urdf_free(u);
    }
}

/* The closed form's in-limit solutions for `goal` on c (from the mid-range seed). */
static int in_limit_solutions(const ik_robot_chain *c, ik_transform goal, ik_real *solutions) {
    ik_robot_analytic_model model;
    ik_robot_analytic closed = ik_robot_analytic_def();
    ik_real seed[6];
    int count = -1;
    mid_range(c, seed);
    if (ik_robot_analytic_prepare(c, &model, NULL) != IK_OK) return -1;
    closed.model = &model;
    closed.goal_position_bs = goal.translation;
    closed.goal_rotation_bs = goal.rotation;
    closed.q_seed = seed;
    closed.q_out = solutions;
    closed.solution_count = &count;
    return ik_robot_analytic_run(&closed) == IK_OK ? count : -1;
}

/* The goal's own configuration `truth` lies beyond a narrowed limit: with
 * the elbow kept negative, the other elbow's branch is taken (reached from
 * a closed-form start, inside the limits); with the base kept off both of
 * the goal's base angles, no configuration inside the limits reaches it (the
 * closed form has none there), and the solve ends inside the limits with the
 * closest pose it found, its first attempt from a clamped closed-form
 * solution. */
static void test_analytic_beyond_limits(void) {
    const ik_real truth[6] = {0.3f, -0.7f, 1.1f, 0.4f, -0.2f, 0.6f};
    ik_real seed[6], q[6], solutions[IK_ROBOT_ANALYTIC_MAX_SOLUTIONS * 6];
    ik_robot_chain c = ur_shaped();
    ik_transform goal;
    ik_robot_ik job;
    ik_bool reached = 0;
    ik_real pe = -1, ae = -1;
    ik_robot_ik_start found_by = IK_ROBOT_START_SEED;
    double pos_err, ang_err;
    int count;
    ik_robot_fk(&c, truth, &goal, NULL);
    c.joints[2].lower = -2.5f;
    c.joints[2].upper = 0;
    count = in_limit_solutions(&c, goal, solutions);
    CHECK(count > 0, "elbow kept negative: %d closed-form solutions inside the limits", count);
    mid_range(&c, seed);
    job = job_for(&c, goal, seed, q);
    job.reached = &reached;
    job.found_by = &found_by;
    CHECK(ik_robot_ik_run(&job) == IK_OK && reached && lands_on(&c, q, goal, 1, &pos_err, &ang_err) &&
              inside_limits(&c, q) && q[2] < 0 && found_by == IK_ROBOT_START_ANALYTIC,
          "elbow kept negative: reached %d from the %s start, elbow %g, off by %g m %g rad", (int)reached,
          ik_robot_ik_start_str(found_by), (double)q[2], pos_err, ang_err);

    c = ur_shaped();
    c.joints[0].lower = 0.5f;
    c.joints[0].upper = 0.9f;
    count = in_limit_solutions(&c, goal, solutions);
    CHECK(count == 0, "base kept in [0.5, 0.9]: %d closed-form solutions inside the limits", count);
    mid_range(&c, seed);
    job = job_for(&c, goal, seed, q);
    job.max_iterations = 600;
    job.reached = &reached;
    job.position_error = &pe;
    job.angle_error = &ae;
    job.found_by = &found_by;
    CHECK(ik_robot_ik_run(&job) == IK_OK, "base kept in [0.5, 0.9]: runs");
    lands_on(&c, q, goal, 1, &pos_err, &ang_err);
    CHECK(!reached && inside_limits(&c, q) && fabs(pe - pos_err) < 1e-5 && fabs(ae - ang_err) < 1e-5,
          "base kept in [0.5, 0.9]: reached %d, inside the limits %d, reported %g m %g rad, FK says %g m %g rad",
          (int)reached, inside_limits(&c, q), (double)pe, (double)ae, pos_err, ang_err);
    /* With one attempt's budget, the attempt after the seed is a clamped closed-form solution's. */
    job.max_iterations = job.attempt_iterations;
    CHECK(ik_robot_ik_run(&job) == IK_OK && !reached && inside_limits(&c, q) &&
              found_by == IK_ROBOT_START_ANALYTIC_REFINED,
          "base kept in [0.5, 0.9], one attempt: closest pose from the %s start, base at %g",
          ik_robot_ik_start_str(found_by), (double)q[0]);
}

/* ---- bad input ---------------------------------------------------------------- */

/* Runs `job`, expects `expected` naming `field` [index], and q_out untouched. */
static void expect_refused(const char *what, ik_robot_ik job, ik_result expected, const char *field, int index) {
    ik_real q[IK_ROBOT_MAX_JOINTS];
    ik_error where;
    ik_bool reached = 7;
    ik_result got;
    int v;
    ik_error_clear(&where);
    where.index = -2;
    for (v = 0; v < IK_ROBOT_MAX_JOINTS; ++v) q[v] = (ik_real)1234.5;
    if (job.q_out) job.q_out = q;
    job.error_field = &where;
    job.reached = &reached;
    got = ik_robot_ik_run(&job);
    CHECK(got == expected, "%s: got %s, expected %s", what, ik_result_str(got), ik_result_str(expected));
    CHECK(strcmp(where.path, field) == 0 && where.index == index, "%s: field %s [%d]", what,
          where.path[0] ? where.path : "(none)", where.index);
    for (v = 0; v < IK_ROBOT_MAX_JOINTS; ++v) CHECK(q[v] == (ik_real)1234.5, "%s: q_out[%d] written", what, v);
    CHECK(reached == 7, "%s: reached written", what);
}

static void test_bad_input(void) {
    ik_robot_chain c = ur_shaped(), bad_chain;
    ik_real seed[6], q[6], outside[6];
    ik_transform goal = ik_transform_identity();
    ik_robot_ik job, base;
    double now = 0;
    mid_range(&c, seed);
    goal.translation = ik_v3(0.4f, 0.1f, 0.3f);
    base = job_for(&c, goal, seed, q);

    job = base;
    job.goal_position_bs.y = (ik_real)NAN;
    expect_refused("NaN goal position", job, IK_ERR_NONFINITE, "goal_position_bs", -1);
    job = base;
    job.goal_rotation_bs.w = (ik_real)INFINITY;
    expect_refused("infinite goal rotation", job, IK_ERR_NONFINITE, "goal_rotation_bs", -1);
    job = base;
    job.goal_rotation_bs = ik_q(0, 0, 0, 2);
    expect_refused("non-unit goal rotation", job, IK_ERR_RANGE, "goal_rotation_bs", -1);
    job = base;
    job.goal_rotation_bs = ik_q(0, 0, 0, 0);
    expect_refused("zero goal rotation", job, IK_ERR_RANGE, "goal_rotation_bs", -1);
    job = base;
    job.null_space_gain = (ik_real)NAN;
    expect_refused("NaN null-space gain", job, IK_ERR_NONFINITE, "null_space_gain", -1);
    job.null_space_gain = (ik_real)1.5;
    expect_refused("null-space gain above 1", job, IK_ERR_RANGE, "null_space_gain", -1);
    job = base;
    job.prefer = (ik_robot_prefer)7;
    expect_refused("unknown prefer", job, IK_ERR_RANGE, "prefer", -1);
    job = base;
    job.null_space_iterations = -1;
    expect_refused("negative null-space iterations", job, IK_ERR_RANGE, "null_space_iterations", -1);
    memcpy(outside, seed, sizeof outside);
    outside[2] = 2.6f; /* the elbow's limits are [-2.5, 2.5] */
    job = base;
    job.q_seed = outside;
    expect_refused("seed outside its limits", job, IK_ERR_RANGE, "q_seed", 2);
    outside[2] = (ik_real)NAN;
    expect_refused("NaN seed", job, IK_ERR_NONFINITE, "q_seed", 2);
    job = base;
    job.max_iterations = 0;
    expect_refused("zero iteration budget", job, IK_ERR_RANGE, "max_iterations", -1);
    job = base;
    job.clock_s = jumping_clock;
    job.clock_user = &now;
    job.time_budget_s = 0;
    expect_refused("zero time budget", job, IK_ERR_RANGE, "time_budget_s", -1);
    job.time_budget_s = NAN;
    expect_refused("NaN time budget", job, IK_ERR_RANGE, "time_budget_s", -1);
    job = base;
    job.position_importance = 0;
    job.orientation_importance = 0;
    expect_refused("both weights zero", job, IK_ERR_RANGE, "position_importance", -1);
    job = base;
    job.orientation_importance = -1;
    expect_refused("negative weight", job, IK_ERR_RANGE, "orientation_importance", -1);
    job = base;
    job.position_tolerance.z = 0;
    expect_refused("zero tolerance", job, IK_ERR_RANGE, "position_tolerance", -1);
    job = base;
    job.angle_tolerance.x = (ik_real)NAN;
    expect_refused("NaN tolerance", job, IK_ERR_RANGE, "angle_tolerance", -1);
    job = base;
    job.scratch_bytes = ik_robot_ik_scratch_size(6) - 1;
    expect_refused("scratch too small", job, IK_ERR_CAPACITY, "scratch_bytes", -1);
    job = base;
    job.chain = NULL;
    expect_refused("no chain", job, IK_ERR_NULL, "chain", -1);
    job = base;
    job.defaulted = 0;
    expect_refused("job not from _def()", job, IK_ERR_NOT_DEFAULTED, "defaulted", -1);
    bad_chain = c;
    bad_chain.joints[3].lower = 1;
    bad_chain.joints[3].upper = -1;
    job = base;
    job.chain = &bad_chain;
    expect_refused("lower limit above upper", job, IK_ERR_RANGE, "chain", 3);
    bad_chain = with_mimic(c);
    bad_chain.joints[7].multiplier = 0;
    job.chain = &bad_chain;
    expect_refused("mimic multiplier 0", job, IK_ERR_DEGENERATE, "chain", 7);
    bad_chain = c;
    bad_chain.joints[1].origin.translation.x = (ik_real)INFINITY;
    job.chain = &bad_chain;
    expect_refused("infinite joint origin", job, IK_ERR_NONFINITE, "chain", 1);
    job = base;
    job.q_out = NULL;
    expect_refused("no q_out", job, IK_ERR_NULL, "q_out", -1);
    {
        ik_robot_chain other = rescaled(ur_shaped(), 2);
        ik_robot_analytic_model model;
        CHECK(ik_robot_analytic_prepare(&other, &model, NULL) == IK_OK, "the other chain has a closed form");
        job = base;
        job.analytic_model = &model;
        expect_refused("an analytic model of another chain", job, IK_ERR_RANGE, "analytic_model", -1);
    }
    {
        /* A model of kind NONE (a chain with no closed form) only turns the starts off. */
        ik_robot_chain skew = with_mimic(ur_shaped());
        ik_robot_analytic_model none;
        ik_bool reached = 0;
        ik_robot_ik_start found_by = IK_ROBOT_START_ANALYTIC;
        ik_transform at;
        const ik_real truth[6] = {0.3f, -0.7f, 1.1f, 0.4f, -0.2f, 0.6f};
        ik_real skew_seed[6];
        double pe, ae;
        CHECK(
            ik_robot_analytic_prepare(&skew, &none, NULL) == IK_ERR_UNSUPPORTED && none.kind == IK_ROBOT_ANALYTIC_NONE,
            "the mimic variant has no closed form");
        mid_range(&skew, skew_seed);
        ik_robot_fk(&skew, truth, &at, NULL);
        job = job_for(&skew, at, skew_seed, q);
        job.analytic_model = &none;
        job.reached = &reached;
        job.found_by = &found_by;
        CHECK(ik_robot_ik_run(&job) == IK_OK && reached && lands_on(&skew, q, at, 1, &pe, &ae) &&
                  found_by != IK_ROBOT_START_ANALYTIC && found_by != IK_ROBOT_START_ANALYTIC_REFINED,
              "a model of kind NONE: reached %d from the %s start", (int)reached, ik_robot_ik_start_str(found_by));
    }
}

/* A position-only goal ignores a non-unit rotation (it is not used). */
static void test_position_only_ignores_rotation(void) {
    ik_robot_chain c = ur_shaped();
    ik_real seed[6], truth[6] = {0.3f, -0.7f, 1.1f, 0.4f, -0.2f, 0.6f}, q[6];
    ik_transform goal;
    ik_robot_ik job;
    ik_bool reached = 0;
    double pe, ae;
    mid_range(&c, seed);
    ik_robot_fk(&c, truth, &goal, NULL);
    goal.rotation = ik_q(0, 0, 0, 0);
    job = job_for(&c, goal, seed, q);
    job.orientation_importance = 0;
    job.reached = &reached;
    CHECK(ik_robot_ik_run(&job) == IK_OK && reached && lands_on(&c, q, goal, 0, &pe, &ae),
          "position only: reached %d, off by %g m", (int)reached, pe);
}

/* ---- redundancy: the null-space objective ---------------------------------- */

/* The limit cost: sum over the variables limited to less than a turn (the
 * others move by whole turns, so have no mid-range) of ((q_v - mid_v) / half-range_v)^2. */
static double limit_cost(const ik_robot_chain *c, const ik_real *q) {
    double cost = 0;
    int v;
    for (v = 0; v < c->variable_count; ++v) {
        double lo, hi, d;
        int wraps;
        variable_range(c, v, &lo, &hi, &wraps);
        if (wraps || !(hi > lo) || hi - lo >= 2 * IK_PI) continue;
        d = ((double)q[v] - (lo + hi) / 2) / ((hi - lo) / 2);
        cost += d * d;
    }
    return cost;
}

/* Squared distance to the seed, the short way round for variables that move by whole turns. */
static double seed_gap(const ik_robot_chain *c, const ik_real *q, const ik_real *seed) {
    double sum = 0;
    int v;
    for (v = 0; v < c->variable_count; ++v) {
        double lo, hi, d = (double)q[v] - seed[v];
        int wraps;
        variable_range(c, v, &lo, &hi, &wraps);
        if (wraps || hi - lo >= 2 * IK_PI) d = remainder(d, 2 * IK_PI);
        sum += d * d;
    }
    return sum;
}

/* Goals from random in-limit configurations, each solved from another random
 * in-limit seed without and with the null-space objective (same restarts):
 * both reach the goal on every axis within tolerance and stay inside the
 * limits; with prefer = MID_RANGE the limit cost, with prefer = SEED the
 * distance to the seed, is lower in every goal where the two answers differ
 * (the polish keeps only moves that lower it), and they differ in at least
 * half of the goals. */
static void null_space_objective(const char *name, const ik_robot_chain *c, ik_robot_prefer prefer,
                                 uint64_t seed_value) {
    check_property prop = {0, 0, 0};
    rng r = rng_seeded(seed_value);
    double sum_plain = 0, sum_pulled = 0;
    int i, lower_count = 0, differ = 0;
    prop.name = name;
    for (i = 0; i < 100; ++i) {
        ik_real q[IK_ROBOT_MAX_JOINTS], seed[IK_ROBOT_MAX_JOINTS], plain[IK_ROBOT_MAX_JOINTS],
            pulled[IK_ROBOT_MAX_JOINTS];
        ik_transform goal;
        ik_bool reached_plain = 0, reached_pulled = 0;
        ik_robot_ik job;
        double pe, ae, cost_plain, cost_pulled;
        random_in_limits(c, &r, q);
        random_in_limits(c, &r, seed);
        ik_robot_fk(c, q, &goal, NULL);
        job = job_for(c, goal, seed, plain);
        job.reached = &reached_plain;
        ik_robot_ik_run(&job);
        job.q_out = pulled;
        job.reached = &reached_pulled;
        job.null_space_gain = (ik_real)0.5;
        job.prefer = prefer;
        PROPERTY_CASE(prop, ik_robot_ik_run(&job) == IK_OK, "case %d", i);
        PROPERTY_CASE(prop,
                      reached_plain && reached_pulled && lands_on(c, plain, goal, 1, &pe, &ae) &&
                          lands_on(c, pulled, goal, 1, &pe, &ae),
                      "case %d: goal missed (%g m, %g rad)", i, pe, ae);
        PROPERTY_CASE(prop, inside_limits(c, pulled), "case %d: outside the limits", i);
        cost_plain = prefer == IK_ROBOT_PREFER_MID_RANGE ? limit_cost(c, plain) : seed_gap(c, plain, seed);
        cost_pulled = prefer == IK_ROBOT_PREFER_MID_RANGE ? limit_cost(c, pulled) : seed_gap(c, pulled, seed);
        sum_plain += cost_plain;
        sum_pulled += cost_pulled;
        if (fabs(cost_plain - cost_pulled) > 1e-6) {
            ++differ;
            lower_count += cost_pulled < cost_plain;
        }
    }
    property_end(&prop);
    CHECK(sum_pulled < sum_plain, "%s: mean cost %g with the objective, %g without", name, sum_pulled / 100,
          sum_plain / 100);
    CHECK(lower_count == differ && differ >= 50, "%s: lower in %d of %d differing goals", name, lower_count, differ);
    printf("%s: mean cost %.4f without the objective, %.4f with it (lower in %d of %d differing goals)\n", name,
           sum_plain / 100, sum_pulled / 100, lower_count, differ);
}

/* A redundant 7-DOF arm: the UR-shaped 6R with an extra turn about z at the flange. */
static ik_robot_chain seven_dof(void) {
    ik_robot_chain c = ur_shaped();
    c.joints[c.joint_count] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0, 0, 0.05f), ik_v3(0, 0, 1), -2.0, 2.0, 6);
    c.joint_count += 1;
    c.variable_count = 7;
    return c;
}

static void test_null_space(void) {
    ik_robot_chain c = seven_dof();
    char path[700];
    null_space_objective("7-DOF arm, toward mid-range", &c, IK_ROBOT_PREFER_MID_RANGE, 41);
    null_space_objective("7-DOF arm, toward the seed", &c, IK_ROBOT_PREFER_SEED, 42);
    if (have_data()) {
        ik_urdf *u = NULL;
        ik_error err;
        snprintf(path, sizeof path, "%s/panda.urdf", data_dir);
        if (ik_urdf_read_file(path, &u, &err) == IK_OK &&
            ik_urdf_robot_chain(u, "panda_link0", "panda_link8", &c, NULL, &err) == IK_OK) {
            null_space_objective("Panda, toward mid-range", &c, IK_ROBOT_PREFER_MID_RANGE, 43);
            null_space_objective("Panda, toward the seed", &c, IK_ROBOT_PREFER_SEED, 44);
        }
        ik_urdf_free(u);
    }
}

/* The UR5's +-pi joints turn through pi in both builds (issue 29): the
 * float build rounds URDF limits inward, so +-3.14159265359 span 2 pi less
 * two float steps, and the solver must still treat them as a whole turn.
 * From a seed with the base joint at 3.1, a goal at -3.1 (the rest the
 * same) is reached by the numeric solver stepping through pi, with no
 * restart; held at the limit instead, it stalled there and restarted. */
static void test_turn_through_pi(void) {
    static const char *const ur5[3] = {"ur5_joint_limited_robot.urdf", "base_link", "ee_link"};
    ik_urdf *u;
    ik_robot_chain c;
    ik_real seed[6] = {3.1f, -1.2f, 1.4f, -1.8f, -1.4f, 0.2f}, want[6], q[6];
    ik_transform goal;
    ik_robot_ik job;
    ik_bool reached = 0;
    int restarts = -1;
    double pe, ae;
    if (!have_data()) {
        check_skip("real-asset corpus not found");
        return;
    }
    if (!load_arm(ur5, &u, &c)) return;
    memcpy(want, seed, sizeof want);
    want[0] = -3.1f;
    ik_robot_fk(&c, want, &goal, NULL);
    job = job_for(&c, goal, seed, q);
    job.analytic_starts = 0;
    job.reached = &reached;
    job.restarts = &restarts;
    CHECK(ik_robot_ik_run(&job) == IK_OK && reached && restarts == 0 && lands_on(&c, q, goal, 1, &pe, &ae) &&
              inside_limits(&c, q) && fabs((double)q[0] + 3.1) < 1e-3,
          "through pi: reached %d, %d restarts, base joint %g", (int)reached, restarts, (double)q[0]);
    ik_urdf_free(u);
}

int main(void) {
    test_fk_many();
    test_chain_check();
    test_jacobian_tip();
    test_variable_limits();
    test_variants();
    test_real_arms();
    test_unreachable();
    test_deterministic();
    test_goal_at_seed();
    test_singular_goal();
    test_time_budget();
    test_bad_input();
    test_position_only_ignores_rotation();
    test_analytic_starts();
    test_analytic_beyond_limits();
    test_null_space();
    test_turn_through_pi();
    return check_summary("test_robot_ik");
}

/* Jacobian-family solvers: solve, then check with forward kinematics where
 * the effectors landed, that bone lengths and limits held and that the
 * output is finite and repeatable. */
#include <ikit/constraint.h>
#include <ikit/jacobian.h>
#include <math.h>
#include <ikit/skeleton.h>
#include <string.h>

#include "support/axis_chain.h"
#include "support/check.h"
#include "support/rng.h"

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

#define CHAIN_MOVERS 10
#define MAX_JOINTS 32
#define MAX_AXES (3 * MAX_JOINTS)
#define SCRATCH_REALS 16384

static double scratch_store[SCRATCH_REALS];

/* A skeleton with its arrays, all in one place. */
typedef struct rig {
    ik_skeleton skeleton;
    int parents[MAX_JOINTS];
    ik_transform rest_ls[MAX_JOINTS];
    ik_transform pose_ls[MAX_JOINTS];
    ik_mat4 model_ms[MAX_JOINTS];
    ik_jacobian_joint joints[MAX_JOINTS];
    int joint_count;
    ik_real length;
} rig;

/* `movers` joints in a straight line along +y, then an end joint (the
 * effector); bone i has length lengths[i]. */
static void make_chain(rig *r, int movers, const ik_real *lengths, ik_bool ball) {
    int i;
    r->length = 0;
    for (i = 0; i <= movers; ++i) {
        r->parents[i] = i - 1;
        r->rest_ls[i] = ik_transform_identity();
        if (i > 0) {
            r->rest_ls[i].translation = ik_v3(0, lengths[i - 1], 0);
            r->length += lengths[i - 1];
        }
        if (i < movers) r->joints[i] = ball ? ik_jacobian_ball(i) : ik_jacobian_hinge(i, ik_v3(0, 0, 1));
    }
    r->joint_count = movers;
    CHECK(ik_skeleton_init(&r->skeleton, movers + 1, r->parents, NULL, r->rest_ls, NULL) == IK_OK, "chain");
    ik_skeleton_rest_pose(&r->skeleton, r->pose_ls);
}

/* A copy whose skeleton points at the copy's own arrays. */
static void rig_copy(rig *dst, const rig *src) {
    *dst = *src;
    ik_skeleton_init(&dst->skeleton, dst->skeleton.joint_count, dst->parents, NULL, dst->rest_ls, NULL);
}

static int axis_total(const rig *r) {
    int i, n = 0;
    for (i = 0; i < r->joint_count; ++i) n += r->joints[i].axis_count;
    return n;
}

static ik_jacobian job_for(rig *r, const ik_jacobian_effector *effectors, int effector_count,
                           ik_jacobian_method method) {
    ik_jacobian job = ik_jacobian_def();
    job.base.skeleton = &r->skeleton;
    job.base.pose_ls = r->pose_ls;
    job.joints = r->joints;
    job.base.listed_joint_count = r->joint_count;
    job.effectors = effectors;
    job.effector_count = effector_count;
    job.method = method;
    job.base.scratch = scratch_store;
    job.base.scratch_bytes = sizeof scratch_store;
    CHECK(ik_jacobian_scratch_size(r->skeleton.joint_count, axis_total(r), effector_count) <= sizeof scratch_store,
          "test scratch is big enough");
    return job;
}

static ik_vec3 joint_ms(const rig *r, int joint) { return ik_mat4_translation(&r->model_ms[joint]); }

/* Every bone keeps its rest length (checked from model-space positions). */
static ik_bool bones_kept(rig *r, ik_real tolerance) {
    int i;
    ik_skeleton_fk(&r->skeleton, r->pose_ls, NULL, r->model_ms);
    for (i = 0; i < r->skeleton.joint_count; ++i) {
        int p = r->parents[i];
        if (p < 0) continue;
        if (IK_FABS(ik_vec3_distance(joint_ms(r, i), joint_ms(r, p)) - ik_vec3_length(r->rest_ls[i].translation)) >
            tolerance)
            return 0;
    }
    return 1;
}

static ik_bool pose_finite_n(const ik_transform *pose_ls, int count) {
    int i;
    for (i = 0; i < count; ++i)
        if (!ik_transform_finite(pose_ls[i])) return 0;
    return 1;
}

static ik_bool pose_finite(const rig *r) { return pose_finite_n(r->pose_ls, r->skeleton.joint_count); }

static ik_real tip_distance(rig *r, int tip, ik_vec3 target) {
    ik_skeleton_fk(&r->skeleton, r->pose_ls, NULL, r->model_ms);
    return ik_vec3_distance(joint_ms(r, tip), target);
}

/* The acceptance test: unconstrained 10-joint ball chains, random
 * bone lengths, reset straight before each target, targets uniform in a
 * ball of 0.9 times the length; DLS reaches within 1e-3 of the length for at
 * least 99.9% of them, with the error-adaptive damping and with the old
 * fixed lambda (damping > 0) alike. */
static void test_reachable_convergence(ik_jacobian_method method, const char *name, ik_real damping,
                                       double required_rate, int cases) {
    rng g = rng_seeded(7);
    check_property lengths_kept = {"bone lengths kept", 0, 0};
    check_property finite = {"output finite", 0, 0};
    check_property reported = {"reported error matches forward kinematics", 0, 0};
    int i, solved = 0;
    long iterations_sum = 0;
    for (i = 0; i < cases; ++i) {
        rig r;
        ik_real lengths[CHAIN_MOVERS];
        ik_jacobian_effector effector;
        ik_jacobian job;
        ik_real error = -1, landed;
        int k, iterations = -1;
        for (k = 0; k < CHAIN_MOVERS; ++k) lengths[k] = rng_range(&g, 0.5, 1.5);
        make_chain(&r, CHAIN_MOVERS, lengths, 1);
        effector = ik_jacobian_effector_make(CHAIN_MOVERS, rng_in_ball(&g, 0.9 * (double)r.length));
        job = job_for(&r, &effector, 1, method);
        job.tolerance = (ik_real)1e-3 * r.length;
        job.damping = damping;
        job.max_iterations = 200;
        job.iterations = &iterations;
        job.error = &error;
        CHECK(ik_jacobian_run(&job) == IK_OK, "run");
        landed = tip_distance(&r, CHAIN_MOVERS, effector.target_ms);
        if (landed <= job.tolerance) ++solved;
        iterations_sum += iterations;
        PROPERTY_CASE(finite, pose_finite(&r), "case %d", i);
        PROPERTY_CASE(lengths_kept, bones_kept(&r, (ik_real)1e-4 * r.length), "case %d", i);
        PROPERTY_CASE(reported, IK_FABS(landed - error) <= (ik_real)1e-5 * r.length, "%g vs %g", (double)landed,
                      (double)error);
    }
    printf("%s: %d of %d reachable targets solved, %.1f iterations on average\n", name, solved, cases,
           (double)iterations_sum / cases);
    CHECK((double)solved >= required_rate * cases, "%s solved %d of %d", name, solved, cases);
    property_end(&lengths_kept);
    property_end(&finite);
    property_end(&reported);
}

/* Issue 11, item 10: random chains of 5 to 8 axes in joints of 1-3 axes,
 * position and orientation goals from forward kinematics of a random pose,
 * the chain starting at that pose moved by up to 0.1 rad per axis, default
 * settings but for the tolerance: 1e-6 of the chain length and 1e-6 rad in
 * double (1e-4 in float). Forward kinematics, run here, must confirm every
 * reported error, and DLS must end within tolerance in at least 99.9 % of
 * the cases in at most 10 iterations on average. */
#ifdef IKIT_DOUBLE
#define TIGHT_TOLERANCE 1e-6
#else
#define TIGHT_TOLERANCE 1e-4
#endif
static void test_tight_tolerance(ik_jacobian_method method, const char *name, double required_rate,
                                 double most_iterations, int cases) {
    rng g = rng_seeded(21);
    check_property reported = {"reported errors match forward kinematics", 0, 0};
    check_property kept = {"finite, bone lengths kept", 0, 0};
    int i, solved = 0;
    long iterations_sum = 0;
    ik_real worst = 0;
    for (i = 0; i < cases; ++i) {
        axis_chain c;
        ik_jacobian_effector effector;
        ik_jacobian job = ik_jacobian_def();
        ik_real error = -1, angle_error = -1, distance, angle;
        ik_quat landed;
        int iterations = -1, k;
        axis_chain_make(&c, &g, 5 + i % 4);
        effector = axis_chain_goal(&c, &g, 0.1);
        job.base.skeleton = &c.skeleton;
        job.base.pose_ls = c.pose_ls;
        job.joints = c.joints;
        job.base.listed_joint_count = c.joint_count;
        job.effectors = &effector;
        job.effector_count = 1;
        job.method = method;
        job.base.scratch = scratch_store;
        job.base.scratch_bytes = sizeof scratch_store;
        job.tolerance = (ik_real)TIGHT_TOLERANCE * c.length;
        job.angle_tolerance = (ik_real)TIGHT_TOLERANCE;
        job.iterations = &iterations;
        job.error = &error;
        job.angle_error = &angle_error;
        CHECK(ik_jacobian_run(&job) == IK_OK, "run");
        ik_skeleton_fk(&c.skeleton, c.pose_ls, NULL, c.model_ms);
        distance = ik_vec3_distance(ik_mat4_translation(&c.model_ms[c.joint_count]), effector.target_ms);
        landed = ik_mat4_rotation(&c.model_ms[c.joint_count]);
        angle = ik_quat_angle(ik_quat_mul(effector.target_rotation_ms, ik_quat_conjugate(landed)));
        if (distance <= job.tolerance && angle <= job.angle_tolerance) ++solved;
        worst = ik_maxr(worst, ik_maxr(distance / c.length, angle));
        iterations_sum += iterations;
        PROPERTY_CASE(reported,
                      IK_FABS(distance - error) <= (ik_real)1e-2 * job.tolerance &&
                          IK_FABS(angle - angle_error) <= (ik_real)1e-2 * job.angle_tolerance,
                      "%g vs %g, %g vs %g", (double)distance, (double)error, (double)angle, (double)angle_error);
        for (k = 1; k <= c.joint_count; ++k)
            PROPERTY_CASE(kept,
                          pose_finite_n(c.pose_ls, c.joint_count + 1) &&
                              IK_FABS(ik_vec3_distance(ik_mat4_translation(&c.model_ms[k]),
                                                       ik_mat4_translation(&c.model_ms[k - 1])) -
                                      ik_vec3_length(c.rest_ls[k].translation)) <= (ik_real)1e-4 * c.length,
                          "case %d bone %d", i, k);
    }
    printf(
        "%s: %d of %d 5-8 axis position + orientation goals within %g, %.2f iterations on average, "
        "worst error %.3g\n",
        name, solved, cases, TIGHT_TOLERANCE, (double)iterations_sum / cases, (double)worst);
    CHECK((double)solved >= required_rate * cases, "%s met %d of %d within %g", name, solved, cases, TIGHT_TOLERANCE);
    CHECK((double)iterations_sum / cases <= most_iterations, "%s: %.2f iterations on average", name,
          (double)iterations_sum / cases);
    property_end(&reported);
    property_end(&kept);
}

static const ik_jacobian_method all_methods[4] = {IK_JACOBIAN_TRANSPOSE, IK_JACOBIAN_GRADIENT, IK_JACOBIAN_DLS,
                                                  IK_JACOBIAN_SDLS};
static const char *const method_names[4] = {"transpose", "gradient", "DLS", "SDLS"};

static void equal_chain(rig *r, int movers, ik_real bone, ik_bool ball) {
    ik_real lengths[MAX_JOINTS];
    int i;
    for (i = 0; i < movers; ++i) lengths[i] = bone;
    make_chain(r, movers, lengths, ball);
}

/* Random joint rotations applied to the solver's axes. */
static void random_pose(rig *r, rng *g, double spread) {
    int i, k;
    for (i = 0; i < r->joint_count; ++i) {
        ik_jacobian_joint *j = &r->joints[i];
        ik_quat q = r->rest_ls[j->joint].rotation;
        for (k = 0; k < j->axis_count; ++k)
            q = ik_quat_mul(q,
                            ik_quat_from_axis_angle(ik_vec3_normalize(j->axes_ls[k]), rng_range(g, -spread, spread)));
        r->pose_ls[j->joint].rotation = ik_quat_normalize(q);
    }
}

/* Seed 003 had to flip the sign of its update by trial. One gradient or
 * transpose iteration from a random bent pose must lower the error. */
static void test_descent_lowers_error(void) {
    int m;
    for (m = 0; m < 2; ++m) {
        rng g = rng_seeded(11);
        check_property lowers = {"one step lowers the error", 0, 0};
        int i;
        for (i = 0; i < 5000; ++i) {
            rig r;
            ik_jacobian_effector effector;
            ik_jacobian job;
            ik_real before, after;
            equal_chain(&r, CHAIN_MOVERS, 1, 1);
            random_pose(&r, &g, 0.6);
            effector = ik_jacobian_effector_make(CHAIN_MOVERS, rng_in_ball(&g, 9));
            before = tip_distance(&r, CHAIN_MOVERS, effector.target_ms);
            job = job_for(&r, &effector, 1, all_methods[m]);
            job.max_iterations = 1;
            job.tolerance = 0;
            CHECK(ik_jacobian_run(&job) == IK_OK, "run");
            after = tip_distance(&r, CHAIN_MOVERS, effector.target_ms);
            PROPERTY_CASE(lowers, after < before, "%s: %g -> %g", method_names[m], (double)before, (double)after);
        }
        property_end(&lowers);
    }
}

/* Buss & Kim's target clamping and the step clamp: a target far out of reach
 * leaves the chain stretched toward it and still, not jittering. */
static void test_unreachable_settles(void) {
    int m;
    for (m = 0; m < 4; ++m) {
        rng g = rng_seeded(12);
        check_property still = {"settled: further iterations barely move the tip", 0, 0};
        check_property stretched = {"stretched toward the target", 0, 0};
        int i;
        for (i = 0; i < 100; ++i) {
            rig r;
            ik_jacobian_effector effector;
            ik_jacobian job;
            ik_vec3 tip_before, tip_after;
            ik_real gap, best;
            int extra;
            equal_chain(&r, CHAIN_MOVERS, 1, 1);
            random_pose(&r, &g, 0.3);
            effector = ik_jacobian_effector_make(CHAIN_MOVERS, ik_vec3_scale(rng_direction(&g), rng_range(&g, 12, 40)));
            job = job_for(&r, &effector, 1, all_methods[m]);
            job.max_iterations = 2000;
            CHECK(ik_jacobian_run(&job) == IK_OK, "run");
            best = ik_vec3_length(effector.target_ms) - r.length;
            gap = tip_distance(&r, CHAIN_MOVERS, effector.target_ms) - best;
            PROPERTY_CASE(stretched, gap < (ik_real)0.05 * r.length, "%s: %g beyond the best", method_names[m],
                          (double)gap);
            tip_before = joint_ms(&r, CHAIN_MOVERS);
            job.max_iterations = 1;
            for (extra = 0; extra < 5; ++extra) {
                CHECK(ik_jacobian_run(&job) == IK_OK, "run");
                ik_skeleton_fk(&r.skeleton, r.pose_ls, NULL, r.model_ms);
                tip_after = joint_ms(&r, CHAIN_MOVERS);
                PROPERTY_CASE(still, ik_vec3_distance(tip_before, tip_after) < (ik_real)2e-3 * r.length, "%s moved %g",
                              method_names[m], (double)ik_vec3_distance(tip_before, tip_after));
                tip_before = tip_after;
            }
        }
        property_end(&still);
        property_end(&stretched);
    }
}

/* The no-progress stop on the paper's setup (10 unit bones, straight start,
 * tolerance 1e-3 of the length) with targets out of reach: DLS and SDLS
 * settle within a few dozen iterations on average (the cap of 1000 is far),
 * ending close to the best distance |t| - L; targets in reach are all met
 * within the tolerance, the stop not cutting them short. */
static void test_unreachable_stops_early(void) {
    static const int methods[3] = {0, 2, 3};
    static const double most_iterations[3] = {300, 80, 80};
    int k;
    for (k = 0; k < 3; ++k) {
        int m = methods[k], i, total = 200;
        rng g = rng_seeded(14);
        check_property near_best = {"no-progress stop: out of reach, ends near |t| - L", 0, 0};
        check_property reached = {"no-progress stop: in reach, target met", 0, 0};
        long far_iterations = 0;
        for (i = 0; i < total; ++i) {
            rig r;
            int used = 0, far = i % 2;
            ik_real tolerance, best, distance;
            ik_vec3 target;
            ik_jacobian_effector effector;
            ik_jacobian job;
            equal_chain(&r, CHAIN_MOVERS, 1, 1);
            tolerance = r.length * (ik_real)1e-3;
            target = far ? ik_vec3_scale(rng_direction(&g), rng_range(&g, 1.05 * r.length, 2 * r.length))
                         : rng_in_ball(&g, 0.9 * r.length);
            effector = ik_jacobian_effector_make(CHAIN_MOVERS, target);
            job = job_for(&r, &effector, 1, all_methods[m]);
            job.tolerance = tolerance;
            job.max_iterations = 1000;
            job.iterations = &used;
            CHECK(ik_jacobian_run(&job) == IK_OK, "run");
            best = far ? ik_vec3_length(target) - r.length : 0;
            distance = tip_distance(&r, CHAIN_MOVERS, target);
            if (far) {
                far_iterations += used;
                PROPERTY_CASE(near_best, distance - best < (ik_real)0.05 * r.length, "%s: %g beyond the best",
                              method_names[m], (double)(distance - best));
            } else {
                PROPERTY_CASE(reached, distance <= tolerance * (ik_real)1.01, "%s: %g away after %d iterations",
                              method_names[m], (double)distance, used);
            }
        }
        property_end(&near_best);
        property_end(&reached);
        CHECK((double)far_iterations / (total / 2) < most_iterations[k], "%s: %.1f iterations on average out of reach",
              method_names[m], (double)far_iterations / (total / 2));
    }
}

/* The error-adaptive DLS damping near singularities: a straight 10-ball
 * chain (singular) with position + orientation goals at full reach with a
 * bend the straight pose cannot give, beyond reach with a twist it can, and
 * on its own base. Solved one iteration at a time, no joint turns by more
 * than max_step per axis (sqrt(3) max_step for a ball joint), the pose stays
 * finite with its bone lengths, and the reachable parts are met: beyond
 * reach the tip ends stretched toward the target with the twist done. */
static void test_singular_goals_bounded(void) {
    static const double goals[3][4] = {{0, 10, 0, 1}, {0, 15, 0, 1}, {0, 0, 0, 1}};
    static const ik_vec3 turn_axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    int m, k;
    for (m = 2; m < 4; ++m)
        for (k = 0; k < 3; ++k) {
            rig r;
            ik_jacobian_effector effector;
            ik_jacobian job;
            ik_transform before[MAX_JOINTS];
            ik_real error = -1, angle_error = -1, largest_turn = 0, landed, landed_turn;
            int iteration, j;
            ik_bool finite = 1;
            equal_chain(&r, CHAIN_MOVERS, 1, 1);
            effector = ik_jacobian_effector_make(
                CHAIN_MOVERS, ik_v3((ik_real)goals[k][0], (ik_real)goals[k][1], (ik_real)goals[k][2]));
            effector.use_orientation = 1;
            effector.target_rotation_ms = ik_quat_from_axis_angle(turn_axes[k], (ik_real)goals[k][3]);
            job = job_for(&r, &effector, 1, all_methods[m]);
            job.max_iterations = 1;
            job.error = &error;
            job.angle_error = &angle_error;
            for (iteration = 0; iteration < 200; ++iteration) {
                memcpy(before, r.pose_ls, sizeof before);
                CHECK(ik_jacobian_run(&job) == IK_OK, "run");
                finite = finite && pose_finite(&r);
                for (j = 0; j < CHAIN_MOVERS; ++j)
                    largest_turn = ik_maxr(
                        largest_turn,
                        ik_quat_angle(ik_quat_mul(ik_quat_conjugate(before[j].rotation), r.pose_ls[j].rotation)));
            }
            CHECK(finite && bones_kept(&r, (ik_real)1e-4), "%s goal %d: finite, lengths kept", method_names[m], k);
            /* where the tip landed, by forward kinematics (bones_kept ran it) */
            landed = ik_vec3_distance(joint_ms(&r, CHAIN_MOVERS), effector.target_ms);
            landed_turn = ik_quat_angle(ik_quat_mul(ik_quat_conjugate(effector.target_rotation_ms),
                                                    ik_mat4_rotation(&r.model_ms[CHAIN_MOVERS])));
            CHECK(largest_turn <= IK_SQRT(3) * job.max_step * (1 + (ik_real)1e-4), "%s goal %d: a joint turned %g",
                  method_names[m], k, (double)largest_turn);
            if (k == 1)
                CHECK(error <= 5 + (ik_real)0.01 && angle_error <= (ik_real)0.01 && landed <= 5 + (ik_real)0.01 &&
                          landed_turn <= (ik_real)0.01,
                      "%s beyond reach: %g from the target (best 5; reported %g), twist %g short (reported %g)",
                      method_names[m], (double)landed, (double)error, (double)landed_turn, (double)angle_error);
            if (k == 2)
                CHECK(error <= job.tolerance && angle_error <= job.angle_tolerance && landed <= job.tolerance &&
                          landed_turn <= job.angle_tolerance,
                      "%s target on the base: %g away (reported %g), %g rad (reported %g)", method_names[m],
                      (double)landed, (double)error, (double)landed_turn, (double)angle_error);
        }
}

/* Hinge chains with limits from both sources (an ik_constraint on even
 * joints, a spring's hard limit on odd joints), random targets in and out of
 * reach: the hinge angle, measured as the twist of rest^-1 * pose about the
 * axis, never leaves its range. */
static void test_limits_never_violated(void) {
    int m;
    for (m = 0; m < 4; ++m) {
        rng g = rng_seeded(13);
        check_property inside = {"every joint inside its limits", 0, 0};
        int i, k, closer = 0;
        for (i = 0; i < 500; ++i) {
            rig r;
            ik_constraint constraints[CHAIN_MOVERS];
            ik_spring springs[CHAIN_MOVERS];
            ik_real lo[CHAIN_MOVERS], hi[CHAIN_MOVERS];
            ik_jacobian_effector effector;
            ik_jacobian job;
            ik_bool ok = 1;
            ik_real start;
            equal_chain(&r, CHAIN_MOVERS, 1, 0);
            for (k = 0; k < CHAIN_MOVERS; ++k) {
                lo[k] = rng_range(&g, -1.2, 0);
                hi[k] = rng_range(&g, 0, 1.2);
                constraints[k] = k % 2 == 0 ? ik_constraint_hinge(ik_quat_identity(), ik_v3(0, 0, 1), lo[k], hi[k])
                                            : ik_constraint_none();
                springs[k] = ik_spring_make();
                if (k % 2 == 1) {
                    springs[k].limit_min = lo[k];
                    springs[k].limit_max = hi[k];
                }
            }
            effector = ik_jacobian_effector_make(CHAIN_MOVERS, ik_vec3_scale(rng_in_ball(&g, 1), 13));
            effector.target_ms.z = 0;
            start = tip_distance(&r, CHAIN_MOVERS, effector.target_ms);
            job = job_for(&r, &effector, 1, all_methods[m]);
            job.base.constraints = constraints;
            job.springs = springs;
            job.max_iterations = 60;
            CHECK(ik_jacobian_run(&job) == IK_OK, "run");
            for (k = 0; k < CHAIN_MOVERS; ++k) {
                ik_real angle = ik_quat_twist_angle(r.pose_ls[k].rotation, ik_v3(0, 0, 1));
                if (angle < lo[k] - (ik_real)1e-4 || angle > hi[k] + (ik_real)1e-4) ok = 0;
            }
            PROPERTY_CASE(inside, ok && pose_finite(&r), "%s case %d", method_names[m], i);
            if (tip_distance(&r, CHAIN_MOVERS, effector.target_ms) <= start) ++closer;
        }
        property_end(&inside);
        CHECK(closer >= 490, "%s: %d of 500 limited solves ended closer than they began", method_names[m], closer);
    }
}

/* Targets made by posing the same chain at random: reachable with position
 * and orientation. Shoulder ball, elbow hinge, wrist twist about the bone,
 * hand. */
static void test_orientation_with_twist(void) {
    rng g = rng_seeded(14);
    int m;
    for (m = 2; m < 4; ++m) {
        int i, solved = 0, cases = 500;
        for (i = 0; i < cases; ++i) {
            rig r;
            ik_real lengths[3] = {1, 1, (ik_real)0.3};
            ik_jacobian_effector effector;
            ik_jacobian job;
            ik_real error = 1, angle_error = 1;
            make_chain(&r, 3, lengths, 1);
            r.joints[1] = ik_jacobian_hinge(1, ik_v3(1, 0, 0));
            r.joints[2] = ik_jacobian_hinge(2, ik_v3(0, 1, 0));
            random_pose(&r, &g, 1.4);
            ik_skeleton_fk(&r.skeleton, r.pose_ls, NULL, r.model_ms);
            effector = ik_jacobian_effector_make(3, joint_ms(&r, 3));
            effector.use_orientation = 1;
            effector.target_rotation_ms = ik_mat4_rotation(&r.model_ms[3]);
            ik_skeleton_rest_pose(&r.skeleton, r.pose_ls);
            r.pose_ls[1].rotation = ik_quat_from_axis_angle(ik_v3(1, 0, 0), (ik_real)0.3);
            job = job_for(&r, &effector, 1, all_methods[m]);
            job.max_iterations = 300;
            job.error = &error;
            job.angle_error = &angle_error;
            CHECK(ik_jacobian_run(&job) == IK_OK, "run");
            ik_skeleton_fk(&r.skeleton, r.pose_ls, NULL, r.model_ms);
            if (ik_vec3_distance(joint_ms(&r, 3), effector.target_ms) <= job.tolerance &&
                ik_quat_angle(ik_quat_mul(ik_quat_conjugate(effector.target_rotation_ms),
                                          ik_mat4_rotation(&r.model_ms[3]))) <= 2 * job.angle_tolerance)
                ++solved;
        }
        printf("%s: %d of %d position + orientation goals reached\n", method_names[m], solved, cases);
        CHECK(solved >= cases * 95 / 100, "%s reached %d of %d", method_names[m], solved, cases);
    }
}

/* Seed 002's "joint axis through bone": a twist about the first bone must
 * turn 90 degrees so that the elbow hinge (about z) can bend toward +z. */
static void test_twist_joint_turns(void) {
    rig r;
    ik_real lengths[2] = {1, 1};
    ik_jacobian_effector effector = ik_jacobian_effector_make(2, ik_v3(0, 1, 1));
    ik_jacobian job;
    make_chain(&r, 2, lengths, 0);
    r.joints[0] = ik_jacobian_hinge(0, ik_v3(0, 1, 0));
    r.joints[1] = ik_jacobian_hinge(1, ik_v3(0, 0, 1));
    r.pose_ls[1].rotation = ik_quat_from_axis_angle(ik_v3(0, 0, 1), (ik_real)0.2);
    job = job_for(&r, &effector, 1, IK_JACOBIAN_DLS);
    CHECK(ik_jacobian_run(&job) == IK_OK, "run");
    CHECK(tip_distance(&r, 2, effector.target_ms) <= job.tolerance, "tip %g from the target",
          (double)tip_distance(&r, 2, effector.target_ms));
    CHECK(IK_FABS(IK_FABS(ik_quat_twist_angle(r.pose_ls[0].rotation, ik_v3(0, 1, 0))) - IK_PI / 2) < (ik_real)0.01,
          "twist %g", (double)ik_quat_twist_angle(r.pose_ls[0].rotation, ik_v3(0, 1, 0)));
}

/* A Y: a 3-joint trunk, two 3-joint branches, an effector at each tip.
 * Targets come from a random pose, so they are reachable together. */
static void make_y(rig *r) {
    static const int parents[9] = {-1, 0, 1, 2, 3, 4, 2, 6, 7};
    static const double offsets[9][3] = {{0, 0, 0}, {0, 1, 0},      {0, 1, 0}, {0.5, 0.8, 0}, {0, 1, 0},
                                         {0, 1, 0}, {-0.5, 0.8, 0}, {0, 1, 0}, {0, 1, 0}};
    int i, n = 0;
    for (i = 0; i < 9; ++i) {
        r->parents[i] = parents[i];
        r->rest_ls[i] = ik_transform_identity();
        r->rest_ls[i].translation = ik_v3((ik_real)offsets[i][0], (ik_real)offsets[i][1], (ik_real)offsets[i][2]);
        if (i != 5 && i != 8) r->joints[n++] = ik_jacobian_ball(i);
    }
    r->joint_count = n;
    CHECK(ik_skeleton_init(&r->skeleton, 9, r->parents, NULL, r->rest_ls, NULL) == IK_OK, "Y");
    ik_skeleton_rest_pose(&r->skeleton, r->pose_ls);
}

static void test_multiple_effectors(void) {
    int m;
    for (m = 2; m < 4; ++m) {
        rng g = rng_seeded(15);
        int i, solved = 0, cases = 1000;
        for (i = 0; i < cases; ++i) {
            rig r;
            ik_jacobian_effector effectors[2];
            ik_jacobian job;
            make_y(&r);
            random_pose(&r, &g, 1.0);
            ik_skeleton_fk(&r.skeleton, r.pose_ls, NULL, r.model_ms);
            effectors[0] = ik_jacobian_effector_make(5, joint_ms(&r, 5));
            effectors[1] = ik_jacobian_effector_make(8, joint_ms(&r, 8));
            ik_skeleton_rest_pose(&r.skeleton, r.pose_ls);
            job = job_for(&r, effectors, 2, all_methods[m]);
            job.max_iterations = 300;
            CHECK(ik_jacobian_run(&job) == IK_OK, "run");
            if (tip_distance(&r, 5, effectors[0].target_ms) <= job.tolerance &&
                tip_distance(&r, 8, effectors[1].target_ms) <= job.tolerance)
                ++solved;
        }
        printf("%s: %d of %d two-effector Y targets reached\n", method_names[m], solved, cases);
        CHECK(solved >= cases * 98 / 100, "%s reached %d of %d", method_names[m], solved, cases);
    }
}

static void test_deterministic(void) {
    int m;
    for (m = 0; m < 4; ++m) {
        rig a, b;
        rng g = rng_seeded(16);
        ik_jacobian_effector effector = ik_jacobian_effector_make(CHAIN_MOVERS, rng_in_ball(&g, 8));
        ik_jacobian job;
        equal_chain(&a, CHAIN_MOVERS, 1, 1);
        random_pose(&a, &g, 0.5);
        rig_copy(&b, &a);
        job = job_for(&a, &effector, 1, all_methods[m]);
        CHECK(ik_jacobian_run(&job) == IK_OK, "run");
        job = job_for(&b, &effector, 1, all_methods[m]);
        CHECK(ik_jacobian_run(&job) == IK_OK, "run");
        CHECK(memcmp(a.pose_ls, b.pose_ls, sizeof a.pose_ls) == 0, "%s: same input, same bits", method_names[m]);
    }
}

static void test_degenerate_inputs(void) {
    int m;
    for (m = 0; m < 4; ++m) {
        const char *name = method_names[m];
        rig r;
        ik_real lengths[CHAIN_MOVERS] = {1, 0, 1, 0, 0, 1, 1, 0, 1, 1};
        ik_jacobian_effector effectors[2];
        ik_jacobian job;
        int iterations = -1;
        ik_real error = -1;
        ik_real tolerance;

        /* Zero-length bones among real ones: a reachable target is reached by DLS/SDLS. */
        make_chain(&r, CHAIN_MOVERS, lengths, 1);
        effectors[0] = ik_jacobian_effector_make(CHAIN_MOVERS, ik_v3(2, 3, 1));
        job = job_for(&r, effectors, 1, all_methods[m]);
        job.max_iterations = 500;
        CHECK(ik_jacobian_run(&job) == IK_OK && pose_finite(&r) && bones_kept(&r, (ik_real)1e-5), "%s zero bones",
              name);
        if (m >= 2)
            CHECK(tip_distance(&r, CHAIN_MOVERS, effectors[0].target_ms) <= job.tolerance, "%s zero bones reach", name);

        /* Every bone zero: nothing can move the tip; finite, error reported. */
        memset(lengths, 0, sizeof lengths);
        make_chain(&r, CHAIN_MOVERS, lengths, 1);
        job = job_for(&r, effectors, 1, all_methods[m]);
        job.error = &error;
        CHECK(ik_jacobian_run(&job) == IK_OK && pose_finite(&r), "%s all zero bones", name);
        CHECK(IK_FABS(error - ik_vec3_length(effectors[0].target_ms)) < (ik_real)1e-4, "%s error %g", name,
              (double)error);

        /* Target on the base of a straight chain: on the chain's own line,
         * where J^T e = 0; the solver must still fold the chain. */
        equal_chain(&r, CHAIN_MOVERS, 1, 1);
        effectors[0] = ik_jacobian_effector_make(CHAIN_MOVERS, ik_vec3_zero());
        job = job_for(&r, effectors, 1, all_methods[m]);
        job.max_iterations = 1000;
        tolerance = m >= 2 ? job.tolerance : (ik_real)0.5;
        CHECK(ik_jacobian_run(&job) == IK_OK && pose_finite(&r), "%s target on base", name);
        CHECK(tip_distance(&r, CHAIN_MOVERS, effectors[0].target_ms) <= tolerance, "%s target on base: %g away", name,
              (double)tip_distance(&r, CHAIN_MOVERS, effectors[0].target_ms));

        /* Straight chain, target on its line inside reach (singular saddle). */
        equal_chain(&r, CHAIN_MOVERS, 1, 0);
        effectors[0] = ik_jacobian_effector_make(CHAIN_MOVERS, ik_v3(0, 6, 0));
        job = job_for(&r, effectors, 1, all_methods[m]);
        job.max_iterations = 1000;
        CHECK(ik_jacobian_run(&job) == IK_OK && pose_finite(&r), "%s straight singular", name);
        CHECK(tip_distance(&r, CHAIN_MOVERS, effectors[0].target_ms) <= tolerance, "%s straight singular: %g away",
              name, (double)tip_distance(&r, CHAIN_MOVERS, effectors[0].target_ms));

        /* Straight chain, target on its line beyond reach: stays straight, stops early. */
        equal_chain(&r, CHAIN_MOVERS, 1, 1);
        effectors[0] = ik_jacobian_effector_make(CHAIN_MOVERS, ik_v3(0, 20, 0));
        job = job_for(&r, effectors, 1, all_methods[m]);
        job.iterations = &iterations;
        CHECK(ik_jacobian_run(&job) == IK_OK && pose_finite(&r), "%s straight beyond", name);
        CHECK(IK_FABS(tip_distance(&r, CHAIN_MOVERS, effectors[0].target_ms) - 10) < (ik_real)1e-3,
              "%s straight beyond", name);
        CHECK(iterations < job.max_iterations, "%s stops at the stretched minimum (%d iterations)", name, iterations);

        /* Coincident effectors: two on the same joint with one target, and
         * two on the same joint pulling apart (a finite compromise). */
        equal_chain(&r, CHAIN_MOVERS, 1, 1);
        effectors[0] = ik_jacobian_effector_make(CHAIN_MOVERS, ik_v3(3, 4, 2));
        effectors[1] = effectors[0];
        job = job_for(&r, effectors, 2, all_methods[m]);
        job.max_iterations = 500;
        CHECK(ik_jacobian_run(&job) == IK_OK && pose_finite(&r), "%s coincident", name);
        if (m >= 2)
            CHECK(tip_distance(&r, CHAIN_MOVERS, effectors[0].target_ms) <= job.tolerance, "%s coincident reach", name);
        effectors[1].target_ms = ik_v3(-3, 4, 2);
        job = job_for(&r, effectors, 2, all_methods[m]);
        CHECK(ik_jacobian_run(&job) == IK_OK && pose_finite(&r) && bones_kept(&r, (ik_real)1e-4), "%s pulled apart",
              name);
        CHECK(tip_distance(&r, CHAIN_MOVERS, ik_v3(0, 4, 2)) < (ik_real)0.1, "%s pulled apart lands between: %g away",
              name, (double)tip_distance(&r, CHAIN_MOVERS, ik_v3(0, 4, 2)));
    }
}

/* Bad input gets an error and leaves the pose alone. */
static void test_bad_input(void) {
    rig r;
    ik_transform before[MAX_JOINTS];
    ik_jacobian_effector effector;
    ik_jacobian job;
    ik_jacobian_joint zero_axis;
    equal_chain(&r, CHAIN_MOVERS, 1, 1);
    memcpy(before, r.pose_ls, sizeof before);
    effector = ik_jacobian_effector_make(CHAIN_MOVERS, ik_v3(1, 2, 3));
    job = job_for(&r, &effector, 1, IK_JACOBIAN_DLS);
    CHECK(ik_jacobian_run(NULL) == IK_ERR_NULL, "NULL job");
    /* A job not made by ik_jacobian_def: a zeroed one, and a filled one without the tag. */
    memset(&job, 0, sizeof job);
    CHECK(ik_jacobian_run(&job) == IK_ERR_NOT_DEFAULTED, "zeroed job refused");
    job = job_for(&r, &effector, 1, IK_JACOBIAN_DLS);
    job.base.defaulted = 0;
    CHECK(ik_jacobian_run(&job) == IK_ERR_NOT_DEFAULTED, "untagged job refused");
    CHECK(memcmp(before, r.pose_ls, sizeof before) == 0, "untagged job writes nothing");
    job = job_for(&r, &effector, 1, IK_JACOBIAN_DLS);
    job.base.scratch = NULL;
    CHECK(ik_jacobian_run(&job) == IK_ERR_NULL, "NULL scratch");
    job = job_for(&r, &effector, 1, IK_JACOBIAN_DLS);
    job.base.scratch_bytes = 64;
    CHECK(ik_jacobian_run(&job) == IK_ERR_CAPACITY, "small scratch");
    {
        /* The bad field is named, with its entry for an array. */
        ik_error where;
        job.base.error_field = &where;
        CHECK(ik_jacobian_run(&job) == IK_ERR_CAPACITY && strcmp(where.path, "base.scratch_bytes") == 0,
              "small scratch named: %s", where.path[0] ? where.path : "(none)");
        job = job_for(&r, &effector, 1, IK_JACOBIAN_DLS);
        job.base.error_field = &where;
        job.max_step = 0;
        CHECK(ik_jacobian_run(&job) == IK_ERR_RANGE && strcmp(where.path, "max_step") == 0, "zero max_step named: %s",
              where.path[0] ? where.path : "(none)");
        job = job_for(&r, &effector, 1, IK_JACOBIAN_DLS);
        job.base.error_field = &where;
        effector.target_ms.y = (ik_real)NAN;
        CHECK(ik_jacobian_run(&job) == IK_ERR_NONFINITE && strcmp(where.path, "effectors") == 0 && where.index == 0,
              "NaN target named: %s [%d]", where.path[0] ? where.path : "(none)", where.index);
        effector.target_ms.y = 2;
        CHECK(memcmp(before, r.pose_ls, sizeof before) == 0, "named errors write nothing");
    }
    job = job_for(&r, &effector, 1, IK_JACOBIAN_DLS);
    effector.target_ms.x = (ik_real)NAN;
    CHECK(ik_jacobian_run(&job) == IK_ERR_NONFINITE, "NaN target");
    effector.target_ms.x = (ik_real)INFINITY;
    CHECK(ik_jacobian_run(&job) == IK_ERR_NONFINITE, "infinite target");
    effector.target_ms.x = 1;
    effector.joint = 99;
    CHECK(ik_jacobian_run(&job) == IK_ERR_RANGE, "bad effector joint");
    effector.joint = CHAIN_MOVERS;
    effector.importance = -1;
    CHECK(ik_jacobian_run(&job) == IK_ERR_RANGE, "negative weight");
    effector.importance = 1;
    job.damping = (ik_real)NAN;
    CHECK(ik_jacobian_run(&job) == IK_ERR_NONFINITE, "NaN damping");
    job = job_for(&r, &effector, 1, IK_JACOBIAN_DLS);
    r.pose_ls[3].rotation.w = (ik_real)NAN;
    CHECK(ik_jacobian_run(&job) == IK_ERR_NONFINITE, "NaN pose");
    r.pose_ls[3].rotation.w = 1;
    zero_axis = ik_jacobian_hinge(0, ik_vec3_zero());
    job.joints = &zero_axis;
    job.base.listed_joint_count = 1;
    CHECK(ik_jacobian_run(&job) == IK_ERR_DEGENERATE, "zero axis");
    CHECK(memcmp(before, r.pose_ls, sizeof before) == 0, "pose untouched by rejected jobs");
}

/* A weight-0 effector changes nothing, bit for bit. */
static void test_zero_weight(void) {
    rig a, b;
    ik_jacobian_effector effectors[2];
    ik_jacobian job;
    equal_chain(&a, CHAIN_MOVERS, 1, 1);
    rig_copy(&b, &a);
    effectors[0] = ik_jacobian_effector_make(CHAIN_MOVERS, ik_v3(2, 5, 1));
    effectors[1] = ik_jacobian_effector_make(4, ik_v3(-50, 0, 7));
    effectors[1].importance = 0;
    job = job_for(&a, effectors, 1, IK_JACOBIAN_DLS);
    CHECK(ik_jacobian_run(&job) == IK_OK, "run");
    job = job_for(&b, effectors, 2, IK_JACOBIAN_DLS);
    CHECK(ik_jacobian_run(&job) == IK_OK, "run");
    CHECK(memcmp(a.pose_ls, b.pose_ls, sizeof a.pose_ls) == 0, "weight 0 is ignored");
}

/* Random everything: chain shapes with zero-length bones, hinges, twists and
 * balls, far and near targets, orientation goals, weights, springs, gravity,
 * constraints, few iterations. The output is always finite, keeps bone
 * lengths and stays inside the limits. */
static void test_random_inputs(long cases) {
    rng g = rng_seeded(17);
    check_property finite = {"finite, lengths kept, limits held", 0, 0};
    long i;
    for (i = 0; i < cases; ++i) {
        rig r;
        ik_real lengths[6];
        ik_jacobian_effector effectors[2];
        ik_spring springs[3 * 6];
        ik_constraint constraints[6];
        ik_jacobian job;
        int movers = 1 + (int)(rng_next(&g) % 6), k, effector_count = 1 + (int)(rng_next(&g) % 2), a, column = 0;
        ik_bool ok;
        for (k = 0; k < movers; ++k) lengths[k] = rng_next(&g) % 5 == 0 ? 0 : rng_range(&g, 0.01, 3);
        make_chain(&r, movers, lengths, 1);
        for (k = 0; k < movers; ++k) {
            int kind = (int)(rng_next(&g) % 3);
            if (kind == 0) r.joints[k] = ik_jacobian_hinge(k, rng_direction(&g));
            if (kind == 1) r.joints[k] = ik_jacobian_hinge(k, ik_v3(0, 1, 0));
            constraints[k] = rng_next(&g) % 3 == 0 ? ik_constraint_cone_twist(ik_quat_identity(), ik_v3(0, 1, 0),
                                                                              rng_range(&g, 0, 3), -1, 1)
                                                   : ik_constraint_none();
            for (a = 0; a < r.joints[k].axis_count; ++a, ++column) {
                ik_real lo = rng_range(&g, -3, 0), hi = rng_range(&g, 0, 3);
                springs[column] = ik_spring_comfort(lo * (ik_real)0.5, hi * (ik_real)0.5, lo, hi, rng_range(&g, 0, 2));
            }
        }
        random_pose(&r, &g, 0.4);
        for (k = 0; k < effector_count; ++k) {
            effectors[k] = ik_jacobian_effector_make((int)(rng_next(&g) % (unsigned)(movers + 1)),
                                                     ik_vec3_scale(rng_in_ball(&g, 1), rng_range(&g, 0, 100)));
            effectors[k].importance = rng_range(&g, 0, 2);
            effectors[k].use_orientation = rng_next(&g) % 2 == 0;
            effectors[k].target_rotation_ms = rng_rotation(&g);
            effectors[k].offset_ls = rng_next(&g) % 2 ? ik_vec3_zero() : rng_in_ball(&g, 1);
        }
        job = job_for(&r, effectors, effector_count, all_methods[rng_next(&g) % 4]);
        job.springs = rng_next(&g) % 2 ? springs : NULL;
        job.base.constraints = rng_next(&g) % 2 ? constraints : NULL;
        job.gravity = rng_next(&g) % 2 ? rng_range(&g, 0, 1) : 0;
        job.damping = rng_range(&g, 0, 0.5);
        job.max_iterations = (int)(rng_next(&g) % 4);
        ok = ik_jacobian_run(&job) == IK_OK && pose_finite(&r) && bones_kept(&r, (ik_real)1e-3);
        if (ok && job.base.constraints)
            for (k = 0; k < movers; ++k)
                if (!ik_constraint_check(&constraints[k], r.pose_ls[k].rotation, (ik_real)1e-3)) ok = 0;
        PROPERTY_CASE(finite, ok, "case %ld: method %d, finite %d, lengths %d", i, (int)job.method, pose_finite(&r),
                      bones_kept(&r, (ik_real)1e-3));
    }
    property_end(&finite);
}

/* Targets far beyond reach (issue 18, item 10): 1e3 as a control, then
 * 1e10, 1e20 and a quarter of the largest real, in random directions from a
 * random bent pose of 10 unit ball joints. Every method ends with the chain
 * pointing straight at the target: the angle between base-to-tip and
 * base-to-target under 0.01 rad, the pose finite with its bone lengths, and
 * the reported error finite and within a few tolerances of the distance
 * from the target to the best reachable point, |t| - L, relative to |t|. */
static ik_real angle_between(ik_vec3 a, ik_vec3 b) {
    return IK_ATAN2(ik_vec3_length(ik_vec3_cross(a, b)), ik_vec3_dot(a, b));
}

static void test_far_targets(void) {
    const double distances[4] = {1e3, 1e10, 1e20, (double)IK_REAL_MAX / 4};
    int m, d;
    for (m = 0; m < 4; ++m) {
        rng g = rng_seeded(18);
        check_property aimed = {"far target: the chain points straight at it", 0, 0};
        check_property honest = {"far target: pose finite, lengths kept, reported error finite and right", 0, 0};
        for (d = 0; d < 4; ++d) {
            int i;
            for (i = 0; i < 10; ++i) {
                rig r;
                ik_jacobian_effector effector;
                ik_jacobian job;
                ik_vec3 direction = rng_direction(&g), base, tip;
                ik_real error = -1, angle;
                ik_result result;
                equal_chain(&r, CHAIN_MOVERS, 1, 1);
                random_pose(&r, &g, 0.5);
                effector = ik_jacobian_effector_make(CHAIN_MOVERS, ik_vec3_scale(direction, (ik_real)distances[d]));
                job = job_for(&r, &effector, 1, all_methods[m]);
                job.max_iterations = 1000;
                job.error = &error;
                result = ik_jacobian_run(&job);
                ik_skeleton_fk(&r.skeleton, r.pose_ls, NULL, r.model_ms);
                base = joint_ms(&r, 0);
                tip = joint_ms(&r, CHAIN_MOVERS);
                angle = angle_between(ik_vec3_sub(tip, base), direction);
                PROPERTY_CASE(aimed, result == IK_OK && angle < (ik_real)0.01, "%s at %g: %s, %g rad off",
                              method_names[m], distances[d], ik_result_str(result), (double)angle);
                PROPERTY_CASE(
                    honest,
                    pose_finite(&r) && bones_kept(&r, (ik_real)1e-3) && ik_finite(error) &&
                        IK_FABS(error / (ik_real)distances[d] - (1 - r.length / (ik_real)distances[d])) < (ik_real)1e-3,
                    "%s at %g: error %g", method_names[m], distances[d], (double)error);
            }
        }
        property_end(&aimed);
        property_end(&honest);
    }
}

int main(void) {
    int cases = SANITIZED ? 1000 : 10000;
    test_reachable_convergence(IK_JACOBIAN_DLS, "DLS", 0, 0.999, cases);
    test_reachable_convergence(IK_JACOBIAN_DLS, "DLS, fixed lambda 0.1", (ik_real)0.1, 0.999, cases / 10);
    test_reachable_convergence(IK_JACOBIAN_SDLS, "SDLS", 0, 0.99, cases / 10);
    test_reachable_convergence(IK_JACOBIAN_TRANSPOSE, "transpose", 0, 0.95, cases / 10);
    test_reachable_convergence(IK_JACOBIAN_GRADIENT, "gradient", 0, 0.5, cases / 10);
    test_tight_tolerance(IK_JACOBIAN_DLS, "DLS", 0.999, 10, cases);
    test_tight_tolerance(IK_JACOBIAN_SDLS, "SDLS", 0.99, 100, cases / 10);
    test_descent_lowers_error();
    test_unreachable_settles();
    test_unreachable_stops_early();
    test_far_targets();
    test_singular_goals_bounded();
    test_limits_never_violated();
    test_orientation_with_twist();
    test_twist_joint_turns();
    test_multiple_effectors();
    test_deterministic();
    test_degenerate_inputs();
    test_bad_input();
    test_zero_weight();
    test_random_inputs(SANITIZED ? 20000L : 1000000L);
    return check_summary("test_jacobian");
}

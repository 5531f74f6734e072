/* Jacobian-family solvers: solve, then check with forward kinematics where
 * the effectors landed, that bone lengths and limits held and that the
 * output is finite and repeatable. */
#include <ikit/jacobian.h>
#include <ikit/skeleton.h>
#include <string.h>

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

static int axis_total(const rig *r) {
    int i, n = 0;
    for (i = 0; i < r->joint_count; ++i) n += r->joints[i].axis_count;
    return n;
}

static ik_jacobian job_for(rig *r, const ik_jacobian_effector *effectors, int effector_count,
                           ik_jacobian_method method) {
    ik_jacobian job = ik_jacobian_def();
    job.skeleton = &r->skeleton;
    job.pose_ls = r->pose_ls;
    job.joints = r->joints;
    job.joint_count = r->joint_count;
    job.effectors = effectors;
    job.effector_count = effector_count;
    job.method = method;
    job.scratch = scratch_store;
    job.scratch_bytes = sizeof scratch_store;
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

static ik_bool pose_finite(const rig *r) {
    int i;
    for (i = 0; i < r->skeleton.joint_count; ++i)
        if (!ik_transform_finite(r->pose_ls[i])) return 0;
    return 1;
}

static ik_real tip_distance(rig *r, int tip, ik_vec3 target) {
    ik_skeleton_fk(&r->skeleton, r->pose_ls, NULL, r->model_ms);
    return ik_vec3_distance(joint_ms(r, tip), target);
}

/* The acceptance test: unconstrained 10-joint ball chains, random
 * bone lengths, reset straight before each target, targets uniform in a
 * ball of 0.9 times the length; DLS reaches within 1e-3 of the length for at
 * least 99.9% of them. */
static void test_reachable_convergence(ik_jacobian_method method, const char *name, double required_rate,
                                       int cases) {
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
        effector = ik_jacobian_effector_def(CHAIN_MOVERS, rng_in_ball(&g, 0.9 * (double)r.length));
        job = job_for(&r, &effector, 1, method);
        job.tolerance = (ik_real)1e-3 * r.length;
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

int main(void) {
    int cases = SANITIZED ? 1000 : 10000;
    test_reachable_convergence(IK_JACOBIAN_DLS, "DLS", 0.999, cases);
    test_reachable_convergence(IK_JACOBIAN_SDLS, "SDLS", 0.99, cases / 10);
    test_reachable_convergence(IK_JACOBIAN_TRANSPOSE, "transpose", 0.0, cases / 10);
    test_reachable_convergence(IK_JACOBIAN_GRADIENT, "gradient", 0.0, cases / 10);
    return check_summary("test_jacobian");
}

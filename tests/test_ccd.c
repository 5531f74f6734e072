/* CCD: reach, bone lengths, limits, step cap, end rotation, determinism and
 * degenerate inputs, all checked with the skeleton's own forward kinematics. */
#include <ikit/ccd.h>
#include <string.h>

#include "support/chain_fixture.h"
#include "support/chain_stress.h"
#include "support/check.h"
#include "support/rng.h"

#if defined(__SANITIZE_ADDRESS__)
#define REACH_CASES 3000
#else
#define REACH_CASES 10000
#endif

static ik_ccd chain_job(chain_fixture *f, ik_vec3 target, int iterations, int *iters, ik_real *err) {
    ik_ccd job = chain_ccd_job(f, target);
    job.max_iterations = iterations;
    job.iterations = iters;
    job.error = err;
    return job;
}

/* The FABRIK paper's test (Aristidou and Lasenby 2011): 10 unit bones,
 * straight before each target, targets uniform in a ball of 0.9 times the
 * chain length, tolerance 1e-3 of the length, the default iteration cap.
 * At least 99.9% of the targets must be reached (by forward kinematics). */
static void test_reach_unconstrained(void) {
    chain_fixture f;
    rng r = rng_seeded(100);
    check_property kept = {"ccd: lengths kept, output finite", 0, 0};
    int i, reached = 0, total = REACH_CASES;
    ik_real chain_length = 10;
    chain_make(&f, 10, 1, NULL, 0);
    for (i = 0; i < total; ++i) {
        ik_vec3 target = rng_in_ball(&r, 0.9 * chain_length);
        ik_ccd job = chain_job(&f, target, ik_ccd_def().max_iterations, NULL, NULL);
        job.tolerance = chain_length * (ik_real)0.9e-3;
        ik_skeleton_rest_pose(&f.skeleton, f.pose_ls);
        CHECK(ik_ccd_run(&job) == IK_OK, "run");
        PROPERTY_CASE(kept, chain_pose_finite(&f) && chain_lengths_kept(&f, chain_length), "case %d", i);
        if (chain_end_distance(&f, target) <= chain_length * (ik_real)1e-3) ++reached;
    }
    property_end(&kept);
    CHECK(reached >= total * 999 / 1000, "reached %d of %d", reached, total);
}

/* Out of reach: the chain ends within the tolerance of the closest point it
 * can touch (|t| - L from the target), and settles in well under the cap. */
static void test_unreachable(void) {
    chain_fixture f;
    rng r = rng_seeded(110);
    check_property near = {"ccd: unreachable target, end within tolerance of |t| - L", 0, 0};
    int i, total = 1000;
    long sweeps = 0;
    ik_real chain_length = 10;
    chain_make(&f, 10, 1, NULL, 0);
    for (i = 0; i < total; ++i) {
        ik_vec3 target = ik_vec3_scale(rng_direction(&r), rng_range(&r, 10.5, 20));
        int iters = 0;
        ik_ccd job = chain_job(&f, target, ik_ccd_def().max_iterations, &iters, NULL);
        ik_real beyond;
        job.tolerance = chain_length * (ik_real)0.9e-3;
        ik_skeleton_rest_pose(&f.skeleton, f.pose_ls);
        CHECK(ik_ccd_run(&job) == IK_OK, "run");
        sweeps += iters;
        beyond = chain_end_distance(&f, target) - (ik_vec3_length(target) - chain_length);
        PROPERTY_CASE(near, beyond <= chain_length * (ik_real)1e-3, "case %d: %g beyond the best", i, (double)beyond);
    }
    property_end(&near);
    CHECK(sweeps < (long)total * 200, "unreachable targets settle: %.1f sweeps on average", (double)sweeps / total);
}

static void test_reach_constrained(int type, const char *name) {
    chain_fixture f, g;
    rng r = rng_seeded(200 + (uint64_t)type);
    check_property limits = {name, 0, 0};
    int i, reached = 0, total = 2000;
    chain_make(&f, 8, 1, NULL, 0);
    chain_set_limits(&f, type);
    chain_copy(&g, &f);
    for (i = 0; i < total; ++i) {
        ik_vec3 target = chain_reachable_target(&g, f.constraints, &r);
        ik_ccd job;
        ik_skeleton_rest_pose(&f.skeleton, f.pose_ls);
        job = chain_job(&f, target, 200, NULL, NULL);
        job.base.constraints = f.constraints;
        job.tolerance = (ik_real)8e-3;
        CHECK(ik_ccd_run(&job) == IK_OK, "run");
        PROPERTY_CASE(limits, chain_limits_held(&f) && chain_pose_finite(&f) && chain_lengths_kept(&f, 8), "case %d",
                      i);
        if (chain_end_distance(&f, target) <= (ik_real)1e-2) ++reached;
    }
    property_end(&limits);
    CHECK(reached >= total * 7 / 10, "%s: reached %d of %d", name, reached, total);
}

/* One sweep with a 0.1 rad cap turns no joint by more than 0.1 rad; the end
 * joint takes the target rotation exactly. */
static void test_step_cap_and_end_rotation(void) {
    chain_fixture f;
    rng r = rng_seeded(300);
    check_property cap = {"ccd: step cap holds", 0, 0};
    check_property end = {"ccd: end joint takes the target rotation", 0, 0};
    int i, k;
    chain_make(&f, 6, 1, &r, (ik_real)0.4);
    for (i = 0; i < 2000; ++i) {
        ik_transform before[MAX_JOINTS];
        ik_quat want = rng_rotation(&r);
        ik_ccd job = chain_job(&f, rng_in_ball(&r, 6), 1, NULL, NULL);
        ik_real worst = 0;
        ik_skeleton_rest_pose(&f.skeleton, f.pose_ls);
        memcpy(before, f.pose_ls, sizeof(before));
        job.max_step_angle = (ik_real)0.1;
        job.target_rotation_ms = &want;
        CHECK(ik_ccd_run(&job) == IK_OK, "run");
        for (k = 0; k + 1 < f.count; ++k) {
            ik_real a = ik_quat_angle(ik_quat_mul(f.pose_ls[k].rotation, ik_quat_conjugate(before[k].rotation)));
            if (a > worst) worst = a;
        }
        PROPERTY_CASE(cap, worst <= (ik_real)0.1 + ANGLE_TOL, "turned %g", (double)worst);
        ik_skeleton_fk(&f.skeleton, f.pose_ls, NULL, f.model_ms);
        PROPERTY_CASE(end,
                      ik_quat_angle(ik_quat_mul(ik_quat_conjugate(ik_mat4_rotation(&f.model_ms[f.count - 1])), want)) <
                          ANGLE_TOL * 5,
                      "");
    }
    property_end(&cap);
    property_end(&end);
}

static void test_determinism(void) {
    chain_fixture a, b;
    rng r = rng_seeded(500);
    int i, same = 1;
    chain_make(&a, 10, 1, &r, (ik_real)0.5);
    chain_copy(&b, &a);
    for (i = 0; i < 200; ++i) {
        ik_vec3 target = rng_in_ball(&r, 12);
        ik_ccd ja = chain_job(&a, target, 20, NULL, NULL), jb = chain_job(&b, target, 20, NULL, NULL);
        CHECK(ik_ccd_run(&ja) == IK_OK && ik_ccd_run(&jb) == IK_OK, "run");
        same = same && memcmp(a.pose_ls, b.pose_ls, sizeof(ik_transform) * (size_t)a.count) == 0;
    }
    CHECK(same, "same input, same output, bit for bit");
}

static void test_degenerate(void) {
    chain_fixture f;
    ik_real err = -1;
    int iters = -1;
    ik_ccd job;
    ik_transform saved[MAX_JOINTS];

    chain_make(&f, 4, 1, NULL, 0);
    job = chain_job(&f, ik_vec3_zero(), 50, &iters, &err);
    CHECK(ik_ccd_run(&job) == IK_OK && chain_pose_finite(&f) && chain_lengths_kept(&f, 4), "target on the base");
    chain_make(&f, 4, 1, NULL, 0);
    job.target_ms = ik_v3(0, -10, 0);
    CHECK(ik_ccd_run(&job) == IK_OK && chain_pose_finite(&f) && chain_lengths_kept(&f, 4),
          "straight chain, target behind");
    CHECK(err < 13 && chain_end_distance(&f, job.target_ms) < 13, "moves towards the far target (start error 14): %g",
          (double)chain_end_distance(&f, job.target_ms));
    chain_make(&f, 4, 1, NULL, 0);
    job.target_ms = ik_v3(0, 2, 0);
    CHECK(ik_ccd_run(&job) == IK_OK && chain_pose_finite(&f) && chain_lengths_kept(&f, 4) && err < (ik_real)1e-2 &&
              chain_end_distance(&f, job.target_ms) < (ik_real)1e-2,
          "straight chain, target on its line: err %g, end %g away", (double)err,
          (double)chain_end_distance(&f, job.target_ms));
    chain_make(&f, 4, 1, NULL, 0);
    job.target_ms = ik_v3(0, 4, 0);
    memcpy(saved, f.pose_ls, sizeof(ik_transform) * (size_t)f.count);
    CHECK(ik_ccd_run(&job) == IK_OK && iters == 0 && err == 0, "target reached: iterations %d", iters);
    CHECK(memcmp(saved, f.pose_ls, sizeof(ik_transform) * (size_t)f.count) == 0, "pose unchanged");
    chain_make(&f, 6, 1, NULL, 0);
    f.rest_ls[2].translation = ik_vec3_zero();
    f.rest_ls[5].translation = ik_vec3_zero();
    ik_skeleton_rest_pose(&f.skeleton, f.pose_ls);
    job = chain_job(&f, ik_v3(2, 1, 1), 100, &iters, &err);
    CHECK(ik_ccd_run(&job) == IK_OK && chain_pose_finite(&f) && chain_lengths_kept(&f, 4) && err < (ik_real)1e-3 &&
              chain_end_distance(&f, job.target_ms) < (ik_real)1e-3,
          "zero-length bones: err %g, end %g away", (double)err, (double)chain_end_distance(&f, job.target_ms));
    chain_make(&f, 0, 1, NULL, 0);
    job = chain_job(&f, ik_v3(2, 1, 1), 10, &iters, &err);
    CHECK(ik_ccd_run(&job) == IK_OK && chain_pose_finite(&f), "single joint");
    chain_make(&f, 4, 1, NULL, 0);
    memcpy(saved, f.pose_ls, sizeof(ik_transform) * (size_t)f.count);
    job = chain_job(&f, ik_v3((ik_real)NAN, 0, 0), 10, &iters, &err);
    CHECK(ik_ccd_run(&job) == IK_ERR_NONFINITE, "NaN target");
    {
        /* The bad field is named, with its entry for an array. */
        ik_error where;
        job.base.error_field = &where;
        CHECK(ik_ccd_run(&job) == IK_ERR_NONFINITE && strcmp(where.path, "target_ms") == 0 && where.index == -1,
              "NaN target named: %s", where.path[0] ? where.path : "(none)");
        job.target_ms = ik_v3(1, 1, 1);
        f.pose_ls[2].rotation.x = (ik_real)INFINITY;
        CHECK(ik_ccd_run(&job) == IK_ERR_NONFINITE && strcmp(where.path, "base.pose_ls") == 0 &&
                  where.index == f.joints[2],
              "infinite pose named: %s [%d]", where.path[0] ? where.path : "(none)", where.index);
        f.pose_ls[2] = saved[2];
        job.base.scratch_bytes = 1;
        CHECK(ik_ccd_run(&job) == IK_ERR_CAPACITY && strcmp(where.path, "base.scratch_bytes") == 0,
              "short scratch named");
        job.base.scratch_bytes = sizeof f.scratch;
        job.joints = NULL;
        CHECK(ik_ccd_run(&job) == IK_ERR_NULL && strcmp(where.path, "joints") == 0, "NULL joints named");
        job.joints = f.joints;
        job.max_iterations = 0;
        CHECK(ik_ccd_run(&job) == IK_OK && where.path[0] == '\0' && where.index == -1, "nothing named on success");
        memcpy(f.pose_ls, saved, sizeof(ik_transform) * (size_t)f.count);
        job.max_iterations = 10;
        job.base.error_field = NULL;
    }
    job.target_ms = ik_v3(1, 1, 1);
    f.pose_ls[1].rotation.x = (ik_real)INFINITY;
    CHECK(ik_ccd_run(&job) == IK_ERR_NONFINITE, "infinite pose");
    f.pose_ls[1] = saved[1];
    {
        /* Joints above the first listed one, and between two listed ones, are read too. */
        const int from_second[3] = {1, 2, 3}, skipping[3] = {0, 1, 3};
        job.base.listed_joint_count = 3;
        job.joints = from_second;
        f.pose_ls[0].translation.y = (ik_real)INFINITY;
        CHECK(ik_ccd_run(&job) == IK_ERR_NONFINITE, "infinite pose above the first joint");
        f.pose_ls[0] = saved[0];
        job.joints = skipping;
        f.pose_ls[2].rotation.w = (ik_real)NAN;
        CHECK(ik_ccd_run(&job) == IK_ERR_NONFINITE, "NaN pose between two listed joints");
        f.pose_ls[2] = saved[2];
        job.joints = f.joints;
        job.base.listed_joint_count = f.count;
    }
    CHECK(memcmp(saved, f.pose_ls, sizeof(ik_transform) * (size_t)f.count) == 0, "nothing written on error");
    job.max_step_angle = 0;
    CHECK(ik_ccd_run(&job) == IK_ERR_RANGE, "zero step cap");
    job = chain_job(&f, ik_v3(1, 1, 1), 10, NULL, NULL);
    job.base.scratch = NULL;
    CHECK(ik_ccd_run(&job) == IK_ERR_NULL, "NULL scratch");
    job = chain_job(&f, ik_v3(1, 1, 1), 10, NULL, NULL);
    job.base.scratch_bytes = ik_ccd_scratch_size(f.count) - 1;
    CHECK(ik_ccd_run(&job) == IK_ERR_CAPACITY, "scratch one byte short");
    CHECK(memcmp(saved, f.pose_ls, sizeof(ik_transform) * (size_t)f.count) == 0, "short scratch writes nothing");
    CHECK(ik_ccd_run(NULL) == IK_ERR_NULL, "NULL job");
    /* A job not made by ik_ccd_def: a zeroed one, and a filled one without the tag. */
    memset(&job, 0, sizeof job);
    CHECK(ik_ccd_run(&job) == IK_ERR_NOT_DEFAULTED, "zeroed job refused");
    job = chain_job(&f, ik_v3(1, 1, 1), 10, NULL, NULL);
    job.base.defaulted = 0;
    CHECK(ik_ccd_run(&job) == IK_ERR_NOT_DEFAULTED, "untagged job refused");
    CHECK(memcmp(saved, f.pose_ls, sizeof(ik_transform) * (size_t)f.count) == 0, "untagged job writes nothing");
}

/* The shared million-case stress test (support/chain_stress.h), with a
 * random step cap on one case in two. */
static ik_result stress_solve(chain_fixture *f, ik_vec3 target, const ik_quat *end_rotation,
                              const ik_constraint *constraints, int cap, rng *r, int *iterations, ik_real *error) {
    ik_ccd job = chain_job(f, target, cap, iterations, error);
    job.base.constraints = constraints;
    job.target_rotation_ms = end_rotation;
    if (rng_next(r) % 2) job.max_step_angle = rng_range(r, 0.01, IK_PI);
    return ik_ccd_run(&job);
}

int main(void) {
    test_reach_unconstrained();
    test_unreachable();
    test_reach_constrained(IK_CONSTRAINT_HINGE, "ccd hinge chain: limits, lengths, finite");
    test_reach_constrained(IK_CONSTRAINT_CONE_TWIST, "ccd cone-twist chain: limits, lengths, finite");
    test_step_cap_and_end_rotation();
    test_determinism();
    test_degenerate();
    chain_stress_test(stress_solve);
    return check_summary("ccd");
}

/* CCD: reach, bone lengths, limits, step cap, end rotation, determinism and
 * degenerate inputs, all checked with the skeleton's own forward kinematics. */
#include <ikit/ccd.h>
#include <string.h>

#include "support/check.h"
#include "support/rng.h"

#ifdef IKIT_DOUBLE
#define LEN_TOL 1e-9
#define ANGLE_TOL 1e-6
#else
#define LEN_TOL 2e-5
#define ANGLE_TOL 2e-3f
#endif
#if defined(__SANITIZE_ADDRESS__)
#define STRESS_CASES 20000
#define REACH_CASES 3000
#else
#define STRESS_CASES 1000000
#define REACH_CASES 10000
#endif

#define MAX_JOINTS 32

typedef struct fixture {
    int parents[MAX_JOINTS];
    ik_transform rest_ls[MAX_JOINTS];
    ik_transform pose_ls[MAX_JOINTS];
    ik_mat4 model_ms[MAX_JOINTS];
    int joints[MAX_JOINTS];
    ik_chain_link scratch[MAX_JOINTS];
    ik_constraint constraints[MAX_JOINTS];
    ik_skeleton skeleton;
    int count;
} fixture;

/* A chain of `bones` bones along +y with a small bend in the rest pose. */
static void make_chain(fixture *f, int bones, ik_real length, rng *r, ik_real bend) {
    int i;
    f->count = bones + 1;
    for (i = 0; i < f->count; ++i) {
        ik_quat q = r ? ik_quat_from_axis_angle(rng_direction(r), rng_range(r, 0, bend)) : ik_quat_identity();
        f->parents[i] = i - 1;
        f->rest_ls[i] = ik_transform_make(i == 0 ? ik_vec3_zero() : ik_v3(0, length, 0), q, ik_v3(1, 1, 1));
        f->joints[i] = i;
    }
    ik_skeleton_init(&f->skeleton, f->count, f->parents, NULL, f->rest_ls, NULL);
    ik_skeleton_rest_pose(&f->skeleton, f->pose_ls);
}

static ik_vec3 joint_ms(const fixture *f, int j) { return ik_mat4_translation(&f->model_ms[j]); }

/* Every bone keeps its rest length (measured by forward kinematics). */
static ik_bool lengths_kept(fixture *f, ik_real scale) {
    int i;
    ik_skeleton_fk(&f->skeleton, f->pose_ls, NULL, f->model_ms);
    for (i = 1; i < f->count; ++i) {
        ik_real want = ik_vec3_length(f->rest_ls[i].translation);
        ik_real got = ik_vec3_distance(joint_ms(f, i), joint_ms(f, f->parents[i]));
        if (!(IK_FABS(got - want) <= (ik_real)LEN_TOL * 50 * scale)) return 0;
    }
    return 1;
}

static ik_bool pose_finite(const fixture *f) {
    int i;
    for (i = 0; i < f->count; ++i)
        if (!ik_transform_finite(f->pose_ls[i])) return 0;
    return 1;
}

static ik_ccd chain_job(fixture *f, ik_vec3 target, int iterations, int *iters, ik_real *err) {
    ik_ccd job = ik_ccd_def();
    job.skeleton = &f->skeleton;
    job.joints = f->joints;
    job.joint_count = f->count;
    job.target_ms = target;
    job.pose_ls = f->pose_ls;
    job.scratch = f->scratch;
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
    fixture f;
    rng r = rng_seeded(100);
    check_property kept = {"ccd: lengths kept, output finite", 0, 0};
    int i, reached = 0, total = REACH_CASES;
    ik_real chain_length = 10;
    make_chain(&f, 10, 1, NULL, 0);
    for (i = 0; i < total; ++i) {
        ik_vec3 target = rng_in_ball(&r, 0.9 * chain_length);
        ik_ccd job = chain_job(&f, target, ik_ccd_def().max_iterations, NULL, NULL);
        job.tolerance = chain_length * (ik_real)0.9e-3;
        ik_skeleton_rest_pose(&f.skeleton, f.pose_ls);
        CHECK(ik_ccd_run(&job) == IK_OK, "run");
        PROPERTY_CASE(kept, pose_finite(&f) && lengths_kept(&f, chain_length), "case %d", i);
        if (ik_vec3_distance(joint_ms(&f, f.count - 1), target) <= chain_length * (ik_real)1e-3) ++reached;
    }
    property_end(&kept);
    CHECK(reached >= total * 999 / 1000, "reached %d of %d", reached, total);
}

/* Out of reach: the chain ends within the tolerance of the closest point it
 * can touch (|t| - L from the target), and settles in well under the cap. */
static void test_unreachable(void) {
    fixture f;
    rng r = rng_seeded(110);
    check_property near = {"ccd: unreachable target, end within tolerance of |t| - L", 0, 0};
    int i, total = 1000;
    long sweeps = 0;
    ik_real chain_length = 10;
    make_chain(&f, 10, 1, NULL, 0);
    for (i = 0; i < total; ++i) {
        ik_vec3 target = ik_vec3_scale(rng_direction(&r), rng_range(&r, 10.5, 20));
        int iters = 0;
        ik_ccd job = chain_job(&f, target, ik_ccd_def().max_iterations, &iters, NULL);
        ik_real best = ik_vec3_length(target) - chain_length;
        job.tolerance = chain_length * (ik_real)0.9e-3;
        ik_skeleton_rest_pose(&f.skeleton, f.pose_ls);
        CHECK(ik_ccd_run(&job) == IK_OK, "run");
        ik_skeleton_fk(&f.skeleton, f.pose_ls, NULL, f.model_ms);
        sweeps += iters;
        PROPERTY_CASE(near, ik_vec3_distance(joint_ms(&f, f.count - 1), target) - best <= chain_length * (ik_real)1e-3,
                      "case %d: %g beyond the best", i, (double)(ik_vec3_distance(joint_ms(&f, f.count - 1), target) - best));
    }
    property_end(&near);
    CHECK(sweeps < (long)total * 200, "unreachable targets settle: %.1f sweeps on average", (double)sweeps / total);
}

static void test_reach_constrained(int type, const char *name) {
    fixture f, g;
    rng r = rng_seeded(200 + (uint64_t)type);
    check_property limits = {name, 0, 0};
    int i, k, reached = 0, total = 2000;
    make_chain(&f, 8, 1, NULL, 0);
    for (k = 0; k < f.count; ++k)
        f.constraints[k] = type == IK_CONSTRAINT_HINGE
                               ? ik_constraint_hinge(f.rest_ls[k].rotation, ik_v3(0, 0, 1), -IK_PI / 2, IK_PI / 2)
                               : ik_constraint_cone_twist(f.rest_ls[k].rotation, ik_v3(0, 1, 0), IK_PI / 4,
                                                          -IK_PI / 6, IK_PI / 6);
    g = f;
    ik_skeleton_init(&g.skeleton, g.count, g.parents, NULL, g.rest_ls, NULL);
    for (i = 0; i < total; ++i) {
        ik_vec3 target;
        ik_ccd job;
        ik_bool inside = 1;
        for (k = 0; k < g.count; ++k) g.pose_ls[k].rotation = ik_constraint_apply(&f.constraints[k], rng_rotation(&r));
        ik_skeleton_fk(&g.skeleton, g.pose_ls, NULL, g.model_ms);
        target = joint_ms(&g, g.count - 1);
        ik_skeleton_rest_pose(&f.skeleton, f.pose_ls);
        job = chain_job(&f, target, 200, NULL, NULL);
        job.constraints = f.constraints;
        job.tolerance = (ik_real)8e-3;
        CHECK(ik_ccd_run(&job) == IK_OK, "run");
        for (k = 0; k < f.count; ++k) inside = inside && ik_constraint_check(&f.constraints[k], f.pose_ls[k].rotation, ANGLE_TOL);
        PROPERTY_CASE(limits, inside && pose_finite(&f) && lengths_kept(&f, 8), "case %d", i);
        if (ik_vec3_distance(joint_ms(&f, f.count - 1), target) <= (ik_real)1e-2) ++reached;
    }
    property_end(&limits);
    CHECK(reached >= total * 7 / 10, "%s: reached %d of %d", name, reached, total);
}

/* One sweep with a 0.1 rad cap turns no joint by more than 0.1 rad; the end
 * joint takes the target rotation exactly. */
static void test_step_cap_and_end_rotation(void) {
    fixture f;
    rng r = rng_seeded(300);
    check_property cap = {"ccd: step cap holds", 0, 0};
    check_property end = {"ccd: end joint takes the target rotation", 0, 0};
    int i, k;
    make_chain(&f, 6, 1, &r, (ik_real)0.4);
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
        PROPERTY_CASE(end, ik_quat_angle(ik_quat_mul(ik_quat_conjugate(ik_mat4_rotation(&f.model_ms[f.count - 1])), want)) <
                               ANGLE_TOL * 5, "");
    }
    property_end(&cap);
    property_end(&end);
}

static void test_determinism(void) {
    fixture a, b;
    rng r = rng_seeded(500);
    int i, same = 1;
    make_chain(&a, 10, 1, &r, (ik_real)0.5);
    b = a;
    ik_skeleton_init(&b.skeleton, b.count, b.parents, NULL, b.rest_ls, NULL);
    for (i = 0; i < 200; ++i) {
        ik_vec3 target = rng_in_ball(&r, 12);
        ik_ccd ja = chain_job(&a, target, 20, NULL, NULL), jb = chain_job(&b, target, 20, NULL, NULL);
        ik_ccd_run(&ja);
        ik_ccd_run(&jb);
        same = same && memcmp(a.pose_ls, b.pose_ls, sizeof(ik_transform) * (size_t)a.count) == 0;
    }
    CHECK(same, "same input, same output, bit for bit");
}

static void test_degenerate(void) {
    fixture f;
    ik_real err = -1;
    int iters = -1;
    ik_ccd job;
    ik_transform saved[MAX_JOINTS];

    make_chain(&f, 4, 1, NULL, 0);
    job = chain_job(&f, ik_vec3_zero(), 50, &iters, &err);
    CHECK(ik_ccd_run(&job) == IK_OK && pose_finite(&f) && lengths_kept(&f, 4), "target on the base");
    make_chain(&f, 4, 1, NULL, 0);
    job.target_ms = ik_v3(0, -10, 0);
    CHECK(ik_ccd_run(&job) == IK_OK && pose_finite(&f) && lengths_kept(&f, 4), "straight chain, target behind");
    CHECK(err < 13, "moves towards the far target (start error 14): %g", (double)err);
    make_chain(&f, 4, 1, NULL, 0);
    job.target_ms = ik_v3(0, 2, 0);
    CHECK(ik_ccd_run(&job) == IK_OK && pose_finite(&f) && lengths_kept(&f, 4) && err < (ik_real)1e-2,
          "straight chain, target on its line: err %g", (double)err);
    make_chain(&f, 4, 1, NULL, 0);
    job.target_ms = ik_v3(0, 4, 0);
    memcpy(saved, f.pose_ls, sizeof(ik_transform) * (size_t)f.count);
    CHECK(ik_ccd_run(&job) == IK_OK && iters == 0 && err == 0, "target reached: iterations %d", iters);
    CHECK(memcmp(saved, f.pose_ls, sizeof(ik_transform) * (size_t)f.count) == 0, "pose unchanged");
    make_chain(&f, 6, 1, NULL, 0);
    f.rest_ls[2].translation = ik_vec3_zero();
    f.rest_ls[5].translation = ik_vec3_zero();
    ik_skeleton_rest_pose(&f.skeleton, f.pose_ls);
    job = chain_job(&f, ik_v3(2, 1, 1), 100, &iters, &err);
    CHECK(ik_ccd_run(&job) == IK_OK && pose_finite(&f) && lengths_kept(&f, 4) && err < (ik_real)1e-3,
          "zero-length bones: err %g", (double)err);
    make_chain(&f, 0, 1, NULL, 0);
    job = chain_job(&f, ik_v3(2, 1, 1), 10, &iters, &err);
    CHECK(ik_ccd_run(&job) == IK_OK && pose_finite(&f), "single joint");
    make_chain(&f, 4, 1, NULL, 0);
    memcpy(saved, f.pose_ls, sizeof(ik_transform) * (size_t)f.count);
    job = chain_job(&f, ik_v3((ik_real)NAN, 0, 0), 10, &iters, &err);
    CHECK(ik_ccd_run(&job) == IK_ERR_NONFINITE, "NaN target");
    job.target_ms = ik_v3(1, 1, 1);
    f.pose_ls[1].rotation.x = (ik_real)INFINITY;
    CHECK(ik_ccd_run(&job) == IK_ERR_NONFINITE, "infinite pose");
    f.pose_ls[1] = saved[1];
    CHECK(memcmp(saved, f.pose_ls, sizeof(ik_transform) * (size_t)f.count) == 0, "nothing written on error");
    job.max_step_angle = 0;
    CHECK(ik_ccd_run(&job) == IK_ERR_RANGE, "zero step cap");
    job = chain_job(&f, ik_v3(1, 1, 1), 10, NULL, NULL);
    job.scratch = NULL;
    CHECK(ik_ccd_run(&job) == IK_ERR_NULL, "NULL scratch");
    CHECK(ik_ccd_run(NULL) == IK_ERR_NULL, "NULL job");
}
/* Random chains (random lengths including zero, random rest rotations,
 * random constraints) and random targets near and far. */
static void test_stress(void) {
    fixture f;
    rng r = rng_seeded(600);
    check_property ok = {"stress: finite, lengths kept, limits held", 0, 0};
    int i, k;
    for (i = 0; i < STRESS_CASES; ++i) {
        ik_vec3 target;
        ik_ccd job;
        ik_bool inside = 1;
        int bones = 1 + (int)(rng_next(&r) % 12);
        if (i % 1000 == 0) {
            make_chain(&f, bones, 1, &r, 3);
            for (k = 1; k < f.count; ++k)
                f.rest_ls[k].translation = ik_vec3_scale(rng_direction(&r), (rng_next(&r) % 5 == 0) ? 0 : rng_range(&r, 0.1, 3));
            for (k = 0; k < f.count; ++k) {
                int type = (int)(rng_next(&r) % 4);
                f.constraints[k] = type == 0 ? ik_constraint_none()
                                   : type == 1 ? ik_constraint_hinge(f.rest_ls[k].rotation, rng_direction(&r), -1, 2)
                                   : type == 2 ? ik_constraint_cone_twist(f.rest_ls[k].rotation, rng_direction(&r),
                                                                          rng_range(&r, 0, 3), -1, 1)
                                               : ik_constraint_euler(f.rest_ls[k].rotation, ik_v3(-1, -1, -1), ik_v3(1, 1, 1));
            }
            ik_skeleton_rest_pose(&f.skeleton, f.pose_ls);
        }
        if (i % 7 == 0) ik_skeleton_rest_pose(&f.skeleton, f.pose_ls);
        target = rng_in_ball(&r, i % 3 == 0 ? 100 : 10);
        job = chain_job(&f, target, 15, NULL, NULL);
        job.constraints = (i & 1) ? f.constraints : NULL;
        CHECK(ik_ccd_run(&job) == IK_OK, "run %d", i);
        if (job.constraints)
            for (k = 0; k < f.count; ++k)
                inside = inside && ik_constraint_check(&f.constraints[k], f.pose_ls[k].rotation, ANGLE_TOL);
        PROPERTY_CASE(ok, inside && pose_finite(&f) && lengths_kept(&f, 30), "case %d", i);
    }
    property_end(&ok);
}

int main(void) {
    test_reach_unconstrained();
    test_unreachable();
    test_reach_constrained(IK_CONSTRAINT_HINGE, "ccd hinge chain: limits, lengths, finite");
    test_reach_constrained(IK_CONSTRAINT_CONE_TWIST, "ccd cone-twist chain: limits, lengths, finite");
    test_step_cap_and_end_rotation();
    test_determinism();
    test_degenerate();
    test_stress();
    return check_summary("ccd");
}

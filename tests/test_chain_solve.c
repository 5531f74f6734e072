/* The chain solve job: every method reaches targets on a chain (checked by
 * forward kinematics, bone lengths and limits), gives the same pose as the
 * method's own job, turns a chain file's kind of hinges about their axes, and
 * refuses bad input with the field named as written in this job. */
#include <ikit/chain_solve.h>
#include <ikit/jacobian.h>
#include <math.h>
#include <string.h>

#include "support/chain_fixture.h"
#include "support/check.h"
#include "support/rng.h"

#define BONES 4
#define CASES 200

static const char *const method_names[] = {"ccd", "fabrik", "dls", "sdls", "transpose", "gradient"};

/* Scratch for any method on the fixture's chains, aligned for ik_real. */
static union {
    ik_real align;
    unsigned char bytes[64 * 1024];
} scratch;

static ik_chain_solve job_on(chain_fixture *f, ik_chain_method method, ik_vec3 target, ik_error *field) {
    ik_chain_solve job = ik_chain_solve_def();
    job.method = method;
    job.base.skeleton = &f->skeleton;
    job.base.pose_ls = f->pose_ls;
    job.base.scratch = scratch.bytes;
    job.base.scratch_bytes = sizeof scratch.bytes;
    job.base.error_field = field;
    job.joints = f->joints;
    job.base.listed_joint_count = f->count;
    job.target_ms = target;
    return job;
}

/* Targets drawn inside 0.8 of the reach: every method ends within its
 * tolerance (the gradient and transpose methods, slow near the end, within
 * 1e-2 of the reach), keeps every bone's length and a finite pose, and
 * reports the distance it leaves. */
static void test_reach_every_method(void) {
    int m;
    for (m = 0; m < IK_CHAIN_METHOD_COUNT; ++m) {
        chain_fixture f;
        rng r = rng_seeded(2700 + (uint64_t)m);
        check_property kept = {"chain solve: lengths kept, finite, error reported", 0, 0};
        ik_real tolerance = m >= IK_CHAIN_TRANSPOSE ? (ik_real)1e-2 : (ik_real)1e-3;
        int i, reached = 0;
        chain_make(&f, BONES, 1, NULL, 0);
        for (i = 0; i < CASES; ++i) {
            ik_vec3 target = rng_in_ball(&r, 0.8 * BONES);
            ik_real error = -1, distance;
            ik_chain_solve job = job_on(&f, (ik_chain_method)m, target, NULL);
            job.tolerance = tolerance * BONES;
            job.max_iterations = m >= IK_CHAIN_TRANSPOSE ? 2000 : 0;
            job.error = &error;
            ik_skeleton_rest_pose(&f.skeleton, f.pose_ls);
            /* start off the straight line, where a Jacobian has rank to turn */
            f.pose_ls[1].rotation = ik_quat_from_axis_angle(ik_v3(0, 0, 1), (ik_real)0.3);
            CHECK(ik_chain_solve_run(&job) == IK_OK, "%s: run", method_names[m]);
            distance = chain_end_distance(&f, target);
            PROPERTY_CASE(
                kept,
                chain_pose_finite(&f) && chain_lengths_kept(&f, BONES) && IK_FABS(distance - error) <= (ik_real)1e-3,
                "%s case %d: end %g from the target, reported %g", method_names[m], i, (double)distance, (double)error);
            if (distance <= job.tolerance * (ik_real)1.01) ++reached;
        }
        property_end(&kept);
        CHECK(reached >= CASES * 95 / 100, "%s reached %d of %d", method_names[m], reached, CASES);
    }
}

/* The same pose, bit for bit, as the method's own job on the same input. */
static void test_same_as_own_job(void) {
    chain_fixture a, b;
    rng r = rng_seeded(2710);
    ik_vec3 target;
    int m;
    chain_make(&a, BONES, 1, &r, (ik_real)0.6);
    chain_set_limits(&a, IK_CONSTRAINT_CONE_TWIST);
    chain_copy(&b, &a);
    target = ik_v3(1.5f, 2.0f, 0.5f);
    for (m = 0; m < IK_CHAIN_METHOD_COUNT; ++m) {
        ik_chain_solve job = job_on(&a, (ik_chain_method)m, target, NULL);
        ik_result own;
        job.base.constraints = a.constraints;
        ik_skeleton_rest_pose(&a.skeleton, a.pose_ls);
        ik_skeleton_rest_pose(&b.skeleton, b.pose_ls);
        CHECK(ik_chain_solve_run(&job) == IK_OK, "%s: run", method_names[m]);
        if (m == IK_CHAIN_CCD) {
            ik_ccd ccd = ik_ccd_def();
            ccd.base.skeleton = &b.skeleton, ccd.base.pose_ls = b.pose_ls, ccd.base.constraints = b.constraints;
            ccd.base.scratch = b.scratch, ccd.base.scratch_bytes = sizeof b.scratch;
            ccd.joints = b.joints, ccd.base.listed_joint_count = b.count, ccd.target_ms = target;
            own = ik_ccd_run(&ccd);
        } else if (m == IK_CHAIN_FABRIK) {
            ik_fabrik fabrik = ik_fabrik_def();
            fabrik.base.skeleton = &b.skeleton, fabrik.base.pose_ls = b.pose_ls;
            fabrik.base.constraints = b.constraints;
            fabrik.base.scratch = b.scratch, fabrik.base.scratch_bytes = sizeof b.scratch;
            fabrik.joints = b.joints, fabrik.base.listed_joint_count = b.count, fabrik.targets_ms = &target;
            own = ik_fabrik_run(&fabrik);
        } else {
            static const ik_jacobian_method methods[] = {IK_JACOBIAN_DLS, IK_JACOBIAN_SDLS, IK_JACOBIAN_TRANSPOSE,
                                                         IK_JACOBIAN_GRADIENT};
            static unsigned char bytes[64 * 1024];
            ik_jacobian jacobian = ik_jacobian_def();
            ik_jacobian_joint balls[BONES];
            ik_jacobian_effector effector = ik_jacobian_effector_make(BONES, target);
            int k;
            for (k = 0; k < BONES; ++k) balls[k] = ik_jacobian_ball(k);
            jacobian.base.skeleton = &b.skeleton, jacobian.base.pose_ls = b.pose_ls;
            jacobian.base.constraints = b.constraints;
            jacobian.base.scratch = (void *)bytes, jacobian.base.scratch_bytes = sizeof bytes;
            jacobian.joints = balls, jacobian.base.listed_joint_count = BONES;
            jacobian.effectors = &effector, jacobian.effector_count = 1;
            jacobian.method = methods[m - IK_CHAIN_DLS];
            own = ik_jacobian_run(&jacobian);
        }
        CHECK(own == IK_OK && memcmp(a.pose_ls, b.pose_ls, sizeof(ik_transform) * (size_t)a.count) == 0,
              "%s: the pose differs from the method's own job", method_names[m]);
        CHECK(chain_limits_held(&a), "%s: limits held", method_names[m]);
    }
}

/* Given turning joints, the Jacobian methods turn those alone and about
 * their axes: hinges about z on a chain bent in its xy plane keep every
 * joint in that plane and leave the root's ball out, and the springs and
 * their limits are obeyed. */
static void test_turning_hinges(void) {
    chain_fixture f;
    ik_jacobian_joint hinges[BONES];
    ik_constraint limits[BONES];
    ik_spring springs[BONES];
    ik_vec3 target = ik_v3(1.5f, 2.5f, 0);
    int k, m;
    chain_make(&f, BONES, 1, NULL, 0);
    for (k = 0; k < BONES; ++k) {
        hinges[k] = ik_jacobian_hinge(k, ik_v3(0, 0, 1));
        limits[k] = ik_constraint_none();
        springs[k] = ik_spring_comfort((ik_real)-1.2, (ik_real)1.2, (ik_real)-1.2, (ik_real)1.2, 0);
    }
    for (m = IK_CHAIN_DLS; m < IK_CHAIN_METHOD_COUNT; ++m) {
        ik_chain_solve job = job_on(&f, (ik_chain_method)m, target, NULL);
        ik_real error = -1;
        job.turning = hinges;
        job.turning_count = BONES;
        job.turning_constraints = limits;
        job.springs = springs;
        job.max_iterations = 2000;
        job.error = &error;
        ik_skeleton_rest_pose(&f.skeleton, f.pose_ls);
        CHECK(job.base.scratch_bytes >= ik_chain_solve_scratch_size(&job), "scratch size");
        CHECK(ik_chain_solve_run(&job) == IK_OK, "%s: run", method_names[m]);
        ik_skeleton_fk(&f.skeleton, f.pose_ls, NULL, f.model_ms);
        for (k = 0; k <= BONES; ++k)
            CHECK(IK_FABS(chain_joint_ms(&f, k).z) <= (ik_real)1e-4, "%s: joint %d left the plane (z = %g)",
                  method_names[m], k, (double)chain_joint_ms(&f, k).z);
        for (k = 0; k < BONES; ++k) {
            ik_quat q = f.pose_ls[k].rotation;
            ik_real angle = 2 * IK_ATAN2(q.z, q.w);
            CHECK(IK_FABS(q.x) + IK_FABS(q.y) <= (ik_real)1e-5, "%s: joint %d turned off its hinge", method_names[m],
                  k);
            CHECK(IK_FABS(angle) <= (ik_real)1.2 + (ik_real)1e-4, "%s: joint %d at %g, past its spring's limit",
                  method_names[m], k, (double)angle);
        }
        CHECK(chain_lengths_kept(&f, BONES), "%s: lengths kept", method_names[m]);
    }
}

/* Bad input: refused with the field as written in this job, the pose
 * untouched. */
static void test_bad_input(void) {
    chain_fixture f;
    ik_transform before[BONES + 1];
    ik_jacobian_joint turning[2];
    ik_error field;
    ik_chain_solve job;
    ik_real nan = (ik_real)NAN;
    int m;
    chain_make(&f, BONES, 1, NULL, 0);
    memcpy(before, f.pose_ls, sizeof before);
    for (m = 0; m < IK_CHAIN_METHOD_COUNT; ++m) {
        job = job_on(&f, (ik_chain_method)m, ik_v3(nan, 0, 0), &field);
        CHECK(ik_chain_solve_run(&job) == IK_ERR_NONFINITE && strcmp(field.path, "target_ms") == 0,
              "%s: NaN target named '%s'", method_names[m], field.path);
        job = job_on(&f, (ik_chain_method)m, ik_v3(1, 1, 0), &field);
        f.pose_ls[2].rotation.x = nan;
        CHECK(
            ik_chain_solve_run(&job) == IK_ERR_NONFINITE && strcmp(field.path, "base.pose_ls") == 0 && field.index == 2,
            "%s: NaN pose named '%s'[%d]", method_names[m], field.path, field.index);
        f.pose_ls[2].rotation.x = 0;
        job.base.scratch_bytes = 8;
        CHECK(ik_chain_solve_run(&job) == IK_ERR_CAPACITY, "%s: scratch too small", method_names[m]);
        CHECK(memcmp(before, f.pose_ls, sizeof before) == 0, "%s: pose untouched", method_names[m]);
        job = job_on(&f, (ik_chain_method)m, ik_v3(1, 1, 0), &field);
        job.tolerance = nan;
        CHECK(ik_chain_solve_run(&job) == IK_ERR_NONFINITE && strcmp(field.path, "tolerance") == 0, "%s: NaN tolerance",
              method_names[m]);
    }
    job = job_on(&f, (ik_chain_method)IK_CHAIN_METHOD_COUNT, ik_v3(1, 1, 0), &field);
    CHECK(ik_chain_solve_run(&job) == IK_ERR_RANGE && strcmp(field.path, "method") == 0, "unknown method");
    CHECK(ik_chain_solve_scratch_size(&job) == 0, "no scratch size for an unknown method");
    job = job_on(&f, IK_CHAIN_DLS, ik_v3(1, 1, 0), &field);
    job.joints = NULL;
    CHECK(ik_chain_solve_run(&job) == IK_ERR_NULL && strcmp(field.path, "joints") == 0, "no joints");
    job = job_on(&f, IK_CHAIN_DLS, ik_v3(1, 1, 0), &field);
    turning[0] = ik_jacobian_ball(0);
    turning[1] = ik_jacobian_hinge(99, ik_v3(0, 0, 1));
    job.turning = turning;
    job.turning_count = 2;
    CHECK(ik_chain_solve_run(&job) == IK_ERR_RANGE && strcmp(field.path, "turning") == 0 && field.index == 1,
          "a turning joint outside the skeleton named '%s'[%d]", field.path, field.index);
    job.turning_count = 0;
    CHECK(ik_chain_solve_run(&job) == IK_ERR_RANGE && strcmp(field.path, "turning_count") == 0, "no turning joints");
    job = job_on(&f, IK_CHAIN_FABRIK, ik_v3(1, 1, 0), &field);
    job.base.defaulted = 0;
    CHECK(ik_chain_solve_run(&job) == IK_ERR_NOT_DEFAULTED, "a job not made by its _def()");
    CHECK(ik_chain_solve_run(NULL) == IK_ERR_NULL, "NULL job");
    CHECK(memcmp(before, f.pose_ls, sizeof before) == 0, "pose untouched");
}

int main(void) {
    test_reach_every_method();
    test_same_as_own_job();
    test_turning_hinges();
    test_bad_input();
    return check_summary("chain_solve");
}

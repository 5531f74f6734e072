/* Two chains with joint limits, shared by the limited-chain test and its
 * benchmark (issue 11, item 9): targets made by forward kinematics of random
 * poses inside the limits, solved from the rest pose by FABRIK, CCD, DLS or
 * SDLS, and the solved pose checked by forward kinematics.
 *
 *   arm:   a humanoid arm along +x (the left arm of a T-pose): clavicle
 *          (cone 20 deg, twist +-10), shoulder (cone 85, twist +-70), elbow
 *          hinge about -y (0 to 150 deg, the forearm swings forward), wrist
 *          (cone 60, twist +-80) and the hand's tip as the effector; bones
 *          0.15, 0.30, 0.27 and 0.18 m (chain length 0.9 m).
 *   cone:  10 unit bones along +y, every joint but the tip limited by a
 *          45 degree cone with +-30 degrees of twist (chain_set_limits).
 *
 * Define MAX_JOINTS before including chain_fixture.h (or this header) for
 * longer chains; both chains here need 11 joints. */
#ifndef IKIT_TEST_LIMITED_CHAINS_H
#define IKIT_TEST_LIMITED_CHAINS_H

#include <ikit/ccd.h>
#include <ikit/fabrik.h>
#include <ikit/jacobian.h>

#include "chain_fixture.h"
#include "rng.h"

typedef enum limited_chain_kind { LIMITED_ARM, LIMITED_CONE, LIMITED_CHAIN_KINDS } limited_chain_kind;
typedef enum limited_solver { LIMITED_FABRIK, LIMITED_CCD, LIMITED_DLS, LIMITED_SDLS, LIMITED_SOLVERS } limited_solver;

static const char *const limited_chain_names[LIMITED_CHAIN_KINDS] = {"arm", "cone10"};
static const char *const limited_solver_names[LIMITED_SOLVERS] = {"fabrik", "ccd", "dls", "sdls"};

/* Bytes of Jacobian scratch the chains need (checked at each solve). */
#define LIMITED_JACOBIAN_SCRATCH 65536

typedef struct limited_chain {
    chain_fixture f;
    chain_fixture sample; /* a copy posed randomly to make targets */
    ik_real length;       /* summed bone lengths */
    ik_jacobian_joint jacobian_joints[MAX_JOINTS];
    double jacobian_scratch[LIMITED_JACOBIAN_SCRATCH / sizeof(double)];
} limited_chain;

/* Builds chain `kind` at rest with its limits. */
static inline void limited_chain_make(limited_chain *c, limited_chain_kind kind) {
    int k;
    if (kind == LIMITED_ARM) {
        static const ik_real bones[4] = {(ik_real)0.15, (ik_real)0.30, (ik_real)0.27, (ik_real)0.18};
        const ik_vec3 out = ik_v3(1, 0, 0);
        chain_make(&c->f, 4, 1, NULL, 0);
        for (k = 1; k <= 4; ++k) c->f.rest_ls[k].translation = ik_vec3_scale(out, bones[k - 1]);
        c->f.constraints[0] = ik_constraint_cone_twist(ik_quat_identity(), out, ik_rad(20), ik_rad(-10), ik_rad(10));
        c->f.constraints[1] = ik_constraint_cone_twist(ik_quat_identity(), out, ik_rad(85), ik_rad(-70), ik_rad(70));
        c->f.constraints[2] = ik_constraint_hinge(ik_quat_identity(), ik_v3(0, -1, 0), 0, ik_rad(150));
        c->f.constraints[3] = ik_constraint_cone_twist(ik_quat_identity(), out, ik_rad(60), ik_rad(-80), ik_rad(80));
        c->f.constraints[4] = ik_constraint_none();
        ik_skeleton_rest_pose(&c->f.skeleton, c->f.pose_ls);
    } else {
        chain_make(&c->f, 10, 1, NULL, 0);
        chain_set_limits(&c->f, IK_CONSTRAINT_CONE_TWIST);
        c->f.constraints[c->f.count - 1] = ik_constraint_none();
    }
    c->length = 0;
    for (k = 1; k < c->f.count; ++k) c->length += ik_vec3_length(c->f.rest_ls[k].translation);
    /* The Jacobian solvers turn a hinge about its axis and any other joint
     * about its three local axes; the tip does not move. */
    for (k = 0; k + 1 < c->f.count; ++k)
        c->jacobian_joints[k] = c->f.constraints[k].type == IK_CONSTRAINT_HINGE
                                    ? ik_jacobian_hinge(k, c->f.constraints[k].axis)
                                    : ik_jacobian_ball(k);
    chain_copy(&c->sample, &c->f);
}

/* A rotation inside `limit`, every range sampled uniformly (ik_constraint_sample). */
static inline ik_quat limited_random_rotation(const ik_constraint *limit, rng *r) {
    ik_vec3 u;
    u.x = rng_range(r, 0, 1);
    u.y = rng_range(r, 0, 1);
    u.z = rng_range(r, 0, 1);
    return ik_constraint_sample(limit, u);
}

/* The end joint after forward kinematics of a random pose inside the limits. */
static inline ik_vec3 limited_random_target(limited_chain *c, rng *r) {
    chain_fixture *g = &c->sample;
    int k;
    for (k = 0; k < g->count; ++k) g->pose_ls[k].rotation = limited_random_rotation(&g->constraints[k], r);
    ik_skeleton_fk(&g->skeleton, g->pose_ls, NULL, g->model_ms);
    return chain_joint_ms(g, g->count - 1);
}

/* Solves from the rest pose towards `target` with tolerance 1e-3 of the
 * chain length (each solver's default iteration cap). Returns the run's
 * result; iterations and the reported error go to `iterations` and `error`. */
static inline ik_result limited_solve(limited_chain *c, limited_solver solver, ik_vec3 target, int *iterations,
                                      ik_real *error) {
    chain_fixture *f = &c->f;
    ik_real tolerance = c->length * (ik_real)1e-3;
    ik_skeleton_rest_pose(&f->skeleton, f->pose_ls);
    if (solver == LIMITED_FABRIK) {
        ik_fabrik job = chain_fabrik_job(f, &target);
        job.base.constraints = f->constraints;
        job.tolerance = tolerance;
        job.iterations = iterations;
        job.error = error;
        return ik_fabrik_run(&job);
    } else if (solver == LIMITED_CCD) {
        ik_ccd job = chain_ccd_job(f, target);
        job.base.constraints = f->constraints;
        job.tolerance = tolerance;
        job.iterations = iterations;
        job.error = error;
        return ik_ccd_run(&job);
    } else {
        ik_jacobian job = ik_jacobian_def();
        ik_jacobian_effector effector = ik_jacobian_effector_make(f->count - 1, target);
        int axes = 0, k;
        for (k = 0; k + 1 < f->count; ++k) axes += c->jacobian_joints[k].axis_count;
        job.base.skeleton = &f->skeleton;
        job.base.pose_ls = f->pose_ls;
        job.joints = c->jacobian_joints;
        job.base.listed_joint_count = f->count - 1;
        job.effectors = &effector;
        job.effector_count = 1;
        job.base.constraints = f->constraints;
        job.method = solver == LIMITED_DLS ? IK_JACOBIAN_DLS : IK_JACOBIAN_SDLS;
        job.tolerance = tolerance;
        job.base.scratch = c->jacobian_scratch;
        job.base.scratch_bytes = sizeof c->jacobian_scratch;
        job.iterations = iterations;
        job.error = error;
        if (ik_jacobian_scratch_size(f->count, axes, 1) > job.base.scratch_bytes) return IK_ERR_CAPACITY;
        return ik_jacobian_run(&job);
    }
}

/* The solved pose, checked by forward kinematics: finite, every bone at its
 * rest length, every joint inside its limits (measured on the solved local
 * rotations), the end within 1e-3 of the chain length of `target`. */
static inline ik_bool limited_solution_ok(limited_chain *c, ik_vec3 target) {
    return chain_pose_finite(&c->f) && chain_lengths_kept(&c->f, c->length) && chain_limits_held(&c->f) &&
           chain_end_distance(&c->f, target) <= c->length * (ik_real)1e-3;
}

#endif

/* A chain skeleton with all its arrays in one struct, for the chain solver
 * tests (CCD, FABRIK) and benchmarks: build it, copy it, set limits, make
 * random chains and reachable targets, and check a solved pose by forward
 * kinematics. Define MAX_JOINTS before including it for longer chains. */
#ifndef IKIT_TEST_CHAIN_FIXTURE_H
#define IKIT_TEST_CHAIN_FIXTURE_H

#include <ikit/ccd.h>
#include <ikit/constraint.h>
#include <ikit/fabrik.h>
#include <ikit/skeleton.h>

#include "rng.h"

#ifndef MAX_JOINTS
#define MAX_JOINTS 32
#endif

#ifdef IKIT_DOUBLE
#define LEN_TOL 1e-9
#define ANGLE_TOL 1e-6
#else
#define LEN_TOL 2e-5
#define ANGLE_TOL 2e-3f
#endif

typedef struct chain_fixture {
    int parents[MAX_JOINTS];
    ik_transform rest_ls[MAX_JOINTS];
    ik_transform pose_ls[MAX_JOINTS];
    ik_mat4 model_ms[MAX_JOINTS];
    int joints[MAX_JOINTS];
    ik_real scratch[MAX_JOINTS * IK_CHAIN_SCRATCH_REALS_PER_JOINT]; /* CCD and FABRIK scratch */
    ik_constraint constraints[MAX_JOINTS];
    ik_skeleton skeleton;
    int count;
} chain_fixture;

/* A chain of `bones` bones of `length` along +y, posed at rest, no limits;
 * with `r`, each rest rotation is a random turn of up to `bend` radians. */
static inline void chain_make(chain_fixture *f, int bones, ik_real length, rng *r, ik_real bend) {
    int i;
    f->count = bones + 1;
    for (i = 0; i < f->count; ++i) {
        ik_quat q = r ? ik_quat_from_axis_angle(rng_direction(r), rng_range(r, 0, bend)) : ik_quat_identity();
        f->parents[i] = i - 1;
        f->rest_ls[i] = ik_transform_make(i == 0 ? ik_vec3_zero() : ik_v3(0, length, 0), q, ik_v3(1, 1, 1));
        f->joints[i] = i;
        f->constraints[i] = ik_constraint_none();
    }
    ik_skeleton_init(&f->skeleton, f->count, f->parents, NULL, f->rest_ls, NULL);
    ik_skeleton_rest_pose(&f->skeleton, f->pose_ls);
}

/* A copy whose skeleton points at the copy's own arrays. */
static inline void chain_copy(chain_fixture *dst, const chain_fixture *src) {
    *dst = *src;
    ik_skeleton_init(&dst->skeleton, dst->count, dst->parents, NULL, dst->rest_ls, NULL);
}

static inline ik_vec3 chain_joint_ms(const chain_fixture *f, int j) { return ik_mat4_translation(&f->model_ms[j]); }

/* Every bone keeps its rest length (measured by forward kinematics). */
static inline ik_bool chain_lengths_kept(chain_fixture *f, ik_real scale) {
    int i;
    ik_skeleton_fk(&f->skeleton, f->pose_ls, NULL, f->model_ms);
    for (i = 1; i < f->count; ++i) {
        ik_real want = ik_vec3_length(f->rest_ls[i].translation);
        ik_real got = ik_vec3_distance(chain_joint_ms(f, i), chain_joint_ms(f, f->parents[i]));
        if (!(IK_FABS(got - want) <= (ik_real)LEN_TOL * 2 * scale)) return 0;
    }
    return 1;
}

/* Distance from the chain's end joint to `target` (by forward kinematics). */
static inline ik_real chain_end_distance(chain_fixture *f, ik_vec3 target) {
    ik_skeleton_fk(&f->skeleton, f->pose_ls, NULL, f->model_ms);
    return ik_vec3_distance(chain_joint_ms(f, f->count - 1), target);
}

static inline ik_bool chain_pose_finite(const chain_fixture *f) {
    int i;
    for (i = 0; i < f->count; ++i)
        if (!ik_transform_finite(f->pose_ls[i])) return 0;
    return 1;
}

/* Every joint's rotation within its constraint (to ANGLE_TOL). */
static inline ik_bool chain_limits_held(const chain_fixture *f) {
    int k;
    for (k = 0; k < f->count; ++k)
        if (!ik_constraint_check(&f->constraints[k], f->pose_ls[k].rotation, ANGLE_TOL)) return 0;
    return 1;
}

/* The same limit on every joint: a planar hinge (axis z, +-90 degrees) or a
 * cone-twist (45 degree cone about the bone, +-30 degree twist). */
static inline void chain_set_limits(chain_fixture *f, int type) {
    int k;
    for (k = 0; k < f->count; ++k)
        f->constraints[k] =
            type == IK_CONSTRAINT_HINGE
                ? ik_constraint_hinge(f->rest_ls[k].rotation, ik_v3(0, 0, 1), -IK_PI / 2, IK_PI / 2)
                : ik_constraint_cone_twist(f->rest_ls[k].rotation, ik_v3(0, 1, 0), IK_PI / 4, -IK_PI / 6, IK_PI / 6);
}

/* A target the chain can reach within `limits`: the end joint of `g` (a copy
 * of the chain) after forward kinematics of a random allowed pose. */
static inline ik_vec3 chain_reachable_target(chain_fixture *g, const ik_constraint *limits, rng *r) {
    int k;
    for (k = 0; k < g->count; ++k) g->pose_ls[k].rotation = ik_constraint_apply(&limits[k], rng_rotation(r));
    ik_skeleton_fk(&g->skeleton, g->pose_ls, NULL, g->model_ms);
    return chain_joint_ms(g, g->count - 1);
}

/* A random chain of `bones` bones for stress tests: random rest rotations,
 * bone offsets of random direction and length (one in five zero), and a
 * random limit of each kind (none, hinge, cone-twist, Euler) per joint. */
static inline void chain_randomize(chain_fixture *f, int bones, rng *r) {
    int k;
    chain_make(f, bones, 1, r, 3);
    for (k = 1; k < f->count; ++k)
        f->rest_ls[k].translation = ik_vec3_scale(rng_direction(r), (rng_next(r) % 5 == 0) ? 0 : rng_range(r, 0.1, 3));
    for (k = 0; k < f->count; ++k) {
        int type = (int)(rng_next(r) % 4);
        f->constraints[k] =
            type == 0   ? ik_constraint_none()
            : type == 1 ? ik_constraint_hinge(f->rest_ls[k].rotation, rng_direction(r), -1, 2)
            : type == 2 ? ik_constraint_cone_twist(f->rest_ls[k].rotation, rng_direction(r), rng_range(r, 0, 3), -1, 1)
                        : ik_constraint_euler(f->rest_ls[k].rotation, ik_v3(-1, -1, -1), ik_v3(1, 1, 1));
    }
    ik_skeleton_rest_pose(&f->skeleton, f->pose_ls);
}

/* A FABRIK job over the whole chain from the fixture's skeleton, joints,
 * pose and scratch, toward `targets_ms` (the end joint's, or one per
 * effector once the caller sets effectors); no limits, the solver's
 * defaults otherwise. */
static inline ik_fabrik chain_fabrik_job(chain_fixture *f, const ik_vec3 *targets_ms) {
    ik_fabrik job = ik_fabrik_def();
    job.base.skeleton = &f->skeleton;
    job.joints = f->joints;
    job.base.listed_joint_count = f->count;
    job.targets_ms = targets_ms;
    job.base.pose_ls = f->pose_ls;
    job.base.scratch = f->scratch;
    job.base.scratch_bytes = sizeof f->scratch;
    return job;
}

/* The same for CCD toward `target_ms`. */
static inline ik_ccd chain_ccd_job(chain_fixture *f, ik_vec3 target_ms) {
    ik_ccd job = ik_ccd_def();
    job.base.skeleton = &f->skeleton;
    job.joints = f->joints;
    job.base.listed_joint_count = f->count;
    job.target_ms = target_ms;
    job.base.pose_ls = f->pose_ls;
    job.base.scratch = f->scratch;
    job.base.scratch_bytes = sizeof f->scratch;
    return job;
}

#endif

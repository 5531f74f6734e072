/* Springs, comfort ranges and gravity (seed 002), checked on solved poses. */
#include <ikit/jacobian.h>
#include <ikit/spring.h>
#include <string.h>

#include "support/check.h"
#include "support/rng.h"

#define MOVERS 6
static double scratch_store[8192];

typedef struct tail {
    ik_skeleton skeleton;
    int parents[MOVERS + 1];
    ik_transform rest_ls[MOVERS + 1];
    ik_transform pose_ls[MOVERS + 1];
    ik_mat4 model_ms[MOVERS + 1];
    ik_jacobian_joint joints[MOVERS];
} tail;

/* A planar tail of hinges about z along +x, unit bones. */
static void make_tail(tail *t) {
    int i;
    for (i = 0; i <= MOVERS; ++i) {
        t->parents[i] = i - 1;
        t->rest_ls[i] = ik_transform_identity();
        if (i > 0) t->rest_ls[i].translation = ik_v3(1, 0, 0);
        if (i < MOVERS) t->joints[i] = ik_jacobian_hinge(i, ik_v3(0, 0, 1));
    }
    CHECK(ik_skeleton_init(&t->skeleton, MOVERS + 1, t->parents, NULL, t->rest_ls, NULL) == IK_OK, "tail");
    ik_skeleton_rest_pose(&t->skeleton, t->pose_ls);
}

static ik_jacobian tail_job(tail *t, const ik_jacobian_effector *effector, ik_jacobian_method method) {
    ik_jacobian job = ik_jacobian_def();
    job.base.skeleton = &t->skeleton;
    job.base.pose_ls = t->pose_ls;
    job.joints = t->joints;
    job.base.listed_joint_count = MOVERS;
    job.effectors = effector;
    job.effector_count = 1;
    job.method = method;
    job.base.scratch = scratch_store;
    job.base.scratch_bytes = sizeof scratch_store;
    return job;
}

static ik_real hinge_angle(const tail *t, int joint) {
    return ik_quat_twist_angle(t->pose_ls[joint].rotation, ik_v3(0, 0, 1));
}

static ik_real bend(const tail *t) {
    ik_real sum = 0;
    int i;
    for (i = 0; i < MOVERS; ++i) sum += hinge_angle(t, i) * hinge_angle(t, i);
    return sum;
}

static ik_vec3 tip(tail *t) {
    ik_skeleton_fk(&t->skeleton, t->pose_ls, NULL, t->model_ms);
    return ik_mat4_translation(&t->model_ms[MOVERS]);
}

/* Sum of the heights (y) of the joints past the root, by forward kinematics. */
static ik_real joint_heights(tail *t) {
    ik_real sum = 0;
    int k;
    tip(t);
    for (k = 1; k <= MOVERS; ++k) sum += t->model_ms[k].m[13];
    return sum;
}

static void test_step_shape(void) {
    ik_spring plain = ik_spring_toward((ik_real)0.2, (ik_real)0.5);
    ik_spring comfort = ik_spring_comfort(-(ik_real)0.5, (ik_real)0.5, -1, 1, (ik_real)0.2);
    ik_real previous = 0, a;
    CHECK(ik_spring_step(&plain, (ik_real)0.2) == 0, "a plain spring rests at its angle");
    CHECK(ik_spring_step(&plain, (ik_real)0.6) < 0 && ik_spring_step(&plain, -(ik_real)0.6) > 0, "pulls back");
    for (a = -(ik_real)0.5; a <= (ik_real)0.5; a += (ik_real)0.01)
        CHECK(ik_spring_step(&comfort, a) == 0, "no force inside the comfort range at %g", (double)a);
    /* Resistance grows, per radian of excess, toward the hard limit, and
     * never pushes back past the comfort edge. */
    for (a = (ik_real)0.51; a < (ik_real)1.0; a += (ik_real)0.01) {
        ik_real per_radian = -ik_spring_step(&comfort, a) / (a - (ik_real)0.5);
        CHECK(per_radian >= previous, "growing resistance at %g", (double)a);
        CHECK(-ik_spring_step(&comfort, a) <= a - (ik_real)0.5 + (ik_real)1e-6, "no overshoot at %g", (double)a);
        previous = per_radian;
    }
    CHECK(ik_spring_validate(&comfort) == IK_OK, "valid");
    comfort.comfort_min = 2;
    CHECK(ik_spring_validate(&comfort) == IK_ERR_RANGE, "comfort outside the limits");
}

/* Comfort ranges wider than anything the solve visits change nothing, bit
 * for bit, compared with no springs at all. */
static void test_comfort_inside_has_no_effect(void) {
    rng g = rng_seeded(21);
    int i, m, compared = 0;
    for (m = 0; m < 4; ++m)
        for (i = 0; i < 200; ++i) {
            tail a, b;
            ik_spring springs[MOVERS];
            ik_jacobian_effector effector =
                ik_jacobian_effector_make(MOVERS, ik_v3(rng_range(&g, 3, 5), rng_range(&g, -2, 2), 0));
            ik_jacobian job;
            int k;
            ik_bool inside = 1;
            for (k = 0; k < MOVERS; ++k) springs[k] = ik_spring_comfort(-(ik_real)1.5, (ik_real)1.5, -3, 3, 1);
            make_tail(&a);
            make_tail(&b);
            job = tail_job(&a, &effector, (ik_jacobian_method)m);
            CHECK(ik_jacobian_run(&job) == IK_OK, "run");
            job = tail_job(&b, &effector, (ik_jacobian_method)m);
            job.springs = springs;
            CHECK(ik_jacobian_run(&job) == IK_OK, "run");
            for (k = 0; k < MOVERS; ++k)
                if (IK_FABS(hinge_angle(&a, k)) >= (ik_real)1.5) inside = 0;
            if (!inside) continue;
            ++compared;
            CHECK(memcmp(a.pose_ls, b.pose_ls, sizeof a.pose_ls) == 0, "method %d case %d", m, i);
        }
    CHECK(compared >= 400, "only %d of 800 solves stayed inside the comfort range", compared);
}

/* Springs toward rest 0: DLS and SDLS still reach the target (the springs
 * live in the null space) but with a straighter, less bent tail; with no
 * goal the springs alone bring a bent tail back to rest. */
static void test_springs_pull_toward_rest(void) {
    rng g = rng_seeded(22);
    int i, m, straighter = 0, cases = 200;
    for (m = 2; m < 4; ++m)
        for (i = 0; i < cases; ++i) {
            tail free_tail, sprung;
            ik_spring springs[MOVERS];
            ik_jacobian_effector effector =
                ik_jacobian_effector_make(MOVERS, ik_v3(rng_range(&g, 2, 5), rng_range(&g, -3, 3), 0));
            ik_jacobian job;
            int k;
            for (k = 0; k < MOVERS; ++k) springs[k] = ik_spring_toward(0, (ik_real)0.3);
            make_tail(&free_tail);
            make_tail(&sprung);
            for (k = 0; k < MOVERS; ++k) {
                ik_quat q = ik_quat_from_axis_angle(ik_v3(0, 0, 1), rng_range(&g, -0.8, 0.8));
                free_tail.pose_ls[k].rotation = q;
                sprung.pose_ls[k].rotation = q;
            }
            job = tail_job(&free_tail, &effector, (ik_jacobian_method)m);
            job.tolerance = 0;
            job.max_iterations = 300;
            CHECK(ik_jacobian_run(&job) == IK_OK, "run");
            job = tail_job(&sprung, &effector, (ik_jacobian_method)m);
            job.springs = springs;
            job.tolerance = 0;
            job.max_iterations = 300;
            CHECK(ik_jacobian_run(&job) == IK_OK, "run");
            CHECK(ik_vec3_distance(tip(&sprung), effector.target_ms) < (ik_real)1e-2, "sprung tail still reaches (%g)",
                  (double)ik_vec3_distance(tip(&sprung), effector.target_ms));
            if (bend(&sprung) < bend(&free_tail)) ++straighter;
        }
    printf("springs: %d of %d solves less bent than without springs\n", straighter, 2 * cases);
    CHECK(straighter >= 2 * cases * 95 / 100, "%d of %d", straighter, 2 * cases);
    {
        tail t;
        ik_spring springs[MOVERS];
        ik_jacobian_effector effector = ik_jacobian_effector_make(MOVERS, ik_v3(0, 0, 0));
        ik_jacobian job;
        int k;
        make_tail(&t);
        for (k = 0; k < MOVERS; ++k) {
            springs[k] = ik_spring_toward(0, (ik_real)0.3);
            t.pose_ls[k].rotation = ik_quat_from_axis_angle(ik_v3(0, 0, 1), (ik_real)0.5);
        }
        effector.importance = 0;
        job = tail_job(&t, &effector, IK_JACOBIAN_TRANSPOSE);
        job.springs = springs;
        job.tolerance = 0;
        job.max_iterations = 100;
        CHECK(ik_jacobian_run(&job) == IK_OK, "run");
        CHECK(bend(&t) < (ik_real)1e-6, "springs alone return the tail to rest (bend %g)", (double)bend(&t));
    }
}

/* Seed 002's tail: stiffer at the root than at the tip, so the root joints
 * bend less than the tip joints. */
static void test_taper(void) {
    rng g = rng_seeded(23);
    int i, root_stiffer = 0, cases = 200;
    for (i = 0; i < cases; ++i) {
        tail t;
        ik_spring springs[MOVERS];
        ik_jacobian_effector effector =
            ik_jacobian_effector_make(MOVERS, ik_v3(rng_range(&g, 2, 4), rng_range(&g, 1, 3), 0));
        ik_jacobian job;
        int k;
        for (k = 0; k < MOVERS; ++k) springs[k] = ik_spring_toward(0, 0);
        ik_spring_taper(springs, MOVERS, (ik_real)0.8, (ik_real)0.02);
        CHECK(springs[0].stiffness == (ik_real)0.8 && springs[MOVERS - 1].stiffness == (ik_real)0.02, "taper ends");
        make_tail(&t);
        job = tail_job(&t, &effector, IK_JACOBIAN_DLS);
        job.springs = springs;
        job.tolerance = 0;
        job.max_iterations = 300;
        CHECK(ik_jacobian_run(&job) == IK_OK, "run");
        if (IK_FABS(hinge_angle(&t, 0)) + IK_FABS(hinge_angle(&t, 1)) <
            IK_FABS(hinge_angle(&t, MOVERS - 2)) + IK_FABS(hinge_angle(&t, MOVERS - 1)))
            ++root_stiffer;
    }
    CHECK(root_stiffer >= cases * 9 / 10, "root bends less in %d of %d", root_stiffer, cases);
}

/* Gravity lowers the mean height of the tail's joints while the tip still
 * reaches every target the same solve reaches without gravity (within the
 * solver's tolerance); the hard limit of a comfort range is never passed. */
static void test_gravity_and_limits(void) {
    rng g = rng_seeded(24);
    int i, lower = 0, cases = 200;
    check_property limits = {"comfort hard limits held", 0, 0},
                   reach = {"gravity keeps the comfort solve's reach", 0, 0};
    for (i = 0; i < cases; ++i) {
        tail a, b;
        ik_spring springs[MOVERS];
        ik_jacobian_effector effector =
            ik_jacobian_effector_make(MOVERS, ik_v3(rng_range(&g, 2.5, 4.5), rng_range(&g, -1, 1), 0));
        ik_jacobian job;
        int k;
        for (k = 0; k < MOVERS; ++k)
            springs[k] = ik_spring_comfort(-(ik_real)0.3, (ik_real)0.3, -(ik_real)0.9, (ik_real)0.9, (ik_real)0.1);
        make_tail(&a);
        make_tail(&b);
        job = tail_job(&a, &effector, IK_JACOBIAN_DLS);
        job.tolerance = (ik_real)1e-3;
        job.max_iterations = 300;
        job.springs = springs;
        CHECK(ik_jacobian_run(&job) == IK_OK, "run");
        job = tail_job(&b, &effector, IK_JACOBIAN_DLS);
        job.tolerance = (ik_real)1e-3;
        job.max_iterations = 300;
        job.springs = springs;
        job.gravity = (ik_real)0.5;
        CHECK(ik_jacobian_run(&job) == IK_OK, "run");
        if (joint_heights(&b) < joint_heights(&a) - (ik_real)1e-3) ++lower;
        if (ik_vec3_distance(tip(&a), effector.target_ms) <= job.tolerance)
            PROPERTY_CASE(reach, ik_vec3_distance(tip(&b), effector.target_ms) <= job.tolerance, "case %d: %g off", i,
                          (double)ik_vec3_distance(tip(&b), effector.target_ms));
        for (k = 0; k < MOVERS; ++k)
            PROPERTY_CASE(limits, IK_FABS(hinge_angle(&b, k)) <= (ik_real)0.9 + (ik_real)1e-4, "joint %d at %g", k,
                          (double)hinge_angle(&b, k));
    }
    printf("gravity: %d of %d solves ended lower\n", lower, cases);
    CHECK(lower >= cases * 8 / 10, "gravity lowered %d of %d", lower, cases);
    property_end(&limits);
    property_end(&reach);
}

/* Angle of axis `k` of the tail's solver joint `joint`, measured from rest. */
static ik_real axis_angle(const tail *t, int joint, int k) {
    return ik_spring_angle(t->rest_ls[joint].rotation, t->pose_ls[joint].rotation,
                           ik_vec3_normalize(t->joints[joint].axes_ls[k]));
}

/* Solver joints of a test shape: 0 a planar tail of z hinges; 1 seed 002's
 * tail of pairs of joints at right angles (z and y hinges in turn); 2 ball
 * joints with a limit on each of their three axes. A random pose inside the
 * limits: each axis angle (a component of the rotation vector from rest,
 * as ik_spring_angle measures it) uniform in [-limit, limit]. */
static void shape_tail(tail *t, int shape, ik_real limit, rng *g) {
    int k;
    for (k = 0; k < MOVERS; ++k) {
        ik_vec3 rotation;
        if (shape == 2) {
            t->joints[k] = ik_jacobian_ball(k);
            rotation = ik_v3(rng_range(g, -limit, limit), rng_range(g, -limit, limit), rng_range(g, -limit, limit));
        } else {
            t->joints[k] = ik_jacobian_hinge(k, shape == 1 && k % 2 ? ik_v3(0, 1, 0) : ik_v3(0, 0, 1));
            rotation = ik_vec3_scale(t->joints[k].axes_ls[0], rng_range(g, -limit, limit));
        }
        t->pose_ls[k].rotation = ik_quat_from_axis_angle(ik_vec3_normalize(rotation), ik_vec3_length(rotation));
    }
}

/* Gravity must not cost reach on a chain pressed against its hard limits.
 * Targets are tips of random poses inside the limits; from the straight
 * tail, DLS and SDLS with gravity must reach every target they reach
 * without it, within the solver's tolerance, keep every axis inside its
 * limits and the pose finite; gravity must still lower the joints on
 * average, and the limits must be in play (many gravity solves end with an
 * axis on one). Before the limit-aware projection, 386 of these 599 solves
 * ended off target, up to 0.2 away. */
static void test_gravity_keeps_reach(void) {
    const ik_real limit = (ik_real)0.6, tolerance = (ik_real)1e-3;
    rng g = rng_seeded(25);
    int shape, m, i, k, cases = 100, reached_free = 0, on_limit = 0, lower = 0, solves = 0;
    double height_change = 0;
    check_property reach = {"gravity keeps reach", 0, 0}, limits = {"gravity solves keep hard limits", 0, 0};
    check_property finite = {"gravity solves finite", 0, 0};
    for (shape = 0; shape < 3; ++shape)
        for (m = IK_JACOBIAN_DLS; m <= IK_JACOBIAN_SDLS; ++m)
            for (i = 0; i < cases; ++i) {
                tail free_tail, heavy;
                ik_spring springs[3 * MOVERS];
                ik_jacobian_effector effector;
                ik_jacobian job;
                ik_real heavy_error = -1, gap;
                ik_bool touches = 0;
                int axes = 0;
                make_tail(&free_tail);
                make_tail(&heavy);
                shape_tail(&free_tail, shape, limit, &g);
                memcpy(heavy.joints, free_tail.joints, sizeof heavy.joints);
                for (k = 0; k < MOVERS; ++k) axes += free_tail.joints[k].axis_count;
                for (k = 0; k < axes; ++k) springs[k] = ik_spring_comfort(-limit, limit, -limit, limit, 0);
                effector = ik_jacobian_effector_make(MOVERS, tip(&free_tail));
                ik_skeleton_rest_pose(&free_tail.skeleton, free_tail.pose_ls);
                job = tail_job(&free_tail, &effector, (ik_jacobian_method)m);
                job.springs = springs;
                job.tolerance = tolerance;
                job.max_iterations = 300;
                CHECK(ik_jacobian_run(&job) == IK_OK, "run");
                job = tail_job(&heavy, &effector, (ik_jacobian_method)m);
                job.springs = springs;
                job.tolerance = tolerance;
                job.max_iterations = 300;
                job.gravity = (ik_real)0.5;
                job.error = &heavy_error;
                CHECK(ik_jacobian_run(&job) == IK_OK, "run");
                ++solves;
                for (k = 0; k <= MOVERS; ++k)
                    PROPERTY_CASE(finite, ik_transform_finite(heavy.pose_ls[k]), "shape %d method %d case %d", shape, m,
                                  i);
                PROPERTY_CASE(finite, ik_finite(heavy_error), "shape %d method %d case %d", shape, m, i);
                for (k = 0; k < MOVERS; ++k) {
                    int a;
                    for (a = 0; a < heavy.joints[k].axis_count; ++a) {
                        ik_real angle = axis_angle(&heavy, k, a);
                        PROPERTY_CASE(limits, IK_FABS(angle) <= limit + (ik_real)1e-4,
                                      "shape %d method %d case %d joint %d axis %d at %g", shape, m, i, k, a,
                                      (double)angle);
                        if (IK_FABS(angle) >= limit - (ik_real)1e-3) touches = 1;
                    }
                }
                on_limit += touches;
                if (ik_vec3_distance(tip(&free_tail), effector.target_ms) > tolerance) continue;
                ++reached_free;
                gap = ik_vec3_distance(tip(&heavy), effector.target_ms);
                PROPERTY_CASE(reach, gap <= tolerance, "shape %d method %d case %d: %g off with gravity", shape, m, i,
                              (double)gap);
                gap = joint_heights(&heavy) / MOVERS - joint_heights(&free_tail) / MOVERS;
                height_change += (double)gap;
                if (gap < 0) ++lower;
            }
    printf(
        "gravity with limits: %d of %d targets reached without gravity, %d gravity solves end on a limit, "
        "%d of the reached end lower (mean height change %g)\n",
        reached_free, solves, on_limit, lower, reached_free ? height_change / reached_free : 0.0);
    CHECK(reached_free >= solves * 8 / 10, "only %d of %d reached without gravity", reached_free, solves);
    CHECK(on_limit >= solves / 4, "only %d of %d gravity solves end on a hard limit", on_limit, solves);
    CHECK(lower >= reached_free * 9 / 10 && height_change < -0.1 * reached_free, "gravity lowered %d of %d (mean %g)",
          lower, reached_free, reached_free ? height_change / reached_free : 0.0);
    property_end(&reach);
    property_end(&limits);
    property_end(&finite);
}

int main(void) {
    test_step_shape();
    test_comfort_inside_has_no_effect();
    test_springs_pull_toward_rest();
    test_taper();
    test_gravity_and_limits();
    test_gravity_keeps_reach();
    return check_summary("test_spring");
}

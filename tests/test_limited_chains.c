/* Limited chains (tests/support/limited_chains.h): a humanoid arm and a
 * 10-joint chain of 45 degree cones, targets made by forward kinematics of
 * random poses inside the limits, solved from the rest pose. Every solver
 * (FABRIK, CCD, DLS, SDLS) must hold the limits, keep the lengths and stay
 * finite on every target, and reach 99.5% of the targets within 1e-3 of
 * the chain length (checked by forward kinematics). Plus the sampler itself:
 * ik_constraint_sample stays inside its limits. */
#include "support/check.h"
#include "support/limited_chains.h"

#define TARGETS 1000

static limited_chain g_chain;

static void test_solver(limited_chain_kind kind, limited_solver solver) {
    char name[96];
    check_property valid = {name, 0, 0};
    rng r = rng_seeded(2026 + (uint64_t)kind);
    int i, reached = 0;
    snprintf(name, sizeof name, "%s on %s: limits, lengths, finite, reported error", limited_solver_names[solver],
             limited_chain_names[kind]);
    limited_chain_make(&g_chain, kind);
    for (i = 0; i < TARGETS; ++i) {
        ik_vec3 target = limited_random_target(&g_chain, &r);
        ik_real error = -1, distance;
        int iterations = -1;
        ik_result result = limited_solve(&g_chain, solver, target, &iterations, &error);
        distance = chain_end_distance(&g_chain.f, target);
        PROPERTY_CASE(valid,
                      result == IK_OK && chain_pose_finite(&g_chain.f) &&
                          chain_lengths_kept(&g_chain.f, g_chain.length) && chain_limits_held(&g_chain.f) &&
                          IK_FABS(distance - error) <= g_chain.length * (ik_real)1e-4,
                      "target %d: result %d, error %g, end at %g", i, (int)result, (double)error, (double)distance);
        reached += limited_solution_ok(&g_chain, target);
    }
    property_end(&valid);
    CHECK(reached * 1000 >= TARGETS * 995, "%s on %s reached %d of %d", limited_solver_names[solver],
          limited_chain_names[kind], reached, TARGETS);
    printf("%s on %s: %d of %d reached\n", limited_solver_names[solver], limited_chain_names[kind], reached, TARGETS);
}

/* Samples of every kind of limit lie inside it, corners of u included. */
static void test_sample_inside(void) {
    check_property inside = {"ik_constraint_sample inside its limits", 0, 0};
    rng r = rng_seeded(7);
    int i;
    for (i = 0; i < 20000; ++i) {
        ik_quat reference = rng_rotation(&r);
        ik_vec3 axis = rng_direction(&r), u;
        ik_constraint c = i % 3 == 0   ? ik_constraint_hinge(reference, axis, rng_range(&r, -3, 0), rng_range(&r, 0, 3))
                          : i % 3 == 1 ? ik_constraint_cone_twist(reference, axis, rng_range(&r, 0, 3), -1, 2)
                                       : ik_constraint_euler(reference, ik_v3(-1, -1.5f, -3), ik_v3(2, 0.5f, 1));
        u = i % 7 == 0 ? ik_v3((ik_real)(i % 2), (ik_real)(i / 2 % 2), (ik_real)(i / 4 % 2))
                       : ik_v3(rng_range(&r, 0, 1), rng_range(&r, 0, 1), rng_range(&r, 0, 1));
        PROPERTY_CASE(inside, ik_constraint_check(&c, ik_constraint_sample(&c, u), ANGLE_TOL), "sample %d, type %d", i,
                      (int)c.type);
    }
    property_end(&inside);
}

int main(void) {
    int kind, solver;
    test_sample_inside();
    for (kind = 0; kind < LIMITED_CHAIN_KINDS; ++kind)
        for (solver = 0; solver < LIMITED_SOLVERS; ++solver)
            test_solver((limited_chain_kind)kind, (limited_solver)solver);
    return check_summary("limited_chains");
}

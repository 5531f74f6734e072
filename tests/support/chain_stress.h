/* The million-case stress test shared by the chain solvers (CCD, FABRIK):
 * random chains of 1 to 12 bones (random lengths, one in five zero, random
 * rest rotations, random limits of every kind), the pose carried over from
 * case to case, targets from chain_stress_target, limits on every other
 * case, an end rotation on one in four. What is checked holds after any
 * number of iterations (the call succeeds, the output is finite, lengths and
 * limits hold, the reported error is where forward kinematics puts the end,
 * iterations stay within the cap), so each case runs 0 to 3 iterations,
 * which keeps a million cheap under the sanitizers too. One case in 64
 * passes a non-finite target, which must be reported with nothing written. */
#ifndef IKIT_TEST_CHAIN_STRESS_H
#define IKIT_TEST_CHAIN_STRESS_H

#include <math.h>
#include <string.h>

#include "chain_fixture.h"
#include "check.h"

#define CHAIN_STRESS_CASES 1000000

/* A stress target: mostly random in a ball of 10 or 100 about the origin
 * (the base), and one in two degenerate: on the base, on a joint of the
 * current pose, on the end (already reached), a hair from the base, far
 * out along the line of the first bone, or very far away. */
static inline ik_vec3 chain_stress_target(chain_fixture *f, rng *r, int i) {
    int pick = (int)(rng_next(r) % 12);
    ik_vec3 base;
    if (pick >= 6) return rng_in_ball(r, i % 3 == 0 ? 100 : 10);
    ik_skeleton_fk(&f->skeleton, f->pose_ls, NULL, f->model_ms);
    base = chain_joint_ms(f, 0);
    switch (pick) {
        case 0:
            return base;
        case 1:
            return chain_joint_ms(f, (int)(rng_next(r) % (uint64_t)f->count));
        case 2:
            return chain_joint_ms(f, f->count - 1);
        case 3:
            return ik_vec3_mad(base, rng_direction(r), (ik_real)1e-6);
        case 4:
            return ik_vec3_mad(base, ik_vec3_sub(chain_joint_ms(f, 1), base), 1000);
        default:
            return ik_vec3_scale(rng_direction(r), (ik_real)1e6);
    }
}

/* One solve of the stress test: the solver's job on f's chain toward
 * `target`, with `end_rotation` (may be NULL), `constraints` (may be NULL)
 * and at most `cap` iterations; `r` for any option of the solver's own. */
typedef ik_result (*chain_stress_solve)(chain_fixture *f, ik_vec3 target, const ik_quat *end_rotation,
                                        const ik_constraint *constraints, int cap, rng *r, int *iterations,
                                        ik_real *error);

static inline void chain_stress_test(chain_stress_solve solve) {
    chain_fixture f;
    rng r = rng_seeded(600);
    check_property ok = {"stress: finite, lengths kept, limits held, error where the end is", 0, 0};
    check_property rejected = {"stress: non-finite target rejected, nothing written", 0, 0};
    int i;
    for (i = 0; i < CHAIN_STRESS_CASES; ++i) {
        ik_vec3 target;
        ik_quat end_rotation = rng_rotation(&r);
        const ik_constraint *constraints;
        ik_transform saved[MAX_JOINTS];
        ik_real err = -1, end_distance;
        ik_bool inside = 1, kept, with_rotation;
        int bones = 1 + (int)(rng_next(&r) % 12), cap = (int)(rng_next(&r) % 4), iters = -1;
        if (i % 1000 == 0) chain_randomize(&f, bones, &r);
        if (i % 7 == 0) ik_skeleton_rest_pose(&f.skeleton, f.pose_ls);
        target = chain_stress_target(&f, &r, i);
        constraints = (i & 1) ? f.constraints : NULL;
        with_rotation = rng_next(&r) % 4 == 0;
        if (i % 64 == 63) {
            memcpy(saved, f.pose_ls, sizeof(ik_transform) * (size_t)f.count);
            target.y = i % 128 == 63 ? (ik_real)NAN : (ik_real)-INFINITY;
            PROPERTY_CASE(rejected,
                          solve(&f, target, with_rotation ? &end_rotation : NULL, constraints, cap, &r, &iters, &err) ==
                                  IK_ERR_NONFINITE &&
                              memcmp(saved, f.pose_ls, sizeof(ik_transform) * (size_t)f.count) == 0,
                          "case %d", i);
            continue;
        }
        CHECK(solve(&f, target, with_rotation ? &end_rotation : NULL, constraints, cap, &r, &iters, &err) == IK_OK,
              "run %d", i);
        if (constraints) inside = chain_limits_held(&f);
        kept = chain_pose_finite(&f) && chain_lengths_kept(&f, 30);
        end_distance = chain_end_distance(&f, target);
        PROPERTY_CASE(ok,
                      inside && kept && iters >= 0 && iters <= cap &&
                          IK_FABS(err - end_distance) <= (ik_real)LEN_TOL * 30 * (1 + end_distance),
                      "case %d: iterations %d of %d, error %g, end at %g", i, iters, cap, (double)err,
                      (double)end_distance);
    }
    property_end(&ok);
    property_end(&rejected);
}

#endif

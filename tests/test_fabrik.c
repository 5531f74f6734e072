/* FABRIK: reach, bone lengths, limits, finiteness, determinism, trees and
 * degenerate inputs, all checked with the skeleton's own forward kinematics. */
#include <ikit/fabrik.h>
#include <string.h>

#include "support/chain_fixture.h"
#include "support/chain_stress.h"
#include "support/check.h"
#include "support/rng.h"
#include "support/test_groups.h"

static ik_fabrik chain_job(chain_fixture *f, const ik_vec3 *target, int iterations, int *iters, ik_real *err) {
    ik_fabrik job = chain_fabrik_job(f, target);
    job.max_iterations = iterations;
    job.iterations = iters;
    job.error = err;
    return job;
}

/* The FABRIK paper's test shape: 10 bones, reachable random targets,
 * tolerance 1e-3 of the chain length, chain back at rest before each. */
static void test_reach_unconstrained(void) {
    chain_fixture f;
    rng r = rng_seeded(100);
    check_property kept = {"fabrik: lengths kept, output finite", 0, 0};
    int i, reached = 0, total = 10000;
    ik_real chain_length = 10;
    chain_make(&f, 10, 1, &r, (ik_real)0.3);
    for (i = 0; i < total; ++i) {
        ik_vec3 target = rng_in_ball(&r, 0.95 * chain_length);
        ik_fabrik job = chain_job(&f, &target, 200, NULL, NULL);
        job.tolerance = chain_length * (ik_real)0.9e-3;
        ik_skeleton_rest_pose(&f.skeleton, f.pose_ls);
        CHECK(ik_fabrik_run(&job) == IK_OK, "run");
        PROPERTY_CASE(kept, chain_pose_finite(&f) && chain_lengths_kept(&f, chain_length), "case %d", i);
        if (chain_end_distance(&f, target) <= chain_length * (ik_real)1e-3) ++reached;
    }
    property_end(&kept);
    CHECK(reached >= total * 999 / 1000, "reached %d of %d", reached, total);
}

/* Plain chains take a positions-only path. It must agree with the general
 * path (forced here by a no-op constraint: a cone of pi with a full twist
 * range) on what matters: the end reaches the target, lengths are kept, the
 * end joint takes its target rotation. The chain skips a skeleton joint (a
 * fixed "between" rotation) and sits under a rotated, translated root. */
static void test_plain_chain_paths(void) {
    chain_fixture f;
    rng r = rng_seeded(150);
    check_property same = {"fabrik: plain-chain and general paths both reach, keep lengths, end rotation", 0, 0};
    int listed[MAX_JOINTS], i, k, path, count = 0;
    ik_constraint free_limits[MAX_JOINTS];
    ik_mat4 root = ik_mat4_from_trs(ik_v3(1, -2, 3), ik_quat_from_axis_angle(ik_vec3_normalize(ik_v3(1, 2, 3)), 1),
                                    ik_v3(1, 1, 1));
    chain_make(&f, 9, 1, &r, (ik_real)0.4);
    for (k = 0; k < f.count; ++k)
        if (k != 4) listed[count++] = k;
    for (k = 0; k < count; ++k) free_limits[k] = ik_constraint_none();
    free_limits[0] = ik_constraint_cone_twist(f.rest_ls[0].rotation, ik_v3(0, 1, 0), IK_PI, -IK_PI, IK_PI);
    for (i = 0; i < 2000; ++i) {
        ik_vec3 target = ik_mat4_transform_point(&root, rng_in_ball(&r, 8));
        ik_quat end_rotation = rng_rotation(&r);
        for (path = 0; path < 2; ++path) {
            ik_fabrik job = chain_job(&f, &target, 100, NULL, NULL);
            ik_real reached;
            ik_quat got;
            job.joints = listed;
            job.base.listed_joint_count = count;
            job.base.root_ms = &root;
            job.target_rotations_ms = &end_rotation;
            job.tolerance = (ik_real)1e-3;
            job.base.constraints = path ? free_limits : NULL;
            ik_skeleton_rest_pose(&f.skeleton, f.pose_ls);
            CHECK(ik_fabrik_run(&job) == IK_OK, "run");
            ik_skeleton_fk(&f.skeleton, f.pose_ls, &root, f.model_ms);
            reached = ik_vec3_distance(chain_joint_ms(&f, f.count - 1), target);
            got = ik_mat4_rotation(&f.model_ms[f.count - 1]);
            PROPERTY_CASE(same,
                          chain_pose_finite(&f) && chain_lengths_kept(&f, 10) && reached <= (ik_real)1.2e-3 &&
                              ik_quat_angle(ik_quat_mul(ik_quat_conjugate(got), end_rotation)) < ANGLE_TOL * 5,
                          "path %d case %d: distance %g", path, i, (double)reached);
        }
    }
    property_end(&same);
}

/* Out of reach, a plain chain is laid straight towards the target in one
 * pass (Aristidou and Lasenby 2011, algorithm 1): every joint on the ray
 * from the base, at its summed bone length. */
static void test_unreachable_straight(void) {
    chain_fixture f;
    rng r = rng_seeded(160);
    check_property straight = {"fabrik: unreachable target, chain straight towards it in one iteration", 0, 0};
    int i, k;
    chain_make(&f, 10, 1, &r, (ik_real)0.5);
    for (i = 0; i < 2000; ++i) {
        ik_vec3 target = ik_vec3_scale(rng_direction(&r), rng_range(&r, 10.5, 30));
        ik_vec3 u = ik_vec3_normalize(target);
        int iters = -1;
        ik_real worst = 0;
        ik_fabrik job = chain_job(&f, &target, 100, &iters, NULL);
        ik_skeleton_rest_pose(&f.skeleton, f.pose_ls);
        CHECK(ik_fabrik_run(&job) == IK_OK, "run");
        ik_skeleton_fk(&f.skeleton, f.pose_ls, NULL, f.model_ms);
        for (k = 0; k < f.count; ++k)
            worst = ik_maxr(worst, ik_vec3_distance(chain_joint_ms(&f, k), ik_vec3_scale(u, (ik_real)k)));
        PROPERTY_CASE(straight, iters == 1 && worst < (ik_real)LEN_TOL * 100 && chain_lengths_kept(&f, 10),
                      "case %d: iterations %d, off the ray by %g", i, iters, (double)worst);
    }
    property_end(&straight);
}

/* Targets near full extension (0.9 L to just short of L), FABRIK's slowest
 * case, from a straight chain (one case in two) or one bent at every joint
 * by up to 0.3 rad: with 20 iterations (the old default cap) each is
 * reached, lengths kept, also with bones of unequal lengths, a target on
 * the chain's own line, and the chain pointing away from the target. */
static void test_near_full_extension(void) {
    chain_fixture f;
    rng r = rng_seeded(170);
    check_property reach = {"fabrik: target near full extension, reached in 20 iterations", 0, 0};
    int i, k;
    for (i = 0; i < 8000; ++i) {
        ik_real length = 0, dist;
        ik_vec3 target;
        ik_fabrik job;
        chain_make(&f, 2 + i % 12, 1, i % 4 < 2 ? NULL : &r, (ik_real)0.3);
        if (i % 2)
            for (k = 1; k < f.count; ++k) f.rest_ls[k].translation = ik_v3(0, rng_range(&r, 0.2, 3), 0);
        for (k = 1; k < f.count; ++k) length += f.rest_ls[k].translation.y;
        dist = length * rng_range(&r, 0.9, 0.9995);
        target = i % 5 == 0 ? ik_v3(0, i % 10 == 0 ? dist : -dist, 0) : ik_vec3_scale(rng_direction(&r), dist);
        job = chain_job(&f, &target, 20, NULL, NULL);
        job.tolerance = length * (ik_real)1e-3;
        ik_skeleton_rest_pose(&f.skeleton, f.pose_ls);
        CHECK(ik_fabrik_run(&job) == IK_OK, "run");
        PROPERTY_CASE(
            reach,
            chain_pose_finite(&f) && chain_lengths_kept(&f, length) && chain_end_distance(&f, target) <= job.tolerance,
            "case %d: %d bones, target at %g L, end %g away", i, f.count - 1, (double)(dist / length),
            (double)chain_end_distance(&f, target));
    }
    property_end(&reach);
}

/* A planar hinge chain (all axes z, +-90 degrees) and a cone-twist chain
 * (45 degree cones, +-30 degree twist): targets made by forward kinematics
 * of random allowed poses, so each is reachable within the limits. */
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
        ik_fabrik job;
        ik_skeleton_rest_pose(&f.skeleton, f.pose_ls);
        job = chain_job(&f, &target, 100, NULL, NULL);
        job.base.constraints = f.constraints;
        job.tolerance = (ik_real)8e-3;
        CHECK(ik_fabrik_run(&job) == IK_OK, "run");
        PROPERTY_CASE(limits, chain_limits_held(&f) && chain_pose_finite(&f) && chain_lengths_kept(&f, 8), "case %d",
                      i);
        if (chain_end_distance(&f, target) <= (ik_real)1e-2) ++reached;
    }
    property_end(&limits);
    CHECK(reached >= total * 95 / 100, "%s: reached %d of %d", name, reached, total);
}

/* Y tree: trunk 0-1-2, branches 2-3-4-5 and 2-6-7-8 (sub-base 2, offset to
 * the side so the sub-base is rigid with two children). Double Y: each
 * branch splits again. Targets from forward kinematics of random poses. */
static void make_tree(chain_fixture *f, ik_bool double_y) {
    static const int y_parents[] = {-1, 0, 1, 2, 3, 4, 2, 6, 7};
    static const int yy_parents[] = {-1, 0, 1, 2, 3, 4, 5, 4, 7, 2, 9, 10, 11, 10, 13};
    const int *parents = double_y ? yy_parents : y_parents;
    int i;
    f->count = double_y ? 15 : 9;
    for (i = 0; i < f->count; ++i) {
        ik_vec3 t = i == 0 ? ik_vec3_zero() : ik_v3(0, 1, 0);
        int siblings = 0, before = 0, k;
        for (k = 1; k < f->count; ++k) {
            siblings += parents[k] == parents[i];
            before += k < i && parents[k] == parents[i];
        }
        if (i > 0 && siblings > 1) t = ik_v3(before ? (ik_real)-0.3 : (ik_real)0.3, (ik_real)0.8, 0);
        f->parents[i] = parents[i];
        f->rest_ls[i] = ik_transform_make(t, ik_quat_identity(), ik_v3(1, 1, 1));
        f->joints[i] = i;
    }
    ik_skeleton_init(&f->skeleton, f->count, f->parents, NULL, f->rest_ls, NULL);
    ik_skeleton_rest_pose(&f->skeleton, f->pose_ls);
}

static void test_tree(ik_bool double_y) {
    chain_fixture f, g;
    rng r = rng_seeded(300 + (uint64_t)double_y);
    check_property kept = {"tree: lengths and rigid sub-bases kept, finite", 0, 0};
    int effectors_y[] = {5, 8}, effectors_yy[] = {6, 8, 12, 14};
    int *effectors = double_y ? effectors_yy : effectors_y;
    int ne = double_y ? 4 : 2;
    int i, k, improved = 0, total = 1000;
    make_tree(&f, double_y);
    chain_copy(&g, &f);
    for (i = 0; i < total; ++i) {
        ik_vec3 targets[4];
        ik_real before = 0, after = 0;
        ik_fabrik job;
        for (k = 1; k < g.count; ++k)
            g.pose_ls[k].rotation = ik_quat_from_axis_angle(rng_direction(&r), rng_range(&r, 0, 0.6));
        ik_skeleton_fk(&g.skeleton, g.pose_ls, NULL, g.model_ms);
        ik_skeleton_rest_pose(&f.skeleton, f.pose_ls);
        ik_skeleton_fk(&f.skeleton, f.pose_ls, NULL, f.model_ms);
        for (k = 0; k < ne; ++k) {
            targets[k] = chain_joint_ms(&g, effectors[k]);
            before += ik_vec3_distance(chain_joint_ms(&f, effectors[k]), targets[k]);
        }
        job = chain_fabrik_job(&f, targets);
        job.effectors = effectors;
        job.effector_count = ne;
        job.max_iterations = 50;
        CHECK(ik_fabrik_run(&job) == IK_OK, "run");
        PROPERTY_CASE(kept, chain_pose_finite(&f) && chain_lengths_kept(&f, 5), "case %d", i);
        for (k = 0; k < ne; ++k) after += ik_vec3_distance(chain_joint_ms(&f, effectors[k]), targets[k]);
        if (after < (ik_real)0.05 * before + (ik_real)1e-2) ++improved;
    }
    property_end(&kept);
    CHECK(improved >= total * 9 / 10, "tree (%d effectors): %d of %d solved to 5%% of the start error", ne, improved,
          total);
}

/* The minimum rotation per bone: a one-bone chain turns onto the target
 * without twisting about the bone. */
static void test_minimum_rotation(void) {
    chain_fixture f;
    rng r = rng_seeded(400);
    check_property no_twist = {"fabrik: no twist added about the bone", 0, 0};
    check_property aimed = {"fabrik: one bone turned onto the target", 0, 0};
    int i;
    chain_make(&f, 1, 2, NULL, 0);
    for (i = 0; i < 2000; ++i) {
        ik_vec3 target = ik_vec3_scale(rng_direction(&r), 2);
        ik_quat before, turn;
        ik_vec3 bone_before;
        ik_fabrik job = chain_job(&f, &target, 10, NULL, NULL);
        f.pose_ls[0].rotation = rng_rotation(&r);
        before = f.pose_ls[0].rotation;
        bone_before = ik_quat_rotate(before, ik_v3(0, 2, 0));
        CHECK(ik_fabrik_run(&job) == IK_OK, "run");
        PROPERTY_CASE(aimed, chain_end_distance(&f, target) <= job.tolerance, "case %d: distance %g", i,
                      (double)chain_end_distance(&f, target));
        turn = ik_quat_mul(f.pose_ls[0].rotation, ik_quat_conjugate(before));
        PROPERTY_CASE(no_twist,
                      IK_FABS(ik_quat_twist_angle(turn, ik_vec3_normalize(bone_before))) < ANGLE_TOL * 5 ||
                          ik_vec3_dot(ik_vec3_normalize(bone_before), ik_vec3_normalize(target)) < (ik_real)-0.999,
                      "twist %g", (double)ik_quat_twist_angle(turn, ik_vec3_normalize(bone_before)));
    }
    property_end(&no_twist);
    property_end(&aimed);
}

static void test_determinism(void) {
    chain_fixture a, b;
    rng r = rng_seeded(500);
    int i, same = 1;
    chain_make(&a, 10, 1, &r, (ik_real)0.5);
    chain_copy(&b, &a);
    for (i = 0; i < 200; ++i) {
        ik_vec3 target = rng_in_ball(&r, 12);
        ik_fabrik ja = chain_job(&a, &target, 20, NULL, NULL), jb = chain_job(&b, &target, 20, NULL, NULL);
        CHECK(ik_fabrik_run(&ja) == IK_OK && ik_fabrik_run(&jb) == IK_OK, "run");
        same = same && memcmp(a.pose_ls, b.pose_ls, sizeof(ik_transform) * (size_t)a.count) == 0;
    }
    CHECK(same, "same input, same output, bit for bit");
}

static void test_degenerate(void) {
    chain_fixture f;
    ik_vec3 target;
    ik_real err = -1;
    int iters = -1;
    ik_fabrik job;
    ik_transform saved[MAX_JOINTS];

    /* Target on the base: chain folds, lengths kept, finite. */
    chain_make(&f, 4, 1, NULL, 0);
    target = ik_vec3_zero();
    job = chain_job(&f, &target, 50, &iters, &err);
    CHECK(ik_fabrik_run(&job) == IK_OK && chain_pose_finite(&f) && chain_lengths_kept(&f, 4), "target on the base");
    /* Straight chain, target straight behind the base (out of reach). */
    chain_make(&f, 4, 1, NULL, 0);
    target = ik_v3(0, -10, 0);
    CHECK(ik_fabrik_run(&job) == IK_OK && chain_pose_finite(&f) && chain_lengths_kept(&f, 4),
          "straight chain, target behind");
    CHECK(chain_end_distance(&f, ik_v3(0, -4, 0)) < (ik_real)1e-2, "reaches towards the far target: %g",
          (double)chain_end_distance(&f, ik_v3(0, -4, 0)));
    /* Straight chain, target along its own line inside reach. */
    chain_make(&f, 4, 1, NULL, 0);
    target = ik_v3(0, 2, 0);
    CHECK(ik_fabrik_run(&job) == IK_OK && chain_pose_finite(&f) && chain_lengths_kept(&f, 4) && err < (ik_real)1e-2 &&
              chain_end_distance(&f, target) < (ik_real)1e-2,
          "straight chain, target on its line: err %g, end %g away", (double)err,
          (double)chain_end_distance(&f, target));
    /* Target already reached: nothing moves. */
    chain_make(&f, 4, 1, NULL, 0);
    target = ik_v3(0, 4, 0);
    memcpy(saved, f.pose_ls, sizeof(ik_transform) * (size_t)f.count);
    CHECK(ik_fabrik_run(&job) == IK_OK && iters == 0 && err == 0, "target reached: iterations %d", iters);
    CHECK(memcmp(saved, f.pose_ls, sizeof(ik_transform) * (size_t)f.count) == 0, "pose unchanged");
    /* Zero-length bones. */
    chain_make(&f, 6, 1, NULL, 0);
    f.rest_ls[2].translation = ik_vec3_zero();
    f.rest_ls[5].translation = ik_vec3_zero();
    ik_skeleton_rest_pose(&f.skeleton, f.pose_ls);
    target = ik_v3(2, 1, 1);
    job = chain_job(&f, &target, 50, &iters, &err);
    CHECK(ik_fabrik_run(&job) == IK_OK && chain_pose_finite(&f) && chain_lengths_kept(&f, 4) && err < (ik_real)1e-3 &&
              chain_end_distance(&f, target) < (ik_real)1e-3,
          "zero-length bones: err %g, end %g away", (double)err, (double)chain_end_distance(&f, target));
    /* Coincident effectors: two effectors on the same joint, and two joints on one target. */
    {
        int effectors[2] = {6, 6};
        ik_vec3 targets[2] = {ik_v3(1, 2, 0), ik_v3(1, 2, 0)};
        job.effectors = effectors;
        job.effector_count = 2;
        job.targets_ms = targets;
        CHECK(ik_fabrik_run(&job) == IK_OK && chain_pose_finite(&f) && err < (ik_real)1e-3 &&
                  chain_end_distance(&f, targets[0]) < (ik_real)1e-3,
              "one joint, two targets: end %g away", (double)chain_end_distance(&f, targets[0]));
        effectors[0] = 3;
        CHECK(ik_fabrik_run(&job) == IK_OK && chain_pose_finite(&f) && chain_lengths_kept(&f, 4),
              "two joints, one target");
    }
    /* Bad input: reported, nothing written. */
    chain_make(&f, 4, 1, NULL, 0);
    memcpy(saved, f.pose_ls, sizeof(ik_transform) * (size_t)f.count);
    job = chain_job(&f, &target, 10, &iters, &err);
    target = ik_v3((ik_real)NAN, 0, 0);
    CHECK(ik_fabrik_run(&job) == IK_ERR_NONFINITE, "NaN target");
    target = ik_v3(1, 1, 1);
    f.pose_ls[1].rotation.x = (ik_real)INFINITY;
    CHECK(ik_fabrik_run(&job) == IK_ERR_NONFINITE, "infinite pose");
    f.pose_ls[1] = saved[1];
    {
        /* Joints above the first listed one, and between two listed ones, are read too. */
        const int from_second[3] = {1, 2, 3}, skipping[3] = {0, 1, 3};
        job.base.listed_joint_count = 3;
        job.joints = from_second;
        f.pose_ls[0].translation.y = (ik_real)INFINITY;
        CHECK(ik_fabrik_run(&job) == IK_ERR_NONFINITE, "infinite pose above the first joint");
        f.pose_ls[0] = saved[0];
        job.joints = skipping;
        f.pose_ls[2].rotation.w = (ik_real)NAN;
        CHECK(ik_fabrik_run(&job) == IK_ERR_NONFINITE, "NaN pose between two listed joints");
        f.pose_ls[2] = saved[2];
        job.joints = f.joints;
        job.base.listed_joint_count = f.count;
    }
    CHECK(memcmp(saved, f.pose_ls, sizeof(ik_transform) * (size_t)f.count) == 0, "nothing written on error");
    job.base.scratch = NULL;
    CHECK(ik_fabrik_run(&job) == IK_ERR_NULL, "NULL scratch");
    job = chain_job(&f, &target, 10, NULL, NULL);
    job.base.scratch_bytes = ik_fabrik_scratch_size(f.count) - 1;
    CHECK(ik_fabrik_run(&job) == IK_ERR_CAPACITY, "scratch one byte short");
    CHECK(memcmp(saved, f.pose_ls, sizeof(ik_transform) * (size_t)f.count) == 0, "short scratch writes nothing");
    CHECK(ik_fabrik_run(NULL) == IK_ERR_NULL, "NULL job");
    /* A job not made by ik_fabrik_def: a zeroed one, and a filled one without the tag. */
    memset(&job, 0, sizeof job);
    CHECK(ik_fabrik_run(&job) == IK_ERR_NOT_DEFAULTED, "zeroed job refused");
    job = chain_job(&f, &target, 10, NULL, NULL);
    job.base.defaulted = 0;
    CHECK(ik_fabrik_run(&job) == IK_ERR_NOT_DEFAULTED, "untagged job refused");
    CHECK(memcmp(saved, f.pose_ls, sizeof(ik_transform) * (size_t)f.count) == 0, "untagged job writes nothing");
    job = chain_job(&f, &target, 10, NULL, NULL);
    job.base.listed_joint_count = 0;
    CHECK(ik_fabrik_run(&job) == IK_ERR_RANGE, "no joints");
    job = chain_job(&f, &target, -1, NULL, NULL);
    CHECK(ik_fabrik_run(&job) == IK_ERR_RANGE, "negative iterations");
    job = chain_job(&f, &target, 10, NULL, NULL);
    f.joints[2] = 9;
    CHECK(ik_fabrik_run(&job) == IK_ERR_RANGE, "joint outside the skeleton");
    f.joints[2] = 2;
}

/* ---- tracking a moving target, warm-started -------------------------------- */

/* Joint positions of the posed chain, by forward kinematics. */
static void chain_positions(chain_fixture *f, ik_vec3 *out) {
    int k;
    ik_skeleton_fk(&f->skeleton, f->pose_ls, NULL, f->model_ms);
    for (k = 0; k < f->count; ++k) out[k] = chain_joint_ms(f, k);
}

/* The largest distance any joint moved between two poses. */
static ik_real largest_joint_move(const ik_vec3 *before, const ik_vec3 *after, int count) {
    ik_real worst = 0;
    int k;
    for (k = 0; k < count; ++k) worst = ik_maxr(worst, ik_vec3_distance(before[k], after[k]));
    return worst;
}

/* Target paths in units of the chain's length L, moving TRACK_STEP L per
 * frame in the plane of the unit vectors u and v (about the base):
 *   0: out along u from 0.7 L to 1.05 L (out of reach) and back;
 *   1: a straight line passing 0.7 L from the base, from 1.05 L in to
 *      0.7 L and out to 1.05 L again;
 *   2, 3: a circle about the base at 0.95 L and 0.995 L (about a radian).
 * Returns 0 past the path's last frame. */
#define TRACK_STEP ((ik_real)1e-3)
#define TRACK_PATHS 4

static ik_bool track_target(int path, int frame, ik_vec3 u, ik_vec3 v, ik_vec3 *target) {
    const int out_frames = 350;                /* 0.35 L / TRACK_STEP */
    const ik_real line_half = (ik_real)0.7826; /* sqrt(1.05^2 - 0.7^2) */
    if (path == 0) {
        int t = frame <= out_frames ? frame : 2 * out_frames - frame;
        *target = ik_vec3_scale(u, (ik_real)0.7 + (ik_real)t * TRACK_STEP);
        return frame <= 2 * out_frames;
    }
    if (path == 1) {
        ik_real x = -line_half + (ik_real)frame * TRACK_STEP;
        *target = ik_vec3_add(ik_vec3_scale(v, (ik_real)0.7), ik_vec3_scale(u, x));
        return x <= line_half;
    } else {
        ik_real radius = path == 2 ? (ik_real)0.95 : (ik_real)0.995, a = (ik_real)frame * TRACK_STEP / radius;
        *target = ik_vec3_scale(ik_vec3_add(ik_vec3_scale(u, IK_COS(a)), ik_vec3_scale(v, IK_SIN(a))), radius);
        return frame <= 1000;
    }
}

/* Tracks a path frame by frame, each solve warm-started from the previous
 * frame's pose (the first from rest, with the default cap), tolerance
 * 1e-4 L so that every frame is solved. Gives the largest per-frame joint
 * movement divided by the target's movement that frame, over the frames
 * whose target is within reach (`inside`) and over all (`all`: a target
 * leaving reach lays the chain straight in one pass, as the paper's
 * algorithm 1 does, which snaps a chain that lags behind it). */
static void track_path(chain_fixture *f, ik_real length, int path, int iterations, check_property *kept,
                       ik_real *inside, ik_real *all) {
    ik_vec3 before[MAX_JOINTS], after[MAX_JOINTS], target, previous = ik_vec3_zero();
    ik_vec3 u = ik_vec3_normalize(ik_v3(1, 2, (ik_real)0.5)), v = ik_vec3_normalize(ik_vec3_cross(u, ik_v3(0, 0, 1)));
    int frame;
    ik_skeleton_rest_pose(&f->skeleton, f->pose_ls);
    for (frame = 0; track_target(path, frame, u, v, &target); ++frame) {
        ik_fabrik job;
        target = ik_vec3_scale(target, length);
        job = chain_job(f, &target, frame == 0 ? ik_fabrik_def().max_iterations : iterations, NULL, NULL);
        job.tolerance = length * (ik_real)1e-4;
        CHECK(ik_fabrik_run(&job) == IK_OK, "run");
        PROPERTY_CASE(*kept, chain_pose_finite(f) && chain_lengths_kept(f, length), "path %d frame %d", path, frame);
        chain_positions(f, after);
        if (frame > 0) {
            ik_real moved = largest_joint_move(before, after, f->count) / ik_vec3_distance(target, previous);
            *all = ik_maxr(*all, moved);
            if (ik_vec3_length(target) < length) *inside = ik_maxr(*inside, moved);
        }
        memcpy(before, after, sizeof(ik_vec3) * (size_t)f->count);
        previous = target;
    }
}

/* A game tracks a moving target frame by frame, warm-starting from the last
 * pose with a few iterations: the chain must follow smoothly, no joint
 * jumping by more than TRACK_BOUND times the target's step while the target
 * is within reach, on chains of 3 to 12 bones (equal, and unequal from 0.2
 * to 3), rest bends up to 0.3 rad, on paths crossing from 0.7 L to beyond
 * reach and back and circling near full extension, with caps of 1, 5, 10,
 * 20 and the default. The bound leaves room for the singularity at full
 * extension: a straight chain whose target comes back within reach by one
 * step (1e-3 L) must bend by about sqrt(3 / 8 * 1e-3) L, 19 steps (the
 * solution's sagitta). Replacing a warm-started pose by the arc end-game
 * moved joints by up to 78 steps (0.8 to 0.86 L); FABRIK without the arc
 * by up to 87 (a straight chain that stays straight while its target comes
 * in along its line, then breaks). */
#define TRACK_BOUND 25

static void test_tracking_smooth(void) {
    static const int caps[5] = {1, 5, 10, 20, 0};
    chain_fixture f;
    rng r = rng_seeded(180);
    check_property kept = {"fabrik tracking: lengths kept, output finite", 0, 0};
    check_property smooth = {"fabrik tracking: no joint moves more than TRACK_BOUND target steps", 0, 0};
    ik_real inside[5] = {0, 0, 0, 0, 0}, all[5] = {0, 0, 0, 0, 0};
    int bones, unequal, c, path, k;
    for (bones = 3; bones <= 12; ++bones)
        for (unequal = 0; unequal < 2; ++unequal) {
            ik_real length = 0;
            chain_make(&f, bones, 1, &r, (ik_real)0.3);
            if (unequal)
                for (k = 1; k < f.count; ++k) f.rest_ls[k].translation = ik_v3(0, rng_range(&r, 0.2, 3), 0);
            for (k = 1; k < f.count; ++k) length += f.rest_ls[k].translation.y;
            for (c = 0; c < 5; ++c)
                for (path = 0; path < TRACK_PATHS; ++path) {
                    int cap = caps[c] ? caps[c] : ik_fabrik_def().max_iterations;
                    ik_real moved = 0;
                    track_path(&f, length, path, cap, &kept, &moved, &all[c]);
                    inside[c] = ik_maxr(inside[c], moved);
                    PROPERTY_CASE(smooth, moved <= TRACK_BOUND, "%d bones%s, cap %d, path %d: joint moved %g steps",
                                  bones, unequal ? " (unequal)" : "", cap, path, (double)moved);
                }
        }
    printf(
        "fabrik tracking, largest joint move per target step, caps 1/5/10/20/default:\n"
        "  target within reach: %.3g %.3g %.3g %.3g %.3g\n  all frames:          %.3g %.3g %.3g %.3g %.3g\n",
        (double)inside[0], (double)inside[1], (double)inside[2], (double)inside[3], (double)inside[4], (double)all[0],
        (double)all[1], (double)all[2], (double)all[3], (double)all[4]);
    property_end(&kept);
    property_end(&smooth);
}

/* A chain of `bones` unit bones along +y with one elbow turning by `angle`
 * (about z) at joint `elbow`, posed at rest. */
static void make_elbow_chain(chain_fixture *f, int bones, int elbow, ik_real angle) {
    chain_make(f, bones, 1, NULL, 0);
    f->rest_ls[elbow].rotation = ik_quat_from_axis_angle(ik_v3(0, 0, 1), angle);
    ik_skeleton_rest_pose(&f->skeleton, f->pose_ls);
}

/* A warm-started pose that nearly reaches keeps its shape: a chain with a
 * 90 degree elbow whose end lies 0.79 to 0.92 L out (12 bones, elbow at
 * joint 1, 2 or 3; 8 bones, elbow at 1 or 2), or a 40 or 57 degree elbow in
 * the middle (0.94 or 0.88 L out), the target 1e-3 to 1e-2 L from that end
 * in a random direction. The end reaches it and no joint moves by more than
 * TRACK_BOUND times the end's gap (both the elbowed pose and an arc are
 * solutions; the solver must not trade one for the other). Before the arc
 * was held to the move budget, it reshaped such poses (27 gaps). */
static void test_elbow_kept(void) {
    chain_fixture f;
    rng r = rng_seeded(190);
    check_property kept = {"fabrik: an elbowed pose that nearly reaches is not reshaped", 0, 0};
    ik_vec3 before[MAX_JOINTS], after[MAX_JOINTS];
    ik_real worst = 0;
    int i;
    for (i = 0; i < 500; ++i) {
        int bones = i % 5 < 3 ? 12 : 8, elbow = i % 5 < 3 ? 1 + i % 5 : i % 5 - 2, iters = -1;
        ik_real angle = i % 3 == 0 ? IK_PI / 2 : (i % 3 == 1 ? (ik_real)0.7 : (ik_real)1.0);
        ik_real gap = (ik_real)bones * rng_range(&r, 1e-3, 1e-2), moved;
        ik_vec3 target;
        ik_fabrik job;
        if (angle < 1.5) elbow = bones / 2;
        make_elbow_chain(&f, bones, elbow, angle);
        chain_positions(&f, before);
        target = ik_vec3_mad(before[f.count - 1], rng_direction(&r), gap);
        job = chain_job(&f, &target, i % 2 ? 20 : ik_fabrik_def().max_iterations, &iters, NULL);
        job.tolerance = (ik_real)bones * (ik_real)1e-4;
        CHECK(ik_fabrik_run(&job) == IK_OK, "run");
        chain_positions(&f, after);
        moved = largest_joint_move(before, after, f.count) / gap;
        worst = ik_maxr(worst, moved);
        PROPERTY_CASE(kept,
                      chain_pose_finite(&f) && chain_lengths_kept(&f, (ik_real)bones) &&
                          chain_end_distance(&f, target) <= job.tolerance && moved <= TRACK_BOUND,
                      "case %d: %d bones, elbow at %d, gap %g, joint moved %g gaps, end %g away, %d iterations", i,
                      bones, elbow, (double)gap, (double)moved, (double)chain_end_distance(&f, target), iters);
    }
    printf("fabrik elbow kept: largest joint move per gap %.3g\n", (double)worst);
    property_end(&kept);
}

/* The turn between bone k (joint k - 1 to k) and bone k + 1. */
static ik_real joint_turn(const ik_vec3 *p, int k) {
    ik_vec3 a = ik_vec3_sub(p[k], p[k - 1]), b = ik_vec3_sub(p[k + 1], p[k]);
    return IK_ATAN2(ik_vec3_length(ik_vec3_cross(a, b)), ik_vec3_dot(a, b));
}

/* From a cold start far from the target both shapes are valid: 6 unit
 * bones with a 90 degree elbow at joint 3 (end 0.71 L out), the target
 * 0.85 L out along the end's direction. Reached, lengths kept; prints
 * whether the chain kept an elbow (the elbow's turn, the largest other). */
static void test_elbow_cold(void) {
    chain_fixture f;
    ik_vec3 p[MAX_JOINTS], target;
    ik_real other = 0;
    int k, iters = -1;
    ik_fabrik job;
    make_elbow_chain(&f, 6, 3, IK_PI / 2);
    chain_positions(&f, p);
    target = ik_vec3_scale(ik_vec3_normalize(p[6]), (ik_real)(0.85 * 6));
    job = chain_job(&f, &target, 20, &iters, NULL);
    job.tolerance = (ik_real)6e-4;
    CHECK(ik_fabrik_run(&job) == IK_OK && chain_pose_finite(&f) && chain_lengths_kept(&f, 6) &&
              chain_end_distance(&f, target) <= job.tolerance,
          "elbow, cold, target 0.85 L: end %g away after %d iterations", (double)chain_end_distance(&f, target), iters);
    chain_positions(&f, p);
    for (k = 1; k < 6; ++k)
        if (k != 3) other = ik_maxr(other, joint_turn(p, k));
    printf("fabrik elbow, cold, target 0.85 L: elbow turns %.1f deg, other joints at most %.1f deg, %d iterations\n",
           (double)(joint_turn(p, 3) * 180 / IK_PI), (double)(other * 180 / IK_PI), iters);
}

/* The shared million-case stress test (support/chain_stress.h). */
static ik_result stress_solve(chain_fixture *f, ik_vec3 target, const ik_quat *end_rotation,
                              const ik_constraint *constraints, int cap, rng *r, int *iterations, ik_real *error) {
    ik_fabrik job = chain_job(f, &target, cap, iterations, error);
    (void)r;
    job.base.constraints = constraints;
    job.target_rotations_ms = end_rotation;
    return ik_fabrik_run(&job);
}

static void test_reach_hinge(void) {
    test_reach_constrained(IK_CONSTRAINT_HINGE, "fabrik hinge chain: limits, lengths, finite");
}
static void test_reach_cone_twist(void) {
    test_reach_constrained(IK_CONSTRAINT_CONE_TWIST, "fabrik cone-twist chain: limits, lengths, finite");
}
static void test_tree_single(void) { test_tree(0); }
static void test_tree_double_y(void) { test_tree(1); }
static void test_stress(void) { chain_stress_test(stress_solve); }

static const test_group groups[] = {
    /* reaching, free and limited */
    TEST_GROUP(reach_unconstrained),
    TEST_GROUP(plain_chain_paths),
    TEST_GROUP(unreachable_straight),
    TEST_GROUP(near_full_extension),
    TEST_GROUP(reach_hinge),
    TEST_GROUP(reach_cone_twist),
    /* frame to frame */
    TEST_GROUP(tracking_smooth),
    TEST_GROUP(elbow_kept),
    TEST_GROUP(elbow_cold),
    /* trees, rotations, determinism, bad input, the random stress */
    TEST_GROUP(tree_single),
    TEST_GROUP(tree_double_y),
    TEST_GROUP(minimum_rotation),
    TEST_GROUP(determinism),
    TEST_GROUP(degenerate),
    TEST_GROUP(stress),
};

int main(int argc, char **argv) {
    if (!test_groups_run(groups, (int)(sizeof groups / sizeof groups[0]), argc, argv)) return 2;
    return check_summary("fabrik");
}

/* The playground's C API (web/ikit_web.c, web/planar_keys.c), natively: the
 * calls the page makes, checked on geometry (the end where it should be,
 * bone lengths kept) and on bad input (an error and a message, the state
 * before kept or nothing left half-loaded). The browser test
 * (tests/js/playground.mjs) drives the same calls through the page. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <ikit/asset.h>
#include <ikit/planar_chain.h>
#include <ikit/constraint.h>
#include <ikit/humanoid.h>
#include <ikit/robot.h>
#include <ikit/robot_collision.h>
#include <ikit/urdf.h>

#include "../web/ikit_web.h"
#include "support/check.h"
#include "support/rng.h"
#include "support/web_tail.h"

static float dist3(const float *a, const float *b) {
    return sqrtf((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

/* Seed 002's tail chasing a cube on a circle, each method warm-started frame
 * after frame: the tip on the cube (all but the transpose method, which the
 * springs may hold short), the error output its distance, bones unchanged. */
static void test_tail_follows(void) {
    int n = ikw_chain_joint_count(), method, f, j;
    const float *c = ikw_chain_file_target();
    float rest[3 * 64], cube[3];
    const int *parents = ikw_chain_parents();
    check_property tip = {"tail tip on the cube", 0, 0}, bones = {"tail bone lengths kept", 0, 0};
    ikw_chain_reset(0);
    memcpy(rest, ikw_chain_positions(0), (size_t)(3 * n) * sizeof *rest);
    for (method = 0; method < IKW_METHOD_COUNT; ++method) {
        ikw_chain_reset(1);
        for (f = 0; f < 60; ++f) {
            const float *p;
            cube[0] = c[0] + 0.4f * cosf(0.1f * (float)f) - 0.4f;
            cube[1] = c[1] + 0.4f * sinf(0.1f * (float)f);
            cube[2] = c[2];
            CHECK(ikw_chain_solve(1, method, cube[0], cube[1], cube[2], 0, 1) == 0, "method %d frame %d", method, f);
            p = ikw_chain_positions(1);
            if (method != IKW_TRANSPOSE)
                PROPERTY_CASE(tip, dist3(&p[3 * (n - 1)], cube) <= 1e-3f * 1.01f, "method %d frame %d: %g", method, f,
                              (double)dist3(&p[3 * (n - 1)], cube));
            PROPERTY_CASE(tip, fabsf(ikw_chain_error(1) - dist3(&p[3 * (n - 1)], cube)) < 1e-5f, "error output");
            for (j = 1; j < n; ++j)
                PROPERTY_CASE(
                    bones,
                    fabsf(dist3(&p[3 * j], &p[3 * parents[j]]) - dist3(&rest[3 * j], &rest[3 * parents[j]])) < 1e-4f,
                    "method %d joint %d", method, j);
        }
    }
    property_end(&tip);
    property_end(&bones);
}

static void test_chain_bad_input(void) {
    int n = ikw_chain_joint_count();
    float before[3 * 64];
    memcpy(before, ikw_chain_positions(0), (size_t)(3 * n) * sizeof *before);
    memcpy(ikw_text_buffer(), "chain x\njoint a type wobble\n", 28);
    CHECK(ikw_chain_load(28) == IK_ERR_PARSE && strstr(ikw_message(), "line 2") != NULL, "%s", ikw_message());
    CHECK(ikw_chain_joint_count() == n, "the loaded chain stays after bad text");
    CHECK(ikw_chain_load(-1) == IK_ERR_RANGE && ikw_chain_load(ikw_text_capacity() + 1) == IK_ERR_RANGE, "lengths");
    CHECK(ikw_chain_solve(3, 0, 0, 0, 0, 0, 1) == IK_ERR_RANGE &&
              ikw_chain_solve(0, IKW_METHOD_COUNT, 0, 0, 0, 0, 1) == IK_ERR_RANGE &&
              ikw_chain_solve(0, 0, 0, 0, 0, 0, 0) == IK_ERR_RANGE,
          "bad slot, method, repeats");
    CHECK(ikw_chain_solve(0, IKW_DLS_SPRINGS, NAN, 0, 0, 0, 1) == IK_ERR_NONFINITE, "NaN target");
    CHECK(ikw_chain_solve(0, IKW_FABRIK, 0, INFINITY, 0, 0, 1) == IK_ERR_NONFINITE, "infinite target");
    CHECK(memcmp(before, ikw_chain_positions(0), (size_t)(3 * n) * sizeof *before) == 0,
          "pose unchanged by failed solves");
}

/* Seed 003: a joint dragged to random reachable points by each method; the
 * joint on the point, every bone its length, the bones after it keeping
 * their relative angles. */
static void test_planar(void) {
    static const float lengths[6] = {1, 1, 1, 0.8f, 0.6f, 0.4f};
    check_property reach = {"planar joint on target", 0, 0}, shape = {"planar bones kept", 0, 0};
    rng g = rng_seeded(15);
    int method, k, i;
    for (i = 0; i < 6; ++i) ikw_planar_lengths()[i] = lengths[i];
    for (method = 0; method < 3; ++method) {
        for (k = 0; k < 40; ++k) {
            int joint = 2 + (int)(rng_next(&g) % 5); /* one bone reaches only its circle */
            ik_real after[6], reach_max = 0;
            const ik_real *xy;
            float r, a, tx, ty;
            for (i = 0; i < 6; ++i) ikw_planar_angles()[i] = (ik_real)rng_range(&g, -1, 1);
            for (i = 0; i < joint; ++i) reach_max += lengths[i];
            r = (float)rng_range(&g, 0.2, 0.85) * (float)reach_max;
            a = (float)rng_range(&g, -3.1, 3.1);
            tx = 0.5f + r * cosf(a);
            ty = -0.25f + r * sinf(a);
            memcpy(after, ikw_planar_angles(), sizeof after);
            CHECK(ikw_planar_solve(6, joint, method, 0.5f, -0.25f, tx, ty,
                                   method == IK_PLANAR_CHAIN_GRADIENT ? 2000 : 200, 1) == 0,
                  "solve");
            xy = ikw_planar_xy();
            PROPERTY_CASE(reach, hypotf((float)xy[2 * joint] - tx, (float)xy[2 * joint + 1] - ty) <= 1.01e-3f,
                          "method %d joint %d: %g", method, joint,
                          (double)hypotf((float)xy[2 * joint] - tx, (float)xy[2 * joint + 1] - ty));
            for (i = 0; i < 6; ++i) {
                float l = hypotf((float)(xy[2 * i + 2] - xy[2 * i]), (float)(xy[2 * i + 3] - xy[2 * i + 1]));
                PROPERTY_CASE(shape, fabsf(l - lengths[i]) < 1e-4f, "bone %d", i);
                if (i >= joint)
                    PROPERTY_CASE(shape, ikw_planar_angles()[i] == after[i], "bone %d after the joint turned", i);
            }
        }
    }
    property_end(&reach);
    property_end(&shape);
    CHECK(ikw_planar_solve(6, 0, 0, 0, 0, 1, 1, 50, 1) == IK_ERR_RANGE &&
              ikw_planar_solve(6, 7, 0, 0, 0, 1, 1, 50, 1) == IK_ERR_RANGE,
          "joint out of range");
    CHECK(ikw_planar_solve(6, 6, 0, 0, 0, NAN, 1, 50, 1) == IK_ERR_NONFINITE, "NaN target");
    CHECK(ikw_planar_fk(0, 0, 0) == IK_ERR_RANGE && ikw_planar_fk(ikw_planar_max_bones() + 1, 0, 0) == IK_ERR_RANGE,
          "fk counts");
}

/* Two keys: with flat end tangents the curve through them is symmetric, so
 * halfway every angle is their mean; at a key, the key. */
static void test_planar_keys(void) {
    ik_real first[3] = {0.2f, -0.4f, 1.0f}, second[3] = {-0.6f, 0.3f, 0.1f};
    int i;
    ikw_planar_keys_clear();
    CHECK(ikw_planar_sample(0) == -1 && ikw_planar_pose_at(0, 0, 0) == -1, "no keys, no pose");
    memcpy(ikw_planar_angles(), first, sizeof first);
    CHECK(ikw_planar_key(3, 0) == 1, "first key");
    memcpy(ikw_planar_angles(), second, sizeof second);
    CHECK(ikw_planar_key(3, 2) == 2, "second key");
    CHECK(ikw_planar_key(3, 2.0005f) == 2 && ikw_planar_key(3, 2) == 2, "a key within 1 ms replaces");
    CHECK(ikw_planar_sample(1) == 3, "sample");
    for (i = 0; i < 3; ++i)
        CHECK(fabsf((float)(ikw_planar_sampled()[i] - (first[i] + second[i]) / 2)) < 1e-6f, "mean at bone %d", i);
    CHECK(ikw_planar_pose_at(2, 0, 0) == 0, "pose at the second key");
    for (i = 0; i < 3; ++i) CHECK(ikw_planar_angles()[i] == second[i], "second key at bone %d", i);
    CHECK(ikw_planar_key(3, NAN) == -1 && ikw_planar_key(3, -1) == -1 && ikw_planar_key(0, 1) == -1,
          "bad keys refused");
    CHECK(ikw_planar_key_count() == 2 && ikw_planar_key_time(0) == 0 && ikw_planar_key_time(1) == 2, "keys kept");
}

/* A tangent set by hand: keys at 0, 1 and 2 s; bone 0's tangent at the
 * middle key set to slope 2 (both sides), then broken (arriving flat,
 * leaving at -3): the sampled curve still passes through every key, its
 * slope there (central, left and right differences) is the one set, the
 * other bones keep their Catmull-Rom curves, and the pose played at a time
 * is the sampled curve. A later key leaves the hand-set tangent on its key;
 * recording that key again resets it. Bad keys, bones and slopes refused. */
static float sampled_at(float t, int bone) {
    ikw_planar_sample(t);
    return (float)ikw_planar_sampled()[bone];
}

static void test_planar_tangents(void) {
    static const ik_real poses[3][3] = {{0.1f, 0.2f, -0.3f}, {0.5f, -0.4f, 0.2f}, {-0.2f, 0.3f, 0.6f}};
    const float h = 1e-3f;
    float before[3], slope;
    int k, b;
    ikw_planar_keys_clear();
    for (k = 0; k < 3; ++k) {
        memcpy(ikw_planar_angles(), poses[k], sizeof poses[k]);
        CHECK(ikw_planar_key(3, (float)k) == k + 1, "key %d", k);
    }
    for (b = 0; b < 3; ++b) before[b] = sampled_at(0.6f, b);
    CHECK(ikw_planar_tangent_is_set(1, 0) == 0, "no tangent set by hand yet");
    CHECK(ikw_planar_tangent(1, 0, 2, 2) == 0, "set a tangent");
    CHECK(ikw_planar_tangent_is_set(1, 0) == 1 && ikw_planar_tangent_is_set(1, 1) == 0 &&
              ikw_planar_tangent_is_set(0, 0) == 0,
          "only key 1 of bone 0 is marked as set by hand");
    slope = (sampled_at(1 + h, 0) - sampled_at(1 - h, 0)) / (2 * h);
    CHECK(fabsf(slope - 2) < 2e-2f, "bone 0 leaves key 1 at slope 2: %g", (double)slope);
    for (k = 0; k < 3; ++k)
        CHECK(fabsf(sampled_at((float)k, 0) - (float)poses[k][0]) < 1e-6f, "the curve passes through key %d", k);
    CHECK(fabsf(sampled_at(0.6f, 0) - before[0]) > 1e-3f, "the curve changed between the keys");
    for (b = 1; b < 3; ++b) CHECK(sampled_at(0.6f, b) == before[b], "bone %d's curve unchanged", b);
    CHECK(fabsf((float)ikw_planar_curve(0)[1 * 3 * ikw_planar_curve_stride()] - 2) < 1e-6f &&
              fabsf((float)ikw_planar_curve(0)[1 * 3 * ikw_planar_curve_stride() + 2 * ikw_planar_curve_stride()] - 2) <
                  1e-6f,
          "the clip's CUBICSPLINE tangents hold the slope");
    CHECK(ikw_planar_tangent(1, 0, 0, -3) == 0, "a broken tangent");
    slope = (sampled_at(1, 0) - sampled_at(1 - h, 0)) / h;
    CHECK(fabsf(slope) < 2e-2f, "arrives flat: %g", (double)slope);
    slope = (sampled_at(1 + h, 0) - sampled_at(1, 0)) / h;
    CHECK(fabsf(slope + 3) < 2e-2f, "leaves at -3: %g", (double)slope);
    CHECK(ikw_planar_pose_at(0.6f, 0, 0) == 0 && ikw_planar_angles()[0] == ikw_planar_sampled()[0],
          "playback follows the curve");
    memcpy(ikw_planar_angles(), poses[0], sizeof poses[0]);
    CHECK(ikw_planar_key(3, 3) == 4 && fabsf((float)ikw_planar_curve(0)[1 * 3 * ikw_planar_curve_stride()]) < 1e-6f,
          "a later key keeps the hand-set tangent on its key");
    CHECK(ikw_planar_tangent_is_set(1, 0) == 1, "and its mark");
    memcpy(ikw_planar_angles(), poses[1], sizeof poses[1]);
    CHECK(ikw_planar_key(3, 1) == 4 && ikw_planar_tangent_is_set(1, 0) == 0,
          "key 1 recorded again: its tangent computed");
    slope = (sampled_at(1 + h, 0) - sampled_at(1 - h, 0)) / (2 * h);
    CHECK(fabsf(slope - (float)(poses[2][0] - poses[0][0]) / 2) < 2e-2f, "and its tangent is Catmull-Rom again: %g",
          (double)slope);
    CHECK(ikw_planar_tangent(1, 0, 2, 2) == 0, "set again");
    ikw_planar_tangents_auto();
    CHECK(ikw_planar_tangent_is_set(1, 0) == 0, "no mark after the reset");
    slope = (sampled_at(1 + h, 0) - sampled_at(1 - h, 0)) / (2 * h);
    CHECK(fabsf(slope - (float)(poses[2][0] - poses[0][0]) / 2) < 2e-2f, "reset to Catmull-Rom: %g", (double)slope);
    CHECK(ikw_planar_tangent(4, 0, 1, 1) == -1 && ikw_planar_tangent(-1, 0, 1, 1) == -1 &&
              ikw_planar_tangent(0, 3, 1, 1) == -1 && ikw_planar_tangent(0, 0, NAN, 1) == -1 &&
              ikw_planar_tangent(0, 0, 1, INFINITY) == -1,
          "bad key, bone or slope refused");
    CHECK(ikw_planar_curve(3) == NULL && ikw_planar_curve(-1) == NULL, "no curve for a bone out of range");
    CHECK(ikw_planar_tangent_is_set(4, 0) == 0 && ikw_planar_tangent_is_set(0, 3) == 0 &&
              ikw_planar_tangent_is_set(-1, -1) == 0,
          "no mark out of range");
}

/* The built-in humanoid reaching, then the same skeleton handed in as the
 * page hands in a file's (names, parents, rest; a root matrix above it),
 * then skeletons that must be refused, leaving no figure to solve. */
static void test_body(void) {
    int parents[IK_HUMANOID_BUILT_JOINTS], n, j, at = 0;
    const char *names[IK_HUMANOID_BUILT_JOINTS];
    ik_transform rest[IK_HUMANOID_BUILT_JOINTS];
    float goal[3], shift[3] = {2, 0.5f, -1};
    CHECK(ikw_body_init(1.8f) == 0, "built-in");
    goal[0] = ikw_body_limb_ends()[0] - 0.1f;
    goal[1] = ikw_body_limb_ends()[1] + 0.3f;
    goal[2] = ikw_body_limb_ends()[2] + 0.2f;
    ikw_body_goal(IK_LIMB_ARM_L, 1, goal[0], goal[1], goal[2]);
    CHECK(ikw_body_solve(1) == 0 && dist3(ikw_body_limb_ends(), goal) < 1e-3f, "left hand on its goal: %g",
          (double)dist3(ikw_body_limb_ends(), goal));

    n = ik_humanoid_build_skeleton(1.8f, IK_HUMANOID_BUILT_JOINTS, parents, names, rest);
    for (j = 0; j < n; ++j) {
        float *r = &ikw_body_rest_buffer()[10 * j];
        size_t len = strlen(names[j]) + 1;
        memcpy(ikw_text_buffer() + at, names[j], len);
        at += (int)len;
        ikw_body_parent_buffer()[j] = parents[j];
        r[0] = (float)rest[j].translation.x, r[1] = (float)rest[j].translation.y, r[2] = (float)rest[j].translation.z;
        r[3] = 0, r[4] = 0, r[5] = 0, r[6] = 1, r[7] = 1, r[8] = 1, r[9] = 1;
    }
    CHECK(ikw_body_load(n, at) == 0, "%s", ikw_message());
    memset(ikw_body_root_buffer(), 0, 16 * sizeof(float));
    for (j = 0; j < 4; ++j) ikw_body_root_buffer()[5 * j] = 1;
    for (j = 0; j < 3; ++j) ikw_body_root_buffer()[12 + j] = shift[j];
    ikw_body_root(1);
    for (j = 0; j < 3; ++j) goal[j] += shift[j];
    ikw_body_goal(IK_LIMB_ARM_L, 1, goal[0], goal[1], goal[2]);
    CHECK(ikw_body_solve(1) == 0 && dist3(ikw_body_limb_ends(), goal) < 1e-3f, "loaded, under root_ms: %g",
          (double)dist3(ikw_body_limb_ends(), goal));

    /* A quadruped: the built-in figure with its body turned forward at the
     * spine (legs hanging, head ahead): the library's own line, as ikc's. */
    for (j = 0; j < n; ++j)
        if (strcmp(names[j], "Spine") == 0) {
            float *r = &ikw_body_rest_buffer()[10 * j];
            r[3] = (float)IK_SIN(IK_PI / 4), r[6] = (float)IK_COS(IK_PI / 4); /* 90 degrees about +x */
        }
    CHECK(ikw_body_load(n, at) == IK_ERR_UNSUPPORTED &&
              strcmp(ikw_message(),
                     "no humanoid found: the figure does not stand upright (its legs do not hang away "
                     "from its head: a quadruped?)") == 0,
          "a quadruped: %s", ikw_message());

    /* Not a humanoid: three joints in a line. */
    memcpy(ikw_text_buffer(), "a\0b\0c\0", 6);
    for (j = 0; j < 3; ++j) ikw_body_parent_buffer()[j] = j - 1;
    for (j = 0; j < 3; ++j) ikw_body_rest_buffer()[10 * j + 3] = 0, ikw_body_rest_buffer()[10 * j + 6] = 1;
    CHECK(ikw_body_load(3, 6) == IK_ERR_NOT_FOUND &&
              strstr(ikw_message(), "no humanoid found: missing hips, chest, head, left_upper_arm") == ikw_message() &&
              strstr(ikw_message(), "right_shin") != NULL,
          "%s", ikw_message());
    CHECK(ikw_body_solve(1) == IK_ERR_NULL, "no figure after a failed load");
    CHECK(ikw_body_load(3, 5) == IK_ERR_RANGE, "names cut short");
    ikw_body_rest_buffer()[10] = NAN;
    CHECK(ikw_body_load(3, 6) == IK_ERR_NONFINITE, "NaN rest: %s", ikw_message());
    CHECK(ikw_body_load(0, 0) == IK_ERR_RANGE && ikw_body_load(ikw_body_max_joints() + 1, 0) == IK_ERR_RANGE, "counts");
    CHECK(ikw_body_init(-1) == IK_ERR_RANGE && ikw_body_init(1.8f) == 0, "height");
    /* Stairs rising toward the figure's left: the left foot a step above the right, both grounded. */
    ikw_body_goal(IK_LIMB_ARM_L, 0, 0, 0, 0);
    CHECK(ikw_body_ground(2, 0.15f) == 0 && ikw_body_solve(1) == 0, "stairs: %s", ikw_message());
    CHECK(ikw_body_grounded(0) && ikw_body_grounded(1), "stairs: both feet on the ground");
    for (j = 0; j < ikw_body_joint_count(); ++j) {
        /* The toes' tips touch the tread they stand on (the left heel may lift: the ankle's limit). */
        const float y = ikw_body_positions()[3 * j + 1];
        if (strcmp(ikw_body_joint_name(j), "LeftToe_End") == 0)
            CHECK(fabsf(y - 0.15f) < 2e-3f, "left toes on the step: %g", (double)y);
        if (strcmp(ikw_body_joint_name(j), "RightToe_End") == 0)
            CHECK(fabsf(y) < 2e-3f, "right toes on the floor: %g", (double)y);
    }
    CHECK(ikw_body_ground(3, 1) == IK_ERR_RANGE, "unknown ground");
    ikw_body_ground(2, NAN);
    CHECK(ikw_body_solve(1) != 0, "a NaN step fails the solve");
    ikw_body_ground(1, NAN);
    CHECK(ikw_body_solve(1) != 0, "a NaN slope fails the solve");
    ikw_body_ground(0, 0);
    ikw_body_goal(IK_LIMB_LEG_L, 1, INFINITY, 0, 0);
    CHECK(ikw_body_solve(1) == IK_ERR_NONFINITE, "infinite goal");
}

/* Angle about unit h from a to b (both perpendicular-ish to h). */
static float signed_angle(const float *a, const float *b, const float *h) {
    float c[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    return atan2f(c[0] * h[0] + c[1] * h[1] + c[2] * h[2], a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);
}

/* The humanoid's left arm and right leg solved by FABRIK, CCD and DLS picked
 * per limb, toward seeded goals reachable by construction (the end where a
 * random pose inside the limb's constraints puts it): the end on its goal
 * (and the residual readout equal to that distance), bone lengths kept,
 * every joint inside its constraint, the elbow's or knee's bend inside the
 * rig's limits about the drawn hinge, the upper bone inside the drawn cone,
 * and the drawn bend arc holding the lower bone (the upper bone's direction
 * turned by the bend about the hinge). */
static void test_body_limb_solvers(void) {
    static const int limbs_tested[2] = {IK_LIMB_ARM_L, IK_LIMB_LEG_R};
    static ik_transform pose[256];
    static ik_mat4 model[256];
    rng random = rng_seeded(42);
    int method, t, trial;
    CHECK(ikw_body_init(1.8f) == 0 && ikw_body_ground(0, 0) == 0, "built-in");
    for (t = 0; t < 2; ++t) {
        int limb = limbs_tested[t], j;
        const ik_humanoid *rig = ikw_body_rig();
        const ik_humanoid_limb *l = &rig->limb[limb];
        ik_constraint limits[3];
        float upper_length, lower_length;
        ikw_limb_constraints(rig, limb, limits);
        for (j = 0; j < 4; ++j) ikw_body_goal(j, 0, 0, 0, 0);
        CHECK(ikw_body_solve(1) == 0, "solve");
        upper_length = dist3(ikw_body_positions() + 3 * l->start, ikw_body_positions() + 3 * l->mid);
        lower_length = dist3(ikw_body_positions() + 3 * l->mid, ikw_body_positions() + 3 * l->end);
        for (method = IKW_LIMB_FABRIK; method < IKW_LIMB_METHODS; ++method) {
            CHECK(ikw_body_limb_solver(limb, method) == 0, "limb %d method %d", limb, method);
            for (trial = 0; trial < 10; ++trial) {
                const float *p, *lim;
                float goal[3], u[3], w[3], turned[3], bend, c, s, cone;
                ik_vec3 end;
                int k;
                ik_skeleton_rest_pose(rig->skeleton, pose);
                pose[l->start].rotation = ik_constraint_sample(
                    &limits[0], ik_v3(rng_range(&random, 0, 1), rng_range(&random, 0, 1), rng_range(&random, 0, 1)));
                pose[l->mid].rotation = ik_constraint_sample(&limits[1], ik_v3(rng_range(&random, 0, 1), 0, 0));
                ik_skeleton_fk(rig->skeleton, pose, NULL, model);
                end = ik_mat4_translation(&model[l->end]);
                goal[0] = (float)end.x, goal[1] = (float)end.y, goal[2] = (float)end.z;
                ikw_body_goal(limb, 1, goal[0], goal[1], goal[2]);
                CHECK(ikw_body_solve(1) == 0, "limb %d method %d: %s", limb, method, ikw_message());
                p = ikw_body_positions(), lim = ikw_body_limits() + IKW_LIMIT_FLOATS * limb;
                CHECK(dist3(p + 3 * l->end, goal) < 1e-3f, "limb %d method %d trial %d: end %g from its goal", limb,
                      method, trial, (double)dist3(p + 3 * l->end, goal));
                CHECK(fabsf(ikw_body_residual(limb) - dist3(p + 3 * l->end, goal)) < 1e-5f, "residual readout");
                CHECK(fabsf(dist3(p + 3 * l->start, p + 3 * l->mid) - upper_length) < 1e-4f &&
                          fabsf(dist3(p + 3 * l->mid, p + 3 * l->end) - lower_length) < 1e-4f,
                      "limb %d method %d: bone lengths kept", limb, method);
                for (k = 0; k < 2; ++k) {
                    const float *q = ikw_body_rotations() + 4 * (k ? l->mid : l->start);
                    CHECK(ik_constraint_check(&limits[k], ik_q(q[0], q[1], q[2], q[3]), (ik_real)1e-3),
                          "limb %d method %d trial %d: joint %d inside its constraint", limb, method, trial, k);
                }
                for (k = 0; k < 3; ++k) {
                    u[k] = (p[3 * l->mid + k] - p[3 * l->start + k]) / upper_length;
                    w[k] = (p[3 * l->end + k] - p[3 * l->mid + k]) / lower_length;
                }
                bend = signed_angle(u, w, lim + 3);
                CHECK(bend >= lim[9] - 1e-3f && bend <= lim[10] + 1e-3f, "limb %d method %d: bend %g outside [%g, %g]",
                      limb, method, (double)bend, (double)lim[9], (double)lim[10]);
                c = cosf(bend), s = sinf(bend);
                /* Rodrigues: u turned by bend about the hinge h (u is perpendicular to h) */
                turned[0] = c * u[0] + s * (lim[4] * u[2] - lim[5] * u[1]);
                turned[1] = c * u[1] + s * (lim[5] * u[0] - lim[3] * u[2]);
                turned[2] = c * u[2] + s * (lim[3] * u[1] - lim[4] * u[0]);
                CHECK(dist3(turned, w) < 2e-3f, "limb %d method %d: the drawn arc holds the lower bone (%g off)", limb,
                      method, (double)dist3(turned, w));
                cone = acosf(fminf(1.f, u[0] * lim[15] + u[1] * lim[16] + u[2] * lim[17]));
                CHECK(cone <= lim[18] + 1e-3f && (int)lim[19] == method,
                      "limb %d method %d: upper bone %g inside the cone %g", limb, method, (double)cone,
                      (double)lim[18]);
            }
        }
        CHECK(ikw_body_limb_solver(limb, IKW_LIMB_TWO_BONE) == 0, "back to two-bone");
        ikw_body_goal(limb, 0, 0, 0, 0);
    }
    CHECK(ikw_body_limb_solver(IK_LIMB_COUNT, IKW_LIMB_CCD) == IK_ERR_RANGE &&
              ikw_body_limb_solver(0, IKW_LIMB_METHODS) == IK_ERR_RANGE && ikw_body_limb_solver(-1, 0) == IK_ERR_RANGE,
          "bad limb or method");
}

/* A CMU motion from the real-asset corpus as the figure: it plays (the
 * pose changes with time), a pinned hand holds its goal mid-motion, and a
 * malformed file is refused with the reader's place, the figure kept. */
static void test_body_bvh(void) {
    char path[1024];
    const char *data = getenv("IKIT_DATA");
    FILE *f;
    long size;
    float at1[3], at2[3], goal[3];
    int j;
    snprintf(path, sizeof path, "%s/bvh/131_01.bvh", data ? data : "../shared/data");
    f = fopen(path, "rb");
    if (!f) {
        check_skip("real-asset corpus not found");
        return;
    }
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    rewind(f);
    CHECK(ikw_input_buffer((int)size) != NULL && fread(ikw_input_buffer((int)size), 1, (size_t)size, f) == (size_t)size,
          "read");
    fclose(f);
    CHECK(ikw_body_load_bvh((int)size) == 0, "131_01.bvh: %s", ikw_message());
    CHECK(ikw_body_clip_duration() > 1, "a clip of %g s", (double)ikw_body_clip_duration());
    ikw_body_ground(0, 0);
    for (j = 0; j < 4; ++j) ikw_body_goal(j, 0, 0, 0, 0);
    ikw_body_time(1);
    CHECK(ikw_body_solve(1) == 0, "solve at 1 s");
    memcpy(at1, ikw_body_limb_ends(), sizeof at1);
    ikw_body_time(2);
    CHECK(ikw_body_solve(1) == 0, "solve at 2 s");
    memcpy(at2, ikw_body_limb_ends(), sizeof at2);
    CHECK(dist3(at1, at2) > 0.5f, "the left hand moves with the motion: %g", (double)dist3(at1, at2));
    goal[0] = at2[0], goal[1] = at2[1] + 2, goal[2] = at2[2] + 1; /* file units: inches */
    ikw_body_goal(IK_LIMB_ARM_L, 1, goal[0], goal[1], goal[2]);
    CHECK(ikw_body_solve(1) == 0 && dist3(ikw_body_limb_ends(), goal) < 1e-3f * 30, "pinned hand on its goal: %g",
          (double)dist3(ikw_body_limb_ends(), goal));
    static const char broken[] = "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0\n";
    memcpy(ikw_input_buffer((int)sizeof broken), broken, sizeof broken);
    CHECK(ikw_body_load_bvh((int)sizeof broken - 1) == IK_ERR_PARSE && strstr(ikw_message(), "line 4") != NULL, "%s",
          ikw_message());
    CHECK(ikw_body_solve(1) == 0, "the figure before a malformed file stays");
    CHECK(ikw_body_load_bvh(-1) == IK_ERR_RANGE && ikw_input_buffer(-1) == NULL, "bad sizes");
}

/* A take whose floor is not the rest pose's: a humanoid resting with its
 * hips at 0 (its soles 100 units below) and standing in every frame with
 * the hips 100 up, so the soles are at 0 (ankles 7 above them: the toes'
 * end 7 below the ankle). The clip's floor is found at 0, not at the rest
 * pose's -100, and on a ground through 0 the feet stand on it, ankles 7
 * up, where the rest floor would have held them 100 above it. */
static void test_body_clip_floor(void) {
    static const char text[] =
        "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n"
        " CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n"
        " JOINT Spine\n {\n  OFFSET 0 12 0\n  CHANNELS 3 Zrotation Yrotation Xrotation\n"
        "  JOINT Chest\n  {\n   OFFSET 0 20 0\n   CHANNELS 3 Zrotation Yrotation Xrotation\n"
        "   JOINT Neck\n   {\n    OFFSET 0 18 0\n    CHANNELS 3 Zrotation Yrotation Xrotation\n"
        "    JOINT Head\n    {\n     OFFSET 0 8 0\n     CHANNELS 3 Zrotation Yrotation Xrotation\n"
        "     End Site\n     {\n      OFFSET 0 15 0\n     }\n    }\n   }\n"
        "   JOINT LeftArm\n   {\n    OFFSET 18 15 0\n    CHANNELS 3 Zrotation Yrotation Xrotation\n"
        "    JOINT LeftForeArm\n    {\n     OFFSET 0 -30 -2\n     CHANNELS 3 Zrotation Yrotation Xrotation\n"
        "     JOINT LeftHand\n     {\n      OFFSET 0 -26 3\n      CHANNELS 3 Zrotation Yrotation Xrotation\n"
        "      End Site\n      {\n       OFFSET 0 -8 0\n      }\n     }\n    }\n   }\n"
        "   JOINT RightArm\n   {\n    OFFSET -18 15 0\n    CHANNELS 3 Zrotation Yrotation Xrotation\n"
        "    JOINT RightForeArm\n    {\n     OFFSET 0 -30 -2\n     CHANNELS 3 Zrotation Yrotation Xrotation\n"
        "     JOINT RightHand\n     {\n      OFFSET 0 -26 3\n      CHANNELS 3 Zrotation Yrotation Xrotation\n"
        "      End Site\n      {\n       OFFSET 0 -8 0\n      }\n     }\n    }\n   }\n  }\n }\n"
        " JOINT LeftUpLeg\n {\n  OFFSET 10 -3 0\n  CHANNELS 3 Zrotation Yrotation Xrotation\n"
        "  JOINT LeftLeg\n  {\n   OFFSET 0 -45 1\n   CHANNELS 3 Zrotation Yrotation Xrotation\n"
        "   JOINT LeftFoot\n   {\n    OFFSET 0 -45 -1\n    CHANNELS 3 Zrotation Yrotation Xrotation\n"
        "    JOINT LeftToeBase\n    {\n     OFFSET 0 -5 10\n     CHANNELS 3 Zrotation Yrotation Xrotation\n"
        "     End Site\n     {\n      OFFSET 0 -2 6\n     }\n    }\n   }\n  }\n }\n"
        " JOINT RightUpLeg\n {\n  OFFSET -10 -3 0\n  CHANNELS 3 Zrotation Yrotation Xrotation\n"
        "  JOINT RightLeg\n  {\n   OFFSET 0 -45 1\n   CHANNELS 3 Zrotation Yrotation Xrotation\n"
        "   JOINT RightFoot\n   {\n    OFFSET 0 -45 -1\n    CHANNELS 3 Zrotation Yrotation Xrotation\n"
        "    JOINT RightToeBase\n    {\n     OFFSET 0 -5 10\n     CHANNELS 3 Zrotation Yrotation Xrotation\n"
        "     End Site\n     {\n      OFFSET 0 -2 6\n     }\n    }\n   }\n  }\n }\n}\n";
    static char bvh[sizeof text + 64 * 400];
    int f, k, n = (int)strlen(text), l;
    memcpy(bvh, text, (size_t)n);
    n += sprintf(bvh + n, "MOTION\nFrames: 60\nFrame Time: 0.0333333\n");
    for (f = 0; f < 60; ++f) {
        n += sprintf(bvh + n, "0 100 %d", f);
        for (k = 3; k < 6 + 3 * 18; ++k) n += sprintf(bvh + n, " 0");
        n += sprintf(bvh + n, "\n");
    }
    memcpy(ikw_input_buffer(n), bvh, (size_t)n);
    CHECK(ikw_body_load_bvh(n) == 0, "a take standing 100 above its rest floor: %s", ikw_message());
    CHECK(fabsf(ikw_body_clip_floor()[1]) < 0.05f && fabsf(ikw_body_clip_floor()[0]) < 1e-4f,
          "its floor found at 0 (%g), under the hips", (double)ikw_body_clip_floor()[1]);
    ikw_body_root(0);
    ikw_body_ground(1, 0);
    for (l = 0; l < 4; ++l) ikw_body_goal(l, 0, 0, 0, 0);
    ikw_body_time(1);
    CHECK(ikw_body_solve(1) == 0, "solve: %s", ikw_message());
    for (l = 2; l < 4; ++l)
        CHECK(fabsf(ikw_body_limb_ends()[3 * l + 1] - 7) < 0.05f && ikw_body_grounded(l - 2),
              "ankle %d stands 7 above the ground at 0: %g", l, (double)ikw_body_limb_ends()[3 * l + 1]);
    CHECK(ikw_body_init(1.8f) == 0 && isnan(ikw_body_clip_floor()[1]), "no clip, no floor of its own");
}

/* girl.glb (its `size` bytes at `bytes`, checked) as the figure, read by the
 * library in the page: the library's skeleton and each joint's glTF node
 * (ik_asset_load_memory's, natively), its animations by name and length;
 * each plays (the pose moves with time, a pinned hand holds its goal
 * mid-clip); a bad animation index is refused with the clip kept, and the
 * rest pose comes back. */
static void figure_from_file(const char *bytes, size_t size) {
    ik_asset asset;
    ik_error err;
    const ik_gltf_skin *skin;
    int j, clip, same = 1;
    if (ik_asset_load_memory(bytes, size, "girl.glb", &asset, &err) != IK_OK) {
        CHECK(0, "girl.glb natively: %s", err.message);
        return;
    }
    CHECK(ikw_figure_use(1) == 0, "girl.glb as the figure: %s", ikw_message());
    skin = ik_gltf_skeleton(asset.gltf, asset.skin);
    CHECK(ikw_body_joint_count() == asset.skeleton->joint_count, "%d joints, the library's %d", ikw_body_joint_count(),
          asset.skeleton->joint_count);
    for (j = 0; j < asset.skeleton->joint_count && j < ikw_body_joint_count(); ++j)
        same = same && ikw_figure_joint_node(j) == skin->node[j] &&
               ikw_body_parents()[j] == asset.skeleton->parents[j] &&
               strcmp(ikw_body_joint_name(j), asset.skeleton->names[j]) == 0;
    CHECK(same, "names, parents and nodes as the library reads them");
    CHECK(ikw_figure_clip_count() == ik_asset_clip_count(&asset) && ikw_figure_clip_count() >= 2, "%d animations",
          ikw_figure_clip_count());
    for (clip = 0; clip < ikw_figure_clip_count(); ++clip) {
        const ik_clip *c = ik_asset_clip(&asset, clip);
        float at0[12], later[12], goal[3];
        ik_real arm;
        CHECK(strcmp(ikw_figure_clip_name(clip), c->name ? c->name : "") == 0 &&
                  fabsf(ikw_figure_clip_duration(clip) - (float)c->duration) < 1e-6f,
              "animation %d: %s", clip, ikw_figure_clip_name(clip));
        CHECK(ikw_figure_play(clip) == 0 && fabsf(ikw_body_clip_duration() - (float)c->duration) < 1e-6f, "play %d",
              clip);
        ikw_body_time(0);
        CHECK(ikw_body_solve(1) == 0, "solve at 0");
        memcpy(at0, ikw_body_limb_ends(), sizeof at0);
        ikw_body_time(0.5f * ikw_body_clip_duration());
        CHECK(ikw_body_solve(1) == 0, "solve mid-clip");
        memcpy(later, ikw_body_limb_ends(), sizeof later);
        CHECK(dist3(at0, later) + dist3(at0 + 3, later + 3) + dist3(at0 + 6, later + 6) > 1e-3f,
              "%s: the figure moves with the clip", ikw_figure_clip_name(clip));
        arm = ikw_body_rig()->limb[IK_LIMB_ARM_L].upper_length + ikw_body_rig()->limb[IK_LIMB_ARM_L].lower_length;
        memcpy(goal, later, sizeof goal);
        goal[1] += 0.1f * (float)arm;
        ikw_body_goal(IK_LIMB_ARM_L, 1, goal[0], goal[1], goal[2]);
        CHECK(ikw_body_solve(1) == 0 && dist3(ikw_body_limb_ends(), goal) < 2e-3f * (float)arm,
              "%s: pinned left hand on its goal mid-clip: %g", ikw_figure_clip_name(clip),
              (double)dist3(ikw_body_limb_ends(), goal));
        ikw_body_goal(IK_LIMB_ARM_L, 0, 0, 0, 0);
    }
    CHECK(ikw_figure_play(99) == IK_ERR_RANGE && ikw_body_clip_duration() > 0, "no such animation: %s; the clip stays",
          ikw_message());
    CHECK(ikw_figure_play(-1) == 0 && ikw_body_clip_duration() == 0, "the rest pose");
    CHECK(ikw_figure_use(0) == 0 && ikw_figure_use(1) == IK_ERR_NULL &&
              ikw_body_joint_count() == asset.skeleton->joint_count,
          "the figure again; nothing waits");
    ik_asset_free(&asset);
}

/* A glTF file checked by the library before the page draws it: the
 * reader's message for a truncated GLB and for a file without a skin, the
 * rig's line for a skin that is no humanoid, nothing for a character. */
static void test_figure_check(void) {
    static const char truncated[] = "glTF\002\000\000\000garbage";
    static const char no_skin[] = "{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [{\"name\": \"a\"}]}";
    static const char *const files[] = {"gltf/girl.glb", "gltf/SimpleSkin.gltf"};
    const char *data = getenv("IKIT_DATA");
    char path[1024];
    int i;
    memcpy(ikw_input_buffer((int)sizeof truncated - 1), truncated, sizeof truncated - 1);
    CHECK(ikw_figure_check((int)sizeof truncated - 1) == 1 && strstr(ikw_message(), "byte 8: ") == ikw_message() &&
              strstr(ikw_message(), "(truncated file)"),
          "a truncated GLB: %s", ikw_message());
    memcpy(ikw_input_buffer((int)sizeof no_skin - 1), no_skin, sizeof no_skin - 1);
    CHECK(ikw_figure_check((int)sizeof no_skin - 1) == 1 &&
              strcmp(ikw_message(), "the glTF file has no skin, so no skeleton to work on") == 0,
          "no skin: %s", ikw_message());
    CHECK(ikw_figure_check(0) == 1, "nothing to read");
    for (i = 0; i < 2; ++i) {
        FILE *f;
        long size;
        snprintf(path, sizeof path, "%s/%s", data ? data : "../shared/data", files[i]);
        if (!(f = fopen(path, "rb"))) {
            check_skip("real-asset corpus not found");
            return;
        }
        fseek(f, 0, SEEK_END);
        size = ftell(f);
        rewind(f);
        CHECK(ikw_input_buffer((int)size) && fread(ikw_input_buffer((int)size), 1, (size_t)size, f) == (size_t)size,
              "read");
        fclose(f);
        if (i == 0) {
            CHECK(ikw_figure_check((int)size) == 0, "girl.glb: a humanoid (%s)", ikw_message());
            figure_from_file(ikw_input_buffer((int)size), (size_t)size);
        } else {
            CHECK(ikw_figure_check((int)size) == 2 &&
                      strstr(ikw_message(), "no humanoid found: missing hips") == ikw_message(),
                  "SimpleSkin: %s", ikw_message());
        }
    }
    CHECK(ikw_figure_use(1) == IK_ERR_NULL, "a refused file does not wait");
}

/* ---- robot arms: a URDF document read by the library in the page ----------- */

/* `text` handed in as the page hands in a file, read (ikw_robot_read). */
static int read_robot(const char *text) {
    size_t length = strlen(text);
    char *buffer = ikw_input_buffer((int)length);
    if (!buffer) return -1;
    memcpy(buffer, text, length);
    return ikw_robot_read((int)length);
}

/* The index of the link called `name` in the robot just read, or -1. */
static int link_index(const char *name) {
    int l;
    for (l = 0; l < ikw_robot_link_count(); ++l)
        if (strcmp(ikw_robot_link_name(l), name) == 0) return l;
    return -1;
}

/* A whole file, NUL-terminated (NULL when it cannot be read). */
static char *read_text_file(const char *path) {
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long size;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (text = (char *)malloc((size_t)size + 1)) != NULL) {
        if (fread(text, 1, (size_t)size, f) == (size_t)size) {
            text[size] = '\0';
        } else {
            free(text);
            text = NULL;
        }
    }
    fclose(f);
    return text;
}

/* Frame k (0: base; k: the child link of chain joint k - 1) against a transform. */
static float frame_distance(int k, const ik_transform *t) {
    const float *f = ikw_robot_frames() + 7 * k;
    float p[3];
    p[0] = (float)t->translation.x, p[1] = (float)t->translation.y, p[2] = (float)t->translation.z;
    return dist3(f, p);
}

/* The angle between frame k's rotation and q: 2 atan2(|v|, |w|) of the
 * relative turn conj(f) q (accurate for small angles, unlike acos). */
static float frame_angle(int k, ik_quat q) {
    const float *f = ikw_robot_frames() + 7 * k;
    double ax = -f[3], ay = -f[4], az = -f[5], aw = f[6], bx = q.x, by = q.y, bz = q.z, bw = q.w;
    double w = aw * bw - ax * bx - ay * by - az * bz, x = aw * bx + ax * bw + ay * bz - az * by;
    double y = aw * by - ax * bz + ay * bw + az * bx, z = aw * bz + ax * by - ay * bx + az * bw;
    return (float)(2 * atan2(sqrt(x * x + y * y + z * z), fabs(w)));
}

/* Seeded goals reachable by construction (the tip at a random configuration
 * inside the limits of `reference`, the native reader's chain): from the
 * last pose each solve lands the tip on the goal (position and turn), every
 * variable inside its limits, and the native chain's FK at the page's
 * solution agrees. */
static void solve_reachable_goals(const ik_robot_chain *reference, const char *name) {
    ik_real lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS], q[IK_ROBOT_MAX_JOINTS];
    ik_bool limited[IK_ROBOT_MAX_JOINTS];
    ik_transform goal, tip;
    rng random = rng_seeded(15);
    int n = reference->variable_count, trial, frame, v, tip_frame = reference->joint_count;
    CHECK(ik_robot_variable_limits(reference, lower, upper, limited, NULL) == IK_OK, "%s: limits", name);
    for (trial = 0; trial < 20; ++trial) {
        for (v = 0; v < n; ++v) q[v] = rng_range(&random, lower[v], upper[v]);
        ik_robot_fk(reference, q, &goal, NULL);
        /* as the page does: one solve per frame, warm-started, until reached (at most 10 frames) */
        for (frame = 0; frame < 10 && (frame == 0 || !ikw_robot_reached()); ++frame)
            CHECK(ikw_robot_solve((float)goal.translation.x, (float)goal.translation.y, (float)goal.translation.z,
                                  (float)goal.rotation.x, (float)goal.rotation.y, (float)goal.rotation.z,
                                  (float)goal.rotation.w, 1, 1) == 0,
                  "%s: %s", name, ikw_message());
        CHECK(frame_distance(tip_frame, &goal) < 1e-3f && frame_angle(tip_frame, goal.rotation) < 2e-3f,
              "%s trial %d: tip %g from the goal, turned %g", name, trial, (double)frame_distance(tip_frame, &goal),
              (double)frame_angle(tip_frame, goal.rotation));
        CHECK(fabsf(ikw_robot_position_error() - frame_distance(tip_frame, &goal)) < 1e-4f, "%s: error readout", name);
        for (v = 0; v < n; ++v)
            CHECK(!limited[v] || (ikw_robot_q()[v] >= lower[v] && ikw_robot_q()[v] <= upper[v]),
                  "%s trial %d: variable %d = %g outside [%g, %g]", name, trial, v, (double)ikw_robot_q()[v],
                  (double)lower[v], (double)upper[v]);
        ik_robot_fk(reference, ikw_robot_q(), &tip, NULL);
        CHECK(frame_distance(tip_frame, &tip) < 1e-4f, "%s: the native chain's FK at the page's solution", name);
    }
}

/* A hand-written arm (no files needed): base turn about z, shoulder and
 * elbow about y, a slide along x mimicked by a second slide at half its
 * value, a wrist about y, a continuous roll about x, a fixed tool; read by
 * the library in the page and natively, the same chain. */
static void test_robot_hand_written(void) {
#define J(name, type, parent, child, origin, axis, limit)                                                        \
    "<joint name=\"" name "\" type=\"" type "\"><parent link=\"" parent "\"/><child link=\"" child "\"/>" origin \
    "<axis xyz=\"" axis "\"/>" limit "</joint>\n"
    static const char text[] =
        "<robot name=\"hand_written\"><link name=\"l0\"/><link name=\"l1\"/><link name=\"l2\"/><link name=\"l3\"/>"
        "<link name=\"l4\"/><link name=\"l5\"/><link name=\"l6\"/><link name=\"l7\"/><link name=\"tool\"/>\n" J(
            "base", "revolute", "l0", "l1", "<origin xyz=\"0 0 0.3\"/>", "0 0 2",
            "<limit lower=\"-2.5\" upper=\"2.5\"/>")
            J("shoulder", "revolute", "l1", "l2", "<origin rpy=\"0.3 -0.2 0.5\"/>", "0 1 0",
              "<limit lower=\"-1.5\" upper=\"1.5\"/>") J("elbow", "revolute", "l2", "l3", "<origin xyz=\"0.4 0 0\"/>",
                                                         "0 1 0", "<limit lower=\"-2.4\" upper=\"2.4\"/>")
                J("slide", "prismatic", "l3", "l4", "<origin xyz=\"0.4 0 0\"/>", "1 0 0",
                  "<limit lower=\"0\" upper=\"0.2\"/>")
                    J("follower", "prismatic", "l4", "l5", "", "1 0 0",
                      "<limit lower=\"0\" upper=\"0.1\"/><mimic joint=\"slide\" multiplier=\"0.5\"/>")
                        J("wrist", "revolute", "l5", "l6", "", "0 1 0", "<limit lower=\"-2\" upper=\"2\"/>")
                            J("roll", "continuous", "l6", "l7", "<origin xyz=\"0.1 0 0\"/>", "1 0 0", "")
                                J("flange", "fixed", "l7", "tool", "<origin xyz=\"0.1 0 0\" rpy=\"0.3 -0.2 0.5\"/>",
                                  "1 0 0", "") "</robot>";
#undef J
    ik_robot_chain reference;
    ik_urdf *u = NULL;
    ik_error err;
    int trial;
    CHECK(read_robot(text) == 0 && ikw_robot_tip_count() == 1 && ikw_robot_tip(0) == link_index("tool"),
          "hand-written arm: %s", ikw_message());
    CHECK(strcmp(ikw_robot_name(), "hand_written") == 0 && ikw_robot_link_count() == 9 &&
              ikw_robot_urdf_joint_count() == 8,
          "what the page is told");
    CHECK(ikw_robot_use(ikw_robot_tip(0)) == 0, "chain: %s", ikw_message());
    CHECK(ikw_robot_joint_count() == 8 && ikw_robot_variable_count() == 6, "the mimic shares its leader's variable: %d",
          ikw_robot_variable_count());
    CHECK(ikw_robot_joints()[4 * 3] == IK_ROBOT_PRISMATIC && ikw_robot_joints()[4 * 7] == IK_ROBOT_FIXED &&
              fabsf(ikw_robot_joints()[4 * 0 + 3] - 1) < 1e-6f,
          "joint types and unit axes for the drawing");
    CHECK(strcmp(ikw_robot_variable_name(3), "slide") == 0 && strcmp(ikw_robot_variable_name(5), "roll") == 0,
          "variables named after their joints: %s %s", ikw_robot_variable_name(3), ikw_robot_variable_name(5));
    CHECK(ik_urdf_read_memory(text, sizeof text - 1, &u, &err) == IK_OK &&
              ik_urdf_robot_chain(u, "l0", "tool", &reference, NULL, &err) == IK_OK,
          "native: %s", err.message);
    if (!u) return;
    for (trial = 0; trial < 10; ++trial) {
        rng random = rng_seeded((uint64_t)trial + 3);
        ik_real lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS];
        ik_bool limited[IK_ROBOT_MAX_JOINTS];
        ik_transform links_bs[IK_ROBOT_MAX_JOINTS], tip;
        int v, k;
        ik_robot_variable_limits(&reference, lower, upper, limited, NULL);
        for (v = 0; v < reference.variable_count; ++v)
            ikw_robot_q()[v] = limited[v] ? rng_range(&random, lower[v], upper[v]) : rng_range(&random, -3, 3);
        CHECK(ikw_robot_pose() == 0, "pose");
        ik_robot_fk(&reference, ikw_robot_q(), &tip, links_bs);
        for (k = 0; k < reference.joint_count; ++k)
            CHECK(frame_distance(k + 1, &links_bs[k]) < 1e-6f && frame_angle(k + 1, links_bs[k].rotation) < 1e-5f,
                  "hand-written: link %d", k);
    }
    solve_reachable_goals(&reference, "hand-written arm");
    ik_urdf_free(u);
}

/* The UR5, the Panda and the IRB 2400 read in the page by the library (its
 * tip menu best first: the Panda's hand's tool point; among equals the
 * first in the file, the UR5's ee_link), each to a tip (the
 * Panda to a finger: its mimic joint's leader is outside the chain, so it
 * gets a variable of its own): the same chain as ik_urdf_robot_chain's
 * natively (variable count, FK of every link at random configurations),
 * and solves whose tip lands on the goal. */
static void test_robot_urdf(void) {
    static const char *const files[3][4] = {{"ur5_joint_limited_robot.urdf", "world", "tool0", "ee_link"},
                                            {"panda.urdf", "panda_link0", "panda_rightfinger", "panda_hand_tcp"},
                                            {"abb_irb2400.urdf", NULL, "tool0", "tool0"}};
    const char *data = getenv("IKIT_DATA");
    int which;
    for (which = 0; which < 3; ++which) {
        char path[1024], *text;
        ik_urdf *u = NULL;
        ik_error err;
        ik_robot_chain reference;
        ik_transform links_bs[IK_ROBOT_MAX_JOINTS], tip;
        ik_real lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS];
        ik_bool limited[IK_ROBOT_MAX_JOINTS];
        rng random = rng_seeded(7);
        int trial, k, v;
        snprintf(path, sizeof path, "%s/urdf/%s", data ? data : "../shared/data", files[which][0]);
        if (ik_urdf_read_file(path, &u, &err) == IK_ERR_IO) {
            check_skip("real-asset corpus not found");
            return;
        }
        CHECK(u != NULL, "%s: %s", path, err.message);
        if (!u) return;
        CHECK(ik_urdf_robot_chain(u, files[which][1] ? files[which][1] : u->links[u->root_link].name, files[which][2],
                                  &reference, NULL, &err) == IK_OK,
              "%s", err.message);
        text = read_text_file(path);
        CHECK(text && read_robot(text) == 0, "%s: %s", path, ikw_message());
        free(text);
        CHECK(ikw_robot_tip(0) == link_index(files[which][3]), "%s: first tip '%s'", files[which][0],
              ikw_robot_link_name(ikw_robot_tip(0)));
        CHECK(ikw_robot_use(link_index(files[which][2])) == 0, "%s: %s", path, ikw_message());
        CHECK(
            ikw_robot_joint_count() == reference.joint_count && ikw_robot_variable_count() == reference.variable_count,
            "%s: %d joints, %d variables (reader: %d, %d)", files[which][0], ikw_robot_joint_count(),
            ikw_robot_variable_count(), reference.joint_count, reference.variable_count);
        ik_robot_variable_limits(&reference, lower, upper, limited, NULL);
        for (trial = 0; trial < 10; ++trial) {
            for (v = 0; v < reference.variable_count; ++v) ikw_robot_q()[v] = rng_range(&random, lower[v], upper[v]);
            CHECK(ikw_robot_pose() == 0, "pose");
            ik_robot_fk(&reference, ikw_robot_q(), &tip, links_bs);
            for (k = 0; k < reference.joint_count; ++k)
                CHECK(frame_distance(k + 1, &links_bs[k]) < 1e-6f && frame_angle(k + 1, links_bs[k].rotation) < 1e-5f,
                      "%s: link %d at %g, turned %g from the reader's", files[which][0], k,
                      (double)frame_distance(k + 1, &links_bs[k]), (double)frame_angle(k + 1, links_bs[k].rotation));
        }
        solve_reachable_goals(&reference, files[which][0]);
        ik_urdf_free(u);
    }
}

/* Bad documents are refused with the library's own message (the reader's,
 * as ikc prints it) and the loaded arm stays; a bad tip is refused; bad
 * goals fail the solve and leave the pose. */
static void test_robot_bad_input(void) {
    static const char *const bad[] = {
        "<robot name=\"r\"><link name=\"a\"/><joint name=\"j\" type=\"revolute\">",
        "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/><joint name=\"j\" type=\"revolute\"><parent "
        "link=\"a\"/><child link=\"b\"/></joint></robot>",
        "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/><joint name=\"j\" type=\"revolute\"><parent "
        "link=\"a\"/><child link=\"b\"/><axis xyz=\"0 0 0\"/><limit/></joint></robot>",
        "<robot name=\"r\"><link name=\"a\"/></robot>",
        "<!DOCTYPE robot [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><robot name=\"&x;\"/>",
        "",
    };
    float before[14];
    int n = ikw_robot_joint_count(), i, tip = ikw_robot_tip(0);
    memcpy(before, ikw_robot_frames() + 7 * n - 7, sizeof before);
    for (i = 0; i < (int)(sizeof bad / sizeof bad[0]); ++i) {
        ik_urdf *u = NULL;
        ik_error err;
        ik_result native = ik_urdf_read_memory(bad[i], strlen(bad[i]), &u, &err);
        int r = read_robot(bad[i]);
        if (native == IK_OK) { /* read, but nothing moves: the page's own refusal */
            CHECK(r == IK_ERR_NOT_FOUND && strcmp(ikw_message(), "no joint moves a link") == 0, "case %d: %s", i,
                  ikw_message());
        } else {
            CHECK(r == (int)native && strcmp(ikw_message(), err.message) == 0, "case %d: '%s', the library's '%s'", i,
                  ikw_message(), err.message);
        }
        ik_urdf_free(u);
    }
    CHECK(ikw_robot_tip(0) == tip, "the loaded robot's tips stay");
    CHECK(read_robot("<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/><joint name=\"j\" type=\"fixed\"><parent "
                     "link=\"a\"/><child link=\"b\"/></joint></robot>") == 0 &&
              ikw_robot_use(ikw_robot_tip(0)) == IK_ERR_RANGE &&
              strcmp(ikw_message(), "the chain has no moving joint") == 0 && ikw_robot_tip(0) == tip,
          "nothing moves: %s; the loaded robot stays", ikw_message());
    CHECK(ikw_robot_use(-1) != 0 && ikw_robot_use(1 << 20) != 0, "no such tip");
    CHECK(ikw_robot_joint_count() == n && memcmp(before, ikw_robot_frames() + 7 * n - 7, sizeof before) == 0,
          "the loaded arm stays after bad files");
    CHECK(ikw_robot_solve(NAN, 0, 0, 0, 0, 0, 1, 1, 1) == IK_ERR_NONFINITE, "NaN goal");
    CHECK(ikw_robot_solve(0, 0, 0, 0, 0, 0, 0, 1, 1) != 0, "a zero goal rotation");
    CHECK(memcmp(before, ikw_robot_frames() + 7 * n - 7, sizeof before) == 0, "failed solves leave the pose");
}

/* The built-in figure's body: capsules round its bones at the rest pose
 * (every vertex within the thickest radius of a bone, the figure's height
 * from the toes' underside to the top of the head), four skinning weights
 * summing to one on joints that exist, triangles on its vertices; none for
 * a figure handed in from a file. */
static void test_body_mesh(void) {
    const float height = 1.8f, thickest = 0.095f * height; /* the chest's radius (ik_humanoid_build_body) */
    float lo = 1e9f, hi = -1e9f, worst = 0, worst_sum = 0;
    int v, t, i, k, bad = 0, parents[IK_HUMANOID_BUILT_JOINTS], at = 0;
    const char *names[IK_HUMANOID_BUILT_JOINTS];
    ik_transform rest[IK_HUMANOID_BUILT_JOINTS];
    CHECK(ikw_body_init(height) == 0, "built-in");
    v = ikw_body_mesh_build();
    t = ikw_body_mesh_triangle_count();
    CHECK(v > 1000 && t > 2000, "a body of %d vertices, %d triangles", v, t);
    if (v <= 0) return;
    for (i = 0; i < v; ++i) {
        const float *p = ikw_body_mesh_positions() + 3 * i;
        float sum = 0, nearest = 1e9f;
        int j;
        for (k = 0; k < 4; ++k) {
            int joint = ikw_body_mesh_joints()[4 * i + k];
            float w = ikw_body_mesh_weights()[4 * i + k];
            bad += joint < 0 || joint >= ikw_body_joint_count() || !(w >= 0);
            sum += w;
        }
        worst_sum = fmaxf(worst_sum, fabsf(sum - 1));
        /* the distance to the nearest bone (joint to parent), a leaf's capsule counted by its length */
        for (j = 1; j < ikw_body_joint_count(); ++j) {
            const float *a = ikw_body_positions() + 3 * ikw_body_parents()[j], *b = ikw_body_positions() + 3 * j;
            float d[3], e[3], dd = 0, de = 0, u, q[3];
            for (k = 0; k < 3; ++k) d[k] = b[k] - a[k], e[k] = p[k] - a[k], dd += d[k] * d[k], de += d[k] * e[k];
            /* up to 0.6 past the end: the head's and the hands' leaves */
            u = dd > 0 ? fminf(1.6f, fmaxf(0, de / dd)) : 0;
            for (k = 0; k < 3; ++k) q[k] = a[k] + u * d[k];
            nearest = fminf(nearest, dist3(p, q));
        }
        worst = fmaxf(worst, nearest);
        lo = fminf(lo, p[1]);
        hi = fmaxf(hi, p[1]);
    }
    CHECK(bad == 0 && worst_sum < 1e-5f, "skin weights: %d bad, sums off by %g", bad, (double)worst_sum);
    CHECK(worst <= thickest * 1.001f, "every vertex within the thickest radius of a bone (%g, at most %g)",
          (double)worst, (double)thickest);
    CHECK(lo < 0 && lo > -0.06f && hi > height && hi < height + 0.06f, "the body from %g to %g", (double)lo,
          (double)hi);
    for (i = 0, bad = 0; i < 3 * t; ++i) bad += ikw_body_mesh_indices()[i] < 0 || ikw_body_mesh_indices()[i] >= v;
    CHECK(bad == 0, "triangles on the body's vertices (%d bad indices)", bad);

    /* the same skeleton handed in as a file's: no capsules */
    ik_humanoid_build_skeleton(height, IK_HUMANOID_BUILT_JOINTS, parents, names, rest);
    for (i = 0; i < IK_HUMANOID_BUILT_JOINTS; ++i) {
        float *r = &ikw_body_rest_buffer()[10 * i];
        size_t len = strlen(names[i]) + 1;
        memcpy(ikw_text_buffer() + at, names[i], len);
        at += (int)len;
        ikw_body_parent_buffer()[i] = parents[i];
        r[0] = (float)rest[i].translation.x, r[1] = (float)rest[i].translation.y, r[2] = (float)rest[i].translation.z;
        r[3] = 0, r[4] = 0, r[5] = 0, r[6] = 1, r[7] = 1, r[8] = 1, r[9] = 1;
    }
    CHECK(ikw_body_load(IK_HUMANOID_BUILT_JOINTS, at) == 0 && ikw_body_mesh_build() == -1 &&
              ikw_body_mesh_triangle_count() == 0,
          "a file's figure gets no capsules: %s", ikw_message());
}

/* Full-body mode through the page's calls (web/body_full.c): the built-in
 * figure on flat ground, both feet pinned, balance on, the right hand's
 * target carried over 40 frames (each warm-started from the last) from the
 * hand to 1.3 arm lengths from the shoulder, ahead, to the side and a
 * little below it: every frame finite with the ankles where they stood
 * (1e-3) and the centre of mass inside the support; at the end the hand on
 * its target (1e-3), the residual readout that distance, the hips and chest
 * moved to let it, the report in words. The head's target is reached too;
 * a foot dragged off the ground steps while the body stands on the other.
 * Back in per-limb mode the figure stands as before. A NaN target is
 * refused with a message and the pose kept. */
static void test_body_full(void) {
    static float start[3 * 256], before[3 * 256];
    const float *p;
    int hips, chest, shoulder, elbow, hand, head, f, j, n;
    float arm, from[3], target[3], dir[3] = {-0.55f, -0.2f, 0.81f}, len, headGoal[3], standing[3];
    check_property feet = {"full body: ankles held while the hand moves", 0, 0},
                   finite = {"full body: finite poses", 0, 0}, kept = {"full body: balance kept", 0, 0};
    CHECK(ikw_body_init(1.8f) == 0 && ikw_body_ground(1, 0) == 0, "built-in on flat ground");
    for (j = 0; j < IK_LIMB_COUNT; ++j) ikw_body_goal(j, 0, 0, 0, 0);
    ikw_body_head_goal(0, 0, 0, 0);
    CHECK(ikw_body_full(0, 1) == 0 && ikw_body_solve(1) == 0, "per-limb: %s", ikw_message());
    hips = ikw_body_role_joint(IK_ROLE_HIPS);
    memcpy(standing, &ikw_body_positions()[3 * hips], sizeof standing);
    CHECK(ikw_body_full(1, 1) == 0 && ikw_body_solve(1) == 0, "full body: %s", ikw_message());
    n = ikw_body_joint_count();
    memcpy(start, ikw_body_positions(), (size_t)(3 * n) * sizeof *start);
    chest = ikw_body_role_joint(IK_ROLE_CHEST);
    shoulder = ikw_body_role_joint(IK_ROLE_UPPER_ARM_R), elbow = ikw_body_role_joint(IK_ROLE_FOREARM_R);
    hand = ikw_body_role_joint(IK_ROLE_HAND_R), head = ikw_body_role_joint(IK_ROLE_HEAD);
    CHECK(hips >= 0 && chest >= 0 && shoulder >= 0 && elbow >= 0 && hand >= 0 && head >= 0 &&
              ikw_body_role_joint(IK_ROLE_COUNT) == -1,
          "roles' joints");
    arm = dist3(&start[3 * shoulder], &start[3 * elbow]) + dist3(&start[3 * elbow], &start[3 * hand]);
    len = sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    for (j = 0; j < 3; ++j) {
        from[j] = ikw_body_limb_ends()[3 * IK_LIMB_ARM_R + j];
        target[j] = start[3 * shoulder + j] + 1.3f * arm * dir[j] / len;
    }
    for (f = 1; f <= 40; ++f) {
        float t = (float)f / 40, at[3];
        for (j = 0; j < 3; ++j) at[j] = from[j] + t * (target[j] - from[j]);
        ikw_body_goal(IK_LIMB_ARM_R, 1, at[0], at[1], at[2]);
        CHECK(ikw_body_solve(1) == 0, "frame %d: %s", f, ikw_message());
        p = ikw_body_positions();
        for (j = 0; j < 3 * n; ++j) PROPERTY_CASE(finite, isfinite(p[j]), "frame %d value %d", f, j);
        for (j = IK_LIMB_LEG_L; j <= IK_LIMB_LEG_R; ++j) {
            float held = dist3(&ikw_body_limb_ends()[3 * j], &start[3 * ikw_body_limb_end(j)]);
            PROPERTY_CASE(feet, held < 1e-3f, "frame %d: ankle %d moved %g", f, j, (double)held);
        }
        PROPERTY_CASE(kept, ikw_body_balance()[0] == (float)IK_BALANCE_KEPT && ikw_body_balance()[1] >= 0,
                      "frame %d: balance %g, %g inside", f, (double)ikw_body_balance()[0],
                      (double)ikw_body_balance()[1]);
    }
    property_end(&feet);
    property_end(&finite);
    property_end(&kept);
    p = ikw_body_positions();
    CHECK(dist3(&p[3 * hand], target) < 1e-3f, "full body: the hand 1.3 arm lengths out on its target: %g",
          (double)dist3(&p[3 * hand], target));
    CHECK(fabsf(ikw_body_residual(IK_LIMB_ARM_R) - dist3(&p[3 * hand], target)) < 1e-5f, "residual readout %g",
          (double)ikw_body_residual(IK_LIMB_ARM_R));
    CHECK(dist3(&p[3 * hips], &start[3 * hips]) > 0.03f && dist3(&p[3 * chest], &start[3 * chest]) > 0.1f,
          "full body: the hips moved %g, the chest %g", (double)dist3(&p[3 * hips], &start[3 * hips]),
          (double)dist3(&p[3 * chest], &start[3 * chest]));
    CHECK(ikw_body_balance()[6] >= 3 && strstr(ikw_body_full_summary(), "reached: right_hand") != NULL &&
              strstr(ikw_body_full_summary(), "balanced") != NULL,
          "full body: the report: %d corners, \"%s\"", (int)ikw_body_balance()[6], ikw_body_full_summary());

    /* the head's target, 15 cm ahead and 10 cm down, with the hand still out */
    for (j = 0; j < 3; ++j) headGoal[j] = start[3 * head + j] + (j == 2 ? 0.15f : j == 1 ? -0.1f : 0);
    for (f = 0; f < 10; ++f) {
        ikw_body_head_goal(1, headGoal[0], headGoal[1], headGoal[2]);
        CHECK(ikw_body_solve(1) == 0, "head frame %d: %s", f, ikw_message());
    }
    p = ikw_body_positions();
    CHECK(dist3(&p[3 * head], headGoal) < 1e-3f && dist3(&p[3 * hand], target) < 1e-3f,
          "full body: head on its target (%g), the hand still (%g)", (double)dist3(&p[3 * head], headGoal),
          (double)dist3(&p[3 * hand], target));
    ikw_body_head_goal(0, 0, 0, 0);

    /* the left foot dragged 20 cm up and 10 cm ahead: it steps (no support), the
     * body balances over the right foot, which stays */
    ikw_body_goal(IK_LIMB_ARM_R, 0, 0, 0, 0);
    {
        const float *foot = &start[3 * ikw_body_limb_end(IK_LIMB_LEG_L)];
        const float *stand = &start[3 * ikw_body_limb_end(IK_LIMB_LEG_R)];
        float step[3], over;
        step[0] = foot[0], step[1] = foot[1] + 0.2f, step[2] = foot[2] + 0.1f;
        for (f = 0; f < 15; ++f) {
            ikw_body_goal(IK_LIMB_LEG_L, 1, step[0], step[1], step[2]);
            CHECK(ikw_body_solve(1) == 0, "step frame %d: %s", f, ikw_message());
        }
        over = hypotf(ikw_body_balance()[3] - stand[0], ikw_body_balance()[5] - stand[2]);
        CHECK(dist3(&ikw_body_limb_ends()[3 * IK_LIMB_LEG_L], step) < 1e-3f &&
                  dist3(&ikw_body_limb_ends()[3 * IK_LIMB_LEG_R], stand) < 1e-3f,
              "full body: the left foot on its step (%g), the right held (%g)",
              (double)dist3(&ikw_body_limb_ends()[3 * IK_LIMB_LEG_L], step),
              (double)dist3(&ikw_body_limb_ends()[3 * IK_LIMB_LEG_R], stand));
        CHECK(ikw_body_balance()[0] == (float)IK_BALANCE_KEPT && over < 0.12f,
              "full body on one foot: balanced (%g), the centre of mass %g from over the right ankle: %s",
              (double)ikw_body_balance()[0], (double)over, ikw_body_full_summary());
        ikw_body_goal(IK_LIMB_LEG_L, 0, 0, 0, 0);
    }

    /* bad input: refused, the pose kept */
    memcpy(before, ikw_body_positions(), (size_t)(3 * n) * sizeof *before);
    ikw_body_goal(IK_LIMB_ARM_R, 1, NAN, 0, 0);
    CHECK(ikw_body_solve(1) == IK_ERR_NONFINITE && ikw_message()[0] != '\0', "NaN target: %s", ikw_message());
    CHECK(memcmp(before, ikw_body_positions(), (size_t)(3 * n) * sizeof *before) == 0, "pose kept after a NaN target");

    /* per-limb again: the hand reaches what its arm can, the hips stand where they stood */
    ikw_body_goal(IK_LIMB_ARM_R, 1, target[0], target[1], target[2]);
    CHECK(ikw_body_full(0, 1) == 0 && ikw_body_solve(1) == 0, "per-limb again");
    p = ikw_body_positions();
    CHECK(dist3(&p[3 * hips], standing) < 1e-4f && dist3(&p[3 * hand], target) > 0.1f,
          "per-limb again: the hips back (%g), the hand short (%g)", (double)dist3(&p[3 * hips], standing),
          (double)dist3(&p[3 * hand], target));
    ikw_body_goal(IK_LIMB_ARM_R, 0, 0, 0, 0);
}

/* ---- the robot's cell (web/robot_cell.c) ---------------------------------- */

/* The test's own lower bound on the clearance of the page's drawn capsules
 * to its obstacles (axis-aligned boxes, an upright cylinder, a sphere:
 * the cell's shapes, read back from ikw_robot_cell_obstacles), capsules
 * sampled every 2 mm along their axes and 1 mm taken off for what lies
 * between samples. `skip_first`: the base's capsule stands on the table. */
static double own_clearance(int skip_first) {
    const float *o = ikw_robot_cell_obstacles(), *c = ikw_robot_cell_capsules();
    double least = 1e30;
    int k, i, s;
    for (i = skip_first; i < ikw_robot_cell_capsule_count(); ++i) {
        const float *a = &c[8 * i], *b = &c[8 * i + 3];
        double length =
            sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) + (b[2] - a[2]) * (b[2] - a[2]));
        int steps = 1 + (int)(length / 0.002);
        for (s = 0; s <= steps; ++s) {
            double p[3], t = (double)s / steps;
            p[0] = a[0] + t * (b[0] - a[0]), p[1] = a[1] + t * (b[1] - a[1]), p[2] = a[2] + t * (b[2] - a[2]);
            for (k = 0; k < 4; ++k) {
                const float *f = &o[11 * k];
                double d = 0, q[3];
                int j;
                for (j = 0; j < 3; ++j) q[j] = p[j] - f[1 + j];
                if (f[0] == IK_OBSTACLE_BOX) {
                    for (j = 0; j < 3; ++j) {
                        double out = fabs(q[j]) - f[8 + j] / 2;
                        d += out > 0 ? out * out : 0;
                    }
                    d = sqrt(d);
                } else if (f[0] == IK_OBSTACLE_SPHERE) {
                    d = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]) - f[8];
                } else {
                    double radial = sqrt(q[0] * q[0] + q[1] * q[1]) - f[8], along = fabs(q[2]) - f[9] / 2;
                    radial = radial > 0 ? radial : 0, along = along > 0 ? along : 0;
                    d = sqrt(radial * radial + along * along);
                }
                d -= c[8 * i + 6] + 0.001;
                if (d < least) least = d;
            }
        }
    }
    return least;
}

/* The built-in arm in its cell: goals at free configurations are solved
 * collision-free through the page's API (reached, free by the page's check,
 * and clear of the obstacles by the test's own distances); a pose forced
 * into the table or the wall is reported with its contacts and the links in
 * contact marked; with the cell off nothing is checked. */
static void test_robot_cell(void) {
    char *text = read_text_file(IKIT_SOURCE_DIR "/examples/six_axis_arm.urdf");
    ik_urdf *u = NULL;
    ik_error err;
    ik_robot_chain reference;
    ik_real lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS], q[IK_ROBOT_MAX_JOINTS];
    ik_bool limited[IK_ROBOT_MAX_JOINTS];
    rng random = rng_seeded(29);
    int goals = 0, solved = 0, tries = 0, forced = 0, v, n, i;
    double margin = ikw_robot_cell_margin();
    CHECK(text != NULL, "examples/six_axis_arm.urdf");
    if (!text) return;
    CHECK(read_robot(text) == 0 && ikw_robot_use(ikw_robot_tip(0)) == 0, "%s", ikw_message());
    CHECK(ik_urdf_read_memory(text, strlen(text), &u, &err) == IK_OK &&
              ik_urdf_robot_chain(u, "base", "tool", &reference, NULL, &err) == IK_OK,
          "%s", err.message);
    free(text);
    n = reference.variable_count;
    ik_robot_variable_limits(&reference, lower, upper, limited, NULL);
    CHECK(ikw_robot_cell(0) == 0 && ikw_robot_pose() == 0 && ikw_robot_cell_free() == -1 &&
              ikw_robot_cell_capsule_count() == 0,
          "cell off: nothing checked");
    CHECK(ikw_robot_cell(1) == 4 && ikw_robot_pose() == 0, "cell on: four obstacles");
    CHECK(ikw_robot_cell_free() == 1 && ikw_robot_cell_capsule_count() >= 5 && own_clearance(1) >= margin - 1e-3 &&
              strstr(ikw_robot_cell_closest(), "-") != NULL,
          "the start pose is free (%d, clearance %g, own %g, %d capsules, closest %s)", ikw_robot_cell_free(),
          (double)ikw_robot_cell_clearance(), own_clearance(1), ikw_robot_cell_capsule_count(),
          ikw_robot_cell_closest());
    while (goals < 30 && tries < 5000) {
        ik_transform goal, tip;
        int frame;
        ++tries;
        for (v = 0; v < n; ++v) ikw_robot_q()[v] = q[v] = rng_range(&random, lower[v], upper[v]);
        ikw_robot_pose();
        if (ikw_robot_cell_free() != 1) continue;
        ++goals;
        ik_robot_fk(&reference, q, &goal, NULL);
        /* from the start pose, one solve per frame as the page does, at most 5 frames */
        for (v = 0; v < n; ++v) ikw_robot_q()[v] = 0;
        ikw_robot_pose();
        for (frame = 0; frame < 5 && (frame == 0 || !ikw_robot_reached() || ikw_robot_cell_free() != 1); ++frame)
            CHECK(ikw_robot_solve((float)goal.translation.x, (float)goal.translation.y, (float)goal.translation.z,
                                  (float)goal.rotation.x, (float)goal.rotation.y, (float)goal.rotation.z,
                                  (float)goal.rotation.w, 1, 1) == 0,
                  "cell solve: %s", ikw_message());
        ik_robot_fk(&reference, ikw_robot_q(), &tip, NULL);
        if (ikw_robot_reached() && ikw_robot_cell_free() == 1) {
            ++solved;
            CHECK(frame_distance(reference.joint_count, &goal) < 1e-3f &&
                      ik_vec3_distance(tip.translation, goal.translation) < 1e-3f &&
                      frame_angle(reference.joint_count, goal.rotation) < 2e-3f,
                  "goal %d: the tool %g m from the goal", goals,
                  (double)ik_vec3_distance(tip.translation, goal.translation));
            CHECK(ikw_robot_cell_clearance() >= margin && own_clearance(1) >= margin - 1e-3,
                  "goal %d: free by the page's check (clearance %g) and the test's (%g)", goals,
                  (double)ikw_robot_cell_clearance(), own_clearance(1));
            for (v = 0; v < n; ++v)
                CHECK(!limited[v] || (ikw_robot_q()[v] >= lower[v] && ikw_robot_q()[v] <= upper[v]),
                      "goal %d: variable %d outside its limits", goals, v);
        }
    }
    CHECK(goals == 30 && solved >= 29, "%d of %d goals at free configurations solved collision-free", solved, goals);
    printf("robot cell: %d of %d free goals solved collision-free (%d configurations drawn)\n", solved, goals, tries);

    /* forced: shoulder and elbow folded down into the table, or back into the wall */
    for (i = 0; i < 200 && forced == 0; ++i) {
        int marked = 0, c;
        for (v = 0; v < n; ++v) ikw_robot_q()[v] = rng_range(&random, lower[v], upper[v]);
        ikw_robot_pose();
        if (ikw_robot_cell_free() != 0) continue;
        forced = 1;
        for (c = 0; c < ikw_robot_cell_capsule_count(); ++c) marked += ikw_robot_cell_capsules()[8 * c + 7] == 1.0f;
        CHECK(ikw_robot_cell_contact_count() > 0 && marked > 0 && ikw_robot_cell_clearance() < margin &&
                  strlen(ikw_robot_cell_contacts()) > 0,
              "a pose in contact: %d contacts (%s), %d capsules marked, clearance %g", ikw_robot_cell_contact_count(),
              ikw_robot_cell_contacts(), marked, (double)ikw_robot_cell_clearance());
    }
    CHECK(forced, "a random pose in contact was found");
    ikw_robot_cell(0);
    ik_urdf_free(u);
}

int main(void) {
    if (web_load_tail() != 0) {
        fprintf(stderr, "test_web_glue: examples/tail.chain: %s\n", ikw_message());
        return 1;
    }
    test_tail_follows();
    test_chain_bad_input();
    test_planar();
    test_planar_keys();
    test_planar_tangents();
    test_body();
    test_body_mesh();
    test_body_full();
    test_body_limb_solvers();
    test_body_bvh();
    test_body_clip_floor();
    test_figure_check();
    test_robot_hand_written();
    test_robot_urdf();
    test_robot_bad_input();
    test_robot_cell();
    return check_summary("web_glue");
}

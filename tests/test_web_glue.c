/* The playground's C API (web/ikit_web.c, web/planar_keys.c), natively: the
 * calls the page makes, checked on geometry (the end where it should be,
 * bone lengths kept) and on bad input (an error and a message, the state
 * before kept or nothing left half-loaded). The browser test
 * (tests/js/playground.mjs) drives the same calls through the page. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <ikit/planar_chain.h>
#include <ikit/humanoid.h>

#include "../web/ikit_web.h"
#include "support/check.h"
#include "support/rng.h"

static float dist3(const float *a, const float *b) {
    return sqrtf((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

/* examples/tail.chain beside this source, loaded. */
static int load_tail(void) {
    char path[1024];
    const char *here = __FILE__, *cut = strstr(here, "tests/test_web_glue.c");
    FILE *f;
    size_t n;
    snprintf(path, sizeof path, "%.*sexamples/tail.chain", cut ? (int)(cut - here) : 0, here);
    f = fopen(path, "rb");
    if (!f) return -1;
    n = fread(ikw_text_buffer(), 1, (size_t)ikw_text_capacity(), f);
    fclose(f);
    return ikw_chain_load((int)n);
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
                PROPERTY_CASE(bones, fabsf(dist3(&p[3 * j], &p[3 * parents[j]]) - dist3(&rest[3 * j], &rest[3 * parents[j]])) < 1e-4f,
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
    CHECK(ikw_chain_solve(3, 0, 0, 0, 0, 0, 1) == IK_ERR_RANGE && ikw_chain_solve(0, IKW_METHOD_COUNT, 0, 0, 0, 0, 1) == IK_ERR_RANGE &&
              ikw_chain_solve(0, 0, 0, 0, 0, 0, 0) == IK_ERR_RANGE,
          "bad slot, method, repeats");
    CHECK(ikw_chain_solve(0, IKW_DLS_SPRINGS, NAN, 0, 0, 0, 1) == IK_ERR_NONFINITE, "NaN target");
    CHECK(ikw_chain_solve(0, IKW_FABRIK, 0, INFINITY, 0, 0, 1) == IK_ERR_NONFINITE, "infinite target");
    CHECK(memcmp(before, ikw_chain_positions(0), (size_t)(3 * n) * sizeof *before) == 0, "pose unchanged by failed solves");
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
            CHECK(ikw_planar_solve(6, joint, method, 0.5f, -0.25f, tx, ty, method == IK_PLANAR_CHAIN_GRADIENT ? 2000 : 200, 1) == 0,
                  "solve");
            xy = ikw_planar_xy();
            PROPERTY_CASE(reach, hypotf((float)xy[2 * joint] - tx, (float)xy[2 * joint + 1] - ty) <= 1.01e-3f,
                          "method %d joint %d: %g", method, joint, (double)hypotf((float)xy[2 * joint] - tx, (float)xy[2 * joint + 1] - ty));
            for (i = 0; i < 6; ++i) {
                float l = hypotf((float)(xy[2 * i + 2] - xy[2 * i]), (float)(xy[2 * i + 3] - xy[2 * i + 1]));
                PROPERTY_CASE(shape, fabsf(l - lengths[i]) < 1e-4f, "bone %d", i);
                if (i >= joint) PROPERTY_CASE(shape, ikw_planar_angles()[i] == after[i], "bone %d after the joint turned", i);
            }
        }
    }
    property_end(&reach);
    property_end(&shape);
    CHECK(ikw_planar_solve(6, 0, 0, 0, 0, 1, 1, 50, 1) == IK_ERR_RANGE && ikw_planar_solve(6, 7, 0, 0, 0, 1, 1, 50, 1) == IK_ERR_RANGE,
          "joint out of range");
    CHECK(ikw_planar_solve(6, 6, 0, 0, 0, NAN, 1, 50, 1) == IK_ERR_NONFINITE, "NaN target");
    CHECK(ikw_planar_fk(0, 0, 0) == IK_ERR_RANGE && ikw_planar_fk(ikw_planar_max_bones() + 1, 0, 0) == IK_ERR_RANGE, "fk counts");
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
    for (i = 0; i < 3; ++i) CHECK(fabsf((float)(ikw_planar_sampled()[i] - (first[i] + second[i]) / 2)) < 1e-6f, "mean at bone %d", i);
    CHECK(ikw_planar_pose_at(2, 0, 0) == 0, "pose at the second key");
    for (i = 0; i < 3; ++i) CHECK(ikw_planar_angles()[i] == second[i], "second key at bone %d", i);
    CHECK(ikw_planar_key(3, NAN) == -1 && ikw_planar_key(3, -1) == -1 && ikw_planar_key(0, 1) == -1, "bad keys refused");
    CHECK(ikw_planar_key_count() == 2 && ikw_planar_key_time(0) == 0 && ikw_planar_key_time(1) == 2, "keys kept");
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

    /* Not a humanoid: three joints in a line. */
    memcpy(ikw_text_buffer(), "a\0b\0c\0", 6);
    for (j = 0; j < 3; ++j) ikw_body_parent_buffer()[j] = j - 1;
    CHECK(ikw_body_load(3, 6) == IK_ERR_NOT_FOUND && strstr(ikw_message(), "left_forearm: missing") != NULL, "%s",
          ikw_message());
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
        if (strcmp(ikw_body_joint_name(j), "LeftToe_End") == 0) CHECK(fabsf(y - 0.15f) < 2e-3f, "left toes on the step: %g", (double)y);
        if (strcmp(ikw_body_joint_name(j), "RightToe_End") == 0) CHECK(fabsf(y) < 2e-3f, "right toes on the floor: %g", (double)y);
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
    CHECK(ikw_input_buffer((int)size) != NULL && fread(ikw_input_buffer((int)size), 1, (size_t)size, f) == (size_t)size, "read");
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
    CHECK(ikw_body_load_bvh((int)sizeof broken - 1) == IK_ERR_PARSE && strstr(ikw_message(), "line 4") != NULL, "%s", ikw_message());
    CHECK(ikw_body_solve(1) == 0, "the figure before a malformed file stays");
    CHECK(ikw_body_load_bvh(-1) == IK_ERR_RANGE && ikw_input_buffer(-1) == NULL, "bad sizes");
}

int main(void) {
    if (load_tail() != 0) {
        fprintf(stderr, "test_web_glue: examples/tail.chain: %s\n", ikw_message());
        return 1;
    }
    test_tail_follows();
    test_chain_bad_input();
    test_planar();
    test_planar_keys();
    test_body();
    test_body_bvh();
    return check_summary("web_glue");
}

/* The readers' rest-pose overflow check (src/io/rest_check.c): the first
 * joint whose model-space rest transform is not finite, found by a cheap
 * scalar bound when the bound proves every joint finite, else by forward
 * kinematics. Checked against forward kinematics done here, joint by joint;
 * the bound is checked to hold for every joint it vouches for. */
#include <ikit/skeleton.h>
#include <math.h>
#include <string.h>

#include "../src/io/rest_check.h"
#include "support/check.h"
#include "support/rng.h"

enum { MAX_JOINTS = 100000 };

static int parents[MAX_JOINTS];
static ik_transform rest_ls[MAX_JOINTS];
static ik_mat4 model_ms[MAX_JOINTS];
static double stretch_ms[MAX_JOINTS], reach_ms[MAX_JOINTS];

/* The contract by brute force: model(j) = model(parent) local(j), with
 * root_ms (or the identity) above the roots; the first joint whose matrix
 * holds a NaN or an infinity, or -1. Leaves every matrix in model_ms. */
static int reference_overflow(int count, const ik_mat4 *root_ms) {
    int j, first = -1;
    ik_mat4 identity = ik_mat4_identity();
    for (j = 0; j < count; ++j) {
        ik_mat4 local = ik_mat4_from_trs(rest_ls[j].translation, rest_ls[j].rotation, rest_ls[j].scale);
        const ik_mat4 *above = parents[j] >= 0 ? &model_ms[parents[j]] : root_ms ? root_ms : &identity;
        int k;
        model_ms[j] = ik_mat4_mul(above, &local);
        for (k = 0; k < 16 && first < 0; ++k)
            if (!isfinite((double)model_ms[j].m[k])) first = j;
    }
    return first;
}

static ik_skeleton make_skeleton(int count) {
    ik_skeleton s;
    ik_error e;
    CHECK(ik_skeleton_init(&s, count, parents, NULL, rest_ls, &e) == IK_OK, "skeleton: %s", e.message);
    return s;
}

/* |(x, y, z)| in double, without squares that overflow near DBL_MAX. */
static double column_length(const ik_real *xyz) { return hypot(hypot((double)xyz[0], (double)xyz[1]), (double)xyz[2]); }

/* 1 when the bound holds for every joint before `stop` (the joint it gave up
 * on, or count): that joint's matrix from the reference is finite, its
 * translation no longer than reach_ms, and each column of its 3x3 part (a
 * lower bound on the matrix's 2-norm) no longer than stretch_ms. Run after
 * reference_overflow. */
static int bound_holds(int count, int stop, int *worst_joint) {
    int j, c;
    for (j = 0; j < (stop < 0 ? count : stop); ++j) {
        const ik_real *m = model_ms[j].m;
        int finite = 1, within;
        for (c = 0; c < 16; ++c) finite = finite && isfinite((double)m[c]);
        within = finite && column_length(m + 12) <= reach_ms[j];
        for (c = 0; c < 3; ++c) within = within && column_length(m + 4 * c) <= stretch_ms[j];
        if (!within) {
            *worst_joint = j;
            return 0;
        }
    }
    return 1;
}

static ik_quat turn_z(double degrees) {
    double half = degrees * 3.14159265358979323846 / 360;
    return ik_q(0, 0, (ik_real)sin(half), (ik_real)cos(half));
}

/* k q: a rotation whose length is k, not 1. */
static ik_quat quat_times(ik_quat q, ik_real k) { return ik_q(q.x * k, q.y * k, q.z * k, q.w * k); }

/* 10^e for e uniform in [lo, hi], with a random sign: magnitudes from tiny
 * to past what ik_real holds once multiplied down a chain. */
static ik_real random_magnitude(rng *g, double lo, double hi) {
    double v = pow(10, lo + (hi - lo) * rng_unit(g));
    return (ik_real)(rng_next(g) & 1 ? v : -v);
}

/* Seeded random forests (several roots, long and bushy branches) with rest
 * transforms that are tame (every bound should prove them), or wild
 * (translations and scales up to near ik_real's largest, rotations off unit
 * length by up to 1e-3, half-turns that make long offsets cancel), with no
 * root_ms, a tame one or a wild one: ik_io_rest_overflow gives the joint the
 * reference gives, and the bound holds wherever it vouches. */
static void test_random_skeletons(void) {
    double decades = log10((double)IK_REAL_MAX);
    check_property same = {"rest overflow is the reference's joint", 0, 0};
    check_property sound = {"the bound holds for every joint it vouches for", 0, 0};
    check_property tame = {"the bound proves tame skeletons finite", 0, 0};
    int trial, proved = 0, refused_finite = 0, refused_overflow = 0;
    rng g = rng_seeded(1811);
    for (trial = 0; trial < 4000; ++trial) {
        int n = 1 + (int)(rng_next(&g) % 200), wild = trial % 2, j, stop, expected, got, worst = -1;
        ik_mat4 root_ms;
        const ik_mat4 *root = NULL;
        ik_skeleton s;
        for (j = 0; j < n; ++j) {
            ik_quat q = rng_rotation(&g);
            uint64_t pick = rng_next(&g) % 8;
            parents[j] = j == 0 || pick == 0 ? -1 : pick < 5 ? j - 1 : (int)(rng_next(&g) % (uint64_t)j);
            if (wild && rng_next(&g) % 4 == 0) q = turn_z(180);
            if (wild && rng_next(&g) % 3 == 0) q = quat_times(q, (ik_real)(1 + rng_range(&g, -9e-4, 9e-4)));
            if (wild)
                rest_ls[j] =
                    ik_transform_make(ik_v3(random_magnitude(&g, -3, decades - 0.1), 0, random_magnitude(&g, -3, 2)), q,
                                      ik_v3(random_magnitude(&g, -decades / 4, decades / 4),
                                            random_magnitude(&g, -2, 2), random_magnitude(&g, -1, 1)));
            else
                rest_ls[j] = ik_transform_make(rng_in_ball(&g, 10), q,
                                               ik_v3(random_magnitude(&g, -0.1, 0.1), random_magnitude(&g, -0.1, 0.1),
                                                     random_magnitude(&g, -0.1, 0.1)));
        }
        if (trial % 3 > 0) {
            double size = trial % 3 == 1 || !wild ? 2 : decades / 2;
            root_ms = ik_mat4_from_trs(rng_in_ball(&g, pow(10, size)), rng_rotation(&g),
                                       ik_v3(random_magnitude(&g, -size, size), random_magnitude(&g, -1, 1), 1));
            root = &root_ms;
        }
        s = make_skeleton(n);
        stop = ik_io_rest_bound(&s, root, stretch_ms, reach_ms);
        got = ik_io_rest_overflow(&s, root);
        expected = reference_overflow(n, root);
        PROPERTY_CASE(same, got == expected, "trial %d, %d joints: %d, expected %d", trial, n, got, expected);
        PROPERTY_CASE(sound, bound_holds(n, stop, &worst), "trial %d: joint %d", trial, worst);
        if (!wild) PROPERTY_CASE(tame, stop == -1, "trial %d: gave up at joint %d", trial, stop);
        proved += stop < 0;
        refused_finite += stop >= 0 && expected < 0;
        refused_overflow += expected >= 0;
    }
    property_end(&same);
    property_end(&sound);
    property_end(&tame);
    CHECK(proved > 2000 && refused_finite > 10 && refused_overflow > 50,
          "the trials mix proved (%d), finite past the bound (%d) and overflowing (%d)", proved, refused_finite,
          refused_overflow);
}

/* One named case per shape of the answer. */
static void test_named_cases(void) {
    ik_real big = (ik_real)(0.75 * (double)IK_REAL_MAX), fifth = (ik_real)(0.2 * (double)IK_REAL_MAX),
            eighth = (ik_real)((double)IK_REAL_MAX / 8);
    ik_mat4 root_ms;
    ik_skeleton s;
    int j, worst = -1;
    for (j = 0; j < 4; ++j) {
        parents[j] = j - 1;
        rest_ls[j] = ik_transform_identity();
    }

    /* Two offsets of a fifth of ik_real's largest, the second turned back by
     * a half-turn of the first: the bound (their sum) gives up at joint 2,
     * whose position is the origin. */
    rest_ls[1].translation = ik_v3(fifth, 0, 0);
    rest_ls[1].rotation = turn_z(180);
    rest_ls[2].translation = ik_v3(fifth, 0, 0);
    s = make_skeleton(3);
    CHECK(ik_io_rest_bound(&s, NULL, stretch_ms, reach_ms) == 2, "the bound gives up at the cancelling joint");
    CHECK(reference_overflow(3, NULL) == -1 && ik_io_rest_overflow(&s, NULL) == -1, "cancelling offsets stay finite");
    CHECK(fabs((double)model_ms[2].m[12]) < 1 && bound_holds(3, 2, &worst), "joint 2 back at the origin");

    /* Offsets of 3/4 max without the turn: joint 2 sits at 1.5 max. */
    rest_ls[1] = ik_transform_make(ik_v3(big, 0, 0), ik_quat_identity(), ik_v3(1, 1, 1));
    rest_ls[2].translation = ik_v3(big, 0, 0);
    s = make_skeleton(3);
    CHECK(reference_overflow(3, NULL) == 2 && ik_io_rest_overflow(&s, NULL) == 2, "summed offsets overflow at joint 2");

    /* A scale of max / 8 on joint 1, an offset of 16 below it. */
    rest_ls[1] = ik_transform_make(ik_v3(0, 0, 0), ik_quat_identity(), ik_v3(eighth, eighth, eighth));
    rest_ls[2] = ik_transform_make(ik_v3(0, 16, 0), ik_quat_identity(), ik_v3(1, 1, 1));
    s = make_skeleton(3);
    CHECK(reference_overflow(3, NULL) == 2 && ik_io_rest_overflow(&s, NULL) == 2,
          "a scaled offset overflows at joint 2");

    /* Mirrored: a scale of -max / 8 along x and an offset of -16 along x. */
    rest_ls[1].scale = ik_v3(-eighth, 1, 1);
    rest_ls[2].translation = ik_v3(-16, 0, 0);
    s = make_skeleton(3);
    CHECK(reference_overflow(3, NULL) == 2 && model_ms[2].m[12] > 0 && ik_io_rest_overflow(&s, NULL) == 2,
          "a mirrored scaled offset overflows at joint 2, on the positive side");

    /* Above the roots: root_ms's offset plus joint 0's overflows at joint 0;
     * with root_ms turned by a half-turn they cancel; a root_ms scale of
     * max / 8 and an offset of 16 on joint 1 overflow at joint 1. */
    for (j = 0; j < 3; ++j) rest_ls[j] = ik_transform_identity();
    rest_ls[0].translation = ik_v3(big, 0, 0);
    root_ms = ik_mat4_from_trs(ik_v3(big, 0, 0), ik_quat_identity(), ik_v3(1, 1, 1));
    s = make_skeleton(3);
    CHECK(ik_io_rest_overflow(&s, NULL) == -1, "without root_ms: finite");
    CHECK(reference_overflow(3, &root_ms) == 0 && ik_io_rest_overflow(&s, &root_ms) == 0, "root_ms: overflow at 0");
    root_ms = ik_mat4_from_trs(ik_v3(big, 0, 0), turn_z(180), ik_v3(1, 1, 1));
    CHECK(ik_io_rest_bound(&s, &root_ms, stretch_ms, reach_ms) == 0, "the bound gives up under a turned root_ms");
    CHECK(reference_overflow(3, &root_ms) == -1 && ik_io_rest_overflow(&s, &root_ms) == -1,
          "a half-turned root_ms cancels joint 0's offset");
    rest_ls[0].translation = ik_v3(0, 0, 0);
    rest_ls[1].translation = ik_v3(0, 0, 16);
    root_ms = ik_mat4_from_trs(ik_v3(0, 0, 0), turn_z(30), ik_v3(eighth, eighth, eighth));
    CHECK(reference_overflow(3, &root_ms) == 1 && ik_io_rest_overflow(&s, &root_ms) == 1,
          "a scaled root_ms overflows at joint 1");

    /* A joint whose own local matrix overflows: a rotation 9e-4 longer than
     * unit (skeleton init allows 1e-3) makes a matrix entry 1.0018 times the
     * scale, and the scale is ik_real's largest. Its parent shrinks by 1e-3,
     * so the product's scale alone would look finite. */
    rest_ls[1] =
        ik_transform_make(ik_v3(0, 0, 0), ik_quat_identity(), ik_v3((ik_real)1e-3, (ik_real)1e-3, (ik_real)1e-3));
    rest_ls[2] = ik_transform_make(ik_v3(0, 0, 0),
                                   quat_times(ik_q((ik_real)0.70710678, 0, 0, (ik_real)0.70710678), (ik_real)1.0009),
                                   ik_v3(1, IK_REAL_MAX, 1));
    s = make_skeleton(3);
    CHECK(reference_overflow(3, NULL) == 2 && ik_io_rest_overflow(&s, NULL) == 2,
          "an overflowing local matrix at joint 2");

    /* 150 mirrored joints, each scaling by 1.5 (x and z negated): 1.5^150 is
     * 3.6e26, finite in float, and the bound proves it. */
    for (j = 0; j < 150; ++j) {
        parents[j] = j - 1;
        rest_ls[j] = ik_transform_make(ik_v3(1, 0, 0), turn_z(10), ik_v3((ik_real)-1.5, (ik_real)1.5, (ik_real)-1.5));
    }
    s = make_skeleton(150);
    CHECK(ik_io_rest_bound(&s, NULL, stretch_ms, reach_ms) == -1 && reference_overflow(150, NULL) == -1 &&
              bound_holds(150, -1, &worst) && ik_io_rest_overflow(&s, NULL) == -1,
          "150 mirrored joints scaling by 1.5 are proven finite (bound fails at %d)", worst);
}

/* The generated 100,000-joint rigs of bench_gltf (big_rig.h): a root with
 * 99,999 leaves and a 100,000-long chain, each joint 0.01 above its parent.
 * The bound proves both finite, holds, and is not loose: the chain's end is
 * 1,000 from the root and the bound says at most 2,000. */
static void test_big_rigs(void) {
    int deep, j, worst = -1;
    ik_mat4 root_ms = ik_mat4_identity();
    for (deep = 0; deep < 2; ++deep) {
        ik_skeleton s;
        for (j = 0; j < MAX_JOINTS; ++j) {
            parents[j] = deep ? j - 1 : j ? 0 : -1;
            rest_ls[j] = ik_transform_make(ik_v3(0, (ik_real)0.01, 0), ik_quat_identity(), ik_v3(1, 1, 1));
        }
        s = make_skeleton(MAX_JOINTS);
        CHECK(ik_io_rest_bound(&s, &root_ms, stretch_ms, reach_ms) == -1 && ik_io_rest_overflow(&s, &root_ms) == -1,
              "100,000 joints %s: proven finite", deep ? "deep" : "wide");
        CHECK(reference_overflow(MAX_JOINTS, &root_ms) == -1 && bound_holds(MAX_JOINTS, -1, &worst),
              "100,000 joints %s: the bound holds (joint %d)", deep ? "deep" : "wide", worst);
        if (deep)
            CHECK(reach_ms[MAX_JOINTS - 1] >= 999 && reach_ms[MAX_JOINTS - 1] <= 2000,
                  "the chain's end within %g of the root", reach_ms[MAX_JOINTS - 1]);
    }
}

int main(void) {
    test_named_cases();
    test_random_skeletons();
    test_big_rigs();
    return check_summary("rest_check");
}

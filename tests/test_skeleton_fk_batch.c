/* Batch forward kinematics against ik_skeleton_fk, pose by pose: random
 * skeletons (parents first), random poses with scales (mirrored ones
 * too), with and without root matrices, counts that are not multiples of
 * four. */
#include <ikit/skeleton.h>
#include <ikit/skeleton_fk_batch.h>
#include <string.h>

#include "support/check.h"
#include "support/rng.h"

#define MAX_JOINTS 40
#define MAX_POSES 13

static ik_transform poses[MAX_POSES * MAX_JOINTS];
static ik_mat4 batch[MAX_POSES * MAX_JOINTS + 1], single[MAX_JOINTS];

/* |a - b| within a few roundings of the matrix's size. */
static ik_bool same_matrix(const ik_mat4 *a, const ik_mat4 *b) {
    ik_real size = 1, worst = 0;
    int k;
    for (k = 0; k < 16; ++k) {
        size = ik_maxr(size, IK_FABS(b->m[k]));
        worst = ik_maxr(worst, IK_FABS(a->m[k] - b->m[k]));
    }
    return worst <= 8 * IK_REAL_EPSILON * size;
}

static void test_random_skeletons(void) {
    static const int counts[] = {1, 2, 3, 4, 5, 8, 13};
    rng r = rng_seeded(25);
    check_property same = {"batch FK equals ik_skeleton_fk for every pose and joint", 0, 0};
    int round;
    for (round = 0; round < 60; ++round) {
        int parents[MAX_JOINTS], n = 1 + (int)(rng_unit(&r) * MAX_JOINTS), count = counts[round % 7], c, j;
        ik_transform rest[MAX_JOINTS];
        ik_mat4 roots[MAX_POSES];
        ik_skeleton s;
        ik_bool use_roots = round % 2;
        for (j = 0; j < n; ++j) {
            parents[j] = j == 0 || rng_unit(&r) < 0.1 ? -1 : (int)(rng_unit(&r) * j);
            rest[j] = ik_transform_identity();
        }
        CHECK(ik_skeleton_init(&s, n, parents, NULL, rest, NULL) == IK_OK, "round %d", round);
        for (c = 0; c < count; ++c) {
            ik_real k = rng_range(&r, 0.5, 2);
            roots[c] = ik_mat4_from_trs(rng_in_ball(&r, 5), rng_rotation(&r), ik_v3(rng_unit(&r) < 0.3 ? -k : k, k, k));
            for (j = 0; j < n; ++j) {
                ik_vec3 scale = rng_unit(&r) < 0.5
                                    ? ik_v3(1, 1, 1)
                                    : ik_v3(rng_range(&r, -2, 2), rng_range(&r, 0.5, 2), rng_range(&r, 0.5, 2));
                poses[c * n + j] = ik_transform_make(rng_in_ball(&r, 2), rng_rotation(&r), scale);
            }
        }
        batch[count * n].m[0] = 7; /* past the last pose: must stay */
        CHECK(ik_skeleton_fk_batch(&s, count, poses, use_roots ? roots : NULL, batch) == IK_OK, "round %d", round);
        CHECK(batch[count * n].m[0] == 7, "round %d: wrote past the last pose", round);
        for (c = 0; c < count; ++c) {
            ik_skeleton_fk(&s, &poses[c * n], use_roots ? &roots[c] : NULL, single);
            for (j = 0; j < n; ++j)
                PROPERTY_CASE(same, same_matrix(&batch[c * n + j], &single[j]), "round %d pose %d joint %d", round, c,
                              j);
        }
    }
    property_end(&same);
}

/* A range after its joints' rotations change: equal to full FK of the new
 * poses where the rest did not change. */
static void test_range(void) {
    rng r = rng_seeded(26);
    check_property same = {"batch FK of a joint range equals ik_skeleton_fk of the changed poses", 0, 0};
    int parents[MAX_JOINTS], n = 30, count = 7, c, j, round;
    ik_transform rest[MAX_JOINTS];
    ik_skeleton s;
    for (j = 0; j < n; ++j) {
        parents[j] = j == 0 ? -1 : j < 15 ? j - 1 : (int)(rng_unit(&r) * j);
        rest[j] = ik_transform_identity();
    }
    CHECK(ik_skeleton_init(&s, n, parents, NULL, rest, NULL) == IK_OK, "%s", "");
    for (round = 0; round < 20; ++round) {
        int lo = (int)(rng_unit(&r) * n), hi = lo + (int)(rng_unit(&r) * (n - lo + 1));
        for (c = 0; c < count * n; ++c)
            poses[c] = ik_transform_make(rng_in_ball(&r, 1), rng_rotation(&r), ik_v3(1, 1, 1));
        CHECK(ik_skeleton_fk_batch(&s, count, poses, NULL, batch) == IK_OK, "%s", "");
        /* turn the range's joints; only they and their descendants inside it are recomputed */
        for (c = 0; c < count; ++c)
            for (j = lo; j < hi; ++j) poses[c * n + j].rotation = rng_rotation(&r);
        CHECK(ik_skeleton_fk_batch_range(&s, lo, hi, count, poses, NULL, batch) == IK_OK, "round %d", round);
        for (c = 0; c < count; ++c) {
            ik_skeleton_fk(&s, &poses[c * n], NULL, single);
            for (j = 0; j < hi; ++j)
                PROPERTY_CASE(same, same_matrix(&batch[c * n + j], &single[j]), "round %d pose %d joint %d", round, c,
                              j);
        }
    }
    property_end(&same);
    CHECK(ik_skeleton_fk_batch_range(&s, 5, 4, 1, poses, NULL, batch) == IK_ERR_RANGE, "%s", "");
    CHECK(ik_skeleton_fk_batch_range(&s, 0, n + 1, 1, poses, NULL, batch) == IK_ERR_RANGE, "%s", "");
}

static void test_errors(void) {
    int parents[1] = {-1};
    ik_transform rest[1];
    ik_skeleton s;
    rest[0] = ik_transform_identity();
    CHECK(ik_skeleton_init(&s, 1, parents, NULL, rest, NULL) == IK_OK, "%s", "");
    CHECK(ik_skeleton_fk_batch(&s, -1, poses, NULL, batch) == IK_ERR_RANGE, "%s", "");
    CHECK(ik_skeleton_fk_batch(NULL, 1, poses, NULL, batch) == IK_ERR_NULL, "%s", "");
    CHECK(ik_skeleton_fk_batch(&s, 1, NULL, NULL, batch) == IK_ERR_NULL, "%s", "");
    CHECK(ik_skeleton_fk_batch(&s, 1, poses, NULL, NULL) == IK_ERR_NULL, "%s", "");
    CHECK(ik_skeleton_fk_batch(NULL, 0, NULL, NULL, NULL) == IK_OK, "%s", "zero poses");
}

int main(void) {
    test_random_skeletons();
    test_range();
    test_errors();
    return check_summary("skeleton_fk_batch");
}

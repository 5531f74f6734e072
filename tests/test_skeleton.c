/* Skeletons: validation, lookups, chains, forward kinematics and back. */
#include <ikit/skeleton.h>
#include <stdio.h>
#include <string.h>

#include "support/check.h"
#include "support/rng.h"

#ifdef IKIT_DOUBLE
#define TOL 1e-9
#else
#define TOL 1e-4f
#endif

/* Parents-first but not depth-first: 0 root; 1, 2 children of 0; 3 child of
 * 1; 4 child of 2; 5 child of 3; 6 child of 1. */
static const int tree_parents[7] = {-1, 0, 0, 1, 2, 3, 1};
static const char *const tree_names[7] = {"hips", "spine", "thigh.L", "neck", "shin.L", "head", "arm"};

static void random_pose(rng *r, ik_transform *pose, int n, ik_bool uniform_scale) {
    int i;
    for (i = 0; i < n; ++i) {
        ik_real s = rng_range(r, 0.5, 1.5);
        pose[i] = ik_transform_make(rng_in_ball(r, 1), rng_rotation(r),
                                    uniform_scale ? ik_v3(s, s, s)
                                                  : ik_v3(s, rng_range(r, 0.5, 1.5), rng_range(r, 0.5, 1.5)));
    }
}

static ik_real mat_distance(const ik_mat4 *a, const ik_mat4 *b) {
    ik_real worst = 0;
    int i;
    for (i = 0; i < 16; ++i) worst = ik_maxr(worst, IK_FABS(a->m[i] - b->m[i]));
    return worst;
}

static void test_validation(void) {
    ik_transform rest[7];
    ik_skeleton s;
    ik_skeleton_error err;
    int bad_order[3] = {-1, 2, 0}, out_of_range[3] = {-1, 0, 7}, cycle[3] = {1, 2, 0};
    const char *dup[3] = {"a", "b", "a"};
    int chain3[3] = {-1, 0, 1};
    int i;
    for (i = 0; i < 7; ++i) rest[i] = ik_transform_identity();
    CHECK(ik_skeleton_init(&s, 7, tree_parents, tree_names, rest, &err) == IK_OK, "valid tree: %s", err.message);
    CHECK(ik_skeleton_init(&s, 3, bad_order, NULL, rest, &err) == IK_ERR_HIERARCHY && err.joint == 1,
          "child before parent");
    CHECK(strstr(err.message, "joint 1") != NULL, "message names the joint: %s", err.message);
    CHECK(ik_skeleton_init(&s, 3, out_of_range, NULL, rest, &err) == IK_ERR_RANGE && err.joint == 2, "parent out of range");
    CHECK(ik_skeleton_init(&s, 3, cycle, NULL, rest, &err) == IK_ERR_HIERARCHY && err.joint == 0, "cycle");
    CHECK(ik_skeleton_init(&s, 3, chain3, dup, rest, &err) == IK_ERR_HIERARCHY && err.joint == 2, "duplicate names");
    CHECK(ik_skeleton_init(&s, -1, chain3, NULL, rest, &err) == IK_ERR_RANGE, "negative count");
    CHECK(ik_skeleton_init(&s, 3, NULL, NULL, rest, &err) == IK_ERR_NULL, "missing parents");
    CHECK(ik_skeleton_init(NULL, 3, chain3, NULL, rest, &err) == IK_ERR_NULL, "missing skeleton");
    rest[1].translation.y = (ik_real)NAN;
    CHECK(ik_skeleton_init(&s, 3, chain3, NULL, rest, &err) == IK_ERR_NONFINITE && err.joint == 1, "NaN rest pose");
    rest[1].translation.y = (ik_real)INFINITY;
    CHECK(ik_skeleton_init(&s, 3, chain3, NULL, rest, &err) == IK_ERR_NONFINITE, "infinite rest pose");
    rest[1] = ik_transform_identity();
    rest[2].rotation = ik_q(0, 0, 0, 2);
    CHECK(ik_skeleton_init(&s, 3, chain3, NULL, rest, &err) == IK_ERR_DEGENERATE && err.joint == 2,
          "non-unit rest rotation");
    CHECK(ik_skeleton_init(&s, 0, NULL, NULL, NULL, NULL) == IK_OK && s.joint_count == 0, "empty skeleton");
}

static void test_lookup_and_chains(void) {
    ik_transform rest[7];
    ik_skeleton s;
    int chain[4], i;
    for (i = 0; i < 7; ++i) rest[i] = ik_transform_identity();
    ik_skeleton_init(&s, 7, tree_parents, tree_names, rest, NULL);
    CHECK(ik_skeleton_find(&s, "shin.L") == 4 && ik_skeleton_find(&s, "head") == 5, "find by name");
    CHECK(ik_skeleton_find(&s, "tail") == -1 && ik_skeleton_find(&s, NULL) == -1, "unknown names");
    CHECK(strcmp(ik_skeleton_name(&s, 2), "thigh.L") == 0 && strcmp(ik_skeleton_name(&s, 9), "") == 0, "names");
    CHECK(ik_skeleton_is_descendant(&s, 5, 1) && ik_skeleton_is_descendant(&s, 6, 1) &&
              !ik_skeleton_is_descendant(&s, 4, 1) && ik_skeleton_is_descendant(&s, 1, 1),
          "descendants");
    CHECK(ik_skeleton_depth(&s, 5) == 4 && ik_skeleton_depth(&s, 0) == 1, "depth");
    CHECK(ik_skeleton_chain(&s, 5, 4, chain) == IK_OK && chain[0] == 0 && chain[1] == 1 && chain[2] == 3 &&
              chain[3] == 5,
          "walk 4 joints up from the head");
    CHECK(ik_skeleton_chain(&s, 4, 2, chain) == IK_OK && chain[0] == 2 && chain[1] == 4, "walk 2 up from the shin");
    CHECK(ik_skeleton_chain(&s, 4, 4, chain) == IK_ERR_RANGE, "chain longer than the hierarchy");
    CHECK(ik_skeleton_chain(&s, 11, 1, chain) == IK_ERR_RANGE, "end joint out of range");
}

static void test_forward_kinematics(void) {
    rng r = rng_seeded(11);
    check_property manual = {"fk = product of local matrices", 0, 0};
    check_property subtree = {"subtree fk and joint-by-joint fk match full fk", 0, 0};
    check_property back = {"model to local round trip", 0, 0};
    ik_transform rest[7], pose[7], recovered[7];
    ik_mat4 model[7], model2[7], root;
    ik_skeleton s;
    int i, k;
    for (i = 0; i < 7; ++i) rest[i] = ik_transform_identity();
    ik_skeleton_init(&s, 7, tree_parents, tree_names, rest, NULL);
    for (k = 0; k < 5000; ++k) {
        random_pose(&r, pose, 7, k % 2 == 0);
        root = ik_mat4_from_trs(rng_in_ball(&r, 3), rng_rotation(&r), ik_v3(2, 2, 2));
        ik_skeleton_fk(&s, pose, &root, model);
        {
            /* head = root * hips * spine * neck * head */
            ik_mat4 m = root, l;
            int path[4] = {0, 1, 3, 5}, j;
            for (j = 0; j < 4; ++j) {
                l = ik_transform_to_mat4(pose[path[j]]);
                m = ik_mat4_mul(&m, &l);
            }
            PROPERTY_CASE(manual, mat_distance(&m, &model[5]) < TOL * 10, "case %d", k);
        }
        /* Change the spine; a subtree update must give what a full pass gives. */
        pose[1].rotation = rng_rotation(&r);
        memcpy(model2, model, sizeof model);
        ik_skeleton_fk_subtree(&s, 1, pose, &root, model2);
        ik_skeleton_fk(&s, pose, &root, model);
        {
            int same = 1;
            for (i = 0; i < 7; ++i) same = same && mat_distance(&model[i], &model2[i]) == 0;
            /* Joint by joint in parents-first order: the same matrices again. */
            memset(model2, 0, sizeof model2);
            for (i = 0; i < 7; ++i) ik_skeleton_fk_joint(&s, i, pose, &root, model2);
            for (i = 0; i < 7; ++i) same = same && mat_distance(&model[i], &model2[i]) == 0;
            PROPERTY_CASE(subtree, same, "case %d", k);
        }
        /* Uniform scales decompose exactly; check translation, rotation, scale. */
        if (k % 2 == 0) {
            ik_result res = ik_skeleton_model_to_local(&s, model, &root, recovered);
            int ok = res == IK_OK;
            for (i = 0; i < 7; ++i)
                ok = ok && ik_vec3_distance(recovered[i].translation, pose[i].translation) < TOL * 10 &&
                     IK_FABS(ik_quat_dot(recovered[i].rotation, pose[i].rotation)) > 1 - TOL &&
                     ik_vec3_distance(recovered[i].scale, pose[i].scale) < TOL * 10;
            PROPERTY_CASE(back, ok, "case %d", k);
        }
    }
    property_end(&manual);
    property_end(&subtree);
    property_end(&back);
    /* A singular parent is reported, and the output stays finite. */
    random_pose(&r, pose, 7, 1);
    pose[1].scale = ik_v3(0, 0, 0);
    ik_skeleton_fk(&s, pose, NULL, model);
    CHECK(ik_skeleton_model_to_local(&s, model, NULL, recovered) == IK_ERR_DEGENERATE, "singular parent reported");
    for (i = 0; i < 7; ++i) CHECK(ik_transform_finite(recovered[i]), "joint %d finite after a singular parent", i);
    ik_skeleton_rest_pose(&s, pose);
    CHECK(memcmp(pose, rest, sizeof rest) == 0, "rest pose copy");
}

/* The sorted duplicate-name check (ik_skeleton_init_scratch) against the
 * pairwise one: random name sets of 1 to 300 joints drawn from small
 * pools (so duplicates are common, and some names are NULL or empty, which
 * never count), the same result and the same joint named, and the scratch
 * check finds a duplicate pair placed anywhere in 100,000 unique names. */
static void test_duplicate_names(void) {
    enum { MAX_SMALL = 300, BIG = 100000 };
    static char pool[64][8];
    static const char *names[BIG];
    static int parents[BIG], scratch[2 * BIG];
    static ik_transform rest[BIG];
    static char big_names[BIG][12];
    check_property same = {"sorted duplicate check agrees with the pairwise one", 0, 0};
    rng g = rng_seeded(5);
    ik_skeleton s;
    ik_skeleton_error pairwise_error, sorted_error;
    int i, trial;
    for (i = 0; i < 64; ++i) snprintf(pool[i], sizeof pool[i], "n%d", i * 37 % 64);
    pool[0][0] = '\0';
    for (i = 0; i < BIG; ++i) {
        parents[i] = i - 1;
        rest[i] = ik_transform_identity();
    }
    for (trial = 0; trial < 2000; ++trial) {
        int n = 1 + (int)(rng_next(&g) % MAX_SMALL), spread = 1 + (int)(rng_next(&g) % 64);
        ik_result pairwise, sorted;
        for (i = 0; i < n; ++i) {
            int pick = (int)(rng_next(&g) % (uint64_t)(spread + 1));
            names[i] = pick == spread ? NULL : pool[pick];
        }
        pairwise = ik_skeleton_init(&s, n, parents, names, rest, &pairwise_error);
        sorted = ik_skeleton_init_scratch(&s, n, parents, names, rest, scratch, &sorted_error);
        PROPERTY_CASE(same, pairwise == sorted && pairwise_error.joint == sorted_error.joint,
                      "%d joints from %d names: pairwise %d at %d, sorted %d at %d", n, spread, (int)pairwise,
                      pairwise_error.joint, (int)sorted, sorted_error.joint);
    }
    property_end(&same);
    for (i = 0; i < BIG; ++i) {
        snprintf(big_names[i], sizeof big_names[i], "b%d", (int)((unsigned)i * 7919u % BIG));
        names[i] = big_names[i];
    }
    CHECK(ik_skeleton_init_scratch(&s, BIG, parents, names, rest, scratch, &sorted_error) == IK_OK &&
              s.joint_count == BIG,
          "100,000 unique names: %s", sorted_error.message);
    names[BIG - 1] = names[BIG / 3];
    names[BIG / 2] = names[17];
    CHECK(ik_skeleton_init_scratch(&s, BIG, parents, names, rest, scratch, &sorted_error) == IK_ERR_HIERARCHY &&
              sorted_error.joint == BIG / 2 && strstr(sorted_error.message, "duplicate"),
          "two duplicates among 100,000: the earlier second one named (joint %d)", sorted_error.joint);
}

static int has_child(const int *parents, int count, int joint) {
    int i;
    for (i = joint + 1; i < count; ++i)
        if (parents[i] == joint) return 1;
    return 0;
}

/* Subtree FK on random parents-first trees (not depth-first: a subtree's
 * joints are interleaved with others) of 9,000 joints, past the subtree
 * walker's 4,096-joint window: every descendant of the changed joint gets
 * the full pass's matrix, exactly, and no other joint is touched. */
static void test_subtree_large(void) {
    enum { N = 9000 };
    static int parents[N];
    static ik_transform rest[N], pose[N];
    static ik_mat4 full[N], part[N];
    rng r = rng_seeded(77);
    ik_skeleton s;
    int i, k, tops[4] = {0, 3, 1500, 6000};
    for (i = 0; i < N; ++i) {
        /* mostly a recent joint, sometimes any earlier one: long interleaved branches */
        parents[i] = i == 0 ? -1 : (rng_next(&r) % 4 == 0 ? (int)(rng_next(&r) % (uint64_t)i) : i - 1 - (int)(rng_next(&r) % (uint64_t)(i < 8 ? i : 8)));
        rest[i] = ik_transform_make(ik_v3(0, (ik_real)0.01, 0), ik_quat_identity(), ik_v3(1, 1, 1));
        pose[i] = rest[i];
    }
    CHECK(ik_skeleton_init(&s, N, parents, NULL, rest, NULL) == IK_OK, "random tree");
    for (k = 0; k < 4; ++k) {
        int top = tops[k], same = 1, members = 0;
        while (!has_child(parents, N, top)) ++top;
        ik_skeleton_fk(&s, pose, NULL, full);
        memcpy(part, full, sizeof part);
        pose[top].rotation = rng_rotation(&r);
        ik_skeleton_fk_subtree(&s, top, pose, NULL, part);
        ik_skeleton_fk(&s, pose, NULL, full);
        for (i = 0; i < N; ++i) {
            int below = i == top || ik_skeleton_is_descendant(&s, i, top);
            members += below;
            same = same && mat_distance(&full[i], &part[i]) == 0;
        }
        CHECK(same && members > 1, "subtree of joint %d (%d joints): the full pass's matrices", top, members);
    }
}

int main(void) {
    test_subtree_large();
    test_validation();
    test_lookup_and_chains();
    test_forward_kinematics();
    test_duplicate_names();
    return check_summary("skeleton");
}

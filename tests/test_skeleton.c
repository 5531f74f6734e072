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
        pose[i] = ik_transform_make(
            rng_in_ball(r, 1), rng_rotation(r),
            uniform_scale ? ik_v3(s, s, s) : ik_v3(s, rng_range(r, 0.5, 1.5), rng_range(r, 0.5, 1.5)));
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
    ik_error err;
    int bad_order[3] = {-1, 2, 0}, out_of_range[3] = {-1, 0, 7}, cycle[3] = {1, 2, 0};
    const char *dup[3] = {"a", "b", "a"};
    int chain3[3] = {-1, 0, 1};
    int i;
    for (i = 0; i < 7; ++i) rest[i] = ik_transform_identity();
    CHECK(ik_skeleton_init(&s, 7, tree_parents, tree_names, rest, &err) == IK_OK, "valid tree: %s", err.message);
    CHECK(ik_skeleton_init(&s, 3, bad_order, NULL, rest, &err) == IK_ERR_HIERARCHY && err.index == 1,
          "child before parent");
    CHECK(strstr(err.message, "joint 1") != NULL, "message names the joint: %s", err.message);
    CHECK(ik_skeleton_init(&s, 3, out_of_range, NULL, rest, &err) == IK_ERR_RANGE && err.index == 2,
          "parent out of range");
    CHECK(ik_skeleton_init(&s, 3, cycle, NULL, rest, &err) == IK_ERR_HIERARCHY && err.index == 0, "cycle");
    CHECK(ik_skeleton_init(&s, 3, chain3, dup, rest, &err) == IK_ERR_HIERARCHY && err.index == 2, "duplicate names");
    CHECK(ik_skeleton_init(&s, -1, chain3, NULL, rest, &err) == IK_ERR_RANGE, "negative count");
    CHECK(ik_skeleton_init(&s, 3, NULL, NULL, rest, &err) == IK_ERR_NULL, "missing parents");
    CHECK(ik_skeleton_init(NULL, 3, chain3, NULL, rest, &err) == IK_ERR_NULL, "missing skeleton");
    rest[1].translation.y = (ik_real)NAN;
    CHECK(ik_skeleton_init(&s, 3, chain3, NULL, rest, &err) == IK_ERR_NONFINITE && err.index == 1, "NaN rest pose");
    rest[1].translation.y = (ik_real)INFINITY;
    CHECK(ik_skeleton_init(&s, 3, chain3, NULL, rest, &err) == IK_ERR_NONFINITE, "infinite rest pose");
    rest[1] = ik_transform_identity();
    rest[2].rotation = ik_q(0, 0, 0, 2);
    CHECK(ik_skeleton_init(&s, 3, chain3, NULL, rest, &err) == IK_ERR_DEGENERATE && err.index == 2,
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
    CHECK(
        ik_skeleton_chain(&s, 5, 4, chain) == IK_OK && chain[0] == 0 && chain[1] == 1 && chain[2] == 3 && chain[3] == 5,
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

/* ik_skeleton_rest_model: each joint's rest model matrix is what forward
 * kinematics of the rest pose (no root) gives it, over random rests with
 * non-uniform scales. */
static void test_rest_model(void) {
    rng r = rng_seeded(12);
    check_property same = {"rest model = fk of the rest pose", 0, 0};
    ik_transform rest[7];
    ik_mat4 model[7];
    ik_skeleton s;
    int i, k;
    for (k = 0; k < 2000; ++k) {
        random_pose(&r, rest, 7, k % 2 == 0);
        ik_skeleton_init(&s, 7, tree_parents, tree_names, rest, NULL);
        ik_skeleton_fk(&s, rest, NULL, model);
        for (i = 0; i < 7; ++i) {
            ik_mat4 m = ik_skeleton_rest_model(&s, i);
            PROPERTY_CASE(same, mat_distance(&m, &model[i]) < TOL * 10, "case %d joint %d", k, i);
        }
    }
    property_end(&same);
}

/* The scratch duplicate-name check (ik_skeleton_init_scratch) against the
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
    ik_error pairwise_error, sorted_error;
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
        PROPERTY_CASE(same, pairwise == sorted && pairwise_error.index == sorted_error.index,
                      "%d joints from %d names: pairwise %d at %d, sorted %d at %d", n, spread, (int)pairwise,
                      pairwise_error.index, (int)sorted, sorted_error.index);
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
              sorted_error.index == BIG / 2 && strstr(sorted_error.message, "duplicate"),
          "two duplicates among 100,000: the earlier second one named (joint %d)", sorted_error.index);
}

/* The contract by brute force: the smallest index i whose name, neither NULL
 * nor empty, some j < i also has, or -1. */
static int reference_first_duplicate(const char *const *names, int count) {
    int i, j;
    for (i = 0; i < count; ++i)
        for (j = 0; names[i] && names[i][0] && j < i; ++j)
            if (names[j] && strcmp(names[i], names[j]) == 0) return i;
    return -1;
}

/* 1 when ik_skeleton_init_scratch on `count` joints of a chain returns what
 * the contract says for `names`: IK_OK, or IK_ERR_HIERARCHY naming the
 * expected joint with "duplicate joint name". */
static int scratch_check_is(const char *const *names, int count, int expected, const int *parents,
                            const ik_transform *rest, int *scratch) {
    ik_skeleton s;
    ik_error e;
    ik_result r = ik_skeleton_init_scratch(&s, count, parents, names, rest, scratch, &e);
    if (expected < 0) return r == IK_OK && e.index == -1 && s.joint_count == count;
    return r == IK_ERR_HIERARCHY && e.index == expected && strstr(e.message, "duplicate joint name") != NULL;
}

/* A long prefix shared by most names of the tests below, so that names
 * differ only in their last few characters. */
#define LONG_PREFIX                                                                        \
    "mixamorig:a_rather_long_prefix_that_every_name_shares_until_its_last_few_characters_" \
    "so_that_each_comparison_walks_far_before_it_finds_a_difference_"

/* Seeded random name sets of 1 to 400 joints against the brute-force
 * contract, for both the scratch check and the pairwise one: names drawn
 * from a small pool, names sharing a long prefix drawn from a pool about the
 * size of the set (so duplicates sit at random positions), and unique
 * long-prefix names with up to three copies of earlier names (copies of the
 * text, not the same pointer) placed at random; NULL and empty names mixed
 * in, which never count. Then 100,000 unique long-prefix names, and a copy
 * of one at random pairs of positions. */
static void test_duplicate_names_random(void) {
    enum { MAX_SMALL = 400, BIG = 100000, TEXT = sizeof LONG_PREFIX + 12 };
    static char text[MAX_SMALL][TEXT], copies[4][TEXT];
    static char big_text[BIG][TEXT];
    static const char *names[BIG];
    static int parents[BIG], scratch[2 * BIG];
    static ik_transform rest[BIG];
    check_property scratch_agrees = {"scratch duplicate check agrees with the brute-force contract", 0, 0};
    check_property pairwise_agrees = {"pairwise duplicate check agrees with the brute-force contract", 0, 0};
    check_property big_pairs = {"a copied name among 100,000 long-prefix names is found", 0, 0};
    rng g = rng_seeded(2026);
    ik_skeleton s;
    ik_error e;
    int i, trial, found_some = 0;
    for (i = 0; i < BIG; ++i) {
        parents[i] = i - 1;
        rest[i] = ik_transform_identity();
    }
    for (trial = 0; trial < 3000; ++trial) {
        int n = 1 + (int)(rng_next(&g) % MAX_SMALL), style = trial % 3, expected, copied;
        int pool = 1 + (int)(rng_next(&g) % (uint64_t)(style == 0 ? 16 : 2 * n));
        for (i = 0; i < n; ++i) {
            int pick = (int)(rng_next(&g) % (uint64_t)pool), hole = (int)(rng_next(&g) % 40);
            if (style == 0)
                snprintf(text[i], TEXT, "n%d", pick);
            else
                snprintf(text[i], TEXT, LONG_PREFIX "%d", style == 1 ? pick : i);
            names[i] = hole == 0 ? NULL : hole == 1 ? "" : text[i];
        }
        for (i = 0, copied = (int)(rng_next(&g) % 4); style == 2 && n > 1 && i < copied; ++i) {
            int from = (int)(rng_next(&g) % (uint64_t)(n - 1));
            int to = from + 1 + (int)(rng_next(&g) % (uint64_t)(n - 1 - from));
            snprintf(copies[i], TEXT, "%s", text[from]);
            names[from] = text[from];
            names[to] = copies[i];
        }
        expected = reference_first_duplicate(names, n);
        found_some += expected >= 0;
        PROPERTY_CASE(scratch_agrees, scratch_check_is(names, n, expected, parents, rest, scratch),
                      "style %d, %d joints from %d names: expected joint %d", style, n, pool, expected);
        PROPERTY_CASE(
            pairwise_agrees,
            (ik_skeleton_init(&s, n, parents, names, rest, &e) == IK_OK) == (expected < 0) && e.index == expected,
            "style %d, %d joints: pairwise joint %d, expected %d", style, n, e.index, expected);
    }
    property_end(&scratch_agrees);
    property_end(&pairwise_agrees);
    CHECK(found_some > 500 && found_some < 2800, "the random sets mix duplicates and none: %d of 3000 have one",
          found_some);
    for (i = 0; i < BIG; ++i) {
        snprintf(big_text[i], TEXT, LONG_PREFIX "%d", (int)((unsigned)i * 7919u % BIG));
        names[i] = big_text[i];
    }
    CHECK(scratch_check_is(names, BIG, -1, parents, rest, scratch), "100,000 unique long-prefix names");
    for (trial = 0; trial < 20; ++trial) {
        int from = (int)(rng_next(&g) % (BIG - 1)), to = from + 1 + (int)(rng_next(&g) % (uint64_t)(BIG - 1 - from));
        snprintf(copies[0], TEXT, "%s", big_text[from]);
        names[to] = copies[0];
        PROPERTY_CASE(big_pairs, scratch_check_is(names, BIG, to, parents, rest, scratch), "copy of %d at %d", from,
                      to);
        names[to] = big_text[to];
    }
    property_end(&big_pairs);
}

/* One named case per degenerate name set: the same joint as the brute-force
 * contract, with and without scratch. */
static void test_duplicate_name_edges(void) {
    static const char *const two_pairs[5] = {"a", "b", "c", "b", "a"};
    static const char *const null_and_empty[6] = {NULL, "", NULL, "", "x", NULL};
    static const char *const all_same[4] = {"same", "same", "same", "same"};
    static const char *const prefixes[4] = {"arm", "arm.L", "ar", "arm.L.001"};
    static const char *const last_char[3] = {LONG_PREFIX "a", LONG_PREFIX "b", LONG_PREFIX "a"};
    static const char *const first_and_last[6] = {"root", "b", "c", "d", "e", "root"};
    static const char *const one[1] = {"only"};
    static const char *const empty_twice_then_real[4] = {"", "", "k", "k"};
    static const struct {
        const char *what;
        const char *const *names;
        int count, joint;
    } cases[] = {
        {"two pairs: the later pair's second is earlier", two_pairs, 5, 3},
        {"NULL and empty names never count", null_and_empty, 6, -1},
        {"every name the same", all_same, 4, 1},
        {"names that are prefixes of each other", prefixes, 4, -1},
        {"long names differing in their last character", last_char, 3, 2},
        {"the first name repeated last", first_and_last, 6, 5},
        {"a single joint", one, 1, -1},
        {"two empty names, then a real pair", empty_twice_then_real, 4, 3},
    };
    static const int parents[6] = {-1, 0, 1, 2, 3, 4};
    ik_transform rest[6];
    int scratch[12], i;
    ik_skeleton s;
    ik_error e;
    for (i = 0; i < 6; ++i) rest[i] = ik_transform_identity();
    for (i = 0; i < (int)(sizeof cases / sizeof cases[0]); ++i) {
        CHECK(reference_first_duplicate(cases[i].names, cases[i].count) == cases[i].joint, "%s: the reference",
              cases[i].what);
        CHECK(scratch_check_is(cases[i].names, cases[i].count, cases[i].joint, parents, rest, scratch), "%s: scratch",
              cases[i].what);
        CHECK(scratch_check_is(cases[i].names, cases[i].count, cases[i].joint, parents, rest, NULL), "%s: pairwise",
              cases[i].what);
    }
    CHECK(ik_skeleton_init_scratch(&s, 6, parents, NULL, rest, scratch, &e) == IK_OK, "no names at all");
    CHECK(ik_skeleton_init_scratch(&s, 0, parents, all_same, rest, scratch, &e) == IK_OK && s.joint_count == 0,
          "zero joints with names");
    /* A bad parent is reported before any name is looked at. */
    CHECK(
        ik_skeleton_init_scratch(&s, 4, (const int[]){-1, 0, 3, 1}, all_same, rest, scratch, &e) == IK_ERR_HIERARCHY &&
            e.index == 2 && !strstr(e.message, "duplicate"),
        "hierarchy error first: %s", e.message);
}

/* FNV-1a (32 bits) of `length` bytes from state `h`: the hash skeleton.c
 * keys names by, here to craft names whose hashes are all equal. */
static uint32_t fnv1a_from(uint32_t h, const char *bytes, int length) {
    int i;
    for (i = 0; i < length; ++i) h = (h ^ (unsigned char)bytes[i]) * 16777619u;
    return h;
}

static int compare_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Hostile names (Joux 2004, "Multicollisions in iterated hash functions"):
 * FNV-1a reads a name a byte at a time into a 32-bit state, so two 4-byte
 * blocks that take one state to the same next state can be swapped for each
 * other without changing the hash; STAGES such pairs in a row give
 * 2^STAGES names of 4 STAGES bytes with one hash. A pair: two 3-byte blocks
 * whose states S, S' differ only in their low 7 bits (a sort of all 64^3),
 * then last bytes c, c' with c ^ c' = S ^ S' (the xor makes the states
 * equal, the multiply keeps them so). Every probe of a hash table then lands
 * on one slot and every comparison of a sort by hash needs strcmp: the check
 * must still give the contract's answer (in n log n comparisons, not
 * n^2 / 2; speed is the benchmark's business). */
static void test_duplicate_names_colliding(void) {
    enum { STAGES = 10, NAMES = 1 << STAGES, BLOCKS = 64 * 64 * 64, LEN = 4 * STAGES };
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.";
    static uint64_t candidates[BLOCKS];
    static char pair[STAGES][2][4], text[NAMES][LEN + 1], copy[LEN + 1];
    static const char *names[NAMES + 1];
    static int parents[NAMES + 1], scratch[2 * (NAMES + 1)];
    static ik_transform rest[NAMES + 1];
    uint32_t h = 2166136261u;
    int stage, i, found_all = 1, same_hash = 1;
    for (stage = 0; stage < STAGES && found_all; ++stage) {
        int b, found = 0;
        for (b = 0; b < BLOCKS; ++b) {
            char block[3] = {alphabet[b & 63], alphabet[(b >> 6) & 63], alphabet[b >> 12]};
            candidates[b] = (uint64_t)fnv1a_from(h, block, 3) << 32 | (uint64_t)b;
        }
        qsort(candidates, BLOCKS, sizeof candidates[0], compare_u64);
        for (b = 1; b < BLOCKS && !found; ++b) {
            uint32_t s0 = (uint32_t)(candidates[b - 1] >> 32), s1 = (uint32_t)(candidates[b] >> 32);
            int c, last = -1;
            if (s0 >> 7 != s1 >> 7) continue;
            for (c = 0; c < 64 && last < 0; ++c)
                if (memchr(alphabet, (int)(s0 ^ s1 ^ (unsigned char)alphabet[c]), 64)) last = c;
            if (last < 0) continue;
            for (i = 0; i < 2; ++i) {
                int k, u = (int)(candidates[b - 1 + i] & 0xffffffu);
                for (k = 0; k < 3; ++k) pair[stage][i][k] = alphabet[(u >> (6 * k)) & 63];
            }
            pair[stage][0][3] = alphabet[last];
            pair[stage][1][3] = (char)(s0 ^ s1 ^ (unsigned char)alphabet[last]);
            h = fnv1a_from(h, pair[stage][0], 4);
            found = 1;
        }
        found_all = found;
    }
    CHECK(found_all, "a colliding block pair at every stage");
    if (!found_all) return;
    for (i = 0; i < NAMES; ++i) {
        for (stage = 0; stage < STAGES; ++stage) memcpy(text[i] + 4 * stage, pair[stage][(i >> stage) & 1], 4);
        text[i][LEN] = '\0';
        names[i] = text[i];
        same_hash = same_hash && fnv1a_from(2166136261u, text[i], LEN) == h;
    }
    for (i = 0; i <= NAMES; ++i) {
        parents[i] = i - 1;
        rest[i] = ik_transform_identity();
    }
    CHECK(same_hash && reference_first_duplicate(names, NAMES) == -1, "%d distinct names, one FNV-1a hash", NAMES);
    CHECK(scratch_check_is(names, NAMES, -1, parents, rest, scratch), "%d colliding unique names", NAMES);
    memcpy(copy, text[NAMES / 3], sizeof copy);
    names[NAMES] = copy;
    CHECK(scratch_check_is(names, NAMES + 1, NAMES, parents, rest, scratch), "a copy of a colliding name last");
    names[700] = text[5];
    CHECK(scratch_check_is(names, NAMES + 1, 700, parents, rest, scratch), "two copies: the earlier second one");
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
        parents[i] = i == 0 ? -1
                            : (rng_next(&r) % 4 == 0 ? (int)(rng_next(&r) % (uint64_t)i)
                                                     : i - 1 - (int)(rng_next(&r) % (uint64_t)(i < 8 ? i : 8)));
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

/* ik_subtree_scan answers as ik_skeleton_is_descendant does, on random
 * trees of 9,000 joints whose parents are mostly recent and sometimes far
 * back (past the scan's 4,096-joint ring), asked for every joint in order,
 * for every third, for runs with gaps wider than the ring, and repeated;
 * a joint before the top and a negative top are outside. */
static void test_subtree_scan(void) {
    enum { N = 9000 };
    static int parents[N];
    static ik_transform rest[N];
    rng r = rng_seeded(91);
    ik_skeleton s;
    int i, t, step, wrong = 0, asked = 0;
    ik_subtree_scan scan;
    for (i = 0; i < N; ++i) {
        parents[i] = i == 0 ? -1
                            : (rng_next(&r) % 5 == 0 ? (int)(rng_next(&r) % (uint64_t)i)
                                                     : i - 1 - (int)(rng_next(&r) % (uint64_t)(i < 8 ? i : 8)));
        rest[i] = ik_transform_identity();
    }
    CHECK(ik_skeleton_init(&s, N, parents, NULL, rest, NULL) == IK_OK, "random tree");
    for (t = 0; t < 12; ++t) {
        int top = t < 4 ? t : (int)(rng_next(&r) % N);
        for (step = 1; step <= 5000; step = step == 1 ? 3 : step == 3 ? 4097 : 5001) {
            ik_subtree_scan_begin(&scan, top);
            for (i = top; i < N; i += step) {
                int a = ik_subtree_scan_has(&scan, &s, i), b = ik_skeleton_is_descendant(&s, i, top);
                wrong += a != b;
                wrong += ik_subtree_scan_has(&scan, &s, i) != b; /* asked again */
                ++asked;
            }
        }
    }
    CHECK(wrong == 0 && asked > 30000, "%d of %d answers differ from ik_skeleton_is_descendant", wrong, asked);
    /* ik_skeleton_levels_below: the depth difference within 32 levels, with the ancestor's child on the way */
    wrong = 0;
    for (t = 0; t < 20000; ++t) {
        int j = (int)(rng_next(&r) % N), a = j, up = (int)(rng_next(&r) % 40), c = -1, levels, want, got;
        /* half the time an ancestor up to 39 levels up, else any joint before */
        if (t % 2)
            while (up-- > 0 && parents[a] >= 0) a = parents[a];
        else
            a = (int)(rng_next(&r) % (uint64_t)(j + 1));
        levels = ik_skeleton_depth(&s, j) - ik_skeleton_depth(&s, a);
        want = j != a && ik_skeleton_is_descendant(&s, j, a) && levels <= 32 ? levels : 0;
        got = ik_skeleton_levels_below(&s, j, a, 32, &c);
        wrong += got != want || (got > 0 && (parents[c] != a || !ik_skeleton_is_descendant(&s, j, c)));
    }
    CHECK(wrong == 0, "ik_skeleton_levels_below: %d of 20000 differ from the depths", wrong);
    ik_subtree_scan_begin(&scan, 100);
    CHECK(!ik_subtree_scan_has(&scan, &s, 99) && ik_subtree_scan_has(&scan, &s, 100) &&
              !ik_subtree_scan_has(&scan, &s, N),
          "before the top, the top, past the last joint");
    ik_subtree_scan_begin(&scan, -1);
    CHECK(!ik_subtree_scan_has(&scan, &s, 5), "a negative top holds nothing");
}

int main(void) {
    test_subtree_scan();
    test_subtree_large();
    test_validation();
    test_lookup_and_chains();
    test_forward_kinematics();
    test_rest_model();
    test_duplicate_names();
    test_duplicate_names_random();
    test_duplicate_name_edges();
    test_duplicate_names_colliding();
    return check_summary("skeleton");
}

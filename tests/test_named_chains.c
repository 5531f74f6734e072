/* Limbs by name: the procedural humanoid's legs, arms and spine by joint
 * name; a creature with helper joints, zero-length joints and a tail; a rig
 * named only "leg"/"arm" runs; chains to tips; each limb kept on its own
 * and off the trunk; max_chains respected; every chain a path down the
 * hierarchy. */
#include <ikit/humanoid.h>
#include <ikit/named_chains.h>

#include <string.h>

#include "support/check.h"

static ik_skeleton humanoid(int *parents, const char **names, ik_transform *rest) {
    ik_skeleton s;
    int n = ik_humanoid_build_skeleton(1.8f, IK_HUMANOID_BUILT_JOINTS, parents, names, rest);
    CHECK(ik_skeleton_init(&s, n, parents, names, rest, NULL) == IK_OK, "humanoid skeleton");
    return s;
}

/* The chain of `kind` whose joints are named `names` (root-first), or -1. */
static int find(const ik_skeleton *s, const ik_named_chain *chains, int count, const char *kind,
                const char *const *names, int n) {
    int c, k;
    for (c = 0; c < count; ++c) {
        if (strcmp(chains[c].kind, kind) != 0 || chains[c].count != n) continue;
        for (k = 0; k < n && strcmp(ik_skeleton_name(s, chains[c].joints[k]), names[k]) == 0; ++k) continue;
        if (k == n) return c;
    }
    return -1;
}

/* Each joint of a chain is an ancestor of the next. */
static int paths_down(const ik_skeleton *s, const ik_named_chain *chains, int count) {
    int c, k, bad = 0;
    for (c = 0; c < count; ++c)
        for (k = 1; k < chains[c].count; ++k)
            bad += chains[c].joints[k] == chains[c].joints[k - 1] ||
                   !ik_skeleton_is_descendant(s, chains[c].joints[k], chains[c].joints[k - 1]);
    return bad;
}

static void test_humanoid(void) {
    static const char *const leg_l[] = {"LeftUpLeg", "LeftLeg", "LeftFoot"};
    static const char *const leg_r[] = {"RightUpLeg", "RightLeg", "RightFoot"};
    static const char *const arm_l[] = {"LeftArm", "LeftForeArm", "LeftHand"};
    static const char *const arm_r[] = {"RightArm", "RightForeArm", "RightHand"};
    static const char *const spine[] = {"Neck", "Head"};
    int parents[IK_HUMANOID_BUILT_JOINTS];
    const char *names[IK_HUMANOID_BUILT_JOINTS];
    ik_transform rest[IK_HUMANOID_BUILT_JOINTS];
    ik_named_chain chains[16];
    ik_skeleton s = humanoid(parents, names, rest);
    int n = ik_named_chains_find(&s, chains, 16);
    CHECK(n == 5, "humanoid: %d chains", n);
    CHECK(find(&s, chains, n, "leg", leg_l, 3) >= 0 && find(&s, chains, n, "leg", leg_r, 3) >= 0, "legs");
    CHECK(find(&s, chains, n, "arm", arm_l, 3) >= 0 && find(&s, chains, n, "arm", arm_r, 3) >= 0, "arms");
    /* the spine stops below Spine1, which carries the arms */
    CHECK(find(&s, chains, n, "spine", spine, 2) >= 0, "spine from the head to the shoulders' joint");
    CHECK(paths_down(&s, chains, n) == 0, "chains run down the hierarchy");
    CHECK(ik_named_chains_find(&s, chains, 2) == 2, "max_chains");
    n = ik_named_chains_to_tips(&s, "body", chains, 16);
    CHECK(n == 5 && paths_down(&s, chains, n) == 0 && strcmp(chains[0].kind, "body") == 0, "tips: %d", n);
    CHECK(chains[0].joints[0] == 0 && chains[0].count == ik_skeleton_depth(&s, chains[0].joints[chains[0].count - 1]),
          "a tip's chain starts at the root");
}

/* A creature: a root, a leg through a zero-length helper (LHipJoint style)
 * ending at a foot with an IK target below it, a tail of four joints, and
 * a rig whose arm joints are named only "arm". */
static void test_creature(void) {
    static const char *const names[] = {"root",           "LHipJoint", "LeftUpLeg", "LeftKnee", "LeftFoot",
                                        "foot_ik_target", "tail1",     "tail2",     "tail3",    "tail4",
                                        "arm_1",          "arm_2",     "arm_3"};
    static const int parents[] = {-1, 0, 1, 2, 3, 4, 0, 6, 7, 8, 0, 10, 11};
    static const ik_real offsets[][3] = {{0, 1, 0},       {0, 0, 0},     {0.1f, -0.1f, 0}, {0, -0.4f, 0}, {0, -0.4f, 0},
                                         {0, -0.1f, 0},   {0, 0, -0.2f}, {0, 0, -0.2f},    {0, 0, -0.2f}, {0, 0, -0.2f},
                                         {0.2f, 0.3f, 0}, {0.3f, 0, 0},  {0.3f, 0, 0}};
    static const char *const leg[] = {"LeftUpLeg", "LeftKnee", "LeftFoot"};
    static const char *const tail[] = {"tail1", "tail2", "tail3", "tail4"};
    static const char *const arm[] = {"arm_1", "arm_2", "arm_3"};
    ik_transform rest[13];
    ik_skeleton s;
    ik_named_chain chains[8];
    int j, n;
    for (j = 0; j < 13; ++j) {
        rest[j] = ik_transform_identity();
        rest[j].translation = ik_v3(offsets[j][0], offsets[j][1], offsets[j][2]);
    }
    CHECK(ik_skeleton_init(&s, 13, parents, names, rest, NULL) == IK_OK, "creature skeleton");
    n = ik_named_chains_find(&s, chains, 8);
    CHECK(n == 3, "creature: %d chains", n);
    CHECK(find(&s, chains, n, "leg", leg, 3) >= 0, "the leg skips the zero-length hip joint and the IK target");
    CHECK(find(&s, chains, n, "tail", tail, 4) >= 0, "the tail stops below the root, which carries the leg");
    CHECK(find(&s, chains, n, "arm", arm, 3) >= 0, "an arm by its run of 'arm' names");
    CHECK(paths_down(&s, chains, n) == 0, "chains run down the hierarchy");
}

/* A rig of few joints (issue 26, item 8): a hand right under the body
 * joint under the root is an arm of one joint, so a hand target never
 * turns the body or the root, and a root not named as a limb is never in
 * one; the same three joints named as a lone arm (its shoulder the root)
 * stay a three-joint arm. */
static void test_few_joints(void) {
    static const char *const body_names[] = {"root", "body", "hand_L"};
    static const char *const arm_names[] = {"UpperArm_L", "ForeArm_L", "Hand_L"};
    static const char *const plain_names[] = {"Character", "Mid", "hand_L"};
    static const char *const hand[] = {"hand_L"};
    static const char *const below_root[] = {"Mid", "hand_L"};
    static const int parents[] = {-1, 0, 1};
    ik_transform rest[3];
    ik_named_chain chains[4];
    ik_skeleton s;
    int j, n;
    for (j = 0; j < 3; ++j) rest[j] = ik_transform_identity();
    rest[1].translation = ik_v3(0, 1, 0);
    rest[2].translation = ik_v3(0.4f, 0.2f, 0);
    CHECK(ik_skeleton_init(&s, 3, parents, body_names, rest, NULL) == IK_OK, "few-joint skeleton");
    n = ik_named_chains_find(&s, chains, 4);
    CHECK(n == 1 && find(&s, chains, n, "arm", hand, 1) >= 0,
          "root > body > hand_L: the arm is the hand alone (%d "
          "chains, the first of %d joints)",
          n, n > 0 ? chains[0].count : 0);
    CHECK(ik_skeleton_init(&s, 3, parents, plain_names, rest, NULL) == IK_OK, "plainly named skeleton");
    n = ik_named_chains_find(&s, chains, 4);
    CHECK(n == 1 && find(&s, chains, n, "arm", below_root, 2) >= 0,
          "Character > Mid > hand_L: the root is never "
          "part of the arm (%d chains)",
          n);
    CHECK(ik_skeleton_init(&s, 3, parents, arm_names, rest, NULL) == IK_OK, "lone arm skeleton");
    n = ik_named_chains_find(&s, chains, 4);
    CHECK(n == 1 && find(&s, chains, n, "arm", arm_names, 3) >= 0,
          "a lone arm rooted at its shoulder keeps its "
          "three joints (%d chains)",
          n);
}

int main(void) {
    test_humanoid();
    test_creature();
    test_few_joints();
    return check_summary("test_named_chains");
}

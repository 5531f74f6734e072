/* Humanoid map, rig and limb solves on the procedural humanoid and on the
 * real rigs: roles found by name, the mapping file, mirrors; hands and feet
 * reach their targets (checked by forward kinematics), elbow and knee limits
 * hold, a target swept along a path never flips a joint; shoulders, look-at
 * and bad input. */
#include <ikit/humanoid.h>
#include <ikit/two_bone.h>
#include <math.h>

#include "support/check.h"
#include "support/rng.h"
#include "test_humanoid_fixture.h"

#define BEND_TOL 1e-3

static const char *role_joint(const fixture *f, int role) {
    return f->map.joint[role] >= 0 ? ik_skeleton_name(f->skeleton, f->map.joint[role]) : "(missing)";
}

/* ---- the map ---------------------------------------------------------------- */

static void test_map_built(void) {
    fixture f;
    char report[2048];
    int i;
    CHECK(fixture_built(&f), "built skeleton");
    CHECK(f.map_result == IK_OK && f.init_result == IK_OK, "map %s, init %s", ik_result_str(f.map_result),
          ik_result_str(f.init_result));
    CHECK(f.map.missing == 0, "missing %lx", f.map.missing);
    CHECK(strcmp(role_joint(&f, IK_ROLE_THIGH_L), "LeftUpLeg") == 0 &&
              strcmp(role_joint(&f, IK_ROLE_SHIN_R), "RightLeg") == 0 &&
              strcmp(role_joint(&f, IK_ROLE_TOE_L), "LeftToeBase") == 0 &&
              strcmp(role_joint(&f, IK_ROLE_CHEST), "Spine1") == 0 &&
              strcmp(role_joint(&f, IK_ROLE_CLAVICLE_R), "RightShoulder") == 0 &&
              strcmp(role_joint(&f, IK_ROLE_UPPER_ARM_R), "RightArm") == 0,
          "roles");
    ik_humanoid_map_describe(&f.map, f.skeleton, report, sizeof report);
    CHECK(strstr(report, "left_thigh = LeftUpLeg\n") != NULL, "%s", report);
    CHECK(ik_humanoid_map_describe(&f.map, f.skeleton, report, 10) > 10 && strlen(report) == 9, "truncation");
    /* body axes of a +Y up, +Z forward, left +X figure */
    CHECK(ik_vec3_distance(f.rig.up_rs, ik_v3(0, 1, 0)) < 1e-6 &&
              ik_vec3_distance(f.rig.forward_rs, ik_v3(0, 0, 1)) < 1e-6 &&
              ik_vec3_distance(f.rig.left_rs, ik_v3(1, 0, 0)) < 1e-6,
          "axes");
    for (i = 0; i < IK_ROLE_COUNT; ++i)
        CHECK(ik_humanoid_role_find(ik_humanoid_role_name(i), -1) == i &&
                  ik_humanoid_role_mirror(ik_humanoid_role_mirror(i)) == i,
              "role %d", i);
    CHECK(ik_humanoid_role_mirror(IK_ROLE_HAND_L) == IK_ROLE_HAND_R &&
              ik_humanoid_role_mirror(IK_ROLE_HEAD) == IK_ROLE_HEAD,
          "mirror roles");
    fixture_free(&f);
}

typedef struct expect {
    const char *file;
    int role;
    const char *joint;
} expect;

static void test_map_real(void) {
    static const expect expected[] = {
        {"gltf/robot.glb", IK_ROLE_THIGH_L, "UpperLeg.L"},
        {"gltf/robot.glb", IK_ROLE_SHIN_R, "LowerLeg.R"},
        {"gltf/robot.glb", IK_ROLE_FOOT_L, "(missing)"},
        {"gltf/robot.glb", IK_ROLE_CLAVICLE_L, "Shoulder.L"},
        {"gltf/robot.glb", IK_ROLE_HIPS, "Body"},
        {"gltf/robot.glb", IK_ROLE_HEAD, "Head"},
        {"gltf/girl.glb", IK_ROLE_FOOT_R, "Foot.R"},
        {"gltf/girl.glb", IK_ROLE_HAND_L, "Palm.L"},
        {"gltf/girl.glb", IK_ROLE_HIPS, "Root"},
        {"gltf/girl.glb", IK_ROLE_SPINE, "LowerSpine"},
        {"gltf/male_base_mesh.glb", IK_ROLE_THIGH_L, "thigh.L"},
        {"gltf/male_base_mesh.glb", IK_ROLE_TOE_R, "toe.R"},
        {"gltf/male_base_mesh.glb", IK_ROLE_CLAVICLE_R, "shoulder.R"},
        {"gltf/male_base_mesh.glb", IK_ROLE_HIPS, "spine"},
        {"gltf/male_base_mesh.glb", IK_ROLE_SPINE, "spine.001"},
        {"gltf/male_base_mesh.glb", IK_ROLE_CHEST, "spine.003"},
        {"gltf/rigged_figure.glb", IK_ROLE_THIGH_L, "leg_joint_L_1"},
        {"gltf/rigged_figure.glb", IK_ROLE_TOE_R, "leg_joint_R_5"},
        {"gltf/rigged_figure.glb", IK_ROLE_HAND_L, "arm_joint_L_3"},
        {"gltf/rigged_figure.glb", IK_ROLE_HEAD, "neck_joint_2"},
        {"bvh/131_01.bvh", IK_ROLE_THIGH_L, "LeftHip"},
        {"bvh/131_01.bvh", IK_ROLE_SHIN_L, "LeftKnee"},
        {"bvh/131_01.bvh", IK_ROLE_UPPER_ARM_L, "LeftShoulder"},
        {"bvh/131_01.bvh", IK_ROLE_CLAVICLE_L, "LeftCollar"},
        {"bvh/131_01.bvh", IK_ROLE_TOE_R, "RightToe"},
        {"bvh/131_01.bvh", IK_ROLE_HAND_R, "RightWrist"},
        {"bvh/01_01.bvh", IK_ROLE_THIGH_R, "RightUpLeg"},
        {"bvh/01_01.bvh", IK_ROLE_TOE_L, "LeftToeBase"},
        {"bvh/01_01.bvh", IK_ROLE_CLAVICLE_L, "LeftShoulder"},
        {"bvh/01_01.bvh", IK_ROLE_UPPER_ARM_L, "LeftArm"},
    };
    int i, k;
    for (i = 0; i < FIXTURE_FILE_COUNT; ++i) {
        fixture f;
        if (!fixture_file(&f, fixture_files[i])) {
            check_skip("real-asset corpus not found");
            fixture_free(&f);
            return;
        }
        CHECK(f.map_result == IK_OK && f.init_result == IK_OK, "%s: map %s, init %s", f.label,
              ik_result_str(f.map_result), ik_result_str(f.init_result));
        for (k = 0; k < (int)(sizeof expected / sizeof expected[0]); ++k)
            if (strcmp(expected[k].file, fixture_files[i]) == 0)
                CHECK(strcmp(role_joint(&f, expected[k].role), expected[k].joint) == 0, "%s: %s is %s, expected %s",
                      f.label, ik_humanoid_role_name(expected[k].role), role_joint(&f, expected[k].role),
                      expected[k].joint);
        if (strstr(f.label, "robot")) {
            CHECK(f.map.rejected[IK_ROLE_FOOT_L] >= 0 &&
                      strcmp(ik_skeleton_name(f.skeleton, f.map.rejected[IK_ROLE_FOOT_L]), "Foot.L") == 0,
                  "robot's Foot.L noted as a control joint");
            CHECK(f.rig.limb[IK_LIMB_LEG_L].end == -1, "robot leg ends at a virtual ankle");
        }
        /* IK control joints are never limbs */
        for (k = 0; k < IK_ROLE_COUNT; ++k) {
            const char *name = role_joint(&f, k);
            CHECK(strstr(name, "IK") == NULL && strstr(name, "Pole") == NULL, "%s: %s = %s", f.label,
                  ik_humanoid_role_name(k), name);
        }
        fixture_free(&f);
    }
}

static void test_mirror_names(void) {
    static const char *const pairs[][2] = {{"LeftUpLeg", "RightUpLeg"},
                                           {"thigh.L", "thigh.R"},
                                           {"leg_joint_L_1", "leg_joint_R_1"},
                                           {"hand_l", "hand_r"},
                                           {"mixamorig:LeftHand", "mixamorig:RightHand"},
                                           {"LEFTFOOT", "RIGHTFOOT"},
                                           {"leftArm", "rightArm"},
                                           {"ShoulderLeft", "ShoulderRight"},
                                           {"UpperLeg.R", "UpperLeg.L"},
                                           {"Skeleton_arm_joint_L__4_", "Skeleton_arm_joint_R__4_"},
                                           {"b_LeftLeg01_015", "b_RightLeg01_015"},
                                           {"Bip01 L Thigh", "Bip01 R Thigh"},
                                           {"DEF-thigh.L", "DEF-thigh.R"}};
    char out[64];
    int i;
    fixture f;
    for (i = 0; i < (int)(sizeof pairs / sizeof pairs[0]); ++i) {
        CHECK(ik_humanoid_mirror_name(pairs[i][0], out, sizeof out) && strcmp(out, pairs[i][1]) == 0, "%s -> %s",
              pairs[i][0], out);
        CHECK(ik_humanoid_mirror_name(pairs[i][1], out, sizeof out) && strcmp(out, pairs[i][0]) == 0, "%s -> %s",
              pairs[i][1], out);
    }
    CHECK(!ik_humanoid_mirror_name("Hips", out, sizeof out) && strcmp(out, "Hips") == 0, "no side");
    CHECK(!ik_humanoid_mirror_name("LowerArm", out, sizeof out) && !ik_humanoid_mirror_name("Lhand", out, sizeof out),
          "L followed by a lower-case word has no side");
    CHECK(!ik_humanoid_mirror_name("LeftArm", out, 5), "too small");
    if (fixture_built(&f)) {
        int mirror[IK_HUMANOID_BUILT_JOINTS];
        CHECK(ik_humanoid_mirror_joints(f.skeleton, mirror) == IK_OK, "mirror joints");
        for (i = 0; i < IK_ROLE_COUNT; ++i)
            CHECK(mirror[f.map.joint[i]] == f.map.joint[ik_humanoid_role_mirror(i)], "mirror of %s",
                  ik_humanoid_role_name(i));
        fixture_free(&f);
    }
}

/* A skeleton from a table of names, parents and offsets (rest rotations
 * identity), in caller arrays of at least `count`. */
typedef struct named_joint {
    const char *name;
    int parent;
    ik_real x, y, z;
} named_joint;

static int table_skeleton(const named_joint *table, int count, ik_skeleton *s, int *parents, const char **names,
                          ik_transform *rest) {
    int i;
    for (i = 0; i < count; ++i) {
        parents[i] = table[i].parent;
        names[i] = table[i].name;
        rest[i] = ik_transform_identity();
        rest[i].translation = ik_v3(table[i].x, table[i].y, table[i].z);
    }
    return ik_skeleton_init(s, count, parents, names, rest, NULL) == IK_OK;
}

/* Khronos CesiumMan's joints: names with "Skeleton_" prefixes, arms
 * numbered against the hierarchy on the left (__4_ > __3_ > __2_), no joint
 * called head (the neck's tip is), facing +Z. */
#define CESIUM_MAN_JOINTS 19
static const named_joint cesium_man[CESIUM_MAN_JOINTS] = {{"Skeleton_torso_joint_1", -1, 0, 0.9f, 0},
                                                          {"leg_joint_R_1", 0, -0.09f, -0.05f, 0},
                                                          {"leg_joint_R_2", 1, 0, -0.4f, 0.02f},
                                                          {"leg_joint_R_3", 2, 0, -0.4f, -0.02f},
                                                          {"leg_joint_R_5", 3, 0, -0.07f, 0.1f},
                                                          {"leg_joint_L_1", 0, 0.09f, -0.05f, 0},
                                                          {"leg_joint_L_2", 5, 0, -0.4f, 0.02f},
                                                          {"leg_joint_L_3", 6, 0, -0.4f, -0.02f},
                                                          {"leg_joint_L_5", 7, 0, -0.07f, 0.1f},
                                                          {"Skeleton_torso_joint_2", 0, 0, 0.2f, 0},
                                                          {"torso_joint_3", 9, 0, 0.25f, 0},
                                                          {"Skeleton_arm_joint_R", 10, -0.15f, 0.05f, 0},
                                                          {"Skeleton_arm_joint_R__2_", 11, -0.25f, -0.1f, 0},
                                                          {"Skeleton_arm_joint_R__3_", 12, -0.22f, -0.1f, 0.03f},
                                                          {"Skeleton_arm_joint_L__4_", 10, 0.15f, 0.05f, 0},
                                                          {"Skeleton_arm_joint_L__3_", 14, 0.25f, -0.1f, 0},
                                                          {"Skeleton_arm_joint_L__2_", 15, 0.22f, -0.1f, 0.03f},
                                                          {"Skeleton_neck_joint_1", 10, 0, 0.1f, 0},
                                                          {"Skeleton_neck_joint_2", 17, 0, 0.1f, 0.02f}};

/* CesiumMan's names: every role found, each limb in hierarchy order; a rig
 * is built, facing +Z. */
static void test_map_khronos_names(void) {
    static const struct {
        int role;
        const char *joint;
    } expected[] = {{IK_ROLE_HIPS, "Skeleton_torso_joint_1"},
                    {IK_ROLE_SPINE, "Skeleton_torso_joint_2"},
                    {IK_ROLE_CHEST, "torso_joint_3"},
                    {IK_ROLE_NECK, "Skeleton_neck_joint_1"},
                    {IK_ROLE_HEAD, "Skeleton_neck_joint_2"},
                    {IK_ROLE_UPPER_ARM_L, "Skeleton_arm_joint_L__4_"},
                    {IK_ROLE_FOREARM_L, "Skeleton_arm_joint_L__3_"},
                    {IK_ROLE_HAND_L, "Skeleton_arm_joint_L__2_"},
                    {IK_ROLE_UPPER_ARM_R, "Skeleton_arm_joint_R"},
                    {IK_ROLE_FOREARM_R, "Skeleton_arm_joint_R__2_"},
                    {IK_ROLE_HAND_R, "Skeleton_arm_joint_R__3_"},
                    {IK_ROLE_THIGH_L, "leg_joint_L_1"},
                    {IK_ROLE_SHIN_L, "leg_joint_L_2"},
                    {IK_ROLE_FOOT_L, "leg_joint_L_3"},
                    {IK_ROLE_TOE_R, "leg_joint_R_5"}};
    enum { N = CESIUM_MAN_JOINTS };
    int parents[N], i;
    const char *names[N];
    ik_transform rest[N];
    ik_skeleton s;
    ik_humanoid_map map;
    ik_humanoid rig;
    CHECK(table_skeleton(cesium_man, N, &s, parents, names, rest), "CesiumMan skeleton");
    CHECK(ik_humanoid_map_find(&s, NULL, 0, &map) == IK_OK, "CesiumMan's names: a humanoid (missing %lx)", map.missing);
    for (i = 0; i < (int)(sizeof expected / sizeof expected[0]); ++i) {
        int j = map.joint[expected[i].role];
        CHECK(j >= 0 && strcmp(ik_skeleton_name(&s, j), expected[i].joint) == 0, "%s = %s, not %s",
              ik_humanoid_role_name(expected[i].role), expected[i].joint, j >= 0 ? ik_skeleton_name(&s, j) : "-");
    }
    CHECK(ik_humanoid_init(&rig, &s, &map) == IK_OK && ik_vec3_distance(rig.forward_rs, ik_v3(0, 0, 1)) < 1e-6,
          "CesiumMan's rig faces +Z");
}

/* A fox in the Khronos Fox's names (b_Hip_01, b_Head_05, b_LeftLeg01_015 >
 * b_LeftLeg02_016 > b_LeftFoot01_017): its hips and head are found (they
 * were reported missing), the hind legs in hierarchy order; it does not
 * stand, so it is no humanoid: IK_ERR_UNSUPPORTED. */
static void test_map_fox(void) {
    static const named_joint fox[] = {{"b_Root_00", -1, 0, 0, 0},
                                      {"b_Hip_01", 0, 0, 0.5f, 0},
                                      {"b_Spine01_02", 1, 0, 0, 0.2f},
                                      {"b_Spine02_03", 2, 0, 0, 0.2f},
                                      {"b_Neck_04", 3, 0, 0.1f, 0.1f},
                                      {"b_Head_05", 4, 0, 0.1f, 0.1f},
                                      {"b_RightUpperArm_06", 3, -0.08f, -0.05f, 0},
                                      {"b_RightForeArm_07", 6, 0, -0.2f, -0.02f},
                                      {"b_RightHand_08", 7, 0, -0.2f, 0.02f},
                                      {"b_LeftUpperArm_09", 3, 0.08f, -0.05f, 0},
                                      {"b_LeftForeArm_010", 9, 0, -0.2f, -0.02f},
                                      {"b_LeftHand_011", 10, 0, -0.2f, 0.02f},
                                      {"b_Tail01_012", 1, 0, 0.02f, -0.1f},
                                      {"b_Tail02_013", 12, 0, 0, -0.15f},
                                      {"b_LeftLeg01_015", 1, 0.08f, -0.05f, -0.02f},
                                      {"b_LeftLeg02_016", 14, 0, -0.2f, 0.05f},
                                      {"b_LeftFoot01_017", 15, 0, -0.2f, -0.05f},
                                      {"b_RightLeg01_019", 1, -0.08f, -0.05f, -0.02f},
                                      {"b_RightLeg02_020", 17, 0, -0.2f, 0.05f},
                                      {"b_RightFoot01_021", 18, 0, -0.2f, -0.05f}};
    enum { N = sizeof fox / sizeof fox[0] };
    int parents[N];
    const char *names[N];
    ik_transform rest[N];
    ik_skeleton s;
    ik_humanoid_map map;
    ik_humanoid rig;
    char report[2048];
    CHECK(table_skeleton(fox, N, &s, parents, names, rest), "fox skeleton");
    ik_humanoid_map_find(&s, NULL, 0, &map);
    ik_humanoid_map_describe(&map, &s, report, sizeof report);
    CHECK(strstr(report, "hips = b_Hip_01\n") && strstr(report, "head = b_Head_05\n") &&
              strstr(report, "left_thigh = b_LeftLeg01_015\n") && strstr(report, "left_shin = b_LeftLeg02_016\n") &&
              strstr(report, "left_upper_arm = b_LeftUpperArm_09\n"),
          "the fox's roles by name: %s", report);
    CHECK(ik_humanoid_init(&rig, &s, &map) == IK_ERR_UNSUPPORTED, "a fox does not stand: no humanoid");
    ik_humanoid_explain(IK_OK, IK_ERR_UNSUPPORTED, &map, report, sizeof report);
    CHECK(strcmp(report,
                 "no humanoid found: the figure does not stand upright (its legs do not hang away from its "
                 "head: a quadruped?)") == 0,
          "the fox explained: %s", report);
}

/* ik_humanoid_explain: the required roles a map misses, in role order; the
 * rest pose's faults; nothing for a usable rig; cut short as snprintf. */
static void test_explain(void) {
    static const named_joint leg[] = {{"Hips", -1, 0, 1, 0},
                                      {"LeftUpLeg", 0, 0.1f, -0.05f, 0},
                                      {"LeftLeg", 1, 0, -0.45f, 0},
                                      {"LeftFoot", 2, 0, -0.45f, 0}};
    enum { N = sizeof leg / sizeof leg[0] };
    int parents[N], n;
    const char *names[N];
    ik_transform rest[N];
    ik_skeleton s;
    ik_humanoid_map map;
    char text[400];
    CHECK(table_skeleton(leg, N, &s, parents, names, rest), "a leg");
    CHECK(ik_humanoid_map_find(&s, NULL, 0, &map) == IK_ERR_NOT_FOUND, "a leg is no humanoid");
    n = ik_humanoid_explain(IK_ERR_NOT_FOUND, IK_OK, &map, text, sizeof text);
    CHECK(strcmp(text,
                 "no humanoid found: missing chest, head, left_upper_arm, right_upper_arm, left_forearm, "
                 "right_forearm, left_hand, right_hand, right_thigh, right_shin") == 0 &&
              n == (int)strlen(text),
          "the missing roles: %s", text);
    CHECK(ik_humanoid_explain(IK_ERR_NOT_FOUND, IK_OK, &map, text, 20) == n && strlen(text) == 19 &&
              strncmp(text, "no humanoid found: ", 19) == 0,
          "cut short: %s", text);
    CHECK(ik_humanoid_explain(IK_ERR_NOT_FOUND, IK_OK, &map, NULL, 0) == n, "the length alone");
    ik_humanoid_explain(IK_OK, IK_ERR_HIERARCHY, &map, text, sizeof text);
    CHECK(strstr(text, "the humanoid's rest pose is not usable: ") == text && strstr(text, "(roles out of body order)"),
          "%s", text);
    ik_humanoid_explain(IK_OK, IK_ERR_DEGENERATE, &map, text, sizeof text);
    CHECK(strstr(text, "zero-length limbs") != NULL, "%s", text);
    CHECK(ik_humanoid_explain(IK_OK, IK_OK, &map, text, sizeof text) == 0 && text[0] == 0, "a usable rig: nothing");
    ik_humanoid_explain(IK_ERR_RANGE, IK_OK, NULL, text, sizeof text);
    CHECK(strstr(text, "no humanoid found: ") == text && strcmp(text + 19, ik_result_str(IK_ERR_RANGE)) == 0,
          "a map that failed otherwise: %s", text);
}

/* More joints answer to a role's names than the map keeps from its first
 * pass over the joints (8 a role): left hands named "ns<k>:LeftHand" hung
 * from the hips, none where a hand goes, all ahead in search order of the
 * built figure's real hand, renamed "LeftWrist" (a later candidate) or
 * "LeftHand2" (found only with its digits dropped). The real hand is still
 * found, the first decoy named as the misplaced joint, and every other role
 * is the same joint as without decoys; with fewer decoys than are kept, too. */
static void test_map_many_matches(void) {
    enum { DECOYS_MAX = 20, JOINTS_MAX = IK_HUMANOID_BUILT_JOINTS + DECOYS_MAX };
    static const char *const real_names[] = {"LeftWrist", "LeftHand2"};
    static const int decoy_counts[] = {0, 3, 8, 9, DECOYS_MAX};
    int parents[JOINTS_MAX], n, hips, hand, k, c, d, role;
    const char *names[JOINTS_MAX];
    char decoy_names[DECOYS_MAX][24];
    ik_transform rest[JOINTS_MAX];
    ik_skeleton s;
    ik_humanoid_map plain, map;
    n = ik_humanoid_build_skeleton((ik_real)1.8, IK_HUMANOID_BUILT_JOINTS, parents, names, rest);
    CHECK(n > 0 && ik_skeleton_init(&s, n, parents, names, rest, NULL) == IK_OK &&
              ik_humanoid_map_find(&s, NULL, 0, &plain) == IK_OK,
          "built figure mapped");
    hips = plain.joint[IK_ROLE_HIPS];
    hand = plain.joint[IK_ROLE_HAND_L];
    if (n <= 0 || hips < 0 || hand < 0) return;
    for (d = 0; d < DECOYS_MAX; ++d) {
        snprintf(decoy_names[d], sizeof decoy_names[d], "ns%d:LeftHand", d);
        parents[n + d] = hips;
        names[n + d] = decoy_names[d];
        rest[n + d] = ik_transform_identity();
        rest[n + d].translation = ik_v3((ik_real)0.01 * (ik_real)(d + 1), 0, 0);
    }
    for (k = 0; k < 2; ++k)
        for (c = 0; c < (int)(sizeof decoy_counts / sizeof decoy_counts[0]); ++c) {
            int decoys = decoy_counts[c], same = 1, made;
            names[hand] = real_names[k];
            made = ik_skeleton_init(&s, n + decoys, parents, names, rest, NULL) == IK_OK;
            CHECK(made, "skeleton with %d decoys", decoys);
            if (!made) continue;
            CHECK(ik_humanoid_map_find(&s, NULL, 0, &map) == IK_OK, "%s, %d decoys: mapped", real_names[k], decoys);
            CHECK(map.joint[IK_ROLE_HAND_L] == hand, "%s, %d decoys: the left hand is %s", real_names[k], decoys,
                  ik_skeleton_name(&s, map.joint[IK_ROLE_HAND_L]));
            CHECK(map.rejected[IK_ROLE_HAND_L] == (decoys ? n : -1), "%s, %d decoys: misplaced %s", real_names[k],
                  decoys, ik_skeleton_name(&s, map.rejected[IK_ROLE_HAND_L]));
            for (role = 0; role < IK_ROLE_COUNT; ++role) same &= map.joint[role] == plain.joint[role];
            CHECK(same, "%s, %d decoys: every role as without decoys", real_names[k], decoys);
        }
}

/* A head found by structure stops 32 joints below the chest: CesiumMan's
 * names (no joint is called head; the neck's tip is taken) with a chain of
 * 2,000 joints hanging from the neck's tip (hair). The walk followed the
 * deepest branch to its end and compared depths by scanning the rig for
 * every joint of it: 3,000 such joints took 29 s to map. Now the head is the
 * chain's joint 32 below the chest, and the rest of the map is unchanged. */
static void test_map_long_chain_under_chest(void) {
    enum { BODY = CESIUM_MAN_JOINTS, HAIR = 2000, N = BODY + HAIR };
    static named_joint table[N];
    static char hair_names[HAIR][16];
    static int parents[N];
    static const char *names[N];
    static ik_transform rest[N];
    ik_skeleton s;
    ik_humanoid_map plain, map;
    int i, same = 1, chest, head;
    for (i = 0; i < N; ++i) {
        if (i < BODY) {
            table[i] = cesium_man[i];
            continue;
        }
        snprintf(hair_names[i - BODY], sizeof hair_names[0], "hair_%d", i - BODY);
        table[i].name = hair_names[i - BODY];
        table[i].parent = i - 1; /* hair_0 hangs from the neck's tip, joint BODY - 1 */
        table[i].x = table[i].z = 0;
        table[i].y = 0.001f;
    }
    CHECK(table_skeleton(table, BODY, &s, parents, names, rest) && ik_humanoid_map_find(&s, NULL, 0, &plain) == IK_OK,
          "CesiumMan's body maps");
    CHECK(table_skeleton(table, N, &s, parents, names, rest) && ik_humanoid_map_find(&s, NULL, 0, &map) == IK_OK,
          "with 2,000 joints of hair it maps");
    chest = map.joint[IK_ROLE_CHEST];
    head = map.joint[IK_ROLE_HEAD];
    CHECK(chest >= 0 && head >= 0 && ik_skeleton_depth(&s, head) - ik_skeleton_depth(&s, chest) == 32 &&
              strcmp(ik_skeleton_name(&s, head), "hair_29") == 0,
          "the head by structure is 32 below the chest: %s", head >= 0 ? ik_skeleton_name(&s, head) : "-");
    CHECK(strcmp(ik_skeleton_name(&s, plain.joint[IK_ROLE_HEAD]), "Skeleton_neck_joint_2") == 0,
          "without the hair, the neck's tip");
    for (i = 0; i < IK_ROLE_COUNT; ++i)
        if (i != IK_ROLE_HEAD) same &= map.joint[i] == plain.joint[i];
    CHECK(same, "every other role as without the hair");
}

/* A long chain below a hand, a foot and the head (a prop's rope, hair,
 * cloth): the rig reads the rest pose the same as without it. Its scans of
 * a joint's descendants (the lowest point of a leg, the toes' tip, the
 * face) looked at the whole rig for each joint below, so 50,000 joints
 * under a hand took 14 s; they stop 32 joints below now. Chains of 2,000
 * hang from LeftHand, LeftToeBase's end and Head of the built figure. */
static void test_rig_long_chains_below(void) {
    enum { CHAIN = 2000, JOINTS = IK_HUMANOID_BUILT_JOINTS + 3 * CHAIN };
    static int parents[JOINTS];
    static const char *names[JOINTS];
    static char chain_names[3 * CHAIN][32]; /* room for any two ints: -O1 cannot bound them */
    static ik_transform rest[JOINTS];
    static const char *const anchors[3] = {"LeftHand", "LeftToeBase", "Head"};
    ik_skeleton plain_s, s;
    ik_humanoid_map plain_map, map;
    ik_humanoid plain, rig;
    int n = ik_humanoid_build_skeleton((ik_real)1.8, IK_HUMANOID_BUILT_JOINTS, parents, names, rest), a, i, at,
        same = 1;
    CHECK(n > 0 && ik_skeleton_init(&plain_s, n, parents, names, rest, NULL) == IK_OK &&
              ik_humanoid_map_find(&plain_s, NULL, 0, &plain_map) == IK_OK &&
              ik_humanoid_init(&plain, &plain_s, &plain_map) == IK_OK,
          "built figure");
    if (n <= 0) return;
    at = n;
    for (a = 0; a < 3; ++a) {
        int from = ik_skeleton_find(&plain_s, anchors[a]);
        for (i = 0; i < CHAIN; ++i, ++at) {
            snprintf(chain_names[at - n], sizeof chain_names[0], "rope%d_%d", a, i);
            names[at] = chain_names[at - n];
            parents[at] = i ? at - 1 : from;
            rest[at] = ik_transform_identity();
            /* straight down (a rope) a millimetre a joint: no lower than a sole for the feet's chain */
            rest[at].translation = ik_v3(0, a == 1 ? 0 : (ik_real)-0.001, 0);
        }
    }
    CHECK(ik_skeleton_init(&s, at, parents, names, rest, NULL) == IK_OK &&
              ik_humanoid_map_find(&s, NULL, 0, &map) == IK_OK && ik_humanoid_init(&rig, &s, &map) == IK_OK,
          "the figure with 6,000 joints of rope maps and makes a rig");
    for (i = 0; i < IK_ROLE_COUNT; ++i) same &= map.joint[i] == plain_map.joint[i];
    CHECK(same, "every role as without the ropes");
    CHECK(ik_vec3_distance(rig.up_rs, plain.up_rs) < 1e-6 &&
              ik_vec3_distance(rig.forward_rs, plain.forward_rs) < 1e-6 &&
              IK_FABS(rig.floor_rs - plain.floor_rs) < 1e-6,
          "up, forward and the floor as without the ropes");
    for (i = 0; i < IK_LIMB_COUNT; ++i)
        CHECK(IK_FABS(rig.limb[i].upper_length - plain.limb[i].upper_length) < 1e-6 &&
                  IK_FABS(rig.limb[i].lower_length - plain.limb[i].lower_length) < 1e-6,
              "limb %d's lengths as without the ropes", i);
}

/* A skeleton with unusual names mapped by a mapping file. */
static void test_mapping_file(void) {
    fixture f;
    const char *names[IK_HUMANOID_BUILT_JOINTS];
    ik_skeleton odd;
    ik_humanoid_pair pairs[32];
    ik_humanoid_map map;
    int count = 0, line = 0, i;
    static const char text[] =
        "# odd rig\n"
        "hips = J0\n  left_thigh =  J13 \r\nleft_shin=J14\nleft_foot = J15\nleft_toe = J16\n"
        "right_thigh = J18\nright_shin = J19\nright_foot = J20\nright_toe = J21\n"
        "left_upper_arm = J6\nleft_forearm = J7\nleft_hand = J8\nleft_clavicle = J5\n"
        "right_upper_arm = J10\nright_forearm = J11\nright_hand = J12\nright_clavicle = J9\n"
        "\nchest = J2\nneck = J3\nhead = J4\nspine = J1";
    static char storage[IK_HUMANOID_BUILT_JOINTS][16]; /* room for any int */
    CHECK(fixture_built(&f), "built");
    for (i = 0; i < IK_HUMANOID_BUILT_JOINTS; ++i) {
        snprintf(storage[i], sizeof storage[i], "J%d", i);
        names[i] = storage[i];
    }
    CHECK(ik_skeleton_init(&odd, IK_HUMANOID_BUILT_JOINTS, f.built_parents, names, f.built_rest, NULL) == IK_OK, "odd");
    CHECK(ik_humanoid_map_find(&odd, NULL, 0, &map) == IK_ERR_NOT_FOUND, "no names, no map");
    CHECK(ik_humanoid_parse_mapping(text, sizeof text - 1, pairs, 32, &count, &line) == IK_OK && count == 21,
          "parse: %d pairs, line %d", count, line);
    CHECK(count > 1 && pairs[1].role == IK_ROLE_THIGH_L && pairs[1].name_length == 3 &&
              memcmp(pairs[1].name, "J13", 3) == 0,
          "trimmed");
    CHECK(ik_humanoid_map_find(&odd, pairs, count, &map) == IK_OK && map.missing == 0, "mapped: %lx", map.missing);
    for (i = 0; i < IK_ROLE_COUNT; ++i) CHECK(map.joint[i] == f.map.joint[i], "%s", ik_humanoid_role_name(i));
    /* errors, with their lines */
    CHECK(ik_humanoid_parse_mapping("hips = A\nelbow = B\n", 19, pairs, 32, &count, &line) == IK_ERR_PARSE && line == 2,
          "unknown role");
    CHECK(ik_humanoid_parse_mapping("hips A\n", 7, pairs, 32, &count, &line) == IK_ERR_PARSE && line == 1, "no =");
    CHECK(ik_humanoid_parse_mapping("\nhips = \n", 9, pairs, 32, &count, &line) == IK_ERR_PARSE && line == 2,
          "empty name");
    CHECK(ik_humanoid_parse_mapping("hips=A\nhips=B", 13, pairs, 32, &count, &line) == IK_ERR_PARSE && line == 2,
          "twice");
    CHECK(ik_humanoid_parse_mapping("hips=A\nhead=B", 13, pairs, 1, &count, &line) == IK_ERR_CAPACITY, "capacity");
    CHECK(ik_humanoid_parse_mapping(NULL, 3, pairs, 1, &count, &line) == IK_ERR_NULL, "null");
    /* a pair naming no joint makes its role missing */
    pairs[0].role = IK_ROLE_HEAD;
    pairs[0].name = "Nobody";
    pairs[0].name_length = 6;
    CHECK(ik_humanoid_map_find(f.skeleton, pairs, 1, &map) == IK_ERR_NOT_FOUND && map.joint[IK_ROLE_HEAD] < 0,
          "bad pair");
    pairs[0].role = 99;
    CHECK(ik_humanoid_map_find(f.skeleton, pairs, 1, &map) == IK_ERR_RANGE, "bad role");
    fixture_free(&f);
}

/* ---- limbs ------------------------------------------------------------------ */

/* Random targets at distances the hinge range can span, in random directions
 * from the shoulder or hip: every one reached within 1e-3 of the limb's
 * length, the bend inside its limits, bone lengths unchanged. */
static void reach_cases(fixture *f, int cases, rng *r) {
    check_property reach = {"reach", 0, 0}, limits = {"bend limits", 0, 0}, lengths = {"lengths", 0, 0};
    ik_mat4 *rest = (ik_mat4 *)malloc(sizeof(ik_mat4) * (size_t)f->skeleton->joint_count);
    int c, limb;
    fixture_reset(f);
    memcpy(rest, f->model, sizeof(ik_mat4) * (size_t)f->skeleton->joint_count);
    for (c = 0; c < cases; ++c)
        for (limb = 0; limb < IK_LIMB_COUNT; ++limb) {
            ik_humanoid_solve job = ik_humanoid_solve_def();
            const ik_humanoid_limb *l = &f->rig.limb[limb];
            ik_real s = fixture_scale(f), l1 = l->upper_length * s, l2 = l->lower_length * s;
            ik_real lo = limb >= IK_LIMB_LEG_L ? f->rig.limits.knee_max : f->rig.limits.elbow_max;
            ik_real d_min = IK_SQRT(l1 * l1 + l2 * l2 + 2 * l1 * l2 * IK_COS(lo)), d, bend, err;
            ik_vec3 target;
            fixture_reset(f);
            d = rng_range(r, (double)d_min * 1.05 + 1e-6, 0.98 * (double)(l1 + l2));
            target = ik_vec3_mad(fixture_pos(f, l->start), rng_direction(r), d);
            fixture_bind_job(f, &job);
            job.adjust_shoulders = 0;
            job.goal[limb].enabled = 1;
            job.goal[limb].position_ms = target;
            if (ik_humanoid_solve_run(&job) != IK_OK) {
                PROPERTY_CASE(reach, 0, "%s: solve failed", f->label);
                continue;
            }
            ik_skeleton_fk(f->skeleton, f->pose, &f->root_ms, f->model);
            err = ik_vec3_distance(fixture_end(f, limb), target);
            PROPERTY_CASE(reach, err <= 1e-3 * (l1 + l2), "%s limb %d: off by %g of %g", f->label, limb, (double)err,
                          (double)(l1 + l2));
            bend = fixture_bend(f, limb);
            PROPERTY_CASE(limits, bend >= -BEND_TOL && bend <= lo + BEND_TOL, "%s limb %d: bend %g deg", f->label, limb,
                          (double)ik_deg(bend));
            PROPERTY_CASE(lengths, fixture_lengths_kept(f, rest, (ik_real)1e-4) && fixture_pose_finite(f), "%s",
                          f->label);
        }
    property_end(&reach);
    property_end(&limits);
    property_end(&lengths);
    free(rest);
}

/* Sweep a hand and a foot target along a figure-eight in front of the body,
 * solving each frame from the last: the bend stays on its side of the hinge
 * (never negative) and the elbow or knee never jumps across its circle (a
 * flip moves it by about twice the circle's radius, some 0.5 limb lengths,
 * in one frame). The targets move at most 0.0024 limb lengths per frame
 * (|d/dt (0.25 sin t, 0.25 sin 2t)| <= 0.56 over 2 pi / 1440); elbows and
 * knees follow as smoothly (measured at most 0.0026 on every rig), so the
 * bound is 0.01. */
static void sweep_no_flip(fixture *f) {
    check_property side = {"bend side", 0, 0}, jump = {"no jump", 0, 0};
    ik_vec3 prev_mid[IK_LIMB_COUNT];
    int frame, limb;
    const int frames = 1440;
    fixture_reset(f);
    for (limb = 0; limb < IK_LIMB_COUNT; ++limb) prev_mid[limb] = fixture_pos(f, f->rig.limb[limb].mid);
    for (frame = 0; frame <= frames; ++frame) {
        ik_humanoid_solve job = ik_humanoid_solve_def();
        ik_real t = (ik_real)frame / frames * 2 * IK_PI;
        fixture_bind_job(f, &job);
        for (limb = 0; limb < IK_LIMB_COUNT; ++limb) {
            const ik_humanoid_limb *l = &f->rig.limb[limb];
            ik_real len = fixture_limb_length(f, limb);
            ik_vec3 base = fixture_pos(f, l->start), target;
            ik_vec3 down = ik_vec3_neg(fixture_up(f)), fwd = fixture_forward(f), left = fixture_left(f);
            if (limb == IK_LIMB_ARM_R || limb == IK_LIMB_LEG_R) left = ik_vec3_neg(left);
            target = ik_vec3_mad(base, down, len * (ik_real)0.55);
            target = ik_vec3_mad(target, fwd, len * ((ik_real)0.35 + (ik_real)0.25 * IK_SIN(t)));
            target = ik_vec3_mad(target, left, len * (ik_real)0.25 * IK_SIN(2 * t));
            job.goal[limb].enabled = 1;
            job.goal[limb].position_ms = target;
        }
        if (ik_humanoid_solve_run(&job) != IK_OK) {
            PROPERTY_CASE(side, 0, "solve failed");
            continue;
        }
        for (limb = 0; limb < IK_LIMB_COUNT; ++limb) {
            ik_vec3 mid = fixture_pos(f, f->rig.limb[limb].mid);
            ik_real len = fixture_limb_length(f, limb);
            PROPERTY_CASE(side, fixture_bend(f, limb) >= -BEND_TOL, "%s limb %d frame %d: bend %g", f->label, limb,
                          frame, (double)ik_deg(fixture_bend(f, limb)));
            if (frame > 1)
                PROPERTY_CASE(jump, ik_vec3_distance(mid, prev_mid[limb]) < (ik_real)0.01 * len,
                              "%s limb %d frame %d: moved %g of %g", f->label, limb, frame,
                              (double)ik_vec3_distance(mid, prev_mid[limb]), (double)len);
            prev_mid[limb] = mid;
        }
    }
    property_end(&side);
    property_end(&jump);
}

/* Each foot lifted from hanging down to 80 degrees forward, each hand to 62
 * (near shoulder height an elbow out to the side is as natural as one
 * behind), in 3-degree steps at 0.85 limb lengths from the hip or shoulder,
 * each solve from the standing pose: the knee stays on the forward side of
 * the hip-ankle line, the elbow on the backward side. A pole fixed where the
 * knee was put it on the other side (the leg rolled 180 degrees) past 63
 * degrees on a straight-legged rig, and left a T-pose's elbows out
 * sideways. */
static void lift_no_roll(fixture *f) {
    check_property side = {"lift keeps the bend side", 0, 0};
    int limb, step;
    for (limb = 0; limb < IK_LIMB_COUNT; ++limb)
        for (step = 0; step <= (limb >= IK_LIMB_LEG_L ? 25 : 19); ++step) {
            const ik_humanoid_limb *l = &f->rig.limb[limb];
            ik_humanoid_solve job = ik_humanoid_solve_def();
            ik_real angle = ik_rad((ik_real)(5 + 3 * step)), len;
            ik_vec3 base, target, off, fwd = fixture_forward(f);
            fixture_reset(f);
            len = fixture_limb_length(f, limb);
            base = fixture_pos(f, l->start);
            target = ik_vec3_mad(base, ik_vec3_neg(fixture_up(f)), (ik_real)0.85 * len * IK_COS(angle));
            target = ik_vec3_mad(target, fwd, (ik_real)0.85 * len * IK_SIN(angle));
            fixture_bind_job(f, &job);
            job.adjust_shoulders = 0;
            job.adjust_pelvis = 0;
            job.goal[limb].enabled = 1;
            job.goal[limb].position_ms = target;
            if (ik_humanoid_solve_run(&job) != IK_OK) {
                PROPERTY_CASE(side, 0, "%s limb %d: solve failed", f->label, limb);
                continue;
            }
            off = ik_vec3_reject(ik_vec3_sub(fixture_pos(f, l->mid), fixture_pos(f, l->start)),
                                 ik_vec3_normalize(ik_vec3_sub(fixture_end(f, limb), fixture_pos(f, l->start))));
            PROPERTY_CASE(
                side, (limb >= IK_LIMB_LEG_L ? 1 : -1) * ik_vec3_dot(off, fwd) > (ik_real)0.05 * ik_vec3_length(off),
                "%s limb %d at %g deg: middle joint %g of its offset forward", f->label, limb, (double)ik_deg(angle),
                (double)(ik_vec3_dot(off, fwd) / ik_vec3_length(off)));
        }
    fixture_reset(f);
    property_end(&side);
}

/* 300 reach cases on the built rig, 60 on each real one. */
static void limbs_rig(fixture *f, int built, void *context) {
    reach_cases(f, built ? 300 : 60, (rng *)context);
    sweep_no_flip(f);
    lift_no_roll(f);
}

/* The built humanoid mirrored (every rest offset's x negated: its "left"
 * joints now on the figure's right): it still faces +Z, where its toes
 * point, and its straight knees still bend forward (left x up alone said
 * -Z and bent them backward). */
static void test_mirrored_rig(void) {
    fixture f;
    int i, feet[2];
    ik_vec3 forward = ik_vec3_zero();
    CHECK(fixture_built(&f), "built skeleton");
    fixture_free(&f);
    for (i = 0; i < f.built.joint_count; ++i) f.built_rest[i].translation.x = -f.built_rest[i].translation.x;
    CHECK(ik_skeleton_init(&f.built, f.built.joint_count, f.built_parents, f.built_names, f.built_rest, NULL) == IK_OK,
          "mirrored skeleton");
    f.skeleton = &f.built;
    f.label = "built, mirrored";
    fixture_finish(&f);
    CHECK(f.init_result == IK_OK, "mirrored rig: %s", ik_result_str(f.init_result));
    CHECK(ik_vec3_distance(f.rig.forward_rs, ik_v3(0, 0, 1)) < 1e-6 &&
              ik_vec3_distance(f.rig.left_rs, ik_v3(-1, 0, 0)) < 1e-6,
          "mirrored rig faces +Z (forward %g %g %g), its left on -X", (double)f.rig.forward_rs.x,
          (double)f.rig.forward_rs.y, (double)f.rig.forward_rs.z);
    feet[0] = f.map.joint[IK_ROLE_FOOT_L];
    feet[1] = f.map.joint[IK_ROLE_FOOT_R];
    CHECK(ik_figure_forward(f.skeleton, feet, 2, -1, ik_v3(0, 1, 0), &forward) &&
              ik_vec3_distance(forward, ik_v3(0, 0, 1)) < 1e-6,
          "ik_figure_forward from the toes");
    forward = ik_vec3_zero();
    CHECK(!ik_figure_forward(f.skeleton, NULL, 0, f.map.joint[IK_ROLE_HEAD], ik_v3(0, 1, 0), &forward) &&
              ik_vec3_length(forward) == 0,
          "no toes and a head with nothing off its axis: no forward, untouched");
    lift_no_roll(&f);
    fixture_free(&f);
}

/* ---- mirrored roots and mirrored rigs (issue 11) ----------------------------- */

static void look_around_rig(fixture *f, int built, void *context);

/* Random whole-body jobs solved on a rig and on a twin (fixture_twin_of)
 * with everything mapped: hands and feet to random targets (hands also
 * turned to random rotations), with and without a look-at and the second
 * pass. A right solve does not care which way round its model space is: every
 * twin joint must land on the mapped original within 1e-3 leg lengths and
 * every hand and foot turn within 0.5 degrees of the mapped rotation. */
static void twin_jobs(fixture *f, fixture_twin *t, rng *r, int cases) {
    check_property same = {"mirrored twin solves as the original", 0, 0};
    int c, limb;
    for (c = 0; c < cases; ++c) {
        ik_humanoid_solve job = ik_humanoid_solve_def(), mapped;
        ik_real gap, turn;
        fixture_reset(f);
        fixture_reset(&t->f);
        fixture_bind_job(f, &job);
        for (limb = 0; limb < IK_LIMB_COUNT; ++limb) {
            const ik_humanoid_limb *l = &f->rig.limb[limb];
            ik_real len = fixture_limb_length(f, limb);
            job.goal[limb].enabled = 1;
            job.goal[limb].position_ms =
                ik_vec3_mad(fixture_pos(f, l->start), rng_direction(r), (ik_real)rng_range(r, 0.5, 0.97) * len);
            job.goal[limb].use_rotation = limb < IK_LIMB_LEG_L && l->end >= 0;
            if (job.goal[limb].use_rotation)
                job.goal[limb].rotation_ms =
                    ik_quat_mul(ik_quat_from_axis_angle(rng_direction(r), (ik_real)rng_range(r, 0, 1.2)),
                                ik_mat4_rotation(&f->model[l->end]));
        }
        job.look_at = c % 2;
        job.look_target_ms = ik_vec3_mad(fixture_pos(f, f->rig.map.joint[IK_ROLE_HEAD]), rng_direction(r),
                                         fixture_limb_length(f, IK_LIMB_LEG_L));
        job.passes = 1 + c % 3 / 2;
        mapped = fixture_map_job(&job, t, NULL);
        if (ik_humanoid_solve_run(&job) != IK_OK || ik_humanoid_solve_run(&mapped) != IK_OK) {
            PROPERTY_CASE(same, 0, "%s case %d: solve failed", t->f.label, c);
            continue;
        }
        gap = fixture_twin_gap(f, t, &turn);
        PROPERTY_CASE(same, gap <= (ik_real)1e-3 && turn <= ik_rad((ik_real)0.5) && fixture_pose_finite(&t->f),
                      "%s case %d: a joint %g leg lengths off the mapped original, an end turned %g deg", t->f.label, c,
                      (double)gap, (double)ik_deg(turn));
    }
    fixture_reset(f);
    property_end(&same);
}

/* Every rig's twins: the job comparison, then the limb properties checked
 * by forward kinematics in the twin's own model space (reach, bend limits,
 * lengths; knees forward and elbows back through a lift; no flip through a
 * sweep; look-at all around). Under a mirroring root a target came out a
 * limb length away (clavicles, wrists and ankles turned the mirror's way),
 * and a mirrored rig's knees bent backward. */
static void mirrored_rig(fixture *f, int built, void *context) {
    rng *r = (rng *)context;
    int k;
    for (k = 0; k < FIXTURE_TWINS; ++k) {
        fixture_twin t;
        if (!fixture_twin_of(&t, f, k)) {
            CHECK(0, "%s: twin %d made", f->label, k);
            fixture_twin_free(&t);
            continue;
        }
        twin_jobs(f, &t, r, built ? 40 : 12);
        reach_cases(&t.f, built ? 40 : 12, r);
        lift_no_roll(&t.f);
        sweep_no_flip(&t.f);
        look_around_rig(&t.f, built, &k);
        fixture_twin_free(&t);
    }
}

static void test_mirrored_twins(void) {
    rng r = rng_seeded(11);
    fixture_each_rig(mirrored_rig, &r);
}

/* ik_limb_hinge: a limb bent the way its joint bends keeps its own plane; a
 * straight one, or one bent against the way, gets the default from forward
 * (knee forward, elbow back), from up when the upper bone lies along
 * forward. */
static void test_limb_hinge(void) {
    ik_vec3 fwd = ik_v3(0, 0, 1), up = ik_v3(0, 1, 0), a = ik_v3(0, 1, 0), b = ik_v3(0, (ik_real)0.5, 0);
    ik_vec3 h = ik_limb_hinge(a, b, ik_v3(0, 0, 0), fwd, up, 1), k;
    k = ik_vec3_cross(ik_vec3_sub(b, a), h);
    CHECK(ik_vec3_dot(k, fwd) > (ik_real)0.49, "a straight leg's knee bends forward");
    h = ik_limb_hinge(a, b, ik_v3(0, 0, 0), fwd, up, 0);
    CHECK(ik_vec3_dot(ik_vec3_cross(ik_vec3_sub(b, a), h), fwd) < (ik_real)-0.49, "a straight arm's elbow points back");
    h = ik_limb_hinge(a, ik_v3(0, (ik_real)0.5, (ik_real)0.1), ik_v3(0, 0, 0), fwd, up, 1);
    CHECK(ik_vec3_distance(h, ik_v3(1, 0, 0)) < 1e-5, "a knee bent forward keeps its plane");
    h = ik_limb_hinge(a, ik_v3(0, (ik_real)0.5, (ik_real)-0.1), ik_v3(0, 0, 0), fwd, up, 1);
    CHECK(ik_vec3_distance(h, ik_v3(1, 0, 0)) < 1e-5, "a knee bent backward gets the default");
    h = ik_limb_hinge(ik_v3(0, 0, 0), ik_v3(0, 0, (ik_real)0.5), ik_v3(0, 0, 1), fwd, up, 1);
    CHECK(ik_vec3_dot(ik_vec3_cross(ik_v3(0, 0, (ik_real)0.5), h), up) > (ik_real)0.49,
          "a thigh along forward: the knee bends up");
    k = ik_limb_natural_pole(a, b, ik_v3(0, 0, 0), ik_v3(0, 1, 1), ik_v3(1, 0, 0), 1);
    CHECK(ik_vec3_dot(ik_vec3_sub(k, ik_v3(0, 1, (ik_real)0.5)), ik_v3(0, 1, 0)) > (ik_real)0.99,
          "a leg lifted to hip height: the pole above the thigh");
}

/* ik_limb_natural_pole does not depend on the units: random limbs, targets
 * and hinges scaled by s (0.01, as under a Mixamo armature, and 100), with
 * the hinge scaled as a scaled model matrix scales it, give the pole on the
 * same side of the target line, k' = s k. Under 0.01 the knee of a leg
 * swinging onto its goal went to the fallback side (u x h) half the time:
 * `ikc clean` flipped knees and added 31 m/s to a Mixamo girl's shin. */
static void test_natural_pole_units(void) {
    rng r = rng_seeded(25);
    static const ik_real scales[2] = {(ik_real)0.01, 100};
    int i, k, agree = 0, total = 0;
    for (i = 0; i < 2000; ++i) {
        ik_vec3 a = rng_in_ball(&r, 0.5), b = ik_vec3_add(a, rng_in_ball(&r, 0.5));
        ik_vec3 c = ik_vec3_add(b, rng_in_ball(&r, 0.5)), target = rng_in_ball(&r, 1);
        ik_vec3 h = rng_direction(&r);
        ik_vec3 plain = ik_vec3_sub(ik_limb_natural_pole(a, b, c, target, h, 1), ik_vec3_lerp(a, target, (ik_real)0.5));
        for (k = 0; k < 2; ++k) {
            ik_real s = scales[k];
            ik_vec3 scaled =
                ik_vec3_sub(ik_limb_natural_pole(ik_vec3_scale(a, s), ik_vec3_scale(b, s), ik_vec3_scale(c, s),
                                                 ik_vec3_scale(target, s), ik_vec3_scale(h, s), s),
                            ik_vec3_scale(ik_vec3_lerp(a, target, (ik_real)0.5), s));
            ++total;
            agree += ik_vec3_distance(ik_vec3_scale(plain, s), scaled) < (ik_real)1e-3 * s;
        }
    }
    CHECK(agree == total, "the natural pole under a scale: %d of %d on the same side", agree, total);
}

/* ik_humanoid_limb_pole with the rig's hinge: a plain two-bone job on each
 * leg of every rig (straight T-pose legs among them) puts the foot on the
 * target and the knee ahead of the hip-to-ankle line along the figure's
 * forward, for feet pulled up, swung forward, back and out. */
static void limb_pole_rig(fixture *f, int built, void *context) {
    check_property knee = {"knee ahead with the rig's pole", 0, 0};
    ik_vec3 forward = fixture_forward(f), left = fixture_left(f);
    int side, reach, swing;
    (void)built, (void)context;
    for (side = IK_LIMB_LEG_L; side <= IK_LIMB_LEG_R; ++side)
        for (reach = 0; reach < 3; ++reach)
            for (swing = 0; swing < 4; ++swing) {
                const ik_humanoid_limb *l = &f->rig.limb[side];
                ik_real leg = fixture_limb_length(f, side);
                ik_two_bone tb = ik_two_bone_def();
                ik_vec3 hip, down, target, line, off;
                ik_mat4 end_ms;
                fixture_reset(f);
                hip = fixture_pos(f, l->start);
                down = ik_vec3_normalize(ik_vec3_sub(fixture_end(f, side), hip));
                target = ik_vec3_mad(hip, down, leg * ((ik_real)0.85 - (ik_real)0.125 * (ik_real)reach));
                target = ik_vec3_mad(target, swing < 3 ? forward : left,
                                     leg * (swing == 0   ? (ik_real)-0.2
                                            : swing == 1 ? 0
                                                         : (ik_real)0.25));
                end_ms = ik_humanoid_limb_end_ms(l, f->model);
                tb.start_ms = &f->model[l->start], tb.mid_ms = &f->model[l->mid], tb.end_ms = &end_ms;
                tb.target_ms = target;
                tb.use_hinge = 1, tb.hinge_axis_ls = l->hinge_axis_ls;
                tb.use_pole = 1, tb.pole_ms = ik_humanoid_limb_pole(l, f->model, target, leg);
                tb.start_rotation_ls = &f->pose[l->start].rotation, tb.mid_rotation_ls = &f->pose[l->mid].rotation;
                if (ik_two_bone_run(&tb) != IK_OK) {
                    PROPERTY_CASE(knee, 0, "%s: the solve failed", f->label);
                    continue;
                }
                ik_skeleton_fk(f->skeleton, f->pose, &f->root_ms, f->model);
                line = ik_vec3_normalize(ik_vec3_sub(fixture_end(f, side), fixture_pos(f, l->start)));
                off = ik_vec3_reject(ik_vec3_sub(fixture_pos(f, l->mid), fixture_pos(f, l->start)), line);
                PROPERTY_CASE(knee,
                              ik_vec3_distance(fixture_end(f, side), target) < (ik_real)1e-3 * leg &&
                                  ik_vec3_dot(off, forward) > (ik_real)0.02 * leg,
                              "%s leg %d, reach %d, swing %d: miss %g, knee ahead %g legs", f->label, side, reach,
                              swing, (double)(ik_vec3_distance(fixture_end(f, side), target) / leg),
                              (double)(ik_vec3_dot(off, forward) / leg));
            }
    property_end(&knee);
}

static void test_limb_pole(void) { fixture_each_rig(limb_pole_rig, NULL); }

static void test_limbs(void) {
    rng r = rng_seeded(6);
    fixture_each_rig(limbs_rig, &r);
}

/* ---- shoulders, look-at, options -------------------------------------------- */

static void test_shoulders(void) {
    fixture f;
    ik_humanoid_solve job;
    ik_vec3 sh0, sh1, target;
    ik_real arm;
    int clav;
    CHECK(fixture_built(&f), "built");
    clav = f.rig.limb[IK_LIMB_ARM_L].clavicle;
    arm = fixture_limb_length(&f, IK_LIMB_ARM_L);
    sh0 = fixture_pos(&f, f.rig.limb[IK_LIMB_ARM_L].start);
    /* across the body, ahead of it: the shoulder comes forward */
    target = ik_vec3_add(sh0, ik_v3(-arm * (ik_real)0.6, 0, arm * (ik_real)0.5));
    job = ik_humanoid_solve_def();
    job.rig = &f.rig;
    job.pose_ls = f.pose;
    job.model_ms = f.model;
    job.goal[IK_LIMB_ARM_L].enabled = 1;
    job.goal[IK_LIMB_ARM_L].position_ms = target;
    CHECK(ik_humanoid_solve_run(&job) == IK_OK, "solve");
    sh1 = fixture_pos(&f, f.rig.limb[IK_LIMB_ARM_L].start);
    CHECK(sh1.z > sh0.z + (ik_real)0.01 * arm, "shoulder forward: %g -> %g", (double)sh0.z, (double)sh1.z);
    CHECK(ik_vec3_distance(fixture_end(&f, IK_LIMB_ARM_L), target) < 1e-3 * arm, "reached");
    /* overhead: the shoulder rises */
    fixture_reset(&f);
    target = ik_vec3_add(sh0, ik_v3(0, arm * (ik_real)0.9, 0));
    job.goal[IK_LIMB_ARM_L].position_ms = target;
    CHECK(ik_humanoid_solve_run(&job) == IK_OK, "solve");
    sh1 = fixture_pos(&f, f.rig.limb[IK_LIMB_ARM_L].start);
    CHECK(sh1.y > sh0.y + (ik_real)0.01 * arm, "shoulder up: %g -> %g", (double)sh0.y, (double)sh1.y);
    /* out of reach, forward and out: the shoulder turns toward it, the hand
     * gets closer than without the adjustment (which keeps the clavicle) */
    fixture_reset(&f);
    target = ik_vec3_add(sh0, ik_vec3_scale(ik_vec3_normalize(ik_v3(1, -(ik_real)0.2, 1)), arm * (ik_real)1.1));
    job.goal[IK_LIMB_ARM_L].position_ms = target;
    CHECK(ik_humanoid_solve_run(&job) == IK_OK, "solve");
    {
        ik_real with = ik_vec3_distance(fixture_end(&f, IK_LIMB_ARM_L), target), without;
        fixture_reset(&f);
        job.adjust_shoulders = 0;
        CHECK(ik_humanoid_solve_run(&job) == IK_OK &&
                  ik_quat_angle(ik_quat_mul(ik_quat_conjugate(f.pose[clav].rotation), f.built_rest[clav].rotation)) <
                      1e-6,
              "no shoulder adjustment");
        without = ik_vec3_distance(fixture_end(&f, IK_LIMB_ARM_L), target);
        CHECK(with < (ik_real)0.5 * without, "reach helped: %g vs %g", (double)with, (double)without);
    }
    /* two passes give the same reach */
    fixture_reset(&f);
    job.adjust_shoulders = 1;
    job.passes = 2;
    target = ik_vec3_add(sh0, ik_v3(-arm * (ik_real)0.3, arm * (ik_real)0.3, arm * (ik_real)0.5));
    job.goal[IK_LIMB_ARM_L].position_ms = target;
    CHECK(ik_humanoid_solve_run(&job) == IK_OK && ik_vec3_distance(fixture_end(&f, IK_LIMB_ARM_L), target) < 1e-3 * arm,
          "two passes");
    fixture_free(&f);
}

static void test_look_at(void) {
    fixture f;
    ik_humanoid_solve job;
    ik_vec3 head, target, face;
    int h;
    CHECK(fixture_built(&f), "built");
    h = f.map.joint[IK_ROLE_HEAD];
    head = fixture_pos(&f, h);
    job = ik_humanoid_solve_def();
    job.rig = &f.rig;
    job.pose_ls = f.pose;
    job.model_ms = f.model;
    job.look_at = 1;
    /* within the limit: the face points at the target, the turn is shared */
    target = ik_vec3_add(head, ik_v3(1, (ik_real)0.4, 1));
    job.look_target_ms = target;
    CHECK(ik_humanoid_solve_run(&job) == IK_OK, "solve");
    face = ik_vec3_normalize(ik_mat4_transform_vector(&f.model[h], f.rig.head_forward_ls));
    CHECK(ik_quat_angle(ik_quat_from_to(face, ik_vec3_sub(target, fixture_pos(&f, h)))) < 1e-3, "facing");
    CHECK(ik_quat_angle(f.pose[f.map.joint[IK_ROLE_SPINE]].rotation) > ik_rad(3) &&
              ik_quat_angle(f.pose[f.map.joint[IK_ROLE_NECK]].rotation) > ik_rad(3),
          "spine and neck share the turn");
    /* behind: the look stays within look_max of the chest's forward */
    fixture_reset(&f);
    job.look_target_ms = ik_vec3_add(head, ik_v3(0, 0, -2));
    CHECK(ik_humanoid_solve_run(&job) == IK_OK, "solve");
    face = ik_vec3_normalize(ik_mat4_transform_vector(&f.model[h], f.rig.head_forward_ls));
    CHECK(ik_quat_angle(ik_quat_from_to(ik_v3(0, 0, 1), face)) <= f.rig.limits.look_max + ik_rad(1), "limited: %g deg",
          (double)ik_deg(ik_quat_angle(ik_quat_from_to(ik_v3(0, 0, 1), face))));
    fixture_free(&f);
}

/* The angle between two directions, by atan2 (exact near 0 and pi). */
static ik_real angle_between(ik_vec3 a, ik_vec3 b) {
    return IK_ATAN2(ik_vec3_length(ik_vec3_cross(a, b)), ik_vec3_dot(a, b));
}

/* Elevation of a direction above the plane perpendicular to the unit up. */
static ik_real elevation(ik_vec3 d, ik_vec3 up) { return IK_PI / 2 - angle_between(d, up); }

/* Look-at with targets all around a rig (every 45 degrees of azimuth from
 * the body's forward, elevations -45, 0, 45, straight up and down), each
 * checked by forward kinematics: the residual is the angle between the
 * head's forward after the solve and the direction from the head to the
 * target; the report gives that angle and reached iff it is within the
 * tolerance; targets inside the limits are reached; a target behind turns
 * the head toward its side by yaw, and the head's elevation ends between
 * where it started and the target's elevation (never arching back). */
static void look_around_rig(fixture *f, int built, void *context) {
    int h = f->rig.map.joint[IK_ROLE_HEAD], az, el;
    ik_vec3 up = fixture_up(f), fwd = fixture_forward(f), left = fixture_left(f);
    ik_real dist = 2 * fixture_limb_length(f, IK_LIMB_LEG_L);
    ik_mat4 *rest_model = (ik_mat4 *)malloc(sizeof(ik_mat4) * (size_t)f->skeleton->joint_count);
    int variant = context ? *(const int *)context : 0;
    (void)built;
    if (!rest_model) return;
    fixture_reset(f);
    memcpy(rest_model, f->model, sizeof(ik_mat4) * (size_t)f->skeleton->joint_count);
    for (az = -135; az <= 180; az += 45)
        for (el = -2; el <= 2; ++el) {
            ik_humanoid_solve job = ik_humanoid_solve_def();
            ik_humanoid_report report;
            ik_real a = ik_rad((ik_real)az), e = el == -2  ? -IK_PI / 2
                                                 : el == 2 ? IK_PI / 2
                                                           : ik_rad((ik_real)(45 * el));
            ik_vec3 eye0 = fixture_pos(f, h), gaze0, gaze, to, target, dir;
            ik_real residual, gaze_yaw;
            if ((el == -2 || el == 2) && az != 0) continue; /* straight up and down once */
            fixture_reset(f);
            eye0 = fixture_pos(f, h);
            gaze0 = ik_vec3_normalize(ik_mat4_transform_vector(&f->model[h], f->rig.head_forward_ls));
            dir = ik_vec3_add(
                ik_vec3_scale(ik_vec3_add(ik_vec3_scale(fwd, IK_COS(a)), ik_vec3_scale(left, IK_SIN(a))), IK_COS(e)),
                ik_vec3_scale(up, IK_SIN(e)));
            target = ik_vec3_mad(eye0, dir, dist);
            fixture_bind_job(f, &job);
            job.look_at = 1;
            job.look_target_ms = target;
            job.report = &report;
            CHECK(ik_humanoid_solve_run(&job) == IK_OK && fixture_pose_finite(f), "%s/%d look (%d, %d): solve",
                  f->label, variant, az, el);
            CHECK(fixture_lengths_kept(f, rest_model, (ik_real)1e-4), "%s/%d look (%d, %d): bone lengths kept",
                  f->label, variant, az, el);
            gaze = ik_vec3_normalize(ik_mat4_transform_vector(&f->model[h], f->rig.head_forward_ls));
            to = ik_vec3_sub(target, fixture_pos(f, h));
            residual = angle_between(gaze, to);
            CHECK(IK_FABS(report.look_error - residual) <= (ik_real)1e-3,
                  "%s/%d look (%d, %d): reported residual %g deg, measured %g deg", f->label, variant, az, el,
                  (double)ik_deg(report.look_error), (double)ik_deg(residual));
            CHECK(report.look_reached == (report.look_error <= job.look_tolerance),
                  "%s/%d look (%d, %d): reached %d with residual %g deg (tolerance %g deg)", f->label, variant, az, el,
                  (int)report.look_reached, (double)ik_deg(report.look_error), (double)ik_deg(job.look_tolerance));
            if (IK_FABS(a) <= ik_rad(45) && IK_FABS(e) <= ik_rad(45))
                CHECK(residual <= ik_rad(1) && report.look_reached,
                      "%s/%d look (%d, %d): within the limits, %g deg off", f->label, variant, az, el,
                      (double)ik_deg(residual));
            if (IK_FABS(a) > ik_rad(90) && IK_FABS(e) < ik_rad(80)) {
                /* behind: pitch toward the target's elevation and no further */
                ik_real e0 = elevation(gaze0, up), e1 = elevation(gaze, up), et = elevation(to, up);
                CHECK(e1 >= ik_minr(e0, et) - ik_rad(2) && e1 <= ik_maxr(e0, et) + ik_rad(2),
                      "%s/%d look (%d, %d): head elevation %g deg, target's %g deg, before %g deg", f->label, variant,
                      az, el, (double)ik_deg(e1), (double)ik_deg(et), (double)ik_deg(e0));
                gaze_yaw = IK_ATAN2(ik_vec3_dot(gaze, left), ik_vec3_dot(gaze, fwd));
                if (az != 180)
                    CHECK(gaze_yaw * a > 0 && IK_FABS(gaze_yaw) >= ik_rad(60),
                          "%s/%d look (%d, %d): the head turns to the target's side by yaw (%g deg)", f->label, variant,
                          az, el, (double)ik_deg(gaze_yaw));
                else
                    CHECK(IK_FABS(gaze_yaw) >= ik_rad(60), "%s/%d look (%d, %d): the head turns by yaw (%g deg)",
                          f->label, variant, az, el, (double)ik_deg(gaze_yaw));
            }
        }
    free(rest_model);
}

/* The same above the rig's own root transform: as found, re-oriented Z-up,
 * scaled 100 times and mirrored (x negated). */
static void look_around_variants(fixture *f, int built, void *context) {
    ik_mat4 original = f->root_ms, variants[4];
    int v;
    variants[0] = ik_mat4_identity();
    variants[1] = ik_mat4_from_trs(ik_vec3_zero(), ik_quat_from_axis_angle(ik_v3(1, 0, 0), ik_rad(90)), ik_v3(1, 1, 1));
    variants[2] = ik_mat4_from_trs(ik_v3(3, -2, 1), ik_quat_identity(), ik_v3(100, 100, 100));
    variants[3] = ik_mat4_from_trs(ik_vec3_zero(), ik_quat_identity(), ik_v3(-1, 1, 1));
    (void)context;
    for (v = 0; v < 4; ++v) {
        f->root_ms = ik_mat4_mul(&variants[v], &original);
        look_around_rig(f, built, (void *)&v);
    }
    f->root_ms = original;
}

static void test_look_around(void) { fixture_each_rig(look_around_variants, NULL); }

/* A looser and a tighter tolerance move only the reached flag. */
static void test_look_tolerance(void) {
    fixture f;
    ik_humanoid_solve job;
    ik_humanoid_report report;
    int h;
    CHECK(fixture_built(&f), "built");
    h = f.map.joint[IK_ROLE_HEAD];
    job = ik_humanoid_solve_def();
    CHECK(IK_FABS(job.look_tolerance - ik_rad(1)) < 1e-6, "default look tolerance 1 deg");
    job.rig = &f.rig;
    job.pose_ls = f.pose;
    job.model_ms = f.model;
    job.look_at = 1;
    job.report = &report;
    /* 100 degrees to the side: 20 beyond the yaw limit */
    job.look_target_ms = ik_vec3_add(fixture_pos(&f, h), ik_v3(IK_SIN(ik_rad(100)), 0, IK_COS(ik_rad(100))));
    CHECK(ik_humanoid_solve_run(&job) == IK_OK && !report.look_reached && report.look_error > ik_rad(10),
          "beyond the limit: not reached (%g deg)", (double)ik_deg(report.look_error));
    fixture_reset(&f);
    job.look_tolerance = ik_rad(45);
    CHECK(ik_humanoid_solve_run(&job) == IK_OK && report.look_reached, "a 45 degree tolerance accepts it (%g deg)",
          (double)ik_deg(report.look_error));
    job.look_tolerance = -1;
    CHECK(ik_humanoid_solve_run(&job) == IK_ERR_RANGE, "negative tolerance refused");
    job.look_tolerance = NAN;
    CHECK(ik_humanoid_solve_run(&job) == IK_ERR_NONFINITE, "NaN tolerance refused");
    fixture_free(&f);
}

static void test_bad_input(void) {
    fixture f;
    ik_humanoid_solve job;
    ik_humanoid_map map;
    ik_humanoid rig;
    ik_transform saved;
    CHECK(fixture_built(&f), "built");
    job = ik_humanoid_solve_def();
    CHECK(ik_humanoid_solve_run(NULL) == IK_ERR_NULL && ik_humanoid_solve_run(&job) == IK_ERR_NULL, "null");
    {
        /* a zeroed job pointed at the rig is refused, not run on zero weights */
        ik_humanoid_solve zeroed;
        memset(&zeroed, 0, sizeof zeroed);
        zeroed.rig = &f.rig;
        zeroed.pose_ls = f.pose;
        zeroed.model_ms = f.model;
        CHECK(ik_humanoid_solve_run(&zeroed) == IK_ERR_NOT_DEFAULTED, "a zeroed job is refused");
    }
    job.rig = &f.rig;
    job.pose_ls = f.pose;
    job.model_ms = f.model;
    job.goal[IK_LIMB_ARM_R].enabled = 1;
    job.goal[IK_LIMB_ARM_R].position_ms = ik_v3(NAN, 0, 0);
    saved = f.pose[f.rig.limb[IK_LIMB_ARM_R].start];
    CHECK(ik_humanoid_solve_run(&job) == IK_ERR_NONFINITE, "nan target");
    CHECK(memcmp(&saved, &f.pose[f.rig.limb[IK_LIMB_ARM_R].start], sizeof saved) == 0, "untouched");
    job.goal[IK_LIMB_ARM_R].position_ms = ik_v3(0, 1, 0);
    job.goal[IK_LIMB_ARM_R].weight = 2;
    CHECK(ik_humanoid_solve_run(&job) == IK_ERR_RANGE, "weight");
    job.goal[IK_LIMB_ARM_R].weight = 0;
    CHECK(ik_humanoid_solve_run(&job) == IK_OK &&
              memcmp(&saved, &f.pose[f.rig.limb[IK_LIMB_ARM_R].start], sizeof saved) == 0,
          "weight 0 keeps the pose");
    job.passes = 3;
    CHECK(ik_humanoid_solve_run(&job) == IK_ERR_RANGE, "passes");
    job.passes = 1;
    job.look_at = 1;
    job.look_target_ms = ik_v3(0, INFINITY, 0);
    CHECK(ik_humanoid_solve_run(&job) == IK_ERR_NONFINITE, "look target");
    job.look_at = 0;
    f.pose[3].translation.x = NAN;
    CHECK(ik_humanoid_solve_run(&job) == IK_ERR_NONFINITE, "pose");
    /* the target on the shoulder, and far away: finite results */
    fixture_reset(&f);
    job.goal[IK_LIMB_ARM_R].weight = 1;
    job.goal[IK_LIMB_ARM_R].position_ms = fixture_pos(&f, f.rig.limb[IK_LIMB_ARM_R].start);
    CHECK(ik_humanoid_solve_run(&job) == IK_OK && fixture_pose_finite(&f), "target on the shoulder");
    job.goal[IK_LIMB_ARM_R].position_ms = ik_v3(1e6, -1e6, 1e6);
    CHECK(ik_humanoid_solve_run(&job) == IK_OK && fixture_pose_finite(&f), "far target");
    /* map and init refusals */
    CHECK(ik_humanoid_map_find(NULL, NULL, 0, &map) == IK_ERR_NULL, "map null");
    map = f.map;
    map.joint[IK_ROLE_HEAD] = -1;
    map.missing |= 1ul << IK_ROLE_HEAD;
    CHECK(ik_humanoid_init(&rig, f.skeleton, &map) == IK_ERR_NOT_FOUND, "init missing");
    map = f.map;
    map.joint[IK_ROLE_FOREARM_L] = f.map.joint[IK_ROLE_HAND_L];
    map.joint[IK_ROLE_HAND_L] = f.map.joint[IK_ROLE_FOREARM_L];
    CHECK(ik_humanoid_init(&rig, f.skeleton, &map) == IK_ERR_HIERARCHY, "init order");
    map.joint[IK_ROLE_HAND_L] = 999;
    CHECK(ik_humanoid_init(&rig, f.skeleton, &map) == IK_ERR_RANGE, "init range");
    CHECK(ik_humanoid_build_skeleton(1, 3, f.built_parents, f.built_names, f.built_rest) == 0 &&
              ik_humanoid_build_skeleton(-1, 30, f.built_parents, f.built_names, f.built_rest) == 0,
          "build refusals");
    fixture_free(&f);
}

/* Turn joint j of the fixture's pose by `turn` in model space (no root)
 * and refresh its forward kinematics. */
static void turn_in_model(fixture *f, int j, ik_quat turn) {
    int parent = f->skeleton->parents[j];
    ik_quat above = parent >= 0 ? ik_quat_normalize(ik_mat4_rotation(&f->model[parent])) : ik_quat_identity();
    ik_quat now = ik_quat_normalize(ik_mat4_rotation(&f->model[j]));
    f->pose[j].rotation = ik_quat_normalize(ik_quat_mul(ik_quat_conjugate(above), ik_quat_mul(turn, now)));
    ik_skeleton_fk(f->skeleton, f->pose, NULL, f->model);
}

/* The angles the limits bound, on the built humanoid (+Y up, +Z forward,
 * straight legs, flat feet): at rest all inside; one named case each for a
 * knee bent, a knee bent the wrong way, an ankle flexed both ways, toes
 * lifted and curled, a clavicle raised, each moved by a known turn. */
static void test_limit_angles(void) {
    fixture f;
    ik_mat4 rest[IK_HUMANOID_BUILT_JOINTS];
    ik_humanoid_angles a;
    const char *what = NULL;
    const ik_humanoid_limb *leg;
    ik_vec3 lateral = ik_v3(1, 0, 0);
    if (!fixture_built(&f)) {
        CHECK(0, "built skeleton");
        return;
    }
    leg = &f.rig.limb[IK_LIMB_LEG_L];
    ik_skeleton_fk(f.skeleton, f.skeleton->rest_ls, NULL, rest);
    memcpy(f.pose, f.skeleton->rest_ls, (size_t)f.skeleton->joint_count * sizeof(ik_transform));
    ik_skeleton_fk(f.skeleton, f.pose, NULL, f.model);
    ik_humanoid_angles_measure(&f.rig, f.model, rest, &a);
    CHECK(IK_FABS(a.knee[0]) < 1e-4 && IK_FABS(a.ankle[0]) < 1e-3 && IK_FABS(a.toe[0]) < 1e-5 &&
              IK_FABS(a.clavicle_up[0]) < 1e-5 && a.elbow[0] >= 0 &&
              ik_humanoid_angles_excess(&f.rig, &a, &what) == 0 && strcmp(what, "") == 0,
          "rest: inside (knee %g, ankle %g, elbow %g)", (double)a.knee[0], (double)a.ankle[0], (double)a.elbow[0]);
    /* knee: the shin swung back 40 degrees (a knee bends its shin backward;
       the foot turns with it, so the ankle stays at 0) */
    turn_in_model(&f, leg->mid, ik_quat_from_axis_angle(lateral, ik_rad(40)));
    ik_humanoid_angles_measure(&f.rig, f.model, rest, &a);
    CHECK(IK_FABS(a.knee[0] - ik_rad(40)) < 1e-4 && IK_FABS(ik_humanoid_leg_ankle(leg, f.model)) < 1e-3,
          "knee bent 40: %g deg, the foot turned with the shin: ankle %g", (double)ik_deg(a.knee[0]),
          (double)ik_deg(a.ankle[0]));
    turn_in_model(&f, leg->mid, ik_quat_from_axis_angle(lateral, ik_rad(-50)));
    ik_humanoid_angles_measure(&f.rig, f.model, rest, &a);
    CHECK(IK_FABS(a.knee[0] + ik_rad(10)) < 1e-4 &&
              IK_FABS(ik_humanoid_angles_excess(&f.rig, &a, &what) - ik_rad(10)) < 1e-3 &&
              strcmp(what, "left knee") == 0,
          "knee bent 10 the wrong way: %g deg", (double)ik_deg(a.knee[0]));
    turn_in_model(&f, leg->mid, ik_quat_from_axis_angle(lateral, ik_rad(10)));
    /* ankle: toes up 30 (dorsiflexion beyond 25 by 5), then down 60 (plantar 30) */
    turn_in_model(&f, leg->end, ik_quat_from_axis_angle(lateral, ik_rad(-30)));
    ik_humanoid_angles_measure(&f.rig, f.model, rest, &a);
    CHECK(IK_FABS(a.ankle[0] - ik_rad(30)) < 1e-3 &&
              IK_FABS(ik_humanoid_angles_excess(&f.rig, &a, &what) - ik_rad(5)) < 1e-3 &&
              strcmp(what, "left ankle") == 0,
          "ankle up 30: %g deg, %s", (double)ik_deg(a.ankle[0]), what);
    turn_in_model(&f, leg->end, ik_quat_from_axis_angle(lateral, ik_rad(60)));
    ik_humanoid_angles_measure(&f.rig, f.model, rest, &a);
    CHECK(IK_FABS(a.ankle[0] + ik_rad(30)) < 1e-3 && ik_humanoid_angles_excess(&f.rig, &a, NULL) < 1e-5,
          "ankle down 30: %g", (double)ik_deg(a.ankle[0]));
    /* toes: curled 40 (beyond 30 by 10) */
    turn_in_model(&f, leg->toe, ik_quat_from_axis_angle(lateral, ik_rad(40)));
    ik_humanoid_angles_measure(&f.rig, f.model, rest, &a);
    CHECK(IK_FABS(a.toe[0] + ik_rad(40)) < 1e-3 &&
              IK_FABS(ik_humanoid_angles_excess(&f.rig, &a, &what) - ik_rad(10)) < 1e-3 &&
              strcmp(what, "left toes") == 0,
          "toes curled 40: %g, %s", (double)ik_deg(a.toe[0]), what);
    /* the right clavicle raised 35 degrees (beyond 30 by 5) about forward */
    turn_in_model(&f, f.rig.limb[IK_LIMB_ARM_R].clavicle, ik_quat_from_axis_angle(ik_v3(0, 0, 1), ik_rad(-35)));
    ik_humanoid_angles_measure(&f.rig, f.model, rest, &a);
    CHECK(IK_FABS(a.clavicle_up[1] - ik_rad(35)) < 1e-3 && IK_FABS(a.clavicle_forward[1]) < 1e-3,
          "clavicle up 35: %g (forward %g)", (double)ik_deg(a.clavicle_up[1]), (double)ik_deg(a.clavicle_forward[1]));
    fixture_free(&f);
}

int main(void) {
    test_limit_angles();
    test_map_built();
    test_map_real();
    test_mirror_names();
    test_mapping_file();
    test_map_khronos_names();
    test_map_fox();
    test_explain();
    test_map_many_matches();
    test_map_long_chain_under_chest();
    test_rig_long_chains_below();
    test_limbs();
    test_mirrored_rig();
    test_mirrored_twins();
    test_limb_hinge();
    test_natural_pole_units();
    test_limb_pole();
    test_shoulders();
    test_look_at();
    test_look_around();
    test_look_tolerance();
    test_bad_input();
    return check_summary("test_humanoid");
}

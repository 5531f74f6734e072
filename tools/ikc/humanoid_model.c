/* The demo humanoid: proportions of an adult about 1.75 m tall (hips at
 * 0.95 m, thigh 0.45 m, shin 0.43 m, upper arm 0.30 m, forearm 0.27 m). */
#include "humanoid_model.h"

#include <stddef.h>

static const int parents[HUMANOID_JOINT_COUNT] = {
    -1, HUMANOID_HIPS, HUMANOID_SPINE, HUMANOID_CHEST, HUMANOID_NECK,
    HUMANOID_HIPS, HUMANOID_THIGH_L, HUMANOID_SHIN_L, HUMANOID_FOOT_L,
    HUMANOID_HIPS, HUMANOID_THIGH_R, HUMANOID_SHIN_R, HUMANOID_FOOT_R,
    HUMANOID_CHEST, HUMANOID_SHOULDER_L, HUMANOID_UPPER_ARM_L, HUMANOID_FOREARM_L,
    HUMANOID_CHEST, HUMANOID_SHOULDER_R, HUMANOID_UPPER_ARM_R, HUMANOID_FOREARM_R,
};

static const char *const names[HUMANOID_JOINT_COUNT] = {
    "Hips", "Spine", "Chest", "Neck", "Head",
    "LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase",
    "RightUpLeg", "RightLeg", "RightFoot", "RightToeBase",
    "LeftShoulder", "LeftArm", "LeftForeArm", "LeftHand",
    "RightShoulder", "RightArm", "RightForeArm", "RightHand",
};

/* Rest offsets from each joint's parent, metres; every rotation identity. */
static const ik_real offsets[HUMANOID_JOINT_COUNT][3] = {
    {0, 0.95f, 0}, {0, 0.12f, 0}, {0, 0.22f, 0}, {0, 0.20f, 0}, {0, 0.10f, 0},
    {0.09f, -0.05f, 0}, {0, -0.45f, 0}, {0, -0.43f, 0}, {0, -0.07f, 0.13f},
    {-0.09f, -0.05f, 0}, {0, -0.45f, 0}, {0, -0.43f, 0}, {0, -0.07f, 0.13f},
    {0.04f, 0.16f, 0}, {0.15f, 0, 0}, {0.30f, 0, 0}, {0.27f, 0, 0},
    {-0.04f, 0.16f, 0}, {-0.15f, 0, 0}, {-0.30f, 0, 0}, {-0.27f, 0, 0},
};

const ik_skeleton *humanoid_model(void) {
    static ik_transform rest[HUMANOID_JOINT_COUNT];
    static ik_skeleton skeleton;
    static int built = 0;
    int i;
    if (!built) {
        for (i = 0; i < HUMANOID_JOINT_COUNT; ++i)
            rest[i] = ik_transform_make(ik_v3(offsets[i][0], offsets[i][1], offsets[i][2]), ik_quat_identity(),
                                        ik_v3(1, 1, 1));
        if (ik_skeleton_init(&skeleton, HUMANOID_JOINT_COUNT, parents, names, rest, NULL) != IK_OK) return NULL;
        built = 1;
    }
    return &skeleton;
}

const ik_constraint *humanoid_constraints(void) {
    static ik_constraint limits[HUMANOID_JOINT_COUNT];
    static int built = 0;
    const ik_quat rest = ik_quat_identity();
    const ik_vec3 down = ik_v3(0, -1, 0), up = ik_v3(0, 1, 0), forward = ik_v3(0, 0, 1);
    int side;
    if (built) return limits;
    limits[HUMANOID_HIPS] = ik_constraint_none();
    limits[HUMANOID_SPINE] = ik_constraint_cone_twist(rest, up, ik_rad(25), ik_rad(-20), ik_rad(20));
    limits[HUMANOID_CHEST] = ik_constraint_cone_twist(rest, up, ik_rad(20), ik_rad(-20), ik_rad(20));
    limits[HUMANOID_NECK] = ik_constraint_cone_twist(rest, up, ik_rad(35), ik_rad(-40), ik_rad(40));
    limits[HUMANOID_HEAD] = ik_constraint_cone_twist(rest, up, ik_rad(45), ik_rad(-60), ik_rad(60));
    for (side = 0; side < 2; ++side) {
        int thigh = side ? HUMANOID_THIGH_R : HUMANOID_THIGH_L, shin = thigh + 1, foot = thigh + 2, toe = thigh + 3;
        int shoulder = side ? HUMANOID_SHOULDER_R : HUMANOID_SHOULDER_L, upper = shoulder + 1, fore = shoulder + 2,
            hand = shoulder + 3;
        ik_vec3 outward = ik_v3(side ? -1.0f : 1.0f, 0, 0);
        limits[thigh] = ik_constraint_cone_twist(rest, down, ik_rad(90), ik_rad(-40), ik_rad(40));
        /* the shin turns about +x: positive angles swing it backward */
        limits[shin] = ik_constraint_hinge(rest, ik_v3(1, 0, 0), 0, ik_rad(HUMANOID_KNEE_MAX_DEG));
        limits[foot] = ik_constraint_cone_twist(rest, forward, ik_rad(35), ik_rad(-20), ik_rad(20));
        limits[toe] = ik_constraint_hinge(rest, ik_v3(1, 0, 0), ik_rad(-40), ik_rad(20));
        limits[shoulder] = ik_constraint_cone_twist(rest, outward, ik_rad(20), ik_rad(-10), ik_rad(10));
        limits[upper] = ik_constraint_cone_twist(rest, outward, ik_rad(85), ik_rad(-70), ik_rad(70));
        /* the forearm swings forward (+z) about -y on the left, +y on the right */
        limits[fore] = ik_constraint_hinge(rest, ik_v3(0, side ? 1.0f : -1.0f, 0), 0, ik_rad(HUMANOID_ELBOW_MAX_DEG));
        limits[hand] = ik_constraint_cone_twist(rest, outward, ik_rad(60), ik_rad(-80), ik_rad(80));
    }
    built = 1;
    return limits;
}

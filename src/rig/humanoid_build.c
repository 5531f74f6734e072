/* A procedural humanoid skeleton for demos, tests and benchmarks. Proportions
 * are fractions of the height, after the usual artist's canon (legs about
 * half the height, upper arm 0.17, forearm 0.15). */
#include <ikit/humanoid.h>

#include <stddef.h>

typedef struct joint_spec {
    const char *name;
    int parent;
    ik_real x, y, z; /* offset from the parent, in heights */
    ik_real radius;  /* the body's radius at the joint, in heights (ik_humanoid_build_body) */
    ik_real leaf;    /* a leaf's capsule past it (head, hands), in heights */
} joint_spec;

/* Arms hang 20 degrees out from the body (sin 0.342, cos 0.940); forearms
 * bend 15 degrees forward (sin 0.259, cos 0.966). The body's radii are a
 * lean adult's (waist 0.08 of the height, thigh 0.06, upper arm 0.035). */
static const joint_spec built[IK_HUMANOID_BUILT_JOINTS] = {
    {"Hips", -1, 0, (ik_real)0.56, 0, (ik_real)0.085, 0},
    {"Spine", 0, 0, (ik_real)0.06, 0, (ik_real)0.08, 0},
    {"Spine1", 1, 0, (ik_real)0.12, 0, (ik_real)0.095, 0},
    {"Neck", 2, 0, (ik_real)0.10, 0, (ik_real)0.035, 0},
    {"Head", 3, 0, (ik_real)0.05, 0, (ik_real)0.04, (ik_real)0.08},
    {"LeftShoulder", 2, (ik_real)0.02, (ik_real)0.08, 0, (ik_real)0.04, 0},
    {"LeftArm", 5, (ik_real)0.09, 0, 0, (ik_real)0.035, 0},
    {"LeftForeArm", 6, (ik_real)(0.17 * 0.342), (ik_real)(-0.17 * 0.940), 0, (ik_real)0.03, 0},
    {"LeftHand", 7, (ik_real)(0.15 * 0.342 * 0.966), (ik_real)(-0.15 * 0.940 * 0.966), (ik_real)(0.15 * 0.259),
     (ik_real)0.025, (ik_real)0.075},
    {"RightShoulder", 2, (ik_real)-0.02, (ik_real)0.08, 0, (ik_real)0.04, 0},
    {"RightArm", 9, (ik_real)-0.09, 0, 0, (ik_real)0.035, 0},
    {"RightForeArm", 10, (ik_real)(-0.17 * 0.342), (ik_real)(-0.17 * 0.940), 0, (ik_real)0.03, 0},
    {"RightHand", 11, (ik_real)(-0.15 * 0.342 * 0.966), (ik_real)(-0.15 * 0.940 * 0.966), (ik_real)(0.15 * 0.259),
     (ik_real)0.025, (ik_real)0.075},
    {"LeftUpLeg", 0, (ik_real)0.055, (ik_real)-0.03, 0, (ik_real)0.06, 0},
    {"LeftLeg", 13, 0, (ik_real)-0.245, 0, (ik_real)0.042, 0},
    {"LeftFoot", 14, 0, (ik_real)-0.245, 0, (ik_real)0.032, 0},
    {"LeftToeBase", 15, 0, (ik_real)-0.028, (ik_real)0.075, (ik_real)0.028, 0},
    {"LeftToe_End", 16, 0, (ik_real)-0.012, (ik_real)0.04, (ik_real)0.022, 0},
    {"RightUpLeg", 0, (ik_real)-0.055, (ik_real)-0.03, 0, (ik_real)0.06, 0},
    {"RightLeg", 18, 0, (ik_real)-0.245, 0, (ik_real)0.042, 0},
    {"RightFoot", 19, 0, (ik_real)-0.245, 0, (ik_real)0.032, 0},
    {"RightToeBase", 20, 0, (ik_real)-0.028, (ik_real)0.075, (ik_real)0.028, 0},
    {"RightToe_End", 21, 0, (ik_real)-0.012, (ik_real)0.04, (ik_real)0.022, 0},
};

int ik_humanoid_build_skeleton(ik_real height, int capacity, int *parents, const char **names, ik_transform *rest_ls) {
    int i;
    if (capacity < IK_HUMANOID_BUILT_JOINTS || !parents || !names || !rest_ls || !ik_finite(height) || !(height > 0))
        return 0;
    for (i = 0; i < IK_HUMANOID_BUILT_JOINTS; ++i) {
        parents[i] = built[i].parent;
        names[i] = built[i].name;
        rest_ls[i] = ik_transform_make(ik_vec3_scale(ik_v3(built[i].x, built[i].y, built[i].z), height),
                                       ik_quat_identity(), ik_v3(1, 1, 1));
    }
    return IK_HUMANOID_BUILT_JOINTS;
}

int ik_humanoid_build_body(ik_real height, int capacity, ik_real *radius, ik_real *leaf_length) {
    int i;
    if (capacity < IK_HUMANOID_BUILT_JOINTS || !radius || !leaf_length || !ik_finite(height) || !(height > 0)) return 0;
    for (i = 0; i < IK_HUMANOID_BUILT_JOINTS; ++i) {
        radius[i] = built[i].radius * height;
        leaf_length[i] = built[i].leaf * height;
    }
    return IK_HUMANOID_BUILT_JOINTS;
}

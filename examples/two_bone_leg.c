/* The README's example, whole: a three-joint leg (hip, knee, ankle) whose
 * ankle is moved onto a target by two-bone IK with the knee as a hinge.
 * Prints where the ankle landed against the target; exits 0 when it reached.
 * Build against an installed ikit with examples/CMakeLists.txt
 * (find_package(ikit)) or with pkg-config:
 *   cc two_bone_leg.c $(pkg-config --cflags --libs ikit) -o two_bone_leg */
#include <stdio.h>

#include <ikit/ikit.h>
#include <ikit/version.h>

enum { hip, knee, ankle, joint_count };

int main(void) {
    /* The leg hangs straight down from a hip 1 m up: thigh 0.45 m, shin 0.42 m. */
    static const int parents[joint_count] = {-1, hip, knee};
    static const char *const names[joint_count] = {"hip", "knee", "ankle"};
    ik_transform rest_ls[joint_count];
    ik_skeleton skel;
    ik_error err;
    rest_ls[hip] = ik_transform_identity();
    rest_ls[hip].translation = ik_v3(0, 1, 0);
    rest_ls[knee] = ik_transform_identity();
    rest_ls[knee].translation = ik_v3(0, -0.45f, 0);
    rest_ls[ankle] = ik_transform_identity();
    rest_ls[ankle].translation = ik_v3(0, -0.42f, 0);
    if (ik_skeleton_init(&skel, joint_count, parents, names, rest_ls, &err) != IK_OK) {
        fprintf(stderr, "skeleton: %s\n", err.message);
        return 1;
    }

    ik_transform pose[joint_count];
    ik_mat4 model[joint_count];
    ik_skeleton_rest_pose(&skel, pose);
    ik_skeleton_fk(&skel, pose, NULL, model);

    ik_two_bone leg = ik_two_bone_def();
    ik_two_bone_bind(&leg, model, pose, hip, knee, ankle);
    leg.target_ms = ik_v3(0.1f, 0.35f, 0.3f);
    leg.use_hinge = 1; /* knee bends about its local +X ... */
    leg.hinge_axis_ls = ik_v3(1, 0, 0);
    leg.max_bend = ik_rad(150); /* ... from 0 (straight) to 150 degrees */
    ik_bool reached;
    leg.reached = &reached;
    ik_result r = ik_two_bone_run(&leg);
    if (r == IK_OK) ik_skeleton_fk(&skel, pose, NULL, model); /* new local rotations are in pose */

    /* Check the solver's word against forward kinematics: the ankle must lie
     * within the job's tolerance (a fraction of the leg's length). */
    ik_vec3 landed = ik_mat4_translation(&model[ankle]);
    ik_real apart = ik_vec3_distance(landed, leg.target_ms);
    ik_real tolerance = leg.reach_tolerance * (0.45f + 0.42f);
    printf("ikit %s (%s), headers %s\n", ik_version(), sizeof(ik_real) == sizeof(double) ? "double" : "float",
           IK_VERSION_STRING);
    printf("ankle at (%.4f, %.4f, %.4f), target (%.4f, %.4f, %.4f), %.2g m apart\n", (double)landed.x, (double)landed.y,
           (double)landed.z, (double)leg.target_ms.x, (double)leg.target_ms.y, (double)leg.target_ms.z, (double)apart);
    if (r != IK_OK || !reached || !(apart <= tolerance)) {
        printf("ankle missed the target: %s\n", ik_result_str(r));
        return 1;
    }
    printf("ankle reached the target\n");
    return 0;
}

/* libFuzzer entry point for scene files (JSON obstacles): any bytes give
 * IK_OK or an error with a message, never a crash; a scene that loads has
 * finite poses and positive sizes, and the clearances of a small robot
 * against it are finite or the far value, never NaN. */
#include <ikit/robot_collision.h>
#include <ikit/urdf_collision.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ik_scene *scene = NULL;
    ik_error err;
    ik_mesh_paths paths;
    ik_result r;
    memset(&paths, 0, sizeof paths);
    paths.urdf_dir = "/nonexistent-fuzz-dir"; /* meshes are not read while fuzzing */
    r = ik_scene_read_memory((const char *)data, size, NULL, "base", &paths, &scene, &err);
    if (r != IK_OK) {
        if (scene != NULL || err.message[0] == '\0') abort();
        return 0;
    }
    {
        ik_robot_collision_model model;
        ik_robot_chain chain;
        ik_robot_collision_report report;
        ik_real q[1] = {0.5f};
        ik_capsule c;
        int link, k;
        memset(&chain, 0, sizeof chain);
        chain.joint_count = 1;
        chain.variable_count = 1;
        chain.joints[0].type = IK_ROBOT_REVOLUTE;
        chain.joints[0].origin = ik_transform_identity();
        chain.joints[0].axis = ik_v3(0, 0, 1);
        chain.joints[0].lower = -3;
        chain.joints[0].upper = 3;
        chain.joints[0].multiplier = 1;
        ik_robot_collision_model_init(&model);
        ik_robot_collision_add_link(&model, "arm", 0, -1, &link);
        c.a = ik_v3(0, 0, 0);
        c.b = ik_v3(1, 0, 0.5f);
        c.radius = 0.1f;
        ik_robot_collision_add_capsule(&model, link, c);
        for (k = 0; k < scene->obstacle_count; ++k)
            if (!ik_transform_finite(scene->obstacles[k].pose_bs)) abort();
        r = ik_robot_collision_check(&model, &chain, q, scene->obstacles, scene->obstacle_count, 0.01f, &report);
        if (r == IK_OK && isnan(report.clearance)) abort();
    }
    ik_scene_free(scene);
    return 0;
}

/* `ikc demo`: the showcase on built-in data. A leg of the procedural
 * humanoid reaches targets in seed 000's three cases (reachable, too far,
 * too close) with the knee as a hinge; the head looks at a moving point. */
#define _POSIX_C_SOURCE 199309L
#include <ikit/aim.h>
#include <ikit/two_bone.h>

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "humanoid_model.h"
#include "ikc.h"

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Microseconds per solve: the median of 15 runs of 2000 solves each, each
 * from the same rest pose. */
static double time_leg_solve(const ik_two_bone *job_template, const ik_transform *rest) {
    double samples[15], swap;
    int run, k, i, j;
    for (run = 0; run < 15; ++run) {
        ik_transform pose[HUMANOID_JOINT_COUNT];
        ik_two_bone job = *job_template;
        double t0;
        memcpy(pose, rest, sizeof pose);
        job.start_rotation_ls = &pose[HUMANOID_THIGH_L].rotation;
        job.mid_rotation_ls = &pose[HUMANOID_SHIN_L].rotation;
        job.end_rotation_ls = &pose[HUMANOID_FOOT_L].rotation;
        t0 = now_seconds();
        for (k = 0; k < 2000; ++k) ik_two_bone_run(&job);
        samples[run] = (now_seconds() - t0) * 1e6 / 2000;
    }
    for (i = 1; i < 15; ++i)
        for (j = i; j > 0 && samples[j - 1] > samples[j]; --j) {
            swap = samples[j];
            samples[j] = samples[j - 1];
            samples[j - 1] = swap;
        }
    return samples[7];
}

static void leg_scene(const ik_skeleton *skeleton) {
    static const struct {
        const char *name;
        ik_real x, y, z;
    } cases[] = {
        {"reachable: step forward", 0.09f, 0.25f, 0.35f},
        {"reachable: knee up", 0.09f, 0.55f, 0.30f},
        {"too far", 0.09f, -0.60f, 0.40f},
        {"too close", 0.09f, 0.85f, 0.05f},
    };
    ik_transform pose[HUMANOID_JOINT_COUNT];
    ik_mat4 model[HUMANOID_JOINT_COUNT];
    size_t c;
    printf("\nScene 1: left leg, two-bone IK, knee hinge 0..%d deg (seed 000's three cases)\n",
           HUMANOID_KNEE_MAX_DEG);
    printf("%-26s %-22s %-8s %10s %6s %9s %12s\n", "case", "target (m)", "reached", "residual", "iter",
           "knee deg", "us/solve");
    for (c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        ik_two_bone job = ik_two_bone_def();
        ik_bool reached = 0;
        ik_real residual = 0, bend;
        ik_vec3 hip, knee, ankle, target = ik_v3(cases[c].x, cases[c].y, cases[c].z);
        ik_result result;
        double us;
        ik_skeleton_rest_pose(skeleton, pose);
        ik_skeleton_fk(skeleton, pose, NULL, model);
        ik_two_bone_bind(&job, model, pose, HUMANOID_THIGH_L, HUMANOID_SHIN_L, HUMANOID_FOOT_L);
        job.target_ms = target;
        job.use_hinge = 1;
        job.hinge_axis_ls = ik_v3(1, 0, 0);
        job.min_bend = 0;
        job.max_bend = ik_rad(HUMANOID_KNEE_MAX_DEG);
        job.use_pole = 1;
        job.pole_ms = ik_v3(0.09f, 0.5f, 2);
        job.reached = &reached;
        job.residual = &residual;
        us = time_leg_solve(&job, skeleton->rest_ls);
        result = ik_two_bone_run(&job);
        ik_skeleton_fk(skeleton, pose, NULL, model);
        hip = ik_mat4_translation(&model[HUMANOID_THIGH_L]);
        knee = ik_mat4_translation(&model[HUMANOID_SHIN_L]);
        ankle = ik_mat4_translation(&model[HUMANOID_FOOT_L]);
        bend = ik_acos_safe(ik_vec3_dot(ik_vec3_normalize(ik_vec3_sub(knee, hip)),
                                        ik_vec3_normalize(ik_vec3_sub(ankle, knee))));
        printf("%-26s (%5.2f, %5.2f, %5.2f)   %-8s %10.2e %6d %9.1f %12.3f%s%s\n", cases[c].name, (double)target.x,
               (double)target.y, (double)target.z, reached ? "yes" : "no", (double)ik_vec3_distance(ankle, target), 1,
               (double)ik_deg(bend), us, result == IK_OK ? "" : "  error: ", result == IK_OK ? "" : ik_result_str(result));
    }
}

static void head_scene(const ik_skeleton *skeleton) {
    ik_transform pose[HUMANOID_JOINT_COUNT];
    ik_mat4 model[HUMANOID_JOINT_COUNT];
    int step;
    printf("\nScene 2: head looks at a point circling in front of the figure (aim IK, eyes 0.08 m forward)\n");
    printf("%-6s %-22s %-8s %14s\n", "step", "target (m)", "reached", "aim error deg");
    ik_skeleton_rest_pose(skeleton, pose);
    ik_skeleton_fk(skeleton, pose, NULL, model);
    for (step = 0; step < 8; ++step) {
        ik_real angle = (ik_real)step * IK_PI / 4;
        ik_vec3 target = ik_v3(IK_COS(angle) * 0.8f, 1.6f + IK_SIN(angle) * 0.4f, 1.5f);
        ik_aim job = ik_aim_def();
        ik_bool reached = 0;
        ik_vec3 eye, dir;
        job.joint_ms = &model[HUMANOID_HEAD];
        job.target_ms = target;
        job.forward_ls = ik_v3(0, 0, 1);
        job.up_ls = ik_v3(0, 1, 0);
        job.pole_ms = ik_v3(0, 1, 0);
        job.offset_ls = ik_v3(0, 0.05f, 0.08f);
        job.rotation_ls = &pose[HUMANOID_HEAD].rotation;
        job.reached = &reached;
        ik_aim_run(&job);
        ik_skeleton_fk(skeleton, pose, NULL, model);
        eye = ik_mat4_transform_point(&model[HUMANOID_HEAD], job.offset_ls);
        dir = ik_vec3_normalize(ik_mat4_transform_vector(&model[HUMANOID_HEAD], job.forward_ls));
        printf("%-6d (%5.2f, %5.2f, %5.2f)   %-8s %14.4f\n", step, (double)target.x, (double)target.y,
               (double)target.z, reached ? "yes" : "no",
               (double)ik_deg(ik_acos_safe(ik_vec3_dot(dir, ik_vec3_normalize(ik_vec3_sub(target, eye))))));
    }
}

int ikc_demo(int argc, char **argv) {
    const ik_skeleton *skeleton = humanoid_model();
    int i;
    for (i = 0; i < argc; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: ikc demo\n\nRuns the showcase on a built-in humanoid and prints a table per scene.\n");
            return 0;
        }
    }
    if (!skeleton) {
        fprintf(stderr, "ikc demo: the built-in humanoid failed validation\n");
        return 1;
    }
    printf("ikit %s demo: a %d-joint procedural humanoid, Y up, metres\n", IKC_VERSION, skeleton->joint_count);
    leg_scene(skeleton);
    head_scene(skeleton);
    return 0;
}

/* A chain file's joints as solver inputs: which joints turn and about what,
 * their limits and springs, and a Jacobian solve bound by them that reaches
 * toward the file's target within the limits (checked by forward kinematics). */
#define _POSIX_C_SOURCE 200809L
#include <ikit/chain_file_solve.h>
#include <ikit/skeleton.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"

#define MAX_JOINTS 32

/* examples/ beside tests/, found from this file's own path. */
static ik_chain_file *load_example(const char *name) {
    const char *here = __FILE__, *cut = strstr(here, "tests/test_chain_file_solve.c");
    char path[1024];
    ik_chain_file *chain = NULL;
    ik_error err;
    ik_result r;
    snprintf(path, sizeof path, "%.*sexamples/%s", cut ? (int)(cut - here) : 0, here, name);
    r = ik_chain_file_read_file(path, &chain, &err);
    CHECK(r == IK_OK && chain->joint_count <= MAX_JOINTS, "%s: %s %s", path, ik_result_str(r), err.message);
    return r == IK_OK && chain->joint_count <= MAX_JOINTS ? chain : NULL;
}

static int all_joints(const ik_chain_file *chain, int *joints) {
    int j;
    for (j = 0; j < chain->joint_count; ++j) joints[j] = j;
    return chain->joint_count;
}

/* The tail: its twelve hinges turn about their own axes with the file's
 * comfort springs; the fixed base and tip do not turn. */
static void test_tail_binding(void) {
    ik_chain_file *chain = load_example("tail.chain");
    ik_jacobian_joint joints[MAX_JOINTS];
    ik_constraint limits[MAX_JOINTS];
    ik_spring springs[3 * MAX_JOINTS];
    int all[MAX_JOINTS], n, k, bad = 0;
    if (!chain) return;
    n = ik_chain_file_jacobian_joints(chain, all, all_joints(chain, all), joints, limits, springs);
    CHECK(n == 12, "tail turning joints: %d", n);
    for (k = 0; k < n; ++k) {
        const ik_chain_joint *cj = &chain->joints[joints[k].joint];
        bad += cj->type != IK_CHAIN_HINGE || joints[k].axis_count != 1;
        bad += ik_vec3_distance(joints[k].axes_ls[0], cj->axis_ls) > 1e-5f;
        bad += IK_FABS(springs[k].comfort_min - ik_rad(cj->comfort_min_deg)) > 1e-5f ||
               IK_FABS(springs[k].limit_max - ik_rad(cj->limit_max_deg)) > 1e-5f ||
               springs[k].stiffness != cj->stiffness;
        bad +=
            ik_constraint_check(&limits[k], ik_quat_from_axis_angle(cj->axis_ls, ik_rad(cj->limit_max_deg + 2)), 1e-4f);
        bad += !ik_constraint_check(&limits[k], ik_quat_from_axis_angle(cj->axis_ls, ik_rad(cj->limit_max_deg - 2)),
                                    1e-4f);
    }
    CHECK(bad == 0, "tail: %d hinges bound wrongly", bad);
    ik_chain_file_free(chain);
}

/* The tentacle's balls turn about three axes each, with no spring on any;
 * indices outside the chain are left out. */
static void test_tentacle_binding(void) {
    ik_chain_file *chain = load_example("tentacle.chain");
    ik_jacobian_joint joints[MAX_JOINTS];
    ik_spring springs[3 * MAX_JOINTS];
    int picked[4] = {-1, 1, 2, 999}, n, k, axes = 0;
    if (!chain) return;
    n = ik_chain_file_jacobian_joints(chain, picked, 4, joints, NULL, springs);
    CHECK(n == 2 && joints[0].joint == 1 && joints[1].joint == 2, "tentacle picked joints: %d", n);
    for (k = 0; k < n; ++k) axes += joints[k].axis_count;
    CHECK(axes == 6, "two balls: %d axes", axes);
    for (k = 0; k < axes; ++k) CHECK(springs[k].stiffness == 0, "ball axis %d has a spring", k);
    ik_chain_file_free(chain);
}

/* A DLS solve bound by the tail's joints, limits and springs toward the
 * file's target: finite, every joint within its limits, bones unchanged,
 * the tip closer to the target than at rest. */
static void test_tail_solve(void) {
    ik_chain_file *chain = load_example("tail.chain");
    ik_jacobian_joint joints[MAX_JOINTS];
    ik_constraint limits[MAX_JOINTS];
    ik_spring springs[3 * MAX_JOINTS];
    ik_transform pose[MAX_JOINTS];
    ik_mat4 rest_ms[MAX_JOINTS], model_ms[MAX_JOINTS];
    int all[MAX_JOINTS], n, j, axes = 0, outside = 0, tip;
    ik_jacobian job = ik_jacobian_def();
    ik_jacobian_effector effector;
    ik_vec3 target;
    void *scratch;
    ik_result r;
    if (!chain) return;
    tip = chain->joint_count - 1;
    target = chain->targets[0].position_ms;
    n = ik_chain_file_jacobian_joints(chain, all, all_joints(chain, all), joints, limits, springs);
    for (j = 0; j < n; ++j) axes += joints[j].axis_count;
    ik_chain_file_rest_pose(chain, pose);
    ik_skeleton_fk(&chain->skeleton, pose, NULL, rest_ms);
    effector = ik_jacobian_effector_make(tip, target);
    job.base.skeleton = &chain->skeleton;
    job.base.pose_ls = pose;
    job.joints = joints;
    job.base.listed_joint_count = n;
    job.base.constraints = limits;
    job.springs = springs;
    job.effectors = &effector;
    job.effector_count = 1;
    job.base.scratch_bytes = ik_jacobian_scratch_size(chain->joint_count, axes, 1);
    scratch = malloc(job.base.scratch_bytes);
    job.base.scratch = scratch;
    r = ik_jacobian_run(&job);
    CHECK(r == IK_OK, "tail solve: %s", ik_result_str(r));
    ik_skeleton_fk(&chain->skeleton, pose, NULL, model_ms);
    for (j = 0; j < n; ++j) outside += !ik_constraint_check(&limits[j], pose[joints[j].joint].rotation, 1e-3f);
    CHECK(outside == 0, "%d joints outside their limits", outside);
    for (j = 1; j < chain->joint_count; ++j) {
        ik_real rest = ik_vec3_distance(ik_mat4_translation(&rest_ms[j]), ik_mat4_translation(&rest_ms[j - 1]));
        ik_real now = ik_vec3_distance(ik_mat4_translation(&model_ms[j]), ik_mat4_translation(&model_ms[j - 1]));
        CHECK(ik_finite(now) && IK_FABS(now - rest) < 1e-4f, "bone %d: %g, was %g", j, (double)now, (double)rest);
    }
    CHECK(ik_vec3_distance(ik_mat4_translation(&model_ms[tip]), target) <
              0.5f * ik_vec3_distance(ik_mat4_translation(&rest_ms[tip]), target),
          "the tip did not come closer to the target");
    free(scratch);
    ik_chain_file_free(chain);
}

int main(void) {
    test_tail_binding();
    test_tentacle_binding();
    test_tail_solve();
    return check_summary("test_chain_file_solve");
}

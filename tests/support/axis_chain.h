/* Random serial chains for the Jacobian solvers' test and benchmark (issue
 * 11, item 10): joints of 1, 2 or 3 axes adding up to a given axis count,
 * random unit axes (a joint's axes orthonormal), bones of random direction
 * and length, a tip joint as the effector, and poses set from one angle per
 * axis: rotation_ls = rest * exp(a_0 theta_0) * exp(a_1 theta_1) ... */
#ifndef IKIT_TEST_AXIS_CHAIN_H
#define IKIT_TEST_AXIS_CHAIN_H

#include <ikit/jacobian.h>
#include <ikit/skeleton.h>

#include "rng.h"

#define AXIS_CHAIN_MAX_AXES 8
#define AXIS_CHAIN_MAX_JOINTS (AXIS_CHAIN_MAX_AXES + 1)

typedef struct axis_chain {
    int parents[AXIS_CHAIN_MAX_JOINTS];
    ik_transform rest_ls[AXIS_CHAIN_MAX_JOINTS];
    ik_transform pose_ls[AXIS_CHAIN_MAX_JOINTS];
    ik_mat4 model_ms[AXIS_CHAIN_MAX_JOINTS];
    ik_jacobian_joint joints[AXIS_CHAIN_MAX_JOINTS];
    ik_skeleton skeleton;
    int joint_count; /* solver joints 0..joint_count-1; joint joint_count is the tip */
    int axis_count;
    ik_real length; /* summed bone lengths */
} axis_chain;

/* `axes` (1..AXIS_CHAIN_MAX_AXES) axes in joints of 1-3 axes each, bones of
 * length in [0.3, 1.5] in random directions, posed at rest. A joint of two
 * axes turns about them in its current frame, so turning about one and then
 * the other also turns it about their cross product, a direction its
 * Jacobian columns do not have. A chain with no redundancy for a
 * 6-coordinate goal (position and orientation: 6 axes or fewer) cannot
 * undo that drift, and no Jacobian method meets such goals reliably (DLS
 * and SDLS both end short of over a third of 5-axis goals and a few % of
 * 6-axis ones), so those chains get joints of 1 and 3 axes only. */
static inline void axis_chain_make(axis_chain *c, rng *g, int axes) {
    int left = axes, i, k;
    c->joint_count = 0;
    c->length = 0;
    while (left > 0) {
        ik_jacobian_joint *joint = &c->joints[c->joint_count];
        ik_quat frame = rng_rotation(g);
        int dof = 1 + (int)(rng_next(g) % 3);
        if (axes < 7 && dof == 2) dof = 1;
        if (dof > left) dof = axes < 7 ? 1 : left;
        joint->joint = c->joint_count;
        joint->axis_count = dof;
        if (dof == 1) joint->axes_ls[0] = rng_direction(g);
        for (k = 0; dof > 1 && k < dof; ++k) joint->axes_ls[k] = ik_quat_rotate(frame, ik_v3(k == 0, k == 1, k == 2));
        left -= dof;
        ++c->joint_count;
    }
    for (i = 0; i <= c->joint_count; ++i) {
        ik_real bone = rng_range(g, 0.3, 1.5);
        c->parents[i] = i - 1;
        c->rest_ls[i] = ik_transform_identity();
        if (i > 0) {
            c->rest_ls[i].translation = ik_vec3_scale(rng_direction(g), bone);
            c->length += bone;
        }
    }
    c->axis_count = axes;
    ik_skeleton_init(&c->skeleton, c->joint_count + 1, c->parents, NULL, c->rest_ls, NULL);
    ik_skeleton_rest_pose(&c->skeleton, c->pose_ls);
}

/* The pose with one angle per axis, in the order of joints[] and their axes. */
static inline void axis_chain_set_angles(axis_chain *c, const ik_real *angles) {
    int i, k, column = 0;
    for (i = 0; i < c->joint_count; ++i) {
        const ik_jacobian_joint *joint = &c->joints[i];
        ik_quat q = c->rest_ls[joint->joint].rotation;
        for (k = 0; k < joint->axis_count; ++k, ++column)
            q = ik_quat_mul(q, ik_quat_from_axis_angle(ik_vec3_normalize(joint->axes_ls[k]), angles[column]));
        c->pose_ls[joint->joint].rotation = ik_quat_normalize(q);
    }
}

/* The protocol: a goal for the tip (position and orientation) from
 * forward kinematics of random angles in [-pi, pi], and the chain started
 * up to `perturbation` radians per axis away from that pose in the solver's
 * own joint model: each joint's rotation_ls * exp(sum_k a_k delta_k), as
 * one solver step turns it, so the goal is one exact step of -delta away. */
static inline ik_jacobian_effector axis_chain_goal(axis_chain *c, rng *g, double perturbation) {
    ik_real angles[AXIS_CHAIN_MAX_AXES];
    ik_jacobian_effector effector;
    int i, k;
    for (k = 0; k < c->axis_count; ++k) angles[k] = rng_range(g, -IK_PI, IK_PI);
    axis_chain_set_angles(c, angles);
    ik_skeleton_fk(&c->skeleton, c->pose_ls, NULL, c->model_ms);
    effector = ik_jacobian_effector_make(c->joint_count, ik_mat4_translation(&c->model_ms[c->joint_count]));
    effector.use_orientation = 1;
    effector.target_rotation_ms = ik_mat4_rotation(&c->model_ms[c->joint_count]);
    for (i = 0; i < c->joint_count; ++i) {
        const ik_jacobian_joint *joint = &c->joints[i];
        ik_quat *rotation = &c->pose_ls[joint->joint].rotation;
        ik_vec3 turn = ik_vec3_zero();
        for (k = 0; k < joint->axis_count; ++k)
            turn = ik_vec3_mad(turn, ik_vec3_normalize(joint->axes_ls[k]), rng_range(g, -perturbation, perturbation));
        *rotation = ik_quat_normalize(
            ik_quat_mul(*rotation, ik_quat_from_axis_angle(ik_vec3_normalize(turn), ik_vec3_length(turn))));
    }
    return effector;
}

#endif

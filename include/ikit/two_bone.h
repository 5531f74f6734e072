/* ikit two-bone IK: the closed-form solver for a start joint (hip, shoulder),
 * a middle joint (knee, elbow) and an end joint (ankle, wrist).
 *
 * Fill a job with ik_two_bone_def(), point it at the three joints' current
 * model-space matrices and local rotations (ik_two_bone_bind does both for a
 * skeleton pose), set a target, then call ik_two_bone_run(). Only rotations
 * change, so bone lengths never do. The three joints need not be direct
 * parent and child, only ancestors in order. Corrections are exact under any
 * invertible affine ancestors: uniform scales of any size, mirrored or not (a
 * negative determinant, as exporters write for mirrored limbs: (-1, 1, 1),
 * (-3, -3, -3)), and non-uniform ones, under which the limb is solved in the
 * start joint's own frame (bone lengths and reach are kept there, so the
 * reachable targets form an ellipsoid in model space). The mid joint's own
 * scale may be non-uniform, but not negative (a mirror is taken as the
 * parent's). The start joint's own scale should be uniform: a non-uniform
 * one (told from a parent's by columns of its matrix that are orthogonal
 * but of unequal lengths) shears the mid's frame, so the solve is only
 * approximate there, and `reached` and `residual` say where the end
 * actually lands. (keep_end_rotation needs the start and mid scales
 * uniform: a non-uniform scale above the end joint shears its frame.)
 * Limbs of any size are solved (those outside 1.5e-5 to 6.5e4 in float, 1e-36
 * to 1e36 in double, a little slower), and a pole of any distance.
 */
#ifndef IKIT_TWO_BONE_H
#define IKIT_TWO_BONE_H

#include <ikit/math.h>
#include <ikit/result.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ik_two_bone {
    /* Current pose: model-space matrices of the three joints (required). */
    const ik_mat4 *start_ms;
    const ik_mat4 *mid_ms;
    const ik_mat4 *end_ms;

    /* Where the end joint should go, in model space. */
    ik_vec3 target_ms;

    /* Pole: when use_pole, the knee bends toward this model-space point
     * instead of staying as close as it can to where it is; a straight limb
     * turns about its own axis so that it bends toward the pole when the
     * target comes closer (without a pole it keeps its roll), so the limb
     * does not roll as a target crosses full reach. Default off. */
    ik_bool use_pole;
    ik_vec3 pole_ms;

    /* Hinge: when use_hinge, the middle joint turns only about hinge_axis_ls
     * (in its own local frame), and its bend -- the signed angle about that
     * axis from the upper bone's direction to the lower bone's, both in the
     * mid joint's frame (a mirror does not change its sign), 0 when
     * straight -- stays in [min_bend, max_bend] radians. Of the two mirrored
     * solutions the one inside the range is taken, else the nearest clamped
     * one. Defaults: off, axis +X, 0 to 133 degrees (seed 001's elbow). */
    ik_bool use_hinge;
    ik_vec3 hinge_axis_ls;
    ik_real min_bend;
    ik_real max_bend;

    /* Soften in [0, 1): over the last `soften` fraction of the full reach,
     * the reach eases exponentially toward full extension instead of
     * snapping straight. 0 (default) is off. */
    ik_real soften;
    /* Extra turn of the whole limb about the start-to-target axis, radians. */
    ik_real twist;
    /* Blend from the input pose (0) to the full solution (1). Default 1. */
    ik_real weight;
    /* Keep the end joint's model-space rotation (a hand or foot holding its
     * orientation): also writes end_rotation_ls. Default off. */
    ik_bool keep_end_rotation;
    /* `reached` is set when the end lands within reach_tolerance times the
     * chain length of the target. Default 1e-3. */
    ik_real reach_tolerance;

    /* In: the joints' current local rotations; out: the new ones. start and
     * mid are required; end only with keep_end_rotation. */
    ik_quat *start_rotation_ls;
    ik_quat *mid_rotation_ls;
    ik_quat *end_rotation_ls;

    /* Optional outputs. */
    ik_bool *reached;
    ik_real *residual; /* distance from the end joint to the target after the solve */

    unsigned long defaulted; /* IK_JOB_DEFAULTED, set by ik_two_bone_def(); do not touch */
} ik_two_bone;

/* A job with the documented defaults and no joints bound. */
ik_two_bone ik_two_bone_def(void);

/* Point the job at joints `start`, `mid`, `end` of a pose: their model-space
 * matrices in model_ms and their rotations in pose_ls (which the solve then
 * updates in place). */
void ik_two_bone_bind(ik_two_bone *job, const ik_mat4 *model_ms, ik_transform *pose_ls, int start, int mid, int end);

/* Solve. Returns IK_ERR_NOT_DEFAULTED for a job not made by
 * ik_two_bone_def() (a zeroed one), IK_ERR_NULL for missing pointers, IK_ERR_NONFINITE for NaN or
 * infinite inputs, IK_ERR_RANGE for min_bend > max_bend or soften outside
 * [0, 1), IK_ERR_DEGENERATE for a singular joint matrix (a zero or
 * flattened axis) or an input rotation that is zero or whose squared norm
 * leaves the normal number range (as ik_aim_run); on any error the
 * rotations are left as they were and `reached` is 0. `reached` and
 * `residual` are measured from where the solve put the end joint.
 * Zero-length bones, a target on the start joint, a straight chain and a
 * pole on the start-to-target line all give defined, finite results. */
ik_result ik_two_bone_run(const ik_two_bone *job);

#ifdef __cplusplus
}
#endif
#endif

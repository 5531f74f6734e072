/* ikit walk: a procedural walk cycle for any mapped humanoid (seed 004's
 * "simple procedural walk cycle by moving the target with trigonometric
 * functions and easing functions", with the feet put on the ground by ray
 * casts). The job writes a take (take.h): one local pose per frame.
 *
 * How a frame is made, at time t:
 *   - Each foot runs through a gait cycle of period P = 2 / cadence, the
 *     right half a cycle after the left; a cycle is stance (the first
 *     `stance_fraction` of it: the foot planted, exactly still) then swing.
 *   - Footholds: foot step c lands at t_c and is planted where the body
 *     passes over it at mid-stance, speed * (t_c + stance / 2) along forward,
 *     its heel and ball cast down onto the ground and the foot pitched to
 *     touch both; on stairs a foot that would straddle a riser is moved onto
 *     one tread. Late in stance the heel lifts about the ball (toe-off).
 *   - Swing: the foot travels from one foothold to the next along eased
 *     curves (smootherstep across, a sin^2 lift of step_height up; on the way
 *     up a step it climbs early, on the way down it drops late) and is kept
 *     above the ground under its heel, ball and toes by ray casts.
 *   - The pelvis moves on at speed, over the mean height of the feet's
 *     ground, bobbing twice a cycle and swaying toward the standing foot; it
 *     is lowered where a leg could not reach its foot.
 *   - Legs and arms are solved by the humanoid rig (humanoid.h: two-bone
 *     limbs with the knees and elbows on their natural side); the arms
 *     hang and swing about the shoulders opposite the legs.
 *
 * The walk frame: the take is made in the skeleton's model space (root_ms
 * above its roots, as every ikit solver), but the ground is given in a
 * frame of the walk: origin on the rest floor under the hips, +Y the rig's
 * up, +Z its forward (where it walks), +X = Y x Z, in model units. So one
 * ground description serves a Y-up or Z-up rig, scaled or mirrored, and
 * stairs and height fields (+Y up in ground.h) work whatever the rig's up.
 * ik_walk_frame gives the frame as a matrix. No memory is allocated.
 */
#ifndef IKIT_WALK_H
#define IKIT_WALK_H

#include <ikit/ground.h>
#include <ikit/humanoid.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/take.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ik_walk_report {
    ik_real distance;       /* how far the pelvis went along forward (model units) */
    int steps;              /* footfalls inside the take (both feet) */
    ik_real worst_residual; /* the largest distance from a hand or foot to its goal, model units */
    ik_real lowest_pelvis;  /* the largest lowering below the bob for reach, model units (>= 0) */
} ik_walk_report;

typedef struct ik_walk {
    const ik_humanoid *rig;
    const ik_mat4 *root_ms; /* above the skeleton's roots; NULL: identity */

    /* The gait; lengths in model units. ik_walk_def derives them from the
     * leg length L (thigh + shin, in model units under root_ms). */
    ik_real speed;           /* along forward, units per second: 1.2 L/s (1.1 m/s for L = 0.9 m) */
    ik_real stride;          /* a foot's travel per cycle (two steps): 1.2 L; 0: 2 speed / cadence */
    ik_real cadence;         /* steps per second: 0 (the default): 2 speed / stride; when both
                                stride and cadence are given they must agree (within 0.1%) */
    ik_real step_height;     /* the swing's lift: 0.08 L; at most 0.5 L */
    ik_real stance_fraction; /* of a cycle with the foot planted: 0.6 (0.5 .. 0.85) */
    ik_real bob;             /* the pelvis's rise and fall, amplitude: 0.015 L (0 .. 0.2 L) */
    ik_real sway;            /* its side-to-side travel toward the standing foot: 0.02 L (0 .. 0.2 L) */
    ik_real arm_swing;       /* the arms' swing about the shoulders, amplitude: 20 deg (0 .. 60 deg) */
    ik_real toe_off;         /* the heel's lift about the toes at the end of stance: 25 deg (0 .. 45) */

    /* What the feet stand on, in the walk frame (see above); NULL: flat
     * ground through the rest floor. */
    const ik_ground *ground;

    /* Out: take->frame_count, joint_count (the skeleton's) and frame_time
     * set by the caller, take->poses_ls [frame_count * joint_count] written. */
    ik_take *take;
    ik_mat4 *model_ms;       /* scratch [joint_count]: holds the last frame's forward kinematics */
    ik_walk_report *report;  /* optional */
    unsigned long defaulted; /* IK_JOB_DEFAULTED, set by ik_walk_def(); do not touch */
} ik_walk;

/* The defaults above for `rig` under `root_ms` (NULL: identity); with no
 * rig (or a rig without legs) L = 1. Every pointer but rig and root_ms
 * NULL. */
ik_walk ik_walk_def(const ik_humanoid *rig, const ik_mat4 *root_ms);

/* The walk frame in model space: columns X, Y (up), Z (forward) and the
 * origin, so walk-frame point p is at ik_mat4_transform_point(frame, p).
 * IK_ERR_NULL, IK_ERR_NONFINITE or IK_ERR_DEGENERATE (a singular root). */
ik_result ik_walk_frame(const ik_humanoid *rig, const ik_mat4 *root_ms, ik_mat4 *frame);

/* The cadence the job walks at (steps per second), or 0 when the job is
 * not valid. */
ik_real ik_walk_cadence(const ik_walk *job);

/* Check the job; on failure *problem (may be NULL) says what is wrong in
 * words ("speed must be positive and finite"). IK_ERR_NOT_DEFAULTED,
 * IK_ERR_NULL, IK_ERR_NONFINITE (NaN or infinity in a parameter or root),
 * IK_ERR_RANGE (a parameter out of its range above, a step longer than the
 * leg can make: stride / 2 above 1.2 L, a take whose joint count is not
 * the skeleton's or with a bad frame count or time), IK_ERR_DEGENERATE (a
 * singular root), ground errors as ik_ground_validate. */
ik_result ik_walk_validate(const ik_walk *job, const char **problem);

/* Validate, then write every frame of the take (and the report). A job
 * that does not validate writes nothing. */
ik_result ik_walk_run(const ik_walk *job);

#ifdef __cplusplus
}
#endif
#endif

/* ikit full body: the whole humanoid follows its hands, feet, head, hips and
 * chest, and stays balanced over its planted feet.
 *
 * Two stages per solve (docs/humanoid.md, "Full-body IK"):
 *   1. The body: the pelvis's position and turn, the spine, chest, neck and
 *      clavicles (each with a stiffness and a limit) are moved together by a
 *      weighted Gauss-Newton solve with Levenberg-Marquardt steps (damped
 *      least squares, the stiffnesses as the damping) so that every limb's
 *      target lies within
 *      its reach from its shoulder or hip, pinned feet stay reachable, head,
 *      hips and chest go to their targets, and the centre of mass (a de Leva
 *      mass model, body_mass.h) stays over the support polygon of the
 *      pinned feet, with the body pulled toward a reference pose.
 *   2. The limbs, analytically: arms and legs by two-bone IK within the
 *      rig's elbow and knee limits, bending their natural way; hands and
 *      feet turned to their targets; the head aimed at a look-at target
 *      within the rig's look limits.
 * From a warm start (last frame's result in pose_ls) with the animated or
 * rest pose as the reference, the result is the same minimum whatever the
 * start, so it follows the targets continuously.
 *
 * Core layer: no allocation (scratch from ik_full_body_scratch_size), no
 * global state. Space: model space, as ik_humanoid_solve. */
#ifndef IKIT_FULL_BODY_H
#define IKIT_FULL_BODY_H

#include <stddef.h>

#include <ikit/body_mass.h>
#include <ikit/humanoid.h>
#include <ikit/math.h>
#include <ikit/result.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The effectors, each named by its humanoid role (ik_humanoid_role_name). */
enum {
    IK_FB_HAND_L,
    IK_FB_HAND_R,
    IK_FB_FOOT_L,
    IK_FB_FOOT_R,
    IK_FB_HEAD,
    IK_FB_HIPS,
    IK_FB_CHEST,
    IK_FB_EFFECTOR_COUNT
};

/* The effector of a humanoid role (IK_ROLE_HAND_L -> IK_FB_HAND_L, ...),
 * -1 for a role that is no effector (an elbow, a toe) or out of range. */
int ik_full_body_effector_of_role(int role);
/* The effector named by its role's name ("left_hand", "head", "hips",
 * "chest", ...), -1 when the name is no effector's. `length` < 0:
 * NUL-terminated. */
int ik_full_body_effector_find(const char *name, int length);
/* The role name of an effector ("left_foot"); "" out of range. */
const char *ik_full_body_effector_name(int effector);

typedef struct ik_full_body_effector {
    ik_bool enabled;
    ik_vec3 position_ms;     /* wrist, ankle, head joint, hips joint or chest joint */
    ik_real position_weight; /* 0..1: 0 leaves the position free, 1 (default) reaches it */
    ik_bool use_rotation;    /* also turn the joint to rotation_ms (ik_mat4_rotation's reading) */
    ik_quat rotation_ms;
    ik_real rotation_weight; /* 0..1, default 1 */
    ik_real pull;            /* 0..1: how much the effector may drag the body (default 1); 0
                                moves the limb alone */
    /* Pinned (feet; hips and chest too): the effector does not move. Not
     * enabled, it is held where the input pose has it (position and
     * rotation); enabled, at its target. A pinned foot is a support of the
     * balance. */
    ik_bool pinned;
    ik_bool use_pole; /* hands and feet: the elbow / knee bends toward pole_ms */
    ik_vec3 pole_ms;
    /* Pinned feet: tiptoe. The foot is held at the ball of the foot (its
     * toe joint, or the ball's contact point on a rig without toes, whose
     * toes keep their turn) and may turn about it, lifting the heel, when
     * the body needs the leg longer (a hand reaching high), up to the
     * ankle's plantarflexion limit (and the toes' bend); the support of the
     * balance is then the ball and toes only. The flat foot is the pinned
     * one with its heel's rise above the ball, across the body's up, taken
     * out (so last frame's lifted foot is read back flat). Ignored for a
     * leg with a virtual end (no foot joint to turn). Default 0. */
    ik_bool allow_heel_lift;
} ik_full_body_effector;

/* The body's joints the first stage moves, each with a stiffness and a
 * limit. */
enum {
    IK_FB_JOINT_PELVIS_SHIFT, /* the pelvis's position: stiffness per leg length, limit in leg lengths from the
                                 reference */
    IK_FB_JOINT_PELVIS,       /* the pelvis's turn: limit from the reference pose's pelvis */
    IK_FB_JOINT_SPINE,        /* the spine role's joint: limit from its rest rotation */
    IK_FB_JOINT_CHEST,        /* the chest: from rest */
    IK_FB_JOINT_NECK,         /* the neck: from rest */
    IK_FB_JOINT_CLAVICLE_L,   /* clavicles: from rest, at most the rig's clavicle limits */
    IK_FB_JOINT_CLAVICLE_R,
    IK_FB_JOINT_COUNT
};

typedef enum ik_balance_status {
    IK_BALANCE_OFF,        /* balance not asked for */
    IK_BALANCE_KEPT,       /* the centre of mass is inside the support polygon (less the margin) */
    IK_BALANCE_NO_SUPPORT, /* balance asked for, but no foot is pinned */
    IK_BALANCE_LOST        /* the pose cannot be balanced: the centre stays outside */
} ik_balance_status;

#define IK_FULL_BODY_MAX_SUPPORT 8

typedef struct ik_full_body_report {
    ik_real residual[IK_FB_EFFECTOR_COUNT];          /* model units: the joint to its target */
    ik_real rotation_residual[IK_FB_EFFECTOR_COUNT]; /* radians, where a rotation was asked */
    ik_bool reached[IK_FB_EFFECTOR_COUNT];           /* within tolerance (and 1 degree) */
    ik_vec3 centre_of_mass_ms;
    /* The centre of mass's distance inside the support polygon along the
     * floor (negative: outside by that much), model units; 0 without
     * support. */
    ik_real support_distance;
    ik_balance_status balance;
    int support_count; /* the polygon's corners, counterclockwise seen from above */
    ik_vec3 support_ms[IK_FULL_BODY_MAX_SUPPORT];
    int iterations;       /* body iterations run, all rounds */
    ik_real look_error;   /* radians, with look_at */
    ik_real heel_lift[2]; /* left, right foot: the heel's lift about the ball, radians (allow_heel_lift) */
} ik_full_body_report;

typedef struct ik_full_body {
    const ik_humanoid *rig;
    const ik_body_mass *mass;         /* required with balance; else may be NULL */
    ik_transform *pose_ls;            /* in: the warm start (last frame's result or the animated pose); out */
    const ik_transform *reference_ls; /* the pose the body is pulled toward (the animation, the rest
                                         pose); NULL: the input pose_ls */
    ik_mat4 *model_ms;                /* out [joint_count]: forward kinematics of the result */
    const ik_mat4 *root_ms;           /* above the roots; NULL: identity */
    ik_full_body_effector effector[IK_FB_EFFECTOR_COUNT];

    ik_bool look_at; /* the head turns toward look_target_ms, within the rig's look_max */
    ik_vec3 look_target_ms;

    ik_real stiffness[IK_FB_JOINT_COUNT]; /* > 0: how hard each joint holds the reference */
    ik_real limit[IK_FB_JOINT_COUNT];     /* radians (leg lengths for the shift), >= 0 */

    ik_bool balance;        /* keep the centre of mass over the pinned feet */
    ik_real balance_margin; /* inside the polygon by this much, leg lengths (default 0.02) */
    ik_real foot_width;     /* the support's width, in lengths of heel to toes' tip (default 0.36) */

    ik_real reach_margin; /* the body moves so a hand's or foot's target is within (1 - this) of the
                             limb's length (default 0.005), leaving the elbow a little bent */
    ik_real tolerance;    /* report: reached within this many leg lengths (default 1e-3) */
    int iterations;       /* body steps per round at most, 1..100 (default 50; a warm start takes 1-3) */

    void *scratch; /* ik_full_body_scratch_size(rig) bytes */
    size_t scratch_bytes;
    ik_full_body_report *report; /* optional */
    unsigned long defaulted;     /* IK_JOB_DEFAULTED, set by ik_full_body_def(); do not touch */
} ik_full_body;

/* Defaults: every effector off (weights 1, pull 1, not pinned); no look-at;
 * stiffness pelvis shift 1, pelvis 1, spine 1, chest 1, neck 2, clavicles 3;
 * limits pelvis shift 0.5 leg lengths, pelvis 60 degrees, spine 30, chest
 * 30, neck 40, clavicles 30 (the rig's clavicle limits, when set, are
 * applied on top); balance off, margin 0.02 leg lengths, foot width 0.36 (a foot's
 * breadth over its length, 0.055 / 0.152 of stature: Drillis and Contini,
 * as drawn in Winter, Biomechanics and Motor Control of Human Movement,
 * fig. 4.1); reach margin 0.005; tolerance 1e-3; 50 iterations. */
ik_full_body ik_full_body_def(void);

/* Bytes of scratch a job on `rig` needs (0 for a NULL rig). */
size_t ik_full_body_scratch_size(const ik_humanoid *rig);

/* Validate, then solve. IK_ERR_NOT_DEFAULTED, IK_ERR_NULL (rig, pose,
 * model, scratch; mass with balance), IK_ERR_CAPACITY (short scratch),
 * IK_ERR_NONFINITE (NaN or infinity in the pose, the reference, root_ms or
 * an enabled effector's input, the look target), IK_ERR_RANGE (a weight or
 * pull outside [0, 1], a stiffness not > 0, a negative limit, margin or
 * tolerance, iterations outside 1..100), IK_ERR_DEGENERATE (a zero
 * rotation quaternion). On error nothing is written. A pose that cannot be
 * balanced is no error: the report says IK_BALANCE_LOST and how far. */
ik_result ik_full_body_run(const ik_full_body *job);

/* The report of `job`'s last run in a line or two for a person: "reached:
 * left_hand, right_foot; not reached: right_hand (0.12 leg lengths off);
 * balanced (the centre of mass 0.031 leg lengths inside the support)" or
 * "...; not balanced: the centre of mass is 0.084 leg lengths outside the
 * support of the pinned feet", or "not balanced: no foot is pinned, so
 * there is no support to stand on". Figures are in the rig's leg lengths
 * (under the job's root_ms). Writes at most `size` bytes, NUL-terminated
 * when size > 0; returns the length the whole text needs (as snprintf). */
int ik_full_body_report_describe(const ik_full_body *job, const ik_full_body_report *report, char *out, size_t size);

#ifdef __cplusplus
}
#endif
#endif

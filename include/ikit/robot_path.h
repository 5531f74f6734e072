/* ikit robot paths: the joint values that move a robot chain's tip along a
 * straight line in Cartesian space, from where a start configuration puts it
 * to a goal pose, in small steps, without joint jumps (the Cartesian path of
 * MoveIt's computeCartesianPath, with its "fraction achieved").
 *
 * The line: the tip's start pose T_0 = FK(q_start) and the goal T_1. The
 * waypoint at s in [0, 1] has the position p(s) = p_0 + s (p_1 - p_0) and
 * the orientation R(s) = slerp(R_0, R_1, s) (the shorter arc). The line is
 * cut into N equal segments, N = max(ceil(|p_1 - p_0| / max_step),
 * ceil(angle(R_1 R_0^-1) / max_rotation_step), 1), so no segment moves the
 * tip by more than max_step metres or turns it by more than
 * max_rotation_step radians (the quotients are shrunk by 1e-5 of themselves
 * before rounding up, so that 0.3 m at 1 mm is 300 segments, not 301);
 * waypoint i lies at s = i / N, waypoint 0 is q_start itself.
 *
 * Each waypoint is solved from the one before it (a warm start): the pose
 * IK of robot_ik.h (damped least squares, limits kept), seeded with the
 * previous waypoint's q, with no closed-form starts and no random restarts
 * (either could land on another branch), within position_tolerance and
 * angle_tolerance per axis (1e-5 m and rad by default, as a pose solve).
 * A rotational variable is then moved by whole turns to its copy nearest
 * the previous waypoint, where the limits allow it (a continuous joint is
 * unwrapped along the path, so its values may leave (-pi, pi]).
 *
 * A waypoint is taken only when all of these hold, and the path stops at
 * the first that fails (the waypoints before it are kept):
 *  - reached: the tip is within tolerance of the waypoint's pose on every axis;
 *  - inside the limits without unwinding: a turning joint whose copy nearest
 *    the previous waypoint lies past a limit stops the path (IK_ROBOT_PATH_LIMIT);
 *  - continuous: no variable moved further than the joint-step bound from
 *    the previous waypoint. The bound follows the Cartesian step (as
 *    MoveIt's jump_threshold follows the mean step): with the segment's
 *    move d = |dp| / L + |dtheta| (dimensionless; L = a tenth of the chain's
 *    reach, its summed joint offsets), a rotational variable may move
 *    joint_step_ratio * d radians and a prismatic one joint_step_ratio * d * L
 *    metres. For the UR5 (L = 0.14 m) at 1 mm steps and the default ratio
 *    of 10, that is 0.07 rad a millimetre: a tool at 1 m/s would need joint
 *    speeds of 70 rad/s, so only a pose near a singularity asks for more;
 *    max_joint_step > 0 sets the bound in radians (metres) instead;
 *  - on one branch: for a chain of exactly 6 variables, det J (the 6 x 6
 *    geometric Jacobian) keeps its sign. The branches of a 6-DOF arm's
 *    inverse kinematics (the up to 8 closed-form solutions: shoulder left
 *    or right, elbow up or down, wrist flipped or not) are separated by
 *    the singular configurations where det J = 0, so a sign change means
 *    the arm went through or round a singularity onto another branch (a
 *    waypoint with |det J| within rounding of 0, below 64 ik_real steps of
 *    the product of J's column lengths, is singular: it passes, and the
 *    branch is the one of the waypoints either side of it). A
 *    7-DOF arm (the Panda) has no such branches; its continuity is the
 *    joint-step bound alone;
 *  - valid: the optional config_ok callback accepts the waypoint's q (a
 *    collision check, for example: it is called on q_start first, and on
 *    every waypoint after it is solved; the motion between two waypoints
 *    is not checked, as MoveIt does not).
 *  Every waypoint written is inside the joint limits (the IK keeps them).
 *
 * Outputs: the waypoints in q_path, their count, the fraction of the line
 * achieved, (count - 1) / N (1 when the whole line was followed, 0 when not
 * even the first step was), and why it stopped.
 *
 * Nothing allocates: scratch holds ik_robot_path_scratch_size(variables)
 * bytes; q_path holds max_waypoints * variable_count values
 * (ik_robot_path_waypoint_count says how many the line needs).
 */
#ifndef IKIT_ROBOT_PATH_H
#define IKIT_ROBOT_PATH_H

#include <stddef.h>

#include <ikit/chain_base.h>
#include <ikit/error.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/robot.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most waypoints a line may be cut into (a step far too small for the
 * line is refused rather than running for ever). */
#define IK_ROBOT_PATH_MAX_WAYPOINTS 10000000

/* Why a path ended. */
typedef enum ik_robot_path_stop {
    IK_ROBOT_PATH_COMPLETE,     /* the goal pose was reached: fraction 1 */
    IK_ROBOT_PATH_UNREACHED,    /* the next waypoint's pose could not be reached from the last (out of
                                   reach, or a joint held at a limit) */
    IK_ROBOT_PATH_LIMIT,        /* a turning joint would have to pass its limit (the IK found the pose only
                                   with it a whole turn back) */
    IK_ROBOT_PATH_JUMP,         /* reaching it needed a joint step over the bound */
    IK_ROBOT_PATH_BRANCH,       /* reaching it changed the sign of det J (another branch) */
    IK_ROBOT_PATH_INVALID,      /* config_ok refused its configuration */
    IK_ROBOT_PATH_START_INVALID /* config_ok refused q_start: no waypoint written */
} ik_robot_path_stop;

/* A short name of the reason ("complete", "unreached", "joint limit", "joint jump", "branch switch", "refused by
 * config_ok", "start refused by config_ok"). */
const char *ik_robot_path_stop_str(ik_robot_path_stop stop);

/* Whether configuration q [variable_count] may be on the path: nonzero for
 * yes. Called with the job's config_user; it must not keep q. */
typedef int (*ik_robot_path_config_ok)(void *user, const ik_real *q, int variable_count);

typedef struct ik_robot_path {
    unsigned long defaulted; /* IK_JOB_DEFAULTED, set by ik_robot_path_def(); do not touch */

    /* Inputs. */
    const ik_robot_chain *chain;
    const ik_real *q_start;   /* [chain->variable_count]: inside the limits (continuous joints: any finite value) */
    ik_vec3 goal_position_bs; /* the tip's goal position, base frame */
    ik_quat goal_rotation_bs; /* its goal orientation; unit (|q| within 1e-3 of 1); default identity */

    /* Options. */
    ik_real max_step;           /* metres of tip travel a segment, > 0; default 0.001 */
    ik_real max_rotation_step;  /* radians of tip turn a segment, > 0; default 0.01 */
    ik_real joint_step_ratio;   /* > 0: the joint-step bound per unit of Cartesian move (see above); default 10 */
    ik_real max_joint_step;     /* >= 0: 0 (default) derives the bound from joint_step_ratio; else a fixed bound
                                   per waypoint, radians (prismatic: metres) */
    ik_vec3 position_tolerance; /* per base axis, > 0; default 1e-5 each */
    ik_vec3 angle_tolerance;    /* per axis, radians, > 0; default 1e-5 each */
    int waypoint_iterations;    /* IK iterations per waypoint, >= 1; default 100 */
    ik_bool keep_branch;        /* default 1: a 6-variable chain stops where det J changes sign */
    ik_robot_path_config_ok config_ok; /* NULL (default): every configuration is valid */
    void *config_user;                 /* passed to config_ok */
    void *scratch;                     /* ik_robot_path_scratch_size(chain->variable_count) bytes */
    size_t scratch_bytes;

    /* Outputs (q_path and waypoint_count required, the rest may be NULL). */
    ik_real *q_path;          /* [max_waypoints * variable_count]: waypoint w at q_path + w * variable_count */
    int max_waypoints;        /* room in q_path, in waypoints; at least ik_robot_path_waypoint_count */
    int *waypoint_count;      /* waypoints written, q_start included (0 only for START_INVALID) */
    ik_real *fraction;        /* share of the line achieved, in [0, 1] */
    int *segments;            /* N: the segments the whole line is cut into */
    ik_robot_path_stop *stop; /* why it ended */
    ik_error *error_field;    /* NULL, or cleared on IK_OK, else path names the bad field */
} ik_robot_path;

/* A job with the defaults documented above and every pointer NULL. */
ik_robot_path ik_robot_path_def(void);

/* Bytes of scratch for a chain of `variable_count` variables (0 when negative). */
size_t ik_robot_path_scratch_size(int variable_count);

/* The waypoints the job's line needs (N + 1) into *count, from its chain,
 * q_start, goal and steps (the outputs and scratch are not looked at).
 * Errors as ik_robot_path_run's. */
ik_result ik_robot_path_waypoint_count(const ik_robot_path *job, int *count);

/* Validate, then follow the line. IK_OK when it ran, however far it got
 * (see *fraction and *stop); IK_ERR_NOT_DEFAULTED, IK_ERR_NULL (chain,
 * q_start, q_path, waypoint_count, scratch), IK_ERR_NONFINITE (goal,
 * q_start, steps, tolerances, chain numbers), IK_ERR_RANGE (a step,
 * tolerance or ratio <= 0, a rotation not of unit length, q_start outside
 * its limits, a line of more than IK_ROBOT_PATH_MAX_WAYPOINTS waypoints, a
 * bad chain), IK_ERR_DEGENERATE (a mimic multiplier of 0), IK_ERR_CAPACITY
 * (scratch too small, max_waypoints below the line's count). On an error
 * no output is written. */
ik_result ik_robot_path_run(const ik_robot_path *job);

#ifdef __cplusplus
}
#endif
#endif

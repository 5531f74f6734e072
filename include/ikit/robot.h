/* ikit robot chains: a serial chain of revolute, continuous, prismatic and
 * fixed joints (as a URDF describes a robot arm), and its forward kinematics.
 *
 * A chain is a plain value with fixed arrays (no allocation): joint k moves
 * link k's frame relative to link k-1's (link 0 is the chain's base). At a
 * joint value v, joint k's transform is
 *   T_k(v) = origin_k * motion_k(v)
 *   revolute, continuous: motion = rotation by v about axis_k (radians)
 *   prismatic:            motion = translation by v * axis_k
 *   fixed:                motion = identity
 * and the tip's pose in the base frame is T_1 T_2 ... T_n.
 *
 * Joint values come from the configuration vector q [variable_count]:
 * v_k = multiplier_k * q[variable_k] + offset_k (multiplier 1 and offset 0
 * for an ordinary joint; a URDF mimic joint shares its leader's variable).
 * Fixed joints have variable -1.
 */
#ifndef IKIT_ROBOT_H
#define IKIT_ROBOT_H

#include <ikit/math.h>
#include <ikit/result.h>

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most joints (fixed ones included) a chain holds. */
#define IK_ROBOT_MAX_JOINTS 64

typedef enum ik_robot_joint_type {
    IK_ROBOT_FIXED,
    IK_ROBOT_REVOLUTE,
    IK_ROBOT_CONTINUOUS,
    IK_ROBOT_PRISMATIC
} ik_robot_joint_type;

/* Which of several configurations reaching a goal a solver prefers: the one
 * nearest the seed, or the one farthest from the limits (nearest each
 * limited variable's mid-range, measured in half-ranges). */
typedef enum ik_robot_prefer { IK_ROBOT_PREFER_SEED, IK_ROBOT_PREFER_MID_RANGE } ik_robot_prefer;

typedef struct ik_robot_joint {
    ik_robot_joint_type type;
    ik_transform origin;  /* parent link frame to joint frame at value 0 (unit scale) */
    ik_vec3 axis;         /* unit, in the joint frame */
    ik_real lower, upper; /* limits of the joint value (continuous, fixed: 0, 0) */
    int variable;         /* index into q, or -1 for a fixed joint */
    ik_real multiplier, offset;
} ik_robot_joint;

typedef struct ik_robot_chain {
    int joint_count;    /* 0..IK_ROBOT_MAX_JOINTS */
    int variable_count; /* length of q */
    ik_robot_joint joints[IK_ROBOT_MAX_JOINTS];
} ik_robot_chain;

/* Whether a chain can be used: IK_ERR_NULL without one, IK_ERR_RANGE for a
 * joint or variable count outside 0..IK_ROBOT_MAX_JOINTS or a moving joint
 * whose variable is not one of the chain's, IK_ERR_NONFINITE for an origin
 * or axis holding NaN or infinity; the joint at fault in *bad_joint (-1 for
 * the counts; bad_joint may be NULL). The jobs over chains run it first. */
ik_result ik_robot_chain_check(const ik_robot_chain *chain, int *bad_joint);

/* Forward kinematics at configuration q [variable_count]: *tip_bs is the
 * tip link's frame in the base link's frame (`_bs`: base space); when
 * `links_bs` is not NULL it receives every link's frame [joint_count]
 * (links_bs[k] is the child link of joint k). IK_ERR_NULL, IK_ERR_RANGE
 * (a count or variable index out of range), IK_ERR_NONFINITE (q holds NaN
 * or infinity); outputs are untouched on error. */
ik_result ik_robot_fk(const ik_robot_chain *chain, const ik_real *q, ik_transform *tip_bs, ik_transform *links_bs);
/* ik_robot_fk over many configurations: tip_bs[i] is the tip's frame at
 * q[i * variable_count ...] for i < count. It stops at the first
 * configuration ik_robot_fk refuses and returns that code with the
 * configuration's index in *failed (tip_bs[i] and after untouched); IK_OK
 * with *failed = -1 when every one was done. */
ik_result ik_robot_fk_many(const ik_robot_chain *chain, int count, const ik_real *q, ik_transform *tip_bs, int *failed);

/* The geometric Jacobian of the tip at q: jac [6 * variable_count],
 * column-major as ik_ls takes it (jac[v * 6 + r]); rows 0-2 the tip's
 * linear velocity, rows 3-5 its angular velocity, both in the base frame,
 * per unit of q[v]. A revolute or continuous joint k with base-frame axis
 * a_k through p_k adds m_k (a_k x (p_tip - p_k)) and m_k a_k; a prismatic
 * one adds m_k a_k and 0 (m_k its multiplier; joints sharing a variable
 * add up). Errors as ik_robot_fk; jac is untouched on error. */
ik_result ik_robot_jacobian(const ik_robot_chain *chain, const ik_real *q, ik_real *jac);
/* ik_robot_jacobian, and the tip's frame at q in *tip_bs (as ik_robot_fk
 * gives it), from one forward pass: an iterative solver needs both. */
ik_result ik_robot_jacobian_tip(const ik_robot_chain *chain, const ik_real *q, ik_real *jac, ik_transform *tip_bs);

/* Each variable's limits [variable_count]: joint k holds
 * v_k = m_k q + o_k in [lower_k, upper_k], so q lies in
 * [(lower_k - o_k) / m_k, (upper_k - o_k) / m_k] (ends swapped for m_k < 0),
 * intersected over the joints sharing the variable. A variable moved only
 * by continuous joints has none: limited[v] = 0 and [-pi, pi] (one turn).
 * IK_ERR_NULL, IK_ERR_RANGE (a count or variable index out of range, a
 * joint with lower > upper, limits that leave a variable no value),
 * IK_ERR_NONFINITE (a limit, multiplier or offset), IK_ERR_DEGENERATE (a
 * multiplier of 0); *bad_joint (may be NULL) gets the joint at fault, -1
 * for the counts. Outputs are partly written on error. */
ik_result ik_robot_variable_limits(const ik_robot_chain *chain, ik_real *lower, ik_real *upper, ik_bool *limited,
                                   int *bad_joint);

/* A configuration drawn uniformly within [lower[v], upper[v]] for each of
 * `count` variables (the ranges ik_robot_variable_limits gives), from the
 * seeded generator splitmix64 on *state, which advances: the same state
 * gives the same configuration on every platform. */
void ik_robot_random_configuration(const ik_real *lower, const ik_real *upper, int count, uint64_t *state, ik_real *q);

#ifdef __cplusplus
}
#endif
#endif

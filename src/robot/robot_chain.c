/* ikit robot chains: forward kinematics and the geometric Jacobian of a
 * serial chain (see robot.h). */
#include <ikit/robot.h>

#include <stddef.h>

#include "../math/splitmix.h"

/* Checks the counts and variable indices, and that q is finite. */
static ik_result check_chain(const ik_robot_chain *chain, const ik_real *q) {
    int k;
    if (chain->joint_count < 0 || chain->joint_count > IK_ROBOT_MAX_JOINTS || chain->variable_count < 0)
        return IK_ERR_RANGE;
    for (k = 0; k < chain->joint_count; ++k) {
        int v = chain->joints[k].variable;
        if (chain->joints[k].type != IK_ROBOT_FIXED && (v < 0 || v >= chain->variable_count)) return IK_ERR_RANGE;
    }
    for (k = 0; k < chain->variable_count; ++k)
        if (!ik_finite(q[k])) return IK_ERR_NONFINITE;
    return IK_OK;
}

ik_result ik_robot_chain_check(const ik_robot_chain *chain, int *bad_joint) {
    int k;
    if (bad_joint) *bad_joint = -1;
    if (!chain) return IK_ERR_NULL;
    if (chain->joint_count < 0 || chain->joint_count > IK_ROBOT_MAX_JOINTS || chain->variable_count < 0 ||
        chain->variable_count > IK_ROBOT_MAX_JOINTS)
        return IK_ERR_RANGE;
    for (k = 0; k < chain->joint_count; ++k) {
        const ik_robot_joint *joint = &chain->joints[k];
        if (bad_joint) *bad_joint = k;
        if (joint->type != IK_ROBOT_FIXED && (joint->variable < 0 || joint->variable >= chain->variable_count))
            return IK_ERR_RANGE;
        if (!ik_transform_finite(joint->origin) || !ik_vec3_finite(joint->axis)) return IK_ERR_NONFINITE;
    }
    if (bad_joint) *bad_joint = -1;
    return IK_OK;
}

/* motion(v): a rotation by v about the axis, or a translation by v * axis. */
static ik_transform joint_motion(const ik_robot_joint *joint, ik_real value) {
    ik_transform motion = ik_transform_identity();
    if (joint->type == IK_ROBOT_REVOLUTE || joint->type == IK_ROBOT_CONTINUOUS)
        motion.rotation = ik_quat_from_axis_angle(joint->axis, value);
    else if (joint->type == IK_ROBOT_PRISMATIC)
        motion.translation = ik_vec3_scale(joint->axis, value);
    return motion;
}

/* tip = T_1 ... T_n with T_k = origin_k * motion_k(multiplier_k q[variable_k] + offset_k). */
ik_result ik_robot_fk(const ik_robot_chain *chain, const ik_real *q, ik_transform *tip_bs, ik_transform *links_bs) {
    ik_transform frame = ik_transform_identity();
    ik_result r;
    int k;
    if (!chain || !tip_bs || (!q && chain->variable_count > 0)) return IK_ERR_NULL;
    r = check_chain(chain, q);
    if (r != IK_OK) return r;
    for (k = 0; k < chain->joint_count; ++k) {
        const ik_robot_joint *joint = &chain->joints[k];
        frame = ik_transform_mul(frame, joint->origin);
        if (joint->type != IK_ROBOT_FIXED)
            frame =
                ik_transform_mul(frame, joint_motion(joint, joint->multiplier * q[joint->variable] + joint->offset));
        if (links_bs) links_bs[k] = frame;
    }
    *tip_bs = frame;
    return IK_OK;
}

ik_result ik_robot_fk_many(const ik_robot_chain *chain, int count, const ik_real *q, ik_transform *tip_bs,
                           int *failed) {
    int i;
    if (!failed) return IK_ERR_NULL;
    *failed = -1;
    if (!chain || (count > 0 && (!q || !tip_bs))) return IK_ERR_NULL;
    if (count < 0) return IK_ERR_RANGE;
    for (i = 0; i < count; ++i) {
        ik_result r = ik_robot_fk(chain, q + (size_t)i * (size_t)chain->variable_count, &tip_bs[i], NULL);
        if (r != IK_OK) {
            *failed = i;
            return r;
        }
    }
    return IK_OK;
}

/* Column of variable v: sum over its joints k of m_k [a_k x (p_tip - p_k); a_k]
 * (revolute) or m_k [a_k; 0] (prismatic), with a_k = R_k axis_k in the base
 * frame and p_k joint k's origin (a rotation about the axis moves neither). */
ik_result ik_robot_jacobian_tip(const ik_robot_chain *chain, const ik_real *q, ik_real *jac, ik_transform *tip_bs) {
    ik_transform links_bs[IK_ROBOT_MAX_JOINTS], tip;
    ik_result r;
    int k, i;
    if (!chain || !jac || !tip_bs) return IK_ERR_NULL;
    r = ik_robot_fk(chain, q, &tip, links_bs);
    if (r != IK_OK) return r;
    for (i = 0; i < 6 * chain->variable_count; ++i) jac[i] = 0;
    for (k = 0; k < chain->joint_count; ++k) {
        const ik_robot_joint *joint = &chain->joints[k];
        ik_real *column = jac + 6 * joint->variable;
        ik_vec3 axis, linear, angular = ik_vec3_zero();
        if (joint->type == IK_ROBOT_FIXED) continue;
        axis = ik_vec3_scale(ik_quat_rotate(links_bs[k].rotation, joint->axis), joint->multiplier);
        if (joint->type == IK_ROBOT_PRISMATIC) {
            linear = axis;
        } else {
            linear = ik_vec3_cross(axis, ik_vec3_sub(tip.translation, links_bs[k].translation));
            angular = axis;
        }
        column[0] += linear.x;
        column[1] += linear.y;
        column[2] += linear.z;
        column[3] += angular.x;
        column[4] += angular.y;
        column[5] += angular.z;
    }
    *tip_bs = tip;
    return IK_OK;
}

ik_result ik_robot_jacobian(const ik_robot_chain *chain, const ik_real *q, ik_real *jac) {
    ik_transform tip;
    return ik_robot_jacobian_tip(chain, q, jac, &tip);
}

/* The intersection over each variable's joints of
 * [(lower_k - o_k) / m_k, (upper_k - o_k) / m_k], ends swapped for m_k < 0. */
ik_result ik_robot_variable_limits(const ik_robot_chain *chain, ik_real *lower, ik_real *upper, ik_bool *limited,
                                   int *bad_joint) {
    int k, v, bad = -1;
    ik_result r = IK_OK;
    if (!chain || !lower || !upper || !limited) return IK_ERR_NULL;
    if (chain->joint_count < 0 || chain->joint_count > IK_ROBOT_MAX_JOINTS || chain->variable_count < 0 ||
        chain->variable_count > IK_ROBOT_MAX_JOINTS)
        r = IK_ERR_RANGE;
    for (v = 0; r == IK_OK && v < chain->variable_count; ++v) {
        lower[v] = -IK_PI;
        upper[v] = IK_PI;
        limited[v] = 0;
    }
    for (k = 0; r == IK_OK && k < chain->joint_count; ++k) {
        const ik_robot_joint *joint = &chain->joints[k];
        ik_real m = joint->multiplier, a, b;
        bad = k;
        v = joint->variable;
        if (joint->type == IK_ROBOT_FIXED) continue;
        if (v < 0 || v >= chain->variable_count)
            r = IK_ERR_RANGE;
        else if (!ik_finite(m) || !ik_finite(joint->offset) || !ik_finite(joint->lower) || !ik_finite(joint->upper))
            r = IK_ERR_NONFINITE;
        else if (m == 0)
            r = IK_ERR_DEGENERATE;
        else if (joint->type != IK_ROBOT_CONTINUOUS && joint->lower > joint->upper)
            r = IK_ERR_RANGE;
        if (r != IK_OK || joint->type == IK_ROBOT_CONTINUOUS) continue;
        a = (joint->lower - joint->offset) / m;
        b = (joint->upper - joint->offset) / m;
        lower[v] = limited[v] ? ik_maxr(lower[v], ik_minr(a, b)) : ik_minr(a, b);
        upper[v] = limited[v] ? ik_minr(upper[v], ik_maxr(a, b)) : ik_maxr(a, b);
        limited[v] = 1;
        if (lower[v] > upper[v]) r = IK_ERR_RANGE;
    }
    if (bad_joint) *bad_joint = r == IK_OK ? -1 : bad;
    return r;
}

/* q_v = lower_v + u (upper_v - lower_v), u uniform in [0, 1), computed in
 * double and clamped against rounding past upper_v. */
void ik_robot_random_configuration(const ik_real *lower, const ik_real *upper, int count, uint64_t *state, ik_real *q) {
    int v;
    for (v = 0; v < count; ++v) {
        double u = ik_splitmix_unit(state);
        q[v] = ik_clampr((ik_real)((double)lower[v] + u * ((double)upper[v] - (double)lower[v])), lower[v], upper[v]);
    }
}

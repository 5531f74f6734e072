// The Orocos KDL side of bench_robot_ik: see robot_ik_kdl.h.
#include "robot_ik_kdl.h"

#include <kdl/chain.hpp>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainiksolverpos_nr_jl.hpp>
#include <kdl/chainiksolvervel_pinv.hpp>

struct kdl_arm {
    KDL::Chain chain;
    KDL::JntArray lower, upper;
    KDL::ChainFkSolverPos_recursive *fk;
    KDL::ChainIkSolverVel_pinv *vel;
    KDL::ChainIkSolverPos_NR_JL *ik;
};

static KDL::Frame to_frame(const ik_transform &t) {
    return KDL::Frame(KDL::Rotation::Quaternion(t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w),
                      KDL::Vector(t.translation.x, t.translation.y, t.translation.z));
}

static int shared_variables(const ik_robot_chain *chain) {
    int seen[IK_ROBOT_MAX_JOINTS] = {0};
    for (int k = 0; k < chain->joint_count; ++k) {
        const ik_robot_joint &j = chain->joints[k];
        if (j.type == IK_ROBOT_FIXED) continue;
        if (seen[j.variable]++ || j.multiplier != 1 || j.offset != 0) return 1;
    }
    return 0;
}

extern "C" kdl_arm *kdl_arm_new(const ik_robot_chain *chain, const double *lower, const double *upper, double eps) {
    if (shared_variables(chain)) return nullptr;
    kdl_arm *arm = new kdl_arm;
    // kdl_parser's segment: Joint(origin.p, origin.M * axis), then f_tip = origin, so the
    // segment's pose at q is origin * motion(q), as in ik_robot_fk.
    for (int k = 0; k < chain->joint_count; ++k) {
        const ik_robot_joint &j = chain->joints[k];
        KDL::Frame origin = to_frame(j.origin);
        KDL::Vector axis = origin.M * KDL::Vector(j.axis.x, j.axis.y, j.axis.z);
        KDL::Joint joint(KDL::Joint::None);
        if (j.type == IK_ROBOT_REVOLUTE || j.type == IK_ROBOT_CONTINUOUS)
            joint = KDL::Joint(origin.p, axis, KDL::Joint::RotAxis);
        else if (j.type == IK_ROBOT_PRISMATIC)
            joint = KDL::Joint(origin.p, axis, KDL::Joint::TransAxis);
        arm->chain.addSegment(KDL::Segment(joint, origin));
    }
    unsigned n = arm->chain.getNrOfJoints();
    arm->lower.resize(n);
    arm->upper.resize(n);
    for (unsigned v = 0; v < n; ++v) {
        arm->lower(v) = lower[v];
        arm->upper(v) = upper[v];
    }
    arm->fk = new KDL::ChainFkSolverPos_recursive(arm->chain);
    arm->vel = new KDL::ChainIkSolverVel_pinv(arm->chain);
    arm->ik = new KDL::ChainIkSolverPos_NR_JL(arm->chain, arm->lower, arm->upper, *arm->fk, *arm->vel, 1, eps);
    return arm;
}

extern "C" void kdl_arm_free(kdl_arm *arm) {
    if (!arm) return;
    delete arm->ik;
    delete arm->vel;
    delete arm->fk;
    delete arm;
}

extern "C" void kdl_arm_fk(kdl_arm *arm, const double *q, double position[3], double rotation[4]) {
    KDL::JntArray joints(arm->chain.getNrOfJoints());
    KDL::Frame tip;
    for (unsigned v = 0; v < joints.rows(); ++v) joints(v) = q[v];
    arm->fk->JntToCart(joints, tip);
    for (int i = 0; i < 3; ++i) position[i] = tip.p(i);
    tip.M.GetQuaternion(rotation[0], rotation[1], rotation[2], rotation[3]);
}

extern "C" int kdl_arm_solve(kdl_arm *arm, const double *q_seed, const double position[3], const double rotation[4],
                             double timeout_s, double (*clock)(void), double *q_out) {
    unsigned n = arm->chain.getNrOfJoints();
    KDL::JntArray q(n), result(n);
    KDL::Frame goal(KDL::Rotation::Quaternion(rotation[0], rotation[1], rotation[2], rotation[3]),
                    KDL::Vector(position[0], position[1], position[2]));
    for (unsigned v = 0; v < n; ++v) result(v) = q_seed[v];
    double start = clock();
    int rc;
    do {
        q = result;
        rc = arm->ik->CartToJnt(q, goal, result);
    } while (rc < 0 && clock() - start < timeout_s);
    for (unsigned v = 0; v < n; ++v) q_out[v] = result(v);
    return rc >= 0;
}

/* The Orocos KDL side of bench_robot_ik (robot_ik_kdl.cpp, built only where
 * CMake finds orocos_kdl): an ik_robot_chain as a KDL chain, KDL's forward
 * kinematics, and ChainIkSolverPos_NR_JL run the way TRAC-IK's benchmark
 * runs it. Plain C types, so the C benchmark calls it. */
#ifndef IKIT_BENCH_ROBOT_IK_KDL_H
#define IKIT_BENCH_ROBOT_IK_KDL_H

#include <ikit/robot.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kdl_arm kdl_arm;

/* The chain as KDL segments (one per joint: KDL's joint about the joint
 * origin's axis, then the origin, as kdl_parser builds them), with NR_JL
 * between `lower` and `upper` [variable_count], maxiter 1 and `eps`.
 * NULL when the chain has mimic joints (variables shared by joints). */
kdl_arm *kdl_arm_new(const ik_robot_chain *chain, const double *lower, const double *upper, double eps);
void kdl_arm_free(kdl_arm *arm);

/* KDL's forward kinematics: position xyz and quaternion xyzw of the tip. */
void kdl_arm_fk(kdl_arm *arm, const double *q, double position[3], double rotation[4]);

/* TRAC-IK's KDL loop (trac_ik_examples/src/ik_tests.cpp): from q_seed, call
 * NR_JL (one iteration per call) again from its last result until it
 * reports success or `timeout_s` of `clock` has passed. Returns 1 on success;
 * q_out [variable_count] gets the last result. */
int kdl_arm_solve(kdl_arm *arm, const double *q_seed, const double position[3], const double rotation[4],
                  double timeout_s, double (*clock)(void), double *q_out);

#ifdef __cplusplus
}
#endif
#endif

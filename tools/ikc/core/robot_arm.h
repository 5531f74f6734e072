/* ikc: URDF robot arms for `ikc info` and `ikc solve` -- reading a URDF
 * with ikc's exit codes and messages, and the robot chain between two links. */
#ifndef IKC_ROBOT_ARM_H
#define IKC_ROBOT_ARM_H

#include <ikit/robot.h>
#include <ikit/robot_ik.h>
#include <ikit/urdf.h>

#include <stddef.h>
#include <stdio.h>

/* ikc_arm_arg's answers besides -1 (help shown) and an exit code. */
enum { IKC_ARG_TAKEN = -2, IKC_ARG_VALUE = -3 };

/* The link names and file every URDF command takes. */
typedef struct ikc_arm_args {
    const char *path, *base, *tip;
} ikc_arm_args;

/* One argument argv[*i] of a URDF command (after the command's own flags):
 * help (usage to stdout, -1); the file, --tip LINK or --base LINK into
 * *args (IKC_ARG_TAKEN); another option of valued [valued_count] with its
 * value in *value, *i past it (IKC_ARG_VALUE); else "ikc COMMAND: unknown
 * option 'X'" + unknown_tail and usage to stderr, or a missing value,
 * IKC_EXIT_USAGE. */
int ikc_arm_arg(const char *command, const char *unknown_tail, int argc, char **argv, int *i, const char *const *valued,
                size_t valued_count, void (*usage)(FILE *), ikc_arm_args *args, const char **value);

/* 1 when `path` names a URDF file (extension .urdf). */
int ikc_is_urdf(const char *path);

/* Reads `path`; prints "ikc COMMAND: ..." with the place in the file and
 * returns IKC_EXIT_NO_FILE or IKC_EXIT_FORMAT on failure, IKC_EXIT_OK and
 * *out otherwise (free it with ik_urdf_free). */
int ikc_urdf_load(const char *command, const char *path, ik_urdf **out);

/* A chain base..tip of a URDF: the robot chain, the URDF joint of each chain
 * joint and the URDF joint each variable is the value of. */
typedef struct ikc_arm {
    ik_robot_chain chain;
    int joints[IK_ROBOT_MAX_JOINTS];
    int variable_joints[IK_ROBOT_MAX_JOINTS];
} ikc_arm;

/* base NULL: the root link. Prints the reason (with the closest link names)
 * and returns IKC_EXIT_NOT_FOUND for an unknown link or a tip not below the
 * base, IKC_EXIT_FORMAT for a chain too long. */
int ikc_arm_chain(const char *command, const ik_urdf *urdf, const char *base, const char *tip, ikc_arm *arm);

/* --pose x,y,z[,qx,qy,qz,qw] into pose: the count of numbers (3 or 7), or 0
 * after printing "ikc COMMAND: --pose wants ...". */
int ikc_parse_pose(const char *command, const char *value, ik_real pose[7]);

/* A robot IK job (ik_robot_ik_def) on the arm's chain toward a --pose of
 * pose_count numbers: the position, and the orientation when given (7),
 * else orientation importance 0; from seed into q_out. The scratch, budget
 * and outputs are the caller's to set. */
ik_robot_ik ikc_arm_pose_job(const ikc_arm *arm, const ik_real *pose, int pose_count, const ik_real *seed,
                             ik_real *q_out);

/* `ikc info ROBOT.urdf` (robot_info.c), `ikc solve ROBOT.urdf ...`
 * (robot_solve.c) and `ikc render ROBOT.urdf ...` (robot_render.c); argv as
 * ikc_solve and ikc_render get it. */
int ikc_robot_info(const char *path);
int ikc_robot_solve(int argc, char **argv);
int ikc_robot_render(int argc, char **argv);

#endif

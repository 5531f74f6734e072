/* ikit io: chain description files, a small text format for jointed chains
 * and trees (tails, tentacles, robot arms): bone lengths and directions,
 * joint types and axes, limits, stiffness, comfort ranges and targets. It
 * follows the idea of seed 002's tail.cfg (a file that says what shape the
 * tail is, "fiddle with it to make different objects"). The format is
 * documented in docs/chain-format.md.
 *
 * Limits and comfort ranges are kept as plain numbers in degrees, exactly as
 * written; chain_file_solve.h turns them into constraints, Jacobian joints
 * and springs.
 */
#ifndef IKIT_CHAIN_FILE_H
#define IKIT_CHAIN_FILE_H

#include <stddef.h>

#include <ikit/error.h>
#include <ikit/io_file.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/skeleton.h>

#ifdef __cplusplus
extern "C" {
#endif

/* More joints or targets than this is refused (IK_ERR_RANGE). */
#define IK_CHAIN_MAX_JOINTS 4096
#define IK_CHAIN_MAX_TARGETS 4096
/* Longest name (chain, joint or target), in bytes. */
#define IK_CHAIN_MAX_NAME 63

typedef enum ik_chain_joint_type {
    IK_CHAIN_BALL,  /* swing within a cone about `axis`, twist about `axis` */
    IK_CHAIN_HINGE, /* one angle about `axis` */
    IK_CHAIN_FIXED  /* no rotation */
} ik_chain_joint_type;

typedef struct ik_chain_joint {
    char name[IK_CHAIN_MAX_NAME + 1];
    int parent; /* index of an earlier joint, or -1 */
    ik_chain_joint_type type;
    ik_real length;        /* distance from the parent joint, >= 0 */
    ik_vec3 direction_ls;  /* unit; the bone from the parent, in the parent's frame */
    ik_vec3 axis_ls;       /* unit; hinge axis, or ball twist axis, in this joint's frame */
    ik_real limit_min_deg; /* hinge angle range; ball: twist range */
    ik_real limit_max_deg;
    ik_real cone_deg;        /* ball: largest swing away from the rest pose, 0..180 */
    ik_real stiffness;       /* 0 (free) .. 1 (rigid): seed 002's springiness */
    ik_real comfort_min_deg; /* hinge angle (ball: twist) range without spring force, inside the limits */
    ik_real comfort_max_deg;
    ik_real comfort_cone_deg; /* ball: swing without spring force, 0..cone_deg */
    long line;                /* where the joint was declared */
} ik_chain_joint;

typedef struct ik_chain_target {
    char name[IK_CHAIN_MAX_NAME + 1];
    int joint;           /* the end effector */
    ik_vec3 position_ms; /* where it should reach, model space */
    ik_real importance;  /* > 0: the effector's pull against the others (the file's `weight`) */
    long line;
} ik_chain_target;

typedef struct ik_chain_file {
    char name[IK_CHAIN_MAX_NAME + 1];
    int joint_count;
    ik_chain_joint *joints; /* [joint_count], parents-first */
    int target_count;
    ik_chain_target *targets; /* [target_count] */

    /* The skeleton view (owned): rest translation = direction_ls * length,
     * identity rotation, unit scale. */
    const char **names;    /* [joint_count] */
    int *parents;          /* [joint_count] */
    ik_transform *rest_ls; /* [joint_count] */
    ik_skeleton skeleton;
} ik_chain_file;

/* Parse chain-file text held in memory (need not be NUL-terminated). On
 * success *out is released with ik_chain_file_free; on failure *out is NULL
 * and error (may be NULL) names the line and column. Codes: IK_ERR_PARSE
 * (syntax, wrong magic, truncation), IK_ERR_NONFINITE, IK_ERR_RANGE (values
 * or counts out of range), IK_ERR_NOT_FOUND (unknown parent or joint name),
 * IK_ERR_HIERARCHY (duplicate joint name), IK_ERR_DEGENERATE (zero-length
 * direction or axis), IK_ERR_IO, IK_ERR_NO_MEMORY, IK_ERR_NULL. */
ik_result ik_chain_file_read_memory(const char *data, size_t size, ik_chain_file **out, ik_error *error);
/* Regular files of at most IK_IO_MAX_FILE_BYTES only (io_file.h). */
ik_result ik_chain_file_read_file(const char *path, ik_chain_file **out, ik_error *error);
void ik_chain_file_free(ik_chain_file *chain);

/* The rest pose, `pose_ls` [joint_count]. */
void ik_chain_file_rest_pose(const ik_chain_file *chain, ik_transform *pose_ls);

/* Index of the joint or target called `name`, or -1. */
int ik_chain_file_find_joint(const ik_chain_file *chain, const char *name);
int ik_chain_file_find_target(const ik_chain_file *chain, const char *name);

#ifdef __cplusplus
}
#endif
#endif

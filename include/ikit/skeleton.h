/* ikit skeletons: hierarchy, rest pose, forward kinematics, chains.
 *
 * A skeleton does not own memory: it points at the caller's arrays of parent
 * indices, names and rest local transforms, which must outlive it. Joints are
 * stored parents-first (parent[i] < i, -1 for a root), so forward kinematics
 * is a single forward loop.
 *
 * A pose is an array of `joint_count` local (parent-space, `_ls`) transforms;
 * forward kinematics turns it into model-space (`_ms`) matrices.
 */
#ifndef IKIT_SKELETON_H
#define IKIT_SKELETON_H

#include <ikit/math.h>
#include <ikit/result.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ik_skeleton {
    int joint_count;
    const int *parents;          /* [joint_count]; parent index or -1 */
    const char *const *names;    /* [joint_count]; may be NULL, entries may be NULL */
    const ik_transform *rest_ls; /* [joint_count]; rest (bind) pose, local space */
} ik_skeleton;

/* Where validation failed, for a clear message. */
typedef struct ik_skeleton_error {
    int joint;       /* the offending joint, or -1 */
    char message[160];
} ik_skeleton_error;

/* Fill `skeleton` after checking that every parent index is -1 or smaller than
 * the joint's own (which also rules out cycles), that rest transforms are
 * finite with unit-length rotations, and that names, where given, are unique.
 * `error` may be NULL. The core layer never allocates, so without scratch
 * the name check compares every pair: O(n^2) strcmp calls, a millisecond
 * for 500 named joints but most of a minute for 100,000. */
ik_result ik_skeleton_init(ik_skeleton *skeleton, int joint_count, const int *parents,
                           const char *const *names, const ik_transform *rest_ls,
                           ik_skeleton_error *error);
/* The same checks with `scratch` [2 * joint_count] ints of caller memory
 * (NULL: as ik_skeleton_init): the named joints go into a hash table there
 * (open addressing, at most half full), expected O(n); names crafted to
 * collide (the hash has no secret seed) use up a budget of probes, after
 * which they are heap-sorted there by (hash, name) instead, O(n log n) with
 * no recursion. The error names the same joint as ik_skeleton_init (the
 * smallest index whose name an earlier joint has). The file readers pass
 * scratch, so 100,000 joints validate in about 2 ms. `scratch` is not
 * kept. */
ik_result ik_skeleton_init_scratch(ik_skeleton *skeleton, int joint_count, const int *parents,
                                   const char *const *names, const ik_transform *rest_ls, int *scratch,
                                   ik_skeleton_error *error);

/* Index of the joint called `name`, or -1. */
int ik_skeleton_find(const ik_skeleton *skeleton, const char *name);
/* Name of a joint ("" when unnamed or out of range). */
const char *ik_skeleton_name(const ik_skeleton *skeleton, int joint);
/* 1 when `joint` is `ancestor` or lies below it. */
ik_bool ik_skeleton_is_descendant(const ik_skeleton *skeleton, int joint, int ancestor);

/* Copy the rest pose into `pose_ls` [joint_count]. */
void ik_skeleton_rest_pose(const ik_skeleton *skeleton, ik_transform *pose_ls);

/* Forward kinematics: model_ms[i] = model_ms[parent] * local(pose_ls[i]),
 * with `root_ms` (NULL for the identity) above every root. */
void ik_skeleton_fk(const ik_skeleton *skeleton, const ik_transform *pose_ls,
                    const ik_mat4 *root_ms, ik_mat4 *model_ms);
/* Forward kinematics of one joint: model_ms[joint] from its parent's
 * model_ms (which must be current) and pose_ls[joint]. */
void ik_skeleton_fk_joint(const ik_skeleton *skeleton, int joint, const ik_transform *pose_ls,
                          const ik_mat4 *root_ms, ik_mat4 *model_ms);
/* Forward kinematics for `joint` and everything below it only; model_ms of
 * `joint`'s ancestors must already be current. */
void ik_skeleton_fk_subtree(const ik_skeleton *skeleton, int joint, const ik_transform *pose_ls,
                            const ik_mat4 *root_ms, ik_mat4 *model_ms);
/* Model to local: pose_ls[i] = decompose(model_ms[parent]^-1 model_ms[i]).
 * Returns IK_ERR_DEGENERATE when a parent matrix is singular (that joint's
 * local transform is then its model transform). */
ik_result ik_skeleton_model_to_local(const ik_skeleton *skeleton, const ik_mat4 *model_ms,
                                     const ik_mat4 *root_ms, ik_transform *pose_ls);

/* Walk `count` joints up from `end_joint` (seed 004's IK chain): writes the
 * chain root-first into `chain` [count], ending with `end_joint`. Returns
 * IK_ERR_RANGE when the hierarchy above `end_joint` is shorter than `count`. */
ik_result ik_skeleton_chain(const ik_skeleton *skeleton, int end_joint, int count, int *chain);
/* Number of joints from a root down to `joint`, inclusive (its depth + 1). */
int ik_skeleton_depth(const ik_skeleton *skeleton, int joint);

#ifdef __cplusplus
}
#endif
#endif

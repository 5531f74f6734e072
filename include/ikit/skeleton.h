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

#include <ikit/error.h>
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

/* Fill `skeleton` after checking that every parent index is -1 or smaller than
 * the joint's own (which also rules out cycles), that rest transforms are
 * finite with unit-length rotations, and that names, where given, are unique.
 * `error` may be NULL; on failure its index is the offending joint (-1 for
 * the arguments as a whole) and its message "joint J: what is wrong". The
 * core layer never allocates, so without scratch the name check compares
 * every pair: O(n^2) strcmp calls, a millisecond for 500 named joints but
 * most of a minute for 100,000. */
ik_result ik_skeleton_init(ik_skeleton *skeleton, int joint_count, const int *parents, const char *const *names,
                           const ik_transform *rest_ls, ik_error *error);
/* The same checks with `scratch` [2 * joint_count] ints of caller memory
 * (NULL: as ik_skeleton_init): the named joints go into a hash table there
 * (open addressing, at most half full), expected O(n); names crafted to
 * collide (the hash has no secret seed) use up a budget of probes, after
 * which they are heap-sorted there by (hash, name) instead, O(n log n) with
 * no recursion. The error names the same joint as ik_skeleton_init (the
 * smallest index whose name an earlier joint has). The file readers pass
 * scratch, so 100,000 joints validate in about 2 ms. `scratch` is not
 * kept. */
ik_result ik_skeleton_init_scratch(ik_skeleton *skeleton, int joint_count, const int *parents, const char *const *names,
                                   const ik_transform *rest_ls, int *scratch, ik_error *error);

/* Index of the joint called `name`, or -1. */
int ik_skeleton_find(const ik_skeleton *skeleton, const char *name);
/* Name of a joint ("" when unnamed or out of range). */
const char *ik_skeleton_name(const ik_skeleton *skeleton, int joint);
/* 1 when `joint` is `ancestor` or lies below it (a walk up its parents:
 * O(depth); ik_subtree_scan answers for every joint in turn in O(1)). */
ik_bool ik_skeleton_is_descendant(const ik_skeleton *skeleton, int joint, int ancestor);

/* How many joints `joint` lies below `ancestor` (1 for a child) when that
 * is 1 to `max_levels`, else 0; *child (when not NULL) is then ancestor's
 * child on the way. A walk up of at most max_levels parents: a bounded
 * look below a joint (a foot's toes, a face) on rigs of any depth. */
int ik_skeleton_levels_below(const ik_skeleton *skeleton, int joint, int ancestor, int max_levels, int *child);

/* Which joints lie in the subtree of `top`, asked for the joints after it
 * in increasing order (any may be skipped): parents come first, so joint
 * k is in when its parent is top or in. A ring of the last
 * IK_SUBTREE_WINDOW answers lives in the struct (no allocation); a parent
 * further back is found by a walk up. A subtree over all n joints costs
 * O(n) however deep it is. */
#define IK_SUBTREE_WINDOW 4096
typedef struct ik_subtree_scan {
    int top, next; /* the next joint whose answer the ring holds the parent's for */
    unsigned char ring[IK_SUBTREE_WINDOW / 8];
} ik_subtree_scan;
void ik_subtree_scan_begin(ik_subtree_scan *scan, int top);
/* 1 when `joint` is `top` or below it; joints asked for must increase. */
ik_bool ik_subtree_scan_has(ik_subtree_scan *scan, const ik_skeleton *skeleton, int joint);

/* Copy the rest pose into `pose_ls` [joint_count]. */
void ik_skeleton_rest_pose(const ik_skeleton *skeleton, ik_transform *pose_ls);

/* Forward kinematics: model_ms[i] = model_ms[parent] * local(pose_ls[i]),
 * with `root_ms` (NULL for the identity) above every root. */
void ik_skeleton_fk(const ik_skeleton *skeleton, const ik_transform *pose_ls, const ik_mat4 *root_ms,
                    ik_mat4 *model_ms);
/* Forward kinematics of one joint: model_ms[joint] from its parent's
 * model_ms (which must be current) and pose_ls[joint]. */
void ik_skeleton_fk_joint(const ik_skeleton *skeleton, int joint, const ik_transform *pose_ls, const ik_mat4 *root_ms,
                          ik_mat4 *model_ms);
/* The rest model matrix of one joint, with the identity above its root:
 * rest_ls of its root times ... times rest_ls[joint] (no buffer needed). */
ik_mat4 ik_skeleton_rest_model(const ik_skeleton *skeleton, int joint);
/* Forward kinematics for `joint` and everything below it only; model_ms of
 * `joint`'s ancestors must already be current. */
void ik_skeleton_fk_subtree(const ik_skeleton *skeleton, int joint, const ik_transform *pose_ls, const ik_mat4 *root_ms,
                            ik_mat4 *model_ms);
/* Model rotations under mirrored frames (the turn in
 * src/skeleton/model_rotation.c, the rest inline below).
 * A model matrix M reads as the rotation W = ik_mat4_rotation(M), and its
 * orthonormal frame is F = W for a proper M, F = W D, D = diag(-1, 1, 1),
 * for a mirrored one (det < 0: ik_mat4_rotation negates the x column).
 * Conjugation by D, D (v, w) D = ((v.x, -v.y, -v.z), w), turns a rotation's
 * axis the mirror's way and its sense round. Parents are taken uniformly
 * scaled (P = s F, s > 0); a joint's own scale may be anything nonzero.
 *
 * Turn `joint` about its own origin by the model-space rotation `turn_ms`,
 * M' = turn_ms M, writing only pose_ls[joint].rotation: with the parent's
 * matrix P (root_ms, or the identity when NULL, for a root) the local
 * rotation L becomes F^-1 turn_ms F L. Translation and scale are kept, so
 * the joint's origin stays and its subtree is carried rigidly. model_ms of
 * the parent must be current; the caller refreshes the joint and its
 * subtree (ik_skeleton_fk_subtree) when it needs them. */
void ik_skeleton_turn_joint_ms(const ik_skeleton *skeleton, int joint, ik_quat turn_ms, const ik_mat4 *root_ms,
                               ik_transform *pose_ls, const ik_mat4 *model_ms);
/* D q D: the rotation q seen through the mirror D = diag(-1, 1, 1). */
static inline ik_quat ik_skeleton_mirrored_turn(ik_quat q) { return ik_q(q.x, -q.y, -q.z, q.w); }
/* The proper part E of a local scale's signs, diag(sgn S) = E D^o (o = 1
 * when an odd number are negative: the signs with x's flipped then leave
 * none or two negative): I, returning 0, or the half turn about the axis
 * left positive (quaternion: that axis's component 1), returning 1. */
static inline ik_bool ik_skeleton_scale_sign_turn(ik_vec3 scale, ik_quat *e) {
    ik_bool nx = scale.x < 0, ny = scale.y < 0, nz = scale.z < 0;
    if ((nx + ny + nz) & 1) nx = !nx;
    if (!nx && !ny && !nz) return 0;
    *e = ik_q((ik_real)!nx, (ik_real)!ny, (ik_real)!nz, 0);
    return 1;
}
/* The model rotation a joint reads as (ik_mat4_rotation of P L) from its
 * parent's reading `parent_ms`, whether the parent mirrors (e = 1), and its
 * local rotation L and scale S: P L = s W_p D^e L E D^o |S|, whose
 * determinant has the sign (-1)^(e + o), reads as the rotation of
 * P L D^(e + o), W = W_p D^e L E D^e. */
static inline ik_quat ik_skeleton_rotation_ms(ik_quat parent_ms, ik_bool parent_mirrored, ik_quat rotation_ls,
                                              ik_vec3 scale_ls) {
    ik_quat e, local = rotation_ls;
    if (ik_skeleton_scale_sign_turn(scale_ls, &e)) local = ik_quat_mul(local, e);
    if (parent_mirrored) local = ik_skeleton_mirrored_turn(local);
    return ik_quat_mul(parent_ms, local);
}
/* Its inverse: the local rotation that makes a joint of local scale
 * `scale_ls` read as `rotation_ms`, L = D^e W_p^-1 W D^e E^-1 (E^-1 = E, a
 * half turn, up to the quaternion's sign). */
static inline ik_quat ik_skeleton_rotation_ls(ik_quat parent_ms, ik_bool parent_mirrored, ik_quat rotation_ms,
                                              ik_vec3 scale_ls) {
    ik_quat e, local = ik_quat_mul(ik_quat_conjugate(parent_ms), rotation_ms);
    if (parent_mirrored) local = ik_skeleton_mirrored_turn(local);
    if (ik_skeleton_scale_sign_turn(scale_ls, &e)) local = ik_quat_mul(local, e);
    return local;
}
/* Model to local: pose_ls[i] = decompose(model_ms[parent]^-1 model_ms[i]).
 * Returns IK_ERR_DEGENERATE when a parent matrix is singular (that joint's
 * local transform is then its model transform). */
ik_result ik_skeleton_model_to_local(const ik_skeleton *skeleton, const ik_mat4 *model_ms, const ik_mat4 *root_ms,
                                     ik_transform *pose_ls);

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

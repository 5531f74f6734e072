/* ikit private: the working links of the iterative chain solvers (CCD,
 * FABRIK), kept out of the public headers; callers see only the scratch
 * bytes (chain_base.h, ik_ccd_scratch_size, ik_fabrik_scratch_size).
 *
 * The solved joints list is described in chain_base.h. Joints of the
 * skeleton between a joint and its link parent are not moved: their local
 * transforms enter as a fixed rotation (`between_ls`).
 *
 * `ik_chain_gather` fills one `ik_chain_link` per listed joint from a pose:
 * model-space frames by TRS composition (exact for uniform scales, like
 * ik_transform_mul), offsets and lengths. The solvers then work on the links
 * and write back only the local rotations of the listed joints.
 */
#ifndef IKIT_SOLVE_CHAIN_LINKS_H
#define IKIT_SOLVE_CHAIN_LINKS_H

#include <ikit/chain_base.h>
#include "field_error.h"
#include <ikit/constraint.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/skeleton.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ik_chain_link {
    ik_transform model_ms; /* the joint's frame in model space */
    ik_quat rotation_ls;   /* the joint's local rotation (what solvers change) */
    ik_quat between_ls;    /* link parent's frame -> this joint's parent frame; for the
                            * first link: model space -> its parent frame */
    ik_vec3 offset_ls;     /* link parent's origin -> this origin, in the link parent's frame */
    ik_real length;        /* |offset_ls| (model units) */
    int parent;            /* link parent's position in the list, -1 for the first */
    int first_child;       /* first link whose link parent this is, -1 for none */
    int next_sibling;      /* next link with the same link parent, -1 at the end */
    /* solver working space */
    ik_vec3 work_ms;
    ik_vec3 target_ms;
    ik_real work_weight;
    ik_real branch_weight;
    int flags;
} ik_chain_link;

/* The public bound on a link's size (chain_base.h) holds. */
typedef char
    ik_chain_link_fits_scratch_bound[sizeof(ik_chain_link) <= IK_CHAIN_SCRATCH_REALS_PER_JOINT * sizeof(ik_real) ? 1
                                                                                                                 : -1];

/* IK_ERR_NULL, IK_ERR_RANGE (count < 1, index outside the skeleton, list not
 * strictly ascending) or IK_ERR_HIERARCHY (a joint not below the first one).
 * With `require_chain`, each joint must descend from the one before it.
 * The bad field (of a job's base, or "joints") is named in `*error`. */
ik_result ik_chain_validate(const ik_skeleton *skeleton, const int *joints, int count, ik_bool require_chain,
                            ik_error *error);

/* The bytes of working links for `joint_count` listed joints (0 for none):
 * ik_ccd_scratch_size and ik_fabrik_scratch_size. */
static inline size_t ik_chain_scratch_bytes(int joint_count) {
    return joint_count > 0 ? (size_t)joint_count * sizeof(ik_chain_link) : 0;
}

/* The base checks CCD and FABRIK share, in this order: base.pose_ls and
 * base.scratch given (IK_ERR_NULL), the joints list (ik_chain_validate),
 * then base.scratch_bytes at least ik_chain_scratch_bytes (IK_ERR_CAPACITY);
 * the bad field is named in base->error_field. */
ik_result ik_chain_validate_base(const ik_chain_base *base, const int *joints, ik_bool require_chain);

/* The rest of what the chain solvers read, for a list that passed
 * ik_chain_validate: the first error of ik_constraint_validate over
 * `constraints` [count] (may be NULL), then IK_ERR_NONFINITE for a
 * non-finite `root_ms` (may be NULL) or a non-finite local transform in
 * `pose_ls` of a listed joint, a joint between a listed joint and its link
 * parent, or a joint above the first (all that ik_chain_gather reads). */
ik_result ik_chain_validate_inputs(const ik_skeleton *skeleton, const int *joints, int count,
                                   const ik_constraint *constraints, const ik_mat4 *root_ms,
                                   const ik_transform *pose_ls, ik_error *error);

/* Fill `links` [count] from `pose_ls` [skeleton->joint_count]; `root_ms`
 * (NULL for the identity) sits above every skeleton root, as in
 * ik_skeleton_fk. The list must pass ik_chain_validate. */
void ik_chain_gather(const ik_skeleton *skeleton, const int *joints, int count, const ik_transform *pose_ls,
                     const ik_mat4 *root_ms, ik_chain_link *links);

/* Rotation of the frame link k's local rotation is expressed in:
 * links[parent].model_ms.rotation * between_ls (between_ls alone for the first). */
static inline ik_quat ik_chain_parent_rotation_ms(const ik_chain_link *links, int k) {
    const ik_chain_link *l = &links[k];
    return l->parent < 0 ? l->between_ls : ik_quat_mul(links[l->parent].model_ms.rotation, l->between_ls);
}

/* Forward kinematics over the links after their local rotations changed:
 * Q_k = Q_parent between_k R_k, p_k = p_parent + Q_parent offset_k. */
void ik_chain_update(ik_chain_link *links, int count);

/* 1 when `constraints` [count] (may be NULL) sets a limit on some link. */
ik_bool ik_chain_any_limit(const ik_constraint *constraints, int count);

/* A fresh start for a solver stuck short of a reachable target by its
 * limits (a local minimum): every constrained link's local rotation becomes
 * ik_constraint_sample at pseudo-random numbers drawn from `*seed`
 * (splitmix64, so solves are repeatable), other links keep theirs; then
 * ik_chain_update. */
void ik_chain_restart(ik_chain_link *links, int count, const ik_constraint *constraints, uint64_t *seed);

/* Copy the links' local rotations into pose_ls. */
void ik_chain_scatter(const int *joints, int count, const ik_chain_link *links, ik_transform *pose_ls);

#endif

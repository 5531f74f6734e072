/* ikit: the fields every chain solver job (CCD, FABRIK, Jacobian) shares.
 *
 * Each job embeds one ik_chain_base as its first member, `base`, filled by
 * the job's _def() (every pointer NULL, `defaulted` set to
 * IK_JOB_DEFAULTED) and then pointed at the caller's data:
 *   job.base.skeleton = &skeleton;
 *   job.base.pose_ls = pose;                       (in/out)
 *   job.base.scratch = buffer;                     (caller memory, no allocation)
 *   job.base.scratch_bytes = ik_ccd_scratch_size(n);
 * CCD and FABRIK's joints list: skeleton joint indices in ascending order
 * (parents first). The first is the root of the solved set; every other
 * joint must descend from an earlier one, and its "link parent" is its
 * nearest ancestor in the list (joints of the skeleton in between are not
 * moved). A chain root-first (seed 004's IK chain, as made by
 * ik_skeleton_chain) is the simple case; CCD needs one.
 *
 * The solved joints list itself (`joints`, base.listed_joint_count entries) stays in
 * each job, because its entries differ: skeleton indices for CCD and FABRIK,
 * joints with turning axes for the Jacobian solvers.
 */
#ifndef IKIT_CHAIN_BASE_H
#define IKIT_CHAIN_BASE_H

#include <stddef.h>

#include <ikit/constraint.h>
#include <ikit/error.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/skeleton.h>

#ifdef __cplusplus
extern "C" {
#endif

/* At most this many ik_real of CCD or FABRIK scratch per listed joint, for
 * buffers sized at compile time (ik_real buf[N * IK_CHAIN_SCRATCH_REALS_PER_JOINT]);
 * ik_ccd_scratch_size and ik_fabrik_scratch_size give the exact bytes. */
#define IK_CHAIN_SCRATCH_REALS_PER_JOINT 34

typedef struct ik_chain_base {
    unsigned long defaulted; /* IK_JOB_DEFAULTED, set by the _def(); do not touch */
    const ik_skeleton *skeleton;
    int listed_joint_count;           /* entries of the job's `joints` list, >= 1 */
    const ik_constraint *constraints; /* [listed_joint_count] (one per listed joint) or NULL */
    const ik_mat4 *root_ms;           /* above the skeleton roots; NULL: identity */
    ik_transform *pose_ls;            /* [skeleton->joint_count], in/out; only listed joints' rotations change */
    void *scratch;                    /* ik_X_scratch_size(...) bytes, aligned for ik_real */
    size_t scratch_bytes;
    /* NULL, or where _run says which field made it fail: cleared on IK_OK,
     * else its path is the field's name as written in the job
     * ("base.scratch_bytes", "joints", "targets_ms", "base.pose_ls",
     * "tolerance") and its index the entry of an array field (for
     * base.pose_ls a skeleton joint), -1 for the field as a whole. */
    ik_error *error_field;
} ik_chain_base;

#ifdef __cplusplus
}
#endif
#endif

/* ikit chain solve: one chain of a skeleton toward one target with a solver
 * chosen at run time (CCD, FABRIK or one of the Jacobian methods), the job
 * behind `ikc solve --solver`, the playground's tail and limb menus and the
 * demo's scenes.
 *
 * The chain is listed once, root-first, as CCD and FABRIK take it
 * (chain_base.h); its last joint is the effector. CCD and FABRIK solve the
 * listed joints with base.constraints (one per listed joint). The Jacobian
 * methods turn `turning` (a chain file's hinges, a limb's ball and hinge,
 * with turning_constraints and springs), or when it is NULL every listed
 * joint but the effector as a ball joint about x, y and z, with
 * base.constraints' entries for those joints.
 *
 *   ik_chain_solve job = ik_chain_solve_def();
 *   job.method = IK_CHAIN_FABRIK;
 *   job.base.skeleton = &skeleton;
 *   job.base.pose_ls = pose;                 (in/out)
 *   job.joints = chain;                      (root-first, the effector last)
 *   job.base.listed_joint_count = 3;
 *   job.target_ms = target;
 *   job.base.scratch_bytes = ik_chain_solve_scratch_size(&job);
 *   job.base.scratch = buffer;               (that many bytes, caller memory)
 *   r = ik_chain_solve_run(&job);
 */
#ifndef IKIT_CHAIN_SOLVE_H
#define IKIT_CHAIN_SOLVE_H

#include <stddef.h>

#include <ikit/chain_base.h>
#include <ikit/jacobian.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/spring.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ik_chain_method {
    IK_CHAIN_CCD,       /* ik_ccd */
    IK_CHAIN_FABRIK,    /* ik_fabrik */
    IK_CHAIN_DLS,       /* ik_jacobian, IK_JACOBIAN_DLS */
    IK_CHAIN_SDLS,      /* ik_jacobian, IK_JACOBIAN_SDLS */
    IK_CHAIN_TRANSPOSE, /* ik_jacobian, IK_JACOBIAN_TRANSPOSE */
    IK_CHAIN_GRADIENT,  /* ik_jacobian, IK_JACOBIAN_GRADIENT */
    IK_CHAIN_METHOD_COUNT
} ik_chain_method;

typedef struct ik_chain_solve {
    /* skeleton, pose_ls, root_ms, scratch (ik_chain_solve_scratch_size
     * bytes), error_field; listed_joint_count: entries of `joints`;
     * constraints: one per entry of `joints`, or NULL. */
    ik_chain_base base;
    /* Inputs. */
    ik_chain_method method; /* default IK_CHAIN_FABRIK */
    const int *joints;      /* [base.listed_joint_count] root-first; the last is the effector */
    ik_vec3 target_ms;      /* where the effector should go, in the space of root_ms */
    /* The Jacobian methods only. */
    const ik_jacobian_joint *turning;         /* [turning_count], or NULL: the listed joints but the last, as balls */
    int turning_count;                        /* >= 1 when turning is given */
    const ik_constraint *turning_constraints; /* [turning_count] or NULL */
    const ik_spring *springs;                 /* one per axis of `turning`, or NULL (jacobian.h) */
    ik_real gravity;                          /* seed 002's pull toward low poses (jacobian.h); default 0 */
    /* Options. */
    ik_real tolerance;  /* effector distance to stop at, model units; default 1e-3 */
    int max_iterations; /* 0 (default): the method's own default (CCD and FABRIK 1000, Jacobian 100) */
    /* Outputs (may be NULL). */
    int *iterations;
    ik_real *error; /* effector distance to the target at the end */
} ik_chain_solve;

/* A job with the defaults above and every pointer NULL. */
ik_chain_solve ik_chain_solve_def(void);

/* Bytes of scratch the job needs, from its method, base.skeleton,
 * base.listed_joint_count and `turning` (filled before asking); 0 when those
 * cannot be solved (no skeleton, a count below 1, an unknown method). */
size_t ik_chain_solve_scratch_size(const ik_chain_solve *job);

/* Validates (IK_ERR_NULL, IK_ERR_NOT_DEFAULTED, IK_ERR_RANGE for the method,
 * counts and iterations, IK_ERR_NONFINITE for target_ms, gravity or
 * tolerance, IK_ERR_CAPACITY for scratch), then runs the method's job and
 * returns its result; base.error_field names the bad field as written in
 * this job ("target_ms", "turning", "base.pose_ls", ...). On an error the
 * pose is untouched. */
ik_result ik_chain_solve_run(const ik_chain_solve *job);

#ifdef __cplusplus
}
#endif
#endif

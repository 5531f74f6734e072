/* ikit collision-free pose IK: joint values that put a robot chain's tip at
 * a goal pose (as ik_robot_ik does, to its tolerances and inside the
 * limits) and keep every link of a collision model (robot_collision.h) at
 * least `margin` from the obstacles and from the other links of its tested
 * pairs.
 *
 * Candidates, in order, each checked by ik_robot_collision_free:
 *   1. the pose IK job as given (its seed, then its closed-form starts, as
 *      ik_robot_ik_run orders them);
 *   2. where the chain has a closed form (ik_robot_analytic_prepare), every
 *      other closed-form solution inside the limits (up to 8 branches:
 *      shoulder, elbow, wrist), each polished by the pose IK from it;
 *   3. seeded random restarts: the pose IK from a configuration drawn
 *      uniformly inside the limits (what MoveIt does with TRAC-IK or KDL:
 *      re-solve until a free solution appears), until `max_candidates`
 *      solves or the time budget. On a 6R arm with a closed form every
 *      branch was tried in 2, so restarts run only when no branch fits the
 *      limits.
 * The first reached candidate that is free is returned. When none is, the
 * reached candidate with the largest clearance is returned with free = 0,
 * and `report` names its contact pairs ("no collision-free solution found").
 *
 * Nothing allocates: the pose IK's scratch (job.ik.scratch) is used for each
 * solve. */
#ifndef IKIT_ROBOT_FREE_IK_H
#define IKIT_ROBOT_FREE_IK_H

#include <ikit/robot_collision.h>
#include <ikit/robot_ik.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ik_robot_free_ik {
    unsigned long defaulted; /* IK_JOB_DEFAULTED, set by ik_robot_free_ik_def(); do not touch */

    /* Inputs. */
    ik_robot_ik ik; /* the pose IK job (from ik_robot_ik_def()): chain, goal, seed, options, scratch; its
                       outputs other than q_out are ignored, and q_out is not written */
    const ik_robot_collision_model *model; /* the chain's collision model, pruned */
    const ik_obstacle *obstacles;          /* [obstacle_count], base frame */
    int obstacle_count;

    /* Options. */
    ik_real margin;         /* >= 0: the least distance kept; default 0.01 m */
    int max_candidates;     /* pose IK solves at most, >= 1; default 64 */
    int restart_iterations; /* the iteration budget of each restart's solve, >= 1; default 200 */

    /* Outputs (q_out required, the rest may be NULL). */
    ik_real *q_out;                    /* [variable_count]: the solution (or the closest candidate) */
    ik_bool *reached;                  /* the pose is reached within tolerance */
    ik_bool *free;                     /* and every tested pair keeps the margin */
    int *candidates;                   /* pose IK solves made */
    ik_robot_collision_report *report; /* the check of q_out (contacts when not free) */
    ik_error *error_field;             /* as ik_robot_ik's */
} ik_robot_free_ik;

ik_robot_free_ik ik_robot_free_ik_def(void);

/* IK_OK when it ran (free or not: see *free); the errors of ik_robot_ik_run
 * and ik_robot_collision_check, IK_ERR_NOT_DEFAULTED, IK_ERR_NULL (model,
 * q_out), IK_ERR_RANGE (margin < 0, max_candidates or restart_iterations
 * < 1). On an error no output is written. */
ik_result ik_robot_free_ik_run(const ik_robot_free_ik *job);

#ifdef __cplusplus
}
#endif
#endif

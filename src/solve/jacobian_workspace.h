/* Library-private: the working state of ik_jacobian_run, shared by the job
 * loop (jacobian.c) and the secondary objectives and limit clamping
 * (jacobian_limits.c). The linear algebra of a step is ls_step.h's. */
#ifndef IKIT_SOLVE_JACOBIAN_WORKSPACE_H
#define IKIT_SOLVE_JACOBIAN_WORKSPACE_H

#include <ikit/jacobian.h>
#include <ikit/ls_step.h>

/* Views into the caller's scratch bytes. Matrices are column-major. */
typedef struct jacobian_workspace {
    ik_mat4 *model_ms; /* [skeleton joints] */
    int *flags;        /* [skeleton joints] */
    int *active;       /* [skeleton joints]: joints that move, parents first */
    int *locked;       /* axes: 1 while the clamping loop holds the axis at a hard limit */
    int active_count;
    int rows, axes;
    ik_real *jac;         /* rows x axes */
    ik_real *err;         /* rows */
    void *ls_scratch;     /* the step's factorisation: DLS's Cholesky factor or SDLS's SVD */
    ik_real *row_tmp;     /* rows */
    ik_real *lock_error;  /* rows: -J_L dtheta_L, what the locked axes' turns do to the effectors, undone */
    ik_real *step;        /* axes: primary step (zero on locked axes) */
    ik_real *pull;        /* axes: secondary objective z as springs and gravity ask */
    ik_real *secondary;   /* axes: projected z, limit turns and their compensation */
    ik_real *total;       /* axes: the step applied */
    ik_real *angle;       /* axes: each axis's spring angle this iteration */
    ik_real *lock_step;   /* axes: the turn of a locked axis onto its limit */
    ik_real *saved;       /* 4 per solver joint: rotations before a guarded step, or (restarts,
                           * never with a guarded step) the best pose so far */
    ik_real *reach_point; /* 4 per effector: reachable target (x, y, z), 1 when the target is out of reach */
    ik_real reach;
} jacobian_workspace;

/* The current Jacobian as ls_step.h takes it. */
static inline ik_ls ik_jacobian_system(const jacobian_workspace *ws) {
    ik_ls ls;
    ls.jac = ws->jac;
    ls.rows = ws->rows;
    ls.cols = ws->axes;
    return ls;
}

static inline int ik_jacobian_total_axes(const ik_jacobian *job) {
    int i, n = 0;
    for (i = 0; i < job->base.listed_joint_count; ++i) n += job->joints[i].axis_count;
    return n;
}

/* A joint's local axis in model space, unit. */
static inline ik_vec3 ik_jacobian_world_axis(const jacobian_workspace *ws, int joint, ik_vec3 axis_ls) {
    return ik_vec3_normalize(ik_mat4_transform_vector(&ws->model_ms[joint], ik_vec3_normalize(axis_ls)));
}

/* Restarts under ik_constraint limits (see jacobian_limits.c): at most
 * IK_JACOBIAN_RESTARTS fresh poses, taken when a stall window gains less
 * than IK_JACOBIAN_RESTART_FRACTION of the error. */
#define IK_JACOBIAN_RESTARTS 8
#define IK_JACOBIAN_RESTART_FRACTION ((ik_real)0.05)

/* jacobian_limits.c */
ik_bool ik_jacobian_has_secondary(const ik_jacobian *job);
ik_bool ik_jacobian_build_secondary(const ik_jacobian *job, jacobian_workspace *ws);
void ik_jacobian_solve_step(const ik_jacobian *job, jacobian_workspace *ws, ik_bool pulled);
void ik_jacobian_enforce_limits(const ik_jacobian *job, int joint_index, int first_column);
void ik_jacobian_enforce_all_limits(const ik_jacobian *job);
void ik_jacobian_restart_pose(const ik_jacobian *job, int attempt);

#endif

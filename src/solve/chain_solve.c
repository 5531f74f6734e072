/* One chain toward one target with the solver the caller picks at run time
 * (see chain_solve.h): the method switch over ik_ccd, ik_fabrik and
 * ik_jacobian, each job filled from the one ik_chain_solve. */
#include <ikit/ccd.h>
#include <ikit/chain_solve.h>
#include <ikit/fabrik.h>

#include <string.h>

#include "field_error.h"

/* The ball joints made for the Jacobian methods when `turning` is NULL sit
 * at the front of the scratch, rounded up to this many bytes so the
 * solver's part keeps the alignment the caller gave the whole. */
#define FRONT_ALIGN 64

ik_chain_solve ik_chain_solve_def(void) {
    ik_chain_solve job;
    memset(&job, 0, sizeof job);
    job.base.defaulted = IK_JOB_DEFAULTED;
    job.base.skeleton = NULL;
    job.base.constraints = NULL;
    job.base.root_ms = NULL;
    job.base.pose_ls = NULL;
    job.base.scratch = NULL;
    job.base.error_field = NULL;
    job.method = IK_CHAIN_FABRIK;
    job.joints = NULL;
    job.target_ms = ik_vec3_zero();
    job.turning = NULL;
    job.turning_constraints = NULL;
    job.springs = NULL;
    job.gravity = 0;
    job.tolerance = (ik_real)1e-3;
    job.max_iterations = 0;
    job.iterations = NULL;
    job.error = NULL;
    return job;
}

static int jacobian_method(ik_chain_method m) { return m >= IK_CHAIN_DLS && m < IK_CHAIN_METHOD_COUNT; }

/* Bytes at the front of the scratch for the ball joints made from the list. */
static size_t ball_bytes(const ik_chain_solve *job) {
    size_t bytes;
    if (job->turning) return 0;
    bytes = (size_t)(job->base.listed_joint_count - 1) * sizeof(ik_jacobian_joint);
    return (bytes + FRONT_ALIGN - 1) / FRONT_ALIGN * FRONT_ALIGN;
}

size_t ik_chain_solve_scratch_size(const ik_chain_solve *job) {
    int k, axes = 0;
    if (!job || !job->base.skeleton || job->base.listed_joint_count < 1) return 0;
    if (job->method == IK_CHAIN_CCD) return ik_ccd_scratch_size(job->base.listed_joint_count);
    if (job->method == IK_CHAIN_FABRIK) return ik_fabrik_scratch_size(job->base.listed_joint_count);
    if (!jacobian_method(job->method)) return 0;
    if (!job->turning) {
        axes = 3 * (job->base.listed_joint_count - 1);
    } else {
        if (job->turning_count < 1) return 0;
        for (k = 0; k < job->turning_count; ++k) axes += job->turning[k].axis_count;
    }
    return ball_bytes(job) + ik_jacobian_scratch_size(job->base.skeleton->joint_count, axes, 1);
}

static ik_result validate(const ik_chain_solve *job) {
    ik_error *error;
    if (!job) return IK_ERR_NULL;
    if (job->base.defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    error = job->base.error_field;
    ik_field_fail(error, IK_OK, NULL, -1);
    if ((int)job->method < 0 || job->method >= IK_CHAIN_METHOD_COUNT)
        return ik_field_fail(error, IK_ERR_RANGE, "method", -1);
    if (!job->joints) return ik_field_fail(error, IK_ERR_NULL, "joints", -1);
    if (job->base.listed_joint_count < 1) return ik_field_fail(error, IK_ERR_RANGE, "base.listed_joint_count", -1);
    if (!ik_vec3_finite(job->target_ms)) return ik_field_fail(error, IK_ERR_NONFINITE, "target_ms", -1);
    if (!ik_finite(job->tolerance)) return ik_field_fail(error, IK_ERR_NONFINITE, "tolerance", -1);
    if (job->tolerance < 0) return ik_field_fail(error, IK_ERR_RANGE, "tolerance", -1);
    if (job->max_iterations < 0) return ik_field_fail(error, IK_ERR_RANGE, "max_iterations", -1);
    if (!jacobian_method(job->method)) return IK_OK;
    if (!ik_finite(job->gravity)) return ik_field_fail(error, IK_ERR_NONFINITE, "gravity", -1);
    if (job->turning && job->turning_count < 1) return ik_field_fail(error, IK_ERR_RANGE, "turning_count", -1);
    if (!job->turning && job->base.listed_joint_count < 2)
        return ik_field_fail(error, IK_ERR_RANGE, "base.listed_joint_count", -1);
    if (job->base.scratch && job->base.scratch_bytes < ball_bytes(job))
        return ik_field_fail(error, IK_ERR_CAPACITY, "base.scratch_bytes", -1);
    return IK_OK;
}

/* The method's job names its own fields; the ones this job spells another
 * way are renamed so the caller reads a field it wrote. */
static ik_result rename_field(const ik_chain_solve *job, ik_result r) {
    ik_error *error = job->base.error_field;
    const char *to = NULL;
    int index;
    if (r == IK_OK || !error) return r;
    index = error->index;
    if (strcmp(error->path, "targets_ms") == 0) {
        to = "target_ms", index = -1;
    } else if (strcmp(error->path, "effectors") == 0) {
        to = "joints", index = job->base.listed_joint_count - 1;
    } else if (jacobian_method(job->method) && job->turning) {
        if (strcmp(error->path, "joints") == 0) to = "turning";
        if (strcmp(error->path, "base.constraints") == 0) to = "turning_constraints";
        if (strcmp(error->path, "base.listed_joint_count") == 0) to = "turning_count";
    }
    return to ? ik_field_fail(error, r, to, index) : r;
}

static ik_result run_ccd(const ik_chain_solve *job) {
    ik_ccd ccd = ik_ccd_def();
    ccd.base = job->base;
    ccd.joints = job->joints;
    ccd.target_ms = job->target_ms;
    ccd.tolerance = job->tolerance;
    if (job->max_iterations > 0) ccd.max_iterations = job->max_iterations;
    ccd.iterations = job->iterations;
    ccd.error = job->error;
    return ik_ccd_run(&ccd);
}

static ik_result run_fabrik(const ik_chain_solve *job) {
    ik_fabrik fabrik = ik_fabrik_def();
    fabrik.base = job->base;
    fabrik.joints = job->joints;
    fabrik.targets_ms = &job->target_ms;
    fabrik.tolerance = job->tolerance;
    if (job->max_iterations > 0) fabrik.max_iterations = job->max_iterations;
    fabrik.iterations = job->iterations;
    fabrik.error = job->error;
    return ik_fabrik_run(&fabrik);
}

/* Without `turning`, joint k of the list (k < n - 1) turns as a ball about
 * its local x, y and z with base.constraints[k]; the effector is the last
 * listed joint, its goal the position alone (ik_jacobian_effector_make). */
static ik_result run_jacobian(const ik_chain_solve *job) {
    static const ik_jacobian_method methods[] = {IK_JACOBIAN_DLS, IK_JACOBIAN_SDLS, IK_JACOBIAN_TRANSPOSE,
                                                 IK_JACOBIAN_GRADIENT};
    ik_jacobian jacobian = ik_jacobian_def();
    ik_jacobian_effector effector =
        ik_jacobian_effector_make(job->joints[job->base.listed_joint_count - 1], job->target_ms);
    jacobian.base = job->base;
    if (job->turning) {
        jacobian.joints = job->turning;
        jacobian.base.listed_joint_count = job->turning_count;
        jacobian.base.constraints = job->turning_constraints;
    } else {
        ik_jacobian_joint *balls = (ik_jacobian_joint *)job->base.scratch;
        size_t front = ball_bytes(job);
        int k, n = job->base.listed_joint_count - 1;
        if (!balls) return ik_field_fail(job->base.error_field, IK_ERR_NULL, "base.scratch", -1);
        for (k = 0; k < n; ++k) balls[k] = ik_jacobian_ball(job->joints[k]);
        jacobian.joints = balls;
        jacobian.base.listed_joint_count = n;
        jacobian.base.scratch = (char *)job->base.scratch + front;
        jacobian.base.scratch_bytes = job->base.scratch_bytes - front;
    }
    jacobian.springs = job->springs;
    jacobian.gravity = job->gravity;
    jacobian.effectors = &effector;
    jacobian.effector_count = 1;
    jacobian.method = methods[job->method - IK_CHAIN_DLS];
    jacobian.tolerance = job->tolerance;
    if (job->max_iterations > 0) jacobian.max_iterations = job->max_iterations;
    jacobian.iterations = job->iterations;
    jacobian.error = job->error;
    return ik_jacobian_run(&jacobian);
}

ik_result ik_chain_solve_run(const ik_chain_solve *job) {
    ik_result r = validate(job);
    if (r != IK_OK) return r;
    if (job->method == IK_CHAIN_CCD)
        r = run_ccd(job);
    else if (job->method == IK_CHAIN_FABRIK)
        r = run_fabrik(job);
    else
        r = run_jacobian(job);
    return rename_field(job, r);
}

/* Batch two-bone IK: the job's defaults and checks, and the choice of
 * lanes: eight AVX lanes where the processor has AVX (two_bone_batch_wide.c),
 * else four (SSE2 in the float build on x86, scalar elsewhere). The lane
 * kernel is two_bone_batch_lanes.h. */
#include "two_bone_batch_lanes.h"
#include "batch_wide.h"

ik_two_bone_batch ik_two_bone_batch_def(void) {
    ik_two_bone_batch job;
    job.count = 0;
    job.start_ms = job.mid_ms = job.end_ms = NULL;
    job.joint_stride = 0;
    job.target_ms = job.pole_ms = NULL;
    job.weight = NULL;
    job.soften = 0;
    job.reach_tolerance = (ik_real)1e-3;
    job.start_correction_ls = job.mid_correction_ls = NULL;
    job.reached = NULL;
    job.residual = NULL;
    job.status = NULL;
    job.defaulted = IK_JOB_DEFAULTED;
    return job;
}

static ik_result validate(const ik_two_bone_batch *job) {
    if (!job) return IK_ERR_NULL;
    if (job->defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    if (job->count < 0 || job->joint_stride % sizeof(ik_real) != 0) return IK_ERR_RANGE;
    if (!ik_finite(job->soften) || !ik_finite(job->reach_tolerance)) return IK_ERR_NONFINITE;
    if (job->soften < 0 || job->soften >= 1) return IK_ERR_RANGE;
    if (job->count > 0 && (!job->start_ms || !job->mid_ms || !job->end_ms || !job->target_ms ||
                           !job->start_correction_ls || !job->mid_correction_ls))
        return IK_ERR_NULL;
    return IK_OK;
}

#if IKIT_BATCH_WIDE
/* The limbs from `first` on, as a job of their own. */
static ik_two_bone_batch two_bone_batch_tail(const ik_two_bone_batch *job, int first) {
    ik_two_bone_batch tail = *job;
    size_t skip = (size_t)first * (job->joint_stride ? job->joint_stride : sizeof(ik_mat4));
    tail.count = job->count - first;
    tail.start_ms = lanes3_strided_matrix(job->start_ms, skip, 1);
    tail.mid_ms = lanes3_strided_matrix(job->mid_ms, skip, 1);
    tail.end_ms = lanes3_strided_matrix(job->end_ms, skip, 1);
    tail.target_ms += first;
    if (tail.pole_ms) tail.pole_ms += first;
    if (tail.weight) tail.weight += first;
    tail.start_correction_ls += first;
    tail.mid_correction_ls += first;
    if (tail.reached) tail.reached += first;
    if (tail.residual) tail.residual += first;
    if (tail.status) tail.status += first;
    return tail;
}
#endif

/* With AVX, the limbs ik_batch_wide_count gives on the eight lanes (the
 * whole groups of eight, and a last part group of five to seven), then
 * the rest (one to four limbs) on four. */
ik_result ik_two_bone_batch_run(const ik_two_bone_batch *job) {
    ik_result r = validate(job);
    if (r != IK_OK) return r;
#if IKIT_BATCH_WIDE
    if (ik_batch_wide_usable() && ik_batch_wide_count(job->count) > 0) {
        int wide = ik_batch_wide_count(job->count);
        ik_two_bone_batch part = *job;
        part.count = wide;
        r = ik_two_bone_batch_run_wide(&part);
        if (wide < job->count) {
            ik_result tail_result;
            part = two_bone_batch_tail(job, wide);
            tail_result = two_bone_lanes_run(&part);
            if (r == IK_OK) r = tail_result;
        }
        return r;
    }
#endif
    return two_bone_lanes_run(job);
}

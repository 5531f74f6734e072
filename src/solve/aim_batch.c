/* Batch aim: the job's defaults and checks, and the choice of lanes:
 * eight AVX lanes where the processor has AVX (aim_batch_wide.c), else
 * four (SSE2 in the float build on x86, scalar elsewhere). The lane kernel
 * is aim_batch_lanes.h. */
#include "aim_batch_lanes.h"
#include "batch_wide.h"

ik_aim_batch ik_aim_batch_def(void) {
    ik_aim_batch job;
    job.count = 0;
    job.joint_ms = NULL;
    job.joint_stride = 0;
    job.target_ms = job.pole_ms = NULL;
    job.weight = NULL;
    job.forward_ls = ik_v3(0, 0, 1);
    job.up_ls = ik_v3(0, 1, 0);
    job.offset_ls = ik_vec3_zero();
    job.correction_ls = NULL;
    job.reached = NULL;
    job.status = NULL;
    job.defaulted = IK_JOB_DEFAULTED;
    return job;
}

static ik_result validate(const ik_aim_batch *job) {
    if (!job) return IK_ERR_NULL;
    if (job->defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    if (job->count < 0 || job->joint_stride % sizeof(ik_real) != 0) return IK_ERR_RANGE;
    if (job->count > 0 && (!job->joint_ms || !job->target_ms || !job->correction_ls)) return IK_ERR_NULL;
    return IK_OK;
}

#if IKIT_BATCH_WIDE
/* The joints from `first` on, as a job of their own. */
static ik_aim_batch aim_batch_tail(const ik_aim_batch *job, int first) {
    ik_aim_batch tail = *job;
    tail.count = job->count - first;
    tail.joint_ms =
        lanes3_strided_matrix(job->joint_ms, job->joint_stride ? job->joint_stride : sizeof(ik_mat4), first);
    tail.target_ms += first;
    if (tail.pole_ms) tail.pole_ms += first;
    if (tail.weight) tail.weight += first;
    tail.correction_ls += first;
    if (tail.reached) tail.reached += first;
    if (tail.status) tail.status += first;
    return tail;
}
#endif

/* With AVX, the joints ik_batch_wide_count gives on the eight lanes (the
 * whole groups of eight, and a last part group of five to seven), then
 * the rest (one to four joints) on four. */
ik_result ik_aim_batch_run(const ik_aim_batch *job) {
    ik_result r = validate(job);
    if (r != IK_OK) return r;
#if IKIT_BATCH_WIDE
    if (ik_batch_wide_usable() && ik_batch_wide_count(job->count) > 0) {
        int wide = ik_batch_wide_count(job->count);
        ik_aim_batch part = *job;
        part.count = wide;
        r = ik_aim_batch_run_wide(&part);
        if (wide < job->count) {
            ik_result tail_result;
            part = aim_batch_tail(job, wide);
            tail_result = aim_lanes_run(&part);
            if (r == IK_OK) r = tail_result;
        }
        return r;
    }
#endif
    return aim_lanes_run(job);
}

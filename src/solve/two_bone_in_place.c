/* Two-bone IK over many limbs with the rotations solved in place
 * (two_bone_in_place.h): the choice between the batch job's lanes and one
 * ik_two_bone_run per limb, and the lanes' corrections turned into the
 * caller's new rotations. */
#include <ikit/two_bone_batch.h>
#include <ikit/two_bone_in_place.h>

#include <stddef.h>

#include "rotation_product.h"

/* Limbs per ik_two_bone_batch_run call: a multiple of the batch's eight
 * lanes, so the lanes group the limbs as one call over all of them would,
 * and few enough for the corrections to sit on the stack. */
#define IN_PLACE_CHUNK 64

ik_two_bone_in_place ik_two_bone_in_place_def(void) {
    ik_two_bone_in_place job;
    job.limb = ik_two_bone_def();
    job.count = 0;
    job.start_ms = job.mid_ms = job.end_ms = NULL;
    job.target_ms = job.pole_ms = NULL;
    job.start_rotation_ls = job.mid_rotation_ls = NULL;
    job.reached = NULL;
    job.residual = NULL;
    job.failed_limb = NULL;
    job.defaulted = IK_JOB_DEFAULTED;
    return job;
}

static ik_result validate(const ik_two_bone_in_place *job) {
    if (!job) return IK_ERR_NULL;
    if (job->defaulted != IK_JOB_DEFAULTED || job->limb.defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    if (job->count < 0 || job->limb.keep_end_rotation) return IK_ERR_RANGE;
    if (job->count > 0 && (!job->start_ms || !job->mid_ms || !job->end_ms || !job->target_ms ||
                           !job->start_rotation_ls || !job->mid_rotation_ls))
        return IK_ERR_NULL;
    return IK_OK;
}

/* The batch job answers for a limb what ik_two_bone_run would with these
 * options: no hinge, no extra twist, full weight, a pole per limb or none,
 * and a soften and tolerance it accepts (any other value goes to the single
 * job, which refuses it with its own code). */
static ik_bool lanes_fit(const ik_two_bone_in_place *job) {
    const ik_two_bone *o = &job->limb;
    return !o->use_hinge && o->twist == 0 && o->weight >= 1 && (job->pole_ms || !o->use_pole) && o->soften >= 0 &&
           o->soften < 1 && ik_finite(o->reach_tolerance);
}

/* One ik_two_bone_run per limb from `first` on; the first failure stops. */
static ik_result one_by_one(const ik_two_bone_in_place *job, int first) {
    ik_two_bone one = job->limb;
    int i;
    if (job->pole_ms) one.use_pole = 1;
    one.end_rotation_ls = NULL;
    for (i = first; i < job->count; ++i) {
        ik_result r;
        one.start_ms = &job->start_ms[i];
        one.mid_ms = &job->mid_ms[i];
        one.end_ms = &job->end_ms[i];
        one.target_ms = job->target_ms[i];
        if (job->pole_ms) one.pole_ms = job->pole_ms[i];
        one.start_rotation_ls = &job->start_rotation_ls[i];
        one.mid_rotation_ls = &job->mid_rotation_ls[i];
        one.reached = job->reached ? &job->reached[i] : NULL;
        one.residual = job->residual ? &job->residual[i] : NULL;
        r = ik_two_bone_run(&one);
        if (r != IK_OK) {
            if (job->reached) job->reached[i] = 0;
            if (job->failed_limb) *job->failed_limb = i;
            return r;
        }
    }
    return IK_OK;
}

/* *rotation_ls * correction, normalised as ik_two_bone_run normalises its
 * answers; 0 (nothing written) where it cannot be: a zero or non-finite
 * input rotation. */
static ik_bool turn(ik_quat *rotation_ls, ik_quat correction) {
    ik_quat product = ik_quat_mul(*rotation_ls, correction);
    ik_real sq = ik_quat_dot(product, product);
    if (!rotation_product_usable(sq)) return 0;
    *rotation_ls = rotation_product_unit(product, sq);
    return 1;
}

/* The batch job, IN_PLACE_CHUNK limbs at a time: it gives each limb's
 * corrections, and the new rotations are old * correction. It reads no
 * input rotation, so a limb it fails, or whose rotations cannot be turned,
 * is handed to ik_two_bone_run, which fails it with the single job's code
 * (and, were it to solve it, the rest go one by one). */
static ik_result in_lanes(const ik_two_bone_in_place *job) {
    ik_two_bone_batch batch = ik_two_bone_batch_def();
    int first;
    batch.soften = job->limb.soften;
    batch.reach_tolerance = job->limb.reach_tolerance;
    for (first = 0; first < job->count; first += IN_PLACE_CHUNK) {
        ik_quat start_turn[IN_PLACE_CHUNK], mid_turn[IN_PLACE_CHUNK];
        ik_bool reached[IN_PLACE_CHUNK];
        ik_real residual[IN_PLACE_CHUNK];
        ik_result status[IN_PLACE_CHUNK];
        int i, n = job->count - first < IN_PLACE_CHUNK ? job->count - first : IN_PLACE_CHUNK;
        batch.count = n;
        batch.start_ms = &job->start_ms[first];
        batch.mid_ms = &job->mid_ms[first];
        batch.end_ms = &job->end_ms[first];
        batch.target_ms = &job->target_ms[first];
        batch.pole_ms = job->pole_ms ? &job->pole_ms[first] : NULL;
        batch.start_correction_ls = start_turn;
        batch.mid_correction_ls = mid_turn;
        batch.reached = reached;
        batch.residual = residual;
        batch.status = status;
        ik_two_bone_batch_run(&batch);
        for (i = 0; i < n; ++i) {
            ik_quat *start = &job->start_rotation_ls[first + i], *mid = &job->mid_rotation_ls[first + i];
            ik_quat start_before = *start;
            if (status[i] != IK_OK || !turn(start, start_turn[i])) return one_by_one(job, first + i);
            if (!turn(mid, mid_turn[i])) {
                *start = start_before;
                return one_by_one(job, first + i);
            }
            if (job->reached) job->reached[first + i] = reached[i];
            if (job->residual) job->residual[first + i] = residual[i];
        }
    }
    return IK_OK;
}

ik_result ik_two_bone_in_place_run(const ik_two_bone_in_place *job) {
    ik_result r = validate(job);
    if (r != IK_OK) return r;
    if (job->failed_limb) *job->failed_limb = -1;
    return lanes_fit(job) ? in_lanes(job) : one_by_one(job, 0);
}

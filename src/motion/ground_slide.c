/* The contacts an outside reader would find on a take, and each one's
 * slide (ikit/ground_slide.h). */
#include <ikit/foot_contacts.h>
#include <ikit/ground_slide.h>

#include <stdlib.h>
#include <string.h>

/* Above this many samples a contact's spread is found by two sweeps
 * instead of every pair (exact for the line-like spreads of a sliding foot,
 * never larger than the true one). */
#define EXACT_SPREAD_SAMPLES 1024

ik_ground_slide ik_ground_slide_def(void) {
    ik_ground_slide job;
    memset(&job, 0, sizeof job);
    job.near_floor = (ik_real)0.04;
    job.slow = (ik_real)0.25;
    job.sample_rate = 60;
    job.min_seconds = (ik_real)0.05;
    job.defaulted = IK_JOB_DEFAULTED;
    return job;
}

/* Frames between samples: round(1 / (rate dt)), at least 1. */
static int frame_step(const ik_take *take, ik_real rate) {
    double step = 1.0 / ((double)rate * (double)take->frame_time);
    return step < 1.5 ? 1 : step > 1e6 ? 1000000 : (int)(step + 0.5);
}

int ik_ground_slide_samples(const ik_take *take, ik_real sample_rate) {
    if (!take || take->frame_count < 2 || !(take->frame_time > 0) || !(sample_rate > 0)) return 0;
    return (take->frame_count - 1) / frame_step(take, sample_rate) + 1;
}

static int compare_real(const void *a, const void *b) {
    ik_real x = *(const ik_real *)a, y = *(const ik_real *)b;
    return x < y ? -1 : x > y;
}

/* Distance across the up axis u: |reject(a - b, u)|. */
static ik_real across(ik_vec3 a, ik_vec3 b, ik_vec3 up) {
    return ik_vec3_length(ik_vec3_reject(ik_vec3_sub(a, b), up));
}

/* The largest distance across up between two of p[0..n): every pair, or
 * past EXACT_SPREAD_SAMPLES two sweeps (the farthest from the first, then
 * the farthest from that). */
static ik_real spread(const ik_vec3 *p, int n, ik_vec3 up) {
    ik_real best = 0;
    int i, j, far = 0;
    if (n <= EXACT_SPREAD_SAMPLES) {
        for (i = 0; i < n; ++i)
            for (j = i + 1; j < n; ++j) best = ik_maxr(best, across(p[i], p[j], up));
        return best;
    }
    for (i = 1; i < n; ++i)
        if (across(p[i], p[0], up) > across(p[far], p[0], up)) far = i;
    for (i = 0; i < n; ++i) best = ik_maxr(best, across(p[i], p[far], up));
    return best;
}

static ik_result validate(const ik_ground_slide *job) {
    int leg;
    if (job->defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    if (!job->rig || !job->rig->skeleton || !job->take || !job->take->poses_ls || !job->model_ms || !job->points ||
        !job->heights || !job->count || (job->capacity > 0 && !job->contacts))
        return IK_ERR_NULL;
    if (job->take->joint_count != job->rig->skeleton->joint_count || job->take->frame_count < 2 || job->capacity < 0)
        return IK_ERR_RANGE;
    if (!(job->metre > 0) || !(job->near_floor > 0) || !(job->slow > 0) || !(job->sample_rate > 0) ||
        !(job->min_seconds >= 0) || !(job->take->frame_time > 0) || !ik_finite(job->metre) ||
        !ik_finite(job->take->frame_time))
        return IK_ERR_DEGENERATE;
    if (job->root_ms && !ik_mat4_finite(job->root_ms)) return IK_ERR_NONFINITE;
    for (leg = IK_LIMB_LEG_L; leg <= IK_LIMB_LEG_R; ++leg)
        if (job->rig->limb[leg].start < 0 || job->rig->limb[leg].mid < 0) return IK_ERR_DEGENERATE;
    return IK_OK;
}

/* Each leg's point in world space, sample s: its toe (a toe joint, or the
 * ball of an ankle without one: ik_foot_point_position), else the limb's
 * end (a virtual ankle), W = root M. */
static ik_result record(const ik_ground_slide *job, int samples, int step, ik_vec3 up) {
    const ik_humanoid *rig = job->rig;
    int s, k;
    for (s = 0; s < samples; ++s) {
        ik_skeleton_fk(rig->skeleton, ik_take_pose(job->take, s * step), job->root_ms, job->model_ms);
        for (k = 0; k < 2; ++k) {
            const ik_humanoid_limb *leg = &rig->limb[IK_LIMB_LEG_L + k];
            ik_mat4 end = ik_humanoid_limb_end_ms(leg, job->model_ms);
            ik_vec3 p = ik_mat4_translation(&end);
            ik_foot_point_position(rig, k == 0 ? IK_FOOT_TOE_L : IK_FOOT_TOE_R, job->model_ms, &p);
            if (!ik_vec3_finite(p)) return IK_ERR_NONFINITE;
            job->points[(size_t)k * (size_t)samples + (size_t)s] = p;
            job->heights[(size_t)k * (size_t)samples + (size_t)s] = ik_vec3_dot(p, up);
        }
    }
    return IK_OK;
}

/* Whether sample s of path p (n samples, dt apart) is on the ground:
 * h - floor < near and |p(s+1) - p(s-1)| / (2 dt) < slow (one-sided at
 * the ends). */
static ik_bool grounded(const ik_ground_slide *job, const ik_vec3 *p, const ik_real *h, int n, int s, ik_real dt,
                        ik_real floor) {
    int a = s > 0 ? s - 1 : s, b = s + 1 < n ? s + 1 : s;
    ik_real speed = ik_vec3_distance(p[b], p[a]) / ((ik_real)(b - a) * dt);
    return h[s] - floor < job->near_floor * job->metre && speed < job->slow * job->metre;
}

ik_result ik_ground_slide_run(const ik_ground_slide *job) {
    int samples, step, k, s, found = 0, min_run;
    ik_real dt, floor;
    ik_vec3 up;
    ik_result r = job ? validate(job) : IK_ERR_NULL;
    if (r != IK_OK) return r;
    step = frame_step(job->take, job->sample_rate);
    samples = ik_ground_slide_samples(job->take, job->sample_rate);
    dt = (ik_real)step * job->take->frame_time;
    {
        /* the shortest run in samples: ceil(min_seconds / dt - 0.001), at
         * least 1 (the slack absorbs a frame time written rounded: a BVH's
         * 0.008333 s made 0.05 s 3.0001 samples, and 4 were asked) */
        double v = (double)job->min_seconds / (double)dt - 1e-3;
        if (v > samples + 1.0) v = samples + 1.0;
        min_run = (int)v;
        if (min_run < v) ++min_run;
        if (min_run < 1) min_run = 1;
    }
    /* up in the world: the rig's up through the root, unit */
    up = job->root_ms ? ik_mat4_transform_vector(job->root_ms, job->rig->up_rs) : job->rig->up_rs;
    if (!(ik_vec3_length_sq(up) > 0)) return IK_ERR_DEGENERATE;
    up = ik_vec3_normalize(up);
    r = record(job, samples, step, up);
    if (r != IK_OK) return r;
    /* the floor: the 5th percentile (nearest rank) of both points' heights */
    memcpy(job->heights + 2 * (size_t)samples, job->heights, 2 * (size_t)samples * sizeof(ik_real));
    qsort(job->heights + 2 * (size_t)samples, 2 * (size_t)samples, sizeof(ik_real), compare_real);
    floor = job->heights[2 * (size_t)samples + (size_t)((double)(2 * samples - 1) * 0.05 + 0.5)];
    if (job->floor) *job->floor = floor;
    /* runs of grounded samples, min_run or longer */
    for (k = 0; k < 2; ++k) {
        const ik_vec3 *p = job->points + (size_t)k * (size_t)samples;
        const ik_real *h = job->heights + (size_t)k * (size_t)samples;
        int start = -1;
        for (s = 0; s <= samples; ++s) {
            ik_bool on = s < samples && grounded(job, p, h, samples, s, dt, floor);
            if (on && start < 0) start = s;
            if (!on && start >= 0) {
                if (s - start >= min_run) {
                    if (found < job->capacity) {
                        ik_ground_contact *c = &job->contacts[found];
                        c->leg = IK_LIMB_LEG_L + k;
                        c->start = start * step;
                        c->end = (s - 1) * step;
                        c->slide = spread(p + start, s - start, up);
                    }
                    ++found;
                }
                start = -1;
            }
        }
    }
    *job->count = found;
    return found > job->capacity ? IK_ERR_CAPACITY : IK_OK;
}

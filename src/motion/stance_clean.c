/* The footskate clean-up of a take's own motion with its whole stances
 * held, in rounds (ikit/stance_clean.h). */
#include <ikit/feet_within_limits.h>
#include <ikit/footskate.h>
#include <ikit/leg_figures.h>
#include <ikit/skating.h>
#include <ikit/stance_clean.h>
#include <ikit/stance_join.h>

#include <math.h>
#include <string.h>

#include "scratch_carve.h"

/* The scratch: the input's poses, the best round's contacts, the two jobs'
 * scratch, and forward-kinematics buffers. */
typedef struct layout {
    ik_transform *input;   /* [frames * joints] */
    ik_foot_contact *best; /* [capacity] */
    void *footskate, *join;
    size_t footskate_bytes, join_bytes;
    ik_mat4 *model_ms, *reference_ms, *rest_ms; /* [joints] each */
    ik_vec3 *previous_ms;                       /* [2 joints] */
} layout;

static size_t make_layout(const ik_take *take, int capacity, char *base, layout *l) {
    size_t at = 0, o[8], j = (size_t)take->joint_count;
    size_t fs = ik_footskate_scratch_size(take, capacity), sj = ik_stance_join_scratch_size(take, capacity);
    o[0] = scratch_carve(&at, (size_t)take->frame_count * j * sizeof(ik_transform));
    o[1] = scratch_carve(&at, (size_t)capacity * sizeof(ik_foot_contact));
    o[2] = scratch_carve(&at, fs);
    o[3] = scratch_carve(&at, sj);
    o[4] = scratch_carve(&at, j * sizeof(ik_mat4));
    o[5] = scratch_carve(&at, j * sizeof(ik_mat4));
    o[6] = scratch_carve(&at, 2 * j * sizeof(ik_vec3));
    o[7] = scratch_carve(&at, j * sizeof(ik_mat4));
    if (!base) return at;
    l->input = (ik_transform *)(void *)(base + o[0]);
    l->best = (ik_foot_contact *)(void *)(base + o[1]);
    l->footskate = base + o[2], l->footskate_bytes = fs;
    l->join = base + o[3], l->join_bytes = sj;
    l->model_ms = (ik_mat4 *)(void *)(base + o[4]);
    l->reference_ms = (ik_mat4 *)(void *)(base + o[5]);
    l->previous_ms = (ik_vec3 *)(void *)(base + o[6]);
    l->rest_ms = (ik_mat4 *)(void *)(base + o[7]);
    return at;
}

size_t ik_stance_clean_scratch_size(const ik_take *take, int capacity) {
    layout l;
    if (!take || take->frame_count < 2 || take->joint_count < 1 || capacity < 0) return 0;
    return make_layout(take, capacity, NULL, &l) + SCRATCH_ALIGN;
}

ik_stance_clean ik_stance_clean_def(void) {
    ik_stance_clean job;
    memset(&job, 0, sizeof job);
    job.rounds = 3;
    job.blend_time = (ik_real)0.25;
    job.follow_heel_lift = 1;
    job.defaulted = IK_JOB_DEFAULTED;
    return job;
}

static ik_result validate(const ik_stance_clean *job) {
    int i;
    if (job->defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    if (!job->rig || !job->rig->skeleton || !job->take || !job->take->poses_ls || !job->count || !job->scratch ||
        (job->capacity > 0 && !job->contacts))
        return IK_ERR_NULL;
    if (job->take->joint_count != job->rig->skeleton->joint_count || job->take->frame_count < 2 || *job->count < 0 ||
        *job->count > job->capacity || job->rounds < 0)
        return IK_ERR_RANGE;
    if (job->scratch_bytes < ik_stance_clean_scratch_size(job->take, job->capacity)) return IK_ERR_CAPACITY;
    if (!ik_finite(job->metre) || !ik_finite(job->leg_length) || !ik_finite(job->blend_time)) return IK_ERR_NONFINITE;
    for (i = 0; job->levels && i < IK_FOOT_CONTACT_POINTS; ++i)
        if (!ik_finite(job->levels[i])) return IK_ERR_NONFINITE;
    if (!(job->metre > 0) || !(job->leg_length > 0)) return IK_ERR_DEGENERATE;
    return IK_OK;
}

/* One footskate pass over the take as it stands; each contact's planted
 * position becomes where the pass held it (moved into reach). With
 * `limits` (an input inside the rig's limits, as a retarget's result is)
 * each frame past them by over LIMIT_SLACK (a degree, the slack every check
 * allows) is then brought inside (ik_feet_within_limits, in the skeleton's
 * own space: which points are held is all it reads of the contacts), the
 * joints' limits only (a take's floor is not the rest floor), held feet
 * too: left alone, rigged_figure.glb's held ankles went 38 degrees past
 * their limit after 131_01, and 2 degrees where only those past 2 were
 * turned back. A capture past them (CMU 131_01 dorsiflexes 47 degrees
 * against 25) is not re-posed, which slid its feet 26 mm. */
#define LIMIT_SLACK ik_rad(1)
static ik_result pass(const ik_stance_clean *job, const layout *l, int count, ik_bool limits) {
    ik_footskate fs = ik_footskate_def();
    ik_feet_limits keep;
    ik_real excess;
    ik_result r;
    int i, f;
    fs.rig = job->rig;
    fs.root_ms = job->root_ms;
    fs.take = job->take;
    fs.contacts = job->contacts;
    fs.contact_count = count;
    fs.blend_time = job->blend_time;
    fs.follow_heel_lift = job->follow_heel_lift;
    fs.scratch = l->footskate;
    fs.scratch_bytes = l->footskate_bytes;
    fs.model_ms = l->model_ms;
    r = ik_footskate_run(&fs);
    for (i = 0; r == IK_OK && i < count; ++i) r = ik_footskate_held_ms(&fs, i, &job->contacts[i].planted_ms);
    if (r != IK_OK || !limits) return r;
    ik_skeleton_fk(job->rig->skeleton, job->rig->skeleton->rest_ls, NULL, l->rest_ms);
    keep = ik_feet_limits_make(job->rig, l->rest_ms);
    keep.floor = -(ik_real)HUGE_VAL;
    for (f = 0; f < job->take->frame_count; ++f) {
        ik_humanoid_angles a;
        ik_skeleton_fk(job->rig->skeleton, ik_take_pose(job->take, f), NULL, l->model_ms);
        ik_humanoid_angles_measure(job->rig, l->model_ms, l->rest_ms, &a);
        excess = ik_humanoid_angles_excess(job->rig, &a, NULL);
        if (excess > LIMIT_SLACK)
            ik_feet_within_limits(&keep, job->contacts, count, f, ik_take_pose(job->take, f), l->model_ms, NULL);
    }
    return IK_OK;
}

/* The result's own contacts that slide over a millimetre joined to the
 * list (join 0: only measured); *worst their worst slide. */
static ik_result join(const ik_stance_clean *job, const layout *l, int *count, ik_bool join, ik_real *worst,
                      int *joined) {
    ik_stance_join sj = ik_stance_join_def();
    sj.rig = job->rig;
    sj.take = job->take;
    sj.root_ms = job->root_ms;
    sj.metre = job->metre;
    sj.tolerance = (ik_real)0.001 * ik_foot_metre(job->leg_length);
    sj.join = join;
    sj.contacts = job->contacts;
    sj.count = count;
    sj.capacity = job->capacity;
    sj.scratch = l->join;
    sj.scratch_bytes = l->join_bytes;
    sj.worst = worst;
    sj.joined = joined;
    return ik_stance_join_run(&sj);
}

/* A round's figures against the input: speed added (ik_skating_measure,
 * 2 cm/s slides), knee flips, the deepest sole and the joints past the
 * rig's limits. */
static ik_result score(const ik_stance_clean *job, const layout *l, int count, ik_real worst,
                       ik_stance_clean_report *out) {
    ik_skating sk;
    ik_skating_measure m = ik_skating_measure_def();
    ik_take input = *job->take;
    ik_result r;
    input.poses_ls = l->input;
    m.rig = job->rig;
    m.root_ms = job->root_ms;
    m.take = job->take;
    m.reference = &input;
    m.contacts = job->contacts;
    m.contact_count = count;
    m.up_ms =
        ik_vec3_normalize(job->root_ms ? ik_mat4_transform_vector(job->root_ms, job->rig->up_rs) : job->rig->up_rs);
    m.slide_speed = (ik_real)0.02 * ik_foot_metre(job->leg_length);
    m.model_ms = l->model_ms;
    m.reference_ms = l->reference_ms;
    m.previous_ms = l->previous_ms;
    m.out = &sk;
    r = ik_skating_measure_run(&m);
    out->worst_slide = worst;
    out->added_speed = sk.added_speed;
    out->knee_flips = ik_leg_knee_flip_frames(job->rig, job->take, l->model_ms);
    out->deepest_sole = ik_leg_deepest_sole(job->rig, job->take, l->model_ms);
    out->beyond_limits = ik_take_limits_excess(job->rig, job->take, l->model_ms, l->rest_ms, NULL);
    return r;
}

/* Contacts under their point's level raised onto it: planted += (level -
 * planted.up) up where that is positive. */
static void raise_onto_levels(const ik_stance_clean *job) {
    ik_vec3 up =
        ik_vec3_normalize(job->root_ms ? ik_mat4_transform_vector(job->root_ms, job->rig->up_rs) : job->rig->up_rs);
    int i;
    for (i = 0; job->levels && i < *job->count; ++i) {
        ik_foot_contact *c = &job->contacts[i];
        ik_real below = job->levels[c->point] - ik_vec3_dot(c->planted_ms, up);
        if (below > 0) c->planted_ms = ik_vec3_mad(c->planted_ms, up, below);
    }
}

/* The input back in the take. */
static void restore(const ik_stance_clean *job, const layout *l) {
    memcpy(job->take->poses_ls, l->input,
           (size_t)job->take->frame_count * (size_t)job->take->joint_count * sizeof(ik_transform));
}

ik_result ik_stance_clean_run(const ik_stance_clean *job) {
    layout l;
    ik_stance_clean_report first, best;
    ik_real worst = 0, speed_limit, sole_slack, tolerance;
    int count, best_count, round, now = 0, joined = 0;
    ik_bool limits;
    ik_result r = job ? validate(job) : IK_ERR_NULL;
    if (r != IK_OK) return r;
    memset(&l, 0, sizeof l);
    make_layout(job->take, job->capacity, scratch_base(job->scratch), &l);
    memcpy(l.input, job->take->poses_ls,
           (size_t)job->take->frame_count * (size_t)job->take->joint_count * sizeof(ik_transform));
    count = best_count = *job->count;
    limits = ik_take_limits_excess(job->rig, job->take, l.model_ms, l.rest_ms, NULL) <= LIMIT_SLACK;
    raise_onto_levels(job);
    tolerance = (ik_real)0.001 * ik_foot_metre(job->leg_length);
    /* the sole's slack in the skeleton's own units (a root may scale them) */
    sole_slack = (ik_real)0.01 * ik_foot_metre(ik_foot_leg_length(job->rig));
    r = pass(job, &l, count, limits);
    if (r == IK_OK) r = join(job, &l, &count, 0, &worst, &joined);
    if (r == IK_OK) r = score(job, &l, count, worst, &first);
    if (r != IK_OK) return r;
    first.rounds = first.kept_round = 0;
    best = first;
    memcpy(l.best, job->contacts, (size_t)count * sizeof *l.best);
    /* a round's speed may reach the first pass's, or 10 m/s */
    speed_limit = ik_maxr(first.added_speed, 10 * ik_foot_metre(job->leg_length));
    for (round = 1; round <= job->rounds && worst > tolerance; ++round) {
        ik_stance_clean_report s;
        r = join(job, &l, &count, 1, &worst, &joined);
        if (r != IK_OK || joined == 0) break;
        restore(job, &l);
        r = pass(job, &l, count, limits);
        if (r == IK_OK) r = join(job, &l, &count, 0, &worst, &joined);
        if (r == IK_OK) r = score(job, &l, count, worst, &s);
        if (r != IK_OK) break;
        now = round;
        if (s.worst_slide < best.worst_slide && s.knee_flips <= first.knee_flips && s.added_speed <= speed_limit &&
            s.deepest_sole <= first.deepest_sole + sole_slack && s.beyond_limits <= first.beyond_limits + LIMIT_SLACK) {
            best = s, best.kept_round = round, best_count = count;
            memcpy(l.best, job->contacts, (size_t)count * sizeof *l.best);
        }
    }
    best.rounds = now;
    /* the kept round's take again, from the input, where a later one ran */
    if (r == IK_OK && best.kept_round != now) {
        count = best_count;
        memcpy(job->contacts, l.best, (size_t)count * sizeof *l.best);
        restore(job, &l);
        r = pass(job, &l, count, limits);
    }
    *job->count = count;
    if (job->report) *job->report = best;
    return r;
}

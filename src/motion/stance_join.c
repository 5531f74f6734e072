/* The whole stance held: the result's own sliding contacts joined to the
 * contacts meant to be held (ikit/stance_join.h). */
#include <ikit/ground_slide.h>
#include <ikit/stance_join.h>

#include <string.h>

#include "scratch_carve.h"

/* The scratch: ground slide's buffers, its contacts, the joined list's room. */
typedef struct layout {
    ik_mat4 *model_ms;         /* [joints] */
    ik_vec3 *points;           /* [2 frames] */
    ik_real *heights;          /* [4 frames] */
    ik_ground_contact *ground; /* [frames + 1] */
    ik_foot_contact *room;     /* [capacity] */
} layout;

static size_t make_layout(const ik_take *take, int capacity, char *base, layout *l) {
    size_t at = 0, o[5], f = (size_t)take->frame_count;
    o[0] = scratch_carve(&at, (size_t)take->joint_count * sizeof(ik_mat4));
    o[1] = scratch_carve(&at, 2 * f * sizeof(ik_vec3));
    o[2] = scratch_carve(&at, 4 * f * sizeof(ik_real));
    o[3] = scratch_carve(&at, (f + 1) * sizeof(ik_ground_contact));
    o[4] = scratch_carve(&at, (size_t)capacity * sizeof(ik_foot_contact));
    if (!base) return at;
    l->model_ms = (ik_mat4 *)(void *)(base + o[0]);
    l->points = (ik_vec3 *)(void *)(base + o[1]);
    l->heights = (ik_real *)(void *)(base + o[2]);
    l->ground = (ik_ground_contact *)(void *)(base + o[3]);
    l->room = (ik_foot_contact *)(void *)(base + o[4]);
    return at;
}

size_t ik_stance_join_scratch_size(const ik_take *take, int capacity) {
    layout l;
    if (!take || take->frame_count < 2 || take->joint_count < 1 || capacity < 0) return 0;
    return make_layout(take, capacity, NULL, &l) + SCRATCH_ALIGN;
}

ik_stance_join ik_stance_join_def(void) {
    ik_stance_join job;
    memset(&job, 0, sizeof job);
    job.join = 1;
    job.defaulted = IK_JOB_DEFAULTED;
    return job;
}

/* The contact point standing for leg k on the rig, as ik_ground_slide
 * measures it: its toe (a toe joint, or a toe-less ankle's ball:
 * ik_foot_point_position), else its heel (a virtual ankle's control); -1
 * where the leg has no foot joint. */
static int leg_point(const ik_humanoid *rig, int leg) {
    int toe = leg == IK_LIMB_LEG_L ? IK_FOOT_TOE_L : IK_FOOT_TOE_R;
    if (ik_foot_point_position(rig, toe, NULL, NULL)) return toe;
    return ik_foot_point_position(rig, toe - 1, NULL, NULL) ? toe - 1 : -1;
}

/* A contact of `point` over [start, end] joined to the list (see the
 * header): c covers every contact of the point it overlaps or touches, at
 * the one's spot, else at `planted`; the list rebuilt in order of start in
 * `room`. Returns the new count, or -1 when it would not fit. */
static int join_contact(ik_foot_contact *list, int count, int capacity, ik_foot_contact *room, int point, int start,
                        int end, ik_vec3 planted) {
    int i, overlaps = 0, n = 0;
    ik_bool placed = 0;
    ik_foot_contact c;
    memset(&c, 0, sizeof c);
    c.point = point, c.start = start, c.end = end, c.planted_ms = planted;
    for (i = 0; i < count; ++i) {
        const ik_foot_contact *h = &list[i];
        if (h->point != point || h->start > end + 1 || start > h->end + 1) continue;
        if (++overlaps == 1) c.planted_ms = h->planted_ms;
        c.start = h->start < c.start ? h->start : c.start;
        c.end = h->end > c.end ? h->end : c.end;
    }
    if (overlaps > 1) c.planted_ms = planted;
    if (overlaps == 0 && count >= capacity) return -1;
    for (i = 0; i < count; ++i) {
        const ik_foot_contact *h = &list[i];
        if (h->point == point && h->start <= c.end && c.start <= h->end) continue;
        if (!placed && h->start > c.start) room[n++] = c, placed = 1;
        room[n++] = *h;
    }
    if (!placed) room[n++] = c;
    memcpy(list, room, (size_t)n * sizeof *room);
    return n;
}

static ik_result validate(const ik_stance_join *job) {
    if (job->defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    if (!job->rig || !job->rig->skeleton || !job->take || !job->take->poses_ls || !job->count || !job->scratch ||
        (job->capacity > 0 && !job->contacts))
        return IK_ERR_NULL;
    if (job->take->joint_count != job->rig->skeleton->joint_count || job->take->frame_count < 2 || *job->count < 0 ||
        *job->count > job->capacity)
        return IK_ERR_RANGE;
    if (job->scratch_bytes < ik_stance_join_scratch_size(job->take, job->capacity)) return IK_ERR_CAPACITY;
    if (!(job->metre > 0) || !ik_finite(job->metre) || !(job->tolerance >= 0) || !ik_finite(job->tolerance) ||
        !(job->take->frame_time > 0))
        return IK_ERR_DEGENERATE;
    if (job->root_ms && !ik_mat4_finite(job->root_ms)) return IK_ERR_NONFINITE;
    return IK_OK;
}

ik_result ik_stance_join_run(const ik_stance_join *job) {
    ik_ground_slide g = ik_ground_slide_def();
    layout l;
    ik_real worst = 0, beyond = 0, tolerance, floor = 0;
    ik_vec3 up;
    int found = 0, joined = 0, i, f, count;
    ik_result r = job ? validate(job) : IK_ERR_NULL;
    if (r != IK_OK) return r;
    memset(&l, 0, sizeof l);
    make_layout(job->take, job->capacity, scratch_base(job->scratch), &l);
    tolerance = job->tolerance > 0 ? job->tolerance : (ik_real)0.001 * job->metre;
    /* the result's own contacts: at 60 Hz, 25 % more room than an outside reader's */
    g.rig = job->rig;
    g.take = job->take;
    g.root_ms = job->root_ms;
    g.metre = job->metre;
    g.near_floor *= (ik_real)1.25;
    g.slow *= (ik_real)1.25;
    g.model_ms = l.model_ms;
    g.points = l.points;
    g.heights = l.heights;
    g.contacts = l.ground;
    g.capacity = job->take->frame_count + 1;
    g.count = &found;
    g.floor = &floor;
    r = ik_ground_slide_run(&g);
    if (r != IK_OK) return r;
    count = *job->count;
    up = ik_vec3_normalize(job->root_ms ? ik_mat4_transform_vector(job->root_ms, job->rig->up_rs) : job->rig->up_rs);
    for (i = 0; i < found; ++i) {
        const ik_ground_contact *c = &l.ground[i];
        ik_vec3 mean = ik_vec3_zero();
        int point = leg_point(job->rig, c->leg), n;
        worst = ik_maxr(worst, c->slide);
        beyond += ik_maxr(0, c->slide - tolerance);
        if (!job->join || !(c->slide > tolerance) || point < 0) continue;
        /* where the result stood: the point's mean over the contact, in the contacts' space */
        for (f = c->start; f <= c->end; ++f) {
            ik_vec3 at = ik_vec3_zero();
            ik_skeleton_fk(job->rig->skeleton, ik_take_pose(job->take, f), job->root_ms, l.model_ms);
            ik_foot_point_position(job->rig, point, l.model_ms, &at);
            mean = ik_vec3_add(mean, at);
        }
        mean = ik_vec3_scale(mean, (ik_real)1 / (ik_real)(c->end - c->start + 1));
        /* a virtual toe is a point of the sole: on the floor, m + (floor - m.up) up */
        if (ik_foot_point_is_toe(point) && job->rig->limb[c->leg].toe < 0)
            mean = ik_vec3_mad(mean, up, floor - ik_vec3_dot(mean, up));
        n = join_contact(job->contacts, count, job->capacity, l.room, point, c->start, c->end, mean);
        if (n < 0) {
            *job->count = count;
            return IK_ERR_CAPACITY;
        }
        count = n;
        ++joined;
    }
    *job->count = count;
    if (job->worst) *job->worst = worst;
    if (job->beyond) *job->beyond = beyond;
    if (job->joined) *job->joined = joined;
    return IK_OK;
}

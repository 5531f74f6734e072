/* In-place cycles: the slide velocity of a walk or run made in place, its
 * stances, and the root motion that makes it walk. */
#include <ikit/in_place.h>

#include <string.h>

/* Refinements of the slide velocity: each finds the stances under the
 * current estimate and re-measures it over them. The real clips settle
 * after one or two (girl.glb's run and robot.glb's walk after the first,
 * robot.glb's run after the second: 6.09 then 6.33 units/s, then no
 * change); three leave one to spare. */
#define IN_PLACE_REFINEMENTS 3

ik_in_place ik_in_place_def(void) {
    ik_in_place job;
    memset(&job, 0, sizeof job);
    job.min_speed = (ik_real)0.3;
    job.max_hips_travel = (ik_real)0.25;
    job.speed_enter = (ik_real)0.6;
    job.speed_exit = (ik_real)0.95;
    job.min_duration = (ik_real)0.05;
    job.steady_tolerance = (ik_real)0.4;
    job.min_steady = (ik_real)0.75;
    job.min_cover = (ik_real)0.1;
    job.defaulted = IK_JOB_DEFAULTED;
    return job;
}

static ik_vec3 path_at(const ik_foot_contacts *feet, int frame, int point) {
    return feet->paths_ms[(size_t)frame * IK_FOOT_PATH_POINTS + (size_t)point];
}

/* The part of v in the floor plane: v - (v . up) up, up a unit vector. */
static ik_vec3 horizontal(ik_vec3 v, ik_vec3 up) { return ik_vec3_sub(v, ik_vec3_scale(up, ik_vec3_dot(v, up))); }

static ik_result validate(const ik_in_place *job) {
    const ik_foot_contacts *feet = job->feet;
    int p;
    if (job->defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    if (!feet || !feet->paths_ms || !feet->levels || !job->shifted_ms || !job->scratch || !job->stances ||
        !job->count || !job->out)
        return IK_ERR_NULL;
    if (feet->defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    if (feet->frame_count < 2 || job->capacity < 0) return IK_ERR_RANGE;
    if (!ik_finite(job->min_speed) || !ik_finite(job->max_hips_travel) || !ik_finite(job->speed_enter) ||
        !ik_finite(job->speed_exit) || !ik_finite(job->min_duration) || !ik_finite(job->steady_tolerance) ||
        !ik_finite(job->min_steady) || !ik_finite(job->min_cover) || !ik_vec3_finite(feet->up_ms) ||
        !ik_finite(feet->leg_length) || !ik_finite(feet->frame_time) || !ik_finite(feet->height_enter))
        return IK_ERR_NONFINITE;
    for (p = 0; p < IK_FOOT_CONTACT_POINTS; ++p)
        if (!ik_finite(feet->levels[p])) return IK_ERR_NONFINITE;
    if (job->min_speed < 0 || job->max_hips_travel < 0 || job->speed_enter <= 0 || job->speed_enter > job->speed_exit ||
        job->min_duration < 0 || job->steady_tolerance <= 0 || job->min_steady < 0 || job->min_steady > 1 ||
        job->min_cover < 0 || job->min_cover > 1)
        return IK_ERR_RANGE;
    if (ik_vec3_length_sq(feet->up_ms) < (ik_real)1e-12 || feet->leg_length <= 0 || feet->frame_time <= 0)
        return IK_ERR_DEGENERATE;
    return IK_OK;
}

/* First estimate of v: the mean horizontal velocity of every present point
 * over the frame pairs in which it stays on the floor (height above its
 * floor level under height_enter leg lengths, where a contact may begin),
 * v0 = sum (p[f+1] - p[f]) / (n dt).
 * IK_ERR_NONFINITE for a path that is not finite. */
static ik_result first_estimate(const ik_foot_contacts *feet, ik_vec3 up, ik_vec3 *v) {
    ik_vec3 sum = ik_vec3_zero();
    ik_real low = feet->height_enter * feet->leg_length;
    int p, f, n = 0;
    for (f = 0; f < feet->frame_count; ++f)
        for (p = 0; p < IK_FOOT_PATH_POINTS; ++p)
            if (!ik_vec3_finite(path_at(feet, f, p))) return IK_ERR_NONFINITE;
    for (p = 0; p < IK_FOOT_CONTACT_POINTS; ++p) {
        if (!feet->present[p]) continue;
        for (f = 0; f + 1 < feet->frame_count; ++f) {
            ik_vec3 a = path_at(feet, f, p), b = path_at(feet, f + 1, p);
            if (ik_vec3_dot(a, up) - feet->levels[p] >= low || ik_vec3_dot(b, up) - feet->levels[p] >= low) continue;
            sum = ik_vec3_add(sum, horizontal(ik_vec3_sub(b, a), up));
            ++n;
        }
    }
    *v = n ? ik_vec3_scale(sum, (ik_real)1 / ((ik_real)n * feet->frame_time)) : ik_vec3_zero();
    return IK_OK;
}

/* A stance's horizontal move over its frames, p[end] - p[start]. */
static ik_vec3 stance_move(const ik_foot_contacts *feet, const ik_foot_contact *s, ik_vec3 up) {
    return horizontal(ik_vec3_sub(path_at(feet, s->end, s->point), path_at(feet, s->start, s->point)), up);
}

/* The stances under slide velocity v: the foot contacts of the paths seen
 * from a frame moving with v, q(t) = p(t) - v t (heights, and so the floor
 * levels, unchanged), with the speed thresholds speed_enter |v| and
 * speed_exit |v|: a point low and moving within those of v. */
static ik_result stances_under(const ik_in_place *job, ik_vec3 v, int *found) {
    const ik_foot_contacts *feet = job->feet;
    ik_foot_contacts moving = *feet;
    ik_real speed = ik_vec3_length(v);
    int f, p;
    for (f = 0; f < feet->frame_count; ++f) {
        ik_vec3 shift = ik_vec3_scale(v, (ik_real)f * feet->frame_time);
        for (p = 0; p < IK_FOOT_PATH_POINTS; ++p)
            job->shifted_ms[(size_t)f * IK_FOOT_PATH_POINTS + (size_t)p] = ik_vec3_sub(path_at(feet, f, p), shift);
    }
    moving.paths_ms = job->shifted_ms;
    moving.speed_enter = job->speed_enter * speed / feet->leg_length;
    moving.speed_exit = job->speed_exit * speed / feet->leg_length;
    moving.min_duration = job->min_duration;
    moving.scratch = job->scratch;
    moving.contacts = job->stances;
    moving.capacity = job->capacity;
    moving.count = found;
    moving.heights = moving.speeds = moving.levels = NULL;
    return ik_foot_contacts_run(&moving);
}

ik_result ik_in_place_run(const ik_in_place *job) {
    const ik_foot_contacts *feet;
    ik_in_place_cycle cycle;
    ik_vec3 up, v, hips;
    ik_real total = 0, steady = 0, duration;
    int it, i, f, found = 0, legs = 0, covered = 0;
    ik_result r;
    if (!job) return IK_ERR_NULL;
    if (job->count) *job->count = 0;
    r = validate(job);
    if (r != IK_OK) return r;
    feet = job->feet;
    memset(&cycle, 0, sizeof cycle);
    up = ik_vec3_normalize(feet->up_ms);
    r = first_estimate(feet, up, &v);
    if (r != IK_OK) return r;

    /* Refine: stances under v, then v = sum of their moves over the sum of
     * their durations (the stance frames' mean velocity), IN_PLACE_REFINEMENTS
     * times, then the stances under the final v. A speed under min_speed
     * ends it: the feet stand still (or never touch down). Where a leg has a
     * toe joint only its toe's stances measure v: a heel rises about the toes
     * at push-off while still low (ik_walk's heels made the slide 2.8 %
     * slow), the toes stay down. */
    for (it = 0; it <= IN_PLACE_REFINEMENTS; ++it) {
        ik_vec3 move = ik_vec3_zero();
        ik_real time = 0;
        if (ik_vec3_length(v) < job->min_speed * feet->leg_length) break;
        r = stances_under(job, v, &found);
        if (r != IK_OK) {
            *job->count = r == IK_ERR_CAPACITY ? found : 0;
            return r;
        }
        if (found == 0 || it == IN_PLACE_REFINEMENTS) break;
        for (i = 0; i < found; ++i) {
            int point = job->stances[i].point;
            if (!ik_foot_point_is_toe(point) && feet->present[point + 1]) continue;
            move = ik_vec3_add(move, stance_move(feet, &job->stances[i], up));
            time += (ik_real)(job->stances[i].end - job->stances[i].start) * feet->frame_time;
        }
        if (time <= 0) break;
        v = ik_vec3_scale(move, 1 / time);
    }
    cycle.slide_ms = v;
    cycle.speed = ik_vec3_length(v);
    if (cycle.speed < job->min_speed * feet->leg_length) found = 0;

    /* Hips: net horizontal travel |h(hips[N-1] - hips[0])| over (N-1) dt. */
    duration = (ik_real)(feet->frame_count - 1) * feet->frame_time;
    hips =
        horizontal(ik_vec3_sub(path_at(feet, feet->frame_count - 1, IK_FOOT_HIPS), path_at(feet, 0, IK_FOOT_HIPS)), up);
    cycle.hips_speed = ik_vec3_length(hips) / duration;

    /* Steadiness: a stance's mean velocity u = move / time is steady when
     * |u - v| < steady_tolerance |v|; the fraction of stance time steady. */
    for (i = 0; i < found; ++i) {
        const ik_foot_contact *s = &job->stances[i];
        ik_real time = (ik_real)(s->end - s->start) * feet->frame_time;
        cycle.stance_legs |= ik_foot_point_leg(s->point) == IK_LIMB_LEG_L ? 1 : 2;
        if (time <= 0) continue;
        total += time;
        if (ik_vec3_distance(ik_vec3_scale(stance_move(feet, s, up), 1 / time), v) <
            job->steady_tolerance * cycle.speed)
            steady += time;
    }
    cycle.steady = total > 0 ? steady / total : 0;

    /* Cover: the frames inside some stance over all frames (marked in
     * scratch); the legs that must have stances: those with a point. */
    for (f = 0; f < feet->frame_count; ++f) job->scratch[f] = 0;
    for (i = 0; i < found; ++i)
        for (f = job->stances[i].start; f <= job->stances[i].end; ++f) job->scratch[f] = 1;
    for (f = 0; f < feet->frame_count; ++f) covered += job->scratch[f] > 0;
    cycle.cover = (ik_real)covered / (ik_real)feet->frame_count;
    for (i = 0; i < IK_FOOT_CONTACT_POINTS; ++i)
        if (feet->present[i]) legs |= ik_foot_point_leg(i) == IK_LIMB_LEG_L ? 1 : 2;
    cycle.in_place = found >= 2 && cycle.speed >= job->min_speed * feet->leg_length &&
                     cycle.hips_speed <= job->max_hips_travel * cycle.speed && cycle.steady >= job->min_steady &&
                     cycle.stance_legs == legs && cycle.cover >= job->min_cover;
    if (!cycle.in_place) found = 0, cycle.stance_legs = 0;
    if (job->slides)
        for (i = 0; i < found; ++i) job->slides[i] = ik_vec3_length(stance_move(feet, &job->stances[i], up));
    *job->count = found;
    *job->out = cycle;
    return IK_OK;
}

/* Root motion: the mover (topmost ancestor of the hips) gets, in frame f,
 * its translation plus R^-1 (-v t_f), R = root_ms, t_f = f dt: the figure
 * moves by -v t in model space, so a foot sliding at v stands still. */
ik_result ik_in_place_root_motion(const ik_skeleton *skeleton, int hips, const ik_mat4 *root_ms, ik_vec3 slide_ms,
                                  ik_take *take) {
    ik_mat4 root = root_ms ? *root_ms : ik_mat4_identity(), root_inv;
    ik_vec3 slide_ls;
    int mover, f;
    if (!skeleton || !take || !take->poses_ls || !skeleton->parents) return IK_ERR_NULL;
    if (hips < 0 || hips >= skeleton->joint_count || take->joint_count != skeleton->joint_count) return IK_ERR_RANGE;
    if (!ik_vec3_finite(slide_ms) || !ik_finite(take->frame_time)) return IK_ERR_NONFINITE;
    if (!ik_mat4_inverse(&root, &root_inv)) return IK_ERR_DEGENERATE;
    slide_ls = ik_mat4_transform_vector(&root_inv, slide_ms);
    if (!ik_vec3_finite(slide_ls)) return IK_ERR_NONFINITE;
    mover = hips;
    while (skeleton->parents[mover] >= 0) mover = skeleton->parents[mover];
    for (f = 0; f < take->frame_count; ++f) {
        ik_transform *pose = take->poses_ls + (size_t)f * (size_t)take->joint_count;
        pose[mover].translation =
            ik_vec3_sub(pose[mover].translation, ik_vec3_scale(slide_ls, (ik_real)f * take->frame_time));
    }
    return IK_OK;
}

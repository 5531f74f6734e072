/* Foot contacts: per heel and toe, the frames it stands on the floor. */
#include <ikit/foot_contacts.h>

#include <string.h>

const char *ik_foot_point_name(int point) {
    static const char *const names[IK_FOOT_PATH_POINTS] = {"left heel", "left toe", "right heel", "right toe", "hips"};
    return point >= 0 && point < IK_FOOT_PATH_POINTS ? names[point] : "";
}

void ik_foot_point_joints(const ik_humanoid *rig, int joints[IK_FOOT_PATH_POINTS]) {
    joints[IK_FOOT_HEEL_L] = ik_humanoid_limb_foot(&rig->limb[IK_LIMB_LEG_L]);
    joints[IK_FOOT_TOE_L] = rig->limb[IK_LIMB_LEG_L].toe;
    joints[IK_FOOT_HEEL_R] = ik_humanoid_limb_foot(&rig->limb[IK_LIMB_LEG_R]);
    joints[IK_FOOT_TOE_R] = rig->limb[IK_LIMB_LEG_R].toe;
    joints[IK_FOOT_HIPS] = rig->map.joint[IK_ROLE_HIPS];
}

/* p = M_toe 0 (a toe joint), M_foot ball_ls (a virtual toe), M_foot 0 (a heel). */
ik_bool ik_foot_point_position(const ik_humanoid *rig, int point, const ik_mat4 *model_ms, ik_vec3 *out) {
    const ik_humanoid_limb *l = &rig->limb[ik_foot_point_leg(point)];
    int foot = ik_humanoid_limb_foot(l);
    if (foot < 0 || (ik_foot_point_is_toe(point) && l->toe < 0 && l->end < 0)) return 0;
    if (!model_ms || !out) return 1;
    if (!ik_foot_point_is_toe(point))
        *out = ik_mat4_translation(&model_ms[foot]);
    else if (l->toe >= 0)
        *out = ik_mat4_translation(&model_ms[l->toe]);
    else
        *out = ik_mat4_transform_point(&model_ms[foot], l->ball_ls);
    return 1;
}

ik_real ik_foot_leg_length(const ik_humanoid *rig) {
    const ik_humanoid_limb *l = &rig->limb[IK_LIMB_LEG_L], *r = &rig->limb[IK_LIMB_LEG_R];
    return (l->upper_length + l->lower_length + r->upper_length + r->lower_length) * (ik_real)0.5;
}

ik_result ik_foot_paths_record(const ik_skeleton *skeleton, const ik_take *take, const ik_mat4 *root_ms,
                               const int joints[IK_FOOT_PATH_POINTS], ik_mat4 *model_ms, ik_vec3 *paths_ms,
                               int *bad_frame) {
    int f, p;
    if (bad_frame) *bad_frame = -1;
    if (!skeleton || !take || !joints || !model_ms || !paths_ms || !take->poses_ls) return IK_ERR_NULL;
    if (take->joint_count != skeleton->joint_count || take->frame_count < 1) return IK_ERR_RANGE;
    for (p = 0; p < IK_FOOT_PATH_POINTS; ++p)
        if (joints[p] < -1 || joints[p] >= skeleton->joint_count) return IK_ERR_RANGE;
    for (f = 0; f < take->frame_count; ++f) {
        ik_vec3 *row = paths_ms + (size_t)f * IK_FOOT_PATH_POINTS;
        ik_skeleton_fk(skeleton, ik_take_pose(take, f), root_ms, model_ms);
        for (p = 0; p < IK_FOOT_PATH_POINTS; ++p) {
            row[p] = joints[p] >= 0 ? ik_mat4_translation(&model_ms[joints[p]]) : ik_vec3_zero();
            if (!ik_vec3_finite(row[p])) {
                if (bad_frame) *bad_frame = f;
                return IK_ERR_NONFINITE;
            }
        }
    }
    return IK_OK;
}

ik_result ik_foot_paths_record_rig(const ik_humanoid *rig, const ik_take *take, const ik_mat4 *root_ms,
                                   ik_mat4 *model_ms, ik_vec3 *paths_ms, ik_bool *present, int *bad_frame) {
    int f, p, hips;
    if (bad_frame) *bad_frame = -1;
    if (!rig || !rig->skeleton || !take || !model_ms || !paths_ms || !take->poses_ls) return IK_ERR_NULL;
    if (take->joint_count != rig->skeleton->joint_count || take->frame_count < 1) return IK_ERR_RANGE;
    hips = rig->map.joint[IK_ROLE_HIPS];
    for (p = 0; present && p < IK_FOOT_CONTACT_POINTS; ++p) present[p] = ik_foot_point_position(rig, p, NULL, NULL);
    for (f = 0; f < take->frame_count; ++f) {
        ik_vec3 *row = paths_ms + (size_t)f * IK_FOOT_PATH_POINTS;
        ik_skeleton_fk(rig->skeleton, ik_take_pose(take, f), root_ms, model_ms);
        for (p = 0; p < IK_FOOT_CONTACT_POINTS; ++p) {
            row[p] = ik_vec3_zero();
            ik_foot_point_position(rig, p, model_ms, &row[p]);
        }
        row[IK_FOOT_HIPS] = hips >= 0 ? ik_mat4_translation(&model_ms[hips]) : ik_vec3_zero();
        for (p = 0; p < IK_FOOT_PATH_POINTS; ++p)
            if (!ik_vec3_finite(row[p])) {
                if (bad_frame) *bad_frame = f;
                return IK_ERR_NONFINITE;
            }
    }
    return IK_OK;
}

ik_foot_contacts ik_foot_contacts_def(void) {
    ik_foot_contacts job;
    int p;
    memset(&job, 0, sizeof job);
    for (p = 0; p < IK_FOOT_CONTACT_POINTS; ++p) job.present[p] = 1;
    job.up_ms = ik_v3(0, 1, 0);
    job.floor_percentile = (ik_real)0.05;
    job.height_enter = (ik_real)0.04;
    job.height_exit = (ik_real)0.08;
    job.speed_enter = (ik_real)0.3;
    job.speed_exit = (ik_real)0.6;
    job.max_gap = (ik_real)0.05;
    job.min_duration = (ik_real)0.1;
    job.defaulted = IK_JOB_DEFAULTED;
    return job;
}

static ik_vec3 path_at(const ik_foot_contacts *job, int frame, int point) {
    return job->paths_ms[(size_t)frame * IK_FOOT_PATH_POINTS + (size_t)point];
}

static ik_real height_of(const ik_foot_contacts *job, int frame, int point) {
    return ik_vec3_dot(path_at(job, frame, point), job->up_ms);
}

/* The k-th smallest of values [n] (Hoare's selection, in place, no
 * recursion): expected O(n). */
static ik_real select_kth(ik_real *values, int n, int k) {
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        ik_real pivot = values[lo + (hi - lo) / 2];
        int i = lo, j = hi;
        while (i <= j) {
            while (values[i] < pivot) ++i;
            while (values[j] > pivot) --j;
            if (i <= j) {
                ik_real t = values[i];
                values[i] = values[j];
                values[j] = t;
                ++i, --j;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            break;
    }
    return values[k];
}

/* Floor level of a kind of point (0 heels, 1 toes): the floor_percentile
 * quantile of the heights of that kind on both feet. */
static ik_bool kind_level(const ik_foot_contacts *job, int kind, ik_real *level) {
    int n = 0, f, leg;
    for (leg = 0; leg < 2; ++leg) {
        int point = 2 * leg + kind;
        if (!job->present[point]) continue;
        for (f = 0; f < job->frame_count; ++f) job->scratch[n++] = height_of(job, f, point);
    }
    if (n == 0) return 0;
    *level = select_kth(job->scratch, n, (int)(job->floor_percentile * (ik_real)n));
    return 1;
}

/* Speed at a frame: the distance moved between frames f - k and f + k
 * (clamped to the take) over the time between them, with k frames about
 * 1/60 s, so 2k frames span about 1/30 s whatever the frame rate: one
 * frame's tracking noise does not look like motion. */
static ik_real speed_of(const ik_foot_contacts *job, int frame, int point, int k) {
    int a = frame - k < 0 ? 0 : frame - k, b = frame + k >= job->frame_count ? job->frame_count - 1 : frame + k;
    return ik_vec3_distance(path_at(job, b, point), path_at(job, a, point)) / ((ik_real)(b - a) * job->frame_time);
}

static ik_result validate(const ik_foot_contacts *job) {
    int f, p, any = 0;
    if (job->defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    if (!job->paths_ms || !job->scratch || !job->contacts || !job->count) return IK_ERR_NULL;
    if (job->frame_count < 2 || job->capacity < 0) return IK_ERR_RANGE;
    for (p = 0; p < IK_FOOT_CONTACT_POINTS; ++p) any |= job->present[p] != 0;
    if (!any) return IK_ERR_RANGE;
    if (!ik_vec3_finite(job->up_ms) || !ik_finite(job->leg_length) || !ik_finite(job->frame_time) ||
        !ik_finite(job->floor_percentile) || !ik_finite(job->height_enter) || !ik_finite(job->height_exit) ||
        !ik_finite(job->speed_enter) || !ik_finite(job->speed_exit) || !ik_finite(job->max_gap) ||
        !ik_finite(job->min_duration))
        return IK_ERR_NONFINITE;
    if (job->floor_percentile < 0 || job->floor_percentile >= 1 || job->height_enter > job->height_exit ||
        job->speed_enter > job->speed_exit || job->max_gap < 0 || job->min_duration < 0)
        return IK_ERR_RANGE;
    if (ik_vec3_length_sq(job->up_ms) < (ik_real)1e-12 || job->leg_length <= 0 || job->frame_time <= 0)
        return IK_ERR_DEGENERATE;
    for (f = 0; f < job->frame_count; ++f)
        for (p = 0; p < IK_FOOT_PATH_POINTS; ++p)
            if (!ik_vec3_finite(path_at(job, f, p))) return IK_ERR_NONFINITE;
    return IK_OK;
}

/* Upright: in the median frame the hips stand above the lowest contact
 * point by at least a quarter of the leg length. */
static ik_bool upright(const ik_foot_contacts *job) {
    int f, p;
    for (f = 0; f < job->frame_count; ++f) {
        ik_real lowest = height_of(job, f, IK_FOOT_HIPS);
        for (p = 0; p < IK_FOOT_CONTACT_POINTS; ++p)
            if (job->present[p]) lowest = ik_minr(lowest, height_of(job, f, p));
        job->scratch[f] = height_of(job, f, IK_FOOT_HIPS) - lowest;
    }
    return select_kth(job->scratch, job->frame_count, job->frame_count / 2) >= job->leg_length * (ik_real)0.25;
}

/* Add the interval [start, end] of `point` when it lasts min_duration:
 * its planted position is the mean of its path over the interval. */
static void emit(const ik_foot_contacts *job, int point, int start, int end, int *found) {
    ik_foot_contact c;
    ik_vec3 sum = ik_vec3_zero();
    int f;
    if ((ik_real)(end - start + 1) * job->frame_time < job->min_duration) return;
    for (f = start; f <= end; ++f) sum = ik_vec3_add(sum, path_at(job, f, point));
    c.point = point, c.start = start, c.end = end;
    c.planted_ms = ik_vec3_scale(sum, (ik_real)1 / (ik_real)(end - start + 1));
    if (*found < job->capacity) job->contacts[*found] = c;
    ++*found;
}

/* One point's contacts. Hysteresis: outside a contact, entering needs
 * height < height_enter and speed < speed_enter (in leg lengths); inside,
 * it lasts while height < height_exit and speed < speed_exit. Runs closer
 * than max_gap merge; runs shorter than min_duration are dropped. */
static void point_contacts(const ik_foot_contacts *job, int point, ik_real level, int k, int *found) {
    ik_real leg = job->leg_length;
    int f, in = 0, run_start = -1, pending_start = -1, pending_end = -1;
    for (f = 0; f <= job->frame_count; ++f) {
        ik_bool now = 0;
        if (f < job->frame_count) {
            ik_real h = height_of(job, f, point) - level, v = speed_of(job, f, point, k);
            now = in ? h < job->height_exit * leg && v < job->speed_exit * leg
                     : h < job->height_enter * leg && v < job->speed_enter * leg;
        }
        if (now && !in) run_start = f;
        if (!now && in) {
            if (pending_start >= 0 && (ik_real)(run_start - pending_end - 1) * job->frame_time < job->max_gap) {
                pending_end = f - 1;
            } else {
                if (pending_start >= 0) emit(job, point, pending_start, pending_end, found);
                pending_start = run_start, pending_end = f - 1;
            }
        }
        in = now;
    }
    if (pending_start >= 0) emit(job, point, pending_start, pending_end, found);
}

static void sort_by_start(ik_foot_contact *c, int n) {
    int i, j;
    for (i = 1; i < n; ++i) {
        ik_foot_contact x = c[i];
        for (j = i; j > 0 && (c[j - 1].start > x.start || (c[j - 1].start == x.start && c[j - 1].point > x.point)); --j)
            c[j] = c[j - 1];
        c[j] = x;
    }
}

ik_result ik_foot_contacts_run(const ik_foot_contacts *job) {
    ik_foot_contacts j;
    ik_real level[IK_FOOT_CONTACT_POINTS], kind[2];
    ik_bool has_kind[2];
    int p, f, k, found = 0;
    ik_result r;
    if (!job) return IK_ERR_NULL;
    if (job->count) *job->count = 0;
    r = validate(job);
    if (r != IK_OK) return r;
    j = *job;
    j.up_ms = ik_vec3_normalize(job->up_ms);
    if (!upright(&j)) return IK_ERR_UNSUPPORTED;
    has_kind[0] = kind_level(&j, 0, &kind[0]);
    has_kind[1] = kind_level(&j, 1, &kind[1]);
    for (p = 0; p < IK_FOOT_CONTACT_POINTS; ++p) level[p] = has_kind[p & 1] ? kind[p & 1] : 0;
    k = (int)(1 / (60 * j.frame_time) + (ik_real)0.5);
    if (k < 1) k = 1;
    for (p = 0; p < IK_FOOT_CONTACT_POINTS; ++p)
        if (j.present[p]) point_contacts(&j, p, level[p], k, &found);
    *job->count = found;
    if (found > job->capacity) return IK_ERR_CAPACITY;
    sort_by_start(job->contacts, found);
    if (job->levels) memcpy(job->levels, level, sizeof level);
    if (job->heights || job->speeds)
        for (f = 0; f < j.frame_count; ++f)
            for (p = 0; p < IK_FOOT_CONTACT_POINTS; ++p) {
                size_t at = (size_t)f * IK_FOOT_CONTACT_POINTS + (size_t)p;
                if (job->heights) job->heights[at] = j.present[p] ? height_of(&j, f, p) - level[p] : 0;
                if (job->speeds) job->speeds[at] = j.present[p] ? speed_of(&j, f, p, k) : 0;
            }
    return IK_OK;
}

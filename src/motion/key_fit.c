/* Fitting keys with cubic Hermite tangents to a take by greedy insertion,
 * the error measured in model space. See key_fit.h for the method. */
#include <ikit/key_fit.h>

#include <string.h>

#include "key_curves.h"

/* Every varying channel starts with a key every this many frames (besides
 * the first, last and forced ones): insertion then starts from segments
 * that are nearly within E instead of splitting the whole take again and
 * again, and the pruning sweep drops the seed keys that are not needed.
 * Measured on the CMU takes at 1 mm (spacing: keys of 01_01, its time):
 * none: 13,675, 780 ms; 32: 13,655, 350 ms; 16: 13,471, 330 ms;
 * 8: 13,076, 324 ms; 4: 13,459, 446 ms. */
#define SEED_KEY_SPACING 8

ik_key_fit ik_key_fit_def(void) {
    ik_key_fit job;
    memset(&job, 0, sizeof job);
    job.max_error = (ik_real)1e-3;
    job.point_offset = (ik_real)0.05;
    job.sharing = IK_KEY_SHARE_AUTO;
    job.defaulted = IK_JOB_DEFAULTED;
    return job;
}

ik_key_fit_size ik_key_fit_size_of(const ik_take *take) {
    ik_key_fit_size size;
    ik_take_clip_size linear = ik_take_clip_size_of(take);
    size.channel_count = linear.channel_count;
    size.time_count = linear.channel_count > 0 ? 2 + (size_t)take->joint_count * (size_t)take->frame_count : 0;
    size.value_count = 3 * linear.value_count;
    return size;
}

/* The fitter's working state, all in the caller's scratch. Per frame f and
 * joint j (frame-major): the fitted local pose, its model matrix and the
 * largest distance of j's points from the take's; per joint (joint-major)
 * a key flag per frame. */
typedef struct fit_state {
    const ik_key_fit *job;
    int frames, joints;
    ik_real dt;
    ik_real target;           /* E less the rounding of a point's position (see ik_key_fit_run) */
    ik_real *curves;          /* [joints * IK_KEY_CURVES * frames] */
    ik_vec3 *want;            /* [frames * joints * IK_KEY_POINTS] the take's points */
    ik_transform *fit_pose;   /* [frames * joints] */
    ik_mat4 *fit_model;       /* [frames * joints] */
    ik_real *err_joint;       /* [frames * joints] */
    ik_real *err_frame;       /* [frames] */
    unsigned *varying;        /* [joints] mask of varying channel paths */
    unsigned char *is_key;    /* [joints * frames] */
    unsigned char *saved_key; /* [joints * frames] AUTO's first fit */
    unsigned char *subtree;   /* [joints] */
} fit_state;

static size_t state_bytes(int frames, int joints, fit_state *s, void *scratch) {
    size_t fj = (size_t)frames * (size_t)joints;
    size_t sizes[11];
    unsigned char *at = (unsigned char *)scratch;
    size_t total = 0;
    int i;
    sizes[0] = fj * IK_KEY_CURVES * sizeof(ik_real);
    sizes[1] = fj * IK_KEY_POINTS * sizeof(ik_vec3);
    sizes[2] = fj * sizeof(ik_transform);
    sizes[3] = fj * sizeof(ik_mat4);
    sizes[4] = fj * sizeof(ik_real);
    sizes[5] = (size_t)frames * sizeof(ik_real);
    sizes[6] = (size_t)joints * sizeof(unsigned);
    sizes[7] = fj;
    sizes[8] = fj;
    sizes[9] = (size_t)joints;
    sizes[10] = 0;
    for (i = 0; i < 10; ++i) total += ik_key_round(sizes[i]);
    if (s) {
        s->curves = (ik_real *)ik_key_carve(&at, sizes[0]);
        s->want = (ik_vec3 *)ik_key_carve(&at, sizes[1]);
        s->fit_pose = (ik_transform *)ik_key_carve(&at, sizes[2]);
        s->fit_model = (ik_mat4 *)ik_key_carve(&at, sizes[3]);
        s->err_joint = (ik_real *)ik_key_carve(&at, sizes[4]);
        s->err_frame = (ik_real *)ik_key_carve(&at, sizes[5]);
        s->varying = (unsigned *)ik_key_carve(&at, sizes[6]);
        s->is_key = (unsigned char *)ik_key_carve(&at, sizes[7]);
        s->saved_key = (unsigned char *)ik_key_carve(&at, sizes[8]);
        s->subtree = (unsigned char *)ik_key_carve(&at, sizes[9]);
    }
    return total;
}

size_t ik_key_fit_scratch_size(int frame_count, int joint_count) {
    if (frame_count < 1 || joint_count < 1) return 0;
    return state_bytes(frame_count, joint_count, NULL, NULL);
}

static ik_real frame_time_of(const fit_state *s, int f) { return (ik_real)f * s->dt; }

static const ik_real *curve(const fit_state *s, int joint, int k) {
    return s->curves + ((size_t)joint * IK_KEY_CURVES + (size_t)k) * (size_t)s->frames;
}

/* The tangents (per second) of channel `path` of `joint` on the segment
 * between key frames a and b: out_a leaves a, in_b arrives at b. */
static void segment_tangents(const fit_state *s, int joint, ik_channel_path path, int a, int b, ik_real *out_a,
                             ik_real *in_b) {
    ik_key_basis_sums sums = ik_key_basis_sums_of(b - a);
    ik_real d = frame_time_of(s, b) - frame_time_of(s, a);
    int width = ik_channel_width(path), first = ik_key_path_curve(path), i;
    for (i = 0; i < width; ++i) {
        ik_real x0, x1;
        ik_key_segment_fit(&sums, curve(s, joint, first + i), a, b, &x0, &x1);
        out_a[i] = x0 / d;
        in_b[i] = x1 / d;
    }
}

static void set_path(ik_transform *t, ik_channel_path path, const ik_real *v) {
    if (path == IK_CHANNEL_TRANSLATION)
        t->translation = ik_v3(v[0], v[1], v[2]);
    else if (path == IK_CHANNEL_ROTATION)
        t->rotation = ik_q(v[0], v[1], v[2], v[3]);
    else
        t->scale = ik_v3(v[0], v[1], v[2]);
}

/* Fit the segment a..b of every varying channel of `joint` and write the
 * fitted values of the frames strictly between, sampled exactly as a clip
 * is (ik_channel_sample on the segment's two keys). */
static void fit_segment(fit_state *s, int joint, int a, int b) {
    int path, f, i;
    for (path = IK_CHANNEL_TRANSLATION; path <= IK_CHANNEL_SCALE; ++path) {
        ik_channel ch;
        ik_real times[2], values[24], v[4];
        int width = ik_channel_width((ik_channel_path)path), first = ik_key_path_curve((ik_channel_path)path);
        if (!(s->varying[joint] & (1u << path))) continue;
        /* keys laid out (in-tangent, value, out-tangent) */
        segment_tangents(s, joint, (ik_channel_path)path, a, b, values + 2 * width, values + 3 * width);
        for (i = 0; i < width; ++i) {
            values[i] = values[2 * width + i];
            values[width + i] = curve(s, joint, first + i)[a];
            values[4 * width + i] = curve(s, joint, first + i)[b];
            values[5 * width + i] = values[3 * width + i];
        }
        times[0] = frame_time_of(s, a);
        times[1] = frame_time_of(s, b);
        ch.joint = joint;
        ch.path = (ik_channel_path)path;
        ch.interpolation = IK_INTERP_CUBICSPLINE;
        ch.key_count = 2;
        ch.times = times;
        ch.values = values;
        for (f = a + 1; f < b; ++f) {
            ik_channel_sample(&ch, frame_time_of(s, f), v);
            set_path(&s->fit_pose[(size_t)f * (size_t)s->joints + (size_t)joint], (ik_channel_path)path, v);
        }
    }
}

/* Forward kinematics and errors of frames lo..hi for `root`'s subtree
 * (every joint when root < 0). With a `limit` >= 0 it stops at the first
 * frame whose error passes it and returns 0 (the frames from there on are
 * stale: the caller puts the key back, which updates them); else 1. */
static ik_bool update_frames(fit_state *s, int lo, int hi, int root, ik_real limit) {
    const ik_skeleton *sk = s->job->skeleton;
    int J = s->joints, start = root < 0 ? 0 : root, f, k;
    for (k = 0; k < J; ++k)
        s->subtree[k] =
            (unsigned char)(root < 0 || k == root || (k > root && sk->parents[k] >= 0 && s->subtree[sk->parents[k]]));
    for (f = lo; f <= hi; ++f) {
        ik_transform *pose = s->fit_pose + (size_t)f * (size_t)J;
        ik_mat4 *model = s->fit_model + (size_t)f * (size_t)J;
        ik_real *err = s->err_joint + (size_t)f * (size_t)J, worst = 0;
        for (k = start; k < J; ++k) {
            if (!s->subtree[k]) continue;
            ik_skeleton_fk_joint(sk, k, pose, s->job->root_ms, model);
            err[k] = ik_key_joint_error(model, k, s->job->point_offset,
                                        s->want + ((size_t)f * (size_t)J + (size_t)k) * IK_KEY_POINTS, NULL);
        }
        for (k = 0; k < J; ++k) worst = ik_maxr(worst, err[k]);
        s->err_frame[f] = worst;
        if (limit >= 0 && worst > limit) return 0;
    }
    return 1;
}

static int key_before(const fit_state *s, int joint, int f) {
    const unsigned char *keys = s->is_key + (size_t)joint * (size_t)s->frames;
    while (!keys[--f]) {
    }
    return f;
}

static int key_after(const fit_state *s, int joint, int f) {
    const unsigned char *keys = s->is_key + (size_t)joint * (size_t)s->frames;
    while (!keys[++f]) {
    }
    return f;
}

/* Key frame f in `joint`'s channels and refit the two segments it splits;
 * the frames they cover in *lo..*hi. */
static void insert_key(fit_state *s, int joint, int f, int *lo, int *hi) {
    int a = key_before(s, joint, f), b = key_after(s, joint, f);
    s->is_key[(size_t)joint * (size_t)s->frames + (size_t)f] = 1;
    s->fit_pose[(size_t)f * (size_t)s->joints + (size_t)joint] = ik_take_pose(s->job->take, f)[joint];
    fit_segment(s, joint, a, f);
    fit_segment(s, joint, f, b);
    *lo = a + 1 < *lo ? a + 1 : *lo;
    *hi = b - 1 > *hi ? b - 1 : *hi;
}

/* How far joint a's fitting error at frame f moves `point_ms`: its
 * translation error seen through the parent, plus its rotation error angle
 * (and scale error) times the point's distance from the joint. */
static ik_real blame(const fit_state *s, int a, int f, ik_vec3 point_ms) {
    const ik_transform *fit = &s->fit_pose[(size_t)f * (size_t)s->joints + (size_t)a];
    const ik_transform *take = &ik_take_pose(s->job->take, f)[a];
    const ik_mat4 *model = s->fit_model + (size_t)f * (size_t)s->joints;
    int parent = s->job->skeleton->parents[a];
    ik_vec3 move = ik_vec3_sub(fit->translation, take->translation);
    ik_real reach = ik_vec3_distance(point_ms, ik_mat4_translation(&model[a]));
    ik_real angle = 2 * ik_acos_safe(IK_FABS(ik_quat_dot(fit->rotation, take->rotation)));
    ik_real stretch = ik_vec3_length(ik_vec3_sub(fit->scale, take->scale));
    if (parent >= 0)
        move = ik_mat4_transform_vector(&model[parent], move);
    else if (s->job->root_ms)
        move = ik_mat4_transform_vector(s->job->root_ms, move);
    return ik_vec3_length(move) + (angle + stretch) * reach;
}

/* Unkey frame f in `joint`'s channels and refit the segment it joined;
 * the frames it covers in *lo..*hi. */
static void remove_key(fit_state *s, int joint, int f, int *lo, int *hi) {
    int a = key_before(s, joint, f), b = key_after(s, joint, f);
    s->is_key[(size_t)joint * (size_t)s->frames + (size_t)f] = 0;
    fit_segment(s, joint, a, b);
    *lo = a + 1 < *lo ? a + 1 : *lo;
    *hi = b - 1 > *hi ? b - 1 : *hi;
}

/* Greedy insertion places each key where the error was largest at the
 * time; later keys often make earlier ones unneeded. One sweep (joints
 * from the leaves up, keys in time order) drops every key whose removal
 * keeps all frames of the merged segment within E, and puts the others
 * back. */
static void prune_keys(fit_state *s, ik_bool shared) {
    const ik_key_fit *job = s->job;
    int F = s->frames, J = s->joints, n, f, i;
    for (n = 0; n < J; ++n) {
        /* shared keys: the first varying joint's stand for all */
        int j = shared ? n : J - 1 - n;
        unsigned char *keys = s->is_key + (size_t)j * (size_t)F;
        if (!s->varying[j]) continue;
        for (f = 1; f < F - 1; ++f) {
            int lo = F, hi = -1, forced = 0, k;
            if (!keys[f]) continue;
            for (i = 0; i < job->forced_count; ++i) forced |= job->forced_frames[i] == f;
            if (forced) continue;
            for (k = shared ? 0 : j; k <= (shared ? J - 1 : j); ++k)
                if (s->varying[k]) remove_key(s, k, f, &lo, &hi);
            if (update_frames(s, lo, hi, shared ? -1 : j, s->target)) continue;
            lo = F, hi = -1;
            for (k = shared ? 0 : j; k <= (shared ? J - 1 : j); ++k)
                if (s->varying[k]) insert_key(s, k, f, &lo, &hi);
            update_frames(s, lo, hi, shared ? -1 : j, -1);
        }
        if (shared) return;
    }
}

/* Greedy insertion until every frame is within E (see key_fit.h). With
 * `shared` every varying joint is keyed at the chosen frame. */
static ik_result fit_keys(fit_state *s, ik_bool shared) {
    const ik_key_fit *job = s->job;
    const int *parents = job->skeleton->parents;
    int F = s->frames, J = s->joints, f, j, i;
    memset(s->is_key, 0, (size_t)F * (size_t)J);
    memcpy(s->fit_pose, job->take->poses_ls, (size_t)F * (size_t)J * sizeof *s->fit_pose);
    for (j = 0; j < J; ++j) {
        unsigned char *keys = s->is_key + (size_t)j * (size_t)F;
        int a = 0;
        if (!s->varying[j]) continue;
        keys[0] = keys[F - 1] = 1;
        for (f = SEED_KEY_SPACING; f < F - 1; f += SEED_KEY_SPACING) keys[f] = 1;
        for (i = 0; i < job->forced_count; ++i) keys[job->forced_frames[i]] = 1;
        for (f = 1; f < F; ++f)
            if (keys[f]) {
                fit_segment(s, j, a, f);
                a = f;
            }
    }
    update_frames(s, 0, F - 1, -1, -1);
    for (;;) {
        int worst = 0, q = 0, point = 0, best = -1, lo = F, hi = -1;
        ik_real best_blame = -1;
        ik_vec3 at;
        for (f = 1; f < F; ++f)
            if (s->err_frame[f] > s->err_frame[worst]) worst = f;
        if (!(s->err_frame[worst] > s->target)) {
            prune_keys(s, shared);
            return IK_OK;
        }
        for (j = 1; j < J; ++j)
            if (s->err_joint[(size_t)worst * (size_t)J + (size_t)j] >
                s->err_joint[(size_t)worst * (size_t)J + (size_t)q])
                q = j;
        ik_key_joint_error(s->fit_model + (size_t)worst * (size_t)J, q, job->point_offset,
                           s->want + ((size_t)worst * (size_t)J + (size_t)q) * IK_KEY_POINTS, &point);
        at = s->want[((size_t)worst * (size_t)J + (size_t)q) * IK_KEY_POINTS + (size_t)point];
        for (j = q; j >= 0; j = parents[j]) {
            ik_real b;
            if (!s->varying[j] || s->is_key[(size_t)j * (size_t)F + (size_t)worst]) continue;
            b = blame(s, j, worst, at);
            if (b > best_blame) best_blame = b, best = j;
        }
        /* every joint above the worst point keyed there: only rounding is left */
        if (best < 0) return IK_ERR_RANGE;
        if (!shared) {
            insert_key(s, best, worst, &lo, &hi);
            update_frames(s, lo, hi, best, -1);
            continue;
        }
        for (j = 0; j < J; ++j)
            if (s->varying[j]) insert_key(s, j, worst, &lo, &hi);
        update_frames(s, lo, hi, -1, -1);
    }
}

static int channel_count_of(const fit_state *s, int joint) {
    return ik_key_scale_written(s->curves, s->frames, joint) ? 3 : 2;
}

static int joint_key_count(const fit_state *s, int joint) {
    const unsigned char *keys = s->is_key + (size_t)joint * (size_t)s->frames;
    int f, n = 0;
    for (f = 0; f < s->frames; ++f) n += keys[f];
    return n;
}

/* Numbers the clip stores: a time per entry of each time array (the shared
 * two-key array of constant channels, one per varying joint or one for the
 * skeleton), and (in-tangent, value, out-tangent) per channel key. */
static long stored_numbers(const fit_state *s, ik_bool shared) {
    long total = 2, shared_keys = 0;
    int j, path;
    for (j = 0; j < s->joints; ++j) {
        int keys = joint_key_count(s, j);
        for (path = 0; path < channel_count_of(s, j); ++path)
            total += 3L * ik_channel_width((ik_channel_path)path) * (s->varying[j] & (1u << path) ? keys : 2);
        if (!s->varying[j]) continue;
        if (shared)
            shared_keys = keys;
        else
            total += keys;
    }
    return total + shared_keys;
}

/* The clip of the fitted keys in the job's buffers. */
static void write_clip(const fit_state *s, ik_bool shared) {
    const ik_key_fit *job = s->job;
    int F = s->frames, J = s->joints, j, f, c = 0;
    ik_real *times = job->times, *values = job->values, *shared_times = NULL;
    const ik_real *joint_times = NULL;
    times[0] = 0;
    times[1] = frame_time_of(s, F - 1);
    times += 2;
    for (j = 0; j < J; ++j) {
        const unsigned char *keys = s->is_key + (size_t)j * (size_t)F;
        int path, key_count = joint_key_count(s, j);
        if (s->varying[j] && (!shared || !shared_times)) {
            joint_times = times;
            for (f = 0; f < F; ++f)
                if (keys[f]) *times++ = frame_time_of(s, f);
            if (shared) shared_times = (ik_real *)joint_times;
        } else if (s->varying[j]) {
            joint_times = shared_times;
        }
        for (path = 0; path < channel_count_of(s, j); ++path) {
            ik_channel *ch = &job->channels[c++];
            int width = ik_channel_width((ik_channel_path)path), first = ik_key_path_curve((ik_channel_path)path);
            int i, a = -1;
            ch->joint = j;
            ch->path = (ik_channel_path)path;
            ch->interpolation = IK_INTERP_CUBICSPLINE;
            ch->values = values;
            if (!(s->varying[j] & (1u << path))) {
                /* constant: two keys, flat tangents */
                ch->key_count = 2;
                ch->times = job->times;
                for (i = 0; i < 6 * width; ++i) values[i] = 0;
                for (i = 0; i < width; ++i) values[width + i] = values[4 * width + i] = curve(s, j, first + i)[0];
                values += 6 * width;
                continue;
            }
            ch->key_count = key_count;
            ch->times = joint_times;
            /* key (in, value, out); the segment a..f sets a's out and f's in */
            for (f = 0; f < F; ++f) {
                if (!keys[f]) continue;
                for (i = 0; i < width; ++i) values[width + i] = curve(s, j, first + i)[f];
                if (a >= 0) segment_tangents(s, j, (ik_channel_path)path, a, f, values - width, values);
                a = f;
                values += 3 * width;
            }
            /* the ends' unused outer tangents repeat their inner ones */
            for (i = 0; i < width; ++i) {
                ik_real *begin = (ik_real *)ch->values, *end = values - 3 * width;
                begin[i] = begin[2 * width + i];
                end[2 * width + i] = end[i];
            }
        }
    }
    job->clip->name = job->clip_name;
    job->clip->duration = frame_time_of(s, F - 1);
    job->clip->channel_count = c;
    job->clip->channels = job->channels;
}

/* Sample the written clip at every frame (from identity transforms: every
 * joint has a translation and rotation channel, and a scale channel where
 * the take's scale is not 1) and measure it against the take's points. */
static void measure(const fit_state *s, ik_key_fit_stats *stats) {
    const ik_key_fit *job = s->job;
    int F = s->frames, J = s->joints, f, j, c;
    ik_transform *pose = s->fit_pose;
    ik_mat4 *model = s->fit_model;
    double sum = 0;
    stats->max_error = 0;
    stats->worst_frame = 0;
    for (f = 0; f < F; ++f) {
        for (j = 0; j < J; ++j) pose[j] = ik_transform_identity();
        ik_clip_sample(job->clip, frame_time_of(s, f), pose);
        ik_skeleton_fk(job->skeleton, pose, job->root_ms, model);
        for (j = 0; j < J; ++j) {
            const ik_vec3 *want = s->want + ((size_t)f * (size_t)J + (size_t)j) * IK_KEY_POINTS;
            int p;
            for (p = 0; p < IK_KEY_POINTS; ++p) {
                ik_vec3 at_ms = ik_mat4_transform_point(&model[j], ik_key_point_ls(p, job->point_offset));
                ik_real e = ik_vec3_distance(at_ms, want[p]);
                sum += (double)e;
                if (e > stats->max_error) stats->max_error = e, stats->worst_frame = f;
            }
        }
    }
    stats->mean_error = (ik_real)(sum / ((double)F * (double)J * IK_KEY_POINTS));
    stats->frame_count = F;
    stats->channel_count = job->clip->channel_count;
    stats->key_count = stats->curve_key_count = 0;
    stats->curve_count = 0;
    for (c = 0; c < job->clip->channel_count; ++c) {
        const ik_channel *ch = &job->clip->channels[c];
        stats->key_count += ch->key_count;
        stats->curve_key_count += (long)ch->key_count * ik_channel_width(ch->path);
        stats->curve_count += ik_channel_width(ch->path);
    }
    stats->tolerance = 0;
}

ik_result ik_key_fit_run(const ik_key_fit *job) {
    fit_state s;
    ik_key_fit_stats stats;
    ik_result r;
    ik_bool shared;
    int j;
    if (!job) return IK_ERR_NULL;
    r = ik_key_fit_validate(job,
                            job->take ? ik_key_fit_scratch_size(job->take->frame_count, job->take->joint_count) : 0);
    if (r != IK_OK) return r;
    if (!job->channels || !job->times || !job->values || !job->clip) return IK_ERR_NULL;
    if ((int)job->sharing < IK_KEY_SHARE_AUTO || (int)job->sharing > IK_KEY_SHARE_SKELETON) return IK_ERR_RANGE;
    memset(&s, 0, sizeof s);
    s.job = job;
    s.frames = job->take->frame_count;
    s.joints = job->take->joint_count;
    s.dt = job->take->frame_time;
    state_bytes(s.frames, s.joints, &s, job->scratch);
    ik_key_curves_extract(job->take, s.curves);
    for (j = 0; j < s.joints; ++j) s.varying[j] = ik_key_channels_varying(s.curves, s.frames, j);
    ik_key_take_points(job, s.fit_model, s.want);
    /* The search measures points as o + r c_k; sampling the clip and FK
     * elsewhere round differently, by a few units in the last place of the
     * largest coordinate: the search stops that much inside E. */
    {
        ik_real largest = 0;
        size_t i, n = (size_t)s.frames * (size_t)s.joints * IK_KEY_POINTS;
        for (i = 0; i < n; ++i)
            largest =
                ik_maxr(largest, ik_maxr(IK_FABS(s.want[i].x), ik_maxr(IK_FABS(s.want[i].y), IK_FABS(s.want[i].z))));
        s.target = job->max_error - 16 * IK_REAL_EPSILON * largest;
        if (!(s.target > 0)) return IK_ERR_RANGE;
    }
    shared = job->sharing == IK_KEY_SHARE_SKELETON;
    if ((r = fit_keys(&s, shared)) != IK_OK) return r;
    if (job->sharing == IK_KEY_SHARE_AUTO) {
        long joint_cost = stored_numbers(&s, 0);
        memcpy(s.saved_key, s.is_key, (size_t)s.frames * (size_t)s.joints);
        if ((r = fit_keys(&s, 1)) != IK_OK) return r;
        shared = stored_numbers(&s, 1) < joint_cost;
        if (!shared) memcpy(s.is_key, s.saved_key, (size_t)s.frames * (size_t)s.joints);
    }
    write_clip(&s, shared);
    measure(&s, &stats);
    stats.stored_numbers = stored_numbers(&s, shared);
    stats.sharing = shared ? IK_KEY_SHARE_SKELETON : IK_KEY_SHARE_JOINT;
    if (job->stats) *job->stats = stats;
    return IK_OK;
}

/* The comparison for key fitting: per-curve greedy key removal, the way
 * Blender's F-curve decimate works (remove the key whose removal changes
 * its curve least, refit, repeat while the change stays under a
 * tolerance), with the tolerance searched for the fewest keys whose
 * model-space error stays within E. See key_fit.h. */
#include <ikit/key_fit.h>

#include <string.h>

#include "key_curves.h"

typedef struct decimate_state {
    const ik_key_fit *job;
    int frames, joints;
    ik_real *curves;     /* [joints * IK_KEY_CURVES * frames] */
    ik_real *fitted;     /* the same layout: the decimated curves sampled at every frame */
    ik_vec3 *want;       /* [frames * joints * IK_KEY_POINTS] */
    ik_real *reach;      /* [joints] farthest point of a joint's subtree from it, frame 0 */
    ik_transform *pose;  /* [joints] */
    ik_mat4 *model;      /* [joints] */
    ik_real *cost;       /* [frames] what removing a key would change */
    int *prev, *next;    /* [frames] the linked list of kept keys */
    int *heap, *heap_at; /* [frames] a min-heap of removable keys by cost, and each key's place (-1: none) */
    int heap_size;
    unsigned char *pinned; /* [frames] first, last and forced frames: never removed */
    unsigned char *marks;  /* [frames] a channel's key frames (union of its curves') */
} decimate_state;

static size_t state_bytes(int frames, int joints, decimate_state *s, void *scratch) {
    size_t fj = (size_t)frames * (size_t)joints, F = (size_t)frames;
    size_t sizes[13];
    unsigned char *at = (unsigned char *)scratch;
    size_t total = 0;
    int i;
    sizes[0] = fj * IK_KEY_CURVES * sizeof(ik_real);
    sizes[1] = sizes[0];
    sizes[2] = fj * IK_KEY_POINTS * sizeof(ik_vec3);
    sizes[3] = (size_t)joints * sizeof(ik_real);
    sizes[4] = (size_t)joints * sizeof(ik_transform);
    sizes[5] = (size_t)joints * sizeof(ik_mat4);
    sizes[6] = F * sizeof(ik_real);
    sizes[7] = sizes[8] = sizes[9] = sizes[10] = F * sizeof(int);
    sizes[11] = sizes[12] = F;
    for (i = 0; i < 13; ++i) total += ik_key_round(sizes[i]);
    if (s) {
        s->curves = (ik_real *)ik_key_carve(&at, sizes[0]);
        s->fitted = (ik_real *)ik_key_carve(&at, sizes[1]);
        s->want = (ik_vec3 *)ik_key_carve(&at, sizes[2]);
        s->reach = (ik_real *)ik_key_carve(&at, sizes[3]);
        s->pose = (ik_transform *)ik_key_carve(&at, sizes[4]);
        s->model = (ik_mat4 *)ik_key_carve(&at, sizes[5]);
        s->cost = (ik_real *)ik_key_carve(&at, sizes[6]);
        s->prev = (int *)ik_key_carve(&at, sizes[7]);
        s->next = (int *)ik_key_carve(&at, sizes[8]);
        s->heap = (int *)ik_key_carve(&at, sizes[9]);
        s->heap_at = (int *)ik_key_carve(&at, sizes[10]);
        s->pinned = (unsigned char *)ik_key_carve(&at, sizes[11]);
        s->marks = (unsigned char *)ik_key_carve(&at, sizes[12]);
    }
    return total;
}

size_t ik_key_decimate_scratch_size(int frame_count, int joint_count) {
    if (frame_count < 1 || joint_count < 1) return 0;
    return state_bytes(frame_count, joint_count, NULL, NULL);
}

/* ---- the min-heap of removal costs ---- */

static void heap_swap(decimate_state *s, int i, int j) {
    int a = s->heap[i], b = s->heap[j];
    s->heap[i] = b, s->heap[j] = a;
    s->heap_at[b] = i, s->heap_at[a] = j;
}

static void heap_fix(decimate_state *s, int i) {
    for (; i > 0 && s->cost[s->heap[i]] < s->cost[s->heap[(i - 1) / 2]]; i = (i - 1) / 2) heap_swap(s, i, (i - 1) / 2);
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < s->heap_size && s->cost[s->heap[l]] < s->cost[s->heap[m]]) m = l;
        if (r < s->heap_size && s->cost[s->heap[r]] < s->cost[s->heap[m]]) m = r;
        if (m == i) return;
        heap_swap(s, i, m);
        i = m;
    }
}

static void heap_remove(decimate_state *s, int key) {
    int i = s->heap_at[key];
    s->heap_at[key] = -1;
    if (--s->heap_size == i) return;
    s->heap[i] = s->heap[s->heap_size];
    s->heap_at[s->heap[i]] = i;
    heap_fix(s, i);
}

/* The largest change to curve y on the frames between keys a and b when
 * they become one Hermite segment with least-squares tangents; the count
 * stops past `tol` (such a key stays). */
static ik_real merged_change(const ik_real *y, int a, int b, ik_real tol) {
    ik_key_basis_sums sums = ik_key_basis_sums_of(b - a);
    ik_real x0, x1, worst = 0;
    int f;
    ik_key_segment_fit(&sums, y, a, b, &x0, &x1);
    for (f = a + 1; f < b && worst <= tol; ++f)
        worst = ik_maxr(worst, IK_FABS(ik_key_hermite(y[a], y[b], x0, x1, (ik_real)(f - a) / (ik_real)(b - a)) - y[f]));
    return worst;
}

/* Decimate curve y at tolerance `tol`, sample the result into `out` and
 * return its key count; the kept keys stay linked in prev/next from frame 0. */
static int decimate_curve(decimate_state *s, const ik_real *y, ik_real tol, ik_real *out) {
    int F = s->frames, f, keys = F, last = 0;
    ik_bool constant = 1;
    for (f = 1; f < F && constant; ++f) constant = y[f] == y[0];
    s->heap_size = 0;
    for (f = 0; f < F; ++f) {
        s->prev[f] = f - 1;
        s->next[f] = f + 1;
        s->heap_at[f] = -1;
    }
    /* a constant curve keeps only its pinned keys (what removing one by one gives) */
    if (constant) {
        for (f = 1; f < F; ++f) {
            if (!s->pinned[f]) {
                --keys;
                continue;
            }
            s->next[last] = f;
            s->prev[f] = last;
            last = f;
        }
    }
    for (f = 0; f < F && !constant; ++f) {
        if (s->pinned[f] || (s->cost[f] = merged_change(y, f - 1, f + 1, tol)) > tol) continue;
        s->heap[s->heap_size] = f;
        s->heap_at[f] = s->heap_size++;
    }
    for (f = s->heap_size / 2; f >= 0; --f) heap_fix(s, f);
    /* remove the cheapest key while it changes the curve by at most tol;
     * its neighbours' costs change with the longer segment */
    while (s->heap_size > 0) {
        int k = s->heap[0], a = s->prev[k], b = s->next[k];
        heap_remove(s, k);
        s->next[a] = b;
        s->prev[b] = a;
        --keys;
        /* a neighbour past tol stays a key (a longer segment rarely fits better) */
        if (s->heap_at[a] >= 0) {
            s->cost[a] = merged_change(y, s->prev[a], b, tol);
            if (s->cost[a] > tol)
                heap_remove(s, a);
            else
                heap_fix(s, s->heap_at[a]);
        }
        if (s->heap_at[b] >= 0) {
            s->cost[b] = merged_change(y, a, s->next[b], tol);
            if (s->cost[b] > tol)
                heap_remove(s, b);
            else
                heap_fix(s, s->heap_at[b]);
        }
    }
    for (f = 0; f < F - 1; f = s->next[f]) {
        int b = s->next[f], g;
        ik_key_basis_sums sums = ik_key_basis_sums_of(b - f);
        ik_real x0, x1;
        ik_key_segment_fit(&sums, y, f, b, &x0, &x1);
        out[f] = y[f];
        for (g = f + 1; g < b; ++g) out[g] = ik_key_hermite(y[f], y[b], x0, x1, (ik_real)(g - f) / (ik_real)(b - f));
    }
    out[F - 1] = y[F - 1];
    return keys;
}

/* The curve tolerance for tolerance `tol` in model units: a length for
 * translations; a quaternion component off by e turns the joint by about
 * 2e, moving a point at distance reach by 2 e reach; a scale by e reach. */
static ik_real curve_tolerance(const decimate_state *s, int joint, int k, ik_real tol) {
    ik_channel_path path = ik_key_curve_path(k);
    if (path == IK_CHANNEL_TRANSLATION) return tol;
    return path == IK_CHANNEL_ROTATION ? tol / (2 * s->reach[joint]) : tol / s->reach[joint];
}

/* Decimate every written curve at `tol`; stats of the keys and, unless the
 * error passes `give_up` somewhere, of the model-space error. */
static ik_bool decimate_all(decimate_state *s, ik_real tol, ik_real give_up, ik_key_fit_stats *stats) {
    const ik_key_fit *job = s->job;
    int F = s->frames, J = s->joints, f, j, k, p;
    double sum = 0;
    memset(stats, 0, sizeof *stats);
    for (j = 0; j < J; ++j) {
        int channels = ik_key_scale_written(s->curves, F, j) ? 3 : 2, path;
        /* an unwritten scale is 1 throughout */
        if (channels == 2)
            memcpy(s->fitted + ((size_t)j * IK_KEY_CURVES + 7) * (size_t)F,
                   s->curves + ((size_t)j * IK_KEY_CURVES + 7) * (size_t)F, 3 * (size_t)F * sizeof(ik_real));
        for (path = 0; path < channels; ++path) {
            int first = ik_key_path_curve((ik_channel_path)path), width = ik_channel_width((ik_channel_path)path);
            memset(s->marks, 0, (size_t)F);
            for (k = first; k < first + width; ++k) {
                size_t at = ((size_t)j * IK_KEY_CURVES + (size_t)k) * (size_t)F;
                stats->curve_key_count +=
                    decimate_curve(s, s->curves + at, curve_tolerance(s, j, k, tol), s->fitted + at);
                for (f = 0; f >= 0 && f < F; f = s->next[f]) s->marks[f] = 1;
            }
            for (f = 0; f < F; ++f) stats->key_count += s->marks[f];
            ++stats->channel_count;
            stats->curve_count += width;
        }
    }
    stats->stored_numbers = 4 * stats->curve_key_count;
    stats->frame_count = F;
    stats->tolerance = tol;
    stats->sharing = IK_KEY_SHARE_JOINT;
    /* the curves as poses (rotations normalised, as a sampled clip's are), FK, distances */
    for (f = 0; f < F; ++f) {
        for (j = 0; j < J; ++j) {
            const ik_real *c = s->fitted + (size_t)j * IK_KEY_CURVES * (size_t)F + (size_t)f;
            ik_transform *t = &s->pose[j];
            t->translation = ik_v3(c[0], c[(size_t)F], c[2 * (size_t)F]);
            t->rotation =
                ik_quat_normalize(ik_q(c[3 * (size_t)F], c[4 * (size_t)F], c[5 * (size_t)F], c[6 * (size_t)F]));
            t->scale = ik_v3(c[7 * (size_t)F], c[8 * (size_t)F], c[9 * (size_t)F]);
        }
        ik_skeleton_fk(job->skeleton, s->pose, job->root_ms, s->model);
        for (j = 0; j < J; ++j)
            for (p = 0; p < IK_KEY_POINTS; ++p) {
                ik_vec3 at = ik_mat4_transform_point(&s->model[j], ik_key_point_ls(p, job->point_offset));
                ik_real e =
                    ik_vec3_distance(at, s->want[((size_t)f * (size_t)J + (size_t)j) * IK_KEY_POINTS + (size_t)p]);
                sum += (double)e;
                if (e > stats->max_error) stats->max_error = e, stats->worst_frame = f;
            }
        if (stats->max_error > give_up) return 0;
    }
    stats->mean_error = (ik_real)(sum / ((double)F * (double)J * IK_KEY_POINTS));
    return 1;
}

/* reach[j]: the farthest of the points of j and the joints below it from
 * j's origin, at frame 0 (at least r, j's own axis points). */
static void subtree_reach(decimate_state *s) {
    const int *parents = s->job->skeleton->parents;
    int J = s->joints, j, a, p;
    for (j = 0; j < J; ++j) s->reach[j] = 0;
    for (j = 0; j < J; ++j)
        for (a = j; a >= 0; a = parents[a])
            for (p = 0; p < IK_KEY_POINTS; ++p) {
                ik_vec3 origin = s->want[(size_t)a * IK_KEY_POINTS];
                s->reach[a] =
                    ik_maxr(s->reach[a], ik_vec3_distance(s->want[(size_t)j * IK_KEY_POINTS + (size_t)p], origin));
            }
}

ik_result ik_key_decimate_run(const ik_key_fit *job) {
    decimate_state s;
    ik_key_fit_stats stats, best;
    ik_real lo = 0, hi, E;
    ik_result r;
    int i;
    if (!job) return IK_ERR_NULL;
    r = ik_key_fit_validate(
        job, job->take ? ik_key_decimate_scratch_size(job->take->frame_count, job->take->joint_count) : 0);
    if (r != IK_OK) return r;
    memset(&s, 0, sizeof s);
    s.job = job;
    s.frames = job->take->frame_count;
    s.joints = job->take->joint_count;
    state_bytes(s.frames, s.joints, &s, job->scratch);
    ik_key_curves_extract(job->take, s.curves);
    ik_key_take_points(job, s.model, s.want);
    subtree_reach(&s);
    memset(s.pinned, 0, (size_t)s.frames);
    s.pinned[0] = s.pinned[s.frames - 1] = 1;
    for (i = 0; i < job->forced_count; ++i) s.pinned[job->forced_frames[i]] = 1;
    /* the largest tolerance within E: double from E while it holds, then
     * bisect; keep the fewest keys seen within E (tolerance 0 keeps every
     * key and always holds) */
    E = job->max_error;
    decimate_all(&s, 0, E, &best);
    for (hi = E; decimate_all(&s, hi, E, &stats) && hi < 1e6 * E; hi *= 2) {
        lo = hi;
        if (stats.curve_key_count <= best.curve_key_count) best = stats;
    }
    for (i = 0; i < 10; ++i) {
        ik_real mid = (lo + hi) / 2;
        if (decimate_all(&s, mid, E, &stats)) {
            lo = mid;
            if (stats.curve_key_count <= best.curve_key_count) best = stats;
        } else {
            hi = mid;
        }
    }
    if (job->stats) *job->stats = best;
    return IK_OK;
}

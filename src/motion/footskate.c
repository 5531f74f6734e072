/* Footskate clean-up after Kovar, Schreiner and Gleicher (SCA 2002): one
 * planted position per contact, legs solved per frame to hold it, the hips
 * moved only where a leg cannot reach, corrections eased over neighbouring
 * frames. */
#include <ikit/footskate.h>
#include <ikit/two_bone.h>

#include <string.h>

/* The plan in the caller's scratch, per frame f and leg k (0 left, 1 right)
 * at [2 f + k]: the animated ankle, toe and thigh positions, the ankle's
 * goal and the foot's added turn (model space); per frame the hips' shift;
 * per contact how far its planted position moved to be in reach, the heel
 * contact a toe contact hangs on (-1: none) and the contact whose move it
 * shares. */
typedef struct plan {
    ik_vec3 *ankle, *toe, *thigh, *goal;
    ik_quat *turn;
    ik_vec3 *shift;
    ik_vec3 *moved;
    int *primary, *anchor;
} plan;

static size_t plan_layout(int frames, int contacts, void *base, plan *p) {
    size_t legs = 2 * (size_t)frames, at = 0;
    char *b = (char *)base;
    ik_vec3 **vectors[4];
    int i;
    vectors[0] = &p->ankle, vectors[1] = &p->toe, vectors[2] = &p->thigh, vectors[3] = &p->goal;
    for (i = 0; i < 4; ++i) {
        if (b) *vectors[i] = (ik_vec3 *)(void *)(b + at);
        at += legs * sizeof(ik_vec3);
    }
    if (b) p->turn = (ik_quat *)(void *)(b + at);
    at += legs * sizeof(ik_quat);
    if (b) p->shift = (ik_vec3 *)(void *)(b + at);
    at += (size_t)frames * sizeof(ik_vec3);
    if (b) p->moved = (ik_vec3 *)(void *)(b + at);
    at += (size_t)contacts * sizeof(ik_vec3);
    if (b) p->primary = (int *)(void *)(b + at);
    at += (size_t)contacts * sizeof(int);
    if (b) p->anchor = (int *)(void *)(b + at);
    at += (size_t)contacts * sizeof(int);
    return at;
}

size_t ik_footskate_scratch_size(const ik_take *take, int contact_count) {
    plan p;
    return take && take->frame_count > 0 && contact_count >= 0 ? plan_layout(take->frame_count, contact_count, NULL, &p)
                                                               : 0;
}

ik_footskate ik_footskate_def(void) {
    ik_footskate job;
    memset(&job, 0, sizeof job);
    job.blend_time = (ik_real)0.25;
    job.reach = (ik_real)0.995;
    job.defaulted = IK_JOB_DEFAULTED;
    return job;
}

static int leg_limb(int k) { return k == 0 ? IK_LIMB_LEG_L : IK_LIMB_LEG_R; }

static ik_result validate(const ik_footskate *job) {
    const ik_humanoid *rig = job->rig;
    int i, k, bad;
    if (job->defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    if (!rig || !rig->skeleton || !job->take || !job->take->poses_ls || !job->scratch || !job->model_ms ||
        (job->contact_count > 0 && !job->contacts))
        return IK_ERR_NULL;
    if (job->take->joint_count != rig->skeleton->joint_count || job->take->frame_count < 2 || job->contact_count < 0)
        return IK_ERR_RANGE;
    if (job->scratch_bytes < ik_footskate_scratch_size(job->take, job->contact_count)) return IK_ERR_CAPACITY;
    if (!ik_finite(job->blend_time) || !ik_finite(job->reach)) return IK_ERR_NONFINITE;
    if (job->blend_time < 0 || !(job->reach > 0 && job->reach <= 1)) return IK_ERR_DEGENERATE;
    for (k = 0; k < 2; ++k)
        if (ik_humanoid_limb_foot(&rig->limb[leg_limb(k)]) < 0) return IK_ERR_UNSUPPORTED;
    for (i = 0; i < job->contact_count; ++i) {
        const ik_foot_contact *c = &job->contacts[i];
        if (c->point < 0 || c->point >= IK_FOOT_CONTACT_POINTS || c->start < 0 || c->end < c->start ||
            c->end >= job->take->frame_count)
            return IK_ERR_RANGE;
        if (!ik_vec3_finite(c->planted_ms)) return IK_ERR_NONFINITE;
        if (!ik_foot_point_position(rig, c->point, NULL, NULL)) return IK_ERR_UNSUPPORTED;
    }
    if (ik_take_validate(job->take, &bad) != IK_OK) return IK_ERR_NONFINITE;
    return IK_OK;
}

/* ---- easing ------------------------------------------------------------------ */

static ik_real smoothstep(ik_real t) { return t * t * (3 - 2 * t); }

static ik_bool is_set(const ik_real *v) { return v[0] == v[0]; }

/* Fill the unset (NaN) entries of values [count], `dim` reals each every
 * `stride` reals, from their set neighbours: across a gap of at most
 * 2 window frames from one to the other, v = a + (b - a) s((f - fa) /
 * (fb - fa)); across a longer one each side eases to `rest` over `window`
 * frames, v = rest + (a - rest) s(1 - (f - fa) / window) and the same from
 * b; s is the smoothstep 3t^2 - 2t^3, so values and slopes join. */
static void ease_fill(ik_real *values, int count, int stride, int dim, ik_real window, const ik_real *rest) {
    int f = 0, prev = -1, d;
    while (f < count) {
        int next, g;
        if (is_set(values + (size_t)f * stride)) {
            prev = f++;
            continue;
        }
        for (next = f; next < count && !is_set(values + (size_t)next * stride); ++next) {
        }
        for (g = f; g < next; ++g) {
            ik_real *v = values + (size_t)g * stride;
            const ik_real *a = prev >= 0 ? values + (size_t)prev * stride : rest;
            const ik_real *b = next < count ? values + (size_t)next * stride : rest;
            if (prev >= 0 && next < count && (ik_real)(next - prev) <= 2 * window) {
                ik_real t = smoothstep((ik_real)(g - prev) / (ik_real)(next - prev));
                for (d = 0; d < dim; ++d) v[d] = a[d] + (b[d] - a[d]) * t;
            } else {
                ik_real wa =
                    prev >= 0 && (ik_real)(g - prev) < window ? smoothstep(1 - (ik_real)(g - prev) / window) : 0;
                ik_real wb =
                    next < count && (ik_real)(next - g) < window ? smoothstep(1 - (ik_real)(next - g) / window) : 0;
                for (d = 0; d < dim; ++d) v[d] = rest[d] + (a[d] - rest[d]) * wa + (b[d] - rest[d]) * wb;
            }
        }
        f = next;
    }
}

static const ik_real zero4[4] = {0, 0, 0, 0};
static const ik_real identity4[4] = {0, 0, 0, 1};

static void set_unset_vec3(ik_vec3 *v) { v->x = v->y = v->z = (ik_real)NAN; }

/* ---- the plan ------------------------------------------------------------------ */

/* Pass 1: every frame's animated ankle, toe (a toe-less foot's ball:
 * ik_foot_point_position) and thigh positions. */
static void record_legs(const ik_footskate *job, const plan *p) {
    const ik_humanoid *rig = job->rig;
    int f, k;
    for (f = 0; f < job->take->frame_count; ++f) {
        ik_skeleton_fk(rig->skeleton, ik_take_pose(job->take, f), job->root_ms, job->model_ms);
        for (k = 0; k < 2; ++k) {
            const ik_humanoid_limb *l = &rig->limb[leg_limb(k)];
            size_t at = 2 * (size_t)f + (size_t)k;
            ik_mat4 end_ms = ik_humanoid_limb_end_ms(l, job->model_ms);
            p->ankle[at] = ik_mat4_translation(&end_ms);
            p->toe[at] = p->ankle[at];
            ik_foot_point_position(rig, k == 0 ? IK_FOOT_TOE_L : IK_FOOT_TOE_R, job->model_ms, &p->toe[at]);
            p->thigh[at] = ik_mat4_translation(&job->model_ms[l->start]);
        }
    }
}

/* The heel contact of leg k that overlaps toe contact `toe` most, or -1. */
static int overlapping_heel(const ik_footskate *job, const ik_foot_contact *toe) {
    int i, best = -1, best_overlap = 0, heel_point = toe->point - 1;
    for (i = 0; i < job->contact_count; ++i) {
        const ik_foot_contact *c = &job->contacts[i];
        int overlap;
        if (c->point != heel_point) continue;
        overlap = (c->end < toe->end ? c->end : toe->end) - (c->start > toe->start ? c->start : toe->start) + 1;
        if (overlap > best_overlap) best = i, best_overlap = overlap;
    }
    return best;
}

static int contact_leg(const ik_foot_contact *c) { return ik_foot_point_leg(c->point) == IK_LIMB_LEG_L ? 0 : 1; }

static int overlap_of(const ik_foot_contact *a, const ik_foot_contact *b, int *from, int *to) {
    *from = a->start > b->start ? a->start : b->start;
    *to = a->end < b->end ? a->end : b->end;
    return *to - *from + 1;
}

static ik_real foot_length(const plan *p, const ik_foot_contact *c) {
    size_t at = 2 * (size_t)c->start + (size_t)contact_leg(c);
    return ik_vec3_distance(p->toe[at], p->ankle[at]);
}

/* Which contacts hang together: a toe contact on the heel contact that
 * overlaps it most (its primary heel); a heel contact overlapping a toe
 * contact whose primary heel is another shares that heel's move. */
static void link_contacts(const ik_footskate *job, const plan *p) {
    int i, t, from, to;
    for (i = 0; i < job->contact_count; ++i) {
        const ik_foot_contact *c = &job->contacts[i];
        p->primary[i] = ik_foot_point_is_toe(c->point) ? overlapping_heel(job, c) : -1;
        p->moved[i] = ik_vec3_zero();
    }
    for (i = 0; i < job->contact_count; ++i) {
        const ik_foot_contact *c = &job->contacts[i];
        p->anchor[i] = p->primary[i] >= 0 ? p->primary[i] : i;
        if (ik_foot_point_is_toe(c->point)) continue;
        for (t = 0; t < job->contact_count; ++t)
            if (job->contacts[t].point == c->point + 1 && p->primary[t] >= 0 && p->primary[t] != i &&
                overlap_of(&job->contacts[t], c, &from, &to) > 0) {
                p->anchor[i] = p->primary[t];
                break;
            }
    }
}

static ik_vec3 planted(const ik_footskate *job, const plan *p, int i) {
    return ik_vec3_add(job->contacts[i].planted_ms, p->moved[p->anchor[i]]);
}

/* The body's up in model space (under root_ms). */
static ik_vec3 model_up(const ik_footskate *job) {
    return ik_vec3_normalize(job->root_ms ? ik_mat4_transform_vector(job->root_ms, job->rig->up_rs) : job->rig->up_rs);
}

/* The point `length` from `from` at the height of `to` (along up) and in
 * its heading across up: with d = to - from split into its rise r = d.up
 * and its part a across up, from + r up + a sqrt(length^2 - r^2) / |a|;
 * along d itself when |r| >= length or a = 0. Keeping the height, not the
 * direction, keeps a foot whose two points are planted at their own heights
 * flat: a contact mapped from a foot of other proportions (retargeting)
 * stands at the target foot's heights but the source's horizontal length,
 * and along that direction the foot was pitched (rigged_figure.glb's soles
 * 23 degrees toes-up on 131_01 where the source stood flat). */
static ik_vec3 at_length_level(const ik_footskate *job, ik_vec3 from, ik_vec3 to, ik_real length) {
    ik_vec3 up = model_up(job), d = ik_vec3_sub(to, from), across = ik_vec3_reject(d, up);
    ik_real rise = ik_vec3_dot(d, up), span = ik_vec3_length(across);
    if (!(IK_FABS(rise) < length) || !(span > 0)) return ik_vec3_mad(from, ik_vec3_normalize(d), length);
    return ik_vec3_add(ik_vec3_mad(from, up, rise),
                       ik_vec3_scale(across, IK_SQRT(length * length - rise * rise) / span));
}

/* Where a toe contact holds the toe: its planted position, moved (when a
 * heel contact overlaps it) to lie one foot length from where its primary
 * heel is held, at its planted height and in the same heading
 * (at_length_level), so heel and toe can both be held exactly by a rigid
 * foot. Where a heel contact holds the ankle: its planted position, or,
 * when it overlaps a toe contact whose primary heel is another (the heel
 * lifted and came down again while the toe stayed), one foot length from
 * that toe's target at its planted height.
 * The two refer to each other along a chain of overlapping contacts;
 * `depth` bounds the chain (past it a contact stands on its own). */
#define TARGET_DEPTH 4
static ik_vec3 heel_target_at(const ik_footskate *job, const plan *p, int heel, int depth);

static ik_vec3 toe_target_at(const ik_footskate *job, const plan *p, int toe, int depth) {
    int heel = p->primary[toe];
    ik_vec3 h;
    if (heel < 0 || depth <= 0) return planted(job, p, toe);
    h = heel_target_at(job, p, heel, depth - 1);
    return at_length_level(job, h, planted(job, p, toe), foot_length(p, &job->contacts[toe]));
}

static ik_vec3 heel_target_at(const ik_footskate *job, const plan *p, int heel, int depth) {
    const ik_foot_contact *h = &job->contacts[heel];
    int t, from, to;
    for (t = 0; depth > 0 && t < job->contact_count; ++t) {
        const ik_foot_contact *toe = &job->contacts[t];
        if (toe->point == h->point + 1 && p->primary[t] >= 0 && p->primary[t] != heel &&
            overlap_of(toe, h, &from, &to) > 0) {
            return at_length_level(job, toe_target_at(job, p, t, depth - 1), planted(job, p, heel),
                                   foot_length(p, toe));
        }
    }
    return planted(job, p, heel);
}

static ik_vec3 toe_target(const ik_footskate *job, const plan *p, int toe) {
    return toe_target_at(job, p, toe, TARGET_DEPTH);
}

static ik_vec3 heel_target(const ik_footskate *job, const plan *p, int heel) {
    return heel_target_at(job, p, heel, TARGET_DEPTH);
}

/* Pass 2, per leg: the foot's added turn, set where heel and toe are both
 * held (the shortest turn taking the animated ankle-to-toe direction onto
 * heel target to toe target), eased to none elsewhere. */
static void plan_turns(const ik_footskate *job, const plan *p, ik_real window) {
    int frames = job->take->frame_count, f, i, h, k;
    for (f = 0; f < 2 * frames; ++f) p->turn[f].x = (ik_real)NAN;
    for (i = 0; i < job->contact_count; ++i) {
        const ik_foot_contact *toe = &job->contacts[i];
        ik_vec3 target;
        if (!ik_foot_point_is_toe(toe->point)) continue;
        target = toe_target(job, p, i);
        k = contact_leg(toe);
        for (h = 0; h < job->contact_count; ++h) {
            int from, to;
            ik_vec3 heel;
            if (job->contacts[h].point != toe->point - 1 || overlap_of(toe, &job->contacts[h], &from, &to) <= 0)
                continue;
            heel = heel_target(job, p, h);
            for (f = from; f <= to; ++f) {
                size_t at = 2 * (size_t)f + (size_t)k;
                p->turn[at] = ik_quat_positive_w(
                    ik_quat_from_to(ik_vec3_sub(p->toe[at], p->ankle[at]), ik_vec3_sub(target, heel)));
            }
        }
    }
    for (k = 0; k < 2; ++k)
        ease_fill(&p->turn[k].x, frames, (int)(2 * sizeof(ik_quat) / sizeof(ik_real)), 4, window, identity4);
    for (f = 0; f < 2 * frames; ++f) p->turn[f] = ik_quat_normalize(p->turn[f]);
}

/* Pass 3, per leg: the ankle's goal. Where the heel is held, its planted
 * position (raised with the animation where it lifts the heel higher,
 * with follow_heel_lift); where only the toe is, the point that puts the toe on its
 * target with the foot turned as animated (and by the added turn):
 * target - turn (toe - ankle). As offsets from the animated ankle, eased
 * to none where neither is held. */
static void plan_goals(const ik_footskate *job, const plan *p, ik_real window) {
    int frames = job->take->frame_count, f, i, k;
    for (f = 0; f < 2 * frames; ++f) set_unset_vec3(&p->goal[f]);
    for (i = 0; i < job->contact_count; ++i) {
        const ik_foot_contact *c = &job->contacts[i];
        ik_vec3 target;
        if (!ik_foot_point_is_toe(c->point)) continue;
        target = toe_target(job, p, i);
        k = contact_leg(c);
        for (f = c->start; f <= c->end; ++f) {
            size_t at = 2 * (size_t)f + (size_t)k;
            ik_vec3 foot = ik_quat_rotate(p->turn[at], ik_vec3_sub(p->toe[at], p->ankle[at]));
            p->goal[at] = ik_vec3_sub(ik_vec3_sub(target, foot), p->ankle[at]);
        }
    }
    for (i = 0; i < job->contact_count; ++i) {
        const ik_foot_contact *c = &job->contacts[i];
        ik_vec3 target, up = model_up(job);
        if (ik_foot_point_is_toe(c->point)) continue;
        target = heel_target(job, p, i);
        k = contact_leg(c);
        for (f = c->start; f <= c->end; ++f) {
            size_t at = 2 * (size_t)f + (size_t)k;
            /* with follow_heel_lift: g = target + max(0, (a - target).up) up */
            ik_real lift = job->follow_heel_lift ? ik_maxr(0, ik_vec3_dot(ik_vec3_sub(p->ankle[at], target), up)) : 0;
            p->goal[at] = ik_vec3_sub(ik_vec3_mad(target, up, lift), p->ankle[at]);
        }
    }
    for (k = 0; k < 2; ++k)
        ease_fill(&p->goal[k].x, frames, (int)(2 * sizeof(ik_vec3) / sizeof(ik_real)), 3, window, zero4);
    for (f = 0; f < 2 * frames; ++f) p->goal[f] = ik_vec3_add(p->goal[f], p->ankle[f]);
}

/* How far leg k may reach at frame f: the `reach` fraction of its
 * straight length (in model units under root_ms), or the animated stretch
 * when that is longer. */
static ik_real leg_reach(const ik_footskate *job, const plan *p, int f, int k) {
    const ik_humanoid_limb *l = &job->rig->limb[leg_limb(k)];
    size_t at = 2 * (size_t)f + (size_t)k;
    ik_real scale = job->root_ms ? ik_vec3_length(ik_mat4_column(job->root_ms, 0)) : 1;
    return ik_maxr(job->reach * (l->upper_length + l->lower_length) * scale,
                   ik_vec3_distance(p->ankle[at], p->thigh[at]));
}

/* Pass 4: contacts moved into reach. Where a goal is beyond the leg's reach
 * r, the contact's planted position moves across `up` toward the thigh
 * until it is in reach: with v = goal - thigh split into v_u along up and
 * v_a across, the part across must shrink to sqrt(r^2 - v_u^2). The
 * largest such move over the contact's frames, and over the contacts that
 * share its anchor, goes to the anchor (once a round, not once for each of
 * them), so heel and toe move together and the foot stays still; what
 * cannot be fixed this way is left to the hips (pass 5). */
static ik_real reach_move(const ik_footskate *job, const plan *p, const ik_foot_contact *c, ik_vec3 up,
                          ik_vec3 *toward) {
    int f, k = contact_leg(c);
    ik_real worst = 0;
    for (f = c->start; f <= c->end; ++f) {
        size_t at = 2 * (size_t)f + (size_t)k;
        ik_vec3 v = ik_vec3_sub(p->goal[at], p->thigh[at]), across;
        ik_real r = leg_reach(job, p, f, k), v_up, room, move;
        if (ik_vec3_length(v) <= r) continue;
        v_up = ik_vec3_dot(v, up);
        room = r * r - v_up * v_up;
        if (room <= 0) continue;
        across = ik_vec3_reject(v, up);
        move = ik_vec3_length(across) - IK_SQRT(room);
        if (move > worst) worst = move, *toward = ik_vec3_normalize(ik_vec3_neg(across));
    }
    return worst;
}

static void pull_into_reach(const ik_footskate *job, const plan *p, ik_vec3 up) {
    int a, i;
    for (a = 0; a < job->contact_count; ++a) {
        ik_real worst = 0;
        ik_vec3 toward = ik_vec3_zero();
        for (i = 0; i < job->contact_count; ++i) {
            ik_vec3 way = ik_vec3_zero();
            ik_real move = p->anchor[i] == a ? reach_move(job, p, &job->contacts[i], up, &way) : 0;
            if (move > worst) worst = move, toward = way;
        }
        if (worst > 0) p->moved[a] = ik_vec3_mad(p->moved[a], toward, worst * (ik_real)1.0001);
    }
}

/* Pass 5: the hips' shift where a held foot's goal is still beyond the
 * leg's reach r (a goal in the air is pulled back into reach instead, so
 * no knee snaps straight):
 * each leg out of reach pulls the hips toward its goal by the excess,
 * |g - (t + s)| - r, a few rounds so both legs settle; eased. */
static void plan_shifts(const ik_footskate *job, const plan *p, ik_real window) {
    int frames = job->take->frame_count, f, k, round, i;
    /* which legs are held, marked first in the shift array itself (x left,
     * y right), before each frame's shift replaces its marks */
    for (f = 0; f < frames; ++f) p->shift[f] = ik_vec3_zero();
    for (i = 0; i < job->contact_count; ++i)
        for (f = job->contacts[i].start; f <= job->contacts[i].end; ++f) {
            if (contact_leg(&job->contacts[i]) == 0)
                p->shift[f].x = 1;
            else
                p->shift[f].y = 1;
        }
    for (f = 0; f < frames; ++f) {
        ik_vec3 s = ik_vec3_zero();
        ik_bool held[2];
        held[0] = p->shift[f].x != 0, held[1] = p->shift[f].y != 0;
        for (round = 0; round < 4; ++round)
            for (k = 0; k < 2; ++k) {
                size_t at = 2 * (size_t)f + (size_t)k;
                ik_vec3 to_goal;
                ik_real excess;
                if (!held[k]) continue;
                to_goal = ik_vec3_sub(p->goal[at], ik_vec3_add(p->thigh[at], s));
                excess = ik_vec3_length(to_goal) - leg_reach(job, p, f, k);
                if (excess > 0) s = ik_vec3_mad(s, ik_vec3_normalize(to_goal), excess * (ik_real)1.0001);
            }
        if (ik_vec3_is_zero(s))
            set_unset_vec3(&p->shift[f]);
        else
            p->shift[f] = s;
    }
    ease_fill(&p->shift[0].x, frames, (int)(sizeof(ik_vec3) / sizeof(ik_real)), 3, window, zero4);
    for (f = 0; f < frames; ++f)
        for (k = 0; k < 2; ++k) {
            size_t at = 2 * (size_t)f + (size_t)k;
            ik_vec3 hip = ik_vec3_add(p->thigh[at], p->shift[f]), v = ik_vec3_sub(p->goal[at], hip);
            ik_real r = leg_reach(job, p, f, k), d = ik_vec3_length(v);
            if (d > r) p->goal[at] = ik_vec3_mad(hip, v, r / d);
        }
}

/* Rounds of planning the turns and goals and moving contacts into reach. */
#define REACH_ROUNDS 5

ik_result ik_footskate_plan(const ik_footskate *job) {
    plan p;
    ik_vec3 up;
    int round;
    ik_real window;
    ik_result r;
    if (!job) return IK_ERR_NULL;
    r = validate(job);
    if (r != IK_OK) return r;
    plan_layout(job->take->frame_count, job->contact_count, job->scratch, &p);
    window = ik_maxr(1, job->blend_time / job->take->frame_time);
    record_legs(job, &p);
    link_contacts(job, &p);
    up = model_up(job);
    for (round = 0; round < REACH_ROUNDS; ++round) {
        if (round > 0) pull_into_reach(job, &p, up);
        plan_turns(job, &p, window);
        plan_goals(job, &p, window);
    }
    plan_shifts(job, &p, window);
    return IK_OK;
}

/* ---- applying it ------------------------------------------------------------ */

/* Move joint `joint` by `shift_ms` in model space: its local translation
 * gains the shift taken into its parent's frame. */
static void shift_joint(const ik_footskate *job, ik_transform *pose, int joint, ik_vec3 shift_ms) {
    int parent = job->rig->skeleton->parents[joint];
    const ik_mat4 *above = parent >= 0 ? &job->model_ms[parent] : job->root_ms;
    ik_mat4 inv;
    if (above && ik_mat4_inverse(above, &inv)) shift_ms = ik_mat4_transform_vector(&inv, shift_ms);
    pose[joint].translation = ik_vec3_add(pose[joint].translation, shift_ms);
}

/* Turn the foot by `turn_ms` (model space) about the ankle, M' = turn_ms M
 * (ik_skeleton_turn_joint_ms, mirrored knees included), from the leg as
 * the two-bone solve left it. */
static void turn_foot(const ik_footskate *job, ik_transform *pose, const ik_humanoid_limb *l, ik_quat turn_ms) {
    if (IK_FABS(ik_quat_angle(turn_ms)) < (ik_real)1e-7) return;
    ik_skeleton_fk_subtree(job->rig->skeleton, l->start, pose, job->root_ms, job->model_ms);
    ik_skeleton_turn_joint_ms(job->rig->skeleton, ik_humanoid_limb_foot(l), turn_ms, job->root_ms, pose, job->model_ms);
}

ik_result ik_footskate_held_ms(const ik_footskate *job, int contact, ik_vec3 *out) {
    plan p;
    if (!job || !job->take || !job->scratch || !job->contacts || !out) return IK_ERR_NULL;
    if (contact < 0 || contact >= job->contact_count) return IK_ERR_RANGE;
    plan_layout(job->take->frame_count, job->contact_count, job->scratch, &p);
    *out = ik_foot_point_is_toe(job->contacts[contact].point) ? toe_target(job, &p, contact)
                                                              : heel_target(job, &p, contact);
    return IK_OK;
}

ik_result ik_footskate_apply(const ik_footskate *job, int first, int end) {
    const ik_humanoid *rig;
    plan p;
    int f, k;
    if (!job || !job->take || !job->rig || !job->scratch || !job->model_ms) return IK_ERR_NULL;
    if (first < 0 || end > job->take->frame_count || first > end) return IK_ERR_RANGE;
    rig = job->rig;
    plan_layout(job->take->frame_count, job->contact_count, job->scratch, &p);
    for (f = first; f < end; ++f) {
        ik_transform *pose = ik_take_pose(job->take, f);
        if (!ik_vec3_is_zero(p.shift[f])) {
            if (rig->skeleton->parents[rig->pelvis] >= 0)
                ik_skeleton_fk(rig->skeleton, pose, job->root_ms, job->model_ms);
            shift_joint(job, pose, rig->pelvis, p.shift[f]);
        }
        ik_skeleton_fk(rig->skeleton, pose, job->root_ms, job->model_ms);
        for (k = 0; k < 2; ++k) {
            const ik_humanoid_limb *l = &rig->limb[leg_limb(k)];
            size_t at = 2 * (size_t)f + (size_t)k;
            ik_two_bone leg = ik_two_bone_def();
            ik_mat4 end_ms = ik_humanoid_limb_end_ms(l, job->model_ms);
            ik_vec3 a = ik_mat4_translation(&job->model_ms[l->start]), b = ik_mat4_translation(&job->model_ms[l->mid]);
            ik_vec3 c = ik_mat4_translation(&end_ms);
            ik_result r;
            if (l->end >= 0) {
                ik_two_bone_bind(&leg, job->model_ms, pose, l->start, l->mid, l->end);
                leg.keep_end_rotation = 1;
            } else {
                ik_two_bone_bind(&leg, job->model_ms, pose, l->start, l->mid, l->mid);
                leg.end_ms = &end_ms;
                leg.end_rotation_ls = NULL;
            }
            leg.target_ms = p.goal[at];
            leg.use_pole = 1;
            leg.pole_ms = ik_limb_natural_pole(a, b, c, p.goal[at],
                                               ik_mat4_transform_turn_axis(&job->model_ms[l->mid], l->hinge_axis_ls),
                                               l->upper_length + l->lower_length);
            r = ik_two_bone_run(&leg);
            if (r != IK_OK) return r;
            ik_humanoid_carry_end_control(rig, leg_limb(k), pose, job->model_ms, job->root_ms);
            turn_foot(job, pose, l, p.turn[at]);
        }
    }
    return IK_OK;
}

ik_result ik_footskate_run(const ik_footskate *job) {
    ik_result r = ik_footskate_plan(job);
    return r == IK_OK ? ik_footskate_apply(job, 0, job->take->frame_count) : r;
}

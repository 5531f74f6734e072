/* Full-body IK over the humanoid rig (see full_body.h and the full-body
 * section of docs/humanoid.md): a weighted least-squares solve of the body
 * (pelvis, spine, chest, neck, clavicles), then the limbs finished
 * analytically by two-bone IK.
 *
 * The body stage. The unknowns are x = (s, w_1 .. w_k): the pelvis's shift s
 * in leg lengths and a model-space turn vector w_d per body joint d. Each
 * goal is a residual r_i(x) with a weight W_i; the body also holds its
 * reference pose with the stiffnesses K_d. One Levenberg-Marquardt step
 * solves
 *     (A + lambda diag A) dx = -b,  A = sum_i W_i J_i^T J_i + sum_d K_d I_d,
 *                                   b = sum_i W_i J_i^T r_i + sum_d K_d phi_d
 * (Gauss-Newton on E = sum W_i |r_i|^2 + sum K_d |phi_d|^2, phi_d the turn
 * from the reference to the current rotation; the stiffness terms are what
 * damped least squares adds, weighted per joint, so A is always positive
 * definite), with the Jacobian of a point p carried by joint d: dp/ds = L I,
 * dp/dw_d = -[p - o_d]x (a turn about o_d), L the leg length. A step that
 * raises E is taken back and lambda raised; the steps stop when they or
 * what they gain become negligible (a warm start takes 1 to 3). After each
 * step every joint is put back within its limit (a turn from rest, or from
 * the reference for the pelvis, clamped to the limit's angle by slerp).
 *
 * The residuals, all in leg lengths (radians for turns), one-sided ones as
 * smooth hinges (hinge() below):
 *   reach (hands, feet): max(0, |t - a| - (1 - m) l) for the target t,
 *     the limb's start a (shoulder, hip) and its length l: a limb whose
 *     target is within (1 - m) l is finished exactly by two-bone IK;
 *     also max(0, l_min (1 + m) - |t - a|) with l_min the reach at the
 *     elbow's or knee's largest bend. Weight 2e3 times pull times position
 *     weight; a pinned foot 2e7.
 *   positions (head, hips, chest): p - t, 2e4 times pull times weight; a
 *     pinned one 2e6.
 *   rotations (head, hips, chest): the turn vector of T R^-1, whose
 *     Jacobian is -I for every body joint above; 2e3 times the weights.
 *   balance: the centre of mass c projected on the floor against each edge
 *     of the support polygon (convex hull of the pinned feet's soles,
 *     counterclockwise, outward normal n, corner a): max(0, n.(c - a) +
 *     margin), weight 2e5. The limbs' centres are carried during this
 *     stage as the limbs will stand: a segment of a limb reaching for t
 *     lies at a + f (t' - a) (f its fraction along the limb in the pose at
 *     the round's start, t' the target brought within reach), a free limb
 *     rigidly with its start; what that misses (the elbow off the line) is
 *     measured after the limbs are solved and added as a constant, and the
 *     body solved once more when it moved.
 *   limits: each body joint's turn from rest (the pelvis: from the
 *     reference) and the pelvis's shift as a wall from LIMIT_BAND before
 *     the limit, 2e5; each pinned ankle's flexion (pinned_flex) likewise.
 * A weighted penalty leaves a residual of about K dx / W: the reach
 * margin m keeps that inside the limb's reach, so the limb still lands
 * exactly. */
#include <ikit/aim.h>
#include <ikit/full_body.h>
#include <ikit/two_bone.h>

#include <stdio.h>
#include <string.h>

#define W_REACH ((ik_real)2e3)
#define W_POSITION ((ik_real)2e4)
#define W_PIN ((ik_real)2e6)
#define W_FOOT_PIN ((ik_real)2e7)
#define W_BALANCE ((ik_real)2e5)
#define W_ROTATION ((ik_real)2e3)
#define W_LIFT ((ik_real)0.2)
#define MAX_COLS (3 + 3 * (IK_FB_JOINT_COUNT - 1))
#define MAX_TERMS 32
#define MAX_STEP ((ik_real)0.3)
#define OFFSET_DONE ((ik_real)2e-4)
#define STEP_DONE ((ik_real)1e-4)
#define COST_DONE ((ik_real)1e-5)
#define LIMIT_BAND ((ik_real)0.05)
#define ANKLE_MARGIN ((ik_real)0.07) /* 4 degrees */

/* ---- effectors by role -------------------------------------------------------- */

static const int effector_roles[IK_FB_EFFECTOR_COUNT] = {IK_ROLE_HAND_L, IK_ROLE_HAND_R, IK_ROLE_FOOT_L, IK_ROLE_FOOT_R,
                                                         IK_ROLE_HEAD,   IK_ROLE_HIPS,   IK_ROLE_CHEST};

int ik_full_body_effector_of_role(int role) {
    int e;
    for (e = 0; e < IK_FB_EFFECTOR_COUNT; ++e)
        if (effector_roles[e] == role) return e;
    return -1;
}

int ik_full_body_effector_find(const char *name, int length) {
    if (!name) return -1;
    return ik_full_body_effector_of_role(ik_humanoid_role_find(name, length));
}

const char *ik_full_body_effector_name(int effector) {
    if (effector < 0 || effector >= IK_FB_EFFECTOR_COUNT) return "";
    return ik_humanoid_role_name(effector_roles[effector]);
}

/* ---- the job ------------------------------------------------------------------ */

ik_full_body ik_full_body_def(void) {
    ik_full_body job;
    int i;
    memset(&job, 0, sizeof job);
    for (i = 0; i < IK_FB_EFFECTOR_COUNT; ++i) {
        job.effector[i].enabled = 0;
        job.effector[i].position_ms = ik_vec3_zero();
        job.effector[i].position_weight = 1;
        job.effector[i].use_rotation = 0;
        job.effector[i].rotation_ms = ik_quat_identity();
        job.effector[i].rotation_weight = 1;
        job.effector[i].pull = 1;
        job.effector[i].pinned = 0;
        job.effector[i].use_pole = 0;
        job.effector[i].pole_ms = ik_vec3_zero();
    }
    job.look_at = 0;
    job.look_target_ms = ik_vec3_zero();
    job.stiffness[IK_FB_JOINT_PELVIS_SHIFT] = 1;
    job.stiffness[IK_FB_JOINT_PELVIS] = 1;
    job.stiffness[IK_FB_JOINT_SPINE] = 1;
    job.stiffness[IK_FB_JOINT_CHEST] = 1;
    job.stiffness[IK_FB_JOINT_NECK] = 2;
    job.stiffness[IK_FB_JOINT_CLAVICLE_L] = job.stiffness[IK_FB_JOINT_CLAVICLE_R] = 3;
    job.limit[IK_FB_JOINT_PELVIS_SHIFT] = (ik_real)0.5;
    job.limit[IK_FB_JOINT_PELVIS] = ik_rad(60);
    job.limit[IK_FB_JOINT_SPINE] = ik_rad(30);
    job.limit[IK_FB_JOINT_CHEST] = ik_rad(30);
    job.limit[IK_FB_JOINT_NECK] = ik_rad(40);
    job.limit[IK_FB_JOINT_CLAVICLE_L] = job.limit[IK_FB_JOINT_CLAVICLE_R] = ik_rad(30);
    job.balance = 0;
    job.balance_margin = (ik_real)0.02;
    job.foot_width = (ik_real)0.36;
    job.reach_margin = (ik_real)0.005;
    job.tolerance = (ik_real)1e-3;
    job.iterations = 50;
    job.defaulted = IK_JOB_DEFAULTED;
    return job;
}

size_t ik_full_body_scratch_size(const ik_humanoid *rig) {
    if (!rig || !rig->skeleton) return 0;
    return (size_t)rig->skeleton->joint_count * (sizeof(int) + 1);
}

static ik_bool unit_range(ik_real v) { return ik_finite(v) && v >= 0 && v <= 1; }

static ik_result validate(const ik_full_body *job) {
    const ik_skeleton *s;
    int i;
    if (!job) return IK_ERR_NULL;
    if (job->defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    if (!job->rig || !job->rig->skeleton || !job->pose_ls || !job->model_ms || !job->scratch) return IK_ERR_NULL;
    if (job->balance && !job->mass) return IK_ERR_NULL;
    if (job->scratch_bytes < ik_full_body_scratch_size(job->rig)) return IK_ERR_CAPACITY;
    s = job->rig->skeleton;
    for (i = 0; i < s->joint_count; ++i) {
        if (!ik_transform_finite(job->pose_ls[i])) return IK_ERR_NONFINITE;
        if (job->reference_ls && !ik_transform_finite(job->reference_ls[i])) return IK_ERR_NONFINITE;
    }
    if (job->root_ms && !ik_mat4_finite(job->root_ms)) return IK_ERR_NONFINITE;
    for (i = 0; i < IK_FB_EFFECTOR_COUNT; ++i) {
        const ik_full_body_effector *e = &job->effector[i];
        if (!e->enabled) continue;
        if (!ik_vec3_finite(e->position_ms) || (e->use_rotation && !ik_quat_finite(e->rotation_ms)) ||
            (e->use_pole && !ik_vec3_finite(e->pole_ms)))
            return IK_ERR_NONFINITE;
        if (!unit_range(e->position_weight) || !unit_range(e->rotation_weight) || !unit_range(e->pull))
            return ik_finite(e->position_weight) && ik_finite(e->rotation_weight) && ik_finite(e->pull)
                       ? IK_ERR_RANGE
                       : IK_ERR_NONFINITE;
        if (e->use_rotation && !(ik_quat_dot(e->rotation_ms, e->rotation_ms) > 0)) return IK_ERR_DEGENERATE;
    }
    if (job->look_at && !ik_vec3_finite(job->look_target_ms)) return IK_ERR_NONFINITE;
    for (i = 0; i < IK_FB_JOINT_COUNT; ++i) {
        if (!ik_finite(job->stiffness[i]) || !ik_finite(job->limit[i])) return IK_ERR_NONFINITE;
        if (!(job->stiffness[i] > 0) || job->limit[i] < 0) return IK_ERR_RANGE;
    }
    if (!ik_finite(job->balance_margin) || !ik_finite(job->reach_margin) || !ik_finite(job->tolerance) ||
        !ik_finite(job->foot_width))
        return IK_ERR_NONFINITE;
    if (job->balance_margin < 0 || job->reach_margin < 0 || job->reach_margin >= (ik_real)0.5 || job->tolerance < 0 ||
        job->foot_width < 0 || job->iterations < 1 || job->iterations > 100)
        return IK_ERR_RANGE;
    return IK_OK;
}

/* ---- state ---------------------------------------------------------------------- */

typedef struct com_term {
    ik_vec3 lever;  /* the point whose motion carries the term */
    unsigned mask;  /* body joints above it */
    ik_real weight; /* its share of the centre: mass fraction times how much of the lever it follows */
} com_term;

typedef struct limb_goal {
    ik_bool active; /* the limb is solved to `target` */
    ik_bool drags;  /* and may move the body (weight > 0) */
    ik_vec3 target; /* wrist / ankle */
    ik_real weight; /* body weight of its reach residual */
    ik_real blend;  /* two-bone weight */
    ik_bool has_rotation;
    ik_quat rotation;
    ik_real rotation_blend;
    const ik_full_body_effector *effector;
    /* at the round's start: the fractions of the limb's three segments'
     * centres along start -> end, and the centres in the start's frame */
    ik_real fraction[3];
    ik_vec3 offset[3];
    /* a pinned leg with a sole: its sole (heel to ball) and lateral axis as
     * pinned, for the ankle's limits */
    ik_bool ankle_guard;
    ik_vec3 sole, lateral;
    ik_real flex_up, flex_down; /* the rig's limits, widened to the input's flexion */
    /* the reach residual: the limb's end within far (and beyond near) of
     * its start, model units, through a hinge of half width soft (leg
     * lengths) */
    ik_real far, near, soft;
    ik_bool straight; /* a pinned leg allowed its reference's span (pinned_leg_reach) */
    /* tiptoe (allow_heel_lift): target and rotation are the flat foot's;
     * the foot turns by the lift (0..lift_max) about axis through pivot,
     * the toes keep toe_ms */
    ik_bool tiptoe, on_ball; /* on_ball: standing on the ball (the heel up), the support shrunk */
    ik_vec3 pivot, axis;
    ik_real lift_max;
    ik_quat toe_ms;
} limb_goal;

typedef struct fb_state {
    const ik_full_body *job;
    const ik_humanoid *rig;
    const ik_skeleton *s;
    ik_mat4 root;
    ik_vec3 up, forward, left;
    ik_real scale, leg;
    int pelvis;
    int joint[IK_FB_JOINT_COUNT]; /* -1 where the rig has none; [IK_FB_JOINT_PELVIS_SHIFT] is the pelvis */
    int col[IK_FB_JOINT_COUNT];   /* first column, -1 when absent */
    int n;
    ik_quat rest_ls[IK_FB_JOINT_COUNT], ref_ls[IK_FB_JOINT_COUNT];
    ik_vec3 ref_shift_ls;
    ik_real limit[IK_FB_JOINT_COUNT];
    int *keys;
    int key_count;
    unsigned char *mark;
    limb_goal limb[IK_LIMB_COUNT];
    unsigned limb_mask[IK_LIMB_COUNT]; /* body joints above each limb's start */
    unsigned head_mask, chest_mask, pelvis_mask;
    int support_n;
    ik_real sx[IK_FULL_BODY_MAX_SUPPORT], sy[IK_FULL_BODY_MAX_SUPPORT];
    ik_vec3 com_offset;
    /* head, hips, chest: where each goes (a pinned one not enabled: where it is) */
    ik_bool body_active[IK_FB_EFFECTOR_COUNT], body_use_rotation[IK_FB_EFFECTOR_COUNT];
    ik_vec3 body_target[IK_FB_EFFECTOR_COUNT];
    ik_quat body_rotation[IK_FB_EFFECTOR_COUNT];
    ik_bool balance;
    ik_bool on_ball; /* a foot stands on its ball: the balance's margin is a quarter */
    int iterations;
    unsigned segment_mask[IK_MASS_SEG_COUNT];
} fb_state;

static ik_vec3 pos(const fb_state *st, int joint) { return ik_mat4_translation(&st->job->model_ms[joint]); }

static ik_mat4 parent_matrix(const fb_state *st, int joint) {
    int p = st->s->parents[joint];
    return p >= 0 ? st->job->model_ms[p] : st->root;
}

static ik_real limb_length(const fb_state *st, int which) {
    const ik_humanoid_limb *l = &st->rig->limb[which];
    return (l->upper_length + l->lower_length) * st->scale;
}

/* The reach at the middle joint's largest bend b: sqrt(u^2 + v^2 + 2uv cos b)
 * (law of cosines, bend measured from straight). */
static ik_real limb_min_reach(const fb_state *st, int which) {
    const ik_humanoid_limb *l = &st->rig->limb[which];
    ik_real b = which >= IK_LIMB_LEG_L ? st->rig->limits.knee_max : st->rig->limits.elbow_max;
    ik_real u = l->upper_length * st->scale, v = l->lower_length * st->scale;
    return IK_SQRT(ik_maxr(u * u + v * v + 2 * u * v * IK_COS(b), 0));
}

/* Which body joints lie above (or are) `joint`, as bits. */
static unsigned mask_of(const fb_state *st, int joint) {
    unsigned m = 0;
    int d;
    for (d = 0; d < IK_FB_JOINT_COUNT; ++d) {
        int j = st->joint[d];
        if (j < 0 || st->col[d] < 0) continue;
        if (j == joint || ik_skeleton_is_descendant(st->s, joint, j)) m |= 1u << d;
    }
    return m;
}

/* The model rotation joint d would have with its reference local rotation
 * under its current parent (ik_skeleton_rotation_ms). */
static ik_quat reference_ms(const fb_state *st, int d) {
    int j = st->joint[d];
    ik_mat4 parent = parent_matrix(st, j);
    return ik_skeleton_rotation_ms(ik_mat4_rotation(&parent), ik_mat4_det3(&parent) < 0, st->ref_ls[d],
                                   st->job->pose_ls[j].scale);
}

/* The turn vector (axis times angle, the angle in [0, pi]) of q. */
static ik_vec3 turn_vector(ik_quat q) {
    ik_vec3 v = ik_v3(q.x, q.y, q.z);
    ik_real s = ik_vec3_length(v), angle;
    if (q.w < 0) v = ik_vec3_neg(v), q.w = -q.w;
    if (!(s > 0)) return ik_vec3_zero();
    angle = 2 * IK_ATAN2(s, q.w);
    return ik_vec3_scale(v, angle / s);
}

static ik_quat from_turn_vector(ik_vec3 v) {
    ik_real a = ik_vec3_length(v);
    if (!(a > 0)) return ik_quat_identity();
    return ik_quat_from_axis_angle(ik_vec3_scale(v, 1 / a), a);
}

/* Forward kinematics of the body's key joints only (the paths from the
 * pelvis to the shoulders, hips and head), parents first. */
static void fk_keys(const fb_state *st) {
    int i;
    for (i = 0; i < st->key_count; ++i)
        ik_skeleton_fk_joint(st->s, st->keys[i], st->job->pose_ls, st->job->root_ms, st->job->model_ms);
}

static void fk_all(const fb_state *st) {
    ik_skeleton_fk_subtree(st->s, st->pelvis, st->job->pose_ls, st->job->root_ms, st->job->model_ms);
}

/* ---- rows ------------------------------------------------------------------------ */

/* Adds `factor` times the gradient of g.p to `row` for a point p carried by
 * the body joints in `mask`: L g for the shift, (p - o_d) x g for a turn
 * about joint d's origin o_d, all over L (residuals are in leg lengths). */
static void add_point_row(const fb_state *st, ik_real *row, unsigned mask, ik_vec3 p, ik_vec3 g, ik_real factor) {
    int d;
    for (d = 0; d < IK_FB_JOINT_COUNT; ++d) {
        int c = st->col[d];
        ik_vec3 v;
        if (c < 0 || !(mask & (1u << d))) continue;
        if (d == IK_FB_JOINT_PELVIS_SHIFT)
            v = g;
        else
            v = ik_vec3_scale(ik_vec3_cross(ik_vec3_sub(p, pos(st, st->joint[d])), g), 1 / st->leg);
        row[c] += factor * v.x;
        row[c + 1] += factor * v.y;
        row[c + 2] += factor * v.z;
    }
}

/* A += w J J^T, b += w J r (the lower triangle is enough for Cholesky, but
 * the whole is kept for clarity at this size). */
static ik_real add_row(const fb_state *st, ik_real *A, ik_real *b, const ik_real *row, ik_real r, ik_real w) {
    int i, k, n = st->n;
    if (A)
        for (i = 0; i < n; ++i) {
            ik_real wi = w * row[i];
            if (wi == 0) continue;
            for (k = 0; k <= i; ++k) A[i * n + k] += wi * row[k];
            b[i] += wi * r;
        }
    return w * r * r;
}

static void clear_row(ik_real *row, int n) {
    int i;
    for (i = 0; i < n; ++i) row[i] = 0;
}

/* The centre of mass as the body stage sees it: constant + sum of
 * weight * lever over the terms (see the file's comment). */
static int com_terms(const fb_state *st, com_term *terms, ik_vec3 *constant) {
    const ik_body_mass *m = st->job->mass;
    const ik_mat4 *model = st->job->model_ms;
    ik_real total = 0;
    int i, count = 0, side;
    *constant = st->com_offset;
    for (i = 0; i < IK_MASS_SEG_COUNT; ++i) total += m->mass[i];
    if (!(total > 0)) return 0;
    for (i = IK_MASS_SEG_HEAD; i <= IK_MASS_SEG_TRUNK_HIGH; ++i) {
        if (m->mass[i] <= 0) continue;
        terms[count].lever = ik_mat4_transform_point(&model[m->joint[i]], m->centre_ls[i]);
        terms[count].mask = st->segment_mask[i];
        terms[count].weight = m->mass[i] / total;
        ++count;
    }
    for (side = 0; side < 4; ++side) {
        static const int segs[4][3] = {{IK_MASS_SEG_UPPER_ARM_L, IK_MASS_SEG_FOREARM_L, IK_MASS_SEG_HAND_L},
                                       {IK_MASS_SEG_UPPER_ARM_R, IK_MASS_SEG_FOREARM_R, IK_MASS_SEG_HAND_R},
                                       {IK_MASS_SEG_THIGH_L, IK_MASS_SEG_SHANK_L, IK_MASS_SEG_FOOT_L},
                                       {IK_MASS_SEG_THIGH_R, IK_MASS_SEG_SHANK_R, IK_MASS_SEG_FOOT_R}};
        const limb_goal *g = &st->limb[side];
        ik_vec3 a = pos(st, st->rig->limb[side].start);
        for (i = 0; i < 3; ++i) {
            ik_real share = m->mass[segs[side][i]] / total;
            if (g->active) {
                /* a + f (t' - a), t' the target brought within the limb's
                 * reach (where the hand will be): the lever a carries 1 - f
                 * of it, t' (taken as fixed) the rest */
                ik_real f = g->fraction[i], reach = limb_length(st, side), dist = ik_vec3_distance(g->target, a);
                ik_vec3 t = dist > reach ? ik_vec3_lerp(a, g->target, reach / dist) : g->target;
                *constant = ik_vec3_mad(*constant, t, share * f);
                terms[count].lever = a;
                terms[count].mask = st->limb_mask[side];
                terms[count].weight = share * (1 - f);
            } else {
                /* carried by the limb's start, turning with it */
                terms[count].lever =
                    ik_mat4_transform_point(&st->job->model_ms[st->rig->limb[side].start], g->offset[i]);
                terms[count].mask = st->limb_mask[side];
                terms[count].weight = share;
            }
            ++count;
        }
    }
    return count;
}

static ik_vec3 com_of_terms(const com_term *terms, int count, ik_vec3 constant) {
    int i;
    for (i = 0; i < count; ++i) constant = ik_vec3_mad(constant, terms[i].lever, terms[i].weight);
    return constant;
}

/* Signed distance of (x, y) into the support polygon: the smallest n.(a -
 * p) over its edges (positive inside). */
static ik_real inside_by(const fb_state *st, ik_real x, ik_real y, int edge, ik_real *nx, ik_real *ny) {
    int k = (edge + 1) % st->support_n;
    ik_real dx = st->sx[k] - st->sx[edge], dy = st->sy[k] - st->sy[edge], len = IK_SQRT(dx * dx + dy * dy);
    *nx = *ny = 0;
    if (!(len > 0)) return IK_REAL_MAX;
    *nx = dy / len;
    *ny = -dx / len;
    return *nx * (st->sx[edge] - x) + *ny * (st->sy[edge] - y);
}

/* Tiptoe: the heel's lift a hip at h asks of a foot that may rise on its
 * ball, the least that brings the ankle within the onset of the leg's
 * reach residual (far - soft L, where the residual is still 0). The ankle
 * turns about the axis a through the pivot p: t(q) = p + R(q) v, v = t0 -
 * p, and with h' = h - p,
 *   |h' - R(q) v|^2 = |h'|^2 + |v|^2 - 2 (a.h')(a.v) - 2 (P cos q + Q sin q),
 *   P = h'.v - (a.h')(a.v), Q = h'.(a x v)
 * (Rodrigues' formula), so |h - t(q)| <= D where P cos q + Q sin q >= S,
 * S = (|h'|^2 + |v|^2 - 2 (a.h')(a.v) - D^2) / 2: with R = sqrt(P^2 + Q^2)
 * and q* = atan2(Q, P), the least such q is q* - acos(S / R); where none
 * is, q* (the ankle nearest the hip); all within 0..lift_max. It moves
 * continuously with h, and where the leg still falls short the residual's
 * slope in q is 0 (q* or a bound), so the reach's gradient in the hip
 * stays the plain one. */
static ik_real heel_lift_for(const fb_state *st, const limb_goal *g, ik_vec3 hip) {
    ik_vec3 h = ik_vec3_sub(hip, g->pivot), v = ik_vec3_sub(g->target, g->pivot), a = g->axis;
    ik_real onset = g->far - g->soft * st->leg, ah = ik_vec3_dot(a, h), av = ik_vec3_dot(a, v);
    ik_real P = ik_vec3_dot(h, v) - ah * av, Q = ik_vec3_dot(h, ik_vec3_cross(a, v)), S, R, q;
    if (ik_vec3_distance(hip, g->target) <= onset) return 0;
    S = (ik_vec3_dot(h, h) + ik_vec3_dot(v, v) - 2 * ah * av - onset * onset) / 2;
    R = IK_SQRT(P * P + Q * Q);
    q = IK_ATAN2(Q, P);
    if (R > 0 && S <= R) q -= IK_ACOS(ik_clampr(S / R, -1, 1));
    return ik_clampr(q, 0, g->lift_max);
}

static ik_vec3 lifted(const limb_goal *g, ik_real lift, ik_vec3 p) {
    return ik_vec3_add(g->pivot, ik_quat_rotate(ik_quat_from_axis_angle(g->axis, lift), ik_vec3_sub(p, g->pivot)));
}

/* Where a limb's end goes with its start at `start`: its target, a
 * tiptoeing foot's lifted as the start asks. */
static ik_vec3 goal_target(const fb_state *st, const limb_goal *g, ik_vec3 start) {
    return g->tiptoe ? lifted(g, heel_lift_for(st, g, start), g->target) : g->target;
}

/* The ankle's flexion (ik_humanoid_ankle_angle, as ik_humanoid_leg_ankle
 * measures it) a pinned leg would have with its hip at h: the knee k in the
 * plane of the hip-to-ankle line u and the sole, ahead of the line toward
 * the toes, at the angle b from it that the law of cosines gives,
 * cos b = (l2^2 + d^2 - l1^2) / (2 l2 d), k = a + l2 (cos b u + sin b f)
 * with f the sole made square to u (d taken no larger than 0.99 l). The
 * knee of a leg turned in or out leaves that plane, so the model can be a
 * few degrees off (ANKLE_MARGIN keeps that inside the limit). */
static ik_real pinned_flex(const fb_state *st, int which, ik_vec3 h) {
    const ik_humanoid_limb *l = &st->rig->limb[which];
    const limb_goal *g = &st->limb[which];
    ik_vec3 target = g->target, sole = g->sole, lateral = g->lateral, u, f, k;
    ik_real d, l1 = l->upper_length * st->scale, l2 = l->lower_length * st->scale, c;
    if (g->tiptoe) {
        ik_real lift = heel_lift_for(st, g, h);
        ik_quat turn = ik_quat_from_axis_angle(g->axis, lift);
        target = lifted(g, lift, target);
        sole = ik_quat_rotate(turn, sole);
        lateral = ik_quat_rotate(turn, lateral);
    }
    u = ik_vec3_sub(h, target);
    d = ik_vec3_length(u);
    if (!(d > 0)) return 0;
    u = ik_vec3_scale(u, 1 / d);
    f = ik_vec3_normalize_or(ik_vec3_reject(sole, u), st->forward);
    /* the bend's angle has an infinite slope at full stretch (where pinned
     * legs stand): measured no closer than 0.99 of it, the guard's
     * gradient stays bounded */
    {
        ik_real dc = ik_minr(d, (ik_real)0.99 * (l1 + l2));
        c = ik_clampr((l2 * l2 + dc * dc - l1 * l1) / (2 * l2 * dc), -1, 1);
    }
    k = ik_vec3_add(ik_vec3_scale(u, c), ik_vec3_scale(f, IK_SQRT(1 - c * c)));
    return ik_humanoid_ankle_angle(sole, k, lateral);
}

/* The one-sided residuals (a limb beyond its reach, a centre beyond the
 * margin, a joint past its wall) as a smooth hinge: 0 below -SOFT, x above
 * SOFT, (x + SOFT)^2 / (4 SOFT) between (continuous slope), so a step sees
 * a wall coming before it runs into it (a plain max(0, x) appears in the
 * normal equations only once crossed: steps overshot, were refused, and
 * the damping climbed until the solve crawled). */
#define SOFT ((ik_real)0.01)
static ik_real hinge_of(ik_real x, ik_real soft, ik_real *slope) {
    if (x <= -soft) {
        *slope = 0;
        return 0;
    }
    if (x >= soft) {
        *slope = 1;
        return x;
    }
    *slope = (x + soft) / (2 * soft);
    return (x + soft) * (x + soft) / (4 * soft);
}

static ik_real hinge(ik_real x, ik_real *slope) { return hinge_of(x, SOFT, slope); }

/* Every residual at the current body pose; with A, b also the normal
 * equations. Returns E. */
static ik_real evaluate(fb_state *st, ik_real *A, ik_real *b) {
    const ik_full_body *job = st->job;
    ik_real row[MAX_COLS], cost = 0, L = st->leg;
    ik_quat rot[IK_FB_JOINT_COUNT], ref[IK_FB_JOINT_COUNT], rest[IK_FB_JOINT_COUNT];
    int i, d;
    if (A) {
        memset(A, 0, sizeof(ik_real) * (size_t)(st->n * st->n));
        memset(b, 0, sizeof(ik_real) * (size_t)st->n);
    }
    /* reach */
    for (i = 0; i < IK_LIMB_COUNT; ++i) {
        const limb_goal *g = &st->limb[i];
        ik_vec3 a, u;
        ik_real dist, far, near;
        int k;
        if (!g->active || !g->drags) continue;
        a = pos(st, st->rig->limb[i].start);
        u = ik_vec3_sub(goal_target(st, g, a), a);
        dist = ik_vec3_length(u);
        if (!(dist > 1e-9 * L)) continue;
        u = ik_vec3_scale(u, 1 / dist);
        far = g->far;
        near = g->near;
        for (k = 0; k < 2; ++k) {
            ik_real slope, r = k == 0 ? hinge_of((dist - far) / L, g->soft, &slope) : hinge((near - dist) / L, &slope);
            if (slope <= 0) continue;
            clear_row(row, st->n);
            add_point_row(st, row, st->limb_mask[i], a, u, k == 0 ? -slope : slope);
            cost += add_row(st, A, b, row, r, g->weight);
        }
    }
    /* pinned ankles within their limits (less ANKLE_MARGIN): the flexion's
     * gradient in the hip's position by central differences */
    for (i = IK_LIMB_LEG_L; i <= IK_LIMB_LEG_R; ++i) {
        const limb_goal *g = &st->limb[i];
        ik_vec3 hip, grad = ik_vec3_zero();
        ik_real flex, hstep = (ik_real)1e-3 * L;
        int k;
        if (!g->ankle_guard) continue;
        hip = pos(st, st->rig->limb[i].start);
        flex = pinned_flex(st, i, hip);
        if (flex - (g->flex_up - LIMIT_BAND) <= -SOFT && -(g->flex_down - LIMIT_BAND) - flex <= -SOFT) continue;
        for (k = 0; k < 3; ++k) {
            ik_vec3 e = ik_v3(k == 0 ? hstep : 0, k == 1 ? hstep : 0, k == 2 ? hstep : 0);
            ik_real df = pinned_flex(st, i, ik_vec3_add(hip, e)) - pinned_flex(st, i, ik_vec3_sub(hip, e));
            if (k == 0) grad.x = df / (2 * hstep);
            if (k == 1) grad.y = df / (2 * hstep);
            if (k == 2) grad.z = df / (2 * hstep);
        }
        for (k = 0; k < 2; ++k) {
            ik_real slope,
                r = hinge(k == 0 ? flex - (g->flex_up - LIMIT_BAND) : -(g->flex_down - LIMIT_BAND) - flex, &slope);
            if (slope <= 0) continue;
            clear_row(row, st->n);
            add_point_row(st, row, st->limb_mask[i], hip, ik_vec3_scale(grad, L), k == 0 ? slope : -slope);
            cost += add_row(st, A, b, row, r, W_BALANCE);
        }
    }
    /* tiptoe: the heel's lift costs W_LIFT per radian squared (a
     * stiffness), so the body bends its knees to lean rather than rise; the
     * lift's gradient in the hip's position by central differences */
    for (i = IK_LIMB_LEG_L; i <= IK_LIMB_LEG_R; ++i) {
        const limb_goal *g = &st->limb[i];
        ik_vec3 hip, grad;
        ik_real lift, hstep = (ik_real)1e-3 * L;
        if (!g->tiptoe) continue;
        hip = pos(st, st->rig->limb[i].start);
        lift = heel_lift_for(st, g, hip);
        if (lift <= 0 && heel_lift_for(st, g, ik_vec3_mad(hip, st->up, hstep)) <= 0) continue;
        grad.x = heel_lift_for(st, g, ik_vec3_add(hip, ik_v3(hstep, 0, 0))) -
                 heel_lift_for(st, g, ik_vec3_sub(hip, ik_v3(hstep, 0, 0)));
        grad.y = heel_lift_for(st, g, ik_vec3_add(hip, ik_v3(0, hstep, 0))) -
                 heel_lift_for(st, g, ik_vec3_sub(hip, ik_v3(0, hstep, 0)));
        grad.z = heel_lift_for(st, g, ik_vec3_add(hip, ik_v3(0, 0, hstep))) -
                 heel_lift_for(st, g, ik_vec3_sub(hip, ik_v3(0, 0, hstep)));
        clear_row(row, st->n);
        add_point_row(st, row, st->limb_mask[i], hip, ik_vec3_scale(grad, L / (2 * hstep)), 1);
        cost += add_row(st, A, b, row, lift, W_LIFT);
    }
    /* head, hips, chest: positions and rotations */
    for (i = IK_FB_HEAD; i <= IK_FB_CHEST; ++i) {
        const ik_full_body_effector *e = &job->effector[i];
        int joint = st->rig->map.joint[effector_roles[i]];
        unsigned mask = i == IK_FB_HEAD ? st->head_mask : i == IK_FB_CHEST ? st->chest_mask : st->pelvis_mask;
        ik_real w = e->pinned ? W_PIN : W_POSITION * e->pull * e->position_weight;
        if (!st->body_active[i]) continue;
        if (w > 0) {
            ik_vec3 p = pos(st, joint), err = ik_vec3_scale(ik_vec3_sub(p, st->body_target[i]), 1 / L);
            ik_vec3 axes[3];
            axes[0] = ik_v3(1, 0, 0), axes[1] = ik_v3(0, 1, 0), axes[2] = ik_v3(0, 0, 1);
            for (d = 0; d < 3; ++d) {
                clear_row(row, st->n);
                add_point_row(st, row, mask, p, axes[d], 1);
                cost += add_row(st, A, b, row, d == 0 ? err.x : d == 1 ? err.y : err.z, w);
            }
        }
        w = e->pinned ? W_PIN : W_ROTATION * e->pull * e->rotation_weight;
        if (st->body_use_rotation[i] && w > 0) {
            ik_vec3 v = turn_vector(
                ik_quat_mul(st->body_rotation[i], ik_quat_conjugate(ik_mat4_rotation(&job->model_ms[joint]))));
            for (d = 0; d < 3; ++d) {
                int k;
                clear_row(row, st->n);
                for (k = IK_FB_JOINT_PELVIS; k < IK_FB_JOINT_COUNT; ++k)
                    if (st->col[k] >= 0 && (mask & (1u << k))) row[st->col[k] + d] = -1;
                cost += add_row(st, A, b, row, d == 0 ? v.x : d == 1 ? v.y : v.z, w);
            }
        }
    }
    /* balance */
    if (st->balance && st->support_n >= 3) {
        com_term terms[MAX_TERMS];
        ik_vec3 constant, c;
        int count = com_terms(st, terms, &constant), e, t;
        ik_real x, y, margin = job->balance_margin * L * (st->on_ball ? (ik_real)0.25 : 1);
        c = com_of_terms(terms, count, constant);
        x = ik_vec3_dot(c, st->forward);
        y = ik_vec3_dot(c, st->left);
        for (e = 0; e < st->support_n; ++e) {
            ik_real nx, ny, slope, s = -inside_by(st, x, y, e, &nx, &ny) + margin, r = hinge(s / L, &slope);
            ik_vec3 g;
            if (slope <= 0) continue;
            g = ik_vec3_add(ik_vec3_scale(st->forward, nx), ik_vec3_scale(st->left, ny));
            clear_row(row, st->n);
            for (t = 0; t < count; ++t)
                add_point_row(st, row, terms[t].mask, terms[t].lever, g, terms[t].weight * slope);
            cost += add_row(st, A, b, row, r, W_BALANCE);
        }
    }
    /* each body joint's model rotation, and the ones its reference and
     * rest rotations would give under its current parent, read once */
    for (d = IK_FB_JOINT_PELVIS; d < IK_FB_JOINT_COUNT; ++d) {
        int j = st->joint[d];
        ik_mat4 parent;
        ik_quat pr;
        ik_bool mirrored;
        if (st->col[d] < 0) continue;
        parent = parent_matrix(st, j);
        pr = ik_mat4_rotation(&parent);
        mirrored = ik_mat4_det3(&parent) < 0;
        rot[d] = ik_mat4_rotation(&job->model_ms[j]);
        ref[d] = ik_skeleton_rotation_ms(pr, mirrored, st->ref_ls[d], job->pose_ls[j].scale);
        rest[d] = ik_skeleton_rotation_ms(pr, mirrored, st->rest_ls[d], job->pose_ls[j].scale);
    }
    /* limits as walls: a joint within LIMIT_BAND of its limit is pushed
     * back by the excess (the turn's angle |v| from rest, from the
     * reference for the pelvis, or the shift's length), whose gradient is
     * v / |v| on its own columns; the clamp after each step stays the hard
     * stop, and with the wall the steps see it coming instead of running
     * into it (a clamped step is no Gauss-Newton step, and stalled). */
    for (d = 0; d < IK_FB_JOINT_COUNT; ++d) {
        int c = st->col[d], k;
        ik_vec3 v;
        ik_real a, over, slope;
        if (c < 0) continue;
        if (d == IK_FB_JOINT_PELVIS_SHIFT) {
            ik_mat4 parent = parent_matrix(st, st->pelvis);
            v = ik_vec3_scale(ik_vec3_sub(pos(st, st->pelvis), ik_mat4_transform_point(&parent, st->ref_shift_ls)),
                              1 / L);
        } else {
            v = turn_vector(ik_quat_mul(rot[d], ik_quat_conjugate(d == IK_FB_JOINT_PELVIS ? ref[d] : rest[d])));
        }
        a = ik_vec3_length(v);
        over = hinge(a - (st->limit[d] - LIMIT_BAND), &slope);
        if (slope <= 0 || !(a > 0)) continue;
        clear_row(row, st->n);
        for (k = 0; k < 3; ++k) row[c + k] = (k == 0 ? v.x : k == 1 ? v.y : v.z) / a * slope;
        cost += add_row(st, A, b, row, over, W_BALANCE);
    }
    /* stiffness: each joint pulled toward its reference */
    for (d = 0; d < IK_FB_JOINT_COUNT; ++d) {
        int c = st->col[d], k;
        ik_vec3 v;
        if (c < 0) continue;
        if (d == IK_FB_JOINT_PELVIS_SHIFT) {
            ik_mat4 parent = parent_matrix(st, st->pelvis);
            v = ik_vec3_scale(ik_vec3_sub(pos(st, st->pelvis), ik_mat4_transform_point(&parent, st->ref_shift_ls)),
                              1 / L);
        } else {
            v = turn_vector(ik_quat_mul(rot[d], ik_quat_conjugate(ref[d])));
        }
        for (k = 0; k < 3; ++k) {
            clear_row(row, st->n);
            row[c + k] = 1;
            cost += add_row(st, A, b, row, k == 0 ? v.x : k == 1 ? v.y : v.z, job->stiffness[d]);
        }
    }
    return cost;
}

/* ---- steps and limits ------------------------------------------------------------ */

typedef struct body_state {
    ik_quat rotation[IK_FB_JOINT_COUNT];
    ik_vec3 shift;
} body_state;

static void save_body(const fb_state *st, body_state *b) {
    int d;
    for (d = 0; d < IK_FB_JOINT_COUNT; ++d)
        if (st->col[d] >= 0 && d != IK_FB_JOINT_PELVIS_SHIFT) b->rotation[d] = st->job->pose_ls[st->joint[d]].rotation;
    b->shift = st->job->pose_ls[st->pelvis].translation;
}

static void load_body(const fb_state *st, const body_state *b) {
    int d;
    for (d = 0; d < IK_FB_JOINT_COUNT; ++d)
        if (st->col[d] >= 0 && d != IK_FB_JOINT_PELVIS_SHIFT) st->job->pose_ls[st->joint[d]].rotation = b->rotation[d];
    st->job->pose_ls[st->pelvis].translation = b->shift;
}

/* Each joint back within its limit: the turn q from rest (the pelvis: from
 * its reference model rotation) of angle a > limit becomes slerp(1, q,
 * limit / a); the pelvis's shift is cut back to limit leg lengths. The
 * pelvis's model matrix must be current; the caller refreshes the keys. */
static void clamp_limits(const fb_state *st) {
    ik_transform *pose = st->job->pose_ls;
    int d;
    for (d = 0; d < IK_FB_JOINT_COUNT; ++d) {
        int j = st->joint[d];
        if (st->col[d] < 0) continue;
        if (d == IK_FB_JOINT_PELVIS_SHIFT) {
            ik_mat4 parent = parent_matrix(st, j), inv;
            ik_vec3 ref = ik_mat4_transform_point(&parent, st->ref_shift_ls), off = ik_vec3_sub(pos(st, j), ref);
            ik_real len = ik_vec3_length(off), lim = st->limit[d] * st->leg;
            if (len > lim && ik_mat4_inverse(&parent, &inv))
                pose[j].translation = ik_mat4_transform_point(&inv, ik_vec3_mad(ref, off, lim / len));
        } else if (d == IK_FB_JOINT_PELVIS) {
            ik_quat ref = reference_ms(st, d),
                    q = ik_quat_mul(ik_mat4_rotation(&st->job->model_ms[j]), ik_quat_conjugate(ref));
            ik_real a = ik_quat_angle(q);
            if (a > st->limit[d]) {
                ik_quat want = ik_quat_mul(ik_quat_slerp(ik_quat_identity(), q, st->limit[d] / a), ref);
                ik_mat4 parent = parent_matrix(st, j);
                pose[j].rotation = ik_quat_normalize(
                    ik_skeleton_rotation_ls(ik_mat4_rotation(&parent), ik_mat4_det3(&parent) < 0, want, pose[j].scale));
            }
        } else {
            ik_quat q = ik_quat_mul(ik_quat_conjugate(st->rest_ls[d]), pose[j].rotation);
            ik_real a = ik_quat_angle(q);
            if (a > st->limit[d])
                pose[j].rotation = ik_quat_normalize(
                    ik_quat_mul(st->rest_ls[d], ik_quat_slerp(ik_quat_identity(), q, st->limit[d] / a)));
        }
    }
}

/* x += t dx: the shift into the pelvis's parent frame, each turn by
 * ik_skeleton_turn_joint_ms against the parent's matrix before the step
 * (all turns are taken about the frames the Jacobian was made in). */
static void apply_step(const fb_state *st, const ik_real *dx, ik_real t) {
    ik_transform *pose = st->job->pose_ls;
    int d;
    for (d = 0; d < IK_FB_JOINT_COUNT; ++d) {
        int c = st->col[d], j = st->joint[d];
        ik_vec3 v;
        if (c < 0) continue;
        v = ik_vec3_scale(ik_v3(dx[c], dx[c + 1], dx[c + 2]), t);
        if (d == IK_FB_JOINT_PELVIS_SHIFT) {
            ik_mat4 parent = parent_matrix(st, j), inv;
            if (ik_mat4_inverse(&parent, &inv))
                pose[j].translation =
                    ik_vec3_add(pose[j].translation, ik_mat4_transform_vector(&inv, ik_vec3_scale(v, st->leg)));
        } else {
            ik_skeleton_turn_joint_ms(st->s, j, from_turn_vector(v), st->job->root_ms, pose, st->job->model_ms);
            pose[j].rotation = ik_quat_normalize(pose[j].rotation);
        }
    }
    ik_skeleton_fk_joint(st->s, st->pelvis, pose, st->job->root_ms, st->job->model_ms);
    clamp_limits(st);
    fk_keys(st);
}

/* Cholesky on the lower triangle of the n x n A (row-major), then solve
 * A x = -b into x. Returns 0 when A is not positive definite. */
static ik_bool solve_normal(ik_real *A, const ik_real *b, ik_real *x, int n) {
    int i, j, k;
    for (j = 0; j < n; ++j) {
        ik_real sum = A[j * n + j];
        for (k = 0; k < j; ++k) sum -= A[j * n + k] * A[j * n + k];
        if (!(sum > 0)) return 0;
        A[j * n + j] = IK_SQRT(sum);
        for (i = j + 1; i < n; ++i) {
            ik_real v = A[i * n + j];
            for (k = 0; k < j; ++k) v -= A[i * n + k] * A[j * n + k];
            A[i * n + j] = v / A[j * n + j];
        }
    }
    for (i = 0; i < n; ++i) {
        ik_real v = -b[i];
        for (k = 0; k < i; ++k) v -= A[i * n + k] * x[k];
        x[i] = v / A[i * n + i];
    }
    for (i = n - 1; i >= 0; --i) {
        ik_real v = x[i];
        for (k = i + 1; k < n; ++k) v -= A[k * n + i] * x[k];
        x[i] = v / A[i * n + i];
    }
    return 1;
}

/* Levenberg-Marquardt steps: (A + lambda diag A) dx = -b, the step cut to
 * MAX_STEP (radians, leg lengths); a step that raises E is taken back and
 * lambda raised eightfold, one that lowers it is kept and lambda quartered,
 * so where the goals conflict (pins against balance) the step shortens
 * toward steepest descent instead of overshooting. */
static void gauss_newton(fb_state *st, int iterations) {
    ik_real A[2][MAX_COLS * MAX_COLS], b[2][MAX_COLS], M[MAX_COLS * MAX_COLS], dx[MAX_COLS];
    body_state saved;
    int cur = 0, it, n = st->n;
    ik_real cost, lambda = (ik_real)1e-3;
    fk_keys(st);
    cost = evaluate(st, A[cur], b[cur]);
    for (it = 0; it < iterations; ++it) {
        ik_real step = 0, next = cost;
        int i, tries;
        ik_bool moved = 0;
        save_body(st, &saved);
        ++st->iterations;
        for (tries = 0; tries < 8; ++tries) {
            memcpy(M, A[cur], sizeof(ik_real) * (size_t)(n * n));
            for (i = 0; i < n; ++i) M[i * n + i] += lambda * A[cur][i * n + i];
            if (!solve_normal(M, b[cur], dx, n)) {
                lambda *= 8;
                continue;
            }
            step = 0;
            for (i = 0; i < n; ++i) step = ik_maxr(step, IK_FABS(dx[i]));
            if (step < STEP_DONE) break;
            apply_step(st, dx, step > MAX_STEP ? MAX_STEP / step : 1);
            /* the trial's normal equations are built as it is measured, and
             * kept when it is taken */
            next = evaluate(st, A[1 - cur], b[1 - cur]);
            if (next <= cost * (1 + (ik_real)1e-6)) {
                moved = 1;
                cur = 1 - cur;
                lambda = ik_maxr(lambda * (ik_real)0.25, (ik_real)1e-7);
                break;
            }
            load_body(st, &saved);
            fk_keys(st);
            lambda *= 8;
        }
        if (!moved) break;
        /* done when the step or what it gained is negligible */
        if (step < STEP_DONE || cost - next <= COST_DONE * cost) break;
        cost = next;
    }
}

/* The body stage. A penalty's residual settles at about K dx / W (the
 * stiffness against the goal's weight): the weights are 2e3 (reach) to
 * 2e7 (a pinned foot) against stiffnesses of 1 to 3, so a head sent 0.5
 * radians of neck and spine away lands within some 3e-5 leg lengths, and a
 * balanced centre stays inside its margin while a hand pulls against it
 * (the weights keep their order: pinned feet, pins, balance and limits,
 * positions, reach). */
static void solve_body(fb_state *st) { gauss_newton(st, st->job->iterations); }

/* What the body stage's centre of mass misses against the exact one
 * (ik_body_mass_centre) in the pose model_ms holds, with each limb's end
 * where it is now: added to the constant, so a warm start begins with the
 * last frame's correction instead of none. */
static void start_com_offset(fb_state *st) {
    com_term terms[MAX_TERMS];
    ik_vec3 constant, saved[IK_LIMB_COUNT];
    int i, count;
    for (i = 0; i < IK_LIMB_COUNT; ++i) {
        ik_mat4 end = ik_humanoid_limb_end_ms(&st->rig->limb[i], st->job->model_ms);
        saved[i] = st->limb[i].target;
        st->limb[i].target = ik_mat4_translation(&end);
    }
    count = com_terms(st, terms, &constant);
    st->com_offset =
        ik_vec3_sub(ik_body_mass_centre(st->job->mass, st->job->model_ms), com_of_terms(terms, count, constant));
    for (i = 0; i < IK_LIMB_COUNT; ++i) st->limb[i].target = saved[i];
}

/* ---- setup ------------------------------------------------------------------------ */

static void mark_path(fb_state *st, int joint) {
    for (; joint >= 0 && joint != st->pelvis; joint = st->s->parents[joint]) st->mark[joint] = 1;
}

static void setup(fb_state *st, const ik_full_body *job) {
    const ik_humanoid *rig = job->rig;
    const int *map = rig->map.joint;
    ik_real det;
    int d, i, side;
    memset(st, 0, sizeof *st);
    st->job = job;
    st->rig = rig;
    st->s = rig->skeleton;
    st->root = job->root_ms ? *job->root_ms : ik_mat4_identity();
    det = ik_mat4_det3(&st->root);
    st->scale = IK_CBRT(IK_FABS(det));
    if (!(st->scale > 0) || !ik_finite(st->scale)) st->scale = 1;
    st->up = ik_vec3_normalize_or(ik_mat4_transform_vector(&st->root, rig->up_rs), rig->up_rs);
    st->forward = ik_vec3_normalize_or(ik_mat4_transform_vector(&st->root, rig->forward_rs), rig->forward_rs);
    st->left = ik_vec3_normalize_or(ik_vec3_reject(ik_mat4_transform_vector(&st->root, rig->left_rs), st->forward),
                                    rig->left_rs);
    st->leg = (ik_real)0.5 * (limb_length(st, IK_LIMB_LEG_L) + limb_length(st, IK_LIMB_LEG_R));
    st->pelvis = rig->pelvis;
    /* The body's joints: pelvis, spine, chest, neck when each is a proper
     * descendant of the one before, clavicles under the chest. */
    for (d = 0; d < IK_FB_JOINT_COUNT; ++d) st->joint[d] = -1;
    st->joint[IK_FB_JOINT_PELVIS_SHIFT] = st->joint[IK_FB_JOINT_PELVIS] = st->pelvis;
    {
        int prev = st->pelvis;
        static const int roles[3] = {IK_ROLE_SPINE, IK_ROLE_CHEST, IK_ROLE_NECK};
        for (i = 0; i < 3; ++i) {
            int j = map[roles[i]];
            if (j < 0 || j == prev || !ik_skeleton_is_descendant(st->s, j, prev)) continue;
            st->joint[IK_FB_JOINT_SPINE + i] = j;
            prev = j;
        }
    }
    for (side = 0; side < 2; ++side) {
        int c = rig->limb[IK_LIMB_ARM_L + side].clavicle;
        if (c >= 0 && c != st->pelvis && ik_skeleton_is_descendant(st->s, c, st->pelvis))
            st->joint[IK_FB_JOINT_CLAVICLE_L + side] = c;
    }
    st->n = 0;
    for (d = 0; d < IK_FB_JOINT_COUNT; ++d) {
        st->col[d] = st->joint[d] >= 0 ? st->n : -1;
        if (st->joint[d] >= 0) st->n += 3;
        st->limit[d] = job->limit[d];
        if (st->joint[d] >= 0) {
            st->rest_ls[d] = st->s->rest_ls[st->joint[d]].rotation;
            st->ref_ls[d] = (job->reference_ls ? job->reference_ls : job->pose_ls)[st->joint[d]].rotation;
        }
    }
    st->limit[IK_FB_JOINT_CLAVICLE_L] = st->limit[IK_FB_JOINT_CLAVICLE_R] =
        ik_minr(job->limit[IK_FB_JOINT_CLAVICLE_L], ik_maxr(rig->limits.clavicle_forward, rig->limits.clavicle_up));
    st->ref_shift_ls = (job->reference_ls ? job->reference_ls : job->pose_ls)[st->pelvis].translation;
    /* The key joints: the paths from the pelvis to each limb's start and the
     * head, sorted parents first by the joints' order. */
    st->mark = (unsigned char *)job->scratch;
    st->keys = (int *)((unsigned char *)job->scratch +
                       ((size_t)st->s->joint_count + sizeof(int) - 1) / sizeof(int) * sizeof(int));
    memset(st->mark, 0, (size_t)st->s->joint_count);
    for (i = 0; i < IK_LIMB_COUNT; ++i) mark_path(st, rig->limb[i].start);
    mark_path(st, map[IK_ROLE_HEAD]);
    mark_path(st, map[IK_ROLE_CHEST]);
    st->keys[st->key_count++] = st->pelvis;
    for (i = st->pelvis + 1; i < st->s->joint_count; ++i)
        if (st->mark[i]) st->keys[st->key_count++] = i;
    for (i = 0; i < IK_LIMB_COUNT; ++i) st->limb_mask[i] = mask_of(st, rig->limb[i].start);
    st->head_mask = mask_of(st, map[IK_ROLE_HEAD]);
    st->chest_mask = mask_of(st, map[IK_ROLE_CHEST]);
    st->pelvis_mask = mask_of(st, st->pelvis);
    if (job->mass)
        for (i = 0; i < IK_MASS_SEG_COUNT; ++i) st->segment_mask[i] = mask_of(st, job->mass->joint[i]);
}

/* The fraction of its length a limb spans from start to end in a pose
 * (local transforms only: each joint's origin carried up the chain into
 * the start's frame), 0 when unknown. */
static ik_real limb_span(const fb_state *st, int which, const ik_transform *pose) {
    const ik_humanoid_limb *l = &st->rig->limb[which];
    const int *parent = st->s->parents;
    ik_vec3 mid = ik_vec3_zero(), end = l->end >= 0 ? ik_vec3_zero() : l->end_offset_ls;
    ik_real full;
    int j, guard;
    for (j = l->mid, guard = 0; j >= 0 && j != l->start && guard < 64; j = parent[j], ++guard)
        mid = ik_transform_point(pose[j], mid);
    if (j != l->start) return 0;
    for (j = l->end >= 0 ? l->end : l->mid, guard = 0; j >= 0 && j != l->start && guard < 64; j = parent[j], ++guard)
        end = ik_transform_point(pose[j], end);
    if (j != l->start) return 0;
    full = ik_vec3_length(mid) + ik_vec3_distance(end, mid);
    return full > 0 ? ik_minr(ik_vec3_length(end) / full, 1) : 0;
}

/* A tiptoeing leg's reach: a leg as straight in the reference pose as the
 * onset of its residual or more (a standing rest pose's) may stay as
 * straight: its residual starts at that span d_ref (far = d_ref + SOFT L),
 * its heel lifting as the hip rises past it, and its two-bone target is
 * not drawn in. With the general margin's onset the heels rose 5 to 11
 * degrees with no goal at all (the straight rest legs beyond it). Once
 * the lift is at its limit a body pulled further stretches the leg past
 * d_ref within the hinge (some 3e-3 leg lengths under a hand's full pull),
 * which a leg straight at rest cannot follow. */
static void pinned_leg_reach(fb_state *st, int which) {
    limb_goal *g = &st->limb[which];
    const ik_full_body *job = st->job;
    ik_real len = limb_length(st, which), onset = g->far - g->soft * st->leg;
    ik_real span = limb_span(st, which, job->reference_ls ? job->reference_ls : job->pose_ls) * len;
    if (!(span > onset)) return;
    g->far = span + g->soft * st->leg;
    g->straight = 1;
}

/* A pinned foot that may rise on its ball (allow_heel_lift): the pivot is
 * the toe joint (so the toes, keeping their model turn, stay where they
 * are) or, without toes, the ball's contact point; the axis up x sole
 * (heel to ball), about which a positive turn lifts the heel. All as the
 * goal carries them: by the turn from the input foot's rotation to the
 * goal's. Last frame's lift, the sole's fall from heel to ball across up,
 * asin(-s.up) for the unit sole s, is turned back out of the goal, so the
 * goal is the flat foot whatever the start. The lift stops at the ankle's
 * plantarflexion limit and, with toes, at their bend. */
static void setup_tiptoe(fb_state *st, int which) {
    const ik_humanoid_limb *l = &st->rig->limb[which];
    limb_goal *g = &st->limb[which];
    const ik_mat4 *fm = &st->job->model_ms[l->end];
    ik_quat turn = ik_quat_mul(g->rotation, ik_quat_conjugate(ik_mat4_rotation(fm)));
    ik_vec3 ankle = ik_mat4_translation(fm), pivot, heel, ball, sole, axis;
    ik_real fall;
    pivot = l->toe >= 0 ? pos(st, l->toe) : ik_mat4_transform_point(fm, l->ball_ls);
    heel = ik_quat_rotate(turn, ik_vec3_sub(ik_mat4_transform_point(fm, l->heel_ls), ankle));
    ball = ik_quat_rotate(turn, ik_vec3_sub(ik_mat4_transform_point(fm, l->ball_ls), ankle));
    sole = ik_vec3_sub(ball, heel);
    axis = ik_vec3_cross(st->up, sole);
    if (!(ik_vec3_length_sq(axis) > ik_vec3_length_sq(sole) * (ik_real)1e-6)) return;
    g->tiptoe = 1;
    g->axis = ik_vec3_normalize(axis);
    g->pivot = ik_vec3_add(g->target, ik_quat_rotate(turn, ik_vec3_sub(pivot, ankle)));
    g->toe_ms = l->toe >= 0 ? ik_quat_normalize(ik_quat_mul(turn, ik_mat4_rotation(&st->job->model_ms[l->toe])))
                            : ik_quat_identity();
    fall = -ik_vec3_dot(ik_vec3_normalize(sole), st->up);
    g->on_ball = fall > (ik_real)1e-3;
    st->on_ball |= g->on_ball;
    if (fall > 0) {
        ik_quat back = ik_quat_from_axis_angle(g->axis, -IK_ATAN2(fall, IK_SQRT(ik_maxr(1 - fall * fall, 0))));
        g->target = ik_vec3_add(g->pivot, ik_quat_rotate(back, ik_vec3_sub(g->target, g->pivot)));
        g->rotation = ik_quat_normalize(ik_quat_mul(back, g->rotation));
    }
    g->lift_max = st->rig->limits.ankle_down;
    if (l->toe >= 0) g->lift_max = ik_minr(g->lift_max, st->rig->limits.toe_bend);
}

/* The feet's goals and the arms': a pinned foot not enabled is held where
 * the input has it. model_ms must hold the input's forward kinematics. */
static void setup_goals(fb_state *st) {
    const ik_full_body *job = st->job;
    int i;
    for (i = 0; i < IK_LIMB_COUNT; ++i) {
        const ik_full_body_effector *e = &job->effector[i];
        const ik_humanoid_limb *l = &st->rig->limb[i];
        limb_goal *g = &st->limb[i];
        ik_mat4 end = ik_humanoid_limb_end_ms(l, job->model_ms);
        g->effector = e;
        g->active = e->pinned || (e->enabled && e->position_weight > 0);
        g->target = e->enabled ? e->position_ms : ik_mat4_translation(&end);
        g->blend = e->pinned ? 1 : e->position_weight;
        g->weight = e->pinned ? (i >= IK_LIMB_LEG_L ? W_FOOT_PIN : W_PIN) : W_REACH * e->pull * e->position_weight;
        g->drags = g->weight > 0;
        g->has_rotation = l->end >= 0 && (e->pinned || (e->enabled && e->use_rotation));
        g->rotation = e->enabled && e->use_rotation ? e->rotation_ms : ik_mat4_rotation(&end);
        g->rotation_blend = e->pinned ? 1 : e->rotation_weight;
        g->far = limb_length(st, i) * (1 - job->reach_margin);
        g->near = limb_min_reach(st, i) * (1 + job->reach_margin);
        g->soft = SOFT;
        g->straight = 0;
        if (i >= IK_LIMB_LEG_L && e->pinned && e->allow_heel_lift && l->end >= 0) pinned_leg_reach(st, i);
        g->ankle_guard = 0;
        g->tiptoe = 0;
        if (i >= IK_LIMB_LEG_L && e->pinned && e->allow_heel_lift && l->end >= 0) setup_tiptoe(st, i);
        if (i >= IK_LIMB_LEG_L && e->pinned && ik_humanoid_limb_foot(l) >= 0) {
            const ik_mat4 *fm = &job->model_ms[ik_humanoid_limb_foot(l)];
            ik_quat turn = g->has_rotation ? ik_quat_mul(g->rotation, ik_quat_conjugate(ik_mat4_rotation(fm)))
                                           : ik_quat_identity();
            g->sole = ik_quat_rotate(
                turn, ik_vec3_sub(ik_mat4_transform_point(fm, l->ball_ls), ik_mat4_transform_point(fm, l->heel_ls)));
            /* the foot's left, turned round under a mirroring root (as
             * ik_humanoid_ankle_angle asks) */
            g->lateral = ik_vec3_scale(
                ik_quat_rotate(turn, ik_vec3_normalize_or(ik_mat4_transform_vector(fm, l->lateral_ls), st->left)),
                ik_mat4_det3(&st->root) < 0 ? -1 : 1);
            g->ankle_guard = ik_vec3_length_sq(g->sole) > 0;
        }
    }
    /* A rest or input pose already beyond an ankle's limit (robot.glb's
     * feet) is not pulled back by the body: the limit is widened to it. */
    for (i = IK_LIMB_LEG_L; i <= IK_LIMB_LEG_R; ++i) {
        limb_goal *g = &st->limb[i];
        ik_real flex;
        if (!g->ankle_guard) continue;
        flex = pinned_flex(st, i, pos(st, st->rig->limb[i].start));
        g->flex_up = ik_maxr(st->rig->limits.ankle_up - ANKLE_MARGIN, flex);
        g->flex_down = ik_maxr(st->rig->limits.ankle_down - ANKLE_MARGIN, -flex);
    }
    for (i = IK_FB_HEAD; i <= IK_FB_CHEST; ++i) {
        const ik_full_body_effector *e = &job->effector[i];
        int joint = st->rig->map.joint[effector_roles[i]];
        st->body_active[i] = e->enabled || e->pinned;
        st->body_target[i] = e->enabled ? e->position_ms : pos(st, joint);
        st->body_use_rotation[i] = e->pinned || (e->enabled && e->use_rotation);
        st->body_rotation[i] = e->enabled && e->use_rotation ? e->rotation_ms : ik_mat4_rotation(&job->model_ms[joint]);
    }
}

/* The support polygon: the convex hull (Andrew's monotone chain) on the
 * floor plane (x along forward, y along left) of each pinned foot's sole,
 * a rectangle from the heel to the toes' tip, foot_width of that long. A
 * pinned foot with a target is carried there: its sole turned by the turn
 * from its input rotation to the target's, about the ankle, and moved with
 * it. */
static void setup_support(fb_state *st, ik_full_body_report *rep) {
    const ik_full_body *job = st->job;
    ik_real px[IK_FULL_BODY_MAX_SUPPORT], py[IK_FULL_BODY_MAX_SUPPORT];
    int order[IK_FULL_BODY_MAX_SUPPORT], n = 0, i, k, side;
    st->support_n = 0;
    for (side = 0; side < 2; ++side) {
        const ik_humanoid_limb *l = &st->rig->limb[IK_LIMB_LEG_L + side];
        const limb_goal *g = &st->limb[IK_LIMB_LEG_L + side];
        ik_mat4 end = ik_humanoid_limb_end_ms(l, job->model_ms);
        ik_vec3 ankle = ik_mat4_translation(&end), heel, tip, dir, across;
        ik_vec3 ball_at = ik_vec3_zero();
        ik_quat turn = ik_quat_identity();
        int foot = ik_humanoid_limb_foot(l);
        ik_bool ball_point;
        ik_real hx, hy, tx, ty, len, half;
        if (!g->effector->pinned) continue;
        ball_point = 0;
        if (foot >= 0 && l->end >= 0) {
            const ik_mat4 *fm = &job->model_ms[foot];
            ik_vec3 ball = ik_mat4_transform_point(fm, l->ball_ls);
            heel = ik_mat4_transform_point(fm, l->heel_ls);
            tip = ik_vec3_add(ball, ik_vec3_scale(ik_vec3_sub(ball, heel), (ik_real)0.3));
            if (l->toe >= 0) tip = ik_mat4_transform_point(&job->model_ms[l->toe], l->toe_tip_ls);
            if (g->has_rotation) turn = ik_quat_mul(g->rotation, ik_quat_conjugate(ik_mat4_rotation(fm)));
            /* on tiptoe the sole is the ball and the toes (as wide as the
             * whole foot's) */
            if (g->tiptoe && g->on_ball) {
                ball_at = ball;
                ball_point = 1;
            }
        } else {
            heel = ik_vec3_mad(ankle, st->up, -l->ankle_height * st->scale);
            tip = ik_vec3_mad(heel, st->forward, (ik_real)0.2 * st->leg);
        }
        heel = ik_vec3_add(g->target, ik_quat_rotate(turn, ik_vec3_sub(heel, ankle)));
        tip = ik_vec3_add(g->target, ik_quat_rotate(turn, ik_vec3_sub(tip, ankle)));
        hx = ik_vec3_dot(heel, st->forward), hy = ik_vec3_dot(heel, st->left);
        tx = ik_vec3_dot(tip, st->forward), ty = ik_vec3_dot(tip, st->left);
        len = IK_SQRT((tx - hx) * (tx - hx) + (ty - hy) * (ty - hy));
        if (!(len > 0)) continue;
        half = (ik_real)0.5 * job->foot_width * len;
        if (ball_point) {
            ik_vec3 b = ik_vec3_add(g->target, ik_quat_rotate(turn, ik_vec3_sub(ball_at, ankle)));
            ik_real bx = ik_vec3_dot(b, st->forward), by = ik_vec3_dot(b, st->left);
            /* the ball's point along the heel-to-tip line */
            ik_real along = ik_clampr(((bx - hx) * (tx - hx) + (by - hy) * (ty - hy)) / (len * len), 0, 1);
            hx += along * (tx - hx);
            hy += along * (ty - hy);
            len *= 1 - along;
            if (!(len > 0)) continue;
        }
        dir = ik_v3((tx - hx) / len, (ty - hy) / len, 0);
        across = ik_v3(-dir.y * half, dir.x * half, 0);
        px[n] = hx + across.x, py[n++] = hy + across.y;
        px[n] = hx - across.x, py[n++] = hy - across.y;
        px[n] = tx + across.x, py[n++] = ty + across.y;
        px[n] = tx - across.x, py[n++] = ty - across.y;
    }
    if (n < 3) return;
    /* sort by x then y (insertion: at most 8 points) */
    for (i = 0; i < n; ++i) order[i] = i;
    for (i = 1; i < n; ++i)
        for (k = i; k > 0 && (px[order[k]] < px[order[k - 1]] ||
                              (px[order[k]] == px[order[k - 1]] && py[order[k]] < py[order[k - 1]]));
             --k) {
            int t = order[k];
            order[k] = order[k - 1];
            order[k - 1] = t;
        }
    {
        int hull[2 * IK_FULL_BODY_MAX_SUPPORT], h = 0, lower;
        for (i = 0; i < n; ++i) {
            while (h >= 2) {
                int a = hull[h - 2], b2 = hull[h - 1], c = order[i];
                ik_real cross = (px[b2] - px[a]) * (py[c] - py[a]) - (py[b2] - py[a]) * (px[c] - px[a]);
                if (cross > 0) break;
                --h;
            }
            hull[h++] = order[i];
        }
        lower = h + 1;
        for (i = n - 2; i >= 0; --i) {
            while (h >= lower) {
                int a = hull[h - 2], b2 = hull[h - 1], c = order[i];
                ik_real cross = (px[b2] - px[a]) * (py[c] - py[a]) - (py[b2] - py[a]) * (px[c] - px[a]);
                if (cross > 0) break;
                --h;
            }
            hull[h++] = order[i];
        }
        --h;
        if (h < 3) return;
        for (i = 0; i < h && i < IK_FULL_BODY_MAX_SUPPORT; ++i) {
            st->sx[i] = px[hull[i]];
            st->sy[i] = py[hull[i]];
        }
        st->support_n = i;
    }
    if (rep) {
        ik_vec3 floor_point = ik_vec3_zero();
        ik_real height = 0;
        int feet = 0;
        for (side = 0; side < 2; ++side)
            if (st->limb[IK_LIMB_LEG_L + side].effector->pinned) {
                const ik_humanoid_limb *l = &st->rig->limb[IK_LIMB_LEG_L + side];
                height += ik_vec3_dot(st->limb[IK_LIMB_LEG_L + side].target, st->up) - l->ankle_height * st->scale;
                ++feet;
            }
        if (feet) height /= (ik_real)feet;
        rep->support_count = st->support_n;
        for (i = 0; i < st->support_n; ++i) {
            floor_point = ik_vec3_add(ik_vec3_scale(st->forward, st->sx[i]), ik_vec3_scale(st->left, st->sy[i]));
            rep->support_ms[i] = ik_vec3_mad(floor_point, st->up, height);
        }
    }
}

/* At a round's start (full forward kinematics current): each limb's
 * segments' centres as fractions along start -> end and as offsets from the
 * start. */
static void setup_limb_mass(fb_state *st) {
    static const int segs[4][3] = {{IK_MASS_SEG_UPPER_ARM_L, IK_MASS_SEG_FOREARM_L, IK_MASS_SEG_HAND_L},
                                   {IK_MASS_SEG_UPPER_ARM_R, IK_MASS_SEG_FOREARM_R, IK_MASS_SEG_HAND_R},
                                   {IK_MASS_SEG_THIGH_L, IK_MASS_SEG_SHANK_L, IK_MASS_SEG_FOOT_L},
                                   {IK_MASS_SEG_THIGH_R, IK_MASS_SEG_SHANK_R, IK_MASS_SEG_FOOT_R}};
    int i, k;
    if (!st->job->mass) return;
    for (i = 0; i < IK_LIMB_COUNT; ++i) {
        const ik_humanoid_limb *l = &st->rig->limb[i];
        ik_mat4 end_ms = ik_humanoid_limb_end_ms(l, st->job->model_ms);
        ik_vec3 a = pos(st, l->start), e = ik_vec3_sub(ik_mat4_translation(&end_ms), a);
        ik_real ee = ik_vec3_length_sq(e);
        ik_mat4 inv;
        if (!ik_mat4_inverse(&st->job->model_ms[l->start], &inv)) inv = ik_mat4_identity();
        for (k = 0; k < 3; ++k) {
            ik_vec3 c = ik_body_mass_segment_centre(st->job->mass, segs[i][k], st->job->model_ms);
            st->limb[i].offset[k] = ik_mat4_transform_point(&inv, c);
            st->limb[i].fraction[k] = ee > 0 ? ik_vec3_dot(ik_vec3_sub(c, a), e) / ee : 0;
        }
    }
}

/* ---- the limbs -------------------------------------------------------------------- */

static void set_rotation(const fb_state *st, int joint, ik_quat q) {
    ik_transform *t = &st->job->pose_ls[joint];
    ik_mat4 parent = parent_matrix(st, joint);
    t->rotation =
        ik_quat_normalize(ik_skeleton_rotation_ls(ik_mat4_rotation(&parent), ik_mat4_det3(&parent) < 0, q, t->scale));
    ik_skeleton_fk_subtree(st->s, joint, st->job->pose_ls, st->job->root_ms, st->job->model_ms);
}

/* A pinned foot's ankle exactly within its limits. The body stage keeps
 * it by a model of the knee (pinned_flex), which a leg turned in or out
 * may leave by a few degrees (2.1 degrees past the limit in 1 of 900
 * cases of test_full_body's four effectors, before the pole followed the
 * knee's side). Where the finished leg's ankle,
 * ik_humanoid_ankle_angle of the sole and ankle -> knee, is past
 * [-ankle_down, ankle_up] (widened to the input's), the leg is rolled
 * about its hip -> ankle line (hip, ankle and foot stay; the knee goes
 * round), by the least roll that brings it inside: steps of 3 degrees
 * each way up to 90, then bisection. */
static ik_real rolled_flex(const fb_state *st, ik_vec3 hip, ik_vec3 ankle, ik_vec3 knee, ik_vec3 sole, ik_vec3 lateral,
                           ik_real roll) {
    ik_vec3 axis = ik_vec3_normalize_or(ik_vec3_sub(ankle, hip), st->up);
    ik_vec3 k = ik_vec3_add(hip, ik_quat_rotate(ik_quat_from_axis_angle(axis, roll), ik_vec3_sub(knee, hip)));
    return ik_humanoid_ankle_angle(sole, ik_vec3_sub(k, ankle), lateral);
}

static void keep_ankle(const fb_state *st, int which, ik_quat rotation) {
    const ik_humanoid_limb *l = &st->rig->limb[which];
    const limb_goal *g = &st->limb[which];
    ik_mat4 end = ik_humanoid_limb_end_ms(l, st->job->model_ms);
    ik_vec3 hip = pos(st, l->start), knee = pos(st, l->mid), ankle = ik_mat4_translation(&end);
    ik_vec3 sole = g->sole, lateral = g->lateral;
    ik_real up = ik_maxr(st->rig->limits.ankle_up, g->flex_up),
            down = ik_maxr(st->rig->limits.ankle_down, g->flex_down);
    ik_real flex, lo = 0, hi = 0;
    int k, dir, found = 0;
    if (g->tiptoe) {
        ik_quat turn = ik_quat_from_axis_angle(g->axis, heel_lift_for(st, g, hip));
        sole = ik_quat_rotate(turn, sole);
        lateral = ik_quat_rotate(turn, lateral);
    }
    flex = rolled_flex(st, hip, ankle, knee, sole, lateral, 0);
    if (flex <= up && flex >= -down) return;
    for (k = 1; k <= 30 && !found; ++k)
        for (dir = -1; dir <= 1 && !found; dir += 2) {
            ik_real roll = (ik_real)dir * (ik_real)k * ik_rad(3);
            flex = rolled_flex(st, hip, ankle, knee, sole, lateral, roll);
            if (flex <= up && flex >= -down) {
                found = 1;
                lo = roll - (ik_real)dir * ik_rad(3);
                hi = roll;
            }
        }
    if (!found) return;
    for (k = 0; k < 24; ++k) {
        ik_real mid = (ik_real)0.5 * (lo + hi);
        flex = rolled_flex(st, hip, ankle, knee, sole, lateral, mid);
        if (flex <= up && flex >= -down)
            hi = mid;
        else
            lo = mid;
    }
    ik_skeleton_turn_joint_ms(st->s, l->start,
                              ik_quat_from_axis_angle(ik_vec3_normalize_or(ik_vec3_sub(ankle, hip), st->up), hi),
                              st->job->root_ms, st->job->pose_ls, st->job->model_ms);
    st->job->pose_ls[l->start].rotation = ik_quat_normalize(st->job->pose_ls[l->start].rotation);
    ik_skeleton_fk_subtree(st->s, l->start, st->job->pose_ls, st->job->root_ms, st->job->model_ms);
    if (l->end >= 0) set_rotation(st, l->end, rotation);
    if (g->tiptoe && l->toe >= 0) set_rotation(st, l->toe, g->toe_ms);
}

/* Two-bone IK with the rig's hinge and limits, keeping its roll or bending
 * toward the effector's pole, then the end turned to its rotation. */
static void finish_limb(const fb_state *st, int which) {
    const ik_humanoid_limb *l = &st->rig->limb[which];
    const limb_goal *g = &st->limb[which];
    ik_bool leg = which >= IK_LIMB_LEG_L;
    ik_two_bone tb = ik_two_bone_def();
    ik_mat4 end_ms;
    ik_vec3 target = g->target;
    ik_quat rotation = g->rotation;
    if (!g->active) return;
    end_ms = ik_humanoid_limb_end_ms(l, st->job->model_ms);
    if (g->tiptoe) {
        ik_real lift = heel_lift_for(st, g, pos(st, l->start));
        target = lifted(g, lift, target);
        rotation = ik_quat_normalize(ik_quat_mul(ik_quat_from_axis_angle(g->axis, lift), rotation));
    }
    /* A target the body could not bring within (1 - m/2) of the limb's
     * length l (m the reach margin; the body stage brings reachable
     * targets within (1 - m) l) is drawn in along its line, its distance
     * d taken as d0 + w tanh((d - d0) / w) with d0 = (1 - m/2) l and
     * w = m/4 l: the limb stops a little bent, never past (1 - m/4) l,
     * instead of straight, where its roll about its own line has no
     * natural answer and the bend's slope in the distance is infinite. The
     * tanh leaves the line with slope 1 and flattens, so the bend changes
     * at most as fast as at d0 (for equal bones 2 / (l sin(b/2)): 28 / l
     * radians per unit of distance) as a target crosses full reach; a plain
     * cap at (1 - m/4) l bends 40 / l just below it (robot.glb's arm: 1.8
     * degrees per 1e-3 arm lengths). A target the body left beyond d0
     * misses by w (x - tanh x) with x = (d - d0) / w, about w x^3 / 3. */
    {
        ik_vec3 a = ik_mat4_translation(&st->job->model_ms[l->start]);
        ik_real len = limb_length(st, which), dist = ik_vec3_distance(a, target);
        ik_real d0 = len * (1 - st->job->reach_margin / 2), w = len * st->job->reach_margin / 4;
        if (dist > d0 && w > 0 && !g->straight) {
            ik_real x = (dist - d0) / w, th = x > 20 ? 1 : 1 - 2 / (IK_EXP(2 * x) + 1);
            target = ik_vec3_lerp(a, target, (d0 + w * th) / dist);
        }
    }
    tb.start_ms = &st->job->model_ms[l->start];
    tb.mid_ms = &st->job->model_ms[l->mid];
    tb.end_ms = &end_ms;
    tb.target_ms = target;
    tb.use_hinge = 1;
    tb.hinge_axis_ls = l->hinge_axis_ls;
    tb.min_bend = leg ? st->rig->limits.knee_min : st->rig->limits.elbow_min;
    tb.max_bend = leg ? st->rig->limits.knee_max : st->rig->limits.elbow_max;
    /* Without a pole of the caller's, the pole is where the elbow or knee
     * is now: the limb keeps its bend plane through start, target and the
     * joint, the least roll. The natural pole (ik_humanoid_limb_pole), taken
     * again every frame, turned a limb whose bend plane is not square to
     * its hinge about its own line by the same few degrees per frame, for
     * ever (male_base_mesh's pinned legs: 4.8 degrees a frame); no pole at
     * all measures the roll against the upper bone, which lies nearly along
     * the target line near full reach, and flipped it by 20 degrees from
     * one frame to the next (rigged_figure). */
    tb.use_pole = 1;
    if (g->effector->enabled && g->effector->use_pole) {
        tb.pole_ms = g->effector->pole_ms;
    } else {
        /* The knee's side carried by the swing that turns start -> end
         * (the limb as the body left it) onto start -> target: the bend
         * plane moved by the least turn, so the limb's roll about its own
         * line is transported, not measured afresh. The side is m x b (m
         * along start -> end) for the bend normal b as ik_two_bone takes
         * it after its bend: the bones' u x v while the limb is bent its
         * own way by more than rounding, else the hinge, sgn(det M) M
         * hinge_axis_ls, so the two-bone job adds no twist. Taking the
         * elbow where it is as the pole measured the plane through the
         * moved shoulder, the target and the elbow: with the elbow near the
         * line (an arm near full reach) every 0.1 degree the body moved
         * rolled the arm 2 to 5.5 degrees (robot.glb, rigged_figure.glb,
         * 1.2 to 1.5 arm lengths out); and a straight or overstretched leg
         * (the knee on or behind the line) put the pole behind the knee,
         * which the two-bone job, bending only forward, met by turning the
         * leg half round. */
        const ik_mat4 *mm = &st->job->model_ms[l->mid];
        ik_vec3 a = ik_mat4_translation(&st->job->model_ms[l->start]), k = ik_mat4_translation(mm);
        ik_vec3 u = ik_vec3_sub(k, a), v = ik_vec3_sub(ik_mat4_translation(&end_ms), k), bn = ik_vec3_cross(u, v);
        ik_vec3 from = ik_vec3_add(u, v), to = ik_vec3_sub(target, a), side;
        ik_vec3 hinge = ik_vec3_scale(ik_vec3_normalize_or(ik_mat4_transform_vector(mm, l->hinge_axis_ls), st->left),
                                      ik_mat4_det3(mm) < 0 ? -1 : 1);
        if (!(ik_vec3_dot(bn, hinge) > 0 &&
              ik_vec3_length_sq(bn) > (ik_real)1e-8 * ik_vec3_length_sq(u) * ik_vec3_length_sq(v)))
            bn = hinge;
        side = ik_vec3_cross(ik_vec3_normalize_or(from, st->up), ik_vec3_normalize_or(bn, st->left));
        if (ik_vec3_length_sq(from) > 0 && ik_vec3_length_sq(to) > 0)
            side = ik_quat_rotate(ik_quat_from_to(ik_vec3_normalize(from), ik_vec3_normalize(to)), side);
        tb.pole_ms = ik_vec3_mad(a, ik_vec3_normalize_or(side, st->forward), limb_length(st, which));
    }
    tb.weight = g->blend;
    tb.start_rotation_ls = &st->job->pose_ls[l->start].rotation;
    tb.mid_rotation_ls = &st->job->pose_ls[l->mid].rotation;
    if (ik_two_bone_run(&tb) != IK_OK) return;
    ik_skeleton_fk_subtree(st->s, l->start, st->job->pose_ls, st->job->root_ms, st->job->model_ms);
    if (g->has_rotation && l->end >= 0)
        set_rotation(st, l->end,
                     ik_quat_slerp(ik_mat4_rotation(&st->job->model_ms[l->end]), rotation, g->rotation_blend));
    if (g->tiptoe && l->toe >= 0) set_rotation(st, l->toe, g->toe_ms);
    if (g->ankle_guard) keep_ankle(st, which, rotation);
}

/* The head toward the look target: the direction's yaw about up and its
 * elevation, each measured from the chest's forward f (flattened across
 * up) and clamped to look_max, rebuilt as cos e (cos a f + sin a (up x f))
 * + sin e up; then the head alone aimed along it (ik_aim). */
static void finish_head(const fb_state *st, ik_full_body_report *rep) {
    const ik_full_body *job = st->job;
    const ik_humanoid *rig = st->rig;
    int head = rig->map.joint[IK_ROLE_HEAD], chest = rig->map.joint[IK_ROLE_CHEST];
    const ik_full_body_effector *e = &job->effector[IK_FB_HEAD];
    if (job->look_at) {
        ik_vec3 eye = pos(st, head), dir = ik_vec3_sub(job->look_target_ms, eye), f, l, flat, want, gaze;
        ik_real lim = rig->limits.look_max, yaw, pitch;
        ik_aim aim = ik_aim_def();
        if (ik_vec3_length_sq(dir) > 0) {
            f = ik_mat4_transform_vector(&job->model_ms[chest], rig->chest_forward_ls);
            f = ik_vec3_normalize_or(ik_vec3_reject(f, st->up), st->forward);
            l = ik_vec3_cross(st->up, f);
            flat = ik_vec3_reject(dir, st->up);
            yaw = ik_clampr(IK_ATAN2(ik_vec3_dot(dir, l), ik_vec3_dot(dir, f)), -lim, lim);
            pitch = ik_clampr(IK_ATAN2(ik_vec3_dot(dir, st->up), ik_vec3_length(flat)), -lim, lim);
            want = ik_vec3_add(
                ik_vec3_scale(ik_vec3_add(ik_vec3_scale(f, IK_COS(yaw)), ik_vec3_scale(l, IK_SIN(yaw))), IK_COS(pitch)),
                ik_vec3_scale(st->up, IK_SIN(pitch)));
            aim.joint_ms = &job->model_ms[head];
            aim.target_ms = ik_vec3_mad(eye, want, ik_vec3_length(dir));
            aim.pole_ms = st->up;
            aim.forward_ls = rig->head_forward_ls;
            aim.up_ls = rig->head_up_ls;
            aim.rotation_ls = &job->pose_ls[head].rotation;
            if (ik_aim_run(&aim) == IK_OK)
                ik_skeleton_fk_subtree(st->s, head, job->pose_ls, job->root_ms, job->model_ms);
            if (rep) {
                gaze = ik_mat4_transform_vector(&job->model_ms[head], rig->head_forward_ls);
                rep->look_error = IK_ATAN2(ik_vec3_length(ik_vec3_cross(gaze, dir)), ik_vec3_dot(gaze, dir));
            }
        }
    } else if (e->enabled && e->use_rotation) {
        set_rotation(st, head,
                     ik_quat_slerp(ik_mat4_rotation(&job->model_ms[head]), e->rotation_ms, e->rotation_weight));
    }
}

/* ---- the report -------------------------------------------------------------------- */

static ik_real support_distance(const fb_state *st, ik_vec3 c) {
    ik_real x = ik_vec3_dot(c, st->forward), y = ik_vec3_dot(c, st->left), inside = IK_REAL_MAX, outside = IK_REAL_MAX;
    ik_bool in = 1;
    int e;
    for (e = 0; e < st->support_n; ++e) {
        int k = (e + 1) % st->support_n;
        ik_real nx, ny, s = inside_by(st, x, y, e, &nx, &ny);
        ik_real dx = st->sx[k] - st->sx[e], dy = st->sy[k] - st->sy[e], len2 = dx * dx + dy * dy, t, qx, qy;
        if (s < 0) in = 0;
        inside = ik_minr(inside, s);
        t = len2 > 0 ? ik_clampr(((x - st->sx[e]) * dx + (y - st->sy[e]) * dy) / len2, 0, 1) : 0;
        qx = st->sx[e] + t * dx - x;
        qy = st->sy[e] + t * dy - y;
        outside = ik_minr(outside, IK_SQRT(qx * qx + qy * qy));
    }
    return in ? inside : -outside;
}

static void fill_report(const fb_state *st, ik_full_body_report *rep) {
    const ik_full_body *job = st->job;
    int i;
    for (i = 0; i < IK_FB_EFFECTOR_COUNT; ++i) {
        ik_vec3 p, target;
        ik_quat r, want;
        ik_bool rot = 0;
        rep->residual[i] = rep->rotation_residual[i] = 0;
        rep->reached[i] = 0;
        if (i < IK_LIMB_COUNT) {
            const limb_goal *g = &st->limb[i];
            ik_mat4 end = ik_humanoid_limb_end_ms(&st->rig->limb[i], job->model_ms);
            if (!g->active) continue;
            p = ik_mat4_translation(&end);
            target = g->target;
            r = ik_mat4_rotation(&end);
            want = g->rotation;
            rot = g->has_rotation;
            if (g->tiptoe) {
                ik_real lift = heel_lift_for(st, g, pos(st, st->rig->limb[i].start));
                target = lifted(g, lift, target);
                want = ik_quat_mul(ik_quat_from_axis_angle(g->axis, lift), want);
                rep->heel_lift[i - IK_LIMB_LEG_L] = lift;
            }
        } else {
            int joint = st->rig->map.joint[effector_roles[i]];
            if (!st->body_active[i]) continue;
            p = pos(st, joint);
            target = st->body_target[i];
            r = ik_mat4_rotation(&job->model_ms[joint]);
            want = st->body_rotation[i];
            rot = st->body_use_rotation[i];
        }
        rep->residual[i] = ik_vec3_distance(p, target);
        if (rot) rep->rotation_residual[i] = ik_quat_angle(ik_quat_mul(want, ik_quat_conjugate(r)));
        rep->reached[i] = rep->residual[i] <= job->tolerance * st->leg && rep->rotation_residual[i] <= ik_rad(1);
    }
    rep->balance = IK_BALANCE_OFF;
    rep->support_distance = 0;
    if (job->mass) rep->centre_of_mass_ms = ik_body_mass_centre(job->mass, job->model_ms);
    if (job->mass && st->support_n >= 3) rep->support_distance = support_distance(st, rep->centre_of_mass_ms);
    if (job->balance) {
        if (st->support_n < 3)
            rep->balance = IK_BALANCE_NO_SUPPORT;
        else
            rep->balance = rep->support_distance >= 0 ? IK_BALANCE_KEPT : IK_BALANCE_LOST;
    }
    rep->iterations = st->iterations;
}

/* ---- the run ------------------------------------------------------------------------- */

/* After a round: what the body stage's centre of mass missed against the
 * pose the limbs' solve made (exact less the model's), kept for the next
 * round. Returns whether the change is worth another round: over
 * OFFSET_DONE leg lengths (a warm start began with last frame's
 * correction, so it is usually below, and the centre then moves by less). */
static ik_bool correct_models(fb_state *st) {
    const ik_full_body *job = st->job;
    ik_bool again = 0;
    if (st->balance && st->support_n >= 3) {
        com_term terms[MAX_TERMS];
        ik_vec3 constant, change;
        int count = com_terms(st, terms, &constant);
        change = ik_vec3_sub(ik_body_mass_centre(job->mass, job->model_ms), com_of_terms(terms, count, constant));
        st->com_offset = ik_vec3_add(st->com_offset, change);
        again |= ik_vec3_length(change) >= OFFSET_DONE * st->leg;
    }
    return again;
}

ik_result ik_full_body_run(const ik_full_body *job) {
    fb_state st;
    ik_full_body_report *rep;
    ik_result r = validate(job);
    int round, rounds, i;
    if (r != IK_OK) return r;
    rep = job->report;
    if (rep) memset(rep, 0, sizeof *rep);
    setup(&st, job);
    ik_skeleton_fk(st.s, job->pose_ls, job->root_ms, job->model_ms);
    setup_goals(&st);
    st.balance = job->balance && job->mass;
    setup_support(&st, rep);
    rounds = st.balance && st.support_n >= 3 ? 2 : 1;
    if (st.balance) {
        setup_limb_mass(&st);
        fk_keys(&st);
        start_com_offset(&st);
    }
    for (round = 0; round < rounds; ++round) {
        ik_bool rose = 0;
        setup_limb_mass(&st);
        solve_body(&st);
        fk_all(&st);
        finish_head(&st, NULL);
        for (i = 0; i < IK_LIMB_COUNT; ++i) finish_limb(&st, i);
        /* a heel that left the ground: the foot stands on its ball, the
         * support shrinks to the balls and toes, and the body is solved
         * again over it (once) */
        for (i = IK_LIMB_LEG_L; i <= IK_LIMB_LEG_R; ++i) {
            limb_goal *g = &st.limb[i];
            if (g->tiptoe && !g->on_ball && heel_lift_for(&st, g, pos(&st, st.rig->limb[i].start)) > (ik_real)1e-3) {
                g->on_ball = 1;
                rose = 1;
            }
        }
        if (rose && st.balance) {
            st.on_ball = 1;
            setup_support(&st, rep);
            if (rounds < 3) ++rounds;
            continue;
        }
        if (round + 1 < rounds && !correct_models(&st)) break;
    }
    if (rep) {
        if (job->look_at) finish_head(&st, rep);
        fill_report(&st, rep);
    }
    return IK_OK;
}

/* ---- words ------------------------------------------------------------------------------ */

int ik_full_body_report_describe(const ik_full_body *job, const ik_full_body_report *rep, char *out, size_t size) {
    char buf[1024];
    size_t used = 0;
    ik_real leg;
    int i, pass, total;
    if (!job || !rep || !job->rig) {
        if (out && size) out[0] = 0;
        return 0;
    }
    {
        ik_mat4 root = job->root_ms ? *job->root_ms : ik_mat4_identity();
        const ik_humanoid_limb *l = &job->rig->limb[IK_LIMB_LEG_L], *r = &job->rig->limb[IK_LIMB_LEG_R];
        leg = (ik_real)0.5 * (l->upper_length + l->lower_length + r->upper_length + r->lower_length) *
              IK_CBRT(IK_FABS(ik_mat4_det3(&root)));
        if (!(leg > 0)) leg = 1;
    }
#define PUT(...)                                                                               \
    do {                                                                                       \
        int k_ = snprintf(buf + used, used < sizeof buf ? sizeof buf - used : 0, __VA_ARGS__); \
        if (k_ > 0) used += (size_t)k_;                                                        \
    } while (0)
    for (pass = 0; pass < 2; ++pass) {
        int first = 1;
        for (i = 0; i < IK_FB_EFFECTOR_COUNT; ++i) {
            const ik_full_body_effector *e = &job->effector[i];
            if (!(e->enabled || (e->pinned && i < IK_LIMB_COUNT))) continue;
            if ((pass == 0) != (rep->reached[i] != 0)) continue;
            PUT("%s%s", first ? (pass == 0 ? "reached: " : (used ? "; not reached: " : "not reached: ")) : ", ",
                ik_full_body_effector_name(i));
            if (pass == 1) PUT(" (%.3g leg lengths off)", (double)(rep->residual[i] / leg));
            first = 0;
        }
    }
    switch (rep->balance) {
        case IK_BALANCE_KEPT:
            PUT("%sbalanced (the centre of mass %.3g leg lengths inside the support)", used ? "; " : "",
                (double)(rep->support_distance / leg));
            break;
        case IK_BALANCE_NO_SUPPORT:
            PUT("%snot balanced: no foot is pinned, so there is no support to stand on", used ? "; " : "");
            break;
        case IK_BALANCE_LOST:
            PUT("%snot balanced: the centre of mass is %.3g leg lengths outside the support of the pinned feet",
                used ? "; " : "", (double)(-rep->support_distance / leg));
            break;
        default:
            break;
    }
#undef PUT
    total = (int)used;
    if (used >= sizeof buf) used = sizeof buf - 1;
    buf[used] = 0;
    if (out && size) {
        size_t n = used < size - 1 ? used : size - 1;
        memcpy(out, buf, n);
        out[n] = 0;
    }
    return total;
}

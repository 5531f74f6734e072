/* A procedural walk (walk.h): footholds from the gait's timing cast onto the
 * ground, feet moved between them along eased periodic curves, the pelvis
 * bobbing and swaying over them, arms swinging; each frame solved by the
 * humanoid rig. Planning happens in the walk frame (+Y up, +Z forward);
 * goals go to the rig in model space. */
#include <ikit/walk.h>

#include <math.h>
#include <stddef.h>
#include <string.h>

/* ---- easing ----------------------------------------------------------------- */

static ik_real clamp01(ik_real x) { return ik_clampr(x, 0, 1); }

/* smoothstep: 3x^2 - 2x^3, zero slope at both ends. */
static ik_real smoothstep(ik_real x) {
    x = clamp01(x);
    return x * x * (3 - 2 * x);
}

/* Perlin's smootherstep: 6x^5 - 15x^4 + 10x^3, zero slope and curvature at
 * both ends, so a foot leaves and lands without a jolt. */
static ik_real smootherstep(ik_real x) {
    x = clamp01(x);
    return x * x * x * (x * (6 * x - 15) + 10);
}

static ik_real fraction(ik_real x) { return x - (ik_real)floor((double)x); }

/* ---- setup: the rig's rest read once in the walk frame ------------------------ */

typedef struct walk_foot {
    int limb;                      /* IK_LIMB_LEG_L or _R */
    ik_real phase_offset;          /* 0 left, 0.5 right */
    ik_real leg;                   /* thigh + shin, model units */
    ik_vec3 hip_w;                 /* the thigh's start at rest */
    ik_real ankle_x;               /* the ankle's sideways place */
    ik_vec3 heel_w, ball_w, tip_w; /* contact points from the ankle, foot flat (walk frame) */
    ik_vec3 pivot_w;               /* the toe-off pivot from the ankle: the toe joint, else the ball */
    ik_real ankle_height;          /* ankle above the flat sole */
    ik_quat flat_ms;               /* the foot's model rotation standing flat, facing as at rest */
    int has_foot;
} walk_foot;

typedef struct walk_arm {
    int limb;
    ik_vec3 shoulder_w; /* the upper arm's start at rest */
    ik_real length;
    ik_real out; /* +1 when the arm is on +X of the pelvis, else -1 */
    ik_real phase_offset;
} walk_arm;

typedef struct walk_setup {
    const ik_walk *job;
    const ik_humanoid *rig;
    ik_mat4 frame;          /* walk frame to model space */
    ik_quat frame_rotation; /* its rotation */
    ik_real leg;            /* the longer leg */
    ik_real period, stance, stride, cadence;
    ik_real ankle_z;          /* the ankles' mean forward place at rest */
    ik_real sway_side;        /* +1 when the left foot is on +X */
    int mover;                /* the joint carrying the body's move: the root above the hips */
    ik_mat4 mover_parent_inv; /* model space to the space the mover's translation is in */
    walk_foot foot[2];
    walk_arm arm[2];
    /* the extra heel lift each foot's last stance ended with (see liftoff_lift), for one cycle */
    double liftoff_cycle[2];
    ik_real liftoff_angle[2];
    ik_bool liftoff_known[2];
} walk_setup;

static ik_real root_scale(const ik_mat4 *root_ms) {
    ik_mat4 root = root_ms ? *root_ms : ik_mat4_identity();
    return IK_CBRT(IK_FABS(ik_mat4_det3(&root)));
}

static ik_real leg_length(const ik_humanoid *rig, const ik_mat4 *root_ms) {
    ik_real s = root_scale(root_ms), l = 0;
    int side;
    for (side = 0; side < 2; ++side) {
        const ik_humanoid_limb *limb = &rig->limb[IK_LIMB_LEG_L + side];
        l = ik_maxr(l, (limb->upper_length + limb->lower_length) * s);
    }
    return l;
}

ik_walk ik_walk_def(const ik_humanoid *rig, const ik_mat4 *root_ms) {
    ik_walk job;
    ik_real leg = rig ? leg_length(rig, root_ms) : 0;
    if (!(leg > 0) || !ik_finite(leg)) leg = 1;
    memset(&job, 0, sizeof job);
    job.rig = rig;
    job.root_ms = root_ms;
    job.speed = (ik_real)1.2 * leg;
    job.stride = (ik_real)1.2 * leg;
    job.cadence = 0;
    job.step_height = (ik_real)0.08 * leg;
    job.stance_fraction = (ik_real)0.6;
    job.bob = (ik_real)0.015 * leg;
    job.sway = (ik_real)0.02 * leg;
    job.arm_swing = ik_rad(20);
    job.toe_off = ik_rad(25);
    job.ground = NULL;
    job.take = NULL;
    job.model_ms = NULL;
    job.report = NULL;
    job.defaulted = IK_JOB_DEFAULTED;
    return job;
}

/* The walk frame: Y the rig's up and Z its forward through the root,
 * X = Y x Z (a right-handed frame whatever the root's handedness), the
 * origin the rest floor's point under the hips. */
ik_result ik_walk_frame(const ik_humanoid *rig, const ik_mat4 *root_ms, ik_mat4 *frame) {
    ik_mat4 root;
    ik_vec3 up, forward, left, floor_point, hips, origin;
    if (!rig || !rig->skeleton || !frame) return IK_ERR_NULL;
    root = root_ms ? *root_ms : ik_mat4_identity();
    if (!ik_mat4_finite(&root)) return IK_ERR_NONFINITE;
    if (!(IK_FABS(ik_mat4_det3(&root)) > 0)) return IK_ERR_DEGENERATE;
    up = ik_vec3_normalize_or(ik_mat4_transform_vector(&root, rig->up_rs), ik_vec3_zero());
    forward =
        ik_vec3_normalize_or(ik_vec3_reject(ik_mat4_transform_vector(&root, rig->forward_rs), up), ik_vec3_zero());
    left = ik_vec3_cross(up, forward);
    if (!(ik_vec3_length_sq(left) > (ik_real)0.5)) return IK_ERR_DEGENERATE;
    {
        /* the hips at rest: forward kinematics of the chain down to them */
        const ik_skeleton *s = rig->skeleton;
        int j = rig->map.joint[IK_ROLE_HIPS];
        ik_mat4 m = ik_mat4_identity();
        while (j >= 0) {
            ik_mat4 local = ik_transform_to_mat4(s->rest_ls[j]);
            m = ik_mat4_mul(&local, &m);
            j = s->parents[j];
        }
        m = ik_mat4_mul(&root, &m);
        hips = ik_mat4_translation(&m);
    }
    floor_point = ik_mat4_transform_point(&root, ik_vec3_scale(rig->up_rs, rig->floor_rs));
    origin = ik_vec3_mad(hips, up, ik_vec3_dot(ik_vec3_sub(floor_point, hips), up));
    *frame = ik_mat4_identity();
    frame->m[0] = left.x, frame->m[1] = left.y, frame->m[2] = left.z;
    frame->m[4] = up.x, frame->m[5] = up.y, frame->m[6] = up.z;
    frame->m[8] = forward.x, frame->m[9] = forward.y, frame->m[10] = forward.z;
    frame->m[12] = origin.x, frame->m[13] = origin.y, frame->m[14] = origin.z;
    return ik_vec3_finite(origin) ? IK_OK : IK_ERR_NONFINITE;
}

/* ---- validation ----------------------------------------------------------------- */

static ik_result fail(const char **problem, const char *why, ik_result r) {
    if (problem) *problem = why;
    return r;
}

/* The stride and cadence the job walks at (speed = stride * cadence / 2:
 * a cycle is two steps); 0 when they are not given consistently. */
static ik_bool gait_of(const ik_walk *job, ik_real *stride, ik_real *cadence) {
    ik_real s = job->stride, c = job->cadence;
    if (s > 0 && c > 0) {
        if (IK_FABS(s * c - 2 * job->speed) > (ik_real)1e-3 * 2 * job->speed) return 0;
    } else if (s > 0) {
        c = 2 * job->speed / s;
    } else if (c > 0) {
        s = 2 * job->speed / c;
    } else {
        return 0;
    }
    *stride = s;
    *cadence = c;
    return 1;
}

ik_result ik_walk_validate(const ik_walk *job, const char **problem) {
    const ik_take *take;
    ik_mat4 frame;
    ik_real leg, stride = 0, cadence = 0;
    ik_result r;
    if (problem) *problem = "";
    if (!job) return fail(problem, "no job", IK_ERR_NULL);
    if (job->defaulted != IK_JOB_DEFAULTED)
        return fail(problem, "the job was not made by ik_walk_def", IK_ERR_NOT_DEFAULTED);
    if (!job->rig || !job->rig->skeleton) return fail(problem, "no humanoid rig", IK_ERR_NULL);
    if (!job->take || !job->take->poses_ls || !job->model_ms)
        return fail(problem, "no take or model-space buffer to write", IK_ERR_NULL);
    take = job->take;
    if (take->joint_count != job->rig->skeleton->joint_count || take->frame_count < 1)
        return fail(problem, "the take's joint count is not the skeleton's, or it has no frames", IK_ERR_RANGE);
    if (!(take->frame_time > 0) || !ik_finite(take->frame_time))
        return fail(problem, "the frame time must be positive and finite", IK_ERR_RANGE);
    r = ik_walk_frame(job->rig, job->root_ms, &frame);
    if (r != IK_OK) return fail(problem, "the root transform is not finite or not invertible", r);
    leg = leg_length(job->rig, job->root_ms);
    if (!(leg > 0) || !ik_finite(leg)) return fail(problem, "the rig's legs have no length", IK_ERR_DEGENERATE);
    if (!ik_finite(job->speed) || !ik_finite(job->stride) || !ik_finite(job->cadence) || !ik_finite(job->step_height) ||
        !ik_finite(job->stance_fraction) || !ik_finite(job->bob) || !ik_finite(job->sway) ||
        !ik_finite(job->arm_swing) || !ik_finite(job->toe_off))
        return fail(problem, "a gait parameter is NaN or infinite", IK_ERR_NONFINITE);
    if (!(job->speed > 0)) return fail(problem, "speed must be positive", IK_ERR_RANGE);
    if (job->stride < 0 || job->cadence < 0)
        return fail(problem, "stride and cadence must not be negative", IK_ERR_RANGE);
    if (!gait_of(job, &stride, &cadence))
        return fail(problem,
                    job->stride > 0 && job->cadence > 0
                        ? "stride and cadence disagree with the speed (speed = stride * cadence / 2)"
                        : "give a stride or a cadence (both are zero)",
                    IK_ERR_RANGE);
    if (stride > (ik_real)2.4 * leg)
        return fail(problem, "the stride is too long for the legs (a step over 1.2 leg lengths)", IK_ERR_RANGE);
    if (!(stride >= (ik_real)1e-3 * leg))
        return fail(problem, "the stride is too short (under 0.001 leg lengths)", IK_ERR_RANGE);
    if (job->step_height < 0 || job->step_height > (ik_real)0.5 * leg)
        return fail(problem, "the step height must be between 0 and half the leg length", IK_ERR_RANGE);
    if (job->stance_fraction < (ik_real)0.5 || job->stance_fraction > (ik_real)0.85)
        return fail(problem, "the stance fraction must be between 0.5 and 0.85", IK_ERR_RANGE);
    if (job->bob < 0 || job->bob > (ik_real)0.2 * leg || job->sway < 0 || job->sway > (ik_real)0.2 * leg)
        return fail(problem, "bob and sway must be between 0 and 0.2 leg lengths", IK_ERR_RANGE);
    if (job->arm_swing < 0 || job->arm_swing > ik_rad(60))
        return fail(problem, "the arm swing must be between 0 and 60 degrees", IK_ERR_RANGE);
    if (job->toe_off < 0 || job->toe_off > ik_rad(45))
        return fail(problem, "the toe-off angle must be between 0 and 45 degrees", IK_ERR_RANGE);
    if (job->ground && (r = ik_ground_validate(job->ground)) != IK_OK)
        return fail(problem, "the ground is not valid", r);
    return IK_OK;
}

ik_real ik_walk_cadence(const ik_walk *job) {
    ik_real stride, cadence;
    if (ik_walk_validate(job, NULL) != IK_OK || !gait_of(job, &stride, &cadence)) return 0;
    return cadence;
}

/* ---- setup ------------------------------------------------------------------------ */

static ik_vec3 to_walk_vector(const walk_setup *w, ik_vec3 d) {
    return ik_v3(ik_vec3_dot(d, ik_mat4_column(&w->frame, 0)), ik_vec3_dot(d, ik_mat4_column(&w->frame, 1)),
                 ik_vec3_dot(d, ik_mat4_column(&w->frame, 2)));
}
static ik_vec3 to_walk(const walk_setup *w, ik_vec3 p_ms) {
    return to_walk_vector(w, ik_vec3_sub(p_ms, ik_mat4_translation(&w->frame)));
}
static ik_vec3 to_model(const walk_setup *w, ik_vec3 p_w) { return ik_mat4_transform_point(&w->frame, p_w); }
static ik_vec3 to_model_vector(const walk_setup *w, ik_vec3 v_w) { return ik_mat4_transform_vector(&w->frame, v_w); }
/* A turn given in the walk frame, as a model-space turn: F q F^-1. */
static ik_quat turn_to_model(const walk_setup *w, ik_quat q_w) {
    return ik_quat_mul(w->frame_rotation, ik_quat_mul(q_w, ik_quat_conjugate(w->frame_rotation)));
}

static ik_vec3 joint_position(const ik_mat4 *model_ms, int joint) { return ik_mat4_translation(&model_ms[joint]); }

/* The limb's end (an ankle or wrist, or the virtual ankle) at rest, where
 * the rig places it (ik_humanoid_limb_end_ms). */
static ik_vec3 limb_end(const ik_humanoid_limb *limb, const ik_mat4 *model_ms) {
    ik_mat4 end_ms = ik_humanoid_limb_end_ms(limb, model_ms);
    return ik_mat4_translation(&end_ms);
}

/* A foot at rest in the walk frame. Its sole is turned flat by the shortest
 * turn taking the sole's normal onto up (a rest pose with a pointed foot
 * stands on its sole), and the heel, ball and toes' tip contact points are
 * measured from the ankle of that flat foot. A leg without a foot joint
 * (a virtual ankle) stands on a point ankle_height below its ankle with a
 * ball 0.2 leg lengths ahead, as the rig's ground solve takes it. */
static void setup_foot(walk_setup *w, int side, const ik_mat4 *model_ms, ik_real scale) {
    const ik_humanoid_limb *limb = &w->rig->limb[IK_LIMB_LEG_L + side];
    walk_foot *f = &w->foot[side];
    ik_vec3 ankle = limb_end(limb, model_ms), up = ik_mat4_column(&w->frame, 1);
    f->limb = IK_LIMB_LEG_L + side;
    f->phase_offset = side == 0 ? 0 : (ik_real)0.5;
    f->leg = (limb->upper_length + limb->lower_length) * scale;
    f->hip_w = to_walk(w, joint_position(model_ms, limb->start));
    f->ankle_x = to_walk(w, ankle).x;
    f->has_foot = limb->end >= 0;
    if (f->has_foot) {
        const ik_mat4 *m = &model_ms[limb->end];
        ik_vec3 sole = ik_vec3_normalize_or(ik_mat4_transform_vector(m, limb->sole_up_ls), up);
        ik_quat flat = ik_quat_from_to(sole, up);
        ik_vec3 heel = ik_mat4_transform_point(m, limb->heel_ls), ball = ik_mat4_transform_point(m, limb->ball_ls);
        ik_vec3 tip = limb->toe >= 0 ? ik_mat4_transform_point(&model_ms[limb->toe], limb->toe_tip_ls) : ball;
        f->flat_ms = ik_quat_normalize(ik_quat_mul(flat, ik_mat4_rotation(m)));
        heel = ik_quat_rotate(flat, ik_vec3_sub(heel, ankle));
        ball = ik_quat_rotate(flat, ik_vec3_sub(ball, ankle));
        tip = ik_quat_rotate(flat, ik_vec3_sub(tip, ankle));
        f->heel_w = to_walk_vector(w, heel);
        f->ball_w = to_walk_vector(w, ball);
        f->tip_w = to_walk_vector(w, tip);
        f->pivot_w =
            limb->toe >= 0
                ? to_walk_vector(w, ik_quat_rotate(flat, ik_vec3_sub(joint_position(model_ms, limb->toe), ankle)))
                : f->ball_w;
    } else {
        ik_real h = limb->ankle_height * scale;
        f->flat_ms = ik_quat_identity();
        f->heel_w = ik_v3(0, -h, 0);
        f->ball_w = ik_v3(0, -h, (ik_real)0.2 * f->leg);
        f->tip_w = f->pivot_w = f->ball_w;
    }
    f->ankle_height = -ik_minr(f->heel_w.y, f->ball_w.y);
}

static void setup_arm(walk_setup *w, int side, const ik_mat4 *model_ms, ik_real scale, ik_vec3 pelvis_w) {
    const ik_humanoid_limb *limb = &w->rig->limb[IK_LIMB_ARM_L + side];
    walk_arm *a = &w->arm[side];
    a->limb = IK_LIMB_ARM_L + side;
    a->shoulder_w = to_walk(w, joint_position(model_ms, limb->start));
    a->length = (limb->upper_length + limb->lower_length) * scale;
    a->out = a->shoulder_w.x >= pelvis_w.x ? 1 : -1;
    a->phase_offset = side == 0 ? 0 : (ik_real)0.5;
}

/* Everything the frames share, from the rest pose's forward kinematics
 * (into the job's model_ms, which the frames then reuse). */
static void setup(walk_setup *w, const ik_walk *job) {
    const ik_humanoid *rig = job->rig;
    const ik_skeleton *s = rig->skeleton;
    ik_real scale = root_scale(job->root_ms);
    ik_vec3 pelvis_w;
    int side;
    memset(w, 0, sizeof *w);
    w->job = job;
    w->rig = rig;
    ik_walk_frame(rig, job->root_ms, &w->frame);
    w->frame_rotation = ik_mat4_rotation(&w->frame);
    w->leg = leg_length(rig, job->root_ms);
    gait_of(job, &w->stride, &w->cadence);
    w->period = 2 / w->cadence;
    w->stance = job->stance_fraction;
    ik_skeleton_fk(s, s->rest_ls, job->root_ms, job->model_ms);
    pelvis_w = to_walk(w, joint_position(job->model_ms, rig->pelvis));
    for (side = 0; side < 2; ++side) {
        setup_foot(w, side, job->model_ms, scale);
        setup_arm(w, side, job->model_ms, scale, pelvis_w);
    }
    w->ankle_z = (ik_real)0.5 * (to_walk(w, limb_end(&rig->limb[IK_LIMB_LEG_L], job->model_ms)).z +
                                 to_walk(w, limb_end(&rig->limb[IK_LIMB_LEG_R], job->model_ms)).z);
    w->sway_side = w->foot[0].ankle_x >= w->foot[1].ankle_x ? 1 : -1;
    /* root motion: the topmost joint above the hips moves, so whatever hangs from the same root (IK
     * controls, props) comes along */
    w->mover = rig->map.joint[IK_ROLE_HIPS];
    while (s->parents[w->mover] >= 0) w->mover = s->parents[w->mover];
    {
        ik_mat4 p = job->root_ms ? *job->root_ms : ik_mat4_identity();
        if (!ik_mat4_inverse(&p, &w->mover_parent_inv)) w->mover_parent_inv = ik_mat4_identity();
    }
}

/* ---- the ground under a point ---------------------------------------------------------- */

/* The ground's height at (x, z) of the walk frame: exact for planes, height
 * fields and stairs (ik_ground_height_at), else a ray cast straight down
 * from 50 leg lengths above the rest floor; 0 (the rest floor) with no
 * ground, and where a cast misses. */
static ik_real ground_height(const walk_setup *w, ik_real x, ik_real z) {
    const ik_ground *g = w->job->ground;
    ik_ground_hit hit;
    ik_real y;
    if (!g) return 0;
    if (g->type != IK_GROUND_CALLBACK && ik_ground_height_at(g, x, z, &y, NULL)) return y;
    if (ik_ground_cast(g, ik_v3(x, 50 * w->leg, z), ik_v3(0, -1, 0), 100 * w->leg, &hit)) return hit.point_ms.y;
    return 0;
}

/* How far the lowest of a foot's contact points (heel, ball, toes' tip, as
 * offsets from the ankle turned by `turn`, the tip also turned back up by
 * `toe_bend` about the toe joint) is below the ground under it; 0 when all
 * are on or above it. */
static ik_real foot_depth(const walk_setup *w, const walk_foot *f, ik_vec3 ankle_w, ik_quat turn_w, ik_real toe_bend) {
    ik_vec3 tip = ik_vec3_add(f->pivot_w, ik_quat_rotate(ik_quat_from_axis_angle(ik_v3(1, 0, 0), -toe_bend),
                                                         ik_vec3_sub(f->tip_w, f->pivot_w)));
    const ik_vec3 offsets[3] = {f->heel_w, f->ball_w, tip};
    ik_real depth = 0;
    int i;
    for (i = 0; i < 3; ++i) {
        ik_vec3 p = ik_vec3_add(ankle_w, ik_quat_rotate(turn_w, offsets[i]));
        depth = ik_maxr(depth, ground_height(w, p.x, p.z) - p.y);
    }
    return depth;
}

/* ---- footholds ---------------------------------------------------------------------------- */

/* A planted foot: its ankle, its turn from flat (walk frame), the toe-off
 * pivot (the toe joint, or the ball's contact point without toes) and the height of the ground it is on
 * (the ankle's height less its height over a flat sole). */
typedef struct foothold {
    ik_vec3 ankle_w;
    ik_quat turn_w;
    ik_vec3 pivot_w;
    ik_real support;
} foothold;

/* The first riser of stairs inside the span [a, b] (along the stairs'
 * direction, from the first riser) widened by `margin` each way, or -1. */
static int riser_within(const ik_ground *g, ik_real a, ik_real b, ik_real margin) {
    double lo = ceil((double)((a - margin) / g->run)), hi = (double)((b + margin) / g->run);
    if (lo < 0) lo = 0;
    if (lo > hi || lo >= (double)g->step_count) return -1;
    return (int)lo;
}

/* On stairs walked along (within 25 degrees of) their direction, a foot
 * whose heel-to-toes span would straddle a riser (or come within 0.03 leg
 * lengths of one) is moved along forward onto one tread: to the nearer of
 * just past the riser and just short of it that straddles nothing; a foot
 * longer than a tread goes with its toes just short of the next riser, its
 * heel over the edge (as people climb narrow stairs). Returns the ankle's
 * new forward place. */
static ik_real snap_to_tread(const walk_setup *w, const walk_foot *f, ik_real ankle_z) {
    const ik_ground *g = w->job->ground;
    ik_real dz, x_part, back, front, margin = (ik_real)0.03 * w->leg, sense, best = 0, shifts[3];
    int riser, i, found = 0;
    if (!g || g->type != IK_GROUND_STAIRS || !(IK_FABS(g->direction_ms.z) > (ik_real)0.9)) return ankle_z;
    dz = g->direction_ms.z;
    sense = dz > 0 ? 1 : -1;
    back = ik_minr(ik_minr(f->heel_w.z, f->ball_w.z), f->tip_w.z);
    front = ik_maxr(ik_maxr(f->heel_w.z, f->ball_w.z), f->tip_w.z);
    /* q(z) = (x - p.x) d.x + (z - p.z) d.z: the place along the stairs, risers at q = i run */
    x_part = (f->ankle_x - g->point_ms.x) * g->direction_ms.x - g->point_ms.z * dz;
    {
        ik_real q1 = x_part + (ankle_z + back) * dz, q2 = x_part + (ankle_z + front) * dz;
        riser = riser_within(g, ik_minr(q1, q2), ik_maxr(q1, q2), margin);
        if (riser < 0) return ankle_z;
        /* along z: the span's back just past the riser, its front just short of it, or its front just
         * short of the next one */
        shifts[0] = ((ik_real)riser * g->run + margin * sense - q1) / dz;
        shifts[1] = ((ik_real)riser * g->run - margin * sense - q2) / dz;
        shifts[2] = ((ik_real)(riser + 1) * g->run - margin * sense - q2) / dz;
    }
    for (i = 0; i < 2; ++i) {
        ik_real z = ankle_z + shifts[i], q1 = x_part + (z + back) * dz, q2 = x_part + (z + front) * dz;
        if (riser_within(g, ik_minr(q1, q2), ik_maxr(q1, q2), margin * (ik_real)0.99) >= 0) continue;
        if (!found || IK_FABS(shifts[i]) < IK_FABS(best)) best = shifts[i];
        found = 1;
    }
    return ankle_z + (found ? best : shifts[2]);
}

/* Foot `f`'s foothold number `step`: it lands at t = (step - offset) P and
 * is planted where the body is over it at mid-stance, z = v (t + stance P /
 * 2) plus the ankles' rest offset; its heel and ball are cast down, the
 * foot pitched about its lateral axis by atan2(ball height - heel height,
 * heel-to-ball run) (at most 35 degrees; none on the flat treads of stairs) so it touches both, its heel on
 * the ground, and raised by whatever of it is still below the ground. */
static foothold make_foothold(const walk_setup *w, const walk_foot *f, double step) {
    const ik_walk *job = w->job;
    double t = (step - (double)f->phase_offset) * (double)w->period;
    ik_real z = (ik_real)((double)job->speed * (t + (double)(w->stance * w->period) * 0.5)) + w->ankle_z;
    ik_real heel_y, ball_y, run, pitch = 0;
    ik_vec3 heel;
    foothold h;
    z = snap_to_tread(w, f, z);
    heel = ik_v3(f->ankle_x + f->heel_w.x, 0, z + f->heel_w.z);
    heel_y = ground_height(w, heel.x, heel.z);
    ball_y = ground_height(w, f->ankle_x + f->ball_w.x, z + f->ball_w.z);
    run = f->ball_w.z - f->heel_w.z;
    if (run > (ik_real)1e-6 * w->leg && job->ground && job->ground->type != IK_GROUND_STAIRS)
        pitch = ik_clampr(IK_ATAN2(ball_y - heel_y, run), -ik_rad(35), ik_rad(35));
    heel.y = heel_y;
    h.turn_w = ik_quat_from_axis_angle(ik_v3(1, 0, 0), -pitch);
    h.ankle_w = ik_vec3_sub(heel, ik_quat_rotate(h.turn_w, f->heel_w));
    h.ankle_w.y += foot_depth(w, f, h.ankle_w, h.turn_w, 0);
    h.pivot_w = ik_vec3_add(h.ankle_w, ik_quat_rotate(h.turn_w, f->pivot_w));
    h.support = h.ankle_w.y - f->ankle_height;
    return h;
}

/* ---- a foot over time ---------------------------------------------------------------------- */

typedef struct foot_state {
    ik_vec3 ankle_w;
    ik_quat turn_w;   /* from flat */
    ik_real toe_bend; /* the toes turned back up by this (radians) */
    ik_real airborne; /* 0 planted (the ankle's limit turns the foot about its toes) .. 1 in the air
                         (about the ankle) */
    ik_real support;  /* the ground height the body follows */
} foot_state;

/* Toe-off (seed 001's heel lift): over the last half of stance the heel
 * rises about the toe joint (the ball's contact point without toes) by
 * toe_off * smoothstep, the toes turning back by as much, so they stay flat
 * on the ground and do not move. */
static void toe_off(const walk_setup *w, const foothold *h, ik_real phase, foot_state *st) {
    ik_real ramp = (ik_real)0.5 * w->stance;
    ik_real angle = w->job->toe_off * smoothstep((phase - (w->stance - ramp)) / ramp);
    ik_quat q = ik_quat_from_axis_angle(ik_v3(1, 0, 0), angle);
    st->ankle_w = ik_vec3_add(h->pivot_w, ik_quat_rotate(q, ik_vec3_sub(h->ankle_w, h->pivot_w)));
    st->turn_w = ik_quat_normalize(ik_quat_mul(q, h->turn_w));
    st->toe_bend = angle;
    st->support = h->support;
    st->airborne = 0;
}

/* The swing's path before clearance, u from 0 (lift-off) to 1 (landing):
 * across the ground along smootherstep(u); up and down by the ground's
 * change along smootherstep over the first half when climbing (the foot
 * rises before it travels over the step) or the second when descending,
 * plus step_height sin^2(pi u); the foot keeps its toe-off turn through the
 * first 30% (the knee is bent most then, and a flattened foot would pass
 * the ankle's dorsiflexion limit), then turns to its landing one by
 * smootherstep up to 90%. */
static foot_state swing_path(const walk_setup *w, const foot_state *from, const foothold *to, ik_real u) {
    ik_real across = smootherstep(u), turn = smootherstep((u - (ik_real)0.3) / (ik_real)0.6), climb;
    ik_real lift = IK_SIN(IK_PI * u);
    foot_state st;
    climb = to->ankle_w.y >= from->ankle_w.y ? smootherstep(2 * u) : smootherstep(2 * u - 1);
    st.ankle_w = ik_vec3_lerp(from->ankle_w, to->ankle_w, across);
    st.ankle_w.y = from->ankle_w.y + (to->ankle_w.y - from->ankle_w.y) * climb + w->job->step_height * lift * lift;
    st.turn_w = ik_quat_slerp(from->turn_w, to->turn_w, turn);
    st.toe_bend = from->toe_bend * (1 - turn);
    st.support = from->support + (to->support - from->support) * across;
    st.airborne = smoothstep(5 * u);
    return st;
}

#define SWING_SAMPLES 16

/* Swing with clearance (seed 004's ray casts): the path is cast against the
 * ground at 16 points along it (heel, ball and toes' tip under each), and
 * raised by c sin(pi u) with the least c that lifts every sample out of the
 * ground, c = max_i depth_i / sin(pi u_i), so an obstacle on the way (a
 * step's nose, a bump) is cleared smoothly, the raise growing from lift-off
 * and easing into the landing; then any depth left at u (between samples)
 * is raised out directly. */
static void swing(const walk_setup *w, const walk_foot *f, const foot_state *from, const foothold *to, ik_real u,
                  foot_state *st) {
    ik_real raise = 0;
    int i;
    for (i = 0; i < SWING_SAMPLES; ++i) {
        ik_real ui = ((ik_real)i + (ik_real)0.5) / SWING_SAMPLES;
        foot_state p = swing_path(w, from, to, ui);
        ik_real depth = foot_depth(w, f, p.ankle_w, p.turn_w, p.toe_bend);
        if (depth > 0) raise = ik_maxr(raise, depth / IK_SIN(IK_PI * ui));
    }
    *st = swing_path(w, from, to, u);
    st->ankle_w.y += raise * IK_SIN(IK_PI * u);
    st->ankle_w.y += foot_depth(w, f, st->ankle_w, st->turn_w, st->toe_bend);
}

/* ---- the body --------------------------------------------------------------------------- */

/* The smooth maximum of a and b, 0.5 (a + b + sqrt((a - b)^2 + w^2)): at
 * least max(a, b), at most w / 2 above it, without max's kink (a kink in
 * the pelvis's height is a jolt at the knees). */
static ik_real smooth_max(ik_real a, ik_real b, ik_real width) {
    return (ik_real)0.5 * (a + b + IK_SQRT((a - b) * (a - b) + width * width));
}

/* The pelvis's move from rest (walk frame) at time t: forward by v t, up to
 * the mean of the feet's ground heights, bob cos(4 pi (phi - stance / 2))
 * (highest over each standing foot, lowest in double support), sway
 * cos(2 pi (phi - stance / 2)) toward the left foot while it stands, phi the
 * left foot's phase; then lowered so each ankle is within 0.995 of its
 * leg's length of its hip: with D = ankle - hip, the drop s_i that puts it
 * there solves (D.y + s)^2 + D.x^2 + D.z^2 = r^2, s_i = -D.y - sqrt(r^2 -
 * D.x^2 - D.z^2) (negative: room to spare), and the pelvis drops by the
 * smooth maximum of 0, s_left and s_right over 0.03 leg lengths (at most
 * 0.4 leg lengths). */
static ik_vec3 pelvis_move(const walk_setup *w, double t, const foot_state feet[2], ik_real *drop) {
    const ik_walk *job = w->job;
    ik_real phase = fraction((ik_real)(t / (double)w->period)), mid = (ik_real)0.5 * w->stance;
    ik_vec3 d;
    int side;
    d.x = job->sway * IK_COS(2 * IK_PI * (phase - mid)) * w->sway_side;
    d.y = (ik_real)0.5 * (feet[0].support + feet[1].support) + job->bob * IK_COS(4 * IK_PI * (phase - mid));
    d.z = (ik_real)((double)job->speed * t);
    *drop = 0;
    for (side = 0; side < 2; ++side) {
        const walk_foot *f = &w->foot[side];
        ik_vec3 D = ik_vec3_sub(feet[side].ankle_w, ik_vec3_add(f->hip_w, d));
        ik_real r = (ik_real)0.995 * f->leg, across = D.x * D.x + D.z * D.z;
        ik_real s = across < r * r ? -D.y - IK_SQRT(r * r - across) : -D.y;
        *drop = smooth_max(*drop, s, (ik_real)0.03 * w->leg);
    }
    *drop = ik_minr(*drop, (ik_real)0.4 * w->leg);
    d.y -= *drop;
    return d;
}

/* An arm's wrist goal: hanging from the shoulder (moved with the pelvis)
 * down and a little out, 0.96 arm lengths away, swung about the walk's
 * lateral axis by arm_swing cos(2 pi (phi - stance)), phi its side's leg
 * phase (forward while that leg pushes off behind), the elbow bending a
 * little more in the forward swing. */
static ik_vec3 wrist_goal(const walk_setup *w, const walk_arm *a, double t, ik_vec3 pelvis_w) {
    ik_real phase = fraction((ik_real)(t / (double)w->period + (double)a->phase_offset));
    ik_real swing_cos = IK_COS(2 * IK_PI * (phase - w->stance)), angle = w->job->arm_swing * swing_cos;
    ik_vec3 hang = ik_vec3_normalize(ik_v3((ik_real)0.12 * a->out, -1, 0));
    ik_vec3 dir = ik_quat_rotate(ik_quat_from_axis_angle(ik_v3(1, 0, 0), -angle), hang);
    ik_real reach = a->length * ((ik_real)0.96 - (ik_real)0.06 * ik_maxr(swing_cos, 0) * (angle > 0));
    return ik_vec3_mad(ik_vec3_add(a->shoulder_w, pelvis_w), dir, reach);
}

/* Turn the toes back up by `bend` about the walk's lateral axis X (model
 * space turn q about the toe's own origin): the local rotation L becomes
 * C L with C the rotation part of F^-1 Q F, F the foot's model matrix (its
 * scale, and a mirror's D, cancel: D R^T Q R D is a proper rotation). */
static void bend_toes(const walk_setup *w, ik_transform *pose, int toe, int foot, ik_real bend) {
    const ik_walk *job = w->job;
    ik_mat4 q =
        ik_mat4_from_trs(ik_vec3_zero(), ik_quat_from_axis_angle(ik_mat4_column(&w->frame, 0), -bend), ik_v3(1, 1, 1));
    ik_mat4 inv, c;
    if (bend == 0 || !ik_mat4_inverse(&job->model_ms[foot], &inv)) return;
    c = ik_mat4_mul(&q, &job->model_ms[foot]);
    c = ik_mat4_mul(&inv, &c);
    pose[toe].rotation = ik_quat_normalize(ik_quat_mul(ik_mat4_rotation(&c), pose[toe].rotation));
    ik_skeleton_fk_subtree(w->rig->skeleton, toe, pose, job->root_ms, job->model_ms);
}

/* How far past its dorsiflexion limit (less a quarter degree) the ankle
 * is after a solve, radians (negative inside it): the rig's measure,
 * ik_humanoid_ankle_angle, sole heel-to-ball against shin about the foot's
 * lateral axis, turned round under a mirroring root; 0 for a virtual
 * ankle. */
static ik_real ankle_excess(const walk_setup *w, const walk_foot *f) {
    const ik_humanoid_limb *limb = &w->rig->limb[f->limb];
    const ik_mat4 *m;
    ik_real hand = w->job->root_ms && ik_mat4_det3(w->job->root_ms) < 0 ? -1 : 1;
    ik_vec3 sole, shin, lateral;
    if (limb->end < 0) return 0;
    m = &w->job->model_ms[limb->end];
    sole = ik_vec3_sub(ik_mat4_transform_point(m, limb->ball_ls), ik_mat4_transform_point(m, limb->heel_ls));
    shin = ik_vec3_sub(joint_position(w->job->model_ms, limb->mid), ik_mat4_translation(m));
    lateral = ik_vec3_scale(ik_vec3_normalize(ik_mat4_transform_vector(m, limb->lateral_ls)), hand);
    return ik_humanoid_ankle_angle(sole, shin, lateral) - (w->rig->limits.ankle_up - ik_rad((ik_real)0.25));
}

/* The foot `base` turned toes-down by `angle` about a point that goes from
 * its toe-off pivot while planted (as toe-off does, the toes turning back
 * by as much: they stay where they were, the heel and ankle rise; seed
 * 001's heel lift) to its ankle once in the air (the knee then stays where
 * it is), then raised out of the ground if that put its toes in it. */
static foot_state lift_heel(const walk_setup *w, const walk_foot *f, const foot_state *base, ik_real angle) {
    foot_state st = *base;
    ik_vec3 pivot = ik_vec3_add(st.ankle_w, ik_quat_rotate(st.turn_w, ik_vec3_scale(f->pivot_w, 1 - st.airborne)));
    ik_quat q = ik_quat_from_axis_angle(ik_v3(1, 0, 0), angle);
    st.ankle_w = ik_vec3_add(pivot, ik_quat_rotate(q, ik_vec3_sub(st.ankle_w, pivot)));
    st.turn_w = ik_quat_normalize(ik_quat_mul(q, st.turn_w));
    st.toe_bend += angle * (1 - st.airborne);
    if (st.airborne > 0) st.ankle_w.y += foot_depth(w, f, st.ankle_w, st.turn_w, st.toe_bend);
    return st;
}

/* The search for a heel lift that brings an ankle inside its limit: the
 * angle tried, and the bracket [lo, hi] with the excess at each end (hi
 * < 0 until an angle inside the limit is found). */
typedef struct ankle_seek {
    ik_real angle, lo, excess_lo, hi, excess_hi;
    int last_end; /* which end moved last: +1 lo, -1 hi, 0 none (the Illinois rule) */
    ik_bool done;
} ankle_seek;

static ankle_seek ankle_seek_start(void) {
    ankle_seek k;
    k.angle = k.lo = k.excess_lo = k.excess_hi = 0;
    k.hi = -1;
    k.last_end = 0;
    k.done = 0;
    return k;
}

/* Take the excess measured at k->angle; 1 with the next angle to try in
 * *next, 0 when the search is over (inside the limit by at most 0.25
 * degrees, or `last`: then the inside end, if any and not the angle just
 * tried, is the last to try). */
static ik_bool ankle_seek_step(ankle_seek *k, ik_real excess, ik_bool last, ik_real *next) {
    const ik_real band = ik_rad((ik_real)0.25), most = ik_rad(60);
    if (k->done) return 0;
    if (excess <= 0 && (excess >= -band || k->angle == 0)) {
        k->done = 1;
        return 0;
    }
    if (excess > 0) {
        k->lo = k->angle;
        k->excess_lo = excess;
        if (k->last_end == 1 && k->hi >= 0) k->excess_hi *= (ik_real)0.5;
        k->last_end = 1;
    } else {
        k->hi = k->angle;
        k->excess_hi = excess;
        if (k->last_end == -1) k->excess_lo *= (ik_real)0.5;
        k->last_end = -1;
    }
    if (last || (k->hi < 0 && k->angle >= most)) {
        k->done = 1;
        if (k->hi < 0 || k->hi == k->angle) return 0;
        *next = k->angle = k->hi;
        return 1;
    }
    if (k->hi < 0)
        *next = ik_minr(k->angle > 0 ? 2 * k->angle : excess, most);
    else
        *next = k->lo + k->excess_lo * (k->hi - k->lo) / (k->excess_lo - k->excess_hi);
    if (!(*next > k->lo && (k->hi < 0 || *next < k->hi))) *next = k->hi < 0 ? most : (ik_real)0.5 * (k->lo + k->hi);
    k->angle = *next;
    return 1;
}

/* ---- a frame ------------------------------------------------------------------------------ */

/* The body posed for the feet at time t into `pose`: the rest pose, the
 * body moved (the pelvis's model move given to the root above it, in the
 * root's parent space), the humanoid solve with the four limb goals (feet
 * also turned: their flat rest rotation turned by the foot's walk-frame
 * turn, F q F^-1 in model space), the ankles kept inside their limit; the
 * feet as they ended, the heel lifts the limit took in angle[]. */
static ik_result solve_frame(const walk_setup *w, double t, foot_state feet[2], ik_transform *pose, ik_real angle[2],
                             ik_humanoid_report *solved, ik_real *drop) {
    const ik_walk *job = w->job;
    const ik_skeleton *s = w->rig->skeleton;
    ik_humanoid_solve solve = ik_humanoid_solve_def();
    foot_state base[2];
    ankle_seek seek[2];
    ik_vec3 move_w, move_ls;
    ik_result r;
    int side, pass;
    solve.rig = w->rig;
    solve.pose_ls = pose;
    solve.model_ms = job->model_ms;
    solve.root_ms = job->root_ms;
    solve.adjust_shoulders = 0;
    solve.adjust_pelvis = 0;
    solve.report = solved;
    /* The ankles' dorsiflexion limit: a foot past it after a solve lifts its heel (lift_heel) by the
     * smallest angle that brings it back, found on a bracket: the angle doubles (from the excess) until
     * the ankle is inside the limit, then regula falsi with the Illinois halving closes in until the
     * excess is within [-0.25, 0] degrees; the body is placed for the feet (the pelvis lowered for
     * their reach) and solved again after each trial, at most 12 solves, the last at the bracket's
     * inside end. */
    for (side = 0; side < 2; ++side) {
        base[side] = feet[side];
        seek[side] = ankle_seek_start();
    }
    for (pass = 0; pass < 12; ++pass) {
        ik_bool again = 0;
        move_w = pelvis_move(w, t, feet, drop);
        memcpy(pose, s->rest_ls, sizeof(ik_transform) * (size_t)s->joint_count);
        move_ls = ik_mat4_transform_vector(&w->mover_parent_inv, to_model_vector(w, move_w));
        pose[w->mover].translation = ik_vec3_add(pose[w->mover].translation, move_ls);
        for (side = 0; side < 2; ++side) {
            const walk_foot *f = &w->foot[side];
            ik_humanoid_goal *g = &solve.goal[f->limb];
            g->enabled = 1;
            g->position_ms = to_model(w, feet[side].ankle_w);
            g->use_rotation = f->has_foot;
            g->rotation_ms = ik_quat_normalize(ik_quat_mul(turn_to_model(w, feet[side].turn_w), f->flat_ms));
            g = &solve.goal[w->arm[side].limb];
            g->enabled = 1;
            g->position_ms = to_model(w, wrist_goal(w, &w->arm[side], t, move_w));
        }
        r = ik_humanoid_solve_run(&solve);
        if (r != IK_OK) return r;
        for (side = 0; side < 2; ++side) {
            ik_real next;
            if (!ankle_seek_step(&seek[side], ankle_excess(w, &w->foot[side]), pass >= 10, &next)) continue;
            feet[side] = lift_heel(w, &w->foot[side], &base[side], next);
            again = 1;
        }
        if (!again) break;
    }
    for (side = 0; side < 2; ++side) angle[side] = seek[side].angle;
    return IK_OK;
}

/* Where foot `f` is at time t, as planned: its cycle c = floor(t / P +
 * offset) and the phase in it; stance on foothold c (with toe-off), then
 * swing to foothold c + 1 from the foot as it left the ground: toe-off's
 * lift, plus, when `lifts` (a frame's `pose` buffer to work in) is given,
 * the extra heel lift the ankle's limit took at that moment (liftoff_lift),
 * so the swing starts where the stance ended. */
static foot_state foot_at(walk_setup *w, int side, double t, ik_transform *lifts);

/* The extra heel lift foot `side` ended stance c with: the frame at its
 * lift-off time solved (the other foot as planned, without this look back)
 * and the angle the ankle's limit took, kept for the cycle. */
static ik_real liftoff_lift(walk_setup *w, int side, double c, ik_transform *pose) {
    const walk_foot *f = &w->foot[side];
    double t = (c - (double)f->phase_offset + (double)w->stance) * (double)w->period;
    foothold here;
    foot_state feet[2];
    ik_humanoid_report solved;
    ik_real angle[2], drop;
    if (w->liftoff_known[side] && w->liftoff_cycle[side] == c) return w->liftoff_angle[side];
    here = make_foothold(w, f, c);
    toe_off(w, &here, w->stance, &feet[side]);
    feet[1 - side] = foot_at(w, 1 - side, t, NULL);
    angle[side] = 0;
    if (solve_frame(w, t, feet, pose, angle, &solved, &drop) != IK_OK) angle[side] = 0;
    w->liftoff_cycle[side] = c;
    w->liftoff_angle[side] = angle[side];
    w->liftoff_known[side] = 1;
    return angle[side];
}

static foot_state foot_at(walk_setup *w, int side, double t, ik_transform *lifts) {
    const walk_foot *f = &w->foot[side];
    double cycle = t / (double)w->period + (double)f->phase_offset, c = floor(cycle);
    ik_real phase = (ik_real)(cycle - c);
    foothold here = make_foothold(w, f, c);
    foot_state st;
    if (phase < w->stance) {
        toe_off(w, &here, phase, &st);
    } else {
        foot_state lifted;
        foothold next = make_foothold(w, f, c + 1);
        toe_off(w, &here, w->stance, &lifted);
        if (lifts) lifted = lift_heel(w, f, &lifted, liftoff_lift(w, side, c, lifts));
        swing(w, f, &lifted, &next, (phase - w->stance) / (1 - w->stance), &st);
    }
    return st;
}

/* Frame at time t into `pose`: the feet (foot_at), the body solved for them
 * (solve_frame), then the toes turned back up. */
static ik_result make_frame(walk_setup *w, double t, ik_transform *pose, ik_walk_report *report) {
    foot_state feet[2];
    ik_humanoid_report solved;
    ik_real angle[2], drop;
    ik_result r;
    int side;
    for (side = 0; side < 2; ++side) feet[side] = foot_at(w, side, t, pose);
    r = solve_frame(w, t, feet, pose, angle, &solved, &drop);
    if (r != IK_OK) return r;
    for (side = 0; side < 2; ++side) {
        const ik_humanoid_limb *limb = &w->rig->limb[w->foot[side].limb];
        if (limb->toe >= 0 && limb->end >= 0) bend_toes(w, pose, limb->toe, limb->end, feet[side].toe_bend);
    }
    if (report) {
        int i;
        for (i = 0; i < IK_LIMB_COUNT; ++i)
            report->worst_residual = ik_maxr(report->worst_residual, solved.residual[i]);
        report->lowest_pelvis = ik_maxr(report->lowest_pelvis, drop);
    }
    return IK_OK;
}

/* Footfalls of one foot in [0, end]: landings at (c - offset) P. */
static int footfalls(const walk_setup *w, const walk_foot *f, double end) {
    double first = ceil((double)f->phase_offset), last = floor(end / (double)w->period + (double)f->phase_offset);
    return last >= first ? (int)(last - first) + 1 : 0;
}

ik_result ik_walk_run(const ik_walk *job) {
    walk_setup w;
    ik_walk_report report;
    ik_result r = ik_walk_validate(job, NULL);
    double end;
    int f;
    if (r != IK_OK) return r;
    setup(&w, job);
    memset(&report, 0, sizeof report);
    for (f = 0; f < job->take->frame_count; ++f) {
        r = make_frame(&w, (double)f * (double)job->take->frame_time, ik_take_pose(job->take, f), &report);
        if (r != IK_OK) return r;
    }
    end = (double)(job->take->frame_count - 1) * (double)job->take->frame_time;
    report.distance = (ik_real)((double)job->speed * end);
    report.steps = footfalls(&w, &w.foot[0], end) + footfalls(&w, &w.foot[1], end);
    if (job->report) *job->report = report;
    return IK_OK;
}

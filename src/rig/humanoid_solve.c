/* The full-body solve, in seed 001's order: pelvis, spine and head, clavicles,
 * arms and legs, wrists and ankles, toes; optionally a second pass over
 * clavicles and limbs. Each stage turns joints in model space and writes the
 * turn back into the local pose (turn_joint), exact under uniformly scaled
 * parents, mirrored ones included. */
#include <ikit/aim.h>
#include <ikit/look_at_chain.h>
#include <ikit/constraint.h>
#include <ikit/humanoid.h>
#include <ikit/two_bone.h>

#include <stddef.h>
#include <string.h>

ik_humanoid_solve ik_humanoid_solve_def(void) {
    ik_humanoid_solve job;
    int i;
    job.rig = NULL;
    job.pose_ls = NULL;
    job.model_ms = NULL;
    job.root_ms = NULL;
    for (i = 0; i < IK_LIMB_COUNT; ++i) {
        job.goal[i].enabled = 0;
        job.goal[i].position_ms = ik_vec3_zero();
        job.goal[i].use_rotation = 0;
        job.goal[i].rotation_ms = ik_quat_identity();
        job.goal[i].weight = 1;
        job.goal[i].use_pole = 0;
        job.goal[i].pole_ms = ik_vec3_zero();
        job.goal[i].twist = 0;
    }
    job.adjust_shoulders = 1;
    job.look_at = 0;
    job.look_target_ms = ik_vec3_zero();
    job.look_tolerance = ik_rad(1);
    job.ground = NULL;
    job.use_floor = 0;
    job.floor_ms = ik_vec3_zero();
    job.feet_relative = 0;
    job.adjust_pelvis = 1;
    job.passes = 1;
    job.report = NULL;
    job.defaulted = IK_JOB_DEFAULTED;
    return job;
}

static ik_result validate(const ik_humanoid_solve *job) {
    const ik_skeleton *s;
    int i;
    if (!job) return IK_ERR_NULL;
    if (job->defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    if (!job->rig || !job->pose_ls || !job->model_ms || !job->rig->skeleton) return IK_ERR_NULL;
    s = job->rig->skeleton;
    if (job->passes < 1 || job->passes > 2) return IK_ERR_RANGE;
    for (i = 0; i < s->joint_count; ++i)
        if (!ik_transform_finite(job->pose_ls[i])) return IK_ERR_NONFINITE;
    if (job->root_ms && !ik_mat4_finite(job->root_ms)) return IK_ERR_NONFINITE;
    for (i = 0; i < IK_LIMB_COUNT; ++i) {
        const ik_humanoid_goal *g = &job->goal[i];
        if (!g->enabled) continue;
        if (!ik_vec3_finite(g->position_ms) || !ik_finite(g->weight) || !ik_finite(g->twist) ||
            (g->use_rotation && !ik_quat_finite(g->rotation_ms)) || (g->use_pole && !ik_vec3_finite(g->pole_ms)))
            return IK_ERR_NONFINITE;
        if (!(g->weight >= 0 && g->weight <= 1)) return IK_ERR_RANGE;
        if (g->use_rotation && !(ik_quat_dot(g->rotation_ms, g->rotation_ms) > 0)) return IK_ERR_DEGENERATE;
    }
    if (job->look_at && (!ik_vec3_finite(job->look_target_ms) || !ik_finite(job->look_tolerance)))
        return IK_ERR_NONFINITE;
    if (job->look_at && job->look_tolerance < 0) return IK_ERR_RANGE;
    if (job->use_floor && !ik_vec3_finite(job->floor_ms)) return IK_ERR_NONFINITE;
    if (job->ground) return ik_ground_check_shape(job->ground);
    return IK_OK;
}

/* ---- joint helpers --------------------------------------------------------- */

typedef struct solve_state {
    const ik_humanoid_solve *job;
    const ik_humanoid *rig;
    const ik_skeleton *s;
    ik_vec3 up, forward, left; /* body axes in model space */
    ik_vec3 lateral;           /* up x forward: left, unless the root mirrors */
    ik_real hand;              /* sgn(det root_ms): -1 under a mirroring root */
    ik_vec3 floor_point;       /* a point of the rest floor in model space */
    ik_real root_scale;        /* model units per root-space unit */
} solve_state;

static void refresh(const solve_state *st, int joint) {
    ik_skeleton_fk_subtree(st->s, joint, st->job->pose_ls, st->job->root_ms, st->job->model_ms);
}

static ik_vec3 position(const solve_state *st, int joint) { return ik_mat4_translation(&st->job->model_ms[joint]); }
static ik_quat rotation(const solve_state *st, int joint) { return ik_mat4_rotation(&st->job->model_ms[joint]); }

static ik_mat4 parent_matrix(const solve_state *st, int joint) {
    int p = st->s->parents[joint];
    if (p >= 0) return st->job->model_ms[p];
    return st->job->root_ms ? *st->job->root_ms : ik_mat4_identity();
}

/* Turn `joint` by the model-space rotation q about its own origin, M' = q M
 * (ik_skeleton_turn_joint_ms), and refresh its subtree. */
static void turn_joint(const solve_state *st, int joint, ik_quat q) {
    ik_skeleton_turn_joint_ms(st->s, joint, q, st->job->root_ms, st->job->pose_ls, st->job->model_ms);
    refresh(st, joint);
}

/* Give `joint` the model rotation q as ik_mat4_rotation reads it
 * (ik_skeleton_rotation_ls: L = D^e R_p^-1 q D^e E^-1 under a parent of
 * rotation R_p, mirrored when e = 1, for a joint whose scale's signs are
 * E D^o). */
static void set_joint_rotation(const solve_state *st, int joint, ik_quat q) {
    ik_transform *t = &st->job->pose_ls[joint];
    ik_mat4 parent = parent_matrix(st, joint);
    t->rotation =
        ik_quat_normalize(ik_skeleton_rotation_ls(ik_mat4_rotation(&parent), ik_mat4_det3(&parent) < 0, q, t->scale));
    refresh(st, joint);
}

/* A direction of a foot's frame, v_ls, once the foot is turned to the model
 * rotation `rotation_ms` (ik_mat4_rotation's reading): M v_ls turned by the
 * turn taking the foot there; unit. Right for a mirrored foot, whose
 * rotation alone would take v_ls to the mirror image of the direction. */
static ik_vec3 foot_axis(const solve_state *st, const ik_humanoid_limb *limb, ik_quat rotation_ms, ik_vec3 v_ls) {
    const ik_mat4 *foot = &st->job->model_ms[limb->end];
    ik_quat turn = ik_quat_mul(rotation_ms, ik_quat_conjugate(ik_mat4_rotation(foot)));
    return ik_vec3_normalize(ik_quat_rotate(turn, ik_mat4_transform_vector(foot, v_ls)));
}

/* The foot's lateral axis up x forward in model space, for the foot at
 * `foot` (model matrix): the rig's lateral_ls through it, turned round
 * under a mirroring root (a mirror takes a x b to -(Ma x Mb)), so the
 * ankle's flexion and the heel's and toes' turns keep their sense. */
static ik_vec3 foot_lateral(const solve_state *st, const ik_humanoid_limb *limb, const ik_mat4 *foot) {
    return ik_vec3_scale(ik_vec3_normalize(ik_mat4_transform_vector(foot, limb->lateral_ls)), st->hand);
}

/* Where a limb's end (wrist, ankle) is: its joint, or the virtual end. */
static ik_mat4 end_matrix(const solve_state *st, const ik_humanoid_limb *limb) {
    return ik_humanoid_limb_end_ms(limb, st->job->model_ms);
}

static ik_real limb_length(const solve_state *st, const ik_humanoid_limb *limb) {
    return (limb->upper_length + limb->lower_length) * st->root_scale;
}

/* ---- limbs ------------------------------------------------------------------- */

/* The side the elbow or knee bends to, as a pole for ik_two_bone. A
 * positive bend about the hinge h puts the middle joint off the start-to-end
 * line e along e x h (the end at about 2u + b h x u). The limb swings from
 * its line now, d = c - a, to the new one, e = t - a, by the shortest turn
 * q, without rolling about itself: the hinge goes to h' = q h and the middle
 * joint to e x h'. A fixed point instead (where the knee is now) falls on
 * the other side of the target line once the line swings past it -- a leg
 * lifted forward rolled 180 degrees -- and a T-pose arm lowered to hang
 * would keep its elbow out sideways. When e lies along h' (under 1% off
 * it) or nearly opposite d, the side the middle joint is on now,
 * k = reject(b - a, d); for a straight limb, u x h. (The turned side is a
 * length cubed times |h|, so it is never compared with |u|^2: in a model
 * space scaled by 0.01, as under a Mixamo armature, it always fell short
 * and the knee went to u x h, the other side half the time.) */
ik_vec3 ik_limb_natural_pole(ik_vec3 a, ik_vec3 b, ik_vec3 c, ik_vec3 target, ik_vec3 hinge_ms, ik_real length) {
    ik_vec3 u = ik_vec3_sub(b, a), d = ik_vec3_sub(c, a), e = ik_vec3_sub(target, a), k = ik_vec3_zero();
    ik_real dd = ik_vec3_length_sq(d) * ik_vec3_length_sq(e), de = IK_SQRT(dd), dot_de = ik_vec3_dot(d, e);
    ik_real w = de + dot_de;
    /* Rodrigues for the shortest turn taking d to e, scaled by |d||e|, with
     * v = d x e: |d||e| h' = (d . e) h + v x h + v (v . h) / (|d||e| + d . e)
     * (one square root; nearly opposite lines, past about 165 degrees, have
     * no shortest turn to speak of). */
    if (w > de * (ik_real)(1.0 / 64)) {
        ik_vec3 v = ik_vec3_cross(d, e);
        ik_vec3 turned = ik_vec3_mad(ik_vec3_add(ik_vec3_scale(hinge_ms, dot_de), ik_vec3_cross(v, hinge_ms)), v,
                                     ik_vec3_dot(v, hinge_ms) / w);
        k = ik_vec3_cross(e, turned);
        if (!(ik_vec3_length_sq(k) > (ik_real)1e-4 * ik_vec3_length_sq(e) * ik_vec3_length_sq(hinge_ms) * dd))
            k = ik_vec3_zero();
    }
    if (ik_vec3_length_sq(k) == 0) {
        k = ik_vec3_reject(u, ik_vec3_normalize_or(d, ik_vec3_zero()));
        if (!(ik_vec3_length_sq(k) > (ik_real)1e-4 * ik_vec3_length_sq(u))) k = ik_vec3_cross(u, hinge_ms);
    }
    return ik_vec3_mad(ik_vec3_lerp(a, target, (ik_real)0.5), ik_vec3_normalize_or(k, ik_vec3_zero()), length);
}

/* The hinge in model space is sgn(det M) M h for the mid joint's matrix M
 * (the bend is positive about h in M's own frame, which a mirror turns). */
ik_vec3 ik_humanoid_limb_pole(const ik_humanoid_limb *limb, const ik_mat4 *model_ms, ik_vec3 target, ik_real length) {
    ik_mat4 end_ms = ik_humanoid_limb_end_ms(limb, model_ms);
    ik_vec3 hinge = ik_mat4_transform_turn_axis(&model_ms[limb->mid], limb->hinge_axis_ls);
    return ik_limb_natural_pole(ik_mat4_translation(&model_ms[limb->start]), ik_mat4_translation(&model_ms[limb->mid]),
                                ik_mat4_translation(&end_ms), target, hinge, length);
}

static ik_vec3 natural_pole(const solve_state *st, const ik_humanoid_limb *limb, ik_vec3 target) {
    return ik_humanoid_limb_pole(limb, st->job->model_ms, target, limb_length(st, limb));
}

/* Two-bone IK with the rig's hinge (ik_two_bone: law of cosines bend about
 * the hinge, the solution inside the limits, twist kept from the current
 * knee unless a pole is given), then the end turned to `rotation` if asked. */
static void solve_limb(const solve_state *st, int which, ik_vec3 target, const ik_quat *rotation_ms,
                       const ik_humanoid_goal *goal) {
    const ik_humanoid_limb *limb = &st->rig->limb[which];
    ik_bool leg = which >= IK_LIMB_LEG_L;
    ik_two_bone tb = ik_two_bone_def();
    ik_mat4 end_ms = end_matrix(st, limb);
    ik_transform *pose = st->job->pose_ls;
    ik_real weight = goal ? goal->weight : 1;
    tb.start_ms = &st->job->model_ms[limb->start];
    tb.mid_ms = &st->job->model_ms[limb->mid];
    tb.end_ms = &end_ms;
    tb.target_ms = target;
    tb.use_hinge = 1;
    tb.hinge_axis_ls = limb->hinge_axis_ls;
    tb.min_bend = leg ? st->rig->limits.knee_min : st->rig->limits.elbow_min;
    tb.max_bend = leg ? st->rig->limits.knee_max : st->rig->limits.elbow_max;
    tb.use_pole = 1;
    tb.pole_ms = goal && goal->use_pole ? goal->pole_ms : natural_pole(st, limb, target);
    if (goal) tb.twist = goal->twist;
    tb.weight = weight;
    tb.start_rotation_ls = &pose[limb->start].rotation;
    tb.mid_rotation_ls = &pose[limb->mid].rotation;
    if (ik_two_bone_run(&tb) != IK_OK) return;
    refresh(st, limb->start);
    if (rotation_ms && limb->end >= 0)
        set_joint_rotation(st, limb->end, ik_quat_slerp(rotation(st, limb->end), *rotation_ms, weight));
}

static void report_limb(const solve_state *st, int which, ik_vec3 target) {
    ik_humanoid_report *rep = st->job->report;
    const ik_humanoid_limb *limb = &st->rig->limb[which];
    ik_mat4 end_ms;
    if (!rep) return;
    end_ms = end_matrix(st, limb);
    rep->residual[which] = ik_vec3_distance(ik_mat4_translation(&end_ms), target);
    rep->reached[which] = rep->residual[which] <= (ik_real)1e-3 * limb_length(st, limb);
}

/* ---- clavicles --------------------------------------------------------------- */

/* Seed 001's shoulder adjustment. With d the shoulder-to-target vector, L
 * the arm's length and `out` the arm's side: the clavicle turns forward by
 * clavicle_forward * clamp(-d.out / L) when the target crosses the side plane
 * through the shoulder ahead of the body, up by clavicle_up * clamp(d.up / L)
 * when it rises above the shoulder, and, when the target is still beyond
 * reach, further toward it by the angle that closes the gap at the
 * shoulder's radius (at most the larger limit). The turn starts from the
 * clavicle's rest rotation, not the input's, so solving a pose that was
 * itself solved gives the same clavicle (frame-to-frame use does not pile
 * turns up until the shoulder leaves the hand's reach); weight < 1 blends
 * from the input rotation. Clavicle animation under a hand goal is
 * therefore replaced. */
static void adjust_clavicle(const solve_state *st, int which, ik_vec3 target, ik_real weight, ik_quat input_ls) {
    const ik_humanoid_limb *limb = &st->rig->limb[which];
    const ik_humanoid_limits *lim = &st->rig->limits;
    ik_vec3 out = which == IK_LIMB_ARM_L ? st->left : ik_vec3_neg(st->left);
    ik_vec3 c, sh, d, radius;
    ik_real reach = limb_length(st, limb), across, rise, gap, fwd_angle = 0, up_angle, reach_angle;
    ik_quat q;
    ik_quat *local = &st->job->pose_ls[limb->clavicle].rotation;
    if (limb->clavicle < 0 || weight <= 0) return;
    *local = st->s->rest_ls[limb->clavicle].rotation;
    refresh(st, limb->clavicle);
    c = position(st, limb->clavicle);
    sh = position(st, limb->start);
    d = ik_vec3_sub(target, sh);
    across = -ik_vec3_dot(d, out);
    rise = ik_vec3_dot(d, st->up);
    if (ik_vec3_dot(d, st->forward) > 0) fwd_angle = lim->clavicle_forward * ik_clampr(across / reach, 0, 1);
    up_angle = lim->clavicle_up * ik_clampr(rise / reach, 0, 1);
    q = ik_quat_mul(ik_quat_from_axis_angle(ik_vec3_normalize(ik_vec3_cross(out, st->up)), up_angle),
                    ik_quat_from_axis_angle(ik_vec3_normalize(ik_vec3_cross(out, st->forward)), fwd_angle));
    radius = ik_quat_rotate(q, ik_vec3_sub(sh, c));
    gap = ik_vec3_distance(ik_vec3_add(c, radius), target) - reach;
    if (gap > 0 && ik_vec3_length_sq(radius) > 0) {
        ik_quat toward = ik_quat_from_to(radius, ik_vec3_sub(target, c));
        ik_real full = ik_quat_angle(toward);
        reach_angle =
            ik_minr(ik_minr(full, gap / ik_vec3_length(radius)), ik_maxr(lim->clavicle_forward, lim->clavicle_up));
        if (full > 0) q = ik_quat_mul(ik_quat_slerp(ik_quat_identity(), toward, reach_angle / full), q);
    }
    turn_joint(st, limb->clavicle, q);
    if (weight < 1) {
        *local = ik_quat_normalize(ik_quat_slerp(input_ls, *local, weight));
        refresh(st, limb->clavicle);
    }
}

/* ---- feet on the ground -------------------------------------------------------- */

typedef struct foot_plan {
    ik_bool active;
    ik_quat toe_input_ls; /* the toe's local rotation before the solve */
    ik_vec3 ankle;        /* where the ankle goes */
    ik_quat rotation;     /* the foot's model rotation there */
    ik_vec3 lateral_rf;   /* the foot's lateral axis (foot_lateral) in the frame of that rotation */
    ik_bool has_rotation;
    ik_vec3 ball;               /* the ball's contact point (the heel-lift pivot) */
    ik_vec3 normal;             /* ground normal */
    ik_real lift_angle;         /* heel lift so far, radians */
    ik_bool airborne;           /* held above the ground (a swinging foot): no heel pivot */
    ik_real flex_up, flex_down; /* the ankle's limits (the animation's own flexion when feet_relative) */
    ik_real toe_clearance;      /* the toes' tip stays this far above the ground */
} foot_plan;

/* The animated sole's height above the rest floor, kept as a lift: a sole
 * within c = contact_height leg lengths of the floor stands on it (rest
 * poses and captured motion leave feet a little off a common floor: CMU
 * subjects' legs differ in length); above, the lift 2 (height - c) climbs
 * until it meets the full height at 2c, so it never jumps. */
static ik_real contact_lift(const solve_state *st, ik_real height, ik_real leg) {
    ik_real c = st->rig->limits.contact_height * leg;
    return ik_clampr(2 * (height - c), 0, ik_maxr(height, 0));
}

/* The ground under p along -up: the first surface met coming down from two
 * leg lengths above p (ground higher than that is out of any reach and is
 * reported as such, not missed), at most four leg lengths below p. */
static ik_bool cast_down(const solve_state *st, ik_vec3 p, ik_real leg, ik_ground_hit *hit) {
    ik_vec3 from = ik_vec3_mad(p, st->up, 2 * leg);
    if (!ik_ground_cast(st->job->ground, from, ik_vec3_neg(st->up), 6 * leg, hit)) return 0;
    if (ik_vec3_dot(hit->normal_ms, st->up) < 0) hit->normal_ms = ik_vec3_neg(hit->normal_ms);
    return 1;
}

/* The ankle's dorsiflexion (ik_humanoid_ankle_angle: sole heel-to-ball and
 * shin ankle-to-knee seen along the foot's lateral axis, 0 when they are
 * perpendicular). Measured on the bones themselves, so the leg's turn about
 * its own length (a hip rotated in or out) does not count as flexion, as it
 * would in a swing-twist split of the foot's rotation relative to the shin,
 * and a rest pose with a pointed foot (girl.glb's) is not taken as neutral. */
static ik_real dorsiflexion(const solve_state *st, const ik_humanoid_limb *limb) {
    const ik_mat4 *foot = &st->job->model_ms[limb->end];
    ik_vec3 sole =
        ik_vec3_sub(ik_mat4_transform_point(foot, limb->ball_ls), ik_mat4_transform_point(foot, limb->heel_ls));
    ik_vec3 shin = ik_vec3_sub(position(st, limb->mid), ik_mat4_translation(foot));
    return ik_humanoid_ankle_angle(sole, shin, foot_lateral(st, limb, foot));
}

/* Plan one foot on the ground (seed 004: ray casts place the target on the
 * ground; FinalIK's grounder): cast under the heel; turn the foot by the
 * minimum rotation taking its sole normal onto the ground normal; put the
 * ankle where the heel contact lands on the hit; if the ball would then be
 * under the ground (a higher stair), raise the foot by that much along the
 * normal; keep the height a goal or the animation holds above the floor
 * (a swinging foot), fading the alignment out over 0.05 leg lengths of lift.
 * With feet_relative (and no goal) the foot is carried instead: the heel
 * keeps its height d above the floor over the hit, the turn is the one
 * taking up onto the ground normal (the ground's tilt, not the sole's), and
 * the ball keeps its own height b above the floor over the ground under it
 * (the ball is raised along the normal n by the depth below that, with both
 * heights measured across the ground as b (up.n) and d (up.n)), so a flat
 * ground through the floor gives back the animated foot.
 * Returns 0 when no ground lies under the heel. */
static ik_bool plan_foot(const solve_state *st, int which, foot_plan *plan) {
    const ik_humanoid_limb *limb = &st->rig->limb[which];
    const ik_humanoid_goal *goal = &st->job->goal[which];
    ik_real leg = limb_length(st, limb), lift, ball_lift, h = limb->ankle_height * st->root_scale, pen;
    ik_bool relative = st->job->feet_relative && !goal->enabled;
    ik_mat4 end_ms = end_matrix(st, limb);
    ik_vec3 ankle = ik_mat4_translation(&end_ms), heel_off, ball_off, probe;
    ik_quat foot_rot = limb->end >= 0 ? rotation(st, limb->end) : ik_quat_identity(), align;
    ik_ground_hit hit, ball_hit;
    if (limb->end >= 0) {
        heel_off = ik_vec3_sub(ik_mat4_transform_point(&end_ms, limb->heel_ls), ankle);
        ball_off = ik_vec3_sub(ik_mat4_transform_point(&end_ms, limb->ball_ls), ankle);
    } else {
        heel_off = ik_vec3_scale(st->up, -h);
        ball_off = ik_vec3_mad(heel_off, st->forward, (ik_real)0.2 * leg);
    }
    probe = goal->enabled ? goal->position_ms : ankle;
    if (goal->enabled && goal->use_rotation && limb->end >= 0) foot_rot = goal->rotation_ms;
    if (!cast_down(st, ik_vec3_add(probe, heel_off), leg, &hit)) return 0;
    if (relative) {
        lift = ik_vec3_dot(ik_vec3_sub(ik_vec3_add(ankle, heel_off), st->floor_point), st->up);
        ball_lift = ik_vec3_dot(ik_vec3_sub(ik_vec3_add(ankle, ball_off), st->floor_point), st->up);
    } else {
        if (goal->enabled)
            lift = ik_vec3_dot(ik_vec3_sub(goal->position_ms, hit.point_ms), st->up) - h;
        else
            lift = contact_lift(st, ik_vec3_dot(ik_vec3_sub(ankle, st->floor_point), st->up) - h, leg);
        lift = ball_lift = ik_maxr(lift, 0);
    }
    align = ik_quat_identity();
    if (limb->end >= 0) {
        ik_vec3 sole = relative ? st->up : foot_axis(st, limb, foot_rot, limb->sole_up_ls);
        ik_real fade = ik_clampr(1 - lift / ((ik_real)0.05 * leg), 0, 1);
        align = ik_quat_slerp(ik_quat_identity(), ik_quat_from_to(sole, hit.normal_ms), fade);
        if (goal->enabled && goal->use_rotation) {
            ik_quat undo = ik_quat_mul(foot_rot, ik_quat_conjugate(rotation(st, limb->end)));
            heel_off = ik_quat_rotate(undo, heel_off);
            ball_off = ik_quat_rotate(undo, ball_off);
        }
    }
    heel_off = ik_quat_rotate(align, heel_off);
    ball_off = ik_quat_rotate(align, ball_off);
    plan->ankle = ik_vec3_sub(hit.point_ms, heel_off);
    plan->ball = ik_vec3_add(plan->ankle, ball_off);
    if (limb->end >= 0 && cast_down(st, plan->ball, leg, &ball_hit)) {
        pen = ik_vec3_dot(ik_vec3_sub(ball_hit.point_ms, plan->ball), hit.normal_ms) +
              (ball_lift - lift) * ik_vec3_dot(st->up, hit.normal_ms);
        if (pen > 0) {
            plan->ankle = ik_vec3_mad(plan->ankle, hit.normal_ms, pen);
            plan->ball = ik_vec3_mad(plan->ball, hit.normal_ms, pen);
        }
    }
    plan->ankle = ik_vec3_mad(plan->ankle, st->up, lift);
    plan->ball = ik_vec3_mad(plan->ball, st->up, lift);
    plan->rotation = ik_quat_mul(align, foot_rot);
    plan->has_rotation = limb->end >= 0;
    plan->lateral_rf = limb->end >= 0 ? ik_quat_rotate(ik_quat_conjugate(rotation(st, limb->end)),
                                                       foot_lateral(st, limb, &st->job->model_ms[limb->end]))
                                      : st->lateral;
    plan->normal = hit.normal_ms;
    plan->lift_angle = 0;
    plan->airborne = relative ? ik_minr(lift, ball_lift) > st->rig->limits.contact_height * leg : lift > 0;
    plan->flex_up = st->rig->limits.ankle_up;
    plan->flex_down = st->rig->limits.ankle_down;
    plan->toe_clearance = 0;
    if (relative && limb->end >= 0) {
        ik_real flex = dorsiflexion(st, limb);
        plan->flex_up = ik_maxr(plan->flex_up, flex);
        plan->flex_down = ik_maxr(plan->flex_down, -flex);
    }
    if (limb->toe >= 0) {
        plan->toe_input_ls = st->job->pose_ls[limb->toe].rotation;
        if (relative)
            plan->toe_clearance = ik_vec3_dot(
                ik_vec3_sub(ik_mat4_transform_point(&st->job->model_ms[limb->toe], limb->toe_tip_ls), st->floor_point),
                st->up);
    }
    if (st->job->report) {
        st->job->report->grounded[which - IK_LIMB_LEG_L] = 1;
        st->job->report->ground_point_ms[which - IK_LIMB_LEG_L] = hit.point_ms;
        st->job->report->ground_normal_ms[which - IK_LIMB_LEG_L] = hit.normal_ms;
    }
    return 1;
}

/* Seed 001's heel lift: turn the foot plan about the ball's contact point
 * by `angle` about the foot's lateral axis (positive lifts the heel). */
static void lift_heel(const solve_state *st, int which, foot_plan *plan, ik_real angle) {
    const ik_humanoid_limb *limb = &st->rig->limb[which];
    ik_vec3 lateral = limb->end >= 0 ? ik_quat_rotate(plan->rotation, plan->lateral_rf) : st->lateral;
    ik_quat p = ik_quat_from_axis_angle(lateral, angle);
    plan->ankle = ik_vec3_add(plan->ball, ik_quat_rotate(p, ik_vec3_sub(plan->ankle, plan->ball)));
    plan->rotation = ik_quat_normalize(ik_quat_mul(p, plan->rotation));
    plan->lift_angle += angle;
}

/* When the ankle is beyond the leg's reach from the hip, lift the heel by
 * the smallest angle that brings it within reach (bisection on the angle,
 * up to the ankle's plantarflexion limit): seed 001, "standing on the toes
 * ... allow[s] the leg+foot to reach further". */
static void lift_for_reach(const solve_state *st, int which, foot_plan *plan) {
    const ik_humanoid_limb *limb = &st->rig->limb[which];
    ik_vec3 hip = position(st, limb->start);
    ik_real reach = limb_length(st, limb), lo = 0, hi = st->rig->limits.ankle_down;
    int i;
    if (ik_vec3_distance(plan->ankle, hip) <= reach) return;
    for (i = 0; i < 30; ++i) {
        foot_plan trial = *plan;
        ik_real mid = (ik_real)0.5 * (lo + hi);
        lift_heel(st, which, &trial, mid);
        if (ik_vec3_distance(trial.ankle, hip) <= reach)
            hi = mid;
        else
            lo = mid;
    }
    lift_heel(st, which, plan, hi);
}

/* Seed 001's toes "bend to stay even with the ground": the toes turn about
 * the foot's lateral axis a through the toe joint T so that their tip
 * contact P meets the surface under it (hit g, normal n), or with
 * feet_relative stands its animated height c above the floor over it
 * (c (up.n) across the surface). With r = P - T split into r_a along a and
 * r_p across it, the tip's height over that after a turn phi is
 * C + A cos phi + B sin phi, C = n.(T + r_a - g) - c (up.n),
 * A = n.r_p, B = n.(a x r_p); of the two roots phi = atan2(B, A) +- acos(-C /
 * sqrt(A^2 + B^2)) the smaller turn is taken (the closest approach when
 * there is none), limited to toe_bend up and toe_curl down, twice with a
 * fresh cast for curved ground. The turn starts from the toe's input
 * rotation; a foot held in the air only bends its toes up out of the
 * ground (the nearer of the upward roots: toes pointing down rise either
 * way), and not for less than 1e-5 leg lengths of depth. */
static void place_toes(const solve_state *st, int which, const foot_plan *plan) {
    const ik_humanoid_limb *limb = &st->rig->limb[which];
    const ik_humanoid_limits *lim = &st->rig->limits;
    ik_real total = 0, leg = limb_length(st, limb);
    int i;
    if (limb->toe < 0) return;
    st->job->pose_ls[limb->toe].rotation = plan->toe_input_ls;
    refresh(st, limb->toe);
    for (i = 0; i < 2; ++i) {
        const ik_mat4 *toe = &st->job->model_ms[limb->toe];
        ik_vec3 t = ik_mat4_translation(toe), p = ik_mat4_transform_point(toe, limb->toe_tip_ls), r, rp, n;
        ik_vec3 a = foot_lateral(st, limb, &st->job->model_ms[limb->end]);
        ik_real A, B, C, R, base, spread, phi, other, clear;
        ik_ground_hit hit;
        if (!cast_down(st, p, leg, &hit)) return;
        n = hit.normal_ms;
        clear = plan->toe_clearance * ik_vec3_dot(st->up, n);
        if (plan->airborne && ik_vec3_dot(ik_vec3_sub(p, hit.point_ms), n) >= clear - (ik_real)1e-5 * leg) return;
        r = ik_vec3_sub(p, t);
        rp = ik_vec3_reject(r, a);
        A = ik_vec3_dot(n, rp);
        B = ik_vec3_dot(n, ik_vec3_cross(a, rp));
        C = ik_vec3_dot(n, ik_vec3_sub(ik_vec3_add(t, ik_vec3_sub(r, rp)), hit.point_ms)) - clear;
        R = IK_SQRT(A * A + B * B);
        if (!(R > 0)) return;
        base = IK_ATAN2(B, A);
        spread = ik_acos_safe(-C / R);
        phi = ik_wrap_angle(base - spread);
        other = ik_wrap_angle(base + spread);
        if (plan->airborne) {
            /* only upward (negative) turns: the nearer upward root, else none */
            if (phi > 0 || (other <= 0 && other > phi)) phi = other;
            phi = ik_minr(phi, 0);
        } else if (IK_FABS(other) < IK_FABS(phi)) {
            phi = other;
        }
        phi = ik_clampr(total + phi, -lim->toe_bend, lim->toe_curl) - total;
        total += phi;
        turn_joint(st, limb->toe, ik_quat_from_axis_angle(a, phi));
    }
}

/* Solve the leg to a plan from the leg's input rotations (`saved`: start,
 * mid, end), so every trial starts from the same pose; returns the ankle's
 * dorsiflexion afterwards. */
static ik_real solve_leg_to(const solve_state *st, int which, const foot_plan *plan, const ik_quat saved[3]) {
    const ik_humanoid_limb *limb = &st->rig->limb[which];
    const ik_humanoid_goal *goal = &st->job->goal[which];
    st->job->pose_ls[limb->start].rotation = saved[0];
    st->job->pose_ls[limb->mid].rotation = saved[1];
    if (limb->end >= 0) st->job->pose_ls[limb->end].rotation = saved[2];
    refresh(st, limb->start);
    solve_limb(st, which, plan->ankle, plan->has_rotation ? &plan->rotation : NULL, goal->enabled ? goal : NULL);
    return limb->end >= 0 ? dorsiflexion(st, limb) : 0;
}

/* A swinging foot turned toes-down about its ankle may dip its ball into
 * the ground: turn it back up about the lateral axis by the angle that
 * lifts the ball onto the surface, asin(depth / |ball - ankle|), at most
 * `limit` (what was turned), twice for the ground's curvature. Staying out
 * of the ground wins over the ankle's limit. */
static void keep_ball_above(const solve_state *st, const ik_humanoid_limb *limb, ik_real limit) {
    int i;
    for (i = 0; i < 2 && limit > 0; ++i) {
        const ik_mat4 *foot = &st->job->model_ms[limb->end];
        ik_vec3 ball = ik_mat4_transform_point(foot, limb->ball_ls), ankle = ik_mat4_translation(foot);
        ik_real reach = ik_vec3_distance(ball, ankle), depth, angle;
        ik_ground_hit hit;
        if (!cast_down(st, ball, limb_length(st, limb), &hit) || !(reach > 0)) return;
        depth = ik_vec3_dot(ik_vec3_sub(hit.point_ms, ball), hit.normal_ms);
        if (!(depth > 0)) return;
        depth = ik_minr(depth, reach);
        angle = ik_minr(limit, IK_ATAN2(depth, IK_SQRT(reach * reach - depth * depth)));
        turn_joint(st, limb->end, ik_quat_from_axis_angle(foot_lateral(st, limb, foot), -angle));
        limit -= angle;
    }
}

/* Whether the plan is where the foot already is, within 1e-5 leg lengths
 * and 1e-5 radians, with the ankle inside the plan's limits (a carried foot
 * on ground through its floor): then the leg is left as it is, since
 * solving a straight leg again only adds rounding at its knee (the law of
 * cosines is ill-conditioned there: 1e-7 in the cosine is 5e-4 rad). */
static ik_bool plan_is_foot(const solve_state *st, const ik_humanoid_limb *limb, const foot_plan *plan) {
    ik_mat4 end_ms = end_matrix(st, limb);
    ik_real flex;
    if (ik_vec3_distance(ik_mat4_translation(&end_ms), plan->ankle) > (ik_real)1e-5 * limb_length(st, limb)) return 0;
    if (limb->end < 0) return 1;
    flex = dorsiflexion(st, limb);
    return ik_quat_angle(ik_quat_mul(ik_quat_conjugate(rotation(st, limb->end)), plan->rotation)) <= (ik_real)1e-5 &&
           flex <= plan->flex_up && flex >= -plan->flex_down;
}

/* Solve a planted leg: the leg to the plan, the foot to the plan's rotation.
 * Past the ankle's dorsiflexion limit the heel lifts about the ball (seed
 * 001) by the smallest extra angle that brings the ankle back inside it:
 * lifting turns the foot toes-down and raises the ankle, so the flexion
 * falls smoothly as the lift grows, and regula falsi with the Illinois
 * halving over [0, ankle_down - lift] finds it (flexion within 1e-5 rad of
 * the limit, on the allowed side), each trial a full leg solve from the
 * input pose; the ankle is then kept within reach and the leg solved at the
 * final plan. Past the plantarflexion limit the foot is turned back to the
 * limit (its toes leave the ground); a foot held in the air turns about the
 * ankle to either limit, its ankle staying at the goal. The limits are the
 * plan's: the rig's, widened to the animated flexion with feet_relative. */
static void solve_planted_leg(const solve_state *st, int which, foot_plan *plan) {
    const ik_humanoid_limb *limb = &st->rig->limb[which];
    ik_quat saved[3];
    ik_real flex;
    if (plan_is_foot(st, limb, plan)) {
        place_toes(st, which, plan);
        return;
    }
    saved[0] = st->job->pose_ls[limb->start].rotation;
    saved[1] = st->job->pose_ls[limb->mid].rotation;
    saved[2] = limb->end >= 0 ? st->job->pose_ls[limb->end].rotation : ik_quat_identity();
    flex = solve_leg_to(st, which, plan, saved);
    if (limb->end >= 0 && !plan->airborne && flex > plan->flex_up + (ik_real)1e-4 &&
        plan->lift_angle < plan->flex_down) {
        ik_real lo = 0, hi = plan->flex_down - plan->lift_angle, f_lo = flex - plan->flex_up, f_hi;
        int i, kept = 0;
        foot_plan trial = *plan;
        lift_heel(st, which, &trial, hi);
        f_hi = solve_leg_to(st, which, &trial, saved) - plan->flex_up;
        for (i = 0; i < 40 && f_hi < -(ik_real)1e-5 && hi - lo > (ik_real)1e-6; ++i) {
            ik_real mid = hi - f_hi * (hi - lo) / (f_hi - f_lo), f_mid;
            if (!(mid > lo && mid < hi)) mid = (ik_real)0.5 * (lo + hi);
            trial = *plan;
            lift_heel(st, which, &trial, mid);
            f_mid = solve_leg_to(st, which, &trial, saved) - plan->flex_up;
            if (f_mid > 0) {
                lo = mid;
                f_lo = f_mid;
                if (kept == 1) f_hi *= (ik_real)0.5;
                kept = 1;
            } else {
                hi = mid;
                f_hi = f_mid;
                if (kept == -1) f_lo *= (ik_real)0.5;
                kept = -1;
            }
        }
        lift_heel(st, which, plan, hi);
        lift_for_reach(st, which, plan);
        flex = solve_leg_to(st, which, plan, saved);
    }
    if (limb->end >= 0 && (flex < -plan->flex_down || (plan->airborne && flex > plan->flex_up))) {
        ik_vec3 lateral = foot_lateral(st, limb, &st->job->model_ms[limb->end]);
        ik_real excess = flex < 0 ? flex + plan->flex_down : flex - plan->flex_up;
        turn_joint(st, limb->end, ik_quat_from_axis_angle(lateral, excess));
        if (excess > 0) keep_ball_above(st, limb, excess);
    }
    place_toes(st, which, plan);
    if (st->job->report) st->job->report->heel_lifted[which - IK_LIMB_LEG_L] = plan->lift_angle > 0;
}

/* The pelvis (FinalIK's grounder, ozz's foot IK sample): move along up by
 * the smaller of the two feet's height changes (so the lower foot can
 * reach, and both raised feet raise the body), then lower further until
 * both ankles are within reach of their hips, s = -(D.up) - sqrt((D.up)^2 -
 * |D|^2 + L^2) for the hip-to-ankle vector D; clamped to the limits. L is
 * 0.9999 of the leg, or for a foot carried with feet_relative at least the
 * animated hip-to-ankle distance (a straight leg stays straight, not bent by
 * the margin). */
static ik_real adjust_pelvis(const solve_state *st, const foot_plan plans[2]) {
    const ik_humanoid_limits *lim = &st->rig->limits;
    ik_real offset = 0, leg = 0, extra = 0;
    ik_vec3 delta;
    ik_mat4 parent, parent_inv;
    int side, first = 1;
    for (side = 0; side < 2; ++side) {
        const ik_humanoid_limb *limb = &st->rig->limb[IK_LIMB_LEG_L + side];
        ik_mat4 end_ms = end_matrix(st, limb);
        ik_real change;
        leg = ik_maxr(leg, limb_length(st, limb));
        if (!plans[side].active) continue;
        change = ik_vec3_dot(ik_vec3_sub(plans[side].ankle, ik_mat4_translation(&end_ms)), st->up);
        offset = first ? change : ik_minr(offset, change);
        first = 0;
    }
    if (first) return 0;
    offset = ik_clampr(offset, -lim->pelvis_drop * leg, lim->pelvis_raise * leg);
    for (side = 0; side < 2; ++side) {
        const ik_humanoid_limb *limb = &st->rig->limb[IK_LIMB_LEG_L + side];
        ik_real reach = limb_length(st, limb) * (ik_real)0.9999, du, disc;
        ik_vec3 d;
        if (!plans[side].active) continue;
        if (st->job->feet_relative && !st->job->goal[IK_LIMB_LEG_L + side].enabled) {
            ik_mat4 end_ms = end_matrix(st, limb);
            reach = ik_maxr(reach, ik_vec3_distance(position(st, limb->start), ik_mat4_translation(&end_ms)));
        }
        d = ik_vec3_sub(plans[side].ankle, ik_vec3_mad(position(st, limb->start), st->up, offset));
        if (ik_vec3_length(d) <= reach) continue;
        du = ik_vec3_dot(d, st->up);
        disc = du * du - ik_vec3_length_sq(d) + reach * reach;
        extra = ik_maxr(extra, disc >= 0 ? -du - IK_SQRT(disc) : -du);
    }
    offset = ik_maxr(offset - extra, -lim->pelvis_drop * leg);
    if (offset == 0) return 0;
    parent = parent_matrix(st, st->rig->pelvis);
    if (!ik_mat4_inverse(&parent, &parent_inv)) return 0;
    delta = ik_mat4_transform_vector(&parent_inv, ik_vec3_scale(st->up, offset));
    st->job->pose_ls[st->rig->pelvis].translation = ik_vec3_add(st->job->pose_ls[st->rig->pelvis].translation, delta);
    refresh(st, st->rig->pelvis);
    return offset;
}

/* ---- look-at ------------------------------------------------------------------- */

/* The chest's forward before the look turns it, flattened onto the plane
 * across `up` (the body's forward when the chest points along up). */
static ik_vec3 look_reference(const solve_state *st) {
    int chest = st->rig->map.joint[IK_ROLE_CHEST];
    ik_vec3 f = ik_mat4_transform_vector(&st->job->model_ms[chest], st->rig->chest_forward_ls);
    return ik_vec3_normalize_or(ik_vec3_reject(f, st->up), st->forward);
}

/* The direction the head turns to for a target along d: with f the
 * reference forward (look_reference) and l = up x f, the target's
 * yaw a = atan2(d.l, d.f) and elevation e = atan2(d.up, |d - (d.up) up|) are
 * each clamped to +-look_max and the direction rebuilt as
 * cos e (cos a f + sin a l) + sin e up. A target behind thus turns the head
 * to its side as far as the yaw allows, pitched by the target's own
 * elevation and no more (a cone clamp about the forward tips a direction
 * straight behind over the top of the head instead). */
static ik_vec3 look_direction(const solve_state *st, ik_vec3 f, ik_vec3 d) {
    ik_vec3 l = ik_vec3_cross(st->up, f), flat;
    ik_real limit = st->rig->limits.look_max, a, e;
    flat = ik_vec3_reject(d, st->up);
    a = ik_clampr(IK_ATAN2(ik_vec3_dot(d, l), ik_vec3_dot(d, f)), -limit, limit);
    e = ik_clampr(IK_ATAN2(ik_vec3_dot(d, st->up), ik_vec3_length(flat)), -limit, limit);
    return ik_vec3_add(ik_vec3_scale(ik_vec3_add(ik_vec3_scale(f, IK_COS(a)), ik_vec3_scale(l, IK_SIN(a))), IK_COS(e)),
                       ik_vec3_scale(st->up, IK_SIN(e)));
}

/* Spine, neck and head share the turn (ik_look_at_chain with the rig's
 * shares) toward the direction look_direction allows, measured from the
 * chest's forward before the turn. The turns below the head move the eye,
 * which changes the direction a clamped target is seen in, so the head
 * alone then aims once more (ik_aim) along the direction allowed from where
 * it now is; a target within the limits is already on its line. */
static void look_turn(const solve_state *st) {
    const ik_humanoid *rig = st->rig;
    ik_look_at_chain chain = ik_look_at_chain_def();
    ik_aim aim = ik_aim_def();
    int head = rig->map.joint[IK_ROLE_HEAD];
    ik_vec3 eye = position(st, head), dir = ik_vec3_sub(st->job->look_target_ms, eye), reference, allowed;
    if (rig->look_count < 1 || !(ik_vec3_length_sq(dir) > 0)) return;
    reference = look_reference(st);
    allowed = look_direction(st, reference, dir);
    chain.skeleton = st->s;
    chain.pose_ls = st->job->pose_ls;
    chain.model_ms = st->job->model_ms;
    chain.root_ms = st->job->root_ms;
    chain.joints = rig->look_chain;
    chain.weights = rig->look_weights;
    chain.count = rig->look_count;
    chain.target_ms = ik_vec3_mad(eye, allowed, ik_vec3_length(dir));
    chain.pole_ms = st->up;
    chain.forward_ls = rig->head_forward_ls;
    chain.up_ls = rig->head_up_ls;
    if (ik_look_at_chain_run(&chain) != IK_OK ||
        ik_vec3_distance(chain.target_ms, st->job->look_target_ms) <= (ik_real)1e-6 * ik_vec3_length(dir))
        return;
    eye = position(st, head);
    dir = ik_vec3_sub(st->job->look_target_ms, eye);
    if (!(ik_vec3_length_sq(dir) > 0)) return;
    aim.joint_ms = &st->job->model_ms[head];
    aim.target_ms = ik_vec3_mad(eye, look_direction(st, reference, dir), ik_vec3_length(dir));
    aim.pole_ms = st->up;
    aim.forward_ls = rig->head_forward_ls;
    aim.up_ls = rig->head_up_ls;
    aim.rotation_ls = &st->job->pose_ls[head].rotation;
    if (ik_aim_run(&aim) == IK_OK) refresh(st, head);
}

/* The look, then its result measured by forward kinematics: the residual
 * is the angle between the head's forward g and the direction t from the
 * head to the target, atan2(|g x t|, g.t) (0 for a target on the head),
 * and the look is reached when it is within the tolerance. */
static void look_at(const solve_state *st) {
    ik_humanoid_report *rep = st->job->report;
    int head = st->rig->map.joint[IK_ROLE_HEAD];
    ik_vec3 gaze, to;
    look_turn(st);
    if (!rep) return;
    gaze = ik_mat4_transform_vector(&st->job->model_ms[head], st->rig->head_forward_ls);
    to = ik_vec3_sub(st->job->look_target_ms, position(st, head));
    rep->look_error = IK_ATAN2(ik_vec3_length(ik_vec3_cross(gaze, to)), ik_vec3_dot(gaze, to));
    rep->look_reached = rep->look_error <= st->job->look_tolerance;
}

/* ---- the floor of a pose ------------------------------------------------------- */

ik_vec3 ik_humanoid_floor_point(const ik_humanoid *rig, const ik_mat4 *model_ms, const ik_mat4 *root_ms) {
    ik_mat4 root = root_ms ? *root_ms : ik_mat4_identity();
    ik_vec3 up = ik_vec3_normalize_or(ik_mat4_transform_vector(&root, rig->up_rs), rig->up_rs);
    ik_vec3 hips = ik_mat4_translation(&model_ms[rig->map.joint[IK_ROLE_HIPS]]);
    ik_real scale = IK_CBRT(IK_FABS(ik_mat4_det3(&root))), low = 0;
    int side;
    for (side = 0; side < 2; ++side) {
        const ik_humanoid_limb *limb = &rig->limb[IK_LIMB_LEG_L + side];
        ik_real foot;
        if (limb->end >= 0) {
            const ik_mat4 *m = &model_ms[limb->end];
            foot = ik_minr(ik_vec3_dot(ik_mat4_transform_point(m, limb->heel_ls), up),
                           ik_vec3_dot(ik_mat4_transform_point(m, limb->ball_ls), up));
        } else {
            foot = ik_vec3_dot(ik_mat4_transform_point(&model_ms[limb->mid], limb->end_offset_ls), up) -
                   limb->ankle_height * scale;
        }
        low = side == 0 ? foot : ik_minr(low, foot);
    }
    return ik_vec3_mad(hips, up, low - ik_vec3_dot(hips, up));
}

/* ---- the run --------------------------------------------------------------------- */

static void setup_state(solve_state *st, const ik_humanoid_solve *job) {
    const ik_humanoid *rig = job->rig;
    ik_mat4 root = job->root_ms ? *job->root_ms : ik_mat4_identity();
    ik_real det = ik_mat4_det3(&root);
    st->job = job;
    st->rig = rig;
    st->s = rig->skeleton;
    st->up = ik_vec3_normalize_or(ik_mat4_transform_vector(&root, rig->up_rs), rig->up_rs);
    st->forward = ik_vec3_normalize_or(ik_mat4_transform_vector(&root, rig->forward_rs), rig->forward_rs);
    st->left = ik_vec3_normalize_or(ik_mat4_transform_vector(&root, rig->left_rs), rig->left_rs);
    st->lateral = ik_vec3_normalize_or(ik_vec3_cross(st->up, st->forward), st->left);
    st->hand = det < 0 ? -1 : 1;
    st->floor_point =
        job->use_floor ? job->floor_ms : ik_mat4_transform_point(&root, ik_vec3_scale(rig->up_rs, rig->floor_rs));
    st->root_scale = IK_CBRT(IK_FABS(det));
    if (!(st->root_scale > 0) || !ik_finite(st->root_scale)) st->root_scale = 1;
}

/* One pass over clavicles and limbs. Clavicles start again from rest (and
 * blend from `clavicle_input_ls`), so a second pass does not add to the first. */
static void solve_limbs(const solve_state *st, foot_plan plans[2], const ik_quat clavicle_input_ls[2]) {
    const ik_humanoid_solve *job = st->job;
    int i;
    if (job->adjust_shoulders)
        for (i = IK_LIMB_ARM_L; i <= IK_LIMB_ARM_R; ++i) {
            int clavicle = st->rig->limb[i].clavicle;
            if (!job->goal[i].enabled || clavicle < 0) continue;
            adjust_clavicle(st, i, job->goal[i].position_ms, job->goal[i].weight, clavicle_input_ls[i]);
        }
    for (i = 0; i < IK_LIMB_COUNT; ++i) {
        const ik_humanoid_goal *g = &job->goal[i];
        if (i >= IK_LIMB_LEG_L && plans[i - IK_LIMB_LEG_L].active) {
            solve_planted_leg(st, i, &plans[i - IK_LIMB_LEG_L]);
            report_limb(st, i, plans[i - IK_LIMB_LEG_L].ankle);
        } else if (g->enabled) {
            solve_limb(st, i, g->position_ms, g->use_rotation ? &g->rotation_ms : NULL, g);
            report_limb(st, i, g->position_ms);
        }
    }
}

ik_result ik_humanoid_solve_run(const ik_humanoid_solve *job) {
    solve_state st;
    foot_plan plans[2];
    ik_quat clavicle_input_ls[2];
    ik_result r = validate(job);
    int side, pass;
    if (r != IK_OK) return r;
    setup_state(&st, job);
    if (job->report) memset(job->report, 0, sizeof *job->report);
    ik_skeleton_fk(st.s, job->pose_ls, job->root_ms, job->model_ms);

    /* Pelvis: plan both feet on the ground first, move the body, then let the
     * heels lift where the reach still falls short. */
    for (side = 0; side < 2; ++side)
        plans[side].active = job->ground && plan_foot(&st, IK_LIMB_LEG_L + side, &plans[side]);
    if (job->ground && job->adjust_pelvis) {
        ik_real offset = adjust_pelvis(&st, plans);
        if (job->report) job->report->pelvis_offset = offset;
    }
    for (side = 0; side < 2; ++side)
        if (plans[side].active) lift_for_reach(&st, IK_LIMB_LEG_L + side, &plans[side]);

    /* Spine, neck, head. */
    if (job->look_at) look_at(&st);

    /* Clavicles, arms and legs, wrists and ankles, toes; then the second pass. */
    for (side = 0; side < 2; ++side) {
        int clavicle = job->rig->limb[IK_LIMB_ARM_L + side].clavicle;
        clavicle_input_ls[side] = clavicle >= 0 ? job->pose_ls[clavicle].rotation : ik_quat_identity();
    }
    for (pass = 0; pass < job->passes; ++pass) solve_limbs(&st, plans, clavicle_input_ls);
    return IK_OK;
}

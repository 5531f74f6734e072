/* Retargeting a take onto another humanoid skeleton: rotations through the
 * two rest poses in a shared body frame, root travel scaled by the legs,
 * then the source's foot contacts held by the footskate job. */
#include <ikit/feet_within_limits.h>
#include <ikit/footskate.h>
#include <ikit/leg_figures.h>
#include <ikit/retarget.h>
#include <ikit/stance_clean.h>
#include <ikit/stance_join.h>
#include <ikit/two_bone.h>

#include <stdlib.h>
#include <string.h>

#include "scratch_carve.h"

/* The job's memory, carved from the caller's scratch. */
typedef struct layout {
    int *source_of;                 /* [target joints] partner, or -1 */
    ik_quat *offset;                /* [target joints] K_j of the rotation transfer */
    ik_quat *world;                 /* [target joints] this frame's root-space rotations */
    int *tip;                       /* [target joints] the source joint whose direction a limb bone takes
                                       (the partner's next limb joint), or -1 */
    ik_vec3 *tip_ls;                /* [target joints] that direction in the joint's rest frame (unit) */
    ik_mat4 *source_ms;             /* [source joints] */
    ik_mat4 *target_ms;             /* [target joints] */
    ik_mat4 *rest_ms;               /* [target joints] the target's rest pose */
    ik_vec3 *paths_ms;              /* [frames * IK_FOOT_PATH_POINTS] */
    ik_real *contact_scratch;       /* [2 frames] */
    ik_foot_contact *found;         /* [capacity] on the source */
    ik_foot_contact *held;          /* [capacity] on the target */
    ik_foot_contact *intended;      /* [capacity] the contacts meant to be held (the source's mapped, and the
                                       result's own joined), before the IK pass moves or cuts any */
    ik_foot_contact *best;          /* [capacity] the intended list whose result slid least */
    unsigned char *lifted;          /* [2 frames] per frame and leg: the heel lifted (not held there) */
    unsigned char *overbent;        /* [frames] a round's result passed the rig's limits there (no virtual toe
                                       is held on such frames again) */
    unsigned char *parent_mirrored; /* [target joints] the parent's model frame mirrors (det < 0), in
                                       every pose: the transfer changes rotations and the hips' travel only */
    ik_quat *carried;               /* [target joints] this frame's trunk aims above the joint, carried down */
    unsigned char *carries;         /* [target joints] the joint's aim is carried to its subtree (the trunk's) */
    void *stance_join;              /* ik_stance_join's scratch */
    size_t stance_join_bytes;
    void *footskate; /* footskate's plan */
    size_t footskate_bytes;
    void *stance_clean; /* ik_stance_clean's scratch */
    size_t stance_clean_bytes;
} layout;

/* Contacts of one point are disjoint, at least a frame long and a frame
 * apart: at most (frames + 1) / 2 each. */
static int contact_capacity(int frames) { return 2 * (frames + 1); }

static size_t make_layout(int frames, int source_joints, int target_joints, char *base, layout *l) {
    size_t at = 0, o[19];
    size_t f = (size_t)frames, s = (size_t)source_joints, t = (size_t)target_joints;
    size_t cap = (size_t)contact_capacity(frames);
    ik_take shape;
    o[0] = scratch_carve(&at, t * sizeof(int));
    o[1] = scratch_carve(&at, t * sizeof(ik_quat));
    o[2] = scratch_carve(&at, t * sizeof(ik_quat));
    o[3] = scratch_carve(&at, s * sizeof(ik_mat4));
    o[4] = scratch_carve(&at, t * sizeof(ik_mat4));
    o[5] = scratch_carve(&at, f * IK_FOOT_PATH_POINTS * sizeof(ik_vec3));
    o[6] = scratch_carve(&at, 2 * f * sizeof(ik_real));
    o[7] = scratch_carve(&at, cap * sizeof(ik_foot_contact));
    o[8] = scratch_carve(&at, cap * sizeof(ik_foot_contact));
    o[9] = scratch_carve(&at, t * sizeof(int));
    o[10] = scratch_carve(&at, t * sizeof(ik_vec3));
    o[11] = scratch_carve(&at, 2 * f);
    o[12] = scratch_carve(&at, t);
    o[13] = scratch_carve(&at, t * sizeof(ik_quat));
    o[14] = scratch_carve(&at, t);
    o[15] = scratch_carve(&at, cap * sizeof(ik_foot_contact));
    o[16] = scratch_carve(&at, cap * sizeof(ik_foot_contact));
    o[17] = scratch_carve(&at, t * sizeof(ik_mat4));
    o[18] = scratch_carve(&at, f);
    shape.frame_count = frames;
    shape.joint_count = target_joints;
    shape.frame_time = 1;
    shape.poses_ls = NULL;
    l->footskate_bytes = ik_footskate_scratch_size(&shape, (int)cap);
    l->stance_join_bytes = ik_stance_join_scratch_size(&shape, (int)cap);
    l->stance_clean_bytes = ik_stance_clean_scratch_size(&shape, (int)cap);
    l->footskate = l->stance_join = l->stance_clean = NULL;
    {
        size_t plan_at = scratch_carve(&at, l->footskate_bytes), join_at = scratch_carve(&at, l->stance_join_bytes);
        size_t clean_at = scratch_carve(&at, l->stance_clean_bytes);
        if (!base) return at;
        l->footskate = base + plan_at;
        l->stance_join = base + join_at;
        l->stance_clean = base + clean_at;
    }
    l->source_of = (int *)(void *)(base + o[0]);
    l->offset = (ik_quat *)(void *)(base + o[1]);
    l->world = (ik_quat *)(void *)(base + o[2]);
    l->source_ms = (ik_mat4 *)(void *)(base + o[3]);
    l->target_ms = (ik_mat4 *)(void *)(base + o[4]);
    l->paths_ms = (ik_vec3 *)(void *)(base + o[5]);
    l->contact_scratch = (ik_real *)(void *)(base + o[6]);
    l->found = (ik_foot_contact *)(void *)(base + o[7]);
    l->held = (ik_foot_contact *)(void *)(base + o[8]);
    l->tip = (int *)(void *)(base + o[9]);
    l->tip_ls = (ik_vec3 *)(void *)(base + o[10]);
    l->lifted = (unsigned char *)(base + o[11]);
    l->parent_mirrored = (unsigned char *)(base + o[12]);
    l->carried = (ik_quat *)(void *)(base + o[13]);
    l->carries = (unsigned char *)(base + o[14]);
    l->best = (ik_foot_contact *)(void *)(base + o[15]);
    l->intended = (ik_foot_contact *)(void *)(base + o[16]);
    l->rest_ms = (ik_mat4 *)(void *)(base + o[17]);
    l->overbent = (unsigned char *)(base + o[18]);
    return at;
}

size_t ik_retarget_scratch_size(int frame_count, int source_joints, int target_joints) {
    layout l;
    if (frame_count < 1 || source_joints < 1 || target_joints < 1) return 0;
    return make_layout(frame_count, source_joints, target_joints, NULL, &l) + SCRATCH_ALIGN;
}

ik_retarget ik_retarget_def(void) {
    ik_retarget job;
    memset(&job, 0, sizeof job);
    job.pair_same_names = 1;
    job.hold_feet = 1;
    job.contacts = ik_foot_contacts_def();
    job.blend_time = (ik_real)0.25;
    job.plant_rounds = 3;
    job.defaulted = IK_JOB_DEFAULTED;
    return job;
}

/* The mapping between the two bodies, in their root spaces:
 *   x_t = origin_t + scale C (x_s - origin_s),  C = B_t B_s^T,
 * B = [left up forward] of each rig; origins on the ankle level under the
 * rest hips. Rotations turn by q_turn = C (or -C when C mirrors: a turn
 * conjugated by -C is the same as by C, and -C is a rotation then). */
typedef struct body_map {
    ik_vec3 c[3]; /* columns of C */
    ik_quat turn;
    ik_vec3 origin_s, origin_t;
    ik_vec3 up_s, up_t;
    ik_real scale;
    ik_real level_s[IK_FOOT_CONTACT_POINTS];  /* the source's floor level of each point, along up_s */
    ik_real height_t[IK_FOOT_CONTACT_POINTS]; /* the target's rest height of each point, along up_t */
    ik_feet_limits limits;                    /* the target's, for the limits pass after each IK pass */
} body_map;

static ik_vec3 map_vector(const body_map *m, ik_vec3 v) {
    return ik_vec3_add(ik_vec3_add(ik_vec3_scale(m->c[0], v.x), ik_vec3_scale(m->c[1], v.y)),
                       ik_vec3_scale(m->c[2], v.z));
}

static ik_vec3 map_point(const body_map *m, ik_vec3 x) {
    return ik_vec3_add(m->origin_t, ik_vec3_scale(map_vector(m, ik_vec3_sub(x, m->origin_s)), m->scale));
}

/* C = sum_k b_t,k b_s,k^T, column i = sum_k b_t,k (b_s,k)_i. */
static void make_turn(body_map *m, const ik_humanoid *s, const ik_humanoid *t) {
    const ik_vec3 bs[3] = {s->left_rs, s->up_rs, s->forward_rs}, bt[3] = {t->left_rs, t->up_rs, t->forward_rs};
    ik_mat4 r = ik_mat4_identity();
    ik_real sign;
    int i, k;
    for (i = 0; i < 3; ++i) {
        m->c[i] = ik_vec3_zero();
        for (k = 0; k < 3; ++k) m->c[i] = ik_vec3_mad(m->c[i], bt[k], (&bs[k].x)[i]);
    }
    sign = ik_vec3_dot(m->c[0], ik_vec3_cross(m->c[1], m->c[2])) < 0 ? -1 : 1;
    for (i = 0; i < 3; ++i) {
        r.m[4 * i] = sign * m->c[i].x;
        r.m[4 * i + 1] = sign * m->c[i].y;
        r.m[4 * i + 2] = sign * m->c[i].z;
    }
    m->turn = ik_quat_normalize(ik_mat4_rotation(&r));
}

/* Origins on each body's ankle level under its rest hips: the source's
 * from its take (the heels' floor level), the target's from its rest floor
 * and its ankles' heights above their own soles (not where the rest pose
 * holds the feet: a rig may rest with a foot raised). The target's height
 * of each contact point over the floor when planted: the ankle's, and the
 * toe joint's above the ball of its foot along the sole's normal. */
static void make_origins(body_map *m, const ik_retarget *job, const layout *l, const ik_mat4 *target_rest_ms) {
    const ik_humanoid *s = job->source_rig, *t = job->target_rig;
    ik_vec3 hips_s, hips_t;
    ik_real ankle_s, ankle_t;
    int p;
    ik_skeleton_fk(s->skeleton, s->skeleton->rest_ls, NULL, l->source_ms);
    hips_s = ik_mat4_translation(&l->source_ms[s->map.joint[IK_ROLE_HIPS]]);
    hips_t = ik_mat4_translation(&target_rest_ms[t->map.joint[IK_ROLE_HIPS]]);
    ankle_s = (m->level_s[IK_FOOT_HEEL_L] + m->level_s[IK_FOOT_HEEL_R]) * (ik_real)0.5;
    ankle_t = t->floor_rs + (t->limb[IK_LIMB_LEG_L].ankle_height + t->limb[IK_LIMB_LEG_R].ankle_height) * (ik_real)0.5;
    for (p = 0; p < IK_FOOT_CONTACT_POINTS; ++p) {
        const ik_humanoid_limb *leg = &t->limb[ik_foot_point_leg(p)];
        m->height_t[p] = t->floor_rs + (ik_foot_point_is_toe(p) ? 0 : leg->ankle_height); /* a virtual toe's ball */
        if (ik_foot_point_is_toe(p) && leg->toe >= 0 && ik_humanoid_limb_foot(leg) >= 0) {
            const ik_mat4 *foot = &target_rest_ms[ik_humanoid_limb_foot(leg)];
            ik_vec3 ball = ik_mat4_transform_point(foot, leg->ball_ls);
            ik_vec3 normal = ik_vec3_normalize(ik_mat4_transform_vector(foot, leg->sole_up_ls));
            m->height_t[p] =
                t->floor_rs + ik_vec3_dot(ik_vec3_sub(ik_mat4_translation(&target_rest_ms[leg->toe]), ball), normal);
        }
    }
    m->limits = ik_feet_limits_make(t, target_rest_ms);
    m->origin_s = ik_vec3_mad(hips_s, m->up_s, ankle_s - ik_vec3_dot(hips_s, m->up_s));
    m->origin_t = ik_vec3_mad(hips_t, m->up_t, ankle_t - ik_vec3_dot(hips_t, m->up_t));
}

/* ---- pairing --------------------------------------------------------------------- */

static ik_result pair_joints(const ik_retarget *job, const layout *l, int *paired) {
    const ik_skeleton *s = job->source_rig->skeleton, *t = job->target_rig->skeleton;
    int hips_s = job->source_rig->map.joint[IK_ROLE_HIPS], hips_t = job->target_rig->map.joint[IK_ROLE_HIPS];
    int i, r;
    for (i = 0; i < t->joint_count; ++i) l->source_of[i] = -1;
    for (i = 0; i < job->extra_pair_count; ++i) {
        const ik_retarget_pair *p = &job->extra_pairs[i];
        if (p->source_joint < 0 || p->source_joint >= s->joint_count || p->target_joint < 0 ||
            p->target_joint >= t->joint_count || l->source_of[p->target_joint] >= 0)
            return IK_ERR_RANGE;
        l->source_of[p->target_joint] = p->source_joint;
    }
    for (r = 0; r < IK_ROLE_COUNT; ++r) {
        int js = job->source_rig->map.joint[r], jt = job->target_rig->map.joint[r];
        if (js >= 0 && jt >= 0 && l->source_of[jt] < 0) l->source_of[jt] = js;
    }
    /* a virtual ankle's control joint (robot.glb's Foot.L, the foot's mesh)
     * turns as the source's foot */
    for (r = IK_LIMB_LEG_L; r <= IK_LIMB_LEG_R; ++r) {
        int js = ik_humanoid_limb_foot(&job->source_rig->limb[r]), jt = job->target_rig->limb[r].end_control;
        if (js >= 0 && jt >= 0 && l->source_of[jt] < 0) l->source_of[jt] = js;
    }
    /* same names, below both hips (joints above them, such as an armature
     * or IK controls, keep their rest) */
    if (job->pair_same_names && t->names && s->names) {
        ik_subtree_scan below_hips;
        ik_subtree_scan_begin(&below_hips, hips_t);
        for (i = 0; i < t->joint_count; ++i) {
            int js;
            if (l->source_of[i] >= 0 || !t->names[i] || !t->names[i][0] || !ik_subtree_scan_has(&below_hips, t, i))
                continue;
            js = ik_skeleton_find(s, t->names[i]);
            if (js >= 0 && ik_skeleton_is_descendant(s, js, hips_s)) l->source_of[i] = js;
        }
    }
    *paired = 0;
    for (i = 0; i < t->joint_count; ++i) *paired += l->source_of[i] >= 0;
    return IK_OK;
}

/* Where a limb bone's far end (role `to`) rests on the target: its joint,
 * or the virtual ankle of a leg without a foot joint; 0 when neither. */
static ik_bool bone_end_rest(const ik_humanoid *target, int to, const ik_mat4 *target_rest_ms, ik_vec3 *end_ms) {
    int joint = target->map.joint[to];
    if (joint >= 0) {
        *end_ms = ik_mat4_translation(&target_rest_ms[joint]);
        return 1;
    }
    if (to == IK_ROLE_FOOT_L || to == IK_ROLE_FOOT_R) {
        ik_mat4 e = ik_humanoid_limb_end_ms(&target->limb[to == IK_ROLE_FOOT_L ? IK_LIMB_LEG_L : IK_LIMB_LEG_R],
                                            target_rest_ms);
        *end_ms = ik_mat4_translation(&e);
        return 1;
    }
    return 0;
}

/* A target bone from joint `from` to its rest end `end_rest` takes the
 * direction the source joint `to_source` lies in from from's partner:
 * tip[from] = to_source, tip_ls[from] the unit rest direction in from's
 * own frame, R_from0^-1 (end - x_from). */
static void aim_bone(const layout *l, const ik_mat4 *target_rest_ms, int from, ik_vec3 end_rest, int to_source) {
    ik_vec3 d;
    if (from < 0 || l->source_of[from] < 0 || to_source < 0) return;
    d = ik_vec3_sub(end_rest, ik_mat4_translation(&target_rest_ms[from]));
    if (!(ik_vec3_length_sq(d) > 0)) return;
    l->tip[from] = to_source;
    l->tip_ls[from] = ik_quat_rotate(ik_quat_conjugate(ik_quat_normalize(ik_mat4_rotation(&target_rest_ms[from]))),
                                     ik_vec3_normalize(d));
}

/* K_j = R_s0^-1 q_turn^-1 R_t0, so that R_t = q_turn R_s K_j is the target's
 * rest turned by the source's motion away from its rest, carried into the
 * target's frame: R_t = (q R_s R_s0^-1 q^-1) R_t0. That alone keeps any
 * difference between the two rests (girl.glb's trunk rests 12 degrees
 * further forward than CMU's and leaned so all take), so some bones then
 * aim where their partners point (transfer_frame): the limbs, and each
 * paired joint of the trunk between the spine and the head at the next
 * paired joint below it (those between are unpaired, so they ride along),
 * when the two partners stand a hundredth of a leg or more apart at rest
 * (CMU 01_01's neck stands on its chest: no direction between them). A
 * trunk aim turns everything below it too (carries), so clavicles, arms and
 * head keep their place on the chest as the source's do. Clavicles keep
 * the rest-relative turn: CMU's collars rest lower than most rigs' and,
 * aimed, raised girl.glb's 27 degrees past its limit. */
static void make_offsets(const body_map *m, const layout *l, const ik_humanoid *source, const ik_humanoid *target,
                         const ik_mat4 *source_rest_ms, const ik_mat4 *target_rest_ms) {
    /* limb bones and the joint each points at: upper arm to forearm to hand,
     * thigh to shin to foot (a virtual ankle on the target) */
    static const int bones[][2] = {{IK_ROLE_UPPER_ARM_L, IK_ROLE_FOREARM_L}, {IK_ROLE_UPPER_ARM_R, IK_ROLE_FOREARM_R},
                                   {IK_ROLE_FOREARM_L, IK_ROLE_HAND_L},      {IK_ROLE_FOREARM_R, IK_ROLE_HAND_R},
                                   {IK_ROLE_THIGH_L, IK_ROLE_SHIN_L},        {IK_ROLE_THIGH_R, IK_ROLE_SHIN_R},
                                   {IK_ROLE_SHIN_L, IK_ROLE_FOOT_L},         {IK_ROLE_SHIN_R, IK_ROLE_FOOT_R}};
    static const int trunk[] = {IK_ROLE_SPINE, IK_ROLE_CHEST, IK_ROLE_NECK};
    const ik_skeleton *ts = target->skeleton;
    int j, b, target_joints = ts->joint_count;
    for (j = 0; j < target_joints; ++j) l->tip[j] = -1, l->carries[j] = 0;
    for (b = 0; b < (int)(sizeof bones / sizeof bones[0]); ++b) {
        int from = target->map.joint[bones[b][0]], to = target->map.joint[bones[b][1]];
        int to_source = to >= 0 ? l->source_of[to] : source->map.joint[bones[b][1]];
        ik_vec3 end_rest;
        if (from >= 0 && bone_end_rest(target, bones[b][1], target_rest_ms, &end_rest))
            aim_bone(l, target_rest_ms, from, end_rest, to_source);
    }
    /* the trunk's joints from the head up to the spine (or chest, or neck:
     * the highest of them that the head hangs from), each paired one aimed
     * at the next paired one below it on the way */
    for (b = 0; b < 3; ++b) {
        int top = target->map.joint[trunk[b]], head = target->map.joint[IK_ROLE_HEAD], below = -1;
        if (top < 0 || head < 0 || top == head || !ik_skeleton_is_descendant(ts, head, top)) continue;
        for (j = head; j >= 0; j = j == top ? -1 : ts->parents[j]) {
            int from = j, to = below;
            if (l->source_of[from] < 0) continue;
            below = from;
            if (to < 0 || !ik_skeleton_is_descendant(source->skeleton, l->source_of[to], l->source_of[from]) ||
                !(ik_vec3_length(ik_vec3_sub(ik_mat4_translation(&source_rest_ms[l->source_of[to]]),
                                             ik_mat4_translation(&source_rest_ms[l->source_of[from]]))) >
                  (ik_real)0.01 * ik_foot_leg_length(source)))
                continue;
            aim_bone(l, target_rest_ms, from, ik_mat4_translation(&target_rest_ms[to]), l->source_of[to]);
            l->carries[from] = l->tip[from] >= 0;
        }
        break;
    }
    for (j = 0; j < target_joints; ++j) {
        int s = l->source_of[j];
        if (s < 0) continue;
        l->offset[j] = ik_quat_normalize(
            ik_quat_mul(ik_quat_mul(ik_quat_conjugate(ik_quat_normalize(ik_mat4_rotation(&source_rest_ms[s]))),
                                    ik_quat_conjugate(m->turn)),
                        ik_quat_normalize(ik_mat4_rotation(&target_rest_ms[j]))));
    }
}

#define ANCESTORS_ROOM 64

/* Forward kinematics of `joint` and its ancestors only, root first: the
 * same products as ik_skeleton_fk's for those joints, so the same
 * matrices; the others in model_ms are left as they are. A hierarchy deeper
 * than ANCESTORS_ROOM takes the whole skeleton's. */
static void fk_ancestors(const ik_skeleton *s, int joint, const ik_transform *pose, ik_mat4 *model_ms) {
    int chain[ANCESTORS_ROOM], n = 0;
    for (; joint >= 0 && n < ANCESTORS_ROOM; joint = s->parents[joint]) chain[n++] = joint;
    if (joint >= 0) {
        ik_skeleton_fk(s, pose, NULL, model_ms);
        return;
    }
    while (n > 0) ik_skeleton_fk_joint(s, chain[--n], pose, NULL, model_ms);
}

/* ---- contacts ---------------------------------------------------------------------- */

/* A take's own foot contacts (ik_foot_contacts with the job's thresholds)
 * into l->found, each point's floor level into levels; model_ms: scratch
 * of the rig's joint count. */
static ik_result find_contacts(const ik_retarget *job, const layout *l, const ik_humanoid *rig, const ik_take *take,
                               ik_mat4 *model_ms, ik_real *levels, int *count) {
    ik_foot_contacts c = job->contacts;
    ik_result r;
    if (ik_humanoid_limb_foot(&rig->limb[IK_LIMB_LEG_L]) < 0 || ik_humanoid_limb_foot(&rig->limb[IK_LIMB_LEG_R]) < 0)
        return IK_ERR_UNSUPPORTED;
    r = ik_foot_paths_record_rig(rig, take, NULL, model_ms, l->paths_ms, c.present, NULL);
    if (r != IK_OK) return r;
    c.paths_ms = l->paths_ms;
    c.frame_count = take->frame_count;
    c.frame_time = take->frame_time;
    c.up_ms = rig->up_rs;
    c.leg_length = ik_foot_leg_length(rig);
    c.scratch = l->contact_scratch;
    c.contacts = l->found;
    c.capacity = contact_capacity(take->frame_count);
    c.count = count;
    c.heights = c.speeds = NULL;
    c.levels = levels;
    return ik_foot_contacts_run(&c);
}

/* Where leg k's hip (its thigh joint) stands in frame f of a take. */
static ik_vec3 hip_at(const ik_humanoid *rig, const ik_take *take, int k, int f, ik_mat4 *model_ms) {
    int thigh = rig->limb[k].start;
    fk_ancestors(rig->skeleton, thigh, ik_take_pose(take, f), model_ms);
    return ik_mat4_translation(&model_ms[thigh]);
}

static int compare_real(const void *a, const void *b) {
    ik_real x = *(const ik_real *)a, y = *(const ik_real *)b;
    return (x > y) - (x < y);
}

/* How far a toe contact's source foot pitched toes-down, heel up, past
 * its rest pitch, in the median over the contact's frames (`pitch` holds
 * them), the pitch atan2(d.up, |d - (d.up) up|), d = ankle - toe; 0 for a
 * heel or a source foot without a toe. Over ON_TOES the contact is made on
 * the balls of the feet (a crouch, tiptoes); over KNEELING the foot stands
 * nearly upright on bent toes (a kneel), which a rigid toe-less foot
 * cannot copy (robot.glb's thighs went 42 degrees off the source's
 * through 131_01's kneel with its ball held). */
#define ON_TOES ik_rad(20)
#define KNEELING ik_rad(30)

static ik_real foot_pitch(const ik_humanoid *rig, int leg, const ik_mat4 *model_ms, ik_vec3 up) {
    const ik_humanoid_limb *l = &rig->limb[leg];
    ik_vec3 d =
        ik_vec3_sub(ik_mat4_translation(&model_ms[ik_humanoid_limb_foot(l)]), ik_mat4_translation(&model_ms[l->toe]));
    ik_real rise = ik_vec3_dot(d, up);
    return IK_ATAN2(rise, ik_vec3_length(ik_vec3_reject(d, up)));
}

static ik_real toe_pitch(const ik_retarget *job, const layout *l, const ik_foot_contact *c, ik_real *pitch) {
    const ik_humanoid *s = job->source_rig;
    int leg = ik_foot_point_leg(c->point), f, count = c->end - c->start + 1;
    ik_real rest;
    if (!ik_foot_point_is_toe(c->point) || s->limb[leg].toe < 0 || ik_humanoid_limb_foot(&s->limb[leg]) < 0) return 0;
    ik_skeleton_fk(s->skeleton, s->skeleton->rest_ls, NULL, l->source_ms);
    rest = foot_pitch(s, leg, l->source_ms, s->up_rs);
    for (f = c->start; f <= c->end; ++f) {
        ik_skeleton_fk(s->skeleton, ik_take_pose(job->source, f), NULL, l->source_ms);
        pitch[f - c->start] = foot_pitch(s, leg, l->source_ms, s->up_rs);
    }
    qsort(pitch, (size_t)count, sizeof *pitch, compare_real);
    return pitch[count / 2] - rest;
}

/* A point planted this far (in source leg lengths) over its floor level
 * stands on something raised (a step, a box): smaller rises are the
 * capture's own scatter (131_01's toe contacts lie 0.755 to 1.23 units,
 * 3 % of a leg, over their level on a flat floor). */
#define RAISED_GROUND (ik_real)0.05

/* Each source contact on the target: the planted point mapped. A flat foot
 * on a flat floor stands its point at the point's rest height; on raised
 * ground, or on the balls of the feet (toe_pitch over ON_TOES: the toe
 * joint stands as high as the bent toes hold it), the rise over its floor
 * level r = h_s - level_s[p] is scaled:
 *   h_t = height_t[p] + (r > RAISED_GROUND leg_s or on toes ? scale max(0, r) : 0),
 * so that every contact on a flat floor stands its sole on that floor (the
 * scatter scaled left the lowest contacts 5-9 mm under the others, a sink
 * to an outside reader). Along the floor the point keeps its place from
 * its own leg's hip in the contact's middle frame f, scaled:
 *   x = hip_t(f) + scale C (x_s - hip_s(f)),
 * hip_t from the transferred take, so that a target whose hips are wider
 * or narrower than the source's, in leg lengths, stands on legs at the
 * source's angles (measured from the rigs' middles, male_base_mesh.glb's
 * thighs stood 10 degrees more upright than CMU's on the same stance).
 * A toe contact on a target ankle without a toe joint holds its ball (a
 * virtual toe: ik_foot_point_position; none on a virtual ankle), unless
 * the source knelt on it (toe_pitch over KNEELING). Uses the source
 * contacts' scratch (done with). */
static int map_contacts(const ik_retarget *job, const layout *l, const body_map *m, int found) {
    const ik_humanoid *t = job->target_rig;
    ik_real raised = RAISED_GROUND * ik_foot_leg_length(job->source_rig);
    int i, n = 0;
    for (i = 0; i < found; ++i) {
        ik_foot_contact c = l->found[i];
        ik_vec3 x;
        ik_real rise = ik_vec3_dot(c.planted_ms, m->up_s) - m->level_s[c.point], h = m->height_t[c.point];
        int k = ik_foot_point_leg(c.point), middle = (c.start + c.end) / 2;
        ik_bool virtual_toe = ik_foot_point_is_toe(c.point) && t->limb[k].toe < 0;
        ik_real pitch = rise > 0 || virtual_toe ? toe_pitch(job, l, &c, l->contact_scratch) : 0;
        if (!ik_foot_point_position(t, c.point, NULL, NULL) || (virtual_toe && pitch > KNEELING)) continue;
        if (rise > raised || (rise > 0 && pitch > ON_TOES)) h += m->scale * rise;
        x = ik_vec3_add(
            hip_at(t, job->target, k, middle, l->target_ms),
            ik_vec3_scale(
                map_vector(m, ik_vec3_sub(c.planted_ms, hip_at(job->source_rig, job->source, k, middle, l->source_ms))),
                m->scale));
        c.planted_ms = ik_vec3_mad(x, m->up_t, h - ik_vec3_dot(x, m->up_t));
        l->held[n++] = c;
    }
    return n;
}

/* ---- the frames ---------------------------------------------------------------------- */

/* A bone direction d kept within `limit` of the bone above's direction
 * `above` (an elbow's or knee's bend limit): past it, d is turned back
 * toward `above` in their plane. */
static ik_vec3 within_bend(ik_vec3 above, ik_vec3 d, ik_real limit) {
    ik_vec3 axis = ik_vec3_cross(above, d);
    ik_real angle = ik_acos_safe(ik_vec3_dot(above, d));
    if (angle <= limit || !(ik_vec3_length_sq(axis) > 0)) return d;
    return ik_quat_rotate(ik_quat_from_axis_angle(ik_vec3_normalize(axis), limit), above);
}

/* The limb whose middle joint (forearm, shin) `joint` is, or -1. */
static int limb_of_mid(const ik_humanoid *t, int joint) {
    int k;
    for (k = 0; k < IK_LIMB_COUNT; ++k)
        if (t->limb[k].mid == joint) return k;
    return -1;
}

/* A middle joint's hinge onto its bend: with u, v the upper and lower bone
 * directions and h the hinge in model space (sgn(det M) M hinge_axis_ls,
 * across v), the joint rolls about its own bone v by the angle taking h
 * onto n = u x v, atan2(v . (h x n), h . n), so it bends about its hinge
 * as a hinge does; the bone's direction and the joints below it stay where
 * they are. The twist carried from the source's rest-relative turn leaves
 * the hinge anywhere round the bone when the two rests differ (a rig
 * resting with an elbow bent, girl.glb's right arm, against a straight
 * one): rolling only where it lay against the bend (h . n < 0) flipped a
 * forearm 90 to 180 degrees in one frame as h . n crossed zero (girl.glb's
 * right forearm at 131_01's frames 237 and 755, 190 rad/s). The roll is
 * eased in between 5 and 15 degrees of bend (s = smoothstep), where n
 * turns fast and a near-straight limb shows no hinge. */
static void roll_onto_hinge(const ik_humanoid *t, int k, ik_vec3 v, ik_quat *world, ik_mat4 *model_ms) {
    const ik_humanoid_limb *limb = &t->limb[k];
    ik_vec3 u = ik_vec3_normalize(
        ik_vec3_sub(ik_mat4_translation(&model_ms[limb->mid]), ik_mat4_translation(&model_ms[limb->start])));
    ik_vec3 n = ik_vec3_cross(u, v);
    ik_vec3 h = ik_vec3_reject(ik_mat4_transform_turn_axis(&model_ms[limb->mid], limb->hinge_axis_ls), v);
    ik_real bend = IK_ATAN2(ik_vec3_length(n), ik_vec3_dot(u, v));
    ik_real ease = ik_clampr((bend - ik_rad(5)) / ik_rad(10), 0, 1);
    if (!(ease > 0) || !(ik_vec3_length_sq(h) > 0)) return;
    ease = ease * ease * (3 - 2 * ease);
    *world = ik_quat_normalize(ik_quat_mul(
        ik_quat_from_axis_angle(v, ease * IK_ATAN2(ik_vec3_dot(v, ik_vec3_cross(h, n)), ik_vec3_dot(h, n))), *world));
}

/* One frame: paired joints take R_t = A q_turn R_s K_j (local: the parent's
 * root-space rotation undone, through the mirror of a mirrored parent:
 * ik_skeleton_rotation_ls; A the trunk aims above j, carried), the others
 * their rest; a limb or trunk bone (thigh, shin, upper arm, forearm; spine,
 * chest, neck) is then swung by the shortest turn that points it where its
 * partner points, mapped (so a rig whose rest bends a knee, lowers the arms
 * or leans the trunk still follows the take; the twist about the bone stays
 * the rest-relative one). The hips go to the
 * mapped source hips. Target forward kinematics follows joint by joint.
 * A virtual ankle's control joint (the foot's mesh) turns as the source's
 * foot and stands at the virtual ankle. */
static void transfer_frame(const ik_retarget *job, const layout *l, const body_map *m, int f) {
    const ik_skeleton *s = job->source_rig->skeleton, *t = job->target_rig->skeleton;
    int hips_s = job->source_rig->map.joint[IK_ROLE_HIPS], hips_t = job->target_rig->map.joint[IK_ROLE_HIPS];
    ik_transform *pose = ik_take_pose(job->target, f);
    int j;
    ik_skeleton_fk(s, ik_take_pose(job->source, f), NULL, l->source_ms);
    for (j = 0; j < t->joint_count; ++j) {
        int parent = t->parents[j], partner = l->source_of[j];
        ik_quat above = parent >= 0 ? l->world[parent] : ik_quat_identity();
        l->carried[j] = parent >= 0 ? l->carried[parent] : ik_quat_identity();
        pose[j] = t->rest_ls[j];
        if (partner >= 0) {
            ik_quat w = ik_quat_normalize(
                ik_quat_mul(l->carried[j],
                            ik_quat_mul(ik_quat_mul(m->turn, ik_mat4_rotation(&l->source_ms[partner])), l->offset[j])));
            if (l->tip[j] >= 0) {
                ik_vec3 d = ik_vec3_normalize(map_vector(m, ik_vec3_sub(ik_mat4_translation(&l->source_ms[l->tip[j]]),
                                                                        ik_mat4_translation(&l->source_ms[partner]))));
                int k = limb_of_mid(job->target_rig, j), upper = k >= 0 ? job->target_rig->limb[k].start : -1;
                if (k >= 0 && l->tip[upper] >= 0)
                    d = within_bend(
                        ik_quat_rotate(l->world[upper], l->tip_ls[upper]), d,
                        k <= IK_LIMB_ARM_R ? job->target_rig->limits.elbow_max : job->target_rig->limits.knee_max);
                ik_quat aim = ik_quat_from_to(ik_quat_rotate(w, l->tip_ls[j]), d);
                w = ik_quat_mul(aim, w);
                if (l->carries[j]) l->carried[j] = ik_quat_normalize(ik_quat_mul(aim, l->carried[j]));
                if (k >= 0) {
                    l->world[j] = ik_quat_normalize(w);
                    pose[j].rotation = ik_quat_normalize(
                        ik_skeleton_rotation_ls(above, l->parent_mirrored[j], l->world[j], pose[j].scale));
                    ik_skeleton_fk_joint(t, j, pose, NULL, l->target_ms);
                    roll_onto_hinge(job->target_rig, k, d, &w, l->target_ms);
                }
            }
            l->world[j] = ik_quat_normalize(w);
            pose[j].rotation =
                ik_quat_normalize(ik_skeleton_rotation_ls(above, l->parent_mirrored[j], l->world[j], pose[j].scale));
        } else {
            l->world[j] = ik_quat_normalize(
                ik_skeleton_rotation_ms(above, l->parent_mirrored[j], pose[j].rotation, pose[j].scale));
        }
        if (j == hips_t) {
            ik_mat4 inv = ik_mat4_identity();
            ik_vec3 x = map_point(m, ik_mat4_translation(&l->source_ms[hips_s]));
            if (parent < 0 || ik_mat4_inverse(&l->target_ms[parent], &inv))
                pose[j].translation = ik_mat4_transform_point(&inv, x);
        }
        ik_skeleton_fk_joint(t, j, pose, NULL, l->target_ms);
    }
    for (j = IK_LIMB_LEG_L; j <= IK_LIMB_LEG_R; ++j)
        ik_humanoid_carry_end_control(job->target_rig, j, pose, l->target_ms, NULL);
}

/* Frame f inside the rig's limits (ik_feet_within_limits), each leg's
 * heel lift noted in l->lifted. */
static void keep_within_limits(const ik_retarget *job, const layout *l, const body_map *m, int held, int f) {
    ik_bool lifted[2];
    ik_feet_within_limits(&m->limits, l->held, held, f, ik_take_pose(job->target, f), l->target_ms, lifted);
    l->lifted[2 * (size_t)f] = (unsigned char)lifted[0];
    l->lifted[2 * (size_t)f + 1] = (unsigned char)lifted[1];
}

/* Which frames of contact c a list keeps (cut_contacts). */
typedef ik_bool (*frame_kept)(const ik_retarget *job, const layout *l, const ik_foot_contact *c, int f);

/* Each contact of `list` cut into its runs of frames that `kept` keeps
 * (none where it keeps no frame). Runs of one point stay disjoint and a
 * frame apart, so the list fits the capacity contacts found on the source
 * have (contact_capacity); rebuilt in l->found's room (free between a
 * result's measure and the next pass), put back in order of start
 * (insertion: only pieces of a cut contact are out of place), then copied
 * back. Returns the new count. */
static int cut_contacts(const ik_retarget *job, const layout *l, ik_foot_contact *list, int count, frame_kept kept) {
    int i, f, n = 0;
    for (i = 0; i < count; ++i) {
        ik_foot_contact c = list[i];
        int start = -1;
        for (f = c.start; f <= c.end + 1; ++f) {
            ik_bool keep = f <= c.end && kept(job, l, &c, f);
            if (keep && start < 0) start = f;
            if (!keep && start >= 0) {
                l->found[n] = c;
                l->found[n].start = start;
                l->found[n++].end = f - 1;
                start = -1;
            }
        }
    }
    for (i = 1; i < n; ++i) {
        ik_foot_contact c = l->found[i];
        for (f = i; f > 0 && l->found[f - 1].start > c.start; --f) l->found[f] = l->found[f - 1];
        l->found[f] = c;
    }
    memcpy(list, l->found, (size_t)n * sizeof *l->found);
    return n;
}

/* A lifted heel has left its spot, so its contact is held only over the
 * frames where it stayed down (l->lifted); toes are held throughout. */
static ik_bool heel_down(const ik_retarget *job, const layout *l, const ik_foot_contact *c, int f) {
    (void)job;
    return ik_foot_point_is_toe(c->point) ||
           !l->lifted[2 * (size_t)f + (size_t)(ik_foot_point_leg(c->point) - IK_LIMB_LEG_L)];
}

/* Hands to the source's hands, mapped: the humanoid solve with arm goals
 * only (elbows on their natural side, the hands keeping their turn). Only
 * the arms' chains are needed before the solve (the source's limb ends,
 * the target's hands), which runs the target's whole forward kinematics
 * itself. */
static ik_result hold_hands(const ik_retarget *job, const layout *l, const body_map *m, int f) {
    const ik_humanoid *s = job->source_rig, *t = job->target_rig;
    ik_humanoid_solve solve = ik_humanoid_solve_def();
    int k;
    for (k = IK_LIMB_ARM_L; k <= IK_LIMB_ARM_R; ++k) {
        ik_humanoid_goal *g = &solve.goal[k];
        const ik_humanoid_limb *source_arm = &s->limb[k];
        g->enabled = 1;
        fk_ancestors(s->skeleton, source_arm->end >= 0 ? source_arm->end : source_arm->mid,
                     ik_take_pose(job->source, f), l->source_ms);
        {
            ik_mat4 end_ms = ik_humanoid_limb_end_ms(source_arm, l->source_ms);
            g->position_ms = map_point(m, ik_mat4_translation(&end_ms));
        }
        if (t->limb[k].end >= 0) {
            fk_ancestors(t->skeleton, t->limb[k].end, ik_take_pose(job->target, f), l->target_ms);
            g->use_rotation = 1;
            g->rotation_ms = ik_quat_normalize(ik_mat4_rotation(&l->target_ms[t->limb[k].end]));
        }
    }
    solve.rig = t;
    solve.pose_ls = ik_take_pose(job->target, f);
    solve.model_ms = l->target_ms;
    return ik_humanoid_solve_run(&solve);
}

/* The footskate pass over the mapped contacts; each contact's planted
 * position becomes where the pass holds it (moved into reach). */
static ik_result hold_feet(const ik_retarget *job, const layout *l, int held) {
    ik_footskate fs = ik_footskate_def();
    ik_result r;
    int i;
    fs.rig = job->target_rig;
    fs.take = job->target;
    fs.contacts = l->held;
    fs.contact_count = held;
    fs.blend_time = job->blend_time;
    fs.scratch = l->footskate;
    fs.scratch_bytes = l->footskate_bytes;
    fs.model_ms = l->target_ms;
    r = ik_footskate_run(&fs);
    /* contact i's held spot reads its own planted position only: each can be
     * replaced in turn, once the frames are done */
    for (i = 0; r == IK_OK && i < held; ++i) r = ik_footskate_held_ms(&fs, i, &l->held[i].planted_ms);
    return r;
}

/* The result's own contacts that slide joined to `list` [*count]
 * (ik_stance_join; join 0: only measured); *worst their worst slide,
 * *beyond the sum of their slides past a millimetre. Returns how many
 * joined. */
static int join_stances(const ik_retarget *job, const layout *l, ik_foot_contact *list, int *count, ik_bool join,
                        ik_real *worst, ik_real *beyond) {
    ik_stance_join sj = ik_stance_join_def();
    int joined = 0;
    sj.rig = job->target_rig;
    sj.take = job->target;
    sj.metre = job->ground_metre > 0 ? job->ground_metre : ik_foot_metre(ik_foot_leg_length(job->target_rig));
    sj.tolerance = (ik_real)0.001 * ik_foot_metre(ik_foot_leg_length(job->target_rig));
    sj.join = join;
    sj.contacts = list;
    sj.count = count;
    sj.capacity = contact_capacity(job->target->frame_count);
    sj.scratch = l->stance_join;
    sj.scratch_bytes = l->stance_join_bytes;
    sj.worst = worst;
    sj.beyond = beyond;
    sj.joined = &joined;
    *worst = *beyond = 0;
    return ik_stance_join_run(&sj) == IK_OK ? joined : 0;
}

/* Virtual toes (ik_foot_point_position) that held a toe-less foot past
 * the rig's limits are not held within the footskate's easing
 * (blend_time) of a frame where some round's result went past them
 * (l->overbent: a ball held beside the heel through 131_01's kneel played
 * backwards bent girl.glb's ankle 57 degrees past its limit); every other
 * contact keeps its frames. */
static ik_bool clear_of_overbent(const ik_retarget *job, const layout *l, const ik_foot_contact *c, int f) {
    int g, ease = (int)(job->blend_time / job->target->frame_time);
    if (!ik_foot_point_is_toe(c->point) || job->target_rig->limb[ik_foot_point_leg(c->point)].toe >= 0) return 1;
    for (g = f - ease < 0 ? 0 : f - ease; g <= f + ease && g < job->target->frame_count; ++g)
        if (l->overbent[g]) return 0;
    return 1;
}

/* A result slides less than the best so far: its worst contact by over
 * `tolerance` less, or within it and less in all (the sums past a
 * millimetre), so that a round holding one contact better while the worst
 * stays counts. */
static ik_bool slides_less(ik_real worst, ik_real beyond, ik_real best, ik_real best_beyond, ik_real tolerance) {
    return worst < best - tolerance || (worst <= best + tolerance && beyond < best_beyond);
}

static ik_result validate(const ik_retarget *job) {
    const ik_take *src = job->source, *dst = job->target;
    int bad;
    if (job->defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    if (!job->source_rig || !job->source_rig->skeleton || !job->target_rig || !job->target_rig->skeleton || !src ||
        !dst || !src->poses_ls || !dst->poses_ls || !job->scratch || (job->extra_pair_count > 0 && !job->extra_pairs) ||
        (job->target_contacts && !job->contact_count))
        return IK_ERR_NULL;
    if (src->joint_count != job->source_rig->skeleton->joint_count ||
        dst->joint_count != job->target_rig->skeleton->joint_count || src->frame_count < 2 ||
        dst->frame_count != src->frame_count || job->extra_pair_count < 0 || job->contact_capacity < 0 ||
        job->plant_rounds < 0)
        return IK_ERR_RANGE;
    if (job->scratch_bytes < ik_retarget_scratch_size(src->frame_count, src->joint_count, dst->joint_count))
        return IK_ERR_CAPACITY;
    if (!ik_finite(dst->frame_time) || !ik_finite(job->blend_time) || !ik_finite(job->ground_metre))
        return IK_ERR_NONFINITE;
    if (job->ground_metre < 0) return IK_ERR_DEGENERATE;
    if (!(dst->frame_time > 0) || job->blend_time < 0) return IK_ERR_DEGENERATE;
    if (ik_take_validate(src, &bad) != IK_OK) return IK_ERR_NONFINITE;
    if (!(ik_foot_leg_length(job->source_rig) > 0) || !(ik_foot_leg_length(job->target_rig) > 0))
        return IK_ERR_DEGENERATE;
    if (job->hold_feet && (ik_humanoid_limb_foot(&job->target_rig->limb[IK_LIMB_LEG_L]) < 0 ||
                           ik_humanoid_limb_foot(&job->target_rig->limb[IK_LIMB_LEG_R]) < 0))
        return IK_ERR_UNSUPPORTED;
    return IK_OK;
}

/* The IK pass from the transfer, holding `count` contacts of `list`
 * (copied into the held list): transfer, feet held, limits, heels held
 * only where they stayed down. */
static ik_result hold_feet_again(const ik_retarget *job, const layout *l, const body_map *m,
                                 const ik_foot_contact *list, int count, int *held) {
    int f;
    ik_result r;
    memcpy(l->held, list, (size_t)count * sizeof *list);
    *held = count;
    for (f = 0; f < job->source->frame_count; ++f) transfer_frame(job, l, m, f);
    r = hold_feet(job, l, *held);
    for (f = 0; r == IK_OK && f < job->source->frame_count; ++f) keep_within_limits(job, l, m, *held, f);
    if (r == IK_OK) *held = cut_contacts(job, l, l->held, *held, heel_down);
    return r;
}

/* The rounds' result cleaned as `ikc clean` cleans a take (ik_stance_clean
 * on the result's own contacts, ik_foot_contacts, then rounds of its
 * sliding contacts joined, each pass from the result, not from the
 * transfer: there a toe-less foot's ball held beside its heel bent
 * girl.glb's ankle past its limit through 131_01's kneel played backwards,
 * and no round could hold the 12.6 mm it slid). Kept when it slides less
 * (worst, the rounds' own measure) and stays within `allowed` of the
 * limits; else the rounds' best list is held again from the transfer.
 * The contacts held end in l->held. */
static ik_result clean_result(const ik_retarget *job, const layout *l, const body_map *m, const ik_foot_contact *best,
                              int best_count, ik_real worst, ik_real allowed, int *held) {
    const ik_humanoid *t = job->target_rig;
    ik_stance_clean sc = ik_stance_clean_def();
    ik_stance_clean_report report;
    ik_real levels[IK_FOOT_CONTACT_POINTS], slid = 0, beyond;
    int count = 0, f;
    ik_result r = find_contacts(job, l, t, job->target, l->target_ms, levels, &count);
    if (r == IK_OK) {
        memcpy(l->held, l->found, (size_t)count * sizeof *l->found);
        sc.rig = t;
        sc.take = job->target;
        sc.contacts = l->held;
        sc.count = &count;
        sc.capacity = contact_capacity(job->target->frame_count);
        sc.leg_length = ik_foot_leg_length(t);
        sc.metre = job->ground_metre > 0 ? job->ground_metre : ik_foot_metre(sc.leg_length);
        sc.rounds = job->plant_rounds;
        sc.levels = levels;
        sc.blend_time = job->blend_time;
        sc.scratch = l->stance_clean;
        sc.scratch_bytes = l->stance_clean_bytes;
        sc.report = &report;
        r = ik_stance_clean_run(&sc);
    }
    /* the rig's limits kept as after every pass, then the result measured again */
    for (f = 0; r == IK_OK && f < job->target->frame_count; ++f) keep_within_limits(job, l, m, count, f);
    if (r == IK_OK) join_stances(job, l, l->held, &count, 0, &slid, &beyond);
    if (r == IK_OK && slid < worst &&
        ik_take_limits_excess(t, job->target, l->target_ms, l->rest_ms, NULL) <= allowed) {
        *held = cut_contacts(job, l, l->held, count, heel_down);
        return IK_OK;
    }
    return hold_feet_again(job, l, m, best, best_count, held);
}

ik_result ik_retarget_run(const ik_retarget *job) {
    const ik_humanoid *s, *t;
    ik_retarget_report report;
    layout l;
    body_map m;
    char *base;
    int paired = 0, found = 0, held = 0, intended = 0, f, j;
    ik_result r = job ? validate(job) : IK_ERR_NULL;
    if (r != IK_OK) return r;
    s = job->source_rig;
    t = job->target_rig;
    base = scratch_base(job->scratch);
    make_layout(job->source->frame_count, s->skeleton->joint_count, t->skeleton->joint_count, base, &l);
    memset(&report, 0, sizeof report);
    report.source_leg = ik_foot_leg_length(s);
    report.target_leg = ik_foot_leg_length(t);
    report.scale = report.target_leg / report.source_leg;
    m.scale = report.scale;
    m.up_s = s->up_rs;
    m.up_t = t->up_rs;
    r = pair_joints(job, &l, &paired);
    report.paired_joints = paired;
    if (r == IK_OK) r = find_contacts(job, &l, s, job->source, l.source_ms, m.level_s, &found);
    report.source_contacts = found;
    if (job->report) *job->report = report;
    if (r != IK_OK) return r;
    if (job->hold_feet && found == 0) return IK_ERR_NOT_FOUND;

    /* rest poses: the target's in target_ms (kept through make_origins),
     * the source's in source_ms */
    make_turn(&m, s, t);
    ik_skeleton_fk(t->skeleton, t->skeleton->rest_ls, NULL, l.target_ms);
    make_origins(&m, job, &l, l.target_ms);
    make_offsets(&m, &l, s, t, l.source_ms, l.target_ms);
    for (j = 0; j < t->skeleton->joint_count; ++j)
        l.parent_mirrored[j] = t->skeleton->parents[j] >= 0 && ik_mat4_det3(&l.target_ms[t->skeleton->parents[j]]) < 0;

    for (f = 0; f < job->source->frame_count; ++f) transfer_frame(job, &l, &m, f);
    /* the IK pass on the source's contacts, mapped onto the transferred take */
    if (job->hold_feet) {
        intended = map_contacts(job, &l, &m, found);
        memcpy(l.intended, l.held, (size_t)intended * sizeof *l.held);
        r = hold_feet_again(job, &l, &m, l.intended, intended, &held);
    }
    /* whole stances: the result's own contacts that slide join the source's
     * (as mapped), and the IK pass runs again from the transfer on them; the
     * round whose result slides least (slides_less), and passes the rig's
     * limits by no more than the first, is the one kept; a pass that goes
     * further is not a round, and virtual toes are not held again near
     * where it did (clear_of_overbent). Each result is measured once: the
     * join that starts the next pass measures it first (the list that made
     * it is kept in l.found, free between passes). */
    if (r == IK_OK && job->hold_feet && job->plant_rounds > 0) {
        ik_real worst, beyond, best = 0, best_beyond = 0, allowed = 0, bent;
        ik_real tolerance = (ik_real)0.001 * ik_foot_metre(ik_foot_leg_length(t));
        int best_count = intended, made_count, best_pass = 0, now = 0, joined, pass, rounds = 0;
        for (pass = 0;; ++pass) {
            ik_bool last = rounds == job->plant_rounds || pass == 2 * job->plant_rounds;
            made_count = intended;
            memcpy(l.found, l.intended, (size_t)intended * sizeof *l.intended);
            joined = join_stances(job, &l, l.intended, &intended, !last, &worst, &beyond);
            /* each frame's excess into the contacts' scratch, free once they are mapped */
            bent = ik_take_limits_excess(t, job->target, l.target_ms, l.rest_ms, l.contact_scratch);
            if (pass == 0) allowed = bent + ik_rad(1);
            for (f = 0; f < job->target->frame_count; ++f)
                l.overbent[f] = (unsigned char)((pass > 0 && l.overbent[f]) || l.contact_scratch[f] > allowed);
            if (bent <= allowed) {
                if (pass == 0 || slides_less(worst, beyond, best, best_beyond, tolerance)) {
                    best = worst, best_beyond = beyond, best_pass = pass, best_count = made_count;
                    memcpy(l.best, l.found, (size_t)made_count * sizeof *l.found);
                }
                rounds += pass > 0;
            }
            intended = cut_contacts(job, &l, l.intended, intended, clear_of_overbent);
            if (last || !(worst > tolerance) || joined == 0) break;
            r = hold_feet_again(job, &l, &m, l.intended, intended, &held);
            now = pass + 1;
            if (r != IK_OK) break;
        }
        if (r == IK_OK && best_pass != now) r = hold_feet_again(job, &l, &m, l.best, best_count, &held);
        if (r == IK_OK && best > tolerance) r = clean_result(job, &l, &m, l.best, best_count, best, allowed, &held);
    }
    for (f = 0; r == IK_OK && job->hold_hands && f < job->source->frame_count; ++f) r = hold_hands(job, &l, &m, f);
    if (r != IK_OK) return r;
    if (job->target_contacts) {
        *job->contact_count = held;
        if (held > job->contact_capacity) return IK_ERR_CAPACITY;
        memcpy(job->target_contacts, l.held, (size_t)held * sizeof *l.held);
    }
    return IK_OK;
}

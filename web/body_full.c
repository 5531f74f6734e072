/* The page's full-body mode: the humanoid's whole body follows the dragged
 * hands, feet and head (ik_full_body_run, rig layer; docs/humanoid.md,
 * "Full-body IK"). Each frame the job starts from the last frame's result
 * (the warm start) and is pulled toward the reference: the figure's own pose
 * (rest or animation) as the per-limb solve stands it on the ground, with
 * no goals. The feet are pinned where the reference has them (position and
 * turn), so they stay put on the ground while the body leans, and with
 * balance on they are the support the centre of mass is kept over. A foot
 * the user drags is pinned at its target while that stays on the ground
 * (within IKW_FULL_LIFT leg lengths above where the foot stood); dragged
 * higher it is lifted: it reaches for the target and the body balances on
 * the other foot. */
#include <string.h>

#include "body_full.h"

enum { IKW_FULL_SCRATCH_BYTES = IKW_FULL_MAX_JOINTS * 8 };
/* A dragged foot more than this many leg lengths above where the figure
 * stands it is lifted (about 4.5 cm on the built-in figure). */
#define IKW_FULL_LIFT ((ik_real)0.05)

static struct {
    const ik_humanoid *rig; /* the figure the mass model and the warm start are of */
    ik_bool has_mass;
    ik_body_mass mass;
    ik_bool warm; /* warm_ls holds the last result for `rig` */
    ik_transform warm_ls[IKW_FULL_MAX_JOINTS];
    ik_transform reference_ls[IKW_FULL_MAX_JOINTS];
    union {
        ik_real align;
        unsigned char bytes[IKW_FULL_SCRATCH_BYTES];
    } scratch;
    ik_full_body job; /* the last run's (its report's words need it) */
    ik_full_body_report report;
    ik_bool solved;
    float balance[IKW_BALANCE_FLOATS];
    char summary[512];
} full;

ik_result ikw_full_figure(const ik_humanoid *rig) {
    ik_result r = IK_OK;
    full.rig = rig;
    full.warm = 0;
    full.solved = 0;
    full.summary[0] = '\0';
    memset(full.balance, 0, sizeof full.balance);
    full.has_mass = 0;
    if (!rig) return IK_OK;
    if (rig->skeleton->joint_count > IKW_FULL_MAX_JOINTS) return IK_ERR_CAPACITY;
    r = ik_body_mass_init(&full.mass, rig, IK_BODY_MASS_MALE, 75);
    full.has_mass = r == IK_OK;
    return r;
}

void ikw_full_forget(void) { full.warm = 0; }
ik_bool ikw_full_can_balance(void) { return full.has_mass; }

/* The page's numbers of the report (see body_full.h). */
static void store_report(void) {
    const ik_full_body_report *rep = &full.report;
    float *f = full.balance;
    int k;
    memset(f, 0, sizeof full.balance);
    f[0] = (float)rep->balance;
    f[1] = (float)rep->support_distance;
    f[2] = (float)rep->iterations;
    f[3] = (float)rep->centre_of_mass_ms.x, f[4] = (float)rep->centre_of_mass_ms.y;
    f[5] = (float)rep->centre_of_mass_ms.z;
    f[6] = (float)rep->support_count;
    for (k = 0; k < rep->support_count && k < IK_FULL_BODY_MAX_SUPPORT; ++k) {
        f[7 + 3 * k] = (float)rep->support_ms[k].x;
        f[8 + 3 * k] = (float)rep->support_ms[k].y;
        f[9 + 3 * k] = (float)rep->support_ms[k].z;
    }
    ik_full_body_report_describe(&full.job, rep, full.summary, sizeof full.summary);
}

ik_result ikw_full_solve(const ik_humanoid *rig, ik_transform *pose_ls, ik_mat4 *model_ms, const ik_mat4 *root_ms,
                         const ikw_full_goals *goals) {
    ik_full_body job = ik_full_body_def();
    const ik_skeleton *s = rig ? rig->skeleton : NULL;
    ik_vec3 up_ms;
    ik_real leg_ms;
    int i, n;
    ik_result r;
    if (!rig || !goals) return IK_ERR_NULL;
    if (rig != full.rig) return IK_ERR_UNSUPPORTED; /* ikw_full_figure was not told of this figure */
    n = s->joint_count;
    if (goals->balance && !full.has_mass) return IK_ERR_UNSUPPORTED;
    /* The reference's feet, where the pins hold them; up and a leg's length in model space. */
    ik_skeleton_fk(s, pose_ls, root_ms, model_ms);
    up_ms = ik_vec3_normalize_or(root_ms ? ik_mat4_transform_vector(root_ms, rig->up_rs) : rig->up_rs, rig->up_rs);
    {
        const ik_humanoid_limb *l = &rig->limb[IK_LIMB_LEG_L];
        ik_vec3 hip = ik_mat4_translation(&model_ms[l->start]), knee = ik_mat4_translation(&model_ms[l->mid]);
        ik_mat4 ankle = ik_humanoid_limb_end_ms(l, model_ms);
        leg_ms = ik_vec3_distance(hip, knee) + ik_vec3_distance(knee, ik_mat4_translation(&ankle));
    }
    memcpy(full.reference_ls, pose_ls, sizeof *pose_ls * (size_t)n);
    for (i = 0; i <= IK_FB_HEAD; ++i) {
        ik_full_body_effector *e = &job.effector[i];
        e->enabled = goals->enabled[i];
        e->position_ms = goals->position_ms[i];
        if (i == IK_FB_FOOT_L || i == IK_FB_FOOT_R) {
            const ik_humanoid_limb *l = &rig->limb[IK_LIMB_LEG_L + (i - IK_FB_FOOT_L)];
            ik_mat4 end = ik_humanoid_limb_end_ms(l, model_ms);
            ik_vec3 stood = ik_mat4_translation(&end);
            /* a foot dragged up off the ground steps: it reaches and stops being a support */
            e->pinned = !e->enabled || ik_vec3_dot(ik_vec3_sub(e->position_ms, stood), up_ms) <= IKW_FULL_LIFT * leg_ms;
            if (!e->enabled) e->position_ms = stood;
            e->enabled = 1;
            /* a foot joint keeps the reference's turn (a virtual ankle has none) */
            e->use_rotation = l->end >= 0;
            e->rotation_ms = ik_mat4_rotation(&end);
        }
    }
    if (full.warm) memcpy(pose_ls, full.warm_ls, sizeof *pose_ls * (size_t)n);
    job.rig = rig;
    job.mass = full.has_mass ? &full.mass : NULL;
    job.pose_ls = pose_ls;
    job.reference_ls = full.reference_ls;
    job.model_ms = model_ms;
    job.root_ms = root_ms;
    job.balance = goals->balance;
    job.scratch = full.scratch.bytes;
    job.scratch_bytes = sizeof full.scratch.bytes;
    job.report = &full.report;
    r = ik_full_body_run(&job);
    if (r != IK_OK) {
        /* nothing written by the job: the reference goes back, with its forward kinematics */
        memcpy(pose_ls, full.reference_ls, sizeof *pose_ls * (size_t)n);
        ik_skeleton_fk(s, pose_ls, root_ms, model_ms);
        return r;
    }
    full.job = job;
    full.job.report = &full.report;
    full.solved = 1;
    store_report();
    return IK_OK;
}

void ikw_full_keep(const ik_humanoid *rig, const ik_transform *pose_ls) {
    if (!rig || rig != full.rig) return;
    memcpy(full.warm_ls, pose_ls, sizeof *pose_ls * (size_t)rig->skeleton->joint_count);
    full.warm = 1;
}

const ik_full_body_report *ikw_full_report(void) { return full.solved ? &full.report : NULL; }
const float *ikw_full_balance(void) { return full.balance; }
const char *ikw_full_summary(void) { return full.summary; }

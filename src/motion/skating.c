/* Measuring foot skating and what a change to a take did elsewhere. */
#include <ikit/skating.h>

#include <string.h>

ik_skating_measure ik_skating_measure_def(void) {
    ik_skating_measure job;
    memset(&job, 0, sizeof job);
    job.up_ms = ik_v3(0, 1, 0);
    job.defaulted = IK_JOB_DEFAULTED;
    return job;
}

static ik_result validate(const ik_skating_measure *job) {
    int i, n, last_end[IK_FOOT_CONTACT_POINTS] = {-1, -1, -1, -1};
    if (job->defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    if (!job->rig || !job->rig->skeleton || !job->take || !job->take->poses_ls || !job->model_ms || !job->out ||
        (job->contact_count > 0 && !job->contacts) ||
        (job->reference && (!job->reference_ms || !job->reference->poses_ls)))
        return IK_ERR_NULL;
    n = job->rig->skeleton->joint_count;
    if (job->take->joint_count != n || job->contact_count < 0 ||
        (job->reference && (job->reference->joint_count != n || job->reference->frame_count != job->take->frame_count)))
        return IK_ERR_RANGE;
    for (i = 0; i < job->contact_count; ++i) {
        const ik_foot_contact *c = &job->contacts[i];
        if (c->point < 0 || c->point >= IK_FOOT_CONTACT_POINTS || c->start < 0 || c->end < c->start ||
            c->end >= job->take->frame_count || c->start <= last_end[c->point])
            return IK_ERR_RANGE;
        last_end[c->point] = c->end;
    }
    if (!ik_vec3_finite(job->up_ms) || !ik_finite(job->slide_speed) || !ik_finite(job->take->frame_time))
        return IK_ERR_NONFINITE;
    if (!(job->slide_speed > 0) || ik_vec3_length_sq(job->up_ms) < (ik_real)1e-12 || !(job->take->frame_time > 0))
        return IK_ERR_DEGENERATE;
    return IK_OK;
}

/* A knee's bend: the angle between thigh (hip to knee) and shin (knee to
 * ankle), 0 when straight. */
static ik_real knee_bend(const ik_humanoid_limb *l, const ik_mat4 *model_ms) {
    ik_vec3 a = ik_mat4_translation(&model_ms[l->start]), b = ik_mat4_translation(&model_ms[l->mid]);
    ik_mat4 end_ms = ik_humanoid_limb_end_ms(l, model_ms);
    ik_vec3 c = ik_mat4_translation(&end_ms);
    return ik_acos_safe(ik_vec3_dot(ik_vec3_normalize(ik_vec3_sub(b, a)), ik_vec3_normalize(ik_vec3_sub(c, b))));
}

/* Whether joint j moves with a leg: below its thigh, or below a virtual
 * ankle's control joint (which the clean-up keeps at the ankle); legs [4]
 * scan those subtrees (thigh and control of the left leg, then the right),
 * asked for joints in increasing order. */
static ik_bool in_legs(const ik_skeleton *s, ik_subtree_scan *legs, int j) {
    int k;
    for (k = 0; k < 4; ++k)
        if (ik_subtree_scan_has(&legs[k], s, j)) return 1;
    return 0;
}

/* Compare frame f with the reference: joints outside both legs' subtrees
 * (their distance), the knees (bend lost) and, with previous_ms, every
 * joint's step since the frame before against the reference's step. */
static void compare_frame(const ik_skating_measure *job, int f, ik_skating *out) {
    const ik_humanoid *rig = job->rig;
    int j, k, n = rig->skeleton->joint_count;
    ik_subtree_scan legs[4];
    for (k = 0; k < 2; ++k) {
        ik_subtree_scan_begin(&legs[2 * k], rig->limb[IK_LIMB_LEG_L + k].start);
        ik_subtree_scan_begin(&legs[2 * k + 1], rig->limb[IK_LIMB_LEG_L + k].end_control);
    }
    for (j = 0; j < n; ++j) {
        ik_real d;
        if (job->previous_ms) {
            ik_vec3 now = ik_mat4_translation(&job->model_ms[j]), was = ik_mat4_translation(&job->reference_ms[j]);
            if (f > 0) {
                ik_real added =
                    ik_vec3_distance(ik_vec3_sub(now, job->previous_ms[j]), ik_vec3_sub(was, job->previous_ms[n + j])) /
                    job->take->frame_time;
                if (added > out->added_speed)
                    out->added_speed = added, out->added_speed_joint = j, out->added_speed_frame = f;
            }
            job->previous_ms[j] = now, job->previous_ms[n + j] = was;
        }
        if (in_legs(rig->skeleton, legs, j)) continue;
        d = ik_vec3_distance(ik_mat4_translation(&job->model_ms[j]), ik_mat4_translation(&job->reference_ms[j]));
        if (d > out->upper_change) out->upper_change = d, out->upper_change_joint = j;
    }
    for (k = IK_LIMB_LEG_L; k <= IK_LIMB_LEG_R; ++k) {
        const ik_humanoid_limb *l = &rig->limb[k];
        ik_real bend = knee_bend(l, job->model_ms), was = knee_bend(l, job->reference_ms);
        out->knee_straightening = ik_maxr(out->knee_straightening, was - bend);
        if (bend < ik_rad(2) && was > ik_rad(10)) ++out->knee_snaps;
    }
}

/* Travel: for each point in contact at frames f - 1 and f (the same
 * contact), the step between them across up, |d - (d.u) u|, is added to
 * that contact's travel; a step longer than slide_speed * frame_time is a
 * sliding one. */
ik_result ik_skating_measure_run(const ik_skating_measure *job) {
    ik_skating out;
    ik_vec3 up, prev[IK_FOOT_CONTACT_POINTS];
    ik_real travel[IK_FOOT_CONTACT_POINTS];
    int active[IK_FOOT_CONTACT_POINTS], cursor[IK_FOOT_CONTACT_POINTS], f, p;
    ik_result r;
    if (!job) return IK_ERR_NULL;
    r = validate(job);
    if (r != IK_OK) return r;
    memset(&out, 0, sizeof out);
    out.upper_change_joint = -1;
    out.added_speed_joint = out.added_speed_frame = -1;
    up = ik_vec3_normalize(job->up_ms);
    for (p = 0; p < IK_FOOT_CONTACT_POINTS; ++p) active[p] = -1, cursor[p] = 0, travel[p] = 0;
    for (f = 0; f < job->take->frame_count; ++f) {
        ik_skeleton_fk(job->rig->skeleton, ik_take_pose(job->take, f), job->root_ms, job->model_ms);
        if (job->reference) {
            ik_skeleton_fk(job->rig->skeleton, ik_take_pose(job->reference, f), job->root_ms, job->reference_ms);
            compare_frame(job, f, &out);
        }
        for (p = 0; p < IK_FOOT_CONTACT_POINTS; ++p) {
            int now, *c = &cursor[p];
            ik_vec3 at;
            /* the point's contacts come in order: the cursor only advances */
            while (*c < job->contact_count && (job->contacts[*c].point != p || job->contacts[*c].end < f)) ++*c;
            now = *c < job->contact_count && job->contacts[*c].start <= f ? *c : -1;
            if (now < 0 || !ik_foot_point_position(job->rig, p, job->model_ms, &at)) {
                active[p] = -1;
                continue;
            }
            if (now != active[p]) {
                travel[p] = 0;
            } else {
                ik_vec3 d = ik_vec3_reject(ik_vec3_sub(at, prev[p]), up);
                ik_real step = ik_vec3_length(d);
                travel[p] += step;
                out.travel += step;
                ++out.contact_frames;
                if (step > job->slide_speed * job->take->frame_time) ++out.sliding_frames;
                out.worst_travel = ik_maxr(out.worst_travel, travel[p]);
            }
            active[p] = now, prev[p] = at;
        }
    }
    if (!ik_finite(out.travel) || !ik_finite(out.upper_change) || !ik_finite(out.added_speed)) return IK_ERR_NONFINITE;
    *job->out = out;
    return IK_OK;
}

/* Retargeting the CMU takes onto every real glTF rig that maps as a
 * humanoid (robot.glb's legs end at virtual ankles, its feet IK control
 * joints) and onto variants of the targets (rescaled x0.01 and x100, turned
 * Z-up, mirrored) and of the sources (rescaled as if inches), checked by
 * forward kinematics of the output: planted feet within 1 cm over each
 * contact, soles never more than 1 cm below the floor, knees never bending
 * the wrong way, every joint within its limits (feet on the floor
 * included), the target's bone lengths kept,
 * feet on their ankles, finite; the footskate clean-up on robot.glb; an
 * A-pose rig playing the take's arms in the same directions; refusals (no
 * contacts, bad pairs). */
#include <ikit/asset.h>
#include <ikit/body_directions.h>
#include <ikit/footskate.h>
#include <ikit/retarget.h>
#include <ikit/skating.h>

#include "support/check.h"
#include "support/ground_check.h"
#include "support/motion_fixture.h"
#include "support/test_groups.h"

static const char *const takes[3] = {"131_01.bvh", "131_02.bvh", "01_01.bvh"};
static const char *const rigs[4] = {"girl.glb", "male_base_mesh.glb", "rigged_figure.glb", "robot.glb"};

/* A rig made from a skeleton with its rest changed: translations scaled
 * by `scale`, roots turned by `turn`, and with `mirror` every joint
 * reflected in x (translations x -> -x, rotations R -> S R S, S = diag(-1,
 * 1, 1): the rig's left-named limbs on its right, a left-handed body frame
 * with proper rotations). */
typedef struct rig_copy {
    ik_skeleton skeleton;
    ik_transform *rest_ls;
    ik_humanoid rig;
    int ok;
} rig_copy;

static void rig_copy_make(rig_copy *c, const ik_skeleton *from, ik_real scale, ik_quat turn, ik_bool mirror) {
    ik_humanoid_map map;
    int j;
    memset(c, 0, sizeof *c);
    c->rest_ls = (ik_transform *)malloc((size_t)from->joint_count * sizeof(ik_transform));
    for (j = 0; j < from->joint_count; ++j) {
        c->rest_ls[j] = from->rest_ls[j];
        c->rest_ls[j].translation = ik_vec3_scale(c->rest_ls[j].translation, scale);
        if (from->parents[j] < 0) {
            c->rest_ls[j].translation = ik_quat_rotate(turn, c->rest_ls[j].translation);
            c->rest_ls[j].rotation = ik_quat_mul(turn, c->rest_ls[j].rotation);
        }
        if (mirror) {
            c->rest_ls[j].translation.x = -c->rest_ls[j].translation.x;
            c->rest_ls[j].rotation.y = -c->rest_ls[j].rotation.y;
            c->rest_ls[j].rotation.z = -c->rest_ls[j].rotation.z;
        }
    }
    c->ok = ik_skeleton_init(&c->skeleton, from->joint_count, from->parents, from->names, c->rest_ls, NULL) == IK_OK &&
            ik_humanoid_map_find(&c->skeleton, NULL, 0, &map) == IK_OK &&
            ik_humanoid_init(&c->rig, &c->skeleton, &map) == IK_OK;
}

static void rig_copy_free(rig_copy *c) { free(c->rest_ls); }

/* The copy's frames from `joint` down mirrored, its geometry kept: the
 * joint's local transform takes S on the right (scale x -> -x) and every
 * joint below it is conjugated by S (translation x -> -x, rotation
 * R -> S R S), so M'_j = M_j S below and at `joint` (det M'_j < 0) and
 * every joint stays where it was. Applied to the roots of a mirrored copy
 * (M_j = S M0_j S) it gives M'_j = S M0_j: the rig's mirror image carried
 * by a negative scale on the root, every joint under a mirrored parent. */
static void rig_copy_mirror_frames(rig_copy *c, int joint) {
    ik_humanoid_map map;
    int j;
    c->rest_ls[joint].scale.x = -c->rest_ls[joint].scale.x;
    for (j = joint + 1; j < c->skeleton.joint_count; ++j) {
        if (!ik_skeleton_is_descendant(&c->skeleton, j, joint)) continue;
        c->rest_ls[j].translation.x = -c->rest_ls[j].translation.x;
        c->rest_ls[j].rotation.y = -c->rest_ls[j].rotation.y;
        c->rest_ls[j].rotation.z = -c->rest_ls[j].rotation.z;
    }
    c->ok = c->ok && ik_humanoid_map_find(&c->skeleton, NULL, 0, &map) == IK_OK &&
            ik_humanoid_init(&c->rig, &c->skeleton, &map) == IK_OK;
}

static int compare_real(const void *a, const void *b) {
    ik_real x = *(const ik_real *)a, y = *(const ik_real *)b;
    return x < y ? -1 : x > y;
}

/* The q-quantile of n values (sorted in place), nearest rank. */
static ik_real quantile(ik_real *v, int n, double q) {
    int at = (int)(q * (n - 1) + 0.5);
    qsort(v, (size_t)n, sizeof *v, compare_real);
    return n > 0 ? v[at] : 0;
}

typedef struct outcome {
    ik_real slide_before; /* THEN_CLEAN_UP: the worst contact's travel before the clean-up */
    ik_real worst_slide, worst_sink, worst_bone, worst_knee_wrong, worst_knee_bend, worst_elbow_bend, worst_foot_off;
    ik_real worst_limit; /* the largest excess over the rig's limits (ik_humanoid_angles_excess) */
    const char *worst_limit_joint;
    ik_real worst_foot_down; /* the same for the ankles and toes of feet held or on the floor (counted in
                                worst_limit too with the IK pass; left out of it after the clean-up alone) */
    int worst_limit_frame;
    int flips, nonfinite, contacts, unordered; /* unordered: contacts held not in order of start */
    ik_real ground_slide;                 /* the worst slide of the result's own contacts (ik_ground_slide), metres */
    ik_real direction[IK_BODY_GROUPS][2]; /* per group: the median and 95th percentile angle (rad) between the
                                           source's and the target's segment directions in the body frame */
    ik_retarget_report report;
    ik_result result;
} outcome;

/* The knee's signed bend about its hinge (positive: the way it bends). */
static ik_real signed_bend(const ik_humanoid_limb *l, const ik_mat4 *model_ms) {
    ik_vec3 a = ik_mat4_translation(&model_ms[l->start]), b = ik_mat4_translation(&model_ms[l->mid]);
    ik_mat4 end_ms = ik_humanoid_limb_end_ms(l, model_ms);
    ik_vec3 c = ik_mat4_translation(&end_ms);
    ik_vec3 u = ik_vec3_normalize(ik_vec3_sub(b, a)), v = ik_vec3_normalize(ik_vec3_sub(c, b));
    ik_vec3 h = ik_mat4_transform_turn_axis(&model_ms[l->mid], l->hinge_axis_ls);
    ik_real angle = ik_acos_safe(ik_vec3_dot(u, v));
    return ik_vec3_dot(ik_vec3_cross(u, v), ik_vec3_normalize(h)) < 0 ? -angle : angle;
}

/* The largest horizontal travel of a planted point over one of `contacts`
 * on `take` (ik_skating_measure), target units. */
static ik_result worst_travel(const ik_humanoid *target, const ik_take *take, const ik_foot_contact *contacts,
                              int count, ik_mat4 *ms, ik_real *travel) {
    ik_skating_measure measure = ik_skating_measure_def();
    ik_skating skating;
    ik_result r;
    measure.rig = target;
    measure.take = take;
    measure.contacts = contacts;
    measure.contact_count = count;
    measure.up_ms = target->up_rs;
    measure.slide_speed = (ik_real)0.02 * ik_foot_metre(ik_foot_leg_length(target));
    measure.model_ms = ms;
    measure.out = &skating;
    r = ik_skating_measure_run(&measure);
    *travel = skating.worst_travel;
    return r;
}

/* The retargeted take's own contacts (ik_foot_contacts on the target) held
 * by the footskate clean-up, in place: `ikc clean` on the output of a
 * retarget without the IK pass. */
static ik_result clean_up(const ik_humanoid *target, ik_take *take, ik_foot_contact *contacts, int capacity, int *count,
                          ik_mat4 *ms, ik_real *travel_before) {
    int joints[IK_FOOT_PATH_POINTS], p, frames = take->frame_count;
    ik_vec3 *paths = (ik_vec3 *)malloc((size_t)frames * IK_FOOT_PATH_POINTS * sizeof(ik_vec3));
    ik_real *scratch = (ik_real *)malloc(2 * (size_t)frames * sizeof(ik_real));
    ik_foot_contacts find = ik_foot_contacts_def();
    ik_footskate clean = ik_footskate_def();
    ik_result r;
    ik_foot_point_joints(target, joints);
    r = ik_foot_paths_record(target->skeleton, take, NULL, joints, ms, paths, NULL);
    find.paths_ms = paths;
    find.frame_count = frames;
    find.frame_time = take->frame_time;
    for (p = 0; p < IK_FOOT_CONTACT_POINTS; ++p) find.present[p] = joints[p] >= 0;
    find.up_ms = target->up_rs;
    find.leg_length = ik_foot_leg_length(target);
    find.scratch = scratch;
    find.contacts = contacts;
    find.capacity = capacity;
    find.count = count;
    if (r == IK_OK) r = ik_foot_contacts_run(&find);
    clean.rig = target;
    clean.take = take;
    clean.contacts = contacts;
    clean.contact_count = *count;
    clean.scratch_bytes = ik_footskate_scratch_size(take, *count);
    clean.scratch = malloc(clean.scratch_bytes);
    clean.model_ms = ms;
    if (r == IK_OK) r = worst_travel(target, take, contacts, *count, ms, travel_before);
    if (r == IK_OK) r = ik_footskate_plan(&clean);
    if (r == IK_OK) r = ik_footskate_apply(&clean, 0, frames);
    free(clean.scratch);
    free(scratch);
    free(paths);
    return r;
}

enum { TRANSFER_ONLY, WITH_IK_PASS, THEN_CLEAN_UP };

/* Retarget `source` onto `target` (the `how` above) and measure the result
 * in the target's root space, lengths in metres of the target
 * (ik_foot_metre). */
static outcome retarget_and_measure(const ik_humanoid *source_rig, const ik_take *source, const ik_humanoid *target,
                                    int how) {
    const ik_skeleton *t = target->skeleton;
    int frames = source->frame_count, n = t->joint_count, f, j, k;
    ik_retarget job = ik_retarget_def();
    ik_take out;
    ik_foot_contact *held = (ik_foot_contact *)malloc(4 * (size_t)frames * sizeof(ik_foot_contact));
    ik_mat4 *ms = (ik_mat4 *)malloc((size_t)n * sizeof(ik_mat4)),
            *rest_ms = (ik_mat4 *)malloc((size_t)n * sizeof(ik_mat4));
    ik_real metre = ik_foot_metre(ik_foot_leg_length(target));
    outcome o;
    memset(&o, 0, sizeof o);
    out.frame_count = frames;
    out.joint_count = n;
    out.frame_time = source->frame_time;
    out.poses_ls = (ik_transform *)malloc((size_t)frames * (size_t)n * sizeof(ik_transform));
    job.source_rig = source_rig;
    job.source = source;
    job.target_rig = target;
    job.target = &out;
    job.hold_feet = how == WITH_IK_PASS;
    job.target_contacts = held;
    job.contact_capacity = 4 * frames;
    job.contact_count = &o.contacts;
    job.scratch_bytes = ik_retarget_scratch_size(frames, source->joint_count, n);
    job.scratch = malloc(job.scratch_bytes);
    job.report = &o.report;
    o.result = ik_retarget_run(&job);
    if (o.result == IK_OK && how == THEN_CLEAN_UP) {
        o.result = clean_up(target, &out, held, 4 * frames, &o.contacts, ms, &o.slide_before);
        o.slide_before /= metre;
    }
    if (o.result == IK_OK) {
        /* every frame's segment angles, by group (the trunk one per frame, the others two) */
        ik_real *angles_by_group = (ik_real *)malloc(2 * (size_t)frames * IK_BODY_GROUPS * sizeof(ik_real));
        int counts[IK_BODY_GROUPS] = {0, 0, 0, 0, 0}, g;
        ik_mat4 *source_ms = (ik_mat4 *)malloc((size_t)source->joint_count * sizeof(ik_mat4));
        for (f = 0; f < frames; ++f) {
            ik_vec3 ds[IK_BODY_SEGMENTS], dt[IK_BODY_SEGMENTS];
            int i;
            ik_skeleton_fk(source_rig->skeleton, ik_take_pose(source, f), NULL, source_ms);
            ik_skeleton_fk(t, ik_take_pose(&out, f), NULL, ms);
            ik_body_directions(source_rig, source_ms, ds);
            ik_body_directions(target, ms, dt);
            for (i = 0; i < IK_BODY_SEGMENTS; ++i) {
                g = (int)ik_body_segment_group(i);
                angles_by_group[(size_t)g * 2 * (size_t)frames + (size_t)counts[g]++] =
                    ik_acos_safe(ik_vec3_dot(ds[i], dt[i]));
            }
        }
        for (g = 0; g < IK_BODY_GROUPS; ++g) {
            ik_real *v = angles_by_group + (size_t)g * 2 * (size_t)frames;
            o.direction[g][0] = quantile(v, counts[g], 0.5);
            o.direction[g][1] = quantile(v, counts[g], 0.95);
        }
        free(angles_by_group);
        free(source_ms);
        if (how == WITH_IK_PASS) {
            /* the contacts an outside reader finds on the result, in metres of the leg */
            o.ground_slide = ground_worst_slide(target, &out, metre, ms) / metre;
            if (!(o.ground_slide < (ik_real)1e29)) o.nonfinite = 1;
        }
        if (worst_travel(target, &out, held, o.contacts, ms, &o.worst_slide) == IK_OK)
            o.worst_slide /= metre;
        else
            o.nonfinite = 1;
        ik_skeleton_fk(t, t->rest_ls, NULL, rest_ms);
        for (j = 1; j < o.contacts; ++j) o.unordered += held[j - 1].start > held[j].start;
        for (f = 0; f < frames; ++f) {
            ik_humanoid_angles angles;
            const char *joint;
            ik_real limit_excess;
            ik_bool on_floor[2] = {0, 0};
            ik_skeleton_fk(t, ik_take_pose(&out, f), NULL, ms);
            for (j = 0; j < n; ++j) {
                int p = t->parents[j];
                if (!ik_mat4_finite(&ms[j])) o.nonfinite = 1;
                /* bones, not the hips' travel nor a virtual ankle's control joint's (checked below) */
                if (p >= 0 && j != target->map.joint[IK_ROLE_HIPS] && j != target->limb[IK_LIMB_LEG_L].end_control &&
                    j != target->limb[IK_LIMB_LEG_R].end_control)
                    o.worst_bone = ik_maxr(
                        o.worst_bone,
                        IK_FABS(ik_vec3_distance(ik_mat4_translation(&ms[j]), ik_mat4_translation(&ms[p])) -
                                ik_vec3_distance(ik_mat4_translation(&rest_ms[j]), ik_mat4_translation(&rest_ms[p]))) /
                            metre);
            }
            for (k = IK_LIMB_ARM_L; k <= IK_LIMB_ARM_R; ++k)
                if (target->limb[k].end >= 0)
                    o.worst_elbow_bend = ik_maxr(o.worst_elbow_bend, IK_FABS(signed_bend(&target->limb[k], ms)));
            for (k = IK_LIMB_LEG_L; k <= IK_LIMB_LEG_R; ++k) {
                const ik_humanoid_limb *l = &target->limb[k];
                ik_real bend = signed_bend(l, ms);
                int foot = ik_humanoid_limb_foot(l);
                ik_mat4 end_ms = ik_humanoid_limb_end_ms(l, ms);
                /* the foot stays on the leg: a virtual ankle's control joint at the ankle */
                if (foot >= 0)
                    o.worst_foot_off =
                        ik_maxr(o.worst_foot_off,
                                ik_vec3_distance(ik_mat4_translation(&ms[foot]), ik_mat4_translation(&end_ms)) / metre);
                /* a knee bent the wrong way by more than 2 degrees is a flip */
                if (bend < -ik_rad(2)) ++o.flips;
                o.worst_knee_wrong = ik_maxr(o.worst_knee_wrong, -bend);
                o.worst_knee_bend = ik_maxr(o.worst_knee_bend, bend);
                /* soles: heel and ball in the foot's frame, the toes' tip in the toe's */
                if (foot >= 0) {
                    ik_vec3 pts[3];
                    int np = 2, i;
                    pts[0] = ik_mat4_transform_point(&ms[foot], l->heel_ls);
                    pts[1] = ik_mat4_transform_point(&ms[foot], l->ball_ls);
                    if (l->toe >= 0) pts[np++] = ik_mat4_transform_point(&ms[l->toe], l->toe_tip_ls);
                    for (i = 0; i < np; ++i) {
                        ik_real depth = (target->floor_rs - ik_vec3_dot(pts[i], target->up_rs)) / metre;
                        o.worst_sink = ik_maxr(o.worst_sink, depth);
                        on_floor[k - IK_LIMB_LEG_L] |= depth > -(ik_real)0.01;
                    }
                }
            }
            /* every joint inside the rig's limits, the ankles and toes of feet
               held or on the floor (within 1 cm) included: the IK pass lifts
               such a heel rather than bend the ankle past ankle_up. The
               clean-up alone clamps nothing, so there those are kept apart */
            ik_humanoid_angles_measure(target, ms, rest_ms, &angles);
            for (k = 0; k < 2; ++k) {
                int c;
                for (c = 0; c < o.contacts; ++c)
                    on_floor[k] |=
                        held[c].start <= f && f <= held[c].end && ik_foot_point_leg(held[c].point) == IK_LIMB_LEG_L + k;
                if (on_floor[k] || how != WITH_IK_PASS) {
                    ik_humanoid_angles alone;
                    memset(&alone, 0, sizeof alone);
                    alone.ankle[k] = angles.ankle[k], alone.toe[k] = angles.toe[k];
                    if (how != WITH_IK_PASS) angles.ankle[k] = angles.toe[k] = 0;
                    o.worst_foot_down = ik_maxr(o.worst_foot_down, ik_humanoid_angles_excess(target, &alone, NULL));
                }
            }
            limit_excess = ik_humanoid_angles_excess(target, &angles, &joint);
            if (limit_excess > o.worst_limit)
                o.worst_limit = limit_excess, o.worst_limit_joint = joint, o.worst_limit_frame = f;
        }
    }
    free(job.scratch);
    free(out.poses_ls);
    free(held);
    free(ms);
    free(rest_ms);
    return o;
}

/* Issue 25's goal for the segments' directions in the body frame: trunk
 * and arms median <= 10 degrees and 95th percentile <= 20; thighs and
 * shins, which the IK bends to plant feet on other proportions, <= 20 and
 * <= 40. */
static void check_directions(const char *what, const outcome *o) {
    int g;
    printf("    directions (median / 95th, deg):");
    for (g = 0; g < IK_BODY_GROUPS; ++g)
        printf(" %s %.1f / %.1f%s", ik_body_group_name((ik_body_group)g), (double)ik_deg(o->direction[g][0]),
               (double)ik_deg(o->direction[g][1]), g + 1 < IK_BODY_GROUPS ? "," : "\n");
    for (g = 0; g < IK_BODY_GROUPS; ++g) {
        ik_real goal = g >= IK_BODY_THIGHS ? ik_rad(20) : ik_rad(10);
        CHECK(o->direction[g][0] <= goal && o->direction[g][1] <= 2 * goal,
              "%s: %s %.1f deg from the source's in the body frame (median; 95th percentile %.1f)", what,
              ik_body_group_name((ik_body_group)g), (double)ik_deg(o->direction[g][0]),
              (double)ik_deg(o->direction[g][1]));
    }
}

static void check_outcome(const char *what, const outcome *o, const ik_humanoid *target, int min_contacts) {
    CHECK(o->result == IK_OK, "%s: %s", what, ik_result_str(o->result));
    if (o->result != IK_OK) return;
    printf(
        "  %s: scale %.4g, %d paired, %d contacts held; slide %.2f mm, sink %.2f mm, bone %.3f mm, knee wrong "
        "%.2f deg\n",
        what, (double)o->report.scale, o->report.paired_joints, o->contacts, (double)o->worst_slide * 1000,
        (double)o->worst_sink * 1000, (double)o->worst_bone * 1000, (double)ik_deg(o->worst_knee_wrong));
    CHECK(!o->nonfinite, "%s: output not finite", what);
    CHECK(o->contacts >= min_contacts, "%s: only %d contacts held", what, o->contacts);
    CHECK(o->unordered == 0, "%s: %d contacts held out of order of start", what, o->unordered);
    CHECK(o->worst_slide <= (ik_real)0.01, "%s: a planted foot slides %.2f mm", what, (double)o->worst_slide * 1000);
    /* issue 25 asks 5 mm of the result's own contacts in the file's metres,
     * which tests/outside's matrix holds on every take x rig; here metres are
     * 0.85 m of leg (robot.glb's 1.54 m legs then find contacts up to 7 cm
     * above the floor, 7.9 mm of slide), so the bound is 8 mm (28 mm on
     * male_base_mesh.glb before the whole stances were held, 9.9 mm on
     * girl.glb's ankle before a toe-less foot stood on its ball) */
    printf("    the result's own contacts slide at most %.1f mm\n", (double)o->ground_slide * 1000);
    CHECK(o->ground_slide <= (ik_real)0.008, "%s: a contact found on the result slides %.1f mm", what,
          (double)o->ground_slide * 1000);
    CHECK(o->worst_sink <= (ik_real)0.01, "%s: a sole sinks %.2f mm below the floor", what,
          (double)o->worst_sink * 1000);
    CHECK(o->flips == 0, "%s: knees bent the wrong way in %d frames (%.1f deg)", what, o->flips,
          (double)ik_deg(o->worst_knee_wrong));
    CHECK(o->worst_knee_bend <= target->limits.knee_max + ik_rad(1), "%s: knee bent %.1f deg, limit %.1f", what,
          (double)ik_deg(o->worst_knee_bend), (double)ik_deg(target->limits.knee_max));
    CHECK(o->worst_elbow_bend <= target->limits.elbow_max + ik_rad(1), "%s: elbow bent %.1f deg, limit %.1f", what,
          (double)ik_deg(o->worst_elbow_bend), (double)ik_deg(target->limits.elbow_max));
    CHECK(o->worst_bone <= (ik_real)1e-4, "%s: a bone changed by %.3f mm", what, (double)o->worst_bone * 1000);
    printf("    limits: worst %.2f deg beyond (%s); feet on the floor: ankles and toes %.1f deg beyond\n",
           (double)ik_deg(o->worst_limit), o->worst_limit_joint ? o->worst_limit_joint : "none",
           (double)ik_deg(o->worst_foot_down));
    CHECK(o->worst_limit <= ik_rad(1), "%s: the %s %.1f deg beyond its limit (frame %d)", what,
          o->worst_limit_joint ? o->worst_limit_joint : "", (double)ik_deg(o->worst_limit), o->worst_limit_frame);
    CHECK(o->worst_foot_off <= (ik_real)1e-4, "%s: a foot %.3f mm off its ankle", what,
          (double)o->worst_foot_off * 1000);
    check_directions(what, o);
}

static int load_rig(const char *file, ik_asset *asset, ik_humanoid *rig) {
    const char *data = getenv("IKIT_DATA");
    char path[1024];
    ik_humanoid_map map;
    if (!data) return 0;
    snprintf(path, sizeof path, "%s/gltf/%s", data, file);
    if (ik_asset_load(path, asset, NULL) != IK_OK) return 0;
    if (ik_humanoid_map_find(asset->skeleton, NULL, 0, &map) != IK_OK ||
        ik_humanoid_init(rig, asset->skeleton, &map) != IK_OK) {
        ik_asset_free(asset);
        return 0;
    }
    return 1;
}

/* Retarget `source` onto `rig` with the IK pass into `out` (poses
 * malloc'ed); IK_OK or the job's error. */
static ik_result retarget_into(const motion_fixture *m, const ik_humanoid *rig, ik_take *out) {
    ik_retarget job = ik_retarget_def();
    ik_result r;
    *out = m->take;
    out->joint_count = rig->skeleton->joint_count;
    out->poses_ls = (ik_transform *)malloc((size_t)out->frame_count * (size_t)out->joint_count * sizeof(ik_transform));
    job.source_rig = &m->rig;
    job.source = &m->take;
    job.target_rig = rig;
    job.target = out;
    job.scratch_bytes = ik_retarget_scratch_size(out->frame_count, m->take.joint_count, out->joint_count);
    job.scratch = malloc(job.scratch_bytes);
    r = ik_retarget_run(&job);
    free(job.scratch);
    return r;
}

/* A mirrored rig plays the mirror image of what the rig plays: every
 * joint of every frame at S p (S = diag(-1, 1, 1)), since its body frame
 * is the rig's reflected, so the take's left leg drives the limbs named
 * left, now on the other side. Rigs without toes or a face (girl.glb,
 * robot.glb) tell their forward by their knees' and elbows' rest bends,
 * which a mirror keeps (left x up of the names would point backward).
 * With `flip` 1 the other rig is the same figure (its frames mirrored
 * below a joint) and plays the same, every joint at p. */
static void check_mirror_image(const motion_fixture *m, const ik_humanoid *rig, const ik_humanoid *mirrored,
                               ik_real flip, const char *what) {
    ik_take a, b;
    ik_mat4 *ma = (ik_mat4 *)malloc((size_t)rig->skeleton->joint_count * sizeof(ik_mat4));
    ik_mat4 *mb = (ik_mat4 *)malloc((size_t)rig->skeleton->joint_count * sizeof(ik_mat4));
    ik_real worst = 0, leg = ik_foot_leg_length(rig);
    int f, j;
    CHECK(retarget_into(m, rig, &a) == IK_OK && retarget_into(m, mirrored, &b) == IK_OK, "%s: both run", what);
    for (f = 0; f < a.frame_count; ++f) {
        ik_skeleton_fk(rig->skeleton, ik_take_pose(&a, f), NULL, ma);
        ik_skeleton_fk(mirrored->skeleton, ik_take_pose(&b, f), NULL, mb);
        for (j = 0; j < rig->skeleton->joint_count; ++j) {
            ik_vec3 p = ik_mat4_translation(&ma[j]);
            p.x *= flip;
            worst = ik_maxr(worst, ik_vec3_distance(p, ik_mat4_translation(&mb[j])));
        }
    }
    CHECK(worst < (ik_real)1e-3 * leg, "%s: the mirrored rig's joints %.3g legs from the mirror image", what,
          (double)(worst / leg));
    free(a.poses_ls);
    free(b.poses_ls);
    free(ma);
    free(mb);
}

/* Every take onto every rig as found; the first take also onto the rigs'
 * variants and from a rescaled source. */
static void test_real_rigs(void) {
    int t, r;
    for (t = 0; t < 3; ++t) {
        motion_fixture m;
        if (!motion_fixture_read(&m, takes[t])) {
            check_skip("real-asset corpus not found");
            return;
        }
        for (r = 0; r < 4; ++r) {
            ik_asset asset;
            ik_humanoid rig;
            char what[160];
            outcome o;
            if (!load_rig(rigs[r], &asset, &rig)) {
                printf("  %s does not map as a humanoid\n", rigs[r]);
                continue;
            }
            snprintf(what, sizeof what, "%s on %s", takes[t], rigs[r]);
            o = retarget_and_measure(&m.rig, &m.take, &rig, WITH_IK_PASS);
            check_outcome(what, &o, &rig, 9);
            if (t == 0) {
                /* the take played backwards: its heels lift before they
                 * strike, its toes plant before its heels, and it rises from
                 * its kneel on held toes */
                ik_take back = m.take;
                size_t pose = (size_t)m.take.joint_count * sizeof(ik_transform);
                int f;
                back.poses_ls = (ik_transform *)malloc((size_t)m.take.frame_count * pose);
                for (f = 0; f < m.take.frame_count; ++f)
                    memcpy(ik_take_pose(&back, f), ik_take_pose(&m.take, m.take.frame_count - 1 - f), pose);
                snprintf(what, sizeof what, "%s backwards on %s", takes[t], rigs[r]);
                o = retarget_and_measure(&m.rig, &back, &rig, WITH_IK_PASS);
                check_outcome(what, &o, &rig, 9);
                free(back.poses_ls);
            }
            if (t == 0) {
                static const char *const names[4] = {"x0.01", "x100", "Z-up", "mirrored"};
                const ik_real scales[4] = {(ik_real)0.01, 100, 1, 1};
                int v;
                for (v = 0; v < 4; ++v) {
                    rig_copy c;
                    rig_copy_make(&c, asset.skeleton, scales[v],
                                  v == 2 ? ik_quat_from_axis_angle(ik_v3(1, 0, 0), ik_rad(90)) : ik_quat_identity(),
                                  v == 3);
                    snprintf(what, sizeof what, "%s on %s %s", takes[t], rigs[r], names[v]);
                    CHECK(c.ok, "%s: the variant does not map", what);
                    if (c.ok) {
                        o = retarget_and_measure(&m.rig, &m.take, &c.rig, WITH_IK_PASS);
                        check_outcome(what, &o, &c.rig, 9);
                        if (v == 3) check_mirror_image(&m, &rig, &c.rig, -1, what);
                    }
                    rig_copy_free(&c);
                }
            }
            ik_asset_free(&asset);
        }
        motion_fixture_free(&m);
    }
}

/* Mirrored parent frames (a negative scale in a rest pose, as exporters
 * write mirrored figures and bones): every take onto every rig with (a)
 * its mirror image carried by a negative x scale on the root, and (b) its
 * frames mirrored from the hips down (a negative x scale on the hips), the
 * figure unchanged; either way every joint the transfer sets and the IK
 * pass turns (feet onto their goals, heel lifts, soles onto the floor,
 * knees and ankles kept within their limits) has a parent of det < 0.
 * Each held to check_outcome's geometry, and playing the mirror image of
 * the rig (a) or the rig's own motion (b). */
static void test_mirrored_frames(void) {
    int t, r, v;
    for (t = 0; t < 3; ++t) {
        motion_fixture m;
        if (!motion_fixture_read(&m, takes[t])) {
            check_skip("real-asset corpus not found");
            return;
        }
        for (r = 0; r < 4; ++r) {
            ik_asset asset;
            ik_humanoid rig;
            if (!load_rig(rigs[r], &asset, &rig)) continue;
            for (v = 0; v < 2; ++v) {
                static const char *const names[2] = {"root scale mirrored", "frames mirrored from the hips"};
                rig_copy c;
                char what[160];
                int j;
                rig_copy_make(&c, asset.skeleton, 1, ik_quat_identity(), v == 0);
                for (j = 0; j < c.skeleton.joint_count; ++j)
                    if (v == 0 ? c.skeleton.parents[j] < 0 : j == rig.map.joint[IK_ROLE_HIPS])
                        rig_copy_mirror_frames(&c, j);
                snprintf(what, sizeof what, "%s on %s %s", takes[t], rigs[r], names[v]);
                CHECK(c.ok, "%s: the variant does not map", what);
                if (c.ok) {
                    outcome o = retarget_and_measure(&m.rig, &m.take, &c.rig, WITH_IK_PASS);
                    check_outcome(what, &o, &c.rig, 9);
                    check_mirror_image(&m, &rig, &c.rig, v == 0 ? -1 : 1, what);
                }
                rig_copy_free(&c);
            }
            ik_asset_free(&asset);
        }
        motion_fixture_free(&m);
    }
}

/* Where a take goes and where it faces: the hips' horizontal travel from
 * the first frame to the last, and the mean over the frames of the unit
 * horizontal direction `forward_rs` (the body's forward at rest) turned as
 * the hips turn from their rest, R_hips R_hips,rest^-1 forward. */
static void travel_and_facing(const ik_skeleton *s, const ik_take *take, int hips, ik_vec3 up, ik_vec3 forward_rs,
                              ik_vec3 *travel, ik_vec3 *facing) {
    ik_mat4 *ms = (ik_mat4 *)malloc((size_t)s->joint_count * sizeof(ik_mat4));
    ik_quat rest_inverse;
    ik_vec3 first = ik_vec3_zero();
    int f;
    ik_skeleton_fk(s, s->rest_ls, NULL, ms);
    rest_inverse = ik_quat_conjugate(ik_quat_normalize(ik_mat4_rotation(&ms[hips])));
    *facing = ik_vec3_zero();
    for (f = 0; f < take->frame_count; ++f) {
        ik_vec3 d;
        ik_skeleton_fk(s, ik_take_pose(take, f), NULL, ms);
        if (f == 0) first = ik_mat4_translation(&ms[hips]);
        d = ik_quat_rotate(ik_quat_mul(ik_quat_normalize(ik_mat4_rotation(&ms[hips])), rest_inverse), forward_rs);
        *facing = ik_vec3_add(*facing, ik_vec3_normalize_or(ik_vec3_reject(d, up), ik_vec3_zero()));
    }
    *travel = ik_vec3_reject(ik_vec3_sub(ik_mat4_translation(&ms[hips]), first), up);
    *facing = ik_vec3_scale(*facing, 1 / (ik_real)take->frame_count);
    free(ms);
}

/* A rig without toes or a face (girl.glb, robot.glb) and its mirrored copy
 * walk the way the source walks and face where they go. Both face +Z (the
 * glTF convention, their knees bent toward it; a mirror in x keeps it), with
 * their left-named limbs on +X, and on -X in the copy: the source's travel
 * along its forward and left, carried into that frame, is where the hips must
 * go (within 25 degrees), and the hips' mean facing must point within 45
 * degrees of it, at least 0.7 long (the take's forward turned with its
 * hips, as the source's own). Before the knees told the mirrored copies
 * their forward, they walked backwards, facing away from their travel. */
static void test_forward_without_toes(void) {
    static const char *const files[2] = {"girl.glb", "robot.glb"};
    motion_fixture m;
    ik_vec3 source_travel, source_facing;
    int r, v;
    if (!motion_fixture_read(&m, takes[0])) {
        check_skip("real-asset corpus not found");
        return;
    }
    travel_and_facing(&m.bvh->skeleton, &m.take, m.rig.map.joint[IK_ROLE_HIPS], m.rig.up_rs, m.rig.forward_rs,
                      &source_travel, &source_facing);
    CHECK(ik_vec3_dot(source_travel, m.rig.forward_rs) > (ik_real)0.9 * ik_vec3_length(source_travel) &&
              ik_vec3_dot(source_facing, m.rig.forward_rs) > (ik_real)0.7,
          "the source walks forward");
    for (r = 0; r < 2; ++r) {
        ik_asset asset;
        ik_humanoid rig;
        if (!load_rig(files[r], &asset, &rig)) {
            check_skip("real-asset corpus not found");
            continue;
        }
        for (v = 0; v < 2; ++v) {
            rig_copy c;
            ik_take out;
            ik_vec3 forward = ik_v3(0, 0, 1), left = ik_v3(v ? -1 : 1, 0, 0), expected, travel, facing;
            rig_copy_make(&c, asset.skeleton, 1, ik_quat_identity(), v == 1);
            CHECK(c.ok && retarget_into(&m, &c.rig, &out) == IK_OK, "%s%s retargets", files[r], v ? " mirrored" : "");
            if (!c.ok) continue;
            expected = ik_vec3_add(ik_vec3_scale(forward, ik_vec3_dot(source_travel, m.rig.forward_rs)),
                                   ik_vec3_scale(left, ik_vec3_dot(source_travel, m.rig.left_rs)));
            travel_and_facing(c.rig.skeleton, &out, c.rig.map.joint[IK_ROLE_HIPS], ik_v3(0, 1, 0), forward, &travel,
                              &facing);
            printf("  %s%s: travel (%.2f, %.2f, %.2f) expected (%.2f, %.2f, %.2f), facing (%.2f, %.2f, %.2f)\n",
                   files[r], v ? " mirrored" : "", (double)travel.x, (double)travel.y, (double)travel.z,
                   (double)expected.x, (double)expected.y, (double)expected.z, (double)facing.x, (double)facing.y,
                   (double)facing.z);
            CHECK(ik_vec3_dot(ik_vec3_normalize(travel), ik_vec3_normalize(expected)) > IK_COS(ik_rad(25)),
                  "%s%s: the hips travel along the source's travel mapped", files[r], v ? " mirrored" : "");
            CHECK(ik_vec3_length(facing) > (ik_real)0.7 &&
                      ik_vec3_dot(ik_vec3_normalize(facing), ik_vec3_normalize(travel)) > IK_COS(ik_rad(45)),
                  "%s%s: the body faces where it goes", files[r], v ? " mirrored" : "");
            free(out.poses_ls);
            rig_copy_free(&c);
        }
        ik_asset_free(&asset);
    }
    motion_fixture_free(&m);
}

/* The footskate clean-up (`ikc clean`) on robot.glb, whose legs end at
 * virtual ankles with IK control joints for feet: the CMU walks and jumps
 * retargeted without the IK pass (feet sliding as the source's do, mapped),
 * then the take's own contacts held; on the rig and its mirrored and
 * rescaled copies. */
static void test_clean_up_virtual_ankles(void) {
    int t, v;
    for (t = 0; t < 3; ++t) {
        motion_fixture m;
        ik_asset asset;
        ik_humanoid rig;
        if (!motion_fixture_read(&m, takes[t]) || !load_rig("robot.glb", &asset, &rig)) {
            if (m.bvh) motion_fixture_free(&m);
            check_skip("real-asset corpus not found");
            return;
        }
        for (v = 0; v < 3; ++v) {
            static const char *const names[3] = {"", " mirrored", " x0.01"};
            rig_copy c;
            char what[160];
            outcome before, after;
            rig_copy_make(&c, asset.skeleton, v == 2 ? (ik_real)0.01 : 1, ik_quat_identity(), v == 1);
            snprintf(what, sizeof what, "%s on robot.glb%s, cleaned", takes[t], names[v]);
            CHECK(c.ok && c.rig.limb[IK_LIMB_LEG_L].end < 0 && c.rig.limb[IK_LIMB_LEG_L].end_control >= 0,
                  "%s: a virtual ankle with its control joint", what);
            if (c.ok) {
                before = retarget_and_measure(&m.rig, &m.take, &c.rig, TRANSFER_ONLY);
                after = retarget_and_measure(&m.rig, &m.take, &c.rig, THEN_CLEAN_UP);
                /* a transferred robot's feet slide in most steps (its legs are 40 % thigh, 60 % shin),
                   so fewer steps stand still enough to be contacts than the source has */
                check_outcome(what, &after, &c.rig, 3);
                printf("    worst contact's travel before the clean-up %.1f mm\n", (double)after.slide_before * 1000);
                CHECK(after.slide_before > (ik_real)0.01,
                      "%s: the transfer alone slides only %.2f mm: nothing to clean", what,
                      (double)after.slide_before * 1000);
                CHECK(before.result == IK_OK && before.worst_foot_off <= (ik_real)1e-4,
                      "%s: transferred feet on their ankles (%.3f mm)", what, (double)before.worst_foot_off * 1000);
            }
            rig_copy_free(&c);
        }
        ik_asset_free(&asset);
        motion_fixture_free(&m);
    }
}

/* A source in other units: the CMU skeleton rescaled x0.0254 with its
 * take's translations; the detected scale changes by 1/0.0254. */
static void test_source_rescaled(void) {
    motion_fixture m;
    ik_asset asset;
    ik_humanoid rig;
    rig_copy c;
    ik_take scaled;
    outcome a, b;
    size_t i, count;
    if (!motion_fixture_read(&m, takes[0]) || !load_rig(rigs[1], &asset, &rig)) {
        if (m.bvh) motion_fixture_free(&m);
        check_skip("real-asset corpus not found");
        return;
    }
    rig_copy_make(&c, &m.bvh->skeleton, (ik_real)0.0254, ik_quat_identity(), 0);
    scaled = m.take;
    count = (size_t)m.take.frame_count * (size_t)m.take.joint_count;
    scaled.poses_ls = (ik_transform *)malloc(count * sizeof(ik_transform));
    for (i = 0; i < count; ++i) {
        scaled.poses_ls[i] = m.take.poses_ls[i];
        scaled.poses_ls[i].translation = ik_vec3_scale(scaled.poses_ls[i].translation, (ik_real)0.0254);
    }
    a = retarget_and_measure(&m.rig, &m.take, &rig, WITH_IK_PASS);
    b = retarget_and_measure(&c.rig, &scaled, &rig, WITH_IK_PASS);
    check_outcome("131_01 x0.0254 on male_base_mesh", &b, &rig, 9);
    CHECK(IK_FABS(b.report.scale * (ik_real)0.0254 / a.report.scale - 1) < (ik_real)1e-4,
          "unit mismatch: scale %g vs %g", (double)b.report.scale, (double)a.report.scale);
    CHECK(IK_FABS(b.worst_slide - a.worst_slide) < (ik_real)5e-4 && b.contacts == a.contacts,
          "rescaled source: slide %g vs %g, contacts %d vs %d", (double)b.worst_slide, (double)a.worst_slide,
          b.contacts, a.contacts);
    free(scaled.poses_ls);
    rig_copy_free(&c);
    ik_asset_free(&asset);
    motion_fixture_free(&m);
}

/* The upper arm's and forearm's directions in root space, per side. */
static void arm_directions(const ik_humanoid *rig, const ik_mat4 *ms, ik_vec3 dirs[4]) {
    int k;
    for (k = IK_LIMB_ARM_L; k <= IK_LIMB_ARM_R; ++k) {
        const ik_humanoid_limb *l = &rig->limb[k];
        dirs[2 * k] =
            ik_vec3_normalize(ik_vec3_sub(ik_mat4_translation(&ms[l->mid]), ik_mat4_translation(&ms[l->start])));
        dirs[2 * k + 1] =
            ik_vec3_normalize(ik_vec3_sub(ik_mat4_translation(&ms[l->end]), ik_mat4_translation(&ms[l->mid])));
    }
}

/* A rig resting in an A-pose (the take's skeleton with both upper arms
 * turned 40 degrees down at rest, elbows bent 20 more) plays the take's
 * arms pointing where the take's point, every frame (arms are not touched
 * by the IK pass without hold_hands). */
static void test_a_pose(void) {
    motion_fixture m;
    rig_copy c;
    ik_retarget job = ik_retarget_def();
    ik_take out;
    ik_mat4 *src_ms, *dst_ms;
    ik_real worst = 0;
    int f, k, side;
    if (!motion_fixture_read(&m, takes[0])) {
        check_skip("real-asset corpus not found");
        return;
    }
    rig_copy_make(&c, &m.bvh->skeleton, 1, ik_quat_identity(), 0);
    for (side = 0; side < 2; ++side) {
        const ik_humanoid_limb *l = &m.rig.limb[side];
        ik_real sign = side == 0 ? -1 : 1;
        c.rest_ls[l->start].rotation =
            ik_quat_mul(ik_quat_from_axis_angle(m.rig.forward_rs, sign * ik_rad(40)), c.rest_ls[l->start].rotation);
        c.rest_ls[l->mid].rotation =
            ik_quat_mul(ik_quat_from_axis_angle(m.rig.up_rs, sign * ik_rad(20)), c.rest_ls[l->mid].rotation);
    }
    {
        ik_humanoid_map map;
        c.ok = ik_humanoid_map_find(&c.skeleton, NULL, 0, &map) == IK_OK &&
               ik_humanoid_init(&c.rig, &c.skeleton, &map) == IK_OK;
    }
    CHECK(c.ok, "A-pose copy maps");
    out = m.take;
    out.poses_ls =
        (ik_transform *)malloc((size_t)m.take.frame_count * (size_t)m.take.joint_count * sizeof(ik_transform));
    src_ms = (ik_mat4 *)malloc((size_t)m.take.joint_count * sizeof(ik_mat4));
    dst_ms = (ik_mat4 *)malloc((size_t)m.take.joint_count * sizeof(ik_mat4));
    job.source_rig = &m.rig;
    job.source = &m.take;
    job.target_rig = &c.rig;
    job.target = &out;
    job.scratch_bytes = ik_retarget_scratch_size(m.take.frame_count, m.take.joint_count, m.take.joint_count);
    job.scratch = malloc(job.scratch_bytes);
    {
        /* the rest arms really differ: over 30 degrees */
        ik_vec3 a[4], b[4];
        ik_skeleton_fk(&m.bvh->skeleton, m.bvh->skeleton.rest_ls, NULL, src_ms);
        ik_skeleton_fk(&c.skeleton, c.rest_ls, NULL, dst_ms);
        arm_directions(&m.rig, src_ms, a);
        arm_directions(&c.rig, dst_ms, b);
        CHECK(ik_acos_safe(ik_vec3_dot(a[0], b[0])) > ik_rad(30), "A-pose rest arm turned %.1f deg",
              (double)ik_deg(ik_acos_safe(ik_vec3_dot(a[0], b[0]))));
    }
    CHECK(c.ok && ik_retarget_run(&job) == IK_OK, "A-pose retarget runs");
    for (f = 0; c.ok && f < m.take.frame_count; ++f) {
        ik_vec3 a[4], b[4];
        ik_skeleton_fk(&m.bvh->skeleton, ik_take_pose(&m.take, f), NULL, src_ms);
        ik_skeleton_fk(&c.skeleton, ik_take_pose(&out, f), NULL, dst_ms);
        arm_directions(&m.rig, src_ms, a);
        arm_directions(&c.rig, dst_ms, b);
        for (k = 0; k < 4; ++k) worst = ik_maxr(worst, ik_acos_safe(ik_vec3_dot(a[k], b[k])));
    }
    printf("  A-pose rig playing 131_01: arm bones within %.3f deg of the take's\n", (double)ik_deg(worst));
    CHECK(worst < ik_rad(3), "A-pose: an arm bone points %.2f deg away from the take's", (double)ik_deg(worst));
    free(job.scratch);
    free(out.poses_ls);
    free(src_ms);
    free(dst_ms);
    rig_copy_free(&c);
    motion_fixture_free(&m);
}

/* Between two rigs with one scale and the same axes the mapping of hand
 * positions is a constant shift: the worst change, over frames, of the
 * target's hand minus the source's from frame 0's, among the arm-frames
 * where the elbow is not near its limit (10 degrees) and over all; the share
 * of arm-frames within `close`; the frames with an elbow bent the wrong way. */
typedef struct hand_result {
    ik_real worst_free, worst;
    double share_close;
    int elbow_flips;
} hand_result;

static hand_result hand_gap(const motion_fixture *m, const rig_copy *c, ik_bool hands, ik_real close) {
    hand_result h = {0, 0, 0, 0};
    int close_count = 0;
    ik_retarget job = ik_retarget_def();
    ik_take out = m->take;
    ik_mat4 *src_ms = (ik_mat4 *)malloc((size_t)m->take.joint_count * sizeof(ik_mat4));
    ik_mat4 *dst_ms = (ik_mat4 *)malloc((size_t)m->take.joint_count * sizeof(ik_mat4));
    int f, k;
    ik_real worst = 0;
    ik_vec3 shift[2] = {{0, 0, 0}, {0, 0, 0}};
    out.poses_ls =
        (ik_transform *)malloc((size_t)m->take.frame_count * (size_t)m->take.joint_count * sizeof(ik_transform));
    job.source_rig = &m->rig;
    job.source = &m->take;
    job.target_rig = &c->rig;
    job.target = &out;
    job.hold_hands = hands;
    job.scratch_bytes = ik_retarget_scratch_size(m->take.frame_count, m->take.joint_count, m->take.joint_count);
    job.scratch = malloc(job.scratch_bytes);
    if (ik_retarget_run(&job) != IK_OK) worst = 1e30f;
    for (f = 0; worst < 1e30f && f < m->take.frame_count; ++f) {
        ik_skeleton_fk(&m->bvh->skeleton, ik_take_pose(&m->take, f), NULL, src_ms);
        ik_skeleton_fk(&c->skeleton, ik_take_pose(&out, f), NULL, dst_ms);
        for (k = IK_LIMB_ARM_L; k <= IK_LIMB_ARM_R; ++k) {
            const ik_humanoid_limb *l = &c->rig.limb[k];
            ik_vec3 d = ik_vec3_sub(ik_mat4_translation(&dst_ms[l->end]), ik_mat4_translation(&src_ms[l->end]));
            if (f == 0) shift[k] = d;
            ik_real gap = ik_vec3_distance(shift[k], d), bend = signed_bend(l, dst_ms);
            worst = ik_maxr(worst, gap);
            if (bend < c->rig.limits.elbow_max - ik_rad(10)) h.worst_free = ik_maxr(h.worst_free, gap);
            close_count += gap <= close;
            h.elbow_flips += bend < -ik_rad(2);
        }
    }
    free(job.scratch);
    free(out.poses_ls);
    free(src_ms);
    free(dst_ms);
    h.worst = worst;
    h.share_close = (double)close_count / (2.0 * m->take.frame_count);
    return h;
}

/* --hands: a rig with forearms and hands 30 % longer (legs the same, so
 * the scale is 1) puts its hands where the take's are, elbows on their
 * side; without the option they are elsewhere. */
static void test_hands(void) {
    motion_fixture m;
    rig_copy c;
    ik_real metre;
    hand_result held, loose;
    int side;
    if (!motion_fixture_read(&m, takes[0])) {
        check_skip("real-asset corpus not found");
        return;
    }
    rig_copy_make(&c, &m.bvh->skeleton, 1, ik_quat_identity(), 0);
    for (side = IK_LIMB_ARM_L; side <= IK_LIMB_ARM_R; ++side) {
        c.rest_ls[m.rig.limb[side].mid].translation =
            ik_vec3_scale(c.rest_ls[m.rig.limb[side].mid].translation, (ik_real)1.3);
        c.rest_ls[m.rig.limb[side].end].translation =
            ik_vec3_scale(c.rest_ls[m.rig.limb[side].end].translation, (ik_real)1.3);
    }
    {
        ik_humanoid_map map;
        c.ok = ik_humanoid_map_find(&c.skeleton, NULL, 0, &map) == IK_OK &&
               ik_humanoid_init(&c.rig, &c.skeleton, &map) == IK_OK;
    }
    CHECK(c.ok, "long-armed copy maps");
    metre = ik_foot_metre(ik_foot_leg_length(&m.rig));
    held = hand_gap(&m, &c, 1, (ik_real)0.002 * metre);
    loose = hand_gap(&m, &c, 0, (ik_real)0.002 * metre);
    printf(
        "  hands held: %.1f %% of arm-frames within 2 mm, worst %.2f mm where the elbow is not within 10 deg of its "
        "limit, %.0f mm where it is (without hands: %.0f mm)\n",
        held.share_close * 100, (double)(held.worst_free / metre * 1000), (double)(held.worst / metre * 1000),
        (double)(loose.worst / metre * 1000));
    CHECK(held.worst_free < (ik_real)0.002 * metre && held.share_close > 0.9,
          "hands held within 2 mm (worst %.2f mm away from the elbow's limit, %.1f %% of frames)",
          (double)(held.worst_free / metre * 1000), held.share_close * 100);
    CHECK(loose.worst > (ik_real)0.05 * metre && loose.share_close < 0.5,
          "without hands the longer arms put them elsewhere: %.1f mm", (double)(loose.worst / metre * 1000));
    CHECK(held.elbow_flips == 0, "elbows bent the wrong way in %d frames", held.elbow_flips);
    rig_copy_free(&c);
    motion_fixture_free(&m);
}

/* Refusals, each with its reason and no contacts claimed. */
static void test_bad_input(void) {
    motion_fixture m;
    ik_retarget job;
    ik_retarget_report report;
    ik_retarget_pair pairs[2];
    ik_take out, gliding;
    int frames, n, f, count = 0;
    size_t bytes;
    void *scratch;
    ik_foot_contact held[8];
    if (!motion_fixture_read(&m, takes[0])) {
        check_skip("real-asset corpus not found");
        return;
    }
    frames = m.take.frame_count;
    n = m.take.joint_count;
    out = m.take;
    out.poses_ls = (ik_transform *)malloc((size_t)frames * (size_t)n * sizeof(ik_transform));
    bytes = ik_retarget_scratch_size(frames, n, n);
    scratch = malloc(bytes);
    job = ik_retarget_def();
    job.source_rig = &m.rig;
    job.source = &m.take;
    job.target_rig = &m.rig;
    job.target = &out;
    job.scratch = scratch;
    job.scratch_bytes = bytes;
    job.report = &report;
    {
        ik_retarget bad = job;
        bad.defaulted = 0;
        CHECK(ik_retarget_run(&bad) == IK_ERR_NOT_DEFAULTED, "not defaulted");
        bad = job;
        bad.scratch_bytes = bytes - 64;
        CHECK(ik_retarget_run(&bad) == IK_ERR_CAPACITY, "small scratch");
        bad = job;
        bad.target = NULL;
        CHECK(ik_retarget_run(&bad) == IK_ERR_NULL, "no target");
        bad = job;
        pairs[0].source_joint = 0, pairs[0].target_joint = n;
        bad.extra_pairs = pairs;
        bad.extra_pair_count = 1;
        CHECK(ik_retarget_run(&bad) == IK_ERR_RANGE, "pair out of range");
        pairs[0].target_joint = 3, pairs[1].source_joint = 1, pairs[1].target_joint = 3;
        bad.extra_pair_count = 2;
        CHECK(ik_retarget_run(&bad) == IK_ERR_RANGE, "a target joint paired twice");
        bad = job;
        bad.target_contacts = held;
        bad.contact_capacity = 8;
        bad.contact_count = &count;
        CHECK(ik_retarget_run(&bad) == IK_ERR_CAPACITY && count > 8, "contacts over capacity: %d", count);
    }
    /* NaN in one frame */
    {
        ik_real keep = ik_take_pose(&m.take, 7)[2].rotation.x;
        ik_take_pose(&m.take, 7)[2].rotation.x = (ik_real)NAN;
        CHECK(ik_retarget_run(&job) == IK_ERR_NONFINITE, "NaN frame");
        ik_take_pose(&m.take, 7)[2].rotation.x = keep;
    }
    /* no floor contact: the whole figure glides along its forward at 3 leg
     * lengths a second, so no foot is ever still on the floor */
    gliding = m.take;
    gliding.poses_ls = (ik_transform *)malloc((size_t)frames * (size_t)n * sizeof(ik_transform));
    memcpy(gliding.poses_ls, m.take.poses_ls, (size_t)frames * (size_t)n * sizeof(ik_transform));
    for (f = 0; f < frames; ++f)
        ik_take_pose(&gliding, f)[0].translation =
            ik_vec3_mad(ik_take_pose(&gliding, f)[0].translation, m.rig.forward_rs,
                        3 * ik_foot_leg_length(&m.rig) * m.take.frame_time * (ik_real)f);
    job.source = &gliding;
    CHECK(ik_retarget_run(&job) == IK_ERR_NOT_FOUND && report.source_contacts == 0, "no contacts: %d",
          report.source_contacts);
    job.hold_feet = 0;
    CHECK(ik_retarget_run(&job) == IK_OK, "no contacts, without the IK pass");
    /* a virtual ankle with nothing to stand for the foot (robot.glb with its
       foot control joints taken away): no foot to hold */
    {
        ik_asset asset;
        ik_humanoid robot;
        if (load_rig("robot.glb", &asset, &robot)) {
            outcome o;
            robot.limb[IK_LIMB_LEG_R].end_control = -1;
            o = retarget_and_measure(&m.rig, &m.take, &robot, WITH_IK_PASS);
            CHECK(o.result == IK_ERR_UNSUPPORTED, "virtual ankle without a control: %s", ik_result_str(o.result));
            o = retarget_and_measure(&m.rig, &m.take, &robot, TRANSFER_ONLY);
            CHECK(o.result == IK_OK && !o.nonfinite && o.worst_bone <= (ik_real)1e-4,
                  "virtual ankle without a control, transfer only: %s", ik_result_str(o.result));
            o = retarget_and_measure(&m.rig, &m.take, &robot, THEN_CLEAN_UP);
            CHECK(o.result == IK_ERR_UNSUPPORTED, "virtual ankle without a control, clean-up: %s",
                  ik_result_str(o.result));
            ik_asset_free(&asset);
        }
    }
    free(gliding.poses_ls);
    free(out.poses_ls);
    free(scratch);
    motion_fixture_free(&m);
}

static const test_group groups[] = {
    TEST_GROUP(real_rigs),
    TEST_GROUP(mirrored_frames),
    TEST_GROUP(source_rescaled),
    TEST_GROUP(clean_up_virtual_ankles),
    TEST_GROUP(forward_without_toes),
    TEST_GROUP(a_pose),
    TEST_GROUP(hands),
    TEST_GROUP(bad_input),
};

int main(int argc, char **argv) {
    if (!test_groups_run(groups, (int)(sizeof groups / sizeof groups[0]), argc, argv)) return 2;
    return check_summary("retarget");
}

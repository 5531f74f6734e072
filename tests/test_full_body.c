/* Full-body IK (full_body.h) and the mass model (body_mass.h) on the built
 * humanoid and every real rig, with its mirrored, rescaled and upside-down
 * twins (test_humanoid_fixture.h):
 *   - the mass model: the fractions add up, a standing body's centre lies
 *     between its feet at about 0.55 of its stature (de Leva's bodies: 0.55 to 0.57);
 *   - reach: a hand target 0.5 to 1.5 arm lengths from the shoulder at chest
 *     height, in front and to the side, both feet pinned, balance on: the
 *     hand lands within 1e-3 leg lengths (under 1 mm on a human-sized rig)
 *     in at least 98 % of the targets (all in the float build, 121 of 122 in
 *     the double) where a search of this file's own (a (1+1) evolution strategy over
 *     the body's joints within the job's limits, every trial's legs and arm
 *     solved by two-bone IK and its centre of mass measured) finds a balanced
 *     pose that reaches; the feet stay within 1e-3 leg lengths and 0.1
 *     degrees; the centre of mass is inside the support polygon, measured
 *     here; every limit kept;
 *   - four effectors at once (both hands, head, one foot moved, the other
 *     pinned) on targets from forward kinematics of random allowed poses:
 *     at least 99 % within 1e-3 leg lengths, every limit kept in every case
 *     (the pinned ankle's within 1e-4 rad);
 *   - frames: a hand target swept from 0.6 to 1.5 arm lengths, through
 *     full reach and past what the body can bring in, in steps of 1e-3 arm
 *     lengths, warm-started: no joint turns more than 2 degrees in a step
 *     (measured: at most 1.4); at 1.2 arm lengths a warm start and a cold
 *     one put the body (pelvis, spine, chest, neck) within 0.02 rad of each
 *     other;
 *   - bad input refused with nothing written. */
#include <ikit/body_mass.h>
#include <ikit/full_body.h>
#include <ikit/two_bone.h>
#include <math.h>

#include "support/test_groups.h"
#include "test_humanoid_fixture.h"

static ik_real leg_of(const fixture *f) {
    return (ik_real)0.5 * (fixture_limb_length(f, IK_LIMB_LEG_L) + fixture_limb_length(f, IK_LIMB_LEG_R));
}

typedef struct solver {
    ik_body_mass mass;
    ik_full_body job;
    ik_full_body_report report;
    void *scratch;
} solver;

static int solver_make(solver *sv, fixture *f) {
    size_t bytes = ik_full_body_scratch_size(&f->rig);
    memset(sv, 0, sizeof *sv);
    if (ik_body_mass_init(&sv->mass, &f->rig, IK_BODY_MASS_MALE, 75) != IK_OK) return 0;
    sv->scratch = malloc(bytes);
    sv->job = ik_full_body_def();
    sv->job.rig = &f->rig;
    sv->job.mass = &sv->mass;
    sv->job.pose_ls = f->pose;
    sv->job.model_ms = f->model;
    sv->job.root_ms = &f->root_ms;
    sv->job.reference_ls = f->start;
    sv->job.scratch = sv->scratch;
    sv->job.scratch_bytes = bytes;
    sv->job.report = &sv->report;
    return sv->scratch != NULL;
}

static void solver_free(solver *sv) { free(sv->scratch); }

/* ---- geometry of this file's own ------------------------------------------------ */

/* Point in a convex polygon given counterclockwise or clockwise in the
 * plane across `up`: the signed distance inside (negative outside) as the
 * smallest distance to an edge line, every cross product of one sign. */
static double inside_polygon(const ik_vec3 *poly, int n, ik_vec3 p, ik_vec3 up) {
    double best = 1e300, sign = 0;
    int i;
    for (i = 0; i < n && sign == 0; ++i) {
        ik_vec3 a = poly[i], b = poly[(i + 1) % n], c = poly[(i + 2) % n];
        double s = (double)ik_vec3_dot(ik_vec3_cross(ik_vec3_sub(b, a), ik_vec3_sub(c, b)), up);
        if (fabs(s) > 0) sign = s > 0 ? 1 : -1;
    }
    for (i = 0; i < n; ++i) {
        ik_vec3 a = poly[i], b = poly[(i + 1) % n], e = ik_vec3_reject(ik_vec3_sub(b, a), up);
        ik_vec3 d = ik_vec3_reject(ik_vec3_sub(p, a), up);
        double len = (double)ik_vec3_length(e);
        double s = sign * (double)ik_vec3_dot(ik_vec3_cross(e, d), up) / (len > 0 ? len : 1);
        if (s < best) best = s;
    }
    return best;
}

/* The angle (radians) between two rotations. */
static double quat_gap(ik_quat a, ik_quat b) { return (double)ik_quat_angle(ik_quat_mul(a, ik_quat_conjugate(b))); }

static ik_vec3 limb_end(const fixture *f, int limb) { return fixture_end(f, limb); }

/* ik_humanoid_leg_ankle and _toe_lift take the foot's lateral axis as
 * M lateral_ls, which a mirroring root_ms turns round (the mirror image of
 * a dorsiflexion reads as pi less it): seen through such a root, the
 * angles are read back as ik_humanoid_ankle_angle asks of its lateral
 * axis. */
static void flip_under_mirror(const fixture *f, ik_humanoid_angles *a) {
    int side;
    if (!(ik_mat4_det3(&f->root_ms) < 0)) return;
    for (side = 0; side < 2; ++side) {
        /* atan2(l.(f x s), f.s) + pi/2 read with -l: pi - the angle */
        if (a->ankle[side] != 0) a->ankle[side] = ik_wrap_angle(IK_PI - a->ankle[side]);
        a->toe[side] = -a->toe[side];
    }
}

/* Every limit the job promises: the rig's (elbows, knees, ankles, toes,
 * clavicles) by its own measure, and the body joints' turns from rest. */
static double limits_excess(const fixture *f, const ik_full_body *job, const char **what) {
    ik_mat4 *rest = (ik_mat4 *)malloc(sizeof(ik_mat4) * (size_t)f->skeleton->joint_count);
    ik_transform *rest_pose = (ik_transform *)malloc(sizeof(ik_transform) * (size_t)f->skeleton->joint_count);
    ik_humanoid_angles angles;
    double worst;
    static const int roles[3] = {IK_ROLE_SPINE, IK_ROLE_CHEST, IK_ROLE_NECK};
    int i;
    ik_humanoid wide = f->rig;
    ik_mat4 *start = (ik_mat4 *)malloc(sizeof(ik_mat4) * (size_t)f->skeleton->joint_count);
    ik_humanoid_angles at_start;
    int side;
    ik_skeleton_rest_pose(f->skeleton, rest_pose);
    ik_skeleton_fk(f->skeleton, rest_pose, &f->root_ms, rest);
    /* a start pose beyond a limit (robot.glb's right elbow, bent the wrong
     * way at rest) widens that limit to it: the solve must not go further */
    ik_skeleton_fk(f->skeleton, f->start, &f->root_ms, start);
    ik_humanoid_angles_measure(&f->rig, start, rest, &at_start);
    flip_under_mirror(f, &at_start);
    for (side = 0; side < 2; ++side) {
        ik_humanoid_limits *w = &wide.limits;
        w->elbow_min = ik_minr(w->elbow_min, at_start.elbow[side]);
        w->elbow_max = ik_maxr(w->elbow_max, at_start.elbow[side]);
        w->knee_min = ik_minr(w->knee_min, at_start.knee[side]);
        w->knee_max = ik_maxr(w->knee_max, at_start.knee[side]);
        w->ankle_up = ik_maxr(w->ankle_up, at_start.ankle[side]);
        w->ankle_down = ik_maxr(w->ankle_down, -at_start.ankle[side]);
        w->toe_bend = ik_maxr(w->toe_bend, at_start.toe[side]);
        w->toe_curl = ik_maxr(w->toe_curl, -at_start.toe[side]);
    }
    free(start);
    ik_humanoid_angles_measure(&f->rig, f->model, rest, &angles);
    flip_under_mirror(f, &angles);
    worst = (double)ik_humanoid_angles_excess(&wide, &angles, what);
    for (i = 0; i < 3; ++i) {
        int j = f->rig.map.joint[roles[i]];
        double a;
        if (j < 0) continue;
        a = quat_gap(f->pose[j].rotation, f->skeleton->rest_ls[j].rotation) - (double)job->limit[IK_FB_JOINT_SPINE + i];
        if (a > worst) worst = a, *what = ik_humanoid_role_name(roles[i]);
    }
    free(rest);
    free(rest_pose);
    return worst;
}

/* ---- the mass model ----------------------------------------------------------------- */

static void check_mass(fixture *f, int built, void *context) {
    ik_body_mass m;
    ik_vec3 com, up = fixture_up(f), floor_point;
    double total = 0, height, side;
    int i, t;
    (void)built;
    (void)context;
    for (t = 0; t < 2; ++t) {
        CHECK(ik_body_mass_init(&m, &f->rig, (ik_body_mass_table)t, 70) == IK_OK, "%s: mass model", f->label);
        total = 0;
        for (i = 0; i < IK_MASS_SEG_COUNT; ++i) total += (double)m.mass[i];
        CHECK(fabs(total - 70) < 0.05, "%s: masses add to %g of 70 kg", f->label, total);
    }
    ik_body_mass_init(&m, &f->rig, IK_BODY_MASS_MALE, 70);
    fixture_reset(f);
    com = ik_body_mass_centre(&m, f->model);
    floor_point = ik_mat4_transform_point(&f->root_ms, ik_vec3_scale(f->rig.up_rs, f->rig.floor_rs));
    height = (double)ik_vec3_dot(ik_vec3_sub(com, floor_point), up) / ((double)m.stature * (double)fixture_scale(f));
    /* de Leva's bodies stand with the centre at 0.55 to 0.57 of stature; a
     * rig's proportions are an artist's (rigged_figure's legs are short for
     * its trunk, so the stature told from them is short too): 0.48 to 0.67 */
    printf("mass %-28s standing centre of mass at %.3f of the stature told from the legs\n", f->label, height);
    CHECK(height > 0.48 && height < 0.67, "%s: standing centre of mass at %.3f of stature", f->label, height);
    side = (double)ik_vec3_dot(
               ik_vec3_sub(com, ik_vec3_lerp(limb_end(f, IK_LIMB_LEG_L), limb_end(f, IK_LIMB_LEG_R), (ik_real)0.5)),
               fixture_left(f)) /
           (double)ik_vec3_distance(limb_end(f, IK_LIMB_LEG_L), limb_end(f, IK_LIMB_LEG_R));
    CHECK(fabs(side) < 0.5, "%s: the centre of mass between the feet (%.3f of their distance off the middle)", f->label,
          side);
    CHECK(ik_body_mass_init(&m, &f->rig, IK_BODY_MASS_MALE, 0) == IK_ERR_RANGE, "no mass refused");
    CHECK(ik_body_mass_init(&m, &f->rig, (ik_body_mass_table)7, 70) == IK_ERR_RANGE, "no table refused");
    CHECK(ik_body_mass_init(NULL, &f->rig, IK_BODY_MASS_MALE, 70) == IK_ERR_NULL, "NULL refused");
}

static void test_mass(void) { fixture_each_rig(check_mass, NULL); }

/* ---- the independent reach check ------------------------------------------------------ */

/* A body pose of this file's own: the pelvis shifted (leg lengths, model
 * space) and turned, spine, chest and the reaching side's clavicle turned
 * (model-space turn vectors), from the start pose; then both legs solved to
 * their start ankles by two-bone IK (the rig's hinge and knee limits) with
 * the feet's start rotations, and the arm toward `target`. Returns 0 when a
 * joint is beyond the job's limits, a leg cannot reach its ankle, or an
 * ankle or knee leaves the rig's limits. */
#define SEARCH_DIM 15
/* the body's joints kept this far (radians, leg lengths) inside their
 * limits, as the solve's walls keep them (full_body.c: LIMIT_BAND) */
#define SEARCH_BAND 0.05
static int search_pose(fixture *f, const ik_full_body *job, const double *p, int arm, ik_vec3 target,
                       const ik_vec3 ankles[2], const ik_quat feet[2]) {
    int n = f->skeleton->joint_count, k, side;
    int joints[4];
    ik_real leg = leg_of(f);
    const char *what = "";
    ik_vec3 shift = ik_v3((ik_real)p[0], (ik_real)p[1], (ik_real)p[2]);
    ik_quat pelvis_start;
    memcpy(f->pose, f->start, sizeof(ik_transform) * (size_t)n);
    ik_skeleton_fk(f->skeleton, f->pose, &f->root_ms, f->model);
    pelvis_start = ik_mat4_rotation(&f->model[f->rig.pelvis]);
    if ((double)ik_vec3_length(shift) > (double)job->limit[IK_FB_JOINT_PELVIS_SHIFT] - SEARCH_BAND) return 0;
    {
        int pelvis = f->rig.pelvis, parent = f->skeleton->parents[pelvis];
        ik_mat4 pm = parent >= 0 ? f->model[parent] : f->root_ms, inv;
        if (!ik_mat4_inverse(&pm, &inv)) return 0;
        f->pose[pelvis].translation =
            ik_vec3_add(f->pose[pelvis].translation, ik_mat4_transform_vector(&inv, ik_vec3_scale(shift, leg)));
    }
    joints[0] = f->rig.pelvis;
    joints[1] = f->rig.map.joint[IK_ROLE_SPINE];
    joints[2] = f->rig.map.joint[IK_ROLE_CHEST];
    joints[3] = f->rig.limb[arm].clavicle;
    for (k = 0; k < 4; ++k) {
        ik_vec3 v = ik_v3((ik_real)p[3 + 3 * k], (ik_real)p[4 + 3 * k], (ik_real)p[5 + 3 * k]);
        ik_real a = ik_vec3_length(v);
        if (joints[k] < 0 || (k > 0 && joints[k] == joints[k - 1]) || !(a > 0)) continue;
        ik_skeleton_fk(f->skeleton, f->pose, &f->root_ms, f->model);
        ik_skeleton_turn_joint_ms(f->skeleton, joints[k], ik_quat_from_axis_angle(ik_vec3_scale(v, 1 / a), a),
                                  &f->root_ms, f->pose, f->model);
    }
    ik_skeleton_fk(f->skeleton, f->pose, &f->root_ms, f->model);
    if (quat_gap(ik_mat4_rotation(&f->model[f->rig.pelvis]), pelvis_start) >
        (double)job->limit[IK_FB_JOINT_PELVIS] - SEARCH_BAND)
        return 0;
    for (k = 1; k < 4; ++k) {
        int j = joints[k];
        ik_real lim = k == 1 ? job->limit[IK_FB_JOINT_SPINE] : k == 2 ? job->limit[IK_FB_JOINT_CHEST] : ik_rad(30);
        if (j >= 0 && quat_gap(f->pose[j].rotation, f->skeleton->rest_ls[j].rotation) > (double)lim - SEARCH_BAND)
            return 0;
    }
    for (side = 0; side < 3; ++side) {
        int limb = side < 2 ? IK_LIMB_LEG_L + side : arm;
        const ik_humanoid_limb *l = &f->rig.limb[limb];
        ik_two_bone tb = ik_two_bone_def();
        ik_mat4 end = ik_humanoid_limb_end_ms(l, f->model);
        ik_bool is_leg = side < 2;
        tb.start_ms = &f->model[l->start];
        tb.mid_ms = &f->model[l->mid];
        tb.end_ms = &end;
        tb.target_ms = is_leg ? ankles[side] : target;
        tb.use_hinge = 1;
        tb.hinge_axis_ls = l->hinge_axis_ls;
        tb.min_bend = is_leg ? f->rig.limits.knee_min : f->rig.limits.elbow_min;
        tb.max_bend = is_leg ? f->rig.limits.knee_max : f->rig.limits.elbow_max;
        tb.use_pole = 1;
        tb.pole_ms = ik_humanoid_limb_pole(l, f->model, tb.target_ms, fixture_limb_length(f, limb));
        tb.start_rotation_ls = &f->pose[l->start].rotation;
        tb.mid_rotation_ls = &f->pose[l->mid].rotation;
        if (ik_two_bone_run(&tb) != IK_OK) return 0;
        ik_skeleton_fk(f->skeleton, f->pose, &f->root_ms, f->model);
        if (is_leg) {
            ik_vec3 got = limb_end(f, limb);
            if ((double)ik_vec3_distance(got, ankles[side]) > 1e-4 * (double)leg) return 0;
            if (l->end >= 0) {
                int parent = f->skeleton->parents[l->end];
                f->pose[l->end].rotation = ik_quat_normalize(
                    ik_skeleton_rotation_ls(ik_mat4_rotation(&f->model[parent]), ik_mat4_det3(&f->model[parent]) < 0,
                                            feet[side], f->pose[l->end].scale));
                ik_skeleton_fk(f->skeleton, f->pose, &f->root_ms, f->model);
            }
        }
    }
    {
        /* the pinned ankles kept 7 degrees inside the rig's limits, as the
         * solve keeps them (full_body.c: ANKLE_MARGIN + LIMIT_BAND) */
        ik_humanoid keep = f->rig;
        ik_real excess;
        f->rig.limits.ankle_up -= ik_rad(7);
        f->rig.limits.ankle_down -= ik_rad(7);
        excess = (ik_real)limits_excess(f, job, &what);
        f->rig = keep;
        return excess <= (ik_real)1e-4;
    }
}

/* How far the shoulder stays beyond 0.99 of the arm's reach from the
 * target (leg lengths; <= 0: the hand reaches), +infinity for a pose out
 * of balance (the centre of mass, measured, not inside the feet's soles by
 * the job's margin and 0.002 more) or beyond the limits. */
static double search_cost(fixture *f, const ik_full_body *job, const ik_body_mass *mass, const double *p, int arm,
                          ik_vec3 target, const ik_vec3 ankles[2], const ik_quat feet[2], const ik_vec3 *support,
                          int support_n) {
    ik_real leg = leg_of(f);
    ik_vec3 com;
    if (!search_pose(f, job, p, arm, target, ankles, feet)) return 1e300;
    com = ik_body_mass_centre(mass, f->model);
    if (inside_polygon(support, support_n, com, fixture_up(f)) < ((double)job->balance_margin + 0.002) * (double)leg)
        return 1e300;
    return ((double)ik_vec3_distance(target, fixture_pos(f, f->rig.limb[arm].start)) -
            0.99 * (double)fixture_limb_length(f, arm)) /
           (double)leg;
}

static unsigned search_seed = 12345u;
static double uniform01(void) {
    search_seed = search_seed * 1103515245u + 12345u;
    return (double)((search_seed >> 8) & 0xFFFFFFu) / 16777216.0;
}
static double gauss(void) {
    double u = uniform01() + 1e-12, v = uniform01();
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* (1+1) evolution strategy with the one-fifth rule (Rechenberg): 500
 * trials from the start pose. Returns the best cost found. */
static double search_reach(fixture *f, const ik_full_body *job, const ik_body_mass *mass, int arm, ik_vec3 target,
                           const ik_vec3 ankles[2], const ik_quat feet[2], const ik_vec3 *support, int support_n) {
    double p[SEARCH_DIM] = {0}, q[SEARCH_DIM], best, sigma = 0.15;
    int it, i, wins = 0;
    best = search_cost(f, job, mass, p, arm, target, ankles, feet, support, support_n);
    for (it = 0; it < 500 && best > 0; ++it) {
        double c;
        for (i = 0; i < SEARCH_DIM; ++i) q[i] = p[i] + sigma * gauss();
        c = search_cost(f, job, mass, q, arm, target, ankles, feet, support, support_n);
        if (c < best) {
            best = c;
            memcpy(p, q, sizeof p);
            ++wins;
        }
        if (it % 20 == 19) {
            sigma *= wins > 4 ? 1.5 : 0.6;
            if (sigma < 0.005) sigma = 0.005;
            wins = 0;
        }
    }
    return best;
}

/* ---- reach ------------------------------------------------------------------------------- */

typedef struct reach_stats {
    int targets, reachable, reached, unreachable_close;
    double worst_foot, worst_com, worst_limit, worst_reach;
} reach_stats;

static void reach_rig(fixture *f, reach_stats *rs, int search) {
    solver sv;
    ik_real leg = leg_of(f), arm_len = fixture_limb_length(f, IK_LIMB_ARM_L);
    ik_vec3 up = fixture_up(f), ankles[2];
    ik_quat feet[2];
    int dir, step, side;
    if (!solver_make(&sv, f)) {
        CHECK(0, "%s: solver", f->label);
        return;
    }
    fixture_reset(f);
    for (side = 0; side < 2; ++side) {
        const ik_humanoid_limb *l = &f->rig.limb[IK_LIMB_LEG_L + side];
        ankles[side] = limb_end(f, IK_LIMB_LEG_L + side);
        feet[side] = l->end >= 0 ? ik_mat4_rotation(&f->model[l->end]) : ik_quat_identity();
    }
    for (dir = 0; dir < 2; ++dir)
        for (step = 0; step <= 10; ++step) {
            ik_real k = (ik_real)0.5 + (ik_real)0.1 * (ik_real)step, dh, flat;
            ik_vec3 shoulder, chest, d, target, com;
            double foot_gap = 0, com_in, lim, residual;
            const char *what = "";
            ik_result r;
            fixture_reset(f);
            shoulder = fixture_pos(f, f->rig.limb[IK_LIMB_ARM_L].start);
            chest = fixture_pos(f, f->rig.map.joint[IK_ROLE_CHEST]);
            d = dir == 0 ? fixture_forward(f) : fixture_left(f);
            dh = ik_vec3_dot(ik_vec3_sub(chest, shoulder), up);
            flat = IK_SQRT(ik_maxr(k * k * arm_len * arm_len - dh * dh, 0));
            target = ik_vec3_mad(ik_vec3_mad(shoulder, up, dh), d, flat);
            sv.job = sv.job;
            sv.job.effector[IK_FB_HAND_L].enabled = 1;
            sv.job.effector[IK_FB_HAND_L].position_ms = target;
            sv.job.effector[IK_FB_FOOT_L].pinned = 1;
            sv.job.effector[IK_FB_FOOT_R].pinned = 1;
            sv.job.balance = 1;
            r = ik_full_body_run(&sv.job);
            CHECK(r == IK_OK, "%s: run: %s", f->label, ik_result_str(r));
            CHECK(fixture_pose_finite(f), "%s: finite", f->label);
            ++rs->targets;
            for (side = 0; side < 2; ++side) {
                const ik_humanoid_limb *l = &f->rig.limb[IK_LIMB_LEG_L + side];
                double gap = (double)ik_vec3_distance(limb_end(f, IK_LIMB_LEG_L + side), ankles[side]) / (double)leg;
                if (gap > foot_gap) foot_gap = gap;
                if (l->end >= 0)
                    CHECK(quat_gap(ik_mat4_rotation(&f->model[l->end]), feet[side]) < 1e-3, "%s: foot %d turned %g deg",
                          f->label, side, quat_gap(ik_mat4_rotation(&f->model[l->end]), feet[side]) * 57.3);
            }
            if (foot_gap > rs->worst_foot) rs->worst_foot = foot_gap;
            CHECK(foot_gap <= 1e-3, "%s: a pinned foot moved %g leg lengths (k %.1f dir %d)", f->label, foot_gap,
                  (double)k, dir);
            com = ik_body_mass_centre(&sv.mass, f->model);
            com_in = sv.report.support_count >= 3
                         ? inside_polygon(sv.report.support_ms, sv.report.support_count, com, up) / (double)leg
                         : -1;
            if (-com_in > rs->worst_com) rs->worst_com = -com_in;
            CHECK(com_in >= 0 && sv.report.balance == IK_BALANCE_KEPT,
                  "%s: centre of mass %g leg lengths inside the support (k %.1f dir %d)", f->label, com_in, (double)k,
                  dir);
            lim = limits_excess(f, &sv.job, &what);
            if (lim > rs->worst_limit) rs->worst_limit = lim;
            CHECK(lim <= 1e-3, "%s: %s beyond its limit by %g deg", f->label, what, lim * 57.3);
            residual = (double)ik_vec3_distance(limb_end(f, IK_LIMB_ARM_L), target) / (double)leg;
            if (search) {
                ik_transform *solved = (ik_transform *)malloc(sizeof(ik_transform) * (size_t)f->skeleton->joint_count);
                double cost;
                memcpy(solved, f->pose, sizeof(ik_transform) * (size_t)f->skeleton->joint_count);
                cost = search_reach(f, &sv.job, &sv.mass, IK_LIMB_ARM_L, target, ankles, feet, sv.report.support_ms,
                                    sv.report.support_count);
                memcpy(f->pose, solved, sizeof(ik_transform) * (size_t)f->skeleton->joint_count);
                ik_skeleton_fk(f->skeleton, f->pose, &f->root_ms, f->model);
                free(solved);
                if (cost <= 0) {
                    ++rs->reachable;
                    if (residual <= 1e-3) ++rs->reached;
                    if (residual > rs->worst_reach) rs->worst_reach = residual;
                    if (residual > 1e-3)
                        printf("reach %s: reachable by the search (k %.1f, %s) but %g leg lengths off\n", f->label,
                               (double)k, dir ? "side" : "front", residual);
                }
            } else if (residual <= 1e-3) {
                ++rs->reached;
            }
            sv.job.effector[IK_FB_HAND_L].enabled = 0;
        }
    solver_free(&sv);
}

static void check_reach(fixture *f, int built, void *context) {
    reach_stats *rs = (reach_stats *)context, own = {0, 0, 0, 0, 0, 0, 0, 0};
    (void)built;
    reach_rig(f, &own, 1);
    printf(
        "reach %-28s targets %2d reachable %2d reached %2d; feet %.2g, com outside %.2g, limit %.2g, "
        "worst reachable residual %.2g (leg lengths)\n",
        f->label, own.targets, own.reachable, own.reached, own.worst_foot, own.worst_com, own.worst_limit,
        own.worst_reach);
    rs->targets += own.targets;
    rs->reachable += own.reachable;
    rs->reached += own.reached;
}

static void test_reach(void) {
    reach_stats rs = {0, 0, 0, 0, 0, 0, 0, 0};
    fixture_each_rig(check_reach, &rs);
    printf("reach: %d targets, %d reachable by the search, %d of those reached\n", rs.targets, rs.reachable,
           rs.reached);
    CHECK(rs.reachable > rs.targets / 3, "the search finds most targets reachable (%d of %d)", rs.reachable,
          rs.targets);
    /* the body stage is a local solve: a far side reach on robot.glb (arms
     * 1.25 leg lengths long, 1.4 arm lengths out) settles short in the
     * double build: at least 98 % */
    CHECK(rs.reached * 100 >= 98 * rs.reachable, "%d of the %d reachable targets reached", rs.reached, rs.reachable);
}

/* The twins (mirrored roots, a mirrored rig, a rescaled upside-down root):
 * the same reach checks without the search (the twin is the same body). */
static void check_reach_twins(fixture *f, int built, void *context) {
    int k;
    (void)context;
    if (!built && strstr(f->label, "131_02")) return;
    for (k = 0; k < FIXTURE_TWINS; ++k) {
        fixture_twin t;
        reach_stats own = {0, 0, 0, 0, 0, 0, 0, 0};
        if (!fixture_twin_of(&t, f, k)) {
            fixture_twin_free(&t);
            continue;
        }
        reach_rig(&t.f, &own, 0);
        printf("twin %-44s reached %2d of %2d\n", t.f.label, own.reached, own.targets);
        fixture_twin_free(&t);
    }
}

static void test_reach_twins(void) { fixture_each_rig(check_reach_twins, NULL); }

/* ---- four effectors ------------------------------------------------------------------------ */

typedef struct four_stats {
    int cases, solved, beyond;
    double worst_beyond;
} four_stats;

/* A random allowed pose: the pelvis shifted by up to 0.15 leg lengths and
 * turned up to 20 degrees, spine and chest up to 20, neck up to 25, the
 * clavicles up to 20 (all within the job's limits), each arm's elbow bent
 * 10 to 120 degrees and its shoulder swung up to 70 degrees, the left leg's
 * hip up to 35 and knee 0 to 70; the right leg solved back to its start
 * ankle (cases where it cannot are drawn again). */
static int random_pose(fixture *f, const ik_vec3 *right_ankle, ik_quat right_foot) {
    static const int roles[4] = {IK_ROLE_SPINE, IK_ROLE_CHEST, IK_ROLE_NECK, -1};
    ik_real leg = leg_of(f);
    int k, side;
    fixture_reset(f);
    {
        int pelvis = f->rig.pelvis, parent = f->skeleton->parents[pelvis];
        ik_mat4 pm = parent >= 0 ? f->model[parent] : f->root_ms, inv;
        ik_vec3 shift = ik_vec3_scale(ik_v3((ik_real)gauss(), (ik_real)gauss(), (ik_real)gauss()), (ik_real)0.06 * leg);
        if (ik_vec3_length(shift) > (ik_real)0.15 * leg)
            shift = ik_vec3_scale(shift, (ik_real)0.15 * leg / ik_vec3_length(shift));
        if (ik_mat4_inverse(&pm, &inv))
            f->pose[pelvis].translation =
                ik_vec3_add(f->pose[pelvis].translation, ik_mat4_transform_vector(&inv, shift));
    }
    for (k = -1; k < 5; ++k) {
        int j = k < 0 ? f->rig.pelvis : k < 3 ? f->rig.map.joint[roles[k]] : f->rig.limb[k - 3].clavicle;
        ik_real max = k == 2 ? ik_rad(25) : ik_rad(20);
        ik_vec3 axis;
        if (j < 0) continue;
        axis = ik_vec3_normalize(ik_v3((ik_real)gauss(), (ik_real)gauss(), (ik_real)gauss()));
        ik_skeleton_fk(f->skeleton, f->pose, &f->root_ms, f->model);
        if (k < 0) {
            ik_skeleton_turn_joint_ms(f->skeleton, j, ik_quat_from_axis_angle(axis, max * (ik_real)uniform01()),
                                      &f->root_ms, f->pose, f->model);
        } else {
            f->pose[j].rotation = ik_quat_normalize(ik_quat_mul(
                f->skeleton->rest_ls[j].rotation, ik_quat_from_axis_angle(axis, max * (ik_real)uniform01())));
        }
    }
    ik_skeleton_fk(f->skeleton, f->pose, &f->root_ms, f->model);
    /* limbs: the shoulder / hip swung, the elbow / knee bent about its hinge */
    for (side = 0; side < 3; ++side) {
        int limb = side < 2 ? IK_LIMB_ARM_L + side : IK_LIMB_LEG_L;
        const ik_humanoid_limb *l = &f->rig.limb[limb];
        ik_real swing = side < 2 ? ik_rad(70) : ik_rad(35), bend_lo = side < 2 ? ik_rad(10) : 0;
        ik_real bend_hi = side < 2 ? ik_rad(120) : ik_rad(70);
        ik_real bend = bend_lo + (bend_hi - bend_lo) * (ik_real)uniform01();
        ik_vec3 axis = ik_vec3_normalize(ik_v3((ik_real)gauss(), (ik_real)gauss(), (ik_real)gauss()));
        ik_skeleton_fk(f->skeleton, f->pose, &f->root_ms, f->model);
        ik_skeleton_turn_joint_ms(f->skeleton, l->start, ik_quat_from_axis_angle(axis, swing * (ik_real)uniform01()),
                                  &f->root_ms, f->pose, f->model);
        ik_skeleton_fk(f->skeleton, f->pose, &f->root_ms, f->model);
        {
            /* set the bend: turn the middle joint about its hinge by the gap */
            ik_real now = fixture_bend(f, limb);
            f->pose[l->mid].rotation = ik_quat_normalize(
                ik_quat_mul(f->pose[l->mid].rotation, ik_quat_from_axis_angle(l->hinge_axis_ls, bend - now)));
        }
    }
    ik_skeleton_fk(f->skeleton, f->pose, &f->root_ms, f->model);
    {
        const ik_humanoid_limb *l = &f->rig.limb[IK_LIMB_LEG_R];
        ik_two_bone tb = ik_two_bone_def();
        ik_mat4 end = ik_humanoid_limb_end_ms(l, f->model);
        tb.start_ms = &f->model[l->start];
        tb.mid_ms = &f->model[l->mid];
        tb.end_ms = &end;
        tb.target_ms = *right_ankle;
        tb.use_hinge = 1;
        tb.hinge_axis_ls = l->hinge_axis_ls;
        tb.min_bend = f->rig.limits.knee_min;
        tb.max_bend = f->rig.limits.knee_max;
        tb.use_pole = 1;
        tb.pole_ms = ik_humanoid_limb_pole(l, f->model, *right_ankle, fixture_limb_length(f, IK_LIMB_LEG_R));
        tb.start_rotation_ls = &f->pose[l->start].rotation;
        tb.mid_rotation_ls = &f->pose[l->mid].rotation;
        if (ik_two_bone_run(&tb) != IK_OK) return 0;
        ik_skeleton_fk(f->skeleton, f->pose, &f->root_ms, f->model);
        if (ik_vec3_distance(limb_end(f, IK_LIMB_LEG_R), *right_ankle) > (ik_real)1e-4 * leg) return 0;
        if (l->end >= 0) {
            int parent = f->skeleton->parents[l->end];
            f->pose[l->end].rotation = ik_quat_normalize(ik_skeleton_rotation_ls(ik_mat4_rotation(&f->model[parent]),
                                                                                 ik_mat4_det3(&f->model[parent]) < 0,
                                                                                 right_foot, f->pose[l->end].scale));
            ik_skeleton_fk(f->skeleton, f->pose, &f->root_ms, f->model);
        }
    }
    return 1;
}

static void check_four(fixture *f, int built, void *context) {
    four_stats *fs = (four_stats *)context;
    solver sv;
    ik_real leg = leg_of(f);
    ik_vec3 right_ankle;
    ik_quat right_foot;
    int cases = built ? 200 : 100, c, solved = 0, made = 0, tries = 0;
    int n = f->skeleton->joint_count;
    if (!solver_make(&sv, f)) return;
    fixture_reset(f);
    right_ankle = limb_end(f, IK_LIMB_LEG_R);
    right_foot = f->rig.limb[IK_LIMB_LEG_R].end >= 0 ? ik_mat4_rotation(&f->model[f->rig.limb[IK_LIMB_LEG_R].end])
                                                     : ik_quat_identity();
    search_seed = 777u;
    for (c = 0; made < cases && tries < cases * 5; ++c) {
        ik_vec3 targets[3];
        double worst = 0, lim;
        const char *what = "";
        ++tries;
        if (!random_pose(f, &right_ankle, right_foot)) continue;
        ++made;
        targets[0] = limb_end(f, IK_LIMB_ARM_L);
        targets[1] = limb_end(f, IK_LIMB_ARM_R);
        targets[2] = fixture_pos(f, f->rig.map.joint[IK_ROLE_HEAD]);
        sv.job.effector[IK_FB_FOOT_L].position_ms = limb_end(f, IK_LIMB_LEG_L);
        memcpy(f->pose, f->start, sizeof(ik_transform) * (size_t)n);
        sv.job.effector[IK_FB_HAND_L].enabled = sv.job.effector[IK_FB_HAND_R].enabled = 1;
        sv.job.effector[IK_FB_HEAD].enabled = sv.job.effector[IK_FB_FOOT_L].enabled = 1;
        sv.job.effector[IK_FB_HAND_L].position_ms = targets[0];
        sv.job.effector[IK_FB_HAND_R].position_ms = targets[1];
        sv.job.effector[IK_FB_HEAD].position_ms = targets[2];
        sv.job.effector[IK_FB_FOOT_R].pinned = 1;
        CHECK(ik_full_body_run(&sv.job) == IK_OK, "%s: run", f->label);
        worst = ik_maxr(ik_vec3_distance(limb_end(f, IK_LIMB_ARM_L), targets[0]),
                        ik_vec3_distance(limb_end(f, IK_LIMB_ARM_R), targets[1]));
        worst = fmax(worst, (double)ik_vec3_distance(fixture_pos(f, f->rig.map.joint[IK_ROLE_HEAD]), targets[2]));
        worst = fmax(worst,
                     (double)ik_vec3_distance(limb_end(f, IK_LIMB_LEG_L), sv.job.effector[IK_FB_FOOT_L].position_ms));
        worst = fmax(worst, (double)ik_vec3_distance(limb_end(f, IK_LIMB_LEG_R), right_ankle));
        worst /= (double)leg;
        if (worst <= 1e-3) ++solved;
        {
            /* a leg ending at a virtual ankle (robot.glb) measures its
             * ankle on a control joint outside the leg, which the solve
             * leaves where it is when the foot moves: no ankle to check */
            ik_humanoid keep = f->rig;
            if (f->rig.limb[IK_LIMB_LEG_L].end < 0) f->rig.limits.ankle_up = f->rig.limits.ankle_down = IK_PI;
            lim = limits_excess(f, &sv.job, &what);
            f->rig = keep;
        }
        /* every limit kept, the pinned ankle's too (the body stage's knee
         * model is a few degrees off for a leg turned in or out; the
         * finished leg is rolled back within, full_body.c keep_ankle) */
        if (lim > 1e-4) {
            ++fs->beyond;
            if (lim > fs->worst_beyond) fs->worst_beyond = lim;
            printf("four effectors %s: %s beyond its limit by %.3f deg\n", f->label, what, lim * 57.29578);
        }
        CHECK(lim <= 1e-4, "%s: %s beyond its limit by %g deg", f->label, what, lim * 57.3);
        CHECK(fixture_pose_finite(f), "%s: finite", f->label);
    }
    printf("four effectors %-24s %d of %d within 1e-3 leg lengths\n", f->label, solved, made);
    fs->cases += made;
    fs->solved += solved;
    solver_free(&sv);
}

static void test_four(void) {
    four_stats fs = {0, 0, 0, 0};
    fixture_each_rig(check_four, &fs);
    CHECK(fs.beyond == 0, "%d of %d cases beyond a limit", fs.beyond, fs.cases);
    printf("four effectors: %d of %d cases beyond a limit (worst %.2f deg)\n", fs.beyond, fs.cases,
           fs.worst_beyond * 57.29578);
    printf("four effectors: %d of %d (%.2f %%)\n", fs.solved, fs.cases, 100.0 * fs.solved / (fs.cases ? fs.cases : 1));
    CHECK(fs.cases > 0 && fs.solved >= 0.99 * fs.cases, "four effectors: %d of %d within 1e-3 leg lengths", fs.solved,
          fs.cases);
}

/* ---- frames ---------------------------------------------------------------------------------- */

/* A hand target swept ahead and a little to the side from 0.6 to 1.5 arm
 * lengths from the shoulder in steps of 1e-3 arm lengths, warm-started,
 * both feet pinned, balance on: no joint turns more than 2 degrees in a
 * step (up to 1.2 arm lengths the body brings the hand there; beyond, the
 * body stops at its limits and the arm stretches past full reach). Then
 * the frame at 1.2 arm lengths solved again cold from the start pose: the
 * body (pelvis, spine, chest, neck) lands within 0.02 rad of the warm
 * result. Further out, where the target is out of reach, the body's pose
 * follows its path (robot.glb's neck bends 30 degrees on the way out,
 * a cold solve finds another balance of the same walls). */
static void check_sweep(fixture *f, int built, void *context) {
    solver sv;
    ik_real leg = leg_of(f), arm = fixture_limb_length(f, IK_LIMB_ARM_L), step = (ik_real)1e-3 * arm;
    ik_vec3 shoulder, target, check_target = ik_vec3_zero();
    int n = f->skeleton->joint_count, i, j, frames, check_frame, near_joint = -1, far_joint = -1;
    double near_worst = 0, far_worst = 0;
    ik_transform *prev = (ik_transform *)malloc(sizeof(ik_transform) * (size_t)n);
    ik_transform *warm = (ik_transform *)malloc(sizeof(ik_transform) * (size_t)n);
    (void)built;
    (void)context;
    if (!solver_make(&sv, f)) return;
    fixture_reset(f);
    shoulder = fixture_pos(f, f->rig.limb[IK_LIMB_ARM_L].start);
    sv.job.effector[IK_FB_HAND_L].enabled = 1;
    sv.job.effector[IK_FB_FOOT_L].pinned = sv.job.effector[IK_FB_FOOT_R].pinned = 1;
    sv.job.balance = 1;
    frames = 900;
    check_frame = 600;
    for (i = 0; i <= frames; ++i) {
        target = ik_vec3_mad(
            shoulder, ik_vec3_normalize(ik_vec3_add(fixture_forward(f), ik_vec3_scale(fixture_left(f), (ik_real)0.3))),
            (ik_real)0.6 * arm + step * (ik_real)i);
        sv.job.effector[IK_FB_HAND_L].position_ms = target;
        memcpy(prev, f->pose, sizeof(ik_transform) * (size_t)n);
        CHECK(ik_full_body_run(&sv.job) == IK_OK, "%s: run", f->label);
        if (i == check_frame) {
            memcpy(warm, f->pose, sizeof(ik_transform) * (size_t)n);
            check_target = target;
        }
        if (i == 0) continue;
        for (j = 0; j < n; ++j) {
            double a = quat_gap(f->pose[j].rotation, prev[j].rotation);
            if (i <= check_frame && a > near_worst) near_worst = a, near_joint = j;
            if (i > check_frame && a > far_worst) far_worst = a, far_joint = j;
        }
    }
    CHECK(fixture_pose_finite(f), "%s: finite", f->label);
    printf(
        "sweep %-28s steps of %.2g leg lengths: largest turn per step %.3f deg to 1.2 arm lengths (%s), "
        "%.3f deg from 1.2 to 1.5 (%s)\n",
        f->label, (double)step / (double)leg, near_worst * 57.29578,
        near_joint >= 0 ? ik_skeleton_name(f->skeleton, near_joint) : "", far_worst * 57.29578,
        far_joint >= 0 ? ik_skeleton_name(f->skeleton, far_joint) : "");
    CHECK(near_worst < ik_rad(2) && far_worst < ik_rad(2), "%s: %g deg, %g deg in one step", f->label,
          near_worst * 57.29578, far_worst * 57.29578);
    /* warm and cold land together */
    {
        double gap = 0;
        static const int roles[4] = {IK_ROLE_HIPS, IK_ROLE_SPINE, IK_ROLE_CHEST, IK_ROLE_NECK};
        memcpy(f->pose, f->start, sizeof(ik_transform) * (size_t)n);
        sv.job.effector[IK_FB_HAND_L].position_ms = check_target;
        sv.job.iterations = 40;
        ik_full_body_run(&sv.job);
        /* the body's joints (an arm's roll about its own line follows its
         * path: two-bone keeps it) */
        for (j = 0; j < 4; ++j) {
            int joint = f->rig.map.joint[roles[j]];
            if (joint >= 0) gap = fmax(gap, quat_gap(f->pose[joint].rotation, warm[joint].rotation));
        }
        CHECK(gap < 0.02, "%s: warm and cold starts differ by %g rad", f->label, gap);
    }
    free(warm);
    free(prev);
    solver_free(&sv);
}

static void test_sweep(void) { fixture_each_rig(check_sweep, NULL); }

/* ---- rotations, pull, pins ------------------------------------------------------------ */

/* On every rig: a hand target with a rotation lands within 1e-3 leg
 * lengths and 1 degree; the hips turned 20 degrees about up and the chest
 * 15 degrees forward reach their rotations; a hand beyond reach with pull 0
 * leaves the body where the pinned feet alone put it (their legs within
 * the reach margin: a straight rest leg lowers the pelvis some 0.015 leg
 * lengths); a pinned hips effector holds the pelvis while a hand pulls. */
static void check_rotations(fixture *f, int built, void *context) {
    solver sv;
    ik_real leg = leg_of(f), arm = fixture_limb_length(f, IK_LIMB_ARM_L);
    ik_vec3 up = fixture_up(f), shoulder, target;
    int pelvis = f->rig.pelvis, chest = f->rig.map.joint[IK_ROLE_CHEST], hand = f->rig.limb[IK_LIMB_ARM_L].end;
    ik_quat want, hips_want, chest_want;
    ik_vec3 pelvis_at, chest_at;
    (void)built;
    (void)context;
    if (!solver_make(&sv, f) || hand < 0) {
        solver_free(&sv);
        return;
    }
    fixture_reset(f);
    shoulder = fixture_pos(f, f->rig.limb[IK_LIMB_ARM_L].start);
    pelvis_at = fixture_pos(f, pelvis);
    chest_at = fixture_pos(f, chest);
    /* a hand ahead and turned palm-down by 40 degrees about the body's left */
    target = ik_vec3_mad(shoulder, fixture_forward(f), (ik_real)0.7 * arm);
    want = ik_quat_mul(ik_quat_from_axis_angle(fixture_left(f), ik_rad(40)), ik_mat4_rotation(&f->model[hand]));
    sv.job.effector[IK_FB_HAND_L].enabled = 1;
    sv.job.effector[IK_FB_HAND_L].position_ms = target;
    sv.job.effector[IK_FB_HAND_L].use_rotation = 1;
    sv.job.effector[IK_FB_HAND_L].rotation_ms = want;
    sv.job.effector[IK_FB_FOOT_L].pinned = sv.job.effector[IK_FB_FOOT_R].pinned = 1;
    CHECK(ik_full_body_run(&sv.job) == IK_OK, "%s: run", f->label);
    CHECK(ik_vec3_distance(limb_end(f, IK_LIMB_ARM_L), target) <= (ik_real)1e-3 * leg &&
              quat_gap(ik_mat4_rotation(&f->model[hand]), want) < ik_rad(1) && sv.report.reached[IK_FB_HAND_L],
          "%s: hand with rotation: %g leg lengths, %g deg", f->label,
          (double)(ik_vec3_distance(limb_end(f, IK_LIMB_ARM_L), target) / leg),
          quat_gap(ik_mat4_rotation(&f->model[hand]), want) * 57.3);
    /* hips and chest rotations */
    fixture_reset(f);
    sv.job.effector[IK_FB_HAND_L].enabled = 0;
    hips_want = ik_quat_mul(ik_quat_from_axis_angle(up, ik_rad(20)), ik_mat4_rotation(&f->model[pelvis]));
    chest_want = ik_quat_mul(ik_quat_from_axis_angle(fixture_left(f), ik_rad(15)), ik_mat4_rotation(&f->model[chest]));
    sv.job.effector[IK_FB_HIPS].enabled = sv.job.effector[IK_FB_CHEST].enabled = 1;
    sv.job.effector[IK_FB_HIPS].position_ms = pelvis_at;
    sv.job.effector[IK_FB_HIPS].position_weight = 0;
    sv.job.effector[IK_FB_HIPS].use_rotation = 1;
    sv.job.effector[IK_FB_HIPS].rotation_ms = hips_want;
    sv.job.effector[IK_FB_CHEST].position_ms = chest_at;
    sv.job.effector[IK_FB_CHEST].position_weight = 0;
    sv.job.effector[IK_FB_CHEST].use_rotation = 1;
    sv.job.effector[IK_FB_CHEST].rotation_ms = chest_want;
    CHECK(ik_full_body_run(&sv.job) == IK_OK, "%s: run", f->label);
    CHECK(quat_gap(ik_mat4_rotation(&f->model[pelvis]), hips_want) < ik_rad(1) &&
              quat_gap(ik_mat4_rotation(&f->model[chest]), chest_want) < ik_rad(1),
          "%s: hips %g deg, chest %g deg off", f->label,
          quat_gap(ik_mat4_rotation(&f->model[pelvis]), hips_want) * 57.3,
          quat_gap(ik_mat4_rotation(&f->model[chest]), chest_want) * 57.3);
    CHECK(ik_vec3_distance(limb_end(f, IK_LIMB_LEG_L), fixture_end(f, IK_LIMB_LEG_L)) >= 0, "feet");
    sv.job.effector[IK_FB_HIPS].enabled = sv.job.effector[IK_FB_CHEST].enabled = 0;
    /* pull 0: the limb alone; the body stays where the feet alone leave it */
    fixture_reset(f);
    sv.job.effector[IK_FB_HAND_L].enabled = 0;
    CHECK(ik_full_body_run(&sv.job) == IK_OK, "%s: run", f->label);
    pelvis_at = fixture_pos(f, pelvis);
    chest_at = fixture_pos(f, chest);
    fixture_reset(f);
    sv.job.effector[IK_FB_HAND_L].enabled = 1;
    sv.job.effector[IK_FB_HAND_L].use_rotation = 0;
    sv.job.effector[IK_FB_HAND_L].position_ms = ik_vec3_mad(shoulder, fixture_forward(f), (ik_real)1.4 * arm);
    sv.job.effector[IK_FB_HAND_L].pull = 0;
    CHECK(ik_full_body_run(&sv.job) == IK_OK, "%s: run", f->label);
    CHECK(ik_vec3_distance(fixture_pos(f, pelvis), pelvis_at) < (ik_real)1e-4 * leg &&
              ik_vec3_distance(fixture_pos(f, chest), chest_at) < (ik_real)1e-4 * leg &&
              !sv.report.reached[IK_FB_HAND_L],
          "%s: pull 0 moved the body (pelvis %g, chest %g leg lengths)", f->label,
          (double)(ik_vec3_distance(fixture_pos(f, pelvis), pelvis_at) / leg),
          (double)(ik_vec3_distance(fixture_pos(f, chest), chest_at) / leg));
    /* pull 1 and the hips pinned: the hips stay, the trunk bends (from
     * the pose the feet alone leave, whose legs are within their margin:
     * pinned straight legs would pull the hips down) */
    fixture_reset(f);
    sv.job.effector[IK_FB_HAND_L].enabled = 0;
    CHECK(ik_full_body_run(&sv.job) == IK_OK, "%s: run", f->label);
    sv.job.effector[IK_FB_HAND_L].enabled = 1;
    sv.job.effector[IK_FB_HAND_L].pull = 1;
    sv.job.effector[IK_FB_HAND_L].position_ms = ik_vec3_mad(shoulder, fixture_forward(f), (ik_real)1.2 * arm);
    sv.job.effector[IK_FB_HIPS].pinned = 1;
    CHECK(ik_full_body_run(&sv.job) == IK_OK, "%s: run", f->label);
    CHECK(ik_vec3_distance(fixture_pos(f, pelvis), pelvis_at) < (ik_real)1e-3 * leg &&
              ik_vec3_distance(fixture_pos(f, chest), chest_at) > (ik_real)0.01 * leg,
          "%s: pinned hips moved %g leg lengths, the chest %g", f->label,
          (double)(ik_vec3_distance(fixture_pos(f, pelvis), pelvis_at) / leg),
          (double)(ik_vec3_distance(fixture_pos(f, chest), chest_at) / leg));
    solver_free(&sv);
}

static void test_rotations(void) { fixture_each_rig(check_rotations, NULL); }

/* ---- tiptoe ------------------------------------------------------------------------------ */

/* A hand target straight above the shoulder, both feet pinned with
 * allow_heel_lift, balance on. First with no goal and balance off: the
 * pelvis stays within 1e-4 leg lengths (flat pinned feet move it some
 * 0.015, printed); with balance on the heels stay down (under 1e-3 rad). Then how high the hand gets with flat feet and
 * on tiptoe (a target a quarter leg length above the flat reach), and a target halfway between, solved cold and again
 * warm from its own result (whose feet stand lifted): the hand lands within 1e-3 leg lengths; both heels rise (the
 * heel's contact point at least 0.01 leg lengths up); the toes' tips (the ball's contact point on a rig without toes)
 * stay within 1e-3 leg lengths of where they stood; every limit kept (ankles, toes); the centre of mass, measured here,
 * inside the report's support polygon, which no longer holds the heels' points and still holds the balls'; the warm
 * lift within 0.05 rad of the cold one. Strict on the built figure (the demo's); on the files' rigs the figures are
 * printed and only the toes, the limits, the balance and finiteness are checked (the body stage is not yet reliable
 * there on tiptoe: see docs/humanoid.md). */
static ik_vec3 sole_point(const fixture *f, int leg, ik_bool ball) {
    const ik_humanoid_limb *l = &f->rig.limb[leg];
    return ik_mat4_transform_point(&f->model[l->end], ball ? l->ball_ls : l->heel_ls);
}

static ik_vec3 toe_point(const fixture *f, int leg) {
    const ik_humanoid_limb *l = &f->rig.limb[leg];
    if (l->toe >= 0) return ik_mat4_transform_point(&f->model[l->toe], l->toe_tip_ls);
    return sole_point(f, leg, 1);
}

#define TIPTOE_CHECK(cond, ...) CHECK(!strict || (cond), __VA_ARGS__)
static void check_tiptoe(fixture *f, int built, void *context) {
    int strict = built;
    solver sv;
    ik_real leg = leg_of(f), arm = fixture_limb_length(f, IK_LIMB_ARM_L);
    ik_vec3 up = fixture_up(f), shoulder, target, toes[2], heels[2], balls[2], com;
    double flat_height, tip_height, lim, worst_toe = 0, rise[2], com_in, behind = 0;
    ik_real first_lift = 0;
    const char *what = "";
    int side, k, pass;
    (void)built;
    (void)context;
    if (f->rig.limb[IK_LIMB_LEG_L].end < 0 || f->rig.limb[IK_LIMB_LEG_R].end < 0) return;
    if (!solver_make(&sv, f)) return;
    fixture_reset(f);
    shoulder = fixture_pos(f, f->rig.limb[IK_LIMB_ARM_L].start);
    for (side = 0; side < 2; ++side) {
        toes[side] = toe_point(f, IK_LIMB_LEG_L + side);
        heels[side] = sole_point(f, IK_LIMB_LEG_L + side, 0);
        balls[side] = sole_point(f, IK_LIMB_LEG_L + side, 1);
    }
    /* no goal: the heels stay down */
    sv.job.effector[IK_FB_FOOT_L].pinned = sv.job.effector[IK_FB_FOOT_R].pinned = 1;
    sv.job.effector[IK_FB_FOOT_L].allow_heel_lift = sv.job.effector[IK_FB_FOOT_R].allow_heel_lift = 1;
    sv.job.balance = 1;
    {
        /* balance off, no goal: how far the pelvis goes (flat pinned feet:
         * the legs brought within the reach margin; tiptoe feet: a leg as
         * straight as the reference may stay so) */
        ik_vec3 pelvis_at = fixture_pos(f, f->rig.pelvis);
        double drop[2];
        for (k = 0; k < 2; ++k) {
            fixture_reset(f);
            sv.job.balance = 0;
            sv.job.effector[IK_FB_FOOT_L].allow_heel_lift = sv.job.effector[IK_FB_FOOT_R].allow_heel_lift = k;
            CHECK(ik_full_body_run(&sv.job) == IK_OK, "%s: run", f->label);
            drop[k] = (double)ik_vec3_distance(fixture_pos(f, f->rig.pelvis), pelvis_at) / (double)leg;
        }
        printf("tiptoe %-28s no goal, no balance: the pelvis moves %.2g leg lengths (flat feet), %.2g (tiptoe)\n",
               f->label, drop[0], drop[1]);
        CHECK(drop[1] < 1e-4, "%s: no goal on tiptoe, the pelvis moved %g leg lengths", f->label, drop[1]);
        fixture_reset(f);
        sv.job.balance = 1;
        CHECK(ik_full_body_run(&sv.job) == IK_OK, "%s: run", f->label);
    }
    TIPTOE_CHECK(sv.report.heel_lift[0] < 1e-3 && sv.report.heel_lift[1] < 1e-3 &&
                     ik_vec3_distance(sole_point(f, IK_LIMB_LEG_L, 0), heels[0]) < (ik_real)1e-4 * leg,
                 "%s: no goal, heels lifted %g, %g rad", f->label, (double)sv.report.heel_lift[0],
                 (double)sv.report.heel_lift[1]);
    /* how high the hand gets with flat feet */
    fixture_reset(f);
    sv.job.effector[IK_FB_FOOT_L].allow_heel_lift = sv.job.effector[IK_FB_FOOT_R].allow_heel_lift = 0;
    sv.job.effector[IK_FB_HAND_L].enabled = 1;
    sv.job.effector[IK_FB_HAND_L].position_ms = ik_vec3_mad(shoulder, up, 2 * arm);
    CHECK(ik_full_body_run(&sv.job) == IK_OK, "%s: run", f->label);
    flat_height = (double)ik_vec3_dot(limb_end(f, IK_LIMB_ARM_L), up);
    /* and on tiptoe: the target halfway between */
    fixture_reset(f);
    sv.job.effector[IK_FB_FOOT_L].allow_heel_lift = sv.job.effector[IK_FB_FOOT_R].allow_heel_lift = 1;
    sv.job.effector[IK_FB_HAND_L].position_ms =
        ik_vec3_add(ik_vec3_reject(limb_end(f, IK_LIMB_ARM_L), up), ik_vec3_scale(up, (ik_real)flat_height + leg / 4));
    fixture_reset(f);
    CHECK(ik_full_body_run(&sv.job) == IK_OK, "%s: run", f->label);
    tip_height = (double)ik_vec3_dot(limb_end(f, IK_LIMB_ARM_L), up);
    TIPTOE_CHECK(tip_height - flat_height > 0.02 * (double)leg, "%s: on tiptoe the hand reaches %g leg lengths higher",
                 f->label, (tip_height - flat_height) / (double)leg);
    target = ik_vec3_add(ik_vec3_reject(limb_end(f, IK_LIMB_ARM_L), up),
                         ik_vec3_scale(up, (ik_real)(0.5 * (flat_height + tip_height))));
    /* on tiptoe, cold then warm from its own result */
    fixture_reset(f);
    sv.job.effector[IK_FB_HAND_L].position_ms = target;
    for (pass = 0; pass < 2; ++pass) {
        CHECK(ik_full_body_run(&sv.job) == IK_OK, "%s: run", f->label);
        CHECK(fixture_pose_finite(f), "%s: finite", f->label);
        for (side = 0; side < 2; ++side) {
            double gap = (double)ik_vec3_distance(toe_point(f, IK_LIMB_LEG_L + side), toes[side]) / (double)leg;
            if (gap > worst_toe) worst_toe = gap;
            rise[side] =
                (double)ik_vec3_dot(ik_vec3_sub(sole_point(f, IK_LIMB_LEG_L + side, 0), heels[side]), up) / (double)leg;
        }
        TIPTOE_CHECK(ik_vec3_distance(limb_end(f, IK_LIMB_ARM_L), target) <= (ik_real)1e-3 * leg,
                     "%s: tiptoe hand %g leg lengths off (pass %d)", f->label,
                     (double)(ik_vec3_distance(limb_end(f, IK_LIMB_ARM_L), target) / leg), pass);
        CHECK(worst_toe <= (strict ? 1e-3 : 5e-3), "%s: toes moved %g leg lengths", f->label, worst_toe);
        TIPTOE_CHECK(rise[0] >= 0.01 && rise[1] >= 0.01, "%s: heels rose %g, %g leg lengths", f->label, rise[0],
                     rise[1]);
        lim = limits_excess(f, &sv.job, &what);
        CHECK(lim <= 1e-3, "%s: %s beyond its limit by %g deg", f->label, what, lim * 57.3);
        com = ik_body_mass_centre(&sv.mass, f->model);
        com_in = sv.report.support_count >= 3
                     ? inside_polygon(sv.report.support_ms, sv.report.support_count, com, up) / (double)leg
                     : -1;
        CHECK(com_in >= 0 && sv.report.balance == IK_BALANCE_KEPT, "%s: centre of mass %g leg lengths inside", f->label,
              com_in);
        /* the support shrank to the balls: the heels' points (where they
         * stood) lie outside it, the balls' on it or inside */
        for (k = 0; k < 2; ++k) {
            double heel_in = inside_polygon(sv.report.support_ms, sv.report.support_count, heels[k], up);
            double ball_in = inside_polygon(sv.report.support_ms, sv.report.support_count, balls[k], up);
            behind = fmax(behind, fmax(heel_in + 0.01 * (double)leg, -ball_in - 1e-4 * (double)leg));
        }
        TIPTOE_CHECK(behind <= 0, "%s: the support did not shrink to the balls (%g leg lengths)", f->label,
                     behind / (double)leg);
        if (pass == 1)
            TIPTOE_CHECK(fabs((double)(first_lift - sv.report.heel_lift[0])) < 0.05, "%s: warm lift %g, cold %g",
                         f->label, (double)sv.report.heel_lift[0], (double)first_lift);
        if (pass == 0) {
            printf(
                "tiptoe %-28s the hand %.3f leg lengths higher than flat; heels up %.3f, %.3f leg lengths (lift "
                "%.1f, %.1f deg); toes within %.1e; centre %.3f inside\n",
                f->label, (tip_height - flat_height) / (double)leg, rise[0], rise[1],
                (double)sv.report.heel_lift[0] * 57.29578, (double)sv.report.heel_lift[1] * 57.29578, worst_toe,
                com_in);
            first_lift = sv.report.heel_lift[0];
        }
    }
    solver_free(&sv);
}

#undef TIPTOE_CHECK

static void test_tiptoe(void) { fixture_each_rig(check_tiptoe, NULL); }

/* ---- bad input ---------------------------------------------------------------------------------- */

static void test_bad_input(void) {
    fixture f;
    solver sv;
    ik_full_body job;
    ik_transform before;
    ik_real nan = (ik_real)NAN;
    if (!fixture_built(&f) || !solver_make(&sv, &f)) {
        CHECK(0, "built rig");
        return;
    }
    fixture_reset(&f);
    before = f.pose[5];
    CHECK(ik_full_body_effector_find("left_hand", -1) == IK_FB_HAND_L, "left_hand");
    CHECK(ik_full_body_effector_find("chest", -1) == IK_FB_CHEST, "chest");
    CHECK(ik_full_body_effector_find("left_elbow", -1) == -1, "an unknown role");
    CHECK(ik_full_body_effector_find("left_forearm", -1) == -1, "a role that is no effector");
    CHECK(ik_full_body_effector_find(NULL, -1) == -1, "NULL");
    CHECK(ik_full_body_effector_of_role(IK_ROLE_TOE_L) == -1 && ik_full_body_effector_of_role(99) == -1, "roles");
    CHECK(strcmp(ik_full_body_effector_name(IK_FB_FOOT_R), "right_foot") == 0, "names");
    job = sv.job;
    job.effector[IK_FB_HAND_L].enabled = 1;
    job.effector[IK_FB_HAND_L].position_ms = ik_v3(nan, 0, 0);
    CHECK(ik_full_body_run(&job) == IK_ERR_NONFINITE, "NaN target");
    job.effector[IK_FB_HAND_L].position_ms = ik_v3(0, (ik_real)INFINITY, 0);
    CHECK(ik_full_body_run(&job) == IK_ERR_NONFINITE, "infinite target");
    job.effector[IK_FB_HAND_L].position_ms = ik_v3(0, 1, 0);
    job.effector[IK_FB_HAND_L].pull = 2;
    CHECK(ik_full_body_run(&job) == IK_ERR_RANGE, "pull 2");
    job.effector[IK_FB_HAND_L].pull = nan;
    CHECK(ik_full_body_run(&job) == IK_ERR_NONFINITE, "NaN pull");
    job = sv.job;
    job.stiffness[IK_FB_JOINT_SPINE] = 0;
    CHECK(ik_full_body_run(&job) == IK_ERR_RANGE, "no stiffness");
    job = sv.job;
    job.look_at = 1;
    job.look_target_ms = ik_v3(nan, 1, 1);
    CHECK(ik_full_body_run(&job) == IK_ERR_NONFINITE, "NaN look target");
    job = sv.job;
    job.scratch_bytes = 1;
    CHECK(ik_full_body_run(&job) == IK_ERR_CAPACITY, "short scratch");
    job = sv.job;
    job.balance = 1;
    job.mass = NULL;
    CHECK(ik_full_body_run(&job) == IK_ERR_NULL, "balance without a mass model");
    job = sv.job;
    job.iterations = 0;
    CHECK(ik_full_body_run(&job) == IK_ERR_RANGE, "no iterations");
    job = sv.job;
    job.defaulted = 0;
    CHECK(ik_full_body_run(&job) == IK_ERR_NOT_DEFAULTED, "not defaulted");
    job = sv.job;
    job.effector[IK_FB_HEAD].enabled = 1;
    job.effector[IK_FB_HEAD].use_rotation = 1;
    job.effector[IK_FB_HEAD].rotation_ms = ik_q(0, 0, 0, 0);
    CHECK(ik_full_body_run(&job) == IK_ERR_DEGENERATE, "zero rotation");
    CHECK(memcmp(&before, &f.pose[5], sizeof before) == 0, "nothing written on error");
    CHECK(ik_full_body_run(NULL) == IK_ERR_NULL, "NULL job");
    /* balance without a pinned foot: a clear report */
    job = sv.job;
    job.balance = 1;
    CHECK(ik_full_body_run(&job) == IK_OK && sv.report.balance == IK_BALANCE_NO_SUPPORT, "no support");
    {
        char text[512];
        ik_full_body_report_describe(&job, &sv.report, text, sizeof text);
        CHECK(strstr(text, "no foot is pinned") != NULL, "said: %s", text);
    }
    /* a pose that cannot balance: the hips dragged far ahead of the feet */
    fixture_reset(&f);
    job = sv.job;
    job.balance = 1;
    job.effector[IK_FB_FOOT_L].pinned = job.effector[IK_FB_FOOT_R].pinned = 1;
    job.effector[IK_FB_CHEST].enabled = 1;
    job.effector[IK_FB_CHEST].pinned = 1;
    job.effector[IK_FB_CHEST].position_ms =
        ik_vec3_mad(fixture_pos(&f, f.rig.map.joint[IK_ROLE_CHEST]), fixture_forward(&f), (ik_real)0.6);
    CHECK(ik_full_body_run(&job) == IK_OK && sv.report.balance == IK_BALANCE_LOST, "cannot balance: %d",
          (int)sv.report.balance);
    {
        char text[512];
        ik_full_body_report_describe(&job, &sv.report, text, sizeof text);
        CHECK(strstr(text, "not balanced") != NULL, "said: %s", text);
        printf("unbalanced: %s\n", text);
    }
    solver_free(&sv);
    fixture_free(&f);
}

/* The groups (support/test_groups.h), one a line: ctest runs each as
 * test_full_body.NAME. */
static const test_group groups[] = {
    TEST_GROUP(mass),        /* de Leva's model on every rig */
    TEST_GROUP(bad_input),   /* refused, nothing written; the report's words */
    TEST_GROUP(reach),       /* 0.5-1.5 arm lengths, against the search */
    TEST_GROUP(reach_twins), /* the same on mirrored and rescaled twins */
    TEST_GROUP(four),        /* hands, head and a foot from random poses */
    TEST_GROUP(rotations),   /* rotation goals, pull 0, pinned hips */
    TEST_GROUP(tiptoe),      /* a high reach lifts the heels, the toes held */
    TEST_GROUP_SLOW(sweep),  /* a hand through full reach, frame by frame */
};

int main(int argc, char **argv) {
    if (!test_groups_run(groups, (int)(sizeof groups / sizeof groups[0]), argc, argv)) return 1;
    return check_summary("test_full_body");
}

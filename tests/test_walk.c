/* The procedural walk (walk.h) on the built humanoid and every real rig
 * that maps as one, each as found, re-oriented Z-up, scaled 100 times and
 * under a mirroring root, on flat ground, a slope and stairs: every frame's
 * forward kinematics checked for planted feet that stay put, knees that
 * keep their side, joints inside the rig's limits, bone lengths, feet on or
 * above the ground, no jolts (no joint's second difference over frames, at
 * 60 frames per second, above 0.12 leg lengths: a pop shows as its own
 * size there, smooth walking stays under 0.06) and the distance walked.
 * Then bad input. */
#include <ikit/walk.h>

#include "support/rng.h"
#include "test_humanoid_fixture.h"

enum { GROUND_FLAT, GROUND_SLOPE, GROUND_STAIRS, GROUND_KINDS };
static const char *const ground_names[GROUND_KINDS] = {"flat", "slope", "stairs"};

/* A millimetre on a 0.9 m leg, in the rig's units. */
static ik_real millimetre(ik_real leg) { return leg / 900; }

typedef struct walk_run {
    fixture *f;
    ik_walk job;
    ik_take take;
    ik_ground ground;
    ik_mat4 frame, frame_inv;
    ik_real leg, cadence;
    const char *label;
} walk_run;

static ik_ground make_ground(int kind, ik_real leg) {
    ik_real a = ik_rad(10);
    if (kind == GROUND_SLOPE) return ik_ground_plane(ik_vec3_zero(), ik_v3(0, IK_COS(a), -IK_SIN(a)));
    if (kind == GROUND_STAIRS)
        return ik_ground_stairs(ik_v3(0, 0, (ik_real)0.5 * leg), ik_v3(0, 0, 1), (ik_real)0.14 * leg,
                                (ik_real)0.6 * leg, 6);
    return ik_ground_plane(ik_vec3_zero(), ik_v3(0, 1, 0));
}

/* A walk job on the fixture with the defaults, a take of `seconds` at 60
 * frames per second and the ground `ground` (copied into the run); the
 * caller may change the job before walk_execute. */
static int walk_prepare(walk_run *w, fixture *f, ik_ground ground, ik_real seconds, const char *label) {
    memset(w, 0, sizeof *w);
    w->f = f;
    w->label = label;
    w->job = ik_walk_def(&f->rig, &f->root_ms);
    w->leg = ik_maxr(fixture_limb_length(f, IK_LIMB_LEG_L), fixture_limb_length(f, IK_LIMB_LEG_R));
    w->ground = ground;
    w->job.ground = &w->ground;
    w->take.frame_time = (ik_real)1 / 60;
    w->take.frame_count = ik_take_frame_count(seconds, w->take.frame_time, 100000);
    w->take.joint_count = f->skeleton->joint_count;
    w->take.poses_ls =
        (ik_transform *)malloc(sizeof(ik_transform) * (size_t)w->take.frame_count * (size_t)w->take.joint_count);
    w->job.take = &w->take;
    w->job.model_ms = f->model;
    return w->take.poses_ls && ik_walk_frame(&f->rig, &f->root_ms, &w->frame) == IK_OK &&
           ik_mat4_inverse(&w->frame, &w->frame_inv);
}

static int walk_execute(walk_run *w) {
    ik_result r;
    w->cadence = ik_walk_cadence(&w->job);
    r = ik_walk_run(&w->job);
    CHECK(r == IK_OK, "%s: walk runs: %s", w->label, ik_result_str(r));
    return r == IK_OK;
}

/* Run a walk of `seconds` on ground `kind` (stairs with one tread a step). */
static int run_walk(walk_run *w, fixture *f, int kind, ik_real seconds, const char *label) {
    ik_real leg = ik_maxr(fixture_limb_length(f, IK_LIMB_LEG_L), fixture_limb_length(f, IK_LIMB_LEG_R));
    if (!walk_prepare(w, f, make_ground(kind, leg), seconds, label)) return 0;
    if (kind == GROUND_STAIRS) w->job.stride = (ik_real)1.2 * w->leg;
    return walk_execute(w);
}

static ik_vec3 in_walk(const walk_run *w, ik_vec3 p_ms) { return ik_mat4_transform_point(&w->frame_inv, p_ms); }

/* The ground's height under p; infinite (a foot below it) where there is
 * none. */
static ik_real ground_at(const walk_run *w, ik_vec3 p_w) {
    ik_real y = 0;
    return ik_ground_height_at(&w->ground, p_w.x, p_w.z, &y, NULL) ? y : IK_REAL_MAX;
}

/* A foot's contact points in the walk frame: heel, ball (or, for a virtual
 * ankle, the point below it) and the toes' tip. */
static int contacts(const walk_run *w, int leg, ik_vec3 *out) {
    const fixture *f = w->f;
    const ik_humanoid_limb *l = &f->rig.limb[leg];
    if (l->end < 0) {
        out[0] = in_walk(w, fixture_end(f, leg));
        out[0].y -= l->ankle_height * fixture_scale(f);
        return 1;
    }
    out[0] = in_walk(w, ik_mat4_transform_point(&f->model[l->end], l->heel_ls));
    out[1] = in_walk(w, ik_mat4_transform_point(&f->model[l->end], l->ball_ls));
    if (l->toe < 0) return 2;
    out[2] = in_walk(w, ik_mat4_transform_point(&f->model[l->toe], l->toe_tip_ls));
    return 3;
}

/* The ankle's dorsiflexion (humanoid.h's measure: sole against shin about
 * the foot's lateral axis, turned round under a mirroring root). */
static ik_real ankle_flexion(const fixture *f, int leg) {
    const ik_humanoid_limb *l = &f->rig.limb[leg];
    const ik_mat4 *m = &f->model[l->end];
    ik_real hand = ik_mat4_det3(&f->root_ms) < 0 ? -1 : 1;
    ik_vec3 sole = ik_vec3_sub(ik_mat4_transform_point(m, l->ball_ls), ik_mat4_transform_point(m, l->heel_ls));
    ik_vec3 shin = ik_vec3_sub(fixture_pos(f, l->mid), ik_mat4_translation(m));
    return ik_humanoid_ankle_angle(sole, shin,
                                   ik_vec3_scale(ik_vec3_normalize(ik_mat4_transform_vector(m, l->lateral_ls)), hand));
}

/* Every frame checked by forward kinematics (see the file's comment). A
 * foot is planted from its landing, phase 0 of its cycle (the right foot
 * half a cycle later), to stance_fraction: its last contact point (the
 * toes' tip, or the ball without toes: what a heel lift pivots on) must
 * hold all through, and its heel wherever it touches the ground (within a
 * millimetre): a heel may lift, but not slide. On a foot with toes the
 * ball's contact point is not held: it lies under the toe joint the foot
 * rolls about, so it rolls back as the heel rises (e sin(angle) for a toe
 * joint e above it), as the ball of a foot does. */
static void check_walk(walk_run *w) {
    fixture *f = w->f;
    const ik_skeleton *s = f->skeleton;
    ik_real mm = millimetre(w->leg), period = 2 / w->cadence, stance = w->job.stance_fraction;
    ik_real *rest_length = (ik_real *)malloc(sizeof(ik_real) * (size_t)s->joint_count);
    ik_vec3 planted[2][3], hips0 = ik_vec3_zero();
    int planted_cycle[2] = {-1000, -1000}, frame, j, side;
    ik_real worst_slide = 0, worst_sink = 0, worst_length = 0, worst_bend = 0, worst_flex = 0;
    int flips = 0, nonfinite = 0, stance_frames = 0;
    ik_vec3 *last = (ik_vec3 *)malloc(sizeof(ik_vec3) * 2 * (size_t)s->joint_count), *before = last + s->joint_count;
    ik_real worst_jump = 0;
    check_property prop = {w->label, 0, 0};
    ik_skeleton_fk(s, s->rest_ls, &f->root_ms, f->model);
    for (j = 0; j < s->joint_count; ++j)
        rest_length[j] = s->parents[j] >= 0 ? ik_vec3_distance(fixture_pos(f, j), fixture_pos(f, s->parents[j])) : 0;
    for (frame = 0; frame < w->take.frame_count; ++frame) {
        const ik_transform *pose = ik_take_pose(&w->take, frame);
        double t = frame * (double)w->take.frame_time;
        ik_skeleton_fk(s, pose, &f->root_ms, f->model);
        for (j = 0; j < s->joint_count; ++j) {
            if (!ik_transform_finite(pose[j]) || !ik_mat4_finite(&f->model[j])) ++nonfinite;
            if (s->parents[j] >= 0)
                worst_length = ik_maxr(
                    worst_length,
                    IK_FABS(ik_vec3_distance(fixture_pos(f, j), fixture_pos(f, s->parents[j])) - rest_length[j]));
        }
        if (frame == 0) hips0 = in_walk(w, fixture_pos(f, f->rig.map.joint[IK_ROLE_HIPS]));
        for (j = 0; j < s->joint_count; ++j) {
            ik_vec3 q = in_walk(w, fixture_pos(f, j));
            if (frame > 1)
                worst_jump = ik_maxr(worst_jump,
                                     ik_vec3_length(ik_vec3_add(ik_vec3_sub(q, ik_vec3_scale(last[j], 2)), before[j])));
            before[j] = last[j];
            last[j] = q;
        }
        for (side = 0; side < 2; ++side) {
            int leg = IK_LIMB_LEG_L + side, arm = IK_LIMB_ARM_L + side, n, k;
            double cycle = t / period + 0.5 * side, c = floor(cycle);
            ik_real phase = (ik_real)(cycle - c), bend = fixture_bend(f, leg), elbow = fixture_bend(f, arm);
            ik_vec3 p[3];
            n = contacts(w, leg, p);
            for (k = 0; k < n; ++k) worst_sink = ik_maxr(worst_sink, ground_at(w, p[k]) - p[k].y);
            /* knees and elbows: bent the natural way, within the rig's limits */
            if (bend < f->rig.limits.knee_min - (ik_real)1e-3 || elbow < f->rig.limits.elbow_min - (ik_real)1e-3)
                ++flips;
            worst_bend = ik_maxr(worst_bend, ik_maxr(bend - f->rig.limits.knee_max, elbow - f->rig.limits.elbow_max));
            if (f->rig.limb[leg].end >= 0) {
                ik_real flex = ankle_flexion(f, leg);
                worst_flex =
                    ik_maxr(worst_flex, ik_maxr(flex - f->rig.limits.ankle_up, -flex - f->rig.limits.ankle_down));
            }
            /* planted feet stay still: from the first frame of a stance (not one cut by the take's start) */
            if (phase < stance && (phase > 0 || c > 0) && (int)c != planted_cycle[side]) {
                if (phase * period < (ik_real)1.5 * w->take.frame_time && t > 0) {
                    planted_cycle[side] = (int)c;
                    for (k = 0; k < n; ++k) planted[side][k] = p[k];
                }
            } else if (phase < stance && (int)c == planted_cycle[side]) {
                ++stance_frames;
                for (k = 0; k < n; ++k) {
                    ik_bool touching = p[k].y - ground_at(w, p[k]) <= mm, pivot = k == n - 1 && n > 1;
                    if ((touching && (k == 0 || pivot)) || pivot)
                        worst_slide = ik_maxr(worst_slide, ik_vec3_distance(p[k], planted[side][k]));
                }
            }
        }
    }
    {
        ik_vec3 hips1 = in_walk(w, fixture_pos(f, f->rig.map.joint[IK_ROLE_HIPS]));
        ik_real went = hips1.z - hips0.z, want = w->job.speed * (ik_real)(w->take.frame_count - 1) * w->take.frame_time;
        CHECK(IK_FABS(went - want) <= (ik_real)1e-3 * w->leg, "%s: walked %g, want speed x time = %g", w->label,
              (double)went, (double)want);
    }
    PROPERTY_CASE(prop, nonfinite == 0, "%s: %d non-finite joints", w->label, nonfinite);
    PROPERTY_CASE(prop, stance_frames > 0 && worst_slide <= 5 * mm, "%s: a planted foot slid %g mm (%d stance frames)",
                  w->label, (double)(worst_slide / mm), stance_frames);
    PROPERTY_CASE(prop, flips == 0, "%s: %d frames with a knee or elbow bent the wrong way", w->label, flips);
    PROPERTY_CASE(prop, worst_bend <= (ik_real)1e-3, "%s: a knee or elbow %g deg past its limit", w->label,
                  (double)ik_deg(worst_bend));
    PROPERTY_CASE(prop, worst_flex <= ik_rad(1), "%s: an ankle %g deg past its limit", w->label,
                  (double)ik_deg(worst_flex));
    PROPERTY_CASE(prop, worst_length <= (ik_real)1e-4 * w->leg, "%s: a bone's length changed by %g leg lengths",
                  w->label, (double)(worst_length / w->leg));
    PROPERTY_CASE(prop, worst_jump <= (ik_real)0.12 * w->leg,
                  "%s: a joint jolts: its position's second difference reached %g leg lengths in a frame", w->label,
                  (double)(worst_jump / w->leg));
    PROPERTY_CASE(prop, worst_sink <= 2 * mm, "%s: a foot %g mm below the ground", w->label, (double)(worst_sink / mm));
    property_end(&prop);
    free(rest_length);
    free(last);
}

/* Each rig as found, Z-up, scaled 100 times and mirrored, on each ground. */
static int rigs_walked = 0;

static void walk_rig(fixture *f, int built, void *context) {
    ik_mat4 original = f->root_ms, variants[4];
    static const char *const variant_names[4] = {"as found", "Z-up", "x100", "mirrored"};
    int v, g;
    (void)built;
    (void)context;
    ++rigs_walked;
    printf("walking %s\n", f->label);
    variants[0] = ik_mat4_identity();
    variants[1] = ik_mat4_from_trs(ik_vec3_zero(), ik_quat_from_axis_angle(ik_v3(1, 0, 0), ik_rad(90)), ik_v3(1, 1, 1));
    variants[2] = ik_mat4_from_trs(ik_v3(3, -2, 1), ik_quat_identity(), ik_v3(100, 100, 100));
    variants[3] = ik_mat4_from_trs(ik_vec3_zero(), ik_quat_identity(), ik_v3(-1, 1, 1));
    for (v = 0; v < 4; ++v)
        for (g = 0; g < GROUND_KINDS; ++g) {
            walk_run w;
            char label[160];
            f->root_ms = ik_mat4_mul(&variants[v], &original);
            snprintf(label, sizeof label, "%s %s on %s", f->label, variant_names[v], ground_names[g]);
            if (run_walk(&w, f, g, 3, label)) check_walk(&w);
            free(w.take.poses_ls);
        }
    f->root_ms = original;
}

static void test_walks(void) { fixture_each_rig(walk_rig, NULL); }

/* Seeded random gaits on random ground (a slope up or down, stairs, a
 * height field of rolling hills) under a random one of the four roots, on
 * the built humanoid: the same checks as above. */
#define HILLS 48
static ik_real hills[HILLS * HILLS];

static void test_random_walks(void) {
    fixture f;
    rng r = rng_seeded(2026);
    ik_mat4 roots[4];
    int c;
    CHECK(fixture_built(&f), "built");
    roots[0] = ik_mat4_identity();
    roots[1] = ik_mat4_from_trs(ik_vec3_zero(), ik_quat_from_axis_angle(ik_v3(1, 0, 0), ik_rad(90)), ik_v3(1, 1, 1));
    roots[2] = ik_mat4_from_trs(ik_v3(3, -2, 1), ik_quat_identity(), ik_v3(100, 100, 100));
    roots[3] = ik_mat4_from_trs(ik_vec3_zero(), ik_quat_identity(), ik_v3(-1, 1, 1));
    for (c = 0; c < 48; ++c) {
        walk_run w;
        char label[200];
        ik_real leg, cell;
        ik_ground ground;
        int kind = c % 4, i, j;
        f.root_ms = roots[(c / 4) % 4];
        leg = fixture_limb_length(&f, IK_LIMB_LEG_L);
        cell = (ik_real)0.15 * leg;
        if (kind == 0) {
            ik_real a = ik_rad(rng_range(&r, -12, 12));
            ground = ik_ground_plane(ik_vec3_zero(), ik_v3(0, IK_COS(a), -IK_SIN(a)));
        } else if (kind == 1) {
            ground = ik_ground_stairs(ik_v3(0, 0, rng_range(&r, 0.2, 0.8) * leg), ik_v3(0, 0, 1),
                                      rng_range(&r, 0.05, 0.18) * leg, rng_range(&r, 0.45, 0.8) * leg, 8);
        } else {
            /* hills: two crossed sine waves, up to 0.04 leg lengths high, a quarter to two legs long */
            ik_real amp = rng_range(&r, 0.005, 0.04) * leg, kx = rng_range(&r, 0.5, 4) / leg,
                    kz = rng_range(&r, 0.5, 4) / leg;
            for (j = 0; j < HILLS; ++j)
                for (i = 0; i < HILLS; ++i)
                    hills[j * HILLS + i] = amp * (IK_SIN(kx * (ik_real)i * cell) + IK_SIN(kz * (ik_real)j * cell + 1)) +
                                           (kind == 3 ? (ik_real)j * cell * (ik_real)0.1 : 0);
            ground = ik_ground_height_field(ik_v3(-(ik_real)0.5 * HILLS * cell, 0, -leg), cell, HILLS, HILLS, hills);
        }
        snprintf(label, sizeof label, "random case %d (ground %d, root %d)", c, kind, (c / 4) % 4);
        if (!walk_prepare(&w, &f, ground, 3, label)) {
            CHECK(0, "%s: prepared", label);
            free(w.take.poses_ls);
            continue;
        }
        w.job.speed = rng_range(&r, 0.6, 1.5) * leg;
        w.job.stride = rng_range(&r, 0.7, 1.4) * leg;
        if (kind == 1) w.job.stride = 2 * w.ground.run; /* one tread a step */
        w.job.step_height = rng_range(&r, 0.03, 0.15) * leg;
        w.job.stance_fraction = rng_range(&r, 0.55, 0.75);
        w.job.bob = rng_range(&r, 0, 0.04) * leg;
        w.job.sway = rng_range(&r, 0, 0.04) * leg;
        w.job.arm_swing = ik_rad(rng_range(&r, 0, 40));
        w.job.toe_off = ik_rad(rng_range(&r, 0, 35));
        if (walk_execute(&w)) check_walk(&w);
        free(w.take.poses_ls);
    }
    fixture_free(&f);
}

/* Degenerate but valid: one frame, no lift, no bob, sway, arm swing or
 * toe-off, and the slowest stride; each walks and passes the checks. */
static void test_degenerate_walks(void) {
    fixture f;
    walk_run w;
    CHECK(fixture_built(&f), "built");
    if (walk_prepare(&w, &f, make_ground(GROUND_FLAT, 1), 0, "one frame") && walk_execute(&w))
        CHECK(w.take.frame_count == 1 && ik_transform_finite(ik_take_pose(&w.take, 0)[0]), "one frame walks");
    free(w.take.poses_ls);
    if (walk_prepare(&w, &f, make_ground(GROUND_FLAT, 1), 2, "still parts")) {
        w.job.step_height = w.job.bob = w.job.sway = w.job.arm_swing = w.job.toe_off = 0;
        if (walk_execute(&w)) check_walk(&w);
    }
    free(w.take.poses_ls);
    if (walk_prepare(&w, &f, make_ground(GROUND_FLAT, 1), 2, "tiny stride")) {
        w.job.stride = (ik_real)0.01 * w.leg;
        w.job.speed = (ik_real)0.01 * w.leg;
        if (walk_execute(&w)) check_walk(&w);
    }
    free(w.take.poses_ls);
    fixture_free(&f);
}

/* Bad input: each gets its error and a message, and the take is untouched. */
static void test_bad_input(void) {
    fixture f;
    ik_walk job;
    ik_take take;
    ik_transform poses[4 * IK_HUMANOID_BUILT_JOINTS];
    const char *problem = NULL;
    ik_real nan = (ik_real)NAN, leg;
    int i;
    CHECK(fixture_built(&f), "built");
    leg = fixture_limb_length(&f, IK_LIMB_LEG_L);
    take.frame_count = 4;
    take.joint_count = f.skeleton->joint_count;
    take.frame_time = (ik_real)1 / 30;
    take.poses_ls = poses;
    {
        struct {
            const char *name;
            ik_real *field;
            ik_real value;
            ik_result want;
        } cases[] = {
            {"zero speed", &job.speed, 0, IK_ERR_RANGE},
            {"negative speed", &job.speed, -1, IK_ERR_RANGE},
            {"NaN speed", &job.speed, nan, IK_ERR_NONFINITE},
            {"negative stride", &job.stride, -1, IK_ERR_RANGE},
            {"NaN stride", &job.stride, nan, IK_ERR_NONFINITE},
            {"zero stride", &job.stride, 0, IK_ERR_RANGE},
            {"huge stride", &job.stride, 3 * leg, IK_ERR_RANGE},
            {"step too high", &job.step_height, leg, IK_ERR_RANGE},
            {"negative step", &job.step_height, -1, IK_ERR_RANGE},
            {"NaN bob", &job.bob, nan, IK_ERR_NONFINITE},
        };
        for (i = 0; i < (int)(sizeof cases / sizeof cases[0]); ++i) {
            ik_result r;
            job = ik_walk_def(&f.rig, &f.root_ms);
            job.take = &take;
            job.model_ms = f.model;
            memset(poses, 0xab, sizeof poses);
            *cases[i].field = cases[i].value;
            problem = NULL;
            r = ik_walk_validate(&job, &problem);
            CHECK(r == cases[i].want && problem && problem[0], "%s: %s (%s)", cases[i].name, ik_result_str(r),
                  problem ? problem : "no message");
            CHECK(ik_walk_run(&job) == cases[i].want && ((unsigned char *)poses)[0] == 0xab,
                  "%s: run refuses, take untouched", cases[i].name);
        }
    }
    job = ik_walk_def(&f.rig, &f.root_ms);
    job.take = &take;
    job.model_ms = f.model;
    job.cadence = 5; /* with the default stride: disagrees with the speed */
    CHECK(ik_walk_validate(&job, &problem) == IK_ERR_RANGE && strstr(problem, "disagree"),
          "stride and cadence disagree");
    job.stride = 0; /* cadence alone gives the stride */
    CHECK(ik_walk_validate(&job, NULL) == IK_OK && IK_FABS(ik_walk_cadence(&job) - 5) < 1e-5, "cadence alone");
    job.rig = NULL;
    CHECK(ik_walk_run(&job) == IK_ERR_NULL, "no rig");
    job = ik_walk_def(&f.rig, &f.root_ms);
    job.model_ms = f.model;
    CHECK(ik_walk_run(&job) == IK_ERR_NULL, "no take");
    job.take = &take;
    take.frame_time = 0;
    CHECK(ik_walk_run(&job) == IK_ERR_RANGE, "zero frame time");
    take.frame_time = (ik_real)1 / 30;
    take.joint_count = 3;
    CHECK(ik_walk_run(&job) == IK_ERR_RANGE, "joint count not the skeleton's");
    take.joint_count = f.skeleton->joint_count;
    {
        ik_walk plain;
        memset(&plain, 0, sizeof plain);
        CHECK(ik_walk_run(&plain) == IK_ERR_NOT_DEFAULTED, "a job not made by ik_walk_def");
    }
    {
        ik_mat4 flat = ik_mat4_from_trs(ik_vec3_zero(), ik_quat_identity(), ik_v3(1, 0, 1));
        job.root_ms = &flat;
        CHECK(ik_walk_run(&job) == IK_ERR_DEGENERATE, "a singular root");
        job.root_ms = &f.root_ms;
    }
    {
        ik_ground bad = ik_ground_stairs(ik_vec3_zero(), ik_v3(0, 0, 1), 1, 0, 3);
        job.ground = &bad;
        CHECK(ik_walk_run(&job) == IK_ERR_RANGE, "stairs without a run");
        job.ground = NULL;
    }
    CHECK(ik_walk_run(&job) == IK_OK, "the job runs once mended");
    fixture_free(&f);
}

/* A skeleton that is no humanoid (a chain) does not map, so no rig. */
static void test_not_humanoid(void) {
    int parents[4] = {-1, 0, 1, 2};
    const char *names[4] = {"base", "link1", "link2", "tip"};
    ik_transform rest[4];
    ik_skeleton s;
    ik_humanoid_map map;
    int i;
    for (i = 0; i < 4; ++i) rest[i] = ik_transform_make(ik_v3(0, i ? 1 : 0, 0), ik_quat_identity(), ik_v3(1, 1, 1));
    CHECK(ik_skeleton_init(&s, 4, parents, names, rest, NULL) == IK_OK, "chain");
    CHECK(ik_humanoid_map_find(&s, NULL, 0, &map) == IK_ERR_NOT_FOUND, "a chain does not map as a humanoid");
}

int main(void) {
    test_walks();
    test_random_walks();
    test_degenerate_walks();
    test_bad_input();
    test_not_humanoid();
    return check_summary("test_walk");
}

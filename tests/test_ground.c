/* Ground shapes and feet on the ground: ray casts against planes, height
 * fields, stairs and callbacks; then the humanoid standing on a 10 degree
 * slope, a bumpy height field and a stair step (both feet on the ground,
 * soles along the normal), and on a steep slope (heel lift), also under
 * mirroring roots and as a mirrored rig. */
#include <ikit/ground.h>
#include <ikit/humanoid.h>
#include <math.h>

#include "support/check.h"
#include "support/rng.h"
#include "test_humanoid_fixture.h"

#ifdef IKIT_DOUBLE
#define TOL 1e-9
#else
#define TOL 2e-4
#endif

static void test_casts(void) {
    ik_ground g = ik_ground_plane(ik_v3(0, 1, 0), ik_v3(0, 2, 0)), bad;
    ik_ground_hit hit;
    ik_real h, heights[9] = {0, 0, 0, 0, 1, 0, 0, 0, 0};
    ik_vec3 n;
    CHECK(ik_ground_cast(&g, ik_v3(3, 5, 2), ik_v3(0, -1, 0), 10, &hit) && fabs(hit.distance - 4) < TOL &&
              ik_vec3_distance(hit.normal_ms, ik_v3(0, 1, 0)) < TOL,
          "plane");
    CHECK(!ik_ground_cast(&g, ik_v3(3, 5, 2), ik_v3(0, 1, 0), 10, &hit) &&
              !ik_ground_cast(&g, ik_v3(3, 5, 2), ik_v3(0, -1, 0), 3, &hit),
          "plane misses");
    g = ik_ground_plane(ik_vec3_zero(), ik_v3(-IK_SIN(ik_rad(10)), IK_COS(ik_rad(10)), 0));
    CHECK(ik_ground_height_at(&g, 1, 0, &h, &n) && fabs(h - IK_SIN(ik_rad(10)) / IK_COS(ik_rad(10))) < TOL, "slope");
    /* height field: a bump of 1 at the centre sample, bilinear around it */
    g = ik_ground_height_field(ik_v3(-1, 0, -1), 1, 3, 3, heights);
    CHECK(ik_ground_height_at(&g, 0, 0, &h, NULL) && fabs(h - 1) < TOL, "peak");
    CHECK(ik_ground_height_at(&g, (ik_real)0.5, 0, &h, &n) && fabs(h - (ik_real)0.5) < TOL && n.x > 0 && n.y > 0,
          "flank: %g", (double)h);
    CHECK(ik_ground_height_at(&g, 5, 5, &h, &n) && fabs(h) < TOL && ik_vec3_distance(n, ik_v3(0, 1, 0)) < TOL,
          "flat outside");
    CHECK(ik_ground_cast(&g, ik_v3((ik_real)0.25, 3, 0), ik_v3(0, -1, 0), 10, &hit) &&
              fabs(hit.point_ms.y - (ik_real)0.75) < TOL,
          "vertical ray");
    /* a slanted ray, marched and bisected, lands on the surface */
    CHECK(ik_ground_cast(&g, ik_v3(-2, 3, 0), ik_v3(1, -1, 0), 10, &hit) &&
              ik_ground_height_at(&g, hit.point_ms.x, hit.point_ms.z, &h, NULL) && fabs(hit.point_ms.y - h) < 1e-3,
          "slanted ray");
    /* stairs: three steps of 0.2 over treads of 0.3 along +z from z = 1 */
    g = ik_ground_stairs(ik_v3(0, 0, 1), ik_v3(0, 0, 2), (ik_real)0.2, (ik_real)0.3, 3);
    CHECK(ik_ground_height_at(&g, 0, (ik_real)0.9, &h, NULL) && fabs(h) < TOL, "before");
    CHECK(ik_ground_height_at(&g, 0, (ik_real)1.1, &h, NULL) && fabs(h - (ik_real)0.2) < TOL, "step 1");
    CHECK(ik_ground_height_at(&g, 0, (ik_real)1.65, &h, NULL) && fabs(h - (ik_real)0.6) < TOL, "step 3");
    CHECK(ik_ground_height_at(&g, 0, 50, &h, NULL) && fabs(h - (ik_real)0.6) < TOL, "top");
    CHECK(ik_ground_cast(&g, ik_v3(0, (ik_real)0.3, 0), ik_v3(0, 0, 1), 5, &hit) &&
              fabs(hit.point_ms.z - (ik_real)1.3) < 1e-3,
          "a level ray passes the first step and meets the second riser: %g", (double)hit.point_ms.z);
    /* validation */
    bad = ik_ground_plane(ik_vec3_zero(), ik_vec3_zero());
    CHECK(ik_ground_validate(&bad) == IK_ERR_DEGENERATE &&
              !ik_ground_cast(&bad, ik_vec3_zero(), ik_v3(0, -1, 0), 1, &hit),
          "zero normal");
    bad = ik_ground_height_field(ik_vec3_zero(), 0, 3, 3, heights);
    CHECK(ik_ground_validate(&bad) == IK_ERR_RANGE, "cell");
    heights[2] = NAN;
    bad = ik_ground_height_field(ik_vec3_zero(), 1, 3, 3, heights);
    CHECK(ik_ground_validate(&bad) == IK_ERR_NONFINITE, "nan height");
    /* Casts read only the samples under the ray: the NaN sample at x = 2,
     * z = 0 is a miss there, and the cell at the far corner still answers. */
    hit.distance = -1;
    CHECK(!ik_ground_cast(&bad, ik_v3(2, 5, 0), ik_v3(0, -1, 0), 10, &hit) && hit.distance == -1 &&
              !ik_ground_height_at(&bad, (ik_real)1.5, (ik_real)0.5, &h, NULL),
          "a NaN sample under the ray is a miss, nothing written");
    CHECK(ik_ground_cast(&bad, ik_v3(0, 5, 2), ik_v3(0, -1, 0), 10, &hit) && ik_vec3_finite(hit.point_ms) &&
              fabs(hit.point_ms.y - heights[6]) < TOL,
          "a cell away from the NaN sample still gives its height");
    bad = ik_ground_height_field(ik_vec3_zero(), 1, 3, 3, NULL);
    CHECK(ik_ground_validate(&bad) == IK_ERR_NULL && ik_ground_validate(NULL) == IK_ERR_NULL, "null");
    bad = ik_ground_callback(NULL, NULL);
    CHECK(ik_ground_validate(&bad) == IK_ERR_NULL, "no callback");
    g = ik_ground_plane(ik_vec3_zero(), ik_v3(0, 1, 0));
    CHECK(!ik_ground_cast(&g, ik_v3(0, NAN, 0), ik_v3(0, -1, 0), 1, &hit) &&
              !ik_ground_cast(&g, ik_v3(0, 1, 0), ik_vec3_zero(), 2, &hit),
          "bad rays");
}

/* A bumpy analytic ground for the callback: y = A sin(kx x) cos(kz z). */
typedef struct bumps {
    ik_real amplitude, kx, kz;
} bumps;

static ik_real bumps_height(const bumps *b, ik_real x, ik_real z) {
    return b->amplitude * IK_SIN(b->kx * x) * IK_COS(b->kz * z);
}

static ik_bool bumps_cast(void *user, ik_vec3 o, ik_vec3 d, ik_real max_distance, ik_ground_hit *hit) {
    const bumps *b = (const bumps *)user;
    ik_real y = bumps_height(b, o.x, o.z);
    (void)d;
    if (o.y < y || o.y - y > max_distance) return 0;
    hit->point_ms = ik_v3(o.x, y, o.z);
    hit->distance = o.y - y;
    hit->normal_ms = ik_vec3_normalize(ik_v3(-b->amplitude * b->kx * IK_COS(b->kx * o.x) * IK_COS(b->kz * o.z), 1,
                                             b->amplitude * b->kz * IK_SIN(b->kx * o.x) * IK_SIN(b->kz * o.z)));
    return 1;
}

/* Ground height and normal under a point, straight down. */
static ik_bool ground_under(const ik_ground *g, ik_vec3 p, ik_real span, ik_ground_hit *hit) {
    return ik_ground_cast(g, ik_v3(p.x, p.y + span, p.z), ik_v3(0, -1, 0), 4 * span, hit);
}

/* When set, stand() also solves this mirrored twin (fixture_twin_of) on
 * the ground seen through its map and checks it (stand_twin_check). */
static fixture_twin *stand_twin = NULL;

/* The twin's job, the original's mapped: every joint within 1e-3 leg
 * lengths of the mapped original and the feet turned within 0.5 degrees;
 * and by forward kinematics in the twin's own space, along its up: both
 * feet grounded and reached, heel and ball never under the mapped ground
 * by more than 1e-3 leg lengths and one of them on it, knees bent forward
 * (or straight), nothing non-finite. */
static void stand_twin_check(fixture *f, const ik_humanoid_solve *job, const char *what) {
    fixture_twin *t = stand_twin;
    fixture_mapped_ground store;
    ik_ground mapped_ground = fixture_map_ground(job->ground, &t->map, &store);
    ik_humanoid_report report;
    ik_humanoid_solve mapped = fixture_map_job(job, t, &mapped_ground);
    ik_vec3 up = fixture_up(&t->f), fwd = fixture_forward(&t->f);
    ik_real gap, turn;
    int side;
    fixture_reset(&t->f);
    mapped.report = &report;
    CHECK(ik_humanoid_solve_run(&mapped) == IK_OK && fixture_pose_finite(&t->f), "%s %s: solve", t->f.label, what);
    gap = fixture_twin_gap(f, t, &turn);
    CHECK(gap <= (ik_real)1e-3 && turn <= ik_rad((ik_real)0.5),
          "%s %s: a joint %g leg lengths off the mapped original, a foot turned %g deg", t->f.label, what, (double)gap,
          (double)ik_deg(turn));
    for (side = 0; side < 2; ++side) {
        int limb = IK_LIMB_LEG_L + side;
        const ik_humanoid_limb *l = &t->f.rig.limb[limb];
        ik_real leg = fixture_limb_length(&t->f, limb), tol = (ik_real)1e-3 * leg, gaps[2];
        ik_vec3 hip = fixture_pos(&t->f, l->start), ankle = fixture_end(&t->f, limb), knee, points[2];
        int k;
        CHECK(report.grounded[side] && report.reached[limb], "%s %s leg %d: grounded %d reached %d", t->f.label, what,
              side, report.grounded[side], report.reached[limb]);
        knee = ik_vec3_reject(ik_vec3_sub(fixture_pos(&t->f, l->mid), hip), ik_vec3_normalize(ik_vec3_sub(ankle, hip)));
        CHECK(ik_vec3_dot(knee, fwd) >= -tol, "%s %s leg %d: knee %g behind the hip-ankle line", t->f.label, what, side,
              (double)-ik_vec3_dot(knee, fwd));
        if (l->end < 0) continue;
        points[0] = ik_mat4_transform_point(&t->f.model[l->end], l->heel_ls);
        points[1] = ik_mat4_transform_point(&t->f.model[l->end], l->ball_ls);
        for (k = 0; k < 2; ++k) {
            ik_ground_hit hit;
            gaps[k] = ik_ground_cast(&mapped_ground, ik_vec3_mad(points[k], up, leg), ik_vec3_neg(up), 4 * leg, &hit)
                          ? ik_vec3_dot(ik_vec3_sub(points[k], hit.point_ms), up)
                          : -1;
        }
        CHECK(gaps[0] >= -tol && gaps[1] >= -tol && ik_minr(gaps[0], gaps[1]) <= tol,
              "%s %s leg %d: heel gap %g, ball gap %g, tolerance %g", t->f.label, what, side, (double)gaps[0],
              (double)gaps[1], (double)tol);
    }
}

/* Stand on `g`: both feet grounded, a contact point (heel or ball) on the
 * surface within 1e-3 of the leg length and none below it; soles along the
 * normal within 2 degrees unless the heel lifted, and then the ball on the
 * ground and the heel above it; the toes' tip never under the ground, and
 * with `toes_follow` on it (seed 001: the toes bend to stay on the ground).
 * Returns how many heels lifted. */
static int stand(fixture *f, const ik_ground *g, const char *what, ik_bool expect_lift, ik_bool toes_follow) {
    ik_humanoid_solve job = ik_humanoid_solve_def();
    ik_humanoid_report report;
    int side, lifted = 0;
    fixture_reset(f);
    fixture_bind_job(f, &job);
    job.ground = g;
    job.report = &report;
    CHECK(ik_humanoid_solve_run(&job) == IK_OK && fixture_pose_finite(f), "%s %s: solve", f->label, what);
    ik_skeleton_fk(f->skeleton, f->pose, &f->root_ms, f->model);
    for (side = 0; side < 2; ++side) {
        int limb = IK_LIMB_LEG_L + side;
        const ik_humanoid_limb *l = &f->rig.limb[limb];
        ik_real leg = fixture_limb_length(f, limb), tol = (ik_real)1e-3 * leg;
        ik_vec3 heel, ball;
        ik_ground_hit heel_hit, ball_hit;
        ik_real heel_gap, ball_gap;
        CHECK(report.grounded[side] && report.reached[limb], "%s %s leg %d: grounded %d reached %d (residual %g)",
              f->label, what, side, report.grounded[side], report.reached[limb], (double)report.residual[limb]);
        if (l->end < 0) {
            ik_vec3 ankle = fixture_end(f, limb);
            CHECK(ground_under(g, ankle, leg, &heel_hit) &&
                      fabs((double)(ankle.y - heel_hit.point_ms.y - l->ankle_height * fixture_scale(f))) <= (double)tol,
                  "%s %s leg %d: virtual ankle on the ground", f->label, what, side);
            continue;
        }
        heel = ik_mat4_transform_point(&f->model[l->end], l->heel_ls);
        ball = ik_mat4_transform_point(&f->model[l->end], l->ball_ls);
        if (!ground_under(g, heel, leg, &heel_hit) || !ground_under(g, ball, leg, &ball_hit)) {
            CHECK(0, "%s %s leg %d: no ground under the foot", f->label, what, side);
            continue;
        }
        heel_gap = heel.y - heel_hit.point_ms.y;
        ball_gap = ball.y - ball_hit.point_ms.y;
        CHECK(heel_gap >= -tol && ball_gap >= -tol && ik_minr(heel_gap, ball_gap) <= tol,
              "%s %s leg %d: heel gap %g, ball gap %g, tolerance %g", f->label, what, side, (double)heel_gap,
              (double)ball_gap, (double)tol);
        if (l->toe >= 0) {
            ik_vec3 tip = ik_mat4_transform_point(&f->model[l->toe], l->toe_tip_ls);
            ik_ground_hit tip_hit;
            ik_real tip_gap = ground_under(g, tip, leg, &tip_hit) ? tip.y - tip_hit.point_ms.y : -1;
            CHECK(tip_gap >= -tol && (!toes_follow || tip_gap <= tol), "%s %s leg %d: toe tip %g above the ground",
                  f->label, what, side, (double)tip_gap);
        }
        if (report.heel_lifted[side]) {
            ++lifted;
            CHECK(ball_gap <= tol && heel_gap > tol, "%s %s leg %d: lifted heel %g, ball %g", f->label, what, side,
                  (double)heel_gap, (double)ball_gap);
        } else {
            ik_vec3 sole = ik_vec3_normalize(ik_mat4_transform_vector(&f->model[l->end], l->sole_up_ls));
            ik_real angle = ik_quat_angle(ik_quat_from_to(sole, heel_hit.normal_ms));
            CHECK(angle <= ik_rad(2), "%s %s leg %d: sole %g deg off the normal", f->label, what, side,
                  (double)ik_deg(angle));
        }
    }
    if (expect_lift) CHECK(lifted > 0, "%s %s: a heel lifted", f->label, what);
    if (stand_twin) stand_twin_check(f, &job, what);
    return lifted;
}

/* Grounds placed under the rig at rest, scaled to its leg length. */
static void stand_everywhere(fixture *f) {
    ik_vec3 up = fixture_up(f), fwd = fixture_forward(f);
    ik_real leg = fixture_limb_length(f, IK_LIMB_LEG_L), floor_y, heights[41 * 41];
    ik_vec3 floor_point = ik_mat4_transform_point(&f->root_ms, ik_vec3_scale(f->rig.up_rs, f->rig.floor_rs));
    ik_vec3 mid =
        ik_vec3_scale(ik_vec3_add(fixture_end(f, IK_LIMB_LEG_L), fixture_end(f, IK_LIMB_LEG_R)), (ik_real)0.5);
    ik_ground g;
    bumps b;
    int i, k;
    if (fabs((double)up.y) < 0.99) {
        check_skip("ground tests need a +Y-up model space");
        return;
    }
    floor_y = floor_point.y;
    /* 10 degree slopes rising forward, sideways and backward */
    for (i = 0; i < 3; ++i) {
        ik_real a = ik_rad(10);
        ik_vec3 n = i == 0 ? ik_vec3_mad(ik_vec3_scale(up, IK_COS(a)), fwd, -IK_SIN(a))
                           : (i == 1 ? ik_vec3_mad(ik_vec3_scale(up, IK_COS(a)), fixture_left(f), IK_SIN(a))
                                     : ik_vec3_mad(ik_vec3_scale(up, IK_COS(a)), fwd, IK_SIN(a)));
        g = ik_ground_plane(ik_v3(mid.x, floor_y, mid.z), n);
        stand(f, &g, i == 0 ? "slope up" : (i == 1 ? "slope sideways" : "slope down"), 0, 1);
    }
    /* a bumpy height field (bumps of 0.02 leg lengths, slopes up to 8 degrees) */
    for (k = 0; k < 41; ++k)
        for (i = 0; i < 41; ++i)
            heights[k * 41 + i] =
                (ik_real)0.02 * leg * IK_SIN((ik_real)i * (ik_real)0.35) * IK_COS((ik_real)k * (ik_real)0.3);
    g = ik_ground_height_field(ik_v3(mid.x - leg, floor_y, mid.z - leg), leg / 20, 41, 41, heights);
    stand(f, &g, "bumps", 0, 1);
    /* a NaN sample a leg away from the feet: the solve reads only the
     * samples under the feet, so it stands as before */
    heights[0] = (ik_real)NAN;
    stand(f, &g, "bumps with a NaN sample far from the feet", 0, 1);
    b.amplitude = (ik_real)0.02 * leg;
    b.kx = 6 / leg;
    b.kz = 5 / leg;
    g = ik_ground_callback(bumps_cast, &b);
    if (fabs((double)floor_y) < 1e-3 * (double)leg) stand(f, &g, "bump callback", 0, 1);
    /* a stair step under the left foot only: stairs rising sideways */
    g = ik_ground_stairs(ik_v3(mid.x, floor_y, mid.z), fixture_left(f), (ik_real)0.12 * leg, 10 * leg, 1);
    stand(f, &g, "stair step", 0, 1);
    /* stairs rising ahead, the character standing across a step edge */
    g = ik_ground_stairs(ik_vec3_mad(ik_v3(mid.x, floor_y, mid.z), fwd, (ik_real)-0.6 * leg), fwd, (ik_real)0.1 * leg,
                         (ik_real)0.5 * leg, 4);
    stand(f, &g, "stairs", 0, 0);
    /* steep: 35 degrees up ahead, past the 25 degree ankle: heels lift */
    if (f->rig.limb[IK_LIMB_LEG_L].toe >= 0) {
        ik_real a = ik_rad(35);
        g = ik_ground_plane(ik_v3(mid.x, floor_y, mid.z), ik_vec3_mad(ik_vec3_scale(up, IK_COS(a)), fwd, -IK_SIN(a)));
        stand(f, &g, "steep slope", 1, 1);
    }
}

/* Each rig, then its mirrored twins on the same grounds seen through their
 * maps. Before the fix, under a mirroring root a sole aligned to the
 * ground turned the foot over and the heel lift went the wrong way. */
static void stand_rig(fixture *f, int built, void *context) {
    fixture_twin twin;
    int k;
    (void)built;
    (void)context;
    stand_everywhere(f);
    for (k = 0; k < FIXTURE_TWINS; ++k) {
        if (fixture_twin_of(&twin, f, k)) {
            stand_twin = &twin;
            stand_everywhere(f);
            stand_twin = NULL;
        } else {
            CHECK(0, "%s: twin %d made", f->label, k);
        }
        fixture_twin_free(&twin);
    }
}

static void test_standing(void) { fixture_each_rig(stand_rig, NULL); }

/* A foot goal above the ground keeps its height (a swinging foot); one below
 * is lifted onto the ground; a walk over stairs never puts a heel or a ball
 * under the steps. */
static void test_goals_and_walk(void) {
    fixture f;
    ik_humanoid_solve job;
    ik_humanoid_report report;
    ik_ground g;
    ik_real leg;
    ik_vec3 ankle0;
    int frame;
    CHECK(fixture_built(&f), "built");
    leg = fixture_limb_length(&f, IK_LIMB_LEG_L);
    ankle0 = fixture_end(&f, IK_LIMB_LEG_L);
    g = ik_ground_plane(ik_vec3_zero(), ik_v3(0, 1, 0));
    job = ik_humanoid_solve_def();
    job.rig = &f.rig;
    job.pose_ls = f.pose;
    job.model_ms = f.model;
    job.ground = &g;
    job.report = &report;
    job.goal[IK_LIMB_LEG_L].enabled = 1;
    job.goal[IK_LIMB_LEG_L].position_ms = ik_vec3_add(ankle0, ik_v3(0, (ik_real)0.2 * leg, (ik_real)0.1 * leg));
    CHECK(ik_humanoid_solve_run(&job) == IK_OK, "solve");
    CHECK(ik_vec3_distance(fixture_end(&f, IK_LIMB_LEG_L), job.goal[IK_LIMB_LEG_L].position_ms) < 1e-3 * leg,
          "swinging foot at its goal: %g",
          (double)ik_vec3_distance(fixture_end(&f, IK_LIMB_LEG_L), job.goal[IK_LIMB_LEG_L].position_ms));
    fixture_reset(&f);
    job.goal[IK_LIMB_LEG_L].position_ms = ik_vec3_add(ankle0, ik_v3(0, (ik_real)-0.2 * leg, 0));
    CHECK(ik_humanoid_solve_run(&job) == IK_OK, "solve");
    CHECK(fabs((double)(fixture_end(&f, IK_LIMB_LEG_L).y - ankle0.y)) < 1e-3 * (double)leg,
          "goal below ground lifted onto it");
    /* a procedural walk up stairs (seed 004: feet moved by trigonometric functions) */
    g = ik_ground_stairs(ik_v3(0, 0, (ik_real)0.3), ik_v3(0, 0, 1), (ik_real)0.15, (ik_real)0.35, 6);
    fixture_reset(&f);
    for (frame = 0; frame < 240; ++frame) {
        ik_real t = (ik_real)frame / 60, phase = 2 * IK_PI * t;
        ik_real body_z = (ik_real)0.35 * t;
        int side;
        ik_transform root = ik_transform_make(ik_v3(0, 0, body_z), ik_quat_identity(), ik_v3(1, 1, 1));
        ik_mat4 root_ms = ik_transform_to_mat4(root);
        ik_real ground_y = 0;
        ik_ground_height_at(&g, 0, body_z, &ground_y, NULL);
        root_ms.m[13] = ground_y;
        ik_skeleton_rest_pose(f.skeleton, f.pose);
        job.root_ms = &root_ms;
        for (side = 0; side < 2; ++side) {
            ik_real s = IK_SIN(phase + (ik_real)side * IK_PI);
            ik_vec3 a = ik_mat4_transform_point(&root_ms, ankle0);
            a.x = side == 0 ? ankle0.x : -ankle0.x;
            a.z += (ik_real)0.12 * leg * s;
            a.y += (ik_real)0.12 * leg * ik_maxr(0, IK_COS(phase + (ik_real)side * IK_PI));
            job.goal[IK_LIMB_LEG_L + side].enabled = 1;
            job.goal[IK_LIMB_LEG_L + side].position_ms = a;
        }
        CHECK(ik_humanoid_solve_run(&job) == IK_OK && fixture_pose_finite(&f), "walk frame %d", frame);
        for (side = 0; side < 2; ++side) {
            const ik_humanoid_limb *l = &f.rig.limb[IK_LIMB_LEG_L + side];
            ik_vec3 heel = ik_mat4_transform_point(&f.model[l->end], l->heel_ls);
            ik_vec3 ball = ik_mat4_transform_point(&f.model[l->end], l->ball_ls);
            ik_real hh, hb;
            ik_ground_height_at(&g, heel.x, heel.z, &hh, NULL);
            ik_ground_height_at(&g, ball.x, ball.z, &hb, NULL);
            CHECK(heel.y >= hh - 1e-3 * leg && ball.y >= hb - 1e-3 * leg,
                  "walk frame %d leg %d: under the stairs (%g, %g)", frame, side, (double)(heel.y - hh),
                  (double)(ball.y - hb));
        }
    }
    fixture_free(&f);
}

/* The animated clip of a rig (a BVH's motion, a glTF's first clip), or NULL. */
static const ik_clip *rig_clip(const fixture *f) {
    if (f->bvh) return &f->bvh->clip;
    if (f->gltf && ik_gltf_clip_count(f->gltf) > 0) return ik_gltf_clip(f->gltf, 0, 0);
    return NULL;
}

/* Height of p above the ground under it, along up (a vertical cast). */
static ik_real clearance(const ik_ground *g, ik_vec3 p, ik_vec3 up, ik_real leg) {
    ik_ground_hit hit;
    if (!ik_ground_cast(g, ik_vec3_mad(p, up, 4 * leg), ik_vec3_neg(up), 16 * leg, &hit)) return -1e30f;
    return ik_vec3_dot(ik_vec3_sub(p, hit.point_ms), up);
}

/* Feet carried relative to the floor (feet_relative) on frames of each
 * rig's clip (the built rig: its standing pose), above the rig's own root,
 * a Z-up and a x100 one, and mirroring ones: scaled (-1, 1, 1), (-1, -1, -1)
 * (upside down) and (-3, -3, -3), and as the mirrored rig (the frame's
 * root joint mirrored, fixture_mirror_x): a flat ground through the pose's
 * floor (ik_humanoid_floor_point) leaves every joint within 5e-4 leg
 * lengths (0.45 mm on a 0.9 m leg); on a 10 degree slope through it both
 * feet reach their plans, and no heel, ball or toe tip ends under the
 * ground by more than it was under the floor (plus 1e-3 leg lengths).
 * Under the mirroring roots the ankle's flexion came out about 180 degrees
 * off and the foot was turned over. */
static void relative_rig(fixture *base, int built, void *context) {
    const ik_clip *clip = rig_clip(base);
    ik_mat4 original = base->root_ms, variants[6];
    size_t n = (size_t)base->skeleton->joint_count;
    ik_mat4 *before = (ik_mat4 *)malloc(sizeof(ik_mat4) * n);
    fixture_twin twin;
    int v, k, frames = clip ? 9 : 1;
    (void)built;
    (void)context;
    if (!fixture_twin_of(&twin, base, 3)) CHECK(0, "%s: mirrored rig made", base->label);
    if (!before) return;
    variants[0] = ik_mat4_identity();
    variants[1] = ik_mat4_from_trs(ik_vec3_zero(), ik_quat_from_axis_angle(ik_v3(1, 0, 0), ik_rad(90)), ik_v3(1, 1, 1));
    variants[2] = ik_mat4_from_trs(ik_v3(3, -2, 1), ik_quat_identity(), ik_v3(100, 100, 100));
    variants[3] = ik_mat4_from_trs(ik_vec3_zero(), ik_quat_identity(), ik_v3(-1, 1, 1));
    variants[4] = ik_mat4_from_trs(ik_v3(1, 2, -1), ik_quat_identity(), ik_v3(-1, -1, -1));
    variants[5] =
        ik_mat4_from_trs(ik_vec3_zero(), ik_quat_from_axis_angle(ik_v3(0, 1, 0), ik_rad(30)), ik_v3(-3, -3, -3));
    for (v = 0; v < 7; ++v)
        for (k = 0; k < frames && (v < 6 || twin.f.pose); ++k) {
            fixture *f = v < 6 ? base : &twin.f;
            ik_real time = clip ? clip->duration * (ik_real)k / (ik_real)(frames - 1) : 0;
            ik_real leg = fixture_limb_length(f, IK_LIMB_LEG_L), worst = 0, s;
            ik_vec3 up, fwd, floor;
            ik_real foot_clear[2][3];
            ik_humanoid_solve job = ik_humanoid_solve_def();
            ik_humanoid_report report;
            ik_ground g;
            int i, side, slope;
            if (v < 6) f->root_ms = ik_mat4_mul(&variants[v], &original);
            leg = fixture_limb_length(f, IK_LIMB_LEG_L);
            up = fixture_up(f);
            fwd = fixture_forward(f);
            for (slope = 0; slope < 2; ++slope) {
                if (clip) {
                    /* the original's frame; for the mirrored rig its root then mirrored */
                    ik_skeleton_rest_pose(base->skeleton, f->pose);
                    ik_clip_sample(clip, time, f->pose);
                    if (v == 6) f->pose[twin.root] = fixture_mirror_x(f->pose[twin.root]);
                    ik_skeleton_fk(f->skeleton, f->pose, &f->root_ms, f->model);
                } else {
                    fixture_reset(f);
                }
                memcpy(before, f->model, sizeof(ik_mat4) * n);
                floor = ik_humanoid_floor_point(&f->rig, f->model, &f->root_ms);
                s = ik_rad(slope ? 10 : 0);
                g = ik_ground_plane(floor, ik_vec3_sub(ik_vec3_scale(up, IK_COS(s)), ik_vec3_scale(fwd, IK_SIN(s))));
                for (side = 0; side < 2; ++side) {
                    const ik_humanoid_limb *l = &f->rig.limb[IK_LIMB_LEG_L + side];
                    if (l->end < 0) continue;
                    foot_clear[side][0] =
                        ik_vec3_dot(ik_vec3_sub(ik_mat4_transform_point(&f->model[l->end], l->heel_ls), floor), up);
                    foot_clear[side][1] =
                        ik_vec3_dot(ik_vec3_sub(ik_mat4_transform_point(&f->model[l->end], l->ball_ls), floor), up);
                    foot_clear[side][2] =
                        l->toe >= 0
                            ? ik_vec3_dot(ik_vec3_sub(ik_mat4_transform_point(&f->model[l->toe], l->toe_tip_ls), floor),
                                          up)
                            : 0;
                }
                fixture_bind_job(f, &job);
                job.ground = &g;
                job.use_floor = 1;
                job.floor_ms = floor;
                job.feet_relative = 1;
                job.report = &report;
                CHECK(ik_humanoid_solve_run(&job) == IK_OK && fixture_pose_finite(f), "%s/%d t %g: solve", f->label, v,
                      (double)time);
                if (!slope) {
                    for (i = 0; i < (int)n; ++i)
                        worst = ik_maxr(worst, ik_vec3_distance(ik_mat4_translation(&f->model[i]),
                                                                ik_mat4_translation(&before[i])));
                    CHECK(worst <= (ik_real)5e-4 * leg,
                          "%s/%d t %g: flat ground through the floor moved a joint by %g (leg %g)", f->label, v,
                          (double)time, (double)worst, (double)leg);
                    continue;
                }
                for (side = 0; side < 2; ++side) {
                    const ik_humanoid_limb *l = &f->rig.limb[IK_LIMB_LEG_L + side];
                    ik_real tol = (ik_real)1e-3 * leg;
                    CHECK(report.reached[IK_LIMB_LEG_L + side], "%s/%d t %g leg %d: reached on a 10 degree slope (%g)",
                          f->label, v, (double)time, side, (double)report.residual[IK_LIMB_LEG_L + side]);
                    if (l->end < 0) continue;
                    {
                        ik_real heel = clearance(&g, ik_mat4_transform_point(&f->model[l->end], l->heel_ls), up, leg);
                        ik_real ball = clearance(&g, ik_mat4_transform_point(&f->model[l->end], l->ball_ls), up, leg);
                        ik_real tip =
                            l->toe >= 0
                                ? clearance(&g, ik_mat4_transform_point(&f->model[l->toe], l->toe_tip_ls), up, leg)
                                : 0;
                        CHECK(heel >= ik_minr(foot_clear[side][0], 0) - tol &&
                                  ball >= ik_minr(foot_clear[side][1], 0) - tol &&
                                  tip >= ik_minr(foot_clear[side][2], 0) - tol,
                              "%s/%d t %g leg %d: under the slope: heel %g ball %g tip %g (above the floor "
                              "before: %g %g %g)",
                              f->label, v, (double)time, side, (double)heel, (double)ball, (double)tip,
                              (double)foot_clear[side][0], (double)foot_clear[side][1], (double)foot_clear[side][2]);
                    }
                }
            }
        }
    base->root_ms = original;
    fixture_twin_free(&twin);
    free(before);
}

static void test_feet_relative(void) { fixture_each_rig(relative_rig, NULL); }

/* A height field of NaN samples under the feet is no ground there: the
 * solve succeeds, leaves the feet where the pose has them and writes
 * nothing that is not finite. */
static void test_nan_under_the_feet(void) {
    fixture f;
    ik_humanoid_solve job;
    ik_real heights[9];
    ik_vec3 ankle0;
    ik_ground g;
    int i;
    CHECK(fixture_built(&f), "built");
    ankle0 = fixture_end(&f, IK_LIMB_LEG_L);
    for (i = 0; i < 9; ++i) heights[i] = (ik_real)NAN;
    g = ik_ground_height_field(ik_v3(-5, 0, -5), 5, 3, 3, heights);
    CHECK(ik_ground_validate(&g) == IK_ERR_NONFINITE && ik_ground_check_shape(&g) == IK_OK,
          "validate sees the NaN samples, the shape check does not read them");
    job = ik_humanoid_solve_def();
    fixture_bind_job(&f, &job);
    job.ground = &g;
    CHECK(ik_humanoid_solve_run(&job) == IK_OK && fixture_pose_finite(&f), "solve over NaN samples");
    ik_skeleton_fk(f.skeleton, f.pose, &f.root_ms, f.model);
    CHECK(ik_vec3_distance(fixture_end(&f, IK_LIMB_LEG_L), ankle0) < (ik_real)1e-4, "the foot stays where it was");
    fixture_free(&f);
}

int main(void) {
    test_casts();
    test_nan_under_the_feet();
    test_standing();
    test_goals_and_walk();
    test_feet_relative();
    return check_summary("test_ground");
}

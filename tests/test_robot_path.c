/* Robot Cartesian paths (issue 29): random straight lines on the UR5, the
 * Panda and the IRB 2400 of $IKIT_DATA/urdf and on hand-built arms. Every
 * waypoint written is checked on its own: forward kinematics puts the tip on
 * the line, at the pose the test interpolates itself (in double) for
 * s = i / N, within the IK tolerance on every axis; consecutive waypoints
 * differ by no more than the documented joint-step bound (computed here
 * from the chain's offsets); every value is inside the limits and finite;
 * the fraction is (waypoints - 1) / N. Lines out of reach stop where the
 * reach ends (found by bisection with the full pose IK), a validity callback
 * stops the path at the first refused waypoint, a smooth pass through the
 * wrist singularity stops where det J changes sign, continuous joints are
 * unwrapped, and bad input (NaN, infinity, steps <= 0, a start outside the
 * limits, too little room) is refused with the field named. */
#define _POSIX_C_SOURCE 200809L
#include <ikit/robot.h>
#include <ikit/robot_ik.h>
#include <ikit/robot_path.h>
#include <ikit/urdf.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/check.h"
#include "support/rng.h"
#include "support/robot_chains.h"
#include "support/test_groups.h"

#define TOL 1e-5
/* The test's own interpolation (double) and the library's (ik_real) differ by rounding. */
#ifdef IKIT_DOUBLE
#define SLACK 1e-9
#else
#define SLACK 2e-6
#endif
#define MAX_WAYPOINTS 4000

static char data_dir[512];
/* The tolerance path_holds allows off the line (the job's, TOL by default). */
static double line_tol = TOL;
static double scratch[8192];
static ik_real q_path[MAX_WAYPOINTS * IK_ROBOT_MAX_JOINTS];

static int have_data(void) {
    const char *dir = getenv("IKIT_DATA");
    if (!dir) return 0;
    snprintf(data_dir, sizeof data_dir, "%s/urdf", dir);
    return access(data_dir, R_OK) == 0;
}

/* ---- the test's own line -------------------------------------------------- */

typedef struct dquat {
    double x, y, z, w;
} dquat;

static dquat dq_of(ik_quat q) {
    dquat d = {q.x, q.y, q.z, q.w};
    double n = sqrt(d.x * d.x + d.y * d.y + d.z * d.z + d.w * d.w);
    d.x /= n, d.y /= n, d.z /= n, d.w /= n;
    return d;
}

/* slerp(a, b, s) on the shorter arc: sin((1 - s) th) / sin th a + sin(s th) / sin th b. */
static dquat dq_slerp(dquat a, dquat b, double s) {
    double c = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w, wa = 1 - s, wb = s, th, n;
    dquat r;
    if (c < 0) {
        b.x = -b.x, b.y = -b.y, b.z = -b.z, b.w = -b.w;
        c = -c;
    }
    if (c < 1 - 1e-12) {
        th = acos(c);
        wa = sin((1 - s) * th) / sin(th);
        wb = sin(s * th) / sin(th);
    }
    r.x = wa * a.x + wb * b.x, r.y = wa * a.y + wb * b.y, r.z = wa * a.z + wb * b.z, r.w = wa * a.w + wb * b.w;
    n = sqrt(r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w);
    r.x /= n, r.y /= n, r.z /= n, r.w /= n;
    return r;
}

/* The rotation vector of a b^-1 (both unit). */
static void dq_error(dquat a, dquat b, double v[3]) {
    /* a * conj(b) */
    double w = a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z;
    double x = -a.w * b.x + a.x * b.w - a.y * b.z + a.z * b.y;
    double y = -a.w * b.y + a.x * b.z + a.y * b.w - a.z * b.x;
    double z = -a.w * b.z - a.x * b.y + a.y * b.x + a.z * b.w;
    double s, angle;
    if (w < 0) w = -w, x = -x, y = -y, z = -z;
    s = sqrt(x * x + y * y + z * z);
    angle = 2 * atan2(s, w);
    v[0] = s > 0 ? x / s * angle : 0;
    v[1] = s > 0 ? y / s * angle : 0;
    v[2] = s > 0 ? z / s * angle : 0;
}

/* The chain's summed joint offsets and prismatic travel (robot_path.h's reach). */
static double reach_of(const ik_robot_chain *c) {
    double reach = 0;
    int k;
    for (k = 0; k < c->joint_count; ++k) {
        const ik_robot_joint *j = &c->joints[k];
        reach += sqrt((double)ik_vec3_dot(j->origin.translation, j->origin.translation));
        if (j->type == IK_ROBOT_PRISMATIC) reach += fmax(fabs((double)j->lower), fabs((double)j->upper));
    }
    return reach;
}

/* Every joint on variable v is revolute or continuous with multiplier +-1. */
static int variable_turns(const ik_robot_chain *c, int v) {
    int k, turns = 1;
    for (k = 0; k < c->joint_count; ++k) {
        const ik_robot_joint *j = &c->joints[k];
        if (j->type == IK_ROBOT_FIXED || j->variable != v) continue;
        if (j->type == IK_ROBOT_PRISMATIC || fabs((double)j->multiplier) != 1) turns = 0;
    }
    return turns;
}

/* Inside the limits as the chain states them (no slack); a variable moved
 * only by continuous joints may take any finite value (unwrapped). */
static int inside_limits_unwrapped(const ik_robot_chain *c, const ik_real *q) {
    int v;
    for (v = 0; v < c->variable_count; ++v) {
        double lo, hi;
        int wraps;
        variable_range(c, v, &lo, &hi, &wraps);
        if (!ik_finite(q[v])) return 0;
        if (!wraps && !((double)q[v] >= lo && (double)q[v] <= hi)) return 0;
    }
    return 1;
}

typedef struct path_result {
    ik_result r;
    int count, segments;
    ik_real fraction;
    ik_robot_path_stop stop;
} path_result;

static ik_robot_path path_job(const ik_robot_chain *c, const ik_real *start, ik_transform goal, path_result *out) {
    ik_robot_path job = ik_robot_path_def();
    job.chain = c;
    job.q_start = start;
    job.goal_position_bs = goal.translation;
    job.goal_rotation_bs = goal.rotation;
    job.scratch = scratch;
    job.scratch_bytes = sizeof scratch;
    job.q_path = q_path;
    job.max_waypoints = MAX_WAYPOINTS;
    job.waypoint_count = &out->count;
    job.fraction = &out->fraction;
    job.segments = &out->segments;
    job.stop = &out->stop;
    return job;
}

static path_result run_path(const ik_robot_path *job, path_result *out) {
    out->count = -1;
    out->segments = -1;
    out->fraction = -1;
    out->stop = (ik_robot_path_stop)-1;
    out->r = ik_robot_path_run(job);
    return *out;
}

/* Every written waypoint of job's path checked against the test's own line
 * (module comment); returns 1 when all hold, else reports the first fault. */
static int path_holds(const char *name, const ik_robot_path *job, const path_result *res) {
    const ik_robot_chain *c = job->chain;
    const int n = c->variable_count;
    ik_transform start;
    dquat r0, r1;
    double p0[3], p1[3], distance = 0, angle, ev[3], lever = 0.1 * reach_of(c), bound_rot, bound_prism;
    int i, v;
    if (res->r != IK_OK || res->segments < 1 || res->count < 1 || res->count > res->segments + 1) {
        fprintf(stderr, "%s: %s, %d waypoints of %d segments\n", name, ik_result_str(res->r), res->count,
                res->segments);
        return 0;
    }
    ik_robot_fk(c, job->q_start, &start, NULL);
    r0 = dq_of(start.rotation);
    r1 = dq_of(job->goal_rotation_bs);
    for (i = 0; i < 3; ++i) {
        p0[i] = (&start.translation.x)[i];
        p1[i] = (&job->goal_position_bs.x)[i];
        distance += (p1[i] - p0[i]) * (p1[i] - p0[i]);
    }
    distance = sqrt(distance);
    dq_error(r1, r0, ev);
    angle = sqrt(ev[0] * ev[0] + ev[1] * ev[1] + ev[2] * ev[2]);
    if (!(distance / res->segments <= job->max_step * (1 + 1e-4) &&
          angle / res->segments <= job->max_rotation_step * (1 + 1e-4) &&
          (res->segments == 1 || distance / (res->segments - 1) > job->max_step ||
           angle / (res->segments - 1) > job->max_rotation_step))) {
        fprintf(stderr, "%s: %d segments for %g m and %g rad\n", name, res->segments, distance, angle);
        return 0;
    }
    if (fabs((double)res->fraction - (double)(res->count - 1) / res->segments) > 1e-6) {
        fprintf(stderr, "%s: fraction %g for %d waypoints of %d segments\n", name, (double)res->fraction, res->count,
                res->segments);
        return 0;
    }
    if ((res->stop == IK_ROBOT_PATH_COMPLETE) != (res->count == res->segments + 1)) {
        fprintf(stderr, "%s: stop '%s' with %d waypoints of %d segments\n", name, ik_robot_path_stop_str(res->stop),
                res->count, res->segments);
        return 0;
    }
    bound_rot = (double)job->joint_step_ratio * (distance / lever + angle) / res->segments;
    bound_prism = bound_rot * lever;
    if (job->max_joint_step > 0) bound_rot = bound_prism = job->max_joint_step;
    for (i = 0; i < res->count; ++i) {
        const ik_real *q = q_path + (size_t)i * (size_t)n;
        const double s = (double)i / res->segments;
        ik_transform tip;
        dquat want = dq_slerp(r0, r1, s);
        double e[3];
        if (memcmp(q, job->q_start, (size_t)n * sizeof(ik_real)) != 0 && i == 0) {
            fprintf(stderr, "%s: waypoint 0 is not q_start\n", name);
            return 0;
        }
        if (!inside_limits_unwrapped(c, q)) {
            fprintf(stderr, "%s: waypoint %d outside the limits\n", name, i);
            return 0;
        }
        ik_robot_fk(c, q, &tip, NULL);
        dq_error(want, dq_of(tip.rotation), e);
        for (v = 0; v < 3; ++v) {
            const double p = p0[v] + s * (p1[v] - p0[v]);
            if (!(fabs((&tip.translation.x)[v] - p) <= line_tol + SLACK && fabs(e[v]) <= line_tol + SLACK)) {
                fprintf(stderr, "%s: waypoint %d of %d off the line: position %g, angle %g on axis %d\n", name, i,
                        res->segments, fabs((&tip.translation.x)[v] - p), fabs(e[v]), v);
                return 0;
            }
        }
        for (v = 0; i > 0 && v < n; ++v) {
            const double step = fabs((double)q[v] - (double)q[v - n]);
            const int turns = variable_turns(c, v);
            if (!(step <= (turns ? bound_rot : bound_prism) * (1 + 1e-5))) {
                fprintf(stderr, "%s: waypoint %d: variable %d stepped %g (bound %g)\n", name, i, v, step,
                        turns ? bound_rot : bound_prism);
                return 0;
            }
        }
    }
    return 1;
}

/* The chain from arm[1] to arm[2] of the shared URDF file arm[0]; 0 when it
 * does not load (a failed check). */
static int load_arm(const char *const arm[3], ik_urdf **u, ik_robot_chain *chain) {
    char path[700];
    ik_error err;
    *u = NULL;
    snprintf(path, sizeof path, "%s/%s", data_dir, arm[0]);
    CHECK(ik_urdf_read_file(path, u, &err) == IK_OK, "%s: %s", path, err.message);
    if (!*u) return 0;
    CHECK(ik_urdf_robot_chain(*u, arm[1], arm[2], chain, NULL, &err) == IK_OK, "%s", err.message);
    return 1;
}

static const char *const arms[3][3] = {{"ur5_joint_limited_robot.urdf", "base_link", "ee_link"},
                                       {"panda.urdf", "panda_link0", "panda_link8"},
                                       {"abb_irb2400.urdf", "base_link", "tool0"}};

/* A goal `length` metres from FK(start) along `direction` and turned by
 * `angle` about `axis` (base frame). */
static ik_transform goal_from(const ik_robot_chain *c, const ik_real *start, ik_vec3 direction, double length,
                              ik_vec3 axis, double angle) {
    ik_transform tip;
    ik_robot_fk(c, start, &tip, NULL);
    tip.translation = ik_vec3_mad(tip.translation, direction, (ik_real)length);
    tip.rotation = ik_quat_normalize(ik_quat_mul(ik_quat_from_axis_angle(axis, (ik_real)angle), tip.rotation));
    return tip;
}

/* LINES random lines per arm: a random start inside the limits, the tip
 * moved 0.15 m along a random direction and turned 0.3 rad about a random
 * axis. Every path written holds (path_holds); most lines complete. */
#define LINES 24
static void test_random_lines(void) {
    int a;
    if (!have_data()) {
        check_skip("real-asset corpus not found");
        return;
    }
    for (a = 0; a < 3; ++a) {
        ik_urdf *u;
        ik_robot_chain c;
        rng r = rng_seeded(290 + (uint64_t)a);
        check_property prop = {0, 0, 0};
        int i, complete = 0, stops[7] = {0, 0, 0, 0, 0, 0, 0};
        double fraction_sum = 0;
        char name[120];
        if (!load_arm(arms[a], &u, &c)) continue;
        snprintf(name, sizeof name, "%s random lines", arms[a][0]);
        prop.name = name;
        for (i = 0; i < LINES; ++i) {
            ik_real start[IK_ROBOT_MAX_JOINTS];
            path_result res;
            ik_robot_path job;
            random_in_limits(&c, &r, start);
            job = path_job(&c, start, goal_from(&c, start, rng_direction(&r), 0.15, rng_direction(&r), 0.3), &res);
            run_path(&job, &res);
            PROPERTY_CASE(prop, path_holds(name, &job, &res), "line %d", i);
            complete += res.stop == IK_ROBOT_PATH_COMPLETE;
            if ((int)res.stop >= 0 && (int)res.stop < 7) ++stops[res.stop];
            fraction_sum += (double)res.fraction;
        }
        property_end(&prop);
        printf("%s: %d of %d lines complete (mean fraction %.3f; stops: unreached %d, limit %d, jump %d, branch %d)\n",
               arms[a][0], complete, LINES, fraction_sum / LINES, stops[IK_ROBOT_PATH_UNREACHED],
               stops[IK_ROBOT_PATH_LIMIT], stops[IK_ROBOT_PATH_JUMP], stops[IK_ROBOT_PATH_BRANCH]);
        CHECK(complete >= LINES / 2, "%s: only %d of %d random lines complete", arms[a][0], complete, LINES);
        ik_urdf_free(u);
    }
}

/* The smallest s in [0, 1] whose waypoint pose on the line from FK(start)
 * to goal the full pose IK (closed-form starts, restarts, 20000
 * iterations) cannot reach, by bisection to 1e-5; 1 when s = 1 is reached. */
static double reach_end(const ik_robot_chain *c, const ik_real *start, ik_transform goal) {
    ik_transform t0;
    ik_real q[IK_ROBOT_MAX_JOINTS];
    double lo = 0, hi = 1;
    int it;
    ik_robot_fk(c, start, &t0, NULL);
    for (it = 0; it < 40 && hi - lo > 1e-5; ++it) {
        const double s = it == 0 ? 1 : (lo + hi) / 2;
        ik_robot_ik job = ik_robot_ik_def();
        ik_bool reached = 0;
        job.chain = c;
        job.goal_position_bs = ik_vec3_lerp(t0.translation, goal.translation, (ik_real)s);
        job.goal_rotation_bs = ik_quat_slerp(t0.rotation, goal.rotation, (ik_real)s);
        job.q_seed = start;
        job.q_out = q;
        job.reached = &reached;
        job.max_iterations = 20000;
        job.scratch = scratch;
        job.scratch_bytes = sizeof scratch;
        ik_robot_ik_run(&job);
        if (it == 0 && reached) return 1;
        if (reached)
            lo = s;
        else
            hi = s;
    }
    return hi;
}

/* Lines from a comfortable start straight outward, 1.5 m (beyond every
 * arm's reach), the orientation kept: the path stops short of the end, at
 * most 3 mm before the reach ends (bisection with the full IK) and never
 * past it; what it wrote holds. */
static void test_out_of_reach(void) {
    static const ik_real starts[3][7] = {{0.3f, -1.2f, 1.4f, -1.8f, -1.4f, 0.2f},
                                         {0.2f, 0.1f, 0.1f, -2.0f, 0.1f, 1.9f, 0.6f},
                                         {0.3f, 0.2f, 0.2f, 0.3f, 0.8f, 0.1f}};
    int a;
    if (!have_data()) {
        check_skip("real-asset corpus not found");
        return;
    }
    for (a = 0; a < 3; ++a) {
        ik_urdf *u;
        ik_robot_chain c;
        ik_transform tip, goal;
        ik_vec3 out;
        path_result res;
        ik_robot_path job;
        double end, stopped_m;
        char name[120];
        if (!load_arm(arms[a], &u, &c)) continue;
        snprintf(name, sizeof name, "%s out of reach", arms[a][0]);
        ik_robot_fk(&c, starts[a], &tip, NULL);
        out = ik_vec3_normalize(ik_v3(tip.translation.x, tip.translation.y, 0));
        goal = tip;
        goal.translation = ik_vec3_mad(tip.translation, out, (ik_real)1.5);
        job = path_job(&c, starts[a], goal, &res);
        run_path(&job, &res);
        CHECK(path_holds(name, &job, &res), "%s", name);
        end = reach_end(&c, starts[a], goal);
        stopped_m = (end - (double)res.fraction) * 1.5;
        printf("%s: stopped at %.4f of the line (%s), %.2f mm before the reach ends at %.4f\n", name,
               (double)res.fraction, ik_robot_path_stop_str(res.stop), stopped_m * 1e3, end);
        CHECK(res.stop != IK_ROBOT_PATH_COMPLETE && res.fraction > 0 && res.fraction < 1, "%s: %s at %g", name,
              ik_robot_path_stop_str(res.stop), (double)res.fraction);
        CHECK(end < 1 && stopped_m >= 0 && stopped_m <= 0.003, "%s: stopped %g m before the reach ends", name,
              stopped_m);
        ik_urdf_free(u);
    }
}

/* A validity callback that refuses a tip below a plane z = height (its own FK). */
typedef struct above_plane {
    const ik_robot_chain *chain;
    double height;
    int calls;
} above_plane;

static int tip_above(void *user, const ik_real *q, int variable_count) {
    above_plane *p = (above_plane *)user;
    ik_transform tip;
    ++p->calls;
    if (variable_count != p->chain->variable_count || ik_robot_fk(p->chain, q, &tip, NULL) != IK_OK) return 0;
    return tip.translation.z >= p->height;
}

/* The UR5's tip moved 0.3 m straight down with a callback refusing z below
 * z_0 - 0.1: the path stops on the last waypoint above the plane (the next
 * one on the line is below it), having asked the callback once per
 * waypoint tried; a callback refusing the start writes nothing. */
static void test_config_ok(void) {
    const ik_real start[6] = {0.3f, -1.2f, 1.4f, -1.8f, -1.4f, 0.2f};
    ik_urdf *u;
    ik_robot_chain c;
    ik_transform tip, goal;
    path_result res;
    ik_robot_path job;
    above_plane plane;
    double z_last, z_next;
    if (!have_data()) {
        check_skip("real-asset corpus not found");
        return;
    }
    if (!load_arm(arms[0], &u, &c)) return;
    ik_robot_fk(&c, start, &tip, NULL);
    goal = tip;
    goal.translation.z -= (ik_real)0.3;
    plane.chain = &c;
    plane.height = (double)tip.translation.z - 0.1;
    plane.calls = 0;
    job = path_job(&c, start, goal, &res);
    job.config_ok = tip_above;
    job.config_user = &plane;
    run_path(&job, &res);
    CHECK(path_holds("config_ok", &job, &res), "config_ok path");
    CHECK(res.stop == IK_ROBOT_PATH_INVALID, "stop: %s", ik_robot_path_stop_str(res.stop));
    z_last = (double)tip.translation.z - 0.3 * (res.count - 1) / res.segments;
    z_next = (double)tip.translation.z - 0.3 * res.count / res.segments;
    CHECK(z_last >= plane.height - 2 * TOL && z_next < plane.height + 2 * TOL,
          "stopped at z %g, next %g, plane %g (%d waypoints of %d)", z_last, z_next, plane.height, res.count,
          res.segments);
    CHECK(plane.calls == res.count + 1, "%d calls for %d waypoints", plane.calls, res.count);
    CHECK(fabs((double)res.fraction - 1.0 / 3) < 2.0 / res.segments, "fraction %g, about 1/3", (double)res.fraction);

    plane.height = 1e9;
    plane.calls = 0;
    run_path(&job, &res);
    CHECK(res.r == IK_OK && res.stop == IK_ROBOT_PATH_START_INVALID && res.count == 0 && res.fraction == 0 &&
              plane.calls == 1,
          "start refused: %s, %d waypoints, fraction %g, %d calls", ik_robot_path_stop_str(res.stop), res.count,
          (double)res.fraction, plane.calls);
    ik_urdf_free(u);
}

/* A UR-shaped arm with continuous joints, the last at 3.0 rad, its tool
 * turned 0.6 rad about that joint's axis: the path is whole and the last
 * joint goes on to 3.6 (unwrapped past pi), not round to -2.68. */
static void test_continuous_unwrapped(void) {
    ik_robot_chain c = all_continuous(ur_shaped());
    const ik_real start[6] = {0.2f, -0.9f, 1.2f, -0.6f, 0.9f, 3.0f};
    ik_transform links[IK_ROBOT_MAX_JOINTS], tip, goal;
    ik_vec3 axis;
    path_result res;
    ik_robot_path job;
    ik_robot_fk(&c, start, &tip, links);
    axis = ik_quat_rotate(links[5].rotation, c.joints[5].axis);
    goal = tip;
    goal.rotation = ik_quat_normalize(ik_quat_mul(ik_quat_from_axis_angle(axis, (ik_real)0.6), tip.rotation));
    job = path_job(&c, start, goal, &res);
    run_path(&job, &res);
    CHECK(path_holds("continuous", &job, &res), "continuous path");
    CHECK(res.stop == IK_ROBOT_PATH_COMPLETE && res.segments == 60, "%s, %d segments", ik_robot_path_stop_str(res.stop),
          res.segments);
    CHECK(fabs((double)q_path[(size_t)(res.count - 1) * 6 + 5] - 3.6) < 1e-3, "last joint ends at %g",
          (double)q_path[(size_t)(res.count - 1) * 6 + 5]);
}

/* A joint-step bound of 1e-7 rad stops the first step (a jump); the same
 * pose as the start gives one segment, two waypoints and fraction 1. */
static void test_jump_and_still(void) {
    ik_robot_chain c = ur_shaped();
    const ik_real start[6] = {0.2f, -0.9f, 1.2f, -0.6f, 0.9f, 0.4f};
    ik_transform tip;
    path_result res;
    ik_robot_path job;
    ik_robot_fk(&c, start, &tip, NULL);
    job = path_job(&c, start, goal_from(&c, start, ik_v3(0, 0, 1), 0.1, ik_v3(1, 0, 0), 0), &res);
    job.max_joint_step = (ik_real)1e-7;
    run_path(&job, &res);
    CHECK(path_holds("tight bound", &job, &res), "tight bound");
    CHECK(res.stop == IK_ROBOT_PATH_JUMP && res.count == 1 && res.fraction == 0 && res.segments == 100,
          "tight bound: %s, %d waypoints, fraction %g, %d segments", ik_robot_path_stop_str(res.stop), res.count,
          (double)res.fraction, res.segments);
    job = path_job(&c, start, tip, &res);
    run_path(&job, &res);
    CHECK(path_holds("still", &job, &res), "still");
    CHECK(res.stop == IK_ROBOT_PATH_COMPLETE && res.count == 2 && res.fraction == 1 && res.segments == 1,
          "still: %s, %d waypoints, fraction %g", ik_robot_path_stop_str(res.stop), res.count, (double)res.fraction);
}

/* A 6R arm with a spherical wrist and its tip at the wrist centre: turning
 * the tool about axis 5 from theta_5 = 0.3 to -0.3 is a pure rotation (a
 * slerp), so the line takes theta_5 smoothly through the wrist singularity
 * onto the other wrist branch. With keep_branch the path stops there, half
 * way, det J's sign about to change; without it the path is whole. From
 * the singular pose itself (theta_5 = 0, det J = 0) the path is whole. */
static ik_robot_chain wrist_at_tip(void) {
    ik_robot_chain c;
    const ik_vec3 x = ik_v3(1, 0, 0), y = ik_v3(0, 1, 0), z = ik_v3(0, 0, 1);
    memset(&c, 0, sizeof c);
    c.joints[0] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0, 0, 0.4f), z, -3, 3, 0);
    c.joints[1] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0.1f, 0, 0.1f), y, -2, 2, 1);
    c.joints[2] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0, 0, 0.5f), y, -2.5, 2.5, 2);
    c.joints[3] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0.45f, 0, 0.05f), x, -3, 3, 3);
    c.joints[4] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0, 0, 0), y, -2, 2, 4);
    c.joints[5] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0, 0, 0), x, -3, 3, 5);
    c.joint_count = 6;
    c.variable_count = 6;
    return c;
}

static void test_branch_switch(void) {
    ik_robot_chain c = wrist_at_tip();
    const ik_real start[6] = {0.2f, 0.3f, 0.5f, 0.4f, 0.3f, 0.2f}, end[6] = {0.2f, 0.3f, 0.5f, 0.4f, -0.3f, 0.2f};
    ik_transform goal;
    path_result res;
    ik_robot_path job;
    ik_robot_fk(&c, end, &goal, NULL);
    job = path_job(&c, start, goal, &res);
    run_path(&job, &res);
    CHECK(path_holds("wrist branch", &job, &res), "wrist branch");
    CHECK(res.stop == IK_ROBOT_PATH_BRANCH && res.segments == 60 && res.count == 31 &&
              fabs((double)q_path[30 * 6 + 4]) < 1e-3,
          "keep_branch: %s at %d of %d, theta_5 %g", ik_robot_path_stop_str(res.stop), res.count, res.segments,
          (double)q_path[(res.count - 1) * 6 + 4]);
    job.keep_branch = 0;
    run_path(&job, &res);
    CHECK(path_holds("wrist through", &job, &res), "wrist through");
    CHECK(res.stop == IK_ROBOT_PATH_COMPLETE && fabs((double)q_path[60 * 6 + 4] + 0.3) < 1e-3,
          "without keep_branch: %s, theta_5 ends at %g", ik_robot_path_stop_str(res.stop),
          (double)q_path[(res.count - 1) * 6 + 4]);
    /* from the singular pose itself (theta_5 = 0) onto either branch: no switch */
    {
        const ik_real singular[6] = {0.2f, 0.3f, 0.5f, 0.4f, 0, 0.2f};
        job = path_job(&c, singular, goal, &res);
        run_path(&job, &res);
        CHECK(path_holds("from singular", &job, &res), "from singular");
        CHECK(res.stop == IK_ROBOT_PATH_COMPLETE && res.segments == 30, "from the singular pose: %s at %d of %d",
              ik_robot_path_stop_str(res.stop), res.count, res.segments);
    }
}

/* A small turn (0.05 rad, where a normalised lerp of quaternions strays
 * from slerp by up to 1e-6 rad) along a short line, in the double build at
 * tolerances of 1e-9: every waypoint is on the test's own slerp to 1e-9. */
static void test_small_turn(void) {
    ik_robot_chain c = ur_shaped();
    const ik_real start[6] = {0.2f, -0.9f, 1.2f, -0.6f, 0.9f, 0.4f};
    path_result res;
    ik_robot_path job =
        path_job(&c, start, goal_from(&c, start, ik_v3(0.6f, 0, 0.8f), 0.05, ik_v3(0, 0, 1), 0.05), &res);
#ifdef IKIT_DOUBLE
    line_tol = 1e-9;
    job.position_tolerance = ik_v3(1e-9, 1e-9, 1e-9);
    job.angle_tolerance = ik_v3(1e-9, 1e-9, 1e-9);
#endif
    run_path(&job, &res);
    CHECK(path_holds("small turn", &job, &res), "small turn");
    CHECK(res.stop == IK_ROBOT_PATH_COMPLETE && res.segments == 50, "small turn: %s, %d segments",
          ik_robot_path_stop_str(res.stop), res.segments);
    line_tol = TOL;
}

/* One job field spoiled at a time: the result and the field named, and no output written. */
static void expect_refused(const char *what, const ik_robot_path *job, const path_result *res, ik_result want,
                           const char *field) {
    ik_error err;
    ik_robot_path j = *job;
    path_result out = *res;
    int count = -7;
    ik_real fraction = -7;
    j.error_field = &err;
    j.waypoint_count = j.waypoint_count ? &count : NULL;
    j.fraction = &fraction;
    out.r = ik_robot_path_run(&j);
    CHECK(out.r == want && strcmp(err.path, field) == 0 && count == -7 && fraction == -7,
          "%s: %s (field '%s'), want %s ('%s'); count %d", what, ik_result_str(out.r), err.path, ik_result_str(want),
          field, count);
}

static void test_bad_input(void) {
    ik_robot_chain c = ur_shaped(), mimic0 = with_mimic(ur_shaped());
    const ik_real start[6] = {0.2f, -0.9f, 1.2f, -0.6f, 0.9f, 0.4f};
    const ik_real nan = (ik_real)NAN, inf = (ik_real)INFINITY;
    ik_real bad_start[6];
    path_result res;
    ik_robot_path job = path_job(&c, start, goal_from(&c, start, ik_v3(0, 0, 1), 0.1, ik_v3(1, 0, 0), 0.2), &res), j;
    int count = 0;
    CHECK(ik_robot_path_run(NULL) == IK_ERR_NULL, "NULL job");
    j = job, j.defaulted = 0, expect_refused("not defaulted", &j, &res, IK_ERR_NOT_DEFAULTED, "defaulted");
    j = job, j.chain = NULL, expect_refused("no chain", &j, &res, IK_ERR_NULL, "chain");
    j = job, j.q_start = NULL, expect_refused("no start", &j, &res, IK_ERR_NULL, "q_start");
    j = job, j.q_path = NULL, expect_refused("no q_path", &j, &res, IK_ERR_NULL, "q_path");
    j = job, j.waypoint_count = NULL, expect_refused("no count", &j, &res, IK_ERR_NULL, "waypoint_count");
    j = job, j.scratch = NULL, expect_refused("no scratch", &j, &res, IK_ERR_NULL, "scratch");
    j = job, j.scratch_bytes = ik_robot_path_scratch_size(6) - 1,
    expect_refused("small scratch", &j, &res, IK_ERR_CAPACITY, "scratch_bytes");
    j = job, j.max_waypoints = 100, expect_refused("small q_path", &j, &res, IK_ERR_CAPACITY, "max_waypoints");
    j = job, j.goal_position_bs.y = nan, expect_refused("NaN goal", &j, &res, IK_ERR_NONFINITE, "goal_position_bs");
    j = job, j.goal_position_bs.x = inf, expect_refused("inf goal", &j, &res, IK_ERR_NONFINITE, "goal_position_bs");
    j = job, j.goal_rotation_bs.w = inf, expect_refused("inf rotation", &j, &res, IK_ERR_NONFINITE, "goal_rotation_bs");
    j = job, j.goal_rotation_bs = ik_q(0, 0, 0, 2),
    expect_refused("non-unit rotation", &j, &res, IK_ERR_RANGE, "goal_rotation_bs");
    memcpy(bad_start, start, sizeof bad_start);
    bad_start[3] = nan;
    j = job, j.q_start = bad_start, expect_refused("NaN start", &j, &res, IK_ERR_NONFINITE, "q_start");
    bad_start[3] = 2.6f; /* the elbow's limits are +-2.5 */
    bad_start[2] = 2.6f;
    bad_start[3] = 0;
    j = job, j.q_start = bad_start, expect_refused("start past a limit", &j, &res, IK_ERR_RANGE, "q_start");
    j = job, j.max_step = 0, expect_refused("zero step", &j, &res, IK_ERR_RANGE, "max_step");
    j = job, j.max_step = -1, expect_refused("negative step", &j, &res, IK_ERR_RANGE, "max_step");
    j = job, j.max_step = nan, expect_refused("NaN step", &j, &res, IK_ERR_NONFINITE, "max_step");
    j = job, j.max_step = (ik_real)1e-12, expect_refused("step too small", &j, &res, IK_ERR_RANGE, "max_step");
    j = job, j.max_rotation_step = 0, expect_refused("zero turn", &j, &res, IK_ERR_RANGE, "max_rotation_step");
    j = job, j.joint_step_ratio = inf, expect_refused("inf ratio", &j, &res, IK_ERR_NONFINITE, "joint_step_ratio");
    j = job, j.max_joint_step = -1, expect_refused("negative bound", &j, &res, IK_ERR_RANGE, "max_joint_step");
    j = job, j.position_tolerance.z = 0, expect_refused("zero tolerance", &j, &res, IK_ERR_RANGE, "position_tolerance");
    j = job, j.angle_tolerance.x = nan, expect_refused("NaN tolerance", &j, &res, IK_ERR_RANGE, "angle_tolerance");
    j = job, j.waypoint_iterations = 0, expect_refused("no iterations", &j, &res, IK_ERR_RANGE, "waypoint_iterations");
    mimic0.joints[mimic0.joint_count - 1].multiplier = 0;
    j = job, j.chain = &mimic0, expect_refused("mimic of 0", &j, &res, IK_ERR_DEGENERATE, "chain");
    c.joints[2].origin.translation.x = nan;
    j = job, expect_refused("NaN chain", &j, &res, IK_ERR_NONFINITE, "chain");
    c = ur_shaped();
    CHECK(ik_robot_path_waypoint_count(&job, &count) == IK_OK && count == 101, "waypoint count %d, want 101", count);
    CHECK(ik_robot_path_scratch_size(-1) == 0 && ik_robot_path_scratch_size(6) > 0, "scratch sizes");
    run_path(&job, &res);
    CHECK(res.r == IK_OK && res.stop == IK_ROBOT_PATH_COMPLETE && res.count == 101, "the unspoiled job: %s, %d",
          ik_robot_path_stop_str(res.stop), res.count);
}

/* One ctest entry per group (support/test_groups.h), one a line. */
/* clang-format off */
static const test_group groups[] = {
    TEST_GROUP(random_lines),
    TEST_GROUP(out_of_reach),
    TEST_GROUP(config_ok),
    TEST_GROUP(continuous_unwrapped),
    TEST_GROUP(jump_and_still),
    TEST_GROUP(branch_switch),
    TEST_GROUP(small_turn),
    TEST_GROUP(bad_input),
};
/* clang-format on */

int main(int argc, char **argv) {
    if (!test_groups_run(groups, (int)(sizeof groups / sizeof groups[0]), argc, argv)) return 2;
    return check_summary("test_robot_path");
}

/* Robot pose IK on TRAC-IK's protocol (Beeson and Ames, Humanoids 2015;
 * trac_ik_examples/src/ik_tests.cpp): for each arm, N configurations
 * uniform within the joint limits (continuous joints in [-pi, pi]); forward
 * kinematics gives each goal pose; each goal is solved from the mid-range
 * seed (lower + upper) / 2 with a 5 ms budget and tolerance 1e-5 on each of
 * x, y, z and the three rotation components of the twist error; success
 * rate, and time per query averaged over all queries (failures count their
 * whole time). ikit's ik_robot_ik and, where CMake found Orocos KDL, KDL's
 * ChainIkSolverPos_NR_JL run on the same goals in the same program,
 * interleaved query by query, KDL the way ik_tests.cpp runs it (one
 * iteration per call, called again from its last result until it succeeds
 * or 5 ms have passed). Differences from TRAC-IK's runs: time is this
 * thread's CPU time (TRAC-IK read the wall clock), ikit's success is also
 * checked by KDL's forward kinematics in double ("verified"), and the
 * figures are medians over R repeats of the whole set.
 *
 * Where the arm's geometry allows a closed form (ik_robot_analytic: UR5,
 * IRB 2400), ikit's analytic solver runs on the same goals too, query by
 * query: success when it returns at least one solution (all of them are
 * inside the limits and checked by ikit's FK); "verified" when every
 * returned solution also passes KDL's FK within 1e-5; time per query for
 * all the solutions: the mean from one more pass over all the goals timed
 * as a whole (a thread CPU clock read is a system call of about a
 * microsecond here, as long as the query itself), the median from the
 * per-query reads of the interleaved pass (so it includes one clock read).
 *
 * Where the closed form exists, the numeric solver also runs with the
 * closed-form solutions as its starts (ik_robot_ik's analytic_starts, the
 * model prepared once): "seeded", success and time per query as for the
 * numeric solver alone, whose figures (the goal for the numeric
 * solver) are those with analytic_starts = 0.
 *
 * The protocol itself (goals, seed, the three ikit solvers, success) is
 * the library's (ikit/robot_protocol.h), which `ikc ikbench` runs on any arm.
 *
 * The goals are splitmix64's from seed 12345 (as `ikc ikbench --goals
 * splitmix`); with --trac-ik-goals they are the configurations TRAC-IK's
 * ik_tests.cpp draws (glibc's rand() after srand(1), as `ikc ikbench`'s
 * default), so the figures sit beside TRAC-IK's own runs on the same goals.
 *
 * usage: bench_robot_ik [N (default 10000)] [R repeats (default 3)] [--no-kdl] [--trac-ik-goals]
 * Writes bench_robot_ik.csv. */
#include "bench_util.h"

#include <math.h>
#include <stddef.h>

#include <ikit/robot.h>
#include <ikit/robot_analytic.h>
#include <ikit/robot_ik.h>
#include <ikit/robot_protocol.h>
#include <ikit/urdf.h>

#ifdef IKIT_BENCH_KDL
#include "robot_ik_kdl.h"
#endif

#define MAX_REPEATS 15
#define GOAL_SEED 12345

typedef struct arm_case {
    const char *name, *file, *base, *tip;
    /* TRAC-IK v1.5.1 README (bitbucket.org/traclabs/trac_ik), as quoted in issue 12;
     * negative where no figure is published for the chain. */
    double kdl_pct, kdl_ms, trac_pct, trac_ms;
} arm_case;

static const arm_case arms[] = {
    {"UR5", "ur5_joint_limited_robot.urdf", "base_link", "ee_link", 16.52, 4.21, 99.17, 0.37},
    {"Panda", "panda.urdf", "panda_link0", "panda_link8", 62.02, 2.11, 99.88, 0.37},
    {"IRB2400", "abb_irb2400.urdf", "base_link", "tool0", -1, -1, -1, -1},
};

/* One solver's figures over one repeat. */
typedef struct tally {
    int success, verified;
    long solutions;
    double total_s;
    double *times;
} tally;

/* Per repeat: success %, verified %, mean and median time (ms), solutions per query. */
typedef struct repeats {
    double rate[MAX_REPEATS], verified[MAX_REPEATS], mean[MAX_REPEATS], median[MAX_REPEATS], solutions[MAX_REPEATS];
} repeats;

/* The protocol's clock: this thread's CPU time (bench_util.h). */
static double protocol_clock(void *user) {
    (void)user;
    return bench_now();
}

#ifdef IKIT_BENCH_KDL
static double clock_plain(void) { return bench_now(); }

/* Goal i as KDL takes it: x, y, z and the quaternion x, y, z, w. */
static void goal_doubles(const ik_robot_protocol *p, int i, double position[3], double rotation[4]) {
    ik_transform g = ik_robot_protocol_goal(p, i);
    position[0] = g.translation.x, position[1] = g.translation.y, position[2] = g.translation.z;
    rotation[0] = g.rotation.x, rotation[1] = g.rotation.y, rotation[2] = g.rotation.z, rotation[3] = g.rotation.w;
}

/* KDL's twist error from the tip at q to the goal within the protocol's eps on every axis. */
static int kdl_verified(kdl_arm *arm, const ik_real *q_real, int n, const double *position, const double *rotation) {
    const double eps = IK_ROBOT_PROTOCOL_EPS;
    double q[IK_ROBOT_MAX_JOINTS], p[3], r[4], w, s, angle, k;
    int i;
    for (i = 0; i < n; ++i) q[i] = (double)q_real[i];
    kdl_arm_fk(arm, q, p, r);
    for (i = 0; i < 3; ++i)
        if (fabs(position[i] - p[i]) > eps) return 0;
    /* goal * tip^-1 as a quaternion, then its rotation vector */
    {
        double gx = rotation[0], gy = rotation[1], gz = rotation[2], gw = rotation[3];
        double tx = -r[0], ty = -r[1], tz = -r[2], tw = r[3];
        double x = gw * tx + gx * tw + gy * tz - gz * ty;
        double y = gw * ty - gx * tz + gy * tw + gz * tx;
        double z = gw * tz + gx * ty - gy * tx + gz * tw;
        w = gw * tw - gx * tx - gy * ty - gz * tz;
        if (w < 0) {
            x = -x;
            y = -y;
            z = -z;
            w = -w;
        }
        s = sqrt(x * x + y * y + z * z);
        angle = 2 * atan2(s, w);
        k = s > 0 ? angle / s : 2;
        return fabs(x * k) <= eps && fabs(y * k) <= eps && fabs(z * k) <= eps;
    }
}
#endif

static double median_of(double *values, int count) { return bench_median(values, count); }

/* One repeat's tally into the per-repeat figures. */
static void keep(repeats *rep, int r, tally *t, int queries, int timed) {
    rep->rate[r] = 100.0 * t->success / queries;
    rep->verified[r] = 100.0 * t->verified / queries;
    rep->mean[r] = 1e3 * t->total_s / queries;
    rep->median[r] = timed ? 1e3 * median_of(t->times, queries) : 0;
    rep->solutions[r] = (double)t->solutions / queries;
}

/* Runs `solver` on query i into the tally (and KDL's check of its answers). */
static void run_query(const ik_robot_protocol *p, ik_robot_protocol_solver solver, int i, tally *t, void *kdl) {
    ik_robot_protocol_answer answer;
    int all_verified = kdl != NULL, s;
    ik_robot_protocol_solve(p, solver, i, &answer);
    t->times[i] = answer.seconds;
    t->total_s += answer.seconds;
    t->solutions += answer.solutions;
    if (!answer.success) return;
    ++t->success;
#ifdef IKIT_BENCH_KDL
    {
        double position[3], rotation[4];
        goal_doubles(p, i, position, rotation);
        for (s = 0; s < answer.solutions && all_verified; ++s)
            all_verified =
                kdl_verified((kdl_arm *)kdl, answer.q + (size_t)s * p->variables, p->variables, position, rotation);
    }
#else
    (void)s;
#endif
    t->verified += all_verified;
}

static void print_row(FILE *csv, const arm_case *arm, int n, const char *solver, const char *label, repeats *rep,
                      int count, int queries, int have_kdl, int closed_form) {
    double ra = median_of(rep->rate, count), va = median_of(rep->verified, count), ma = median_of(rep->mean, count),
           da = median_of(rep->median, count), sa = median_of(rep->solutions, count);
    if (closed_form)
        printf(
            "%-8s %d DOF  %s: %6.2f %% (all solutions verified by KDL FK: %s%.2f %%)  %.2f solutions  "
            "mean %.3f us (batch)  median %.3f us (per query, with a clock read)\n",
            arm->name, n, label, ra, have_kdl ? "" : "n/a, ", have_kdl ? va : 0.0, sa, ma * 1e3, da * 1e3);
    else
        printf("%-8s %d DOF  %s: %6.2f %% (verified by KDL FK: %s%.2f %%)  mean %.4f ms  median %.4f ms\n", arm->name,
               n, label, ra, have_kdl ? "" : "n/a, ", have_kdl ? va : 0.0, ma, da);
    if (csv)
        fprintf(csv, "%s,%d,%s,%s,%d,%d,%.2f,%.2f,%.6f,%.6f,%.2f,%.2f\n", arm->name, n, solver, BENCH_SCALAR, queries,
                count, ra, have_kdl ? va : -1.0, ma, da, strcmp(solver, "ikit") == 0 ? arm->trac_pct : -1,
                strcmp(solver, "ikit") == 0 ? arm->trac_ms : -1);
}

int main(int argc, char **argv) {
    int queries = argc > 1 ? atoi(argv[1]) : 10000, repeat_count = argc > 2 ? atoi(argv[2]) : 3;
    int skip_kdl = 0, trac_goals = 0, k;
    FILE *csv = fopen("bench_robot_ik.csv", "w");
    size_t a;
    for (k = 3; k < argc; ++k) {
        skip_kdl |= strcmp(argv[k], "--no-kdl") == 0;
        trac_goals |= strcmp(argv[k], "--trac-ik-goals") == 0;
    }
    if (queries < 1 || repeat_count < 1 || repeat_count > MAX_REPEATS) {
        fprintf(stderr, "usage: bench_robot_ik [N >= 1] [R in 1..%d] [--no-kdl] [--trac-ik-goals]\n", MAX_REPEATS);
        return 2;
    }
    printf(
        "TRAC-IK protocol: %d random in-limit configurations per arm (%s), mid-range seed, 5 ms, eps 1e-5; "
        "ikit %s build; median over %d repeats\n",
        queries, trac_goals ? "TRAC-IK's goals: srand(1), rand()" : "splitmix64 goals, seed 12345", BENCH_SCALAR,
        repeat_count);
#ifndef IKIT_BENCH_KDL
    printf("KDL: not built in (CMake did not find orocos_kdl; Debian: liborocos-kdl-dev)\n");
#endif
    if (skip_kdl) printf("KDL: skipped (--no-kdl)\n");
    if (csv)
        fprintf(csv,
                "arm,dof,solver,scalar,queries,repeats,success_pct,verified_pct,mean_ms,median_ms,"
                "published_success_pct,published_mean_ms\n");
    for (a = 0; a < sizeof arms / sizeof arms[0]; ++a) {
        const arm_case *arm = &arms[a];
        char path[1024];
        ik_urdf *urdf = NULL;
        ik_error err;
        ik_robot_chain chain;
        ik_robot_protocol protocol;
        ik_transform *goals = malloc((size_t)queries * sizeof *goals);
        void *scratch = NULL;
        repeats numeric, seeded, closed, kdl_rep;
        tally ti, ts, ta, tk;
        void *kdl = NULL;
        int n, i, r, have_kdl = 0, have_analytic;
        bench_data_path(path, sizeof path, "urdf", arm->file);
        if (ik_urdf_read_file(path, &urdf, &err) != IK_OK) {
            printf("skipped: real-asset corpus not found (%s: %s)\n", path, err.message);
            return 0;
        }
        if (ik_urdf_robot_chain(urdf, arm->base, arm->tip, &chain, NULL, &err) != IK_OK) {
            printf("%s: %s\n", arm->name, err.message);
            return 1;
        }
        ti.times = malloc((size_t)queries * sizeof(double));
        ts.times = malloc((size_t)queries * sizeof(double));
        ta.times = malloc((size_t)queries * sizeof(double));
        tk.times = malloc((size_t)queries * sizeof(double));
        scratch = malloc(ik_robot_protocol_scratch_size(&chain));
        if (!goals || !scratch || !ti.times || !ts.times || !ta.times || !tk.times) {
            printf("%s: out of memory\n", arm->name);
            return 1;
        }
        if (ik_robot_protocol_init_goals(
                &protocol, &chain, queries,
                trac_goals ? IK_ROBOT_PROTOCOL_GOALS_TRAC_IK : IK_ROBOT_PROTOCOL_GOALS_SPLITMIX,
                trac_goals ? 1 : GOAL_SEED, goals, scratch, ik_robot_protocol_scratch_size(&chain), protocol_clock,
                NULL, &err) != IK_OK) {
            printf("%s: %s\n", arm->name, err.message);
            return 1;
        }
        n = protocol.variables;
        have_analytic = protocol.model.kind != IK_ROBOT_ANALYTIC_NONE;
#ifdef IKIT_BENCH_KDL
        kdl = skip_kdl ? NULL : kdl_arm_new(&chain, protocol.lower, protocol.upper, IK_ROBOT_PROTOCOL_EPS);
        have_kdl = kdl != NULL;
#endif
        for (r = 0; r < repeat_count; ++r) {
            memset(&ti, 0, offsetof(tally, times));
            memset(&ts, 0, offsetof(tally, times));
            memset(&ta, 0, offsetof(tally, times));
            memset(&tk, 0, offsetof(tally, times));
            for (i = 0; i < queries; ++i) {
                run_query(&protocol, IK_ROBOT_PROTOCOL_NUMERIC, i, &ti, kdl);
                if (have_analytic) {
                    run_query(&protocol, IK_ROBOT_PROTOCOL_SEEDED, i, &ts, kdl);
                    run_query(&protocol, IK_ROBOT_PROTOCOL_ANALYTIC, i, &ta, kdl);
                }
#ifdef IKIT_BENCH_KDL
                if (have_kdl) {
                    double kq[IK_ROBOT_MAX_JOINTS], seed_d[IK_ROBOT_MAX_JOINTS], g[7], t0;
                    int v;
                    goal_doubles(&protocol, i, g, g + 3);
                    t0 = bench_now();
                    for (v = 0; v < n; ++v) seed_d[v] = (protocol.lower[v] + protocol.upper[v]) / 2;
                    tk.success += kdl_arm_solve(kdl, seed_d, g, g + 3, IK_ROBOT_PROTOCOL_TIMEOUT_S, clock_plain, kq);
                    tk.times[i] = bench_now() - t0;
                    tk.total_s += tk.times[i];
                }
#endif
            }
            if (have_analytic) ta.total_s = ik_robot_protocol_time_analytic(&protocol);
            keep(&numeric, r, &ti, queries, 1);
            keep(&seeded, r, &ts, queries, have_analytic);
            keep(&closed, r, &ta, queries, have_analytic);
            keep(&kdl_rep, r, &tk, queries, have_kdl);
        }
        print_row(csv, arm, n, "ikit", "ikit", &numeric, repeat_count, queries, have_kdl, 0);
        if (have_kdl) {
            double rk = median_of(kdl_rep.rate, repeat_count), mk = median_of(kdl_rep.mean, repeat_count),
                   dk = median_of(kdl_rep.median, repeat_count), mi = median_of(numeric.mean, repeat_count);
            printf("%-8s %d DOF  KDL NR_JL: %6.2f %%  mean %.4f ms  median %.4f ms  (ikit/KDL mean time %.3f)\n",
                   arm->name, n, rk, mk, dk, mi / mk);
            if (csv)
                fprintf(csv, "%s,%d,kdl_nr_jl,double,%d,%d,%.2f,%.2f,%.5f,%.5f,%.2f,%.2f\n", arm->name, n, queries,
                        repeat_count, rk, rk, mk, dk, arm->kdl_pct, arm->kdl_ms);
        }
        if (have_analytic) {
            char label[96];
            print_row(csv, arm, n, "ikit_seeded", "ikit seeded by the closed form", &seeded, repeat_count, queries,
                      have_kdl, 0);
            snprintf(label, sizeof label, "ikit analytic (%s)", ik_robot_analytic_kind_str(protocol.model.kind));
            print_row(csv, arm, n, "ikit_analytic", label, &closed, repeat_count, queries, have_kdl, 1);
        } else {
            printf("%-8s %d DOF  ikit analytic: no closed form (%s)\n", arm->name, n, protocol.no_closed_form);
        }
        if (arm->trac_pct >= 0)
            printf("%-8s published (TRAC-IK v1.5.1 README): KDL %.2f %% / %.2f ms, TRAC-IK %.2f %% / %.2f ms\n",
                   arm->name, arm->kdl_pct, arm->kdl_ms, arm->trac_pct, arm->trac_ms);
#ifdef IKIT_BENCH_KDL
        kdl_arm_free(kdl);
#endif
        free(goals);
        free(scratch);
        free(ti.times);
        free(ts.times);
        free(ta.times);
        free(tk.times);
        ik_urdf_free(urdf);
    }
    if (csv) fclose(csv);
    return 0;
}

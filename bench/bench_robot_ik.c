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
 * usage: bench_robot_ik [N (default 10000)] [R repeats (default 3)] [--no-kdl]
 * Writes bench_robot_ik.csv. */
#include "bench_util.h"

#include <math.h>
#include <stddef.h>

#include <ikit/robot.h>
#include <ikit/robot_analytic.h>
#include <ikit/robot_ik.h>
#include <ikit/urdf.h>

#include "support/rng.h"

#ifdef IKIT_BENCH_KDL
#include "robot_ik_kdl.h"
#endif

#define TIMEOUT_S 0.005
#define EPS 1e-5
#define MAX_REPEATS 15

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

static double clock_for_job(void *user) {
    (void)user;
    return bench_now();
}

#ifdef IKIT_BENCH_KDL
static double clock_plain(void) { return bench_now(); }
#endif

/* Each variable's limits (the arms here have no mimic joints): continuous in [-pi, pi]. */
static void variable_limits(const ik_robot_chain *chain, double *lower, double *upper) {
    int k;
    for (k = 0; k < chain->joint_count; ++k) {
        const ik_robot_joint *j = &chain->joints[k];
        if (j->type == IK_ROBOT_FIXED) continue;
        lower[j->variable] = j->type == IK_ROBOT_CONTINUOUS ? -IK_PI : j->lower;
        upper[j->variable] = j->type == IK_ROBOT_CONTINUOUS ? IK_PI : j->upper;
    }
}

static int inside(const double *q, const double *lower, const double *upper, int n) {
    int v;
    for (v = 0; v < n; ++v)
        if (!(q[v] >= lower[v] && q[v] <= upper[v])) return 0;
    return 1;
}

#ifdef IKIT_BENCH_KDL
/* KDL's twist error from the tip at q to the goal within EPS on every axis. */
static int kdl_verified(kdl_arm *arm, const double *q, const double *position, const double *rotation) {
    double p[3], r[4], w, s, angle, k;
    int i;
    kdl_arm_fk(arm, q, p, r);
    for (i = 0; i < 3; ++i)
        if (fabs(position[i] - p[i]) > EPS) return 0;
    /* goal * tip^-1 as a quaternion, then its rotation vector */
    {
        double gx = rotation[0], gy = rotation[1], gz = rotation[2], gw = rotation[3];
        double tx = -r[0], ty = -r[1], tz = -r[2], tw = r[3];
        double x = gw * tx + gx * tw + gy * tz - gz * ty;
        double y = gw * ty - gx * tz + gy * tw + gz * tx;
        double z = gw * tz + gx * ty - gy * tx + gz * tw;
        w = gw * tw - gx * tx - gy * ty - gz * tz;
        if (w < 0) { x = -x; y = -y; z = -z; w = -w; }
        s = sqrt(x * x + y * y + z * z);
        angle = 2 * atan2(s, w);
        k = s > 0 ? angle / s : 2;
        return fabs(x * k) <= EPS && fabs(y * k) <= EPS && fabs(z * k) <= EPS;
    }
}
#endif

static double median_of(double *values, int count) { return bench_median(values, count); }

int main(int argc, char **argv) {
    int queries = argc > 1 ? atoi(argv[1]) : 10000, repeats = argc > 2 ? atoi(argv[2]) : 3;
    int skip_kdl = argc > 3 && strcmp(argv[3], "--no-kdl") == 0;
    FILE *csv = fopen("bench_robot_ik.csv", "w");
    size_t a;
    if (queries < 1 || repeats < 1 || repeats > MAX_REPEATS) {
        fprintf(stderr, "usage: bench_robot_ik [N >= 1] [R in 1..%d] [--no-kdl]\n", MAX_REPEATS);
        return 2;
    }
    printf("TRAC-IK protocol: %d random in-limit configurations per arm, mid-range seed, 5 ms, eps 1e-5; "
           "ikit %s build; median over %d repeats\n", queries, BENCH_SCALAR, repeats);
#ifndef IKIT_BENCH_KDL
    printf("KDL: not built in (CMake did not find orocos_kdl; Debian: liborocos-kdl-dev)\n");
#endif
    if (skip_kdl) printf("KDL: skipped (--no-kdl)\n");
    if (csv) fprintf(csv, "arm,dof,solver,scalar,queries,repeats,success_pct,verified_pct,mean_ms,median_ms,"
                          "published_success_pct,published_mean_ms\n");
    for (a = 0; a < sizeof arms / sizeof arms[0]; ++a) {
        const arm_case *arm = &arms[a];
        char path[1024];
        ik_urdf *urdf = NULL;
        ik_io_error err;
        ik_robot_chain chain;
        double lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS], seed_d[IK_ROBOT_MAX_JOINTS];
        ik_real seed[IK_ROBOT_MAX_JOINTS], q[IK_ROBOT_MAX_JOINTS];
        double *goals = NULL, *ikit_q = NULL;
        double rate_ikit[MAX_REPEATS], verified_ikit[MAX_REPEATS], mean_ikit[MAX_REPEATS], med_ikit[MAX_REPEATS];
        double rate_kdl[MAX_REPEATS], mean_kdl[MAX_REPEATS], med_kdl[MAX_REPEATS];
        double rate_an[MAX_REPEATS], verified_an[MAX_REPEATS], mean_an[MAX_REPEATS], med_an[MAX_REPEATS];
        double solutions_an[MAX_REPEATS];
        ik_robot_analytic_model model;
        const char *no_closed_form = NULL;
        void *scratch;
        int n, i, v, r, have_kdl = 0, have_analytic;
        rng random = rng_seeded(12345);
        tally ti, tk, ta;
#ifdef IKIT_BENCH_KDL
        kdl_arm *kdl;
#endif
        bench_data_path(path, sizeof path, "urdf", arm->file);
        if (ik_urdf_read_file(path, &urdf, &err) != IK_OK) {
            printf("skipped: real-asset corpus not found (%s: %s)\n", path, err.message);
            return 0;
        }
        if (ik_urdf_robot_chain(urdf, arm->base, arm->tip, &chain, NULL, &err) != IK_OK) {
            printf("%s: %s\n", arm->name, err.message);
            return 1;
        }
        n = chain.variable_count;
        variable_limits(&chain, lower, upper);
        for (v = 0; v < n; ++v) {
            seed_d[v] = (lower[v] + upper[v]) / 2;
            seed[v] = (ik_real)seed_d[v];
        }
        /* goals: 7 numbers each (x, y, z, qx, qy, qz, qw) from FK of random configurations */
        goals = malloc((size_t)queries * 7 * sizeof *goals);
        ikit_q = malloc((size_t)n * sizeof *ikit_q);
        ti.times = malloc((size_t)queries * sizeof(double));
        tk.times = malloc((size_t)queries * sizeof(double));
        ta.times = malloc((size_t)queries * sizeof(double));
        scratch = malloc(ik_robot_ik_scratch_size(n));
        if (!goals || !ikit_q || !ti.times || !tk.times || !ta.times || !scratch) return 1;
        have_analytic = ik_robot_analytic_prepare(&chain, &model, &no_closed_form) == IK_OK;
        for (i = 0; i < queries; ++i) {
            ik_transform tip;
            for (v = 0; v < n; ++v) q[v] = rng_range(&random, lower[v], upper[v]);
            ik_robot_fk(&chain, q, &tip, NULL);
            goals[i * 7 + 0] = tip.translation.x;
            goals[i * 7 + 1] = tip.translation.y;
            goals[i * 7 + 2] = tip.translation.z;
            goals[i * 7 + 3] = tip.rotation.x;
            goals[i * 7 + 4] = tip.rotation.y;
            goals[i * 7 + 5] = tip.rotation.z;
            goals[i * 7 + 6] = tip.rotation.w;
        }
#ifdef IKIT_BENCH_KDL
        kdl = skip_kdl ? NULL : kdl_arm_new(&chain, lower, upper, EPS);
        have_kdl = kdl != NULL;
#endif
        for (r = 0; r < repeats; ++r) {
            memset(&ti, 0, offsetof(tally, times));
            memset(&tk, 0, offsetof(tally, times));
            memset(&ta, 0, offsetof(tally, times));
            for (i = 0; i < queries; ++i) {
                const double *g = goals + (size_t)i * 7;
                ik_robot_ik job = ik_robot_ik_def();
                ik_bool reached = 0;
                double t0, t;
                job.chain = &chain;
                job.goal_position_bs = ik_v3((ik_real)g[0], (ik_real)g[1], (ik_real)g[2]);
                job.goal_rotation_bs = ik_q((ik_real)g[3], (ik_real)g[4], (ik_real)g[5], (ik_real)g[6]);
                job.q_seed = seed;
                job.q_out = q;
                job.reached = &reached;
                job.max_iterations = 1000000;
                job.clock_s = clock_for_job;
                job.time_budget_s = TIMEOUT_S;
                job.random_seed = (unsigned long)(i + 1);
                job.scratch = scratch;
                job.scratch_bytes = ik_robot_ik_scratch_size(n);
                t0 = bench_now();
                ik_robot_ik_run(&job);
                t = bench_now() - t0;
                ti.times[i] = t;
                ti.total_s += t;
                for (v = 0; v < n; ++v) ikit_q[v] = (double)q[v];
                if (reached && inside(ikit_q, lower, upper, n)) {
                    ++ti.success;
#ifdef IKIT_BENCH_KDL
                    if (have_kdl && kdl_verified(kdl, ikit_q, g, g + 3)) ++ti.verified;
#endif
                }
                if (have_analytic) {
                    ik_robot_analytic closed = ik_robot_analytic_def();
                    ik_real solutions[IK_ROBOT_ANALYTIC_MAX_SOLUTIONS * 6];
                    int count = 0, s, all_verified = have_kdl;
                    closed.model = &model;
                    closed.goal_position_bs = job.goal_position_bs;
                    closed.goal_rotation_bs = job.goal_rotation_bs;
                    closed.q_seed = seed;
                    closed.q_out = solutions;
                    closed.solution_count = &count;
                    t0 = bench_now();
                    ik_robot_analytic_run(&closed);
                    t = bench_now() - t0;
                    ta.times[i] = t;
                    ta.solutions += count;
                    for (s = 0; s < count; ++s) {
                        for (v = 0; v < n; ++v) ikit_q[v] = (double)solutions[6 * s + v];
#ifdef IKIT_BENCH_KDL
                        if (have_kdl && !kdl_verified(kdl, ikit_q, g, g + 3)) all_verified = 0;
#endif
                    }
                    if (count > 0) ++ta.success;
                    if (count > 0 && all_verified) ++ta.verified;
                }
#ifdef IKIT_BENCH_KDL
                if (have_kdl) {
                    double kq[IK_ROBOT_MAX_JOINTS];
                    int ok;
                    t0 = bench_now();
                    ok = kdl_arm_solve(kdl, seed_d, g, g + 3, TIMEOUT_S, clock_plain, kq);
                    t = bench_now() - t0;
                    tk.times[i] = t;
                    tk.total_s += t;
                    if (ok) ++tk.success;
                }
#endif
            }
            rate_ikit[r] = 100.0 * ti.success / queries;
            verified_ikit[r] = 100.0 * ti.verified / queries;
            mean_ikit[r] = 1e3 * ti.total_s / queries;
            med_ikit[r] = 1e3 * median_of(ti.times, queries);
            rate_kdl[r] = 100.0 * tk.success / queries;
            mean_kdl[r] = 1e3 * tk.total_s / queries;
            med_kdl[r] = have_kdl ? 1e3 * median_of(tk.times, queries) : 0;
            if (have_analytic) {
                ik_robot_analytic closed = ik_robot_analytic_def();
                ik_real solutions[IK_ROBOT_ANALYTIC_MAX_SOLUTIONS * 6];
                int count = 0;
                double t0 = bench_now();
                closed.model = &model;
                closed.q_seed = seed;
                closed.q_out = solutions;
                closed.solution_count = &count;
                for (i = 0; i < queries; ++i) {
                    const double *g = goals + (size_t)i * 7;
                    closed.goal_position_bs = ik_v3((ik_real)g[0], (ik_real)g[1], (ik_real)g[2]);
                    closed.goal_rotation_bs = ik_q((ik_real)g[3], (ik_real)g[4], (ik_real)g[5], (ik_real)g[6]);
                    ik_robot_analytic_run(&closed);
                }
                ta.total_s = bench_now() - t0;
            }
            rate_an[r] = 100.0 * ta.success / queries;
            verified_an[r] = 100.0 * ta.verified / queries;
            mean_an[r] = 1e6 * ta.total_s / queries;
            med_an[r] = have_analytic ? 1e6 * median_of(ta.times, queries) : 0;
            solutions_an[r] = (double)ta.solutions / queries;
        }
        {
            double ri = median_of(rate_ikit, repeats), vi = median_of(verified_ikit, repeats),
                   mi = median_of(mean_ikit, repeats), di = median_of(med_ikit, repeats);
            printf("%-8s %d DOF  ikit: %6.2f %% (verified by KDL FK: %s%.2f %%)  mean %.4f ms  median %.4f ms\n",
                   arm->name, n, ri, have_kdl ? "" : "n/a, ", have_kdl ? vi : 0.0, mi, di);
            if (csv) fprintf(csv, "%s,%d,ikit,%s,%d,%d,%.2f,%.2f,%.5f,%.5f,%.2f,%.2f\n", arm->name, n, BENCH_SCALAR,
                             queries, repeats, ri, have_kdl ? vi : -1.0, mi, di, arm->trac_pct, arm->trac_ms);
            if (have_kdl) {
                double rk = median_of(rate_kdl, repeats), mk = median_of(mean_kdl, repeats),
                       dk = median_of(med_kdl, repeats);
                printf("%-8s %d DOF  KDL NR_JL: %6.2f %%  mean %.4f ms  median %.4f ms  (ikit/KDL mean time %.3f)\n",
                       arm->name, n, rk, mk, dk, mi / mk);
                if (csv) fprintf(csv, "%s,%d,kdl_nr_jl,double,%d,%d,%.2f,%.2f,%.5f,%.5f,%.2f,%.2f\n", arm->name, n,
                                 queries, repeats, rk, rk, mk, dk, arm->kdl_pct, arm->kdl_ms);
            }
            if (have_analytic) {
                double ra = median_of(rate_an, repeats), va = median_of(verified_an, repeats),
                       ma = median_of(mean_an, repeats), da = median_of(med_an, repeats),
                       sa = median_of(solutions_an, repeats);
                printf("%-8s %d DOF  ikit analytic (%s): %6.2f %% (all solutions verified by KDL FK: %s%.2f %%)  "
                       "%.2f solutions  mean %.3f us (batch)  median %.3f us (per query, with a clock read)\n",
                       arm->name, n, ik_robot_analytic_kind_str(model.kind), ra, have_kdl ? "" : "n/a, ",
                       have_kdl ? va : 0.0, sa, ma, da);
                if (csv) fprintf(csv, "%s,%d,ikit_analytic,%s,%d,%d,%.2f,%.2f,%.6f,%.6f,-1,-1\n", arm->name, n,
                                 BENCH_SCALAR, queries, repeats, ra, have_kdl ? va : -1.0, ma / 1e3, da / 1e3);
            } else {
                printf("%-8s %d DOF  ikit analytic: no closed form (%s)\n", arm->name, n, no_closed_form);
            }
            if (arm->trac_pct >= 0)
                printf("%-8s published (TRAC-IK v1.5.1 README): KDL %.2f %% / %.2f ms, TRAC-IK %.2f %% / %.2f ms\n",
                       arm->name, arm->kdl_pct, arm->kdl_ms, arm->trac_pct, arm->trac_ms);
        }
#ifdef IKIT_BENCH_KDL
        kdl_arm_free(kdl);
#endif
        free(goals);
        free(ikit_q);
        free(ti.times);
        free(tk.times);
        free(ta.times);
        free(scratch);
        ik_urdf_free(urdf);
    }
    if (csv) fclose(csv);
    return 0;
}

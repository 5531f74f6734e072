/* Chain solver benchmarks: the FABRIK paper's 10-joint test (FABRIK, CCD,
 * a positions-only CCD peer) and an easier 0.9 L ball beside it,
 * scaling to 1,000 bones with cone limits, and tracking moving targets on
 * Y-shaped trees. Medians over repeats of the CPU time of the thread; CSV in bench_chain.csv. */
#include "bench_util.h"

#include <ikit/ccd.h>
#include <ikit/fabrik.h>
#include <string.h>

#define MAX_BONES 1000
#define MAX_JOINTS (MAX_BONES + 1)
#define REPEATS 5

#include "bench_trees.h"
/* The tracking benchmark reads the effectors' places from FABRIK's working
 * links (private), as running forward kinematics would add to the timed loop. */
#include "../src/solve/chain_links.h"
#include "support/chain_fixture.h"
#include "support/rng.h"
#ifdef IKIT_BENCH_THECOMET
#include <math.h>

#include "thecomet_peer.h"
#endif

static chain_fixture g_rig;

typedef struct outcome {
    double us_per_solve, mean_iterations, success, mean_error;
} outcome;

/* `solver` 0 = FABRIK, 1 = CCD. Each solve starts from the straight rest pose.
 * Success is ending within the tolerance of the best reachable distance
 * (`best`, per target: |t| - L out of reach; NULL: 0 for every target). */
static outcome run_targets(chain_fixture *r, int solver, const ik_vec3 *targets, const ik_real *best, int count,
                           ik_real tolerance, int max_iterations, const ik_constraint *constraints) {
    double times[REPEATS];
    outcome o = {0, 0, 0, 0};
    int rep, i;
    for (rep = 0; rep < REPEATS; ++rep) {
        long iterations_sum = 0, successes = 0;
        double error_sum = 0, start = bench_now();
        for (i = 0; i < count; ++i) {
            int iters = 0;
            ik_real err = 0;
            ik_skeleton_rest_pose(&r->skeleton, r->pose_ls);
            if (solver == 0) {
                ik_fabrik job = chain_fabrik_job(r, &targets[i]);
                job.base.constraints = constraints;
                job.tolerance = tolerance;
                job.max_iterations = max_iterations;
                job.iterations = &iters;
                job.error = &err;
                ik_fabrik_run(&job);
            } else {
                ik_ccd job = chain_ccd_job(r, targets[i]);
                job.base.constraints = constraints;
                job.tolerance = tolerance;
                job.max_iterations = max_iterations;
                job.iterations = &iters;
                job.error = &err;
                ik_ccd_run(&job);
            }
            iterations_sum += iters;
            successes += err - (best ? best[i] : 0) <= tolerance;
            error_sum += (double)err;
        }
        times[rep] = (bench_now() - start) / count * 1e6;
        o.mean_iterations = (double)iterations_sum / count;
        o.success = (double)successes / count;
        o.mean_error = error_sum / count;
    }
    o.us_per_solve = bench_median(times, REPEATS);
    return o;
}

/* A peer for CCD's time per sweep: the textbook positions-only CCD on the
 * same chain (joint positions p_0..p_n, no rotations, no limits). Each
 * joint from the end back turns every joint after it about p_k by the
 * minimum rotation taking e - p_k onto t - p_k (Rodrigues' formula on the
 * unit directions), until |e - t| <= tolerance, the same stall test as
 * ccd.c (error down by 0.1% per 16 sweeps) or `cap` sweeps. Returns sweeps. */
static int plain_ccd(ik_vec3 *p, int n, ik_vec3 target, ik_real tolerance, int cap) {
    ik_real err = ik_vec3_distance(p[n - 1], target), checkpoint = err;
    int it = 0, k, j;
    while (err > tolerance && it < cap) {
        ++it;
        for (k = n - 2; k >= 0; --k) {
            ik_vec3 a = ik_vec3_normalize(ik_vec3_sub(p[n - 1], p[k])),
                    b = ik_vec3_normalize(ik_vec3_sub(target, p[k]));
            ik_quat turn = ik_quat_from_to(a, b);
            for (j = k + 1; j < n; ++j) p[j] = ik_vec3_add(p[k], ik_quat_rotate(turn, ik_vec3_sub(p[j], p[k])));
            if (ik_vec3_distance(p[n - 1], target) <= tolerance) break;
        }
        err = ik_vec3_distance(p[n - 1], target);
        if (it % 16 == 0) {
            if (!(checkpoint - err >= (ik_real)0.001 * err)) break;
            checkpoint = err;
        }
    }
    return it;
}

/* The peer on `count` targets from the straight chain along +y: median us
 * per solve, mean sweeps, success rate. */
static outcome run_plain_ccd(const ik_vec3 *targets, int count, ik_real tolerance, int cap) {
    double times[REPEATS];
    outcome o = {0, 0, 0, 0};
    int rep, i, k;
    for (rep = 0; rep < REPEATS; ++rep) {
        long sweeps = 0, successes = 0;
        double error_sum = 0, start = bench_now();
        for (i = 0; i < count; ++i) {
            ik_vec3 p[11];
            ik_real err;
            for (k = 0; k < 11; ++k) p[k] = ik_v3(0, (ik_real)k, 0);
            sweeps += plain_ccd(p, 11, targets[i], tolerance, cap);
            err = ik_vec3_distance(p[10], targets[i]);
            successes += err <= tolerance;
            error_sum += (double)err;
        }
        times[rep] = (bench_now() - start) / count * 1e6;
        o.mean_iterations = (double)sweeps / count;
        o.success = (double)successes / count;
        o.mean_error = error_sum / count;
    }
    o.us_per_solve = bench_median(times, REPEATS);
    return o;
}

static void print_outcome(FILE *csv, const char *solver, const char *targets, outcome o) {
    printf("   %-10s %-12s %10.2f %10.3f %10.4f %9.2f%% %12.3g\n", solver, targets, o.mean_iterations, o.us_per_solve,
           o.mean_iterations > 0 ? o.us_per_solve / o.mean_iterations : 0, 100 * o.success, o.mean_error);
    fprintf(csv, "paper,%s,10,%s,none,%.3f,%.4f,%.5f,%.6g\n", solver, targets, o.mean_iterations, o.us_per_solve,
            o.success, o.mean_error);
}

/* ikit's FABRIK and TheComet's ik (where built in: -DIKIT_THECOMET_DIR),
 * each at its own defaults (ikit: tolerance 1e-3, at most 1,000
 * iterations; TheComet: tolerance 1e-3, 20 iterations, joint rotations
 * computed), on the same targets from the same straight chain of 10 unit
 * bones (g_rig), the repeats alternating (which goes first alternates too),
 * each timed by the thread's CPU time; then an untimed pass for where each
 * left the end (success: within 1e-3 of the target). */
static void thecomet_compare(FILE *csv, const char *label, const ik_vec3 *targets, int count) {
#ifdef IKIT_BENCH_THECOMET
    double ours[REPEATS], theirs[REPEATS], error_ours = 0, error_theirs = 0, ns_ours, ns_theirs;
    long ok_ours = 0, ok_theirs = 0;
    thecomet_chain *c = thecomet_chain_new(10, 1);
    int rep, first, i;
    if (!c) {
        printf("   thecomet: its chain could not be made\n");
        return;
    }
    for (rep = 0; rep < REPEATS; ++rep)
        for (first = 0; first < 2; ++first) {
            double t0 = bench_now();
            if ((first ^ rep) & 1) {
                for (i = 0; i < count; ++i)
                    thecomet_chain_solve(c, (double)targets[i].x, (double)targets[i].y, (double)targets[i].z);
                theirs[rep] = (bench_now() - t0) / count * 1e6;
            } else {
                for (i = 0; i < count; ++i) {
                    ik_fabrik job = chain_fabrik_job(&g_rig, &targets[i]);
                    ik_skeleton_rest_pose(&g_rig.skeleton, g_rig.pose_ls);
                    ik_fabrik_run(&job);
                }
                ours[rep] = (bench_now() - t0) / count * 1e6;
            }
        }
    for (i = 0; i < count; ++i) {
        double end[3], dx, dy, dz, e;
        ik_real err = 0;
        ik_fabrik job = chain_fabrik_job(&g_rig, &targets[i]);
        thecomet_chain_solve(c, (double)targets[i].x, (double)targets[i].y, (double)targets[i].z);
        thecomet_chain_end(c, end);
        dx = end[0] - (double)targets[i].x, dy = end[1] - (double)targets[i].y, dz = end[2] - (double)targets[i].z;
        e = sqrt(dx * dx + dy * dy + dz * dz);
        error_theirs += e;
        ok_theirs += e <= 1e-3;
        ik_skeleton_rest_pose(&g_rig.skeleton, g_rig.pose_ls);
        job.error = &err;
        ik_fabrik_run(&job);
        error_ours += (double)err;
        ok_ours += err <= (ik_real)1e-3;
    }
    ns_ours = bench_median(ours, REPEATS);
    ns_theirs = bench_median(theirs, REPEATS);
    printf("   %-10s %-12s %10s %10.3f %10s %9.2f%% %12.3g  (ikit fabrik at its defaults)\n", "fabrik", label, "",
           ns_ours, "", 100.0 * (double)ok_ours / count, error_ours / count);
    printf("   %-10s %-12s %10d %10.3f %10s %9.2f%% %12.3g  (TheComet's ik at its defaults, %s)\n", "thecomet", label,
           thecomet_max_iterations(c), ns_theirs, "", 100.0 * (double)ok_theirs / count, error_theirs / count,
           thecomet_precision());
    printf("   ikit's FABRIK is %.2f times TheComet's speed on %s (same targets, interleaved, thread CPU time)\n",
           ns_theirs / ns_ours, label);
    fprintf(csv, "paper,fabrik-default,10,%s,none,,%.4f,%.5f,%.6g\n", label, ns_ours, (double)ok_ours / count,
            error_ours / count);
    fprintf(csv, "paper,thecomet-default,10,%s,none,%d,%.4f,%.5f,%.6g\n", label, thecomet_max_iterations(c), ns_theirs,
            (double)ok_theirs / count, error_theirs / count);
    thecomet_chain_free(c);
#else
    (void)csv, (void)targets, (void)count;
    if (strcmp(label, "full-reach") == 0)
        printf(
            "   skipped peer: TheComet's ik (not built in: configure with -DIKIT_THECOMET_DIR=<its source> and\n"
            "   -DIKIT_THECOMET_BUILD_DIR=<where its ik.a was built>)\n");
#endif
}

/* Three target sets on 10 unit bones, straight (along +y) before each
 * target, tolerance 1e-3 L (0.01):
 *   full-reach:  uniform in the ball of radius L about the base, the
 *                protocol of Aristidou and Lasenby 2011 (targets anywhere
 *                within reach);
 *   full-bent:   the full-reach targets from a chain bent at every joint by
 *                up to 0.3 rad at rest instead of straight (ours; FABRIK);
 *   ball-0.9L:   uniform in a ball of 0.9 L, an easier set (no target near
 *                full extension, where FABRIK and CCD are slowest);
 *   unreachable: 1.1 L to 2 L away; success is ending within tolerance of
 *                the best reachable distance |t| - L. */
static void paper_test(FILE *csv) {
    static ik_vec3 full[10000], ball[10000], unreachable[10000];
    static ik_real unreachable_best[10000];
    static chain_fixture bent;
    const char *names[2] = {"fabrik", "ccd"};
    rng r = rng_seeded(2011), bends = rng_seeded(2012);
    ik_real length = 10, tolerance = length * (ik_real)1e-3;
    int i, s;
    chain_make(&g_rig, 10, 1, NULL, 0);
    chain_make(&bent, 10, 1, &bends, (ik_real)0.3);
    for (i = 0; i < 10000; ++i) {
        ball[i] = rng_in_ball(&r, 0.9 * length);
        unreachable[i] = ik_vec3_scale(rng_direction(&r), rng_range(&r, 1.1 * length, 2 * length));
        unreachable_best[i] = ik_vec3_length(unreachable[i]) - length;
    }
    for (i = 0; i < 10000; ++i) full[i] = rng_in_ball(&r, length);
    printf(
        "1. Chain of 10 bones of length 1, straight before each target, tolerance 1e-3 L;\n"
        "   full-reach = Aristidou & Lasenby 2011's protocol (targets uniform within reach), ball-0.9L = ours\n"
        "   (targets in a ball of 0.9 L), full-bent = full-reach targets from a bent start (rest bends up to 0.3 "
        "rad);\n"
        "   cap 100 (FABRIK) / 1000 (CCD); plain-ccd = positions-only CCD peer\n");
    printf("   %-10s %-12s %10s %10s %10s %10s %12s\n", "solver", "targets", "iters", "us/solve", "us/iter", "success",
           "mean error");
    for (s = 0; s < 2; ++s) {
        int cap = s == 0 ? 100 : ik_ccd_def().max_iterations;
        print_outcome(csv, names[s], "full-reach", run_targets(&g_rig, s, full, NULL, 10000, tolerance, cap, NULL));
        if (s == 0)
            print_outcome(csv, names[s], "full-bent", run_targets(&bent, s, full, NULL, 10000, tolerance, cap, NULL));
        print_outcome(csv, names[s], "ball-0.9L", run_targets(&g_rig, s, ball, NULL, 10000, tolerance, cap, NULL));
        print_outcome(csv, names[s], "unreachable",
                      run_targets(&g_rig, s, unreachable, unreachable_best, 10000, tolerance, cap, NULL));
        if (s == 1) {
            print_outcome(csv, "plain-ccd", "full-reach", run_plain_ccd(full, 10000, tolerance, cap));
            print_outcome(csv, "plain-ccd", "ball-0.9L", run_plain_ccd(ball, 10000, tolerance, cap));
        }
    }
    thecomet_compare(csv, "full-reach", full, 10000);
    thecomet_compare(csv, "ball-0.9L", ball, 10000);
}

static void scaling_test(FILE *csv) {
    static ik_vec3 targets[50];
    const ik_real cones[3] = {0, 45, 90};
    int bones, c, i;
    printf("\n2. Scaling: bones of length 10, 50 targets in a cube of +-L/2, FABRIK, cap 50, tolerance 1e-3 L\n");
    printf("   %6s %-8s %12s %10s %14s\n", "bones", "cone", "us/solve", "iters", "mean distance");
    for (bones = 100; bones <= 1000; bones += 100) {
        ik_real length = (ik_real)bones * 10;
        rng r = rng_seeded((uint64_t)bones);
        chain_make(&g_rig, bones, 10, NULL, 0);
        for (i = 0; i < 50; ++i)
            targets[i] = ik_v3(rng_range(&r, -length / 2, length / 2), rng_range(&r, -length / 2, length / 2),
                               rng_range(&r, -length / 2, length / 2));
        for (c = 0; c < 3; ++c) {
            outcome o;
            char label[16];
            for (i = 0; i < g_rig.count; ++i)
                g_rig.constraints[i] = cones[c] > 0 ? ik_constraint_cone_twist(ik_quat_identity(), ik_v3(0, 1, 0),
                                                                               ik_rad(cones[c]), -IK_PI, IK_PI)
                                                    : ik_constraint_none();
            o = run_targets(&g_rig, 0, targets, NULL, 50, length * (ik_real)1e-3, 50,
                            cones[c] > 0 ? g_rig.constraints : NULL);
            snprintf(label, sizeof(label), cones[c] > 0 ? "%.0fdeg" : "none", (double)cones[c]);
            printf("   %6d %-8s %12.1f %10.1f %14.4g\n", bones, label, o.us_per_solve, o.mean_iterations, o.mean_error);
            fprintf(csv, "scaling,fabrik,%d,cube,%s,%.3f,%.4f,%.5f,%.6g\n", bones, label, o.mean_iterations,
                    o.us_per_solve, o.success, o.mean_error);
        }
    }
}

/* bench_tree's Y or double-Y tree; its leaves are the effectors. */
static int make_tree(chain_fixture *r, int double_y, int *effectors) {
    int leaf[BENCH_TREE_MAX_JOINTS], i, ne = 0;
    r->count = bench_tree(double_y, r->parents, r->rest_ls, leaf);
    for (i = 0; i < r->count; ++i) {
        r->joints[i] = i;
        if (leaf[i]) effectors[ne++] = i;
    }
    ik_skeleton_init(&r->skeleton, r->count, r->parents, NULL, r->rest_ls, NULL);
    ik_skeleton_rest_pose(&r->skeleton, r->pose_ls);
    return ne;
}

static void tracking_test(FILE *csv) {
    int d;
    printf(
        "\n3. Tracking: targets on smooth periodic curves, 400 warm-up + 2000 measured steps, 1 FABRIK iteration per "
        "step\n");
    printf("   %-9s %10s %12s %16s\n", "tree", "effectors", "us/step", "mean summed err");
    for (d = 0; d < 2; ++d) {
        int effectors[4], ne = make_tree(&g_rig, d, effectors), rep, step, k;
        ik_mat4 model_ms[32];
        ik_vec3 rest_tip[4], targets[4];
        double times[REPEATS], error_sum = 0;
        ik_skeleton_fk(&g_rig.skeleton, g_rig.pose_ls, NULL, model_ms);
        for (k = 0; k < ne; ++k) rest_tip[k] = ik_mat4_translation(&model_ms[effectors[k]]);
        for (rep = 0; rep < REPEATS; ++rep) {
            double start = 0;
            error_sum = 0;
            ik_skeleton_rest_pose(&g_rig.skeleton, g_rig.pose_ls);
            for (step = 0; step < 2400; ++step) {
                double t = step * 0.01;
                ik_fabrik job = chain_fabrik_job(&g_rig, targets);
                if (step == 400) start = bench_now();
                for (k = 0; k < ne; ++k) targets[k] = bench_tracking_target(rest_tip[k], t, k);
                job.effectors = effectors;
                job.effector_count = ne;
                job.tolerance = 0;
                job.max_iterations = 1;
                ik_fabrik_run(&job);
                if (step >= 400) {
                    for (k = 0; k < ne; ++k)
                        error_sum += (double)ik_vec3_distance(
                            ((const ik_chain_link *)(const void *)g_rig.scratch)[effectors[k]].model_ms.translation,
                            targets[k]);
                }
            }
            times[rep] = (bench_now() - start) / 2000 * 1e6;
        }
        printf("   %-9s %10d %12.3f %16.4g\n", d ? "double-Y" : "Y", ne, bench_median(times, REPEATS),
               error_sum / 2000);
        fprintf(csv, "tracking,fabrik,%d,%s,none,1,%.4f,,%.6g\n", g_rig.count, d ? "double-Y" : "Y",
                bench_median(times, REPEATS), error_sum / 2000);
    }
}

/* With an argument (paper, scaling or tracking), only that benchmark runs. */
int main(int argc, char **argv) {
    const char *only = argc > 1 ? argv[1] : NULL;
    FILE *csv = fopen("bench_chain.csv", "w");
    if (!csv) {
        perror("bench_chain.csv");
        return 1;
    }
    fprintf(csv, "test,solver,joints_or_bones,targets,limits,mean_iterations,us_per_solve,success_rate,mean_error\n");
    if (!only || !strcmp(only, "paper")) paper_test(csv);
    if (!only || !strcmp(only, "scaling")) scaling_test(csv);
    if (!only || !strcmp(only, "tracking")) tracking_test(csv);
    fclose(csv);
    printf("\nwrote bench_chain.csv (%s build)\n", sizeof(ik_real) == 4 ? "float" : "double");
    return 0;
}

/* Jacobian solver benchmarks: the FABRIK paper's 10-joint test for the
 * transpose, gradient, DLS and SDLS methods, tracking moving targets on Y
 * and double-Y trees (Buss & Kim 2005's figures) with one update per step,
 * and issue 11's tight-tolerance test for DLS and SDLS (5-8 axis chains,
 * position + orientation goals). Medians over repeats; CSV in
 * bench_jacobian.csv. */
#include "bench_util.h"

#include <ikit/jacobian.h>
#include <math.h>
#include <string.h>

#include "bench_trees.h"
#include "support/axis_chain.h"
#include "support/rng.h"

#define REPEATS 5
#define TARGETS 1000
#define MAX_JOINTS 32

typedef struct rig {
    int parents[MAX_JOINTS];
    ik_transform rest_ls[MAX_JOINTS], pose_ls[MAX_JOINTS];
    ik_jacobian_joint joints[MAX_JOINTS];
    ik_mat4 model_ms[MAX_JOINTS];
    ik_skeleton skeleton;
    int count, joint_count;
} rig;

static rig g_rig;
static double g_scratch[16384];

static const ik_jacobian_method methods[4] = {IK_JACOBIAN_TRANSPOSE, IK_JACOBIAN_GRADIENT, IK_JACOBIAN_DLS,
                                              IK_JACOBIAN_SDLS};
static const char *const method_names[4] = {"transpose", "gradient", "dls", "sdls"};

/* `bones` unit bones along +y, a ball joint at every joint but the tip. */
static void make_chain(rig *r, int bones) {
    int i;
    r->count = bones + 1;
    for (i = 0; i < r->count; ++i) {
        r->parents[i] = i - 1;
        r->rest_ls[i] = ik_transform_make(i ? ik_v3(0, 1, 0) : ik_vec3_zero(), ik_quat_identity(), ik_v3(1, 1, 1));
        if (i < bones) r->joints[i] = ik_jacobian_ball(i);
    }
    r->joint_count = bones;
    ik_skeleton_init(&r->skeleton, r->count, r->parents, NULL, r->rest_ls, NULL);
}

static ik_jacobian base_job(rig *r, const ik_jacobian_effector *effectors, int count, ik_jacobian_method method) {
    ik_jacobian job = ik_jacobian_def();
    job.base.skeleton = &r->skeleton;
    job.base.pose_ls = r->pose_ls;
    job.joints = r->joints;
    job.base.listed_joint_count = r->joint_count;
    job.effectors = effectors;
    job.effector_count = count;
    job.method = method;
    job.base.scratch = g_scratch;
    job.base.scratch_bytes = sizeof g_scratch;
    return job;
}

typedef struct outcome {
    double us_per_solve, mean_iterations, success, mean_error;
} outcome;

/* Each target from the straight chain; success is ending within the
 * tolerance of the best reachable distance (0 inside reach, |t| - L out). */
static outcome run_targets(const ik_vec3 *targets, int count, ik_jacobian_method method, int max_iterations) {
    const ik_real length = (ik_real)g_rig.joint_count, tolerance = length * (ik_real)1e-3;
    double times[REPEATS];
    outcome o;
    int rep, i;
    memset(&o, 0, sizeof o);
    for (rep = 0; rep < REPEATS; ++rep) {
        double start = bench_now(), iterations = 0, success = 0, error_sum = 0;
        for (i = 0; i < count; ++i) {
            ik_jacobian_effector effector = ik_jacobian_effector_make(g_rig.joint_count, targets[i]);
            ik_jacobian job = base_job(&g_rig, &effector, 1, method);
            ik_real error = 0, best = ik_maxr(0, ik_vec3_length(targets[i]) - length);
            int used = 0;
            ik_skeleton_rest_pose(&g_rig.skeleton, g_rig.pose_ls);
            job.tolerance = tolerance;
            job.max_iterations = max_iterations;
            job.iterations = &used;
            job.error = &error;
            ik_jacobian_run(&job);
            iterations += used;
            error_sum += (double)error;
            success += error - best <= tolerance;
        }
        times[rep] = (bench_now() - start) / count * 1e6;
        o.mean_iterations = iterations / count;
        o.success = success / count;
        o.mean_error = error_sum / count;
    }
    o.us_per_solve = bench_median(times, REPEATS);
    return o;
}

static void fabrik_paper_test(FILE *csv) {
    static ik_vec3 reachable[TARGETS], unreachable[TARGETS];
    rng r = rng_seeded(2011);
    int i, m, kind;
    make_chain(&g_rig, 10);
    for (i = 0; i < TARGETS; ++i) {
        reachable[i] = rng_in_ball(&r, 0.9 * 10);
        unreachable[i] = ik_vec3_scale(rng_direction(&r), rng_range(&r, 10.5, 20));
    }
    printf(
        "1. FABRIK paper test: 10 unit bones, ball joints, reset straight before each of %d targets,\n"
        "   tolerance 1e-3 of the length, at most 1000 iterations (%s)\n",
        TARGETS, BENCH_SCALAR);
    printf("   %-12s %-10s %12s %12s %10s %14s\n", "targets", "method", "us/solve", "iterations", "success",
           "mean error");
    for (kind = 0; kind < 2; ++kind)
        for (m = 0; m < 4; ++m) {
            outcome o = run_targets(kind ? unreachable : reachable, TARGETS, methods[m], 1000);
            const char *label = kind ? "unreachable" : "reachable";
            printf("   %-12s %-10s %12.2f %12.1f %9.1f%% %14.4g\n", label, method_names[m], o.us_per_solve,
                   o.mean_iterations, 100 * o.success, o.mean_error);
            fprintf(csv, "fabrik_paper,%s,%s,%s,10,%.3f,%.4f,%.5f,%.6g\n", method_names[m], BENCH_SCALAR, label,
                    o.mean_iterations, o.us_per_solve, o.success, o.mean_error);
        }
}

/* bench_tree's Y or double-Y tree (as in bench_chain.c, so the figures
 * compare with FABRIK's): its leaves are the effectors, every other joint is
 * a ball joint. */
static int make_tree(rig *r, int double_y, int *effectors) {
    int leaf[BENCH_TREE_MAX_JOINTS], i, ne = 0;
    r->count = bench_tree(double_y, r->parents, r->rest_ls, leaf);
    r->joint_count = 0;
    for (i = 0; i < r->count; ++i) {
        if (leaf[i])
            effectors[ne++] = i;
        else
            r->joints[r->joint_count++] = ik_jacobian_ball(i);
    }
    ik_skeleton_init(&r->skeleton, r->count, r->parents, NULL, r->rest_ls, NULL);
    ik_skeleton_rest_pose(&r->skeleton, r->pose_ls);
    return ne;
}

static void tracking_test(FILE *csv) {
    int d, m;
    printf(
        "\n2. Tracking: targets on smooth periodic curves, 400 warm-up + 2000 measured steps, one update per step\n");
    printf("   %-9s %-6s %10s %12s %18s\n", "tree", "method", "effectors", "us/step", "mean summed error");
    for (d = 0; d < 2; ++d)
        for (m = 2; m < 4; ++m) {
            int effector_joints[4], ne = make_tree(&g_rig, d, effector_joints), rep, step, k;
            ik_vec3 rest_tip[4];
            ik_jacobian_effector effectors[4];
            double times[REPEATS], error_sum = 0;
            ik_skeleton_fk(&g_rig.skeleton, g_rig.pose_ls, NULL, g_rig.model_ms);
            for (k = 0; k < ne; ++k) rest_tip[k] = ik_mat4_translation(&g_rig.model_ms[effector_joints[k]]);
            for (rep = 0; rep < REPEATS; ++rep) {
                double elapsed = 0;
                error_sum = 0;
                ik_skeleton_rest_pose(&g_rig.skeleton, g_rig.pose_ls);
                for (step = 0; step < 2400; ++step) {
                    double t = step * 0.01, start;
                    ik_jacobian job;
                    for (k = 0; k < ne; ++k)
                        effectors[k] =
                            ik_jacobian_effector_make(effector_joints[k], bench_tracking_target(rest_tip[k], t, k));
                    job = base_job(&g_rig, effectors, ne, methods[m]);
                    job.tolerance = 0;
                    job.max_iterations = 1;
                    start = bench_now();
                    ik_jacobian_run(&job);
                    if (step >= 400) elapsed += bench_now() - start;
                    if (step >= 400) {
                        ik_skeleton_fk(&g_rig.skeleton, g_rig.pose_ls, NULL, g_rig.model_ms);
                        for (k = 0; k < ne; ++k)
                            error_sum += (double)ik_vec3_distance(
                                ik_mat4_translation(&g_rig.model_ms[effector_joints[k]]), effectors[k].target_ms);
                    }
                }
                times[rep] = elapsed / 2000 * 1e6;
            }
            printf("   %-9s %-6s %10d %12.3f %18.4g\n", d ? "double-Y" : "Y", method_names[m], ne,
                   bench_median(times, REPEATS), error_sum / 2000);
            fprintf(csv, "tracking,%s,%s,%s,%d,1,%.4f,,%.6g\n", method_names[m], BENCH_SCALAR, d ? "double-Y" : "Y", ne,
                    bench_median(times, REPEATS), error_sum / 2000);
        }
}

/* Issue 11, item 10 (test_jacobian's test_tight_tolerance): random chains
 * of 5 to 8 axes in joints of 1-3 axes, a tip goal with position and
 * orientation from forward kinematics of a random pose, the chain started up
 * to 0.1 rad per axis from it, default settings but the tolerance: 1e-6 of
 * the chain length and 1e-6 rad in double, 1e-4 in float. Success is ending
 * within both tolerances as the solver reports them (test_jacobian checks
 * those reports by forward kinematics). */
#define TIGHT_GOALS 2000

static void tight_tolerance_test(FILE *csv) {
    static axis_chain chains[TIGHT_GOALS];
    static ik_jacobian_effector goals[TIGHT_GOALS];
    static ik_transform starts[TIGHT_GOALS][AXIS_CHAIN_MAX_JOINTS];
    const ik_real tolerance = (ik_real)(sizeof(ik_real) == sizeof(double) ? 1e-6 : 1e-4);
    rng r = rng_seeded(21);
    int i, m;
    for (i = 0; i < TIGHT_GOALS; ++i) {
        axis_chain_make(&chains[i], &r, 5 + i % 4);
        goals[i] = axis_chain_goal(&chains[i], &r, 0.1);
        memcpy(starts[i], chains[i].pose_ls, sizeof starts[i]);
    }
    printf(
        "\n3. Tight tolerance: %d random 5-8 axis chains (1-3 axis joints), position + orientation goal from a\n"
        "   random pose, start within 0.1 rad per axis, tolerance %g of the length and %g rad (%s)\n",
        TIGHT_GOALS, (double)tolerance, (double)tolerance, BENCH_SCALAR);
    printf("   %-6s %12s %12s %10s\n", "method", "us/solve", "iterations", "success");
    for (m = 2; m < 4; ++m) {
        double times[REPEATS], iterations = 0, success = 0;
        int rep;
        for (rep = 0; rep < REPEATS; ++rep) {
            double elapsed = 0;
            iterations = success = 0;
            for (i = 0; i < TIGHT_GOALS; ++i) {
                axis_chain *c = &chains[i];
                ik_jacobian job = ik_jacobian_def();
                ik_real error = 0, angle_error = 0;
                int used = 0;
                double start;
                memcpy(c->pose_ls, starts[i], sizeof starts[i]);
                job.base.skeleton = &c->skeleton;
                job.base.pose_ls = c->pose_ls;
                job.joints = c->joints;
                job.base.listed_joint_count = c->joint_count;
                job.effectors = &goals[i];
                job.effector_count = 1;
                job.method = methods[m];
                job.base.scratch = g_scratch;
                job.base.scratch_bytes = sizeof g_scratch;
                job.tolerance = tolerance * c->length;
                job.angle_tolerance = tolerance;
                job.iterations = &used;
                job.error = &error;
                job.angle_error = &angle_error;
                start = bench_now();
                ik_jacobian_run(&job);
                elapsed += bench_now() - start;
                iterations += used;
                success += error <= job.tolerance && angle_error <= job.angle_tolerance;
            }
            times[rep] = elapsed / TIGHT_GOALS * 1e6;
        }
        printf("   %-6s %12.2f %12.2f %9.2f%%\n", method_names[m], bench_median(times, REPEATS),
               iterations / TIGHT_GOALS, 100 * success / TIGHT_GOALS);
        fprintf(csv, "tight_tolerance,%s,%s,5-8 axes,%d,%.3f,%.4f,%.5f,\n", method_names[m], BENCH_SCALAR, TIGHT_GOALS,
                iterations / TIGHT_GOALS, bench_median(times, REPEATS), success / TIGHT_GOALS);
    }
}

/* With an argument (paper, tracking or tight), only that benchmark runs. */
int main(int argc, char **argv) {
    const char *only = argc > 1 ? argv[1] : NULL;
    FILE *csv = fopen("bench_jacobian.csv", "w");
    if (!csv) {
        fprintf(stderr, "cannot write bench_jacobian.csv\n");
        return 1;
    }
    fprintf(csv, "test,method,scalar,case,size,mean_iterations,us_per_solve,success_rate,mean_error\n");
    if (!only || !strcmp(only, "paper")) fabrik_paper_test(csv);
    if (!only || !strcmp(only, "tracking")) tracking_test(csv);
    if (!only || !strcmp(only, "tight")) tight_tolerance_test(csv);
    fclose(csv);
    printf("\nwrote bench_jacobian.csv\n");
    return 0;
}

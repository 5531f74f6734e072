/* Collision-free pose IK in robot cells (issue 29): the UR5, the Panda and
 * the IRB 2400 in a cell of a table, a wall, a post, a shelf of two boards
 * and a ball (tests/support/robot_cells.h), margin 1 cm.
 *
 * Protocol: configurations drawn uniformly within the joint limits; those
 * the library calls free (ik_robot_collision_free, margin 1 cm: capsules
 * holding the meshes) are kept until N; forward kinematics gives each one's
 * tip pose, the goal. So every goal is reachable by a collision-free
 * configuration. Each goal is solved by ik_robot_free_ik from the mid-range
 * seed (tolerance 1e-5 per axis, as TRAC-IK's protocol); success when the
 * returned configuration reaches the goal (checked again by FK here) and is
 * free. Time per query is this thread's CPU time averaged over all queries
 * (failures count their whole time); medians over R repeats. Also printed:
 * the share of uniform configurations that are free, and the bare pose IK
 * (ik_robot_ik, collisions ignored) on the same goals with the share of its
 * answers that are free.
 *
 * usage: bench_robot_cell [N (default 2000)] [R (default 3)]
 * Writes bench_robot_cell.csv. */
#include "bench_util.h"

#include <math.h>
#include <stdlib.h>

#include <ikit/robot_free_ik.h>

#include "support/robot_cells.h"

#define MARGIN ((ik_real)0.01)

static ik_bool reaches(const ik_robot_chain *chain, const ik_real *q, ik_transform goal) {
    ik_transform tip;
    ik_quat d;
    if (ik_robot_fk(chain, q, &tip, NULL) != IK_OK) return 0;
    d = ik_quat_mul(goal.rotation, ik_quat_conjugate(tip.rotation));
    if (d.w < 0) d = ik_q(-d.x, -d.y, -d.z, -d.w);
    return fabs((double)(tip.translation.x - goal.translation.x)) <= 1.1e-5 &&
           fabs((double)(tip.translation.y - goal.translation.y)) <= 1.1e-5 &&
           fabs((double)(tip.translation.z - goal.translation.z)) <= 1.1e-5 && 2 * fabs((double)d.x) <= 1.1e-5 &&
           2 * fabs((double)d.y) <= 1.1e-5 && 2 * fabs((double)d.z) <= 1.1e-5;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 2000, repeats = argc > 2 ? atoi(argv[2]) : 3, which;
    FILE *csv = fopen("bench_robot_cell.csv", "w");
    if (n < 1 || repeats < 1) return 2;
    if (csv)
        fprintf(csv,
                "robot,scalar,goals,free_share_of_uniform,solved_free_pct,mean_ms,median_candidates,"
                "bare_pose_ik_mean_ms,bare_answers_free_pct\n");
    printf("collision-free pose IK, margin %.3f m, %d goals reachable collision-free, %d repeats (%s)\n",
           (double)MARGIN, n, repeats, BENCH_SCALAR);
    for (which = 0; which < ROBOT_CELL_COUNT; ++which) {
        robot_cell cell;
        char why[800];
        ik_real lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS], seed[IK_ROBOT_MAX_JOINTS];
        ik_bool limited[IK_ROBOT_MAX_JOINTS];
        ik_transform *goals;
        ik_real q[IK_ROBOT_MAX_JOINTS];
        double times[16], bare_times[16], solved_pct = 0, bare_free_pct = 0;
        int tried = 0, kept = 0, v, rep, *cand;
        uint64_t state = 2029;
        void *scratch;
        ik_robot_analytic_model analytic;
        if (!robot_cell_load(&cell, which, why, sizeof why)) {
            printf("%s: skipped: %s\n", which < 3 ? "cell" : "", why);
            continue;
        }
        ik_robot_variable_limits(&cell.chain, lower, upper, limited, NULL);
        for (v = 0; v < cell.chain.variable_count; ++v) seed[v] = (lower[v] + upper[v]) / 2;
        goals = (ik_transform *)malloc((size_t)n * sizeof *goals);
        cand = (int *)malloc((size_t)n * sizeof *cand);
        scratch = malloc(ik_robot_ik_scratch_size(cell.chain.variable_count));
        ik_robot_analytic_prepare(&cell.chain, &analytic, NULL);
        while (kept < n && tried < 1000 * n) {
            ik_bool is_free = 0;
            ik_robot_random_configuration(lower, upper, cell.chain.variable_count, &state, q);
            ++tried;
            ik_robot_collision_free(&cell.model, &cell.chain, q, cell.obstacles, cell.obstacle_count, MARGIN, &is_free);
            if (!is_free) continue;
            ik_robot_fk(&cell.chain, q, &goals[kept++], NULL);
        }
        for (rep = 0; rep < repeats && rep < 16; ++rep) {
            int solved = 0, bare_free = 0, k;
            double t0 = bench_now(), t1;
            for (k = 0; k < kept; ++k) {
                ik_robot_free_ik job = ik_robot_free_ik_def();
                ik_bool reached = 0, is_free = 0;
                job.ik.chain = &cell.chain;
                job.ik.goal_position_bs = goals[k].translation;
                job.ik.goal_rotation_bs = goals[k].rotation;
                job.ik.q_seed = seed;
                job.ik.analytic_model = &analytic;
                job.ik.scratch = scratch;
                job.ik.scratch_bytes = ik_robot_ik_scratch_size(cell.chain.variable_count);
                job.model = &cell.model;
                job.obstacles = cell.obstacles;
                job.obstacle_count = cell.obstacle_count;
                job.margin = MARGIN;
                job.q_out = q;
                job.reached = &reached;
                job.free = &is_free;
                job.candidates = &cand[k];
                if (ik_robot_free_ik_run(&job) == IK_OK && reached && is_free && reaches(&cell.chain, q, goals[k]))
                    ++solved;
            }
            t1 = bench_now();
            times[rep] = (t1 - t0) / kept;
            solved_pct = 100.0 * solved / kept;
            t0 = bench_now();
            for (k = 0; k < kept; ++k) {
                ik_robot_ik job = ik_robot_ik_def();
                ik_bool reached = 0, is_free = 0;
                job.chain = &cell.chain;
                job.goal_position_bs = goals[k].translation;
                job.goal_rotation_bs = goals[k].rotation;
                job.q_seed = seed;
                job.analytic_model = &analytic;
                job.scratch = scratch;
                job.scratch_bytes = ik_robot_ik_scratch_size(cell.chain.variable_count);
                job.q_out = q;
                job.reached = &reached;
                ik_robot_ik_run(&job);
                ik_robot_collision_free(&cell.model, &cell.chain, q, cell.obstacles, cell.obstacle_count, MARGIN,
                                        &is_free);
                bare_free += reached && is_free;
            }
            t1 = bench_now();
            bare_times[rep] = (t1 - t0) / kept;
            bare_free_pct = 100.0 * bare_free / kept;
        }
        {
            double *c = (double *)malloc((size_t)kept * sizeof *c), median_candidates;
            int k;
            for (k = 0; k < kept; ++k) c[k] = cand[k];
            median_candidates = bench_median(c, kept);
            free(c);
            printf(
                "%-9s %5.1f %% of uniform configurations free; solved collision-free %6.2f %% of %d, mean %.3f ms "
                "a query (median %.0f candidates); bare pose IK %.3f ms, its answer free in %.1f %%\n",
                cell.name, 100.0 * kept / tried, solved_pct, kept, bench_median(times, repeats) * 1e3,
                median_candidates, bench_median(bare_times, repeats) * 1e3, bare_free_pct);
            if (csv)
                fprintf(csv, "%s,%s,%d,%.4f,%.3f,%.5f,%.0f,%.5f,%.2f\n", cell.name, BENCH_SCALAR, kept,
                        (double)kept / tried, solved_pct, bench_median(times, repeats) * 1e3, median_candidates,
                        bench_median(bare_times, repeats) * 1e3, bare_free_pct);
        }
        free(goals);
        free(cand);
        free(scratch);
        robot_cell_free(&cell);
    }
    if (csv) fclose(csv);
    return 0;
}

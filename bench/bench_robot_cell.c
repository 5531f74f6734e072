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
 * Also timed: reading STL meshes of a million triangles, binary and ASCII
 * (made here in memory), to show the reader's linear time (the MB/s of the
 * two sizes agree), and the model build (meshes read, capsules fitted,
 * pairs pruned over 2000 samples) of each arm.
 *
 * usage: bench_robot_cell [N (default 2000)] [R (default 3)]
 * Writes bench_robot_cell.csv and bench_robot_cell_stl.csv. */
#include "bench_util.h"

#include <math.h>
#include <stdlib.h>

#include <ikit/robot_free_ik.h>
#include <ikit/stl.h>
#include <string.h>

#include "support/robot_cells.h"

#define MARGIN ((ik_real)0.01)

static int tested_pairs(const ik_robot_collision_model *m) {
    int l, k, n = 0;
    for (l = 0; l < m->link_count; ++l)
        for (k = l + 1; k < m->link_count; ++k) n += m->pair_state[l][k] == IK_PAIR_CHECKED;
    return n;
}

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

/* A binary or ASCII STL of `count` triangles of a strip, in memory. */
static char *make_stl(size_t count, int ascii, size_t *size) {
    size_t cap = ascii ? count * 140 + 64 : 84 + 50 * count, used = 0, i;
    char *text = (char *)malloc(cap);
    if (!text) return NULL;
    if (ascii) {
        used += (size_t)snprintf(text, cap, "solid strip\n");
        for (i = 0; i < count; ++i)
            used += (size_t)snprintf(text + used, cap - used,
                                     "facet normal 0 0 1\n outer loop\n  vertex %.6f 0 0\n  vertex %.6f 1 0\n  "
                                     "vertex %.6f 0 0.5\n endloop\nendfacet\n",
                                     i * 1e-3, i * 1e-3, i * 1e-3 + 1e-3);
        used += (size_t)snprintf(text + used, cap - used, "endsolid strip\n");
    } else {
        memset(text, 0, 84);
        text[80] = (char)(count & 255);
        text[81] = (char)((count >> 8) & 255);
        text[82] = (char)((count >> 16) & 255);
        text[83] = (char)((count >> 24) & 255);
        for (i = 0; i < count; ++i) {
            float v[12] = {0, 0,   1, (float)(i * 1e-3), 0, 0, (float)(i * 1e-3), 1, 0, (float)(i * 1e-3 + 1e-3),
                           0, 0.5f};
            memcpy(text + 84 + 50 * i, v, 48);
            memset(text + 84 + 50 * i + 48, 0, 2);
        }
        used = cap;
    }
    *size = used;
    return text;
}

static void bench_stl(int repeats) {
    static const size_t counts[2] = {100000, 1000000};
    FILE *csv = fopen("bench_robot_cell_stl.csv", "w");
    int ascii, c;
    if (csv) fprintf(csv, "format,triangles,bytes,median_ms,mb_per_s\n");
    for (ascii = 0; ascii < 2; ++ascii)
        for (c = 0; c < 2; ++c) {
            size_t size = 0;
            char *data = make_stl(counts[c], ascii, &size);
            double t[16];
            int rep;
            if (!data) continue;
            for (rep = 0; rep < repeats && rep < 16; ++rep) {
                ik_mesh *m = NULL;
                double t0 = bench_now();
                ik_stl_read_memory(data, size, &m, NULL);
                t[rep] = bench_now() - t0;
                ik_mesh_free(m);
            }
            {
                double median = bench_median(t, repeats < 16 ? repeats : 16);
                printf("STL %-6s %8lu triangles (%6.1f MB): %8.2f ms, %6.0f MB/s\n", ascii ? "ascii" : "binary",
                       (unsigned long)counts[c], size / 1e6, median * 1e3, size / 1e6 / median);
                if (csv)
                    fprintf(csv, "%s,%lu,%lu,%.3f,%.1f\n", ascii ? "ascii" : "binary", (unsigned long)counts[c],
                            (unsigned long)size, median * 1e3, size / 1e6 / median);
            }
            free(data);
        }
    if (csv) fclose(csv);
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
        double load_start = bench_now(), load_ms;
        if (!robot_cell_load(&cell, which, why, sizeof why)) {
            printf("cell %d: skipped: %s\n", which, why);
            continue;
        }
        load_ms = (bench_now() - load_start) * 1e3;
        printf("%-9s model: %d links, %d capsules, %d link pairs tested; built in %.1f ms (%s)\n", cell.name,
               cell.model.link_count, cell.model.capsule_count, tested_pairs(&cell.model), load_ms,
               cell.from_meshes ? "URDF and meshes read, capsules fitted, pairs pruned"
                                : "URDF read, hand-written capsules, pairs pruned");
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
    bench_stl(repeats);
    return 0;
}

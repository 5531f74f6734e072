/* Limited chains (issue 11, item 9): a humanoid arm and a 10-joint chain of
 * 45 degree cones (tests/support/limited_chains.h), 2,000 targets each made
 * by forward kinematics of a random pose inside the limits, solved from the
 * rest pose by FABRIK, CCD, DLS and SDLS with tolerance 1e-3 of the chain
 * length. Success = the solved pose checked by forward kinematics (end
 * within tolerance, limits held, lengths kept, finite). Time: median over
 * repeats of the CPU time per solve of the whole target set. CSV in
 * bench_limited.csv. */
#include "bench_util.h"

#include "support/limited_chains.h"

#define TARGETS 2000
#define REPEATS 5

static limited_chain g_chain;
static ik_vec3 g_targets[TARGETS];

int main(void) {
    FILE *csv = fopen("bench_limited.csv", "w");
    int kind, solver, i, rep;
    if (!csv) {
        perror("bench_limited.csv");
        return 1;
    }
    fprintf(csv, "chain,solver,targets,success_rate,mean_iterations,us_per_solve,worst_error_over_length\n");
    printf("Limited chains: %d targets from random poses inside the limits, rest-pose start, tolerance 1e-3 L (%s)\n",
           TARGETS, BENCH_SCALAR);
    printf("   %-7s %-7s %9s %10s %10s %14s\n", "chain", "solver", "success", "iters", "us/solve", "worst err / L");
    for (kind = 0; kind < LIMITED_CHAIN_KINDS; ++kind) {
        rng r = rng_seeded(911 + (uint64_t)kind);
        limited_chain_make(&g_chain, (limited_chain_kind)kind);
        for (i = 0; i < TARGETS; ++i) g_targets[i] = limited_random_target(&g_chain, &r);
        for (solver = 0; solver < LIMITED_SOLVERS; ++solver) {
            double times[REPEATS], worst = 0;
            long iterations_sum = 0, successes = 0;
            for (i = 0; i < TARGETS; ++i) {
                int iterations = 0;
                ik_real error = 0;
                limited_solve(&g_chain, (limited_solver)solver, g_targets[i], &iterations, &error);
                iterations_sum += iterations;
                successes += limited_solution_ok(&g_chain, g_targets[i]);
                if ((double)error > worst) worst = (double)error;
            }
            for (rep = 0; rep < REPEATS; ++rep) {
                double start = bench_now();
                for (i = 0; i < TARGETS; ++i) limited_solve(&g_chain, (limited_solver)solver, g_targets[i], NULL, NULL);
                times[rep] = (bench_now() - start) / TARGETS * 1e6;
            }
            printf("   %-7s %-7s %8.2f%% %10.2f %10.3f %14.3g\n", limited_chain_names[kind],
                   limited_solver_names[solver], 100.0 * (double)successes / TARGETS, (double)iterations_sum / TARGETS,
                   bench_median(times, REPEATS), worst / (double)g_chain.length);
            fprintf(csv, "%s,%s,%d,%.5f,%.3f,%.4f,%.6g\n", limited_chain_names[kind], limited_solver_names[solver],
                    TARGETS, (double)successes / TARGETS, (double)iterations_sum / TARGETS,
                    bench_median(times, REPEATS), worst / (double)g_chain.length);
        }
    }
    fclose(csv);
    printf("\nwrote bench_limited.csv\n");
    return 0;
}

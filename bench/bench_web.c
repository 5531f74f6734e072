/* The playground's scripted cases (web/bench_cases.c) run natively, through
 * the same ikw_ calls as in the browser (web/ikit_web.c compiled into this
 * program), so their times compare directly with tests/js/bench_wasm.mjs's
 * wasm figures for the same cases. Each case: 200 frames, one warm-up run, median of 9 runs,
 * printed as microseconds per frame (median and minimum) and written to
 * bench_web.csv. Build with -DBENCH_WALL_CLOCK for wall time, the clock the
 * wasm side has. */
#include "bench_util.h"

#include "../web/ikit_web.h"
#include "support/web_tail.h"

enum { FRAMES = 200, RUNS = 9 };

int main(void) {
    FILE *csv = fopen("bench_web.csv", "w");
    int c, r;
    if (web_load_tail() != 0 || ikw_body_init(1.8f) != 0) {
        fprintf(stderr, "bench_web: setup failed: %s\n", ikw_message());
        return 1;
    }
    printf("playground cases, native (%s), %d frames, median of %d runs\n", BENCH_SCALAR, FRAMES, RUNS);
    if (csv) fprintf(csv, "case,us_per_frame_median,us_per_frame_min,final_error\n");
    for (c = 0; c < IKW_BENCH_CASES; ++c) {
        double samples[RUNS], median;
        float check = ikw_bench_case(c, FRAMES); /* warm-up, as the wasm side does */
        for (r = 0; r < RUNS; ++r) {
            double t0 = bench_now();
            check = ikw_bench_case(c, FRAMES);
            samples[r] = (bench_now() - t0) * 1e6 / FRAMES;
        }
        median = bench_median(samples, RUNS); /* sorts: samples[0] is then the minimum */
        printf("  %-28s %9.2f us/frame (min %8.2f)  (final error %.2e)\n", ikw_bench_name(c), median, samples[0],
               (double)check);
        if (csv) fprintf(csv, "%s,%.3f,%.3f,%.3e\n", ikw_bench_name(c), median, samples[0], (double)check);
        if (check < 0) return 1;
    }
    if (csv) fclose(csv);
    return 0;
}

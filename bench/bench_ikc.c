/* What a user waits for: the wall time of a whole `ikc info FILE` run on
 * the real assets (process start, reading the file, parsing, building the
 * skeleton and humanoid map, printing to /dev/null), beside the library's
 * own load figures in bench_bvh and bench_gltf, which time the read and
 * parse only. Medians over repeats; bench_ikc.csv. */
#include "bench_ikc_run.h"

#define RUNS 15

/* One `ikc info path`: seconds, or negative when it failed. */
static double time_info_run(const char *path) {
    char *argv[] = {(char *)"ikc", (char *)"info", NULL, NULL};
    argv[2] = (char *)path;
    return bench_time_ikc_run(argv);
}

int main(void) {
    static const char *const files[][2] = {
        {"bvh", "01_01.bvh"}, {"bvh", "131_01.bvh"}, {"gltf", "robot.glb"}, {"gltf", "girl.glb"},
        {"gltf", "male_base_mesh.glb"},
    };
    FILE *csv = fopen("bench_ikc.csv", "w");
    size_t f;
    if (csv) fprintf(csv, "case,file,runs,median_ms\n");
    for (f = 0; f < sizeof files / sizeof files[0]; ++f) {
        char path[1024];
        double runs[RUNS], ms;
        int i;
        bench_data_path(path, sizeof path, files[f][0], files[f][1]);
        for (i = 0; i < RUNS; ++i)
            if ((runs[i] = time_info_run(path)) < 0) break;
        if (i < RUNS) {
            printf("skipped: `ikc info %s` did not run (ikc at %s, real-asset corpus present?)\n", path, IKC_PATH);
            continue;
        }
        ms = bench_median(runs, RUNS) * 1e3;
        printf("ikc info %-20s whole run, wall clock: median %.2f ms over %d runs\n", files[f][1], ms, RUNS);
        if (csv) fprintf(csv, "ikc_info,%s,%d,%.3f\n", files[f][1], RUNS, ms);
    }
    if (csv) fclose(csv);
    return 0;
}

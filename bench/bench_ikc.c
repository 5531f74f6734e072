/* What a user waits for: the wall time of a whole `ikc info FILE` run on
 * the real assets (process start, reading the file, parsing, building the
 * skeleton and humanoid map, printing to /dev/null), beside the library's
 * own load figures in bench_bvh and bench_gltf, which time the read and
 * parse only. Medians over repeats; bench_ikc.csv. */
#include "bench_util.h"

#include <fcntl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef IKC_PATH
#define IKC_PATH "ikc"
#endif

#define RUNS 15

static double wall_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One `ikc info path` with its output sent to /dev/null: the wall time in
 * seconds, or a negative number when it could not run or failed. */
static double time_info_run(const char *path) {
    double t0 = wall_now();
    int status;
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, 1);
            dup2(null, 2);
        }
        execl(IKC_PATH, "ikc", "info", path, (char *)NULL);
        _exit(127);
    }
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    return wall_now() - t0;
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

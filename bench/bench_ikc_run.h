/* Timing whole runs of the ikc tool, for the benchmarks that measure what
 * a user waits for (bench_ikc, bench_render). IKC_PATH is set by the build
 * to the ikc binary. */
#ifndef IKIT_BENCH_IKC_RUN_H
#define IKIT_BENCH_IKC_RUN_H

#include "bench_util.h"

#include <fcntl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef IKC_PATH
#define IKC_PATH "ikc"
#endif

/* Wall time (the child process's time is not this thread's CPU time). */
static inline double bench_wall_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One ikc run with `argv` (argv[0] "ikc", NULL-terminated) and its output
 * sent to /dev/null: the wall time in seconds, or a negative number when it
 * could not run or failed. */
static inline double bench_time_ikc_run(char *const *argv) {
    double t0 = bench_wall_now();
    int status;
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, 1);
            dup2(null, 2);
        }
        execv(IKC_PATH, argv);
        _exit(127);
    }
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    return bench_wall_now() - t0;
}

#endif

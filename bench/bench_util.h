/* Helpers shared by the benchmarks: a monotonic clock, medians over
 * repeats, and where the real-asset corpus is. */
#ifndef IKIT_BENCH_UTIL_H
#define IKIT_BENCH_UTIL_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Benchmarks time the CPU spent by their own thread, so figures hold on a
 * busy machine too; define BENCH_WALL_CLOCK for wall time instead. */
#ifdef BENCH_WALL_CLOCK
#define BENCH_CLOCK CLOCK_MONOTONIC
#else
#define BENCH_CLOCK CLOCK_THREAD_CPUTIME_ID
#endif

static inline double bench_now(void) {
    struct timespec t;
    clock_gettime(BENCH_CLOCK, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int bench_compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of `count` samples (sorts them in place). */
static inline double bench_median(double *samples, int count) {
    qsort(samples, (size_t)count, sizeof *samples, bench_compare_doubles);
    return count % 2 ? samples[count / 2] : 0.5 * (samples[count / 2 - 1] + samples[count / 2]);
}

/* The path of `file` in `folder` (such as "bvh") of the real-asset corpus:
 * under $IKIT_DATA, else in ../shared/data beside the project root, found
 * from this header's own path so that any working directory will do. */
static inline void bench_data_path(char *path, size_t size, const char *folder, const char *file) {
    const char *data = getenv("IKIT_DATA"), *here = __FILE__, *cut = strstr(here, "bench/bench_util.h");
    if (data)
        snprintf(path, size, "%s/%s/%s", data, folder, file);
    else
        snprintf(path, size, "%.*s../shared/data/%s/%s", cut ? (int)(cut - here) : 0, here, folder, file);
}

/* A whole file in a malloc'd buffer with a NUL after its *size bytes;
 * NULL when it cannot be read. */
static inline char *bench_read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    char *data = NULL;
    long n;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (data = (char *)malloc((size_t)n + 1)) != NULL) {
        if (fread(data, 1, (size_t)n, f) == (size_t)n) {
            data[n] = '\0';
            *size = (size_t)n;
        } else {
            free(data);
            data = NULL;
        }
    }
    fclose(f);
    return data;
}

/* Keeps the optimiser from dropping work whose result is otherwise unused. */
static volatile double bench_sink;

#ifdef IKIT_DOUBLE
#define BENCH_SCALAR "double"
#else
#define BENCH_SCALAR "float"
#endif

#endif

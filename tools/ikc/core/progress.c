/* A one-line progress bar on stderr, redrawn in place with '\r'; shown only
 * when stderr is a terminal and --quiet was not given. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "ikc.h"

#define BAR_WIDTH 30

static double seconds_on(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

double ikc_now(void) { return seconds_on(CLOCK_MONOTONIC); }

double ikc_cpu_now(void) { return seconds_on(CLOCK_THREAD_CPUTIME_ID); }

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double ikc_median(double *values, int count) {
    qsort(values, (size_t)count, sizeof *values, cmp_double);
    return values[count / 2];
}

void ikc_progress_begin(ikc_progress *p, const char *label, long total, int quiet) {
    p->label = label;
    p->total = total > 0 ? total : 1;
    p->enabled = !quiet && isatty(fileno(stderr));
    p->last_percent = -1;
    ikc_progress_step(p, 0);
}

void ikc_progress_step(ikc_progress *p, long done) {
    int percent, filled, i;
    if (!p->enabled) return;
    if (done > p->total) done = p->total;
    percent = (int)(done * 100 / p->total);
    if (percent == p->last_percent) return;
    p->last_percent = percent;
    filled = percent * BAR_WIDTH / 100;
    fprintf(stderr, "\r%-16.16s [", p->label);
    for (i = 0; i < BAR_WIDTH; ++i) fputc(i < filled ? '#' : '.', stderr);
    fprintf(stderr, "] %3d%% %ld/%ld", percent, done, p->total);
    fflush(stderr);
}

void ikc_progress_end(ikc_progress *p) {
    if (!p->enabled) return;
    ikc_progress_step(p, p->total);
    fputc('\n', stderr);
}

/* Skeleton checks a reader makes at 100,000 joints (issue 18, item 5):
 * milliseconds for ik_skeleton_init_scratch (parents, rest transforms and
 * the duplicate-name check) and for the readers' rest-overflow check
 * (ik_io_rest_overflow), median of repeats. The names are big_rig.h's
 * ("joint<i>"), then names sharing a 24-character prefix, then big_rig's
 * names with the last one repeating the first; the skeletons are big_rig's
 * two shapes (a root with 99,999 leaves, a 100,000-long chain, each joint
 * 0.01 above its parent). Writes bench_skeleton.csv. */
#include "bench_util.h"

#include <ikit/skeleton.h>

#include "../src/io/rest_check.h"

#define REPEATS 31
#define JOINTS 100000

static int parents_wide[JOINTS], parents_deep[JOINTS], scratch[2 * JOINTS];
static ik_transform rest_ls[JOINTS];
static char name_text[JOINTS][40];
static const char *names[JOINTS];

static void report(FILE *csv, const char *label, double *samples) {
    double best = samples[0], median;
    int k;
    for (k = 1; k < REPEATS; ++k) best = samples[k] < best ? samples[k] : best;
    median = bench_median(samples, REPEATS);
    printf("%-34s %10.3f %10.3f\n", label, median, best);
    fprintf(csv, "%s,%s,%d,%.4f,%.4f,%d\n", label, BENCH_SCALAR, JOINTS, median, best, REPEATS);
}

/* ik_skeleton_init_scratch on the current names; `expect` is its result. */
static int time_init(FILE *csv, const char *label, ik_result expect) {
    double samples[REPEATS];
    ik_skeleton s;
    ik_error e;
    int k;
    for (k = 0; k < REPEATS; ++k) {
        double t0 = bench_now();
        ik_result r = ik_skeleton_init_scratch(&s, JOINTS, parents_wide, names, rest_ls, scratch, &e);
        samples[k] = (bench_now() - t0) * 1e3;
        if (r != expect) {
            printf("%s: %s\n", label, e.message);
            return 0;
        }
        bench_sink += e.index;
    }
    report(csv, label, samples);
    return 1;
}

static int time_overflow(FILE *csv, const char *label, const int *parents) {
    double samples[REPEATS];
    ik_mat4 root_ms = ik_mat4_identity();
    ik_skeleton s;
    int k;
    if (ik_skeleton_init(&s, JOINTS, parents, NULL, rest_ls, NULL) != IK_OK) return 0;
    for (k = 0; k < REPEATS; ++k) {
        double t0 = bench_now();
        int first = ik_io_rest_overflow(&s, &root_ms);
        samples[k] = (bench_now() - t0) * 1e3;
        if (first != -1) {
            printf("%s: joint %d overflows\n", label, first);
            return 0;
        }
    }
    report(csv, label, samples);
    return 1;
}

int main(void) {
    FILE *csv = fopen("bench_skeleton.csv", "w");
    int i, ok;
    if (!csv) return 1;
    for (i = 0; i < JOINTS; ++i) {
        parents_wide[i] = i ? 0 : -1;
        parents_deep[i] = i - 1;
        rest_ls[i] = ik_transform_make(ik_v3(0, (ik_real)0.01, 0), ik_quat_identity(), ik_v3(1, 1, 1));
        names[i] = name_text[i];
    }
    fprintf(csv, "case,scalar,joints,median_ms,min_ms,repeats\n");
    printf("%-34s %10s %10s\n", "case (100,000 joints)", "median ms", "min ms");
    for (i = 0; i < JOINTS; ++i) snprintf(name_text[i], sizeof name_text[i], "joint%d", i);
    ok = time_init(csv, "init big_rig names", IK_OK);
    for (i = 0; ok && i < JOINTS; ++i) snprintf(name_text[i], sizeof name_text[i], "mixamorig:character_one_%d", i);
    ok = ok && time_init(csv, "init 24-char shared prefix", IK_OK);
    for (i = 0; ok && i < JOINTS; ++i) snprintf(name_text[i], sizeof name_text[i], "joint%d", i);
    names[JOINTS - 1] = names[0];
    ok = ok && time_init(csv, "init last name repeats the first", IK_ERR_HIERARCHY);
    ok = ok && time_overflow(csv, "rest overflow wide", parents_wide);
    ok = ok && time_overflow(csv, "rest overflow deep", parents_deep);
    fclose(csv);
    return ok ? 0 : 1;
}

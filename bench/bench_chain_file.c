/* Chain description files: parse time from memory for the project's
 * examples and for generated files of 256 and 4,096 joints (the reader's
 * limit), each joint naming its parent two joints back, so every joint
 * and parent name is looked up. Medians over repeats; bench_chain_file.csv. */
#include "bench_util.h"

#include <stdlib.h>
#include <string.h>

#include <ikit/chain_file.h>

#define REPEATS 21

/* joint j0 is the root; joint jk hangs from j(k-2) (j0 for k = 1), with a
 * hinge and a limit, and a target on the last. */
static char *generated(int joints, size_t *size) {
    size_t cap = (size_t)joints * 96 + 128, n = 0;
    char *text = (char *)malloc(cap);
    int k;
    if (!text) return NULL;
    n += (size_t)snprintf(text + n, cap - n, "chain generated\njoint j0 type fixed\n");
    for (k = 1; k < joints; ++k)
        n += (size_t)snprintf(text + n, cap - n, "joint j%d parent j%d length 0.1 type hinge axis 1 0 0 limit -30 30\n",
                              k, k < 2 ? 0 : k - 2);
    n += (size_t)snprintf(text + n, cap - n, "target t joint j%d position 0 1 0\n", joints - 1);
    *size = n;
    return text;
}

static int measure(const char *name, const char *text, size_t size, FILE *csv) {
    double samples[REPEATS];
    int i, joints = 0;
    for (i = 0; i < REPEATS; ++i) {
        ik_chain_file *chain = NULL;
        ik_error err;
        double t0 = bench_now();
        if (ik_chain_file_read_memory(text, size, &chain, &err) != IK_OK) {
            printf("%s: %s\n", name, err.message);
            return 0;
        }
        samples[i] = bench_now() - t0;
        joints = chain->joint_count;
        ik_chain_file_free(chain);
    }
    printf("chain file %-22s %5d joints %8zu bytes: median %9.3f ms over %d parses\n", name, joints, size,
           bench_median(samples, REPEATS) * 1e3, REPEATS);
    if (csv)
        fprintf(csv, "%s,%s,%d,%zu,%d,%.4f\n", name, BENCH_SCALAR, joints, size, REPEATS,
                bench_median(samples, REPEATS) * 1e3);
    return 1;
}

int main(void) {
    static const char *const examples[] = {"tail.chain", "tentacle.chain", "tree.chain", "robot_arm.chain"};
    static const int sizes[] = {256, 4096};
    FILE *csv = fopen("bench_chain_file.csv", "w");
    size_t i;
    int ok = 1;
    if (csv) fprintf(csv, "case,scalar,joints,bytes,repeats,median_ms\n");
    for (i = 0; i < sizeof examples / sizeof examples[0]; ++i) {
        char path[1024];
        size_t size = 0;
        char *text;
        snprintf(path, sizeof path, "%s/examples/%s", IKIT_SOURCE_DIR, examples[i]);
        if (!(text = bench_read_file(path, &size))) {
            printf("skipped: %s not found\n", path);
            continue;
        }
        ok = ok && measure(examples[i], text, size, csv);
        free(text);
    }
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        char name[64];
        size_t size = 0;
        char *text = generated(sizes[i], &size);
        snprintf(name, sizeof name, "generated %d", sizes[i]);
        ok = ok && text && measure(name, text, size, csv);
        free(text);
    }
    if (csv) fclose(csv);
    return ok ? 0 : 1;
}

/* JSON read speed, ikit's reader against its peer in the same program:
 * milliseconds for json_doc_read (the glTF reader's, src/io/json_doc.h) and
 * for cJSON_ParseWithLength (what that reader used before, and what the
 * writer still edits) on the JSON of real glTF files (a .glb's JSON chunk)
 * and on the two generated 100,000-joint documents (issue 18, item 5).
 * Protocol: parse from memory, median of 31 parses in a row for each reader
 * (see time_ours); freeing is not timed. Writes bench_json.csv. */
#include "bench_util.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <string.h>

#include "../src/io/json_doc.h"
#include "support/big_rig.h"

#define REPEATS 31

/* The JSON of a .gltf file, or the JSON chunk of a .glb (malloc'd). */
static char *read_json(const char *path, size_t *size) {
    unsigned char *data = (unsigned char *)bench_read_file(path, size);
    size_t n = data ? *size : 0;
    if (data && n >= 20 && memcmp(data, "glTF", 4) == 0) {
        uint32_t chunk =
            (uint32_t)data[12] | (uint32_t)data[13] << 8 | (uint32_t)data[14] << 16 | (uint32_t)data[15] << 24;
        if (chunk > n - 20) chunk = (uint32_t)(n - 20);
        memmove(data, data + 20, chunk);
        *size = chunk;
    }
    return (char *)data;
}

/* Milliseconds per parse, median of REPEATS in a row: each reader reuses
 * the memory its previous parse freed, as repeated loads in one program do
 * (interleaving the two readers would hand ours freshly mapped pages each
 * time, and time the kernel's page faults instead). */
static double time_ours(const char *text, size_t size, const char *label) {
    double samples[REPEATS];
    int k;
    for (k = 0; k < REPEATS; ++k) {
        json_doc doc;
        json_error e;
        double t0 = bench_now();
        int ok = json_doc_read(&doc, text, size, &e);
        samples[k] = (bench_now() - t0) * 1e3;
        if (!ok) {
            printf("%s: refused at byte %lu: %s\n", label, (unsigned long)e.offset, e.reason);
            return -1;
        }
        bench_sink += (double)doc.value_count;
        json_doc_free(&doc);
    }
    return bench_median(samples, REPEATS);
}

static double time_cjson(const char *text, size_t size, const char *label) {
    double samples[REPEATS];
    int k;
    for (k = 0; k < REPEATS; ++k) {
        double t0 = bench_now();
        cJSON *tree = cJSON_ParseWithLength(text, size);
        samples[k] = (bench_now() - t0) * 1e3;
        if (!tree) {
            printf("%s: cJSON refuses it\n", label);
            return -1;
        }
        cJSON_Delete(tree);
    }
    return bench_median(samples, REPEATS);
}

static int bench_case(const char *label, const char *text, size_t size, FILE *csv) {
    double ours = time_ours(text, size, label), theirs = ours < 0 ? -1 : time_cjson(text, size, label);
    if (theirs < 0) return 0;
    printf("%-22s %10lu %12.3f %12.3f %8.1fx\n", label, (unsigned long)size, ours, theirs, theirs / ours);
    fprintf(csv, "%s,json_doc_read,%lu,%.4f,%d\n", label, (unsigned long)size, ours, REPEATS);
    fprintf(csv, "%s,cJSON_ParseWithLength,%lu,%.4f,%d\n", label, (unsigned long)size, theirs, REPEATS);
    return 1;
}

int main(void) {
    static const char *const files[] = {"robot.glb", "girl.glb", "rigged_figure.glb", "male_base_mesh.glb",
                                        "SimpleSkin.gltf"};
    char path[600];
    FILE *csv = fopen("bench_json.csv", "w");
    size_t i;
    int deep;
    if (!csv) return 1;
    fprintf(csv, "case,reader,bytes,median_ms,repeats\n");
    printf("%-22s %10s %12s %12s %9s\n", "JSON of", "bytes", "ikit ms", "cJSON ms", "ratio");
    for (i = 0; i < sizeof files / sizeof files[0]; ++i) {
        size_t size;
        char *text;
        bench_data_path(path, sizeof path, "gltf", files[i]);
        if (!(text = read_json(path, &size))) {
            printf("skipped: %s not found\n", path);
            continue;
        }
        if (!bench_case(files[i], text, size, csv)) return 1;
        free(text);
    }
    for (deep = 0; deep <= 1; ++deep) {
        char *text = big_rig_gltf(100000, deep);
        int ok = text && bench_case(deep ? "generated 100k deep" : "generated 100k wide", text, strlen(text), csv);
        free(text);
        if (!ok) return 1;
    }
    fclose(csv);
    return 0;
}

/* What a user waits for: the wall time of a whole `ikc info FILE` run on
 * the real assets (process start, reading the file, parsing, building the
 * skeleton and humanoid map, printing to /dev/null), beside the library's
 * own load figures in bench_bvh and bench_gltf, which time the read and
 * parse only. Also generated glTF files (issue 18: rigs far larger than a
 * character's), written to the working folder first: bench_gltf's two
 * 100,000-joint rigs; a humanoid with a chain of 100,000 joints under its
 * left hand, and under its chest; 50,000 one-joint skins under 50,000
 * channels. Medians over repeats; bench_ikc.csv. */
#include "bench_ikc_run.h"

#include <string.h>

#include "support/big_rig.h"

#define RUNS 15

/* One `ikc info path`: seconds, or negative when it failed. */
static double time_info_run(const char *path) {
    char *argv[] = {(char *)"ikc", (char *)"info", NULL, NULL};
    argv[2] = (char *)path;
    return bench_time_ikc_run(argv);
}

/* The median wall time of RUNS `ikc info path` runs, printed and written
 * to `csv` under `name`; 0 when a run failed. */
static int report_info_runs(const char *path, const char *name, FILE *csv) {
    double runs[RUNS], ms;
    int i;
    for (i = 0; i < RUNS; ++i)
        if ((runs[i] = time_info_run(path)) < 0) return 0;
    ms = bench_median(runs, RUNS) * 1e3;
    printf("ikc info %-20s whole run, wall clock: median %.2f ms over %d runs\n", name, ms, RUNS);
    if (csv) fprintf(csv, "ikc_info,%s,%d,%.3f\n", name, RUNS, ms);
    return 1;
}

/* Generated document `kind` (0 wide, 1 deep, 2 chain under the hand, 3
 * under the chest, 4 many skins) written to `path`. */
static int write_generated(const char *path, int kind) {
    char *doc = kind < 2   ? big_rig_gltf(100000, kind)
                : kind < 4 ? big_humanoid_gltf(100000, kind == 2 ? "LeftHand" : "Chest")
                           : many_skins_gltf(50000);
    FILE *f = doc ? fopen(path, "wb") : NULL;
    int ok = f && fwrite(doc, 1, strlen(doc), f) == strlen(doc);
    if (f && fclose(f) != 0) ok = 0;
    free(doc);
    return ok;
}

int main(void) {
    static const char *const files[][2] = {
        {"bvh", "01_01.bvh"}, {"bvh", "131_01.bvh"},          {"gltf", "robot.glb"},
        {"gltf", "girl.glb"}, {"gltf", "male_base_mesh.glb"},
    };
    FILE *csv = fopen("bench_ikc.csv", "w");
    size_t f;
    if (csv) fprintf(csv, "case,file,runs,median_ms\n");
    for (f = 0; f < sizeof files / sizeof files[0]; ++f) {
        char path[1024];
        bench_data_path(path, sizeof path, files[f][0], files[f][1]);
        if (!report_info_runs(path, files[f][1], csv))
            printf("skipped: `ikc info %s` did not run (ikc at %s, real-asset corpus present?)\n", path, IKC_PATH);
    }
    for (f = 0; f < 5; ++f) {
        static const char *const names[] = {"generated_100k_wide.gltf", "generated_100k_deep.gltf",
                                            "humanoid_100k_under_hand.gltf", "humanoid_100k_under_chest.gltf",
                                            "skins_50k_channels_50k.gltf"};
        const char *name = names[f];
        if (!write_generated(name, (int)f) || !report_info_runs(name, name, csv)) {
            printf("`ikc info %s` failed\n", name);
            return 1;
        }
        remove(name);
    }
    if (csv) fclose(csv);
    return 0;
}

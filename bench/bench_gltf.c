/* glTF load speed: milliseconds to read each real rig from memory (GLB
 * framing, JSON parse, buffers, accessor checks, skeletons and every clip
 * decoded), median of repeats; the file itself is read once beforehand. Also
 * times sampling one Robot_Walking pose and writing robot.glb back to memory.
 * Goal: robot.glb under 10 ms. Also loads two generated 100,000-joint
 * documents (a chain that deep and a root with 99,999 leaves; issue 18,
 * item 5), and times posing the deep one (ik_gltf_set_pose: every joint's
 * translation, rotation and scale, read back) and writing it to memory as
 * .glb and as .gltf (issue 31 goal: the write of 100k joints under 150 ms,
 * where the load takes 40-60 ms). Writes bench_gltf.csv. */
#include "bench_util.h"

#include <ikit/gltf.h>
#include <string.h>

#include "support/big_rig.h"

#define REPEATS 31
#define BIG_REPEATS 11

/* Median and least milliseconds to load `data` from memory, printed and
 * written to `csv`; 0 when it does not load. */
static int bench_load(const char *label, const void *data, size_t size, FILE *csv) {
    double samples[REPEATS], best, median;
    ik_gltf *g = NULL;
    ik_error e;
    int k;
    for (k = 0; k < REPEATS; ++k) {
        double t0 = bench_now();
        ik_result r = ik_gltf_read_memory(data, size, NULL, &g, &e);
        samples[k] = (bench_now() - t0) * 1e3;
        if (r != IK_OK) {
            printf("%s: %s\n", label, e.message);
            return 0;
        }
        bench_sink += ik_gltf_clip_count(g);
        ik_gltf_free(g);
    }
    best = samples[0];
    for (k = 1; k < REPEATS; ++k) best = samples[k] < best ? samples[k] : best;
    median = bench_median(samples, REPEATS);
    printf("load %-23s %10lu %10.3f %10.3f\n", label, (unsigned long)size, median, best);
    fprintf(csv, "load %s,%s,%lu,%.4f,%.4f,%d\n", label, BENCH_SCALAR, (unsigned long)size, median, best, REPEATS);
    return 1;
}

/* The 100,000-joint chain posed (each joint turned and moved a little, in
 * numbers that need 16 or 17 digits) and written: median and least
 * milliseconds of ik_gltf_set_pose and of ik_gltf_write_memory as .glb and
 * as .gltf. */
static int bench_pose_and_write(const char *doc, FILE *csv) {
    static const char *const labels[] = {"set_pose 100k deep", "write 100k deep posed glb",
                                         "write 100k deep posed gltf"};
    ik_gltf *g = NULL;
    ik_error e;
    ik_transform *pose;
    int joints, j, k, stage;
    if (ik_gltf_read_memory(doc, strlen(doc), NULL, &g, &e) != IK_OK) return 0;
    joints = ik_gltf_skeleton(g, 0)->skeleton.joint_count;
    if (!(pose = (ik_transform *)malloc((size_t)joints * sizeof *pose))) return 0;
    for (j = 0; j < joints; ++j) {
        pose[j] = ik_gltf_skeleton(g, 0)->skeleton.rest_ls[j];
        pose[j].rotation = ik_quat_normalize(ik_q((ik_real)0.01 * (ik_real)(j % 13), (ik_real)0.2, (ik_real)0.3, 1));
        pose[j].translation.x = (ik_real)0.0123 * (ik_real)(j % 1000);
    }
    for (stage = 0; stage < 3; ++stage) {
        double samples[BIG_REPEATS], best;
        for (k = 0; k < BIG_REPEATS; ++k) {
            unsigned char *out = NULL;
            size_t size = 0;
            double t0 = bench_now();
            ik_result r =
                stage == 0 ? ik_gltf_set_pose(g, 0, pose, &e) : ik_gltf_write_memory(g, stage == 1, &out, &size, &e);
            samples[k] = (bench_now() - t0) * 1e3;
            if (r != IK_OK) {
                printf("%s: %s\n", labels[stage], e.message);
                return 0;
            }
            free(out);
        }
        best = samples[0];
        for (k = 1; k < BIG_REPEATS; ++k) best = samples[k] < best ? samples[k] : best;
        printf("%-28s %10s %10.3f %10.3f\n", labels[stage], "", bench_median(samples, BIG_REPEATS), best);
        fprintf(csv, "%s,%s,0,%.4f,%.4f,%d\n", labels[stage], BENCH_SCALAR, bench_median(samples, BIG_REPEATS), best,
                BIG_REPEATS);
    }
    free(pose);
    ik_gltf_free(g);
    return 1;
}

int main(void) {
    static const char *const files[] = {"robot.glb", "girl.glb", "rigged_figure.glb", "male_base_mesh.glb",
                                        "SimpleSkin.gltf"};
    char path[600];
    double samples[REPEATS];
    FILE *csv;
    size_t i;
    int k;
    csv = fopen("bench_gltf.csv", "w");
    if (!csv) return 1;
    fprintf(csv, "case,scalar,bytes,median_ms,min_ms,repeats\n");
    printf("%-28s %10s %10s %10s\n", "case", "bytes", "median ms", "min ms");
    for (i = 0; i < sizeof files / sizeof files[0]; ++i) {
        size_t size;
        unsigned char *data;
        ik_gltf *g = NULL;
        ik_error e;
        bench_data_path(path, sizeof path, "gltf", files[i]);
        if (!(data = (unsigned char *)bench_read_file(path, &size))) {
            printf("skipped: %s not found\n", path);
            continue;
        }
        if (!bench_load(files[i], data, size, csv)) return 1;
        if (i == 0 && ik_gltf_read_memory(data, size, NULL, &g, &e) == IK_OK) {
            const ik_gltf_skin *s = ik_gltf_skeleton(g, 0);
            const ik_clip *walk = NULL;
            ik_transform pose[64];
            int c;
            for (c = 0; c < ik_gltf_clip_count(g); ++c)
                if (strcmp(ik_gltf_clip(g, c, 0)->name, "Robot_Walking") == 0) walk = ik_gltf_clip(g, c, 0);
            for (k = 0; walk && k < REPEATS; ++k) {
                double t0 = bench_now();
                for (c = 0; c < 1000; ++c) {
                    ik_skeleton_rest_pose(&s->skeleton, pose);
                    ik_clip_sample(walk, walk->duration * (ik_real)c / 1000, pose);
                }
                samples[k] = (bench_now() - t0) * 1e3 / 1000;
                bench_sink += pose[3].rotation.w;
            }
            printf("%-28s %10s %10.5f\n", "sample Robot_Walking pose", "", bench_median(samples, REPEATS));
            fprintf(csv, "sample Robot_Walking pose,%s,0,%.6f,,%d\n", BENCH_SCALAR, bench_median(samples, REPEATS),
                    REPEATS);
            for (k = 0; k < REPEATS; ++k) {
                unsigned char *out;
                size_t out_size;
                double t0 = bench_now();
                if (ik_gltf_write_memory(g, 1, &out, &out_size, &e) != IK_OK) return 1;
                samples[k] = (bench_now() - t0) * 1e3;
                free(out);
            }
            printf("%-28s %10s %10.3f\n", "write robot.glb", "", bench_median(samples, REPEATS));
            fprintf(csv, "write robot.glb,%s,0,%.4f,,%d\n", BENCH_SCALAR, bench_median(samples, REPEATS), REPEATS);
            ik_gltf_free(g);
        }
        free(data);
    }
    for (k = 1; k >= 0; --k) {
        char *doc = big_rig_gltf(100000, k);
        int loaded = doc && bench_load(k ? "generated 100k deep" : "generated 100k wide", doc, strlen(doc), csv);
        if (loaded && k == 1) loaded = bench_pose_and_write(doc, csv);
        free(doc);
        if (!loaded) return 1;
    }
    fclose(csv);
    return 0;
}

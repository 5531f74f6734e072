/* BVH load time (01_01.bvh: 2 MB, 2,752 frames; goal < 30 ms) and the cost
 * of sampling a pose from its clip. Medians over repeats; bench_bvh.csv. */
#include "bench_util.h"

#include <ikit/bvh.h>

#define LOAD_REPEATS 21
#define SAMPLE_REPEATS 31
#define SAMPLES_PER_REPEAT 2000

int main(int argc, char **argv) {
    char path[1024];
    double load[LOAD_REPEATS], memory[LOAD_REPEATS], sample[SAMPLE_REPEATS];
    double load_ms, memory_ms, sample_us;
    ik_bvh *bvh = NULL;
    ik_error err;
    ik_transform *pose;
    char *text;
    size_t text_size;
    FILE *csv;
    int i, k;
    if (argc > 1)
        snprintf(path, sizeof path, "%s", argv[1]);
    else
        bench_data_path(path, sizeof path, "bvh", "01_01.bvh");
    for (i = 0; i < LOAD_REPEATS; ++i) {
        double t0 = bench_now();
        if (ik_bvh_read_file(path, &bvh, &err) != IK_OK) {
            printf("skipped: cannot load %s: %s\n", path, err.message);
            return 0;
        }
        load[i] = bench_now() - t0;
        if (i + 1 < LOAD_REPEATS) ik_bvh_free(bvh);
    }
    if (ik_bvh_write_memory(bvh, &text, &text_size, &err) != IK_OK) return 1;
    for (i = 0; i < LOAD_REPEATS; ++i) {
        ik_bvh *again = NULL;
        double t0 = bench_now();
        ik_bvh_read_memory(text, text_size, &again, &err);
        memory[i] = bench_now() - t0;
        ik_bvh_free(again);
    }
    ik_bvh_text_free(text);
    pose = (ik_transform *)malloc((size_t)bvh->joint_count * sizeof *pose);
    for (i = 0; i < SAMPLE_REPEATS; ++i) {
        double t0 = bench_now();
        for (k = 0; k < SAMPLES_PER_REPEAT; ++k) {
            ik_real t = bvh->clip.duration * (ik_real)((k * 7919) % SAMPLES_PER_REPEAT) / SAMPLES_PER_REPEAT;
            ik_skeleton_rest_pose(&bvh->skeleton, pose);
            ik_clip_sample(&bvh->clip, t, pose);
            bench_sink += (double)pose[k % bvh->joint_count].rotation.w;
        }
        sample[i] = (bench_now() - t0) / SAMPLES_PER_REPEAT;
    }
    load_ms = bench_median(load, LOAD_REPEATS) * 1e3;
    memory_ms = bench_median(memory, LOAD_REPEATS) * 1e3;
    sample_us = bench_median(sample, SAMPLE_REPEATS) * 1e6;
    printf("bvh load  %s: %d joints, %d frames, median %.2f ms over %d loads (goal < 30 ms)\n", path, bvh->joint_count,
           bvh->frame_count, load_ms, LOAD_REPEATS);
    printf("bvh parse from memory (re-written text): median %.2f ms\n", memory_ms);
    printf("bvh sample a %d-joint pose at random times: median %.3f us (checksum %.3f)\n", bvh->joint_count, sample_us,
           bench_sink);
    csv = fopen("bench_bvh.csv", "w");
    if (csv) {
        fprintf(csv, "case,joints,frames,repeats,median_ms\n");
        fprintf(csv, "load_file_01_01,%d,%d,%d,%.4f\n", bvh->joint_count, bvh->frame_count, LOAD_REPEATS, load_ms);
        fprintf(csv, "parse_memory_rewritten,%d,%d,%d,%.4f\n", bvh->joint_count, bvh->frame_count, LOAD_REPEATS,
                memory_ms);
        fprintf(csv, "sample_pose,%d,%d,%d,%.6f\n", bvh->joint_count, bvh->frame_count, SAMPLE_REPEATS,
                sample_us * 1e-3);
        fclose(csv);
    }
    free(pose);
    ik_bvh_free(bvh);
    return 0;
}

/* Key fitting on the CMU takes (131_01, 131_02 walks; 01_01, 2,752 frames)
 * at 0.5, 1 and 5 mm (CMU units: 1 unit = 0.0254 / 0.45 m; points 5 cm
 * along each joint's axes): the time of ik_key_fit_run (median of 3 runs),
 * channel and scalar keys and the error reached, beside the comparison
 * (ik_key_decimate_run: per-curve greedy removal, its tolerance searched to
 * the same E; timed once). Writes bench_key_fit.csv. */
#include "bench_util.h"

#include <ikit/bvh.h>
#include <ikit/key_fit.h>

#define REPEATS 3
#define CMU_METRES_PER_UNIT (0.0254 / 0.45)

static int load(const char *name, ik_bvh **bvh, ik_take *take) {
    char path[1024];
    ik_error err;
    bench_data_path(path, sizeof path, "bvh", name);
    if (ik_bvh_read_file(path, bvh, &err) != IK_OK) {
        fprintf(stderr, "bench_key_fit: %s: %s\n", path, err.message);
        return 0;
    }
    take->joint_count = (*bvh)->joint_count;
    take->frame_count = (*bvh)->frame_count;
    take->frame_time = (ik_real)(*bvh)->frame_time;
    take->poses_ls =
        (ik_transform *)malloc((size_t)take->frame_count * (size_t)take->joint_count * sizeof *take->poses_ls);
    return take->poses_ls && ik_take_bake(take, &(*bvh)->clip, (*bvh)->rest_ls) == IK_OK;
}

int main(void) {
    static const char *const takes[] = {"131_01.bvh", "131_02.bvh", "01_01.bvh"};
    static const double millimetres[] = {0.5, 1, 5};
    FILE *csv = fopen("bench_key_fit.csv", "w");
    int t, e, i;
    if (csv)
        fprintf(csv,
                "take,frames,error_mm,method,median_ms,channel_keys,channel_key_percent,curve_keys,max_error_mm,"
                "mean_error_mm,sharing\n");
    printf("%-11s %6s %5s %-7s %10s %8s %7s %8s %8s %8s\n", "take", "frames", "E mm", "method", "ms", "ch.keys", "%",
           "crv.keys", "max mm", "mean mm");
    for (t = 0; t < 3; ++t) {
        ik_bvh *bvh = NULL;
        ik_take take;
        ik_key_fit_size size;
        ik_channel *channels;
        ik_real *times, *values;
        void *scratch;
        if (!load(takes[t], &bvh, &take)) return 1;
        size = ik_key_fit_size_of(&take);
        channels = (ik_channel *)malloc((size_t)size.channel_count * sizeof *channels);
        times = (ik_real *)malloc(size.time_count * sizeof *times);
        values = (ik_real *)malloc(size.value_count * sizeof *values);
        scratch = malloc(ik_key_fit_scratch_size(take.frame_count, take.joint_count) +
                         ik_key_decimate_scratch_size(take.frame_count, take.joint_count));
        for (e = 0; e < 3; ++e) {
            ik_key_fit job = ik_key_fit_def();
            ik_key_fit_stats stats[2];
            ik_clip clip;
            double ms[REPEATS], median[2];
            int m;
            job.take = &take;
            job.skeleton = &bvh->skeleton;
            job.max_error = (ik_real)(millimetres[e] * 1e-3 / CMU_METRES_PER_UNIT);
            job.point_offset = (ik_real)(0.05 / CMU_METRES_PER_UNIT);
            job.scratch = scratch;
            job.scratch_bytes = ik_key_fit_scratch_size(take.frame_count, take.joint_count) +
                                ik_key_decimate_scratch_size(take.frame_count, take.joint_count);
            job.channels = channels, job.times = times, job.values = values, job.clip = &clip;
            for (i = 0; i < REPEATS; ++i) {
                double start = bench_now();
                job.stats = &stats[0];
                if (ik_key_fit_run(&job) != IK_OK) return 1;
                ms[i] = (bench_now() - start) * 1e3;
            }
            median[0] = bench_median(ms, REPEATS);
            {
                double start = bench_now();
                job.stats = &stats[1];
                if (ik_key_decimate_run(&job) != IK_OK) return 1;
                median[1] = (bench_now() - start) * 1e3;
            }
            for (m = 0; m < 2; ++m) {
                const ik_key_fit_stats *s = &stats[m];
                double percent = 100.0 * (double)s->key_count / ((double)take.frame_count * s->channel_count);
                double unit_mm = CMU_METRES_PER_UNIT * 1e3;
                const char *method = m ? "greedy" : "ours";
                const char *sharing = m ? "per-curve" : s->sharing == IK_KEY_SHARE_SKELETON ? "skeleton" : "joint";
                printf("%-11s %6d %5.1f %-7s %10.1f %8ld %7.2f %8ld %8.3f %8.3f\n", takes[t], take.frame_count,
                       millimetres[e], method, median[m], s->key_count, percent, s->curve_key_count,
                       (double)s->max_error * unit_mm, (double)s->mean_error * unit_mm);
                if (csv)
                    fprintf(csv, "%s,%d,%.1f,%s,%.2f,%ld,%.3f,%ld,%.4f,%.4f,%s\n", takes[t], take.frame_count,
                            millimetres[e], method, median[m], s->key_count, percent, s->curve_key_count,
                            (double)s->max_error * unit_mm, (double)s->mean_error * unit_mm, sharing);
            }
        }
        free(channels);
        free(times);
        free(values);
        free(scratch);
        free(take.poses_ls);
        ik_bvh_free(bvh);
    }
    if (csv) fclose(csv);
    printf("(%s build; CPU time of this thread; bench_key_fit.csv)\n", BENCH_SCALAR);
    return 0;
}

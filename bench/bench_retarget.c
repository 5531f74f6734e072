/* Retargeting speed: the three CMU takes onto each real glTF rig
 * (robot.glb's legs end at virtual ankles) (ik_retarget_run: source contacts, rotation transfer, footskate
 * IK pass, soles onto the floor), the same with the hands held too
 * (hold_hands: a humanoid solve of both arms per frame), and the transfer
 * alone (hold_feet off), in frames per second on one core. Medians over repeats of thread CPU
 * time; bench_retarget.csv. Goal: at least 1,000 frames per second. */
#include "bench_util.h"

#include <ikit/asset.h>
#include <ikit/retarget.h>

#include "support/motion_fixture.h"

#define REPEATS 9

static const char *const takes[3] = {"131_01.bvh", "131_02.bvh", "01_01.bvh"};
static const char *const rigs[4] = {"girl.glb", "male_base_mesh.glb", "rigged_figure.glb", "robot.glb"};

/* Median seconds of REPEATS runs of `job` (0 when a run fails). */
static double time_runs(const ik_retarget *job) {
    double s[REPEATS];
    int i;
    for (i = 0; i < REPEATS; ++i) {
        double t0 = bench_now();
        if (ik_retarget_run(job) != IK_OK) return 0;
        s[i] = bench_now() - t0;
        bench_sink += (double)job->target->poses_ls[3].rotation.x;
    }
    return bench_median(s, REPEATS);
}

int main(void) {
    FILE *csv = fopen("bench_retarget.csv", "w");
    int t, r;
    if (csv) fprintf(csv, "take,rig,frames,stage,median_seconds,frames_per_second,scalar\n");
    printf("%-12s %-20s %7s %20s %20s %20s\n", "take", "rig", "frames", "with IK (frames/s)", "IK + hands",
           "transfer only");
    for (t = 0; t < 3; ++t) {
        motion_fixture m;
        char path[1024];
        bench_data_path(path, sizeof path, "bvh", takes[t]);
        if (!motion_fixture_read_path(&m, path)) {
            printf("skipped: real-asset corpus not found (%s)\n", takes[t]);
            continue;
        }
        for (r = 0; r < 4; ++r) {
            ik_asset asset;
            ik_humanoid_map map;
            ik_humanoid rig;
            ik_retarget job = ik_retarget_def();
            ik_take out;
            double full, hands, plain;
            bench_data_path(path, sizeof path, "gltf", rigs[r]);
            if (ik_asset_load(path, &asset, NULL) != IK_OK) continue;
            if (ik_humanoid_map_find(asset.skeleton, NULL, 0, &map) != IK_OK ||
                ik_humanoid_init(&rig, asset.skeleton, &map) != IK_OK) {
                ik_asset_free(&asset);
                continue;
            }
            out.frame_count = m.take.frame_count;
            out.joint_count = asset.skeleton->joint_count;
            out.frame_time = m.take.frame_time;
            out.poses_ls =
                (ik_transform *)malloc((size_t)out.frame_count * (size_t)out.joint_count * sizeof(ik_transform));
            job.source_rig = &m.rig;
            job.source = &m.take;
            job.target_rig = &rig;
            job.target = &out;
            job.scratch_bytes = ik_retarget_scratch_size(out.frame_count, m.take.joint_count, out.joint_count);
            job.scratch = malloc(job.scratch_bytes);
            full = time_runs(&job);
            job.hold_hands = 1;
            hands = time_runs(&job);
            job.hold_hands = 0;
            job.hold_feet = 0;
            plain = time_runs(&job);
            if (full > 0 && hands > 0 && plain > 0) {
                printf("%-12s %-20s %7d %20.0f %20.0f %20.0f\n", takes[t], rigs[r], out.frame_count,
                       out.frame_count / full, out.frame_count / hands, out.frame_count / plain);
                if (csv) {
                    fprintf(csv, "%s,%s,%d,with_ik,%.6g,%.0f,%s\n", takes[t], rigs[r], out.frame_count, full,
                            out.frame_count / full, BENCH_SCALAR);
                    fprintf(csv, "%s,%s,%d,with_ik_and_hands,%.6g,%.0f,%s\n", takes[t], rigs[r], out.frame_count, hands,
                            out.frame_count / hands, BENCH_SCALAR);
                    fprintf(csv, "%s,%s,%d,transfer,%.6g,%.0f,%s\n", takes[t], rigs[r], out.frame_count, plain,
                            out.frame_count / plain, BENCH_SCALAR);
                }
            } else {
                printf("failed: %s on %s\n", takes[t], rigs[r]);
            }
            free(job.scratch);
            free(out.poses_ls);
            ik_asset_free(&asset);
        }
        motion_fixture_free(&m);
    }
    if (csv) fclose(csv);
    return 0;
}

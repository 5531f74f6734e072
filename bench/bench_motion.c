/* Motion layer speed on the three CMU takes: foot contacts (every frame's
 * forward kinematics for the foot paths, then the contacts) and footskate
 * clean-up (plan and apply), in frames per second on one core. Medians over
 * repeats (thread CPU time); bench_motion.csv. Goal: clean-up at least
 * 5,000 frames per second. */
#include "bench_util.h"

#include <ikit/footskate.h>

#include "support/motion_fixture.h"

#define REPEATS 15

static const char *const takes[3] = {"131_01.bvh", "131_02.bvh", "01_01.bvh"};

int main(void) {
    FILE *csv = fopen("bench_motion.csv", "w");
    int t, i;
    if (csv) fprintf(csv, "take,frames,stage,median_seconds,frames_per_second,scalar\n");
    printf("%-12s %7s %22s %22s %22s\n", "take", "frames", "contacts (frames/s)", "clean-up (frames/s)",
           "both (frames/s)");
    for (t = 0; t < 3; ++t) {
        motion_fixture m;
        ik_mat4 identity = ik_mat4_identity();
        ik_footskate job = ik_footskate_def();
        ik_transform *input;
        size_t bytes;
        char path[1024];
        double contacts_s[REPEATS], clean_s[REPEATS], both_s[REPEATS], contacts, clean, both;
        bench_data_path(path, sizeof path, "bvh", takes[t]);
        if (!motion_fixture_read_path(&m, path)) {
            printf("skipped: real-asset corpus not found (%s)\n", takes[t]);
            continue;
        }
        bytes = (size_t)m.take.frame_count * (size_t)m.take.joint_count * sizeof(ik_transform);
        input = (ik_transform *)malloc(bytes);
        memcpy(input, m.take.poses_ls, bytes);
        motion_fixture_contacts(&m, &identity);
        job.rig = &m.rig, job.take = &m.take, job.contacts = m.contacts, job.contact_count = m.contact_count;
        job.model_ms = m.model_ms, job.scratch_bytes = ik_footskate_scratch_size(&m.take, m.contact_count);
        job.scratch = malloc(job.scratch_bytes);
        for (i = 0; i < REPEATS; ++i) {
            double t0, t1;
            memcpy(m.take.poses_ls, input, bytes);
            t0 = bench_now();
            motion_fixture_contacts(&m, &identity);
            t1 = bench_now();
            if (m.contacts_result != IK_OK || ik_footskate_plan(&job) != IK_OK ||
                ik_footskate_apply(&job, 0, m.take.frame_count) != IK_OK) {
                printf("failed on %s\n", takes[t]);
                return 1;
            }
            contacts_s[i] = t1 - t0;
            clean_s[i] = bench_now() - t1;
            both_s[i] = contacts_s[i] + clean_s[i];
            bench_sink += (double)m.take.poses_ls[7].rotation.x;
        }
        contacts = bench_median(contacts_s, REPEATS);
        clean = bench_median(clean_s, REPEATS);
        both = bench_median(both_s, REPEATS);
        printf("%-12s %7d %22.0f %22.0f %22.0f\n", takes[t], m.take.frame_count, m.take.frame_count / contacts,
               m.take.frame_count / clean, m.take.frame_count / both);
        if (csv) {
            fprintf(csv, "%s,%d,contacts,%.6g,%.0f,%s\n", takes[t], m.take.frame_count, contacts,
                    m.take.frame_count / contacts, BENCH_SCALAR);
            fprintf(csv, "%s,%d,clean,%.6g,%.0f,%s\n", takes[t], m.take.frame_count, clean, m.take.frame_count / clean,
                    BENCH_SCALAR);
            fprintf(csv, "%s,%d,both,%.6g,%.0f,%s\n", takes[t], m.take.frame_count, both, m.take.frame_count / both,
                    BENCH_SCALAR);
        }
        free(job.scratch);
        free(input);
        motion_fixture_free(&m);
    }
    if (csv) fclose(csv);
    return 0;
}

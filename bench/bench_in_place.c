/* In-place cycle detection speed: the three CMU takes with their hips'
 * mean travel (first frame to last) taken out by ik_in_place_root_motion,
 * then, per repeat, the feet's paths recorded, the foot contacts found and
 * ik_in_place run (detection), and the root motion put back with the slide
 * found (a constant velocity over every frame). Frames per second on one
 * core, medians over repeats (thread CPU time); bench_in_place.csv. */
#include "bench_util.h"

#include <ikit/in_place.h>

#include "support/motion_fixture.h"

#define REPEATS 15

static const char *const takes[3] = {"131_01.bvh", "131_02.bvh", "01_01.bvh"};

int main(void) {
    FILE *csv = fopen("bench_in_place.csv", "w");
    int t, i;
    if (csv) fprintf(csv, "take,frames,stage,median_seconds,frames_per_second,in_place,scalar\n");
    printf("%-12s %7s %9s %9s %9s %7s %6s %22s %22s\n", "take", "frames", "in place", "true m/s", "found m/s", "steady",
           "cover", "detection (frames/s)", "root motion (frames/s)");
    for (t = 0; t < 3; ++t) {
        motion_fixture m;
        ik_mat4 identity = ik_mat4_identity();
        ik_foot_contacts feet = ik_foot_contacts_def();
        ik_in_place job = ik_in_place_def();
        ik_in_place_cycle cycle;
        ik_foot_contact *stances;
        ik_vec3 travel, up, *shifted;
        ik_real metre, seconds;
        int count, n, p;
        char path[1024];
        double detect_s[REPEATS], move_s[REPEATS], detect, move;
        bench_data_path(path, sizeof path, "bvh", takes[t]);
        if (!motion_fixture_read_path(&m, path)) {
            printf("skipped: real-asset corpus not found (%s)\n", takes[t]);
            continue;
        }
        n = m.take.frame_count;
        motion_fixture_contacts(&m, &identity);
        metre = ik_foot_metre(m.leg_length);
        up = m.up_ms;
        seconds = (ik_real)(n - 1) * m.take.frame_time;
        travel =
            ik_vec3_sub(m.paths_ms[(size_t)(n - 1) * IK_FOOT_PATH_POINTS + IK_FOOT_HIPS], m.paths_ms[IK_FOOT_HIPS]);
        travel = ik_vec3_scale(ik_vec3_sub(travel, ik_vec3_scale(up, ik_vec3_dot(travel, up))), 1 / seconds);
        ik_in_place_root_motion(&m.bvh->skeleton, m.joints[IK_FOOT_HIPS], NULL, travel, &m.take);
        shifted = (ik_vec3 *)malloc((size_t)n * IK_FOOT_PATH_POINTS * sizeof(ik_vec3));
        stances = (ik_foot_contact *)malloc(2 * (size_t)n * sizeof(ik_foot_contact));
        feet.paths_ms = m.paths_ms, feet.frame_count = n, feet.frame_time = m.take.frame_time;
        for (p = 0; p < IK_FOOT_CONTACT_POINTS; ++p) feet.present[p] = m.joints[p] >= 0;
        feet.up_ms = up, feet.leg_length = m.leg_length, feet.scratch = m.scratch, feet.contacts = m.contacts;
        feet.capacity = 1024, feet.count = &m.contact_count, feet.levels = m.levels;
        job.feet = &feet, job.shifted_ms = shifted, job.scratch = m.scratch, job.stances = stances;
        job.capacity = 2 * n, job.count = &count, job.out = &cycle;
        for (i = 0; i < REPEATS; ++i) {
            double t0 = bench_now(), t1;
            if (ik_foot_paths_record(&m.bvh->skeleton, &m.take, NULL, m.joints, m.model_ms, m.paths_ms, NULL) !=
                    IK_OK ||
                ik_foot_contacts_run(&feet) != IK_OK || ik_in_place_run(&job) != IK_OK) {
                printf("failed on %s\n", takes[t]);
                return 1;
            }
            t1 = bench_now();
            /* there and back, so every repeat detects the same take */
            ik_in_place_root_motion(&m.bvh->skeleton, m.joints[IK_FOOT_HIPS], NULL, cycle.slide_ms, &m.take);
            ik_in_place_root_motion(&m.bvh->skeleton, m.joints[IK_FOOT_HIPS], NULL, ik_vec3_scale(cycle.slide_ms, -1),
                                    &m.take);
            detect_s[i] = t1 - t0;
            move_s[i] = (bench_now() - t1) / 2;
            bench_sink += (double)cycle.speed;
        }
        detect = bench_median(detect_s, REPEATS);
        move = bench_median(move_s, REPEATS);
        printf("%-12s %7d %9s %9.3f %9.3f %7.2f %6.2f %22.0f %22.0f\n", takes[t], n, cycle.in_place ? "yes" : "no",
               (double)(ik_vec3_length(travel) / metre), (double)(cycle.speed / metre), (double)cycle.steady,
               (double)cycle.cover, n / detect, n / move);
        if (csv) {
            fprintf(csv, "%s,%d,detection,%.6g,%.0f,%d,%s\n", takes[t], n, detect, n / detect, cycle.in_place,
                    BENCH_SCALAR);
            fprintf(csv, "%s,%d,root_motion,%.6g,%.0f,%d,%s\n", takes[t], n, move, n / move, cycle.in_place,
                    BENCH_SCALAR);
        }
        free(shifted);
        free(stances);
        motion_fixture_free(&m);
    }
    if (csv) fclose(csv);
    return 0;
}

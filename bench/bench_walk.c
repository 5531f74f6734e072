/* Procedural walk generation speed (walk.h): frames generated per second
 * for a 4 s take at 60 fps, on flat ground, a 10 degree slope and stairs
 * (one tread a step), on the procedural humanoid and on male_base_mesh.glb
 * and robot.glb from the real-asset corpus, where present. One frame is
 * the footholds, the pelvis, and the rig's humanoid solve of two legs and
 * two arms (repeated while an ankle is past its dorsiflexion limit), then
 * the toes. Medians over repeats of whole takes; CSV in bench_walk.csv. */
#include "bench_util.h"

#include <ikit/gltf.h>
#include <ikit/walk.h>

#define REPEATS 11
#define SECONDS 4
#define FPS 60

static const char *const ground_names[3] = {"flat", "slope10", "stairs"};

/* Frames per second generating the take on ground `kind`; -1 when the rig
 * does not map or the walk fails. */
static double time_walk(const ik_skeleton *s, const ik_mat4 *root, int kind) {
    static ik_humanoid rig;
    ik_humanoid_map map;
    ik_take take;
    ik_walk job;
    ik_ground ground;
    ik_mat4 *model = malloc(sizeof(ik_mat4) * (size_t)s->joint_count);
    double samples[REPEATS], median = -1;
    ik_real leg;
    int r;
    take.frame_time = (ik_real)1 / FPS;
    take.frame_count = SECONDS * FPS + 1;
    take.joint_count = s->joint_count;
    take.poses_ls = malloc(sizeof(ik_transform) * (size_t)take.frame_count * (size_t)s->joint_count);
    if (!model || !take.poses_ls || ik_humanoid_map_find(s, NULL, 0, &map) != IK_OK ||
        ik_humanoid_init(&rig, s, &map) != IK_OK)
        goto done;
    job = ik_walk_def(&rig, root);
    leg = job.stride / (ik_real)1.2;
    if (kind == 1) ground = ik_ground_plane(ik_vec3_zero(), ik_v3(0, (ik_real)0.98481, (ik_real)-0.17365));
    if (kind == 2)
        ground = ik_ground_stairs(ik_v3(0, 0, (ik_real)0.5 * leg), ik_v3(0, 0, 1), (ik_real)0.15 * leg,
                                  (ik_real)0.6 * leg, 12);
    job.ground = kind ? &ground : NULL;
    job.take = &take;
    job.model_ms = model;
    for (r = 0; r < REPEATS; ++r) {
        double t0 = bench_now();
        if (ik_walk_run(&job) != IK_OK) goto done;
        samples[r] = take.frame_count / (bench_now() - t0);
        bench_sink += (double)take.poses_ls[0].translation.x;
    }
    median = bench_median(samples, REPEATS);
done:
    free(model);
    free(take.poses_ls);
    return median;
}

static void report(FILE *csv, const char *label, const ik_skeleton *s, const ik_mat4 *root) {
    int kind;
    for (kind = 0; kind < 3; ++kind) {
        double fps = time_walk(s, root, kind);
        if (fps < 0) {
            printf("%-24s %-8s does not walk\n", label, ground_names[kind]);
            continue;
        }
        printf("%-24s %3d joints %-8s %9.0f frames/s (%.2f us/frame, %s)\n", label, s->joint_count, ground_names[kind],
               fps, 1e6 / fps, BENCH_SCALAR);
        if (csv) fprintf(csv, "%s,%d,%s,%s,%.0f\n", label, s->joint_count, BENCH_SCALAR, ground_names[kind], fps);
    }
}

int main(void) {
    static const char *const files[] = {"male_base_mesh.glb", "robot.glb"};
    FILE *csv = fopen("bench_walk.csv", "w");
    ik_skeleton s;
    int parents[IK_HUMANOID_BUILT_JOINTS], i;
    const char *names[IK_HUMANOID_BUILT_JOINTS];
    ik_transform rest[IK_HUMANOID_BUILT_JOINTS];
    if (csv) fprintf(csv, "rig,joints,scalar,ground,frames_per_second\n");
    ik_humanoid_build_skeleton((ik_real)1.8, IK_HUMANOID_BUILT_JOINTS, parents, names, rest);
    if (ik_skeleton_init(&s, IK_HUMANOID_BUILT_JOINTS, parents, names, rest, NULL) == IK_OK)
        report(csv, "built", &s, NULL);
    for (i = 0; i < 2; ++i) {
        char path[1024];
        ik_gltf *g = NULL;
        const ik_gltf_skin *skin;
        bench_data_path(path, sizeof path, "gltf", files[i]);
        if (ik_gltf_read_file(path, &g, NULL) != IK_OK) {
            printf("%s: skipped (real-asset corpus not found)\n", files[i]);
            continue;
        }
        skin = ik_gltf_skeleton(g, 0);
        if (skin) report(csv, files[i], &skin->skeleton, &skin->root_ms);
        ik_gltf_free(g);
    }
    if (csv) fclose(csv);
    printf("wrote bench_walk.csv\n");
    return 0;
}

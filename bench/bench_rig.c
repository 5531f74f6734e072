/* Full-body solve time: both feet on the ground (10 degree slope), both
 * hands on a staff, look-at; on the procedural humanoid and on robot.glb
 * (when $IKIT_DATA is set). Medians over repeats; CSV in bench_rig.csv. */
#include "bench_util.h"

#include <ikit/gltf.h>
#include <ikit/humanoid.h>
#include <string.h>

#define REPEATS 15
#define SOLVES 2000

static double time_rig(const ik_skeleton *s, const ik_mat4 *root) {
    static ik_humanoid rig;
    ik_humanoid_map map;
    ik_transform *pose = malloc(sizeof(ik_transform) * (size_t)s->joint_count);
    ik_mat4 *model = malloc(sizeof(ik_mat4) * (size_t)s->joint_count);
    double samples[REPEATS], median;
    ik_ground ground = ik_ground_plane(ik_vec3_zero(), ik_v3(0, (ik_real)0.985, (ik_real)-0.174));
    int r, i, side;
    if (ik_humanoid_map_find(s, NULL, 0, &map) != IK_OK || ik_humanoid_init(&rig, s, &map) != IK_OK) return -1;
    for (r = 0; r < REPEATS; ++r) {
        double t0 = bench_now();
        for (i = 0; i < SOLVES; ++i) {
            ik_humanoid_solve job = ik_humanoid_solve_def();
            ik_skeleton_rest_pose(s, pose);
            ik_skeleton_fk(s, pose, root, model);
            job.rig = &rig;
            job.pose_ls = pose;
            job.model_ms = model;
            job.root_ms = root;
            job.ground = &ground;
            job.look_at = 1;
            job.look_target_ms = ik_vec3_add(ik_mat4_translation(&model[map.joint[IK_ROLE_HEAD]]), ik_v3(1, 0, 2));
            for (side = 0; side < 2; ++side) {
                const ik_humanoid_limb *l = &rig.limb[side];
                ik_vec3 sh = ik_mat4_translation(&model[l->start]);
                ik_real len = l->upper_length + l->lower_length;
                job.goal[side].enabled = 1;
                job.goal[side].position_ms = ik_vec3_add(sh, ik_v3(0, -len * (ik_real)0.3, len * (ik_real)(0.6 + 0.0001 * i)));
            }
            ik_humanoid_solve_run(&job);
            bench_sink += (double)model[0].m[12];
        }
        samples[r] = (bench_now() - t0) / SOLVES;
    }
    median = bench_median(samples, REPEATS);
    free(pose);
    free(model);
    return median;
}

int main(void) {
    FILE *csv = fopen("bench_rig.csv", "w");
    int parents[IK_HUMANOID_BUILT_JOINTS];
    const char *names[IK_HUMANOID_BUILT_JOINTS];
    ik_transform rest[IK_HUMANOID_BUILT_JOINTS];
    ik_skeleton s;
    double t;
    const char *dir = getenv("IKIT_DATA");
    if (csv) fprintf(csv, "rig,joints,scalar,us_per_solve\n");
    ik_humanoid_build_skeleton((ik_real)1.8, IK_HUMANOID_BUILT_JOINTS, parents, names, rest);
    ik_skeleton_init(&s, IK_HUMANOID_BUILT_JOINTS, parents, names, rest, NULL);
    t = time_rig(&s, NULL);
    printf("built humanoid (%d joints, %s): %.2f us per full-body solve\n", s.joint_count, BENCH_SCALAR, t * 1e6);
    if (csv) fprintf(csv, "built,%d,%s,%.3f\n", s.joint_count, BENCH_SCALAR, t * 1e6);
    if (dir) {
        char path[1024];
        ik_gltf *g;
        snprintf(path, sizeof path, "%s/gltf/robot.glb", dir);
        if (ik_gltf_read_file(path, &g, NULL) == IK_OK) {
            const ik_gltf_skin *skin = ik_gltf_skeleton(g, 0);
            t = time_rig(&skin->skeleton, &skin->root_ms);
            printf("robot.glb (%d joints, %s): %.2f us per full-body solve\n", skin->skeleton.joint_count, BENCH_SCALAR, t * 1e6);
            if (csv) fprintf(csv, "robot.glb,%d,%s,%.3f\n", skin->skeleton.joint_count, BENCH_SCALAR, t * 1e6);
            ik_gltf_free(g);
        }
    } else {
        printf("robot.glb: skipped (IKIT_DATA unset)\n");
    }
    if (csv) fclose(csv);
    return 0;
}

/* Full-body solve time: both feet on the ground (a 10 degree slope, and a
 * 35 degree one where the heels lift and the toes bend), both hands
 * reaching ahead, look-at; on the procedural humanoid and on robot.glb and
 * male_base_mesh.glb (from the real-asset corpus, where present). Medians
 * over repeats; CSV in bench_rig.csv. */
#include "bench_util.h"

#include <ikit/gltf.h>
#include <ikit/humanoid.h>
#include <string.h>

#define REPEATS 15
#define SOLVES 2000

static double time_rig(const ik_skeleton *s, const ik_mat4 *root, double slope_deg) {
    static ik_humanoid rig;
    ik_humanoid_map map;
    ik_transform *pose = malloc(sizeof(ik_transform) * (size_t)s->joint_count);
    ik_mat4 *model = malloc(sizeof(ik_mat4) * (size_t)s->joint_count);
    double samples[REPEATS], median;
    double a = slope_deg * 3.14159265358979 / 180;
    ik_mat4 root_ms = root ? *root : ik_mat4_identity();
    ik_ground ground;
    int r, i, side;
    if (ik_humanoid_map_find(s, NULL, 0, &map) != IK_OK || ik_humanoid_init(&rig, s, &map) != IK_OK) return -1;
    /* the slope rises ahead of the body, through its rest floor */
    ground = ik_ground_plane(
        ik_mat4_transform_point(&root_ms, ik_vec3_scale(rig.up_rs, rig.floor_rs)),
        ik_vec3_sub(
            ik_vec3_scale(ik_vec3_normalize(ik_mat4_transform_vector(&root_ms, rig.up_rs)), (ik_real)cos(a)),
            ik_vec3_scale(ik_vec3_normalize(ik_mat4_transform_vector(&root_ms, rig.forward_rs)), (ik_real)sin(a))));
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
                job.goal[side].position_ms =
                    ik_vec3_add(sh, ik_v3(0, -len * (ik_real)0.3, len * (ik_real)(0.6 + 0.0001 * i)));
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

static void report(FILE *csv, const char *label, const ik_skeleton *s, const ik_mat4 *root) {
    static const double slopes[2] = {10, 35};
    int k;
    for (k = 0; k < 2; ++k) {
        double t = time_rig(s, root, slopes[k]);
        printf("%s (%d joints, %s), %.0f deg slope: %.2f us per full-body solve\n", label, s->joint_count, BENCH_SCALAR,
               slopes[k], t * 1e6);
        if (csv) fprintf(csv, "%s,%d,%s,%.0f,%.3f\n", label, s->joint_count, BENCH_SCALAR, slopes[k], t * 1e6);
    }
}

int main(void) {
    static const char *const files[] = {"robot.glb", "male_base_mesh.glb"};
    FILE *csv = fopen("bench_rig.csv", "w");
    int parents[IK_HUMANOID_BUILT_JOINTS], i;
    const char *names[IK_HUMANOID_BUILT_JOINTS];
    ik_transform rest[IK_HUMANOID_BUILT_JOINTS];
    ik_skeleton s;
    if (csv) fprintf(csv, "rig,joints,scalar,slope_deg,us_per_solve\n");
    ik_humanoid_build_skeleton((ik_real)1.8, IK_HUMANOID_BUILT_JOINTS, parents, names, rest);
    ik_skeleton_init(&s, IK_HUMANOID_BUILT_JOINTS, parents, names, rest, NULL);
    report(csv, "built", &s, NULL);
    for (i = 0; i < 2; ++i) {
        char path[1024];
        ik_gltf *g;
        const ik_gltf_skin *skin;
        bench_data_path(path, sizeof path, "gltf", files[i]);
        if (ik_gltf_read_file(path, &g, NULL) != IK_OK) {
            printf("skipped: cannot read %s\n", path);
            continue;
        }
        skin = ik_gltf_skeleton(g, 0);
        if (skin) report(csv, files[i], &skin->skeleton, &skin->root_ms);
        ik_gltf_free(g);
    }
    if (csv) fclose(csv);
    return 0;
}

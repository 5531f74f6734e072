/* The demo's retarget scene (demo_retarget.h). */
#include <stdio.h>
#include <stdlib.h>

#include <ikit/retarget.h>
#include <ikit/walk.h>

#include "demo_retarget.h"
#include "ikc.h"
#include "mesh_view.h"
#include "retarget_view.h"

#define RETARGET_FRAMES 181 /* three seconds at 60 frames per second */

static ik_transform source_poses[RETARGET_FRAMES * IKC_FIGURE_JOINTS];
static ik_transform target_poses[RETARGET_FRAMES * IKC_FIGURE_JOINTS];
static ik_mat4 walk_model[IKC_FIGURE_JOINTS];

/* The other figure: 1.5 m tall, its lengths in centimetres, its arms
 * raised 80 degrees at rest into a T-pose (the walker rests with them
 * hanging). */
typedef struct small_figure {
    ik_skeleton skeleton;
    int parents[IKC_FIGURE_JOINTS];
    const char *names[IKC_FIGURE_JOINTS];
    ik_transform rest_ls[IKC_FIGURE_JOINTS];
    ik_humanoid rig;
} small_figure;

static int small_figure_init(small_figure *f) {
    ik_humanoid_map map;
    int n = ik_humanoid_build_skeleton(1.5f, IKC_FIGURE_JOINTS, f->parents, f->names, f->rest_ls), j, side;
    if (n != IKC_FIGURE_JOINTS) return 0;
    for (j = 0; j < n; ++j) f->rest_ls[j].translation = ik_vec3_scale(f->rest_ls[j].translation, 100);
    if (ik_skeleton_init(&f->skeleton, n, f->parents, f->names, f->rest_ls, NULL) != IK_OK ||
        ik_humanoid_map_find(&f->skeleton, NULL, 0, &map) != IK_OK)
        return 0;
    for (side = 0; side < 2; ++side) {
        int arm = map.joint[side == 0 ? IK_ROLE_UPPER_ARM_L : IK_ROLE_UPPER_ARM_R];
        f->rest_ls[arm].rotation = ik_quat_mul(
            ik_quat_from_axis_angle(ik_v3(0, 0, 1), ik_rad(side == 0 ? 80.0f : -80.0f)), f->rest_ls[arm].rotation);
    }
    return ik_humanoid_init(&f->rig, &f->skeleton, &map) == IK_OK;
}

/* The small figure's body: ik_humanoid_build_body's capsules for 1.5 m, in
 * its centimetres, bound at its T-pose rest (1, or 0 / -1 as
 * ikc_mesh_from_bones). */
static int small_figure_body(const small_figure *f, ikc_mesh *body) {
    static const float clay[3] = {0.78f, 0.72f, 0.64f};
    ik_real radius[IKC_FIGURE_JOINTS], leaf[IKC_FIGURE_JOINTS];
    ik_mat4 rest_ms[IKC_FIGURE_JOINTS];
    int j;
    if (ik_humanoid_build_body(1.5f, IKC_FIGURE_JOINTS, radius, leaf) != IKC_FIGURE_JOINTS) return 0;
    for (j = 0; j < IKC_FIGURE_JOINTS; ++j) {
        radius[j] *= 100;
        leaf[j] *= 100;
    }
    ik_skeleton_fk(&f->skeleton, f->rest_ls, NULL, rest_ms);
    return ikc_mesh_from_bones(&f->skeleton, rest_ms, radius, leaf, clay, body);
}

static void retarget_once(void *context) { ik_retarget_run((const ik_retarget *)context); }

void ikc_demo_retarget_scene(ikc_demo_state *d, const ikc_figure *figure) {
    static small_figure small;
    ik_take source, target;
    ik_walk walk = ik_walk_def(&figure->rig, NULL);
    ik_retarget job = ik_retarget_def();
    ik_retarget_report report;
    ik_foot_contact held[4 * RETARGET_FRAMES];
    ikc_retarget_picture pic;
    ikc_mesh body;
    int have_body;
    const ik_humanoid *rigs[2];
    const ik_take *takes[2];
    const ik_constraint *constraints[2];
    int held_count = 0;
    ik_result r;
    double us;
    source.frame_count = target.frame_count = RETARGET_FRAMES;
    source.joint_count = target.joint_count = IKC_FIGURE_JOINTS;
    source.frame_time = target.frame_time = (ik_real)1 / 60;
    source.poses_ls = source_poses;
    target.poses_ls = target_poses;
    walk.take = &source;
    walk.model_ms = walk_model;
    if (!small_figure_init(&small) || ik_walk_run(&walk) != IK_OK) {
        fprintf(stderr, "ikc demo: the retarget scene's figures failed\n");
        ++d->solve_failures;
        return;
    }
    job.source_rig = &figure->rig;
    job.source = &source;
    job.target_rig = &small.rig;
    job.target = &target;
    job.target_contacts = held;
    job.contact_capacity = 4 * RETARGET_FRAMES;
    job.contact_count = &held_count;
    job.report = &report;
    job.scratch_bytes = ik_retarget_scratch_size(RETARGET_FRAMES, IKC_FIGURE_JOINTS, IKC_FIGURE_JOINTS);
    job.scratch = malloc(job.scratch_bytes);
    r = job.scratch ? ik_retarget_run(&job) : IK_ERR_NO_MEMORY;
    printf(
        "\nRetargeting (ikc retarget): the walk played on a 1.5 m figure resting in a T-pose, in centimetres;\n"
        "rotations through both rest poses, travel scaled by the legs, the walk's foot contacts held.\n");
    if (r != IK_OK) {
        fprintf(stderr, "ikc demo: the retarget failed: %s\n", ik_result_str(r));
        ++d->solve_failures;
        free(job.scratch);
        return;
    }
    us = ikc_demo_median_us(retarget_once, &job, 1);
    printf("  scale %.4g (target units per source unit), %d of %d joints paired, %d contacts held, %.0f frames/s\n",
           (double)report.scale, report.paired_joints, IKC_FIGURE_JOINTS, held_count, RETARGET_FRAMES / (us * 1e-6));
    free(job.scratch);
    rigs[0] = &figure->rig, rigs[1] = &small.rig;
    takes[0] = &source, takes[1] = &target;
    constraints[0] = constraints[1] = NULL;
    have_body = small_figure_body(&small, &body);
    if (!ikc_retarget_picture_make(&pic, rigs, takes, constraints, have_body > 0 ? &body : NULL,
                                   "A walk retargeted onto a smaller T-pose figure in centimetres (ikc retarget)")) {
        fprintf(stderr, "ikc demo: out of memory for the retarget's picture\n");
        ++d->write_failures;
        if (have_body > 0) ikc_mesh_free(&body);
        return;
    }
    ikc_demo_save_picture(d, "retarget", &pic.picture);
    ikc_retarget_picture_free(&pic);
    if (have_body > 0) ikc_mesh_free(&body);
}

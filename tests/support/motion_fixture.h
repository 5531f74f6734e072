/* A CMU take ready for the motion layer (tests and benchmarks): the BVH
 * read, its humanoid rig, the take baked, the feet's paths recorded under a
 * root transform and the contacts found, all on malloc'ed buffers. */
#ifndef IKIT_TEST_MOTION_FIXTURE_H
#define IKIT_TEST_MOTION_FIXTURE_H

#include <ikit/bvh.h>
#include <ikit/foot_contacts.h>
#include <ikit/humanoid.h>
#include <ikit/take.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct motion_fixture {
    ik_bvh *bvh;
    ik_humanoid rig;
    ik_take take;
    ik_mat4 root_ms;
    ik_vec3 up_ms;
    ik_real leg_length;
    int joints[IK_FOOT_PATH_POINTS];
    ik_mat4 *model_ms;
    ik_vec3 *paths_ms;
    ik_real *scratch;
    ik_real *speeds; /* [frames * IK_FOOT_CONTACT_POINTS] */
    ik_real levels[IK_FOOT_CONTACT_POINTS];
    ik_foot_contact contacts[1024];
    int contact_count;
    ik_result contacts_result;
} motion_fixture;

/* Read the BVH at `path`; 0 when it cannot be read or is no humanoid
 * (nothing held). */
static inline int motion_fixture_read_path(motion_fixture *m, const char *path) {
    ik_humanoid_map map;
    memset(m, 0, sizeof *m);
    if (ik_bvh_read_file(path, &m->bvh, NULL) != IK_OK) return 0;
    if (ik_humanoid_map_find(&m->bvh->skeleton, NULL, 0, &map) != IK_OK ||
        ik_humanoid_init(&m->rig, &m->bvh->skeleton, &map) != IK_OK) {
        ik_bvh_free(m->bvh);
        m->bvh = NULL;
        return 0;
    }
    m->take.joint_count = m->bvh->joint_count;
    m->take.frame_count = m->bvh->frame_count;
    m->take.frame_time = (ik_real)m->bvh->frame_time;
    m->take.poses_ls =
        (ik_transform *)malloc((size_t)m->take.frame_count * (size_t)m->take.joint_count * sizeof(ik_transform));
    m->model_ms = (ik_mat4 *)malloc((size_t)m->take.joint_count * sizeof(ik_mat4));
    m->paths_ms = (ik_vec3 *)malloc((size_t)m->take.frame_count * IK_FOOT_PATH_POINTS * sizeof(ik_vec3));
    m->scratch = (ik_real *)malloc(2 * (size_t)m->take.frame_count * sizeof(ik_real));
    m->speeds = (ik_real *)malloc((size_t)m->take.frame_count * IK_FOOT_CONTACT_POINTS * sizeof(ik_real));
    ik_take_bake(&m->take, &m->bvh->clip, m->bvh->rest_ls);
    ik_foot_point_joints(&m->rig, m->joints);
    m->root_ms = ik_mat4_identity();
    return 1;
}

/* Read $IKIT_DATA/bvh/NAME; 0 when the corpus is absent. */
static inline int motion_fixture_read(motion_fixture *m, const char *name) {
    const char *data = getenv("IKIT_DATA");
    char path[1024];
    memset(m, 0, sizeof *m);
    if (!data) return 0;
    snprintf(path, sizeof path, "%s/bvh/%s", data, name);
    return motion_fixture_read_path(m, path);
}

/* Record the paths under root_ms and find the contacts with default
 * thresholds (m->contacts_result). */
static inline void motion_fixture_contacts(motion_fixture *m, const ik_mat4 *root_ms) {
    ik_foot_contacts job = ik_foot_contacts_def();
    m->root_ms = *root_ms;
    m->up_ms = ik_vec3_normalize(ik_mat4_transform_vector(root_ms, m->rig.up_rs));
    m->leg_length = ik_foot_leg_length(&m->rig) * ik_vec3_length(ik_mat4_column(root_ms, 1));
    m->contacts_result =
        ik_foot_paths_record(&m->bvh->skeleton, &m->take, root_ms, m->joints, m->model_ms, m->paths_ms, NULL);
    if (m->contacts_result != IK_OK) return;
    job.paths_ms = m->paths_ms;
    job.frame_count = m->take.frame_count;
    job.frame_time = m->take.frame_time;
    job.up_ms = m->up_ms;
    job.leg_length = m->leg_length;
    job.scratch = m->scratch;
    job.contacts = m->contacts;
    job.capacity = 1024;
    job.count = &m->contact_count;
    job.speeds = m->speeds;
    job.levels = m->levels;
    m->contacts_result = ik_foot_contacts_run(&job);
}

static inline void motion_fixture_free(motion_fixture *m) {
    free(m->take.poses_ls);
    free(m->model_ms);
    free(m->paths_ms);
    free(m->scratch);
    free(m->speeds);
    if (m->bvh) ik_bvh_free(m->bvh);
    memset(m, 0, sizeof *m);
}

/* Root transforms for the variants: CMU units to metres (x 0.0254 as if
 * inches), the figure turned Z-up (+90 degrees about X), mirrored in X,
 * and moved 40 leg lengths away from the rest pose's place. */
static inline ik_mat4 motion_variant_root(int variant) {
    ik_mat4 m = ik_mat4_identity();
    if (variant == 1)
        m = ik_mat4_from_trs(ik_vec3_zero(), ik_quat_identity(),
                             ik_v3((ik_real)0.0254, (ik_real)0.0254, (ik_real)0.0254));
    if (variant == 2)
        m = ik_mat4_from_trs(ik_vec3_zero(), ik_quat_from_axis_angle(ik_v3(1, 0, 0), ik_rad(90)), ik_v3(1, 1, 1));
    if (variant == 3) m = ik_mat4_from_trs(ik_vec3_zero(), ik_quat_identity(), ik_v3(-1, 1, 1));
    if (variant == 4) m = ik_mat4_from_trs(ik_v3(400, 0, -450), ik_quat_identity(), ik_v3(1, 1, 1));
    return m;
}
#define MOTION_VARIANTS 5
static const char *const motion_variant_names[MOTION_VARIANTS] = {"as read", "x 0.0254", "Z-up", "mirrored",
                                                                  "far away"};

#endif

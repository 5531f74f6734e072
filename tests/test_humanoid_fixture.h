/* Shared by the rig tests: humanoids to test on (the procedural one and the
 * real rigs in $IKIT_DATA), their rigs and pose buffers, and geometry checks. */
#ifndef IKIT_TEST_HUMANOID_FIXTURE_H
#define IKIT_TEST_HUMANOID_FIXTURE_H

#include <ikit/bvh.h>
#include <ikit/gltf.h>
#include <ikit/humanoid.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"

#if defined(__GNUC__)
#define FIXTURE_MAYBE_UNUSED __attribute__((unused))
#else
#define FIXTURE_MAYBE_UNUSED
#endif

typedef struct fixture {
    const char *label;
    ik_gltf *gltf;
    ik_bvh *bvh;
    const ik_skeleton *skeleton;
    ik_skeleton built;
    int built_parents[IK_HUMANOID_BUILT_JOINTS];
    const char *built_names[IK_HUMANOID_BUILT_JOINTS];
    ik_transform built_rest[IK_HUMANOID_BUILT_JOINTS];
    ik_mat4 root_ms;
    ik_humanoid_map map;
    ik_humanoid rig;
    ik_result map_result, init_result;
    ik_transform *pose;
    ik_mat4 *model;
    ik_transform *start; /* the pose tests start from: the rest pose, or a standing pose made from it */
    ik_bool restood;     /* the rest pose could not stand and `start` was made by IK */
} fixture;

static const char *const fixture_files[] = {"gltf/robot.glb", "gltf/girl.glb", "gltf/male_base_mesh.glb",
                                            "gltf/rigged_figure.glb", "bvh/131_01.bvh", "bvh/131_02.bvh",
                                            "bvh/01_01.bvh"};
#define FIXTURE_FILE_COUNT ((int)(sizeof fixture_files / sizeof fixture_files[0]))

/* Where a rest pose cannot stand (girl.glb's is mid-stride: a foot held
 * above the floor by more than the rig's contact height), a standing pose
 * made from it by IK: each raised ankle goes to the mirror image of the
 * other ankle across the body's middle plane (through the hips, normal to
 * left), the foot keeping its rest model rotation (the rig's flat foot). */
FIXTURE_MAYBE_UNUSED static void fixture_make_standing(fixture *f) {
    ik_humanoid_solve job = ik_humanoid_solve_def();
    ik_vec3 up = ik_vec3_normalize(ik_mat4_transform_vector(&f->root_ms, f->rig.up_rs));
    ik_vec3 left = ik_vec3_normalize(ik_mat4_transform_vector(&f->root_ms, f->rig.left_rs));
    ik_vec3 floor_point = ik_mat4_transform_point(&f->root_ms, ik_vec3_scale(f->rig.up_rs, f->rig.floor_rs));
    ik_vec3 hips = ik_mat4_translation(&f->model[f->rig.map.joint[IK_ROLE_HIPS]]);
    ik_real scale = (ik_real)cbrt(fabs((double)ik_mat4_det3(&f->root_ms)));
    int side;
    job.rig = &f->rig;
    job.pose_ls = f->pose;
    job.model_ms = f->model;
    job.root_ms = &f->root_ms;
    job.adjust_pelvis = 0;
    for (side = 0; side < 2; ++side) {
        const ik_humanoid_limb *l = &f->rig.limb[IK_LIMB_LEG_L + side], *o = &f->rig.limb[IK_LIMB_LEG_R - side];
        ik_real leg = (l->upper_length + l->lower_length) * scale;
        ik_vec3 ankle = l->end >= 0 ? ik_mat4_translation(&f->model[l->end])
                                    : ik_mat4_transform_point(&f->model[l->mid], l->end_offset_ls);
        ik_vec3 other = o->end >= 0 ? ik_mat4_translation(&f->model[o->end])
                                    : ik_mat4_transform_point(&f->model[o->mid], o->end_offset_ls);
        ik_real lift = ik_vec3_dot(ik_vec3_sub(ankle, floor_point), up) - l->ankle_height * scale;
        ik_humanoid_goal *g = &job.goal[IK_LIMB_LEG_L + side];
        if (!(lift > f->rig.limits.contact_height * leg)) continue;
        g->enabled = 1;
        g->position_ms = ik_vec3_mad(other, left, -2 * ik_vec3_dot(ik_vec3_sub(other, hips), left));
        g->position_ms = ik_vec3_mad(g->position_ms, up, (l->ankle_height - o->ankle_height) * scale);
        g->use_rotation = l->end >= 0;
        if (l->end >= 0) g->rotation_ms = ik_mat4_rotation(&f->model[l->end]);
        f->restood = 1;
    }
    if (f->restood) ik_humanoid_solve_run(&job);
}

FIXTURE_MAYBE_UNUSED static void fixture_finish(fixture *f) {
    size_t n = (size_t)f->skeleton->joint_count;
    f->map_result = ik_humanoid_map_find(f->skeleton, NULL, 0, &f->map);
    f->init_result = f->map_result == IK_OK ? ik_humanoid_init(&f->rig, f->skeleton, &f->map) : f->map_result;
    f->pose = (ik_transform *)malloc(sizeof(ik_transform) * n);
    f->model = (ik_mat4 *)malloc(sizeof(ik_mat4) * n);
    f->start = (ik_transform *)malloc(sizeof(ik_transform) * n);
    ik_skeleton_rest_pose(f->skeleton, f->pose);
    ik_skeleton_fk(f->skeleton, f->pose, &f->root_ms, f->model);
    if (f->init_result == IK_OK) fixture_make_standing(f);
    memcpy(f->start, f->pose, sizeof(ik_transform) * n);
}

/* The procedural humanoid, 1.8 tall. */
FIXTURE_MAYBE_UNUSED static int fixture_built(fixture *f) {
    int n;
    memset(f, 0, sizeof *f);
    f->label = "built";
    n = ik_humanoid_build_skeleton((ik_real)1.8, IK_HUMANOID_BUILT_JOINTS, f->built_parents, f->built_names,
                                   f->built_rest);
    if (n != IK_HUMANOID_BUILT_JOINTS ||
        ik_skeleton_init(&f->built, n, f->built_parents, f->built_names, f->built_rest, NULL) != IK_OK)
        return 0;
    f->skeleton = &f->built;
    f->root_ms = ik_mat4_identity();
    fixture_finish(f);
    return 1;
}

/* A real rig, `file` relative to $IKIT_DATA; 0 when the corpus is absent. */
FIXTURE_MAYBE_UNUSED static int fixture_file(fixture *f, const char *file) {
    const char *dir = getenv("IKIT_DATA");
    char path[1024];
    memset(f, 0, sizeof *f);
    f->label = file;
    if (!dir) return 0;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (strstr(file, ".bvh")) {
        if (ik_bvh_read_file(path, &f->bvh, NULL) != IK_OK) return 0;
        f->skeleton = &f->bvh->skeleton;
        f->root_ms = ik_mat4_identity();
    } else {
        const ik_gltf_skin *skin;
        if (ik_gltf_read_file(path, &f->gltf, NULL) != IK_OK) return 0;
        skin = ik_gltf_skeleton(f->gltf, 0);
        if (!skin) return 0;
        f->skeleton = &skin->skeleton;
        f->root_ms = skin->root_ms;
    }
    fixture_finish(f);
    return 1;
}

FIXTURE_MAYBE_UNUSED static void fixture_free(fixture *f) {
    free(f->pose);
    free(f->model);
    free(f->start);
    if (f->gltf) ik_gltf_free(f->gltf);
    if (f->bvh) ik_bvh_free(f->bvh);
    f->pose = NULL;
    f->model = NULL;
    f->start = NULL;
    f->gltf = NULL;
    f->bvh = NULL;
}

FIXTURE_MAYBE_UNUSED static void fixture_reset(fixture *f) {
    memcpy(f->pose, f->start, sizeof(ik_transform) * (size_t)f->skeleton->joint_count);
    ik_skeleton_fk(f->skeleton, f->pose, &f->root_ms, f->model);
}

FIXTURE_MAYBE_UNUSED static ik_vec3 fixture_pos(const fixture *f, int joint) { return ik_mat4_translation(&f->model[joint]); }

/* The end (wrist, ankle) of a limb in the current model matrices. */
FIXTURE_MAYBE_UNUSED static ik_vec3 fixture_end(const fixture *f, int limb) {
    const ik_humanoid_limb *l = &f->rig.limb[limb];
    if (l->end >= 0) return fixture_pos(f, l->end);
    return ik_mat4_transform_point(&f->model[l->mid], l->end_offset_ls);
}

/* Model units per root unit (the root's uniform scale). */
FIXTURE_MAYBE_UNUSED static ik_real fixture_scale(const fixture *f) {
    ik_real det = ik_mat4_det3(&f->root_ms);
    return (ik_real)cbrt(fabs((double)det));
}

FIXTURE_MAYBE_UNUSED static ik_real fixture_limb_length(const fixture *f, int limb) {
    return (f->rig.limb[limb].upper_length + f->rig.limb[limb].lower_length) * fixture_scale(f);
}

FIXTURE_MAYBE_UNUSED static ik_vec3 fixture_up(const fixture *f) {
    return ik_vec3_normalize(ik_mat4_transform_vector(&f->root_ms, f->rig.up_rs));
}
FIXTURE_MAYBE_UNUSED static ik_vec3 fixture_forward(const fixture *f) {
    return ik_vec3_normalize(ik_mat4_transform_vector(&f->root_ms, f->rig.forward_rs));
}
FIXTURE_MAYBE_UNUSED static ik_vec3 fixture_left(const fixture *f) {
    return ik_vec3_normalize(ik_mat4_transform_vector(&f->root_ms, f->rig.left_rs));
}

/* The signed bend of a limb's middle joint about its hinge (in model space,
 * from forward kinematics): the angle about h from the upper bone to the
 * lower bone, both projected on the plane perpendicular to h, with
 * h = sgn(det M) M hinge_axis_ls (the bend is measured in the middle
 * joint's own frame, which a mirror turns round). */
FIXTURE_MAYBE_UNUSED static ik_real fixture_bend(const fixture *f, int limb) {
    const ik_humanoid_limb *l = &f->rig.limb[limb];
    ik_vec3 h = ik_vec3_scale(ik_vec3_normalize(ik_mat4_transform_vector(&f->model[l->mid], l->hinge_axis_ls)),
                              ik_mat4_det3(&f->model[l->mid]) < 0 ? -1 : 1);
    ik_vec3 u = ik_vec3_reject(ik_vec3_sub(fixture_pos(f, l->mid), fixture_pos(f, l->start)), h);
    ik_vec3 v = ik_vec3_reject(ik_vec3_sub(fixture_end(f, limb), fixture_pos(f, l->mid)), h);
    return (ik_real)atan2((double)ik_vec3_dot(h, ik_vec3_cross(u, v)), (double)ik_vec3_dot(u, v));
}

FIXTURE_MAYBE_UNUSED static ik_bool fixture_pose_finite(const fixture *f) {
    int i;
    for (i = 0; i < f->skeleton->joint_count; ++i)
        if (!ik_transform_finite(f->pose[i]) || !ik_mat4_finite(&f->model[i])) return 0;
    return 1;
}

/* Rest bone lengths kept: every joint's distance to its parent. */
FIXTURE_MAYBE_UNUSED static ik_bool fixture_lengths_kept(const fixture *f, const ik_mat4 *rest_model, ik_real tol) {
    int i;
    for (i = 0; i < f->skeleton->joint_count; ++i) {
        int p = f->skeleton->parents[i];
        ik_real a, b;
        if (p < 0 || i == f->rig.pelvis) continue;
        a = ik_vec3_distance(ik_mat4_translation(&rest_model[i]), ik_mat4_translation(&rest_model[p]));
        b = ik_vec3_distance(fixture_pos(f, i), fixture_pos(f, p));
        if (fabs((double)(a - b)) > (double)tol * (1 + (double)a)) return 0;
    }
    return 1;
}

/* Runs `check` on the built rig (built = 1), then on each real rig that
 * sets up (built = 0); skips with a message where the corpus is absent. */
FIXTURE_MAYBE_UNUSED static void fixture_each_rig(void (*check)(fixture *f, int built, void *context),
                                                  void *context) {
    fixture f;
    int i;
    if (fixture_built(&f)) {
        check(&f, 1, context);
        fixture_free(&f);
    }
    for (i = 0; i < FIXTURE_FILE_COUNT; ++i) {
        if (!fixture_file(&f, fixture_files[i])) {
            check_skip("real-asset corpus not found");
            fixture_free(&f);
            return;
        }
        if (f.init_result == IK_OK) check(&f, 0, context);
        fixture_free(&f);
    }
}

#endif

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

static const char *const fixture_files[] = {"gltf/robot.glb",         "gltf/girl.glb",  "gltf/male_base_mesh.glb",
                                            "gltf/rigged_figure.glb", "bvh/131_01.bvh", "bvh/131_02.bvh",
                                            "bvh/01_01.bvh"};
#define FIXTURE_FILE_COUNT ((int)(sizeof fixture_files / sizeof fixture_files[0]))

/* A humanoid job on the fixture's rig, pose, model matrices and root. */
static inline void fixture_bind_job(fixture *f, ik_humanoid_solve *job) {
    job->rig = &f->rig;
    job->pose_ls = f->pose;
    job->model_ms = f->model;
    job->root_ms = &f->root_ms;
}

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
    fixture_bind_job(f, &job);
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

FIXTURE_MAYBE_UNUSED static ik_vec3 fixture_pos(const fixture *f, int joint) {
    return ik_mat4_translation(&f->model[joint]);
}

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
    ik_vec3 h = ik_vec3_normalize(ik_mat4_transform_turn_axis(&f->model[l->mid], l->hinge_axis_ls));
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

/* ---- mirrored twins (issue 11: mirrored roots and mirrored rigs) ----------- */

/* A twin of a fixture whose model space is the original's seen through the
 * affine `map`: kind FIXTURE_TWIN_ROOT shares the skeleton and rig and
 * stands above the root map * root_ms (a mirror, a flip, a scale); kind
 * FIXTURE_TWIN_RIG has its own skeleton whose body's root joint is
 * mirrored, D = diag(-1, 1, 1) times its rest and start transforms
 * (fixture_mirror_x: a mirrored parent frame for everything below it, its
 * "left" limbs on the figure's right; other roots, such as IK controls,
 * are left as they are) and its own rig from ik_humanoid_init, and
 * map = root_ms D root_ms^-1. Either way the twin's start pose has forward
 * kinematics map * the original's. */
enum { FIXTURE_TWIN_ROOT, FIXTURE_TWIN_RIG };

typedef struct fixture_twin {
    fixture f;
    char label[200];
    ik_mat4 map;
    ik_skeleton skeleton;
    ik_transform *rest;
    int root;
} fixture_twin;

FIXTURE_MAYBE_UNUSED static void fixture_twin_free(fixture_twin *t) {
    free(t->f.pose);
    free(t->f.model);
    free(t->f.start);
    free(t->rest);
    t->f.pose = t->f.start = NULL;
    t->f.model = NULL;
    t->rest = NULL;
}

/* D t for D = diag(-1, 1, 1): D T R S = (D T) (D R D) (D S), so the
 * translation's x, the rotation's y and z and the scale's x are negated. */
FIXTURE_MAYBE_UNUSED static ik_transform fixture_mirror_x(ik_transform t) {
    t.translation.x = -t.translation.x;
    t.rotation = ik_q(t.rotation.x, -t.rotation.y, -t.rotation.z, t.rotation.w);
    t.scale.x = -t.scale.x;
    return t;
}

/* 0 when the twin cannot be made (a rig with several roots, a mirrored rig
 * that does not set up). */
FIXTURE_MAYBE_UNUSED static int fixture_twin_make(fixture_twin *t, const fixture *f, int kind, const ik_mat4 *map) {
    size_t n = (size_t)f->skeleton->joint_count;
    memset(t, 0, sizeof *t);
    t->f = *f;
    t->f.gltf = NULL;
    t->f.bvh = NULL;
    t->f.pose = (ik_transform *)malloc(sizeof(ik_transform) * n);
    t->f.model = (ik_mat4 *)malloc(sizeof(ik_mat4) * n);
    t->f.start = (ik_transform *)malloc(sizeof(ik_transform) * n);
    t->root = -1;
    if (!t->f.pose || !t->f.model || !t->f.start) return 0;
    memcpy(t->f.start, f->start, sizeof(ik_transform) * n);
    t->f.label = t->label;
    if (kind == FIXTURE_TWIN_ROOT) {
        snprintf(t->label, sizeof t->label, "%s, mirroring root", f->label);
        t->map = *map;
        t->f.root_ms = ik_mat4_mul(map, &f->root_ms);
    } else {
        ik_mat4 root_inv, mirror = ik_mat4_from_trs(ik_vec3_zero(), ik_quat_identity(), ik_v3(-1, 1, 1));
        for (t->root = f->map.joint[IK_ROLE_HIPS]; f->skeleton->parents[t->root] >= 0;)
            t->root = f->skeleton->parents[t->root];
        t->rest = (ik_transform *)malloc(sizeof(ik_transform) * n);
        if (t->root < 0 || !t->rest) return 0;
        memcpy(t->rest, f->skeleton->rest_ls, sizeof(ik_transform) * n);
        t->rest[t->root] = fixture_mirror_x(t->rest[t->root]);
        t->f.start[t->root] = fixture_mirror_x(t->f.start[t->root]);
        t->skeleton = *f->skeleton;
        t->skeleton.rest_ls = t->rest;
        t->f.skeleton = &t->skeleton;
        snprintf(t->label, sizeof t->label, "%s, mirrored rig", f->label);
        t->f.map_result = ik_humanoid_map_find(t->f.skeleton, NULL, 0, &t->f.map);
        t->f.init_result =
            t->f.map_result == IK_OK ? ik_humanoid_init(&t->f.rig, t->f.skeleton, &t->f.map) : t->f.map_result;
        if (t->f.init_result != IK_OK) return 0;
        if (!ik_mat4_inverse(&f->root_ms, &root_inv)) return 0;
        t->map = ik_mat4_mul(&f->root_ms, &mirror);
        t->map = ik_mat4_mul(&t->map, &root_inv);
    }
    memcpy(t->f.pose, t->f.start, sizeof(ik_transform) * n);
    ik_skeleton_fk(t->f.skeleton, t->f.pose, &t->f.root_ms, t->f.model);
    return 1;
}

/* The twins every rig is tried as (k = 0 .. FIXTURE_TWINS - 1): above roots
 * scaled (-1, 1, 1), (-1, -1, -1) (upside down, moved) and (-3, -3, -3)
 * (turned 30 degrees about y), and as the mirrored rig. */
#define FIXTURE_TWINS 4
FIXTURE_MAYBE_UNUSED static int fixture_twin_of(fixture_twin *t, const fixture *f, int k) {
    ik_mat4 map;
    static const char *const names[3] = {"root (-1, 1, 1)", "root (-1, -1, -1)", "root (-3, -3, -3)"};
    int made;
    if (k == 3) return fixture_twin_make(t, f, FIXTURE_TWIN_RIG, NULL);
    if (k == 0)
        map = ik_mat4_from_trs(ik_vec3_zero(), ik_quat_identity(), ik_v3(-1, 1, 1));
    else if (k == 1)
        map = ik_mat4_from_trs(ik_v3(1, 2, -1), ik_quat_identity(), ik_v3(-1, -1, -1));
    else
        map = ik_mat4_from_trs(ik_vec3_zero(), ik_quat_from_axis_angle(ik_v3(0, 1, 0), ik_rad(30)), ik_v3(-3, -3, -3));
    made = fixture_twin_make(t, f, FIXTURE_TWIN_ROOT, &map);
    snprintf(t->label, sizeof t->label, "%s, %s", f->label, names[k]);
    return made;
}

/* A rotation seen through the map as ik_mat4_rotation reads it: with the
 * map's R = ik_mat4_rotation(map), R q for a map that keeps handedness,
 * R D q D = R (q.x, -q.y, -q.z, q.w) for a mirroring one. */
FIXTURE_MAYBE_UNUSED static ik_quat fixture_map_rotation(const ik_mat4 *map, ik_quat q) {
    if (ik_mat4_det3(map) < 0) q = ik_q(q.x, -q.y, -q.z, q.w);
    return ik_quat_normalize(ik_quat_mul(ik_mat4_rotation(map), q));
}

/* A ground seen through a similarity map: a cast is the original's cast
 * along the ray mapped back, its hit mapped forward (distances scale by
 * the map's scale). */
typedef struct fixture_mapped_ground {
    const ik_ground *ground;
    ik_mat4 map, inverse;
} fixture_mapped_ground;

FIXTURE_MAYBE_UNUSED static ik_bool fixture_mapped_cast(void *user, ik_vec3 origin, ik_vec3 direction,
                                                        ik_real max_distance, ik_ground_hit *hit) {
    const fixture_mapped_ground *m = (const fixture_mapped_ground *)user;
    ik_vec3 o = ik_mat4_transform_point(&m->inverse, origin), d = ik_mat4_transform_vector(&m->inverse, direction);
    ik_real k = ik_vec3_length(d);
    ik_ground_hit h;
    if (!(k > 0) || !ik_ground_cast(m->ground, o, ik_vec3_scale(d, 1 / k), max_distance * k, &h)) return 0;
    hit->point_ms = ik_mat4_transform_point(&m->map, h.point_ms);
    hit->normal_ms = ik_vec3_normalize(ik_mat4_transform_vector(&m->map, h.normal_ms));
    hit->distance = h.distance / k;
    return 1;
}

FIXTURE_MAYBE_UNUSED static ik_ground fixture_map_ground(const ik_ground *g, const ik_mat4 *map,
                                                         fixture_mapped_ground *store) {
    store->ground = g;
    store->map = *map;
    if (!ik_mat4_inverse(map, &store->inverse)) store->inverse = ik_mat4_identity();
    return ik_ground_callback(fixture_mapped_cast, store);
}

/* The job seen through the map: targets, poles, the look target and the
 * floor point mapped, rotation goals as fixture_map_rotation; the twin's
 * buffers and root. */
FIXTURE_MAYBE_UNUSED static ik_humanoid_solve fixture_map_job(const ik_humanoid_solve *job, fixture_twin *t,
                                                              const ik_ground *mapped_ground) {
    ik_humanoid_solve m = *job;
    int i;
    m.rig = &t->f.rig;
    m.pose_ls = t->f.pose;
    m.model_ms = t->f.model;
    m.root_ms = &t->f.root_ms;
    m.ground = job->ground ? mapped_ground : NULL;
    for (i = 0; i < IK_LIMB_COUNT; ++i) {
        m.goal[i].position_ms = ik_mat4_transform_point(&t->map, job->goal[i].position_ms);
        m.goal[i].pole_ms = ik_mat4_transform_point(&t->map, job->goal[i].pole_ms);
        m.goal[i].rotation_ms = fixture_map_rotation(&t->map, job->goal[i].rotation_ms);
    }
    m.look_target_ms = ik_mat4_transform_point(&t->map, job->look_target_ms);
    m.floor_ms = ik_mat4_transform_point(&t->map, job->floor_ms);
    return m;
}

/* After solving the original and the twin: the largest distance between a
 * twin joint (of the mirrored subtree for a mirrored rig) and the mapped
 * original one, in the original's leg lengths,
 * and the largest angle (radians) between a limb end's rotation and the
 * mapped original's. */
FIXTURE_MAYBE_UNUSED static ik_real fixture_twin_gap(const fixture *f, const fixture_twin *t, ik_real *turn) {
    ik_real worst = 0, leg = fixture_limb_length(f, IK_LIMB_LEG_L);
    int i;
    *turn = 0;
    for (i = 0; i < f->skeleton->joint_count; ++i)
        if (t->root < 0 || i == t->root || ik_skeleton_is_descendant(f->skeleton, i, t->root))
            worst = ik_maxr(worst, ik_vec3_distance(ik_mat4_transform_point(&t->map, ik_mat4_translation(&f->model[i])),
                                                    ik_mat4_translation(&t->f.model[i])));
    for (i = 0; i < IK_LIMB_COUNT; ++i) {
        int end = f->rig.limb[i].end;
        ik_quat want;
        if (end < 0) continue;
        want = fixture_map_rotation(&t->map, ik_mat4_rotation(&f->model[end]));
        *turn = ik_maxr(*turn, ik_quat_angle(ik_quat_mul(ik_quat_conjugate(want), ik_mat4_rotation(&t->f.model[end]))));
    }
    return worst / leg;
}

/* Runs `check` on the built rig (built = 1), then on each real rig that
 * sets up (built = 0); skips with a message where the corpus is absent. */
FIXTURE_MAYBE_UNUSED static void fixture_each_rig(void (*check)(fixture *f, int built, void *context), void *context) {
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

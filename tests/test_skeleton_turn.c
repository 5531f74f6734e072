/* Model-space turns and rotations written into local poses
 * (ik_skeleton_turn_joint_ms, ik_skeleton_rotation_ms/_ls), checked by
 * forward kinematics on seeded random skeletons whose parents are proper,
 * uniformly scaled or mirrored (one axis or all three negative), under a
 * root transform or none: after a turn q of joint j, M'_j's columns are
 * q's turn of M_j's, j's origin stays, every joint below j is carried by
 * the rigid motion x -> o + q (x - o) about it, and the others do not move. */
#include <ikit/skeleton.h>

#include <stdio.h>
#include <string.h>

#include "support/batch_check.h"
#include "support/check.h"
#include "support/rng.h"

#ifdef IKIT_DOUBLE
#define TOL 1e-9
#else
#define TOL 2e-5f
#endif

#define JOINTS 9

enum { PROPER, UNIFORM, MIRRORED, MODE_COUNT };
static const char *const mode_names[MODE_COUNT] = {"proper parents", "uniformly scaled parents", "mirrored parents"};

/* A joint's scale in `mode`: 1; a uniform s; a uniform s mirrored on one
 * axis or all three in two draws of three (rng_parent_scale), or on two
 * (a half turn, no mirror) in one of four. */
static ik_vec3 random_scale(rng *r, int mode) {
    ik_real s;
    ik_vec3 v;
    if (mode == PROPER) return ik_v3(1, 1, 1);
    v = rng_parent_scale(r, mode == MIRRORED, &s);
    if (mode == MIRRORED && rng_unit(r) < 0.25) v = ik_v3(s, -s, -s);
    return v;
}

/* A random skeleton of JOINTS joints (each parent drawn before it) and a
 * pose in `mode`. */
static void random_rig(rng *r, int mode, int *parents, ik_transform *pose) {
    int i;
    for (i = 0; i < JOINTS; ++i) {
        parents[i] = i == 0 ? -1 : (int)(rng_unit(r) * i);
        pose[i] = ik_transform_make(rng_in_ball(r, 1), rng_rotation(r), random_scale(r, mode));
    }
}

/* |a - b| within TOL of the larger of 1 and |b|. */
static ik_bool close_vec(ik_vec3 a, ik_vec3 b) { return ik_vec3_distance(a, b) <= TOL * ik_maxr(1, ik_vec3_length(b)); }

/* Every column of a's linear part is q's turn of b's. */
static ik_bool columns_turned(const ik_mat4 *a, ik_quat q, const ik_mat4 *b) {
    int i;
    for (i = 0; i < 3; ++i)
        if (!close_vec(ik_mat4_column(a, i), ik_quat_rotate(q, ik_mat4_column(b, i)))) return 0;
    return 1;
}

static ik_bool same_matrix(const ik_mat4 *a, const ik_mat4 *b) { return memcmp(a->m, b->m, sizeof a->m) == 0; }

static void test_turn_random(void) {
    int mode;
    for (mode = 0; mode < MODE_COUNT; ++mode) {
        char names[4][96];
        check_property turned = {names[0], 0, 0}, origin = {names[1], 0, 0}, carried = {names[2], 0, 0},
                       others = {names[3], 0, 0};
        rng r = rng_seeded(0x7e57u + (unsigned)mode);
        int c;
        snprintf(names[0], sizeof names[0], "%s: M' = q M, columns", mode_names[mode]);
        snprintf(names[1], sizeof names[1], "%s: the origin stays, translation and scale kept", mode_names[mode]);
        snprintf(names[2], sizeof names[2], "%s: the subtree carried rigidly", mode_names[mode]);
        snprintf(names[3], sizeof names[3], "%s: the other joints do not move", mode_names[mode]);
        for (c = 0; c < 3000; ++c) {
            int parents[JOINTS], j, k;
            ik_transform pose[JOINTS], before;
            ik_mat4 ms0[JOINTS], ms1[JOINTS], root;
            ik_skeleton s;
            ik_quat q = rng_rotation(&r);
            ik_vec3 o;
            const ik_mat4 *root_ms = NULL;
            ik_bool rigid = 1, still = 1;
            random_rig(&r, mode, parents, pose);
            if (c % 3) {
                root = ik_transform_to_mat4(
                    ik_transform_make(rng_in_ball(&r, 2), rng_rotation(&r), random_scale(&r, mode)));
                root_ms = &root;
            }
            j = (int)(rng_unit(&r) * JOINTS);
            /* the turned joint's own scale may be anything nonzero */
            if (mode != PROPER && c % 2)
                pose[j].scale = ik_vec3_mul(pose[j].scale, ik_v3(rng_range(&r, 0.5, 2), rng_range(&r, 0.5, 2), 1));
            if (ik_skeleton_init(&s, JOINTS, parents, NULL, pose, NULL) != IK_OK) {
                PROPERTY_CASE(turned, 0, "skeleton refused");
                continue;
            }
            ik_skeleton_fk(&s, pose, root_ms, ms0);
            before = pose[j];
            ik_skeleton_turn_joint_ms(&s, j, q, root_ms, pose, ms0);
            ik_skeleton_fk(&s, pose, root_ms, ms1);
            o = ik_mat4_translation(&ms0[j]);
            PROPERTY_CASE(turned, quat_finite_unit(pose[j].rotation) && columns_turned(&ms1[j], q, &ms0[j]),
                          "case %d joint %d", c, j);
            PROPERTY_CASE(origin,
                          close_vec(ik_mat4_translation(&ms1[j]), o) &&
                              memcmp(&before.translation, &pose[j].translation, sizeof before.translation) == 0 &&
                              memcmp(&before.scale, &pose[j].scale, sizeof before.scale) == 0,
                          "case %d joint %d", c, j);
            for (k = 0; k < JOINTS; ++k) {
                if (k != j && ik_skeleton_is_descendant(&s, k, j))
                    rigid = rigid && columns_turned(&ms1[k], q, &ms0[k]) &&
                            close_vec(ik_mat4_translation(&ms1[k]),
                                      ik_vec3_add(o, ik_quat_rotate(q, ik_vec3_sub(ik_mat4_translation(&ms0[k]), o))));
                else if (k != j)
                    still = still && same_matrix(&ms1[k], &ms0[k]);
            }
            PROPERTY_CASE(carried, rigid, "case %d joint %d", c, j);
            PROPERTY_CASE(others, still, "case %d joint %d", c, j);
        }
        property_end(&turned);
        property_end(&origin);
        property_end(&carried);
        property_end(&others);
    }
}

/* ik_skeleton_rotation_ms is what ik_mat4_rotation reads from P L, and
 * ik_skeleton_rotation_ls makes P L read as the rotation asked for, for a
 * parent P = W_p D^e s and local scales of any signs and sizes. */
static void test_rotation_random(void) {
    check_property forward = {"rotation_ms: ik_mat4_rotation(P L)", 0, 0};
    check_property inverse = {"rotation_ls: P L reads as the rotation asked", 0, 0};
    rng r = rng_seeded(0x5ca1eu);
    int c;
    for (c = 0; c < 20000; ++c) {
        ik_bool mirror = c % 2;
        ik_real s = rng_range(&r, 0.5, 2);
        ik_quat wp = rng_rotation(&r), q = rng_rotation(&r), local = rng_rotation(&r);
        ik_vec3 scale = ik_v3(rng_range(&r, 0.5, 2), rng_range(&r, 0.5, 2), rng_range(&r, 0.5, 2));
        ik_mat4 parent = ik_transform_to_mat4(ik_transform_make(rng_in_ball(&r, 1), wp, ik_v3(mirror ? -s : s, s, s)));
        ik_mat4 l, m;
        if (rng_unit(&r) < 0.5) scale.x = -scale.x;
        if (rng_unit(&r) < 0.5) scale.y = -scale.y;
        if (rng_unit(&r) < 0.5) scale.z = -scale.z;
        l = ik_transform_to_mat4(ik_transform_make(rng_in_ball(&r, 1), local, scale));
        m = ik_mat4_mul(&parent, &l);
        PROPERTY_CASE(forward,
                      same_rotation(ik_mat4_rotation(&m), ik_skeleton_rotation_ms(wp, mirror, local, scale), TOL),
                      "case %d, scale (%g %g %g)", c, (double)scale.x, (double)scale.y, (double)scale.z);
        local = ik_quat_normalize(ik_skeleton_rotation_ls(wp, mirror, q, scale));
        l = ik_transform_to_mat4(ik_transform_make(ik_vec3_zero(), local, scale));
        m = ik_mat4_mul(&parent, &l);
        PROPERTY_CASE(inverse, same_rotation(ik_mat4_rotation(&m), q, TOL), "case %d, scale (%g %g %g)", c,
                      (double)scale.x, (double)scale.y, (double)scale.z);
    }
    property_end(&forward);
    property_end(&inverse);
}

/* Named cases: a root with no root_ms (the turn is the local rotation's),
 * the identity turn, a half turn under a mirrored parent, and a singular
 * (zero-scale) parent, which leaves a finite unit rotation. */
static void test_named_cases(void) {
    static const int parents[3] = {-1, 0, 1};
    ik_transform pose[3];
    ik_mat4 ms0[3], ms1[3];
    ik_skeleton s;
    ik_quat half = ik_quat_from_axis_angle(ik_vec3_normalize(ik_v3(1, 2, -1)), ik_rad(180));
    ik_quat before;
    pose[0] = ik_transform_make(ik_v3(0, 1, 0), ik_quat_from_axis_angle(ik_v3(0, 1, 0), ik_rad(30)), ik_v3(-2, 2, 2));
    pose[1] = ik_transform_make(ik_v3(0.5f, 0, 0), ik_quat_from_axis_angle(ik_v3(1, 0, 0), ik_rad(50)), ik_v3(1, 1, 1));
    pose[2] = ik_transform_make(ik_v3(0, 0.5f, 0), ik_quat_identity(), ik_v3(1, 1, 1));
    CHECK(ik_skeleton_init(&s, 3, parents, NULL, pose, NULL) == IK_OK, "named skeleton");

    ik_skeleton_fk(&s, pose, NULL, ms0);
    ik_skeleton_turn_joint_ms(&s, 0, half, NULL, pose, ms0);
    ik_skeleton_fk(&s, pose, NULL, ms1);
    CHECK(
        columns_turned(&ms1[0], half, &ms0[0]) && close_vec(ik_mat4_translation(&ms1[0]), ik_mat4_translation(&ms0[0])),
        "a root without root_ms turns by q");

    ik_skeleton_fk(&s, pose, NULL, ms0);
    before = pose[1].rotation;
    ik_skeleton_turn_joint_ms(&s, 1, ik_quat_identity(), NULL, pose, ms0);
    CHECK(same_rotation(pose[1].rotation, before, TOL), "the identity turn keeps the rotation");

    ik_skeleton_turn_joint_ms(&s, 1, half, NULL, pose, ms0);
    ik_skeleton_fk(&s, pose, NULL, ms1);
    CHECK(ik_mat4_det3(&ms0[0]) < 0 && columns_turned(&ms1[1], half, &ms0[1]) && columns_turned(&ms1[2], half, &ms0[2]),
          "a half turn under a mirrored parent");

    pose[0].scale = ik_vec3_zero();
    ik_skeleton_fk(&s, pose, NULL, ms0);
    ik_skeleton_turn_joint_ms(&s, 1, half, NULL, pose, ms0);
    CHECK(quat_finite_unit(pose[1].rotation), "a singular parent leaves a finite unit rotation");
}

int main(void) {
    test_turn_random();
    test_rotation_random();
    test_named_cases();
    return check_summary("skeleton_turn");
}

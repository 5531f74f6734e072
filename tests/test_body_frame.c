/* The body frame in model space: on the built humanoid and every real rig,
 * under its own root and under a turned, scaled one, up points from the
 * ankles to the hips, the axes are unit and square, and the leg length is
 * the legs' length measured by forward kinematics; bad roots are refused. */
#include <ikit/body_frame.h>
#include <math.h>

#include "test_humanoid_fixture.h"

/* The legs' mean length hip to knee to ankle, measured in `model` (forward
 * kinematics of the rest pose under the root in use). */
static ik_real measured_leg(const fixture *f, const ik_mat4 *model) {
    ik_real sum = 0;
    int limb;
    for (limb = IK_LIMB_LEG_L; limb <= IK_LIMB_LEG_R; ++limb) {
        const ik_humanoid_limb *l = &f->rig.limb[limb];
        ik_vec3 hip = ik_mat4_translation(&model[l->start]), knee = ik_mat4_translation(&model[l->mid]);
        ik_vec3 ankle = l->end >= 0 ? ik_mat4_translation(&model[l->end])
                                    : ik_mat4_transform_point(&model[l->mid], l->end_offset_ls);
        sum += ik_vec3_distance(hip, knee) + ik_vec3_distance(knee, ankle);
    }
    return sum / 2;
}

/* The frame under `root`, checked against the rest pose's geometry. */
static void check_frame(fixture *f, const ik_mat4 *root, const char *how) {
    ik_body_frame b;
    ik_error error;
    ik_vec3 hips = ik_vec3_zero(), ankles = ik_vec3_zero(), rise;
    ik_real leg;
    int limb;
    ik_skeleton_rest_pose(f->skeleton, f->pose);
    ik_skeleton_fk(f->skeleton, f->pose, root, f->model);
    CHECK(ik_body_frame_compute(&f->rig, root, &b, &error) == IK_OK, "%s %s: %s", f->label, how, error.message);
    for (limb = IK_LIMB_LEG_L; limb <= IK_LIMB_LEG_R; ++limb) {
        const ik_humanoid_limb *l = &f->rig.limb[limb];
        hips = ik_vec3_add(hips, ik_mat4_translation(&f->model[l->start]));
        ankles = ik_vec3_add(ankles, l->end >= 0 ? ik_mat4_translation(&f->model[l->end])
                                                 : ik_mat4_transform_point(&f->model[l->mid], l->end_offset_ls));
    }
    rise = ik_vec3_sub(hips, ankles);
    leg = measured_leg(f, f->model);
    CHECK(IK_FABS(ik_vec3_length(b.up_ms) - 1) < 1e-4 && IK_FABS(ik_vec3_length(b.forward_ms) - 1) < 1e-4 &&
              IK_FABS(ik_vec3_length(b.left_ms) - 1) < 1e-4,
          "%s %s: unit axes", f->label, how);
    CHECK(IK_FABS(ik_vec3_dot(b.up_ms, b.forward_ms)) < 1e-3 && IK_FABS(ik_vec3_dot(b.up_ms, b.left_ms)) < 1e-3,
          "%s %s: up square to forward and left", f->label, how);
    CHECK(ik_vec3_dot(rise, b.up_ms) > (ik_real)0.7 * ik_vec3_length(rise),
          "%s %s: up (%g %g %g) does not point from the ankles to the hips", f->label, how, (double)b.up_ms.x,
          (double)b.up_ms.y, (double)b.up_ms.z);
    CHECK(IK_FABS(b.leg_length - leg) <= (ik_real)1e-3 * leg, "%s %s: leg length %g, measured %g", f->label, how,
          (double)b.leg_length, (double)leg);
}

static void check_rig(fixture *f) {
    /* a Z-up turn (+y to +z) and a scale of 100 above the rig's own root */
    ik_mat4 turned =
        ik_mat4_from_trs(ik_v3(3, -2, 5), ik_quat_from_axis_angle(ik_v3(1, 0, 0), IK_PI / 2), ik_v3(100, 100, 100));
    ik_mat4 root = ik_mat4_mul(&turned, &f->root_ms);
    ik_body_frame own, moved;
    check_frame(f, &f->root_ms, "own root");
    check_frame(f, &root, "turned and scaled root");
    ik_body_frame_compute(&f->rig, &f->root_ms, &own, NULL);
    ik_body_frame_compute(&f->rig, &root, &moved, NULL);
    CHECK(ik_vec3_distance(moved.up_ms, ik_mat4_transform_vector(&turned, ik_vec3_scale(own.up_ms, (ik_real)0.01))) <
              1e-4,
          "%s: up turns with the root", f->label);
    CHECK(IK_FABS(moved.leg_length - 100 * own.leg_length) <= (ik_real)1e-4 * moved.leg_length,
          "%s: leg length scales with the root", f->label);
}

/* check_rig on the built humanoid, then on each shared rig that sets up
 * (fixture_each_rig); `built` counts the built humanoid's runs. */
static void each_rig(fixture *f, int built, void *built_runs) {
    *(int *)built_runs += built;
    check_rig(f);
}

static void test_rigs(void) {
    int built_runs = 0;
    fixture_each_rig(each_rig, &built_runs);
    CHECK(built_runs == 1, "built humanoid");
}

static void test_bad_input(void) {
    fixture f;
    ik_body_frame b, untouched;
    ik_error error;
    ik_mat4 root = ik_mat4_identity(), flat = ik_mat4_from_trs(ik_vec3_zero(), ik_quat_identity(), ik_v3(1, 0, 1));
    CHECK(fixture_built(&f), "built humanoid");
    memset(&untouched, 0x5a, sizeof untouched);
    b = untouched;
    root.m[5] = (ik_real)NAN;
    CHECK(ik_body_frame_compute(&f.rig, &root, &b, &error) == IK_ERR_NONFINITE && strstr(error.message, "NaN"),
          "NaN root: %s", error.message);
    root.m[5] = (ik_real)INFINITY;
    CHECK(ik_body_frame_compute(&f.rig, &root, &b, &error) == IK_ERR_NONFINITE, "infinite root");
    CHECK(ik_body_frame_compute(&f.rig, &flat, &b, &error) == IK_ERR_DEGENERATE && error.message[0],
          "a root flattening up: %s", error.message);
    CHECK(memcmp(&b, &untouched, sizeof b) == 0, "output untouched on errors");
    CHECK(ik_body_frame_compute(NULL, NULL, &b, &error) == IK_ERR_NULL && strstr(error.message, "rig"), "NULL rig: %s",
          error.message);
    CHECK(ik_body_frame_compute(&f.rig, NULL, NULL, NULL) == IK_ERR_NULL, "NULL output");
    CHECK(ik_body_frame_compute(&f.rig, NULL, &b, &error) == IK_OK && error.message[0] == '\0',
          "NULL root is the identity");
    fixture_free(&f);
}

int main(void) {
    test_rigs();
    test_bad_input();
    return check_summary("body_frame");
}

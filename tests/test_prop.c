/* Props: grips map back exactly; two hands on a staff turned through 360
 * degrees over 10,000 frames stay on it, with no drift at the end, on the
 * built humanoid and every real rig, also under mirroring roots and as
 * mirrored rigs. */
#include <ikit/humanoid.h>
#include <ikit/prop.h>
#include <math.h>

#include "support/check.h"
#include "test_humanoid_fixture.h"

static void test_grip(void) {
    ik_transform prop = ik_transform_make(
        ik_v3(1, 2, 3), ik_quat_normalize(ik_q((ik_real)0.2, (ik_real)0.5, -(ik_real)0.1, 1)), ik_v3(2, 2, 2));
    ik_prop_grip grip;
    ik_vec3 p;
    ik_quat q, hand = ik_quat_normalize(ik_q(0, 1, 0, 1));
    CHECK(ik_prop_grip_make(prop, ik_v3(4, 5, 6), hand, &grip) == IK_OK, "make");
    CHECK(ik_prop_grip_target(&grip, prop, &p, &q) == IK_OK && ik_vec3_distance(p, ik_v3(4, 5, 6)) < 1e-5 &&
              ik_quat_angle(ik_quat_mul(ik_quat_conjugate(q), hand)) < 1e-4,
          "round trip");
    CHECK(ik_prop_grip_make(prop, ik_v3(NAN, 0, 0), hand, &grip) == IK_ERR_NONFINITE, "nan");
    prop.scale.x = 0;
    CHECK(ik_prop_grip_make(prop, ik_v3(0, 0, 0), hand, &grip) == IK_ERR_DEGENERATE, "zero scale");
    CHECK(ik_prop_grip_make(prop, ik_v3(0, 0, 0), hand, NULL) == IK_ERR_NULL &&
              ik_prop_grip_target(NULL, prop, &p, &q) == IK_ERR_NULL,
          "null");
}

/* The staff: in front of the chest, across the body; both hands take hold
 * at rest-relative points, then the staff turns about the forward axis one
 * full turn over 10,000 frames, solved each frame from the last pose. */
static void staff(fixture *f) {
    ik_vec3 fwd = fixture_forward(f), up = fixture_up(f), left = fixture_left(f);
    ik_vec3 sl = fixture_pos(f, f->rig.limb[IK_LIMB_ARM_L].start),
            sr = fixture_pos(f, f->rig.limb[IK_LIMB_ARM_R].start);
    ik_real arm = fixture_limb_length(f, IK_LIMB_ARM_L);
    ik_vec3 center = ik_vec3_mad(ik_vec3_mad(ik_vec3_scale(ik_vec3_add(sl, sr), (ik_real)0.5), fwd, (ik_real)0.6 * arm),
                                 up, (ik_real)-0.25 * arm);
    ik_transform prop0 = ik_transform_make(center, ik_quat_identity(), ik_v3(1, 1, 1)), prop;
    ik_prop_grip grip[2];
    ik_vec3 first[2];
    check_property on = {"hands on the staff", 0, 0};
    int frame, side;
    const int frames = 10000;
    fixture_reset(f);
    for (side = 0; side < 2; ++side) {
        ik_vec3 at = ik_vec3_mad(center, left, (side == 0 ? 1 : -1) * (ik_real)0.18 * arm);
        ik_quat rot =
            ik_mat4_rotation(&f->model[f->rig.limb[side].end >= 0 ? f->rig.limb[side].end : f->rig.limb[side].mid]);
        CHECK(ik_prop_grip_make(prop0, at, rot, &grip[side]) == IK_OK, "grip");
    }
    for (frame = 0; frame <= frames; ++frame) {
        ik_humanoid_solve job = ik_humanoid_solve_def();
        ik_real angle = 2 * IK_PI * (ik_real)frame / frames;
        prop = prop0;
        prop.rotation = ik_quat_from_axis_angle(fwd, angle);
        fixture_bind_job(f, &job);
        for (side = 0; side < 2; ++side) {
            job.goal[side].enabled = 1;
            job.goal[side].use_rotation = f->rig.limb[side].end >= 0;
            ik_prop_grip_target(&grip[side], prop, &job.goal[side].position_ms, &job.goal[side].rotation_ms);
        }
        if (ik_humanoid_solve_run(&job) != IK_OK) {
            PROPERTY_CASE(on, 0, "%s frame %d: solve", f->label, frame);
            continue;
        }
        for (side = 0; side < 2; ++side) {
            ik_vec3 hand = fixture_end(f, side);
            ik_real err = ik_vec3_distance(hand, job.goal[side].position_ms);
            PROPERTY_CASE(on, err <= 1e-3 * arm, "%s frame %d hand %d: off by %g of %g", f->label, frame, side,
                          (double)err, (double)arm);
            if (f->rig.limb[side].end >= 0) {
                ik_real turn = ik_quat_angle(ik_quat_mul(
                    ik_quat_conjugate(ik_mat4_rotation(&f->model[f->rig.limb[side].end])), job.goal[side].rotation_ms));
                PROPERTY_CASE(on, turn < ik_rad((ik_real)0.1), "%s frame %d hand %d: turned %g deg off", f->label,
                              frame, side, (double)ik_deg(turn));
            }
            if (frame == 0) first[side] = hand;
            if (frame == frames)
                CHECK(ik_vec3_distance(hand, first[side]) <= 1e-3 * arm, "%s hand %d drifted %g after %d frames",
                      f->label, side, (double)ik_vec3_distance(hand, first[side]), frames);
        }
    }
    property_end(&on);
}

/* Each rig, then its mirrored twins (fixture_twin_of: mirroring roots and
 * the mirrored rig), whose hands must follow the staff the same way in
 * their own model space (rotations as ik_mat4_rotation reads a mirrored
 * hand). */
static void staff_rig(fixture *f, int built, void *context) {
    fixture_twin twin;
    int k;
    (void)built;
    (void)context;
    staff(f);
    for (k = 0; k < FIXTURE_TWINS; ++k) {
        if (fixture_twin_of(&twin, f, k))
            staff(&twin.f);
        else
            CHECK(0, "%s: twin %d made", f->label, k);
        fixture_twin_free(&twin);
    }
}

static void test_staff(void) { fixture_each_rig(staff_rig, NULL); }

int main(void) {
    test_grip();
    test_staff();
    return check_summary("test_prop");
}

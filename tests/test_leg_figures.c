/* The leg figures of a take (leg_figures.h, ik_leg_figures_measure) on the
 * built humanoid, frame by frame made to show one thing each: a knee bent
 * the wrong way, soles under the floor, an ankle past its limit in the air
 * and on the ground; then bad input. */
#include <ikit/leg_figures.h>
#include <math.h>

#include "test_humanoid_fixture.h"

enum { FRAMES = 5 };

static void test_figures(void) {
    fixture f;
    ik_take take;
    ik_transform *poses;
    ik_mat4 *model, *rest;
    ik_foot_contact held;
    ik_leg_figures m, plain;
    const ik_humanoid_limb *leg;
    int n, k, hips;
    CHECK(fixture_built(&f), "built humanoid");
    n = f.skeleton->joint_count;
    leg = &f.rig.limb[IK_LIMB_LEG_L];
    hips = f.rig.map.joint[IK_ROLE_HIPS];
    poses = (ik_transform *)malloc(sizeof(ik_transform) * (size_t)n * FRAMES);
    model = (ik_mat4 *)malloc(sizeof(ik_mat4) * (size_t)n);
    rest = (ik_mat4 *)malloc(sizeof(ik_mat4) * (size_t)n);
    for (k = 0; k < FRAMES; ++k) ik_skeleton_rest_pose(f.skeleton, poses + (size_t)k * (size_t)n);
    take.frame_count = FRAMES, take.joint_count = n, take.frame_time = (ik_real)(1.0 / 30), take.poses_ls = poses;
    /* 1: the left knee bent 20 degrees the wrong way about its hinge */
    poses[(size_t)n + (size_t)leg->mid].rotation = ik_quat_mul(
        poses[(size_t)n + (size_t)leg->mid].rotation, ik_quat_from_axis_angle(leg->hinge_axis_ls, -ik_rad(20)));
    /* 2: the whole body 5 cm down: the soles 5 cm under the rest floor */
    poses[2 * (size_t)n + (size_t)hips].translation =
        ik_vec3_mad(poses[2 * (size_t)n + (size_t)hips].translation, f.rig.up_rs, (ik_real)-0.05);
    /* 3 and 4: the left foot turned 80 degrees about the knee's hinge (past
     * the ankle's 50 degrees either way), the body 40 cm up: in the air in
     * frame 3, held by a contact in frame 4 */
    for (k = 3; k < 5; ++k) {
        ik_transform *p = poses + (size_t)k * (size_t)n;
        int foot = ik_humanoid_limb_foot(leg);
        p[foot].rotation = ik_quat_mul(p[foot].rotation, ik_quat_from_axis_angle(leg->hinge_axis_ls, ik_rad(80)));
        p[hips].translation = ik_vec3_mad(p[hips].translation, f.rig.up_rs, (ik_real)0.4);
    }
    memset(&held, 0, sizeof held);
    held.point = IK_FOOT_HEEL_L, held.start = 4, held.end = 4;
    CHECK(ik_leg_figures_measure(&f.rig, &take, &held, 1, (ik_real)0.01, model, rest, &m) == IK_OK, "measure");
    CHECK(m.knee_flips == 1, "one frame with a knee flipped, not %d", m.knee_flips);
    CHECK(IK_FABS(m.sink - (ik_real)0.05) < 1e-4, "the soles 5 cm under the floor: %g", (double)m.sink);
    CHECK(m.beyond > ik_rad(20) && m.beyond_grounded > ik_rad(20),
          "the ankle past its limit in the air (%g deg) and "
          "held (%g deg)",
          (double)ik_deg(m.beyond), (double)ik_deg(m.beyond_grounded));
    CHECK(IK_FABS(m.beyond - m.beyond_grounded) < 1e-4, "the same turn, in the air and held");
    CHECK(m.beyond_joint && m.beyond_frame == 3, "the worst named at frame 3: %s, frame %d",
          m.beyond_joint ? m.beyond_joint : "(none)", m.beyond_frame);
    /* without the contact, frame 4's foot is in the air too */
    CHECK(ik_leg_figures_measure(&f.rig, &take, NULL, 0, (ik_real)0.01, model, rest, &plain) == IK_OK &&
              plain.beyond_grounded < ik_rad(1) && IK_FABS(plain.beyond - m.beyond) < 1e-4,
          "no contact: nothing grounded beyond (%g deg)", (double)ik_deg(plain.beyond_grounded));
    /* bad input */
    held.point = IK_FOOT_HIPS;
    CHECK(ik_leg_figures_measure(&f.rig, &take, &held, 1, (ik_real)0.01, model, rest, &m) == IK_ERR_RANGE,
          "a contact of the hips");
    CHECK(ik_leg_figures_measure(&f.rig, &take, NULL, 0, (ik_real)NAN, model, rest, &m) == IK_ERR_NONFINITE,
          "NaN grounded depth");
    take.joint_count = n - 1;
    CHECK(ik_leg_figures_measure(&f.rig, &take, NULL, 0, (ik_real)0.01, model, rest, &m) == IK_ERR_RANGE,
          "a take of another skeleton");
    CHECK(ik_leg_figures_measure(NULL, &take, NULL, 0, (ik_real)0.01, model, rest, &m) == IK_ERR_NULL, "no rig");
    free(poses);
    free(model);
    free(rest);
    fixture_free(&f);
}

int main(void) {
    test_figures();
    return check_summary("leg_figures");
}

/* The demo's procedural humanoid and its joint limits (demo_figure.h). */
#include <ikit/math.h>

#include "demo_figure.h"
#include "mesh_view.h"

/* The direction of joint j's bone in its own frame: toward its first child
 * (parents-first order), or along its own offset when it has none. */
static ik_vec3 bone_direction(const ikc_figure *f, int j) {
    int c;
    for (c = j + 1; c < f->skeleton.joint_count; ++c)
        if (f->parents[c] == j) return ik_vec3_normalize(f->rest_ls[c].translation);
    return ik_vec3_normalize(f->rest_ls[j].translation);
}

static void cone(ikc_figure *f, ik_humanoid_role role, ik_real cone_deg, ik_real twist_deg) {
    int j = ikc_figure_joint(f, role);
    if (j < 0) return;
    f->limits[j] = ik_constraint_cone_twist(ik_quat_identity(), bone_direction(f, j), ik_rad(cone_deg),
                                            ik_rad(-twist_deg), ik_rad(twist_deg));
}

/* The arm's limits. The upper arm's cone is centred on the arm held out
 * sideways (reference: the turn from its hanging rest direction to
 * `outward`), so it reaches from hanging to overhead. The elbow bends about
 * the rig's hinge from straight (its rest bend subtracted) to the maximum. */
static void arm_limits(ikc_figure *f, int side, ik_vec3 outward) {
    const ik_humanoid_limb *arm = &f->rig.limb[side ? IK_LIMB_ARM_R : IK_LIMB_ARM_L];
    ik_vec3 upper = bone_direction(f, arm->start), lower = bone_direction(f, arm->mid);
    ik_real rest_bend = ik_acos_safe(ik_vec3_dot(upper, lower));
    cone(f, side ? IK_ROLE_CLAVICLE_R : IK_ROLE_CLAVICLE_L, 20, 10);
    f->limits[arm->start] =
        ik_constraint_cone_twist(ik_quat_from_to(upper, outward), upper, ik_rad(85), ik_rad(-70), ik_rad(70));
    f->limits[arm->mid] = ik_constraint_hinge(ik_quat_identity(), arm->hinge_axis_ls, -rest_bend,
                                              ik_rad(IKC_FIGURE_ELBOW_MAX_DEG) - rest_bend);
    cone(f, side ? IK_ROLE_HAND_R : IK_ROLE_HAND_L, 60, 80);
}

static void leg_limits(ikc_figure *f, int side) {
    const ik_humanoid_limb *leg = &f->rig.limb[side ? IK_LIMB_LEG_R : IK_LIMB_LEG_L];
    cone(f, side ? IK_ROLE_THIGH_R : IK_ROLE_THIGH_L, 90, 40);
    f->limits[leg->mid] =
        ik_constraint_hinge(ik_quat_identity(), leg->hinge_axis_ls, 0, ik_rad(IKC_FIGURE_KNEE_MAX_DEG));
    cone(f, side ? IK_ROLE_FOOT_R : IK_ROLE_FOOT_L, 35, 20);
    if (leg->toe >= 0)
        f->limits[leg->toe] = ik_constraint_hinge(ik_quat_identity(), ik_v3(1, 0, 0), ik_rad(-40), ik_rad(20));
}

int ikc_figure_init(ikc_figure *f) {
    int n = ik_humanoid_build_skeleton(IKC_FIGURE_HEIGHT, IKC_FIGURE_JOINTS, f->parents, f->names, f->rest_ls), j;
    if (!(n == IKC_FIGURE_JOINTS &&
          ik_skeleton_init(&f->skeleton, n, f->parents, f->names, f->rest_ls, NULL) == IK_OK &&
          ik_humanoid_map_find(&f->skeleton, NULL, 0, &f->map) == IK_OK &&
          ik_humanoid_init(&f->rig, &f->skeleton, &f->map) == IK_OK))
        return 0;
    for (j = 0; j < n; ++j) f->limits[j] = ik_constraint_none();
    cone(f, IK_ROLE_SPINE, 25, 20);
    cone(f, IK_ROLE_CHEST, 20, 20);
    cone(f, IK_ROLE_NECK, 35, 40);
    cone(f, IK_ROLE_HEAD, 45, 60);
    arm_limits(f, 0, ik_v3(1, 0, 0));
    arm_limits(f, 1, ik_v3(-1, 0, 0));
    leg_limits(f, 0);
    leg_limits(f, 1);
    return 1;
}

int ikc_figure_body(const ikc_figure *f, ikc_mesh *body) {
    static const float clay[3] = {0.78f, 0.72f, 0.64f};
    ik_real radius[IKC_FIGURE_JOINTS], leaf[IKC_FIGURE_JOINTS];
    ik_mat4 rest_ms[IKC_FIGURE_JOINTS];
    if (ik_humanoid_build_body(IKC_FIGURE_HEIGHT, IKC_FIGURE_JOINTS, radius, leaf) != IKC_FIGURE_JOINTS) return 0;
    ik_skeleton_fk(&f->skeleton, f->rest_ls, NULL, rest_ms);
    return ikc_mesh_from_bones(&f->skeleton, rest_ms, radius, leaf, clay, body);
}

int ikc_figure_joint(const ikc_figure *f, ik_humanoid_role role) { return f->map.joint[role]; }

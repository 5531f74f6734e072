/* A chain file's joints as constraints, Jacobian joints and springs. */
#include <ikit/chain_file_solve.h>

/* A chain file's limits are degrees about the rest pose (identity rotations):
 * a hinge about its axis, a ball as a cone about its twist axis with the
 * twist range; fixed joints are hinges locked at 0. */
ik_constraint ik_chain_file_constraint(const ik_chain_file *chain, int joint) {
    const ik_chain_joint *j = &chain->joints[joint];
    switch (j->type) {
        case IK_CHAIN_HINGE:
            return ik_constraint_hinge(ik_quat_identity(), j->axis_ls, ik_rad(j->limit_min_deg),
                                       ik_rad(j->limit_max_deg));
        case IK_CHAIN_BALL:
            return ik_constraint_cone_twist(ik_quat_identity(), j->axis_ls, ik_rad(j->cone_deg),
                                            ik_rad(j->limit_min_deg), ik_rad(j->limit_max_deg));
        default:
            return ik_constraint_hinge(ik_quat_identity(), ik_v3(1, 0, 0), 0, 0);
    }
}

void ik_chain_file_constraints(const ik_chain_file *chain, ik_constraint *constraints) {
    int i;
    for (i = 0; i < chain->joint_count; ++i) constraints[i] = ik_chain_file_constraint(chain, i);
}

int ik_chain_file_jacobian_joints(const ik_chain_file *chain, const int *joints, int count, ik_jacobian_joint *out,
                                  ik_constraint *limits, ik_spring *springs) {
    int k, written = 0, axes = 0, a;
    for (k = 0; k < count; ++k) {
        int index = joints[k];
        const ik_chain_joint *j;
        if (index < 0 || index >= chain->joint_count) continue;
        j = &chain->joints[index];
        if (j->type == IK_CHAIN_FIXED) continue;
        out[written] = j->type == IK_CHAIN_HINGE ? ik_jacobian_hinge(index, j->axis_ls) : ik_jacobian_ball(index);
        if (limits) limits[written] = ik_chain_file_constraint(chain, index);
        if (springs && j->type == IK_CHAIN_HINGE)
            springs[axes] = ik_spring_comfort(ik_rad(j->comfort_min_deg), ik_rad(j->comfort_max_deg),
                                              ik_rad(j->limit_min_deg), ik_rad(j->limit_max_deg), j->stiffness);
        else if (springs)
            for (a = 0; a < out[written].axis_count; ++a) springs[axes + a] = ik_spring_make();
        axes += out[written].axis_count;
        ++written;
    }
    return written;
}

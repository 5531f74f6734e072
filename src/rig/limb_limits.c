/* A rig's limb limits as constraints for chain solvers (see limb_limits.h). */
#include <ikit/limb_limits.h>

#include <stddef.h>

/* The rest bend of the elbow or knee, positive about the hinge: the signed
 * angle about hinge_axis_ls from the upper bone's direction to the lower
 * bone's, both in the middle joint's rest frame (the upper bone's is its own
 * rest translation turned back by its rest rotation). */
static ik_real rest_bend(const ik_skeleton *skeleton, const ik_humanoid_limb *l) {
    const ik_transform *mid = &skeleton->rest_ls[l->mid];
    ik_vec3 upper = ik_quat_rotate(ik_quat_conjugate(mid->rotation), mid->translation);
    ik_vec3 lower = skeleton->rest_ls[l->end].translation;
    return IK_ATAN2(ik_vec3_dot(ik_vec3_cross(upper, lower), l->hinge_axis_ls), ik_vec3_dot(upper, lower));
}

ik_result ik_limb_limits_make(const ik_humanoid *rig, int limb, ik_real cone, ik_real twist, ik_constraint out[3],
                              ik_error *error) {
    const ik_skeleton *skeleton;
    const ik_humanoid_limb *l;
    ik_bool arm;
    ik_real lo, hi, bend;
    ik_error_clear(error);
    if (!rig || !rig->skeleton || !out) {
        ik_error_set(error, 0, 0, -1, "%s is NULL", !out ? "the output" : "the rig");
        return IK_ERR_NULL;
    }
    if (limb < 0 || limb >= IK_LIMB_COUNT) {
        ik_error_set(error, 0, 0, -1, "limb %d; limbs are 0 to %d", limb, IK_LIMB_COUNT - 1);
        return IK_ERR_RANGE;
    }
    if (!ik_finite(cone) || !ik_finite(twist)) {
        ik_error_set(error, 0, 0, -1, "the cone or twist holds NaN or an infinite value");
        return IK_ERR_NONFINITE;
    }
    if (!(cone > 0) || cone > IK_PI || twist < 0 || twist > IK_PI) {
        ik_error_set(error, 0, 0, -1, "a cone in (0, pi] and a twist in [0, pi], not %g and %g", (double)cone,
                     (double)twist);
        return IK_ERR_RANGE;
    }
    skeleton = rig->skeleton;
    l = &rig->limb[limb];
    if (l->end < 0) {
        ik_error_set(error, 0, 0, -1, "limb %d ends in a virtual joint: no end joint for a chain solver", limb);
        return IK_ERR_UNSUPPORTED;
    }
    arm = limb == IK_LIMB_ARM_L || limb == IK_LIMB_ARM_R;
    lo = arm ? rig->limits.elbow_min : rig->limits.knee_min;
    hi = arm ? rig->limits.elbow_max : rig->limits.knee_max;
    bend = rest_bend(skeleton, l);
    out[0] = ik_constraint_cone_twist(skeleton->rest_ls[l->start].rotation, skeleton->rest_ls[l->mid].translation, cone,
                                      -twist, twist);
    out[1] = ik_constraint_hinge(skeleton->rest_ls[l->mid].rotation, l->hinge_axis_ls, lo - bend, hi - bend);
    out[2] = ik_constraint_none();
    return IK_OK;
}

/* A humanoid rig's axes and leg length in model space (see body_frame.h). */
#include <ikit/body_frame.h>

#include <stddef.h>

/* An axis of root space in model space: M a / |M a|, M the 3x3 part of
 * root_ms (a direction, so the translation is left out). */
static ik_bool model_axis(const ik_mat4 *root_ms, ik_vec3 axis_rs, ik_vec3 *out) {
    ik_vec3 v = ik_mat4_transform_vector(root_ms, axis_rs);
    if (!(ik_vec3_length_sq(v) > 0)) return 0;
    *out = ik_vec3_normalize(v);
    return 1;
}

ik_result ik_body_frame_compute(const ik_humanoid *rig, const ik_mat4 *root_ms, ik_body_frame *out, ik_error *error) {
    const ik_humanoid_limb *l, *r;
    ik_mat4 root = root_ms ? *root_ms : ik_mat4_identity();
    ik_body_frame f;
    ik_error_clear(error);
    if (!rig || !out) {
        ik_error_set(error, 0, 0, -1, "%s is NULL", !rig ? "the rig" : "the output");
        return IK_ERR_NULL;
    }
    if (!ik_mat4_finite(&root)) {
        ik_error_set(error, 0, 0, -1, "root_ms holds NaN or an infinite value");
        return IK_ERR_NONFINITE;
    }
    if (!model_axis(&root, rig->up_rs, &f.up_ms) || !model_axis(&root, rig->forward_rs, &f.forward_ms) ||
        !model_axis(&root, rig->left_rs, &f.left_ms)) {
        ik_error_set(error, 0, 0, -1, "root_ms flattens one of the rig's axes to zero length");
        return IK_ERR_DEGENERATE;
    }
    /* The legs' mean length (ik_foot_leg_length's), in model units: the
     * root's scale is read off its second column, the rest up axis. */
    l = &rig->limb[IK_LIMB_LEG_L];
    r = &rig->limb[IK_LIMB_LEG_R];
    f.leg_length = (l->upper_length + l->lower_length + r->upper_length + r->lower_length) * (ik_real)0.5 *
                   ik_vec3_length(ik_mat4_column(&root, 1));
    if (!ik_finite(f.leg_length)) {
        ik_error_set(error, 0, 0, -1, "the rig's leg bones are not finite");
        return IK_ERR_NONFINITE;
    }
    *out = f;
    return IK_OK;
}

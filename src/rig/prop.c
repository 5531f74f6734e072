/* Grips on props: the effector's pose stored once in the prop's frame and
 * mapped back every frame (seed 001's "Hands or Feet"). */
#include <ikit/prop.h>

#include <stddef.h>

/* position_ps = S^-1 R^-1 (p - T); rotation_ps = R^-1 q (R unit). */
ik_result ik_prop_grip_make(ik_transform prop_ms, ik_vec3 position_ms, ik_quat rotation_ms, ik_prop_grip *grip) {
    ik_quat r;
    ik_vec3 local;
    if (!grip) return IK_ERR_NULL;
    if (!ik_transform_finite(prop_ms) || !ik_vec3_finite(position_ms) || !ik_quat_finite(rotation_ms))
        return IK_ERR_NONFINITE;
    if (prop_ms.scale.x == 0 || prop_ms.scale.y == 0 || prop_ms.scale.z == 0 ||
        !(ik_quat_dot(prop_ms.rotation, prop_ms.rotation) > 0) || !(ik_quat_dot(rotation_ms, rotation_ms) > 0))
        return IK_ERR_DEGENERATE;
    r = ik_quat_normalize(prop_ms.rotation);
    local = ik_quat_rotate(ik_quat_conjugate(r), ik_vec3_sub(position_ms, prop_ms.translation));
    grip->position_ps = ik_v3(local.x / prop_ms.scale.x, local.y / prop_ms.scale.y, local.z / prop_ms.scale.z);
    grip->rotation_ps = ik_quat_normalize(ik_quat_mul(ik_quat_conjugate(r), ik_quat_normalize(rotation_ms)));
    return IK_OK;
}

ik_result ik_prop_grip_target(const ik_prop_grip *grip, ik_transform prop_ms, ik_vec3 *position_ms,
                              ik_quat *rotation_ms) {
    ik_quat r;
    if (!grip) return IK_ERR_NULL;
    if (!ik_transform_finite(prop_ms) || !ik_vec3_finite(grip->position_ps) || !ik_quat_finite(grip->rotation_ps))
        return IK_ERR_NONFINITE;
    r = ik_quat_normalize(prop_ms.rotation);
    if (position_ms)
        *position_ms = ik_transform_point(ik_transform_make(prop_ms.translation, r, prop_ms.scale), grip->position_ps);
    if (rotation_ms) *rotation_ms = ik_quat_normalize(ik_quat_mul(r, grip->rotation_ps));
    return IK_OK;
}

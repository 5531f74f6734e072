/* vec3 helpers too large to inline. */
#include <ikit/math.h>

/* Cross n with the coordinate axis it is least aligned with, so the result
 * never shrinks below |n| / sqrt(3) before normalising. */
ik_vec3 ik_vec3_any_perpendicular(ik_vec3 n) {
    ik_real ax = IK_FABS(n.x), ay = IK_FABS(n.y), az = IK_FABS(n.z);
    ik_vec3 other;
    if (ax <= ay && ax <= az)
        other = ik_v3(1, 0, 0);
    else if (ay <= az)
        other = ik_v3(0, 1, 0);
    else
        other = ik_v3(0, 0, 1);
    return ik_vec3_normalize_or(ik_vec3_cross(n, other), ik_v3(0, 1, 0));
}

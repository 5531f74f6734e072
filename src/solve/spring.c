/* Springs and comfort ranges on single rotational degrees of freedom (seed 002). */
#include <ikit/spring.h>

/* The growth 1 / (1 - |d| / room) is capped here so that a joint pushed to
 * its hard limit gets a large but finite pull. */
#define SPRING_MAX_GROWTH ((ik_real)50)

ik_spring ik_spring_make(void) {
    ik_spring s;
    s.stiffness = 0;
    s.comfort_min = 0;
    s.comfort_max = 0;
    s.limit_min = -IK_PI;
    s.limit_max = IK_PI;
    return s;
}

ik_spring ik_spring_toward(ik_real rest, ik_real stiffness) {
    ik_spring s = ik_spring_make();
    s.stiffness = stiffness;
    s.comfort_min = rest;
    s.comfort_max = rest;
    return s;
}

ik_spring ik_spring_comfort(ik_real comfort_min, ik_real comfort_max, ik_real limit_min, ik_real limit_max,
                            ik_real stiffness) {
    ik_spring s;
    s.stiffness = stiffness;
    s.comfort_min = comfort_min;
    s.comfort_max = comfort_max;
    s.limit_min = limit_min;
    s.limit_max = limit_max;
    return s;
}

ik_result ik_spring_validate(const ik_spring *spring) {
    if (!spring) return IK_ERR_NULL;
    if (!ik_finite(spring->stiffness) || !ik_finite(spring->comfort_min) || !ik_finite(spring->comfort_max) ||
        !ik_finite(spring->limit_min) || !ik_finite(spring->limit_max))
        return IK_ERR_NONFINITE;
    if (!(spring->stiffness >= 0) || !(spring->limit_min <= spring->comfort_min) ||
        !(spring->comfort_min <= spring->comfort_max) || !(spring->comfort_max <= spring->limit_max))
        return IK_ERR_RANGE;
    return IK_OK;
}

/* Seed 002: no spring inside the comfortable range; outside it the joint
 * "fights back more and more until it reaches its limit". */
ik_real ik_spring_step(const ik_spring *spring, ik_real angle) {
    ik_real excess, room, growth, pull;
    if (angle > spring->comfort_max) {
        excess = angle - spring->comfort_max;
        room = spring->limit_max - spring->comfort_max;
    } else if (angle < spring->comfort_min) {
        excess = spring->comfort_min - angle;
        room = spring->comfort_min - spring->limit_min;
    } else {
        return 0;
    }
    growth = excess < room ? 1 / (1 - excess / room) : SPRING_MAX_GROWTH;
    pull = ik_minr(excess, spring->stiffness * excess * ik_minr(growth, SPRING_MAX_GROWTH));
    return angle > spring->comfort_max ? -pull : pull;
}

/* The rotation vector of r = rest^-1 pose is axis * angle with the angle in
 * [0, pi] (taking w >= 0); its component along the DOF axis is the angle. */
ik_real ik_spring_angle(ik_quat rest_ls, ik_quat pose_ls, ik_vec3 axis_ls) {
    ik_quat relative = ik_quat_positive_w(ik_quat_mul(ik_quat_conjugate(rest_ls), pose_ls));
    ik_vec3 rotation_axis;
    ik_real rotation_angle;
    ik_quat_to_axis_angle(ik_quat_normalize(relative), &rotation_axis, &rotation_angle);
    return ik_vec3_dot(rotation_axis, axis_ls) * rotation_angle;
}

ik_quat ik_spring_clamp(const ik_spring *spring, ik_quat rest_ls, ik_quat pose_ls, ik_vec3 axis_ls) {
    ik_real angle = ik_spring_angle(rest_ls, pose_ls, axis_ls);
    ik_real clamped = ik_clampr(angle, spring->limit_min, spring->limit_max);
    if (clamped == angle) return pose_ls;
    return ik_quat_normalize(ik_quat_mul(pose_ls, ik_quat_from_axis_angle(axis_ls, clamped - angle)));
}

void ik_spring_taper(ik_spring *springs, int count, ik_real root_stiffness, ik_real tip_stiffness) {
    int i;
    for (i = 0; i < count; ++i) {
        ik_real t = count > 1 ? (ik_real)i / (ik_real)(count - 1) : 0;
        springs[i].stiffness = root_stiffness * (1 - t) + tip_stiffness * t;
    }
}

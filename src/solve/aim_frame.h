/* Library-private: the joint-frame test ik_aim_run applies, for callers
 * that must know before they start whether every aim in a chain can run. */
#ifndef IKIT_SOLVE_AIM_FRAME_H
#define IKIT_SOLVE_AIM_FRAME_H

#include <ikit/math.h>

/* 1 when ik_aim_run can invert the linear part of joint_ms (not singular to
 * rounding, whatever its scale). */
ik_bool ik_aim_frame_usable(const ik_mat4 *joint_ms);

#endif

/* Library-private: CCD sweeps on gathered chain links, with restarts under
 * limits, for ik_ccd_run and for FABRIK's end-game on limited chains; and
 * the quaternion steps both solvers use on their hot paths. */
#ifndef IKIT_SOLVE_CCD_LINKS_H
#define IKIT_SOLVE_CCD_LINKS_H

#include "chain_links.h"
#include <ikit/constraint.h>
#include <ikit/math.h>

/* q (3 - |q|^2) / 2: one Newton step of 1 / sqrt(|q|^2) about 1, which
 * brings a quaternion that is unit up to rounding back to unit length to
 * second order, without a square root or a division. */
static inline ik_quat ik_quat_renormalize(ik_quat q) {
    ik_real s = ((ik_real)3 - ik_quat_dot(q, q)) * (ik_real)0.5;
    return ik_q(q.x * s, q.y * s, q.z * s, q.w * s);
}

/* (minimum rotation taking direction a onto direction w) * d, given
 * m = |a| |w|: the half-way quaternion (a x w, m + a . w) times d, scaled
 * by 1 / |(a x w, m + a . w)| = sqrt(n) / n; the product and the scale
 * factor are computed side by side. Nearly opposite directions go to
 * ik_quat_from_to, which splits them; a zero direction leaves d. */
static inline ik_quat ik_quat_turn_between(ik_vec3 a, ik_vec3 w, ik_real m, ik_quat d) {
    ik_vec3 c = ik_vec3_cross(a, w);
    ik_real cw = m + ik_vec3_dot(a, w), n, inv;
    ik_quat turned;
    if (!(cw > m * (ik_real)(1.0 / 64))) return m > 0 ? ik_quat_mul(ik_quat_from_to(a, w), d) : d;
    n = ik_vec3_dot(c, c) + cw * cw;
    inv = IK_SQRT(n) * (1 / n);
    turned = ik_quat_mul(ik_q(c.x, c.y, c.z, cw), d);
    return ik_q(turned.x * inv, turned.y * inv, turned.z * inv, turned.w * inv);
}

typedef struct ik_ccd_links {
    ik_chain_link *links; /* [count] gathered, root-first chain; the last is the effector */
    int count;
    const int *joints;     /* [count] skeleton joints, for keeping the best pose in pose_ls */
    ik_transform *pose_ls; /* receives the best pose found when the solve restarts */
    ik_vec3 target_ms;
    const ik_constraint *constraints; /* [count] or NULL */
    ik_real max_step_angle;           /* (0, pi] */
    ik_real tolerance;
    int max_sweeps;
} ik_ccd_links;

/* Sweeps as ik_ccd_run documents (ccd.h), restarts included; returns the
 * effector's distance to the target with the links holding the best pose
 * found, and the sweeps run in `sweeps`. */
ik_real ik_ccd_links_solve(const ik_ccd_links *job, int *sweeps);

#endif

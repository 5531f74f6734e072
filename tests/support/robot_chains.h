/* Robot chains for the robot tests: hand-built arms (a UR-shaped 6R, a
 * SCARA) and variants of any chain (rescaled, base turned, all continuous,
 * with a mimic joint), and each variable's range as the tests see it, with
 * random and mid-range configurations inside it. */
#ifndef IKIT_TEST_ROBOT_CHAINS_H
#define IKIT_TEST_ROBOT_CHAINS_H

#include <ikit/robot.h>

#include <math.h>
#include <string.h>

#include "rng.h"

static inline ik_robot_joint joint_at(ik_robot_joint_type type, ik_vec3 origin, ik_vec3 axis, double lo, double hi,
                                      int variable) {
    ik_robot_joint j;
    memset(&j, 0, sizeof j);
    j.type = type;
    j.origin = ik_transform_identity();
    j.origin.translation = origin;
    j.axis = axis;
    j.lower = (ik_real)lo;
    j.upper = (ik_real)hi;
    j.variable = variable;
    j.multiplier = 1;
    j.offset = 0;
    return j;
}

/* A UR-shaped 6R arm (axes z, y, y, y, z, y, three parallel), with a fixed
 * flange; limits +-pi except an elbow of [-2.5, 2.5]. */
static inline ik_robot_chain ur_shaped(void) {
    ik_robot_chain c;
    const ik_vec3 z = ik_v3(0, 0, 1), y = ik_v3(0, 1, 0);
    memset(&c, 0, sizeof c);
    c.joints[0] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0, 0, 0.1f), z, -IK_PI, IK_PI, 0);
    c.joints[1] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0, 0.13f, 0), y, -IK_PI, IK_PI, 1);
    c.joints[2] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0, -0.12f, 0.42f), y, -2.5, 2.5, 2);
    c.joints[3] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0, 0, 0.39f), y, -IK_PI, IK_PI, 3);
    c.joints[4] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0, 0.1f, 0), z, -IK_PI, IK_PI, 4);
    c.joints[5] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0, 0, 0.09f), y, -IK_PI, IK_PI, 5);
    c.joints[6] = joint_at(IK_ROBOT_FIXED, ik_v3(0, 0.08f, 0), z, 0, 0, -1);
    c.joint_count = 7;
    c.variable_count = 6;
    return c;
}

/* A SCARA: two turns about z, a prismatic z stroke of [0, 0.3], a turn about z. */
static inline ik_robot_chain scara(void) {
    ik_robot_chain c;
    const ik_vec3 z = ik_v3(0, 0, 1);
    memset(&c, 0, sizeof c);
    c.joints[0] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0, 0, 0.4f), z, -2.6, 2.6, 0);
    c.joints[1] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0.35f, 0, 0), z, -2.6, 2.6, 1);
    c.joints[2] = joint_at(IK_ROBOT_PRISMATIC, ik_v3(0.3f, 0, 0), ik_v3(0, 0, -1), 0, 0.3, 2);
    c.joints[3] = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0, 0, -0.05f), z, -IK_PI, IK_PI, 3);
    c.joint_count = 4;
    c.variable_count = 4;
    return c;
}

/* Every joint offset times `factor` (a robot drawn in other units). */
static inline ik_robot_chain rescaled(ik_robot_chain c, ik_real factor) {
    int k;
    for (k = 0; k < c.joint_count; ++k)
        c.joints[k].origin.translation = ik_vec3_scale(c.joints[k].origin.translation, factor);
    return c;
}

/* A fixed joint turning the base first (Z-up to Y-up: -90 degrees about x). */
static inline ik_robot_chain base_turned(ik_robot_chain c, ik_quat turn) {
    int k;
    for (k = c.joint_count; k > 0; --k) c.joints[k] = c.joints[k - 1];
    c.joints[0] = joint_at(IK_ROBOT_FIXED, ik_v3(0.2f, -0.1f, 0.05f), ik_v3(1, 0, 0), 0, 0, -1);
    c.joints[0].origin.rotation = turn;
    c.joint_count += 1;
    return c;
}

/* Every joint continuous (no limits, values wrap). */
static inline ik_robot_chain all_continuous(ik_robot_chain c) {
    int k;
    for (k = 0; k < c.joint_count; ++k)
        if (c.joints[k].type == IK_ROBOT_REVOLUTE) {
            c.joints[k].type = IK_ROBOT_CONTINUOUS;
            c.joints[k].lower = c.joints[k].upper = 0;
        }
    return c;
}

/* An extra turn about x at the flange that mimics joint 0: value 0.5 q0 +
 * 0.1 in [-1.2, 1.4], which narrows q0 to [-2.6, 2.6]. */
static inline ik_robot_chain with_mimic(ik_robot_chain c) {
    ik_robot_joint *j = &c.joints[c.joint_count];
    *j = joint_at(IK_ROBOT_REVOLUTE, ik_v3(0, 0, 0.05f), ik_v3(1, 0, 0), -1.2, 1.4, 0);
    j->multiplier = (ik_real)0.5;
    j->offset = (ik_real)0.1;
    c.joint_count += 1;
    return c;
}

/* Each variable's range as the tests see it: the intersection over its joints. */
static inline void variable_range(const ik_robot_chain *c, int v, double *lo, double *hi, int *wraps) {
    int k, limited = 0;
    *lo = -IK_PI;
    *hi = IK_PI;
    *wraps = 0;
    for (k = 0; k < c->joint_count; ++k) {
        const ik_robot_joint *j = &c->joints[k];
        double a, b;
        if (j->variable != v || j->type == IK_ROBOT_FIXED) continue;
        if (j->type == IK_ROBOT_CONTINUOUS) {
            *wraps = 1;
            continue;
        }
        a = (j->lower - j->offset) / j->multiplier;
        b = (j->upper - j->offset) / j->multiplier;
        if (a > b) {
            double t = a;
            a = b;
            b = t;
        }
        *lo = limited ? fmax(*lo, a) : a;
        *hi = limited ? fmin(*hi, b) : b;
        limited = 1;
    }
    if (limited) *wraps = 0;
}

static inline int inside_limits(const ik_robot_chain *c, const ik_real *q) {
    int v;
    for (v = 0; v < c->variable_count; ++v) {
        double lo, hi;
        int wraps;
        variable_range(c, v, &lo, &hi, &wraps);
        if (!ik_finite(q[v])) return 0;
        if (wraps ? !(q[v] > -IK_PI - 1e-6 && q[v] <= IK_PI + 1e-6) : !(q[v] >= lo && q[v] <= hi)) return 0;
    }
    return 1;
}

static inline void random_in_limits(const ik_robot_chain *c, rng *r, ik_real *q) {
    int v;
    for (v = 0; v < c->variable_count; ++v) {
        double lo, hi;
        int wraps;
        variable_range(c, v, &lo, &hi, &wraps);
        q[v] = rng_range(r, lo, hi);
    }
}

static inline void mid_range(const ik_robot_chain *c, ik_real *q) {
    int v;
    for (v = 0; v < c->variable_count; ++v) {
        double lo, hi;
        int wraps;
        variable_range(c, v, &lo, &hi, &wraps);
        q[v] = (ik_real)((lo + hi) / 2);
    }
}

#endif

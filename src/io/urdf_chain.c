/* ikit io: chains of a URDF tree between two links, as joint lists, robot
 * chains for ik_robot_fk and skeletons (see urdf.h). */
#include <ikit/urdf.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rest_check.h"

/* URDF rpy: roll about X, then pitch about Y, then yaw about Z, all about
 * fixed axes: R = Rz(yaw) Ry(pitch) Rx(roll), as a quaternion
 * q = qz(yaw) qy(pitch) qx(roll) (half angles), computed in double. */
ik_transform ik_urdf_origin(const double xyz[3], const double rpy[3]) {
    double cr = cos(rpy[0] * 0.5), sr = sin(rpy[0] * 0.5);
    double cp = cos(rpy[1] * 0.5), sp = sin(rpy[1] * 0.5);
    double cy = cos(rpy[2] * 0.5), sy = sin(rpy[2] * 0.5);
    ik_quat rotation = ik_q((ik_real)(sr * cp * cy - cr * sp * sy), (ik_real)(cr * sp * cy + sr * cp * sy),
                            (ik_real)(cr * cp * sy - sr * sp * cy), (ik_real)(cr * cp * cy + sr * sp * sy));
    return ik_transform_make(ik_v3((ik_real)xyz[0], (ik_real)xyz[1], (ik_real)xyz[2]), rotation, ik_v3(1, 1, 1));
}

/* Walks up from the tip to the base; joints_out receives the joints base
 * first. *count is the chain's length even when it exceeds max. */
ik_result ik_urdf_chain(const ik_urdf *urdf, const char *base_link, const char *tip_link, int *joints_out, int max,
                        int *count, ik_error *error) {
    int base, tip, link, length = 0, k;
    ik_result r;
    ik_error_clear(error);
    if (!urdf || !base_link || !tip_link || !count || (!joints_out && max > 0)) return IK_ERR_NULL;
    *count = 0;
    r = ik_urdf_find_link(urdf, base_link, &base, error);
    if (r == IK_OK) r = ik_urdf_find_link(urdf, tip_link, &tip, error);
    if (r != IK_OK) return r;
    for (link = tip; link != base && urdf->links[link].parent_joint >= 0; ++length)
        link = urdf->joints[urdf->links[link].parent_joint].parent_link;
    if (link != base) {
        ik_error_set(error, 0, 0, -1, "link '%.60s' is not above link '%.60s' (the tree's root is '%.60s')", base_link,
                     tip_link, urdf->links[urdf->root_link].name);
        return IK_ERR_HIERARCHY;
    }
    *count = length;
    if (length > max) {
        ik_error_set(error, 0, 0, -1, "the chain from '%.60s' to '%.60s' has %d joints, more than the %d given",
                     base_link, tip_link, length, max);
        return IK_ERR_CAPACITY;
    }
    for (link = tip, k = length - 1; k >= 0; --k) {
        joints_out[k] = urdf->links[link].parent_joint;
        link = urdf->joints[joints_out[k]].parent_link;
    }
    return IK_OK;
}

/* The joint a mimic joint finally follows (itself when it is no mimic), with
 * the composed value = multiplier * leader + offset. */
static int mimic_leader(const ik_urdf *urdf, int joint, double *multiplier, double *offset) {
    *multiplier = 1;
    *offset = 0;
    while (urdf->joints[joint].mimic_joint >= 0) {
        /* v = m_j * (m_l * v_l + o_l) + o_j */
        *offset = urdf->joints[joint].mimic_multiplier * *offset + urdf->joints[joint].mimic_offset;
        *multiplier *= urdf->joints[joint].mimic_multiplier;
        joint = urdf->joints[joint].mimic_joint;
    }
    return joint;
}

#ifdef IKIT_DOUBLE
#define NEXT_TOWARD(x, y) nextafter(x, y)
#else
#define NEXT_TOWARD(x, y) nextafterf(x, y)
#endif

/* [lower, upper] in ik_real, rounded inward: the smallest ik_real >= lower
 * and the largest <= upper (ik_real's nearest value may lie outside); when
 * that leaves the range empty (narrower than one step), the nearest value
 * at both ends. */
static void inward_limits(double lower, double upper, ik_real *lo, ik_real *hi) {
    ik_real a = (ik_real)lower, b = (ik_real)upper;
    if ((double)a < lower) a = NEXT_TOWARD(a, (ik_real)HUGE_VAL);
    if ((double)b > upper) b = NEXT_TOWARD(b, (ik_real)-HUGE_VAL);
    if (a > b) a = b = (ik_real)((lower + upper) / 2);
    *lo = a;
    *hi = b;
}

/* One variable per distinct leader (mimic_leader) among the moving joints,
 * numbered in chain order. */
ik_result ik_urdf_robot_chain(const ik_urdf *urdf, const char *base_link, const char *tip_link, ik_robot_chain *chain,
                              int *variable_joints, ik_error *error) {
    int joints[IK_ROBOT_MAX_JOINTS], leaders[IK_ROBOT_MAX_JOINTS], count, k, v;
    ik_result r;
    if (!chain) return IK_ERR_NULL;
    r = ik_urdf_chain(urdf, base_link, tip_link, joints, IK_ROBOT_MAX_JOINTS, &count, error);
    if (r != IK_OK) return r;
    memset(chain, 0, sizeof *chain);
    chain->joint_count = count;
    for (k = 0; k < count; ++k) {
        const ik_urdf_joint *j = &urdf->joints[joints[k]];
        ik_robot_joint *out = &chain->joints[k];
        int leader;
        double multiplier, offset;
        out->type = j->type;
        out->origin = j->origin;
        out->axis = j->axis;
        if (j->has_limit && j->type != IK_ROBOT_CONTINUOUS) inward_limits(j->lower, j->upper, &out->lower, &out->upper);
        out->variable = -1;
        out->multiplier = 1;
        out->offset = 0;
        if (j->type == IK_ROBOT_FIXED) continue;
        leader = mimic_leader(urdf, joints[k], &multiplier, &offset);
        out->multiplier = (ik_real)multiplier;
        out->offset = (ik_real)offset;
        for (v = 0; v < chain->variable_count && leaders[v] != leader; ++v) continue;
        if (v == chain->variable_count) leaders[chain->variable_count++] = leader;
        out->variable = v;
    }
    if (variable_joints)
        for (v = 0; v < chain->variable_count; ++v) variable_joints[v] = leaders[v];
    return IK_OK;
}

ik_result ik_urdf_chain_skeleton(const ik_urdf *urdf, const char *base_link, const char *tip_link,
                                 ik_urdf_skeleton **out, ik_error *error) {
    int count, k, *joints;
    ik_urdf_skeleton *s;
    ik_error skeleton_error;
    ik_result r;
    if (!out) return IK_ERR_NULL;
    *out = NULL;
    r = ik_urdf_chain(urdf, base_link, tip_link, NULL, 0, &count, error);
    if (r != IK_OK && r != IK_ERR_CAPACITY) return r;
    ik_error_clear(error);
    s = (ik_urdf_skeleton *)calloc(1, sizeof *s);
    if (!s) return IK_ERR_NO_MEMORY;
    s->parents = (int *)malloc((size_t)(count + 1) * sizeof *s->parents);
    s->names = (const char **)malloc((size_t)(count + 1) * sizeof *s->names);
    s->rest_ls = (ik_transform *)malloc((size_t)(count + 1) * sizeof *s->rest_ls);
    s->urdf_joints = (int *)malloc((size_t)(count + 1) * sizeof *s->urdf_joints);
    if (!s->parents || !s->names || !s->rest_ls || !s->urdf_joints) {
        ik_urdf_skeleton_free(s);
        return IK_ERR_NO_MEMORY;
    }
    /* Skeleton joint 0 is the base link; joint k + 1 the child link of chain joint k. */
    joints = s->urdf_joints + 1;
    ik_urdf_chain(urdf, base_link, tip_link, joints, count, &count, error);
    s->urdf_joints[0] = -1;
    s->parents[0] = -1;
    s->rest_ls[0] = ik_transform_identity();
    ik_urdf_find_link(urdf, base_link, &k, error);
    s->names[0] = urdf->links[k].name;
    for (k = 0; k < count; ++k) {
        s->parents[k + 1] = k;
        s->rest_ls[k + 1] = urdf->joints[joints[k]].origin;
        s->names[k + 1] = urdf->links[urdf->joints[joints[k]].child_link].name;
    }
    r = ik_io_skeleton_init(&s->skeleton, count + 1, s->parents, s->names, s->rest_ls, &skeleton_error);
    if (r != IK_OK) {
        ik_error_set(error, 0, 0, -1, "chain skeleton: %s", skeleton_error.message);
        ik_urdf_skeleton_free(s);
        return r;
    }
    /* each origin fits ik_real, their product down the chain may not */
    k = ik_io_rest_overflow(&s->skeleton, NULL);
    if (k != -1) {
        if (k == -2)
            ik_error_set(error, 0, 0, -1, "chain skeleton: out of memory");
        else
            ik_error_set(error, 0, 0, -1,
                         "link '%.60s': rest position overflows (the joint origins above it multiplied)", s->names[k]);
        ik_urdf_skeleton_free(s);
        return k == -2 ? IK_ERR_NO_MEMORY : IK_ERR_NONFINITE;
    }
    *out = s;
    return IK_OK;
}

void ik_urdf_skeleton_free(ik_urdf_skeleton *skeleton) {
    if (!skeleton) return;
    free(skeleton->parents);
    free(skeleton->names);
    free(skeleton->rest_ls);
    free(skeleton->urdf_joints);
    free(skeleton);
}

/* ---- finding names, with suggestions ------------------------------------ */

/* "no link 'x' in robot 'r' (did you mean: 'a', 'b'?)". */
static ik_result not_found(const ik_urdf *urdf, int links, const char *name, ik_error *error) {
    int count = links ? urdf->link_count : urdf->joint_count, best[3], found = 0, k;
    const char **names = count > 0 ? (const char **)malloc((size_t)count * sizeof *names) : NULL;
    char hint[200] = "";
    size_t used;
    for (k = 0; names && k < count; ++k) names[k] = links ? urdf->links[k].name : urdf->joints[k].name;
    if (names) found = ik_error_closest_names(names, count, name, best, 3);
    for (k = 0; k < found; ++k) {
        used = strlen(hint);
        snprintf(hint + used, sizeof hint - used, "%s'%.50s'", k ? ", " : " (did you mean: ", names[best[k]]);
    }
    if (found > 0) {
        used = strlen(hint);
        snprintf(hint + used, sizeof hint - used, "?)");
    }
    free(names);
    ik_error_set(error, 0, 0, -1, "no %s '%.60s' in robot '%.40s'%s", links ? "link" : "joint", name,
                 urdf->name ? urdf->name : "", hint);
    return IK_ERR_NOT_FOUND;
}

/* The index of the link (links != 0) or joint called `name`. */
static ik_result find_name(const ik_urdf *urdf, int links, const char *name, int *index, ik_error *error) {
    int count, i;
    if (!urdf || !name || !index) return IK_ERR_NULL;
    count = links ? urdf->link_count : urdf->joint_count;
    for (*index = -1, i = 0; i < count; ++i)
        if (strcmp(links ? urdf->links[i].name : urdf->joints[i].name, name) == 0) {
            *index = i;
            return IK_OK;
        }
    return not_found(urdf, links, name, error);
}

ik_result ik_urdf_find_link(const ik_urdf *urdf, const char *name, int *index, ik_error *error) {
    return find_name(urdf, 1, name, index, error);
}

ik_result ik_urdf_find_joint(const ik_urdf *urdf, const char *name, int *index, ik_error *error) {
    return find_name(urdf, 0, name, index, error);
}

/* Poses back into BVH channel values, for writing solved poses.
 *
 * Rotation to BVH Euler angles. For R = R_i(a) R_j(b) R_k(c) with (i, j, k)
 * a permutation of the axes and e = +1 when it is cyclic (xyz, yzx, zxy),
 * -1 otherwise, the matrix entries give (Shoemake, "Euler angle conversion",
 * Graphics Gems IV, 1994):
 *   b = asin(e M[i][k]),  a = atan2(-e M[j][k], M[k][k]),
 * and c is the turn about k left over once R_i(a) R_j(b) is taken off. */
#include <math.h>
#include <string.h>

#include <ikit/bvh.h>

#define RAD_TO_DEG 57.29577951308232

static double entry(const ik_vec3 columns[3], int row, int col) {
    const ik_vec3 *c = &columns[col];
    return row == 0 ? (double)c->x : row == 1 ? (double)c->y : (double)c->z;
}

static ik_vec3 unit_axis(int axis) { return ik_v3(axis == 0, axis == 1, axis == 2); }

static ik_real quat_part(ik_quat q, int axis) { return axis == 0 ? q.x : axis == 1 ? q.y : q.z; }

void ik_bvh_quat_to_euler(ik_quat q, const int axes[3], double degrees[3]) {
    ik_vec3 columns[3];
    ik_quat outer, rest;
    int i = axes[0], j = axes[1], k = axes[2];
    double e = ((j - i + 3) % 3 == 1) ? 1.0 : -1.0, s, a, b;
    q = ik_quat_normalize(q);
    columns[0] = ik_quat_rotate(q, ik_v3(1, 0, 0));
    columns[1] = ik_quat_rotate(q, ik_v3(0, 1, 0));
    columns[2] = ik_quat_rotate(q, ik_v3(0, 0, 1));
    s = e * entry(columns, i, k);
    if (s > 1) s = 1;
    if (s < -1) s = -1;
    b = asin(s);
    a = atan2(-e * entry(columns, j, k), entry(columns, k, k));
    /* c from what is left, rest = (R_i(a) R_j(b))^-1 q = R_k(c): the matrix
     * formula for c loses the rotation at b = +-90 degrees (gimbal lock,
     * where a and c turn about the same axis), this keeps it. */
    outer = ik_quat_mul(ik_quat_from_axis_angle(unit_axis(i), (ik_real)a),
                        ik_quat_from_axis_angle(unit_axis(j), (ik_real)b));
    rest = ik_quat_mul(ik_quat_conjugate(outer), q);
    if (rest.w < 0) rest = ik_q(-rest.x, -rest.y, -rest.z, -rest.w);
    degrees[0] = a * RAD_TO_DEG;
    degrees[1] = b * RAD_TO_DEG;
    degrees[2] = 2 * atan2((double)quat_part(rest, k), (double)rest.w) * RAD_TO_DEG;
}

void ik_bvh_frame_from_pose(const ik_bvh *bvh, const ik_transform *pose_ls, const double *fallback, double *values) {
    int j, c;
    memcpy(values, fallback, (size_t)bvh->values_per_frame * sizeof *values);
    for (j = 0; j < bvh->joint_count; ++j) {
        const ik_bvh_joint *joint = &bvh->joints[j];
        int axes[3], slots[3], rotations = 0;
        for (c = 0; c < joint->channel_count; ++c) {
            int ch = joint->channels[c], slot = joint->first_value + c;
            if (ch <= IK_BVH_ZPOSITION) {
                ik_vec3 t = pose_ls[j].translation;
                values[slot] = (double)(ch == IK_BVH_XPOSITION ? t.x : ch == IK_BVH_YPOSITION ? t.y : t.z);
            } else if (rotations < 3) {
                axes[rotations] = ch - IK_BVH_XROTATION;
                slots[rotations++] = slot;
            }
        }
        if (rotations == 3 && axes[0] != axes[1] && axes[1] != axes[2] && axes[0] != axes[2]) {
            double deg[3];
            ik_bvh_quat_to_euler(pose_ls[j].rotation, axes, deg);
            for (c = 0; c < 3; ++c) values[slots[c]] = deg[c];
        }
    }
}

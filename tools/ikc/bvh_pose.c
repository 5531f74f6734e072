/* Rotation to BVH Euler angles. For R = R_i(a) R_j(b) R_k(c) with (i, j, k)
 * a permutation of the axes and e = +1 when it is cyclic (xyz, yzx, zxy),
 * -1 otherwise, the matrix entries give (Shoemake, "Euler angle conversion",
 * Graphics Gems IV, 1994):
 *   b = asin(e M[i][k]),  a = atan2(-e M[j][k], M[k][k]),
 *   c = atan2(-e M[i][j], M[i][i]). */
#include <math.h>
#include <string.h>

#include "bvh_pose.h"

#define RAD_TO_DEG 57.29577951308232

static double entry(const ik_vec3 columns[3], int row, int col) {
    const ik_vec3 *c = &columns[col];
    return row == 0 ? (double)c->x : row == 1 ? (double)c->y : (double)c->z;
}

void ikc_quat_to_bvh_euler(ik_quat q, const int axes[3], double degrees[3]) {
    ik_vec3 columns[3];
    int i = axes[0], j = axes[1], k = axes[2];
    double e = ((j - i + 3) % 3 == 1) ? 1.0 : -1.0, s;
    q = ik_quat_normalize(q);
    columns[0] = ik_quat_rotate(q, ik_v3(1, 0, 0));
    columns[1] = ik_quat_rotate(q, ik_v3(0, 1, 0));
    columns[2] = ik_quat_rotate(q, ik_v3(0, 0, 1));
    s = e * entry(columns, i, k);
    if (s > 1) s = 1;
    if (s < -1) s = -1;
    degrees[1] = asin(s) * RAD_TO_DEG;
    degrees[0] = atan2(-e * entry(columns, j, k), entry(columns, k, k)) * RAD_TO_DEG;
    degrees[2] = atan2(-e * entry(columns, i, j), entry(columns, i, i)) * RAD_TO_DEG;
}

void ikc_bvh_frame_from_pose(const ik_bvh *bvh, const ik_transform *pose_ls, const double *fallback, double *values) {
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
            ikc_quat_to_bvh_euler(pose_ls[j].rotation, axes, deg);
            for (c = 0; c < 3; ++c) values[slots[c]] = deg[c];
        }
    }
}

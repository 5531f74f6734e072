/* Poses back into BVH channel values, for writing solved poses. */
#ifndef IKC_BVH_POSE_H
#define IKC_BVH_POSE_H

#include <ikit/bvh.h>

/* Euler angles in degrees, in the order of the three rotation channels
 * `axes` (0 x, 1 y, 2 z, all different), such that
 * R_axes[0](a0) R_axes[1](a1) R_axes[2](a2) = q, as BVH composes them. */
void ikc_quat_to_bvh_euler(ik_quat q, const int axes[3], double degrees[3]);

/* Fill `values` [bvh->values_per_frame] from `pose_ls`: position channels
 * from translations, rotation channels from rotations. A joint with fewer
 * than three rotation channels keeps the values of `fallback` [same size]. */
void ikc_bvh_frame_from_pose(const ik_bvh *bvh, const ik_transform *pose_ls, const double *fallback, double *values);

#endif

/* ikit io, private: the checks every reader makes of the skeleton it builds.
 * Not installed. */
#ifndef IKIT_IO_REST_CHECK_H
#define IKIT_IO_REST_CHECK_H

#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/skeleton.h>

/* ik_skeleton_init_scratch with its scratch allocated here (the readers'
 * hashed duplicate-name check, O(n log n) at worst); IK_ERR_NO_MEMORY, with
 * "out of memory" in `error` and its index -1, when that allocation fails
 * (the init itself never returns it). */
ik_result ik_io_skeleton_init(ik_skeleton *skeleton, int joint_count, const int *parents, const char *const *names,
                              const ik_transform *rest_ls, ik_error *error);

/* Each rest transform may fit ik_real while their product down a chain does
 * not: the first joint (parents-first order) whose model-space rest
 * transform, root_ms (NULL: identity) times the locals down to it, is not
 * finite; -1 when all are finite, -2 when out of memory. Proven with
 * ik_io_rest_bound where it can, else by forward kinematics. */
int ik_io_rest_overflow(const ik_skeleton *skeleton, const ik_mat4 *root_ms);

/* A cheap proof that forward kinematics of the rest pose stays finite:
 * fills, parents first, stretch_ms[j] >= the 2-norm of joint j's model-space
 * 3x3 part and reach_ms[j] >= the length of its model-space translation, as
 * computed by ik_skeleton_fk in ik_real, rounding included. Returns -1 when
 * every bound (and every local matrix's) stays below IK_REAL_MAX / 4, which
 * proves every joint finite; else the first joint where one does not (the
 * arrays are filled before it), which proves nothing. */
int ik_io_rest_bound(const ik_skeleton *skeleton, const ik_mat4 *root_ms, double *stretch_ms, double *reach_ms);

#endif

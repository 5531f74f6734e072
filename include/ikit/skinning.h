/* ikit anim: linear blend skinning, as glTF 2.0 defines it (section 3.7.3):
 * each vertex follows up to four joints,
 *
 *     v' = sum_k w_k * (joint_ms[j_k] * inverse_bind[j_k]) * v,
 *
 * with the weights divided by their sum. Caller-provided buffers, no
 * allocation. */
#ifndef IKIT_SKINNING_H
#define IKIT_SKINNING_H

#include <ikit/math.h>
#include <ikit/result.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Influences per vertex. */
#define IK_SKIN_INFLUENCES 4

/* skin_ms[j] = joint_ms[j] * inverse_bind[j] for j < joint_count: the
 * matrix that carries a bind-pose vertex along with joint j. */
void ik_skin_matrices(const ik_mat4 *joint_ms, const ik_mat4 *inverse_bind, int joint_count, ik_mat4 *skin_ms);

/* Skin `vertex_count` positions. joints[v * 4 + k] and weights[v * 4 + k]
 * are the influences of vertex v; an influence of weight 0 is ignored
 * whatever its joint. `positions_out` may not alias `positions_in`.
 * Errors: IK_ERR_NULL, IK_ERR_RANGE (a weighted joint outside
 * [0, joint_count), or a negative count), IK_ERR_NONFINITE (a NaN or
 * infinite weight or position, or a skinned point that overflows to
 * infinity), IK_ERR_DEGENERATE (a negative weight or a
 * vertex whose weights sum to 0). On error `positions_out` is unspecified. */
ik_result ik_skin_vertices(const ik_mat4 *skin_ms, int joint_count, const int *joints, const ik_real *weights,
                           const ik_vec3 *positions_in, int vertex_count, ik_vec3 *positions_out);

#ifdef __cplusplus
}
#endif
#endif

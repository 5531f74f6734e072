/* Linear blend skinning (glTF 2.0 specification, section 3.7.3, "Joint
 * hierarchy" and "Skinned mesh attributes"). */
#include <ikit/skinning.h>

#include <stddef.h>

void ik_skin_matrices(const ik_mat4 *joint_ms, const ik_mat4 *inverse_bind, int joint_count, ik_mat4 *skin_ms) {
    int j;
    for (j = 0; j < joint_count; ++j) skin_ms[j] = ik_mat4_mul(&joint_ms[j], &inverse_bind[j]);
}

/* The weights of one vertex checked and summed; IK_OK with *sum > 0. */
static ik_result check_influences(const int *joints, const ik_real *weights, int joint_count, ik_real *sum) {
    int k;
    *sum = 0;
    for (k = 0; k < IK_SKIN_INFLUENCES; ++k) {
        ik_real w = weights[k];
        if (!ik_finite(w)) return IK_ERR_NONFINITE;
        if (w < 0) return IK_ERR_DEGENERATE;
        if (w > 0 && (joints[k] < 0 || joints[k] >= joint_count)) return IK_ERR_RANGE;
        *sum += w;
    }
    return *sum > 0 ? IK_OK : IK_ERR_DEGENERATE;
}

/* v' = (sum_k w_k M_k) v / sum_k w_k: the blended matrix is built once per
 * vertex, then applied to the point. Each weight is divided by the sum
 * rather than multiplied by 1 / sum, which overflows for a subnormal sum
 * (a lone weight of 1e-40 is still the whole influence). */
ik_result ik_skin_vertices(const ik_mat4 *skin_ms, int joint_count, const int *joints, const ik_real *weights,
                           const ik_vec3 *positions_in, int vertex_count, ik_vec3 *positions_out) {
    int v, k, i;
    if (!joints || !weights || !positions_in || !positions_out || (!skin_ms && joint_count > 0)) return IK_ERR_NULL;
    if (joint_count < 0 || vertex_count < 0) return IK_ERR_RANGE;
    for (v = 0; v < vertex_count; ++v) {
        const int *jv = joints + (size_t)v * IK_SKIN_INFLUENCES;
        const ik_real *wv = weights + (size_t)v * IK_SKIN_INFLUENCES;
        ik_vec3 p = positions_in[v];
        ik_mat4 blend;
        ik_real sum;
        ik_result r = check_influences(jv, wv, joint_count, &sum);
        if (r != IK_OK) return r;
        if (!ik_finite(p.x) || !ik_finite(p.y) || !ik_finite(p.z)) return IK_ERR_NONFINITE;
        for (i = 0; i < 16; ++i) blend.m[i] = 0;
        for (k = 0; k < IK_SKIN_INFLUENCES; ++k) {
            const ik_real w = wv[k] / sum;
            if (w == 0) continue;
            for (i = 0; i < 16; ++i) blend.m[i] += w * skin_ms[jv[k]].m[i];
        }
        positions_out[v] = ik_mat4_transform_point(&blend, p);
        if (!ik_vec3_finite(positions_out[v])) return IK_ERR_NONFINITE;
    }
    return IK_OK;
}

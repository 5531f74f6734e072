/* Shared by the glTF fuzz entry points: what loads must sample finitely,
 * give skinned meshes whose indices stay in range and that skin in the rest
 * pose to finite points (or a clear error), map as a humanoid and give named
 * limbs within the skeleton, take its rest pose back, write
 * as .glb and .gltf, and read back with the same skins and clips; anything
 * else aborts (a finding). */
#ifndef IKIT_FUZZ_GLTF_CHECK_H
#define IKIT_FUZZ_GLTF_CHECK_H

#include <ikit/gltf.h>
#include <ikit/humanoid.h>
#include <ikit/named_chains.h>
#include <ikit/skeleton.h>
#include <ikit/skinning.h>

#include <stdlib.h>

static void fuzz_check_sampling(const ik_gltf *g) {
    int s, c, j;
    for (s = 0; s < ik_gltf_skin_count(g) && s < 4; ++s) {
        const ik_gltf_skin *skin = ik_gltf_skeleton(g, s);
        int n = skin->skeleton.joint_count;
        ik_transform *pose = (ik_transform *)malloc((size_t)n * sizeof *pose);
        if (!pose) return;
        for (c = 0; c < ik_gltf_clip_count(g) && c < 4; ++c) {
            const ik_clip *clip = ik_gltf_clip(g, c, s);
            if (ik_clip_validate(clip, n, NULL) != IK_OK) abort();
            ik_skeleton_rest_pose(&skin->skeleton, pose);
            ik_clip_sample(clip, clip->duration * (ik_real)0.37, pose);
            for (j = 0; j < n; ++j)
                if (!ik_transform_finite(pose[j])) abort();
        }
        free(pose);
    }
}

/* A read mesh: triangle indices below the vertex count, parts inside the
 * triangles, influences on the skin's joints; skinned at the rest pose,
 * finite points or a refusal (a NaN weight, weights summing to 0). */
static void fuzz_check_mesh(const ik_gltf *g, const ik_gltf_skinned_mesh *m) {
    const ik_gltf_skin *skin = ik_gltf_skeleton(g, m->skin);
    int n = skin ? skin->skeleton.joint_count : 0, i;
    ik_mat4 *model_ms, *skin_ms;
    ik_vec3 *posed;
    if (!skin || m->vertex_count < 0 || m->triangle_count < 0) abort();
    for (i = 0; i < 3 * m->triangle_count; ++i)
        if (m->indices[i] < 0 || m->indices[i] >= m->vertex_count) abort();
    for (i = 0; i < m->part_count; ++i)
        if (m->parts[i].first_triangle < 0 || m->parts[i].triangle_count < 0 ||
            m->parts[i].first_triangle + m->parts[i].triangle_count > m->triangle_count)
            abort();
    for (i = 0; i < IK_SKIN_INFLUENCES * m->vertex_count; ++i)
        if (m->weights[i] != 0 && (m->joints[i] < 0 || m->joints[i] >= n)) abort();
    model_ms = (ik_mat4 *)malloc((size_t)(n > 0 ? n : 1) * 2 * sizeof *model_ms);
    posed = (ik_vec3 *)malloc((size_t)(m->vertex_count > 0 ? m->vertex_count : 1) * sizeof *posed);
    if (model_ms && posed) {
        skin_ms = model_ms + n;
        ik_skeleton_fk(&skin->skeleton, skin->skeleton.rest_ls, &skin->root_ms, model_ms);
        ik_skin_matrices(model_ms, skin->inverse_bind, n, skin_ms);
        if (ik_skin_vertices(skin_ms, n, m->joints, m->weights, m->positions, m->vertex_count, posed) == IK_OK)
            for (i = 0; i < m->vertex_count; ++i)
                if (!ik_vec3_finite(posed[i]) && ik_vec3_finite(m->positions[i])) abort();
    }
    free(model_ms);
    free(posed);
}

static void fuzz_check_meshes(ik_gltf *g) {
    int i;
    for (i = 0; i < ik_gltf_skinned_mesh_count(g) && i < 4; ++i) {
        ik_gltf_skinned_mesh m;
        ik_error err;
        ik_result r = ik_gltf_skinned_mesh_read(g, i, &m, &err);
        if (r != IK_OK) {
            if (!err.message[0]) abort();
            continue;
        }
        fuzz_check_mesh(g, &m);
        ik_gltf_skinned_mesh_free(&m);
    }
}

/* The rig layer on the file's names: the humanoid map names joints of the
 * skeleton or none, and every limb found by name runs down the hierarchy
 * (each joint an ancestor of the next). */
static void fuzz_check_rig(const ik_gltf *g) {
    int s, i, k, count;
    for (s = 0; s < ik_gltf_skin_count(g) && s < 4; ++s) {
        const ik_skeleton *sk = &ik_gltf_skeleton(g, s)->skeleton;
        ik_humanoid_map map;
        ik_named_chain chains[16];
        ik_humanoid_map_find(sk, NULL, 0, &map);
        for (i = 0; i < IK_ROLE_COUNT; ++i)
            if (map.joint[i] < -1 || map.joint[i] >= sk->joint_count || map.rejected[i] < -1 ||
                map.rejected[i] >= sk->joint_count)
                abort();
        count = ik_named_chains_find(sk, chains, 16);
        if (count < 0 || count > 16) abort();
        for (i = 0; i < count; ++i) {
            if (chains[i].count < 1 || chains[i].count > IK_NAMED_CHAIN_MAX_JOINTS) abort();
            for (k = 0; k < chains[i].count; ++k)
                if (chains[i].joints[k] < 0 || chains[i].joints[k] >= sk->joint_count ||
                    (k > 0 && !ik_skeleton_is_descendant(sk, chains[i].joints[k], chains[i].joints[k - 1])))
                    abort();
        }
    }
}

static void fuzz_check_round_trip(ik_gltf *g, int binary) {
    unsigned char *bytes = NULL;
    size_t size = 0;
    ik_gltf *back = NULL;
    ik_error err;
    int s;
    if (ik_gltf_skin_count(g) > 0) {
        const ik_gltf_skin *skin = ik_gltf_skeleton(g, 0);
        if (ik_gltf_set_pose(g, 0, skin->skeleton.rest_ls, &err) != IK_OK) abort();
    }
    if (ik_gltf_write_memory(g, binary, &bytes, &size, &err) != IK_OK) return; /* e.g. over 4 GiB */
    if (ik_gltf_read_memory(bytes, size, NULL, &back, &err) != IK_OK) abort();
    if (ik_gltf_skin_count(back) != ik_gltf_skin_count(g) || ik_gltf_clip_count(back) != ik_gltf_clip_count(g)) abort();
    for (s = 0; s < ik_gltf_skin_count(g); ++s)
        if (ik_gltf_skeleton(back, s)->skeleton.joint_count != ik_gltf_skeleton(g, s)->skeleton.joint_count) abort();
    ik_gltf_free(back);
    free(bytes);
}

static int fuzz_gltf_input(const unsigned char *data, size_t size, int binary) {
    ik_gltf *g = NULL;
    ik_error err;
    ik_result r = ik_gltf_read_memory(data, size, NULL, &g, &err);
    if (r != IK_OK) {
        if (g || !err.message[0]) abort();
        return 0;
    }
    fuzz_check_sampling(g);
    fuzz_check_meshes(g);
    fuzz_check_rig(g);
    fuzz_check_round_trip(g, binary);
    ik_gltf_free(g);
    return 0;
}

#endif

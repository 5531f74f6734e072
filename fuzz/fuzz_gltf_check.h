/* Shared by the glTF fuzz entry points: what loads must sample finitely,
 * take its rest pose back, write as .glb and .gltf, and read back with the
 * same skins and clips; anything else aborts (a finding). */
#ifndef IKIT_FUZZ_GLTF_CHECK_H
#define IKIT_FUZZ_GLTF_CHECK_H

#include <ikit/gltf.h>

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

static void fuzz_check_round_trip(ik_gltf *g, int binary) {
    unsigned char *bytes = NULL;
    size_t size = 0;
    ik_gltf *back = NULL;
    ik_io_error err;
    int s;
    if (ik_gltf_skin_count(g) > 0) {
        const ik_gltf_skin *skin = ik_gltf_skeleton(g, 0);
        if (ik_gltf_set_pose(g, 0, skin->skeleton.rest_ls, &err) != IK_OK) abort();
    }
    if (ik_gltf_write_memory(g, binary, &bytes, &size, &err) != IK_OK) return; /* e.g. over 4 GiB */
    if (ik_gltf_read_memory(bytes, size, NULL, &back, &err) != IK_OK) abort();
    if (ik_gltf_skin_count(back) != ik_gltf_skin_count(g) || ik_gltf_clip_count(back) != ik_gltf_clip_count(g))
        abort();
    for (s = 0; s < ik_gltf_skin_count(g); ++s)
        if (ik_gltf_skeleton(back, s)->skeleton.joint_count != ik_gltf_skeleton(g, s)->skeleton.joint_count) abort();
    ik_gltf_free(back);
    free(bytes);
}

static int fuzz_gltf_input(const unsigned char *data, size_t size, int binary) {
    ik_gltf *g = NULL;
    ik_io_error err;
    ik_result r = ik_gltf_read_memory(data, size, NULL, &g, &err);
    if (r != IK_OK) {
        if (g || !err.message[0]) abort();
        return 0;
    }
    fuzz_check_sampling(g);
    fuzz_check_round_trip(g, binary);
    ik_gltf_free(g);
    return 0;
}

#endif

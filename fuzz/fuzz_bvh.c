/* libFuzzer entry point for the BVH reader: any bytes must give IK_OK or an
 * error with a message, never a crash, a hang or unbounded memory; what loads
 * must also write, read back to the same values, and sample finitely. */
#include <ikit/bvh.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_loaded(const ik_bvh *bvh) {
    char *text = NULL;
    size_t text_size = 0, v, total;
    ik_bvh *back = NULL;
    ik_error err;
    ik_transform *pose;
    if (ik_clip_validate(&bvh->clip, bvh->joint_count, NULL) != IK_OK) abort();
    pose = (ik_transform *)malloc((size_t)bvh->joint_count * sizeof *pose);
    if (!pose) return;
    ik_skeleton_rest_pose(&bvh->skeleton, pose);
    ik_clip_sample(&bvh->clip, bvh->clip.duration * (ik_real)0.37, pose);
    for (v = 0; v < (size_t)bvh->joint_count; ++v)
        if (!ik_transform_finite(pose[v])) abort();
    free(pose);
    if (ik_bvh_write_memory(bvh, &text, &text_size, &err) != IK_OK) abort();
    if (ik_bvh_read_memory(text, text_size, &back, &err) != IK_OK) abort();
    total = (size_t)bvh->frame_count * (size_t)bvh->values_per_frame;
    if (back->joint_count != bvh->joint_count || back->frame_count != bvh->frame_count ||
        back->values_per_frame != bvh->values_per_frame)
        abort();
    for (v = 0; v < total; ++v)
        if (back->values[v] != bvh->values[v]) abort();
    ik_bvh_free(back);
    ik_bvh_text_free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ik_bvh *bvh = NULL;
    ik_error err;
    ik_result r = ik_bvh_read_memory((const char *)data, size, &bvh, &err);
    if (r == IK_OK) {
        check_loaded(bvh);
        ik_bvh_free(bvh);
    } else if (bvh != NULL || err.message[0] == '\0') {
        abort();
    }
    return 0;
}

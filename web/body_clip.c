/* A BVH motion file as the playground's humanoid: ik_bvh_read_memory reads
 * the skeleton and its clip; the skeleton is handed to the rig exactly as
 * the page hands in a glTF file's (ikw_body_load: names, parents, rest
 * transforms), and the clip becomes the pose each solve starts from, so the
 * motion plays with the hands and feet IK applied live (goals, ground). */
#include <ikit/bvh.h>

#include <stdlib.h>
#include <string.h>

#include "ikit_web.h"

static struct {
    char *data; /* the file's bytes, written by JavaScript */
    int capacity;
    ik_bvh *bvh; /* the loaded figure's file, NULL when the figure is not from a BVH */
} clip_file;

/* Room for `size` bytes of a file (up to 256 MiB), or NULL. */
IKW_EXPORT(ikw_input_buffer) char *ikw_input_buffer(int size) {
    if (size < 0 || size > 256 * 1024 * 1024) return NULL;
    if (size > clip_file.capacity) {
        char *grown = realloc(clip_file.data, (size_t)size);
        if (!grown) return NULL;
        clip_file.data = grown;
        clip_file.capacity = size;
    }
    return clip_file.data;
}

/* Parse `length` bytes of ikw_input_buffer() as BVH and make it the figure.
 * On failure ikw_message() says why; a file that parsed but is no humanoid
 * leaves no figure (as ikw_body_load). */
IKW_EXPORT(ikw_body_load_bvh) int ikw_body_load_bvh(int length) {
    ik_bvh *bvh = NULL;
    ik_error err;
    char *names = ikw_text_buffer();
    float *rest = ikw_body_rest_buffer();
    int *parents = ikw_body_parent_buffer();
    int j, at = 0, r;
    if (length < 0 || length > clip_file.capacity) {
        ikw_set_message("the BVH text is not in the input buffer");
        return IK_ERR_RANGE;
    }
    r = ik_bvh_read_memory(clip_file.data, (size_t)length, &bvh, &err);
    if (r != IK_OK) {
        ikw_set_message(err.message[0] ? err.message : ik_result_str((ik_result)r));
        return r;
    }
    if (bvh->joint_count > ikw_body_max_joints()) {
        ikw_set_message("the skeleton has more than 256 joints: too big for the playground");
        ik_bvh_free(bvh);
        return IK_ERR_RANGE;
    }
    for (j = 0; j < bvh->joint_count; ++j) {
        const ik_transform *t = &bvh->rest_ls[j];
        size_t len = strlen(bvh->names[j]) + 1;
        if (at + (int)len > ikw_text_capacity()) {
            ikw_set_message("the joint names are too long for the playground");
            ik_bvh_free(bvh);
            return IK_ERR_RANGE;
        }
        memcpy(names + at, bvh->names[j], len);
        at += (int)len;
        parents[j] = bvh->parents[j];
        rest[10 * j] = (float)t->translation.x, rest[10 * j + 1] = (float)t->translation.y;
        rest[10 * j + 2] = (float)t->translation.z;
        rest[10 * j + 3] = (float)t->rotation.x, rest[10 * j + 4] = (float)t->rotation.y;
        rest[10 * j + 5] = (float)t->rotation.z, rest[10 * j + 6] = (float)t->rotation.w;
        rest[10 * j + 7] = (float)t->scale.x, rest[10 * j + 8] = (float)t->scale.y,
                      rest[10 * j + 9] = (float)t->scale.z;
    }
    /* ikw_body_load clears the old clip, so the old file can go whatever happens. */
    r = ikw_body_load(bvh->joint_count, at);
    if (clip_file.bvh) ik_bvh_free(clip_file.bvh);
    clip_file.bvh = NULL;
    if (r != IK_OK) {
        ik_bvh_free(bvh);
        return r;
    }
    clip_file.bvh = bvh;
    ikw_body_set_clip(&bvh->clip, (ik_real)bvh->frame_time);
    return IK_OK;
}

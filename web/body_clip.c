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
    int r;
    if (length < 0 || length > clip_file.capacity) {
        ikw_set_message("the BVH text is not in the input buffer");
        return IK_ERR_RANGE;
    }
    r = ik_bvh_read_memory(clip_file.data, (size_t)length, &bvh, &err);
    if (r != IK_OK) {
        ikw_set_message(err.message[0] ? err.message : ik_result_str((ik_result)r));
        return r;
    }
    /* ikw_body_load_skeleton clears the old clip, so the old file can go whatever happens. */
    r = ikw_body_load_skeleton(&bvh->skeleton);
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

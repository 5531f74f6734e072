/* ikit io: a read skeleton's names checked in O(n log n), and its rest pose
 * composed down the hierarchy must stay finite. */
#include "rest_check.h"

#include <stdio.h>
#include <stdlib.h>

ik_result ik_io_skeleton_init(ik_skeleton *skeleton, int joint_count, const int *parents, const char *const *names,
                              const ik_transform *rest_ls, ik_skeleton_error *error) {
    int *scratch = joint_count > 0 ? (int *)malloc(2 * (size_t)joint_count * sizeof *scratch) : NULL;
    ik_result r;
    if (!scratch && joint_count > 0) {
        if (error) {
            error->joint = -1;
            snprintf(error->message, sizeof error->message, "out of memory");
        }
        return IK_ERR_NO_MEMORY;
    }
    r = ik_skeleton_init_scratch(skeleton, joint_count, parents, names, rest_ls, scratch, error);
    free(scratch);
    return r;
}

int ik_io_rest_overflow(const ik_skeleton *skeleton, const ik_mat4 *root_ms) {
    ik_mat4 *model_ms = (ik_mat4 *)malloc(((size_t)skeleton->joint_count + 1) * sizeof *model_ms);
    int i;
    if (!model_ms) return -2;
    /* model(j) = model(parent(j)) local(j), model(root) = root_ms local(root) */
    ik_skeleton_fk(skeleton, skeleton->rest_ls, root_ms, model_ms);
    for (i = 0; i < skeleton->joint_count; ++i)
        if (!ik_mat4_finite(&model_ms[i])) break;
    free(model_ms);
    return i < skeleton->joint_count ? i : -1;
}

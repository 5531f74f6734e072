/* ikit io: the rest pose composed down the hierarchy must stay finite. */
#include "rest_check.h"

#include <stdlib.h>

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

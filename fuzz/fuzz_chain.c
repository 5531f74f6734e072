/* libFuzzer entry point for the chain-file reader: any bytes must give IK_OK
 * or a located error, never a crash, a hang or unbounded memory; what loads
 * must have a valid skeleton, nested ranges, unit axes and a rest pose finite
 * in local and model space. */
#include <ikit/chain_file.h>

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_loaded(const ik_chain_file *chain) {
    ik_transform *pose = (ik_transform *)malloc((size_t)chain->joint_count * sizeof *pose);
    ik_mat4 *model = (ik_mat4 *)malloc((size_t)chain->joint_count * sizeof *model);
    int i;
    if (pose && model) {
        ik_chain_file_rest_pose(chain, pose);
        ik_skeleton_fk(&chain->skeleton, pose, NULL, model);
        for (i = 0; i < chain->joint_count; ++i) {
            const ik_chain_joint *j = &chain->joints[i];
            if (!ik_transform_finite(pose[i]) || !ik_vec3_finite(ik_mat4_translation(&model[i])) || j->parent >= i)
                abort();
            if (!(j->limit_min_deg <= j->comfort_min_deg && j->comfort_min_deg <= j->comfort_max_deg &&
                  j->comfort_max_deg <= j->limit_max_deg && j->comfort_cone_deg <= j->cone_deg))
                abort();
            if (IK_FABS(ik_vec3_length(j->axis_ls) - 1) > (ik_real)1e-3) abort();
        }
        for (i = 0; i < chain->target_count; ++i)
            if (chain->targets[i].joint < 0 || chain->targets[i].joint >= chain->joint_count ||
                !(chain->targets[i].importance > 0))
                abort();
    }
    free(pose);
    free(model);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ik_chain_file *chain = NULL;
    ik_error err;
    ik_result r = ik_chain_file_read_memory((const char *)data, size, &chain, &err);
    if (r == IK_OK) {
        check_loaded(chain);
        ik_chain_file_free(chain);
    } else if (chain != NULL || err.line < 1 || err.message[0] == '\0') {
        abort();
    }
    return 0;
}

/* Reads a chain description file (docs/chain-format.md) with ikit's io
 * library and prints its joints, targets and where the last joint is at
 * rest (forward kinematics of the file's rest pose).
 *   chain_info examples/tentacle.chain */
#include <stdio.h>
#include <stdlib.h>

#include <ikit/chain_file.h>

int main(int argc, char **argv) {
    ik_chain_file *chain;
    ik_error err;
    if (argc != 2) {
        fprintf(stderr, "usage: chain_info FILE.chain\n");
        return 2;
    }
    if (ik_chain_file_read_file(argv[1], &chain, &err) != IK_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], err.message);
        return 1;
    }
    ik_transform *pose = malloc(sizeof *pose * (size_t)chain->joint_count);
    ik_mat4 *model = malloc(sizeof *model * (size_t)chain->joint_count);
    if (!pose || !model) {
        free(pose);
        free(model);
        ik_chain_file_free(chain);
        return 1;
    }
    ik_chain_file_rest_pose(chain, pose);
    ik_skeleton_fk(&chain->skeleton, pose, NULL, model);
    int last = chain->joint_count - 1;
    ik_vec3 end = ik_mat4_translation(&model[last]);
    printf("%s: %d joints, %d targets; %s at rest at (%.3f, %.3f, %.3f)\n", chain->name, chain->joint_count,
           chain->target_count, ik_skeleton_name(&chain->skeleton, last), (double)end.x, (double)end.y, (double)end.z);
    free(pose);
    free(model);
    ik_chain_file_free(chain);
    return 0;
}

/* libFuzzer entry point for the URDF reader: any bytes must give IK_OK or an
 * error with a message, never a crash, a hang or unbounded memory; what loads
 * must be one tree (every link reaches the root), and the chain from the
 * root to every link must give finite forward kinematics at zero and at a
 * configuration of mid-range values, and a skeleton of the same length. */
#include <ikit/robot.h>
#include <ikit/urdf.h>

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_chain(const ik_urdf *u, int tip) {
    const char *root = u->links[u->root_link].name;
    ik_robot_chain chain;
    ik_urdf_skeleton *s = NULL;
    ik_transform t;
    ik_real q[IK_ROBOT_MAX_JOINTS] = {0};
    int k;
    ik_result r = ik_urdf_robot_chain(u, root, u->links[tip].name, &chain, NULL, NULL);
    if (r == IK_ERR_CAPACITY) return;
    if (r != IK_OK) abort();
    if (ik_robot_fk(&chain, q, &t, NULL) != IK_OK || !ik_transform_finite(t)) abort();
    for (k = 0; k < chain.joint_count; ++k)
        if (chain.joints[k].variable >= 0)
            q[chain.joints[k].variable] = (ik_real)0.5 * (chain.joints[k].lower + chain.joints[k].upper);
    if (ik_robot_fk(&chain, q, &t, NULL) != IK_OK) abort();
    if (ik_urdf_chain_skeleton(u, root, u->links[tip].name, &s, NULL) != IK_OK) abort();
    if (s->skeleton.joint_count != chain.joint_count + 1) abort();
    ik_urdf_skeleton_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ik_urdf *u = NULL;
    ik_error err;
    ik_result r = ik_urdf_read_memory((const char *)data, size, &u, &err);
    int i;
    if (r == IK_OK) {
        for (i = 0; i < u->link_count && i < 64; ++i) check_chain(u, i);
        ik_urdf_free(u);
    } else if (u != NULL || err.message[0] == '\0') {
        abort();
    }
    return 0;
}

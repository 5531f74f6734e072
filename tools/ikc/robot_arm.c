/* URDF robot arms for the commands: see robot_arm.h. */
#include <stdio.h>
#include <string.h>

#include "ikc.h"
#include "robot_arm.h"

int ikc_is_urdf(const char *path) {
    char ext[16];
    return strcmp(ikc_extension(path, ext, sizeof ext), "urdf") == 0;
}

int ikc_urdf_load(const char *command, const char *path, ik_urdf **out) {
    ik_io_error err;
    ik_result r = ik_urdf_read_file(path, out, &err);
    if (r == IK_OK) return IKC_EXIT_OK;
    fprintf(stderr, "ikc %s: %s: %s%s\n", command, ikc_shown(path), r == IK_ERR_IO ? "" : "not a readable URDF file: ",
            err.message[0] ? ikc_shown(err.message) : ik_result_str(r));
    return r == IK_ERR_IO ? IKC_EXIT_NO_FILE : r == IK_ERR_NO_MEMORY ? IKC_EXIT_FAILURE : IKC_EXIT_FORMAT;
}

int ikc_arm_chain(const char *command, const ik_urdf *urdf, const char *base, const char *tip, ikc_arm *arm) {
    ik_io_error err;
    int count;
    ik_result r;
    if (!base) base = urdf->links[urdf->root_link].name;
    r = ik_urdf_chain(urdf, base, tip, arm->joints, IK_ROBOT_MAX_JOINTS, &count, &err);
    if (r == IK_OK) r = ik_urdf_robot_chain(urdf, base, tip, &arm->chain, arm->variable_joints, &err);
    if (r == IK_OK) return IKC_EXIT_OK;
    if (r == IK_ERR_HIERARCHY)
        fprintf(stderr, "ikc %s: link '%s' is not below link '%s'\n", command, ikc_shown(tip), ikc_shown(base));
    else
        fprintf(stderr, "ikc %s: %s\n", command, err.message[0] ? ikc_shown(err.message) : ik_result_str(r));
    return r == IK_ERR_NOT_FOUND || r == IK_ERR_HIERARCHY ? IKC_EXIT_NOT_FOUND : IKC_EXIT_FORMAT;
}

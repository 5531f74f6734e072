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
    ik_error err;
    ik_result r = ik_urdf_read_file(path, out, &err);
    if (r == IK_OK) return IKC_EXIT_OK;
    fprintf(stderr, "ikc %s: %s: %s%s\n", command, ikc_shown(path), r == IK_ERR_IO ? "" : "not a readable URDF file: ",
            err.message[0] ? ikc_shown(err.message) : ik_result_str(r));
    return r == IK_ERR_IO ? IKC_EXIT_NO_FILE : r == IK_ERR_NO_MEMORY ? IKC_EXIT_FAILURE : IKC_EXIT_FORMAT;
}

/* A revolute or prismatic joint whose <limit> has neither lower nor upper
 * is held at 0 (urdfdom reads it as [0, 0]): said on stderr, once per joint
 * of the chain. */
static void warn_frozen_joints(const char *command, const ik_urdf *urdf, const int *joints, int count) {
    int k;
    for (k = 0; k < count; ++k) {
        const ik_urdf_joint *j = &urdf->joints[joints[k]];
        if (j->limit_no_range && (j->type == IK_ROBOT_REVOLUTE || j->type == IK_ROBOT_PRISMATIC))
            fprintf(stderr,
                    "ikc %s: warning: line %ld: joint '%s': <limit> has neither lower nor upper, so the joint is "
                    "held at 0 (as ROS reads it); a joint that turns without limits is type=\"continuous\"\n",
                    command, j->line, ikc_shown(j->name));
    }
}

int ikc_arm_chain(const char *command, const ik_urdf *urdf, const char *base, const char *tip, ikc_arm *arm) {
    ik_error err;
    int count;
    ik_result r;
    if (!base) base = urdf->links[urdf->root_link].name;
    r = ik_urdf_chain(urdf, base, tip, arm->joints, IK_ROBOT_MAX_JOINTS, &count, &err);
    if (r == IK_OK) r = ik_urdf_robot_chain(urdf, base, tip, &arm->chain, arm->variable_joints, &err);
    if (r == IK_OK) {
        warn_frozen_joints(command, urdf, arm->joints, count);
        return IKC_EXIT_OK;
    }
    if (r == IK_ERR_HIERARCHY)
        fprintf(stderr, "ikc %s: link '%s' is not below link '%s'\n", command, ikc_shown(tip), ikc_shown(base));
    else
        fprintf(stderr, "ikc %s: %s\n", command, err.message[0] ? ikc_shown(err.message) : ik_result_str(r));
    return r == IK_ERR_NOT_FOUND || r == IK_ERR_HIERARCHY ? IKC_EXIT_NOT_FOUND : IKC_EXIT_FORMAT;
}

int ikc_parse_pose(const char *command, const char *value, ik_real pose[7]) {
    const int count = ikc_parse_reals(value, ',', pose, 3, 7);
    if (count == 3 || count == 7) return count;
    fprintf(stderr, "ikc %s: --pose wants x,y,z or x,y,z,qx,qy,qz,qw, not '%s'\n", command, ikc_shown(value));
    return 0;
}

ik_robot_ik ikc_arm_pose_job(const ikc_arm *arm, const ik_real *pose, int pose_count, const ik_real *seed,
                             ik_real *q_out) {
    ik_robot_ik job = ik_robot_ik_def();
    job.chain = &arm->chain;
    job.goal_position_bs = ik_v3(pose[0], pose[1], pose[2]);
    if (pose_count == 7)
        job.goal_rotation_bs = ik_q(pose[3], pose[4], pose[5], pose[6]);
    else
        job.orientation_importance = 0;
    job.q_seed = seed;
    job.q_out = q_out;
    return job;
}

int ikc_arm_arg(const char *command, const char *unknown_tail, int argc, char **argv, int *i, const char *const *valued,
                size_t valued_count, void (*usage)(FILE *), ikc_arm_args *args, const char **value) {
    const char *a = argv[*i];
    if (ikc_is_help(a)) {
        usage(stdout);
        return -1;
    }
    if (a[0] != '-' || !a[1]) return ikc_input_path(command, a, &args->path) ? IKC_ARG_TAKEN : IKC_EXIT_USAGE;
    if (!ikc_is_one_of(a, valued, valued_count)) {
        fprintf(stderr, "ikc %s: unknown option '%s'%s\n", command, ikc_shown(a), unknown_tail);
        usage(stderr);
        return IKC_EXIT_USAGE;
    }
    if (!(*value = ikc_option_value(command, argc, argv, i))) return IKC_EXIT_USAGE;
    if (strcmp(a, "--tip") == 0 || strcmp(a, "--base") == 0) {
        *(a[2] == 't' ? &args->tip : &args->base) = *value;
        return IKC_ARG_TAKEN;
    }
    return IKC_ARG_VALUE;
}

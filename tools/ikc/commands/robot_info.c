/* `ikc info ROBOT.urdf`: a robot's joints (type, links, axis, limits,
 * mimics) and the chains from its root link to each leaf link, which are
 * what `ikc solve ROBOT.urdf --tip LINK` solves. */
#include <stdio.h>
#include <stdlib.h>

#include "ikc.h"
#include "robot_arm.h"

static const char *const type_names[] = {"fixed", "revolute", "continuous", "prismatic"};

static void print_joint(const ik_urdf *u, int j) {
    const ik_urdf_joint *joint = &u->joints[j];
    printf("  %-28s %-10s %s > %s", ikc_shown(joint->name), type_names[joint->type],
           ikc_shown(u->links[joint->parent_link].name), ikc_shown(u->links[joint->child_link].name));
    if (joint->type != IK_ROBOT_FIXED)
        printf("  axis (%g %g %g)", (double)joint->axis.x, (double)joint->axis.y, (double)joint->axis.z);
    if (joint->type == IK_ROBOT_REVOLUTE)
        printf("  %.4f..%.4f rad (%.1f..%.1f deg)", joint->lower, joint->upper, (double)ik_deg((ik_real)joint->lower),
               (double)ik_deg((ik_real)joint->upper));
    else if (joint->type == IK_ROBOT_PRISMATIC)
        printf("  %.4f..%.4f m", joint->lower, joint->upper);
    else if (joint->type == IK_ROBOT_CONTINUOUS)
        printf("  no limits");
    if (joint->mimic_joint >= 0)
        printf("  mimics %s * %g %+g", ikc_shown(u->joints[joint->mimic_joint].name), joint->mimic_multiplier,
               joint->mimic_offset);
    printf("\n");
}

/* Each leaf link (no joint below it): the chain from the root, with its
 * joints and variables. */
static int print_chains(const ik_urdf *u) {
    char *has_child = (char *)calloc((size_t)u->link_count + 1, 1);
    const char *root = u->links[u->root_link].name;
    int j, l;
    if (!has_child) return 0;
    for (j = 0; j < u->joint_count; ++j) has_child[u->joints[j].parent_link] = 1;
    printf("\nchains from the root link to each leaf link (ikc solve FILE --tip LEAF):\n");
    for (l = 0; l < u->link_count; ++l) {
        ikc_arm arm;
        ik_error err;
        int count = 0, k;
        if (has_child[l] || l == u->root_link) continue;
        if (ik_urdf_chain(u, root, u->links[l].name, arm.joints, IK_ROBOT_MAX_JOINTS, &count, &err) != IK_OK ||
            ik_urdf_robot_chain(u, root, u->links[l].name, &arm.chain, NULL, &err) != IK_OK) {
            printf("  %s: %s\n", ikc_shown(u->links[l].name), ikc_shown(err.message));
            continue;
        }
        printf("  %s", ikc_shown(root));
        for (k = 0; k < count; ++k) printf(" > %s", ikc_shown(u->links[u->joints[arm.joints[k]].child_link].name));
        printf("\n      %d joints, %d variables\n", count, arm.chain.variable_count);
    }
    free(has_child);
    return 1;
}

int ikc_robot_info(const char *path) {
    ik_urdf *u = NULL;
    int code = ikc_urdf_load("info", path, &u), j;
    if (code != IKC_EXIT_OK) return code;
    printf("file:   %s\n", ikc_shown(path));
    printf("format: URDF, robot \"%s\"\n", ikc_shown(u->name));
    printf("links: %d (root %s), joints: %d\n", u->link_count, ikc_shown(u->links[u->root_link].name), u->joint_count);
    for (j = 0; j < u->joint_count; ++j) print_joint(u, j);
    if (!print_chains(u)) {
        ik_urdf_free(u);
        fprintf(stderr, "ikc info: out of memory\n");
        return IKC_EXIT_FAILURE;
    }
    ik_urdf_free(u);
    return IKC_EXIT_OK;
}

/* The demo's one procedural humanoid: ik_humanoid_build_skeleton's figure,
 * mapped and rigged by the rig layer, with joint limits about its rest pose
 * for the scenes that solve it with the generic solvers. */
#ifndef IKC_DEMO_FIGURE_H
#define IKC_DEMO_FIGURE_H

#include <ikit/constraint.h>
#include <ikit/humanoid.h>

#define IKC_FIGURE_JOINTS IK_HUMANOID_BUILT_JOINTS
#define IKC_FIGURE_HEIGHT 1.8f
/* Knee and elbow bend ranges from straight, degrees. */
#define IKC_FIGURE_KNEE_MAX_DEG 150
#define IKC_FIGURE_ELBOW_MAX_DEG 133

typedef struct ikc_figure {
    ik_skeleton skeleton;
    int parents[IKC_FIGURE_JOINTS];
    const char *names[IKC_FIGURE_JOINTS];
    ik_transform rest_ls[IKC_FIGURE_JOINTS];
    ik_humanoid_map map;
    ik_humanoid rig;
    /* knees and elbows hinges about the rig's hinge axes (elbows counted
     * from straight, though the rest arm is a little bent), toes hinges,
     * hips, spine, neck, head, hands and feet cones about their bones,
     * upper arms cones about the arm held out sideways; none on the hips
     * and toe ends */
    ik_constraint limits[IKC_FIGURE_JOINTS];
} ikc_figure;

/* Build, map and rig the figure and its limits; 0 when any step fails. */
int ikc_figure_init(ikc_figure *f);

struct ikc_mesh;
/* The figure's body (ikit/bone_mesh.h with ik_humanoid_build_body's radii)
 * at its rest pose, in clay: 1, or 0 / -1 as ikc_mesh_from_bones. */
int ikc_figure_body(const ikc_figure *f, struct ikc_mesh *body);

/* The joint of `role`. */
int ikc_figure_joint(const ikc_figure *f, ik_humanoid_role role);

#endif

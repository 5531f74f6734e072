/* Pictures of skeletons through cairo: one drawing code for SVG, PNG and PDF.
 * A picture is a grid of panels (a filmstrip, or scenes side by side), all
 * drawn with the same camera and scale so they compare. */
#ifndef IKC_DRAW_H
#define IKC_DRAW_H

#include <stddef.h>

#include <ikit/constraint.h>
#include <ikit/ground.h>
#include <ikit/math.h>
#include <ikit/skeleton.h>

typedef enum ikc_view { IKC_VIEW_FRONT, IKC_VIEW_SIDE, IKC_VIEW_TOP, IKC_VIEW_PERSP } ikc_view;

typedef struct ikc_panel {
    const ik_skeleton *skeleton;
    const ik_transform *pose_ls;      /* [joint_count]: the pose drawn */
    const ik_mat4 *model_ms;          /* [joint_count]: its forward kinematics (with root_ms) */
    const ik_mat4 *root_ms;           /* above the roots; NULL: identity */
    const ik_constraint *constraints; /* [joint_count] or NULL: hinge arcs and cones */
    const ik_mat4 *ghost_ms;          /* [joint_count] or NULL: an earlier pose, drawn faint */
    const int *highlight;             /* joints of the solved chain, drawn in the accent colour */
    int highlight_count;
    const ik_vec3 *targets_ms;        /* crosses */
    const int *target_reached;        /* [target_count] or NULL (all reached) */
    int target_count;
    const ik_vec3 *lines_ms;          /* dashed segments: pairs of points, [2 * line_count] */
    int line_count;
    const ik_vec3 *rods_ms;           /* props (a staff): thick segments, pairs of points, [2 * rod_count] */
    int rod_count;
    const char *title;
    const char *caption;
    int label_joints;                 /* 0: none, 1: highlighted joints and tips, 2: all */
} ikc_panel;

typedef struct ikc_picture {
    const char *title;
    const ikc_panel *panels;
    int panel_count;
    int columns;
    ikc_view view;
    int width, height;    /* pixels for PNG, points for SVG and PDF */
    int show_ground;
    ik_real ground_y;     /* height of the ground plane (model space, Y up) */
    const ik_ground *ground; /* or NULL: a plane, height field or stairs drawn as shaded
                                faces under the whole scene (instead of ground_y's grid) */
} ikc_picture;

/* Parse "front", "side", "top" or "persp"; 0 when unknown. */
int ikc_view_parse(const char *text, ikc_view *view);
const char *ikc_view_name(ikc_view view);

/* 1 when the picture can be drawn: every joint at a finite position and
 * the scene's extent finite; otherwise 0 with a message in `error` (a rest
 * pose or frame whose offsets overflow). ikc_draw_file checks it too. */
int ikc_picture_check(const ikc_picture *picture, char *error, size_t error_size);

/* The lowest joint height over all panels: where the ground goes. */
ik_real ikc_picture_lowest(const ikc_picture *picture);

/* Draw to `path` (.svg, .png or .pdf by extension), written atomically.
 * Returns 1, or 0 with a message in `error`. */
int ikc_draw_file(const ikc_picture *picture, const char *path, char *error, size_t error_size);

#endif

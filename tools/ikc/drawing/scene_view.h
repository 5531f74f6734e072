/* What a picture shows and from where, apart from the cairo calls (draw.c)
 * so that other front ends (the web page) can reuse it: the scene model
 * (panels of posed skeletons, targets, guide lines, props, the ground), the
 * views and their cameras, the framing of every panel, the grid and the
 * ground's faces in the painter's order. */
#ifndef IKC_SCENE_VIEW_H
#define IKC_SCENE_VIEW_H

#include <stddef.h>

#include <ikit/constraint.h>
#include <ikit/ground.h>
#include <ikit/ground_mesh.h>
#include <ikit/math.h>
#include <ikit/skeleton.h>

struct ikc_mesh;
struct ikc_panel_layout;

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
    const ik_vec3 *targets_ms; /* crosses */
    const int *target_reached; /* [target_count] or NULL (all reached) */
    int target_count;
    const ik_vec3 *lines_ms; /* dashed segments: pairs of points, [2 * line_count] */
    int line_count;
    const ik_vec3 *rods_ms; /* props (a staff): thick segments, pairs of points, [2 * rod_count] */
    int rod_count;
    const ik_mat4 *cubes_ms; /* props (the cube a tail chases): the cube [-0.5, 0.5]^3 carried by
                                each matrix, drawn shaded under the bones, [cube_count] */
    int cube_count;
    const char *title;
    const char *caption;
    int label_joints;       /* 0: none, 1: roles (role_joints, or else the highlighted
                               joints and tips), 2: all; placed apart (label_layout.h) */
    const int *role_joints; /* the joints that matter, most important first */
    int role_joint_count;
    const struct ikc_mesh *mesh; /* or NULL: the character's skinned mesh (mesh_view.h) */
    const ik_vec3 *mesh_ms;      /* [mesh->vertex_count]: the mesh in this panel's pose */
} ikc_panel;

#define IKC_LABEL_ROOM 0.14

typedef struct ikc_picture {
    const char *title;
    const ikc_panel *panels;
    int panel_count;
    int columns;
    ikc_view view;
    int width, height; /* pixels for PNG, points for SVG and PDF */
    int show_ground;
    int bones;                        /* with a mesh: draw the bones, thinner, over it (always drawn without one) */
    struct ikc_panel_layout *layouts; /* [panel_count] or NULL: filled while drawing with where every
                                         joint and label went (ikc_panel_layout_free each) */
    int shared_frame;                 /* 1: every panel framed on the content of all (a figure's travel shows);
                                         0: each on its own (ikc_camera_fit) */
    double label_room;                /* share of a labelled panel's width kept free on each side for labels
                                         (0: IKC_LABEL_ROOM) */
    ik_real elevation;                /* the perspective view's height, degrees above the horizontal (0: 20) */
    ik_real ground_y;                 /* height of the ground plane (model space, Y up) */
    const ik_ground *ground;          /* or NULL: a plane, height field or stairs drawn as shaded
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

/* An orthographic camera looks along -forward with the given right and up
 * axes; the perspective one sits at `eye` and divides by depth. */
typedef struct ikc_camera {
    ik_vec3 right, up, forward, eye;
    int perspective;
    double scale, offset_u, offset_v; /* scene (u, v) to page units */
} ikc_camera;

/* Scene point to page coordinates inside the panel whose top-left is (px, py). */
typedef struct ikc_page_point {
    double x, y;
} ikc_page_point;

/* The box round everything drawn. */
typedef struct ikc_bounds {
    ik_vec3 lo, hi;
    int any;
} ikc_bounds;

/* A quad of a ground surface (ik_ground_mesh) with its place in the
 * painter's order. A side face of stairs is drawn before everything else
 * when it faces away from the camera and after everything when it faces it:
 * the painter's sort by centre depth cannot order a wall that long. */
typedef struct ikc_ground_face {
    ik_ground_quad quad;
    int layer; /* 0 far side, 1 treads and risers, 2 near side */
    double depth;
} ikc_ground_face;

/* A ground's faces (malloc'ed, free `faces`). */
typedef struct ikc_face_list {
    ikc_ground_face *faces;
    int count;
} ikc_face_list;

/* A camera for `view` round a scene centred on `center`, `extent` across
 * (the perspective eye stands 3.5 extents back, `elevation` degrees above
 * the horizontal: 0 for the default 20). */
ikc_camera ikc_camera_make(ikc_view view, ik_vec3 center, ik_real extent, ik_real elevation);
/* Scene point to camera-plane (u, v), v up. */
void ikc_camera_project(const ikc_camera *camera, ik_vec3 p, double *u, double *v);
/* Scene point to page coordinates in the panel whose top-left is (px, py). */
ikc_page_point ikc_camera_to_page(const ikc_camera *camera, ik_vec3 p, double px, double py);
/* Frame every w x h panel on what it shows (its joints, the earlier pose's,
 * targets, guide lines, props, cubes and mesh; not the ground, which is cut at the
 * panel's edges): cameras[i] is `camera` with one scale for the whole
 * picture, the largest at which every panel's content fits inside 7 %
 * margins, under `title_room` for a panel with a title, above
 * `caption_room` for one with a caption, and between label margins
 * (label_room) for one with labels, and offsets that centre panel i's
 * content in that room (or, with shared_frame, every panel on the content
 * of all). */
void ikc_camera_fit(ikc_camera *cameras, const ikc_picture *picture, const ikc_camera *camera, double w, double h,
                    double title_room, double caption_room);

/* The box round every panel's finite joints, ghost joints, targets, lines, rods, cubes and mesh vertices. */
ikc_bounds ikc_scene_bounds(const ikc_picture *picture);
/* The box's largest side. */
ik_real ikc_bounds_extent(ikc_bounds b);

/* The ground's faces over the scene's box with a margin (none without a
 * ground, or without memory); ikc_ground_faces_order puts them in the
 * painter's order for `camera` (far side walls, then the rest back to
 * front, then near side walls). */
ikc_face_list ikc_ground_faces(const ikc_picture *picture, ikc_bounds b);
void ikc_ground_faces_order(ikc_face_list *faces, const ikc_camera *camera);

/* Corner k (0..7) of cube `cube` of a panel: bit 0 of k picks +x, bit 1 +y,
 * bit 2 +z of [-0.5, 0.5]^3, carried by the cube's matrix. */
ik_vec3 ikc_cube_corner(const ik_mat4 *cube, int k);

/* A round grid step near extent / 8: 1, 2 or 5 times a power of ten. */
ik_real ikc_grid_step(ik_real extent);
/* Every loop over a range of reals counts an integer instead: `t += step`
 * stops advancing once t's spacing exceeds the step (a figure of 1 unit at
 * x = 5e6 in float: spacing 0.5, grid step 0.1), and loops forever. The
 * number of values from + k step, k = 0, 1, ..., up to to (and 1% of a step
 * past it), at most IKC_MAX_GRID_LINES (0 for an empty or non-finite range). */
#define IKC_MAX_GRID_LINES 1000
int ikc_grid_count(double from, double to, double step);

#endif

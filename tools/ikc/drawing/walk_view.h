/* The picture of a walk (ikit/walk.h) shared by `ikc walk --render` and the
 * demo's walking scene: frames of a take spread over a filmstrip, drawn in
 * the walk frame (+Y up) over the walk's ground. */
#ifndef IKC_WALK_VIEW_H
#define IKC_WALK_VIEW_H

#include <ikit/take.h>
#include <ikit/walk.h>

#include "mesh_view.h"
#include "scene_view.h"

#define IKC_WALK_PANELS_MAX 12

typedef struct ikc_walk_picture {
    ikc_picture picture;
    ikc_panel panels[IKC_WALK_PANELS_MAX];
    char titles[IKC_WALK_PANELS_MAX][40];
    ik_mat4 root_ws; /* the walk frame's inverse times the skeleton's root */
    ik_mat4 *model;  /* [panels * joint_count], malloc'ed */
    ik_vec3 *posed;  /* the mesh in each panel's pose, malloc'ed, or NULL */
} ikc_walk_picture;

/* `count` (1..IKC_WALK_PANELS_MAX) frames of `take`, the first to the last
 * evenly, in `columns` columns; `ground` in the walk frame (NULL: the flat
 * floor y = 0); `mesh` (may be NULL) the character's skin, drawn in every
 * panel with the bones thin over it (a frame it cannot follow keeps its
 * bones). 0 when out of memory or the frame is singular. Release with
 * ikc_walk_picture_free. */
int ikc_walk_picture_make(ikc_walk_picture *p, const ik_humanoid *rig, const ik_mat4 *root_ms, const ik_take *take,
                          const ik_ground *ground, ikc_mesh *mesh, int count, int columns, const char *title);
void ikc_walk_picture_free(ikc_walk_picture *p);

#endif

/* The picture of a retarget (ikit/retarget.h) shared by `ikc retarget
 * --render` and the demo's retarget scene: a filmstrip with the source's
 * frames in the top row and the retargeted ones below, at the same times,
 * each body in its walk frame (ik_walk_frame: +Y up, +Z forward) scaled to
 * metres of its own legs, so a take in CMU units and a rig in centimetres
 * stand side by side at their true sizes. */
#ifndef IKC_RETARGET_VIEW_H
#define IKC_RETARGET_VIEW_H

#include <ikit/constraint.h>
#include <ikit/humanoid.h>
#include <ikit/take.h>

#include "mesh_view.h"
#include "scene_view.h"

#define IKC_RETARGET_FRAMES 5

typedef struct ikc_retarget_picture {
    ikc_picture picture;
    ikc_panel panels[2 * IKC_RETARGET_FRAMES];
    char titles[2 * IKC_RETARGET_FRAMES][48];
    ik_mat4 roots[2];
    ik_mat4 *model; /* [2 * IKC_RETARGET_FRAMES * the larger joint count], malloc'ed */
    ik_vec3 *posed; /* the mesh in each lower panel's pose, malloc'ed, or NULL */
} ikc_retarget_picture;

/* rigs[0] playing takes[0] above, rigs[1] playing takes[1] (as many frames)
 * below; constraints[i] may be NULL; `mesh` (may be NULL) is rigs[1]'s
 * skin, drawn in the lower row. 0 when out of memory or a rig has no walk
 * frame. Release with ikc_retarget_picture_free. */
int ikc_retarget_picture_make(ikc_retarget_picture *p, const ik_humanoid *const rigs[2], const ik_take *const takes[2],
                              const ik_constraint *const constraints[2], ikc_mesh *mesh, const char *title);
void ikc_retarget_picture_free(ikc_retarget_picture *p);

#endif

/* The natural bend of the limbs `ikc` finds by name: a knee bends forward,
 * an elbow back, on any rig (humanoid or not, mirrored, lying on its back),
 * as the default for `ikc solve --target` when no --pole is given. */
#ifndef IKC_LIMB_BEND_H
#define IKC_LIMB_BEND_H

#include <ikit/humanoid.h>

#include "asset.h"

/* The figure's axes at rest, in model space (root_ms applied). */
typedef struct ikc_figure {
    int known; /* 0: nothing tells where the figure faces */
    ik_vec3 up_ms, forward_ms;
} ikc_figure;

/* Up from the feet to the hips of the legs found by name (else the
 * humanoid's up, else from the root to the head); forward from the toes or
 * the face (ik_figure_forward), else the humanoid's. */
ikc_figure ikc_figure_axes(const ik_asset *asset, const ik_named_chain *chains, int chain_count);

/* The hinge (in the middle joint's own frame, for ik_two_bone's
 * hinge_axis_ls) of a three-joint "leg" or "arm" found by name, from the
 * rest pose (ik_limb_hinge); 0 for other chains, a chain file's, or a
 * straight limb of a figure whose forward is unknown. */
int ikc_limb_hinge_ls(const ik_asset *asset, const ikc_figure *figure, const ik_named_chain *limb, ik_vec3 *hinge_ls);

#endif

/* A retarget's filmstrip (retarget_view.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ikit/foot_contacts.h>
#include <ikit/walk.h>

#include "retarget_view.h"

int ikc_retarget_picture_make(ikc_retarget_picture *p, const ik_humanoid *const rigs[2], const ik_take *const takes[2],
                              const ik_constraint *const constraints[2], ikc_mesh *mesh, const char *title) {
    int row, i, frames = takes[1]->frame_count;
    size_t most =
        (size_t)(rigs[0]->skeleton->joint_count > rigs[1]->skeleton->joint_count ? rigs[0]->skeleton->joint_count
                                                                                 : rigs[1]->skeleton->joint_count);
    memset(p, 0, sizeof *p);
    for (row = 0; row < 2; ++row) {
        ik_mat4 frame, inv, metres;
        ik_real per_metre = 1 / ik_foot_metre(ik_foot_leg_length(rigs[row]));
        if (ik_walk_frame(rigs[row], NULL, &frame) != IK_OK || !ik_mat4_inverse(&frame, &inv)) return 0;
        metres = ik_mat4_from_trs(ik_vec3_zero(), ik_quat_identity(), ik_v3(per_metre, per_metre, per_metre));
        p->roots[row] = ik_mat4_mul(&metres, &inv);
    }
    p->model = (ik_mat4 *)malloc(2 * IKC_RETARGET_FRAMES * most * sizeof(ik_mat4));
    if (mesh) p->posed = (ik_vec3 *)malloc(IKC_RETARGET_FRAMES * (size_t)mesh->vertex_count * sizeof(ik_vec3));
    if (!p->model || (mesh && !p->posed)) {
        ikc_retarget_picture_free(p);
        return 0;
    }
    for (row = 0; row < 2; ++row)
        for (i = 0; i < IKC_RETARGET_FRAMES; ++i) {
            int f = (int)((long)i * (frames - 1) / (IKC_RETARGET_FRAMES - 1)), at = row * IKC_RETARGET_FRAMES + i;
            ikc_panel *panel = &p->panels[at];
            ik_mat4 *ms = p->model + (size_t)at * most;
            ik_skeleton_fk(rigs[row]->skeleton, ik_take_pose(takes[row], f), &p->roots[row], ms);
            snprintf(p->titles[at], sizeof p->titles[at], "%s, t = %.2f s", row ? "retargeted" : "source",
                     (double)((ik_real)f * takes[row]->frame_time));
            panel->skeleton = rigs[row]->skeleton;
            panel->pose_ls = ik_take_pose(takes[row], f);
            panel->model_ms = ms;
            panel->root_ms = &p->roots[row];
            panel->constraints = constraints[row];
            panel->title = p->titles[at];
            if (row == 1 && mesh && ikc_mesh_pose(mesh, ms, p->posed + (size_t)i * (size_t)mesh->vertex_count)) {
                panel->mesh = mesh;
                panel->mesh_ms = p->posed + (size_t)i * (size_t)mesh->vertex_count;
            }
        }
    p->picture.title = title;
    p->picture.panels = p->panels;
    p->picture.panel_count = 2 * IKC_RETARGET_FRAMES;
    p->picture.columns = IKC_RETARGET_FRAMES;
    p->picture.view = IKC_VIEW_SIDE;
    p->picture.width = 360 * IKC_RETARGET_FRAMES;
    p->picture.height = 34 + 2 * 420;
    p->picture.show_ground = 1;
    p->picture.bones = 1;
    p->picture.ground_y = 0;
    return 1;
}

void ikc_retarget_picture_free(ikc_retarget_picture *p) {
    free(p->model);
    free(p->posed);
    p->model = NULL;
    p->posed = NULL;
}

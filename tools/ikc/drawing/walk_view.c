/* A walk's filmstrip (walk_view.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "walk_view.h"

int ikc_walk_picture_make(ikc_walk_picture *p, const ik_humanoid *rig, const ik_mat4 *root_ms, const ik_take *take,
                          const ik_ground *ground, ikc_mesh *mesh, int count, int columns, const char *title) {
    const ik_skeleton *s = rig->skeleton;
    ik_mat4 frame, frame_inv;
    int i, rows;
    memset(p, 0, sizeof *p);
    if (count < 1 || count > IKC_WALK_PANELS_MAX || ik_walk_frame(rig, root_ms, &frame) != IK_OK ||
        !ik_mat4_inverse(&frame, &frame_inv))
        return 0;
    if (count > take->frame_count) count = take->frame_count;
    p->root_ws = root_ms ? ik_mat4_mul(&frame_inv, root_ms) : frame_inv;
    p->model = (ik_mat4 *)malloc(sizeof(ik_mat4) * (size_t)count * (size_t)s->joint_count);
    if (mesh) p->posed = (ik_vec3 *)malloc(sizeof(ik_vec3) * (size_t)count * (size_t)mesh->vertex_count + 1);
    if (!p->model || (mesh && !p->posed)) {
        ikc_walk_picture_free(p);
        return 0;
    }
    for (i = 0; i < count; ++i) {
        int f = count > 1 ? (int)((long)i * (take->frame_count - 1) / (count - 1)) : 0;
        ikc_panel *panel = &p->panels[i];
        ik_mat4 *model = p->model + (size_t)i * (size_t)s->joint_count;
        ik_skeleton_fk(s, ik_take_pose(take, f), &p->root_ws, model);
        snprintf(p->titles[i], sizeof p->titles[i], "t = %.2f s", (double)((ik_real)f * take->frame_time));
        panel->skeleton = s;
        panel->pose_ls = ik_take_pose(take, f);
        panel->model_ms = model;
        panel->root_ms = &p->root_ws;
        panel->title = p->titles[i];
        if (mesh && ikc_mesh_pose(mesh, model, p->posed + (size_t)i * (size_t)mesh->vertex_count)) {
            panel->mesh = mesh;
            panel->mesh_ms = p->posed + (size_t)i * (size_t)mesh->vertex_count;
        }
    }
    if (columns < 1) columns = 1;
    if (columns > count) columns = count;
    rows = (count + columns - 1) / columns;
    p->picture.title = title;
    p->picture.panels = p->panels;
    p->picture.panel_count = count;
    p->picture.columns = columns;
    p->picture.view = IKC_VIEW_SIDE;
    p->picture.width = 640 * columns;
    p->picture.height = 34 + 380 * rows;
    p->picture.show_ground = 1;
    p->picture.ground_y = 0;
    p->picture.ground = ground;
    p->picture.bones = 1;
    return 1;
}

void ikc_walk_picture_free(ikc_walk_picture *p) {
    free(p->model);
    free(p->posed);
    p->model = NULL;
    p->posed = NULL;
}

/* The scene model and cameras of ikc's pictures (scene_view.h): views,
 * projection, framing, bounds, the grid and the ground's faces. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_view.h"
#include "scene_view.h"

static const char *const view_names[] = {"front", "side", "top", "persp"};

int ikc_view_parse(const char *text, ikc_view *view) {
    int i;
    for (i = 0; i < 4; ++i)
        if (strcmp(text, view_names[i]) == 0) {
            *view = (ikc_view)i;
            return 1;
        }
    return 0;
}

const char *ikc_view_name(ikc_view view) { return view_names[view]; }

/* ---- camera ----------------------------------------------------------------- */

ikc_camera ikc_camera_make(ikc_view view, ik_vec3 center, ik_real extent, ik_real elevation) {
    ikc_camera c;
    memset(&c, 0, sizeof c);
    switch (view) {
        case IKC_VIEW_FRONT:
            c.right = ik_v3(1, 0, 0);
            c.up = ik_v3(0, 1, 0);
            c.forward = ik_v3(0, 0, 1);
            break;
        case IKC_VIEW_SIDE:
            c.right = ik_v3(0, 0, -1);
            c.up = ik_v3(0, 1, 0);
            c.forward = ik_v3(1, 0, 0);
            break;
        case IKC_VIEW_TOP:
            c.right = ik_v3(1, 0, 0);
            c.up = ik_v3(0, 0, -1);
            c.forward = ik_v3(0, 1, 0);
            break;
        default: {
            /* 35 degrees round from the front toward the figure's left, 20 up
             * (or `elevation`). */
            ik_real az = ik_rad(35), el = ik_rad(elevation > 0 ? elevation : 20);
            c.forward = ik_v3(IK_SIN(az) * IK_COS(el), IK_SIN(el), IK_COS(az) * IK_COS(el));
            c.right = ik_vec3_normalize(ik_vec3_cross(ik_v3(0, 1, 0), c.forward));
            c.up = ik_vec3_cross(c.forward, c.right);
            c.eye = ik_vec3_mad(center, c.forward, extent * (ik_real)3.5);
            c.perspective = 1;
        }
    }
    return c;
}

/* Scene point to camera-plane (u, v), v up. */
void ikc_camera_project(const ikc_camera *c, ik_vec3 p, double *u, double *v) {
    if (c->perspective) {
        ik_vec3 rel = ik_vec3_sub(p, c->eye);
        double depth = -(double)ik_vec3_dot(rel, c->forward);
        if (depth < 1e-6) depth = 1e-6;
        *u = (double)ik_vec3_dot(rel, c->right) / depth;
        *v = (double)ik_vec3_dot(rel, c->up) / depth;
    } else {
        *u = (double)ik_vec3_dot(p, c->right);
        *v = (double)ik_vec3_dot(p, c->up);
    }
}

ikc_page_point ikc_camera_to_page(const ikc_camera *c, ik_vec3 p, double px, double py) {
    ikc_page_point q;
    double u, v;
    ikc_camera_project(c, p, &u, &v);
    q.x = px + (u - c->offset_u) * c->scale;
    q.y = py - (v - c->offset_v) * c->scale;
    return q;
}

/* ---- scene bounds ------------------------------------------------------------ */

ik_vec3 ikc_cube_corner(const ik_mat4 *cube, int k) {
    ik_real h = (ik_real)0.5;
    return ik_mat4_transform_point(cube, ik_v3(k & 1 ? h : -h, k & 2 ? h : -h, k & 4 ? h : -h));
}

static void bounds_add(ikc_bounds *b, ik_vec3 p) {
    if (!ik_vec3_finite(p)) return;
    if (!b->any) {
        b->lo = b->hi = p;
        b->any = 1;
        return;
    }
    b->lo = ik_v3(ik_minr(b->lo.x, p.x), ik_minr(b->lo.y, p.y), ik_minr(b->lo.z, p.z));
    b->hi = ik_v3(ik_maxr(b->hi.x, p.x), ik_maxr(b->hi.y, p.y), ik_maxr(b->hi.z, p.z));
}

ikc_bounds ikc_scene_bounds(const ikc_picture *pic) {
    ikc_bounds b;
    int i, j;
    memset(&b, 0, sizeof b);
    for (i = 0; i < pic->panel_count; ++i) {
        const ikc_panel *p = &pic->panels[i];
        for (j = 0; j < p->skeleton->joint_count; ++j) bounds_add(&b, ik_mat4_translation(&p->model_ms[j]));
        for (j = 0; j < p->target_count; ++j) bounds_add(&b, p->targets_ms[j]);
        for (j = 0; j < 2 * p->line_count; ++j) bounds_add(&b, p->lines_ms[j]);
        for (j = 0; j < 2 * p->rod_count; ++j) bounds_add(&b, p->rods_ms[j]);
        for (j = 0; j < 8 * p->cube_count; ++j) bounds_add(&b, ikc_cube_corner(&p->cubes_ms[j / 8], j % 8));
        for (j = 0; p->mesh && j < p->mesh->vertex_count; ++j) bounds_add(&b, p->mesh_ms[j]);
        for (j = 0; p->ghost_ms && j < p->skeleton->joint_count; ++j)
            bounds_add(&b, ik_mat4_translation(&p->ghost_ms[j]));
    }
    if (!b.any) b.lo = b.hi = ik_vec3_zero();
    return b;
}

/* The box's largest side. */
ik_real ikc_bounds_extent(ikc_bounds b) { return ik_maxr(b.hi.x - b.lo.x, ik_maxr(b.hi.y - b.lo.y, b.hi.z - b.lo.z)); }

int ikc_picture_check(const ikc_picture *pic, char *error, size_t error_size) {
    ikc_bounds b = ikc_scene_bounds(pic);
    int i, j;
    for (i = 0; i < pic->panel_count; ++i) {
        const ikc_panel *p = &pic->panels[i];
        for (j = 0; j < p->skeleton->joint_count; ++j) {
            if (ik_vec3_finite(ik_mat4_translation(&p->model_ms[j]))) continue;
            snprintf(error, error_size,
                     "joint %d ('%s')%s lies at a non-finite position: its offsets add up past the largest "
                     "number; nothing drawn",
                     j, ik_skeleton_name(p->skeleton, j), pic->panel_count > 1 ? " of a frame" : "");
            return 0;
        }
    }
    if (!ik_finite(ikc_bounds_extent(b)) || !ik_vec3_finite(ik_vec3_add(b.lo, b.hi))) {
        snprintf(error, error_size, "the scene spans more than the largest number; nothing drawn");
        return 0;
    }
    return 1;
}

ik_real ikc_picture_lowest(const ikc_picture *pic) {
    ikc_bounds b = ikc_scene_bounds(pic);
    return b.lo.y;
}

/* A round grid step near extent / 8: 1, 2 or 5 times a power of ten. */
ik_real ikc_grid_step(ik_real extent) {
    double raw = (double)extent / 8, p = pow(10, floor(log10(raw > 0 ? raw : 1))), m = raw / p;
    return (ik_real)((m < 1.5 ? 1 : m < 3.5 ? 2 : 5) * p);
}

/* Values from + k step up to `to`, counted (see scene_view.h). */
int ikc_grid_count(double from, double to, double step) {
    double n = floor((to - from) / step + 0.01) + 1;
    if (!(n >= 1)) return 0;
    return n > IKC_MAX_GRID_LINES ? IKC_MAX_GRID_LINES : (int)n;
}

/* ---- ground surfaces ------------------------------------------------------- */

/* The ground's quads over the scene's box on x and z with a margin; none
 * when there is no ground to show (or no memory for it). */
ikc_face_list ikc_ground_faces(const ikc_picture *pic, ikc_bounds b) {
    ik_real margin = ikc_bounds_extent(b) * (ik_real)0.15;
    ik_real x0 = b.lo.x - margin, x1 = b.hi.x + margin, z0 = b.lo.z - margin, z1 = b.hi.z + margin;
    ik_ground_quad *quads;
    ikc_face_list l;
    int n, i;
    memset(&l, 0, sizeof l);
    if (!pic->show_ground || !pic->ground) return l;
    n = ik_ground_mesh(pic->ground, x0, x1, z0, z1, NULL, 0);
    quads = n > 0 ? (ik_ground_quad *)malloc((size_t)n * sizeof *quads) : NULL;
    l.faces = n > 0 ? (ikc_ground_face *)malloc((size_t)n * sizeof *l.faces) : NULL;
    if (quads && l.faces) {
        n = ik_ground_mesh(pic->ground, x0, x1, z0, z1, quads, n);
        for (i = 0; i < n; ++i) l.faces[i].quad = quads[i];
        l.count = n;
    } else {
        free(l.faces);
        l.faces = NULL;
    }
    free(quads);
    return l;
}

static ik_vec3 face_center(const ikc_ground_face *f) {
    return ik_vec3_scale(ik_vec3_add(ik_vec3_add(f->quad.corner_ms[0], f->quad.corner_ms[1]),
                                     ik_vec3_add(f->quad.corner_ms[2], f->quad.corner_ms[3])),
                         (ik_real)0.25);
}

static int farther_first(const void *a, const void *b) {
    const ikc_ground_face *fa = (const ikc_ground_face *)a, *fb = (const ikc_ground_face *)b;
    if (fa->layer != fb->layer) return fa->layer < fb->layer ? -1 : 1;
    return fa->depth > fb->depth ? -1 : fa->depth < fb->depth;
}

void ikc_ground_faces_order(ikc_face_list *l, const ikc_camera *cam) {
    int i;
    for (i = 0; i < l->count; ++i) {
        ikc_ground_face *f = &l->faces[i];
        ik_vec3 rel = ik_vec3_sub(face_center(f), cam->eye);
        f->depth = -(double)ik_vec3_dot(rel, cam->forward);
        f->layer = !f->quad.side ? 1 : ik_vec3_dot(f->quad.normal_ms, cam->forward) > 0 ? 2 : 0;
    }
    qsort(l->faces, (size_t)l->count, sizeof *l->faces, farther_first);
}

/* A box on the camera plane. */
typedef struct uv_box {
    double umin, umax, vmin, vmax;
} uv_box;

/* Grow `box` to hold `q`'s projection. */
static void uv_box_add(const ikc_camera *cam, ik_vec3 q, uv_box *box) {
    double u, v;
    ikc_camera_project(cam, q, &u, &v);
    box->umin = fmin(box->umin, u);
    box->umax = fmax(box->umax, u);
    box->vmin = fmin(box->vmin, v);
    box->vmax = fmax(box->vmax, v);
}

/* The projected box of what panel `p` shows: its joints (and the earlier
 * pose's), targets, guide lines, props, cubes and mesh. The ground is not in it:
 * it is drawn under the figure and cut at the panel's edges. */
static uv_box panel_box(const ikc_camera *cam, const ikc_panel *p) {
    uv_box box = {1e300, -1e300, 1e300, -1e300};
    int joints = p->skeleton->joint_count, lines = joints + p->target_count, rods = lines + 2 * p->line_count, j;
    /* a panel with its character's mesh is framed on the mesh, not the
     * joints: a rig's unskinned controls (girl.glb's IK targets) stay at
     * rest while the character walks away, and framed the figure into a
     * corner */
    for (j = p->mesh && p->mesh_ms ? joints : 0; j < rods + 2 * p->rod_count; ++j) {
        ik_vec3 q = j < joints  ? ik_mat4_translation(&p->model_ms[j])
                    : j < lines ? p->targets_ms[j - joints]
                    : j < rods  ? p->lines_ms[j - lines]
                                : p->rods_ms[j - rods];
        if (ik_vec3_finite(q)) uv_box_add(cam, q, &box);
    }
    for (j = 0; p->mesh && j < p->mesh->vertex_count; ++j)
        if (ik_vec3_finite(p->mesh_ms[j])) uv_box_add(cam, p->mesh_ms[j], &box);
    for (j = 0; j < 8 * p->cube_count; ++j) {
        ik_vec3 q = ikc_cube_corner(&p->cubes_ms[j / 8], j % 8);
        if (ik_vec3_finite(q)) uv_box_add(cam, q, &box);
    }
    for (j = 0; p->ghost_ms && j < joints; ++j)
        if (ik_vec3_finite(ik_mat4_translation(&p->ghost_ms[j])))
            uv_box_add(cam, ik_mat4_translation(&p->ghost_ms[j]), &box);
    return box;
}

/* Where a panel's content may go: its size less the 7 % margins, the
 * title's band at the top, the caption's at the bottom and, for a panel
 * with labels, the label margins at the sides (label_room of the width on
 * each side). */
static void panel_room(const ikc_picture *pic, const ikc_panel *p, double w, double h, double title_room,
                       double caption_room, double *room_w, double *room_h, double *below) {
    double top = p->title ? title_room : 0, bottom = p->caption ? caption_room : 0;
    double side = p->label_joints ? (pic->label_room > 0 ? pic->label_room : IKC_LABEL_ROOM) * w : 0;
    *room_w = fmax(w * 0.86 - 2 * side, w * 0.2);
    *room_h = fmax(h * 0.86 - top - bottom, h * 0.2);
    *below = bottom + (h - top - bottom - *room_h) / 2;
}

void ikc_camera_fit(ikc_camera *cams, const ikc_picture *pic, const ikc_camera *cam, double w, double h,
                    double title_room, double caption_room) {
    uv_box all = {1e300, -1e300, 1e300, -1e300};
    uv_box *boxes = (uv_box *)malloc(((size_t)pic->panel_count + 1) * sizeof *boxes);
    double scale = 1e300;
    int i;
    for (i = 0; i < pic->panel_count; ++i) {
        uv_box b = panel_box(cam, &pic->panels[i]);
        if (boxes) boxes[i] = b;
        all.umin = fmin(all.umin, b.umin);
        all.umax = fmax(all.umax, b.umax);
        all.vmin = fmin(all.vmin, b.vmin);
        all.vmax = fmax(all.vmax, b.vmax);
    }
    /* One scale for every panel, so they compare: the largest at which
     * each panel's content fits its room (the union's, framed together;
     * every panel on the union, too, when out of memory). */
    for (i = 0; i < pic->panel_count; ++i) {
        uv_box b = pic->shared_frame || !boxes ? all : boxes[i];
        double rw, rh, below;
        if (b.umax < b.umin) continue;
        panel_room(pic, &pic->panels[i], w, h, title_room, caption_room, &rw, &rh, &below);
        scale = fmin(scale, fmin(rw / fmax(b.umax - b.umin, 1e-9), rh / fmax(b.vmax - b.vmin, 1e-9)));
    }
    if (!(scale < 1e300)) scale = 1;
    /* Each panel centred on its own content (or all on the union) in its
     * room: page x = (u - offset_u) scale, page y = bottom - (v - offset_v) scale. */
    for (i = 0; i < pic->panel_count; ++i) {
        uv_box b = pic->shared_frame || !boxes ? all : boxes[i];
        double rw, rh, below;
        panel_room(pic, &pic->panels[i], w, h, title_room, caption_room, &rw, &rh, &below);
        if (b.umax < b.umin) b.umin = b.umax = b.vmin = b.vmax = 0;
        cams[i] = *cam;
        cams[i].scale = scale;
        cams[i].offset_u = (b.umin + b.umax) / 2 - (w / 2) / scale;
        cams[i].offset_v = (b.vmin + b.vmax) / 2 - (below + rh / 2) / scale;
    }
    free(boxes);
}

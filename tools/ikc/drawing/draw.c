/* Skeleton pictures with cairo. Bones are tapered quads from parent to
 * child, joints dots, targets crosses (green when reached, red when not),
 * hinge limits wedges and ball limits cones about the joint's reference
 * direction, props thick rods, the ground a grid on the plane y = ground_y
 * or the faces of a slope, height field or stairs, shaded and drawn back to
 * front (the painter's algorithm). What is drawn and from where (cameras,
 * framing, the ground's faces) is scene_view.c; this file makes the cairo
 * calls. */
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "ikc.h"
#include "label_layout.h"
#include "mesh_view.h"

#define TWO_PI 6.283185307179586

/* ---- drawing primitives ---------------------------------------------------- */

static void set_rgb(cairo_t *cr, unsigned hex, double alpha) {
    cairo_set_source_rgba(cr, ((hex >> 16) & 255) / 255.0, ((hex >> 8) & 255) / 255.0, (hex & 255) / 255.0, alpha);
}

#define COLOR_BONE 0x3b5b92u
#define COLOR_ACCENT 0xe07a1fu
#define COLOR_GHOST 0x9aa5b1u
#define COLOR_REACHED 0x2a9d3fu
#define COLOR_MISSED 0xd62828u
#define COLOR_LIMIT 0xf2a900u
#define COLOR_GRID 0xd5d9de
#define COLOR_TEXT 0x222222u

/* A bone as a quad tapering from width w0 at a to w1 at b, round at a. */
static void tapered_bone(cairo_t *cr, ikc_page_point a, ikc_page_point b, double w0, double w1) {
    double dx = b.x - a.x, dy = b.y - a.y, len = sqrt(dx * dx + dy * dy), nx, ny;
    if (len < 1e-9) return;
    nx = -dy / len;
    ny = dx / len;
    cairo_move_to(cr, a.x + nx * w0 / 2, a.y + ny * w0 / 2);
    cairo_line_to(cr, b.x + nx * w1 / 2, b.y + ny * w1 / 2);
    cairo_line_to(cr, b.x - nx * w1 / 2, b.y - ny * w1 / 2);
    cairo_line_to(cr, a.x - nx * w0 / 2, a.y - ny * w0 / 2);
    cairo_close_path(cr);
    cairo_new_sub_path(cr);
    cairo_arc(cr, a.x, a.y, w0 / 2, 0, TWO_PI);
}

static void cross_mark(cairo_t *cr, ikc_page_point p, double r) {
    cairo_new_path(cr);
    cairo_arc(cr, p.x, p.y, r, 0, TWO_PI);
    cairo_move_to(cr, p.x - r * 1.45, p.y - r * 1.45);
    cairo_line_to(cr, p.x + r * 1.45, p.y + r * 1.45);
    cairo_move_to(cr, p.x - r * 1.45, p.y + r * 1.45);
    cairo_line_to(cr, p.x + r * 1.45, p.y - r * 1.45);
}

static void label(cairo_t *cr, double x, double y, const char *text, double size, unsigned color) {
    cairo_text_extents_t ext;
    cairo_set_font_size(cr, size);
    cairo_text_extents(cr, text, &ext);
    /* a white halo keeps labels readable over bones and grid */
    cairo_move_to(cr, x, y);
    cairo_text_path(cr, text);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
    cairo_set_line_width(cr, 3);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_stroke(cr);
    cairo_move_to(cr, x, y);
    set_rgb(cr, color, 1);
    cairo_show_text(cr, text);
}

/* ---- limits ------------------------------------------------------------------ */

static int is_highlighted(const ikc_panel *p, int joint) {
    int k;
    for (k = 0; k < p->highlight_count; ++k)
        if (p->highlight[k] == joint) return 1;
    return 0;
}

/* The model frame a joint's limits are measured in: its parent's frame times
 * its pose translation and the constraint's reference rotation. */
static ik_mat4 reference_frame(const ikc_panel *p, int joint, const ik_constraint *c) {
    ik_mat4 parent = p->skeleton->parents[joint] >= 0 ? p->model_ms[p->skeleton->parents[joint]]
                                                      : (p->root_ms ? *p->root_ms : ik_mat4_identity());
    ik_mat4 local = ik_mat4_from_trs(p->pose_ls[joint].translation, c->reference_ls, p->pose_ls[joint].scale);
    return ik_mat4_mul(&parent, &local);
}

/* The direction of the bone leaving `joint`, in its own frame: its first
 * child's translation, looking through zero-length children (a pitch-yaw
 * pair at one point) with their current rotations. */
static int bone_direction_ls(const ikc_panel *p, int joint, ik_vec3 *dir_ls, ik_real *length) {
    const ik_skeleton *s = p->skeleton;
    ik_quat through = ik_quat_identity();
    int j = joint, c, depth;
    for (depth = 0; depth < 8; ++depth) {
        int child = -1;
        for (c = j + 1; c < s->joint_count; ++c)
            if (s->parents[c] == j) {
                child = c;
                break;
            }
        if (child < 0) return 0;
        if (ik_vec3_length(p->pose_ls[child].translation) > 0) {
            *length = ik_vec3_length(p->pose_ls[child].translation);
            *dir_ls = ik_vec3_normalize(ik_quat_rotate(through, p->pose_ls[child].translation));
            return 1;
        }
        through = ik_quat_mul(through, p->pose_ls[child].rotation);
        j = child;
    }
    return 0;
}

static void draw_limits(cairo_t *cr, const ikc_camera *cam, const ikc_panel *p, double px, double py) {
    int j, k;
    const int steps = 32;
    if (!p->constraints) return;
    for (j = 0; j < p->skeleton->joint_count; ++j) {
        const ik_constraint *c = &p->constraints[j];
        ik_vec3 dir_ls, origin = ik_mat4_translation(&p->model_ms[j]);
        ik_real length, radius;
        ik_mat4 frame;
        ikc_page_point o = ikc_camera_to_page(cam, origin, px, py);
        if (c->type != IK_CONSTRAINT_HINGE && c->type != IK_CONSTRAINT_CONE_TWIST) continue;
        if (p->highlight_count > 0 && !is_highlighted(p, j)) continue;
        if (!bone_direction_ls(p, j, &dir_ls, &length)) continue;
        frame = reference_frame(p, j, c);
        radius = length * (ik_real)0.45;
        cairo_new_path(cr);
        if (c->type == IK_CONSTRAINT_HINGE) {
            /* Directions the bone may take: dir turned about the hinge axis
             * by every angle in [min, max]; a wedge from the joint, or the
             * whole circle for a turn or more. */
            ik_real span = c->max_angle - c->min_angle;
            const int full_turn = span >= 2 * IK_PI - (ik_real)1e-3;
            if (span <= 0) continue;
            if (full_turn) {
                span = 2 * IK_PI;
                radius = length * (ik_real)0.3; /* a whole circle at 0.45 crowds the bones near it */
            } else {
                cairo_move_to(cr, o.x, o.y);
            }
            for (k = 0; k <= steps; ++k) {
                ik_real a = c->min_angle + span * (ik_real)k / (ik_real)steps;
                ik_vec3 d = ik_quat_rotate(ik_quat_from_axis_angle(c->axis, a), dir_ls);
                ik_vec3 q = ik_vec3_mad(origin, ik_vec3_normalize(ik_mat4_transform_vector(&frame, d)), radius);
                ikc_page_point pp = ikc_camera_to_page(cam, q, px, py);
                if (full_turn && k == 0)
                    cairo_move_to(cr, pp.x, pp.y);
                else
                    cairo_line_to(cr, pp.x, pp.y);
            }
            cairo_close_path(cr);
        } else {
            /* The rim of the cone: directions at the cone angle from the
             * reference bone direction, all the way round. */
            ik_vec3 e1 = ik_vec3_any_perpendicular(dir_ls), e2 = ik_vec3_cross(dir_ls, e1);
            ik_real cone = c->cone_angle;
            if (cone >= ik_rad(179)) continue;
            for (k = 0; k <= steps; ++k) {
                ik_real t = 2 * IK_PI * (ik_real)k / (ik_real)steps;
                ik_vec3 d =
                    ik_vec3_add(ik_vec3_scale(dir_ls, IK_COS(cone)),
                                ik_vec3_scale(ik_vec3_add(ik_vec3_scale(e1, IK_COS(t)), ik_vec3_scale(e2, IK_SIN(t))),
                                              IK_SIN(cone)));
                ik_vec3 q = ik_vec3_mad(origin, ik_vec3_normalize(ik_mat4_transform_vector(&frame, d)), radius);
                ikc_page_point pp = ikc_camera_to_page(cam, q, px, py);
                if (k == 0)
                    cairo_move_to(cr, pp.x, pp.y);
                else
                    cairo_line_to(cr, pp.x, pp.y);
                if (k % 8 == 0 && k < steps) {
                    cairo_move_to(cr, o.x, o.y);
                    cairo_line_to(cr, pp.x, pp.y);
                    cairo_move_to(cr, pp.x, pp.y);
                }
            }
        }
        set_rgb(cr, COLOR_LIMIT, 0.22);
        cairo_fill_preserve(cr);
        set_rgb(cr, COLOR_LIMIT, 0.9);
        cairo_set_line_width(cr, 1);
        cairo_stroke(cr);
    }
}

/* ---- panels ------------------------------------------------------------------ */

/* Lambert shading under a light from above, front and left; faces drawn
 * from the farthest to the nearest, so nearer faces cover farther ones. */
static void draw_ground_faces(cairo_t *cr, const ikc_camera *cam, ikc_face_list *l, double px, double py, double unit) {
    ik_vec3 light = ik_vec3_normalize(ik_v3((ik_real)0.35, 1, (ik_real)0.55));
    int i, c;
    ikc_ground_faces_order(l, cam);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    for (i = 0; i < l->count; ++i) {
        const ikc_ground_face *f = &l->faces[i];
        double shade = 0.55 + 0.45 * fabs((double)ik_vec3_dot(f->quad.normal_ms, light));
        cairo_new_path(cr);
        for (c = 0; c < 4; ++c) {
            ikc_page_point q = ikc_camera_to_page(cam, f->quad.corner_ms[c], px, py);
            if (c == 0)
                cairo_move_to(cr, q.x, q.y);
            else
                cairo_line_to(cr, q.x, q.y);
        }
        cairo_close_path(cr);
        cairo_set_source_rgb(cr, 0.86 * shade, 0.83 * shade, 0.76 * shade);
        cairo_fill_preserve(cr);
        cairo_set_source_rgba(cr, 0.35, 0.33, 0.3, 0.55);
        cairo_set_line_width(cr, fmax(0.6, unit * 0.35));
        cairo_stroke(cr);
    }
}

static void draw_ground(cairo_t *cr, const ikc_camera *cam, const ikc_picture *pic, ikc_bounds b, double px, double py,
                        double pw, double ph) {
    ik_real extent = ikc_bounds_extent(b);
    ik_real step = ikc_grid_step(extent), margin = extent * (ik_real)0.1;
    int k, count;
    ik_real x0 = (ik_real)floor((double)((b.lo.x - margin) / step)) * step;
    ik_real z0 = (ik_real)floor((double)((b.lo.z - margin) / step)) * step;
    ik_real x1 = b.hi.x + margin, z1 = b.hi.z + margin, gy = pic->ground_y;
    cairo_save(cr);
    cairo_rectangle(cr, px, py - ph, pw, ph);
    cairo_clip(cr);
    if (pic->view == IKC_VIEW_FRONT || pic->view == IKC_VIEW_SIDE) {
        /* Edge-on: the ground is a line with a shaded strip below it. */
        ikc_page_point g = ikc_camera_to_page(cam, ik_v3(0, gy, 0), px, py);
        set_rgb(cr, 0xeef0f3u, 1);
        cairo_rectangle(cr, px, g.y, pw, py - g.y);
        cairo_fill(cr);
        set_rgb(cr, 0x8a939c, 1);
        cairo_set_line_width(cr, 1.5);
        cairo_move_to(cr, px, g.y);
        cairo_line_to(cr, px + pw, g.y);
        cairo_stroke(cr);
        /* tick marks every grid step along the visible axis */
        set_rgb(cr, 0xaab2ba, 1);
        cairo_set_line_width(cr, 1);
        {
            ik_real from = pic->view == IKC_VIEW_FRONT ? x0 : z0, to = pic->view == IKC_VIEW_FRONT ? x1 : z1;
            count = ikc_grid_count(from, to, step);
            for (k = 0; k < count; ++k) {
                ik_real t = (ik_real)((double)from + k * (double)step);
                ikc_page_point m =
                    ikc_camera_to_page(cam, pic->view == IKC_VIEW_FRONT ? ik_v3(t, gy, 0) : ik_v3(0, gy, t), px, py);
                cairo_move_to(cr, m.x, m.y);
                cairo_line_to(cr, m.x, m.y + 5);
            }
        }
        cairo_stroke(cr);
    } else {
        set_rgb(cr, COLOR_GRID, 1);
        cairo_set_line_width(cr, 0.8);
        count = ikc_grid_count(x0, x1, step);
        for (k = 0; k < count; ++k) {
            ik_real x = (ik_real)((double)x0 + k * (double)step);
            ikc_page_point a = ikc_camera_to_page(cam, ik_v3(x, gy, z0), px, py),
                           c = ikc_camera_to_page(cam, ik_v3(x, gy, z1), px, py);
            cairo_move_to(cr, a.x, a.y);
            cairo_line_to(cr, c.x, c.y);
        }
        count = ikc_grid_count(z0, z1, step);
        for (k = 0; k < count; ++k) {
            ik_real z = (ik_real)((double)z0 + k * (double)step);
            ikc_page_point a = ikc_camera_to_page(cam, ik_v3(x0, gy, z), px, py),
                           c = ikc_camera_to_page(cam, ik_v3(x1, gy, z), px, py);
            cairo_move_to(cr, a.x, a.y);
            cairo_line_to(cr, c.x, c.y);
        }
        cairo_stroke(cr);
    }
    cairo_restore(cr);
}

/* Bones over a mesh are drawn at `thin` times their width (1 without one);
 * the pose's bones and joint dots (not a ghost's) go into `cover`. */
static void draw_skeleton(cairo_t *cr, const ikc_camera *cam, const ikc_panel *p, const ik_mat4 *model_ms, double px,
                          double py, double unit, int ghost, double thin, ikc_cover *cover) {
    const ik_skeleton *s = p->skeleton;
    int j;
    for (j = 0; j < s->joint_count; ++j) {
        int parent = s->parents[j];
        ikc_page_point a, b;
        double len, w0;
        if (parent < 0) continue;
        a = ikc_camera_to_page(cam, ik_mat4_translation(&model_ms[parent]), px, py);
        b = ikc_camera_to_page(cam, ik_mat4_translation(&model_ms[j]), px, py);
        len = hypot(b.x - a.x, b.y - a.y);
        w0 = fmin(fmax(len * 0.16, unit * 1.2), unit * 5) * thin;
        cairo_new_path(cr);
        tapered_bone(cr, a, b, w0, w0 * 0.35);
        if (!ghost && len > 1e-9) {
            double nx = -(b.y - a.y) / len * w0 / 2, ny = (b.x - a.x) / len * w0 / 2;
            ikc_cover_quad(cover, a.x + nx, a.y + ny, b.x + nx * 0.35, b.y + ny * 0.35, b.x - nx * 0.35,
                           b.y - ny * 0.35, a.x - nx, a.y - ny);
        }
        if (ghost) {
            set_rgb(cr, COLOR_GHOST, 0.35);
        } else {
            set_rgb(cr, is_highlighted(p, j) && is_highlighted(p, parent) ? COLOR_ACCENT : COLOR_BONE, 0.92);
        }
        cairo_fill(cr);
    }
    if (ghost) return;
    for (j = 0; j < s->joint_count; ++j) {
        ikc_page_point a = ikc_camera_to_page(cam, ik_mat4_translation(&model_ms[j]), px, py);
        double r = (is_highlighted(p, j) ? unit * 2.2 : unit * 1.5) * thin;
        ikc_cover_quad(cover, a.x - r, a.y - r, a.x + r, a.y - r, a.x + r, a.y + r, a.x - r, a.y + r);
        cairo_new_path(cr);
        cairo_arc(cr, a.x, a.y, r, 0, TWO_PI);
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_fill_preserve(cr);
        set_rgb(cr, is_highlighted(p, j) ? COLOR_ACCENT : 0x1d2d44u, 1);
        cairo_set_line_width(cr, unit * 0.7 * thin);
        cairo_stroke(cr);
    }
}

/* The skinned mesh's visible faces, farthest first, each filled in its
 * shade (grown by half a pixel, mesh_view.c, so that antialiasing leaves no
 * seams between neighbours). */
static void draw_mesh(cairo_t *cr, const ikc_camera *cam, const ikc_panel *p, double px, double py, ikc_cover *cover) {
    ikc_mesh_face *faces = (ikc_mesh_face *)malloc(((size_t)p->mesh->triangle_count + 1) * sizeof *faces);
    int count, i;
    if (!faces) return;
    count = ikc_mesh_faces(p->mesh, p->mesh_ms, cam, px, py, faces);
    for (i = 0; i < count; ++i) {
        const ikc_mesh_face *f = &faces[i];
        cairo_move_to(cr, f->x[0], f->y[0]);
        cairo_line_to(cr, f->x[1], f->y[1]);
        cairo_line_to(cr, f->x[2], f->y[2]);
        cairo_close_path(cr);
        cairo_set_source_rgb(cr, f->rgb[0], f->rgb[1], f->rgb[2]);
        cairo_fill(cr);
        ikc_cover_add(cover, f->x[0], f->y[0], f->x[1], f->y[1], f->x[2], f->y[2]);
    }
    free(faces);
}

/* The cubes' faces that face the camera (counter-clockwise seen from
 * outside, so clockwise on the page, as ikc_mesh_faces tells them), each
 * shaded by how squarely it faces a light over the camera's left shoulder
 * and outlined; a cube's visible faces never overlap, so their order does
 * not matter. */
static void draw_cubes(cairo_t *cr, const ikc_camera *cam, const ikc_panel *p, double px, double py, double unit,
                       ikc_cover *cover) {
    static const int faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    ik_vec3 light = ik_vec3_normalize(ik_vec3_add(ik_vec3_add(cam->forward, ik_vec3_scale(cam->up, (ik_real)0.6)),
                                                  ik_vec3_scale(cam->right, (ik_real)-0.35)));
    int c, f, k;
    for (c = 0; c < p->cube_count; ++c)
        for (f = 0; f < 6; ++f) {
            ik_vec3 q[4];
            ikc_page_point pp[4];
            double area, shade;
            ik_vec3 n;
            for (k = 0; k < 4; ++k) {
                q[k] = ikc_cube_corner(&p->cubes_ms[c], faces[f][k]);
                pp[k] = ikc_camera_to_page(cam, q[k], px, py);
            }
            area = (pp[1].x - pp[0].x) * (pp[2].y - pp[0].y) - (pp[1].y - pp[0].y) * (pp[2].x - pp[0].x);
            if (!(area < 0)) continue;
            n = ik_vec3_normalize(ik_vec3_cross(ik_vec3_sub(q[1], q[0]), ik_vec3_sub(q[2], q[0])));
            shade = 0.45 + 0.55 * fmax(0, (double)ik_vec3_dot(n, light));
            cairo_new_path(cr);
            for (k = 0; k < 4; ++k) {
                if (k == 0)
                    cairo_move_to(cr, pp[k].x, pp[k].y);
                else
                    cairo_line_to(cr, pp[k].x, pp[k].y);
            }
            cairo_close_path(cr);
            cairo_set_source_rgb(cr, 0.18 * shade, 0.56 * shade, 0.62 * shade);
            cairo_fill_preserve(cr);
            ikc_cover_quad(cover, pp[0].x, pp[0].y, pp[1].x, pp[1].y, pp[2].x, pp[2].y, pp[3].x, pp[3].y);
            cairo_set_source_rgba(cr, 0.08, 0.25, 0.3, 0.9);
            cairo_set_line_width(cr, fmax(0.8, unit * 0.4));
            cairo_stroke(cr);
        }
}

/* Text width and height at the current font size (ikc_measure_text). */
static void measure_text(void *context, const char *text, double *width, double *height) {
    cairo_t *cr = (cairo_t *)context;
    cairo_text_extents_t ext;
    cairo_font_extents_t font;
    cairo_text_extents(cr, text, &ext);
    cairo_font_extents(cr, &font);
    *width = ext.x_advance;
    *height = font.ascent + font.descent;
}

/* Joint names in the margin beside the figure (label_layout.h), each with
 * a thin leader line to its joint; without bones, a dot marks each named
 * joint. The layout goes to `report` when asked for, else it is freed. */
static void draw_labels(cairo_t *cr, const ikc_camera *cam, const ikc_panel *p, int bones_drawn, double x, double y,
                        double w, double h, double top, double bottom, double unit, ikc_cover *cover,
                        ikc_panel_layout *report) {
    ikc_panel_layout l;
    double size = fmax(9.5, unit * 4.2);
    int i, pass;
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
    if (!ikc_label_layout(cam, p, x, y, w, h, top, bottom, unit * 2.2, bones_drawn, cover, measure_text, cr, &l))
        return;
    /* the leaders, a white halo under each so it shows on the body, then the names */
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    for (pass = 0; pass < 2; ++pass)
        for (i = 0; i < l.label_count; ++i) {
            const double *leader = l.labels[i].leader;
            cairo_new_path(cr);
            cairo_move_to(cr, leader[0], leader[1]);
            cairo_line_to(cr, leader[2], leader[3]);
            if (pass == 0)
                cairo_set_source_rgba(cr, 1, 1, 1, 0.75);
            else
                set_rgb(cr, 0x44505cu, 0.85);
            cairo_set_line_width(cr, pass == 0 ? fmax(2.2, unit * 0.9) : fmax(0.7, unit * 0.3));
            cairo_stroke(cr);
        }
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    for (i = 0; i < l.label_count; ++i) {
        const ikc_label *lab = &l.labels[i];
        ikc_page_point a = l.joints[lab->joint];
        if (!bones_drawn) {
            cairo_new_path(cr);
            cairo_arc(cr, a.x, a.y, unit * 1.3, 0, TWO_PI);
            set_rgb(cr, 0x1d2d44u, 0.85);
            cairo_fill(cr);
        }
        label(cr, lab->text_x, lab->text_y, lab->text, size, 0x44505cu);
    }
    if (report)
        *report = l;
    else
        ikc_panel_layout_free(&l);
}

static void draw_panel(cairo_t *cr, const ikc_camera *cam, const ikc_picture *pic, const ikc_panel *p, ikc_bounds b,
                       ikc_face_list *faces, double x, double y, double w, double h, double unit,
                       ikc_panel_layout *report) {
    double base = y + h; /* page y of the panel's bottom edge */
    double title_bottom = p->title ? y + fmax(15, unit * 7) + 5 : y;
    double caption_top = p->caption ? base - fmax(6, unit * 3.5) - fmax(11, unit * 4.4) - 2 : base;
    ikc_cover cover;
    int j;
    memset(&cover, 0, sizeof cover);
    cairo_save(cr);
    cairo_rectangle(cr, x, y, w, h);
    cairo_clip(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    if (faces->count > 0)
        draw_ground_faces(cr, cam, faces, x, base, unit);
    else if (pic->show_ground)
        draw_ground(cr, cam, pic, b, x, base, w, h);
    if (p->ghost_ms && !p->mesh) draw_skeleton(cr, cam, p, p->ghost_ms, x, base, unit, 1, 1, NULL);
    if (!p->mesh) draw_limits(cr, cam, p, x, base);
    /* props under the bones, so the hands show on them */
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    for (j = 0; j < p->rod_count; ++j) {
        ikc_page_point a = ikc_camera_to_page(cam, p->rods_ms[2 * j], x, base),
                       c = ikc_camera_to_page(cam, p->rods_ms[2 * j + 1], x, base);
        cairo_move_to(cr, a.x, a.y);
        cairo_line_to(cr, c.x, c.y);
        set_rgb(cr, 0x6b4423u, 1);
        cairo_set_line_width(cr, unit * 3.6);
        cairo_stroke_preserve(cr);
        set_rgb(cr, 0xa8763eu, 1);
        cairo_set_line_width(cr, unit * 2.2);
        cairo_stroke(cr);
        {
            double len = hypot(c.x - a.x, c.y - a.y), r = unit * 1.8;
            double nx = len > 0 ? -(c.y - a.y) / len * r : r, ny = len > 0 ? (c.x - a.x) / len * r : 0;
            double tx = len > 0 ? (c.x - a.x) / len * r : 0, ty = len > 0 ? (c.y - a.y) / len * r : 0;
            ikc_cover_quad(&cover, a.x + nx - tx, a.y + ny - ty, c.x + nx + tx, c.y + ny + ty, c.x - nx + tx,
                           c.y - ny + ty, a.x - nx - tx, a.y - ny - ty);
        }
    }
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    draw_cubes(cr, cam, p, x, base, unit, &cover);
    if (p->mesh) draw_mesh(cr, cam, p, x, base, &cover);
    /* over a mesh, the limits and the earlier pose show through it, faint */
    if (p->mesh) draw_limits(cr, cam, p, x, base);
    if (p->ghost_ms && p->mesh) draw_skeleton(cr, cam, p, p->ghost_ms, x, base, unit, 1, 0.6, NULL);
    if (!p->mesh || pic->bones) draw_skeleton(cr, cam, p, p->model_ms, x, base, unit, 0, p->mesh ? 0.45 : 1, &cover);
    /* dashed guide lines: gaze rays, poles */
    cairo_set_line_width(cr, unit * 0.8);
    {
        double dash[2];
        dash[0] = unit * 3;
        dash[1] = unit * 2;
        cairo_set_dash(cr, dash, 2, 0);
    }
    for (j = 0; j < p->line_count; ++j) {
        ikc_page_point a = ikc_camera_to_page(cam, p->lines_ms[2 * j], x, base),
                       c = ikc_camera_to_page(cam, p->lines_ms[2 * j + 1], x, base);
        cairo_move_to(cr, a.x, a.y);
        cairo_line_to(cr, c.x, c.y);
    }
    set_rgb(cr, 0x6c757d, 0.9);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    for (j = 0; j < p->target_count; ++j) {
        int reached = p->target_reached ? p->target_reached[j] : 1;
        ikc_page_point t = ikc_camera_to_page(cam, p->targets_ms[j], x, base);
        cross_mark(cr, t, unit * 3.2);
        cairo_set_line_width(cr, unit * 1.1);
        set_rgb(cr, reached ? COLOR_REACHED : COLOR_MISSED, 1);
        cairo_stroke(cr);
    }
    draw_labels(cr, cam, p, !p->mesh || pic->bones, x, y, w, h, title_bottom, caption_top, unit, &cover, report);
    ikc_cover_free(&cover);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    if (p->title) label(cr, x + 6, y + fmax(15, unit * 7), p->title, fmax(12, unit * 5.2), COLOR_TEXT);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    if (p->caption) label(cr, x + 6, base - fmax(6, unit * 3.5), p->caption, fmax(11, unit * 4.4), COLOR_TEXT);
    cairo_restore(cr);
    cairo_set_source_rgb(cr, 0.78, 0.8, 0.83);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, x + 0.5, y + 0.5, w - 1, h - 1);
    cairo_stroke(cr);
}

/* The prefix the labelled panels drop from their joints' names
 * (ikc_label_prefix), when they all drop the same one; else "". */
static void picture_prefix(const ikc_picture *pic, char *prefix) {
    char other[IKC_LABEL_PREFIX_MAX];
    int i, any = 0;
    prefix[0] = '\0';
    for (i = 0; i < pic->panel_count; ++i) {
        if (!pic->panels[i].label_joints) continue;
        ikc_label_prefix(pic->panels[i].skeleton, any ? other : prefix);
        if (any && strcmp(other, prefix) != 0) {
            prefix[0] = '\0';
            return;
        }
        any = 1;
    }
}

static void draw_picture(cairo_t *cr, const ikc_picture *pic) {
    int columns = pic->columns > 0 ? pic->columns : 1;
    int rows = (pic->panel_count + columns - 1) / columns, i;
    double header = pic->title ? 34 : 0;
    double pw = (double)pic->width / columns, ph = ((double)pic->height - header) / (rows > 0 ? rows : 1);
    double unit = fmax(1.0, fmin(pw, ph) / 220.0);
    ikc_bounds b = ikc_scene_bounds(pic);
    ik_real extent = ikc_bounds_extent(b);
    ik_vec3 center = ik_vec3_scale(ik_vec3_add(b.lo, b.hi), (ik_real)0.5);
    ikc_camera cam = ikc_camera_make(pic->view, center, extent > 0 ? extent : 1, pic->elevation);
    ikc_camera *cams = (ikc_camera *)malloc(((size_t)pic->panel_count + 1) * sizeof *cams);
    ikc_face_list faces = ikc_ground_faces(pic, b);
    if (!cams) {
        free(faces.faces);
        return;
    }
    ikc_camera_fit(cams, pic, &cam, pw, ph, fmax(22, unit * 10), fmax(6, unit * 3.5) + fmax(11, unit * 4.4) + 4);
    cairo_set_source_rgb(cr, 0.97, 0.975, 0.98);
    cairo_paint(cr);
    if (pic->title) {
        char prefix[IKC_LABEL_PREFIX_MAX], title[700];
        picture_prefix(pic, prefix);
        if (prefix[0])
            snprintf(title, sizeof title, "%.500s (joint names without '%s')", pic->title, prefix);
        else
            snprintf(title, sizeof title, "%.690s", pic->title);
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
        label(cr, 10, 23, title, 16, COLOR_TEXT);
    }
    for (i = 0; i < pic->panel_count; ++i) {
        double x = (i % columns) * pw, y = header + (i / columns) * ph;
        draw_panel(cr, &cams[i], pic, &pic->panels[i], b, &faces, x, y, pw, ph, unit,
                   pic->layouts ? &pic->layouts[i] : NULL);
    }
    free(faces.faces);
    free(cams);
}

/* 1 when `path` ends in .svg, .png or .pdf (its extension, lower case, in
 * ext [8]); else 0 with a message. */
static int picture_extension(const char *path, char *ext, char *error, size_t error_size) {
    ikc_extension(path, ext, 8);
    if (strcmp(ext, "png") == 0 || strcmp(ext, "svg") == 0 || strcmp(ext, "pdf") == 0) return 1;
    snprintf(error, error_size, "'%s': the picture's name must end in .svg, .png or .pdf", path);
    return 0;
}

int ikc_draw_to_file(const char *path, int width, int height, ikc_paint paint, const void *data, char *error,
                     size_t error_size) {
    char ext[8];
    ikc_atomic atomic;
    cairo_surface_t *surface;
    cairo_t *cr;
    cairo_status_t status;
    if (!picture_extension(path, ext, error, error_size)) return 0;
    if (!ikc_atomic_begin(&atomic, path)) {
        snprintf(error, error_size, "'%s': path too long", path);
        return 0;
    }
    if (strcmp(ext, "png") == 0)
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    else if (strcmp(ext, "svg") == 0)
        surface = cairo_svg_surface_create(atomic.temp_path, width, height);
    else
        surface = cairo_pdf_surface_create(atomic.temp_path, width, height);
    cr = cairo_create(surface);
    paint(cr, data);
    status = cairo_status(cr);
    cairo_destroy(cr);
    if (status == CAIRO_STATUS_SUCCESS && strcmp(ext, "png") == 0)
        status = cairo_surface_write_to_png(surface, atomic.temp_path);
    cairo_surface_finish(surface);
    if (status == CAIRO_STATUS_SUCCESS) status = cairo_surface_status(surface);
    cairo_surface_destroy(surface);
    if (status != CAIRO_STATUS_SUCCESS) {
        ikc_atomic_abort(&atomic);
        snprintf(error, error_size, "cannot write '%s': %s", path, cairo_status_to_string(status));
        return 0;
    }
    if (!ikc_atomic_commit(&atomic)) {
        snprintf(error, error_size, "cannot write '%s'", path);
        return 0;
    }
    return 1;
}

static void paint_picture(cairo_t *cr, const void *picture) { draw_picture(cr, (const ikc_picture *)picture); }

int ikc_draw_file(const ikc_picture *picture, const char *path, char *error, size_t error_size) {
    char ext[8];
    if (!picture_extension(path, ext, error, error_size)) return 0;
    if (!ikc_picture_check(picture, error, error_size)) return 0;
    return ikc_draw_to_file(path, picture->width, picture->height, paint_picture, picture, error, error_size);
}

/* Joint labels without collisions (label_layout.h): a greedy placement, the
 * joints in order of importance, each label at the first free spot of a
 * ring round its joint. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <ikit/skeleton.h>

#include "label_layout.h"

/* 1 when the boxes share any area. */
static int box_overlap(ikc_box a, ikc_box b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }

void ikc_panel_layout_free(ikc_panel_layout *l) {
    free(l->joints);
    free(l->marked);
    free(l->labels);
    memset(l, 0, sizeof *l);
}

static int listed(const int *list, int count, int joint) {
    int k;
    for (k = 0; k < count; ++k)
        if (list[k] == joint) return 1;
    return 0;
}

/* The joints to name, most important first, into `order`; returns how
 * many. Roles (label_joints 1): the panel's role joints when it has them,
 * else its highlighted joints and then the tips (`has_child` [joint_count]
 * is scratch); all (2): every joint. */
static int joints_to_name(const ikc_panel *p, int *order, unsigned char *has_child) {
    const ik_skeleton *s = p->skeleton;
    int n = 0, j;
    if (p->label_joints == 1 && p->role_joint_count > 0) {
        for (j = 0; j < p->role_joint_count; ++j)
            if (!listed(order, n, p->role_joints[j])) order[n++] = p->role_joints[j];
        return n;
    }
    if (p->label_joints == 1) {
        memset(has_child, 0, (size_t)s->joint_count);
        for (j = 0; j < s->joint_count; ++j)
            if (s->parents[j] >= 0) has_child[s->parents[j]] = 1;
        for (j = 0; j < s->joint_count; ++j)
            if (listed(p->highlight, p->highlight_count, j)) order[n++] = j;
        for (j = 0; j < s->joint_count; ++j)
            if (!has_child[j] && !listed(p->highlight, p->highlight_count, j)) order[n++] = j;
        return n;
    }
    if (p->label_joints == 2)
        for (j = 0; j < s->joint_count; ++j) order[n++] = j;
    return n;
}

static ikc_box marker_box(ikc_page_point q, double r) {
    ikc_box b;
    b.x0 = q.x - r;
    b.y0 = q.y - r;
    b.x1 = q.x + r;
    b.y1 = q.y + r;
    return b;
}

/* A label box of size (tw, th) placed at spot k of the rings round q, at
 * gap d from the joint: right, left, above and below first, then the
 * diagonals, then the same eight twice and three times as far. */
static ikc_box spot(ikc_page_point q, int k, double d, double tw, double th) {
    static const double dir[8][2] = {{1, 0}, {-1, 0}, {0, -1}, {0, 1}, {1, -1}, {-1, -1}, {1, 1}, {-1, 1}};
    double reach = d * (1 + k / 8), cx = q.x + dir[k % 8][0] * (reach + tw / 2), cy = q.y + dir[k % 8][1] * (reach + th / 2);
    ikc_box b;
    b.x0 = cx - tw / 2;
    b.x1 = cx + tw / 2;
    b.y0 = cy - th / 2;
    b.y1 = cy + th / 2;
    return b;
}

#define SPOTS 24

/* The panel's marker boxes as a summed-area table over square cells:
 * covered(cx, cy) is 1 where a marker box reaches into the cell, and
 * sum[(cy + 1) * (columns + 1) + cx + 1] = sum of covered over cells
 * (<= cx, <= cy), so the markers a box may touch are counted in four look-ups:
 *   S(x0..x1, y0..y1) = sum(x1, y1) - sum(x0 - 1, y1) - sum(x1, y0 - 1) + sum(x0 - 1, y0 - 1).
 * Cells are one pixel, or larger for pictures over 4 million pixels; a
 * label is kept off every cell a marker reaches into, so it may stay up to
 * a cell further from a marker than an exact test would need. */
typedef struct marker_table {
    double x0, y0, cell;
    int columns, rows;
    unsigned *sum; /* [(columns + 1) * (rows + 1)] */
} marker_table;

#define MARKER_TABLE_CELLS 4000000.0

/* Cell range [*c0, *c1] x [*r0, *r1] of page box b, clamped to the table;
 * 0 when b misses it. */
static int table_cells(const marker_table *t, ikc_box b, int *c0, int *r0, int *c1, int *r1) {
    double fx0 = floor((b.x0 - t->x0) / t->cell), fy0 = floor((b.y0 - t->y0) / t->cell);
    double fx1 = floor((b.x1 - t->x0) / t->cell), fy1 = floor((b.y1 - t->y0) / t->cell);
    if (!(fx1 >= 0 && fy1 >= 0 && fx0 < t->columns && fy0 < t->rows)) return 0; /* NaN misses too */
    *c0 = fx0 < 0 ? 0 : (int)fx0;
    *r0 = fy0 < 0 ? 0 : (int)fy0;
    *c1 = fx1 >= t->columns ? t->columns - 1 : (int)fx1;
    *r1 = fy1 >= t->rows ? t->rows - 1 : (int)fy1;
    return 1;
}

/* The table over the marked joints of `l` inside `panel`; 0 when out of memory. */
static int marker_table_build(marker_table *t, const ikc_panel_layout *l, ikc_box panel) {
    double area = (panel.x1 - panel.x0) * (panel.y1 - panel.y0);
    size_t stride;
    int j, c, r;
    t->x0 = panel.x0;
    t->y0 = panel.y0;
    t->cell = area > MARKER_TABLE_CELLS ? sqrt(area / MARKER_TABLE_CELLS) : 1;
    t->columns = (int)ceil((panel.x1 - panel.x0) / t->cell) + 1;
    t->rows = (int)ceil((panel.y1 - panel.y0) / t->cell) + 1;
    stride = (size_t)t->columns + 1;
    t->sum = (unsigned *)calloc(stride * ((size_t)t->rows + 1), sizeof *t->sum);
    if (!t->sum) return 0;
    for (j = 0; j < l->joint_count; ++j) {
        int c0, r0, c1, r1;
        if (!l->marked[j] || !table_cells(t, marker_box(l->joints[j], l->marker_radius), &c0, &r0, &c1, &r1))
            continue;
        for (r = r0; r <= r1; ++r)
            for (c = c0; c <= c1; ++c) t->sum[(size_t)(r + 1) * stride + (size_t)c + 1] = 1;
    }
    for (r = 1; r <= t->rows; ++r)
        for (c = 1; c <= t->columns; ++c)
            t->sum[(size_t)r * stride + (size_t)c] += t->sum[(size_t)(r - 1) * stride + (size_t)c] +
                                                       t->sum[(size_t)r * stride + (size_t)c - 1] -
                                                       t->sum[(size_t)(r - 1) * stride + (size_t)c - 1];
    return 1;
}

/* 1 when a marker box reaches into a cell that b touches. */
static int marker_near(const marker_table *t, ikc_box b) {
    size_t stride = (size_t)t->columns + 1;
    int c0, r0, c1, r1;
    if (!table_cells(t, b, &c0, &r0, &c1, &r1)) return 0;
    return t->sum[(size_t)(r1 + 1) * stride + (size_t)c1 + 1] - t->sum[(size_t)r0 * stride + (size_t)c1 + 1] -
               t->sum[(size_t)(r1 + 1) * stride + (size_t)c0] + t->sum[(size_t)r0 * stride + (size_t)c0] >
           0;
}

/* Free: inside the panel, over no placed label, marker or target. */
static int spot_free(ikc_box b, const ikc_panel_layout *l, const marker_table *markers, const ikc_box *targets,
                     int target_count, ikc_box panel) {
    int k;
    if (b.x0 < panel.x0 || b.y0 < panel.y0 || b.x1 > panel.x1 || b.y1 > panel.y1) return 0;
    if (marker_near(markers, b)) return 0;
    for (k = 0; k < l->label_count; ++k)
        if (box_overlap(b, l->labels[k].box)) return 0;
    for (k = 0; k < target_count; ++k)
        if (box_overlap(b, targets[k])) return 0;
    return 1;
}

int ikc_label_layout(const ikc_camera *cam, const ikc_panel *p, double x, double y, double w, double h,
                     double marker_radius, int all_marked, ikc_measure_text measure, void *context,
                     ikc_panel_layout *l) {
    int n = p->skeleton->joint_count, count, i, k;
    int *order = (int *)malloc(((size_t)n + (size_t)p->role_joint_count + 1) * sizeof *order);
    unsigned char *has_child = (unsigned char *)malloc((size_t)n + 1);
    ikc_box *targets = (ikc_box *)malloc(((size_t)p->target_count + 1) * sizeof *targets);
    ikc_box panel;
    marker_table markers;
    memset(l, 0, sizeof *l);
    markers.sum = NULL;
    l->joints = (ikc_page_point *)malloc(((size_t)n + 1) * sizeof *l->joints);
    l->marked = (unsigned char *)calloc((size_t)n + 1, 1);
    l->labels = (ikc_label *)malloc(((size_t)IKC_LABEL_TRIES + 1) * sizeof *l->labels);
    l->joint_count = n;
    l->marker_radius = marker_radius;
    if (!order || !has_child || !targets || !l->joints || !l->marked || !l->labels) {
        free(order);
        free(has_child);
        free(targets);
        ikc_panel_layout_free(l);
        return 0;
    }
    panel.x0 = x + 2;
    panel.y0 = y + 2;
    panel.x1 = x + w - 2;
    panel.y1 = y + h - 2;
    for (i = 0; i < n; ++i) {
        l->joints[i] = ikc_camera_to_page(cam, ik_mat4_translation(&p->model_ms[i]), x, y + h);
        l->marked[i] = (unsigned char)all_marked;
    }
    for (i = 0; i < p->target_count; ++i)
        targets[i] = marker_box(ikc_camera_to_page(cam, p->targets_ms[i], x, y + h), marker_radius * 2);
    count = joints_to_name(p, order, has_child);
    if (count > IKC_LABEL_TRIES) count = IKC_LABEL_TRIES;
    if (!all_marked)
        for (i = 0; i < count; ++i) l->marked[order[i]] = 1;
    if (!marker_table_build(&markers, l, panel)) {
        free(order);
        free(has_child);
        free(targets);
        ikc_panel_layout_free(l);
        return 0;
    }
    for (i = 0; i < count; ++i) {
        int j = order[i], shared = 0;
        const char *name = ik_skeleton_name(p->skeleton, j);
        double tw, th;
        if (!name[0]) continue;
        /* a joint on the spot of one already named (a pitch-yaw pair) is not named again */
        for (k = 0; k < l->label_count; ++k) {
            ikc_page_point o = l->joints[l->labels[k].joint];
            shared |= fabs(o.x - l->joints[j].x) < marker_radius && fabs(o.y - l->joints[j].y) < marker_radius;
        }
        if (shared) continue;
        measure(context, name, &tw, &th);
        tw += 4; /* the halo */
        th += 4;
        for (k = 0; k < SPOTS; ++k) {
            ikc_box b = spot(l->joints[j], k, marker_radius + 2, tw, th);
            if (!spot_free(b, l, &markers, targets, p->target_count, panel)) continue;
            l->labels[l->label_count].joint = j;
            l->labels[l->label_count].box = b;
            l->labels[l->label_count].text_x = b.x0 + 2;
            l->labels[l->label_count].text_y = b.y1 - 2 - th * 0.22;
            ++l->label_count;
            break;
        }
    }
    free(order);
    free(has_child);
    free(targets);
    free(markers.sum);
    return 1;
}

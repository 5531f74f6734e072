/* Joint labels in the margin beside the figure, with leader lines
 * (label_layout.h): the figure's silhouette as one covered span per pixel
 * row, then each label, most important first, at the best free place to the
 * left or right of those spans. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <ikit/skeleton.h>

#include "label_layout.h"

/* 1 when the boxes share any area. */
static int box_overlap(ikc_box a, ikc_box b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }

/* ---- what the figure covers ------------------------------------------------ */

int ikc_cover_add(ikc_cover *c, double ax, double ay, double bx, double by, double cx, double cy) {
    float *t;
    if (c->count == c->capacity) {
        int capacity = c->capacity ? 2 * c->capacity : 256;
        float *grown = (float *)realloc(c->xy, (size_t)capacity * 6 * sizeof *grown);
        if (!grown) return 0;
        c->xy = grown;
        c->capacity = capacity;
    }
    t = c->xy + (size_t)c->count * 6;
    t[0] = (float)ax;
    t[1] = (float)ay;
    t[2] = (float)bx;
    t[3] = (float)by;
    t[4] = (float)cx;
    t[5] = (float)cy;
    ++c->count;
    return 1;
}

int ikc_cover_quad(ikc_cover *c, double ax, double ay, double bx, double by, double cx, double cy, double dx,
                   double dy) {
    return ikc_cover_add(c, ax, ay, bx, by, cx, cy) && ikc_cover_add(c, ax, ay, cx, cy, dx, dy);
}

void ikc_cover_free(ikc_cover *c) {
    free(c->xy);
    memset(c, 0, sizeof *c);
}

void ikc_panel_layout_free(ikc_panel_layout *l) {
    free(l->joints);
    free(l->marked);
    free(l->labels);
    ikc_cover_free(&l->cover);
    memset(l, 0, sizeof *l);
}

/* ---- the prefix every name shares ------------------------------------------- */

static int is_separator(char c) { return c == ':' || c == '|' || c == '_' || c == '-' || c == '.' || c == ' '; }

void ikc_label_prefix(const ik_skeleton *s, char *prefix) {
    const char *first = NULL;
    size_t common = 0, k;
    int j, named = 0;
    prefix[0] = '\0';
    for (j = 0; j < s->joint_count; ++j) {
        const char *name = ik_skeleton_name(s, j);
        if (!name[0]) continue;
        ++named;
        if (!first) {
            first = name;
            common = strlen(name);
            continue;
        }
        for (k = 0; k < common && name[k] == first[k]; ++k) continue;
        common = k;
    }
    /* back to the last separator; every name must keep something after it */
    while (common > 0 && !is_separator(first[common - 1])) --common;
    if (named < 2 || common < 2 || common >= IKC_LABEL_PREFIX_MAX) return;
    for (j = 0; j < s->joint_count; ++j) {
        const char *name = ik_skeleton_name(s, j);
        if (name[0] && strlen(name) <= common) return;
    }
    memcpy(prefix, first, common);
    prefix[common] = '\0';
}

/* ---- the joints to name ------------------------------------------------------ */

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

/* ---- the silhouette, one span per row --------------------------------------- */

/* The figure's covered page x range in each row of `cell` pixels from y0:
 * lo[r] > hi[r] for a row it does not reach. Each triangle widens the rows
 * it crosses to the x range of its part inside the row's strip (the ends of
 * its edges clipped to the strip, and its corners inside it), so the spans
 * hold the figure exactly, filled across: a label left of a row's span (or
 * right of it) is clear of the figure and of every gap inside it. */
typedef struct row_spans {
    double y0, cell;
    int rows;
    double *lo, *hi; /* [rows] */
} row_spans;

static void widen(row_spans *r, int row, double x) {
    if (x < r->lo[row]) r->lo[row] = x;
    if (x > r->hi[row]) r->hi[row] = x;
}

/* Edge a-b clipped to the strip [s0, s1] of row `row`: its ends widen it. */
static void clip_edge(row_spans *r, int row, double s0, double s1, double ax, double ay, double bx, double by) {
    double t0, t1, lo = fmin(ay, by), hi = fmax(ay, by);
    if (hi < s0 || lo > s1) return;
    if (ay == by) {
        widen(r, row, ax);
        widen(r, row, bx);
        return;
    }
    t0 = (fmax(lo, s0) - ay) / (by - ay);
    t1 = (fmin(hi, s1) - ay) / (by - ay);
    widen(r, row, ax + (bx - ax) * t0);
    widen(r, row, ax + (bx - ax) * t1);
}

static void spans_add(row_spans *r, const float *t) {
    double ymin = fmin(t[1], fmin(t[3], t[5])), ymax = fmax(t[1], fmax(t[3], t[5]));
    double f0 = floor((ymin - r->y0) / r->cell), f1 = floor((ymax - r->y0) / r->cell);
    int row, k;
    if (!(f1 >= 0 && f0 < r->rows)) return; /* off the panel, or NaN */
    for (row = f0 < 0 ? 0 : (int)f0; row <= (f1 >= r->rows ? r->rows - 1 : (int)f1); ++row) {
        double s0 = r->y0 + row * r->cell, s1 = s0 + r->cell;
        for (k = 0; k < 3; ++k)
            clip_edge(r, row, s0, s1, t[2 * k], t[2 * k + 1], t[(2 * k + 2) % 6], t[(2 * k + 3) % 6]);
    }
}

/* Every row's span widened by `gap` pixels on each side and taken over the
 * rows within `gap` above and below: the figure grown by the gap. */
static int spans_grow(row_spans *r, double gap) {
    double *lo = (double *)malloc((size_t)r->rows * sizeof *lo + 1),
           *hi = (double *)malloc((size_t)r->rows * sizeof *hi + 1);
    int reach = (int)ceil(gap / r->cell), row, k;
    if (!lo || !hi) {
        free(lo);
        free(hi);
        return 0;
    }
    for (row = 0; row < r->rows; ++row) {
        lo[row] = 1e300;
        hi[row] = -1e300;
        for (k = row - reach; k <= row + reach; ++k) {
            if (k < 0 || k >= r->rows || r->lo[k] > r->hi[k]) continue;
            lo[row] = fmin(lo[row], r->lo[k] - gap);
            hi[row] = fmax(hi[row], r->hi[k] + gap);
        }
    }
    free(r->lo);
    free(r->hi);
    r->lo = lo;
    r->hi = hi;
    return 1;
}

/* The leftmost and rightmost covered x over the rows page y0..y1 reaches;
 * 0 when it reaches no covered row. */
static int spans_over(const row_spans *r, double y0, double y1, double *lo, double *hi) {
    double f0 = floor((y0 - r->y0) / r->cell), f1 = floor((y1 - r->y0) / r->cell);
    int row, any = 0;
    *lo = 1e300;
    *hi = -1e300;
    if (f0 < 0) f0 = 0;
    if (f1 > r->rows - 1) f1 = r->rows - 1;
    for (row = (int)f0; row <= (int)f1; ++row) {
        if (r->lo[row] > r->hi[row]) continue;
        *lo = fmin(*lo, r->lo[row]);
        *hi = fmax(*hi, r->hi[row]);
        any = 1;
    }
    return any;
}

/* ---- placing the labels ------------------------------------------------------- */

/* 1 when segment a-b passes within `clear` pixels of box `b`:
 * Liang-Barsky clipping of the segment against the box grown by `clear`. */
static int segment_hits_box(const double *segment, ikc_box b, double clear) {
    double ax = segment[0], ay = segment[1], t0 = 0, t1 = 1, dx = segment[2] - ax, dy = segment[3] - ay, p[4], q[4];
    int k;
    b.x0 -= clear;
    b.y0 -= clear;
    b.x1 += clear;
    b.y1 += clear;
    p[0] = -dx, q[0] = ax - b.x0;
    p[1] = dx, q[1] = b.x1 - ax;
    p[2] = -dy, q[2] = ay - b.y0;
    p[3] = dy, q[3] = b.y1 - ay;
    for (k = 0; k < 4; ++k) {
        if (p[k] == 0) {
            if (q[k] < 0) return 0;
            continue;
        }
        if (p[k] < 0)
            t0 = fmax(t0, q[k] / p[k]);
        else
            t1 = fmin(t1, q[k] / p[k]);
        if (t0 > t1) return 0;
    }
    return 1;
}

/* 1 when segments a-b and c-d cross (proper intersection). */
static int segments_cross(const double *a, const double *c) {
    double d1 = (a[2] - a[0]) * (c[1] - a[1]) - (a[3] - a[1]) * (c[0] - a[0]);
    double d2 = (a[2] - a[0]) * (c[3] - a[1]) - (a[3] - a[1]) * (c[2] - a[0]);
    double d3 = (c[2] - c[0]) * (a[1] - c[1]) - (c[3] - c[1]) * (a[0] - c[0]);
    double d4 = (c[2] - c[0]) * (a[3] - c[1]) - (c[3] - c[1]) * (a[2] - c[0]);
    return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

typedef struct placing {
    const ikc_panel_layout *l;
    const row_spans *spans;
    const ikc_box *targets;
    int target_count;
    const double *lines; /* the panel's guide lines on the page, four numbers each */
    int line_count;
    ikc_box band; /* where labels may go */
    double gap, marker_radius, centre_x, width;
} placing;

/* The box (tw x th, its vertical centre at cy) on `side` (-1 left, +1 right)
 * of joint q: against the figure's spans over its rows and clear of the
 * joint's marker, then slid outward past any label or target it would
 * overlap. 0 when it leaves the band. */
static int side_box(const placing *pl, ikc_page_point q, int side, double cy, double tw, double th, ikc_box *out) {
    ikc_box b;
    double lo, hi;
    int k, moved = 1, any = spans_over(pl->spans, cy - th / 2, cy + th / 2, &lo, &hi);
    b.y0 = cy - th / 2;
    b.y1 = cy + th / 2;
    if (side < 0) {
        b.x1 = q.x - pl->marker_radius - pl->gap;
        if (any && lo < b.x1) b.x1 = lo;
        b.x0 = b.x1 - tw;
    } else {
        b.x0 = q.x + pl->marker_radius + pl->gap;
        if (any && hi > b.x0) b.x0 = hi;
        b.x1 = b.x0 + tw;
    }
    while (moved) {
        moved = 0;
        if (b.x0 < pl->band.x0 || b.x1 > pl->band.x1 || b.y0 < pl->band.y0 || b.y1 > pl->band.y1) return 0;
        for (k = 0; k < pl->l->label_count + pl->target_count; ++k) {
            ikc_box o = k < pl->l->label_count ? pl->l->labels[k].box : pl->targets[k - pl->l->label_count];
            if (!box_overlap(b, o)) continue;
            if (side < 0) {
                b.x1 = o.x0 - 1;
                b.x0 = b.x1 - tw;
            } else {
                b.x0 = o.x1 + 1;
                b.x1 = b.x0 + tw;
            }
            moved = 1;
        }
    }
    *out = b;
    return 1;
}

/* The leader from q to the box's edge that faces it (the near side, at the
 * joint's height where the box spans it). */
static void leader_to(ikc_page_point q, const ikc_box *b, int side, double *leader) {
    leader[0] = q.x;
    leader[1] = q.y;
    leader[2] = side < 0 ? b->x1 : b->x0;
    leader[3] = fmin(fmax(q.y, b->y0 + 3), b->y1 - 3);
}

/* The cost of a place: its leader's length, more on the far side of the
 * figure (twice the joint's distance from the figure's middle, so a joint
 * off to one side is named on that side) and for each leader it crosses (a
 * fifth of the panel's width); -1 when its leader runs through or within 2
 * pixels of another label, or another's leader or a guide line through its
 * box. */
static double place_cost(const placing *pl, ikc_page_point q, int side, const ikc_box *box, const double *leader) {
    double cost = hypot(leader[2] - leader[0], leader[3] - leader[1]);
    int k;
    for (k = 0; k < pl->line_count; ++k)
        if (segment_hits_box(pl->lines + 4 * k, *box, 1)) return -1;
    if ((q.x - pl->centre_x) * side < 0) cost += 2 * fabs(q.x - pl->centre_x);
    for (k = 0; k < pl->l->label_count; ++k) {
        const ikc_label *o = &pl->l->labels[k];
        if (segment_hits_box(leader, o->box, 2) || segment_hits_box(o->leader, *box, 1)) return -1;
        if (segments_cross(leader, o->leader)) cost += pl->width * 0.2;
    }
    return cost;
}

/* Place one label of size tw x th for joint j: every height from the
 * joint's outward in steps of a third of the text's height, on both sides,
 * until no better place can come (a leader is at least as long as the
 * label is far from the joint's height). 0 when there is no room. */
static int place(const placing *pl, int j, double tw, double th, ikc_label *out) {
    ikc_page_point q = pl->l->joints[j];
    double step = fmax(2, th / 3), best = -1, reach = pl->band.y1 - pl->band.y0;
    int k, side;
    for (k = 0; k * step <= 2 * reach; ++k) {
        double dy = (k % 2 ? 1 : -1) * (double)((k + 1) / 2) * step;
        if (best >= 0 && fabs(dy) - th / 2 > best) break;
        for (side = -1; side <= 1; side += 2) {
            ikc_box b;
            double leader[4], cost;
            if (!side_box(pl, q, side, q.y + dy, tw, th, &b)) continue;
            leader_to(q, &b, side, leader);
            cost = place_cost(pl, q, side, &b, leader);
            if (cost < 0 || (best >= 0 && cost >= best)) continue;
            best = cost;
            out->joint = j;
            out->box = b;
            memcpy(out->leader, leader, sizeof leader);
        }
    }
    return best >= 0;
}

static ikc_box marker_box(ikc_page_point q, double r) {
    ikc_box b;
    b.x0 = q.x - r;
    b.y0 = q.y - r;
    b.x1 = q.x + r;
    b.y1 = q.y + r;
    return b;
}

/* The row spans of the cover and of the marked joints' markers over the
 * panel's rows (cells of a pixel, or larger past 4 million pixels), grown
 * by `gap`; 0 when out of memory. */
static int build_spans(row_spans *r, const ikc_panel_layout *l, double gap) {
    double area = (l->panel.x1 - l->panel.x0) * (l->panel.y1 - l->panel.y0);
    int k, j;
    r->y0 = l->panel.y0;
    r->cell = area > 4e6 ? sqrt(area / 4e6) : 1;
    r->rows = (int)ceil((l->panel.y1 - l->panel.y0) / r->cell) + 1;
    r->lo = (double *)malloc((size_t)r->rows * sizeof *r->lo);
    r->hi = (double *)malloc((size_t)r->rows * sizeof *r->hi);
    if (!r->lo || !r->hi) return 0;
    for (k = 0; k < r->rows; ++k) {
        r->lo[k] = 1e300;
        r->hi[k] = -1e300;
    }
    for (k = 0; k < l->cover.count; ++k) spans_add(r, l->cover.xy + (size_t)k * 6);
    for (j = 0; j < l->joint_count; ++j) {
        ikc_box m = marker_box(l->joints[j], l->marker_radius);
        float t[6];
        if (!l->marked[j]) continue;
        t[0] = (float)m.x0, t[1] = (float)m.y0, t[2] = (float)m.x1, t[3] = (float)m.y0, t[4] = (float)m.x1;
        t[5] = (float)m.y1;
        spans_add(r, t);
        t[2] = (float)m.x0, t[3] = (float)m.y1;
        spans_add(r, t);
    }
    return spans_grow(r, gap);
}

/* The figure's middle on the page: halfway across its widest spans. */
static double spans_centre(const row_spans *r, double fallback) {
    double lo = 1e300, hi = -1e300;
    int k;
    for (k = 0; k < r->rows; ++k)
        if (r->lo[k] <= r->hi[k]) {
            lo = fmin(lo, r->lo[k]);
            hi = fmax(hi, r->hi[k]);
        }
    return lo <= hi ? (lo + hi) / 2 : fallback;
}

int ikc_label_layout(const ikc_camera *cam, const ikc_panel *p, double x, double y, double w, double h, double top,
                     double bottom, double marker_radius, int all_marked, ikc_cover *cover, ikc_measure_text measure,
                     void *context, ikc_panel_layout *l) {
    int n = p->skeleton->joint_count, count = 0, i, k, ok;
    int *order = (int *)malloc(((size_t)n + (size_t)p->role_joint_count + 1) * sizeof *order);
    unsigned char *has_child = (unsigned char *)malloc((size_t)n + 1);
    ikc_box *targets = (ikc_box *)malloc(((size_t)p->target_count + 1) * sizeof *targets);
    double *lines = (double *)malloc(((size_t)p->line_count + 1) * 4 * sizeof *lines);
    row_spans spans;
    placing pl;
    memset(l, 0, sizeof *l);
    memset(&spans, 0, sizeof spans);
    l->cover = *cover;
    memset(cover, 0, sizeof *cover);
    l->joints = (ikc_page_point *)malloc(((size_t)n + 1) * sizeof *l->joints);
    l->marked = (unsigned char *)calloc((size_t)n + 1, 1);
    l->labels = (ikc_label *)malloc(((size_t)IKC_LABEL_TRIES + 1) * sizeof *l->labels);
    l->joint_count = n;
    l->marker_radius = marker_radius;
    l->panel.x0 = x;
    l->panel.y0 = y;
    l->panel.x1 = x + w;
    l->panel.y1 = y + h;
    l->band.x0 = x + 3;
    l->band.y0 = fmax(y + 3, top);
    l->band.x1 = x + w - 3;
    l->band.y1 = fmin(y + h - 3, bottom);
    ok = order && has_child && targets && lines && l->joints && l->marked && l->labels;
    if (ok) {
        for (i = 0; i < n; ++i) {
            l->joints[i] = ikc_camera_to_page(cam, ik_mat4_translation(&p->model_ms[i]), x, y + h);
            l->marked[i] = (unsigned char)all_marked;
        }
        for (i = 0; i < p->target_count; ++i)
            targets[i] = marker_box(ikc_camera_to_page(cam, p->targets_ms[i], x, y + h), marker_radius * 2);
        for (i = 0; i < 2 * p->line_count; ++i) {
            ikc_page_point e = ikc_camera_to_page(cam, p->lines_ms[i], x, y + h);
            lines[2 * i] = e.x;
            lines[2 * i + 1] = e.y;
        }
        count = joints_to_name(p, order, has_child);
        if (count > IKC_LABEL_TRIES) count = IKC_LABEL_TRIES;
        if (!all_marked)
            for (i = 0; i < count; ++i) l->marked[order[i]] = 1;
        if (count > 0) ikc_label_prefix(p->skeleton, l->prefix);
        ok = build_spans(&spans, l, marker_radius + 3);
    }
    if (ok) {
        pl.l = l;
        pl.spans = &spans;
        pl.targets = targets;
        pl.target_count = p->target_count;
        pl.lines = lines;
        pl.line_count = p->line_count;
        pl.band = l->band;
        pl.gap = 3;
        pl.marker_radius = marker_radius;
        pl.width = w;
        pl.centre_x = spans_centre(&spans, x + w / 2);
        for (i = 0; i < count; ++i) {
            int j = order[i], shared = 0;
            const char *name = ik_skeleton_name(p->skeleton, j), *text = name + strlen(l->prefix);
            double tw, th;
            if (!name[0]) continue;
            /* a joint on the spot of one already named (a pitch-yaw pair) is not named again */
            for (k = 0; k < l->label_count; ++k) {
                ikc_page_point o = l->joints[l->labels[k].joint];
                shared |= fabs(o.x - l->joints[j].x) < marker_radius && fabs(o.y - l->joints[j].y) < marker_radius;
            }
            if (shared) continue;
            ++l->wanted;
            measure(context, text, &tw, &th);
            tw += 4; /* the halo */
            th += 4;
            if (!place(&pl, j, tw, th, &l->labels[l->label_count])) continue;
            l->labels[l->label_count].text = text;
            l->labels[l->label_count].text_x = l->labels[l->label_count].box.x0 + 2;
            l->labels[l->label_count].text_y = l->labels[l->label_count].box.y1 - 2 - th * 0.22;
            ++l->label_count;
        }
    }
    free(order);
    free(has_child);
    free(targets);
    free(lines);
    free(spans.lo);
    free(spans.hi);
    if (!ok) ikc_panel_layout_free(l);
    return ok;
}

/* Channel pictures for `ikc fit --plot`: samples, fitted curve, keys and
 * tangents over time. See curve_plot.h. */
#include "curve_plot.h"

#include <cairo.h>
#include <math.h>
#include <stdio.h>

#include "draw.h"

#define TWO_PI 6.283185307179586
#define WIDTH 1400
#define HEIGHT 640
#define MARGIN_LEFT 80.0
#define MARGIN_RIGHT 30.0
#define MARGIN_TOP 60.0
#define MARGIN_BOTTOM 70.0

static const unsigned component_colours[4] = {0xd62728, 0x2ca02c, 0x1f77b4, 0x7f7f7f};
static const char *const component_names[2][4] = {{"x", "y", "z", ""}, {"x", "y", "z", "w"}};

typedef struct frame_map {
    double t0, t1, v0, v1;
} frame_map;

static double page_x(const frame_map *m, double t) {
    return MARGIN_LEFT + (t - m->t0) / (m->t1 - m->t0) * (WIDTH - MARGIN_LEFT - MARGIN_RIGHT);
}
static double page_y(const frame_map *m, double v) {
    return HEIGHT - MARGIN_BOTTOM - (v - m->v0) / (m->v1 - m->v0) * (HEIGHT - MARGIN_TOP - MARGIN_BOTTOM);
}

static void colour(cairo_t *cr, unsigned hex, double alpha) {
    cairo_set_source_rgba(cr, ((hex >> 16) & 255) / 255.0, ((hex >> 8) & 255) / 255.0, (hex & 255) / 255.0, alpha);
}

/* The value range of the samples and keys, padded by 5 %. */
static frame_map map_of(const ikc_curve_plot *p, int width) {
    frame_map m;
    int i, k;
    m.t0 = (double)p->from;
    m.t1 = (double)p->to;
    if (!(m.t1 > m.t0)) m.t1 = m.t0 + 1;
    m.v0 = 1e300, m.v1 = -1e300;
    for (i = 0; i < p->frame_count * width; ++i) {
        double t = (double)(i / width) * (double)p->frame_time;
        if (t < m.t0 || t > m.t1) continue;
        m.v0 = fmin(m.v0, (double)p->samples[i]);
        m.v1 = fmax(m.v1, (double)p->samples[i]);
    }
    for (k = 0; k < p->fitted->key_count; ++k)
        for (i = 0; i < width && (double)p->fitted->times[k] >= m.t0 && (double)p->fitted->times[k] <= m.t1; ++i) {
            double v = (double)p->fitted->values[(3 * k + 1) * width + i];
            m.v0 = fmin(m.v0, v);
            m.v1 = fmax(m.v1, v);
        }
    if (!(m.v1 - m.v0 > 1e-9)) m.v0 -= 0.5, m.v1 += 0.5;
    m.v0 -= 0.05 * (m.v1 - m.v0);
    m.v1 += 0.05 * (m.v1 - m.v0);
    return m;
}

static void draw_axes(cairo_t *cr, const ikc_curve_plot *p, const frame_map *m) {
    char text[64];
    int i;
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, MARGIN_LEFT, MARGIN_TOP, WIDTH - MARGIN_LEFT - MARGIN_RIGHT,
                    HEIGHT - MARGIN_TOP - MARGIN_BOTTOM);
    cairo_stroke(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 12);
    for (i = 0; i <= 10; ++i) {
        double t = m->t0 + (m->t1 - m->t0) * i / 10, v = m->v0 + (m->v1 - m->v0) * i / 10;
        snprintf(text, sizeof text, "%.2f s", t);
        cairo_move_to(cr, page_x(m, t) - 18, HEIGHT - MARGIN_BOTTOM + 18);
        cairo_show_text(cr, text);
        snprintf(text, sizeof text, "%.3g", v);
        cairo_move_to(cr, 8, page_y(m, v) + 4);
        cairo_show_text(cr, text);
    }
    cairo_set_font_size(cr, 16);
    cairo_move_to(cr, MARGIN_LEFT, 26);
    cairo_show_text(cr, p->title ? p->title : "");
    cairo_set_font_size(cr, 12);
    cairo_move_to(cr, MARGIN_LEFT, 46);
    cairo_show_text(cr,
                    "dots: the take's frames   line: fitted Hermite curve   circles: keys   whiskers: in/out tangents");
}

/* Component c of the channel at time t as keyed (the Hermite of glTF's
 * Appendix C, before a rotation's normalisation), clamped to the keys. */
static double hermite_component(const ik_channel *ch, int width, int c, double t) {
    int key = 0;
    double u, d;
    const ik_real *a, *b;
    while (key + 1 < ch->key_count && (double)ch->times[key + 1] <= t) ++key;
    if (key + 1 >= ch->key_count || t <= (double)ch->times[0]) return (double)ch->values[(3 * key + 1) * width + c];
    a = ch->values + 3 * key * width;
    b = a + 3 * width;
    d = (double)(ch->times[key + 1] - ch->times[key]);
    u = (t - (double)ch->times[key]) / d;
    return (2 * u * u * u - 3 * u * u + 1) * a[width + c] + (u * u * u - 2 * u * u + u) * d * a[2 * width + c] +
           (-2 * u * u * u + 3 * u * u) * b[width + c] + (u * u * u - u * u) * d * b[c];
}

/* One component: its samples, the fitted curve sampled four times a frame,
 * its keys and tangent whiskers (a third of the neighbouring segment). */
static void draw_component(cairo_t *cr, const ikc_curve_plot *p, const frame_map *m, int width, int c) {
    const ik_channel *ch = p->fitted;
    int f, k, steps = 400;
    cairo_save(cr);
    cairo_rectangle(cr, MARGIN_LEFT, MARGIN_TOP, WIDTH - MARGIN_LEFT - MARGIN_RIGHT,
                    HEIGHT - MARGIN_TOP - MARGIN_BOTTOM);
    cairo_clip(cr);
    colour(cr, component_colours[c], 0.45);
    for (f = 0; f < p->frame_count; ++f) {
        cairo_arc(cr, page_x(m, (double)f * (double)p->frame_time), page_y(m, (double)p->samples[f * width + c]), 1.6,
                  0, TWO_PI);
        cairo_fill(cr);
    }
    colour(cr, component_colours[c], 1);
    cairo_set_line_width(cr, 1.5);
    for (f = 0; f <= steps; ++f) {
        double t = m->t0 + (m->t1 - m->t0) * f / steps, y = page_y(m, hermite_component(ch, width, c, t));
        if (f == 0)
            cairo_move_to(cr, page_x(m, t), y);
        else
            cairo_line_to(cr, page_x(m, t), y);
    }
    cairo_stroke(cr);
    cairo_set_line_width(cr, 1);
    for (k = 0; k < ch->key_count; ++k) {
        double t = (double)ch->times[k], value = (double)ch->values[(3 * k + 1) * width + c];
        double in = (double)ch->values[3 * k * width + c], out = (double)ch->values[(3 * k + 2) * width + c];
        double before = k > 0 ? (t - (double)ch->times[k - 1]) / 3 : 0;
        double after = k + 1 < ch->key_count ? ((double)ch->times[k + 1] - t) / 3 : 0;
        cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
        cairo_move_to(cr, page_x(m, t - before), page_y(m, value - in * before));
        cairo_line_to(cr, page_x(m, t + after), page_y(m, value + out * after));
        cairo_stroke(cr);
        colour(cr, component_colours[c], 1);
        cairo_arc(cr, page_x(m, t), page_y(m, value), 3.5, 0, TWO_PI);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_stroke(cr);
    }
    cairo_restore(cr);
}

static void draw_plot(cairo_t *cr, const void *context) {
    const ikc_curve_plot *p = (const ikc_curve_plot *)context;
    int width = ik_channel_width(p->fitted->path), c;
    frame_map m = map_of(p, width);
    draw_axes(cr, p, &m);
    for (c = 0; c < width; ++c) {
        draw_component(cr, p, &m, width, c);
        colour(cr, component_colours[c], 1);
        cairo_move_to(cr, WIDTH - MARGIN_RIGHT - 120 + 28 * c, HEIGHT - MARGIN_BOTTOM + 44);
        cairo_show_text(cr, component_names[width == 4][c]);
    }
}

int ikc_curve_plot_file(const ikc_curve_plot *plot, const char *path, char *error, size_t error_size) {
    if (!plot->fitted || plot->fitted->interpolation != IK_INTERP_CUBICSPLINE || plot->frame_count < 1 ||
        !plot->samples) {
        snprintf(error, error_size, "nothing to plot");
        return 0;
    }
    return ikc_draw_to_file(path, WIDTH, HEIGHT, draw_plot, plot, error, error_size);
}

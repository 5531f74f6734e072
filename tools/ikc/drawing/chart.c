/* Line charts with cairo: a title, then one row per plot, stacked, all on
 * the same time axis (seconds along the bottom of each row). */
#include <cairo.h>
#include <math.h>
#include <stdio.h>

#include "chart.h"
#include "draw.h"
#include "scene_view.h"

#define MARGIN_LEFT 64.0
#define MARGIN_RIGHT 16.0
#define ROW_GAP 30.0
#define HEADER 36.0

static void set_rgb(cairo_t *cr, unsigned hex, double alpha) {
    cairo_set_source_rgba(cr, ((hex >> 16) & 255) / 255.0, ((hex >> 8) & 255) / 255.0, (hex & 255) / 255.0, alpha);
}

static void text_at(cairo_t *cr, double x, double y, const char *text, double size, double align) {
    cairo_text_extents_t ext;
    cairo_set_font_size(cr, size);
    cairo_text_extents(cr, text, &ext);
    cairo_move_to(cr, x - align * ext.x_advance, y);
    cairo_show_text(cr, text);
}

/* Page y of value v in a row drawn from top y0 with height h. */
static double value_y(const ikc_chart_row *row, double v, double y0, double h) {
    double span = row->high > row->low ? row->high - row->low : 1;
    double t = (v - row->low) / span;
    return y0 + h * (1 - (t < 0 ? 0 : t > 1 ? 1 : t));
}

/* Axes: a frame, value ticks at the row's low, middle and high, and time
 * ticks every round step (ikc_grid_step) of seconds. */
static void draw_axes(cairo_t *cr, const ikc_chart *c, const ikc_chart_row *row, double y0, double w, double h) {
    double duration = c->step * (c->count > 1 ? c->count - 1 : 1), tick = ikc_grid_step((ik_real)duration);
    int n = ikc_grid_count(0, duration, tick), i;
    char buf[32];
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_rectangle(cr, MARGIN_LEFT, y0, w, h);
    cairo_fill(cr);
    set_rgb(cr, 0xd5d9de, 1);
    cairo_set_line_width(cr, 0.6);
    for (i = 0; i < n; ++i) {
        double x = MARGIN_LEFT + w * (i * tick) / duration;
        cairo_move_to(cr, x, y0);
        cairo_line_to(cr, x, y0 + h);
    }
    cairo_stroke(cr);
    set_rgb(cr, 0x222222, 1);
    for (i = 0; i < n; ++i) {
        snprintf(buf, sizeof buf, "%g", i * tick);
        text_at(cr, MARGIN_LEFT + w * (i * tick) / duration, y0 + h + 11, buf, 9, 0.5);
    }
    for (i = 0; i < 3; ++i) {
        double v = row->low + (row->high - row->low) * i / 2;
        snprintf(buf, sizeof buf, "%.3g", v);
        text_at(cr, MARGIN_LEFT - 4, value_y(row, v, y0, h) + 3, buf, 9, 1);
    }
    cairo_rectangle(cr, MARGIN_LEFT, y0, w, h);
    cairo_set_line_width(cr, 0.8);
    cairo_stroke(cr);
    text_at(cr, MARGIN_LEFT, y0 - 5, row->title, 11, 0);
}

static void draw_row(cairo_t *cr, const ikc_chart *c, const ikc_chart_row *row, double y0, double w, double h) {
    double dx = c->count > 1 ? w / (c->count - 1) : w;
    double legend_x = MARGIN_LEFT + w;
    int i, k;
    draw_axes(cr, c, row, y0, w, h);
    for (i = 0; i < row->band_count; ++i) {
        const ikc_chart_band *b = &row->bands[i];
        set_rgb(cr, b->color, 0.28);
        cairo_rectangle(cr, MARGIN_LEFT + b->first * dx, y0 + h * (1 - b->top), fmax(1, (b->last - b->first) * dx),
                        h * (b->top - b->bottom));
        cairo_fill(cr);
    }
    cairo_save(cr);
    cairo_rectangle(cr, MARGIN_LEFT, y0, w, h);
    cairo_clip(cr);
    set_rgb(cr, 0x555555, 0.8);
    cairo_set_line_width(cr, 0.8);
    {
        static const double dash[2] = {4, 3};
        cairo_set_dash(cr, dash, 2, 0);
    }
    for (i = 0; i < row->level_count; ++i) {
        double y = value_y(row, row->levels[i], y0, h);
        cairo_move_to(cr, MARGIN_LEFT, y);
        cairo_line_to(cr, MARGIN_LEFT + w, y);
    }
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_set_line_width(cr, 1.1);
    for (k = 0; k < row->line_count; ++k) {
        const ikc_chart_line *line = &row->lines[k];
        int pen_down = 0;
        set_rgb(cr, line->color, 1);
        for (i = 0; i < c->count; ++i) {
            double x = MARGIN_LEFT + i * dx;
            if (!isfinite(line->values[i])) {
                pen_down = 0;
                continue;
            }
            if (pen_down)
                cairo_line_to(cr, x, value_y(row, line->values[i], y0, h));
            else
                cairo_move_to(cr, x, value_y(row, line->values[i], y0, h));
            pen_down = 1;
        }
        cairo_stroke(cr);
    }
    cairo_restore(cr);
    for (k = row->line_count - 1; k >= 0; --k) {
        cairo_text_extents_t ext;
        cairo_set_font_size(cr, 10);
        cairo_text_extents(cr, row->lines[k].name, &ext);
        legend_x -= ext.x_advance + 4;
        set_rgb(cr, row->lines[k].color, 1);
        text_at(cr, legend_x, y0 - 5, row->lines[k].name, 10, 0);
        legend_x -= 14;
    }
}

static void paint_chart(cairo_t *cr, const void *data) {
    const ikc_chart *c = (const ikc_chart *)data;
    double w = c->width - MARGIN_LEFT - MARGIN_RIGHT;
    double h = (c->height - HEADER - ROW_GAP * c->row_count) / (c->row_count > 0 ? c->row_count : 1);
    int i;
    cairo_set_source_rgb(cr, 0.97, 0.975, 0.98);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    set_rgb(cr, 0x222222, 1);
    if (c->title) text_at(cr, 10, 22, c->title, 15, 0);
    for (i = 0; i < c->row_count; ++i) draw_row(cr, c, &c->rows[i], HEADER + ROW_GAP * 0.6 + i * (h + ROW_GAP), w, h);
}

int ikc_chart_draw_file(const ikc_chart *chart, const char *path, char *error, size_t error_size) {
    return ikc_draw_to_file(path, chart->width, chart->height, paint_chart, chart, error, error_size);
}

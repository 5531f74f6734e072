/* Line charts over time (cairo): rows of plots sharing one time axis, each
 * with its lines, shaded intervals and dashed threshold levels. For
 * pictures of motion signals (a foot's height and speed with its contacts
 * shaded). */
#ifndef IKC_CHART_H
#define IKC_CHART_H

#include <stddef.h>

typedef struct ikc_chart_line {
    const char *name;     /* in the row's legend */
    const double *values; /* [chart.count]; non-finite values leave a gap */
    unsigned color;       /* 0xRRGGBB */
} ikc_chart_line;

typedef struct ikc_chart_band {
    int first, last;    /* samples, inclusive */
    double bottom, top; /* the part of the row's height shaded, 0 (bottom) .. 1 (top) */
    unsigned color;
} ikc_chart_band;

typedef struct ikc_chart_row {
    const char *title;
    const ikc_chart_line *lines;
    int line_count;
    const ikc_chart_band *bands;
    int band_count;
    const double *levels; /* dashed horizontal lines at these values */
    int level_count;
    double low, high; /* the value range shown (values outside are clipped) */
} ikc_chart_row;

typedef struct ikc_chart {
    const char *title;
    const ikc_chart_row *rows;
    int row_count;
    int count;   /* samples per line */
    double step; /* time between samples (seconds) */
    int width, height;
} ikc_chart;

/* Draw to `path` (.svg, .png or .pdf), atomically. 1, or 0 with a message. */
int ikc_chart_draw_file(const ikc_chart *chart, const char *path, char *error, size_t error_size);

#endif

/* What `ikc demo` writes and counts, shared by its scenes: the pictures
 * (PNG, and SVG beside them with --svg; counted and listed for the closing
 * summary) and the timing of solves. */
#ifndef IKC_DEMO_OUTPUT_H
#define IKC_DEMO_OUTPUT_H

#include "draw.h"

enum { IKC_DEMO_MAX_LISTED = 32 };

/* One file the demo wrote, for the summary: its name in the directory and
 * what it shows (a picture's title). */
typedef struct ikc_demo_listed {
    char name[48];
    char what[112];
} ikc_demo_listed;

/* What `ikc demo` writes and counts; shared by its scenes. */
typedef struct ikc_demo_state {
    const char *dir;
    int svg;    /* also write each picture as SVG */
    int layout; /* also write each picture's layout as DIR/NAME.layout.json (layout_report.h) */
    int write_failures;
    int solve_failures;
    int files;
    double bytes; /* the size of every file written */
    int listed_count;
    ikc_demo_listed listed[IKC_DEMO_MAX_LISTED];
    const struct ikc_figure *figure; /* the built humanoid every scene poses */
    /* Its body (or NULL): every panel showing the figure without a mesh of
     * its own is drawn with it. */
    struct ikc_mesh *body;
} ikc_demo_state;

/* A picture of `count` panels in `columns` columns, `width` x `height`
 * pixels, showing the ground plane y = 0 and, when not NULL, `ground`. */
ikc_picture ikc_demo_picture(const char *title, const ikc_panel *panels, int count, int columns, ikc_view view,
                             int width, int height, const ik_ground *ground);
/* Write `pic` as DIR/base.png (and DIR/base.svg with --svg, the layout as
 * DIR/base.layout.json with --layout), counting files and failures and
 * listing the PNG with the picture's title. */
void ikc_demo_save_picture(ikc_demo_state *d, const char *base, const ikc_picture *pic);
/* Count the file `name` in DIR as written (its size too), listed in the
 * summary with `what` unless that is NULL. */
void ikc_demo_wrote(ikc_demo_state *d, const char *name, const char *what);
/* The closing summary: every listed file with what it shows, their sizes,
 * and which to open first (`first`, a listed name, for the reason `why`). */
void ikc_demo_summary(const ikc_demo_state *d, const char *first, const char *why);

typedef void (*ikc_solve_once)(void *context);
/* Microseconds per solve: the median over 9 runs of `reps` calls. */
double ikc_demo_median_us(ikc_solve_once fn, void *context, int reps);

#endif

/* What `ikc demo` writes and counts, shared by its scenes: the pictures
 * (PNG and SVG, counted) and the timing of solves. */
#ifndef IKC_DEMO_OUTPUT_H
#define IKC_DEMO_OUTPUT_H

#include "draw.h"

/* What `ikc demo` writes and counts; shared by its scenes. */
typedef struct ikc_demo_state {
    const char *dir;
    int write_failures;
    int solve_failures;
    int files;
    const struct ikc_figure *figure; /* the built humanoid every scene poses */
    /* Its body (or NULL): every panel showing the figure without a mesh of
     * its own is drawn with it. */
    struct ikc_mesh *body;
} ikc_demo_state;

/* A picture of `count` panels in `columns` columns, `width` x `height`
 * pixels, showing the ground plane y = 0 and, when not NULL, `ground`. */
ikc_picture ikc_demo_picture(const char *title, const ikc_panel *panels, int count, int columns, ikc_view view,
                             int width, int height, const ik_ground *ground);
/* Write `pic` as DIR/base.png and DIR/base.svg, counting files and failures. */
void ikc_demo_save_picture(ikc_demo_state *d, const char *base, const ikc_picture *pic);

typedef void (*ikc_solve_once)(void *context);
/* Microseconds per solve: the median over 9 runs of `reps` calls. */
double ikc_demo_median_us(ikc_solve_once fn, void *context, int reps);

#endif

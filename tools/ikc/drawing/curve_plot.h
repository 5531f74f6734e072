/* A picture of one channel of a fitted clip: the take's value at every
 * frame (dots), the fitted Hermite curve (line), its keys (circles) and
 * their in- and out-tangents (whiskers), one colour per component. */
#ifndef IKC_CURVE_PLOT_H
#define IKC_CURVE_PLOT_H

#include <stddef.h>

#include <ikit/clip.h>

typedef struct ikc_curve_plot {
    const char *title;
    const ik_channel *fitted; /* CUBICSPLINE */
    const ik_real *samples;   /* [frame_count * width] the take's values at frame f * frame_time */
    int frame_count;
    ik_real frame_time;
    ik_real from, to; /* the time window drawn, seconds */
} ikc_curve_plot;

/* Draw to `path` (.png, .svg or .pdf), atomically; 1, or 0 with `error`. */
int ikc_curve_plot_file(const ikc_curve_plot *plot, const char *path, char *error, size_t error_size);

#endif

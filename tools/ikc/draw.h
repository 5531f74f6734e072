/* Pictures of skeletons through cairo: one drawing code for SVG, PNG and PDF.
 * A picture is a grid of panels (a filmstrip, or scenes side by side), all
 * drawn with the same camera and scale so they compare. */
#ifndef IKC_DRAW_H
#define IKC_DRAW_H

#include <stddef.h>

#include "scene_view.h"

/* Draw to `path` (.svg, .png or .pdf by extension), written atomically.
 * Returns 1, or 0 with a message in `error`. */
int ikc_draw_file(const ikc_picture *picture, const char *path, char *error, size_t error_size);

/* Any drawing to `path` (.svg, .png or .pdf by extension) of `width` x
 * `height` points, written atomically: `draw` paints on the cairo context.
 * Returns 1, or 0 with a message in `error`. */
struct _cairo; /* cairo_t */
typedef void (*ikc_cairo_draw)(struct _cairo *cr, const void *context);
int ikc_cairo_file(const char *path, int width, int height, ikc_cairo_draw draw, const void *context, char *error,
                   size_t error_size);

#endif

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

/* Any drawing to a file: `paint` draws on a width x height page (pixels
 * for PNG, points for SVG and PDF), then the file (.svg, .png or .pdf by
 * extension) is written atomically. Returns 1, or 0 with a message. */
struct _cairo;
typedef void (*ikc_paint)(struct _cairo *cr, const void *data);
int ikc_draw_to_file(const char *path, int width, int height, ikc_paint paint, const void *data, char *error,
                     size_t error_size);

#endif

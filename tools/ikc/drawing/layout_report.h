/* Where everything in a picture went, as JSON: the `--layout` sidecar of
 * `ikc render` and of `ikc demo`'s pictures, read by the tests to check
 * labels and framing from the drawing's own geometry. */
#ifndef IKC_LAYOUT_REPORT_H
#define IKC_LAYOUT_REPORT_H

#include "scene_view.h"

/* Write `picture`'s layouts (drawn with picture->layouts set) to `path`,
 * atomically: per panel its box [x, y, w, h] and label band [x0, y0, x1,
 * y1] on the page (y down), the marker radius, the prefix dropped from the
 * names, how many joints it tried to name, every joint (name, page x and
 * y, parent, marked), each label (joint, name, text shown, box [x0, y0, x1,
 * y1], leader [x0, y0, x1, y1] from the joint to the box) and the figure's
 * silhouette as drawn: triangles, six numbers each, flat. Returns 1, or 0
 * when it cannot be written. */
int ikc_write_layout(const char *path, const ikc_picture *picture);

#endif

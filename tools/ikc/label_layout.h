/* Where joint names go in a panel, apart from the cairo calls: the joints
 * that matter are named (or every joint, or none), each label placed at the
 * first of a ring of spots round its joint where it overlaps no label
 * already placed, no joint marker, no target and stays inside the panel; a
 * label with no such spot is dropped. The first IKC_LABEL_TRIES joints in
 * order of importance are tried (a picture holds far fewer labels), and
 * markers are found through a summed-area table over the panel, so a rig of
 * 100,000 joints is laid out in linear time. The layout is kept for a
 * report (the `ikc render --layout` sidecar) so tests can check it. */
#ifndef IKC_LABEL_LAYOUT_H
#define IKC_LABEL_LAYOUT_H

#include "scene_view.h"

#define IKC_LABEL_TRIES 1000

/* A box on the page, y down. */
typedef struct ikc_box {
    double x0, y0, x1, y1;
} ikc_box;

typedef struct ikc_label {
    int joint;
    ikc_box box;            /* the text's box, halo included */
    double text_x, text_y;  /* where the text's baseline starts */
} ikc_label;

/* Text width and height (ascent + descent) at the panel's label size. */
typedef void (*ikc_measure_text)(void *context, const char *text, double *width, double *height);

/* One panel's layout: every joint's page point, whether it carries a
 * marker (a drawn dot), and the labels placed. */
typedef struct ikc_panel_layout {
    ikc_page_point *joints; /* [joint_count] */
    unsigned char *marked;  /* [joint_count] */
    int joint_count;
    double marker_radius;
    ikc_label *labels;      /* [label_count] */
    int label_count;
} ikc_panel_layout;

/* Lay out panel `p` drawn with `camera` in the panel box (x, y, w, h) (y the
 * top edge), markers of `marker_radius`, every joint marked when
 * `all_marked`, else only the named ones. Fills `layout` (malloc'ed arrays;
 * ikc_panel_layout_free); 0 when out of memory. */
int ikc_label_layout(const ikc_camera *camera, const ikc_panel *p, double x, double y, double w, double h,
                     double marker_radius, int all_marked, ikc_measure_text measure, void *context,
                     ikc_panel_layout *layout);
void ikc_panel_layout_free(ikc_panel_layout *layout);

#endif

/* Where joint names go in a panel, apart from the cairo calls: outside the
 * character, in the margin beside it, each joined to its own joint by a thin
 * leader line. The figure's silhouette (the triangles drawn for its mesh, or
 * its bones, joint dots and props) is rasterised into a mask of the panel,
 * grown by a gap and filled across each row, so that no label sits in the
 * gap between an arm and the body, where it would read as belonging to
 * either; a label goes beside the figure, left or right, at a height near
 * its joint's, the side and height with the shortest leader that crosses
 * no other label (a label on the joint's own side of the figure counts
 * shorter, one whose leader crosses another leader longer). Labels never
 * overlap each other, a target or the panel's title and caption; a label
 * with no room is left out. A prefix every joint's name shares (Mixamo's
 * "mixamorig:") is dropped from the labels (ikc_label_prefix), for the
 * picture's title to say once. The first IKC_LABEL_TRIES joints in order of
 * importance are tried and the mask is looked up through a summed-area
 * table, so a rig of 100,000 joints is laid out in linear time. The layout
 * is kept for a report (the `--layout` sidecar) so tests can check it. */
#ifndef IKC_LABEL_LAYOUT_H
#define IKC_LABEL_LAYOUT_H

#include <stddef.h>

#include "scene_view.h"

#define IKC_LABEL_TRIES 1000
#define IKC_LABEL_PREFIX_MAX 64

/* A box on the page, y down. */
typedef struct ikc_box {
    double x0, y0, x1, y1;
} ikc_box;

typedef struct ikc_label {
    int joint;
    const char *text;      /* the name shown: the joint's, less the panel's prefix */
    ikc_box box;           /* the text's box, halo included */
    double text_x, text_y; /* where the text's baseline starts */
    double leader[4];      /* the leader line: from the joint (x, y) to the box's edge (x, y) */
} ikc_label;

/* Text width and height (ascent + descent) at the panel's label size. */
typedef void (*ikc_measure_text)(void *context, const char *text, double *width, double *height);

/* What the figure covers on the page: triangles (x0, y0, x1, y1, x2, y2),
 * grown with ikc_cover_add; the layout keeps labels off them. */
typedef struct ikc_cover {
    float *xy; /* [6 * count] */
    int count, capacity;
} ikc_cover;

/* Add triangle (a, b, c); 0 when out of memory. */
int ikc_cover_add(ikc_cover *cover, double ax, double ay, double bx, double by, double cx, double cy);
/* Add the quad a, b, c, d as two triangles. */
int ikc_cover_quad(ikc_cover *cover, double ax, double ay, double bx, double by, double cx, double cy, double dx,
                   double dy);
void ikc_cover_free(ikc_cover *cover);

/* One panel's layout: every joint's page point, whether it carries a
 * marker (a drawn dot), the labels placed, and the panel's box, its label
 * band (the panel less its title and caption) and what the figure covers. */
typedef struct ikc_panel_layout {
    ikc_page_point *joints; /* [joint_count] */
    unsigned char *marked;  /* [joint_count] */
    int joint_count;
    double marker_radius;
    ikc_label *labels; /* [label_count] */
    int label_count;
    int wanted;                        /* how many joints it tried to name */
    char prefix[IKC_LABEL_PREFIX_MAX]; /* dropped from every label ("" when none) */
    ikc_box panel;                     /* the panel on the page */
    ikc_box band;                      /* where labels may go */
    ikc_cover cover;                   /* the figure's triangles, kept for the report */
} ikc_panel_layout;

/* The prefix every named joint of `skeleton` shares, ending at a separator
 * (':', '|', '_', '-', '.', ' '), into `prefix` [IKC_LABEL_PREFIX_MAX]; ""
 * when there is none, when it would leave a name empty, or for fewer than
 * two named joints. */
void ikc_label_prefix(const ik_skeleton *skeleton, char *prefix);

/* Lay out panel `p` drawn with `camera` in the panel box (x, y, w, h) (y the
 * top edge), labels kept below `top` and above `bottom` (page y), markers
 * of `marker_radius`, every joint marked when `all_marked`, else only the
 * named ones, the figure covering `cover` (taken over by the layout: freed
 * with it). Fills `layout` (malloc'ed arrays; ikc_panel_layout_free); 0
 * when out of memory. */
int ikc_label_layout(const ikc_camera *camera, const ikc_panel *p, double x, double y, double w, double h, double top,
                     double bottom, double marker_radius, int all_marked, ikc_cover *cover, ikc_measure_text measure,
                     void *context, ikc_panel_layout *layout);
void ikc_panel_layout_free(ikc_panel_layout *layout);

#endif

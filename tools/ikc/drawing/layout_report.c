/* The layout sidecar (layout_report.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ikc.h"
#include "label_layout.h"
#include "layout_report.h"

static cJSON *four(double a, double b, double c, double d) {
    double v[4];
    v[0] = a;
    v[1] = b;
    v[2] = c;
    v[3] = d;
    return cJSON_CreateDoubleArray(v, 4);
}

/* The silhouette's corners to a hundredth of a pixel: short numbers. */
static cJSON *silhouette(const ikc_cover *cover) {
    double *v = (double *)malloc((size_t)cover->count * 6 * sizeof *v + 1);
    cJSON *array;
    int k;
    if (!v) return NULL;
    for (k = 0; k < cover->count * 6; ++k) v[k] = floor((double)cover->xy[k] * 100 + 0.5) / 100;
    array = cJSON_CreateDoubleArray(v, cover->count * 6);
    free(v);
    return array;
}

static cJSON *panel_report(const ikc_panel_layout *l, const ik_skeleton *s) {
    cJSON *panel = cJSON_CreateObject(), *joints, *labels, *shape;
    int k;
    cJSON_AddItemToObject(panel, "panel",
                          four(l->panel.x0, l->panel.y0, l->panel.x1 - l->panel.x0, l->panel.y1 - l->panel.y0));
    cJSON_AddItemToObject(panel, "band", four(l->band.x0, l->band.y0, l->band.x1, l->band.y1));
    cJSON_AddNumberToObject(panel, "marker_radius", l->marker_radius);
    cJSON_AddStringToObject(panel, "prefix", l->prefix);
    cJSON_AddNumberToObject(panel, "wanted", l->wanted);
    joints = cJSON_AddArrayToObject(panel, "joints");
    for (k = 0; k < l->joint_count; ++k) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "name", ik_skeleton_name(s, k));
        cJSON_AddNumberToObject(j, "x", l->joints[k].x);
        cJSON_AddNumberToObject(j, "y", l->joints[k].y);
        cJSON_AddNumberToObject(j, "parent", s->parents[k]);
        cJSON_AddBoolToObject(j, "marked", l->marked[k]);
        cJSON_AddItemToArray(joints, j);
    }
    labels = cJSON_AddArrayToObject(panel, "labels");
    for (k = 0; k < l->label_count; ++k) {
        const ikc_label *lab = &l->labels[k];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "joint", lab->joint);
        cJSON_AddStringToObject(o, "name", ik_skeleton_name(s, lab->joint));
        cJSON_AddStringToObject(o, "text", lab->text);
        cJSON_AddItemToObject(o, "box", four(lab->box.x0, lab->box.y0, lab->box.x1, lab->box.y1));
        cJSON_AddItemToObject(o, "leader", four(lab->leader[0], lab->leader[1], lab->leader[2], lab->leader[3]));
        cJSON_AddItemToArray(labels, o);
    }
    shape = silhouette(&l->cover);
    if (shape) cJSON_AddItemToObject(panel, "silhouette", shape);
    return panel;
}

int ikc_write_layout(const char *path, const ikc_picture *pic) {
    cJSON *doc = cJSON_CreateObject(), *panels = cJSON_AddArrayToObject(doc, "panels");
    char *text;
    int i, ok;
    for (i = 0; i < pic->panel_count; ++i)
        cJSON_AddItemToArray(panels, panel_report(&pic->layouts[i], pic->panels[i].skeleton));
    text = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    ok = text && ikc_write_file_atomic(path, text, strlen(text));
    cJSON_free(text);
    return ok;
}

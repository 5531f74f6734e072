/* What `ikc demo` writes and counts, shared by its scenes (cmd_demo.c and
 * demo_humanoid.c): pictures saved as PNG (and SVG with --svg), listed for
 * the closing summary; solve timings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "demo_output.h"
#include "demo_figure.h"
#include "ikc.h"
#include "label_layout.h"
#include "layout_report.h"
#include "mesh_view.h"

/* ---- timing --------------------------------------------------------------- */

/* Microseconds per solve: the median over 9 runs of `reps` solves each. The
 * callback restores its start pose before every solve. */
double ikc_demo_median_us(ikc_solve_once fn, void *context, int reps) {
    double samples[9];
    int run, k;
    for (run = 0; run < 9; ++run) {
        double t0 = ikc_now();
        for (k = 0; k < reps; ++k) fn(context);
        samples[run] = (ikc_now() - t0) * 1e6 / reps;
    }
    return ikc_median(samples, 9);
}

/* ---- output ------------------------------------------------------------------ */

/* `pic` with the figure's body posed on each panel of the figure (in
 * `panels` and `posed`, to free; both NULL when there is nothing to dress
 * or no memory: the picture keeps its bones), the bones drawn over it. */
static ikc_picture dressed(const ikc_demo_state *d, const ikc_picture *pic, ikc_panel **panels, ik_vec3 **posed) {
    ikc_picture out = *pic;
    size_t per = d->body ? (size_t)d->body->vertex_count : 0;
    int i;
    *panels = NULL;
    *posed = NULL;
    if (!d->body || pic->panel_count < 1) return out;
    *panels = (ikc_panel *)malloc((size_t)pic->panel_count * sizeof **panels);
    *posed = (ik_vec3 *)malloc((size_t)pic->panel_count * per * sizeof **posed + 1);
    if (!*panels || !*posed) {
        free(*panels);
        free(*posed);
        *panels = NULL;
        *posed = NULL;
        return out;
    }
    memcpy(*panels, pic->panels, (size_t)pic->panel_count * sizeof **panels);
    for (i = 0; i < pic->panel_count; ++i) {
        ikc_panel *p = &(*panels)[i];
        if (p->skeleton != &d->figure->skeleton || p->mesh || !p->model_ms) continue;
        if (!ikc_mesh_pose(d->body, p->model_ms, *posed + (size_t)i * per)) continue;
        p->mesh = d->body;
        p->mesh_ms = *posed + (size_t)i * per;
    }
    out.panels = *panels;
    out.bones = 1;
    return out;
}

void ikc_demo_wrote(ikc_demo_state *d, const char *name, const char *what) {
    char path[1100];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", d->dir, name);
    ++d->files;
    if (stat(path, &st) == 0) d->bytes += (double)st.st_size;
    if (what && d->listed_count < IKC_DEMO_MAX_LISTED) {
        ikc_demo_listed *l = &d->listed[d->listed_count++];
        snprintf(l->name, sizeof l->name, "%s", name);
        snprintf(l->what, sizeof l->what, "%s", what);
    }
}

/* PNG first: it is what a newcomer opens (a few hundred KB); the SVG of the
 * same picture, for zooming, holds every mesh triangle as a path (0.4-3.8
 * MB), so it is written only when asked for. */
void ikc_demo_save_picture(ikc_demo_state *d, const char *base, const ikc_picture *picture) {
    static const char *const exts[] = {"png", "svg"};
    char path[1100], name[64], error[600];
    ikc_panel *panels;
    ik_vec3 *posed;
    ikc_picture dressed_picture = dressed(d, picture, &panels, &posed);
    ikc_picture *pic = &dressed_picture;
    ikc_panel_layout *layouts = NULL;
    int e, i;
    if (d->layout) layouts = (ikc_panel_layout *)calloc((size_t)pic->panel_count + 1, sizeof *layouts);
    for (e = 0; e < (d->svg ? 2 : 1); ++e) {
        snprintf(name, sizeof name, "%s.%s", base, exts[e]);
        snprintf(path, sizeof path, "%s/%s", d->dir, name);
        pic->layouts = e == 0 ? layouts : NULL;
        if (ikc_draw_file(pic, path, error, sizeof error)) {
            printf("  wrote %s\n", path);
            ikc_demo_wrote(d, name, e == 0 ? (pic->title ? pic->title : base) : NULL);
        } else {
            fprintf(stderr, "ikc demo: %s\n", error);
            ++d->write_failures;
        }
    }
    if (d->layout) {
        snprintf(name, sizeof name, "%s.layout.json", base);
        snprintf(path, sizeof path, "%s/%s", d->dir, name);
        pic->layouts = layouts;
        if (layouts && ikc_write_layout(path, pic)) {
            ikc_demo_wrote(d, name, NULL);
        } else {
            fprintf(stderr, "ikc demo: cannot write '%s'\n", path);
            ++d->write_failures;
        }
    }
    for (i = 0; layouts && i < pic->panel_count; ++i) ikc_panel_layout_free(&layouts[i]);
    free(layouts);
    free(panels);
    free(posed);
}

void ikc_demo_summary(const ikc_demo_state *d, const char *first, const char *why) {
    int i, width = 0, first_written = 0;
    for (i = 0; i < d->listed_count; ++i) {
        int n = (int)strlen(d->listed[i].name);
        if (n > width) width = n;
        first_written |= strcmp(d->listed[i].name, first) == 0;
    }
    printf("\nWritten to %s/: %d files, %.1f MB%s\n", d->dir, d->files, d->bytes / 1e6,
           d->svg ? " (each picture as .png and .svg)" : "");
    for (i = 0; i < d->listed_count; ++i) printf("  %-*s  %s\n", width, d->listed[i].name, d->listed[i].what);
    if (first_written) printf("Open %s/%s first (%s),\nthen the others in the order above.", d->dir, first, why);
    printf("%s\n", d->svg ? "" : " ikc demo --svg also writes each as SVG, to zoom into.");
}

ikc_picture ikc_demo_picture(const char *title, const ikc_panel *panels, int count, int columns, ikc_view view,
                             int width, int height, const ik_ground *ground) {
    ikc_picture pic;
    memset(&pic, 0, sizeof pic);
    pic.title = title;
    pic.panels = panels;
    pic.panel_count = count;
    pic.columns = columns;
    pic.view = view;
    pic.width = width;
    pic.height = height;
    pic.show_ground = 1;
    pic.ground_y = 0;
    pic.ground = ground;
    return pic;
}

/* What `ikc demo` writes and counts, shared by its scenes (cmd_demo.c and
 * demo_humanoid.c): pictures saved as PNG and SVG, solve timings. */
#include <stdio.h>
#include <string.h>

#include "demo_output.h"
#include "ikc.h"

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

void ikc_demo_save_picture(ikc_demo_state *d, const char *base, const ikc_picture *pic) {
    static const char *const exts[] = {"png", "svg"};
    char path[1100], error[600];
    int e;
    for (e = 0; e < 2; ++e) {
        snprintf(path, sizeof path, "%s/%s.%s", d->dir, base, exts[e]);
        if (ikc_draw_file(pic, path, error, sizeof error)) {
            ++d->files;
            printf("  wrote %s\n", path);
        } else {
            fprintf(stderr, "ikc demo: %s\n", error);
            ++d->write_failures;
        }
    }
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

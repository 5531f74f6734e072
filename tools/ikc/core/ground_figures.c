/* The result's own contacts and knee flips, as an outside reader measures
 * them (ground_figures.h). */
#include "ground_figures.h"

#include <stdlib.h>

#include <ikit/foot_contacts.h>
#include <ikit/ground_slide.h>

static int compare_real(const void *a, const void *b) {
    ik_real x = *(const ik_real *)a, y = *(const ik_real *)b;
    return x < y ? -1 : x > y;
}

ik_real ikc_quantile(ik_real *values, int n, double q) {
    if (n <= 0) return 0;
    qsort(values, (size_t)n, sizeof *values, compare_real);
    return values[(int)(q * (n - 1) + 0.5)];
}

ik_result ikc_ground_figures_measure(const ik_asset *asset, const ik_humanoid *rig, const ik_take *take,
                                     ikc_ground_figures *out) {
    ik_ground_slide job = ik_ground_slide_def();
    int samples = ik_ground_slide_samples(take, job.sample_rate), capacity = samples + 1, i;
    ik_ground_contact *contacts = (ik_ground_contact *)malloc((size_t)capacity * sizeof *contacts);
    ik_real *slides = (ik_real *)malloc((size_t)capacity * sizeof(ik_real)), mm;
    ik_result r;
    job.rig = rig;
    job.take = take;
    job.root_ms = asset->format == IK_ASSET_GLTF ? &asset->root_ms : NULL;
    job.metre = asset->format == IK_ASSET_GLTF ? 1 : ik_foot_metre(ik_foot_leg_length(rig));
    job.model_ms = (ik_mat4 *)malloc((size_t)take->joint_count * sizeof(ik_mat4));
    job.points = (ik_vec3 *)malloc(2 * (size_t)samples * sizeof(ik_vec3));
    job.heights = (ik_real *)malloc(4 * (size_t)samples * sizeof(ik_real));
    job.contacts = contacts;
    job.capacity = capacity;
    job.count = &out->contacts;
    out->contacts = 0;
    r = contacts && slides && job.model_ms && job.points && job.heights ? ik_ground_slide_run(&job) : IK_ERR_CAPACITY;
    mm = 1000 / job.metre;
    out->over = 0;
    out->worst_slide = 0;
    out->worst_leg = -1;
    out->worst_start = out->worst_end = 0;
    for (i = 0; r == IK_OK && i < out->contacts; ++i) {
        slides[i] = contacts[i].slide * mm;
        out->over += slides[i] > 5;
        if (slides[i] > out->worst_slide || out->worst_leg < 0)
            out->worst_slide = slides[i], out->worst_leg = contacts[i].leg, out->worst_start = contacts[i].start,
            out->worst_end = contacts[i].end;
    }
    out->median_slide = r == IK_OK ? ikc_quantile(slides, out->contacts, 0.5) : 0;
    free(contacts);
    free(slides);
    free(job.model_ms);
    free(job.points);
    free(job.heights);
    return r;
}

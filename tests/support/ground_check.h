/* The contacts an outside reader finds on a take (ik_ground_slide with its
 * defaults), for the tests that measure results that way. */
#ifndef IKIT_TEST_GROUND_CHECK_H
#define IKIT_TEST_GROUND_CHECK_H

#include <stdlib.h>

#include <ikit/ground_slide.h>

/* Contacts of `take` on `rig` in `metre` model units a metre, into out
 * (capacity; *count found); *worst (optional) the worst slide. model_ms:
 * scratch of the skeleton's joint count. */
static inline ik_result ground_contacts(const ik_humanoid *rig, const ik_take *take, ik_real metre, ik_mat4 *model_ms,
                                        ik_ground_contact *out, int capacity, int *count, ik_real *worst) {
    ik_ground_slide g = ik_ground_slide_def();
    int samples = ik_ground_slide_samples(take, g.sample_rate), i;
    ik_result r;
    g.rig = rig;
    g.take = take;
    g.metre = metre;
    g.model_ms = model_ms;
    g.points = (ik_vec3 *)malloc(2 * (size_t)samples * sizeof(ik_vec3));
    g.heights = (ik_real *)malloc(4 * (size_t)samples * sizeof(ik_real));
    g.contacts = out;
    g.capacity = capacity;
    g.count = count;
    r = g.points && g.heights ? ik_ground_slide_run(&g) : IK_ERR_CAPACITY;
    if (worst) *worst = 0;
    for (i = 0; worst && r == IK_OK && i < *count; ++i) *worst = ik_maxr(*worst, out[i].slide);
    free(g.points);
    free(g.heights);
    return r;
}

/* The worst slide of a take's own contacts, 1e30 when it cannot be
 * measured. */
static inline ik_real ground_worst_slide(const ik_humanoid *rig, const ik_take *take, ik_real metre,
                                         ik_mat4 *model_ms) {
    int capacity = ik_ground_slide_samples(take, 60) + 1, count = 0;
    ik_ground_contact *found = (ik_ground_contact *)malloc((size_t)capacity * sizeof *found);
    ik_real worst = (ik_real)1e30;
    if (!found || ground_contacts(rig, take, metre, model_ms, found, capacity, &count, &worst) != IK_OK)
        worst = (ik_real)1e30;
    free(found);
    return worst;
}

#endif

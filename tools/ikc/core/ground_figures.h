/* What `ikc retarget` and `ikc clean` measure on a result the way an
 * outside reader of the written file would (ikit/ground_slide.h): the
 * contacts found on it and their slides, in the file's metres (knees and
 * soles: ikit/leg_figures.h). */
#ifndef IKC_GROUND_FIGURES_H
#define IKC_GROUND_FIGURES_H

#include <ikit/asset.h>
#include <ikit/humanoid.h>
#include <ikit/take.h>

typedef struct ikc_ground_figures {
    int contacts, over;                /* found on the take; sliding over 5 mm */
    ik_real worst_slide, median_slide; /* mm */
    int worst_leg, worst_start, worst_end;
} ikc_ground_figures;

/* The contacts on `take` (the definition in the commands' usage texts),
 * in metres of the file: a glTF world's (through the root: an armature's
 * 0.01 scale included), else 0.85 m of leg. */
ik_result ikc_ground_figures_measure(const ik_asset *asset, const ik_humanoid *rig, const ik_take *take,
                                     ikc_ground_figures *out);

/* The median of n values (sorted in place), nearest rank; 0 for none. */
ik_real ikc_quantile(ik_real *values, int n, double q);

#endif

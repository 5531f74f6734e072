/* The demo's retarget scene: the built-in figure's walk played on a
 * smaller figure resting in a T-pose and measured in centimetres
 * (ikit/retarget.h), source and result side by side. */
#ifndef IKC_DEMO_RETARGET_H
#define IKC_DEMO_RETARGET_H

#include "demo_figure.h"
#include "demo_output.h"

/* Walk `figure` for three seconds, retarget the walk: a table line on
 * stdout, the filmstrip into d->dir (retarget.png and .svg). */
void ikc_demo_retarget_scene(ikc_demo_state *d, const ikc_figure *figure);

#endif

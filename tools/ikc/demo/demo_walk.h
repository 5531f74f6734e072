/* The demo's walking scene: the built-in humanoid's procedural walk
 * (ikit/walk.h) up a flight of stairs, as a filmstrip. */
#ifndef IKC_DEMO_WALK_H
#define IKC_DEMO_WALK_H

#include "demo_figure.h"
#include "demo_output.h"

/* Walk `figure` up stairs for three seconds: a table line on stdout, the
 * filmstrip into d->dir (walk_stairs.png and .svg). */
void ikc_demo_walk_scene(ikc_demo_state *d, const ikc_figure *figure);

#endif

/* ikit rig: the surface of a ground (ground.h) as quads, for drawing it
 * under a figure: planes and height fields as a grid, stairs as treads,
 * risers and side walls. Nothing is allocated: the caller gives the array
 * (ask for the count first with capacity 0). */
#ifndef IKIT_GROUND_MESH_H
#define IKIT_GROUND_MESH_H

#include <ikit/ground.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Stairs drawn at most this many steps (a tiny run under a large region). */
#define IK_GROUND_MESH_MAX_STEPS 1000
/* Planes: this many quads each way over the region. Height fields: their
 * own cells, merged 2^k at a time until at most IK_GROUND_MESH_MAX_CELLS
 * quads run each way. */
#define IK_GROUND_MESH_PLANE_CELLS 16
#define IK_GROUND_MESH_MAX_CELLS 120

typedef struct ik_ground_quad {
    ik_vec3 corner_ms[4]; /* in order round the quad */
    ik_vec3 normal_ms;    /* unit, out of the ground (up for treads, out for side walls) */
    int side;             /* 1 for a side wall of stairs: a long face painters cannot sort by its centre */
} ik_ground_quad;

/* The quads of `ground` over x in [x0, x1] and z in [z0, z1] into `quads`
 * [capacity] (may be NULL when capacity is 0). Returns how many the surface
 * has; only the first `capacity` are written. A height field's grid is
 * aligned to its samples; stairs span the region measured along and across
 * them, each step's tread and riser and its two side walls down to the
 * ground before the first riser. A callback ground, a NULL ground or a
 * region that is empty or not finite gives 0, and a height the ground cannot
 * give ends the grid there. */
int ik_ground_mesh(const ik_ground *ground, ik_real x0, ik_real x1, ik_real z0, ik_real z1, ik_ground_quad *quads,
                   int capacity);

#ifdef __cplusplus
}
#endif
#endif

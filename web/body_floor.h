/* The floor a clip's motion stands on (web/body_floor.c), for the page's C
 * API (web/ikit_web.c); this part calls nothing of the glue's. */
#ifndef IKIT_WEB_BODY_FLOOR_H
#define IKIT_WEB_BODY_FLOOR_H

#include <ikit/clip.h>
#include <ikit/humanoid.h>

/* 1 and the floor's height along rig->up_rs in the skeleton's root space in
 * *floor_rs; 0 when it cannot be found. */
int ikw_clip_floor(const ik_humanoid *rig, const ik_clip *clip, ik_real frame_time, ik_real *floor_rs);

#endif

/* The demo's humanoid scenes (issue 6's showcase): the rig layer's full-body
 * solve on ik_humanoid_build_skeleton's figure, standing on uneven ground
 * and on stairs with both feet planted, both hands on a swinging staff, the
 * head tracking a moving point. */
#ifndef IKC_DEMO_HUMANOID_H
#define IKC_DEMO_HUMANOID_H

#include "demo_output.h"
#include "scene_gltf.h"

/* Run the four scenes on d->figure (tables on stdout, pictures into d->dir)
 * and add up to `capacity` posed figures to `list` for the glTF; returns
 * how many. */
int ikc_demo_humanoid_scenes(ikc_demo_state *d, ikc_scene_skeleton *list, int capacity);

#endif

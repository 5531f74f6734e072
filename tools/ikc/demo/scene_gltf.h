/* A minimal glTF 2.0 file of posed skeletons: a node per joint and a skin
 * per skeleton, no meshes. */
#ifndef IKC_SCENE_GLTF_H
#define IKC_SCENE_GLTF_H

#include <stddef.h>

#include <ikit/skeleton.h>

typedef struct ikc_scene_skeleton {
    const char *name;
    const ik_skeleton *skeleton;
    const ik_transform *pose_ls; /* [joint_count] */
    ik_vec3 placement;           /* translation of a parent node above the roots */
} ikc_scene_skeleton;

/* Write the skeletons to `path` (.gltf JSON) atomically. Returns 1, or 0
 * with a message in `error`. */
int ikc_write_scene_gltf(const char *path, const ikc_scene_skeleton *skeletons, int count, char *error,
                         size_t error_size);

#endif

/* ikit anim: a body for a skeleton that has no mesh of its own. Every bone
 * (a joint and its parent, apart) gets a capsule from the parent to the
 * joint: a tube tapering from the parent's radius to the joint's, closed by
 * half-spheres; a leaf joint may get one more capsule continuing its bone
 * past it (a head, a hand). Each capsule follows the parent joint (whose
 * rotation turns the bone) and blends into its neighbours near the ends,
 * with linear blend skinning weights (skinning.h), so the body bends
 * smoothly at the joints. Caller's buffers, no allocation. */
#ifndef IKIT_BONE_MESH_H
#define IKIT_BONE_MESH_H

#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/skeleton.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ik_bone_mesh_shape {
    int segments;  /* vertices around each capsule, 3..64; default 12 */
    int rings;     /* rings along the straight part, 2..64; default 4 */
    int cap_rings; /* rings on each half-sphere, 1..16; default 3 */
    /* [joint_count] or NULL: radius[j] is the radius at joint j's end of
     * the bone from its parent (the tube tapers from the parent's radius,
     * radius[parent], to it; a root's radius is its children's start). NULL:
     * 0.15 of each bone's length at both ends. Entries >= 0. */
    const ik_real *radius;
    /* [joint_count] or NULL: for a leaf joint, the length of a capsule past
     * it along its bone (radius[j] wide), 0 for none. */
    const ik_real *leaf_length;
    /* The share of each capsule's length at either end whose vertices blend
     * toward the neighbouring joint (at most half the weight at the joint
     * itself), 0..0.5; default 0.3. */
    ik_real blend;
} ik_bone_mesh_shape;

/* A shape with the defaults above, the arrays NULL. */
ik_bone_mesh_shape ik_bone_mesh_shape_make(void);

/* The body, in the caller's buffers of ik_bone_mesh_count's sizes. */
typedef struct ik_bone_mesh {
    ik_vec3 *positions_ms; /* [vertex_count]: at the rest pose `rest_ms` (the bind pose) */
    int *joints;           /* [vertex_count * 4] skinning influences (skinning.h) */
    ik_real *weights;      /* [vertex_count * 4] summing to 1 */
    int *indices;          /* [triangle_count * 3], counter-clockwise seen from outside */
    int *triangle_joint;   /* [triangle_count] or NULL: the joint each triangle's capsule follows */
} ik_bone_mesh;

/* Vertices and triangles of the body of `skeleton` at the rest pose
 * `rest_ms` [joint_count] (forward kinematics of the rest pose): a capsule
 * for every bone longer than 1e-6 of the skeleton's largest bone, and for
 * every leaf with a leaf_length > 0. IK_ERR_NULL, IK_ERR_RANGE (a count
 * outside its range, a negative radius or leaf length, blend outside
 * 0..0.5), IK_ERR_NONFINITE. */
ik_result ik_bone_mesh_count(const ik_skeleton *skeleton, const ik_mat4 *rest_ms, const ik_bone_mesh_shape *shape,
                             int *vertex_count, int *triangle_count);

/* Build the body into `out` (buffers of at least the counts above:
 * IK_ERR_CAPACITY otherwise, nothing written). Skin it with
 * inverse_bind[j] = rest_ms[j]^-1: at the rest pose every vertex stays. */
ik_result ik_bone_mesh_build(const ik_skeleton *skeleton, const ik_mat4 *rest_ms, const ik_bone_mesh_shape *shape,
                             int vertex_capacity, int triangle_capacity, ik_bone_mesh *out);

#ifdef __cplusplus
}
#endif
#endif

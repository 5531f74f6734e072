/* A character's skinned mesh in ikc's pictures: the glTF skin's meshes merged
 * into one, posed by linear blend skinning (ikit/skinning.h), then projected
 * into flat-shaded triangles, back faces culled, in the painter's order
 * (farthest first). The cairo fill is draw.c's. */
#ifndef IKC_MESH_VIEW_H
#define IKC_MESH_VIEW_H

#include <ikit/asset.h>
#include <ikit/math.h>

#include "scene_view.h"

/* Every skinned mesh of the asset's skin, merged. */
typedef struct ikc_mesh {
    int vertex_count, triangle_count, joint_count;
    ik_vec3 *positions_bind;     /* [vertex_count] */
    int *joints;                 /* [vertex_count * 4] */
    ik_real *weights;            /* [vertex_count * 4] */
    int *indices;                /* [triangle_count * 3] */
    float *color;                /* [triangle_count * 3]: the part's base colour, RGB */
    const ik_mat4 *inverse_bind; /* the skin's, or inverse_bind_own: [joint_count] */
    ik_mat4 *inverse_bind_own;   /* a generated body's, or NULL */
    ik_mat4 *skin_ms;            /* scratch [joint_count] */
} ikc_mesh;

/* Load the mesh of `asset` (a glTF file with a skinned mesh on its
 * character's skin). Returns 1 with a mesh, 0 when there is none (BVH, chain
 * files, skins without meshes, meshes that cannot be read), -1 when out of
 * memory. `why` is empty, or names the first skinned mesh that is not drawn
 * and why, with its place in the file (a vertex whose weights follow no
 * joint): a warning to print, whatever the return. */
int ikc_mesh_load(const ik_asset *asset, ikc_mesh *mesh, char *why, size_t why_size);
void ikc_mesh_free(ikc_mesh *mesh);
/* A body for a skeleton without a mesh (ikit/bone_mesh.h: a capsule round
 * each bone, skinned to it) at the rest pose `rest_ms`, with the joints'
 * `radius` and leaves' `leaf_length` [joint_count], in one colour. Returns 1,
 * 0 when the shape is refused, -1 when out of memory. */
int ikc_mesh_from_bones(const ik_skeleton *skeleton, const ik_mat4 *rest_ms, const ik_real *radius,
                        const ik_real *leaf_length, const float rgb[3], ikc_mesh *mesh);

/* The mesh posed by the joints' model matrices (with root_ms):
 * posed_ms[vertex_count]. Returns 0 when it cannot be (a joint's frame or a
 * skinned point overflows). */
int ikc_mesh_pose(ikc_mesh *mesh, const ik_mat4 *model_ms, ik_vec3 *posed_ms);
/* ikc_mesh_pose, with a warning "ikc COMMAND: warning: ..." naming the joint
 * whose frame overflows when it fails. */
int ikc_mesh_pose_named(const char *command, const ik_asset *asset, ikc_mesh *mesh, const ik_mat4 *model_ms,
                        ik_vec3 *posed_ms);

/* The asset's mesh in the pose `model_ms` on `panel` (one picture of one
 * pose): loads `mesh` and allocates *posed_ms; release both with
 * ikc_mesh_detach. Returns 1 with a mesh on the panel, else 0 (none, or no
 * memory: the panel keeps its bones). A mesh not drawn is a warning
 * "ikc COMMAND: warning: ..." that names it. */
int ikc_mesh_attach(const char *command, const ik_asset *asset, const ik_mat4 *model_ms, ikc_mesh *mesh,
                    ik_vec3 **posed_ms, ikc_panel *panel);
void ikc_mesh_detach(ikc_mesh *mesh, ik_vec3 *posed_ms);

/* One visible triangle on the page. */
typedef struct ikc_mesh_face {
    float x[3], y[3];
    float rgb[3]; /* shaded */
    float depth;
} ikc_mesh_face;

/* The faces of the posed mesh seen by `camera` in the panel whose bottom-left
 * is (px, py): front faces only (counter-clockwise in glTF, clockwise on the
 * page, whose y points down), shaded by a light fixed to the camera
 * (ambient + Lambert), sorted farthest first, each grown by half a page
 * unit about its centre so that neighbours leave no seam. `faces` holds
 * triangle_count; returns how many are visible. */
int ikc_mesh_faces(const ikc_mesh *mesh, const ik_vec3 *posed_ms, const ikc_camera *camera, double px, double py,
                   ikc_mesh_face *faces);

#endif

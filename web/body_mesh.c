/* The built-in humanoid's body for the page: a capsule round every bone,
 * tapering from joint to joint and closed by half-spheres (the anim layer's
 * ik_bone_mesh_build), with the rig layer's radii for that figure
 * (ik_humanoid_build_body): the body ikc's demo pictures draw. It is built
 * at the rest pose with linear blend skinning weights and handed to the page
 * as plain arrays; web/body_view.js draws it as a three.js skinned mesh
 * whose bones take each solved pose. A figure from a file brings its own
 * mesh (glTF) or has none (BVH): these radii are the built-in figure's. */
#include <ikit/bone_mesh.h>
#include <ikit/humanoid.h>

#include <stdlib.h>

#include "ikit_web.h"

static struct {
    float *positions; /* [3 * vertices], model space at rest */
    int *joints;      /* [4 * vertices] */
    float *weights;   /* [4 * vertices] */
    int *indices;     /* [3 * triangles] */
    int vertices, triangles;
} mesh;

static void drop_mesh(void) {
    free(mesh.positions);
    free(mesh.joints);
    free(mesh.weights);
    free(mesh.indices);
    mesh.positions = mesh.weights = NULL;
    mesh.joints = mesh.indices = NULL;
    mesh.vertices = mesh.triangles = 0;
}

IKW_EXPORT(ikw_body_mesh_build) int ikw_body_mesh_build(void) {
    const ik_skeleton *s = ikw_body_skeleton();
    ik_real radius[IK_HUMANOID_BUILT_JOINTS], leaf[IK_HUMANOID_BUILT_JOINTS];
    ik_mat4 rest_ms[IK_HUMANOID_BUILT_JOINTS];
    ik_bone_mesh_shape shape = ik_bone_mesh_shape_make();
    ik_bone_mesh out;
    ik_vec3 *positions = NULL;
    ik_real *weights = NULL;
    ik_result r;
    int v, t, i;
    drop_mesh();
    if (!s || ikw_body_built_height() <= 0 || s->joint_count != IK_HUMANOID_BUILT_JOINTS ||
        ik_humanoid_build_body(ikw_body_built_height(), IK_HUMANOID_BUILT_JOINTS, radius, leaf) == 0) {
        ikw_set_message("only the built-in figure has a body of capsules (a file's figure has its own mesh or none)");
        return -1;
    }
    ik_skeleton_fk(s, s->rest_ls, NULL, rest_ms);
    shape.radius = radius;
    shape.leaf_length = leaf;
    r = ik_bone_mesh_count(s, rest_ms, &shape, &v, &t);
    if (r == IK_OK) {
        positions = (ik_vec3 *)malloc((size_t)v * sizeof *positions);
        weights = (ik_real *)malloc(4 * (size_t)v * sizeof *weights);
        mesh.positions = (float *)malloc(3 * (size_t)v * sizeof *mesh.positions);
        mesh.joints = (int *)malloc(4 * (size_t)v * sizeof *mesh.joints);
        mesh.weights = (float *)malloc(4 * (size_t)v * sizeof *mesh.weights);
        mesh.indices = (int *)malloc(3 * (size_t)t * sizeof *mesh.indices);
        if (!positions || !weights || !mesh.positions || !mesh.joints || !mesh.weights || !mesh.indices)
            r = IK_ERR_NO_MEMORY;
    }
    if (r == IK_OK) {
        out.positions_ms = positions;
        out.joints = mesh.joints;
        out.weights = weights;
        out.indices = mesh.indices;
        out.triangle_joint = NULL;
        r = ik_bone_mesh_build(s, rest_ms, &shape, v, t, &out);
    }
    if (r == IK_OK) {
        for (i = 0; i < v; ++i) {
            mesh.positions[3 * i] = (float)positions[i].x;
            mesh.positions[3 * i + 1] = (float)positions[i].y;
            mesh.positions[3 * i + 2] = (float)positions[i].z;
        }
        for (i = 0; i < 4 * v; ++i) mesh.weights[i] = (float)weights[i];
        mesh.vertices = v;
        mesh.triangles = t;
    }
    free(positions);
    free(weights);
    if (r != IK_OK) {
        drop_mesh();
        ikw_set_message(ik_result_str(r));
        return -1;
    }
    return v;
}

IKW_EXPORT(ikw_body_mesh_triangle_count) int ikw_body_mesh_triangle_count(void) { return mesh.triangles; }
IKW_EXPORT(ikw_body_mesh_positions) const float *ikw_body_mesh_positions(void) { return mesh.positions; }
IKW_EXPORT(ikw_body_mesh_joints) const int *ikw_body_mesh_joints(void) { return mesh.joints; }
IKW_EXPORT(ikw_body_mesh_weights) const float *ikw_body_mesh_weights(void) { return mesh.weights; }
IKW_EXPORT(ikw_body_mesh_indices) const int *ikw_body_mesh_indices(void) { return mesh.indices; }

/* The skinned mesh of ikc's pictures (mesh_view.h): loading the skin's
 * meshes, posing them, and the projected, culled, shaded and sorted faces. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ikit/bone_mesh.h>
#include <ikit/skinning.h>

#include "ikc.h"
#include "mesh_view.h"

void ikc_mesh_free(ikc_mesh *m) {
    free(m->positions_bind);
    free(m->joints);
    free(m->weights);
    free(m->indices);
    free(m->color);
    free(m->inverse_bind_own);
    free(m->skin_ms);
    memset(m, 0, sizeof *m);
}

/* Room for `vertices` and `triangles` more. */
static int grow(ikc_mesh *m, int vertices, int triangles) {
    size_t v = (size_t)(m->vertex_count + vertices), t = (size_t)(m->triangle_count + triangles);
    ik_vec3 *p = (ik_vec3 *)realloc(m->positions_bind, (v + 1) * sizeof *p);
    int *j, *ix;
    ik_real *w;
    float *c;
    if (p) m->positions_bind = p;
    j = (int *)realloc(m->joints, (v * 4 + 1) * sizeof *j);
    if (j) m->joints = j;
    w = (ik_real *)realloc(m->weights, (v * 4 + 1) * sizeof *w);
    if (w) m->weights = w;
    ix = (int *)realloc(m->indices, (t * 3 + 1) * sizeof *ix);
    if (ix) m->indices = ix;
    c = (float *)realloc(m->color, (t * 3 + 1) * sizeof *c);
    if (c) m->color = c;
    return p && j && w && ix && c;
}

/* A part without a colour of its own (white: no baseColorFactor, often a
 * texture ikc does not read) is drawn in clay, which shows on the white
 * panel. */
static const float clay[3] = {0.78f, 0.72f, 0.64f};

/* Append one glTF skinned mesh, its indices shifted past the vertices
 * already held. */
static void append(ikc_mesh *m, const ik_gltf_skinned_mesh *s) {
    int i, k, base = m->vertex_count;
    memcpy(m->positions_bind + base, s->positions, (size_t)s->vertex_count * sizeof *s->positions);
    memcpy(m->joints + (size_t)base * 4, s->joints, (size_t)s->vertex_count * 4 * sizeof *s->joints);
    memcpy(m->weights + (size_t)base * 4, s->weights, (size_t)s->vertex_count * 4 * sizeof *s->weights);
    for (i = 0; i < s->triangle_count * 3; ++i) m->indices[(size_t)m->triangle_count * 3 + i] = base + s->indices[i];
    for (i = 0; i < s->part_count; ++i) {
        const ik_gltf_mesh_part *part = &s->parts[i];
        for (k = 0; k < part->triangle_count; ++k) {
            float *c = m->color + (size_t)(m->triangle_count + part->first_triangle + k) * 3;
            int white = part->base_color[0] == 1 && part->base_color[1] == 1 && part->base_color[2] == 1, e;
            for (e = 0; e < 3; ++e) c[e] = white ? clay[e] : (float)part->base_color[e];
        }
    }
    m->vertex_count += s->vertex_count;
    m->triangle_count += s->triangle_count;
}

int ikc_mesh_load(const ik_asset *asset, ikc_mesh *m, char *why, size_t why_size) {
    const ik_gltf_skin *skin;
    int i, count;
    memset(m, 0, sizeof *m);
    why[0] = '\0';
    if (!asset->gltf) return 0;
    skin = ik_gltf_skeleton(asset->gltf, asset->skin);
    count = ik_gltf_skinned_mesh_count(asset->gltf);
    for (i = 0; i < count; ++i) {
        ik_gltf_skinned_mesh s;
        ik_error e;
        ik_result r = ik_gltf_skinned_mesh_read(asset->gltf, i, &s, &e);
        if (r == IK_ERR_NO_MEMORY) {
            ikc_mesh_free(m);
            return -1;
        }
        if (r != IK_OK) {
            if (!why[0])
                snprintf(why, why_size, "%s: a skinned mesh is not drawn: %s", asset->path,
                         e.message[0] ? e.message : ik_result_str(r));
            continue;
        }
        if (s.skin == asset->skin && s.triangle_count > 0 &&
            (m->vertex_count > INT_MAX / 4 - s.vertex_count || !grow(m, s.vertex_count, s.triangle_count))) {
            ik_gltf_skinned_mesh_free(&s);
            ikc_mesh_free(m);
            return -1;
        }
        if (s.skin == asset->skin) append(m, &s);
        ik_gltf_skinned_mesh_free(&s);
    }
    if (m->triangle_count == 0) {
        ikc_mesh_free(m);
        return 0;
    }
    m->joint_count = skin->skeleton.joint_count;
    m->inverse_bind = skin->inverse_bind;
    m->skin_ms = (ik_mat4 *)malloc((size_t)m->joint_count * sizeof *m->skin_ms);
    if (!m->skin_ms) {
        ikc_mesh_free(m);
        return -1;
    }
    return 1;
}

int ikc_mesh_from_bones(const ik_skeleton *skeleton, const ik_mat4 *rest_ms, const ik_real *radius,
                        const ik_real *leaf_length, const float rgb[3], ikc_mesh *m) {
    ik_bone_mesh_shape shape = ik_bone_mesh_shape_make();
    ik_bone_mesh body;
    int vertices, triangles, n = skeleton->joint_count, i;
    memset(m, 0, sizeof *m);
    shape.radius = radius;
    shape.leaf_length = leaf_length;
    if (ik_bone_mesh_count(skeleton, rest_ms, &shape, &vertices, &triangles) != IK_OK || triangles == 0) return 0;
    if (!grow(m, vertices, triangles) || !(m->inverse_bind_own = (ik_mat4 *)malloc((size_t)n * sizeof(ik_mat4))) ||
        !(m->skin_ms = (ik_mat4 *)malloc((size_t)n * sizeof *m->skin_ms))) {
        ikc_mesh_free(m);
        return -1;
    }
    body.positions_ms = m->positions_bind;
    body.joints = m->joints;
    body.weights = m->weights;
    body.indices = m->indices;
    body.triangle_joint = NULL;
    if (ik_bone_mesh_build(skeleton, rest_ms, &shape, vertices, triangles, &body) != IK_OK) {
        ikc_mesh_free(m);
        return 0;
    }
    /* the bind pose is the rest pose: inverse_bind[j] = rest_ms[j]^-1 */
    for (i = 0; i < n; ++i)
        if (!ik_mat4_inverse(&rest_ms[i], &m->inverse_bind_own[i])) m->inverse_bind_own[i] = ik_mat4_identity();
    for (i = 0; i < 3 * triangles; ++i) m->color[i] = rgb[i % 3];
    m->vertex_count = vertices;
    m->triangle_count = triangles;
    m->joint_count = n;
    m->inverse_bind = m->inverse_bind_own;
    return 1;
}

static ik_result pose(ikc_mesh *m, const ik_mat4 *model_ms, ik_vec3 *posed_ms) {
    ik_skin_matrices(model_ms, m->inverse_bind, m->joint_count, m->skin_ms);
    return ik_skin_vertices(m->skin_ms, m->joint_count, m->joints, m->weights, m->positions_bind, m->vertex_count,
                            posed_ms);
}

int ikc_mesh_pose(ikc_mesh *m, const ik_mat4 *model_ms, ik_vec3 *posed_ms) {
    return pose(m, model_ms, posed_ms) == IK_OK;
}

/* The joint whose model matrix is not finite or whose skinning matrix
 * overflows, or -1. */
static int unusable_joint(const ikc_mesh *m, const ik_mat4 *model_ms) {
    int j, k;
    for (j = 0; j < m->joint_count; ++j)
        for (k = 0; k < 16; ++k)
            if (!ik_finite(model_ms[j].m[k]) || !ik_finite(m->skin_ms[j].m[k])) return j;
    return -1;
}

int ikc_mesh_pose_named(const char *command, const ik_asset *asset, ikc_mesh *m, const ik_mat4 *model_ms,
                        ik_vec3 *posed_ms) {
    ik_result r = pose(m, model_ms, posed_ms);
    int j;
    if (r == IK_OK) return 1;
    j = unusable_joint(m, model_ms);
    if (j >= 0)
        fprintf(stderr,
                "ikc %s: warning: %s: the mesh cannot follow joint '%s' (its frame overflows); drawing the "
                "bones\n",
                command, asset->path, ikc_shown(ik_skeleton_name(asset->skeleton, j)));
    else
        fprintf(stderr, "ikc %s: warning: %s: the mesh cannot be posed (%s); drawing the bones\n", command, asset->path,
                r == IK_ERR_NONFINITE ? "a skinned vertex lands past the largest number" : ik_result_str(r));
    return 0;
}

int ikc_mesh_attach(const char *command, const ik_asset *asset, const ik_mat4 *model_ms, ikc_mesh *mesh,
                    ik_vec3 **posed_ms, ikc_panel *panel) {
    char why[600];
    int loaded = ikc_mesh_load(asset, mesh, why, sizeof why);
    *posed_ms = NULL;
    if (why[0])
        fprintf(stderr, "ikc %s: warning: %s%s\n", command, ikc_shown(why), loaded ? "" : "; drawing the bones");
    if (loaded <= 0) return 0;
    *posed_ms = (ik_vec3 *)malloc(((size_t)mesh->vertex_count + 1) * sizeof **posed_ms);
    if (!*posed_ms || !ikc_mesh_pose_named(command, asset, mesh, model_ms, *posed_ms)) {
        ikc_mesh_detach(mesh, *posed_ms);
        *posed_ms = NULL;
        return 0;
    }
    panel->mesh = mesh;
    panel->mesh_ms = *posed_ms;
    return 1;
}

void ikc_mesh_detach(ikc_mesh *mesh, ik_vec3 *posed_ms) {
    free(posed_ms);
    ikc_mesh_free(mesh);
}

/* Page units each face's corners move out from its centre. */
#define SEAM_GROW 0.5

static int farther_first(const void *a, const void *b) {
    float da = ((const ikc_mesh_face *)a)->depth, db = ((const ikc_mesh_face *)b)->depth;
    return da > db ? -1 : da < db;
}

/* Front faces (counter-clockwise with v up) turn clockwise on the page,
 * whose y points down: there the cross product of two edges,
 * (b - a) x (c - a), is negative. Shade = 0.35 + 0.65 max(0, n . l), l a light over the
 * camera's left shoulder. */
int ikc_mesh_faces(const ikc_mesh *m, const ik_vec3 *posed, const ikc_camera *cam, double px, double py,
                   ikc_mesh_face *faces) {
    ik_vec3 light = ik_vec3_normalize(
        ik_vec3_add(ik_vec3_add(ik_vec3_scale(cam->forward, (ik_real)0.8), ik_vec3_scale(cam->up, (ik_real)0.6)),
                    ik_vec3_scale(cam->right, (ik_real)-0.35)));
    int t, k, count = 0;
    for (t = 0; t < m->triangle_count; ++t) {
        const int *ix = m->indices + (size_t)t * 3;
        ik_vec3 a = posed[ix[0]], b = posed[ix[1]], c = posed[ix[2]], n;
        ikc_mesh_face *f = &faces[count];
        ikc_page_point q[3];
        double area, shade, len, cx, cy;
        q[0] = ikc_camera_to_page(cam, a, px, py);
        q[1] = ikc_camera_to_page(cam, b, px, py);
        q[2] = ikc_camera_to_page(cam, c, px, py);
        area = (q[1].x - q[0].x) * (q[2].y - q[0].y) - (q[1].y - q[0].y) * (q[2].x - q[0].x);
        if (!(area < 0)) continue;
        n = ik_vec3_cross(ik_vec3_sub(b, a), ik_vec3_sub(c, a));
        len = (double)ik_vec3_length(n);
        shade = len > 0 ? (double)ik_vec3_dot(n, light) / len : 0;
        shade = 0.35 + 0.65 * (shade > 0 ? shade : 0);
        cx = (q[0].x + q[1].x + q[2].x) / 3;
        cy = (q[0].y + q[1].y + q[2].y) / 3;
        for (k = 0; k < 3; ++k) {
            /* each corner half a pixel farther from the centre: neighbours
             * overlap instead of leaving an antialiased seam */
            double dx = q[k].x - cx, dy = q[k].y - cy, d = sqrt(dx * dx + dy * dy);
            double grow = d > 0 ? SEAM_GROW / d : 0;
            f->x[k] = (float)(q[k].x + dx * grow);
            f->y[k] = (float)(q[k].y + dy * grow);
            f->rgb[k] = (float)(m->color[(size_t)t * 3 + k] * shade);
        }
        f->depth = (float)-ik_vec3_dot(
            ik_vec3_sub(ik_vec3_scale(ik_vec3_add(ik_vec3_add(a, b), c), (ik_real)(1.0 / 3)), cam->eye), cam->forward);
        ++count;
    }
    qsort(faces, (size_t)count, sizeof *faces, farther_first);
    return count;
}

/* glTF 2.0 skinned meshes: the triangle primitives of a node that has both a
 * mesh and a skin, with their POSITION, JOINTS_0, WEIGHTS_0 and indices
 * (glTF 2.0 specification, sections 3.7.2 "Meshes" and 3.7.3 "Skins"), and
 * each primitive's base colour (section 3.9.2). */
#include "gltf_doc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRIANGLES_MODE 4

int ik_gltf_skinned_mesh_count(const ik_gltf *g) { return g ? g->skinned_node_count : 0; }

/* The decoded accessor named by member `key` of `obj` (primitive `i` of mesh
 * `m`, or its attributes when `in_attributes`), which must have `width`
 * components and, when `count` >= 0, that many elements. NULL *out when
 * absent and optional. */
static ik_result attribute(ik_gltf *g, const json_value *obj, int in_attributes, const char *key, int width, long count,
                           int required, long m, long i, const gltf_values **out, ik_error *error) {
    const char *fmt = in_attributes ? "/meshes/%ld/primitives/%ld/attributes" : "/meshes/%ld/primitives/%ld";
    gltf_path p;
    const char *where = gltf_path_format(&p, fmt, m, i, NULL);
    long a;
    ik_result r;
    *out = NULL;
    if (!json_member(obj, key)) return required ? gltf_fail(error, IK_ERR_PARSE, where, "no %s", key) : IK_OK;
    if ((r = gltf_get_index(obj, key, (long)g->accessor_count - 1, 0, &a, fmt, m, i, error)) != IK_OK) return r;
    if ((r = gltf_decode_accessor(g, a, out, error)) != IK_OK) return r;
    if ((*out)->width != width || (count >= 0 && (*out)->count != count))
        return gltf_fail(error, IK_ERR_PARSE, where, "%s: accessor %ld has %ld x %d values, want %ld x %d", key, a,
                         (*out)->count, (*out)->width, count, width);
    return IK_OK;
}

/* The base colour factor of the primitive's material (white without one);
 * a material index is taken as its integer part, as before. */
static void part_color(const ik_gltf *g, const json_value *primitive, ik_real color[4]) {
    const json_value *mat = json_member(primitive, "material");
    const json_value *factor = NULL, *c;
    int k;
    for (k = 0; k < 4; ++k) color[k] = 1;
    if (json_is_number(mat) && mat->as.number > -1 && mat->as.number < (double)g->material_count) {
        const json_value *m = g->material_items[(long)mat->as.number];
        factor = json_member(json_member(m, "pbrMetallicRoughness"), "baseColorFactor");
    }
    if (json_count(factor) != 4) return;
    k = 0;
    JSON_FOR_EACH(c, factor) {
        if (json_is_number(c) && c->as.number >= 0 && c->as.number <= 1) color[k] = (ik_real)c->as.number;
        ++k;
    }
}

/* Skeleton joint of each entry of skin.joints (a table of
 * `skin_joint_count` entries). */
static int *skeleton_joint_table(const gltf_skin_data *d, int *skin_joint_count) {
    int j, n = 0, *table;
    for (j = 0; j < d->view.skeleton.joint_count; ++j)
        if (d->skin_joint[j] + 1 > n) n = d->skin_joint[j] + 1;
    table = (int *)malloc(((size_t)n + 1) * sizeof *table);
    if (!table) return NULL;
    for (j = 0; j < d->view.skeleton.joint_count; ++j)
        if (d->skin_joint[j] >= 0) table[d->skin_joint[j]] = j;
    *skin_joint_count = n;
    return table;
}

typedef struct primitive_data {
    const gltf_values *position, *joints, *weights, *indices;
} primitive_data;

/* The triangle primitives' accessors, checked; totals of vertices and
 * triangles. `prims` has one slot per primitive; skipped ones have NULL
 * positions. */
static ik_result gather(ik_gltf *g, const json_value *primitives, long m, primitive_data *prims, long *vertices,
                        long *triangles, ik_error *error) {
    const json_value *prim;
    gltf_path p;
    long i = 0;
    ik_result r;
    *vertices = *triangles = 0;
    JSON_FOR_EACH(prim, primitives) {
        const json_value *attrs = json_member(prim, "attributes");
        const json_value *mode = json_member(prim, "mode");
        primitive_data *d = &prims[i];
        long n, k;
        memset(d, 0, sizeof *d);
        gltf_path_format(&p, "/meshes/%ld/primitives/%ld", m, i, NULL);
        if ((mode && !(json_is_number(mode) && mode->as.number == TRIANGLES_MODE)) || !json_member(attrs, "JOINTS_0")) {
            ++i;
            continue;
        }
        /* Its accessors then carry no data of their own (the extension's
         * specification): drawn, they would all be zeros. */
        if (json_member(json_member(prim, "extensions"), "KHR_draco_mesh_compression"))
            return gltf_fail(error, IK_ERR_UNSUPPORTED, p.text,
                             "compressed with KHR_draco_mesh_compression, which ikit does not decode");
        if ((r = attribute(g, attrs, 1, "POSITION", 3, -1, 1, m, i, &d->position, error)) != IK_OK) return r;
        n = d->position->count;
        if ((r = attribute(g, attrs, 1, "JOINTS_0", 4, n, 1, m, i, &d->joints, error)) != IK_OK) return r;
        if ((r = attribute(g, attrs, 1, "WEIGHTS_0", 4, n, 1, m, i, &d->weights, error)) != IK_OK) return r;
        if ((r = attribute(g, prim, 0, "indices", 1, -1, 0, m, i, &d->indices, error)) != IK_OK) return r;
        ++i;
        k = d->indices ? d->indices->count : n;
        if (k % 3 != 0) return gltf_fail(error, IK_ERR_PARSE, p.text, "%ld indices is not whole triangles", k);
        *vertices += n;
        *triangles += k / 3;
        if (*vertices > INT_MAX / 4 || *triangles > INT_MAX / 3)
            return gltf_fail(error, IK_ERR_UNSUPPORTED, p.text, "too many vertices");
    }
    return IK_OK;
}

static const char *weights_path(gltf_path *p, const char *primitive) {
    snprintf(p->text, sizeof p->text, "%.100s/attributes/WEIGHTS_0", primitive);
    return p->text;
}

/* Copy one primitive into the merged arrays at vertex `base`, triangle
 * `tri`. A vertex's weights must be finite and non-negative and follow some
 * joint (sum > 0; the specification's section 3.7.3.3 asks for a sum of 1,
 * which skinning divides out): one that follows no joint could not be
 * skinned, so it is refused here, with its mesh and vertex named. */
static ik_result append(const primitive_data *d, const int *joint_table, int table_count, int base, int tri,
                        ik_gltf_skinned_mesh *out, const char *where, const char *mesh_name, ik_error *error) {
    long n = d->position->count, k = d->indices ? d->indices->count : n, i;
    gltf_path p;
    for (i = 0; i < n; ++i) {
        const ik_real *pos = d->position->data + i * 3;
        ik_real sum = 0;
        int c;
        out->positions[base + i] = ik_v3(pos[0], pos[1], pos[2]);
        for (c = 0; c < 4; ++c) {
            ik_real j = d->joints->data[i * 4 + c];
            ik_real w = d->weights->data[i * 4 + c];
            if (!(j >= 0 && j < (ik_real)table_count && j == (ik_real)(int)j))
                return gltf_fail(error, IK_ERR_PARSE, where, "JOINTS_0 of vertex %ld names joint %g of %d", i,
                                 (double)j, table_count);
            if (!(ik_finite(w) && w >= 0))
                return gltf_fail(error, IK_ERR_PARSE, weights_path(&p, where),
                                 "%svertex %ld: weight %d is %g (weights are finite and not negative)", mesh_name, i, c,
                                 (double)w);
            out->joints[(size_t)(base + i) * 4 + c] = joint_table[(int)j];
            out->weights[(size_t)(base + i) * 4 + c] = w;
            sum += w;
        }
        if (!(sum > 0))
            return gltf_fail(error, IK_ERR_PARSE, weights_path(&p, where),
                             "%svertex %ld: its weights are all 0, so it follows no joint", mesh_name, i);
    }
    for (i = 0; i < k; ++i) {
        ik_real v = d->indices ? d->indices->data[i] : (ik_real)i;
        if (!(v >= 0 && v < (ik_real)n))
            return gltf_fail(error, IK_ERR_PARSE, where, "index %ld is %g, beyond %ld vertices", i, (double)v, n);
        out->indices[(size_t)tri * 3 + i] = base + (int)v;
    }
    return IK_OK;
}

void ik_gltf_skinned_mesh_free(ik_gltf_skinned_mesh *mesh) {
    if (!mesh) return;
    free(mesh->positions);
    free(mesh->joints);
    free(mesh->weights);
    free(mesh->indices);
    free(mesh->parts);
    memset(mesh, 0, sizeof *mesh);
}

ik_result ik_gltf_skinned_mesh_read(ik_gltf *g, int index, ik_gltf_skinned_mesh *out, ik_error *error) {
    const json_value *primitives, *prim;
    char mesh_name[240];
    primitive_data *prims = NULL;
    int *joint_table = NULL, table_count = 0, n, i = 0, base = 0, tri = 0;
    long m, s, vertices, triangles;
    gltf_path p;
    ik_result r;
    if (!g || !out) return IK_ERR_NULL;
    memset(out, 0, sizeof *out);
    if (index < 0 || index >= g->skinned_node_count)
        return gltf_fail(error, IK_ERR_RANGE, "/nodes", "no skinned mesh %d", index);
    n = g->skinned_nodes[index];
    m = g->nodes[n].mesh; /* checked by the reader */
    s = g->nodes[n].skin;
    primitives = json_member(g->mesh_items[m], "primitives");
    mesh_name[0] = '\0';
    if (json_string(json_member(g->mesh_items[m], "name")))
        snprintf(mesh_name, sizeof mesh_name, "mesh '%.200s', ", json_string(json_member(g->mesh_items[m], "name")));
    if (!json_is_array(primitives))
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "meshes", m, "primitives"), "must be an array");
    prims = (primitive_data *)calloc((size_t)json_count(primitives) + 1, sizeof *prims);
    joint_table = skeleton_joint_table(&g->skins[s], &table_count);
    if (!prims || !joint_table) {
        r = gltf_fail(error, IK_ERR_NO_MEMORY, "/meshes", "out of memory");
        goto done;
    }
    if ((r = gather(g, primitives, m, prims, &vertices, &triangles, error)) != IK_OK) goto done;
    out->skin = (int)s;
    out->vertex_count = (int)vertices;
    out->triangle_count = (int)triangles;
    out->positions = (ik_vec3 *)malloc(((size_t)vertices + 1) * sizeof *out->positions);
    out->joints = (int *)malloc(((size_t)vertices * 4 + 1) * sizeof *out->joints);
    out->weights = (ik_real *)malloc(((size_t)vertices * 4 + 1) * sizeof *out->weights);
    out->indices = (int *)malloc(((size_t)triangles * 3 + 1) * sizeof *out->indices);
    out->parts = (ik_gltf_mesh_part *)calloc((size_t)json_count(primitives) + 1, sizeof *out->parts);
    if (!out->positions || !out->joints || !out->weights || !out->indices || !out->parts) {
        r = gltf_fail(error, IK_ERR_NO_MEMORY, "/meshes", "out of memory");
        goto done;
    }
    JSON_FOR_EACH(prim, primitives) {
        const primitive_data *d = &prims[i];
        ik_gltf_mesh_part *part = &out->parts[out->part_count];
        gltf_path_format(&p, "/meshes/%ld/primitives/%ld", m, i++, NULL);
        if (!d->position) continue;
        if ((r = append(d, joint_table, table_count, base, tri, out, p.text, mesh_name, error)) != IK_OK) goto done;
        part->first_triangle = tri;
        part->triangle_count = (int)((d->indices ? d->indices->count : d->position->count) / 3);
        part_color(g, prim, part->base_color);
        base += (int)d->position->count;
        tri += part->triangle_count;
        ++out->part_count;
    }
done:
    free(prims);
    free(joint_table);
    if (r != IK_OK) ik_gltf_skinned_mesh_free(out);
    return r;
}

/* glTF 2.0 node graph and skins: node parents (one parent at most, no
 * cycles), node transforms, and one ik_skeleton per skin. Node and skin rules
 * from the glTF 2.0 specification, sections 3.5 (nodes and hierarchy) and 3.7.3
 * (skins). */
#include "gltf_doc.h"
#include "rest_check.h"

#include <ikit/utf8.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Optional member `arr` (named `key`) of node `node`: an array of exactly n
 * finite numbers. */
static ik_result read_numbers(const json_value *arr, const char *key, int n, double *out, int *present, int node,
                              ik_error *error) {
    const json_value *item;
    gltf_path p;
    int i = 0;
    *present = arr != NULL;
    if (!arr) return IK_OK;
    JSON_FOR_EACH(item, arr) {
        if (i == n || !json_is_number(item)) break;
        if (!(item->as.number - item->as.number == 0))
            return gltf_fail(error, IK_ERR_NONFINITE, gltf_path_of(&p, "nodes", node, key), "element %d is not finite",
                             i);
        out[i++] = item->as.number;
    }
    if (!json_is_array(arr) || i != n || item)
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "nodes", node, key), "must be an array of %d numbers",
                         n);
    return IK_OK;
}

/* The members of a node the reader uses, found in one walk over its keys
 * (a look-up per key would walk the members again each time). */
typedef struct node_members {
    const json_value *children, *skin, *mesh, *name, *matrix, *translation, *rotation, *scale;
} node_members;

/* A node's members of interest picked out in one walk over its keys,
 * keeping the first of each. */
static void read_node_members(const json_value *object, node_members *node) {
    static const char *const keys[] = {"children", "skin",        "mesh",     "name",
                                       "matrix",   "translation", "rotation", "scale"};
    const json_value *member;
    const json_value **slots[8];
    size_t k;
    memset(node, 0, sizeof *node);
    if (!json_is_object(object)) return;
    slots[0] = &node->children;
    slots[1] = &node->skin;
    slots[2] = &node->mesh;
    slots[3] = &node->name;
    slots[4] = &node->matrix;
    slots[5] = &node->translation;
    slots[6] = &node->rotation;
    slots[7] = &node->scale;
    JSON_FOR_EACH(member, object) {
        const char *key = json_key_of(member);
        for (k = 0; k < sizeof keys / sizeof keys[0]; ++k)
            if (key[0] == keys[k][0] && strcmp(key, keys[k]) == 0) {
                if (!*slots[k]) *slots[k] = member;
                break;
            }
    }
}

/* Node `node`'s local transform as TRS and, when `local` is not NULL, as a
 * matrix (a `matrix` node is decomposed); checked for finiteness and unit
 * rotations. A node is either a column-major `matrix` or translation,
 * rotation (unit quaternion x, y, z, w) and scale, applied as T * R * S
 * (section 3.5.2). */
static ik_result node_local(const node_members *obj, int node, ik_mat4 *local, ik_transform *trs, ik_error *error) {
    double m[16], t[3] = {0, 0, 0}, r[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
    int present, i;
    ik_result res;
    gltf_path p;
    if ((res = read_numbers(obj->matrix, "matrix", 16, m, &present, node, error)) != IK_OK) return res;
    if (present) {
        ik_mat4 given;
        for (i = 0; i < 16; ++i) given.m[i] = (ik_real)m[i];
        if (!ik_mat4_finite(&given))
            return gltf_fail(error, IK_ERR_NONFINITE, gltf_path_of(&p, "nodes", node, "matrix"),
                             "does not fit the scalar type");
        *trs = ik_transform_from_mat4(&given);
        if (local) *local = given;
        return IK_OK;
    }
    if ((res = read_numbers(obj->translation, "translation", 3, t, &present, node, error)) != IK_OK) return res;
    if ((res = read_numbers(obj->rotation, "rotation", 4, r, &present, node, error)) != IK_OK) return res;
    if ((res = read_numbers(obj->scale, "scale", 3, s, &present, node, error)) != IK_OK) return res;
    trs->translation = ik_v3((ik_real)t[0], (ik_real)t[1], (ik_real)t[2]);
    trs->rotation = ik_q((ik_real)r[0], (ik_real)r[1], (ik_real)r[2], (ik_real)r[3]);
    trs->scale = ik_v3((ik_real)s[0], (ik_real)s[1], (ik_real)s[2]);
    if (!ik_transform_finite(*trs))
        return gltf_fail(error, IK_ERR_NONFINITE, gltf_path_of(&p, "nodes", node, NULL),
                         "transform does not fit the scalar type");
    /* an absent rotation is the identity, already unit */
    if (obj->rotation && IK_FABS(ik_quat_length(trs->rotation) - 1) > (ik_real)1e-2)
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "nodes", node, "rotation"),
                         "not a unit quaternion (length %g)", (double)ik_quat_length(trs->rotation));
    if (obj->rotation) trs->rotation = ik_quat_normalize(trs->rotation);
    if (local) *local = ik_transform_to_mat4(*trs);
    return IK_OK;
}

/* world(n) = local(root) ... local(parent) local(n). */
static ik_result node_world(const ik_gltf *g, int node, ik_mat4 *world, ik_error *error) {
    node_members members;
    ik_mat4 local;
    ik_transform trs;
    ik_result r;
    *world = ik_mat4_identity();
    for (; node >= 0; node = g->node_parent[node]) {
        read_node_members(g->nodes[node].object, &members);
        if ((r = node_local(&members, node, &local, &trs, error)) != IK_OK) return r;
        *world = ik_mat4_mul(&local, world);
    }
    return IK_OK;
}

/* Member `key` of node i: absent gives -1, present must be an index below
 * `count`. */
static ik_result check_node_member(const json_value *member, const char *key, long count, long i, int *index,
                                   ik_error *error) {
    long value = -1;
    ik_result r = gltf_check_index(member, key, count - 1, -1, &value, "/nodes/%ld", i, 0, error);
    *index = (int)value;
    return r;
}

/* g->skinned_nodes, from the node table. */
static ik_result list_skinned_nodes(ik_gltf *g, ik_error *error) {
    int n;
    g->skinned_nodes = (int *)malloc(((size_t)g->node_count + 1) * sizeof *g->skinned_nodes);
    if (!g->skinned_nodes) return gltf_fail(error, IK_ERR_NO_MEMORY, "/nodes", "out of memory");
    for (n = 0; n < g->node_count; ++n)
        if (g->nodes[n].mesh >= 0 && g->nodes[n].skin >= 0) g->skinned_nodes[g->skinned_node_count++] = n;
    return IK_OK;
}

/* One walk over the nodes, each read while its members are in cache: the
 * node table, parents from the children lists (a second parent or a child
 * equal to its node is refused) and each node's checked local transform in
 * node_rest. Then cycles are found by walking up with three colours
 * (unvisited, on the current walk, done) in linear time, and the skinned
 * nodes listed. */
static ik_result build_nodes(ik_gltf *g, ik_error *error) {
    const json_value *nodes = json_member(gltf_root(g), "nodes"), *item;
    long skins = json_count(json_member(gltf_root(g), "skins"));
    size_t count = (size_t)json_count(nodes) + 1;
    unsigned char *colour;
    gltf_path p;
    int i = 0, n;
    ik_result r;
    if (nodes && !json_is_array(nodes)) return gltf_fail(error, IK_ERR_PARSE, "/nodes", "must be an array");
    g->nodes = (gltf_node *)malloc(count * sizeof *g->nodes);
    g->node_parent = (int *)malloc(count * sizeof(int));
    g->node_rest = (ik_transform *)malloc(count * sizeof(ik_transform));
    if (!g->nodes || !g->node_parent || !g->node_rest)
        return gltf_fail(error, IK_ERR_NO_MEMORY, "/nodes", "out of memory");
    g->node_count = (int)count - 1;
    for (n = 0; n < g->node_count; ++n) {
        static const gltf_node unread = {NULL, NULL, -1, -1};
        g->nodes[n] = unread;
        g->node_parent[n] = -1;
    }
    JSON_FOR_EACH(item, nodes) {
        gltf_node *node = &g->nodes[i];
        node_members members;
        const json_value *child;
        int k = 0;
        read_node_members(item, &members);
        node->object = item;
        node->name = json_string(members.name);
        if (!json_is_object(item))
            return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "nodes", i, NULL), "must be an object");
        if (members.children && !json_is_array(members.children))
            return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "nodes", i, "children"), "must be an array");
        JSON_FOR_EACH(child, members.children) {
            double v = json_is_number(child) ? child->as.number : -1;
            int c = v >= 0 && v < g->node_count && v == (double)(int)v ? (int)v : -1;
            if (c < 0 || c == i || g->node_parent[c] >= 0) {
                gltf_path_format(&p, "/nodes/%ld/children/%ld", i, k, NULL);
                if (c < 0)
                    return gltf_fail(error, IK_ERR_PARSE, p.text, "not a node index (0 to %d)", g->node_count - 1);
                if (c == i) return gltf_fail(error, IK_ERR_HIERARCHY, p.text, "node %d is its own child", i);
                return gltf_fail(error, IK_ERR_HIERARCHY, p.text, "node %d already has parent %d", c,
                                 g->node_parent[c]);
            }
            g->node_parent[c] = i;
            ++k;
        }
        if ((r = check_node_member(members.skin, "skin", skins, i, &node->skin, error)) != IK_OK) return r;
        if ((r = check_node_member(members.mesh, "mesh", g->mesh_count, i, &node->mesh, error)) != IK_OK) return r;
        if ((r = node_local(&members, i, NULL, &g->node_rest[i], error)) != IK_OK) return r;
        ++i;
    }
    colour = (unsigned char *)calloc((size_t)g->node_count + 1, 1);
    if (!colour) return gltf_fail(error, IK_ERR_NO_MEMORY, "/nodes", "out of memory");
    for (n = 0; n < g->node_count; ++n) {
        int m = n;
        while (m >= 0 && colour[m] == 0) {
            colour[m] = 1;
            m = g->node_parent[m];
        }
        if (m >= 0 && colour[m] == 1) {
            free(colour);
            return gltf_fail(error, IK_ERR_HIERARCHY, gltf_path_of(&p, "nodes", m, "children"),
                             "the node graph has a cycle through node %d", m);
        }
        for (m = n; m >= 0 && colour[m] == 1; m = g->node_parent[m]) colour[m] = 2;
    }
    free(colour);
    return list_skinned_nodes(g, error);
}

/* Scratch arrays over all nodes, shared by every skin. */
typedef struct skin_scratch {
    int *mark;        /* == stamp: on a path from a skin joint up to its tree root and kept */
    int *is_joint;    /* == stamp: listed in skin.joints */
    int *joint_of;    /* skeleton index of a node while a skin is built, else -1 */
    int *child_count; /* marked children */
    int *only_child;
    int *list; /* marked nodes */
    int *stack;
} skin_scratch;

static ik_result skin_fail_memory(ik_error *error, long s) {
    gltf_path p;
    return gltf_fail(error, IK_ERR_NO_MEMORY, gltf_path_of(&p, "skins", s, NULL), "out of memory");
}

static ik_result alloc_skin(gltf_skin_data *d, int n) {
    size_t count = (size_t)n + 1;
    d->parents = (int *)malloc(count * sizeof(int));
    d->names = (const char **)malloc(count * sizeof(char *));
    d->rest_ls = (ik_transform *)malloc(count * sizeof(ik_transform));
    d->inverse_bind = (ik_mat4 *)malloc(count * sizeof(ik_mat4));
    d->node = (int *)malloc(count * sizeof(int));
    d->skin_joint = (int *)malloc(count * sizeof(int));
    return d->parents && d->names && d->rest_ls && d->inverse_bind && d->node && d->skin_joint ? IK_OK
                                                                                               : IK_ERR_NO_MEMORY;
}

/* The skin's joints, unique, as node indices in sc->list order of appearance. */
static ik_result read_skin_joints(const ik_gltf *g, const json_value *skin, int s, int stamp, skin_scratch *sc,
                                  int *joint_count, ik_error *error) {
    const json_value *joints = json_member(skin, "joints");
    const json_value *item;
    gltf_path p;
    int k = 0;
    if (!json_is_object(skin))
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "skins", s, NULL), "must be an object");
    if (!json_is_array(joints) || json_count(joints) < 1)
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "skins", s, "joints"), "must be a non-empty array");
    JSON_FOR_EACH(item, joints) {
        double v = json_is_number(item) ? item->as.number : -1;
        int n;
        if (!(v >= 0 && v < g->node_count && v == (double)(int)v))
            return gltf_fail(error, IK_ERR_PARSE, gltf_path_format(&p, "/skins/%ld/joints/%ld", s, k, NULL),
                             "not a node index (0 to %d)", g->node_count - 1);
        n = (int)v;
        if (sc->is_joint[n] == stamp)
            return gltf_fail(error, IK_ERR_PARSE, gltf_path_format(&p, "/skins/%ld/joints/%ld", s, k, NULL),
                             "node %d is listed twice", n);
        sc->is_joint[n] = stamp;
        sc->stack[k++] = n;
    }
    *joint_count = k;
    return IK_OK;
}

/* Skeleton of one skin.
 * 1. Mark every node on the way from each skin joint up to its tree root.
 * 2. If the marked nodes share one root, walk down from it while a node is
 *    not a joint and has a single marked child: that node is the lowest
 *    common ancestor. A joint there is the skeleton root; a non-joint there
 *    and everything above it become root_ms. Marked nodes in separate trees
 *    are all kept, with root_ms the identity.
 * 3. Emit kept nodes parents-first: skin order, each preceded by its
 *    not-yet-emitted kept ancestors. */
static ik_result build_skin(ik_gltf *g, int s, const json_value *skin, skin_scratch *sc, long *budget,
                            ik_error *error) {
    gltf_skin_data *d = &g->skins[s];
    const json_value *name = json_member(skin, "name");
    int stamp = s + 1, skin_joints = 0, marked = 0, roots = 0, root = -1, above = -1, count = 0, k, i;
    int *skin_nodes;
    ik_result r;
    gltf_path p;
    ik_error skel_error;
    /* glTF is UTF-8 (specification section 3.2); the names ikit hands on
     * (skins, joints, animations) are checked, for terminals and JSON */
    if (json_is_string(name) && !ik_utf8_valid(json_string(name)))
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "skins", s, "name"), "not valid UTF-8");
    if ((r = read_skin_joints(g, skin, s, stamp, sc, &skin_joints, error)) != IK_OK) return r;
    skin_nodes = (int *)malloc((size_t)skin_joints * sizeof(int));
    if (!skin_nodes) return skin_fail_memory(error, s);
    memcpy(skin_nodes, sc->stack, (size_t)skin_joints * sizeof(int));
    for (k = 0; k < skin_joints; ++k) {
        int n = skin_nodes[k];
        while (n >= 0 && sc->mark[n] != stamp) {
            sc->mark[n] = stamp;
            sc->list[marked++] = n;
            n = g->node_parent[n];
        }
    }
    *budget -= marked;
    if (*budget < 0) {
        free(skin_nodes);
        return gltf_fail(error, IK_ERR_UNSUPPORTED, gltf_path_of(&p, "skins", s, NULL),
                         "skeletons larger than %ld joints in all are not supported", GLTF_MAX_SKELETON_JOINTS);
    }
    for (i = 0; i < marked; ++i) sc->child_count[sc->list[i]] = 0;
    for (i = 0; i < marked; ++i) {
        int parent = g->node_parent[sc->list[i]];
        if (parent < 0) {
            ++roots;
            root = sc->list[i];
        } else {
            ++sc->child_count[parent];
            sc->only_child[parent] = sc->list[i];
        }
    }
    d->view.root_ms = ik_mat4_identity();
    if (roots == 1) {
        int lca = root;
        while (sc->is_joint[lca] != stamp && sc->child_count[lca] == 1) lca = sc->only_child[lca];
        above = sc->is_joint[lca] == stamp ? g->node_parent[lca] : lca;
        for (i = above; i >= 0; i = g->node_parent[i]) sc->mark[i] = 0;
        if (above >= 0 && (r = node_world(g, above, &d->view.root_ms, error)) != IK_OK) {
            free(skin_nodes);
            return r;
        }
    }
    for (i = 0; i < marked; ++i) count += sc->mark[sc->list[i]] == stamp;
    if (alloc_skin(d, count) != IK_OK) {
        free(skin_nodes);
        return skin_fail_memory(error, s);
    }
    count = 0;
    for (i = 0; i < skin_joints + marked; ++i) {
        int c = i < skin_joints ? skin_nodes[i] : sc->list[i - skin_joints], depth = 0;
        while (c >= 0 && sc->mark[c] == stamp && sc->joint_of[c] < 0) {
            sc->stack[depth++] = c;
            c = g->node_parent[c];
        }
        while (depth > 0) {
            int n = sc->stack[--depth];
            sc->joint_of[n] = count;
            d->node[count++] = n;
        }
    }
    for (i = 0; i < count; ++i) {
        int n = d->node[i], parent = g->node_parent[n];
        d->parents[i] = parent >= 0 && sc->mark[parent] == stamp ? sc->joint_of[parent] : -1;
        d->names[i] = g->nodes[n].name;
        if (d->names[i] && !ik_utf8_valid(d->names[i])) {
            r = gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "nodes", n, "name"), "not valid UTF-8");
            break;
        }
        d->skin_joint[i] = -1;
        d->inverse_bind[i] = ik_mat4_identity();
        d->rest_ls[i] = g->node_rest[n];
    }
    for (k = 0; k < skin_joints; ++k) d->skin_joint[sc->joint_of[skin_nodes[k]]] = k;
    if (r == IK_OK && json_member(skin, "inverseBindMatrices")) {
        long accessor, ibm_count;
        int type, normalized, width;
        const gltf_values *values;
        gltf_path_of(&p, "skins", s, "inverseBindMatrices");
        r = gltf_get_index(skin, "inverseBindMatrices", (long)g->accessor_count - 1, 0, &accessor, "/skins/%ld", s, 0,
                           error);
        if (r == IK_OK) r = gltf_accessor_kind(g, accessor, &type, &normalized, &width, &ibm_count, error);
        if (r == IK_OK && (type != 5126 || width != 16))
            r = gltf_fail(error, IK_ERR_PARSE, p.text, "accessor %ld must be MAT4 of FLOAT", accessor);
        if (r == IK_OK && ibm_count < skin_joints)
            r = gltf_fail(error, IK_ERR_PARSE, p.text, "accessor %ld holds %ld matrices for %d joints", accessor,
                          ibm_count, skin_joints);
        if (r == IK_OK) r = gltf_decode_accessor(g, accessor, &values, error);
        for (k = 0; r == IK_OK && k < skin_joints; ++k)
            memcpy(d->inverse_bind[sc->joint_of[skin_nodes[k]]].m, values->data + 16 * k, 16 * sizeof(ik_real));
    }
    for (i = 0; i < count; ++i) sc->joint_of[d->node[i]] = -1;
    free(skin_nodes);
    if (r != IK_OK) return r;
    r = ik_io_skeleton_init(&d->view.skeleton, count, d->parents, d->names, d->rest_ls, &skel_error);
    if (r == IK_ERR_NO_MEMORY) return gltf_fail(error, r, gltf_path_of(&p, "skins", s, NULL), "out of memory");
    if (r != IK_OK) {
        int at = skel_error.index >= 0 && skel_error.index < count ? d->node[skel_error.index] : -1;
        return gltf_fail(error, r, at >= 0 ? gltf_path_of(&p, "nodes", at, NULL) : gltf_path_of(&p, "skins", s, NULL),
                         "skin %d: %s", s, skel_error.message);
    }
    /* each node's transform fits ik_real, their product from root_ms down may not */
    k = ik_io_rest_overflow(&d->view.skeleton, &d->view.root_ms);
    if (k == -2) return skin_fail_memory(error, s);
    if (k >= 0)
        return gltf_fail(error, IK_ERR_NONFINITE, gltf_path_of(&p, "nodes", d->node[k], NULL),
                         "skin %d: the rest pose overflows at joint '%s' (the transforms above it multiplied)", s,
                         d->names[k] ? d->names[k] : "(unnamed)");
    d->view.name = json_string(name);
    d->view.inverse_bind = d->inverse_bind;
    d->view.node = d->node;
    d->view.skin_joint = d->skin_joint;
    return IK_OK;
}

static ik_result build_skins(ik_gltf *g, ik_error *error) {
    const json_value *skins = json_member(gltf_root(g), "skins");
    const json_value *skin;
    skin_scratch sc;
    size_t n = (size_t)g->node_count + 1;
    long budget = GLTF_MAX_SKELETON_JOINTS;
    ik_result r = IK_OK;
    int s = 0, i;
    if (!skins) return IK_OK;
    if (!json_is_array(skins)) return gltf_fail(error, IK_ERR_PARSE, "/skins", "must be an array");
    g->skin_count = (int)json_count(skins);
    g->skins = (gltf_skin_data *)calloc((size_t)g->skin_count + 1, sizeof *g->skins);
    sc.mark = (int *)calloc(n, sizeof(int));
    sc.is_joint = (int *)calloc(n, sizeof(int));
    sc.joint_of = (int *)malloc(n * sizeof(int));
    sc.child_count = (int *)calloc(n, sizeof(int));
    sc.only_child = (int *)calloc(n, sizeof(int));
    sc.list = (int *)malloc(n * sizeof(int));
    sc.stack = (int *)malloc(n * sizeof(int));
    if (!g->skins || !sc.mark || !sc.is_joint || !sc.joint_of || !sc.child_count || !sc.only_child || !sc.list ||
        !sc.stack) {
        g->skin_count = 0;
        r = gltf_fail(error, IK_ERR_NO_MEMORY, "/skins", "out of memory");
    } else {
        for (i = 0; i < g->node_count; ++i) sc.joint_of[i] = -1;
        JSON_FOR_EACH(skin, skins) {
            if ((r = build_skin(g, s++, skin, &sc, &budget, error)) != IK_OK) break;
        }
    }
    free(sc.mark);
    free(sc.is_joint);
    free(sc.joint_of);
    free(sc.child_count);
    free(sc.only_child);
    free(sc.list);
    free(sc.stack);
    return r;
}

void gltf_free_derived(ik_gltf *g) {
    int i;
    for (i = 0; g->skins && i < g->skin_count; ++i) {
        gltf_skin_data *d = &g->skins[i];
        free(d->parents);
        free(d->names);
        free(d->rest_ls);
        free(d->inverse_bind);
        free(d->node);
        free(d->skin_joint);
    }
    free(g->skins);
    g->skins = NULL;
    free(g->clip_channels);
    g->clip_channels = NULL;
    free(g->clips);
    g->clips = NULL;
    for (i = 0; g->decoded && i < g->accessor_count; ++i) free(g->decoded[i].data);
    free(g->decoded);
    g->decoded = NULL;
    free(g->node_parent);
    g->node_parent = NULL;
    free(g->node_rest);
    g->node_rest = NULL;
    free(g->nodes);
    g->nodes = NULL;
    free((void *)g->accessor_items);
    free((void *)g->view_items);
    free((void *)g->mesh_items);
    free((void *)g->material_items);
    g->accessor_items = g->view_items = g->mesh_items = g->material_items = NULL;
    free(g->skinned_nodes);
    g->skinned_nodes = NULL;
    g->skin_count = g->animation_count = g->accessor_count = g->node_count = g->view_count = 0;
    g->mesh_count = g->material_count = g->skinned_node_count = 0;
}

ik_result gltf_build(ik_gltf *g, ik_error *error) {
    ik_result r;
    gltf_free_derived(g);
    if ((r = gltf_index_tree(g, error)) != IK_OK) return r;
    if ((r = gltf_check_views_and_accessors(g, error)) != IK_OK) return r;
    g->decoded = (gltf_values *)calloc((size_t)g->accessor_count + 1, sizeof *g->decoded);
    if (!g->decoded) return gltf_fail(error, IK_ERR_NO_MEMORY, "/accessors", "out of memory");
    if ((r = build_nodes(g, error)) != IK_OK) return r;
    if ((r = build_skins(g, error)) != IK_OK) return r;
    return gltf_build_clips(g, error);
}

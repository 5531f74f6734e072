/* ikit io, private: the in-memory glTF document shared by the reader, the
 * accessor decoder and the writer. Not installed. */
#ifndef IKIT_IO_GLTF_DOC_H
#define IKIT_IO_GLTF_DOC_H

#include <ikit/gltf.h>

#include "json_doc.h"

#include <stddef.h>

/* Upper bounds that keep work and memory proportional to the input. */
#define GLTF_MAX_SKELETON_JOINTS (1L << 20)      /* summed over all skins */
#define GLTF_MAX_CLIP_CHANNELS (1L << 20)        /* summed over all (animation, skin) pairs */
#define GLTF_MAX_CLIPS (1L << 20)                /* (animation, skin) pairs */
#define GLTF_MAX_ZERO_ACCESSOR_BYTES (16L << 20) /* decoded size of an accessor with no bufferView */

typedef struct gltf_buffer {
    unsigned char *data;
    size_t size;     /* bytes held (>= the declared byteLength) */
    size_t capacity; /* bytes allocated */
    char *file_name; /* the external file it was read from (its URI decoded, relative to the document), or NULL */
} gltf_buffer;

/* A decoded accessor: count * width ik_reals. */
typedef struct gltf_values {
    long count;
    int width;
    ik_real *data;
} gltf_values;

typedef struct gltf_skin_data {
    ik_gltf_skin view;
    int *parents;
    const char **names;
    ik_transform *rest_ls;
    ik_mat4 *inverse_bind;
    int *node;
    int *skin_joint;
} gltf_skin_data;

/* What the reader keeps of each node, taken in its one walk over the node's
 * members (the first of repeated keys counts, as json_member's look-up does). */
typedef struct gltf_node {
    const json_value *object; /* the node (its transform is read again for nodes above a skeleton) */
    const char *name;         /* its "name" when a string, else NULL */
    int mesh, skin;           /* checked indices, -1 when absent */
} gltf_node;

struct ik_gltf {
    json_doc doc; /* the document as read (or as re-read after an edit) */
    int buffer_count;
    gltf_buffer *buffers;
    int node_count;
    int *node_parent;        /* [node_count], -1 for roots */
    ik_transform *node_rest; /* [node_count], each node's checked local TRS */
    int skin_count;
    gltf_skin_data *skins;
    int animation_count;
    ik_clip *clips;            /* [animation_count * skin_count], animation-major */
    ik_channel *clip_channels; /* every clip's channels, clip after clip */
    int accessor_count;
    gltf_values *decoded; /* [accessor_count], filled on demand while building */
    /* Direct tables over the JSON arrays, so that an index is one step. */
    gltf_node *nodes;                  /* [node_count] */
    const json_value **accessor_items; /* [accessor_count] */
    const json_value **view_items;     /* [view_count] */
    int view_count;
    const json_value **mesh_items; /* [mesh_count] */
    int mesh_count;
    const json_value **material_items; /* [material_count] */
    int material_count;
    int *skinned_nodes; /* [skinned_node_count]: the nodes with both a mesh and a skin, in node order */
    int skinned_node_count;
};

/* The document's root object (NULL before a document is read). */
static inline const json_value *gltf_root(const ik_gltf *gltf) {
    return gltf->doc.value_count ? gltf->doc.values : NULL;
}

/* A JSON path being built while walking the tree, e.g. "/accessors/3/count". */
typedef struct gltf_path {
    char text[160];
} gltf_path;

/* Record `result` with the message "<path>: <what>" and the path in `error`. */
ik_result gltf_fail(ik_error *error, ik_result result, const char *path, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Write "/<a>/<i>" (i >= 0) or "/<a>" (i < 0) with an optional "/<b>" suffix. */
const char *gltf_path_of(gltf_path *p, const char *a, long i, const char *b);

/* "<parent_fmt formatted with i, j>/<key>" (no suffix when key is NULL). */
const char *gltf_path_format(gltf_path *p, const char *parent_fmt, long i, long j, const char *key);

/* An optional non-negative integer member: absent gives `fallback`; present
 * must be an integral number in [0, max]. The error path is built only on
 * failure, from `parent_fmt` (a printf format taking two longs, e.g.
 * "/animations/%ld/samplers/%ld") and the key. */
ik_result gltf_get_index(const json_value *obj, const char *key, long max, long fallback, long *out,
                         const char *parent_fmt, long i, long j, ik_error *error);

/* The same check on member `item` (NULL when absent), already found, of the
 * object at `parent_fmt`; `key` names it in the error path. */
ik_result gltf_check_index(const json_value *item, const char *key, long max, long fallback, long *out,
                           const char *parent_fmt, long i, long j, ik_error *error);

/* Base64 (RFC 4648, standard alphabet, '=' padding). */
ik_result gltf_base64_decode(const char *text, size_t length, unsigned char **out, size_t *size);
char *gltf_base64_encode(const unsigned char *data, size_t size);

/* A malloc'ed table of the items of a JSON array, so an index is one step;
 * *count items (0 for NULL). NULL when out of memory. */
const json_value **gltf_array_items(const json_value *array, int *count);

/* Fill the direct tables over accessors, bufferViews, meshes and materials. */
ik_result gltf_index_tree(ik_gltf *gltf, ik_error *error);

/* Check every bufferView and accessor against the buffers (bounds in 64-bit
 * arithmetic, strides, alignment, component types). */
ik_result gltf_check_views_and_accessors(const ik_gltf *gltf, ik_error *error);

/* Decode accessor `index` (already checked) into g->decoded[index], once. */
ik_result gltf_decode_accessor(ik_gltf *gltf, long index, const gltf_values **out, ik_error *error);

/* Component type, normalized flag, components per element and count of
 * accessor `index` (checked on the way). */
ik_result gltf_accessor_kind(const ik_gltf *gltf, long index, int *component_type, int *normalized, int *width,
                             long *count, ik_error *error);

/* The clips of every animation for every skin (after the skeletons). */
ik_result gltf_build_clips(ik_gltf *gltf, ik_error *error);

/* Build node parents, skeletons and clips from the document and buffers;
 * frees any earlier ones. */
ik_result gltf_build(ik_gltf *gltf, ik_error *error);
void gltf_free_derived(ik_gltf *gltf);

#endif

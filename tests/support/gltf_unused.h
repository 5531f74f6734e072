/* A GLB's JSON and the accessors and bufferViews in it that nothing refers
 * to, counted by the glTF 2.0 schema independently of the library's writer:
 * animation samplers, mesh primitives (attributes, indices, morph targets)
 * and skins use accessors; accessors (and their sparse parts) and images
 * use views. For the tests of the writer's edits. */
#ifndef IKIT_TEST_GLTF_UNUSED_H
#define IKIT_TEST_GLTF_UNUSED_H

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

/* The JSON chunk of GLB bytes (NULL when not GLB or malformed). */
static inline cJSON *glb_json_of(const unsigned char *bytes, size_t size) {
    unsigned long length;
    if (size < 20) return NULL;
    length = bytes[12] | bytes[13] << 8 | (unsigned long)bytes[14] << 16 | (unsigned long)bytes[15] << 24;
    if (length > size - 20) return NULL;
    return cJSON_ParseWithLength((const char *)bytes + 20, length);
}

/* The JSON chunk of a .glb file (NULL when unreadable). */
static inline cJSON *glb_json(const char *path) {
    FILE *f = fopen(path, "rb");
    unsigned char *bytes = NULL;
    long size;
    cJSON *doc = NULL;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (bytes = (unsigned char *)malloc((size_t)size)) && fread(bytes, 1, (size_t)size, f) == (size_t)size)
        doc = glb_json_of(bytes, (size_t)size);
    free(bytes);
    fclose(f);
    return doc;
}

static inline void unused_mark(const cJSON *ref, unsigned char *used, int count) {
    if (cJSON_IsNumber(ref) && ref->valueint >= 0 && ref->valueint < count) used[ref->valueint] = 1;
}

typedef struct unused_count {
    int accessors, views, accessor_total, view_total;
} unused_count;

static inline void unused_of(const cJSON *doc, unused_count *n) {
    cJSON *a, *s, *m, *p, *t, *e;
    unsigned char *acc, *view;
    int i;
    n->accessor_total = cJSON_GetArraySize(cJSON_GetObjectItem(doc, "accessors"));
    n->view_total = cJSON_GetArraySize(cJSON_GetObjectItem(doc, "bufferViews"));
    acc = (unsigned char *)calloc((size_t)n->accessor_total + 1, 1);
    view = (unsigned char *)calloc((size_t)n->view_total + 1, 1);
    cJSON_ArrayForEach(a, cJSON_GetObjectItem(doc, "animations"))
        cJSON_ArrayForEach(s, cJSON_GetObjectItem(a, "samplers")) {
        unused_mark(cJSON_GetObjectItem(s, "input"), acc, n->accessor_total);
        unused_mark(cJSON_GetObjectItem(s, "output"), acc, n->accessor_total);
    }
    cJSON_ArrayForEach(m, cJSON_GetObjectItem(doc, "meshes"))
        cJSON_ArrayForEach(p, cJSON_GetObjectItem(m, "primitives")) {
        cJSON_ArrayForEach(e, cJSON_GetObjectItem(p, "attributes")) unused_mark(e, acc, n->accessor_total);
        unused_mark(cJSON_GetObjectItem(p, "indices"), acc, n->accessor_total);
        cJSON_ArrayForEach(t, cJSON_GetObjectItem(p, "targets")) cJSON_ArrayForEach(e, t)
            unused_mark(e, acc, n->accessor_total);
    }
    cJSON_ArrayForEach(s, cJSON_GetObjectItem(doc, "skins"))
        unused_mark(cJSON_GetObjectItem(s, "inverseBindMatrices"), acc, n->accessor_total);
    cJSON_ArrayForEach(a, cJSON_GetObjectItem(doc, "accessors")) {
        cJSON *sparse = cJSON_GetObjectItem(a, "sparse");
        unused_mark(cJSON_GetObjectItem(a, "bufferView"), view, n->view_total);
        unused_mark(cJSON_GetObjectItem(cJSON_GetObjectItem(sparse, "indices"), "bufferView"), view, n->view_total);
        unused_mark(cJSON_GetObjectItem(cJSON_GetObjectItem(sparse, "values"), "bufferView"), view, n->view_total);
    }
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(doc, "images"))
        unused_mark(cJSON_GetObjectItem(e, "bufferView"), view, n->view_total);
    n->accessors = n->views = 0;
    for (i = 0; i < n->accessor_total; ++i) n->accessors += !acc[i];
    for (i = 0; i < n->view_total; ++i) n->views += !view[i];
    free(acc);
    free(view);
}

/* unused_of a .glb file; 0 when it cannot be read. */
static inline int count_unused(const char *path, unused_count *n) {
    cJSON *doc = glb_json(path);
    if (!doc) return 0;
    unused_of(doc, n);
    cJSON_Delete(doc);
    return 1;
}

#endif

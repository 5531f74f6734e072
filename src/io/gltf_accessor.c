/* glTF 2.0 buffer views and accessors: bounds checks and decoding to ik_real,
 * plus the error, path and base64 helpers the reader and writer share.
 * Layout rules from the glTF 2.0 specification, section 3.6 (buffers, buffer
 * views, accessors, data alignment, sparse accessors). */
#include "gltf_doc.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ik_result gltf_fail(ik_error *error, ik_result result, const char *path, const char *fmt, ...) {
    char what[200];
    va_list args;
    va_start(args, fmt);
    vsnprintf(what, sizeof what, fmt, args);
    va_end(args);
    if (error) {
        ik_error_set(error, 0, 0, -1, "%s: %s", path, what);
        snprintf(error->path, sizeof error->path, "%s", path);
    }
    return result;
}

const char *gltf_path_of(gltf_path *p, const char *a, long i, const char *b) {
    if (i >= 0)
        snprintf(p->text, sizeof p->text, "/%s/%ld%s%s", a, i, b ? "/" : "", b ? b : "");
    else
        snprintf(p->text, sizeof p->text, "/%s%s%s", a, b ? "/" : "", b ? b : "");
    return p->text;
}

const char *gltf_path_format(gltf_path *p, const char *parent_fmt, long i, long j, const char *key) {
    size_t n;
    snprintf(p->text, sizeof p->text, parent_fmt, i, j);
    n = strlen(p->text);
    if (key) snprintf(p->text + n, sizeof p->text - n, "/%s", key);
    return p->text;
}

ik_result gltf_get_index(const json_value *obj, const char *key, long max, long fallback, long *out,
                         const char *parent_fmt, long i, long j, ik_error *error) {
    return gltf_check_index(json_member(obj, key), key, max, fallback, out, parent_fmt, i, j, error);
}

ik_result gltf_check_index(const json_value *item, const char *key, long max, long fallback, long *out,
                           const char *parent_fmt, long i, long j, ik_error *error) {
    gltf_path p;
    const char *path;
    double v = 0;
    if (!item) {
        *out = fallback;
        return IK_OK;
    }
    /* v < max + 1 rather than v <= max: LONG_MAX rounds up to 2^63 as a
     * double, and (long)2^63 is undefined. */
    if (json_is_number(item)) {
        v = item->as.number;
        if (v >= 0 && v < (double)max + 1 && v == (double)(long)v) {
            *out = (long)v;
            return IK_OK;
        }
    }
    path = gltf_path_format(&p, parent_fmt, i, j, key);
    if (!json_is_number(item)) return gltf_fail(error, IK_ERR_PARSE, path, "\"%s\" must be a number", key);
    if (!(v - v == 0)) return gltf_fail(error, IK_ERR_NONFINITE, path, "\"%s\" is not finite", key);
    return gltf_fail(error, IK_ERR_PARSE, path, "\"%s\" must be an integer from 0 to %ld, got %.17g", key, max, v);
}

/* ---- base64 (RFC 4648 section 4) ----------------------------------------- */

static int base64_digit(unsigned char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

/* Four digits carry three bytes; '=' pads the last group. */
ik_result gltf_base64_decode(const char *text, size_t length, unsigned char **out, size_t *size) {
    size_t i, n = 0, pad = 0;
    unsigned char *data;
    unsigned long group = 0;
    int digits = 0;
    while (length > 0 && text[length - 1] == '=' && pad < 2) {
        --length;
        ++pad;
    }
    if ((length + pad) % 4 != 0 && pad > 0) return IK_ERR_PARSE;
    data = (unsigned char *)malloc(length / 4 * 3 + 3);
    if (!data) return IK_ERR_NO_MEMORY;
    for (i = 0; i < length; ++i) {
        int d = base64_digit((unsigned char)text[i]);
        if (d < 0) {
            free(data);
            return IK_ERR_PARSE;
        }
        group = (group << 6) | (unsigned long)d;
        if (++digits == 4) {
            data[n++] = (unsigned char)(group >> 16);
            data[n++] = (unsigned char)(group >> 8);
            data[n++] = (unsigned char)group;
            group = 0;
            digits = 0;
        }
    }
    if (digits == 1) {
        free(data);
        return IK_ERR_PARSE;
    }
    if (digits == 2) data[n++] = (unsigned char)(group >> 4);
    if (digits == 3) {
        data[n++] = (unsigned char)(group >> 10);
        data[n++] = (unsigned char)(group >> 2);
    }
    *out = data;
    *size = n;
    return IK_OK;
}

char *gltf_base64_encode(const unsigned char *data, size_t size) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t i, n = 0;
    char *text = (char *)malloc((size + 2) / 3 * 4 + 1);
    if (!text) return NULL;
    for (i = 0; i + 2 < size; i += 3) {
        unsigned long g = ((unsigned long)data[i] << 16) | ((unsigned long)data[i + 1] << 8) | data[i + 2];
        text[n++] = alphabet[(g >> 18) & 63];
        text[n++] = alphabet[(g >> 12) & 63];
        text[n++] = alphabet[(g >> 6) & 63];
        text[n++] = alphabet[g & 63];
    }
    if (size - i == 1) {
        unsigned long g = (unsigned long)data[i] << 16;
        text[n++] = alphabet[(g >> 18) & 63];
        text[n++] = alphabet[(g >> 12) & 63];
        text[n++] = '=';
        text[n++] = '=';
    } else if (size - i == 2) {
        unsigned long g = ((unsigned long)data[i] << 16) | ((unsigned long)data[i + 1] << 8);
        text[n++] = alphabet[(g >> 18) & 63];
        text[n++] = alphabet[(g >> 12) & 63];
        text[n++] = alphabet[(g >> 6) & 63];
        text[n++] = '=';
    }
    text[n] = '\0';
    return text;
}

/* ---- buffer views -------------------------------------------------------- */

typedef struct view_info {
    int buffer;
    uint64_t offset; /* from the start of the buffer */
    uint64_t length;
    long stride; /* 0 when not given */
} view_info;

static ik_result get_view(const ik_gltf *g, long v, view_info *out, ik_error *error) {
    const json_value *view = g->view_items[v];
    gltf_path p;
    long buffer, offset, length, stride;
    ik_result r;
    if (!json_is_object(view))
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "bufferViews", v, NULL), "must be an object");
    if (!json_member(view, "buffer"))
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "bufferViews", v, "buffer"), "missing");
    if ((r = gltf_get_index(view, "buffer", (long)g->buffer_count - 1, 0, &buffer, "/bufferViews/%ld", v, 0, error)) !=
        IK_OK)
        return r;
    if ((r = gltf_get_index(view, "byteOffset", LONG_MAX, 0, &offset, "/bufferViews/%ld", v, 0, error)) != IK_OK)
        return r;
    if (!json_member(view, "byteLength"))
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "bufferViews", v, "byteLength"), "missing");
    if ((r = gltf_get_index(view, "byteLength", LONG_MAX, 0, &length, "/bufferViews/%ld", v, 0, error)) != IK_OK)
        return r;
    if ((r = gltf_get_index(view, "byteStride", 252, 0, &stride, "/bufferViews/%ld", v, 0, error)) != IK_OK) return r;
    if (json_member(view, "byteStride") && (stride < 4 || stride % 4 != 0))
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "bufferViews", v, NULL),
                         "byteStride %ld is not a multiple of 4 in [4, 252]", stride);
    if (length < 1)
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "bufferViews", v, NULL),
                         "byteLength must be at least 1");
    if ((uint64_t)offset + (uint64_t)length > (uint64_t)g->buffers[buffer].size)
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "bufferViews", v, "byteLength"),
                         "bytes %ld..%ld overrun buffer %ld (%lu bytes)", offset,
                         (long)((uint64_t)offset + (uint64_t)length), buffer, (unsigned long)g->buffers[buffer].size);
    out->buffer = (int)buffer;
    out->offset = (uint64_t)offset;
    out->length = (uint64_t)length;
    out->stride = stride;
    return IK_OK;
}

/* ---- accessors ----------------------------------------------------------- */

typedef struct accessor_info {
    int component_type;
    int component_size;
    int normalized;
    int columns, rows; /* SCALAR 1x1, VECn 1xn, MATn nxn */
    int column_stride; /* bytes; matrix columns start on 4-byte boundaries */
    int element_size;
    long count;
    int has_view;
    view_info view;
    uint64_t offset; /* first element, from the start of the buffer */
    uint64_t stride;
    long sparse_count; /* 0 when not sparse */
    int sparse_index_type;
    view_info sparse_indices, sparse_values;
} accessor_info;

static int component_size(long type) {
    switch (type) {
        case 5120: /* BYTE */
        case 5121: /* UNSIGNED_BYTE */
            return 1;
        case 5122: /* SHORT */
        case 5123: /* UNSIGNED_SHORT */
            return 2;
        case 5125: /* UNSIGNED_INT */
        case 5126: /* FLOAT */
            return 4;
        default:
            return 0;
    }
}

static int type_shape(const char *type, int *columns, int *rows) {
    static const struct {
        const char *name;
        int columns, rows;
    } shapes[] = {{"SCALAR", 1, 1}, {"VEC2", 1, 2}, {"VEC3", 1, 3}, {"VEC4", 1, 4},
                  {"MAT2", 2, 2},   {"MAT3", 3, 3}, {"MAT4", 4, 4}};
    size_t i;
    for (i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
        if (strcmp(type, shapes[i].name) == 0) {
            *columns = shapes[i].columns;
            *rows = shapes[i].rows;
            return 1;
        }
    }
    return 0;
}

static ik_result get_sparse(const ik_gltf *g, long a, const json_value *sparse, accessor_info *info, ik_error *error) {
    const json_value *indices = json_member(sparse, "indices");
    const json_value *values = json_member(sparse, "values");
    gltf_path p;
    char where[64];
    long count, view, offset, type;
    ik_result r;
    int isize;
    snprintf(where, sizeof where, "/accessors/%ld/sparse", a);
    if (!json_is_object(sparse) || !json_is_object(indices) || !json_is_object(values))
        return gltf_fail(error, IK_ERR_PARSE, where, "needs count, indices and values objects");
    if ((r = gltf_get_index(sparse, "count", info->count, 0, &count, "/accessors/%ld/sparse", a, 0, error)) != IK_OK)
        return r;
    if (count < 1) return gltf_fail(error, IK_ERR_PARSE, where, "count must be from 1 to the accessor count");
    snprintf(p.text, sizeof p.text, "%s/indices", where);
    if ((r = gltf_get_index(indices, "componentType", 5125, 0, &type, "/accessors/%ld/sparse/indices", a, 0, error)) !=
        IK_OK)
        return r;
    if (type != 5121 && type != 5123 && type != 5125)
        return gltf_fail(error, IK_ERR_PARSE, p.text, "componentType must be 5121, 5123 or 5125");
    isize = component_size(type);
    if (!json_member(indices, "bufferView") || !json_member(values, "bufferView"))
        return gltf_fail(error, IK_ERR_PARSE, where, "indices and values need a bufferView");
    if ((r = gltf_get_index(indices, "bufferView", INT_MAX, 0, &view, "/accessors/%ld/sparse/indices", a, 0, error)) !=
        IK_OK)
        return r;
    if (view >= g->view_count) return gltf_fail(error, IK_ERR_PARSE, p.text, "bufferView %ld out of range", view);
    if ((r = get_view(g, view, &info->sparse_indices, error)) != IK_OK) return r;
    if ((r = gltf_get_index(indices, "byteOffset", LONG_MAX, 0, &offset, "/accessors/%ld/sparse/indices", a, 0,
                            error)) != IK_OK)
        return r;
    if ((uint64_t)offset + (uint64_t)count * (uint64_t)isize > info->sparse_indices.length)
        return gltf_fail(error, IK_ERR_PARSE, p.text, "%ld indices overrun bufferView %ld", count, view);
    info->sparse_indices.offset += (uint64_t)offset;
    snprintf(p.text, sizeof p.text, "%s/values", where);
    if ((r = gltf_get_index(values, "bufferView", INT_MAX, 0, &view, "/accessors/%ld/sparse/values", a, 0, error)) !=
        IK_OK)
        return r;
    if (view >= g->view_count) return gltf_fail(error, IK_ERR_PARSE, p.text, "bufferView %ld out of range", view);
    if ((r = get_view(g, view, &info->sparse_values, error)) != IK_OK) return r;
    if ((r = gltf_get_index(values, "byteOffset", LONG_MAX, 0, &offset, "/accessors/%ld/sparse/values", a, 0, error)) !=
        IK_OK)
        return r;
    if ((uint64_t)offset + (uint64_t)count * (uint64_t)info->element_size > info->sparse_values.length)
        return gltf_fail(error, IK_ERR_PARSE, p.text, "%ld values overrun bufferView %ld", count, view);
    info->sparse_values.offset += (uint64_t)offset;
    info->sparse_count = count;
    info->sparse_index_type = (int)type;
    return IK_OK;
}

/* Element size: matrix columns of 1- and 2-byte components are padded to 4
 * bytes (MAT2 of bytes: 8, MAT3 of bytes: 12, MAT3 of shorts: 24). The last
 * element must end inside the view: offset + (count - 1) stride + size. */
static ik_result get_accessor(const ik_gltf *g, long a, accessor_info *info, ik_error *error) {
    const json_value *acc = g->accessor_items[a];
    const json_value *type, *sparse;
    gltf_path p;
    long ctype, view, offset;
    ik_result r;
    memset(info, 0, sizeof *info);
    if (!json_is_object(acc))
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "accessors", a, NULL), "must be an object");
    if (!json_member(acc, "componentType"))
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "accessors", a, "componentType"), "missing");
    if ((r = gltf_get_index(acc, "componentType", 99999, 0, &ctype, "/accessors/%ld", a, 0, error)) != IK_OK) return r;
    info->component_type = (int)ctype;
    info->component_size = component_size(ctype);
    if (!info->component_size)
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "accessors", a, NULL), "unknown component type %ld",
                         ctype);
    type = json_member(acc, "type");
    if (!json_is_string(type) || !type_shape(json_string(type), &info->columns, &info->rows))
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "accessors", a, "type"),
                         "must be SCALAR, VEC2, VEC3, VEC4, MAT2, MAT3 or MAT4");
    info->normalized = json_is_true(json_member(acc, "normalized"));
    info->column_stride = info->rows * info->component_size;
    if (info->columns > 1) info->column_stride = (info->column_stride + 3) / 4 * 4;
    info->element_size = info->columns * info->column_stride;
    if (!json_member(acc, "count"))
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "accessors", a, "count"), "missing");
    if ((r = gltf_get_index(acc, "count", INT_MAX, 0, &info->count, "/accessors/%ld", a, 0, error)) != IK_OK) return r;
    if (info->count < 1)
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "accessors", a, "count"), "must be at least 1");
    if ((r = gltf_get_index(acc, "byteOffset", LONG_MAX, 0, &offset, "/accessors/%ld", a, 0, error)) != IK_OK) return r;
    if (offset % info->component_size != 0)
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "accessors", a, "byteOffset"),
                         "%ld is not a multiple of the component size %d", offset, info->component_size);
    info->has_view = json_member(acc, "bufferView") != NULL;
    if (info->has_view) {
        uint64_t end;
        if ((r = gltf_get_index(acc, "bufferView", (long)g->view_count - 1, 0, &view, "/accessors/%ld", a, 0, error)) !=
            IK_OK)
            return r;
        if ((r = get_view(g, view, &info->view, error)) != IK_OK) return r;
        info->stride = info->view.stride ? (uint64_t)info->view.stride : (uint64_t)info->element_size;
        if (info->stride < (uint64_t)info->element_size)
            return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "accessors", a, "bufferView"),
                             "byteStride %lu of bufferView %ld is smaller than the element (%d bytes)",
                             (unsigned long)info->stride, view, info->element_size);
        info->offset = info->view.offset + (uint64_t)offset;
        if (info->offset % (uint64_t)info->component_size != 0)
            return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "accessors", a, "byteOffset"),
                             "data at buffer byte %lu is not aligned to %d bytes", (unsigned long)info->offset,
                             info->component_size);
        end = (uint64_t)offset + (uint64_t)(info->count - 1) * info->stride + (uint64_t)info->element_size;
        if (end > info->view.length)
            return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "accessors", a, "count"),
                             "%ld elements of %d bytes (stride %lu) from byte %ld overrun bufferView %ld "
                             "(%lu bytes)",
                             info->count, info->element_size, (unsigned long)info->stride, offset, view,
                             (unsigned long)info->view.length);
    }
    sparse = json_member(acc, "sparse");
    if (sparse && (r = get_sparse(g, a, sparse, info, error)) != IK_OK) return r;
    return IK_OK;
}

const json_value **gltf_array_items(const json_value *array, int *count) {
    const json_value *item, **items;
    *count = 0;
    items = (const json_value **)malloc(((size_t)json_count(array) + 1) * sizeof *items);
    if (!items) return NULL;
    JSON_FOR_EACH(item, array) items[(*count)++] = item;
    return items;
}

/* The table over root[key], which must be an array when present. */
static ik_result index_array(const json_value *root, const char *key, const json_value ***items, int *count,
                             ik_error *error) {
    const json_value *arr = json_member(root, key);
    char where[32];
    snprintf(where, sizeof where, "/%s", key);
    free((void *)*items);
    *items = NULL;
    *count = 0;
    if (arr && !json_is_array(arr)) return gltf_fail(error, IK_ERR_PARSE, where, "must be an array");
    *items = gltf_array_items(arr, count);
    if (!*items) return gltf_fail(error, IK_ERR_NO_MEMORY, where, "out of memory");
    return IK_OK;
}

ik_result gltf_index_tree(ik_gltf *g, ik_error *error) {
    ik_result r = index_array(gltf_root(g), "accessors", &g->accessor_items, &g->accessor_count, error);
    if (r == IK_OK) r = index_array(gltf_root(g), "bufferViews", &g->view_items, &g->view_count, error);
    if (r == IK_OK) r = index_array(gltf_root(g), "meshes", &g->mesh_items, &g->mesh_count, error);
    if (r == IK_OK) r = index_array(gltf_root(g), "materials", &g->material_items, &g->material_count, error);
    return r;
}

ik_result gltf_check_views_and_accessors(const ik_gltf *g, ik_error *error) {
    long i;
    ik_result r;
    view_info v;
    accessor_info a;
    for (i = 0; i < g->view_count; ++i)
        if ((r = get_view(g, i, &v, error)) != IK_OK) return r;
    for (i = 0; i < g->accessor_count; ++i)
        if ((r = get_accessor(g, i, &a, error)) != IK_OK) return r;
    return IK_OK;
}

static uint32_t read_u32(const unsigned char *b) {
    return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
}

static uint32_t read_index(const unsigned char *b, int type) {
    if (type == 5121) return b[0];
    if (type == 5123) return (uint32_t)b[0] | ((uint32_t)b[1] << 8);
    return read_u32(b);
}

/* One component as a real. Normalised integers follow the specification's
 * table (section 3.11): f = max(c / 127, -1) for BYTE, c / 255 for
 * UNSIGNED_BYTE, max(c / 32767, -1) for SHORT, c / 65535 for UNSIGNED_SHORT. */
static double read_component(const unsigned char *b, int type, int normalized) {
    uint32_t u;
    float f;
    double v;
    switch (type) {
        case 5120:
            v = (double)(signed char)b[0];
            return normalized ? (v / 127.0 < -1 ? -1 : v / 127.0) : v;
        case 5121:
            return normalized ? b[0] / 255.0 : (double)b[0];
        case 5122:
            v = (double)(int16_t)(uint16_t)((uint32_t)b[0] | ((uint32_t)b[1] << 8));
            return normalized ? (v / 32767.0 < -1 ? -1 : v / 32767.0) : v;
        case 5123:
            v = (double)((uint32_t)b[0] | ((uint32_t)b[1] << 8));
            return normalized ? v / 65535.0 : v;
        case 5125:
            return (double)read_u32(b);
        default:
            u = read_u32(b);
            memcpy(&f, &u, sizeof f);
            return (double)f;
    }
}

static void decode_element(const accessor_info *info, const unsigned char *src, ik_real *dst) {
    int c, r;
    for (c = 0; c < info->columns; ++c)
        for (r = 0; r < info->rows; ++r)
            *dst++ = (ik_real)read_component(src + c * info->column_stride + r * info->component_size,
                                             info->component_type, info->normalized);
}

static void discard(gltf_values *values) {
    free(values->data);
    values->data = NULL;
}

ik_result gltf_decode_accessor(ik_gltf *g, long index, const gltf_values **out, ik_error *error) {
    gltf_values *values = &g->decoded[index];
    accessor_info info;
    gltf_path p;
    ik_result r;
    long i, width, k;
    if (values->data) {
        *out = values;
        return IK_OK;
    }
    if ((r = get_accessor(g, index, &info, error)) != IK_OK) return r;
    width = (long)info.columns * info.rows;
    if (!info.has_view &&
        (uint64_t)info.count * (uint64_t)width * sizeof(ik_real) > (uint64_t)GLTF_MAX_ZERO_ACCESSOR_BYTES)
        return gltf_fail(error, IK_ERR_UNSUPPORTED, gltf_path_of(&p, "accessors", index, NULL),
                         "%ld elements without a bufferView is too many", info.count);
    values->data = (ik_real *)calloc((size_t)info.count * (size_t)width, sizeof(ik_real));
    if (!values->data)
        return gltf_fail(error, IK_ERR_NO_MEMORY, gltf_path_of(&p, "accessors", index, NULL), "out of memory");
    values->count = info.count;
    values->width = (int)width;
    if (info.has_view) {
        const unsigned char *base = g->buffers[info.view.buffer].data + info.offset;
        for (i = 0; i < info.count; ++i)
            decode_element(&info, base + (uint64_t)i * info.stride, values->data + i * width);
    }
    if (info.sparse_count) {
        const unsigned char *idx = g->buffers[info.sparse_indices.buffer].data + info.sparse_indices.offset;
        const unsigned char *val = g->buffers[info.sparse_values.buffer].data + info.sparse_values.offset;
        int isize = component_size(info.sparse_index_type);
        for (i = 0; i < info.sparse_count; ++i) {
            uint32_t target = read_index(idx + i * isize, info.sparse_index_type);
            if ((long)target >= info.count) {
                discard(values);
                return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "accessors", index, "sparse"),
                                 "sparse index %lu is beyond count %ld", (unsigned long)target, info.count);
            }
            decode_element(&info, val + (uint64_t)i * (uint64_t)info.element_size, values->data + (long)target * width);
        }
    }
    for (k = 0; k < info.count * width; ++k)
        if (!ik_finite(values->data[k])) {
            discard(values);
            return gltf_fail(error, IK_ERR_NONFINITE, gltf_path_of(&p, "accessors", index, NULL),
                             "element %ld holds NaN or infinity", k / width);
        }
    *out = values;
    return IK_OK;
}

ik_result gltf_accessor_kind(const ik_gltf *g, long index, int *component_type, int *normalized, int *width,
                             long *count, ik_error *error) {
    accessor_info info;
    ik_result r = get_accessor(g, index, &info, error);
    if (r != IK_OK) return r;
    *component_type = info.component_type;
    *normalized = info.normalized;
    *width = info.columns * info.rows;
    *count = info.count;
    return IK_OK;
}

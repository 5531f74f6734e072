/* glTF 2.0 reader: GLB framing, JSON, buffers (GLB BIN chunk, base64 data
 * URIs, external files), then the skeletons and clips built from them.
 * GLB layout from the glTF 2.0 specification, section 4.4: a 12-byte header
 * (magic 0x46546C67 "glTF", version 2, total length), then chunks of
 * (uint32 length, uint32 type, data): the JSON chunk (0x4E4F534A) first, then
 * an optional BIN chunk (0x004E4942); all little-endian. */
#include "file_read.h"
#include "gltf_doc.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GLB_MAGIC 0x46546C67u
#define GLB_CHUNK_JSON 0x4E4F534Au
#define GLB_CHUNK_BIN 0x004E4942u

static uint32_t read_u32(const unsigned char *b) {
    return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
}

static ik_result fail_at(ik_error *error, ik_result result, long offset, const char *what) {
    if (error) {
        ik_error_set(error, 0, 0, offset, "byte %ld: %s", offset, what);
        error->path[0] = '\0';
    }
    return result;
}

/* ---- buffers ------------------------------------------------------------- */

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* base_dir + "/" + the URI with its percent escapes decoded (RFC 3986
 * section 2.1), when that decoded name stays inside base_dir: no scheme, no
 * absolute path, no "..", no NUL (checked after decoding, so "%2E%2E" is
 * refused as ".." is). */
static char *resolve_uri(const char *base_dir, const char *uri) {
    size_t n = strlen(uri), base = strlen(base_dir), i, k;
    char *path, *name;
    if (strstr(uri, "://")) return NULL;
    path = (char *)malloc(base + 1 + n + 1);
    if (!path) return NULL;
    memcpy(path, base_dir, base);
    path[base] = '/';
    name = path + base + 1;
    for (i = 0, k = 0; i < n; ++i) {
        if (uri[i] == '%' && i + 2 < n && hex_digit(uri[i + 1]) >= 0 && hex_digit(uri[i + 2]) >= 0) {
            name[k++] = (char)(hex_digit(uri[i + 1]) * 16 + hex_digit(uri[i + 2]));
            i += 2;
        } else {
            name[k++] = uri[i];
        }
    }
    name[k] = '\0';
    if (strlen(name) != k || name[0] == '/' || name[0] == '\\' || strstr(name, "..")) {
        free(path);
        return NULL;
    }
    return path;
}

static ik_result load_buffer(ik_gltf *g, int i, const json_value *buffer, const unsigned char *bin, size_t bin_size,
                             const char *base_dir, ik_error *error) {
    const json_value *uri = json_member(buffer, "uri");
    gltf_buffer *b = &g->buffers[i];
    gltf_path p;
    long length;
    ik_result r;
    gltf_path_of(&p, "buffers", i, NULL);
    if (!json_is_object(buffer)) return gltf_fail(error, IK_ERR_PARSE, p.text, "must be an object");
    if (!json_member(buffer, "byteLength"))
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "buffers", i, "byteLength"), "missing");
    if ((r = gltf_get_index(buffer, "byteLength", LONG_MAX, 0, &length, "/buffers/%ld", i, 0, error)) != IK_OK)
        return r;
    if (length < 1) return gltf_fail(error, IK_ERR_PARSE, p.text, "must be at least 1");
    if (!uri) {
        if (i != 0 || !bin)
            return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "buffers", i, NULL),
                             "has no uri and there is no GLB BIN chunk for it");
        if ((uint64_t)length > (uint64_t)bin_size)
            return gltf_fail(error, IK_ERR_PARSE, p.text, "%ld bytes, but the GLB BIN chunk holds %lu", length,
                             (unsigned long)bin_size);
        b->data = (unsigned char *)malloc(bin_size);
        if (!b->data) return gltf_fail(error, IK_ERR_NO_MEMORY, p.text, "out of memory");
        memcpy(b->data, bin, bin_size);
        b->size = b->capacity = bin_size;
    } else if (!json_is_string(uri)) {
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "buffers", i, "uri"), "must be a string");
    } else if (strncmp(json_string(uri), "data:", 5) == 0) {
        const char *comma = strchr(json_string(uri), ',');
        const char *marker = strstr(json_string(uri), ";base64,");
        gltf_path_of(&p, "buffers", i, "uri");
        if (!comma || !marker || marker + 7 != comma)
            return gltf_fail(error, IK_ERR_UNSUPPORTED, p.text, "only base64 data URIs are supported");
        r = gltf_base64_decode(comma + 1, strlen(comma + 1), &b->data, &b->size);
        if (r != IK_OK) return gltf_fail(error, r, p.text, "bad base64 data");
        b->capacity = b->size;
    } else {
        char *path, *bytes;
        ik_error read_error;
        gltf_path_of(&p, "buffers", i, "uri");
        if (!base_dir)
            return gltf_fail(error, IK_ERR_UNSUPPORTED, p.text,
                             "external buffer \"%.60s\" cannot be resolved when reading from memory", json_string(uri));
        path = resolve_uri(base_dir, json_string(uri));
        if (!path)
            return gltf_fail(error, IK_ERR_UNSUPPORTED, p.text,
                             "\"%.60s\" is not a relative path inside the document's folder", json_string(uri));
        /* the declared byteLength is checked against the file before reading */
        ik_error_clear(&read_error);
        r = ik_io_read_file_prefix(path, (size_t)length, &bytes, &read_error);
        if (r != IK_OK) {
            free(path);
            return gltf_fail(error, r, p.text, "%s", read_error.message);
        }
        b->data = (unsigned char *)bytes;
        b->size = b->capacity = (size_t)length;
        b->file_name = (char *)malloc(strlen(path) - strlen(base_dir));
        if (b->file_name) strcpy(b->file_name, path + strlen(base_dir) + 1);
        free(path);
        if (!b->file_name) return gltf_fail(error, IK_ERR_NO_MEMORY, p.text, "out of memory");
    }
    if ((uint64_t)b->size < (uint64_t)length)
        return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "buffers", i, "byteLength"),
                         "%ld bytes declared, %lu available", length, (unsigned long)b->size);
    b->size = (size_t)length;
    return IK_OK;
}

static ik_result load_buffers(ik_gltf *g, const unsigned char *bin, size_t bin_size, const char *base_dir,
                              ik_error *error) {
    const json_value *buffers = json_member(gltf_root(g), "buffers");
    const json_value *item;
    int i = 0;
    ik_result r;
    if (!buffers) return IK_OK;
    if (!json_is_array(buffers)) return gltf_fail(error, IK_ERR_PARSE, "/buffers", "must be an array");
    g->buffer_count = (int)json_count(buffers);
    g->buffers = (gltf_buffer *)calloc((size_t)g->buffer_count + 1, sizeof *g->buffers);
    if (!g->buffers) return gltf_fail(error, IK_ERR_NO_MEMORY, "/buffers", "out of memory");
    JSON_FOR_EACH(item, buffers) {
        if ((r = load_buffer(g, i, item, bin, bin_size, base_dir, error)) != IK_OK) return r;
        ++i;
    }
    return IK_OK;
}

/* ---- document ------------------------------------------------------------ */

/* Extensions that change nothing ikit reads (nodes, skins, accessors,
 * animations, buffers): materials, textures, lights and mesh encodings are
 * kept and written back untouched. Any other required extension is refused,
 * as the glTF 2.0 specification (section 3.12) asks of a loader that does
 * not support it. */
static int extension_supported(const char *name) {
    static const char *const kept[] = {"KHR_texture_transform",     "KHR_texture_basisu",  "EXT_texture_webp",
                                       "EXT_texture_avif",          "KHR_lights_punctual", "KHR_mesh_quantization",
                                       "KHR_draco_mesh_compression"};
    size_t i;
    if (strncmp(name, "KHR_materials_", 14) == 0) return 1;
    for (i = 0; i < sizeof kept / sizeof kept[0]; ++i)
        if (strcmp(name, kept[i]) == 0) return 1;
    return 0;
}

static ik_result check_extensions_required(const json_value *root, ik_error *error) {
    const json_value *required = json_member(root, "extensionsRequired"), *item;
    gltf_path p;
    long k = 0;
    if (!required) return IK_OK;
    if (!json_is_array(required)) return gltf_fail(error, IK_ERR_PARSE, "/extensionsRequired", "must be an array");
    JSON_FOR_EACH(item, required) {
        gltf_path_format(&p, "/extensionsRequired/%ld", k, 0, NULL);
        if (!json_is_string(item)) return gltf_fail(error, IK_ERR_PARSE, p.text, "must be a string");
        if (!extension_supported(json_string(item)))
            return gltf_fail(error, IK_ERR_UNSUPPORTED, p.text, "extension \"%.60s\" is required but not supported",
                             json_string(item));
        ++k;
    }
    return IK_OK;
}

/* `scene` names one of `scenes`, whose `nodes` name nodes (after the node
 * table is built, which gives node_count). */
static ik_result check_scenes(const json_value *root, long node_count, ik_error *error) {
    const json_value *scenes = json_member(root, "scenes"), *scene;
    long scene_count = json_is_array(scenes) ? json_count(scenes) : 0, value, s = 0;
    gltf_path p;
    ik_result r;
    if (scenes && !json_is_array(scenes)) return gltf_fail(error, IK_ERR_PARSE, "/scenes", "must be an array");
    if (json_member(root, "scene") &&
        (r = gltf_get_index(root, "scene", scene_count - 1, 0, &value, "", 0, 0, error)) != IK_OK)
        return r;
    JSON_FOR_EACH(scene, scenes) {
        const json_value *nodes = json_member(scene, "nodes"), *node;
        long k = 0;
        if (!json_is_object(scene))
            return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "scenes", s, NULL), "must be an object");
        if (nodes && !json_is_array(nodes))
            return gltf_fail(error, IK_ERR_PARSE, gltf_path_of(&p, "scenes", s, "nodes"), "must be an array");
        JSON_FOR_EACH(node, nodes) {
            double v = json_is_number(node) ? node->as.number : -1;
            if (!(v >= 0 && v < (double)node_count && v == (double)(long)v))
                return gltf_fail(error, IK_ERR_PARSE, gltf_path_format(&p, "/scenes/%ld/nodes/%ld", s, k, NULL),
                                 "not a node index (0 to %ld)", node_count - 1);
            ++k;
        }
        ++s;
    }
    return IK_OK;
}

/* The JSON text into g->doc (strict RFC 8259; "\u0000" is refused there, as
 * names cannot carry a NUL), then the asset version and required
 * extensions. A refused text is reported at its byte in the file. */
static ik_result parse_json(ik_gltf *g, const char *text, size_t length, long file_offset, ik_error *error) {
    const json_value *asset, *version;
    json_error refused;
    char what[160];
    if (!json_doc_read(&g->doc, text, length, &refused)) {
        if (refused.out_of_memory) return gltf_fail(error, IK_ERR_NO_MEMORY, "", "out of memory");
        snprintf(what, sizeof what, "malformed JSON (JSON byte %ld): %s", (long)refused.offset, refused.reason);
        return fail_at(error, IK_ERR_PARSE, file_offset + (long)refused.offset, what);
    }
    if (!json_is_object(gltf_root(g))) return gltf_fail(error, IK_ERR_PARSE, "", "the document must be a JSON object");
    asset = json_member(gltf_root(g), "asset");
    version = json_member(asset, "version");
    if (!json_is_object(asset)) return gltf_fail(error, IK_ERR_PARSE, "/asset", "missing");
    if (!json_is_string(version)) return gltf_fail(error, IK_ERR_PARSE, "/asset/version", "missing");
    if (strncmp(json_string(version), "2.", 2) != 0)
        return gltf_fail(error, IK_ERR_UNSUPPORTED, "/asset/version", "glTF %.20s, expected 2.x", json_string(version));
    return check_extensions_required(gltf_root(g), error);
}

/* The GLB header and chunk table; on success *json and *bin point into data. */
static ik_result parse_glb(const unsigned char *data, size_t size, const unsigned char **json, size_t *json_size,
                           const unsigned char **bin, size_t *bin_size, ik_error *error) {
    uint32_t length, chunk_length, chunk_type;
    size_t at;
    char what[120];
    if (size < 12) return fail_at(error, IK_ERR_PARSE, (long)size, "truncated GLB header (needs 12 bytes)");
    if (read_u32(data) != GLB_MAGIC) return fail_at(error, IK_ERR_PARSE, 0, "wrong magic, expected \"glTF\"");
    if (read_u32(data + 4) != 2) {
        snprintf(what, sizeof what, "GLB version %lu, expected 2", (unsigned long)read_u32(data + 4));
        return fail_at(error, IK_ERR_UNSUPPORTED, 4, what);
    }
    length = read_u32(data + 8);
    if (length > size) {
        snprintf(what, sizeof what, "header length %lu exceeds the %lu bytes present (truncated file)",
                 (unsigned long)length, (unsigned long)size);
        return fail_at(error, IK_ERR_PARSE, 8, what);
    }
    if (length < 20) return fail_at(error, IK_ERR_PARSE, 8, "GLB too short to hold a JSON chunk");
    chunk_length = read_u32(data + 12);
    chunk_type = read_u32(data + 16);
    if (chunk_type != GLB_CHUNK_JSON) return fail_at(error, IK_ERR_PARSE, 16, "first chunk is not JSON");
    if ((uint64_t)chunk_length > (uint64_t)length - 20) {
        snprintf(what, sizeof what, "JSON chunk of %lu bytes overruns the file", (unsigned long)chunk_length);
        return fail_at(error, IK_ERR_PARSE, 12, what);
    }
    *json = data + 20;
    *json_size = chunk_length;
    *bin = NULL;
    *bin_size = 0;
    at = 20 + (size_t)chunk_length;
    while (at < length) {
        if (length - at < 8) return fail_at(error, IK_ERR_PARSE, (long)at, "truncated chunk header");
        chunk_length = read_u32(data + at);
        chunk_type = read_u32(data + at + 4);
        if ((uint64_t)chunk_length > (uint64_t)(length - at - 8)) {
            snprintf(what, sizeof what, "chunk of %lu bytes overruns the file", (unsigned long)chunk_length);
            return fail_at(error, IK_ERR_PARSE, (long)at, what);
        }
        if (chunk_type == GLB_CHUNK_BIN) {
            if (*bin) return fail_at(error, IK_ERR_PARSE, (long)at + 4, "second BIN chunk");
            *bin = data + at + 8;
            *bin_size = chunk_length;
        }
        at += 8 + (size_t)chunk_length;
    }
    return IK_OK;
}

ik_result ik_gltf_read_memory(const void *data, size_t size, const char *base_dir, ik_gltf **out, ik_error *error) {
    const unsigned char *bytes = (const unsigned char *)data;
    const unsigned char *json = bytes, *bin = NULL;
    size_t json_size = size, bin_size = 0;
    long json_offset = 0;
    ik_gltf *g;
    ik_result r;
    ik_error_clear(error);
    if (!out || (!data && size > 0)) return IK_ERR_NULL;
    *out = NULL;
    if (size >= 4 && read_u32(bytes) == GLB_MAGIC) {
        if ((r = parse_glb(bytes, size, &json, &json_size, &bin, &bin_size, error)) != IK_OK) return r;
        json_offset = 20;
    } else {
        size_t i = 0;
        while (i < size && (bytes[i] == ' ' || bytes[i] == '\t' || bytes[i] == '\r' || bytes[i] == '\n')) ++i;
        if (i == size || bytes[i] != '{')
            return fail_at(error, IK_ERR_PARSE, (long)i, "neither a GLB header (magic \"glTF\") nor a JSON object");
    }
    g = (ik_gltf *)calloc(1, sizeof *g);
    if (!g) return IK_ERR_NO_MEMORY;
    r = parse_json(g, (const char *)json, json_size, json_offset, error);
    if (r == IK_OK) r = load_buffers(g, bin, bin_size, base_dir, error);
    if (r == IK_OK) r = gltf_build(g, error);
    if (r == IK_OK) r = check_scenes(gltf_root(g), g->node_count, error);
    if (r != IK_OK) {
        ik_gltf_free(g);
        return r;
    }
    *out = g;
    return IK_OK;
}

ik_result ik_gltf_read_file(const char *path, ik_gltf **out, ik_error *error) {
    char *data, *dir;
    size_t size, dir_length;
    const char *slash;
    ik_result r;
    ik_error_clear(error);
    if (!path || !out) return IK_ERR_NULL;
    *out = NULL;
    if ((r = ik_io_read_file(path, &data, &size, error)) != IK_OK) return r;
    slash = strrchr(path, '/');
    dir_length = slash ? (size_t)(slash - path) : 1;
    dir = (char *)malloc(dir_length + 1);
    if (!dir) {
        free(data);
        return IK_ERR_NO_MEMORY;
    }
    memcpy(dir, slash ? path : ".", dir_length);
    dir[dir_length] = '\0';
    if (slash && dir_length == 0) strcpy(dir, "/");
    r = ik_gltf_read_memory(data, size, dir, out, error);
    free(dir);
    free(data);
    return r;
}

void ik_gltf_free(ik_gltf *g) {
    int i;
    if (!g) return;
    gltf_free_derived(g);
    for (i = 0; i < g->buffer_count; ++i) {
        free(g->buffers[i].data);
        free(g->buffers[i].file_name);
    }
    free(g->buffers);
    json_doc_free(&g->doc);
    free(g);
}

int ik_gltf_buffer_count(const ik_gltf *g) { return g ? g->buffer_count : 0; }

const char *ik_gltf_buffer_file(const ik_gltf *g, int buffer) {
    if (!g || buffer < 0 || buffer >= g->buffer_count) return NULL;
    return g->buffers[buffer].file_name;
}

int ik_gltf_skin_count(const ik_gltf *g) { return g ? g->skin_count : 0; }

const ik_gltf_skin *ik_gltf_skeleton(const ik_gltf *g, int skin) {
    if (!g || skin < 0 || skin >= g->skin_count) return NULL;
    return &g->skins[skin].view;
}

int ik_gltf_clip_count(const ik_gltf *g) { return g ? g->animation_count : 0; }

const ik_clip *ik_gltf_clip(const ik_gltf *g, int clip, int skin) {
    if (!g || clip < 0 || clip >= g->animation_count || skin < 0 || skin >= g->skin_count) return NULL;
    return &g->clips[(size_t)clip * (size_t)g->skin_count + (size_t)skin];
}

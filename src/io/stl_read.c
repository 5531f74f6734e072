/* ikit io: reading STL meshes (see stl.h). */
#include <ikit/stl.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_read.h"
#include "text_scan.h"

/* Twice the area of triangle t (three float corners), as the length of
 * the cross product of two edges; 0 for a degenerate one. */
static double triangle_area2(const float *t) {
    double e1[3], e2[3], c[3];
    int k;
    for (k = 0; k < 3; ++k) {
        e1[k] = (double)t[3 + k] - t[k];
        e2[k] = (double)t[6 + k] - t[k];
    }
    c[0] = e1[1] * e2[2] - e1[2] * e2[1];
    c[1] = e1[2] * e2[0] - e1[0] * e2[2];
    c[2] = e1[0] * e2[1] - e1[1] * e2[0];
    return sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
}

/* A mesh of no triangles, or of none with an area, has no surface to collide. */
static ik_result check_surface(const ik_mesh *mesh, ik_error *error) {
    size_t i;
    if (mesh->triangle_count == 0) {
        ik_error_set(error, 0, 0, -1, "STL: no triangles (an empty mesh)");
        return IK_ERR_DEGENERATE;
    }
    for (i = 0; i < mesh->triangle_count; ++i)
        if (triangle_area2(mesh->vertices + 9 * i) > 0) return IK_OK;
    ik_error_set(error, 0, 0, -1, "STL: every one of the %lu triangles has zero area (a degenerate mesh)",
                 (unsigned long)mesh->triangle_count);
    return IK_ERR_DEGENERATE;
}

static float read_f32_le(const unsigned char *p) {
    uint32_t bits = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static ik_result read_binary(const unsigned char *data, size_t count, ik_mesh *mesh, ik_error *error) {
    size_t i;
    int k;
    mesh->vertices = (float *)malloc((count ? count : 1) * 9 * sizeof(float));
    if (!mesh->vertices) return IK_ERR_NO_MEMORY;
    mesh->binary = 1;
    for (i = 0; i < count; ++i) {
        const unsigned char *record = data + 84 + 50 * i + 12; /* skip the normal */
        float *v = mesh->vertices + 9 * i;
        for (k = 0; k < 9; ++k) {
            v[k] = read_f32_le(record + 4 * k);
            if (!isfinite(v[k])) {
                ik_error_set(error, 0, 0, (long)(84 + 50 * i + 12 + 4 * (size_t)k),
                             "STL: triangle %lu, vertex %d: coordinate is not finite", (unsigned long)i + 1, k / 3 + 1);
                return IK_ERR_NONFINITE;
            }
        }
    }
    mesh->triangle_count = count;
    return IK_OK;
}

/* ASCII: one pass over the tokens, the triangle array doubling as it fills. */
typedef struct ascii_reader {
    ik_text_scan scan;
    ik_mesh *mesh;
    size_t capacity;
    ik_error *error;
} ascii_reader;

static ik_result fail_token(ascii_reader *rd, const ik_text_token *t, ik_result r, const char *what) {
    ik_error_set(rd->error, t->line, t->column, t->offset, "STL: %s, found '%.*s'", what,
                 (int)(t->length > 40 ? 40 : t->length), t->text);
    return r;
}

static ik_result expect(ascii_reader *rd, const char *word) {
    ik_text_token t;
    char what[64];
    if (ik_text_next(&rd->scan, &t, 1) && ik_text_is(&t, word)) return IK_OK;
    snprintf(what, sizeof what, "expected '%s'", word);
    return fail_token(rd, &t, IK_ERR_PARSE, what);
}

static ik_result read_number(ascii_reader *rd, double *out, const char *what) {
    ik_text_token t;
    ik_text_number n = ik_text_next(&rd->scan, &t, 1) ? ik_text_number_parse(&t, out) : IK_TEXT_NUMBER_SYNTAX;
    if (n == IK_TEXT_NUMBER_SYNTAX) return fail_token(rd, &t, IK_ERR_PARSE, what);
    if (n == IK_TEXT_NUMBER_NONFINITE || fabs(*out) > FLT_MAX)
        return fail_token(rd, &t, IK_ERR_NONFINITE, "a coordinate beyond float or not finite");
    return IK_OK;
}

static ik_result read_facet(ascii_reader *rd) {
    double v[3];
    float *out;
    ik_result r = expect(rd, "normal");
    int corner, k;
    for (k = 0; k < 3 && r == IK_OK; ++k) r = read_number(rd, &v[k], "expected a normal's coordinate");
    if (r == IK_OK) r = expect(rd, "outer");
    if (r == IK_OK) r = expect(rd, "loop");
    if (r != IK_OK) return r;
    if (rd->mesh->triangle_count == rd->capacity) {
        size_t capacity = rd->capacity ? 2 * rd->capacity : 256;
        float *grown;
        if (rd->capacity >= IK_STL_MAX_TRIANGLES) {
            ik_error_set(rd->error, rd->scan.line, 0, -1, "STL: more than %lu triangles", IK_STL_MAX_TRIANGLES);
            return IK_ERR_RANGE;
        }
        grown = (float *)realloc(rd->mesh->vertices, capacity * 9 * sizeof(float));
        if (!grown) return IK_ERR_NO_MEMORY;
        rd->mesh->vertices = grown;
        rd->capacity = capacity;
    }
    out = rd->mesh->vertices + 9 * rd->mesh->triangle_count;
    for (corner = 0; corner < 3; ++corner) {
        r = expect(rd, "vertex");
        for (k = 0; k < 3 && r == IK_OK; ++k) r = read_number(rd, &v[k], "expected a vertex coordinate");
        if (r != IK_OK) return r;
        for (k = 0; k < 3; ++k) out[3 * corner + k] = (float)v[k];
    }
    r = expect(rd, "endloop");
    if (r == IK_OK) r = expect(rd, "endfacet");
    if (r == IK_OK) ++rd->mesh->triangle_count;
    return r;
}

static ik_result read_ascii(const char *data, size_t size, ik_mesh *mesh, ik_error *error) {
    ascii_reader rd;
    ik_text_token t;
    ik_result r = IK_OK;
    memset(&rd, 0, sizeof rd);
    rd.mesh = mesh;
    rd.error = error;
    ik_text_scan_init(&rd.scan, data, size, 0);
    ik_text_next(&rd.scan, &t, 1);                                         /* "solid", checked by the caller */
    while (ik_text_skip_blank(&rd.scan, 0)) ik_text_next(&rd.scan, &t, 0); /* the solid's name */
    for (;;) {
        if (!ik_text_next(&rd.scan, &t, 1)) return fail_token(&rd, &t, IK_ERR_PARSE, "expected 'endsolid' at the end");
        if (ik_text_is(&t, "endsolid")) break;
        if (!ik_text_is(&t, "facet")) return fail_token(&rd, &t, IK_ERR_PARSE, "expected 'facet' or 'endsolid'");
        r = read_facet(&rd);
        if (r != IK_OK) return r;
    }
    (void)r;
    return IK_OK;
}

ik_result ik_stl_read_memory(const char *data, size_t size, ik_mesh **out, ik_error *error) {
    const unsigned char *bytes = (const unsigned char *)data;
    ik_mesh *mesh;
    ik_result r;
    size_t start = 0;
    ik_error_clear(error);
    if (!out) return IK_ERR_NULL;
    *out = NULL;
    if (!data) return IK_ERR_NULL;
    mesh = (ik_mesh *)calloc(1, sizeof *mesh);
    if (!mesh) return IK_ERR_NO_MEMORY;
    while (start < size && ik_text_is_blank(data[start])) ++start;
    if (size >= 84) {
        size_t count = (size_t)bytes[80] | (size_t)bytes[81] << 8 | (size_t)bytes[82] << 16 | (size_t)bytes[83] << 24;
        if (count <= IK_STL_MAX_TRIANGLES && (size - 84) / 50 == count && (size - 84) % 50 == 0) {
            r = read_binary(bytes, count, mesh, error);
            goto done;
        }
        if (count > IK_STL_MAX_TRIANGLES && (size - 84) % 50 == 0 && (size - 84) / 50 == count) {
            ik_error_set(error, 0, 0, 80, "STL: %lu triangles, above the %lu a mesh may have", (unsigned long)count,
                         IK_STL_MAX_TRIANGLES);
            r = IK_ERR_RANGE;
            goto done;
        }
    }
    if (size - start >= 5 && memcmp(data + start, "solid", 5) == 0 &&
        (size - start == 5 || ik_text_is_blank(data[start + 5]))) {
        r = read_ascii(data, size, mesh, error);
    } else if (size == 0) {
        ik_error_set(error, 0, 0, -1, "STL: empty file");
        r = IK_ERR_PARSE;
    } else {
        ik_error_set(error, 0, 0, -1,
                     "STL: neither binary (%lu bytes is not 84 + 50 x the triangle count the header gives) nor ASCII "
                     "(it does not start with 'solid')",
                     (unsigned long)size);
        r = IK_ERR_PARSE;
    }
done:
    if (r == IK_OK) r = check_surface(mesh, error);
    if (r == IK_ERR_NO_MEMORY && (!error || !error->message[0])) ik_error_set(error, 0, 0, -1, "STL: out of memory");
    if (r != IK_OK) {
        ik_mesh_free(mesh);
        return r;
    }
    *out = mesh;
    return IK_OK;
}

ik_result ik_stl_read_file(const char *path, ik_mesh **out, ik_error *error) {
    char *data = NULL;
    size_t size = 0;
    ik_result r;
    ik_error_clear(error);
    if (!out) return IK_ERR_NULL;
    *out = NULL;
    if (!path) return IK_ERR_NULL;
    r = ik_io_read_file(path, &data, &size, error);
    if (r != IK_OK) return r;
    r = ik_stl_read_memory(data, size, out, error);
    free(data);
    if (r != IK_OK && error) {
        char message[sizeof error->message];
        snprintf(message, sizeof message, "%s", error->message);
        snprintf(error->message, sizeof error->message, "%.100s: %.150s", path, message);
    }
    return r;
}

void ik_mesh_free(ik_mesh *mesh) {
    if (!mesh) return;
    free(mesh->vertices);
    free(mesh);
}

/* STL reading (issue 29): the UR5's and Panda's binary collision meshes
 * from $IKIT_DATA, ASCII meshes written here (the same triangles as binary
 * give the same vertices), a binary file whose header starts with "solid",
 * and every bad file refused with a clear error: empty, no triangles, all
 * triangles of zero area, malformed facets (with the line), NaN and
 * overflowing coordinates, truncated binary, a missing file. */
#include <ikit/stl.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/check.h"
#include "support/test_groups.h"

static void put_f32(unsigned char *p, float f) {
    uint32_t bits;
    memcpy(&bits, &f, 4);
    p[0] = (unsigned char)bits;
    p[1] = (unsigned char)(bits >> 8);
    p[2] = (unsigned char)(bits >> 16);
    p[3] = (unsigned char)(bits >> 24);
}

/* A binary STL of `count` triangles from v [9 count], header text `header`. */
static unsigned char *binary_stl(const float *v, size_t count, const char *header, size_t *size) {
    unsigned char *b = (unsigned char *)calloc(84 + 50 * count, 1);
    size_t i;
    int k;
    memcpy(b, header, strlen(header) < 80 ? strlen(header) : 80);
    b[80] = (unsigned char)count;
    b[81] = (unsigned char)(count >> 8);
    b[82] = (unsigned char)(count >> 16);
    b[83] = (unsigned char)(count >> 24);
    for (i = 0; i < count; ++i)
        for (k = 0; k < 9; ++k) put_f32(b + 84 + 50 * i + 12 + 4 * k, v[9 * i + k]);
    *size = 84 + 50 * count;
    return b;
}

static const float tetra[36] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0,
                                0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 1, 0};

static void test_binary_and_ascii(void) {
    size_t size;
    unsigned char *b = binary_stl(tetra, 4, "solid looks like ascii but is binary", &size);
    const char *ascii =
        "solid tetra with a long name\n"
        "facet normal 0 0 -1\n outer loop\n  vertex 0 0 0\n  vertex 1 0 0\n  vertex 0 1 0\n endloop\nendfacet\n"
        "facet normal 0 -1 0\n outer loop\n  vertex 0 0 0\n  vertex 0 0 1\n  vertex 1 0 0\n endloop\nendfacet\n"
        "  facet normal -1 0 0 outer loop vertex 0 0 0 vertex 0 1 0 vertex 0 0 1 endloop endfacet\n"
        "facet normal 1 1 1\n outer loop\n  vertex 1.0e0 0 0\n  vertex 0 0 1\n  vertex 0 +1 0\n endloop\nendfacet\n"
        "endsolid tetra\n";
    ik_mesh *m1 = NULL, *m2 = NULL;
    ik_error err;
    ik_result r1 = ik_stl_read_memory((const char *)b, size, &m1, &err);
    ik_result r2 = ik_stl_read_memory(ascii, strlen(ascii), &m2, &err);
    CHECK(r1 == IK_OK && m1 && m1->binary == 1 && m1->triangle_count == 4, "binary with a 'solid' header: %s",
          err.message);
    CHECK(r2 == IK_OK && m2 && m2->binary == 0 && m2->triangle_count == 4, "ascii: %s (%s)", ik_result_str(r2),
          err.message);
    if (m1 && m2) CHECK(memcmp(m1->vertices, m2->vertices, 36 * sizeof(float)) == 0, "the same vertices both ways");
    ik_mesh_free(m1);
    ik_mesh_free(m2);
    free(b);
}

static void expect_error(const char *data, size_t size, ik_result want, const char *words, const char *what) {
    ik_mesh *m = (ik_mesh *)1;
    ik_error err;
    ik_result r = ik_stl_read_memory(data, size, &m, &err);
    CHECK(r == want && m == NULL && err.message[0] && (!words || strstr(err.message, words)),
          "%s: got %s '%s', want %s with '%s'", what, ik_result_str(r), err.message, ik_result_str(want),
          words ? words : "");
}

#define EXPECT_TEXT(text, want, words, what) expect_error(text, strlen(text), want, words, what)

static void test_bad_files(void) {
    static const float flat[18] = {0, 0, 0, 1, 0, 0, 2, 0, 0, 5, 5, 5, 5, 5, 5, 5, 5, 5};
    float bad[36];
    size_t size;
    unsigned char *b;
    expect_error("", 0, IK_ERR_PARSE, "empty", "empty file");
    EXPECT_TEXT("solid x\nendsolid x\n", IK_ERR_DEGENERATE, "no triangles", "no facets");
    EXPECT_TEXT("hello world, not a mesh", IK_ERR_PARSE, "neither binary", "neither kind");
    EXPECT_TEXT("solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0\nendloop\n", IK_ERR_PARSE, "line 6",
                "a vertex of two numbers");
    EXPECT_TEXT("solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\n",
                IK_ERR_PARSE, "endfacet", "no endfacet at the end");
    EXPECT_TEXT("solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1e39 0 0\nvertex 0 1 0\n",
                IK_ERR_NONFINITE, "beyond float", "a coordinate beyond float");
    EXPECT_TEXT("solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex nan 0 0\n", IK_ERR_NONFINITE,
                "not finite", "nan in ascii");
    b = binary_stl(flat, 2, "", &size);
    expect_error((const char *)b, size, IK_ERR_DEGENERATE, "zero area", "every triangle of zero area");
    expect_error((const char *)b, size - 1, IK_ERR_PARSE, "neither binary", "binary cut short by one byte");
    free(b);
    memcpy(bad, tetra, sizeof bad);
    bad[13] = (float)NAN;
    b = binary_stl(bad, 4, "", &size);
    expect_error((const char *)b, size, IK_ERR_NONFINITE, "triangle 2", "NaN in binary");
    bad[13] = (float)INFINITY;
    free(b);
    b = binary_stl(bad, 4, "", &size);
    expect_error((const char *)b, size, IK_ERR_NONFINITE, "not finite", "infinity in binary");
    free(b);
    b = binary_stl(tetra, 0, "", &size);
    expect_error((const char *)b, size, IK_ERR_DEGENERATE, "no triangles", "binary of no triangles");
    free(b);
    {
        ik_mesh *m = NULL;
        ik_error err;
        ik_result r = ik_stl_read_file("/nonexistent/dir/mesh.stl", &m, &err);
        CHECK(r == IK_ERR_IO && m == NULL && strstr(err.message, "/nonexistent/dir/mesh.stl"),
              "a missing file names its path: %s", err.message);
        CHECK(ik_stl_read_memory(NULL, 3, &m, &err) == IK_ERR_NULL, "NULL data");
        CHECK(ik_stl_read_memory("x", 1, NULL, &err) == IK_ERR_NULL, "NULL out");
    }
}

/* A big ASCII mesh reads in one pass: 200,000 facets (checked for the count
 * and the last vertex; the time is bench_robot_cell's). */
static void test_big_ascii(void) {
    const size_t count = 200000;
    size_t cap = count * 120 + 64, used = 0, i;
    char *text = (char *)malloc(cap);
    ik_mesh *m = NULL;
    ik_error err;
    ik_result r;
    used += (size_t)snprintf(text + used, cap - used, "solid big\n");
    for (i = 0; i < count; ++i)
        used += (size_t)snprintf(text + used, cap - used,
                                 "facet normal 0 0 1 outer loop vertex %lu 0 0 vertex 0 1 0 vertex 0 0 1 endloop "
                                 "endfacet\n",
                                 (unsigned long)i);
    used += (size_t)snprintf(text + used, cap - used, "endsolid big\n");
    r = ik_stl_read_memory(text, used, &m, &err);
    CHECK(r == IK_OK && m && m->triangle_count == count && m->vertices[9 * (count - 1)] == (float)(count - 1),
          "200,000 ascii facets: %s", err.message);
    ik_mesh_free(m);
    free(text);
}

static void test_real_meshes(void) {
    static const char *const files[] = {
        "ur_description/meshes/ur5/collision/base.stl", "ur_description/meshes/ur5/collision/upperarm.stl",
        "panda_description/meshes/collision/link0.stl", "panda_description/meshes/collision/hand.stl"};
    const char *data = getenv("IKIT_DATA");
    char path[700];
    size_t k, i;
    snprintf(path, sizeof path, "%s/urdf/example-robot-data/robots", data ? data : "../shared/data");
    if (access(path, R_OK) != 0) {
        check_skip("no $IKIT_DATA/urdf/example-robot-data: the real meshes are not read");
        return;
    }
    for (k = 0; k < sizeof files / sizeof files[0]; ++k) {
        ik_mesh *m = NULL;
        ik_error err;
        FILE *f;
        long bytes = 0;
        float lo = 1e30f, hi = -1e30f;
        ik_result r;
        snprintf(path, sizeof path, "%s/urdf/example-robot-data/robots/%s", data ? data : "../shared/data", files[k]);
        f = fopen(path, "rb");
        if (f) {
            fseek(f, 0, SEEK_END);
            bytes = ftell(f);
            fclose(f);
        }
        r = ik_stl_read_file(path, &m, &err);
        CHECK(r == IK_OK && m && m->binary && (long)(84 + 50 * m->triangle_count) == bytes, "%s: %s", path,
              err.message);
        if (!m) continue;
        for (i = 0; i < 9 * m->triangle_count; ++i) {
            if (m->vertices[i] < lo) lo = m->vertices[i];
            if (m->vertices[i] > hi) hi = m->vertices[i];
        }
        /* Metres: every arm part fits in a 1 m box and is more than 2 cm across. */
        CHECK(lo > -1 && hi < 1 && hi - lo > 0.02, "%s: coordinates in metres, %g to %g", files[k], lo, hi);
        ik_mesh_free(m);
    }
}

static const test_group groups[] = {
    TEST_GROUP(binary_and_ascii),
    TEST_GROUP(bad_files),
    TEST_GROUP(big_ascii),
    TEST_GROUP(real_meshes),
};

int main(int argc, char **argv) {
    if (!test_groups_run(groups, (int)(sizeof groups / sizeof groups[0]), argc, argv)) return 2;
    return check_summary("test_stl");
}

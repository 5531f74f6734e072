/* ikit io: STL triangle meshes (binary and ASCII), as URDF <collision>
 * elements name them.
 *
 * Binary STL: an 80-byte header, a little-endian uint32 triangle count N,
 * then N records of 50 bytes (normal, three vertices as 12 float32, a
 * 2-byte attribute). A file whose size is exactly 84 + 50 N is read as
 * binary, whatever its header says (many binary files start with "solid").
 * ASCII STL: "solid [name]", then facets "facet normal nx ny nz / outer loop
 * / vertex x y z (three) / endloop / endfacet", then "endsolid [name]". The
 * normals are ignored (they are recomputed where needed); the vertices are
 * kept as a triangle soup of float32, as the file stores them.
 *
 * Refused with a message naming the place (the facet, the line or the byte
 * offset): a file neither binary (size not 84 + 50 N) nor ASCII (IK_ERR_PARSE),
 * a malformed ASCII facet (IK_ERR_PARSE), a coordinate that is NaN, infinite
 * or beyond float (IK_ERR_NONFINITE), a mesh of no triangles or whose every
 * triangle has zero area (IK_ERR_DEGENERATE), more than IK_STL_MAX_TRIANGLES
 * triangles (IK_ERR_RANGE). Reading is one linear pass (a mesh of millions of
 * triangles reads in about the time its bytes take to scan). */
#ifndef IKIT_STL_H
#define IKIT_STL_H

#include <stddef.h>

#include <ikit/error.h>
#include <ikit/result.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most triangles a mesh may have (50 million: 2.5 GB of binary STL). */
#define IK_STL_MAX_TRIANGLES 50000000UL

typedef struct ik_mesh {
    size_t triangle_count;
    float *vertices; /* [9 * triangle_count]: x, y, z of the three corners of each triangle */
    int binary;      /* 1 when read from binary STL */
} ik_mesh;

/* Reads `size` bytes (need not be NUL-terminated); *out is NULL on failure.
 * error may be NULL. */
ik_result ik_stl_read_memory(const char *data, size_t size, ik_mesh **out, ik_error *error);
/* Reads a file (a regular file, at most IK_IO_MAX_FILE_BYTES). The message
 * names the path. */
ik_result ik_stl_read_file(const char *path, ik_mesh **out, ik_error *error);
void ik_mesh_free(ik_mesh *mesh);

#ifdef __cplusplus
}
#endif
#endif

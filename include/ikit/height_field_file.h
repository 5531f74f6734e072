/* ikit io: the height-field text file (`ikc solve --feet-on-ground FILE`):
 *
 *   # '#' starts a comment, to the end of the line
 *   cell 0.1             sample spacing along x and z, model units (> 0)
 *   size 6 4             samples along x, then rows along z (1..1024 each)
 *   origin -0.25 0 -0.2  optional: model position of the first sample
 *   heights              then `size z` rows of `size x` heights (y):
 *   0 0 0.01 0.02 0.03 0.04
 *   ...
 *
 * Row iz, column ix is the height at x = origin.x + ix * cell,
 * z = origin.z + iz * cell, plus origin.y (ik_ground_height_field in
 * ground.h takes it as it is). Without `origin` the caller places the grid
 * (ikc centres it under the character's hips and counts the heights from
 * its rest floor). */
#ifndef IKIT_HEIGHT_FIELD_FILE_H
#define IKIT_HEIGHT_FIELD_FILE_H

#include <stddef.h>

#include <ikit/error.h>
#include <ikit/io_file.h>
#include <ikit/math.h>
#include <ikit/result.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IK_HEIGHT_FIELD_MAX_SIZE 1024

typedef struct ik_height_field_file {
    ik_real cell;         /* > 0 */
    int count_x, count_z; /* 1..IK_HEIGHT_FIELD_MAX_SIZE */
    int has_origin;
    ik_vec3 origin_ms; /* zero without `origin` */
    ik_real *heights;  /* [count_z * count_x], row by row, finite */
} ik_height_field_file;

/* Parse height-field text held in memory (need not be NUL-terminated). On
 * success release `field` with ik_height_field_file_free; on failure it
 * holds nothing and error (may be NULL) names the line and column. Codes:
 * IK_ERR_PARSE (unknown word, missing or extra values or rows),
 * IK_ERR_NONFINITE (a value that is not a finite number), IK_ERR_RANGE
 * (cell not > 0, size not whole in 1..1024), IK_ERR_NO_MEMORY, IK_ERR_NULL. */
ik_result ik_height_field_file_read_memory(const char *data, size_t size, ik_height_field_file *field, ik_error *error);
/* Regular files of at most IK_IO_MAX_FILE_BYTES only (io_file.h); IK_ERR_IO
 * when it cannot be read. */
ik_result ik_height_field_file_read_file(const char *path, ik_height_field_file *field, ik_error *error);
void ik_height_field_file_free(ik_height_field_file *field);

#ifdef __cplusplus
}
#endif
#endif

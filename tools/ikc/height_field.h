/* The height-field text file `ikc solve --feet-on-ground FILE` reads:
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
 * z = origin.z + iz * cell, plus origin.y. Without `origin` the grid is
 * centred under the character's hips and the heights count from its rest
 * floor. Outside the grid the border heights continue. */
#ifndef IKC_HEIGHT_FIELD_H
#define IKC_HEIGHT_FIELD_H

#include <ikit/math.h>

#define IKC_HEIGHT_FIELD_MAX_SIZE 1024

typedef struct ikc_height_field {
    ik_real cell;
    int count_x, count_z;
    int has_origin;
    ik_vec3 origin_ms;
    ik_real *heights; /* [count_z * count_x], row by row */
} ikc_height_field;

/* Read `path`. Returns an IKC_EXIT_ code after printing "ikc CMD: ..."
 * (FILE:LINE: what is wrong, for a malformed file). */
int ikc_height_field_read(const char *command, const char *path, ikc_height_field *field);
/* The same from `text` (NUL-terminated; its lines are cut in place),
 * `path` naming it in messages. */
int ikc_height_field_parse(const char *command, const char *path, char *text, ikc_height_field *field);
void ikc_height_field_free(ikc_height_field *field);

#endif

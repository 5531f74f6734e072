/* The humanoid rig of a loaded character: its roles found by name (or from
 * a mapping file given with --map), the report of what was found, and the
 * rig built from the rest pose. */
#ifndef IKC_HUMANOID_SETUP_H
#define IKC_HUMANOID_SETUP_H

#include <stdio.h>

#include <ikit/humanoid.h>

typedef struct ikc_humanoid {
    char *map_text; /* the mapping file's text: the pairs point into it */
    ik_humanoid_pair pairs[2 * IK_ROLE_COUNT];
    int pair_count;
    ik_humanoid_map map;
    ik_result map_result;  /* IK_OK when every required role was found */
    ik_result init_result; /* ik_humanoid_init's, when the map was complete */
    ik_humanoid rig;
} ikc_humanoid;

/* Find the humanoid in `skeleton`, reading `map_path` first when not NULL.
 * Returns IKC_EXIT_OK (look at map_result and init_result), or the exit code
 * of a mapping file that cannot be read (3) or parsed (4, with its line),
 * after printing "ikc CMD: ...". Free with ikc_humanoid_free either way. */
int ikc_humanoid_find(const char *command, const ik_skeleton *skeleton, const char *map_path, ikc_humanoid *h);
void ikc_humanoid_free(ikc_humanoid *h);

/* The rig is usable; otherwise print why to `out` ("ikc CMD: ...", the
 * missing roles and the --map hint) and return 0. */
int ikc_humanoid_usable(const char *command, const ikc_humanoid *h, const ik_skeleton *skeleton, FILE *out);

/* Print ik_humanoid_map_describe's report, each line indented by `indent`. */
void ikc_humanoid_print_map(FILE *out, const ikc_humanoid *h, const ik_skeleton *skeleton, const char *indent);

#endif

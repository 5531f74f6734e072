/* "Did you mean": the names closest to a mistyped one, ranked by the io
 * library's ik_error_closest_names (edit distance, containment first). */
#include <ikit/error.h>
#include <stdlib.h>

#include "ikc.h"

int ikc_suggest_name(FILE *out, const char *const *names, int count, const char *wanted, int max_suggestions) {
    int best[8], found, k;
    if (max_suggestions > 8) max_suggestions = 8;
    found = ik_error_closest_names(names, count, wanted, best, max_suggestions);
    if (found == 0) return 0;
    fprintf(out, "  did you mean: ");
    for (k = 0; k < found; ++k) fprintf(out, "%s%s", k ? ", " : "", ikc_shown(names[best[k]]));
    fprintf(out, "?\n");
    return found;
}

void ikc_suggest_joint(FILE *out, const ik_skeleton *skeleton, const char *wanted, int max_suggestions) {
    const char **names;
    int i;
    if (skeleton->joint_count < 1) return;
    names = (const char **)malloc((size_t)skeleton->joint_count * sizeof *names);
    if (!names) return;
    for (i = 0; i < skeleton->joint_count; ++i) names[i] = ik_skeleton_name(skeleton, i);
    if (!ikc_suggest_name(out, names, skeleton->joint_count, wanted, max_suggestions))
        fprintf(out, "  (no similar name; `ikc info FILE` lists them all)\n");
    free(names);
}

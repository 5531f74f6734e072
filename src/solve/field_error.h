/* ikit private: naming the bad field of a solver job (chain_base.h). */
#ifndef IKIT_SOLVE_FIELD_ERROR_H
#define IKIT_SOLVE_FIELD_ERROR_H

#include <stddef.h>

#include <ikit/error.h>
#include <ikit/result.h>

/* Returns `result` after recording in `*error` (when given) the job field
 * that caused it: the record cleared, then its path set to `field` (NULL:
 * none, as on IK_OK) and its index to `index`. */
static inline ik_result ik_field_fail(ik_error *error, ik_result result, const char *field, int index) {
    size_t n = 0;
    if (error) {
        ik_error_clear(error);
        for (; field && field[n] && n + 1 < sizeof error->path; ++n) error->path[n] = field[n];
        error->path[n] = '\0';
        error->index = index;
    }
    return result;
}

#endif

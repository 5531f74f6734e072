/* ikit private: naming the bad field of a chain solver job (chain_base.h). */
#ifndef IKIT_SOLVE_FIELD_ERROR_H
#define IKIT_SOLVE_FIELD_ERROR_H

#include <ikit/chain_base.h>

/* Returns `result` after naming `field` [index] in `*where` (when given). */
static inline ik_result ik_field_fail(ik_field_error *where, ik_result result, const char *field, int index) {
    if (where) {
        where->field = field;
        where->index = index;
    }
    return result;
}

#endif

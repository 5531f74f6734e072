/* Helpers for the text readers' broken-input tests (BVH, chain files): where
 * an error was reported, and seeded random corruptions of a valid text. */
#ifndef IKIT_TEST_READ_ERRORS_H
#define IKIT_TEST_READ_ERRORS_H

#include <ikit/io_error.h>
#include <stdio.h>
#include <string.h>

#include "rng.h"

/* The error is reported on `line`, and its message starts "line <line>,". */
static inline int read_error_at(const ik_io_error *err, long line) {
    char prefix[32];
    snprintf(prefix, sizeof prefix, "line %ld,", line);
    return err->line == line && strncmp(err->message, prefix, strlen(prefix)) == 0;
}

/* `copy` becomes `text` (`size` bytes, at least one) with 1 to 4 of its bytes
 * replaced by random characters from `alphabet`. */
static inline void read_corrupt(rng *r, char *copy, const char *text, size_t size, const char *alphabet) {
    size_t letters = strlen(alphabet);
    int k, edits = 1 + (int)(rng_next(r) % 4);
    memcpy(copy, text, size);
    for (k = 0; k < edits; ++k) copy[rng_next(r) % size] = alphabet[rng_next(r) % letters];
}

#endif

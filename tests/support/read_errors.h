/* Helpers for the text readers' broken-input tests (BVH, chain files): a
 * table of broken inputs and the check of each answer (result, the line of
 * the error, output cleared), and seeded random corruptions of a valid text. */
#ifndef IKIT_TEST_READ_ERRORS_H
#define IKIT_TEST_READ_ERRORS_H

#include <ikit/error.h>
#include <ikit/result.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "rng.h"

/* A broken input: the result and the line its error must be reported on. */
typedef struct read_case {
    const char *text;
    ik_result expected;
    long line;
    const char *what;
} read_case;

/* The error is reported on `line`, and its message starts "line <line>,". */
static inline int read_error_at(const ik_error *error, long line) {
    char prefix[32];
    snprintf(prefix, sizeof prefix, "line %ld,", line);
    return error->line == line && strncmp(error->message, prefix, strlen(prefix)) == 0;
}

/* A reader's answer to case `c`: the expected result, reported on the
 * expected line, and the output pointer cleared (`cleared`). */
static inline void read_case_check(const read_case *c, ik_result got, const ik_error *error, int cleared) {
    CHECK(got == c->expected, "%s: got %s (%s), expected %s", c->what, ik_result_str(got), error->message,
          ik_result_str(c->expected));
    CHECK(read_error_at(error, c->line), "%s: error at line %ld, expected %ld: %s", c->what, error->line, c->line,
          error->message);
    CHECK(cleared, "%s: output not cleared", c->what);
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

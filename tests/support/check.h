/* A tiny test harness: CHECK counts and reports failures; every test program
 * ends with check_summary(), which prints "N passed, N failed" and gives the
 * exit code. */
#ifndef IKIT_TEST_CHECK_H
#define IKIT_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static int check_passed_count = 0;
static int check_failed_count = 0;
static int check_skipped_count = 0;

/* Report at most this many failures per CHECK site's message stream. */
#define CHECK_MAX_REPORTS 20

#define CHECK(cond, ...)                                                                \
    do {                                                                                \
        if (cond) {                                                                     \
            ++check_passed_count;                                                       \
        } else {                                                                        \
            if (++check_failed_count <= CHECK_MAX_REPORTS) {                            \
                fprintf(stderr, "%s:%d: check failed: %s:", __FILE__, __LINE__, #cond); \
                fprintf(stderr, " " __VA_ARGS__);                                       \
                fprintf(stderr, "\n");                                                  \
            }                                                                           \
        }                                                                               \
    } while (0)

/* Counts a property over many cases as one check, reporting the first failure. */
typedef struct check_property {
    const char *name;
    long cases, failures;
} check_property;

#define PROPERTY_CASE(prop, cond, ...)                                                                                \
    do {                                                                                                              \
        ++(prop).cases;                                                                                               \
        if (!(cond) && ++(prop).failures <= 3) {                                                                      \
            fprintf(stderr, "%s:%d: %s: case %ld failed: %s:", __FILE__, __LINE__, (prop).name, (prop).cases, #cond); \
            fprintf(stderr, " " __VA_ARGS__);                                                                         \
            fprintf(stderr, "\n");                                                                                    \
        }                                                                                                             \
    } while (0)

static inline void property_end(check_property *prop) {
    CHECK(prop->failures == 0 && prop->cases > 0, "%s: %ld of %ld cases failed", prop->name, prop->failures,
          prop->cases);
}

static inline void check_skip(const char *why) {
    ++check_skipped_count;
    printf("skipped: %s\n", why);
}

static inline int check_summary(const char *suite) {
    printf("%s: %d passed, %d failed", suite, check_passed_count, check_failed_count);
    if (check_skipped_count) printf(", %d skipped", check_skipped_count);
    printf("\n");
    return check_failed_count == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif

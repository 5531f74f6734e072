/* Named groups of checks in one test program, so that ctest can run them
 * side by side: the program's table lists one TEST_GROUP(name) per line
 * (for test_name), CMake reads those lines and registers one ctest entry
 * PROGRAM.name per group, which runs `PROGRAM name`. TEST_GROUP_SLOW marks
 * a long sweep (thousands of runs of one path), which ctest also labels
 * slow. The program run without arguments runs every group in the table's
 * order. */
#ifndef IKIT_TEST_GROUPS_H
#define IKIT_TEST_GROUPS_H

#include <stdio.h>
#include <string.h>

typedef struct test_group {
    const char *name;
    void (*run)(void);
} test_group;

#define TEST_GROUP(name) \
    { #name, test_##name }
#define TEST_GROUP_SLOW(name) TEST_GROUP(name)

/* Run the groups named in argv[1..], in the order given, or all of them
 * without arguments. 0 (having run nothing) when a name is not in the table. */
static inline int test_groups_run(const test_group *groups, int count, int argc, char **argv) {
    int a, g;
    for (a = 1; a < argc; ++a) {
        for (g = 0; g < count && strcmp(groups[g].name, argv[a]) != 0; ++g) continue;
        if (g == count) {
            fprintf(stderr, "%s: no group named '%s'; the groups are:", argv[0], argv[a]);
            for (g = 0; g < count; ++g) fprintf(stderr, " %s", groups[g].name);
            fprintf(stderr, "\n");
            return 0;
        }
    }
    for (a = 1; a < argc; ++a)
        for (g = 0; g < count; ++g)
            if (strcmp(groups[g].name, argv[a]) == 0) groups[g].run();
    if (argc < 2)
        for (g = 0; g < count; ++g) groups[g].run();
    return 1;
}

#endif

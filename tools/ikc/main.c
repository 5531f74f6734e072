/* ikc: apply inverse kinematics to characters and motion from the command line. */
#include <stdio.h>
#include <string.h>

#include "ikc.h"

static void usage(FILE *out) {
    fprintf(out,
            "usage: ikc COMMAND [OPTIONS]\n"
            "\n"
            "commands:\n"
            "  demo       the showcase on built-in data\n"
            "\n"
            "ikc COMMAND --help shows a command's options; ikc --version the version.\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("ikc %s\n", IKC_VERSION);
        return 0;
    }
    if (strcmp(argv[1], "demo") == 0) return ikc_demo(argc - 2, argv + 2);
    fprintf(stderr, "ikc: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}

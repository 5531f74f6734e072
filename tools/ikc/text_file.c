/* Reading a whole small text file (mapping files, height fields). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ikc.h"

char *ikc_read_text_file(const char *command, const char *path, size_t max_bytes, size_t *length, int *code) {
    FILE *f = fopen(path, "rb");
    char *text;
    size_t n;
    if (!f) {
        fprintf(stderr, "ikc %s: cannot open '%s': %s\n", command, path, strerror(errno));
        *code = IKC_EXIT_NO_FILE;
        return NULL;
    }
    text = (char *)malloc(max_bytes + 1);
    if (!text) {
        fclose(f);
        fprintf(stderr, "ikc %s: out of memory\n", command);
        *code = IKC_EXIT_FAILURE;
        return NULL;
    }
    n = fread(text, 1, max_bytes + 1, f);
    if (ferror(f)) {
        fprintf(stderr, "ikc %s: cannot read '%s'\n", command, path);
        *code = IKC_EXIT_NO_FILE;
    } else if (n > max_bytes) {
        fprintf(stderr, "ikc %s: '%s' is larger than %lu bytes\n", command, path, (unsigned long)max_bytes);
        *code = IKC_EXIT_FORMAT;
    } else {
        fclose(f);
        text[n] = '\0';
        *length = n;
        *code = IKC_EXIT_OK;
        return text;
    }
    fclose(f);
    free(text);
    return NULL;
}

/* Reading a whole small text file (mapping files): the io layer's safe
 * reader (a regular file only, opened without blocking, at most max_bytes),
 * with its failure turned into an ikc message and exit code; and the same
 * for the io layer's text-format readers' failures. */
#include <stdlib.h>
#include <string.h>

#include <ikit/io_file.h>

#include "ikc.h"

char *ikc_read_text_file(const char *command, const char *path, size_t max_bytes, size_t *length, int *code) {
    char *text = NULL;
    ik_error err;
    ik_result r = ik_io_read_file_at_most(path, max_bytes, &text, length, &err);
    if (r == IK_OK) {
        *code = IKC_EXIT_OK;
        return text;
    }
    fprintf(stderr, "ikc %s: %s\n", command, err.message[0] ? err.message : ik_result_str(r));
    *code = r == IK_ERR_UNSUPPORTED ? IKC_EXIT_FORMAT : r == IK_ERR_NO_MEMORY ? IKC_EXIT_FAILURE : IKC_EXIT_NO_FILE;
    return NULL;
}

int ikc_reader_failed(const char *command, const char *path, ik_result result, const ik_error *err) {
    const char *what = err->line > 0 && strstr(err->message, ": ") ? strstr(err->message, ": ") + 2 : err->message;
    if (result == IK_ERR_IO) {
        fprintf(stderr, "ikc %s: %s\n", command, ikc_shown(err->message));
        return IKC_EXIT_NO_FILE;
    }
    if (result == IK_ERR_NO_MEMORY) {
        fprintf(stderr, "ikc %s: %s\n", command, err->message);
        return IKC_EXIT_FAILURE;
    }
    fprintf(stderr, "ikc %s: %s:%ld:%ld: %s\n", command, path, err->line, err->column, what);
    return IKC_EXIT_FORMAT;
}

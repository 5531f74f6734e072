/* Reading a whole small text file (mapping files): the io layer's safe
 * reader (a regular file only, opened without blocking, at most max_bytes),
 * with its failure turned into an ikc message and exit code. */
#include <stdlib.h>

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

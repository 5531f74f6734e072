/* Reading a whole small text file (mapping files, height fields): a regular
 * file only (opened without blocking, so a FIFO is refused at once), at most
 * max_bytes. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ikc.h"

char *ikc_read_text_file(const char *command, const char *path, size_t max_bytes, size_t *length, int *code) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    struct stat st;
    char *text;
    size_t n = 0;
    int failed = 0;
    if (fd < 0) {
        fprintf(stderr, "ikc %s: cannot open '%s': %s\n", command, path, strerror(errno));
        *code = IKC_EXIT_NO_FILE;
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        fprintf(stderr, "ikc %s: '%s' is not a regular file\n", command, path);
        close(fd);
        *code = IKC_EXIT_NO_FILE;
        return NULL;
    }
    if ((unsigned long long)st.st_size > (unsigned long long)max_bytes) {
        fprintf(stderr, "ikc %s: '%s' is larger than %lu bytes\n", command, path, (unsigned long)max_bytes);
        close(fd);
        *code = IKC_EXIT_FORMAT;
        return NULL;
    }
    text = (char *)malloc(max_bytes + 1);
    if (!text) {
        close(fd);
        fprintf(stderr, "ikc %s: out of memory\n", command);
        *code = IKC_EXIT_FAILURE;
        return NULL;
    }
    /* read to the end, but never past max_bytes + 1 (the file may grow) */
    while (n <= max_bytes) {
        ssize_t got = read(fd, text + n, max_bytes + 1 - n);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            fprintf(stderr, "ikc %s: cannot read '%s': %s\n", command, path, strerror(errno));
            *code = IKC_EXIT_NO_FILE;
            failed = 1;
            break;
        }
        if (got == 0) break;
        n += (size_t)got;
    }
    close(fd);
    if (failed) {
        /* reported above */
    } else if (n > max_bytes) {
        fprintf(stderr, "ikc %s: '%s' is larger than %lu bytes\n", command, path, (unsigned long)max_bytes);
        *code = IKC_EXIT_FORMAT;
    } else {
        text[n] = '\0';
        *length = n;
        *code = IKC_EXIT_OK;
        return text;
    }
    free(text);
    return NULL;
}

/* ikit io: reading input files whole, safely. The file is opened without
 * blocking (O_NONBLOCK, so opening a FIFO returns at once), checked to be a
 * regular file (fstat on the open descriptor, so a symlink swapped in after
 * a check cannot redirect the read), its size checked against the cap and
 * the caller's need, and then exactly that many bytes are read: a file that
 * grows while it is read cannot grow the buffer. */
#define _POSIX_C_SOURCE 200809L
#include "file_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* Open `path` for reading as a regular file of at most `cap` bytes; its
 * size in *file_size. -1 after filling error. */
static int open_regular(const char *path, size_t cap, long long *file_size, ik_result *result, ik_error *error) {
    struct stat st;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        ik_error_set(error, 0, 0, -1, "cannot open '%.180s': %s", path, strerror(errno));
        *result = IK_ERR_IO;
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ik_error_set(error, 0, 0, -1, "'%.180s' is not a regular file", path);
        close(fd);
        *result = IK_ERR_IO;
        return -1;
    }
    if ((unsigned long long)st.st_size > (unsigned long long)cap) {
        ik_error_set(error, 0, 0, -1, "'%.160s' holds %lld bytes, more than the %lu-byte limit", path,
                     (long long)st.st_size, (unsigned long)cap);
        close(fd);
        *result = IK_ERR_UNSUPPORTED;
        return -1;
    }
    *file_size = (long long)st.st_size;
    return fd;
}

/* Read `length` bytes from fd into a new buffer of length + 1 bytes. */
static ik_result read_exactly(int fd, const char *path, size_t length, char **data, ik_error *error) {
    size_t used = 0;
    char *buffer = (char *)malloc(length + 1);
    if (!buffer) {
        ik_error_set(error, 0, 0, -1, "out of memory reading '%.180s'", path);
        return IK_ERR_NO_MEMORY;
    }
    while (used < length) {
        ssize_t got = read(fd, buffer + used, length - used);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            ik_error_set(error, 0, 0, -1, got < 0 ? "cannot read '%.180s'" : "'%.180s' shrank while read", path);
            free(buffer);
            return IK_ERR_IO;
        }
        used += (size_t)got;
    }
    buffer[length] = '\0';
    *data = buffer;
    return IK_OK;
}

ik_result ik_io_read_file_at_most(const char *path, size_t max_bytes, char **data, size_t *size, ik_error *error) {
    long long file_size = 0;
    ik_result r = IK_OK;
    int fd;
    if (!data || !size) return IK_ERR_NULL;
    *data = NULL;
    *size = 0;
    if (!path) return IK_ERR_NULL;
    if (max_bytes > (size_t)IK_IO_MAX_FILE_BYTES) max_bytes = (size_t)IK_IO_MAX_FILE_BYTES;
    if ((fd = open_regular(path, max_bytes, &file_size, &r, error)) < 0) return r;
    r = read_exactly(fd, path, (size_t)file_size, data, error);
    close(fd);
    if (r == IK_OK) *size = (size_t)file_size;
    return r;
}

ik_result ik_io_read_file(const char *path, char **data, size_t *size, ik_error *error) {
    return ik_io_read_file_at_most(path, (size_t)IK_IO_MAX_FILE_BYTES, data, size, error);
}

ik_result ik_io_read_file_prefix(const char *path, size_t length, char **data, ik_error *error) {
    long long file_size = 0;
    ik_result r = IK_OK;
    int fd;
    if (!data) return IK_ERR_NULL;
    *data = NULL;
    if (!path) return IK_ERR_NULL;
    if (length > (size_t)IK_IO_MAX_FILE_BYTES) {
        ik_error_set(error, 0, 0, -1, "%lu bytes wanted from '%.160s', more than the %lu-byte limit",
                     (unsigned long)length, path, (unsigned long)IK_IO_MAX_FILE_BYTES);
        return IK_ERR_UNSUPPORTED;
    }
    if ((fd = open_regular(path, (size_t)IK_IO_MAX_FILE_BYTES, &file_size, &r, error)) < 0) return r;
    if ((unsigned long long)file_size < (unsigned long long)length) {
        ik_error_set(error, 0, 0, -1, "'%.160s' holds %lld bytes, %lu needed", path, file_size, (unsigned long)length);
        close(fd);
        return IK_ERR_PARSE;
    }
    r = read_exactly(fd, path, length, data, error);
    close(fd);
    return r;
}

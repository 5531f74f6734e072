/* ikit: where and why a file reader or writer failed. Shared by every io module. */
#ifndef IKIT_IO_ERROR_H
#define IKIT_IO_ERROR_H

#include <stdarg.h>
#include <stddef.h>

#include <ikit/result.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The largest file any reader accepts, in bytes (2 GiB). Readers read
 * regular files only: a FIFO, device or directory is refused (IK_ERR_IO)
 * without blocking, a larger file is refused (IK_ERR_UNSUPPORTED) before
 * anything is read, and a glTF buffer's declared byteLength is checked
 * against its file's size before the file is read. */
#define IK_IO_MAX_FILE_BYTES (2048UL * 1024UL * 1024UL)

/* The place of a failure and a human message. Text formats fill line and
 * column (1-based; 0 when unknown) and offset (0-based byte offset, -1 when
 * unknown); JSON formats fill path with a JSON path such as
 * "/nodes/3/children/0". message is always NUL-terminated; it already
 * includes "line L, column C: " when the line is known. */
typedef struct ik_io_error {
    long line;
    long column;
    long offset;
    char path[160];
    char message[256];
} ik_io_error;

/* Clears e: line, column 0, offset -1, empty path and message. NULL is ignored. */
void ik_io_error_clear(ik_io_error *e);

/* Records a failure at (line, column, offset) with a printf-style message.
 * When line > 0 the message is prefixed with "line L, column C: ".
 * path is left as it is. NULL e is ignored. */
void ik_io_error_set(ik_io_error *e, long line, long column, long offset, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Same as ik_io_error_set with a va_list. */
void ik_io_error_setv(ik_io_error *e, long line, long column, long offset, const char *fmt, va_list args);

/* "Did you mean": the indices of up to `max` (at most 8) of names [count]
 * closest to `wanted`, best first, into best [max]; returns how many.
 * Names containing `wanted` (or contained in it) come first, then by edit
 * distance; names more than about half their length away are left out. */
int ik_io_closest_names(const char *const *names, int count, const char *wanted, int *best, int max);

/* A whole file, read as the readers read theirs: a regular file only
 * (opened without blocking, so a FIFO or a device is refused at once with
 * IK_ERR_IO), of at most max_bytes (itself at most IK_IO_MAX_FILE_BYTES;
 * a larger file is IK_ERR_UNSUPPORTED before anything is read). On IK_OK
 * *data is a new buffer of *size bytes plus a terminating NUL, to free(). */
ik_result ik_io_read_file_at_most(const char *path, size_t max_bytes, char **data, size_t *size, ik_io_error *err);

#ifdef __cplusplus
}
#endif
#endif

/* ikit io: reading a whole file the way every reader reads its own: the
 * size limit and ik_io_read_file_at_most. */
#ifndef IKIT_IO_FILE_H
#define IKIT_IO_FILE_H

#include <stddef.h>

#include <ikit/error.h>
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

/* A whole file, read as the readers read theirs: a regular file only
 * (opened without blocking, so a FIFO or a device is refused at once with
 * IK_ERR_IO), of at most max_bytes (itself at most IK_IO_MAX_FILE_BYTES;
 * a larger file is IK_ERR_UNSUPPORTED before anything is read). On IK_OK
 * *data is a new buffer of *size bytes plus a terminating NUL, to free(). */
ik_result ik_io_read_file_at_most(const char *path, size_t max_bytes, char **data, size_t *size, ik_error *error);

#ifdef __cplusplus
}
#endif
#endif

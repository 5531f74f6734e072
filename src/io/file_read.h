/* ikit io, private: reading input files whole, safely. Not installed. */
#ifndef IKIT_IO_FILE_READ_H
#define IKIT_IO_FILE_READ_H

#include <stddef.h>

#include <ikit/io_file.h>
#include <ikit/result.h>

/* Read a whole input file into a malloc'ed buffer (*data, released with
 * free; one spare byte allocated past *size). Only regular files are read:
 * a FIFO, device, socket or directory (also through a symlink) is refused
 * with IK_ERR_IO without blocking; a file larger than IK_IO_MAX_FILE_BYTES
 * is refused with IK_ERR_UNSUPPORTED before anything is read. Messages name
 * the path. IK_ERR_NULL, IK_ERR_IO, IK_ERR_UNSUPPORTED, IK_ERR_NO_MEMORY. */
ik_result ik_io_read_file(const char *path, char **data, size_t *size, ik_error *error);

/* The same for exactly the first `length` bytes of the file: a file shorter
 * than `length` is refused (IK_ERR_PARSE) before reading, as is a `length`
 * above IK_IO_MAX_FILE_BYTES (IK_ERR_UNSUPPORTED). */
ik_result ik_io_read_file_prefix(const char *path, size_t length, char **data, ik_error *error);

#endif

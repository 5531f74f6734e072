/* ikit io: output files that appear whole or not at all. Everything is
 * written to a temporary file in the same directory as the output (so the
 * rename stays on one file system, where POSIX rename() replaces the target
 * atomically), then renamed over it.
 *
 * Temporaries are ".TAG-tmp-<12 random letters>-<name>" (the name keeps the
 * extension writers choose the format by), created with O_CREAT | O_EXCL |
 * O_NOFOLLOW and mode 0666 less the umask, as mkstemp() does: a file or
 * symlink planted at the name makes the creation fail and another name is
 * tried, nothing is followed. Several outputs of one run can all be written
 * first and renamed only when every one is complete.
 *
 * The library installs no signal handler: a program that wants temporaries
 * removed when a signal ends it registers temp_path after begin (ikc does,
 * with SIGINT, SIGTERM and SIGHUP held around the call). Every failure
 * returns an ik_result with a message in *error (may be NULL) and leaves
 * errno as the failing system call set it. POSIX only. */
#ifndef IKIT_ATOMIC_FILE_H
#define IKIT_ATOMIC_FILE_H

#include <stddef.h>

#include <ikit/error.h>
#include <ikit/result.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IK_ATOMIC_PATH_BYTES 1024

typedef struct ik_atomic_file {
    char final_path[IK_ATOMIC_PATH_BYTES];
    char temp_path[IK_ATOMIC_PATH_BYTES + 76];
    int fd; /* open for writing on the temporary until commit or abort; -1 after */
} ik_atomic_file;

/* Creates a new, empty temporary beside `path` under an unpredictable name
 * (`tag` in it, at most 16 bytes of letters, digits, '-' or '_'; NULL:
 * "ikit"). IK_ERR_NULL, IK_ERR_RANGE (a path of IK_ATOMIC_PATH_BYTES or
 * more, a bad tag) or IK_ERR_IO (it cannot be created, or 100 names were
 * taken). */
ik_result ik_atomic_file_begin(ik_atomic_file *file, const char *path, const char *tag, ik_error *error);

/* Appends `size` bytes to the temporary (resuming after short writes);
 * IK_ERR_IO when they cannot be written (the temporary stays, for abort). */
ik_result ik_atomic_file_write(ik_atomic_file *file, const void *data, size_t size, ik_error *error);

/* Closes the temporary and renames it over the final path. IK_ERR_IO (and
 * the temporary removed) when either fails. */
ik_result ik_atomic_file_commit(ik_atomic_file *file, ik_error *error);

/* Closes and removes the temporary; the final path is untouched. */
void ik_atomic_file_abort(ik_atomic_file *file);

/* `size` bytes of `data` to `path` whole or not at all: begin, write,
 * commit (abort on a failure). */
ik_result ik_atomic_file_write_whole(const char *path, const char *tag, const void *data, size_t size, ik_error *error);

#ifdef __cplusplus
}
#endif
#endif

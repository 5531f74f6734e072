/* Inputs that are not regular files (devices that never end, a FIFO nobody
 * writes, a symlink to /dev/zero, a directory): every file reader must
 * refuse them at once with IK_ERR_IO and "not a regular file", never block
 * or read without end. The including test defines _POSIX_C_SOURCE (mkfifo,
 * symlink). */
#ifndef IKIT_TEST_SPECIAL_FILES_H
#define IKIT_TEST_SPECIAL_FILES_H

#include <ikit/error.h>
#include <ikit/result.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "check.h"

/* A reader over a path, as each test wraps its format's read function. */
typedef ik_result (*special_file_reader)(const char *path, ik_error *error);

/* A FIFO and a symlink to /dev/zero in a new folder under /tmp; 0 on failure. */
static inline int special_files_make(char *dir, size_t size, char *fifo, char *zero_link) {
    snprintf(dir, size, "/tmp/ikit-special-XXXXXX");
    if (!mkdtemp(dir)) return 0;
    snprintf(fifo, size + 16, "%s/fifo", dir);
    snprintf(zero_link, size + 16, "%s/zero", dir);
    return mkfifo(fifo, 0600) == 0 && symlink("/dev/zero", zero_link) == 0;
}

static inline void special_files_remove(const char *dir, const char *fifo, const char *zero_link) {
    unlink(fifo);
    unlink(zero_link);
    rmdir(dir);
}

static inline void check_special_files_refused(const char *format, special_file_reader read) {
    char dir[64], fifo[80], zero_link[80];
    const char *paths[5];
    int i;
    if (!special_files_make(dir, sizeof dir, fifo, zero_link)) {
        CHECK(0, "%s: a FIFO and a symlink can be made under /tmp", format);
        return;
    }
    paths[0] = "/dev/urandom", paths[1] = "/dev/zero", paths[2] = fifo, paths[3] = zero_link, paths[4] = dir;
    for (i = 0; i < 5; ++i) {
        ik_error err;
        ik_result r;
        ik_error_clear(&err);
        r = read(paths[i], &err);
        CHECK(r == IK_ERR_IO && strstr(err.message, "not a regular file") && strstr(err.message, paths[i]),
              "%s reader refuses %s: %s (%s)", format, paths[i], ik_result_str(r), err.message);
    }
    special_files_remove(dir, fifo, zero_link);
}

#endif

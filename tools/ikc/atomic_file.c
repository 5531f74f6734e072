/* Output files appear whole or not at all: everything is written to a
 * temporary file in the same directory (so the rename stays on one file
 * system, where POSIX rename() replaces the target atomically). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "ikc.h"

int ikc_atomic_begin(ikc_atomic *a, const char *path) {
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path + 1) : 0;
    int n;
    if (strlen(path) >= sizeof a->final_path) return 0;
    strcpy(a->final_path, path);
    n = snprintf(a->temp_path, sizeof a->temp_path, "%.*s.ikc-tmp-%ld-%s", (int)dir_len, path, (long)getpid(),
                 path + dir_len);
    return n > 0 && (size_t)n < sizeof a->temp_path;
}

int ikc_atomic_commit(ikc_atomic *a) {
    if (rename(a->temp_path, a->final_path) != 0) {
        int saved = errno;
        remove(a->temp_path);
        errno = saved;
        return 0;
    }
    return 1;
}

void ikc_atomic_abort(ikc_atomic *a) { remove(a->temp_path); }

int ikc_write_file_atomic(const char *path, const void *data, size_t size) {
    ikc_atomic a;
    FILE *f;
    int ok;
    if (!ikc_atomic_begin(&a, path)) return 0;
    f = fopen(a.temp_path, "wb");
    if (!f) return 0;
    ok = fwrite(data, 1, size, f) == size;
    ok = (fclose(f) == 0) && ok;
    if (!ok) {
        ikc_atomic_abort(&a);
        return 0;
    }
    return ikc_atomic_commit(&a);
}

int ikc_make_dirs(const char *path) {
    char buf[1024];
    size_t i, n = strlen(path);
    struct stat st;
    if (n == 0 || n >= sizeof buf) return 0;
    strcpy(buf, path);
    for (i = 1; i <= n; ++i) {
        if (buf[i] == '/' || buf[i] == '\0') {
            char saved = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) return 0;
            buf[i] = saved;
        }
    }
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

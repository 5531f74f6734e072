/* Output files that appear whole or not at all (see atomic_file.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <ikit/atomic_file.h>

#define RANDOM_LETTERS 12
#define TAG_BYTES 16
#define ATTEMPTS 100

/* RANDOM_LETTERS letters from /dev/urandom; when it cannot be read, from the
 * clock, the process id and a counter (the O_EXCL creation keeps that safe,
 * only less unpredictable). */
static void random_letters(char *out) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static unsigned long counter;
    unsigned char bytes[RANDOM_LETTERS];
    int fd = open("/dev/urandom", O_RDONLY), i;
    if (fd < 0 || read(fd, bytes, sizeof bytes) != (ssize_t)sizeof bytes) {
        unsigned long state = (unsigned long)time(NULL) * 2654435761u ^ (unsigned long)getpid() ^ ++counter * 40503u;
        for (i = 0; i < RANDOM_LETTERS; ++i) {
            state = state * 6364136223846793005u + 1442695040888963407u;
            bytes[i] = (unsigned char)(state >> 24);
        }
    }
    if (fd >= 0) close(fd);
    for (i = 0; i < RANDOM_LETTERS; ++i) out[i] = alphabet[bytes[i] % (sizeof alphabet - 1)];
    out[RANDOM_LETTERS] = '\0';
}

static int good_tag(const char *tag) {
    size_t i, n = strlen(tag);
    if (n == 0 || n > TAG_BYTES) return 0;
    for (i = 0; i < n; ++i) {
        char c = tag[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'))
            return 0;
    }
    return 1;
}

/* A message naming `path` and errno's reason; errno kept. */
static ik_result io_failure(ik_error *error, const char *what, const char *path) {
    int saved = errno;
    ik_error_set(error, 0, 0, -1, "cannot %s '%s': %s", what, path, strerror(saved));
    errno = saved;
    return IK_ERR_IO;
}

ik_result ik_atomic_file_begin(ik_atomic_file *file, const char *path, const char *tag, ik_error *error) {
    const char *slash;
    size_t dir_len;
    int attempt;
    ik_error_clear(error);
    if (!file || !path) return IK_ERR_NULL;
    file->fd = -1;
    file->temp_path[0] = '\0';
    if (!tag) tag = "ikit";
    if (!good_tag(tag)) {
        ik_error_set(error, 0, 0, -1, "a temporary's tag of 1 to 16 letters, digits, '-' or '_', not '%s'", tag);
        return IK_ERR_RANGE;
    }
    if (strlen(path) >= sizeof file->final_path) {
        errno = ENAMETOOLONG;
        ik_error_set(error, 0, 0, -1, "the path '%.64s...' is longer than %d bytes", path, IK_ATOMIC_PATH_BYTES - 1);
        return IK_ERR_RANGE;
    }
    strcpy(file->final_path, path);
    slash = strrchr(path, '/');
    dir_len = slash ? (size_t)(slash - path + 1) : 0;
    for (attempt = 0; attempt < ATTEMPTS; ++attempt) {
        char letters[RANDOM_LETTERS + 1];
        random_letters(letters);
        snprintf(file->temp_path, sizeof file->temp_path, "%.*s.%s-tmp-%s-%s", (int)dir_len, path, tag, letters,
                 path + dir_len);
        file->fd = open(file->temp_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0666);
        if (file->fd >= 0) return IK_OK;
        if (errno != EEXIST && errno != ELOOP) return io_failure(error, "create a temporary beside", path);
    }
    errno = EEXIST;
    return io_failure(error, "find a free temporary name beside", path);
}

ik_result ik_atomic_file_write(ik_atomic_file *file, const void *data, size_t size, ik_error *error) {
    const unsigned char *at = (const unsigned char *)data;
    ik_error_clear(error);
    if (!file || (!data && size > 0)) return IK_ERR_NULL;
    while (size > 0) {
        ssize_t n = file->fd >= 0 ? write(file->fd, at, size) : -1;
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return io_failure(error, "write", file->final_path);
        at += n;
        size -= (size_t)n;
    }
    return IK_OK;
}

ik_result ik_atomic_file_commit(ik_atomic_file *file, ik_error *error) {
    int closed = 1;
    ik_error_clear(error);
    if (!file) return IK_ERR_NULL;
    if (file->fd >= 0) closed = close(file->fd) == 0;
    file->fd = -1;
    if (!closed || rename(file->temp_path, file->final_path) != 0) {
        ik_result r = io_failure(error, "write", file->final_path);
        int saved = errno;
        unlink(file->temp_path);
        errno = saved;
        return r;
    }
    return IK_OK;
}

void ik_atomic_file_abort(ik_atomic_file *file) {
    if (!file) return;
    if (file->fd >= 0) close(file->fd);
    file->fd = -1;
    if (file->temp_path[0]) unlink(file->temp_path);
}

ik_result ik_atomic_file_write_whole(const char *path, const char *tag, const void *data, size_t size,
                                     ik_error *error) {
    ik_atomic_file file;
    ik_result r = ik_atomic_file_begin(&file, path, tag, error);
    if (r != IK_OK) return r;
    r = ik_atomic_file_write(&file, data, size, error);
    if (r != IK_OK) {
        int saved = errno;
        ik_atomic_file_abort(&file);
        errno = saved;
        return r;
    }
    return ik_atomic_file_commit(&file, error);
}

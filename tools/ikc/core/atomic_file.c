/* Output files appear whole or not at all: everything is written to a
 * temporary file in the same directory (so the rename stays on one file
 * system, where POSIX rename() replaces the target atomically).
 *
 * Temporaries are ".ikc-tmp-<12 random letters>-<name>" (the name keeps the
 * extension writers choose the format by), created with O_CREAT | O_EXCL |
 * O_NOFOLLOW, as mkstemp() does: a file or symlink planted at the name makes
 * the creation fail and another name is tried, nothing is followed. Every
 * temporary is registered until it is renamed or removed; SIGINT, SIGTERM and
 * SIGHUP remove the registered ones before the signal ends the process.
 *
 * A command's outputs (a .gltf and the .bin files beside it) are all
 * written to temporaries first and renamed only when every one is complete.
 * A file the run did not create is never replaced by surprise: see
 * ikc_write_outputs for the rule. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "ikc.h"

#define MAX_TEMPORARIES 64
#define RANDOM_LETTERS 12

/* The temporaries alive now; the signal handler reads only slots whose flag
 * is set, and a slot's path is complete before its flag is set. */
static char registered_path[MAX_TEMPORARIES][sizeof((ikc_atomic *)0)->temp_path];
static volatile sig_atomic_t registered_used[MAX_TEMPORARIES];
static int handlers_installed;

/* Async-signal-safe: unlink() and raise() only. SA_RESETHAND restored the
 * default action, so raising the signal again ends the process with it. */
static void remove_temporaries_and_die(int sig) {
    int i;
    for (i = 0; i < MAX_TEMPORARIES; ++i)
        if (registered_used[i]) unlink(registered_path[i]);
    raise(sig);
}

static void install_handlers(void) {
    static const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction action;
    int i;
    if (handlers_installed) return;
    handlers_installed = 1;
    memset(&action, 0, sizeof action);
    action.sa_handler = remove_temporaries_and_die;
    action.sa_flags = (int)SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    for (i = 0; i < (int)(sizeof signals / sizeof signals[0]); ++i) {
        struct sigaction old;
        /* a signal the caller chose to ignore (nohup) stays ignored */
        if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        sigaction(signals[i], &action, NULL);
    }
}

/* Hold SIGINT, SIGTERM and SIGHUP until the mask in *saved is restored. */
static void block_signals(sigset_t *saved) {
    sigset_t held;
    sigemptyset(&held);
    sigaddset(&held, SIGINT);
    sigaddset(&held, SIGTERM);
    sigaddset(&held, SIGHUP);
    sigprocmask(SIG_BLOCK, &held, saved);
}

static int register_temporary(const char *path) {
    int i;
    for (i = 0; i < MAX_TEMPORARIES; ++i)
        if (!registered_used[i]) {
            strcpy(registered_path[i], path);
            registered_used[i] = 1;
            return 1;
        }
    return 0;
}

static void unregister_temporary(const char *path) {
    int i;
    for (i = 0; i < MAX_TEMPORARIES; ++i)
        if (registered_used[i] && strcmp(registered_path[i], path) == 0) registered_used[i] = 0;
}

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

int ikc_atomic_begin(ikc_atomic *a, const char *path) {
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path + 1) : 0;
    int attempt, registered, saved_errno;
    sigset_t saved_mask;
    a->fd = -1;
    if (strlen(path) >= sizeof a->final_path) {
        errno = ENAMETOOLONG;
        return 0;
    }
    strcpy(a->final_path, path);
    install_handlers();
    for (attempt = 0; attempt < 100; ++attempt) {
        char letters[RANDOM_LETTERS + 1];
        int n;
        random_letters(letters);
        n = snprintf(a->temp_path, sizeof a->temp_path, "%.*s.ikc-tmp-%s-%s", (int)dir_len, path, letters,
                     path + dir_len);
        if (n < 0 || (size_t)n >= sizeof a->temp_path) {
            errno = ENAMETOOLONG;
            return 0;
        }
        /* mode 0666 less the umask, as for any file the user creates; the
         * signals wait until the new file is registered for removal */
        block_signals(&saved_mask);
        a->fd = open(a->temp_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0666);
        if (a->fd >= 0) {
            registered = register_temporary(a->temp_path);
            if (!registered) {
                close(a->fd);
                unlink(a->temp_path);
                a->fd = -1;
                errno = EMFILE;
            }
            sigprocmask(SIG_SETMASK, &saved_mask, NULL);
            return registered;
        }
        saved_errno = errno;
        sigprocmask(SIG_SETMASK, &saved_mask, NULL);
        if (saved_errno != EEXIST && saved_errno != ELOOP) {
            errno = saved_errno;
            return 0;
        }
    }
    errno = EEXIST;
    return 0;
}

int ikc_atomic_commit(ikc_atomic *a) {
    int closed = 1;
    if (a->fd >= 0) closed = close(a->fd) == 0;
    a->fd = -1;
    if (!closed || rename(a->temp_path, a->final_path) != 0) {
        int saved = errno;
        unlink(a->temp_path);
        unregister_temporary(a->temp_path);
        errno = saved;
        return 0;
    }
    unregister_temporary(a->temp_path);
    return 1;
}

void ikc_atomic_abort(ikc_atomic *a) {
    if (a->fd >= 0) close(a->fd);
    a->fd = -1;
    unlink(a->temp_path);
    unregister_temporary(a->temp_path);
}

/* All of `data` to the descriptor, resuming after short writes. */
static int write_all(int fd, const unsigned char *data, size_t size) {
    while (size > 0) {
        ssize_t n = write(fd, data, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        data += n;
        size -= (size_t)n;
    }
    return 1;
}

int ikc_write_file_atomic(const char *path, const void *data, size_t size) {
    ikc_atomic a;
    if (!ikc_atomic_begin(&a, path)) return 0;
    if (!write_all(a.fd, (const unsigned char *)data, size)) {
        int saved = errno;
        ikc_atomic_abort(&a);
        errno = saved;
        return 0;
    }
    return ikc_atomic_commit(&a);
}

/* Print why output i of `count` must not be replaced and return 1, or 0. */
static int refused(const char *command, const ikc_output *files, int i, int count, const char *const *inputs,
                   int input_count, int overwrite) {
    static const char hint[] = "nothing written: choose another -o, or give --overwrite";
    struct stat st, main_st;
    int j;
    if (stat(files[i].path, &st) != 0) return 0;
    if (!S_ISREG(st.st_mode)) {
        fprintf(stderr, "ikc %s: '%s' exists and is not a regular file; nothing written\n", command, files[i].path);
        return 1;
    }
    if (overwrite) return 0;
    for (j = 0; j < input_count; ++j) {
        struct stat in;
        if (stat(inputs[j], &in) != 0 || in.st_dev != st.st_dev || in.st_ino != st.st_ino) continue;
        if (strcmp(inputs[j], files[i].path) == 0)
            fprintf(stderr, "ikc %s: '%s' is an input of this run; %s\n", command, files[i].path, hint);
        else
            fprintf(stderr, "ikc %s: '%s' names the same file as the input '%s'; %s\n", command, files[i].path,
                    inputs[j], hint);
        return 1;
    }
    if (i < count - 1 && stat(files[count - 1].path, &main_st) != 0) {
        fprintf(stderr, "ikc %s: '%s' exists and '%s' does not, so it is not an earlier output; %s\n", command,
                files[i].path, files[count - 1].path, hint);
        return 1;
    }
    return 0;
}

int ikc_write_outputs(const char *command, const ikc_output *files, int count, const char *const *inputs,
                      int input_count, int overwrite) {
    ikc_atomic *temps;
    int i, done = 0;
    for (i = 0; i < count; ++i)
        if (refused(command, files, i, count, inputs, input_count, overwrite)) return IKC_EXIT_WRITE;
    temps = (ikc_atomic *)malloc((size_t)count * sizeof *temps);
    if (!temps) {
        fprintf(stderr, "ikc %s: out of memory\n", command);
        return IKC_EXIT_FAILURE;
    }
    for (done = 0; done < count; ++done) {
        if (!ikc_atomic_begin(&temps[done], files[done].path)) break;
        if (!write_all(temps[done].fd, (const unsigned char *)files[done].data, files[done].size)) {
            int saved = errno;
            ikc_atomic_abort(&temps[done]);
            errno = saved;
            break;
        }
    }
    if (done < count) {
        fprintf(stderr, "ikc %s: cannot write '%s': %s\n", command, files[done].path, strerror(errno));
        for (i = 0; i < done; ++i) ikc_atomic_abort(&temps[i]);
        free(temps);
        return IKC_EXIT_WRITE;
    }
    /* all written: rename them, the main output last */
    for (i = 0; i < count; ++i) {
        if (ikc_atomic_commit(&temps[i])) continue;
        fprintf(stderr, "ikc %s: cannot write '%s': %s\n", command, files[i].path, strerror(errno));
        while (++i < count) ikc_atomic_abort(&temps[i]);
        free(temps);
        return IKC_EXIT_WRITE;
    }
    free(temps);
    return IKC_EXIT_OK;
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

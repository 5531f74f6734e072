/* Output files appear whole or not at all: everything is written to a
 * temporary file in the same directory (so the rename stays on one file
 * system, where POSIX rename() replaces the target atomically).
 *
 * Temporaries are the io layer's (ikit/atomic_file.h), tagged "ikc":
 * ".ikc-tmp-<12 random letters>-<name>". Every temporary is registered here
 * until it is renamed or removed; SIGINT, SIGTERM and SIGHUP remove the
 * registered ones before the signal ends the process.
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

#include <ikit/atomic_file.h>

#include "ikc.h"

#define MAX_TEMPORARIES 64

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

int ikc_atomic_begin(ikc_atomic *a, const char *path) {
    sigset_t saved_mask;
    int registered = 0, saved_errno;
    install_handlers();
    /* the signals wait until the new file is registered for removal */
    block_signals(&saved_mask);
    if (ik_atomic_file_begin(a, path, "ikc", NULL) == IK_OK) {
        registered = register_temporary(a->temp_path);
        if (!registered) {
            ik_atomic_file_abort(a);
            errno = EMFILE;
        }
    }
    saved_errno = errno;
    sigprocmask(SIG_SETMASK, &saved_mask, NULL);
    errno = saved_errno;
    return registered;
}

int ikc_atomic_commit(ikc_atomic *a) {
    int ok = ik_atomic_file_commit(a, NULL) == IK_OK;
    unregister_temporary(a->temp_path);
    return ok;
}

void ikc_atomic_abort(ikc_atomic *a) {
    ik_atomic_file_abort(a);
    unregister_temporary(a->temp_path);
}

/* All of `data` to the temporary; 0 (the temporary removed) on failure. */
static int write_all(ikc_atomic *a, const void *data, size_t size) {
    int saved;
    if (ik_atomic_file_write(a, data, size, NULL) == IK_OK) return 1;
    saved = errno;
    ikc_atomic_abort(a);
    errno = saved;
    return 0;
}

int ikc_write_file_atomic(const char *path, const void *data, size_t size) {
    ikc_atomic a;
    return ikc_atomic_begin(&a, path) && write_all(&a, data, size) && ikc_atomic_commit(&a);
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
        if (!ikc_atomic_begin(&temps[done], files[done].path) ||
            !write_all(&temps[done], files[done].data, files[done].size))
            break;
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

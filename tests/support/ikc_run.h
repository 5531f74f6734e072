/* Running the built ikc binary from a test: IKC_PATH (set by CMake for
 * every test_ikc*.c) or the IKC environment variable, in a private work
 * directory, with stdout and stderr kept for the checks. Each test program
 * includes it once. */
#ifndef IKIT_TEST_IKC_RUN_H
#define IKIT_TEST_IKC_RUN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#ifndef IKIT_SOURCE_DIR
#define IKIT_SOURCE_DIR "."
#endif

#ifndef IKC_PATH
#define IKC_PATH "ikc"
#endif

static const char *ikc_path;
static char work_dir[256];
static char out_text[1 << 20], err_text[1 << 16];

static inline void read_text(const char *path, char *buf, size_t size) {
    FILE *f = fopen(path, "rb");
    size_t n = 0;
    if (f) {
        n = fread(buf, 1, size - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
}

/* Run ikc with `args` (already shell-quoted); stdout and stderr are kept
 * in out_text and err_text. Returns the exit code, or -1. */
static const char *run_prefix = ""; /* e.g. "timeout 20 " for a run that must end */
static inline int run(const char *args) {
    char cmd[4096], out_path[300], err_path[300];
    int status;
    snprintf(out_path, sizeof out_path, "%s/stdout.txt", work_dir);
    snprintf(err_path, sizeof err_path, "%s/stderr.txt", work_dir);
    snprintf(cmd, sizeof cmd, "%s'%s' %s >'%s' 2>'%s' </dev/null", run_prefix, ikc_path, args, out_path, err_path);
    status = system(cmd);
    read_text(out_path, out_text, sizeof out_text);
    read_text(err_path, err_text, sizeof err_text);
    if (status == -1 || !WIFEXITED(status)) return -1;
    return WEXITSTATUS(status);
}

static inline void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static inline long file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static inline void path_in(char *buf, size_t size, const char *name) { snprintf(buf, size, "%s/%s", work_dir, name); }

/* The path of `file` in the real-asset corpus (IKIT_DATA); 0 after
 * check_skip when the corpus or the file is absent. */
static inline int real_asset(const char *file, char *path, size_t size) {
    const char *data = getenv("IKIT_DATA");
    char why[300];
    if (!data) {
        check_skip("real-asset corpus not found (IKIT_DATA unset)");
        return 0;
    }
    snprintf(path, size, "%s/%s", data, file);
    if (file_size(path) >= 0) return 1;
    snprintf(why, sizeof why, "real-asset corpus not found (%s)", file);
    check_skip(why);
    return 0;
}

/* Make the work directory /tmp/ikit-test-NAME-XXXXXX and find ikc; under
 * LeakSanitizer use the project's suppressions (system libraries only, see
 * the file) unless the caller set LSAN_OPTIONS itself. 0 on failure. */
static inline int ikc_run_begin(const char *name) {
    char options[600];
    ikc_path = getenv("IKC") ? getenv("IKC") : IKC_PATH;
    snprintf(work_dir, sizeof work_dir, "/tmp/ikit-test-%s-XXXXXX", name);
    if (!mkdtemp(work_dir)) {
        perror("mkdtemp");
        return 0;
    }
    snprintf(options, sizeof options, "suppressions=%s/scripts/lsan.supp:print_suppressions=0", IKIT_SOURCE_DIR);
    setenv("LSAN_OPTIONS", options, 0);
    return 1;
}

/* Remove the work directory. */
static inline void ikc_run_end(void) {
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", work_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", work_dir);
}

#endif

/* Output files written whole or not at all (atomic_file.h): the file holds
 * exactly what was written, an existing one is replaced only on commit, an
 * abort or a failure leaves no temporary and the old file as it was, the
 * temporaries carry the tag and the output's name, and bad input gets a
 * clear error. */
#define _POSIX_C_SOURCE 200809L
#include <ikit/atomic_file.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/check.h"

static char dir[256];

static void path_in(char *out, size_t size, const char *name) { snprintf(out, size, "%s/%s", dir, name); }

/* The file's bytes into buf (at most size - 1, NUL-terminated); -1 when it cannot be read. */
static long read_back(const char *path, char *buf, size_t size) {
    FILE *f = fopen(path, "rb");
    size_t n;
    if (!f) return -1;
    n = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[n] = '\0';
    return (long)n;
}

/* Entries of the folder whose name holds `part`. */
static int count_named(const char *part) {
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (!d) return -1;
    while ((e = readdir(d)) != NULL) n += strstr(e->d_name, part) != NULL;
    closedir(d);
    return n;
}

static void test_whole_or_nothing(void) {
    char out[512], buf[64];
    ik_atomic_file a, b;
    ik_error error;
    path_in(out, sizeof out, "out.bvh");
    CHECK(ik_atomic_file_write_whole(out, "test", "first", 5, &error) == IK_OK, "write: %s", error.message);
    CHECK(read_back(out, buf, sizeof buf) == 5 && strcmp(buf, "first") == 0, "the file holds what was written");
    CHECK(ik_atomic_file_begin(&a, out, "test", &error) == IK_OK, "begin: %s", error.message);
    CHECK(strstr(a.temp_path, "/.test-tmp-") && strstr(a.temp_path, "-out.bvh") &&
              strncmp(a.temp_path, dir, strlen(dir)) == 0,
          "a temporary beside the output, tagged and keeping its name: %s", a.temp_path);
    CHECK(ik_atomic_file_write(&a, "second, longer", 14, &error) == IK_OK, "write");
    CHECK(read_back(out, buf, sizeof buf) == 5, "the old file stays until commit");
    CHECK(ik_atomic_file_begin(&b, out, "test", &error) == IK_OK && strcmp(a.temp_path, b.temp_path) != 0,
          "two temporaries for one output have other names");
    ik_atomic_file_abort(&b);
    CHECK(ik_atomic_file_commit(&a, &error) == IK_OK, "commit: %s", error.message);
    CHECK(read_back(out, buf, sizeof buf) == 14 && strcmp(buf, "second, longer") == 0, "replaced on commit");
    CHECK(ik_atomic_file_begin(&a, out, NULL, &error) == IK_OK && strstr(a.temp_path, "/.ikit-tmp-"),
          "the default tag");
    ik_atomic_file_write(&a, "x", 1, NULL);
    ik_atomic_file_abort(&a);
    CHECK(read_back(out, buf, sizeof buf) == 14, "an abort leaves the output as it was");
    CHECK(count_named("-tmp-") == 0, "no temporary left");
    unlink(out);
}

static void test_failures(void) {
    char out[512], sub[512], longer[1200];
    ik_atomic_file a;
    ik_error error;
    path_in(out, sizeof out, "no/such/dir/out.png");
    errno = 0;
    CHECK(ik_atomic_file_write_whole(out, "test", "x", 1, &error) == IK_ERR_IO && errno == ENOENT &&
              strstr(error.message, out),
          "a missing folder: %s", error.message);
    /* the output is a folder: the rename fails and the temporary goes */
    path_in(sub, sizeof sub, "a_folder");
    mkdir(sub, 0777);
    CHECK(ik_atomic_file_write_whole(sub, "test", "x", 1, &error) == IK_ERR_IO && strstr(error.message, "a_folder"),
          "an output that is a folder: %s", error.message);
    CHECK(count_named("-tmp-") == 0, "no temporary left after a failed commit");
    rmdir(sub);
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    CHECK(ik_atomic_file_begin(&a, longer, "test", &error) == IK_ERR_RANGE && strstr(error.message, "longer"),
          "a path too long: %s", error.message);
    path_in(out, sizeof out, "out.svg");
    CHECK(ik_atomic_file_begin(&a, out, "../x", &error) == IK_ERR_RANGE && strstr(error.message, "tag"),
          "a tag with a slash: %s", error.message);
    CHECK(ik_atomic_file_begin(&a, out, "", &error) == IK_ERR_RANGE, "an empty tag");
    CHECK(ik_atomic_file_begin(NULL, out, "test", &error) == IK_ERR_NULL, "no file");
    CHECK(ik_atomic_file_begin(&a, NULL, "test", &error) == IK_ERR_NULL, "no path");
    CHECK(ik_atomic_file_write_whole(out, "test", NULL, 3, &error) == IK_ERR_NULL && access(out, F_OK) != 0,
          "no data: nothing written");
    CHECK(count_named("-tmp-") == 0, "no temporary left");
}

int main(void) {
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/ikit_atomic_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        printf("cannot make a folder in %s\n", dir);
        return 1;
    }
    test_whole_or_nothing();
    test_failures();
    rmdir(dir);
    return check_summary("atomic_file");
}

/* ikc batch: a manifest's lines run in parallel give the same files as each
 * line run alone; a second run skips what is up to date and redoes what an
 * edited input made stale; a failing line is reported while the others
 * finish; malformed manifests are refused with their line. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "support/check.h"
#include "support/ikc_run.h"

/* A three-joint leg take of four frames. */
static const char leg_bvh[] =
    "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 1 0\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation "
    "Yrotation\n"
    "  JOINT LeftUpLeg\n  {\n    OFFSET 0.1 0 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "    JOINT LeftLeg\n    {\n      OFFSET 0 -0.45 0\n      CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "      JOINT LeftFoot\n      {\n        OFFSET 0 -0.45 0\n        CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "        End Site\n        {\n          OFFSET 0 -0.05 0.1\n        }\n      }\n    }\n  }\n}\n"
    "MOTION\nFrames: 4\nFrame Time: 0.1\n"
    "0 1 0 0 0 0 0 0 0 0 10 0 0 0 0\n0 1 0 0 0 0 0 5 0 0 20 0 0 0 0\n"
    "0 1 0 0 0 0 0 10 0 0 30 0 0 0 0\n0 1 0 0 0 0 0 15 0 0 40 0 0 0 0\n";

static char *slurp(const char *path, long *size) {
    FILE *f = fopen(path, "rb");
    char *data = NULL;
    *size = -1;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (*size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (data = (char *)malloc((size_t)*size + 1)) && fread(data, 1, (size_t)*size, f) != (size_t)*size) {
        free(data);
        data = NULL;
    }
    fclose(f);
    return data;
}

static int same_bytes(const char *a, const char *b) {
    long na, nb;
    char *da = slurp(a, &na), *db = slurp(b, &nb);
    int same = da && db && na == nb && memcmp(da, db, (size_t)na) == 0;
    free(da);
    free(db);
    return same;
}

static struct timespec mtime_of(const char *path) {
    struct stat st;
    struct timespec zero = {0, 0};
    return stat(path, &st) == 0 ? st.st_mtim : zero;
}

/* The state each manifest line ended in, from --json output. */
static const char *line_state(const cJSON *root, int line) {
    const cJSON *item;
    cJSON_ArrayForEach(item, cJSON_GetObjectItem(root, "lines")) {
        const cJSON *n = cJSON_GetObjectItem(item, "line"), *s = cJSON_GetObjectItem(item, "state");
        if (cJSON_IsNumber(n) && n->valueint == line && cJSON_IsString(s)) return s->valuestring;
    }
    return "";
}

static void test_batch_runs_and_resumes(void) {
    char leg[300], manifest[400], args[1200], alone[300], solved[300], picture[300];
    cJSON *root;
    struct timespec before;
    int code;
    path_in(leg, sizeof leg, "leg take.bvh");
    path_in(manifest, sizeof manifest, "jobs.txt");
    path_in(solved, sizeof solved, "solved.bvh");
    path_in(picture, sizeof picture, "leg.svg");
    path_in(alone, sizeof alone, "alone.bvh");
    write_text(leg, leg_bvh);
    {
        char text[2000];
        snprintf(text, sizeof text,
                 "# a manifest: two good lines, one failing, blank lines and comments\n\n"
                 "solve \"%s\" --target LeftFoot=0.2,0.2,0.2 -o %s\n"
                 "render \"%s\" --view side -o %s   # a picture\n"
                 "solve %s/missing.bvh --target LeftFoot=0,0,0 -o %s/never.bvh\n",
                 leg, solved, leg, picture, work_dir, work_dir);
        write_text(manifest, text);
    }
    snprintf(args, sizeof args, "batch '%s' -j 2 --quiet", manifest);
    code = run(args);
    CHECK(code == 1, "a failing line makes the run fail (exit %d): %s", code, err_text);
    CHECK(strstr(out_text, "line 5 failed (exit 3)") && strstr(out_text, "missing.bvh"),
          "the failing line is named with its message: %s", out_text);
    CHECK(strstr(out_text, "3 lines: 2 done, 0 up to date, 1 failed"), "the summary counts: %s", out_text);
    CHECK(file_size(picture) > 0 && file_size(solved) > 0, "the good lines wrote their files");
    /* the same line run alone writes the same bytes */
    snprintf(args, sizeof args, "solve '%s' --target LeftFoot=0.2,0.2,0.2 -o '%s'", leg, alone);
    CHECK(run(args) == 0, "the line alone: %s", err_text);
    CHECK(same_bytes(solved, alone), "batch output equals the line run alone, byte for byte");

    /* a second run: the good lines are up to date and not rewritten */
    before = mtime_of(solved);
    snprintf(args, sizeof args, "batch '%s' --json --quiet", manifest);
    code = run(args);
    root = cJSON_Parse(out_text);
    CHECK(code == 1 && root, "second run (exit %d), JSON summary: %.200s", code, out_text);
    if (root) {
        CHECK(strcmp(line_state(root, 3), "up to date") == 0 && strcmp(line_state(root, 4), "up to date") == 0,
              "the good lines are up to date: %s, %s", line_state(root, 3), line_state(root, 4));
        CHECK(strcmp(line_state(root, 5), "failed") == 0, "the failing line runs again and fails");
        cJSON_Delete(root);
    }
    CHECK(mtime_of(solved).tv_sec == before.tv_sec && mtime_of(solved).tv_nsec == before.tv_nsec,
          "an up-to-date output is not rewritten");

    /* an edited input makes its lines stale; --force redoes everything */
    {
        struct timespec times[2];
        times[0].tv_sec = times[1].tv_sec = before.tv_sec + 5;
        times[0].tv_nsec = times[1].tv_nsec = 0;
        CHECK(utimensat(AT_FDCWD, leg, times, 0) == 0, "touch the input");
    }
    code = run(args);
    root = cJSON_Parse(out_text);
    if (root) {
        CHECK(strcmp(line_state(root, 3), "done") == 0 && strcmp(line_state(root, 4), "done") == 0,
              "a newer input reruns its lines: %s, %s", line_state(root, 3), line_state(root, 4));
        cJSON_Delete(root);
    }
    snprintf(args, sizeof args, "batch '%s' --json --quiet --force", manifest);
    run(args);
    root = cJSON_Parse(out_text);
    CHECK(root && cJSON_GetObjectItem(root, "done") && cJSON_GetObjectItem(root, "done")->valueint == 2,
          "--force runs the up-to-date lines too");
    cJSON_Delete(root);
    CHECK(same_bytes(solved, alone), "and writes the same bytes again");
}

static void test_bad_manifests(void) {
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"info a.bvh\nsolve \"unclosed -o x.bvh\n", "jobs.txt:2: a quote is not closed"},
        {"batch other.txt\n", "jobs.txt:1: a manifest runs file commands"},
        {"\n\ndemo -o out\n", "jobs.txt:3: a manifest runs file commands"},
        {"info \"a\"b\n", "jobs.txt:1: a closing quote must end its word"},
    };
    char manifest[300], args[400];
    size_t i;
    int code;
    path_in(manifest, sizeof manifest, "jobs.txt");
    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        write_text(manifest, cases[i].text);
        snprintf(args, sizeof args, "batch '%s' --quiet", manifest);
        code = run(args);
        CHECK(code == 4 && strstr(err_text, cases[i].message), "case %zu: exit %d, '%s'", i, code, err_text);
    }
    snprintf(args, sizeof args, "batch '%s/none.txt'", work_dir);
    CHECK(run(args) == 3, "a missing manifest: exit 3");
    CHECK(run("batch") == 2 && strstr(err_text, "no manifest"), "no manifest given: %s", err_text);
    snprintf(args, sizeof args, "batch '%s' -j 0", manifest);
    CHECK(run(args) == 2 && strstr(err_text, "-j takes 1 to 64"), "-j 0: %s", err_text);
    write_text(manifest, "# nothing but a comment\n");
    snprintf(args, sizeof args, "batch '%s'", manifest);
    CHECK(run(args) == 0 && strstr(out_text, "no lines to run"), "an empty manifest: %s", out_text);
}

int main(void) {
    if (!ikc_run_begin("ikc-batch")) return 1;
    test_batch_runs_and_resumes();
    test_bad_manifests();
    ikc_run_end();
    return check_summary("ikc_batch");
}

/* ikc batch: run the ikc commands of a manifest, one per line, in parallel
 * processes, skipping those whose outputs are up to date, going on past
 * failures and reporting them at the end. Each job is this ikc binary run
 * with the line's arguments (never a shell), so its result is the same as
 * running that line alone. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "ikc.h"

extern char **environ;

/* Limits: a manifest of at most 8 MiB, lines of at most 64 arguments. */
#define MANIFEST_MAX_BYTES (8u << 20)
#define JOB_MAX_ARGS 64
#define MAX_WORKERS 64

typedef enum job_state { JOB_PENDING, JOB_RUNNING, JOB_DONE, JOB_SKIPPED, JOB_FAILED } job_state;

typedef struct job {
    int line;
    int argc;
    char *argv[JOB_MAX_ARGS + 2]; /* ikc, the line's words, NULL */
    job_state state;
    pid_t pid;
    int exit_code;
    char log_path[1100];
    double seconds;
} job;

/* Split `text` in place into words: runs of non-blank characters, or
 * "double-quoted" (backslash escapes \" and \\ inside); a '#' at a word's
 * start ends the line. Returns the word count, or -1 with `why` set. */
static int split_words(char *text, char **words, int max_words, const char **why) {
    int n = 0;
    char *r = text;
    while (*r) {
        char *w;
        while (*r == ' ' || *r == '\t' || *r == '\r') ++r;
        if (!*r || *r == '#') break;
        if (n == max_words) {
            *why = "more than 64 arguments";
            return -1;
        }
        w = r;
        words[n++] = w;
        if (*r == '"') {
            char *o = w;
            ++r;
            while (*r && *r != '"') {
                if (*r == '\\' && (r[1] == '"' || r[1] == '\\')) ++r;
                *o++ = *r++;
            }
            if (*r != '"') {
                *why = "a quote is not closed";
                return -1;
            }
            ++r;
            if (*r && *r != ' ' && *r != '\t' && *r != '\r') {
                *why = "a closing quote must end its word";
                return -1;
            }
            if (*r) ++r;
            *o = '\0';
        } else {
            while (*r && *r != ' ' && *r != '\t' && *r != '\r') ++r;
            if (*r) *r++ = '\0';
        }
    }
    return n;
}

/* The manifest's jobs (its text kept in *text, which the words point
 * into). Lines that are blank or comments are no jobs; a line naming
 * `batch` or `demo`, or that cannot be split, is an error. */
static job *read_manifest(const char *path, const char *self, char **text, int *count, int *code) {
    size_t length;
    char *line, *next;
    job *jobs = NULL;
    int n = 0, cap = 0, number = 0;
    *count = 0;
    if (!(*text = ikc_read_text_file("batch", path, MANIFEST_MAX_BYTES, &length, code))) return NULL;
    for (line = *text; line; line = next) {
        const char *why = NULL;
        char *words[JOB_MAX_ARGS];
        int w, k;
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        ++number;
        if ((w = split_words(line, words, JOB_MAX_ARGS, &why)) == 0) continue;
        if (w > 0 && (strcmp(words[0], "batch") == 0 || strcmp(words[0], "demo") == 0))
            why = "a manifest runs file commands (solve, clean, fit, walk, render, info, ...), not batch or demo";
        if (w < 0 || why) {
            fprintf(stderr, "ikc batch: %s:%d: %s\n", path, number, why);
            free(jobs);
            *code = IKC_EXIT_FORMAT;
            return NULL;
        }
        if (n == cap) {
            job *grown = (job *)realloc(jobs, (size_t)(cap = cap ? 2 * cap : 64) * sizeof *jobs);
            if (!grown) {
                free(jobs);
                *code = IKC_EXIT_FAILURE;
                fprintf(stderr, "ikc batch: out of memory\n");
                return NULL;
            }
            jobs = grown;
        }
        memset(&jobs[n], 0, sizeof jobs[n]);
        jobs[n].line = number;
        jobs[n].argv[0] = (char *)self;
        for (k = 0; k < w; ++k) jobs[n].argv[k + 1] = words[k];
        jobs[n].argc = w + 1;
        ++n;
    }
    *count = n;
    *code = IKC_EXIT_OK;
    return jobs;
}

/* ---- up to date -------------------------------------------------------------- */

static int modified(const char *path, struct timespec *when) {
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return 0;
    *when = st.st_mtim;
    return 1;
}

static int later(struct timespec a, struct timespec b) {
    return a.tv_sec != b.tv_sec ? a.tv_sec > b.tv_sec : a.tv_nsec > b.tv_nsec;
}

/* 1 when the option takes the next word as an output file. */
static int output_option(const char *word) {
    return strcmp(word, "-o") == 0 || strcmp(word, "--output") == 0 || strcmp(word, "--render") == 0 ||
           strcmp(word, "--plot") == 0;
}

/* A job is up to date when it names outputs, each exists, and none is older
 * than an input (every other word that names a regular file) or than the
 * ikc binary itself (a new ikc may write different results). */
static int up_to_date(const job *j, struct timespec tool) {
    struct timespec oldest_output = tool, newest_input = tool, t;
    int outputs = 0, k;
    for (k = 1; k < j->argc; ++k) {
        if (k + 1 < j->argc && output_option(j->argv[k])) {
            if (!modified(j->argv[++k], &t)) return 0;
            if (!outputs++ || later(oldest_output, t)) oldest_output = t;
        } else if (modified(j->argv[k], &t) && later(t, newest_input)) {
            newest_input = t;
        }
    }
    return outputs > 0 && !later(newest_input, oldest_output);
}

/* ---- running ---------------------------------------------------------------- */

/* Start job `j` with its stdout and stderr in its log file. */
static int start(job *j) {
    posix_spawn_file_actions_t actions;
    int ok;
    if (posix_spawn_file_actions_init(&actions) != 0) return 0;
    ok = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) == 0 &&
         posix_spawn_file_actions_addopen(&actions, 1, j->log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644) == 0 &&
         posix_spawn_file_actions_adddup2(&actions, 1, 2) == 0 &&
         posix_spawn(&j->pid, j->argv[0], &actions, NULL, j->argv, environ) == 0;
    posix_spawn_file_actions_destroy(&actions);
    if (ok) {
        j->state = JOB_RUNNING;
        j->seconds = ikc_now();
    }
    return ok;
}

/* The last line of a job's log that says something, for the report. */
static void last_message(const char *path, char *out, size_t size) {
    FILE *f = fopen(path, "rb");
    char line[512];
    out[0] = '\0';
    if (!f) return;
    while (fgets(line, sizeof line, f)) {
        size_t n = strcspn(line, "\r\n");
        line[n] = '\0';
        if (n > 0) snprintf(out, size, "%s", line);
    }
    fclose(f);
}

static const char *state_name(job_state s) {
    return s == JOB_DONE ? "done" : s == JOB_SKIPPED ? "up to date" : s == JOB_FAILED ? "failed" : "not run";
}

static void usage(FILE *out) {
    fprintf(out,
            "usage: ikc batch MANIFEST [-j N] [--force] [--logs DIR] [--json] [--quiet]\n"
            "\n"
            "Run the ikc commands listed in MANIFEST, one per line (\"clean take.bvh -o out/take.bvh\";\n"
            "blank lines and lines starting with # are skipped; words with spaces in \"double quotes\"),\n"
            "N at a time (default: the number of processors). A line whose outputs (-o, --render, --plot)\n"
            "all exist and are newer than its input files and than ikc itself is skipped (up to date);\n"
            "--force runs every line. A failing line is reported and the others go on. Paths are as seen\n"
            "from the current directory. Each line is ikc run on its own, so its outputs are the same.\n"
            "\n"
            "  -j N         N jobs at once (1..64)\n"
            "  --force      run lines that are up to date too\n"
            "  --logs DIR   keep each line's output as DIR/line-L.log (default: kept only for failures)\n"
            "  --json       print the summary as JSON: every line's state, exit code and seconds\n"
            "  --quiet      no progress bar\n"
            "  --plan       run nothing: print each line's arguments and whether it is up to date, as\n"
            "               JSON (what python -m ikit.batch hands to a Dask cluster)\n"
            "\n"
            "exit codes: 0 every line done or up to date, 1 a line failed, 2 bad usage, 3 no manifest,\n"
            "4 a malformed manifest.\n");
}

typedef struct batch_options {
    const char *manifest, *logs;
    int workers, force, json, quiet, plan;
} batch_options;

static int parse_options(int argc, char **argv, batch_options *o) {
    int i;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    memset(o, 0, sizeof *o);
    o->workers = cores > 0 ? (int)(cores < MAX_WORKERS ? cores : MAX_WORKERS) : 1;
    for (i = 0; i < argc; ++i) {
        const char *v;
        if (ikc_is_help(argv[i])) {
            usage(stdout);
            return -1;
        } else if (strcmp(argv[i], "-j") == 0) {
            if (!(v = ikc_option_value("batch", argc, argv, &i))) return IKC_EXIT_USAGE;
            if (!ikc_parse_int(v, &o->workers) || o->workers < 1 || o->workers > MAX_WORKERS) {
                fprintf(stderr, "ikc batch: -j takes 1 to %d, not '%s'\n", MAX_WORKERS, v);
                return IKC_EXIT_USAGE;
            }
        } else if (strcmp(argv[i], "--logs") == 0) {
            if (!(o->logs = ikc_option_value("batch", argc, argv, &i))) return IKC_EXIT_USAGE;
        } else if (strcmp(argv[i], "--force") == 0) {
            o->force = 1;
        } else if (strcmp(argv[i], "--json") == 0) {
            o->json = 1;
        } else if (strcmp(argv[i], "--plan") == 0) {
            o->plan = 1;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            o->quiet = 1;
        } else if (argv[i][0] == '-' || o->manifest) {
            fprintf(stderr, "ikc batch: unexpected argument '%s' (see ikc batch --help)\n", argv[i]);
            return IKC_EXIT_USAGE;
        } else {
            o->manifest = argv[i];
        }
    }
    if (!o->manifest) {
        fprintf(stderr, "ikc batch: no manifest given (see ikc batch --help)\n");
        return IKC_EXIT_USAGE;
    }
    return IKC_EXIT_OK;
}

/* Where each job's output goes: DIR/line-L.log with --logs, else a private
 * temporary directory removed at the end (with the logs of jobs that did
 * not fail). */
static int prepare_logs(const batch_options *o, job *jobs, int count, char *temp_dir, size_t temp_size) {
    int i;
    temp_dir[0] = '\0';
    if (o->logs) {
        if (!ikc_make_dirs(o->logs)) {
            fprintf(stderr, "ikc batch: cannot create the log directory '%s'\n", o->logs);
            return 0;
        }
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(temp_dir, temp_size, "%s/ikc-batch-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
        if (!mkdtemp(temp_dir)) {
            fprintf(stderr, "ikc batch: cannot create a temporary directory: %s\n", strerror(errno));
            return 0;
        }
    }
    for (i = 0; i < count; ++i)
        snprintf(jobs[i].log_path, sizeof jobs[i].log_path, "%s/line-%d.log", o->logs ? o->logs : temp_dir,
                 jobs[i].line);
    return 1;
}

/* Run the jobs not up to date, `workers` at a time, until all ended. */
static void run_jobs(job *jobs, int count, const batch_options *o, struct timespec tool) {
    ikc_progress progress;
    int running = 0, next = 0, ended = 0;
    ikc_progress_begin(&progress, "batch", count, o->quiet);
    while (ended < count) {
        while (running < o->workers && next < count) {
            job *j = &jobs[next++];
            if (!o->force && up_to_date(j, tool)) {
                j->state = JOB_SKIPPED;
                ++ended;
            } else if (start(j)) {
                ++running;
            } else {
                j->state = JOB_FAILED;
                j->exit_code = -1;
                ++ended;
            }
        }
        if (running > 0) {
            int status, i;
            pid_t pid = waitpid(-1, &status, 0);
            if (pid < 0 && errno == EINTR) continue;
            if (pid < 0) break;
            for (i = 0; i < next; ++i)
                if (jobs[i].state == JOB_RUNNING && jobs[i].pid == pid) {
                    jobs[i].seconds = ikc_now() - jobs[i].seconds;
                    jobs[i].exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
                    jobs[i].state = jobs[i].exit_code == 0 ? JOB_DONE : JOB_FAILED;
                    --running;
                    ++ended;
                }
        }
        ikc_progress_step(&progress, ended);
    }
    ikc_progress_end(&progress);
}

/* --plan: every line's words and whether it would be skipped, as JSON. */
static void print_plan(const job *jobs, int count, const batch_options *o, struct timespec tool) {
    cJSON *root = cJSON_CreateObject(), *list;
    char *text;
    int i, k;
    cJSON_AddItemToObject(root, "manifest", ikc_json_text(o->manifest));
    list = cJSON_AddArrayToObject(root, "lines");
    for (i = 0; i < count; ++i) {
        cJSON *line = cJSON_CreateObject(), *args = cJSON_AddArrayToObject(line, "args");
        cJSON_AddNumberToObject(line, "line", jobs[i].line);
        for (k = 1; k < jobs[i].argc; ++k) cJSON_AddItemToArray(args, ikc_json_text(jobs[i].argv[k]));
        cJSON_AddBoolToObject(line, "up_to_date", !o->force && up_to_date(&jobs[i], tool));
        cJSON_AddItemToArray(list, line);
    }
    if ((text = cJSON_Print(root))) printf("%s\n", text);
    cJSON_free(text);
    cJSON_Delete(root);
}

static void report(const job *jobs, int count, const batch_options *o, double seconds) {
    int done = 0, skipped = 0, failed = 0, i, k;
    for (i = 0; i < count; ++i) {
        done += jobs[i].state == JOB_DONE;
        skipped += jobs[i].state == JOB_SKIPPED;
        failed += jobs[i].state == JOB_FAILED;
    }
    if (o->json) {
        cJSON *root = cJSON_CreateObject(), *list;
        char *text;
        cJSON_AddItemToObject(root, "manifest", ikc_json_text(o->manifest));
        cJSON_AddNumberToObject(root, "done", done);
        cJSON_AddNumberToObject(root, "up_to_date", skipped);
        cJSON_AddNumberToObject(root, "failed", failed);
        cJSON_AddNumberToObject(root, "seconds", seconds);
        list = cJSON_AddArrayToObject(root, "lines");
        for (i = 0; i < count; ++i) {
            cJSON *line = cJSON_CreateObject();
            cJSON_AddNumberToObject(line, "line", jobs[i].line);
            cJSON_AddStringToObject(line, "state", state_name(jobs[i].state));
            cJSON_AddNumberToObject(line, "exit_code", jobs[i].exit_code);
            cJSON_AddNumberToObject(line, "seconds", jobs[i].state == JOB_SKIPPED ? 0 : jobs[i].seconds);
            if (o->logs || jobs[i].state == JOB_FAILED)
                cJSON_AddItemToObject(line, "log", ikc_json_text(jobs[i].log_path));
            cJSON_AddItemToArray(list, line);
        }
        if ((text = cJSON_Print(root))) printf("%s\n", text);
        cJSON_free(text);
        cJSON_Delete(root);
    } else {
        for (i = 0; i < count; ++i) {
            char message[512];
            if (jobs[i].state != JOB_FAILED) continue;
            last_message(jobs[i].log_path, message, sizeof message);
            printf("line %d failed (exit %d):", jobs[i].line, jobs[i].exit_code);
            for (k = 1; k < jobs[i].argc; ++k)
                printf(strpbrk(jobs[i].argv[k], " \t\"") ? " \"%s\"" : " %s", ikc_shown(jobs[i].argv[k]));
            printf("\n    %s\n    log: %s\n", message[0] ? ikc_shown(message) : "(no output)",
                   ikc_shown(jobs[i].log_path));
        }
        printf("%d lines: %d done, %d up to date, %d failed in %.2f s\n", count, done, skipped, failed, seconds);
    }
}

/* Remove the temporary logs of lines that did not fail, and the directory
 * when it is left empty. */
static void tidy_logs(const job *jobs, int count, const char *temp_dir) {
    int i;
    if (!temp_dir[0]) return;
    for (i = 0; i < count; ++i)
        if (jobs[i].state != JOB_FAILED) unlink(jobs[i].log_path);
    rmdir(temp_dir);
}

int ikc_batch(int argc, char **argv) {
    batch_options o;
    char *text = NULL, self[4096], temp_dir[1024];
    job *jobs;
    int count, code = parse_options(argc, argv, &o), i, failed = 0;
    ssize_t self_length;
    struct timespec tool;
    double t0;
    if (code < 0) return IKC_EXIT_OK;
    if (code != IKC_EXIT_OK) return code;
    self_length = readlink("/proc/self/exe", self, sizeof self - 1);
    if (self_length <= 0) {
        fprintf(stderr, "ikc batch: cannot find the ikc binary (/proc/self/exe)\n");
        return IKC_EXIT_FAILURE;
    }
    self[self_length] = '\0';
    if (!modified(self, &tool)) tool.tv_sec = 0, tool.tv_nsec = 0;
    if (!(jobs = read_manifest(o.manifest, self, &text, &count, &code))) {
        free(text);
        if (code == IKC_EXIT_OK && o.plan)
            print_plan(NULL, 0, &o, tool);
        else if (code == IKC_EXIT_OK)
            printf("%s: no lines to run\n", ikc_shown(o.manifest));
        return code;
    }
    if (o.plan) {
        print_plan(jobs, count, &o, tool);
        free(jobs);
        free(text);
        return IKC_EXIT_OK;
    }
    if (!prepare_logs(&o, jobs, count, temp_dir, sizeof temp_dir)) {
        free(jobs);
        free(text);
        return IKC_EXIT_WRITE;
    }
    t0 = ikc_now();
    run_jobs(jobs, count, &o, tool);
    report(jobs, count, &o, ikc_now() - t0);
    tidy_logs(jobs, count, temp_dir);
    for (i = 0; i < count; ++i) failed += jobs[i].state == JOB_FAILED;
    free(jobs);
    free(text);
    return failed ? IKC_EXIT_FAILURE : IKC_EXIT_OK;
}

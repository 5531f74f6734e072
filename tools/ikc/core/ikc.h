/* ikc: the command-line tool over ikit. One function per command, plus the
 * helpers the commands share (argument parsing, name suggestions, atomic
 * output files, the progress bar). */
#ifndef IKC_H
#define IKC_H

#include <stddef.h>
#include <stdio.h>

#include <ikit/atomic_file.h>
#include <ikit/math.h>
#include <ikit/skeleton.h>
#include <ikit/version.h>

/* ikc's version is the library's: one number, set in CMakeLists.txt. */
#define IKC_VERSION IK_VERSION_STRING

/* Exit codes, documented in `ikc --help`. */
enum {
    IKC_EXIT_OK = 0,
    IKC_EXIT_FAILURE = 1,   /* a solver or internal failure */
    IKC_EXIT_USAGE = 2,     /* bad command line: unknown option, bad number */
    IKC_EXIT_NO_FILE = 3,   /* input file missing or unreadable */
    IKC_EXIT_FORMAT = 4,    /* input file malformed or unsupported */
    IKC_EXIT_NOT_FOUND = 5, /* unknown joint, clip or chain name */
    IKC_EXIT_WRITE = 6,     /* output file could not be written */
    IKC_EXIT_CHECKS = 7     /* output written, but it fails its own checks (each named in a warning) */
};

/* Each takes the arguments after the command's name; returns the exit code. */
int ikc_info(int argc, char **argv);
int ikc_solve(int argc, char **argv);
int ikc_render(int argc, char **argv);
int ikc_demo(int argc, char **argv);
int ikc_contacts(int argc, char **argv);
int ikc_clean(int argc, char **argv);
int ikc_walk(int argc, char **argv);
int ikc_fit(int argc, char **argv);
int ikc_batch(int argc, char **argv);
int ikc_retarget(int argc, char **argv);
int ikc_ikbench(int argc, char **argv);
int ikc_path(int argc, char **argv);

/* ---- args.c: strict parsing of numbers and option values ---------------- */

/* The whole of `text` as a finite number; 0 on failure (nothing written). */
int ikc_parse_real(const char *text, ik_real *out);
/* A whole non-negative or positive int; 0 on failure. */
int ikc_parse_int(const char *text, int *out);
/* "a,b[,c...]" (or "a:b:c"): between `min` and `max` finite numbers split by
 * `separator` into `out`; their count, or 0 (`out` perhaps partly written). */
int ikc_parse_reals(const char *text, char separator, ik_real *out, int min, int max);
/* A picture size "WxH", each from 64 to 16384 (render's --size); 0 on failure. */
int ikc_parse_size(const char *text, int *w, int *h);
/* "x,y,z" into a vector; 0 on failure (nothing written). */
int ikc_parse_vec3(const char *text, ik_vec3 *out);
/* "NAME=x,y,z": copies NAME (at most name_size - 1 bytes) and the vector.
 * On failure prints "ikc CMD: ..." naming the option and returns 0. */
int ikc_parse_named_vec3(const char *command, const char *option, const char *text, char *name, size_t name_size,
                         ik_vec3 *out);
/* The value after an option (argv[*i + 1]), advancing *i; prints an error and
 * returns NULL when it is missing. */
const char *ikc_option_value(const char *command, int argc, char **argv, int *i);
/* The input file named by `arg` (a word that is not an option) into
 * *path; 0 after printing "ikc COMMAND: one file at a time" when *path
 * is already set. */
int ikc_input_path(const char *command, const char *arg, const char **path);
/* 1 when `word` is one of the `count` strings of `words`. */
int ikc_is_one_of(const char *word, const char *const *words, size_t count);
/* 1 when `arg` is -h or --help. */
int ikc_is_help(const char *arg);
/* The lower-case file extension of `path` without the dot ("" when none). */
const char *ikc_extension(const char *path, char *buf, size_t size);

/* ---- suggest.c: closest names for "did you mean" ------------------------ */

/* Print to `out` up to `max_suggestions` skeleton joint names closest to
 * `wanted` ("did you mean: A, B, C?"), preferring names that contain it. */
void ikc_suggest_joint(FILE *out, const ik_skeleton *skeleton, const char *wanted, int max_suggestions);
/* The same over any list of names; prints nothing and returns 0 when no
 * name is close, else the number suggested. */
int ikc_suggest_name(FILE *out, const char *const *names, int count, const char *wanted, int max_suggestions);

/* ---- atomic_file.c: write to a temporary file, then rename -------------- */

/* The io layer's temporary (ikit/atomic_file.h), tagged "ikc". */
typedef struct ik_atomic_file ikc_atomic;

/* Create a new, empty temporary file in the same directory as `path`, under
 * an unpredictable name that keeps its extension (writers pick the format by
 * it), with O_CREAT | O_EXCL | O_NOFOLLOW and mode 0666 less the umask. It
 * is removed if SIGINT, SIGTERM or SIGHUP ends the process before commit or
 * abort. 0 (errno set) when it cannot be created. */
int ikc_atomic_begin(ikc_atomic *a, const char *path);
/* Close the temporary file and rename it over the final path; 0 (and the
 * temporary file removed) on failure, with errno set. */
int ikc_atomic_commit(ikc_atomic *a);
void ikc_atomic_abort(ikc_atomic *a);
/* Write `size` bytes to `path` atomically; 0 on failure. */
int ikc_write_file_atomic(const char *path, const void *data, size_t size);
/* One output file of a command, in memory. */
typedef struct ikc_output {
    const char *path;
    const void *data;
    size_t size;
} ikc_output;

/* Write `files` (the last is the main output, named by -o; the others go
 * beside it, such as a .gltf's .bin) each to a temporary, then rename them
 * all, the main output last: they appear whole or not at all. Nothing is
 * written, with "ikc COMMAND: ..." naming the file and IKC_EXIT_WRITE, when
 * a path exists and is not a regular file, or, unless `overwrite`, when it is
 * one of `inputs` (the same file, through a link too: same device and inode)
 * or when it is an existing companion file while the main output does not
 * exist (a main output and its companions of the same name may be replaced
 * together). Returns an IKC_EXIT_ code. */
int ikc_write_outputs(const char *command, const ikc_output *files, int count, const char *const *inputs,
                      int input_count, int overwrite);
/* Create a directory (and its parents); 1 when it exists afterwards. */
int ikc_make_dirs(const char *path);

/* ---- progress.c: a progress bar on stderr, only on a terminal ------------ */

typedef struct ikc_progress {
    const char *label;
    long total;
    int enabled;
    int last_percent;
} ikc_progress;

void ikc_progress_begin(ikc_progress *p, const char *label, long total, int quiet);
void ikc_progress_step(ikc_progress *p, long done);
void ikc_progress_end(ikc_progress *p);

/* ---- text_file.c -------------------------------------------------------- */

/* The whole of `path` (at most max_bytes), NUL-terminated, to free(); its
 * length in *length. NULL after printing "ikc CMD: ..." with *code set to
 * IKC_EXIT_NO_FILE, IKC_EXIT_FORMAT (too large) or IKC_EXIT_FAILURE. */
char *ikc_read_text_file(const char *command, const char *path, size_t max_bytes, size_t *length, int *code);

/* After a text-format reader of the io layer failed on `path` with
 * `result`: prints "ikc CMD: FILE:LINE:COLUMN: what is wrong" (the reader's
 * message without its own "line L, column C: "), or the reader's message
 * when the file could not be read, and returns the exit code. */
int ikc_reader_failed(const char *command, const char *path, ik_result result, const ik_error *err);

/* ---- shown_text.c: names from files, safe to print ---------------------- */

/* `text` for a terminal: control characters (C0, DEL, C1) and bytes that are
 * not well-formed UTF-8 as \xNN, the rest as it is; NULL shows as "".
 * Returns one of 8 static buffers used in turn (so several may appear in one
 * printf), each at most 1 KiB (a longer text ends in "..."). */
const char *ikc_shown(const char *text);
/* A new cJSON string of `text` with every byte that is not well-formed UTF-8
 * replaced by U+FFFD, so printed JSON is valid UTF-8; NULL when out of
 * memory. */
struct cJSON *ikc_json_text(const char *text);

/* `json` printed on stdout, then freed; 0 when it could not be printed
 * (out of memory). */
int ikc_json_print(struct cJSON *json);

/* A command's JSON report finished and printed on stdout, then freed:
 * "written" (the output file was written: exit 0, or 7 written but failing
 * a check) and "exit_code" added last. */
void ikc_json_print_result(struct cJSON *json, int code);

/* ---- time ---------------------------------------------------------------- */

/* Monotonic seconds. */
double ikc_now(void);
/* This thread's CPU time in seconds. */
double ikc_cpu_now(void);
/* The median of `count` timings (sorts `values` in place). */
double ikc_median(double *values, int count);

#endif

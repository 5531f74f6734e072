/* ikit: the one error record of every layer. A call that can say more than
 * its ik_result takes an `ik_error *error` (NULL when the caller wants no
 * detail) and fills it: a skeleton check names the joint, a job's _run the
 * field it refused, a file reader the place in the file and a message. */
#ifndef IKIT_ERROR_H
#define IKIT_ERROR_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What failed and where; a field that does not apply keeps its cleared
 * value (ik_error_clear).
 *   line, column  in a text file, 1-based; 0 when unknown or not text
 *   offset        byte offset in the file, 0-based; -1 when unknown
 *   index         the joint a skeleton check refused, or the entry of the
 *                 job field named in path (for base.pose_ls a skeleton
 *                 joint); -1 for none or the field as a whole
 *   path          a JSON path such as "/nodes/3/children/0", or the job
 *                 field as written in the job ("base.scratch_bytes",
 *                 "effectors"); "" for none
 *   message       a human message, always NUL-terminated; it already starts
 *                 "line L, column C: " when the line is known, and is ""
 *                 when the result code says it all (a job's bad field). */
typedef struct ik_error {
    long line;
    long column;
    long offset;
    int index;
    char path[160];
    char message[256];
} ik_error;

/* Clears error: line and column 0, offset and index -1, empty path and
 * message. NULL is ignored. */
void ik_error_clear(ik_error *error);

/* Records a failure at (line, column, offset) with a printf-style message.
 * When line > 0 the message is prefixed with "line L, column C: ".
 * path and index are left as they are. NULL error is ignored. */
void ik_error_set(ik_error *error, long line, long column, long offset, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Same as ik_error_set with a va_list. */
void ik_error_setv(ik_error *error, long line, long column, long offset, const char *fmt, va_list args);

/* "Did you mean", for a message about a name that was not found: the
 * indices of up to `max` (at most 8) of names [count] closest to `wanted`,
 * best first, into best [max]; returns how many. Names containing `wanted`
 * (or contained in it) come first, then by edit distance; names more than
 * about half their length away are left out. */
int ik_error_closest_names(const char *const *names, int count, const char *wanted, int *best, int max);

#ifdef __cplusplus
}
#endif
#endif

/* ikit: filling the error record every layer shares (error.h). */
#include <ikit/error.h>

#include <stdio.h>
#include <string.h>

void ik_error_clear(ik_error *error) {
    if (!error) return;
    error->line = 0;
    error->column = 0;
    error->offset = -1;
    error->index = -1;
    error->path[0] = '\0';
    error->message[0] = '\0';
}

void ik_error_setv(ik_error *error, long line, long column, long offset, const char *fmt, va_list args) {
    size_t used = 0;
    int written;
    if (!error) return;
    error->line = line;
    error->column = column;
    error->offset = offset;
    error->message[0] = '\0';
    if (line > 0) {
        written = snprintf(error->message, sizeof error->message, "line %ld, column %ld: ", line, column);
        if (written > 0) used = (size_t)written < sizeof error->message ? (size_t)written : sizeof error->message - 1;
    }
    vsnprintf(error->message + used, sizeof error->message - used, fmt, args);
}

void ik_error_set(ik_error *error, long line, long column, long offset, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    ik_error_setv(error, line, column, offset, fmt, args);
    va_end(args);
}

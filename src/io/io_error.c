/* ikit io: the shared error record of file readers and writers. */
#include <ikit/io_error.h>

#include <stdio.h>
#include <string.h>

void ik_io_error_clear(ik_io_error *e)
{
    if (!e) return;
    e->line = 0;
    e->column = 0;
    e->offset = -1;
    e->path[0] = '\0';
    e->message[0] = '\0';
}

void ik_io_error_setv(ik_io_error *e, long line, long column, long offset, const char *fmt, va_list args)
{
    size_t used = 0;
    int written;
    if (!e) return;
    e->line = line;
    e->column = column;
    e->offset = offset;
    e->message[0] = '\0';
    if (line > 0) {
        written = snprintf(e->message, sizeof e->message, "line %ld, column %ld: ", line, column);
        if (written > 0) used = (size_t)written < sizeof e->message ? (size_t)written : sizeof e->message - 1;
    }
    vsnprintf(e->message + used, sizeof e->message - used, fmt, args);
}

void ik_io_error_set(ik_io_error *e, long line, long column, long offset, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    ik_io_error_setv(e, line, column, offset, fmt, args);
    va_end(args);
}

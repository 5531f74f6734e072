/* Reading the height-field text format documented in height_field_file.h,
 * on the io layer's scanner: a header of `cell`, `size` and `origin` lines
 * up to `heights`, then one line per row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ikit/height_field_file.h>

#include "file_read.h"
#include "text_scan.h"

/* The numbers left on the scanner's line as ik_real (ik_text_line_numbers). */
static int line_numbers(ik_text_scan *s, ik_real *out, int max, ik_text_token *bad) {
    double v[IK_HEIGHT_FIELD_MAX_SIZE];
    int n = ik_text_line_numbers(s, v, max < IK_HEIGHT_FIELD_MAX_SIZE ? max : IK_HEIGHT_FIELD_MAX_SIZE, bad), k;
    for (k = 0; k < n && k < max; ++k) out[k] = (ik_real)v[k];
    return n;
}

static ik_result fail(ik_error *error, const ik_text_token *at, ik_result r, const char *what) {
    ik_error_set(error, at->line, at->column, at->offset, "%s", what);
    return r;
}

/* A bad number on a line: its code and message at its place. */
static ik_result bad_number(ik_error *error, const ik_text_token *bad, int n) {
    return fail(error, bad, n == -2 ? IK_ERR_NONFINITE : IK_ERR_PARSE,
                n == -2 ? "a value that is not a finite number" : "a value that is not a number");
}

static int whole_size(ik_real v) { return v == (ik_real)(int)v && v >= 1 && v <= IK_HEIGHT_FIELD_MAX_SIZE; }

/* One header line after its keyword `word`. */
static ik_result header_line(ik_text_scan *s, const ik_text_token *word, ik_height_field_file *field, int *have_size,
                             int *done, ik_error *error) {
    ik_real v[4];
    ik_text_token bad;
    int n = line_numbers(s, v, 4, &bad);
    if (n < 0) return bad_number(error, &bad, n);
    if (ik_text_is(word, "cell")) {
        if (n != 1 || !(v[0] > 0))
            return fail(error, word, n != 1 ? IK_ERR_PARSE : IK_ERR_RANGE, "cell wants one number > 0");
        field->cell = v[0];
    } else if (ik_text_is(word, "size")) {
        if (n != 2 || !whole_size(v[0]) || !whole_size(v[1]))
            return fail(error, word, n != 2 ? IK_ERR_PARSE : IK_ERR_RANGE,
                        "size wants two whole numbers 1..1024 (samples along x, z)");
        field->count_x = (int)v[0];
        field->count_z = (int)v[1];
        *have_size = 1;
    } else if (ik_text_is(word, "origin")) {
        if (n != 3) return fail(error, word, IK_ERR_PARSE, "origin wants three numbers x y z");
        field->origin_ms = ik_v3(v[0], v[1], v[2]);
        field->has_origin = 1;
    } else if (ik_text_is(word, "heights")) {
        if (n != 0) return fail(error, word, IK_ERR_PARSE, "'heights' stands alone; the rows follow it");
        if (!*have_size || !(field->cell > 0))
            return fail(error, word, IK_ERR_PARSE, "give 'cell' and 'size' before 'heights'");
        *done = 1;
    } else {
        return fail(error, word, IK_ERR_PARSE, "want 'cell', 'size', 'origin' or 'heights'");
    }
    return IK_OK;
}

static ik_result read_header(ik_text_scan *s, ik_height_field_file *field, ik_error *error) {
    ik_text_token word;
    int have_size = 0, done = 0;
    ik_result r = IK_OK;
    while (r == IK_OK && !done && ik_text_next(s, &word, 1)) r = header_line(s, &word, field, &have_size, &done, error);
    if (r == IK_OK && !done) {
        ik_text_token end = ik_text_here(s);
        return fail(error, &end, IK_ERR_PARSE, have_size ? "no 'heights' found" : "no 'size' and 'heights' found");
    }
    return r;
}

/* `count_z` lines of `count_x` heights each. */
static ik_result read_rows(ik_text_scan *s, ik_height_field_file *field, ik_error *error) {
    int rows = 0;
    char what[160];
    ik_text_token first, bad, end;
    while (ik_text_skip_blank(s, 1)) {
        int n;
        first = ik_text_here(s);
        if (rows == field->count_z) {
            snprintf(what, sizeof what, "more than the %d rows 'size' gave", field->count_z);
            return fail(error, &first, IK_ERR_PARSE, what);
        }
        n = line_numbers(s, field->heights + (size_t)rows * (size_t)field->count_x, field->count_x, &bad);
        if (n < 0) {
            snprintf(what, sizeof what, "row %d: a height that is not a %s", rows,
                     n == -2 ? "finite number" : "number");
            return fail(error, &bad, n == -2 ? IK_ERR_NONFINITE : IK_ERR_PARSE, what);
        }
        if (n != field->count_x) {
            snprintf(what, sizeof what, "row %d has %d heights; 'size' wants %d", rows, n, field->count_x);
            return fail(error, &first, IK_ERR_PARSE, what);
        }
        ++rows;
    }
    if (rows < field->count_z) {
        end = ik_text_here(s);
        snprintf(what, sizeof what, "%d rows of heights; 'size' wants %d", rows, field->count_z);
        return fail(error, &end, IK_ERR_PARSE, what);
    }
    return IK_OK;
}

ik_result ik_height_field_file_read_memory(const char *data, size_t size, ik_height_field_file *field,
                                           ik_error *error) {
    ik_text_scan s;
    ik_result r;
    ik_error_clear(error);
    if (!field) return IK_ERR_NULL;
    memset(field, 0, sizeof *field);
    if (!data && size > 0) return IK_ERR_NULL;
    ik_text_scan_init(&s, data, size, '#');
    r = read_header(&s, field, error);
    if (r != IK_OK) return r;
    field->heights = (ik_real *)malloc((size_t)field->count_x * (size_t)field->count_z * sizeof *field->heights);
    if (!field->heights) {
        ik_error_set(error, 0, 0, -1, "out of memory for %d x %d heights", field->count_x, field->count_z);
        return IK_ERR_NO_MEMORY;
    }
    r = read_rows(&s, field, error);
    if (r != IK_OK) ik_height_field_file_free(field);
    return r;
}

ik_result ik_height_field_file_read_file(const char *path, ik_height_field_file *field, ik_error *error) {
    char *data;
    size_t size;
    ik_result r;
    ik_error_clear(error);
    if (!field) return IK_ERR_NULL;
    memset(field, 0, sizeof *field);
    if (!path) return IK_ERR_NULL;
    r = ik_io_read_file(path, &data, &size, error);
    if (r != IK_OK) return r;
    r = ik_height_field_file_read_memory(data, size, field, error);
    free(data);
    return r;
}

void ik_height_field_file_free(ik_height_field_file *field) {
    if (!field) return;
    free(field->heights);
    memset(field, 0, sizeof *field);
}

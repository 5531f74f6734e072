/* Reading the height-field text format documented in height_field.h. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "height_field.h"
#include "ikc.h"

#define HEIGHT_FIELD_MAX_BYTES (64u << 20)

typedef struct line_reader {
    char *next;  /* the rest of the text */
    int number;  /* 1-based line of the current line */
    char *words; /* the current line, comment removed */
} line_reader;

/* The next line that holds anything but spaces and a comment; 0 at the end. */
static int next_line(line_reader *r) {
    while (*r->next) {
        char *line = r->next, *end = strchr(line, '\n'), *hash, *p;
        if (end) {
            *end = '\0';
            r->next = end + 1;
        } else {
            r->next = line + strlen(line);
        }
        ++r->number;
        if ((hash = strchr(line, '#')) != NULL) *hash = '\0';
        for (p = line; *p && isspace((unsigned char)*p); ++p) {
        }
        if (*p) {
            r->words = p;
            return 1;
        }
    }
    return 0;
}

/* Up to `max` finite numbers from `text` into `out`; the count, or -1 when
 * a word is not a finite number. */
static int numbers(char *text, ik_real *out, int max) {
    int n = 0;
    char *p = text;
    for (;;) {
        char *end;
        double v;
        while (*p && isspace((unsigned char)*p)) ++p;
        if (!*p) return n;
        errno = 0;
        v = strtod(p, &end);
        if (end == p || (*end && !isspace((unsigned char)*end)) || errno == ERANGE || !ik_finite((ik_real)v))
            return -1;
        if (n < max) out[n] = (ik_real)v;
        ++n;
        p = end;
    }
}

static int fail(const char *command, const char *path, int line, const char *what) {
    fprintf(stderr, "ikc %s: %s:%d: %s\n", command, path, line, what);
    return IKC_EXIT_FORMAT;
}

int ikc_height_field_read(const char *command, const char *path, ikc_height_field *field) {
    size_t length;
    int code;
    char *text = ikc_read_text_file(command, path, HEIGHT_FIELD_MAX_BYTES, &length, &code);
    memset(field, 0, sizeof *field);
    if (!text) return code;
    code = ikc_height_field_parse(command, path, text, field);
    free(text);
    return code;
}

int ikc_height_field_parse(const char *command, const char *path, char *text, ikc_height_field *field) {
    int code, rows = 0, have_size = 0;
    line_reader r;
    memset(field, 0, sizeof *field);
    r.next = text;
    r.number = 0;
    r.words = NULL;
    code = IKC_EXIT_OK;
    while (code == IKC_EXIT_OK && next_line(&r)) {
        char *word = r.words, *rest = word;
        ik_real v[4];
        int n;
        while (*rest && !isspace((unsigned char)*rest)) ++rest;
        if (*rest) *rest++ = '\0';
        n = isalpha((unsigned char)word[0]) ? numbers(rest, v, 4) : 0;
        if (strcmp(word, "cell") == 0) {
            if (n != 1 || !(v[0] > 0)) code = fail(command, path, r.number, "cell wants one number > 0");
            else field->cell = v[0];
        } else if (strcmp(word, "size") == 0) {
            if (n != 2 || v[0] != (ik_real)(int)v[0] || v[1] != (ik_real)(int)v[1] || v[0] < 1 || v[1] < 1 ||
                v[0] > IKC_HEIGHT_FIELD_MAX_SIZE || v[1] > IKC_HEIGHT_FIELD_MAX_SIZE)
                code = fail(command, path, r.number, "size wants two whole numbers 1..1024 (samples along x, z)");
            else {
                field->count_x = (int)v[0];
                field->count_z = (int)v[1];
                have_size = 1;
            }
        } else if (strcmp(word, "origin") == 0) {
            if (n != 3) code = fail(command, path, r.number, "origin wants three numbers x y z");
            else {
                field->origin_ms = ik_v3(v[0], v[1], v[2]);
                field->has_origin = 1;
            }
        } else if (strcmp(word, "heights") == 0) {
            if (n != 0) code = fail(command, path, r.number, "'heights' stands alone; the rows follow it");
            else if (!have_size || !(field->cell > 0))
                code = fail(command, path, r.number, "give 'cell' and 'size' before 'heights'");
            else break;
        } else {
            code = fail(command, path, r.number, "want 'cell', 'size', 'origin' or 'heights'");
        }
    }
    if (code == IKC_EXIT_OK && !have_size) code = fail(command, path, r.number, "no 'size' and 'heights' found");
    if (code == IKC_EXIT_OK) {
        field->heights = (ik_real *)malloc((size_t)field->count_x * (size_t)field->count_z * sizeof *field->heights);
        if (!field->heights) {
            fprintf(stderr, "ikc %s: out of memory\n", command);
            code = IKC_EXIT_FAILURE;
        }
    }
    while (code == IKC_EXIT_OK && next_line(&r)) {
        char what[160];
        int n;
        if (rows == field->count_z) {
            snprintf(what, sizeof what, "more than the %d rows 'size' gave", field->count_z);
            code = fail(command, path, r.number, what);
            break;
        }
        n = numbers(r.words, field->heights + (size_t)rows * (size_t)field->count_x, field->count_x);
        if (n != field->count_x) {
            if (n < 0) snprintf(what, sizeof what, "row %d: a height that is not a finite number", rows);
            else snprintf(what, sizeof what, "row %d has %d heights; 'size' wants %d", rows, n, field->count_x);
            code = fail(command, path, r.number, what);
        }
        ++rows;
    }
    if (code == IKC_EXIT_OK && rows < field->count_z) {
        char what[120];
        snprintf(what, sizeof what, "%d rows of heights; 'size' wants %d", rows, field->count_z);
        code = fail(command, path, r.number, what);
    }
    if (code != IKC_EXIT_OK) ikc_height_field_free(field);
    return code;
}

void ikc_height_field_free(ikc_height_field *field) {
    free(field->heights);
    field->heights = NULL;
}

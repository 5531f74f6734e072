/* ikit io, private: a line- and column-tracking tokenizer over a text buffer
 * and an exact decimal number parser, shared by the BVH and chain-file
 * readers. Not installed; nothing here allocates. */
#ifndef IKIT_IO_TEXT_SCAN_H
#define IKIT_IO_TEXT_SCAN_H

#include <float.h>
#include <stddef.h>

#include <ikit/error.h>
#include <ikit/result.h>

typedef struct ik_text_scan {
    const char *data;
    size_t size;
    size_t pos;
    long line;         /* 1-based line of data[pos] */
    size_t line_start; /* offset of the first byte of that line */
    char comment;      /* a byte that starts a comment to the end of the line, or 0 */
} ik_text_scan;

/* One run of non-blank bytes; '{' and '}' are always tokens of their own. */
typedef struct ik_text_token {
    const char *text;
    size_t length;
    long line;
    long column; /* 1-based, in bytes */
    long offset; /* 0-based byte offset */
} ik_text_token;

/* The largest magnitude a number may have: it must also fit ik_real, so a
 * float build refuses 1e39 as it refuses inf. */
#ifdef IKIT_DOUBLE
#define IK_TEXT_REAL_MAX DBL_MAX
#else
#define IK_TEXT_REAL_MAX FLT_MAX
#endif

typedef enum ik_text_number {
    IK_TEXT_NUMBER_OK,
    IK_TEXT_NUMBER_SYNTAX,   /* not a decimal number */
    IK_TEXT_NUMBER_NONFINITE /* nan, inf, or a magnitude beyond IK_TEXT_REAL_MAX */
} ik_text_number;

void ik_text_scan_init(ik_text_scan *s, const char *data, size_t size, char comment);

/* Skip spaces, tabs, carriage returns, comments and, when cross_lines is set,
 * line feeds. Returns 1 when a token follows, 0 at the end of the data or
 * (without cross_lines) at a line feed. */
int ik_text_skip_blank(ik_text_scan *s, int cross_lines);

/* The next token (skipping blanks across lines when cross_lines is set);
 * returns 0 when there is none, with *t the empty token where the scan
 * stopped (the place to report an unexpected end). */
int ik_text_next(ik_text_scan *s, ik_text_token *t, int cross_lines);

/* Where the scanner stands now, as an empty token (for "unexpected end" errors). */
ik_text_token ik_text_here(const ik_text_scan *s);

/* 1 for space, tab, CR, LF, vertical tab and form feed. */
int ik_text_is_blank(char c);

/* 1 when the token is exactly `word`. */
int ik_text_is(const ik_text_token *t, const char *word);

/* Parse the whole token as a decimal number:
 * [+-] (digits [. digits] | . digits) [(e|E) [+-] digits].
 * The result is the correctly rounded double, at most IK_TEXT_REAL_MAX in
 * magnitude. */
ik_text_number ik_text_number_parse(const ik_text_token *t, double *out);

/* The numbers left on the scanner's line, up to `max` of them into `out`
 * (counting the rest). Returns the count; on a word that is not a finite
 * number, sets `bad` to it and returns -1 (syntax) or -2 (not finite). */
int ik_text_line_numbers(ik_text_scan *s, double *out, int max, ik_text_token *bad);

#endif

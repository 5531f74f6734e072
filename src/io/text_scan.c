/* Tokenizer and exact decimal parsing for the io layer's text readers. */
#include "text_scan.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ik_text_scan_init(ik_text_scan *s, const char *data, size_t size, char comment) {
    s->data = data;
    s->size = data ? size : 0;
    s->pos = 0;
    s->line = 1;
    s->line_start = 0;
    s->comment = comment;
}

int ik_text_skip_blank(ik_text_scan *s, int cross_lines) {
    while (s->pos < s->size) {
        char c = s->data[s->pos];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
            ++s->pos;
        } else if (c == '\n') {
            if (!cross_lines) return 0;
            ++s->pos;
            ++s->line;
            s->line_start = s->pos;
        } else if (s->comment && c == s->comment) {
            while (s->pos < s->size && s->data[s->pos] != '\n') ++s->pos;
        } else {
            return 1;
        }
    }
    return 0;
}

ik_text_token ik_text_here(const ik_text_scan *s) {
    ik_text_token t;
    t.text = s->data + s->pos;
    t.length = 0;
    t.line = s->line;
    t.column = (long)(s->pos - s->line_start) + 1;
    t.offset = (long)s->pos;
    return t;
}

int ik_text_is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

int ik_text_next(ik_text_scan *s, ik_text_token *t, int cross_lines) {
    int found = ik_text_skip_blank(s, cross_lines);
    *t = ik_text_here(s);
    if (!found) return 0;
    if (s->data[s->pos] == '{' || s->data[s->pos] == '}') {
        ++s->pos;
    } else {
        while (s->pos < s->size) {
            char c = s->data[s->pos];
            if (ik_text_is_blank(c) || c == '{' || c == '}' || (s->comment && c == s->comment)) break;
            ++s->pos;
        }
    }
    t->length = (size_t)(s->data + s->pos - t->text);
    return 1;
}

int ik_text_is(const ik_text_token *t, const char *word) {
    size_t n = strlen(word);
    return t->length == n && memcmp(t->text, word, n) == 0;
}

static int lower(char c) { return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c; }

static int starts_nonfinite_word(const char *p, size_t n) {
    return (n >= 3 && lower(p[0]) == 'n' && lower(p[1]) == 'a' && lower(p[2]) == 'n') ||
           (n >= 3 && lower(p[0]) == 'i' && lower(p[1]) == 'n' && lower(p[2]) == 'f');
}

/* Clinger's fast path (W. D. Clinger, "How to read floating point numbers
 * accurately", PLDI 1990): when the decimal significand m fits in 53 bits and
 * |e| <= 22, both m and 10^|e| are exact doubles, so the single product or
 * quotient m * 10^e is correctly rounded. Other numbers go to strtod on a
 * NUL-terminated copy (the syntax was checked here first, so strtod sees only
 * plain decimal text). */
ik_text_number ik_text_number_parse(const ik_text_token *t, double *out) {
    static const double powers[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *p = t->text, *end = t->text + t->length;
    int negative = 0, digits = 0, significant = 0;
    long exponent = 0, written_exponent = 0;
    uint64_t mantissa = 0;
    double value;
    if (p < end && (*p == '+' || *p == '-')) negative = *p++ == '-';
    if (starts_nonfinite_word(p, (size_t)(end - p))) return IK_TEXT_NUMBER_NONFINITE;
    for (; p < end && *p >= '0' && *p <= '9'; ++p, ++digits) {
        if (mantissa == 0 && *p == '0') continue;
        if (significant < 19)
            mantissa = mantissa * 10 + (uint64_t)(*p - '0');
        else
            ++exponent;
        ++significant;
    }
    if (p < end && *p == '.') {
        for (++p; p < end && *p >= '0' && *p <= '9'; ++p, ++digits) {
            if (mantissa == 0 && *p == '0') {
                --exponent;
                continue;
            }
            if (significant < 19) {
                mantissa = mantissa * 10 + (uint64_t)(*p - '0');
                --exponent;
            }
            ++significant;
        }
    }
    if (digits == 0) return IK_TEXT_NUMBER_SYNTAX;
    if (p < end && (*p == 'e' || *p == 'E')) {
        int exp_negative = 0, exp_digits = 0;
        ++p;
        if (p < end && (*p == '+' || *p == '-')) exp_negative = *p++ == '-';
        for (; p < end && *p >= '0' && *p <= '9'; ++p, ++exp_digits)
            if (written_exponent < 100000) written_exponent = written_exponent * 10 + (*p - '0');
        if (exp_digits == 0) return IK_TEXT_NUMBER_SYNTAX;
        exponent += exp_negative ? -written_exponent : written_exponent;
    }
    if (p != end) return IK_TEXT_NUMBER_SYNTAX;
    if (mantissa == 0) {
        *out = negative ? -0.0 : 0.0;
        return IK_TEXT_NUMBER_OK;
    }
    if (significant <= 19 && mantissa <= ((uint64_t)1 << 53) && exponent >= -22 && exponent <= 22) {
        value = (double)mantissa;
        value = exponent < 0 ? value / powers[-exponent] : value * powers[exponent];
        if (negative) value = -value;
    } else {
        char copy[256];
        if (t->length >= sizeof copy) return IK_TEXT_NUMBER_SYNTAX;
        memcpy(copy, t->text, t->length);
        copy[t->length] = '\0';
        value = strtod(copy, NULL);
    }
    if (!(value >= -IK_TEXT_REAL_MAX && value <= IK_TEXT_REAL_MAX)) return IK_TEXT_NUMBER_NONFINITE;
    *out = value;
    return IK_TEXT_NUMBER_OK;
}

int ik_text_line_numbers(ik_text_scan *s, double *out, int max, ik_text_token *bad) {
    ik_text_token t;
    int n = 0;
    while (ik_text_next(s, &t, 0)) {
        double v;
        ik_text_number kind = ik_text_number_parse(&t, &v);
        if (kind != IK_TEXT_NUMBER_OK) {
            *bad = t;
            return kind == IK_TEXT_NUMBER_NONFINITE ? -2 : -1;
        }
        if (n < max) out[n] = v;
        ++n;
    }
    return n;
}

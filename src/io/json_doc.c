/* ikit io: a strict one-pass JSON reader into one flat value array (see
 * json_doc.h for the layout and why cJSON is not used to read). */
#include "json_doc.h"

#include "big_block.h"

#include <float.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

/* The longest number text read (cJSON reads 63 characters at most). Longer
 * ones are refused: no glTF value needs more than 17 significant digits. */
#define JSON_MAX_NUMBER_TEXT 320

/* The longest text read: every item or member count (at most half the
 * bytes) fits the 29 bits json_value gives it. */
#define JSON_MAX_TEXT (1UL << 30)

/* The longest string read (its byte count fits those 29 bits too). */
#define JSON_MAX_STRING ((1UL << 29) - 1)

/* Bytes that end the plain run of a string: the quote, the backslash and
 * the control characters (which JSON requires escaped). */
static const unsigned char string_stop[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
};

typedef struct scan {
    char *text; /* the copy, NUL at [length] */
    size_t length, at;
    json_value *values;
    size_t count, capacity;
    uint32_t open[JSON_MAX_DEPTH]; /* slots of the arrays and objects not yet closed */
    int depth;
    json_error *error;
} scan;

/* Memory ran out: said as such, whatever the offset. */
static int no_memory(scan *s) {
    s->error->offset = s->at;
    s->error->reason = "out of memory";
    s->error->out_of_memory = 1;
    return 0;
}

static int fail(scan *s, const char *reason) {
    s->error->offset = s->at;
    s->error->reason = s->at >= s->length ? "the text ends before the JSON value does" : reason;
    return 0;
}

static void skip_space(scan *s) {
    const char *t = s->text;
    size_t at = s->at;
    while (t[at] == ' ' || t[at] == '\n' || t[at] == '\r' || t[at] == '\t') ++at;
    s->at = at;
}

/* A new slot at the end; doubling keeps the growth linear. */
static json_value *new_value(scan *s, json_type type) {
    json_value *v;
    if (s->count == s->capacity) {
        size_t capacity = s->capacity * 2;
        json_value *grown;
        if (capacity > (size_t)-1 / sizeof *grown) return NULL; /* a 32-bit size_t */
        grown = (json_value *)realloc(s->values, capacity * sizeof *grown);
        if (!grown) return NULL;
        s->values = grown;
        s->capacity = capacity;
    }
    v = &s->values[s->count++];
    v->type = (unsigned)type;
    v->skip = 1;
    v->count = 0;
    return v;
}

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* The four hex digits after "\u" at `p`; -1 when they are not hex. */
static long hex4(const char *p) {
    long value = 0;
    int i;
    for (i = 0; i < 4; ++i) {
        int d = hex_digit(p[i]);
        if (d < 0) return -1;
        value = value * 16 + d;
    }
    return value;
}

/* Code point `c` (< 0x110000) as UTF-8 at `w` (RFC 3629); returns the bytes written. */
static size_t put_utf8(char *w, unsigned long c) {
    if (c < 0x80) {
        w[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        w[0] = (char)(0xC0 | (c >> 6));
        w[1] = (char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        w[0] = (char)(0xE0 | (c >> 12));
        w[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        w[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    w[0] = (char)(0xF0 | (c >> 18));
    w[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    w[2] = (char)(0x80 | ((c >> 6) & 0x3F));
    w[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

/* The escape at s->at (its backslash), unescaped at *w (never past s->at:
 * an escape is at least as long as what it stands for). A surrogate pair
 * "\uD8xx\uDCxx" is one code point, 0x10000 + (hi - 0xD800) * 0x400 +
 * (lo - 0xDC00) (RFC 8259 section 7); a lone surrogate is refused. */
static int unescape(scan *s, char **w) {
    const char *p = s->text + s->at;
    unsigned long c;
    long hi, lo;
    switch (p[1]) {
        case '"':
            c = '"';
            break;
        case '\\':
            c = '\\';
            break;
        case '/':
            c = '/';
            break;
        case 'b':
            c = '\b';
            break;
        case 'f':
            c = '\f';
            break;
        case 'n':
            c = '\n';
            break;
        case 'r':
            c = '\r';
            break;
        case 't':
            c = '\t';
            break;
        case 'u':
            if ((hi = hex4(p + 2)) < 0) return fail(s, "\\u must be followed by four hex digits");
            if (hi == 0) return fail(s, "a string holds \\u0000 (a NUL character), which names cannot carry");
            if (hi >= 0xDC00 && hi <= 0xDFFF) return fail(s, "a low surrogate escape with no high one before it");
            if (hi >= 0xD800 && hi <= 0xDBFF) {
                if (p[6] != '\\' || p[7] != 'u' || (lo = hex4(p + 8)) < 0 || lo < 0xDC00 || lo > 0xDFFF)
                    return fail(s, "a high surrogate escape with no low one after it");
                *w += put_utf8(*w, 0x10000 + (unsigned long)(hi - 0xD800) * 0x400 + (unsigned long)(lo - 0xDC00));
                s->at += 12;
                return 1;
            }
            *w += put_utf8(*w, (unsigned long)hi);
            s->at += 6;
            return 1;
        default:
            return fail(s, "an unknown escape in a string");
    }
    *(*w)++ = (char)c;
    s->at += 2;
    return 1;
}

/* The string whose opening quote is at s->at, into slot `v`: unescaped in
 * place and NUL-terminated over its closing quote (or earlier). */
static int read_string(scan *s, json_value *v) {
    char *t = s->text, *start = t + s->at + 1, *w;
    const char *p = start;
    while (!string_stop[(unsigned char)*p]) ++p;
    s->at = (size_t)(p - t);
    w = (char *)p;
    while (*p != '"') {
        if (*p == '\\') {
            if (!unescape(s, &w)) return 0;
        } else if ((unsigned char)*p < 0x20) {
            return fail(s, s->at < s->length && *p == '\0' ? "a NUL byte in a string"
                                                           : "a control character in a string must be escaped");
        } else {
            *w++ = *p;
            ++s->at;
        }
        p = t + s->at;
    }
    if ((size_t)(w - start) > JSON_MAX_STRING) return fail(s, "a string of 512 MB or more");
    *w = '\0';
    v->as.string = start;
    v->count = (unsigned)(w - start);
    ++s->at;
    return 1;
}

/* Powers of ten that a double holds exactly (10^22 < 2^53 * 2^22). */
static const double exact_power_of_ten[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                              1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* strtod on the number text (already checked against the grammar, at most
 * one '.'), with the '.' replaced by the current locale's decimal point
 * (which may take several bytes), as strtod reads by the locale. */
static double strtod_number(const char *text, size_t length) {
    char buffer[JSON_MAX_NUMBER_TEXT + 16];
    const char *point = localeconv()->decimal_point, *dot = memchr(text, '.', length);
    size_t point_length = strlen(point), before = dot ? (size_t)(dot - text) : length;
    if (!dot || point_length == 0 || point_length > 8) point = ".", point_length = 1;
    memcpy(buffer, text, before);
    if (dot) {
        memcpy(buffer + before, point, point_length);
        memcpy(buffer + before + point_length, dot + 1, length - before - 1);
        buffer[length - 1 + point_length] = '\0';
    } else {
        buffer[length] = '\0';
    }
    return strtod(buffer, NULL);
}

/* The number at s->at, by RFC 8259's grammar
 *   number = [ "-" ] ( "0" / [1-9] *DIGIT ) [ "." 1*DIGIT ] [ ( "e" / "E" ) [ "-" / "+" ] 1*DIGIT ]
 * into slot `v`. Value: digits d (up to 19 kept exactly in an integer) times
 * 10^e. When d <= 2^53 and |e| <= 22 both are exact doubles and one IEEE
 * multiplication or division rounds once, so the result is the nearest
 * double (Clinger, "How to read floating point numbers accurately", PLDI
 * 1990, the fast path; needs FLT_EVAL_METHOD 0). Otherwise strtod, which is
 * correctly rounded in glibc. */
static int read_number(scan *s, json_value *v) {
    const char *t = s->text, *start = t + s->at, *p = start;
    uint64_t digits = 0;
    long exponent = 0, written_exponent = 0;
    int negative = 0, exponent_negative = 0, dropped = 0;
    if (*p == '-') negative = 1, ++p;
    if (*p == '0') {
        ++p;
        if (*p >= '0' && *p <= '9') {
            s->at = (size_t)(p - t);
            return fail(s, "a number has a leading zero");
        }
    } else if (*p >= '1' && *p <= '9') {
        for (; *p >= '0' && *p <= '9'; ++p) {
            if (digits < 1000000000000000000ULL)
                digits = digits * 10 + (uint64_t)(*p - '0');
            else
                ++exponent, dropped = 1;
        }
    } else {
        s->at = (size_t)(p - t);
        return fail(s, "a minus sign not followed by a digit");
    }
    if (*p == '.') {
        ++p;
        if (!(*p >= '0' && *p <= '9')) {
            s->at = (size_t)(p - t);
            return fail(s, "a decimal point not followed by a digit");
        }
        for (; *p >= '0' && *p <= '9'; ++p) {
            if (digits < 1000000000000000000ULL)
                digits = digits * 10 + (uint64_t)(*p - '0'), --exponent;
            else
                dropped = 1;
        }
    }
    if (*p == 'e' || *p == 'E') {
        ++p;
        if (*p == '-' || *p == '+') exponent_negative = *p++ == '-';
        if (!(*p >= '0' && *p <= '9')) {
            s->at = (size_t)(p - t);
            return fail(s, "an exponent with no digits");
        }
        for (; *p >= '0' && *p <= '9'; ++p)
            if (written_exponent < 100000) written_exponent = written_exponent * 10 + (*p - '0');
        exponent += exponent_negative ? -written_exponent : written_exponent;
    }
    if (p - start > JSON_MAX_NUMBER_TEXT) return fail(s, "a number longer than 320 characters");
    s->at = (size_t)(p - t);
#if FLT_EVAL_METHOD == 0
    if (!dropped && digits <= (1ULL << 53) && exponent >= -22 && exponent <= 22) {
        double d = (double)digits;
        d = exponent >= 0 ? d * exact_power_of_ten[exponent] : d / exact_power_of_ten[-exponent];
        v->as.number = negative ? -d : d;
        return 1;
    }
#endif
    v->as.number = strtod_number(start, (size_t)(p - start));
    return 1;
}

/* The literal `word` (true, false, null) at s->at. */
static int read_literal(scan *s, const char *word, size_t length) {
    if (s->length - s->at < length || memcmp(s->text + s->at, word, length) != 0)
        return fail(s, "expected a value (an object, array, string, number, true, false or null)");
    s->at += length;
    return 1;
}

/* One value at s->at, counted as an item (or member) of the innermost open
 * container: a scalar is read whole (1); an array or object is opened,
 * pushed, and its contents follow in the main loop (2). */
static int read_value(scan *s) {
    char c = s->text[s->at];
    json_value *v = new_value(s, JSON_NULL);
    if (!v) return no_memory(s);
    if (s->depth > 0) ++s->values[s->open[s->depth - 1]].count;
    switch (c) {
        case '{':
        case '[':
            if (s->depth == JSON_MAX_DEPTH) return fail(s, "arrays and objects nested deeper than 1000");
            v->type = c == '{' ? JSON_OBJECT : JSON_ARRAY;
            s->open[s->depth++] = (uint32_t)(s->count - 1);
            ++s->at;
            return 2;
        case '"':
            v->type = JSON_STRING;
            return read_string(s, v);
        case 't':
            v->type = JSON_TRUE;
            return read_literal(s, "true", 4);
        case 'f':
            v->type = JSON_FALSE;
            return read_literal(s, "false", 5);
        case 'n':
            return read_literal(s, "null", 4);
        default:
            if (c == '-' || (c >= '0' && c <= '9')) {
                v->type = JSON_NUMBER;
                return read_number(s, v);
            }
            return fail(s, c == '\0' && s->at < s->length
                               ? "a NUL byte in the text"
                               : "expected a value (an object, array, string, number, true, false or null)");
    }
}

/* A member's key and its colon, at s->at (white space skipped). The key
 * takes a slot but is not counted: an object counts its members. */
static int read_key(scan *s) {
    json_value *key;
    skip_space(s);
    if (s->text[s->at] != '"') return fail(s, "expected a string key");
    if (!(key = new_value(s, JSON_STRING))) return no_memory(s);
    if (!read_string(s, key)) return 0;
    skip_space(s);
    if (s->text[s->at] != ':') return fail(s, "expected ':' after a key");
    ++s->at;
    return 1;
}

/* The innermost open container's bracket. */
static char closing_bracket(const scan *s) { return s->values[s->open[s->depth - 1]].type == JSON_OBJECT ? '}' : ']'; }

/* The grammar walked with an explicit stack (no recursion on the file's
 * depth). After a complete value, the innermost open container takes its
 * closing bracket (and is complete in turn) or a ',' and its next item, or
 * key and value. An opened container takes its closing bracket at once
 * (empty) or its first item or key. */
static int read_document(scan *s) {
    for (;;) {
        int read;
        skip_space(s);
        if (!(read = read_value(s))) return 0;
        skip_space(s);
        if (read == 2 && s->text[s->at] != closing_bracket(s)) {
            if (s->values[s->open[s->depth - 1]].type == JSON_OBJECT && !read_key(s)) return 0;
            continue;
        }
        for (;;) {
            uint32_t top;
            skip_space(s);
            if (s->depth == 0) return s->at == s->length ? 1 : fail(s, "more text after the JSON value");
            top = s->open[s->depth - 1];
            if (s->text[s->at] == closing_bracket(s)) {
                s->values[top].skip = (uint32_t)(s->count - top);
                --s->depth;
                ++s->at;
                continue;
            }
            if (s->text[s->at] != ',')
                return fail(s, s->values[top].type == JSON_OBJECT ? "expected ',' or '}'" : "expected ',' or ']'");
            ++s->at;
            if (s->values[top].type == JSON_OBJECT && !read_key(s)) return 0;
            break;
        }
    }
}

/* Read `text`: copied first when `owned` is NULL, else `owned` (which is
 * `text`, malloc'ed, NUL at [length]) is read in place and freed with the
 * document or on failure. */
static int read_text(json_doc *doc, const char *text, char *owned, size_t length, json_error *error) {
    scan *s;
    int ok;
    memset(doc, 0, sizeof *doc);
    error->offset = 0;
    error->reason = "out of memory";
    error->out_of_memory = 1; /* until the text is read */
    if (length >= JSON_MAX_TEXT) {
        error->reason = "a JSON text of 1 GB or more";
        error->out_of_memory = 0;
        free(owned);
        return 0;
    }
    if (!(s = (scan *)malloc(sizeof *s))) {
        free(owned);
        return 0;
    }
    s->length = length;
    s->at = 0;
    s->count = 0;
    s->depth = 0;
    s->error = error;
    s->capacity = length / 4 + 64; /* glTF's JSON holds about one value per 7 bytes */
    s->text = owned ? owned : (char *)big_block_alloc(length + 1);
    s->values = s->capacity <= (size_t)-1 / sizeof *s->values
                    ? (json_value *)big_block_alloc(s->capacity * sizeof *s->values)
                    : NULL; /* a 32-bit size_t */
    if (!s->text || !s->values) {
        free(s->text);
        free(s->values);
        free(s);
        return 0;
    }
    if (!owned) {
        memcpy(s->text, text, length);
        s->text[length] = '\0';
    }
    error->out_of_memory = 0;
    ok = read_document(s);
    if (ok) {
        json_value *fitted = (json_value *)realloc(s->values, s->count * sizeof *fitted);
        doc->text = s->text;
        doc->values = fitted ? fitted : s->values;
        doc->value_count = s->count;
    } else {
        free(s->text);
        free(s->values);
    }
    free(s);
    return ok;
}

int json_doc_read(json_doc *doc, const char *text, size_t length, json_error *error) {
    return read_text(doc, text, NULL, length, error);
}

int json_doc_adopt(json_doc *doc, char *text, size_t length, json_error *error) {
    return read_text(doc, text, text, length, error);
}

void json_doc_free(json_doc *doc) {
    if (!doc) return;
    free(doc->text);
    free(doc->values);
    memset(doc, 0, sizeof *doc);
}

const json_value *json_member(const json_value *object, const char *key) {
    const json_value *v;
    if (!json_is_object(object)) return NULL;
    JSON_FOR_EACH(v, object) {
        if (strcmp(json_key_of(v), key) == 0) return v;
    }
    return NULL;
}

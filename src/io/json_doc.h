/* ikit io, private: a JSON text (RFC 8259) read in one pass into one flat
 * array of values, for the glTF reader. Not installed.
 *
 * Why not cJSON for reading: cJSON allocates every value, key and string
 * separately and converts numbers with strtod, which made its parse alone
 * 47 ms of a 100,000-joint document (issue 18 goal: the whole load under
 * 100 ms). jsmn (Debian's libjsmn-dev) scans that text in 8-10 ms but
 * accepts "[1 2]", "[1,,2]" and "{\"a\":}", and its closing brackets walk
 * back over the open ones (40,000 nested arrays: 1.7 s), so it cannot face
 * hostile files. cJSON stays the writer's document (edit and print).
 *
 * Layout: values are stored in document order, each followed by everything
 * inside it. values[0] is the root. An array's items start at array + 1, an
 * object's members at object + 1 as key, value pairs (the key is a STRING
 * value of one slot); the value after `v` and all it holds is v + v->skip.
 * Strings (keys too) are unescaped in place in the document's own copy of
 * the text and NUL-terminated there. */
#ifndef IKIT_IO_JSON_DOC_H
#define IKIT_IO_JSON_DOC_H

#include <stddef.h>
#include <stdint.h>

/* Deepest nesting of arrays and objects accepted (cJSON's limit too). */
#define JSON_MAX_DEPTH 1000

typedef enum json_type {
    JSON_NULL,
    JSON_FALSE,
    JSON_TRUE,
    JSON_NUMBER,
    JSON_STRING,
    JSON_ARRAY,
    JSON_OBJECT
} json_type;

/* 16 bytes a value: the memory a large document touches is most of its
 * read time. */
typedef struct json_value {
    uint32_t skip;       /* slots this value and everything inside it take (1 for a scalar) */
    unsigned type : 3;   /* json_type */
    unsigned count : 29; /* ARRAY: items, OBJECT: members, STRING: bytes (unescaped, without the NUL) */
    union {
        double number;      /* NUMBER: the nearest double (a number beyond its range is +-inf) */
        const char *string; /* STRING: the unescaped bytes, NUL-terminated; never holds a NUL itself */
    } as;
} json_value;

typedef struct json_doc {
    char *text;         /* the document's copy of the text, strings rewritten in place */
    json_value *values; /* [value_count], values[0] the root */
    size_t value_count;
} json_doc;

/* Why a text was refused: the byte offset and a short reason. */
typedef struct json_error {
    size_t offset;
    const char *reason; /* a static string, e.g. "expected ',' or ']'" */
    int out_of_memory;  /* 1 when memory ran out (reason "out of memory"), not a fault of the text */
} json_error;

/* Read `length` bytes of `text` (need not be NUL-terminated; a NUL byte is
 * refused like any other stray byte; under 1 GB, strings under 512 MB, so
 * that every count fits 29 bits) into `doc`, which owns its copies.
 * Strict RFC 8259: one value, optionally surrounded by white space; no
 * trailing commas, comments, leading zeros, unescaped control characters,
 * lone surrogate escapes, or "\u0000" (names cannot carry a NUL). UTF-8
 * outside escapes is not checked here (the glTF reader checks the names it
 * keeps). Nesting deeper than JSON_MAX_DEPTH is refused. Time and memory are
 * linear in `length`. Returns 1 on success; 0 with `error` filled (and `doc`
 * empty) when the text is refused or memory runs out (error->out_of_memory). */
int json_doc_read(json_doc *doc, const char *text, size_t length, json_error *error);

/* json_doc_read on a malloc'ed `text` with a NUL at [length], read in
 * place instead of copied: the document owns it from then on (it is freed
 * on failure too). */
int json_doc_adopt(json_doc *doc, char *text, size_t length, json_error *error);

void json_doc_free(json_doc *doc);

/* NULL-safe look-ups, shaped after the cJSON calls they replace: each
 * returns 0/NULL when `v` is NULL or of another type. */
static inline int json_is_object(const json_value *v) { return v && v->type == JSON_OBJECT; }
static inline int json_is_array(const json_value *v) { return v && v->type == JSON_ARRAY; }
static inline int json_is_string(const json_value *v) { return v && v->type == JSON_STRING; }
static inline int json_is_number(const json_value *v) { return v && v->type == JSON_NUMBER; }
static inline int json_is_true(const json_value *v) { return v && v->type == JSON_TRUE; }

/* Items of an array, members of an object; 0 otherwise. */
static inline long json_count(const json_value *v) {
    return v && (v->type == JSON_ARRAY || v->type == JSON_OBJECT) ? (long)v->count : 0;
}

/* A string's bytes (NULL when not a string). */
static inline const char *json_string(const json_value *v) { return json_is_string(v) ? v->as.string : NULL; }

/* A member value's key (only for a value reached as an object member). */
static inline const char *json_key_of(const json_value *member) { return member[-1].as.string; }

/* The first member of `object` named `key` (NULL when absent or not an object). */
const json_value *json_member(const json_value *object, const char *key);

/* Stepping: the first item of an array or the first member value of an
 * object (NULL when empty or neither), then the next one within the same
 * parent (NULL after the last). */
static inline const json_value *json_first(const json_value *parent) {
    if (!parent || parent->count == 0) return NULL;
    if (parent->type == JSON_ARRAY) return parent + 1;
    return parent->type == JSON_OBJECT ? parent + 2 : NULL;
}
static inline const json_value *json_next(const json_value *parent, const json_value *v) {
    const json_value *after = v + v->skip, *end = parent + parent->skip;
    if (after == end) return NULL;
    return parent->type == JSON_OBJECT ? after + 1 : after; /* an object: over the next member's key */
}

/* for (each item or member value `v` of `parent`) */
#define JSON_FOR_EACH(v, parent) for ((v) = json_first(parent); (v); (v) = json_next((parent), (v)))

#endif

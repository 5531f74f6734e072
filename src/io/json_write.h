/* ikit io, private: JSON text written straight from a json_doc, with edits
 * given as patches, for the glTF writer. Not installed.
 *
 * Why not cJSON for writing: building a cJSON tree of a 100,000-joint
 * document (an allocation per value, key and string), turning its numbers
 * into exact text with snprintf and strtod, and printing it took 1.9 s for a
 * posed rig (issue 31 goal: 150 ms). The text written here is byte for byte
 * what that tree printed: cJSON_Print's layout (members on their own lines,
 * indented by one tab per open array or object, "key":<tab>value, arrays on
 * one line with ", " between items) or cJSON_PrintUnformatted's, cJSON's
 * string escapes, and numbers as json_number_text gives them. */
#ifndef IKIT_IO_JSON_WRITE_H
#define IKIT_IO_JSON_WRITE_H

#include "json_doc.h"

#include <stddef.h>

/* A growing text; `failed` once memory ran out (later writes do nothing). */
typedef struct json_out {
    char *text; /* NUL-terminated while not failed */
    size_t length, capacity;
    int failed;
} json_out;

void json_out_free(json_out *out);
void json_out_bytes(json_out *out, const char *bytes, size_t n);
void json_out_number(json_out *out, double d);
/* `n` bytes as a JSON string with cJSON's escapes: '"', '\\', \b \f \n \r
 * \t, other bytes below 0x20 as \u00xx; every other byte as it is. */
void json_out_string(json_out *out, const char *s, size_t n);

/* `d` as text that reads back (strtod) as the same double: an integer of
 * magnitude below 2^53 as its digits; otherwise the fewest of 15, 16 or 17
 * significant digits that read back exactly (17 always do: IEEE 754-2008,
 * section 5.12.2), laid out as printf's "%.<digits>g" does in the C locale;
 * infinities as "1e999" / "-1e999" (read back as infinities again), NaN as
 * "null". Returns the length (at most 31); text is NUL-terminated. */
size_t json_number_text(double d, char text[40]);

/* An edit of one member of one object of the document. */
typedef enum json_patch_kind {
    JSON_PATCH_REMOVE, /* every member named `key` goes */
    JSON_PATCH_NUMBER, /* `key` becomes `number` */
    JSON_PATCH_STRING, /* `key` becomes the string `string` */
    JSON_PATCH_NUMBERS /* `key` becomes the array of `count` numbers at `numbers` */
} json_patch_kind;

typedef struct json_patch {
    const json_value *object; /* the object edited: a value of the document printed */
    const char *key;
    json_patch_kind kind;
    int count;
    double number;
    const double *numbers;
    const char *string;
} json_patch;

/* Most patches on one object. */
#define JSON_MAX_OBJECT_PATCHES 16

/* Append `root` and everything in it to `out`, formatted as cJSON_Print
 * does or compact as cJSON_PrintUnformatted, with `patches` applied: they
 * come in document order of their objects (the patches of one object
 * together, at most JSON_MAX_OBJECT_PATCHES, each key once). A key that is
 * set keeps the place of its first member and its repeats go; a key the
 * object lacks is added after its members, in the order of the patches;
 * what cJSON's replace, add and delete calls made of the tree. Patches on
 * objects inside a member that a patch replaces or removes go with it.
 * Returns 1, or
 * 0 when memory ran out or a patch names no object of the document (nothing
 * of it is then applied). */
int json_print(json_out *out, const json_value *root, const json_patch *patches, size_t patch_count, int formatted);

#endif

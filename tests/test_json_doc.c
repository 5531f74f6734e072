/* The strict JSON reader behind the glTF reader (src/io/json_doc.h): the
 * layout of what it reads, escapes, numbers against strtod bit for bit, one
 * named case per refused construct (with its byte offset), the nesting
 * limit, and agreement with cJSON on every document both accept. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/io/json_doc.h"
#include "support/check.h"
#include "support/rng.h"

static int read_text(json_doc *doc, const char *text, json_error *e) {
    return json_doc_read(doc, text, strlen(text), e);
}

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Item `index` of `array` by stepping (NULL when out of range). */
static const json_value *json_item(const json_value *array, long index) {
    const json_value *v;
    if (!json_is_array(array) || index < 0) return NULL;
    JSON_FOR_EACH(v, array) {
        if (index-- == 0) return v;
    }
    return NULL;
}

/* Every value's skip covers exactly its items (or members) and a container's
 * count matches what stepping finds; strings hold no NUL. One pass over the
 * flat array. */
static int layout_consistent(const json_doc *doc) {
    size_t i;
    for (i = 0; i < doc->value_count; ++i) {
        const json_value *v = &doc->values[i], *item;
        long n = 0;
        size_t end = i + v->skip;
        if (v->skip < 1 || end > doc->value_count) return 0;
        if (v->type == JSON_STRING && strlen(v->as.string) != v->count) return 0;
        if (v->type != JSON_ARRAY && v->type != JSON_OBJECT) {
            if (v->skip != 1) return 0;
            continue;
        }
        JSON_FOR_EACH(item, v) {
            if (v->type == JSON_OBJECT && item[-1].type != JSON_STRING) return 0;
            if ((size_t)(item - doc->values) + item->skip > end) return 0;
            ++n;
        }
        if (n != (long)v->count) return 0;
    }
    return doc->value_count > 0 && doc->values[0].skip == doc->value_count;
}

/* Our value and cJSON's agree: types, counts, keys, strings, numbers to the
 * bit. Recursive over test documents only (a few levels deep). */
static int same_as_cjson(const json_value *v, const cJSON *c) {
    const json_value *item;
    const cJSON *ci;
    switch (v->type) {
        case JSON_NULL:
            return cJSON_IsNull(c);
        case JSON_FALSE:
            return cJSON_IsFalse(c);
        case JSON_TRUE:
            return cJSON_IsTrue(c);
        case JSON_NUMBER:
            return cJSON_IsNumber(c) && same_bits(v->as.number, c->valuedouble);
        case JSON_STRING:
            return cJSON_IsString(c) && strcmp(v->as.string, c->valuestring) == 0;
        default:
            break;
    }
    if (v->type == JSON_ARRAY ? !cJSON_IsArray(c) : !cJSON_IsObject(c)) return 0;
    if ((long)v->count != cJSON_GetArraySize(c)) return 0;
    ci = c->child;
    JSON_FOR_EACH(item, v) {
        if (v->type == JSON_OBJECT && strcmp(json_key_of(item), ci->string) != 0) return 0;
        if (!same_as_cjson(item, ci)) return 0;
        ci = ci->next;
    }
    return 1;
}

static void test_layout_and_lookups(void) {
    static const char text[] =
        " {\"a\": [1, [2, 3], {}], \"b\": {\"c\": null, \"d\": true}, \"e\": \"x\", \"a\": false,"
        " \"f\": [], \"g\": -0.5e1 } ";
    json_doc doc;
    json_error e;
    const json_value *root, *a, *v;
    int ok = read_text(&doc, text, &e);
    CHECK(ok, "a valid document: %s at %lu", e.reason, (unsigned long)e.offset);
    if (!ok) return;
    root = &doc.values[0];
    CHECK(layout_consistent(&doc), "skips and counts agree with stepping");
    CHECK(json_is_object(root) && json_count(root) == 6, "six members, the repeated key too: %ld", json_count(root));
    a = json_member(root, "a");
    CHECK(json_is_array(a) && json_count(a) == 3, "the first \"a\" is found, as cJSON finds it");
    CHECK(json_is_number(json_item(a, 0)) && json_item(a, 0)->as.number == 1, "a[0] = 1");
    CHECK(json_count(json_item(a, 1)) == 2 && json_item(json_item(a, 1), 1)->as.number == 3, "a[1][1] = 3");
    CHECK(json_is_object(json_item(a, 2)) && json_count(json_item(a, 2)) == 0 && !json_first(json_item(a, 2)),
          "an empty object has no first member");
    CHECK(json_item(a, 3) == NULL && json_item(a, -1) == NULL, "out-of-range items are NULL");
    CHECK(json_member(json_member(root, "b"), "c")->type == JSON_NULL, "null");
    CHECK(json_is_true(json_member(json_member(root, "b"), "d")), "true");
    CHECK(json_string(json_member(root, "e")) && strcmp(json_string(json_member(root, "e")), "x") == 0, "a string");
    CHECK(json_count(json_member(root, "f")) == 0 && !json_first(json_member(root, "f")), "an empty array");
    CHECK(json_member(root, "g")->as.number == -5, "-0.5e1 = -5");
    CHECK(json_member(root, "zz") == NULL && json_member(a, "a") == NULL && json_member(NULL, "a") == NULL,
          "absent members, and members of a non-object, are NULL");
    CHECK(json_count(NULL) == 0 && !json_is_string(NULL) && json_string(json_item(a, 0)) == NULL,
          "look-ups are NULL-safe and typed");
    {
        static const char *const keys[] = {"a", "b", "e", "a", "f", "g"};
        int k = 0, in_order = 1;
        JSON_FOR_EACH(v, root) {
            in_order = in_order && k < 6 && strcmp(json_key_of(v), keys[k]) == 0;
            ++k;
        }
        CHECK(in_order && k == 6, "members step in document order with their keys");
    }
    json_doc_free(&doc);
    CHECK(doc.values == NULL && doc.text == NULL, "freed");
}

static void test_strings(void) {
    static const char text[] =
        "[\"plain\", \"q\\\"b\\\\s\\/f\\bf\\fn\\nr\\rt\\t\", \"\\u00e9\\u20AC\", "
        "\"\\ud83d\\ude00!\", \"caf\xc3\xa9\", \"\"]";
    json_doc doc;
    json_error e;
    int ok = read_text(&doc, text, &e);
    CHECK(ok, "escapes: %s at %lu", e.reason, (unsigned long)e.offset);
    if (!ok) return;
    CHECK(strcmp(json_item(&doc.values[0], 0)->as.string, "plain") == 0, "plain");
    CHECK(strcmp(json_item(&doc.values[0], 1)->as.string, "q\"b\\s/f\bf\fn\nr\rt\t") == 0, "the two-character escapes");
    CHECK(strcmp(json_item(&doc.values[0], 2)->as.string, "\xc3\xa9\xe2\x82\xac") == 0 &&
              json_item(&doc.values[0], 2)->count == 5,
          "\\u escapes become UTF-8 (2 and 3 bytes)");
    CHECK(strcmp(json_item(&doc.values[0], 3)->as.string, "\xf0\x9f\x98\x80!") == 0,
          "a surrogate pair is one 4-byte code point");
    CHECK(strcmp(json_item(&doc.values[0], 4)->as.string, "caf\xc3\xa9") == 0, "raw UTF-8 passes through");
    CHECK(json_item(&doc.values[0], 5)->count == 0 && json_item(&doc.values[0], 5)->as.string[0] == '\0', "empty");
    json_doc_free(&doc);
}

/* Read "[<number>]" and compare with strtod (glibc's is correctly rounded). */
static int number_matches_strtod(const char *number) {
    char text[400];
    json_doc doc;
    json_error e;
    int same;
    snprintf(text, sizeof text, "[%s]", number);
    if (!read_text(&doc, text, &e)) return 0;
    same = same_bits(doc.values[1].as.number, strtod(number, NULL));
    json_doc_free(&doc);
    return same;
}

static void test_numbers(void) {
    static const char *const named[] = {"0",
                                        "-0",
                                        "0.1",
                                        "1e22",
                                        "1e23",
                                        "9007199254740992",
                                        "9007199254740993", /* 2^53 + 1: past the exact path */
                                        "123456789012345678901234567890",
                                        "0.30000000000000004",
                                        "2.2250738585072011e-308",
                                        "4.9e-324",
                                        "1.7976931348623157e308",
                                        "0.000000000000000000000000001",
                                        "1E+2",
                                        "1e-0",
                                        "-12.5e-3"};
    check_property prop = {"numbers read as strtod reads them", 0, 0};
    char number[64];
    rng r = rng_seeded(18);
    size_t i;
    json_doc doc;
    json_error e;
    for (i = 0; i < sizeof named / sizeof named[0]; ++i)
        CHECK(number_matches_strtod(named[i]), "named number %s", named[i]);
    CHECK(read_text(&doc, "[-0]", &e) && signbit(doc.values[1].as.number), "-0 keeps its sign");
    json_doc_free(&doc);
    CHECK(read_text(&doc, "[1e400, -1e400, 1e-400]", &e) && isinf(doc.values[1].as.number) &&
              doc.values[2].as.number < 0 && isinf(doc.values[2].as.number) && doc.values[3].as.number == 0,
          "beyond double's range is +-inf, below it 0 (the reader's checks refuse inf)");
    json_doc_free(&doc);
    for (i = 0; i < 20000; ++i) {
        double x;
        uint64_t bits = rng_next(&r);
        switch (i % 4) {
            case 0: /* any finite double, printed exactly */
                memcpy(&x, &bits, sizeof x);
                if (!isfinite(x)) x = 1.5;
                snprintf(number, sizeof number, "%.17g", x);
                break;
            case 1: /* float-like values as glTF writers print them */
                snprintf(number, sizeof number, "%.9g", (double)(float)(rng_unit(&r) * 200 - 100));
                break;
            case 2: /* short decimals */
                snprintf(number, sizeof number, "%.*f", (int)(bits % 8), rng_unit(&r) * 1000 - 500);
                break;
            default: /* integers and exponents around the exact range's edges */
                snprintf(number, sizeof number, "%llue%d", (unsigned long long)(bits >> (bits % 64)),
                         (int)(bits % 61) - 30);
                break;
        }
        PROPERTY_CASE(prop, number_matches_strtod(number), "%s", number);
    }
    property_end(&prop);
}

typedef struct refused_case {
    const char *text;
    size_t offset;
    const char *reason_part;
} refused_case;

static void test_refused(void) {
    static const refused_case cases[] = {
        {"", 0, "ends"},
        {"  ", 2, "ends"},
        {"[1 2]", 3, "expected ','"},
        {"[1,,2]", 3, "expected a value"},
        {"[1,]", 3, "expected a value"},
        {"{\"a\":1,}", 7, "expected a string key"},
        {"{\"a\":}", 5, "expected a value"},
        {"{\"a\" 1}", 5, "expected ':'"},
        {"{\"a\":1 \"b\":2}", 7, "expected ',' or '}'"},
        {"{1:2}", 1, "expected a string key"},
        {"[1}", 2, "expected ',' or ']'"},
        {"{\"a\":1]", 6, "expected ',' or '}'"},
        {"[01]", 2, "leading zero"},
        {"[-]", 2, "minus"},
        {"[1.]", 3, "decimal point"},
        {"[.5]", 1, "expected a value"},
        {"[+1]", 1, "expected a value"},
        {"[1e]", 3, "exponent"},
        {"[1e+]", 4, "exponent"},
        {"[tru]", 1, "expected a value"},
        {"[nul", 1, "expected a value"},
        {"[NaN]", 1, "expected a value"},
        {"[Infinity]", 1, "expected a value"},
        {"[\"a\\x\"]", 3, "unknown escape"},
        {"[\"a\\u12G4\"]", 3, "four hex digits"},
        {"[\"\\ud800\"]", 2, "high surrogate"},
        {"[\"\\ud800\\u0041\"]", 2, "high surrogate"},
        {"[\"\\udc00\"]", 2, "low surrogate"},
        {"[\"a\\u0000b\"]", 3, "NUL"},
        {"[\"a\nb\"]", 3, "control character"},
        {"[\"abc", 5, "ends"},
        {"[1]x", 3, "more text"},
        {"[1] [2]", 4, "more text"},
        {"[", 1, "ends"},
        {"{", 1, "ends"},
        {"/*c*/[1]", 0, "expected a value"},
        {"\xef\xbb\xbf[1]", 0, "expected a value"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        json_doc doc;
        json_error e;
        int ok = read_text(&doc, cases[i].text, &e);
        CHECK(!ok && e.offset == cases[i].offset && strstr(e.reason, cases[i].reason_part) && doc.values == NULL,
              "refused %s: ok %d, offset %lu (want %lu), reason \"%s\"", cases[i].text, ok, (unsigned long)e.offset,
              (unsigned long)cases[i].offset, ok ? "" : e.reason);
        if (ok) json_doc_free(&doc);
    }
    {
        static const char with_nul[] = "[\"a\0b\"]";
        static const char nul_outside[] = "[1,\0 2]";
        json_doc doc;
        json_error e;
        CHECK(!json_doc_read(&doc, with_nul, sizeof with_nul - 1, &e) && e.offset == 3 && strstr(e.reason, "NUL"),
              "a NUL byte inside a string: %lu %s", (unsigned long)e.offset, e.reason);
        CHECK(!json_doc_read(&doc, nul_outside, sizeof nul_outside - 1, &e) && e.offset == 3 && strstr(e.reason, "NUL"),
              "a NUL byte between values: %lu %s", (unsigned long)e.offset, e.reason);
        CHECK(!json_doc_read(&doc, "[1, 2]", 4, &e) && e.offset == 4 && strstr(e.reason, "ends"),
              "only `length` bytes are read: %s", e.reason);
    }
    {
        char number[400];
        json_doc doc;
        json_error e;
        number[0] = '[';
        memset(number + 1, '7', 330);
        strcpy(number + 331, "]");
        CHECK(!read_text(&doc, number, &e) && e.offset == 1 && strstr(e.reason, "320"),
              "a 330-digit number is refused: %s", e.reason);
    }
}

/* 1,000 nested arrays read; 1,001 are refused at the 1,001st bracket. A
 * million open brackets take one pass (no recursion, no backward walks). */
static void test_nesting(void) {
    size_t depth;
    for (depth = JSON_MAX_DEPTH; depth <= JSON_MAX_DEPTH + 1; ++depth) {
        char *text = (char *)malloc(2 * depth + 1);
        json_doc doc;
        json_error e;
        int ok;
        memset(text, '[', depth);
        memset(text + depth, ']', depth);
        text[2 * depth] = '\0';
        ok = read_text(&doc, text, &e);
        if (depth == JSON_MAX_DEPTH) {
            CHECK(ok && doc.value_count == depth && layout_consistent(&doc) && doc.values[depth - 1].count == 0,
                  "1000 nested arrays read: %s", ok ? "" : e.reason);
            if (ok) json_doc_free(&doc);
        } else {
            CHECK(!ok && e.offset == JSON_MAX_DEPTH && strstr(e.reason, "deeper than 1000"),
                  "1001 nested arrays refused at byte 1000: %lu %s", (unsigned long)e.offset, ok ? "" : e.reason);
        }
        free(text);
    }
    {
        size_t n = 1000000;
        char *text = (char *)malloc(n);
        json_doc doc;
        json_error e;
        memset(text, '[', n);
        CHECK(!json_doc_read(&doc, text, n, &e) && e.offset == JSON_MAX_DEPTH, "a million '[' stop at the limit");
        free(text);
    }
}

/* Random documents from a small grammar: both readers accept them, and
 * every value agrees. */
static void append(char **text, size_t *used, size_t *room, const char *piece) {
    size_t n = strlen(piece);
    if (*used + n + 1 > *room) {
        *room = 2 * (*used + n + 1);
        *text = (char *)realloc(*text, *room);
    }
    memcpy(*text + *used, piece, n + 1);
    *used += n;
}

static void random_value(rng *r, int depth, char **text, size_t *used, size_t *room) {
    static const char *const scalars[] = {
        "null",  "true",           "false", "0",   "-1.25", "3e-7", "12345678901234567890",
        "\"s\"", "\"\\u00e9\\n\"", "\"\"",  " 7 ", "-0.0"};
    int kind = depth > 4 ? 2 : (int)(rng_next(r) % 3);
    int n = (int)(rng_next(r) % 4), i;
    char key[32];
    if (kind == 2) {
        append(text, used, room, scalars[rng_next(r) % (sizeof scalars / sizeof scalars[0])]);
        return;
    }
    append(text, used, room, kind ? "[" : "{");
    for (i = 0; i < n; ++i) {
        if (i) append(text, used, room, ",\n");
        if (!kind) {
            snprintf(key, sizeof key, "\"k%d\" : ", (int)(rng_next(r) % 3));
            append(text, used, room, key);
        }
        random_value(r, depth + 1, text, used, room);
    }
    append(text, used, room, kind ? "]" : "}");
}

static void test_agrees_with_cjson(void) {
    check_property prop = {"documents both readers accept agree value for value", 0, 0};
    rng r = rng_seeded(42);
    int k;
    for (k = 0; k < 500; ++k) {
        size_t used = 0, room = 64;
        char *text = (char *)malloc(room);
        json_doc doc;
        json_error e;
        cJSON *c;
        int ok;
        text[0] = '\0';
        random_value(&r, 0, &text, &used, &room);
        ok = read_text(&doc, text, &e);
        c = cJSON_Parse(text);
        PROPERTY_CASE(prop, ok && c && layout_consistent(&doc) && same_as_cjson(&doc.values[0], c), "%s", text);
        if (ok) json_doc_free(&doc);
        cJSON_Delete(c);
        free(text);
    }
    property_end(&prop);
}

int main(void) {
    test_layout_and_lookups();
    test_strings();
    test_numbers();
    test_refused();
    test_nesting();
    test_agrees_with_cjson();
    return check_summary("test_json_doc");
}

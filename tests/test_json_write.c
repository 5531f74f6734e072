/* The JSON writer (src/io/json_write.c) against what it replaced: cJSON's
 * tree printed with its numbers turned into text by printf's "%.15g",
 * "%.16g", "%.17g" and strtod. Numbers are compared text for text with that
 * reference over seeded random doubles of every kind; documents (random
 * ones with repeated keys, odd strings and numbers, and the real rigs in
 * $IKIT_DATA/gltf) byte for byte with cJSON_Print and
 * cJSON_PrintUnformatted, without and with patches (made on the cJSON side
 * with cJSON's replace, add and delete calls, as the glTF writer did); and
 * a posed generated rig written by ik_gltf_write_memory byte for byte with
 * the tree the old ik_gltf_set_pose made. */
#include <cjson/cJSON.h>
#include <ikit/gltf.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/io/json_write.h"
#include "support/big_rig.h"
#include "support/check.h"
#include "support/rng.h"
#include "support/test_groups.h"

/* ---- the reference ------------------------------------------------------- */

static void reference_number(double d, char text[40]) {
    int digits;
    if (d != d) {
        strcpy(text, "null");
        return;
    }
    if (d - d != 0) {
        strcpy(text, d > 0 ? "1e999" : "-1e999");
        return;
    }
    if (d > -9007199254740992.0 && d < 9007199254740992.0 && d == (double)(long long)d && (d != 0 || 1 / d > 0)) {
        snprintf(text, 40, "%lld", (long long)d);
        return;
    }
    for (digits = 15; digits < 17; ++digits) {
        snprintf(text, 40, "%.*g", digits, d);
        if (strtod(text, NULL) == d) return;
    }
    snprintf(text, 40, "%.17g", d);
}

/* Every number of the tree made raw text by reference_number (recursion:
 * the documents here are shallow). */
static int reference_numbers(cJSON *item) {
    for (; item; item = item->next) {
        if (cJSON_IsNumber(item)) {
            char text[40];
            item->valuestring = (char *)cJSON_malloc(40);
            if (!item->valuestring) return 0;
            reference_number(item->valuedouble, text);
            strcpy(item->valuestring, text);
            item->type = cJSON_Raw;
        }
        if (item->child && !reference_numbers(item->child)) return 0;
    }
    return 1;
}

/* ---- numbers ------------------------------------------------------------- */

static void check_number(check_property *p, double d) {
    char got[40], want[40];
    size_t n = json_number_text(d, got);
    reference_number(d, want);
    PROPERTY_CASE(*p, strcmp(got, want) == 0 && n == strlen(want), "%.17g: \"%s\", printf \"%s\"", d, got, want);
}

static double from_bits(uint64_t bits) {
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static void test_numbers(void) {
    check_property p = {"numbers as printf and strtod give them", 0, 0};
    rng r = rng_seeded(31);
    int i, k;
    static const double named[] = {0.0,
                                   -0.0,
                                   1.0,
                                   -1.0,
                                   0.5,
                                   0.1,
                                   0.2,
                                   0.3,
                                   1e-5,
                                   1e-4,
                                   1e-11,
                                   1e-12,
                                   9.5e-5,
                                   1e15,
                                   1e16,
                                   1e17,
                                   1e21,
                                   123456.789,
                                   0.01,
                                   1e300,
                                   -1e-300,
                                   5e-324,
                                   2.2250738585072014e-308,
                                   1.7976931348623157e308,
                                   9007199254740992.0,
                                   9007199254740993.0,
                                   4503599627370495.5,
                                   0.1f,
                                   0.010000000707805157,
                                   1.0000001192092896,
                                   99999999999999.99};
    for (i = 0; i < (int)(sizeof named / sizeof named[0]); ++i) check_number(&p, named[i]);
    check_number(&p, HUGE_VAL);
    check_number(&p, -HUGE_VAL);
    /* any bit pattern (every exponent; NaN aside) */
    for (i = 0; i < 40000; ++i) {
        double d = from_bits(rng_next(&r));
        if (d == d) check_number(&p, d);
    }
    /* floats widened, as a pose's numbers are in the float build */
    for (i = 0; i < 60000; ++i) {
        uint32_t bits = (uint32_t)rng_next(&r);
        float f;
        bits = (bits & 0x807FFFFFu) | ((uint32_t)(90 + rng_next(&r) % 80) << 23); /* 2^-37 to 2^42 */
        memcpy(&f, &bits, sizeof f);
        check_number(&p, (double)f);
    }
    /* short decimals as a file holds them, at every scale the fast path covers and beyond */
    for (i = 0; i < 60000; ++i) {
        char text[64];
        int digits = 1 + (int)(rng_next(&r) % 17), exponent = (int)(rng_next(&r) % 44) - 22;
        uint64_t m = rng_next(&r) % 100000000000000000ULL;
        m %= (uint64_t)pow(10, digits);
        snprintf(text, sizeof text, "%s%llue%d", rng_next(&r) & 1 ? "-" : "", (unsigned long long)m, exponent);
        check_number(&p, strtod(text, NULL));
    }
    /* uniform values, and their neighbours */
    for (i = 0; i < 30000; ++i) {
        double d = (rng_unit(&r) - 0.5) * pow(10, (int)(rng_next(&r) % 30) - 12);
        check_number(&p, d);
        check_number(&p, nextafter(d, HUGE_VAL));
        check_number(&p, nextafter(d, -HUGE_VAL));
    }
    /* powers of two (the narrower gap below) and of ten, and their neighbours */
    for (k = -60; k <= 70; ++k) {
        double two = ldexp(1, k), ten = pow(10, k / 3);
        check_number(&p, two);
        check_number(&p, nextafter(two, 0));
        check_number(&p, nextafter(two, HUGE_VAL));
        check_number(&p, ten);
        check_number(&p, nextafter(ten, 0));
        check_number(&p, nextafter(ten, HUGE_VAL));
    }
    /* exact ties of the 15th, 16th and 17th digit: small integers over powers of two */
    for (i = 0; i < 30000; ++i) {
        double d = ldexp((double)(rng_next(&r) % 4000000 + 1), -(int)(rng_next(&r) % 60));
        check_number(&p, d);
        check_number(&p, d * 1e5 + 0.5);
    }
    property_end(&p);
}

/* ---- documents ----------------------------------------------------------- */

typedef struct text_buf {
    char *s;
    size_t n, cap;
} text_buf;

static void put(text_buf *t, const char *s) {
    size_t n = strlen(s);
    if (t->n + n + 1 > t->cap) {
        t->cap = 2 * (t->n + n + 1);
        t->s = (char *)realloc(t->s, t->cap);
    }
    memcpy(t->s + t->n, s, n + 1);
    t->n += n;
}

static const char *const keys[] = {"a", "translation", "b\\\"q", "rotation", "\\u00e9t\\u00e9", "\\n\\t\\u0001"};

static void random_value(text_buf *t, rng *r, int depth) {
    int kind = (int)(rng_next(r) % (depth > 4 ? 4 : 7)), n, i;
    char text[64];
    switch (kind) {
        case 0:
            snprintf(text, sizeof text, "%.*g", 1 + (int)(rng_next(r) % 17),
                     (rng_unit(r) - 0.5) * pow(10, (int)(rng_next(r) % 20) - 8));
            put(t, text);
            break;
        case 1:
            put(t, rng_next(r) % 5 == 0 ? "1e999" : rng_next(r) % 4 == 0 ? "-0" : rng_next(r) & 1 ? "true" : "null");
            break;
        case 2:
            snprintf(text, sizeof text, "%ld", (long)(rng_next(r) % 100000) - 50);
            put(t, text);
            break;
        case 3:
            put(t, rng_next(r) & 1 ? "\"plain\""
                                   : "\"\\\"x\\\\y\\/\\b\\f\\n\\r\\t\\u0002\\u001f\\u007f caf\\u00e9 \xe2\x82\xac\"");
            break;
        case 4:
        case 5:
            n = (int)(rng_next(r) % 5);
            put(t, "[");
            for (i = 0; i < n; ++i) {
                if (i) put(t, ",");
                random_value(t, r, depth + 1);
            }
            put(t, "]");
            break;
        default:
            n = (int)(rng_next(r) % 6);
            put(t, "{");
            for (i = 0; i < n; ++i) {
                if (i) put(t, ", ");
                put(t, "\"");
                put(t, keys[rng_next(r) % (sizeof keys / sizeof keys[0])]);
                put(t, "\" : ");
                random_value(t, r, depth + 1);
            }
            put(t, "}");
    }
}

/* The objects of each side in document order. */
static int doc_objects(const json_value *root, const json_value **out, int max) {
    const json_value *v;
    int n = 0;
    for (v = root; v < root + root->skip; ++v)
        if (v->type == JSON_OBJECT && n < max) out[n++] = v;
    return n;
}

static void tree_objects(cJSON *item, cJSON **out, int *n, int max) {
    for (; item; item = item->next) {
        if (cJSON_IsObject(item) && *n < max) out[(*n)++] = item;
        if (item->child) tree_objects(item->child, out, n, max);
    }
}

/* cJSON's side of a patch, as the glTF writer made it. */
static void tree_patch(cJSON *obj, const json_patch *p) {
    cJSON *item, *next, *kept = NULL;
    if (p->kind != JSON_PATCH_REMOVE) {
        cJSON *value = p->kind == JSON_PATCH_NUMBER   ? cJSON_CreateNumber(p->number)
                       : p->kind == JSON_PATCH_STRING ? cJSON_CreateString(p->string)
                                                      : cJSON_CreateDoubleArray(p->numbers, p->count);
        if (cJSON_GetObjectItemCaseSensitive(obj, p->key))
            cJSON_ReplaceItemInObjectCaseSensitive(obj, p->key, value);
        else
            cJSON_AddItemToObject(obj, p->key, value);
        kept = cJSON_GetObjectItemCaseSensitive(obj, p->key);
    }
    for (item = obj->child; item; item = next) {
        next = item->next;
        if (item != kept && strcmp(item->string, p->key) == 0) cJSON_Delete(cJSON_DetachItemViaPointer(obj, item));
    }
}

/* `text` printed both ways by json_print (with `patches`) and by cJSON. */
static int same_as_cjson(const char *text, size_t length, const json_patch *patches, size_t count, cJSON **tree_of,
                         int formatted, const char *what) {
    json_doc doc;
    json_error err;
    json_out out = {NULL, 0, 0, 0};
    cJSON *tree = cJSON_ParseWithLength(text, length);
    char *want = NULL;
    int same = 0;
    if (!json_doc_read(&doc, text, length, &err) || !tree) {
        CHECK(0, "%s: does not read", what);
        cJSON_Delete(tree);
        return 0;
    }
    if (count) {
        const json_value *objects[64];
        cJSON *items[64];
        size_t i;
        int n = doc_objects(doc.values, objects, 64), m = 0, o;
        json_patch *fixed = (json_patch *)malloc(count * sizeof *fixed);
        tree_objects(tree, items, &m, 64);
        size_t first;
        for (i = 0; i < count; ++i) {
            fixed[i] = patches[i];
            o = (int)(size_t)patches[i].object; /* an object's position in document order */
            fixed[i].object = o < n ? objects[o] : NULL;
        }
        /* on the tree, the later objects first: an object inside a member
         * that an earlier object's patch replaces is edited before it goes */
        for (i = count; i > 0; i = first) {
            size_t k;
            for (first = i - 1; first > 0 && patches[first - 1].object == patches[i - 1].object;) --first;
            o = (int)(size_t)patches[first].object;
            for (k = first; k < i && o < m; ++k) tree_patch(items[o], &patches[k]);
        }
        same = json_print(&out, doc.values, fixed, count, formatted);
        free(fixed);
    } else {
        same = json_print(&out, doc.values, NULL, 0, formatted);
    }
    (void)tree_of;
    if (same && reference_numbers(tree)) want = formatted ? cJSON_Print(tree) : cJSON_PrintUnformatted(tree);
    if (!same || !want) CHECK(0, "%s: json_print %d, cJSON %s (%s)", what, same, want ? "printed" : "failed", text);
    same = same && want && strcmp(out.text, want) == 0;
    if (!same && want && out.text) {
        size_t at = 0;
        while (out.text[at] && out.text[at] == want[at]) ++at;
        CHECK(0, "%s (%s): differs at byte %lu: \"%.40s\" against cJSON's \"%.40s\"", what,
              formatted ? "formatted" : "compact", (unsigned long)at, out.text + at, want + at);
    }
    cJSON_free(want);
    cJSON_Delete(tree);
    json_out_free(&out);
    json_doc_free(&doc);
    return same;
}

static void test_random_documents(void) {
    check_property p = {"random documents print as cJSON prints them", 0, 0};
    rng r = rng_seeded(3131);
    static const double three[3] = {0.1, -2.5e-7, 1e20}, four[4] = {0.70710678118654757, 0, -0.0, 1};
    int i, formatted;
    for (i = 0; i < 600; ++i) {
        text_buf t = {NULL, 0, 0};
        json_patch patches[12];
        size_t count = 0;
        int objects = 0, o;
        const char *s;
        put(&t, "{\"x\":");
        random_value(&t, &r, 0);
        put(&t, ",\"a\":1,\"a\":[2],\"translation\":{}}");
        for (s = t.s; *s; ++s) objects += *s == '{';
        /* patches on a few objects in document order (positions stand for the objects here) */
        for (o = 0; o < objects && count + 3 <= 12 && i % 3; ++o) {
            int n = (int)(rng_next(&r) % 3), k;
            if (rng_next(&r) % 2) continue;
            for (k = 0; k < n; ++k) {
                json_patch *q = &patches[count++];
                memset(q, 0, sizeof *q);
                q->object = (const json_value *)(size_t)o;
                q->key = k == 0 ? "a" : k == 1 ? "translation" : "b\"q";
                q->kind = (json_patch_kind)(rng_next(&r) % 4);
                q->number = k ? 1e-7 * (double)i : (double)i;
                q->string = "new \"one\"\n";
                q->numbers = k == 1 ? four : three;
                q->count = k == 1 ? 4 : 3;
            }
        }
        for (formatted = 0; formatted < 2; ++formatted)
            PROPERTY_CASE(p, same_as_cjson(t.s, t.n, patches, count, NULL, formatted, "random"), "document %d", i);
        free(t.s);
    }
    property_end(&p);
}

/* The real rigs' JSON, both ways. */
static void test_real_documents(void) {
    static const char *const files[] = {"robot.glb", "girl.glb", "rigged_figure.glb", "male_base_mesh.glb",
                                        "SimpleSkin.gltf"};
    const char *dir = getenv("IKIT_DATA");
    size_t i;
    if (!dir) {
        check_skip("real-asset corpus not found (IKIT_DATA unset)");
        return;
    }
    for (i = 0; i < sizeof files / sizeof files[0]; ++i) {
        char path[700];
        FILE *f;
        long size;
        unsigned char *data;
        const char *json;
        size_t length;
        snprintf(path, sizeof path, "%s/gltf/%s", dir, files[i]);
        if (!(f = fopen(path, "rb"))) {
            check_skip("a glTF rig of the corpus is missing");
            continue;
        }
        fseek(f, 0, SEEK_END);
        size = ftell(f);
        fseek(f, 0, SEEK_SET);
        data = (unsigned char *)malloc((size_t)size + 1);
        CHECK(data && fread(data, 1, (size_t)size, f) == (size_t)size, "%s read", files[i]);
        fclose(f);
        json = (const char *)data;
        length = (size_t)size;
        if (size > 20 && memcmp(data, "glTF", 4) == 0) { /* the GLB's JSON chunk, spaces trimmed */
            length = (size_t)data[12] | (size_t)data[13] << 8 | (size_t)data[14] << 16 | (size_t)data[15] << 24;
            json = (const char *)data + 20;
            while (length > 0 && json[length - 1] == ' ') --length;
        }
        CHECK(same_as_cjson(json, length, NULL, 0, NULL, 1, files[i]), "%s formatted", files[i]);
        CHECK(same_as_cjson(json, length, NULL, 0, NULL, 0, files[i]), "%s compact", files[i]);
        free(data);
    }
}

/* A posed rig: what ik_gltf_set_pose and ik_gltf_write_memory write is what
 * the old writer made of the tree (each joint's node: matrix removed,
 * translation, rotation and scale set to its pose as doubles). */
static void test_posed_rig(void) {
    const int joints = 3000;
    char *text = big_rig_gltf(joints, 0); /* a root and its leaves: scales do not multiply up */
    ik_gltf *g = NULL;
    ik_error e;
    ik_transform *pose = (ik_transform *)malloc((size_t)joints * sizeof *pose);
    cJSON *tree = cJSON_Parse(text), *node;
    rng r = rng_seeded(7);
    int j, binary;
    CHECK(text && pose && tree && ik_gltf_read_memory(text, strlen(text), NULL, &g, &e) == IK_OK, "rig read");
    if (!g) return;
    j = 0;
    cJSON_ArrayForEach(node, cJSON_GetObjectItemCaseSensitive(tree, "nodes")) {
        ik_quat q = ik_quat_normalize(ik_q(rng_range(&r, -1, 1), rng_range(&r, -1, 1), rng_range(&r, -1, 1), 1));
        double t[3], rot[4], s[3];
        pose[j] = ik_transform_identity();
        pose[j].translation = ik_v3(rng_range(&r, -2, 2), rng_range(&r, -1e-3, 1e-3), (ik_real)j * (ik_real)0.37);
        pose[j].rotation = q;
        pose[j].scale = ik_v3(1, rng_range(&r, 0.5, 2), 1);
        q = ik_quat_normalize(q);
        t[0] = (double)pose[j].translation.x, t[1] = (double)pose[j].translation.y,
        t[2] = (double)pose[j].translation.z;
        rot[0] = (double)q.x, rot[1] = (double)q.y, rot[2] = (double)q.z, rot[3] = (double)q.w;
        s[0] = (double)pose[j].scale.x, s[1] = (double)pose[j].scale.y, s[2] = (double)pose[j].scale.z;
        cJSON_ReplaceItemInObjectCaseSensitive(node, "translation", cJSON_CreateDoubleArray(t, 3));
        cJSON_AddItemToObject(node, "rotation", cJSON_CreateDoubleArray(rot, 4));
        cJSON_AddItemToObject(node, "scale", cJSON_CreateDoubleArray(s, 3));
        ++j;
    }
    CHECK(j == joints, "%d nodes", j);
    CHECK(ik_gltf_set_pose(g, 0, pose, &e) == IK_OK, "set_pose: %s", e.message);
    CHECK(reference_numbers(tree), "reference numbers");
    for (binary = 0; binary < 2; ++binary) {
        unsigned char *out = NULL;
        size_t size = 0, length;
        char *want = binary ? cJSON_PrintUnformatted(tree) : cJSON_Print(tree);
        const char *json;
        CHECK(ik_gltf_write_memory(g, binary, &out, &size, &e) == IK_OK, "write: %s", e.message);
        json = (const char *)out + (binary ? 20 : 0);
        length = binary && out ? (size_t)out[12] | (size_t)out[13] << 8 | (size_t)out[14] << 16 : size;
        while (binary && length > 0 && json[length - 1] == ' ') --length;
        CHECK(out && want && length == strlen(want) && memcmp(json, want, length) == 0,
              "posed rig (%s): %lu bytes written, %lu by the cJSON tree", binary ? "glb" : "gltf",
              (unsigned long)length, (unsigned long)(want ? strlen(want) : 0));
        free(out);
        cJSON_free(want);
    }
    cJSON_Delete(tree);
    ik_gltf_free(g);
    free(pose);
    free(text);
}

/* Out of memory halfway and a patch on no object leave nothing behind. */
static void test_bad_patch(void) {
    json_doc doc;
    json_error err;
    json_out out = {NULL, 0, 0, 0};
    json_patch patch;
    const char *text = "{\"a\":[1,{\"b\":2}],\"c\":3}";
    CHECK(json_doc_read(&doc, text, strlen(text), &err), "read");
    memset(&patch, 0, sizeof patch);
    patch.object = doc.values + 2; /* the array [1,...], not an object */
    patch.key = "a";
    CHECK(!json_print(&out, doc.values, &patch, 1, 0) && out.length == 0, "a patch on an array is refused");
    patch.object = doc.values + 4; /* {"b":2} */
    patch.kind = JSON_PATCH_NUMBER;
    patch.number = 0.25;
    CHECK(
        json_print(&out, doc.values, &patch, 1, 0) && strcmp(out.text, "{\"a\":[1,{\"b\":2,\"a\":0.25}],\"c\":3}") == 0,
        "patched: %s", out.text);
    json_out_free(&out);
    json_doc_free(&doc);
}

/* one group a line: CMake reads the table line by line (test_groups.h) */
/* clang-format off */
static const test_group groups[] = {
    TEST_GROUP(numbers),
    TEST_GROUP(random_documents),
    TEST_GROUP(real_documents),
    TEST_GROUP(posed_rig),
    TEST_GROUP(bad_patch),
};
/* clang-format on */

int main(int argc, char **argv) {
    if (!test_groups_run(groups, (int)(sizeof groups / sizeof groups[0]), argc, argv)) return EXIT_FAILURE;
    return check_summary("test_json_write");
}

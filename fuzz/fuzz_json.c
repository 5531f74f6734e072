/* libFuzzer entry point for the strict JSON reader under the glTF reader
 * (src/io/json_doc.h): any bytes are read or refused with an offset inside
 * the text and a reason, never a crash, a hang or unbounded memory. What is
 * read must be laid out consistently (skips and counts agree with stepping,
 * strings as long as they say) and, when cJSON also accepts the text,
 * agree with cJSON value for value, numbers to the bit; anything else aborts
 * (a finding). */
#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../src/io/json_doc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Our value `v` against cJSON's `c`, walked with an explicit stack of pairs
 * (the text may nest 1,000 deep). */
static int agrees_with_cjson(const json_value *v, const cJSON *c) {
    static const json_value *ours[JSON_MAX_DEPTH + 1];
    static const cJSON *theirs[JSON_MAX_DEPTH + 1];
    int depth = 0;
    for (;;) {
        switch (v->type) {
            case JSON_NULL:
                if (!cJSON_IsNull(c)) return 0;
                break;
            case JSON_FALSE:
                if (!cJSON_IsFalse(c)) return 0;
                break;
            case JSON_TRUE:
                if (!cJSON_IsTrue(c)) return 0;
                break;
            case JSON_NUMBER:
                if (!cJSON_IsNumber(c) || memcmp(&v->as.number, &c->valuedouble, sizeof(double)) != 0) return 0;
                break;
            case JSON_STRING:
                if (!cJSON_IsString(c) || strcmp(v->as.string, c->valuestring) != 0) return 0;
                break;
            default:
                if (v->type == JSON_ARRAY ? !cJSON_IsArray(c) : !cJSON_IsObject(c)) return 0;
                if ((long)v->count != cJSON_GetArraySize(c)) return 0;
                if (v->count) {
                    ours[depth] = v;
                    theirs[depth++] = c;
                    v = json_first(v);
                    c = c->child;
                    if (ours[depth - 1]->type == JSON_OBJECT && strcmp(json_key_of(v), c->string) != 0) return 0;
                    continue;
                }
        }
        /* to the next sibling, climbing out of finished containers */
        for (;;) {
            if (depth == 0) return 1;
            v = json_next(ours[depth - 1], v);
            c = c->next;
            if (v) {
                if (ours[depth - 1]->type == JSON_OBJECT && strcmp(json_key_of(v), c->string) != 0) return 0;
                break;
            }
            --depth;
            v = ours[depth];
            c = theirs[depth];
        }
    }
}

static void check_layout(const json_doc *doc) {
    size_t i;
    if (doc->value_count == 0 || doc->values[0].skip != doc->value_count) abort();
    for (i = 0; i < doc->value_count; ++i) {
        const json_value *v = &doc->values[i], *item;
        uint32_t n = 0;
        if (v->skip < 1 || i + v->skip > doc->value_count) abort();
        if (v->type == JSON_STRING && strlen(v->as.string) != v->count) abort();
        if (v->type == JSON_NUMBER && v->as.number != v->as.number) abort();
        if (v->type != JSON_ARRAY && v->type != JSON_OBJECT) continue;
        JSON_FOR_EACH(item, v) {
            if (v->type == JSON_OBJECT && item[-1].type != JSON_STRING) abort();
            ++n;
        }
        if (n != v->count) abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    json_doc doc;
    json_error e;
    cJSON *c;
    if (!json_doc_read(&doc, (const char *)data, size, &e)) {
        if (e.offset > size || !e.reason || !e.reason[0]) abort();
        return 0;
    }
    check_layout(&doc);
    c = cJSON_ParseWithLength((const char *)data, size);
    if (c && !agrees_with_cjson(&doc.values[0], c)) abort();
    cJSON_Delete(c);
    json_doc_free(&doc);
    return 0;
}

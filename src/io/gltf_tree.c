/* The glTF writer's cJSON tree: built from the reader's flat json_doc (whose
 * values lie in document order, each followed by all it holds) and, after
 * an edit, printed and read back into a json_doc. Both walks are iterative
 * with a stack that grows on the heap. */
#include "gltf_tree.h"

#include "json_write.h"

#include <stdlib.h>
#include <string.h>

/* Room for one more entry of `size` bytes on a stack of *capacity entries
 * holding `depth`; 0 when out of memory (the stack is kept). */
static int stack_reserve(void **stack, size_t *capacity, size_t depth, size_t size) {
    void *grown;
    size_t wanted;
    if (depth < *capacity) return 1;
    wanted = *capacity ? 2 * *capacity : 64;
    grown = realloc(*stack, wanted * size);
    if (!grown) return 0;
    *stack = grown;
    *capacity = wanted;
    return 1;
}

static cJSON *item_of(const json_value *v) {
    switch (v->type) {
        case JSON_FALSE:
            return cJSON_CreateFalse();
        case JSON_TRUE:
            return cJSON_CreateTrue();
        case JSON_NUMBER:
            return cJSON_CreateNumber(v->as.number);
        case JSON_STRING:
            return cJSON_CreateString(v->as.string);
        case JSON_ARRAY:
            return cJSON_CreateArray();
        case JSON_OBJECT:
            return cJSON_CreateObject();
        default:
            return cJSON_CreateNull();
    }
}

/* An array or object being filled, and the first value after it. */
typedef struct open_container {
    cJSON *item;
    const json_value *end;
} open_container;

cJSON *gltf_tree_of(const json_value *root) {
    const json_value *v = root, *end = root ? root + root->skip : root;
    open_container *open = NULL;
    size_t depth = 0, capacity = 0;
    cJSON *tree = NULL;
    while (v < end) {
        const char *key = NULL;
        cJSON *item, *parent;
        while (depth > 0 && v >= open[depth - 1].end) --depth;
        parent = depth > 0 ? open[depth - 1].item : NULL;
        if (cJSON_IsObject(parent)) key = (v++)->as.string; /* a member: its key, then its value */
        if (!(item = item_of(v))) goto out_of_memory;
        if (!parent) {
            tree = item;
        } else if (!(key ? cJSON_AddItemToObject(parent, key, item) : cJSON_AddItemToArray(parent, item))) {
            cJSON_Delete(item);
            goto out_of_memory;
        }
        if (v->type == JSON_ARRAY || v->type == JSON_OBJECT) {
            if (!stack_reserve((void **)&open, &capacity, depth, sizeof *open)) goto out_of_memory;
            open[depth].item = item;
            open[depth++].end = v + v->skip;
        }
        ++v;
    }
    free(open);
    return tree;
out_of_memory:
    free(open);
    cJSON_Delete(tree);
    return NULL;
}

/* A number as text that reads back as the same double (json_number_text;
 * infinities, from numbers beyond the double range, as a number beyond it
 * again). cJSON frees the text with the item. */
static int make_exact(cJSON *item) {
    char text[40];
    size_t length = json_number_text(item->valuedouble, text);
    char *copy = (char *)cJSON_malloc(length + 1);
    if (!copy) return 0;
    memcpy(copy, text, length + 1);
    item->type = cJSON_Raw;
    item->valuestring = copy;
    return 1;
}

/* In a depth-first walk: down to the first child, else on to the next
 * sibling, else back up. */
int gltf_tree_numbers_exact(cJSON *tree) {
    cJSON **up = NULL, *item = tree;
    size_t depth = 0, capacity = 0;
    for (;;) {
        if (cJSON_IsNumber(item) && !make_exact(item)) break;
        if (item->child) {
            if (!stack_reserve((void **)&up, &capacity, depth, sizeof *up)) break;
            up[depth++] = item;
            item = item->child;
            continue;
        }
        while (!item->next && depth > 0) item = up[--depth];
        if (item == tree) {
            free(up);
            return 1;
        }
        item = item->next;
    }
    free(up);
    return 0;
}

ik_result gltf_tree_read_back(cJSON *tree, json_doc *doc, ik_error *error) {
    json_error refused;
    char *text = gltf_tree_numbers_exact(tree) ? cJSON_PrintUnformatted(tree) : NULL;
    int ok;
    if (!text) return gltf_fail(error, IK_ERR_NO_MEMORY, "", "out of memory");
    ok = json_doc_read(doc, text, strlen(text), &refused);
    cJSON_free(text);
    if (ok) return IK_OK;
    if (refused.out_of_memory) return gltf_fail(error, IK_ERR_NO_MEMORY, "", "out of memory");
    return gltf_fail(error, IK_ERR_PARSE, "", "the edited document does not read back (JSON byte %lu): %s",
                     (unsigned long)refused.offset, refused.reason);
}

/* libFuzzer entry point for the io layer's strict XML reader (the URDF
 * reader's, natively and in the browser): any bytes must give IK_OK or an
 * error with a message at a line, never a crash, a hang or unbounded
 * memory; what loads must be one consistent tree: element 0 the root,
 * every parent before its children, the sibling lists exactly the children
 * (each element met once, under its own parent), attributes inside the
 * table with non-empty names, distinct within an element, and lines that
 * never decrease in document order. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../src/io/xml_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_tree(const ik_xml_doc *doc) {
    int e, c, a, b, seen = 1;
    if (doc->element_count < 1 || doc->elements[0].parent != -1) abort();
    for (e = 0; e < doc->element_count; ++e) {
        const ik_xml_element *el = &doc->elements[e];
        if (!el->name || !el->name[0] || el->line < 1) abort();
        if (e > 0 && (el->parent < 0 || el->parent >= e || el->line < doc->elements[e - 1].line)) abort();
        if (el->first_attribute < 0 || el->attribute_count < 0 ||
            el->first_attribute + el->attribute_count > doc->attribute_count)
            abort();
        for (a = 0; a < el->attribute_count; ++a) {
            const ik_xml_attribute *x = &doc->attributes[el->first_attribute + a];
            if (!x->name || !x->name[0] || !x->value) abort();
            for (b = 0; b < a; ++b)
                if (strcmp(doc->attributes[el->first_attribute + b].name, x->name) == 0) abort();
            if (ik_xml_attribute_value(doc, e, x->name) != x->value) abort();
        }
        for (c = el->first_child; c >= 0; c = doc->elements[c].next_sibling) {
            if (c <= e || c >= doc->element_count || doc->elements[c].parent != e) abort();
            if (++seen > doc->element_count) abort();
        }
    }
    if (seen != doc->element_count) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ik_xml_doc doc;
    ik_error err;
    ik_result r = ik_xml_read((const char *)data, size, &doc, &err);
    if (r == IK_OK) {
        check_tree(&doc);
        ik_xml_doc_free(&doc);
    } else if (doc.element_count != 0 || doc.elements || err.message[0] == '\0' ||
               (r != IK_ERR_NO_MEMORY && err.line < 1)) {
        abort();
    }
    return 0;
}

/* ikit io (private): a small strict XML reader, enough for URDF, shared by
 * the native build and the WebAssembly one (libxml2 does not build for
 * wasm32, and one reader gives ikc, Python and the page the same results
 * and the same words for a bad file).
 *
 * What it reads: UTF-8 text (a byte-order mark allowed), an optional XML
 * declaration at the very start, comments, processing instructions, one
 * root element with attributes ('...' or "...", values normalised as XML
 * 1.0 says: tab, line feed and carriage return become spaces), nested
 * elements, character data and CDATA sections (both skipped: URDF keeps
 * everything in attributes). References: the five predefined entities and
 * character references (&#N; &#xN;). What it refuses, with libxml2's words
 * for the same fault: a document type declaration (so any entity
 * declaration), other entities, malformed names, attributes or tags,
 * mismatched or unclosed elements, content after the root element, bytes
 * that are not UTF-8, characters XML forbids (controls other than tab, line
 * feed and carriage return), elements nested more than IK_XML_MAX_DEPTH
 * below the root (libxml2's own default limit). Nothing is fetched, loaded or expanded; the work is linear
 * in the input and iterative (no recursion). */
#ifndef IKIT_IO_XML_READ_H
#define IKIT_IO_XML_READ_H

#include <stddef.h>

#include <ikit/error.h>
#include <ikit/result.h>

#define IK_XML_MAX_DEPTH 256

typedef struct ik_xml_attribute {
    const char *name, *value; /* decoded, NUL-terminated, in the document's text */
} ik_xml_attribute;

/* Elements are stored in document order (element 0 is the root), so a
 * parent comes before its children. */
typedef struct ik_xml_element {
    const char *name;
    long line; /* the line of the start tag's closing '>' (as libxml2 numbers an element) */
    int parent, first_child, last_child, next_sibling; /* element indices, -1 for none */
    int first_attribute, attribute_count;              /* into attributes */
} ik_xml_element;

typedef struct ik_xml_doc {
    ik_xml_element *elements;
    int element_count;
    ik_xml_attribute *attributes;
    int attribute_count;
    char *text; /* every name and value */
} ik_xml_doc;

/* Reads `size` bytes (need not be NUL-terminated) into *doc. On failure
 * *doc is empty and error holds "line L, column C: <libxml2's words>";
 * IK_ERR_PARSE for a malformed document, IK_ERR_UNSUPPORTED for a DOCTYPE,
 * IK_ERR_NO_MEMORY. */
ik_result ik_xml_read(const char *data, size_t size, ik_xml_doc *doc, ik_error *error);
void ik_xml_doc_free(ik_xml_doc *doc);
/* The value of attribute `name` of element `element`, or NULL. */
const char *ik_xml_attribute_value(const ik_xml_doc *doc, int element, const char *name);

#endif

/* The io layer's strict XML reader (src/io/xml_read.h), which the URDF
 * reader runs on natively and in the browser, against libxml2 (Debian's,
 * read with the options the URDF reader used to give it): on every URDF of
 * the real-asset corpus and of examples/ the same elements, lines and
 * attribute values; on each file cut short at many places, and with a byte
 * put in or taken out at seeded places, both refuse or both read the same
 * tree; one named case per refused construct with libxml2's own words where
 * libxml2 stops at that fault; references decoded; limits; and the URDF
 * reader's messages for bad XML carry the reader's place. */
#include <dirent.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ikit/urdf.h>

#include "../src/io/xml_read.h"
#include "support/check.h"
#include "support/rng.h"

/* libxml2's document, or NULL with its last message in `message`. */
static xmlDocPtr libxml_read(const char *data, size_t size, char *message, size_t capacity) {
    const int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES;
    xmlParserCtxtPtr context = xmlNewParserCtxt();
    xmlDocPtr doc = xmlCtxtReadMemory(context, data, (int)size, NULL, "UTF-8", options);
    message[0] = '\0';
    if (!doc) {
        xmlErrorPtr e = xmlCtxtGetLastError(context);
        size_t length;
        snprintf(message, capacity, "%s", e && e->message ? e->message : "");
        length = strlen(message);
        while (length > 0 && (message[length - 1] == '\n' || message[length - 1] == ' ')) message[--length] = '\0';
    }
    xmlFreeParserCtxt(context);
    return doc;
}

/* "prefix:name" as written in the document. */
static void qualified(const xmlChar *name, const xmlNs *ns, char *out, size_t capacity) {
    if (ns && ns->prefix)
        snprintf(out, capacity, "%s:%s", (const char *)ns->prefix, (const char *)name);
    else
        snprintf(out, capacity, "%s", (const char *)name);
}

/* Element `e` of ours and libxml2's `node` alike, children and all: name,
 * line, attributes in order (namespace declarations are no attributes to
 * libxml2), values as xmlGetProp decodes them. Returns 0 and says where
 * they differ. */
static int same_element(const ik_xml_doc *doc, int e, xmlNode *node, const char *label) {
    const ik_xml_element *el = &doc->elements[e];
    char name[256];
    xmlAttr *a;
    xmlNode *c;
    int k = 0, child;
    qualified(node->name, node->ns, name, sizeof name);
    if (strcmp(name, el->name) != 0 || el->line != xmlGetLineNo(node)) {
        fprintf(stderr, "%s: element %d <%s> line %ld, libxml2 <%s> line %ld\n", label, e, el->name, el->line, name,
                xmlGetLineNo(node));
        return 0;
    }
    for (a = node->properties; a; a = a->next, ++k) {
        xmlChar *value = xmlNodeListGetString(node->doc, a->children, 1);
        const ik_xml_attribute *ours;
        int same;
        while (k < el->attribute_count && strncmp(doc->attributes[el->first_attribute + k].name, "xmlns", 5) == 0) ++k;
        qualified(a->name, a->ns, name, sizeof name);
        ours = k < el->attribute_count ? &doc->attributes[el->first_attribute + k] : NULL;
        same = ours && strcmp(ours->name, name) == 0 && strcmp(ours->value, value ? (const char *)value : "") == 0;
        if (!same)
            fprintf(stderr, "%s: <%s> line %ld: attribute %s=\"%s\", libxml2 %s=\"%s\"\n", label, el->name, el->line,
                    ours ? ours->name : "(none)", ours ? ours->value : "", name, value ? (const char *)value : "");
        xmlFree(value);
        if (!same) return 0;
    }
    while (k < el->attribute_count && strncmp(doc->attributes[el->first_attribute + k].name, "xmlns", 5) == 0) ++k;
    if (k != el->attribute_count) {
        fprintf(stderr, "%s: <%s> line %ld: %d attributes, libxml2 %d\n", label, el->name, el->line,
                el->attribute_count, k);
        return 0;
    }
    for (c = node->children, child = el->first_child; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE) continue;
        if (child < 0) {
            fprintf(stderr, "%s: <%s> line %ld has fewer children than libxml2's\n", label, el->name, el->line);
            return 0;
        }
        if (!same_element(doc, child, c, label)) return 0;
        child = doc->elements[child].next_sibling;
    }
    if (child >= 0) fprintf(stderr, "%s: <%s> line %ld has more children than libxml2's\n", label, el->name, el->line);
    return child < 0;
}

/* Both readers on the same bytes: 1 when they agree (both refuse, or both
 * read the same tree), 0 otherwise (said on stderr). *accepted is ours. */
static int agree(const char *data, size_t size, const char *label, int *accepted) {
    ik_xml_doc doc;
    ik_error err;
    char theirs[256];
    ik_result r = ik_xml_read(data, size, &doc, &err);
    xmlDocPtr x = libxml_read(data, size, theirs, sizeof theirs);
    int same;
    if (x && (x->intSubset || x->extSubset)) { /* a DOCTYPE: ours refuses what libxml2 reads */
        same = r == IK_ERR_UNSUPPORTED;
    } else if (r == IK_OK && x) {
        same = doc.element_count > 0 && same_element(&doc, 0, xmlDocGetRootElement(x), label);
    } else {
        same = (r == IK_OK) == (x != NULL);
        if (!same)
            fprintf(stderr, "%s: ours %s (%s), libxml2 %s (%s)\n", label, r == IK_OK ? "reads" : "refuses",
                    r == IK_OK ? "" : err.message, x ? "reads" : "refuses", theirs);
        if (r != IK_OK && (!err.message[0] || err.line < 1)) {
            fprintf(stderr, "%s: refused without a place: '%s'\n", label, err.message);
            same = 0;
        }
    }
    if (accepted) *accepted = r == IK_OK;
    if (x) xmlFreeDoc(x);
    ik_xml_doc_free(&doc);
    return same;
}

static char *read_whole(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    char *data = NULL;
    long length;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (length = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        data = (char *)malloc((size_t)length + 1);
        if (data && fread(data, 1, (size_t)length, f) != (size_t)length) {
            free(data);
            data = NULL;
        }
        *size = (size_t)length;
    }
    fclose(f);
    return data;
}

/* The file cut short at 97 places, and with one of "<>&\"'/=! " put in or a
 * byte taken out at 200 seeded places: the readers agree every time. */
static void mutate(const char *data, size_t size, const char *path, check_property *prop) {
    static const char bytes[] = "<>&\"'/=! ";
    char *copy = (char *)malloc(size + 1), label[1200];
    rng rng_state = rng_seeded(27);
    int k;
    if (!copy) return;
    for (k = 1; k <= 97; ++k) {
        size_t cut = size * (size_t)k / 98;
        snprintf(label, sizeof label, "%s cut at %lu", path, (unsigned long)cut);
        PROPERTY_CASE(*prop, agree(data, cut, label, NULL), "%s", label);
    }
    for (k = 0; k < 200; ++k) {
        size_t at = (size_t)(rng_next(&rng_state) % size), length;
        if (k % 2) {
            memcpy(copy, data, at);
            copy[at] = bytes[rng_next(&rng_state) % (sizeof bytes - 1)];
            memcpy(copy + at + 1, data + at, size - at);
            length = size + 1;
            snprintf(label, sizeof label, "%s with '%c' put in at %lu", path, copy[at], (unsigned long)at);
        } else {
            memcpy(copy, data, at);
            memcpy(copy + at, data + at + 1, size - at - 1);
            length = size - 1;
            snprintf(label, sizeof label, "%s without byte %lu", path, (unsigned long)at);
        }
        PROPERTY_CASE(*prop, agree(copy, length, label, NULL), "%s", label);
    }
    free(copy);
}

/* Every .urdf file below `dir` (recursively): the same tree as libxml2's,
 * and the mutations agree. Returns how many files were read. */
static int read_tree(const char *dir, check_property *same, check_property *mutated) {
    DIR *d = opendir(dir);
    struct dirent *entry;
    int files = 0;
    if (!d) return 0;
    while ((entry = readdir(d)) != NULL) {
        char path[1024];
        size_t length = strlen(entry->d_name), size = 0;
        char *data;
        if (entry->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        if (length < 5 || strcmp(entry->d_name + length - 5, ".urdf") != 0) {
            files += read_tree(path, same, mutated);
            continue;
        }
        data = read_whole(path, &size);
        if (!data) continue;
        {
            int accepted = 0;
            PROPERTY_CASE(*same, agree(data, size, path, &accepted) && accepted, "%s", path);
        }
        mutate(data, size, path, mutated);
        free(data);
        ++files;
    }
    closedir(d);
    return files;
}

static void test_real_files(void) {
    check_property same = {"corpus: the same tree as libxml2", 0, 0};
    check_property mutated = {"corpus cut short or mutated: both refuse or the same tree", 0, 0};
    const char *data = getenv("IKIT_DATA");
    char dir[1024];
    int files = read_tree(IKIT_SOURCE_DIR "/examples", &same, &mutated);
    if (data) {
        snprintf(dir, sizeof dir, "%s/urdf", data);
        files += read_tree(dir, &same, &mutated);
    }
    CHECK(files >= 1, "no URDF found");
    if (!data || files < 4) check_skip("real-asset corpus (IKIT_DATA/urdf) absent: examples/ only");
    property_end(&same);
    property_end(&mutated);
}

typedef struct bad_case {
    const char *text;
    long line, column;   /* where ours says it stopped */
    const char *message; /* ours, after "XML: " */
    int same_as_libxml2; /* libxml2's last message is the same */
} bad_case;

static void test_refused(void) {
    static const bad_case cases[] = {
        {" ", 1, 2, "Start tag expected, '<' not found", 1},
        {"x", 1, 1, "Start tag expected, '<' not found", 1},
        {"<robot", 1, 7, "Couldn't find end of Start Tag robot line 1", 1},
        {"<robot>", 1, 8, "Premature end of data in tag robot line 1", 1},
        {"<robot name=\"r\">", 1, 17, "Premature end of data in tag robot line 1", 1},
        {"<robot><link name=\"a\"/", 1, 23, "Couldn't find end of Start Tag link line 1", 0},
        {"<?xml?><robot/>", 1, 6, "XML declaration allowed only at the start of the document", 1},
        {"<?xml version=\"1.0\"encoding=\"UTF-8\"?><r/>", 1, 20, "Blank needed here", 1},
        {"<?xml version=\"2.0\"?><r/>", 1, 20, "Unsupported version '2.0'", 1},
        {"<?xml version=\"1.0\" foo=\"x\"?><r/>", 1, 21, "parsing XML declaration: '?>' expected", 1},
        {"<robot>\n<link>\n</robot>", 3, 9, "Opening and ending tag mismatch: link line 2 and robot", 0},
        {"<robot></link>", 1, 15, "Opening and ending tag mismatch: robot line 1 and link", 1},
        {"<robot></robot>x", 1, 16, "Extra content at the end of the document", 1},
        {"<robot></robot><a/>", 1, 16, "Extra content at the end of the document", 1},
        {"<robot a/>", 1, 9, "Specification mandates value for attribute a", 1},
        {"<robot a=b/>", 1, 10, "AttValue: \" or ' expected", 0},
        {"<robot a=\"1\" a=\"2\"/>", 1, 19, "Attribute a redefined", 1},
        {"<robot a=\"<\"/>", 1, 11, "Unescaped '<' not allowed in attributes values", 0},
        {"<robot a=\"&foo;\"/>", 1, 15, "Entity 'foo' not defined", 0},
        {"<robot a=\"&#0;\"/>", 1, 15, "xmlParseCharRef: invalid xmlChar value 0", 1},
        {"<robot>&foo;</robot>", 1, 12, "Entity 'foo' not defined", 0},
        {"<robot>& </robot>", 1, 9, "xmlParseEntityRef: no name", 1},
        {"<robot><!-- x </robot>", 1, 23, "Comment not terminated", 0},
        {"<robot><!-- a -- b --></robot>", 1, 15, "Double hyphen within comment", 0},
        {" <?xml version=\"1.0\"?><robot/>", 1, 7, "XML declaration allowed only at the start of the document", 1},
        {"<robot/><?xml version=\"1.0\"?>", 1, 14, "XML declaration allowed only at the start of the document", 1},
        {"<robot a=\"1\"b=\"2\"/>", 1, 13, "attributes construct error", 0},
        {"<robot><![CDATA[x</robot>", 1, 26, "CData section not finished", 0},
        {"<1robot/>", 1, 1, "StartTag: invalid element name", 0},
        {"</robot>", 1, 1, "StartTag: invalid element name", 0},
        {"<robot>\x01</robot>", 1, 8, "Char 0x1 out of allowed range", 0},
        {"<robot>\xff</robot>", 1, 8, "Input is not proper UTF-8, indicate encoding !", 0},
        {"<robot>]]></robot>", 1, 8, "Sequence ']]>' not allowed in content", 1},
        {"<robot><!DOCTYPE x></robot>", 1, 8, "StartTag: invalid element name", 0},
    };
    int i;
    for (i = 0; i < (int)(sizeof cases / sizeof cases[0]); ++i) {
        const bad_case *c = &cases[i];
        ik_xml_doc doc;
        ik_error err;
        char expected[300], theirs[256];
        size_t size = strlen(c->text);
        ik_result r = ik_xml_read(c->text, size, &doc, &err);
        xmlDocPtr x = libxml_read(c->text, size, theirs, sizeof theirs);
        snprintf(expected, sizeof expected, "line %ld, column %ld: XML: %s", c->line, c->column, c->message);
        CHECK(r == IK_ERR_PARSE && doc.element_count == 0 && strcmp(err.message, expected) == 0,
              "case %d: '%s' gave '%s'", i, expected, err.message);
        CHECK(!x, "case %d: libxml2 reads it too", i);
        CHECK(!c->same_as_libxml2 || strcmp(theirs, c->message) == 0, "case %d: libxml2 says '%s'", i, theirs);
        if (x) xmlFreeDoc(x);
    }
}

/* What it reads: references decoded, attribute values normalised, comments,
 * instructions, CDATA and text skipped, a byte-order mark, lines. */
static void test_read(void) {
    static const char text[] =
        "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- a robot -->\n"
        "<robot name=\"a&lt;b&amp;c&#65;&#x42;&#x20AC;\" note='tab\there\nnl \"q\"'>\n"
        "  <?pi data?>text <![CDATA[<not an element>]]>\n"
        "  <link\n    name=\"x\"/>\n  <joint name=\"j\"><parent link=\"x\"></parent></joint>\n"
        "</robot>\n<!-- after -->\n";
    ik_xml_doc doc;
    ik_error err;
    int accepted = 0;
    ik_result r = ik_xml_read(text, sizeof text - 1, &doc, &err);
    CHECK(r == IK_OK && doc.element_count == 4, "read: %s", err.message);
    if (r == IK_OK && doc.element_count == 4) {
        CHECK(strcmp(ik_xml_attribute_value(&doc, 0, "name"), "a<b&cAB\xE2\x82\xAC") == 0, "references: %s",
              ik_xml_attribute_value(&doc, 0, "name"));
        CHECK(strcmp(ik_xml_attribute_value(&doc, 0, "note"), "tab here nl \"q\"") == 0, "normalised: %s",
              ik_xml_attribute_value(&doc, 0, "note"));
        CHECK(doc.elements[0].line == 4 && doc.elements[1].line == 7 && doc.elements[2].line == 8 &&
                  doc.elements[3].line == 8,
              "lines %ld %ld %ld", doc.elements[0].line, doc.elements[1].line, doc.elements[2].line);
        CHECK(doc.elements[0].first_child == 1 && doc.elements[1].next_sibling == 2 &&
                  doc.elements[2].first_child == 3 && doc.elements[3].parent == 2,
              "tree");
        CHECK(ik_xml_attribute_value(&doc, 1, "missing") == NULL, "absent attribute");
    }
    ik_xml_doc_free(&doc);
    CHECK(agree(text, sizeof text - 1, "the read case", &accepted) && accepted, "libxml2 reads it alike");
    CHECK(ik_xml_read(text, 0, &doc, &err) == IK_ERR_PARSE && strstr(err.message, "Document is empty"), "empty: %s",
          err.message);
    CHECK(ik_xml_read(NULL, 1, &doc, &err) == IK_ERR_NULL && ik_xml_read(text, 1, NULL, &err) == IK_ERR_NULL, "NULL");
}

/* Nesting: 256 levels below the root read, 257 refused (libxml2's limit);
 * a DOCTYPE refused; 20000 and 200000 attributes on one element read in
 * time, and one of them given twice refused. */
static void test_limits(void) {
    char *text = (char *)malloc(8 * 300 + 64);
    ik_xml_doc doc;
    ik_error err;
    int depth, k, accepted;
    for (depth = 256; depth <= 258; ++depth) {
        size_t n = 0;
        for (k = 0; k < depth; ++k) n += (size_t)sprintf(text + n, "<a>");
        for (k = 0; k < depth; ++k) n += (size_t)sprintf(text + n, "</a>");
        CHECK(agree(text, n, "nesting", &accepted) && accepted == (depth <= 257), "depth %d", depth);
    }
    CHECK(ik_xml_read("<!DOCTYPE r><r/>", 16, &doc, &err) == IK_ERR_UNSUPPORTED, "doctype: %s", err.message);
    free(text);
    /* Many attributes on one element: read in time (200000: libxml2's check is quadratic, so it reads
     * 20000 alike), a name given twice found among them. */
    text = (char *)malloc(200000 * 12 + 64);
    for (depth = 20000; text && depth <= 200000; depth *= 10) {
        size_t n = (size_t)sprintf(text, "<robot");
        for (k = 0; k < depth; ++k) n += (size_t)sprintf(text + n, " a%d=\"\"", k);
        n += (size_t)sprintf(text + n, "/>");
        CHECK(ik_xml_read(text, n, &doc, &err) == IK_OK && doc.elements[0].attribute_count == depth,
              "%d attributes: %s", depth, err.message);
        ik_xml_doc_free(&doc);
        CHECK(depth > 20000 || (agree(text, n, "many attributes", &accepted) && accepted), "libxml2 reads them alike");
        memcpy(text + n - 2, " a7=\"\"/>", 8);
        CHECK(
            ik_xml_read(text, n + 6, &doc, &err) == IK_ERR_PARSE && strstr(err.message, "XML: Attribute a7 redefined"),
            "a name given twice among them: %s", err.message);
        CHECK(depth > 20000 || (agree(text, n + 6, "many attributes, one twice", &accepted) && !accepted),
              "libxml2 refuses it too");
    }
    free(text);
}

/* The URDF reader's words for bad XML are the XML reader's, at its place. */
static void test_urdf_messages(void) {
    static const char truncated[] = "<robot name=\"r\"><link name=\"a\"/>";
    ik_urdf *u = NULL;
    ik_error err;
    CHECK(ik_urdf_read_memory(truncated, sizeof truncated - 1, &u, &err) == IK_ERR_PARSE && !u &&
              strcmp(err.message, "line 1, column 33: XML: Premature end of data in tag robot line 1") == 0,
          "truncated: %s", err.message);
}

int main(void) {
    test_read();
    test_refused();
    test_limits();
    test_urdf_messages();
    test_real_files();
    xmlCleanupParser();
    return check_summary("test_xml_read");
}

/* ikit io: a small strict XML reader (see xml_read.h). One forward pass over
 * the bytes with the open elements kept as a chain of parent indices; names
 * and decoded values are copied into one block of size + 1 bytes (a name or
 * value is always followed in the input by at least one byte its NUL can
 * take the place of, and decoding never lengthens a value). */
#include "xml_read.h"

#include <ikit/utf8.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { IK_XML_FEW_ATTRIBUTES = 32 };

typedef struct xml_reader {
    const char *data;
    size_t size, pos;
    long line;
    size_t line_start;
    ik_xml_doc *doc;
    int element_capacity, attribute_capacity;
    size_t text_used;
    ik_error *error;
} xml_reader;

static ik_result fail(xml_reader *rd, ik_result r, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Records "line L, column C: XML: <message>" at the reader's place. */
static ik_result fail(xml_reader *rd, ik_result r, const char *fmt, ...) {
    char message[200];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    ik_error_set(rd->error, rd->line, (long)(rd->pos - rd->line_start) + 1, (long)rd->pos, "XML: %s", message);
    return r;
}

static int at_end(const xml_reader *rd) { return rd->pos >= rd->size; }

static int peek(const xml_reader *rd, size_t ahead) {
    return rd->pos + ahead < rd->size ? (unsigned char)rd->data[rd->pos + ahead] : -1;
}

static int starts(const xml_reader *rd, const char *text) {
    size_t length = strlen(text);
    return rd->size - rd->pos >= length && memcmp(rd->data + rd->pos, text, length) == 0;
}

/* Moves `count` bytes on, counting lines. */
static void advance(xml_reader *rd, size_t count) {
    while (count-- > 0 && rd->pos < rd->size) {
        if (rd->data[rd->pos++] == '\n') {
            ++rd->line;
            rd->line_start = rd->pos;
        }
    }
}

static int is_space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static void skip_spaces(xml_reader *rd) {
    while (!at_end(rd) && is_space(peek(rd, 0))) advance(rd, 1);
}

/* XML 1.0's name characters, with every non-ASCII byte allowed (the input
 * is checked to be UTF-8 before). */
static int name_start(int c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == ':' || c >= 0x80;
}
static int name_char(int c) { return name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.'; }

/* Every byte well-formed UTF-8 and every character one XML allows (no C0
 * control but tab, line feed and carriage return; no U+FFFE or U+FFFF). */
static ik_result check_characters(xml_reader *rd) {
    size_t i = 0;
    while (i < rd->size) {
        const unsigned char *s = (const unsigned char *)rd->data + i;
        size_t length = ik_utf8_sequence(rd->data + i, rd->size - i);
        if (length == 0 || (s[0] < 0x20 && !is_space(s[0])) ||
            (length == 3 && s[0] == 0xEF && s[1] == 0xBF && (s[2] == 0xBE || s[2] == 0xBF))) {
            advance(rd, i - rd->pos);
            if (length == 0) return fail(rd, IK_ERR_PARSE, "Input is not proper UTF-8, indicate encoding !");
            return fail(rd, IK_ERR_PARSE, "Char 0x%X out of allowed range",
                        s[0] < 0x20 ? (unsigned)s[0] : 0xFFFEu + (s[2] == 0xBF));
        }
        i += length;
    }
    return IK_OK;
}

/* A copy of data[from, to) in the text block, NUL-terminated. */
static char *keep(xml_reader *rd, size_t from, size_t to) {
    char *out = rd->doc->text + rd->text_used;
    memcpy(out, rd->data + from, to - from);
    out[to - from] = '\0';
    rd->text_used += to - from + 1;
    return out;
}

/* A name at the reader's place, or 0 bytes long when there is none. */
static size_t scan_name(xml_reader *rd) {
    size_t start = rd->pos;
    if (at_end(rd) || !name_start(peek(rd, 0))) return 0;
    while (!at_end(rd) && name_char(peek(rd, 0))) advance(rd, 1);
    return rd->pos - start;
}

/* Appends one code point as UTF-8. */
static size_t put_utf8(char *out, unsigned long c) {
    if (c < 0x80) {
        out[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (char)(0xC0 | (c >> 6)), out[1] = (char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (char)(0xE0 | (c >> 12)), out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        out[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (c >> 18)), out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((c >> 6) & 0x3F)), out[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

/* A reference after '&': a predefined entity or a character reference,
 * its characters written to out (NULL: only checked); the count in *length. */
static ik_result reference(xml_reader *rd, char *out, size_t *length) {
    static const char *const names[] = {"lt", "gt", "amp", "apos", "quot"};
    static const char values[] = "<>&'\"";
    size_t start, k;
    char buffer[4];
    advance(rd, 1);
    if (peek(rd, 0) == '#') {
        unsigned long c = 0;
        int hex = peek(rd, 1) == 'x', digits = 0;
        advance(rd, hex ? 2 : 1);
        for (;; advance(rd, 1), ++digits) {
            int d = peek(rd, 0);
            if (d >= '0' && d <= '9')
                d -= '0';
            else if (hex && d >= 'a' && d <= 'f')
                d -= 'a' - 10;
            else if (hex && d >= 'A' && d <= 'F')
                d -= 'A' - 10;
            else
                break;
            c = c * (hex ? 16 : 10) + (unsigned long)d;
            if (c > 0x10FFFF) c = 0x110000;
        }
        if (digits == 0 || peek(rd, 0) != ';') return fail(rd, IK_ERR_PARSE, "invalid character reference");
        advance(rd, 1);
        if ((c < 0x20 && !is_space((int)c)) || (c >= 0xD800 && c <= 0xDFFF) || c == 0xFFFE || c == 0xFFFF ||
            c > 0x10FFFF)
            return fail(rd, IK_ERR_PARSE, "xmlParseCharRef: invalid xmlChar value %lu", c);
        *length = put_utf8(out ? out : buffer, c);
        return IK_OK;
    }
    start = rd->pos;
    if (scan_name(rd) == 0) return fail(rd, IK_ERR_PARSE, "xmlParseEntityRef: no name");
    if (peek(rd, 0) != ';') return fail(rd, IK_ERR_PARSE, "EntityRef: expecting ';'");
    for (k = 0; k < 5; ++k)
        if (strlen(names[k]) == rd->pos - start && memcmp(rd->data + start, names[k], rd->pos - start) == 0) {
            if (out) out[0] = values[k];
            *length = 1;
            advance(rd, 1);
            return IK_OK;
        }
    return fail(rd, IK_ERR_PARSE, "Entity '%.*s' not defined", (int)(rd->pos - start < 60 ? rd->pos - start : 60),
                rd->data + start);
}

static ik_result grow(void **array, int *capacity, int count, size_t item) {
    void *bigger;
    int wanted;
    if (count < *capacity) return IK_OK;
    wanted = *capacity ? 2 * *capacity : 16;
    bigger = realloc(*array, (size_t)wanted * item);
    if (!bigger) return IK_ERR_NO_MEMORY;
    *array = bigger;
    *capacity = wanted;
    return IK_OK;
}

/* One attribute (the reader on its name): name, '=', a quoted value decoded
 * and normalised into the text block. */
static ik_result attribute(xml_reader *rd, int element) {
    ik_xml_doc *doc = rd->doc;
    ik_xml_attribute *a;
    size_t start = rd->pos, name_length = scan_name(rd), used;
    char *value;
    int quote, k;
    ik_result r = grow((void **)&doc->attributes, &rd->attribute_capacity, doc->attribute_count, sizeof *a);
    if (r != IK_OK) return r;
    a = &doc->attributes[doc->attribute_count];
    a->name = keep(rd, start, start + name_length);
    skip_spaces(rd);
    if (peek(rd, 0) != '=') return fail(rd, IK_ERR_PARSE, "Specification mandates value for attribute %.60s", a->name);
    advance(rd, 1);
    skip_spaces(rd);
    quote = peek(rd, 0);
    if (quote != '"' && quote != '\'') return fail(rd, IK_ERR_PARSE, "AttValue: \" or ' expected");
    advance(rd, 1);
    value = rd->doc->text + rd->text_used;
    for (used = 0;;) {
        int c = peek(rd, 0);
        if (c < 0) return fail(rd, IK_ERR_PARSE, "AttValue: ' expected");
        if (c == quote) break;
        if (c == '<') return fail(rd, IK_ERR_PARSE, "Unescaped '<' not allowed in attributes values");
        if (c == '&') {
            size_t length;
            r = reference(rd, value + used, &length);
            if (r != IK_OK) return r;
            used += length;
        } else {
            value[used++] = is_space(c) ? ' ' : (char)c;
            advance(rd, 1);
        }
    }
    advance(rd, 1);
    value[used] = '\0';
    rd->text_used += used + 1;
    a->value = value;
    /* a second attribute of a name, found here among an element's first
     * IK_XML_FEW_ATTRIBUTES (at its place, as libxml2 reports it), beyond
     * them by sorting at the end of the tag (many_attributes) */
    if (doc->elements[element].attribute_count < IK_XML_FEW_ATTRIBUTES)
        for (k = doc->elements[element].first_attribute; k < doc->attribute_count; ++k)
            if (strcmp(doc->attributes[k].name, a->name) == 0)
                return fail(rd, IK_ERR_PARSE, "Attribute %.60s redefined", a->name);
    ++doc->attribute_count;
    ++doc->elements[element].attribute_count;
    return IK_OK;
}

static int compare_names(const void *a, const void *b) {
    return strcmp((*(const ik_xml_attribute *const *)a)->name, (*(const ik_xml_attribute *const *)b)->name);
}

/* An element with more than IK_XML_FEW_ATTRIBUTES attributes: a name given
 * twice found in O(n log n) (n^2 comparisons would let a 16 MB tag of a
 * million attributes run for hours). */
static ik_result many_attributes(xml_reader *rd, const ik_xml_element *e) {
    const ik_xml_attribute **sorted;
    int k;
    ik_result r = IK_OK;
    if (e->attribute_count <= IK_XML_FEW_ATTRIBUTES) return IK_OK;
    sorted = (const ik_xml_attribute **)malloc((size_t)e->attribute_count * sizeof *sorted);
    if (!sorted) return IK_ERR_NO_MEMORY;
    for (k = 0; k < e->attribute_count; ++k) sorted[k] = &rd->doc->attributes[e->first_attribute + k];
    qsort(sorted, (size_t)e->attribute_count, sizeof *sorted, compare_names);
    for (k = 1; k < e->attribute_count && r == IK_OK; ++k)
        if (strcmp(sorted[k]->name, sorted[k - 1]->name) == 0)
            r = fail(rd, IK_ERR_PARSE, "Attribute %.60s redefined", sorted[k]->name);
    free(sorted);
    return r;
}

/* A start tag (the reader on '<'): the element appended under `parent`;
 * *empty set for "<name/>". */
static ik_result start_tag(xml_reader *rd, int parent, int depth, int *empty) {
    ik_xml_doc *doc = rd->doc;
    ik_xml_element *e;
    size_t start, length;
    int index = doc->element_count, last;
    ik_result r = grow((void **)&doc->elements, &rd->element_capacity, doc->element_count, sizeof *e);
    if (r != IK_OK) return r;
    if (depth > IK_XML_MAX_DEPTH)
        return fail(rd, IK_ERR_PARSE, "Excessive depth in document: %d use XML_PARSE_HUGE option", IK_XML_MAX_DEPTH);
    advance(rd, 1);
    start = rd->pos;
    length = scan_name(rd);
    if (length == 0) return fail(rd, IK_ERR_PARSE, "StartTag: invalid element name");
    e = &doc->elements[index];
    e->name = keep(rd, start, start + length);
    e->parent = parent;
    e->first_child = e->last_child = e->next_sibling = -1;
    e->first_attribute = doc->attribute_count;
    e->attribute_count = 0;
    ++doc->element_count;
    for (;;) {
        int spaced = is_space(peek(rd, 0));
        skip_spaces(rd);
        if (at_end(rd))
            return fail(rd, IK_ERR_PARSE, "Couldn't find end of Start Tag %.60s line %ld", doc->elements[index].name,
                        rd->line);
        if (peek(rd, 0) == '>' || (peek(rd, 0) == '/' && peek(rd, 1) == '>')) break;
        if (peek(rd, 0) == '/' && peek(rd, 1) < 0) {
            advance(rd, 1);
            return fail(rd, IK_ERR_PARSE, "Couldn't find end of Start Tag %.60s line %ld", doc->elements[index].name,
                        rd->line);
        }
        if (!spaced || !name_start(peek(rd, 0))) return fail(rd, IK_ERR_PARSE, "attributes construct error");
        r = attribute(rd, index);
        if (r != IK_OK) return r;
    }
    r = many_attributes(rd, &doc->elements[index]);
    if (r != IK_OK) return r;
    *empty = peek(rd, 0) == '/';
    advance(rd, *empty ? 2 : 1);
    e = &doc->elements[index];
    e->line = rd->line;
    if (parent >= 0) {
        last = doc->elements[parent].last_child;
        if (last < 0)
            doc->elements[parent].first_child = index;
        else
            doc->elements[last].next_sibling = index;
        doc->elements[parent].last_child = index;
    }
    return IK_OK;
}

/* An end tag (the reader on "</") closing element `open`. */
static ik_result end_tag(xml_reader *rd, int open) {
    const ik_xml_element *e = &rd->doc->elements[open];
    size_t start, length;
    advance(rd, 2);
    start = rd->pos;
    length = scan_name(rd);
    skip_spaces(rd);
    if (length == 0 || peek(rd, 0) != '>' || strlen(e->name) != length ||
        memcmp(e->name, rd->data + start, length) != 0) {
        if (length == 0) return fail(rd, IK_ERR_PARSE, "xmlParseEndTag: '</' not found");
        if (peek(rd, 0) == '>') advance(rd, 1);
        return fail(rd, IK_ERR_PARSE, "Opening and ending tag mismatch: %.60s line %ld and %.*s", e->name, e->line,
                    (int)(length < 60 ? length : 60), rd->data + start);
    }
    advance(rd, 1);
    return IK_OK;
}

/* Skips up to and past `end`; `what` names the construct if it never ends. */
static ik_result skip_past(xml_reader *rd, const char *end, const char *what) {
    while (!at_end(rd) && !starts(rd, end)) advance(rd, 1);
    if (at_end(rd)) return fail(rd, IK_ERR_PARSE, "%s", what);
    advance(rd, strlen(end));
    return IK_OK;
}

/* A comment (the reader on "<!--"): no "--" inside. */
static ik_result comment(xml_reader *rd) {
    advance(rd, 4);
    while (!at_end(rd) && !starts(rd, "--")) advance(rd, 1);
    if (at_end(rd)) return fail(rd, IK_ERR_PARSE, "Comment not terminated");
    if (peek(rd, 2) != '>') return fail(rd, IK_ERR_PARSE, "Double hyphen within comment");
    advance(rd, 3);
    return IK_OK;
}

/* A processing instruction (the reader on "<?"); the XML declaration is one
 * only at the start of the document. */
static ik_result instruction(xml_reader *rd) {
    size_t start;
    advance(rd, 2);
    start = rd->pos;
    if (scan_name(rd) == 0) return fail(rd, IK_ERR_PARSE, "xmlParsePI : no target name");
    if (rd->pos - start == 3 && (rd->data[start] | 0x20) == 'x' && (rd->data[start + 1] | 0x20) == 'm' &&
        (rd->data[start + 2] | 0x20) == 'l')
        return fail(rd, IK_ERR_PARSE, "XML declaration allowed only at the start of the document");
    return skip_past(rd, "?>", "PI not terminated");
}

/* name = "value" (or 'value') in the XML declaration, the reader on the
 * name; the value's place into *value and *length. 0 when it is not there. */
static int declaration_item(xml_reader *rd, const char *name, size_t *value, size_t *length) {
    int quote;
    if (!starts(rd, name)) return 0;
    advance(rd, strlen(name));
    skip_spaces(rd);
    if (peek(rd, 0) != '=') return 0;
    advance(rd, 1);
    skip_spaces(rd);
    quote = peek(rd, 0);
    if (quote != '"' && quote != '\'') return 0;
    advance(rd, 1);
    *value = rd->pos;
    while (!at_end(rd) && peek(rd, 0) != quote && peek(rd, 0) != '<') advance(rd, 1);
    if (peek(rd, 0) != quote) return 0;
    *length = rd->pos - *value;
    advance(rd, 1);
    return 1;
}

/* The XML declaration (the reader after "<?xml" and a blank), as XML 1.0
 * writes it: version 1.x, then optionally an encoding name and standalone
 * yes or no, then "?>". The encoding is not acted on: the text is UTF-8. */
static ik_result declaration(xml_reader *rd) {
    size_t value = 0, length = 0, k;
    skip_spaces(rd);
    if (!declaration_item(rd, "version", &value, &length))
        return fail(rd, IK_ERR_PARSE, "Malformed declaration expecting version");
    if (length < 3 || memcmp(rd->data + value, "1.", 2) != 0)
        return fail(rd, IK_ERR_PARSE, "Unsupported version '%.*s'", (int)(length < 20 ? length : 20), rd->data + value);
    if (is_space(peek(rd, 0))) {
        skip_spaces(rd);
        if (starts(rd, "encoding")) {
            if (!declaration_item(rd, "encoding", &value, &length) || length == 0)
                return fail(rd, IK_ERR_PARSE, "Invalid XML encoding name");
            for (k = 0; k < length; ++k) {
                int c = (unsigned char)rd->data[value + k];
                if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                      (k > 0 && ((c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))))
                    return fail(rd, IK_ERR_PARSE, "Invalid XML encoding name");
            }
            skip_spaces(rd);
        }
        if (starts(rd, "standalone")) {
            if (!declaration_item(rd, "standalone", &value, &length) ||
                !((length == 3 && memcmp(rd->data + value, "yes", 3) == 0) ||
                  (length == 2 && memcmp(rd->data + value, "no", 2) == 0)))
                return fail(rd, IK_ERR_PARSE, "standalone accepts only 'yes' or 'no'");
            skip_spaces(rd);
        }
    } else if (!starts(rd, "?>")) {
        return fail(rd, IK_ERR_PARSE, "Blank needed here");
    }
    if (!starts(rd, "?>")) return fail(rd, IK_ERR_PARSE, "parsing XML declaration: '?>' expected");
    advance(rd, 2);
    return IK_OK;
}

/* Comments, processing instructions and blanks around the root element. */
static ik_result misc(xml_reader *rd) {
    ik_result r = IK_OK;
    for (;;) {
        skip_spaces(rd);
        if (starts(rd, "<!--"))
            r = comment(rd);
        else if (starts(rd, "<?"))
            r = instruction(rd);
        else
            return IK_OK;
        if (r != IK_OK) return r;
    }
}

/* Content from after the root's start tag to its end tag: character data
 * (checked, then skipped), CDATA, comments, instructions, elements. */
static ik_result content(xml_reader *rd, int open) {
    int depth = 1;
    ik_result r = IK_OK;
    while (open >= 0) {
        int c = peek(rd, 0);
        if (c < 0)
            return fail(rd, IK_ERR_PARSE, "Premature end of data in tag %.60s line %ld", rd->doc->elements[open].name,
                        rd->doc->elements[open].line);
        if (c == '&') {
            size_t length;
            r = reference(rd, NULL, &length);
        } else if (c == ']' && starts(rd, "]]>")) {
            return fail(rd, IK_ERR_PARSE, "Sequence ']]>' not allowed in content");
        } else if (c != '<') {
            advance(rd, 1);
        } else if (starts(rd, "</")) {
            r = end_tag(rd, open);
            open = rd->doc->elements[open].parent;
            --depth;
        } else if (starts(rd, "<!--")) {
            r = comment(rd);
        } else if (starts(rd, "<![CDATA[")) {
            r = skip_past(rd, "]]>", "CData section not finished");
        } else if (starts(rd, "<?")) {
            r = instruction(rd);
        } else if (starts(rd, "<!")) {
            return fail(rd, IK_ERR_PARSE, "StartTag: invalid element name");
        } else {
            int empty = 0, index = rd->doc->element_count;
            r = start_tag(rd, open, depth, &empty);
            if (r == IK_OK && !empty) open = index, ++depth;
        }
        if (r != IK_OK) return r;
    }
    return IK_OK;
}

static ik_result read_document(xml_reader *rd) {
    int empty = 0;
    ik_result r;
    if (rd->size == 0) return fail(rd, IK_ERR_PARSE, "Document is empty");
    r = check_characters(rd);
    if (r != IK_OK) return r;
    rd->pos = rd->line_start = 0, rd->line = 1;
    if (starts(rd, "\xEF\xBB\xBF")) rd->pos = rd->line_start = 3;
    if (starts(rd, "<?xml") && is_space(peek(rd, 5))) {
        advance(rd, 5);
        r = declaration(rd);
        if (r != IK_OK) return r;
    }
    r = misc(rd);
    if (r != IK_OK) return r;
    if (starts(rd, "<!DOCTYPE"))
        return fail(rd, IK_ERR_UNSUPPORTED, "<!DOCTYPE>: document type declarations are refused");
    if (peek(rd, 0) != '<' || !name_start(peek(rd, 1))) {
        if (peek(rd, 0) != '<') return fail(rd, IK_ERR_PARSE, "Start tag expected, '<' not found");
        return fail(rd, IK_ERR_PARSE, "StartTag: invalid element name");
    }
    r = start_tag(rd, -1, 0, &empty);
    if (r == IK_OK && !empty) r = content(rd, 0);
    if (r == IK_OK) r = misc(rd);
    if (r == IK_OK && !at_end(rd)) return fail(rd, IK_ERR_PARSE, "Extra content at the end of the document");
    return r;
}

ik_result ik_xml_read(const char *data, size_t size, ik_xml_doc *doc, ik_error *error) {
    xml_reader rd;
    ik_result r;
    ik_error_clear(error);
    if (!doc) return IK_ERR_NULL;
    memset(doc, 0, sizeof *doc);
    if (!data) return IK_ERR_NULL;
    memset(&rd, 0, sizeof rd);
    rd.data = data;
    rd.size = size;
    rd.line = 1;
    rd.doc = doc;
    rd.error = error;
    doc->text = (char *)malloc(size + 1);
    r = doc->text ? read_document(&rd) : IK_ERR_NO_MEMORY;
    if (r == IK_ERR_NO_MEMORY) ik_error_set(error, 0, 0, -1, "out of memory");
    if (r != IK_OK) ik_xml_doc_free(doc);
    return r;
}

void ik_xml_doc_free(ik_xml_doc *doc) {
    if (!doc) return;
    free(doc->elements);
    free(doc->attributes);
    free(doc->text);
    memset(doc, 0, sizeof *doc);
}

const char *ik_xml_attribute_value(const ik_xml_doc *doc, int element, const char *name) {
    const ik_xml_element *e = &doc->elements[element];
    int k;
    for (k = 0; k < e->attribute_count; ++k)
        if (strcmp(doc->attributes[e->first_attribute + k].name, name) == 0)
            return doc->attributes[e->first_attribute + k].value;
    return NULL;
}

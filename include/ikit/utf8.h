/* ikit io: UTF-8 well-formedness, for names read from files and printed or
 * written as JSON. */
#ifndef IKIT_UTF8_H
#define IKIT_UTF8_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The length (1 to 4) of the well-formed UTF-8 sequence that starts `text`
 * (`size` bytes available), or 0 when the bytes there are not one: a stray
 * continuation byte, a truncated sequence, an overlong form, a surrogate
 * (U+D800..U+DFFF) or a code point above U+10FFFF (RFC 3629, section 4). */
size_t ik_utf8_sequence(const char *text, size_t size);

/* 1 when the NUL-terminated `text` is well-formed UTF-8, else 0. */
int ik_utf8_valid(const char *text);

#ifdef __cplusplus
}
#endif
#endif

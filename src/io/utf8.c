/* ikit io: UTF-8 well-formedness. The table of well-formed byte sequences is
 * RFC 3629, section 4 (the same as Unicode 15, table 3-7):
 *   00..7F
 *   C2..DF 80..BF
 *   E0 A0..BF 80..BF | E1..EC 80..BF 80..BF | ED 80..9F 80..BF | EE..EF 80..BF 80..BF
 *   F0 90..BF 80..BF 80..BF | F1..F3 80..BF x3 | F4 80..8F 80..BF 80..BF */
#include <ikit/utf8.h>

#include <string.h>

size_t ik_utf8_sequence(const char *text, size_t size) {
    const unsigned char *s = (const unsigned char *)text;
    unsigned char lo = 0x80, hi = 0xBF;
    size_t length, i;
    if (size == 0) return 0;
    if (s[0] < 0x80) return 1;
    if (s[0] >= 0xC2 && s[0] <= 0xDF)
        length = 2;
    else if (s[0] >= 0xE0 && s[0] <= 0xEF)
        length = 3;
    else if (s[0] >= 0xF0 && s[0] <= 0xF4)
        length = 4;
    else
        return 0;
    /* the second byte's range excludes overlongs, surrogates and > U+10FFFF */
    if (s[0] == 0xE0)
        lo = 0xA0;
    else if (s[0] == 0xED)
        hi = 0x9F;
    else if (s[0] == 0xF0)
        lo = 0x90;
    else if (s[0] == 0xF4)
        hi = 0x8F;
    if (size < length || s[1] < lo || s[1] > hi) return 0;
    for (i = 2; i < length; ++i)
        if (s[i] < 0x80 || s[i] > 0xBF) return 0;
    return length;
}

int ik_utf8_valid(const char *text) {
    size_t n = strlen(text), i = 0;
    while (i < n) {
        size_t k = ik_utf8_sequence(text + i, n - i);
        if (k == 0) return 0;
        i += k;
    }
    return 1;
}

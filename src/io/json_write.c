/* ikit io: JSON text written from a json_doc with patches (json_write.h). */
#include "json_write.h"

#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "big_block.h"

/* ---- the growing text ---------------------------------------------------- */

void json_out_free(json_out *out) {
    free(out->text);
    out->text = NULL;
    out->length = out->capacity = 0;
}

/* A bigger block for a text of `length` bytes and its NUL (big_block.h). */
static char *grow(char *text, size_t length, size_t wanted) {
    char *block;
    if (wanted < ((size_t)8 << 20)) return (char *)realloc(text, wanted);
    if (!(block = (char *)big_block_alloc(wanted))) return NULL;
    if (text) memcpy(block, text, length + 1);
    free(text);
    return block;
}

/* Room for n more bytes and the NUL; NULL once memory ran out. */
static char *room(json_out *out, size_t n) {
    if (out->failed) return NULL;
    if (out->length + n + 1 > out->capacity) {
        size_t wanted = out->capacity ? 2 * out->capacity : 4096;
        char *grown;
        while (wanted < out->length + n + 1) wanted *= 2;
        if (!(grown = grow(out->text, out->length, wanted))) {
            out->failed = 1;
            return NULL;
        }
        out->text = grown;
        out->capacity = wanted;
    }
    return out->text + out->length;
}

/* After writing n bytes at room()'s pointer. */
static void advance(json_out *out, size_t n) {
    out->length += n;
    out->text[out->length] = '\0';
}

void json_out_bytes(json_out *out, const char *bytes, size_t n) {
    char *at = room(out, n);
    if (!at) return;
    memcpy(at, bytes, n);
    advance(out, n);
}

static void out_char(json_out *out, char c) {
    char *at = room(out, 1);
    if (!at) return;
    *at = c;
    advance(out, 1);
}

static void out_tabs(json_out *out, size_t n) {
    char *at = room(out, n);
    if (!at) return;
    memset(at, '\t', n);
    advance(out, n);
}

void json_out_string(json_out *out, const char *s, size_t n) {
    static const char hex[] = "0123456789abcdef";
    size_t i = 0, run;
    char *at;
    out_char(out, '"');
    while (i < n) {
        for (run = i; run < n && (unsigned char)s[run] >= 0x20 && s[run] != '"' && s[run] != '\\';) ++run;
        json_out_bytes(out, s + i, run - i);
        if (run == n) break;
        if (!(at = room(out, 6))) return;
        at[0] = '\\';
        switch (s[run]) {
            case '"':
            case '\\':
                at[1] = s[run];
                break;
            case '\b':
                at[1] = 'b';
                break;
            case '\f':
                at[1] = 'f';
                break;
            case '\n':
                at[1] = 'n';
                break;
            case '\r':
                at[1] = 'r';
                break;
            case '\t':
                at[1] = 't';
                break;
            default:
                memcpy(at + 1, "u00", 3);
                at[4] = hex[(unsigned char)s[run] >> 4];
                at[5] = hex[(unsigned char)s[run] & 15];
                advance(out, 6);
                i = run + 1;
                continue;
        }
        advance(out, 2);
        i = run + 1;
    }
    out_char(out, '"');
}

/* ---- numbers ------------------------------------------------------------- */

/* The general way: printf's "%.15g", "%.16g", then "%.17g" until strtod
 * reads the text back as d, with the locale's decimal point (which may take
 * several bytes; snprintf and strtod both follow it, so the check reads what
 * was printed) replaced by '.'. */
static size_t exact_by_printf(double d, char text[40]) {
    const char *point = localeconv()->decimal_point;
    size_t point_length = strlen(point);
    char *at;
    int digits;
    for (digits = 15; digits < 17; ++digits) {
        snprintf(text, 40, "%.*g", digits, d);
        if (strtod(text, NULL) == d) break;
    }
    if (digits == 17) snprintf(text, 40, "%.17g", d);
    if (point_length > 0 && strcmp(point, ".") != 0 && (at = strstr(text, point)) != NULL) {
        *at = '.';
        memmove(at + 1, at + point_length, strlen(at + point_length) + 1);
    }
    return strlen(text);
}

static const uint64_t power_of_ten[20] = {1ULL,
                                          10ULL,
                                          100ULL,
                                          1000ULL,
                                          10000ULL,
                                          100000ULL,
                                          1000000ULL,
                                          10000000ULL,
                                          100000000ULL,
                                          1000000000ULL,
                                          10000000000ULL,
                                          100000000000ULL,
                                          1000000000000ULL,
                                          10000000000000ULL,
                                          100000000000000ULL,
                                          1000000000000000ULL,
                                          10000000000000000ULL,
                                          100000000000000000ULL,
                                          1000000000000000000ULL,
                                          10000000000000000000ULL};

/* The significand q of exactly `digits` digits and decimal exponent x (the
 * value q * 10^(x - digits + 1)) laid out as "%.<digits>g" does: trailing
 * zeros dropped, exponent form "d.ddde+XX" when x < -4 or x >= digits
 * (C99 7.19.6.1), plain decimals otherwise. */
static size_t layout_g(char *text, int negative, uint64_t q, int digits, int x) {
    char d[20], *p = text;
    int n = digits, i;
    for (i = digits - 1; i >= 0; --i, q /= 10) d[i] = (char)('0' + (int)(q % 10));
    while (n > 1 && d[n - 1] == '0') --n;
    if (negative) *p++ = '-';
    if (x < -4 || x >= digits) {
        int e = x < 0 ? -x : x;
        *p++ = d[0];
        if (n > 1) {
            *p++ = '.';
            memcpy(p, d + 1, (size_t)n - 1);
            p += n - 1;
        }
        *p++ = 'e';
        *p++ = x < 0 ? '-' : '+';
        if (e >= 100) *p++ = (char)('0' + e / 100);
        *p++ = (char)('0' + e / 10 % 10);
        *p++ = (char)('0' + e % 10);
    } else if (x >= 0) {
        for (i = 0; i <= x; ++i) *p++ = i < n ? d[i] : '0';
        if (n > x + 1) {
            *p++ = '.';
            memcpy(p, d + x + 1, (size_t)(n - x - 1));
            p += n - x - 1;
        }
    } else {
        *p++ = '0';
        *p++ = '.';
        for (i = 0; i < -x - 1; ++i) *p++ = '0';
        memcpy(p, d, (size_t)n);
        p += n;
    }
    *p = '\0';
    return (size_t)(p - text);
}

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 u128;

static const uint64_t power_of_five[28] = {1ULL,
                                           5ULL,
                                           25ULL,
                                           125ULL,
                                           625ULL,
                                           3125ULL,
                                           15625ULL,
                                           78125ULL,
                                           390625ULL,
                                           1953125ULL,
                                           9765625ULL,
                                           48828125ULL,
                                           244140625ULL,
                                           1220703125ULL,
                                           6103515625ULL,
                                           30517578125ULL,
                                           152587890625ULL,
                                           762939453125ULL,
                                           3814697265625ULL,
                                           19073486328125ULL,
                                           95367431640625ULL,
                                           476837158203125ULL,
                                           2384185791015625ULL,
                                           11920928955078125ULL,
                                           59604644775390625ULL,
                                           298023223876953125ULL,
                                           1490116119384765625ULL,
                                           7450580596923828125ULL};

/* The same text as exact_by_printf, in integer arithmetic, for normal
 * doubles of magnitude 1e-11 to 1e17 (0 for others: the caller falls back).
 * With d = f * 2^e (f of 53 bits) and k = 16 - floor(log10 |d|), the value
 * |d| * 10^k = f * 5^k * 2^(e+k) is held exactly as a 17-digit integer part
 * I and a binary fraction of sh bits (f * 5^k < 2^116). Rounding I to N
 * digits (nearest, ties to the even digit, as glibc's printf does) gives the
 * text "%.Ng" prints; it reads back as d exactly when it lies within half
 * the gap to d's neighbours (the lower gap is half as wide when f = 2^52),
 * a tie going to d when f is even (strtod rounds ties to even). Distances
 * are counted in units of 2^-(sh+2) of the scaled value, so the half gaps
 * are whole numbers. */
static int exact_by_integers(double d, char text[40], size_t *length) {
    uint64_t bits, f, five = 1, integer = 0;
    u128 scaled = 0, fraction, gap, up, down;
    int narrow, negative, biased, e, x, k = 0, sh = 0, tries, digits;
    memcpy(&bits, &d, sizeof bits);
    negative = (int)(bits >> 63);
    biased = (int)(bits >> 52) & 0x7FF;
    f = bits & ((1ULL << 52) - 1);
    if (biased == 0 || biased == 0x7FF) return 0;
    narrow = f == 0 && biased > 1; /* a power of two: the gap below is half the gap above */
    f |= 1ULL << 52;
    e = biased - 1075;
    /* floor(log10 |d|) is floor(b log10 2) or one more, for |d| in [2^b, 2^(b+1)):
     * 78913 / 2^18 is log10 2 to 6 digits, exact enough for |b| < 1100 */
    {
        long t = (long)(e + 52) * 78913L;
        x = (int)(t >= 0 ? t >> 18 : -((-t + 262143) >> 18));
    }
    for (tries = 0;; ++tries) {
        u128 whole;
        k = 16 - x;
        if (tries == 3 || k < 0 || k > 27) return 0;
        five = power_of_five[k];
        scaled = (u128)f * five;
        if (e + k >= 0) {
            scaled <<= e + k;
            sh = 0;
        } else {
            sh = -(e + k);
        }
        if (sh > 100) return 0;
        whole = scaled >> sh;
        if (whole >= power_of_ten[17]) {
            ++x;
        } else if (whole < power_of_ten[16]) {
            --x;
        } else {
            integer = (uint64_t)whole;
            break;
        }
    }
    fraction = scaled - ((u128)integer << sh);
    /* the gap to the next double above, scaled by 10^k, is 5^k * 2^max(e+k, 0)
     * units of 2^-sh: half of it is twice that in units of 2^-(sh+2) */
    gap = (u128)five << (e + k > 0 ? e + k : 0);
    up = 2 * gap;
    down = narrow ? gap : up;
    for (digits = 15; digits <= 17; ++digits) {
        /* constant divisors, so that the compiler multiplies instead */
        uint64_t step = digits == 15 ? 100 : digits == 16 ? 10 : 1;
        uint64_t q = digits == 15 ? integer / 100 : digits == 16 ? integer / 10 : integer;
        u128 rest = ((u128)(integer - q * step) << (sh + 2)) + (fraction << 2);
        u128 grid = (u128)step << (sh + 2), error;
        int round_up = 2 * rest > grid || (2 * rest == grid && (q & 1));
        error = round_up ? grid - rest : rest;
        if (digits == 17 || error < (round_up ? up : down) || (error == (round_up ? up : down) && !(f & 1))) {
            int xo = x;
            q += (uint64_t)round_up;
            if (q == power_of_ten[digits]) {
                q = power_of_ten[digits - 1];
                ++xo;
            }
            *length = layout_g(text, negative, q, digits, xo);
            return 1;
        }
    }
    return 0;
}
#else
static int exact_by_integers(double d, char text[40], size_t *length) {
    (void)d, (void)text, (void)length;
    return 0;
}
#endif

size_t json_number_text(double d, char text[40]) {
    size_t length;
    if (d != d) {
        strcpy(text, "null");
        return 4;
    }
    if (d - d != 0) {
        strcpy(text, d > 0 ? "1e999" : "-1e999");
        return strlen(text);
    }
    /* integers (indices, counts) below 2^53 as their digits; -0 keeps its
     * sign through the "%g" layout below */
    if (d > -9007199254740992.0 && d < 9007199254740992.0 && d == (double)(long long)d && (d != 0 || 1 / d > 0)) {
        char digits[24];
        long long v = (long long)d;
        unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
        int n = 0;
        do digits[n++] = (char)('0' + (int)(u % 10));
        while ((u /= 10) != 0);
        length = 0;
        if (v < 0) text[length++] = '-';
        while (n > 0) text[length++] = digits[--n];
        text[length] = '\0';
        return length;
    }
    if (exact_by_integers(d, text, &length)) return length;
    return exact_by_printf(d, text);
}

void json_out_number(json_out *out, double d) {
    char *at = room(out, 40);
    if (!at) return;
    advance(out, json_number_text(d, at));
}

/* ---- the document -------------------------------------------------------- */

/* An array or object being written. */
typedef struct open_value {
    const json_value *end;     /* the first value after it */
    const json_patch *patches; /* an object's own patches */
    int patch_count, is_object;
    long members;     /* items or members written so far */
    uint32_t applied; /* patches[i] written: bit i */
} open_value;

static int stack_reserve(open_value **stack, size_t *capacity, size_t depth) {
    open_value *grown;
    size_t wanted;
    if (depth < *capacity) return 1;
    wanted = *capacity ? 2 * *capacity : 64;
    if (!(grown = (open_value *)realloc(*stack, wanted * sizeof *grown))) return 0;
    *stack = grown;
    *capacity = wanted;
    return 1;
}

/* Before member `key` of the object on top (at `depth`, counting itself). */
static void member_start(json_out *out, open_value *top, size_t depth, const char *key, size_t key_length,
                         int formatted) {
    if (top->members++) json_out_bytes(out, formatted ? ",\n" : ",", formatted ? 2 : 1);
    if (formatted) out_tabs(out, depth);
    json_out_string(out, key, key_length);
    json_out_bytes(out, ":\t", formatted ? 2 : 1);
}

static void patch_value(json_out *out, const json_patch *patch, int formatted) {
    int i;
    switch (patch->kind) {
        case JSON_PATCH_NUMBER:
            json_out_number(out, patch->number);
            break;
        case JSON_PATCH_STRING:
            json_out_string(out, patch->string, strlen(patch->string));
            break;
        default:
            out_char(out, '[');
            for (i = 0; i < patch->count; ++i) {
                if (i) json_out_bytes(out, ", ", formatted ? 2 : 1);
                json_out_number(out, patch->numbers[i]);
            }
            out_char(out, ']');
    }
}

static void scalar(json_out *out, const json_value *v) {
    switch (v->type) {
        case JSON_NUMBER:
            json_out_number(out, v->as.number);
            break;
        case JSON_STRING:
            json_out_string(out, v->as.string, v->count);
            break;
        case JSON_TRUE:
            json_out_bytes(out, "true", 4);
            break;
        case JSON_FALSE:
            json_out_bytes(out, "false", 5);
            break;
        default:
            json_out_bytes(out, "null", 4);
    }
}

/* The patch of `top` for `key`, or -1. */
static int patch_for(const open_value *top, const char *key) {
    int i;
    for (i = 0; i < top->patch_count; ++i)
        if (strcmp(top->patches[i].key, key) == 0) return i;
    return -1;
}

/* Close the container on top (at `depth`, counting itself): an object's
 * patches that found no member become members at its end. */
static void close_value(json_out *out, open_value *top, size_t depth, int formatted) {
    int i;
    if (!top->is_object) {
        out_char(out, ']');
        return;
    }
    for (i = 0; i < top->patch_count; ++i) {
        const json_patch *patch = &top->patches[i];
        if (patch->kind == JSON_PATCH_REMOVE || (top->applied >> i & 1)) continue;
        member_start(out, top, depth, patch->key, strlen(patch->key), formatted);
        patch_value(out, patch, formatted);
    }
    if (formatted) {
        if (top->members) out_char(out, '\n');
        out_tabs(out, depth - 1);
    }
    out_char(out, '}');
}

/* One walk in document order (every value is followed by what it holds);
 * the stack of open arrays and objects is on the heap, so depth costs no C
 * stack. */
int json_print(json_out *out, const json_value *root, const json_patch *patches, size_t patch_count, int formatted) {
    const json_value *v = root, *end = root + root->skip;
    open_value *open = NULL;
    size_t depth = 0, capacity = 0, next_patch = 0, start = out->length;
    /* room guessed at once (pages never written cost nothing), as growing a
     * text of tens of megabytes by copies took a third of the time */
    if (room(out, (size_t)root->skip * (formatted ? 24 : 16) + patch_count * 64) == NULL) return 0;
    while (v < end || depth > 0) {
        open_value *top = depth ? &open[depth - 1] : NULL;
        if (top && v >= top->end) {
            close_value(out, top, depth--, formatted);
            continue;
        }
        if (top && top->is_object) {
            const json_value *value = v + 1;
            int p = top->patch_count ? patch_for(top, v->as.string) : -1;
            if (p >= 0) {
                const json_patch *patch = &top->patches[p];
                if (patch->kind != JSON_PATCH_REMOVE && !(top->applied >> p & 1)) {
                    top->applied |= 1u << p;
                    member_start(out, top, depth, v->as.string, v->count, formatted);
                    patch_value(out, patch, formatted);
                }
                v = value + value->skip;
                while (next_patch < patch_count && patches[next_patch].object < v) ++next_patch; /* gone with it */
                continue;
            }
            member_start(out, top, depth, v->as.string, v->count, formatted);
            v = value;
        } else if (top && top->members++) {
            json_out_bytes(out, ", ", formatted ? 2 : 1);
        }
        if (v->type != JSON_ARRAY && v->type != JSON_OBJECT) {
            scalar(out, v++);
            continue;
        }
        if (!stack_reserve(&open, &capacity, depth)) out->failed = 1;
        if (out->failed) break;
        top = &open[depth++];
        top->end = v + v->skip;
        top->is_object = v->type == JSON_OBJECT;
        top->members = 0;
        top->applied = 0;
        top->patches = NULL;
        top->patch_count = 0;
        if (next_patch < patch_count && patches[next_patch].object < v) break; /* a patch on no object */
        if (top->is_object && next_patch < patch_count && patches[next_patch].object == v) {
            top->patches = patches + next_patch;
            while (next_patch < patch_count && patches[next_patch].object == v &&
                   top->patch_count < JSON_MAX_OBJECT_PATCHES) {
                ++next_patch;
                ++top->patch_count;
            }
        }
        out_char(out, top->is_object ? '{' : '[');
        if (top->is_object && formatted) out_char(out, '\n');
        ++v;
    }
    free(open);
    if (out->failed || v < end || depth > 0 || next_patch < patch_count) {
        if (!out->failed && out->text) {
            out->length = start;
            out->text[start] = '\0';
        }
        return 0;
    }
    return 1;
}

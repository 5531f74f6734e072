/* Strict argument parsing: a number is the whole word, finite, nothing else. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ikc.h"

int ikc_parse_real(const char *text, ik_real *out) {
    char *end;
    double value;
    if (!text || !*text || isspace((unsigned char)*text)) return 0;
    errno = 0;
    value = strtod(text, &end);
    if (*end != '\0' || errno == ERANGE) return 0;
    if (!ik_finite((ik_real)value)) return 0;
    *out = (ik_real)value;
    return 1;
}

int ikc_parse_int(const char *text, int *out) {
    char *end;
    long value;
    if (!text || !*text || isspace((unsigned char)*text)) return 0;
    errno = 0;
    value = strtol(text, &end, 10);
    if (*end != '\0' || errno == ERANGE || value < INT_MIN || value > INT_MAX) return 0;
    *out = (int)value;
    return 1;
}

int ikc_parse_reals(const char *text, char separator, ik_real *out, int min, int max) {
    char buf[64];
    int n = 0;
    const char *p = text;
    for (;;) {
        const char *next = strchr(p, separator);
        size_t len = next ? (size_t)(next - p) : strlen(p);
        if (n == max || len >= sizeof buf) return 0;
        memcpy(buf, p, len);
        buf[len] = '\0';
        if (!ikc_parse_real(buf, &out[n])) return 0;
        ++n;
        if (!next) break;
        p = next + 1;
    }
    return n >= min ? n : 0;
}

int ikc_parse_vec3(const char *text, ik_vec3 *out) {
    ik_real v[3];
    if (!ikc_parse_reals(text, ',', v, 3, 3)) return 0;
    *out = ik_v3(v[0], v[1], v[2]);
    return 1;
}

int ikc_parse_named_vec3(const char *command, const char *option, const char *text, char *name, size_t name_size,
                         ik_vec3 *out) {
    const char *eq = strrchr(text, '=');
    size_t n;
    if (!eq || eq == text) {
        fprintf(stderr, "ikc %s: %s wants JOINT=x,y,z, got '%s'\n", command, option, text);
        return 0;
    }
    n = (size_t)(eq - text);
    if (n >= name_size) {
        fprintf(stderr, "ikc %s: %s: joint name too long in '%s'\n", command, option, text);
        return 0;
    }
    if (!ikc_parse_vec3(eq + 1, out)) {
        fprintf(stderr, "ikc %s: %s: bad numbers '%s' (want three finite numbers x,y,z)\n", command, option, eq + 1);
        return 0;
    }
    memcpy(name, text, n);
    name[n] = '\0';
    return 1;
}

const char *ikc_option_value(const char *command, int argc, char **argv, int *i) {
    if (*i + 1 >= argc) {
        fprintf(stderr, "ikc %s: option %s needs a value\n", command, argv[*i]);
        return NULL;
    }
    *i += 1;
    return argv[*i];
}

int ikc_is_help(const char *arg) { return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0; }

const char *ikc_extension(const char *path, char *buf, size_t size) {
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    size_t i;
    if (size == 0) return "";
    buf[0] = '\0';
    if (!dot || (slash && dot < slash)) return buf;
    for (i = 0; dot[1 + i] && i + 1 < size; ++i) buf[i] = (char)tolower((unsigned char)dot[1 + i]);
    buf[i] = '\0';
    return buf;
}

int ikc_is_one_of(const char *word, const char *const *words, size_t count) {
    size_t k;
    for (k = 0; k < count; ++k)
        if (strcmp(word, words[k]) == 0) return 1;
    return 0;
}

int ikc_input_path(const char *command, const char *arg, const char **path) {
    if (*path) {
        fprintf(stderr, "ikc %s: one file at a time ('%s' and '%s')\n", command, ikc_shown(*path), ikc_shown(arg));
        return 0;
    }
    *path = arg;
    return 1;
}

int ikc_parse_size(const char *text, int *w, int *h) {
    char buf[32];
    const char *x = strchr(text, 'x');
    size_t n;
    if (!x || (n = (size_t)(x - text)) >= sizeof buf) return 0;
    memcpy(buf, text, n);
    buf[n] = '\0';
    return ikc_parse_int(buf, w) && ikc_parse_int(x + 1, h) && *w >= 64 && *h >= 64 && *w <= 16384 && *h <= 16384;
}

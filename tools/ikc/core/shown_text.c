/* Names from files, made safe to show: on a terminal, control characters
 * (C0, DEL, C1) and bytes that are not well-formed UTF-8 become \xNN, so an
 * ANSI escape in a BVH joint name is shown, not obeyed; in JSON, bytes that
 * are not well-formed UTF-8 become U+FFFD (cJSON escapes the control
 * characters), so every --json output is valid JSON text (RFC 8259 section
 * 8.1: UTF-8). */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include <ikit/utf8.h>

#include "ikc.h"

#define SHOWN_BUFFERS 8
#define SHOWN_SIZE 1024

const char *ikc_shown(const char *text) {
    static char buffers[SHOWN_BUFFERS][SHOWN_SIZE];
    static int next;
    static const char hex[] = "0123456789abcdef";
    char *out = buffers[next];
    size_t n = text ? strlen(text) : 0, i = 0, k = 0;
    next = (next + 1) % SHOWN_BUFFERS;
    while (i < n) {
        const unsigned char *s = (const unsigned char *)text + i;
        size_t length = ik_utf8_sequence(text + i, n - i);
        /* C1 controls U+0080..U+009F are C2 80..C2 9F */
        int control = length == 1 ? (s[0] < 0x20 || s[0] == 0x7F) : length == 2 && s[0] == 0xC2 && s[1] < 0xA0;
        if (length == 0 || control) {
            size_t bytes = length ? length : 1, b;
            if (k + 4 * bytes + 4 > SHOWN_SIZE) break;
            for (b = 0; b < bytes; ++b) {
                out[k++] = '\\';
                out[k++] = 'x';
                out[k++] = hex[s[b] >> 4];
                out[k++] = hex[s[b] & 15];
            }
            i += bytes;
        } else {
            if (k + length + 4 > SHOWN_SIZE) break;
            memcpy(out + k, s, length);
            k += length;
            i += length;
        }
    }
    if (i < n) {
        memcpy(out + k, "...", 3);
        k += 3;
    }
    out[k] = '\0';
    return out;
}

struct cJSON *ikc_json_text(const char *text) {
    static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */
    size_t n = text ? strlen(text) : 0, i = 0, k = 0;
    char *clean = (char *)malloc(3 * n + 1);
    cJSON *item;
    if (!clean) return NULL;
    while (i < n) {
        size_t length = ik_utf8_sequence(text + i, n - i);
        if (length == 0) {
            memcpy(clean + k, replacement, 3);
            k += 3;
            ++i;
        } else {
            memcpy(clean + k, text + i, length);
            k += length;
            i += length;
        }
    }
    clean[k] = '\0';
    item = cJSON_CreateString(clean);
    free(clean);
    return item;
}

int ikc_json_print(struct cJSON *json) {
    char *text = cJSON_Print(json);
    int printed = text != NULL;
    if (printed) printf("%s\n", text);
    cJSON_free(text);
    cJSON_Delete(json);
    return printed;
}

void ikc_json_print_result(struct cJSON *json, int code) {
    cJSON_AddBoolToObject(json, "written", code == IKC_EXIT_OK || code == IKC_EXIT_CHECKS);
    cJSON_AddNumberToObject(json, "exit_code", code);
    ikc_json_print(json);
}

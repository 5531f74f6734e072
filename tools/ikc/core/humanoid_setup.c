/* Finding the humanoid in a character for `ikc info` and `ikc solve`. */
#include <stdlib.h>
#include <string.h>

#include "humanoid_setup.h"
#include "ikc.h"

#define MAP_FILE_MAX_BYTES (1u << 20)

int ikc_humanoid_find(const char *command, const ik_skeleton *skeleton, const char *map_path, ikc_humanoid *h) {
    memset(h, 0, sizeof *h);
    h->map_result = h->init_result = IK_ERR_NOT_FOUND;
    if (map_path) {
        size_t length = 0;
        int code, line = 0;
        ik_result r;
        h->map_text = ikc_read_text_file(command, map_path, MAP_FILE_MAX_BYTES, &length, &code);
        if (!h->map_text) return code;
        r = ik_humanoid_parse_mapping(h->map_text, length, h->pairs, 2 * IK_ROLE_COUNT, &h->pair_count, &line);
        if (r != IK_OK) {
            if (r == IK_ERR_PARSE)
                fprintf(stderr,
                        "ikc %s: %s:%d: want 'role = joint name' with a known role, given once "
                        "(roles: hips spine chest neck head, left_/right_ + clavicle upper_arm forearm hand "
                        "thigh shin foot toe)\n",
                        command, map_path, line);
            else
                fprintf(stderr, "ikc %s: %s: %s\n", command, map_path, ik_result_str(r));
            return IKC_EXIT_FORMAT;
        }
    }
    h->map_result = ik_humanoid_map_find(skeleton, h->pairs, h->pair_count, &h->map);
    if (h->map_result == IK_OK) h->init_result = ik_humanoid_init(&h->rig, skeleton, &h->map);
    return IKC_EXIT_OK;
}

void ikc_humanoid_free(ikc_humanoid *h) {
    free(h->map_text);
    h->map_text = NULL;
}

void ikc_humanoid_print_map(FILE *out, const ikc_humanoid *h, const ik_skeleton *skeleton, const char *indent) {
    char report[4096];
    const char *line = report;
    ik_humanoid_map_describe(&h->map, skeleton, report, sizeof report);
    while (*line) {
        const char *end = strchr(line, '\n');
        int n = end ? (int)(end - line) : (int)strlen(line);
        if (n > 0) {
            char text[512];
            snprintf(text, sizeof text, "%.*s", n, line);
            fprintf(out, "%s%s\n", indent, ikc_shown(text));
        }
        line += n + (end != NULL);
    }
}

int ikc_humanoid_usable(const char *command, const ikc_humanoid *h, const ik_skeleton *skeleton, FILE *out) {
    char why[512];
    if (h->map_result == IK_OK && h->init_result == IK_OK) return 1;
    /* the library's words (the playground shows the same), then what the command line can do about it */
    ik_humanoid_explain(h->map_result, h->init_result, &h->map, why, sizeof why);
    fprintf(out, "ikc %s: %s", command, why);
    if (h->map_result != IK_OK) {
        fprintf(out, "; give them with --map FILE ('role = joint name' lines). The roles found:\n");
        ikc_humanoid_print_map(out, h, skeleton, "  ");
    } else if (h->init_result == IK_ERR_UNSUPPORTED) {
        fprintf(out, ". The roles found:\n");
        ikc_humanoid_print_map(out, h, skeleton, "  ");
    } else {
        fprintf(out, "%s\n", h->init_result == IK_ERR_HIERARCHY ? "; check --map" : "");
    }
    return 0;
}

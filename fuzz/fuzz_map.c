/* libFuzzer entry point for the humanoid mapping file ("role = joint name"
 * lines, src/rig/humanoid_map.c): any bytes give IK_OK, IK_ERR_PARSE with a
 * line number in the text or IK_ERR_CAPACITY, never a crash or a hang; the
 * pairs that parse point inside the text, name known roles at most once,
 * and applied to the built humanoid skeleton give a map whose joints are
 * in range and whose description fits. */
#include <ikit/humanoid.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_PAIRS (2 * IK_ROLE_COUNT)

static ik_skeleton built;
static int built_parents[IK_HUMANOID_BUILT_JOINTS];
static const char *built_names[IK_HUMANOID_BUILT_JOINTS];
static ik_transform built_rest[IK_HUMANOID_BUILT_JOINTS];

static void build_once(void) {
    if (built.joint_count) return;
    if (ik_humanoid_build_skeleton((ik_real)1.8, IK_HUMANOID_BUILT_JOINTS, built_parents, built_names, built_rest) !=
            IK_HUMANOID_BUILT_JOINTS ||
        ik_skeleton_init(&built, IK_HUMANOID_BUILT_JOINTS, built_parents, built_names, built_rest, NULL) != IK_OK)
        abort();
}

static long line_count(const char *text, size_t size) {
    long lines = 1;
    size_t i;
    for (i = 0; i < size; ++i) lines += text[i] == '\n';
    return lines;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    ik_humanoid_pair pairs[MAX_PAIRS];
    ik_humanoid_map map;
    char report[4096];
    int count = -1, error_line = 0, i, k, role;
    ik_result r;
    build_once();
    r = ik_humanoid_parse_mapping(text, size, pairs, MAX_PAIRS, &count, &error_line);
    if (r == IK_ERR_PARSE) {
        if (error_line < 1 || error_line > line_count(text, size)) abort();
        return 0;
    }
    if (r == IK_ERR_CAPACITY) return 0;
    if (r != IK_OK || count < 0 || count > MAX_PAIRS) abort();
    for (i = 0; i < count; ++i) {
        if (pairs[i].role < 0 || pairs[i].role >= IK_ROLE_COUNT || pairs[i].name_length < 1 || pairs[i].name < text ||
            pairs[i].name + pairs[i].name_length > text + size)
            abort();
        for (k = 0; k < i; ++k)
            if (pairs[k].role == pairs[i].role) abort();
    }
    r = ik_humanoid_map_find(&built, pairs, count, &map);
    if (r != IK_OK && r != IK_ERR_NOT_FOUND) abort();
    for (role = 0; role < IK_ROLE_COUNT; ++role)
        if (map.joint[role] < -1 || map.joint[role] >= built.joint_count) abort();
    k = ik_humanoid_map_describe(&map, &built, report, sizeof report);
    if (k < 0 || ((size_t)k < sizeof report && strlen(report) != (size_t)k)) abort();
    return 0;
}

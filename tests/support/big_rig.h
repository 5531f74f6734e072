/* Very large generated rigs for the load-time and no-recursion tests
 * (issue 18, item 5): a glTF document whose single skin is a chain of
 * `joints` nodes, each the only child of the one before (`deep`), or all
 * children of node 0 (a root with joints - 1 leaves). Node i is named
 * "joint<i>" and sits 0.01 above its parent. Returns a malloc'd,
 * NUL-terminated JSON text (free it), or NULL when out of memory. */
#ifndef IKIT_TEST_BIG_RIG_H
#define IKIT_TEST_BIG_RIG_H

#include <stdio.h>
#include <stdlib.h>

static inline char *big_rig_gltf(int joints, int deep) {
    size_t room = (size_t)joints * 96 + 256, at = 0;
    char *text = (char *)malloc(room);
    int i;
    if (!text) return NULL;
    at += (size_t)snprintf(text + at, room - at,
                           "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[");
    for (i = 0; i < joints; ++i) {
        at += (size_t)snprintf(text + at, room - at, "%s{\"name\":\"joint%d\",\"translation\":[0,0.01,0]", i ? "," : "",
                               i);
        if (deep && i + 1 < joints) at += (size_t)snprintf(text + at, room - at, ",\"children\":[%d]", i + 1);
        if (!deep && i == 0 && joints > 1) {
            int c;
            at += (size_t)snprintf(text + at, room - at, ",\"children\":[");
            for (c = 1; c < joints; ++c) at += (size_t)snprintf(text + at, room - at, "%s%d", c > 1 ? "," : "", c);
            at += (size_t)snprintf(text + at, room - at, "]");
        }
        at += (size_t)snprintf(text + at, room - at, "}");
    }
    at += (size_t)snprintf(text + at, room - at, "],\"skins\":[{\"joints\":[");
    for (i = 0; i < joints; ++i) at += (size_t)snprintf(text + at, room - at, "%s%d", i ? "," : "", i);
    snprintf(text + at, room - at, "]}]}");
    return text;
}

#endif

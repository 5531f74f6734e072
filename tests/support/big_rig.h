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
#include <string.h>

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

/* A humanoid of 19 named joints (Hips, legs with toes, Spine, Chest, arms,
 * Neck, Head) with a chain of `extra` joints "strand<i>", a millimetre
 * apart, hanging from the joint named `under` ("LeftHand", "Chest", ...),
 * all in one skin. malloc'd JSON text, or NULL. */
static inline char *big_humanoid_gltf(int extra, const char *under) {
    static const struct {
        const char *name;
        int parent;
        float x, y, z;
    } body[19] = {{"Hips", -1, 0, 1, 0},
                  {"LeftUpLeg", 0, 0.1f, 0, 0},
                  {"LeftLeg", 1, 0, -0.45f, 0.02f},
                  {"LeftFoot", 2, 0, -0.45f, -0.02f},
                  {"LeftToeBase", 3, 0, -0.05f, 0.1f},
                  {"RightUpLeg", 0, -0.1f, 0, 0},
                  {"RightLeg", 5, 0, -0.45f, 0.02f},
                  {"RightFoot", 6, 0, -0.45f, -0.02f},
                  {"RightToeBase", 7, 0, -0.05f, 0.1f},
                  {"Spine", 0, 0, 0.1f, 0},
                  {"Chest", 9, 0, 0.2f, 0},
                  {"LeftArm", 10, 0.2f, 0.1f, 0},
                  {"LeftForeArm", 11, 0.3f, 0, -0.02f},
                  {"LeftHand", 12, 0.25f, 0, 0.02f},
                  {"RightArm", 10, -0.2f, 0.1f, 0},
                  {"RightForeArm", 14, -0.3f, 0, -0.02f},
                  {"RightHand", 15, -0.25f, 0, 0.02f},
                  {"Neck", 10, 0, 0.1f, 0},
                  {"Head", 17, 0, 0.1f, 0}};
    int n = 19 + extra, anchor = -1, i, j;
    size_t room = (size_t)n * 96 + 4096, at = 0;
    char *text = (char *)malloc(room);
    if (!text) return NULL;
    for (i = 0; i < 19; ++i)
        if (strcmp(body[i].name, under) == 0) anchor = i;
    at += (size_t)snprintf(text + at, room - at,
                           "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[");
    for (i = 0; i < n; ++i) {
        int first = 1;
        if (i < 19)
            at += (size_t)snprintf(text + at, room - at, "%s{\"name\":\"%s\",\"translation\":[%g,%g,%g]", i ? "," : "",
                                   body[i].name, body[i].x, body[i].y, body[i].z);
        else
            at += (size_t)snprintf(text + at, room - at, ",{\"name\":\"strand%d\",\"translation\":[0,0.001,0]", i - 19);
        /* children: the body's own, then the chain's first below the anchor; a strand's next strand */
        for (j = 1; j < 19 && i < 19; ++j)
            if (body[j].parent == i) {
                at += (size_t)snprintf(text + at, room - at, "%s%d", first ? ",\"children\":[" : ",", j);
                first = 0;
            }
        if ((i == anchor || i >= 19) && extra > 0 && i + 1 < n) {
            at += (size_t)snprintf(text + at, room - at, "%s%d", first ? ",\"children\":[" : ",",
                                   i == anchor ? 19 : i + 1);
            first = 0;
        }
        at += (size_t)snprintf(text + at, room - at, "%s}", first ? "" : "]");
    }
    at += (size_t)snprintf(text + at, room - at, "],\"skins\":[{\"joints\":[");
    for (i = 0; i < n; ++i) at += (size_t)snprintf(text + at, room - at, "%s%d", i ? "," : "", i);
    snprintf(text + at, room - at, "]}]}");
    return text;
}

/* `count` nodes "n<i>", each the one joint of its own skin, and one
 * animation whose `count` channels turn them all (one shared sampler of
 * two keys): every skin has one channel. malloc'd JSON text, or NULL. */
static inline char *many_skins_gltf(int count) {
    static const char buffer[] = "AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAAAAAACAPw==";
    size_t room = (size_t)count * 120 + 1024, at = 0;
    char *text = (char *)malloc(room);
    int i;
    if (!text) return NULL;
    at += (size_t)snprintf(text + at, room - at, "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[");
    for (i = 0; i < count; ++i) at += (size_t)snprintf(text + at, room - at, "%s{\"name\":\"n%d\"}", i ? "," : "", i);
    at += (size_t)snprintf(text + at, room - at, "],\"skins\":[");
    for (i = 0; i < count; ++i) at += (size_t)snprintf(text + at, room - at, "%s{\"joints\":[%d]}", i ? "," : "", i);
    at += (size_t)snprintf(text + at, room - at, "],\"animations\":[{\"channels\":[");
    for (i = 0; i < count; ++i)
        at += (size_t)snprintf(text + at, room - at, "%s{\"sampler\":0,\"target\":{\"node\":%d,\"path\":\"rotation\"}}",
                               i ? "," : "", i);
    snprintf(text + at, room - at,
             "],\"samplers\":[{\"input\":0,\"output\":1}]}],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,"
             "\"count\":2,\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},{\"bufferView\":1,\"componentType\":5126,"
             "\"count\":2,\"type\":\"VEC4\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":8},{\"buffer\":0,"
             "\"byteOffset\":8,\"byteLength\":32}],\"buffers\":[{\"byteLength\":40,\"uri\":"
             "\"data:application/octet-stream;base64,%s\"}]}",
             buffer);
    return text;
}

#endif

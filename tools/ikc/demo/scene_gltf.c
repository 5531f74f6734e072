/* glTF 2.0 (Khronos specification, sections 3.5 nodes and 3.7 skins): each
 * skeleton is a placement node whose children are the skeleton's roots; the
 * joints are nodes with translation, rotation (unit quaternion x, y, z, w)
 * and scale; a skin lists them. inverseBindMatrices are optional (identity). */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "ikc.h"
#include "scene_gltf.h"

static cJSON *numbers(const ik_real *v, int n) {
    double d[4];
    int i;
    for (i = 0; i < n; ++i) d[i] = (double)v[i];
    return cJSON_CreateDoubleArray(d, n);
}

static cJSON *joint_node(const ik_skeleton *s, const ik_transform *pose, int j, int first_node) {
    cJSON *node = cJSON_CreateObject(), *children = NULL;
    ik_real t[3], r[4], sc[3];
    ik_quat q = ik_quat_normalize(pose[j].rotation);
    int c;
    t[0] = pose[j].translation.x;
    t[1] = pose[j].translation.y;
    t[2] = pose[j].translation.z;
    r[0] = q.x;
    r[1] = q.y;
    r[2] = q.z;
    r[3] = q.w;
    sc[0] = pose[j].scale.x;
    sc[1] = pose[j].scale.y;
    sc[2] = pose[j].scale.z;
    cJSON_AddStringToObject(node, "name", ik_skeleton_name(s, j));
    cJSON_AddItemToObject(node, "translation", numbers(t, 3));
    cJSON_AddItemToObject(node, "rotation", numbers(r, 4));
    if (sc[0] != 1 || sc[1] != 1 || sc[2] != 1) cJSON_AddItemToObject(node, "scale", numbers(sc, 3));
    for (c = j + 1; c < s->joint_count; ++c) {
        if (s->parents[c] != j) continue;
        if (!children) children = cJSON_AddArrayToObject(node, "children");
        cJSON_AddItemToArray(children, cJSON_CreateNumber(first_node + c));
    }
    return node;
}

int ikc_write_scene_gltf(const char *path, const ikc_scene_skeleton *list, int count, char *error, size_t error_size) {
    cJSON *doc = cJSON_CreateObject(), *asset = cJSON_AddObjectToObject(doc, "asset");
    cJSON *scenes = cJSON_AddArrayToObject(doc, "scenes"), *scene = cJSON_CreateObject();
    cJSON *scene_nodes, *nodes, *skins;
    char *text;
    int k, j, next = 0, ok;
    cJSON_AddStringToObject(asset, "version", "2.0");
    cJSON_AddStringToObject(asset, "generator", "ikc " IKC_VERSION " demo");
    cJSON_AddNumberToObject(doc, "scene", 0);
    cJSON_AddStringToObject(scene, "name", "ikit demo");
    scene_nodes = cJSON_AddArrayToObject(scene, "nodes");
    cJSON_AddItemToArray(scenes, scene);
    nodes = cJSON_AddArrayToObject(doc, "nodes");
    skins = cJSON_AddArrayToObject(doc, "skins");
    for (k = 0; k < count; ++k) {
        const ik_skeleton *s = list[k].skeleton;
        cJSON *place = cJSON_CreateObject(), *children = cJSON_AddArrayToObject(place, "children");
        cJSON *skin = cJSON_CreateObject(), *joints = cJSON_AddArrayToObject(skin, "joints");
        int place_node = next, first = next + 1;
        ik_real t[3];
        t[0] = list[k].placement.x;
        t[1] = list[k].placement.y;
        t[2] = list[k].placement.z;
        cJSON_AddStringToObject(place, "name", list[k].name);
        cJSON_AddItemToObject(place, "translation", numbers(t, 3));
        for (j = 0; j < s->joint_count; ++j)
            if (s->parents[j] < 0) cJSON_AddItemToArray(children, cJSON_CreateNumber(first + j));
        cJSON_AddItemToArray(nodes, place);
        for (j = 0; j < s->joint_count; ++j) {
            cJSON_AddItemToArray(nodes, joint_node(s, list[k].pose_ls, j, first));
            cJSON_AddItemToArray(joints, cJSON_CreateNumber(first + j));
        }
        cJSON_AddStringToObject(skin, "name", list[k].name);
        cJSON_AddItemToArray(skins, skin);
        cJSON_AddItemToArray(scene_nodes, cJSON_CreateNumber(place_node));
        next = first + s->joint_count;
    }
    text = cJSON_Print(doc);
    cJSON_Delete(doc);
    if (!text) {
        snprintf(error, error_size, "out of memory");
        return 0;
    }
    ok = ikc_write_file_atomic(path, text, strlen(text));
    cJSON_free(text);
    if (!ok) snprintf(error, error_size, "cannot write '%s'", path);
    return ok;
}

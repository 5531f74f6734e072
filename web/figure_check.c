/* A glTF file dropped on the page, checked by the library before three.js
 * reads it to draw it: read by the io layer's own glTF reader from the bytes
 * the page wrote to ikw_input_buffer (ik_asset_load_memory, as ikc loads a
 * file: the character is the largest skin), then its skeleton mapped and
 * rigged (ik_humanoid_map_find, ik_humanoid_init). A file that fails gets
 * the library's words in ikw_message(), the words ikc prints for the same
 * file: the reader's message with its place in the file (a byte offset, a
 * JSON path), "the glTF file has no skin, ...", or the rig's line
 * (ik_humanoid_explain). The figure on the page is not touched. */
#include <ikit/asset.h>
#include <ikit/humanoid.h>

#include <stdio.h>

#include "ikit_web.h"

IKW_EXPORT(ikw_figure_check) int ikw_figure_check(int length) {
    const char *bytes = ikw_input_buffer(length);
    ik_asset asset;
    ik_error err;
    ik_humanoid_map map;
    ik_humanoid rig;
    ik_result map_result, init_result = IK_OK;
    char text[sizeof err.message + sizeof err.path + 4];
    if (!bytes || length < 1) {
        ikw_set_message("the file is not in the input buffer");
        return 1;
    }
    if (ik_asset_load_memory(bytes, (size_t)length, "dropped.glb", &asset, &err) != IK_OK) {
        snprintf(text, sizeof text, "%s%s%s", err.message, err.path[0] ? " at " : "", err.path);
        ikw_set_message(text);
        return 1;
    }
    map_result = ik_humanoid_map_find(asset.skeleton, NULL, 0, &map);
    if (map_result == IK_OK) init_result = ik_humanoid_init(&rig, asset.skeleton, &map);
    ik_humanoid_explain(map_result, init_result, &map, text, sizeof text);
    ik_asset_free(&asset);
    if (text[0]) {
        ikw_set_message(text);
        return 2;
    }
    return 0;
}

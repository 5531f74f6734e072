/* A glTF character dropped on the page, read by the library: the io layer's
 * own glTF reader on the bytes the page wrote to ikw_input_buffer
 * (ik_asset_load_memory, as ikc loads a file: the character is the skin
 * with the most joints), its skeleton mapped and rigged (ik_humanoid_map_find,
 * ik_humanoid_init). A file that fails gets the library's words in
 * ikw_message(), the words ikc prints for the same file: the reader's
 * message with its place in the file (a byte offset, a JSON path), "the
 * glTF file has no skin, ...", or the rig's line (ik_humanoid_explain), and
 * the figure on the page is not touched. One that passes waits until the
 * page has its drawing ready (three.js reads the file again, to draw it
 * only), then becomes the figure: the library's skeleton and rest pose, and
 * its animations as the library's clips (ik_asset_clip), each the pose the
 * solve starts from as a BVH motion's is. */
#include <ikit/asset.h>
#include <ikit/humanoid.h>

#include <stdio.h>

#include "ikit_web.h"

static struct {
    ik_asset waiting, used; /* the file checked last; the figure's file */
    int has_waiting, has_used;
} figure;

IKW_EXPORT(ikw_figure_check) int ikw_figure_check(int length) {
    const char *bytes = ikw_input_buffer(length);
    ik_asset asset;
    ik_error err;
    ik_humanoid_map map;
    ik_humanoid rig;
    ik_result map_result, init_result = IK_OK;
    char text[sizeof err.message + sizeof err.path + 4];
    if (figure.has_waiting) ik_asset_free(&figure.waiting);
    figure.has_waiting = 0;
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
    if (text[0]) {
        ik_asset_free(&asset);
        ikw_set_message(text);
        return 2;
    }
    figure.waiting = asset;
    figure.has_waiting = 1;
    return 0;
}

/* The file in waiting (`waiting` 1; the file checked last, when it passed)
 * or again the last one used (0: its rest pose) as the figure, without an
 * animation. */
IKW_EXPORT(ikw_figure_use) int ikw_figure_use(int waiting) {
    if (waiting && !figure.has_waiting) {
        ikw_set_message("no glTF file waiting");
        return IK_ERR_NULL;
    }
    if (waiting) {
        /* ikw_body_load_skeleton drops the clip, which may point into the old file */
        int r = ikw_body_load_skeleton(figure.waiting.skeleton);
        if (figure.has_used) ik_asset_free(&figure.used);
        figure.used = figure.waiting;
        figure.has_used = 1;
        figure.has_waiting = 0;
        return r;
    }
    if (!figure.has_used) {
        ikw_set_message("no glTF file read");
        return IK_ERR_NULL;
    }
    return ikw_body_load_skeleton(figure.used.skeleton);
}

static const ik_gltf_skin *used_skin(void) {
    return figure.has_used ? ik_gltf_skeleton(figure.used.gltf, figure.used.skin) : NULL;
}

IKW_EXPORT(ikw_figure_joint_node) int ikw_figure_joint_node(int joint) {
    const ik_gltf_skin *skin = used_skin();
    return skin && joint >= 0 && joint < skin->skeleton.joint_count ? skin->node[joint] : -1;
}

IKW_EXPORT(ikw_figure_clip_count) int ikw_figure_clip_count(void) {
    return figure.has_used ? ik_asset_clip_count(&figure.used) : 0;
}

IKW_EXPORT(ikw_figure_clip_name) const char *ikw_figure_clip_name(int clip) {
    const ik_clip *c = figure.has_used ? ik_asset_clip(&figure.used, clip) : NULL;
    return c && c->name ? c->name : "";
}

IKW_EXPORT(ikw_figure_clip_duration) float ikw_figure_clip_duration(int clip) {
    const ik_clip *c = figure.has_used ? ik_asset_clip(&figure.used, clip) : NULL;
    return c ? (float)c->duration : 0;
}

/* The figure's file's animation `clip` as the pose each solve starts from,
 * sampled as ikc samples a glTF clip (60 frames a second for its floor);
 * -1 for none (the rest pose). */
IKW_EXPORT(ikw_figure_play) int ikw_figure_play(int clip) {
    const ik_clip *c = figure.has_used ? ik_asset_clip(&figure.used, clip) : NULL;
    if (clip == -1) {
        ikw_body_set_clip(NULL, 0);
        return IK_OK;
    }
    if (!c) {
        ikw_set_message(figure.has_used ? "no such animation" : "no glTF file read");
        return IK_ERR_RANGE;
    }
    ikw_body_set_clip(c, (ik_real)1 / 60);
    return IK_OK;
}

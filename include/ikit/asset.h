/* ikit io: load a character or chain from any supported file (glTF/GLB,
 * BVH, chain file) and see it one way: a skeleton, the transform above its
 * roots, its clips and, where the format has them, joint limits. */
#ifndef IKIT_ASSET_H
#define IKIT_ASSET_H

#include <ikit/bvh.h>
#include <ikit/chain_file.h>
#include <ikit/clip.h>
#include <ikit/constraint.h>
#include <ikit/gltf.h>
#include <ikit/error.h>
#include <ikit/result.h>
#include <ikit/skeleton.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ik_asset_format {
    IK_ASSET_UNKNOWN, /* the file could not be opened */
    IK_ASSET_GLTF,
    IK_ASSET_BVH,
    IK_ASSET_CHAIN
} ik_asset_format;

typedef struct ik_asset {
    const char *path; /* the caller's string, not copied */
    ik_asset_format format;
    int binary;    /* GLB */
    ik_gltf *gltf; /* the document of its format; the others NULL */
    int skin;      /* glTF: the skin that is the character (the one with most joints) */
    ik_bvh *bvh;
    ik_chain_file *chain_file;
    const ik_skeleton *skeleton; /* owned by the document above */
    ik_mat4 root_ms;             /* above the skeleton's roots */
    ik_constraint *constraints;  /* [joint_count], or NULL when the format has no limits */
} ik_asset;

/* Load `path`, its format told by its first bytes (GLB's "glTF", BVH's
 * HIERARCHY, a chain file's `chain`, JSON's '{', after blank and '#'
 * lines), else by its extension (.bvh, .chain, otherwise glTF). On success
 * release with ik_asset_free. On failure nothing is held, asset->format
 * says what the file was taken for (IK_ASSET_UNKNOWN when it could not be
 * opened: IK_ERR_IO) and error (may be NULL) says why: the reader's code and
 * message, or IK_ERR_NOT_FOUND for a glTF file without a skin. */
ik_result ik_asset_load(const char *path, ik_asset *asset, ik_error *error);
/* The same from `size` bytes at `data` (copied: they may go after the
 * call), `name` (may be NULL) standing for the path: its extension tells
 * the format where the bytes do not, and asset->path points at it. A glTF
 * file must hold its buffers (GLB, or data URIs): external ones are refused
 * (IK_ERR_UNSUPPORTED). The browser playground reads dropped files so, to
 * give the reader's own messages. */
ik_result ik_asset_load_memory(const void *data, size_t size, const char *name, ik_asset *asset, ik_error *error);
void ik_asset_free(ik_asset *asset);

/* "glTF 2.0", "glTF binary (GLB)", "BVH motion capture" or "chain description". */
const char *ik_asset_format_name(const ik_asset *asset);
/* Model units (the skeleton's, under the file's root transform) per metre
 * where the format fixes its unit: a glTF world is in metres, so
 * 1 / |root scale| (a Mixamo armature's 0.01: 100); 0 for BVH and chain
 * files, which carry none (ik_foot_metre guesses from the legs). */
ik_real ik_asset_metre(const ik_asset *asset);
/* glTF: its animations; BVH: one when it has frames; chain files: none. */
int ik_asset_clip_count(const ik_asset *asset);
/* Clip `clip` on the skeleton's joints; NULL when out of range. */
const ik_clip *ik_asset_clip(const ik_asset *asset, int clip);

#ifdef __cplusplus
}
#endif
#endif

/* A character or chain loaded from a file (ikit/asset.h) for the commands,
 * with messages, and its default chains. */
#ifndef IKC_ASSET_H
#define IKC_ASSET_H

#include <ikit/asset.h>
#include <ikit/named_chains.h>
#include <ikit/take.h>

#define IKC_MAX_CHAIN IK_NAMED_CHAIN_MAX_JOINTS
#define IKC_MAX_CHAINS 16

/* Load `path`, printing "ikc CMD: ..." on failure (the loader's message with
 * its place in the file). Returns an IKC_EXIT_ code. */
int ikc_asset_load(const char *command, const char *path, ik_asset *asset);
/* A clip's display name: its own, or "clip N" ("motion" for BVH). */
const char *ikc_asset_clip_name(const ik_asset *asset, int clip, char *buf, size_t size);
/* The clip called `name` (or given by its number), or -1 after printing an
 * error with suggestions. */
int ikc_asset_find_clip(const char *command, const ik_asset *asset, const char *name);
/* The joint called `name`, or -1 after printing an error with suggestions. */
int ikc_asset_find_joint(const char *command, const ik_asset *asset, const char *name);

/* The limbs by name (ik_named_chains_find); for a chain file, every path
 * from the root to a tip, named after the file's chain. */
int ikc_asset_chains(const ik_asset *asset, ik_named_chain *chains, int max_chains);

/* Why a default chain is `joint` alone, hanging from its parent: "which
 * carries other limbs: turning it would move them too" when another of
 * `chains` [count] ends below the parent, else "part of the body's trunk:
 * turning it would tilt the whole character" (ik_named_chains_find keeps
 * limbs off the trunk). */
const char *ikc_hang_reason(const ik_skeleton *skeleton, const ik_named_chain *chains, int count, int joint);

/* ---- asset_output.c: writing it back, atomically (ikc_write_outputs) ---- */

/* The glTF document's files (`out` and the buffer files named after it),
 * written as one set; the input document and its buffer files (the reader
 * resolved them against the document's folder) are inputs never replaced.
 * Messages start "ikc COMMAND:". Returns an IKC_EXIT_ code. */
int ikc_write_gltf(const char *command, const ik_asset *asset, const char *out, int overwrite);
/* `take` (the input's BVH with other frames or values) as BVH text. */
int ikc_write_bvh(const char *command, const ik_asset *asset, const ik_bvh *take, const char *out, int overwrite);
/* A take of poses (ikit/take.h, one pose of the asset's skeleton per frame)
 * in the input's format: glTF as animation `clip`'s new keys on the
 * character's skin (or a new animation called `name` when clip < 0), BVH as
 * the input's hierarchy with one frame per pose at the take's frame time.
 * The output's extension must match the input's format. */
int ikc_write_take(const char *command, ik_asset *asset, const ik_take *take, int clip, const char *name,
                   const char *out, int overwrite);

/* glTF only: `keys` (any interpolation) as animation `clip`'s keys on the
 * character's skin (other nodes' channels kept), or as a new animation
 * called `name` when clip < 0, then the document written (ikc_write_gltf). */
int ikc_write_clip(const char *command, ik_asset *asset, const ik_clip *keys, int clip, const char *name,
                   const char *out, int overwrite);

/* How far a chain reaches: the sum of its bone lengths in `model_ms`. */
ik_real ikc_chain_reach(const ik_mat4 *model_ms, const int *joints, int count);

#endif

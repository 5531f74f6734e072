/* A character or chain loaded from a file (ikit/asset.h) for the commands,
 * with messages, and its default chains. */
#ifndef IKC_ASSET_H
#define IKC_ASSET_H

#include <ikit/asset.h>
#include <ikit/named_chains.h>

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

/* How far a chain reaches: the sum of its bone lengths in `model_ms`. */
ik_real ikc_chain_reach(const ik_mat4 *model_ms, const int *joints, int count);

#endif

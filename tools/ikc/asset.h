/* A character or chain loaded from a file (ikit/asset.h) for the commands,
 * with messages, and the limb chains found by name. */
#ifndef IKC_ASSET_H
#define IKC_ASSET_H

#include <ikit/asset.h>

#define IKC_MAX_CHAIN 32
#define IKC_MAX_CHAINS 16

/* A limb found by the names of its joints (seed 004: "find the joint with
 * 'foot' in its name, then go back up the hierarchy"). */
typedef struct ikc_chain {
    const char *kind;   /* "leg", "arm", "spine", "tail", or a chain file's name */
    int joints[IKC_MAX_CHAIN]; /* root-first; the last is the end effector */
    int count;
} ikc_chain;

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

/* A default chain stays on its own limb: the joints of `joints` [count]
 * (root-first) are dropped from the top down to the lowest joint on the
 * path from the first to the last that carries another limb (one of
 * `chains` [chain_count] ends below it, off the path), since turning them
 * would move that limb too. Returns the count left (1 when the end hangs
 * straight from such a joint). */
int ikc_chain_own_limb(const ik_skeleton *skeleton, const ikc_chain *chains, int chain_count, int *joints, int count);

/* The limb chains in `skeleton`, by joint names; returns how many (a limb
 * cut down to its end alone by ikc_chain_own_limb has count 1). */
int ikc_find_chains(const ik_skeleton *skeleton, ikc_chain *chains, int max_chains);

/* As ikc_find_chains; for a chain file, every path from the root to a tip. */
int ikc_asset_chains(const ik_asset *asset, ikc_chain *chains, int max_chains);

/* How far a chain reaches: the sum of its bone lengths in `model_ms`. */
ik_real ikc_chain_reach(const ik_mat4 *model_ms, const int *joints, int count);

#endif

/* ikit rig: limbs found by the names of their joints (seed 004: "find the
 * joint with 'foot' in its name, then go back up the hierarchy"): legs,
 * arms, spines and tails of any rig, or every path from a root to a tip, as
 * default chains to solve. Nothing here allocates; the caller gives the
 * array of chains. */
#ifndef IKIT_NAMED_CHAINS_H
#define IKIT_NAMED_CHAINS_H

#include <ikit/skeleton.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The longest chain found (a tail or spine is cut at this many joints). */
#define IK_NAMED_CHAIN_MAX_JOINTS 32

typedef struct ik_named_chain {
    const char *kind;                      /* "leg", "arm", "spine", "tail", or the caller's kind */
    int joints[IK_NAMED_CHAIN_MAX_JOINTS]; /* root-first; the last is the end effector */
    int count;
} ik_named_chain;

/* The limbs of `skeleton` into `chains` [max_chains]; returns how many.
 * Legs and arms are three joints (hip-knee-ankle, shoulder-elbow-wrist)
 * ending at the first joint of a run named foot, ankle, hand, wrist or palm,
 * through bones of non-zero length (or the first three joints of a run
 * named leg or arm when there are no such names); IK helpers (target, pole,
 * ctrl, toe, heel, end, ...) are never a limb's end, and no leg or arm
 * climbs into the trunk: it keeps only the joints below one named for it
 * (body, torso, hips, pelvis, spine, chest, root, ...) or below a root
 * whose name is not a limb's, so a hand right under the body joint under
 * the root is a limb of one joint. A spine runs from the
 * head (or the neck's tip) down to where the limbs branch off, a tail from
 * its tip to where it joins the body. Each chain is then kept on its own
 * limb (ik_named_chain_own_limb): a limb cut down to its end alone has
 * count 1. */
int ik_named_chains_find(const ik_skeleton *skeleton, ik_named_chain *chains, int max_chains);

/* Every path from a root to a tip (a joint without children, at least two
 * joints deep) into `chains` [max_chains], each of kind `kind` and cut to
 * its last IK_NAMED_CHAIN_MAX_JOINTS joints; returns how many. */
int ik_named_chains_to_tips(const ik_skeleton *skeleton, const char *kind, ik_named_chain *chains, int max_chains);

/* A default chain stays on its own limb: the joints of `joints` [count]
 * (root-first) are dropped from the top down to the lowest joint on the
 * path from the first to the last that carries another limb (one of
 * `chains` [chain_count] ends below it, off the path), since turning them
 * would move that limb too. Returns the count left (1 when the end hangs
 * straight from such a joint). */
int ik_named_chain_own_limb(const ik_skeleton *skeleton, const ik_named_chain *chains, int chain_count, int *joints,
                            int count);

#ifdef __cplusplus
}
#endif
#endif

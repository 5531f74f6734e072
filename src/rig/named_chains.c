/* Limbs found by the names of their joints (seed 004: "find the joint with
 * 'foot' in its name, then go back up the hierarchy"): legs, arms, spines
 * and tails of any rig, for tools that pick a default chain to solve. */
#include <string.h>

#include <ikit/named_chains.h>

static char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

/* `name` holds the lower-case `word`, in any case (ASCII only: no locale). */
static int has_word(const char *name, const char *word) {
    size_t i, k;
    for (i = 0; name[i]; ++i) {
        if (ascii_lower(name[i]) != word[0]) continue;
        for (k = 1; word[k] && ascii_lower(name[i + k]) == word[k]; ++k) continue;
        if (!word[k]) return 1;
    }
    return 0;
}

/* IK control joints (targets, poles), tips added for End Sites and toes are
 * never a limb's end. */
static int is_helper(const char *name) {
    return has_word(name, "target") || has_word(name, "pole") || has_word(name, "ctrl") || has_word(name, "control") ||
           has_word(name, "_end") || has_word(name, "toe") || has_word(name, "ik") || has_word(name, "heel") ||
           has_word(name, "top");
}

static ik_real bone_length(const ik_skeleton *s, int joint) { return ik_vec3_length(s->rest_ls[joint].translation); }

/* The nearest ancestor reached through a bone of non-zero length: joints at
 * the same place as their parent (BVH's LHipJoint-style helpers, the chain
 * files' zero-length yaw joints) are skipped. */
static int bone_parent(const ik_skeleton *s, int joint, ik_real min_length) {
    int p = s->parents[joint];
    while (p >= 0 && bone_length(s, joint) <= min_length) {
        joint = p;
        p = s->parents[joint];
        if (bone_length(s, joint) > min_length) return joint;
    }
    return p;
}

static ik_real skeleton_scale(const ik_skeleton *s) {
    ik_real total = 0;
    int i;
    for (i = 0; i < s->joint_count; ++i) total += bone_length(s, i);
    return s->joint_count ? total / (ik_real)s->joint_count : 1;
}

/* A new limb is a duplicate when it shares its start and middle joints with
 * one found before (a hand with several palms), or starts at another limb's
 * middle joint (a "hand" joint below a "wrist"). */
static int duplicate_limb(const ik_named_chain *chains, int count, const ik_named_chain *candidate) {
    int c;
    for (c = 0; c < count; ++c) {
        if (chains[c].count != 3) continue;
        if (chains[c].joints[0] == candidate->joints[0] && chains[c].joints[1] == candidate->joints[1]) return 1;
        if (chains[c].joints[1] == candidate->joints[0]) return 1;
    }
    return 0;
}

/* A three-joint limb (hip-knee-ankle, shoulder-elbow-wrist) ending at `end`. */
static int limb_chain(const ik_skeleton *s, int end, ik_real min_length, ik_named_chain *out) {
    int mid = bone_parent(s, end, min_length), start;
    if (mid < 0) return 0;
    start = bone_parent(s, mid, min_length);
    if (start < 0 || bone_length(s, mid) <= min_length) return 0;
    out->joints[0] = start;
    out->joints[1] = mid;
    out->joints[2] = end;
    out->count = 3;
    return 1;
}

/* The children of `joint`, counted up to `enough` (children come after
 * their parent: parents-first order; the scan stops at `enough`). */
static int child_count(const ik_skeleton *s, int joint, int enough) {
    int children = 0, c;
    for (c = joint + 1; c < s->joint_count && children < enough; ++c) children += s->parents[c] == joint;
    return children;
}

/* `joint` carries another limb: a chain of `chains` [count] other than the
 * one ending at `end` ends below it, off the path down to `toward`. */
static int carries_other_limb(const ik_skeleton *s, const ik_named_chain *chains, int count, int end, int joint,
                              int toward) {
    int c;
    for (c = 0; c < count; ++c) {
        int e = chains[c].joints[chains[c].count - 1];
        if (e != end && e != joint && ik_skeleton_is_descendant(s, e, joint) &&
            !ik_skeleton_is_descendant(s, e, toward))
            return 1;
    }
    return 0;
}

int ik_named_chain_own_limb(const ik_skeleton *s, const ik_named_chain *chains, int chain_count, int *joints,
                            int count) {
    int end = joints[count - 1], toward = end, j, k;
    for (j = s->parents[end]; j >= 0 && ik_skeleton_is_descendant(s, j, joints[0]); toward = j, j = s->parents[j]) {
        if (!carries_other_limb(s, chains, chain_count, end, j, toward)) continue;
        for (k = 0; k < count && !(joints[k] != j && ik_skeleton_is_descendant(s, joints[k], j)); ++k) continue;
        memmove(joints, joints + k, (size_t)(count - k) * sizeof *joints);
        return count - k;
    }
    return count;
}

/* From `end` up to the joint where the limbs meet (the first ancestor with
 * two or more children), capped at IK_NAMED_CHAIN_MAX_JOINTS joints. */
static int up_to_branch(const ik_skeleton *s, int end, ik_named_chain *out) {
    int n = 1, j = end;
    while (n < IK_NAMED_CHAIN_MAX_JOINTS && s->parents[j] >= 0) {
        j = s->parents[j];
        ++n;
        if (child_count(s, j, 2) >= 2) break;
    }
    if (n < 2) return 0;
    ik_skeleton_chain(s, end, n, out->joints);
    out->count = n;
    return 1;
}

/* The first joint of a run of joints whose names contain `word` (LeftHand,
 * not LeftHandIndex1 below it). */
static int starts_run(const ik_skeleton *s, int joint, const char *word) {
    int p = s->parents[joint];
    return has_word(ik_skeleton_name(s, joint), word) && !(p >= 0 && has_word(ik_skeleton_name(s, p), word));
}

/* Fallback for rigs without foot or hand names (RiggedFigure's
 * leg_joint_L_1 > _2 > _3): the first three joints of a run named "leg" or
 * "arm", each reached through a bone of non-zero length. */
static int run_limb(const ik_skeleton *s, int top, const char *word, ik_real min_length, ik_named_chain *out) {
    int n = 1, j;
    out->joints[0] = top;
    for (j = top + 1; j < s->joint_count && n < 3; ++j) {
        if (!ik_skeleton_is_descendant(s, j, out->joints[n - 1]) || s->parents[j] < 0) continue;
        if (!has_word(ik_skeleton_name(s, j), word) || bone_parent(s, j, min_length) != out->joints[n - 1]) continue;
        out->joints[n++] = j;
    }
    out->count = n;
    return n == 3;
}

/* A joint of the body's trunk, which no leg or arm turns: one named for
 * the trunk (a "body" joint under the root, the hips, the chest), or a root
 * whose name does not say it is a limb (a rig of one arm may start at its
 * shoulder). Turning either would tilt the whole character. */
static int is_trunk(const ik_skeleton *s, int joint) {
    static const char *const trunk[] = {"armature", "body",  "torso",   "trunk", "pelvis", "hips", "spine",
                                        "chest",    "waist", "abdomen", "root",  "neck",   "head"};
    static const char *const limb[] = {"arm", "leg", "shoulder", "clavicle", "thigh", "hip", "knee", "elbow"};
    const char *name = ik_skeleton_name(s, joint);
    size_t k;
    for (k = 0; k < sizeof trunk / sizeof trunk[0]; ++k)
        if (has_word(name, trunk[k])) return 1;
    if (s->parents[joint] >= 0) return 0;
    for (k = 0; k < sizeof limb / sizeof limb[0]; ++k)
        if (has_word(name, limb[k])) return 0;
    return 1;
}

/* A leg or arm keeps only the joints below the lowest trunk joint on it
 * (is_trunk): a hand straight under the body joint under the root is a
 * limb of one joint, not root > body > hand. Returns the count left. */
static int off_trunk(const ik_skeleton *s, int *joints, int count) {
    int k;
    for (k = count - 2; k >= 0 && !is_trunk(s, joints[k]); --k) continue;
    if (k < 0) return count;
    memmove(joints, joints + k + 1, (size_t)(count - k - 1) * sizeof *joints);
    return count - k - 1;
}

static int add_limb(ik_named_chain *chains, int count, const char *kind) {
    if (duplicate_limb(chains, count, &chains[count])) return count;
    chains[count].kind = kind;
    return count + 1;
}

int ik_named_chains_find(const ik_skeleton *s, ik_named_chain *chains, int max_chains) {
    static const struct {
        const char *word, *kind;
    } ends[] = {{"foot", "leg"}, {"ankle", "leg"}, {"hand", "arm"}, {"wrist", "arm"}, {"palm", "arm"}};
    ik_real min_length = skeleton_scale(s) * (ik_real)1e-3;
    int count = 0, j, w, spines;
    for (j = 0; j < s->joint_count && count < max_chains; ++j) {
        const char *name = ik_skeleton_name(s, j);
        if (is_helper(name)) continue;
        for (w = 0; w < (int)(sizeof ends / sizeof ends[0]); ++w) {
            if (!has_word(name, ends[w].word)) continue;
            if (starts_run(s, j, ends[w].word) && limb_chain(s, j, min_length, &chains[count]))
                count = add_limb(chains, count, ends[w].kind);
            break;
        }
    }
    for (j = 0; j < s->joint_count && count < max_chains; ++j) {
        const char *name = ik_skeleton_name(s, j);
        int c, taken = 0;
        const char *word = has_word(name, "leg") ? "leg" : has_word(name, "arm") ? "arm" : NULL;
        if (!word || is_helper(name) || !starts_run(s, j, word)) continue;
        for (c = 0; c < count; ++c)
            taken |= ik_skeleton_is_descendant(s, chains[c].joints[0], j) ||
                     ik_skeleton_is_descendant(s, j, chains[c].joints[0]);
        if (!taken && run_limb(s, j, word, min_length, &chains[count])) count = add_limb(chains, count, word);
    }
    /* Spine: from the head (the tip of the neck when there is no head) down
     * to the joint where the limbs branch off. */
    spines = 0;
    for (j = 0; j < s->joint_count && count < max_chains; ++j) {
        if (is_helper(ik_skeleton_name(s, j)) || !starts_run(s, j, "head")) continue;
        if (up_to_branch(s, j, &chains[count])) {
            chains[count++].kind = "spine";
            ++spines;
        }
    }
    for (j = 0; j < s->joint_count && count < max_chains && spines == 0; ++j) {
        int c, is_tip = 1;
        if (!has_word(ik_skeleton_name(s, j), "neck")) continue;
        for (c = j + 1; c < s->joint_count && is_tip; ++c)
            if (s->parents[c] == j && has_word(ik_skeleton_name(s, c), "neck")) is_tip = 0;
        if (is_tip && up_to_branch(s, j, &chains[count])) {
            chains[count++].kind = "spine";
            ++spines;
        }
    }
    /* A tail: from its tip up to where it joins the body. */
    for (j = 0; j < s->joint_count && count < max_chains; ++j) {
        const char *name = ik_skeleton_name(s, j);
        if (!(has_word(name, "tail") || has_word(name, "tentacle"))) continue;
        if (s->parents[j] >= 0 && child_count(s, j, 1) == 0 && up_to_branch(s, j, &chains[count]))
            chains[count++].kind = "tail";
    }
    /* No chain climbs through a joint that carries another: a tail stops
     * below the hips, a hand hanging from the body's root is a limb of one
     * joint. */
    for (j = 0; j < count; ++j)
        chains[j].count = ik_named_chain_own_limb(s, chains, count, chains[j].joints, chains[j].count);
    for (j = 0; j < count; ++j)
        if (strcmp(chains[j].kind, "leg") == 0 || strcmp(chains[j].kind, "arm") == 0)
            chains[j].count = off_trunk(s, chains[j].joints, chains[j].count);
    return count;
}

int ik_named_chains_to_tips(const ik_skeleton *s, const char *kind, ik_named_chain *chains, int max_chains) {
    int count = 0, j;
    for (j = 0; j < s->joint_count && count < max_chains; ++j) {
        int n;
        if (s->parents[j] < 0 || child_count(s, j, 1) > 0) continue; /* a tip below a root */
        n = ik_skeleton_depth(s, j);
        if (n > IK_NAMED_CHAIN_MAX_JOINTS) n = IK_NAMED_CHAIN_MAX_JOINTS;
        ik_skeleton_chain(s, j, n, chains[count].joints);
        chains[count].count = n;
        chains[count].kind = kind;
        ++count;
    }
    return count;
}

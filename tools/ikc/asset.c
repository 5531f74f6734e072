/* Loading characters for the commands (printing the loader's message), and
 * finding their limbs by name. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "asset.h"
#include "ikc.h"

static int exit_code_for(ik_result r) {
    switch (r) {
    case IK_ERR_IO: return IKC_EXIT_NO_FILE;
    case IK_ERR_NO_MEMORY: return IKC_EXIT_FAILURE;
    default: return IKC_EXIT_FORMAT;
    }
}

int ikc_asset_load(const char *command, const char *path, ik_asset *asset) {
    ik_io_error err;
    ik_result r = ik_asset_load(path, asset, &err);
    const char *what;
    if (r == IK_OK) return IKC_EXIT_OK;
    if (asset->format == IK_ASSET_UNKNOWN) {
        fprintf(stderr, "ikc %s: %s\n", command, ikc_shown(err.message));
        return exit_code_for(r);
    }
    if (asset->format == IK_ASSET_GLTF && r == IK_ERR_NOT_FOUND) {
        fprintf(stderr, "ikc %s: %s: %s\n", command, path, err.message);
        return exit_code_for(r);
    }
    what = asset->format == IK_ASSET_GLTF ? "glTF" : asset->format == IK_ASSET_BVH ? "BVH" : "chain";
    fprintf(stderr, "ikc %s: %s: not a readable %s file: %s%s%s\n", command, path, what,
            err.message[0] ? ikc_shown(err.message) : ik_result_str(r), err.path[0] ? " at " : "", err.path);
    return exit_code_for(r);
}

const char *ikc_asset_clip_name(const ik_asset *asset, int clip, char *buf, size_t size) {
    const ik_clip *c = ik_asset_clip(asset, clip);
    if (c && c->name && *c->name) return c->name;
    if (asset->bvh) return "motion";
    snprintf(buf, size, "clip %d", clip);
    return buf;
}

int ikc_asset_find_clip(const char *command, const ik_asset *asset, const char *name) {
    int count = ik_asset_clip_count(asset), i, number;
    char buf[32];
    const char *names[256];
    for (i = 0; i < count; ++i)
        if (strcmp(ikc_asset_clip_name(asset, i, buf, sizeof buf), name) == 0) return i;
    if (ikc_parse_int(name, &number) && number >= 0 && number < count) return number;
    if (count == 0) {
        fprintf(stderr, "ikc %s: %s has no clips\n", command, asset->path);
        return -1;
    }
    fprintf(stderr, "ikc %s: no clip '%s' in %s (it has %d; give a name or a number 0..%d)\n", command, name,
            asset->path, count, count - 1);
    for (i = 0; i < count && i < 256; ++i) {
        const ik_clip *c = ik_asset_clip(asset, i);
        names[i] = c && c->name ? c->name : "";
    }
    ikc_suggest_name(stderr, names, i, name, 3);
    return -1;
}

int ikc_asset_find_joint(const char *command, const ik_asset *asset, const char *name) {
    int j = ik_skeleton_find(asset->skeleton, name);
    if (j >= 0) return j;
    fprintf(stderr, "ikc %s: no joint '%s' in %s\n", command, name, asset->path);
    ikc_suggest_joint(stderr, asset->skeleton, name, 3);
    return -1;
}

/* ---- limbs by name -------------------------------------------------------- */

static int has_word(const char *name, const char *word) {
    size_t n = strlen(word), i, k;
    for (i = 0; name[i]; ++i) {
        for (k = 0; k < n && name[i + k]; ++k)
            if (tolower((unsigned char)name[i + k]) != word[k]) break;
        if (k == n) return 1;
    }
    return 0;
}

/* IK control joints (targets, poles), tips added for End Sites and toes are
 * never a limb's end. */
static int is_helper(const char *name) {
    return has_word(name, "target") || has_word(name, "pole") || has_word(name, "ctrl") ||
           has_word(name, "control") || has_word(name, "_end") || has_word(name, "toe") ||
           has_word(name, "ik") || has_word(name, "heel") || has_word(name, "top");
}

static ik_real bone_length(const ik_skeleton *s, int joint) {
    return ik_vec3_length(s->rest_ls[joint].translation);
}

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
static int duplicate_limb(const ikc_chain *chains, int count, const ikc_chain *candidate) {
    int c;
    for (c = 0; c < count; ++c) {
        if (chains[c].count != 3) continue;
        if (chains[c].joints[0] == candidate->joints[0] && chains[c].joints[1] == candidate->joints[1]) return 1;
        if (chains[c].joints[1] == candidate->joints[0]) return 1;
    }
    return 0;
}

/* A three-joint limb (hip-knee-ankle, shoulder-elbow-wrist) ending at `end`. */
static int limb_chain(const ik_skeleton *s, int end, ik_real min_length, ikc_chain *out) {
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

/* Children come after their parent (parents-first order). */
static int child_count(const ik_skeleton *s, int joint) {
    int children = 0, c;
    for (c = joint + 1; c < s->joint_count; ++c) children += s->parents[c] == joint;
    return children;
}

/* `joint` carries another limb: a chain of `chains` [count] other than the
 * one ending at `end` ends below it, off the path down to `toward`. */
static int carries_other_limb(const ik_skeleton *s, const ikc_chain *chains, int count, int end, int joint,
                              int toward) {
    int c;
    for (c = 0; c < count; ++c) {
        int e = chains[c].joints[chains[c].count - 1];
        if (e != end && e != joint && ik_skeleton_is_descendant(s, e, joint) && !ik_skeleton_is_descendant(s, e, toward))
            return 1;
    }
    return 0;
}

int ikc_chain_own_limb(const ik_skeleton *s, const ikc_chain *chains, int chain_count, int *joints, int count) {
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
 * two or more children), capped at IKC_MAX_CHAIN joints. */
static int up_to_branch(const ik_skeleton *s, int end, ikc_chain *out) {
    int n = 1, j = end;
    while (n < IKC_MAX_CHAIN && s->parents[j] >= 0) {
        j = s->parents[j];
        ++n;
        if (child_count(s, j) >= 2) break;
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
static int run_limb(const ik_skeleton *s, int top, const char *word, ik_real min_length, ikc_chain *out) {
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

static int add_limb(ikc_chain *chains, int count, const char *kind) {
    if (duplicate_limb(chains, count, &chains[count])) return count;
    chains[count].kind = kind;
    return count + 1;
}

int ikc_find_chains(const ik_skeleton *s, ikc_chain *chains, int max_chains) {
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
        for (c = 0; c < count; ++c) taken |= ik_skeleton_is_descendant(s, chains[c].joints[0], j) ||
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
        for (c = j + 1; c < s->joint_count; ++c)
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
        if (child_count(s, j) == 0 && up_to_branch(s, j, &chains[count])) chains[count++].kind = "tail";
    }
    /* No chain climbs through a joint that carries another: a tail stops
     * below the hips, a hand hanging from the body's root is a limb of one
     * joint. */
    for (j = 0; j < count; ++j) chains[j].count = ikc_chain_own_limb(s, chains, count, chains[j].joints, chains[j].count);
    return count;
}

int ikc_asset_chains(const ik_asset *asset, ikc_chain *chains, int max_chains) {
    const ik_skeleton *s = asset->skeleton;
    int count, j;
    if (!asset->chain_file) return ikc_find_chains(s, chains, max_chains);
    /* A chain file is one limb (or a tree of them): every path from the root
     * to a tip, named after the file's chain. */
    count = 0;
    for (j = 0; j < s->joint_count && count < max_chains; ++j) {
        int n = ik_skeleton_depth(s, j);
        if (n > IKC_MAX_CHAIN) n = IKC_MAX_CHAIN;
        if (child_count(s, j) > 0 || n < 2) continue;
        ik_skeleton_chain(s, j, n, chains[count].joints);
        chains[count].count = n;
        chains[count].kind = asset->chain_file->name;
        ++count;
    }
    return count;
}

ik_real ikc_chain_reach(const ik_mat4 *model_ms, const int *joints, int count) {
    ik_real reach = 0;
    int k;
    for (k = 1; k < count; ++k)
        reach += ik_vec3_distance(ik_mat4_translation(&model_ms[joints[k - 1]]),
                                  ik_mat4_translation(&model_ms[joints[k]]));
    return reach;
}

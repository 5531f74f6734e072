/* Loading characters for the commands, and finding their limbs by name. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "asset.h"
#include "ikc.h"

/* A glTF document may hold several skins; the one with the most joints is
 * the character. */
static int largest_skin(const ik_gltf *gltf) {
    int best = 0, best_count = -1, i;
    for (i = 0; i < ik_gltf_skin_count(gltf); ++i) {
        const ik_gltf_skin *s = ik_gltf_skeleton(gltf, i);
        if (s && s->skeleton.joint_count > best_count) {
            best = i;
            best_count = s->skeleton.joint_count;
        }
    }
    return best;
}

static int exit_code_for(ik_result r) {
    switch (r) {
    case IK_ERR_IO: return IKC_EXIT_NO_FILE;
    case IK_ERR_NO_MEMORY: return IKC_EXIT_FAILURE;
    default: return IKC_EXIT_FORMAT;
    }
}

/* The format is chosen by content: GLB starts with "glTF", BVH with
 * HIERARCHY, a chain file with `chain`, glTF JSON with '{'. 0 (errno set)
 * when the file cannot be opened. */
static int sniff(const char *path, ikc_format *format, int *binary) {
    char head[512];
    size_t n = 0, i = 0;
    struct stat st;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer; only a regular
     * file is looked into (the loaders refuse the rest with a message) */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        ssize_t got = read(fd, head, sizeof head - 1);
        n = got > 0 ? (size_t)got : 0;
    }
    close(fd);
    head[n] = '\0';
    *binary = 0;
    if (n >= 4 && memcmp(head, "glTF", 4) == 0) {
        *format = IKC_FORMAT_GLTF;
        *binary = 1;
        return 1;
    }
    for (;;) {
        while (i < n && isspace((unsigned char)head[i])) ++i;
        if (i < n && head[i] == '#') {
            while (i < n && head[i] != '\n') ++i;
            continue;
        }
        break;
    }
    if (i < n && head[i] == '{') *format = IKC_FORMAT_GLTF;
    else if (n - i >= 9 && strncmp(head + i, "HIERARCHY", 9) == 0) *format = IKC_FORMAT_BVH;
    else if (n - i >= 5 && strncmp(head + i, "chain", 5) == 0) *format = IKC_FORMAT_CHAIN;
    else {
        char ext[16];
        ikc_extension(path, ext, sizeof ext);
        if (strcmp(ext, "bvh") == 0) *format = IKC_FORMAT_BVH;
        else if (strcmp(ext, "chain") == 0) *format = IKC_FORMAT_CHAIN;
        else *format = IKC_FORMAT_GLTF;
    }
    return 1;
}

int ikc_asset_load(const char *command, const char *path, ikc_asset *asset) {
    ik_io_error err;
    ik_result r;
    memset(asset, 0, sizeof *asset);
    asset->path = path;
    asset->root_ms = ik_mat4_identity();
    if (!sniff(path, &asset->format, &asset->binary)) {
        fprintf(stderr, "ikc %s: cannot open '%s': %s\n", command, path, strerror(errno));
        return IKC_EXIT_NO_FILE;
    }
    ik_io_error_clear(&err);
    switch (asset->format) {
    case IKC_FORMAT_GLTF: {
        const ik_gltf_skin *skin;
        r = ik_gltf_read_file(path, &asset->gltf, &err);
        if (r != IK_OK) break;
        if (ik_gltf_skin_count(asset->gltf) == 0) {
            fprintf(stderr, "ikc %s: %s: the glTF file has no skin, so no skeleton to work on\n", command, path);
            ikc_asset_free(asset);
            return IKC_EXIT_FORMAT;
        }
        asset->skin = largest_skin(asset->gltf);
        skin = ik_gltf_skeleton(asset->gltf, asset->skin);
        asset->skeleton = &skin->skeleton;
        asset->root_ms = skin->root_ms;
        break;
    }
    case IKC_FORMAT_BVH:
        r = ik_bvh_read_file(path, &asset->bvh, &err);
        if (r == IK_OK) asset->skeleton = &asset->bvh->skeleton;
        break;
    case IKC_FORMAT_CHAIN:
        r = ik_chain_file_read_file(path, &asset->chain_file, &err);
        if (r != IK_OK) break;
        asset->skeleton = &asset->chain_file->skeleton;
        asset->constraints = (ik_constraint *)calloc((size_t)asset->skeleton->joint_count, sizeof(ik_constraint));
        if (!asset->constraints) r = IK_ERR_NO_MEMORY;
        else ikc_chain_file_constraints(asset->chain_file, asset->constraints);
        break;
    default: r = IK_ERR_UNSUPPORTED;
    }
    if (r != IK_OK) {
        const char *what = asset->format == IKC_FORMAT_GLTF ? "glTF" : asset->format == IKC_FORMAT_BVH ? "BVH" : "chain";
        fprintf(stderr, "ikc %s: %s: not a readable %s file: %s%s%s\n", command, path, what,
                err.message[0] ? ikc_shown(err.message) : ik_result_str(r), err.path[0] ? " at " : "", err.path);
        ikc_asset_free(asset);
        return exit_code_for(r);
    }
    return IKC_EXIT_OK;
}

void ikc_asset_free(ikc_asset *asset) {
    if (asset->gltf) ik_gltf_free(asset->gltf);
    if (asset->bvh) ik_bvh_free(asset->bvh);
    if (asset->chain_file) ik_chain_file_free(asset->chain_file);
    free(asset->constraints);
    memset(asset, 0, sizeof *asset);
}

const char *ikc_format_name(const ikc_asset *asset) {
    switch (asset->format) {
    case IKC_FORMAT_GLTF: return asset->binary ? "glTF binary (GLB)" : "glTF 2.0";
    case IKC_FORMAT_BVH: return "BVH motion capture";
    default: return "chain description";
    }
}

int ikc_asset_clip_count(const ikc_asset *asset) {
    if (asset->gltf) return ik_gltf_clip_count(asset->gltf);
    if (asset->bvh) return asset->bvh->frame_count > 0 ? 1 : 0;
    return 0;
}

const ik_clip *ikc_asset_clip(const ikc_asset *asset, int clip) {
    if (clip < 0 || clip >= ikc_asset_clip_count(asset)) return NULL;
    if (asset->gltf) return ik_gltf_clip(asset->gltf, clip, asset->skin);
    return &asset->bvh->clip;
}

const char *ikc_asset_clip_name(const ikc_asset *asset, int clip, char *buf, size_t size) {
    const ik_clip *c = ikc_asset_clip(asset, clip);
    if (c && c->name && *c->name) return c->name;
    if (asset->bvh) return "motion";
    snprintf(buf, size, "clip %d", clip);
    return buf;
}

int ikc_asset_find_clip(const char *command, const ikc_asset *asset, const char *name) {
    int count = ikc_asset_clip_count(asset), i, number;
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
        const ik_clip *c = ikc_asset_clip(asset, i);
        names[i] = c && c->name ? c->name : "";
    }
    ikc_suggest_name(stderr, names, i, name, 3);
    return -1;
}

int ikc_asset_find_joint(const char *command, const ikc_asset *asset, const char *name) {
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

int ikc_asset_chains(const ikc_asset *asset, ikc_chain *chains, int max_chains) {
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

/* A chain file's limits are degrees about the rest pose (identity rotations):
 * a hinge about its axis, a ball as a cone about its twist axis with the
 * twist range; fixed joints are hinges locked at 0. */
void ikc_chain_file_constraints(const ik_chain_file *chain, ik_constraint *constraints) {
    int i;
    for (i = 0; i < chain->joint_count; ++i) {
        const ik_chain_joint *j = &chain->joints[i];
        switch (j->type) {
        case IK_CHAIN_HINGE:
            constraints[i] = ik_constraint_hinge(ik_quat_identity(), j->axis_ls, ik_rad(j->limit_min_deg),
                                                 ik_rad(j->limit_max_deg));
            break;
        case IK_CHAIN_BALL:
            constraints[i] = ik_constraint_cone_twist(ik_quat_identity(), j->axis_ls, ik_rad(j->cone_deg),
                                                      ik_rad(j->limit_min_deg), ik_rad(j->limit_max_deg));
            break;
        default: constraints[i] = ik_constraint_hinge(ik_quat_identity(), ik_v3(1, 0, 0), 0, 0);
        }
    }
}

/* The humanoid map: body roles found by joint name in the common naming
 * conventions, checked against the hierarchy, with structure filling gaps;
 * the "role = joint name" mapping parser; left/right mirrors of names. */
#include <ikit/humanoid.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROLE_NAME_ITEM(role, file_name) file_name,
static const char *const role_names[IK_ROLE_COUNT] = {IK_HUMANOID_ROLE_LIST(ROLE_NAME_ITEM)};
#undef ROLE_NAME_ITEM

const char *ik_humanoid_role_name(int role) { return role >= 0 && role < IK_ROLE_COUNT ? role_names[role] : ""; }

int ik_humanoid_role_find(const char *name, int length) {
    int role;
    size_t n;
    if (!name) return -1;
    n = length < 0 ? strlen(name) : (size_t)length;
    for (role = 0; role < IK_ROLE_COUNT; ++role)
        if (strlen(role_names[role]) == n && memcmp(role_names[role], name, n) == 0) return role;
    return -1;
}

int ik_humanoid_role_mirror(int role) {
    if (role < IK_ROLE_CLAVICLE_L || role >= IK_ROLE_COUNT) return role;
    return ((role - IK_ROLE_CLAVICLE_L) & 1) ? role - 1 : role + 1;
}

/* ---- names ------------------------------------------------------------------ */

static char lower(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c; }
static ik_bool is_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
static ik_bool is_separator(char c) { return c == '.' || c == '_' || c == '-' || c == ' '; }
static ik_bool starts_with_nocase(const char *s, const char *prefix) {
    for (; *prefix; ++s, ++prefix)
        if (lower(*s) != *prefix) return 0;
    return 1;
}

enum { SIDE_NONE = 0, SIDE_L = 1, SIDE_R = 2 };

/* Rig-wide prefixes before a joint's own name, dropped with the separator
 * after them: "Skeleton_arm_joint_L__4_" (Khronos CesiumMan), "DEF-thigh.L"
 * (Rigify's deform bones), "b_Hip_01" (the Khronos Fox), "Bip01 L Thigh"
 * (3ds Max Biped), "mixamorig_Hips". */
static int prefix_length(const char *name) {
    static const char *const prefixes[] = {"skeleton", "def", "bip001", "bip01", "bn", "b", "mixamorig"};
    int i;
    for (i = 0; i < (int)(sizeof prefixes / sizeof prefixes[0]); ++i) {
        size_t n = strlen(prefixes[i]);
        if (starts_with_nocase(name, prefixes[i]) && is_separator(name[n]) && is_alnum(name[n + 1])) return (int)n + 1;
    }
    return 0;
}

/* Where a name says its side: a "Left"/"Right" prefix (CMU, Mixamo), an
 * "L_"/"r " prefix (Biped), a ".L"/"_l" suffix (Blender, Unreal), an "_L_"
 * infix (Khronos figures) or a "Left"/"Right" suffix, all after any
 * "namespace:" prefix and rig-wide prefix (prefix_length). Sets the token's
 * position and length in the name. */
typedef struct name_side {
    int side, pos, len, body_start;
} name_side;

static name_side find_side(const char *name) {
    name_side r;
    int n = (int)strlen(name), i;
    r.side = SIDE_NONE;
    r.pos = r.len = 0;
    r.body_start = 0;
    for (i = 0; i < n; ++i)
        if (name[i] == ':' || name[i] == '|') r.body_start = i + 1;
    r.body_start += prefix_length(name + r.body_start);
    i = r.body_start;
    if (starts_with_nocase(name + i, "left")) {
        r.side = SIDE_L, r.pos = i, r.len = 4;
    } else if (starts_with_nocase(name + i, "right")) {
        r.side = SIDE_R, r.pos = i, r.len = 5;
    } else if (n - i >= 3 && (lower(name[i]) == 'l' || lower(name[i]) == 'r') && is_separator(name[i + 1])) {
        r.side = lower(name[i]) == 'l' ? SIDE_L : SIDE_R, r.pos = i, r.len = 1;
    } else if (n - i >= 3 && is_separator(name[n - 2]) && (lower(name[n - 1]) == 'l' || lower(name[n - 1]) == 'r')) {
        r.side = lower(name[n - 1]) == 'l' ? SIDE_L : SIDE_R, r.pos = n - 1, r.len = 1;
    } else {
        for (; i + 2 < n; ++i)
            if (is_separator(name[i]) && is_separator(name[i + 2]) &&
                (lower(name[i + 1]) == 'l' || lower(name[i + 1]) == 'r') && i > r.body_start) {
                r.side = lower(name[i + 1]) == 'l' ? SIDE_L : SIDE_R, r.pos = i + 1, r.len = 1;
                return r;
            }
        if (n - r.body_start > 4 && starts_with_nocase(name + n - 4, "left"))
            r.side = SIDE_L, r.pos = n - 4, r.len = 4;
        else if (n - r.body_start > 5 && starts_with_nocase(name + n - 5, "right"))
            r.side = SIDE_R, r.pos = n - 5, r.len = 5;
    }
    return r;
}

#define BASE_MAX 48

/* The name without namespace, rig-wide prefix, side token and separators,
 * lower case: "mixamorig:LeftUpLeg" -> "upleg", "leg_joint_L_1" ->
 * "legjoint1", "DEF-thigh.L" -> "thigh". Returns 0 when too long. */
static ik_bool name_base(const char *name, const name_side *side, char *base) {
    int i = side->body_start, k = 0, n = (int)strlen(name);
    for (; i < n; ++i) {
        if (side->side != SIDE_NONE && i >= side->pos && i < side->pos + side->len) continue;
        if (!is_alnum(name[i])) continue;
        if (k + 1 >= BASE_MAX) return 0;
        base[k++] = lower(name[i]);
    }
    base[k] = 0;
    return 1;
}

/* base without its trailing digits ("palm2" -> "palm", "spine001" -> "spine"). */
static void strip_digits(char *base) {
    size_t n = strlen(base);
    while (n > 0 && base[n - 1] >= '0' && base[n - 1] <= '9') base[--n] = 0;
}

ik_bool ik_humanoid_mirror_name(const char *name, char *out, size_t size) {
    name_side s;
    size_t n;
    const char *with;
    char swapped[6];
    int i;
    if (!name || !out || size == 0) return 0;
    n = strlen(name);
    s = find_side(name);
    if (s.side == SIDE_NONE) {
        if (n + 1 > size) return 0;
        memcpy(out, name, n + 1);
        return 0;
    }
    /* The other side's word, in the case the name used: "Left" -> "Right",
     * "LEFT" -> "RIGHT", "l" -> "r". */
    with = s.len == 1 ? (s.side == SIDE_L ? "r" : "l") : (s.side == SIDE_L ? "right" : "left");
    {
        ik_bool first_upper = name[s.pos] >= 'A' && name[s.pos] <= 'Z';
        ik_bool all_upper = first_upper && s.len > 1 && name[s.pos + 1] >= 'A' && name[s.pos + 1] <= 'Z';
        for (i = 0; with[i]; ++i)
            swapped[i] = (all_upper || (i == 0 && first_upper)) ? (char)(with[i] - 'a' + 'A') : with[i];
    }
    swapped[i] = 0;
    if (n - (size_t)s.len + strlen(swapped) + 1 > size) return 0;
    memcpy(out, name, (size_t)s.pos);
    memcpy(out + s.pos, swapped, strlen(swapped));
    memcpy(out + s.pos + strlen(swapped), name + s.pos + s.len, n - (size_t)(s.pos + s.len) + 1);
    return 1;
}

ik_result ik_humanoid_mirror_joints(const ik_skeleton *skeleton, int *mirror) {
    int i;
    char other[256];
    if (!skeleton || !mirror) return IK_ERR_NULL;
    for (i = 0; i < skeleton->joint_count; ++i) {
        int j = -1;
        if (ik_humanoid_mirror_name(ik_skeleton_name(skeleton, i), other, sizeof other))
            j = ik_skeleton_find(skeleton, other);
        mirror[i] = j >= 0 ? j : i;
    }
    return IK_OK;
}

/* ---- the search --------------------------------------------------------------- */

/* Names each role goes by, most specific first (bases as name_base makes them). */
static const char *const *role_candidates(int role) {
    static const char *const hips[] = {"hips", "pelvis", "hip", NULL};
    static const char *const spine[] = {"spine", "abdomen", "lowerback", "lowerspine", "spine1", "torsojoint2", NULL};
    static const char *const neck[] = {"neck", "neck1", "lowerneck", "neckjoint1", NULL};
    static const char *const head[] = {"head", NULL};
    static const char *const clavicle[] = {"clavicle", "collar", "shoulder", NULL};
    static const char *const upper_arm[] = {"upperarm", "arm", "uparm", "armjoint1", "humerus", NULL};
    static const char *const forearm[] = {"forearm", "lowerarm", "elbow", "armjoint2", NULL};
    static const char *const hand[] = {"hand", "wrist", "palm", "armjoint3", NULL};
    static const char *const thigh[] = {"upperleg", "upleg", "thigh", "hip", "legjoint1", "femur", NULL};
    static const char *const shin[] = {"lowerleg", "shin", "calf", "knee", "leg", "legjoint2", "tibia", NULL};
    static const char *const foot[] = {"foot", "ankle", "legjoint3", NULL};
    static const char *const toe[] = {"toebase", "toe", "toes", "ball", "legjoint5", "legjoint4", NULL};
    static const char *const none[] = {NULL};
    switch (role) {
        case IK_ROLE_HIPS:
            return hips;
        case IK_ROLE_SPINE:
            return spine;
        case IK_ROLE_NECK:
            return neck;
        case IK_ROLE_HEAD:
            return head;
        case IK_ROLE_CLAVICLE_L:
        case IK_ROLE_CLAVICLE_R:
            return clavicle;
        case IK_ROLE_UPPER_ARM_L:
        case IK_ROLE_UPPER_ARM_R:
            return upper_arm;
        case IK_ROLE_FOREARM_L:
        case IK_ROLE_FOREARM_R:
            return forearm;
        case IK_ROLE_HAND_L:
        case IK_ROLE_HAND_R:
            return hand;
        case IK_ROLE_THIGH_L:
        case IK_ROLE_THIGH_R:
            return thigh;
        case IK_ROLE_SHIN_L:
        case IK_ROLE_SHIN_R:
            return shin;
        case IK_ROLE_FOOT_L:
        case IK_ROLE_FOOT_R:
            return foot;
        case IK_ROLE_TOE_L:
        case IK_ROLE_TOE_R:
            return toe;
        default:
            return none;
    }
}

static int role_side(int role) {
    if (role < IK_ROLE_CLAVICLE_L) return SIDE_NONE;
    return ((role - IK_ROLE_CLAVICLE_L) & 1) ? SIDE_R : SIDE_L;
}

/* Where a role's joint must sit relative to the roles found before it. */
typedef struct placement {
    int below;     /* must be a proper descendant of this joint (-1: any) */
    int above;     /* must be a proper ancestor of this joint (-1: any) */
    int not_below; /* must not lie in this joint's subtree (-1: none) */
} placement;

static ik_bool proper_descendant(const ik_skeleton *s, int joint, int ancestor) {
    return joint != ancestor && ik_skeleton_is_descendant(s, joint, ancestor);
}

static ik_bool fits(const ik_skeleton *s, int joint, placement p) {
    if (p.below >= 0 && !proper_descendant(s, joint, p.below)) return 0;
    if (p.above >= 0 && !proper_descendant(s, p.above, joint)) return 0;
    if (p.not_below >= 0 && ik_skeleton_is_descendant(s, joint, p.not_below)) return 0;
    return 1;
}

/* ---- matching names to roles -------------------------------------------------- */

/* Search order of a name match: exact bases (round 0) before bases with
 * their trailing digits dropped (round 1), then by candidate priority c,
 * then by joint order: key = round * ROUND_STRIDE + c, ties by joint. */
#define ROUND_STRIDE 16

/* A joint name reduced to what the roles are matched on. */
typedef struct name_class {
    int side;
    char base[BASE_MAX]; /* name_base */
    char stem[BASE_MAX]; /* base without its trailing digits */
} name_class;

/* 0 when the name's base is too long to be any role's. */
static ik_bool classify_name(const char *name, name_class *out) {
    name_side side = find_side(name);
    if (!name_base(name, &side, out->base)) return 0;
    out->side = side.side;
    memcpy(out->stem, out->base, sizeof out->base);
    strip_digits(out->stem);
    return 1;
}

/* Key of `role` for a classified name, or -1 when it is not a match. */
static int role_key(int role, const name_class *n) {
    const char *const *cand = role_candidates(role);
    int c;
    if (n->side != role_side(role)) return -1;
    for (c = 0; cand[c]; ++c)
        if (strcmp(n->base, cand[c]) == 0) return c;
    for (c = 0; cand[c]; ++c)
        if (strcmp(n->stem, cand[c]) == 0) return ROUND_STRIDE + c;
    return -1;
}

/* Every role's first name matches in search order, gathered in one pass
 * over the joints, so that a rig of 100,000 joints classifies each name
 * once instead of once per role and candidate (issue 18, item 5). */
#define MATCHES_KEPT 8
typedef struct role_matches {
    long count; /* matches in all */
    int key[MATCHES_KEPT], joint[MATCHES_KEPT];
} role_matches;

/* One (candidate word, role, priority) for the look-up by word. */
typedef struct candidate_word {
    const char *word;
    int role, rank;
} candidate_word;
#define CANDIDATE_WORDS_MAX 128 /* role_candidates lists 90 */

static int compare_words(const void *a, const void *b) {
    const candidate_word *x = (const candidate_word *)a, *y = (const candidate_word *)b;
    int by_word = strcmp(x->word, y->word);
    return by_word ? by_word : x->role - y->role;
}

/* Every role's candidates, sorted by word; returns their number. */
static int candidate_words(candidate_word *out) {
    int role, c, n = 0;
    for (role = 0; role < IK_ROLE_COUNT; ++role) {
        const char *const *cand = role_candidates(role);
        for (c = 0; cand[c] && n < CANDIDATE_WORDS_MAX; ++c, ++n) {
            out[n].word = cand[c];
            out[n].role = role;
            out[n].rank = c;
        }
    }
    qsort(out, (size_t)n, sizeof *out, compare_words);
    return n;
}

/* The first entry of the sorted `words` [n] equal to `word`, or n. */
static int first_word(const candidate_word *words, int n, const char *word) {
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (strcmp(words[mid].word, word) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && strcmp(words[lo].word, word) == 0 ? lo : n;
}

/* Joint `joint` offered to `m` under `key`: kept sorted by key (joints come
 * in increasing order, so a tie keeps the earlier joint first). */
static void offer_match(role_matches *m, int key, int joint) {
    int at = m->count < MATCHES_KEPT ? (int)m->count : MATCHES_KEPT;
    ++m->count;
    while (at > 0 && m->key[at - 1] > key) {
        if (at < MATCHES_KEPT) m->key[at] = m->key[at - 1], m->joint[at] = m->joint[at - 1];
        --at;
    }
    if (at < MATCHES_KEPT) m->key[at] = key, m->joint[at] = joint;
}

/* Fill matches [IK_ROLE_COUNT]. A joint's exact base is offered before its
 * stem, and a role takes a joint once, so each keeps the joint's first key. */
static void gather_matches(const ik_skeleton *s, role_matches *matches) {
    candidate_word words[CANDIDATE_WORDS_MAX];
    int n = candidate_words(words), j, role, round;
    int last_joint[IK_ROLE_COUNT];
    for (role = 0; role < IK_ROLE_COUNT; ++role) matches[role].count = 0, last_joint[role] = -1;
    for (j = 0; j < s->joint_count; ++j) {
        name_class name;
        if (!classify_name(ik_skeleton_name(s, j), &name)) continue;
        for (round = 0; round < 2; ++round) {
            const char *word = round ? name.stem : name.base;
            int w;
            for (w = first_word(words, n, word); w < n && strcmp(words[w].word, word) == 0; ++w) {
                role = words[w].role;
                if (role_side(role) != name.side || last_joint[role] == j) continue;
                last_joint[role] = j;
                offer_match(&matches[role], round * ROUND_STRIDE + words[w].rank, j);
            }
        }
    }
}

/* The first joint in search order whose side and base name match the role
 * and which fits the placement; the first that matches by name but not by
 * place, coming before it, is noted in *rejected. The kept matches are
 * tried first; when there were more and none of those fitted, one pass
 * over the joints finds the first fitting one after them. */
static int find_by_name(const ik_skeleton *s, const role_matches *m, int role, placement p, int *rejected) {
    int k, kept = m->count < MATCHES_KEPT ? (int)m->count : MATCHES_KEPT, j, found = -1, found_key = 0;
    for (k = 0; k < kept; ++k) {
        if (fits(s, m->joint[k], p)) return m->joint[k];
        if (*rejected < 0) *rejected = m->joint[k];
    }
    if (m->count <= MATCHES_KEPT) return -1;
    /* all MATCHES_KEPT kept, none fitting: on after the last of them */
    for (j = 0; j < s->joint_count; ++j) {
        name_class name;
        int key, last_key = m->key[MATCHES_KEPT - 1];
        if (!classify_name(ik_skeleton_name(s, j), &name) || (key = role_key(role, &name)) < 0) continue;
        if (key < last_key || (key == last_key && j <= m->joint[MATCHES_KEPT - 1])) continue; /* kept */
        if ((found < 0 || key < found_key) && fits(s, j, p)) found = j, found_key = key;
    }
    return found;
}

static int parent_of(const ik_skeleton *s, int joint) { return joint >= 0 ? s->parents[joint] : -1; }

static int common_ancestor(const ik_skeleton *s, int a, int b) {
    if (a < 0) return b;
    if (b < 0) return a;
    while (a >= 0 && !ik_skeleton_is_descendant(s, b, a)) a = s->parents[a];
    return a;
}

/* The child of `top` on the path down to `bottom`, or -1. */
static int child_toward(const ik_skeleton *s, int top, int bottom) {
    int j = bottom;
    if (top < 0 || bottom < 0 || !proper_descendant(s, bottom, top)) return -1;
    while (s->parents[j] != top) j = s->parents[j];
    return j;
}

static ik_bool is_end_site(const char *name) {
    size_t n = strlen(name);
    return n >= 4 && starts_with_nocase(name + n - 4, "_end");
}

/* How far below the chest the head is looked for by its structure (a neck
 * of a few joints, the head, a face below it in real rigs): the walk and
 * the depths it compares stop there, so a long chain under the chest (hair,
 * a tail) costs linear time instead of a scan of the rig per joint of it. */
#define HEAD_SEARCH_LEVELS 32

/* The head when no joint is called so: from the chest, down the branch that
 * holds no arm, always to the child with the deepest subtree (counted to
 * HEAD_SEARCH_LEVELS; ties to the first child), to its last joint that is
 * not a BVH End Site. Each step is one pass over the joints below. */
static int head_by_structure(const ik_skeleton *s, int chest, int arm_l, int arm_r) {
    int j = chest, step;
    for (step = 0; step < HEAD_SEARCH_LEVELS; ++step) {
        int best = -1, best_below = -1, m;
        for (m = j + 1; m < s->joint_count; ++m) {
            int c = -1, below = ik_skeleton_levels_below(s, m, j, HEAD_SEARCH_LEVELS, &c);
            if (below == 0 || below < best_below || (below == best_below && c >= best)) continue;
            if (is_end_site(ik_skeleton_name(s, c)) || (arm_l >= 0 && ik_skeleton_is_descendant(s, arm_l, c)) ||
                (arm_r >= 0 && ik_skeleton_is_descendant(s, arm_r, c)))
                continue;
            best = c, best_below = below;
        }
        if (best < 0) return j == chest ? -1 : j;
        j = best;
    }
    return j;
}

static placement place(int below, int above, int not_below) {
    placement p;
    p.below = below;
    p.above = above;
    p.not_below = not_below;
    return p;
}

/* Joints `a` and `b` on the same side with names equal but for their
 * trailing digits ("leg_joint_L_1", "leg_joint_L_2"; "b_LeftLeg01_015",
 * "b_LeftLeg02_016"). */
static ik_bool same_stem(const ik_skeleton *s, int a, int b) {
    const char *na = ik_skeleton_name(s, a), *nb = ik_skeleton_name(s, b);
    name_side sa = find_side(na), sb = find_side(nb);
    char ba[BASE_MAX], bb[BASE_MAX];
    if (sa.side != sb.side || !name_base(na, &sa, ba) || !name_base(nb, &sb, bb)) return 0;
    strip_digits(ba);
    strip_digits(bb);
    return ba[0] && strcmp(ba, bb) == 0;
}

/* The numbered run through `joint`: from the highest ancestor reached
 * through parents of the same stem (same_stem) down through the first child
 * of the same stem at each step, root-first into run [max]; returns its
 * length. The hierarchy orders it, not the numbers: CesiumMan's left arm is
 * Skeleton_arm_joint_L__4_ > __3_ > __2_. */
static int numbered_run(const ik_skeleton *s, int joint, int *run, int max) {
    int top = joint, n = 0, j, c;
    while (s->parents[top] >= 0 && same_stem(s, s->parents[top], joint)) top = s->parents[top];
    for (j = top; j >= 0 && n < max;) {
        run[n++] = j;
        for (c = j + 1; c < s->joint_count && !(s->parents[c] == j && same_stem(s, c, joint)); ++c) continue;
        j = c < s->joint_count ? c : -1;
    }
    return n;
}

/* One role: the user's pair if any, else by name. */
static void resolve(const ik_skeleton *s, const role_matches *matches, ik_humanoid_map *map, const int *user, int role,
                    placement p) {
    if (user[role] != -2)
        map->joint[role] = user[role];
    else
        map->joint[role] = find_by_name(s, &matches[role], role, p, &map->rejected[role]);
}

static void resolve_limb(const ik_skeleton *s, const role_matches *matches, ik_humanoid_map *map, const int *user,
                         int upper, int lower, int end, int extra, ik_bool extra_above) {
    int *j = map->joint;
    resolve(s, matches, map, user, lower, place(-1, -1, -1));
    resolve(s, matches, map, user, end, place(j[lower], -1, -1));
    if (j[lower] < 0 && j[end] >= 0) j[lower] = parent_of(s, j[end]);
    resolve(s, matches, map, user, upper, place(-1, j[lower], -1));
    if (j[upper] < 0) j[upper] = parent_of(s, j[lower]);
    if (extra_above)
        resolve(s, matches, map, user, extra, place(-1, j[upper], -1));
    else if (j[end] >= 0)
        resolve(s, matches, map, user, extra, place(j[end], -1, -1));
    /* A numbered run through the middle joint holds the limb's joints in
     * hierarchy order: upper, middle, end (and a leg's toe). */
    if (j[lower] >= 0) {
        int run[4], roles[4], n, k;
        roles[0] = upper, roles[1] = lower, roles[2] = end, roles[3] = extra;
        n = numbered_run(s, j[lower], run, extra_above ? 3 : 4);
        for (k = 0; n >= 2 && k < n; ++k)
            if (user[roles[k]] == -2) j[roles[k]] = run[k];
    }
}

ik_result ik_humanoid_map_find(const ik_skeleton *s, const ik_humanoid_pair *pairs, int pair_count,
                               ik_humanoid_map *map) {
    int user[IK_ROLE_COUNT], i, side, *j;
    role_matches matches[IK_ROLE_COUNT];
    char name[256];
    if (!s || !map || (pair_count > 0 && !pairs)) return IK_ERR_NULL;
    for (i = 0; i < IK_ROLE_COUNT; ++i) user[i] = -2, map->joint[i] = map->rejected[i] = -1;
    for (i = 0; i < pair_count; ++i) {
        int len = pairs[i].name_length;
        if (pairs[i].role < 0 || pairs[i].role >= IK_ROLE_COUNT || !pairs[i].name || len < 0) return IK_ERR_RANGE;
        if (len >= (int)sizeof name) {
            user[pairs[i].role] = -1;
            continue;
        }
        memcpy(name, pairs[i].name, (size_t)len);
        name[len] = 0;
        user[pairs[i].role] = ik_skeleton_find(s, name);
    }
    gather_matches(s, matches);
    j = map->joint;
    for (side = 0; side < 2; ++side) {
        resolve_limb(s, matches, map, user, IK_ROLE_UPPER_ARM_L + side, IK_ROLE_FOREARM_L + side, IK_ROLE_HAND_L + side,
                     IK_ROLE_CLAVICLE_L + side, 1);
        resolve_limb(s, matches, map, user, IK_ROLE_THIGH_L + side, IK_ROLE_SHIN_L + side, IK_ROLE_FOOT_L + side,
                     IK_ROLE_TOE_L + side, 0);
    }
    /* Centre line: hips hold both thighs, the chest both arms; without both
     * thighs, the hips by name. */
    if (user[IK_ROLE_HIPS] != -2)
        j[IK_ROLE_HIPS] = user[IK_ROLE_HIPS];
    else if (j[IK_ROLE_THIGH_L] >= 0 && j[IK_ROLE_THIGH_R] >= 0)
        j[IK_ROLE_HIPS] = common_ancestor(s, j[IK_ROLE_THIGH_L], j[IK_ROLE_THIGH_R]);
    else
        resolve(s, matches, map, user, IK_ROLE_HIPS, place(-1, -1, -1));
    if (user[IK_ROLE_CHEST] != -2) {
        j[IK_ROLE_CHEST] = user[IK_ROLE_CHEST];
    } else {
        int arm_l = j[IK_ROLE_CLAVICLE_L] >= 0 ? j[IK_ROLE_CLAVICLE_L] : j[IK_ROLE_UPPER_ARM_L];
        int arm_r = j[IK_ROLE_CLAVICLE_R] >= 0 ? j[IK_ROLE_CLAVICLE_R] : j[IK_ROLE_UPPER_ARM_R];
        j[IK_ROLE_CHEST] = arm_l >= 0 && arm_r >= 0 ? common_ancestor(s, arm_l, arm_r) : -1;
    }
    if (j[IK_ROLE_CHEST] < 0) resolve(s, matches, map, user, IK_ROLE_HEAD, place(j[IK_ROLE_HIPS], -1, -1));
    if (j[IK_ROLE_CHEST] >= 0) {
        resolve(s, matches, map, user, IK_ROLE_HEAD, place(j[IK_ROLE_CHEST], -1, -1));
        if (j[IK_ROLE_HEAD] < 0 && user[IK_ROLE_HEAD] == -2)
            j[IK_ROLE_HEAD] = head_by_structure(s, j[IK_ROLE_CHEST], j[IK_ROLE_UPPER_ARM_L], j[IK_ROLE_UPPER_ARM_R]);
        if (j[IK_ROLE_HEAD] >= 0) {
            resolve(s, matches, map, user, IK_ROLE_NECK, place(j[IK_ROLE_CHEST], j[IK_ROLE_HEAD], -1));
            if (j[IK_ROLE_NECK] < 0 && user[IK_ROLE_NECK] == -2) {
                int c = child_toward(s, j[IK_ROLE_CHEST], j[IK_ROLE_HEAD]);
                j[IK_ROLE_NECK] = c != j[IK_ROLE_HEAD] ? c : -1;
            }
        }
        if (j[IK_ROLE_HIPS] >= 0 && proper_descendant(s, j[IK_ROLE_CHEST], j[IK_ROLE_HIPS])) {
            resolve(s, matches, map, user, IK_ROLE_SPINE, place(j[IK_ROLE_HIPS], j[IK_ROLE_CHEST], -1));
            if (j[IK_ROLE_SPINE] < 0 && user[IK_ROLE_SPINE] == -2) {
                int c = child_toward(s, j[IK_ROLE_HIPS], j[IK_ROLE_CHEST]);
                j[IK_ROLE_SPINE] = c != j[IK_ROLE_CHEST] ? c : -1;
            }
        }
    }
    map->missing = 0;
    for (i = 0; i < IK_ROLE_COUNT; ++i)
        if (j[i] < 0) map->missing |= 1ul << i;
    return (map->missing & IK_HUMANOID_REQUIRED_ROLES) ? IK_ERR_NOT_FOUND : IK_OK;
}

int ik_humanoid_map_describe(const ik_humanoid_map *map, const ik_skeleton *s, char *out, size_t size) {
    size_t used = 0;
    int i, n;
    if (out && size > 0) out[0] = 0;
    if (!map || !s) return 0;
    for (i = 0; i < IK_ROLE_COUNT; ++i) {
        char *at = out && used < size ? out + used : NULL;
        size_t room = out && used < size ? size - used : 0;
        const char *req = (IK_HUMANOID_REQUIRED_ROLES >> i) & 1 ? "" : " (optional)";
        if (map->joint[i] >= 0)
            n = snprintf(at, room, "%s = %s\n", role_names[i], ik_skeleton_name(s, map->joint[i]));
        else if (map->rejected[i] >= 0)
            n = snprintf(at, room, "%s: missing%s (%s is not where a %s goes: an IK control?)\n", role_names[i], req,
                         ik_skeleton_name(s, map->rejected[i]), role_names[i]);
        else
            n = snprintf(at, room, "%s: missing%s\n", role_names[i], req);
        if (n > 0) used += (size_t)n;
    }
    return (int)used;
}

/* Appends `text` to out[size] at *used, counting what does not fit. */
static void put(char *out, size_t size, size_t *used, const char *text) {
    size_t n = strlen(text);
    if (out && *used + 1 < size) {
        size_t room = size - *used - 1, k = n < room ? n : room;
        memcpy(out + *used, text, k);
        out[*used + k] = 0;
    }
    *used += n;
}

int ik_humanoid_explain(ik_result map_result, ik_result init_result, const ik_humanoid_map *map, char *out,
                        size_t size) {
    size_t used = 0;
    int role, first = 1;
    if (out && size > 0) out[0] = 0;
    if (map_result != IK_OK) {
        unsigned long missing = map ? map->missing & IK_HUMANOID_REQUIRED_ROLES : 0;
        put(out, size, &used, "no humanoid found: ");
        if (!missing)
            put(out, size, &used, ik_result_str(map_result));
        else
            put(out, size, &used, "missing");
        for (role = 0; role < IK_ROLE_COUNT; ++role)
            if (missing & (1ul << role)) {
                put(out, size, &used, first ? " " : ", ");
                put(out, size, &used, role_names[role]);
                first = 0;
            }
    } else if (init_result == IK_ERR_UNSUPPORTED) {
        put(out, size, &used,
            "no humanoid found: the figure does not stand upright (its legs do not hang away from its head: "
            "a quadruped?)");
    } else if (init_result != IK_OK) {
        put(out, size, &used, "the humanoid's rest pose is not usable: ");
        put(out, size, &used, ik_result_str(init_result));
        put(out, size, &used,
            init_result == IK_ERR_HIERARCHY    ? " (roles out of body order)"
            : init_result == IK_ERR_DEGENERATE ? " (zero-length limbs or a body with no width)"
                                               : "");
    }
    return (int)used;
}

/* ---- the mapping file -------------------------------------------------------- */

static const char *trim_start(const char *a, const char *b) {
    while (a < b && (*a == ' ' || *a == '\t' || *a == '\r')) ++a;
    return a;
}
static const char *trim_end(const char *a, const char *b) {
    while (b > a && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\r')) --b;
    return b;
}

ik_result ik_humanoid_parse_mapping(const char *text, size_t length, ik_humanoid_pair *pairs, int capacity, int *count,
                                    int *error_line) {
    const char *p = text, *end = text + length;
    int line = 0, n = 0, i;
    if (error_line) *error_line = 0;
    if (count) *count = 0;
    if ((!text && length > 0) || !count || (!pairs && capacity > 0)) return IK_ERR_NULL;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *a, *b, *eq;
        int role;
        if (!eol) eol = end;
        ++line;
        a = trim_start(p, eol);
        b = trim_end(a, eol);
        p = eol + (eol < end);
        if (a == b || *a == '#') continue;
        eq = memchr(a, '=', (size_t)(b - a));
        if (!eq) goto fail;
        role = ik_humanoid_role_find(a, (int)(trim_end(a, eq) - a));
        a = trim_start(eq + 1, b);
        if (role < 0 || a == b || b - a > 255) goto fail;
        for (i = 0; i < n; ++i)
            if (pairs[i].role == role) goto fail;
        if (n >= capacity) {
            if (error_line) *error_line = line;
            return IK_ERR_CAPACITY;
        }
        pairs[n].role = role;
        pairs[n].name = a;
        pairs[n].name_length = (int)(b - a);
        ++n;
    }
    *count = n;
    return IK_OK;
fail:
    if (error_line) *error_line = line;
    return IK_ERR_PARSE;
}

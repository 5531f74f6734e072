/* Skeleton hierarchy, validation, forward kinematics and chains. */
#include <ikit/skeleton.h>

#include <stdint.h>
#include <string.h>

static void set_error(ik_error *error, int joint, const char *what) {
    if (!error) return;
    error->index = joint;
    ik_error_set(error, 0, 0, -1, "joint %d: %s", joint, what);
}

/* FNV-1a, 32 bits (Fowler, Noll, Vo), then MurmurHash3's finaliser
 * (Appleby) so that every bit of the result depends on every byte: the
 * hash table below takes a slot from the high bits and a tag from the low
 * ones. */
static uint32_t name_hash(const char *name) {
    uint32_t h = 2166136261u;
    for (; *name; ++name) h = (h ^ (unsigned char)*name) * 16777619u;
    h = (h ^ (h >> 16)) * 0x85ebca6bu;
    h = (h ^ (h >> 13)) * 0xc2b2ae35u;
    return h ^ (h >> 16);
}

/* Entries of the sort are pairs (hash, joint) in one int array; the order
 * is by hash, then name, then joint. Equal hashes cost a strcmp, so names
 * made to collide cost n log n of them, never more. */
static int entry_before(const char *const *names, const int *a, const int *b) {
    int c;
    if (a[0] != b[0]) return a[0] < b[0];
    c = strcmp(names[a[1]], names[b[1]]);
    return c < 0 || (c == 0 && a[1] < b[1]);
}

static void copy_entry(int *to, const int *from) {
    to[0] = from[0];
    to[1] = from[1];
}

/* Puts `item` into the max-heap of `count` entries whose slot `at` is free,
 * bottom-up (Wegener 1993, "Bottom-up heapsort"): the hole goes down to a
 * leaf along the larger children, one comparison a level, and `item` then
 * climbs from there, usually a level or two. */
static void sift_down(const char *const *names, int *heap, int at, int count, const int *item) {
    int top = at, child;
    while ((child = 2 * at + 1) < count) {
        if (child + 1 < count && entry_before(names, heap + 2 * child, heap + 2 * (child + 1))) ++child;
        copy_entry(heap + 2 * at, heap + 2 * child);
        at = child;
    }
    while (at > top && entry_before(names, heap + 2 * ((at - 1) / 2), item)) {
        copy_entry(heap + 2 * at, heap + 2 * ((at - 1) / 2));
        at = (at - 1) / 2;
    }
    copy_entry(heap + 2 * at, item);
}

/* The named joints heap-sorted in `scratch` [2 joint_count] (Williams 1964:
 * O(n log n) comparisons, no recursion, no allocation); each group of equal
 * names gives its second joint, and the smallest of those is the answer. */
static int first_duplicate_sorted(const char *const *names, int joint_count, int *scratch) {
    int i, count = 0, found = -1, item[2];
    for (i = 0; i < joint_count; ++i) {
        if (!names[i] || !names[i][0]) continue;
        scratch[2 * count] = (int)(name_hash(names[i]) >> 1);
        scratch[2 * count + 1] = i;
        ++count;
    }
    for (i = count / 2 - 1; i >= 0; --i) {
        copy_entry(item, scratch + 2 * i);
        sift_down(names, scratch, i, count, item);
    }
    for (i = count - 1; i > 0; --i) {
        copy_entry(item, scratch + 2 * i);
        copy_entry(scratch + 2 * i, scratch);
        sift_down(names, scratch, 0, i, item);
    }
    for (i = 1; i < count; ++i) {
        const int *a = scratch + 2 * (i - 1), *b = scratch + 2 * i;
        if (a[0] == b[0] && strcmp(names[a[1]], names[b[1]]) == 0 && (found < 0 || b[1] < found)) found = b[1];
    }
    return found;
}

/* Probes past the first a joint may take on average before the hash table
 * gives up: a miss at load a costs (1 + 1/(1 - a)^2) / 2 probes (Knuth,
 * TAOCP vol. 3, 6.4), so filling to a = 1/2 costs about half an extra probe
 * a joint; 4 is far above what honest names need. */
#define PROBE_BUDGET 4
#define HASH_GAVE_UP (-2)

/* Open addressing with linear probing (Knuth's algorithm L) in `table`
 * [2 joint_count], so at most half full. Joints go in in index order, and
 * the first whose name is already there is the answer: the smallest index
 * whose name an earlier joint has. A slot holds -1 (empty) or a joint's
 * index with the low bits of its hash above it as a tag, so a probe reads a
 * name only when the tags agree. The hash has no secret seed, so names can
 * be crafted to collide and make probing quadratic: past PROBE_BUDGET
 * probes a joint in all, HASH_GAVE_UP, and the caller sorts instead. */
static int first_duplicate_hashed(const char *const *names, int joint_count, int *table) {
    uint64_t slots = 2 * (uint64_t)joint_count, budget = PROBE_BUDGET * (uint64_t)joint_count + 64, at;
    int index_bits = 0, i;
    uint32_t index_mask, tag_mask;
    while (index_bits < 31 && (1u << index_bits) < (unsigned)joint_count) ++index_bits;
    index_mask = (1u << index_bits) - 1;
    tag_mask = 0x7fffffffu >> index_bits;
    for (at = 0; at < slots; ++at) table[at] = -1;
    for (i = 0; i < joint_count; ++i) {
        uint32_t h, tag;
        if (!names[i] || !names[i][0]) continue;
        h = name_hash(names[i]);
        tag = h & tag_mask;
        at = ((uint64_t)h * slots) >> 32;
        while (table[at] >= 0) {
            uint32_t held = (uint32_t)table[at];
            if (held >> index_bits == tag && strcmp(names[held & index_mask], names[i]) == 0) return i;
            if (++at == slots) at = 0;
            if (--budget == 0) return HASH_GAVE_UP;
        }
        table[at] = (int)(tag << index_bits | (uint32_t)i);
    }
    return -1;
}

/* The smallest index i whose name some j < i also has, or -1; NULL and
 * empty names never count. With `scratch` [2 joint_count]: a hash table
 * there, expected O(n), or where crafted names exhaust its probes a sort,
 * O(n log n); without it every pair of names is compared, O(n^2). */
static int first_duplicate_name(const char *const *names, int joint_count, int *scratch) {
    int i, j, found;
    if (!scratch) {
        for (i = 0; i < joint_count; ++i)
            for (j = 0; names[i] && names[i][0] && j < i; ++j)
                if (names[j] && strcmp(names[i], names[j]) == 0) return i;
        return -1;
    }
    found = first_duplicate_hashed(names, joint_count, scratch);
    return found != HASH_GAVE_UP ? found : first_duplicate_sorted(names, joint_count, scratch);
}

/* Parents-first (p < i) means every walk up strictly decreases the index, so
 * it ends at a root: a cycle cannot exist. Rotations must be unit within
 * 1e-3 (they are normalised by the caller's exporter, not here). */
ik_result ik_skeleton_init_scratch(ik_skeleton *skeleton, int joint_count, const int *parents, const char *const *names,
                                   const ik_transform *rest_ls, int *scratch, ik_error *error) {
    int i;
    ik_error_clear(error);
    if (!skeleton || (joint_count > 0 && (!parents || !rest_ls))) {
        set_error(error, -1, "skeleton, parents and rest poses are required");
        return IK_ERR_NULL;
    }
    if (joint_count < 0) {
        set_error(error, -1, "negative joint count");
        return IK_ERR_RANGE;
    }
    for (i = 0; i < joint_count; ++i) {
        ik_real qlen;
        if (parents[i] < -1 || parents[i] >= joint_count) {
            set_error(error, i, "parent index out of range");
            return IK_ERR_RANGE;
        }
        if (parents[i] >= i) {
            set_error(error, i, "parent does not come before its child (parents-first order or a cycle)");
            return IK_ERR_HIERARCHY;
        }
        if (!ik_transform_finite(rest_ls[i])) {
            set_error(error, i, "rest transform holds NaN or infinity");
            return IK_ERR_NONFINITE;
        }
        qlen = ik_quat_length(rest_ls[i].rotation);
        if (IK_FABS(qlen - 1) > (ik_real)1e-3) {
            set_error(error, i, "rest rotation is not a unit quaternion");
            return IK_ERR_DEGENERATE;
        }
    }
    if (names && (i = first_duplicate_name(names, joint_count, scratch)) >= 0) {
        set_error(error, i, "duplicate joint name");
        return IK_ERR_HIERARCHY;
    }
    skeleton->joint_count = joint_count;
    skeleton->parents = parents;
    skeleton->names = names;
    skeleton->rest_ls = rest_ls;
    return IK_OK;
}

ik_result ik_skeleton_init(ik_skeleton *skeleton, int joint_count, const int *parents, const char *const *names,
                           const ik_transform *rest_ls, ik_error *error) {
    return ik_skeleton_init_scratch(skeleton, joint_count, parents, names, rest_ls, NULL, error);
}

int ik_skeleton_find(const ik_skeleton *skeleton, const char *name) {
    int i;
    if (!skeleton || !skeleton->names || !name) return -1;
    for (i = 0; i < skeleton->joint_count; ++i)
        if (skeleton->names[i] && strcmp(skeleton->names[i], name) == 0) return i;
    return -1;
}

const char *ik_skeleton_name(const ik_skeleton *skeleton, int joint) {
    if (!skeleton || !skeleton->names || joint < 0 || joint >= skeleton->joint_count) return "";
    return skeleton->names[joint] ? skeleton->names[joint] : "";
}

ik_bool ik_skeleton_is_descendant(const ik_skeleton *skeleton, int joint, int ancestor) {
    if (joint < 0 || ancestor < 0 || joint >= skeleton->joint_count) return 0;
    while (joint > ancestor) joint = skeleton->parents[joint];
    return joint == ancestor;
}

void ik_skeleton_rest_pose(const ik_skeleton *skeleton, ik_transform *pose_ls) {
    memcpy(pose_ls, skeleton->rest_ls, (size_t)skeleton->joint_count * sizeof *pose_ls);
}

void ik_skeleton_fk_joint(const ik_skeleton *skeleton, int joint, const ik_transform *pose_ls, const ik_mat4 *root_ms,
                          ik_mat4 *model_ms) {
    ik_mat4 local = ik_transform_to_mat4(pose_ls[joint]);
    int p = skeleton->parents[joint];
    if (p >= 0)
        model_ms[joint] = ik_mat4_mul(&model_ms[p], &local);
    else
        model_ms[joint] = root_ms ? ik_mat4_mul(root_ms, &local) : local;
}

ik_mat4 ik_skeleton_rest_model(const ik_skeleton *skeleton, int joint) {
    ik_mat4 m = ik_transform_to_mat4(skeleton->rest_ls[joint]);
    int j;
    for (j = skeleton->parents[joint]; j >= 0; j = skeleton->parents[j]) {
        ik_mat4 parent = ik_transform_to_mat4(skeleton->rest_ls[j]);
        m = ik_mat4_mul(&parent, &m);
    }
    return m;
}

void ik_skeleton_fk(const ik_skeleton *skeleton, const ik_transform *pose_ls, const ik_mat4 *root_ms,
                    ik_mat4 *model_ms) {
    int i;
    for (i = 0; i < skeleton->joint_count; ++i) ik_skeleton_fk_joint(skeleton, i, pose_ls, root_ms, model_ms);
}

int ik_skeleton_levels_below(const ik_skeleton *skeleton, int joint, int ancestor, int max_levels, int *child) {
    int up;
    if (ancestor < 0 || joint >= skeleton->joint_count) return 0;
    /* parents come first: the walk stops once it passes ancestor's index */
    for (up = 1; joint > ancestor && up <= max_levels; ++up) {
        if (skeleton->parents[joint] == ancestor) {
            if (child) *child = joint;
            return up;
        }
        joint = skeleton->parents[joint];
    }
    return 0;
}

/* Subtree membership of the last IK_SUBTREE_WINDOW joints, a bit each in
 * the scan's ring: joint k is in the subtree when its parent is the top or
 * a member, one look-up when the parent is within the window (always, down
 * a chain), else a walk up its parents (a joint whose parent lies more than
 * 4,096 joints back). */
static int ring_bit(const ik_subtree_scan *scan, int joint) {
    int slot = (joint - scan->top) & (IK_SUBTREE_WINDOW - 1);
    return scan->ring[slot >> 3] >> (slot & 7) & 1;
}

void ik_subtree_scan_begin(ik_subtree_scan *scan, int top) {
    scan->top = top;
    scan->next = top + 1;
    memset(scan->ring, 0, sizeof scan->ring);
    scan->ring[0] = 1; /* the top itself */
}

ik_bool ik_subtree_scan_has(ik_subtree_scan *scan, const ik_skeleton *skeleton, int joint) {
    if (scan->top < 0 || joint < scan->top || joint >= skeleton->joint_count) return 0;
    if (joint == scan->top) return 1;
    if (joint < scan->next - IK_SUBTREE_WINDOW) return ik_skeleton_is_descendant(skeleton, joint, scan->top);
    while (scan->next <= joint) {
        int k = scan->next++, p = skeleton->parents[k], slot = (k - scan->top) & (IK_SUBTREE_WINDOW - 1), in;
        if (p < scan->top)
            in = 0;
        else if (k - p < IK_SUBTREE_WINDOW)
            in = ring_bit(scan, p);
        else
            in = ik_skeleton_is_descendant(skeleton, k, scan->top);
        if (in)
            scan->ring[slot >> 3] |= (unsigned char)(1u << (slot & 7));
        else
            scan->ring[slot >> 3] &= (unsigned char)~(1u << (slot & 7));
    }
    return (ik_bool)ring_bit(scan, joint);
}

void ik_skeleton_fk_subtree(const ik_skeleton *skeleton, int joint, const ik_transform *pose_ls, const ik_mat4 *root_ms,
                            ik_mat4 *model_ms) {
    ik_subtree_scan scan;
    int k;
    if (joint < 0 || joint >= skeleton->joint_count) return;
    ik_subtree_scan_begin(&scan, joint);
    ik_skeleton_fk_joint(skeleton, joint, pose_ls, root_ms, model_ms);
    for (k = joint + 1; k < skeleton->joint_count; ++k)
        if (ik_subtree_scan_has(&scan, skeleton, k)) ik_skeleton_fk_joint(skeleton, k, pose_ls, root_ms, model_ms);
}

ik_result ik_skeleton_model_to_local(const ik_skeleton *skeleton, const ik_mat4 *model_ms, const ik_mat4 *root_ms,
                                     ik_transform *pose_ls) {
    ik_result result = IK_OK;
    int i;
    for (i = 0; i < skeleton->joint_count; ++i) {
        int p = skeleton->parents[i];
        const ik_mat4 *parent = p >= 0 ? &model_ms[p] : root_ms;
        ik_mat4 inv, local;
        if (!parent) {
            pose_ls[i] = ik_transform_from_mat4(&model_ms[i]);
            continue;
        }
        if (!ik_mat4_inverse(parent, &inv)) {
            pose_ls[i] = ik_transform_from_mat4(&model_ms[i]);
            result = IK_ERR_DEGENERATE;
            continue;
        }
        local = ik_mat4_mul(&inv, &model_ms[i]);
        pose_ls[i] = ik_transform_from_mat4(&local);
    }
    return result;
}

ik_result ik_skeleton_chain(const ik_skeleton *skeleton, int end_joint, int count, int *chain) {
    int i, j = end_joint;
    if (!skeleton || !chain) return IK_ERR_NULL;
    if (end_joint < 0 || end_joint >= skeleton->joint_count || count < 1) return IK_ERR_RANGE;
    if (ik_skeleton_depth(skeleton, end_joint) < count) return IK_ERR_RANGE;
    for (i = count - 1; i >= 0; --i) {
        chain[i] = j;
        j = skeleton->parents[j];
    }
    return IK_OK;
}

int ik_skeleton_depth(const ik_skeleton *skeleton, int joint) {
    int n = 0;
    if (!skeleton || joint >= skeleton->joint_count) return 0;
    while (joint >= 0) {
        ++n;
        joint = skeleton->parents[joint];
    }
    return n;
}

/* Dropping what an edit of a glTF tree orphaned (gltf_prune.h). References
 * followed, per the glTF 2.0 schema: accessors are used by animation
 * samplers (input, output), mesh primitives (attributes, indices, morph
 * targets), skins (inverseBindMatrices) and EXT_mesh_gpu_instancing's node
 * attributes; bufferViews by accessors (and their sparse indices and
 * values), images and KHR_draco_mesh_compression; buffers by bufferViews.
 * `extras` are application data, not references. */
#include "gltf_prune.h"

#include <stdlib.h>
#include <string.h>

static cJSON *get(const cJSON *obj, const char *key) { return cJSON_GetObjectItemCaseSensitive(obj, key); }

static cJSON *extension(const cJSON *obj, const char *name) { return get(get(obj, "extensions"), name); }

/* ---- which extensions leave the references knowable ---------------------- */

/* Extensions that hold no index of an accessor, bufferView or buffer, and
 * the two whose references the visits below follow. */
static int extension_followed(const char *name) {
    static const char *const known[] = {"KHR_texture_transform",  "KHR_texture_basisu",  "EXT_texture_webp",
                                        "EXT_texture_avif",       "KHR_lights_punctual", "KHR_mesh_quantization",
                                        "KHR_animation_pointer",  "KHR_xmp_json_ld",     "KHR_draco_mesh_compression",
                                        "EXT_mesh_gpu_instancing"};
    size_t i;
    if (strncmp(name, "KHR_materials_", 14) == 0) return 1;
    for (i = 0; i < sizeof known / sizeof known[0]; ++i)
        if (strcmp(name, known[i]) == 0) return 1;
    return 0;
}

/* Every "extensions" object anywhere in the document names only followed
 * extensions. The document's values lie in one flat array, so this is one
 * pass over each object's members. */
static int extensions_followed(const json_doc *doc) {
    size_t i;
    for (i = 0; i < doc->value_count; ++i) {
        const json_value *object = &doc->values[i], *member, *ext;
        if (object->type != JSON_OBJECT) continue;
        JSON_FOR_EACH(member, object) {
            if (!json_is_object(member) || strcmp(json_key_of(member), "extensions") != 0) continue;
            JSON_FOR_EACH(ext, member) if (!extension_followed(json_key_of(ext))) return 0;
        }
    }
    return 1;
}

/* ---- visiting the references ---------------------------------------------- */

typedef void (*ref_visit)(cJSON *ref, void *ctx);

static void visit_member(const cJSON *obj, const char *key, ref_visit fn, void *ctx) {
    cJSON *ref = get(obj, key);
    if (cJSON_IsNumber(ref)) fn(ref, ctx);
}

/* Every member of an attributes or morph-target object. */
static void visit_values(const cJSON *map, ref_visit fn, void *ctx) {
    cJSON *ref;
    if (!cJSON_IsObject(map)) return;
    cJSON_ArrayForEach(ref, map) if (cJSON_IsNumber(ref)) fn(ref, ctx);
}

static void visit_accessor_refs(cJSON *tree, ref_visit fn, void *ctx) {
    cJSON *anim, *sampler, *mesh, *prim, *target, *skin, *node;
    cJSON_ArrayForEach(anim, get(tree, "animations")) cJSON_ArrayForEach(sampler, get(anim, "samplers")) {
        visit_member(sampler, "input", fn, ctx);
        visit_member(sampler, "output", fn, ctx);
    }
    cJSON_ArrayForEach(mesh, get(tree, "meshes")) cJSON_ArrayForEach(prim, get(mesh, "primitives")) {
        visit_values(get(prim, "attributes"), fn, ctx);
        visit_member(prim, "indices", fn, ctx);
        cJSON_ArrayForEach(target, get(prim, "targets")) visit_values(target, fn, ctx);
    }
    cJSON_ArrayForEach(skin, get(tree, "skins")) visit_member(skin, "inverseBindMatrices", fn, ctx);
    cJSON_ArrayForEach(node, get(tree, "nodes"))
        visit_values(get(extension(node, "EXT_mesh_gpu_instancing"), "attributes"), fn, ctx);
}

static void visit_view_refs(cJSON *tree, ref_visit fn, void *ctx) {
    cJSON *acc, *image, *mesh, *prim;
    cJSON_ArrayForEach(acc, get(tree, "accessors")) {
        visit_member(acc, "bufferView", fn, ctx);
        visit_member(get(get(acc, "sparse"), "indices"), "bufferView", fn, ctx);
        visit_member(get(get(acc, "sparse"), "values"), "bufferView", fn, ctx);
    }
    cJSON_ArrayForEach(image, get(tree, "images")) visit_member(image, "bufferView", fn, ctx);
    cJSON_ArrayForEach(mesh, get(tree, "meshes")) cJSON_ArrayForEach(prim, get(mesh, "primitives"))
        visit_member(extension(prim, "KHR_draco_mesh_compression"), "bufferView", fn, ctx);
}

static void visit_buffer_refs(cJSON *tree, ref_visit fn, void *ctx) {
    cJSON *view;
    cJSON_ArrayForEach(view, get(tree, "bufferViews")) visit_member(view, "buffer", fn, ctx);
}

/* One kind of object: its items in the tree, which are referenced (flag)
 * and, once orphans are dropped, each one's new index (map, -1 dropped). */
typedef struct kind_state {
    cJSON *array;
    cJSON **items;
    unsigned char *flag;
    long *map;
    long count;
} kind_state;

/* A reference's index when it is an integer within the array, else -1
 * (left alone: it names nothing that exists). */
static long index_of(const cJSON *ref, long count) {
    double v = ref->valuedouble;
    return v >= 0 && v < (double)count && v == (double)(long)v ? (long)v : -1;
}

static void mark(cJSON *ref, void *ctx) {
    kind_state *k = (kind_state *)ctx;
    long i = index_of(ref, k->count);
    if (i >= 0) k->flag[i] = 1;
}

static void renumber(cJSON *ref, void *ctx) {
    kind_state *k = (kind_state *)ctx;
    long i = index_of(ref, k->count);
    if (i >= 0 && k->map[i] >= 0) cJSON_SetNumberValue(ref, (double)k->map[i]);
}

/* ---- the references before the edit ---------------------------------------- */

static int flags_of(cJSON *tree, const char *key, void (*visit)(cJSON *, ref_visit, void *), long *count,
                    unsigned char **flag) {
    kind_state k;
    k.count = *count = cJSON_GetArraySize(get(tree, key));
    k.flag = *flag = (unsigned char *)calloc((size_t)k.count + 1, 1);
    if (!k.flag) return 0;
    visit(tree, mark, &k);
    return 1;
}

int gltf_refs_of(const ik_gltf *g, cJSON *tree, gltf_refs *refs) {
    memset(refs, 0, sizeof *refs);
    refs->prunable = extensions_followed(&g->doc);
    if (flags_of(tree, "accessors", visit_accessor_refs, &refs->accessor_count, &refs->accessor) &&
        flags_of(tree, "bufferViews", visit_view_refs, &refs->view_count, &refs->view) &&
        flags_of(tree, "buffers", visit_buffer_refs, &refs->buffer_count, &refs->buffer))
        return 1;
    gltf_refs_free(refs);
    return 0;
}

void gltf_refs_free(gltf_refs *refs) {
    free(refs->accessor);
    free(refs->view);
    free(refs->buffer);
    memset(refs, 0, sizeof *refs);
}

/* ---- dropping -------------------------------------------------------------- */

/* Mark what the tree references now, drop each item that was referenced
 * before (index below before_count, flagged in `before`) and is not now
 * (from index `first` on), number the rest in order and renumber the
 * references to them. */
static void drop_orphans(cJSON *tree, kind_state *k, void (*visit)(cJSON *, ref_visit, void *),
                         const unsigned char *before, long before_count, long first) {
    long i, kept = 0;
    memset(k->flag, 0, (size_t)k->count);
    visit(tree, mark, k);
    for (i = 0; i < k->count; ++i) {
        int orphan = i >= first && i < before_count && before[i] && !k->flag[i];
        k->map[i] = orphan ? -1 : kept++;
        if (orphan) cJSON_Delete(cJSON_DetachItemViaPointer(k->array, k->items[i]));
    }
    visit(tree, renumber, k);
}

/* A view's bytes [start, end) in buffer `buffer`. */
typedef struct span {
    long buffer, view;
    size_t start, end;
} span;

static int compare_spans(const void *a, const void *b) {
    const span *x = (const span *)a, *y = (const span *)b;
    if (x->buffer != y->buffer) return x->buffer < y->buffer ? -1 : 1;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return x->view < y->view ? -1 : x->view > y->view;
}

/* Ranges sorted by start merged in place into disjoint ones; their count. */
static long merge_spans(span *s, long n) {
    long i, m = 0;
    for (i = 0; i < n; ++i) {
        if (m > 0 && s[i].start <= s[m - 1].end) {
            if (s[i].end > s[m - 1].end) s[m - 1].end = s[i].end;
        } else {
            s[m++] = s[i];
        }
    }
    return m;
}

/* The parts of the `cut` ranges that no `keep` range covers (both sorted
 * and disjoint): a dropped view's bytes that a kept view shares stay. */
static long uncovered(const span *cut, long cut_count, const span *keep, long keep_count, span *out) {
    long c, j = 0, m, n = 0;
    for (c = 0; c < cut_count; ++c) {
        size_t at = cut[c].start;
        while (j < keep_count && keep[j].end <= at) ++j;
        for (m = j; m < keep_count && keep[m].start < cut[c].end; ++m) {
            if (keep[m].start > at) {
                out[n] = cut[c];
                out[n].start = at, out[n++].end = keep[m].start;
            }
            if (keep[m].end > at) at = keep[m].end;
        }
        if (at < cut[c].end) {
            out[n] = cut[c];
            out[n].start = at, out[n++].end = cut[c].end;
        }
    }
    return n;
}

/* Plan the cut of the ranges `removed` (sorted, disjoint) out of buffer
 * `buffer` of `size` bytes: each run of kept bytes moves down to the first
 * free byte with its own offset modulo 4 (zeros before it),
 * to = out + ((from - out) mod 4), so every view keeps the alignment it had
 * (4 bytes, or its components' size) and the buffer shrinks by the removed
 * bytes less at most 3 a cut. The runs go to plan->pieces; returns the new
 * size. */
static size_t plan_cut(gltf_prune *plan, long buffer, size_t size, const span *removed, long n) {
    size_t out = 0, from = 0;
    long r;
    for (r = 0; r <= n; ++r) {
        size_t end = r < n ? removed[r].start : size;
        if (end > from) {
            gltf_piece *p = &plan->pieces[plan->piece_count++];
            size_t to = out + ((from - out) & 3);
            p->buffer = buffer, p->start = from, p->end = end, p->shift = from - to;
            out = to + (end - from);
        }
        if (r < n) from = removed[r].end;
    }
    return out;
}

/* Scratch for one prune, all allocated before anything changes. */
typedef struct prune_work {
    kind_state acc, view, buf;
    span *spans, *cut, *keep, *removed;
} prune_work;

static int kind_init(kind_state *k, cJSON *array, long count) {
    cJSON *item;
    long n = 0;
    k->array = array;
    k->count = count;
    k->items = (cJSON **)malloc(((size_t)count + 1) * sizeof *k->items);
    k->flag = (unsigned char *)malloc((size_t)count + 1);
    k->map = (long *)malloc(((size_t)count + 1) * sizeof *k->map);
    if (!k->items || !k->flag || !k->map) return 0;
    cJSON_ArrayForEach(item, array) k->items[n++] = item;
    return 1;
}

static void kind_free(kind_state *k) {
    free(k->items);
    free(k->flag);
    free(k->map);
}

static void work_free(prune_work *w) {
    kind_free(&w->acc);
    kind_free(&w->view);
    free(w->buf.items);
    free(w->buf.flag);
    free(w->spans);
    free(w->cut);
    free(w->keep);
    free(w->removed);
}

/* Every view's bytes, by buffer then start (taken before views are dropped
 * from the tree; the reader checked each view's fields). */
static void view_spans(prune_work *w) {
    long v;
    for (v = 0; v < w->view.count; ++v) {
        const cJSON *item = w->view.items[v], *offset = get(item, "byteOffset");
        span *s = &w->spans[v];
        s->buffer = (long)get(item, "buffer")->valuedouble;
        s->view = v;
        s->start = offset ? (size_t)offset->valuedouble : 0;
        s->end = s->start + (size_t)get(item, "byteLength")->valuedouble;
    }
    qsort(w->spans, (size_t)w->view.count, sizeof *w->spans, compare_spans);
}

/* Buffer `buffer`'s views are spans [first, last): plan the cut of the
 * dropped views' bytes that no kept view shares, then move each kept view's
 * byteOffset down with its piece (a view lies within one piece: none of
 * its bytes go) and set the buffer's byteLength. */
static void compact_buffer(prune_work *w, gltf_prune *plan, long buffer, size_t size, long first, long last) {
    long i, cuts = 0, keeps = 0, removed, p = plan->piece_count;
    for (i = first; i < last; ++i) {
        if (w->view.map[w->spans[i].view] < 0)
            w->cut[cuts++] = w->spans[i];
        else
            w->keep[keeps++] = w->spans[i];
    }
    if (cuts == 0) return;
    cuts = merge_spans(w->cut, cuts);
    removed = uncovered(w->cut, cuts, w->keep, merge_spans(w->keep, keeps), w->removed);
    plan->new_size[buffer] = plan_cut(plan, buffer, size, w->removed, removed);
    for (i = first; i < last; ++i) {
        const span *s = &w->spans[i];
        cJSON *offset;
        if (w->view.map[s->view] < 0) continue; /* deleted from the tree */
        offset = get(w->view.items[s->view], "byteOffset");
        while (p + 1 < plan->piece_count && plan->pieces[p + 1].start <= s->start) ++p;
        /* an absent byteOffset is 0, which the first piece never moves */
        if (offset) cJSON_SetNumberValue(offset, (double)(s->start - plan->pieces[p].shift));
    }
    cJSON_SetNumberValue(get(w->buf.items[buffer], "byteLength"), (double)plan->new_size[buffer]);
}

void gltf_prune_free(gltf_prune *plan) {
    free(plan->buffer_map);
    free(plan->new_size);
    free(plan->pieces);
    memset(plan, 0, sizeof *plan);
}

ik_result gltf_prune_plan(const ik_gltf *g, cJSON *tree, const gltf_refs *before, gltf_prune *plan) {
    cJSON *accessors = get(tree, "accessors"), *views = get(tree, "bufferViews"), *buffers = get(tree, "buffers");
    long views_total = cJSON_GetArraySize(views), buffer_count = g->buffer_count, i, first;
    cJSON *item;
    prune_work w;
    memset(plan, 0, sizeof *plan);
    memset(&w, 0, sizeof w);
    plan->buffer_count = buffer_count;
    plan->buffer_map = (long *)malloc(((size_t)buffer_count + 1) * sizeof *plan->buffer_map);
    plan->new_size = (size_t *)malloc(((size_t)buffer_count + 1) * sizeof *plan->new_size);
    /* a buffer's pieces are at most one more than its views */
    plan->pieces = (gltf_piece *)malloc(((size_t)views_total + (size_t)buffer_count + 1) * sizeof *plan->pieces);
    w.spans = (span *)malloc(((size_t)views_total + 1) * sizeof *w.spans);
    w.cut = (span *)malloc(((size_t)views_total + 1) * sizeof *w.cut);
    w.keep = (span *)malloc(((size_t)views_total + 1) * sizeof *w.keep);
    w.removed = (span *)malloc(((size_t)views_total + 1) * sizeof *w.removed);
    w.buf.map = plan->buffer_map;
    if (!plan->buffer_map || !plan->new_size || !plan->pieces ||
        !kind_init(&w.acc, accessors, cJSON_GetArraySize(accessors)) || !kind_init(&w.view, views, views_total) ||
        !(w.buf.items = (cJSON **)malloc(((size_t)buffer_count + 1) * sizeof(cJSON *))) ||
        !(w.buf.flag = (unsigned char *)malloc((size_t)buffer_count + 1)) || !w.spans || !w.cut || !w.keep ||
        !w.removed) {
        work_free(&w);
        gltf_prune_free(plan);
        return IK_ERR_NO_MEMORY;
    }
    for (i = 0; i < buffer_count; ++i) {
        plan->buffer_map[i] = i;
        plan->new_size[i] = g->buffers[i].size;
    }
    if (!before->prunable || cJSON_GetArraySize(buffers) != buffer_count) {
        work_free(&w);
        return IK_OK;
    }
    w.buf.array = buffers;
    w.buf.count = 0;
    cJSON_ArrayForEach(item, buffers) w.buf.items[w.buf.count++] = item;
    /* accessors, then the views only they used, then the buffers only
     * those views used: each stage sees the tree the last one left */
    drop_orphans(tree, &w.acc, visit_accessor_refs, before->accessor, before->accessor_count, 0);
    view_spans(&w);
    drop_orphans(tree, &w.view, visit_view_refs, before->view, before->view_count, 0);
    drop_orphans(tree, &w.buf, visit_buffer_refs, before->buffer, before->buffer_count, 1);
    for (first = 0; first < views_total; first = i) {
        long buffer = w.spans[first].buffer;
        for (i = first; i < views_total && w.spans[i].buffer == buffer; ++i) continue;
        if (plan->buffer_map[buffer] >= 0) compact_buffer(&w, plan, buffer, g->buffers[buffer].size, first, i);
    }
    work_free(&w);
    return IK_OK;
}

void gltf_prune_apply(ik_gltf *g, gltf_prune *plan) {
    long i, kept = 0, p;
    /* each run moves down (shift >= 0) after the runs before it, so
     * memmove in order never overwrites bytes still to move; the gaps
     * between runs become zeros */
    for (p = 0; p < plan->piece_count; ++p) {
        const gltf_piece *piece = &plan->pieces[p];
        unsigned char *data = g->buffers[piece->buffer].data;
        size_t gap = p > 0 && plan->pieces[p - 1].buffer == piece->buffer
                         ? plan->pieces[p - 1].end - plan->pieces[p - 1].shift
                         : 0;
        memset(data + gap, 0, piece->start - piece->shift - gap);
        memmove(data + piece->start - piece->shift, data + piece->start, piece->end - piece->start);
    }
    for (i = 0; i < plan->buffer_count; ++i) {
        g->buffers[i].size = plan->new_size[i];
        if (plan->buffer_map[i] >= 0) {
            g->buffers[kept++] = g->buffers[i];
        } else {
            free(g->buffers[i].data);
            free(g->buffers[i].file_name);
        }
    }
    g->buffer_count = (int)kept;
    gltf_prune_free(plan);
}

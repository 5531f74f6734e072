/* ikit io, private: after the writer edits a glTF tree (replacing an
 * animation's keys), drop the accessors, bufferViews and buffers that the
 * edit left unreferenced, renumber every reference to what stays, and cut
 * the dropped views' bytes out of the buffers. Not installed.
 *
 * Only what the edit orphaned goes: an object is dropped when it was
 * referenced before the edit (gltf_refs_of on the unedited tree) and is not
 * referenced after it. Objects the input already left unreferenced stay,
 * and so do their bytes. A document with an extension whose references this
 * module does not follow (anything outside the list in gltf_prune.c) is not
 * pruned at all: its references could not be renumbered. */
#ifndef IKIT_IO_GLTF_PRUNE_H
#define IKIT_IO_GLTF_PRUNE_H

#include "gltf_doc.h"

#include <cjson/cJSON.h>

/* Which accessors, bufferViews and buffers a tree refers to. */
typedef struct gltf_refs {
    int prunable; /* 0: the document has an extension whose references are not followed */
    long accessor_count, view_count, buffer_count;
    unsigned char *accessor, *view, *buffer; /* [count each]: 1 where referenced */
} gltf_refs;

/* The references of `tree`, the unedited tree of `g`'s document; 0 when
 * out of memory (nothing to free then). */
int gltf_refs_of(const ik_gltf *g, cJSON *tree, gltf_refs *refs);
void gltf_refs_free(gltf_refs *refs);

/* A run of buffer `buffer`'s bytes [start, end) that stays, moving down
 * by `shift`. */
typedef struct gltf_piece {
    long buffer;
    size_t start, end, shift;
} gltf_piece;

/* What a prune does to the buffers, applied once the edited tree has been
 * read back (so that a failure leaves the document and its bytes as they
 * were). */
typedef struct gltf_prune {
    long buffer_count;  /* the buffers before */
    long *buffer_map;   /* [buffer_count]: each one's new index, -1 dropped */
    size_t *new_size;   /* [buffer_count] */
    gltf_piece *pieces; /* [piece_count]: the runs of the buffers that lose bytes, by buffer then start */
    long piece_count;
} gltf_prune;

/* After the edit (which only appended accessors, bufferViews and buffer 0
 * bytes, and changed animations): drop from `tree` what `before` saw
 * referenced and the tree no longer references (never buffer 0, which the
 * writer appends to and a .glb's BIN chunk holds), renumber the references,
 * and plan the cut of the dropped views' bytes from g's buffers, each kept
 * byte moving by a multiple of 4 so every view keeps its alignment; the
 * tree's byteOffsets and byteLengths already say where bytes will be.
 * IK_OK, or IK_ERR_NO_MEMORY (nothing planned). */
ik_result gltf_prune_plan(const ik_gltf *g, cJSON *tree, const gltf_refs *before, gltf_prune *plan);

/* Move g's bytes as planned and drop the buffers the plan drops; cannot
 * fail. The plan is freed. */
void gltf_prune_apply(ik_gltf *g, gltf_prune *plan);
void gltf_prune_free(gltf_prune *plan);

#endif

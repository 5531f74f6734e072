/* ikit io, private: the glTF writer's editable cJSON tree, built from the
 * reader's json_doc and read back into one after an edit. Not installed.
 * Both walks keep their own stack of open arrays and objects: the depth is
 * the document's (up to JSON_MAX_DEPTH), never the C stack's. */
#ifndef IKIT_IO_GLTF_TREE_H
#define IKIT_IO_GLTF_TREE_H

#include "gltf_doc.h"

#include <cjson/cJSON.h>

/* A cJSON tree holding `root` and everything within it, in document order
 * (repeated keys kept); NULL when out of memory. */
cJSON *gltf_tree_of(const json_value *root);

/* Every number of `tree` rewritten as raw text that reads back as the same
 * double (json_number_text: the fewest of 15 to 17 digits, with a '.' in
 * any locale; cJSON's own printing takes 15 digits when they read back
 * within a relative 2^-52, so a number could come back an ulp off, and
 * writes infinities as null). 0 when out of memory. */
int gltf_tree_numbers_exact(cJSON *tree);

/* `tree` printed compactly with its numbers exact (gltf_tree_numbers_exact)
 * and read into `doc`. */
ik_result gltf_tree_read_back(cJSON *tree, json_doc *doc, ik_error *error);

#endif

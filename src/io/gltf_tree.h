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

/* `tree` printed compactly, every number written so that it reads back as
 * the same double (cJSON's own printing may round the 17th digit), and read
 * into `doc`. The tree's numbers are rewritten as raw text on the way. */
ik_result gltf_tree_read_back(cJSON *tree, json_doc *doc, ik_io_error *error);

#endif

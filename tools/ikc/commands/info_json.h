/* `ikc info --json` (info_json.c). */
#ifndef IKC_INFO_JSON_H
#define IKC_INFO_JSON_H

#include <ikit/asset.h>

/* Print FILE's joint tree, chains, humanoid roles, targets and clips as one
 * JSON object; model_ms [joint_count] is the rest pose under the file's
 * root. Returns an ikc exit code (the mapping file's when it cannot be
 * read). */
int ikc_info_json(const ik_asset *asset, const ik_mat4 *model_ms, const char *path, const char *map_path);

#endif

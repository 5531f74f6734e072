/* ikit io: a URDF's <collision> elements as a robot collision model
 * (robot_collision.h), SRDF <disable_collisions>, and scenes of obstacles.
 *
 * The model holds every link whose frame the chain from `base_link` to
 * `tip_link` fixes: the chain's links, and the links hanging below them
 * through joints outside the chain (a tool flange, a hand, its fingers),
 * those joints taken at the value nearest 0 inside their limits. Each
 * collision element becomes one capsule holding it (ik_capsule_fit for a
 * mesh's vertices, after its scale and origin). Meshes are binary or ASCII
 * STL, found by ik_urdf_mesh_path. Links above the base or in other
 * branches are left out (their number in *skipped).
 *
 * Scene files (JSON):
 *   {"frame": "base_link",
 *    "obstacles": [{"name": "table", "box": [sx, sy, sz], "pose": [x, y, z, qx, qy, qz, qw]},
 *                  {"name": "post", "cylinder": [radius, length], "pose": [...]},
 *                  {"name": "ball", "sphere": radius, "pose": [...]},
 *                  {"name": "part", "mesh": "part.stl", "scale": [1, 1, 1], "pose": [...]}]}
 * An obstacle may list links allowed to touch it, "touches": ["base_link"]
 * (the robot's base on its table, as MoveIt's allowed collision matrix
 * does): ik_scene_allow_touching marks them once the model is built.
 * Boxes are centred on their pose, cylinders along its z; "pose" may have 3
 * numbers (no rotation) and defaults to the identity; the quaternion must
 * be of unit length within 1e-3 (it is normalised). "frame" (default: the
 * chain's base) must be a link fixed to the base (only fixed joints between
 * them). A mesh (relative paths from the scene file's directory, or
 * package:// as in a URDF) becomes the box bounding its vertices in its own
 * frame, which holds it: free against the box is free against the mesh.
 * Errors name the JSON path ("/obstacles/2/pose: number 4 is not finite").
 *
 * MoveIt's planning-scene text export (a .scene file, from PlanningScene's
 * saveGeometryToStream; told apart from JSON by not starting with '{') is
 * read too, in both versions: before MoveIt 1.1 ("* NAME", the shape count,
 * each shape's kind, sizes, pose and colour) and from 1.1 on (an object pose
 * after the name, subframes after the shapes). Poses are in the planning
 * frame, the URDF's root. Boxes, cylinders and spheres are kept; a cone
 * becomes the cylinder holding it and a mesh its bounding box; planes are
 * refused (IK_ERR_UNSUPPORTED). An object of several shapes gives obstacles
 * "NAME/1", "NAME/2", ... Errors name the line.
 */
#ifndef IKIT_URDF_COLLISION_H
#define IKIT_URDF_COLLISION_H

#include <stddef.h>

#include <ikit/error.h>
#include <ikit/result.h>
#include <ikit/robot_collision.h>
#include <ikit/urdf.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where meshes are found (see ik_urdf_mesh_path). */
typedef struct ik_mesh_paths {
    const char *urdf_dir;        /* relative mesh paths start here; NULL: the working directory */
    const char *const *packages; /* "NAME=DIR" entries */
    int package_count;
} ik_mesh_paths;

/* The collision model of the chain from base_link to tip_link (link frames
 * as ik_urdf_robot_chain numbers them). The model's link names point into
 * the urdf. Errors name the link and the mesh: IK_ERR_NOT_FOUND (unknown
 * link or package), IK_ERR_IO (a missing mesh file), IK_ERR_PARSE,
 * IK_ERR_DEGENERATE (a malformed or empty mesh), IK_ERR_UNSUPPORTED (a
 * geometry of another kind), IK_ERR_CAPACITY (too many links or capsules).
 * skipped may be NULL. Pairs are not pruned here (ik_robot_collision_prune). */
ik_result ik_urdf_collision_model(const ik_urdf *urdf, const char *base_link, const char *tip_link,
                                  const ik_mesh_paths *paths, ik_robot_collision_model *model, int *skipped,
                                  ik_error *error);

/* Reads an SRDF file and disables each <disable_collisions link1 link2>
 * pair whose links are both in the model (*disabled counts them; pairs
 * naming links without geometry are passed over). Errors as the URDF
 * reader's for a malformed file; IK_ERR_PARSE for a <disable_collisions>
 * without link1 or link2. */
ik_result ik_srdf_disable_collisions(const char *path, ik_robot_collision_model *model, int *disabled, ik_error *error);
ik_result ik_srdf_disable_collisions_memory(const char *data, size_t size, ik_robot_collision_model *model,
                                            int *disabled, ik_error *error);

/* A scene of obstacles in the chain's base frame. Owns its arrays. */
typedef struct ik_scene {
    int obstacle_count;
    ik_obstacle *obstacles; /* names point into `names` */
    char **names;
    int *from_mesh; /* 1 where the obstacle is a mesh's bounding box */
    char **touches; /* per obstacle: its "touches" link names, each NUL-terminated, then an empty one; or NULL */
} ik_scene;

/* Reads a scene (JSON, see above) for the chain based at base_link of urdf
 * (urdf may be NULL: then "frame" must be absent or equal base_link, which
 * may be NULL too). Errors: IK_ERR_PARSE (malformed JSON or a missing
 * field), IK_ERR_NONFINITE, IK_ERR_RANGE (a size <= 0, a rotation not of
 * unit length, more than IK_COLLISION_MAX_OBSTACLES obstacles),
 * IK_ERR_NOT_FOUND (an unknown frame), IK_ERR_HIERARCHY (a frame that
 * moves against the base), the STL reader's for meshes. */
ik_result ik_scene_read_memory(const char *data, size_t size, const ik_urdf *urdf, const char *base_link,
                               const ik_mesh_paths *paths, ik_scene **out, ik_error *error);
ik_result ik_scene_read_file(const char *path, const ik_urdf *urdf, const char *base_link, const ik_mesh_paths *paths,
                             ik_scene **out, ik_error *error);
void ik_scene_free(ik_scene *scene);

/* Sets each obstacle's `touching` bits from its "touches" names in the
 * model's links. IK_ERR_NOT_FOUND ("/obstacles/0/touches: link 'x' is not a
 * link with collision geometry of the chain") for a name not in the model. */
ik_result ik_scene_allow_touching(ik_scene *scene, const ik_robot_collision_model *model, ik_error *error);

#ifdef __cplusplus
}
#endif
#endif

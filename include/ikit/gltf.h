/* ikit io: glTF 2.0 documents (.gltf with external or data-URI buffers, and
 * binary .glb), read and written back.
 *
 * What ikit makes of a document:
 * - The whole JSON tree and every buffer are kept, so writing the document
 *   again keeps meshes, materials, textures, extensions and unknown fields.
 * - Each skin becomes an ik_skeleton: the skin's joints plus every node that
 *   connects them (a non-joint node between two joints becomes a joint too, so
 *   the hierarchy is exact), in parents-first order; skin order is kept where
 *   it already is parents-first. The rest pose is the nodes' own transform
 *   (TRS, or `matrix` decomposed). Nodes above the skeleton (such as
 *   RiggedFigure's Z-up node) are not joints: their product is `root_ms`,
 *   the world transform of the skeleton's roots' parent.
 * - Each animation, seen through one skin, is an ik_clip whose channels drive
 *   skeleton joints; channels on other nodes and morph-weight channels are
 *   dropped. Key values are converted to ik_real (normalised integer
 *   rotations per the glTF 2.0 specification, section 3.11).
 * - Writing: set a pose into the nodes, replace an animation's channels for a
 *   skin, or append a new animation; new key data is appended to buffer 0.
 *   A replacement drops the accessors, bufferViews and buffers (and their
 *   bytes) that only the replaced keys used, and nothing else.
 *   Every edit rebuilds the skeletons and clips: pointers obtained before an
 *   edit are invalid after it.
 *
 * Errors: IK_ERR_PARSE (malformed JSON, GLB framing, missing or mistyped
 * fields, out-of-range indices including `scene` and scene nodes, accessor
 * overruns, a "\u0000" escape in a string), IK_ERR_NONFINITE (NaN or
 * infinite numbers, a rest pose whose transforms multiplied down the
 * hierarchy overflow ik_real), IK_ERR_HIERARCHY (a node with two parents,
 * cycles, duplicate joint names), IK_ERR_UNSUPPORTED (features outside the
 * reader's scope, over-sized documents, an `extensionsRequired` entry other
 * than KHR_materials_*, KHR_texture_transform, KHR_texture_basisu,
 * EXT_texture_webp, EXT_texture_avif, KHR_lights_punctual,
 * KHR_mesh_quantization and KHR_draco_mesh_compression, which change
 * nothing ikit reads), IK_ERR_IO, IK_ERR_NO_MEMORY, IK_ERR_NULL.
 * The ik_error gets the JSON path (e.g. "/accessors/3/count") or, for GLB
 * framing, the byte offset, and a message that starts with that place.
 * Memory stays proportional to the input size.
 */
#ifndef IKIT_GLTF_H
#define IKIT_GLTF_H

#include <stddef.h>

#include <ikit/clip.h>
#include <ikit/error.h>
#include <ikit/io_file.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/skeleton.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ik_gltf ik_gltf;

/* One skin seen as a skeleton. All arrays have skeleton.joint_count entries
 * and belong to the document. */
typedef struct ik_gltf_skin {
    const char *name;            /* the skin's name, or NULL */
    ik_skeleton skeleton;        /* names, parents, rest_ls (the node transforms) */
    ik_mat4 root_ms;             /* world transform above the skeleton roots */
    const ik_mat4 *inverse_bind; /* skin inverse bind matrices; identity for connecting nodes */
    const int *node;             /* glTF node index of each joint */
    const int *skin_joint;       /* index in skin.joints, or -1 for a connecting node */
} ik_gltf_skin;

/* Read a .gltf or .glb file (chosen by its content: GLB starts with "glTF").
 * External buffers are resolved against the file's directory. The document
 * and its buffer files must be regular files of at most IK_IO_MAX_FILE_BYTES
 * (2 GiB, io_file.h): a FIFO or device is IK_ERR_IO, a larger file
 * IK_ERR_UNSUPPORTED, and a buffer file shorter than its byteLength
 * IK_ERR_PARSE, each before the file is read. */
ik_result ik_gltf_read_file(const char *path, ik_gltf **out, ik_error *error);

/* Read from memory. `base_dir` resolves external buffer URIs; NULL refuses
 * them (IK_ERR_UNSUPPORTED). */
ik_result ik_gltf_read_memory(const void *data, size_t size, const char *base_dir, ik_gltf **out, ik_error *error);

void ik_gltf_free(ik_gltf *gltf);

int ik_gltf_skin_count(const ik_gltf *gltf);
/* NULL when `skin` is out of range. */
const ik_gltf_skin *ik_gltf_skeleton(const ik_gltf *gltf, int skin);

int ik_gltf_clip_count(const ik_gltf *gltf);
/* Animation `clip` restricted to the joints of `skin`; NULL when out of range.
 * The clip's name is the animation's name (NULL when it has none). */
const ik_clip *ik_gltf_clip(const ik_gltf *gltf, int clip, int skin);

/* A skinned mesh: a node with both `mesh` and `skin`, its triangle
 * primitives (mode 4) that carry POSITION, JOINTS_0 and WEIGHTS_0 merged into
 * one vertex and index list. Positions are the bind-pose positions in the
 * mesh's own space (the node's transform does not apply to a skinned mesh,
 * glTF 2.0 section 3.7.3); skin them with ik_skin_vertices (skinning.h) and
 * the matrices ik_skin_matrices(model_ms of the skin's skeleton with its
 * root_ms, inverse_bind). */
typedef struct ik_gltf_mesh_part {
    int first_triangle;
    int triangle_count;
    ik_real base_color[4]; /* the material's baseColorFactor (RGBA), white without one */
} ik_gltf_mesh_part;

typedef struct ik_gltf_skinned_mesh {
    int skin; /* the skin (ik_gltf_skeleton index) */
    int vertex_count;
    ik_vec3 *positions; /* [vertex_count] */
    int *joints;        /* [vertex_count * 4] joint indices of the skin's skeleton */
    ik_real *weights;   /* [vertex_count * 4] */
    int triangle_count;
    int *indices; /* [triangle_count * 3], counter-clockwise front faces */
    int part_count;
    ik_gltf_mesh_part *parts; /* one per primitive, in order */
} ik_gltf_skinned_mesh;

/* The number of skinned mesh nodes (in node order). */
int ik_gltf_skinned_mesh_count(const ik_gltf *gltf);

/* Read skinned mesh `index` into `out` (allocated; release with
 * ik_gltf_skinned_mesh_free). IK_ERR_RANGE for an index out of range;
 * IK_ERR_PARSE for accessors of the wrong shape, vertex indices beyond
 * POSITION's count, JOINTS_0 entries beyond the skin's joints, or a vertex
 * whose WEIGHTS_0 hold a negative weight or are all 0 (it follows no
 * joint); the message names the vertex (and the mesh, when it has a name). */
ik_result ik_gltf_skinned_mesh_read(ik_gltf *gltf, int index, ik_gltf_skinned_mesh *out, ik_error *error);
void ik_gltf_skinned_mesh_free(ik_gltf_skinned_mesh *mesh);

/* Write `pose_ls` [joint_count of the skin] into the nodes' translation,
 * rotation and scale (a node given by `matrix` gets TRS instead). */
ik_result ik_gltf_set_pose(ik_gltf *gltf, int skin, const ik_transform *pose_ls, ik_error *error);

/* Replace the channels of animation `clip` that drive joints of `skin` by the
 * channels of `keys` (joint indices of that skin's skeleton). Channels on
 * other nodes are kept, and so are the animation's samplers no channel
 * used. What was referenced before and is not after (the old keys'
 * accessors, then views only they used, then buffers other than 0 only
 * those views used) is dropped, references renumbered, and its bytes cut
 * from the buffers, kept bytes moving by multiples of 4 (alignment kept).
 * Objects the document already left unreferenced stay. A document with an
 * extension outside KHR_materials_*, KHR_texture_transform,
 * KHR_texture_basisu, EXT_texture_webp, EXT_texture_avif,
 * KHR_lights_punctual, KHR_mesh_quantization, KHR_animation_pointer,
 * KHR_xmp_json_ld, KHR_draco_mesh_compression and EXT_mesh_gpu_instancing
 * (whose references are followed) is not pruned. */
ik_result ik_gltf_replace_clip_keys(ik_gltf *gltf, int clip, int skin, const ik_clip *keys, ik_error *error);

/* Append a new animation named `name` (may be NULL) holding `keys`. */
ik_result ik_gltf_add_clip(ik_gltf *gltf, int skin, const char *name, const ik_clip *keys, ik_error *error);

/* Write to `path`: binary GLB when it ends in ".glb" (buffer 0 becomes the
 * BIN chunk), otherwise glTF JSON with buffers embedded as base64 data URIs,
 * except the buffers that came from external files: those are written
 * beside `path` under names taken from it (see ik_gltf_output_files), never
 * under the names they were read from, so writing never touches the input's
 * files unless `path` names them. Each file is written in place with
 * fopen(); for atomic replacement write the files of ik_gltf_output_files
 * to temporaries and rename them. */
ik_result ik_gltf_write_file(const ik_gltf *gltf, const char *path, ik_error *error);

/* One file of a write, in memory. */
typedef struct ik_gltf_output_file {
    char *path; /* `path` itself, or a buffer file beside it */
    unsigned char *data;
    size_t size;
} ik_gltf_output_file;

/* The files ik_gltf_write_file(gltf, path) writes, without touching the
 * disk: first the buffers read from external files (buffer 0 of a .glb
 * excepted), named after `path`'s file name without its extension:
 * "out.gltf" gives "out.bin", then "out_1.bin", "out_2.bin"... in buffer
 * order, and the document's URIs name them (percent-encoded); the document
 * itself is the last file. Release with ik_gltf_output_files_free. */
ik_result ik_gltf_output_files(const ik_gltf *gltf, const char *path, ik_gltf_output_file **files, int *count,
                               ik_error *error);
void ik_gltf_output_files_free(ik_gltf_output_file *files, int count);

/* The number of buffers, and the file buffer `buffer` was read from (its
 * URI decoded, relative to the document's folder), or NULL when it was
 * embedded, came from the GLB BIN chunk, or is out of range. */
int ik_gltf_buffer_count(const ik_gltf *gltf);
const char *ik_gltf_buffer_file(const ik_gltf *gltf, int buffer);

/* Serialise to memory as GLB (`binary` = 1) or glTF JSON with embedded
 * buffers. `*out` is allocated with malloc; release it with free(). */
ik_result ik_gltf_write_memory(const ik_gltf *gltf, int binary, unsigned char **out, size_t *size, ik_error *error);

#ifdef __cplusplus
}
#endif
#endif

/* ikit_web: the small C API the browser playground calls (web/ikit.js).
 *
 * It is glue only: every solve is one of ikit's public jobs (chain files and
 * the Jacobian, CCD and FABRIK solvers; 2D chains; the humanoid rig), called
 * exactly as a C user calls them. Inputs and outputs live in static arrays
 * that JavaScript reads and writes through the pointers exported here, so
 * nothing crosses the boundary but numbers. The chain-file reader allocates
 * its parse result (wasi-libc's malloc); the solvers run in a static scratch
 * arena.
 *
 * Three things are held at once:
 *   - one chain file (the tail by default) and three poses of it ("slots":
 *     the tail view, and the two sides of the side-by-side view);
 *   - one planar chain (seed 003's editor);
 *   - a humanoid (the built-in one, or a skeleton the page read from a glTF
 *     file) with its rig and a ground.
 *
 * Each solve call takes `repeats`: the solve is run that many times from the
 * same starting pose and the last result kept, so the page can time a solve
 * with a coarse clock (total time / repeats). */
#include <ikit/chain_solve.h>
#include <ikit/planar_chain.h>
#include <ikit/clip.h>
#include <ikit/chain_file.h>
#include <ikit/chain_file_solve.h>
#include <ikit/humanoid.h>
#include <ikit/jacobian.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "body_full.h"
#include "ikit_web.h"

enum { IKW_MAX_JOINTS = 64, IKW_SLOTS = 3, IKW_TEXT_BYTES = 64 * 1024, IKW_SCRATCH_BYTES = 256 * 1024 };

static union {
    ik_real align;
    unsigned char bytes[IKW_SCRATCH_BYTES];
} scratch;

static char text_in[IKW_TEXT_BYTES];
static char message[320];

void ikw_set_message(const char *text) {
    strncpy(message, text, sizeof message - 1);
    message[sizeof message - 1] = '\0';
}

IKW_EXPORT(ikw_text_buffer) char *ikw_text_buffer(void) { return text_in; }
IKW_EXPORT(ikw_text_capacity) int ikw_text_capacity(void) { return IKW_TEXT_BYTES; }
IKW_EXPORT(ikw_message) const char *ikw_message(void) { return message; }
IKW_EXPORT(ikw_result_str) const char *ikw_result_str(int result) { return ik_result_str((ik_result)result); }

/* ---- chains from a chain file ------------------------------------------------ */

typedef struct chain_slot {
    ik_transform pose_ls[IKW_MAX_JOINTS];
    ik_mat4 model_ms[IKW_MAX_JOINTS];
    float positions_ms[3 * IKW_MAX_JOINTS];
    float error;
    int iterations;
} chain_slot;

static struct {
    ik_chain_file *file;
    ik_jacobian_joint joints[IKW_MAX_JOINTS];
    ik_spring springs[3 * IKW_MAX_JOINTS];
    ik_constraint turn_limits[IKW_MAX_JOINTS];  /* one per Jacobian joint */
    ik_constraint joint_limits[IKW_MAX_JOINTS]; /* one per skeleton joint (CCD, FABRIK) */
    int all[IKW_MAX_JOINTS];
    int turning_count, axis_count;
    chain_slot slot[IKW_SLOTS];
} chain;

static void slot_store(chain_slot *s) {
    int j, n = chain.file->joint_count;
    ik_skeleton_fk(&chain.file->skeleton, s->pose_ls, NULL, s->model_ms);
    for (j = 0; j < n; ++j) {
        ik_vec3 p = ik_mat4_translation(&s->model_ms[j]);
        s->positions_ms[3 * j] = (float)p.x;
        s->positions_ms[3 * j + 1] = (float)p.y;
        s->positions_ms[3 * j + 2] = (float)p.z;
    }
}

IKW_EXPORT(ikw_chain_reset) void ikw_chain_reset(int slot) {
    if (!chain.file || slot < 0 || slot >= IKW_SLOTS) return;
    ik_chain_file_rest_pose(chain.file, chain.slot[slot].pose_ls);
    chain.slot[slot].error = 0;
    chain.slot[slot].iterations = 0;
    slot_store(&chain.slot[slot]);
}

/* Parse `length` bytes of ikw_text_buffer() as a chain file. On failure the
 * chain loaded before stays, and ikw_message() says where and why. */
IKW_EXPORT(ikw_chain_load) int ikw_chain_load(int length) {
    ik_chain_file *file = NULL;
    ik_error err;
    ik_result r;
    int j, s;
    if (length < 0 || length > IKW_TEXT_BYTES) {
        ikw_set_message("the chain text is longer than 64 KiB");
        return IK_ERR_RANGE;
    }
    r = ik_chain_file_read_memory(text_in, (size_t)length, &file, &err);
    if (r != IK_OK) {
        ikw_set_message(err.message[0] ? err.message : ik_result_str(r));
        return r;
    }
    if (file->joint_count > IKW_MAX_JOINTS || file->joint_count < 2) {
        ikw_set_message(file->joint_count < 2 ? "the chain needs at least two joints"
                                              : "the playground takes chains of at most 64 joints");
        ik_chain_file_free(file);
        return IK_ERR_RANGE;
    }
    if (chain.file) ik_chain_file_free(chain.file);
    chain.file = file;
    for (j = 0; j < file->joint_count; ++j) chain.all[j] = j;
    chain.turning_count = ik_chain_file_jacobian_joints(file, chain.all, file->joint_count, chain.joints,
                                                        chain.turn_limits, chain.springs);
    chain.axis_count = 0;
    for (j = 0; j < chain.turning_count; ++j) chain.axis_count += chain.joints[j].axis_count;
    ik_chain_file_constraints(file, chain.joint_limits);
    if (ik_jacobian_scratch_size(file->joint_count, chain.axis_count, 1) > sizeof scratch.bytes) {
        ikw_set_message("the chain needs more solver scratch than the playground has");
        return IK_ERR_CAPACITY;
    }
    for (s = 0; s < IKW_SLOTS; ++s) ikw_chain_reset(s);
    message[0] = '\0';
    return IK_OK;
}

IKW_EXPORT(ikw_chain_joint_count) int ikw_chain_joint_count(void) { return chain.file ? chain.file->joint_count : 0; }
IKW_EXPORT(ikw_chain_parents) const int *ikw_chain_parents(void) { return chain.file ? chain.file->parents : NULL; }

/* The file's first target (where the cube starts), or the tip at rest. */
IKW_EXPORT(ikw_chain_file_target) const float *ikw_chain_file_target(void) {
    static float out[3];
    ik_vec3 p;
    if (!chain.file) return NULL;
    if (chain.file->target_count > 0) {
        p = chain.file->targets[0].position_ms;
    } else {
        const float *tip = &chain.slot[0].positions_ms[3 * (chain.file->joint_count - 1)];
        p = ik_v3(tip[0], tip[1], tip[2]);
    }
    out[0] = (float)p.x;
    out[1] = (float)p.y;
    out[2] = (float)p.z;
    return out;
}

/* The loaded chain toward `target` with `method` (ikw_method): CCD and
 * FABRIK within the file's limits, the Jacobian methods turning the file's
 * hinges with its springs, comfort ranges and `gravity`. */
static ik_result chain_solve_once(int method, ik_transform *pose, ik_vec3 target, ik_real gravity, int *iterations,
                                  ik_real *error) {
    ik_chain_solve job = ik_chain_solve_def();
    job.method = method == IKW_CCD         ? IK_CHAIN_CCD
                 : method == IKW_FABRIK    ? IK_CHAIN_FABRIK
                 : method == IKW_SDLS      ? IK_CHAIN_SDLS
                 : method == IKW_TRANSPOSE ? IK_CHAIN_TRANSPOSE
                                           : IK_CHAIN_DLS;
    job.base.skeleton = &chain.file->skeleton;
    job.base.listed_joint_count = chain.file->joint_count;
    job.base.constraints = chain.joint_limits;
    job.base.pose_ls = pose;
    job.base.scratch = scratch.bytes;
    job.base.scratch_bytes = sizeof scratch.bytes;
    job.joints = chain.all;
    job.target_ms = target;
    job.turning = chain.joints;
    job.turning_count = chain.turning_count;
    job.turning_constraints = chain.turn_limits;
    job.springs = chain.springs;
    job.gravity = gravity;
    job.max_iterations = 100;
    job.iterations = iterations;
    job.error = error;
    return ik_chain_solve_run(&job);
}

/* Solve slot `slot` toward (x, y, z) with `method` (ikw_method), starting
 * from the slot's current pose (last frame's answer: the tail follows the
 * cube smoothly), `repeats` times from that same start. */
IKW_EXPORT(ikw_chain_solve)
int ikw_chain_solve(int slot, int method, float x, float y, float z, float gravity, int repeats) {
    static ik_transform start[IKW_MAX_JOINTS];
    chain_slot *s;
    ik_result r = IK_OK;
    ik_real error = 0;
    int iterations = 0, k;
    if (!chain.file) return IK_ERR_NULL;
    if (slot < 0 || slot >= IKW_SLOTS || method < 0 || method >= IKW_METHOD_COUNT || repeats < 1) return IK_ERR_RANGE;
    s = &chain.slot[slot];
    memcpy(start, s->pose_ls, (size_t)chain.file->joint_count * sizeof *start);
    for (k = 0; k < repeats && r == IK_OK; ++k) {
        memcpy(s->pose_ls, start, (size_t)chain.file->joint_count * sizeof *start);
        r = chain_solve_once(method, s->pose_ls, ik_v3(x, y, z), gravity, &iterations, &error);
    }
    if (r != IK_OK) {
        memcpy(s->pose_ls, start, (size_t)chain.file->joint_count * sizeof *start);
        ikw_set_message(ik_result_str(r));
        return r;
    }
    s->error = (float)error;
    s->iterations = iterations;
    slot_store(s);
    return IK_OK;
}

IKW_EXPORT(ikw_chain_positions) const float *ikw_chain_positions(int slot) {
    return slot >= 0 && slot < IKW_SLOTS ? chain.slot[slot].positions_ms : NULL;
}
IKW_EXPORT(ikw_chain_error) float ikw_chain_error(int slot) {
    return slot >= 0 && slot < IKW_SLOTS ? chain.slot[slot].error : -1;
}
IKW_EXPORT(ikw_chain_iterations) int ikw_chain_iterations(int slot) {
    return slot >= 0 && slot < IKW_SLOTS ? chain.slot[slot].iterations : -1;
}

/* ---- seed 003's planar chain ------------------------------------------------- */

static struct {
    ik_real lengths[IKW_MAX_JOINTS];
    ik_real angles[IKW_MAX_JOINTS];
    ik_real xy[2 * (IKW_MAX_JOINTS + 1)];
    ik_real scratch[3 * IKW_MAX_JOINTS + 2];
    ik_real error;
    int iterations;
} planar;

/* JavaScript writes bone lengths and angles (radians) here, reads joint
 * positions (x, y pairs) from ikw_planar_xy after ikw_planar_fk or a solve. */
IKW_EXPORT(ikw_planar_lengths) ik_real *ikw_planar_lengths(void) { return planar.lengths; }
IKW_EXPORT(ikw_planar_angles) ik_real *ikw_planar_angles(void) { return planar.angles; }
IKW_EXPORT(ikw_planar_xy) const ik_real *ikw_planar_xy(void) { return planar.xy; }
IKW_EXPORT(ikw_planar_max_bones) int ikw_planar_max_bones(void) { return IKW_MAX_JOINTS; }
IKW_EXPORT(ikw_planar_error) float ikw_planar_error(void) { return (float)planar.error; }
IKW_EXPORT(ikw_planar_iterations) int ikw_planar_iterations(void) { return planar.iterations; }

IKW_EXPORT(ikw_planar_fk) int ikw_planar_fk(int bone_count, float base_x, float base_y) {
    if (bone_count < 1 || bone_count > IKW_MAX_JOINTS) return IK_ERR_RANGE;
    ik_planar_chain_fk(bone_count, planar.lengths, planar.angles, base_x, base_y, planar.xy);
    return IK_OK;
}

/* Move joint `joint` (1..bone_count: the start of bone `joint`, or the tip)
 * toward (x, y) by turning bones 0 .. joint - 1 (seed 003: "pick new
 * relative angles for all of the previous bones"); the bones after it keep
 * their relative angles. Then the whole chain's positions are refreshed. */
IKW_EXPORT(ikw_planar_solve)
int ikw_planar_solve(int bone_count, int joint, int method, float base_x, float base_y, float x, float y,
                     int max_iterations, int repeats) {
    static ik_real start[IKW_MAX_JOINTS];
    ik_planar_chain job = ik_planar_chain_def();
    ik_result r = IK_OK;
    int k;
    if (bone_count < 1 || bone_count > IKW_MAX_JOINTS || joint < 1 || joint > bone_count || repeats < 1)
        return IK_ERR_RANGE;
    job.bone_count = joint;
    job.lengths = planar.lengths;
    job.base_x = base_x;
    job.base_y = base_y;
    job.target_x = x;
    job.target_y = y;
    job.method = (ik_planar_chain_method)method;
    job.max_iterations = max_iterations;
    job.angles = planar.angles;
    job.scratch = planar.scratch;
    job.iterations = &planar.iterations;
    job.error = &planar.error;
    memcpy(start, planar.angles, (size_t)joint * sizeof *start);
    for (k = 0; k < repeats && r == IK_OK; ++k) {
        memcpy(planar.angles, start, (size_t)joint * sizeof *start);
        r = ik_planar_chain_run(&job);
    }
    if (r != IK_OK) {
        ikw_set_message(ik_result_str(r));
        return r;
    }
    return ikw_planar_fk(bone_count, base_x, base_y);
}

/* ---- the humanoid: built in, or a skeleton the page read from a glTF file ---- */

enum { IKW_MAX_FIGURE_JOINTS = 256, IKW_FIGURE_NAME_BYTES = 16 * 1024 };

static struct {
    int parents[IKW_MAX_FIGURE_JOINTS];
    const char *names[IKW_MAX_FIGURE_JOINTS];
    char name_text[IKW_FIGURE_NAME_BYTES];
    float rest_in[10 * IKW_MAX_FIGURE_JOINTS]; /* from JavaScript: translation, rotation (x y z w), scale */
    float root_in[16];                         /* from JavaScript: root_ms, column-major */
    ik_mat4 root_ms;
    ik_transform rest_ls[IKW_MAX_FIGURE_JOINTS];
    ik_transform pose_ls[IKW_MAX_FIGURE_JOINTS];
    ik_mat4 model_ms[IKW_MAX_FIGURE_JOINTS];
    float positions_ms[3 * IKW_MAX_FIGURE_JOINTS];
    float rotations_ls[4 * IKW_MAX_FIGURE_JOINTS];    /* the solved pose's local rotations (x y z w) */
    float translations_ls[3 * IKW_MAX_FIGURE_JOINTS]; /* and translations (animated, pelvis moved) */
    float limb_ends_ms[3 * IK_LIMB_COUNT];            /* hands and feet (a virtual ankle too) */
    ik_skeleton skeleton;
    ik_humanoid rig;
    ik_humanoid_solve job;
    ik_humanoid_report report;
    ik_ground ground;
    const ik_clip *clip; /* the animation the solve starts from (NULL: the rest pose) */
    float time;          /* its time, seconds */
    float built_height;  /* the built-in figure's height; 0 for a figure from a file */
    ik_bool has_floor;   /* the clip's own floor (web/body_floor.c) is known */
    ik_vec3 floor_rs;    /* a point on it under the rest hips, in the skeleton's root space */
    float floor_out[3];  /* the same for the page; NaN when not known */
    int count;
    ik_bool full;    /* the whole body follows (web/body_full.c) instead of the per-limb solve */
    ik_bool balance; /* and keeps its centre of mass over the feet */
    ik_bool head_enabled;
    ik_vec3 head_ms; /* the head's target in full-body mode */
} body;

static void body_store(void) {
    int j;
    for (j = 0; j < body.count; ++j) {
        ik_vec3 p = ik_mat4_translation(&body.model_ms[j]);
        ik_quat q = body.pose_ls[j].rotation;
        body.positions_ms[3 * j] = (float)p.x;
        body.positions_ms[3 * j + 1] = (float)p.y;
        body.positions_ms[3 * j + 2] = (float)p.z;
        body.rotations_ls[4 * j] = (float)q.x;
        body.rotations_ls[4 * j + 1] = (float)q.y;
        body.rotations_ls[4 * j + 2] = (float)q.z;
        body.rotations_ls[4 * j + 3] = (float)q.w;
        body.translations_ls[3 * j] = (float)body.pose_ls[j].translation.x;
        body.translations_ls[3 * j + 1] = (float)body.pose_ls[j].translation.y;
        body.translations_ls[3 * j + 2] = (float)body.pose_ls[j].translation.z;
    }
    for (j = 0; j < IK_LIMB_COUNT; ++j) {
        const ik_humanoid_limb *limb = &body.rig.limb[j];
        ik_mat4 end_ms = ik_humanoid_limb_end_ms(limb, body.model_ms);
        ik_vec3 p = ik_mat4_translation(&end_ms);
        body.limb_ends_ms[3 * j] = (float)p.x;
        body.limb_ends_ms[3 * j + 1] = (float)p.y;
        body.limb_ends_ms[3 * j + 2] = (float)p.z;
    }
    ikw_limbs_store(&body.rig, body.model_ms, body.job.root_ms);
}

static int body_rig_build(void) {
    ik_humanoid_map map;
    ik_error skeleton_error;
    ik_result map_result,
        r = ik_skeleton_init(&body.skeleton, body.count, body.parents, body.names, body.rest_ls, &skeleton_error);
    if (r != IK_OK) {
        ikw_set_message(skeleton_error.message[0] ? skeleton_error.message : ik_result_str(r));
        return r;
    }
    /* A skeleton that is no humanoid gets the library's own line, the words ikc prints. */
    map_result = ik_humanoid_map_find(&body.skeleton, NULL, 0, &map);
    r = map_result == IK_OK ? ik_humanoid_init(&body.rig, &body.skeleton, &map) : map_result;
    if (r != IK_OK) {
        char why[sizeof message];
        ik_humanoid_explain(map_result, map_result == IK_OK ? r : IK_OK, &map, why, sizeof why);
        ikw_set_message(why);
        return r;
    }
    body.job = ik_humanoid_solve_def();
    body.job.rig = &body.rig;
    body.job.pose_ls = body.pose_ls;
    body.job.model_ms = body.model_ms;
    body.job.report = &body.report;
    ik_skeleton_rest_pose(&body.skeleton, body.pose_ls);
    ik_skeleton_fk(&body.skeleton, body.pose_ls, NULL, body.model_ms);
    body_store();
    return IK_OK;
}

const ik_humanoid *ikw_body_rig(void) { return body.count > 0 ? &body.rig : NULL; }

/* Pick limb `limb`'s solver (ikw_limb_method, web/body_limbs.h). */
IKW_EXPORT(ikw_body_limb_solver) int ikw_body_limb_solver(int limb, int method) {
    const char *why = NULL;
    ik_result r = ikw_limbs_pick(ikw_body_rig(), limb, method, &why);
    if (why) ikw_set_message(why);
    return r;
}

/* What the page draws of each limb's limits (IKW_LIMIT_FLOATS per limb, see
 * web/body_limbs.h), at the last solved pose. */
IKW_EXPORT(ikw_body_limits) const float *ikw_body_limits(void) { return ikw_limbs_draw(ikw_body_rig()); }
const ik_skeleton *ikw_body_skeleton(void) { return body.count > 0 ? &body.skeleton : NULL; }
float ikw_body_built_height(void) { return body.count > 0 ? body.built_height : 0; }

/* Skeleton, map and rig from body.count, parents, names and rest_ls. On
 * failure no figure is loaded (body.count 0: solves refuse until one is). */
static int body_rig(void) {
    int r = body_rig_build();
    if (r != IK_OK) body.count = 0;
    /* a rig whose mass model cannot be made still loads: its full-body solves refuse balance */
    ikw_full_figure(body.count > 0 ? &body.rig : NULL);
    return r;
}

/* Build the humanoid `height` tall (soles on y = 0, facing +z), map and rig it. */
IKW_EXPORT(ikw_body_init) int ikw_body_init(float height) {
    ikw_body_set_clip(NULL, 0);
    body.built_height = 0;
    body.count = ik_humanoid_build_skeleton(height, IKW_MAX_FIGURE_JOINTS, body.parents, body.names, body.rest_ls);
    if (body.count == 0) {
        ikw_set_message("the height must be positive and finite");
        return IK_ERR_RANGE;
    }
    body.built_height = height;
    return body_rig();
}

/* A skeleton from the page: `count` joints, parents in ikw_body_parent_buffer
 * (parents first), rest transforms in ikw_body_rest_buffer, names in
 * ikw_text_buffer as `names_length` bytes of NUL-terminated names. On
 * failure the message says why (a non-humanoid names the missing joints)
 * and the caller loads a figure again before solving. */
IKW_EXPORT(ikw_body_parent_buffer) int *ikw_body_parent_buffer(void) { return body.parents; }
IKW_EXPORT(ikw_body_rest_buffer) float *ikw_body_rest_buffer(void) { return body.rest_in; }
IKW_EXPORT(ikw_body_max_joints) int ikw_body_max_joints(void) { return IKW_MAX_FIGURE_JOINTS; }
IKW_EXPORT(ikw_body_load) int ikw_body_load(int count, int names_length) {
    const char *name = body.name_text, *end = body.name_text + names_length;
    int j;
    body.count = 0;
    ikw_body_set_clip(NULL, 0);
    body.built_height = 0;
    if (count < 1 || count > IKW_MAX_FIGURE_JOINTS || names_length < 0 || names_length > IKW_FIGURE_NAME_BYTES) {
        ikw_set_message("the skeleton has no joints, more than 256, or names over 16 KiB: too big for the playground");
        return IK_ERR_RANGE;
    }
    memcpy(body.name_text, text_in, (size_t)names_length);
    for (j = 0; j < count; ++j) {
        const float *r = &body.rest_in[10 * j];
        const char *nul = name < end ? memchr(name, '\0', (size_t)(end - name)) : NULL;
        if (!nul) {
            ikw_set_message("the joint names are cut short");
            return IK_ERR_RANGE;
        }
        body.names[j] = name;
        name = nul + 1;
        body.rest_ls[j].translation = ik_v3(r[0], r[1], r[2]);
        body.rest_ls[j].rotation = ik_q(r[3], r[4], r[5], r[6]);
        body.rest_ls[j].scale = ik_v3(r[7], r[8], r[9]);
    }
    body.count = count;
    return body_rig();
}

/* A skeleton the library read from a file (glTF, BVH) as the figure: its
 * names (a joint without one is "joint<j>"), parents and rest transforms
 * copied, then mapped and rigged as ikw_body_load does; not exported. */
int ikw_body_load_skeleton(const ik_skeleton *skeleton) {
    size_t used = 0;
    int j;
    body.count = 0;
    ikw_body_set_clip(NULL, 0);
    body.built_height = 0;
    if (skeleton->joint_count < 1 || skeleton->joint_count > IKW_MAX_FIGURE_JOINTS) {
        ikw_set_message("the skeleton has more than 256 joints: too big for the playground");
        return IK_ERR_RANGE;
    }
    for (j = 0; j < skeleton->joint_count; ++j) {
        const char *name = skeleton->names ? skeleton->names[j] : NULL;
        int length = name && name[0] ? snprintf(body.name_text + used, IKW_FIGURE_NAME_BYTES - used, "%s", name)
                                     : snprintf(body.name_text + used, IKW_FIGURE_NAME_BYTES - used, "joint%d", j);
        if (length < 0 || used + (size_t)length + 1 > IKW_FIGURE_NAME_BYTES) {
            ikw_set_message("the joint names are too long for the playground");
            return IK_ERR_RANGE;
        }
        body.names[j] = body.name_text + used;
        used += (size_t)length + 1;
        body.parents[j] = skeleton->parents[j];
        body.rest_ls[j] = skeleton->rest_ls[j];
    }
    body.count = skeleton->joint_count;
    return body_rig();
}

/* The matrix above the skeleton's roots (ikw_body_root_buffer, column-major),
 * on or off (identity). Targets and ground are in the space above it. */
IKW_EXPORT(ikw_body_root_buffer) float *ikw_body_root_buffer(void) { return body.root_in; }
IKW_EXPORT(ikw_body_root) int ikw_body_root(int on) {
    int k;
    if (!on) {
        body.job.root_ms = NULL;
        return IK_OK;
    }
    for (k = 0; k < 16; ++k) body.root_ms.m[k] = body.root_in[k];
    body.job.root_ms = &body.root_ms;
    return IK_OK;
}
/* The figure's animation (web/body_clip.c; valid until the next load) and
 * the time the solve samples it at. Loading a figure clears it. The floor
 * its motion stands on is found once (web/body_floor.c, baked at
 * `frame_time`); the solve measures the feet's lifts from it, not from the
 * rest pose's floor, so a take recorded with its floor elsewhere stands on
 * the ground. */
void ikw_body_set_clip(const ik_clip *clip, ik_real frame_time) {
    static ik_mat4 rest_ms[IKW_MAX_FIGURE_JOINTS];
    ik_real floor = 0;
    body.clip = clip;
    body.time = 0;
    body.has_floor = clip && body.count > 0 && ikw_clip_floor(&body.rig, clip, frame_time, &floor);
    body.floor_out[0] = body.floor_out[1] = body.floor_out[2] = NAN;
    if (body.has_floor) {
        ik_vec3 hips, up = body.rig.up_rs;
        ik_skeleton_fk(&body.skeleton, body.skeleton.rest_ls, NULL, rest_ms);
        hips = ik_mat4_translation(&rest_ms[body.rig.map.joint[IK_ROLE_HIPS]]);
        body.floor_rs = ik_vec3_add(hips, ik_vec3_scale(up, floor - ik_vec3_dot(hips, up)));
        body.floor_out[0] = (float)body.floor_rs.x;
        body.floor_out[1] = (float)body.floor_rs.y;
        body.floor_out[2] = (float)body.floor_rs.z;
    }
}
/* The floor of the clip's motion: a point on it under the rest hips, in the
 * skeleton's root space (before the root matrix); NaN without a clip or
 * when its floor could not be found (no ankle joints, a take lying down). */
IKW_EXPORT(ikw_body_clip_floor) const float *ikw_body_clip_floor(void) { return body.floor_out; }
IKW_EXPORT(ikw_body_clip_duration) float ikw_body_clip_duration(void) {
    return body.clip ? (float)body.clip->duration : 0;
}
IKW_EXPORT(ikw_body_time) void ikw_body_time(float seconds) { body.time = seconds; }

IKW_EXPORT(ikw_body_rotations) const float *ikw_body_rotations(void) { return body.rotations_ls; }
IKW_EXPORT(ikw_body_translations) const float *ikw_body_translations(void) { return body.translations_ls; }
/* Where each limb ends after the last solve (or at rest), 3 floats per limb. */
IKW_EXPORT(ikw_body_limb_ends) const float *ikw_body_limb_ends(void) { return body.limb_ends_ms; }

IKW_EXPORT(ikw_body_joint_count) int ikw_body_joint_count(void) { return body.count; }
IKW_EXPORT(ikw_body_parents) const int *ikw_body_parents(void) { return body.parents; }
IKW_EXPORT(ikw_body_positions) const float *ikw_body_positions(void) { return body.positions_ms; }
IKW_EXPORT(ikw_body_joint_name) const char *ikw_body_joint_name(int joint) {
    return joint >= 0 && joint < body.count ? body.names[joint] : "";
}
/* The joint a limb ends in (hand or foot), IK_LIMB_ARM_L .. IK_LIMB_LEG_R. */
IKW_EXPORT(ikw_body_limb_end) int ikw_body_limb_end(int limb) {
    return limb >= 0 && limb < IK_LIMB_COUNT ? body.rig.limb[limb].end : -1;
}
IKW_EXPORT(ikw_body_residual) float ikw_body_residual(int limb) {
    return limb >= 0 && limb < IK_LIMB_COUNT ? (float)body.report.residual[limb] : -1;
}
IKW_EXPORT(ikw_body_grounded) int ikw_body_grounded(int leg) {
    return leg >= 0 && leg < 2 ? body.report.grounded[leg] : 0;
}
IKW_EXPORT(ikw_body_pelvis_offset) float ikw_body_pelvis_offset(void) { return (float)body.report.pelvis_offset; }

IKW_EXPORT(ikw_body_goal) int ikw_body_goal(int limb, int enabled, float x, float y, float z) {
    if (limb < 0 || limb >= IK_LIMB_COUNT) return IK_ERR_RANGE;
    body.job.goal[limb].enabled = enabled != 0;
    body.job.goal[limb].position_ms = ik_v3(x, y, z);
    return IK_OK;
}

/* The ground the feet stand on (kind): 0 none; 1 a plane through the origin
 * rising toward +z by `amount` degrees; 2 stairs of six steps `amount` high
 * and 0.3 deep rising toward +x (the figure's left) from a first riser
 * through the origin, so the left foot stands a step above the right. A
 * non-finite or non-positive amount fails the next solve. */
IKW_EXPORT(ikw_body_ground) int ikw_body_ground(int kind, float amount) {
    ik_real a = (ik_real)amount * IK_PI / 180;
    if (kind == 0) {
        body.job.ground = NULL;
        return IK_OK;
    }
    if (kind == 1)
        body.ground = ik_ground_plane(ik_v3(0, 0, 0), ik_v3(0, IK_COS(a), -IK_SIN(a)));
    else if (kind == 2)
        body.ground = ik_ground_stairs(ik_v3(0, 0, 0), ik_v3(1, 0, 0), amount, 0.3f, 6);
    else
        return IK_ERR_RANGE;
    body.job.ground = &body.ground;
    return IK_OK;
}

/* The whole body follows the targets (`on`, web/body_full.c) with its
 * centre of mass kept over the feet (`balance`), or each limb alone (the
 * rig's solve and the picked chain solvers). Turned on, the first solve
 * starts from the figure's own pose. */
IKW_EXPORT(ikw_body_full) int ikw_body_full(int on, int balance) {
    if (on && !body.full) ikw_full_forget();
    body.full = on != 0;
    body.balance = balance != 0;
    return IK_OK;
}

/* The head's target in full-body mode (the per-limb solve has none). */
IKW_EXPORT(ikw_body_head_goal) int ikw_body_head_goal(int enabled, float x, float y, float z) {
    body.head_enabled = enabled != 0;
    body.head_ms = ik_v3(x, y, z);
    return IK_OK;
}

/* The joint of a humanoid role (ik_humanoid_role: 0 hips, 2 chest, 4 head, ...),
 * -1 for none or no figure. */
IKW_EXPORT(ikw_body_role_joint) int ikw_body_role_joint(int role) {
    return body.count > 0 && role >= 0 && role < IK_ROLE_COUNT ? body.rig.map.joint[role] : -1;
}

/* The last full-body solve's balance for the page (IKW_BALANCE_FLOATS,
 * web/body_full.h) and its report in words. */
IKW_EXPORT(ikw_body_balance) const float *ikw_body_balance(void) { return ikw_full_balance(); }
IKW_EXPORT(ikw_body_full_summary) const char *ikw_body_full_summary(void) { return ikw_full_summary(); }

/* The figure's own pose (the clip at its time, else the rest pose) in
 * body.pose_ls, the job's floor set for it. */
static void body_animated(void) {
    ik_skeleton_rest_pose(&body.skeleton, body.pose_ls);
    if (body.clip) ik_clip_sample(body.clip, body.time, body.pose_ls);
    body.job.use_floor = body.clip && body.has_floor;
    if (body.job.use_floor)
        body.job.floor_ms = body.job.root_ms ? ik_mat4_transform_point(body.job.root_ms, body.floor_rs) : body.floor_rs;
}

/* Full-body mode: the figure's pose stood on the ground by the rig's solve
 * with no goals (the reference, where the unmoved feet are pinned), then
 * the whole body toward the targets from last frame's result. */
static ik_result body_solve_full(void) {
    ikw_full_goals goals;
    ik_bool enabled[IK_LIMB_COUNT];
    ik_result r;
    int limb;
    memset(&goals, 0, sizeof goals);
    for (limb = 0; limb < IK_LIMB_COUNT; ++limb) {
        /* IK_LIMB_ARM_L .. IK_LIMB_LEG_R are IK_FB_HAND_L .. IK_FB_FOOT_R */
        enabled[limb] = body.job.goal[limb].enabled;
        goals.enabled[limb] = enabled[limb];
        goals.position_ms[limb] = body.job.goal[limb].position_ms;
        body.job.goal[limb].enabled = 0;
    }
    goals.enabled[IK_FB_HEAD] = body.head_enabled;
    goals.position_ms[IK_FB_HEAD] = body.head_ms;
    goals.balance = body.balance;
    if (goals.balance && !ikw_full_can_balance()) {
        ikw_set_message("this figure has no mass model (its rest frames are singular): turn balance off");
        return IK_ERR_UNSUPPORTED;
    }
    body_animated();
    r = ik_humanoid_solve_run(&body.job);
    for (limb = 0; limb < IK_LIMB_COUNT; ++limb) body.job.goal[limb].enabled = enabled[limb];
    if (r == IK_OK) r = ikw_full_solve(&body.rig, body.pose_ls, body.model_ms, body.job.root_ms, &goals);
    if (r != IK_OK) ikw_set_message(ik_result_str(r));
    return r;
}

/* Solve from the animated pose (the clip at its time, else the rest pose), `repeats` times. */
IKW_EXPORT(ikw_body_solve) int ikw_body_solve(int repeats) {
    ik_result r = IK_OK;
    int k;
    if (body.count == 0) return IK_ERR_NULL;
    if (repeats < 1) return IK_ERR_RANGE;
    for (k = 0; k < repeats && r == IK_OK; ++k) {
        ik_bool enabled[IK_LIMB_COUNT];
        int limb;
        if (body.full) {
            r = body_solve_full();
            continue;
        }
        body_animated();
        /* limbs with a chain solver (web/body_limbs.c) keep the figure's pose here, then solve alone */
        for (limb = 0; limb < IK_LIMB_COUNT; ++limb) {
            enabled[limb] = body.job.goal[limb].enabled;
            if (ikw_limb_solver_now(&body.rig, limb) != IKW_LIMB_TWO_BONE) body.job.goal[limb].enabled = 0;
        }
        r = ik_humanoid_solve_run(&body.job);
        for (limb = 0; limb < IK_LIMB_COUNT; ++limb) body.job.goal[limb].enabled = enabled[limb];
        if (r == IK_OK)
            r = ikw_limbs_solve(&body.rig, body.pose_ls, body.model_ms, body.job.root_ms, body.job.goal, &body.report);
    }
    if (r != IK_OK) {
        if (!body.full) ikw_set_message(ik_result_str(r)); /* body_solve_full said why */
        return r;
    }
    if (body.full) {
        /* the readouts' residuals: each hand and foot to its target (a pinned foot to its pin) */
        const ik_full_body_report *rep = ikw_full_report();
        int e;
        ikw_full_keep(&body.rig, body.pose_ls);
        for (e = IK_FB_HAND_L; e <= IK_FB_FOOT_R; ++e) {
            body.report.residual[e] = rep->residual[e];
            body.report.reached[e] = rep->reached[e];
        }
    }
    body_store();
    return IK_OK;
}

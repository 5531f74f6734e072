"""The cffi description of ikit's public C API that the Python package uses,
and how the extension ikit._ikit is compiled.

Why cffi (API mode) rather than the CPython C API: the extension is still
compiled C that includes ikit's real headers, so every struct below is laid
out by the C compiler (fields listed here are checked against the headers
at build time, and "...;" lets a struct keep fields Python does not touch),
while the Python side stays a thin layer of plain Python calls with no
hand-written argument parsing per function. cffi releases the GIL around
each call. numpy arrays reach C through ffi.from_buffer without copies.

The extension compiles the library's own sources (src/ of the repository
around this folder), so no installed libikit is needed; the io layer links
Debian's libcjson and libxml2 as the CMake build does.
"""
import os
import re
import subprocess
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DOUBLE = os.environ.get("IKIT_DOUBLE", "0") not in ("", "0", "OFF", "off")
REAL = "double" if DOUBLE else "float"

# The layers the CMake build puts in libikit and libikit_io (src/CMakeLists.txt).
LAYERS = ["math", "skeleton", "solve", "anim", "rig", "robot", "motion", "io"]

CDEF = """
typedef %(real)s ik_real;
typedef int ik_bool;

typedef enum ik_result {
    IK_OK, IK_ERR_NULL, IK_ERR_NONFINITE, IK_ERR_RANGE, IK_ERR_HIERARCHY, IK_ERR_DEGENERATE,
    IK_ERR_CAPACITY, IK_ERR_NOT_FOUND, IK_ERR_PARSE, IK_ERR_IO, IK_ERR_UNSUPPORTED,
    IK_ERR_NO_MEMORY, IK_ERR_NOT_DEFAULTED, IK_RESULT_COUNT
} ik_result;
const char *ik_result_str(ik_result result);
const char *ik_version(void);
#define IK_BUILT_DOUBLE ...

typedef struct ik_vec3 { ik_real x, y, z; } ik_vec3;
typedef struct ik_quat { ik_real x, y, z, w; } ik_quat;
typedef struct ik_mat4 { ik_real m[16]; } ik_mat4;
typedef struct ik_transform { ik_vec3 translation; ik_quat rotation; ik_vec3 scale; } ik_transform;

/* error.h */
typedef struct ik_error { long line; long column; long offset; int index; char path[160]; char message[256]; } ik_error;
int ik_error_closest_names(const char *const *names, int count, const char *wanted, int *best, int max);

/* skeleton.h */
typedef struct ik_skeleton {
    int joint_count;
    const int *parents;
    const char *const *names;
    const ik_transform *rest_ls;
} ik_skeleton;
ik_result ik_skeleton_init_scratch(ik_skeleton *skeleton, int joint_count, const int *parents,
                                   const char *const *names, const ik_transform *rest_ls, int *scratch,
                                   ik_error *error);
int ik_skeleton_find(const ik_skeleton *skeleton, const char *name);
void ik_skeleton_rest_pose(const ik_skeleton *skeleton, ik_transform *pose_ls);
void ik_skeleton_fk(const ik_skeleton *skeleton, const ik_transform *pose_ls,
                    const ik_mat4 *root_ms, ik_mat4 *model_ms);
ik_result ik_skeleton_model_to_local(const ik_skeleton *skeleton, const ik_mat4 *model_ms,
                                     const ik_mat4 *root_ms, ik_transform *pose_ls);
ik_result ik_skeleton_chain(const ik_skeleton *skeleton, int end_joint, int count, int *chain);

/* constraint.h (the functions are declared with the chain jobs) */
typedef struct ik_constraint { ...; } ik_constraint;

/* clip.h */
typedef enum ik_channel_path { IK_CHANNEL_TRANSLATION, IK_CHANNEL_ROTATION, IK_CHANNEL_SCALE } ik_channel_path;
typedef enum ik_interpolation { IK_INTERP_LINEAR, IK_INTERP_STEP, IK_INTERP_CUBICSPLINE } ik_interpolation;
typedef struct ik_channel {
    int joint;
    ik_channel_path path;
    ik_interpolation interpolation;
    int key_count;
    const ik_real *times;
    const ik_real *values;
} ik_channel;
typedef struct ik_clip { const char *name; ik_real duration; int channel_count; const ik_channel *channels; } ik_clip;
ik_result ik_clip_validate(const ik_clip *clip, int joint_count, int *bad_channel);
void ik_clip_sample(const ik_clip *clip, ik_real time, ik_transform *pose_ls);
int ik_channel_width(ik_channel_path path);

/* gltf.h, bvh.h, asset.h */
typedef struct ik_gltf ik_gltf;
ik_result ik_gltf_read_file(const char *path, ik_gltf **out, ik_error *error);
void ik_gltf_free(ik_gltf *gltf);
ik_result ik_gltf_set_pose(ik_gltf *gltf, int skin, const ik_transform *pose_ls, ik_error *error);
ik_result ik_gltf_write_file(const ik_gltf *gltf, const char *path, ik_error *error);
ik_result ik_gltf_add_clip(ik_gltf *gltf, int skin, const char *name, const ik_clip *keys, ik_error *error);
typedef struct ik_bvh_joint { ...; } ik_bvh_joint;
typedef struct ik_bvh {
    int joint_count;
    ik_bvh_joint *joints;
    int values_per_frame;
    int frame_count;
    double frame_time;
    double *values;
    ...;
} ik_bvh;
void ik_bvh_frame_from_pose(const ik_bvh *bvh, const ik_transform *pose_ls, const double *fallback, double *values);
ik_result ik_bvh_write_file(const ik_bvh *bvh, const char *path, ik_error *error);
typedef enum ik_asset_format { IK_ASSET_UNKNOWN, IK_ASSET_GLTF, IK_ASSET_BVH, IK_ASSET_CHAIN } ik_asset_format;
typedef struct ik_asset {
    const char *path;
    ik_asset_format format;
    int binary;
    ik_gltf *gltf;
    int skin;
    ik_bvh *bvh;
    const ik_skeleton *skeleton;
    ik_mat4 root_ms;
    ik_constraint *constraints;
    ...;
} ik_asset;
ik_result ik_asset_load(const char *path, ik_asset *asset, ik_error *error);
void ik_asset_free(ik_asset *asset);
const char *ik_asset_format_name(const ik_asset *asset);
ik_real ik_asset_metre(const ik_asset *asset);
int ik_asset_clip_count(const ik_asset *asset);
const ik_clip *ik_asset_clip(const ik_asset *asset, int clip);

/* robot.h, urdf.h */
#define IK_ROBOT_MAX_JOINTS ...
typedef struct ik_robot_joint { ik_real lower, upper; int variable; ...; } ik_robot_joint;
typedef struct ik_robot_chain { int joint_count; int variable_count; ik_robot_joint joints[...]; } ik_robot_chain;
ik_result ik_robot_fk(const ik_robot_chain *chain, const ik_real *q, ik_transform *tip_bs, ik_transform *links_bs);
ik_result ik_robot_jacobian(const ik_robot_chain *chain, const ik_real *q, ik_real *jac);
typedef struct ik_urdf_joint { char *name; ...; } ik_urdf_joint;
typedef struct ik_urdf {
    char *name; int link_count; int joint_count; ik_urdf_joint *joints; int root_link; ...;
} ik_urdf;
ik_result ik_urdf_robot_chain(const ik_urdf *urdf, const char *base_link, const char *tip_link,
                              ik_robot_chain *chain, int *variable_joints, ik_error *error);
ik_result ik_urdf_read_file(const char *path, ik_urdf **out, ik_error *error);
void ik_urdf_free(ik_urdf *urdf);
typedef struct ik_urdf_skeleton { ik_skeleton skeleton; int *urdf_joints; ...; } ik_urdf_skeleton;
ik_result ik_urdf_chain_skeleton(const ik_urdf *urdf, const char *base_link, const char *tip_link,
                                 ik_urdf_skeleton **out, ik_error *error);
void ik_urdf_skeleton_free(ik_urdf_skeleton *skeleton);

/* two_bone.h */
typedef struct ik_two_bone {
    const ik_mat4 *start_ms;
    const ik_mat4 *mid_ms;
    const ik_mat4 *end_ms;
    ik_vec3 target_ms;
    ik_bool use_pole;
    ik_vec3 pole_ms;
    ik_bool use_hinge;
    ik_vec3 hinge_axis_ls;
    ik_real min_bend;
    ik_real max_bend;
    ik_real soften;
    ik_real twist;
    ik_real weight;
    ik_bool keep_end_rotation;
    ik_real reach_tolerance;
    ik_quat *start_rotation_ls;
    ik_quat *mid_rotation_ls;
    ik_quat *end_rotation_ls;
    ik_bool *reached;
    ik_real *residual;
    ...;
} ik_two_bone;
ik_two_bone ik_two_bone_def(void);
void ik_two_bone_bind(ik_two_bone *job, const ik_mat4 *model_ms, ik_transform *pose_ls, int start,
                      int mid, int end);
ik_result ik_two_bone_run(const ik_two_bone *job);

/* aim.h */
typedef struct ik_aim {
    const ik_mat4 *joint_ms;
    ik_vec3 target_ms;
    ik_vec3 forward_ls;
    ik_vec3 up_ls;
    ik_vec3 pole_ms;
    ik_vec3 offset_ls;
    ik_real twist;
    ik_real weight;
    ik_quat *rotation_ls;
    ik_quat *correction_ls;
    ik_bool *reached;
    ...;
} ik_aim;
ik_aim ik_aim_def(void);
ik_result ik_aim_run(const ik_aim *job);

typedef struct ik_look_at_chain {
    const ik_skeleton *skeleton;
    ik_transform *pose_ls;
    ik_mat4 *model_ms;
    const ik_mat4 *root_ms;
    const int *joints;
    const ik_real *weights;
    int count;
    ik_vec3 target_ms;
    ik_vec3 pole_ms;
    ik_vec3 forward_ls;
    ik_vec3 up_ls;
    ik_vec3 offset_ls;
    ik_real twist;
    ik_bool *reached;
    ...;
} ik_look_at_chain;
ik_look_at_chain ik_look_at_chain_def(void);
ik_result ik_look_at_chain_run(const ik_look_at_chain *job);

/* planar_chain.h */
typedef enum ik_planar_chain_method { IK_PLANAR_CHAIN_CCD, IK_PLANAR_CHAIN_FABRIK, IK_PLANAR_CHAIN_GRADIENT } ik_planar_chain_method;
typedef struct ik_planar_chain {
    int bone_count;
    const ik_real *lengths;
    ik_real base_x, base_y;
    ik_real target_x, target_y;
    const ik_real *min_angles;
    const ik_real *max_angles;
    ik_planar_chain_method method;
    ik_real tolerance;
    int max_iterations;
    ik_real step;
    ik_real *angles;
    ik_real *scratch;
    int *iterations;
    ik_real *error;
    ...;
} ik_planar_chain;
ik_planar_chain ik_planar_chain_def(void);
ik_result ik_planar_chain_run(const ik_planar_chain *job);
void ik_planar_chain_fk(int bone_count, const ik_real *lengths, const ik_real *angles, ik_real base_x,
                   ik_real base_y, ik_real *xy);

/* named_chains.h */
#define IK_NAMED_CHAIN_MAX_JOINTS ...
typedef struct ik_named_chain { const char *kind; int joints[...]; int count; } ik_named_chain;
int ik_named_chains_find(const ik_skeleton *skeleton, ik_named_chain *chains, int max_chains);

/* chain_base.h, ccd.h, fabrik.h, jacobian.h */
ik_constraint ik_constraint_none(void);
ik_constraint ik_constraint_hinge(ik_quat reference_ls, ik_vec3 axis, ik_real min_angle, ik_real max_angle);
ik_constraint ik_constraint_cone_twist(ik_quat reference_ls, ik_vec3 axis, ik_real cone_angle,
                                       ik_real twist_min, ik_real twist_max);
ik_constraint ik_constraint_euler(ik_quat reference_ls, ik_vec3 euler_min, ik_vec3 euler_max);
ik_result ik_constraint_validate(const ik_constraint *constraint);
ik_quat ik_constraint_apply(const ik_constraint *constraint, ik_quat rotation_ls);
ik_bool ik_constraint_check(const ik_constraint *constraint, ik_quat rotation_ls, ik_real tolerance);
typedef struct ik_chain_base {
    const ik_skeleton *skeleton;
    int listed_joint_count;
    const ik_constraint *constraints;
    const ik_mat4 *root_ms;
    ik_transform *pose_ls;
    void *scratch;
    size_t scratch_bytes;
    ik_error *error_field;
    ...;
} ik_chain_base;
typedef struct ik_ccd {
    ik_chain_base base;
    const int *joints;
    ik_vec3 target_ms;
    const ik_quat *target_rotation_ms;
    ik_real max_step_angle;
    ik_real tolerance;
    int max_iterations;
    int *iterations;
    ik_real *error;
    ...;
} ik_ccd;
ik_ccd ik_ccd_def(void);
size_t ik_ccd_scratch_size(int joint_count);
ik_result ik_ccd_run(const ik_ccd *job);
typedef struct ik_fabrik {
    ik_chain_base base;
    const int *joints;
    const int *effectors;
    int effector_count;
    const ik_vec3 *targets_ms;
    const ik_quat *target_rotations_ms;
    const ik_real *importances;
    ik_real tolerance;
    int max_iterations;
    int *iterations;
    ik_real *error;
    ...;
} ik_fabrik;
ik_fabrik ik_fabrik_def(void);
size_t ik_fabrik_scratch_size(int joint_count);
ik_result ik_fabrik_run(const ik_fabrik *job);
typedef enum ik_jacobian_method {
    IK_JACOBIAN_TRANSPOSE, IK_JACOBIAN_GRADIENT, IK_JACOBIAN_DLS, IK_JACOBIAN_SDLS
} ik_jacobian_method;
#define IK_JACOBIAN_MAX_AXES ...
typedef struct ik_jacobian_joint { int joint; int axis_count; ik_vec3 axes_ls[...]; } ik_jacobian_joint;
typedef struct ik_jacobian_effector {
    int joint;
    ik_vec3 offset_ls;
    ik_vec3 target_ms;
    ik_real importance;
    ik_bool use_orientation;
    ik_quat target_rotation_ms;
    ik_real orientation_importance;
} ik_jacobian_effector;
typedef struct ik_jacobian {
    ik_chain_base base;
    const ik_jacobian_joint *joints;
    const ik_jacobian_effector *effectors;
    int effector_count;
    ik_real gravity;
    ik_vec3 down_ms;
    ik_jacobian_method method;
    ik_real tolerance;
    ik_real angle_tolerance;
    int max_iterations;
    ik_real damping;
    ik_real max_step;
    ik_real error_clamp;
    ik_real gradient_rate;
    ik_real min_step;
    int *iterations;
    ik_real *error;
    ik_real *angle_error;
    ...;
} ik_jacobian;
ik_jacobian ik_jacobian_def(void);
ik_jacobian_effector ik_jacobian_effector_make(int joint, ik_vec3 target_ms);
size_t ik_jacobian_scratch_size(int skeleton_joints, int axis_count, int effector_count);
ik_result ik_jacobian_run(const ik_jacobian *job);

/* humanoid.h, ground.h */
#define IK_ROLE_COUNT ...
#define IK_LIMB_COUNT ...
#define IK_HUMANOID_BUILT_JOINTS ...
typedef struct ik_humanoid_pair { int role; const char *name; int name_length; } ik_humanoid_pair;
typedef struct ik_humanoid_map { int joint[...]; unsigned long missing; ...; } ik_humanoid_map;
typedef struct ik_humanoid_limb {
    int start, mid, end;
    ik_vec3 hinge_axis_ls;
    ik_real upper_length, lower_length;
    ...;
} ik_humanoid_limb;
typedef struct ik_humanoid { ik_humanoid_limb limb[...]; ik_vec3 up_rs; ...; } ik_humanoid;
typedef struct ik_ground { ...; } ik_ground;
typedef struct ik_humanoid_goal {
    ik_bool enabled;
    ik_vec3 position_ms;
    ik_bool use_rotation;
    ik_quat rotation_ms;
    ik_real weight;
    ik_bool use_pole;
    ik_vec3 pole_ms;
    ik_real twist;
} ik_humanoid_goal;
typedef struct ik_humanoid_report {
    ik_bool reached[...];
    ik_real residual[...];
    ik_real pelvis_offset;
    ik_real look_error;
    ik_bool look_reached;
    ...;
} ik_humanoid_report;
typedef struct ik_humanoid_solve {
    const ik_humanoid *rig;
    ik_transform *pose_ls;
    ik_mat4 *model_ms;
    const ik_mat4 *root_ms;
    ik_humanoid_goal goal[...];
    ik_bool adjust_shoulders;
    ik_bool look_at;
    ik_vec3 look_target_ms;
    ik_real look_tolerance;
    const ik_ground *ground;
    ik_bool adjust_pelvis;
    int passes;
    ik_humanoid_report *report;
    ...;
} ik_humanoid_solve;
const char *ik_humanoid_role_name(int role);
int ik_humanoid_role_find(const char *name, int length);
ik_result ik_humanoid_parse_mapping(const char *text, size_t length, ik_humanoid_pair *pairs, int capacity,
                                    int *count, int *error_line);
ik_result ik_humanoid_map_find(const ik_skeleton *skeleton, const ik_humanoid_pair *pairs, int pair_count,
                               ik_humanoid_map *map);
int ik_humanoid_map_describe(const ik_humanoid_map *map, const ik_skeleton *skeleton, char *out, size_t size);
ik_result ik_humanoid_init(ik_humanoid *rig, const ik_skeleton *skeleton, const ik_humanoid_map *map);
ik_vec3 ik_humanoid_limb_pole(const ik_humanoid_limb *limb, const ik_mat4 *model_ms, ik_vec3 target, ik_real length);
ik_humanoid_solve ik_humanoid_solve_def(void);
ik_result ik_humanoid_solve_run(const ik_humanoid_solve *job);
int ik_humanoid_build_skeleton(ik_real height, int capacity, int *parents, const char **names,
                               ik_transform *rest_ls);
ik_ground ik_ground_plane(ik_vec3 point_ms, ik_vec3 normal_ms);
ik_ground ik_ground_height_field(ik_vec3 origin_ms, ik_real cell, int count_x, int count_z, const ik_real *heights);
ik_ground ik_ground_stairs(ik_vec3 first_riser_ms, ik_vec3 direction_ms, ik_real rise, ik_real run, int step_count);
ik_result ik_ground_validate(const ik_ground *ground);
ik_bool ik_ground_height_at(const ik_ground *ground, ik_real x, ik_real z, ik_real *height, ik_vec3 *normal_ms);

/* csrc/robot_fk_batch.c, csrc/two_bone_batch.c: the batch loops. */
int ikpy_robot_fk_batch(const ik_robot_chain *chain, int count, const ik_real *q, ik_transform *tip_bs,
                        ik_result *failure);
int ikpy_two_bone_batch(const ik_two_bone *options, int count, const ik_mat4 *start_ms, const ik_mat4 *mid_ms,
                        const ik_mat4 *end_ms, const ik_vec3 *targets_ms, const ik_vec3 *poles_ms,
                        ik_quat *start_rotation_ls, ik_quat *mid_rotation_ls, ik_bool *reached,
                        ik_real *residual, ik_result *failure);

/* take.h, foot_contacts.h, footskate.h, skating.h, walk.h, key_fit.h, retarget.h (the motion layer) */
typedef struct ik_take { int frame_count; int joint_count; ik_real frame_time; ik_transform *poses_ls; } ik_take;
ik_result ik_take_validate(const ik_take *take, int *bad_frame);
ik_result ik_take_bake(ik_take *take, const ik_clip *clip, const ik_transform *rest_ls);
int ik_take_frame_count(ik_real duration, ik_real frame_time, int max_frames);
#define IK_FOOT_CONTACT_POINTS ...
#define IK_FOOT_PATH_POINTS ...
const char *ik_foot_point_name(int point);
void ik_foot_point_joints(const ik_humanoid *rig, int joints[]);
ik_real ik_foot_leg_length(const ik_humanoid *rig);
ik_real ik_foot_metre(ik_real leg_length);
ik_result ik_foot_paths_record(const ik_skeleton *skeleton, const ik_take *take, const ik_mat4 *root_ms,
                               const int joints[], ik_mat4 *model_ms, ik_vec3 *paths_ms, int *bad_frame);
ik_result ik_foot_paths_record_rig(const ik_humanoid *rig, const ik_take *take, const ik_mat4 *root_ms,
                                   ik_mat4 *model_ms, ik_vec3 *paths_ms, ik_bool *present, int *bad_frame);
typedef struct ik_foot_contact { int point; int start, end; ik_vec3 planted_ms; } ik_foot_contact;
typedef struct ik_foot_contacts {
    const ik_vec3 *paths_ms;
    int frame_count;
    ik_real frame_time;
    ik_bool present[...];
    ik_vec3 up_ms;
    ik_real leg_length;
    ik_real floor_percentile;
    ik_real height_enter, height_exit;
    ik_real speed_enter, speed_exit;
    ik_real max_gap, min_duration;
    ik_real *scratch;
    ik_foot_contact *contacts;
    int capacity;
    int *count;
    ik_real *heights;
    ik_real *speeds;
    ik_real *levels;
    ...;
} ik_foot_contacts;
ik_foot_contacts ik_foot_contacts_def(void);
ik_result ik_foot_contacts_run(const ik_foot_contacts *job);
typedef struct ik_footskate {
    const ik_humanoid *rig;
    const ik_mat4 *root_ms;
    ik_take *take;
    const ik_foot_contact *contacts;
    int contact_count;
    ik_real blend_time;
    ik_real reach;
    ik_bool follow_heel_lift;
    void *scratch;
    size_t scratch_bytes;
    ik_mat4 *model_ms;
    ...;
} ik_footskate;
ik_footskate ik_footskate_def(void);
size_t ik_footskate_scratch_size(const ik_take *take, int contact_count);
ik_result ik_footskate_plan(const ik_footskate *job);
ik_result ik_footskate_apply(const ik_footskate *job, int first, int end);
ik_result ik_footskate_run(const ik_footskate *job);
typedef struct ik_skating {
    ik_real travel;
    ik_real worst_travel;
    int contact_frames;
    int sliding_frames;
    ik_real upper_change;
    int upper_change_joint;
    ik_real knee_straightening;
    int knee_snaps;
    ik_real added_speed;
    int added_speed_joint, added_speed_frame;
} ik_skating;
typedef struct ik_skating_measure {
    const ik_humanoid *rig;
    const ik_mat4 *root_ms;
    const ik_take *take;
    const ik_take *reference;
    const ik_foot_contact *contacts;
    int contact_count;
    ik_vec3 up_ms;
    ik_real slide_speed;
    ik_mat4 *model_ms, *reference_ms;
    ik_vec3 *previous_ms;
    ik_skating *out;
    ...;
} ik_skating_measure;
ik_skating_measure ik_skating_measure_def(void);
ik_result ik_skating_measure_run(const ik_skating_measure *job);
typedef struct ik_walk_report { ik_real distance; int steps; ik_real worst_residual; ik_real lowest_pelvis; } ik_walk_report;
typedef struct ik_walk {
    const ik_humanoid *rig;
    const ik_mat4 *root_ms;
    ik_real speed, stride, cadence, step_height, stance_fraction, bob, sway, arm_swing, toe_off;
    const ik_ground *ground;
    ik_take *take;
    ik_mat4 *model_ms;
    ik_walk_report *report;
    ...;
} ik_walk;
ik_walk ik_walk_def(const ik_humanoid *rig, const ik_mat4 *root_ms);
ik_result ik_walk_validate(const ik_walk *job, const char **problem);
ik_result ik_walk_run(const ik_walk *job);
ik_result ik_walk_frame(const ik_humanoid *rig, const ik_mat4 *root_ms, ik_mat4 *frame);

/* key_fit.h */
typedef enum ik_key_sharing { IK_KEY_SHARE_AUTO, IK_KEY_SHARE_JOINT, IK_KEY_SHARE_SKELETON } ik_key_sharing;
typedef struct ik_key_fit_stats {
    int frame_count;
    int channel_count;
    int curve_count;
    long key_count;
    long curve_key_count;
    long stored_numbers;
    ik_real max_error;
    ik_real mean_error;
    int worst_frame;
    ik_key_sharing sharing;
    ik_real tolerance;
} ik_key_fit_stats;
typedef struct ik_key_fit {
    const ik_take *take;
    const ik_skeleton *skeleton;
    const ik_mat4 *root_ms;
    const int *forced_frames;
    int forced_count;
    ik_real max_error;
    ik_real point_offset;
    ik_key_sharing sharing;
    const char *clip_name;
    void *scratch;
    size_t scratch_bytes;
    ik_channel *channels;
    ik_real *times;
    ik_real *values;
    ik_clip *clip;
    ik_key_fit_stats *stats;
    ...;
} ik_key_fit;
typedef struct ik_key_fit_size { int channel_count; size_t time_count; size_t value_count; } ik_key_fit_size;
ik_key_fit ik_key_fit_def(void);
ik_key_fit_size ik_key_fit_size_of(const ik_take *take);
size_t ik_key_fit_scratch_size(int frame_count, int joint_count);
size_t ik_key_decimate_scratch_size(int frame_count, int joint_count);
ik_result ik_key_fit_run(const ik_key_fit *job);
ik_result ik_key_decimate_run(const ik_key_fit *job);

/* retarget.h */
typedef struct ik_retarget_pair { int source_joint, target_joint; } ik_retarget_pair;
typedef struct ik_retarget_report {
    ik_real scale;
    ik_real source_leg, target_leg;
    int paired_joints;
    int source_contacts;
} ik_retarget_report;
typedef struct ik_retarget {
    const ik_humanoid *source_rig;
    const ik_take *source;
    const ik_humanoid *target_rig;
    ik_take *target;
    const ik_retarget_pair *extra_pairs;
    int extra_pair_count;
    ik_bool pair_same_names;
    ik_bool hold_feet;
    ik_bool hold_hands;
    ik_foot_contacts contacts;
    ik_real blend_time;
    int plant_rounds;
    ik_real ground_metre;
    ik_foot_contact *target_contacts;
    int contact_capacity;
    int *contact_count;
    void *scratch;
    size_t scratch_bytes;
    ik_retarget_report *report;
    ...;
} ik_retarget;
ik_retarget ik_retarget_def(void);
size_t ik_retarget_scratch_size(int frame_count, int source_joints, int target_joints);
ik_result ik_retarget_run(const ik_retarget *job);
""" % {"real": REAL}

PRELUDE = """
#include <ikit/ikit.h>
#include <ikit/version.h>
#include <ikit/asset.h>
#include <ikit/urdf.h>
#include <ikit/humanoid.h>
#include <ikit/ground.h>
#include <ikit/named_chains.h>
#include <ikit/take.h>
#include <ikit/foot_contacts.h>
#include <ikit/walk.h>
#include <ikit/footskate.h>
#include <ikit/skating.h>
#include <ikit/key_fit.h>
#include <ikit/retarget.h>
#include "robot_fk_batch.h"
#include "two_bone_batch.h"
"""


def write_version_header(out_dir):
    """<ikit/version.h> as CMake makes it from src/version.h.in."""
    text = (ROOT / "CMakeLists.txt").read_text()
    version = re.search(r"project\(ikit VERSION ([0-9]+)\.([0-9]+)\.([0-9]+)", text)
    major, minor, patch = version.groups()
    values = {
        "PROJECT_VERSION_MAJOR": major,
        "PROJECT_VERSION_MINOR": minor,
        "PROJECT_VERSION_PATCH": patch,
        "PROJECT_VERSION": "%s.%s.%s" % (major, minor, patch),
        "IKIT_BUILT_DOUBLE": "1" if DOUBLE else "0",
    }
    template = (ROOT / "src" / "version.h.in").read_text()
    header = re.sub(r"@([A-Z_]+)@", lambda m: values[m.group(1)], template)
    target = out_dir / "ikit" / "version.h"
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.exists() or target.read_text() != header:
        target.write_text(header)


def pkg_config(flag, package):
    """Flags from pkg-config, as the CMake build takes them (pkg_check_modules)."""
    out = subprocess.run(["pkg-config", flag, package], check=True, capture_output=True, text=True).stdout
    return out.split()


def library_sources():
    sources = [str(ROOT / "src" / "version.c")]
    for layer in LAYERS:
        sources += sorted(str(p) for p in (ROOT / "src" / layer).glob("*.c"))
    return sources + sorted(str(p) for p in (HERE / "csrc").glob("*.c"))


def library_headers():
    """Every header the sources include, so a changed one rebuilds the extension."""
    headers = list((ROOT / "include" / "ikit").glob("*.h")) + list((ROOT / "src").glob("*/*.h"))
    return sorted(str(p) for p in headers + list((HERE / "csrc").glob("*.h")))


generated = HERE / "build" / ("double" if DOUBLE else "float") / "generated"
write_version_header(generated)
cflags = pkg_config("--cflags", "libcjson") + pkg_config("--cflags", "libxml-2.0")
libs = pkg_config("--libs", "libcjson") + pkg_config("--libs", "libxml-2.0")

ffibuilder = FFI()
ffibuilder.cdef(CDEF)
ffibuilder.set_source(
    "ikit._ikit",
    PRELUDE,
    sources=library_sources(),
    depends=library_headers(),
    include_dirs=[str(ROOT / "include"), str(generated), str(HERE / "csrc")],
    define_macros=[("IKIT_DOUBLE", "1")] if DOUBLE else [],
    # -fno-math-errno as the CMake build compiles the core (src/CMakeLists.txt).
    extra_compile_args=["-O2", "-fno-math-errno"] + [f for f in cflags if f.startswith("-I")],
    extra_link_args=libs + ["-lm"],
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)

/* ikit_web: the playground's C API (web/ikit_web.c, web/planar_keys.c,
 * web/body_clip.c, web/body_mesh.c, web/body_floor.c, web/figure_file.c,
 * web/body_full.c, web/robot_arm.c),
 * which the page calls through ikit.js; declared here for the scripted
 * benchmark cases (web/bench_cases.c) and tests/test_web_glue.c, which run
 * the same calls natively. */
#ifndef IKIT_WEB_H
#define IKIT_WEB_H

#include <ikit/clip.h>
#include <ikit/constraint.h>
#include <ikit/humanoid.h>
#include <ikit/math.h>
#include <ikit/robot_ik.h>

#include "body_floor.h"
#include "body_full.h"
#include "body_limbs.h"

/* Exported by name from the wasm module; plain functions in a native build
 * (bench/bench_web.c times the same calls natively). */
#ifdef __wasm__
#define IKW_EXPORT(name) __attribute__((export_name(#name)))
#else
#define IKW_EXPORT(name)
#endif

/* The methods a chain slot can solve with (the page's menu, in this order). */
typedef enum ikw_method {
    IKW_DLS_SPRINGS, /* seed 002: DLS with the file's springs, comfort ranges and gravity */
    IKW_CCD,         /* CCD within the file's limits */
    IKW_FABRIK,      /* FABRIK within the file's limits */
    IKW_SDLS,        /* selectively damped least squares with the springs */
    IKW_TRANSPOSE,   /* seed 002's "sum of torques": Jacobian transpose with the springs */
    IKW_METHOD_COUNT
} ikw_method;

/* Text in (chain files, joint names), messages and result names out. */
char *ikw_text_buffer(void);
int ikw_text_capacity(void);
const char *ikw_message(void);
void ikw_set_message(const char *text); /* for the glue's own files, not exported */
const char *ikw_result_str(int result);

/* A chain file and three poses of it ("slots"). */
int ikw_chain_load(int length);
int ikw_chain_joint_count(void);
const int *ikw_chain_parents(void);
const float *ikw_chain_file_target(void);
void ikw_chain_reset(int slot);
int ikw_chain_solve(int slot, int method, float x, float y, float z, float gravity, int repeats);
const float *ikw_chain_positions(int slot);
float ikw_chain_error(int slot);
int ikw_chain_iterations(int slot);

/* Seed 003's planar chain. */
ik_real *ikw_planar_lengths(void);
ik_real *ikw_planar_angles(void);
const ik_real *ikw_planar_xy(void);
int ikw_planar_max_bones(void);
float ikw_planar_error(void);
int ikw_planar_iterations(void);
int ikw_planar_fk(int bone_count, float base_x, float base_y);
int ikw_planar_solve(int bone_count, int joint, int method, float base_x, float base_y, float x, float y,
                     int max_iterations, int repeats);

/* Its keys and motion curves (web/planar_keys.c). */
void ikw_planar_keys_clear(void);
int ikw_planar_key_count(void);
float ikw_planar_key_time(int k);
int ikw_planar_key(int bone_count, float time);
const ik_real *ikw_planar_sampled(void);
int ikw_planar_sample(float time);
int ikw_planar_pose_at(float time, float base_x, float base_y);
int ikw_planar_tangent(int key, int bone, float in_slope, float out_slope);
int ikw_planar_tangent_is_set(int key, int bone);
void ikw_planar_tangents_auto(void);
const ik_real *ikw_planar_curve(int bone);
int ikw_planar_curve_stride(void);

/* The humanoid: built in, or a skeleton from the page. */
int ikw_body_init(float height);
int *ikw_body_parent_buffer(void);
float *ikw_body_rest_buffer(void);
int ikw_body_max_joints(void);
int ikw_body_load(int count, int names_length);
float *ikw_body_root_buffer(void);
int ikw_body_root(int on);
int ikw_body_joint_count(void);
const int *ikw_body_parents(void);
const char *ikw_body_joint_name(int joint);
const float *ikw_body_positions(void);
const float *ikw_body_rotations(void);
const float *ikw_body_translations(void);
const float *ikw_body_limb_ends(void);
int ikw_body_limb_end(int limb);
float ikw_body_residual(int limb);
int ikw_body_grounded(int leg);
float ikw_body_pelvis_offset(void);
int ikw_body_goal(int limb, int enabled, float x, float y, float z);
int ikw_body_ground(int kind, float amount); /* 0 none, 1 slope (degrees), 2 stairs (step height) */
int ikw_body_solve(int repeats);
float ikw_body_clip_duration(void);
void ikw_body_time(float seconds);
void ikw_body_set_clip(const ik_clip *clip, ik_real frame_time); /* for web/body_clip.c, not exported */
const float *ikw_body_clip_floor(void); /* a point on the clip's floor, root space; NaN for none */

/* Full-body mode (web/body_full.c): ikw_body_solve runs ik_full_body_run,
 * warm-started from the last frame, the feet pinned, the hands' goals
 * (ikw_body_goal) and the head's reached by the whole body, the centre of
 * mass kept over the feet with `balance`. ikw_body_balance: the last
 * solve's IKW_BALANCE_FLOATS (web/body_full.h); ikw_body_full_summary: the
 * report in words. ikw_body_role_joint: the joint of a humanoid role. */
int ikw_body_full(int on, int balance);
int ikw_body_head_goal(int enabled, float x, float y, float z);
int ikw_body_role_joint(int role);
const float *ikw_body_balance(void);
const char *ikw_body_full_summary(void);

const ik_humanoid *ikw_body_rig(void);      /* the loaded figure's rig, NULL for none; not exported */
const ik_skeleton *ikw_body_skeleton(void); /* its skeleton, NULL for none; not exported */
float ikw_body_built_height(void);          /* the built-in figure's height, 0 for a file's; not exported */

/* The built-in figure's body (web/body_mesh.c): capsules round its bones,
 * skinned to them, at the rest pose. ikw_body_mesh_build returns the vertex
 * count, or -1 (ikw_message says why) for a figure from a file. Per vertex
 * 3 positions (model space), 4 joints and 4 weights; per triangle 3 indices
 * (counter-clockwise seen from outside). */
int ikw_body_mesh_build(void);
int ikw_body_mesh_triangle_count(void);
const float *ikw_body_mesh_positions(void);
const int *ikw_body_mesh_joints(void);
const float *ikw_body_mesh_weights(void);
const int *ikw_body_mesh_indices(void);

/* Each limb's solver and the limits drawn (web/body_limbs.h). */
int ikw_body_limb_solver(int limb, int method);
const float *ikw_body_limits(void);

/* A BVH figure with its motion (web/body_clip.c). */
char *ikw_input_buffer(int size);
int ikw_body_load_bvh(int length);

/* A glTF or GLB file (web/figure_file.c): its `length` bytes in
 * ikw_input_buffer read by the library's asset loader and rigged, kept as
 * the file in waiting: 0 a humanoid; 1 not readable, 2 read but no
 * humanoid, with ikw_message() in the library's words (as ikc's).
 * ikw_figure_use(1) makes the file in waiting the figure (0: the last one
 * used again); ikw_figure_joint_node gives each joint's glTF node (for the
 * drawing); ikw_figure_play plays the file's animation `clip` (-1: none). */
int ikw_figure_check(int length);
int ikw_figure_use(int waiting);
int ikw_figure_joint_node(int joint);
int ikw_figure_clip_count(void);
const char *ikw_figure_clip_name(int clip);
float ikw_figure_clip_duration(int clip);
int ikw_figure_play(int clip);
int ikw_body_load_skeleton(const ik_skeleton *skeleton); /* for the file readers' parts, not exported */

/* A robot arm (web/robot_arm.c): a URDF document in ikw_input_buffer read
 * by the library (ikw_robot_read), the chain from its root to a tip link
 * loaded (ikw_robot_use: a link index; ikw_robot_tip(k), best first, are
 * the leaves), then posed and solved. ikw_robot_joints: per chain joint its
 * type (ik_robot_joint_type) and unit axis. */
int ikw_robot_read(int length);
int ikw_robot_use(int tip);
const char *ikw_robot_name(void);
int ikw_robot_link_count(void);
int ikw_robot_urdf_joint_count(void);
const char *ikw_robot_link_name(int link);
int ikw_robot_tip_count(void);
int ikw_robot_tip(int k);
const char *ikw_robot_variable_name(int v);
const float *ikw_robot_joints(void);
int ikw_robot_max_joints(void);
int ikw_robot_joint_count(void);
int ikw_robot_variable_count(void);
ik_real *ikw_robot_q(void);
const ik_real *ikw_robot_lower(void);
const ik_real *ikw_robot_upper(void);
const float *ikw_robot_frames(void);
int ikw_robot_pose(void);
int ikw_robot_solve(float x, float y, float z, float qx, float qy, float qz, float qw, int orientation, int repeats);
float ikw_robot_position_error(void);
float ikw_robot_angle_error(void);
int ikw_robot_iterations(void);
int ikw_robot_reached(void);

/* The robot's cell (web/robot_cell.c): a table, a wall, a post and a ball
 * sized from the arm's reach, the arm modelled by a capsule round each drawn
 * link. ikw_robot_cell(1) turns it on (returns the obstacle count): then
 * ikw_robot_solve is collision-free (ik_robot_free_ik_run) and every pose
 * drawn is checked (ik_robot_collision_check). Obstacles: 11 floats each
 * (shape: 0 box, 1 sphere, 2 cylinder; pose x y z qx qy qz qw; sizes: a
 * box's three, a sphere's radius, a cylinder's radius and length). Capsules
 * (after a check): 8 floats each, ends a and b in the base frame, radius, 1
 * when its link is closer than the margin to something. */
int ikw_robot_cell(int on);
const float *ikw_robot_cell_obstacles(void);
const char *ikw_robot_cell_obstacle_name(int k);
int ikw_robot_cell_capsule_count(void);
const float *ikw_robot_cell_capsules(void);
int ikw_robot_cell_free(void); /* 1 free, 0 in contact, -1 not checked */
float ikw_robot_cell_clearance(void);
int ikw_robot_cell_contact_count(void);
const char *ikw_robot_cell_contacts(void);
const char *ikw_robot_cell_closest(void); /* "base-upper_arm 0.088 m" */
int ikw_robot_cell_candidates(void);
float ikw_robot_cell_margin(void);
/* For robot_arm.c, not exported. */
ik_result ikw_cell_build(const ik_robot_chain *chain, const char *const *frame_names);
int ikw_cell_is_on(void);
ik_result ikw_cell_solve(const ik_robot_ik *job, ik_bool *reached);
ik_result ikw_cell_check(const ik_real *q, const ik_transform *links_bs);

/* Scripted cases (web/bench_cases.c). */
enum {
    IKW_BENCH_TAIL_DLS,
    IKW_BENCH_TAIL_CCD,
    IKW_BENCH_TAIL_FABRIK,
    IKW_BENCH_PLANAR_FABRIK,
    IKW_BENCH_HUMANOID,
    IKW_BENCH_ROBOT,
    IKW_BENCH_HUMANOID_FULL,
    IKW_BENCH_CASES
};
const char *ikw_bench_name(int which);
float ikw_bench_case(int which, int frames);

#endif

/* `ikc solve` on a humanoid by role: hands and feet to points, the head
 * looking at a point, feet on the ground (a slope, stairs or a height-field
 * file), through the rig layer's per-limb solve (ik_humanoid_solve); or,
 * with --reach ROLE=x,y,z, --pin ROLE and --balance, the whole body
 * following its effectors over its pinned feet (ik_full_body_run). */
#ifndef IKC_SOLVE_ROLES_H
#define IKC_SOLVE_ROLES_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include <ikit/body_mass.h>
#include <ikit/full_body.h>
#include <ikit/ground.h>
#include <ikit/height_field_file.h>
#include <ikit/humanoid.h>

#include "asset.h"
#include "humanoid_setup.h"

typedef enum ikc_ground_kind { IKC_GROUND_NONE, IKC_GROUND_SLOPE, IKC_GROUND_STAIRS, IKC_GROUND_FILE } ikc_ground_kind;

typedef struct ikc_roles {
    /* what the command line asked for */
    int goal_given[IK_LIMB_COUNT]; /* IK_LIMB_ARM_L .. IK_LIMB_LEG_R */
    ik_vec3 goal_ms[IK_LIMB_COUNT];
    int look_given;
    ik_vec3 look_ms;
    ik_real look_tolerance_deg; /* --look-tolerance, default 1 */
    const char *map_path;
    ikc_ground_kind ground_kind;
    ik_real slope_deg, slope_azimuth_deg;
    ik_real stairs_rise, stairs_run, stairs_azimuth_deg;
    const char *field_path;
    int animated; /* the pose is a clip's frame (--clip): feet are carried onto the ground, not planted */
    /* the full body: --reach, --pin, --balance */
    int reach_given[IK_FB_EFFECTOR_COUNT];
    ik_vec3 reach_ms[IK_FB_EFFECTOR_COUNT];
    int pinned[IK_FB_EFFECTOR_COUNT];
    int balance;

    /* filled by ikc_roles_solve */
    ikc_humanoid humanoid;
    ik_height_field_file field;
    ik_ground ground;
    ik_vec3 floor_ms; /* the floor of the pose being solved, under the hips */
    ik_humanoid_report report;
    double microseconds;
    ik_vec3 end_ms[IK_LIMB_COUNT]; /* where each wrist and ankle ended */
    ik_real limb_length[IK_LIMB_COUNT];
    ik_vec3 head_ms, gaze_ms; /* the head and its forward, for pictures */
    ik_body_mass mass;
    ik_full_body_report body_report;
    ik_vec3 effector_ms[IK_FB_EFFECTOR_COUNT]; /* where each effector's joint ended */
    char body_summary[512];                    /* ik_full_body_report_describe */
} ikc_roles;

/* The full body was asked for (--reach, --pin or --balance). */
int ikc_roles_full_body(const ikc_roles *r);

void ikc_roles_init(ikc_roles *r);
/* Parse the role option at argv[*i] (advancing *i past its value): 1 when
 * it was one, 0 when argv[*i] is not a role option, -1 after printing a
 * usage error. */
int ikc_roles_option(ikc_roles *r, int argc, char **argv, int *i);
/* Anything to solve: a hand or foot, --look-at or a ground. */
int ikc_roles_any(const ikc_roles *r);
/* The usage lines for `ikc solve --help`. */
void ikc_roles_usage(FILE *out);

/* Find the humanoid, build the ground, solve `pose_ls` in place and leave
 * its forward kinematics in model_ms. Returns an IKC_EXIT_ code (after
 * printing the reason); unreached goals are warnings on stderr. */
int ikc_roles_solve(ikc_roles *r, const ik_asset *asset, ik_transform *pose_ls, ik_mat4 *model_ms);

/* A vector as a JSON array [x, y, z] (for --json output). */
cJSON *ikc_vec3_json(ik_vec3 v);
/* Add the "humanoid" object to --json output. */
void ikc_roles_json(const ikc_roles *r, const ik_skeleton *skeleton, cJSON *root);
/* The table rows (same columns as the joint targets' table). */
void ikc_roles_table(const ikc_roles *r, const ik_skeleton *skeleton);
/* Targets to mark in a picture: up to IK_LIMB_COUNT + 3 points and flags. */
int ikc_roles_marks(const ikc_roles *r, ik_vec3 *points, int *reached);

void ikc_roles_free(ikc_roles *r);

#endif

/* ikit humanoid: seed 001's IK for humanoid skeletons on any rig.
 *
 * Three steps:
 *   1. Map: find the body's joints by name (ik_humanoid_map_find), in the
 *      common conventions (CMU BVH, Mixamo, Blender Rigify, "UpperLeg.L", the
 *      Khronos sample figures), with a "role = joint name" file for the rest.
 *   2. Rig: ik_humanoid_init reads the rest pose once: bone lengths, each
 *      elbow's and knee's hinge axis (the normal of the plane of upper and
 *      lower bone, or a default when straight), the body's up, forward and
 *      left axes, the feet's soles. Limits live in rig.limits and may be
 *      edited after init.
 *   3. Solve: an ik_humanoid_solve job, run every frame on the caller's pose:
 *      pelvis, spine and head (look-at), clavicles, arms and legs, wrists and
 *      ankles, toes (seed 001's order), with targets for hands and feet,
 *      props (see prop.h) and feet on the ground (see ground.h).
 *
 * Space: "model space" is the space the skeleton's forward kinematics
 * produce with the job's root_ms above the roots (ik_skeleton_fk), the same
 * as every solver in ikit. No memory is allocated; the rig holds indices and
 * a few vectors and points at the caller's skeleton.
 */
#ifndef IKIT_HUMANOID_H
#define IKIT_HUMANOID_H

#include <stddef.h>

#include <ikit/ground.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/skeleton.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- roles and the map ---------------------------------------------------- */

/* X(role, file name): the body parts the rig knows, with their name in a
 * mapping file. Left roles come right before their right mirror. */
#define IK_HUMANOID_ROLE_LIST(X)              \
    X(IK_ROLE_HIPS, "hips")                   \
    X(IK_ROLE_SPINE, "spine")                 \
    X(IK_ROLE_CHEST, "chest")                 \
    X(IK_ROLE_NECK, "neck")                   \
    X(IK_ROLE_HEAD, "head")                   \
    X(IK_ROLE_CLAVICLE_L, "left_clavicle")    \
    X(IK_ROLE_CLAVICLE_R, "right_clavicle")   \
    X(IK_ROLE_UPPER_ARM_L, "left_upper_arm")  \
    X(IK_ROLE_UPPER_ARM_R, "right_upper_arm") \
    X(IK_ROLE_FOREARM_L, "left_forearm")      \
    X(IK_ROLE_FOREARM_R, "right_forearm")     \
    X(IK_ROLE_HAND_L, "left_hand")            \
    X(IK_ROLE_HAND_R, "right_hand")           \
    X(IK_ROLE_THIGH_L, "left_thigh")          \
    X(IK_ROLE_THIGH_R, "right_thigh")         \
    X(IK_ROLE_SHIN_L, "left_shin")            \
    X(IK_ROLE_SHIN_R, "right_shin")           \
    X(IK_ROLE_FOOT_L, "left_foot")            \
    X(IK_ROLE_FOOT_R, "right_foot")           \
    X(IK_ROLE_TOE_L, "left_toe")              \
    X(IK_ROLE_TOE_R, "right_toe")

#define IK_HUMANOID_ROLE_ENUM_ITEM(role, file_name) role,
typedef enum ik_humanoid_role { IK_HUMANOID_ROLE_LIST(IK_HUMANOID_ROLE_ENUM_ITEM) IK_ROLE_COUNT } ik_humanoid_role;
#undef IK_HUMANOID_ROLE_ENUM_ITEM

/* The name of a role in mapping files ("left_thigh"); "" when out of range. */
const char *ik_humanoid_role_name(int role);
/* The role with that file name, or -1. `length` < 0: NUL-terminated. */
int ik_humanoid_role_find(const char *name, int length);
/* The left/right mirror of a role (itself for the centre line). */
int ik_humanoid_role_mirror(int role);

/* Roles a humanoid cannot do without; the others (spine, neck, clavicles,
 * feet, toes) are optional. A leg without a foot joint (robot.glb, whose
 * Foot.L is an IK control outside the leg) ends at a virtual ankle. */
#define IK_HUMANOID_REQUIRED_ROLES                                                                             \
    ((1ul << IK_ROLE_HIPS) | (1ul << IK_ROLE_CHEST) | (1ul << IK_ROLE_HEAD) | (1ul << IK_ROLE_UPPER_ARM_L) |   \
     (1ul << IK_ROLE_UPPER_ARM_R) | (1ul << IK_ROLE_FOREARM_L) | (1ul << IK_ROLE_FOREARM_R) |                  \
     (1ul << IK_ROLE_HAND_L) | (1ul << IK_ROLE_HAND_R) | (1ul << IK_ROLE_THIGH_L) | (1ul << IK_ROLE_THIGH_R) | \
     (1ul << IK_ROLE_SHIN_L) | (1ul << IK_ROLE_SHIN_R))

/* One line of a mapping: a role and a joint name (not NUL-terminated; it
 * points into the caller's text). */
typedef struct ik_humanoid_pair {
    int role;
    const char *name;
    int name_length;
} ik_humanoid_pair;

/* Parse "role = joint name" lines from `text` [length] (no NUL needed).
 * Blank lines and lines starting with '#' are skipped; spaces around the
 * role and the name are trimmed, so joint names may contain inner spaces.
 * Pairs point into `text`. IK_ERR_PARSE (with *error_line, 1-based, when
 * not NULL) for a line without '=', an unknown role, an empty name or a role
 * given twice; IK_ERR_CAPACITY when more than `capacity` pairs. */
ik_result ik_humanoid_parse_mapping(const char *text, size_t length, ik_humanoid_pair *pairs, int capacity, int *count,
                                    int *error_line);

typedef struct ik_humanoid_map {
    int joint[IK_ROLE_COUNT]; /* joint index per role, -1 when missing */
    unsigned long missing;    /* bit (1ul << role) per role not found */
    /* A joint whose name looked like a role but which was passed over because
     * it is not where that role must be (an IK control target such as
     * robot.glb's Foot.L, not under the shin), per role; -1 when none. */
    int rejected[IK_ROLE_COUNT];
} ik_humanoid_map;

/* Find every role in `skeleton`. `pairs` [pair_count] (may be NULL) come
 * first: a pair naming a joint that does not exist makes that role missing.
 * The rest are found by name (see docs/humanoid.md for the conventions),
 * checked against the hierarchy (forearm under upper arm, foot under shin,
 * ...), with structure filling the gaps (upper arm = the forearm's parent,
 * hips = the thighs' common ancestor, chest = the arms' common ancestor,
 * head = the end of the chain above the chest). Returns IK_OK when all
 * IK_HUMANOID_REQUIRED_ROLES were found, IK_ERR_NOT_FOUND otherwise (the map
 * still holds what was found); IK_ERR_NULL, IK_ERR_RANGE for a pair with a
 * bad role. */
ik_result ik_humanoid_map_find(const ik_skeleton *skeleton, const ik_humanoid_pair *pairs, int pair_count,
                               ik_humanoid_map *map);

/* A report, one line per role: "left_foot = Foot.L", "left_toe: missing
 * (optional)", "left_foot: missing (optional) (Foot.L is not where a
 * left_foot goes: an IK control?)". Writes
 * at most `size` bytes, always NUL-terminated when size > 0; returns the
 * length the whole report needs (as snprintf). */
int ik_humanoid_map_describe(const ik_humanoid_map *map, const ik_skeleton *skeleton, char *out, size_t size);

/* The name with its side swapped ("LeftArm" <-> "RightArm", "thigh.L" <->
 * "thigh.R", "leg_joint_L_1" <-> "leg_joint_R_1", "Hand_l" <-> "Hand_r")
 * into `out` [size]. Returns 1 when a side was found and swapped, 0 when the
 * name has no side (out gets the name unchanged) or does not fit. */
ik_bool ik_humanoid_mirror_name(const char *name, char *out, size_t size);
/* mirror[i] = the joint whose name is joint i's mirrored name, or i itself
 * (centre-line joints and unmatched names). */
ik_result ik_humanoid_mirror_joints(const ik_skeleton *skeleton, int *mirror);

/* ---- the rig ---------------------------------------------------------------- */

enum { IK_LIMB_ARM_L, IK_LIMB_ARM_R, IK_LIMB_LEG_L, IK_LIMB_LEG_R, IK_LIMB_COUNT };

/* Limits (radians) and gains; ik_humanoid_init fills the defaults below. */
typedef struct ik_humanoid_limits {
    ik_real elbow_min, elbow_max; /* hinge bend, 0 straight: 0 .. 150 deg */
    ik_real knee_min, knee_max;   /* 0 .. 150 deg */
    ik_real ankle_up, ankle_down; /* dorsiflexion 25 deg, plantarflexion 50 deg (ik_humanoid_ankle_angle) */
    ik_real toe_bend;             /* toes bend up to 60 deg to stay on the ground */
    ik_real toe_curl;             /* and curl down up to 30 deg to reach it */
    ik_real clavicle_forward;     /* largest forward turn of a clavicle, 30 deg */
    ik_real clavicle_up;          /* largest upward turn, 30 deg */
    ik_real look_max;             /* the look turns at most 80 deg from the chest's forward, in yaw
                                     (about up) and in pitch, each on its own */
    ik_real pelvis_drop;          /* the pelvis lowers at most this fraction of the leg length: 0.4 */
    ik_real pelvis_raise;         /* and rises at most this fraction: 0.2 */
    ik_real contact_height;       /* a sole within this fraction of the leg length above the
                                     floor stands on it: 0.02 (see ik_humanoid_solve.ground) */
} ik_humanoid_limits;

typedef struct ik_humanoid_limb {
    int start, mid, end;   /* upper arm / thigh, forearm / shin, hand / foot; end -1: virtual */
    int end_control;       /* a virtual end's stand-in outside the limb, whose rest position
                              gave end_offset_ls (robot.glb's IK control Foot.L, which carries
                              the foot's mesh), or -1; see ik_humanoid_limb_foot */
    int clavicle;          /* arms: the clavicle or -1 */
    int toe;               /* legs: the toe joint or -1 */
    ik_vec3 end_offset_ls; /* the end's position in mid's frame (used when end is -1) */
    ik_vec3 hinge_axis_ls; /* in mid's frame; bend positive about it (measured in that frame:
                              in model space about sgn(det M) M hinge_axis_ls) */
    ik_real upper_length, lower_length;
    /* legs: sole geometry in the foot's frame (ik_humanoid_limb_foot's; model units at rest) */
    ik_vec3 sole_up_ls;   /* the sole's normal */
    ik_vec3 lateral_ls;   /* the foot's axis up x forward: its left, on a rig that is not
                             mirrored (dorsiflexion turns negative about it; under a
                             mirroring root_ms, about its opposite) */
    ik_vec3 heel_ls;      /* the contact point below the ankle */
    ik_vec3 ball_ls;      /* the contact point below the ball of the foot */
    ik_vec3 toe_tip_ls;   /* in the toe's frame: the contact point below the toes' tip */
    ik_real ankle_height; /* ankle above its own foot's lowest rest point */
} ik_humanoid_limb;

#define IK_HUMANOID_MAX_SPINE 8

typedef struct ik_humanoid {
    const ik_skeleton *skeleton;
    ik_humanoid_map map;
    ik_humanoid_limb limb[IK_LIMB_COUNT];
    int pelvis;                            /* the joint moved to lower the body */
    int look_chain[IK_HUMANOID_MAX_SPINE]; /* spine .. head, root-first */
    ik_real look_weights[IK_HUMANOID_MAX_SPINE];
    int look_count;
    ik_vec3 head_forward_ls, head_up_ls; /* the face's axes in the head's frame */
    ik_vec3 chest_forward_ls;            /* the body's forward in the chest's frame */
    /* body axes in the skeleton's root space (before root_ms) */
    ik_vec3 up_rs, forward_rs, left_rs;
    ik_real floor_rs; /* rest floor height along up_rs (the lower sole) */
    ik_humanoid_limits limits;
} ik_humanoid;

/* Build a rig from a map (after ik_humanoid_map_find) and the skeleton's
 * rest pose, read in the skeleton's root space (root_ms is applied at solve
 * time, so one rig serves any placement). The skeleton must outlive the rig. IK_ERR_NULL; IK_ERR_NOT_FOUND when a
 * required role is missing; IK_ERR_HIERARCHY when the roles are not in body order; IK_ERR_DEGENERATE for zero-length
 * limbs or a body with no width; IK_ERR_UNSUPPORTED for a figure that does not stand (its legs not hanging within 60
 * degrees of away from its head: a quadruped). */
ik_result ik_humanoid_init(ik_humanoid *rig, const ik_skeleton *skeleton, const ik_humanoid_map *map);

/* Why a skeleton gives no usable rig, in one line for a person (no
 * newline), from ik_humanoid_map_find's result and map and, when the map
 * was found, ik_humanoid_init's result (pass IK_OK when it was not run):
 *   "no humanoid found: missing left_forearm, right_forearm" (the
 *     required roles not found);
 *   "no humanoid found: the figure does not stand upright (its legs do not
 *     hang away from its head: a quadruped?)" (IK_ERR_UNSUPPORTED);
 *   "the humanoid's rest pose is not usable: <ik_result_str> (<why>)".
 * "" when both results are IK_OK. The command-line tool and the browser
 * playground show it as it is, so both say the same words. Writes at most
 * `size` bytes, always NUL-terminated when size > 0; returns the length the
 * whole text needs (as snprintf). */
int ik_humanoid_explain(ik_result map_result, ik_result init_result, const ik_humanoid_map *map, char *out,
                        size_t size);

/* The ankle's dorsiflexion (toes toward the shin positive), radians: the
 * signed angle about `lateral` (the foot's left axis: up x forward in the
 * space of the vectors, which a mirroring transform of the rig's
 * lateral_ls turns round) from `sole` (heel to ball) to `shin` (ankle to
 * knee), both projected on the plane perpendicular to `lateral`, plus 90
 * degrees, so 0 is the anatomical neutral: the shin perpendicular to the
 * sole. The limits ankle_up and ankle_down bound it. */
ik_real ik_humanoid_ankle_angle(ik_vec3 sole, ik_vec3 shin, ik_vec3 lateral);

/* The joint that stands for a limb's end (the ankle of a leg): the end
 * joint, or for a virtual end its control joint (end_control), which the
 * motion layer (retargeting, footskate clean-up) keeps at the virtual end
 * with the foot's turn, so the sole and the contacts are read from it;
 * -1 when neither. */
static inline int ik_humanoid_limb_foot(const ik_humanoid_limb *limb) {
    return limb->end >= 0 ? limb->end : limb->end_control;
}

/* Where a limb's end is in a pose (model_ms: forward kinematics of every
 * joint): the end joint's matrix, or for a virtual end the middle joint's
 * matrix carried to end_offset_ls. */
ik_mat4 ik_humanoid_limb_end_ms(const ik_humanoid_limb *limb, const ik_mat4 *model_ms);

/* The pole the rig's own solve gives a limb's two-bone job for `target`
 * (model_ms: forward kinematics of the pose, its root_ms applied):
 * ik_limb_natural_pole of the limb's start, middle and end
 * (ik_humanoid_limb_end_ms) with the hinge in model space,
 * sgn(det M) M hinge_axis_ls for the middle joint's matrix M, at `length`
 * from the middle of start and target. With use_hinge on hinge_axis_ls it
 * bends a knee forward and an elbow back, as the rest pose does, whatever
 * the pose's current bend (a straight T-pose leg included). */
ik_vec3 ik_humanoid_limb_pole(const ik_humanoid_limb *limb, const ik_mat4 *model_ms, ik_vec3 target, ik_real length);

/* A virtual end's control joint carried to the virtual end as the limb
 * stands in `pose_ls` (its turn kept): the limb's forward kinematics
 * refreshed into model_ms (under root_ms, NULL: identity), the control's
 * local translation set to the end in its parent's frame, its subtree
 * refreshed. Nothing for a limb with an end joint or without a control. */
void ik_humanoid_carry_end_control(const ik_humanoid *rig, int limb, ik_transform *pose_ls, ik_mat4 *model_ms,
                                   const ik_mat4 *root_ms);

/* ---- the angles the limits bound ---------------------------------------------- */

/* Per side (0 left, 1 right), radians. glTF and BVH files carry no joint
 * limits, so these are what "inside its limits" means for their rigs: the
 * rig's anatomical defaults (ik_humanoid_limits), which the caller may edit. */
typedef struct ik_humanoid_angles {
    ik_real elbow[2];            /* bend about the hinge, 0 straight, negative the wrong way: elbow_min..max */
    ik_real knee[2];             /* the same: knee_min..max */
    ik_real ankle[2];            /* ik_humanoid_ankle_angle, dorsiflexion positive: -ankle_down..ankle_up;
                                    0 for a leg with no foot joint nor control */
    ik_real toe[2];              /* the toes' lift from their rest (toe bone against the sole about the
                                    foot's lateral axis), up positive: -toe_curl..toe_bend; 0 without toes */
    ik_real clavicle_forward[2]; /* the clavicle bone's rise toward the chest's forward and up (in the
                                    chest's frame) from its rest: at most clavicle_forward, clavicle_up;
                                    0 without clavicles */
    ik_real clavicle_up[2];
} ik_humanoid_angles;

/* The parts, on one limb in a pose (model_ms: forward kinematics of every
 * joint): an elbow's or knee's signed bend about its hinge; a leg's ankle
 * angle (0 with no foot joint nor control); a leg's toes' lift against the
 * sole, not from rest (0 without toes). The ankle and the toes are seen
 * along the foot's lateral axis M lateral_ls for the foot's matrix M: a
 * turn of the foot by +a about that axis lowers the ankle angle by a. */
ik_real ik_humanoid_limb_bend(const ik_humanoid_limb *limb, const ik_mat4 *model_ms);
ik_real ik_humanoid_leg_ankle(const ik_humanoid_limb *leg, const ik_mat4 *model_ms);
ik_real ik_humanoid_leg_toe_lift(const ik_humanoid_limb *leg, const ik_mat4 *model_ms);

/* Measure a pose: model_ms and rest_ms are forward kinematics of the pose
 * and of the rest pose under the same root (NULL or not). */
void ik_humanoid_angles_measure(const ik_humanoid *rig, const ik_mat4 *model_ms, const ik_mat4 *rest_ms,
                                ik_humanoid_angles *out);
/* How far the angles go beyond rig->limits: the largest excess, radians (0
 * when all are inside), and its name ("left knee", "right ankle", ...) in
 * *what (may be NULL; "" when inside). */
ik_real ik_humanoid_angles_excess(const ik_humanoid *rig, const ik_humanoid_angles *a, const char **what);

/* ---- a limb's natural bend (any rig, humanoid or not) ---------------------- */

/* The hinge an elbow or knee bends about, from its start a, middle b and end
 * c at rest, in one space with the figure's unit `forward` and `up`: the
 * normal n = (b - a) x (c - b) of the limb's plane, so the rest bend is
 * positive about it, when the limb is bent over 2 degrees the way such a
 * joint bends; else (straight, or bent against the way) the default:
 * u x forward for an elbow (the forearm comes forward, the elbow points
 * back), u x -forward for a knee (the knee points forward), u = b - a; when
 * u lies along forward (a thigh held forward, as sitting), -forward turned
 * with it: u x -up for a knee, u x up for an elbow. ik_humanoid_init gives
 * every limb this hinge. */
ik_vec3 ik_limb_hinge(ik_vec3 a, ik_vec3 b, ik_vec3 c, ik_vec3 forward, ik_vec3 up, ik_bool knee);

/* A pole for ik_two_bone (with the hinge h in use_hinge: the model-space
 * axis a positive bend turns about, sgn(det M) M hinge_axis_ls for the
 * middle joint's matrix M, as a mirrored frame turns the sense round)
 * that keeps an elbow or knee on its natural side as the end goes from c
 * to `target`: the limb swings without rolling, so the hinge turns with the
 * shortest turn taking c - a onto e = target - a, to h', and the middle
 * joint goes to k = e x h' off the new line (a positive bend about h' puts
 * it there); when e lies along h', the side it is on now,
 * reject(b - a, c - a), or (b - a) x h for a straight limb. Returns the point
 * `length` along k from the middle of a and target. */
ik_vec3 ik_limb_natural_pole(ik_vec3 a, ik_vec3 b, ik_vec3 c, ik_vec3 target, ik_vec3 hinge_ms, ik_real length);

/* Where a figure faces at rest, in the skeleton's root space,
 * perpendicular to the unit `up_rs` (snapped to a root axis when within 30
 * degrees of one): where the toes point from the ankles (each of `feet`
 * [foot_count]: the joint's farthest descendant, off the up axis); else,
 * when `head` >= 0, where the face is (the head's descendants off the up
 * axis through it: jaw, eyes, nose). Descendants are looked at to 32
 * joints below, so the time stays linear in the joints on any rig.
 * Returns 0, leaving *forward_rs
 * untouched, when neither tells (no toes, the feet disagree, a head with
 * nothing off its axis). Unlike left x up it holds on a mirrored rig.
 * ik_humanoid_init turns its forward_rs to agree with it; when it does not
 * tell, with the rest bends of the knees (ahead of the hip-to-ankle line)
 * and elbows (behind the shoulder-to-wrist line), which a mirror keeps too,
 * when they add up to over about 11 degrees; else left x up stands. */
ik_bool ik_figure_forward(const ik_skeleton *skeleton, const int *feet, int foot_count, int head, ik_vec3 up_rs,
                          ik_vec3 *forward_rs);

/* ---- the solve ---------------------------------------------------------------- */

typedef struct ik_humanoid_goal {
    ik_bool enabled;
    ik_vec3 position_ms;  /* where the wrist / ankle goes */
    ik_bool use_rotation; /* also turn the hand / foot to rotation_ms (model space, as
                             ik_mat4_rotation reads its matrix: R with M = R diag(-1, 1, 1) s
                             when mirrored) */
    ik_quat rotation_ms;
    ik_real weight;   /* 0 keeps the input pose, 1 solves fully; default 1 */
    ik_bool use_pole; /* the elbow / knee bends toward pole_ms */
    ik_vec3 pole_ms;
    ik_real twist; /* extra turn about the shoulder/hip-to-target line, radians */
} ik_humanoid_goal;

typedef struct ik_humanoid_report {
    ik_bool reached[IK_LIMB_COUNT];  /* within 1e-3 of the limb's length */
    ik_real residual[IK_LIMB_COUNT]; /* distance end to its target */
    ik_bool heel_lifted[2];          /* legs: the heel was lifted (ankle limit or reach) */
    ik_bool grounded[2];             /* legs: the ray found ground under the foot */
    ik_vec3 ground_point_ms[2];      /* where, and its normal */
    ik_vec3 ground_normal_ms[2];
    ik_real pelvis_offset; /* how far the pelvis moved along up (negative: down) */
    /* look-at: the angle (radians) between the head's forward after the solve
     * and the direction from the head to the target, and whether it is
     * within look_tolerance */
    ik_real look_error;
    ik_bool look_reached;
} ik_humanoid_report;

typedef struct ik_humanoid_solve {
    const ik_humanoid *rig;
    ik_transform *pose_ls;  /* in/out [joint_count]: the animated pose, then the solved one */
    ik_mat4 *model_ms;      /* out [joint_count]: forward kinematics of the result (also scratch) */
    const ik_mat4 *root_ms; /* above the roots; NULL: identity */

    /* Targets: index IK_LIMB_ARM_L .. IK_LIMB_LEG_R. */
    ik_humanoid_goal goal[IK_LIMB_COUNT];

    /* Seed 001's shoulder adjustment before the arms solve. Default on. */
    ik_bool adjust_shoulders;

    /* Look-at: the spine, neck and head share the turn toward look_target_ms.
     * A target beyond limits.look_max turns the head toward it as far as the
     * limits allow, yaw and pitch each clamped on its own: one behind turns
     * the head to its side and pitches it no further than the target's own
     * elevation. The report's look_reached is 1 only when the head's forward
     * ends within look_tolerance (radians, default 1 degree) of the target. */
    ik_bool look_at;
    ik_vec3 look_target_ms;
    ik_real look_tolerance;

    /* Feet on the ground (NULL: off). Each foot is cast down onto the ground
     * under its goal (when the leg's goal is enabled) or under the animated
     * ankle, placed so the sole lies on the surface and aligned to its normal;
     * the pelvis moves so the lower foot can reach; heels lift past the ankle
     * limit or the reach; toes bend to stay on the surface. An enabled goal
     * above the ground keeps its height (a swinging foot); below it, it is
     * lifted onto it. Without a goal, an animated sole more than
     * limits.contact_height above the rest floor keeps that lift (ramped in
     * continuously); one closer stands on the ground. */
    const ik_ground *ground;
    ik_bool adjust_pelvis; /* default on (used with ground or leg goals) */
    /* The floor the animated pose stands on: with use_floor, a point on it
     * (model space; ik_humanoid_floor_point finds a pose's own); off
     * (default): the rig's rest floor. Feet's lifts are measured from it. */
    ik_bool use_floor;
    ik_vec3 floor_ms;
    /* On: a foot without a goal is carried onto the ground as animated
     * instead: its heel keeps its height above the floor over the ground
     * under it, its ball and toes' tip keep theirs, it turns by the ground's
     * tilt (the rotation taking up onto the normal, faded out over 0.05 leg
     * lengths of lift) and its ankle may flex as far as the animation does,
     * so a flat ground through the floor leaves every foot where it is. Off
     * (default): as above, soles near the floor stand flat on the ground. */
    ik_bool feet_relative;

    int passes; /* 1 (default) or 2: repeat clavicles, arms and legs */

    ik_humanoid_report *report; /* optional */
    unsigned long defaulted;    /* IK_JOB_DEFAULTED, set by ik_humanoid_solve_def(); do not touch */
} ik_humanoid_solve;

/* Defaults: every goal off with weight 1, shoulders and pelvis adjusted, no
 * look-at (tolerance 1 degree), no ground, the rest floor, feet not
 * relative, one pass, every pointer NULL. */
ik_humanoid_solve ik_humanoid_solve_def(void);

/* A point on the floor a pose stands on: along the body's up, at the height
 * of the pose's lowest sole contact (each foot's heel and ball, a virtual
 * ankle's ankle_height below it), under the hips. `model_ms` holds the
 * pose's forward kinematics under `root_ms` (NULL: identity). For the rest
 * pose it is on the rest floor. */
ik_vec3 ik_humanoid_floor_point(const ik_humanoid *rig, const ik_mat4 *model_ms, const ik_mat4 *root_ms);

/* Validate, then solve in seed 001's order. IK_ERR_NOT_DEFAULTED for a job
 * not made by ik_humanoid_solve_def(), IK_ERR_NULL, IK_ERR_NONFINITE
 * for NaN or infinity in an enabled input or the pose, IK_ERR_RANGE for a
 * weight outside [0, 1], passes outside 1..2 or a negative look_tolerance, ground errors as
 * ik_ground_check_shape (a height field's samples are read only under the
 * feet, where a NaN sample is no ground: call ik_ground_validate once for a
 * new field; checking every sample per solve cost 73 % of a crowd's frame). On error nothing is written. On success
 * model_ms holds the forward kinematics of the new pose. */
ik_result ik_humanoid_solve_run(const ik_humanoid_solve *job);

/* ---- a procedural humanoid --------------------------------------------------- */

#define IK_HUMANOID_BUILT_JOINTS 23

/* Write a humanoid skeleton `height` tall (soles on y = 0, facing +Z, its
 * left on +X, arms hanging with elbows slightly bent, legs straight, rest
 * rotations all identity, toes ending in "LeftToe_End"), joint names
 * in Mixamo style ("Hips", "LeftUpLeg", ...), into caller arrays of at least
 * IK_HUMANOID_BUILT_JOINTS entries, parents-first. Returns the joint count,
 * or 0 when `capacity` is too small or height is not positive and finite.
 * The names are string constants. */
int ik_humanoid_build_skeleton(ik_real height, int capacity, int *parents, const char **names, ik_transform *rest_ls);
/* The body of that skeleton for ik_bone_mesh_build (bone_mesh.h): each
 * joint's radius and, for the head and hands, a leaf capsule's length, in
 * caller arrays of at least IK_HUMANOID_BUILT_JOINTS entries. Returns the
 * joint count, or 0 as above. */
int ik_humanoid_build_body(ik_real height, int capacity, ik_real *radius, ik_real *leaf_length);

#ifdef __cplusplus
}
#endif
#endif

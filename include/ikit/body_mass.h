/* ikit body mass: a humanoid rig's mass model for balance.
 *
 * Segment masses and centres from de Leva (1996), "Adjustments to
 * Zatsiorsky-Seluyanov's segment inertia parameters", J. Biomechanics 29(9),
 * 1223-1230, table 4 (mass as a fraction of the body's, centre of mass as a
 * fraction of the segment's length from its first end point), scaled to the
 * rig: each centre is placed on the rig's own bones at rest (shoulder to
 * elbow, hip to knee, heel to toes' tip, ...) and carried by the joint whose
 * frame it moves with. Where the rig has no joint for an end point (the top
 * of the head, the knuckles), the segment's length is de Leva's mean length
 * over his mean stature, with the stature told from the rig's leg: thigh +
 * shank = 0.492 of it (42.22 + 43.40 cm of 174.1 cm, male; 36.85 + 43.52
 * of 173.5, female: 0.463, hip joint centre to lateral malleolus).
 *
 * The trunk (cervicale to the hip joints' midpoint) is one segment in the
 * table; its mass is shared by the pelvis, the spine (when mapped) and the
 * chest, each share at the trunk's centre as the rest pose has it and
 * carried by its own joint, so a trunk that bends moves its mass with it.
 *
 * Core layer: no allocation; the model is a plain value. */
#ifndef IKIT_BODY_MASS_H
#define IKIT_BODY_MASS_H

#include <ikit/humanoid.h>
#include <ikit/math.h>
#include <ikit/result.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Which of de Leva's two tables. */
typedef enum ik_body_mass_table { IK_BODY_MASS_MALE, IK_BODY_MASS_FEMALE } ik_body_mass_table;

/* The segments, in the order of the model's arrays. */
#define IK_BODY_MASS_SEGMENT_LIST(X)              \
    X(IK_MASS_SEG_HEAD, "head")                   \
    X(IK_MASS_SEG_TRUNK_LOW, "trunk (pelvis)")    \
    X(IK_MASS_SEG_TRUNK_MID, "trunk (spine)")     \
    X(IK_MASS_SEG_TRUNK_HIGH, "trunk (chest)")    \
    X(IK_MASS_SEG_UPPER_ARM_L, "left upper arm")  \
    X(IK_MASS_SEG_UPPER_ARM_R, "right upper arm") \
    X(IK_MASS_SEG_FOREARM_L, "left forearm")      \
    X(IK_MASS_SEG_FOREARM_R, "right forearm")     \
    X(IK_MASS_SEG_HAND_L, "left hand")            \
    X(IK_MASS_SEG_HAND_R, "right hand")           \
    X(IK_MASS_SEG_THIGH_L, "left thigh")          \
    X(IK_MASS_SEG_THIGH_R, "right thigh")         \
    X(IK_MASS_SEG_SHANK_L, "left shank")          \
    X(IK_MASS_SEG_SHANK_R, "right shank")         \
    X(IK_MASS_SEG_FOOT_L, "left foot")            \
    X(IK_MASS_SEG_FOOT_R, "right foot")

#define IK_BODY_MASS_SEGMENT_ENUM_ITEM(name, text) name,
typedef enum ik_body_mass_segment {
    IK_BODY_MASS_SEGMENT_LIST(IK_BODY_MASS_SEGMENT_ENUM_ITEM) IK_MASS_SEG_COUNT
} ik_body_mass_segment;
#undef IK_BODY_MASS_SEGMENT_ENUM_ITEM

/* The segment's name ("left thigh"); "" out of range. */
const char *ik_body_mass_segment_name(int segment);

typedef struct ik_body_mass {
    int joint[IK_MASS_SEG_COUNT];         /* the joint whose frame carries the segment's centre */
    ik_vec3 centre_ls[IK_MASS_SEG_COUNT]; /* the centre in that joint's frame (root space at rest) */
    ik_real mass[IK_MASS_SEG_COUNT];      /* kilograms: the table's fraction times total_mass */
    ik_real total_mass;                   /* the sum (kg) */
    ik_real stature;                      /* the stature told from the legs, root-space units */
    ik_body_mass_table table;
} ik_body_mass;

/* The model of `rig` (after ik_humanoid_init) for a body of `total_mass`
 * kilograms (> 0; only the report's kilograms depend on it: the centre of
 * mass does not). A segment whose joints are missing (no spine: its trunk
 * share goes to the pelvis and chest; no foot joint: the foot is carried
 * by the shin at the virtual ankle) is handled as said above. Returns
 * IK_ERR_NULL, IK_ERR_RANGE (a table other than the two, a mass not > 0 or
 * not finite) or IK_ERR_DEGENERATE (a singular rest frame). */
ik_result ik_body_mass_init(ik_body_mass *mass, const ik_humanoid *rig, ik_body_mass_table table, ik_real total_mass);

/* The centre of mass of a pose, model space: sum m_i M_i c_i / sum m_i over
 * the segments, M_i the carrying joint's model matrix in model_ms (forward
 * kinematics of the pose, its root_ms applied). */
ik_vec3 ik_body_mass_centre(const ik_body_mass *mass, const ik_mat4 *model_ms);

/* One segment's centre in a pose, model space. */
ik_vec3 ik_body_mass_segment_centre(const ik_body_mass *mass, int segment, const ik_mat4 *model_ms);

#ifdef __cplusplus
}
#endif
#endif

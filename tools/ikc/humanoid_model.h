/* A procedural humanoid built in code: the demo's character, needing no files. */
#ifndef IKC_HUMANOID_MODEL_H
#define IKC_HUMANOID_MODEL_H

#include <ikit/constraint.h>
#include <ikit/skeleton.h>

enum {
    HUMANOID_HIPS, HUMANOID_SPINE, HUMANOID_CHEST, HUMANOID_NECK, HUMANOID_HEAD,
    HUMANOID_THIGH_L, HUMANOID_SHIN_L, HUMANOID_FOOT_L, HUMANOID_TOE_L,
    HUMANOID_THIGH_R, HUMANOID_SHIN_R, HUMANOID_FOOT_R, HUMANOID_TOE_R,
    HUMANOID_SHOULDER_L, HUMANOID_UPPER_ARM_L, HUMANOID_FOREARM_L, HUMANOID_HAND_L,
    HUMANOID_SHOULDER_R, HUMANOID_UPPER_ARM_R, HUMANOID_FOREARM_R, HUMANOID_HAND_R,
    HUMANOID_JOINT_COUNT
};

/* Knee and elbow hinges: the local axis and bend range (radians). */
#define HUMANOID_KNEE_MAX_DEG 150
#define HUMANOID_ELBOW_MAX_DEG 133

/* Joint limits about the rest pose, one per joint: knees and elbows are
 * hinges (bending backward and forward), hips and shoulders cones with a
 * twist range, the spine, neck and head narrower cones; hands, feet and toes
 * modest cones. */
const ik_constraint *humanoid_constraints(void);

/* A 1.75 m figure standing at the origin, Y up, facing +Z, in its rest pose. */
const ik_skeleton *humanoid_model(void);

#endif

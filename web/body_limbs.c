/* The humanoid's limbs each solved by a solver picked on the page: the rig's
 * own closed-form two-bone solve (ik_humanoid_solve_run, the default), or
 * FABRIK, CCD or damped least squares over the limb's chain (upper arm or
 * thigh, forearm or shin, hand or foot). A limb with a chain solver is left
 * out of the rig's solve (its goal off there: it keeps the figure's pose,
 * feet on the ground) and then solved alone toward its goal, within the
 * rig's limits written as constraints (ik_limb_limits_make, limb_limits.h:
 * a hinge at the elbow or knee, a cone of IK_LIMB_ARM_CONE / IK_LIMB_LEG_CONE
 * and a twist of IK_LIMB_TWIST at the shoulder or hip).
 * The same numbers are handed to the page (ikw_limbs_draw) to draw the
 * limits: the bend's arc at each elbow and knee, the cone at each shoulder
 * and hip. */
#include <ikit/chain_solve.h>
#include <ikit/humanoid.h>
#include <ikit/jacobian.h>
#include <ikit/limb_limits.h>

#include <math.h>

#include "body_limbs.h"

enum { IKW_LIMB_SCRATCH_BYTES = 128 * 1024, IKW_LIMB_MAX_ITERATIONS = 500 };
#define IKW_LIMB_TOLERANCE ((ik_real)1e-4)

static union {
    ik_real align;
    unsigned char bytes[IKW_LIMB_SCRATCH_BYTES];
} limb_scratch;

static struct {
    int method[IK_LIMB_COUNT]; /* ikw_limb_method */
    float limits[IKW_LIMIT_FLOATS * IK_LIMB_COUNT];
    const ik_humanoid *rig; /* the pose to draw the limits at (ikw_limbs_store) */
    const ik_mat4 *model_ms, *root_ms;
} limbs;

/* A limb that ends in a virtual joint (no hand or foot joint) takes only
 * the rig's own solve. */
ik_result ikw_limbs_pick(const ik_humanoid *rig, int limb, int method, const char **why) {
    *why = NULL;
    if (limb < 0 || limb >= IK_LIMB_COUNT || method < 0 || method >= IKW_LIMB_METHODS) return IK_ERR_RANGE;
    if (method != IKW_LIMB_TWO_BONE && (!rig || rig->limb[limb].end < 0)) {
        *why = rig ? "this limb ends in a virtual joint: only the rig's two-bone solve moves it" : "no figure loaded";
        return IK_ERR_UNSUPPORTED;
    }
    limbs.method[limb] = method;
    return IK_OK;
}

int ikw_limb_solver_now(const ik_humanoid *rig, int limb) {
    return rig && rig->limb[limb].end < 0 ? IKW_LIMB_TWO_BONE : limbs.method[limb];
}

/* The limb's constraints (see the top of the file): [start, mid, end]. */
void ikw_limb_constraints(const ik_humanoid *rig, int limb, ik_constraint out[3]) {
    ik_bool arm = limb == IK_LIMB_ARM_L || limb == IK_LIMB_ARM_R;
    if (ik_limb_limits_make(rig, limb, arm ? IK_LIMB_ARM_CONE : IK_LIMB_LEG_CONE, IK_LIMB_TWIST, out, NULL) != IK_OK)
        out[0] = out[1] = out[2] = ik_constraint_none();
}

/* One limb toward its goal with its chain solver, in `pose_ls`; the distance
 * left from the end to the goal in *error. */
static ik_result solve_limb_once(const ik_humanoid *rig, int limb, const ik_constraint limits[3], ik_transform *pose_ls,
                                 const ik_mat4 *root_ms, ik_vec3 goal_ms, ik_real *error) {
    const ik_humanoid_limb *l = &rig->limb[limb];
    ik_chain_solve job = ik_chain_solve_def();
    ik_jacobian_joint turning[2];
    int joints[3];
    joints[0] = l->start, joints[1] = l->mid, joints[2] = l->end;
    turning[0] = ik_jacobian_ball(l->start);
    turning[1] = ik_jacobian_hinge(l->mid, l->hinge_axis_ls);
    job.method = limbs.method[limb] == IKW_LIMB_CCD   ? IK_CHAIN_CCD
                 : limbs.method[limb] == IKW_LIMB_DLS ? IK_CHAIN_DLS
                                                      : IK_CHAIN_FABRIK;
    job.base.skeleton = rig->skeleton;
    job.joints = joints;
    job.base.listed_joint_count = 3;
    job.base.constraints = limits;
    job.base.root_ms = root_ms;
    job.base.pose_ls = pose_ls;
    job.base.scratch = limb_scratch.bytes;
    job.base.scratch_bytes = sizeof limb_scratch.bytes;
    job.target_ms = goal_ms;
    job.turning = turning;
    job.turning_count = 2;
    job.turning_constraints = limits;
    job.tolerance = IKW_LIMB_TOLERANCE;
    job.max_iterations = IKW_LIMB_MAX_ITERATIONS;
    job.error = error;
    return ik_chain_solve_run(&job);
}

/* Exchange the limb's start and middle joints' transforms with `kept`. */
static void swap_limb(ik_transform kept[2], ik_transform *pose_ls, const ik_humanoid_limb *l) {
    ik_transform start = pose_ls[l->start], mid = pose_ls[l->mid];
    pose_ls[l->start] = kept[0], pose_ls[l->mid] = kept[1];
    kept[0] = start, kept[1] = mid;
}

/* The limb solved from the pose it has; when that stalls short of the goal
 * (a straight elbow or knee held at its limit can stop a local solver), once
 * more from the elbow or knee bent halfway through its range (the middle of
 * the hinge constraint's samples), keeping the closer of the two. */
static ik_result solve_limb(const ik_humanoid *rig, int limb, ik_transform *pose_ls, const ik_mat4 *root_ms,
                            ik_vec3 goal_ms) {
    const ik_humanoid_limb *l = &rig->limb[limb];
    ik_constraint limits[3];
    ik_transform first[2];
    ik_real error = 0, retry_error = 0;
    ik_result r;
    ikw_limb_constraints(rig, limb, limits);
    first[0] = pose_ls[l->start], first[1] = pose_ls[l->mid];
    r = solve_limb_once(rig, limb, limits, pose_ls, root_ms, goal_ms, &error);
    if (r != IK_OK || error <= 10 * IKW_LIMB_TOLERANCE) return r;
    swap_limb(first, pose_ls, l);
    pose_ls[l->mid].rotation = ik_constraint_sample(&limits[1], ik_v3((ik_real)0.5, 0, 0));
    r = solve_limb_once(rig, limb, limits, pose_ls, root_ms, goal_ms, &retry_error);
    if (r == IK_OK && retry_error > error) swap_limb(first, pose_ls, l);
    return r;
}

/* After the rig's solve (with these limbs' goals off): each limb with a
 * chain solver and an enabled goal solved toward it, then forward
 * kinematics and the report's residuals brought up to date. */
ik_result ikw_limbs_solve(const ik_humanoid *rig, ik_transform *pose_ls, ik_mat4 *model_ms, const ik_mat4 *root_ms,
                          const ik_humanoid_goal *goals, ik_humanoid_report *report) {
    int limb, solved = 0;
    ik_result r;
    for (limb = 0; limb < IK_LIMB_COUNT; ++limb) {
        if (ikw_limb_solver_now(rig, limb) == IKW_LIMB_TWO_BONE || !goals[limb].enabled) continue;
        r = solve_limb(rig, limb, pose_ls, root_ms, goals[limb].position_ms);
        if (r != IK_OK) return r;
        solved = 1;
    }
    if (!solved) return IK_OK;
    ik_skeleton_fk(rig->skeleton, pose_ls, root_ms, model_ms);
    for (limb = 0; limb < IK_LIMB_COUNT; ++limb) {
        if (ikw_limb_solver_now(rig, limb) == IKW_LIMB_TWO_BONE || !goals[limb].enabled) continue;
        report->residual[limb] =
            ik_vec3_distance(ik_mat4_translation(&model_ms[rig->limb[limb].end]), goals[limb].position_ms);
        report->reached[limb] =
            report->residual[limb] <= (ik_real)1e-3 * (rig->limb[limb].upper_length + rig->limb[limb].lower_length);
    }
    return IK_OK;
}

/* The pose the limits are drawn at (the figure's arrays, kept by pointer:
 * the numbers are worked out only when the page asks, not on every solve). */
void ikw_limbs_store(const ik_humanoid *rig, const ik_mat4 *model_ms, const ik_mat4 *root_ms) {
    limbs.rig = rig;
    limbs.model_ms = model_ms;
    limbs.root_ms = root_ms;
}

/* What the page draws of each limb's limits (IKW_LIMIT_FLOATS per limb, see
 * body_limbs.h), at the last solved pose. The bend arc: the lower bone at bend
 * t points along the upper bone's direction turned by t about the hinge
 * (sgn(det M) M hinge_axis_ls, M the middle joint's matrix: a positive bend
 * turns about it). The cone: about the direction the upper bone has when
 * its joint is at its rest rotation under its parent's current frame. */
const float *ikw_limbs_draw(const ik_humanoid *current) {
    const ik_humanoid *rig = limbs.rig;
    const ik_mat4 *model_ms = limbs.model_ms, *root_ms = limbs.root_ms;
    int limb;
    if (!rig || !current) return limbs.limits;
    for (limb = 0; limb < IK_LIMB_COUNT; ++limb) {
        const ik_humanoid_limb *l = &rig->limb[limb];
        const ik_skeleton *skeleton = rig->skeleton;
        float *f = &limbs.limits[IKW_LIMIT_FLOATS * limb];
        ik_bool arm = limb == IK_LIMB_ARM_L || limb == IK_LIMB_ARM_R;
        int parent = skeleton->parents[l->start];
        ik_mat4 above = parent >= 0 ? model_ms[parent] : root_ms ? *root_ms : ik_mat4_identity();
        ik_vec3 start = ik_mat4_translation(&model_ms[l->start]), mid = ik_mat4_translation(&model_ms[l->mid]);
        ik_vec3 hinge = ik_vec3_normalize(ik_mat4_transform_turn_axis(&model_ms[l->mid], l->hinge_axis_ls));
        ik_vec3 upper = ik_vec3_normalize(ik_vec3_sub(mid, start));
        ik_vec3 cone = ik_vec3_normalize(ik_mat4_transform_vector(
            &above, ik_quat_rotate(skeleton->rest_ls[l->start].rotation, skeleton->rest_ls[l->mid].translation)));
        ik_real values[IKW_LIMIT_FLOATS];
        int k;
        values[0] = mid.x, values[1] = mid.y, values[2] = mid.z;
        values[3] = hinge.x, values[4] = hinge.y, values[5] = hinge.z;
        values[6] = upper.x, values[7] = upper.y, values[8] = upper.z;
        values[9] = arm ? rig->limits.elbow_min : rig->limits.knee_min;
        values[10] = arm ? rig->limits.elbow_max : rig->limits.knee_max;
        values[11] = ik_vec3_distance(start, mid);
        values[12] = start.x, values[13] = start.y, values[14] = start.z;
        values[15] = cone.x, values[16] = cone.y, values[17] = cone.z;
        values[18] = arm ? IK_LIMB_ARM_CONE : IK_LIMB_LEG_CONE;
        values[19] = (ik_real)ikw_limb_solver_now(current, limb);
        for (k = 0; k < IKW_LIMIT_FLOATS; ++k) f[k] = (float)values[k];
    }
    return limbs.limits;
}

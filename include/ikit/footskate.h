/* ikit footskate clean-up: planted feet held still over their contacts.
 *
 * After Kovar, Schreiner and Gleicher, "Footskate Cleanup for Motion
 * Capture Editing" (SCA 2002): every contact (ik_foot_contacts) gets one
 * planted position; each frame the legs are solved to hold it, the hips
 * move only where a leg cannot reach, and every correction is eased in and
 * out over the neighbouring frames so nothing pops. Here:
 *   - a heel contact holds the ankle at the contact's planted position; a
 *     toe contact holds the toe joint, or a toe-less foot's ball
 *     (ik_foot_point_position: a virtual toe) (the foot turns about the ankle to
 *     put it there while the heel is down, the ankle follows it while the
 *     heel is up);
 *   - a contact a leg cannot reach from where the animation puts the hips
 *     moves toward the hips across the up axis (heel and toe together),
 *     as little as it takes; what remains moves the hips;
 *   - the legs are solved with ik_two_bone, the knee kept on its side by
 *     ik_limb_natural_pole, the foot keeping its animated turn;
 *   - ankle offsets, foot turns and hip shifts are set on the frames that
 *     need them and eased (smoothstep) to zero over blend_time on either
 *     side, or from one to the next across a shorter gap.
 *
 * ik_footskate_run on the caller's memory; or its two halves,
 * ik_footskate_plan (every frame's goals, from the whole take) then
 * ik_footskate_apply over any range of frames (a progress bar can run
 * between ranges). Retargeting uses the same
 * plan with contacts mapped onto another skeleton.
 */
#ifndef IKIT_FOOTSKATE_H
#define IKIT_FOOTSKATE_H

#include <stddef.h>

#include <ikit/foot_contacts.h>
#include <ikit/humanoid.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/take.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ik_footskate {
    const ik_humanoid *rig;          /* legs with ankle joints, or virtual ankles with a control joint
                                        (ik_humanoid_limb_foot), carried to where the solve puts the ankle */
    const ik_mat4 *root_ms;          /* above the roots; NULL: identity */
    ik_take *take;                   /* the take (plan reads it; apply rewrites frames in place) */
    const ik_foot_contact *contacts; /* on this take, in model space under root_ms */
    int contact_count;

    /* Corrections ease in and out over this many seconds. Default 0.25. */
    ik_real blend_time;
    /* A leg may stretch to this fraction of its straight length (or as far
     * as the animation stretches it) before the hips move. Default 0.995. */
    ik_real reach;
    /* 1: a held heel rises with the animation where the animation lifts it
     * above its planted height (a heel coming off the floor at the end of
     * a contact, the ball staying), held only across up there; pulled down
     * to its spot it would turn the ball into the floor. Default 0 (the
     * heel held at its spot: retargeting, whose feet are not yet on the
     * target's floor). */
    ik_bool follow_heel_lift;

    /* Caller's memory: scratch_bytes >= ik_footskate_scratch_size(take,
     * contact_count),
     * holding the plan between the two calls; model_ms [joint_count]. */
    void *scratch;
    size_t scratch_bytes;
    ik_mat4 *model_ms;

    unsigned long defaulted; /* set by ik_footskate_def(); do not touch */
} ik_footskate;

ik_footskate ik_footskate_def(void);
size_t ik_footskate_scratch_size(const ik_take *take, int contact_count);

/* Plan every frame's goals from the whole take. IK_ERR_NOT_DEFAULTED,
 * IK_ERR_NULL, IK_ERR_RANGE (a take whose joint count is not the rig's
 * skeleton's, fewer than 2 frames, a contact outside the take, a bad
 * point), IK_ERR_CAPACITY (scratch too small), IK_ERR_NONFINITE (NaN in the
 * take, a contact or the options), IK_ERR_UNSUPPORTED (a leg with a virtual
 * ankle and no control joint, or a toe contact on a virtual ankle), IK_ERR_DEGENERATE (blend_time
 * < 0, reach outside (0, 1]). Nothing in the take changes. */
ik_result ik_footskate_plan(const ik_footskate *job);

/* Where the plan holds contact `contact` (after ik_footskate_plan): its
 * planted position, moved when it was out of the leg's reach, and a toe
 * contact beside a held heel put one foot length from it (a heel beside a
 * toe whose own heel is another, one foot length from that toe), at its
 * planted height. IK_ERR_NULL, IK_ERR_RANGE for a contact outside the
 * job's. */
ik_result ik_footskate_held_ms(const ik_footskate *job, int contact, ik_vec3 *out);

/* Clean frames [first, end) in place, after ik_footskate_plan. Returns
 * IK_ERR_RANGE for a bad range, a solver's error otherwise (frames before
 * it are already cleaned). */
ik_result ik_footskate_apply(const ik_footskate *job, int first, int end);

/* Plan, then clean every frame: the job in one call, as every other job's
 * _run (plan and apply apart let a caller show progress between ranges). */
ik_result ik_footskate_run(const ik_footskate *job);

#ifdef __cplusplus
}
#endif
#endif

/* The floor a clip's motion stands on, found as ikc finds it for its motion
 * commands (tools/ikc/core/motion_take.c, and the retarget's origins): the clip
 * baked into a take at a frame time (ik_take_bake), the feet's paths
 * recorded (ik_foot_paths_record: each ankle, each toe joint, the hips), and
 * the foot contacts' floor levels (ik_foot_contacts: per kind of point a
 * low percentile of both feet's heights over the take along the body's up).
 * The heels' level is where a planted ankle stands; the floor is that level
 * lowered by the rig's ankle heights (each ankle above its own sole), as
 * the retarget maps a take's heels onto a rig's ankles over its floor.
 * A take recorded with its floor elsewhere than the rig's rest pose puts it
 * (CMU files rest with the hips at 0 and walk with them a leg's length up)
 * then stands on the ground instead of floating above it. */
#include <ikit/foot_contacts.h>
#include <ikit/take.h>

#include <stdlib.h>

#include "body_floor.h"

enum { MAX_FLOOR_FRAMES = 100000 };

int ikw_clip_floor(const ik_humanoid *rig, const ik_clip *clip, ik_real frame_time, ik_real *floor_rs) {
    const ik_skeleton *s = rig->skeleton;
    ik_foot_contacts job = ik_foot_contacts_def();
    ik_take take;
    ik_mat4 *model_ms;
    ik_vec3 *paths_ms;
    ik_foot_contact *contacts;
    ik_real *scratch, levels[IK_FOOT_CONTACT_POINTS];
    int joints[IK_FOOT_PATH_POINTS], count = 0, p, ok = 0;
    ik_foot_point_joints(rig, joints);
    if (joints[IK_FOOT_HEEL_L] < 0 || joints[IK_FOOT_HEEL_R] < 0) return 0; /* an ankle with no joint to follow */
    take.joint_count = s->joint_count;
    take.frame_time = frame_time;
    take.frame_count = ik_take_frame_count(clip->duration, frame_time, MAX_FLOOR_FRAMES);
    if (take.frame_count < 2) return 0;
    take.poses_ls = (ik_transform *)malloc((size_t)take.frame_count * (size_t)s->joint_count * sizeof *take.poses_ls);
    model_ms = (ik_mat4 *)malloc((size_t)s->joint_count * sizeof *model_ms);
    paths_ms = (ik_vec3 *)malloc((size_t)take.frame_count * IK_FOOT_PATH_POINTS * sizeof *paths_ms);
    contacts = (ik_foot_contact *)malloc(2 * (size_t)take.frame_count * sizeof *contacts);
    scratch = (ik_real *)malloc(2 * (size_t)take.frame_count * sizeof *scratch);
    if (take.poses_ls && model_ms && paths_ms && contacts && scratch &&
        ik_take_bake(&take, clip, s->rest_ls) == IK_OK && ik_take_validate(&take, NULL) == IK_OK &&
        ik_foot_paths_record(s, &take, NULL, joints, model_ms, paths_ms, NULL) == IK_OK) {
        job.paths_ms = paths_ms;
        job.frame_count = take.frame_count;
        job.frame_time = take.frame_time;
        for (p = 0; p < IK_FOOT_CONTACT_POINTS; ++p) job.present[p] = joints[p] >= 0;
        job.up_ms = rig->up_rs;
        job.leg_length = ik_foot_leg_length(rig);
        job.scratch = scratch;
        job.contacts = contacts;
        job.capacity = 2 * take.frame_count;
        job.count = &count;
        job.levels = levels;
        /* IK_ERR_UNSUPPORTED: the hips not above the feet in most frames (a take lying down): no floor */
        if (ik_foot_contacts_run(&job) == IK_OK) {
            *floor_rs = (levels[IK_FOOT_HEEL_L] + levels[IK_FOOT_HEEL_R]) / 2 -
                        (rig->limb[IK_LIMB_LEG_L].ankle_height + rig->limb[IK_LIMB_LEG_R].ankle_height) / 2;
            ok = ik_finite(*floor_rs);
        }
    }
    free(take.poses_ls);
    free(model_ms);
    free(paths_ms);
    free(contacts);
    free(scratch);
    return ok;
}

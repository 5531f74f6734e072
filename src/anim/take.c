/* Takes: clips baked to one pose per frame, and back. See take.h. */
#include <ikit/take.h>

#include <string.h>

int ik_take_frame_count(ik_real duration, ik_real frame_time, int max_frames) {
    double frames;
    if (!(frame_time > 0) || !ik_finite(frame_time) || !(duration >= 0) || !ik_finite(duration)) return 0;
    /* count = ceil(x - slack) + 1 with x = duration / frame_time: a duration
     * within slack = 1e-3 + 1e-6 x frames of a whole number (float rounding
     * of both numbers) gets no extra frame. */
    frames = (double)duration / (double)frame_time;
    frames = ceil(frames - (1e-3 + 1e-6 * frames));
    if (frames < 0) frames = 0;
    if (!(frames + 1 <= (double)max_frames)) return 0;
    return (int)frames + 1;
}

ik_result ik_take_validate(const ik_take *take, int *bad_frame) {
    int f, j;
    if (bad_frame) *bad_frame = -1;
    if (!take || !take->poses_ls) return IK_ERR_NULL;
    if (take->frame_count < 1 || take->joint_count < 1) return IK_ERR_RANGE;
    if (!(take->frame_time > 0) || !ik_finite(take->frame_time)) return IK_ERR_RANGE;
    for (f = 0; f < take->frame_count; ++f) {
        const ik_transform *pose = ik_take_pose(take, f);
        for (j = 0; j < take->joint_count; ++j) {
            ik_result r = IK_OK;
            if (!ik_transform_finite(pose[j]))
                r = IK_ERR_NONFINITE;
            else if (IK_FABS(ik_quat_length(pose[j].rotation) - 1) > (ik_real)1e-3)
                r = IK_ERR_DEGENERATE;
            if (r != IK_OK) {
                if (bad_frame) *bad_frame = f;
                return r;
            }
        }
    }
    return IK_OK;
}

ik_result ik_take_bake(ik_take *take, const ik_clip *clip, const ik_transform *rest_ls) {
    int f, j;
    ik_result r;
    if (!take || !take->poses_ls || !clip || !rest_ls) return IK_ERR_NULL;
    if (take->frame_count < 1 || take->joint_count < 1) return IK_ERR_RANGE;
    if (!(take->frame_time > 0) || !ik_finite(take->frame_time)) return IK_ERR_RANGE;
    if ((r = ik_clip_validate(clip, take->joint_count, NULL)) != IK_OK) return r;
    for (j = 0; j < take->joint_count; ++j)
        if (!ik_transform_finite(rest_ls[j])) return IK_ERR_NONFINITE;
    /* frame f = rest pose with the clip's channels at t_f = min(f dt, duration) */
    for (f = 0; f < take->frame_count; ++f) {
        ik_transform *pose = ik_take_pose(take, f);
        ik_real time = ik_minr((ik_real)f * take->frame_time, clip->duration);
        memcpy(pose, rest_ls, (size_t)take->joint_count * sizeof *pose);
        ik_clip_sample(clip, time, pose);
    }
    return IK_OK;
}

/* 1 when joint `joint`'s scale differs from (1, 1, 1) in some frame. */
static int joint_scales(const ik_take *take, int joint) {
    int f;
    for (f = 0; f < take->frame_count; ++f) {
        ik_vec3 s = ik_take_pose(take, f)[joint].scale;
        if (s.x != 1 || s.y != 1 || s.z != 1) return 1;
    }
    return 0;
}

ik_take_clip_size ik_take_clip_size_of(const ik_take *take) {
    ik_take_clip_size size;
    int j, scaled = 0;
    memset(&size, 0, sizeof size);
    if (!take || take->frame_count < 1 || take->joint_count < 1 || !take->poses_ls) return size;
    for (j = 0; j < take->joint_count; ++j) scaled += joint_scales(take, j);
    size.channel_count = 2 * take->joint_count + scaled;
    size.time_count = take->frame_count;
    size.value_count = (size_t)take->frame_count * (size_t)(7 * take->joint_count + 3 * scaled);
    return size;
}

ik_result ik_take_to_clip(const ik_take *take, const char *name, ik_channel *channels, ik_real *times, ik_real *values,
                          ik_clip *clip) {
    int f, j, c = 0, frames;
    ik_real *at = values;
    if (!take || !take->poses_ls || !channels || !times || !values || !clip) return IK_ERR_NULL;
    if (take->frame_count < 1 || take->joint_count < 1) return IK_ERR_RANGE;
    if (!(take->frame_time > 0) || !ik_finite(take->frame_time)) return IK_ERR_RANGE;
    frames = take->frame_count;
    for (f = 0; f < frames; ++f) times[f] = (ik_real)f * take->frame_time;
    /* per joint: translation (3 values a key), rotation (4), scale (3) where
     * it is not 1; every channel keys every frame, LINEAR */
    for (j = 0; j < take->joint_count; ++j) {
        int path, paths = joint_scales(take, j) ? 3 : 2;
        for (path = 0; path < paths; ++path) {
            ik_channel *ch = &channels[c++];
            ch->joint = j;
            ch->path = path == 0 ? IK_CHANNEL_TRANSLATION : path == 1 ? IK_CHANNEL_ROTATION : IK_CHANNEL_SCALE;
            ch->interpolation = IK_INTERP_LINEAR;
            ch->key_count = frames;
            ch->times = times;
            ch->values = at;
            for (f = 0; f < frames; ++f) {
                const ik_transform *t = &ik_take_pose(take, f)[j];
                if (path == 1) {
                    *at++ = t->rotation.x;
                    *at++ = t->rotation.y;
                    *at++ = t->rotation.z;
                    *at++ = t->rotation.w;
                } else {
                    ik_vec3 v = path == 0 ? t->translation : t->scale;
                    *at++ = v.x;
                    *at++ = v.y;
                    *at++ = v.z;
                }
            }
        }
    }
    clip->name = name;
    clip->duration = times[frames - 1];
    clip->channel_count = c;
    clip->channels = channels;
    return IK_OK;
}

/* Loading a take for the motion commands: every refusal names what is
 * wrong with the take (one frame, no frame time, NaN values, no humanoid,
 * upside down) and the command stops before writing anything. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include <ikit/body_frame.h>

#include "ikc.h"
#include "motion_take.h"

#define MAX_FRAMES 10000000

static void *alloc_array(size_t count, size_t size) { return count ? calloc(count, size) : NULL; }

/* Bake the clip into m->take at its own frame time (BVH) or at
 * IKC_MOTION_GLTF_FRAME_TIME (glTF). */
static int bake(const char *command, ikc_motion *m, double fps) {
    const ik_clip *clip = ik_asset_clip(&m->asset, m->clip);
    const ik_skeleton *s = m->asset.skeleton;
    ik_real frame_time = m->asset.bvh ? (ik_real)m->asset.bvh->frame_time
                         : fps > 0    ? (ik_real)(1.0 / fps)
                                      : (ik_real)IKC_MOTION_GLTF_FRAME_TIME;
    int bad = -1;
    ik_result r;
    if (!(frame_time > 0) || !ik_finite(frame_time)) {
        fprintf(stderr, "ikc %s: %s: the frame time is %g s: a take needs a positive frame time\n", command,
                m->asset.path, (double)frame_time);
        return IKC_EXIT_FORMAT;
    }
    m->take.joint_count = s->joint_count;
    m->take.frame_time = frame_time;
    m->take.frame_count =
        m->asset.bvh ? m->asset.bvh->frame_count : ik_take_frame_count(clip->duration, frame_time, MAX_FRAMES);
    if (m->take.frame_count < 2) {
        fprintf(stderr, "ikc %s: %s: clip '%s' has %s: contacts and clean-up need motion, at least 2 frames\n", command,
                m->asset.path, ikc_shown(m->clip_name), m->take.frame_count == 1 ? "one frame" : "no frames");
        return IKC_EXIT_FORMAT;
    }
    m->take.poses_ls =
        (ik_transform *)alloc_array((size_t)m->take.frame_count * (size_t)s->joint_count, sizeof(ik_transform));
    if (!m->take.poses_ls) {
        fprintf(stderr, "ikc %s: out of memory for %d frames\n", command, m->take.frame_count);
        return IKC_EXIT_FAILURE;
    }
    r = ik_take_bake(&m->take, clip, s->rest_ls);
    if (r == IK_OK) r = ik_take_validate(&m->take, &bad);
    if (r != IK_OK) {
        fprintf(stderr, "ikc %s: %s: clip '%s' cannot be used as a take: %s", command, m->asset.path,
                ikc_shown(m->clip_name), ik_result_str(r));
        if (bad >= 0) fprintf(stderr, " (first in frame %d)", bad);
        fprintf(stderr, "\n");
        return IKC_EXIT_FORMAT;
    }
    return IKC_EXIT_OK;
}

/* Whether the take is a cycle made in place (ik_in_place), with the
 * contacts job just run; its stances and slides into m. */
static ik_result find_in_place(ikc_motion *m, const ik_foot_contacts *feet) {
    ik_in_place job = ik_in_place_def();
    ik_vec3 *shifted = (ik_vec3 *)alloc_array((size_t)m->take.frame_count * IK_FOOT_PATH_POINTS, sizeof(ik_vec3));
    ik_result r = IK_ERR_NO_MEMORY;
    m->stances = (ik_foot_contact *)alloc_array(2 * (size_t)m->take.frame_count, sizeof(ik_foot_contact));
    m->slides = (ik_real *)alloc_array(2 * (size_t)m->take.frame_count, sizeof(ik_real));
    if (shifted && m->stances && m->slides) {
        job.feet = feet;
        job.shifted_ms = shifted;
        job.scratch = feet->scratch;
        job.stances = m->stances;
        job.capacity = 2 * m->take.frame_count;
        job.count = &m->stance_count;
        job.slides = m->slides;
        job.out = &m->cycle;
        r = ik_in_place_run(&job);
    }
    free(shifted);
    return r;
}

/* Each contact point's name for a person: its joint, or for a toe-less
 * foot's ball (a virtual toe) "ball of" its foot joint. */
static void label_points(ikc_motion *m) {
    int p;
    for (p = 0; p < IK_FOOT_CONTACT_POINTS; ++p) {
        int foot = m->joints[p & ~1];
        if (m->joints[p] >= 0)
            snprintf(m->point_label[p], sizeof m->point_label[p], "%s",
                     ikc_shown(ik_skeleton_name(m->asset.skeleton, m->joints[p])));
        else
            snprintf(m->point_label[p], sizeof m->point_label[p], "ball of %s",
                     m->present[p] && foot >= 0 ? ikc_shown(ik_skeleton_name(m->asset.skeleton, foot)) : "?");
    }
}

static int find_contacts(const char *command, ikc_motion *m) {
    size_t frames = (size_t)m->take.frame_count;
    ik_foot_contacts job = ik_foot_contacts_def();
    ik_real *scratch = (ik_real *)alloc_array(2 * frames, sizeof(ik_real));
    int capacity = 2 * m->take.frame_count, bad = -1;
    ik_body_frame body;
    ik_result r;
    m->model_ms = (ik_mat4 *)alloc_array((size_t)m->asset.skeleton->joint_count, sizeof(ik_mat4));
    m->paths_ms = (ik_vec3 *)alloc_array(frames * IK_FOOT_PATH_POINTS, sizeof(ik_vec3));
    m->contacts = (ik_foot_contact *)alloc_array((size_t)capacity, sizeof(ik_foot_contact));
    m->heights = (ik_real *)alloc_array(frames * IK_FOOT_CONTACT_POINTS, sizeof(ik_real));
    m->speeds = (ik_real *)alloc_array(frames * IK_FOOT_CONTACT_POINTS, sizeof(ik_real));
    if (!scratch || !m->model_ms || !m->paths_ms || !m->contacts || !m->heights || !m->speeds) {
        free(scratch);
        fprintf(stderr, "ikc %s: out of memory for %d frames\n", command, m->take.frame_count);
        return IKC_EXIT_FAILURE;
    }
    ik_foot_point_joints(&m->human.rig, m->joints);
    if (m->joints[IK_FOOT_HEEL_L] < 0 || m->joints[IK_FOOT_HEEL_R] < 0) {
        free(scratch);
        fprintf(stderr,
                "ikc %s: %s: a leg ends without a foot joint (the humanoid map found no ankle under a "
                "shin): contacts need ankle joints (--map FILE names them if they exist under other names)\n",
                command, m->asset.path);
        return IKC_EXIT_FORMAT;
    }
    r = ik_foot_paths_record_rig(&m->human.rig, &m->take, &m->asset.root_ms, m->model_ms, m->paths_ms, m->present,
                                 &bad);
    label_points(m);
    memcpy(job.present, m->present, sizeof m->present);
    if (r == IK_OK) r = ik_body_frame_compute(&m->human.rig, &m->asset.root_ms, &body, NULL);
    if (r == IK_OK) {
        m->up_ms = body.up_ms;
        m->leg_length = body.leg_length;
        job.paths_ms = m->paths_ms;
        job.frame_count = m->take.frame_count;
        job.frame_time = m->take.frame_time;
        job.up_ms = m->up_ms;
        job.leg_length = m->leg_length;
        job.scratch = scratch;
        job.contacts = m->contacts;
        job.capacity = capacity;
        job.count = &m->contact_count;
        job.heights = m->heights;
        job.speeds = m->speeds;
        job.levels = m->levels;
        r = ik_foot_contacts_run(&job);
    }
    if (r == IK_OK) r = find_in_place(m, &job);
    free(scratch);
    if (r == IK_ERR_UNSUPPORTED) {
        fprintf(stderr,
                "ikc %s: %s: the figure is upside down or lying (its hips are not above its feet in most "
                "frames): foot contacts need a standing figure\n",
                command, m->asset.path);
        return IKC_EXIT_FORMAT;
    }
    if (r != IK_OK) {
        fprintf(stderr, "ikc %s: %s: cannot find the foot contacts: %s", command, m->asset.path, ik_result_str(r));
        if (bad >= 0) fprintf(stderr, " (frame %d)", bad);
        fprintf(stderr, "\n");
        return r == IK_ERR_NONFINITE ? IKC_EXIT_FORMAT : IKC_EXIT_FAILURE;
    }
    return IKC_EXIT_OK;
}

int ikc_motion_load(const char *command, const char *path, const char *clip_name, const char *map_path, ikc_motion *m) {
    return ikc_motion_load_at(command, path, clip_name, map_path, 0.0, m);
}

double ikc_motion_fps_option(const char *command, const char *value) {
    char *end = NULL;
    double fps = strtod(value, &end);
    if (end == value || *end != '\0' || !(fps >= 1.0 && fps <= 10000.0)) {
        fprintf(stderr, "ikc %s: --fps '%s': frames per second from 1 to 10000\n", command, ikc_shown(value));
        return -1.0;
    }
    return fps;
}

int ikc_motion_load_at(const char *command, const char *path, const char *clip_name, const char *map_path, double fps,
                       ikc_motion *m) {
    int code;
    memset(m, 0, sizeof *m);
    code = ikc_asset_load(command, path, &m->asset);
    if (code != IKC_EXIT_OK) return code;
    m->loaded = 1;
    if (ik_asset_clip_count(&m->asset) == 0) {
        fprintf(stderr, "ikc %s: %s has no motion (no clip or frames)\n", command, path);
        return IKC_EXIT_FORMAT;
    }
    m->clip = clip_name ? ikc_asset_find_clip(command, &m->asset, clip_name) : 0;
    if (m->clip < 0) return IKC_EXIT_NOT_FOUND;
    {
        char buf[32];
        snprintf(m->clip_name, sizeof m->clip_name, "%s", ikc_asset_clip_name(&m->asset, m->clip, buf, sizeof buf));
    }
    code = ikc_humanoid_find(command, m->asset.skeleton, map_path, &m->human);
    if (code != IKC_EXIT_OK) return code;
    if (!ikc_humanoid_usable(command, &m->human, m->asset.skeleton, stderr)) return IKC_EXIT_FORMAT;
    code = bake(command, m, fps);
    if (code != IKC_EXIT_OK) return code;
    return find_contacts(command, m);
}

void ikc_motion_free(ikc_motion *m) {
    free(m->take.poses_ls);
    free(m->model_ms);
    free(m->paths_ms);
    free(m->contacts);
    free(m->heights);
    free(m->speeds);
    free(m->stances);
    free(m->slides);
    ikc_humanoid_free(&m->human);
    if (m->loaded) ik_asset_free(&m->asset);
    memset(m, 0, sizeof *m);
}

int ikc_motion_point_contacts(const ikc_motion *m, int point) {
    int i, n = 0;
    for (i = 0; i < m->contact_count; ++i) n += m->contacts[i].point == point;
    return n;
}

int ikc_motion_point_stances(const ikc_motion *m, int point) {
    int i, n = 0;
    for (i = 0; i < m->stance_count; ++i) n += m->stances[i].point == point;
    return n;
}

void ikc_motion_print_in_place(const ikc_motion *m, FILE *out) {
    double metre = (double)ik_foot_metre(m->leg_length), speed = (double)m->cycle.speed;
    ik_vec3 d = ik_vec3_scale(m->cycle.slide_ms, speed > 0 ? (ik_real)(1 / speed) : 0);
    int i;
    fprintf(out,
            "in-place cycle: the hips stay put (they travel %.3g units/s) while each stance foot slides backward "
            "along the floor at %.4g units/s (%.3g m/s by the leg-length metre of %.4g units), along (%.2f, %.2f, "
            "%.2f); %d stances\n",
            (double)m->cycle.hips_speed, speed, speed / metre, metre, (double)d.x, (double)d.y, (double)d.z,
            m->stance_count);
    for (i = 0; i < m->stance_count; ++i) {
        const ik_foot_contact *s = &m->stances[i];
        fprintf(out, "  %-10s frames %4d-%-4d (%.3f-%.3f s): slid %.4g units (%.0f mm)\n", ik_foot_point_name(s->point),
                s->start, s->end, (double)(s->start * m->take.frame_time), (double)(s->end * m->take.frame_time),
                (double)m->slides[i], 1000 * (double)m->slides[i] / metre);
    }
}

/* The in-place verdict: whether, the slide velocity (units/s) and speed
 * (units/s and m/s by ik_foot_metre), the hips' travel, the stance count. */
struct cJSON *ikc_motion_in_place_json(const ikc_motion *m) {
    cJSON *o = cJSON_CreateObject(), *v = cJSON_CreateArray();
    cJSON_AddBoolToObject(o, "cycle", m->cycle.in_place);
    cJSON_AddItemToArray(v, cJSON_CreateNumber((double)m->cycle.slide_ms.x));
    cJSON_AddItemToArray(v, cJSON_CreateNumber((double)m->cycle.slide_ms.y));
    cJSON_AddItemToArray(v, cJSON_CreateNumber((double)m->cycle.slide_ms.z));
    cJSON_AddItemToObject(o, "slide_velocity", v);
    cJSON_AddNumberToObject(o, "slide_speed", (double)m->cycle.speed);
    cJSON_AddNumberToObject(o, "slide_speed_m_s", (double)(m->cycle.speed / ik_foot_metre(m->leg_length)));
    cJSON_AddNumberToObject(o, "hips_speed", (double)m->cycle.hips_speed);
    cJSON_AddNumberToObject(o, "stances", m->stance_count);
    return o;
}

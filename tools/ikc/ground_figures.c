/* The result's own contacts and knee flips, as an outside reader measures
 * them (ground_figures.h). */
#include "ground_figures.h"

#include <stdlib.h>

#include <ikit/foot_contacts.h>
#include <ikit/ground_slide.h>

static int compare_real(const void *a, const void *b) {
    ik_real x = *(const ik_real *)a, y = *(const ik_real *)b;
    return x < y ? -1 : x > y;
}

ik_real ikc_quantile(ik_real *values, int n, double q) {
    if (n <= 0) return 0;
    qsort(values, (size_t)n, sizeof *values, compare_real);
    return values[(int)(q * (n - 1) + 0.5)];
}

ik_result ikc_ground_figures_measure(const ik_asset *asset, const ik_humanoid *rig, const ik_take *take,
                                     ikc_ground_figures *out) {
    ik_ground_slide job = ik_ground_slide_def();
    int samples = ik_ground_slide_samples(take, job.sample_rate), capacity = samples + 1, i;
    ik_ground_contact *contacts = (ik_ground_contact *)malloc((size_t)capacity * sizeof *contacts);
    ik_real *slides = (ik_real *)malloc((size_t)capacity * sizeof(ik_real)), mm;
    ik_result r;
    job.rig = rig;
    job.take = take;
    job.root_ms = asset->format == IK_ASSET_GLTF ? &asset->root_ms : NULL;
    job.metre = asset->format == IK_ASSET_GLTF ? 1 : ik_foot_metre(ik_foot_leg_length(rig));
    job.model_ms = (ik_mat4 *)malloc((size_t)take->joint_count * sizeof(ik_mat4));
    job.points = (ik_vec3 *)malloc(2 * (size_t)samples * sizeof(ik_vec3));
    job.heights = (ik_real *)malloc(4 * (size_t)samples * sizeof(ik_real));
    job.contacts = contacts;
    job.capacity = capacity;
    job.count = &out->contacts;
    out->contacts = 0;
    r = contacts && slides && job.model_ms && job.points && job.heights ? ik_ground_slide_run(&job) : IK_ERR_CAPACITY;
    mm = 1000 / job.metre;
    out->over = 0;
    out->worst_slide = 0;
    out->worst_leg = -1;
    out->worst_start = out->worst_end = 0;
    for (i = 0; r == IK_OK && i < out->contacts; ++i) {
        slides[i] = contacts[i].slide * mm;
        out->over += slides[i] > 5;
        if (slides[i] > out->worst_slide || out->worst_leg < 0)
            out->worst_slide = slides[i], out->worst_leg = contacts[i].leg, out->worst_start = contacts[i].start,
            out->worst_end = contacts[i].end;
    }
    out->median_slide = r == IK_OK ? ikc_quantile(slides, out->contacts, 0.5) : 0;
    free(contacts);
    free(slides);
    free(job.model_ms);
    free(job.points);
    free(job.heights);
    return r;
}

/* The bend about the hinge h in the middle joint's frame M: the angle
 * between the bones u, v, negative when (u x v) . (sgn(det M) M h) < 0. */
ik_real ikc_knee_bend(const ik_humanoid_limb *l, const ik_mat4 *ms) {
    ik_mat4 end_ms = ik_humanoid_limb_end_ms(l, ms);
    ik_vec3 u = ik_vec3_normalize(ik_vec3_sub(ik_mat4_translation(&ms[l->mid]), ik_mat4_translation(&ms[l->start])));
    ik_vec3 v = ik_vec3_normalize(ik_vec3_sub(ik_mat4_translation(&end_ms), ik_mat4_translation(&ms[l->mid])));
    ik_real angle = ik_acos_safe(ik_vec3_dot(u, v));
    return ik_vec3_dot(ik_vec3_cross(u, v), ik_mat4_transform_turn_axis(&ms[l->mid], l->hinge_axis_ls)) < 0 ? -angle
                                                                                                           : angle;
}

int ikc_knee_flip_frames(const ik_humanoid *rig, const ik_take *take, ik_mat4 *model_ms) {
    int f, k, flips = 0;
    for (f = 0; f < take->frame_count; ++f) {
        int flipped = 0;
        ik_skeleton_fk(rig->skeleton, ik_take_pose(take, f), NULL, model_ms);
        for (k = IK_LIMB_LEG_L; k <= IK_LIMB_LEG_R; ++k)
            if (rig->limb[k].start >= 0 && rig->limb[k].mid >= 0)
                flipped |= ikc_knee_bend(&rig->limb[k], model_ms) < -ik_rad(2);
        flips += flipped;
    }
    return flips;
}

ik_real ikc_deepest_sole(const ik_humanoid *rig, const ik_take *take, ik_mat4 *model_ms) {
    ik_real deepest = 0;
    int f, k;
    for (f = 0; f < take->frame_count; ++f) {
        ik_skeleton_fk(rig->skeleton, ik_take_pose(take, f), NULL, model_ms);
        for (k = IK_LIMB_LEG_L; k <= IK_LIMB_LEG_R; ++k) {
            const ik_humanoid_limb *l = &rig->limb[k];
            int foot = ik_humanoid_limb_foot(l);
            ik_vec3 soles[3];
            int n = 0, i;
            if (foot < 0) continue;
            soles[n++] = ik_mat4_transform_point(&model_ms[foot], l->heel_ls);
            soles[n++] = ik_mat4_transform_point(&model_ms[foot], l->ball_ls);
            if (l->toe >= 0) soles[n++] = ik_mat4_transform_point(&model_ms[l->toe], l->toe_tip_ls);
            for (i = 0; i < n; ++i) deepest = ik_maxr(deepest, rig->floor_rs - ik_vec3_dot(soles[i], rig->up_rs));
        }
    }
    return deepest;
}

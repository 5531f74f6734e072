/* ik_in_place: cycles made in place recognised on the real clips (girl.glb's
 * RunTrack, robot.glb's Robot_Walking and Robot_Running), each as found,
 * scaled x100 under a 0.01 root, Z-up and mirrored; the slide speed found
 * on a procedural walk (ik_walk) and on CMU 131_01 with their travel taken
 * out, where it is known; the root motion put back and the stances held by
 * ik_footskate, checked by forward kinematics (each stance's point within 5
 * mm, the hips advancing v t, thighs and shins keeping their lengths,
 * finite); takes that are not in place (every other clip of both files,
 * the three CMU takes as captured, 131_01 spinning) and bad jobs refused. */
#include <ikit/asset.h>
#include <ikit/footskate.h>
#include <ikit/in_place.h>
#include <ikit/walk.h>

#include "support/check.h"
#include "support/motion_fixture.h"

#define MAX_STANCES 512

/* A take on a rig with every buffer the detection needs. */
typedef struct scene {
    const ik_skeleton *skeleton;
    const ik_humanoid *rig;
    ik_take *take;
    ik_mat4 root_ms;
    ik_real leg, metre;
    int joints[IK_FOOT_PATH_POINTS];
    ik_mat4 *model_ms;
    ik_vec3 *paths_ms, *shifted_ms;
    ik_real *scratch, levels[IK_FOOT_CONTACT_POINTS];
    ik_foot_contacts feet;
    ik_foot_contact contacts[MAX_STANCES], stances[MAX_STANCES];
    ik_real slides[MAX_STANCES];
    int contact_count, stance_count;
    ik_in_place_cycle cycle;
} scene;

static void scene_free(scene *s) {
    free(s->model_ms);
    free(s->paths_ms);
    free(s->shifted_ms);
    free(s->scratch);
}

/* Record the paths, find the contacts (ik_foot_contacts) and run the
 * detection with its defaults. */
static ik_result detect(scene *s) {
    ik_in_place job = ik_in_place_def();
    size_t frames = (size_t)s->take->frame_count;
    ik_result r;
    int p;
    scene_free(s);
    s->model_ms = (ik_mat4 *)malloc((size_t)s->skeleton->joint_count * sizeof(ik_mat4));
    s->paths_ms = (ik_vec3 *)malloc(frames * IK_FOOT_PATH_POINTS * sizeof(ik_vec3));
    s->shifted_ms = (ik_vec3 *)malloc(frames * IK_FOOT_PATH_POINTS * sizeof(ik_vec3));
    s->scratch = (ik_real *)malloc(2 * frames * sizeof(ik_real));
    ik_foot_point_joints(s->rig, s->joints);
    s->leg = ik_foot_leg_length(s->rig) * ik_vec3_length(ik_mat4_column(&s->root_ms, 1));
    s->metre = ik_foot_metre(s->leg);
    r = ik_foot_paths_record(s->skeleton, s->take, &s->root_ms, s->joints, s->model_ms, s->paths_ms, NULL);
    if (r != IK_OK) return r;
    s->feet = ik_foot_contacts_def();
    s->feet.paths_ms = s->paths_ms;
    s->feet.frame_count = s->take->frame_count;
    s->feet.frame_time = s->take->frame_time;
    for (p = 0; p < IK_FOOT_CONTACT_POINTS; ++p) s->feet.present[p] = s->joints[p] >= 0;
    s->feet.up_ms = ik_vec3_normalize(ik_mat4_transform_vector(&s->root_ms, s->rig->up_rs));
    s->feet.leg_length = s->leg;
    s->feet.scratch = s->scratch;
    s->feet.contacts = s->contacts;
    s->feet.capacity = MAX_STANCES;
    s->feet.count = &s->contact_count;
    s->feet.levels = s->levels;
    r = ik_foot_contacts_run(&s->feet);
    if (r != IK_OK) return r;
    job.feet = &s->feet;
    job.shifted_ms = s->shifted_ms;
    job.scratch = s->scratch;
    job.stances = s->stances;
    job.capacity = MAX_STANCES;
    job.count = &s->stance_count;
    job.slides = s->slides;
    job.out = &s->cycle;
    return ik_in_place_run(&job);
}

static ik_vec3 joint_ms(const ik_mat4 *model_ms, int joint) { return ik_mat4_translation(&model_ms[joint]); }

static ik_vec3 horizontal(ik_vec3 v, ik_vec3 up) { return ik_vec3_sub(v, ik_vec3_scale(up, ik_vec3_dot(v, up))); }

/* Put the root motion back on the detected cycle, hold its stances with
 * ik_footskate, and check the result by forward kinematics: each stance's
 * point stays within 5 mm of where it stood (its mean over the stance),
 * the hips advance -v t (within 0.15 leg lengths: the clean-up moves them
 * where a leg cannot reach) or, given `hips_ms` (the hips' path of a take
 * whose travel was taken out, per frame), follow that path within 0.15 leg
 * lengths plus the slide's error over the take, thighs and shins keep their
 * lengths (0.1 mm), every joint finite. `what` names the case. */
static void check_root_motion(scene *s, const ik_vec3 *hips_ms, ik_vec3 true_slide_ms, const char *what) {
    ik_footskate clean = ik_footskate_def();
    ik_vec3 up = s->feet.up_ms, hips0 = ik_vec3_zero(), *sum;
    ik_real worst_hold = 0, worst_hips = 0, worst_length = 0,
            root_scale = ik_vec3_length(ik_mat4_column(&s->root_ms, 1));
    ik_real hips_allowed = (ik_real)0.15 * s->leg;
    int f, i, leg, finite = 1, hips = s->joints[IK_FOOT_HIPS];
    ik_result r = ik_in_place_root_motion(s->skeleton, hips, &s->root_ms, s->cycle.slide_ms, s->take);
    CHECK(r == IK_OK, "%s: root motion: %s", what, ik_result_str(r));
    clean.rig = s->rig;
    clean.root_ms = &s->root_ms;
    clean.take = s->take;
    clean.contacts = s->stances;
    clean.contact_count = s->stance_count;
    clean.model_ms = s->model_ms;
    clean.scratch_bytes = ik_footskate_scratch_size(s->take, s->stance_count);
    clean.scratch = malloc(clean.scratch_bytes);
    r = ik_footskate_plan(&clean);
    if (r == IK_OK) r = ik_footskate_apply(&clean, 0, s->take->frame_count);
    CHECK(r == IK_OK, "%s: clean-up: %s", what, ik_result_str(r));
    free(clean.scratch);
    sum = (ik_vec3 *)calloc(MAX_STANCES, sizeof(ik_vec3));
    /* two passes over the frames: each stance's mean position, then the
     * largest distance from it */
    for (i = 0; i < 2; ++i)
        for (f = 0; f < s->take->frame_count; ++f) {
            int k;
            ik_skeleton_fk(s->skeleton, ik_take_pose(s->take, f), &s->root_ms, s->model_ms);
            for (k = 0; k < s->stance_count; ++k) {
                const ik_foot_contact *c = &s->stances[k];
                ik_vec3 at = joint_ms(s->model_ms, s->joints[c->point]);
                if (f < c->start || f > c->end) continue;
                if (i == 0)
                    sum[k] = ik_vec3_add(sum[k], ik_vec3_scale(at, (ik_real)1 / (ik_real)(c->end - c->start + 1)));
                else
                    worst_hold = ik_maxr(worst_hold, ik_vec3_distance(at, sum[k]));
            }
            if (i == 1) continue;
            for (k = 0; k < s->skeleton->joint_count; ++k) finite &= ik_vec3_finite(joint_ms(s->model_ms, k));
            if (f == 0) hips0 = joint_ms(s->model_ms, hips);
            if (hips_ms)
                worst_hips = ik_maxr(
                    worst_hips,
                    ik_vec3_length(horizontal(ik_vec3_sub(ik_vec3_sub(joint_ms(s->model_ms, hips), hips0),
                                                          ik_vec3_sub(hips_ms[f * IK_FOOT_PATH_POINTS], hips_ms[0])),
                                              up)));
            else
                worst_hips = ik_maxr(
                    worst_hips, ik_vec3_distance(horizontal(ik_vec3_sub(joint_ms(s->model_ms, hips), hips0), up),
                                                 ik_vec3_scale(s->cycle.slide_ms, -(ik_real)f * s->take->frame_time)));
            for (leg = IK_LIMB_LEG_L; leg <= IK_LIMB_LEG_R; ++leg) {
                const ik_humanoid_limb *l = &s->rig->limb[leg];
                worst_length =
                    ik_maxr(worst_length,
                            IK_FABS(ik_vec3_distance(joint_ms(s->model_ms, l->start), joint_ms(s->model_ms, l->mid)) -
                                    l->upper_length * root_scale));
                if (l->end >= 0)
                    worst_length =
                        ik_maxr(worst_length,
                                IK_FABS(ik_vec3_distance(joint_ms(s->model_ms, l->mid), joint_ms(s->model_ms, l->end)) -
                                        l->lower_length * root_scale));
            }
        }
    free(sum);
    if (hips_ms)
        hips_allowed += ik_vec3_distance(s->cycle.slide_ms, true_slide_ms) * (ik_real)(s->take->frame_count - 1) *
                        s->take->frame_time;
    printf("  %s: root motion %.3f m/s, stances hold within %.3f mm, hips off v t by %.1f mm, legs' lengths %.4f mm\n",
           what, (double)(s->cycle.speed / s->metre), (double)(worst_hold / s->metre * 1000),
           (double)(worst_hips / s->metre * 1000), (double)(worst_length / s->metre * 1000));
    CHECK(finite, "%s: finite", what);
    CHECK(worst_hold <= (ik_real)0.005 * s->metre, "%s: a stance foot moved %g mm", what,
          (double)(worst_hold / s->metre * 1000));
    CHECK(worst_hips <= hips_allowed, "%s: the hips strayed %g leg lengths (%g allowed)", what,
          (double)(worst_hips / s->leg), (double)(hips_allowed / s->leg));
    CHECK(worst_length <= (ik_real)1e-4 * s->metre, "%s: a leg bone changed length by %g mm", what,
          (double)(worst_length / s->metre * 1000));
}

/* ---- the real clips --------------------------------------------------------------------- */

typedef struct glb_take {
    ik_asset asset;
    ik_skeleton skeleton; /* the asset's, or its copy scaled x100 */
    ik_transform *rest_ls;
    ik_humanoid rig;
    ik_take take;
} glb_take;

enum { VARIANT_AS_FOUND, VARIANT_X100, VARIANT_Z_UP, VARIANT_MIRRORED, VARIANTS };
static const char *const variant_names[VARIANTS] = {"as found", "x100 under a 0.01 root", "Z-up", "mirrored"};

/* $IKIT_DATA/gltf/FILE's clip CLIP baked at 60 fps as `variant`: x100 scales
 * every translation (rest and take) by 100 and puts a 0.01 scale under the
 * file's root; Z-up turns the root +90 degrees about X; mirrored puts a
 * -1 x scale above it. 0 when the corpus is absent. */
static int glb_take_open(glb_take *g, const char *file, const char *clip_name, int variant, ik_mat4 *root_ms) {
    const char *data = getenv("IKIT_DATA");
    char path[1024];
    ik_humanoid_map map;
    const ik_clip *clip = NULL;
    int c, j, f;
    memset(g, 0, sizeof *g);
    if (!data) return 0;
    snprintf(path, sizeof path, "%s/gltf/%s", data, file);
    if (ik_asset_load(path, &g->asset, NULL) != IK_OK) return 0;
    for (c = 0; c < ik_asset_clip_count(&g->asset); ++c)
        if (strcmp(ik_asset_clip(&g->asset, c)->name, clip_name) == 0) clip = ik_asset_clip(&g->asset, c);
    CHECK(clip != NULL, "%s has clip %s", file, clip_name);
    g->skeleton = *g->asset.skeleton;
    g->rest_ls = (ik_transform *)malloc((size_t)g->skeleton.joint_count * sizeof(ik_transform));
    memcpy(g->rest_ls, g->skeleton.rest_ls, (size_t)g->skeleton.joint_count * sizeof(ik_transform));
    g->take.joint_count = g->skeleton.joint_count;
    g->take.frame_time = (ik_real)1 / 60;
    g->take.frame_count = clip ? ik_take_frame_count(clip->duration, g->take.frame_time, 100000) : 0;
    g->take.poses_ls =
        (ik_transform *)malloc((size_t)g->take.frame_count * (size_t)g->take.joint_count * sizeof(ik_transform) + 1);
    if (!clip || ik_take_bake(&g->take, clip, g->rest_ls) != IK_OK) return 0;
    *root_ms = g->asset.root_ms;
    if (variant == VARIANT_X100) {
        ik_mat4 s =
            ik_mat4_from_trs(ik_vec3_zero(), ik_quat_identity(), ik_v3((ik_real)0.01, (ik_real)0.01, (ik_real)0.01));
        for (j = 0; j < g->skeleton.joint_count; ++j)
            g->rest_ls[j].translation = ik_vec3_scale(g->rest_ls[j].translation, 100);
        for (f = 0; f < g->take.frame_count * g->take.joint_count; ++f)
            g->take.poses_ls[f].translation = ik_vec3_scale(g->take.poses_ls[f].translation, 100);
        *root_ms = ik_mat4_mul(root_ms, &s);
    } else if (variant == VARIANT_Z_UP) {
        ik_mat4 turn =
            ik_mat4_from_trs(ik_vec3_zero(), ik_quat_from_axis_angle(ik_v3(1, 0, 0), ik_rad(90)), ik_v3(1, 1, 1));
        *root_ms = ik_mat4_mul(&turn, root_ms);
    } else if (variant == VARIANT_MIRRORED) {
        ik_mat4 mirror = ik_mat4_from_trs(ik_vec3_zero(), ik_quat_identity(), ik_v3(-1, 1, 1));
        *root_ms = ik_mat4_mul(&mirror, root_ms);
    }
    g->skeleton.rest_ls = g->rest_ls;
    return ik_humanoid_map_find(&g->skeleton, NULL, 0, &map) == IK_OK &&
           ik_humanoid_init(&g->rig, &g->skeleton, &map) == IK_OK;
}

static void glb_take_free(glb_take *g) {
    free(g->take.poses_ls);
    free(g->rest_ls);
    if (g->asset.format) ik_asset_free(&g->asset);
}

/* Each real in-place clip in each variant: found in place, a stance on each
 * leg, the slide in the floor plane and backward (against the way the
 * root motion then moves the hips: checked by check_root_motion), the same
 * speed in metres and the same stance frames in every variant; then the
 * root motion put back and the stances held. */
static void test_real_clips(void) {
    static const char *const clips[3][2] = {
        {"girl.glb", "RunTrack"}, {"robot.glb", "Robot_Walking"}, {"robot.glb", "Robot_Running"}};
    int c, v;
    for (c = 0; c < 3; ++c) {
        ik_real speed0 = 0;
        int starts0[MAX_STANCES], count0 = 0;
        for (v = 0; v < VARIANTS; ++v) {
            glb_take g;
            scene s;
            char what[200];
            ik_result r;
            int i;
            memset(&s, 0, sizeof s);
            snprintf(what, sizeof what, "%s %s %s", clips[c][0], clips[c][1], variant_names[v]);
            if (!glb_take_open(&g, clips[c][0], clips[c][1], v, &s.root_ms)) {
                glb_take_free(&g);
                check_skip("real-asset corpus not found (IKIT_DATA/gltf)");
                return;
            }
            s.skeleton = &g.skeleton, s.rig = &g.rig, s.take = &g.take;
            r = detect(&s);
            CHECK(r == IK_OK, "%s: %s", what, ik_result_str(r));
            CHECK(s.contact_count == 0, "%s: no contacts (the feet slide): %d", what, s.contact_count);
            CHECK(s.cycle.in_place, "%s: in place (speed %g, hips %g, steady %g)", what, (double)s.cycle.speed,
                  (double)s.cycle.hips_speed, (double)s.cycle.steady);
            CHECK(s.cycle.stance_legs == 3, "%s: stances on both legs (%d)", what, s.cycle.stance_legs);
            CHECK(IK_FABS(ik_vec3_dot(s.cycle.slide_ms, s.feet.up_ms)) <= (ik_real)1e-4 * s.cycle.speed,
                  "%s: the slide is in the floor plane", what);
            for (i = 0; i < s.stance_count; ++i)
                CHECK(s.slides[i] >= (ik_real)0.5 * s.cycle.speed * (ik_real)(s.stances[i].end - s.stances[i].start) *
                                         s.take->frame_time,
                      "%s: stance %d slid %g", what, i, (double)s.slides[i]);
            if (v == 0) {
                speed0 = s.cycle.speed / s.metre;
                count0 = s.stance_count;
                for (i = 0; i < s.stance_count; ++i) starts0[i] = s.stances[i].start;
                printf("%s %s: slide %.3f units/s = %.3f m/s, %d stances\n", clips[c][0], clips[c][1],
                       (double)s.cycle.speed, (double)speed0, s.stance_count);
            } else {
                int same = s.stance_count == count0;
                for (i = 0; same && i < count0; ++i) same = s.stances[i].start == starts0[i];
                CHECK(IK_FABS(s.cycle.speed / s.metre - speed0) <= (ik_real)0.005 * speed0, "%s: %g m/s, as found %g",
                      what, (double)(s.cycle.speed / s.metre), (double)speed0);
                CHECK(same, "%s: the same stances as found (%d, as found %d)", what, s.stance_count, count0);
            }
            if (s.cycle.in_place) check_root_motion(&s, NULL, ik_vec3_zero(), what);
            scene_free(&s);
            glb_take_free(&g);
        }
    }
}

/* No false cycles: every other clip of girl.glb and robot.glb (idling,
 * dancing, jumping, waving, sitting, a walk with a jump, ...) and the CMU
 * takes as captured (walks whose hips travel) are not in place. */
static void test_not_in_place(void) {
    static const char *const files[2] = {"girl.glb", "robot.glb"};
    static const char *const takes[3] = {"131_01.bvh", "131_02.bvh", "01_01.bvh"};
    int fi, c, t, clips_seen = 0;
    for (fi = 0; fi < 2; ++fi) {
        const char *data = getenv("IKIT_DATA");
        char path[1024];
        ik_asset asset;
        if (!data) break;
        snprintf(path, sizeof path, "%s/gltf/%s", data, files[fi]);
        if (ik_asset_load(path, &asset, NULL) != IK_OK) continue;
        for (c = 0; c < ik_asset_clip_count(&asset); ++c) {
            const char *name = ik_asset_clip(&asset, c)->name;
            glb_take g;
            scene s;
            if (strcmp(name, "RunTrack") == 0 || strcmp(name, "Robot_Walking") == 0 ||
                strcmp(name, "Robot_Running") == 0)
                continue;
            memset(&s, 0, sizeof s);
            if (glb_take_open(&g, files[fi], name, VARIANT_AS_FOUND, &s.root_ms) && g.take.frame_count >= 2) {
                s.skeleton = &g.skeleton, s.rig = &g.rig, s.take = &g.take;
                CHECK(detect(&s) == IK_OK && !s.cycle.in_place && s.stance_count == 0,
                      "%s %s: not in place (slide %g, hips %g, steady %g, cover %g)", files[fi], name,
                      (double)s.cycle.speed, (double)s.cycle.hips_speed, (double)s.cycle.steady, (double)s.cycle.cover);
                ++clips_seen;
            }
            scene_free(&s);
            glb_take_free(&g);
        }
        ik_asset_free(&asset);
    }
    if (clips_seen == 0) check_skip("real-asset corpus not found (IKIT_DATA/gltf)");
    for (t = 0; t < 3; ++t) {
        motion_fixture m;
        scene s;
        if (!motion_fixture_read(&m, takes[t])) {
            check_skip("real-asset corpus not found");
            return;
        }
        memset(&s, 0, sizeof s);
        s.skeleton = &m.bvh->skeleton, s.rig = &m.rig, s.take = &m.take, s.root_ms = ik_mat4_identity();
        CHECK(detect(&s) == IK_OK && !s.cycle.in_place && s.stance_count == 0 && s.contact_count > 0,
              "%s as captured: not in place (hips %g units/s, slide %g)", takes[t], (double)s.cycle.hips_speed,
              (double)s.cycle.speed);
        scene_free(&s);
        motion_fixture_free(&m);
    }
}

/* ---- known slides ------------------------------------------------------------------------- */

/* ik_walk on 131_01's skeleton (a 4 s walk at its default speed, flat
 * ground), then its root motion taken out with ik_in_place_root_motion:
 * the stance feet slide at exactly -speed along the walk's forward.
 * Detection finds that within 2 % (1.2 %: the stances' first and last
 * frames, as a toe lands and lifts, count); the root motion put back is the
 * walk's own (within 0.1 mm on every path point); the clean-up holds it. */
static void test_walk_made_in_place(void) {
    motion_fixture m;
    ik_walk walk;
    ik_mat4 frame;
    ik_vec3 forward, v_true, *walked;
    scene s;
    ik_real err, back = 0;
    int f, p;
    ik_result r;
    if (!motion_fixture_read(&m, "131_01.bvh")) {
        check_skip("real-asset corpus not found");
        return;
    }
    free(m.take.poses_ls);
    m.take.frame_time = (ik_real)1 / 60;
    m.take.frame_count = 240;
    m.take.poses_ls =
        (ik_transform *)malloc((size_t)m.take.frame_count * (size_t)m.take.joint_count * sizeof(ik_transform));
    walk = ik_walk_def(&m.rig, NULL);
    walk.take = &m.take;
    walk.model_ms = m.model_ms;
    r = ik_walk_run(&walk);
    CHECK(r == IK_OK && ik_walk_frame(&m.rig, NULL, &frame) == IK_OK, "the walk: %s", ik_result_str(r));
    forward = ik_vec3_normalize(ik_mat4_transform_vector(&frame, ik_v3(0, 0, 1)));
    v_true = ik_vec3_scale(forward, -walk.speed);
    /* the walk's paths, to compare with the root motion put back */
    memset(&s, 0, sizeof s);
    s.skeleton = &m.bvh->skeleton, s.rig = &m.rig, s.take = &m.take, s.root_ms = ik_mat4_identity();
    CHECK(detect(&s) == IK_OK && !s.cycle.in_place && s.contact_count > 0,
          "the walk itself is not in place (%d contacts)", s.contact_count);
    walked = (ik_vec3 *)malloc((size_t)m.take.frame_count * IK_FOOT_PATH_POINTS * sizeof(ik_vec3));
    memcpy(walked, s.paths_ms, (size_t)m.take.frame_count * IK_FOOT_PATH_POINTS * sizeof(ik_vec3));
    /* the root moved by -slide t with slide = -v_true (the walk's velocity) takes its travel out */
    CHECK(ik_in_place_root_motion(&m.bvh->skeleton, s.joints[IK_FOOT_HIPS], NULL, ik_vec3_scale(v_true, -1), &m.take) ==
              IK_OK,
          "travel taken out");
    r = detect(&s);
    err = ik_vec3_distance(s.cycle.slide_ms, v_true) / walk.speed;
    printf("procedural walk in place: true slide %.4f units/s, found %.4f (%.2f %%), %d stances, hips %.3f units/s\n",
           (double)walk.speed, (double)s.cycle.speed, (double)(100 * err), s.stance_count, (double)s.cycle.hips_speed);
    CHECK(r == IK_OK && s.cycle.in_place, "the walk made in place is found in place: %s", ik_result_str(r));
    CHECK(err <= (ik_real)0.02, "slide velocity within 2 %% of the truth: %.2f %%", (double)(100 * err));
    CHECK(s.cycle.stance_legs == 3 && s.stance_count >= 4, "stances on both feet: %d", s.stance_count);
    /* the root motion put back with the true slide restores the walk */
    {
        ik_transform *copy =
            (ik_transform *)malloc((size_t)m.take.frame_count * (size_t)m.take.joint_count * sizeof(ik_transform));
        ik_take restored = m.take;
        memcpy(copy, m.take.poses_ls, (size_t)m.take.frame_count * (size_t)m.take.joint_count * sizeof(ik_transform));
        restored.poses_ls = copy;
        CHECK(ik_in_place_root_motion(&m.bvh->skeleton, s.joints[IK_FOOT_HIPS], NULL, v_true, &restored) == IK_OK,
              "root motion");
        ik_foot_paths_record(&m.bvh->skeleton, &restored, NULL, s.joints, m.model_ms, s.shifted_ms, NULL);
        for (f = 0; f < m.take.frame_count; ++f)
            for (p = 0; p < IK_FOOT_PATH_POINTS; ++p)
                back = ik_maxr(back, ik_vec3_distance(s.shifted_ms[f * IK_FOOT_PATH_POINTS + p],
                                                      walked[f * IK_FOOT_PATH_POINTS + p]));
        CHECK(back <= (ik_real)1e-4 * s.metre, "the walk restored: %g mm", (double)(back / s.metre * 1000));
        free(copy);
    }
    if (s.cycle.in_place) check_root_motion(&s, NULL, ik_vec3_zero(), "procedural walk made in place");
    free(walked);
    scene_free(&s);
    motion_fixture_free(&m);
}

/* CMU 131_01 with its hips' mean travel (first frame to last) taken out:
 * the captured feet stand still with shuffles, so the slide found is the
 * travel taken out within 5 %. The take as captured is not in place. */
static void test_capture_made_in_place(void) {
    motion_fixture m;
    scene s;
    ik_vec3 travel;
    ik_real err, seconds;
    ik_mat4 identity = ik_mat4_identity();
    if (!motion_fixture_read(&m, "131_01.bvh")) {
        check_skip("real-asset corpus not found");
        return;
    }
    motion_fixture_contacts(&m, &identity);
    memset(&s, 0, sizeof s);
    s.skeleton = &m.bvh->skeleton, s.rig = &m.rig, s.take = &m.take, s.root_ms = identity;
    CHECK(detect(&s) == IK_OK && !s.cycle.in_place && s.stance_count == 0 && s.contact_count > 0,
          "131_01 as captured is not in place (hips %g units/s, slide %g)", (double)s.cycle.hips_speed,
          (double)s.cycle.speed);
    seconds = (ik_real)(m.take.frame_count - 1) * m.take.frame_time;
    travel = horizontal(ik_vec3_sub(m.paths_ms[(m.take.frame_count - 1) * IK_FOOT_PATH_POINTS + IK_FOOT_HIPS],
                                    m.paths_ms[IK_FOOT_HIPS]),
                        s.feet.up_ms);
    travel = ik_vec3_scale(travel, 1 / seconds);
    CHECK(ik_in_place_root_motion(&m.bvh->skeleton, s.joints[IK_FOOT_HIPS], NULL, travel, &m.take) == IK_OK,
          "travel taken out");
    CHECK(detect(&s) == IK_OK && s.cycle.in_place, "131_01 made in place is found in place (steady %g, hips %g)",
          (double)s.cycle.steady, (double)s.cycle.hips_speed);
    err = ik_vec3_distance(s.cycle.slide_ms, ik_vec3_scale(travel, -1)) / ik_vec3_length(travel);
    printf("131_01 in place: travel taken out %.3f m/s, slide found %.3f m/s (%.1f %% off), %d stances\n",
           (double)(ik_vec3_length(travel) / s.metre), (double)(s.cycle.speed / s.metre), (double)(100 * err),
           s.stance_count);
    CHECK(err <= (ik_real)0.05, "slide within 5 %% of the travel taken out: %.1f %%", (double)(100 * err));
    if (s.cycle.in_place)
        check_root_motion(&s, m.paths_ms + IK_FOOT_HIPS, ik_vec3_scale(travel, -1), "131_01 made in place");
    scene_free(&s);
    motion_fixture_free(&m);
}

/* 131_01 spinning about up at two turns a second (its feet sweep circles,
 * never steady): not in place, no stances; the same over its first 400
 * frames, where one toe swept straight twice, for 0.1 s each (tests/
 * test_ikc_motion's spin.bvh, refused by `ikc clean`). */
static void test_spinning(void) {
    motion_fixture m;
    scene s;
    int f, root;
    if (!motion_fixture_read(&m, "131_01.bvh")) {
        check_skip("real-asset corpus not found");
        return;
    }
    root = 0;
    for (f = 0; f < m.take.frame_count; ++f) {
        ik_transform *t = &ik_take_pose(&m.take, f)[root];
        t->rotation = ik_quat_mul(ik_quat_from_axis_angle(m.rig.up_rs, ik_rad(720) * (ik_real)f * m.take.frame_time),
                                  t->rotation);
    }
    memset(&s, 0, sizeof s);
    s.skeleton = &m.bvh->skeleton, s.rig = &m.rig, s.take = &m.take, s.root_ms = ik_mat4_identity();
    CHECK(detect(&s) == IK_OK && !s.cycle.in_place && s.stance_count == 0, "spinning: not in place (steady %g)",
          (double)s.cycle.steady);
    m.take.frame_count = 400;
    CHECK(detect(&s) == IK_OK && !s.cycle.in_place && s.stance_count == 0,
          "400 frames spinning: not in place (cover %g, legs %d)", (double)s.cycle.cover, s.cycle.stance_legs);
    scene_free(&s);
    motion_fixture_free(&m);
}

/* ---- bad jobs ------------------------------------------------------------------------------ */

static void test_bad_jobs(void) {
    ik_vec3 paths[3 * IK_FOOT_PATH_POINTS], shifted[3 * IK_FOOT_PATH_POINTS];
    ik_real scratch[6], levels[IK_FOOT_CONTACT_POINTS] = {0, 0, 0, 0};
    ik_foot_contact stances[4];
    ik_in_place_cycle cycle;
    ik_foot_contacts feet = ik_foot_contacts_def();
    ik_in_place job = ik_in_place_def(), bad;
    ik_skeleton sk;
    int parents[1] = {-1}, count = 7, f, p;
    ik_transform rest[1], poses[3];
    ik_take take;
    for (f = 0; f < 3; ++f) {
        for (p = 0; p < IK_FOOT_PATH_POINTS; ++p) paths[f * IK_FOOT_PATH_POINTS + p] = ik_v3((ik_real)f, 0, (ik_real)p);
        paths[f * IK_FOOT_PATH_POINTS + IK_FOOT_HIPS].y = 1;
    }
    feet.paths_ms = paths, feet.frame_count = 3, feet.frame_time = (ik_real)0.1, feet.leg_length = 1;
    feet.levels = levels;
    job.feet = &feet, job.shifted_ms = shifted, job.scratch = scratch, job.stances = stances, job.capacity = 4;
    job.count = &count, job.out = &cycle;
    CHECK(ik_in_place_run(&job) == IK_OK, "a small good job");
    CHECK(ik_in_place_run(NULL) == IK_ERR_NULL, "NULL job");
    bad = job, bad.defaulted = 0;
    CHECK(ik_in_place_run(&bad) == IK_ERR_NOT_DEFAULTED, "a zeroed job");
    bad = job, bad.out = NULL;
    CHECK(ik_in_place_run(&bad) == IK_ERR_NULL && count == 0, "no out");
    bad = job, bad.speed_enter = 2;
    CHECK(ik_in_place_run(&bad) == IK_ERR_RANGE, "enter above exit");
    bad = job, bad.min_steady = (ik_real)1.5;
    CHECK(ik_in_place_run(&bad) == IK_ERR_RANGE, "a fraction over 1");
    bad = job, bad.min_cover = -1;
    CHECK(ik_in_place_run(&bad) == IK_ERR_RANGE, "a negative cover");
    bad = job, bad.min_speed = (ik_real)NAN;
    CHECK(ik_in_place_run(&bad) == IK_ERR_NONFINITE, "a NaN threshold");
    levels[2] = (ik_real)INFINITY;
    CHECK(ik_in_place_run(&job) == IK_ERR_NONFINITE, "an infinite floor level");
    levels[2] = 0;
    paths[4].x = (ik_real)NAN;
    CHECK(ik_in_place_run(&job) == IK_ERR_NONFINITE, "a NaN in the paths");
    paths[4].x = 0;
    feet.leg_length = 0;
    CHECK(ik_in_place_run(&job) == IK_ERR_DEGENERATE, "no leg length");
    feet.leg_length = 1;
    /* the root motion */
    rest[0] = ik_transform_identity();
    CHECK(ik_skeleton_init(&sk, 1, parents, NULL, rest, NULL) == IK_OK, "a one-joint skeleton");
    for (f = 0; f < 3; ++f) poses[f] = rest[0];
    take.joint_count = 1, take.frame_count = 3, take.frame_time = (ik_real)0.5, take.poses_ls = poses;
    {
        ik_mat4 singular = ik_mat4_from_trs(ik_vec3_zero(), ik_quat_identity(), ik_v3(0, 1, 1));
        ik_mat4 half =
            ik_mat4_from_trs(ik_v3(5, 5, 5), ik_quat_identity(), ik_v3((ik_real)0.5, (ik_real)0.5, (ik_real)0.5));
        CHECK(ik_in_place_root_motion(&sk, 0, &singular, ik_v3(1, 0, 0), &take) == IK_ERR_DEGENERATE &&
                  poses[2].translation.x == 0,
              "a singular root: refused, take untouched");
        CHECK(ik_in_place_root_motion(&sk, 1, NULL, ik_v3(1, 0, 0), &take) == IK_ERR_RANGE, "hips out of range");
        CHECK(ik_in_place_root_motion(&sk, 0, NULL, ik_v3((ik_real)NAN, 0, 0), &take) == IK_ERR_NONFINITE, "NaN slide");
        CHECK(ik_in_place_root_motion(&sk, 0, &half, ik_v3(1, 0, 0), &take) == IK_OK &&
                  IK_FABS(poses[2].translation.x + 2) < (ik_real)1e-6 &&
                  IK_FABS(poses[1].translation.x + 1) < (ik_real)1e-6,
              "under a 0.5 root the joint moves -v t / 0.5: %g", (double)poses[2].translation.x);
    }
}

int main(void) {
    test_real_clips();
    test_not_in_place();
    test_walk_made_in_place();
    test_capture_made_in_place();
    test_spinning();
    test_bad_jobs();
    return check_summary("test_in_place");
}

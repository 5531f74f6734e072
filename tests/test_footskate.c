/* Footskate clean-up on the real CMU takes and their variants (rescaled,
 * Z-up, mirrored), checked by forward kinematics of the output
 * (ik_skating_measure): skating cut by 90 %, every planted point within
 * 5 mm over its contact, joints outside the legs within 1 cm, no knee
 * snapping straight, bone lengths kept, output finite; and refusals. */
#include <ikit/footskate.h>
#include <ikit/skating.h>

#include "support/check.h"
#include "support/motion_fixture.h"

static const char *const takes[3] = {"131_01.bvh", "131_02.bvh", "01_01.bvh"};

/* Bone lengths of every frame equal the reference's. */
static ik_real worst_bone_change(const motion_fixture *m, const ik_take *reference, ik_mat4 *ref_ms) {
    ik_real worst = 0;
    int f, j;
    for (f = 0; f < m->take.frame_count; f += 3) {
        ik_skeleton_fk(&m->bvh->skeleton, ik_take_pose(&m->take, f), &m->root_ms, m->model_ms);
        ik_skeleton_fk(&m->bvh->skeleton, ik_take_pose(reference, f), &m->root_ms, ref_ms);
        for (j = 0; j < m->take.joint_count; ++j) {
            int p = m->bvh->skeleton.parents[j];
            if (p < 0) continue;
            worst = ik_maxr(
                worst,
                IK_FABS(ik_vec3_distance(ik_mat4_translation(&m->model_ms[j]), ik_mat4_translation(&m->model_ms[p])) -
                        ik_vec3_distance(ik_mat4_translation(&ref_ms[j]), ik_mat4_translation(&ref_ms[p]))));
        }
    }
    return worst;
}

static void clean_and_check(const char *name, int variant) {
    motion_fixture m;
    ik_mat4 root, *ref_ms;
    ik_take reference;
    ik_vec3 *previous;
    ik_footskate job = ik_footskate_def();
    ik_skating_measure measure = ik_skating_measure_def();
    ik_skating before, after;
    ik_real metre;
    size_t bytes;
    if (!motion_fixture_read(&m, name)) {
        check_skip("real-asset corpus not found");
        return;
    }
    root = motion_variant_root(variant);
    motion_fixture_contacts(&m, &root);
    CHECK(m.contacts_result == IK_OK && m.contact_count > 8, "%s %s: contacts %d", name, motion_variant_names[variant],
          m.contact_count);
    metre = ik_foot_metre(m.leg_length);
    reference = m.take;
    bytes = (size_t)m.take.frame_count * (size_t)m.take.joint_count * sizeof(ik_transform);
    reference.poses_ls = (ik_transform *)malloc(bytes);
    ref_ms = (ik_mat4 *)malloc((size_t)m.take.joint_count * sizeof(ik_mat4));
    previous = (ik_vec3 *)malloc(2 * (size_t)m.take.joint_count * sizeof(ik_vec3));
    memcpy(reference.poses_ls, m.take.poses_ls, bytes);
    measure.rig = &m.rig, measure.root_ms = &m.root_ms, measure.take = &m.take, measure.contacts = m.contacts;
    measure.contact_count = m.contact_count, measure.up_ms = m.up_ms, measure.slide_speed = (ik_real)0.02 * metre;
    measure.model_ms = m.model_ms, measure.reference_ms = ref_ms, measure.out = &before;
    CHECK(ik_skating_measure_run(&measure) == IK_OK, "measure before");
    job.rig = &m.rig, job.root_ms = &m.root_ms, job.take = &m.take, job.contacts = m.contacts;
    job.contact_count = m.contact_count, job.model_ms = m.model_ms;
    job.scratch_bytes = ik_footskate_scratch_size(&m.take, m.contact_count);
    job.scratch = malloc(job.scratch_bytes);
    CHECK(ik_footskate_plan(&job) == IK_OK, "plan");
    CHECK(ik_footskate_apply(&job, 0, m.take.frame_count / 2) == IK_OK &&
              ik_footskate_apply(&job, m.take.frame_count / 2, m.take.frame_count) == IK_OK,
          "apply in two ranges");
    CHECK(ik_take_validate(&m.take, NULL) == IK_OK, "%s: the cleaned take is finite with unit rotations", name);
    measure.reference = &reference, measure.previous_ms = previous, measure.out = &after;
    CHECK(ik_skating_measure_run(&measure) == IK_OK, "measure after");
    printf(
        "%-10s %-9s travel %7.1f -> %5.1f mm (%.1f %% cut), worst contact %5.1f mm, outside legs %4.1f mm, "
        "knee straightened %4.1f deg, snaps %d, speed added %.2f m/s\n",
        name, motion_variant_names[variant], (double)(before.travel / metre * 1000),
        (double)(after.travel / metre * 1000), 100.0 * (double)(1 - after.travel / before.travel),
        (double)(after.worst_travel / metre * 1000), (double)(after.upper_change / metre * 1000),
        (double)ik_deg(after.knee_straightening), after.knee_snaps, (double)(after.added_speed / metre));
    CHECK(after.travel <= (ik_real)0.1 * before.travel, "%s %s: skating cut by 90 %%", name,
          motion_variant_names[variant]);
    CHECK(after.worst_travel <= (ik_real)0.005 * metre, "%s %s: worst contact drifts %g mm", name,
          motion_variant_names[variant], (double)(after.worst_travel / metre * 1000));
    CHECK(after.upper_change <= (ik_real)0.01 * metre, "%s %s: joints outside the legs move %g mm", name,
          motion_variant_names[variant], (double)(after.upper_change / metre * 1000));
    CHECK(after.knee_snaps == 0, "%s %s: %d frames of a knee snapping straight", name, motion_variant_names[variant],
          after.knee_snaps);
    CHECK(worst_bone_change(&m, &reference, ref_ms) <= (ik_real)1e-3 * m.leg_length, "%s: bone lengths kept", name);
    free(job.scratch);
    free(reference.poses_ls);
    free(ref_ms);
    free(previous);
    motion_fixture_free(&m);
}

/* Refusals: a zeroed job, a one-frame take, NaN in the take, a contact
 * outside it, too little scratch; the take is untouched by a refused plan. */
static void test_refusals(void) {
    motion_fixture m;
    ik_footskate job = ik_footskate_def(), zeroed;
    ik_transform keep;
    ik_foot_contact bad;
    if (!motion_fixture_read(&m, "131_01.bvh")) {
        check_skip("real-asset corpus not found");
        return;
    }
    motion_fixture_contacts(&m, &m.root_ms);
    memset(&zeroed, 0, sizeof zeroed);
    CHECK(ik_footskate_plan(&zeroed) == IK_ERR_NOT_DEFAULTED, "a zeroed job");
    job.rig = &m.rig, job.take = &m.take, job.contacts = m.contacts, job.contact_count = m.contact_count;
    job.model_ms = m.model_ms, job.scratch_bytes = ik_footskate_scratch_size(&m.take, m.contact_count);
    job.scratch = malloc(job.scratch_bytes);
    job.scratch_bytes -= 1;
    CHECK(ik_footskate_plan(&job) == IK_ERR_CAPACITY, "scratch too small");
    job.scratch_bytes += 1;
    m.take.frame_count = 1;
    CHECK(ik_footskate_plan(&job) == IK_ERR_RANGE, "one frame");
    m.take.frame_count = m.bvh->frame_count;
    keep = m.take.poses_ls[5];
    m.take.poses_ls[5].rotation.x = (ik_real)NAN;
    CHECK(ik_footskate_plan(&job) == IK_ERR_NONFINITE, "NaN in the take");
    m.take.poses_ls[5] = keep;
    bad = m.contacts[0];
    bad.end = m.take.frame_count;
    job.contacts = &bad, job.contact_count = 1;
    CHECK(ik_footskate_plan(&job) == IK_ERR_RANGE, "a contact past the end");
    bad = m.contacts[0], bad.planted_ms.y = (ik_real)INFINITY;
    CHECK(ik_footskate_plan(&job) == IK_ERR_NONFINITE, "a contact at infinity");
    job.contacts = m.contacts, job.contact_count = m.contact_count, job.reach = (ik_real)1.5;
    CHECK(ik_footskate_plan(&job) == IK_ERR_DEGENERATE, "reach over 1");
    CHECK(memcmp(&m.take.poses_ls[5], &keep, sizeof keep) == 0, "refused plans leave the take as it was");
    job.reach = (ik_real)0.995;
    CHECK(ik_footskate_plan(&job) == IK_OK && ik_footskate_apply(&job, 3, 2) == IK_ERR_RANGE, "a backwards range");
    {
        ik_skating_measure measure = ik_skating_measure_def();
        ik_skating out;
        ik_foot_contact swapped[2];
        int second = 1;
        while (second < m.contact_count && m.contacts[second].point != m.contacts[0].point) ++second;
        swapped[0] = m.contacts[0], swapped[1] = m.contacts[second];
        measure.rig = &m.rig, measure.take = &m.take, measure.contacts = swapped, measure.contact_count = 2;
        measure.model_ms = m.model_ms, measure.out = &out;
        CHECK(ik_skating_measure_run(&measure) == IK_ERR_DEGENERATE, "measure: no slide speed");
        measure.slide_speed = 1;
        swapped[0] = m.contacts[second], swapped[1] = m.contacts[0];
        CHECK(second < m.contact_count && ik_skating_measure_run(&measure) == IK_ERR_RANGE,
              "measure: a point's contacts out of order");
        swapped[0] = m.contacts[0], swapped[1] = m.contacts[second];
        CHECK(ik_skating_measure_run(&measure) == IK_OK, "measure: in order");
    }
    free(job.scratch);
    motion_fixture_free(&m);
}

/* follow_heel_lift on CMU 131_01 in each variant's root: where the take
 * lifts a held heel more than 5 mm over its planted height (the heel
 * coming off the floor), the cleaned ankle rises with it (within 1 mm of
 * the take's height, not pulled down onto its spot) and stays over its
 * spot across up (within 5 mm); where it does not, it is held as before. */
static void test_follow_heel_lift(void) {
    int v;
    for (v = 0; v < MOTION_VARIANTS; ++v) {
        motion_fixture m;
        ik_footskate job = ik_footskate_def();
        ik_vec3 *before;
        ik_real metre, worst_rise = 0, worst_across = 0;
        ik_mat4 root = motion_variant_root(v);
        int i, f, lifted = 0;
        size_t bytes;
        if (!motion_fixture_read(&m, takes[0])) {
            check_skip("real-asset corpus not found");
            return;
        }
        motion_fixture_contacts(&m, &root);
        metre = ik_foot_metre(m.leg_length);
        bytes = (size_t)m.take.frame_count * IK_FOOT_PATH_POINTS * sizeof(ik_vec3);
        before = (ik_vec3 *)malloc(bytes);
        memcpy(before, m.paths_ms, bytes);
        job.rig = &m.rig, job.root_ms = &m.root_ms, job.take = &m.take, job.contacts = m.contacts;
        job.contact_count = m.contact_count, job.model_ms = m.model_ms, job.follow_heel_lift = 1;
        job.scratch_bytes = ik_footskate_scratch_size(&m.take, m.contact_count);
        job.scratch = malloc(job.scratch_bytes);
        CHECK(ik_footskate_plan(&job) == IK_OK && ik_footskate_apply(&job, 0, m.take.frame_count) == IK_OK,
              "%s: clean with follow_heel_lift", motion_variant_names[v]);
        for (i = 0; i < m.contact_count; ++i) {
            const ik_foot_contact *c = &m.contacts[i];
            ik_vec3 spot;
            if (ik_foot_point_is_toe(c->point)) continue;
            CHECK(ik_footskate_held_ms(&job, i, &spot) == IK_OK, "held spot");
            for (f = c->start; f <= c->end; ++f) {
                ik_vec3 was = before[(size_t)f * IK_FOOT_PATH_POINTS + (size_t)c->point], now;
                ik_real lift = ik_vec3_dot(ik_vec3_sub(was, spot), m.up_ms);
                ik_skeleton_fk(&m.bvh->skeleton, ik_take_pose(&m.take, f), &m.root_ms, m.model_ms);
                now = ik_mat4_translation(&m.model_ms[m.joints[c->point]]);
                worst_across = ik_maxr(worst_across, ik_vec3_length(ik_vec3_reject(ik_vec3_sub(now, spot), m.up_ms)));
                if (lift <= (ik_real)0.005 * metre) continue;
                ++lifted;
                worst_rise = ik_maxr(worst_rise, IK_FABS(ik_vec3_dot(ik_vec3_sub(now, was), m.up_ms)));
            }
        }
        printf(
            "%-9s follow_heel_lift: %d frames of lifted heels, within %.2f mm of the take's height; held within "
            "%.2f mm across up\n",
            motion_variant_names[v], lifted, (double)(worst_rise / metre * 1000),
            (double)(worst_across / metre * 1000));
        CHECK(lifted > 0, "%s: the take lifts no held heel", motion_variant_names[v]);
        CHECK(worst_rise <= (ik_real)0.001 * metre, "%s: a lifted heel %.2f mm off the take's height",
              motion_variant_names[v], (double)(worst_rise / metre * 1000));
        CHECK(worst_across <= (ik_real)0.005 * metre, "%s: a held heel %.2f mm off its spot across up",
              motion_variant_names[v], (double)(worst_across / metre * 1000));
        free(job.scratch);
        free(before);
        motion_fixture_free(&m);
    }
}

/* ik_footskate_run is ik_footskate_plan then ik_footskate_apply over
 * every frame: the same poses, bit for bit; a NULL job refused. */
static void test_run_is_plan_and_apply(void) {
    motion_fixture m;
    ik_footskate job = ik_footskate_def();
    ik_take other;
    size_t bytes;
    if (!motion_fixture_read(&m, takes[1])) {
        check_skip("real-asset corpus not found");
        return;
    }
    motion_fixture_contacts(&m, &m.root_ms);
    other = m.take;
    bytes = (size_t)m.take.frame_count * (size_t)m.take.joint_count * sizeof(ik_transform);
    other.poses_ls = (ik_transform *)malloc(bytes);
    memcpy(other.poses_ls, m.take.poses_ls, bytes);
    job.rig = &m.rig, job.root_ms = &m.root_ms, job.take = &m.take, job.contacts = m.contacts;
    job.contact_count = m.contact_count, job.model_ms = m.model_ms;
    job.scratch_bytes = ik_footskate_scratch_size(&m.take, m.contact_count);
    job.scratch = malloc(job.scratch_bytes);
    CHECK(ik_footskate_run(&job) == IK_OK, "run");
    job.take = &other;
    CHECK(ik_footskate_plan(&job) == IK_OK && ik_footskate_apply(&job, 0, other.frame_count) == IK_OK, "plan, apply");
    CHECK(memcmp(m.take.poses_ls, other.poses_ls, bytes) == 0, "run gives plan and apply's poses");
    CHECK(ik_footskate_run(NULL) == IK_ERR_NULL, "a NULL job");
    free(job.scratch);
    free(other.poses_ls);
    motion_fixture_free(&m);
}

int main(void) {
    int t, v;
    for (t = 0; t < 3; ++t)
        for (v = 0; v < MOTION_VARIANTS; ++v) clean_and_check(takes[t], v);
    test_follow_heel_lift();
    test_run_is_plan_and_apply();
    test_refusals();
    return check_summary("test_footskate");
}

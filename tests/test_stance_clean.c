/* ik_stance_clean on the CMU takes under several roots (as read, inches,
 * Z-up, mirrored): the result's own contacts, found as an outside reader
 * finds them, slide at most 5 mm and no more than the input's; no knee
 * flips added; no contact held under its point's floor level; bones keep
 * their lengths; every pose finite; the report agrees with what the take
 * shows. And the refusals. */
#include <stdlib.h>
#include <string.h>

#include <ikit/leg_figures.h>
#include <ikit/stance_clean.h>

#include "support/check.h"
#include "support/ground_check.h"
#include "support/motion_fixture.h"

static const char *const takes[3] = {"131_01.bvh", "131_02.bvh", "01_01.bvh"};

/* The largest change of any bone's length between two takes, model units. */
static ik_real bone_change(const motion_fixture *m, const ik_take *a, const ik_transform *b_poses) {
    ik_take b = *a;
    ik_mat4 *ma = (ik_mat4 *)malloc((size_t)a->joint_count * sizeof *ma);
    ik_mat4 *mb = (ik_mat4 *)malloc((size_t)a->joint_count * sizeof *mb);
    ik_real worst = 0;
    int f, j;
    b.poses_ls = (ik_transform *)b_poses;
    for (f = 0; f < a->frame_count; f += 7) {
        ik_skeleton_fk(&m->bvh->skeleton, ik_take_pose(a, f), NULL, ma);
        ik_skeleton_fk(&m->bvh->skeleton, ik_take_pose(&b, f), NULL, mb);
        for (j = 0; j < a->joint_count; ++j) {
            int p = m->bvh->skeleton.parents[j];
            if (p < 0) continue;
            worst = ik_maxr(worst, IK_FABS(ik_vec3_distance(ik_mat4_translation(&ma[j]), ik_mat4_translation(&ma[p])) -
                                           ik_vec3_distance(ik_mat4_translation(&mb[j]), ik_mat4_translation(&mb[p]))));
        }
    }
    free(ma);
    free(mb);
    return worst;
}

static void clean_and_check(const char *name, int variant) {
    motion_fixture m;
    ik_stance_clean job = ik_stance_clean_def();
    ik_stance_clean_report report;
    ik_mat4 root = motion_variant_root(variant);
    ik_foot_contact *list;
    ik_transform *input;
    ik_real metre, before, after;
    int count, flips_before, flips_after, capacity;
    size_t bytes;
    if (!motion_fixture_read(&m, name)) {
        check_skip("real-asset corpus not found");
        return;
    }
    motion_fixture_contacts(&m, &root);
    capacity = 2 * m.take.frame_count;
    list = (ik_foot_contact *)malloc((size_t)capacity * sizeof *list);
    count = m.contact_count;
    memcpy(list, m.contacts, (size_t)count * sizeof *list);
    bytes = (size_t)m.take.frame_count * (size_t)m.take.joint_count * sizeof(ik_transform);
    input = (ik_transform *)malloc(bytes);
    memcpy(input, m.take.poses_ls, bytes);
    /* the outside measure in the skeleton's own metres (a root's scale or turn changes no slide) */
    metre = ik_foot_metre(ik_foot_leg_length(&m.rig));
    before = ground_worst_slide(&m.rig, &m.take, metre, m.model_ms);
    flips_before = ik_leg_knee_flip_frames(&m.rig, &m.take, m.model_ms);
    job.rig = &m.rig, job.root_ms = &root, job.take = &m.take;
    job.contacts = list, job.count = &count, job.capacity = capacity;
    job.metre = ik_foot_metre(m.leg_length), job.leg_length = m.leg_length, job.report = &report;
    job.levels = m.levels;
    job.scratch_bytes = ik_stance_clean_scratch_size(&m.take, capacity);
    job.scratch = malloc(job.scratch_bytes);
    CHECK(ik_stance_clean_run(&job) == IK_OK, "%s %s: runs", name, motion_variant_names[variant]);
    CHECK(ik_take_validate(&m.take, NULL) == IK_OK, "%s %s: finite, unit rotations", name,
          motion_variant_names[variant]);
    after = ground_worst_slide(&m.rig, &m.take, metre, m.model_ms);
    flips_after = ik_leg_knee_flip_frames(&m.rig, &m.take, m.model_ms);
    printf(
        "%-10s %-9s outside slide %5.1f -> %4.1f mm, knee flips %d -> %d, %d rounds (kept %d), %d contacts held, "
        "speed added %.2f m/s\n",
        name, motion_variant_names[variant], (double)(before / metre * 1000), (double)(after / metre * 1000),
        flips_before, flips_after, report.rounds, report.kept_round, count, (double)(report.added_speed / job.metre));
    CHECK(after <= (ik_real)0.005 * metre && after <= before,
          "%s %s: the result's own contacts slide %.1f mm (%.1f before)", name, motion_variant_names[variant],
          (double)(after / metre * 1000), (double)(before / metre * 1000));
    CHECK(flips_after <= flips_before, "%s %s: knee flips %d -> %d", name, motion_variant_names[variant], flips_before,
          flips_after);
    CHECK(report.kept_round <= report.rounds && report.rounds <= job.rounds && report.knee_flips == flips_after,
          "%s %s: the report (%d of %d rounds, %d flips)", name, motion_variant_names[variant], report.kept_round,
          report.rounds, report.knee_flips);
    CHECK(report.added_speed <= 10 * job.metre, "%s %s: %.2f m/s added", name, motion_variant_names[variant],
          (double)(report.added_speed / job.metre));
    {
        int i, under = 0;
        for (i = 0; i < count; ++i)
            under += ik_vec3_dot(list[i].planted_ms, m.up_ms) < m.levels[list[i].point] - (ik_real)1e-5 * m.leg_length;
        CHECK(under == 0, "%s %s: %d contacts held under their point's level", name, motion_variant_names[variant],
              under);
    }
    CHECK(bone_change(&m, &m.take, input) <= (ik_real)1e-4 * ik_foot_leg_length(&m.rig), "%s %s: bones kept", name,
          motion_variant_names[variant]);
    free(job.scratch);
    free(list);
    free(input);
    motion_fixture_free(&m);
}

static void test_refusals(void) {
    motion_fixture m;
    ik_stance_clean job = ik_stance_clean_def(), raw;
    int count;
    ik_foot_contact list[4];
    if (!motion_fixture_read(&m, takes[0])) {
        check_skip("real-asset corpus not found");
        return;
    }
    memset(&raw, 0, sizeof raw);
    CHECK(ik_stance_clean_run(&raw) == IK_ERR_NOT_DEFAULTED, "not made by _def");
    CHECK(ik_stance_clean_run(&job) == IK_ERR_NULL, "nothing set");
    count = 0;
    job.rig = &m.rig, job.take = &m.take, job.contacts = list, job.count = &count, job.capacity = 4;
    job.metre = 1, job.leg_length = 1;
    job.scratch_bytes = 16;
    job.scratch = list;
    CHECK(ik_stance_clean_run(&job) == IK_ERR_CAPACITY, "small scratch");
    job.scratch_bytes = ik_stance_clean_scratch_size(&m.take, job.capacity);
    job.scratch = malloc(job.scratch_bytes);
    job.metre = 0;
    CHECK(ik_stance_clean_run(&job) == IK_ERR_DEGENERATE, "zero metre");
    job.metre = 1, job.rounds = -1;
    CHECK(ik_stance_clean_run(&job) == IK_ERR_RANGE, "negative rounds");
    job.rounds = 3, count = 5;
    CHECK(ik_stance_clean_run(&job) == IK_ERR_RANGE, "a count over the capacity");
    free(job.scratch);
    motion_fixture_free(&m);
}

int main(void) {
    int t, v;
    for (t = 0; t < 3; ++t)
        for (v = 0; v < MOTION_VARIANTS; ++v)
            if (v != 4) clean_and_check(takes[t], v);
    test_refusals();
    return check_summary("test_stance_clean");
}

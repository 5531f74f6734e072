/* ik_ground_slide and ik_stance_join on a real take (CMU 131_01) and on
 * the same take with a known slide added: contacts found as an outside
 * reader finds them, their slides, and the sliding ones joined to the
 * contacts meant to be held. */
#include <stdlib.h>
#include <string.h>

#include <ikit/ground_slide.h>
#include <ikit/stance_join.h>

#include "support/check.h"
#include "support/ground_check.h"
#include "support/motion_fixture.h"

/* The take's own contacts by ik_ground_slide, in metres of the leg. */
static ik_result ground(const motion_fixture *m, const ik_take *take, ik_ground_contact *out, int capacity,
                        int *count) {
    return ground_contacts(&m->rig, take, ik_foot_metre(ik_foot_leg_length(&m->rig)), m->model_ms, out, capacity, count,
                           NULL);
}

/* A copy of the take whose hips glide `speed` metres a second along x
 * from `from` on: every contact after it slides speed x its duration. */
static ik_take gliding(const motion_fixture *m, ik_real speed, int from) {
    ik_take t = m->take;
    size_t bytes = (size_t)t.frame_count * (size_t)t.joint_count * sizeof(ik_transform);
    int hips = m->rig.map.joint[IK_ROLE_HIPS], f;
    t.poses_ls = (ik_transform *)malloc(bytes);
    memcpy(t.poses_ls, m->take.poses_ls, bytes);
    for (f = from; f < t.frame_count; ++f)
        ik_take_pose(&t, f)[hips].translation.x +=
            speed * ik_foot_metre(ik_foot_leg_length(&m->rig)) * (ik_real)(f - from) * t.frame_time;
    return t;
}

static void test_ground_slide(void) {
    motion_fixture m;
    ik_ground_contact found[512];
    int count = 0, glide_count = 0, i, grew = 0;
    ik_real metre, worst = 0;
    ik_take glide;
    if (!motion_fixture_read(&m, "131_01.bvh")) {
        check_skip("real-asset corpus not found");
        return;
    }
    metre = ik_foot_metre(ik_foot_leg_length(&m.rig));
    CHECK(ground(&m, &m.take, found, 512, &count) == IK_OK, "131_01's own contacts");
    /* CMU's feet shuffle: contacts on both legs, each at least 0.05 s, in order per leg */
    CHECK(count >= 8, "%d contacts found on 131_01", count);
    for (i = 0; i < count; ++i) {
        CHECK((found[i].end - found[i].start + 1) * m.take.frame_time >= (ik_real)0.049, "contact %d lasts %d frames",
              i, found[i].end - found[i].start + 1);
        CHECK(i == 0 || found[i].leg != found[i - 1].leg || found[i].start > found[i - 1].end,
              "contacts %d and %d overlap", i - 1, i);
        worst = ik_maxr(worst, found[i].slide);
    }
    CHECK(worst > (ik_real)0.005 * metre && worst < (ik_real)0.5 * metre, "131_01's worst slide %.1f mm",
          (double)(worst / metre * 1000));
    /* the whole figure gliding at 5 cm/s: nine in ten contacts found then
     * slide at least half of 5 cm/s times their length (the feet's own
     * shuffle takes some back: 21 of 22 do) */
    glide = gliding(&m, (ik_real)0.05, 0);
    {
        ik_ground_contact moved[512];
        CHECK(ground(&m, &glide, moved, 512, &glide_count) == IK_OK, "the gliding take's contacts");
        for (i = 0; i < glide_count; ++i) {
            ik_real least = (ik_real)0.05 * metre * (ik_real)(moved[i].end - moved[i].start) * m.take.frame_time;
            grew += moved[i].slide >= least * (ik_real)0.5;
        }
        CHECK(glide_count > 0 && grew * 10 >= glide_count * 9,
              "%d of %d gliding contacts slide at least half the glide", grew, glide_count);
    }
    free(glide.poses_ls);
    /* bad input */
    {
        ik_ground_slide g = ik_ground_slide_def();
        ik_ground_slide raw;
        memset(&raw, 0, sizeof raw);
        CHECK(ik_ground_slide_run(&raw) == IK_ERR_NOT_DEFAULTED, "not made by _def");
        CHECK(ik_ground_slide_run(&g) == IK_ERR_NULL, "no buffers");
        CHECK(ground(&m, &m.take, found, 1, &count) == IK_ERR_CAPACITY && count > 1, "more contacts than capacity: %d",
              count);
    }
    motion_fixture_free(&m);
}

/* The contacts meant to be held: ik_foot_contacts on the take. After a
 * glide from the middle, the take's own contacts that slide join them:
 * each sliding contact's toe is then covered by one held contact; the list
 * in order of start, each point's contacts disjoint. */
static void test_stance_join(void) {
    motion_fixture m;
    ik_foot_contact list[2048];
    int count, i, j, joined = -1, before;
    ik_real worst = -1, measured = -1;
    ik_take glide;
    ik_stance_join sj = ik_stance_join_def();
    ik_ground_contact found[512];
    int found_count = 0;
    if (!motion_fixture_read(&m, "131_01.bvh")) {
        check_skip("real-asset corpus not found");
        return;
    }
    motion_fixture_contacts(&m, &m.root_ms);
    CHECK(m.contacts_result == IK_OK && m.contact_count > 0, "131_01's contacts");
    count = before = m.contact_count;
    memcpy(list, m.contacts, (size_t)count * sizeof *list);
    glide = gliding(&m, (ik_real)0.05, m.take.frame_count / 2);
    sj.rig = &m.rig;
    sj.take = &glide;
    sj.metre = ik_foot_metre(ik_foot_leg_length(&m.rig));
    sj.contacts = list;
    sj.count = &count;
    sj.capacity = 2048;
    sj.scratch_bytes = ik_stance_join_scratch_size(&glide, sj.capacity);
    sj.scratch = malloc(sj.scratch_bytes);
    sj.worst = &measured;
    sj.joined = &joined;
    sj.join = 0;
    CHECK(ik_stance_join_run(&sj) == IK_OK && count == before && joined == 0 && measured > 0,
          "measured only: the list kept (%d -> %d), worst %.4g", before, count, (double)measured);
    sj.join = 1;
    sj.worst = &worst;
    CHECK(ik_stance_join_run(&sj) == IK_OK && joined > 0 && worst == measured, "joined %d (worst %.4g)", joined,
          (double)worst);
    for (i = 1; i < count; ++i) CHECK(list[i - 1].start <= list[i].start, "joined list out of order at %d", i);
    for (i = 0; i < count; ++i)
        for (j = i + 1; j < count; ++j)
            CHECK(list[i].point != list[j].point || list[i].end < list[j].start || list[j].end < list[i].start,
                  "contacts %d and %d of one point overlap", i, j);
    /* every sliding contact of the gliding take covered by its leg's toe */
    CHECK(ground(&m, &glide, found, 512, &found_count) == IK_OK, "the gliding take's contacts");
    for (i = 0; i < found_count; ++i) {
        int toe = found[i].leg == IK_LIMB_LEG_L ? IK_FOOT_TOE_L : IK_FOOT_TOE_R, covered = 0;
        if (!(found[i].slide > (ik_real)0.001 * sj.metre)) continue;
        for (j = 0; j < count; ++j)
            covered |= list[j].point == toe && list[j].start <= found[i].start && found[i].end <= list[j].end;
        CHECK(covered, "the sliding contact over frames %d-%d is held", found[i].start, found[i].end);
    }
    /* no room: refused, the joins before it kept and counted */
    count = before;
    memcpy(list, m.contacts, (size_t)count * sizeof *list);
    sj.capacity = before;
    sj.scratch_bytes = ik_stance_join_scratch_size(&glide, sj.capacity);
    CHECK(ik_stance_join_run(&sj) == IK_ERR_CAPACITY || joined == 0, "a list without room");
    CHECK(count <= before, "the list stays within its capacity (%d)", count);
    sj.scratch_bytes = 16;
    CHECK(ik_stance_join_run(&sj) == IK_ERR_CAPACITY, "small scratch");
    sj.scratch_bytes = ik_stance_join_scratch_size(&glide, sj.capacity);
    sj.metre = 0;
    CHECK(ik_stance_join_run(&sj) == IK_ERR_DEGENERATE, "zero metre");
    free(sj.scratch);
    free(glide.poses_ls);
    motion_fixture_free(&m);
}

/* The contacts under a file's root (inches, Z-up, mirrored, far away):
 * ik_stance_join with that root holds each contact it adds, or makes of
 * several, where the result's toe stood under the root: within a
 * centimetre of the toe at the contact's middle frame plus the glide over
 * the contact. The others keep a spot the list had. */
static void test_stance_join_under_root(void) {
    int variant;
    for (variant = 1; variant < MOTION_VARIANTS; ++variant) {
        motion_fixture m;
        ik_foot_contact list[2048];
        int count, i, j, joined = 0, checked = 0;
        ik_mat4 root = motion_variant_root(variant);
        ik_take glide;
        ik_stance_join sj = ik_stance_join_def();
        ik_real metre, worst_off = 0;
        if (!motion_fixture_read(&m, "131_01.bvh")) {
            check_skip("real-asset corpus not found");
            return;
        }
        motion_fixture_contacts(&m, &root);
        count = m.contact_count;
        memcpy(list, m.contacts, (size_t)count * sizeof *list);
        glide = gliding(&m, (ik_real)0.05, m.take.frame_count / 2);
        metre = ik_foot_metre(m.leg_length);
        sj.rig = &m.rig, sj.take = &glide, sj.root_ms = &root, sj.metre = metre;
        sj.contacts = list, sj.count = &count, sj.capacity = 2048, sj.joined = &joined;
        sj.scratch_bytes = ik_stance_join_scratch_size(&glide, sj.capacity);
        sj.scratch = malloc(sj.scratch_bytes);
        CHECK(ik_stance_join_run(&sj) == IK_OK && joined > 0, "%s: joined %d", motion_variant_names[variant], joined);
        for (i = 0; i < count; ++i) {
            int kept = 0, middle = (list[i].start + list[i].end) / 2, toe = m.joints[list[i].point];
            ik_real off, allowed;
            for (j = 0; j < m.contact_count; ++j)
                kept |= memcmp(&list[i].planted_ms, &m.contacts[j].planted_ms, sizeof list[i].planted_ms) == 0;
            if (kept) continue;
            ik_skeleton_fk(&m.bvh->skeleton, ik_take_pose(&glide, middle), &root, m.model_ms);
            off = ik_vec3_distance(list[i].planted_ms, ik_mat4_translation(&m.model_ms[toe]));
            allowed = (ik_real)0.01 * metre +
                      (ik_real)0.05 * metre * (ik_real)(list[i].end - list[i].start + 1) * m.take.frame_time;
            worst_off = ik_maxr(worst_off, off / metre);
            CHECK(off <= allowed, "%s: a joined contact (frames %d-%d) held %.3f m from the toe (allowed %.3f)",
                  motion_variant_names[variant], list[i].start, list[i].end, (double)(off / metre),
                  (double)(allowed / metre));
            ++checked;
        }
        CHECK(checked > 0, "%s: no contact joined", motion_variant_names[variant]);
        printf("%-9s %d contacts added or made of several, held within %.1f mm of the toe\n",
               motion_variant_names[variant], checked, (double)(worst_off * 1000));
        free(sj.scratch);
        free(glide.poses_ls);
        motion_fixture_free(&m);
    }
}

int main(void) {
    test_ground_slide();
    test_stance_join();
    test_stance_join_under_root();
    return check_summary("test_stance_join");
}

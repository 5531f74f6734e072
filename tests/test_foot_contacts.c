/* Foot contacts: synthetic foot paths with known contacts (and a foot
 * never down, an upside-down figure, bad input), and the CMU walks, where
 * every stance seen on `ikc contacts 131_0N.bvh -o picture.png` is found,
 * the same under rescaling, Z-up and mirroring, at low height and speed. */
#include <math.h>

#include "support/check.h"
#include "support/motion_fixture.h"

#define FRAMES 600
#define DT ((ik_real)(1.0 / 120))

static ik_vec3 paths[FRAMES * IK_FOOT_PATH_POINTS];
static ik_real scratch[2 * FRAMES];
static ik_foot_contact found[256];

/* A walk on a leg of length 1: each foot stands 0.5 s, swings 0.4 s
 * (rising 0.15 along y and moving 0.6 forward on a half-sine), the right
 * half a cycle behind; the toe 0.2 ahead of the heel and 0.05 lower; the
 * hips at 1. Stance f in [c * 108, c * 108 + 59] for the left foot. */
static void synthetic_walk(ik_vec3 up_scale_offset, int upside_down) {
    int f, leg;
    for (f = 0; f < FRAMES; ++f) {
        ik_vec3 *row = paths + f * IK_FOOT_PATH_POINTS;
        for (leg = 0; leg < 2; ++leg) {
            int local = f + (leg ? 54 : 0), cycle = local / 108, phase = local % 108;
            ik_real x = (ik_real)cycle * (ik_real)0.6, y = 0;
            if (phase >= 60) {
                ik_real s = (ik_real)(phase - 60) / 48;
                x += (ik_real)0.6 * (1 - IK_COS(IK_PI * s)) / 2;
                y = (ik_real)0.15 * IK_SIN(IK_PI * s);
            }
            row[2 * leg] = ik_v3(leg ? (ik_real)-0.1 : (ik_real)0.1, (ik_real)0.08 + y, x);
            row[2 * leg + 1] = ik_v3(leg ? (ik_real)-0.1 : (ik_real)0.1, (ik_real)0.03 + y, x + (ik_real)0.2);
        }
        row[IK_FOOT_HIPS] = ik_v3(0, 1, (ik_real)f * (ik_real)0.005);
        for (leg = 0; leg < IK_FOOT_PATH_POINTS; ++leg) {
            ik_vec3 p = row[leg];
            if (upside_down) p.y = -p.y;
            row[leg] = ik_vec3_scale(ik_v3(p.x, p.y + up_scale_offset.y, p.z), up_scale_offset.x);
        }
    }
}

static ik_foot_contacts synthetic_job(int *count) {
    ik_foot_contacts job = ik_foot_contacts_def();
    job.paths_ms = paths, job.frame_count = FRAMES, job.frame_time = DT, job.leg_length = 1;
    job.scratch = scratch, job.contacts = found, job.capacity = 256, job.count = count;
    return job;
}

static void test_synthetic(void) {
    int count = 0, i, scale;
    check_property near = {"each contact matches a known stance within 4 frames", 0, 0};
    for (scale = 0; scale < 2; ++scale) {
        ik_real s = scale ? (ik_real)39.37 : 1;
        ik_foot_contacts job;
        synthetic_walk(ik_v3(s, (ik_real)0.3, 0), 0);
        job = synthetic_job(&count);
        job.leg_length = s;
        CHECK(ik_foot_contacts_run(&job) == IK_OK, "synthetic walk");
        /* left stances start at 0, 108, ... (6 within 600 frames), right at
         * 54, 162, ... (5: its stance in frames 0-5 is shorter than 0.1 s) */
        CHECK(count == 2 * 6 + 2 * 5, "scale %g: %d contacts, want 6 per left point, 5 per right", (double)s, count);
        for (i = 0; i < count; ++i) {
            int shift = ik_foot_point_leg(found[i].point) == IK_LIMB_LEG_R ? 54 : 0;
            int start = found[i].start + shift, phase = start % 108, end_phase = (found[i].end + shift) % 108;
            ik_bool first = found[i].start == 0, last = found[i].end == FRAMES - 1;
            PROPERTY_CASE(near, (first || phase <= 4 || phase >= 104) && (last || (end_phase >= 55 && end_phase <= 63)),
                          "point %d %d-%d", found[i].point, found[i].start, found[i].end);
        }
        for (i = 1; i < count; ++i) CHECK(found[i - 1].start <= found[i].start, "ordered by start");
    }
    property_end(&near);
}

static void test_synthetic_refusals(void) {
    int count = 7;
    ik_foot_contacts job, zeroed;
    synthetic_walk(ik_v3(1, 0, 0), 0);
    job = synthetic_job(&count);
    /* the left foot never comes down: lifted by half a leg */
    {
        int f;
        for (f = 0; f < FRAMES; ++f) {
            paths[f * IK_FOOT_PATH_POINTS + IK_FOOT_HEEL_L].y += (ik_real)0.5;
            paths[f * IK_FOOT_PATH_POINTS + IK_FOOT_TOE_L].y += (ik_real)0.5;
        }
        CHECK(ik_foot_contacts_run(&job) == IK_OK && count == 10, "a foot never down has no contacts: %d", count);
        for (f = 0; f < count; ++f) CHECK(ik_foot_point_leg(found[f].point) == IK_LIMB_LEG_R, "right only");
    }
    synthetic_walk(ik_v3(1, 0, 0), 1);
    CHECK(ik_foot_contacts_run(&job) == IK_ERR_UNSUPPORTED && count == 0, "upside down refused");
    synthetic_walk(ik_v3(1, 0, 0), 0);
    paths[33].y = (ik_real)NAN;
    CHECK(ik_foot_contacts_run(&job) == IK_ERR_NONFINITE && count == 0, "NaN in a path");
    paths[33].y = 0;
    job.frame_count = 1;
    CHECK(ik_foot_contacts_run(&job) == IK_ERR_RANGE, "one frame");
    job.frame_count = FRAMES, job.frame_time = 0;
    CHECK(ik_foot_contacts_run(&job) == IK_ERR_DEGENERATE, "zero frame time");
    job.frame_time = DT, job.leg_length = (ik_real)INFINITY;
    CHECK(ik_foot_contacts_run(&job) == IK_ERR_NONFINITE, "infinite leg");
    job.leg_length = 1, job.height_enter = 1;
    CHECK(ik_foot_contacts_run(&job) == IK_ERR_RANGE, "enter above exit");
    job.height_enter = (ik_real)0.04, job.capacity = 3;
    CHECK(ik_foot_contacts_run(&job) == IK_ERR_CAPACITY && count == 22, "capacity: count says how many");
    memset(&zeroed, 0, sizeof zeroed);
    CHECK(ik_foot_contacts_run(&zeroed) == IK_ERR_NOT_DEFAULTED, "zeroed job");
}

/* Steps per leg: the foot's contacts (heel and toe merged where they
 * overlap or touch) split where the foot swings between them, its heel or
 * toe faster than 1.5 leg lengths per second at some frame of the gap (a
 * pivot or shuffle between two contacts is not a step). */
static int steps(const motion_fixture *m, int leg) {
    int i, count = 0, end = -2, f;
    for (i = 0; i < m->contact_count; ++i) {
        const ik_foot_contact *c = &m->contacts[i];
        if (ik_foot_point_leg(c->point) != leg) continue;
        if (c->start > end + 1) {
            ik_real fastest = 0;
            for (f = end + 1; end >= 0 && f < c->start; ++f) {
                const ik_real *v = m->speeds + (size_t)f * IK_FOOT_CONTACT_POINTS + (leg == IK_LIMB_LEG_L ? 0 : 2);
                fastest = ik_maxr(fastest, ik_maxr(v[0], v[1]));
            }
            if (end < 0 || fastest > (ik_real)1.5 * m->leg_length) ++count;
        }
        if (c->end > end) end = c->end;
    }
    return count;
}

/* 1 when some contact of `leg` covers frame f. */
static int leg_down(const motion_fixture *m, int leg, int f) {
    int i;
    for (i = 0; i < m->contact_count; ++i)
        if (ik_foot_point_leg(m->contacts[i].point) == leg && m->contacts[i].start <= f && f <= m->contacts[i].end)
            return 1;
    return 0;
}

/* Walking, the feet take turns: while one foot swings (off the floor
 * between two of its contacts, faster than 1.5 leg lengths/s at some
 * frame: a step, as below), the other stands. The share of all swing
 * frames in which the other foot has a contact: 74 % on 131_01 and 69 %
 * on 131_02, whose stylised walks have hops (both feet briefly up) and
 * stance feet that shuffle faster than a contact's 0.6 leg lengths/s;
 * asserted at two thirds (swapped or scattered contacts give far less). */
static double other_foot_down_share(const motion_fixture *m) {
    long swing_frames = 0, other_down = 0;
    int leg, f;
    for (leg = IK_LIMB_LEG_L; leg <= IK_LIMB_LEG_R; ++leg) {
        int other = leg == IK_LIMB_LEG_L ? IK_LIMB_LEG_R : IK_LIMB_LEG_L, gap = 0, down = 0, seen = 0;
        ik_real fastest = 0;
        for (f = 0; f < m->take.frame_count; ++f) {
            if (leg_down(m, leg, f)) {
                if (seen && gap > 0 && fastest > (ik_real)1.5 * m->leg_length) swing_frames += gap, other_down += down;
                seen = 1, gap = 0, down = 0, fastest = 0;
            } else if (seen) {
                const ik_real *v = m->speeds + (size_t)f * IK_FOOT_CONTACT_POINTS + (leg == IK_LIMB_LEG_L ? 0 : 2);
                ++gap;
                down += leg_down(m, other, f);
                fastest = ik_maxr(fastest, ik_maxr(v[0], v[1]));
            }
        }
    }
    return swing_frames ? (double)other_down / (double)swing_frames : 0;
}

/* Steps counted by eye on the pictures (`ikc contacts 131_0N.bvh -o
 * picture.png`: a step is a stance after a swing, a tall speed peak):
 * 131_01 left 5, right 6; 131_02 left 11, right 9. */
static void test_cmu(const char *name, int left, int right) {
    motion_fixture m;
    ik_foot_contact first[1024];
    int first_count = 0, v, i;
    if (!motion_fixture_read(&m, name)) {
        check_skip("real-asset corpus not found");
        return;
    }
    for (v = 0; v < MOTION_VARIANTS; ++v) {
        ik_mat4 root = motion_variant_root(v);
        motion_fixture_contacts(&m, &root);
        CHECK(m.contacts_result == IK_OK, "%s %s", name, motion_variant_names[v]);
        CHECK(steps(&m, IK_LIMB_LEG_L) == left && steps(&m, IK_LIMB_LEG_R) == right,
              "%s %s: steps %d left, %d right; want %d and %d", name, motion_variant_names[v], steps(&m, IK_LIMB_LEG_L),
              steps(&m, IK_LIMB_LEG_R), left, right);
        CHECK(other_foot_down_share(&m) >= 2.0 / 3,
              "%s %s: the feet take turns (the other foot down %.0f %% of swings)", name, motion_variant_names[v],
              100 * other_foot_down_share(&m));
        if (v == 0) {
            memcpy(first, m.contacts, sizeof(ik_foot_contact) * (size_t)m.contact_count);
            first_count = m.contact_count;
        } else {
            int same = first_count == m.contact_count;
            for (i = 0; same && i < first_count; ++i)
                same = first[i].point == m.contacts[i].point && abs(first[i].start - m.contacts[i].start) <= 1 &&
                       abs(first[i].end - m.contacts[i].end) <= 1;
            CHECK(same, "%s %s: the same contacts as read", name, motion_variant_names[v]);
        }
        for (i = 0; i < m.contact_count; ++i) {
            const ik_foot_contact *c = &m.contacts[i];
            int f, slow = 0;
            ik_real h = ik_vec3_dot(c->planted_ms, m.up_ms) - m.levels[c->point];
            for (f = c->start + 1; f <= c->end; ++f)
                slow += ik_vec3_distance(m.paths_ms[f * IK_FOOT_PATH_POINTS + c->point],
                                         m.paths_ms[(f - 1) * IK_FOOT_PATH_POINTS + c->point]) <
                        (ik_real)0.6 * m.leg_length * m.take.frame_time;
            CHECK(h < (ik_real)0.08 * m.leg_length, "%s: contact %d low: %g leg lengths above its floor level", name, i,
                  (double)(h / m.leg_length));
            CHECK(slow * 10 >= (c->end - c->start) * 8, "%s: contact %d slow in most frames", name, i);
        }
    }
    motion_fixture_free(&m);
}

int main(void) {
    test_synthetic();
    test_synthetic_refusals();
    test_cmu("131_01.bvh", 5, 6);
    test_cmu("131_02.bvh", 11, 9);
    return check_summary("test_foot_contacts");
}

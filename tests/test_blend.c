/* Blending (anim/blend): weights 0 and 1 give the poses back, rotations go
 * the short way round (q and -q), a random blend's rotation lies on the arc
 * between at the weight's share of the angle (checked through forward
 * kinematics: where the child bone ends), masks leave other joints alone,
 * clips and takes blend as their sampled poses do, bad input is refused. */
#include <ikit/blend.h>

#include <math.h>
#include <string.h>

#include "support/check.h"
#include "support/rng.h"

#ifdef IKIT_DOUBLE
#define TOL 1e-9
#else
#define TOL 2e-5
#endif

#define JOINTS 4

static ik_quat random_rotation(rng *g) {
    ik_vec3 axis = ik_vec3_normalize(ik_v3(rng_range(g, -1, 1), rng_range(g, -1, 1), rng_range(g, -1, 1)));
    return ik_quat_from_axis_angle(axis, rng_range(g, 0, 3.1));
}

/* The angle between two rotations, q and -q alike. */
static ik_real rotation_angle(ik_quat a, ik_quat b) { return 2 * ik_acos_safe(IK_FABS(ik_quat_dot(a, b))); }

/* One rotation (q or -q) within TOL: 1 - |a . b| is well conditioned
 * where the angle (an arc cosine near 1) is not. */
static int same_rotation(ik_quat a, ik_quat b) { return 1 - IK_FABS(ik_quat_dot(a, b)) <= TOL; }

/* A chain of JOINTS joints, each 1 along +x from its parent. */
static ik_skeleton chain(int *parents, ik_transform *rest) {
    ik_skeleton s;
    int j;
    for (j = 0; j < JOINTS; ++j) {
        parents[j] = j - 1;
        rest[j] = ik_transform_identity();
        rest[j].translation = ik_v3(j ? 1 : 0, 0, 0);
    }
    ik_skeleton_init(&s, JOINTS, parents, NULL, rest, NULL);
    return s;
}

static void test_ends_and_short_arc(void) {
    ik_transform a[2], b[2], out[2];
    ik_quat turn = ik_quat_from_axis_angle(ik_v3(0, 0, 1), ik_rad(30));
    a[0] = a[1] = b[0] = b[1] = ik_transform_identity();
    a[1].translation = b[1].translation = ik_v3(1, 0, 0);
    b[0].rotation = ik_quat_neg(turn); /* the same rotation as turn, on the far side */
    b[0].translation = ik_v3(2, 0, 0);
    CHECK(ik_blend_poses(a, b, 2, 0, NULL, out) == IK_OK && same_rotation(out[0].rotation, a[0].rotation) &&
              ik_vec3_distance(out[0].translation, a[0].translation) <= TOL,
          "weight 0 gives a");
    CHECK(ik_blend_poses(a, b, 2, 1, NULL, out) == IK_OK && same_rotation(out[0].rotation, turn) &&
              ik_vec3_distance(out[0].translation, b[0].translation) <= TOL,
          "weight 1 gives b");
    CHECK(ik_blend_poses(a, b, 2, (ik_real)0.5, NULL, out) == IK_OK, "half way");
    {
        /* the child joint at x = 1 turned by 15 degrees about z, not 165 */
        int parents[2] = {-1, 0};
        ik_skeleton s;
        ik_mat4 model[2];
        ik_vec3 tip;
        ik_skeleton_init(&s, 2, parents, NULL, a, NULL);
        ik_skeleton_fk(&s, out, NULL, model);
        tip = ik_vec3_sub(ik_mat4_translation(&model[1]), ik_mat4_translation(&model[0]));
        CHECK(IK_FABS(IK_ATAN2(tip.y, tip.x) - ik_rad(15)) <= 10 * TOL, "short arc: the bone turned %g degrees",
              (double)ik_deg(IK_ATAN2(tip.y, tip.x)));
        CHECK(ik_vec3_distance(ik_mat4_translation(&model[0]), ik_v3(1, 0, 0)) <= TOL, "root half way along x");
    }
}

/* Random pose pairs and weights: each joint's rotation lies w of the way
 * from a's to b's (angles add up along the short arc), translations on the
 * segment, and by FK every bone keeps its length. */
static void test_random_blends(void) {
    check_property arc = {"blended rotation at the weight's share of the short arc", 0, 0};
    check_property lengths = {"blended chain keeps its bone lengths", 0, 0};
    rng g = rng_seeded(7);
    int parents[JOINTS], n, j;
    ik_transform rest[JOINTS];
    ik_skeleton s = chain(parents, rest);
    for (n = 0; n < 500; ++n) {
        ik_transform a[JOINTS], b[JOINTS], out[JOINTS];
        ik_mat4 model[JOINTS];
        ik_real w = rng_range(&g, 0, 1);
        memcpy(a, rest, sizeof a);
        memcpy(b, rest, sizeof b);
        for (j = 0; j < JOINTS; ++j) {
            a[j].rotation = random_rotation(&g);
            b[j].rotation = rng_unit(&g) < 0.5 ? random_rotation(&g) : ik_quat_neg(random_rotation(&g));
        }
        ik_blend_poses(a, b, JOINTS, w, NULL, out);
        for (j = 0; j < JOINTS; ++j) {
            ik_real whole = rotation_angle(a[j].rotation, b[j].rotation);
            ik_real from_a = rotation_angle(a[j].rotation, out[j].rotation);
            ik_real to_b = rotation_angle(out[j].rotation, b[j].rotation);
            PROPERTY_CASE(arc, IK_FABS(from_a - w * whole) <= 1e3 * TOL && IK_FABS(from_a + to_b - whole) <= 1e3 * TOL,
                          "n %d j %d: %g + %g vs %g at w %g", n, j, (double)from_a, (double)to_b, (double)whole,
                          (double)w);
        }
        ik_skeleton_fk(&s, out, NULL, model);
        for (j = 1; j < JOINTS; ++j)
            PROPERTY_CASE(lengths,
                          IK_FABS(ik_vec3_distance(ik_mat4_translation(&model[j]), ik_mat4_translation(&model[j - 1])) -
                                  1) <= 10 * TOL,
                          "n %d bone %d", n, j);
    }
    property_end(&arc);
    property_end(&lengths);
}

/* A mask from joint 2 down: joints 0 and 1 stay a's exactly, 2 and 3 are
 * the blend; the model position of joint 1 is a's. */
static void test_mask(void) {
    int parents[JOINTS], j;
    ik_transform rest[JOINTS], a[JOINTS], b[JOINTS], out[JOINTS], full[JOINTS];
    ik_skeleton s = chain(parents, rest);
    ik_real mask[JOINTS];
    rng g = rng_seeded(3);
    memcpy(a, rest, sizeof a);
    memcpy(b, rest, sizeof b);
    for (j = 0; j < JOINTS; ++j) a[j].rotation = random_rotation(&g), b[j].rotation = random_rotation(&g);
    CHECK(
        ik_blend_mask_subtree(&s, 2, 1, mask) == IK_OK && mask[0] == 0 && mask[1] == 0 && mask[2] == 1 && mask[3] == 1,
        "subtree mask of joint 2");
    CHECK(ik_blend_poses(a, b, JOINTS, (ik_real)0.3, mask, out) == IK_OK, "masked blend");
    ik_blend_poses(a, b, JOINTS, (ik_real)0.3, NULL, full);
    CHECK(memcmp(&out[0], &a[0], 2 * sizeof out[0]) == 0, "joints outside the mask keep a's rotation");
    CHECK(same_rotation(out[2].rotation, full[2].rotation) && same_rotation(out[3].rotation, full[3].rotation),
          "joints inside the mask blend as without one");
    CHECK(ik_blend_mask_subtree(&s, JOINTS, 1, mask) == IK_ERR_RANGE, "a joint out of range refused");
}

/* Two clips blended at their own times = their sampled poses blended; two
 * takes blended = each frame's poses blended. */
static void test_clips_and_takes(void) {
    int parents[JOINTS], f, j;
    ik_transform rest[JOINTS], pa[JOINTS], pb[JOINTS], want[JOINTS], got[JOINTS], scratch[JOINTS];
    ik_transform frames_a[3 * JOINTS], frames_b[3 * JOINTS], frames_out[3 * JOINTS];
    ik_real times[2] = {0, 1}, va[8], vb[8];
    ik_channel ca, cb;
    ik_clip a, b;
    ik_take ta, tb, tout;
    ik_quat q0 = ik_quat_from_axis_angle(ik_v3(0, 1, 0), 1), q1 = ik_quat_from_axis_angle(ik_v3(1, 0, 0), 2);
    ik_quat q2 = ik_quat_from_axis_angle(ik_v3(0, 0, 1), -1);
    rng g = rng_seeded(11);
    chain(parents, rest);
    va[0] = q0.x, va[1] = q0.y, va[2] = q0.z, va[3] = q0.w, va[4] = q1.x, va[5] = q1.y, va[6] = q1.z, va[7] = q1.w;
    vb[0] = q2.x, vb[1] = q2.y, vb[2] = q2.z, vb[3] = q2.w, vb[4] = q0.x, vb[5] = q0.y, vb[6] = q0.z, vb[7] = q0.w;
    ca.joint = 1, ca.path = IK_CHANNEL_ROTATION, ca.interpolation = IK_INTERP_LINEAR, ca.key_count = 2;
    ca.times = times, ca.values = va;
    cb = ca;
    cb.values = vb;
    a.name = "a", a.duration = 1, a.channel_count = 1, a.channels = &ca;
    b = a;
    b.name = "b", b.channels = &cb;
    memcpy(pa, rest, sizeof pa);
    memcpy(pb, rest, sizeof pb);
    ik_clip_sample(&a, (ik_real)0.25, pa);
    ik_clip_sample(&b, (ik_real)0.75, pb);
    ik_blend_poses(pa, pb, JOINTS, (ik_real)0.4, NULL, want);
    CHECK(ik_blend_clips(&a, (ik_real)0.25, &b, (ik_real)0.75, rest, JOINTS, (ik_real)0.4, NULL, scratch, got) == IK_OK,
          "blend two clips");
    for (j = 0; j < JOINTS; ++j)
        CHECK(same_rotation(got[j].rotation, want[j].rotation) &&
                  ik_vec3_distance(got[j].translation, want[j].translation) <= TOL,
              "clip blend joint %d = blend of the sampled poses", j);
    for (f = 0; f < 3 * JOINTS; ++f) {
        frames_a[f] = frames_b[f] = rest[f % JOINTS];
        frames_a[f].rotation = random_rotation(&g);
        frames_b[f].rotation = random_rotation(&g);
        frames_b[f].translation = ik_v3(rng_range(&g, -1, 1), 0, 0);
    }
    ta.frame_count = tb.frame_count = 3, ta.joint_count = tb.joint_count = JOINTS;
    ta.frame_time = tb.frame_time = (ik_real)0.1;
    ta.poses_ls = frames_a, tb.poses_ls = frames_b, tout.poses_ls = frames_out;
    CHECK(ik_blend_takes(&ta, &tb, (ik_real)0.6, NULL, &tout) == IK_OK && tout.frame_count == 3, "blend two takes");
    for (f = 0; f < 3; ++f) {
        ik_blend_poses(ik_take_pose(&ta, f), ik_take_pose(&tb, f), JOINTS, (ik_real)0.6, NULL, want);
        for (j = 0; j < JOINTS; ++j)
            CHECK(same_rotation(ik_take_pose(&tout, f)[j].rotation, want[j].rotation), "take frame %d joint %d", f, j);
    }
    tb.frame_count = 2;
    CHECK(ik_blend_takes(&ta, &tb, (ik_real)0.6, NULL, &tout) == IK_ERR_RANGE, "takes of different lengths refused");
}

static void test_bad_input(void) {
    ik_transform a[2], b[2], out[2], before[2];
    ik_real mask[2] = {1, (ik_real)-0.1};
    a[0] = a[1] = b[0] = b[1] = ik_transform_identity();
    memset(out, 0x3c, sizeof out);
    memcpy(before, out, sizeof out);
    CHECK(ik_blend_poses(a, b, 2, (ik_real)NAN, NULL, out) == IK_ERR_RANGE, "NaN weight refused");
    CHECK(ik_blend_poses(a, b, 2, (ik_real)1.5, NULL, out) == IK_ERR_RANGE, "weight above 1 refused");
    CHECK(ik_blend_poses(a, b, 2, (ik_real)0.5, mask, out) == IK_ERR_RANGE, "negative mask entry refused");
    CHECK(ik_blend_poses(a, b, 0, (ik_real)0.5, NULL, out) == IK_ERR_RANGE, "no joints refused");
    CHECK(ik_blend_poses(NULL, b, 2, (ik_real)0.5, NULL, out) == IK_ERR_NULL, "NULL pose refused");
    b[1].translation.y = (ik_real)INFINITY;
    CHECK(ik_blend_poses(a, b, 2, (ik_real)0.5, NULL, out) == IK_ERR_NONFINITE, "infinite translation refused");
    b[1] = ik_transform_identity();
    b[0].rotation = ik_q(0, 0, 0, 0);
    CHECK(ik_blend_poses(a, b, 2, (ik_real)0.5, NULL, out) == IK_ERR_NONFINITE, "zero rotation refused");
    CHECK(memcmp(out, before, sizeof out) == 0, "nothing written on error");
}

int main(void) {
    test_ends_and_short_arc();
    test_random_blends();
    test_mask();
    test_clips_and_takes();
    test_bad_input();
    return check_summary("test_blend");
}

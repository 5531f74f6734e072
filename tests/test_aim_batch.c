/* Batch aim against the single solver, joint by joint, and against the
 * geometry: after the correction the aim ray passes through the target
 * whenever the joint reports it reached. */
#include <ikit/aim.h>
#include <ikit/aim_batch.h>
#include <string.h>

#include "support/batch_check.h"
#include "support/check.h"
#include "support/rng.h"

#ifdef IKIT_DOUBLE
#define SAME_TOL 1e-9
#define RAY_TOL 1e-9
#else
#define SAME_TOL 3e-5f
#define RAY_TOL 1e-4f
#endif
#define MAX_JOINTS 4096

/* A joint as a caller keeps it: its model matrix in a larger record (read
 * through the batch's stride), its target, pole and weight. */
typedef struct head {
    ik_mat4 joint_ms;
    ik_vec3 target, pole;
    ik_real weight;
} head;

/* A joint under a random parent: rotation, position, uniform scale 0.5 to 2
 * (mirrored on one axis in a third of them, on all three in another third
 * when `mirror`), or in `skew` cases of 8 a non-uniform one; a target 0.05 to
 * 10 away, a random pole direction. */
static void head_random(head *h, rng *r, ik_bool mirror, int skew) {
    ik_real s;
    ik_vec3 scale = rng_parent_scale(r, mirror, &s);
    ik_mat4 parent, local;
    if ((int)(rng_unit(r) * 8) < skew) scale = ik_v3(s, s * rng_range(r, 0.5, 2), s);
    parent = ik_mat4_from_trs(rng_in_ball(r, 3), rng_rotation(r), scale);
    local = ik_mat4_from_trs(rng_in_ball(r, 1), rng_rotation(r), ik_v3(1, 1, 1));
    h->joint_ms = ik_mat4_mul(&parent, &local);
    h->target = ik_vec3_mad(ik_mat4_translation(&h->joint_ms), rng_direction(r), rng_range(r, 0.05, 10));
    h->pole = rng_direction(r);
    h->weight = 1;
}

typedef struct batch_out {
    ik_quat correction[MAX_JOINTS];
    ik_bool reached[MAX_JOINTS];
    ik_result status[MAX_JOINTS];
} batch_out;

static ik_aim_batch batch_job(head *heads, int count, ik_vec3 *targets, ik_vec3 *poles, ik_real *weights,
                              batch_out *out) {
    ik_aim_batch job = ik_aim_batch_def();
    int i;
    for (i = 0; i < count; ++i) {
        targets[i] = heads[i].target;
        if (poles) poles[i] = heads[i].pole;
        if (weights) weights[i] = heads[i].weight;
    }
    job.count = count;
    job.joint_ms = &heads[0].joint_ms;
    job.joint_stride = sizeof(head);
    job.target_ms = targets;
    job.pole_ms = poles;
    job.weight = weights;
    job.correction_ls = out->correction;
    job.reached = out->reached;
    job.status = out->status;
    return job;
}

/* Distance from the target to the aim ray of the corrected joint, M C: the
 * ray from M C offset along M C forward. */
static ik_real ray_miss(const head *h, const ik_aim_batch *job, ik_quat correction) {
    ik_mat4 turn = ik_mat4_from_trs(ik_vec3_zero(), correction, ik_v3(1, 1, 1));
    ik_mat4 moved = ik_mat4_mul(&h->joint_ms, &turn);
    ik_vec3 from = ik_mat4_transform_point(&moved, job->offset_ls);
    ik_vec3 along = ik_vec3_normalize(ik_mat4_transform_vector(&moved, job->forward_ls));
    return ik_vec3_length(ik_vec3_reject(ik_vec3_sub(h->target, from), along));
}

static void check_against_single(head *heads, int count, ik_bool use_pole, ik_bool use_weight, ik_vec3 forward,
                                 ik_vec3 up, ik_vec3 offset, check_property *same, check_property *geometry) {
    static ik_vec3 targets[MAX_JOINTS], poles[MAX_JOINTS];
    static ik_real weights[MAX_JOINTS];
    static batch_out out;
    ik_aim_batch job = batch_job(heads, count, targets, use_pole ? poles : NULL, use_weight ? weights : NULL, &out);
    ik_result whole;
    int i;
    job.forward_ls = forward;
    job.up_ls = up;
    job.offset_ls = offset;
    whole = ik_aim_batch_run(&job);
    for (i = 0; i < count; ++i) {
        head *h = &heads[i];
        ik_aim single = ik_aim_def();
        ik_quat correction = ik_quat_identity();
        ik_bool reached = 0;
        ik_result r;
        single.joint_ms = &h->joint_ms;
        single.target_ms = h->target;
        if (use_pole) single.pole_ms = h->pole;
        if (use_weight) single.weight = h->weight;
        single.forward_ls = forward;
        single.up_ls = up;
        single.offset_ls = offset;
        single.correction_ls = &correction;
        single.reached = &reached;
        r = ik_aim_run(&single);
        PROPERTY_CASE(*same, out.status[i] == r, "joint %d: %s vs %s", i, ik_result_str(out.status[i]),
                      ik_result_str(r));
        PROPERTY_CASE(*same, quat_finite_unit(out.correction[i]) && out.correction[i].w >= 0, "joint %d", i);
        if (r != IK_OK) {
            PROPERTY_CASE(*same, !out.reached[i] && whole != IK_OK, "joint %d", i);
            continue;
        }
        PROPERTY_CASE(*same, same_rotation(out.correction[i], correction, SAME_TOL) && out.reached[i] == reached,
                      "joint %d: (%g %g %g %g) vs (%g %g %g %g), reached %d vs %d", i, (double)out.correction[i].x,
                      (double)out.correction[i].y, (double)out.correction[i].z, (double)out.correction[i].w,
                      (double)correction.x, (double)correction.y, (double)correction.z, (double)correction.w,
                      out.reached[i], reached);
        if (out.reached[i] && (!use_weight || h->weight >= 1))
            PROPERTY_CASE(*geometry,
                          ray_miss(h, &job, out.correction[i]) <=
                              RAY_TOL * ik_maxr(1, ik_vec3_distance(h->target, ik_mat4_translation(&h->joint_ms))),
                          "joint %d: the ray misses by %g", i, (double)ray_miss(h, &job, out.correction[i]));
    }
}

static void test_random_joints(void) {
    static head heads[MAX_JOINTS];
    rng r = rng_seeded(21);
    check_property same = {"batch aims equal ik_aim_run (mirrored, sheared parents, offsets)", 0, 0};
    check_property geometry = {"batch aims by FK: the ray passes through reached targets", 0, 0};
    int round, i;
    for (round = 0; round < 8; ++round) {
        ik_vec3 forward = round < 2 ? ik_v3(0, 0, 1) : ik_vec3_scale(rng_direction(&r), rng_range(&r, 0.5, 2));
        ik_vec3 up = round < 2 ? ik_v3(0, 1, 0) : rng_direction(&r);
        ik_vec3 offset = round == 0 ? ik_vec3_zero() : rng_in_ball(&r, 0.5);
        for (i = 0; i < MAX_JOINTS; ++i) head_random(&heads[i], &r, 1, 1);
        check_against_single(heads, MAX_JOINTS, round % 2 == 0, 0, forward, up, offset, &same, &geometry);
    }
    property_end(&same);
    property_end(&geometry);
}

static void test_weights_and_counts(void) {
    static head heads[64];
    static const int counts[] = {1, 2, 3, 5, 6, 7, 13, 64};
    rng r = rng_seeded(22);
    check_property same = {"weighted batch aims and tails equal ik_aim_run", 0, 0};
    check_property geometry = {"weighted batch aims and tails by FK", 0, 0};
    size_t k;
    int i;
    for (k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
        for (i = 0; i < 64; ++i) {
            head_random(&heads[i], &r, 1, 0);
            heads[i].weight = i % 3 == 0 ? 0 : i % 3 == 1 ? rng_range(&r, 0, 1) : 1;
        }
        check_against_single(heads, counts[k], 1, 1, ik_v3(0, 0, 1), ik_v3(0, 1, 0), ik_v3(0, (ik_real)0.1, 0), &same,
                             &geometry);
    }
    property_end(&same);
    property_end(&geometry);
}

/* Every count from 1 to 17 (less than a group of lanes, one group and a
 * part, two and one), with poles and without, with and without an eye
 * offset, equals ik_aim_run joint by joint; a NaN in one joint's target or
 * matrix (the last joint, then the middle one) fails that joint alone, as
 * the single job refuses it; nothing past the count is written. */
static void test_every_small_count(void) {
    enum { MOST = 17 };
    static head heads[MOST + 1];
    static batch_out out;
    ik_vec3 targets[MOST + 1], poles[MOST + 1];
    const ik_vec3 forward = ik_v3(0, 0, 1), up = ik_v3(0, 1, 0), eye = ik_v3(0, (ik_real)0.08, (ik_real)0.1);
    rng r = rng_seeded(25);
    check_property same = {"batches of 1 to 17 aims equal ik_aim_run, NaN joints refused alone", 0, 0};
    check_property geometry = {"batches of 1 to 17 aims by FK", 0, 0};
    ik_aim_batch job;
    int n, i, which;
    for (n = 1; n <= MOST; ++n) {
        for (i = 0; i <= n; ++i) head_random(&heads[i], &r, 1, 1);
        check_against_single(heads, n, 1, 0, forward, up, eye, &same, &geometry);
        check_against_single(heads, n, 0, 0, forward, up, ik_vec3_zero(), &same, &geometry);
        for (which = 0; which < 2; ++which) {
            int bad = which ? n / 2 : n - 1;
            head kept = heads[bad];
            if (which)
                heads[bad].joint_ms.m[6] = (ik_real)NAN;
            else
                heads[bad].target.x = (ik_real)NAN;
            check_against_single(heads, n, 1, 0, forward, up, eye, &same, &geometry);
            heads[bad] = kept;
        }
        out.correction[n] = ik_q(7, 7, 7, 7);
        out.reached[n] = 7;
        out.status[n] = IK_ERR_IO;
        job = batch_job(heads, n, targets, poles, NULL, &out);
        CHECK(ik_aim_batch_run(&job) == IK_OK && out.correction[n].x == 7 && out.reached[n] == 7 &&
                  out.status[n] == IK_ERR_IO,
              "%d joints: written past the count", n);
    }
    property_end(&same);
    property_end(&geometry);
}

static void test_degenerate(void) {
    static head heads[8];
    static batch_out out;
    ik_vec3 targets[8], poles[8];
    check_property same = {"degenerate batch aims equal ik_aim_run", 0, 0};
    check_property geometry = {"degenerate batch aims by FK", 0, 0};
    ik_aim_batch job;
    rng r = rng_seeded(23);
    int i, which;
    for (i = 0; i < 8; ++i) head_random(&heads[i], &r, 1, 0);
    heads[0].target = ik_mat4_translation(&heads[0].joint_ms);                             /* on the origin */
    heads[1].pole = ik_vec3_sub(heads[1].target, ik_mat4_translation(&heads[1].joint_ms)); /* pole on the aim line */
    heads[2].pole = ik_vec3_zero();                                                        /* no pole direction */
    heads[3].target = ik_vec3_mad(ik_mat4_translation(&heads[3].joint_ms),
                                  ik_mat4_transform_vector(&heads[3].joint_ms, ik_v3(0, 0, -1)), 2); /* right behind */
    heads[4].target =
        ik_mat4_transform_point(&heads[4].joint_ms, ik_v3(0, (ik_real)0.3, (ik_real)0.05)); /* inside the offset */
    /* 5, 6: past 170 degrees, a few degrees either side of straight behind the ray (ik_aim_run's split swing) */
    heads[5].target = ik_mat4_transform_point(&heads[5].joint_ms, ik_v3((ik_real)0.3, (ik_real)0.5, -8));
    heads[6].target = ik_mat4_transform_point(&heads[6].joint_ms, ik_v3(0, (ik_real)0.2, -8));
    check_against_single(heads, 8, 1, 0, ik_v3(0, 0, 1), ik_v3(0, 1, 0), ik_v3(0, (ik_real)0.5, 0), &same, &geometry);
    property_end(&same);
    property_end(&geometry);

    /* NaN and infinity: that joint alone fails, finite output */
    for (which = 0; which < 4; ++which) {
        for (i = 0; i < 8; ++i) head_random(&heads[i], &r, 0, 0);
        if (which == 0) heads[5].target.x = (ik_real)NAN;
        if (which == 1) heads[5].joint_ms.m[6] = (ik_real)NAN;
        if (which == 2) heads[5].joint_ms.m[15] = (ik_real)INFINITY;
        if (which == 3) heads[5].pole.y = (ik_real)NAN;
        job = batch_job(heads, 8, targets, poles, NULL, &out);
        CHECK(ik_aim_batch_run(&job) == IK_ERR_NONFINITE, "input %d", which);
        for (i = 0; i < 8; ++i) {
            CHECK(out.status[i] == (i == 5 ? IK_ERR_NONFINITE : IK_OK), "input %d joint %d: %s", which, i,
                  ik_result_str(out.status[i]));
            CHECK(quat_finite_unit(out.correction[i]), "input %d joint %d", which, i);
        }
    }
    /* a zero forward axis: every joint gets the single solver's error */
    for (i = 0; i < 8; ++i) head_random(&heads[i], &r, 0, 0);
    job = batch_job(heads, 8, targets, poles, NULL, &out);
    job.forward_ls = ik_vec3_zero();
    CHECK(ik_aim_batch_run(&job) == IK_ERR_DEGENERATE, "%s", "");
    for (i = 0; i < 8; ++i)
        CHECK(out.status[i] == IK_ERR_DEGENERATE && quat_finite_unit(out.correction[i]), "joint %d", i);
}

static void test_job_errors(void) {
    static head heads[4];
    static batch_out out;
    ik_vec3 targets[4];
    rng r = rng_seeded(24);
    ik_aim_batch job, zeroed;
    int i;
    for (i = 0; i < 4; ++i) head_random(&heads[i], &r, 0, 0);
    memset(&zeroed, 0, sizeof zeroed);
    CHECK(ik_aim_batch_run(NULL) == IK_ERR_NULL, "%s", "");
    CHECK(ik_aim_batch_run(&zeroed) == IK_ERR_NOT_DEFAULTED, "%s", "");
    job = batch_job(heads, 4, targets, NULL, NULL, &out);
    job.correction_ls = NULL;
    CHECK(ik_aim_batch_run(&job) == IK_ERR_NULL, "%s", "");
    job = batch_job(heads, -1, targets, NULL, NULL, &out);
    CHECK(ik_aim_batch_run(&job) == IK_ERR_RANGE, "%s", "");
    job = batch_job(heads, 4, targets, NULL, NULL, &out);
    job.joint_stride = 2;
    CHECK(ik_aim_batch_run(&job) == IK_ERR_RANGE, "%s", "");
    job = ik_aim_batch_def();
    CHECK(ik_aim_batch_run(&job) == IK_OK, "%s", "zero joints");
}

int main(void) {
    test_random_joints();
    test_weights_and_counts();
    test_every_small_count();
    test_degenerate();
    test_job_errors();
    return check_summary("aim_batch");
}

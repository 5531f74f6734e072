/* Batch two-bone IK against the single solver, limb by limb, and against
 * the geometry: forward kinematics of the corrected limb puts the end on the
 * target when it can be reached, and keeps the bones' lengths. */
#include <ikit/two_bone.h>
#include <ikit/two_bone_batch.h>
#include <string.h>

#include "support/batch_check.h"
#include "support/check.h"
#include "support/rng.h"

#ifdef IKIT_DOUBLE
#define SAME_TOL 1e-9
#define REACH_TOL 1e-9
#define LEN_TOL 1e-9
#else
#define SAME_TOL 2e-5f
#define REACH_TOL 1e-4f
#define LEN_TOL 2e-5f
#endif
#define MAX_LIMBS 4096

/* One limb as a caller keeps it: the local transforms of its joints under a
 * parent matrix, and the model matrices they give. The batch reads the
 * matrices through its stride (one limb struct apart). */
typedef struct limb {
    ik_mat4 model[3]; /* start, mid, end */
    ik_mat4 parent;
    ik_transform local[3];
    ik_vec3 target, pole;
    ik_real weight;
    ik_bool skewed; /* under a non-uniform scale: lengths are kept in the start's frame, not in model space */
} limb;

static void limb_fk(limb *L) {
    ik_mat4 local = ik_transform_to_mat4(L->local[0]);
    L->model[0] = ik_mat4_mul(&L->parent, &local);
    local = ik_transform_to_mat4(L->local[1]);
    L->model[1] = ik_mat4_mul(&L->model[0], &local);
    local = ik_transform_to_mat4(L->local[2]);
    L->model[2] = ik_mat4_mul(&L->model[1], &local);
}

static ik_real limb_length(const limb *L, int bone) {
    return ik_vec3_distance(ik_mat4_translation(&L->model[bone]), ik_mat4_translation(&L->model[bone + 1]));
}

/* A random limb under a random parent: rotation, position and a uniform
 * scale 0.5 to 2, mirrored on one axis or all three in `mirror` cases out
 * of 3 (mirror 0: never; else also a non-uniform scale in 1 of 16); bones 0.5 to 1.5 long (in the start's frame),
 * random joint rotations, a target 0 to 1.3 times the reach from the start,
 * a pole near the knee. */
static void limb_random(limb *L, rng *r, int mirror) {
    ik_real s;
    ik_vec3 scale = rng_parent_scale(r, mirror, &s);
    ik_real reach;
    memset(L, 0, sizeof *L);
    if (mirror && rng_unit(r) < 1.0 / 16) {
        scale.y *= rng_range(r, 0.5, 2);
        L->skewed = 1;
    }
    L->parent = ik_mat4_from_trs(rng_in_ball(r, 3), rng_rotation(r), scale);
    L->local[0] = ik_transform_make(rng_in_ball(r, 0.5), rng_rotation(r), ik_v3(1, 1, 1));
    L->local[1] = ik_transform_make(ik_v3(0, rng_range(r, 0.5, 1.5), 0), rng_rotation(r), ik_v3(1, 1, 1));
    L->local[2] = ik_transform_make(ik_v3(0, rng_range(r, 0.5, 1.5), 0), rng_rotation(r), ik_v3(1, 1, 1));
    limb_fk(L);
    reach = limb_length(L, 0) + limb_length(L, 1);
    L->target = ik_vec3_mad(ik_mat4_translation(&L->model[0]), rng_direction(r), reach * rng_range(r, 0, 1.3));
    L->pole = ik_vec3_mad(ik_mat4_translation(&L->model[1]), rng_direction(r), reach);
    L->weight = 1;
}

/* The batch job over limbs [count], reading matrices through the stride. */
typedef struct batch_out {
    ik_quat start[MAX_LIMBS], mid[MAX_LIMBS];
    ik_bool reached[MAX_LIMBS];
    ik_real residual[MAX_LIMBS];
    ik_result status[MAX_LIMBS];
} batch_out;

static ik_two_bone_batch batch_job(limb *limbs, int count, ik_vec3 *targets, ik_vec3 *poles, ik_real *weights,
                                   batch_out *out) {
    ik_two_bone_batch job = ik_two_bone_batch_def();
    int i;
    for (i = 0; i < count; ++i) {
        targets[i] = limbs[i].target;
        if (poles) poles[i] = limbs[i].pole;
        if (weights) weights[i] = limbs[i].weight;
    }
    job.count = count;
    job.start_ms = &limbs[0].model[0];
    job.mid_ms = &limbs[0].model[1];
    job.end_ms = &limbs[0].model[2];
    job.joint_stride = sizeof(limb);
    job.target_ms = targets;
    job.pole_ms = poles;
    job.weight = weights;
    job.start_correction_ls = out->start;
    job.mid_correction_ls = out->mid;
    job.reached = out->reached;
    job.residual = out->residual;
    job.status = out->status;
    return job;
}

/* The single solver on the same limb; its new local rotations. */
static ik_result single_solve(const limb *L, ik_bool use_pole, ik_real soften, ik_quat *start, ik_quat *mid,
                              ik_bool *reached, ik_real *residual) {
    ik_two_bone job = ik_two_bone_def();
    *start = L->local[0].rotation;
    *mid = L->local[1].rotation;
    job.start_ms = &L->model[0];
    job.mid_ms = &L->model[1];
    job.end_ms = &L->model[2];
    job.start_rotation_ls = start;
    job.mid_rotation_ls = mid;
    job.target_ms = L->target;
    job.use_pole = use_pole;
    job.pole_ms = L->pole;
    job.weight = L->weight;
    job.soften = soften;
    job.reached = reached;
    job.residual = residual;
    *reached = 0;
    *residual = -1;
    return ik_two_bone_run(&job);
}

/* Every limb of a batch run checked against ik_two_bone_run: status, the
 * new rotations (old * correction), reached and residual; then, applied,
 * by forward kinematics. */
static void check_against_single(limb *limbs, int count, ik_bool use_pole, ik_bool use_weight, ik_real soften,
                                 check_property *same, check_property *geometry) {
    static ik_vec3 targets[MAX_LIMBS], poles[MAX_LIMBS];
    static ik_real weights[MAX_LIMBS];
    static batch_out out;
    ik_two_bone_batch job =
        batch_job(limbs, count, targets, use_pole ? poles : NULL, use_weight ? weights : NULL, &out);
    ik_result whole;
    int i;
    job.soften = soften;
    whole = ik_two_bone_batch_run(&job);
    for (i = 0; i < count; ++i) {
        limb *L = &limbs[i];
        ik_quat start, mid;
        ik_bool reached;
        ik_real residual, l1 = limb_length(L, 0), l2 = limb_length(L, 1), full = l1 + l2;
        ik_real dist = ik_vec3_distance(L->target, ik_mat4_translation(&L->model[0]));
        ik_result r = single_solve(L, use_pole, soften, &start, &mid, &reached, &residual);
        ik_quat batch_start = ik_quat_mul(L->local[0].rotation, out.start[i]);
        ik_quat batch_mid = ik_quat_mul(L->local[1].rotation, out.mid[i]);
        PROPERTY_CASE(*same, out.status[i] == r, "limb %d: %s vs %s", i, ik_result_str(out.status[i]),
                      ik_result_str(r));
        PROPERTY_CASE(*same, quat_finite_unit(out.start[i]) && quat_finite_unit(out.mid[i]), "limb %d", i);
        if (r != IK_OK) {
            PROPERTY_CASE(*same, !out.reached[i] && whole != IK_OK, "limb %d", i);
            continue;
        }
        PROPERTY_CASE(*same, same_rotation(batch_start, start, SAME_TOL) && same_rotation(batch_mid, mid, SAME_TOL),
                      "limb %d: start (%g %g %g %g) vs (%g %g %g %g)", i, (double)batch_start.x, (double)batch_start.y,
                      (double)batch_start.z, (double)batch_start.w, (double)start.x, (double)start.y, (double)start.z,
                      (double)start.w);
        PROPERTY_CASE(*same, IK_FABS(out.residual[i] - residual) <= SAME_TOL * full * 4, "limb %d: residual %g vs %g",
                      i, (double)out.residual[i], (double)residual);
        /* reached may differ only where the residual sits on the tolerance */
        PROPERTY_CASE(
            *same, out.reached[i] == reached || IK_FABS(residual - job.reach_tolerance * full) <= SAME_TOL * full * 4,
            "limb %d", i);
        /* applied: the bones keep their lengths, the end lands where the
         * residual says, and on the target when it is well within reach */
        if (!L->skewed) {
            limb moved = *L;
            ik_vec3 end;
            moved.local[0].rotation = batch_start;
            moved.local[1].rotation = batch_mid;
            limb_fk(&moved);
            end = ik_mat4_translation(&moved.model[2]);
            PROPERTY_CASE(*geometry,
                          IK_FABS(limb_length(&moved, 0) - l1) <= LEN_TOL * full &&
                              IK_FABS(limb_length(&moved, 1) - l2) <= LEN_TOL * full,
                          "limb %d: lengths %g %g vs %g %g", i, (double)limb_length(&moved, 0),
                          (double)limb_length(&moved, 1), (double)l1, (double)l2);
            PROPERTY_CASE(*geometry, IK_FABS(ik_vec3_distance(end, L->target) - out.residual[i]) <= REACH_TOL * full,
                          "limb %d: end %g from target, residual %g", i, (double)ik_vec3_distance(end, L->target),
                          (double)out.residual[i]);
            if (soften == 0 && (!use_weight || L->weight >= 1) && dist <= full * (ik_real)0.999 &&
                dist >= IK_FABS(l1 - l2) + full * (ik_real)0.001)
                PROPERTY_CASE(*geometry, ik_vec3_distance(end, L->target) <= REACH_TOL * full && out.reached[i],
                              "limb %d: end %g from target", i, (double)ik_vec3_distance(end, L->target));
        }
    }
}

static void test_random_limbs(void) {
    static limb limbs[MAX_LIMBS];
    rng r = rng_seeded(16);
    check_property same = {"batch limbs equal ik_two_bone_run (mirrored parents, poles)", 0, 0};
    check_property geometry = {"batch corrections by FK: lengths kept, end on reachable targets", 0, 0};
    check_property same_no_pole = {"batch without poles equals ik_two_bone_run", 0, 0};
    int round, i;
    for (round = 0; round < 8; ++round) {
        for (i = 0; i < MAX_LIMBS; ++i) limb_random(&limbs[i], &r, 1);
        check_against_single(limbs, MAX_LIMBS, 1, 0, 0, &same, &geometry);
        check_against_single(limbs, MAX_LIMBS, 0, 0, 0, &same_no_pole, &geometry);
    }
    property_end(&same);
    property_end(&same_no_pole);
    property_end(&geometry);
}

/* Weights (0, between, 1) and soften go through the single solver or the
 * lanes; either way the answers are its own. */
static void test_weight_and_soften(void) {
    static limb limbs[MAX_LIMBS];
    rng r = rng_seeded(17);
    check_property same = {"weighted and softened batch limbs equal ik_two_bone_run", 0, 0};
    check_property geometry = {"weighted and softened batch limbs keep their lengths", 0, 0};
    int i, round;
    for (round = 0; round < 2; ++round) {
        for (i = 0; i < 1000; ++i) {
            limb_random(&limbs[i], &r, 1);
            limbs[i].weight = i % 3 == 0 ? 0 : i % 3 == 1 ? rng_range(&r, 0, 1) : 1;
        }
        check_against_single(limbs, 1000, 1, 1, round ? (ik_real)0.2 : 0, &same, &geometry);
    }
    property_end(&same);
    property_end(&geometry);
}

/* Counts that are not a multiple of four, and zero. */
static void test_counts(void) {
    static limb limbs[16];
    static const int counts[] = {1, 2, 3, 5, 6, 7, 13};
    static batch_out out;
    ik_vec3 targets[16];
    rng r = rng_seeded(18);
    check_property same = {"batch tails (1, 2, 3, 5, 6, 7, 13 limbs) equal ik_two_bone_run", 0, 0};
    check_property geometry = {"batch tails by FK", 0, 0};
    ik_two_bone_batch job;
    size_t k;
    int i;
    for (k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
        for (i = 0; i < 16; ++i) limb_random(&limbs[i], &r, 1);
        check_against_single(limbs, counts[k], 1, 0, 0, &same, &geometry);
    }
    property_end(&same);
    property_end(&geometry);

    /* nothing past the count is written */
    for (i = 0; i < 16; ++i) out.start[i] = ik_q(7, 7, 7, 7);
    job = batch_job(limbs, 5, targets, NULL, NULL, &out);
    CHECK(ik_two_bone_batch_run(&job) == IK_OK && out.start[5].x == 7 && out.start[4].x != 7, "%s", "");
    /* zero limbs: IK_OK, nothing read (NULL arrays allowed) or written */
    job = ik_two_bone_batch_def();
    CHECK(ik_two_bone_batch_run(&job) == IK_OK, "%s", "");
}

/* Every count from 1 to 17 (less than a group of lanes, one group and a
 * part, two and one), with poles and without, equals ik_two_bone_run limb
 * by limb; a NaN in one limb's target or matrix (the last limb, then the
 * middle one) fails that limb alone, as the single job refuses it; nothing
 * past the count is written. */
static void test_every_small_count(void) {
    enum { MOST = 17 };
    static limb limbs[MOST + 1];
    static batch_out out;
    ik_vec3 targets[MOST + 1], poles[MOST + 1];
    rng r = rng_seeded(24);
    check_property same = {"batches of 1 to 17 limbs equal ik_two_bone_run, NaN limbs refused alone", 0, 0};
    check_property geometry = {"batches of 1 to 17 limbs by FK", 0, 0};
    ik_two_bone_batch job;
    int n, i, which;
    for (n = 1; n <= MOST; ++n) {
        for (i = 0; i <= n; ++i) limb_random(&limbs[i], &r, 1);
        check_against_single(limbs, n, 1, 0, 0, &same, &geometry);
        check_against_single(limbs, n, 0, 0, 0, &same, &geometry);
        for (which = 0; which < 2; ++which) {
            int bad = which ? n / 2 : n - 1;
            limb kept = limbs[bad];
            if (which)
                limbs[bad].model[1].m[5] = (ik_real)NAN;
            else
                limbs[bad].target.y = (ik_real)NAN;
            check_against_single(limbs, n, 1, 0, 0, &same, &geometry);
            limbs[bad] = kept;
        }
        out.start[n] = out.mid[n] = ik_q(7, 7, 7, 7);
        out.reached[n] = 7;
        out.residual[n] = 7;
        out.status[n] = IK_ERR_IO;
        job = batch_job(limbs, n, targets, poles, NULL, &out);
        CHECK(ik_two_bone_batch_run(&job) == IK_OK && out.start[n].x == 7 && out.mid[n].w == 7 && out.reached[n] == 7 &&
                  out.residual[n] == 7 && out.status[n] == IK_ERR_IO,
              "%d limbs: written past the count", n);
    }
    property_end(&same);
    property_end(&geometry);
}

/* Named degenerate limbs, each beside random ones in the same group of four. */
static void test_degenerate(void) {
    static limb limbs[8];
    static batch_out out;
    ik_vec3 targets[8], poles[8];
    check_property same = {"degenerate batch limbs equal ik_two_bone_run", 0, 0};
    check_property geometry = {"degenerate batch limbs by FK", 0, 0};
    ik_two_bone_batch job;
    ik_real nan = (ik_real)NAN, inf = (ik_real)INFINITY;
    rng r = rng_seeded(19);
    int i;
    for (i = 0; i < 8; ++i) limb_random(&limbs[i], &r, 1);
    /* 0: straight limb, target nearer */
    limbs[0].local[1].rotation = limbs[0].local[2].rotation = ik_quat_identity();
    limb_fk(&limbs[0]);
    limbs[0].target =
        ik_vec3_lerp(ik_mat4_translation(&limbs[0].model[0]), ik_mat4_translation(&limbs[0].model[2]), (ik_real)0.7);
    /* 1: target exactly at full reach along the current end; 2: far over reach */
    limbs[1].target = ik_vec3_add(
        ik_mat4_translation(&limbs[1].model[0]),
        ik_vec3_scale(ik_vec3_normalize(ik_vec3_sub(limbs[1].target, ik_mat4_translation(&limbs[1].model[0]))),
                      limb_length(&limbs[1], 0) + limb_length(&limbs[1], 1)));
    limbs[2].target = ik_vec3_scale(limbs[2].target, 50);
    /* 3: pole on the start-to-target line */
    limbs[3].pole = ik_vec3_lerp(ik_mat4_translation(&limbs[3].model[0]), limbs[3].target, 2);
    /* 4: a zero-length lower bone; 5: the target on the start joint */
    limbs[4].local[2].translation = ik_vec3_zero();
    limb_fk(&limbs[4]);
    limbs[5].target = ik_mat4_translation(&limbs[5].model[0]);
    /* 6: the target straight behind the end, as far as it is (a half-turn
     * swing about any axis); 7: 3 degrees off that (a swing past 170
     * degrees, solved in the lanes) */
    for (i = 6; i < 8; ++i) {
        ik_vec3 a = ik_mat4_translation(&limbs[i].model[0]),
                ac = ik_vec3_sub(ik_mat4_translation(&limbs[i].model[2]), a);
        ik_quat off = ik_quat_from_axis_angle(ik_vec3_any_perpendicular(ik_vec3_normalize(ac)),
                                              i == 6 ? 0 : (ik_real)(3 * IK_PI / 180));
        limbs[i].target = ik_vec3_sub(a, ik_quat_rotate(off, ac));
    }
    check_against_single(limbs, 8, 1, 0, 0, &same, &geometry);
    property_end(&same);
    property_end(&geometry);
    job = batch_job(limbs, 8, targets, poles, NULL, &out);
    CHECK(ik_two_bone_batch_run(&job) == IK_OK, "%s", "");
    CHECK(out.reached[1] && out.residual[1] <= REACH_TOL * 4, "full reach: residual %g", (double)out.residual[1]);
    CHECK(!out.reached[2], "far over reach");

    /* NaN and infinity in each input: that limb alone fails, finite output */
    {
        int which;
        for (which = 0; which < 5; ++which) {
            limb bad[4];
            for (i = 0; i < 4; ++i) limb_random(&bad[i], &r, 0);
            if (which == 0) bad[2].target.y = nan;
            if (which == 1) bad[2].model[1].m[5] = nan;
            if (which == 2) bad[2].model[0].m[13] = inf;
            if (which == 3) bad[2].pole.z = nan;
            if (which == 4) bad[2].model[2].m[12] = -inf;
            job = batch_job(bad, 4, targets, poles, NULL, &out);
            CHECK(ik_two_bone_batch_run(&job) == IK_ERR_NONFINITE, "input %d", which);
            CHECK(out.status[2] == IK_ERR_NONFINITE && !out.reached[2], "input %d: %s", which,
                  ik_result_str(out.status[2]));
            CHECK(out.status[0] == IK_OK && out.status[1] == IK_OK && out.status[3] == IK_OK, "input %d", which);
            for (i = 0; i < 4; ++i)
                CHECK(quat_finite_unit(out.start[i]) && quat_finite_unit(out.mid[i]), "input %d limb %d", which, i);
        }
    }
}

static void test_job_errors(void) {
    static limb limbs[4];
    static batch_out out;
    ik_vec3 targets[4];
    rng r = rng_seeded(20);
    ik_two_bone_batch job, zeroed;
    int i;
    for (i = 0; i < 4; ++i) limb_random(&limbs[i], &r, 0);
    memset(&zeroed, 0, sizeof zeroed);
    CHECK(ik_two_bone_batch_run(NULL) == IK_ERR_NULL, "%s", "");
    CHECK(ik_two_bone_batch_run(&zeroed) == IK_ERR_NOT_DEFAULTED, "%s", "");
    job = batch_job(limbs, 4, targets, NULL, NULL, &out);
    job.target_ms = NULL;
    CHECK(ik_two_bone_batch_run(&job) == IK_ERR_NULL, "%s", "");
    job = batch_job(limbs, 4, targets, NULL, NULL, &out);
    job.mid_correction_ls = NULL;
    CHECK(ik_two_bone_batch_run(&job) == IK_ERR_NULL, "%s", "");
    job = batch_job(limbs, -1, targets, NULL, NULL, &out);
    CHECK(ik_two_bone_batch_run(&job) == IK_ERR_RANGE, "%s", "");
    job = batch_job(limbs, 4, targets, NULL, NULL, &out);
    job.joint_stride = 3;
    CHECK(ik_two_bone_batch_run(&job) == IK_ERR_RANGE, "%s", "");
    job = batch_job(limbs, 4, targets, NULL, NULL, &out);
    job.soften = 1;
    CHECK(ik_two_bone_batch_run(&job) == IK_ERR_RANGE, "%s", "");
    job.soften = (ik_real)NAN;
    CHECK(ik_two_bone_batch_run(&job) == IK_ERR_NONFINITE, "%s", "");
    /* packed arrays (stride 0) read the same as the strided ones */
    {
        ik_mat4 start[4], mid[4], end[4];
        ik_quat strided[4];
        for (i = 0; i < 4; ++i) {
            start[i] = limbs[i].model[0];
            mid[i] = limbs[i].model[1];
            end[i] = limbs[i].model[2];
        }
        job = batch_job(limbs, 4, targets, NULL, NULL, &out);
        CHECK(ik_two_bone_batch_run(&job) == IK_OK, "%s", "");
        memcpy(strided, out.start, sizeof strided);
        job.start_ms = start;
        job.mid_ms = mid;
        job.end_ms = end;
        job.joint_stride = 0;
        CHECK(ik_two_bone_batch_run(&job) == IK_OK && memcmp(strided, out.start, sizeof strided) == 0, "%s", "");
    }
}

int main(void) {
    test_random_limbs();
    test_weight_and_soften();
    test_counts();
    test_every_small_count();
    test_degenerate();
    test_job_errors();
    return check_summary("two_bone_batch");
}

/* Two-bone IK over arrays of limbs, rotations solved in place: the geometry
 * after the solve (forward kinematics puts each end on its target where it
 * can reach, bones keep their lengths, every rotation is a finite unit
 * quaternion), the batch lanes and the one-by-one path against the single
 * job, and the errors (NaN input, a zero rotation, the job's own). */
#include <ikit/two_bone.h>
#include <ikit/two_bone_in_place.h>
#include <string.h>

#include "support/batch_check.h"
#include "support/check.h"
#include "support/rng.h"

#ifdef IKIT_DOUBLE
#define SAME_TOL 1e-9
#define LAND_TOL 1e-9
#define LEN_TOL 1e-9
#else
#define SAME_TOL 2e-5f
#define LAND_TOL 2e-4f
#define LEN_TOL 2e-5f
#endif
/* More than two of the job's chunks of 64, and not a multiple of 8. */
#define LIMBS 203

/* The limbs as a caller holds them in arrays: each limb's parent matrix
 * and the local transforms of its start, mid and end joints, the model
 * matrices they give, targets and poles, and the rotations the job solves. */
typedef struct limbs {
    ik_mat4 parent[LIMBS];
    ik_transform local[LIMBS][3];
    ik_mat4 start_ms[LIMBS], mid_ms[LIMBS], end_ms[LIMBS];
    ik_vec3 target[LIMBS], pole[LIMBS];
    ik_quat start_rotation[LIMBS], mid_rotation[LIMBS];
    ik_bool reached[LIMBS];
    ik_real residual[LIMBS];
    ik_bool reachable[LIMBS];
} limbs;

/* Model matrices of limb i with the rotations `start` and `mid`. */
static void limb_fk(const limbs *L, int i, ik_quat start, ik_quat mid, ik_mat4 model[3]) {
    ik_transform t0 = L->local[i][0], t1 = L->local[i][1];
    ik_mat4 m;
    t0.rotation = start;
    t1.rotation = mid;
    m = ik_transform_to_mat4(t0);
    model[0] = ik_mat4_mul(&L->parent[i], &m);
    m = ik_transform_to_mat4(t1);
    model[1] = ik_mat4_mul(&model[0], &m);
    m = ik_transform_to_mat4(L->local[i][2]);
    model[2] = ik_mat4_mul(&model[1], &m);
}

static ik_real bone(const ik_mat4 model[3], int b) {
    return ik_vec3_distance(ik_mat4_translation(&model[b]), ik_mat4_translation(&model[b + 1]));
}

/* Random limbs under rotated, moved and uniformly scaled (0.5 to 2)
 * parents, bones 0.5 to 1.5; a target 0 to 1.3 reaches from the start
 * (reachable when within 0.98 of the reach and beyond the bones'
 * difference), a pole about the knee. */
static void limbs_random(limbs *L, rng *r) {
    int i;
    memset(L, 0, sizeof *L);
    for (i = 0; i < LIMBS; ++i) {
        ik_real s = rng_range(r, 0.5, 2), reach, shortest, d;
        ik_mat4 model[3];
        L->parent[i] = ik_mat4_from_trs(rng_in_ball(r, 3), rng_rotation(r), ik_v3(s, s, s));
        L->local[i][0] = ik_transform_make(rng_in_ball(r, 0.5), rng_rotation(r), ik_v3(1, 1, 1));
        L->local[i][1] = ik_transform_make(ik_v3(0, rng_range(r, 0.5, 1.5), 0), rng_rotation(r), ik_v3(1, 1, 1));
        L->local[i][2] = ik_transform_make(ik_v3(0, rng_range(r, 0.5, 1.5), 0), rng_rotation(r), ik_v3(1, 1, 1));
        limb_fk(L, i, L->local[i][0].rotation, L->local[i][1].rotation, model);
        L->start_ms[i] = model[0];
        L->mid_ms[i] = model[1];
        L->end_ms[i] = model[2];
        reach = bone(model, 0) + bone(model, 1);
        shortest = IK_FABS(bone(model, 0) - bone(model, 1));
        d = reach * rng_range(r, 0, 1.3);
        L->target[i] = ik_vec3_mad(ik_mat4_translation(&model[0]), rng_direction(r), d);
        L->reachable[i] = d <= (ik_real)0.98 * reach && d >= shortest + (ik_real)0.02 * reach;
        L->pole[i] = ik_vec3_mad(ik_mat4_translation(&model[1]), rng_direction(r), reach);
        L->start_rotation[i] = L->local[i][0].rotation;
        L->mid_rotation[i] = L->local[i][1].rotation;
    }
}

static ik_two_bone_in_place job_over(limbs *L, int count, ik_bool poles) {
    ik_two_bone_in_place job = ik_two_bone_in_place_def();
    job.count = count;
    job.start_ms = L->start_ms;
    job.mid_ms = L->mid_ms;
    job.end_ms = L->end_ms;
    job.target_ms = L->target;
    job.pole_ms = poles ? L->pole : NULL;
    job.start_rotation_ls = L->start_rotation;
    job.mid_rotation_ls = L->mid_rotation;
    job.reached = L->reached;
    job.residual = L->residual;
    return job;
}

/* Limb i through the single job with the same options. */
static ik_result single(const limbs *L, const ik_two_bone_in_place *job, int i, ik_quat *start, ik_quat *mid) {
    ik_two_bone one = job->limb;
    *start = L->local[i][0].rotation;
    *mid = L->local[i][1].rotation;
    one.start_ms = &L->start_ms[i];
    one.mid_ms = &L->mid_ms[i];
    one.end_ms = &L->end_ms[i];
    one.target_ms = L->target[i];
    if (job->pole_ms) {
        one.use_pole = 1;
        one.pole_ms = L->pole[i];
    }
    one.start_rotation_ls = start;
    one.mid_rotation_ls = mid;
    return ik_two_bone_run(&one);
}

/* After a solve of every limb: finite unit rotations, the single job's,
 * bones kept, reachable ends on their targets, residuals that say so. */
static void check_geometry(const char *name, limbs *L, const ik_two_bone_in_place *job) {
    check_property finite = {"finite unit rotations", 0, 0}, same = {"the single job's rotations", 0, 0};
    check_property lengths = {"bone lengths kept", 0, 0}, lands = {"reachable ends land", 0, 0};
    check_property residual = {"residual is the end's distance", 0, 0};
    ik_bool landing = job->limb.weight >= 1 && job->limb.soften == 0 && !job->limb.use_hinge;
    int i;
    if (job->count == 0) return;
    for (i = 0; i < job->count; ++i) {
        ik_mat4 before[3], after[3];
        ik_quat start, mid;
        ik_real miss;
        ik_result r = single(L, job, i, &start, &mid);
        limb_fk(L, i, L->local[i][0].rotation, L->local[i][1].rotation, before);
        limb_fk(L, i, L->start_rotation[i], L->mid_rotation[i], after);
        miss = ik_vec3_distance(ik_mat4_translation(&after[2]), L->target[i]);
        PROPERTY_CASE(finite, quat_finite_unit(L->start_rotation[i]) && quat_finite_unit(L->mid_rotation[i]),
                      "%s limb %d", name, i);
        PROPERTY_CASE(same,
                      r == IK_OK && same_rotation(start, L->start_rotation[i], SAME_TOL) &&
                          same_rotation(mid, L->mid_rotation[i], SAME_TOL),
                      "%s limb %d", name, i);
        PROPERTY_CASE(lengths,
                      IK_FABS(bone(after, 0) - bone(before, 0)) <= LEN_TOL * bone(before, 0) &&
                          IK_FABS(bone(after, 1) - bone(before, 1)) <= LEN_TOL * bone(before, 1),
                      "%s limb %d", name, i);
        if (L->reachable[i] && landing)
            PROPERTY_CASE(lands, miss <= LAND_TOL * (bone(before, 0) + bone(before, 1)) && L->reached[i],
                          "%s limb %d misses by %g", name, i, (double)miss);
        PROPERTY_CASE(residual, IK_FABS(L->residual[i] - miss) <= LAND_TOL * (bone(before, 0) + bone(before, 1)),
                      "%s limb %d: residual %g, end %g away", name, i, (double)L->residual[i], (double)miss);
    }
    property_end(&finite);
    property_end(&same);
    property_end(&lengths);
    if (landing) property_end(&lands);
    property_end(&residual);
}

/* The batch lanes (no pole, a pole per limb, soften) and the one-by-one
 * path (a hinge, a twist, a weight below 1, one shared pole). */
static void test_random_limbs(void) {
    static limbs L;
    rng r = rng_seeded(27);
    int round;
    for (round = 0; round < 7; ++round) {
        static const char *names[] = {"lanes", "lanes, poles", "lanes, soften", "hinge",
                                      "twist", "weight 0.5",   "shared pole"};
        ik_two_bone_in_place job;
        int failed = 7;
        ik_result result;
        limbs_random(&L, &r);
        job = job_over(&L, LIMBS, round == 1);
        job.failed_limb = &failed;
        if (round == 2) job.limb.soften = (ik_real)0.1;
        if (round == 3) {
            job.limb.use_hinge = 1;
            job.limb.min_bend = -IK_PI;
            job.limb.max_bend = IK_PI;
        }
        if (round == 4) job.limb.twist = (ik_real)0.3;
        if (round == 5) job.limb.weight = (ik_real)0.5;
        if (round == 6) {
            job.limb.use_pole = 1;
            job.limb.pole_ms = ik_v3(0, 0, 5);
        }
        result = ik_two_bone_in_place_run(&job);
        CHECK(result == IK_OK && failed == -1, "%s: %s, failed limb %d", names[round], ik_result_str(result), failed);
        check_geometry(names[round], &L, &job);
    }
}

/* A NaN target, a NaN rotation and a zero rotation stop the job at their
 * limb with the single job's code: the limbs before are solved, the limb's
 * reached is 0 and it and those after keep their rotations. On both paths. */
static void test_bad_limbs(void) {
    static limbs L, before;
    rng r = rng_seeded(2727);
    int path, bad;
    for (path = 0; path < 2; ++path) {
        for (bad = 0; bad < 3; ++bad) {
            int failed = -5, at = 70 + 10 * bad, i;
            ik_two_bone_in_place job;
            ik_result result, want = bad == 2 ? IK_ERR_DEGENERATE : IK_ERR_NONFINITE;
            ik_bool kept = 1, solved = 1;
            limbs_random(&L, &r);
            if (bad == 0) L.target[at].y = (ik_real)NAN;
            if (bad == 1) L.mid_rotation[at].x = (ik_real)NAN;
            if (bad == 2) L.start_rotation[at] = ik_q(0, 0, 0, 0);
            for (i = 0; i < LIMBS; ++i) L.reached[i] = 1;
            before = L;
            job = job_over(&L, LIMBS, 0);
            job.failed_limb = &failed;
            if (path == 1) job.limb.twist = (ik_real)0.2;
            result = ik_two_bone_in_place_run(&job);
            CHECK(result == want && failed == at, "path %d, bad %d: %s at limb %d", path, bad, ik_result_str(result),
                  failed);
            CHECK(L.reached[at] == 0, "path %d, bad %d: the failed limb's reached", path, bad);
            for (i = 0; i < LIMBS; ++i) {
                ik_bool same = !memcmp(&L.start_rotation[i], &before.start_rotation[i], sizeof(ik_quat)) &&
                               !memcmp(&L.mid_rotation[i], &before.mid_rotation[i], sizeof(ik_quat));
                if (i < at) solved = solved && !same && quat_finite_unit(L.start_rotation[i]);
                if (i >= at) kept = kept && same;
            }
            CHECK(solved && kept, "path %d, bad %d: solved before the limb %d, kept from it %d", path, bad, solved,
                  kept);
        }
    }
}

/* Limb counts around the chunks and the lanes: 0 to 9, 63 to 65, 128. */
static void test_counts(void) {
    static limbs L;
    static const int counts[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 63, 64, 65, 128};
    rng r = rng_seeded(7);
    size_t c;
    for (c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
        ik_two_bone_in_place job;
        limbs_random(&L, &r);
        job = job_over(&L, counts[c], 1);
        CHECK(ik_two_bone_in_place_run(&job) == IK_OK, "count %d", counts[c]);
        check_geometry("counts", &L, &job);
        CHECK(!memcmp(&L.start_rotation[counts[c]], &L.local[counts[c]][0].rotation, sizeof(ik_quat)),
              "count %d: the limb after the last untouched", counts[c]);
    }
}

static void test_job_errors(void) {
    static limbs L;
    ik_two_bone_in_place job, zero;
    rng r = rng_seeded(1);
    limbs_random(&L, &r);
    memset(&zero, 0, sizeof zero);
    CHECK(ik_two_bone_in_place_run(NULL) == IK_ERR_NULL, "NULL job");
    CHECK(ik_two_bone_in_place_run(&zero) == IK_ERR_NOT_DEFAULTED, "zeroed job");
    job = job_over(&L, 4, 0);
    job.limb.defaulted = 0;
    CHECK(ik_two_bone_in_place_run(&job) == IK_ERR_NOT_DEFAULTED, "zeroed limb options");
    job = job_over(&L, -1, 0);
    CHECK(ik_two_bone_in_place_run(&job) == IK_ERR_RANGE, "negative count");
    job = job_over(&L, 4, 0);
    job.limb.keep_end_rotation = 1;
    CHECK(ik_two_bone_in_place_run(&job) == IK_ERR_RANGE, "keep_end_rotation");
    job = job_over(&L, 4, 0);
    job.mid_rotation_ls = NULL;
    CHECK(ik_two_bone_in_place_run(&job) == IK_ERR_NULL, "no mid rotations");
    job = job_over(&L, 0, 0);
    job.start_ms = NULL;
    CHECK(ik_two_bone_in_place_run(&job) == IK_OK, "count 0 reads nothing");
    /* options the single job refuses: limb 0 fails with its code */
    job = job_over(&L, 4, 0);
    job.limb.soften = (ik_real)1.5;
    CHECK(ik_two_bone_in_place_run(&job) == IK_ERR_RANGE, "soften 1.5");
    job.limb.soften = (ik_real)NAN;
    CHECK(ik_two_bone_in_place_run(&job) == IK_ERR_NONFINITE, "NaN soften");
    job.limb.soften = 0;
    job.limb.reach_tolerance = (ik_real)INFINITY;
    CHECK(ik_two_bone_in_place_run(&job) == IK_ERR_NONFINITE, "infinite reach tolerance");
    CHECK(!memcmp(L.start_rotation, &L.local[0][0].rotation, sizeof(ik_quat)), "refused: limb 0 untouched");
}

int main(void) {
    test_random_limbs();
    test_bad_limbs();
    test_counts();
    test_job_errors();
    return check_summary("two_bone_in_place");
}

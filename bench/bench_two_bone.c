/* Two-bone IK speed: nanoseconds per solve and solves per second, median of
 * repeats, over 1,000,000 solves of random limbs (random start rotations,
 * bone lengths 0.5 to 1.5, targets at 0 to 1.2 times the chain length,
 * random poles), cycled through a pool of 4096 limbs that stays in cache,
 * each limb's job filled once. Also the worst reach error on reachable
 * targets.
 * "user-shaped": as a game calls it, a job filled with ik_two_bone_def() and
 * its fields and run in every call, over 2,000 distinct limbs under random
 * parent frames (random full rotations, positions, uniform scales 0.5 to
 * 2), with poles, each call the next limb (inputs streamed, 1,000,000
 * calls a repeat). Where the build was given ozz-animation's source
 * (-DIKIT_OZZ_DIR, float builds; see CMakeLists.txt), its IKTwoBoneJob runs
 * on the same limbs in the same program, the way its samples call it (a job
 * filled and run per limb, pole_vector the same pole as a direction from
 * the start joint, mid_axis, soften, weight and twist at their defaults,
 * its corrections multiplied into its own copy of the local rotations),
 * interleaved with ikit repeat by repeat (the order alternating), each
 * timed by the thread's CPU time; the ratio of the medians is printed.
 * Writes bench_two_bone.csv. Usage: bench_two_bone [VARIANT] to run one
 * variant only. */
#include "bench_util.h"

#include <string.h>

#include <ikit/two_bone.h>

#include "ozz_peer.h"
#include "support/rng.h"

#define POOL 4096
#define SWEEPS 244 /* 4096 * 244 = 999,424 solves per repeat */
#define REPEATS 9

typedef struct limb_input {
    ik_mat4 start_ms, mid_ms, end_ms;
    ik_quat rotation_ls[3];
    ik_vec3 target_ms, pole_ms;
    ik_real length;
} limb_input;

static void make_limbs(limb_input *limbs, rng *r) {
    int i;
    for (i = 0; i < POOL; ++i) {
        limb_input *L = &limbs[i];
        ik_real l1 = rng_range(r, 0.5, 1.5), l2 = rng_range(r, 0.5, 1.5);
        ik_mat4 local;
        L->rotation_ls[0] = rng_rotation(r);
        L->rotation_ls[1] = rng_rotation(r);
        L->rotation_ls[2] = rng_rotation(r);
        L->start_ms = ik_mat4_from_trs(rng_in_ball(r, 2), L->rotation_ls[0], ik_v3(1, 1, 1));
        local = ik_mat4_from_trs(ik_v3(0, l1, 0), L->rotation_ls[1], ik_v3(1, 1, 1));
        L->mid_ms = ik_mat4_mul(&L->start_ms, &local);
        local = ik_mat4_from_trs(ik_v3(0, l2, 0), L->rotation_ls[2], ik_v3(1, 1, 1));
        L->end_ms = ik_mat4_mul(&L->mid_ms, &local);
        L->length = l1 + l2;
        L->target_ms = ik_vec3_add(ik_mat4_translation(&L->start_ms),
                                   ik_vec3_scale(rng_direction(r), L->length * rng_range(r, 0, 1.2)));
        L->pole_ms = ik_vec3_add(ik_mat4_translation(&L->mid_ms), rng_direction(r));
    }
}

typedef struct variant {
    const char *name;
    ik_bool use_pole, use_hinge, keep_end_rotation;
} variant;

/* Median ns per solve for one job configuration over the pool. */
static double time_variant(limb_input *limbs, const variant *v, double *worst_error) {
    static ik_two_bone jobs[POOL];
    double samples[REPEATS];
    int i, rep, sweep;
    for (i = 0; i < POOL; ++i) {
        ik_two_bone *job = &jobs[i];
        *job = ik_two_bone_def();
        job->start_ms = &limbs[i].start_ms;
        job->mid_ms = &limbs[i].mid_ms;
        job->end_ms = &limbs[i].end_ms;
        job->start_rotation_ls = &limbs[i].rotation_ls[0];
        job->mid_rotation_ls = &limbs[i].rotation_ls[1];
        job->end_rotation_ls = &limbs[i].rotation_ls[2];
        job->target_ms = limbs[i].target_ms;
        job->use_pole = v->use_pole;
        job->pole_ms = limbs[i].pole_ms;
        job->use_hinge = v->use_hinge;
        job->keep_end_rotation = v->keep_end_rotation;
    }
    for (rep = 0; rep < REPEATS; ++rep) {
        double t0 = bench_now();
        for (sweep = 0; sweep < SWEEPS; ++sweep)
            for (i = 0; i < POOL; ++i) ik_two_bone_run(&jobs[i]);
        samples[rep] = (bench_now() - t0) * 1e9 / ((double)POOL * SWEEPS);
    }
    /* Accuracy: reachable targets only, relative to the chain length. */
    *worst_error = 0;
    for (i = 0; i < POOL; ++i) {
        ik_real residual = 0;
        ik_real dist = ik_vec3_distance(limbs[i].target_ms, ik_mat4_translation(&limbs[i].start_ms));
        jobs[i].residual = &residual;
        ik_two_bone_run(&jobs[i]);
        if (!v->use_hinge && dist <= limbs[i].length * (ik_real)0.999 && dist >= limbs[i].length * (ik_real)0.5 &&
            residual / limbs[i].length > *worst_error)
            *worst_error = residual / limbs[i].length;
    }
    return bench_median(samples, REPEATS);
}

#define USER_LIMBS 2000
#define USER_SWEEPS 500 /* 2,000 * 500 = 1,000,000 calls per repeat */

static void make_user_limbs(peer_limb *limbs, rng *r) {
    int i;
    for (i = 0; i < USER_LIMBS; ++i) {
        peer_limb *L = &limbs[i];
        ik_real s = rng_range(r, 0.5, 2), l1 = rng_range(r, 0.5, 1.5), l2 = rng_range(r, 0.5, 1.5);
        ik_mat4 parent = ik_mat4_from_trs(rng_in_ball(r, 3), rng_rotation(r), ik_v3(s, s, s)), local;
        L->start_rotation_ls = rng_rotation(r);
        L->mid_rotation_ls = rng_rotation(r);
        local = ik_mat4_from_trs(rng_in_ball(r, 0.5), L->start_rotation_ls, ik_v3(1, 1, 1));
        L->start_ms = ik_mat4_mul(&parent, &local);
        local = ik_mat4_from_trs(ik_v3(0, l1, 0), L->mid_rotation_ls, ik_v3(1, 1, 1));
        L->mid_ms = ik_mat4_mul(&L->start_ms, &local);
        local = ik_mat4_from_trs(ik_v3(0, l2, 0), rng_rotation(r), ik_v3(1, 1, 1));
        L->end_ms = ik_mat4_mul(&L->mid_ms, &local);
        L->target_ms =
            ik_vec3_mad(ik_mat4_translation(&L->start_ms), rng_direction(r), (l1 + l2) * s * rng_range(r, 0.2, 1.1));
        L->pole_ms = ik_vec3_mad(ik_mat4_translation(&L->mid_ms), rng_direction(r), s);
        L->pole_from_start_ms = ik_vec3_sub(L->pole_ms, ik_mat4_translation(&L->start_ms));
    }
}

/* One repeat of the user-shaped case: ns per call. */
static double user_shaped_repeat(peer_limb *limbs, int *failures) {
    int i, sweep;
    double t0 = bench_now();
    for (sweep = 0; sweep < USER_SWEEPS; ++sweep)
        for (i = 0; i < USER_LIMBS; ++i) {
            peer_limb *L = &limbs[i];
            ik_two_bone job = ik_two_bone_def();
            job.start_ms = &L->start_ms;
            job.mid_ms = &L->mid_ms;
            job.end_ms = &L->end_ms;
            job.start_rotation_ls = &L->start_rotation_ls;
            job.mid_rotation_ls = &L->mid_rotation_ls;
            job.target_ms = L->target_ms;
            job.use_pole = 1;
            job.pole_ms = L->pole_ms;
            *failures += ik_two_bone_run(&job) != IK_OK;
        }
    return (bench_now() - t0) * 1e9 / ((double)USER_LIMBS * USER_SWEEPS);
}

/* Median ns per call of the user-shaped case, and ozz's beside it (0 when
 * not built with it). */
static double time_user_shaped(peer_limb *limbs, double *ozz_ns) {
    double samples[REPEATS], checksum = 0;
    int i, rep, failures = 0;
#ifdef IKIT_BENCH_OZZ
    double ozz_samples[REPEATS];
    ozz_rotations *rotations = ozz_rotations_new(2 * USER_LIMBS);
    if (!rotations) return 0;
    for (i = 0; i < USER_LIMBS; ++i) {
        ozz_rotation_set(rotations, 2 * i, limbs[i].start_rotation_ls);
        ozz_rotation_set(rotations, 2 * i + 1, limbs[i].mid_rotation_ls);
    }
    for (rep = 0; rep < REPEATS; ++rep) {
        int first;
        for (first = 0; first < 2; ++first) {
            if ((first ^ rep) & 1) {
                int sweep;
                double t0 = bench_now();
                for (sweep = 0; sweep < USER_SWEEPS; ++sweep)
                    failures += ozz_two_bone_pass(limbs, USER_LIMBS, rotations);
                ozz_samples[rep] = (bench_now() - t0) * 1e9 / ((double)USER_LIMBS * USER_SWEEPS);
            } else {
                samples[rep] = user_shaped_repeat(limbs, &failures);
            }
        }
    }
    for (i = 0; i < 2 * USER_LIMBS; ++i) checksum += (double)ozz_rotation_w(rotations, i);
    ozz_rotations_free(rotations);
    *ozz_ns = bench_median(ozz_samples, REPEATS);
#else
    for (rep = 0; rep < REPEATS; ++rep) samples[rep] = user_shaped_repeat(limbs, &failures);
    *ozz_ns = 0;
#endif
    for (i = 0; i < USER_LIMBS; ++i) checksum += (double)limbs[i].start_rotation_ls.w;
    if (failures) printf("(%d runs failed)\n", failures);
    bench_sink = checksum + failures;
    return bench_median(samples, REPEATS);
}

int main(int argc, char **argv) {
    static limb_input limbs[POOL];
    static const variant variants[] = {
        {"pole", 1, 0, 0},
        {"no-pole", 0, 0, 0},
        {"hinge+pole", 1, 1, 0},
        {"pole+keep-end-rotation", 1, 0, 1},
    };
    rng r = rng_seeded(42);
    FILE *csv = fopen("bench_two_bone.csv", "w");
    size_t k;
    make_limbs(limbs, &r);
    if (csv) fprintf(csv, "solver,variant,scalar,solves,ns_per_solve,solves_per_second,worst_reach_error\n");
    printf("two-bone IK, %s, %d solves per repeat, median of %d repeats\n", BENCH_SCALAR, POOL * SWEEPS, REPEATS);
    printf("%-24s %12s %16s %18s\n", "variant", "ns/solve", "solves/s", "worst error/len");
    for (k = 0; k < sizeof variants / sizeof variants[0]; ++k) {
        double worst, ns;
        if (argc > 1 && strcmp(argv[1], variants[k].name) != 0) continue;
        ns = time_variant(limbs, &variants[k], &worst);
        printf("%-24s %12.1f %16.0f %18.2e\n", variants[k].name, ns, 1e9 / ns, worst);
        if (csv)
            fprintf(csv, "two_bone,%s,%s,%d,%.2f,%.0f,%.3e\n", variants[k].name, BENCH_SCALAR, POOL * SWEEPS, ns,
                    1e9 / ns, worst);
    }
    if (argc <= 1 || strcmp(argv[1], "user-shaped") == 0) {
        static peer_limb user_limbs[USER_LIMBS];
        double ns, ozz_ns;
        make_user_limbs(user_limbs, &r);
        ns = time_user_shaped(user_limbs, &ozz_ns);
        printf("%-24s %12.1f %16.0f %18s\n", "user-shaped", ns, 1e9 / ns, "-");
        if (csv)
            fprintf(csv, "two_bone,user-shaped,%s,%d,%.2f,%.0f,\n", BENCH_SCALAR, USER_LIMBS * USER_SWEEPS, ns,
                    1e9 / ns);
        if (ozz_ns > 0) {
            printf("%-24s %12.1f %16.0f %18s\n", "user-shaped: ozz", ozz_ns, 1e9 / ozz_ns, "-");
            printf(
                "ikit is %.2f times ozz-animation's speed (IKTwoBoneJob, same limbs, interleaved, thread CPU time)\n",
                ozz_ns / ns);
            if (csv)
                fprintf(csv, "ozz_two_bone,user-shaped,%s,%d,%.2f,%.0f,\n", BENCH_SCALAR, USER_LIMBS * USER_SWEEPS,
                        ozz_ns, 1e9 / ozz_ns);
        } else {
            printf(
                "skipped peer: ozz-animation (not built in: configure a float build with -DIKIT_OZZ_DIR=<its source>\n"
                "and -DIKIT_OZZ_BUILD_DIR=<where it was built>)\n");
        }
    }
    printf(
        "user-shaped: ik_two_bone_def() and the job filled in every call, 2,000 limbs under random parent\n"
        "frames, pole, each call the next limb; ozz's IKTwoBoneJob the same way where built in.\n");
    if (csv) fclose(csv);
    return 0;
}

/* Batch solvers against single calls: nanoseconds per solve, median of 9
 * repeats of about 1,000,000 solves, for batches of N = 1, 3, 4, 5, 7, 8
 * (small batches: a group of lanes or less, and one past it), 64, 1024
 * and 65536 limbs (each batch run over and over; the larger ones leave the
 * cache), and the single job on the same limbs (its job filled once per
 * limb, as bench_two_bone's pool protocol).
 * Two-bone: bench_two_bone's random limbs (random joint rotations, bones 0.5
 * to 1.5, targets at 0 to 1.2 times the reach, a pole near the knee), under
 * a parent with a random rotation and uniform scale 0.5 to 2.
 * Aim: a joint under a random parent (rotation, uniform scale 0.5 to 2),
 * forward +Z, up +Y, a random pole direction, a target 0.5 to 5 away and,
 * in half the joints, an eye offset.
 * Writes bench_batch.csv. Usage: bench_batch [two_bone|aim|all] [N,N,...]
 * (the batch sizes, 1 to 131072; default the list above). */
#include "bench_util.h"

#include <ikit/aim.h>
#include <ikit/aim_batch.h>
#include <ikit/two_bone.h>
#include <ikit/two_bone_batch.h>

#include "support/rng.h"

#define MAX_N 131072
/* The first this many limbs and heads are drawn as before N went past it, so
 * the smaller batches keep their figures. */
#define FIRST_DRAW 65536
#define SOLVES 1000000
#define REPEATS 9

#define MAX_SIZES 32

static const int default_sizes[] = {1, 3, 4, 5, 7, 8, 64, 1024, 65536};

typedef struct limb {
    ik_mat4 model[3];
} limb;

static limb limbs[MAX_N];
static ik_quat rotation_ls[MAX_N][2];
static ik_vec3 targets[MAX_N], poles[MAX_N];
static ik_quat start_out[MAX_N], mid_out[MAX_N];
static ik_bool reached[MAX_N];

/* Limbs first to end - 1. */
static void make_limbs(rng *r, int first, int end) {
    int i;
    for (i = first; i < end; ++i) {
        ik_real s = rng_range(r, 0.5, 2), l1 = rng_range(r, 0.5, 1.5), l2 = rng_range(r, 0.5, 1.5);
        ik_mat4 parent = ik_mat4_from_trs(rng_in_ball(r, 3), rng_rotation(r), ik_v3(s, s, s)), local;
        rotation_ls[i][0] = rng_rotation(r);
        rotation_ls[i][1] = rng_rotation(r);
        local = ik_mat4_from_trs(rng_in_ball(r, 0.5), rotation_ls[i][0], ik_v3(1, 1, 1));
        limbs[i].model[0] = ik_mat4_mul(&parent, &local);
        local = ik_mat4_from_trs(ik_v3(0, l1, 0), rotation_ls[i][1], ik_v3(1, 1, 1));
        limbs[i].model[1] = ik_mat4_mul(&limbs[i].model[0], &local);
        local = ik_mat4_from_trs(ik_v3(0, l2, 0), rng_rotation(r), ik_v3(1, 1, 1));
        limbs[i].model[2] = ik_mat4_mul(&limbs[i].model[1], &local);
        targets[i] = ik_vec3_mad(ik_mat4_translation(&limbs[i].model[0]), rng_direction(r),
                                 (l1 + l2) * s * rng_range(r, 0, 1.2));
        poles[i] = ik_vec3_mad(ik_mat4_translation(&limbs[i].model[1]), rng_direction(r), s);
    }
}

static double two_bone_batch_ns(int n) {
    ik_two_bone_batch job = ik_two_bone_batch_def();
    double samples[REPEATS];
    int rep, sweep, sweeps = SOLVES / n;
    job.count = n;
    job.start_ms = &limbs[0].model[0];
    job.mid_ms = &limbs[0].model[1];
    job.end_ms = &limbs[0].model[2];
    job.joint_stride = sizeof(limb);
    job.target_ms = targets;
    job.pole_ms = poles;
    job.start_correction_ls = start_out;
    job.mid_correction_ls = mid_out;
    job.reached = reached;
    for (rep = 0; rep < REPEATS; ++rep) {
        double t0 = bench_now();
        for (sweep = 0; sweep < sweeps; ++sweep) ik_two_bone_batch_run(&job);
        samples[rep] = (bench_now() - t0) * 1e9 / ((double)n * sweeps);
    }
    bench_sink = (double)start_out[n - 1].w;
    return bench_median(samples, REPEATS);
}

/* The single job per limb, filled once (rotations are solved in place
 * from copies, as a game would each frame). */
static double two_bone_single_ns(int n) {
    static ik_two_bone jobs[MAX_N];
    static ik_quat rot[MAX_N][2];
    double samples[REPEATS];
    int i, rep, sweep, sweeps = SOLVES / n;
    for (i = 0; i < n; ++i) {
        ik_two_bone *job = &jobs[i];
        *job = ik_two_bone_def();
        job->start_ms = &limbs[i].model[0];
        job->mid_ms = &limbs[i].model[1];
        job->end_ms = &limbs[i].model[2];
        rot[i][0] = rotation_ls[i][0];
        rot[i][1] = rotation_ls[i][1];
        job->start_rotation_ls = &rot[i][0];
        job->mid_rotation_ls = &rot[i][1];
        job->target_ms = targets[i];
        job->use_pole = 1;
        job->pole_ms = poles[i];
        job->reached = &reached[i];
    }
    for (rep = 0; rep < REPEATS; ++rep) {
        double t0 = bench_now();
        for (sweep = 0; sweep < sweeps; ++sweep)
            for (i = 0; i < n; ++i) ik_two_bone_run(&jobs[i]);
        samples[rep] = (bench_now() - t0) * 1e9 / ((double)n * sweeps);
    }
    bench_sink = (double)rot[n - 1][0].w;
    return bench_median(samples, REPEATS);
}

typedef struct head {
    ik_mat4 joint_ms;
} head;

static head heads[MAX_N];
static ik_vec3 head_targets[MAX_N], head_poles[MAX_N];
static ik_quat corrections[MAX_N];
static const ik_vec3 eye_offset = {0, (ik_real)0.08, (ik_real)0.1};

/* Heads first to end - 1. */
static void make_heads(rng *r, int first, int end) {
    int i;
    for (i = first; i < end; ++i) {
        ik_real s = rng_range(r, 0.5, 2);
        ik_mat4 parent = ik_mat4_from_trs(rng_in_ball(r, 3), rng_rotation(r), ik_v3(s, s, s)), local;
        local = ik_mat4_from_trs(rng_in_ball(r, 1), rng_rotation(r), ik_v3(1, 1, 1));
        heads[i].joint_ms = ik_mat4_mul(&parent, &local);
        head_targets[i] = ik_vec3_mad(ik_mat4_translation(&heads[i].joint_ms), rng_direction(r), rng_range(r, 0.5, 5));
        head_poles[i] = rng_direction(r);
    }
}

/* offset: the eye offset for every joint (the batch shares its axes) */
static double aim_batch_ns(int n, ik_bool offset) {
    ik_aim_batch job = ik_aim_batch_def();
    double samples[REPEATS];
    int rep, sweep, sweeps = SOLVES / n;
    job.count = n;
    job.joint_ms = &heads[0].joint_ms;
    job.joint_stride = sizeof(head);
    job.target_ms = head_targets;
    job.pole_ms = head_poles;
    if (offset) job.offset_ls = eye_offset;
    job.correction_ls = corrections;
    job.reached = reached;
    for (rep = 0; rep < REPEATS; ++rep) {
        double t0 = bench_now();
        for (sweep = 0; sweep < sweeps; ++sweep) ik_aim_batch_run(&job);
        samples[rep] = (bench_now() - t0) * 1e9 / ((double)n * sweeps);
    }
    bench_sink = (double)corrections[n - 1].w;
    return bench_median(samples, REPEATS);
}

static double aim_single_ns(int n, ik_bool offset) {
    static ik_aim jobs[MAX_N];
    double samples[REPEATS];
    int i, rep, sweep, sweeps = SOLVES / n;
    for (i = 0; i < n; ++i) {
        jobs[i] = ik_aim_def();
        jobs[i].joint_ms = &heads[i].joint_ms;
        jobs[i].target_ms = head_targets[i];
        jobs[i].pole_ms = head_poles[i];
        if (offset) jobs[i].offset_ls = eye_offset;
        jobs[i].correction_ls = &corrections[i];
        jobs[i].reached = &reached[i];
    }
    for (rep = 0; rep < REPEATS; ++rep) {
        double t0 = bench_now();
        for (sweep = 0; sweep < sweeps; ++sweep)
            for (i = 0; i < n; ++i) ik_aim_run(&jobs[i]);
        samples[rep] = (bench_now() - t0) * 1e9 / ((double)n * sweeps);
    }
    bench_sink = (double)corrections[n - 1].w;
    return bench_median(samples, REPEATS);
}

/* "N,N,..." into sizes (1 to MAX_N each); the count, or 0 when malformed. */
static int parse_sizes(const char *text, int *sizes) {
    int count = 0;
    char *end;
    while (*text && count < MAX_SIZES) {
        long n = strtol(text, &end, 10);
        if (end == text || n < 1 || n > MAX_N || (*end && *end != ',')) return 0;
        sizes[count++] = (int)n;
        text = *end ? end + 1 : end;
    }
    return *text ? 0 : count;
}

int main(int argc, char **argv) {
    const char *only = argc > 1 && strcmp(argv[1], "all") != 0 ? argv[1] : NULL;
    FILE *csv;
    rng r = rng_seeded(42);
    int sizes[MAX_SIZES], size_count = (int)(sizeof default_sizes / sizeof default_sizes[0]), k;
    memcpy(sizes, default_sizes, sizeof default_sizes);
    if (argc > 2 && !(size_count = parse_sizes(argv[2], sizes))) {
        fprintf(stderr, "bench_batch: sizes '%s': give N,N,... each 1 to %d\n", argv[2], MAX_N);
        return 2;
    }
    csv = fopen("bench_batch.csv", "w");
    make_limbs(&r, 0, FIRST_DRAW);
    make_heads(&r, 0, FIRST_DRAW);
    make_limbs(&r, FIRST_DRAW, MAX_N);
    make_heads(&r, FIRST_DRAW, MAX_N);
    if (csv) fprintf(csv, "solver,form,scalar,n,ns_per_solve\n");
    printf("batch vs single, %s, about %d solves a repeat, median of %d repeats\n", BENCH_SCALAR, SOLVES, REPEATS);
    printf("%-10s %8s %14s %14s %8s\n", "solver", "n", "batch ns", "single ns", "ratio");
    for (k = 0; k < size_count; ++k) {
        int n = sizes[k];
        if (!only || strcmp(only, "two_bone") == 0) {
            double batch = two_bone_batch_ns(n), single = two_bone_single_ns(n);
            printf("%-10s %8d %14.1f %14.1f %8.2f\n", "two_bone", n, batch, single, single / batch);
            if (csv)
                fprintf(csv, "two_bone,batch,%s,%d,%.2f\ntwo_bone,single,%s,%d,%.2f\n", BENCH_SCALAR, n, batch,
                        BENCH_SCALAR, n, single);
        }
        if (!only || strcmp(only, "aim") == 0) {
            int offset;
            for (offset = 0; offset < 2; ++offset) {
                const char *name = offset ? "aim+eye" : "aim";
                double batch = aim_batch_ns(n, offset), single = aim_single_ns(n, offset);
                printf("%-10s %8d %14.1f %14.1f %8.2f\n", name, n, batch, single, single / batch);
                if (csv)
                    fprintf(csv, "%s,batch,%s,%d,%.2f\n%s,single,%s,%d,%.2f\n", name, BENCH_SCALAR, n, batch, name,
                            BENCH_SCALAR, n, single);
            }
        }
    }
    if (csv) fclose(csv);
    return 0;
}

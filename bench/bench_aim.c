/* Aim speed: nanoseconds per solve and solves per second, median of repeats.
 *
 * Cases: random joint matrices (random parent and local rotations,
 * translations, uniform scales), random forward and up axes, offsets in a
 * ball of radius 0.5, targets 0.05 to 10 away, random poles.
 *  - "pool": 1,000,000 single calls cycling through 4,096 cases that stay in
 *    cache (how ozz-animation's IKAimJob figure of ~67 ns is usually quoted);
 *  - "stream": 1,000,000 distinct cases, each called once per repeat, so
 *    memory traffic is included;
 *  - the look-at chain over spine, neck and head of a five-joint body, the
 *    pose and model matrices reset from one of 1,024 random start poses
 *    before each call (the reset alone is timed too);
 *  - "user-shaped": as a game calls it, a job filled with ik_aim_def() and
 *    its fields and run in every call, over 2,000 distinct heads under
 *    random parent frames (random full rotations, positions, unit scale),
 *    forward +Z, up +Y, an eye offset and a pole, each call the next head
 *    (inputs streamed, 1,000,000 calls a repeat). Where the build was given
 *    ozz-animation's source (-DIKIT_OZZ_DIR, float builds; see
 *    CMakeLists.txt), its IKAimJob runs on the same heads in the same
 *    program (a job filled and run per head with the same forward, up,
 *    offset and pole, its correction multiplied into its own copy of the
 *    local rotation), interleaved with ikit repeat by repeat (the order
 *    alternating), each timed by the thread's CPU time; the ratio of the
 *    medians is printed.
 * Writes bench_aim.csv. */
#include "bench_util.h"

#include <ikit/aim.h>
#include <ikit/look_at_chain.h>
#include <string.h>

#include "ozz_peer.h"
#include "support/rng.h"

#define POOL 4096
#define SWEEPS 244 /* 4096 * 244 = 999,424 solves per repeat */
#define STREAM 1000000
#define REPEATS 9
#define CHAIN_POOL 1024
#define CHAIN_SOLVES 200000
#define CHAIN_REPEATS 7

typedef struct aim_input {
    ik_mat4 joint_ms;
    ik_quat rotation_ls;
    ik_vec3 target_ms, pole_ms, forward_ls, up_ls, offset_ls;
    ik_real twist, weight;
} aim_input;

static void make_cases(aim_input *cases, int count, rng *r) {
    int i;
    for (i = 0; i < count; ++i) {
        aim_input *c = &cases[i];
        ik_real ps = rng_range(r, 0.5, 2), ls = rng_range(r, 0.5, 2);
        ik_mat4 parent = ik_mat4_from_trs(rng_in_ball(r, 3), rng_rotation(r), ik_v3(ps, ps, ps)), local;
        c->rotation_ls = rng_rotation(r);
        local = ik_mat4_from_trs(rng_in_ball(r, 1), c->rotation_ls, ik_v3(ls, ls, ls));
        c->joint_ms = ik_mat4_mul(&parent, &local);
        c->forward_ls = rng_direction(r);
        c->up_ls = rng_direction(r);
        c->offset_ls = rng_in_ball(r, 0.5);
        c->target_ms = ik_vec3_mad(ik_mat4_translation(&c->joint_ms), rng_direction(r), rng_range(r, 0.05, 10));
        c->pole_ms = rng_direction(r);
        c->twist = rng_range(r, -3, 3);
        c->weight = rng_range(r, 0.05, 0.95);
    }
}

static void make_jobs(ik_aim *jobs, aim_input *cases, int count, ik_bool twist_and_weight) {
    int i;
    for (i = 0; i < count; ++i) {
        ik_aim *job = &jobs[i];
        aim_input *c = &cases[i];
        *job = ik_aim_def();
        job->joint_ms = &c->joint_ms;
        job->target_ms = c->target_ms;
        job->pole_ms = c->pole_ms;
        job->forward_ls = c->forward_ls;
        job->up_ls = c->up_ls;
        job->offset_ls = c->offset_ls;
        job->rotation_ls = &c->rotation_ls;
        if (twist_and_weight) {
            job->twist = c->twist;
            job->weight = c->weight;
        }
    }
}

typedef struct timing {
    double median_ns, min_ns, max_ns;
} timing;

static timing summarise(double *samples, int count) {
    timing t;
    t.median_ns = bench_median(samples, count);
    t.min_ns = samples[0];
    t.max_ns = samples[count - 1];
    return t;
}

static timing time_pool(aim_input *cases, ik_bool twist_and_weight) {
    static ik_aim jobs[POOL];
    double samples[REPEATS];
    int i, rep, sweep, failures = 0;
    make_jobs(jobs, cases, POOL, twist_and_weight);
    for (rep = 0; rep < REPEATS; ++rep) {
        double t0 = bench_now();
        for (sweep = 0; sweep < SWEEPS; ++sweep)
            for (i = 0; i < POOL; ++i) failures += ik_aim_run(&jobs[i]) != IK_OK;
        samples[rep] = (bench_now() - t0) * 1e9 / ((double)POOL * SWEEPS);
    }
    bench_sink = failures;
    return summarise(samples, REPEATS);
}

static timing time_stream(aim_input *cases, ik_aim *jobs) {
    double samples[REPEATS];
    int i, rep, failures = 0;
    make_jobs(jobs, cases, STREAM, 0);
    for (rep = 0; rep < REPEATS; ++rep) {
        double t0 = bench_now();
        for (i = 0; i < STREAM; ++i) failures += ik_aim_run(&jobs[i]) != IK_OK;
        samples[rep] = (bench_now() - t0) * 1e9 / (double)STREAM;
    }
    bench_sink = failures;
    return summarise(samples, REPEATS);
}

/* pelvis, spine, chest, neck, head; the chain is spine, neck, head. */
enum { BODY_JOINTS = 5 };
static const int body_parents[BODY_JOINTS] = {-1, 0, 1, 2, 3};

typedef struct chain_start {
    ik_transform pose_ls[BODY_JOINTS];
    ik_mat4 model_ms[BODY_JOINTS];
    ik_vec3 target_ms;
} chain_start;

static void time_chain(timing *solve, timing *reset) {
    static chain_start starts[CHAIN_POOL];
    static const ik_real offsets[BODY_JOINTS] = {1, 0.2f, 0.2f, 0.25f, 0.1f};
    static const int joints[3] = {1, 3, 4};
    static const ik_real weights[3] = {0.3f, 0.5f, 1};
    ik_transform rest_ls[BODY_JOINTS], pose_ls[BODY_JOINTS];
    ik_mat4 model_ms[BODY_JOINTS];
    ik_skeleton sk;
    ik_look_at_chain job = ik_look_at_chain_def();
    double solve_samples[CHAIN_REPEATS], reset_samples[CHAIN_REPEATS], checksum = 0;
    rng r = rng_seeded(7);
    int i, k, rep;
    for (k = 0; k < BODY_JOINTS; ++k)
        rest_ls[k] = ik_transform_make(ik_v3(0, offsets[k], 0), ik_quat_identity(), ik_v3(1, 1, 1));
    ik_skeleton_init(&sk, BODY_JOINTS, body_parents, NULL, rest_ls, NULL);
    for (i = 0; i < CHAIN_POOL; ++i) {
        chain_start *s = &starts[i];
        ik_skeleton_rest_pose(&sk, s->pose_ls);
        for (k = 0; k < BODY_JOINTS; ++k)
            s->pose_ls[k].rotation = ik_quat_from_axis_angle(rng_direction(&r), rng_range(&r, 0, 1));
        ik_skeleton_fk(&sk, s->pose_ls, NULL, s->model_ms);
        s->target_ms = ik_vec3_mad(ik_mat4_translation(&s->model_ms[4]), rng_direction(&r), rng_range(&r, 0.5, 5));
    }
    job.skeleton = &sk;
    job.pose_ls = pose_ls;
    job.model_ms = model_ms;
    job.joints = joints;
    job.weights = weights;
    job.count = 3;
    job.offset_ls = ik_v3(0, 0.05f, 0.1f);
    for (rep = 0; rep < CHAIN_REPEATS; ++rep) {
        double t0 = bench_now();
        for (i = 0; i < CHAIN_SOLVES; ++i) {
            const chain_start *s = &starts[i % CHAIN_POOL];
            memcpy(pose_ls, s->pose_ls, sizeof pose_ls);
            memcpy(model_ms, s->model_ms, sizeof model_ms);
            checksum += (double)model_ms[4].m[12];
        }
        reset_samples[rep] = (bench_now() - t0) * 1e9 / CHAIN_SOLVES;
        t0 = bench_now();
        for (i = 0; i < CHAIN_SOLVES; ++i) {
            const chain_start *s = &starts[i % CHAIN_POOL];
            memcpy(pose_ls, s->pose_ls, sizeof pose_ls);
            memcpy(model_ms, s->model_ms, sizeof model_ms);
            job.target_ms = s->target_ms;
            ik_look_at_chain_run(&job);
            checksum += (double)model_ms[4].m[12];
        }
        solve_samples[rep] = (bench_now() - t0) * 1e9 / CHAIN_SOLVES;
    }
    bench_sink = checksum;
    *solve = summarise(solve_samples, CHAIN_REPEATS);
    *reset = summarise(reset_samples, CHAIN_REPEATS);
}

#define USER_HEADS 2000
#define USER_SWEEPS 500 /* 2,000 * 500 = 1,000,000 calls per repeat */

static const ik_vec3 user_offset_ls = {0.07f, 0.1f, 0};

static void make_user_heads(peer_head *heads, rng *r) {
    int i;
    for (i = 0; i < USER_HEADS; ++i) {
        peer_head *h = &heads[i];
        ik_mat4 parent = ik_mat4_from_trs(rng_in_ball(r, 3), rng_rotation(r), ik_v3(1, 1, 1)), local;
        h->rotation_ls = rng_rotation(r);
        local = ik_mat4_from_trs(ik_v3(0, 0.25f, 0), h->rotation_ls, ik_v3(1, 1, 1));
        h->joint_ms = ik_mat4_mul(&parent, &local);
        h->target_ms = ik_vec3_mad(ik_mat4_translation(&h->joint_ms), rng_direction(r), rng_range(r, 0.5, 10));
        h->pole_ms = rng_direction(r);
    }
}

static double user_shaped_repeat(peer_head *heads, int *failures) {
    int i, sweep;
    double t0 = bench_now();
    for (sweep = 0; sweep < USER_SWEEPS; ++sweep)
        for (i = 0; i < USER_HEADS; ++i) {
            peer_head *h = &heads[i];
            ik_aim job = ik_aim_def();
            job.joint_ms = &h->joint_ms;
            job.target_ms = h->target_ms;
            job.forward_ls = ik_v3(0, 0, 1);
            job.up_ls = ik_v3(0, 1, 0);
            job.offset_ls = user_offset_ls;
            job.pole_ms = h->pole_ms;
            job.rotation_ls = &h->rotation_ls;
            *failures += ik_aim_run(&job) != IK_OK;
        }
    return (bench_now() - t0) * 1e9 / ((double)USER_HEADS * USER_SWEEPS);
}

/* ikit's timing of the user-shaped case, and ozz's median ns beside it (0
 * when not built with it). */
static timing time_user_shaped(peer_head *heads, double *ozz_ns) {
    double samples[REPEATS], checksum = 0;
    int i, rep, failures = 0;
#ifdef IKIT_BENCH_OZZ
    double ozz_samples[REPEATS];
    ozz_rotations *rotations = ozz_rotations_new(USER_HEADS);
    if (rotations)
        for (i = 0; i < USER_HEADS; ++i) ozz_rotation_set(rotations, i, heads[i].rotation_ls);
    for (rep = 0; rep < REPEATS; ++rep) {
        int first;
        for (first = 0; first < 2; ++first) {
            if ((first ^ rep) & 1) {
                int sweep;
                double t0 = bench_now();
                for (sweep = 0; rotations && sweep < USER_SWEEPS; ++sweep)
                    failures += ozz_aim_pass(heads, USER_HEADS, user_offset_ls, rotations);
                ozz_samples[rep] = (bench_now() - t0) * 1e9 / ((double)USER_HEADS * USER_SWEEPS);
            } else {
                samples[rep] = user_shaped_repeat(heads, &failures);
            }
        }
    }
    for (i = 0; rotations && i < USER_HEADS; ++i) checksum += (double)ozz_rotation_w(rotations, i);
    *ozz_ns = rotations ? bench_median(ozz_samples, REPEATS) : 0;
    ozz_rotations_free(rotations);
#else
    for (rep = 0; rep < REPEATS; ++rep) samples[rep] = user_shaped_repeat(heads, &failures);
    *ozz_ns = 0;
#endif
    for (i = 0; i < USER_HEADS; ++i) checksum += (double)heads[i].rotation_ls.w;
    if (failures) printf("(%d runs failed)\n", failures);
    bench_sink = checksum + failures;
    return summarise(samples, REPEATS);
}

static void report(FILE *csv, const char *solver, const char *variant, long solves, timing t) {
    printf("%-12s %-34s %10.1f %14.0f %9.1f %9.1f\n", solver, variant, t.median_ns, 1e9 / t.median_ns, t.min_ns,
           t.max_ns);
    if (csv)
        fprintf(csv, "%s,\"%s\",%s,%ld,%.2f,%.0f,%.2f,%.2f\n", solver, variant, BENCH_SCALAR, solves, t.median_ns,
                1e9 / t.median_ns, t.min_ns, t.max_ns);
}

int main(void) {
    static aim_input pool[POOL];
    aim_input *stream = malloc(sizeof *stream * STREAM);
    ik_aim *stream_jobs = malloc(sizeof *stream_jobs * STREAM);
    FILE *csv = fopen("bench_aim.csv", "w");
    timing chain, reset;
    rng r = rng_seeded(42);
    if (!stream || !stream_jobs) return 1;
    make_cases(pool, POOL, &r);
    make_cases(stream, STREAM, &r);
    if (csv) fprintf(csv, "solver,variant,scalar,solves,ns_per_solve,solves_per_second,min_ns,max_ns\n");
    printf("aim, %s, median of %d repeats (look-at chain: %d)\n", BENCH_SCALAR, REPEATS, CHAIN_REPEATS);
    printf("%-12s %-34s %10s %14s %9s %9s\n", "solver", "variant", "ns/solve", "solves/s", "min ns", "max ns");
    report(csv, "aim", "pool: offset+pole", (long)POOL * SWEEPS, time_pool(pool, 0));
    report(csv, "aim", "pool: offset+pole+twist+weight<1", (long)POOL * SWEEPS, time_pool(pool, 1));
    report(csv, "aim", "stream: 1M distinct, offset+pole", STREAM, time_stream(stream, stream_jobs));
    {
        static peer_head heads[USER_HEADS];
        double ozz_ns;
        timing t;
        make_user_heads(heads, &r);
        t = time_user_shaped(heads, &ozz_ns);
        report(csv, "aim", "user-shaped: job per call; 2000 heads", (long)USER_HEADS * USER_SWEEPS, t);
        if (ozz_ns > 0) {
            printf("%-12s %-34s %10.1f %14.0f\n", "ozz", "user-shaped: IKAimJob per call", ozz_ns, 1e9 / ozz_ns);
            printf("ikit is %.2f times ozz-animation's speed (IKAimJob, same heads, interleaved, thread CPU time)\n",
                   ozz_ns / t.median_ns);
            if (csv)
                fprintf(csv, "ozz_aim,\"user-shaped: job per call; 2000 heads\",%s,%ld,%.2f,%.0f,,\n", BENCH_SCALAR,
                        (long)USER_HEADS * USER_SWEEPS, ozz_ns, 1e9 / ozz_ns);
        } else {
            printf(
                "skipped peer: ozz-animation (not built in: configure a float build with -DIKIT_OZZ_DIR=<its source>\n"
                "and -DIKIT_OZZ_BUILD_DIR=<where it was built>)\n");
        }
    }
    time_chain(&chain, &reset);
    report(csv, "look_at", "chain of 3 (incl. pose reset)", CHAIN_SOLVES, chain);
    report(csv, "look_at", "pose reset alone", CHAIN_SOLVES, reset);
    printf(
        "user-shaped: ik_aim_def() and the job filled in every call, 2,000 heads under random parent frames,\n"
        "eye offset and pole, each call the next head; ozz's IKAimJob the same way where built in.\n");
    if (csv) fclose(csv);
    free(stream);
    free(stream_jobs);
    return 0;
}

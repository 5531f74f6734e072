/* Crowd: 10,000 procedural humanoids (ik_humanoid_build_skeleton, 1.8 m),
 * 100 x 100 on a 1.5 m grid, each facing its own way, on a height field of
 * rolling hills (321 x 321 samples, 0.5 m cells, about +-0.45 m). Every
 * frame each one is reset to its animated pose (an idle crouch, knees bent
 * 30 degrees, the hips swaying in yaw by frame and character), then gets
 * both feet planted on the ground, the pelvis lowered so the lower foot
 * reaches, and a look-at toward a target circling the crowd; the frame ends
 * with every character's model matrices up to date. Threads: one per core
 * (or the count given), each a fixed slice of the crowd, with a barrier
 * around each frame; the library itself has no threads. Two ways:
 *  - "rig": ik_humanoid_solve_run per character (feet on the ground with
 *    heels, toes and ankle limits, pelvis, spine-and-head look-at chain
 *    within look limits, clavicles), after forward kinematics of the pose;
 *  - "batch": the same frame from the batch jobs, 32 characters at a time
 *    (while their data is in cache): ik_skeleton_fk_batch, the ground's
 *    height under each ankle (ik_ground_height_at), the pelvis lowered by
 *    the lower foot's need, both legs in two ik_two_bone_batch_run calls
 *    (pole ahead of the knee), the heads in one ik_aim_batch_run, the
 *    corrections applied and the legs' and head's matrices refreshed
 *    (ik_skeleton_fk_batch_range). It leaves out what the rig does beyond
 *    that: feet aligned to the ground's slope, heels and toes, ankle and
 *    knee limits, the spine's share of the look and its limits.
 * Per frame, median of 15 frames after 3 warm-up frames: the wall time, and
 * the slowest thread's CPU time (the frame on cores of its own: the machine
 * is shared); then, on one thread, where a frame's time goes. Writes
 * bench_crowd.csv.
 * Usage: bench_crowd [THREADS]. */
#define _POSIX_C_SOURCE 200112L
#include "bench_util.h"

#include <pthread.h>
#include <unistd.h>

#include <ikit/aim_batch.h>
#include <ikit/humanoid.h>
#include <ikit/skeleton_fk_batch.h>
#include <ikit/two_bone_batch.h>

#define CROWD 10000
#define GRID 100
#define SPACING 1.5
#define HEIGHT 1.8
#define FIELD 321
#define CELL 0.5
#define WARMUP 3
#define FRAMES 15
#define MAX_THREADS 64
#define J IK_HUMANOID_BUILT_JOINTS

typedef struct crowd {
    ik_skeleton skeleton;
    ik_humanoid rig;
    ik_ground ground;
    ik_transform base_pose[J];
    ik_mat4 *root;      /* [CROWD] */
    ik_transform *pose; /* [CROWD * J] */
    ik_mat4 *model;     /* [CROWD * J] */
    ik_vec3 *foot_target[2], *knee_pole[2];
    ik_vec3 *head_target;
    ik_quat *start_fix[2], *mid_fix[2], *head_fix;
    ik_bool *reached[2];
    int frame;
    ik_vec3 look_target;
    long rig_failures, batch_failures;
} crowd;

static crowd C;
static ik_real heights[FIELD * FIELD];
static int parents[J];
static const char *names[J];
static ik_transform rest[J];

static ik_real hill(double x, double z) {
    return (ik_real)(0.3 * sin(x * 0.4) * cos(z * 0.3) + 0.15 * sin(0.9 * x + 0.7 * z));
}

static void *checked(size_t size) {
    void *p = malloc(size);
    if (!p) {
        fprintf(stderr, "bench_crowd: out of memory\n");
        exit(1);
    }
    return p;
}

static void crowd_make(void) {
    ik_humanoid_map map;
    ik_real crouch = (ik_real)(15 * 3.14159265358979 / 180), leg;
    int i, k, side;
    ik_humanoid_build_skeleton((ik_real)HEIGHT, J, parents, names, rest);
    if (ik_skeleton_init(&C.skeleton, J, parents, names, rest, NULL) != IK_OK ||
        ik_humanoid_map_find(&C.skeleton, NULL, 0, &map) != IK_OK ||
        ik_humanoid_init(&C.rig, &C.skeleton, &map) != IK_OK) {
        fprintf(stderr, "bench_crowd: the humanoid rig did not build\n");
        exit(1);
    }
    for (i = 0; i < FIELD; ++i)
        for (k = 0; k < FIELD; ++k) heights[i * FIELD + k] = hill(-80 + k * CELL, -80 + i * CELL);
    C.ground = ik_ground_height_field(ik_v3(-80, 0, -80), (ik_real)CELL, FIELD, FIELD, heights);
    /* the idle crouch: thighs forward, knees bent back, feet level, the hips
     * lowered by what the bend takes off the legs' length */
    ik_skeleton_rest_pose(&C.skeleton, C.base_pose);
    leg = C.rig.limb[IK_LIMB_LEG_L].upper_length + C.rig.limb[IK_LIMB_LEG_L].lower_length;
    for (side = IK_LIMB_LEG_L; side <= IK_LIMB_LEG_R; ++side) {
        const ik_humanoid_limb *l = &C.rig.limb[side];
        C.base_pose[l->start].rotation = ik_quat_from_axis_angle(ik_v3(1, 0, 0), -crouch);
        C.base_pose[l->mid].rotation = ik_quat_from_axis_angle(ik_v3(1, 0, 0), 2 * crouch);
        C.base_pose[l->end].rotation = ik_quat_from_axis_angle(ik_v3(1, 0, 0), -crouch);
    }
    C.base_pose[C.rig.pelvis].translation.y -= leg * (1 - IK_COS(crouch));
    C.root = checked(sizeof(ik_mat4) * CROWD);
    C.pose = checked(sizeof(ik_transform) * CROWD * J);
    C.model = checked(sizeof(ik_mat4) * CROWD * J);
    C.head_target = checked(sizeof(ik_vec3) * CROWD);
    C.head_fix = checked(sizeof(ik_quat) * CROWD);
    for (side = 0; side < 2; ++side) {
        C.foot_target[side] = checked(sizeof(ik_vec3) * CROWD);
        C.knee_pole[side] = checked(sizeof(ik_vec3) * CROWD);
        C.start_fix[side] = checked(sizeof(ik_quat) * CROWD);
        C.mid_fix[side] = checked(sizeof(ik_quat) * CROWD);
        C.reached[side] = checked(sizeof(ik_bool) * CROWD);
    }
    for (i = 0; i < CROWD; ++i) {
        ik_real x = (ik_real)(((i % GRID) - GRID / 2) * SPACING), z = (ik_real)(((i / GRID) - GRID / 2) * SPACING), h;
        ik_real yaw = (ik_real)(i * 2.399963);
        ik_ground_height_at(&C.ground, x, z, &h, NULL);
        C.root[i] = ik_mat4_from_trs(ik_v3(x, h, z), ik_quat_from_axis_angle(ik_v3(0, 1, 0), yaw), ik_v3(1, 1, 1));
    }
}

/* Character i's animated pose for this frame. */
static void animate(int i) {
    ik_transform *pose = &C.pose[(size_t)i * J];
    memcpy(pose, C.base_pose, sizeof C.base_pose);
    pose[C.rig.pelvis].rotation = ik_quat_from_axis_angle(ik_v3(0, 1, 0), (ik_real)(0.15 * sin(C.frame * 0.2 + i)));
}

static void fk(int i) { ik_skeleton_fk(&C.skeleton, &C.pose[(size_t)i * J], &C.root[i], &C.model[(size_t)i * J]); }

/* ---- rig: one ik_humanoid_solve per character ---------------------------- */

static void rig_solve(int i) {
    ik_humanoid_solve job = ik_humanoid_solve_def();
    job.rig = &C.rig;
    job.pose_ls = &C.pose[(size_t)i * J];
    job.model_ms = &C.model[(size_t)i * J];
    job.root_ms = &C.root[i];
    job.ground = &C.ground;
    job.look_at = 1;
    job.look_target_ms = C.look_target;
    if (ik_humanoid_solve_run(&job) != IK_OK) ++C.rig_failures;
}

static void rig_slice(int first, int last) {
    int i;
    for (i = first; i < last; ++i) {
        animate(i);
        fk(i);
        rig_solve(i);
    }
}

/* ---- batch: the frame from the batch jobs ------------------------------- */

/* Feet targets on the ground under the ankles, and the pelvis lowered by
 * the lower foot's need (at most the rig's pelvis_drop of the leg): the
 * offset moves the hips, so every joint's model translation with them. */
static void plant_feet(int i) {
    ik_mat4 *model = &C.model[(size_t)i * J];
    ik_transform *pose = &C.pose[(size_t)i * J];
    ik_vec3 forward = ik_mat4_transform_vector(&C.root[i], C.rig.forward_rs);
    ik_real offset = 0, drop_max;
    int side, j;
    for (side = 0; side < 2; ++side) {
        const ik_humanoid_limb *l = &C.rig.limb[IK_LIMB_LEG_L + side];
        ik_vec3 ankle = ik_mat4_translation(&model[l->end]);
        ik_real h;
        if (!ik_ground_height_at(&C.ground, ankle.x, ankle.z, &h, NULL)) h = ankle.y - l->ankle_height;
        C.foot_target[side][i] = ik_v3(ankle.x, h + l->ankle_height, ankle.z);
        offset = ik_minr(offset, C.foot_target[side][i].y - ankle.y);
    }
    drop_max =
        C.rig.limits.pelvis_drop * (C.rig.limb[IK_LIMB_LEG_L].upper_length + C.rig.limb[IK_LIMB_LEG_L].lower_length);
    offset = ik_maxr(offset, -drop_max);
    pose[C.rig.pelvis].translation.y += offset;
    for (j = 0; j < J; ++j) model[j].m[13] += offset;
    for (side = 0; side < 2; ++side) {
        const ik_humanoid_limb *l = &C.rig.limb[IK_LIMB_LEG_L + side];
        C.knee_pole[side][i] =
            ik_vec3_mad(ik_mat4_translation(&model[l->mid]), forward, l->upper_length + l->lower_length);
    }
    C.head_target[i] = C.look_target;
}

static void apply(int i) {
    ik_transform *pose = &C.pose[(size_t)i * J];
    int side;
    for (side = 0; side < 2; ++side) {
        const ik_humanoid_limb *l = &C.rig.limb[IK_LIMB_LEG_L + side];
        pose[l->start].rotation = ik_quat_normalize(ik_quat_mul(pose[l->start].rotation, C.start_fix[side][i]));
        pose[l->mid].rotation = ik_quat_normalize(ik_quat_mul(pose[l->mid].rotation, C.mid_fix[side][i]));
    }
    pose[C.rig.map.joint[IK_ROLE_HEAD]].rotation =
        ik_quat_normalize(ik_quat_mul(pose[C.rig.map.joint[IK_ROLE_HEAD]].rotation, C.head_fix[i]));
}

static void solve_legs(int first, int last) {
    int side;
    for (side = 0; side < 2; ++side) {
        const ik_humanoid_limb *l = &C.rig.limb[IK_LIMB_LEG_L + side];
        ik_two_bone_batch job = ik_two_bone_batch_def();
        job.count = last - first;
        job.start_ms = &C.model[(size_t)first * J + (size_t)l->start];
        job.mid_ms = &C.model[(size_t)first * J + (size_t)l->mid];
        job.end_ms = &C.model[(size_t)first * J + (size_t)l->end];
        job.joint_stride = sizeof(ik_mat4) * J;
        job.target_ms = &C.foot_target[side][first];
        job.pole_ms = &C.knee_pole[side][first];
        job.start_correction_ls = &C.start_fix[side][first];
        job.mid_correction_ls = &C.mid_fix[side][first];
        job.reached = &C.reached[side][first];
        if (ik_two_bone_batch_run(&job) != IK_OK) ++C.batch_failures;
    }
}

static void aim_heads(int first, int last) {
    ik_aim_batch job = ik_aim_batch_def();
    job.count = last - first;
    job.joint_ms = &C.model[(size_t)first * J + (size_t)C.rig.map.joint[IK_ROLE_HEAD]];
    job.joint_stride = sizeof(ik_mat4) * J;
    job.target_ms = &C.head_target[first];
    job.forward_ls = C.rig.head_forward_ls;
    job.up_ls = C.rig.head_up_ls;
    job.correction_ls = &C.head_fix[first];
    if (ik_aim_batch_run(&job) != IK_OK) ++C.batch_failures;
}

/* Seconds spent in each stage, when timed (one thread). */
static double stage_time[5];

static void batch_block(int first, int last, ik_bool timed) {
    double t = timed ? bench_now() : 0, now;
    int i;
#define STAGE(k)                  \
    if (timed) {                  \
        now = bench_now();        \
        stage_time[k] += now - t; \
        t = now;                  \
    }
    for (i = first; i < last; ++i) animate(i);
    ik_skeleton_fk_batch(&C.skeleton, last - first, &C.pose[(size_t)first * J], &C.root[first],
                         &C.model[(size_t)first * J]);
    STAGE(0)
    for (i = first; i < last; ++i) plant_feet(i);
    STAGE(1)
    solve_legs(first, last);
    STAGE(2)
    aim_heads(first, last);
    STAGE(3)
    /* the pelvis offset is in every model matrix already: only the legs'
     * and the head's joints turned */
    for (i = first; i < last; ++i) apply(i);
    ik_skeleton_fk_batch_range(&C.skeleton, C.rig.map.joint[IK_ROLE_HEAD], C.rig.map.joint[IK_ROLE_HEAD] + 1,
                               last - first, &C.pose[(size_t)first * J], &C.root[first], &C.model[(size_t)first * J]);
    ik_skeleton_fk_batch_range(&C.skeleton, C.rig.limb[IK_LIMB_LEG_L].start, J, last - first,
                               &C.pose[(size_t)first * J], &C.root[first], &C.model[(size_t)first * J]);
    STAGE(4)
#undef STAGE
}

/* A slice in blocks of BLOCK characters, each block through every stage
 * while its poses and matrices (about 80 KB) are still in the cache: stage
 * after stage over the whole slice would stream 12 MB through memory
 * five times. */
#define BLOCK 32

static void batch_slice(int first, int last, ik_bool timed) {
    int block;
    for (block = first; block < last; block += BLOCK)
        batch_block(block, block + BLOCK < last ? block + BLOCK : last, timed);
}

/* ---- threads ------------------------------------------------------------ */

typedef struct worker {
    pthread_t thread;
    int index;
} worker;

static pthread_barrier_t frame_start, frame_end;
static int thread_count, use_batch, stop;

/* Each thread's CPU time for its slice in the last frame. */
static double slice_cpu[MAX_THREADS];

static void run_slice(int index) {
    int first = CROWD * index / thread_count, last = CROWD * (index + 1) / thread_count;
    double t0 = bench_now();
    if (use_batch)
        batch_slice(first, last, 0);
    else
        rig_slice(first, last);
    slice_cpu[index] = bench_now() - t0;
}

static void *worker_main(void *arg) {
    const worker *w = arg;
    for (;;) {
        pthread_barrier_wait(&frame_start);
        if (stop) return NULL;
        run_slice(w->index);
        pthread_barrier_wait(&frame_end);
    }
}

static void next_frame(void) {
    double a = C.frame * 0.05;
    ++C.frame;
    C.look_target = ik_v3((ik_real)(20 * sin(a)), (ik_real)1.6, (ik_real)(20 * cos(a)));
}

/* Wall-clock ms per frame, median over FRAMES, the workers helping; and
 * in *cpu_ms the median of the slowest slice's CPU time: the frame's time
 * on cores of its own (the machine is shared, so the wall time also holds
 * other people's work). */
static double time_frames(int batch, double *cpu_ms) {
    double samples[FRAMES], cpu[FRAMES];
    int f, k;
    use_batch = batch;
    for (f = 0; f < WARMUP + FRAMES; ++f) {
        struct timespec t0, t1;
        next_frame();
        clock_gettime(CLOCK_MONOTONIC, &t0);
        pthread_barrier_wait(&frame_start);
        run_slice(0);
        pthread_barrier_wait(&frame_end);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (f < WARMUP) continue;
        samples[f - WARMUP] = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-6;
        cpu[f - WARMUP] = 0;
        for (k = 0; k < thread_count; ++k)
            cpu[f - WARMUP] = cpu[f - WARMUP] > slice_cpu[k] * 1e3 ? cpu[f - WARMUP] : slice_cpu[k] * 1e3;
    }
    *cpu_ms = bench_median(cpu, FRAMES);
    return bench_median(samples, FRAMES);
}

/* Feet within 1 mm of their ground target, and heads facing the look
 * target within 1 degree, after the last frame (a check that the frame did
 * its work). */
static void check_crowd(const char *name) {
    long feet = 0, heads = 0;
    int i, side, head = C.rig.map.joint[IK_ROLE_HEAD];
    for (i = 0; i < CROWD; ++i) {
        const ik_mat4 *model = &C.model[(size_t)i * J];
        ik_vec3 face = ik_vec3_normalize(ik_mat4_transform_vector(&model[head], C.rig.head_forward_ls));
        ik_vec3 to = ik_vec3_normalize(ik_vec3_sub(C.look_target, ik_mat4_translation(&model[head])));
        heads += ik_vec3_dot(face, to) >= (ik_real)0.99985;
        for (side = 0; side < 2; ++side) {
            const ik_humanoid_limb *l = &C.rig.limb[IK_LIMB_LEG_L + side];
            ik_vec3 ankle = ik_mat4_translation(&model[l->end]);
            ik_real h;
            ik_ground_height_at(&C.ground, ankle.x, ankle.z, &h, NULL);
            feet += IK_FABS(ankle.y - l->ankle_height - h) <= (ik_real)1e-3;
        }
    }
    printf("%s: ankles at ankle height over the ground (1 mm): %.1f%%, heads on the look target (1 deg): %.1f%%\n",
           name, 100.0 * (double)feet / (2.0 * CROWD), 100.0 * (double)heads / CROWD);
}

int main(int argc, char **argv) {
    static worker workers[MAX_THREADS];
    FILE *csv = fopen("bench_crowd.csv", "w");
    double rig_ms, batch_ms, rig_cpu, batch_cpu, rig_fk = 0, rig_solve_time = 0, t0;
    int i, k;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    thread_count = argc > 1 ? atoi(argv[1]) : (int)(cores > 0 ? cores : 1);
    if (thread_count < 1 || thread_count > MAX_THREADS) thread_count = 1;
    crowd_make();
    pthread_barrier_init(&frame_start, NULL, (unsigned)thread_count);
    pthread_barrier_init(&frame_end, NULL, (unsigned)thread_count);
    for (i = 1; i < thread_count; ++i) {
        workers[i].index = i;
        pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]);
    }
    printf(
        "crowd: %d humanoids (%d joints), feet on a height field, pelvis, look-at; %s, %d threads, wall ms per\n"
        "frame, median of %d frames\n",
        CROWD, J, BENCH_SCALAR, thread_count, FRAMES);
    printf("%-6s %14s %20s %24s\n", "path", "wall ms/frame", "slowest thread CPU ms", "CPU ns per character");
    rig_ms = time_frames(0, &rig_cpu);
    printf("%-6s %14.2f %20.2f %24.0f\n", "rig", rig_ms, rig_cpu, rig_cpu * 1e6 * thread_count / CROWD);
    batch_ms = time_frames(1, &batch_cpu);
    printf("%-6s %14.2f %20.2f %24.0f\n", "batch", batch_ms, batch_cpu, batch_cpu * 1e6 * thread_count / CROWD);
    check_crowd("batch");
    if (C.rig_failures || C.batch_failures) printf("failures: rig %ld, batch %ld\n", C.rig_failures, C.batch_failures);
    stop = 1;
    pthread_barrier_wait(&frame_start);
    for (i = 1; i < thread_count; ++i) pthread_join(workers[i].thread, NULL);

    /* where the time goes, one thread (CPU time), over 3 frames */
    for (k = 0; k < 3; ++k) {
        next_frame();
        for (i = 0; i < CROWD; ++i) {
            animate(i);
            t0 = bench_now();
            fk(i);
            rig_fk += bench_now() - t0;
            t0 = bench_now();
            rig_solve(i);
            rig_solve_time += bench_now() - t0;
        }
        next_frame();
        batch_slice(0, CROWD, 1);
    }
    printf("one thread, ns per character: rig path: pose reset + FK %.0f, ik_humanoid_solve_run %.0f\n",
           rig_fk * 1e9 / (3.0 * CROWD), rig_solve_time * 1e9 / (3.0 * CROWD));
    printf(
        "one thread, ns per character: batch path: reset + batch FK %.0f, ground + pelvis %.0f, two legs %.0f, "
        "head aim %.0f, apply + batch FK %.0f\n",
        stage_time[0] * 1e9 / (3.0 * CROWD), stage_time[1] * 1e9 / (3.0 * CROWD), stage_time[2] * 1e9 / (3.0 * CROWD),
        stage_time[3] * 1e9 / (3.0 * CROWD), stage_time[4] * 1e9 / (3.0 * CROWD));
    if (csv) {
        fprintf(csv,
                "path,scalar,threads,characters,wall_ms_per_frame,thread_cpu_ms_per_frame\n"
                "rig,%s,%d,%d,%.3f,%.3f\nbatch,%s,%d,%d,%.3f,%.3f\n",
                BENCH_SCALAR, thread_count, CROWD, rig_ms, rig_cpu, BENCH_SCALAR, thread_count, CROWD, batch_ms,
                batch_cpu);
        fclose(csv);
    }
    return 0;
}

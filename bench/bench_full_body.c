/* Full-body IK (full_body.h) side by side with the per-limb humanoid solve
 * (ik_humanoid_solve_run) and with FABRIK and DLS over the whole skeleton
 * (ik_fabrik_run's multi-effector tree and ik_jacobian_run's damped least
 * squares, both from the pelvis down the spine to the left arm and down
 * both legs), on the built humanoid and the real rigs of tests/test_full_body.c.
 *
 * Protocol (ikit's own; no published one fits): from the rig's standing
 * start pose, a left-hand target at chest height 0.5 to 1.5 arm lengths from
 * the shoulder, straight ahead and to the side (22 targets), both feet held
 * where they stand (full body: pinned, with balance; humanoid: foot goals at
 * the start ankles; FABRIK and DLS: foot effectors at the start ankles):
 *   reach     targets whose hand lands within 1e-3 leg lengths;
 *   feet      the largest drift of an ankle, leg lengths;
 *   balanced  targets whose centre of mass (de Leva, body_mass.h) ends
 *             inside the support polygon of the feet;
 *   us        median time of one solve from the start pose (cold).
 * Then frames: the hand target goes round a circle of 0.3 arm lengths in
 * front of the shoulder at chest height, 240 frames a turn, each solve
 * starting from the last result (warm; the reference the start pose):
 * median microseconds per character per frame, for the full body (the hand,
 * both feet pinned, balance on; and four effectors: both hands, the head's
 * position bobbing 0.03 leg lengths, the left foot rising 0.05-0.1 leg
 * lengths, the right foot pinned, balance off, as test_full_body's four
 * effectors) and the humanoid solve (the hand; hands, feet and a look-at).
 * CSV in bench_full_body.csv. */
#include "bench_util.h"

#include <ikit/body_mass.h>
#include <ikit/fabrik.h>
#include <ikit/full_body.h>
#include <ikit/jacobian.h>
#include <math.h>

#include "../tests/test_humanoid_fixture.h"

enum { S_FULL, S_HUMANOID, S_FABRIK, S_DLS, S_COUNT };
static const char *const solver_names[S_COUNT] = {"full_body", "humanoid", "fabrik_tree", "dls_tree"};

typedef struct tree {
    int joints[256];
    int count;
    int effectors[3]; /* positions in joints: hand, left foot, right foot */
} tree;

static void add_path(const fixture *f, int joint, unsigned char *mark) {
    for (; joint >= 0 && joint != f->rig.pelvis; joint = f->skeleton->parents[joint]) mark[joint] = 1;
}

/* The joints from the pelvis to the left hand and both feet, parents first. */
static int make_tree(const fixture *f, tree *t) {
    unsigned char *mark = (unsigned char *)calloc((size_t)f->skeleton->joint_count, 1);
    int ends[3], i, k;
    ends[0] = f->rig.limb[IK_LIMB_ARM_L].end;
    ends[1] = f->rig.limb[IK_LIMB_LEG_L].end;
    ends[2] = f->rig.limb[IK_LIMB_LEG_R].end;
    t->count = 0;
    for (k = 0; k < 3; ++k) {
        if (ends[k] < 0) {
            free(mark);
            return 0;
        }
        add_path(f, ends[k], mark);
    }
    t->joints[t->count++] = f->rig.pelvis;
    for (i = f->rig.pelvis + 1; i < f->skeleton->joint_count && t->count < 256; ++i)
        if (mark[i]) t->joints[t->count++] = i;
    for (k = 0; k < 3; ++k)
        for (i = 0; i < t->count; ++i)
            if (t->joints[i] == ends[k]) t->effectors[k] = i;
    free(mark);
    return 1;
}

typedef struct tally {
    int reached, balanced, targets;
    double feet;
    double times[64];
} tally;

static double inside(const ik_vec3 *poly, int n, ik_vec3 p, ik_vec3 up) {
    double best = 1e300, sign = 0;
    int i;
    for (i = 0; i < n && sign == 0; ++i) {
        ik_vec3 a = poly[i], b = poly[(i + 1) % n], c = poly[(i + 2) % n];
        double s = (double)ik_vec3_dot(ik_vec3_cross(ik_vec3_sub(b, a), ik_vec3_sub(c, b)), up);
        if (fabs(s) > 0) sign = s > 0 ? 1 : -1;
    }
    for (i = 0; i < n; ++i) {
        ik_vec3 a = poly[i], b = poly[(i + 1) % n], e = ik_vec3_reject(ik_vec3_sub(b, a), up);
        ik_vec3 d = ik_vec3_reject(ik_vec3_sub(p, a), up);
        double len = (double)ik_vec3_length(e), s;
        s = sign * (double)ik_vec3_dot(ik_vec3_cross(e, d), up) / (len > 0 ? len : 1);
        if (s < best) best = s;
    }
    return best;
}

static ik_real leg_of(const fixture *f) {
    return (ik_real)0.5 * (fixture_limb_length(f, IK_LIMB_LEG_L) + fixture_limb_length(f, IK_LIMB_LEG_R));
}

static void run_rig(fixture *f, FILE *csv) {
    int n = f->skeleton->joint_count, dir, step, s, k;
    ik_real leg = leg_of(f), arm = fixture_limb_length(f, IK_LIMB_ARM_L);
    ik_vec3 up = fixture_up(f), ankles[2];
    ik_body_mass mass;
    ik_full_body fb = ik_full_body_def();
    ik_full_body_report rep;
    size_t fb_bytes = ik_full_body_scratch_size(&f->rig);
    void *fb_scratch = malloc(fb_bytes);
    tree t;
    int have_tree = make_tree(f, &t);
    size_t fab_bytes = have_tree ? ik_fabrik_scratch_size(t.count) : 0;
    size_t jac_bytes = have_tree ? ik_jacobian_scratch_size(n, 3 * t.count, 3) : 0;
    void *fab_scratch = malloc(fab_bytes + 1), *jac_scratch = malloc(jac_bytes + 1);
    ik_jacobian_joint *jj = (ik_jacobian_joint *)malloc(sizeof(ik_jacobian_joint) * 256);
    ik_vec3 support[IK_FULL_BODY_MAX_SUPPORT];
    int support_n = 0;
    tally tl[S_COUNT];
    memset(tl, 0, sizeof tl);
    ik_body_mass_init(&mass, &f->rig, IK_BODY_MASS_MALE, 75);
    fb.rig = &f->rig;
    fb.mass = &mass;
    fb.pose_ls = f->pose;
    fb.model_ms = f->model;
    fb.root_ms = &f->root_ms;
    fb.reference_ls = f->start;
    fb.scratch = fb_scratch;
    fb.scratch_bytes = fb_bytes;
    fb.report = &rep;
    fb.effector[IK_FB_FOOT_L].pinned = fb.effector[IK_FB_FOOT_R].pinned = 1;
    fb.balance = 1;
    fixture_reset(f);
    ankles[0] = fixture_end(f, IK_LIMB_LEG_L);
    ankles[1] = fixture_end(f, IK_LIMB_LEG_R);
    for (k = 0; k < t.count && have_tree; ++k) jj[k] = ik_jacobian_ball(t.joints[k]);
    for (dir = 0; dir < 2; ++dir)
        for (step = 0; step <= 10; ++step) {
            ik_real kk = (ik_real)0.5 + (ik_real)0.1 * (ik_real)step, dh, flat;
            ik_vec3 shoulder, chest, target, d;
            fixture_reset(f);
            shoulder = fixture_pos(f, f->rig.limb[IK_LIMB_ARM_L].start);
            chest = fixture_pos(f, f->rig.map.joint[IK_ROLE_CHEST]);
            d = dir == 0 ? fixture_forward(f) : fixture_left(f);
            dh = ik_vec3_dot(ik_vec3_sub(chest, shoulder), up);
            flat = IK_SQRT(ik_maxr(kk * kk * arm * arm - dh * dh, 0));
            target = ik_vec3_mad(ik_vec3_mad(shoulder, up, dh), d, flat);
            for (s = 0; s < S_COUNT; ++s) {
                double t0 = 0, t1 = 0, feet;
                ik_vec3 com;
                int ok = 1;
                fixture_reset(f);
                if (s == S_FULL) {
                    fb.effector[IK_FB_HAND_L].enabled = 1;
                    fb.effector[IK_FB_HAND_L].position_ms = target;
                    t0 = bench_now();
                    ok = ik_full_body_run(&fb) == IK_OK;
                    t1 = bench_now();
                    support_n = rep.support_count;
                    memcpy(support, rep.support_ms, sizeof support);
                } else if (s == S_HUMANOID) {
                    ik_humanoid_solve job = ik_humanoid_solve_def();
                    fixture_bind_job(f, &job);
                    job.goal[IK_LIMB_ARM_L].enabled = 1;
                    job.goal[IK_LIMB_ARM_L].position_ms = target;
                    for (k = 0; k < 2; ++k) {
                        int foot = f->rig.limb[IK_LIMB_LEG_L + k].end;
                        job.goal[IK_LIMB_LEG_L + k].enabled = 1;
                        job.goal[IK_LIMB_LEG_L + k].position_ms = ankles[k];
                        job.goal[IK_LIMB_LEG_L + k].use_rotation = foot >= 0;
                        if (foot >= 0) job.goal[IK_LIMB_LEG_L + k].rotation_ms = ik_mat4_rotation(&f->model[foot]);
                    }
                    t0 = bench_now();
                    ok = ik_humanoid_solve_run(&job) == IK_OK;
                    t1 = bench_now();
                } else if (!have_tree) {
                    continue;
                } else {
                    ik_vec3 targets[3];
                    targets[0] = target;
                    targets[1] = ankles[0];
                    targets[2] = ankles[1];
                    if (s == S_FABRIK) {
                        ik_fabrik job = ik_fabrik_def();
                        job.base.skeleton = f->skeleton;
                        job.base.listed_joint_count = t.count;
                        job.base.root_ms = &f->root_ms;
                        job.base.pose_ls = f->pose;
                        job.base.scratch = fab_scratch;
                        job.base.scratch_bytes = fab_bytes;
                        job.joints = t.joints;
                        job.effectors = t.effectors;
                        job.effector_count = 3;
                        job.targets_ms = targets;
                        job.tolerance = (ik_real)1e-4 * leg;
                        job.max_iterations = 200;
                        t0 = bench_now();
                        ok = ik_fabrik_run(&job) == IK_OK;
                        t1 = bench_now();
                    } else {
                        ik_jacobian job = ik_jacobian_def();
                        ik_jacobian_effector eff[3];
                        for (k = 0; k < 3; ++k)
                            eff[k] = ik_jacobian_effector_make(t.joints[t.effectors[k]], targets[k]);
                        job.base.skeleton = f->skeleton;
                        job.base.listed_joint_count = t.count;
                        job.base.root_ms = &f->root_ms;
                        job.base.pose_ls = f->pose;
                        job.base.scratch = jac_scratch;
                        job.base.scratch_bytes = jac_bytes;
                        job.joints = jj;
                        job.effectors = eff;
                        job.effector_count = 3;
                        job.tolerance = (ik_real)1e-4 * leg;
                        t0 = bench_now();
                        ok = ik_jacobian_run(&job) == IK_OK;
                        t1 = bench_now();
                    }
                    ik_skeleton_fk(f->skeleton, f->pose, &f->root_ms, f->model);
                }
                if (!ok) continue;
                tl[s].times[tl[s].targets] = (t1 - t0) * 1e6;
                ++tl[s].targets;
                if (ik_vec3_distance(fixture_end(f, IK_LIMB_ARM_L), target) <= (ik_real)1e-3 * leg) ++tl[s].reached;
                feet = fmax((double)ik_vec3_distance(fixture_end(f, IK_LIMB_LEG_L), ankles[0]),
                            (double)ik_vec3_distance(fixture_end(f, IK_LIMB_LEG_R), ankles[1])) /
                       (double)leg;
                if (feet > tl[s].feet) tl[s].feet = feet;
                com = ik_body_mass_centre(&mass, f->model);
                if (support_n >= 3 && inside(support, support_n, com, up) >= 0) ++tl[s].balanced;
            }
            fb.effector[IK_FB_HAND_L].enabled = 0;
        }
    for (s = 0; s < S_COUNT; ++s) {
        double us;
        if (!tl[s].targets) continue;
        us = bench_median(tl[s].times, tl[s].targets);
        printf("  %-12s reach %2d/%d  feet %.1e  balanced %2d/%d  cold %7.1f us\n", solver_names[s], tl[s].reached,
               tl[s].targets, tl[s].feet, tl[s].balanced, tl[s].targets, us);
        if (csv)
            fprintf(csv, "%s,%d,%s,%s,reach,%d,%d,%.3g,%d,%.2f\n", f->label, n, BENCH_SCALAR, solver_names[s],
                    tl[s].reached, tl[s].targets, tl[s].feet, tl[s].balanced, us);
    }
    /* frames, warm */
    {
        enum { FRAMES = 480 };
        static double times[FRAMES], iterations[FRAMES];
        int mode;
        for (mode = 0; mode < 4; ++mode) {
            ik_vec3 shoulder, centre, head;
            int fr;
            fixture_reset(f);
            shoulder = fixture_pos(f, f->rig.limb[IK_LIMB_ARM_L].start);
            head = fixture_pos(f, f->rig.map.joint[IK_ROLE_HEAD]);
            centre = ik_vec3_mad(shoulder, fixture_forward(f), (ik_real)0.8 * arm);
            for (fr = 0; fr < FRAMES; ++fr) {
                ik_real a = (ik_real)(2 * IK_PI * fr / 240.0);
                ik_vec3 hand =
                    ik_vec3_add(centre, ik_vec3_add(ik_vec3_scale(fixture_left(f), (ik_real)0.3 * arm * IK_COS(a)),
                                                    ik_vec3_scale(up, (ik_real)0.3 * arm * IK_SIN(a))));
                ik_vec3 other = ik_vec3_mad(hand, fixture_left(f), -(ik_real)0.6 * arm);
                ik_vec3 foot = ik_vec3_mad(ankles[0], up, (ik_real)0.05 * leg * (1 + IK_SIN(a)));
                double t0, t1;
                if (mode < 2) {
                    fb.effector[IK_FB_HAND_L].enabled = 1;
                    fb.effector[IK_FB_HAND_L].position_ms = hand;
                    fb.effector[IK_FB_HAND_R].enabled = mode == 1;
                    fb.effector[IK_FB_HAND_R].position_ms = other;
                    fb.effector[IK_FB_HEAD].enabled = mode == 1;
                    fb.effector[IK_FB_HEAD].position_ms =
                        ik_vec3_mad(head, fixture_forward(f), (ik_real)0.03 * leg * (1 + IK_SIN(a)));
                    fb.effector[IK_FB_FOOT_L].enabled = mode == 1;
                    fb.effector[IK_FB_FOOT_L].pinned = mode == 0;
                    fb.effector[IK_FB_FOOT_L].position_ms = foot;
                    fb.balance = mode == 0;
                    t0 = bench_now();
                    ik_full_body_run(&fb);
                    t1 = bench_now();
                } else {
                    ik_humanoid_solve job = ik_humanoid_solve_def();
                    fixture_bind_job(f, &job);
                    job.goal[IK_LIMB_ARM_L].enabled = 1;
                    job.goal[IK_LIMB_ARM_L].position_ms = hand;
                    if (mode == 3) {
                        job.goal[IK_LIMB_ARM_R].enabled = 1;
                        job.goal[IK_LIMB_ARM_R].position_ms = other;
                        job.goal[IK_LIMB_LEG_L].enabled = 1;
                        job.goal[IK_LIMB_LEG_L].position_ms = foot;
                        job.goal[IK_LIMB_LEG_R].enabled = 1;
                        job.goal[IK_LIMB_LEG_R].position_ms = ankles[1];
                        job.look_at = 1;
                        job.look_target_ms = hand;
                    }
                    t0 = bench_now();
                    ik_humanoid_solve_run(&job);
                    t1 = bench_now();
                }
                times[fr] = (t1 - t0) * 1e6;
                if (mode < 2) iterations[fr] = rep.iterations;
            }
            {
                static const char *const modes[4] = {"full_body hand, feet pinned, balance",
                                                     "full_body hands, head, moving foot, no balance", "humanoid hand",
                                                     "humanoid hands, feet, look"};
                static const char *const keys[4] = {"full_body", "full_body", "humanoid", "humanoid"};
                static const char *const scen[4] = {"frames_hand", "frames_four", "frames_hand", "frames_four"};
                double us = bench_median(times, FRAMES);
                printf("  warm %-40s %6.1f us per frame", modes[mode], us);
                if (mode < 2) printf(" (%.0f body iterations)", bench_median(iterations, FRAMES));
                printf("\n");
                if (csv)
                    fprintf(csv, "%s,%d,%s,%s,%s,,,,,%.2f\n", f->label, n, BENCH_SCALAR, keys[mode], scen[mode], us);
            }
        }
        fb.effector[IK_FB_FOOT_L].pinned = 1;
        fb.effector[IK_FB_FOOT_L].enabled = 0;
        fb.effector[IK_FB_HAND_R].enabled = 0;
        fb.effector[IK_FB_HEAD].enabled = 0;
        fb.balance = 1;
    }
    free(fb_scratch);
    free(fab_scratch);
    free(jac_scratch);
    free(jj);
}

int main(void) {
    FILE *csv = fopen("bench_full_body.csv", "w");
    fixture f;
    int i;
    if (csv) fprintf(csv, "rig,joints,scalar,solver,scenario,reached,targets,feet_drift_legs,balanced,us\n");
    printf("bench_full_body (%s): 22 hand targets, 0.5-1.5 arm lengths, front and side, feet held\n", BENCH_SCALAR);
    if (fixture_built(&f)) {
        printf("built (%d joints)\n", f.skeleton->joint_count);
        run_rig(&f, csv);
        fixture_free(&f);
    }
    for (i = 0; i < FIXTURE_FILE_COUNT; ++i) {
        if (!fixture_file(&f, fixture_files[i])) {
            printf("%s: not found (set IKIT_DATA)\n", fixture_files[i]);
            fixture_free(&f);
            continue;
        }
        if (f.init_result == IK_OK) {
            printf("%s (%d joints)\n", f.label, f.skeleton->joint_count);
            run_rig(&f, csv);
        }
        fixture_free(&f);
    }
    if (csv) fclose(csv);
    bench_sink = 0;
    return 0;
}

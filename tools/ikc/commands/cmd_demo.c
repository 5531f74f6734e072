/* `ikc demo [-o DIR]`: the showcase on built-in data, needing no files.
 *   1. the procedural humanoid with joint limits (demo_figure.c);
 *   2. its left leg placed by two-bone IK in seed 000's three cases
 *      (reachable, too far, too close), the knee a hinge;
 *   3. its head looking at a point moving round in front of it (aim IK);
 *   4. seed 002's tail, from a chain description embedded below, reaching
 *      for a moving cube with springs and comfort ranges (DLS);
 *   5. a FABRIK arm and a CCD arm side by side on the same targets;
 *   6. the humanoid rig (demo_humanoid.c): standing on uneven ground and on
 *      stairs, both hands on a swinging staff, the head tracking a point.
 * Each scene prints a table (target, reached, residual, iterations,
 * microseconds per solve) and writes PNG pictures (SVG too with --svg); the
 * posed humanoid and tail go into one glTF file. The run ends with a list of
 * what it wrote and which picture to open first. */
#include <stdlib.h>
#include <string.h>

#include <ikit/aim.h>
#include <ikit/chain_solve.h>
#include <ikit/chain_file.h>
#include <ikit/chain_file_solve.h>
#include <ikit/jacobian.h>
#include <ikit/spring.h>
#include <ikit/two_bone.h>

#include "asset.h"
#include "demo_figure.h"
#include "demo_humanoid.h"
#include "demo_output.h"
#include "demo_retarget.h"
#include "demo_walk.h"
#include "mesh_view.h"
#include "draw.h"
#include "ikc.h"
#include "scene_gltf.h"

/* examples/tail.chain, built in so the demo needs no files. */
static const char tail_chain_text[] =
    "# The tail of seed 002's demo (\"the tail is made from pairs of joints at\n"
    "# right angles to each other\"): each segment is a pair of hinges at the same\n"
    "# point, one bending up and down (axis x), one side to side (axis y); the tail points along -z. Like a\n"
    "# dinosaur's tail it is stiff at the body and more flexible toward the tip;\n"
    "# inside the comfort range the springs do not pull.\n"
    "chain tail\n"
    "joint base      type fixed  direction 0 0 -1\n"
    "joint seg1_pitch  length 0.6  type hinge axis 1 0 0  limit -30 30  comfort -10 10  stiffness 0.9\n"
    "joint seg1_yaw    length 0    type hinge axis 0 1 0  limit -30 30  comfort -10 10  stiffness 0.9\n"
    "joint seg2_pitch  length 0.55 type hinge axis 1 0 0  limit -35 35  comfort -12 12  stiffness 0.75\n"
    "joint seg2_yaw    length 0    type hinge axis 0 1 0  limit -35 35  comfort -12 12  stiffness 0.75\n"
    "joint seg3_pitch  length 0.5  type hinge axis 1 0 0  limit -40 40  comfort -15 15  stiffness 0.6\n"
    "joint seg3_yaw    length 0    type hinge axis 0 1 0  limit -40 40  comfort -15 15  stiffness 0.6\n"
    "joint seg4_pitch  length 0.45 type hinge axis 1 0 0  limit -45 45  comfort -18 18  stiffness 0.45\n"
    "joint seg4_yaw    length 0    type hinge axis 0 1 0  limit -45 45  comfort -18 18  stiffness 0.45\n"
    "joint seg5_pitch  length 0.4  type hinge axis 1 0 0  limit -50 50  comfort -20 20  stiffness 0.3\n"
    "joint seg5_yaw    length 0    type hinge axis 0 1 0  limit -50 50  comfort -20 20  stiffness 0.3\n"
    "joint seg6_pitch  length 0.35 type hinge axis 1 0 0  limit -55 55  comfort -25 25  stiffness 0.2\n"
    "joint seg6_yaw    length 0    type hinge axis 0 1 0  limit -55 55  comfort -25 25  stiffness 0.2\n"
    "joint tip         length 0.3  type fixed\n"
    "# The spinning cube the tail tries to touch.\n"
    "target cube  joint tip  position 0.8 0.6 -2.2\n";

static ikc_panel humanoid_panel(const ikc_figure *f, const ik_transform *pose, const ik_mat4 *model,
                                const ik_mat4 *ghost, const int *highlight, int highlight_count) {
    ikc_panel p;
    memset(&p, 0, sizeof p);
    p.skeleton = &f->skeleton;
    p.pose_ls = pose;
    p.model_ms = model;
    p.constraints = f->limits;
    p.ghost_ms = ghost;
    p.highlight = highlight;
    p.highlight_count = highlight_count;
    p.label_joints = highlight_count > 0;
    return p;
}

static void table_header(void) {
    printf("%-30s %-24s %-8s %10s %6s %10s\n", "case", "target (m)", "reached", "residual", "iter", "us/solve");
}

static void table_row(const char *name, ik_vec3 target, int reached, ik_real residual, int iterations, double us) {
    printf("%-30s (%6.2f, %5.2f, %5.2f)  %-8s %10.2e %6d %10.3f\n", name, (double)target.x, (double)target.y,
           (double)target.z, reached ? "yes" : "no", (double)residual, iterations, us);
}

/* ---- scene 0: the humanoid and its limits ---------------------------------------- */

static void humanoid_scene(ikc_demo_state *d, const ikc_figure *f) {
    const ik_skeleton *skeleton = &f->skeleton;
    static ik_transform pose[IKC_FIGURE_JOINTS];
    static ik_mat4 model[IKC_FIGURE_JOINTS];
    ikc_panel panels[2];
    ikc_picture pic;
    ik_skeleton_rest_pose(skeleton, pose);
    ik_skeleton_fk(skeleton, pose, NULL, model);
    panels[0] = humanoid_panel(f, pose, model, NULL, NULL, 0);
    panels[0].title = "front, with joint names";
    panels[0].label_joints = 2;
    panels[1] = panels[0];
    panels[1].title = "joint limits: hinge arcs (knees, elbows, toes), cones (hips, shoulders, spine, head)";
    panels[1].label_joints = 0;
    printf("\nScene 0: the procedural humanoid (ik_humanoid_build_skeleton), %d joints, %.1f m, Y up, facing +Z\n",
           skeleton->joint_count, (double)IKC_FIGURE_HEIGHT);
    pic = ikc_demo_picture("ikit demo: procedural humanoid", panels, 1, 1, IKC_VIEW_FRONT, 900, 800, NULL);
    ikc_demo_save_picture(d, "humanoid", &pic);
    pic = ikc_demo_picture("ikit demo: procedural humanoid with joint limits", &panels[1], 1, 1, IKC_VIEW_PERSP, 900,
                           800, NULL);
    ikc_demo_save_picture(d, "humanoid_limits", &pic);
}

/* ---- scene 1: two-bone leg ------------------------------------------------------- */

typedef struct leg_timing {
    const ik_two_bone *job;
    const ik_transform *rest;
    const int *leg; /* thigh, shin, foot */
} leg_timing;

static void leg_solve_once(void *context) {
    const leg_timing *t = (const leg_timing *)context;
    ik_transform pose[IKC_FIGURE_JOINTS];
    ik_two_bone job = *t->job;
    memcpy(pose, t->rest, sizeof pose);
    job.start_rotation_ls = &pose[t->leg[0]].rotation;
    job.mid_rotation_ls = &pose[t->leg[1]].rotation;
    job.end_rotation_ls = &pose[t->leg[2]].rotation;
    ik_two_bone_run(&job);
}

static void leg_scene(ikc_demo_state *d, const ikc_figure *f, ik_transform *scene_pose) {
    const ik_skeleton *skeleton = &f->skeleton;
    static const struct {
        const char *name;
        ik_real x, y, z;
    } cases[] = {
        {"reachable: step forward", 0.09f, 0.25f, 0.35f},
        {"reachable: knee up", 0.09f, 0.55f, 0.30f},
        {"too far: leg straightens", 0.09f, -0.60f, 0.40f},
        {"too close: knee at its limit", 0.09f, 0.85f, 0.05f},
    };
    enum { CASES = 4 };
    static ik_transform pose[CASES][IKC_FIGURE_JOINTS];
    static ik_mat4 model[CASES][IKC_FIGURE_JOINTS], rest_model[IKC_FIGURE_JOINTS];
    static ik_vec3 targets[CASES];
    static int reached_flags[CASES];
    static char captions[CASES][96];
    static int leg[3];
    const ik_humanoid_limb *limb = &f->rig.limb[IK_LIMB_LEG_L];
    ikc_panel panels[CASES];
    ikc_picture pic;
    ik_real hip_x;
    int c;
    leg[0] = limb->start;
    leg[1] = limb->mid;
    leg[2] = limb->end;
    printf("\nScene 1: left leg, two-bone IK, knee hinge 0..%d deg (seed 000's three cases)\n",
           IKC_FIGURE_KNEE_MAX_DEG);
    table_header();
    ik_skeleton_rest_pose(skeleton, pose[0]);
    ik_skeleton_fk(skeleton, pose[0], NULL, rest_model);
    hip_x = ik_mat4_translation(&rest_model[leg[0]]).x;
    for (c = 0; c < CASES; ++c) {
        ik_two_bone job = ik_two_bone_def();
        ik_bool reached = 0;
        ik_real residual = 0;
        ik_result result;
        leg_timing timing;
        double us;
        targets[c] = ik_v3(hip_x, cases[c].y, cases[c].z);
        ik_skeleton_rest_pose(skeleton, pose[c]);
        ik_skeleton_fk(skeleton, pose[c], NULL, model[c]);
        ik_two_bone_bind(&job, model[c], pose[c], leg[0], leg[1], leg[2]);
        job.target_ms = targets[c];
        job.use_hinge = 1;
        job.hinge_axis_ls = limb->hinge_axis_ls;
        job.min_bend = 0;
        job.max_bend = ik_rad(IKC_FIGURE_KNEE_MAX_DEG);
        job.use_pole = 1;
        job.pole_ms = ik_v3(hip_x, 0.5f, 2);
        job.reached = &reached;
        job.residual = &residual;
        timing.job = &job;
        timing.rest = skeleton->rest_ls;
        timing.leg = leg;
        us = ikc_demo_median_us(leg_solve_once, &timing, 2000);
        result = ik_two_bone_run(&job);
        if (result != IK_OK) {
            fprintf(stderr, "ikc demo: two-bone failed: %s\n", ik_result_str(result));
            ++d->solve_failures;
        }
        ik_skeleton_fk(skeleton, pose[c], NULL, model[c]);
        reached_flags[c] = reached;
        table_row(cases[c].name, targets[c], reached, residual, 1, us);
        panels[c] = humanoid_panel(f, pose[c], model[c], rest_model, leg, 3);
        panels[c].title = cases[c].name;
        panels[c].targets_ms = &targets[c];
        panels[c].target_reached = &reached_flags[c];
        panels[c].target_count = 1;
        snprintf(captions[c], sizeof captions[c], "%s, residual %.3g m", reached ? "reached" : "not reached",
                 (double)residual);
        panels[c].caption = captions[c];
    }
    memcpy(scene_pose, pose[0], sizeof pose[0]);
    pic = ikc_demo_picture("Scene 1: two-bone leg, seed 000's cases (side view; grey: rest pose)", panels, CASES, 4,
                           IKC_VIEW_SIDE, 1400, 560, NULL);
    ikc_demo_save_picture(d, "leg_two_bone", &pic);
}

/* ---- scene 2: head look-at -------------------------------------------------------- */

typedef struct head_timing {
    const ik_aim *job;
    ik_quat start;
} head_timing;

/* The aim turns the head's rotation in place: each solve starts from `start`. */
static void head_solve_once(void *context) {
    const head_timing *t = (const head_timing *)context;
    *t->job->rotation_ls = t->start;
    ik_aim_run(t->job);
}

static void head_scene(ikc_demo_state *d, const ikc_figure *f, ik_transform *scene_pose) {
    const ik_skeleton *skeleton = &f->skeleton;
    enum { STEPS = 8, SHOWN = 4 };
    static ik_transform pose[SHOWN][IKC_FIGURE_JOINTS];
    static ik_mat4 model[SHOWN][IKC_FIGURE_JOINTS];
    static ik_vec3 targets[SHOWN], gaze[SHOWN][2];
    static char titles[SHOWN][48];
    static int head[2];
    const int head_joint = ikc_figure_joint(f, IK_ROLE_HEAD);
    ik_transform current[IKC_FIGURE_JOINTS];
    ik_mat4 current_model[IKC_FIGURE_JOINTS];
    ikc_panel panels[SHOWN];
    ikc_picture pic;
    int step;
    head[0] = ikc_figure_joint(f, IK_ROLE_NECK);
    head[1] = head_joint;
    printf("\nScene 2: head looks at a point circling in front of the figure (aim IK, eyes 0.08 m forward)\n");
    printf("%-6s %-24s %-8s %14s %10s\n", "step", "target (m)", "reached", "aim error deg", "us/solve");
    ik_skeleton_rest_pose(skeleton, current);
    ik_skeleton_fk(skeleton, current, NULL, current_model);
    for (step = 0; step < STEPS; ++step) {
        ik_real angle = (ik_real)step * IK_PI / 4;
        ik_vec3 target = ik_v3(IK_COS(angle) * 0.8f, 1.6f + IK_SIN(angle) * 0.4f, 1.5f), eye, dir;
        ik_aim job = ik_aim_def();
        ik_bool reached = 0;
        head_timing timing;
        ik_result result;
        double us;
        job.joint_ms = &current_model[head_joint];
        job.target_ms = target;
        job.pole_ms = ik_v3(0, 1, 0);
        job.offset_ls = ik_v3(0, 0.05f, 0.08f);
        job.rotation_ls = &current[head_joint].rotation;
        job.reached = &reached;
        timing.job = &job;
        timing.start = current[head_joint].rotation;
        us = ikc_demo_median_us(head_solve_once, &timing, 2000);
        current[head_joint].rotation = timing.start;
        result = ik_aim_run(&job);
        if (result != IK_OK) {
            fprintf(stderr, "ikc demo: aim failed: %s\n", ik_result_str(result));
            ++d->solve_failures;
        }
        ik_skeleton_fk(skeleton, current, NULL, current_model);
        eye = ik_mat4_transform_point(&current_model[head_joint], job.offset_ls);
        dir = ik_vec3_normalize(ik_mat4_transform_vector(&current_model[head_joint], job.forward_ls));
        printf("%-6d (%6.2f, %5.2f, %5.2f)  %-8s %14.4f %10.3f\n", step, (double)target.x, (double)target.y,
               (double)target.z, reached ? "yes" : "no",
               (double)ik_deg(ik_acos_safe(ik_vec3_dot(dir, ik_vec3_normalize(ik_vec3_sub(target, eye))))), us);
        if (step % 2 == 0) {
            int s = step / 2;
            memcpy(pose[s], current, sizeof current);
            memcpy(model[s], current_model, sizeof current_model);
            targets[s] = target;
            gaze[s][0] = eye;
            gaze[s][1] = target;
            snprintf(titles[s], sizeof titles[s], "step %d: looking at (%.2f, %.2f, %.2f)", step, (double)target.x,
                     (double)target.y, (double)target.z);
            panels[s] = humanoid_panel(f, pose[s], model[s], NULL, head, 2);
            panels[s].title = titles[s];
            panels[s].targets_ms = &targets[s];
            panels[s].target_count = 1;
            panels[s].lines_ms = gaze[s];
            panels[s].line_count = 1;
            panels[s].constraints = NULL;
        }
        if (step == 1) scene_pose[head_joint].rotation = current[head_joint].rotation;
    }
    pic = ikc_demo_picture("Scene 2: head look-at (dashed: the gaze ray from the eyes)", panels, SHOWN, 2,
                           IKC_VIEW_PERSP, 1400, 1000, NULL);
    ikc_demo_save_picture(d, "head_look_at", &pic);
}

/* ---- scene 3: spring tail from a chain description ------------------------------ */

typedef struct tail_setup {
    const ik_chain_file *chain;
    int all[IKC_MAX_CHAIN];
    ik_jacobian_joint joints[IKC_MAX_CHAIN];
    ik_spring springs[3 * IKC_MAX_CHAIN];
    ik_constraint limits[IKC_MAX_CHAIN];
    int listed, count; /* joints in `all`, and the turning ones */
} tail_setup;

/* Seed 002's springs: each hinge pulls toward its comfort range with the
 * file's stiffness, and never passes its limits. */
static void tail_bind(tail_setup *t, const ik_chain_file *chain) {
    int j, n = chain->joint_count < IKC_MAX_CHAIN ? chain->joint_count : IKC_MAX_CHAIN;
    for (j = 0; j < n; ++j) t->all[j] = j;
    t->chain = chain;
    t->listed = n;
    t->count = ik_chain_file_jacobian_joints(chain, t->all, n, t->joints, t->limits, t->springs);
}

typedef struct tail_timing {
    const tail_setup *setup;
    const ik_transform *start;
    ik_vec3 target;
    void *scratch;
    size_t bytes;
} tail_timing;

/* The tail's DLS job toward `target` (the scratch left for the caller). */
static ik_chain_solve tail_job(const tail_setup *t, ik_transform *pose, ik_vec3 target) {
    ik_chain_solve job = ik_chain_solve_def();
    job.method = IK_CHAIN_DLS;
    job.base.skeleton = &t->chain->skeleton;
    job.base.pose_ls = pose;
    job.joints = t->all;
    job.base.listed_joint_count = t->listed;
    job.target_ms = target;
    job.turning = t->joints;
    job.turning_count = t->count;
    job.turning_constraints = t->limits;
    job.springs = t->springs;
    return job;
}

static ik_result tail_solve(const tail_setup *t, ik_transform *pose, ik_vec3 target, void *scratch, size_t bytes,
                            int *iterations, ik_real *error) {
    ik_chain_solve job = tail_job(t, pose, target);
    job.base.scratch = scratch;
    job.base.scratch_bytes = bytes;
    job.iterations = iterations;
    job.error = error;
    return ik_chain_solve_run(&job);
}

static void tail_solve_once(void *context) {
    const tail_timing *t = (const tail_timing *)context;
    ik_transform pose[IK_CHAIN_MAX_JOINTS > 64 ? 64 : IK_CHAIN_MAX_JOINTS];
    memcpy(pose, t->start, (size_t)t->setup->chain->joint_count * sizeof *pose);
    tail_solve(t->setup, pose, t->target, t->scratch, t->bytes, NULL, NULL);
}

static void tail_scene(ikc_demo_state *d, ik_chain_file **tail_out, ik_transform *tail_pose_out) {
    enum { FRAMES = 6 };
    static ik_transform pose[FRAMES][64];
    static ik_mat4 model[FRAMES][64];
    static ik_vec3 targets[FRAMES];
    static ik_mat4 cubes[FRAMES];
    static int reached_flags[FRAMES];
    static char titles[FRAMES][64];
    static ik_constraint constraints[64];
    static int highlight[64];
    ik_chain_file *chain = NULL;
    ik_error err;
    tail_setup setup;
    ikc_panel panels[FRAMES];
    ikc_picture pic;
    void *scratch;
    size_t bytes;
    int f, j, n;
    ik_result r = ik_chain_file_read_memory(tail_chain_text, sizeof tail_chain_text - 1, &chain, &err);
    printf("\nScene 3: seed 002's tail (built-in chain file), DLS with springs and comfort ranges, chasing a cube\n");
    if (r != IK_OK || chain->joint_count > 64) {
        fprintf(stderr, "ikc demo: the built-in tail chain did not load: %s\n", r != IK_OK ? err.message : "too long");
        if (chain) ik_chain_file_free(chain);
        ++d->solve_failures;
        return;
    }
    n = chain->joint_count;
    ik_chain_file_constraints(chain, constraints);
    tail_bind(&setup, chain);
    {
        ik_chain_solve job = tail_job(&setup, pose[0], ik_vec3_zero());
        bytes = ik_chain_solve_scratch_size(&job);
    }
    scratch = malloc(bytes);
    if (!scratch) {
        ik_chain_file_free(chain);
        ++d->solve_failures;
        return;
    }
    for (j = 0; j < n; ++j) highlight[j] = j;
    table_header();
    ik_chain_file_rest_pose(chain, pose[0]);
    for (f = 0; f < FRAMES; ++f) {
        /* the cube swings round the file's target, in front of the tail's tip */
        ik_real a = (ik_real)f * IK_PI / 3;
        ik_vec3 base = chain->target_count ? chain->targets[0].position_ms : ik_v3(0.8f, 0.6f, -2.2f);
        ik_vec3 target = ik_vec3_add(base, ik_v3(-0.7f + 0.7f * IK_COS(a), 0.5f * IK_SIN(a), 0.2f * IK_SIN(a)));
        ik_transform *p = pose[f];
        tail_timing timing;
        int iterations = 0;
        ik_real error = 0;
        char name[48];
        double us;
        if (f > 0) memcpy(p, pose[f - 1], (size_t)n * sizeof *p);
        timing.setup = &setup;
        timing.start = p;
        timing.target = target;
        timing.scratch = scratch;
        timing.bytes = bytes;
        us = ikc_demo_median_us(tail_solve_once, &timing, 20);
        r = tail_solve(&setup, p, target, scratch, bytes, &iterations, &error);
        if (r != IK_OK) {
            fprintf(stderr, "ikc demo: tail solve failed: %s\n", ik_result_str(r));
            ++d->solve_failures;
        }
        ik_skeleton_fk(&chain->skeleton, p, NULL, model[f]);
        targets[f] = target;
        reached_flags[f] = error <= (ik_real)1e-3 * (ik_real)1.01;
        snprintf(name, sizeof name, "frame %d", f);
        table_row(name, target, reached_flags[f], error, iterations, us);
        memset(&panels[f], 0, sizeof panels[f]);
        panels[f].skeleton = &chain->skeleton;
        panels[f].pose_ls = p;
        panels[f].model_ms = model[f];
        panels[f].constraints = constraints;
        panels[f].highlight = highlight;
        panels[f].highlight_count = n;
        panels[f].targets_ms = &targets[f];
        panels[f].target_reached = &reached_flags[f];
        panels[f].target_count = 1;
        /* the cube, 20 cm, spinning a sixth of a turn a frame about the
         * vertical, the tail's tip on its centre (the target's cross) */
        cubes[f] = ik_mat4_from_trs(target, ik_quat_from_axis_angle(ik_v3(0, 1, 0), a / 2), ik_v3(0.2f, 0.2f, 0.2f));
        panels[f].cubes_ms = &cubes[f];
        panels[f].cube_count = 1;
        snprintf(titles[f], sizeof titles[f], "frame %d: %d iterations, residual %.1e m", f, iterations, (double)error);
        panels[f].title = titles[f];
    }
    pic = ikc_demo_picture("Scene 3: spring tail (seed 002) chasing a moving cube; wedges: hinge limits", panels,
                           FRAMES, 3, IKC_VIEW_PERSP, 1400, 900, NULL);
    pic.ground_y = -0.6f;
    pic.elevation = 40; /* from higher up the tail's length shows in every frame, low or high */
    ikc_demo_save_picture(d, "tail_springs", &pic);
    memcpy(tail_pose_out, pose[FRAMES - 1], (size_t)n * sizeof *tail_pose_out);
    free(scratch);
    *tail_out = chain;
}

/* ---- scene 4: FABRIK and CCD arms --------------------------------------------------- */

typedef struct arm_timing {
    const ik_skeleton *skeleton;
    int use_fabrik;
    const int *joints;
    const ik_constraint *limits;
    ik_vec3 target;
} arm_timing;

static ik_result arm_solve(const ik_skeleton *skeleton, int use_fabrik, const int *joints, const ik_constraint *limits,
                           ik_vec3 target, ik_transform *pose, int *iterations, ik_real *error) {
    ik_real scratch[4 * IK_CHAIN_SCRATCH_REALS_PER_JOINT];
    ik_chain_solve job = ik_chain_solve_def();
    job.method = use_fabrik ? IK_CHAIN_FABRIK : IK_CHAIN_CCD;
    job.base.skeleton = skeleton;
    job.joints = joints;
    job.base.listed_joint_count = 4;
    job.target_ms = target;
    job.base.constraints = limits;
    job.base.pose_ls = pose;
    job.base.scratch = scratch;
    job.base.scratch_bytes = sizeof scratch;
    job.iterations = iterations;
    job.error = error;
    return ik_chain_solve_run(&job);
}

static void arm_solve_once(void *context) {
    const arm_timing *t = (const arm_timing *)context;
    ik_transform pose[IKC_FIGURE_JOINTS];
    ik_skeleton_rest_pose(t->skeleton, pose);
    arm_solve(t->skeleton, t->use_fabrik, t->joints, t->limits, t->target, pose, NULL, NULL);
}

static void arm_scene(ikc_demo_state *d, const ikc_figure *f, ik_transform *scene_pose) {
    const ik_skeleton *skeleton = &f->skeleton;
    static const struct {
        const char *name;
        ik_real x, y, z;
    } cases[] = {
        {"reach forward", 0.45f, 1.25f, 0.40f},
        {"hand overhead", 0.30f, 1.95f, 0.15f},
        {"out of reach", 1.20f, 1.50f, 0.50f},
    };
    enum { CASES = 3 };
    static int arm[4];
    static ik_transform pose[CASES * 2][IKC_FIGURE_JOINTS];
    static ik_mat4 model[CASES * 2][IKC_FIGURE_JOINTS], rest_model[IKC_FIGURE_JOINTS];
    static ik_vec3 targets[CASES];
    static int reached_flags[CASES * 2];
    static char titles[CASES * 2][96];
    ik_constraint limits[4];
    ikc_panel panels[CASES * 2];
    ikc_picture pic;
    int c, s, k;
    arm[0] = ikc_figure_joint(f, IK_ROLE_CLAVICLE_L);
    arm[1] = ikc_figure_joint(f, IK_ROLE_UPPER_ARM_L);
    arm[2] = ikc_figure_joint(f, IK_ROLE_FOREARM_L);
    arm[3] = ikc_figure_joint(f, IK_ROLE_HAND_L);
    for (k = 0; k < 4; ++k) limits[k] = f->limits[arm[k]];
    printf(
        "\nScene 4: left arm (shoulder, upper arm, forearm, hand) with limits: FABRIK and CCD on the same targets\n");
    table_header();
    ik_skeleton_rest_pose(skeleton, pose[0]);
    ik_skeleton_fk(skeleton, pose[0], NULL, rest_model);
    for (c = 0; c < CASES; ++c) {
        targets[c] = ik_v3(cases[c].x, cases[c].y, cases[c].z);
        for (s = 0; s < 2; ++s) {
            int index = c * 2 + s, iterations = 0;
            ik_real error = 0;
            arm_timing timing;
            char name[64];
            double us;
            ik_result r;
            timing.skeleton = skeleton;
            timing.use_fabrik = s == 0;
            timing.joints = arm;
            timing.limits = limits;
            timing.target = targets[c];
            us = ikc_demo_median_us(arm_solve_once, &timing, 200);
            ik_skeleton_rest_pose(skeleton, pose[index]);
            r = arm_solve(skeleton, s == 0, arm, limits, targets[c], pose[index], &iterations, &error);
            if (r != IK_OK) {
                fprintf(stderr, "ikc demo: %s failed: %s\n", s == 0 ? "FABRIK" : "CCD", ik_result_str(r));
                ++d->solve_failures;
            }
            ik_skeleton_fk(skeleton, pose[index], NULL, model[index]);
            reached_flags[index] = error <= (ik_real)1e-3 * (ik_real)1.01;
            snprintf(name, sizeof name, "%s: %s", s == 0 ? "FABRIK" : "CCD", cases[c].name);
            table_row(name, targets[c], reached_flags[index], error, iterations, us);
            panels[index] = humanoid_panel(f, pose[index], model[index], rest_model, arm, 4);
            panels[index].targets_ms = &targets[c];
            panels[index].target_reached = &reached_flags[index];
            panels[index].target_count = 1;
            snprintf(titles[index], sizeof titles[index], "%s, %s: %d iter, residual %.1e m", s == 0 ? "FABRIK" : "CCD",
                     cases[c].name, iterations, (double)error);
            panels[index].title = titles[index];
            if (index == 0) {
                for (k = 0; k < 4; ++k) scene_pose[arm[k]].rotation = pose[index][arm[k]].rotation;
            }
        }
    }
    pic = ikc_demo_picture("Scene 4: FABRIK (left) and CCD (right), same targets, same limits", panels, CASES * 2, 2,
                           IKC_VIEW_PERSP, 1100, 1300, NULL);
    ikc_demo_save_picture(d, "arms_fabrik_ccd", &pic);
}

static void usage(FILE *out) {
    fprintf(out,
            "usage: ikc demo [-o DIR] [--svg] [--layout]\n"
            "\n"
            "The showcase on built-in data (no files needed): a procedural humanoid with\n"
            "joint limits; its leg placed by two-bone IK in seed 000's three cases; its head\n"
            "looking at a moving point; seed 002's spring tail (chain file built in) chasing\n"
            "a cube; a FABRIK arm and a CCD arm on the same targets; the full-body humanoid\n"
            "rig standing on uneven ground and on stairs with both feet planted, both hands\n"
            "on a swinging staff, and its head tracking a moving point; the whole body\n"
            "picking a box up, reaching a high shelf and pushing a wall, feet pinned and\n"
            "balanced (ik_full_body_run); the figure walking\n"
            "up stairs (a procedural walk, seed 004). Prints a table per\n"
            "scene (target, reached, residual, iterations, microseconds per solve),\n"
            "writes PNG pictures plus scene.gltf into DIR (default: out) and ends with\n"
            "a list of what it wrote and which picture to open first.\n"
            "\n"
            "options:\n"
            "  -o, --output DIR  where the files go (created when missing)\n"
            "  --svg             also write each picture as SVG (vector, 0.4-4 MB each)\n"
            "  --layout          also write where everything in each picture went (joints,\n"
            "                    labels and their leaders, the figures' outlines) as\n"
            "                    NAME.layout.json, as ikc render --layout does\n"
            "\n"
            "examples:\n"
            "  ikc demo\n"
            "  ikc demo -o /tmp/ikit-demo --svg\n"
            "\n"
            "exit codes: 0 ok, 1 a solver failed, 2 bad usage, 6 a file was not written.\n");
}

int ikc_demo(int argc, char **argv) {
    static ikc_figure figure;
    ikc_mesh body;
    const ik_skeleton *skeleton = &figure.skeleton;
    static ik_transform scene_pose[IKC_FIGURE_JOINTS], tail_pose[64];
    ik_chain_file *tail = NULL;
    ikc_demo_state d;
    int i;
    memset(&d, 0, sizeof d);
    d.dir = "out";
    for (i = 0; i < argc; ++i) {
        if (ikc_is_help(argv[i])) {
            usage(stdout);
            return IKC_EXIT_OK;
        } else if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) {
            if (!(d.dir = ikc_option_value("demo", argc, argv, &i))) return IKC_EXIT_USAGE;
        } else if (strcmp(argv[i], "--svg") == 0) {
            d.svg = 1;
        } else if (strcmp(argv[i], "--layout") == 0) {
            d.layout = 1;
        } else {
            fprintf(stderr, "ikc demo: unknown argument '%s' (see ikc demo --help)\n", argv[i]);
            return IKC_EXIT_USAGE;
        }
    }
    if (!ikc_figure_init(&figure)) {
        fprintf(stderr, "ikc demo: the built-in humanoid failed validation\n");
        return IKC_EXIT_FAILURE;
    }
    d.figure = &figure;
    if (ikc_figure_body(&figure, &body) > 0) d.body = &body;
    if (!ikc_make_dirs(d.dir)) {
        fprintf(stderr, "ikc demo: cannot create the directory '%s'\n", d.dir);
        return IKC_EXIT_WRITE;
    }
    printf("ikit %s demo: a %d-joint procedural humanoid, Y up, metres; pictures go to %s/\n", IKC_VERSION,
           skeleton->joint_count, d.dir);
    humanoid_scene(&d, &figure);
    leg_scene(&d, &figure, scene_pose);
    head_scene(&d, &figure, scene_pose);
    tail_scene(&d, &tail, tail_pose);
    arm_scene(&d, &figure, scene_pose);
    ikc_demo_walk_scene(&d, &figure);
    ikc_demo_retarget_scene(&d, &figure);
    {
        ikc_scene_skeleton list[6];
        char path[1100], error[600];
        int count = 1;
        list[0].name = "humanoid";
        list[0].skeleton = skeleton;
        list[0].pose_ls = scene_pose;
        list[0].placement = ik_vec3_zero();
        if (tail) {
            list[1].name = "tail";
            list[1].skeleton = &tail->skeleton;
            list[1].pose_ls = tail_pose;
            list[1].placement = ik_v3(2.5f, 0.6f, 1.5f);
            count = 2;
        }
        count += ikc_demo_humanoid_scenes(&d, list + count, 6 - count);
        snprintf(path, sizeof path, "%s/scene.gltf", d.dir);
        printf(
            "\nThe scene as glTF (humanoid with the leg, head and FABRIK arm solutions; the tail's last frame;\n"
            "the rig's figure on uneven ground, on a stair, holding the staff and looking, 2 m apart along -x):\n");
        if (ikc_write_scene_gltf(path, list, count, error, sizeof error)) {
            printf("  wrote %s\n", path);
            ikc_demo_wrote(&d, "scene.gltf",
                           "every scene's solved figures in one glTF file (Blender, any glTF viewer)");
        } else {
            fprintf(stderr, "ikc demo: %s\n", error);
            ++d.write_failures;
        }
    }
    if (tail) ik_chain_file_free(tail);
    if (d.body) ikc_mesh_free(d.body);
    ikc_demo_summary(&d, "leg_two_bone.png", "IK in one picture: a leg put on targets it can and cannot reach");
    if (d.write_failures) return IKC_EXIT_WRITE;
    return d.solve_failures ? IKC_EXIT_FAILURE : IKC_EXIT_OK;
}

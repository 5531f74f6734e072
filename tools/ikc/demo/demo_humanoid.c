/* `ikc demo`'s humanoid scenes (see demo_humanoid.h). Every frame is one
 * ik_humanoid_solve job on ik_humanoid_build_skeleton's 1.8 m figure (Y up,
 * facing +Z, its left on +X): seed 001's order -- pelvis, look-at,
 * clavicles, two-bone arms and legs, feet on the ground with heel lift. */
#include <string.h>

#include <ikit/body_mass.h>
#include <ikit/full_body.h>
#include <ikit/humanoid.h>
#include <ikit/prop.h>

#include "demo_figure.h"
#include "demo_humanoid.h"
#include "ikc.h"

#define JOINTS IKC_FIGURE_JOINTS

/* One frame: the job's template solved from `start`, timed from the same
 * start pose. */
typedef struct frame_timing {
    const ik_humanoid_solve *job;
    const ik_transform *start;
} frame_timing;

static void frame_solve_once(void *context) {
    const frame_timing *t = (const frame_timing *)context;
    ik_transform pose[JOINTS];
    ik_mat4 model[JOINTS];
    ik_humanoid_report report;
    ik_humanoid_solve job = *t->job;
    memcpy(pose, t->start, sizeof pose);
    job.pose_ls = pose;
    job.model_ms = model;
    job.report = &report;
    ik_humanoid_solve_run(&job);
}

static double solve_frame(ikc_demo_state *d, ik_humanoid_solve *job, const ik_transform *start, ik_transform *pose,
                          ik_mat4 *model, ik_humanoid_report *report) {
    frame_timing timing;
    double us;
    ik_result r;
    timing.job = job;
    timing.start = start;
    us = ikc_demo_median_us(frame_solve_once, &timing, 200);
    memcpy(pose, start, JOINTS * sizeof *pose);
    memset(report, 0, sizeof *report);
    job->pose_ls = pose;
    job->model_ms = model;
    job->report = report;
    r = ik_humanoid_solve_run(job);
    if (r != IK_OK) {
        fprintf(stderr, "ikc demo: humanoid solve failed: %s\n", ik_result_str(r));
        ++d->solve_failures;
    }
    return us;
}

static ikc_panel figure_panel(const ikc_figure *f, const ik_transform *pose, const ik_mat4 *model, const int *highlight,
                              int highlight_count) {
    ikc_panel p;
    memset(&p, 0, sizeof p);
    p.skeleton = &f->skeleton;
    p.pose_ls = pose;
    p.model_ms = model;
    p.highlight = highlight;
    p.highlight_count = highlight_count;
    return p;
}

static void table_header(const char *residual) {
    printf("%-46s %-24s %-8s %10s %6s %10s\n", "case", "target (m)", "reached", residual, "iter", "us/solve");
}

static void table_row(const char *name, ik_vec3 target, int reached, ik_real residual, double us) {
    printf("%-46s (%6.2f, %5.2f, %5.2f)  %-8s %10.2e %6d %10.2f\n", name, (double)target.x, (double)target.y,
           (double)target.z, reached ? "yes" : "no", (double)residual, 1, us);
}

/* The ankle's rest position on the ground under it: a goal no higher than
 * the ground, so the solve stands the foot on the surface there. */
static ik_vec3 on_ground(const ik_ground *g, ik_real x, ik_real z) {
    ik_real h = 0;
    ik_ground_height_at(g, x, z, &h, NULL);
    return ik_v3(x, h, z);
}

static int leg_highlight(const ikc_figure *f, int *joints) {
    int n = 0, k;
    for (k = IK_LIMB_LEG_L; k <= IK_LIMB_LEG_R; ++k) {
        joints[n++] = f->rig.limb[k].start;
        joints[n++] = f->rig.limb[k].mid;
        joints[n++] = f->rig.limb[k].end;
        if (f->rig.limb[k].toe >= 0) joints[n++] = f->rig.limb[k].toe;
    }
    return n;
}

/* ---- (a) uneven ground and (b) stairs: both feet planted -------------------------- */

typedef struct stance {
    const char *name;
    const ik_ground *ground;
    ik_real step_forward; /* the left foot's goal this far ahead of its rest place */
} stance;

/* Solve each stance with both feet on its ground; panels show the result
 * over the rest pose. */
static void ground_scene(ikc_demo_state *d, const ikc_figure *f, const stance *stances, int count, ikc_panel *panels,
                         ik_transform (*pose)[JOINTS], ik_mat4 (*model)[JOINTS], char (*captions)[120],
                         const int *highlight, int highlight_count) {
    static ik_mat4 rest_model[JOINTS];
    int s, k;
    ik_skeleton_fk(&f->skeleton, f->rest_ls, NULL, rest_model);
    for (s = 0; s < count; ++s) {
        ik_humanoid_solve job = ik_humanoid_solve_def();
        ik_humanoid_report report;
        double us;
        job.rig = &f->rig;
        job.ground = stances[s].ground;
        for (k = IK_LIMB_LEG_L; k <= IK_LIMB_LEG_R; ++k) {
            ik_vec3 ankle = ik_mat4_translation(&rest_model[f->rig.limb[k].end]);
            ik_real ahead = k == IK_LIMB_LEG_L ? stances[s].step_forward : 0;
            job.goal[k].enabled = 1;
            job.goal[k].position_ms = on_ground(stances[s].ground, ankle.x, ankle.z + ahead);
        }
        us = solve_frame(d, &job, f->rest_ls, pose[s], model[s], &report);
        for (k = 0; k < 2; ++k) {
            char name[80];
            snprintf(name, sizeof name, "%s: %s foot", stances[s].name, k == 0 ? "left" : "right");
            table_row(name, report.ground_point_ms[k], report.reached[IK_LIMB_LEG_L + k] && report.grounded[k],
                      report.residual[IK_LIMB_LEG_L + k], us);
        }
        panels[s] = figure_panel(f, pose[s], model[s], highlight, highlight_count);
        panels[s].ghost_ms = rest_model;
        panels[s].title = stances[s].name;
        snprintf(captions[s], sizeof captions[s], "feet %.2f and %.2f m up, pelvis %+.3f m%s%s",
                 (double)report.ground_point_ms[0].y, (double)report.ground_point_ms[1].y, (double)report.pelvis_offset,
                 report.heel_lifted[0] ? ", left heel lifted" : "", report.heel_lifted[1] ? ", right heel lifted" : "");
        panels[s].caption = captions[s];
    }
}

/* Bumps: two sines across and a ripple, a few centimetres high, sampled
 * every 8 cm. */
#define FIELD_N 31
static ik_real field_heights[FIELD_N * FIELD_N];

static ik_ground uneven_ground(void) {
    int ix, iz;
    ik_real cell = 0.08f, x0 = -1.2f, z0 = -1.0f;
    for (iz = 0; iz < FIELD_N; ++iz)
        for (ix = 0; ix < FIELD_N; ++ix) {
            ik_real x = x0 + (ik_real)ix * cell, z = z0 + (ik_real)iz * cell;
            field_heights[iz * FIELD_N + ix] =
                0.06f * IK_SIN(6 * x + 0.5f) + 0.04f * IK_SIN(4 * z + 1) + 0.02f * IK_SIN(9 * x + 7 * z);
        }
    return ik_ground_height_field(ik_v3(x0, 0, z0), cell, FIELD_N, FIELD_N, field_heights);
}

static void uneven_scene(ikc_demo_state *d, const ikc_figure *f, ik_transform *keep) {
    static ik_ground ground;
    static ik_transform pose[2][JOINTS];
    static ik_mat4 model[2][JOINTS];
    static char captions[2][120];
    static int highlight[10];
    const stance stances[2] = {{"standing where it stood", &ground, 0}, {"left foot a step ahead", &ground, 0.32f}};
    ikc_panel panels[2];
    ikc_picture pic;
    int n = leg_highlight(f, highlight);
    ground = uneven_ground();
    printf("\nScene 5: standing on uneven ground (a height field), both feet planted (humanoid rig, seed 001/004)\n");
    table_header("residual");
    ground_scene(d, f, stances, 2, panels, pose, model, captions, highlight, n);
    pic = ikc_demo_picture("Scene 5: feet on uneven ground (a height field; grey: the rest pose)", panels, 2, 2,
                           IKC_VIEW_PERSP, 1400, 760, &ground);
    ikc_demo_save_picture(d, "humanoid_uneven_ground", &pic);
    memcpy(keep, pose[1], sizeof pose[1]);
}

static void stairs_scene(ikc_demo_state *d, const ikc_figure *f, ik_transform *keep) {
    static ik_ground ahead, sideways;
    static ik_transform pose[2][JOINTS];
    static ik_mat4 model[2][JOINTS];
    static char captions[2][120];
    static int highlight[10];
    const stance stances[2] = {{"stepping up: left foot on the first step", &ahead, 0.36f},
                               {"across the stairs: left foot a step higher", &sideways, 0}};
    ikc_panel panels[2];
    ikc_picture pic;
    int n = leg_highlight(f, highlight);
    /* 16 cm risers, 35 cm treads: the first riser 5 cm ahead of the toes
     * (stepping up), and one riser between the feet (climbing left) */
    ahead = ik_ground_stairs(ik_v3(0, 0, 0.26f), ik_v3(0, 0, 1), 0.16f, 0.35f, 4);
    sideways = ik_ground_stairs(ik_v3(0, 0, 0), ik_v3(1, 0, 0), 0.16f, 0.35f, 4);
    printf("\nScene 6: standing on stairs (16 cm rise, 35 cm run), both feet planted\n");
    table_header("residual");
    ground_scene(d, f, stances, 2, panels, pose, model, captions, highlight, n);
    pic = ikc_demo_picture("Scene 6a: stepping up a stair, side view (grey: the rest pose)", &panels[0], 1, 1,
                           IKC_VIEW_SIDE, 800, 760, &ahead);
    ikc_demo_save_picture(d, "humanoid_stairs_up", &pic);
    pic = ikc_demo_picture("Scene 6b: standing across stairs, front view (grey: the rest pose)", &panels[1], 1, 1,
                           IKC_VIEW_FRONT, 800, 760, &sideways);
    ikc_demo_save_picture(d, "humanoid_stairs_across", &pic);
    memcpy(keep, pose[0], sizeof pose[0]);
}

/* ---- (c) a two-handed staff that swings ----------------------------------------- */

#define STAFF_FRAMES 6

static void staff_scene(ikc_demo_state *d, const ikc_figure *f, ik_transform *keep) {
    static ik_transform pose[STAFF_FRAMES][JOINTS];
    static ik_mat4 model[STAFF_FRAMES][JOINTS], rest_model[JOINTS];
    static ik_vec3 rods[STAFF_FRAMES][2];
    static int reached[STAFF_FRAMES][2], highlight[8];
    static char titles[STAFF_FRAMES][80];
    static ik_ground floor;
    const ik_real half_length = 0.75f, grip_offset = 0.22f;
    ik_vec3 shoulder_l, shoulder_r, center;
    ik_transform staff0, staff;
    ik_prop_grip grip[2];
    ikc_panel panels[STAFF_FRAMES];
    ikc_picture pic;
    int frame, side, n = 0;
    floor = ik_ground_plane(ik_vec3_zero(), ik_v3(0, 1, 0));
    ik_skeleton_fk(&f->skeleton, f->rest_ls, NULL, rest_model);
    for (side = 0; side < 2; ++side) {
        highlight[n++] = f->rig.limb[side].clavicle;
        highlight[n++] = f->rig.limb[side].start;
        highlight[n++] = f->rig.limb[side].mid;
        highlight[n++] = f->rig.limb[side].end;
    }
    /* The staff lies across the body in front of the chest (along x); each
     * hand takes hold 22 cm from its middle with its rest rotation. */
    shoulder_l = ik_mat4_translation(&rest_model[f->rig.limb[IK_LIMB_ARM_L].start]);
    shoulder_r = ik_mat4_translation(&rest_model[f->rig.limb[IK_LIMB_ARM_R].start]);
    center = ik_vec3_add(ik_vec3_lerp(shoulder_l, shoulder_r, 0.5f), ik_v3(0, -0.3f, 0.34f));
    staff0 = ik_transform_make(center, ik_quat_identity(), ik_v3(1, 1, 1));
    for (side = 0; side < 2; ++side)
        ik_prop_grip_make(staff0, ik_vec3_add(center, ik_v3(side == 0 ? grip_offset : -grip_offset, 0, 0)),
                          ik_mat4_rotation(&rest_model[f->rig.limb[side].end]), &grip[side]);
    printf("\nScene 7: both hands on a staff that swings (grips in the staff's frame, seed 001's props)\n");
    table_header("residual");
    for (frame = 0; frame < STAFF_FRAMES; ++frame) {
        /* the staff rolls from -45 to +45 degrees about the forward axis and
         * sways 10 cm sideways and forward */
        ik_real t = (ik_real)frame / (STAFF_FRAMES - 1), roll = ik_rad(-45 + 90 * t);
        ik_humanoid_solve job = ik_humanoid_solve_def();
        ik_humanoid_report report;
        double us;
        staff = staff0;
        staff.translation =
            ik_vec3_add(center, ik_v3(0.1f * (t - 0.5f) * 2, 0.05f * IK_SIN(IK_PI * t), 0.1f * IK_SIN(IK_PI * t)));
        staff.rotation = ik_quat_from_axis_angle(ik_v3(0, 0, 1), roll);
        job.rig = &f->rig;
        job.ground = &floor;
        for (side = 0; side < 2; ++side) {
            job.goal[side].enabled = 1;
            job.goal[side].use_rotation = 1;
            ik_prop_grip_target(&grip[side], staff, &job.goal[side].position_ms, &job.goal[side].rotation_ms);
        }
        us = solve_frame(d, &job, frame > 0 ? pose[frame - 1] : f->rest_ls, pose[frame], model[frame], &report);
        for (side = 0; side < 2; ++side) {
            char name[64];
            reached[frame][side] = report.reached[side];
            snprintf(name, sizeof name, "frame %d (roll %+3.0f deg): %s hand", frame, (double)ik_deg(roll),
                     side == 0 ? "left" : "right");
            table_row(name, job.goal[side].position_ms, report.reached[side], report.residual[side], us);
        }
        rods[frame][0] = ik_transform_point(staff, ik_v3(half_length, 0, 0));
        rods[frame][1] = ik_transform_point(staff, ik_v3(-half_length, 0, 0));
        panels[frame] = figure_panel(f, pose[frame], model[frame], highlight, n);
        panels[frame].rods_ms = rods[frame];
        panels[frame].rod_count = 1;
        snprintf(titles[frame], sizeof titles[frame], "frame %d: staff rolled %+.0f deg, hands %s", frame,
                 (double)ik_deg(roll), reached[frame][0] && reached[frame][1] ? "on it" : "off it");
        panels[frame].title = titles[frame];
    }
    pic = ikc_demo_picture("Scene 7: two hands on a swinging staff (orange: clavicles and arms)", panels, STAFF_FRAMES,
                           3, IKC_VIEW_FRONT, 1400, 1000, NULL);
    ikc_demo_save_picture(d, "humanoid_staff", &pic);
    memcpy(keep, pose[STAFF_FRAMES / 2], sizeof pose[0]);
}

/* ---- (d) the head tracking a moving point --------------------------------------- */

#define LOOK_FRAMES 6

static void look_scene(ikc_demo_state *d, const ikc_figure *f, ik_transform *keep) {
    static ik_transform pose[LOOK_FRAMES][JOINTS];
    static ik_mat4 model[LOOK_FRAMES][JOINTS], rest_model[JOINTS];
    static ik_vec3 marks[LOOK_FRAMES], gaze[LOOK_FRAMES][2];
    static int reached[LOOK_FRAMES], highlight[IK_HUMANOID_MAX_SPINE];
    static char titles[LOOK_FRAMES][80];
    int head = f->rig.map.joint[IK_ROLE_HEAD], frame, k;
    ikc_panel panels[LOOK_FRAMES];
    ikc_picture pic;
    ik_skeleton_fk(&f->skeleton, f->rest_ls, NULL, rest_model);
    for (k = 0; k < f->rig.look_count; ++k) highlight[k] = f->rig.look_chain[k];
    printf("\nScene 8: the head tracks a point moving round in front (look-at over spine, chest, neck, head)\n");
    table_header("error deg");
    for (frame = 0; frame < LOOK_FRAMES; ++frame) {
        /* from low on the figure's right to high on its left, 0.9 m away */
        ik_real t = (ik_real)frame / (LOOK_FRAMES - 1), azimuth = ik_rad(-65 + 130 * t);
        ik_vec3 target = ik_v3(0.9f * IK_SIN(azimuth), 1.2f + 0.8f * t, 0.9f * IK_COS(azimuth)), eye, dir;
        ik_humanoid_solve job = ik_humanoid_solve_def();
        ik_humanoid_report report;
        ik_real error;
        char name[64];
        double us;
        job.rig = &f->rig;
        job.look_at = 1;
        job.look_target_ms = target;
        us = solve_frame(d, &job, frame > 0 ? pose[frame - 1] : f->rest_ls, pose[frame], model[frame], &report);
        eye = ik_mat4_translation(&model[frame][head]);
        dir = ik_vec3_normalize(ik_mat4_transform_vector(&model[frame][head], f->rig.head_forward_ls));
        error = ik_deg(ik_acos_safe(ik_vec3_dot(dir, ik_vec3_normalize(ik_vec3_sub(target, eye)))));
        snprintf(name, sizeof name, "frame %d: head", frame);
        table_row(name, target, report.look_reached, error, us);
        marks[frame] = target;
        reached[frame] = report.look_reached;
        gaze[frame][0] = eye;
        gaze[frame][1] = ik_vec3_mad(eye, dir, ik_vec3_distance(eye, target));
        panels[frame] = figure_panel(f, pose[frame], model[frame], highlight, f->rig.look_count);
        panels[frame].ghost_ms = rest_model;
        panels[frame].targets_ms = &marks[frame];
        panels[frame].target_reached = &reached[frame];
        panels[frame].target_count = 1;
        panels[frame].lines_ms = gaze[frame];
        panels[frame].line_count = 1;
        snprintf(titles[frame], sizeof titles[frame], "frame %d: %.1f deg off the point", frame, (double)error);
        panels[frame].title = titles[frame];
    }
    pic =
        ikc_demo_picture("Scene 8: head tracking a moving point (dashed: the face's forward, as long as the distance)",
                         panels, LOOK_FRAMES, 3, IKC_VIEW_PERSP, 1400, 1000, NULL);
    pic.show_ground = 0;
    ikc_demo_save_picture(d, "humanoid_look_at", &pic);
    memcpy(keep, pose[LOOK_FRAMES - 1], sizeof pose[0]);
}

/* ---- (e) the whole body: a box picked up, a high shelf, a wall ------------------- */

#define BODY_CASES 3

typedef struct body_timing {
    const ik_full_body *job;
    const ik_transform *start;
} body_timing;

static void body_solve_once(void *context) {
    const body_timing *t = (const body_timing *)context;
    static ik_transform pose[JOINTS];
    static ik_mat4 model[JOINTS];
    ik_full_body job = *t->job;
    memcpy(pose, t->start, sizeof pose);
    job.pose_ls = pose;
    job.model_ms = model;
    job.report = NULL;
    ik_full_body_run(&job);
}

/* Three full-body jobs (ik_full_body_run) from the rest pose, both feet
 * pinned: both hands on a box 0.62 m high in front (balance on: the hips
 * go back as the trunk bends); the left hand up at a shelf 2.1 m high
 * (balance on, on tiptoe: allow_heel_lift, the heels rise and the support
 * shrinks to the balls of the feet); both hands on
 * a wall 0.75 m ahead at chest height (balance off: the wall holds the
 * body up). The dashed lines: the centre of mass dropped to the floor and
 * the support polygon of the feet. */
static void full_body_scene(ikc_demo_state *d, const ikc_figure *f) {
    static ik_transform pose[BODY_CASES][JOINTS];
    static ik_mat4 model[BODY_CASES][JOINTS], rest_model[JOINTS];
    static ik_vec3 marks[BODY_CASES][2], lines[BODY_CASES][2 * (IK_FULL_BODY_MAX_SUPPORT + 1)];
    static int reached[BODY_CASES][2], highlight[8];
    static char titles[BODY_CASES][120], scratch[1024];
    static const char *const names[BODY_CASES] = {"picking a box up", "reaching a high shelf", "pushing a wall"};
    ik_body_mass mass;
    ikc_panel panels[BODY_CASES];
    ikc_picture pic;
    int c, k, h = 0;
    ik_skeleton_fk(&f->skeleton, f->rest_ls, NULL, rest_model);
    if (ik_body_mass_init(&mass, &f->rig, IK_BODY_MASS_MALE, 75) != IK_OK ||
        ik_full_body_scratch_size(&f->rig) > sizeof scratch) {
        fprintf(stderr, "ikc demo: no mass model for the figure\n");
        ++d->solve_failures;
        return;
    }
    highlight[h++] = f->rig.pelvis;
    for (k = 0; k < 2; ++k) highlight[h++] = f->rig.limb[IK_LIMB_ARM_L + k].start;
    printf(
        "\nScene 9: the whole body follows the hands, feet pinned (ik_full_body_run: pelvis, spine, chest,\n"
        "neck and clavicles by damped least squares, the limbs by two-bone IK, balance over the feet)\n");
    table_header("residual");
    for (c = 0; c < BODY_CASES; ++c) {
        ik_full_body job = ik_full_body_def();
        ik_full_body_report report;
        body_timing timing;
        int n = 0, e;
        double us;
        char name[80];
        job.rig = &f->rig;
        job.mass = &mass;
        job.reference_ls = f->rest_ls;
        job.scratch = scratch;
        job.scratch_bytes = sizeof scratch;
        job.effector[IK_FB_FOOT_L].pinned = job.effector[IK_FB_FOOT_R].pinned = 1;
        job.balance = c < 2;
        if (c == 0) {
            marks[c][n++] = ik_v3(0.17f, 0.62f, 0.42f);
            marks[c][n++] = ik_v3(-0.17f, 0.62f, 0.42f);
        } else if (c == 1) {
            marks[c][n++] = ik_v3(0.15f, 2.10f, 0.35f);
            job.effector[IK_FB_FOOT_L].allow_heel_lift = job.effector[IK_FB_FOOT_R].allow_heel_lift = 1;
        } else {
            /* the body tips forward from the feet rather than pushing its
             * hips into the wall: a stiffer pelvis shift */
            marks[c][n++] = ik_v3(0.20f, 1.30f, 0.75f);
            marks[c][n++] = ik_v3(-0.20f, 1.30f, 0.75f);
            job.stiffness[IK_FB_JOINT_PELVIS_SHIFT] = 6;
        }
        for (k = 0; k < n; ++k) {
            job.effector[IK_FB_HAND_L + k].enabled = 1;
            job.effector[IK_FB_HAND_L + k].position_ms = marks[c][k];
        }
        timing.job = &job;
        timing.start = f->rest_ls;
        us = ikc_demo_median_us(body_solve_once, &timing, 20);
        memcpy(pose[c], f->rest_ls, sizeof pose[c]);
        job.pose_ls = pose[c];
        job.model_ms = model[c];
        job.report = &report;
        if (ik_full_body_run(&job) != IK_OK) {
            fprintf(stderr, "ikc demo: full-body solve failed\n");
            ++d->solve_failures;
            continue;
        }
        for (k = 0; k < n; ++k) {
            reached[c][k] = report.reached[IK_FB_HAND_L + k];
            snprintf(name, sizeof name, "%s: %s hand", names[c], k == 0 ? "left" : "right");
            table_row(name, marks[c][k], reached[c][k], report.residual[IK_FB_HAND_L + k], us);
        }
        /* the centre of mass dropped to the floor, and the support's edges */
        e = 0;
        lines[c][e++] = report.centre_of_mass_ms;
        lines[c][e++] = ik_v3(report.centre_of_mass_ms.x, 0, report.centre_of_mass_ms.z);
        for (k = 0; k < report.support_count; ++k) {
            lines[c][e++] = report.support_ms[k];
            lines[c][e++] = report.support_ms[(k + 1) % report.support_count];
        }
        panels[c] = figure_panel(f, pose[c], model[c], highlight, h);
        panels[c].ghost_ms = rest_model;
        panels[c].targets_ms = marks[c];
        panels[c].target_reached = reached[c];
        panels[c].target_count = n;
        panels[c].lines_ms = lines[c];
        panels[c].line_count = e / 2;
        snprintf(titles[c], sizeof titles[c], "%s%s: %s, %s", names[c], c == 1 ? " on tiptoe" : "",
                 report.reached[IK_FB_HAND_L] ? "reached" : "as far as it goes",
                 report.balance == IK_BALANCE_KEPT  ? "balanced"
                 : report.balance == IK_BALANCE_OFF ? "held by the wall"
                                                    : "not balanced");
        panels[c].title = titles[c];
        {
            char said[400];
            ik_full_body_report_describe(&job, &report, said, sizeof said);
            printf("  %s: %s%s\n", names[c], said, report.balance == IK_BALANCE_OFF ? " (balance off: the wall)" : "");
            if (c == 1)
                printf("  %s: heels lifted %.0f and %.0f degrees\n", names[c], (double)report.heel_lift[0] * 57.29578,
                       (double)report.heel_lift[1] * 57.29578);
        }
    }
    pic = ikc_demo_picture(
        "Scene 9: the whole body follows the hands, feet pinned (dashed: the centre of mass "
        "dropped to the floor, the feet's support)",
        panels, BODY_CASES, 3, IKC_VIEW_SIDE, 1500, 700, NULL);
    ikc_demo_save_picture(d, "humanoid_full_body", &pic);
}

int ikc_demo_humanoid_scenes(ikc_demo_state *d, ikc_scene_skeleton *list, int capacity) {
    const ikc_figure *f = d->figure;
    static ik_transform kept[4][JOINTS];
    static const char *const names[4] = {"humanoid_uneven_ground", "humanoid_stairs", "humanoid_staff",
                                         "humanoid_look_at"};
    int k, count = 0;
    uneven_scene(d, f, kept[0]);
    stairs_scene(d, f, kept[1]);
    staff_scene(d, f, kept[2]);
    look_scene(d, f, kept[3]);
    full_body_scene(d, f);
    for (k = 0; k < 4 && count < capacity; ++k) {
        list[count].name = names[k];
        list[count].skeleton = &f->skeleton;
        list[count].pose_ls = kept[k];
        list[count].placement = ik_v3(-2.0f * (ik_real)(k + 1), 0, 0);
        ++count;
    }
    return count;
}

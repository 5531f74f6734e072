/* The demo's walking scene (demo_walk.h). */
#include <stdio.h>

#include <ikit/walk.h>

#include "demo_walk.h"
#include "ikc.h"
#include "walk_view.h"

#define WALK_FRAMES 91 /* three seconds at 30 frames per second */

static ik_transform walk_poses[WALK_FRAMES * IKC_FIGURE_JOINTS];
static ik_mat4 walk_model[IKC_FIGURE_JOINTS];

static void walk_once(void *context) { ik_walk_run((const ik_walk *)context); }

/* Stairs of 15 cm risers and 30 cm treads starting 45 cm ahead; one tread a
 * step (a stride of two treads) at 0.55 m/s, the other gait parameters the
 * defaults for the figure's legs. */
void ikc_demo_walk_scene(ikc_demo_state *d, const ikc_figure *figure) {
    ik_ground stairs = ik_ground_stairs(ik_v3(0, 0, 0.45f), ik_v3(0, 0, 1), 0.15f, 0.3f, 8);
    ik_take take;
    ik_walk job = ik_walk_def(&figure->rig, NULL);
    ik_walk_report report;
    ikc_walk_picture pic;
    ik_result r;
    double us;
    take.frame_count = WALK_FRAMES;
    take.joint_count = figure->skeleton.joint_count;
    take.frame_time = (ik_real)1 / 30;
    take.poses_ls = walk_poses;
    job.speed = 0.55f;
    job.stride = 0.6f;
    job.ground = &stairs;
    job.take = &take;
    job.model_ms = walk_model;
    job.report = &report;
    printf(
        "\nA procedural walk (seed 004): the figure up stairs (rise 0.15 m, tread 0.30 m), speed %.2f m/s,\n"
        "stride %.2f m, cadence %.2f steps/s, step height %.3f m; feet on eased curves, planted while they\n"
        "stand; legs by the rig's two-bone solve, heels lifting at toe-off.\n",
        (double)job.speed, (double)job.stride, (double)ik_walk_cadence(&job), (double)job.step_height);
    r = ik_walk_run(&job);
    if (r != IK_OK) {
        fprintf(stderr, "ikc demo: the walk failed: %s\n", ik_result_str(r));
        ++d->solve_failures;
        return;
    }
    us = ikc_demo_median_us(walk_once, &job, 3);
    printf("  %d frames, %.2f m walked, %d footfalls, largest miss of a hand or foot %.2g m, %.0f frames/s\n",
           take.frame_count, (double)report.distance, report.steps, (double)report.worst_residual,
           take.frame_count / (us * 1e-6));
    if (!ikc_walk_picture_make(&pic, &figure->rig, NULL, &take, &stairs, d->body, 6, 3,
                               "A walk up stairs (ikc walk --stairs)")) {
        fprintf(stderr, "ikc demo: out of memory for the walk's picture\n");
        ++d->write_failures;
        return;
    }
    ikc_demo_save_picture(d, "walk_stairs", &pic.picture);
    ikc_walk_picture_free(&pic);
}

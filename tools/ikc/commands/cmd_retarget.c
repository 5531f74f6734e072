/* `ikc retarget SOURCE TARGET_RIG -o OUT`: a take played on another
 * humanoid (ikit/retarget.h), with feet held where the source's were
 * planted; a table of what the IK pass changed, optionally a filmstrip of
 * the source and the result side by side, and the target rig's file
 * written with the new clip (glTF) or frames (BVH). */
#include <stdlib.h>

#include <cjson/cJSON.h>
#include <string.h>

#include <ikit/body_directions.h>
#include <ikit/leg_figures.h>
#include <ikit/retarget.h>
#include <ikit/skating.h>

#include "draw.h"
#include "ground_figures.h"
#include "ikc.h"
#include "mesh_view.h"
#include "motion_take.h"
#include "retarget_view.h"

typedef struct retarget_options {
    const char *source, *target, *out, *clip, *map, *target_map, *render;
    int hands, overwrite, quiet, json;
    double fps; /* a glTF source baked at this rate (0: motion_take.h's default) */
} retarget_options;

static void usage(FILE *out) {
    fprintf(out,
            "usage: ikc retarget SOURCE TARGET_RIG -o OUT [--clip NAME] [--map FILE] [--target-map FILE]\n"
            "                    [--fps N] [--hands] [--render PICTURE] [--overwrite] [--quiet] [--json]\n"
            "\n"
            "Plays SOURCE's take (a BVH, or a glTF clip) on TARGET_RIG, another humanoid\n"
            "with other proportions, rest pose, joint names or units: each joint turns\n"
            "away from its own rest as its partner turns away from its rest, in a frame\n"
            "both bodies share; the hips travel by the ratio of leg lengths; the source's\n"
            "foot contacts are held on the new legs (knees on their side). OUT is the\n"
            "target's format: glTF with a new animation \"retarget\", or BVH frames.\n"
            "\n"
            "  --clip NAME        the source clip (name or number; default the first)\n"
            "  --map FILE         'role = joint name' lines for the source\n"
            "  --target-map FILE  the same for the target\n"
            "  --fps N            a glTF source baked at N frames per second (default 60),\n"
            "                     e.g. its own keys' rate; a BVH keeps its frames\n"
            "  --hands            keep the hands at the source's hand positions, mapped\n"
            "  --render PICTURE   a filmstrip (.png, .svg, .pdf): source above, result below\n"
            "  --overwrite        allow OUT to replace an input\n"
            "  --quiet            no progress messages\n"
            "  --json             the table as JSON on stdout (the figures before and after the\n"
            "                     IK pass, the contacts found on the result, the directions\n"
            "                     against their goals, the checks failed), written last\n"
            "\n"
            "example:\n"
            "  ikc retarget 131_01.bvh girl.glb -o girl_walk.glb --render walk.png\n"
            "\n"
            "Checks, on the result as written (each failure is a warning naming frames\n"
            "and joints; OUT is still written, and the exit code is 7):\n"
            "  - each segment's direction in the body frame (up, the hips' left, forward)\n"
            "    against the source's: trunk, upper arms and forearms within 10 degrees\n"
            "    (median over the take) and 20 (95th percentile); thighs and shins, which\n"
            "    bend to plant feet on other proportions, within 20 and 40 (arms not with\n"
            "    --hands);\n"
            "  - planted feet travel no further after the IK pass than before it;\n"
            "  - every joint within the rig's limits (1 degree of slack);\n"
            "  - feet found on the ground in the output slide 5 mm or less per contact.\n"
            "    A foot is on the\n"
            "    ground while its toe joint is within 4 cm of the floor and slower than\n"
            "    25 cm/s, sampled at 60 Hz, for 0.05 s or longer (a foot without a toe\n"
            "    joint: the ball of the foot, a point carried by the ankle that stands\n"
            "    0.155 leg lengths ahead of it on the floor at rest);\n"
            "    the floor is the 5th percentile of both feet's heights; the slide is\n"
            "    the largest distance across up between two samples of a contact. Metres\n"
            "    are the file's (glTF), or 0.85 m of leg (BVH). The IK pass holds such\n"
            "    contacts of the result too where they still slide (whole stances).\n"
            "\n"
            "exit codes: 0 ok, 1 failure, 2 bad usage, 3 file missing, 4 not a usable take\n"
            "or rig (one frame, NaN, no foot on the ground, not a humanoid), 5 unknown clip,\n"
            "6 output not written, 7 written but failing a check above.\n");
}

static int parse(int argc, char **argv, retarget_options *o) {
    int i;
    memset(o, 0, sizeof *o);
    for (i = 0; i < argc; ++i) {
        const char *a = argv[i];
        const char **value = NULL;
        if (ikc_is_help(a)) {
            usage(stdout);
            return -1;
        }
        if (strcmp(a, "--hands") == 0)
            o->hands = 1;
        else if (strcmp(a, "--overwrite") == 0)
            o->overwrite = 1;
        else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0)
            o->quiet = 1;
        else if (strcmp(a, "--json") == 0)
            o->json = o->quiet = 1;
        else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0)
            value = &o->out;
        else if (strcmp(a, "--clip") == 0)
            value = &o->clip;
        else if (strcmp(a, "--map") == 0)
            value = &o->map;
        else if (strcmp(a, "--target-map") == 0)
            value = &o->target_map;
        else if (strcmp(a, "--render") == 0)
            value = &o->render;
        else if (strcmp(a, "--fps") == 0) {
            const char *fps = ikc_option_value("retarget", argc, argv, &i);
            if (!fps || (o->fps = ikc_motion_fps_option("retarget", fps)) < 0) return IKC_EXIT_USAGE;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "ikc retarget: unknown option '%s'\n", ikc_shown(a));
            usage(stderr);
            return IKC_EXIT_USAGE;
        } else if (!o->source)
            o->source = a;
        else if (!o->target)
            o->target = a;
        else {
            fprintf(stderr, "ikc retarget: one SOURCE and one TARGET_RIG ('%s' is extra)\n", ikc_shown(a));
            return IKC_EXIT_USAGE;
        }
        if (value && !(*value = ikc_option_value("retarget", argc, argv, &i))) return IKC_EXIT_USAGE;
    }
    if (!o->source || !o->target || !o->out) {
        fprintf(stderr, "ikc retarget: %s\n", !o->target ? "SOURCE and TARGET_RIG are required" : "-o OUT is required");
        usage(stderr);
        return IKC_EXIT_USAGE;
    }
    return IKC_EXIT_OK;
}

/* What the table reports of one take on the target: the slides, and the
 * leg figures (ik_leg_figures, a foot within 1 cm of the floor grounded). */
typedef struct measured {
    ik_skating skating;
    ik_leg_figures legs;
} measured;

static ik_result measure(const ik_humanoid *rig, const ik_take *take, const ik_foot_contact *contacts, int count,
                         ik_mat4 *ms, measured *out) {
    ik_skating_measure job = ik_skating_measure_def();
    ik_mat4 *rest_ms;
    ik_result r;
    job.rig = rig;
    job.take = take;
    job.contacts = contacts;
    job.contact_count = count;
    job.up_ms = rig->up_rs;
    job.slide_speed = (ik_real)0.02 * ik_foot_metre(ik_foot_leg_length(rig));
    job.model_ms = ms;
    job.out = &out->skating;
    r = ik_skating_measure_run(&job);
    rest_ms = (ik_mat4 *)malloc((size_t)rig->skeleton->joint_count * sizeof(ik_mat4));
    if (!rest_ms) return IK_ERR_CAPACITY;
    if (r == IK_OK)
        r = ik_leg_figures_measure(rig, take, contacts, count, (ik_real)0.01 * ik_foot_metre(ik_foot_leg_length(rig)),
                                   ms, rest_ms, &out->legs);
    free(rest_ms);
    return r;
}

/* The filmstrip (retarget_view.h), the target's skinned mesh drawn when
 * it has one. */
static int render(const retarget_options *o, const ikc_motion *src, const ik_asset *dst_asset,
                  const ik_humanoid *dst_rig, const ik_take *take) {
    const ik_humanoid *rigs[2];
    const ik_take *takes[2];
    const ik_constraint *constraints[2];
    ikc_retarget_picture pic;
    ikc_mesh mesh;
    char error[300], title[512];
    int have_mesh = ikc_mesh_load(dst_asset, &mesh, error, sizeof error), ok = 1;
    if (error[0])
        fprintf(stderr, "ikc retarget: warning: %s%s\n", ikc_shown(error), have_mesh ? "" : "; drawing the bones");
    rigs[0] = &src->human.rig, rigs[1] = dst_rig;
    takes[0] = &src->take, takes[1] = take;
    constraints[0] = src->asset.constraints, constraints[1] = dst_asset->constraints;
    snprintf(title, sizeof title, "ikc retarget %s onto %s", ikc_shown(o->source), ikc_shown(o->target));
    if (have_mesh < 0 ||
        !ikc_retarget_picture_make(&pic, rigs, takes, constraints, have_mesh > 0 ? &mesh : NULL, title)) {
        fprintf(stderr, "ikc retarget: out of memory for the picture\n");
        ok = 0;
    } else {
        if (!ikc_draw_file(&pic.picture, o->render, error, sizeof error)) {
            fprintf(stderr, "ikc retarget: %s\n", error);
            ok = 0;
        } else if (!o->quiet) {
            printf("wrote %s\n", o->render);
        }
        ikc_retarget_picture_free(&pic);
    }
    if (have_mesh > 0) ikc_mesh_free(&mesh);
    return ok;
}

/* What an outside reader of the result would measure (checked by audit). */
typedef struct audit_figures {
    ik_real direction[IK_BODY_GROUPS][2]; /* median and 95th percentile angle, radians */
    /* per group, its segment most often past the group's 95th percentile goal, and the frames it is */
    int worst_segment[IK_BODY_GROUPS], worst_first[IK_BODY_GROUPS], worst_last[IK_BODY_GROUPS],
        worst_frames[IK_BODY_GROUPS];
    ikc_ground_figures ground; /* the contacts found on the result */
} audit_figures;

/* The goal on a group's angles, median; the 95th percentile's is twice it. */
static ik_real direction_goal(int group) { return group >= IK_BODY_THIGHS ? ik_rad(20) : ik_rad(10); }

/* Each segment's angle between the source's and the result's direction in
 * their body frames (ik_body_directions), frame by frame. */
static int measure_directions(const ikc_motion *src, const ik_humanoid *dst, const ik_take *take, audit_figures *a) {
    int frames = take->frame_count, f, i, g, counts[IK_BODY_GROUPS] = {0, 0, 0, 0, 0};
    int over[IK_BODY_SEGMENTS] = {0}, first[IK_BODY_SEGMENTS], last[IK_BODY_SEGMENTS];
    ik_real *angles = (ik_real *)malloc(2 * (size_t)frames * IK_BODY_GROUPS * sizeof(ik_real));
    ik_mat4 *src_ms = (ik_mat4 *)malloc((size_t)src->take.joint_count * sizeof(ik_mat4));
    ik_mat4 *dst_ms = (ik_mat4 *)malloc((size_t)take->joint_count * sizeof(ik_mat4));
    int ok = angles && src_ms && dst_ms;
    for (f = 0; ok && f < frames; ++f) {
        ik_vec3 ds[IK_BODY_SEGMENTS], dt[IK_BODY_SEGMENTS];
        ik_skeleton_fk(src->human.rig.skeleton, ik_take_pose(&src->take, f), NULL, src_ms);
        ik_skeleton_fk(dst->skeleton, ik_take_pose(take, f), NULL, dst_ms);
        ik_body_directions(&src->human.rig, src_ms, ds);
        ik_body_directions(dst, dst_ms, dt);
        for (i = 0; i < IK_BODY_SEGMENTS; ++i) {
            ik_real angle = ik_acos_safe(ik_vec3_dot(ds[i], dt[i]));
            g = (int)ik_body_segment_group(i);
            angles[(size_t)g * 2 * (size_t)frames + (size_t)counts[g]++] = angle;
            if (angle > 2 * direction_goal(g)) {
                if (over[i]++ == 0) first[i] = f;
                last[i] = f;
            }
        }
    }
    for (g = 0; g < IK_BODY_GROUPS; ++g) a->worst_segment[g] = -1, a->worst_frames[g] = 0;
    for (i = 0; ok && i < IK_BODY_SEGMENTS; ++i) {
        g = (int)ik_body_segment_group(i);
        if (over[i] > a->worst_frames[g])
            a->worst_segment[g] = i, a->worst_frames[g] = over[i], a->worst_first[g] = first[i],
            a->worst_last[g] = last[i];
    }
    for (g = 0; ok && g < IK_BODY_GROUPS; ++g) {
        ik_real *v = angles + (size_t)g * 2 * (size_t)frames;
        a->direction[g][0] = ikc_quantile(v, counts[g], 0.5);
        a->direction[g][1] = ikc_quantile(v, counts[g], 0.95);
    }
    free(angles);
    free(src_ms);
    free(dst_ms);
    return ok;
}

/* The checks in the usage text, each failure a warning; returns how many
 * failed (the slides are warned about but not counted; with --hands the
 * arms go where the hands are held, so their directions are not checked). */
static int audit(const retarget_options *o, const measured *before, const measured *after, const audit_figures *a,
                 double frame_time, cJSON *failures) {
    int failed = 0, g;
    for (g = 0; g < IK_BODY_GROUPS; ++g)
        if ((!o->hands || g == IK_BODY_TRUNK || g >= IK_BODY_THIGHS) &&
            (a->direction[g][0] > direction_goal(g) || a->direction[g][1] > 2 * direction_goal(g))) {
            fprintf(stderr,
                    "ikc retarget: warning: the %s point %.1f degrees from the source's in the body frame (median; "
                    "95th percentile %.1f; goal %.0f and %.0f)",
                    ik_body_group_name((ik_body_group)g), (double)ik_deg(a->direction[g][0]),
                    (double)ik_deg(a->direction[g][1]), (double)ik_deg(direction_goal(g)),
                    (double)ik_deg(2 * direction_goal(g)));
            if (a->worst_segment[g] >= 0)
                fprintf(stderr, "; most off: the %s, beyond %.0f degrees in %d frames between %d and %d (%.2f-%.2f s)",
                        ik_body_segment_name(a->worst_segment[g]), (double)ik_deg(2 * direction_goal(g)),
                        a->worst_frames[g], a->worst_first[g], a->worst_last[g], a->worst_first[g] * frame_time,
                        a->worst_last[g] * frame_time);
            fprintf(stderr, "\n");
            ++failed;
            if (failures) cJSON_AddItemToArray(failures, ikc_json_text(ik_body_group_name((ik_body_group)g)));
        }
    if (after->skating.travel > before->skating.travel) {
        fprintf(stderr, "ikc retarget: warning: planted feet travel further after the IK pass than before it\n");
        ++failed;
        if (failures) cJSON_AddItemToArray(failures, ikc_json_text("travel"));
    }
    if (ik_maxr(after->legs.beyond, after->legs.beyond_grounded) > ik_rad(1)) {
        fprintf(stderr, "ikc retarget: warning: the %s is %.1f degrees beyond the rig's limits (frame %d)\n",
                after->legs.beyond_joint ? after->legs.beyond_joint : "a joint",
                (double)ik_deg(ik_maxr(after->legs.beyond, after->legs.beyond_grounded)), after->legs.beyond_frame);
        ++failed;
        if (failures) cJSON_AddItemToArray(failures, ikc_json_text("limits"));
    }
    if (a->ground.over > 0) {
        fprintf(stderr,
                "ikc retarget: warning: %d of %d contacts found on the result slide over 5 mm; worst %.1f mm, the %s "
                "foot, frames %d-%d (%.2f-%.2f s)\n",
                a->ground.over, a->ground.contacts, (double)a->ground.worst_slide,
                a->ground.worst_leg == IK_LIMB_LEG_L ? "left" : "right", a->ground.worst_start, a->ground.worst_end,
                a->ground.worst_start * frame_time, a->ground.worst_end * frame_time);
        ++failed;
        if (failures) cJSON_AddItemToArray(failures, ikc_json_text("slide"));
    }
    return failed;
}

static void print_table(const retarget_options *o, const ikc_motion *src, const ik_humanoid *dst,
                        const ik_retarget_report *rep, const measured *before, const measured *after,
                        const audit_figures *a, int held, double seconds, int frames) {
    int g;
    double mm = 1000.0 / (double)ik_foot_metre(rep->target_leg);
    double unit_s = (double)(IK_FOOT_LEG_METRES / rep->source_leg),
           unit_t = (double)(IK_FOOT_LEG_METRES / rep->target_leg);
    printf("%s (clip '%s') onto %s: %d frames, %d of %d joints paired, %d contacts held\n", ikc_shown(o->source),
           ikc_shown(src->clip_name), ikc_shown(o->target), frames, rep->paired_joints, dst->skeleton->joint_count,
           held);
    printf(
        "  scale %.5g target units per source unit (legs %.4g and %.4g units: %.3g m and %.3g m per unit "
        "for %.2f m legs)%s\n",
        (double)rep->scale, (double)rep->source_leg, (double)rep->target_leg, unit_s, unit_t,
        (double)IK_FOOT_LEG_METRES,
        (unit_s / unit_t > 1.5 || unit_t / unit_s > 1.5) ? ": unit mismatch, handled by the scale" : "");
    printf("  %-44s %12s %12s\n", "", "before IK", "after IK");
    printf("  %-44s %12.1f %12.1f\n", "planted feet's travel, all contacts (mm)", (double)before->skating.travel * mm,
           (double)after->skating.travel * mm);
    printf("  %-44s %12.1f %12.1f\n", "worst contact's travel (mm)", (double)before->skating.worst_travel * mm,
           (double)after->skating.worst_travel * mm);
    printf("  %-44s %12.1f %12.1f\n", "deepest sole below the floor (mm)", (double)before->legs.sink * mm,
           (double)after->legs.sink * mm);
    printf("  %-44s %12d %12d\n", "frames with a knee bent the wrong way", before->legs.knee_flips,
           after->legs.knee_flips);
    printf("  %-44s %12.1f %12.1f\n", "beyond the rig's limits, worst joint (deg)", (double)ik_deg(before->legs.beyond),
           (double)ik_deg(after->legs.beyond));
    printf("  %-44s %12.1f %12.1f\n", "  grounded feet's ankles and toes (deg)",
           (double)ik_deg(before->legs.beyond_grounded), (double)ik_deg(after->legs.beyond_grounded));
    printf(
        "  on the ground in the result (toe within 4 cm of the floor, under 25 cm/s, 60 Hz; see --help):\n"
        "    %d contacts, slide worst %.1f mm, median %.1f mm, %d over 5 mm\n",
        a->ground.contacts, (double)a->ground.worst_slide, (double)a->ground.median_slide, a->ground.over);
    printf("  directions against the source's in the body frame, median / 95th percentile (deg):\n   ");
    for (g = 0; g < IK_BODY_GROUPS; ++g)
        printf(" %s %.1f / %.1f%s", ik_body_group_name((ik_body_group)g), (double)ik_deg(a->direction[g][0]),
               (double)ik_deg(a->direction[g][1]), g + 1 < IK_BODY_GROUPS ? "," : "\n");
    printf("  retargeted in %.3f s (%.0f frames/s)\n", seconds, seconds > 0 ? frames / seconds : 0.0);
}

/* One column of the table as JSON, lengths in mm, angles in degrees. */
static cJSON *measured_json(const measured *m, double mm) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "travel_mm", (double)m->skating.travel * mm);
    cJSON_AddNumberToObject(o, "worst_travel_mm", (double)m->skating.worst_travel * mm);
    cJSON_AddNumberToObject(o, "deepest_sole_mm", (double)m->legs.sink * mm);
    cJSON_AddNumberToObject(o, "knee_flip_frames", m->legs.knee_flips);
    cJSON_AddNumberToObject(o, "beyond_limits_deg", (double)ik_deg(m->legs.beyond));
    cJSON_AddNumberToObject(o, "grounded_beyond_limits_deg", (double)ik_deg(m->legs.beyond_grounded));
    return o;
}

/* The table as JSON (print_table's figures); "checks_failed" is filled by
 * audit, "written" and "exit_code" once the file is written. */
static cJSON *table_json(const retarget_options *o, const ikc_motion *src, const ik_humanoid *dst,
                         const ik_retarget_report *rep, const measured *before, const measured *after,
                         const audit_figures *a, int held, double seconds, int frames) {
    cJSON *root = cJSON_CreateObject(), *ground = cJSON_CreateObject(), *dirs = cJSON_CreateObject();
    double mm = 1000.0 / (double)ik_foot_metre(rep->target_leg);
    double unit_s = (double)(IK_FOOT_LEG_METRES / rep->source_leg),
           unit_t = (double)(IK_FOOT_LEG_METRES / rep->target_leg);
    int g;
    cJSON_AddItemToObject(root, "source", ikc_json_text(o->source));
    cJSON_AddItemToObject(root, "clip", ikc_json_text(src->clip_name));
    cJSON_AddItemToObject(root, "target", ikc_json_text(o->target));
    cJSON_AddItemToObject(root, "output", ikc_json_text(o->out));
    cJSON_AddNumberToObject(root, "frames", frames);
    cJSON_AddNumberToObject(root, "paired_joints", rep->paired_joints);
    cJSON_AddNumberToObject(root, "target_joints", dst->skeleton->joint_count);
    cJSON_AddNumberToObject(root, "contacts_held", held);
    cJSON_AddNumberToObject(root, "scale", (double)rep->scale);
    cJSON_AddNumberToObject(root, "source_leg", (double)rep->source_leg);
    cJSON_AddNumberToObject(root, "target_leg", (double)rep->target_leg);
    cJSON_AddBoolToObject(root, "unit_mismatch", unit_s / unit_t > 1.5 || unit_t / unit_s > 1.5);
    cJSON_AddItemToObject(root, "before_ik", measured_json(before, mm));
    cJSON_AddItemToObject(root, "after_ik", measured_json(after, mm));
    cJSON_AddNumberToObject(ground, "contacts", a->ground.contacts);
    cJSON_AddNumberToObject(ground, "worst_slide_mm", (double)a->ground.worst_slide);
    cJSON_AddNumberToObject(ground, "median_slide_mm", (double)a->ground.median_slide);
    cJSON_AddNumberToObject(ground, "over_5mm", a->ground.over);
    cJSON_AddItemToObject(root, "ground", ground);
    for (g = 0; g < IK_BODY_GROUPS; ++g) {
        cJSON *d = cJSON_CreateObject();
        char key[32];
        int i;
        cJSON_AddNumberToObject(d, "median_deg", (double)ik_deg(a->direction[g][0]));
        cJSON_AddNumberToObject(d, "p95_deg", (double)ik_deg(a->direction[g][1]));
        cJSON_AddNumberToObject(d, "goal_median_deg", (double)ik_deg(direction_goal(g)));
        cJSON_AddNumberToObject(d, "goal_p95_deg", (double)ik_deg(2 * direction_goal(g)));
        snprintf(key, sizeof key, "%s", ik_body_group_name((ik_body_group)g));
        for (i = 0; key[i]; ++i) key[i] = key[i] == ' ' ? '_' : key[i];
        cJSON_AddItemToObject(dirs, key, d);
    }
    cJSON_AddItemToObject(root, "directions", dirs);
    cJSON_AddNumberToObject(root, "seconds", seconds);
    cJSON_AddItemToObject(root, "checks_failed", cJSON_CreateArray());
    return root;
}

/* Retarget with and without the IK pass (the table's "before"), then
 * measure both against the contacts held. */
static int run(const retarget_options *o, ikc_motion *src, ik_asset *dst_asset, const ik_humanoid *dst) {
    int frames = src->take.frame_count, n = dst->skeleton->joint_count, held = 0, capacity = 2 * (frames + 1);
    size_t pose_bytes = (size_t)frames * (size_t)n * sizeof(ik_transform);
    ik_retarget job = ik_retarget_def();
    ik_retarget_report rep;
    ik_take take, plain;
    ik_foot_contact *contacts = (ik_foot_contact *)malloc((size_t)capacity * sizeof *contacts);
    ik_mat4 *ms = (ik_mat4 *)malloc((size_t)n * sizeof *ms);
    measured before, after;
    audit_figures figures;
    cJSON *json = NULL;
    int failed = 0;
    double t0, seconds;
    ik_result r;
    int code = IKC_EXIT_OK;
    take.frame_count = plain.frame_count = frames;
    take.joint_count = plain.joint_count = n;
    take.frame_time = plain.frame_time = src->take.frame_time;
    take.poses_ls = (ik_transform *)malloc(pose_bytes);
    plain.poses_ls = (ik_transform *)malloc(pose_bytes);
    job.scratch_bytes = ik_retarget_scratch_size(frames, src->take.joint_count, n);
    job.scratch = malloc(job.scratch_bytes);
    if (!contacts || !ms || !take.poses_ls || !plain.poses_ls || !job.scratch) {
        fprintf(stderr, "ikc retarget: out of memory for %d frames\n", frames);
        code = IKC_EXIT_FAILURE;
        goto done;
    }
    job.source_rig = &src->human.rig;
    job.source = &src->take;
    job.target_rig = dst;
    job.hold_hands = o->hands;
    job.report = &rep;
    /* the whole stances in the file's own metres, as the checks measure them */
    job.ground_metre = ik_asset_metre(dst_asset);
    job.hold_feet = 0;
    job.target = &plain;
    r = ik_retarget_run(&job);
    job.hold_feet = 1;
    job.target = &take;
    job.target_contacts = contacts;
    job.contact_capacity = capacity;
    job.contact_count = &held;
    t0 = ikc_now();
    if (r == IK_OK) r = ik_retarget_run(&job);
    seconds = ikc_now() - t0;
    if (r == IK_ERR_NOT_FOUND) {
        fprintf(stderr,
                "ikc retarget: %s: no foot is ever on the ground (no contacts found): nothing to plant on "
                "the target; `ikc contacts` shows the feet's heights and speeds\n",
                ikc_shown(o->source));
        code = IKC_EXIT_FORMAT;
    } else if (r == IK_ERR_UNSUPPORTED) {
        fprintf(stderr,
                "ikc retarget: %s: a leg ends without a foot joint nor a foot control joint (a virtual "
                "ankle with nothing to stand for the foot): the feet cannot be held (--target-map FILE names "
                "the foot joints if they exist under other names)\n",
                ikc_shown(o->target));
        code = IKC_EXIT_FORMAT;
    } else if (r != IK_OK) {
        fprintf(stderr, "ikc retarget: the retarget failed: %s\n", ik_result_str(r));
        code = IKC_EXIT_FAILURE;
    } else if (measure(dst, &plain, contacts, held, ms, &before) != IK_OK ||
               measure(dst, &take, contacts, held, ms, &after) != IK_OK ||
               !measure_directions(src, dst, &take, &figures) ||
               ikc_ground_figures_measure(dst_asset, dst, &take, &figures.ground) != IK_OK) {
        fprintf(stderr, "ikc retarget: the retargeted take is not finite\n");
        code = IKC_EXIT_FAILURE;
    }
    if (code == IKC_EXIT_OK && o->render && !render(o, src, dst_asset, dst, &take)) code = IKC_EXIT_WRITE;
    /* the table first: writing the clip into the document rebuilds the skeleton the rig points at */
    if (code == IKC_EXIT_OK && o->json) {
        json = table_json(o, src, dst, &rep, &before, &after, &figures, held, seconds, frames);
        failed =
            audit(o, &before, &after, &figures, (double)take.frame_time, cJSON_GetObjectItem(json, "checks_failed"));
    } else if (code == IKC_EXIT_OK) {
        print_table(o, src, dst, &rep, &before, &after, &figures, held, seconds, frames);
        failed = audit(o, &before, &after, &figures, (double)take.frame_time, NULL);
    }
    if (code == IKC_EXIT_OK) code = ikc_write_take("retarget", dst_asset, &take, -1, "retarget", o->out, o->overwrite);
    if (code == IKC_EXIT_OK && !o->quiet) printf("wrote %s\n", o->out);
    if (code == IKC_EXIT_OK && failed > 0) {
        fprintf(stderr, "ikc retarget: %s was written, but fails %d of its checks (warnings above)\n",
                ikc_shown(o->out), failed);
        code = IKC_EXIT_CHECKS;
    }
    if (json) ikc_json_print_result(json, code);
done:
    free(contacts);
    free(ms);
    free(take.poses_ls);
    free(plain.poses_ls);
    free(job.scratch);
    return code;
}

int ikc_retarget(int argc, char **argv) {
    retarget_options o;
    ikc_motion src;
    ik_asset dst_asset;
    ikc_humanoid dst;
    int code = parse(argc, argv, &o), dst_loaded = 0;
    if (code != IKC_EXIT_OK) return code < 0 ? IKC_EXIT_OK : code;
    memset(&dst, 0, sizeof dst);
    code = ikc_motion_load_at("retarget", o.source, o.clip, o.map, o.fps, &src);
    if (code == IKC_EXIT_OK && src.contact_count == 0) {
        fprintf(stderr,
                "ikc retarget: %s: no foot is ever on the ground (no contacts found): nothing to plant on the "
                "target; `ikc contacts` shows the feet's heights and speeds\n",
                ikc_shown(o.source));
        code = IKC_EXIT_FORMAT;
    }
    if (code == IKC_EXIT_OK) {
        code = ikc_asset_load("retarget", o.target, &dst_asset);
        dst_loaded = code == IKC_EXIT_OK;
    }
    if (code == IKC_EXIT_OK && dst_asset.format == IK_ASSET_CHAIN) {
        fprintf(stderr, "ikc retarget: %s is a chain file, not a character: the target must be a glTF rig or a BVH\n",
                ikc_shown(o.target));
        code = IKC_EXIT_FORMAT;
    }
    if (code == IKC_EXIT_OK) code = ikc_humanoid_find("retarget", dst_asset.skeleton, o.target_map, &dst);
    if (code == IKC_EXIT_OK && !ikc_humanoid_usable("retarget", &dst, dst_asset.skeleton, stderr))
        code = IKC_EXIT_FORMAT;
    if (code == IKC_EXIT_OK) code = run(&o, &src, &dst_asset, &dst.rig);
    ikc_humanoid_free(&dst);
    if (dst_loaded) ik_asset_free(&dst_asset);
    ikc_motion_free(&src);
    return code;
}

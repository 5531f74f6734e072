/* `ikc clean TAKE -o OUT`: footskate clean-up (ikit/footskate.h) of a take,
 * with a table of skating and side effects before and after
 * (ikit/skating.h), written in the input's format. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include <ikit/footskate.h>
#include <ikit/skating.h>
#include <ikit/leg_figures.h>
#include <ikit/stance_clean.h>

#include "ground_figures.h"
#include "ikc.h"
#include "motion_take.h"

/* Frames cleaned between progress bar updates. */

static void usage(FILE *out) {
    fprintf(out,
            "usage: ikc clean TAKE -o OUT [--clip NAME] [--map MAPPING] [--root-motion | --in-place]\n"
            "                 [--fps N] [--quiet] [--overwrite] [--json]\n"
            "\n"
            "Footskate clean-up (Kovar, Schreiner and Gleicher 2002): finds the foot\n"
            "contacts (as `ikc contacts`), gives each one planted position, and solves the\n"
            "legs every frame to hold it, knees on their side; the hips move only where a\n"
            "leg cannot reach; corrections ease in and out over 0.25 s. Prints skating\n"
            "before and after (travel of planted feet, frames sliding faster than 2 cm/s of\n"
            "the skeleton's scale), how far joints outside the legs moved and whether a\n"
            "knee straightened. OUT has the input's format (BVH frames, or the glTF clip's\n"
            "keys replaced).\n"
            "\n"
            "A cycle made in place (the hips stay put while each stance foot slides\n"
            "backward along the floor, as game clips and \"in place\" exports are) is\n"
            "reported with its slide speed and each step's slide. By default (--in-place)\n"
            "it is kept in place: OUT gets the motion as it is, since holding its feet\n"
            "would break the cycle. --root-motion puts the root motion back instead: the\n"
            "root above the hips moves forward at the slide speed, so the stance feet\n"
            "nearly stand, and the clean-up then holds them.\n"
            "\n"
            "  --clip NAME     the clip (name or number; default the first)\n"
            "  --map MAPPING   'role = joint name' lines for joints not found by name\n"
            "  --fps N         a glTF clip baked at N frames per second (default 60), e.g.\n"
            "                  its own keys' rate; a BVH keeps its frames\n"
            "  --root-motion   an in-place cycle walks: root moved forward, then cleaned\n"
            "                  (refused on a take that is not in place)\n"
            "  --in-place      an in-place cycle stays in place, reported (the default)\n"
            "  --quiet         accepted for scripts (the clean-up shows no progress bar)\n"
            "  --json          the table as JSON on stdout (before and after: travel, the\n"
            "                  outside reader's contacts and slides, knee flips; the in-place\n"
            "                  verdict; the checks failed), written last\n"
            "  --overwrite     allow OUT to replace the input\n"
            "\n"
            "example:\n"
            "  ikc clean 131_01.bvh -o 131_01_clean.bvh\n"
            "  ikc clean robot.glb --clip Robot_Walking --root-motion -o walking.glb\n"
            "\n"
            "Also measured, before and after, the way an outside reader of the file\n"
            "would (not from the contacts held): feet on the ground in the take itself,\n"
            "a toe joint (the ball of a foot without one: a point carried by the ankle,\n"
            "0.155 leg lengths ahead of it on the floor at rest) within 4 cm of the floor\n"
            "and slower than 25 cm/s, sampled at 60 Hz, for 0.05 s or longer (the floor the 5th\n"
            "percentile of both feet's heights; the slide the largest distance across up\n"
            "between two samples of a contact; metres of the glTF world, or 0.85 m of leg\n"
            "for BVH). Checks (each failure a warning; OUT is still written and the exit\n"
            "code is 7): the clean-up adds no frame with a knee bent the wrong way, adds\n"
            "no joint speed over 10 m/s, and leaves no contact sliding further than before\n"
            "(by over a millimetre, the slide the clean-up holds to).\n"
            "\n"
            "exit codes: 0 ok, 1 solver failure, 2 bad usage, 3 file missing, 4 file\n"
            "malformed or not a usable take (one frame, NaN values, no humanoid, upside\n"
            "down, no foot ever on the ground, --root-motion on a take not in place),\n"
            "5 unknown clip, 6 output not written, 7 written but failing a check above.\n");
}

static ik_result measure(const ikc_motion *m, const ik_take *take, const ik_take *reference, ik_mat4 *scratch_ms,
                         ik_vec3 *previous_ms, ik_skating *out) {
    ik_skating_measure job = ik_skating_measure_def();
    job.rig = &m->human.rig;
    job.root_ms = &m->asset.root_ms;
    job.take = take;
    job.reference = reference;
    job.contacts = m->contacts;
    job.contact_count = m->contact_count;
    job.up_ms = m->up_ms;
    job.slide_speed = (ik_real)0.02 * ik_foot_metre(m->leg_length);
    job.model_ms = m->model_ms;
    job.reference_ms = scratch_ms;
    job.previous_ms = previous_ms;
    job.out = out;
    return ik_skating_measure_run(&job);
}

/* The outside reader's figures of a take, before and after. */
typedef struct outside_figures {
    ikc_ground_figures ground;
    int knee_flips;
} outside_figures;

static ik_result measure_outside(ikc_motion *m, const ik_take *take, outside_figures *out) {
    out->knee_flips = ik_leg_knee_flip_frames(&m->human.rig, take, m->model_ms);
    return ikc_ground_figures_measure(&m->asset, &m->human.rig, take, &out->ground);
}

/* The checks of the usage text, each failure a warning; returns how many
 * failed. */
static int check_result(const ikc_motion *m, const ik_skating *after, const outside_figures *before,
                        const outside_figures *cleaned, cJSON *failures) {
    double metres_per_second = (double)after->added_speed / (double)ik_foot_metre(m->leg_length);
    int failed = 0;
    if (cleaned->knee_flips > before->knee_flips) {
        fprintf(stderr, "ikc clean: warning: the clean-up bent a knee the wrong way in %d frames (%d before)\n",
                cleaned->knee_flips, before->knee_flips);
        ++failed;
        if (failures) cJSON_AddItemToArray(failures, ikc_json_text("knee_flips"));
    }
    if (metres_per_second > 10) {
        fprintf(stderr, "ikc clean: warning: the clean-up added %.1f m/s to %s at frame %d\n", metres_per_second,
                after->added_speed_joint >= 0 ? ikc_shown(ik_skeleton_name(m->asset.skeleton, after->added_speed_joint))
                                              : "a joint",
                after->added_speed_frame);
        ++failed;
        if (failures) cJSON_AddItemToArray(failures, ikc_json_text("added_speed"));
    }
    if (cleaned->ground.worst_slide > before->ground.worst_slide + (ik_real)1) {
        fprintf(stderr,
                "ikc clean: warning: a contact found on the result slides %.1f mm (the %s foot, frames %d-%d), "
                "more than any before (%.1f mm)\n",
                (double)cleaned->ground.worst_slide, cleaned->ground.worst_leg == IK_LIMB_LEG_L ? "left" : "right",
                cleaned->ground.worst_start, cleaned->ground.worst_end, (double)before->ground.worst_slide);
        ++failed;
        if (failures) cJSON_AddItemToArray(failures, ikc_json_text("slide"));
    }
    return failed;
}

static void print_table(const ikc_motion *m, const ik_skating *before, const ik_skating *after,
                        const outside_figures *outside_before, const outside_figures *outside_after, double seconds) {
    double mm = 1000.0 / (double)ik_foot_metre(m->leg_length);
    double cut = before->travel > 0 ? 100.0 * (1.0 - (double)(after->travel / before->travel)) : 0;
    char cut_text[48];
    printf("%s, clip '%s': %d frames, %d contacts, leg length %.4g (1 m = %.4g units)\n", ikc_shown(m->asset.path),
           ikc_shown(m->clip_name), m->take.frame_count, m->contact_count, (double)m->leg_length,
           (double)ik_foot_metre(m->leg_length));
    printf("  %-44s %12s %12s\n", "", "before", "after");
    /* under 0.1 mm before, there was no skating to cut: a ratio of noise */
    if ((double)before->travel * mm < 0.1)
        snprintf(cut_text, sizeof cut_text, "no skating to cut");
    else
        snprintf(cut_text, sizeof cut_text, "%.1f %% cut", cut);
    printf("  %-44s %12.1f %12.1f   (%s)\n", "planted feet's travel, all contacts (mm)", (double)before->travel * mm,
           (double)after->travel * mm, cut_text);
    printf("  %-44s %12.1f %12.1f\n", "worst contact's travel (mm)", (double)before->worst_travel * mm,
           (double)after->worst_travel * mm);
    printf("  %-44s %11.1f%% %11.1f%%\n", "contact frames sliding over 2 cm/s",
           before->contact_frames ? 100.0 * before->sliding_frames / before->contact_frames : 0.0,
           after->contact_frames ? 100.0 * after->sliding_frames / after->contact_frames : 0.0);
    printf("  %-44s %12s %12.1f   (%s)\n", "largest move of a joint outside the legs (mm)", "",
           (double)after->upper_change * mm,
           after->upper_change_joint >= 0 ? ikc_shown(ik_skeleton_name(m->asset.skeleton, after->upper_change_joint))
                                          : "none");
    printf("  %-44s %12s %12.2f\n", "largest knee straightening (degrees)", "",
           (double)ik_deg(after->knee_straightening));
    printf("  %-44s %12s %12d\n", "frames a knee snapped straight", "", after->knee_snaps);
    printf("  %-44s %12s %12.2f   (%s, frame %d)\n", "largest speed added to a joint (m/s)", "",
           (double)after->added_speed * mm / 1000,
           after->added_speed_joint >= 0 ? ikc_shown(ik_skeleton_name(m->asset.skeleton, after->added_speed_joint))
                                         : "none",
           after->added_speed_frame);
    printf("  on the ground in the take itself (toe within 4 cm of the floor, under 25 cm/s, 60 Hz; see --help):\n");
    printf("  %-44s %12d %12d\n", "  contacts found", outside_before->ground.contacts, outside_after->ground.contacts);
    printf("  %-44s %12.1f %12.1f\n", "  worst slide (mm)", (double)outside_before->ground.worst_slide,
           (double)outside_after->ground.worst_slide);
    printf("  %-44s %12d %12d\n", "  contacts sliding over 5 mm", outside_before->ground.over,
           outside_after->ground.over);
    printf("  %-44s %12d %12d\n", "frames with a knee bent the wrong way", outside_before->knee_flips,
           outside_after->knee_flips);
    printf("  cleaned in %.3f s (%.0f frames/s)\n", seconds, seconds > 0 ? m->take.frame_count / seconds : 0.0);
}

/* The outside reader's figures as JSON. */
static cJSON *outside_json(const outside_figures *o) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "contacts", o->ground.contacts);
    cJSON_AddNumberToObject(j, "worst_slide_mm", (double)o->ground.worst_slide);
    cJSON_AddNumberToObject(j, "over_5mm", o->ground.over);
    cJSON_AddNumberToObject(j, "knee_flip_frames", o->knee_flips);
    return j;
}

/* The table as JSON (print_table's figures, lengths in mm); the in-place
 * verdict always; "checks_failed", "written" and "exit_code" added by
 * run. */
static cJSON *table_json(const ikc_motion *m, const ik_skating *before, const ik_skating *after,
                         const outside_figures *outside_before, const outside_figures *outside_after, double seconds) {
    double mm = 1000.0 / (double)ik_foot_metre(m->leg_length);
    cJSON *root = cJSON_CreateObject(), *b = cJSON_CreateObject(), *a = cJSON_CreateObject();
    cJSON_AddItemToObject(root, "file", ikc_json_text(m->asset.path));
    cJSON_AddItemToObject(root, "clip", ikc_json_text(m->clip_name));
    cJSON_AddNumberToObject(root, "frames", m->take.frame_count);
    cJSON_AddNumberToObject(root, "contacts", m->contact_count);
    cJSON_AddNumberToObject(root, "leg_length", (double)m->leg_length);
    cJSON_AddItemToObject(root, "in_place", ikc_motion_in_place_json(m));
    cJSON_AddNumberToObject(b, "travel_mm", (double)before->travel * mm);
    cJSON_AddNumberToObject(b, "worst_travel_mm", (double)before->worst_travel * mm);
    cJSON_AddNumberToObject(b, "sliding_percent",
                            before->contact_frames ? 100.0 * before->sliding_frames / before->contact_frames : 0.0);
    cJSON_AddItemToObject(b, "outside", outside_json(outside_before));
    cJSON_AddNumberToObject(a, "travel_mm", (double)after->travel * mm);
    cJSON_AddNumberToObject(a, "worst_travel_mm", (double)after->worst_travel * mm);
    cJSON_AddNumberToObject(a, "sliding_percent",
                            after->contact_frames ? 100.0 * after->sliding_frames / after->contact_frames : 0.0);
    cJSON_AddNumberToObject(a, "upper_change_mm", (double)after->upper_change * mm);
    cJSON_AddNumberToObject(a, "knee_straightening_deg", (double)ik_deg(after->knee_straightening));
    cJSON_AddNumberToObject(a, "knee_snaps", after->knee_snaps);
    cJSON_AddNumberToObject(a, "added_speed_m_s", (double)after->added_speed * mm / 1000);
    cJSON_AddItemToObject(a, "added_speed_joint",
                          after->added_speed_joint >= 0
                              ? ikc_json_text(ik_skeleton_name(m->asset.skeleton, after->added_speed_joint))
                              : cJSON_CreateNull());
    cJSON_AddNumberToObject(a, "added_speed_frame", after->added_speed_frame);
    cJSON_AddItemToObject(a, "outside", outside_json(outside_after));
    cJSON_AddItemToObject(root, "before", b);
    cJSON_AddItemToObject(root, "after", a);
    cJSON_AddNumberToObject(root, "seconds", seconds);
    cJSON_AddItemToObject(root, "checks_failed", cJSON_CreateArray());
    return root;
}

/* The clean-up with its whole stances held (ikit/stance_clean.h), in the
 * contacts' space under the file's root: a glTF file's metres, else 0.85 m
 * of leg. */
static int clean(ikc_motion *m) {
    ik_stance_clean job = ik_stance_clean_def();
    int count = m->contact_count;
    ik_result r;
    job.rig = &m->human.rig;
    job.root_ms = &m->asset.root_ms;
    job.take = &m->take;
    job.contacts = m->contacts;
    job.count = &count;
    job.capacity = 2 * m->take.frame_count;
    job.metre = m->asset.format == IK_ASSET_GLTF ? 1 : ik_foot_metre(m->leg_length);
    job.leg_length = m->leg_length;
    job.levels = m->levels;
    job.scratch_bytes = ik_stance_clean_scratch_size(&m->take, job.capacity);
    job.scratch = malloc(job.scratch_bytes);
    r = job.scratch ? ik_stance_clean_run(&job) : IK_ERR_CAPACITY;
    free(job.scratch);
    m->contact_count = count;
    if (r != IK_OK) {
        fprintf(stderr, "ikc clean: %s: the clean-up failed: %s\n", m->asset.path, ik_result_str(r));
        return IKC_EXIT_FAILURE;
    }
    return IKC_EXIT_OK;
}

/* An in-place cycle: reported, then kept in place (written as it is) or
 * given its root motion back, its stances becoming the contacts to hold
 * (they are the contacts of the moved take: see ikit/in_place.h).
 * Returns IKC_EXIT_OK to go on cleaning, or the command's exit code with
 * *done set. */
static int in_place(ikc_motion *m, const char *out, int overwrite, int root_motion, int json, int *done) {
    ik_result r;
    if (!json) ikc_motion_print_in_place(m, stdout);
    *done = !root_motion;
    if (!root_motion) {
        int code = ikc_write_take("clean", &m->asset, &m->take, m->clip, NULL, out, overwrite);
        if (code == IKC_EXIT_OK && !json)
            printf(
                "kept in place: %s holds the motion as it was (holding the sliding feet would break the cycle; "
                "--root-motion makes it walk forward and holds its feet)\n",
                ikc_shown(out));
        if (json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddItemToObject(o, "file", ikc_json_text(m->asset.path));
            cJSON_AddItemToObject(o, "clip", ikc_json_text(m->clip_name));
            cJSON_AddNumberToObject(o, "frames", m->take.frame_count);
            cJSON_AddItemToObject(o, "in_place", ikc_motion_in_place_json(m));
            cJSON_AddTrueToObject(o, "kept_in_place");
            ikc_json_print_result(o, code);
        }
        return code;
    }
    r = ik_in_place_root_motion(m->asset.skeleton, m->joints[IK_FOOT_HIPS], &m->asset.root_ms, m->cycle.slide_ms,
                                &m->take);
    if (r != IK_OK) {
        fprintf(stderr, "ikc clean: %s: cannot put the root motion back: %s\n", m->asset.path, ik_result_str(r));
        *done = 1;
        return IKC_EXIT_FAILURE;
    }
    memcpy(m->contacts, m->stances, (size_t)m->stance_count * sizeof *m->stances);
    m->contact_count = m->stance_count;
    if (!json)
        printf(
            "root motion put back: the hips (%s) move forward %.4g units over the take (%.3g m); its %d stances "
            "are held\n",
            ikc_shown(ik_skeleton_name(m->asset.skeleton, m->joints[IK_FOOT_HIPS])),
            (double)m->cycle.speed * (double)(m->take.frame_count - 1) * (double)m->take.frame_time,
            (double)m->cycle.speed * (double)(m->take.frame_count - 1) * (double)m->take.frame_time /
                (double)ik_foot_metre(m->leg_length),
            m->stance_count);
    return IKC_EXIT_OK;
}

static int run(ikc_motion *m, const char *out, int overwrite, int root_motion, int json) {
    size_t pose_bytes = (size_t)m->take.frame_count * (size_t)m->take.joint_count * sizeof(ik_transform);
    ik_take reference = m->take;
    ik_mat4 *reference_ms = (ik_mat4 *)malloc((size_t)m->take.joint_count * sizeof(ik_mat4));
    ik_vec3 *previous_ms = (ik_vec3 *)malloc(2 * (size_t)m->take.joint_count * sizeof(ik_vec3));
    ik_skating before, after;
    outside_figures outside_before, outside_after;
    double t0, seconds;
    int p, code, legs_with_contacts = 0, done = 0;
    if (m->cycle.in_place) {
        code = in_place(m, out, overwrite, root_motion, json, &done);
        if (done) {
            free(reference_ms);
            free(previous_ms);
            return code;
        }
    } else if (root_motion) {
        fprintf(stderr,
                "ikc clean: %s: --root-motion is for cycles made in place, and this take is not one (its "
                "hips travel %.3g units/s; no steady backward slide of the feet was found)\n",
                m->asset.path, (double)m->cycle.hips_speed);
        free(reference_ms);
        free(previous_ms);
        return IKC_EXIT_FORMAT;
    }
    for (p = 0; p < IK_FOOT_CONTACT_POINTS; ++p)
        if (m->present[p] && ikc_motion_point_contacts(m, p) == 0)
            fprintf(stderr, "ikc clean: warning: the %s (%s) is never on the ground; it is left as it is\n",
                    ik_foot_point_name(p), m->point_label[p]);
    for (p = 0; p < m->contact_count; ++p) legs_with_contacts |= 1 << ik_foot_point_leg(m->contacts[p].point);
    if (!legs_with_contacts) {
        fprintf(stderr,
                "ikc clean: %s: no foot is ever on the ground (no contacts found, and no steady backward "
                "slide of both feet as in a cycle made in place): nothing to hold; `ikc contacts` shows the "
                "feet's heights and speeds\n",
                m->asset.path);
        free(reference_ms);
        free(previous_ms);
        return IKC_EXIT_FORMAT;
    }
    reference.poses_ls = (ik_transform *)malloc(pose_bytes);
    if (!reference.poses_ls || !reference_ms || !previous_ms) {
        free(reference.poses_ls);
        free(reference_ms);
        free(previous_ms);
        fprintf(stderr, "ikc clean: out of memory\n");
        return IKC_EXIT_FAILURE;
    }
    memcpy(reference.poses_ls, m->take.poses_ls, pose_bytes);
    code = measure(m, &m->take, NULL, reference_ms, NULL, &before) == IK_OK &&
                   measure_outside(m, &m->take, &outside_before) == IK_OK
               ? IKC_EXIT_OK
               : IKC_EXIT_FAILURE;
    t0 = ikc_now();
    if (code == IKC_EXIT_OK) code = clean(m);
    seconds = ikc_now() - t0;
    if (code == IKC_EXIT_OK && (measure(m, &m->take, &reference, reference_ms, previous_ms, &after) != IK_OK ||
                                measure_outside(m, &m->take, &outside_after) != IK_OK)) {
        fprintf(stderr, "ikc clean: %s: the cleaned take is not finite\n", m->asset.path);
        code = IKC_EXIT_FAILURE;
    }
    if (code == IKC_EXIT_OK) code = ikc_write_take("clean", &m->asset, &m->take, m->clip, NULL, out, overwrite);
    if (code == IKC_EXIT_OK) {
        int failed;
        cJSON *table = json ? table_json(m, &before, &after, &outside_before, &outside_after, seconds) : NULL;
        if (!json) print_table(m, &before, &after, &outside_before, &outside_after, seconds);
        failed = check_result(m, &after, &outside_before, &outside_after,
                              table ? cJSON_GetObjectItem(table, "checks_failed") : NULL);
        if (failed > 0) {
            fprintf(stderr, "ikc clean: %s was written, but fails %d of its checks (warnings above)\n", ikc_shown(out),
                    failed);
            code = IKC_EXIT_CHECKS;
        }
        if (table) ikc_json_print_result(table, code);
    }
    free(reference.poses_ls);
    free(reference_ms);
    free(previous_ms);
    return code;
}

int ikc_clean(int argc, char **argv) {
    const char *path = NULL, *clip = NULL, *map = NULL, *out = NULL;
    int overwrite = 0, root_motion = 0, keep = 0, json = 0, i, code;
    double fps = 0.0;
    ikc_motion m;
    for (i = 0; i < argc; ++i) {
        if (ikc_is_help(argv[i])) {
            usage(stdout);
            return IKC_EXIT_OK;
        } else if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0) {
            continue;
        } else if (strcmp(argv[i], "--overwrite") == 0) {
            overwrite = 1;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "--root-motion") == 0) {
            root_motion = 1;
        } else if (strcmp(argv[i], "--in-place") == 0) {
            keep = 1;
        } else if (strcmp(argv[i], "--clip") == 0) {
            if (!(clip = ikc_option_value("clean", argc, argv, &i))) return IKC_EXIT_USAGE;
        } else if (strcmp(argv[i], "--map") == 0) {
            if (!(map = ikc_option_value("clean", argc, argv, &i))) return IKC_EXIT_USAGE;
        } else if (strcmp(argv[i], "--fps") == 0) {
            const char *value = ikc_option_value("clean", argc, argv, &i);
            if (!value || (fps = ikc_motion_fps_option("clean", value)) < 0) return IKC_EXIT_USAGE;
        } else if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) {
            if (!(out = ikc_option_value("clean", argc, argv, &i))) return IKC_EXIT_USAGE;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "ikc clean: unknown option '%s'\n", ikc_shown(argv[i]));
            usage(stderr);
            return IKC_EXIT_USAGE;
        } else if (!path) {
            path = argv[i];
        } else {
            fprintf(stderr, "ikc clean: one TAKE only ('%s' is extra)\n", ikc_shown(argv[i]));
            return IKC_EXIT_USAGE;
        }
    }
    if (!path || !out) {
        if (path) fprintf(stderr, "ikc clean: -o OUT is required\n");
        usage(stderr);
        return IKC_EXIT_USAGE;
    }
    if (root_motion && keep) {
        fprintf(stderr, "ikc clean: --root-motion and --in-place are two answers to one question: give one\n");
        return IKC_EXIT_USAGE;
    }
    code = ikc_motion_load_at("clean", path, clip, map, fps, &m);
    if (code == IKC_EXIT_OK) code = run(&m, out, overwrite, root_motion, json);
    ikc_motion_free(&m);
    return code;
}

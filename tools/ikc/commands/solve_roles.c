/* `ikc solve` by role on a humanoid rig (see solve_roles.h). */
#include <stdlib.h>
#include <string.h>

#include <ikit/body_frame.h>

#include "ikc.h"
#include "solve_roles.h"

#define STAIR_STEPS 16
#define TIMED_SOLVES 7

static const char *const goal_options[IK_LIMB_COUNT] = {"--left-hand", "--right-hand", "--left-foot", "--right-foot"};
static const int goal_roles[IK_LIMB_COUNT] = {IK_ROLE_HAND_L, IK_ROLE_HAND_R, IK_ROLE_FOOT_L, IK_ROLE_FOOT_R};

void ikc_roles_init(ikc_roles *r) {
    memset(r, 0, sizeof *r);
    r->stairs_azimuth_deg = 90;
    r->look_tolerance_deg = 1;
}

void ikc_roles_usage(FILE *out) {
    fprintf(out,
            "humanoid targets by role (the rig finds the body's joints by name, see `ikc info`):\n"
            "  --left-hand x,y,z   the left wrist goes to (x, y, z); also --right-hand,\n"
            "  --left-foot x,y,z   --left-foot and --right-foot (the ankle)\n"
            "  --look-at x,y,z     spine, neck and head turn so the face looks at the point;\n"
            "                      one beyond the neck's range (80 deg of yaw and of pitch\n"
            "                      from the chest's forward) turns the head toward it as far\n"
            "                      as the limits allow, pitched no further than the target's\n"
            "                      elevation; the residual is the angle between the face's\n"
            "                      forward and the direction to the target\n"
            "  --look-tolerance DEG  the look is reached within DEG degrees (default 1)\n"
            "  --map FILE          'role = joint name' lines for joints not found by name\n"
            "                      (roles: hips spine chest neck head, left_/right_ + clavicle\n"
            "                      upper_arm forearm hand thigh shin foot toe)\n"
            "the whole body (ik_full_body_run; instead of the per-limb options above and\n"
            "the ground): the pelvis, spine, chest, neck and clavicles move so the limbs\n"
            "reach, within their limits, then the limbs solve by two-bone IK:\n"
            "  --reach ROLE=x,y,z  the effector goes to (x, y, z): left_hand right_hand\n"
            "                      (wrists) left_foot right_foot (ankles) head hips chest\n"
            "                      (those joints); --look-at aims the head too\n"
            "  --pin ROLE          the effector stays where the pose has it (a foot, the\n"
            "                      hips, the chest, the head); a pinned foot is a support\n"
            "  --balance           keep the centre of mass (de Leva's segment masses)\n"
            "                      over the pinned feet's soles; a pose that cannot be\n"
            "                      balanced is a warning saying how far out it stays\n"
            "feet on the ground (one of). The ground is laid under the pose being solved:\n"
            "its height 0 is that pose's floor, the lower of its soles (the rest floor for\n"
            "the rest pose; with --clip, the frame's lower foot), under the hips. Without\n"
            "--clip both feet are planted on it where they stand (a foot the rest pose\n"
            "holds up too), soles along the surface; with --clip each foot keeps the\n"
            "frame's pose relative to its floor (its height above it, its tilt, its\n"
            "ankle), carried onto the ground and turned by its slope, so a flat ground\n"
            "(--slope 0) leaves the frame as it is and a swinging foot keeps swinging.\n"
            "The pelvis is lowered so both feet reach; a heel lifts when the ankle cannot\n"
            "bend further; a foot that still cannot reach is a warning with its residual:\n"
            "  --slope DEG[,AZ]    a plane through the floor under the hips, rising DEG\n"
            "                      degrees toward azimuth AZ (degrees from the figure's\n"
            "                      forward toward its left; default 0: uphill ahead)\n"
            "  --stairs RISE,RUN[,AZ]  steps RISE high and RUN deep (model units), the first\n"
            "                      riser under the hips, climbing toward AZ (default 90: to\n"
            "                      the figure's left, so the left foot stands a step higher)\n"
            "  --feet-on-ground FILE   a height field, a text file:\n"
            "                        # comment\n"
            "                        cell 0.1             sample spacing (model units)\n"
            "                        size 6 4             samples along x, rows along z\n"
            "                        origin -0.25 0 -0.2  optional: the first sample's\n"
            "                                             position; without it the grid is\n"
            "                                             centred under the hips, heights\n"
            "                                             from the pose's floor\n"
            "                        heights              then 4 rows of 6 heights (y):\n"
            "                        0 0 0.01 0.02 0.03 0.04\n"
            "                        ...\n"
            "                      row iz, column ix is at x = origin.x + ix * cell,\n"
            "                      z = origin.z + iz * cell; stairs and height fields need a\n"
            "                      Y-up character (glTF, BVH)\n");
}

static int set_ground(ikc_roles *r, ikc_ground_kind kind, const char *option) {
    static const char *const names[] = {"", "--slope", "--stairs", "--feet-on-ground"};
    if (r->ground_kind != IKC_GROUND_NONE) {
        fprintf(stderr, "ikc solve: %s: one ground at a time (%s was given already)\n", option, names[r->ground_kind]);
        return 0;
    }
    r->ground_kind = kind;
    return 1;
}

static int parse_look_tolerance(ikc_roles *r, const char *value) {
    if (!ikc_parse_real(value, &r->look_tolerance_deg) || !(r->look_tolerance_deg >= 0) ||
        r->look_tolerance_deg > 180) {
        fprintf(stderr, "ikc solve: --look-tolerance: want degrees 0..180, got '%s'\n", value);
        return -1;
    }
    return 1;
}

/* The effectors' role names, for messages. */
static void list_effectors(FILE *out) {
    int e;
    fprintf(out, "the effectors are:");
    for (e = 0; e < IK_FB_EFFECTOR_COUNT; ++e) fprintf(out, " %s", ik_full_body_effector_name(e));
    fprintf(out, "\n");
}

static int unknown_effector(const char *option, const char *name) {
    const char *names[IK_FB_EFFECTOR_COUNT];
    int e;
    for (e = 0; e < IK_FB_EFFECTOR_COUNT; ++e) names[e] = ik_full_body_effector_name(e);
    fprintf(stderr, "ikc solve: %s: '%s' is no effector's role\n", option, name);
    ikc_suggest_name(stderr, names, IK_FB_EFFECTOR_COUNT, name, 2);
    fprintf(stderr, "ikc solve: ");
    list_effectors(stderr);
    return -1;
}

/* --reach ROLE=x,y,z, --pin ROLE, --balance (see full_body.h). */
static int full_body_option(ikc_roles *r, int argc, char **argv, int *i) {
    const char *a = argv[*i], *value;
    char name[64];
    ik_vec3 p;
    int e;
    if (strcmp(a, "--balance") == 0) {
        r->balance = 1;
        return 1;
    }
    if (strcmp(a, "--reach") != 0 && strcmp(a, "--pin") != 0) return 0;
    if (!(value = ikc_option_value("solve", argc, argv, i))) return -1;
    if (strcmp(a, "--pin") == 0) {
        e = ik_full_body_effector_find(value, -1);
        if (e < 0) return unknown_effector(a, value);
        if (e == IK_FB_HAND_L || e == IK_FB_HAND_R) {
            fprintf(stderr, "ikc solve: --pin %s: hands are not pinned; give --reach %s=x,y,z\n", value, value);
            return -1;
        }
        r->pinned[e] = 1;
        return 1;
    }
    if (!ikc_parse_named_vec3("solve", a, value, name, sizeof name, &p)) return -1;
    e = ik_full_body_effector_find(name, -1);
    if (e < 0) return unknown_effector(a, name);
    if (r->reach_given[e]) {
        fprintf(stderr, "ikc solve: --reach %s given twice\n", name);
        return -1;
    }
    r->reach_given[e] = 1;
    r->reach_ms[e] = p;
    return 1;
}

int ikc_roles_full_body(const ikc_roles *r) {
    int e;
    for (e = 0; e < IK_FB_EFFECTOR_COUNT; ++e)
        if (r->reach_given[e] || r->pinned[e]) return 1;
    return r->balance;
}

int ikc_roles_option(ikc_roles *r, int argc, char **argv, int *i) {
    const char *a = argv[*i], *value;
    ik_real v[3];
    int k, n = full_body_option(r, argc, argv, i);
    if (n != 0) return n;
    for (k = 0; k < IK_LIMB_COUNT; ++k)
        if (strcmp(a, goal_options[k]) == 0) break;
    if (k == IK_LIMB_COUNT && strcmp(a, "--look-at") != 0 && strcmp(a, "--map") != 0 && strcmp(a, "--slope") != 0 &&
        strcmp(a, "--stairs") != 0 && strcmp(a, "--feet-on-ground") != 0 && strcmp(a, "--look-tolerance") != 0)
        return 0;
    if (!(value = ikc_option_value("solve", argc, argv, i))) return -1;
    if (strcmp(a, "--look-tolerance") == 0) return parse_look_tolerance(r, value);
    if (k < IK_LIMB_COUNT || strcmp(a, "--look-at") == 0) {
        ik_vec3 p;
        if (!ikc_parse_vec3(value, &p)) {
            fprintf(stderr, "ikc solve: %s: bad numbers '%s' (want three finite numbers x,y,z)\n", a, value);
            return -1;
        }
        if (k < IK_LIMB_COUNT) {
            if (r->goal_given[k]) {
                fprintf(stderr, "ikc solve: %s given twice\n", a);
                return -1;
            }
            r->goal_given[k] = 1;
            r->goal_ms[k] = p;
        } else {
            r->look_given = 1;
            r->look_ms = p;
        }
    } else if (strcmp(a, "--map") == 0) {
        r->map_path = value;
    } else if (strcmp(a, "--slope") == 0) {
        n = ikc_parse_reals(value, ',', v, 1, 2);
        if (!n || IK_FABS(v[0]) >= 80) {
            fprintf(stderr, "ikc solve: --slope: want DEGREES[,AZIMUTH] with |DEGREES| < 80, got '%s'\n", value);
            return -1;
        }
        if (!set_ground(r, IKC_GROUND_SLOPE, a)) return -1;
        r->slope_deg = v[0];
        r->slope_azimuth_deg = n > 1 ? v[1] : 0;
    } else if (strcmp(a, "--stairs") == 0) {
        n = ikc_parse_reals(value, ',', v, 2, 3);
        if (!n || !(v[0] > 0) || !(v[1] > 0)) {
            fprintf(stderr, "ikc solve: --stairs: want RISE,RUN[,AZIMUTH] with RISE and RUN > 0, got '%s'\n", value);
            return -1;
        }
        if (!set_ground(r, IKC_GROUND_STAIRS, a)) return -1;
        r->stairs_rise = v[0];
        r->stairs_run = v[1];
        if (n > 2) r->stairs_azimuth_deg = v[2];
    } else {
        if (!set_ground(r, IKC_GROUND_FILE, a)) return -1;
        r->field_path = value;
    }
    return 1;
}

int ikc_roles_any(const ikc_roles *r) {
    int k;
    for (k = 0; k < IK_LIMB_COUNT; ++k)
        if (r->goal_given[k]) return 1;
    return r->look_given || r->ground_kind != IKC_GROUND_NONE || ikc_roles_full_body(r);
}

/* ---- the ground ------------------------------------------------------------- */

/* The horizontal direction at `azimuth_deg` from forward toward left. */
static ik_vec3 azimuth_direction(const ik_body_frame *b, ik_real azimuth_deg) {
    ik_real a = ik_rad(azimuth_deg);
    ik_vec3 d = ik_vec3_add(ik_vec3_scale(b->forward_ms, IK_COS(a)), ik_vec3_scale(b->left_ms, IK_SIN(a)));
    return ik_vec3_normalize(ik_vec3_mad(d, b->up_ms, -ik_vec3_dot(d, b->up_ms)));
}

/* The ground under the pose's floor (r->floor_ms, its lower sole under the
 * hips: ik_humanoid_floor_point), laid along the body's axes `b`. */
static int build_ground(ikc_roles *r, const ik_body_frame *b) {
    if (r->ground_kind == IKC_GROUND_SLOPE) {
        /* A plane rising tan(s) per unit along u has the normal
         * cos(s) up - sin(s) u. */
        ik_real s = ik_rad(r->slope_deg);
        ik_vec3 u = azimuth_direction(b, r->slope_azimuth_deg);
        r->ground =
            ik_ground_plane(r->floor_ms, ik_vec3_sub(ik_vec3_scale(b->up_ms, IK_COS(s)), ik_vec3_scale(u, IK_SIN(s))));
        return IKC_EXIT_OK;
    }
    if (ik_vec3_dot(b->up_ms, ik_v3(0, 1, 0)) < (ik_real)0.999) {
        fprintf(stderr, "ikc solve: %s needs a character standing along +Y; this one's up is (%.3f, %.3f, %.3f)\n",
                r->ground_kind == IKC_GROUND_STAIRS ? "--stairs" : "--feet-on-ground", (double)b->up_ms.x,
                (double)b->up_ms.y, (double)b->up_ms.z);
        return IKC_EXIT_USAGE;
    }
    if (r->ground_kind == IKC_GROUND_STAIRS) {
        r->ground = ik_ground_stairs(r->floor_ms, azimuth_direction(b, r->stairs_azimuth_deg), r->stairs_rise,
                                     r->stairs_run, STAIR_STEPS);
    } else {
        ik_vec3 origin = r->field.has_origin
                             ? r->field.origin_ms
                             : ik_v3(r->floor_ms.x - (ik_real)(r->field.count_x - 1) * r->field.cell / 2, r->floor_ms.y,
                                     r->floor_ms.z - (ik_real)(r->field.count_z - 1) * r->field.cell / 2);
        r->ground = ik_ground_height_field(origin, r->field.cell, r->field.count_x, r->field.count_z, r->field.heights);
    }
    return IKC_EXIT_OK;
}

/* ---- the solve -------------------------------------------------------------- */

/* The height-field file, or an exit code after "ikc solve: FILE:LINE:COLUMN:
 * what is wrong" (ikc_reader_failed). */
static int read_height_field(const char *path, ik_height_field_file *field) {
    ik_error err;
    ik_result result = ik_height_field_file_read_file(path, field, &err);
    return result == IK_OK ? IKC_EXIT_OK : ikc_reader_failed("solve", path, result, &err);
}

/* Where a limb's end (hand, ankle, or its virtual end) stands. */
static ik_vec3 limb_end(const ik_humanoid_limb *limb, const ik_mat4 *model_ms) {
    ik_mat4 end_ms = ik_humanoid_limb_end_ms(limb, model_ms);
    return ik_mat4_translation(&end_ms);
}

static const char *limb_end_name(const ikc_roles *r, const ik_skeleton *s, int limb) {
    int end = r->humanoid.rig.limb[limb].end;
    return end >= 0 ? ikc_shown(ik_skeleton_name(s, end)) : "(virtual ankle)";
}

/* The rig's job for the roles given: the ground under the pose's floor,
 * each limb's goal (feet under a rest pose planted on the ground below
 * them), the look-at. Returns an IKC_EXIT_ code. */
static int setup_job(ikc_roles *r, const ik_asset *asset, ik_transform *pose_ls, ik_mat4 *model_ms,
                     ik_humanoid_solve *job) {
    const ik_humanoid *rig = &r->humanoid.rig;
    ik_body_frame body;
    ik_error error;
    int code, k;
    ik_skeleton_fk(asset->skeleton, pose_ls, &asset->root_ms, model_ms);
    if (ik_body_frame_compute(rig, &asset->root_ms, &body, &error) != IK_OK) {
        fprintf(stderr, "ikc solve: %s: %s\n", asset->path, error.message);
        return IKC_EXIT_FORMAT;
    }
    r->floor_ms = ik_humanoid_floor_point(rig, model_ms, &asset->root_ms);
    if (r->ground_kind != IKC_GROUND_NONE) {
        ik_result g;
        if ((code = build_ground(r, &body)) != IKC_EXIT_OK) return code;
        if ((g = ik_ground_validate(&r->ground)) != IK_OK) {
            fprintf(stderr, "ikc solve: the ground is not valid: %s\n", ik_result_str(g));
            return IKC_EXIT_USAGE;
        }
        job->ground = &r->ground;
        job->use_floor = 1;
        job->floor_ms = r->floor_ms;
        job->feet_relative = r->animated;
    }
    job->rig = rig;
    job->pose_ls = pose_ls;
    job->model_ms = model_ms;
    job->root_ms = &asset->root_ms;
    job->report = &r->report;
    for (k = 0; k < IK_LIMB_COUNT; ++k) {
        job->goal[k].enabled = r->goal_given[k];
        job->goal[k].position_ms = r->goal_ms[k];
        /* "Feet on the ground" under a rest pose plants a foot the pose
         * holds up too: a goal on the ground under its ankle is not above
         * the ground, so the solve stands the foot on it. A clip's frame
         * keeps its feet as animated (feet_relative). */
        if (k >= IK_LIMB_LEG_L && !r->goal_given[k] && job->ground && !r->animated) {
            ik_vec3 ankle = limb_end(&rig->limb[k], model_ms);
            ik_real leg = ik_vec3_distance(ik_mat4_translation(&model_ms[rig->limb[k].start]), ankle);
            ik_ground_hit hit;
            if (ik_ground_cast(job->ground, ik_vec3_mad(ankle, body.up_ms, 2 * leg), ik_vec3_neg(body.up_ms), 6 * leg,
                               &hit)) {
                job->goal[k].enabled = 1;
                job->goal[k].position_ms = hit.point_ms;
            }
        }
    }
    job->look_at = r->look_given;
    job->look_target_ms = r->look_ms;
    job->look_tolerance = ik_rad(r->look_tolerance_deg);
    return IKC_EXIT_OK;
}

/* Run `job` TIMED_SOLVES times from the same start pose, keeping the last
 * answer and the median time. Returns an IKC_EXIT_ code. */
static int solve_timed(ikc_roles *r, const ik_skeleton *s, const ik_humanoid_solve *job) {
    double times[TIMED_SOLVES];
    ik_transform *start = (ik_transform *)malloc((size_t)s->joint_count * sizeof *start);
    ik_result result = IK_OK;
    int run;
    if (!start) {
        fprintf(stderr, "ikc solve: out of memory\n");
        return IKC_EXIT_FAILURE;
    }
    memcpy(start, job->pose_ls, (size_t)s->joint_count * sizeof *start);
    for (run = 0; run < TIMED_SOLVES && result == IK_OK; ++run) {
        double t0 = ikc_now();
        memcpy(job->pose_ls, start, (size_t)s->joint_count * sizeof *start);
        memset(&r->report, 0, sizeof r->report);
        result = ik_humanoid_solve_run(job);
        times[run] = (ikc_now() - t0) * 1e6;
    }
    free(start);
    if (result != IK_OK) {
        fprintf(stderr, "ikc solve: the humanoid solve failed: %s\n", ik_result_str(result));
        return IKC_EXIT_FAILURE;
    }
    r->microseconds = ikc_median(times, TIMED_SOLVES);
    return IKC_EXIT_OK;
}

/* Where the limbs and head ended, and a warning for each goal not reached. */
static void report_results(ikc_roles *r, const ik_skeleton *s, const ik_mat4 *model_ms) {
    const ik_humanoid *rig = &r->humanoid.rig;
    int head = rig->map.joint[IK_ROLE_HEAD], k;
    for (k = 0; k < IK_LIMB_COUNT; ++k) {
        const ik_humanoid_limb *limb = &rig->limb[k];
        ik_vec3 a = ik_mat4_translation(&model_ms[limb->start]), m = ik_mat4_translation(&model_ms[limb->mid]);
        r->end_ms[k] = limb_end(limb, model_ms);
        r->limb_length[k] = ik_vec3_distance(a, m) + ik_vec3_distance(m, r->end_ms[k]);
        if (r->goal_given[k] && !r->report.reached[k])
            fprintf(stderr, "ikc solve: warning: %s did not reach (%g, %g, %g): residual %.4g (limb length %.4g)\n",
                    ik_humanoid_role_name(goal_roles[k]), (double)r->goal_ms[k].x, (double)r->goal_ms[k].y,
                    (double)r->goal_ms[k].z, (double)r->report.residual[k], (double)r->limb_length[k]);
    }
    r->head_ms = ik_mat4_translation(&model_ms[head]);
    r->gaze_ms = ik_vec3_normalize(ik_mat4_transform_vector(&model_ms[head], rig->head_forward_ls));
    if (r->look_given && !r->report.look_reached)
        fprintf(stderr,
                "ikc solve: warning: the head did not reach the look-at target (%g, %g, %g): residual %.2f deg "
                "(tolerance %g deg): it turned as far as its limits allow\n",
                (double)r->look_ms.x, (double)r->look_ms.y, (double)r->look_ms.z, (double)ik_deg(r->report.look_error),
                (double)r->look_tolerance_deg);
    for (k = 0; k < 2 && r->ground_kind != IKC_GROUND_NONE; ++k) {
        int limb = IK_LIMB_LEG_L + k;
        if (!r->report.grounded[k])
            fprintf(stderr, "ikc solve: warning: no ground found under the %s foot\n", k == 0 ? "left" : "right");
        else if (!r->goal_given[limb] && !r->report.reached[limb])
            fprintf(stderr,
                    "ikc solve: warning: the %s foot (%s) cannot reach the ground: residual %.4g (limb length %.4g)\n",
                    k == 0 ? "left" : "right", limb_end_name(r, s, limb), (double)r->report.residual[limb],
                    (double)r->limb_length[limb]);
    }
}

/* ---- the full body ------------------------------------------------------------- */

/* The joint an effector moves (wrist, ankle, head, hips, chest), or -1 for
 * a virtual end. */
static int effector_joint(const ik_humanoid *rig, int e) {
    if (e < IK_LIMB_COUNT) return rig->limb[e].end;
    return rig->map.joint[e == IK_FB_HEAD ? IK_ROLE_HEAD : e == IK_FB_HIPS ? IK_ROLE_HIPS : IK_ROLE_CHEST];
}

static ik_vec3 effector_position(const ik_humanoid *rig, int e, const ik_mat4 *model_ms) {
    if (e < IK_LIMB_COUNT) return limb_end(&rig->limb[e], model_ms);
    return ik_mat4_translation(&model_ms[effector_joint(rig, e)]);
}

/* The full-body job from the start pose (also its reference), run
 * TIMED_SOLVES times from it; the last answer kept. */
static int solve_full_body(ikc_roles *r, const ik_asset *asset, ik_transform *pose_ls, ik_mat4 *model_ms) {
    const ik_skeleton *s = asset->skeleton;
    const ik_humanoid *rig = &r->humanoid.rig;
    ik_full_body job = ik_full_body_def();
    size_t n = (size_t)s->joint_count, bytes = ik_full_body_scratch_size(rig);
    ik_transform *start = (ik_transform *)malloc(n * sizeof *start);
    void *scratch = malloc(bytes);
    double times[TIMED_SOLVES];
    ik_result result = IK_OK;
    int e, run;
    if (!start || !scratch) {
        free(start);
        free(scratch);
        fprintf(stderr, "ikc solve: out of memory\n");
        return IKC_EXIT_FAILURE;
    }
    if (ik_body_mass_init(&r->mass, rig, IK_BODY_MASS_MALE, 75) != IK_OK) {
        free(start);
        free(scratch);
        fprintf(stderr, "ikc solve: %s: no mass model for this rig (a singular rest frame)\n", asset->path);
        return IKC_EXIT_FORMAT;
    }
    memcpy(start, pose_ls, n * sizeof *start);
    job.rig = rig;
    job.mass = &r->mass;
    job.pose_ls = pose_ls;
    job.reference_ls = start;
    job.model_ms = model_ms;
    job.root_ms = &asset->root_ms;
    job.scratch = scratch;
    job.scratch_bytes = bytes;
    job.report = &r->body_report;
    job.balance = r->balance;
    job.look_at = r->look_given;
    job.look_target_ms = r->look_ms;
    for (e = 0; e < IK_FB_EFFECTOR_COUNT; ++e) {
        job.effector[e].enabled = r->reach_given[e];
        job.effector[e].position_ms = r->reach_ms[e];
        job.effector[e].pinned = r->pinned[e];
    }
    for (run = 0; run < TIMED_SOLVES && result == IK_OK; ++run) {
        double t0 = ikc_now();
        memcpy(pose_ls, start, n * sizeof *start);
        result = ik_full_body_run(&job);
        times[run] = (ikc_now() - t0) * 1e6;
    }
    free(start);
    free(scratch);
    if (result != IK_OK) {
        fprintf(stderr, "ikc solve: the full-body solve failed: %s\n", ik_result_str(result));
        return IKC_EXIT_FAILURE;
    }
    r->microseconds = ikc_median(times, TIMED_SOLVES);
    ik_full_body_report_describe(&job, &r->body_report, r->body_summary, sizeof r->body_summary);
    for (e = 0; e < IK_FB_EFFECTOR_COUNT; ++e) {
        r->effector_ms[e] = effector_position(rig, e, model_ms);
        if (r->reach_given[e] && !r->body_report.reached[e])
            fprintf(stderr, "ikc solve: warning: %s did not reach (%g, %g, %g): residual %.4g\n",
                    ik_full_body_effector_name(e), (double)r->reach_ms[e].x, (double)r->reach_ms[e].y,
                    (double)r->reach_ms[e].z, (double)r->body_report.residual[e]);
    }
    if (r->balance && r->body_report.balance != IK_BALANCE_KEPT)
        fprintf(stderr, "ikc solve: warning: %s\n", r->body_summary);
    {
        int head = rig->map.joint[IK_ROLE_HEAD];
        r->head_ms = ik_mat4_translation(&model_ms[head]);
        r->gaze_ms = ik_vec3_normalize(ik_mat4_transform_vector(&model_ms[head], rig->head_forward_ls));
    }
    return IKC_EXIT_OK;
}

int ikc_roles_solve(ikc_roles *r, const ik_asset *asset, ik_transform *pose_ls, ik_mat4 *model_ms) {
    const ik_skeleton *s = asset->skeleton;
    ik_humanoid_solve job = ik_humanoid_solve_def();
    int code, k;
    if (ikc_roles_full_body(r)) {
        for (k = 0; k < IK_LIMB_COUNT; ++k)
            if (r->goal_given[k]) {
                fprintf(stderr,
                        "ikc solve: %s goes with the per-limb solve; with --reach, --pin or --balance give "
                        "--reach %s=x,y,z\n",
                        goal_options[k], ik_humanoid_role_name(goal_roles[k]));
                return IKC_EXIT_USAGE;
            }
        if (r->ground_kind != IKC_GROUND_NONE) {
            fprintf(stderr,
                    "ikc solve: the full body (--reach, --pin, --balance) stands where the pose stands: no "
                    "--slope, --stairs or --feet-on-ground with it\n");
            return IKC_EXIT_USAGE;
        }
        code = ikc_humanoid_find("solve", s, r->map_path, &r->humanoid);
        if (code != IKC_EXIT_OK) return code;
        if (!ikc_humanoid_usable("solve", &r->humanoid, s, stderr))
            return r->humanoid.map_result != IK_OK || r->humanoid.init_result == IK_ERR_UNSUPPORTED ? IKC_EXIT_NOT_FOUND
                                                                                                    : IKC_EXIT_FORMAT;
        ik_skeleton_fk(s, pose_ls, &asset->root_ms, model_ms);
        return solve_full_body(r, asset, pose_ls, model_ms);
    }
    if (r->ground_kind == IKC_GROUND_FILE && (code = read_height_field(r->field_path, &r->field)) != IKC_EXIT_OK)
        return code;
    code = ikc_humanoid_find("solve", s, r->map_path, &r->humanoid);
    if (code != IKC_EXIT_OK) return code;
    if (!ikc_humanoid_usable("solve", &r->humanoid, s, stderr))
        return r->humanoid.map_result != IK_OK || r->humanoid.init_result == IK_ERR_UNSUPPORTED ? IKC_EXIT_NOT_FOUND
                                                                                                : IKC_EXIT_FORMAT;
    if ((code = setup_job(r, asset, pose_ls, model_ms, &job)) != IKC_EXIT_OK) return code;
    if ((code = solve_timed(r, s, &job)) != IKC_EXIT_OK) return code;
    report_results(r, s, model_ms);
    return IKC_EXIT_OK;
}

/* ---- output ------------------------------------------------------------------ */

cJSON *ikc_vec3_json(ik_vec3 v) {
    double a[3];
    a[0] = (double)v.x;
    a[1] = (double)v.y;
    a[2] = (double)v.z;
    return cJSON_CreateDoubleArray(a, 3);
}

static void ground_json(const ikc_roles *r, cJSON *h) {
    cJSON *g;
    if (r->ground_kind == IKC_GROUND_NONE) {
        cJSON_AddNullToObject(h, "ground");
        return;
    }
    g = cJSON_AddObjectToObject(h, "ground");
    cJSON_AddItemToObject(g, "floor", ikc_vec3_json(r->floor_ms));
    if (r->ground_kind == IKC_GROUND_SLOPE) {
        cJSON_AddStringToObject(g, "type", "plane");
        cJSON_AddNumberToObject(g, "degrees", (double)r->slope_deg);
        cJSON_AddNumberToObject(g, "azimuth", (double)r->slope_azimuth_deg);
        cJSON_AddItemToObject(g, "point", ikc_vec3_json(r->ground.point_ms));
        cJSON_AddItemToObject(g, "normal", ikc_vec3_json(r->ground.normal_ms));
    } else if (r->ground_kind == IKC_GROUND_STAIRS) {
        cJSON_AddStringToObject(g, "type", "stairs");
        cJSON_AddItemToObject(g, "first_riser", ikc_vec3_json(r->ground.point_ms));
        cJSON_AddItemToObject(g, "direction", ikc_vec3_json(r->ground.direction_ms));
        cJSON_AddNumberToObject(g, "rise", (double)r->ground.rise);
        cJSON_AddNumberToObject(g, "run", (double)r->ground.run);
        cJSON_AddNumberToObject(g, "steps", r->ground.step_count);
    } else {
        cJSON_AddStringToObject(g, "type", "height field");
        cJSON_AddItemToObject(g, "file", ikc_json_text(r->field_path));
        cJSON_AddItemToObject(g, "origin", ikc_vec3_json(r->ground.point_ms));
        cJSON_AddNumberToObject(g, "cell", (double)r->ground.cell);
        cJSON_AddNumberToObject(g, "count_x", r->ground.count_x);
        cJSON_AddNumberToObject(g, "count_z", r->ground.count_z);
    }
}

static void full_body_json(const ikc_roles *r, const ik_skeleton *skeleton, cJSON *root) {
    static const char *const status[] = {"off", "kept", "no support", "lost"};
    const ik_humanoid *rig = &r->humanoid.rig;
    const ik_full_body_report *rep = &r->body_report;
    cJSON *h = cJSON_AddObjectToObject(root, "full_body"), *list = cJSON_AddArrayToObject(h, "effectors"), *b, *poly;
    int e;
    for (e = 0; e < IK_FB_EFFECTOR_COUNT; ++e) {
        cJSON *o;
        int joint = effector_joint(rig, e);
        if (!r->reach_given[e] && !r->pinned[e]) continue;
        o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "role", ik_full_body_effector_name(e));
        if (joint >= 0)
            cJSON_AddItemToObject(o, "joint", ikc_json_text(ik_skeleton_name(skeleton, joint)));
        else
            cJSON_AddNullToObject(o, "joint");
        cJSON_AddBoolToObject(o, "pinned", r->pinned[e]);
        if (r->reach_given[e])
            cJSON_AddItemToObject(o, "target", ikc_vec3_json(r->reach_ms[e]));
        else
            cJSON_AddNullToObject(o, "target");
        cJSON_AddItemToObject(o, "position", ikc_vec3_json(r->effector_ms[e]));
        cJSON_AddNumberToObject(o, "residual", (double)rep->residual[e]);
        cJSON_AddBoolToObject(o, "reached", rep->reached[e]);
        cJSON_AddItemToArray(list, o);
    }
    b = cJSON_AddObjectToObject(h, "balance");
    cJSON_AddStringToObject(b, "status", status[rep->balance]);
    cJSON_AddItemToObject(b, "centre_of_mass", ikc_vec3_json(rep->centre_of_mass_ms));
    cJSON_AddNumberToObject(b, "support_distance", (double)rep->support_distance);
    poly = cJSON_AddArrayToObject(b, "support");
    for (e = 0; e < rep->support_count; ++e) cJSON_AddItemToArray(poly, ikc_vec3_json(rep->support_ms[e]));
    if (r->look_given) {
        cJSON *o = cJSON_AddObjectToObject(h, "look_at");
        cJSON_AddItemToObject(o, "target", ikc_vec3_json(r->look_ms));
        cJSON_AddNumberToObject(o, "residual_degrees", (double)ik_deg(rep->look_error));
    }
    cJSON_AddStringToObject(h, "summary", r->body_summary);
    cJSON_AddNumberToObject(h, "iterations", rep->iterations);
    cJSON_AddNumberToObject(h, "microseconds", r->microseconds);
}

void ikc_roles_json(const ikc_roles *r, const ik_skeleton *skeleton, cJSON *root) {
    const ik_humanoid *rig = &r->humanoid.rig;
    if (ikc_roles_full_body(r)) {
        full_body_json(r, skeleton, root);
        return;
    }
    cJSON *h = cJSON_AddObjectToObject(root, "humanoid"), *map = cJSON_AddObjectToObject(h, "map");
    cJSON *goals = cJSON_AddArrayToObject(h, "goals"), *feet;
    int role, k;
    for (role = 0; role < IK_ROLE_COUNT; ++role)
        if (rig->map.joint[role] >= 0)
            cJSON_AddItemToObject(map, ik_humanoid_role_name(role),
                                  ikc_json_text(ik_skeleton_name(skeleton, rig->map.joint[role])));
    for (k = 0; k < IK_LIMB_COUNT; ++k) {
        cJSON *o;
        if (!r->goal_given[k]) continue;
        o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "role", ik_humanoid_role_name(goal_roles[k]));
        if (rig->limb[k].end >= 0)
            cJSON_AddItemToObject(o, "joint", ikc_json_text(ik_skeleton_name(skeleton, rig->limb[k].end)));
        else
            cJSON_AddNullToObject(o, "joint");
        cJSON_AddItemToObject(o, "target", ikc_vec3_json(r->goal_ms[k]));
        cJSON_AddItemToObject(o, "position", ikc_vec3_json(r->end_ms[k]));
        cJSON_AddNumberToObject(o, "residual", (double)r->report.residual[k]);
        cJSON_AddBoolToObject(o, "reached", r->report.reached[k]);
        cJSON_AddNumberToObject(o, "limb_length", (double)r->limb_length[k]);
        cJSON_AddItemToArray(goals, o);
    }
    if (r->look_given) {
        cJSON *o = cJSON_AddObjectToObject(h, "look_at");
        cJSON_AddItemToObject(o, "target", ikc_vec3_json(r->look_ms));
        cJSON_AddBoolToObject(o, "reached", r->report.look_reached);
        cJSON_AddNumberToObject(o, "residual_degrees", (double)ik_deg(r->report.look_error));
        cJSON_AddNumberToObject(o, "tolerance_degrees", (double)r->look_tolerance_deg);
    } else {
        cJSON_AddNullToObject(h, "look_at");
    }
    ground_json(r, h);
    feet = cJSON_AddArrayToObject(h, "feet");
    for (k = 0; k < 2 && r->ground_kind != IKC_GROUND_NONE; ++k) {
        int limb = IK_LIMB_LEG_L + k;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "role", ik_humanoid_role_name(goal_roles[limb]));
        if (rig->limb[limb].end >= 0)
            cJSON_AddItemToObject(o, "joint", ikc_json_text(ik_skeleton_name(skeleton, rig->limb[limb].end)));
        else
            cJSON_AddNullToObject(o, "joint");
        cJSON_AddBoolToObject(o, "grounded", r->report.grounded[k]);
        cJSON_AddItemToObject(o, "ground_point", ikc_vec3_json(r->report.ground_point_ms[k]));
        cJSON_AddItemToObject(o, "ground_normal", ikc_vec3_json(r->report.ground_normal_ms[k]));
        cJSON_AddBoolToObject(o, "heel_lifted", r->report.heel_lifted[k]);
        cJSON_AddItemToObject(o, "ankle", ikc_vec3_json(r->end_ms[limb]));
        cJSON_AddNumberToObject(o, "residual", (double)r->report.residual[limb]);
        cJSON_AddBoolToObject(o, "reached", r->report.reached[limb]);
        cJSON_AddNumberToObject(o, "limb_length", (double)r->limb_length[limb]);
        if (r->report.grounded[k] && !r->report.reached[limb])
            cJSON_AddStringToObject(o, "warning", "cannot reach the ground");
        cJSON_AddItemToArray(feet, o);
    }
    cJSON_AddNumberToObject(h, "pelvis_offset", (double)r->report.pelvis_offset);
    cJSON_AddNumberToObject(h, "microseconds", r->microseconds);
}

void ikc_roles_table(const ikc_roles *r, const ik_skeleton *skeleton) {
    int k;
    if (ikc_roles_full_body(r)) {
        for (k = 0; k < IK_FB_EFFECTOR_COUNT; ++k) {
            int joint = effector_joint(&r->humanoid.rig, k);
            ik_vec3 t = r->reach_given[k] ? r->reach_ms[k] : r->effector_ms[k];
            if (!r->reach_given[k] && !r->pinned[k]) continue;
            printf("%-20s %-9s (%7.3f, %7.3f, %7.3f) %-7s %11.3e %6d %10.1f%s\n",
                   joint >= 0 ? ikc_shown(ik_skeleton_name(skeleton, joint)) : "(virtual ankle)", "body", (double)t.x,
                   (double)t.y, (double)t.z, r->body_report.reached[k] ? "yes" : "no",
                   (double)r->body_report.residual[k], r->body_report.iterations, r->microseconds,
                   r->pinned[k] ? "  pinned" : "");
        }
        printf("%s\n", r->body_summary);
        return;
    }
    for (k = 0; k < IK_LIMB_COUNT; ++k) {
        ik_vec3 t;
        int leg = k >= IK_LIMB_LEG_L;
        if (!r->goal_given[k] && !(leg && r->ground_kind != IKC_GROUND_NONE)) continue;
        t = r->goal_given[k] ? r->goal_ms[k] : r->report.ground_point_ms[k - IK_LIMB_LEG_L];
        printf("%-20s %-9s (%7.3f, %7.3f, %7.3f) %-7s %11.3e %6d %10.1f", limb_end_name(r, skeleton, k), "humanoid",
               (double)t.x, (double)t.y, (double)t.z, r->report.reached[k] ? "yes" : "no",
               (double)r->report.residual[k], 1, r->microseconds);
        if (leg && r->ground_kind != IKC_GROUND_NONE)
            printf("  %s%s", r->report.grounded[k - IK_LIMB_LEG_L] ? "on the ground" : "no ground under it",
                   r->report.heel_lifted[k - IK_LIMB_LEG_L] ? ", heel lifted" : "");
        printf("\n");
    }
    if (r->look_given)
        printf("%-20s %-9s (%7.3f, %7.3f, %7.3f) %-7s %8.2f deg %6d %10.1f\n",
               ik_skeleton_name(skeleton, r->humanoid.rig.map.joint[IK_ROLE_HEAD]), "look-at", (double)r->look_ms.x,
               (double)r->look_ms.y, (double)r->look_ms.z, r->report.look_reached ? "yes" : "no",
               (double)ik_deg(r->report.look_error), 1, r->microseconds);
    if (r->ground_kind != IKC_GROUND_NONE) printf("pelvis moved %.4g along up\n", (double)r->report.pelvis_offset);
}

int ikc_roles_marks(const ikc_roles *r, ik_vec3 *points, int *reached) {
    int k, n = 0;
    if (ikc_roles_full_body(r)) {
        for (k = 0; k < IK_FB_EFFECTOR_COUNT && n < IK_LIMB_COUNT + 1; ++k)
            if (r->reach_given[k]) {
                points[n] = r->reach_ms[k];
                reached[n++] = r->body_report.reached[k];
            }
        return n;
    }
    for (k = 0; k < IK_LIMB_COUNT; ++k)
        if (r->goal_given[k]) {
            points[n] = r->goal_ms[k];
            reached[n++] = r->report.reached[k];
        }
    if (r->look_given) {
        points[n] = r->look_ms;
        reached[n++] = r->report.look_reached;
    }
    return n;
}

void ikc_roles_free(ikc_roles *r) {
    ikc_humanoid_free(&r->humanoid);
    ik_height_field_file_free(&r->field);
}

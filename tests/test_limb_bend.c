/* Limbs' natural bend from the joint names: on the built humanoid and every
 * real rig, under its own root and a mirrored one, the figure's up points
 * from the feet to the hips, each hinge is square to its limb's upper bone,
 * and bending a straight leg's middle joint about its hinge brings the
 * knee forward of the hip-to-ankle line, a straight arm's the elbow behind
 * its line (a limb bent at rest bends on in its rest plane), by forward
 * kinematics; two-bone with the natural bend reaches targets with the knee
 * ahead. Bad input gets a clear error. */
#include <ikit/limb_bend.h>
#include <ikit/two_bone.h>
#include <math.h>

#include "test_humanoid_fixture.h"

#define BEND ((ik_real)0.6) /* radians the test bends each limb */

/* Where the middle joint sits off the line from the limb's start to its
 * end after turning it by `angle` about hinge_ls from rest (rotation_ls =
 * rest * exp(hinge angle), the turn two-bone measures): k = reject(b - a,
 * c - a), a knee's ahead of the line and an elbow's behind it. */
static ik_vec3 bend_offset(fixture *f, const ik_mat4 *root, const ik_named_chain *limb, ik_vec3 hinge_ls,
                           ik_real angle) {
    ik_vec3 a, b, c;
    int mid = limb->joints[1];
    ik_skeleton_rest_pose(f->skeleton, f->pose);
    f->pose[mid].rotation = ik_quat_mul(f->pose[mid].rotation, ik_quat_from_axis_angle(hinge_ls, angle));
    ik_skeleton_fk(f->skeleton, f->pose, root, f->model);
    a = ik_mat4_translation(&f->model[limb->joints[0]]);
    b = ik_mat4_translation(&f->model[limb->joints[1]]);
    c = ik_mat4_translation(&f->model[limb->joints[2]]);
    return ik_vec3_reject(ik_vec3_sub(b, a), ik_vec3_normalize(ik_vec3_sub(c, a)));
}

static void check_limbs(fixture *f, const ik_mat4 *root, const char *how) {
    ik_named_chain chains[16];
    ik_figure_axes axes;
    ik_error error;
    ik_mat4 *rest = (ik_mat4 *)malloc(sizeof(ik_mat4) * (size_t)f->skeleton->joint_count);
    int n = ik_named_chains_find(f->skeleton, chains, 16), c, legs = 0, arms = 0;
    CHECK(ik_limb_bend_axes(f->skeleton, root, chains, n, &axes, &error) == IK_OK && axes.known, "%s %s: axes: %s",
          f->label, how, error.message);
    ik_skeleton_rest_pose(f->skeleton, f->pose);
    ik_skeleton_fk(f->skeleton, f->pose, root, rest);
    for (c = 0; c < n; ++c) {
        int knee = strcmp(chains[c].kind, "leg") == 0;
        ik_vec3 hinge_ls, hinge_ms, start, end, upper, off, rest_off;
        ik_result r;
        if (chains[c].count != 3 || !(knee || strcmp(chains[c].kind, "arm") == 0)) continue;
        r = ik_limb_bend_hinge(f->skeleton, rest, &axes, &chains[c], &hinge_ls, &error);
        CHECK(r == IK_OK, "%s %s: %s '%s': %s", f->label, how, chains[c].kind,
              ik_skeleton_name(f->skeleton, chains[c].joints[2]), error.message);
        if (r != IK_OK) continue;
        start = ik_mat4_translation(&rest[chains[c].joints[0]]);
        end = ik_mat4_translation(&rest[chains[c].joints[2]]);
        upper = ik_vec3_sub(ik_mat4_translation(&rest[chains[c].joints[1]]), start);
        hinge_ms = ik_vec3_normalize(ik_mat4_transform_turn_axis(&rest[chains[c].joints[1]], hinge_ls));
        rest_off = bend_offset(f, root, &chains[c], hinge_ls, 0);
        off = bend_offset(f, root, &chains[c], hinge_ls, BEND);
        CHECK(IK_FABS(ik_vec3_length(hinge_ls) - 1) < 1e-4, "%s: unit hinge", f->label);
        CHECK(IK_FABS(ik_vec3_dot(hinge_ms, ik_vec3_normalize(upper))) < 1e-3, "%s %s: '%s' hinge square to the bone",
              f->label, how, ik_skeleton_name(f->skeleton, chains[c].joints[1]));
        /* Straight at rest (under 2 degrees): bent about its hinge, a knee
         * comes forward of the hip-to-ankle line, an elbow goes behind its
         * line. Bent at rest the way it bends, the hinge is square to the
         * rest plane and the bend goes on in it. */
        if (ik_vec3_length(rest_off) < (ik_real)0.035 * ik_vec3_length(upper))
            CHECK((knee ? 1 : -1) * ik_vec3_dot(off, axes.forward_ms) > (ik_real)0.3 * ik_vec3_length(off),
                  "%s %s: '%s' bent about its hinge sits %g along forward off its limb's line", f->label, how,
                  ik_skeleton_name(f->skeleton, chains[c].joints[1]), (double)ik_vec3_dot(off, axes.forward_ms));
        else if (IK_FABS(ik_vec3_dot(hinge_ms, ik_vec3_normalize(ik_vec3_sub(end, start)))) < 1e-3)
            CHECK(ik_vec3_dot(off, rest_off) > 0 && ik_vec3_length(off) > ik_vec3_length(rest_off),
                  "%s %s: '%s' bent further about its hinge leaves its rest plane", f->label, how,
                  ik_skeleton_name(f->skeleton, chains[c].joints[1]));
        if (knee) {
            ik_vec3 hip_to_ankle = ik_vec3_sub(end, start);
            ++legs;
            CHECK(ik_vec3_dot(hip_to_ankle, axes.up_ms) < -(ik_real)0.7 * ik_vec3_length(hip_to_ankle),
                  "%s %s: up points from the ankle to the hip", f->label, how);
        } else {
            ++arms;
        }
    }
    CHECK(legs + arms >= 2 && legs <= 2 && arms <= 2, "%s %s: %d legs, %d arms found by name", f->label, how, legs,
          arms);
    free(rest);
}

static void check_rig(fixture *f) {
    ik_mat4 mirror = ik_mat4_from_trs(ik_vec3_zero(), ik_quat_identity(), ik_v3(-1, 1, 1));
    ik_mat4 mirrored = ik_mat4_mul(&mirror, &f->root_ms);
    check_limbs(f, &f->root_ms, "own root");
    check_limbs(f, &mirrored, "mirrored root");
}

/* check_rig on the built humanoid, then on each shared rig that sets up
 * (fixture_each_rig); `built` counts the built humanoid's runs. */
static void each_rig(fixture *f, int built, void *built_runs) {
    *(int *)built_runs += built;
    check_rig(f);
}

static void test_rigs(void) {
    int built_runs = 0;
    fixture_each_rig(each_rig, &built_runs);
    CHECK(built_runs == 1, "built humanoid");
}

/* A three-joint chain named for nothing: no figure axes known, and a
 * straight limb then has no natural bend; bent at rest, its bend stands. */
static void test_unnamed(void) {
    static const char *names[] = {"a", "b", "c"};
    int parents[3] = {-1, 0, 1};
    ik_transform rest_ls[3];
    ik_transform pose[3];
    ik_mat4 model[3];
    ik_skeleton s;
    ik_named_chain leg;
    ik_figure_axes axes;
    ik_vec3 hinge;
    ik_error error;
    int k;
    for (k = 0; k < 3; ++k) rest_ls[k] = ik_transform_make(ik_v3(0, k ? -1 : 0, 0), ik_quat_identity(), ik_v3(1, 1, 1));
    CHECK(ik_skeleton_init(&s, 3, parents, names, rest_ls, NULL) == IK_OK, "skeleton");
    CHECK(ik_named_chains_find(&s, &leg, 1) == 0, "no limb named");
    CHECK(ik_limb_bend_axes(&s, NULL, NULL, 0, &axes, &error) == IK_OK && !axes.known, "nothing tells the axes");
    leg.kind = "leg";
    leg.count = 3;
    for (k = 0; k < 3; ++k) leg.joints[k] = k;
    ik_skeleton_rest_pose(&s, pose);
    ik_skeleton_fk(&s, pose, NULL, model);
    CHECK(ik_limb_bend_hinge(&s, model, &axes, &leg, &hinge, &error) == IK_ERR_NOT_FOUND && error.message[0],
          "a straight limb facing nowhere: %s", error.message);
    /* the knee 0.2 ahead (+z) of the hip-ankle line: the rest bend tells */
    rest_ls[1].translation = ik_v3(0, -1, (ik_real)0.2);
    rest_ls[2].translation = ik_v3(0, -1, (ik_real)-0.2);
    ik_skeleton_rest_pose(&s, pose);
    ik_skeleton_fk(&s, pose, NULL, model);
    CHECK(ik_limb_bend_hinge(&s, model, &axes, &leg, &hinge, &error) == IK_OK, "a bent limb: %s", error.message);
    CHECK(IK_FABS(IK_FABS(hinge.x) - 1) < 1e-4, "the hinge square to the limb's plane (%g %g %g)", (double)hinge.x,
          (double)hinge.y, (double)hinge.z);
}

static void test_bad_input(void) {
    fixture f;
    ik_named_chain chains[16], bad;
    ik_figure_axes axes;
    ik_vec3 hinge;
    ik_error error;
    ik_mat4 root = ik_mat4_identity();
    int n, leg = 0;
    CHECK(fixture_built(&f), "built humanoid");
    n = ik_named_chains_find(f.skeleton, chains, 16);
    while (leg < n - 1 && strcmp(chains[leg].kind, "leg") != 0) ++leg;
    root.m[0] = (ik_real)NAN;
    CHECK(ik_limb_bend_axes(f.skeleton, &root, chains, n, &axes, &error) == IK_ERR_NONFINITE &&
              strstr(error.message, "NaN"),
          "NaN root: %s", error.message);
    bad = chains[leg];
    bad.joints[1] = f.skeleton->joint_count + 5;
    CHECK(ik_limb_bend_axes(f.skeleton, NULL, &bad, 1, &axes, &error) == IK_ERR_RANGE &&
              strstr(error.message, "not a joint"),
          "a chain joint outside the skeleton: %s", error.message);
    CHECK(ik_limb_bend_axes(NULL, NULL, chains, n, &axes, &error) == IK_ERR_NULL, "NULL skeleton");
    CHECK(ik_limb_bend_axes(f.skeleton, NULL, chains, n, &axes, &error) == IK_OK, "axes");
    ik_skeleton_rest_pose(f.skeleton, f.pose);
    ik_skeleton_fk(f.skeleton, f.pose, NULL, f.model);
    CHECK(ik_limb_bend_hinge(f.skeleton, f.model, &axes, &bad, &hinge, &error) == IK_ERR_RANGE &&
              strstr(error.message, "not a joint"),
          "hinge of a chain outside the skeleton: %s", error.message);
    bad = chains[leg];
    bad.kind = "spine";
    CHECK(ik_limb_bend_hinge(f.skeleton, f.model, &axes, &bad, &hinge, &error) == IK_ERR_NOT_FOUND &&
              strstr(error.message, "spine"),
          "a spine has no natural bend: %s", error.message);
    bad.kind = "leg";
    f.model[bad.joints[1]].m[12] = (ik_real)NAN;
    CHECK(ik_limb_bend_hinge(f.skeleton, f.model, &axes, &bad, &hinge, &error) == IK_ERR_NONFINITE, "NaN rest pose: %s",
          error.message);
    fixture_free(&f);
}

/* The built humanoid's legs solved by two-bone with their natural bend
 * toward targets around the rest ankle: the ankle reaches each target, the
 * knee stays ahead of the hip-to-ankle line, the bend stays in [0, 150]
 * degrees; bad input leaves the job as it was. */
static void test_two_bone(void) {
    fixture f;
    ik_named_chain chains[16];
    ik_figure_axes axes;
    ik_mat4 *rest;
    int n, c, k, solved = 0;
    CHECK(fixture_built(&f), "built humanoid");
    rest = (ik_mat4 *)malloc(sizeof(ik_mat4) * (size_t)f.skeleton->joint_count);
    n = ik_named_chains_find(f.skeleton, chains, 16);
    ik_limb_bend_axes(f.skeleton, NULL, chains, n, &axes, NULL);
    ik_skeleton_rest_pose(f.skeleton, f.pose);
    ik_skeleton_fk(f.skeleton, f.pose, NULL, rest);
    for (c = 0; c < n; ++c) {
        ik_vec3 hinge_ls, hip, ankle;
        if (chains[c].count != 3 || strcmp(chains[c].kind, "leg") != 0) continue;
        CHECK(ik_limb_bend_hinge(f.skeleton, rest, &axes, &chains[c], &hinge_ls, NULL) == IK_OK, "hinge");
        hip = ik_mat4_translation(&rest[chains[c].joints[0]]);
        ankle = ik_mat4_translation(&rest[chains[c].joints[2]]);
        for (k = 0; k < 8; ++k) {
            /* up to 40 % of the leg nearer the hip, and to the sides, ahead and behind */
            ik_real turn = (ik_real)k * IK_PI / 4, leg = ik_vec3_distance(hip, ankle);
            ik_vec3 target = ik_vec3_add(ankle, ik_v3((ik_real)0.15 * leg * IK_COS(turn), (ik_real)0.4 * leg,
                                                      (ik_real)0.15 * leg * IK_SIN(turn)));
            ik_two_bone job = ik_two_bone_def();
            ik_vec3 a, b, e, off;
            ik_real bend;
            ik_skeleton_rest_pose(f.skeleton, f.pose);
            ik_skeleton_fk(f.skeleton, f.pose, NULL, f.model);
            ik_two_bone_bind(&job, f.model, f.pose, chains[c].joints[0], chains[c].joints[1], chains[c].joints[2]);
            job.target_ms = target;
            CHECK(ik_limb_bend_two_bone(&job, f.model, chains[c].joints, hinge_ls, NULL) == IK_OK, "natural bend");
            CHECK(ik_two_bone_run(&job) == IK_OK, "solve");
            ik_skeleton_fk(f.skeleton, f.pose, NULL, f.model);
            a = fixture_pos(&f, chains[c].joints[0]);
            b = fixture_pos(&f, chains[c].joints[1]);
            e = fixture_pos(&f, chains[c].joints[2]);
            off = ik_vec3_reject(ik_vec3_sub(b, a), ik_vec3_normalize(ik_vec3_sub(e, a)));
            bend =
                ik_acos_safe(ik_vec3_dot(ik_vec3_normalize(ik_vec3_sub(b, a)), ik_vec3_normalize(ik_vec3_sub(e, b))));
            CHECK(ik_vec3_distance(e, target) < 1e-4 * leg, "target %d reached (%g off)", k,
                  (double)ik_vec3_distance(e, target));
            CHECK(ik_vec3_dot(off, axes.forward_ms) > (ik_real)0.5 * ik_vec3_length(off), "target %d: knee ahead", k);
            CHECK(bend >= 0 && bend <= ik_rad(IK_LIMB_BEND_MAX_DEG) + (ik_real)1e-4, "target %d: bend %g deg", k,
                  (double)ik_deg(bend));
            ++solved;
        }
        {
            ik_two_bone job = ik_two_bone_def(), before;
            ik_error error;
            ik_two_bone_bind(&job, f.model, f.pose, chains[c].joints[0], chains[c].joints[1], chains[c].joints[2]);
            job.target_ms = ik_v3((ik_real)NAN, 0, 0);
            before = job;
            CHECK(ik_limb_bend_two_bone(&job, f.model, chains[c].joints, hinge_ls, &error) == IK_ERR_NONFINITE &&
                      memcmp(&job, &before, sizeof job) == 0 && strstr(error.message, "NaN"),
                  "NaN target: %s", error.message);
            job.target_ms = ankle;
            CHECK(ik_limb_bend_two_bone(&job, f.model, chains[c].joints, ik_vec3_zero(), &error) == IK_ERR_DEGENERATE,
                  "zero hinge: %s", error.message);
            CHECK(ik_limb_bend_two_bone(NULL, f.model, chains[c].joints, hinge_ls, &error) == IK_ERR_NULL, "no job");
        }
    }
    CHECK(solved == 16, "both legs solved toward every target (%d)", solved);
    free(rest);
    fixture_free(&f);
}

int main(void) {
    test_rigs();
    test_two_bone();
    test_unnamed();
    test_bad_input();
    return check_summary("limb_bend");
}

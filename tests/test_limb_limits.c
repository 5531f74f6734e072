/* A rig's limb limits as constraints (limb_limits.h), on the built humanoid
 * and every real rig: the rest rotation is inside the cone; the elbow or knee
 * turned about its hinge is inside exactly while the bend measured by
 * forward kinematics (the angle between the bones, signed by the hinge) is
 * within the rig's range; the upper bone swung within the cone is inside,
 * beyond it outside; bad input gets a clear error. */
#include <ikit/limb_limits.h>
#include <math.h>

#include "test_humanoid_fixture.h"

#define TOL ((ik_real)1e-4)

/* The bend of the limb in f->model: the signed angle about the hinge in
 * model space (sgn(det M) M h) from the upper bone to the lower. */
static ik_real bend_in_model(const fixture *f, const ik_humanoid_limb *l) {
    ik_vec3 a = fixture_pos(f, l->start), b = fixture_pos(f, l->mid), c = fixture_pos(f, l->end);
    ik_vec3 h = ik_vec3_normalize(ik_mat4_transform_turn_axis(&f->model[l->mid], l->hinge_axis_ls));
    ik_vec3 u = ik_vec3_sub(b, a), v = ik_vec3_sub(c, b);
    return IK_ATAN2(ik_vec3_dot(ik_vec3_cross(u, v), h), ik_vec3_dot(u, v));
}

static void check_rig(fixture *f) {
    int limb;
    for (limb = 0; limb < IK_LIMB_COUNT; ++limb) {
        const ik_humanoid_limb *l = &f->rig.limb[limb];
        ik_bool arm = limb == IK_LIMB_ARM_L || limb == IK_LIMB_ARM_R;
        ik_real lo = arm ? f->rig.limits.elbow_min : f->rig.limits.knee_min;
        ik_real hi = arm ? f->rig.limits.elbow_max : f->rig.limits.knee_max;
        ik_constraint c[3];
        ik_error error;
        ik_real t;
        if (l->end < 0) {
            CHECK(
                ik_limb_limits_make(&f->rig, limb, IK_LIMB_LEG_CONE, IK_LIMB_TWIST, c, &error) == IK_ERR_UNSUPPORTED &&
                    strstr(error.message, "virtual"),
                "%s: a virtual end: %s", f->label, error.message);
            continue;
        }
        CHECK(ik_limb_limits_make(&f->rig, limb, arm ? IK_LIMB_ARM_CONE : IK_LIMB_LEG_CONE, IK_LIMB_TWIST, c, &error) ==
                  IK_OK,
              "%s limb %d: %s", f->label, limb, error.message);
        CHECK(c[2].type == IK_CONSTRAINT_NONE, "no limit at the end");
        CHECK(ik_constraint_check(&c[0], f->skeleton->rest_ls[l->start].rotation, TOL),
              "%s limb %d: the rest rotation inside the cone", f->label, limb);
        /* the middle joint turned about its hinge from rest: inside while the
         * bend by forward kinematics is in [lo, hi] */
        for (t = -IK_PI * (ik_real)0.95; t < IK_PI * (ik_real)0.95; t += (ik_real)0.05) {
            ik_real bend;
            ik_bool inside;
            ik_skeleton_rest_pose(f->skeleton, f->pose);
            f->pose[l->mid].rotation =
                ik_quat_mul(f->pose[l->mid].rotation, ik_quat_from_axis_angle(l->hinge_axis_ls, t));
            ik_skeleton_fk(f->skeleton, f->pose, &f->root_ms, f->model);
            bend = bend_in_model(f, l);
            inside = ik_constraint_check(&c[1], f->pose[l->mid].rotation, TOL);
            if (bend > lo + (ik_real)0.01 && bend < hi - (ik_real)0.01)
                CHECK(inside, "%s limb %d: bend %g deg refused", f->label, limb, (double)ik_deg(bend));
            else if (bend < lo - (ik_real)0.01 || bend > hi + (ik_real)0.01)
                CHECK(!inside, "%s limb %d: bend %g deg allowed", f->label, limb, (double)ik_deg(bend));
        }
        /* the upper bone swung away from its rest direction: inside the cone, then out */
        {
            ik_vec3 bone = ik_vec3_normalize(f->skeleton->rest_ls[l->mid].translation);
            ik_vec3 side = ik_vec3_normalize(
                ik_vec3_cross(bone, IK_FABS(bone.x) < (ik_real)0.9 ? ik_v3(1, 0, 0) : ik_v3(0, 1, 0)));
            ik_quat rest = f->skeleton->rest_ls[l->start].rotation;
            ik_real cone = arm ? IK_LIMB_ARM_CONE : IK_LIMB_LEG_CONE;
            CHECK(
                ik_constraint_check(&c[0], ik_quat_mul(rest, ik_quat_from_axis_angle(side, cone - (ik_real)0.05)), TOL),
                "%s limb %d: a swing inside the cone", f->label, limb);
            CHECK(!ik_constraint_check(&c[0], ik_quat_mul(rest, ik_quat_from_axis_angle(side, cone + (ik_real)0.05)),
                                       TOL),
                  "%s limb %d: a swing beyond the cone", f->label, limb);
        }
    }
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

static void test_bad_input(void) {
    fixture f;
    ik_constraint c[3];
    ik_error error;
    CHECK(fixture_built(&f), "built humanoid");
    CHECK(ik_limb_limits_make(&f.rig, IK_LIMB_COUNT, 1, 1, c, &error) == IK_ERR_RANGE && strstr(error.message, "limb"),
          "an unknown limb: %s", error.message);
    CHECK(ik_limb_limits_make(&f.rig, -1, 1, 1, c, &error) == IK_ERR_RANGE, "limb -1");
    CHECK(ik_limb_limits_make(&f.rig, 0, (ik_real)NAN, 1, c, &error) == IK_ERR_NONFINITE && error.message[0],
          "NaN cone: %s", error.message);
    CHECK(ik_limb_limits_make(&f.rig, 0, 1, (ik_real)INFINITY, c, &error) == IK_ERR_NONFINITE, "infinite twist");
    CHECK(ik_limb_limits_make(&f.rig, 0, 0, 1, c, &error) == IK_ERR_RANGE, "a zero cone");
    CHECK(ik_limb_limits_make(&f.rig, 0, 1, -1, c, &error) == IK_ERR_RANGE, "a negative twist");
    CHECK(ik_limb_limits_make(NULL, 0, 1, 1, c, &error) == IK_ERR_NULL && strstr(error.message, "rig"), "no rig");
    CHECK(ik_limb_limits_make(&f.rig, 0, 1, 1, NULL, &error) == IK_ERR_NULL, "no output");
    fixture_free(&f);
}

int main(void) {
    test_rigs();
    test_bad_input();
    return check_summary("limb_limits");
}

/* URDF reading (issue 12): the three real arms in $IKIT_DATA/urdf load with
 * the joints, types and limits of their files; forward kinematics of their
 * chains lands where hand-computed values from the files' origins say;
 * chains between any two links; malformed and hostile documents are refused
 * with the line and element named; unknown names get the closest ones. */
#define _POSIX_C_SOURCE 200809L
#include <ikit/robot.h>
#include <ikit/urdf.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/check.h"
#include "support/read_errors.h"
#include "support/rng.h"

#ifdef IKIT_DOUBLE
#define TOL 1e-9
#else
#define TOL 2e-5
#endif
#define HALF_PI 1.5707963267948966

static char data_dir[512];

static int have_data(void) {
    const char *dir = getenv("IKIT_DATA");
    if (!dir) return 0;
    snprintf(data_dir, sizeof data_dir, "%s/urdf", dir);
    return access(data_dir, R_OK) == 0;
}

static ik_urdf *load(const char *file) {
    char path[700];
    ik_urdf *u = NULL;
    ik_error err;
    ik_result r;
    snprintf(path, sizeof path, "%s/%s", data_dir, file);
    r = ik_urdf_read_file(path, &u, &err);
    CHECK(r == IK_OK && u != NULL, "%s: %s (%s)", path, ik_result_str(r), err.message);
    return u;
}

static int near3(ik_vec3 a, double x, double y, double z) {
    return fabs(a.x - x) < TOL && fabs(a.y - y) < TOL && fabs(a.z - z) < TOL;
}

/* The tip of base..tip at q, through ik_urdf_robot_chain and ik_robot_fk. */
static ik_transform tip_at(const ik_urdf *u, const char *base, const char *tip, const ik_real *q) {
    ik_robot_chain chain;
    ik_transform t = ik_transform_identity();
    ik_error err;
    ik_result r = ik_urdf_robot_chain(u, base, tip, &chain, NULL, &err);
    CHECK(r == IK_OK, "%s..%s: %s", base, tip, err.message);
    if (r == IK_OK) CHECK(ik_robot_fk(&chain, q, &t, NULL) == IK_OK, "fk %s..%s", base, tip);
    return t;
}

#define CHECK_AT(v, ex, ey, ez, what)                                                                          \
    CHECK(near3(v, ex, ey, ez), "%s: at (%.6f, %.6f, %.6f), expected (%.6f, %.6f, %.6f)", what, (double)(v).x, \
          (double)(v).y, (double)(v).z, (double)(ex), (double)(ey), (double)(ez))

/* ABB IRB 2400, base_link..tool0: joint origins (0,0,0), (0.1,0,0.615),
 * (0,0,0.705), (0.258,0,0.135), (0.497,0,0), (0.085,0,0), tool0 (0,0,0), all
 * rpy 0; axes z, y, y, x, y, x. */
static void test_abb(void) {
    ik_urdf *u = load("abb_irb2400.urdf");
    ik_real q[6] = {0, 0, 0, 0, 0, 0};
    ik_transform t;
    int j;
    if (!u) return;
    CHECK(u->link_count == 8 && u->joint_count == 7, "%d links, %d joints", u->link_count, u->joint_count);
    CHECK(strcmp(u->links[u->root_link].name, "base_link") == 0, "root %s", u->links[u->root_link].name);
    CHECK(ik_urdf_find_joint(u, "joint_2", &j, NULL) == IK_OK && u->joints[j].type == IK_ROBOT_REVOLUTE &&
              u->joints[j].lower == -1.7453 && u->joints[j].upper == 1.9199 && u->joints[j].velocity == 2.618,
          "joint_2 limits from the file");
    CHECK(ik_urdf_find_joint(u, "joint_6-tool0", &j, NULL) == IK_OK && u->joints[j].type == IK_ROBOT_FIXED,
          "joint_6-tool0 is fixed");
    /* Zero: the sum of the origins, (0.94, 0, 1.455) (the data README's figure). */
    t = tip_at(u, "base_link", "tool0", q);
    CHECK_AT(t.translation, 0.94, 0, 1.455, "ABB zero");
    /* q2 = 90 deg about y at (0.1, 0, 0.615): the tool's offset (0.84, 0, 0.84)
     * from there turns to (0.84, 0, -0.84) (Ry(90): x' = z, z' = -x). */
    q[1] = (ik_real)HALF_PI;
    t = tip_at(u, "base_link", "tool0", q);
    CHECK_AT(t.translation, 0.94, 0, -0.225, "ABB q2 = 90");
    /* and q1 = 90 deg about z: (x, y) -> (-y, x). */
    q[0] = (ik_real)HALF_PI;
    t = tip_at(u, "base_link", "tool0", q);
    CHECK_AT(t.translation, 0, 0.94, -0.225, "ABB q1 = q2 = 90");
    /* Spherical wrist: q4 and q6 turn about the x axis the tool lies on, so
     * the tool stays at (0.94, 0, 1.455); q5 = 90 deg about y at
     * (0.855, 0, 1.455) turns the 0.085 flange offset straight down. */
    q[0] = q[1] = 0;
    q[3] = (ik_real)0.7;
    q[5] = (ik_real)-1.1;
    t = tip_at(u, "base_link", "tool0", q);
    CHECK_AT(t.translation, 0.94, 0, 1.455, "ABB q4, q6 leave the wrist centre line");
    CHECK_AT(ik_quat_rotate(t.rotation, ik_v3(1, 0, 0)), 1, 0, 0, "ABB tool x stays on the x axis");
    CHECK_AT(ik_quat_rotate(t.rotation, ik_v3(0, 1, 0)), 0, cos(-0.4), sin(-0.4), "ABB tool y turned by q4 + q6");
    q[3] = q[5] = 0;
    q[4] = (ik_real)HALF_PI;
    t = tip_at(u, "base_link", "tool0", q);
    CHECK_AT(t.translation, 0.855, 0, 1.37, "ABB q5 = 90");
    ik_urdf_free(u);
}

/* UR5, base_link..tool0: shoulder_pan (0,0,0.089159); shoulder_lift
 * (0,0.13585,0) rpy (0,90,0); elbow (0,-0.1197,0.425); wrist_1 (0,0,0.39225)
 * rpy (0,90,0); wrist_2 (0,0.093,0); wrist_3 (0,0,0.09465); tool0 fixed
 * (0,0.0823,0) rpy (-90,0,0). Ry(90) sends local z to world +x, so at zero
 * the upper arm and forearm lie along +x: x = 0.425 + 0.39225 = 0.81725,
 * y = 0.13585 - 0.1197 + 0.093 + 0.0823 = 0.19145, and after two Ry(90)
 * local z is world -z: z = 0.089159 - 0.09465 = -0.005491. */
static void test_ur5(void) {
    ik_urdf *u = load("ur5_joint_limited_robot.urdf");
    ik_real q[6] = {0, 0, 0, 0, 0, 0};
    ik_transform t;
    int j, count, chain[16];
    if (!u) return;
    CHECK(u->joint_count == 10, "%d joints (6 revolute, 4 fixed; transmission joints ignored)", u->joint_count);
    CHECK(strcmp(u->links[u->root_link].name, "world") == 0, "root %s", u->links[u->root_link].name);
    CHECK(ik_urdf_find_joint(u, "wrist_1_joint", &j, NULL) == IK_OK && u->joints[j].effort == 28.0 &&
              u->joints[j].velocity == 3.2 && u->joints[j].lower == -3.14159265359,
          "wrist_1 limits from the file");
    CHECK(ik_urdf_chain(u, "base_link", "tool0", chain, 16, &count, NULL) == IK_OK && count == 7,
          "base_link..tool0: 6 revolute + the fixed tool0 joint, got %d", count);
    t = tip_at(u, "base_link", "tool0", q);
    CHECK_AT(t.translation, 0.81725, 0.19145, -0.005491, "UR5 zero");
    /* Tool orientation Ry(180) Rx(-90): tool z = world +y, tool x = world -x. */
    CHECK_AT(ik_quat_rotate(t.rotation, ik_v3(0, 0, 1)), 0, 1, 0, "UR5 zero tool z");
    CHECK_AT(ik_quat_rotate(t.rotation, ik_v3(1, 0, 0)), -1, 0, 0, "UR5 zero tool x");
    /* shoulder_pan = 90 deg about z: (x, y) -> (-y, x). */
    q[0] = (ik_real)HALF_PI;
    t = tip_at(u, "base_link", "tool0", q);
    CHECK_AT(t.translation, -0.19145, 0.81725, -0.005491, "UR5 pan 90");
    /* shoulder_lift = -90 deg cancels its Ry(90): the arm points up; z =
     * 0.089159 + 0.425 + 0.39225, and wrist_1's Ry(90) sends the 0.09465
     * wrist_3 offset along +x. */
    q[0] = 0;
    q[1] = (ik_real)-HALF_PI;
    t = tip_at(u, "base_link", "tool0", q);
    CHECK_AT(t.translation, 0.09465, 0.19145, 0.906409, "UR5 arm up");
    /* world..tool0 adds the fixed world_joint (zero origin): same tip. */
    t = tip_at(u, "world", "tool0", q);
    CHECK_AT(t.translation, 0.09465, 0.19145, 0.906409, "UR5 from world");
    ik_urdf_free(u);
}

/* Panda, panda_link0..panda_link8: joint1 (0,0,0.333); joint2 rpy (-90,0,0);
 * joint3 (0,-0.316,0) rpy (90,0,0); joint4 (0.0825,0,0) rpy (90,0,0); joint5
 * (-0.0825,0.384,0) rpy (-90,0,0); joint6 rpy (90,0,0); joint7 (0.088,0,0)
 * rpy (90,0,0); joint8 fixed (0,0,0.107). At zero: z = 0.333 + 0.316 +
 * 0.384 = 1.033 at joint5, x = 0.088 at joint7, whose frame is Rx(180), so
 * the flange is 0.107 below: (0.088, 0, 0.926). */
static void test_panda(void) {
    ik_urdf *u = load("panda.urdf");
    ik_real q[7] = {0, 0, 0, 0, 0, 0, 0}, finger;
    ik_transform t;
    ik_robot_chain chain;
    int j, variable_joints[IK_ROBOT_MAX_JOINTS];
    if (!u) return;
    CHECK(u->joint_count == 12, "%d joints", u->joint_count);
    CHECK(ik_urdf_find_joint(u, "panda_joint4", &j, NULL) == IK_OK && u->joints[j].lower == -3.0718 &&
              u->joints[j].upper == -0.0698,
          "joint4 limits from the file");
    CHECK(ik_urdf_find_joint(u, "panda_finger_joint2", &j, NULL) == IK_OK && u->joints[j].type == IK_ROBOT_PRISMATIC &&
              u->joints[j].mimic_joint >= 0 &&
              strcmp(u->joints[u->joints[j].mimic_joint].name, "panda_finger_joint1") == 0 &&
              u->joints[j].mimic_multiplier == 1.0,
          "finger 2 mimics finger 1");
    t = tip_at(u, "panda_link0", "panda_link8", q);
    CHECK_AT(t.translation, 0.088, 0, 0.926, "Panda zero");
    /* joint4 = -90 deg: its axis is world -y at (0.0825, 0, 0.649), so the
     * flange's offset (0.0055, 0, 0.277) turns by Ry(90) to (0.277, 0, -0.0055). */
    q[3] = (ik_real)-HALF_PI;
    t = tip_at(u, "panda_link0", "panda_link8", q);
    CHECK_AT(t.translation, 0.3595, 0, 0.6435, "Panda joint4 = -90");
    /* The right finger follows finger 1, which is outside its chain: one
     * variable standing for finger 1's value. In the hand's frame the finger
     * joint sits at (0, 0, 0.0584) and slides along (0, -1, 0), so finger 1
     * at 0.03 puts the right finger at (0, -0.03, 0.0584). */
    CHECK(ik_urdf_robot_chain(u, "panda_hand", "panda_rightfinger", &chain, variable_joints, NULL) == IK_OK &&
              chain.variable_count == 1 && strcmp(u->joints[variable_joints[0]].name, "panda_finger_joint1") == 0,
          "right finger's variable is finger 1's value");
    finger = (ik_real)0.03;
    CHECK(ik_robot_fk(&chain, &finger, &t, NULL) == IK_OK, "finger fk");
    CHECK_AT(t.translation, 0, -0.03, 0.0584, "right finger opened by 0.03 along -y");
    ik_urdf_free(u);
}

/* Every pair of links: a chain exists exactly when the first is an
 * ancestor of the second, with depth(tip) - depth(base) joints; the chain's
 * joints link up parent to child. */
static void test_chains_between_links(const char *file) {
    ik_urdf *u = load(file);
    check_property prop = {"chains between every two links", 0, 0};
    int a, b, chain[64], count, k, link, depth_a, depth_b;
    if (!u) return;
    for (a = 0; a < u->link_count; ++a) {
        for (b = 0; b < u->link_count; ++b) {
            int ancestor = 0;
            ik_error err;
            ik_result r = ik_urdf_chain(u, u->links[a].name, u->links[b].name, chain, 64, &count, &err);
            for (depth_b = 0, link = b;; link = u->joints[u->links[link].parent_joint].parent_link, ++depth_b) {
                if (link == a) ancestor = 1;
                if (u->links[link].parent_joint < 0) break;
            }
            for (depth_a = 0, link = a; u->links[link].parent_joint >= 0; ++depth_a)
                link = u->joints[u->links[link].parent_joint].parent_link;
            PROPERTY_CASE(prop, (r == IK_OK) == ancestor, "%s..%s: %s", u->links[a].name, u->links[b].name,
                          err.message);
            if (r != IK_OK) {
                PROPERTY_CASE(prop, r == IK_ERR_HIERARCHY && strstr(err.message, "is not above"), "%s", err.message);
                continue;
            }
            PROPERTY_CASE(prop, count == depth_b - depth_a, "%d joints, depths %d %d", count, depth_b, depth_a);
            for (k = 0; k < count; ++k)
                PROPERTY_CASE(prop,
                              u->joints[chain[k]].parent_link == (k ? u->joints[chain[k - 1]].child_link : a) &&
                                  (k < count - 1 || u->joints[chain[k]].child_link == b),
                              "joint %d", k);
        }
    }
    property_end(&prop);
    ik_urdf_free(u);
}

/* The geometric Jacobian against central differences of the forward
 * kinematics at random configurations of each arm (and of the mimic arm in
 * test_mimic): linear columns d p_tip / d q_v, angular columns the rotation
 * vector of R(q + h) R(q - h)^-1 over 2h. */
static void check_jacobian(const ik_robot_chain *chain, const ik_real *q0, check_property *prop, const char *what) {
#ifdef IKIT_DOUBLE
    const double h = 1e-6, tol = 1e-6;
#else
    const double h = 1e-2, tol = 2e-3;
#endif
    ik_real jac[6 * IK_ROBOT_MAX_JOINTS], q[IK_ROBOT_MAX_JOINTS];
    int v, r;
    PROPERTY_CASE(*prop, ik_robot_jacobian(chain, q0, jac) == IK_OK, "%s", what);
    for (v = 0; v < chain->variable_count; ++v) {
        ik_transform plus, minus;
        ik_quat turn;
        ik_real fd[6], angle;
        memcpy(q, q0, (size_t)chain->variable_count * sizeof *q);
        q[v] = q0[v] + (ik_real)h;
        ik_robot_fk(chain, q, &plus, NULL);
        q[v] = q0[v] - (ik_real)h;
        ik_robot_fk(chain, q, &minus, NULL);
        turn = ik_quat_positive_w(ik_quat_mul(plus.rotation, ik_quat_conjugate(minus.rotation)));
        angle = ik_quat_angle(turn);
        fd[0] = (plus.translation.x - minus.translation.x) / (ik_real)(2 * h);
        fd[1] = (plus.translation.y - minus.translation.y) / (ik_real)(2 * h);
        fd[2] = (plus.translation.z - minus.translation.z) / (ik_real)(2 * h);
        {
            ik_vec3 axis = ik_vec3_normalize_or(ik_v3(turn.x, turn.y, turn.z), ik_vec3_zero());
            fd[3] = axis.x * angle / (ik_real)(2 * h);
            fd[4] = axis.y * angle / (ik_real)(2 * h);
            fd[5] = axis.z * angle / (ik_real)(2 * h);
        }
        for (r = 0; r < 6; ++r)
            PROPERTY_CASE(*prop, fabs(jac[v * 6 + r] - fd[r]) < tol, "%s: variable %d row %d: %g vs %g", what, v, r,
                          (double)jac[v * 6 + r], (double)fd[r]);
    }
}

/* Random configurations within limits: the chain skeleton's rest pose is the
 * zero configuration (ik_skeleton_fk agrees with ik_robot_fk at zero), and
 * revolute joints keep every link's distance to its joint's parent frame. */
static void test_fk_properties(void) {
    static const char *const arms[3][3] = {{"ur5_joint_limited_robot.urdf", "base_link", "tool0"},
                                           {"panda.urdf", "panda_link0", "panda_link8"},
                                           {"abb_irb2400.urdf", "base_link", "tool0"}};
    check_property lengths = {"link lengths kept at random configurations", 0, 0};
    check_property rest = {"skeleton rest pose = zero configuration", 0, 0};
    check_property jacobian = {"Jacobian vs central differences of FK", 0, 0};
    rng r = rng_seeded(12);
    int a, trial, k;
    for (a = 0; a < 3; ++a) {
        ik_urdf *u = load(arms[a][0]);
        ik_urdf_skeleton *s = NULL;
        ik_robot_chain chain;
        ik_transform links_bs[IK_ROBOT_MAX_JOINTS], tip, zero_links[IK_ROBOT_MAX_JOINTS];
        ik_mat4 model[IK_ROBOT_MAX_JOINTS + 1];
        ik_real q[IK_ROBOT_MAX_JOINTS] = {0};
        if (!u) continue;
        CHECK(ik_urdf_robot_chain(u, arms[a][1], arms[a][2], &chain, NULL, NULL) == IK_OK, "%s chain", arms[a][0]);
        CHECK(ik_urdf_chain_skeleton(u, arms[a][1], arms[a][2], &s, NULL) == IK_OK && s &&
                  s->skeleton.joint_count == chain.joint_count + 1,
              "%s skeleton", arms[a][0]);
        if (s) {
            ik_skeleton_fk(&s->skeleton, s->rest_ls, NULL, model);
            ik_robot_fk(&chain, q, &tip, zero_links);
            for (k = 0; k < chain.joint_count; ++k) {
                ik_vec3 p = ik_mat4_translation(&model[k + 1]);
                PROPERTY_CASE(rest, ik_vec3_distance(p, zero_links[k].translation) < TOL, "%s link %d", arms[a][0], k);
            }
            ik_urdf_skeleton_free(s);
        }
        for (trial = 0; trial < 200; ++trial) {
            for (k = 0; k < chain.joint_count; ++k) {
                const ik_robot_joint *j = &chain.joints[k];
                if (j->variable >= 0) q[j->variable] = j->lower + (j->upper - j->lower) * (ik_real)rng_unit(&r);
            }
            CHECK(ik_robot_fk(&chain, q, &tip, links_bs) == IK_OK, "fk");
            for (k = 1; k < chain.joint_count; ++k) {
                /* Joint k turns about its own origin, so |p_k - p_{k-1}| = |origin_k.translation|. */
                double d = ik_vec3_distance(links_bs[k].translation, links_bs[k - 1].translation);
                PROPERTY_CASE(lengths, fabs(d - ik_vec3_length(chain.joints[k].origin.translation)) < TOL,
                              "%s joint %d: %g", arms[a][0], k, d);
            }
            PROPERTY_CASE(lengths, fabs(ik_quat_length(tip.rotation) - 1) < TOL, "unit rotation");
            if (trial < 20) check_jacobian(&chain, q, &jacobian, arms[a][0]);
        }
        ik_urdf_free(u);
    }
    property_end(&lengths);
    property_end(&rest);
    property_end(&jacobian);
}

/* A chain with a mimic joint: j2 follows j1 with multiplier 2 and offset
 * 0.1; one variable; two unit links along x, both joints about z. At
 * q1 = 0.3: j1 at 0.3, j2 at 0.7 (summed 1.0): tip = (cos 0.3 + cos 1.0,
 * sin 0.3 + sin 1.0, 0). */
static void test_mimic(void) {
    static const char doc[] =
        "<robot name=\"m\"><link name=\"a\"/><link name=\"b\"/><link name=\"c\"/><link name=\"d\"/>\n"
        "<joint name=\"j1\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/><axis xyz=\"0 0 2\"/></joint>\n"
        "<joint name=\"j2\" type=\"revolute\"><parent link=\"b\"/><child link=\"c\"/><origin xyz=\"1 0 0\"/>"
        "<axis xyz=\"0 0 1\"/><limit lower=\"-3\" upper=\"3\"/><mimic joint=\"j1\" multiplier=\"2\" "
        "offset=\"0.1\"/></joint>\n"
        "<joint name=\"tip\" type=\"fixed\"><parent link=\"c\"/><child link=\"d\"/><origin xyz=\"1 0 0\"/></joint>\n"
        "</robot>";
    ik_urdf *u = NULL;
    ik_robot_chain chain;
    ik_transform t;
    ik_real q = (ik_real)0.3;
    ik_error err;
    CHECK(ik_urdf_read_memory(doc, sizeof doc - 1, &u, &err) == IK_OK, "%s", err.message);
    if (!u) return;
    CHECK(ik_urdf_robot_chain(u, "a", "d", &chain, NULL, &err) == IK_OK && chain.variable_count == 1 &&
              chain.joints[1].variable == 0,
          "j2 shares j1's variable");
    CHECK(ik_robot_fk(&chain, &q, &t, NULL) == IK_OK, "fk");
    CHECK_AT(t.translation, cos(0.3) + cos(1.0), sin(0.3) + sin(1.0), 0, "mimic tip");
    {
        /* tip = (cos q + cos(3q + 0.1), sin q + sin(3q + 0.1)): d tip / dq =
         * (-(sin 0.3 + 3 sin 1.0), cos 0.3 + 3 cos 1.0); angular 1 + 2 = 3 about z. */
        ik_real jac[6];
        check_property prop = {"mimic Jacobian vs central differences", 0, 0};
        CHECK(ik_robot_jacobian(&chain, &q, jac) == IK_OK && fabs(jac[0] + sin(0.3) + 3 * sin(1.0)) < TOL &&
                  fabs(jac[1] - cos(0.3) - 3 * cos(1.0)) < TOL && fabs(jac[5] - 3) < TOL,
              "mimic Jacobian (%g, %g, %g)", (double)jac[0], (double)jac[1], (double)jac[5]);
        check_jacobian(&chain, &q, &prop, "mimic");
        property_end(&prop);
    }
    ik_urdf_free(u);
}

/* Broken documents, each refused with its result on the line named. */
static void test_malformed(void) {
#define ROBOT "<robot name=\"r\">\n<link name=\"base\"/>\n<link name=\"arm\"/>\n"
#define JOINT(type, extra) \
    "<joint name=\"j\" type=\"" type "\">\n<parent link=\"base\"/>\n<child link=\"arm\"/>\n" extra "</joint>\n"
    static const read_case cases[] = {
        {ROBOT JOINT("revolute", "<limit lower=\"0\" upper=\"1\"/>\n") "</robot", IK_ERR_PARSE, 9, "truncated XML"},
        {"<robot>\n<link name=\"a\"/>\n<joint name=\"j\" type=\"fixed\">\n<parent link=\"nowhere\"/>\n<child "
         "link=\"a\"/>\n</joint>\n</robot>",
         IK_ERR_NOT_FOUND, 4, "missing parent link"},
        {ROBOT JOINT("floating", "") "</robot>", IK_ERR_UNSUPPORTED, 4, "floating joint"},
        {ROBOT JOINT("planar", "") "</robot>", IK_ERR_UNSUPPORTED, 4, "planar joint"},
        {ROBOT JOINT("hinge", "") "</robot>", IK_ERR_PARSE, 4, "unknown joint type"},
        {ROBOT JOINT("revolute", "") "</robot>", IK_ERR_PARSE, 4, "revolute without limit"},
        {ROBOT JOINT("fixed", "<origin xyz=\"1 2\"/>\n") "</robot>", IK_ERR_PARSE, 7, "two numbers for xyz"},
        {ROBOT JOINT("fixed", "<origin xyz=\"1 2 3 4\"/>\n") "</robot>", IK_ERR_PARSE, 7, "four numbers for xyz"},
        {ROBOT JOINT("fixed", "<origin xyz=\"1 x 3\"/>\n") "</robot>", IK_ERR_PARSE, 7, "a word for a number"},
        {ROBOT JOINT("fixed", "<origin rpy=\"0 nan 0\"/>\n") "</robot>", IK_ERR_NONFINITE, 7, "NaN angle"},
        {ROBOT JOINT("fixed", "<origin xyz=\"0x1p3 0 0\"/>\n") "</robot>", IK_ERR_PARSE, 7, "a hexadecimal number"},
        {ROBOT JOINT("fixed", "<origin xyz=\"1,5 0 0\"/>\n") "</robot>", IK_ERR_PARSE, 7, "a decimal comma"},
        {ROBOT JOINT("fixed", "<origin xyz=\"1e999 0 0\"/>\n") "</robot>", IK_ERR_NONFINITE, 7, "overflowing number"},
        {ROBOT JOINT("continuous", "<axis xyz=\"0 0 0\"/>\n") "</robot>", IK_ERR_DEGENERATE, 7, "zero axis"},
        {ROBOT JOINT("prismatic", "<limit lower=\"1\" upper=\"0\"/>\n") "</robot>", IK_ERR_RANGE, 7,
         "lower above upper"},
        {ROBOT "<link name=\"arm\"/>\n</robot>", IK_ERR_HIERARCHY, 4, "duplicate link"},
        {ROBOT JOINT("fixed", "") JOINT("fixed", "") "</robot>", IK_ERR_HIERARCHY, 8, "duplicate joint"},
        {ROBOT "<link name=\"hand\"/>\n" JOINT(
             "fixed",
             "") "<joint name=\"k\" type=\"fixed\"><parent link=\"hand\"/><child link=\"arm\"/></joint>\n</robot>",
         IK_ERR_HIERARCHY, 9, "a link with two parent joints"},
        {ROBOT JOINT(
             "fixed",
             "") "<joint name=\"k\" type=\"fixed\"><parent link=\"arm\"/><child link=\"base\"/></joint>\n</robot>",
         IK_ERR_HIERARCHY, 2, "cycle through the root"},
        {ROBOT "<link name=\"c\"/>\n" JOINT(
             "fixed",
             "") "<joint name=\"k\" type=\"fixed\"><parent link=\"arm\"/><child link=\"c\"/></joint>\n"
                 "<joint name=\"l\" type=\"fixed\"><parent link=\"c\"/><child link=\"arm\"/></joint>\n</robot>",
         IK_ERR_HIERARCHY, 10, "cycle below the root"},
        {ROBOT JOINT("fixed", "") "<link name=\"island\"/>\n</robot>", IK_ERR_HIERARCHY, 8, "two roots"},
        {ROBOT "<joint name=\"j\" type=\"fixed\">\n<parent link=\"base\"/>\n<child link=\"base\"/>\n</joint>\n</robot>",
         IK_ERR_HIERARCHY, 4, "a link its own parent"},
        {ROBOT "<joint name=\"j\" type=\"fixed\">\n<child link=\"arm\"/>\n</joint>\n</robot>", IK_ERR_PARSE, 4,
         "no parent element"},
        {ROBOT JOINT("continuous", "<mimic joint=\"jj\"/>\n") "</robot>", IK_ERR_NOT_FOUND, 4,
         "mimic of a missing joint"},
        {ROBOT "<link name=\"c\"/>\n" JOINT(
             "continuous",
             "<mimic joint=\"k\"/>\n") "<joint name=\"k\" type=\"continuous\"><parent link=\"arm\"/><child "
                                       "link=\"c\"/><mimic joint=\"j\"/></joint>\n</robot>",
         IK_ERR_HIERARCHY, 5, "mimic loop"},
        {"<robot>\n<link/>\n</robot>", IK_ERR_PARSE, 2, "link without name"},
        {"<?xml version=\"1.0\"?>\n<model/>", IK_ERR_PARSE, 2, "root not <robot>"},
        {"<?xml version=\"1.0\"?>\n<!DOCTYPE r [\n<!ENTITY a \"aaaaaaaaaa\">\n<!ENTITY b "
         "\"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">\n"
         "<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">\n<!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\">\n]>\n"
         "<robot name=\"&d;&d;&d;&d;\"><link name=\"&d;\"/></robot>",
         IK_ERR_UNSUPPORTED, 2, "entity expansion (billion laughs)"},
        {"<?xml version=\"1.0\"?>\n\n<!DOCTYPE robot [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<robot "
         "name=\"&x;\"><link name=\"a\"/></robot>",
         IK_ERR_UNSUPPORTED, 3, "external entity (XXE) to /etc/passwd"},
        {"<robot>\n<link name=\"&undefined;\"/>\n</robot>", IK_ERR_PARSE, 2, "undefined entity"},
    };
    int i;
    for (i = 0; i < (int)(sizeof cases / sizeof cases[0]); ++i) {
        ik_urdf *u = (ik_urdf *)&u;
        ik_error err;
        ik_result r = ik_urdf_read_memory(cases[i].text, strlen(cases[i].text), &u, &err);
        read_case_check(&cases[i], r, &err, u == NULL);
        CHECK(strstr(err.message, "root:") == NULL, "%s: file contents in the message: %s", cases[i].what, err.message);
        if (i < 3) printf("  %s: %s\n", cases[i].what, err.message);
    }
#undef ROBOT
#undef JOINT
}

/* Unknown names get the closest ones; the element is named in read errors. */
static void test_suggestions(void) {
    static const char doc[] =
        "<robot name=\"r\">\n<link name=\"upper_arm\"/>\n<link name=\"forearm\"/>\n"
        "<joint name=\"elbow\" type=\"fixed\"><parent link=\"upper_arm\"/>"
        "<child link=\"fore_arm\"/></joint>\n</robot>";
    ik_urdf *u = NULL;
    ik_error err;
    int index;
    ik_result r = ik_urdf_read_memory(doc, sizeof doc - 1, &u, &err);
    CHECK(r == IK_ERR_NOT_FOUND && read_error_at(&err, 4) && strstr(err.message, "<joint name=\"elbow\">") &&
              strstr(err.message, "did you mean: 'forearm'"),
          "%s", err.message);
    if (!have_data()) return;
    u = load("ur5_joint_limited_robot.urdf");
    if (!u) return;
    CHECK(ik_urdf_find_link(u, "wrist3_link", &index, &err) == IK_ERR_NOT_FOUND && index == -1 &&
              strstr(err.message, "'wrist_3_link'"),
          "%s", err.message);
    CHECK(ik_urdf_find_joint(u, "elbow", &index, &err) == IK_ERR_NOT_FOUND && strstr(err.message, "'elbow_joint'"),
          "%s", err.message);
    CHECK(ik_urdf_chain(u, "base_link", "tool_0", NULL, 0, &index, &err) == IK_ERR_NOT_FOUND &&
              strstr(err.message, "'tool0'"),
          "%s", err.message);
    CHECK(ik_urdf_chain(u, "tool0", "base_link", NULL, 0, &index, &err) == IK_ERR_HIERARCHY, "%s", err.message);
    printf("  %s\n", err.message);
    ik_urdf_free(u);
}

/* Each joint origin fits ik_real, their product down a chain may not: the
 * chain skeleton is refused, naming the first link whose rest position
 * overflows, as the BVH, chain-file and glTF readers refuse theirs. */
static void test_rest_overflow(void) {
    char doc[1024];
    double big = 0.75 * (double)IK_REAL_MAX;
    ik_urdf *u = NULL;
    ik_urdf_skeleton *s = NULL;
    ik_error err;
    int n = snprintf(doc, sizeof doc,
                     "<robot name=\"far\"><link name=\"a\"/><link name=\"b\"/><link name=\"c\"/>"
                     "<joint name=\"ab\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/>"
                     "<origin xyz=\"%.17g 0 0\"/></joint>"
                     "<joint name=\"bc\" type=\"fixed\"><parent link=\"b\"/><child link=\"c\"/>"
                     "<origin xyz=\"%.17g 0 0\"/></joint></robot>",
                     big, big);
    CHECK(ik_urdf_read_memory(doc, (size_t)n, &u, &err) == IK_OK && u, "%s", err.message);
    if (!u) return;
    CHECK(ik_urdf_chain_skeleton(u, "a", "b", &s, &err) == IK_OK && s, "one origin fits: %s", err.message);
    ik_urdf_skeleton_free(s);
    s = NULL;
    CHECK(ik_urdf_chain_skeleton(u, "a", "c", &s, &err) == IK_ERR_NONFINITE && !s && strstr(err.message, "'c'"),
          "two overflow: %s", err.message);
    ik_urdf_skeleton_free(s);
    ik_urdf_free(u);
}

/* Huge documents: above the byte cap, too many links, nesting deeper than
 * libxml2's limit; an empty file. All refused, none crash. */
static void test_huge_and_empty(void) {
    size_t size = IK_URDF_MAX_BYTES + 1, n;
    char *big = (char *)malloc(size), path[64];
    ik_urdf *u = NULL;
    ik_error err;
    int i, fd;
    if (!big) return;
    memset(big, ' ', size);
    memcpy(big, "<robot>", 7);
    CHECK(ik_urdf_read_memory(big, size, &u, &err) == IK_ERR_RANGE && !u, "over the cap: %s", err.message);
    n = (size_t)sprintf(big, "<robot>");
    for (i = 0; i <= IK_URDF_MAX_ITEMS; ++i) n += (size_t)sprintf(big + n, "<link name=\"l%d\"/>", i);
    n += (size_t)sprintf(big + n, "</robot>");
    CHECK(ik_urdf_read_memory(big, n, &u, &err) == IK_ERR_RANGE && !u, "too many links: %s", err.message);
    /* The most links allowed, as one long chain: loads, one tree, every link in the chain. */
    n = (size_t)sprintf(big, "<robot>");
    for (i = 0; i < IK_URDF_MAX_ITEMS; ++i) n += (size_t)sprintf(big + n, "<link name=\"l%d\"/>", i);
    for (i = 1; i < IK_URDF_MAX_ITEMS; ++i)
        n += (size_t)sprintf(big + n,
                             "<joint name=\"j%d\" type=\"continuous\"><parent link=\"l%d\"/><child link=\"l%d\"/>"
                             "<origin xyz=\"0 0 0.001\"/></joint>",
                             i, i - 1, i);
    n += (size_t)sprintf(big + n, "</robot>");
    CHECK(ik_urdf_read_memory(big, n, &u, &err) == IK_OK && u && u->joint_count == IK_URDF_MAX_ITEMS - 1,
          "the largest robot: %s", err.message);
    if (u) {
        int count = 0;
        char tip[16];
        snprintf(tip, sizeof tip, "l%d", IK_URDF_MAX_ITEMS - 1);
        CHECK(ik_urdf_chain(u, "l0", tip, NULL, 0, &count, &err) == IK_ERR_CAPACITY && count == IK_URDF_MAX_ITEMS - 1,
              "chain through every link: %d", count);
        {
            ik_urdf_skeleton *skeleton = NULL;
            CHECK(ik_urdf_chain_skeleton(u, "l0", tip, &skeleton, &err) == IK_OK && skeleton &&
                      skeleton->skeleton.joint_count == IK_URDF_MAX_ITEMS,
                  "skeleton through every link: %s", err.message);
            ik_urdf_skeleton_free(skeleton);
        }
        ik_urdf_free(u);
        u = NULL;
    }
    n = (size_t)sprintf(big, "<robot>");
    for (i = 0; i < 100000; ++i) n += (size_t)sprintf(big + n, "<a>");
    CHECK(ik_urdf_read_memory(big, n, &u, &err) == IK_ERR_PARSE && !u, "deep nesting: %s", err.message);
    free(big);
    CHECK(ik_urdf_read_memory("", 0, &u, &err) == IK_ERR_PARSE && !u, "empty memory");
    snprintf(path, sizeof path, "/tmp/ikit-urdf-XXXXXX");
    fd = mkstemp(path);
    if (fd >= 0) {
        close(fd);
        CHECK(ik_urdf_read_file(path, &u, &err) == IK_ERR_PARSE && !u && strstr(err.message, "empty"), "empty file: %s",
              err.message);
        unlink(path);
    }
    CHECK(ik_urdf_read_file("/nonexistent/x.urdf", &u, &err) == IK_ERR_IO && !u, "missing file");
}

/* Seeded corruptions of a valid document: never a crash; a result and a
 * message either way. */
static void test_corruptions(void) {
    static const char doc[] =
        "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/>\n<joint name=\"j\" type=\"revolute\">"
        "<origin xyz=\"0 0 1\" rpy=\"0 0 0\"/><parent link=\"a\"/><child link=\"b\"/><axis xyz=\"0 1 0\"/>"
        "<limit lower=\"-1\" upper=\"1\" velocity=\"1\" effort=\"1\"/></joint>\n</robot>";
    check_property prop = {"corrupted documents: an answer and a message", 0, 0};
    char copy[sizeof doc];
    rng r = rng_seeded(1212);
    int i;
    for (i = 0; i < 2000; ++i) {
        ik_urdf *u = NULL;
        ik_error err;
        ik_result res;
        read_corrupt(&r, copy, doc, sizeof doc - 1, "<>/\"= &;!x0-9e.jn");
        res = ik_urdf_read_memory(copy, sizeof doc - 1, &u, &err);
        PROPERTY_CASE(prop, (res == IK_OK) == (u != NULL) && (res == IK_OK || err.message[0]), "%s",
                      ik_result_str(res));
        ik_urdf_free(u);
    }
    property_end(&prop);
}

/* Limits rounded inward to ik_real (issue 29): on the three arms every
 * chain limit lies inside the file's limit (compared in double) and within
 * one ik_real step of it, so joint values inside the chain's limits are
 * inside the file's (the float build used to round 3.14159265359 up to
 * 3.14159274, and the solver returned joints 1e-7 past the URDF's limits);
 * a range narrower than one float step keeps the nearest value at both ends. */
static void test_limits_inward(void) {
    static const char *const files[3][3] = {{"ur5_joint_limited_robot.urdf", "base_link", "ee_link"},
                                            {"panda.urdf", "panda_link0", "panda_link8"},
                                            {"abb_irb2400.urdf", "base_link", "tool0"}};
    static const char narrow[] =
        "<robot name='n'><link name='a'/><link name='b'/>"
        "<joint name='j' type='revolute'><parent link='a'/><child link='b'/>"
        "<limit lower='0.1' upper='0.1' effort='1' velocity='1'/></joint></robot>";
    int f, k;
    ik_urdf *u = NULL;
    ik_robot_chain chain;
    ik_error err;
    for (f = 0; f < 3; ++f) {
        int joints[IK_ROBOT_MAX_JOINTS], count = 0, inside = 1;
        if (!(u = load(files[f][0]))) continue;
        CHECK(ik_urdf_chain(u, files[f][1], files[f][2], joints, IK_ROBOT_MAX_JOINTS, &count, &err) == IK_OK &&
                  ik_urdf_robot_chain(u, files[f][1], files[f][2], &chain, NULL, &err) == IK_OK,
              "%s: %s", files[f][0], err.message);
        for (k = 0; k < count; ++k) {
            const ik_urdf_joint *j = &u->joints[joints[k]];
            const ik_robot_joint *c = &chain.joints[k];
            if (j->type != IK_ROBOT_REVOLUTE && j->type != IK_ROBOT_PRISMATIC) continue;
            inside &= (double)c->lower >= j->lower && (double)c->upper <= j->upper &&
                      (double)c->lower - j->lower <= fabs(j->lower) * 2.4e-7 + 1e-30 &&
                      j->upper - (double)c->upper <= fabs(j->upper) * 2.4e-7 + 1e-30;
        }
        CHECK(inside, "%s: a chain limit outside the file's, or more than a step inside", files[f][0]);
        ik_urdf_free(u);
    }
    u = NULL;
    CHECK(ik_urdf_read_memory(narrow, sizeof narrow - 1, &u, &err) == IK_OK &&
              ik_urdf_robot_chain(u, "a", "b", &chain, NULL, &err) == IK_OK &&
              chain.joints[0].lower == chain.joints[0].upper && fabs((double)chain.joints[0].lower - 0.1) < 1e-7,
          "narrow range: %s", err.message);
    ik_urdf_free(u);
}

/* A <limit> with neither lower nor upper (issue 29): read as [0, 0], as
 * urdfdom reads it, and flagged (limit_no_range), so the tools can say the
 * joint is held at 0; one with either bound is not flagged. */
static void test_limit_without_range(void) {
    static const char doc[] =
        "<robot name='n'><link name='a'/><link name='b'/><link name='c'/>"
        "<joint name='free' type='revolute'><parent link='a'/><child link='b'/>"
        "<limit effort='1' velocity='1'/></joint>"
        "<joint name='half' type='revolute'><parent link='b'/><child link='c'/>"
        "<limit upper='1.5' effort='1' velocity='1'/></joint></robot>";
    ik_urdf *u = NULL;
    ik_robot_chain chain;
    ik_error err;
    CHECK(ik_urdf_read_memory(doc, sizeof doc - 1, &u, &err) == IK_OK, "%s", err.message);
    if (!u) return;
    CHECK(u->joints[0].has_limit && u->joints[0].limit_no_range && u->joints[0].lower == 0 && u->joints[0].upper == 0,
          "no range: flagged %d, [%g, %g]", u->joints[0].limit_no_range, u->joints[0].lower, u->joints[0].upper);
    CHECK(
        u->joints[1].has_limit && !u->joints[1].limit_no_range && u->joints[1].lower == 0 && u->joints[1].upper == 1.5,
        "upper only: flagged %d, [%g, %g]", u->joints[1].limit_no_range, u->joints[1].lower, u->joints[1].upper);
    CHECK(ik_urdf_robot_chain(u, "a", "c", &chain, NULL, &err) == IK_OK && chain.joints[0].lower == 0 &&
              chain.joints[0].upper == 0,
          "the chain holds the joint at 0");
    ik_urdf_free(u);
}

int main(void) {
    test_mimic();
    test_malformed();
    test_suggestions();
    test_rest_overflow();
    test_huge_and_empty();
    test_corruptions();
    test_limit_without_range();
    if (have_data()) {
        test_limits_inward();
        test_abb();
        test_ur5();
        test_panda();
        test_chains_between_links("ur5_joint_limited_robot.urdf");
        test_chains_between_links("panda.urdf");
        test_fk_properties();
    } else {
        check_skip("real-asset corpus not found");
    }
    return check_summary("test_urdf");
}

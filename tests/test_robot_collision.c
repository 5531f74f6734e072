/* Robot collision (issue 29): distances checked against brute force
 * (never above it: the checks are conservative, and close to it), capsules
 * fitted to the real meshes holding every vertex, the URDF's <collision>
 * elements and mesh paths (package://, ROS_PACKAGE_PATH, relative), pair
 * pruning and SRDF, scene files and their errors, and collision-free IK on
 * the UR5, the Panda and the IRB 2400 in cells: every answer reaches the
 * goal by FK, keeps the limits and is free by the library's own full check;
 * goals boxed in by an obstacle give "no collision-free solution" with the
 * contact named. (test_robot_collision_fcl checks the free answers against
 * the true meshes with FCL.) */
#define _POSIX_C_SOURCE 200809L
#include <ikit/robot_free_ik.h>
#include <ikit/robot_path.h>
#include <ikit/stl.h>
#include <ikit/urdf_collision.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/check.h"
#include "support/rng.h"
#include "support/robot_cells.h"
#include "support/test_groups.h"

/* One link at the base frame holding one capsule: its clearance to an
 * obstacle is the capsule's distance. */
static double capsule_to(ik_capsule c, ik_obstacle o) {
    ik_robot_collision_model model;
    ik_robot_chain chain;
    ik_robot_collision_report report;
    ik_real q[1] = {0};
    int link;
    memset(&chain, 0, sizeof chain);
    ik_robot_collision_model_init(&model);
    ik_robot_collision_add_link(&model, "a", -1, -1, &link);
    ik_robot_collision_add_capsule(&model, link, c);
    if (ik_robot_collision_check(&model, &chain, q, &o, 1, 0, &report) != IK_OK) return NAN;
    return report.clearance;
}

static double point_box(double p[3], const ik_obstacle *o) {
    ik_vec3 local =
        ik_quat_rotate(ik_quat_conjugate(o->pose_bs.rotation),
                       ik_vec3_sub(ik_v3((ik_real)p[0], (ik_real)p[1], (ik_real)p[2]), o->pose_bs.translation));
    double h[3] = {o->half_extents.x, o->half_extents.y, o->half_extents.z}, l[3] = {local.x, local.y, local.z}, s = 0;
    int k;
    for (k = 0; k < 3; ++k) {
        double e = fabs(l[k]) > h[k] ? fabs(l[k]) - h[k] : 0;
        s += e * e;
    }
    return sqrt(s);
}

static double point_cylinder(double p[3], const ik_obstacle *o) {
    ik_vec3 local =
        ik_quat_rotate(ik_quat_conjugate(o->pose_bs.rotation),
                       ik_vec3_sub(ik_v3((ik_real)p[0], (ik_real)p[1], (ik_real)p[2]), o->pose_bs.translation));
    double radial = sqrt((double)local.x * local.x + (double)local.y * local.y) - o->radius;
    double axial = fabs((double)local.z) - o->half_length;
    if (radial < 0) radial = 0;
    if (axial < 0) axial = 0;
    return sqrt(radial * radial + axial * axial);
}

/* The library's distance from a capsule to a box, a sphere or a cylinder is
 * never above the brute-force one (2001 points along the axis, the exact
 * point distance), and above it by at most the sampling step where the
 * shape is exact (box, sphere; the cylinder is bounded by its capsule and
 * box, so allowed more). */
static void test_distances(void) {
    rng r = rng_seeded(29);
    check_property prop = {"distance vs brute force", 0, 0};
    int c, shape, k;
    for (c = 0; c < 600; ++c) {
        ik_capsule cap;
        ik_obstacle o;
        double lib, brute = 1e30, step, len;
        memset(&o, 0, sizeof o);
        cap.a = ik_v3(rng_range(&r, -1, 1), rng_range(&r, -1, 1), rng_range(&r, -1, 1));
        cap.b = ik_v3(rng_range(&r, -1, 1), rng_range(&r, -1, 1), rng_range(&r, -1, 1));
        cap.radius = rng_range(&r, 0, 0.2f);
        shape = c % 3;
        o.shape = shape == 0 ? IK_OBSTACLE_BOX : (shape == 1 ? IK_OBSTACLE_SPHERE : IK_OBSTACLE_CYLINDER);
        o.pose_bs = ik_transform_identity();
        o.pose_bs.translation =
            ik_v3(rng_range(&r, -0.5f, 0.5f), rng_range(&r, -0.5f, 0.5f), rng_range(&r, -0.5f, 0.5f));
        o.pose_bs.rotation = rng_rotation(&r);
        o.half_extents = ik_v3(rng_range(&r, 0.01f, 0.4f), rng_range(&r, 0.01f, 0.4f), rng_range(&r, 0.01f, 0.4f));
        o.radius = rng_range(&r, 0.01f, 0.3f);
        o.half_length = rng_range(&r, 0.01f, 0.4f);
        lib = capsule_to(cap, o);
        len = ik_vec3_distance(cap.a, cap.b);
        step = len / 2000;
        for (k = 0; k <= 2000; ++k) {
            double t = k / 2000.0, p[3], d;
            p[0] = cap.a.x + t * (cap.b.x - cap.a.x);
            p[1] = cap.a.y + t * (cap.b.y - cap.a.y);
            p[2] = cap.a.z + t * (cap.b.z - cap.a.z);
            if (shape == 0)
                d = point_box(p, &o);
            else if (shape == 1)
                d = sqrt((p[0] - o.pose_bs.translation.x) * (p[0] - o.pose_bs.translation.x) +
                         (p[1] - o.pose_bs.translation.y) * (p[1] - o.pose_bs.translation.y) +
                         (p[2] - o.pose_bs.translation.z) * (p[2] - o.pose_bs.translation.z)) -
                    o.radius;
            else
                d = point_cylinder(p, &o);
            if (d < 0) d = 0;
            if (d < brute) brute = d;
        }
        brute -= cap.radius;
        /* A point inside the shape has distance 0 here; the library says
         * -radius or less then, both "overlapping". */
        PROPERTY_CASE(
            prop,
            isfinite(lib) && lib <= brute + 2e-6 && (brute <= 0 || lib >= brute - step - (shape == 2 ? 0.5 : 2e-6)),
            "case %d (shape %d): library %.7f, brute force %.7f", c, shape, lib, brute);
    }
    property_end(&prop);
}

/* Two capsules on two links: their clearance is the segments' distance
 * minus the radii (brute force over 401 x 401 points). */
static void test_capsule_pairs(void) {
    rng r = rng_seeded(3);
    check_property prop = {"capsule pairs vs brute force", 0, 0};
    int c, i, j;
    for (c = 0; c < 100; ++c) {
        ik_robot_collision_model model;
        ik_robot_chain chain;
        ik_robot_collision_report report;
        ik_capsule a, b;
        ik_real q[1] = {0};
        double brute = 1e30;
        int la, lb;
        memset(&chain, 0, sizeof chain);
        a.a = ik_v3(rng_range(&r, -1, 1), rng_range(&r, -1, 1), rng_range(&r, -1, 1));
        a.b = c % 10 == 0 ? a.a : ik_v3(rng_range(&r, -1, 1), rng_range(&r, -1, 1), rng_range(&r, -1, 1));
        b.a = ik_v3(rng_range(&r, -1, 1), rng_range(&r, -1, 1), rng_range(&r, -1, 1));
        b.b = c % 7 == 0 ? ik_vec3_add(b.a, ik_vec3_sub(a.b, a.a))
                         : ik_v3(rng_range(&r, -1, 1), rng_range(&r, -1, 1), rng_range(&r, -1, 1));
        a.radius = b.radius = 0.05f;
        ik_robot_collision_model_init(&model);
        ik_robot_collision_add_link(&model, "a", -1, -1, &la);
        ik_robot_collision_add_link(&model, "b", -1, -1, &lb);
        ik_robot_collision_add_capsule(&model, la, a);
        ik_robot_collision_add_capsule(&model, lb, b);
        ik_robot_collision_check(&model, &chain, q, NULL, 0, 0, &report);
        for (i = 0; i <= 400; ++i)
            for (j = 0; j <= 400; ++j) {
                ik_vec3 p = ik_vec3_lerp(a.a, a.b, (ik_real)(i / 400.0)),
                        s = ik_vec3_lerp(b.a, b.b, (ik_real)(j / 400.0));
                double d = ik_vec3_distance(p, s);
                if (d < brute) brute = d;
            }
        brute -= 0.1;
        PROPERTY_CASE(prop, report.clearance <= brute + 1e-5 && report.clearance >= brute - 0.01,
                      "case %d: %.6f vs brute %.6f", c, report.clearance, brute);
    }
    property_end(&prop);
}

/* Capsules and boxes fitted to the real meshes hold every vertex (after the URDF
 * origin), and are not loose: the UR5's upper arm's radius is under 10 cm. */
static void test_fit_real_meshes(void) {
    robot_cell cell;
    char why[800];
    int which;
    for (which = 0; which < 2; ++which) {
        const char *packages[1];
        ik_mesh_paths paths;
        int c, checked = 0, bad = 0, own_frame_count = 0;
        const char *own_frame[IK_ROBOT_MAX_JOINTS];
        if (!robot_cell_load(&cell, which, why, sizeof why)) {
            check_skip(why);
            return;
        }
        {
            int joints[IK_ROBOT_MAX_JOINTS], count = 0, k;
            ik_urdf_chain(cell.urdf, cell.base, cell.tip, joints, IK_ROBOT_MAX_JOINTS, &count, NULL);
            for (k = 0; k < count; ++k) own_frame[k] = cell.urdf->links[cell.urdf->joints[joints[k]].child_link].name;
            own_frame_count = count;
        }
        packages[0] = cell.package;
        paths.urdf_dir = cell.urdf_dir;
        paths.packages = packages;
        paths.package_count = 1;
        for (c = 0; c < cell.urdf->collision_count; ++c) {
            const ik_urdf_collision *col = &cell.urdf->collisions[c];
            char path[1024];
            ik_mesh *m = NULL;
            ik_error err;
            int l = ik_robot_collision_find_link(&cell.model, cell.urdf->links[col->link].name), k;
            size_t i;
            if (col->geometry != IK_URDF_GEOMETRY_MESH || l < 0) continue;
            /* Links on a frame of their own (the hand hangs turned below the
             * flange: test_robot_collision_fcl checks it). */
            if (cell.model.link_frame[l] >= 0 &&
                (cell.model.link_frame[l] >= own_frame_count ||
                 strcmp(own_frame[cell.model.link_frame[l]], cell.model.link_names[l])))
                continue;
            CHECK(
                ik_urdf_mesh_path(col->mesh_filename, paths.urdf_dir, packages, 1, path, sizeof path, &err) == IK_OK &&
                    ik_stl_read_file(path, &m, &err) == IK_OK,
                "%s: %s", col->mesh_filename, err.message);
            if (!m) continue;
            for (k = 0; k < cell.model.capsule_count; ++k) {
                ik_capsule cap = cell.model.capsules[k];
                if (cell.model.capsule_link[k] != l) continue;
                for (i = 0; i < 3 * m->triangle_count; ++i) {
                    ik_vec3 p = ik_transform_point(
                        col->origin, ik_v3(m->vertices[3 * i], m->vertices[3 * i + 1], m->vertices[3 * i + 2]));
                    ik_vec3 ab = ik_vec3_sub(cap.b, cap.a);
                    double ll = ik_vec3_dot(ab, ab), t = ll > 0 ? ik_vec3_dot(ik_vec3_sub(p, cap.a), ab) / ll : 0;
                    t = t < 0 ? 0 : (t > 1 ? 1 : t);
                    bad += ik_vec3_distance(p, ik_vec3_add(cap.a, ik_vec3_scale(ab, (ik_real)t))) > cap.radius;
                    ++checked;
                }
                break;
            }
            ik_mesh_free(m);
        }
        CHECK(checked > 1000 && bad == 0, "%s: %d of %d mesh vertices outside their capsules", cell.name, bad, checked);
        if (which == 0) {
            int l = ik_robot_collision_find_link(&cell.model, "upper_arm_link");
            CHECK(l >= 0 && cell.model.capsules[l].radius < 0.1, "UR5 upper arm capsule radius %g",
                  l >= 0 ? cell.model.capsules[l].radius : -1.0);
            CHECK(cell.model.link_count == 8 && cell.model.capsule_count == 8, "UR5: 8 links with geometry, %d",
                  cell.model.link_count);
            CHECK(cell.model.pair_state[0][1] == IK_PAIR_ADJACENT && cell.model.pair_state[1][2] == IK_PAIR_ADJACENT,
                  "UR5: base-shoulder and shoulder-upper arm adjacent");
        } else {
            int left = ik_robot_collision_find_link(&cell.model, "panda_leftfinger");
            int hand = ik_robot_collision_find_link(&cell.model, "panda_hand");
            CHECK(cell.model.link_count == 11 && left >= 0 && hand >= 0 && cell.model.link_parent[left] == hand &&
                      cell.model.link_frame[left] == cell.model.link_frame[hand],
                  "Panda: 11 links, the fingers below the hand on the flange's frame");
            CHECK(cell.model.pair_state[left][hand] == IK_PAIR_ADJACENT, "Panda: finger-hand adjacent");
        }
        robot_cell_free(&cell);
    }
}

static void test_mesh_paths(void) {
    const char *packages[2] = {"other=/x", "pkg=/opt/pkg/"};
    char out[256];
    ik_error err;
    CHECK(ik_urdf_mesh_path("package://pkg/meshes/a.stl", NULL, packages, 2, out, sizeof out, &err) == IK_OK &&
              strcmp(out, "/opt/pkg/meshes/a.stl") == 0,
          "package path: %s", out);
    CHECK(ik_urdf_mesh_path("meshes/a.stl", "/robots/arm", NULL, 0, out, sizeof out, &err) == IK_OK &&
              strcmp(out, "/robots/arm/meshes/a.stl") == 0,
          "relative to the URDF: %s", out);
    CHECK(ik_urdf_mesh_path("file:///abs/a.stl", "/robots", NULL, 0, out, sizeof out, &err) == IK_OK &&
              strcmp(out, "/abs/a.stl") == 0,
          "file://: %s", out);
    CHECK(ik_urdf_mesh_path("http://x/a.stl", NULL, NULL, 0, out, sizeof out, &err) == IK_ERR_UNSUPPORTED,
          "http refused");
    CHECK(ik_urdf_mesh_path("package://nowhere/a.stl", NULL, packages, 2, out, sizeof out, &err) == IK_ERR_NOT_FOUND &&
              strstr(err.message, "unknown package 'nowhere'") && strstr(err.message, "--package-path"),
          "unknown package: %s", err.message);
    CHECK(ik_urdf_mesh_path("package://pkg/meshes/a.stl", NULL, packages, 2, out, 8, &err) == IK_ERR_CAPACITY,
          "too long for the buffer");
    {
        const char *dir = robot_cells_dir();
        char env[700];
        const char *old = getenv("ROS_PACKAGE_PATH");
        char saved[1024];
        if (!dir) {
            check_skip("no data: ROS_PACKAGE_PATH not tried");
            return;
        }
        snprintf(saved, sizeof saved, "%s", old ? old : "");
        snprintf(env, sizeof env, "/nonexistent:%s/", dir);
        setenv("ROS_PACKAGE_PATH", env, 1);
        CHECK(ik_urdf_mesh_path("package://example-robot-data/robots/panda_description/meshes/collision/hand.stl", NULL,
                                NULL, 0, out, sizeof out, &err) == IK_OK &&
                  access(out, R_OK) == 0,
              "found through ROS_PACKAGE_PATH: %s (%s)", out, err.message);
        if (old)
            setenv("ROS_PACKAGE_PATH", saved, 1);
        else
            unsetenv("ROS_PACKAGE_PATH");
    }
}

/* A URDF whose collisions name missing, malformed or unknown things: the
 * error names the link and the mesh. */
static void test_bad_collisions(void) {
    static const char *const cases[][3] = {
        {"<mesh filename=\"package://nopkg/a.stl\"/>", "unknown package 'nopkg'", "arm"},
        {"<mesh filename=\"missing.stl\"/>", "missing.stl", "arm"},
        {"<capsule radius=\"1\" length=\"2\"/>", "capsule", "arm"},
        {"<box size=\"1 2\"/>", "expected 3 numbers", "arm"},
        {"<sphere radius=\"nan\"/>", "not finite", "arm"},
        {"<cylinder radius=\"-1\" length=\"1\"/>", "negative", "arm"},
        {"<mesh/>", "no filename", "arm"},
        /* a second geometry in one collision (fuzz_urdf: the first mesh's name leaked) */
        {"<mesh filename=\"a.stl\"/></geometry><geometry><mesh filename=\"b.stl\"/>", "second <geometry>", "arm"},
        {"<box size=\"1 1 1\"/></geometry><geometry><sphere radius=\"1\"/>", "second <geometry>", "arm"},
    };
    size_t k;
    for (k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        char text[1024];
        ik_urdf *u = NULL;
        ik_error err;
        ik_robot_collision_model model;
        ik_result r;
        snprintf(text, sizeof text,
                 "<robot name=\"r\"><link name=\"base\"/><link name=\"arm\"><collision><geometry>%s</geometry>"
                 "</collision></link><joint name=\"j\" type=\"revolute\"><parent link=\"base\"/><child link=\"arm\"/>"
                 "<limit lower=\"-1\" upper=\"1\"/></joint></robot>",
                 cases[k][0]);
        r = ik_urdf_read_memory(text, strlen(text), &u, &err);
        if (r == IK_OK) {
            ik_mesh_paths paths;
            memset(&paths, 0, sizeof paths);
            paths.urdf_dir = "/nonexistent-dir";
            r = ik_urdf_collision_model(u, "base", "arm", &paths, &model, NULL, &err);
        }
        CHECK(r != IK_OK && strstr(err.message, cases[k][1]) && strstr(err.message, cases[k][2]), "%s: %s '%s'",
              cases[k][0], ik_result_str(r), err.message);
        ik_urdf_free(u);
    }
}

static void test_srdf(void) {
    robot_cell cell;
    char why[800];
    int disabled = -1, l, m;
    ik_error err;
    const char *srdf =
        "<?xml version=\"1.0\"?><robot name=\"ur5\"><group name=\"arm\"/>"
        "<disable_collisions link1=\"wrist_1_link\" link2=\"wrist_3_link\" reason=\"Never\"/>"
        "<disable_collisions link1=\"base_link\" link2=\"no_such_link\" reason=\"Never\"/>"
        "</robot>";
    if (!robot_cell_load(&cell, 0, why, sizeof why)) {
        check_skip(why);
        return;
    }
    cell.model.pair_state[4][6] = cell.model.pair_state[6][4] = IK_PAIR_CHECKED;
    CHECK(ik_srdf_disable_collisions_memory(srdf, strlen(srdf), &cell.model, &disabled, &err) == IK_OK && disabled == 1,
          "SRDF: one pair disabled (%d): %s", disabled, err.message);
    l = ik_robot_collision_find_link(&cell.model, "wrist_1_link");
    m = ik_robot_collision_find_link(&cell.model, "wrist_3_link");
    CHECK(l >= 0 && m >= 0 && cell.model.pair_state[l][m] == IK_PAIR_DISABLED &&
              cell.model.pair_state[m][l] == IK_PAIR_DISABLED,
          "the pair is disabled both ways");
    CHECK(ik_srdf_disable_collisions_memory("<robot><disable_collisions link1=\"a\"/></robot>", 46, &cell.model,
                                            &disabled, &err) == IK_ERR_PARSE &&
              strstr(err.message, "link2"),
          "link2 missing: %s", err.message);
    CHECK(ik_srdf_disable_collisions_memory("<robot><oops></robot>", 21, &cell.model, &disabled, &err) == IK_ERR_PARSE,
          "malformed XML");
    CHECK(ik_srdf_disable_collisions("/nonexistent.srdf", &cell.model, &disabled, &err) == IK_ERR_IO, "missing file");
    robot_cell_free(&cell);
}

static void expect_scene(const char *text, ik_result want, const char *words, const ik_urdf *u) {
    ik_scene *s = (ik_scene *)1;
    ik_error err;
    ik_result r = ik_scene_read_memory(text, strlen(text), u, "base_link", NULL, &s, &err);
    CHECK(r == want && (want == IK_OK ? s != NULL : s == NULL) && (!words || strstr(err.message, words)),
          "scene %.60s: %s '%s', want %s '%s'", text, ik_result_str(r), err.message, ik_result_str(want),
          words ? words : "");
    if (r == IK_OK) ik_scene_free(s);
}

static void test_scenes(void) {
    robot_cell cell;
    char why[800], path[700];
    ik_scene *scene = NULL;
    ik_error err;
    const char *packages[1];
    ik_mesh_paths paths;
    int k;
    expect_scene("{\"obstacles\": []}", IK_OK, NULL, NULL);
    expect_scene("{\"obstacles\": [{\"box\": [1, 1, 1]}]}", IK_OK, NULL, NULL);
    expect_scene("{\"obstacles\": [{\"box\": [1, 1, 1], \"sphere\": 1}]}", IK_ERR_PARSE, "exactly one", NULL);
    expect_scene("{\"obstacles\": [{\"box\": [1, 0, 1]}]}", IK_ERR_RANGE, "/obstacles/0/box", NULL);
    expect_scene("{\"obstacles\": [{\"sphere\": 1, \"pose\": [0, 0, 1e999]}]}", IK_ERR_NONFINITE, "/obstacles/0/pose",
                 NULL);
    expect_scene("{\"obstacles\": [{\"sphere\": 1, \"pose\": [0, 0, 0, 0, 0, 0, 2]}]}", IK_ERR_RANGE, "unit length",
                 NULL);
    expect_scene("{\"obstacles\": [{\"cylinder\": [1]}]}", IK_ERR_PARSE, "2 numbers", NULL);
    expect_scene("{\"obstacles\": [{\"mesh\": \"/nonexistent/x.stl\"}]}", IK_ERR_IO, "/nonexistent/x.stl", NULL);
    expect_scene("{\"obstacles\": [{\"sphere\": \"big\"}]}", IK_ERR_PARSE, "radius", NULL);
    expect_scene("{\"obstacles\": {}}", IK_ERR_PARSE, "/obstacles", NULL);
    expect_scene("{\"obstacles\": [", IK_ERR_PARSE, "malformed JSON", NULL);
    expect_scene("[]", IK_ERR_PARSE, "expected an object", NULL);
    if (!robot_cell_load(&cell, 0, why, sizeof why)) {
        check_skip(why);
        return;
    }
    expect_scene("{\"frame\": \"world\", \"obstacles\": [{\"sphere\": 1}]}", IK_OK, NULL, cell.urdf);
    expect_scene("{\"frame\": \"wrist_1_link\", \"obstacles\": []}", IK_ERR_HIERARCHY, "not fixed", cell.urdf);
    expect_scene("{\"frame\": \"nowhere\", \"obstacles\": []}", IK_ERR_NOT_FOUND, "nowhere", cell.urdf);
    /* The example scene is the bench's UR5 cell, with a mesh obstacle bounded by its box. */
    {
        const char *here = __FILE__, *cut = strstr(here, "tests/test_robot_collision.c");
        snprintf(path, sizeof path, "%.*sexamples/ur5_cell.scene.json", cut ? (int)(cut - here) : 0, here);
    }
    CHECK(ik_scene_read_file(path, cell.urdf, "base_link", NULL, &scene, &err) == IK_OK && scene &&
              scene->obstacle_count == cell.obstacle_count,
          "example scene: %s", err.message);
    for (k = 0; scene && k < scene->obstacle_count && k < cell.obstacle_count; ++k)
        CHECK(scene->obstacles[k].shape == cell.obstacles[k].shape &&
                  ik_vec3_distance(scene->obstacles[k].pose_bs.translation, cell.obstacles[k].pose_bs.translation) <
                      1e-5 &&
                  strcmp(scene->obstacles[k].name, cell.obstacles[k].name) == 0,
              "example scene obstacle %d is the bench's", k);
    ik_scene_free(scene);
    scene = NULL;
    {
        const char *text =
            "{\"obstacles\": [{\"name\": \"part\", \"mesh\": "
            "\"package://example-robot-data/robots/ur_description/meshes/ur5/collision/forearm.stl\", "
            "\"scale\": [2, 2, 2], \"pose\": [1, 0, 0]}]}";
        packages[0] = cell.package;
        paths.urdf_dir = NULL;
        paths.packages = packages;
        paths.package_count = 1;
        CHECK(ik_scene_read_memory(text, strlen(text), cell.urdf, "base_link", &paths, &scene, &err) == IK_OK &&
                  scene->from_mesh[0] && scene->obstacles[0].shape == IK_OBSTACLE_BOX &&
                  scene->obstacles[0].half_extents.z > 0.4,
              "a mesh obstacle as its box (scaled 2: the 0.4 m forearm is 0.8 m long): %s", err.message);
        ik_scene_free(scene);
    }
    robot_cell_free(&cell);
}

/* MoveIt's planning-scene text export, both versions: the same cell (a box,
 * a cylinder, a sphere, a cone as its cylinder, a mesh as its box, an object
 * of two shapes) read from the old and the new layout gives the same
 * obstacles; poses are in the URDF's root (the UR5's world, where base_link
 * sits at the origin); bad files name the line. */
static void test_moveit_scenes(void) {
    static const char old_layout[] =
        "cell\n"
        "* table\n1\nbox\n2 2 0.04\n0 0 -0.11\n0 0 0 1\n0.5 0.5 0.5 1\n"
        "* post\n1\ncylinder\n0.04 1.2\n0.35 -0.45 0.5\n0 0 0 1\n0 0 0 0\n"
        "* ball\n1\nsphere\n0.06\n0.3 0.4 0.7\n0 0 0 1\n0 0 0 0\n"
        "* cone\n1\ncone\n0.1 0.3\n-0.3 0.3 0.2\n0 0 0.7071068 0.7071068\n0 0 0 0\n"
        "* part\n1\nmesh\n4 2\n0 0 0\n0.2 0 0\n0 0.1 0\n0 0 0.05\n0 1 2\n0 1 3\n0.5 0 0\n0 0 0 1\n0 0 0 0\n"
        "* shelf\n2\nbox\n0.3 0.8 0.02\n0.65 0.25 0.15\n0 0 0 1\n0 0 0 0\nbox\n0.3 0.8 0.02\n0.65 0.25 0.5\n0 0 0 1\n"
        "0 0 0 0\n.\n";
    static const char new_layout[] =
        "cell\n"
        "* table\n0 0 -0.11\n0 0 0 1\n1\nbox\n2 2 0.04\n0 0 0\n0 0 0 1\n0.5 0.5 0.5 1\n0\n"
        "* post\n0.35 -0.45 0\n0 0 0 1\n1\ncylinder\n0.04 1.2\n0 0 0.5\n0 0 0 1\n0 0 0 0\n0\n"
        "* ball\n0 0 0\n0 0 0 1\n1\nsphere\n0.06\n0.3 0.4 0.7\n0 0 0 1\n0 0 0 0\n1\ngrip\n0 0 0.06\n0 0 0 1\n"
        "* cone\n-0.3 0.3 0.2\n0 0 0.7071068 0.7071068\n1\ncone\n0.1 0.3\n0 0 0\n0 0 0 1\n0 0 0 0\n0\n"
        "* part\n0.5 0 0\n0 0 0 1\n1\nmesh\n4 2\n0 0 0\n0.2 0 0\n0 0.1 0\n0 0 0.05\n0 1 2\n0 1 3\n0 0 0\n0 0 0 1\n"
        "0 0 0 0\n0\n"
        "* shelf\n0.65 0.25 0\n0 0 0 1\n2\nbox\n0.3 0.8 0.02\n0 0 0.15\n0 0 0 1\n0 0 0 0\nbox\n0.3 0.8 0.02\n"
        "0 0 0.5\n0 0 0 1\n0 0 0 0\n0\n.\n";
    robot_cell cell;
    char why[800];
    ik_scene *a = NULL, *b = NULL;
    ik_error err;
    int k;
    if (!robot_cell_load(&cell, 0, why, sizeof why)) {
        check_skip(why);
        return;
    }
    CHECK(ik_scene_read_memory(old_layout, strlen(old_layout), cell.urdf, "base_link", NULL, &a, &err) == IK_OK,
          "old layout: %s", err.message);
    CHECK(ik_scene_read_memory(new_layout, strlen(new_layout), cell.urdf, "base_link", NULL, &b, &err) == IK_OK,
          "new layout: %s", err.message);
    if (a && b) {
        CHECK(a->obstacle_count == 7 && b->obstacle_count == 7, "7 obstacles each: %d, %d", a->obstacle_count,
              b->obstacle_count);
        for (k = 0; k < a->obstacle_count && k < b->obstacle_count; ++k) {
            const ik_obstacle *x = &a->obstacles[k], *y = &b->obstacles[k];
            CHECK(x->shape == y->shape && strcmp(x->name, y->name) == 0 &&
                      ik_vec3_distance(x->pose_bs.translation, y->pose_bs.translation) < 1e-6 &&
                      ik_vec3_distance(x->half_extents, y->half_extents) < 1e-6 &&
                      fabs((double)(x->radius - y->radius)) < 1e-6 &&
                      fabs((double)(x->half_length - y->half_length)) < 1e-6,
                  "obstacle %d (%s) the same in both layouts", k, x->name);
        }
        CHECK(a->obstacles[3].shape == IK_OBSTACLE_CYLINDER && a->obstacles[4].shape == IK_OBSTACLE_BOX &&
                  a->from_mesh[4] && fabs((double)a->obstacles[4].pose_bs.translation.x - 0.6) < 1e-5 &&
                  fabs((double)a->obstacles[4].half_extents.x - 0.1) < 1e-5 &&
                  strcmp(a->obstacles[6].name, "shelf/2") == 0,
              "a cone as a cylinder, a mesh as its box (centred at x 0.6, 0.1 half wide), shelf/2");
    }
    ik_scene_free(a);
    ik_scene_free(b);
    {
        static const char *const bad[][3] = {
            {"s\n* p\n1\nplane\n0 0 1 0\n0 0 0\n0 0 0 1\n.\n", "planes", "line 4"},
            {"s\n* b\n1\nbox\n1 1\n0 0 0\n0 0 0 1\n.\n", "line 5", "box's sizes"},
            {"s\n* b\n1\nbox\n1 1 1\n0 0 0\n0 0 0 2\n.\n", "line 7", "unit length"},
            {"s\n* b\n1\nbox\n1 1 1\n0 0 1e999\n0 0 0 1\n.\n", "line 6", "not finite"},
            {"s\n* b\n1\nbox\n1 -1 1\n0 0 0\n0 0 0 1\n.\n", "line 5", "> 0"},
            {"s\nbox\n", "line 2", "* OBJECT"},
            {"s\n* m\n1\nmesh\n2 1\n0 0 0\n1 0 0\n0 1 5\n0 0 0\n0 0 0 1\n.\n", "line 8", "index out of range"},
            {"s\n* b\n1\nbox\n1 1 1\n", "ends early", "position"},
        };
        size_t i;
        for (i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
            ik_scene *s = (ik_scene *)1;
            ik_result r = ik_scene_read_memory(bad[i][0], strlen(bad[i][0]), cell.urdf, "base_link", NULL, &s, &err);
            CHECK(r != IK_OK && s == NULL && strstr(err.message, bad[i][1]) && strstr(err.message, bad[i][2]),
                  "bad MoveIt scene %d: %s '%s'", (int)i, ik_result_str(r), err.message);
        }
    }
    robot_cell_free(&cell);
}

/* Solve, then check the answer as a user would: FK reaches the goal, the
 * limits hold, the library's full check calls it free. */
static int check_answer(const robot_cell *cell, const ik_real *q, ik_transform goal, const char *what) {
    ik_real lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS];
    ik_bool limited[IK_ROBOT_MAX_JOINTS];
    ik_transform tip;
    ik_robot_collision_report report;
    int v, ok = 1;
    ik_robot_variable_limits(&cell->chain, lower, upper, limited, NULL);
    ik_robot_fk(&cell->chain, q, &tip, NULL);
    for (v = 0; v < cell->chain.variable_count; ++v) ok &= isfinite(q[v]) && q[v] >= lower[v] && q[v] <= upper[v];
    ok &= ik_vec3_distance(tip.translation, goal.translation) < 2e-5;
    {
        ik_quat d = ik_quat_mul(goal.rotation, ik_quat_conjugate(tip.rotation));
        double sign = d.w < 0 ? -2 : 2;
        ok &= fabs(sign * d.x) <= 1.1e-5 && fabs(sign * d.y) <= 1.1e-5 && fabs(sign * d.z) <= 1.1e-5;
    }
    ik_robot_collision_check(&cell->model, &cell->chain, q, cell->obstacles, cell->obstacle_count, (ik_real)0.01,
                             &report);
    ok &= report.free && report.clearance >= 0.01;
    CHECK(ok, "%s %s: reached %g m, clearance %g", cell->name, what,
          (double)ik_vec3_distance(tip.translation, goal.translation), report.clearance);
    return ok;
}

static void test_free_ik_cells(void) {
    int which;
    for (which = 0; which < ROBOT_CELL_COUNT; ++which) {
        robot_cell cell;
        char why[800];
        ik_real lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS], q[IK_ROBOT_MAX_JOINTS],
            out[IK_ROBOT_MAX_JOINTS], seed[IK_ROBOT_MAX_JOINTS];
        ik_bool limited[IK_ROBOT_MAX_JOINTS];
        static char scratch[1 << 16];
        uint64_t state = 5;
        int solved = 0, goals = 0, bare_collided = 0, v;
        if (!robot_cell_load(&cell, which, why, sizeof why)) {
            check_skip(why);
            continue;
        }
        ik_robot_variable_limits(&cell.chain, lower, upper, limited, NULL);
        for (v = 0; v < cell.chain.variable_count; ++v) seed[v] = (lower[v] + upper[v]) / 2;
        while (goals < 60) {
            ik_bool is_free = 0, reached = 0, ok_free = 0;
            ik_transform goal;
            ik_robot_free_ik job = ik_robot_free_ik_def();
            ik_robot_collision_report report;
            ik_robot_random_configuration(lower, upper, cell.chain.variable_count, &state, q);
            ik_robot_collision_free(&cell.model, &cell.chain, q, cell.obstacles, cell.obstacle_count, (ik_real)0.01,
                                    &is_free);
            if (!is_free) continue;
            ++goals;
            ik_robot_fk(&cell.chain, q, &goal, NULL);
            job.ik.chain = &cell.chain;
            job.ik.goal_position_bs = goal.translation;
            job.ik.goal_rotation_bs = goal.rotation;
            job.ik.q_seed = seed;
            job.ik.scratch = scratch;
            job.ik.scratch_bytes = sizeof scratch;
            job.model = &cell.model;
            job.obstacles = cell.obstacles;
            job.obstacle_count = cell.obstacle_count;
            job.q_out = out;
            job.reached = &reached;
            job.free = &ok_free;
            job.report = &report;
            CHECK(ik_robot_free_ik_run(&job) == IK_OK, "%s: runs", cell.name);
            if (reached && ok_free && check_answer(&cell, out, goal, "collision-free answer")) ++solved;
            {
                ik_robot_ik bare = job.ik;
                ik_bool bare_reached = 0, bare_free = 1;
                bare.q_out = out;
                bare.reached = &bare_reached;
                ik_robot_ik_run(&bare);
                ik_robot_collision_free(&cell.model, &cell.chain, out, cell.obstacles, cell.obstacle_count,
                                        (ik_real)0.01, &bare_free);
                bare_collided += bare_reached && !bare_free;
            }
        }
        /* Every goal was reached by a free configuration: nearly all solved. */
        CHECK(solved >= goals - 1, "%s: %d of %d goals solved collision-free", cell.name, solved, goals);
        printf("%s: %d of %d goals solved collision-free (the bare pose IK's answer collided on %d)\n", cell.name,
               solved, goals, bare_collided);
        robot_cell_free(&cell);
    }
}

/* A goal inside a ball that no link may come near: "no collision-free
 * solution", the closest candidate reaches the goal, and its contacts name
 * the ball. A robot that starts in collision (the seed inside the table)
 * still gets a free answer. Bad input is refused. */
static void test_no_solution_and_bad_input(void) {
    robot_cell cell;
    char why[800];
    ik_real lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS], seed[IK_ROBOT_MAX_JOINTS], out[IK_ROBOT_MAX_JOINTS],
        q[IK_ROBOT_MAX_JOINTS] = {0, -1.2f, 1.5f, -1.0f, -1.5f, 0};
    ik_bool limited[IK_ROBOT_MAX_JOINTS], reached = 0, is_free = 1;
    static char scratch[1 << 16];
    ik_robot_free_ik job = ik_robot_free_ik_def();
    ik_robot_collision_report report;
    ik_transform goal;
    ik_obstacle ball[1];
    int v, k, named = 0;
    if (!robot_cell_load(&cell, 0, why, sizeof why)) {
        check_skip(why);
        return;
    }
    ik_robot_variable_limits(&cell.chain, lower, upper, limited, NULL);
    for (v = 0; v < 6; ++v) seed[v] = (lower[v] + upper[v]) / 2;
    ik_robot_fk(&cell.chain, q, &goal, NULL);
    ball[0] = cell_box("ball around the goal", goal.translation.x, goal.translation.y, goal.translation.z, 1, 1, 1);
    ball[0].shape = IK_OBSTACLE_SPHERE;
    ball[0].radius = 0.05f;
    job.ik.chain = &cell.chain;
    job.ik.goal_position_bs = goal.translation;
    job.ik.goal_rotation_bs = goal.rotation;
    job.ik.q_seed = seed;
    job.ik.scratch = scratch;
    job.ik.scratch_bytes = sizeof scratch;
    job.model = &cell.model;
    job.obstacles = ball;
    job.obstacle_count = 1;
    job.q_out = out;
    job.reached = &reached;
    job.free = &is_free;
    job.report = &report;
    CHECK(ik_robot_free_ik_run(&job) == IK_OK && reached && !is_free && report.contact_count > 0,
          "no collision-free solution: reached %d free %d contacts %d", reached, is_free, report.contact_count);
    for (k = 0; k < report.contact_count && k < IK_COLLISION_MAX_CONTACTS; ++k) named |= report.contacts[k].other == -1;
    CHECK(named, "a contact names the ball");

    /* Starting in collision: the seed folds the arm into the table. */
    job.obstacles = cell.obstacles;
    job.obstacle_count = cell.obstacle_count;
    {
        ik_real bad_seed[6] = {0, 1.5f, 0, 0, 0, 0};
        ik_bool seed_free = 1;
        ik_robot_collision_free(&cell.model, &cell.chain, bad_seed, cell.obstacles, cell.obstacle_count, 0.01f,
                                &seed_free);
        CHECK(!seed_free, "the seed is in collision");
        uint64_t state = 17;
        ik_bool goal_free = 0;
        job.ik.q_seed = bad_seed;
        while (!goal_free) {
            ik_robot_random_configuration(lower, upper, 6, &state, q);
            ik_robot_collision_free(&cell.model, &cell.chain, q, cell.obstacles, cell.obstacle_count, 0.01f,
                                    &goal_free);
        }
        ik_robot_fk(&cell.chain, q, &goal, NULL);
        job.ik.goal_position_bs = goal.translation;
        job.ik.goal_rotation_bs = goal.rotation;
        CHECK(ik_robot_free_ik_run(&job) == IK_OK && reached && is_free, "from a seed in collision: free answer");
        if (reached && is_free) check_answer(&cell, out, goal, "from a seed in collision");
        job.ik.q_seed = seed;
    }

    /* Bad input. */
    ball[0].pose_bs.translation.x = (ik_real)NAN;
    job.obstacles = ball;
    job.obstacle_count = 1;
    CHECK(ik_robot_free_ik_run(&job) == IK_ERR_NONFINITE, "an obstacle at NaN");
    ball[0].pose_bs.translation.x = 0;
    ball[0].radius = -1;
    CHECK(ik_robot_free_ik_run(&job) == IK_ERR_RANGE, "a negative radius");
    ball[0].radius = 0.1f;
    job.margin = -0.01f;
    CHECK(ik_robot_free_ik_run(&job) == IK_ERR_RANGE, "a negative margin");
    job.margin = (ik_real)NAN;
    CHECK(ik_robot_free_ik_run(&job) == IK_ERR_NONFINITE, "a NaN margin");
    job.margin = 0.01f;
    job.model = NULL;
    CHECK(ik_robot_free_ik_run(&job) == IK_ERR_NULL, "no model");
    job.model = &cell.model;
    job.obstacle_count = IK_COLLISION_MAX_OBSTACLES + 1;
    CHECK(ik_robot_free_ik_run(&job) == IK_ERR_CAPACITY, "too many obstacles, refused before reading them");
    {
        ik_robot_free_ik zero;
        memset(&zero, 0, sizeof zero);
        CHECK(ik_robot_free_ik_run(&zero) == IK_ERR_NOT_DEFAULTED, "a job not from _def()");
    }
    q[0] = (ik_real)NAN;
    CHECK(ik_robot_collision_check(&cell.model, &cell.chain, q, NULL, 0, 0, &report) == IK_ERR_NONFINITE,
          "check at a NaN configuration");
    robot_cell_free(&cell);
}

/* ik_robot_collision_query_free, the check in the shape of a path's
 * config_ok: on each cell it says what ik_robot_collision_free says over
 * random configurations, refuses a NaN, a wrong count and no query; as the
 * config_ok of straight lines between random free configurations, every
 * waypoint written is free by the full check, and a line cut short by it
 * (stop INVALID) gets no further than the same line without it. */
static void test_query_in_paths(void) {
    int which;
    for (which = 0; which < ROBOT_CELL_COUNT; ++which) {
        robot_cell cell;
        char why[800];
        ik_real lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS], q[IK_ROBOT_MAX_JOINTS],
            target[IK_ROBOT_MAX_JOINTS];
        ik_bool limited[IK_ROBOT_MAX_JOINTS];
        static ik_real path[4000 * IK_ROBOT_MAX_JOINTS];
        static char scratch[1 << 16];
        ik_robot_collision_query query;
        uint64_t state = 11;
        int agree = 1, lines = 0, cut = 0, waypoints_free = 1, no_further = 1, i, n;
        if (!robot_cell_load(&cell, which, why, sizeof why)) {
            check_skip(why);
            continue;
        }
        n = cell.chain.variable_count;
        query.model = &cell.model;
        query.chain = &cell.chain;
        query.obstacles = cell.obstacles;
        query.obstacle_count = cell.obstacle_count;
        query.margin = (ik_real)0.01;
        ik_robot_variable_limits(&cell.chain, lower, upper, limited, NULL);
        for (i = 0; i < 200; ++i) {
            ik_bool is_free = 0;
            ik_robot_random_configuration(lower, upper, n, &state, q);
            ik_robot_collision_free(&cell.model, &cell.chain, q, cell.obstacles, cell.obstacle_count, query.margin,
                                    &is_free);
            agree &= ik_robot_collision_query_free(&query, q, n) == (int)is_free;
        }
        CHECK(agree, "%s: the query says what ik_robot_collision_free says", cell.name);
        q[0] = (ik_real)NAN;
        CHECK(ik_robot_collision_query_free(&query, q, n) == 0 &&
                  ik_robot_collision_query_free(&query, target, n + 1) == 0 &&
                  ik_robot_collision_query_free(NULL, target, n) == 0,
              "%s: a NaN, a wrong count and no query are refused", cell.name);
        while (lines < 12) {
            ik_robot_path job = ik_robot_path_def();
            ik_transform goal;
            ik_real fraction = 0, bare_fraction = 0;
            int count = 0, segments = 0, needed = 0, w;
            ik_robot_path_stop stop, bare_stop;
            ik_robot_random_configuration(lower, upper, n, &state, q);
            ik_robot_random_configuration(lower, upper, n, &state, target);
            if (!ik_robot_collision_query_free(&query, q, n) || !ik_robot_collision_query_free(&query, target, n))
                continue;
            ik_robot_fk(&cell.chain, target, &goal, NULL);
            job.chain = &cell.chain;
            job.q_start = q;
            job.goal_position_bs = goal.translation;
            job.goal_rotation_bs = goal.rotation;
            job.max_step = (ik_real)0.005;
            job.max_rotation_step = (ik_real)0.05;
            if (ik_robot_path_waypoint_count(&job, &needed) != IK_OK || needed > 4000) continue;
            ++lines;
            job.scratch = scratch;
            job.scratch_bytes = sizeof scratch;
            job.q_path = path;
            job.max_waypoints = needed;
            job.waypoint_count = &count;
            job.fraction = &bare_fraction;
            job.segments = &segments;
            job.stop = &bare_stop;
            ik_robot_path_run(&job);
            job.config_ok = ik_robot_collision_query_free;
            job.config_user = &query;
            job.fraction = &fraction;
            job.stop = &stop;
            CHECK(ik_robot_path_run(&job) == IK_OK, "%s: the path runs with the query", cell.name);
            for (w = 0; w < count; ++w) {
                ik_robot_collision_report report;
                ik_robot_collision_check(&cell.model, &cell.chain, path + (size_t)w * (size_t)n, cell.obstacles,
                                         cell.obstacle_count, query.margin, &report);
                waypoints_free &= report.free;
            }
            if (stop == IK_ROBOT_PATH_INVALID) {
                ++cut;
                no_further &= fraction <= bare_fraction;
            }
        }
        CHECK(waypoints_free, "%s: every waypoint written with the query is free", cell.name);
        CHECK(no_further, "%s: a line the query cuts gets no further than without it", cell.name);
        printf("%s: %d lines between free configurations, %d cut short by a collision\n", cell.name, lines, cut);
        robot_cell_free(&cell);
    }
}

/* One ctest entry per group (CMake reads one TEST_GROUP a line). */
/* clang-format off */
static const test_group groups[] = {
    TEST_GROUP(distances),
    TEST_GROUP(capsule_pairs),
    TEST_GROUP(fit_real_meshes),
    TEST_GROUP(mesh_paths),
    TEST_GROUP(bad_collisions),
    TEST_GROUP(srdf),
    TEST_GROUP(scenes),
    TEST_GROUP(moveit_scenes),
    TEST_GROUP(free_ik_cells),
    TEST_GROUP(no_solution_and_bad_input),
    TEST_GROUP(query_in_paths),
};
/* clang-format on */

int main(int argc, char **argv) {
    if (!test_groups_run(groups, (int)(sizeof groups / sizeof groups[0]), argc, argv)) return 2;
    return check_summary("test_robot_collision");
}

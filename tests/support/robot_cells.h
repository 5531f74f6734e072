/* Robot cells for the collision tests and bench_robot_cell: the UR5, the
 * Panda and the IRB 2400 from $IKIT_DATA/urdf with their collision models
 * (the UR5's and Panda's fitted to their STL meshes; the IRB 2400's meshes
 * are not in the data, so its links get capsules written here from its
 * joint offsets), pruned, and a cell of obstacles around each: a table
 * under the arm, a wall behind it, a post, a shelf of two boards between two
 * side panels in front, and a ball, scaled to the arm's reach. */
#ifndef IKIT_TEST_ROBOT_CELLS_H
#define IKIT_TEST_ROBOT_CELLS_H

#include <ikit/robot_collision.h>
#include <ikit/urdf.h>
#include <ikit/urdf_collision.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ROBOT_CELL_COUNT 3
#define ROBOT_CELL_MAX_OBSTACLES 16

typedef struct robot_cell {
    const char *name, *file, *base, *tip;
    ik_urdf *urdf;
    ik_robot_chain chain;
    int variable_joints[IK_ROBOT_MAX_JOINTS];
    ik_robot_collision_model model;
    ik_obstacle obstacles[ROBOT_CELL_MAX_OBSTACLES];
    int obstacle_count;
    int from_meshes; /* 1: capsules fitted to the URDF's meshes */
    char urdf_dir[512], package[600];
} robot_cell;

/* $IKIT_DATA/urdf, or NULL when absent. */
static inline const char *robot_cells_dir(void) {
    static char dir[512];
    const char *data = getenv("IKIT_DATA");
    snprintf(dir, sizeof dir, "%s/urdf", data ? data : "../shared/data");
    return access(dir, R_OK) == 0 ? dir : NULL;
}

static inline ik_obstacle cell_box(const char *name, double x, double y, double z, double sx, double sy, double sz) {
    ik_obstacle o;
    memset(&o, 0, sizeof o);
    o.shape = IK_OBSTACLE_BOX;
    o.name = name;
    o.pose_bs = ik_transform_identity();
    o.pose_bs.translation = ik_v3((ik_real)x, (ik_real)y, (ik_real)z);
    o.half_extents = ik_v3((ik_real)(sx / 2), (ik_real)(sy / 2), (ik_real)(sz / 2));
    return o;
}

/* The cell around an arm of reach factor s (1 for the UR5 and Panda). The
 * table's top is 9 cm below the base frame (the bases' capsules reach 7-8
 * cm below it). */
static inline int robot_cell_obstacles(ik_obstacle *o, double s) {
    int n = 0;
    o[n++] = cell_box("table", 0, 0, -0.09 - 0.02, 3, 3, 0.04);
    o[n++] = cell_box("wall", -0.55 * s, 0, 0.9 * s, 0.04, 3, 2 * s);
    o[n] = cell_box("post", 0.35 * s, -0.45 * s, 0.5 * s, 1, 1, 1);
    o[n].shape = IK_OBSTACLE_CYLINDER;
    o[n].radius = (ik_real)(0.04 * s);
    o[n++].half_length = (ik_real)(0.6 * s);
    o[n++] = cell_box("shelf board low", 0.65 * s, 0.25 * s, 0.15 * s, 0.3 * s, 0.8 * s, 0.02);
    o[n++] = cell_box("shelf board high", 0.65 * s, 0.25 * s, 0.5 * s, 0.3 * s, 0.8 * s, 0.02);
    o[n++] = cell_box("shelf side left", 0.65 * s, -0.15 * s, 0.2 * s, 0.3 * s, 0.02, 0.6 * s);
    o[n++] = cell_box("shelf side right", 0.65 * s, 0.65 * s, 0.2 * s, 0.3 * s, 0.02, 0.6 * s);
    o[n] = cell_box("ball", 0.3 * s, 0.4 * s, 0.7 * s, 1, 1, 1);
    o[n].shape = IK_OBSTACLE_SPHERE;
    o[n++].radius = (ik_real)(0.06 * s);
    return n;
}

static inline ik_capsule cell_capsule(double ax, double ay, double az, double bx, double by, double bz, double r) {
    ik_capsule c;
    c.a = ik_v3((ik_real)ax, (ik_real)ay, (ik_real)az);
    c.b = ik_v3((ik_real)bx, (ik_real)by, (ik_real)bz);
    c.radius = (ik_real)r;
    return c;
}

/* The IRB 2400's links (no meshes in the data): one capsule each, along
 * its joint offsets (joint 2 at 0.1 0 0.615, joint 3 0.705 above, joint 4
 * at 0.258 0 0.135, joint 5 0.497 along x, joint 6 0.085 further), with
 * radii of the real arm's castings. */
static inline ik_result robot_cell_irb_capsules(robot_cell *cell) {
    static const char *const names[7] = {"base_link", "link_1", "link_2", "link_3", "link_4", "link_5", "link_6"};
    const ik_capsule caps[7] = {
        cell_capsule(0, 0, 0.13, 0, 0, 0.28, 0.2),   cell_capsule(0, 0, 0.38, 0.1, 0, 0.615, 0.17),
        cell_capsule(0, 0, 0, 0, 0, 0.705, 0.11),    cell_capsule(0, 0, 0, 0.2, 0, 0.135, 0.11),
        cell_capsule(0.05, 0, 0, 0.42, 0, 0, 0.075), cell_capsule(0, 0, 0, 0.04, 0, 0, 0.06),
        cell_capsule(0, 0, 0, 0.02, 0, 0, 0.045)};
    int k, index;
    ik_result r = IK_OK;
    ik_robot_collision_model_init(&cell->model);
    for (k = 0; k < 7 && r == IK_OK; ++k) {
        r = ik_robot_collision_add_link(&cell->model, names[k], k - 1, k - 1, &index);
        if (r == IK_OK) r = ik_robot_collision_add_capsule(&cell->model, index, caps[k]);
    }
    return r;
}

/* Loads cell `which` (0 UR5, 1 Panda, 2 IRB 2400); 0 with a message in why
 * when the data is absent or a step fails. Prunes self-collision pairs with
 * a 2 cm clearance over 2000 samples. */
static inline int robot_cell_load(robot_cell *cell, int which, char *why, size_t why_size) {
    static const char *const names[3] = {"UR5", "Panda", "IRB 2400"};
    static const char *const files[3] = {"ur5_joint_limited_robot.urdf", "panda.urdf", "abb_irb2400.urdf"};
    static const char *const bases[3] = {"base_link", "panda_link0", "base_link"};
    static const char *const tips[3] = {"tool0", "panda_link8", "tool0"};
    const char *dir = robot_cells_dir();
    const char *packages[1];
    ik_mesh_paths paths;
    char path[700];
    ik_error err;
    ik_result r;
    memset(cell, 0, sizeof *cell);
    cell->name = names[which];
    cell->file = files[which];
    cell->base = bases[which];
    cell->tip = tips[which];
    if (!dir) {
        snprintf(why, why_size, "no $IKIT_DATA/urdf");
        return 0;
    }
    snprintf(cell->urdf_dir, sizeof cell->urdf_dir, "%s", dir);
    snprintf(cell->package, sizeof cell->package, "example-robot-data=%s/example-robot-data", dir);
    snprintf(path, sizeof path, "%s/%s", dir, files[which]);
    r = ik_urdf_read_file(path, &cell->urdf, &err);
    if (r == IK_OK)
        r = ik_urdf_robot_chain(cell->urdf, cell->base, cell->tip, &cell->chain, cell->variable_joints, &err);
    if (r == IK_OK && which < 2) {
        packages[0] = cell->package;
        paths.urdf_dir = cell->urdf_dir;
        paths.packages = packages;
        paths.package_count = 1;
        r = ik_urdf_collision_model(cell->urdf, cell->base, cell->tip, &paths, &cell->model, NULL, &err);
        cell->from_meshes = 1;
    } else if (r == IK_OK) {
        r = robot_cell_irb_capsules(cell);
        err.message[0] = 0;
    }
    if (r == IK_OK) r = ik_robot_collision_prune(&cell->model, &cell->chain, NULL, 2000, 7, (ik_real)0.02);
    if (r != IK_OK) {
        snprintf(why, why_size, "%s: %s (%s)", path, ik_result_str(r), err.message);
        ik_urdf_free(cell->urdf);
        cell->urdf = NULL;
        return 0;
    }
    cell->obstacle_count = robot_cell_obstacles(cell->obstacles, which == 2 ? 1.8 : 1.0);
    return 1;
}

static inline void robot_cell_free(robot_cell *cell) {
    ik_urdf_free(cell->urdf);
    cell->urdf = NULL;
}

#endif

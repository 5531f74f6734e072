/* A cell around the playground's robot arm: a table under it, a wall behind
 * it, a post and a ball beside it, sized from the arm's reach (the sum of
 * its joint offsets), and a collision model of the arm: one capsule round
 * each drawn link (the segment from a link frame's origin to the next joint's
 * origin, IKW_CELL_RADIUS thick), since the page has no meshes. With the
 * cell on, the dragged goal is solved by the collision-free pose IK
 * (ik_robot_free_ik_run) and every configuration drawn is checked
 * (ik_robot_collision_check): whether it is free, the clearance, the
 * contact pairs, and which capsules are in contact (drawn red). The obstacles
 * are made here from numbers: the scene reader of the io layer is on cJSON,
 * which the wasm build does not carry. */
#include <ikit/robot_collision.h>
#include <ikit/robot_free_ik.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ikit_web.h"

#define IKW_CELL_RADIUS 0.035
#define IKW_CELL_MARGIN 0.01
enum { IKW_CELL_OBSTACLES = 4, IKW_CELL_CANDIDATES = 24, IKW_CELL_RESTART_ITERATIONS = 150 };

static const char *const obstacle_names[IKW_CELL_OBSTACLES] = {"table", "wall", "post", "ball"};

static struct {
    int on;
    const ik_robot_chain *chain; /* the arm's, owned by robot_arm.c */
    ik_robot_collision_model model;
    char link_names[IK_COLLISION_MAX_LINKS][40]; /* the URDF's link names, cut to fit */
    ik_obstacle obstacles[IKW_CELL_OBSTACLES];
    ik_robot_collision_report report;
    int checked, candidates;
    float obstacle_data[11 * IKW_CELL_OBSTACLES];        /* shape, x y z qx qy qz qw, sizes (3) */
    float capsule_data[8 * IK_COLLISION_MAX_CAPSULES];   /* a xyz, b xyz, radius, in contact; base frame */
    char contacts[IK_COLLISION_MAX_CONTACTS * 100 + 16]; /* "forearm-table -0.012 m; ..." */
    char closest[100];                                   /* the pair giving the clearance */
} cell;

static ik_obstacle make_obstacle(ik_obstacle_shape shape, int k, ik_real x, ik_real y, ik_real z) {
    ik_obstacle o;
    memset(&o, 0, sizeof o);
    o.shape = shape;
    o.name = obstacle_names[k];
    o.pose_bs = ik_transform_identity();
    o.pose_bs.translation = ik_v3(x, y, z);
    return o;
}

/* The model of `chain` (one link per chain frame with a segment; frame k's
 * name in frame_names[k + 1], k = -1 the base, NULL: "link k"), the
 * obstacles placed from its reach, the pairs pruned. Called whenever a
 * chain is loaded (robot_arm.c), cell on or off. */
ik_result ikw_cell_build(const ik_robot_chain *chain, const char *const *frame_names) {
    ik_real reach = 0;
    int k, link, frame_link[IK_ROBOT_MAX_JOINTS + 1];
    ik_result r = IK_OK;
    cell.chain = chain;
    cell.checked = 0;
    ik_robot_collision_model_init(&cell.model);
    for (k = 0; k <= chain->joint_count; ++k) frame_link[k] = -1;
    /* Joint k's offset is drawn in the frame of its parent link: chain frame k - 1 (-1: the base). */
    for (k = 0; k < chain->joint_count && r == IK_OK; ++k) {
        ik_vec3 d = chain->joints[k].origin.translation;
        ik_real length = ik_vec3_length(d);
        ik_capsule c;
        reach += length;
        if (length < (ik_real)1e-4) continue;
        if (frame_names && frame_names[k])
            snprintf(cell.link_names[cell.model.link_count], sizeof cell.link_names[0], "%s", frame_names[k]);
        else
            snprintf(cell.link_names[cell.model.link_count], sizeof cell.link_names[0], "link %d", k - 1);
        {
            int parent = -1, j;
            for (j = k - 1; j >= 0 && parent < 0; --j) parent = frame_link[j];
            r = ik_robot_collision_add_link(&cell.model, cell.link_names[cell.model.link_count], k - 1, parent, &link);
        }
        if (r != IK_OK) break;
        frame_link[k] = link;
        c.a = ik_v3(0, 0, 0);
        c.b = d;
        c.radius = (ik_real)IKW_CELL_RADIUS;
        r = ik_robot_collision_add_capsule(&cell.model, link, c);
    }
    if (r == IK_OK) r = ik_robot_collision_prune(&cell.model, chain, NULL, 0, 0, (ik_real)IKW_CELL_MARGIN);
    if (reach < (ik_real)0.1) reach = (ik_real)0.1;
    /* A table whose top is the base's plane (the base's link may touch it), a wall behind, a post and a ball in front.
     */
    cell.obstacles[0] = make_obstacle(IK_OBSTACLE_BOX, 0, 0, 0, (ik_real)-0.02);
    cell.obstacles[0].half_extents = ik_v3((ik_real)0.75 * reach, (ik_real)0.75 * reach, (ik_real)0.02);
    if (cell.model.link_count > 0 && cell.model.link_frame[0] == -1) cell.obstacles[0].touching = 1;
    cell.obstacles[1] = make_obstacle(IK_OBSTACLE_BOX, 1, (ik_real)-0.45 * reach, 0, (ik_real)0.5 * reach);
    cell.obstacles[1].half_extents = ik_v3((ik_real)0.02, (ik_real)0.75 * reach, (ik_real)0.5 * reach);
    cell.obstacles[2] =
        make_obstacle(IK_OBSTACLE_CYLINDER, 2, (ik_real)0.3 * reach, (ik_real)-0.35 * reach, (ik_real)0.45 * reach);
    cell.obstacles[2].radius = (ik_real)0.03 * reach;
    cell.obstacles[2].half_length = (ik_real)0.45 * reach;
    cell.obstacles[3] =
        make_obstacle(IK_OBSTACLE_SPHERE, 3, (ik_real)0.35 * reach, (ik_real)0.35 * reach, (ik_real)0.5 * reach);
    cell.obstacles[3].radius = (ik_real)0.05 * reach;
    for (k = 0; k < IKW_CELL_OBSTACLES; ++k) {
        const ik_obstacle *o = &cell.obstacles[k];
        float *f = &cell.obstacle_data[11 * k];
        f[0] = (float)o->shape;
        f[1] = (float)o->pose_bs.translation.x, f[2] = (float)o->pose_bs.translation.y;
        f[3] = (float)o->pose_bs.translation.z;
        f[4] = (float)o->pose_bs.rotation.x, f[5] = (float)o->pose_bs.rotation.y, f[6] = (float)o->pose_bs.rotation.z;
        f[7] = (float)o->pose_bs.rotation.w;
        /* Full sizes: a box's three, a sphere's radius, a cylinder's radius and length. */
        f[8] = (float)(o->shape == IK_OBSTACLE_BOX ? 2 * o->half_extents.x : o->radius);
        f[9] = (float)(o->shape == IK_OBSTACLE_BOX ? 2 * o->half_extents.y : 2 * o->half_length);
        f[10] = (float)(o->shape == IK_OBSTACLE_BOX ? 2 * o->half_extents.z : 0);
    }
    if (r != IK_OK) cell.model.link_count = 0;
    return r;
}

int ikw_cell_is_on(void) { return cell.on && cell.chain && cell.model.link_count > 0; }

/* The collision-free pose IK for `job` (the page's pose IK job, its q_out
 * the arm's configuration). */
ik_result ikw_cell_solve(const ik_robot_ik *job, ik_bool *reached) {
    ik_robot_free_ik free_job = ik_robot_free_ik_def();
    ik_bool is_free = 0;
    free_job.ik = *job;
    free_job.model = &cell.model;
    free_job.obstacles = cell.obstacles;
    free_job.obstacle_count = IKW_CELL_OBSTACLES;
    free_job.margin = (ik_real)IKW_CELL_MARGIN;
    free_job.max_candidates = IKW_CELL_CANDIDATES;
    free_job.restart_iterations = IKW_CELL_RESTART_ITERATIONS;
    free_job.q_out = job->q_out;
    free_job.reached = reached;
    free_job.free = &is_free;
    free_job.candidates = &cell.candidates;
    return ik_robot_free_ik_run(&free_job);
}

static void write_pair(char *out, size_t size, const ik_collision_pair *p) {
    const char *other = p->other >= 0 ? cell.model.link_names[p->other] : cell.obstacles[-1 - p->other].name;
    snprintf(out, size, "%s-%s %.3f m", cell.model.link_names[p->link], other, p->distance);
}

/* The check of configuration q (frames: the chain's links in the base frame,
 * links_bs[k] the child of joint k) and the capsules placed for drawing. */
ik_result ikw_cell_check(const ik_real *q, const ik_transform *links_bs) {
    int c, k;
    size_t used = 0;
    ik_result r;
    cell.checked = 0;
    cell.contacts[0] = '\0';
    if (!ikw_cell_is_on()) return IK_OK;
    r = ik_robot_collision_check(&cell.model, cell.chain, q, cell.obstacles, IKW_CELL_OBSTACLES,
                                 (ik_real)IKW_CELL_MARGIN, &cell.report);
    if (r != IK_OK) return r;
    cell.checked = 1;
    cell.closest[0] = '\0';
    if (cell.report.clearance < 1e29) write_pair(cell.closest, sizeof cell.closest, &cell.report.closest);
    for (c = 0; c < cell.model.capsule_count; ++c) {
        int link = cell.model.capsule_link[c], frame = cell.model.link_frame[link];
        ik_transform t = frame < 0 ? ik_transform_identity() : links_bs[frame];
        ik_vec3 a = ik_transform_point(t, cell.model.capsules[c].a),
                b = ik_transform_point(t, cell.model.capsules[c].b);
        float *f = &cell.capsule_data[8 * c];
        f[0] = (float)a.x, f[1] = (float)a.y, f[2] = (float)a.z;
        f[3] = (float)b.x, f[4] = (float)b.y, f[5] = (float)b.z;
        f[6] = (float)cell.model.capsules[c].radius;
        f[7] = cell.report.link_clearance[link] < IKW_CELL_MARGIN ? 1.0f : 0.0f;
    }
    for (k = 0; k < cell.report.contact_count && used + 100 < sizeof cell.contacts; ++k) {
        if (k > 0) used += (size_t)snprintf(cell.contacts + used, sizeof cell.contacts - used, "; ");
        write_pair(cell.contacts + used, sizeof cell.contacts - used, &cell.report.contacts[k]);
        used = strlen(cell.contacts);
    }
    return IK_OK;
}

/* The page's switch: 1 on, 0 off; returns the obstacle count (0 when off or
 * when the arm has no link to model). */
IKW_EXPORT(ikw_robot_cell) int ikw_robot_cell(int on) {
    cell.on = on != 0;
    cell.checked = 0;
    return ikw_cell_is_on() ? IKW_CELL_OBSTACLES : 0;
}
IKW_EXPORT(ikw_robot_cell_obstacles) const float *ikw_robot_cell_obstacles(void) { return cell.obstacle_data; }
IKW_EXPORT(ikw_robot_cell_obstacle_name) const char *ikw_robot_cell_obstacle_name(int k) {
    return k >= 0 && k < IKW_CELL_OBSTACLES ? obstacle_names[k] : "";
}
IKW_EXPORT(ikw_robot_cell_capsule_count) int ikw_robot_cell_capsule_count(void) {
    return cell.checked ? cell.model.capsule_count : 0;
}
IKW_EXPORT(ikw_robot_cell_capsules) const float *ikw_robot_cell_capsules(void) { return cell.capsule_data; }
/* 1 free, 0 in contact, -1 not checked (the cell off). */
IKW_EXPORT(ikw_robot_cell_free) int ikw_robot_cell_free(void) { return cell.checked ? cell.report.free != 0 : -1; }
IKW_EXPORT(ikw_robot_cell_clearance) float ikw_robot_cell_clearance(void) {
    return cell.checked ? (float)cell.report.clearance : NAN;
}
IKW_EXPORT(ikw_robot_cell_contact_count) int ikw_robot_cell_contact_count(void) {
    return cell.checked ? cell.report.contact_count : 0;
}
IKW_EXPORT(ikw_robot_cell_contacts) const char *ikw_robot_cell_contacts(void) { return cell.contacts; }
IKW_EXPORT(ikw_robot_cell_closest) const char *ikw_robot_cell_closest(void) { return cell.checked ? cell.closest : ""; }
IKW_EXPORT(ikw_robot_cell_candidates) int ikw_robot_cell_candidates(void) { return cell.candidates; }
IKW_EXPORT(ikw_robot_cell_margin) float ikw_robot_cell_margin(void) { return (float)IKW_CELL_MARGIN; }

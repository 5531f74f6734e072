// An independent check of ikit's collision checks (issue 29): every
// configuration the library calls free, with a margin, must keep the TRUE
// geometry (the UR5's and Panda's collision meshes as triangles, the URDF's
// boxes; the IRB 2400's hand-written capsules) at least the margin from the
// cell's obstacles and between the tested link pairs, by the Flexible
// Collision Library's exact distances (Debian's libfcl-dev, Pan, Chitta and
// Manocha, ICRA 2012). Nothing here uses ikit's geometry: the meshes are
// read by a small binary STL reader of this file, link poses come from the
// URDF's joints multiplied here in double (Eigen), and the distances are
// FCL's. From ikit it takes the URDF's parsed joints and collision elements,
// the random configurations, the library's free/not-free answers, and the
// collision-free IK's answers on goals reached by free configurations.
//
// Built only where CMake finds fcl (a test-only C++ program; ctest entries
// test_robot_collision_fcl.ur5, .panda and .irb2400, the argument naming the
// arm; all three without one); skipped without $IKIT_DATA.
#include <fcl/fcl.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include <ikit/robot_free_ik.h>
#include "support/robot_cells.h"
}

typedef fcl::CollisionGeometryd geometry;

static int failures = 0, checks = 0;

// Binary STL: 80-byte header, uint32 count, 50-byte records (this test's own reader).
static std::shared_ptr<geometry> read_mesh(const std::string &path, const Eigen::Vector3d &scale,
                                           const Eigen::Isometry3d &origin) {
    std::ifstream in(path, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.size() < 84) return nullptr;
    uint32_t count;
    std::memcpy(&count, &bytes[80], 4);
    if (bytes.size() != 84 + 50ull * count) return nullptr;
    auto model = std::make_shared<fcl::BVHModel<fcl::OBBRSSd>>();
    model->beginModel();
    for (uint32_t t = 0; t < count; ++t) {
        Eigen::Vector3d v[3];
        for (int c = 0; c < 3; ++c) {
            float f[3];
            std::memcpy(f, &bytes[84 + 50ull * t + 12 + 12 * c], 12);
            v[c] = origin * Eigen::Vector3d(f[0] * scale.x(), f[1] * scale.y(), f[2] * scale.z());
        }
        model->addTriangle(v[0], v[1], v[2]);
    }
    model->endModel();
    return model;
}

static Eigen::Isometry3d iso(const ik_transform &t) {
    Eigen::Isometry3d m = Eigen::Isometry3d::Identity();
    Eigen::Quaterniond q(t.rotation.w, t.rotation.x, t.rotation.y, t.rotation.z);
    m.linear() = q.normalized().toRotationMatrix();
    m.translation() = Eigen::Vector3d(t.translation.x, t.translation.y, t.translation.z);
    return m;
}

struct part {
    int model_link;                   // index in the library's model
    std::shared_ptr<geometry> shape;  // in the link's frame (origin applied for meshes)
    Eigen::Isometry3d in_link;        // the shape's frame in the link's frame
};

struct truth {
    std::vector<part> parts;
    std::vector<int> urdf_link;  // per model link: the URDF link (-1 for the IRB's hand-written capsules)
    std::vector<std::shared_ptr<geometry>> obstacles;
    std::vector<Eigen::Isometry3d> obstacle_pose;
};

static void build_truth(const robot_cell &cell, truth &t) {
    const ik_urdf *u = cell.urdf;
    t.urdf_link.assign(cell.model.link_count, -1);
    for (int l = 0; l < cell.model.link_count; ++l)
        for (int k = 0; k < u->link_count; ++k)
            if (std::strcmp(u->links[k].name, cell.model.link_names[l]) == 0) t.urdf_link[l] = k;
    if (cell.from_meshes) {
        for (int c = 0; c < u->collision_count; ++c) {
            const ik_urdf_collision &col = u->collisions[c];
            int l = -1;
            for (int m = 0; m < cell.model.link_count; ++m)
                if (t.urdf_link[m] == col.link) l = m;
            if (l < 0) continue;
            part p;
            p.model_link = l;
            p.in_link = iso(col.origin);
            if (col.geometry == IK_URDF_GEOMETRY_MESH) {
                std::string name = col.mesh_filename;
                const std::string prefix = "package://example-robot-data/";
                std::string file = std::string(cell.urdf_dir) + "/example-robot-data/" + name.substr(prefix.size());
                p.shape = read_mesh(file, Eigen::Vector3d(col.size[0], col.size[1], col.size[2]), p.in_link);
                p.in_link = Eigen::Isometry3d::Identity();
                if (!p.shape) {
                    std::printf("FAIL cannot read %s\n", file.c_str());
                    ++failures;
                    continue;
                }
            } else if (col.geometry == IK_URDF_GEOMETRY_BOX) {
                p.shape = std::make_shared<fcl::Boxd>(col.size[0], col.size[1], col.size[2]);
            } else if (col.geometry == IK_URDF_GEOMETRY_CYLINDER) {
                p.shape = std::make_shared<fcl::Cylinderd>(col.size[0], col.size[1]);
            } else if (col.geometry == IK_URDF_GEOMETRY_SPHERE) {
                p.shape = std::make_shared<fcl::Sphered>(col.size[0]);
            } else {
                continue;
            }
            t.parts.push_back(p);
        }
    } else {
        // The IRB 2400: its capsules are its geometry; FCL's capsule is along z, centred.
        for (int k = 0; k < cell.model.capsule_count; ++k) {
            const ik_capsule &c = cell.model.capsules[k];
            Eigen::Vector3d a(c.a.x, c.a.y, c.a.z), b(c.b.x, c.b.y, c.b.z), d = b - a;
            part p;
            p.model_link = cell.model.capsule_link[k];
            p.in_link = Eigen::Isometry3d::Identity();
            p.in_link.translation() = 0.5 * (a + b);
            if (d.norm() > 0) p.in_link.linear() = Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), d).toRotationMatrix();
            p.shape = std::make_shared<fcl::Capsuled>(c.radius, d.norm());
            t.parts.push_back(p);
        }
    }
    for (int o = 0; o < cell.obstacle_count; ++o) {
        const ik_obstacle &ob = cell.obstacles[o];
        if (ob.shape == IK_OBSTACLE_BOX)
            t.obstacles.push_back(std::make_shared<fcl::Boxd>(2.0 * ob.half_extents.x, 2.0 * ob.half_extents.y,
                                                               2.0 * ob.half_extents.z));
        else if (ob.shape == IK_OBSTACLE_SPHERE)
            t.obstacles.push_back(std::make_shared<fcl::Sphered>(ob.radius));
        else
            t.obstacles.push_back(std::make_shared<fcl::Cylinderd>(ob.radius, 2.0 * ob.half_length));
        t.obstacle_pose.push_back(iso(ob.pose_bs));
    }
}

// Every link's pose in the base frame: the URDF's joints multiplied from the
// base down, chain joints at q, others at the value nearest 0 in their limits.
static std::vector<Eigen::Isometry3d> link_poses(const robot_cell &cell, const ik_real *q) {
    const ik_urdf *u = cell.urdf;
    std::vector<double> value(u->joint_count, 0.0);
    std::vector<int> in_chain(u->joint_count, 0);
    for (int j = 0; j < u->joint_count; ++j) {
        const ik_urdf_joint &J = u->joints[j];
        if (J.type == IK_ROBOT_REVOLUTE || J.type == IK_ROBOT_PRISMATIC)
            value[j] = J.lower > 0 ? J.lower : (J.upper < 0 ? J.upper : 0);
    }
    for (int v = 0; v < cell.chain.variable_count; ++v) value[cell.variable_joints[v]] = q[v];
    int base = -1;
    for (int k = 0; k < u->link_count; ++k)
        if (std::strcmp(u->links[k].name, cell.base) == 0) base = k;
    std::vector<Eigen::Isometry3d> pose(u->link_count, Eigen::Isometry3d::Identity());
    for (int k = 0; k < u->link_count; ++k) {
        Eigen::Isometry3d m = Eigen::Isometry3d::Identity();
        int link = k;
        while (link != base && u->links[link].parent_joint >= 0) {
            const ik_urdf_joint &J = u->joints[u->links[link].parent_joint];
            Eigen::Isometry3d motion = Eigen::Isometry3d::Identity();
            Eigen::Vector3d axis(J.axis.x, J.axis.y, J.axis.z);
            double x = value[u->links[link].parent_joint];
            if (J.type == IK_ROBOT_REVOLUTE || J.type == IK_ROBOT_CONTINUOUS)
                motion.linear() = Eigen::AngleAxisd(x, axis).toRotationMatrix();
            else if (J.type == IK_ROBOT_PRISMATIC)
                motion.translation() = x * axis;
            m = iso(J.origin) * motion * m;
            link = J.parent_link;
        }
        pose[k] = m;
    }
    return pose;
}

// The IRB's capsules hang from the chain's frames: FK of the chain.
static std::vector<Eigen::Isometry3d> frame_poses(const robot_cell &cell, const ik_real *q) {
    std::vector<ik_transform> links(cell.chain.joint_count);
    ik_transform tip;
    ik_robot_fk(&cell.chain, q, &tip, links.data());
    std::vector<Eigen::Isometry3d> out(cell.model.link_count);
    for (int l = 0; l < cell.model.link_count; ++l)
        out[l] = cell.model.link_frame[l] < 0 ? Eigen::Isometry3d::Identity() : iso(links[cell.model.link_frame[l]]);
    return out;
}

static double fcl_distance(const std::shared_ptr<geometry> &a, const Eigen::Isometry3d &pa,
                           const std::shared_ptr<geometry> &b, const Eigen::Isometry3d &pb) {
    fcl::CollisionObjectd oa(a, pa), ob(b, pb);
    fcl::DistanceRequestd request;
    fcl::DistanceResultd result;
    request.gjk_solver_type = fcl::GST_INDEP;
    fcl::distance(&oa, &ob, request, result);
    return result.min_distance;
}

// The smallest true distance over obstacles and tested pairs at q; the pair named in *what. With
// never_pairs, the smallest over the pairs pruned as never touching instead (what sampling left out).
static double true_clearance(const robot_cell &cell, const truth &t, const ik_real *q, std::string *what,
                             bool never_pairs = false) {
    std::vector<Eigen::Isometry3d> pose;
    if (cell.from_meshes) {
        std::vector<Eigen::Isometry3d> all = link_poses(cell, q);
        pose.resize(cell.model.link_count);
        for (int l = 0; l < cell.model.link_count; ++l) pose[l] = all[t.urdf_link[l]];
    } else {
        pose = frame_poses(cell, q);
    }
    double best = 1e30;
    for (size_t i = 0; i < t.parts.size(); ++i) {
        const part &p = t.parts[i];
        Eigen::Isometry3d pp = pose[p.model_link] * p.in_link;
        for (size_t o = 0; o < t.obstacles.size() && !never_pairs; ++o) {
            double d = fcl_distance(p.shape, pp, t.obstacles[o], t.obstacle_pose[o]);
            if (d < best) {
                best = d;
                *what = std::string(cell.model.link_names[p.model_link]) + " - " + cell.obstacles[o].name;
            }
        }
        for (size_t j = i + 1; j < t.parts.size(); ++j) {
            const part &p2 = t.parts[j];
            if (cell.model.pair_state[p.model_link][p2.model_link] != (never_pairs ? IK_PAIR_NEVER : IK_PAIR_CHECKED))
                continue;
            double d = fcl_distance(p.shape, pp, p2.shape, pose[p2.model_link] * p2.in_link);
            if (d < best) {
                best = d;
                *what = std::string(cell.model.link_names[p.model_link]) + " - " + cell.model.link_names[p2.model_link];
            }
        }
    }
    return best;
}

int main(int argc, char **argv) {
    const double margin = 0.01;
    static const char *const arms[ROBOT_CELL_COUNT] = {"ur5", "panda", "irb2400"};
    const char *dir = robot_cells_dir();
    if (!dir) {
        std::printf("SKIP test_robot_collision_fcl: no $IKIT_DATA/urdf\n");
        return 0;
    }
    for (int which = 0; which < ROBOT_CELL_COUNT; ++which) {
        robot_cell cell;
        char why[800];
        if (argc > 1 && std::strcmp(argv[1], arms[which]) != 0) continue;
        if (!robot_cell_load(&cell, which, why, sizeof why)) {
            std::printf("FAIL %s\n", why);
            ++failures;
            continue;
        }
        truth t;
        build_truth(cell, t);
        ik_real lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS], q[IK_ROBOT_MAX_JOINTS], seed[IK_ROBOT_MAX_JOINTS];
        ik_bool limited[IK_ROBOT_MAX_JOINTS];
        ik_robot_variable_limits(&cell.chain, lower, upper, limited, NULL);
        for (int v = 0; v < cell.chain.variable_count; ++v) seed[v] = (lower[v] + upper[v]) / 2;
        std::vector<char> scratch(ik_robot_ik_scratch_size(cell.chain.variable_count) + 64);
        uint64_t state = 99 + which;
        int free_count = 0, ik_count = 0, blocked_true = 0, blocked_sampled = 0, failures_before = failures, never_close = 0;
        std::string never_what;
        double slack_sum = 0, worst_slack = 1e30;
        for (int s = 0; s < 160; ++s) {
            ik_bool is_free = 0;
            ik_robot_random_configuration(lower, upper, cell.chain.variable_count, &state, q);
            ik_robot_collision_free(&cell.model, &cell.chain, q, cell.obstacles, cell.obstacle_count, (ik_real)margin,
                                    &is_free);
            if (!is_free) {
                std::string what;
                if (s % 4 == 0) {
                    ++blocked_sampled;
                    blocked_true += true_clearance(cell, t, q, &what) < margin;
                }
                continue;
            }
            ++free_count;
            std::string what;
            double d = true_clearance(cell, t, q, &what);
            ++checks;
            if (d < margin - 1e-7) {
                ++failures;
                std::printf("FAIL %s: configuration %d called free, but %s are %.6f m apart (margin %.3f)\n", cell.name,
                            s, what.c_str(), d, margin);
            }
            ik_robot_collision_report report;
            ik_robot_collision_check(&cell.model, &cell.chain, q, cell.obstacles, cell.obstacle_count, (ik_real)margin,
                                     &report);
            if (report.clearance > d + 1e-7) {
                ++failures;
                std::printf("FAIL %s: library clearance %.6f above the true %.6f (%s)\n", cell.name,
                            report.clearance, d, what.c_str());
            }
            slack_sum += d - report.clearance;
            if (true_clearance(cell, t, q, &what, true) < margin) {
                ++never_close;
                never_what = what;
            }
            if (d - report.clearance < worst_slack) worst_slack = d - report.clearance;
            // The collision-free IK on the goal this free configuration reaches.
            if (s % 2 == 0) {
                ik_transform goal;
                ik_real out[IK_ROBOT_MAX_JOINTS];
                ik_bool reached = 0, ok_free = 0;
                ik_robot_fk(&cell.chain, q, &goal, NULL);
                ik_robot_free_ik job = ik_robot_free_ik_def();
                job.ik.chain = &cell.chain;
                job.ik.goal_position_bs = goal.translation;
                job.ik.goal_rotation_bs = goal.rotation;
                job.ik.q_seed = seed;
                job.ik.scratch = scratch.data();
                job.ik.scratch_bytes = scratch.size();
                job.model = &cell.model;
                job.obstacles = cell.obstacles;
                job.obstacle_count = cell.obstacle_count;
                job.margin = (ik_real)margin;
                job.q_out = out;
                job.reached = &reached;
                job.free = &ok_free;
                if (ik_robot_free_ik_run(&job) == IK_OK && reached && ok_free) {
                    ++ik_count;
                    ++checks;
                    double d2 = true_clearance(cell, t, out, &what);
                    if (d2 < margin - 1e-7) {
                        ++failures;
                        std::printf("FAIL %s: IK answer called free, but %s are %.6f m apart\n", cell.name,
                                    what.c_str(), d2);
                    }
                }
            }
        }
        std::printf("%-9s %d configurations called free and %d collision-free IK answers checked by FCL against the "
                    "%s: %d failed; the library's clearance (capsules and boxes) is below the true one by %.4f m on average (at least "
                    "%.2g); of %d configurations called not free, %d are truly closer than the margin\n",
                    cell.name, free_count, ik_count, cell.from_meshes ? "meshes" : "capsules",
                    failures - failures_before, free_count ? slack_sum / free_count : 0.0, worst_slack,
                    blocked_sampled, blocked_true);
        // The pairs pruned as never touching (2000 samples, 2 cm of the bounds) are not the
        // library's claim but MoveIt's practice: reported, not failed.
        std::printf("          pairs pruned as never touching: truly closer than the margin in %d of the %d free "
                    "configurations%s%s\n",
                    never_close, free_count, never_close ? ", e.g. " : "", never_what.c_str());
        robot_cell_free(&cell);
    }
    std::printf("test_robot_collision_fcl: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}

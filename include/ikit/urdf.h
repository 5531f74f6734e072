/* ikit io: URDF robot descriptions (the ROS Unified Robot Description
 * Format, XML), read into a tree of links and joints.
 *
 * What is read: the top-level <link name> and <joint name type> elements
 * of <robot>; in a joint, <origin xyz rpy> (default zero), <parent link>,
 * <child link> (both required), <axis xyz> (default 1 0 0, normalised; a
 * zero axis is refused), <limit lower upper velocity effort> (required for
 * revolute and prismatic joints; missing attributes are 0, as urdfdom
 * reads them, so a <limit> with neither lower nor upper holds the joint at
 * 0: limit_no_range flags it, and ikc warns) and
 * <mimic joint multiplier offset> (default 1 and 0). In a link, each
 * <collision> element's <origin xyz rpy> and <geometry> (<box size>,
 * <cylinder radius length>, <sphere radius>, <mesh filename scale>) is kept
 * in `collisions` (meshes are named, not read: see ik_urdf_mesh_path and
 * urdf_collision.h); a geometry of another kind is kept as
 * IK_URDF_GEOMETRY_OTHER. Everything else (visual, inertial, transmission,
 * gazebo) is ignored.
 * Joint types: revolute, continuous, prismatic, fixed; floating and planar
 * joints are refused (IK_ERR_UNSUPPORTED) as is any other type (IK_ERR_PARSE).
 *
 * origin: rpy is fixed-axis roll about X, then pitch about Y, then yaw about
 * Z, so R = Rz(yaw) Ry(pitch) Rx(roll); the joint frame is at xyz in the
 * parent link's frame, rotated by R.
 *
 * The links must form one tree: every link is the child of at most one
 * joint (IK_ERR_HIERARCHY otherwise), exactly one link (the root) is no
 * joint's child, and no joint chain loops (IK_ERR_HIERARCHY). Joints naming
 * a missing link, a mimic naming a missing joint (IK_ERR_NOT_FOUND, with the
 * closest names), duplicate link or joint names (IK_ERR_HIERARCHY), numbers
 * that are not finite (IK_ERR_NONFINITE) or malformed (IK_ERR_PARSE), and
 * lower > upper (IK_ERR_RANGE) are refused. Mimic joints may follow mimic
 * joints, but not in a loop (IK_ERR_HIERARCHY).
 *
 * The XML is read by the io layer's own strict reader (the same in the
 * native build and in WebAssembly, so ikc, Python and the playground give
 * one file the same result and the same message), which checks the
 * document as libxml2 does and refuses a malformed one with libxml2's words
 * ("line 1, column 33: XML: Premature end of data in tag robot line 1").
 * Hostile files: a DOCTYPE (so any entity declaration: "billion laughs",
 * external entities) is refused (IK_ERR_UNSUPPORTED) before parsing; the
 * reader knows only the five predefined entities and character references,
 * never touches a file or the network, nests at most 256 elements deep,
 * and reads documents as UTF-8 (other bytes refused). Inputs above
 * IK_URDF_MAX_BYTES or with more than IK_URDF_MAX_ITEMS links or joints are
 * refused (IK_ERR_RANGE). Errors name the line and the element in the
 * ik_error message ("line 12, column 0: <joint name=..>").
 */
#ifndef IKIT_URDF_H
#define IKIT_URDF_H

#include <stddef.h>

#include <ikit/error.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/robot.h>
#include <ikit/skeleton.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest URDF document accepted (robot arms are tens of kilobytes). */
#define IK_URDF_MAX_BYTES (16UL * 1024UL * 1024UL)
/* Most links, and most joints, accepted. */
#define IK_URDF_MAX_ITEMS 10000

typedef struct ik_urdf_link {
    char *name;
    int parent_joint; /* the joint whose child this link is, or -1 for the root */
    long line;        /* where it is declared */
} ik_urdf_link;

typedef struct ik_urdf_joint {
    char *name;
    ik_robot_joint_type type;
    int parent_link, child_link; /* indices into links */
    ik_transform origin;         /* from xyz and rpy, unit scale */
    ik_vec3 axis;                /* unit; (1, 0, 0) when not given */
    int has_limit;               /* 1 when a <limit> was given */
    int limit_no_range;          /* 1 when that <limit> has neither lower nor upper: read as [0, 0], as urdfdom
                                    reads it, so a revolute or prismatic joint is held at 0 (ikc warns; a joint
                                    meant to turn without limits is type="continuous") */
    double lower, upper, velocity, effort;
    int mimic_joint;                       /* the joint it follows, or -1 */
    double mimic_multiplier, mimic_offset; /* value = multiplier * leader + offset */
    long line;
} ik_urdf_joint;

typedef enum ik_urdf_geometry {
    IK_URDF_GEOMETRY_BOX,      /* size: sx, sy, sz (full lengths), centred on the origin */
    IK_URDF_GEOMETRY_CYLINDER, /* size: radius, length; along the origin's z, centred */
    IK_URDF_GEOMETRY_SPHERE,   /* size: radius */
    IK_URDF_GEOMETRY_MESH,     /* size: the scale per axis (default 1 1 1); mesh_filename */
    IK_URDF_GEOMETRY_OTHER     /* a geometry this reader does not know (its element's name in mesh_filename) */
} ik_urdf_geometry;

/* A link's <collision> element. */
typedef struct ik_urdf_collision {
    int link; /* index into links */
    ik_urdf_geometry geometry;
    ik_transform origin; /* the geometry's frame in the link's frame */
    double size[3];
    char *mesh_filename; /* as written ("package://pkg/meshes/a.stl"), or NULL */
    long line;
} ik_urdf_collision;

typedef struct ik_urdf {
    char *name; /* the robot's name */
    int link_count;
    ik_urdf_link *links;
    int joint_count;
    ik_urdf_joint *joints;
    int root_link;
    int collision_count;
    ik_urdf_collision *collisions; /* in file order */
} ik_urdf;

/* A joint's <origin xyz rpy> as a transform (unit scale): translation xyz,
 * rotation R = Rz(yaw) Ry(pitch) Rx(roll) (see above). */
ik_transform ik_urdf_origin(const double xyz[3], const double rpy[3]);

/* Read a URDF document from memory (`size` bytes, need not be
 * NUL-terminated). *out is NULL on failure. error may be NULL. */
ik_result ik_urdf_read_memory(const char *data, size_t size, ik_urdf **out, ik_error *error);
/* Read a URDF file (regular files of at most IK_URDF_MAX_BYTES only). */
ik_result ik_urdf_read_file(const char *path, ik_urdf **out, ik_error *error);
void ik_urdf_free(ik_urdf *urdf);

/* The file a <mesh filename> names: "package://NAME/REST" is DIR/REST for
 * the first `packages` entry "NAME=DIR" (package_count of them), else
 * E/REST for the first directory E of the ROS_PACKAGE_PATH environment
 * variable (colon-separated) whose last component is NAME, else E/NAME/REST
 * where that file exists; "file:///abs" is /abs; a relative path is taken
 * from `urdf_dir` (the URDF file's directory; NULL: the working directory).
 * IK_ERR_NOT_FOUND for an unknown package ("unknown package 'x': give
 * --package-path x=DIR or set ROS_PACKAGE_PATH"), IK_ERR_CAPACITY when the
 * path does not fit out [out_size], IK_ERR_UNSUPPORTED for another URL
 * scheme. The file itself is not opened. */
ik_result ik_urdf_mesh_path(const char *filename, const char *urdf_dir, const char *const *packages, int package_count,
                            char *out, size_t out_size, ik_error *error);

/* Index of the link or joint called `name`; IK_ERR_NOT_FOUND with "no link
 * 'x' (did you mean: a, b?)" in error when there is none. */
ik_result ik_urdf_find_link(const ik_urdf *urdf, const char *name, int *index, ik_error *error);
ik_result ik_urdf_find_joint(const ik_urdf *urdf, const char *name, int *index, ik_error *error);

/* The joints from link `base_link` down to link `tip_link`, base first, into
 * joints_out [max] (joint indices), their number in *count. Fixed joints are
 * kept as entries (a solver skips them; their origins are exact, and a fixed
 * joint after the last moving one, such as a tool flange, stays the tip).
 * base == tip gives 0 joints. IK_ERR_NOT_FOUND (unknown names, with
 * suggestions), IK_ERR_HIERARCHY (base is not an ancestor of tip),
 * IK_ERR_CAPACITY (more than max joints; *count says how many). */
ik_result ik_urdf_chain(const ik_urdf *urdf, const char *base_link, const char *tip_link, int *joints_out, int max,
                        int *count, ik_error *error);

/* The same chain as a robot chain for ik_robot_fk: one variable per moving
 * joint, in chain order, except that a mimic joint whose leader (followed
 * through mimic joints) moves in the chain shares the leader's variable;
 * a mimic joint whose leader is outside the chain gets its own variable
 * standing for the leader's value. variable_joints [IK_ROBOT_MAX_JOINTS]
 * (may be NULL) receives the URDF joint each variable is the value of.
 * Limits are the joint's own, rounded inward to ik_real (in the float build
 * the nearest float can lie past a limit: 3.14159265359 rounds to
 * 3.14159274; the chain takes 3.14159250, so a solution inside the chain's
 * limits is inside the file's); a range narrower than one float step keeps
 * the nearest float at both ends. IK_ERR_CAPACITY beyond IK_ROBOT_MAX_JOINTS. */
ik_result ik_urdf_robot_chain(const ik_urdf *urdf, const char *base_link, const char *tip_link, ik_robot_chain *chain,
                              int *variable_joints, ik_error *error);

/* A chain as a skeleton: one joint per link (the base link first, then the
 * child link of each chain joint), named after the links, whose rest pose
 * is the zero configuration (rest_ls[k] = the origin of the joint above
 * link k; identity for the base). Owns its arrays; names point into the
 * urdf, which must outlive it. IK_ERR_NONFINITE, naming the link, when the
 * origins multiplied down the chain overflow ik_real. */
typedef struct ik_urdf_skeleton {
    ik_skeleton skeleton;
    int *parents;
    const char **names;
    ik_transform *rest_ls;
    int *urdf_joints; /* [joint_count]: the URDF joint above each link, -1 for the base */
} ik_urdf_skeleton;

ik_result ik_urdf_chain_skeleton(const ik_urdf *urdf, const char *base_link, const char *tip_link,
                                 ik_urdf_skeleton **out, ik_error *error);
void ik_urdf_skeleton_free(ik_urdf_skeleton *skeleton);

#ifdef __cplusplus
}
#endif
#endif

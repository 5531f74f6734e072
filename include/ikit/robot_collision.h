/* ikit robot collision: bounding capsules on a robot chain's links, obstacles
 * around it, and the clearances between them at a configuration.
 *
 * Every collision element of a link (a mesh, box, cylinder or sphere) is
 * bounded by one capsule (the points within `radius` of segment a-b) that
 * holds all of it: a mesh's capsule holds every vertex, so (a capsule being
 * convex) it holds the mesh's convex hull and the mesh. A distance between
 * two bounding volumes is at most the distance between what they hold, so a
 * configuration whose capsules keep at least the margin from each other and
 * from the obstacles keeps the true meshes at least as far apart: "free" is
 * conservative. The fit (ik_capsule_fit) tries six axes (the three principal
 * axes of the points and the frame's x, y, z), centres the axis on the
 * points' box across it, and keeps the capsule of least volume. Each element
 * also gets an oriented box holding it (ik_obb_fit; a URDF box is its own
 * box): a distance is the larger of the capsule's and the box's lower bounds,
 * which trims the capsule's rounded ends and sides where the box is tighter.
 * Box to box, the bound is the largest gap along the 15 separating axes of
 * the two boxes (a projection gap along a unit axis never exceeds the
 * distance; Gottschalk, Lin and Manocha, "OBBTree", SIGGRAPH 1996).
 *
 * Obstacles are boxes (centred on their pose), spheres and cylinders (along
 * their pose's z, centred); the distance to a cylinder is the larger of the
 * distances to its bounding capsule and its bounding box, both of which
 * hold it (still a lower bound). A mesh obstacle is given as its bounding
 * box in its own frame (the io layer does that).
 *
 * Distances are computed in double in both builds: segment to segment
 * (closest points of two segments, Ericson, "Real-Time Collision Detection",
 * 2005, section 5.1.9), point to box (clamping in the box's frame) and
 * segment to box (the squared distance along the segment is convex and
 * piecewise quadratic: bisection on the sign of its derivative, 48 halvings,
 * and the result lowered by the bound on what the last halving can miss).
 * A negative distance means the volumes overlap (it is the distance between
 * the capsule's axis and the other volume, minus the radius).
 *
 * Self-collision: pairs of links that always touch or never can are left
 * out, as MoveIt's setup assistant does: ik_robot_collision_prune marks
 * adjacent links (a link and its nearest ancestor with geometry), pairs
 * overlapping at a rest configuration, and pairs never closer than a
 * clearance over seeded random configurations; ik_robot_collision_disable
 * marks a pair by name (an SRDF's <disable_collisions>).
 *
 * Nothing here allocates; the model is a plain value with fixed arrays. */
#ifndef IKIT_ROBOT_COLLISION_H
#define IKIT_ROBOT_COLLISION_H

#include <stddef.h>
#include <stdint.h>

#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/robot.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IK_COLLISION_MAX_LINKS 64
#define IK_COLLISION_MAX_CAPSULES 128
#define IK_COLLISION_MAX_CONTACTS 16
#define IK_COLLISION_MAX_OBSTACLES 64

/* The points within `radius` of the segment a-b. */
typedef struct ik_capsule {
    ik_vec3 a, b;
    ik_real radius;
} ik_capsule;

/* An oriented box: half_extents along the axes of `frame` (unit scale),
 * centred on its origin. */
typedef struct ik_obb {
    ik_transform frame;
    ik_vec3 half_extents;
} ik_obb;

/* Why a pair of links is, or is not, tested. */
typedef enum ik_collision_pair_state {
    IK_PAIR_CHECKED,
    IK_PAIR_ADJACENT, /* a link and its parent (nearest ancestor with geometry) */
    IK_PAIR_AT_REST,  /* overlapping at the rest configuration */
    IK_PAIR_NEVER,    /* never within the clearance over the sampled configurations */
    IK_PAIR_DISABLED, /* by the caller (an SRDF) */
    IK_PAIR_EMPTY     /* a link without capsules, or a link with itself */
} ik_collision_pair_state;

/* A short name ("checked", "adjacent", "at rest", "never", "disabled", "empty"). */
const char *ik_collision_pair_state_str(ik_collision_pair_state state);

typedef struct ik_robot_collision_model {
    int link_count;
    const char *link_names[IK_COLLISION_MAX_LINKS]; /* the caller's strings, which must outlive the model */
    int link_frame[IK_COLLISION_MAX_LINKS];         /* -1: the chain's base; k: the child link of chain joint k */
    int link_parent[IK_COLLISION_MAX_LINKS];        /* the nearest ancestor link in the model, or -1 */
    int capsule_count;
    ik_capsule capsules[IK_COLLISION_MAX_CAPSULES]; /* in the frame of their link's link_frame */
    int capsule_link[IK_COLLISION_MAX_CAPSULES];
    ik_obb boxes[IK_COLLISION_MAX_CAPSULES]; /* a box holding the same element (same frame), where has_box */
    ik_bool has_box[IK_COLLISION_MAX_CAPSULES];
    unsigned char pair_state[IK_COLLISION_MAX_LINKS][IK_COLLISION_MAX_LINKS]; /* ik_collision_pair_state, symmetric */
} ik_robot_collision_model;

/* An empty model (no links). */
void ik_robot_collision_model_init(ik_robot_collision_model *model);
/* A link carried by chain frame `frame` (-1 base, k the child of joint k),
 * whose parent in the model is `parent` (-1 none); its pairs start as
 * checked (empty until it has a capsule). IK_ERR_CAPACITY, IK_ERR_RANGE. */
ik_result ik_robot_collision_add_link(ik_robot_collision_model *model, const char *name, int frame, int parent,
                                      int *index);
/* A capsule (in the link's frame) on link `link`. IK_ERR_CAPACITY,
 * IK_ERR_RANGE (link), IK_ERR_NONFINITE, IK_ERR_RANGE (radius < 0). */
ik_result ik_robot_collision_add_capsule(ik_robot_collision_model *model, int link, ik_capsule capsule);
/* A capsule and a box that both hold the same element: its volume is
 * taken as their intersection, and each distance as the larger of the two
 * bounds (both are lower bounds of the distance to what they hold, so the
 * larger is too, and tighter). box NULL: the capsule alone. */
ik_result ik_robot_collision_add_bounds(ik_robot_collision_model *model, int link, ik_capsule capsule,
                                        const ik_obb *box);
/* The index of the link called `name`, or -1. */
int ik_robot_collision_find_link(const ik_robot_collision_model *model, const char *name);

/* The capsule of least volume over six axes holding the `count` points
 * xyz [3 count], each first scaled by `scale` (per axis) and then moved by
 * `to_frame`: the capsule is in to_frame's target frame. Its radius is
 * widened by 1e-6 relative plus 1e-7 m for the rounding of the points.
 * IK_ERR_NULL, IK_ERR_RANGE (count 0), IK_ERR_NONFINITE. */
ik_result ik_capsule_fit(const float *xyz, size_t count, ik_vec3 scale, ik_transform to_frame, ik_capsule *out);
/* The box of least volume holding the points (as ik_capsule_fit takes
 * them), along the points' principal axes or the frame's axes, widened for
 * rounding. Errors as ik_capsule_fit. */
ik_result ik_obb_fit(const float *xyz, size_t count, ik_vec3 scale, ik_transform to_frame, ik_obb *out);
/* Capsules holding a box (full sizes), a cylinder (along the frame's z,
 * centred) and a sphere placed by `frame`. */
ik_capsule ik_capsule_of_box(ik_transform frame, ik_vec3 size);
ik_capsule ik_capsule_of_cylinder(ik_transform frame, ik_real radius, ik_real length);
ik_capsule ik_capsule_of_sphere(ik_transform frame, ik_real radius);

typedef enum ik_obstacle_shape { IK_OBSTACLE_BOX, IK_OBSTACLE_SPHERE, IK_OBSTACLE_CYLINDER } ik_obstacle_shape;

typedef struct ik_obstacle {
    ik_obstacle_shape shape;
    const char *name;     /* for reports; may be NULL */
    ik_transform pose_bs; /* the obstacle's frame in the chain's base frame (unit scale) */
    ik_vec3 half_extents; /* box: half its sizes */
    ik_real radius;       /* sphere, cylinder */
    ik_real half_length;  /* cylinder: half its length, along z */
    uint64_t touching;    /* bit l set: model link l may touch it (not tested: a robot's base on its table) */
} ik_obstacle;

/* One pair and its distance (negative: the volumes overlap). */
typedef struct ik_collision_pair {
    int link;  /* a model link */
    int other; /* another link (>= 0), or -1 - k for obstacle k */
    double distance;
} ik_collision_pair;

typedef struct ik_robot_collision_report {
    ik_bool free;              /* every tested pair at least the margin apart */
    double clearance;          /* the smallest distance over the tested pairs (1e30 when none) */
    ik_collision_pair closest; /* the pair giving it */
    int contact_count;         /* pairs closer than the margin */
    ik_collision_pair contacts[IK_COLLISION_MAX_CONTACTS]; /* the closest of them, nearest first */
    double link_clearance[IK_COLLISION_MAX_LINKS];         /* each link's smallest distance (1e30 when none) */
} ik_robot_collision_report;

/* The report at configuration q [chain->variable_count]: every checked
 * link pair and every link against every obstacle. IK_ERR_NULL,
 * IK_ERR_NONFINITE (q, margin, an obstacle), IK_ERR_RANGE (margin < 0, an
 * obstacle size <= 0, a link frame beyond the chain, obstacle_count < 0),
 * IK_ERR_CAPACITY (more than IK_COLLISION_MAX_OBSTACLES obstacles). */
ik_result ik_robot_collision_check(const ik_robot_collision_model *model, const ik_robot_chain *chain, const ik_real *q,
                                   const ik_obstacle *obstacles, int obstacle_count, ik_real margin,
                                   ik_robot_collision_report *report);
/* Whether q is free with the margin, stopping at the first pair closer
 * (the fast test a solver makes many times). Errors as above. */
ik_result ik_robot_collision_free(const ik_robot_collision_model *model, const ik_robot_chain *chain, const ik_real *q,
                                  const ik_obstacle *obstacles, int obstacle_count, ik_real margin, ik_bool *is_free);

/* A collision check in the shape of ik_robot_path's config_ok (and any
 * solver's "is this configuration allowed" callback): the model, chain,
 * obstacles and margin of ik_robot_collision_free, bundled. */
typedef struct ik_robot_collision_query {
    const ik_robot_collision_model *model;
    const ik_robot_chain *chain;
    const ik_obstacle *obstacles;
    int obstacle_count;
    ik_real margin;
} ik_robot_collision_query;
/* 1 when q [variable_count] is free with the query's margin, 0 when it is
 * not, or when the check refuses it (a NaN, a count other than the chain's,
 * a NULL query): `query` is a const ik_robot_collision_query *. */
int ik_robot_collision_query_free(void *query, const ik_real *q, int variable_count);

/* Marks the pairs not to test: adjacent links, pairs closer than
 * `clearance` at q_rest [variable_count] (NULL: each variable's value
 * nearest 0 inside its limits), and pairs whose distance stays above
 * `clearance` over `samples` random configurations inside the limits drawn
 * from `seed` (samples 0: none marked so). A clearance at least the margin
 * the checks will use keeps "never" honest (MoveIt samples with none). Pairs already disabled stay so. Errors as the
 * check, and IK_ERR_RANGE for samples < 0 or clearance < 0. */
ik_result ik_robot_collision_prune(ik_robot_collision_model *model, const ik_robot_chain *chain, const ik_real *q_rest,
                                   int samples, uint64_t seed, ik_real clearance);
/* Marks the pair of links named a and b not to test (IK_PAIR_DISABLED).
 * IK_ERR_NOT_FOUND when either is not a link of the model. */
ik_result ik_robot_collision_disable(ik_robot_collision_model *model, const char *a, const char *b);

#ifdef __cplusplus
}
#endif
#endif

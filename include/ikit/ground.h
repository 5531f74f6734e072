/* ikit ground: what feet stand on, as something a ray can be cast against
 * (seed 004's "ray-casting to place the target on the ground").
 *
 * A ground is one of: an infinite plane; a height field (a grid of heights
 * over x and z, bilinear between samples, +Y up); a flight of stairs (flat
 * treads with vertical risers, +Y up); or a caller's ray-cast callback, which
 * may model anything (a physics engine's scene query, an analytic surface).
 * Nothing is owned: a height field points at the caller's samples.
 */
#ifndef IKIT_GROUND_H
#define IKIT_GROUND_H

#include <ikit/math.h>
#include <ikit/result.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where a ray met the ground: the point, the surface's unit normal there (on
 * the side the ray came from) and the distance along the unit ray. */
typedef struct ik_ground_hit {
    ik_vec3 point_ms;
    ik_vec3 normal_ms;
    ik_real distance;
} ik_ground_hit;

/* A caller's ray cast: from `origin_ms` along the unit `direction_ms` for at
 * most `max_distance`; fill `hit` and return 1 on a hit, 0 otherwise. */
typedef ik_bool (*ik_ground_ray_fn)(void *user, ik_vec3 origin_ms, ik_vec3 direction_ms, ik_real max_distance,
                                    ik_ground_hit *hit);

typedef enum ik_ground_type {
    IK_GROUND_PLANE,
    IK_GROUND_HEIGHT_FIELD,
    IK_GROUND_STAIRS,
    IK_GROUND_CALLBACK
} ik_ground_type;

typedef struct ik_ground {
    ik_ground_type type;
    /* plane: a point on it and its normal (unit after ik_ground_plane) */
    ik_vec3 point_ms;
    ik_vec3 normal_ms;
    /* height field: heights[iz * count_x + ix] is the height (y) at
     * x = origin.x + ix * cell, z = origin.z + iz * cell; outside the grid
     * the border heights continue flat. */
    const ik_real *heights;
    int count_x, count_z;
    ik_real cell;
    /* stairs: the first riser stands at `point_ms`, facing back along the
     * horizontal unit `direction_ms`; ground before it is at point_ms.y, and
     * each of `step_count` steps rises `rise` over a tread of `run` along
     * direction_ms. Beyond the last step the top tread continues. */
    ik_vec3 direction_ms;
    ik_real rise, run;
    int step_count;
    /* callback */
    ik_ground_ray_fn cast;
    void *user;
} ik_ground;

ik_ground ik_ground_plane(ik_vec3 point_ms, ik_vec3 normal_ms);
/* `origin_ms`: world position of sample (0, 0) (its y is added to every height). */
ik_ground ik_ground_height_field(ik_vec3 origin_ms, ik_real cell, int count_x, int count_z, const ik_real *heights);
ik_ground ik_ground_stairs(ik_vec3 first_riser_ms, ik_vec3 direction_ms, ik_real rise, ik_real run, int step_count);
ik_ground ik_ground_callback(ik_ground_ray_fn cast, void *user);

/* Check a ground: IK_ERR_NULL (no samples or callback), IK_ERR_RANGE (counts
 * below 1, cell, run or rise not positive where they must be),
 * IK_ERR_NONFINITE, IK_ERR_DEGENERATE (zero normal or direction). */
ik_result ik_ground_validate(const ik_ground *ground);
/* The same checks except a height field's samples: O(1) whatever the
 * field's size (the casts below check the samples they read). */
ik_result ik_ground_check_shape(const ik_ground *ground);

/* Cast a ray against the ground. Planes are cut exactly; height fields and
 * stairs exactly for a vertical ray, otherwise by marching a quarter cell
 * (or tread) at a time and bisecting the crossing. Returns 1 and fills `hit`
 * on a hit; 0 for a miss, an invalid ground or a non-finite ray. Only the
 * height samples the ray reads are checked (a NaN there is a miss), so a
 * cast costs the same on a large height field as on a small one; call
 * ik_ground_validate once to check every sample. */
ik_bool ik_ground_cast(const ik_ground *ground, ik_vec3 origin_ms, ik_vec3 direction_ms, ik_real max_distance,
                       ik_ground_hit *hit);

/* Height and unit normal of a height field or stairs at (x, z) (+Y up);
 * for a plane, where the vertical line through (x, z) meets it. Returns 0 for
 * callbacks, vertical planes and invalid grounds. */
ik_bool ik_ground_height_at(const ik_ground *ground, ik_real x, ik_real z, ik_real *height, ik_vec3 *normal_ms);

#ifdef __cplusplus
}
#endif
#endif

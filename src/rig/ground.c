/* Ground shapes for feet: planes, height fields, stairs and callbacks, all
 * answered as ray casts (seed 004's "ray-casting to place the target on the
 * ground"). */
#include <ikit/ground.h>

#include <stddef.h>

static ik_ground ground_blank(ik_ground_type type) {
    ik_ground g;
    g.type = type;
    g.point_ms = ik_vec3_zero();
    g.normal_ms = ik_v3(0, 1, 0);
    g.heights = NULL;
    g.count_x = g.count_z = 0;
    g.cell = 1;
    g.direction_ms = ik_v3(0, 0, 1);
    g.rise = 0;
    g.run = 1;
    g.step_count = 0;
    g.cast = NULL;
    g.user = NULL;
    return g;
}

ik_ground ik_ground_plane(ik_vec3 point_ms, ik_vec3 normal_ms) {
    ik_ground g = ground_blank(IK_GROUND_PLANE);
    g.point_ms = point_ms;
    g.normal_ms = ik_vec3_normalize_or(normal_ms, ik_vec3_zero());
    return g;
}

ik_ground ik_ground_height_field(ik_vec3 origin_ms, ik_real cell, int count_x, int count_z, const ik_real *heights) {
    ik_ground g = ground_blank(IK_GROUND_HEIGHT_FIELD);
    g.point_ms = origin_ms;
    g.cell = cell;
    g.count_x = count_x;
    g.count_z = count_z;
    g.heights = heights;
    return g;
}

ik_ground ik_ground_stairs(ik_vec3 first_riser_ms, ik_vec3 direction_ms, ik_real rise, ik_real run, int step_count) {
    ik_ground g = ground_blank(IK_GROUND_STAIRS);
    g.point_ms = first_riser_ms;
    g.direction_ms = ik_vec3_normalize_or(ik_v3(direction_ms.x, 0, direction_ms.z), ik_vec3_zero());
    g.rise = rise;
    g.run = run;
    g.step_count = step_count;
    return g;
}

ik_ground ik_ground_callback(ik_ground_ray_fn cast, void *user) {
    ik_ground g = ground_blank(IK_GROUND_CALLBACK);
    g.cast = cast;
    g.user = user;
    return g;
}

/* Everything but the height samples: O(1), so the casts can afford it on
 * every call; they check the samples they read through their results. */
ik_result ik_ground_check_shape(const ik_ground *g) {
    if (!g) return IK_ERR_NULL;
    switch (g->type) {
        case IK_GROUND_PLANE:
            if (!ik_vec3_finite(g->point_ms) || !ik_vec3_finite(g->normal_ms)) return IK_ERR_NONFINITE;
            return ik_vec3_length_sq(g->normal_ms) > 0 ? IK_OK : IK_ERR_DEGENERATE;
        case IK_GROUND_HEIGHT_FIELD:
            if (!g->heights) return IK_ERR_NULL;
            if (g->count_x < 1 || g->count_z < 1 || g->count_x > (1 << 15) || g->count_z > (1 << 15))
                return IK_ERR_RANGE;
            if (!ik_vec3_finite(g->point_ms) || !ik_finite(g->cell)) return IK_ERR_NONFINITE;
            return g->cell > 0 ? IK_OK : IK_ERR_RANGE;
        case IK_GROUND_STAIRS:
            if (!ik_vec3_finite(g->point_ms) || !ik_vec3_finite(g->direction_ms) || !ik_finite(g->rise) ||
                !ik_finite(g->run))
                return IK_ERR_NONFINITE;
            if (!(g->run > 0) || g->step_count < 0) return IK_ERR_RANGE;
            return ik_vec3_length_sq(g->direction_ms) > 0 ? IK_OK : IK_ERR_DEGENERATE;
        case IK_GROUND_CALLBACK:
            return g->cast ? IK_OK : IK_ERR_NULL;
    }
    return IK_ERR_RANGE;
}

ik_result ik_ground_validate(const ik_ground *g) {
    ik_result r = ik_ground_check_shape(g);
    int i;
    if (r != IK_OK || g->type != IK_GROUND_HEIGHT_FIELD) return r;
    for (i = 0; i < g->count_x * g->count_z; ++i)
        if (!ik_finite(g->heights[i])) return IK_ERR_NONFINITE;
    return IK_OK;
}

static ik_real sample(const ik_ground *g, int ix, int iz) {
    ix = ix < 0 ? 0 : (ix >= g->count_x ? g->count_x - 1 : ix);
    iz = iz < 0 ? 0 : (iz >= g->count_z ? g->count_z - 1 : iz);
    return g->heights[iz * g->count_x + ix];
}

/* Bilinear patch h = h00 (1-u)(1-v) + h10 u (1-v) + h01 (1-u) v + h11 u v
 * over the cell holding (x, z); its normal is (-dh/dx, 1, -dh/dz)
 * normalised. Outside the grid the coordinates are clamped, so the border
 * continues flat. */
static void height_field_at(const ik_ground *g, ik_real x, ik_real z, ik_real *h, ik_vec3 *n) {
    ik_real fx = (x - g->point_ms.x) / g->cell, fz = (z - g->point_ms.z) / g->cell;
    ik_real max_x = (ik_real)(g->count_x - 1), max_z = (ik_real)(g->count_z - 1);
    ik_real cx = ik_clampr(fx, 0, max_x), cz = ik_clampr(fz, 0, max_z);
    int ix = (int)cx, iz = (int)cz;
    ik_real u, v, h00, h10, h01, h11, dhdx, dhdz;
    if (ix > g->count_x - 2) ix = g->count_x > 1 ? g->count_x - 2 : 0;
    if (iz > g->count_z - 2) iz = g->count_z > 1 ? g->count_z - 2 : 0;
    u = cx - (ik_real)ix;
    v = cz - (ik_real)iz;
    h00 = sample(g, ix, iz);
    h10 = sample(g, ix + 1, iz);
    h01 = sample(g, ix, iz + 1);
    h11 = sample(g, ix + 1, iz + 1);
    *h = g->point_ms.y + h00 * (1 - u) * (1 - v) + h10 * u * (1 - v) + h01 * (1 - u) * v + h11 * u * v;
    dhdx = (fx > 0 && fx < max_x) ? ((h10 - h00) * (1 - v) + (h11 - h01) * v) / g->cell : 0;
    dhdz = (fz > 0 && fz < max_z) ? ((h01 - h00) * (1 - u) + (h11 - h10) * u) / g->cell : 0;
    *n = ik_vec3_normalize(ik_v3(-dhdx, 1, -dhdz));
}

/* Treads: the number of risers passed, clamp(floor(s / run) + 1, 0, count),
 * at distance s = (p - first riser) . direction. */
static ik_real stairs_height(const ik_ground *g, ik_real x, ik_real z) {
    ik_real s = (x - g->point_ms.x) * g->direction_ms.x + (z - g->point_ms.z) * g->direction_ms.z;
    ik_real steps =
        s < 0 ? 0 : ik_minr((ik_real)(int)ik_minr(s / g->run, (ik_real)g->step_count) + 1, (ik_real)g->step_count);
    return g->point_ms.y + steps * g->rise;
}

/* ik_ground_height_at on a ground whose shape is checked; a non-finite
 * sample shows as a non-finite height or normal. */
static ik_bool surface_at(const ik_ground *g, ik_real x, ik_real z, ik_real *height, ik_vec3 *normal_ms) {
    ik_real h;
    ik_vec3 n = ik_v3(0, 1, 0);
    switch (g->type) {
        case IK_GROUND_PLANE:
            /* n . (p - p0) = 0 solved for y. */
            if (!(IK_FABS(g->normal_ms.y) > (ik_real)1e-6)) return 0;
            h = g->point_ms.y -
                (g->normal_ms.x * (x - g->point_ms.x) + g->normal_ms.z * (z - g->point_ms.z)) / g->normal_ms.y;
            n = g->normal_ms.y > 0 ? g->normal_ms : ik_vec3_neg(g->normal_ms);
            break;
        case IK_GROUND_HEIGHT_FIELD:
            height_field_at(g, x, z, &h, &n);
            break;
        case IK_GROUND_STAIRS:
            h = stairs_height(g, x, z);
            break;
        default:
            return 0;
    }
    if (height) *height = h;
    if (normal_ms) *normal_ms = n;
    return 1;
}

ik_bool ik_ground_height_at(const ik_ground *g, ik_real x, ik_real z, ik_real *height, ik_vec3 *normal_ms) {
    ik_real h;
    ik_vec3 n;
    if (ik_ground_check_shape(g) != IK_OK || !ik_finite(x) || !ik_finite(z) || !surface_at(g, x, z, &h, &n) ||
        !ik_finite(h) || !ik_vec3_finite(n))
        return 0;
    if (height) *height = h;
    if (normal_ms) *normal_ms = n;
    return 1;
}

/* Signed height of p above the surface (height fields and stairs). */
static ik_real height_above(const ik_ground *g, ik_vec3 p) {
    ik_real h = 0;
    surface_at(g, p.x, p.z, &h, NULL);
    return p.y - h;
}

/* A ray against a height function: march in steps of a quarter cell (or
 * tread) until the sign of the height above the surface changes, then bisect
 * the step 40 times. */
static ik_bool march(const ik_ground *g, ik_vec3 o, ik_vec3 d, ik_real max_distance, ik_ground_hit *hit) {
    ik_real step = (g->type == IK_GROUND_STAIRS ? g->run : g->cell) * (ik_real)0.25;
    ik_real t0 = 0, f0 = height_above(g, o), t1, f1;
    int i;
    if (f0 <= 0) return 0;
    for (t1 = step; t0 < max_distance; t0 = t1, f0 = f1, t1 += step) {
        t1 = ik_minr(t1, max_distance);
        f1 = height_above(g, ik_vec3_mad(o, d, t1));
        if (f1 <= 0) {
            for (i = 0; i < 40; ++i) {
                ik_real tm = (ik_real)0.5 * (t0 + t1), fm = height_above(g, ik_vec3_mad(o, d, tm));
                if (fm > 0)
                    t0 = tm;
                else
                    t1 = tm;
            }
            hit->distance = t1;
            hit->point_ms = ik_vec3_mad(o, d, t1);
            surface_at(g, hit->point_ms.x, hit->point_ms.z, NULL, &hit->normal_ms);
            return 1;
        }
        if (t1 >= max_distance) break;
    }
    return 0;
}

ik_bool ik_ground_cast(const ik_ground *g, ik_vec3 origin_ms, ik_vec3 direction_ms, ik_real max_distance,
                       ik_ground_hit *hit) {
    ik_vec3 d;
    ik_ground_hit h;
    if (!hit || ik_ground_check_shape(g) != IK_OK || !ik_vec3_finite(origin_ms) || !ik_vec3_finite(direction_ms) ||
        !ik_finite(max_distance) || !(max_distance > 0))
        return 0;
    d = ik_vec3_normalize_or(direction_ms, ik_vec3_zero());
    if (ik_vec3_length_sq(d) == 0) return 0;
    switch (g->type) {
        case IK_GROUND_PLANE: {
            /* t = n . (p0 - o) / (n . d) */
            ik_real nd = ik_vec3_dot(g->normal_ms, d);
            ik_real t;
            if (IK_FABS(nd) < (ik_real)1e-9) return 0;
            t = ik_vec3_dot(g->normal_ms, ik_vec3_sub(g->point_ms, origin_ms)) / nd;
            if (t < 0 || t > max_distance) return 0;
            h.distance = t;
            h.point_ms = ik_vec3_mad(origin_ms, d, t);
            h.normal_ms = nd < 0 ? g->normal_ms : ik_vec3_neg(g->normal_ms);
            break;
        }
        case IK_GROUND_HEIGHT_FIELD:
        case IK_GROUND_STAIRS:
            if (d.y < 0 && IK_FABS(d.x) + IK_FABS(d.z) <= (ik_real)1e-7 * -d.y) {
                ik_real ground_y;
                surface_at(g, origin_ms.x, origin_ms.z, &ground_y, &h.normal_ms);
                h.distance = (origin_ms.y - ground_y) / -d.y;
                if (h.distance < 0 || h.distance > max_distance) return 0;
                h.point_ms = ik_v3(origin_ms.x, ground_y, origin_ms.z);
            } else if (!march(g, origin_ms, d, max_distance, &h)) {
                return 0;
            }
            break;
        case IK_GROUND_CALLBACK:
            if (!g->cast(g->user, origin_ms, d, max_distance, &h)) return 0;
            if (!ik_vec3_finite(h.normal_ms)) return 0;
            h.normal_ms = ik_vec3_normalize_or(h.normal_ms, ik_vec3_neg(d));
            break;
        default:
            return 0;
    }
    /* A non-finite sample under the ray (or from the callback) is a miss. */
    if (!ik_vec3_finite(h.point_ms) || !ik_vec3_finite(h.normal_ms) || !ik_finite(h.distance)) return 0;
    *hit = h;
    return 1;
}

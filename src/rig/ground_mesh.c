/* A ground's surface as quads (ground_mesh.h). */
#include <math.h>
#include <stddef.h>

#include <ikit/ground_mesh.h>

typedef struct quad_list {
    ik_ground_quad *quads;
    int count, capacity;
} quad_list;

/* Adds the quad a b c d with the normal (c - a) x (d - b); returns it, or
 * NULL when it is counted but beyond the caller's capacity. */
static ik_ground_quad *quad_add(quad_list *l, ik_vec3 a, ik_vec3 b, ik_vec3 c, ik_vec3 d) {
    ik_ground_quad *q;
    if (l->count++ >= l->capacity) return NULL;
    q = &l->quads[l->count - 1];
    q->corner_ms[0] = a;
    q->corner_ms[1] = b;
    q->corner_ms[2] = c;
    q->corner_ms[3] = d;
    q->normal_ms = ik_vec3_normalize_or(ik_vec3_cross(ik_vec3_sub(c, a), ik_vec3_sub(d, b)), ik_v3(0, 1, 0));
    q->side = 0;
    return q;
}

/* Planes and height fields: a grid of quads over the region, heights from
 * ik_ground_height_at (a height field's samples where the grid falls on
 * them: its own cells, or every few cells when they are many). */
static void height_quads(quad_list *l, const ik_ground *g, ik_real x0, ik_real x1, ik_real z0, ik_real z1) {
    ik_real step_x, step_z, h[4];
    int nx = IK_GROUND_MESH_PLANE_CELLS, nz = IK_GROUND_MESH_PLANE_CELLS, i, k, c;
    if (g->type == IK_GROUND_HEIGHT_FIELD) {
        ik_real cell = g->cell;
        double cells_x, cells_z;
        x0 = g->point_ms.x + (ik_real)floor((double)((x0 - g->point_ms.x) / cell)) * cell;
        z0 = g->point_ms.z + (ik_real)floor((double)((z0 - g->point_ms.z) / cell)) * cell;
        cells_x = ceil((double)((x1 - x0) / cell));
        cells_z = ceil((double)((z1 - z0) / cell));
        /* as many cells as the region holds, but 2^k of them to a quad so
         * that at most IK_GROUND_MESH_MAX_CELLS quads run each way (the
         * double count is checked before it becomes an int) */
        step_x = step_z = cell;
        if (!(cells_x <= IK_REAL_MAX && cells_z <= IK_REAL_MAX)) return;
        while (cells_x > IK_GROUND_MESH_MAX_CELLS || cells_z > IK_GROUND_MESH_MAX_CELLS) {
            cells_x = ceil(cells_x / 2);
            cells_z = ceil(cells_z / 2);
            step_x *= 2;
            step_z *= 2;
        }
        nx = (int)fmax(cells_x, 0);
        nz = (int)fmax(cells_z, 0);
    } else {
        step_x = (x1 - x0) / (ik_real)nx;
        step_z = (z1 - z0) / (ik_real)nz;
    }
    for (k = 0; k < nz; ++k)
        for (i = 0; i < nx; ++i) {
            ik_vec3 q[4];
            for (c = 0; c < 4; ++c) {
                ik_real x = x0 + (ik_real)(i + (c == 1 || c == 2)) * step_x, z = z0 + (ik_real)(k + (c >= 2)) * step_z;
                if (!ik_ground_height_at(g, x, z, &h[c], NULL)) return;
                q[c] = ik_v3(x, h[c], z);
            }
            quad_add(l, q[0], q[3], q[2], q[1]);
        }
}

/* A side wall of stairs, its normal out along `out`. */
static void side_add(quad_list *l, ik_vec3 a, ik_vec3 b, ik_vec3 c, ik_vec3 d, ik_vec3 out) {
    ik_ground_quad *q = quad_add(l, a, b, c, d);
    if (!q) return;
    q->side = 1;
    q->normal_ms = out;
}

/* Stairs: per step its tread, its riser and its two side faces down to the
 * floor, over the region measured along the stairs (s) and across (t). */
static void stairs_quads(quad_list *l, const ik_ground *g, ik_real x0, ik_real x1, ik_real z0, ik_real z1) {
    ik_real s_lo = 0, s_hi = 0, t_lo = 0, t_hi = 0, base = g->point_ms.y;
    ik_vec3 d = g->direction_ms, across = ik_v3(-g->direction_ms.z, 0, g->direction_ms.x), o = g->point_ms;
    int k, c, first, last;
    for (c = 0; c < 4; ++c) {
        ik_vec3 p = ik_vec3_sub(ik_v3(c & 1 ? x1 : x0, o.y, c & 2 ? z1 : z0), o);
        ik_real s = ik_vec3_dot(p, d), t = ik_vec3_dot(p, across);
        s_lo = c ? ik_minr(s_lo, s) : s;
        s_hi = c ? ik_maxr(s_hi, s) : s;
        t_lo = c ? ik_minr(t_lo, t) : t;
        t_hi = c ? ik_maxr(t_hi, t) : t;
    }
    /* steps counted in double and clamped before they become ints (a region
     * far along the stairs has s / run past any int), and at most
     * IK_GROUND_MESH_MAX_STEPS of them */
    first = (int)fmin(s_lo < 0 ? 0 : floor((double)s_lo / (double)g->run) + 1, (double)g->step_count + 1);
    last = (int)fmin(s_hi < 0 ? 0 : floor((double)s_hi / (double)g->run) + 1, (double)g->step_count);
    if (last - first > IK_GROUND_MESH_MAX_STEPS) last = first + IK_GROUND_MESH_MAX_STEPS;
    for (k = first; k <= last; ++k) {
        /* step k (0: the ground before the first riser) spans s in
         * [(k-1) run, k run) at height k rise; the top one runs on */
        ik_real a = k == 0 ? s_lo : ik_maxr((ik_real)(k - 1) * g->run, s_lo);
        ik_real e = k == 0 ? ik_minr(0, s_hi) : k == g->step_count ? s_hi : ik_minr((ik_real)k * g->run, s_hi);
        ik_real y = o.y + (ik_real)k * g->rise;
#define STAIR_POINT(s_, t_, y_) ik_v3(o.x + d.x * (s_) + across.x * (t_), (y_), o.z + d.z * (s_) + across.z * (t_))
        if (e <= a) continue;
        quad_add(l, STAIR_POINT(a, t_lo, y), STAIR_POINT(a, t_hi, y), STAIR_POINT(e, t_hi, y), STAIR_POINT(e, t_lo, y));
        if (k > 0 && (ik_real)(k - 1) * g->run >= s_lo)
            quad_add(l, STAIR_POINT(a, t_lo, y - g->rise), STAIR_POINT(a, t_hi, y - g->rise), STAIR_POINT(a, t_hi, y),
                     STAIR_POINT(a, t_lo, y)); /* the riser, facing back down the stairs */
        if (k > 0) {
            side_add(l, STAIR_POINT(a, t_lo, base), STAIR_POINT(e, t_lo, base), STAIR_POINT(e, t_lo, y),
                     STAIR_POINT(a, t_lo, y), ik_vec3_neg(across));
            side_add(l, STAIR_POINT(a, t_hi, base), STAIR_POINT(a, t_hi, y), STAIR_POINT(e, t_hi, y),
                     STAIR_POINT(e, t_hi, base), across);
        }
#undef STAIR_POINT
    }
}

int ik_ground_mesh(const ik_ground *ground, ik_real x0, ik_real x1, ik_real z0, ik_real z1, ik_ground_quad *quads,
                   int capacity) {
    quad_list l;
    l.quads = quads;
    l.count = 0;
    l.capacity = quads ? capacity : 0;
    if (!ground || !(x0 <= x1 && z0 <= z1) || !ik_finite(x1 - x0) || !ik_finite(z1 - z0)) return 0;
    if (ground->type == IK_GROUND_STAIRS)
        stairs_quads(&l, ground, x0, x1, z0, z1);
    else if (ground->type != IK_GROUND_CALLBACK)
        height_quads(&l, ground, x0, x1, z0, z1);
    return l.count;
}

/* A ground's surface as quads: a plane's grid lies on the plane and covers
 * the region; a height field's corners sit on its samples (merged when the
 * region holds many cells); stairs give level treads at each step's height,
 * vertical risers and side walls; the count comes first with capacity 0 and
 * a short buffer is never overrun; no surface for callbacks or bad input. */
#include <ikit/ground_mesh.h>

#include <math.h>
#include <string.h>

#include "support/check.h"

#ifdef IKIT_DOUBLE
#define TOL 1e-9
#else
#define TOL 2e-5
#endif

#define MAX_QUADS (IK_GROUND_MESH_MAX_CELLS * IK_GROUND_MESH_MAX_CELLS)
static ik_ground_quad quads[MAX_QUADS + 1];

/* Signed xz area of a quad (shoelace). */
static ik_real xz_area(const ik_ground_quad *q) {
    ik_real a = 0;
    int c;
    for (c = 0; c < 4; ++c) {
        ik_vec3 p = q->corner_ms[c], n = q->corner_ms[(c + 1) & 3];
        a += p.x * n.z - n.x * p.z;
    }
    return a / 2;
}

/* 1 when (x, z) lies strictly inside the quad's xz outline (convex, either
 * winding): the same side of all four edges. */
static int xz_inside(const ik_ground_quad *q, ik_real x, ik_real z) {
    int c, positive = 0, negative = 0;
    for (c = 0; c < 4; ++c) {
        ik_vec3 p = q->corner_ms[c], n = q->corner_ms[(c + 1) & 3];
        ik_real cross = (n.x - p.x) * (z - p.z) - (n.z - p.z) * (x - p.x);
        positive += cross > 0;
        negative += cross < 0;
    }
    return positive == 4 || negative == 4;
}

static void test_plane(void) {
    ik_ground g = ik_ground_plane(ik_v3(0, 0.5f, 0), ik_v3(0.2f, 1, -0.1f));
    int n = ik_ground_mesh(&g, -1, 3, -2, 2, NULL, 0), i, c, off = 0;
    ik_real area = 0;
    CHECK(n == IK_GROUND_MESH_PLANE_CELLS * IK_GROUND_MESH_PLANE_CELLS, "plane: %d quads", n);
    CHECK(ik_ground_mesh(&g, -1, 3, -2, 2, quads, MAX_QUADS) == n, "same count when written");
    for (i = 0; i < n; ++i) {
        for (c = 0; c < 4; ++c)
            off += IK_FABS(ik_vec3_dot(ik_vec3_sub(quads[i].corner_ms[c], g.point_ms), g.normal_ms)) > TOL;
        off += ik_vec3_distance(quads[i].normal_ms, g.normal_ms) > 1e-4f || quads[i].side;
        area += IK_FABS(xz_area(&quads[i]));
    }
    CHECK(off == 0, "%d corners or normals off the plane", off);
    CHECK(IK_FABS(area - 16) < 1e-3f, "the quads cover the 4 x 4 region: %g", (double)area);
    /* covered once: points spread over the region (off the cell edges) each
     * lie in exactly one quad, and no corner lies outside the region */
    for (i = 0; i < 17 * 17; ++i) {
        ik_real x = -1 + ((ik_real)(i % 17) + 0.37f) * 4 / 17, z = -2 + ((ik_real)(i / 17) + 0.61f) * 4 / 17;
        int k, holders = 0;
        for (k = 0; k < n; ++k) holders += xz_inside(&quads[k], x, z);
        off += holders != 1;
    }
    for (i = 0; i < n; ++i)
        for (c = 0; c < 4; ++c)
            off += quads[i].corner_ms[c].x < -1 - 1e-4f || quads[i].corner_ms[c].x > 3 + 1e-4f ||
                   quads[i].corner_ms[c].z < -2 - 1e-4f || quads[i].corner_ms[c].z > 2 + 1e-4f;
    CHECK(off == 0, "%d points of the region not covered exactly once, or corners outside it", off);
}

static void test_height_field(void) {
    static ik_real heights[5 * 4];
    ik_ground g;
    int i, c, n, off = 0;
    for (i = 0; i < 20; ++i) heights[i] = (ik_real)((i * 7) % 5) * 0.1f;
    g = ik_ground_height_field(ik_v3(-1, 0.2f, -0.5f), 0.25f, 5, 4, heights);
    n = ik_ground_mesh(&g, -0.9f, 0.1f, -0.4f, 0.4f, quads, MAX_QUADS);
    /* the region widened to whole cells: x from -1 to 0.25 (5 cells), z from -0.5 to 0.5 (4) */
    CHECK(n == 20, "height field: %d quads", n);
    for (i = 0; i < n; ++i)
        for (c = 0; c < 4; ++c) {
            ik_vec3 p = quads[i].corner_ms[c];
            ik_real h = 0, fx = (p.x + 1) / 0.25f, fz = (p.z + 0.5f) / 0.25f;
            off += IK_FABS(fx - (ik_real)floor(fx + 0.5f)) > 1e-4f || IK_FABS(fz - (ik_real)floor(fz + 0.5f)) > 1e-4f;
            off += !ik_ground_height_at(&g, p.x, p.z, &h, NULL) || IK_FABS(h - p.y) > TOL;
            off += quads[i].normal_ms.y <= 0;
        }
    CHECK(off == 0, "%d corners off the samples", off);
    /* a region of 1000 x 1000 cells: merged to at most 120 quads each way */
    n = ik_ground_mesh(&g, -125, 125, -125, 125, NULL, 0);
    CHECK(n > 0 && n <= MAX_QUADS, "large region: %d quads", n);
}

static void test_stairs(void) {
    ik_ground g = ik_ground_stairs(ik_v3(0, 0, 1), ik_v3(0, 0, 1), 0.2f, 0.3f, 4);
    int n = ik_ground_mesh(&g, -1, 1, 0, 4, quads, MAX_QUADS), i, treads = 0, walls = 0, risers = 0, bad = 0;
    ik_ground_quad canary;
    for (i = 0; i < n; ++i) {
        const ik_ground_quad *q = &quads[i];
        ik_real y0 = q->corner_ms[0].y;
        int level = IK_FABS(q->corner_ms[1].y - y0) < TOL && IK_FABS(q->corner_ms[2].y - y0) < TOL &&
                    IK_FABS(q->corner_ms[3].y - y0) < TOL;
        if (q->side) {
            ++walls;
            bad += IK_FABS(q->normal_ms.y) > TOL || IK_FABS(IK_FABS(q->normal_ms.x) - 1) > TOL;
        } else if (level) {
            ik_real k = y0 / 0.2f;
            ++treads;
            bad += IK_FABS(k - (ik_real)floor(k + 0.5f)) > 1e-4f || q->normal_ms.y < 1 - TOL;
        } else {
            ++risers;
            bad += IK_FABS(q->normal_ms.z + 1) > 1e-4f; /* risers face back down the stairs */
        }
    }
    CHECK(treads == 5 && risers == 4 && walls == 8 && bad == 0, "stairs: %d treads, %d risers, %d walls, %d bad",
          treads, risers, walls, bad);
    memset(&canary, 0x5a, sizeof canary);
    quads[3] = canary;
    CHECK(ik_ground_mesh(&g, -1, 1, 0, 4, quads, 3) == n && memcmp(&quads[3], &canary, sizeof canary) == 0,
          "a short buffer is not overrun");
}

static ik_bool never(void *user, ik_vec3 origin, ik_vec3 direction, ik_real max_distance, ik_ground_hit *hit) {
    (void)user;
    (void)origin;
    (void)direction;
    (void)max_distance;
    (void)hit;
    return 0;
}

static void test_nothing_to_draw(void) {
    ik_ground plane = ik_ground_plane(ik_vec3_zero(), ik_v3(0, 1, 0)), callback = ik_ground_callback(never, NULL);
    CHECK(ik_ground_mesh(&callback, -1, 1, -1, 1, quads, MAX_QUADS) == 0, "callback");
    CHECK(ik_ground_mesh(NULL, -1, 1, -1, 1, quads, MAX_QUADS) == 0, "NULL ground");
    CHECK(ik_ground_mesh(&plane, -1, (ik_real)NAN, -1, 1, quads, MAX_QUADS) == 0, "NaN region");
    CHECK(ik_ground_mesh(&plane, 1, -1, -1, 1, quads, MAX_QUADS) == 0, "empty region");
}

int main(void) {
    test_plane();
    test_height_field();
    test_stairs();
    test_nothing_to_draw();
    return check_summary("test_ground_mesh");
}

/* libFuzzer entry point for the STL reader: any bytes give IK_OK or an
 * error with a message, never a crash, a hang or unbounded memory; a mesh
 * that loads has triangles, finite vertices and at least one triangle of
 * non-zero area, and a capsule and a box fitted to its vertices hold every
 * one. */
#include <ikit/robot_collision.h>
#include <ikit/stl.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ik_mesh *m = NULL;
    ik_error err;
    ik_result r = ik_stl_read_memory((const char *)data, size, &m, &err);
    size_t i;
    if (r != IK_OK) {
        if (m != NULL || err.message[0] == '\0') abort();
        return 0;
    }
    if (m->triangle_count == 0) abort();
    for (i = 0; i < 9 * m->triangle_count; ++i)
        if (!isfinite(m->vertices[i])) abort();
    if (m->triangle_count <= 4096) {
        ik_capsule c;
        if (ik_capsule_fit(m->vertices, 3 * m->triangle_count, ik_v3(1, 1, 1), ik_transform_identity(), &c) == IK_OK) {
            for (i = 0; i < 3 * m->triangle_count; ++i) {
                double p[3] = {m->vertices[3 * i], m->vertices[3 * i + 1], m->vertices[3 * i + 2]};
                double a[3] = {c.a.x, c.a.y, c.a.z}, d[3] = {c.b.x - c.a.x, c.b.y - c.a.y, c.b.z - c.a.z};
                double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2], t = 0, e = 0;
                int k;
                if (dd > 0) t = ((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1] + (p[2] - a[2]) * d[2]) / dd;
                t = t < 0 ? 0 : (t > 1 ? 1 : t);
                for (k = 0; k < 3; ++k) e += (p[k] - a[k] - t * d[k]) * (p[k] - a[k] - t * d[k]);
                if (isfinite(e) && sqrt(e) > (double)c.radius * (1 + 1e-5) + 1e-5) abort();
            }
        }
    }
    if (m->triangle_count <= 4096) {
        ik_obb box;
        if (ik_obb_fit(m->vertices, 3 * m->triangle_count, ik_v3(1, 1, 1), ik_transform_identity(), &box) == IK_OK) {
            for (i = 0; i < 3 * m->triangle_count; ++i) {
                ik_vec3 p = ik_v3(m->vertices[3 * i], m->vertices[3 * i + 1], m->vertices[3 * i + 2]);
                ik_vec3 local =
                    ik_quat_rotate(ik_quat_conjugate(box.frame.rotation), ik_vec3_sub(p, box.frame.translation));
                double slack = 1e-5 * (fabs((double)p.x) + fabs((double)p.y) + fabs((double)p.z)) + 1e-5;
                if (ik_vec3_finite(local) && (fabs((double)local.x) > box.half_extents.x + slack ||
                                              fabs((double)local.y) > box.half_extents.y + slack ||
                                              fabs((double)local.z) > box.half_extents.z + slack))
                    abort();
            }
        }
    }
    ik_mesh_free(m);
    return 0;
}

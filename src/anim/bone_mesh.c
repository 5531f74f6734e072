/* A capsule body around a skeleton's bones, skinned to its joints. See
 * bone_mesh.h. */
#include <ikit/bone_mesh.h>

#include <limits.h>
#include <stddef.h>

ik_bone_mesh_shape ik_bone_mesh_shape_make(void) {
    ik_bone_mesh_shape shape;
    shape.segments = 12;
    shape.rings = 4;
    shape.cap_rings = 3;
    shape.radius = NULL;
    shape.leaf_length = NULL;
    shape.blend = (ik_real)0.3;
    return shape;
}

/* One capsule: from `start` along the unit `axis` for `length`, radius r0
 * at the start and r1 at the end; its vertices follow `joint`, blending
 * toward `before` near the start and `after` near the end (-1: none). */
typedef struct capsule {
    ik_vec3 start, axis;
    ik_real length, r0, r1;
    int joint, before, after;
} capsule;

/* Rings from pole to pole: cap_rings on the start's half-sphere (its
 * equator last), rings - 2 inside the tube, the end's equator, and
 * cap_rings - 1 on the end's half-sphere. */
static int ring_count(const ik_bone_mesh_shape *s) { return 2 * s->cap_rings + s->rings - 2; }
static int capsule_vertices(const ik_bone_mesh_shape *s) { return 2 + s->segments * ring_count(s); }
static int capsule_triangles(const ik_bone_mesh_shape *s) { return 2 * s->segments * ring_count(s); }

static ik_bool is_leaf(const ik_skeleton *sk, int joint) {
    int i;
    for (i = joint + 1; i < sk->joint_count; ++i)
        if (sk->parents[i] == joint) return 0;
    return 1;
}

/* The next capsule of the body after *cursor (start at 0): bones first, in
 * joint order, then leaves; 0 when there are no more. `min_length` is the
 * shortest bone kept. */
static int next_capsule(const ik_skeleton *sk, const ik_mat4 *rest_ms, const ik_bone_mesh_shape *s, ik_real min_length,
                        int *cursor, capsule *c) {
    const int n = sk->joint_count;
    while (*cursor < 2 * n) {
        int j = *cursor % n, p = sk->parents[j], leaves = *cursor >= n;
        ik_vec3 at = ik_mat4_translation(&rest_ms[j]);
        ++*cursor;
        if (!leaves) {
            ik_vec3 a;
            ik_real len;
            if (p < 0) continue;
            a = ik_mat4_translation(&rest_ms[p]);
            len = ik_vec3_distance(a, at);
            if (!(len > min_length)) continue;
            c->start = a;
            c->axis = ik_vec3_scale(ik_vec3_sub(at, a), 1 / len);
            c->length = len;
            c->r0 = s->radius ? s->radius[p] : (ik_real)0.15 * len;
            c->r1 = s->radius ? s->radius[j] : (ik_real)0.15 * len;
            c->joint = p;
            c->before = sk->parents[p];
            c->after = j;
            return 1;
        }
        if (!s->leaf_length || !(s->leaf_length[j] > 0) || !is_leaf(sk, j)) continue;
        /* along the leaf's bone, or its own y axis for a lone root */
        c->start = at;
        c->axis = ik_vec3_normalize_or(p >= 0 ? ik_vec3_sub(at, ik_mat4_translation(&rest_ms[p]))
                                              : ik_mat4_transform_vector(&rest_ms[j], ik_v3(0, 1, 0)),
                                       ik_v3(0, 1, 0));
        c->length = s->leaf_length[j];
        c->r0 = c->r1 = s->radius ? s->radius[j] : (ik_real)0.15 * s->leaf_length[j];
        c->joint = j;
        c->before = p;
        c->after = -1;
        return 1;
    }
    return 0;
}

/* Check the shape and the rest pose; the shortest bone a capsule gets. */
static ik_result check(const ik_skeleton *sk, const ik_mat4 *rest_ms, const ik_bone_mesh_shape *s,
                       ik_real *min_length) {
    ik_real longest = 0;
    int j, k;
    if (!sk || !rest_ms || !s || !sk->parents) return IK_ERR_NULL;
    if (sk->joint_count < 1 || sk->joint_count > INT_MAX / 2 || s->segments < 3 || s->segments > 64 || s->rings < 2 ||
        s->rings > 64 || s->cap_rings < 1 || s->cap_rings > 16)
        return IK_ERR_RANGE;
    if (!ik_finite(s->blend)) return IK_ERR_NONFINITE;
    if (!(s->blend >= 0 && s->blend <= (ik_real)0.5)) return IK_ERR_RANGE;
    for (j = 0; j < sk->joint_count; ++j) {
        for (k = 0; k < 16; ++k)
            if (!ik_finite(rest_ms[j].m[k])) return IK_ERR_NONFINITE;
        if (s->radius && !ik_finite(s->radius[j])) return IK_ERR_NONFINITE;
        if (s->leaf_length && !ik_finite(s->leaf_length[j])) return IK_ERR_NONFINITE;
        if ((s->radius && s->radius[j] < 0) || (s->leaf_length && s->leaf_length[j] < 0)) return IK_ERR_RANGE;
        if (sk->parents[j] >= j) return IK_ERR_HIERARCHY;
        if (sk->parents[j] >= 0) {
            ik_real len =
                ik_vec3_distance(ik_mat4_translation(&rest_ms[sk->parents[j]]), ik_mat4_translation(&rest_ms[j]));
            if (!ik_finite(len)) return IK_ERR_NONFINITE;
            longest = ik_maxr(longest, len);
        }
    }
    *min_length = longest * (ik_real)1e-6;
    return IK_OK;
}

ik_result ik_bone_mesh_count(const ik_skeleton *skeleton, const ik_mat4 *rest_ms, const ik_bone_mesh_shape *shape,
                             int *vertex_count, int *triangle_count) {
    ik_real min_length;
    capsule c;
    int n = 0, cursor = 0;
    ik_result r;
    if (!vertex_count || !triangle_count) return IK_ERR_NULL;
    if ((r = check(skeleton, rest_ms, shape, &min_length)) != IK_OK) return r;
    while (next_capsule(skeleton, rest_ms, shape, min_length, &cursor, &c)) ++n;
    if (n > INT_MAX / capsule_triangles(shape)) return IK_ERR_RANGE;
    *vertex_count = n * capsule_vertices(shape);
    *triangle_count = n * capsule_triangles(shape);
    return IK_OK;
}

static ik_real smooth(ik_real x) {
    x = ik_clampr(x, 0, 1);
    return x * x * (3 - 2 * x);
}

/* One vertex at axial distance `along` from the capsule's start and
 * `out` (a radial offset): position and weights. The weight of the joint
 * before rises to 1/2 over the first `blend` of the length (smoothstep), that
 * of the joint after likewise over the last; the capsule's joint has the rest. */
static void put_vertex(const capsule *c, ik_real blend, ik_real along, ik_vec3 out, ik_bone_mesh *m, int v) {
    ik_real t = along / c->length, w_before = 0, w_after = 0;
    int *jv = m->joints + (size_t)v * 4;
    ik_real *wv = m->weights + (size_t)v * 4;
    if (blend > 0) {
        if (c->before >= 0) w_before = (ik_real)0.5 * smooth((blend - t) / blend);
        if (c->after >= 0) w_after = (ik_real)0.5 * smooth((t - (1 - blend)) / blend);
    }
    m->positions_ms[v] = ik_vec3_add(ik_vec3_mad(c->start, c->axis, along), out);
    jv[0] = c->joint, wv[0] = 1 - w_before - w_after;
    jv[1] = c->before >= 0 ? c->before : c->joint, wv[1] = w_before;
    jv[2] = c->after >= 0 ? c->after : c->joint, wv[2] = w_after;
    jv[3] = c->joint, wv[3] = 0;
}

/* The capsule's vertices from `v` and triangles from `t`. Ring r has axial
 * position a_r and radius rho_r: on the start's half-sphere at polar angle
 * phi = (pi/2) i / cap_rings, a = -r0 cos phi, rho = r0 sin phi; along the
 * tube a and rho go linearly from (0, r0) to (L, r1); on the end's,
 * a = L + r1 cos phi, rho = r1 sin phi. Vertex k of a ring sits at angle
 * 2 pi k / segments about the axis, in the frame (u, v = axis x u). */
static void put_capsule(const capsule *c, const ik_bone_mesh_shape *s, ik_bone_mesh *m, int v, int t) {
    const int S = s->segments, rings = ring_count(s), pole0 = v, first = v + 1, pole1 = v + 1 + S * rings;
    ik_vec3 u = ik_vec3_any_perpendicular(c->axis), w = ik_vec3_cross(c->axis, u);
    int r, k, tri = t, joint = c->joint;
    put_vertex(c, s->blend, -c->r0, ik_vec3_zero(), m, pole0);
    for (r = 0; r < rings; ++r) {
        ik_real a, rho, phi;
        if (r < s->cap_rings) {
            phi = (IK_PI / 2) * (ik_real)(r + 1) / (ik_real)s->cap_rings;
            a = -c->r0 * IK_COS(phi), rho = c->r0 * IK_SIN(phi);
        } else if (r < s->cap_rings + s->rings - 1) {
            ik_real f = (ik_real)(r - s->cap_rings + 1) / (ik_real)(s->rings - 1);
            a = c->length * f, rho = c->r0 + (c->r1 - c->r0) * f;
        } else {
            phi = (IK_PI / 2) * (ik_real)(rings - r) / (ik_real)s->cap_rings;
            a = c->length + c->r1 * IK_COS(phi), rho = c->r1 * IK_SIN(phi);
        }
        for (k = 0; k < S; ++k) {
            ik_real theta = 2 * IK_PI * (ik_real)k / (ik_real)S;
            ik_vec3 radial = ik_vec3_add(ik_vec3_scale(u, IK_COS(theta)), ik_vec3_scale(w, IK_SIN(theta)));
            put_vertex(c, s->blend, a, ik_vec3_scale(radial, rho), m, first + r * S + k);
        }
    }
    put_vertex(c, s->blend, c->length + c->r1, ik_vec3_zero(), m, pole1);
    /* Counter-clockwise from outside: with k turning positively about the
     * axis, (ring r, k), (r, k + 1), (r + 1, k) faces away from the axis;
     * the start's fan turns the other way round its pole. */
    for (k = 0; k < S; ++k) {
        int k1 = (k + 1) % S, *ix;
        ix = m->indices + (size_t)tri * 3;
        ix[0] = pole0, ix[1] = first + k1, ix[2] = first + k;
        if (m->triangle_joint) m->triangle_joint[tri] = joint;
        ++tri;
        for (r = 0; r + 1 < rings; ++r) {
            int a0 = first + r * S + k, a1 = first + r * S + k1, b0 = a0 + S, b1 = a1 + S;
            ix = m->indices + (size_t)tri * 3;
            ix[0] = a0, ix[1] = a1, ix[2] = b0;
            ix[3] = a1, ix[4] = b1, ix[5] = b0;
            if (m->triangle_joint) m->triangle_joint[tri] = m->triangle_joint[tri + 1] = joint;
            tri += 2;
        }
        ix = m->indices + (size_t)tri * 3;
        ix[0] = pole1, ix[1] = first + (rings - 1) * S + k, ix[2] = first + (rings - 1) * S + k1;
        if (m->triangle_joint) m->triangle_joint[tri] = joint;
        ++tri;
    }
}

ik_result ik_bone_mesh_build(const ik_skeleton *skeleton, const ik_mat4 *rest_ms, const ik_bone_mesh_shape *shape,
                             int vertex_capacity, int triangle_capacity, ik_bone_mesh *out) {
    int vertices, triangles, n, cursor = 0;
    ik_real min_length;
    capsule c;
    ik_result r;
    if (!out) return IK_ERR_NULL;
    if ((r = ik_bone_mesh_count(skeleton, rest_ms, shape, &vertices, &triangles)) != IK_OK) return r;
    if (!out->positions_ms || !out->joints || !out->weights || !out->indices) return IK_ERR_NULL;
    if (vertex_capacity < vertices || triangle_capacity < triangles) return IK_ERR_CAPACITY;
    check(skeleton, rest_ms, shape, &min_length);
    for (n = 0; next_capsule(skeleton, rest_ms, shape, min_length, &cursor, &c); ++n)
        put_capsule(&c, shape, out, n * capsule_vertices(shape), n * capsule_triangles(shape));
    return IK_OK;
}

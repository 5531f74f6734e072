/* Capsule bodies (bone_mesh.h): on the built humanoid and on a mirrored and
 * a rescaled twin, the body is a closed, outward-facing surface of the
 * capsules' volume, stays put when skinned at rest, stays on the bones when
 * the knees and elbows bend, and bad shapes are refused. */
#include <ikit/bone_mesh.h>
#include <ikit/humanoid.h>
#include <ikit/skinning.h>

#include <stdlib.h>
#include <string.h>

#include "support/check.h"

#define N IK_HUMANOID_BUILT_JOINTS

typedef struct body {
    ik_skeleton skeleton;
    int parents[N];
    const char *names[N];
    ik_transform rest_ls[N];
    ik_mat4 root_ms, rest_ms[N];
    ik_real radius[N], leaf[N];
    int vertex_count, triangle_count;
    ik_vec3 *positions;
    int *joints, *indices, *triangle_joint;
    ik_real *weights;
} body;

/* The built humanoid `height` tall under `root_ms`, and its body. */
static int body_build(body *b, ik_real height, ik_mat4 root_ms) {
    ik_bone_mesh_shape shape = ik_bone_mesh_shape_make();
    ik_bone_mesh mesh;
    memset(b, 0, sizeof *b);
    if (ik_humanoid_build_skeleton(height, N, b->parents, b->names, b->rest_ls) != N) return 0;
    if (ik_humanoid_build_body(height, N, b->radius, b->leaf) != N) return 0;
    if (ik_skeleton_init(&b->skeleton, N, b->parents, b->names, b->rest_ls, NULL) != IK_OK) return 0;
    b->root_ms = root_ms;
    ik_skeleton_fk(&b->skeleton, b->rest_ls, &b->root_ms, b->rest_ms);
    shape.radius = b->radius;
    shape.leaf_length = b->leaf;
    if (ik_bone_mesh_count(&b->skeleton, b->rest_ms, &shape, &b->vertex_count, &b->triangle_count) != IK_OK) return 0;
    b->positions = (ik_vec3 *)malloc((size_t)b->vertex_count * sizeof *b->positions);
    b->joints = (int *)malloc((size_t)b->vertex_count * 4 * sizeof *b->joints);
    b->weights = (ik_real *)malloc((size_t)b->vertex_count * 4 * sizeof *b->weights);
    b->indices = (int *)malloc((size_t)b->triangle_count * 3 * sizeof *b->indices);
    b->triangle_joint = (int *)malloc((size_t)b->triangle_count * sizeof *b->triangle_joint);
    if (!b->positions || !b->joints || !b->weights || !b->indices || !b->triangle_joint) return 0;
    mesh.positions_ms = b->positions, mesh.joints = b->joints, mesh.weights = b->weights;
    mesh.indices = b->indices, mesh.triangle_joint = b->triangle_joint;
    return ik_bone_mesh_build(&b->skeleton, b->rest_ms, &shape, b->vertex_count, b->triangle_count, &mesh) == IK_OK;
}

static void body_free(body *b) {
    free(b->positions);
    free(b->joints);
    free(b->weights);
    free(b->indices);
    free(b->triangle_joint);
}

static int compare_edges(const void *a, const void *b) {
    const long long *x = (const long long *)a, *y = (const long long *)b;
    return *x < *y ? -1 : *x > *y;
}

/* Closed and consistently oriented: every directed edge (a, b) appears once
 * and its reverse (b, a) once. */
static int closed_and_oriented(const body *b) {
    size_t count = (size_t)b->triangle_count * 3, i;
    long long *edges = (long long *)malloc(count * sizeof *edges);
    int ok = edges != NULL;
    for (i = 0; ok && i < count; ++i) {
        size_t t = i / 3, k = i % 3;
        long long from = b->indices[t * 3 + k], to = b->indices[t * 3 + (k + 1) % 3];
        edges[i] = from * b->vertex_count + to;
    }
    if (ok) qsort(edges, count, sizeof *edges, compare_edges);
    for (i = 0; ok && i < count; ++i) {
        long long from = edges[i] / b->vertex_count, to = edges[i] % b->vertex_count,
                  reverse = to * b->vertex_count + from;
        if (i + 1 < count && edges[i + 1] == edges[i]) ok = 0;
        if (ok && !bsearch(&reverse, edges, count, sizeof *edges, compare_edges)) ok = 0;
    }
    free(edges);
    return ok;
}

/* Signed volume of triangles [first, first + count): sum of p0 . (p1 x p2) / 6,
 * positive for a closed surface facing out. */
static ik_real signed_volume(const body *b, const ik_vec3 *p, int first, int count) {
    double v = 0;
    int t;
    for (t = first; t < first + count; ++t) {
        const int *ix = b->indices + (size_t)t * 3;
        v += (double)ik_vec3_dot(p[ix[0]], ik_vec3_cross(p[ix[1]], p[ix[2]]));
    }
    return (ik_real)(v / 6);
}

/* Distance from p to the segment a-b. */
static ik_real segment_distance(ik_vec3 p, ik_vec3 a, ik_vec3 b) {
    ik_vec3 ab = ik_vec3_sub(b, a);
    ik_real len_sq = ik_vec3_dot(ab, ab), u = len_sq > 0 ? ik_vec3_dot(ik_vec3_sub(p, a), ab) / len_sq : 0;
    return ik_vec3_distance(p, ik_vec3_mad(a, ab, ik_clampr(u, 0, 1)));
}

/* Each capsule (2 * segments * rings triangles, default shape: 2 * 12 * 8)
 * encloses about pi r^2 L + (2/3) pi (r0^3 + r1^3) for its bone: a
 * 12-sided ring holds 0.955 of the circle's area, the three-ring caps a
 * little less of the sphere's; between 0.8 and 1.02 of it. */
static void check_body(const char *what, ik_real height, ik_mat4 root_ms) {
    body b;
    const int per_capsule = 2 * 12 * 8;
    int built = body_build(&b, height, root_ms), v, t, k, c;
    check_property weights = {"weights are four joints summing to 1", 0, 0};
    check_property volume = {"each capsule encloses its volume, facing out", 0, 0};
    check_property rest = {"skinned at rest, every vertex stays", 0, 0};
    check_property on_bones = {"bent knees and elbows: the body stays on its bones", 0, 0};
    ik_mat4 inverse_bind[N], skin_ms[N], model_ms[N];
    ik_transform pose[N];
    ik_vec3 *posed;
    ik_real scale = IK_FABS(height) / (ik_real)1.8, max_radius = 0;
    CHECK(built, "%s: body built", what);
    if (!built) {
        body_free(&b);
        return;
    }
    CHECK(b.triangle_count % per_capsule == 0 && b.triangle_count / per_capsule == N - 1 + 3,
          "%s: a capsule per bone (22) and for the head and hands: %d triangles", what, b.triangle_count);
    CHECK(closed_and_oriented(&b), "%s: closed, every edge shared by two triangles in opposite directions", what);
    for (v = 0; v < b.vertex_count; ++v) {
        ik_real sum = 0;
        int fine = ik_vec3_finite(b.positions[v]);
        for (k = 0; k < 4; ++k) {
            sum += b.weights[v * 4 + k];
            fine = fine && b.weights[v * 4 + k] >= 0 && b.joints[v * 4 + k] >= 0 && b.joints[v * 4 + k] < N;
        }
        PROPERTY_CASE(weights, fine && IK_FABS(sum - 1) < (ik_real)1e-5, "%s vertex %d sum %g", what, v, (double)sum);
    }
    property_end(&weights);
    for (c = 0; c < b.triangle_count / per_capsule; ++c) {
        int j = b.triangle_joint[c * per_capsule], child = -1;
        ik_real got = signed_volume(&b, b.positions, c * per_capsule, per_capsule), expect, r0, r1, len;
        /* bones come first in joint order: capsule c < 22 is the bone ending at joint c + 1 */
        if (c < N - 1) {
            child = c + 1;
            r0 = b.radius[j], r1 = b.radius[child];
            len = ik_vec3_distance(ik_mat4_translation(&b.rest_ms[j]), ik_mat4_translation(&b.rest_ms[child]));
        } else {
            r0 = r1 = b.radius[j];
            len = b.leaf[j];
        }
        expect = IK_PI * len * (r0 * r0 + r0 * r1 + r1 * r1) / 3 + (2 * IK_PI / 3) * (r0 * r0 * r0 + r1 * r1 * r1);
        PROPERTY_CASE(volume, got > (ik_real)0.8 * expect && got < (ik_real)1.02 * expect,
                      "%s capsule %d: volume %g, expected about %g", what, c, (double)got, (double)expect);
        max_radius = ik_maxr(max_radius, ik_maxr(r0, r1));
    }
    property_end(&volume);
    posed = (ik_vec3 *)malloc((size_t)b.vertex_count * sizeof *posed);
    for (k = 0; k < N; ++k) ik_mat4_inverse(&b.rest_ms[k], &inverse_bind[k]);
    ik_skin_matrices(b.rest_ms, inverse_bind, N, skin_ms);
    CHECK(posed && ik_skin_vertices(skin_ms, N, b.joints, b.weights, b.positions, b.vertex_count, posed) == IK_OK,
          "%s: skinned at rest", what);
    for (v = 0; posed && v < b.vertex_count; ++v)
        PROPERTY_CASE(rest, ik_vec3_distance(posed[v], b.positions[v]) < (ik_real)1e-4 * scale, "%s vertex %d", what,
                      v);
    property_end(&rest);
    /* knees 90 degrees back, elbows 90 forward, a hip raised 40 degrees */
    memcpy(pose, b.rest_ls, sizeof pose);
    for (k = 0; k < N; ++k) {
        const char *n = b.names[k];
        if (!strcmp(n, "LeftLeg") || !strcmp(n, "RightLeg"))
            pose[k].rotation = ik_quat_from_axis_angle(ik_v3(1, 0, 0), IK_PI / 2);
        if (!strcmp(n, "LeftForeArm") || !strcmp(n, "RightForeArm"))
            pose[k].rotation = ik_quat_from_axis_angle(ik_v3(1, 0, 0), -IK_PI / 2);
        if (!strcmp(n, "LeftUpLeg")) pose[k].rotation = ik_quat_from_axis_angle(ik_v3(1, 0, 0), -(ik_real)0.7);
    }
    ik_skeleton_fk(&b.skeleton, pose, &b.root_ms, model_ms);
    ik_skin_matrices(model_ms, inverse_bind, N, skin_ms);
    CHECK(posed && ik_skin_vertices(skin_ms, N, b.joints, b.weights, b.positions, b.vertex_count, posed) == IK_OK,
          "%s: skinned bent", what);
    for (t = 0; posed && t < b.triangle_count; ++t) {
        /* each vertex of a triangle lies within its capsule's reach of the
         * posed bone (or leaf) it follows, or of a neighbouring bone */
        int j = b.triangle_joint[t], i;
        for (i = 0; i < 3; ++i) {
            ik_vec3 p = posed[b.indices[t * 3 + i]];
            ik_real best = (ik_real)1e30;
            for (k = 1; k < N; ++k)
                best = ik_minr(best, segment_distance(p, ik_mat4_translation(&model_ms[b.parents[k]]),
                                                      ik_mat4_translation(&model_ms[k])));
            if (b.leaf[j] > 0) best = ik_minr(best, ik_vec3_distance(p, ik_mat4_translation(&model_ms[j])) - b.leaf[j]);
            PROPERTY_CASE(on_bones, best <= (ik_real)1.05 * max_radius, "%s triangle %d: %g from the bones (radius %g)",
                          what, t, (double)best, (double)max_radius);
        }
    }
    property_end(&on_bones);
    free(posed);
    body_free(&b);
}

static void test_bodies(void) {
    check_body("1.8 m humanoid", (ik_real)1.8, ik_mat4_identity());
    check_body("180-unit humanoid", 180, ik_mat4_identity());
    check_body("mirrored root (-1, 1, 1)", (ik_real)1.8,
               ik_mat4_from_trs(ik_vec3_zero(), ik_quat_identity(), ik_v3(-1, 1, 1)));
    check_body("Z-up, moved", (ik_real)1.8,
               ik_mat4_from_trs(ik_v3(5, -2, 1), ik_quat_from_axis_angle(ik_v3(1, 0, 0), IK_PI / 2), ik_v3(1, 1, 1)));
}

/* No radius array: 0.15 of each bone's length; a zero-length bone gets no
 * capsule; a lone root with a leaf length gets one along its y axis. */
static void test_defaults_and_degenerate(void) {
    int parents[3] = {-1, 0, 1}, vertices = 0, triangles = 0;
    ik_transform rest[3];
    ik_mat4 rest_ms[3];
    ik_skeleton sk;
    ik_bone_mesh_shape shape = ik_bone_mesh_shape_make();
    ik_real leaf[3] = {0, 0, 1}, radius[3] = {(ik_real)0.1, (ik_real)0.1, (ik_real)0.1};
    rest[0] = rest[1] = rest[2] = ik_transform_identity();
    rest[1].translation = ik_v3(0, 1, 0);
    CHECK(ik_skeleton_init(&sk, 3, parents, NULL, rest, NULL) == IK_OK, "skeleton");
    ik_skeleton_fk(&sk, rest, NULL, rest_ms);
    CHECK(ik_bone_mesh_count(&sk, rest_ms, &shape, &vertices, &triangles) == IK_OK && triangles == 2 * 12 * 8 &&
              vertices == 2 + 12 * 8,
          "one capsule: the zero-length bone has none (%d triangles)", triangles);
    shape.leaf_length = leaf;
    CHECK(ik_bone_mesh_count(&sk, rest_ms, &shape, &vertices, &triangles) == IK_OK && triangles == 2 * 2 * 12 * 8,
          "and the leaf's");
    shape.radius = radius;
    radius[1] = -1;
    CHECK(ik_bone_mesh_count(&sk, rest_ms, &shape, &vertices, &triangles) == IK_ERR_RANGE, "negative radius");
    radius[1] = (ik_real)NAN;
    CHECK(ik_bone_mesh_count(&sk, rest_ms, &shape, &vertices, &triangles) == IK_ERR_NONFINITE, "NaN radius");
    radius[1] = (ik_real)0.1;
    shape.blend = (ik_real)0.6;
    CHECK(ik_bone_mesh_count(&sk, rest_ms, &shape, &vertices, &triangles) == IK_ERR_RANGE, "blend over 0.5");
    shape.blend = (ik_real)0.3;
    shape.segments = 2;
    CHECK(ik_bone_mesh_count(&sk, rest_ms, &shape, &vertices, &triangles) == IK_ERR_RANGE, "two segments");
    shape.segments = 12;
    rest_ms[2].m[12] = (ik_real)INFINITY;
    CHECK(ik_bone_mesh_count(&sk, rest_ms, &shape, &vertices, &triangles) == IK_ERR_NONFINITE, "infinite rest");
    rest_ms[2].m[12] = 0;
    {
        ik_vec3 p[4];
        int j[16], ix[12];
        ik_real w[16];
        ik_bone_mesh m;
        m.positions_ms = p, m.joints = j, m.weights = w, m.indices = ix, m.triangle_joint = NULL;
        p[0] = ik_v3(7, 7, 7);
        CHECK(ik_bone_mesh_build(&sk, rest_ms, &shape, 4, 4, &m) == IK_ERR_CAPACITY && p[0].x == 7,
              "too small buffers: refused, nothing written");
        CHECK(ik_bone_mesh_build(&sk, rest_ms, NULL, 4, 4, &m) == IK_ERR_NULL, "NULL shape");
    }
}

int main(void) {
    test_bodies();
    test_defaults_and_degenerate();
    return check_summary("bone_mesh");
}

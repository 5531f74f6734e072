/* Linear blend skinning (ik_skin_vertices) and the skinned meshes of the
 * glTF rigs in $IKIT_DATA/gltf: a vertex weighted to one joint moves rigidly
 * with it, weights are normalised, blends are the weighted mean of the rigid
 * motions, the bind pose gives back the mesh's own positions, and bad
 * influences are refused. */
#define _POSIX_C_SOURCE 200809L
#include <ikit/gltf.h>
#include <ikit/skinning.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/check.h"
#include "support/rng.h"

#ifdef IKIT_DOUBLE
#define TOL 1e-9
#else
#define TOL 2e-4
#endif

#define JOINTS 6

static ik_mat4 random_affine(rng *r) {
    return ik_mat4_from_trs(rng_in_ball(r, 2), rng_rotation(r),
                            ik_v3(rng_range(r, 0.5, 2), rng_range(r, 0.5, 2), rng_range(r, 0.5, 2)));
}

/* Random joint and inverse bind matrices give random skin matrices. */
static void random_skin(rng *r, ik_mat4 *skin_ms) {
    ik_mat4 joint_ms[JOINTS], inverse_bind[JOINTS];
    int j;
    for (j = 0; j < JOINTS; ++j) {
        joint_ms[j] = random_affine(r);
        inverse_bind[j] = random_affine(r);
    }
    ik_skin_matrices(joint_ms, inverse_bind, JOINTS, skin_ms);
    for (j = 0; j < JOINTS; ++j) {
        ik_vec3 p = rng_in_ball(r, 1);
        ik_vec3 want = ik_mat4_transform_point(&joint_ms[j], ik_mat4_transform_point(&inverse_bind[j], p));
        CHECK(ik_vec3_distance(ik_mat4_transform_point(&skin_ms[j], p), want) < TOL * 10, "skin matrix %d", j);
    }
}

/* One joint with weight 1, the other slots junk joints with weight 0. */
static void test_rigid(void) {
    check_property prop = {"rigid vertex follows its joint", 0, 0};
    rng r = rng_seeded(17);
    int c;
    for (c = 0; c < 200; ++c) {
        ik_mat4 skin_ms[JOINTS];
        int joints[4], j = (int)(rng_next(&r) % JOINTS), slot = (int)(rng_next(&r) % 4), k;
        ik_real weights[4] = {0, 0, 0, 0};
        ik_vec3 p = rng_in_ball(&r, 1), out = ik_v3(0, 0, 0), want;
        ik_result res;
        random_skin(&r, skin_ms);
        for (k = 0; k < 4; ++k) joints[k] = 99; /* out of range, but unweighted */
        joints[slot] = j;
        weights[slot] = 1;
        res = ik_skin_vertices(skin_ms, JOINTS, joints, weights, &p, 1, &out);
        want = ik_mat4_transform_point(&skin_ms[j], p);
        PROPERTY_CASE(prop, res == IK_OK && ik_vec3_distance(out, want) < TOL * 10, "%s, off by %g", ik_result_str(res),
                      (double)ik_vec3_distance(out, want));
    }
    property_end(&prop);
}

/* Weights (a, b, c, d) and (s a, s b, s c, s d) skin alike, and the result
 * is sum w_k M_k p / sum w_k. */
static void test_blend_and_normalisation(void) {
    check_property prop = {"blend is the normalised weighted mean", 0, 0};
    rng r = rng_seeded(18);
    int c;
    for (c = 0; c < 200; ++c) {
        ik_mat4 skin_ms[JOINTS];
        int joints[8], k;
        ik_real weights[8], sum = 0, s = rng_range(&r, 0.1, 10);
        ik_vec3 p[2], out[2], want = ik_v3(0, 0, 0);
        ik_result res;
        random_skin(&r, skin_ms);
        p[0] = p[1] = rng_in_ball(&r, 1);
        for (k = 0; k < 4; ++k) {
            joints[k] = joints[k + 4] = (int)(rng_next(&r) % JOINTS);
            weights[k] = rng_range(&r, 0, 1);
            weights[k + 4] = weights[k] * s;
            sum += weights[k];
        }
        for (k = 0; k < 4; ++k)
            want =
                ik_vec3_add(want, ik_vec3_scale(ik_mat4_transform_point(&skin_ms[joints[k]], p[0]), weights[k] / sum));
        res = ik_skin_vertices(skin_ms, JOINTS, joints, weights, p, 2, out);
        PROPERTY_CASE(
            prop,
            res == IK_OK && ik_vec3_distance(out[0], want) < TOL * 20 && ik_vec3_distance(out[1], out[0]) < TOL * 20,
            "%s: %g, %g", ik_result_str(res), (double)ik_vec3_distance(out[0], want),
            (double)ik_vec3_distance(out[1], out[0]));
    }
    property_end(&prop);
}

static void test_bad_influences(void) {
    ik_mat4 skin_ms[2] = {ik_mat4_identity(), ik_mat4_identity()};
    ik_vec3 p = ik_v3(1, 2, 3), out;
    int joints[4] = {0, 1, 0, 0};
    ik_real nan_w[4] = {1, 0, 0, 0}, zero[4] = {0, 0, 0, 0}, negative[4] = {1.5, -0.5, 0, 0};
    int far[4] = {0, 2, 0, 0};
    ik_real half[4] = {0.5, 0.5, 0, 0};
    ik_vec3 nan_p = ik_v3(0, 0, 0);
    nan_w[0] = (ik_real)NAN;
    nan_p.y = nan_w[0];
    CHECK(ik_skin_vertices(skin_ms, 2, joints, nan_w, &p, 1, &out) == IK_ERR_NONFINITE, "NaN weight");
    CHECK(ik_skin_vertices(skin_ms, 2, joints, half, &nan_p, 1, &out) == IK_ERR_NONFINITE, "NaN position");
    CHECK(ik_skin_vertices(skin_ms, 2, joints, zero, &p, 1, &out) == IK_ERR_DEGENERATE, "all weights zero");
    CHECK(ik_skin_vertices(skin_ms, 2, joints, negative, &p, 1, &out) == IK_ERR_DEGENERATE, "negative weight");
    CHECK(ik_skin_vertices(skin_ms, 2, far, half, &p, 1, &out) == IK_ERR_RANGE, "joint beyond the skin");
    CHECK(ik_skin_vertices(skin_ms, 2, joints, half, &p, -1, &out) == IK_ERR_RANGE, "negative count");
    CHECK(ik_skin_vertices(skin_ms, 2, NULL, half, &p, 1, &out) == IK_ERR_NULL, "NULL joints");
    CHECK(ik_skin_vertices(skin_ms, 2, joints, half, &p, 0, &out) == IK_OK, "no vertices");
}

/* Weights are divided by their sum: a lone subnormal weight (a fuzzer's
 * find: 1 / 9e-41 overflowed the float build to infinity) is still the
 * whole influence; a point whose skinning overflows is refused, not
 * returned as infinity. */
static void test_extreme_weights_and_points(void) {
    ik_mat4 skin_ms[2] = {ik_mat4_from_trs(ik_v3(1, 0, 0), ik_quat_identity(), ik_v3(2, 2, 2)), ik_mat4_identity()};
    ik_vec3 p = ik_v3(1, 2, 3), huge = ik_v3((ik_real)(sizeof(ik_real) == 4 ? 3e38 : 1e308), 0, 0),
            out = ik_v3(0, 0, 0);
    int joints[4] = {0, 1, 0, 0};
    ik_real tiny[4] = {(ik_real)9.18355e-41, 0, 0, 0}, two_tiny[4] = {(ik_real)1e-40, (ik_real)1e-40, 0, 0};
    ik_real one[4] = {1, 0, 0, 0};
    CHECK(ik_skin_vertices(skin_ms, 2, joints, tiny, &p, 1, &out) == IK_OK &&
              ik_vec3_distance(out, ik_v3(3, 4, 6)) < (ik_real)1e-5,
          "a subnormal lone weight follows its joint: (%g %g %g)", (double)out.x, (double)out.y, (double)out.z);
    CHECK(ik_skin_vertices(skin_ms, 2, joints, two_tiny, &p, 1, &out) == IK_OK &&
              ik_vec3_distance(out, ik_v3(2, 3, 4.5)) < (ik_real)1e-4,
          "two subnormal weights blend half and half: (%g %g %g)", (double)out.x, (double)out.y, (double)out.z);
    CHECK(ik_skin_vertices(skin_ms, 2, joints, one, &huge, 1, &out) == IK_ERR_NONFINITE,
          "a point scaled past the largest number is refused");
}

/* ---- malformed skinned meshes ------------------------------------------------ */

/* A one-triangle skinned mesh on a one-joint skin, written to a temporary
 * .gltf and .bin with JOINTS_0 of vertex 0 set to `joint`, the first weight
 * of vertex 1 to `weight1` and index 2 set to `index`, `primitive_extra`
 * added to the primitive's members; the reader's answer (its error in *error). */
static ik_result read_triangle_weighted(unsigned char joint, float weight1, unsigned short index,
                                        const char *primitive_extra, int *triangles, ik_error *error) {
    char dir[] = "/tmp/ikit-test-skinning-XXXXXX", gltf_path[80], bin_path[80];
    unsigned char bin[36 + 12 + 48 + 8 + 64];
    float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0}, weights[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    float ibm[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    unsigned short indices[4] = {0, 1, 0, 0};
    ik_gltf *g = NULL;
    ik_gltf_skinned_mesh mesh;
    ik_result r;
    FILE *f;
    indices[2] = index;
    weights[4] = weight1;
    memset(bin, 0, sizeof bin);
    memcpy(bin, positions, 36);
    bin[36] = joint;
    memcpy(bin + 48, weights, 48);
    memcpy(bin + 96, indices, 8);
    memcpy(bin + 104, ibm, 64);
    if (!mkdtemp(dir)) return IK_ERR_IO;
    snprintf(gltf_path, sizeof gltf_path, "%s/t.gltf", dir);
    snprintf(bin_path, sizeof bin_path, "%s/t.bin", dir);
    f = fopen(bin_path, "wb");
    if (f) {
        fwrite(bin, 1, sizeof bin, f);
        fclose(f);
    }
    f = fopen(gltf_path, "w");
    if (f) {
        fprintf(f,
                "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"mesh\":0,\"skin\":0},{\"name\":\"j\"}],"
                "\"skins\":[{\"joints\":[1],\"inverseBindMatrices\":4}],"
                "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":1,\"WEIGHTS_0\":2},"
                "\"indices\":3%s}]}],\"accessors\":["
                "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
                "{\"bufferView\":1,\"componentType\":5121,\"count\":3,\"type\":\"VEC4\"},"
                "{\"bufferView\":2,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},"
                "{\"bufferView\":3,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"},"
                "{\"bufferView\":4,\"componentType\":5126,\"count\":1,\"type\":\"MAT4\"}],"
                "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":36,"
                "\"byteLength\":12},{\"buffer\":0,\"byteOffset\":48,\"byteLength\":48},{\"buffer\":0,"
                "\"byteOffset\":96,\"byteLength\":6},{\"buffer\":0,\"byteOffset\":104,\"byteLength\":64}],"
                "\"buffers\":[{\"byteLength\":168,\"uri\":\"t.bin\"}]}\n",
                primitive_extra);
        fclose(f);
    }
    r = ik_gltf_read_file(gltf_path, &g, error);
    *triangles = -1;
    if (r == IK_OK) {
        r = ik_gltf_skinned_mesh_read(g, 0, &mesh, error);
        if (r == IK_OK) {
            *triangles = mesh.triangle_count;
            ik_gltf_skinned_mesh_free(&mesh);
        }
        ik_gltf_free(g);
    }
    remove(gltf_path);
    remove(bin_path);
    rmdir(dir);
    return r;
}

static ik_result read_triangle(unsigned char joint, unsigned short index, const char *primitive_extra, int *triangles) {
    ik_error e;
    return read_triangle_weighted(joint, 1, index, primitive_extra, triangles, &e);
}

static void test_malformed_meshes(void) {
    static const float bad_weight[2] = {0, -0.25f};
    ik_error e;
    int triangles, k;
    ik_result r = read_triangle(0, 2, "", &triangles);
    CHECK(r == IK_OK && triangles == 1, "the well-formed triangle reads: %s, %d", ik_result_str(r), triangles);
    r = read_triangle(1, 2, "", &triangles);
    CHECK(r == IK_ERR_PARSE, "JOINTS_0 naming joint 1 of a one-joint skin: %s", ik_result_str(r));
    r = read_triangle(0, 3, "", &triangles);
    CHECK(r == IK_ERR_PARSE, "an index beyond the three vertices: %s", ik_result_str(r));
    /* Draco-compressed: its accessors would decode as zeros, so it is refused. */
    r = read_triangle(0, 2, ",\"extensions\":{\"KHR_draco_mesh_compression\":{\"bufferView\":0,\"attributes\":{}}}",
                      &triangles);
    CHECK(r == IK_ERR_UNSUPPORTED, "a Draco-compressed primitive is refused: %s", ik_result_str(r));
    r = read_triangle(0, 2, ",\"extensions\":{\"KHR_materials_variants\":{}}", &triangles);
    CHECK(r == IK_OK && triangles == 1, "another extension on a primitive changes nothing: %s", ik_result_str(r));
    /* A vertex whose weights follow no joint, or with a negative weight,
     * could not be skinned: refused where it is, vertex named (a NaN is
     * refused by the accessor's decoding already). */
    for (k = 0; k < 2; ++k) {
        r = read_triangle_weighted(0, bad_weight[k], 2, "", &triangles, &e);
        CHECK(r == IK_ERR_PARSE && strcmp(e.path, "/meshes/0/primitives/0/attributes/WEIGHTS_0") == 0 &&
                  strstr(e.message, "vertex 1") && strstr(e.message, k == 0 ? "all 0" : "weight 0 is"),
              "vertex 1's first weight %g refused: %s: %s at %s", (double)bad_weight[k], ik_result_str(r), e.message,
              e.path);
    }
}

/* Many skinned nodes (issue 18: each mesh read walked every node, mesh and
 * material before, so a file of 20,000 took 5 s to draw): 40 nodes with a
 * mesh and a skin, every third node without a skin in between, meshes
 * named in reverse order, each mesh's one-triangle primitive with its own
 * material of base colour (k / 64, 0.5, 1 - k / 64, 1). Skinned mesh i is
 * the i-th skinned node's, with its material's colour. */
static void test_many_skinned_meshes(void) {
    enum { MESHES = 40, NODES = MESHES + MESHES / 2 };
    char dir[] = "/tmp/ikit-test-skinning-XXXXXX", gltf_path[80], bin_path[80];
    float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0}, weights[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    int node_mesh[NODES], k, n, skinned = 0;
    ik_gltf *g = NULL;
    ik_error e;
    FILE *f;
    if (!mkdtemp(dir)) return;
    snprintf(gltf_path, sizeof gltf_path, "%s/t.gltf", dir);
    snprintf(bin_path, sizeof bin_path, "%s/t.bin", dir);
    f = fopen(gltf_path, "w");
    CHECK(f != NULL, "wrote %s", gltf_path);
    if (!f) return;
    fprintf(f, "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[");
    for (n = 0, k = 0; n < NODES; ++n) {
        int has_skin = n % 3 != 2;
        node_mesh[n] = has_skin ? MESHES - 1 - k++ : n % MESHES;
        fprintf(f, "%s{\"mesh\":%d%s}", n ? "," : "", node_mesh[n], has_skin ? ",\"skin\":0" : "");
    }
    fprintf(f, ",{\"name\":\"j\"}],\"skins\":[{\"joints\":[%d]}],\"meshes\":[", NODES);
    for (k = 0; k < MESHES; ++k)
        fprintf(f,
                "%s{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":1,\"WEIGHTS_0\":2},"
                "\"material\":%d}]}",
                k ? "," : "", k);
    fprintf(f, "],\"materials\":[");
    for (k = 0; k < MESHES; ++k)
        fprintf(f, "%s{\"pbrMetallicRoughness\":{\"baseColorFactor\":[%g,0.5,%g,1]}}", k ? "," : "", k / 64.0,
                1 - k / 64.0);
    fprintf(f,
            "],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
            "{\"bufferView\":1,\"componentType\":5121,\"count\":3,\"type\":\"VEC4\"},"
            "{\"bufferView\":2,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"}],"
            "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":36,"
            "\"byteLength\":12},"
            "{\"buffer\":0,\"byteOffset\":48,\"byteLength\":48}],\"buffers\":[{\"byteLength\":96,\"uri\":\"t."
            "bin\"}]}\n");
    fclose(f);
    f = fopen(bin_path, "wb");
    if (f) {
        unsigned char bin[96];
        memset(bin, 0, sizeof bin);
        memcpy(bin, positions, 36);
        memcpy(bin + 48, weights, 48); /* the joint bytes at 36..47 stay 0 */
        fwrite(bin, 1, sizeof bin, f);
        fclose(f);
    }
    CHECK(ik_gltf_read_file(gltf_path, &g, &e) == IK_OK, "many skinned meshes read: %s", g ? "" : e.message);
    if (g) {
        CHECK(ik_gltf_skinned_mesh_count(g) == MESHES, "%d skinned meshes", ik_gltf_skinned_mesh_count(g));
        for (n = 0; n < NODES; ++n) {
            ik_gltf_skinned_mesh mesh;
            ik_result r;
            double red;
            if (n % 3 == 2) continue;
            red = node_mesh[n] / 64.0;
            r = ik_gltf_skinned_mesh_read(g, skinned, &mesh, &e);
            CHECK(r == IK_OK && mesh.triangle_count == 1 && mesh.part_count == 1, "skinned mesh %d: %s", skinned,
                  ik_result_str(r));
            if (r == IK_OK) {
                CHECK(fabs(mesh.parts[0].base_color[0] - red) < 1e-6 &&
                          fabs(mesh.parts[0].base_color[2] - (1 - red)) < 1e-6,
                      "skinned mesh %d (node %d, mesh %d) has its material's colour: %g", skinned, n, node_mesh[n],
                      (double)mesh.parts[0].base_color[0]);
                CHECK(ik_vec3_distance(mesh.positions[1], ik_v3(1, 0, 0)) < 1e-6, "its positions are the buffer's");
                ik_gltf_skinned_mesh_free(&mesh);
            }
            ++skinned;
        }
        ik_gltf_free(g);
    }
    remove(gltf_path);
    remove(bin_path);
    rmdir(dir);
}

/* ---- real rigs ------------------------------------------------------------ */

static const char *const rigs[] = {"robot.glb", "girl.glb", "rigged_figure.glb", "male_base_mesh.glb",
                                   "SimpleSkin.gltf"};

/* Joint matrices equal to the inverse of the inverse bind matrices are the
 * bind pose, where skinning is the identity: every vertex stays put. The
 * mesh is well formed: indices within range, weights non-negative. */
static void check_rig_mesh(const char *dir, const char *file) {
    char path[700];
    ik_gltf *g = NULL;
    ik_error e;
    ik_result r;
    int m, count;
    snprintf(path, sizeof path, "%s/gltf/%s", dir, file);
    r = ik_gltf_read_file(path, &g, &e);
    CHECK(r == IK_OK, "%s: %s", file, e.message);
    if (r != IK_OK) return;
    count = ik_gltf_skinned_mesh_count(g);
    CHECK(count >= 1, "%s has a skinned mesh", file);
    for (m = 0; m < count; ++m) {
        ik_gltf_skinned_mesh mesh;
        const ik_gltf_skin *skin;
        ik_mat4 *bind_ms, *skin_ms;
        ik_vec3 *out;
        ik_real size = 0, worst = 0;
        int j, v, bad_index = 0;
        r = ik_gltf_skinned_mesh_read(g, m, &mesh, &e);
        CHECK(r == IK_OK, "%s mesh %d: %s", file, m, e.message);
        if (r != IK_OK) continue;
        CHECK(mesh.vertex_count > 0 && mesh.triangle_count > 0 && mesh.part_count > 0, "%s mesh %d: %d, %d", file, m,
              mesh.vertex_count, mesh.triangle_count);
        skin = ik_gltf_skeleton(g, mesh.skin);
        bind_ms = (ik_mat4 *)malloc(sizeof *bind_ms * (size_t)skin->skeleton.joint_count);
        skin_ms = (ik_mat4 *)malloc(sizeof *skin_ms * (size_t)skin->skeleton.joint_count);
        out = (ik_vec3 *)malloc(sizeof *out * ((size_t)mesh.vertex_count + 1));
        for (j = 0; j < skin->skeleton.joint_count; ++j) ik_mat4_inverse(&skin->inverse_bind[j], &bind_ms[j]);
        ik_skin_matrices(bind_ms, skin->inverse_bind, skin->skeleton.joint_count, skin_ms);
        r = ik_skin_vertices(skin_ms, skin->skeleton.joint_count, mesh.joints, mesh.weights, mesh.positions,
                             mesh.vertex_count, out);
        CHECK(r == IK_OK, "%s mesh %d skins: %s", file, m, ik_result_str(r));
        for (v = 0; v < mesh.vertex_count; ++v) {
            size = ik_maxr(size, ik_vec3_length(mesh.positions[v]));
            worst = ik_maxr(worst, ik_vec3_distance(out[v], mesh.positions[v]));
        }
        CHECK(worst <= TOL * 10 * (1 + size), "%s mesh %d: bind pose moves a vertex by %g (mesh size %g)", file, m,
              (double)worst, (double)size);
        /* Joint 0 carried by t: each vertex moves by (its weight on joint 0) t. */
        {
            ik_mat4 shift = ik_mat4_from_trs(ik_v3(0, 0, 1), ik_quat_identity(), ik_v3(1, 1, 1));
            ik_real off = 0;
            int k, connecting = 0;
            bind_ms[0] = ik_mat4_mul(&shift, &bind_ms[0]);
            ik_skin_matrices(bind_ms, skin->inverse_bind, skin->skeleton.joint_count, skin_ms);
            ik_skin_vertices(skin_ms, skin->skeleton.joint_count, mesh.joints, mesh.weights, mesh.positions,
                             mesh.vertex_count, out);
            for (v = 0; v < mesh.vertex_count; ++v) {
                ik_real w = 0, sum = 0;
                for (k = 0; k < 4; ++k) {
                    sum += mesh.weights[v * 4 + k];
                    if (mesh.joints[v * 4 + k] == 0) w += mesh.weights[v * 4 + k];
                    if (mesh.weights[v * 4 + k] > 0) connecting += skin->skin_joint[mesh.joints[v * 4 + k]] < 0;
                }
                off = ik_maxr(off, ik_vec3_distance(out[v], ik_vec3_add(mesh.positions[v], ik_v3(0, 0, w / sum))));
            }
            CHECK(off <= TOL * 10 * (1 + size), "%s mesh %d: moving joint 0 is off by %g", file, m, (double)off);
            CHECK(connecting == 0, "%s mesh %d: %d influences on connecting nodes", file, m, connecting);
        }
        for (v = 0; v < mesh.triangle_count * 3; ++v)
            bad_index += mesh.indices[v] < 0 || mesh.indices[v] >= mesh.vertex_count;
        CHECK(bad_index == 0, "%s mesh %d: %d indices out of range", file, m, bad_index);
        free(bind_ms);
        free(skin_ms);
        free(out);
        ik_gltf_skinned_mesh_free(&mesh);
    }
    CHECK(ik_gltf_skinned_mesh_read(g, count, NULL, &e) == IK_ERR_NULL, "NULL out");
    {
        ik_gltf_skinned_mesh none;
        CHECK(ik_gltf_skinned_mesh_read(g, count, &none, &e) == IK_ERR_RANGE, "mesh index beyond the count");
    }
    ik_gltf_free(g);
}

static void test_real_rigs(void) {
    const char *dir = getenv("IKIT_DATA");
    char probe[600];
    FILE *f;
    size_t i;
    if (dir) {
        snprintf(probe, sizeof probe, "%s/gltf/robot.glb", dir);
        f = fopen(probe, "rb");
        if (f)
            fclose(f);
        else
            dir = NULL;
    }
    if (!dir) {
        check_skip("real-asset corpus not found");
        return;
    }
    for (i = 0; i < sizeof rigs / sizeof rigs[0]; ++i) check_rig_mesh(dir, rigs[i]);
}

int main(void) {
    test_rigid();
    test_blend_and_normalisation();
    test_bad_influences();
    test_extreme_weights_and_points();
    test_malformed_meshes();
    test_many_skinned_meshes();
    test_real_rigs();
    return check_summary("test_skinning");
}

/* Replacing a clip's keys drops what only the replaced keys used, and
 * nothing else (src/io/gltf_prune.c): on a small skinned document written
 * here (two buffers, an image in a bufferView, 2-byte indices at an offset
 * of 2 modulo 4, times shared by two animations, an unused sampler, an
 * unused accessor and an unused view), the edit's orphans go (accessors,
 * views, the second buffer, their bytes: the exact byteLength), the input's
 * own unused objects stay with their bytes, every kept view keeps its
 * alignment, the mesh and the other clip read back unchanged; a second
 * edit drops the first one's keys; and a document with an extension the
 * writer does not follow is not pruned at all. */
#define _POSIX_C_SOURCE 200809L
#include <ikit/gltf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/check.h"
#include "support/gltf_unused.h"

static char dir[64];

static int write_file(const char *name, const unsigned char *bytes, size_t size) {
    char path[128];
    FILE *f;
    int ok;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!(f = fopen(path, "wb"))) return 0;
    ok = fwrite(bytes, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

static void put_floats(unsigned char *at, const float *v, int n) { memcpy(at, v, (size_t)n * 4); }

/* a.bin (337 bytes) and b.bin (32 bytes): the layout the JSON below names. */
static int write_buffers(void) {
    static const float times0[] = {0, 1}, move[] = {0, 1, 0, 0, 2, 0}, unused_out[] = {0, 0, 0, 1, 1, 1};
    static const float other_rot[] = {0, 0, 0, 1, 0, 0, 0.70710678f, 0.70710678f}, times1[] = {0, 0.5f};
    static const float positions[] = {0, 0, 0, 1, 0, 0, 0, 1, 0}, weights[] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    static const float unused_value[] = {42}, turn[] = {0, 0, 0, 1, 0, 0.6f, 0, 0.8f};
    static const unsigned short indices[] = {0, 1, 2};
    static const unsigned char joints[] = {0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, spare[] = {0xAB, 0xCD};
    static const unsigned char image[] = {0x89, 'P', 'N', 'G', 0x0D};
    unsigned char a[337], b[32];
    float ibm[32] = {0};
    int i;
    for (i = 0; i < 4; ++i) ibm[5 * i] = ibm[16 + 5 * i] = 1;
    ibm[16 + 13] = -1; /* the tip's inverse bind: y - 1 (column-major) */
    memset(a, 0, sizeof a);
    put_floats(a + 0, times0, 2);
    put_floats(a + 8, move, 6);
    put_floats(a + 32, unused_out, 6);
    put_floats(a + 56, other_rot, 8);
    put_floats(a + 88, times1, 2);
    memcpy(a + 96, spare, 2);
    memcpy(a + 98, indices, 6);
    put_floats(a + 104, positions, 9);
    memcpy(a + 140, joints, 12);
    put_floats(a + 152, weights, 12);
    put_floats(a + 200, ibm, 32);
    put_floats(a + 328, unused_value, 1);
    memcpy(a + 332, image, 5);
    put_floats(b, turn, 8);
    return write_file("a.bin", a, sizeof a) && write_file("b.bin", b, sizeof b);
}

/* Clip "edited" drives the tip with samplers 0 (times 0, then moves) and 2
 * (times at accessor 4, turns in buffer 1); its sampler 1 is unused; clip
 * "other" shares times accessor 0. `extension` goes on the root node. */
static int write_document(const char *name, const char *extension, const char *used) {
    char path[128];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!(f = fopen(path, "wb"))) return 0;
    fprintf(f,
            "{\"asset\":{\"version\":\"2.0\"},%s"
            "\"buffers\":[{\"uri\":\"a.bin\",\"byteLength\":337},{\"uri\":\"b.bin\",\"byteLength\":32}],"
            "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":8,"
            "\"byteLength\":24},"
            "{\"buffer\":0,\"byteOffset\":32,\"byteLength\":24},{\"buffer\":0,\"byteOffset\":56,\"byteLength\":32},"
            "{\"buffer\":0,\"byteOffset\":88,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":96,\"byteLength\":2},"
            "{\"buffer\":0,\"byteOffset\":98,\"byteLength\":6},{\"buffer\":0,\"byteOffset\":104,\"byteLength\":36},"
            "{\"buffer\":0,\"byteOffset\":140,\"byteLength\":12},{\"buffer\":0,\"byteOffset\":152,\"byteLength\":48},"
            "{\"buffer\":0,\"byteOffset\":200,\"byteLength\":128},{\"buffer\":0,\"byteOffset\":328,\"byteLength\":4},"
            "{\"buffer\":0,\"byteOffset\":332,\"byteLength\":5},{\"buffer\":1,\"byteLength\":32}],"
            "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],"
            "\"max\":[1]},"
            "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"},"
            "{\"bufferView\":2,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"},"
            "{\"bufferView\":3,\"componentType\":5126,\"count\":2,\"type\":\"VEC4\"},"
            "{\"bufferView\":4,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],\"max\":[0.5]},"
            "{\"bufferView\":6,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"},"
            "{\"bufferView\":7,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]},"
            "{\"bufferView\":8,\"componentType\":5121,\"count\":3,\"type\":\"VEC4\"},"
            "{\"bufferView\":9,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},"
            "{\"bufferView\":10,\"componentType\":5126,\"count\":2,\"type\":\"MAT4\"},"
            "{\"bufferView\":11,\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"},"
            "{\"bufferView\":13,\"componentType\":5126,\"count\":2,\"type\":\"VEC4\"}],"
            "\"images\":[{\"bufferView\":12,\"mimeType\":\"image/png\"}],"
            "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":6,\"JOINTS_0\":7,\"WEIGHTS_0\":8},\"indices\":"
            "5}]}],"
            "\"skins\":[{\"joints\":[0,1],\"inverseBindMatrices\":9}],"
            "\"nodes\":[{\"name\":\"root\",\"children\":[1]%s},{\"name\":\"tip\",\"translation\":[0,1,0]},"
            "{\"name\":\"body\",\"mesh\":0,\"skin\":0}],\"scenes\":[{\"nodes\":[0,2]}],\"scene\":0,"
            "\"animations\":[{\"name\":\"edited\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":"
            "\"translation\"}},"
            "{\"sampler\":2,\"target\":{\"node\":1,\"path\":\"rotation\"}}],"
            "\"samplers\":[{\"input\":0,\"output\":1},{\"input\":0,\"output\":2},{\"input\":4,\"output\":11}]},"
            "{\"name\":\"other\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"rotation\"}}],"
            "\"samplers\":[{\"input\":0,\"output\":3}]}]}",
            used, extension);
    return fclose(f) == 0;
}

static ik_gltf *load(const char *name) {
    char path[128];
    ik_gltf *g = NULL;
    ik_error e;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    CHECK(ik_gltf_read_file(path, &g, &e) == IK_OK, "%s loads: %s", name, e.message);
    return g;
}

/* New keys for the tip: a rotation about z over three keys. */
static ik_real key_times[3] = {0, (ik_real)0.5, 1}, key_values[12];
static ik_channel key_channel;
static ik_clip keys;

static void make_keys(int tip) {
    int k;
    for (k = 0; k < 3; ++k) {
        ik_quat q = ik_quat_from_axis_angle(ik_v3(0, 0, 1), (ik_real)0.4 * (ik_real)k);
        key_values[4 * k] = q.x, key_values[4 * k + 1] = q.y, key_values[4 * k + 2] = q.z, key_values[4 * k + 3] = q.w;
    }
    key_channel.joint = tip;
    key_channel.path = IK_CHANNEL_ROTATION;
    key_channel.interpolation = IK_INTERP_LINEAR;
    key_channel.key_count = 3;
    key_channel.times = key_times;
    key_channel.values = key_values;
    keys.name = "edited";
    keys.duration = 1;
    keys.channel_count = 1;
    keys.channels = &key_channel;
}

/* A written document: its bytes, JSON and BIN chunk. */
typedef struct written {
    unsigned char *bytes;
    size_t size;
    cJSON *doc;
    const unsigned char *bin;
    ik_gltf *back;
} written;

static int write_glb(ik_gltf *g, written *w) {
    ik_error e;
    unsigned long json_length;
    memset(w, 0, sizeof *w);
    CHECK(ik_gltf_write_memory(g, 1, &w->bytes, &w->size, &e) == IK_OK, "write: %s", e.message);
    if (!w->bytes || !(w->doc = glb_json_of(w->bytes, w->size))) return 0;
    json_length =
        w->bytes[12] | w->bytes[13] << 8 | (unsigned long)w->bytes[14] << 16 | (unsigned long)w->bytes[15] << 24;
    w->bin = w->bytes + 20 + json_length + 8;
    CHECK(ik_gltf_read_memory(w->bytes, w->size, NULL, &w->back, &e) == IK_OK, "written GLB reads back: %s", e.message);
    return w->back != NULL;
}

static void written_free(written *w) {
    free(w->bytes);
    cJSON_Delete(w->doc);
    ik_gltf_free(w->back);
}

static int number(const cJSON *obj, const char *key, int fallback) {
    const cJSON *v = cJSON_GetObjectItem(obj, key);
    return cJSON_IsNumber(v) ? v->valueint : fallback;
}

/* The bytes of view `v` in the BIN chunk. */
static const unsigned char *view_bytes(const written *w, int v) {
    return w->bin + number(cJSON_GetArrayItem(cJSON_GetObjectItem(w->doc, "bufferViews"), v), "byteOffset", 0);
}

static int same_channels(const ik_clip *a, const ik_clip *b) {
    int c;
    if (a->channel_count != b->channel_count) return 0;
    for (c = 0; c < a->channel_count; ++c) {
        const ik_channel *x = &a->channels[c], *y = &b->channels[c];
        int n = x->key_count * ik_channel_width(x->path);
        if (x->joint != y->joint || x->path != y->path || x->key_count != y->key_count ||
            memcmp(x->times, y->times, (size_t)x->key_count * sizeof(ik_real)) != 0 ||
            memcmp(x->values, y->values, (size_t)n * sizeof(ik_real)) != 0)
            return 0;
    }
    return 1;
}

static int same_mesh(ik_gltf *a, ik_gltf *b) {
    ik_gltf_skinned_mesh x, y;
    int same = 0;
    if (ik_gltf_skinned_mesh_read(a, 0, &x, NULL) != IK_OK) return 0;
    if (ik_gltf_skinned_mesh_read(b, 0, &y, NULL) == IK_OK) {
        same = x.vertex_count == 3 && y.vertex_count == 3 && x.triangle_count == 1 && y.triangle_count == 1 &&
               memcmp(x.positions, y.positions, 3 * sizeof(ik_vec3)) == 0 &&
               memcmp(x.joints, y.joints, 12 * sizeof(int)) == 0 &&
               memcmp(x.weights, y.weights, 12 * sizeof(ik_real)) == 0 &&
               memcmp(x.indices, y.indices, 3 * sizeof(int)) == 0;
        ik_gltf_skinned_mesh_free(&y);
    }
    ik_gltf_skinned_mesh_free(&x);
    return same;
}

/* Every accessor's start is a multiple of its component size, and of 4
 * for vertex attributes (glTF 2.0, section 3.6.2.4). */
static int aligned(const written *w) {
    const cJSON *views = cJSON_GetObjectItem(w->doc, "bufferViews"), *acc;
    int ok = 1;
    cJSON_ArrayForEach(acc, cJSON_GetObjectItem(w->doc, "accessors")) {
        int type = number(acc, "componentType", 0), size = type == 5126 || type == 5125   ? 4
                                                           : type == 5123 || type == 5122 ? 2
                                                                                          : 1;
        long start = number(cJSON_GetArrayItem(views, number(acc, "bufferView", 0)), "byteOffset", 0) +
                     number(acc, "byteOffset", 0);
        if (start % size != 0 || (type == 5126 && start % 4 != 0)) ok = 0;
    }
    return ok;
}

static void test_replace_drops_orphans(void) {
    ik_gltf *g = load("doc.gltf"), *orig = load("doc.gltf");
    written w, again;
    unused_count before, after;
    const cJSON *anim, *views, *unused_acc = NULL, *acc, *image;
    const unsigned char *bytes;
    float value;
    ik_error e;
    int tip, i;
    if (!g || !orig) {
        ik_gltf_free(g);
        ik_gltf_free(orig);
        return;
    }
    tip = ik_skeleton_find(&ik_gltf_skeleton(g, 0)->skeleton, "tip");
    make_keys(tip);
    CHECK(ik_gltf_replace_clip_keys(g, 0, 0, &keys, &e) == IK_OK, "replace: %s", e.message);
    if (!write_glb(g, &w)) {
        written_free(&w);
        ik_gltf_free(g);
        ik_gltf_free(orig);
        return;
    }
    /* orphaned: accessors 1, 4 and 11, views 1, 4 and 13, buffer 1; two
     * accessors and views for the new keys */
    CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(w.doc, "accessors")) == 11, "accessors: %d, 12 - 3 + 2 expected",
          cJSON_GetArraySize(cJSON_GetObjectItem(w.doc, "accessors")));
    CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(w.doc, "bufferViews")) == 13, "views: %d, 14 - 3 + 2 expected",
          cJSON_GetArraySize(cJSON_GetObjectItem(w.doc, "bufferViews")));
    CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(w.doc, "buffers")) == 1 && ik_gltf_buffer_count(g) == 1,
          "the buffer only the old turn used is gone");
    /* 337 bytes, the new keys appended at 340 (12 + 48 bytes), then the 24
     * and 8 bytes of the dropped views cut: runs keep their offsets mod 4 */
    CHECK(number(cJSON_GetArrayItem(cJSON_GetObjectItem(w.doc, "buffers"), 0), "byteLength", 0) == 400 - 32,
          "byteLength %d, 368 expected",
          number(cJSON_GetArrayItem(cJSON_GetObjectItem(w.doc, "buffers"), 0), "byteLength", 0));
    CHECK(aligned(&w), "every accessor keeps its alignment");
    /* the input's unused accessor and view stay, with their bytes */
    unused_of(w.doc, &after);
    CHECK(after.accessors == 1 && after.views == 1, "unused: %d accessors, %d views (1 and 1 in the input)",
          after.accessors, after.views);
    views = cJSON_GetObjectItem(w.doc, "bufferViews");
    cJSON_ArrayForEach(acc, cJSON_GetObjectItem(w.doc, "accessors")) if (number(acc, "count", 0) == 1) unused_acc = acc;
    if (unused_acc) memcpy(&value, view_bytes(&w, number(unused_acc, "bufferView", -1)), 4);
    CHECK(unused_acc && value == 42, "the unused accessor's value kept");
    bytes = NULL;
    for (i = 0; i < cJSON_GetArraySize(views); ++i)
        if (number(cJSON_GetArrayItem(views, i), "byteLength", 0) == 2) bytes = view_bytes(&w, i);
    CHECK(bytes && bytes[0] == 0xAB && bytes[1] == 0xCD, "the unused view's bytes kept");
    image = cJSON_GetArrayItem(cJSON_GetObjectItem(w.doc, "images"), 0);
    bytes = view_bytes(&w, number(image, "bufferView", -1));
    CHECK(memcmp(bytes, "\x89PNG\x0D", 5) == 0 &&
              number(cJSON_GetArrayItem(views, number(image, "bufferView", -1)), "byteLength", 0) == 5,
          "the image's bytes kept");
    /* the edited animation keeps its unused sampler (outputs 0,0,0 1,1,1) */
    anim = cJSON_GetArrayItem(cJSON_GetObjectItem(w.doc, "animations"), 0);
    acc = cJSON_GetArrayItem(cJSON_GetObjectItem(w.doc, "accessors"),
                             number(cJSON_GetArrayItem(cJSON_GetObjectItem(anim, "samplers"), 0), "output", -1));
    bytes = acc ? view_bytes(&w, number(acc, "bufferView", -1)) : NULL;
    if (bytes) memcpy(&value, bytes + 12, 4);
    CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(anim, "samplers")) == 2 && bytes && value == 1,
          "the unused sampler stays, first, with its keys");
    CHECK(same_mesh(orig, w.back), "the mesh reads back unchanged");
    CHECK(same_channels(ik_gltf_clip(orig, 1, 0), ik_gltf_clip(w.back, 1, 0)), "the other clip unchanged bit for bit");
    CHECK(ik_gltf_clip(w.back, 0, 0)->channel_count == 1 &&
              memcmp(ik_gltf_clip(w.back, 0, 0)->channels[0].times, key_times, sizeof key_times) == 0,
          "the new keys read back");
    CHECK(memcmp(ik_gltf_skeleton(w.back, 0)->inverse_bind, ik_gltf_skeleton(orig, 0)->inverse_bind,
                 2 * sizeof(ik_mat4)) == 0,
          "the skin's inverse bind matrices unchanged");
    /* a second edit drops the first one's keys */
    CHECK(ik_gltf_replace_clip_keys(g, 0, 0, &keys, &e) == IK_OK, "replace again: %s", e.message);
    if (write_glb(g, &again)) {
        CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(again.doc, "accessors")) == 11 &&
                  number(cJSON_GetArrayItem(cJSON_GetObjectItem(again.doc, "buffers"), 0), "byteLength", 0) == 368,
              "replacing again: the same size");
        unused_of(again.doc, &before);
        CHECK(before.accessors == 1 && before.views == 1 && same_mesh(orig, again.back),
              "replacing again: nothing else moves");
    }
    written_free(&again);
    written_free(&w);
    ik_gltf_free(g);
    ik_gltf_free(orig);
}

/* An extension whose references the writer does not follow: nothing is
 * dropped (it might name accessor 1). */
static void test_unknown_extension_keeps_all(void) {
    ik_gltf *g = load("unknown.gltf");
    written w;
    ik_error e;
    if (!g) return;
    make_keys(ik_skeleton_find(&ik_gltf_skeleton(g, 0)->skeleton, "tip"));
    CHECK(ik_gltf_replace_clip_keys(g, 0, 0, &keys, &e) == IK_OK, "replace: %s", e.message);
    if (write_glb(g, &w)) {
        CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(w.doc, "accessors")) == 14 &&
                  cJSON_GetArraySize(cJSON_GetObjectItem(w.doc, "bufferViews")) == 16 &&
                  cJSON_GetArraySize(cJSON_GetObjectItem(w.doc, "buffers")) == 2,
              "nothing dropped: %d accessors, %d views", cJSON_GetArraySize(cJSON_GetObjectItem(w.doc, "accessors")),
              cJSON_GetArraySize(cJSON_GetObjectItem(w.doc, "bufferViews")));
    }
    written_free(&w);
    ik_gltf_free(g);
}

int main(void) {
    char cmd[128];
    snprintf(dir, sizeof dir, "/tmp/ikit-test-gltf-prune-XXXXXX");
    if (!mkdtemp(dir)) return 1;
    if (write_buffers() && write_document("doc.gltf", "", "") &&
        write_document("unknown.gltf", ",\"extensions\":{\"EXT_example_unknown\":{\"accessor\":1}}",
                       "\"extensionsUsed\":[\"EXT_example_unknown\"],")) {
        test_replace_drops_orphans();
        test_unknown_extension_keeps_all();
    } else {
        CHECK(0, "test documents written in %s", dir);
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return check_summary("test_gltf_prune");
}

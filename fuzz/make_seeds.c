/* Writes the seed corpus scripts/fuzz.sh starts each fuzz entry point from
 * (issue 18, fuzzing): a few tiny valid files per parser, each checked by
 * the reader it seeds and, where the library has a writer, written by it.
 * Small seeds keep every execution short (the real assets run to megabytes:
 * fuzz_glb managed 450 executions a second on them).
 *
 *   make_fuzz_seeds DIR   writes DIR/fuzz_gltf/..., DIR/fuzz_glb/...,
 *                         DIR/fuzz_bvh, fuzz_chain, fuzz_map, fuzz_height,
 *                         fuzz_tracks (saved as written), fuzz_urdf
 *
 * Exits 1 when a seed does not load (the seeds themselves would be wrong). */
#include <ikit/bvh.h>
#include <ikit/chain_file.h>
#include <ikit/gltf.h>
#include <ikit/height_field_file.h>
#include <ikit/humanoid.h>
#include <ikit/urdf.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Three joints in a line (hips, knee, foot) with their inverse bind
 * matrices, no animation. The buffer holds three MAT4 (192 bytes). */
static const char skin_doc[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
    "\"buffers\":[{\"byteLength\":192,\"uri\":\"data:application/octet-stream;base64,"
    "AACAPwAAAAAAAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAgL8AAAAAAACAPwAAgD8AAAAAAAAA"
    "AAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAAC/AAAAAAAAgD8AAIA/AAAAAAAAAAAAAAAAAAAAAAAA"
    "gD8AAAAAAAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAAAAAAIA/\"}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":192}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"MAT4\"}],"
    "\"nodes\":[{\"name\":\"hips\",\"translation\":[0,1,0],\"children\":[1]},"
    "{\"name\":\"knee\",\"translation\":[0,-0.5,0],\"rotation\":[0,0,0,1],\"children\":[2]},"
    "{\"name\":\"foot\",\"translation\":[0,-0.5,0],\"scale\":[1,1,1]}],"
    "\"skins\":[{\"name\":\"leg\",\"joints\":[0,1,2],\"inverseBindMatrices\":0}]}";

/* The leg of skin_doc with a skinned triangle (hips, knee, and a vertex
 * shared half and half by hips and knee; counter-clockwise seen from +z) in a second buffer: POSITION (three
 * VEC3 floats), JOINTS_0 (VEC4 unsigned bytes), WEIGHTS_0 (VEC4 floats) and
 * unsigned-short indices, and a material colour. */
static const char skinned_mesh_doc[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0,3]}],"
    "\"buffers\":[{\"byteLength\":192,\"uri\":\"data:application/octet-stream;base64,"
    "AACAPwAAAAAAAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAgL8AAAAAAACAPwAAgD8AAAAAAAAA"
    "AAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAAC/AAAAAAAAgD8AAIA/AAAAAAAAAAAAAAAAAAAAAAAA"
    "gD8AAAAAAAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAAAAAAIA/\"},"
    "{\"byteLength\":104,\"uri\":\"data:application/octet-stream;base64,"
    "AAAAAAAAgD8AAAAAzcxMPgAAAD8AAAAAAAAAAAAAAAAAAAAAAAAAAAEAAAACAQAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAA"
    "AAAAAAAAAAA/AAAAPwAAAAAAAAAAAAACAAEAAAA=\"}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":192},{\"buffer\":1,\"byteLength\":36},"
    "{\"buffer\":1,\"byteOffset\":36,\"byteLength\":12},{\"buffer\":1,\"byteOffset\":48,\"byteLength\":48},"
    "{\"buffer\":1,\"byteOffset\":96,\"byteLength\":6}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"MAT4\"},"
    "{\"bufferView\":1,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[0.2,1,0]},"
    "{\"bufferView\":2,\"componentType\":5121,\"count\":3,\"type\":\"VEC4\"},"
    "{\"bufferView\":3,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},"
    "{\"bufferView\":4,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"}],"
    "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.8,0.5,0.3,1]}}],"
    "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":1,\"JOINTS_0\":2,\"WEIGHTS_0\":3},"
    "\"indices\":4,\"material\":0,\"mode\":4}]}],"
    "\"nodes\":[{\"name\":\"hips\",\"translation\":[0,1,0],\"children\":[1]},"
    "{\"name\":\"knee\",\"translation\":[0,-0.5,0],\"children\":[2]},"
    "{\"name\":\"foot\",\"translation\":[0,-0.5,0]},{\"name\":\"body\",\"mesh\":0,\"skin\":0}],"
    "\"skins\":[{\"name\":\"leg\",\"joints\":[0,1,2],\"inverseBindMatrices\":0}]}";

/* Two skins over separate hierarchies, one node given by a matrix. */
static const char two_skins_doc[] =
    "{\"asset\":{\"version\":\"2.0\"},"
    "\"nodes\":[{\"name\":\"a\",\"children\":[1]},{\"name\":\"b\",\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,1,0,1]},"
    "{\"name\":\"c\",\"children\":[3]},{\"name\":\"d\",\"translation\":[1,0,0]}],"
    "\"skins\":[{\"joints\":[0,1]},{\"joints\":[2,3]}]}";

static const char leg_bvh[] =
    "HIERARCHY\nROOT Hips\n{\n OFFSET 0 1 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
    " JOINT LeftUpLeg\n {\n  OFFSET 0.1 -0.05 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "  End Site\n  {\n   OFFSET 0 -0.45 0\n  }\n }\n"
    " JOINT RightUpLeg\n {\n  OFFSET -0.1 -0.05 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "  End Site\n  {\n   OFFSET 0 -0.45 0\n  }\n }\n}\n"
    "MOTION\nFrames: 3\nFrame Time: 0.0333333\n"
    "0 1 0 0 0 0 0 10 0 0 -10 0\n0.1 1 0 5 0 0 0 20 0 0 -20 0\n0.2 1 0.1 0 5 0 0 30 0 0 -30 0\n";

static const char one_joint_bvh[] =
    "HIERARCHY\nROOT root\n{\n OFFSET 0 0 0\n CHANNELS 3 Xposition Yposition Zposition\n"
    " End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 1\nFrame Time: 1\n0 0 0\n";

static const char arm_chain[] =
    "# every joint type, a comfort range, a target\n"
    "chain arm\n"
    "joint shoulder type ball cone 90 limit -45 45 stiffness 0.5\n"
    "joint elbow length 0.3 direction 1 0 0 type hinge axis 0 0 1 limit 0 150 comfort 10 90\n"
    "joint wrist length 0.25 type ball cone 60 comfort_cone 20\n"
    "joint hand length 0.1 type fixed\n"
    "target cup joint hand position 0.3 0.2 0 weight 1\n";

static const char branch_chain[] =
    "chain y\njoint base type fixed\njoint left length 1 direction 1 1 0 type hinge axis 0 0 1\n"
    "joint right parent base length 1 direction -1 1 0 type hinge axis 0 0 1 limit -90 0\n";

static const char mapping[] =
    "# roles the names alone would not find\n"
    "hips = Hips\nleft_foot = LeftFoot\nright_foot = RightFoot\nhead = Head\nleft_hand = LeftHand\n";

static const char height_field[] =
    "# a 3 x 2 grid\ncell 0.1\nsize 3 2\norigin -0.1 0 -0.05\nheights\n0 0.01 0.02\n0 0 0.05\n";

static const char target_tracks[] =
    "# two joints\n0 LeftAnkle 2 -15 10\n1.5 LeftAnkle 4 -12 8\n0.5 RightWrist 10 20 5 # held\n";
static const char height_field_centred[] = "cell 0.5\nsize 2 2\nheights\n0 0\n0.1 0.1\n";

/* A two-link arm: a revolute shoulder, a prismatic slide followed by a
 * mimic, a fixed tool; every element the URDF reader reads. */
static const char arm_urdf[] =
    "<?xml version=\"1.0\"?>\n<robot name=\"arm\">\n<link name=\"base\"/>\n<link name=\"upper\"/>\n"
    "<link name=\"slide\"/>\n<link name=\"twin\"/>\n<link name=\"tool\"/>\n"
    "<joint name=\"shoulder\" type=\"revolute\"><origin xyz=\"0 0 0.3\" rpy=\"0 1.5708 0\"/>"
    "<parent link=\"base\"/><child link=\"upper\"/><axis xyz=\"0 1 0\"/>"
    "<limit lower=\"-2\" upper=\"2\" velocity=\"1\" effort=\"10\"/></joint>\n"
    "<joint name=\"slide\" type=\"prismatic\"><origin xyz=\"0.4 0 0\"/><parent link=\"upper\"/>"
    "<child link=\"slide\"/><axis xyz=\"1 0 0\"/><limit lower=\"0\" upper=\"0.2\"/></joint>\n"
    "<joint name=\"twin\" type=\"continuous\"><parent link=\"slide\"/><child link=\"twin\"/>"
    "<mimic joint=\"shoulder\" multiplier=\"-1\" offset=\"0.5\"/></joint>\n"
    "<joint name=\"tool\" type=\"fixed\"><origin xyz=\"0.1 0 0\" rpy=\"-1.5708 0 0\"/>"
    "<parent link=\"twin\"/><child link=\"tool\"/></joint>\n</robot>\n";

static const char *out_dir;
static int failures;

static void save(const char *fuzzer, const char *name, const void *data, size_t size) {
    char path[1024];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", out_dir, fuzzer);
    mkdir(path, 0777);
    snprintf(path, sizeof path, "%s/%s/%s", out_dir, fuzzer, name);
    f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size) {
        fprintf(stderr, "make_fuzz_seeds: cannot write %s\n", path);
        ++failures;
    }
    if (f) fclose(f);
}

static void fail(const char *what, const ik_error *error) {
    fprintf(stderr, "make_fuzz_seeds: %s: %s\n", what, error ? error->message : "");
    ++failures;
}

/* The document as given (.gltf) and as the writer puts it out, JSON and GLB. */
static ik_gltf *gltf_seeds(const char *doc, const char *name) {
    char file[128];
    ik_gltf *g = NULL;
    ik_error e;
    unsigned char *bytes;
    size_t size;
    int binary;
    if (ik_gltf_read_memory(doc, strlen(doc), NULL, &g, &e) != IK_OK) {
        fail(name, &e);
        return NULL;
    }
    snprintf(file, sizeof file, "%s.gltf", name);
    save("fuzz_gltf", file, doc, strlen(doc));
    for (binary = 0; binary < 2; ++binary) {
        if (ik_gltf_write_memory(g, binary, &bytes, &size, &e) != IK_OK) {
            fail(name, &e);
            continue;
        }
        snprintf(file, sizeof file, "%s_written.%s", name, binary ? "glb" : "gltf");
        save(binary ? "fuzz_glb" : "fuzz_gltf", file, bytes, size);
        free(bytes);
    }
    return g;
}

/* One clip on the leg: the knee's rotation (LINEAR), the hips' translation
 * (STEP) and the foot's scale (CUBICSPLINE: in-tangent, value, out-tangent
 * per key). */
static void add_leg_clip(ik_gltf *g) {
    static const ik_real times[2] = {0, 1};
    static const ik_real knee[8] = {0, 0, 0, 1, 0.3826834f, 0, 0, 0.9238795f};
    static const ik_real hips[6] = {0, 1, 0, 0.2f, 1, 0};
    static const ik_real foot[18] = {0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1.2f, 1.2f, 1.2f, 0, 0, 0};
    ik_channel channels[3];
    ik_clip clip;
    ik_error e;
    channels[0].joint = 1;
    channels[0].path = IK_CHANNEL_ROTATION;
    channels[0].interpolation = IK_INTERP_LINEAR;
    channels[0].values = knee;
    channels[1].joint = 0;
    channels[1].path = IK_CHANNEL_TRANSLATION;
    channels[1].interpolation = IK_INTERP_STEP;
    channels[1].values = hips;
    channels[2].joint = 2;
    channels[2].path = IK_CHANNEL_SCALE;
    channels[2].interpolation = IK_INTERP_CUBICSPLINE;
    channels[2].values = foot;
    channels[0].key_count = channels[1].key_count = channels[2].key_count = 2;
    channels[0].times = channels[1].times = channels[2].times = times;
    clip.name = "kick";
    clip.duration = 1;
    clip.channel_count = 3;
    clip.channels = channels;
    if (ik_gltf_add_clip(g, 0, "kick", &clip, &e) != IK_OK) fail("kick clip", &e);
}

static void gltf_clip_seeds(ik_gltf *g) {
    ik_error e;
    unsigned char *bytes;
    size_t size;
    int binary;
    for (binary = 0; binary < 2; ++binary) {
        if (ik_gltf_write_memory(g, binary, &bytes, &size, &e) != IK_OK) {
            fail("animated leg", &e);
            continue;
        }
        save(binary ? "fuzz_glb" : "fuzz_gltf", binary ? "leg_animated.glb" : "leg_animated.gltf", bytes, size);
        free(bytes);
    }
}

static void bvh_seeds(const char *text, const char *name) {
    char file[128];
    ik_bvh *bvh = NULL;
    ik_error e;
    char *written;
    size_t size;
    if (ik_bvh_read_memory(text, strlen(text), &bvh, &e) != IK_OK) {
        fail(name, &e);
        return;
    }
    snprintf(file, sizeof file, "%s.bvh", name);
    save("fuzz_bvh", file, text, strlen(text));
    if (ik_bvh_write_memory(bvh, &written, &size, &e) == IK_OK) {
        snprintf(file, sizeof file, "%s_written.bvh", name);
        save("fuzz_bvh", file, written, size);
        ik_bvh_text_free(written);
    } else {
        fail(name, &e);
    }
    ik_bvh_free(bvh);
}

static void chain_seed(const char *text, const char *name) {
    ik_chain_file *chain = NULL;
    ik_error e;
    if (ik_chain_file_read_memory(text, strlen(text), &chain, &e) != IK_OK) {
        fail(name, &e);
        return;
    }
    save("fuzz_chain", name, text, strlen(text));
    ik_chain_file_free(chain);
}

static void map_seed(void) {
    ik_humanoid_pair pairs[IK_ROLE_COUNT];
    int count, line;
    if (ik_humanoid_parse_mapping(mapping, strlen(mapping), pairs, IK_ROLE_COUNT, &count, &line) != IK_OK) {
        fail("mapping", NULL);
        return;
    }
    save("fuzz_map", "humanoid.map", mapping, strlen(mapping));
}

static void urdf_seed(const char *text, const char *name) {
    ik_urdf *urdf = NULL;
    ik_error e;
    if (ik_urdf_read_memory(text, strlen(text), &urdf, &e) != IK_OK) {
        fail(name, &e);
        return;
    }
    save("fuzz_urdf", name, text, strlen(text));
    ik_urdf_free(urdf);
}

static void height_seed(const char *text, const char *name) {
    ik_height_field_file field;
    ik_error e;
    if (ik_height_field_file_read_memory(text, strlen(text), &field, &e) != IK_OK) {
        fail(name, &e);
        return;
    }
    ik_height_field_file_free(&field);
    save("fuzz_height", name, text, strlen(text));
}

int main(int argc, char **argv) {
    ik_gltf *leg;
    if (argc != 2) {
        fprintf(stderr, "usage: make_fuzz_seeds DIR\n");
        return 2;
    }
    out_dir = argv[1];
    mkdir(out_dir, 0777);
    leg = gltf_seeds(skin_doc, "leg");
    if (leg) {
        add_leg_clip(leg);
        gltf_clip_seeds(leg);
        ik_gltf_free(leg);
    }
    ik_gltf_free(gltf_seeds(two_skins_doc, "two_skins"));
    ik_gltf_free(gltf_seeds(skinned_mesh_doc, "skinned_mesh"));
    bvh_seeds(leg_bvh, "legs");
    bvh_seeds(one_joint_bvh, "one_joint");
    chain_seed(arm_chain, "arm.chain");
    chain_seed(branch_chain, "branch.chain");
    map_seed();
    height_seed(height_field, "grid.height");
    height_seed(height_field_centred, "centred.height");
    save("fuzz_tracks", "moving.tracks", target_tracks, strlen(target_tracks));
    urdf_seed(arm_urdf, "arm.urdf");
    return failures ? 1 : 0;
}

/* glTF 2.0 reading and writing: the real rigs in $IKIT_DATA/gltf (joint
 * counts, chains, bind matrices, clips), round trips through .glb and .gltf,
 * edited clips and poses, and a table of broken documents. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <ikit/gltf.h>
#include <ikit/utf8.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/big_rig.h"
#include "support/check.h"
#include "support/special_files.h"
#include "support/rng.h"

#ifdef IKIT_DOUBLE
#define TOL 1e-9
#else
#define TOL 1e-5
#endif

static char data_dir[512];

static int have_data(void) {
    const char *dir = getenv("IKIT_DATA");
    FILE *f;
    char probe[600];
    if (!dir) return 0;
    snprintf(data_dir, sizeof data_dir, "%s/gltf", dir);
    snprintf(probe, sizeof probe, "%s/robot.glb", data_dir);
    f = fopen(probe, "rb");
    if (!f) return 0;
    fclose(f);
    return 1;
}

static ik_gltf *load(const char *file) {
    char path[700];
    ik_gltf *g = NULL;
    ik_error e;
    ik_result r;
    snprintf(path, sizeof path, "%s/%s", data_dir, file);
    r = ik_gltf_read_file(path, &g, &e);
    CHECK(r == IK_OK && g, "%s: %s: %s", file, ik_result_str(r), e.message);
    return r == IK_OK ? g : NULL;
}

static ik_real mat_distance(const ik_mat4 *a, const ik_mat4 *b) {
    ik_real worst = 0;
    int i;
    for (i = 0; i < 16; ++i) worst = ik_maxr(worst, IK_FABS(a->m[i] - b->m[i]));
    return worst;
}

/* "A > B > C": each joint's parent is the one before it. */
static void check_chain(const ik_skeleton *s, const char *file, const char *const *names, int n) {
    int i, prev = -1;
    for (i = 0; i < n; ++i) {
        int j = ik_skeleton_find(s, names[i]);
        CHECK(j >= 0, "%s: joint %s missing", file, names[i]);
        if (j < 0) return;
        if (i > 0)
            CHECK(s->parents[j] == prev, "%s: parent of %s is %s, expected %s", file, names[i],
                  ik_skeleton_name(s, s->parents[j]), names[i - 1]);
        prev = j;
    }
}

/* Bind matrices: B_k = root_ms * fk_rest[k] * inverse_bind[k] is where skin
 * joint k puts the mesh's bind space; it must be one matrix for every joint
 * when the node transforms are the bind pose. Returns the largest deviation
 * of B_k from `expected` (NULL: from B_0). */
static ik_real bind_deviation(const ik_gltf_skin *skin, int with_root, const ik_mat4 *expected) {
    int n = skin->skeleton.joint_count, k;
    ik_transform *pose = (ik_transform *)malloc((size_t)n * sizeof *pose);
    ik_mat4 *model = (ik_mat4 *)malloc((size_t)n * sizeof *model), first;
    ik_real worst = 0;
    ik_skeleton_rest_pose(&skin->skeleton, pose);
    ik_skeleton_fk(&skin->skeleton, pose, with_root ? &skin->root_ms : NULL, model);
    for (k = 0; k < n; ++k) {
        ik_mat4 b;
        if (skin->skin_joint[k] < 0) continue;
        b = ik_mat4_mul(&model[k], &skin->inverse_bind[k]);
        if (!expected) {
            first = b;
            expected = &first;
        }
        worst = ik_maxr(worst, mat_distance(&b, expected));
    }
    free(pose);
    free(model);
    return worst;
}

typedef struct rig_case {
    const char *file;
    int joints;
    int clips;
    const char *chain[6];
    const char *chain2[6];
} rig_case;

static void test_real_rigs(void) {
    static const rig_case rigs[] = {
        {"robot.glb", 43, 14, {"UpperLeg.L", "LowerLeg.L", NULL}, {"Bone", "Foot.L", NULL}},
        {"girl.glb",
         23,
         2,
         {"Root", "UpperLeg.L", "LowerLeg.L", "Foot.L", NULL},
         {"UpperSpine", "Shoulder.L", "UpperArm.L", "LowerArm.L", "Palm.L", NULL}},
        {"rigged_figure.glb",
         19,
         1,
         {"torso_joint_1", "leg_joint_L_1", "leg_joint_L_2", "leg_joint_L_3", "leg_joint_L_5", NULL},
         {"torso_joint_3", "arm_joint_L_1", "arm_joint_L_2", "arm_joint_L_3", NULL}},
        {"male_base_mesh.glb",
         56,
         0,
         {"spine", "thigh.L", "shin.L", "foot.L", "toe.L", NULL},
         {"spine.003", "shoulder.L", "upper_arm.L", "forearm.L", "hand.L", NULL}},
        {"SimpleSkin.gltf", 2, 1, {NULL}, {NULL}},
    };
    size_t i;
    for (i = 0; i < sizeof rigs / sizeof rigs[0]; ++i) {
        ik_gltf *g = load(rigs[i].file);
        const ik_gltf_skin *skin;
        int n;
        if (!g) continue;
        CHECK(ik_gltf_skin_count(g) == 1, "%s: %d skins", rigs[i].file, ik_gltf_skin_count(g));
        skin = ik_gltf_skeleton(g, 0);
        CHECK(skin->skeleton.joint_count == rigs[i].joints, "%s: %d joints, expected %d", rigs[i].file,
              skin->skeleton.joint_count, rigs[i].joints);
        for (n = 0; rigs[i].chain[n]; ++n) continue;
        check_chain(&skin->skeleton, rigs[i].file, rigs[i].chain, n);
        for (n = 0; rigs[i].chain2[n]; ++n) continue;
        check_chain(&skin->skeleton, rigs[i].file, rigs[i].chain2, n);
        CHECK(ik_gltf_clip_count(g) == rigs[i].clips, "%s: %d clips", rigs[i].file, ik_gltf_clip_count(g));
        for (n = 0; n < skin->skeleton.joint_count; ++n)
            CHECK(skin->skeleton.parents[n] < n, "%s: joint %d not parents-first", rigs[i].file, n);
        ik_gltf_free(g);
    }
}

/* What the files hold (measured, see the report): robot and male_base_mesh
 * bind in world space (B = I with root_ms); RiggedFigure binds below its
 * Z-up root (B = I without root_ms, so B = Z-up with it); SimpleSkin's node
 * translation is 0.5 off its bind pose in x (B = translate(-0.5, 0, 0) for
 * both joints); girl.glb's nodes hold a posed frame, not the bind pose. */
static void test_bind_matrices(void) {
    ik_mat4 identity = ik_mat4_identity(), shifted = ik_mat4_identity();
    ik_gltf *g;
    if ((g = load("robot.glb"))) {
        CHECK(bind_deviation(ik_gltf_skeleton(g, 0), 1, &identity) < 1e-4, "robot: world joint * IBM != I");
        ik_gltf_free(g);
    }
    if ((g = load("male_base_mesh.glb"))) {
        const ik_gltf_skin *s = ik_gltf_skeleton(g, 0);
        CHECK(bind_deviation(s, 1, &identity) < 1e-4, "male: world joint * IBM != I");
        CHECK(mat_distance(&s->root_ms, &identity) > 0.5, "male: the metarig node's turn is the root transform");
        ik_gltf_free(g);
    }
    if ((g = load("rigged_figure.glb"))) {
        const ik_gltf_skin *s = ik_gltf_skeleton(g, 0);
        CHECK(bind_deviation(s, 0, &identity) < 1e-4, "rigged_figure: model joint * IBM != I");
        CHECK(IK_FABS(s->root_ms.m[6] + 1) < 1e-6 && IK_FABS(s->root_ms.m[9] - 1) < 1e-6,
              "rigged_figure: root_ms is the Z-up matrix");
        ik_gltf_free(g);
    }
    if ((g = load("SimpleSkin.gltf"))) {
        shifted.m[12] = (ik_real)-0.5;
        CHECK(bind_deviation(ik_gltf_skeleton(g, 0), 1, &shifted) < 1e-4, "SimpleSkin: B is not translate(-0.5,0,0)");
        ik_gltf_free(g);
    }
    if ((g = load("girl.glb"))) {
        CHECK(bind_deviation(ik_gltf_skeleton(g, 0), 1, NULL) > 0.1, "girl: node TRS now matches the bind pose?");
        ik_gltf_free(g);
    }
}

static const ik_clip *find_clip(const ik_gltf *g, const char *name) {
    int c;
    for (c = 0; c < ik_gltf_clip_count(g); ++c) {
        const ik_clip *clip = ik_gltf_clip(g, c, 0);
        if (clip->name && strcmp(clip->name, name) == 0) return clip;
    }
    return NULL;
}

/* Clip durations from the data README; samples at key times equal the keys;
 * every sample is finite with unit rotations; bone lengths of a clip without
 * translation keys on a joint stay those of the rest pose. */
static void test_clips(void) {
    ik_gltf *g = load("robot.glb");
    const ik_clip *walk;
    const ik_gltf_skin *s;
    check_property finite = {"robot walk samples finite and unit", 0, 0};
    int i, c;
    if (!g) return;
    s = ik_gltf_skeleton(g, 0);
    walk = find_clip(g, "Robot_Walking");
    CHECK(walk && IK_FABS(walk->duration - (ik_real)0.958333) < 1e-4, "Robot_Walking duration");
    CHECK(ik_clip_validate(walk, s->skeleton.joint_count, NULL) == IK_OK, "walk validates");
    if (walk) {
        ik_transform pose[64];
        ik_mat4 model[64];
        for (i = 0; i <= 40; ++i) {
            ik_real t = walk->duration * (ik_real)i / 40;
            int ok = 1;
            ik_skeleton_rest_pose(&s->skeleton, pose);
            ik_clip_sample(walk, t, pose);
            ik_skeleton_fk(&s->skeleton, pose, &s->root_ms, model);
            for (c = 0; c < s->skeleton.joint_count; ++c)
                ok &= ik_mat4_finite(&model[c]) && IK_FABS(ik_quat_length(pose[c].rotation) - 1) < 1e-4;
            PROPERTY_CASE(finite, ok, "t=%g", (double)t);
        }
        for (c = 0; c < walk->channel_count; ++c) {
            const ik_channel *ch = &walk->channels[c];
            ik_real v[4];
            int k = ch->key_count / 2, w = ik_channel_width(ch->path), j;
            ik_channel_sample(ch, ch->times[k], v);
            for (j = 0; j < w; ++j) CHECK(IK_FABS(v[j] - ch->values[k * w + j]) < 1e-5, "walk channel %d key %d", c, k);
        }
    }
    property_end(&finite);
    ik_gltf_free(g);
    if ((g = load("girl.glb"))) {
        const ik_clip *idle = find_clip(g, "IdleTrack"), *run = find_clip(g, "RunTrack");
        CHECK(idle && IK_FABS(idle->duration - (ik_real)1.6667) < 1e-3, "IdleTrack duration");
        CHECK(run && IK_FABS(run->duration - 1) < 1e-3, "RunTrack duration");
        ik_gltf_free(g);
    }
    if ((g = load("SimpleSkin.gltf"))) {
        const ik_clip *clip = ik_gltf_clip(g, 0, 0);
        CHECK(clip->channel_count == 1 && clip->channels[0].path == IK_CHANNEL_ROTATION &&
                  clip->channels[0].joint == 1 && IK_FABS(clip->duration - (ik_real)5.5) < 1e-6,
              "SimpleSkin: one rotation channel on joint 1, 5.5 s");
        ik_gltf_free(g);
    }
}

/* q and -q are the same rotation. */
static ik_real quat_distance(ik_quat a, ik_quat b) {
    ik_real plus = ik_quat_length(ik_q(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w));
    ik_real minus = ik_quat_length(ik_q(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w));
    return ik_minr(plus, minus);
}

static int same_skeleton(const ik_gltf_skin *a, const ik_gltf_skin *b) {
    int j;
    if (a->skeleton.joint_count != b->skeleton.joint_count) return 0;
    if (mat_distance(&a->root_ms, &b->root_ms) > TOL) return 0;
    for (j = 0; j < a->skeleton.joint_count; ++j) {
        const ik_transform *p = &a->skeleton.rest_ls[j], *q = &b->skeleton.rest_ls[j];
        if (a->skeleton.parents[j] != b->skeleton.parents[j] || a->node[j] != b->node[j]) return 0;
        if (strcmp(ik_skeleton_name(&a->skeleton, j), ik_skeleton_name(&b->skeleton, j)) != 0) return 0;
        if (ik_vec3_distance(p->translation, q->translation) > TOL || ik_vec3_distance(p->scale, q->scale) > TOL ||
            quat_distance(p->rotation, q->rotation) > TOL)
            return 0;
        if (mat_distance(&a->inverse_bind[j], &b->inverse_bind[j]) > TOL) return 0;
    }
    return 1;
}

/* Largest difference between the poses two clips give over 50 times. */
static ik_real clip_difference(const ik_skeleton *s, const ik_clip *a, const ik_clip *b) {
    ik_transform pa[64], pb[64];
    ik_real worst = 0;
    int i, j;
    for (i = 0; i <= 50; ++i) {
        ik_real t = ik_maxr(a->duration, b->duration) * (ik_real)(i - 2) / 46;
        ik_skeleton_rest_pose(s, pa);
        ik_skeleton_rest_pose(s, pb);
        ik_clip_sample(a, t, pa);
        ik_clip_sample(b, t, pb);
        for (j = 0; j < s->joint_count; ++j) {
            worst = ik_maxr(worst, ik_vec3_distance(pa[j].translation, pb[j].translation));
            worst = ik_maxr(worst, ik_vec3_distance(pa[j].scale, pb[j].scale));
            worst = ik_maxr(worst, quat_distance(pa[j].rotation, pb[j].rotation));
        }
    }
    return worst;
}

static ik_gltf *reread(const ik_gltf *g, int binary) {
    unsigned char *bytes = NULL;
    size_t size = 0;
    ik_gltf *back = NULL;
    ik_error e;
    ik_result r = ik_gltf_write_memory(g, binary, &bytes, &size, &e);
    CHECK(r == IK_OK, "write: %s", e.message);
    if (r != IK_OK) return NULL;
    r = ik_gltf_read_memory(bytes, size, NULL, &back, &e);
    CHECK(r == IK_OK, "read back (%s): %s", binary ? "glb" : "gltf", e.message);
    free(bytes);
    return back;
}

static void check_same_document(const ik_gltf *a, const ik_gltf *b, const char *what) {
    int s, c;
    CHECK(ik_gltf_skin_count(a) == ik_gltf_skin_count(b) && ik_gltf_clip_count(a) == ik_gltf_clip_count(b),
          "%s: counts differ", what);
    for (s = 0; s < ik_gltf_skin_count(a) && s < ik_gltf_skin_count(b); ++s) {
        CHECK(same_skeleton(ik_gltf_skeleton(a, s), ik_gltf_skeleton(b, s)), "%s: skin %d differs", what, s);
        for (c = 0; c < ik_gltf_clip_count(a) && c < ik_gltf_clip_count(b); ++c)
            CHECK(
                clip_difference(&ik_gltf_skeleton(a, s)->skeleton, ik_gltf_clip(a, c, s), ik_gltf_clip(b, c, s)) < TOL,
                "%s: clip %d differs", what, c);
    }
}

static void test_round_trip(void) {
    static const char *const files[] = {"robot.glb", "girl.glb", "rigged_figure.glb", "male_base_mesh.glb",
                                        "SimpleSkin.gltf"};
    size_t i;
    for (i = 0; i < sizeof files / sizeof files[0]; ++i) {
        ik_gltf *g = load(files[i]), *glb, *gltf, *disk;
        ik_error e;
        char what[80];
        if (!g) continue;
        glb = reread(g, 1);
        gltf = reread(g, 0);
        snprintf(what, sizeof what, "%s via glb", files[i]);
        if (glb) check_same_document(g, glb, what);
        snprintf(what, sizeof what, "%s via gltf", files[i]);
        if (gltf) check_same_document(g, gltf, what);
        CHECK(ik_gltf_write_file(g, "test_gltf_roundtrip.gltf", &e) == IK_OK, "write file: %s", e.message);
        CHECK(ik_gltf_read_file("test_gltf_roundtrip.gltf", &disk, &e) == IK_OK, "read file: %s", e.message);
        if (disk) check_same_document(g, disk, "gltf file");
        ik_gltf_free(disk);
        ik_gltf_free(glb);
        ik_gltf_free(gltf);
        ik_gltf_free(g);
    }
    remove("test_gltf_roundtrip.gltf");
}

/* The sampler input (key times accessor) of the channel of animation
 * `animation` driving `node`'s `path` in a written GLB, or -1. */
static int glb_sampler_input(const char *glb_path, int animation, int node, const char *path) {
    FILE *f = fopen(glb_path, "rb");
    unsigned char header[20];
    char *json = NULL;
    unsigned long length;
    int input = -1, i;
    cJSON *doc = NULL, *anim, *channels, *samplers;
    if (!f) return -1;
    if (fread(header, 1, 20, f) == 20) {
        length = header[12] | header[13] << 8 | (unsigned long)header[14] << 16 | (unsigned long)header[15] << 24;
        json = (char *)calloc(length + 1, 1);
        if (json && fread(json, 1, length, f) == length) doc = cJSON_Parse(json);
    }
    fclose(f);
    free(json);
    anim = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "animations"), animation);
    channels = cJSON_GetObjectItem(anim, "channels");
    samplers = cJSON_GetObjectItem(anim, "samplers");
    for (i = 0; i < cJSON_GetArraySize(channels); ++i) {
        cJSON *ch = cJSON_GetArrayItem(channels, i), *target = cJSON_GetObjectItem(ch, "target");
        cJSON *sampler = cJSON_GetArrayItem(samplers, cJSON_GetObjectItem(ch, "sampler")->valueint);
        if (cJSON_GetObjectItem(target, "node")->valueint == node &&
            strcmp(cJSON_GetObjectItem(target, "path")->valuestring, path) == 0)
            input = cJSON_GetObjectItem(sampler, "input")->valueint;
    }
    cJSON_Delete(doc);
    return input;
}

/* Walk keys with one joint's rotation replaced by a CUBICSPLINE curve and
 * a STEP translation; the written document loads back with the same samples.
 * Returns the path written (for the validator), or NULL. */
static const char *test_edit_clips(void) {
    static const char *out_path = "test_gltf_edited.glb";
    ik_gltf *g = load("robot.glb"), *back, *copy;
    const ik_gltf_skin *s;
    const ik_clip *walk, *expected_walk;
    ik_channel channels[160];
    ik_clip keys;
    ik_real times[3] = {0, (ik_real)0.4, (ik_real)0.9};
    ik_real spline[3 * 3 * 4], step[3 * 3];
    ik_transform pose[64];
    ik_error e;
    int c, n = 0, walk_index = -1, arm, foot, clips;
    ik_result r;
    if (!g) return NULL;
    /* Edits rebuild the document's clips, so the keys come from a copy. */
    copy = reread(g, 1);
    if (!copy) {
        ik_gltf_free(g);
        return NULL;
    }
    s = ik_gltf_skeleton(g, 0);
    arm = ik_skeleton_find(&s->skeleton, "UpperArm.L");
    foot = ik_skeleton_find(&s->skeleton, "Foot.L");
    for (c = 0; c < ik_gltf_clip_count(g); ++c)
        if (strcmp(ik_gltf_clip(g, c, 0)->name, "Robot_Walking") == 0) walk_index = c;
    walk = expected_walk = ik_gltf_clip(copy, walk_index, 0);
    for (c = 0; c < walk->channel_count && n < 150; ++c)
        if (walk->channels[c].joint != arm &&
            !(walk->channels[c].joint == foot && walk->channels[c].path == IK_CHANNEL_TRANSLATION))
            channels[n++] = walk->channels[c];
    for (c = 0; c < 3; ++c) {
        ik_quat q = ik_quat_from_axis_angle(ik_v3(0, 0, 1), (ik_real)0.6 * (ik_real)c);
        ik_real *key = spline + 12 * c;
        memset(key, 0, 12 * sizeof(ik_real));
        key[4] = q.x, key[5] = q.y, key[6] = q.z, key[7] = q.w;
        key[2] = key[10] = (ik_real)0.2;
        step[3 * c] = (ik_real)0.1 * (ik_real)c, step[3 * c + 1] = 0, step[3 * c + 2] = (ik_real)0.05;
    }
    channels[n].joint = arm, channels[n].path = IK_CHANNEL_ROTATION, channels[n].interpolation = IK_INTERP_CUBICSPLINE;
    channels[n].key_count = 3, channels[n].times = times, channels[n++].values = spline;
    channels[n].joint = foot, channels[n].path = IK_CHANNEL_TRANSLATION, channels[n].interpolation = IK_INTERP_STEP;
    channels[n].key_count = 3, channels[n].times = times, channels[n++].values = step;
    keys.name = "edited";
    keys.duration = walk->duration;
    keys.channel_count = n;
    keys.channels = channels;
    {
        clips = ik_gltf_clip_count(g);
        r = ik_gltf_replace_clip_keys(g, walk_index, 0, &keys, &e);
        CHECK(r == IK_OK, "replace: %s", e.message);
        r = ik_gltf_add_clip(g, 0, "Robot_Walking_Copy", expected_walk, &e);
        CHECK(r == IK_OK, "add: %s", e.message);
        CHECK(ik_gltf_clip_count(g) == clips + 1, "one more clip");
        s = ik_gltf_skeleton(g, 0);
        for (c = 0; c < s->skeleton.joint_count; ++c) pose[c] = s->skeleton.rest_ls[c];
        pose[arm].rotation = ik_quat_from_axis_angle(ik_v3(1, 0, 0), (ik_real)0.5);
        r = ik_gltf_set_pose(g, 0, pose, &e);
        CHECK(r == IK_OK, "set pose: %s", e.message);
        CHECK(ik_gltf_write_file(g, out_path, &e) == IK_OK, "write: %s", e.message);
        r = ik_gltf_read_file(out_path, &back, &e);
        CHECK(r == IK_OK, "edited file loads: %s", e.message);
        if (r == IK_OK) {
            const ik_gltf_skin *bs = ik_gltf_skeleton(back, 0);
            CHECK(clip_difference(&bs->skeleton, ik_gltf_clip(back, walk_index, 0), &keys) < 1e-5,
                  "replaced keys sample as written");
            CHECK(clip_difference(&bs->skeleton, ik_gltf_clip(back, clips, 0), expected_walk) < 1e-6,
                  "added clip samples like the original walk");
            CHECK(strcmp(ik_gltf_clip(back, clips, 0)->name, "Robot_Walking_Copy") == 0, "added clip name");
            /* the arm's and the foot's channels share one array of key times: one accessor */
            c = glb_sampler_input(out_path, walk_index, bs->node[arm], "rotation");
            CHECK(c >= 0 && c == glb_sampler_input(out_path, walk_index, bs->node[foot], "translation"),
                  "channels with the same key times share their input accessor (%d, %d)", c,
                  glb_sampler_input(out_path, walk_index, bs->node[foot], "translation"));
            CHECK(quat_distance(bs->skeleton.rest_ls[arm].rotation, pose[arm].rotation) < 1e-6,
                  "pose written into the node");
            CHECK(clip_difference(&bs->skeleton, ik_gltf_clip(back, 0, 0), ik_gltf_clip(copy, 0, 0)) < 1e-6,
                  "other clips unchanged");
            ik_gltf_free(back);
        }
    }
    ik_gltf_free(copy);
    ik_gltf_free(g);
    return out_path;
}

/* The Khronos validator (npm gltf-validator, installed by
 * scripts/validate-gltf.sh --install into node_modules) must report no
 * errors for the edited file. */
static void test_validator(const char *written) {
    char root[512], command[1400];
    const char *slash;
    FILE *f;
    int status;
    snprintf(root, sizeof root, "%s", __FILE__);
    slash = strstr(root, "/tests/test_gltf.c");
    if (!written || !slash) {
        check_skip("glTF validator: no edited file or project root");
        return;
    }
    root[slash - root] = '\0';
    snprintf(command, sizeof command, "%s/node_modules/gltf-validator/package.json", root);
    f = fopen(command, "r");
    if (!f || system("node --version >/dev/null 2>&1") != 0) {
        if (f) fclose(f);
        check_skip("glTF validator not installed (run scripts/validate-gltf.sh --install)");
        return;
    }
    fclose(f);
    snprintf(command, sizeof command, "sh '%s/scripts/validate-gltf.sh' '%s' >test_gltf_validator.log 2>&1", root,
             written);
    status = system(command);
    CHECK(status == 0, "gltf-validator reports errors for %s (see test_gltf_validator.log)", written);
}

/* ---- broken documents ---------------------------------------------------- */

/* Two joints (root, tip at y = 1), a rotation clip on the tip, IBMs. */
static const char base_doc[] =
    "{\"asset\":{\"version\":\"2.0\"},"
    "\"buffers\":[{\"byteLength\":168,\"uri\":\"data:application/octet-stream;base64,"
    "AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAPQENT8AAAAA9AQ1PwAAgD8AAAAAAAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAAAAAAIA/"
    "AAAAAAAAAAAAAAAAAAAAAAAAgD8AAIA/AAAAAAAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAACAvwAAAAAAAIA/"
    "\"}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":8,\"byteLength\":32},"
    "{\"buffer\":0,\"byteOffset\":40,\"byteLength\":128}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},"
    "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC4\"},"
    "{\"bufferView\":2,\"componentType\":5126,\"count\":2,\"type\":\"MAT4\"}],"
    "\"nodes\":[{\"name\":\"root\",\"children\":[1]},{\"name\":\"tip\",\"translation\":[0,1,0]}],"
    "\"skins\":[{\"joints\":[0,1],\"inverseBindMatrices\":2}],"
    "\"animations\":[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"rotation\"}}],"
    "\"samplers\":[{\"input\":0,\"output\":1,\"interpolation\":\"LINEAR\"}]}]}";

typedef struct broken_case {
    const char *from, *to;
    ik_result expected;
    const char *place; /* must appear in the message and path */
} broken_case;

static char *replace_once(const char *text, const char *from, const char *to) {
    const char *at = strstr(text, from);
    size_t n = strlen(text), f = strlen(from), t = strlen(to);
    char *out;
    if (!at) return NULL;
    out = (char *)malloc(n - f + t + 1);
    memcpy(out, text, (size_t)(at - text));
    memcpy(out + (at - text), to, t);
    strcpy(out + (at - text) + t, at + f);
    return out;
}

static void test_broken_documents(void) {
    static const broken_case cases[] = {
        {"\"count\":2,\"type\":\"SCALAR\"", "\"count\":3,\"type\":\"SCALAR\"", IK_ERR_PARSE, "/accessors/0/count"},
        {"\"count\":2,\"type\":\"SCALAR\"", "\"count\":4294967297,\"type\":\"SCALAR\"", IK_ERR_PARSE,
         "/accessors/0/count"},
        {"\"count\":2,\"type\":\"SCALAR\"", "\"count\":1e300,\"type\":\"SCALAR\"", IK_ERR_PARSE, "/accessors/0/count"},
        {"\"count\":2,\"type\":\"SCALAR\"", "\"count\":-1,\"type\":\"SCALAR\"", IK_ERR_PARSE, "/accessors/0/count"},
        {"\"count\":2,\"type\":\"SCALAR\"", "\"count\":2.5,\"type\":\"SCALAR\"", IK_ERR_PARSE, "/accessors/0/count"},
        {"\"count\":2,\"type\":\"VEC4\"", "\"count\":2,\"type\":\"VEC4\",\"byteOffset\":4", IK_ERR_PARSE,
         "/accessors/1/count"},
        {"\"count\":2,\"type\":\"VEC4\"", "\"count\":2,\"type\":\"VEC4\",\"byteOffset\":2", IK_ERR_PARSE,
         "/accessors/1"},
        {"\"componentType\":5126,\"count\":2,\"type\":\"MAT4\"", "\"componentType\":5127,\"count\":2,\"type\":\"MAT4\"",
         IK_ERR_PARSE, "/accessors/2"},
        {"\"type\":\"MAT4\"", "\"type\":\"MAT5\"", IK_ERR_PARSE, "/accessors/2/type"},
        {"{\"bufferView\":2,", "{\"bufferView\":9,", IK_ERR_PARSE, "/accessors/2/bufferView"},
        {"{\"buffer\":0,\"byteLength\":8}", "{\"buffer\":3,\"byteLength\":8}", IK_ERR_PARSE, "/bufferViews/0/buffer"},
        {"\"byteOffset\":40,\"byteLength\":128", "\"byteOffset\":41,\"byteLength\":128", IK_ERR_PARSE,
         "/bufferViews/2/byteLength"},
        /* 2^63: LONG_MAX as a double, but one past it as an integer. */
        {"\"byteOffset\":40,\"byteLength\":128", "\"byteOffset\":9223372036854775808,\"byteLength\":128", IK_ERR_PARSE,
         "/bufferViews/2/byteOffset"},
        {"{\"buffer\":0,\"byteLength\":8}", "{\"buffer\":0,\"byteLength\":8,\"byteStride\":3}", IK_ERR_PARSE,
         "/bufferViews/0"},
        {"\"byteLength\":168", "\"byteLength\":169", IK_ERR_PARSE, "/buffers/0/byteLength"},
        {"base64,AAAAAAAAgD8", "base64,!AAAAAAAgD8", IK_ERR_PARSE, "/buffers/0/uri"},
        {"\"uri\":\"data:application/octet-stream;base64,", "\"uri\":\"x.bin\",\"u\":\"", IK_ERR_IO, "/buffers/0/uri"},
        {"\"children\":[1]", "\"children\":[7]", IK_ERR_PARSE, "/nodes/0/children/0"},
        {"\"children\":[1]", "\"children\":[0]", IK_ERR_HIERARCHY, "/nodes/0/children/0"},
        {"\"name\":\"tip\",", "\"name\":\"tip\",\"children\":[0],", IK_ERR_HIERARCHY, "/nodes/"},
        {"\"name\":\"tip\",", "\"name\":\"root\",", IK_ERR_HIERARCHY, "/nodes/1"},
        {"\"translation\":[0,1,0]", "\"translation\":[0,1e999,0]", IK_ERR_NONFINITE, "/nodes/1/translation"},
        {"\"translation\":[0,1,0]", "\"translation\":[0,1]", IK_ERR_PARSE, "/nodes/1/translation"},
        {"\"translation\":[0,1,0]", "\"rotation\":[0,0,0,2]", IK_ERR_PARSE, "/nodes/1/rotation"},
        {"\"translation\":[0,1,0]", "\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,1,0]", IK_ERR_PARSE, "/nodes/1/matrix"},
        {"\"joints\":[0,1]", "\"joints\":[0,2]", IK_ERR_PARSE, "/skins/0/joints/1"},
        {"\"joints\":[0,1]", "\"joints\":[0,0]", IK_ERR_PARSE, "/skins/0/joints/1"},
        {"\"joints\":[0,1]", "\"joints\":[]", IK_ERR_PARSE, "/skins/0/joints"},
        {"\"inverseBindMatrices\":2", "\"inverseBindMatrices\":1", IK_ERR_PARSE, "/skins/0/inverseBindMatrices"},
        {"\"inverseBindMatrices\":2", "\"inverseBindMatrices\":7", IK_ERR_PARSE, "/skins/0/inverseBindMatrices"},
        {"\"joints\":[0,1]", "\"joints\":[0,1,0]", IK_ERR_PARSE, "/skins/0/joints/2"},
        {"{\"sampler\":0,", "{\"sampler\":4,", IK_ERR_PARSE, "/animations/0/channels/0/sampler"},
        {"\"node\":1,\"path\"", "\"node\":5,\"path\"", IK_ERR_PARSE, "/animations/0/channels/0/target/node"},
        {"\"interpolation\":\"LINEAR\"", "\"interpolation\":\"SMOOTH\"", IK_ERR_PARSE,
         "/animations/0/samplers/0/interpolation"},
        {"\"interpolation\":\"LINEAR\"", "\"interpolation\":\"CUBICSPLINE\"", IK_ERR_PARSE,
         "/animations/0/samplers/0/output"},
        {"\"output\":1", "\"output\":0", IK_ERR_PARSE, "/animations/0/samplers/0/output"},
        {"\"input\":0", "\"input\":1", IK_ERR_PARSE, "/animations/0/samplers/0/input"},
        {"\"path\":\"rotation\"", "\"path\":\"translation\"", IK_ERR_PARSE, "/animations/0/samplers/0/output"},
        {"base64,AAAAAAAAgD8", "base64,AAAAAAAAwH8", IK_ERR_NONFINITE, "/accessors/0"},
        {"base64,AAAAAAAAgD8", "base64,AACAPwAAAAA", IK_ERR_PARSE, "/animations/0/samplers/0/input"},
        {"\"uri\":\"data:application/octet-stream;base64,", "\"uri\":\"../x.bin\",\"u\":\"", IK_ERR_UNSUPPORTED,
         "/buffers/0/uri"},
        {"\"uri\":\"data:application/octet-stream;base64,", "\"uri\":\"%2E%2e/x.bin\",\"u\":\"", IK_ERR_UNSUPPORTED,
         "/buffers/0/uri"},
        {"\"uri\":\"data:application/octet-stream;base64,", "\"uri\":\"%2Fetc/x.bin\",\"u\":\"", IK_ERR_UNSUPPORTED,
         "/buffers/0/uri"},
        {"\"version\":\"2.0\"", "\"version\":\"1.0\"", IK_ERR_UNSUPPORTED, "/asset/version"},
        {"\"asset\":{\"version\":\"2.0\"},", "", IK_ERR_PARSE, "/asset"},
        {"\"skins\":[{", "\"skins\":[7,{", IK_ERR_PARSE, "/skins/0"},
        {"\"animations\":[{", "\"animations\":[{\"channels\":[]},{", IK_ERR_PARSE, "/animations/0"},
        /* A broken animation after a good one (the fuzzer found its samplers leaked). */
        {"\"LINEAR\"}]}]}", "\"LINEAR\"}]},{\"channels\":[]}]}", IK_ERR_PARSE, "/animations/1"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char *doc = replace_once(base_doc, cases[i].from, cases[i].to);
        ik_gltf *g = NULL;
        ik_error e;
        ik_result r;
        CHECK(doc != NULL, "case %zu: pattern not in the base document", i);
        if (!doc) continue;
        r = ik_gltf_read_memory(doc, strlen(doc), "/nonexistent-dir", &g, &e);
        CHECK(r == cases[i].expected && !g, "case %zu: got %s (%s), expected %s", i, ik_result_str(r), e.message,
              ik_result_str(cases[i].expected));
        CHECK(strstr(e.message, cases[i].place) && strncmp(e.path, cases[i].place, strlen(cases[i].place)) == 0,
              "case %zu: message \"%s\" / path \"%s\" should name %s", i, e.message, e.path, cases[i].place);
        ik_gltf_free(g);
        free(doc);
    }
}

/* Read base_doc with `from` replaced by `to` (and `from2` by `to2` when given). */
static ik_result read_edited(const char *from, const char *to, const char *from2, const char *to2, ik_error *error) {
    char *doc = replace_once(base_doc, from, to), *doc2 = from2 ? replace_once(doc, from2, to2) : NULL;
    ik_gltf *g = NULL;
    ik_result r = ik_gltf_read_memory(doc2 ? doc2 : doc, strlen(doc2 ? doc2 : doc), NULL, &g, error);
    ik_gltf_free(g);
    free(doc);
    free(doc2);
    return r;
}

/* Issue 18 item 11: a rest pose whose translations sum past the largest
 * ik_real (each alone fits), a required extension ikit does not support, a
 * scene index out of range and a NUL escaped into a name are refused with
 * their place, never accepted or reported as something else. */
static void test_refused_documents(void) {
    static const char head[] = "{\"asset\":{\"version\":\"2.0\"},";
    char big_root[120], big_tip[80];
    ik_error e;
    ik_result r;
    double x = 0.75 * (double)IK_REAL_MAX;
    snprintf(big_root, sizeof big_root, "{\"name\":\"root\",\"translation\":[0,%.9g,0],\"children\":[1]}", x);
    snprintf(big_tip, sizeof big_tip, "\"translation\":[0,%.9g,0]", x);
    r = read_edited("{\"name\":\"root\",\"children\":[1]}", big_root, "\"translation\":[0,1,0]", big_tip, &e);
    CHECK(r == IK_ERR_NONFINITE && strcmp(e.path, "/nodes/1") == 0 && strstr(e.message, "overflows") &&
              strstr(e.message, "'tip'"),
          "rest pose overflowing ik_real: %s (%s)", e.message, ik_result_str(r));
    r = read_edited("{\"name\":\"root\",\"children\":[1]}", big_root, NULL, NULL, &e);
    CHECK(r == IK_OK, "one large translation alone is kept: %s", e.message);
    r = read_edited(head,
                    "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"EXT_meshopt_compression\"],"
                    "\"extensionsRequired\":[\"EXT_meshopt_compression\"],",
                    NULL, NULL, &e);
    CHECK(r == IK_ERR_UNSUPPORTED && strcmp(e.path, "/extensionsRequired/0") == 0 &&
              strstr(e.message, "EXT_meshopt_compression"),
          "unsupported required extension: %s", e.message);
    r = read_edited(head, "{\"asset\":{\"version\":\"2.0\"},\"extensionsRequired\":[\"KHR_materials_unlit\"],", NULL,
                    NULL, &e);
    CHECK(r == IK_OK, "a required material extension changes nothing ikit reads: %s", e.message);
    r = read_edited(head, "{\"asset\":{\"version\":\"2.0\"},\"scene\":1,\"scenes\":[{\"nodes\":[0]}],", NULL, NULL, &e);
    CHECK(r == IK_ERR_PARSE && strcmp(e.path, "/scene") == 0, "scene index out of range: %s", e.message);
    r = read_edited(head, "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[2]}],", NULL, NULL, &e);
    CHECK(r == IK_ERR_PARSE && strcmp(e.path, "/scenes/0/nodes/0") == 0, "scene node out of range: %s", e.message);
    r = read_edited(head, "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],", NULL, NULL, &e);
    CHECK(r == IK_OK, "a valid scene: %s", e.message);
    r = read_edited("\"name\":\"root\"", "\"name\":\"a\\u0000b\"", "\"name\":\"tip\"", "\"name\":\"a\\u0000c\"", &e);
    CHECK(r == IK_ERR_PARSE && strstr(e.message, "NUL") && !strstr(e.message, "duplicate"),
          "a NUL escaped into a name: %s", e.message);
    r = read_edited("\"name\":\"tip\"", "\"name\":\"a\\\\u0000c\"", NULL, NULL, &e);
    CHECK(r == IK_OK, "an escaped backslash before u0000 is no NUL: %s", e.message);
}

/* Issue 18 item 7: glTF is UTF-8 by its specification; a node name with the
 * bytes 0xFF 0xFE is refused with its JSON path. The UTF-8 check itself:
 * RFC 3629's well-formed sequences, and one named case per ill-formed kind. */
static void test_names_utf8(void) {
    static const struct {
        const char *bytes;
        size_t expected;
        const char *what;
    } cases[] = {{"A", 1, "ASCII"},
                 {"\xC3\xA9", 2, "e acute"},
                 {"\xE2\x82\xAC", 3, "euro sign"},
                 {"\xF0\x9F\x98\x80", 4, "emoji"},
                 {"\xF4\x8F\xBF\xBF", 4, "U+10FFFF"},
                 {"\x80", 0, "stray continuation byte"},
                 {"\xC0\x80", 0, "overlong NUL"},
                 {"\xE0\x80\x80", 0, "overlong 3-byte"},
                 {"\xED\xA0\x80", 0, "surrogate U+D800"},
                 {"\xF4\x90\x80\x80", 0, "above U+10FFFF"},
                 {"\xE2\x82", 0, "truncated"},
                 {"\xFF", 0, "0xFF"}};
    ik_error e;
    ik_result r;
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        CHECK(ik_utf8_sequence(cases[i].bytes, strlen(cases[i].bytes)) == cases[i].expected, "UTF-8 %s", cases[i].what);
    CHECK(ik_utf8_valid("Hüfte.L") && !ik_utf8_valid("H\xFC"
                                                     "fte"),
          "whole names: UTF-8 and Latin-1");
    r = read_edited("\"name\":\"tip\"", "\"name\":\"bad\xFF\xFE\"", NULL, NULL, &e);
    CHECK(r == IK_ERR_PARSE && strcmp(e.path, "/nodes/1/name") == 0 && strstr(e.message, "not valid UTF-8"),
          "a node name that is not UTF-8: %s", e.message);
    r = read_edited("\"name\":\"tip\"",
                    "\"name\":\"H\xC3\xBC"
                    "fte\"",
                    NULL, NULL, &e);
    CHECK(r == IK_OK, "a UTF-8 name reads: %s", e.message);
}

static void test_base_document(void) {
    ik_gltf *g = NULL;
    ik_error e;
    ik_result r = ik_gltf_read_memory(base_doc, strlen(base_doc), NULL, &g, &e);
    CHECK(r == IK_OK, "base document: %s", e.message);
    if (r == IK_OK) {
        const ik_gltf_skin *s = ik_gltf_skeleton(g, 0);
        ik_transform pose[2];
        ik_mat4 model[2];
        ik_vec3 tip;
        CHECK(bind_deviation(s, 1, NULL) < 1e-6 && mat_distance(&s->inverse_bind[1], &s->inverse_bind[0]) > 0.5,
              "base document binds");
        ik_skeleton_rest_pose(&s->skeleton, pose);
        ik_clip_sample(ik_gltf_clip(g, 0, 0), (ik_real)0.5, pose);
        ik_skeleton_fk(&s->skeleton, pose, NULL, model);
        tip = ik_mat4_translation(&model[1]);
        CHECK(ik_vec3_distance(tip, ik_v3(0, 1, 0)) < 1e-6, "tip stays at y = 1 while it turns");
        CHECK(IK_FABS(ik_quat_angle(pose[1].rotation) - IK_PI / 4) < 1e-5, "halfway through a 90 degree turn: %g",
              (double)ik_quat_angle(pose[1].rotation));
        ik_gltf_free(g);
    }
    {
        char *doc =
            replace_once(base_doc, "\"uri\":\"data:application/octet-stream;base64,", "\"uri\":\"x.bin\",\"u\":\"");
        g = NULL;
        r = ik_gltf_read_memory(doc, strlen(doc), NULL, &g, &e);
        CHECK(r == IK_ERR_UNSUPPORTED && strcmp(e.path, "/buffers/0/uri") == 0, "external buffer without a folder: %s",
              e.message);
        free(doc);
    }
}

static int file_exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

static void write_file(const char *path, const char *data, size_t size) {
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(data, 1, size, f) == size, "cannot write %s", path);
    if (f) fclose(f);
}

/* An external buffer whose URI holds a percent escape is read from the
 * decoded file name; written into another folder, it goes beside the copy
 * under the copy's name ("my copy.gltf" gives "my copy.bin", its URI
 * percent-encoded), never under the name it was read from, so the copy reads
 * back and the input's buffer file is never written. */
static void test_external_buffer(void) {
    static const char doc[] =
        "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"root\"}],"
        "\"skins\":[{\"joints\":[0]}],"
        "\"buffers\":[{\"byteLength\":4,\"uri\":\"test%20gltf%20buffer.bin\"},"
        "{\"byteLength\":2,\"uri\":\"second.bin\"}]}";
    ik_gltf *g = NULL, *copy = NULL;
    ik_gltf_output_file *files = NULL;
    ik_error e;
    ik_result r;
    int count = 0;
    write_file("test_gltf_external.gltf", doc, sizeof doc - 1);
    write_file("test gltf buffer.bin", "\1\2\3\4", 4);
    write_file("second.bin", "\5\6", 2);
    mkdir("test_gltf_out", 0777);
    r = ik_gltf_read_file("test_gltf_external.gltf", &g, &e);
    CHECK(r == IK_OK, "external buffer: %s", e.message);
    if (r == IK_OK) {
        CHECK(ik_gltf_buffer_count(g) == 2 && strcmp(ik_gltf_buffer_file(g, 0), "test gltf buffer.bin") == 0 &&
                  strcmp(ik_gltf_buffer_file(g, 1), "second.bin") == 0 && !ik_gltf_buffer_file(g, 2),
              "the buffers' files are known");
        r = ik_gltf_output_files(g, "test_gltf_out/my copy.gltf", &files, &count, &e);
        CHECK(r == IK_OK && count == 3 && strcmp(files[0].path, "test_gltf_out/my copy.bin") == 0 &&
                  strcmp(files[1].path, "test_gltf_out/my copy_1.bin") == 0 &&
                  strcmp(files[2].path, "test_gltf_out/my copy.gltf") == 0 && files[0].size == 4 &&
                  memcmp(files[0].data, "\1\2\3\4", 4) == 0 && files[1].size == 2,
              "buffers named after the output: %s", e.message);
        CHECK(r == IK_OK && count == 3 && strstr((const char *)files[2].data, "\"my%20copy.bin\"") &&
                  strstr((const char *)files[2].data, "\"my%20copy_1.bin\""),
              "the written URIs name them, percent-encoded");
        ik_gltf_output_files_free(files, count);
        r = ik_gltf_write_file(g, "test_gltf_out/my copy.gltf", &e);
        CHECK(r == IK_OK, "write beside: %s", e.message);
        r = ik_gltf_read_file("test_gltf_out/my copy.gltf", &copy, &e);
        CHECK(r == IK_OK && ik_gltf_skin_count(copy) == 1, "copy with its external buffers: %s", e.message);
        CHECK(file_exists("test_gltf_out/my copy.bin") && !file_exists("test_gltf_out/test gltf buffer.bin") &&
                  !file_exists("test_gltf_out/second.bin"),
              "no file is written under the input's buffer names");
    }
    ik_gltf_free(copy);
    ik_gltf_free(g);
    remove("test_gltf_out/my copy.gltf");
    remove("test_gltf_out/my copy.bin");
    remove("test_gltf_out/my copy_1.bin");
    remove("test_gltf_out/test gltf buffer.bin");
    remove("test_gltf_out/second.bin");
    rmdir("test_gltf_out");
    remove("test gltf buffer.bin");
    remove("second.bin");
    remove("test_gltf_external.gltf");
}

static ik_result read_gltf_file(const char *path, ik_error *error) {
    ik_gltf *g = NULL;
    ik_result r = ik_gltf_read_file(path, &g, error);
    ik_gltf_free(g);
    return r;
}

/* Read a document whose only buffer has `uri` and `byte_length`, written into
 * `dir`; the result, with the error in *error. */
static ik_result read_with_buffer(const char *dir, const char *uri, const char *byte_length, ik_error *error) {
    char path[200], doc[400];
    int n = snprintf(doc, sizeof doc,
                     "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"root\"}],\"skins\":[{\"joints\":[0]}],"
                     "\"buffers\":[{\"byteLength\":%s,\"uri\":\"%s\"}]}",
                     byte_length, uri);
    snprintf(path, sizeof path, "%s/doc.gltf", dir);
    write_file(path, doc, (size_t)n);
    return read_gltf_file(path, error);
}

/* Issue 18 item 6: the document and its buffers are read from regular files
 * only (a FIFO buffer would hang, a link to /dev/zero would be read until
 * memory runs out), and a buffer's byteLength is checked against its file
 * before the file is read. */
static void test_special_files(void) {
    char dir[64], fifo[80], zero_link[80], small[120];
    ik_error e;
    ik_result r;
    check_special_files_refused("glTF", read_gltf_file);
    if (!special_files_make(dir, sizeof dir, fifo, zero_link)) {
        CHECK(0, "special files made");
        return;
    }
    snprintf(small, sizeof small, "%s/small.bin", dir);
    write_file(small, "\1\2\3\4", 4);
    r = read_with_buffer(dir, "fifo", "4", &e);
    CHECK(r == IK_ERR_IO && strcmp(e.path, "/buffers/0/uri") == 0 && strstr(e.message, "not a regular file"),
          "a FIFO as buffer: %s", e.message);
    r = read_with_buffer(dir, "zero", "4", &e);
    CHECK(r == IK_ERR_IO && strstr(e.message, "not a regular file"), "a link to /dev/zero as buffer: %s", e.message);
    r = read_with_buffer(dir, "small.bin", "1000000", &e);
    CHECK(r == IK_ERR_PARSE && strstr(e.message, "holds 4 bytes, 1000000 needed"), "byteLength beyond the file: %s",
          e.message);
    r = read_with_buffer(dir, "small.bin", "3000000000", &e);
    CHECK(r == IK_ERR_UNSUPPORTED && strstr(e.message, "limit"), "byteLength beyond the 2 GiB cap: %s", e.message);
    r = read_with_buffer(dir, "small.bin", "4", &e);
    CHECK(r == IK_OK, "the same document with a true byteLength reads: %s", e.message);
    snprintf(small, sizeof small, "%s/doc.gltf", dir);
    unlink(small);
    snprintf(small, sizeof small, "%s/small.bin", dir);
    unlink(small);
    special_files_remove(dir, fifo, zero_link);
}

static void put_u32(unsigned char *b, unsigned long v) {
    b[0] = (unsigned char)v, b[1] = (unsigned char)(v >> 8), b[2] = (unsigned char)(v >> 16),
    b[3] = (unsigned char)(v >> 24);
}

/* GLB framing errors name the byte offset. */
static void test_broken_glb(void) {
    unsigned char glb[64 + sizeof base_doc];
    size_t json = (strlen(base_doc) + 3) / 4 * 4, total = 20 + json;
    ik_gltf *g = NULL;
    ik_error e;
    struct {
        size_t at;
        unsigned long value;
        size_t size;
        ik_result expected;
        long offset;
    } cases[] = {
        {0, 0x46546C68ul, 0, IK_ERR_PARSE, 0},   /* magic */
        {4, 1, 0, IK_ERR_UNSUPPORTED, 4},        /* version */
        {8, 100000, 0, IK_ERR_PARSE, 8},         /* length beyond the data */
        {12, 100000, 0, IK_ERR_PARSE, 12},       /* JSON chunk overruns */
        {16, 0x004E4942ul, 0, IK_ERR_PARSE, 16}, /* first chunk not JSON */
        {0, 0x46546C67ul, 10, IK_ERR_PARSE, 10}, /* truncated header */
    };
    size_t i;
    memset(glb, ' ', sizeof glb);
    put_u32(glb, 0x46546C67ul);
    put_u32(glb + 4, 2);
    put_u32(glb + 8, (unsigned long)total);
    put_u32(glb + 12, (unsigned long)json);
    put_u32(glb + 16, 0x4E4F534Aul);
    memcpy(glb + 20, base_doc, strlen(base_doc));
    CHECK(ik_gltf_read_memory(glb, total, NULL, &g, &e) == IK_OK, "framed base document: %s", e.message);
    ik_gltf_free(g);
    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        unsigned char copy[sizeof glb];
        ik_result r;
        memcpy(copy, glb, sizeof glb);
        put_u32(copy + cases[i].at, cases[i].value);
        g = NULL;
        r = ik_gltf_read_memory(copy, cases[i].size ? cases[i].size : total, NULL, &g, &e);
        CHECK(r == cases[i].expected && !g && e.offset == cases[i].offset, "glb case %zu: %s at %ld (%s)", i,
              ik_result_str(r), e.offset, e.message);
    }
}

/* Truncations and byte flips of a real file: an error or a document, never a
 * crash (run under ASan and UBSan). */
static void test_damaged_files(void) {
    char path[700];
    FILE *f;
    unsigned char *data, *copy;
    long size, i;
    rng r = rng_seeded(7);
    check_property clean = {"damaged girl.glb gives an error or a document", 0, 0};
    snprintf(path, sizeof path, "%s/girl.glb", data_dir);
    if (!(f = fopen(path, "rb"))) return;
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    fseek(f, 0, SEEK_SET);
    data = (unsigned char *)malloc((size_t)size);
    copy = (unsigned char *)malloc((size_t)size);
    if (fread(data, 1, (size_t)size, f) != (size_t)size) size = 0;
    fclose(f);
    for (i = 0; i < 120 && size > 0; ++i) {
        long cut = (long)(rng_unit(&r) * (double)size);
        ik_gltf *g = NULL;
        ik_error e;
        ik_result res = ik_gltf_read_memory(data, (size_t)cut, NULL, &g, &e);
        PROPERTY_CASE(clean, (res == IK_OK) == (g != NULL) && (res == IK_OK || e.message[0]), "cut %ld", cut);
        ik_gltf_free(g);
    }
    for (i = 0; i < 200 && size > 0; ++i) {
        long at = (long)(rng_unit(&r) * (double)(i % 2 ? 4000 : size));
        ik_gltf *g = NULL;
        ik_error e;
        ik_result res;
        memcpy(copy, data, (size_t)size);
        copy[at] ^= (unsigned char)(1u << (rng_next(&r) % 8));
        res = ik_gltf_read_memory(copy, (size_t)size, NULL, &g, &e);
        PROPERTY_CASE(clean, (res == IK_OK) == (g != NULL) && (res == IK_OK || e.message[0]), "flip at %ld", at);
        ik_gltf_free(g);
    }
    property_end(&clean);
    free(data);
    free(copy);
}

/* 100,000 joints (issue 18, item 5), one chain 100,000 deep and one root
 * with 99,999 leaves: both load (the duplicate-name check is no longer
 * pairwise, nothing recurses on the depth), with every joint, the depth
 * and the chain's end at 0.01 per joint above the root; a duplicate name
 * between the first and the last joint is still found and named. */
static void test_huge_rigs(void) {
    const int joints = 100000;
    int deep;
    for (deep = 1; deep >= 0; --deep) {
        char *doc = big_rig_gltf(joints, deep), *dup;
        ik_gltf *g = NULL;
        ik_error e;
        ik_result r;
        CHECK(doc != NULL, "generated document");
        if (!doc) return;
        r = ik_gltf_read_memory(doc, strlen(doc), NULL, &g, &e);
        CHECK(r == IK_OK, "%s rig of %d joints loads: %s", deep ? "deep" : "wide", joints, e.message);
        if (r == IK_OK) {
            const ik_gltf_skin *skin = ik_gltf_skeleton(g, 0);
            const ik_skeleton *s = &skin->skeleton;
            ik_transform *pose = (ik_transform *)malloc((size_t)joints * sizeof *pose);
            ik_mat4 *model = (ik_mat4 *)malloc((size_t)joints * sizeof *model);
            int last = joints - 1, depth = deep ? joints : 2;
            CHECK(s->joint_count == joints && ik_skeleton_depth(s, last) == depth &&
                      strcmp(ik_skeleton_name(s, last), "joint99999") == 0,
                  "%d joints, the last %d deep", s->joint_count, ik_skeleton_depth(s, last));
            if (pose && model) {
                ik_real y;
                ik_skeleton_rest_pose(s, pose);
                ik_skeleton_fk(s, pose, &skin->root_ms, model);
                y = ik_mat4_translation(&model[last]).y;
                CHECK(IK_FABS(y - (ik_real)0.01 * (ik_real)depth) < (ik_real)0.01 * (ik_real)depth * (ik_real)1e-2,
                      "the last joint at %g, expected %g", (double)y, 0.01 * depth);
            }
            free(pose);
            free(model);
            ik_gltf_free(g);
        }
        dup = replace_once(doc, "\"joint99999\"", "\"joint1\"");
        r = ik_gltf_read_memory(dup, strlen(dup), NULL, &g, &e);
        CHECK(r == IK_ERR_HIERARCHY && strstr(e.message, "duplicate") && strcmp(e.path, "/nodes/99999") == 0,
              "a duplicate name 99,998 joints apart: %s at %s", e.message, e.path);
        if (r == IK_OK) ik_gltf_free(g);
        free(dup);
        free(doc);
    }
}

/* ---- edits read back exactly; deep documents ------------------------------ */

static int same_bits(ik_real a, ik_real b) { return memcmp(&a, &b, sizeof a) == 0; }

static int same_transform_bits(const ik_transform *a, const ik_transform *b) {
    return same_bits(a->translation.x, b->translation.x) && same_bits(a->translation.y, b->translation.y) &&
           same_bits(a->translation.z, b->translation.z) && same_bits(a->rotation.x, b->rotation.x) &&
           same_bits(a->rotation.y, b->rotation.y) && same_bits(a->rotation.z, b->rotation.z) &&
           same_bits(a->rotation.w, b->rotation.w) && same_bits(a->scale.x, b->scale.x) &&
           same_bits(a->scale.y, b->scale.y) && same_bits(a->scale.z, b->scale.z);
}

/* An edit prints the document and reads it back. Doubles that cJSON's
 * printing rounds to 15 digits reading back one ulp off (its check allows a
 * relative DBL_EPSILON): in a double build an edit must keep them, in the
 * nodes it does not touch and in the pose it writes, to the bit. Node
 * "other" (skin 1) holds three such numbers; skin 0 is posed with them and
 * gets a clip whose key times include one. */
static void test_edit_reads_back_exactly(void) {
    static const double lossy[3] = {-0.93613539540028912, 0.053559887713547694, 0.52887341730709814};
    char *with_node = replace_once(base_doc, "{\"name\":\"tip\",\"translation\":[0,1,0]}]",
                                   "{\"name\":\"tip\",\"translation\":[0,1,0]},{\"name\":\"other\","
                                   "\"translation\":[-0.93613539540028912,0.053559887713547694,0.52887341730709814]}]");
    char *doc = replace_once(with_node, "\"inverseBindMatrices\":2}]", "\"inverseBindMatrices\":2},{\"joints\":[2]}]");
    ik_real times[3], values[9];
    ik_transform pose[2], expected[2], other;
    ik_channel channel;
    ik_clip clip;
    const ik_clip *added;
    ik_gltf *g = NULL;
    ik_error e;
    int j, k, exact;
    CHECK(ik_gltf_read_memory(doc, strlen(doc), NULL, &g, &e) == IK_OK && ik_gltf_skin_count(g) == 2,
          "two-skin document: %s", e.message);
    free(with_node);
    free(doc);
    if (!g) return;
    other = ik_gltf_skeleton(g, 1)->skeleton.rest_ls[0];
    CHECK(same_bits(other.translation.x, (ik_real)lossy[0]) && same_bits(other.translation.y, (ik_real)lossy[1]) &&
              same_bits(other.translation.z, (ik_real)lossy[2]),
          "node 'other' read as written");
    for (j = 0; j < 2; ++j) {
        ik_quat q = ik_q((ik_real)lossy[j], (ik_real)lossy[(j + 1) % 3], (ik_real)0.25, (ik_real)0.75);
        pose[j].translation = ik_v3((ik_real)lossy[j], (ik_real)lossy[(j + 1) % 3], (ik_real)lossy[(j + 2) % 3]);
        pose[j].rotation = q;
        pose[j].scale = ik_v3(1 + (ik_real)lossy[1], 1 - (ik_real)lossy[2], 2);
        /* set_pose writes the normalised rotation; the reader normalises what it reads */
        expected[j] = pose[j];
        expected[j].rotation = ik_quat_normalize(ik_quat_normalize(q));
    }
    CHECK(ik_gltf_set_pose(g, 0, pose, &e) == IK_OK, "set_pose: %s", e.message);
    for (j = 0; j < 2; ++j)
        CHECK(same_transform_bits(&ik_gltf_skeleton(g, 0)->skeleton.rest_ls[j], &expected[j]),
              "posed joint %d reads back to the bit", j);
    CHECK(same_transform_bits(&ik_gltf_skeleton(g, 1)->skeleton.rest_ls[0], &other),
          "set_pose keeps the untouched node to the bit");
    times[0] = 0, times[1] = (ik_real)lossy[1], times[2] = (ik_real)lossy[2];
    for (k = 0; k < 9; ++k) values[k] = (ik_real)lossy[k % 3] * (ik_real)(k + 1);
    channel.joint = 1;
    channel.path = IK_CHANNEL_TRANSLATION;
    channel.interpolation = IK_INTERP_LINEAR;
    channel.key_count = 3;
    channel.times = times;
    channel.values = values;
    clip.name = "added";
    clip.duration = times[2];
    clip.channel_count = 1;
    clip.channels = &channel;
    CHECK(ik_gltf_add_clip(g, 0, "added", &clip, &e) == IK_OK && ik_gltf_clip_count(g) == 2, "add_clip: %s", e.message);
    added = ik_gltf_clip(g, 1, 0);
    exact =
        added && added->channel_count == 1 && added->channels[0].key_count == 3 && strcmp(added->name, "added") == 0;
    /* key data goes to the buffer as 32-bit floats */
    for (k = 0; exact && k < 3; ++k) exact = same_bits(added->channels[0].times[k], (ik_real)(float)times[k]);
    for (k = 0; exact && k < 9; ++k) exact = same_bits(added->channels[0].values[k], (ik_real)(float)values[k]);
    CHECK(exact, "the added clip reads back as its float keys");
    for (j = 0; j < 2; ++j)
        CHECK(same_transform_bits(&ik_gltf_skeleton(g, 0)->skeleton.rest_ls[j], &expected[j]),
              "add_clip keeps posed joint %d to the bit", j);
    CHECK(same_transform_bits(&ik_gltf_skeleton(g, 1)->skeleton.rest_ls[0], &other),
          "add_clip keeps the untouched node to the bit");
    ik_gltf_free(g);
}

/* Written files read back to the bit (cJSON's printing took 15 digits
 * when they read back within a relative DBL_EPSILON, and wrote infinities
 * as null): base_doc with a node holding doubles that 15 digits miss by an
 * ulp, and extras of 1e999 and -1e999 (infinite when read), -0, 2^52 + 1
 * and 1e300, is written as .gltf and .glb and read again: the node's rest
 * pose is the same bits (in the double build; the float build's rounding
 * of both to float is then the same too), and the text keeps the
 * infinities (as 1e999), -0's sign, every digit of 2^52 + 1, and 0.5 short. */
static void test_write_reads_back_exactly(void) {
    char *with_node = replace_once(base_doc, "{\"name\":\"tip\",\"translation\":[0,1,0]}]",
                                   "{\"name\":\"tip\",\"translation\":[0,1,0]},{\"name\":\"other\","
                                   "\"translation\":[-0.93613539540028912,0.053559887713547694,0.5]}]");
    char *with_skin =
        replace_once(with_node, "\"inverseBindMatrices\":2}]", "\"inverseBindMatrices\":2},{\"joints\":[2]}]");
    char *doc = replace_once(with_skin, "{\"asset\":",
                             "{\"extras\":{\"big\":1e999,\"small\":-1e999,\"zero\":-0.0,\"whole\":4503599627370497,"
                             "\"huge\":1e300},\"asset\":");
    ik_gltf *g = NULL, *again = NULL;
    ik_error e;
    int binary;
    CHECK(ik_gltf_read_memory(doc, strlen(doc), NULL, &g, &e) == IK_OK, "document read: %s", e.message);
    free(with_node);
    free(with_skin);
    free(doc);
    if (!g) return;
    for (binary = 0; binary < 2; ++binary) {
        unsigned char *out = NULL;
        size_t size = 0;
        CHECK(ik_gltf_write_memory(g, binary, &out, &size, &e) == IK_OK, "written (%s): %s", binary ? "glb" : "gltf",
              e.message);
        if (!out) continue;
        if (!binary) {
            char *text = (char *)malloc(size + 1);
            memcpy(text, out, size);
            text[size] = '\0';
            CHECK(strstr(text, "1e999") && strstr(text, "-1e999") && !strstr(text, "null"),
                  "infinities written as numbers beyond the range, not null");
            CHECK(strstr(text, "0.5]") != NULL, "0.5 written as 0.5 (the fewest digits that read back exactly)");
            CHECK(strstr(text, "-0,") && strstr(text, "4503599627370497,") && strstr(text, "1e+300"),
                  "-0 keeps its sign, 2^52 + 1 its digits, 1e300 its exponent");
            free(text);
        }
        CHECK(ik_gltf_read_memory(out, size, NULL, &again, &e) == IK_OK, "read again (%s): %s", binary ? "glb" : "gltf",
              e.message);
        if (again)
            CHECK(same_transform_bits(&ik_gltf_skeleton(again, 1)->skeleton.rest_ls[0],
                                      &ik_gltf_skeleton(g, 1)->skeleton.rest_ls[0]),
                  "node 'other' reads back to the bit (%s)", binary ? "glb" : "gltf");
        ik_gltf_free(again);
        again = NULL;
        free(out);
    }
    ik_gltf_free(g);
}

/* A file may repeat a member; the reader takes the first. An edit that
 * replaced or removed only the first left the repeat to be read back in its
 * place: a node with two "matrix" members lost its pose to the second, and
 * a GLB whose buffer 0 named two URIs was written with the second and then
 * looked for that file. Every repeat goes now. */
static void test_edit_repeated_keys(void) {
    static const char tip_two_matrices[] =
        "{\"name\":\"tip\",\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,1,0,1],"
        "\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,7,7,7,1]}]";
    char *two = replace_once(base_doc, "{\"name\":\"tip\",\"translation\":[0,1,0]}]", tip_two_matrices);
    char *doc_first_uri = replace_once(two, "\"}],\"bufferViews\"", "\",\"uri\":\"missing.bin\"}],\"bufferViews\"");
    ik_transform pose[2];
    ik_gltf *g = NULL, *again = NULL;
    ik_error e;
    unsigned char *out = NULL;
    size_t size = 0;
    CHECK(ik_gltf_read_memory(doc_first_uri, strlen(doc_first_uri), NULL, &g, &e) == IK_OK,
          "repeated matrix and uri: read with the first of each: %s", e.message);
    free(two);
    free(doc_first_uri);
    if (!g) return;
    CHECK(ik_vec3_distance(ik_gltf_skeleton(g, 0)->skeleton.rest_ls[1].translation, ik_v3(0, 1, 0)) < 1e-6,
          "the first matrix is the rest pose");
    pose[0] = ik_gltf_skeleton(g, 0)->skeleton.rest_ls[0];
    pose[1] = ik_transform_identity();
    pose[1].translation = ik_v3(0, 2, 0);
    CHECK(ik_gltf_set_pose(g, 0, pose, &e) == IK_OK, "set_pose: %s", e.message);
    CHECK(ik_vec3_distance(ik_gltf_skeleton(g, 0)->skeleton.rest_ls[1].translation, ik_v3(0, 2, 0)) < 1e-6,
          "the pose reads back, not the second matrix: (%g %g %g)",
          (double)ik_gltf_skeleton(g, 0)->skeleton.rest_ls[1].translation.x,
          (double)ik_gltf_skeleton(g, 0)->skeleton.rest_ls[1].translation.y,
          (double)ik_gltf_skeleton(g, 0)->skeleton.rest_ls[1].translation.z);
    CHECK(ik_gltf_write_memory(g, 1, &out, &size, &e) == IK_OK, "written as GLB: %s", e.message);
    CHECK(out && ik_gltf_read_memory(out, size, NULL, &again, &e) == IK_OK,
          "the GLB reads its BIN chunk, no URI left: %s", e.message);
    if (again)
        CHECK(ik_vec3_distance(ik_gltf_skeleton(again, 0)->skeleton.rest_ls[1].translation, ik_v3(0, 2, 0)) < 1e-6,
              "and keeps the pose");
    ik_gltf_free(again);
    ik_gltf_free(g);
    free(out);
}

/* Clips of skins that share nodes (issue 18: every skin looked at every
 * channel, so 50,000 one-joint skins under 50,000 channels took 6.6 s to
 * read; now each channel reaches its skins through the node): nodes n0 > n1
 * > n2 and n3, skins [n0 n1 n2], [n2 n1] and [n3], one animation driving
 * n2, n1 and n3 in that order, and a second driving n0 only. Each skin's
 * clip holds the channels of its joints, in channel order, on the joints of
 * those names. Then 1,025 animations on 1,024 skins (more than 2^20 clips)
 * are refused. */
static void test_clips_shared_nodes(void) {
    static const struct {
        int anim, skin, count;
        const char *names[2];
    } expected[] = {{0, 0, 2, {"n2", "n1"}}, {0, 1, 2, {"n2", "n1"}}, {0, 2, 1, {"n3", NULL}},
                    {1, 0, 1, {"n0", NULL}}, {1, 1, 0, {NULL, NULL}}, {1, 2, 0, {NULL, NULL}}};
    char *nodes = replace_once(
        base_doc, "\"nodes\":[{\"name\":\"root\",\"children\":[1]},{\"name\":\"tip\",\"translation\":[0,1,0]}]",
        "\"nodes\":[{\"name\":\"n0\",\"children\":[1]},{\"name\":\"n1\",\"children\":[2]},"
        "{\"name\":\"n2\"},{\"name\":\"n3\"}]");
    char *skins = replace_once(nodes, "\"skins\":[{\"joints\":[0,1],\"inverseBindMatrices\":2}]",
                               "\"skins\":[{\"joints\":[0,1,2]},{\"joints\":[2,1]},{\"joints\":[3]}]");
    char *doc = replace_once(skins, "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"rotation\"}}]",
                             "\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,\"path\":\"rotation\"}},"
                             "{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"rotation\"}},"
                             "{\"sampler\":0,\"target\":{\"node\":3,\"path\":\"rotation\"}}]");
    char *two = replace_once(doc, "]}]}",
                             "]},{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":"
                             "\"rotation\"}}],\"samplers\":[{\"input\":0,\"output\":1}]}]}");
    char *many;
    size_t i, at;
    int k;
    ik_gltf *g = NULL;
    ik_error e;
    CHECK(ik_gltf_read_memory(two, strlen(two), NULL, &g, &e) == IK_OK && ik_gltf_skin_count(g) == 3 &&
              ik_gltf_clip_count(g) == 2,
          "three skins sharing nodes, two animations: %s", g ? "" : e.message);
    for (i = 0; g && i < sizeof expected / sizeof expected[0]; ++i) {
        const ik_clip *clip = ik_gltf_clip(g, expected[i].anim, expected[i].skin);
        const ik_skeleton *s = &ik_gltf_skeleton(g, expected[i].skin)->skeleton;
        int same = clip && clip->channel_count == expected[i].count;
        for (k = 0; same && k < expected[i].count; ++k)
            same = strcmp(ik_skeleton_name(s, clip->channels[k].joint), expected[i].names[k]) == 0 &&
                   clip->channels[k].path == IK_CHANNEL_ROTATION;
        CHECK(same, "animation %d on skin %d: %d channels on the joints named", expected[i].anim, expected[i].skin,
              expected[i].count);
        if (clip) CHECK(ik_clip_validate(clip, s->joint_count, NULL) == IK_OK, "and the clip validates");
    }
    ik_gltf_free(g);
    free(nodes);
    free(skins);
    free(doc);
    free(two);
    /* 1,024 one-joint skins and 1,025 animations without channels */
    many = (char *)malloc(64 * 1024 + 64 * 1025 + 256);
    at = (size_t)sprintf(many, "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"n\"}],\"skins\":[");
    for (k = 0; k < 1024; ++k) at += (size_t)sprintf(many + at, "%s{\"joints\":[0]}", k ? "," : "");
    at += (size_t)sprintf(many + at, "],\"animations\":[");
    for (k = 0; k < 1025; ++k) at += (size_t)sprintf(many + at, "%s{\"channels\":[],\"samplers\":[]}", k ? "," : "");
    sprintf(many + at, "]}");
    g = NULL;
    CHECK(ik_gltf_read_memory(many, strlen(many), NULL, &g, &e) == IK_ERR_UNSUPPORTED &&
              strstr(e.message, "1025 animations on 1024 skins"),
          "more than 2^20 (animation, skin) clips refused: %s", e.message);
    ik_gltf_free(g);
    free(many);
}

/* base_doc with `levels` nested arrays in a root "extras" member (nesting
 * levels + 1 with the root object). */
static char *deep_doc(int levels) {
    char *to = (char *)malloc((size_t)levels * 2 + 32), *doc;
    strcpy(to, "{\"extras\":");
    memset(to + 10, '[', (size_t)levels);
    memset(to + 10 + levels, ']', (size_t)levels);
    strcpy(to + 10 + 2 * levels, ",\"asset\":");
    doc = replace_once(base_doc, "{\"asset\":", to);
    free(to);
    return doc;
}

/* JSON nested 1000 deep (the reader's limit, as cJSON's) loads, is written
 * (the writer's tree is built with its own stack, not by recursion) and
 * read back with the nesting kept, and survives an edit; 1001 deep is
 * refused at the opening bracket, as text and inside a GLB. */
static void test_deep_document(void) {
    char *doc = deep_doc(999), *deeper = deep_doc(1000), *run = (char *)malloc(1001);
    unsigned char *glb = (unsigned char *)malloc(strlen(deeper) + 32), *first = NULL, *second = NULL;
    size_t json = (strlen(deeper) + 3) / 4 * 4, first_size = 0, second_size = 0;
    ik_gltf *g = NULL, *back = NULL;
    ik_transform pose[2];
    ik_error e;
    ik_result r;
    int binary;
    memset(run, '[', 1000);
    run[1000] = '\0';
    r = ik_gltf_read_memory(doc, strlen(doc), NULL, &g, &e);
    CHECK(r == IK_OK, "1000 levels deep load: %s", e.message);
    for (binary = 0; g && binary <= 1; ++binary) {
        CHECK(ik_gltf_write_memory(g, binary, &first, &first_size, &e) == IK_OK, "deep write: %s", e.message);
        CHECK(ik_gltf_read_memory(first, first_size, NULL, &back, &e) == IK_OK, "deep read back: %s", e.message);
        if (!binary) {
            char *text = (char *)malloc(first_size + 1);
            memcpy(text, first, first_size);
            text[first_size] = '\0';
            CHECK(strstr(text, run + 1) && !strstr(text, run), "the written text keeps 999 nested arrays");
            free(text);
        }
        CHECK(back && ik_gltf_write_memory(back, binary, &second, &second_size, &e) == IK_OK &&
                  second_size == first_size && memcmp(first, second, first_size) == 0,
              "deep document written again: the same %s bytes", binary ? "GLB" : "glTF");
        ik_gltf_free(back);
        back = NULL;
        free(first);
        free(second);
        first = second = NULL;
    }
    if (g) {
        ik_skeleton_rest_pose(&ik_gltf_skeleton(g, 0)->skeleton, pose);
        pose[1].translation.y = 2;
        CHECK(
            ik_gltf_set_pose(g, 0, pose, &e) == IK_OK && ik_gltf_skeleton(g, 0)->skeleton.rest_ls[1].translation.y == 2,
            "an edit of the deep document: %s", e.message);
        CHECK(ik_gltf_write_memory(g, 0, &first, &first_size, &e) == IK_OK &&
                  ik_gltf_read_memory(first, first_size, NULL, &back, &e) == IK_OK,
              "the edited deep document is written and read: %s", e.message);
        ik_gltf_free(back);
        free(first);
        ik_gltf_free(g);
    }
    g = NULL;
    /* the 1001st opening bracket is byte 10 + 999 of the text */
    r = ik_gltf_read_memory(deeper, strlen(deeper), NULL, &g, &e);
    CHECK(r == IK_ERR_PARSE && !g && e.offset == 1009 && strstr(e.message, "malformed JSON (JSON byte 1009)") &&
              strstr(e.message, "deeper than 1000"),
          "1001 levels refused: %s at %ld", e.message, e.offset);
    memset(glb, ' ', strlen(deeper) + 32);
    put_u32(glb, 0x46546C67ul);
    put_u32(glb + 4, 2);
    put_u32(glb + 8, (unsigned long)(20 + json));
    put_u32(glb + 12, (unsigned long)json);
    put_u32(glb + 16, 0x4E4F534Aul);
    memcpy(glb + 20, deeper, strlen(deeper));
    r = ik_gltf_read_memory(glb, 20 + json, NULL, &g, &e);
    CHECK(r == IK_ERR_PARSE && !g && e.offset == 20 + 1009 && strstr(e.message, "(JSON byte 1009)"),
          "1001 levels in a GLB refused at its file byte: %s at %ld", e.message, e.offset);
    free(glb);
    free(run);
    free(deeper);
    free(doc);
}

int main(void) {
    const char *edited = NULL;
    test_base_document();
    test_broken_documents();
    test_broken_glb();
    test_external_buffer();
    test_special_files();
    test_refused_documents();
    test_names_utf8();
    test_huge_rigs();
    test_edit_reads_back_exactly();
    test_write_reads_back_exactly();
    test_edit_repeated_keys();
    test_clips_shared_nodes();
    test_deep_document();
    if (have_data()) {
        test_real_rigs();
        test_bind_matrices();
        test_clips();
        test_round_trip();
        edited = test_edit_clips();
        test_validator(edited);
        test_damaged_files();
    } else {
        check_skip("real-asset corpus not found");
    }
    if (edited) remove(edited);
    return check_summary("test_gltf");
}

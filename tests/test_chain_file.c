/* Chain description files: the shipped examples, the format's defaults,
 * the skeleton they build (checked by forward kinematics), broken inputs. */
#define _POSIX_C_SOURCE 200809L
#include <ikit/chain_file.h>
#include <ikit/skeleton.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "support/special_files.h"
#include "support/read_errors.h"
#include "support/rng.h"

#ifdef IKIT_DOUBLE
#define TOL 1e-9
#define HALF_REAL_MAX "1e308"   /* two of these overflow ik_real */
#define NEAR_REAL_MAX "1.5e308" /* a vector of two has a length beyond ik_real */
#else
#define TOL 1e-5
#define HALF_REAL_MAX "3e38"
#define NEAR_REAL_MAX "3e38"
#endif

/* examples/ beside tests/, found from this file's own path. */
static void example_path(const char *name, char *path, size_t size) {
    const char *here = __FILE__, *cut = strstr(here, "tests/test_chain_file.c");
    int prefix = cut ? (int)(cut - here) : 0;
    snprintf(path, size, "%.*sexamples/%s", prefix, here, name);
}

static ik_chain_file *load_example(const char *name) {
    char path[1024];
    ik_chain_file *chain = NULL;
    ik_error err;
    ik_result r;
    example_path(name, path, sizeof path);
    r = ik_chain_file_read_file(path, &chain, &err);
    CHECK(r == IK_OK, "%s: %s %s", path, ik_result_str(r), err.message);
    return chain;
}

static ik_chain_file *load_text(const char *text) {
    ik_chain_file *chain = NULL;
    ik_error err;
    ik_result r = ik_chain_file_read_memory(text, strlen(text), &chain, &err);
    CHECK(r == IK_OK, "%s: %s", ik_result_str(r), err.message);
    return chain;
}

/* Forward kinematics of the rest pose into model[64]; 0 for larger chains. */
static int rest_model(const ik_chain_file *chain, ik_mat4 *model) {
    ik_transform pose[64];
    if (chain->joint_count > 64) return 0;
    ik_chain_file_rest_pose(chain, pose);
    ik_skeleton_fk(&chain->skeleton, pose, NULL, model);
    return 1;
}

static ik_vec3 rest_position_ms(const ik_chain_file *chain, int joint) {
    ik_mat4 model[64];
    if (rest_model(chain, model)) return ik_mat4_translation(&model[joint]);
    CHECK(0, "more than 64 joints");
    return ik_vec3_zero();
}

/* Every bone's rest length (forward kinematics) equals its declared length,
 * every joint's ranges are ordered and nested, axes are unit. */
static void check_consistent(const ik_chain_file *chain, const char *what) {
    int i;
    ik_mat4 model[64];
    check_property lengths = {"rest bone lengths match the file", 0, 0};
    check_property ranges = {"limits and comfort ranges are nested", 0, 0};
    if (!rest_model(chain, model)) {
        CHECK(0, "%s: more than 64 joints", what);
        return;
    }
    for (i = 0; i < chain->joint_count; ++i) {
        const ik_chain_joint *j = &chain->joints[i];
        if (j->parent >= 0) {
            ik_real bone = ik_vec3_distance(ik_mat4_translation(&model[i]), ik_mat4_translation(&model[j->parent]));
            PROPERTY_CASE(lengths, IK_FABS(bone - j->length) < TOL * (1 + j->length), "%s: %s is %g, declared %g", what,
                          j->name, (double)bone, (double)j->length);
        }
        PROPERTY_CASE(ranges,
                      j->limit_min_deg <= j->comfort_min_deg && j->comfort_min_deg <= j->comfort_max_deg &&
                          j->comfort_max_deg <= j->limit_max_deg && j->comfort_cone_deg <= j->cone_deg &&
                          IK_FABS(ik_vec3_length(j->axis_ls) - 1) < TOL && j->stiffness >= 0 && j->stiffness <= 1,
                      "%s: %s", what, j->name);
    }
    property_end(&lengths);
    property_end(&ranges);
}

static void check_walk(const ik_chain_file *chain, const char *const *names, int count) {
    int k, joint = ik_skeleton_find(&chain->skeleton, names[count - 1]);
    for (k = count - 1; k >= 0 && joint >= 0; --k) {
        CHECK(strcmp(ik_skeleton_name(&chain->skeleton, joint), names[k]) == 0, "expected %s, found %s", names[k],
              ik_skeleton_name(&chain->skeleton, joint));
        joint = chain->skeleton.parents[joint];
    }
    CHECK(k == -1 && joint == -1, "walk from %s should end at the root after %d joints", names[count - 1], count);
}

static void test_examples(void) {
    static const char *const tail_walk[] = {"base",       "seg1_pitch", "seg1_yaw",   "seg2_pitch", "seg2_yaw",
                                            "seg3_pitch", "seg3_yaw",   "seg4_pitch", "seg4_yaw",   "seg5_pitch",
                                            "seg5_yaw",   "seg6_pitch", "seg6_yaw",   "tip"};
    static const char *const branch_walk[] = {"trunk", "trunk_top", "right_1", "right_fork", "right_b", "right_b_tip"};
    ik_chain_file *tail = load_example("tail.chain"), *arm = load_example("robot_arm.chain");
    ik_chain_file *tentacle = load_example("tentacle.chain"), *tree = load_example("tree.chain");
    if (tail) {
        ik_vec3 tip = rest_position_ms(tail, ik_chain_file_find_joint(tail, "tip"));
        int seg = ik_chain_file_find_joint(tail, "seg3_yaw");
        CHECK(tail->joint_count == 14 && tail->target_count == 1, "tail: %d joints", tail->joint_count);
        CHECK(ik_vec3_distance(tip, ik_v3(0, 0, (ik_real)-3.15)) < 10 * TOL, "tail tip at rest: %g %g %g",
              (double)tip.x, (double)tip.y, (double)tip.z);
        CHECK(seg >= 0 && tail->joints[seg].type == IK_CHAIN_HINGE && tail->joints[seg].axis_ls.y == 1 &&
                  tail->joints[seg].limit_min_deg == -40 && tail->joints[seg].comfort_max_deg == 15 &&
                  IK_FABS(tail->joints[seg].stiffness - (ik_real)0.6) < TOL,
              "tail seg3_yaw fields");
        CHECK(tail->joints[tail->targets[0].joint].name[0] == 't' && tail->targets[0].importance == 1, "tail target");
        CHECK(tail->joints[1].line == 10, "tail: seg1_pitch declared on line %ld", tail->joints[1].line);
        check_walk(tail, tail_walk, 14);
        check_consistent(tail, "tail");
    }
    if (arm) {
        ik_vec3 tool = rest_position_ms(arm, ik_chain_file_find_joint(arm, "tool"));
        CHECK(arm->joint_count == 8, "arm: %d joints", arm->joint_count);
        CHECK(ik_vec3_distance(tool, ik_v3(0, (ik_real)0.191, (ik_real)1.001)) < 10 * TOL, "arm tool at rest: %g %g %g",
              (double)tool.x, (double)tool.y, (double)tool.z);
        CHECK(arm->joints[2].limit_min_deg == -180 && arm->joints[2].limit_max_deg == 0, "shoulder_lift limits");
        check_consistent(arm, "robot arm");
    }
    if (tentacle) {
        int s5 = ik_chain_file_find_joint(tentacle, "s5");
        CHECK(tentacle->joint_count == 12, "tentacle: %d joints", tentacle->joint_count);
        CHECK(s5 >= 0 && tentacle->joints[s5].type == IK_CHAIN_BALL && tentacle->joints[s5].cone_deg == 30 &&
                  tentacle->joints[s5].comfort_cone_deg == 12 && tentacle->joints[s5].axis_ls.y == 1,
              "tentacle s5: a ball whose twist axis is its bone");
        check_consistent(tentacle, "tentacle");
    }
    if (tree) {
        int roots = 0, i;
        for (i = 0; i < tree->joint_count; ++i) roots += tree->joints[i].parent < 0;
        CHECK(tree->joint_count == 11 && roots == 1 && tree->target_count == 3, "tree: %d joints, %d roots",
              tree->joint_count, roots);
        CHECK(tree->targets[2].joint == ik_chain_file_find_joint(tree, "right_b_tip") &&
                  IK_FABS(tree->targets[2].importance - (ik_real)0.25) < TOL &&
                  ik_chain_file_find_target(tree, "bird") == 2,
              "tree target 'bird'");
        check_walk(tree, branch_walk, 6);
        check_consistent(tree, "tree");
    }
    ik_chain_file_free(tail);
    ik_chain_file_free(arm);
    ik_chain_file_free(tentacle);
    ik_chain_file_free(tree);
}

static void test_defaults(void) {
    ik_chain_file *c = load_text(
        "# comment line\n"
        "chain demo   # trailing comment\n"
        "joint a\n"
        "joint b length 2\n"
        "joint c\n"
        "  length 1\n"
        "  direction 3 0 4\n"
        "  type hinge\n"
        "  limit -20 50\n"
        "joint d offset 0 0 0.5 type fixed\n"
        "joint e parent none offset 1 1 0\n"
        "joint f parent b length 1 type ball cone 30 comfort_cone 10 comfort -5 5\n"
        "target reach position 1 2 3\n");
    ik_vec3 c_ms, d_ms, f_ms;
    if (!c) return;
    CHECK(strcmp(c->name, "demo") == 0 && c->joint_count == 6 && c->target_count == 1, "shape");
    CHECK(c->joints[0].parent == -1 && c->joints[1].parent == 0 && c->joints[2].parent == 1, "default parents");
    CHECK(c->joints[4].parent == -1 && c->joints[5].parent == 1, "parent none / by name");
    CHECK(c->joints[0].type == IK_CHAIN_BALL && c->joints[0].limit_min_deg == -180 && c->joints[0].cone_deg == 180,
          "default joint: unlimited ball");
    CHECK(c->joints[1].direction_ls.y == 1, "root direction +y, inherited");
    CHECK(IK_FABS(c->joints[2].direction_ls.x - (ik_real)0.6) < TOL && c->joints[2].axis_ls.z == 1,
          "direction normalised; hinge axis defaults to z");
    CHECK(c->joints[2].comfort_min_deg == -20 && c->joints[2].comfort_max_deg == 50, "comfort defaults to the limits");
    CHECK(c->joints[3].type == IK_CHAIN_FIXED && c->joints[3].limit_max_deg == 0 && c->joints[3].cone_deg == 0 &&
              c->joints[3].direction_ls.z == 1 && IK_FABS(c->joints[3].length - (ik_real)0.5) < TOL,
          "offset gives length and direction; fixed has no range");
    CHECK(IK_FABS(c->joints[4].length - IK_SQRT(2)) < TOL, "offset length of a root");
    CHECK(c->joints[5].direction_ls.y == 1 && c->joints[5].comfort_cone_deg == 10 && c->joints[5].comfort_max_deg == 5,
          "ball with comfort ranges; direction inherited from parent b");
    CHECK(c->targets[0].joint == 5 && c->targets[0].position_ms.z == 3 && c->targets[0].importance == 1,
          "target defaults to the last joint, weight 1");
    c_ms = rest_position_ms(c, 2);
    d_ms = rest_position_ms(c, 3);
    f_ms = rest_position_ms(c, 5);
    CHECK(ik_vec3_distance(c_ms, ik_v3((ik_real)0.6, 2, (ik_real)0.8)) < TOL, "c at rest");
    CHECK(ik_vec3_distance(d_ms, ik_v3((ik_real)0.6, 2, (ik_real)1.3)) < TOL, "d at rest");
    CHECK(ik_vec3_distance(f_ms, ik_v3(0, 3, 0)) < TOL, "f at rest");
    ik_chain_file_free(c);
}

/* Offsets and directions far from 1 (subnormal squares, squares past the
 * largest real) still give unit directions and axes and their true length:
 * the fuzzer found a 1e-22 offset whose direction came out 10 % long. */
static void test_extreme_vectors(void) {
    ik_chain_file *c = load_text(
        "chain tiny\n"
        "joint a offset 3e-22 0 4e-22 type ball\n"
        "joint b direction 0 1e-38 1e-38 length 1 type hinge axis 1e-39 0 0\n"
        "joint c offset 1e30 0 0 type hinge axis 0 1e30 1e30\n"
        "joint d\n");
    int i;
    if (!c) return;
    for (i = 0; i < c->joint_count; ++i) {
        CHECK(IK_FABS(ik_vec3_length(c->joints[i].direction_ls) - 1) < TOL, "%s: unit direction (length %g)",
              c->joints[i].name, (double)ik_vec3_length(c->joints[i].direction_ls));
        CHECK(IK_FABS(ik_vec3_length(c->joints[i].axis_ls) - 1) < TOL, "%s: unit axis (length %g)", c->joints[i].name,
              (double)ik_vec3_length(c->joints[i].axis_ls));
    }
    CHECK(IK_FABS(c->joints[0].length / (ik_real)5e-22 - 1) < TOL, "tiny offset's length %g",
          (double)c->joints[0].length);
    CHECK(IK_FABS(c->joints[0].direction_ls.x - (ik_real)0.6) < TOL, "tiny offset's direction");
    CHECK(IK_FABS(c->joints[2].length / (ik_real)1e30 - 1) < TOL, "huge offset's length %g",
          (double)c->joints[2].length);
    ik_chain_file_free(c);
}

static void test_broken_inputs(void) {
    static const read_case cases[] = {
        {"", IK_ERR_PARSE, 1, "empty input"},
        {"# only a comment\n", IK_ERR_PARSE, 2, "no statement"},
        {"HIERARCHY\nROOT Hips\n", IK_ERR_PARSE, 1, "wrong magic (a BVH file)"},
        {"\n\njoint a\n", IK_ERR_PARSE, 3, "wrong magic: joint before chain"},
        {"chain", IK_ERR_PARSE, 1, "truncated chain name"},
        {"chain c\n", IK_ERR_PARSE, 2, "no joints"},
        {"chain c\njoint a\njoint b length", IK_ERR_PARSE, 3, "truncated value"},
        {"chain c\njoint a\njoint b offset 1 2\n", IK_ERR_PARSE, 4, "truncated vector"},
        {"chain c\njoint a\n  lenght 1\n", IK_ERR_PARSE, 3, "unknown key"},
        {"chain c\nlength 1\n", IK_ERR_PARSE, 2, "key before any joint"},
        {"chain c\njoint a\njoint b length -1\n", IK_ERR_RANGE, 3, "negative length"},
        {"chain c\njoint a\njoint b length nan\n", IK_ERR_NONFINITE, 3, "NaN length"},
        {"chain c\njoint a\njoint b\n offset 0 inf 0\n", IK_ERR_NONFINITE, 4, "infinite offset"},
        {"chain c\njoint a\njoint b\n offset " NEAR_REAL_MAX " " NEAR_REAL_MAX " 0\n", IK_ERR_NONFINITE, 4,
         "offset whose length is beyond ik_real"},
        {"chain c\njoint a length " HALF_REAL_MAX "\njoint b length " HALF_REAL_MAX "\n", IK_ERR_NONFINITE, 3,
         "rest position beyond ik_real"},
        {"chain c\njoint a stiffness 1.5\n", IK_ERR_RANGE, 2, "stiffness above 1"},
        {"chain c\njoint a limit 30 -30\n", IK_ERR_RANGE, 2, "limit min above max"},
        {"chain c\njoint a limit -200 0\n", IK_ERR_RANGE, 2, "limit beyond 180"},
        {"chain c\njoint a cone 190\n", IK_ERR_RANGE, 2, "cone beyond 180"},
        {"chain c\njoint a type hinge\n limit -10 10\n comfort -20 5\n", IK_ERR_RANGE, 2, "comfort outside limits"},
        {"chain c\njoint a cone 20 comfort_cone 30\n", IK_ERR_RANGE, 2, "comfort cone wider than cone"},
        {"chain c\njoint a type slider\n", IK_ERR_PARSE, 2, "unknown joint type"},
        {"chain c\njoint a axis 0 0 0\n", IK_ERR_DEGENERATE, 2, "zero axis"},
        {"chain c\njoint a direction 0 0 0\n", IK_ERR_DEGENERATE, 2, "zero direction"},
        {"chain c\njoint a\njoint b parent z\n", IK_ERR_NOT_FOUND, 3, "unknown parent"},
        {"chain c\njoint a\njoint b parent b\n", IK_ERR_NOT_FOUND, 3, "own parent"},
        {"chain c\njoint a\njoint b parent a\njoint c parent d\njoint d\n", IK_ERR_NOT_FOUND, 4,
         "parent declared later"},
        {"chain c\njoint a\njoint a\n", IK_ERR_HIERARCHY, 3, "duplicate joint name"},
        {"chain c\njoint aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", IK_ERR_RANGE, 2,
         "name too long"},
        {"chain c\ntarget t position 0 0 0\n", IK_ERR_PARSE, 2, "target before any joint"},
        {"chain c\njoint a\ntarget t weight 2\n", IK_ERR_PARSE, 3, "target without position"},
        {"chain c\njoint a\ntarget t joint q position 0 0 0\n", IK_ERR_NOT_FOUND, 3, "target on an unknown joint"},
        {"chain c\njoint a\ntarget t position 0 0 0 weight 0\n", IK_ERR_RANGE, 3, "zero weight"},
        {"chain c\njoint a\ntarget t position 0 0 0\n  length 2\n", IK_ERR_PARSE, 4, "joint key in a target"},
    };
    int i;
    for (i = 0; i < (int)(sizeof cases / sizeof cases[0]); ++i) {
        ik_chain_file dummy, *chain = &dummy;
        ik_error err;
        ik_result r = ik_chain_file_read_memory(cases[i].text, strlen(cases[i].text), &chain, &err);
        read_case_check(&cases[i], r, &err, chain == NULL);
    }
}

static void test_joint_cap(void) {
    size_t cap = (size_t)(IK_CHAIN_MAX_JOINTS + 2) * 16 + 16, n = 0;
    char *text = (char *)malloc(cap);
    ik_chain_file *chain = NULL;
    ik_error err;
    ik_result r;
    int i;
    n += (size_t)sprintf(text + n, "chain big\n");
    for (i = 0; i < IK_CHAIN_MAX_JOINTS; ++i) n += (size_t)sprintf(text + n, "joint j%d\n", i);
    r = ik_chain_file_read_memory(text, n, &chain, &err);
    CHECK(r == IK_OK && chain && chain->joint_count == IK_CHAIN_MAX_JOINTS, "largest chain: %s", err.message);
    ik_chain_file_free(chain);
    n += (size_t)sprintf(text + n, "joint extra\n");
    r = ik_chain_file_read_memory(text, n, &chain, &err);
    CHECK(r == IK_ERR_RANGE && chain == NULL && err.line == IK_CHAIN_MAX_JOINTS + 2, "cap: %s", err.message);
    free(text);
}

/* The largest chain with every joint naming a parent three joints back and
 * a target on each of the last four: every name found (the reader hashes
 * names), and a name declared again at the end caught. */
static void test_many_names(void) {
    size_t cap = (size_t)IK_CHAIN_MAX_JOINTS * 40 + 256, n = 0;
    char *text = (char *)malloc(cap);
    ik_chain_file *chain = NULL;
    ik_error err;
    ik_result r;
    int i, parents_right = 1;
    n += (size_t)sprintf(text + n, "chain names\njoint j0\n");
    for (i = 1; i < IK_CHAIN_MAX_JOINTS; ++i)
        n += (size_t)sprintf(text + n, "joint j%d parent j%d\n", i, i < 3 ? 0 : i - 3);
    for (i = 1; i <= 4; ++i)
        n += (size_t)sprintf(text + n, "target t%d joint j%d position 0 1 0\n", i, IK_CHAIN_MAX_JOINTS - i);
    r = ik_chain_file_read_memory(text, n, &chain, &err);
    CHECK(r == IK_OK && chain && chain->joint_count == IK_CHAIN_MAX_JOINTS && chain->target_count == 4,
          "4096 named joints: %s", err.message);
    for (i = 1; chain && i < chain->joint_count; ++i) parents_right &= chain->joints[i].parent == (i < 3 ? 0 : i - 3);
    CHECK(parents_right, "every parent found by name");
    for (i = 0; chain && i < 4; ++i)
        CHECK(chain->targets[i].joint == IK_CHAIN_MAX_JOINTS - 1 - i, "target %d on its joint", i);
    ik_chain_file_free(chain);
    n = (size_t)sprintf(text, "chain twice\n");
    for (i = 0; i < 100; ++i) n += (size_t)sprintf(text + n, "joint j%d\n", i);
    n += (size_t)sprintf(text + n, "joint j57\n");
    r = ik_chain_file_read_memory(text, n, &chain, &err);
    CHECK(r == IK_ERR_HIERARCHY && err.line == 102 && strstr(err.message, "'j57' declared twice"), "%s", err.message);
    free(text);
}

/* Prefixes and seeded corruptions of the tail example never crash and
 * either load consistently or fail with a located message. */
static void test_truncations_and_corruptions(void) {
    char path[1024];
    FILE *file;
    char text[8192];
    size_t size, cut;
    check_property prefixes = {"every prefix loads or fails cleanly", 0, 0};
    check_property mutants = {"random corruptions load or fail cleanly", 0, 0};
    rng r = rng_seeded(11);
    int i;
    example_path("tail.chain", path, sizeof path);
    file = fopen(path, "rb");
    if (!file) {
        CHECK(file != NULL, "cannot open %s", path);
        return;
    }
    size = fread(text, 1, sizeof text, file);
    fclose(file);
    for (cut = 0; cut <= size; ++cut) {
        ik_chain_file *chain = NULL;
        ik_error err;
        ik_result result = ik_chain_file_read_memory(text, cut, &chain, &err);
        PROPERTY_CASE(prefixes, result == IK_OK ? chain != NULL : chain == NULL && err.line >= 1, "cut %lu: %s",
                      (unsigned long)cut, err.message);
        ik_chain_file_free(chain);
    }
    for (i = 0; i < 3000; ++i) {
        static const char alphabet[] = "0123456789.-e \n#jointparentlimitnanf";
        char copy[8192];
        ik_chain_file *chain = NULL;
        ik_error err;
        ik_result result;
        read_corrupt(&r, copy, text, size, alphabet);
        result = ik_chain_file_read_memory(copy, size, &chain, &err);
        PROPERTY_CASE(mutants, result == IK_OK ? chain != NULL : chain == NULL && err.line >= 1, "case %d: %s", i,
                      err.message);
        if (chain) check_consistent(chain, "mutant");
        ik_chain_file_free(chain);
    }
    property_end(&prefixes);
    property_end(&mutants);
}

static ik_result read_chain_file(const char *path, ik_error *error) {
    ik_chain_file *chain = NULL;
    ik_result r = ik_chain_file_read_file(path, &chain, error);
    ik_chain_file_free(chain);
    return r;
}

/* Devices, a FIFO, a symlink to /dev/zero, a directory: refused at once. */
static void test_special_files(void) { check_special_files_refused("chain file", read_chain_file); }

/* The io layer's capped reader (what ikc reads mapping files with): a file
 * of exactly the cap is read whole and NUL-terminated, one byte over is
 * refused before reading, and special files are refused like every reader's. */
static ik_result read_at_most_64k(const char *path, ik_error *error) {
    char *data = NULL;
    size_t size = 0;
    ik_result r = ik_io_read_file_at_most(path, 65536, &data, &size, error);
    free(data);
    return r;
}

static void test_read_file_at_most(void) {
    char path[] = "/tmp/ikit-at-most-XXXXXX", *data = NULL;
    size_t size = 7;
    ik_error err;
    int fd = mkstemp(path);
    CHECK(fd >= 0 && write(fd, "0123456789", 10) == 10, "a 10-byte file is written");
    if (fd >= 0) close(fd);
    CHECK(ik_io_read_file_at_most(path, 10, &data, &size, &err) == IK_OK && size == 10 && data &&
              memcmp(data, "0123456789", 10) == 0 && data[10] == '\0',
          "a file of exactly the cap is read whole: %s", err.message);
    free(data);
    data = NULL;
    CHECK(ik_io_read_file_at_most(path, 9, &data, &size, &err) == IK_ERR_UNSUPPORTED && !data && size == 0 &&
              strstr(err.message, "9-byte limit"),
          "one byte over the cap is refused: %s", err.message);
    remove(path);
    check_special_files_refused("capped reader", read_at_most_64k);
}

int main(void) {
    test_examples();
    test_defaults();
    test_extreme_vectors();
    test_broken_inputs();
    test_joint_cap();
    test_many_names();
    test_truncations_and_corruptions();
    test_special_files();
    test_read_file_at_most();
    CHECK(ik_chain_file_read_file("/nonexistent-dir/x.chain", NULL, NULL) == IK_ERR_NULL, "NULL out");
    return check_summary("test_chain_file");
}

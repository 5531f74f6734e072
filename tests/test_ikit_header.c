/* <ikit/ikit.h> alone: it includes every public header (each file in
 * include/ikit/ is named in it), and one call from each layer, math to io,
 * compiles and links through it. */
#define _POSIX_C_SOURCE 200809L /* opendir */
#include <ikit/ikit.h>

#include <dirent.h>
#include <string.h>

#include "support/check.h"

/* Every header in include/ikit/ of the source tree (found from this file's
 * path) is included by ikit.h; skipped when the compiler gave a relative
 * path. */
static void test_every_header_included(void) {
    const char *self = __FILE__, *tail = "tests/test_ikit_header.c";
    size_t root_length = strlen(self) >= strlen(tail) ? strlen(self) - strlen(tail) : 0;
    char dir_path[1024], header_path[1040], text[16384], wanted[300];
    size_t length;
    struct dirent *entry;
    FILE *file;
    DIR *dir;
    int headers = 0;
    if (self[0] != '/' || strcmp(self + root_length, tail) != 0 || root_length + 32 > sizeof dir_path) {
        check_skip("the source tree is not known (relative __FILE__)");
        return;
    }
    snprintf(dir_path, sizeof dir_path, "%.*sinclude/ikit", (int)root_length, self);
    snprintf(header_path, sizeof header_path, "%s/ikit.h", dir_path);
    file = fopen(header_path, "rb");
    CHECK(file != NULL, "cannot open %s", header_path);
    if (!file) return;
    length = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[length] = '\0';
    dir = opendir(dir_path);
    CHECK(dir != NULL, "cannot list %s", dir_path);
    if (!dir) return;
    while ((entry = readdir(dir)) != NULL) {
        size_t n = strlen(entry->d_name);
        if (n < 3 || strcmp(entry->d_name + n - 2, ".h") != 0 || strcmp(entry->d_name, "ikit.h") == 0) continue;
        snprintf(wanted, sizeof wanted, "#include <ikit/%s>", entry->d_name);
        CHECK(strstr(text, wanted) != NULL, "ikit.h does not include <ikit/%s>", entry->d_name);
        ++headers;
    }
    closedir(dir);
    CHECK(headers > 40, "only %d headers found in %s", headers, dir_path);
}

/* One call from each layer, through ikit.h only. */
static void test_one_call_per_layer(void) {
    static const int parents[2] = {-1, 0};
    static const char *const names[2] = {"root", "tip"};
    static const char bad_chain[] = "chain broken\njoint a length oops\n";
    ik_transform rest_ls[2];
    ik_skeleton skeleton;
    ik_error error;
    ik_two_bone two_bone;
    ik_ground ground;
    ik_robot_ik robot;
    ik_key_fit key_fit;
    ik_chain_file *chain = NULL;
    ik_real height = 0;

    /* math */
    ik_error_clear(&error);
    CHECK(error.index == -1 && error.offset == -1 && error.message[0] == '\0', "math: ik_error_clear");
    CHECK(strcmp(ik_result_str(IK_OK), "ok") == 0, "math: ik_result_str");

    /* skeleton */
    rest_ls[0] = ik_transform_identity();
    rest_ls[1] = ik_transform_make(ik_v3(0, 1, 0), ik_quat_identity(), ik_v3(1, 1, 1));
    CHECK(ik_skeleton_init(&skeleton, 2, parents, names, rest_ls, &error) == IK_OK &&
              ik_skeleton_find(&skeleton, "tip") == 1,
          "skeleton: %s", error.message);

    /* anim */
    CHECK(ik_take_frame_count(1, (ik_real)0.25, 100) == 5, "anim: ik_take_frame_count");

    /* solve */
    two_bone = ik_two_bone_def();
    CHECK(two_bone.defaulted == IK_JOB_DEFAULTED, "solve: ik_two_bone_def");

    /* rig */
    ground = ik_ground_plane(ik_v3(0, 2, 0), ik_v3(0, 1, 0));
    CHECK(ik_ground_height_at(&ground, 3, 4, &height, NULL) && height == 2, "rig: ik_ground_height_at");

    /* robot */
    robot = ik_robot_ik_def();
    CHECK(robot.defaulted == IK_JOB_DEFAULTED, "robot: ik_robot_ik_def");

    /* motion */
    key_fit = ik_key_fit_def();
    CHECK(key_fit.defaulted == IK_JOB_DEFAULTED, "motion: ik_key_fit_def");

    /* io: a chain file with a word where a number belongs, on line 2 */
    CHECK(ik_chain_file_read_memory(bad_chain, sizeof bad_chain - 1, &chain, &error) == IK_ERR_PARSE && !chain &&
              error.line == 2 && error.message[0],
          "io: line %ld: %s", error.line, error.message);
    ik_chain_file_free(chain);
}

int main(void) {
    test_every_header_included();
    test_one_call_per_layer();
    return check_summary("test_ikit_header");
}

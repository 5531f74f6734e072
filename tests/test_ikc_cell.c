/* `ikc solve ARM.urdf --scene` and `ikc check` (issue 29), end to end on the
 * UR5 in the example cell (examples/ur5_cell.scene.json): the solve reaches
 * the pose collision-free and `ikc check` at the printed joint values agrees
 * (free, exit 0); a ball around the goal gives "no collision-free solution
 * found" (exit 1) with the ball among the contacts; a configuration through
 * the table is reported in contact (exit 1) naming the pair; an unknown
 * package (exit 5, naming --package-path), a package directory without the
 * mesh (exit 3, naming the link and the mesh), a malformed scene (exit 4,
 * with the JSON path), a bad --margin and a NaN joint value (exit 2) are
 * refused; an SRDF is read. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>

#include "support/ikc_run.h"

static char urdf[900], package[1000], scene[1200];

/* The joint values printed by `ikc solve` (lines "  NAME  VALUE  (DEG deg)") as "v1,v2,...". */
static int printed_joints(const char *text, char *out, size_t size) {
    const char *line = text;
    int count = 0;
    out[0] = 0;
    while ((line = strstr(line, "\n  ")) != NULL) {
        char name[128];
        double value;
        size_t used = strlen(out);
        line += 3;
        if (sscanf(line, "%127s %lf (", name, &value) == 2 && strstr(name, "_joint")) {
            snprintf(out + used, size - used, "%s%.9g", count ? "," : "", value);
            ++count;
        }
    }
    return count;
}

static void test_solve_then_check(void) {
    char args[4000], q[600];
    snprintf(args, sizeof args, "solve '%s' --tip tool0 --pose 0.4,0.2,0.3,1,0,0,0 --scene '%s' --package-path '%s'",
             urdf, scene, package);
    CHECK(run(args) == 0 && strstr(out_text, "reached collision-free") && strstr(out_text, "free: clearance"),
          "solve in the cell: %s%s", out_text, err_text);
    CHECK(printed_joints(out_text, q, sizeof q) == 6, "six joint values printed: %s", out_text);
    snprintf(args, sizeof args, "check '%s' --tip tool0 --q %s --scene '%s' --package-path '%s'", urdf, q, scene,
             package);
    CHECK(run(args) == 0 && strstr(out_text, "free: clearance") && strstr(out_text, "8 obstacles"),
          "check agrees: %s%s", out_text, err_text);
}

static void test_no_solution(void) {
    char args[4000], ball[600];
    path_in(ball, sizeof ball, "ball.json");
    write_text(
        ball,
        "{\"frame\": \"world\", \"obstacles\": [{\"name\": \"ball\", \"sphere\": 0.1, \"pose\": [0.4, 0.2, 0.3]}]}");
    snprintf(args, sizeof args, "solve '%s' --tip tool0 --pose 0.4,0.2,0.3,1,0,0,0 --scene '%s' --package-path '%s'",
             urdf, ball, package);
    CHECK(run(args) == 1 && strstr(out_text, "NO COLLISION-FREE SOLUTION") && strstr(out_text, "obstacle 'ball'") &&
              strstr(err_text, "no collision-free solution found"),
          "a ball around the goal: %s%s", out_text, err_text);
}

static void test_contact(void) {
    char args[4000];
    snprintf(args, sizeof args, "check '%s' --tip tool0 --q 0,1.2,1.5,-1,-1.5,0 --scene '%s' --package-path '%s'", urdf,
             scene, package);
    CHECK(run(args) == 1 && strstr(out_text, "IN CONTACT") && strstr(out_text, "upper_arm_link - obstacle 'table'"),
          "the upper arm through the table: %s%s", out_text, err_text);
}

static void test_refusals(void) {
    char args[4000], bad[600], empty_pkg[600], srdf[600];
    snprintf(args, sizeof args, "check '%s' --tip tool0 --q 0,0,0,0,0,0 --scene '%s'", urdf, scene);
    CHECK(run(args) == 5 && strstr(err_text, "unknown package 'example-robot-data'") &&
              strstr(err_text, "--package-path"),
          "no package path: %s", err_text);
    path_in(empty_pkg, sizeof empty_pkg, "");
    snprintf(args, sizeof args, "check '%s' --tip tool0 --q 0,0,0,0,0,0 --package-path example-robot-data=%s", urdf,
             empty_pkg);
    CHECK(run(args) == 3 && strstr(err_text, "base_link") && strstr(err_text, "base.stl"),
          "a package without the mesh: %s", err_text);
    path_in(bad, sizeof bad, "bad.json");
    write_text(bad, "{\"obstacles\": [{\"box\": [1, 1]}]}");
    snprintf(args, sizeof args, "check '%s' --tip tool0 --q 0,0,0,0,0,0 --scene '%s' --package-path '%s'", urdf, bad,
             package);
    CHECK(run(args) == 4 && strstr(err_text, "/obstacles/0/box"), "a malformed scene: %s", err_text);
    snprintf(args, sizeof args, "check '%s' --tip tool0 --q 0,0,0,0,0,0 --margin -1 --package-path '%s'", urdf,
             package);
    CHECK(run(args) == 2 && strstr(err_text, "--margin"), "a negative margin: %s", err_text);
    snprintf(args, sizeof args, "check '%s' --tip tool0 --q 0,nan,0,0,0,0 --package-path '%s'", urdf, package);
    CHECK(run(args) == 2, "a NaN joint value: %s", err_text);
    snprintf(args, sizeof args, "check '%s' --tip tool0 --q 0,0,0 --package-path '%s'", urdf, package);
    CHECK(run(args) == 2 && strstr(err_text, "6 variables"), "three values for six joints: %s", err_text);
    path_in(srdf, sizeof srdf, "ur5.srdf");
    write_text(srdf,
               "<robot name=\"ur5\"><disable_collisions link1=\"forearm_link\" link2=\"wrist_3_link\" "
               "reason=\"Never\"/></robot>");
    snprintf(args, sizeof args, "check '%s' --tip tool0 --q 0,-1.2,1.5,-1,-1.5,0 --srdf '%s' --package-path '%s'", urdf,
             srdf, package);
    CHECK(run(args) == 0 && strstr(out_text, "SRDF pairs left out"), "an SRDF: %s%s", out_text, err_text);
}

int main(void) {
    char data[900];
    const char *here = __FILE__, *cut = strstr(here, "tests/test_ikc_cell.c");
    if (!ikc_run_begin("ikc-cell")) return 1;
    snprintf(scene, sizeof scene, "%.*sexamples/ur5_cell.scene.json", cut ? (int)(cut - here) : 0, here);
    if (real_asset("urdf/ur5_joint_limited_robot.urdf", urdf, sizeof urdf) &&
        real_asset("urdf/example-robot-data", data, sizeof data)) {
        snprintf(package, sizeof package, "example-robot-data=%s", data);
        test_solve_then_check();
        test_no_solution();
        test_contact();
        test_refusals();
    }
    ikc_run_end();
    return check_summary("test_ikc_cell");
}

/* `ikc check ROBOT.urdf --tip LINK --q q1,q2,... [--scene SCENE.json]`: the
 * contacts and clearances of a robot arm at a configuration, against the
 * scene's obstacles and between its own links (ik_robot_collision_check). */
#include <stdlib.h>
#include <string.h>

#include <ikit/robot_collision.h>

#include "ikc.h"
#include "robot_arm.h"
#include "robot_cell.h"

static void usage(FILE *out) {
    fprintf(out,
            "usage: ikc check ROBOT.urdf --tip LINK --q q1,q2,... [--base LINK] [--scene SCENE.json]\n"
            "                 [--margin M] [--srdf FILE] [--package-path NAME=DIR]...\n"
            "\n"
            "Prints whether the arm at joint values q (one per variable, in `ikc info`'s chain\n"
            "order, radians or metres) keeps at least the margin (default 0.01 m) from the\n"
            "scene's obstacles and between its links, the closest pair, every pair closer\n"
            "than the margin, and each link's clearance. Links are bounded by capsules fitted\n"
            "to their URDF <collision> geometry (so clearances are lower bounds); pairs of\n"
            "links that always or never touch, and the SRDF's <disable_collisions>, are left\n"
            "out. Scene files: see `ikc solve ROBOT.urdf --help`.\n"
            "\n"
            "example:\n"
            "  ikc check ur5.urdf --tip tool0 --q 0,-1.2,1.5,-1,-1.5,0 --scene cell.json \\\n"
            "      --package-path example-robot-data=DIR\n"
            "\n"
            "exit codes: 0 free, 1 in contact, 2 bad usage, 3 file missing, 4 file\n"
            "malformed, 5 unknown link or package.\n");
}

int ikc_robot_check(int argc, char **argv) {
    static const char *const valued[] = {"--tip", "--base", "--q", IKC_CELL_OPTIONS};
    ikc_arm_args args;
    ikc_cell_args cell_args;
    ikc_cell cell;
    ikc_arm arm;
    ik_urdf *u = NULL;
    ik_real q[IK_ROBOT_MAX_JOINTS];
    ik_robot_collision_report report;
    int i, q_count = 0, code = IKC_EXIT_OK;
    ik_result r;
    memset(&args, 0, sizeof args);
    memset(&cell, 0, sizeof cell);
    ikc_cell_args_init(&cell_args);
    for (i = 0; i < argc; ++i) {
        const char *a = argv[i], *value = NULL;
        code = ikc_arm_arg("check", "", argc, argv, &i, valued, sizeof valued / sizeof valued[0], usage, &args, &value);
        if (code == IKC_ARG_TAKEN) continue;
        if (code != IKC_ARG_VALUE) return code < 0 ? IKC_EXIT_OK : code;
        code = ikc_cell_option("check", a, value, &cell_args);
        if (code == IKC_EXIT_USAGE) return code;
        if (code == IKC_ARG_TAKEN) continue;
        q_count = ikc_parse_reals(value, ',', q, 1, IK_ROBOT_MAX_JOINTS);
        if (q_count < 1) {
            fprintf(stderr, "ikc check: --q wants numbers split by commas, not '%s'\n", ikc_shown(value));
            return IKC_EXIT_USAGE;
        }
    }
    if (!args.path || !args.tip || !q_count) {
        fprintf(stderr, "ikc check: needs ROBOT.urdf, --tip LINK and --q\n");
        usage(stderr);
        return IKC_EXIT_USAGE;
    }
    code = ikc_urdf_load("check", args.path, &u);
    if (code == IKC_EXIT_OK) code = ikc_arm_chain("check", u, args.base, args.tip, &arm);
    if (code == IKC_EXIT_OK && q_count != arm.chain.variable_count) {
        fprintf(stderr, "ikc check: --q has %d values; the chain has %d variables\n", q_count,
                arm.chain.variable_count);
        code = IKC_EXIT_USAGE;
    }
    if (code == IKC_EXIT_OK) code = ikc_cell_load("check", u, &args, &arm, &cell_args, &cell);
    if (code == IKC_EXIT_OK) {
        r = ik_robot_collision_check(&cell.model, &arm.chain, q, cell.scene ? cell.scene->obstacles : NULL,
                                     cell.scene ? cell.scene->obstacle_count : 0, cell_args.margin, &report);
        if (r != IK_OK) {
            fprintf(stderr, "ikc check: %s\n",
                    r == IK_ERR_NONFINITE ? "--q holds a value that is not finite" : ik_result_str(r));
            code = IKC_EXIT_USAGE;
        } else {
            printf("%s: %d links with collision geometry (%d more outside the chain's reach), %d obstacles%s\n",
                   ikc_shown(args.path), cell.model.link_count, cell.skipped_links,
                   cell.scene ? cell.scene->obstacle_count : 0, cell_args.srdf ? ", SRDF pairs left out" : "");
            ikc_cell_print_report(&cell, &report, cell_args.margin);
            code = report.free ? IKC_EXIT_OK : IKC_EXIT_FAILURE;
        }
    }
    ikc_cell_free(&cell);
    ik_urdf_free(u);
    return code;
}

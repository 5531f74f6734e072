/* ikc: apply inverse kinematics to characters and motion from the command line. */
#include <stdio.h>
#include <string.h>

#include "ikc.h"
#include "robot_cell.h"

static void usage(FILE *out) {
    fprintf(out,
            "usage: ikc COMMAND [OPTIONS]\n"
            "\n"
            "commands:\n"
            "  info FILE      joint tree, limb chains found by name, clips and durations\n"
            "  solve FILE     pose a character so named joints reach targets; write glTF/BVH\n"
            "  render FILE    draw the skeleton (and a clip as a filmstrip) to SVG, PNG or PDF\n"
            "  demo           the showcase on built-in data (no files needed)\n"
            "  contacts TAKE  the frames each foot is planted; JSON and a picture\n"
            "  clean TAKE     footskate clean-up: planted feet held still; before/after table\n"
            "  walk RIG       a procedural walk cycle for a humanoid, written as a new clip\n"
            "  retarget TAKE RIG  play a take on another humanoid, feet held; write the rig's file\n"
            "  fit TAKE       fit keys with cubic tangents to a take within an error; write glTF/BVH\n"
            "  batch MANIFEST run the commands listed in a file, in parallel, resumable\n"
            "  ikbench ARM    the TRAC-IK benchmark protocol on a URDF robot arm\n"
            "  path ARM       a URDF arm's tool along a straight line; the joint path as CSV/JSON\n"
            "  check ARM      a URDF robot arm's contacts and clearances at joint values, in a scene\n"
            "\n"
            "FILE is glTF 2.0 (.gltf, .glb), BVH (.bvh) or a chain description (.chain).\n"
            "info and solve also take a URDF robot arm (.urdf; `ikc solve ARM.urdf --help`).\n"
            "\n"
            "examples:\n"
            "  ikc info robot.glb\n"
            "  ikc solve girl.glb --target Foot.L=0.2,0.3,0.1 --json -o posed.glb\n"
            "  ikc render 131_01.bvh --clip motion --frames 0:4:0.5 --view side -o walk.png\n"
            "  ikc solve ur5.urdf --tip tool0 --pose 0.4,0.2,0.3,1,0,0,0 --json\n"
            "  ikc demo -o out\n"
            "\n"
            "ikc COMMAND --help shows a command's options; ikc --version the version.\n"
            "\n"
            "exit codes:\n"
            "  0  success (a target out of reach is a warning, not a failure)\n"
            "  1  a solver or internal failure\n"
            "  2  bad command line: unknown command or option, bad number, missing value\n"
            "  3  input file not found or unreadable\n"
            "  4  input file malformed or unsupported (the message gives the place in the file)\n"
            "  5  unknown joint, clip or chain name (the message suggests the closest names)\n"
            "  6  output file could not be written\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return IKC_EXIT_USAGE;
    }
    if (ikc_is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return IKC_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("ikc %s\n", IKC_VERSION);
        return IKC_EXIT_OK;
    }
    if (strcmp(argv[1], "info") == 0) return ikc_info(argc - 2, argv + 2);
    if (strcmp(argv[1], "solve") == 0) return ikc_solve(argc - 2, argv + 2);
    if (strcmp(argv[1], "render") == 0) return ikc_render(argc - 2, argv + 2);
    if (strcmp(argv[1], "demo") == 0) return ikc_demo(argc - 2, argv + 2);
    if (strcmp(argv[1], "contacts") == 0) return ikc_contacts(argc - 2, argv + 2);
    if (strcmp(argv[1], "clean") == 0) return ikc_clean(argc - 2, argv + 2);
    if (strcmp(argv[1], "walk") == 0) return ikc_walk(argc - 2, argv + 2);
    if (strcmp(argv[1], "retarget") == 0) return ikc_retarget(argc - 2, argv + 2);
    if (strcmp(argv[1], "fit") == 0) return ikc_fit(argc - 2, argv + 2);
    if (strcmp(argv[1], "batch") == 0) return ikc_batch(argc - 2, argv + 2);
    if (strcmp(argv[1], "ikbench") == 0) return ikc_ikbench(argc - 2, argv + 2);
    if (strcmp(argv[1], "path") == 0) return ikc_path(argc - 2, argv + 2);
    if (strcmp(argv[1], "check") == 0) return ikc_robot_check(argc - 2, argv + 2);
    fprintf(stderr, "ikc: unknown command '%s'\n", argv[1]);
    {
        static const char *const commands[] = {"info", "solve", "render",   "demo",    "contacts", "clean", "walk",
                                               "fit",  "batch", "retarget", "ikbench", "path",     "check"};
        ikc_suggest_name(stderr, commands, (int)(sizeof commands / sizeof commands[0]), argv[1], 2);
    }
    fprintf(stderr, "`ikc --help` lists the commands.\n");
    return IKC_EXIT_USAGE;
}

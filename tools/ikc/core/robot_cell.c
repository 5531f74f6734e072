/* ikc: robots in a cell (see robot_cell.h). */
#include "robot_cell.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ikc.h"

void ikc_cell_args_init(ikc_cell_args *args) {
    memset(args, 0, sizeof *args);
    args->margin = (ik_real)0.01;
}

int ikc_cell_option(const char *command, const char *a, const char *value, ikc_cell_args *args) {
    if (strcmp(a, "--scene") == 0) {
        args->scene = value;
    } else if (strcmp(a, "--srdf") == 0) {
        args->srdf = value;
    } else if (strcmp(a, "--package-path") == 0) {
        const char *eq = strchr(value, '=');
        if (!eq || eq == value || !eq[1]) {
            fprintf(stderr, "ikc %s: --package-path wants NAME=DIR, not '%s'\n", command, ikc_shown(value));
            return IKC_EXIT_USAGE;
        }
        if (args->package_count >= IKC_CELL_MAX_PACKAGES) {
            fprintf(stderr, "ikc %s: at most %d --package-path options\n", command, IKC_CELL_MAX_PACKAGES);
            return IKC_EXIT_USAGE;
        }
        args->packages[args->package_count++] = value;
    } else if (strcmp(a, "--margin") == 0) {
        if (!ikc_parse_real(value, &args->margin) || !(args->margin >= 0) || args->margin > 10) {
            fprintf(stderr, "ikc %s: --margin wants a distance in metres, 0 to 10, not '%s'\n", command,
                    ikc_shown(value));
            return IKC_EXIT_USAGE;
        }
    } else {
        return 0;
    }
    return IKC_ARG_TAKEN;
}

static int exit_for(ik_result r) {
    return r == IK_ERR_IO ? IKC_EXIT_NO_FILE
                          : (r == IK_ERR_NOT_FOUND ? IKC_EXIT_NOT_FOUND
                                                   : (r == IK_ERR_NO_MEMORY ? IKC_EXIT_FAILURE : IKC_EXIT_FORMAT));
}

int ikc_cell_load(const char *command, const ik_urdf *urdf, const ikc_arm_args *arm_args, const ikc_arm *arm,
                  const ikc_cell_args *args, ikc_cell *cell) {
    char dir[1024];
    const char *slash = strrchr(arm_args->path, '/');
    const char *base = arm_args->base ? arm_args->base : urdf->links[urdf->root_link].name;
    ik_mesh_paths paths;
    ik_error err;
    ik_result r;
    memset(cell, 0, sizeof *cell);
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - arm_args->path) : 1, slash ? arm_args->path : ".");
    if (slash == arm_args->path) snprintf(dir, sizeof dir, "/");
    paths.urdf_dir = dir;
    paths.packages = args->packages;
    paths.package_count = args->package_count;
    r = ik_urdf_collision_model(urdf, base, arm_args->tip, &paths, &cell->model, &cell->skipped_links, &err);
    if (r != IK_OK) {
        fprintf(stderr, "ikc %s: %s: %s\n", command, ikc_shown(arm_args->path),
                err.message[0] ? ikc_shown(err.message) : ik_result_str(r));
        return exit_for(r);
    }
    r = ik_robot_collision_prune(&cell->model, &arm->chain, NULL, 5000, 29,
                                 args->margin > (ik_real)0.02 ? args->margin : (ik_real)0.02);
    if (r != IK_OK) {
        fprintf(stderr, "ikc %s: %s: the collision model: %s\n", command, ikc_shown(arm_args->path), ik_result_str(r));
        return IKC_EXIT_FORMAT;
    }
    if (args->srdf) {
        r = ik_srdf_disable_collisions(args->srdf, &cell->model, &cell->srdf_disabled, &err);
        if (r != IK_OK) {
            fprintf(stderr, "ikc %s: %s: %s\n", command, ikc_shown(args->srdf),
                    err.message[0] ? ikc_shown(err.message) : ik_result_str(r));
            return exit_for(r);
        }
    }
    if (args->scene) {
        r = ik_scene_read_file(args->scene, urdf, base, &paths, &cell->scene, &err);
        if (r == IK_OK) r = ik_scene_allow_touching(cell->scene, &cell->model, &err);
        if (r != IK_OK) {
            fprintf(stderr, "ikc %s: %s: %s\n", command, ikc_shown(args->scene),
                    err.message[0] ? ikc_shown(err.message) : ik_result_str(r));
            return exit_for(r);
        }
    }
    return IKC_EXIT_OK;
}

void ikc_cell_free(ikc_cell *cell) {
    ik_scene_free(cell->scene);
    cell->scene = NULL;
}

void ikc_cell_pair_text(const ikc_cell *cell, const ik_collision_pair *pair, char *out, size_t size) {
    const char *a = pair->link >= 0 ? cell->model.link_names[pair->link] : "?";
    if (pair->other >= 0)
        snprintf(out, size, "%s - %s", ikc_shown(a), ikc_shown(cell->model.link_names[pair->other]));
    else if (cell->scene && -1 - pair->other < cell->scene->obstacle_count)
        snprintf(out, size, "%s - obstacle '%s'", ikc_shown(a), ikc_shown(cell->scene->names[-1 - pair->other]));
    else
        snprintf(out, size, "%s - obstacle %d", ikc_shown(a), -pair->other);
}

void ikc_cell_print_report(const ikc_cell *cell, const ik_robot_collision_report *report, ik_real margin) {
    char text[256];
    int k;
    if (report->closest.link < 0) {
        printf("no pairs tested (no obstacles, and every link pair left out)\n");
        return;
    }
    ikc_cell_pair_text(cell, &report->closest, text, sizeof text);
    printf("%s: clearance %.4f m (%s); margin %.4f m\n", report->free ? "free" : "IN CONTACT", report->clearance, text,
           (double)margin);
    if (report->contact_count > 0) {
        printf("contacts (pairs closer than the margin; negative: the bounding capsules overlap by that much):\n");
        for (k = 0; k < report->contact_count && k < IK_COLLISION_MAX_CONTACTS; ++k) {
            ikc_cell_pair_text(cell, &report->contacts[k], text, sizeof text);
            printf("  %-50s %9.4f m\n", text, report->contacts[k].distance);
        }
        if (report->contact_count > IK_COLLISION_MAX_CONTACTS)
            printf("  ... and %d more\n", report->contact_count - IK_COLLISION_MAX_CONTACTS);
    }
    printf("clearance of each link (to the obstacles and the links it is tested against):\n");
    for (k = 0; k < cell->model.link_count; ++k)
        if (report->link_clearance[k] < 1e29)
            printf("  %-28s %9.4f m\n", ikc_shown(cell->model.link_names[k]), report->link_clearance[k]);
        else
            printf("  %-28s       -    (nothing tested)\n", ikc_shown(cell->model.link_names[k]));
}

/* ikc: robots in a cell for `ikc solve ARM.urdf --scene` and `ikc check`:
 * the cell options (--scene, --margin, --srdf, --package-path), the
 * collision model (the URDF's collision geometry, pruned, the SRDF's pairs
 * disabled), the scene, and the printed contacts and clearances. */
#ifndef IKC_ROBOT_CELL_H
#define IKC_ROBOT_CELL_H

#include <ikit/robot_collision.h>
#include <ikit/urdf_collision.h>

#include "robot_arm.h"

#define IKC_CELL_MAX_PACKAGES 32

typedef struct ikc_cell_args {
    const char *scene, *srdf;
    const char *packages[IKC_CELL_MAX_PACKAGES]; /* "NAME=DIR" */
    int package_count;
    ik_real margin; /* default 0.01 */
} ikc_cell_args;

/* The options ikc_cell_option takes (for ikc_arm_arg's list of valued options). */
#define IKC_CELL_OPTIONS "--scene", "--margin", "--srdf", "--package-path"

void ikc_cell_args_init(ikc_cell_args *args);
/* Option `a` with `value`: IKC_ARG_TAKEN when it is a cell option (stored),
 * 0 when it is not, IKC_EXIT_USAGE after a message for a bad value. */
int ikc_cell_option(const char *command, const char *a, const char *value, ikc_cell_args *args);

typedef struct ikc_cell {
    ik_robot_collision_model model;
    ik_scene *scene; /* NULL without --scene */
    int srdf_disabled, skipped_links;
} ikc_cell;

/* The model of the arm's chain (URDF directory from its path), pruned with a
 * clearance of max(2 cm, margin) over 5000 samples, the SRDF's pairs
 * disabled, the scene read. Prints the reason and returns an IKC_EXIT_ code
 * on failure (a missing mesh: IKC_EXIT_NO_FILE naming link and mesh). */
int ikc_cell_load(const char *command, const ik_urdf *urdf, const ikc_arm_args *arm_args, const ikc_arm *arm,
                  const ikc_cell_args *args, ikc_cell *cell);
void ikc_cell_free(ikc_cell *cell);

/* Prints the report: free or not, the clearance and the closest pair, the
 * contacts (pairs closer than the margin), each link's clearance. */
void ikc_cell_print_report(const ikc_cell *cell, const ik_robot_collision_report *report, ik_real margin);
/* "link - obstacle 'table'" or "link - link" into out. */
void ikc_cell_pair_text(const ikc_cell *cell, const ik_collision_pair *pair, char *out, size_t size);

/* `ikc check ROBOT.urdf ...` (commands/robot_check.c). */
int ikc_robot_check(int argc, char **argv);

#endif

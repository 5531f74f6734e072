/* Straight-line tool paths (ik_robot_path, issue 29's goal: a 0.3 m line at
 * 1 mm steps in at most 5 ms). For the UR5, the Panda and the IRB 2400 of
 * the real-asset corpus: LINES lines of 0.3 m, each from a start near a
 * comfortable configuration (each joint moved by up to 0.2 rad, seeded) along
 * a random direction with the orientation kept (300 segments of 1 mm, 301
 * waypoints), and the same with the tool also turned 0.5 rad about a random
 * axis (still 300 segments: 0.5 rad at 0.01 rad a segment is 50). Each
 * line's path is timed R times (this thread's CPU time; BENCH_WALL_CLOCK for
 * wall time); the figures are the median and the slowest of the per-line
 * medians over the lines whose path is whole, and the median time per
 * waypoint. Lines that stop short (a limit, a singularity) are counted and
 * not timed: a short path is a quicker one. Then the same lines in each arm's
 * cell (tests/support/robot_cells.h: table, wall, post, shelf, ball), every
 * waypoint checked with a margin of 1 cm, from starts drawn inside the limits
 * until the cell allows one (ik_robot_collision_query_free as
 * config_ok; the cell's chain ends at its tool0 / panda_link8); lines
 * refused by it are counted as short too.
 *
 * usage: bench_robot_path [LINES (default 20)] [R repeats (default 5)]
 * Writes bench_robot_path.csv. */
#include "bench_util.h"

#include <math.h>

#include <ikit/robot.h>
#include <ikit/robot_path.h>
#include <ikit/urdf.h>

#include "support/rng.h"
#include "support/robot_cells.h"

#define MAX_LINES 200
#define MAX_REPEATS 15
#define LENGTH 0.3
#define WAYPOINTS 2000

typedef struct arm_case {
    const char *name, *file, *base, *tip;
    ik_real comfortable[7];
} arm_case;

static const arm_case arms[] = {
    {"UR5", "ur5_joint_limited_robot.urdf", "base_link", "ee_link", {0.3f, -1.2f, 1.4f, -1.8f, -1.4f, 0.2f}},
    {"Panda", "panda.urdf", "panda_link0", "panda_link8", {0.2f, 0.1f, 0.1f, -2.0f, 0.1f, 1.9f, 0.6f}},
    {"IRB 2400", "abb_irb2400.urdf", "base_link", "tool0", {0.3f, 0.2f, 0.2f, 0.3f, 0.8f, 0.1f}},
};

static double scratch[8192];
static ik_real q_path[WAYPOINTS * 8];

typedef struct figures {
    int lines, complete, segments;
    int stops[8]; /* lines stopped short, by ik_robot_path_stop */
    double median_ms, slowest_ms, us_per_waypoint;
} figures;

/* LINES lines on `chain`, turned by `turn` radians, each waypoint checked by
 * `query` when it is not NULL; the figures. */
static figures run_lines(const arm_case *arm, const ik_robot_chain *chain, ik_robot_collision_query *query, int lines,
                         int repeats, double turn, uint64_t seed) {
    rng r = rng_seeded(seed);
    uint64_t state = seed;
    ik_real lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS];
    ik_bool limited[IK_ROBOT_MAX_JOINTS];
    double per_line[MAX_LINES], per_waypoint[MAX_LINES], times[MAX_REPEATS];
    figures f;
    int i, k, v;
    memset(&f, 0, sizeof f);
    f.lines = lines;
    ik_robot_variable_limits(chain, lower, upper, limited, NULL);
    for (i = 0; i < lines; ++i) {
        ik_real start[7];
        ik_transform tip;
        ik_robot_path job = ik_robot_path_def();
        int count = 0, segments = 0;
        ik_robot_path_stop stop = IK_ROBOT_PATH_UNREACHED;
        for (v = 0; v < chain->variable_count; ++v) start[v] = arm->comfortable[v] + rng_range(&r, -0.2, 0.2);
        /* in a cell, a start the cell allows: random inside the limits until free */
        while (query && !ik_robot_collision_query_free(query, start, chain->variable_count))
            ik_robot_random_configuration(lower, upper, chain->variable_count, &state, start);
        ik_robot_fk(chain, start, &tip, NULL);
        job.chain = chain;
        job.q_start = start;
        job.goal_position_bs = ik_vec3_mad(tip.translation, rng_direction(&r), (ik_real)LENGTH);
        job.goal_rotation_bs =
            ik_quat_normalize(ik_quat_mul(ik_quat_from_axis_angle(rng_direction(&r), (ik_real)turn), tip.rotation));
        job.scratch = scratch;
        job.scratch_bytes = sizeof scratch;
        job.q_path = q_path;
        job.max_waypoints = WAYPOINTS;
        job.waypoint_count = &count;
        job.segments = &segments;
        job.stop = &stop;
        if (query) {
            job.config_ok = ik_robot_collision_query_free;
            job.config_user = query;
        }
        for (k = 0; k < repeats; ++k) {
            double t0 = bench_now();
            ik_robot_path_run(&job);
            times[k] = bench_now() - t0;
        }
        if (count > 0) bench_sink += (double)q_path[(size_t)(count - 1) * (size_t)chain->variable_count];
        if (stop != IK_ROBOT_PATH_COMPLETE) {
            ++f.stops[(int)stop & 7];
            continue;
        }
        f.segments = segments;
        per_line[f.complete] = bench_median(times, repeats) * 1e3;
        per_waypoint[f.complete] = per_line[f.complete] * 1e3 / count;
        ++f.complete;
    }
    if (f.complete > 0) {
        f.us_per_waypoint = bench_median(per_waypoint, f.complete);
        f.median_ms = bench_median(per_line, f.complete);
        f.slowest_ms = per_line[f.complete - 1];
    }
    return f;
}

int main(int argc, char **argv) {
    int lines = argc > 1 ? atoi(argv[1]) : 20, repeats = argc > 2 ? atoi(argv[2]) : 5;
    FILE *csv = fopen("bench_robot_path.csv", "w");
    size_t a;
    if (lines < 1 || lines > MAX_LINES) lines = 20;
    if (repeats < 1 || repeats > MAX_REPEATS) repeats = 5;
    if (csv) fprintf(csv, "arm,turn_rad,in_cell,lines,complete,segments,median_ms,slowest_ms,us_per_waypoint,scalar\n");
    printf("0.3 m lines at 1 mm steps (%d lines, %d repeats, %s build, %s time); goal: at most 5 ms a line\n", lines,
           repeats, BENCH_SCALAR,
#ifdef BENCH_WALL_CLOCK
           "wall"
#else
           "thread CPU"
#endif
    );
    for (a = 0; a < sizeof arms / sizeof arms[0]; ++a) {
        char path[1024];
        ik_urdf *u = NULL;
        ik_robot_chain chain;
        ik_error err;
        int t;
        bench_data_path(path, sizeof path, "urdf", arms[a].file);
        if (ik_urdf_read_file(path, &u, &err) != IK_OK ||
            ik_urdf_robot_chain(u, arms[a].base, arms[a].tip, &chain, NULL, &err) != IK_OK) {
            printf("%-9s skipped: %s (%s)\n", arms[a].name, path, err.message);
            ik_urdf_free(u);
            continue;
        }
        for (t = 0; t < 3; ++t) {
            const double turn = t == 1 ? 0.5 : 0;
            robot_cell cell;
            ik_robot_collision_query query;
            char why[800];
            figures f;
            if (t == 2) {
                if (!robot_cell_load(&cell, (int)a, why, sizeof why)) {
                    printf("%-9s in its cell: skipped: %s\n", arms[a].name, why);
                    continue;
                }
                query.model = &cell.model;
                query.chain = &cell.chain;
                query.obstacles = cell.obstacles;
                query.obstacle_count = cell.obstacle_count;
                query.margin = (ik_real)0.01;
            }
            f = run_lines(&arms[a], t == 2 ? &cell.chain : &chain, t == 2 ? &query : NULL, lines, repeats, turn,
                          29 + (uint64_t)a);
            printf(
                "%-9s turn %.1f rad%s: %2d of %2d lines whole (%d segments): median %.3f ms, slowest %.3f ms, "
                "%.2f us a waypoint; short: %d unreached, %d limit, %d jump, %d branch, %d in collision\n",
                arms[a].name, turn, t == 2 ? ", in its cell" : "", f.complete, f.lines, f.segments, f.median_ms,
                f.slowest_ms, f.us_per_waypoint, f.stops[IK_ROBOT_PATH_UNREACHED], f.stops[IK_ROBOT_PATH_LIMIT],
                f.stops[IK_ROBOT_PATH_JUMP], f.stops[IK_ROBOT_PATH_BRANCH],
                f.stops[IK_ROBOT_PATH_INVALID] + f.stops[IK_ROBOT_PATH_START_INVALID]);
            if (csv)
                fprintf(csv, "%s,%.1f,%d,%d,%d,%d,%.4f,%.4f,%.3f,%s\n", arms[a].name, turn, t == 2, f.lines, f.complete,
                        f.segments, f.median_ms, f.slowest_ms, f.us_per_waypoint, BENCH_SCALAR);
            if (t == 2) robot_cell_free(&cell);
        }
        ik_urdf_free(u);
    }
    if (csv) fclose(csv);
    return 0;
}

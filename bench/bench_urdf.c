/* URDF load time for the three real arms (UR5, Franka Panda, ABB IRB 2400),
 * file read and parse, and the cost of one forward kinematics evaluation of
 * each arm's chain. Medians over repeats; bench_urdf.csv. */
#include "bench_util.h"

#include <ikit/robot.h>
#include <ikit/urdf.h>

#define LOAD_REPEATS 51
#define FK_REPEATS 31
#define FK_PER_REPEAT 20000

int main(void) {
    static const char *const arms[3][3] = {{"ur5_joint_limited_robot.urdf", "base_link", "tool0"},
                                           {"panda.urdf", "panda_link0", "panda_link8"},
                                           {"abb_irb2400.urdf", "base_link", "tool0"}};
    FILE *csv = fopen("bench_urdf.csv", "w");
    int a, i, k;
    if (csv) fprintf(csv, "case,scalar,links,joints,repeats,median_ms\n");
    for (a = 0; a < 3; ++a) {
        char path[1024];
        double load[LOAD_REPEATS], fk[FK_REPEATS], load_ms, fk_us;
        ik_urdf *u = NULL;
        ik_error err;
        ik_robot_chain chain;
        ik_real q[IK_ROBOT_MAX_JOINTS] = {0};
        ik_transform tip;
        bench_data_path(path, sizeof path, "urdf", arms[a][0]);
        for (i = 0; i < LOAD_REPEATS; ++i) {
            double t0 = bench_now();
            if (ik_urdf_read_file(path, &u, &err) != IK_OK) {
                printf("skipped: cannot load %s: %s\n", path, err.message);
                return 0;
            }
            load[i] = bench_now() - t0;
            if (i + 1 < LOAD_REPEATS) ik_urdf_free(u);
        }
        if (ik_urdf_robot_chain(u, arms[a][1], arms[a][2], &chain, NULL, &err) != IK_OK) {
            printf("%s: %s\n", arms[a][0], err.message);
            return 1;
        }
        for (i = 0; i < FK_REPEATS; ++i) {
            double t0 = bench_now();
            for (k = 0; k < FK_PER_REPEAT; ++k) {
                q[k % chain.variable_count] = (ik_real)(k % 100) * (ik_real)0.01;
                ik_robot_fk(&chain, q, &tip, NULL);
                bench_sink += (double)tip.translation.x;
            }
            fk[i] = (bench_now() - t0) / FK_PER_REPEAT;
        }
        load_ms = bench_median(load, LOAD_REPEATS) * 1e3;
        fk_us = bench_median(fk, FK_REPEATS) * 1e6;
        printf("urdf load %-30s %2d links, %2d joints: median %.3f ms over %d loads; fk %s..%s (%d joints): %.3f us\n",
               arms[a][0], u->link_count, u->joint_count, load_ms, LOAD_REPEATS, arms[a][1], arms[a][2],
               chain.joint_count, fk_us);
        if (csv) {
            fprintf(csv, "load_%s,%s,%d,%d,%d,%.4f\n", arms[a][0], BENCH_SCALAR, u->link_count, u->joint_count,
                    LOAD_REPEATS, load_ms);
            fprintf(csv, "fk_%s,%s,%d,%d,%d,%.6f\n", arms[a][0], BENCH_SCALAR, u->link_count, chain.joint_count,
                    FK_REPEATS, fk_us * 1e-3);
        }
        ik_urdf_free(u);
    }
    if (csv) fclose(csv);
    printf("(checksum %.3f)\n", bench_sink);
    return 0;
}

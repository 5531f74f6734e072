/* The Y and double-Y trees that the chain and the Jacobian benchmarks both
 * track moving targets on (Buss & Kim 2005's figures), and the targets'
 * paths, so that their figures compare. */
#ifndef IKIT_BENCH_TREES_H
#define IKIT_BENCH_TREES_H

#include <ikit/math.h>
#include <math.h>

/* Joints in the larger (double-Y) tree. */
#define BENCH_TREE_MAX_JOINTS 17

/* Y: a trunk of 3 bones and two arms of 4 bones from the trunk's top.
 * Double Y: each arm splits again after 2 bones into two 2-bone fingers.
 * Bones are 1 long along +y; a bone with a sibling starts 0.4 to the side
 * (0.9 up). Fills parents, rest_ls and leaf (1 for a joint with no child);
 * returns the joint count. */
static inline int bench_tree(int double_y, int *parents, ik_transform *rest_ls, int *leaf) {
    static const int y[] = {-1, 0, 1, 2, 3, 4, 5, 6, 3, 8, 9, 10};
    static const int yy[] = {-1, 0, 1, 2, 3, 4, 5, 6, 5, 8, 3, 10, 11, 12, 13, 12, 15};
    const int *tree = double_y ? yy : y;
    int i, k, n = double_y ? 17 : 12;
    for (i = 0; i < n; ++i) {
        int siblings = 0, before = 0;
        leaf[i] = 1;
        for (k = 1; k < n; ++k) {
            siblings += tree[k] == tree[i];
            before += k < i && tree[k] == tree[i];
            leaf[i] = leaf[i] && tree[k] != i;
        }
        parents[i] = tree[i];
        rest_ls[i] = ik_transform_make(i == 0         ? ik_vec3_zero()
                                       : siblings > 1 ? ik_v3(before ? (ik_real)-0.4 : (ik_real)0.4, (ik_real)0.9, 0)
                                                      : ik_v3(0, 1, 0),
                                       ik_quat_identity(), ik_v3(1, 1, 1));
    }
    return n;
}

/* Effector k's target at time t: its rest position plus a smooth periodic
 * offset, a different curve per effector. */
static inline ik_vec3 bench_tracking_target(ik_vec3 rest_ms, double t, int k) {
    return ik_vec3_add(rest_ms, ik_v3((ik_real)(1.5 * sin(t * (1 + 0.3 * k))), (ik_real)(-1.0 + 0.8 * cos(t * 0.7 + k)),
                                      (ik_real)(1.2 * sin(t * 0.5 + 2 * k))));
}

#endif

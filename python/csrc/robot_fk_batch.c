/* The Python package's batch robot forward kinematics (robot_fk_batch.h). */
#include "robot_fk_batch.h"

#include <stddef.h>

int ikpy_robot_fk_batch(const ik_robot_chain *chain, int count, const ik_real *q, ik_transform *tip_bs,
                        ik_result *failure) {
    size_t stride = (size_t)chain->variable_count;
    int i;
    *failure = IK_OK;
    for (i = 0; i < count; ++i) {
        ik_result r = ik_robot_fk(chain, q + (size_t)i * stride, &tip_bs[i], NULL);
        if (r != IK_OK) {
            *failure = r;
            return i;
        }
    }
    return -1;
}

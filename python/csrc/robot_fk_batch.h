/* The Python package's batch robot forward kinematics: one ik_robot_fk per
 * configuration over an array, so many arm poses cost one call from Python. */
#ifndef IKPY_ROBOT_FK_BATCH_H
#define IKPY_ROBOT_FK_BATCH_H

#include <ikit/robot.h>

/* tip_bs[i] = the tip's frame at configuration q[i * variable_count ...]
 * for i < count. Stops at the first configuration ik_robot_fk refuses:
 * returns its index with the code in *failure (tip_bs[i] and after are
 * untouched); returns -1 when every configuration was done. */
int ikpy_robot_fk_batch(const ik_robot_chain *chain, int count, const ik_real *q, ik_transform *tip_bs,
                        ik_result *failure);

#endif

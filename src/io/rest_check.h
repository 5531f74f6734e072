/* ikit io, private: the check every reader makes of a skeleton's rest pose.
 * Not installed. */
#ifndef IKIT_IO_REST_CHECK_H
#define IKIT_IO_REST_CHECK_H

#include <ikit/math.h>
#include <ikit/skeleton.h>

/* Each rest transform may fit ik_real while their product down a chain does
 * not: the first joint (parents-first order) whose model-space rest
 * transform, root_ms (NULL: identity) times the locals down to it, is not
 * finite; -1 when all are finite, -2 when out of memory. */
int ik_io_rest_overflow(const ik_skeleton *skeleton, const ik_mat4 *root_ms);

#endif

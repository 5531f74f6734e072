/* ikit: inverse kinematics for skeletons. Include this for everything. */
#ifndef IKIT_IKIT_H
#define IKIT_IKIT_H

#include <ikit/result.h>
#include <ikit/math.h>
#include <ikit/skeleton.h>

#endif

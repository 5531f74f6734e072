/* ikit: inverse kinematics for skeletons. Include this for the core library
 * (math, skeletons, clips, solvers); the file readers are in <ikit/bvh.h>,
 * <ikit/gltf.h> and <ikit/chain_file.h>. */
#ifndef IKIT_IKIT_H
#define IKIT_IKIT_H

#include <ikit/result.h>
#include <ikit/math.h>
#include <ikit/skeleton.h>
#include <ikit/skeleton_fk_batch.h>
#include <ikit/clip.h>
#include <ikit/constraint.h>
#include <ikit/two_bone.h>
#include <ikit/two_bone_batch.h>
#include <ikit/aim.h>
#include <ikit/aim_batch.h>
#include <ikit/chain_base.h>
#include <ikit/ccd.h>
#include <ikit/fabrik.h>
#include <ikit/jacobian.h>
#include <ikit/look_at_chain.h>
#include <ikit/ls_step.h>
#include <ikit/spring.h>
#include <ikit/planar_chain.h>

#endif

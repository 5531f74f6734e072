/* ikit io: a chain file's joints as solver inputs. The file keeps its
 * limits, comfort ranges and stiffness as degrees and plain numbers
 * (chain_file.h); these turn them into constraints, Jacobian joints and
 * springs, so every caller binds a chain file the same way. */
#ifndef IKIT_CHAIN_FILE_SOLVE_H
#define IKIT_CHAIN_FILE_SOLVE_H

#include <ikit/chain_file.h>
#include <ikit/constraint.h>
#include <ikit/jacobian.h>
#include <ikit/spring.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Joint `joint`'s limits about the rest pose (identity rotation): a hinge
 * about its axis within its limit range, a ball as a cone of cone_deg about
 * its twist axis with the twist range, a fixed joint as a hinge locked at 0. */
ik_constraint ik_chain_file_constraint(const ik_chain_file *chain, int joint);

/* Every joint's constraint, into `constraints` [chain->joint_count]. */
void ik_chain_file_constraints(const ik_chain_file *chain, ik_constraint *constraints);

/* The joints of `joints` [count] (skeleton indices into the chain file)
 * that turn, as Jacobian joints in `out`: a hinge about its axis, a ball
 * about x, y and z; fixed joints are left out. For each joint written,
 * `limits` (may be NULL) gets its constraint, and `springs` (may be NULL;
 * one per axis, so room for 3 * count) gets a hinge's pull toward its
 * comfort range with the file's stiffness, clamped to its limits (seed 002's
 * springs), or no spring on each of a ball's axes. Returns how many joints
 * were written (at most `count`); out-of-range indices are left out too. */
int ik_chain_file_jacobian_joints(const ik_chain_file *chain, const int *joints, int count, ik_jacobian_joint *out,
                                  ik_constraint *limits, ik_spring *springs);

#ifdef __cplusplus
}
#endif
#endif

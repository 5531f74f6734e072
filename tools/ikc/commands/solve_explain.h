/* Plain words for what went wrong with one `ikc solve` target: which joints
 * made the geometry degenerate, why a target inside the chain's reach was
 * not reached. */
#ifndef IKC_SOLVE_EXPLAIN_H
#define IKC_SOLVE_EXPLAIN_H

#include <stddef.h>

#include <ikit/skeleton.h>

/* After IK_ERR_DEGENERATE: the first of the chain's joints whose frame is
 * singular (a zero scale), else its first bone of zero length, by name,
 * into `out` [size] ("joint 'LowerLeg.L' has a zero scale ..."); else the
 * chain itself. */
void ikc_explain_degenerate(const ik_skeleton *skeleton, const ik_mat4 *model_ms, const int *chain, int count,
                            char *out, size_t size);

/* A target not reached though within the chain's reach (the sum of its
 * bones): a single bone only turns; the target nearer the chain's first
 * joint than the chain can fold (a zero-length bone or a long one); a
 * middle joint's bend limit `max_bend` (radians; 0: none) keeping the end
 * away; else limits or iterations. Into `out` [size]. */
void ikc_explain_short(const ik_skeleton *skeleton, const ik_mat4 *model_ms, const int *chain, int count,
                       ik_vec3 target, ik_real max_bend, char *out, size_t size);

#endif

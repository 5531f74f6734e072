/* The side of bench_chain that runs TheComet's ik library (github.com/
 * TheComet/ik; thecomet_peer.c, built only when CMake is given
 * -DIKIT_THECOMET_DIR, the path to its source, whose static library ik.a
 * was built in IKIT_THECOMET_BUILD_DIR). Its code stays outside this
 * repository: only this wrapper, which builds a chain of its nodes and runs
 * its FABRIK solver, is ours. Plain C types. */
#ifndef IKIT_BENCH_THECOMET_PEER_H
#define IKIT_BENCH_THECOMET_PEER_H

typedef struct thecomet_chain thecomet_chain;

/* A chain of `bones` bones of `bone_length` along +y, its FABRIK solver at
 * the library's defaults (20 iterations, tolerance 1e-3, joint rotations
 * computed), one effector on the last node; NULL when it cannot be made. */
thecomet_chain *thecomet_chain_new(int bones, double bone_length);
void thecomet_chain_free(thecomet_chain *c);

/* Reset the chain to its straight rest pose and solve toward the target. */
void thecomet_chain_solve(thecomet_chain *c, double x, double y, double z);

/* Where the chain's end is after a solve: the nodes' local positions and
 * rotations composed from the root. */
void thecomet_chain_end(const thecomet_chain *c, double end[3]);

/* The library's precision ("float" or "double") and iteration cap. */
const char *thecomet_precision(void);
int thecomet_max_iterations(const thecomet_chain *c);

#endif

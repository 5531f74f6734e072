/* Batch aim on eight AVX lanes: aim_batch_lanes.h compiled for AVX (see
 * batch_wide.h); ik_aim_batch_run calls it where the processor has AVX. */
#include "batch_wide.h"

#if IKIT_BATCH_WIDE
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx"))), apply_to = function)
#else
#pragma GCC target("avx")
#endif
#define IKIT_LANES_WIDE 1
#include "aim_batch_lanes.h"

ik_result ik_aim_batch_run_wide(const ik_aim_batch *job) { return aim_lanes_run(job); }
#if defined(__clang__)
#pragma clang attribute pop
#endif
#else
/* ISO C wants a declaration in every file. */
typedef int ik_aim_batch_wide_absent;
#endif

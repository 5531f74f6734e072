/* The batch jobs' eight-lane AVX kernels, private to the library: built
 * in the float build on x86-64 with GCC or Clang (the files are compiled
 * for AVX by a target pragma, so no -m flag is needed and SSE2 stays the
 * baseline), and called only when the processor (and the operating
 * system) support AVX. Elsewhere IKIT_BATCH_WIDE is 0 and the batch jobs
 * run their four-lane kernels. */
#ifndef IKIT_BATCH_WIDE_H
#define IKIT_BATCH_WIDE_H

#include <ikit/aim_batch.h>
#include <ikit/two_bone_batch.h>

#if !defined(IKIT_DOUBLE) && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define IKIT_BATCH_WIDE 1
#else
#define IKIT_BATCH_WIDE 0
#endif

#if IKIT_BATCH_WIDE
/* 1 where this processor runs AVX code (libgcc's CPUID and XGETBV check). */
static inline int ik_batch_wide_usable(void) { return __builtin_cpu_supports("avx"); }
/* How many of a batch's `count` items the eight-lane kernel takes: the
 * whole groups of eight, and a last part group of five to seven (its lanes
 * past the end repeat the last item and are not stored). A last one to
 * four items go to one group of four lanes instead, which costs about
 * three quarters of a group of eight (bench_batch, Release: two-bone 115
 * vs 155 ns a group, aim 68 vs 86). */
static inline int ik_batch_wide_count(int count) {
    int rest = count % 8;
    return rest > 4 ? count : count - rest;
}
/* The jobs' runs on eight lanes, for validated jobs. */
ik_result ik_two_bone_batch_run_wide(const ik_two_bone_batch *job);
ik_result ik_aim_batch_run_wide(const ik_aim_batch *job);
#endif

#endif

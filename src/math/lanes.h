/* IK_LANES reals side by side, one batch item (a limb, a joint) per lane:
 * the batch kernels' width-neutral vocabulary, private to the library.
 * `lanes` is four lanes (simd4.h: SSE2 in the float build on x86, scalar
 * elsewhere) or, where IKIT_LANES_WIDE is defined, eight AVX lanes
 * (simd8_avx.h), so one kernel source compiles for either width. Every
 * operation is the underlying one of that width, lane by lane; masks are
 * the results of the comparisons (see simd4.h). */
#ifndef IKIT_LANES_H
#define IKIT_LANES_H

#ifdef IKIT_LANES_WIDE
#include "simd8_avx.h"
#define IK_LANES 8
#define LANES_OP(name) simd8_##name
typedef simd8 lanes;
#else
#include "simd4.h"
#define IK_LANES 4
#define LANES_OP(name) simd4_##name
typedef simd4 lanes;
#endif

/* Every lane's bit of lanes_mask_bits. */
#define IK_LANES_ALL ((1 << IK_LANES) - 1)

static inline lanes lanes_splat(ik_real s) { return LANES_OP(splat)(s); }
/* IK_LANES consecutive reals, no alignment needed. */
static inline lanes lanes_load(const ik_real *p) { return LANES_OP(load)(p); }
static inline void lanes_store(ik_real *p, lanes a) { LANES_OP(store)(p, a); }
static inline lanes lanes_add(lanes a, lanes b) { return LANES_OP(add)(a, b); }
static inline lanes lanes_sub(lanes a, lanes b) { return LANES_OP(sub)(a, b); }
static inline lanes lanes_mul(lanes a, lanes b) { return LANES_OP(mul)(a, b); }
static inline lanes lanes_div(lanes a, lanes b) { return LANES_OP(div)(a, b); }
static inline lanes lanes_sqrt(lanes a) { return LANES_OP(sqrt)(a); }
/* 1 / sqrt(a) for a > 0 (simd4_rsqrt: an estimate and one Newton step). */
static inline lanes lanes_rsqrt(lanes a) { return LANES_OP(rsqrt)(a); }
static inline lanes lanes_abs(lanes a) { return LANES_OP(abs)(a); }
/* As maxps/minps: b unless a > b (a < b), so b where either is NaN. */
static inline lanes lanes_max(lanes a, lanes b) { return LANES_OP(max)(a, b); }
static inline lanes lanes_min(lanes a, lanes b) { return LANES_OP(min)(a, b); }
/* Ordered comparisons: false where either side is NaN. */
static inline lanes lanes_gt(lanes a, lanes b) { return LANES_OP(gt)(a, b); }
static inline lanes lanes_ge(lanes a, lanes b) { return LANES_OP(ge)(a, b); }
static inline lanes lanes_le(lanes a, lanes b) { return LANES_OP(le)(a, b); }
static inline lanes lanes_and(lanes a, lanes b) { return LANES_OP(and)(a, b); }
static inline lanes lanes_or(lanes a, lanes b) { return LANES_OP(or)(a, b); }
/* a in the lanes where `mask` holds, b elsewhere. */
static inline lanes lanes_select(lanes mask, lanes a, lanes b) { return LANES_OP(select)(mask, a, b); }
/* Bit i set when the mask holds in lane i. */
static inline int lanes_mask_bits(lanes mask) { return LANES_OP(mask_bits)(mask); }
/* |a| with the sign of b, per lane. */
static inline lanes lanes_copysign(lanes a, lanes b) { return LANES_OP(copysign)(a, b); }

#endif

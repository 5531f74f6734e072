/* ikit math, private: splitmix64 (Steele, Lea and Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014), the seeded generator behind
 * restarts and random configurations: the same state gives the same numbers
 * on every platform. Not installed. */
#ifndef IKIT_MATH_SPLITMIX_H
#define IKIT_MATH_SPLITMIX_H

#include <stdint.h>

/* z = state += golden gamma, then two xor-shift-multiply rounds and a final
 * xor-shift; the top 53 bits over 2^53 give a uniform double in [0, 1). */
static inline double ik_splitmix_unit(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

#endif

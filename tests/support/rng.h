/* Seeded pseudo-random numbers for tests and benchmarks (splitmix64), so
 * every run sees the same cases. */
#ifndef IKIT_TEST_RNG_H
#define IKIT_TEST_RNG_H

#include <ikit/math.h>
#include <stdint.h>

typedef struct rng {
    uint64_t state;
} rng;

static inline rng rng_seeded(uint64_t seed) {
    rng r;
    r.state = seed;
    return r;
}

static inline uint64_t rng_next(rng *r) {
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static inline double rng_unit(rng *r) { return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0); }
static inline ik_real rng_range(rng *r, double lo, double hi) { return (ik_real)(lo + (hi - lo) * rng_unit(r)); }

/* Uniform on the unit sphere (Marsaglia's rejection in the cube). */
static inline ik_vec3 rng_direction(rng *r) {
    for (;;) {
        double x = 2 * rng_unit(r) - 1, y = 2 * rng_unit(r) - 1, z = 2 * rng_unit(r) - 1;
        double d = x * x + y * y + z * z;
        if (d > 1e-4 && d <= 1) {
            double s = 1 / sqrt(d);
            return ik_v3((ik_real)(x * s), (ik_real)(y * s), (ik_real)(z * s));
        }
    }
}

/* Uniform in the ball of the given radius. */
static inline ik_vec3 rng_in_ball(rng *r, double radius) {
    double k = radius * cbrt(rng_unit(r));
    return ik_vec3_scale(rng_direction(r), (ik_real)k);
}

/* Uniform random rotation (Shoemake's method). */
static inline ik_quat rng_rotation(rng *r) {
    double u1 = rng_unit(r), u2 = 2 * 3.14159265358979323846 * rng_unit(r),
           u3 = 2 * 3.14159265358979323846 * rng_unit(r);
    double a = sqrt(1 - u1), b = sqrt(u1);
    return ik_quat_normalize(
        ik_q((ik_real)(a * sin(u2)), (ik_real)(a * cos(u2)), (ik_real)(b * sin(u3)), (ik_real)(b * cos(u3))));
}

#endif

/* Scripted playground cases, run through the same ikw_ calls the page
 * makes, so one program times them in wasm (tests/js/bench_wasm.mjs, in
 * node and in Chromium) and natively (bench/bench_web.c) on identical
 * inputs. Each case is `frames` frames of a target moving on a circle, one
 * warm-started solve per frame, as the page does while the user drags:
 *   tail DLS / CCD / FABRIK: the loaded chain (the tail) chasing its cube on
 *     a circle of radius 0.4 about the file's target, 0.05 rad a frame;
 *   planar FABRIK: six bones (1 1 1 0.8 0.6 0.4), the tip on a circle of
 *     radius 1 about (2, 0.5), 0.05 rad a frame;
 *   humanoid: both hands on circles of radius 0.15 in front of the chest,
 *     the feet at rest on a 10 degree slope.
 * Returns the sum of the final errors (a check that the work was done). */
#include <math.h>
#include <stddef.h>

#include <ikit/planar_chain.h>

#include "ikit_web.h"

enum { SLOT = 0 };

IKW_EXPORT(ikw_bench_name) const char *ikw_bench_name(int which) {
    static const char *const names[IKW_BENCH_CASES] = {"tail DLS+springs", "tail CCD", "tail FABRIK",
                                                       "planar FABRIK (6 bones)", "humanoid (4 limbs, slope)"};
    return which >= 0 && which < IKW_BENCH_CASES ? names[which] : "";
}

static float tail_case(int method, int frames) {
    const float *c = ikw_chain_file_target();
    int f;
    if (!c) return -1;
    ikw_chain_reset(SLOT);
    for (f = 0; f < frames; ++f) {
        float a = 0.05f * (float)f;
        if (ikw_chain_solve(SLOT, method, c[0] + 0.4f * cosf(a) - 0.4f, c[1] + 0.4f * sinf(a), c[2], 0, 1) != 0)
            return -1;
    }
    return ikw_chain_error(SLOT);
}

static float planar_case(int frames) {
    static const float lengths[6] = {1, 1, 1, 0.8f, 0.6f, 0.4f};
    ik_real *l = ikw_planar_lengths(), *angles = ikw_planar_angles();
    int f, i;
    for (i = 0; i < 6; ++i) {
        l[i] = lengths[i];
        angles[i] = i == 0 ? 0.3f : -0.15f;
    }
    for (f = 0; f < frames; ++f) {
        float a = 0.05f * (float)f;
        if (ikw_planar_solve(6, 6, IK_PLANAR_CHAIN_FABRIK, 0, 0, 2 + cosf(a), 0.5f + sinf(a), 50, 1) != 0) return -1;
    }
    return ikw_planar_error();
}

static float humanoid_case(int frames) {
    const float *rest;
    float hand[2][3];
    int f, side, k;
    if (ikw_body_init(1.8f) != 0) return -1;
    rest = ikw_body_positions();
    for (side = 0; side < 2; ++side)
        for (k = 0; k < 3; ++k) hand[side][k] = rest[3 * ikw_body_limb_end(side) + k];
    ikw_body_ground(1, 10); /* a 10 degree slope */
    for (side = 2; side < 4; ++side) {
        const float *p = &rest[3 * ikw_body_limb_end(side)];
        ikw_body_goal(side, 1, p[0], p[1], p[2]);
    }
    for (f = 0; f < frames; ++f) {
        float a = 0.05f * (float)f;
        for (side = 0; side < 2; ++side)
            ikw_body_goal(side, 1, hand[side][0] * 0.6f + 0.15f * cosf(a), 1.2f + 0.15f * sinf(a), 0.35f);
        if (ikw_body_solve(1) != 0) return -1;
    }
    return ikw_body_residual(0) + ikw_body_residual(1) + ikw_body_residual(2) + ikw_body_residual(3);
}

IKW_EXPORT(ikw_bench_case) float ikw_bench_case(int which, int frames) {
    switch (which) {
    case IKW_BENCH_TAIL_DLS: return tail_case(IKW_DLS_SPRINGS, frames);
    case IKW_BENCH_TAIL_CCD: return tail_case(IKW_CCD, frames);
    case IKW_BENCH_TAIL_FABRIK: return tail_case(IKW_FABRIK, frames);
    case IKW_BENCH_PLANAR_FABRIK: return planar_case(frames);
    case IKW_BENCH_HUMANOID: return humanoid_case(frames);
    default: return -1;
    }
}

/* What the key fitter (key_fit.c) and its comparison (key_decimate.c)
 * share: a take as scalar curves, the model-space points the error is
 * measured at, the least-squares Hermite segment, and the job's checks.
 * Private to the motion layer. */
#ifndef IKIT_MOTION_KEY_CURVES_H
#define IKIT_MOTION_KEY_CURVES_H

#include <ikit/key_fit.h>

/* Points per joint the error is measured at: its origin and the points at
 * distance r along its local x, y and z axes. */
#define IK_KEY_POINTS 4
/* Scalar curves per joint: translation x y z, rotation x y z w, scale x y z. */
#define IK_KEY_CURVES 10

/* Curve k (0..9 as above) of joint j as the channel it belongs to. */
static inline ik_channel_path ik_key_curve_path(int k) {
    return k < 3 ? IK_CHANNEL_TRANSLATION : k < 7 ? IK_CHANNEL_ROTATION : IK_CHANNEL_SCALE;
}
/* The first curve of a channel path. */
static inline int ik_key_path_curve(ik_channel_path path) {
    return path == IK_CHANNEL_TRANSLATION ? 0 : path == IK_CHANNEL_ROTATION ? 3 : 7;
}

/* curves[(j * IK_KEY_CURVES + k) * frames + f]: the take's values, each
 * rotation turned to the hemisphere of the frame before (q and -q are one
 * rotation; interpolating across the flip would sweep the long way). */
void ik_key_curves_extract(const ik_take *take, ik_real *curves);

/* Which of joint j's channels carry motion: bit p set (p an ik_channel_path)
 * when the channel changes over the take, or, for scale, when it is not 1
 * somewhere (such a channel is written; a constant one gets two keys). */
unsigned ik_key_channels_varying(const ik_real *curves, int frames, int joint);
ik_bool ik_key_scale_written(const ik_real *curves, int frames, int joint);

/* Point p of a joint in its own frame: the origin, then r along x, y, z. */
static inline ik_vec3 ik_key_point_ls(int p, ik_real offset) {
    return ik_v3(p == 1 ? offset : 0, p == 2 ? offset : 0, p == 3 ? offset : 0);
}

/* Model-space points [joint_count * IK_KEY_POINTS] of a pose's matrices. */
void ik_key_points_ms(const ik_mat4 *model_ms, int joint_count, ik_real offset, ik_vec3 *points);
/* The largest distance between joint j's points and `want` [IK_KEY_POINTS]. */
ik_real ik_key_joint_error(const ik_mat4 *model_ms, int joint, ik_real offset, const ik_vec3 *want, int *worst_point);

/* Least-squares Hermite tangents of the segment from frame a to frame b of
 * the curve y (a < b): with u = (f - a) / (b - a), the basis
 *   h00 = 2u^3 - 3u^2 + 1, h10 = u^3 - 2u^2 + u, h01 = -2u^3 + 3u^2, h11 = u^3 - u^2,
 * and the ends fixed at y[a], y[b], x0 and x1 (the tangents times the
 * segment's duration) minimise
 *   sum_f (h00 y_a + h10 x0 + h01 y_b + h11 x1 - y_f)^2 + lambda ((x0 - c)^2 + (x1 - c)^2)
 * over the frames strictly between, c = y_b - y_a the chord: the small ridge
 * lambda picks the straight line when fewer than two frames lie between. */
typedef struct ik_key_basis_sums {
    ik_real s11, s12, s22, lambda;
} ik_key_basis_sums;
ik_key_basis_sums ik_key_basis_sums_of(int span);
void ik_key_segment_fit(const ik_key_basis_sums *sums, const ik_real *y, int a, int b, ik_real *x0, ik_real *x1);
/* The Hermite value at u with the ends and tangents above. */
static inline ik_real ik_key_hermite(ik_real ya, ik_real yb, ik_real x0, ik_real x1, ik_real u) {
    ik_real u2 = u * u, u3 = u2 * u;
    return (2 * u3 - 3 * u2 + 1) * ya + (u3 - 2 * u2 + u) * x0 + (-2 * u3 + 3 * u2) * yb + (u3 - u2) * x1;
}

/* The checks of ik_key_fit_run / ik_key_decimate_run (see key_fit.h) with
 * `scratch_needed` bytes of scratch. */
ik_result ik_key_fit_validate(const ik_key_fit *job, size_t scratch_needed);

/* The model-space points of every frame of the take [frames * joints * IK_KEY_POINTS],
 * using `model_ms` [joint_count] as room for the forward kinematics. */
void ik_key_take_points(const ik_key_fit *job, ik_mat4 *model_ms, ik_vec3 *points);

/* Carving caller scratch: `bytes` rounded up to a multiple of 8 (every
 * block stays aligned for ik_real and pointers), and the next such block. */
static inline size_t ik_key_round(size_t bytes) { return (bytes + 7) / 8 * 8; }
static inline void *ik_key_carve(unsigned char **at, size_t bytes) {
    void *p = *at;
    *at += ik_key_round(bytes);
    return p;
}

#endif

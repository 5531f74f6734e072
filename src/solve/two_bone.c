/* Two-bone IK: seed 000's closed-form solution, with seed 001's hinge limits.
 *
 * The solve works in model space in three turns, then expresses them in the
 * joints' local frames:
 *   1. bend: turn the lower bone about the middle joint's hinge axis until the
 *      start-to-end distance is the distance wanted;
 *   2. swing: the minimum rotation about the start joint taking the end onto
 *      the start-to-target line;
 *   3. twist: turn about that line so the knee lands on the point of its
 *      circle closest to the current knee (or in the pole's half-plane).
 * After the swing the knee already lies on the circle where the spheres
 * |x - a| = l1 and |x - t| = l2 meet (seed 000), so the twist alone picks the
 * point of that circle; the knee moves as little as possible.
 */
#include <ikit/two_bone.h>

#include <stddef.h>

#include "../math/simd4.h"
#include "rotation_product.h"
#include "two_bone_sizes.h"

/* Kept out of the solve's own code, which it would only crowd: the cold
 * functions, and the branches to them (UNLIKELY), laid out apart from the
 * straight path of a usual solve. */
#if defined(__GNUC__) || defined(__clang__)
#define RARE_PATH __attribute__((noinline, cold))
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define NOINLINE __attribute__((noinline))
#else
#define RARE_PATH
#define NOINLINE
#define UNLIKELY(x) (x)
#endif

ik_two_bone ik_two_bone_def(void) {
    ik_two_bone job;
    job.start_ms = job.mid_ms = job.end_ms = NULL;
    job.target_ms = ik_vec3_zero();
    job.use_pole = 0;
    job.pole_ms = ik_vec3_zero();
    job.use_hinge = 0;
    job.hinge_axis_ls = ik_v3(1, 0, 0);
    job.min_bend = 0;
    job.max_bend = ik_rad(133);
    job.soften = 0;
    job.twist = 0;
    job.weight = 1;
    job.keep_end_rotation = 0;
    job.reach_tolerance = (ik_real)1e-3;
    job.start_rotation_ls = job.mid_rotation_ls = job.end_rotation_ls = NULL;
    job.reached = NULL;
    job.residual = NULL;
    job.defaulted = IK_JOB_DEFAULTED;
    return job;
}

void ik_two_bone_bind(ik_two_bone *job, const ik_mat4 *model_ms, ik_transform *pose_ls, int start, int mid, int end) {
    job->start_ms = &model_ms[start];
    job->mid_ms = &model_ms[mid];
    job->end_ms = &model_ms[end];
    job->start_rotation_ls = &pose_ls[start].rotation;
    job->mid_rotation_ls = &pose_ls[mid].rotation;
    job->end_rotation_ls = &pose_ls[end].rotation;
}

/* x * 0 is 0 for every finite x and NaN otherwise, so one sum tells whether
 * a block of numbers is finite. Four lanes keep the additions independent
 * (and let the compiler use vector instructions). */
static ik_real finite_probe(const ik_real *v, int count) {
    ik_real s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int i = 0;
    for (; i + 4 <= count; i += 4) {
        s0 += v[i] * 0;
        s1 += v[i + 1] * 0;
        s2 += v[i + 2] * 0;
        s3 += v[i + 3] * 0;
    }
    for (; i < count; ++i) s0 += v[i] * 0;
    return (s0 + s1) + (s2 + s3);
}

/* Pointers, ranges, and the finiteness of the options and the pole. The
 * matrices, the target and the input rotations are not scanned up front:
 * any NaN or infinity there reaches a bone length, the target distance, a
 * joint frame or an output rotation, which the solve checks; only then does
 * inputs_finite() tell a non-finite input from a degenerate one. */
static ik_result validate(const ik_two_bone *job) {
    ik_real probe;
    if (!job) return IK_ERR_NULL;
    if (job->defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    if (!job->start_ms || !job->mid_ms || !job->end_ms || !job->start_rotation_ls || !job->mid_rotation_ls ||
        (job->keep_end_rotation && !job->end_rotation_ls))
        return IK_ERR_NULL;
    probe = (job->soften + job->twist + job->weight + job->reach_tolerance) * 0;
    if (job->use_pole) probe += (job->pole_ms.x + job->pole_ms.y + job->pole_ms.z) * 0;
    if (job->use_hinge) probe += finite_probe(&job->hinge_axis_ls.x, 3) + (job->min_bend + job->max_bend) * 0;
    if (probe != 0) return IK_ERR_NONFINITE;
    if (job->soften < 0 || job->soften >= 1 || (job->use_hinge && job->min_bend > job->max_bend)) return IK_ERR_RANGE;
    return IK_OK;
}

/* Every pose number the solve reads: the 3x4 affine part of the start and
 * mid matrices, the end's translation (all of it when its rotation is kept),
 * the target and the input rotations. */
static ik_bool inputs_finite(const ik_two_bone *job) {
    ik_real probe = finite_probe(job->start_ms->m, 15) + finite_probe(job->mid_ms->m, 15) +
                    finite_probe(job->end_ms->m + 12, 3) + finite_probe(&job->target_ms.x, 3) +
                    finite_probe(&job->start_rotation_ls->x, 4) + finite_probe(&job->mid_rotation_ls->x, 4);
    if (job->keep_end_rotation) probe += finite_probe(job->end_ms->m, 12) + finite_probe(&job->end_rotation_ls->x, 4);
    return probe == 0;
}

/* The error for a solve that met a singular frame or a non-finite value;
 * `reached` is cleared, nothing else is written. */
static ik_result failure(const ik_two_bone *job) {
    if (job->reached) *job->reached = 0;
    return inputs_finite(job) ? IK_ERR_DEGENERATE : IK_ERR_NONFINITE;
}

/* Half-angle quaternion of the turn by the angle with cosine c and sine s
 * about the unit axis n: normalise(s n, 1 + c); a half turn when 1 + c = 0. */
static ik_quat turn_from_cos_sin(ik_vec3 n, ik_real c, ik_real s) {
    ik_real w = 1 + c;
    if (w <= (ik_real)1e-7) return ik_q(n.x, n.y, n.z, 0);
    return ik_quat_normalize(ik_q(n.x * s, n.y * s, n.z * s, w));
}

/* A joint's rotation frame: its model matrix's columns c_i, each divided by
 * its length s_i, which removes the joint's own (even non-uniform, but
 * positive) scale and leaves F = s_det R: the rotation R when the ancestors'
 * scale is uniform, times s_det = sgn(det) = -1 when they mirror (a
 * negative determinant: F = -R with R proper). A model-space rotation
 * q = (v, w) about the joint is, in the joint's own frame,
 * R^-1 q R = (R^T v, w) = (s_det F^T v, w) ~ (F^T v, s_det w)
 * = ((c_i . v) / s_i, s_det w) (q and -q are the same turn). Local
 * corrections are normalised after use, so the frame keeps factors k_i, k_w
 * with that quaternion proportional to ((c_i . v) k_i, w k_w): k_i = 1 / s_i
 * (one square root and division when the scale is uniform to rounding),
 * k_w = s_det. So the scale never enters the turns' size, and the tests
 * below are made on the normalised determinant det / (s_0 s_1 s_2), which
 * no scale of the frame whose squares are normal numbers can overflow or
 * underflow (det^2 and s_0^2 s_1^2 s_2^2 are sixth powers of it: in
 * float, past 2.6e6). Singular when a column is zero or
 * det^2 < 1e-12 s_0^2 s_1^2 s_2^2. */
typedef struct joint_frame {
    const ik_mat4 *matrix;
    ik_real k[3], k_w; /* k_w = s_det, also the frame's mirror sign */
    ik_bool uniform, similar;
} joint_frame;

static inline ik_bool joint_frame_make(const ik_mat4 *m, joint_frame *f) {
    /* the columns, in four lanes each: the fourth (the matrix's bottom row)
     * never enters the vec3 operations dot3 and cross3 */
    simd4 c0 = simd4_load(m->m), c1 = simd4_load(m->m + 4), c2 = simd4_load(m->m + 8);
    ik_real l0 = simd4_dot3(c0, c0), l1 = simd4_dot3(c1, c1), l2 = simd4_dot3(c2, c2);
    ik_real unit_det, spread = 64 * IK_REAL_EPSILON * l0;
    if (!(l0 > 0 && l1 > 0 && l2 > 0)) return 0;
    f->matrix = m;
    f->uniform = IK_FABS(l1 - l0) <= spread && IK_FABS(l2 - l0) <= spread;
    if (UNLIKELY(!f->uniform)) {
        f->k[0] = 1 / IK_SQRT(l0);
        f->k[1] = 1 / IK_SQRT(l1);
        f->k[2] = 1 / IK_SQRT(l2);
    } else {
        f->k[0] = f->k[1] = f->k[2] = 1 / IK_SQRT(l0);
    }
    /* det / (s_0 s_1 s_2) = c0 . (c1 x c2) k_0 k_1 k_2, scaled back before
     * the third power of the scale can leave the number range */
    unit_det = simd4_dot3(c0, simd4_mul(simd4_cross3(c1, c2), simd4_splat(f->k[1] * f->k[2]))) * f->k[0];
    f->k_w = IK_COPYSIGN(1, unit_det);
    /* A similarity (rotation, mirror, uniform scale): equal column lengths
     * and a normalised det^2 of 1, the bound of Hadamard's inequality, which
     * only orthogonal columns meet. */
    f->similar = f->uniform && unit_det * unit_det >= 1 - 128 * IK_REAL_EPSILON;
    return unit_det * unit_det > (ik_real)1e-12;
}

/* A local axis x in model space, F x = sum x_i k_i c_i, up to a positive
 * factor. A turn by an angle about x in the joint's frame is a turn by
 * s_det times that angle about F x in model space (a mirror flips the
 * sense of turning). With a uniform scale the k_i are equal and the sum is
 * the matrix's own product, which need not wait for them. */
static ik_vec3 axis_to_model(ik_vec3 x, const joint_frame *f) {
    if (!f->uniform) x = ik_vec3_mul(x, ik_v3(f->k[0], f->k[1], f->k[2]));
    return ik_mat4_transform_vector(f->matrix, x);
}

static inline ik_vec3 vector_to_local(ik_vec3 v, const joint_frame *f) {
    const ik_real *a = f->matrix->m;
    return ik_v3((a[0] * v.x + a[1] * v.y + a[2] * v.z) * f->k[0], (a[4] * v.x + a[5] * v.y + a[6] * v.z) * f->k[1],
                 (a[8] * v.x + a[9] * v.y + a[10] * v.z) * f->k[2]);
}

static inline ik_quat to_local(ik_quat q, const joint_frame *f) {
    ik_vec3 v = vector_to_local(ik_v3(q.x, q.y, q.z), f);
    return ik_q(v.x, v.y, v.z, q.w * f->k_w);
}

/* The quaternion q (lanes x, y, z, w) in the frame of the joint with model
 * matrix m: ((c_i . v), w) for the matrix's columns c_i, times `scale` lane
 * by lane (the frame's factors: to_local() with k_i and k_w in `scale`). */
static inline simd4 quat_to_local4(simd4 q, const ik_mat4 *m, simd4 scale) {
    simd4 r0, r1, r2;
    simd4_transpose3(simd4_load(m->m), simd4_load(m->m + 4), simd4_load(m->m + 8), &r0, &r1, &r2);
    return simd4_mul(simd4_add(simd4_combine3(r0, r1, r2, q), simd4_mul(q, simd4_set(0, 0, 0, 1))), scale);
}

/* The start's new rotation, unnormalised: old L(swing twist) for the
 * model-space swing and the twist (axis sin, cos), L(q) = R^T q R the turn
 * in the start's frame (quat_to_local4() with `scale` = (s_det k_i, 1): as
 * F^T v = s_det R^T v, the sign of R^T q R is kept). L is a conjugation, so
 * L(swing twist) = L(swing) L(twist) and L(twist) = sin (L(axis), 0) +
 * cos: with B = old L(swing), the result is sin B (L(axis), 0) + cos B.
 * B and B (L(axis), 0) need only the swing and the axis, known long before
 * the twist's angle, which then costs two products and a sum. */
static inline simd4 turned_start(simd4 old, simd4 swing, simd4 axis, ik_real sin_t, ik_real cos_t, const ik_mat4 *m,
                                 simd4 scale) {
    simd4 r0, r1, r2, swung, axis_ls;
    simd4_transpose3(simd4_load(m->m), simd4_load(m->m + 4), simd4_load(m->m + 8), &r0, &r1, &r2);
    swung = simd4_quat_mul(
        old, simd4_mul(simd4_add(simd4_combine3(r0, r1, r2, swing), simd4_mul(swing, simd4_set(0, 0, 0, 1))), scale));
    axis_ls = simd4_mul(simd4_combine3(r0, r1, r2, axis), scale);
    return simd4_add(simd4_mul(simd4_quat_mul(swung, simd4_with_w(axis_ls, 0)), simd4_splat(sin_t)),
                     simd4_mul(swung, simd4_splat(cos_t)));
}

/* Soft reach (after Nicholas's "soft IK"): beyond ds = (1 - soften) L the
 * distance eases as ds + (L - ds)(1 - exp(-(D - ds) / (L - ds))), which meets
 * D with slope 1 at ds and tends to L without reaching it. */
static ik_real soften_reach(ik_real distance, ik_real full, ik_real soften) {
    ik_real ds = full * (1 - soften), span = full - ds;
    if (soften <= 0 || distance <= ds || !(span > 0)) return distance;
    return ds + span * (1 - IK_EXP(-(distance - ds) / span));
}

/* The bend problem. Turning v about the unit axis h by delta keeps its part
 * along h and turns the rest: v(delta) = v_par + cos(delta) v_perp +
 * sin(delta) h x v_perp. Then
 *   |u + v(delta)|^2 = l1^2 + l2^2 + 2 (A + B cos(delta) + C sin(delta))
 * with A = u . v_par, B = u . v_perp, C = u . (h x v_perp). Writing
 * B = R cos(phi), C = R sin(phi), the distance d is met where
 *   cos(delta - phi) = (d^2 - l1^2 - l2^2 - 2A) / (2R) =: k,
 * so delta = phi +- acos(k): the two mirrored solutions. This holds for any
 * hinge axis, not only one perpendicular to both bones. */
typedef struct bend_problem {
    ik_vec3 h, u, v;
    ik_real a_par, r, cos_phi, sin_phi;
    ik_real len_sq_sum; /* l1^2 + l2^2 */
} bend_problem;

static ik_bool bend_setup(bend_problem *p, ik_vec3 h, ik_vec3 u, ik_vec3 v) {
    ik_vec3 v_par = ik_vec3_scale(h, ik_vec3_dot(v, h));
    ik_vec3 v_perp = ik_vec3_sub(v, v_par);
    ik_real b = ik_vec3_dot(u, v_perp);
    ik_real c = ik_vec3_dot(u, ik_vec3_cross(h, v_perp));
    p->h = h;
    p->u = u;
    p->v = v;
    p->a_par = ik_vec3_dot(u, v_par);
    p->r = IK_SQRT(b * b + c * c);
    p->len_sq_sum = ik_vec3_length_sq(u) + ik_vec3_length_sq(v);
    if (!(p->r > IK_REAL_EPSILON * p->len_sq_sum)) return 0;
    p->cos_phi = b / p->r;
    p->sin_phi = c / p->r;
    return 1;
}

/* k = (d^2 - offset) / (2R), the cosine the distance d asks for, clamped to
 * [-1, 1] and exactly +1 or -1 at full reach (d >= longest) or full fold
 * (d <= shortest): near there the turn moves as sqrt(1 - |k|), so rounding
 * in the formula would leave the limb visibly short of straight or of
 * folded. `inv_2r` is 1 / (2R). */
static ik_real reach_cosine(ik_real d, ik_real shortest, ik_real longest, ik_real offset, ik_real inv_2r) {
    if (d >= longest) return 1;
    if (d <= shortest) return -1;
    return ik_clampr((d * d - offset) * inv_2r, -1, 1);
}

/* k of the bend problem: offset l1^2 + l2^2 + 2A. */
static ik_real bend_cosine(const bend_problem *p, ik_real d, ik_real shortest, ik_real longest) {
    return reach_cosine(d, shortest, longest, p->len_sq_sum + 2 * p->a_par, 1 / (2 * p->r));
}

/* Angles as unit complex numbers (cos, sin): adding angles multiplies them,
 * so the bend needs no inverse trigonometry. */
typedef struct turn_cs {
    ik_real c, s;
} turn_cs;

static turn_cs turn_cs_make(ik_real c, ik_real s) {
    turn_cs t;
    t.c = c;
    t.s = s;
    return t;
}
static turn_cs turn_cs_add(turn_cs a, turn_cs b) { return turn_cs_make(a.c * b.c - a.s * b.s, a.s * b.c + a.c * b.s); }
static turn_cs turn_cs_sub(turn_cs a, turn_cs b) { return turn_cs_make(a.c * b.c + a.s * b.s, a.s * b.c - a.c * b.s); }
/* cos(a - b): the larger, the nearer a is to b around the circle. */
static ik_real turn_cs_closeness(turn_cs a, turn_cs b) { return a.c * b.c + a.s * b.s; }

/* The two mirrored solutions delta = phi + psi and phi - psi, psi = acos(k). */
static void mirrored_turns(const bend_problem *p, ik_real k, turn_cs delta[2]) {
    turn_cs phi = turn_cs_make(p->cos_phi, p->sin_phi), psi = turn_cs_make(k, IK_SQRT(ik_maxr(1 - k * k, 0)));
    delta[0] = turn_cs_add(phi, psi);
    delta[1] = turn_cs_sub(phi, psi);
}

/* Distance from start to end after bending by delta (used to rank clamped
 * hinge solutions). */
static ik_real bend_distance(const bend_problem *p, turn_cs delta) {
    ik_real d_sq =
        p->len_sq_sum + 2 * (p->a_par + p->r * turn_cs_closeness(delta, turn_cs_make(p->cos_phi, p->sin_phi)));
    return IK_SQRT(ik_maxr(d_sq, 0));
}

/* The signed angle about h from the projection of u to the projection of v
 * (0 when they are parallel or either projection vanishes). */
static turn_cs bend_angle(ik_vec3 h, ik_vec3 u, ik_vec3 v) {
    ik_vec3 up = ik_vec3_reject(u, h), vp = ik_vec3_reject(v, h);
    ik_real c = ik_vec3_dot(up, vp), s = ik_vec3_dot(h, ik_vec3_cross(up, vp)), len = IK_SQRT(c * c + s * s);
    return len > 0 ? turn_cs_make(c / len, s / len) : turn_cs_make(1, 0);
}

/* Free bend of a straight or folded limb about the axis h of bend_axis():
 * of the two mirrored solutions keep the one with h . (u x v(delta)) >= 0,
 * the bend that turns positively about h. */
static ik_quat solve_free_bend(const bend_problem *p, ik_real k) {
    turn_cs delta[2];
    ik_vec3 hxu = ik_vec3_cross(p->h, p->u);
    ik_vec3 v_perp = ik_vec3_reject(p->v, p->h);
    ik_vec3 w = ik_vec3_cross(p->h, v_perp);
    ik_real side[2];
    int i;
    mirrored_turns(p, k, delta);
    /* h . (u x v(delta)) = (h x u) . v(delta); h x u is perpendicular to h,
     * so only the turning part of v counts. */
    for (i = 0; i < 2; ++i) side[i] = delta[i].c * ik_vec3_dot(hxu, v_perp) + delta[i].s * ik_vec3_dot(hxu, w);
    i = side[0] > side[1] ? 0 : 1;
    return turn_from_cos_sin(p->h, delta[i].c, delta[i].s);
}

/* Hinged bend: bend angles beta = beta0 + delta for both solutions; take the
 * one inside [lo, hi] (the smaller turn if both are), else clamp both to the
 * nearer end of the range and keep the one whose reach comes closer to d
 * (seed 001). With the range's middle m and half width w, beta is inside
 * when cos(beta - m) >= cos(w) (a range of a whole turn holds everything);
 * the ends are m -+ w. Two sines and cosines in all. The bends are measured
 * about the model-space axis, so where the mid joint's frame is mirrored
 * (`mirror` = -1; a local turn by beta is a model-space turn by -beta) the
 * range is [-hi, -lo]: the middle -m, the same half width. */
static ik_quat solve_hinge_bend(const bend_problem *p, ik_real k, ik_real d, ik_real lo, ik_real hi, ik_real mirror) {
    turn_cs beta0 = bend_angle(p->h, p->u, p->v), delta[2], beta[2], mid, half, chosen;
    ik_bool whole_turn = hi - lo >= 2 * IK_PI, inside[2];
    int i;
    mirrored_turns(p, k, delta);
    mid = turn_cs_make(IK_COS((lo + hi) * (ik_real)0.5), IK_SIN((lo + hi) * (ik_real)0.5) * mirror);
    half = turn_cs_make(IK_COS((hi - lo) * (ik_real)0.5), IK_SIN((hi - lo) * (ik_real)0.5));
    for (i = 0; i < 2; ++i) {
        beta[i] = turn_cs_add(beta0, delta[i]);
        inside[i] = whole_turn || turn_cs_closeness(beta[i], mid) >= half.c;
    }
    if (inside[0] && inside[1])
        chosen = delta[0].c >= delta[1].c ? delta[0] : delta[1];
    else if (inside[0] || inside[1])
        chosen = inside[0] ? delta[0] : delta[1];
    else {
        turn_cs low = turn_cs_sub(mid, half), high = turn_cs_add(mid, half), clamped[2];
        for (i = 0; i < 2; ++i)
            clamped[i] =
                turn_cs_sub(turn_cs_closeness(beta[i], low) >= turn_cs_closeness(beta[i], high) ? low : high, beta0);
        chosen = IK_FABS(bend_distance(p, clamped[0]) - d) <= IK_FABS(bend_distance(p, clamped[1]) - d) ? clamped[0]
                                                                                                        : clamped[1];
    }
    return turn_from_cos_sin(p->h, chosen.c, chosen.s);
}

/* Free bend of a bent limb, by the law of cosines (seed 000): with
 * alpha the angle between the bones (0 when straight), the distance d needs
 * cos(alpha1) = k = (d^2 - l1^2 - l2^2) / (2 l1 l2) (reach_cosine); the limb
 * has cos(alpha0) = u . v / (l1 l2), sin(alpha0) = |h| / (l1 l2),
 * h = u x v. The turn is delta = alpha1 - alpha0 about h, so the knee keeps
 * its side: the quaternion (h sin(delta) / |h|, 1 + cos(delta)), left
 * unnormalised. The turned lower bone needs no rotation: v is perpendicular
 * to h, so v' = v cos(delta) + (h x v) sin(delta) / |h| with
 * h x v = (u . v) v - (v . v) u, and the end lands at u + v' from the start.
 * Returns 0 for a straight or folded limb, where h gives no axis. */
static ik_bool free_bend_of_bent_limb(ik_vec3 u, ik_vec3 v, ik_vec3 h, ik_real l1, ik_real l2, ik_real d, ik_quat *bend,
                                      ik_vec3 *end_rel) {
    ik_real len = l1 * l2, h_sq = ik_vec3_length_sq(h), uv = ik_vec3_dot(u, v);
    ik_real inv_h, inv_len, k, cos0, sin0, sin1, c, s;
    if (!(h_sq > len * len * (ik_real)1e-10)) return 0;
    inv_h = 1 / IK_SQRT(h_sq);
    inv_len = 1 / len;
    k = reach_cosine(d, IK_FABS(l1 - l2), l1 + l2, l1 * l1 + l2 * l2, (ik_real)0.5 * inv_len);
    cos0 = uv * inv_len;
    sin0 = h_sq * inv_h * inv_len;
    sin1 = IK_SQRT(ik_maxr(1 - k * k, 0));
    c = k * cos0 + sin1 * sin0;
    s = (sin1 * cos0 - k * sin0) * inv_h;
    *end_rel = ik_vec3_add(ik_vec3_scale(u, 1 - ik_vec3_length_sq(v) * s), ik_vec3_scale(v, c + uv * s));
    if (1 + c <= (ik_real)1e-7)
        *bend = ik_q(h.x * inv_h, h.y * inv_h, h.z * inv_h, 0);
    else
        *bend = ik_q(h.x * s, h.y * s, h.z * s, 1 + c);
    return 1;
}

/* The axis the knee bends about, in model space: the hinge (turned by the
 * mid joint's frame; bends about it are measured in model space, so a
 * mirrored frame reverses the range: solve_hinge_bend()); else (a free limb that is straight or
 * folded, so the bones give no plane) the normal of the plane through the
 * pole or the target, p x u or u x t, so that a positive bend takes the knee
 * toward the pole, or away from the target as a knee already off the target
 * line is (the twist then has nothing to undo); else any perpendicular. */
static ik_vec3 bend_axis(const ik_two_bone *job, const joint_frame *mid_frame, ik_vec3 a, ik_vec3 u, ik_vec3 pole_rel) {
    ik_vec3 h;
    if (job->use_hinge) {
        h = axis_to_model(job->hinge_axis_ls, mid_frame);
        if (ik_vec3_length_sq(h) > 0) return ik_vec3_normalize(h);
        return ik_vec3_any_perpendicular(ik_vec3_normalize(u));
    }
    h = job->use_pole ? ik_vec3_cross(pole_rel, u) : ik_vec3_cross(u, ik_vec3_sub(job->target_ms, a));
    if (ik_vec3_length_sq(h) > ik_vec3_length_sq(u) * (ik_real)1e-12) return ik_vec3_normalize(h);
    return ik_vec3_any_perpendicular(ik_vec3_normalize(u));
}

/* The swing: the minimum rotation taking the end (end_rel from the start,
 * after the bend) onto the target line e, (end_rel x e, |end_rel||e| +
 * end_rel . e) / (reach |e|), unnormalised (its length^2 g is about
 * 2 (1 + cos angle)); past about 170 degrees, where the cross product is
 * mostly rounding, ik_quat_from_to's exact turn. `reach` is |end_rel| to
 * within rounding (the distance the bend was solved for, known long before
 * end_rel is): dividing by it only scales the quaternion. But w needs
 * |end_rel| itself (near the pole line the twist is worked out against
 * this swing, and feels its rounding): one Newton step from reach,
 * sqrt(q) = reach + (q - reach^2) / (2 reach) to within
 * (q - reach^2)^2 / (8 reach^3), rounding squared, so the turn need not
 * wait for a square root.
 * Then the twist that brings the knee into the half-plane of the pole, or
 * of the knee as it was, about the target line. It is worked out before the
 * swing, about m = end_rel / reach (the swing takes m onto n = e / |e|),
 * with the reference r turned back by the swing. The knee's direction off
 * the line is k = m x b for the bend normal b: u x v of the bent limb,
 * which the bend leaves in place (u x (u + v) = u x v = b, so the knee's
 * offset p = u - (u . m) m has p x m = b / |u + v|: k is along p). Unlike
 * p, k needs no difference of nearly equal lengths (|u|^2 - (u . m)^2
 * loses every digit as the limb straightens), and it stays defined for a
 * straight limb, whose b is the axis it would bend about: so a straight
 * limb's roll is set by the pole (or kept), and it bends again the way it
 * straightened. With C = k . r = |k||r_perp| cos(phi),
 * S = m . (k x r) = j . r = |k||r_perp| sin(phi) for j = m x k =
 * (b . m) m - b (only the part of r off the line counts, as k and j are
 * perpendicular to m; j needs no wait for the swing) and
 * R = |k||r_perp| g (|r_perp| = |r x n|), the half angle
 * (cos(phi/2), sin(phi/2)) lies along (R + C + |S|, sgn(S) (R - C + |S|)):
 * the sum of (R + C, S), which cancels near a half turn, and (S, R - C),
 * which cancels near none, so it is never short. No twist for a bend normal
 * within 1e-5 radians of the line or a reference that close to it (a pole
 * there falls back to the knee). Both turns are left unnormalised, and
 * kept apart (limb_turn): the twist's axis m is known long before its
 * angle, so the start's new rotation can be formed around it meanwhile. */
typedef struct limb_turn {
    ik_quat swing;
    ik_vec3 twist_axis; /* the twist is (twist_axis twist_sin, twist_cos) */
    ik_real twist_sin, twist_cos;
} limb_turn;

static limb_turn turn_of_swing(ik_quat swing) {
    limb_turn t;
    t.swing = swing;
    t.twist_axis = ik_vec3_zero();
    t.twist_sin = 0;
    t.twist_cos = 1;
    return t;
}

/* swing * twist, one quaternion. */
static ik_quat turn_product(limb_turn t) {
    ik_vec3 s = ik_vec3_scale(t.twist_axis, t.twist_sin);
    return ik_quat_mul(t.swing, ik_q(s.x, s.y, s.z, t.twist_cos));
}

static limb_turn swing_and_twist(const ik_two_bone *job, ik_vec3 end_rel, ik_real reach, ik_vec3 e, ik_real e_len,
                                 ik_vec3 pole_rel, ik_vec3 u, ik_vec3 bend_normal) {
    ik_real inv_len = 1 / (reach * e_len), half_inv_reach = (ik_real)0.5 * inv_len * e_len;
    ik_real len = (reach + (ik_vec3_length_sq(end_rel) - reach * reach) * half_inv_reach) * e_len;
    ik_real w = len + ik_vec3_dot(end_rel, e);
    ik_real kk, ref_sq, rr, root, g, cos_part, sin_part, abs_sin;
    ik_vec3 axis, n, m, k, j, ref, ref_back;
    ik_quat swing;
    limb_turn turn;
    if (w > len * (ik_real)(1.0 / 64)) {
        axis = ik_vec3_scale(ik_vec3_cross(end_rel, e), inv_len);
        swing = ik_q(axis.x, axis.y, axis.z, w * inv_len);
    } else {
        swing = ik_quat_from_to(end_rel, e);
    }
    m = ik_vec3_scale(end_rel, inv_len * e_len);
    n = ik_vec3_scale(e, 1 / e_len);
    k = ik_vec3_cross(m, bend_normal);
    kk = ik_vec3_length_sq(k);
    if (!(kk > ik_vec3_length_sq(bend_normal) * (ik_real)1e-10)) return turn_of_swing(swing);
    j = ik_vec3_sub(ik_vec3_scale(m, ik_vec3_dot(bend_normal, m)), bend_normal);
    ref = job->use_pole ? pole_rel : u;
    ref_sq = ik_vec3_length_sq(ref);
    rr = ik_vec3_length_sq(ik_vec3_cross(ref, n));
    if (job->use_pole && !(rr > ref_sq * (ik_real)1e-10)) {
        ref = u;
        ref_sq = ik_vec3_length_sq(ref);
        rr = ik_vec3_length_sq(ik_vec3_cross(ref, n));
    }
    if (!(rr > ref_sq * (ik_real)1e-10)) return turn_of_swing(swing);
    g = ik_quat_dot(swing, swing);
    root = IK_SQRT(kk * rr) * g;
    ref_back = ik_quat_rotate_scaled(ik_quat_conjugate(swing), ref);
    cos_part = ik_vec3_dot(k, ref_back);
    sin_part = ik_vec3_dot(j, ref_back);
    abs_sin = IK_FABS(sin_part);
    turn.swing = swing;
    turn.twist_axis = m;
    turn.twist_sin = IK_COPYSIGN(root - cos_part + abs_sin, sin_part);
    turn.twist_cos = root + cos_part + abs_sin;
    return turn;
}

/* The end's offset from the start after a solve in the start joint's frame
 * G (its model matrix without the start's own scale S, diagonal), from the
 * corrections that solve wrote, in the coordinates y = G^-1 (x - a): the
 * start's local turn c_s = start_before^-1 start_after turns G S into
 * G c_s S, so everything below it by c_s in y; the mid's c_m turns its
 * frame K (the columns of S^-1 times its matrix in y, normalised: the mid's
 * rotation and those between it and the start, without the mid's own
 * scale) into K c_m, which S then stretches:
 * end = c_s (u + S K c_m K^T S^-1 v). With S uniform this is the turn the
 * solve meant; otherwise the mid's turn is stretched and the end lands
 * where this says, not on the target. */
static ik_vec3 end_after_solve(const ik_mat4 *mid, const ik_mat4 *end, ik_vec3 own_scale, ik_quat start_turn,
                               ik_quat mid_turn) {
    const ik_real *m = mid->m;
    ik_vec3 col[3], u = ik_mat4_translation(mid), v = ik_vec3_sub(ik_mat4_translation(end), u), v_mid, v_back;
    ik_vec3 shrink = ik_v3(1 / own_scale.x, 1 / own_scale.y, 1 / own_scale.z);
    int i;
    for (i = 0; i < 3; ++i)
        col[i] = ik_vec3_normalize(ik_vec3_mul(ik_v3(m[4 * i], m[4 * i + 1], m[4 * i + 2]), shrink));
    v = ik_vec3_mul(v, shrink);
    v_mid = ik_quat_rotate(mid_turn, ik_v3(ik_vec3_dot(col[0], v), ik_vec3_dot(col[1], v), ik_vec3_dot(col[2], v)));
    v_back = ik_vec3_add(ik_vec3_scale(col[0], v_mid.x),
                         ik_vec3_add(ik_vec3_scale(col[1], v_mid.y), ik_vec3_scale(col[2], v_mid.z)));
    return ik_quat_rotate(start_turn, ik_vec3_add(u, ik_vec3_mul(v_back, own_scale)));
}

/* The turn from unit-less rotation `before` to `after`: before^-1 after. */
static ik_quat local_turn(ik_quat before, ik_quat after) {
    return ik_quat_normalize(ik_quat_mul(ik_quat_conjugate(before), after));
}

/* 1 when the frame's columns are orthogonal to a few roundings: each
 * pair's cosine within 16 eps (a first-order test, unlike Hadamard's
 * bound, so a nearly uniform non-uniform scale above the joint fails it). */
static ik_bool columns_orthogonal(const joint_frame *f) {
    const ik_real *a = f->matrix->m;
    ik_real c01 = (a[0] * a[4] + a[1] * a[5] + a[2] * a[6]) * f->k[0] * f->k[1];
    ik_real c12 = (a[4] * a[8] + a[5] * a[9] + a[6] * a[10]) * f->k[1] * f->k[2];
    ik_real c20 = (a[8] * a[0] + a[9] * a[1] + a[10] * a[2]) * f->k[2] * f->k[0];
    return ik_maxr(IK_FABS(c01), ik_maxr(IK_FABS(c12), IK_FABS(c20))) <= 16 * IK_REAL_EPSILON;
}

/* A start joint whose frame is not a similarity. When the columns of its
 * matrix L are orthogonal but of unequal lengths, that is the start's own
 * scale S (under a parent that is a similarity, L^T L = s^2 S^2 is
 * diagonal): the start's frame G is L with its columns normalised, and
 * the solve is approximate, as the mid's frame is sheared by S. Otherwise
 * an ancestor has non-uniform scale (or shear) and the start's own scale
 * must be uniform: G = L. Model-space turns are not what the local
 * rotations do; G is where they are turns: the solve runs in the
 * coordinates y = G^-1 (x - a), in which the start's frame is the identity
 * and, with S uniform, every bone length is kept, on the other joints'
 * matrices, the target and the pole taken there; a pole's half-plane maps
 * to a half-plane, so the knee still bends toward it. The reach is
 * measured in y, so it is exact for any invertible affine ancestor (the
 * reachable targets form an ellipsoid in model space). `reached` and the
 * residual are measured in model space, where the end lands
 * (end_after_solve()). */
static ik_result solve_in_start_frame(const ik_two_bone *job, const joint_frame *start_frame) RARE_PATH;
static ik_result solve_in_start_frame(const ik_two_bone *job, const joint_frame *start_frame) {
    ik_mat4 frame = *job->start_ms, to_start, start_y = ik_mat4_identity(), mid_y, end_y;
    ik_vec3 own_scale = ik_v3(1, 1, 1);
    ik_two_bone y = *job;
    ik_quat start_before = *job->start_rotation_ls, mid_before = *job->mid_rotation_ls;
    ik_result r;
    int i, k;
    if (columns_orthogonal(start_frame)) {
        own_scale = ik_v3(1 / start_frame->k[0], 1 / start_frame->k[1], 1 / start_frame->k[2]);
        for (i = 0; i < 3; ++i)
            for (k = 0; k < 3; ++k) frame.m[4 * i + k] *= start_frame->k[i];
    }
    if (!ik_mat4_inverse(&frame, &to_start)) return failure(job);
    mid_y = ik_mat4_mul(&to_start, job->mid_ms);
    end_y = ik_mat4_mul(&to_start, job->end_ms);
    y.start_ms = &start_y;
    y.mid_ms = &mid_y;
    y.end_ms = &end_y;
    y.target_ms = ik_mat4_transform_point(&to_start, job->target_ms);
    y.pole_ms = ik_mat4_transform_point(&to_start, job->pole_ms);
    y.reached = NULL;
    y.residual = NULL;
    r = ik_two_bone_run(&y);
    if (r != IK_OK && job->reached) *job->reached = 0;
    if (r == IK_OK && (job->reached || job->residual)) {
        ik_vec3 a = ik_mat4_translation(job->start_ms), b = ik_mat4_translation(job->mid_ms);
        ik_real full = ik_vec3_distance(a, b) + ik_vec3_distance(b, ik_mat4_translation(job->end_ms));
        ik_vec3 end_rel = end_after_solve(&mid_y, &end_y, own_scale, local_turn(start_before, *job->start_rotation_ls),
                                          local_turn(mid_before, *job->mid_rotation_ls));
        ik_real residual = ik_vec3_distance(ik_mat4_transform_point(&frame, end_rel), job->target_ms);
        if (job->reached) *job->reached = residual <= ik_maxr(job->reach_tolerance * full, IK_REAL_EPSILON * 16);
        if (job->residual) *job->residual = residual;
    }
    return r;
}

/* A pole offset p further than LIMB_SIZE_MAX (whose square may overflow),
 * brought in to `length` along its direction: divided by its largest
 * component first, so that nothing overflows. */
static ik_vec3 pole_brought_in(ik_vec3 p, ik_real length) RARE_PATH;
static ik_vec3 pole_brought_in(ik_vec3 p, ik_real length) {
    ik_real big = ik_maxr(IK_FABS(p.x), ik_maxr(IK_FABS(p.y), IK_FABS(p.z)));
    p = ik_vec3_scale(p, 1 / big);
    return ik_vec3_scale(p, length / IK_SQRT(ik_vec3_length_sq(p)));
}

/* A limb longer than LIMB_SIZE_MAX or shorter than LIMB_SIZE_MIN: solved on
 * copies of its matrices whose translations, and on a target and pole,
 * scaled about the origin by a power of two (exact) into that range. The
 * joint frames are kept (the turns do not depend on their scale), the
 * turns do not change with the scale of the positions, and the residual is
 * scaled back. */
static ik_result solve_rescaled(const ik_two_bone *job, ik_real full) RARE_PATH;
static ik_result solve_rescaled(const ik_two_bone *job, ik_real full) {
    ik_mat4 m[3];
    const ik_mat4 *in[3] = {job->start_ms, job->mid_ms, job->end_ms};
    ik_two_bone y = *job;
    ik_real scale = 1, residual = 0;
    ik_bool reached = 0;
    ik_result r;
    int i, k;
    while (full * scale > LIMB_SIZE_MAX) scale *= (ik_real)0x1p-16;
    while (full * scale < LIMB_SIZE_MIN) scale *= (ik_real)0x1p16;
    for (i = 0; i < 3; ++i) {
        m[i] = *in[i];
        for (k = 12; k < 15; ++k) m[i].m[k] *= scale;
    }
    y.start_ms = &m[0];
    y.mid_ms = &m[1];
    y.end_ms = &m[2];
    y.target_ms = ik_vec3_scale(job->target_ms, scale);
    y.pole_ms = ik_vec3_scale(job->pole_ms, scale);
    y.reached = &reached;
    y.residual = &residual;
    r = ik_two_bone_run(&y);
    if (r == IK_ERR_NONFINITE && inputs_finite(job)) r = IK_ERR_DEGENERATE; /* the scaling overflowed a position */
    if (job->reached) *job->reached = r == IK_OK && reached;
    if (r == IK_OK && job->residual) *job->residual = residual / scale;
    return r;
}

/* Every solve, after validate(). */
static ik_result solve_general(const ik_two_bone *job) NOINLINE;
static ik_result solve_general(const ik_two_bone *job) {
    joint_frame start_frame, mid_frame = {NULL, {1, 1, 1}, 1, 1, 1}, end_frame = {NULL, {1, 1, 1}, 1, 1, 1};
    ik_vec3 a, b, c, t, u, v, to_target, end_rel, bend_normal, v_bent, pole_rel = ik_vec3_zero();
    ik_real l1, l2, full, dist, d, tol, start_sq, mid_sq, end_sq = 1;
    ik_quat bend = ik_quat_identity(), new_end = ik_quat_identity();
    limb_turn turn;
    bend_problem problem;
    ik_bool invertible, free_bent;

    a = ik_mat4_translation(job->start_ms);
    b = ik_mat4_translation(job->mid_ms);
    c = ik_mat4_translation(job->end_ms);
    t = job->target_ms;
    u = ik_vec3_sub(b, a);
    v = ik_vec3_sub(c, b);
    l1 = ik_vec3_length(u);
    l2 = ik_vec3_length(v);
    full = l1 + l2;
    tol = ik_maxr(job->reach_tolerance * full, IK_REAL_EPSILON * 16);
    invertible = joint_frame_make(job->start_ms, &start_frame) && joint_frame_make(job->mid_ms, &mid_frame) &&
                 (!job->keep_end_rotation || joint_frame_make(job->end_ms, &end_frame));
    to_target = ik_vec3_sub(t, a);
    dist = ik_vec3_length(to_target);
    if (UNLIKELY(!(invertible && start_frame.similar) || !ik_finite(full + dist) ||
                 !(full >= LIMB_SIZE_MIN && full <= LIMB_SIZE_MAX))) {
        /* (The frames' own test squares the scale three times: a limb out
         * of range is rescaled before it is believed. A zero-length limb
         * stays, and a weight of 0 needs no frame: it changes nothing.) */
        if (full > 0 && ik_finite(full + dist) && !(full >= LIMB_SIZE_MIN && full <= LIMB_SIZE_MAX))
            return solve_rescaled(job, full);
        if (!invertible || !ik_finite(full + dist)) return failure(job);
        if (!start_frame.similar && job->weight > 0) return solve_in_start_frame(job, &start_frame);
    }
    if (UNLIKELY(job->weight <= 0)) {
        ik_real residual = ik_vec3_distance(c, t);
        if (!inputs_finite(job)) return IK_ERR_NONFINITE;
        if (job->reached) *job->reached = residual <= tol;
        if (job->residual) *job->residual = residual;
        return IK_OK;
    }

    if (job->use_pole) {
        pole_rel = ik_vec3_sub(job->pole_ms, a);
        if (UNLIKELY(!(ik_vec3_length_sq(pole_rel) <= LIMB_SIZE_MAX * LIMB_SIZE_MAX)))
            pole_rel = pole_brought_in(pole_rel, full);
    }

    /* The distance wanted: softened, then clamped to what two bones can span,
     * [|l1 - l2|, l1 + l2] (seed 000's three cases). */
    d = ik_clampr(soften_reach(dist, full, job->soften), IK_FABS(l1 - l2), full);

    /* 1. bend: by the law of cosines for a free, bent limb; else through the
     * general hinge problem. Also the bend normal b, whose m x b points to
     * the knee (swing_and_twist): u x v for a bent free limb; else the bend
     * axis h, or for a hinge u x v' of the bent limb (a hinge need not be
     * perpendicular to the bones) while that is more than rounding, else h
     * turned to the side the range bends to. */
    bend_normal = ik_vec3_cross(u, v);
    free_bent =
        l1 > 0 && l2 > 0 && !job->use_hinge && free_bend_of_bent_limb(u, v, bend_normal, l1, l2, d, &bend, &end_rel);
    if (!free_bent) {
        bend_normal = ik_vec3_zero();
        if (l1 > 0 && l2 > 0 && bend_setup(&problem, bend_axis(job, &mid_frame, a, u, pole_rel), u, v)) {
            ik_real k = bend_cosine(&problem, d, IK_FABS(l1 - l2), full);
            bend_normal = problem.h;
            if (job->use_hinge) {
                bend = solve_hinge_bend(&problem, k, d, job->min_bend, job->max_bend, mid_frame.k_w);
                if ((job->min_bend + job->max_bend) * mid_frame.k_w < 0) bend_normal = ik_vec3_neg(bend_normal);
            } else {
                bend = solve_free_bend(&problem, k);
            }
        }
        v_bent = ik_quat_rotate(bend, v);
        end_rel = ik_vec3_add(u, v_bent);
        if (job->use_hinge) {
            ik_vec3 bent_normal = ik_vec3_cross(u, v_bent);
            if (ik_vec3_length_sq(bent_normal) > (ik_real)1e-8 * l1 * l1 * l2 * l2) bend_normal = bent_normal;
        }
    }

    /* 2. swing and 3. twist (plus the user's twist) about the target line.
     * The free bend lands the end d from the start, to rounding relative to
     * the limb's length: relative to d too unless d is short. */
    if (dist > IK_REAL_EPSILON * full) {
        ik_real reach = free_bent && d >= full * (ik_real)0.25 ? d : ik_vec3_length(end_rel);
        turn = swing_and_twist(job, end_rel, reach, to_target, dist, pole_rel, u, bend_normal);
        if (job->twist != 0)
            turn.swing =
                ik_quat_mul(ik_quat_from_axis_angle(ik_vec3_scale(to_target, 1 / dist), job->twist), turn.swing);
    } else {
        turn = turn_of_swing(ik_quat_from_to(end_rel, to_target));
    }

    if (job->weight < 1) {
        turn = turn_of_swing(ik_quat_slerp(ik_quat_identity(), ik_quat_normalize(turn_product(turn)), job->weight));
        bend = ik_quat_slerp(ik_quat_identity(), ik_quat_normalize(bend), job->weight);
        end_rel = ik_vec3_add(u, ik_quat_rotate(bend, v));
    }

    /* Model-space turns to local corrections: new local = old local * R^T q R.
     * The end's model rotation picked up swing * twist * bend; keeping it means
     * undoing that locally. The turns may be unnormalised: the products are
     * normalised last. Nothing is written unless each has a squared norm in
     * the normal range: a zero input rotation (or one whose norm overflows
     * or underflows) is refused as IK_ERR_DEGENERATE, as ik_aim_run does.
     * The start's in four lanes: turned_start(); the mid's likewise. */
    {
        simd4 start_scale = simd4_set(start_frame.k[0] * start_frame.k_w, start_frame.k[1] * start_frame.k_w,
                                      start_frame.k[2] * start_frame.k_w, 1);
        simd4 mid_scale = simd4_set(mid_frame.k[0], mid_frame.k[1], mid_frame.k[2], mid_frame.k_w);
        simd4 start4 =
            turned_start(simd4_load(&job->start_rotation_ls->x), simd4_quat(turn.swing), simd4_vec3(turn.twist_axis),
                         turn.twist_sin, turn.twist_cos, job->start_ms, start_scale);
        simd4 mid4 = simd4_quat_mul(simd4_load(&job->mid_rotation_ls->x),
                                    quat_to_local4(simd4_quat(bend), job->mid_ms, mid_scale));
        start_sq = simd4_dot4(start4, start4);
        mid_sq = simd4_dot4(mid4, mid4);
        if (job->keep_end_rotation) {
            ik_quat undo = ik_quat_conjugate(ik_quat_mul(turn_product(turn), bend));
            new_end = ik_quat_mul(*job->end_rotation_ls, to_local(undo, &end_frame));
            end_sq = ik_quat_dot(new_end, new_end);
        }
        if (UNLIKELY(!(rotation_product_usable(start_sq) && rotation_product_usable(mid_sq) &&
                       rotation_product_usable(end_sq))))
            return failure(job);
        simd4_store(&job->start_rotation_ls->x, simd4_mul(start4, simd4_splat(1 / IK_SQRT(start_sq))));
        simd4_store(&job->mid_rotation_ls->x, simd4_mul(mid4, simd4_splat(1 / IK_SQRT(mid_sq))));
        if (job->keep_end_rotation) *job->end_rotation_ls = rotation_product_unit(new_end, end_sq);
    }

    if (job->reached || job->residual) {
        ik_quat swing_twist = turn_product(turn);
        ik_vec3 end_turned = ik_quat_rotate_scaled(swing_twist, end_rel);
        ik_real residual = ik_vec3_distance(ik_vec3_mad(a, end_turned, 1 / ik_quat_dot(swing_twist, swing_twist)), t);
        if (job->reached) *job->reached = residual <= tol;
        if (job->residual) *job->residual = residual;
    }
    return IK_OK;
}

/* a . b over lanes 0..2 summed as (x + y) + z, in the order of
 * ik_vec3_dot: solve_usual() repeats solve_general()'s arithmetic (and so
 * the batch lanes'), whose folded or nearly straight limbs feel each
 * rounding. */
static inline ik_real dot3_ordered(simd4 a, simd4 b) {
    simd4 p = simd4_mul(a, b);
    return simd4_x(simd4_add(simd4_add(p, SIMD4_SHUFFLE(p, 1, 1, 1, 1)), SIMD4_SHUFFLE(p, 2, 2, 2, 2)));
}

/* The usual solve, in four lanes: a free limb that is bent, under a
 * similarity, at full weight, without twist or kept end rotation, its
 * target off the start and within the swing's direct formula. The same
 * steps as solve_general() (free_bend_of_bent_limb(), swing_and_twist()
 * and the corrections), with the vectors held as simd4 (lane 3 unused
 * until a quaternion's w is set), so they are not spread over three
 * scalar registers each. Returns SOLVE_GENERAL, having written nothing,
 * for anything else (solve_general() then decides), else the result. */
#define SOLVE_GENERAL ((ik_result)-1000)
static inline ik_result solve_usual(const ik_two_bone *job) {
    joint_frame start_frame, mid_frame;
    simd4 a = simd4_load(job->start_ms->m + 12), b = simd4_load(job->mid_ms->m + 12);
    simd4 t = simd4_vec3_load(&job->target_ms);
    simd4 u = simd4_sub(b, a), v = simd4_sub(simd4_load(job->end_ms->m + 12), b), e = simd4_sub(t, a);
    simd4 h, end_rel, swing, m, k, ref, ref_back, sv, bend, p = u, start4, mid4;
    ik_real uu = dot3_ordered(u, u), vv = dot3_ordered(v, v), l1 = IK_SQRT(uu), l2 = IK_SQRT(vv), full = l1 + l2;
    ik_real dist = IK_SQRT(dot3_ordered(e, e)), d, len, h_sq, uv, inv_h, inv_len, kc, cos0, sin0, sin1, c, sn, reach;
    ik_real w, inv_reach, kk, ref_sq, rr, twist_sin = 0, twist_cos = 1, start_sq, mid_sq;
    if (!(joint_frame_make(job->start_ms, &start_frame) && joint_frame_make(job->mid_ms, &mid_frame) &&
          start_frame.similar && ik_finite(full + dist) && full >= LIMB_SIZE_MIN && full <= LIMB_SIZE_MAX &&
          dist > IK_REAL_EPSILON * full))
        return SOLVE_GENERAL;
    if (job->use_pole) {
        p = simd4_sub(simd4_vec3_load(&job->pole_ms), a);
        if (!(dot3_ordered(p, p) <= LIMB_SIZE_MAX * LIMB_SIZE_MAX)) return SOLVE_GENERAL;
    }
    d = ik_clampr(soften_reach(dist, full, job->soften), IK_FABS(l1 - l2), full);

    /* 1. bend: free_bend_of_bent_limb() */
    len = l1 * l2;
    h = simd4_cross3(u, v);
    h_sq = dot3_ordered(h, h);
    uv = dot3_ordered(u, v);
    if (!(h_sq > len * len * (ik_real)1e-10)) return SOLVE_GENERAL;
    inv_h = 1 / IK_SQRT(h_sq);
    inv_len = 1 / len;
    kc = reach_cosine(d, IK_FABS(l1 - l2), full, l1 * l1 + l2 * l2, (ik_real)0.5 * inv_len);
    cos0 = uv * inv_len;
    sin0 = h_sq * inv_h * inv_len;
    sin1 = IK_SQRT(ik_maxr(1 - kc * kc, 0));
    c = kc * cos0 + sin1 * sin0;
    sn = (sin1 * cos0 - kc * sin0) * inv_h;
    end_rel = simd4_add(simd4_mul(u, simd4_splat(1 - vv * sn)), simd4_mul(v, simd4_splat(c + uv * sn)));
    if (1 + c <= (ik_real)1e-7)
        bend = simd4_with_w(simd4_mul(h, simd4_splat(inv_h)), 0);
    else
        bend = simd4_with_w(simd4_mul(h, simd4_splat(sn)), 1 + c);

    /* 2. swing and 3. twist: swing_and_twist() */
    reach = d >= full * (ik_real)0.25 ? d : IK_SQRT(dot3_ordered(end_rel, end_rel));
    inv_len = 1 / (reach * dist);
    inv_reach = inv_len * dist;
    len = (reach + (dot3_ordered(end_rel, end_rel) - reach * reach) * ((ik_real)0.5 * inv_len * dist)) * dist;
    w = len + dot3_ordered(end_rel, e);
    if (!(w > len * (ik_real)(1.0 / 64))) return SOLVE_GENERAL;
    swing = simd4_mul(simd4_with_w(simd4_cross3(end_rel, e), w), simd4_splat(inv_len));
    m = simd4_mul(end_rel, simd4_splat(inv_reach));
    k = simd4_cross3(m, h);
    kk = dot3_ordered(k, k);
    if (kk > h_sq * (ik_real)1e-10) {
        simd4 n = simd4_mul(e, simd4_splat(1 / dist)), rx;
        ref = job->use_pole ? p : u;
        ref_sq = dot3_ordered(ref, ref);
        rx = simd4_cross3(ref, n);
        rr = dot3_ordered(rx, rx);
        if (job->use_pole && !(rr > ref_sq * (ik_real)1e-10)) {
            ref = u;
            ref_sq = uu;
            rx = simd4_cross3(ref, n);
            rr = dot3_ordered(rx, rx);
        }
        if (rr > ref_sq * (ik_real)1e-10) {
            simd4 j = simd4_sub(simd4_mul(m, simd4_splat(dot3_ordered(h, m))), h);
            ik_real sw = simd4_x(simd4_wwww(swing)), sv_sq, g, root, cos_part, sin_part, abs_sin;
            sv = swing;
            sv_sq = dot3_ordered(sv, sv);
            g = sv_sq + sw * sw;
            root = IK_SQRT(kk * rr) * g;
            /* ik_quat_rotate_scaled(conjugate(swing), ref) */
            ref_back = simd4_sub(simd4_add(simd4_mul(ref, simd4_splat(sw * sw - sv_sq)),
                                           simd4_mul(sv, simd4_splat(2 * dot3_ordered(sv, ref)))),
                                 simd4_mul(simd4_cross3(sv, ref), simd4_splat(2 * sw)));
            cos_part = dot3_ordered(k, ref_back);
            sin_part = dot3_ordered(j, ref_back);
            abs_sin = IK_FABS(sin_part);
            twist_sin = IK_COPYSIGN(root - cos_part + abs_sin, sin_part);
            twist_cos = root + cos_part + abs_sin;
        }
    }

    /* The corrections, as in solve_general(). */
    {
        simd4 start_scale = simd4_set(start_frame.k[0] * start_frame.k_w, start_frame.k[1] * start_frame.k_w,
                                      start_frame.k[2] * start_frame.k_w, 1);
        simd4 mid_scale = simd4_set(mid_frame.k[0], mid_frame.k[1], mid_frame.k[2], mid_frame.k_w);
        start4 = turned_start(simd4_load(&job->start_rotation_ls->x), swing, m, twist_sin, twist_cos, job->start_ms,
                              start_scale);
        mid4 = simd4_quat_mul(simd4_load(&job->mid_rotation_ls->x), quat_to_local4(bend, job->mid_ms, mid_scale));
        start_sq = simd4_dot4(start4, start4);
        mid_sq = simd4_dot4(mid4, mid4);
        if (UNLIKELY(!(rotation_product_usable(start_sq) && rotation_product_usable(mid_sq)))) return failure(job);
        simd4_store(&job->start_rotation_ls->x, simd4_mul(start4, simd4_splat(1 / IK_SQRT(start_sq))));
        simd4_store(&job->mid_rotation_ls->x, simd4_mul(mid4, simd4_splat(1 / IK_SQRT(mid_sq))));
        if (job->reached || job->residual) {
            /* ik_quat_rotate_scaled(swing_twist, end_rel) / |swing_twist|^2 */
            simd4 swing_twist = simd4_quat_mul(swing, simd4_with_w(simd4_mul(m, simd4_splat(twist_sin)), twist_cos));
            ik_real qw = simd4_x(simd4_wwww(swing_twist)), q_sq = dot3_ordered(swing_twist, swing_twist);
            simd4 turned =
                simd4_add(simd4_add(simd4_mul(end_rel, simd4_splat(qw * qw - q_sq)),
                                    simd4_mul(swing_twist, simd4_splat(2 * dot3_ordered(swing_twist, end_rel)))),
                          simd4_mul(simd4_cross3(swing_twist, end_rel), simd4_splat(2 * qw)));
            simd4 miss = simd4_sub(simd4_add(a, simd4_mul(turned, simd4_splat(1 / (q_sq + qw * qw)))), t);
            ik_real residual = IK_SQRT(dot3_ordered(miss, miss));
            if (job->reached) *job->reached = residual <= ik_maxr(job->reach_tolerance * full, IK_REAL_EPSILON * 16);
            if (job->residual) *job->residual = residual;
        }
    }
    return IK_OK;
}

ik_result ik_two_bone_run(const ik_two_bone *job) {
    ik_result r = validate(job);
    if (UNLIKELY(r != IK_OK)) return r;
    if (!job->use_hinge && !job->keep_end_rotation && job->weight >= 1 && job->twist == 0) {
        r = solve_usual(job);
        if (r != SOLVE_GENERAL) return r;
    }
    return solve_general(job);
}

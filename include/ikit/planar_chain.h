/* ikit 2D chains (seed 003): planar chains of bone lengths l_i and relative
 * joint angles alpha_i, with forward kinematics and IK by CCD, FABRIK or
 * gradient descent on d = |p_n - p*|^2 / 2.
 *
 * Positions are stored as interleaved (x, y) pairs: xy[2 i], xy[2 i + 1] is
 * p_i, the start of bone i; p_n (n = bone_count) is the chain's tip, the
 * effector. Angles are radians, counter-clockwise; bone i points at
 * beta_i = alpha_0 + ... + alpha_i.
 */
#ifndef IKIT_PLANAR_CHAIN_H
#define IKIT_PLANAR_CHAIN_H

#include <stddef.h>

#include <ikit/math.h>
#include <ikit/result.h>

#ifdef __cplusplus
extern "C" {
#endif

/* p_0 = base; p_{i+1} = p_i + l_i (cos beta_i, sin beta_i). Writes
 * xy [2 (bone_count + 1)]. */
void ik_planar_chain_fk(int bone_count, const ik_real *lengths, const ik_real *angles, ik_real base_x, ik_real base_y,
                        ik_real *xy);

/* Seed 003's exact gradient of d = |p_n - p*|^2 / 2 from positions xy:
 * dd/dalpha_j = (p_n - p*) . (y_j - y_n, x_n - x_j). Writes gradient [bone_count]. */
void ik_planar_chain_gradient(int bone_count, const ik_real *xy, ik_real target_x, ik_real target_y, ik_real *gradient);

typedef enum ik_planar_chain_method {
    IK_PLANAR_CHAIN_CCD = 0,
    IK_PLANAR_CHAIN_FABRIK,
    IK_PLANAR_CHAIN_GRADIENT
} ik_planar_chain_method;

typedef struct ik_planar_chain {
    /* inputs */
    int bone_count;         /* >= 1 */
    const ik_real *lengths; /* [bone_count] >= 0 */
    ik_real base_x, base_y;
    ik_real target_x, target_y;
    const ik_real *min_angles; /* [bone_count] or NULL: limits on each alpha_i */
    const ik_real *max_angles; /* [bone_count] or NULL (both or neither) */
    /* options */
    ik_planar_chain_method method; /* default FABRIK */
    ik_real tolerance;             /* default 1e-3 */
    int max_iterations;            /* default 50 (gradient descent: use several hundred) */
    ik_real step;                  /* gradient descent: alpha -= step * grad / sum_j |p_n - p_j|^2; default 1 */
    /* in/out */
    ik_real *angles;  /* [bone_count] */
    ik_real *scratch; /* [2 (bone_count + 1)] positions, then [bone_count] more for gradient */
    /* outputs (may be NULL) */
    int *iterations;
    ik_real *error;          /* |p_n - p*| at the end */
    unsigned long defaulted; /* IK_JOB_DEFAULTED, set by ik_planar_chain_def(); do not touch */
} ik_planar_chain;

ik_planar_chain ik_planar_chain_def(void);

/* Bytes `scratch` must hold (3 bone_count + 2 reals). */
static inline size_t ik_planar_chain_scratch_size(int bone_count) {
    return (size_t)(3 * bone_count + 2) * sizeof(ik_real);
}

/* Validates (IK_ERR_NOT_DEFAULTED for a job not made by ik_planar_chain_def(),
 * IK_ERR_NULL, IK_ERR_NONFINITE, IK_ERR_RANGE for counts, negative
 * lengths, min > max, unknown method, negative tolerance or iterations,
 * step <= 0), then solves. Angles start inside their limits (clamped) and
 * stay inside. On error nothing is written. */
ik_result ik_planar_chain_run(const ik_planar_chain *job);

#ifdef __cplusplus
}
#endif
#endif

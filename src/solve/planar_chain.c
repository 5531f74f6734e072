/* Planar chains (seed 003): forward kinematics, the exact gradient of the
 * squared effector distance, and IK by CCD, FABRIK or gradient descent. */
#include <ikit/planar_chain.h>

#include <stddef.h>

void ik_planar_chain_fk(int bone_count, const ik_real *lengths, const ik_real *angles, ik_real base_x, ik_real base_y,
                        ik_real *xy) {
    ik_real beta = 0;
    int i;
    xy[0] = base_x;
    xy[1] = base_y;
    for (i = 0; i < bone_count; ++i) {
        beta += angles[i];
        xy[2 * i + 2] = xy[2 * i] + IK_COS(beta) * lengths[i];
        xy[2 * i + 3] = xy[2 * i + 1] + IK_SIN(beta) * lengths[i];
    }
}

void ik_planar_chain_gradient(int bone_count, const ik_real *xy, ik_real target_x, ik_real target_y,
                              ik_real *gradient) {
    ik_real xn = xy[2 * bone_count], yn = xy[2 * bone_count + 1];
    ik_real ex = xn - target_x, ey = yn - target_y;
    int j;
    for (j = 0; j < bone_count; ++j) gradient[j] = ex * (xy[2 * j + 1] - yn) + ey * (xn - xy[2 * j]);
}

ik_planar_chain ik_planar_chain_def(void) {
    ik_planar_chain job;
    job.bone_count = 0;
    job.lengths = NULL;
    job.base_x = job.base_y = 0;
    job.target_x = job.target_y = 0;
    job.min_angles = job.max_angles = NULL;
    job.method = IK_PLANAR_CHAIN_FABRIK;
    job.tolerance = (ik_real)1e-3;
    job.max_iterations = 50;
    job.step = 1;
    job.angles = NULL;
    job.scratch = NULL;
    job.iterations = NULL;
    job.error = NULL;
    job.defaulted = IK_JOB_DEFAULTED;
    return job;
}

static ik_result validate(const ik_planar_chain *job) {
    int i;
    if (!job) return IK_ERR_NULL;
    if (job->defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    if (!job->lengths || !job->angles || !job->scratch) return IK_ERR_NULL;
    if (!job->min_angles != !job->max_angles) return IK_ERR_NULL;
    if (job->bone_count < 1 || job->max_iterations < 0) return IK_ERR_RANGE;
    if (job->method != IK_PLANAR_CHAIN_CCD && job->method != IK_PLANAR_CHAIN_FABRIK &&
        job->method != IK_PLANAR_CHAIN_GRADIENT)
        return IK_ERR_RANGE;
    if (!ik_finite(job->base_x) || !ik_finite(job->base_y) || !ik_finite(job->target_x) || !ik_finite(job->target_y) ||
        !ik_finite(job->tolerance) || !ik_finite(job->step))
        return IK_ERR_NONFINITE;
    if (job->tolerance < 0 || !(job->step > 0)) return IK_ERR_RANGE;
    for (i = 0; i < job->bone_count; ++i) {
        if (!ik_finite(job->lengths[i]) || !ik_finite(job->angles[i])) return IK_ERR_NONFINITE;
        if (job->lengths[i] < 0) return IK_ERR_RANGE;
        if (job->min_angles) {
            if (!ik_finite(job->min_angles[i]) || !ik_finite(job->max_angles[i])) return IK_ERR_NONFINITE;
            if (job->min_angles[i] > job->max_angles[i]) return IK_ERR_RANGE;
        }
    }
    return IK_OK;
}

/* alpha_i within its limits; without limits, wrapped to (-pi, pi]. */
static ik_real limit(const ik_planar_chain *job, int i, ik_real alpha) {
    if (job->min_angles) return ik_clampr(alpha, job->min_angles[i], job->max_angles[i]);
    return ik_wrap_angle(alpha);
}

static ik_real tip_error(const ik_planar_chain *job, const ik_real *xy) {
    ik_real dx = xy[2 * job->bone_count] - job->target_x, dy = xy[2 * job->bone_count + 1] - job->target_y;
    return IK_SQRT(dx * dx + dy * dy);
}

/* CCD sweep: at joint j, delta = atan2((e - p_j) x (t - p_j), (e - p_j) . (t - p_j));
 * alpha_j += delta within limits; the tip turns about p_j by the change. */
static void ccd_sweep(const ik_planar_chain *job, ik_real *angles, ik_real *xy) {
    int n = job->bone_count, j;
    ik_real ex = xy[2 * n], ey = xy[2 * n + 1];
    for (j = n - 1; j >= 0; --j) {
        ik_real px = xy[2 * j], py = xy[2 * j + 1];
        ik_real ax = ex - px, ay = ey - py, bx = job->target_x - px, by = job->target_y - py;
        ik_real delta = IK_ATAN2(ax * by - ay * bx, ax * bx + ay * by);
        ik_real updated = limit(job, j, angles[j] + delta);
        ik_real turn = updated - angles[j], c = IK_COS(turn), s = IK_SIN(turn);
        angles[j] = updated;
        ex = px + c * ax - s * ay;
        ey = py + s * ax + c * ay;
    }
    ik_planar_chain_fk(n, job->lengths, angles, job->base_x, job->base_y, xy);
}

/* FABRIK (Aristidou and Lasenby 2011) in the plane. Backward:
 * p_n = p*, p_i = p_{i+1} + l_i (p_i - p_{i+1}) / |p_i - p_{i+1}|. Forward,
 * in angles so limits apply inside the pass: alpha_i = angle of
 * (p_{i+1} - p_i) minus beta_{i-1}, limited, then p_{i+1} placed from it. */
static void fabrik_iteration(const ik_planar_chain *job, ik_real *angles, ik_real *xy) {
    int n = job->bone_count, i;
    ik_real beta = 0;
    xy[2 * n] = job->target_x;
    xy[2 * n + 1] = job->target_y;
    for (i = n - 1; i >= 0; --i) {
        ik_real dx = xy[2 * i] - xy[2 * i + 2], dy = xy[2 * i + 1] - xy[2 * i + 3];
        ik_real d = IK_SQRT(dx * dx + dy * dy);
        if (d > 0) {
            xy[2 * i] = xy[2 * i + 2] + dx * (job->lengths[i] / d);
            xy[2 * i + 1] = xy[2 * i + 3] + dy * (job->lengths[i] / d);
        } else {
            xy[2 * i] = xy[2 * i + 2];
            xy[2 * i + 1] = xy[2 * i + 3];
        }
    }
    xy[0] = job->base_x;
    xy[1] = job->base_y;
    for (i = 0; i < n; ++i) {
        ik_real dx = xy[2 * i + 2] - xy[2 * i], dy = xy[2 * i + 3] - xy[2 * i + 1];
        if (dx != 0 || dy != 0) angles[i] = limit(job, i, ik_wrap_angle(IK_ATAN2(dy, dx) - beta));
        beta += angles[i];
        xy[2 * i + 2] = xy[2 * i] + IK_COS(beta) * job->lengths[i];
        xy[2 * i + 3] = xy[2 * i + 1] + IK_SIN(beta) * job->lengths[i];
    }
}

/* Gradient descent (seed 003): alpha_j -= eta dd/dalpha_j with the exact
 * gradient, eta = step / sum_j |p_n - p_j|^2 (the squared Frobenius norm of
 * the position Jacobian, which keeps the step stable at any scale). */
static void gradient_step(const ik_planar_chain *job, ik_real *angles, ik_real *xy, ik_real *gradient) {
    int n = job->bone_count, j;
    ik_real norm = 0, eta;
    ik_planar_chain_gradient(n, xy, job->target_x, job->target_y, gradient);
    for (j = 0; j < n; ++j) {
        ik_real dx = xy[2 * n] - xy[2 * j], dy = xy[2 * n + 1] - xy[2 * j + 1];
        norm += dx * dx + dy * dy;
    }
    if (!(norm > 0)) return;
    eta = job->step / norm;
    for (j = 0; j < n; ++j) angles[j] = limit(job, j, angles[j] - eta * gradient[j]);
    ik_planar_chain_fk(n, job->lengths, angles, job->base_x, job->base_y, xy);
}

ik_result ik_planar_chain_run(const ik_planar_chain *job) {
    ik_result r = validate(job);
    ik_real *xy, *angles;
    ik_real err, previous;
    int n, i, it = 0;
    if (r != IK_OK) return r;
    n = job->bone_count;
    xy = job->scratch;
    angles = job->angles;
    if (job->min_angles)
        for (i = 0; i < n; ++i) angles[i] = limit(job, i, angles[i]);
    ik_planar_chain_fk(n, job->lengths, angles, job->base_x, job->base_y, xy);
    err = tip_error(job, xy);
    while (err > job->tolerance && it < job->max_iterations) {
        previous = err;
        ++it;
        if (job->method == IK_PLANAR_CHAIN_CCD)
            ccd_sweep(job, angles, xy);
        else if (job->method == IK_PLANAR_CHAIN_FABRIK)
            fabrik_iteration(job, angles, xy);
        else
            gradient_step(job, angles, xy, xy + 2 * (n + 1));
        err = tip_error(job, xy);
        if (job->method != IK_PLANAR_CHAIN_GRADIENT && previous - err < job->tolerance * (ik_real)1e-3) break;
    }
    if (job->iterations) *job->iterations = it;
    if (job->error) *job->error = err;
    return IK_OK;
}

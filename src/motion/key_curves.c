/* Shared parts of key fitting: curves of a take, model-space measure
 * points, least-squares Hermite segments, the job's checks. See key_curves.h. */
#include "key_curves.h"

void ik_key_curves_extract(const ik_take *take, ik_real *curves) {
    int frames = take->frame_count, joints = take->joint_count, f, j;
    for (j = 0; j < joints; ++j) {
        ik_real *c = curves + (size_t)j * IK_KEY_CURVES * (size_t)frames;
        ik_quat previous = ik_quat_identity();
        for (f = 0; f < frames; ++f) {
            const ik_transform *t = &ik_take_pose(take, f)[j];
            ik_quat q = t->rotation;
            /* q and -q are one rotation: keep the one nearer the frame before */
            if (f > 0 && ik_quat_dot(q, previous) < 0) q = ik_quat_neg(q);
            previous = q;
            c[0 * frames + f] = t->translation.x;
            c[1 * frames + f] = t->translation.y;
            c[2 * frames + f] = t->translation.z;
            c[3 * frames + f] = q.x;
            c[4 * frames + f] = q.y;
            c[5 * frames + f] = q.z;
            c[6 * frames + f] = q.w;
            c[7 * frames + f] = t->scale.x;
            c[8 * frames + f] = t->scale.y;
            c[9 * frames + f] = t->scale.z;
        }
    }
}

static ik_bool curve_constant(const ik_real *y, int frames) {
    int f;
    for (f = 1; f < frames; ++f)
        if (y[f] != y[0]) return 0;
    return 1;
}

unsigned ik_key_channels_varying(const ik_real *curves, int frames, int joint) {
    const ik_real *c = curves + (size_t)joint * IK_KEY_CURVES * (size_t)frames;
    unsigned mask = 0;
    int k;
    for (k = 0; k < IK_KEY_CURVES; ++k)
        if (!curve_constant(c + (size_t)k * (size_t)frames, frames)) mask |= 1u << ik_key_curve_path(k);
    return mask;
}

ik_bool ik_key_scale_written(const ik_real *curves, int frames, int joint) {
    const ik_real *c = curves + ((size_t)joint * IK_KEY_CURVES + 7) * (size_t)frames;
    size_t i;
    for (i = 0; i < 3 * (size_t)frames; ++i)
        if (c[i] != 1) return 1;
    return 0;
}

void ik_key_points_ms(const ik_mat4 *model_ms, int joint_count, ik_real offset, ik_vec3 *points) {
    int j, p;
    for (j = 0; j < joint_count; ++j)
        for (p = 0; p < IK_KEY_POINTS; ++p)
            points[j * IK_KEY_POINTS + p] = ik_mat4_transform_point(&model_ms[j], ik_key_point_ls(p, offset));
}

/* The points are the joint's origin o and o + r c_k for its matrix's
 * columns c_k: compared as squared distances, one square root at the end. */
ik_real ik_key_joint_error(const ik_mat4 *model_ms, int joint, ik_real offset, const ik_vec3 *want, int *worst_point) {
    const ik_mat4 *m = &model_ms[joint];
    ik_vec3 origin = ik_mat4_translation(m);
    ik_real worst = ik_vec3_length_sq(ik_vec3_sub(origin, want[0]));
    int p;
    if (worst_point) *worst_point = 0;
    for (p = 1; p < IK_KEY_POINTS; ++p) {
        ik_real e = ik_vec3_length_sq(ik_vec3_sub(ik_vec3_mad(origin, ik_mat4_column(m, p - 1), offset), want[p]));
        if (e > worst) {
            worst = e;
            if (worst_point) *worst_point = p;
        }
    }
    return IK_SQRT(worst);
}

ik_key_basis_sums ik_key_basis_sums_of(int span) {
    ik_key_basis_sums s;
    int i;
    s.s11 = s.s12 = s.s22 = 0;
    for (i = 1; i < span; ++i) {
        ik_real u = (ik_real)i / (ik_real)span, u2 = u * u, u3 = u2 * u;
        ik_real h10 = u3 - 2 * u2 + u, h11 = u3 - u2;
        s.s11 += h10 * h10;
        s.s12 += h10 * h11;
        s.s22 += h11 * h11;
    }
    /* a ridge far below the data's weight once two frames lie between */
    s.lambda = (ik_real)1e-4 * (s.s11 + s.s22) + (ik_real)1e-9;
    return s;
}

void ik_key_segment_fit(const ik_key_basis_sums *sums, const ik_real *y, int a, int b, ik_real *x0, ik_real *x1) {
    int span = b - a, i;
    ik_real ya = y[a], yb = y[b], chord = yb - ya, r1 = 0, r2 = 0, m11, m22, m12, det;
    /* normal equations [s11+l s12; s12 s22+l] x = [sum h10 r + l c; sum h11 r + l c],
     * r = y_f - h00 y_a - h01 y_b */
    for (i = 1; i < span; ++i) {
        ik_real u = (ik_real)i / (ik_real)span, u2 = u * u, u3 = u2 * u;
        ik_real r = y[a + i] - (2 * u3 - 3 * u2 + 1) * ya - (-2 * u3 + 3 * u2) * yb;
        r1 += (u3 - 2 * u2 + u) * r;
        r2 += (u3 - u2) * r;
    }
    m11 = sums->s11 + sums->lambda;
    m22 = sums->s22 + sums->lambda;
    m12 = sums->s12;
    r1 += sums->lambda * chord;
    r2 += sums->lambda * chord;
    det = m11 * m22 - m12 * m12;
    *x0 = (m22 * r1 - m12 * r2) / det;
    *x1 = (m11 * r2 - m12 * r1) / det;
}

ik_result ik_key_fit_validate(const ik_key_fit *job, size_t scratch_needed) {
    const ik_take *take;
    int i;
    if (!job) return IK_ERR_NULL;
    if (job->defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    if (!job->take || !job->skeleton || !job->take->poses_ls) return IK_ERR_NULL;
    take = job->take;
    if (take->frame_count < 2 || take->joint_count < 1 || take->joint_count != job->skeleton->joint_count)
        return IK_ERR_RANGE;
    if (!(take->frame_time > 0) || !ik_finite(take->frame_time)) return IK_ERR_RANGE;
    if (!(job->max_error > 0) || !ik_finite(job->max_error) || !(job->point_offset > 0) ||
        !ik_finite(job->point_offset))
        return IK_ERR_RANGE;
    if (job->forced_count < 0 || (job->forced_count > 0 && !job->forced_frames)) return IK_ERR_RANGE;
    for (i = 0; i < job->forced_count; ++i)
        if (job->forced_frames[i] < 0 || job->forced_frames[i] >= take->frame_count) return IK_ERR_RANGE;
    if (job->root_ms && !ik_mat4_finite(job->root_ms)) return IK_ERR_NONFINITE;
    if (!job->scratch) return IK_ERR_NULL;
    if (job->scratch_bytes < scratch_needed) return IK_ERR_CAPACITY;
    return ik_take_validate(take, NULL);
}

void ik_key_take_points(const ik_key_fit *job, ik_mat4 *model_ms, ik_vec3 *points) {
    const ik_take *take = job->take;
    int f;
    for (f = 0; f < take->frame_count; ++f) {
        ik_skeleton_fk(job->skeleton, ik_take_pose(take, f), job->root_ms, model_ms);
        ik_key_points_ms(model_ms, take->joint_count, job->point_offset,
                         points + (size_t)f * (size_t)take->joint_count * IK_KEY_POINTS);
    }
}

/* Sampling keyframed channels (glTF 2.0 animation sampler semantics). */
#include <ikit/clip.h>

int ik_channel_width(ik_channel_path path) { return path == IK_CHANNEL_ROTATION ? 4 : 3; }

ik_result ik_clip_validate(const ik_clip *clip, int joint_count, int *bad_channel) {
    int c, k, i;
    if (!clip) return IK_ERR_NULL;
    if (clip->channel_count < 0 || (clip->channel_count > 0 && !clip->channels)) return IK_ERR_RANGE;
    for (c = 0; c < clip->channel_count; ++c) {
        const ik_channel *ch = &clip->channels[c];
        int width = ik_channel_width(ch->path);
        int per_key = ch->interpolation == IK_INTERP_CUBICSPLINE ? 3 * width : width;
        if (bad_channel) *bad_channel = c;
        if (ch->joint < 0 || ch->joint >= joint_count || ch->key_count < 1) return IK_ERR_RANGE;
        if ((int)ch->path < 0 || (int)ch->path > IK_CHANNEL_SCALE || (int)ch->interpolation < 0 ||
            (int)ch->interpolation > IK_INTERP_CUBICSPLINE)
            return IK_ERR_RANGE;
        if (!ch->times || !ch->values) return IK_ERR_NULL;
        for (k = 0; k < ch->key_count; ++k) {
            if (!ik_finite(ch->times[k])) return IK_ERR_NONFINITE;
            if (k > 0 && ch->times[k] < ch->times[k - 1]) return IK_ERR_RANGE;
            for (i = 0; i < per_key; ++i)
                if (!ik_finite(ch->values[k * per_key + i])) return IK_ERR_NONFINITE;
        }
    }
    if (bad_channel) *bad_channel = -1;
    return IK_OK;
}

/* Index k of the last key with times[k] <= time (binary search). */
static int key_before(const ik_channel *ch, ik_real time) {
    int lo = 0, hi = ch->key_count - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (ch->times[mid] <= time)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static void copy_key(const ik_real *src, int width, ik_real *out) {
    int i;
    for (i = 0; i < width; ++i) out[i] = src[i];
}

static void normalize_rotation(ik_real *q) {
    ik_quat n = ik_quat_normalize(ik_q(q[0], q[1], q[2], q[3]));
    q[0] = n.x;
    q[1] = n.y;
    q[2] = n.z;
    q[3] = n.w;
}

/* Between keys k and k+1, u = (t - t_k) / (t_k+1 - t_k):
 *   LINEAR       v = (1-u) v_k + u v_k+1, rotations by slerp
 *   STEP         v = v_k
 *   CUBICSPLINE  v = (2u^3 - 3u^2 + 1) v_k + (u^3 - 2u^2 + u) d b_k
 *                  + (-2u^3 + 3u^2) v_k+1 + (u^3 - u^2) d a_k+1
 * with d = t_k+1 - t_k, b_k the out-tangent of key k and a_k+1 the in-tangent
 * of key k+1 (glTF 2.0 specification, Appendix C). */
void ik_channel_sample(const ik_channel *ch, ik_real time, ik_real *out) {
    int width = ik_channel_width(ch->path);
    int spline = ch->interpolation == IK_INTERP_CUBICSPLINE;
    int stride = spline ? 3 * width : width;
    int value_at = spline ? width : 0;
    int k, i;
    ik_real d, u;
    if (ch->key_count == 1 || !(time > ch->times[0])) {
        copy_key(ch->values + value_at, width, out);
        return;
    }
    if (time >= ch->times[ch->key_count - 1]) {
        copy_key(ch->values + (ch->key_count - 1) * stride + value_at, width, out);
        return;
    }
    k = key_before(ch, time);
    d = ch->times[k + 1] - ch->times[k];
    if (ch->interpolation == IK_INTERP_STEP || !(d > 0)) {
        copy_key(ch->values + k * stride + value_at, width, out);
        return;
    }
    u = (time - ch->times[k]) / d;
    if (!spline) {
        const ik_real *a = ch->values + k * stride, *b = a + stride;
        if (ch->path == IK_CHANNEL_ROTATION) {
            ik_quat q = ik_quat_slerp(ik_q(a[0], a[1], a[2], a[3]), ik_q(b[0], b[1], b[2], b[3]), u);
            out[0] = q.x;
            out[1] = q.y;
            out[2] = q.z;
            out[3] = q.w;
            return;
        }
        for (i = 0; i < width; ++i) out[i] = a[i] + (b[i] - a[i]) * u;
        return;
    }
    {
        const ik_real *key0 = ch->values + k * stride, *key1 = key0 + stride;
        ik_real u2 = u * u, u3 = u2 * u;
        ik_real h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
        ik_bool finite = 1;
        for (i = 0; i < width; ++i) {
            out[i] = h00 * key0[width + i] + h10 * d * key0[2 * width + i] + h01 * key1[width + i] + h11 * d * key1[i];
            finite = finite && ik_finite(out[i]);
        }
        /* Tangents that, times the key interval, pass the largest real
         * (finite keys all the same) would give inf or NaN: the segment is
         * then sampled linearly, which stays between its two values. */
        if (!finite)
            for (i = 0; i < width; ++i) out[i] = key0[width + i] + (key1[width + i] - key0[width + i]) * u;
        if (ch->path == IK_CHANNEL_ROTATION) normalize_rotation(out);
    }
}

void ik_clip_sample(const ik_clip *clip, ik_real time, ik_transform *pose_ls) {
    int c;
    for (c = 0; c < clip->channel_count; ++c) {
        const ik_channel *ch = &clip->channels[c];
        ik_real v[4];
        ik_transform *t = &pose_ls[ch->joint];
        ik_channel_sample(ch, time, v);
        if (ch->path == IK_CHANNEL_TRANSLATION)
            t->translation = ik_v3(v[0], v[1], v[2]);
        else if (ch->path == IK_CHANNEL_ROTATION)
            t->rotation = ik_q(v[0], v[1], v[2], v[3]);
        else
            t->scale = ik_v3(v[0], v[1], v[2]);
    }
}

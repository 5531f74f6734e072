/* Keys for seed 003's 2D editor: the planar chain's angles recorded at
 * times, played back as motion curves. Each bone's angle is one channel of
 * an ik_clip (anim layer), a CUBICSPLINE (Hermite) curve through the keys
 * with Catmull-Rom tangents,
 *   m_k = (alpha_k+1 - alpha_k-1) / (t_k+1 - t_k-1),
 * and flat tangents (m = 0) at the first and last key, so the motion eases
 * in and out (seed 003, "tangent curve optimization"; Catmull and Rom 1974).
 * The angle rides in the x of a translation channel: the clip only samples
 * numbers, and a planar angle needs no quaternion. */
#include <ikit/clip.h>

#include <string.h>

#include "ikit_web.h"

enum { MAX_KEYS = 64, MAX_BONES = 64, WIDTH = 3 };

static struct {
    int key_count, bone_count;
    ik_real times[MAX_KEYS];
    ik_real angles[MAX_KEYS][MAX_BONES];
    /* per bone: key_count keys of (in-tangent, value, out-tangent), WIDTH each */
    ik_real values[MAX_BONES][MAX_KEYS * 3 * WIDTH];
    ik_channel channels[MAX_BONES];
    ik_real sampled[MAX_BONES];
} keys;

/* Rebuild every bone's curve from the keys. */
static void build_curves(void) {
    int b, k;
    for (b = 0; b < keys.bone_count; ++b) {
        ik_real *v = keys.values[b];
        memset(v, 0, sizeof keys.values[b]);
        for (k = 0; k < keys.key_count; ++k) {
            ik_real m = 0;
            if (k > 0 && k + 1 < keys.key_count)
                m = (keys.angles[k + 1][b] - keys.angles[k - 1][b]) / (keys.times[k + 1] - keys.times[k - 1]);
            v[k * 3 * WIDTH] = m;             /* in-tangent */
            v[k * 3 * WIDTH + WIDTH] = keys.angles[k][b];
            v[k * 3 * WIDTH + 2 * WIDTH] = m; /* out-tangent */
        }
        keys.channels[b].joint = b;
        keys.channels[b].path = IK_CHANNEL_TRANSLATION;
        keys.channels[b].interpolation = IK_INTERP_CUBICSPLINE;
        keys.channels[b].key_count = keys.key_count;
        keys.channels[b].times = keys.times;
        keys.channels[b].values = v;
    }
}

IKW_EXPORT(ikw_planar_keys_clear) void ikw_planar_keys_clear(void) { keys.key_count = 0; }
IKW_EXPORT(ikw_planar_key_count) int ikw_planar_key_count(void) { return keys.key_count; }
IKW_EXPORT(ikw_planar_key_time) float ikw_planar_key_time(int k) {
    return k >= 0 && k < keys.key_count ? (float)keys.times[k] : -1;
}

/* Record the current angles of `bone_count` bones as a key at `time` (>= 0,
 * finite), replacing a key within 1 ms of it. A different bone count than
 * the keys so far starts over. Returns the key count, or -1 when full or
 * the time is bad. */
IKW_EXPORT(ikw_planar_key) int ikw_planar_key(int bone_count, float time) {
    const ik_real *angles = ikw_planar_angles();
    int k = 0, at;
    if (bone_count < 1 || bone_count > MAX_BONES || !(time >= 0 && time < 1e6f)) return -1;
    if (bone_count != keys.bone_count) keys.key_count = 0;
    keys.bone_count = bone_count;
    while (k < keys.key_count && keys.times[k] < time - 1e-3f) ++k;
    at = k;
    if (!(k < keys.key_count && keys.times[k] <= time + 1e-3f)) {
        if (keys.key_count == MAX_KEYS) return -1;
        memmove(&keys.times[k + 1], &keys.times[k], (size_t)(keys.key_count - k) * sizeof keys.times[0]);
        memmove(&keys.angles[k + 1], &keys.angles[k], (size_t)(keys.key_count - k) * sizeof keys.angles[0]);
        ++keys.key_count;
    }
    keys.times[at] = time;
    memcpy(keys.angles[at], angles, (size_t)bone_count * sizeof angles[0]);
    build_curves();
    return keys.key_count;
}

/* The curves at `time` into ikw_planar_sampled() [bone_count]; 0 keys: -1. */
IKW_EXPORT(ikw_planar_sampled) const ik_real *ikw_planar_sampled(void) { return keys.sampled; }
IKW_EXPORT(ikw_planar_sample) int ikw_planar_sample(float time) {
    int b;
    ik_real out[WIDTH];
    if (keys.key_count == 0) return -1;
    for (b = 0; b < keys.bone_count; ++b) {
        ik_channel_sample(&keys.channels[b], time, out);
        keys.sampled[b] = out[0];
    }
    return keys.bone_count;
}

/* Pose the chain at `time`: the sampled angles become the chain's angles,
 * then forward kinematics from (base_x, base_y). */
IKW_EXPORT(ikw_planar_pose_at) int ikw_planar_pose_at(float time, float base_x, float base_y) {
    int n = ikw_planar_sample(time);
    if (n < 0) return -1;
    memcpy(ikw_planar_angles(), keys.sampled, (size_t)n * sizeof keys.sampled[0]);
    return ikw_planar_fk(n, base_x, base_y);
}

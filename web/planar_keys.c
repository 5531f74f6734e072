/* Keys for seed 003's 2D editor: the planar chain's angles recorded at
 * times, played back as motion curves. Each bone's angle is one channel of
 * an ik_clip (anim layer), a CUBICSPLINE (Hermite) curve through the keys
 * with Catmull-Rom tangents,
 *   m_k = (alpha_k+1 - alpha_k-1) / (t_k+1 - t_k-1),
 * and flat tangents (m = 0) at the first and last key, so the motion eases
 * in and out (seed 003, "tangent curve optimization"; Catmull and Rom 1974).
 * A tangent set by hand (the page drags its handle) replaces the computed
 * one for that key and bone until the key is recorded again or the
 * tangents are reset; its in and out slopes may differ (a broken tangent).
 * Tangents are slopes in radians per second, as glTF's CUBICSPLINE takes
 * them (the sampler multiplies them by the interval's length).
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
    ik_bool edited[MAX_KEYS][MAX_BONES];    /* the tangents below were set by hand */
    ik_real slopes[MAX_KEYS][MAX_BONES][2]; /* hand-set in and out slopes */
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
            v[k * 3 * WIDTH] = keys.edited[k][b] ? keys.slopes[k][b][0] : m; /* in-tangent */
            v[k * 3 * WIDTH + WIDTH] = keys.angles[k][b];
            v[k * 3 * WIDTH + 2 * WIDTH] = keys.edited[k][b] ? keys.slopes[k][b][1] : m; /* out-tangent */
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
        memmove(&keys.edited[k + 1], &keys.edited[k], (size_t)(keys.key_count - k) * sizeof keys.edited[0]);
        memmove(&keys.slopes[k + 1], &keys.slopes[k], (size_t)(keys.key_count - k) * sizeof keys.slopes[0]);
        ++keys.key_count;
    }
    keys.times[at] = time;
    memset(keys.edited[at], 0, sizeof keys.edited[at]);
    memcpy(keys.angles[at], angles, (size_t)bone_count * sizeof angles[0]);
    build_curves();
    return keys.key_count;
}

/* Set key `key`'s tangent on bone `bone`'s curve by hand: the slopes (radians
 * per second) the curve arrives with and leaves with. 0, or -1 for a key or
 * bone out of range or a slope that is not finite. */
IKW_EXPORT(ikw_planar_tangent) int ikw_planar_tangent(int key, int bone, float in_slope, float out_slope) {
    if (key < 0 || key >= keys.key_count || bone < 0 || bone >= keys.bone_count) return -1;
    if (!(in_slope > -1e6f && in_slope < 1e6f && out_slope > -1e6f && out_slope < 1e6f)) return -1;
    keys.edited[key][bone] = 1;
    keys.slopes[key][bone][0] = in_slope;
    keys.slopes[key][bone][1] = out_slope;
    build_curves();
    return 0;
}

/* 1 when key `key`'s tangent on bone `bone` was set by hand (the page keeps
 * those in its link), 0 when computed or out of range. */
IKW_EXPORT(ikw_planar_tangent_is_set) int ikw_planar_tangent_is_set(int key, int bone) {
    return key >= 0 && key < keys.key_count && bone >= 0 && bone < keys.bone_count && keys.edited[key][bone];
}

/* Every tangent back to the computed ones (Catmull-Rom, flat ends). */
IKW_EXPORT(ikw_planar_tangents_auto) void ikw_planar_tangents_auto(void) {
    memset(keys.edited, 0, sizeof keys.edited);
    build_curves();
}

/* Bone `bone`'s curve as the clip holds it: key_count keys of (in-tangent,
 * value, out-tangent), each WIDTH numbers of which the first is the angle's;
 * NULL for a bone out of range. */
IKW_EXPORT(ikw_planar_curve) const ik_real *ikw_planar_curve(int bone) {
    return bone >= 0 && bone < keys.bone_count ? keys.values[bone] : NULL;
}
IKW_EXPORT(ikw_planar_curve_stride) int ikw_planar_curve_stride(void) { return WIDTH; }

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

/* ozz-animation's IKTwoBoneJob and IKAimJob called the way its samples call
 * them (ozz_peer.h). */
#include "ozz_peer.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include "ozz/animation/runtime/ik_aim_job.h"
#include "ozz/animation/runtime/ik_two_bone_job.h"
#include "ozz/base/maths/simd_math.h"
#include "ozz/base/maths/simd_quaternion.h"

namespace math = ozz::math;

static_assert(sizeof(ik_mat4) == sizeof(math::Float4x4), "ik_mat4 must be ozz's Float4x4 in memory (float build)");
static_assert(sizeof(ik_quat) == 4 * sizeof(float), "ik_quat must be four floats (float build)");

struct ozz_rotations {
    math::SimdQuaternion *q;
    int count;
};

ozz_rotations *ozz_rotations_new(int count) {
    ozz_rotations *r = new (std::nothrow) ozz_rotations;
    if (!r) return nullptr;
    r->count = count;
    r->q = static_cast<math::SimdQuaternion *>(std::aligned_alloc(16, sizeof(math::SimdQuaternion) * (count + 1)));
    if (!r->q) {
        delete r;
        return nullptr;
    }
    for (int i = 0; i < count; ++i) r->q[i] = math::SimdQuaternion::identity();
    return r;
}

void ozz_rotation_set(ozz_rotations *r, int i, ik_quat q) { r->q[i].xyzw = math::simd_float4::Load(q.x, q.y, q.z, q.w); }

void ozz_rotations_free(ozz_rotations *r) {
    if (!r) return;
    std::free(r->q);
    delete r;
}

float ozz_rotation_w(const ozz_rotations *r, int i) { return math::GetW(r->q[i].xyzw); }

int ozz_two_bone_pass(const peer_limb *limbs, int count, ozz_rotations *rotations) {
    int failures = 0;
    for (int i = 0; i < count; ++i) {
        const peer_limb &l = limbs[i];
        math::SimdQuaternion start_correction, mid_correction;
        bool reached;
        ozz::animation::IKTwoBoneJob job;
        job.target = math::simd_float4::Load3PtrU(&l.target_ms.x);
        job.pole_vector = math::simd_float4::Load3PtrU(&l.pole_from_start_ms.x);
        job.start_joint = reinterpret_cast<const math::Float4x4 *>(&l.start_ms);
        job.mid_joint = reinterpret_cast<const math::Float4x4 *>(&l.mid_ms);
        job.end_joint = reinterpret_cast<const math::Float4x4 *>(&l.end_ms);
        job.start_joint_correction = &start_correction;
        job.mid_joint_correction = &mid_correction;
        job.reached = &reached;
        failures += !job.Run();
        rotations->q[2 * i] = rotations->q[2 * i] * start_correction;
        rotations->q[2 * i + 1] = rotations->q[2 * i + 1] * mid_correction;
    }
    return failures;
}

int ozz_aim_pass(const peer_head *heads, int count, ik_vec3 offset, ozz_rotations *rotations) {
    int failures = 0;
    const math::SimdFloat4 offset_ls = math::simd_float4::Load3PtrU(&offset.x);
    for (int i = 0; i < count; ++i) {
        const peer_head &h = heads[i];
        math::SimdQuaternion correction;
        bool reached;
        ozz::animation::IKAimJob job;
        job.target = math::simd_float4::Load3PtrU(&h.target_ms.x);
        job.forward = math::simd_float4::z_axis();
        job.up = math::simd_float4::y_axis();
        job.offset = offset_ls;
        job.pole_vector = math::simd_float4::Load3PtrU(&h.pole_ms.x);
        job.joint = reinterpret_cast<const math::Float4x4 *>(&h.joint_ms);
        job.joint_correction = &correction;
        job.reached = &reached;
        failures += !job.Run();
        rotations->q[i] = rotations->q[i] * correction;
    }
    return failures;
}

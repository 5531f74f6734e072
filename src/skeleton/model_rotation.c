/* A joint turned by a model-space rotation, written into its local pose:
 * exact under uniformly scaled parents, mirrored ones included (the frames
 * and D of include/ikit/skeleton.h). */
#include <ikit/skeleton.h>

/* M = P L: M's linear part is s F R S (R, S the local rotation and
 * scale), and q s F R S = s F (F^-1 q F) R S, so R takes F^-1 q F on its
 * left, a proper rotation either way: W^-1 q W for a proper parent
 * (F = W), D (W^-1 q W) D for a mirrored one (F = W D). No parent and no
 * root_ms: F = I. */
void ik_skeleton_turn_joint_ms(const ik_skeleton *skeleton, int joint, ik_quat turn_ms, const ik_mat4 *root_ms,
                               ik_transform *pose_ls, const ik_mat4 *model_ms) {
    int p = skeleton->parents[joint];
    const ik_mat4 *parent = p >= 0 ? &model_ms[p] : root_ms;
    ik_transform *t = &pose_ls[joint];
    ik_quat w, local;
    if (!parent) {
        t->rotation = ik_quat_normalize(ik_quat_mul(turn_ms, t->rotation));
        return;
    }
    w = ik_mat4_rotation(parent);
    local = ik_quat_mul(ik_quat_conjugate(w), ik_quat_mul(turn_ms, w));
    if (ik_mat4_det3(parent) < 0) local = ik_skeleton_mirrored_turn(local);
    t->rotation = ik_quat_normalize(ik_quat_mul(local, t->rotation));
}

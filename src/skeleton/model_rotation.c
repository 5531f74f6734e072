/* Model-space rotations written into local poses and read back out of
 * them, exact under uniformly scaled parents, mirrored ones included
 * (the frames and D of include/ikit/skeleton.h). */
#include <ikit/skeleton.h>

/* D q D: the rotation q seen through the mirror D = diag(-1, 1, 1). */
static ik_quat mirrored(ik_quat q) { return ik_q(q.x, -q.y, -q.z, q.w); }

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
    if (ik_mat4_det3(parent) < 0) local = mirrored(local);
    t->rotation = ik_quat_normalize(ik_quat_mul(local, t->rotation));
}

/* The proper part E of a scale's signs, diag(sgn S) = E D^o: the signs
 * with x's flipped when an odd number are negative leave none or two
 * negative, I or the half turn about the positive axis (quaternion: that
 * axis's component 1). Returns 0 for E = I. */
static ik_bool sign_turn(ik_vec3 scale, ik_quat *e) {
    ik_bool nx = scale.x < 0, ny = scale.y < 0, nz = scale.z < 0;
    if ((nx + ny + nz) & 1) nx = !nx;
    if (!nx && !ny && !nz) return 0;
    *e = ik_q(!nx, !ny, !nz, 0);
    return 1;
}

/* With P = s W_p D^e and L = R E D^o |S|, M = s W_p D^e R E D^o |S|, whose
 * determinant's sign is (-1)^(e + o); ik_mat4_rotation reads the rotation
 * of M D^(e + o) = s W_p D^e R E D^e |S|, that is W_p (D^e R E D^e). */
ik_quat ik_skeleton_rotation_ms(ik_quat parent_ms, ik_bool parent_mirrored, ik_quat rotation_ls, ik_vec3 scale_ls) {
    ik_quat e, local = rotation_ls;
    if (sign_turn(scale_ls, &e)) local = ik_quat_mul(local, e);
    if (parent_mirrored) local = mirrored(local);
    return ik_quat_mul(parent_ms, local);
}

/* W = W_p D^e R E D^e solved for R: R = D^e W_p^-1 W D^e E^-1 (E^-1 = E,
 * a half turn, up to the quaternion's sign). */
ik_quat ik_skeleton_rotation_ls(ik_quat parent_ms, ik_bool parent_mirrored, ik_quat rotation_ms, ik_vec3 scale_ls) {
    ik_quat e, local = ik_quat_mul(ik_quat_conjugate(parent_ms), rotation_ms);
    if (parent_mirrored) local = mirrored(local);
    if (sign_turn(scale_ls, &e)) local = ik_quat_mul(local, e);
    return local;
}

/* The natural bend of limbs found by name (see limb_bend.h). */
#include <stdlib.h>
#include <string.h>

#include "limb_bend.h"

/* Rest positions in root space (the identity above the roots). */
static ik_vec3 rest_position_rs(const ik_skeleton *s, int joint) {
    ik_vec3 p = ik_vec3_zero();
    for (; joint >= 0; joint = s->parents[joint]) p = ik_transform_point(s->rest_ls[joint], p);
    return p;
}

static int is_kind(const ik_named_chain *c, const char *kind) { return c->count == 3 && strcmp(c->kind, kind) == 0; }

ikc_figure ikc_figure_axes(const ik_asset *asset, const ik_named_chain *chains, int chain_count) {
    const ik_skeleton *s = asset->skeleton;
    ikc_figure f;
    ik_humanoid_map map;
    ik_humanoid rig;
    ik_vec3 up = ik_vec3_zero(), forward = ik_vec3_zero();
    int feet[IKC_MAX_CHAINS], foot_count = 0, head = -1, c, humanoid, known;
    memset(&f, 0, sizeof f);
    humanoid = ik_humanoid_map_find(s, NULL, 0, &map) == IK_OK && ik_humanoid_init(&rig, s, &map) == IK_OK;
    for (c = 0; c < chain_count; ++c) {
        if (is_kind(&chains[c], "leg")) {
            up = ik_vec3_add(up, ik_vec3_normalize_or(ik_vec3_sub(rest_position_rs(s, chains[c].joints[0]),
                                                                  rest_position_rs(s, chains[c].joints[2])),
                                                      ik_vec3_zero()));
            feet[foot_count++] = chains[c].joints[2];
        } else if (strcmp(chains[c].kind, "spine") == 0 && head < 0) {
            head = chains[c].joints[chains[c].count - 1];
        }
    }
    if (humanoid) head = map.joint[IK_ROLE_HEAD];
    if (ik_vec3_length_sq(up) > 0)
        up = ik_vec3_normalize(up);
    else if (humanoid)
        up = rig.up_rs;
    else if (head >= 0)
        up = ik_vec3_normalize_or(rest_position_rs(s, head), ik_v3(0, 1, 0));
    else
        up = ik_v3(0, 1, 0);
    known = ik_figure_forward(s, feet, foot_count, head, up, &forward);
    if (!known && humanoid) {
        forward = ik_vec3_normalize_or(ik_vec3_reject(rig.forward_rs, up), rig.forward_rs);
        known = 1;
    }
    if (!known) return f;
    f.known = 1;
    f.up_ms = ik_vec3_normalize(ik_mat4_transform_vector(&asset->root_ms, up));
    f.forward_ms = ik_vec3_normalize(ik_mat4_transform_vector(&asset->root_ms, forward));
    return f;
}

/* The hinge is worked out in model space (root_ms applied): a mirroring
 * root_ms turns u x v around. ik_two_bone measures the bend in the middle
 * joint's own frame, so where that frame is mirrored (a negative
 * determinant) the local axis is -M^-1 h: a turn about M^-1 h is a turn the
 * other way about h, and the limb would reach the pole only by rolling
 * half a turn about its hip (a mirrored glTF's toes pointed backward). For a
 * figure whose forward is unknown, the rest bend alone: the middle joint's
 * rest offset k off the start-to-end line stands in for forward (a knee
 * points forward, an elbow back), so ik_limb_hinge keeps the rest plane when
 * bent over 2 degrees; a straight limb then has no natural bend. */
int ikc_limb_hinge_ls(const ik_asset *asset, const ikc_figure *figure, const ik_named_chain *limb, ik_vec3 *hinge_ls) {
    const ik_skeleton *s = asset->skeleton;
    ik_transform *pose;
    ik_mat4 *model, mid_inverse;
    ik_vec3 a, b, c, forward, up;
    int ok, knee = is_kind(limb, "leg");
    if (asset->chain_file || !(knee || is_kind(limb, "arm"))) return 0;
    pose = (ik_transform *)malloc((size_t)s->joint_count * sizeof *pose);
    model = (ik_mat4 *)malloc((size_t)s->joint_count * sizeof *model);
    ok = pose && model;
    if (ok) {
        ik_skeleton_rest_pose(s, pose);
        ik_skeleton_fk(s, pose, &asset->root_ms, model);
        a = ik_mat4_translation(&model[limb->joints[0]]);
        b = ik_mat4_translation(&model[limb->joints[1]]);
        c = ik_mat4_translation(&model[limb->joints[2]]);
        forward = figure->forward_ms;
        up = figure->up_ms;
        if (!figure->known) {
            ik_vec3 k = ik_vec3_reject(ik_vec3_sub(b, a), ik_vec3_normalize_or(ik_vec3_sub(c, a), ik_vec3_zero()));
            forward = ik_vec3_normalize_or(knee ? k : ik_vec3_neg(k), ik_vec3_zero());
            up = ik_vec3_zero();
            ok = ik_vec3_length_sq(forward) > 0 &&
                 ik_vec3_length_sq(ik_vec3_cross(ik_vec3_sub(b, a), ik_vec3_sub(c, b))) >
                     (ik_real)1.2e-3 * ik_vec3_length_sq(ik_vec3_sub(b, a)) * ik_vec3_length_sq(ik_vec3_sub(c, b));
        }
        ok = ok && ik_mat4_inverse(&model[limb->joints[1]], &mid_inverse);
        if (ok)
            *hinge_ls =
                ik_vec3_normalize(ik_mat4_transform_turn_axis(&mid_inverse, ik_limb_hinge(a, b, c, forward, up, knee)));
    }
    free(pose);
    free(model);
    return ok;
}

/* The natural bend of limbs found by name (see limb_bend.h). */
#include <ikit/humanoid.h>
#include <ikit/limb_bend.h>

#include <string.h>

/* Rest positions in root space (the identity above the roots). */
static ik_vec3 rest_position_rs(const ik_skeleton *s, int joint) {
    ik_vec3 p = ik_vec3_zero();
    for (; joint >= 0; joint = s->parents[joint]) p = ik_transform_point(s->rest_ls[joint], p);
    return p;
}

static int is_kind(const ik_named_chain *c, const char *kind) {
    return c->count == 3 && c->kind && strcmp(c->kind, kind) == 0;
}

/* 1 when every joint of `c` is one of the skeleton's, else 0 with a message. */
static int chain_inside(const ik_skeleton *s, const ik_named_chain *c, ik_error *error) {
    int k;
    if (c->count < 1 || c->count > IK_NAMED_CHAIN_MAX_JOINTS) {
        ik_error_set(error, 0, 0, -1, "a chain of %d joints (1 to %d)", c->count, IK_NAMED_CHAIN_MAX_JOINTS);
        return 0;
    }
    for (k = 0; k < c->count; ++k)
        if (c->joints[k] < 0 || c->joints[k] >= s->joint_count) {
            ik_error_set(error, 0, 0, -1, "chain joint %d is %d, not a joint of the skeleton (0 to %d)", k,
                         c->joints[k], s->joint_count - 1);
            return 0;
        }
    return 1;
}

/* Up: the mean of the legs' unit directions from ankle to hip at rest,
 * else the humanoid's up, else root to head, else +y. Forward: ik_figure_forward
 * from the feet or the face, else the humanoid's, square to up. Both in root
 * space, then carried by root_ms. */
ik_result ik_limb_bend_axes(const ik_skeleton *skeleton, const ik_mat4 *root_ms, const ik_named_chain *chains,
                            int chain_count, ik_figure_axes *out, ik_error *error) {
    const ik_skeleton *s = skeleton;
    ik_mat4 root = root_ms ? *root_ms : ik_mat4_identity();
    ik_figure_axes f;
    ik_humanoid_map map;
    ik_humanoid rig;
    ik_vec3 up = ik_vec3_zero(), forward = ik_vec3_zero();
    int feet[32], foot_count = 0, head = -1, c, humanoid, known;
    ik_error_clear(error);
    if (!s || !out || (chain_count > 0 && !chains)) {
        ik_error_set(error, 0, 0, -1, "%s is NULL", !s ? "the skeleton" : !out ? "the output" : "the chains");
        return IK_ERR_NULL;
    }
    if (!ik_mat4_finite(&root)) {
        ik_error_set(error, 0, 0, -1, "root_ms holds NaN or an infinite value");
        return IK_ERR_NONFINITE;
    }
    for (c = 0; c < chain_count; ++c)
        if (!chain_inside(s, &chains[c], error)) return IK_ERR_RANGE;
    memset(&f, 0, sizeof f);
    humanoid = ik_humanoid_map_find(s, NULL, 0, &map) == IK_OK && ik_humanoid_init(&rig, s, &map) == IK_OK;
    for (c = 0; c < chain_count; ++c) {
        if (is_kind(&chains[c], "leg") && foot_count < (int)(sizeof feet / sizeof feet[0])) {
            up = ik_vec3_add(up, ik_vec3_normalize_or(ik_vec3_sub(rest_position_rs(s, chains[c].joints[0]),
                                                                  rest_position_rs(s, chains[c].joints[2])),
                                                      ik_vec3_zero()));
            feet[foot_count++] = chains[c].joints[2];
        } else if (chains[c].kind && strcmp(chains[c].kind, "spine") == 0 && head < 0) {
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
    if (known) {
        f.known = 1;
        f.up_ms = ik_vec3_normalize(ik_mat4_transform_vector(&root, up));
        f.forward_ms = ik_vec3_normalize(ik_mat4_transform_vector(&root, forward));
    }
    *out = f;
    return IK_OK;
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
ik_result ik_limb_bend_hinge(const ik_skeleton *skeleton, const ik_mat4 *rest_model_ms, const ik_figure_axes *figure,
                             const ik_named_chain *limb, ik_vec3 *hinge_ls, ik_error *error) {
    const ik_mat4 *model = rest_model_ms;
    ik_mat4 mid_inverse;
    ik_vec3 a, b, c, forward, up;
    int k, knee;
    ik_error_clear(error);
    if (!skeleton || !rest_model_ms || !figure || !limb || !hinge_ls) {
        ik_error_set(error, 0, 0, -1, "a required pointer is NULL");
        return IK_ERR_NULL;
    }
    if (!chain_inside(skeleton, limb, error)) return IK_ERR_RANGE;
    knee = is_kind(limb, "leg");
    if (!(knee || is_kind(limb, "arm"))) {
        ik_error_set(error, 0, 0, -1, "a chain of kind '%s' and %d joints is no three-joint leg or arm",
                     limb->kind ? limb->kind : "(none)", limb->count);
        return IK_ERR_NOT_FOUND;
    }
    for (k = 0; k < 3; ++k)
        if (!ik_mat4_finite(&model[limb->joints[k]])) {
            ik_error_set(error, 0, 0, -1, "the rest pose of joint %d holds NaN or an infinite value", limb->joints[k]);
            return IK_ERR_NONFINITE;
        }
    a = ik_mat4_translation(&model[limb->joints[0]]);
    b = ik_mat4_translation(&model[limb->joints[1]]);
    c = ik_mat4_translation(&model[limb->joints[2]]);
    forward = figure->forward_ms;
    up = figure->up_ms;
    if (!figure->known) {
        ik_vec3 off = ik_vec3_reject(ik_vec3_sub(b, a), ik_vec3_normalize_or(ik_vec3_sub(c, a), ik_vec3_zero()));
        forward = ik_vec3_normalize_or(knee ? off : ik_vec3_neg(off), ik_vec3_zero());
        up = ik_vec3_zero();
        if (!(ik_vec3_length_sq(forward) > 0 &&
              ik_vec3_length_sq(ik_vec3_cross(ik_vec3_sub(b, a), ik_vec3_sub(c, b))) >
                  (ik_real)1.2e-3 * ik_vec3_length_sq(ik_vec3_sub(b, a)) * ik_vec3_length_sq(ik_vec3_sub(c, b)))) {
            ik_error_set(error, 0, 0, -1, "the limb is straight at rest and the figure faces nowhere known");
            return IK_ERR_NOT_FOUND;
        }
    }
    if (!ik_mat4_inverse(&model[limb->joints[1]], &mid_inverse)) {
        ik_error_set(error, 0, 0, -1, "the middle joint's rest frame (joint %d) is singular", limb->joints[1]);
        return IK_ERR_DEGENERATE;
    }
    *hinge_ls = ik_vec3_normalize(ik_mat4_transform_turn_axis(&mid_inverse, ik_limb_hinge(a, b, c, forward, up, knee)));
    return IK_OK;
}

/* The bend about the rest hinge within [0, IK_LIMB_BEND_MAX_DEG], and the
 * pole that keeps the limb in its hinge's plane as the end swings: the bend
 * is positive about h in the middle joint's own frame M, which a mirror
 * turns round, hence the model-space hinge sgn(det M) M h. */
ik_result ik_limb_bend_two_bone(ik_two_bone *job, const ik_mat4 *model_ms, const int joints[3], ik_vec3 hinge_ls,
                                ik_error *error) {
    ik_vec3 a, b, c, hinge_ms;
    ik_error_clear(error);
    if (!job || !model_ms || !joints) {
        ik_error_set(error, 0, 0, -1, "a required pointer is NULL");
        return IK_ERR_NULL;
    }
    a = ik_mat4_translation(&model_ms[joints[0]]);
    b = ik_mat4_translation(&model_ms[joints[1]]);
    c = ik_mat4_translation(&model_ms[joints[2]]);
    hinge_ms = ik_mat4_transform_turn_axis(&model_ms[joints[1]], hinge_ls);
    if (!ik_vec3_finite(a) || !ik_vec3_finite(b) || !ik_vec3_finite(c) || !ik_vec3_finite(job->target_ms) ||
        !ik_vec3_finite(hinge_ms)) {
        ik_error_set(error, 0, 0, -1, "a joint position, the target or the hinge holds NaN or an infinite value");
        return IK_ERR_NONFINITE;
    }
    if (!(ik_vec3_length_sq(hinge_ls) > 0)) {
        ik_error_set(error, 0, 0, -1, "a zero hinge axis");
        return IK_ERR_DEGENERATE;
    }
    job->use_hinge = 1;
    job->hinge_axis_ls = hinge_ls;
    job->min_bend = 0;
    job->max_bend = ik_rad(IK_LIMB_BEND_MAX_DEG);
    job->use_pole = 1;
    job->pole_ms =
        ik_limb_natural_pole(a, b, c, job->target_ms, hinge_ms, ik_vec3_distance(a, b) + ik_vec3_distance(b, c));
    return IK_OK;
}

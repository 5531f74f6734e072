/* Plain words for a target's failure (see solve_explain.h). */
#include <stdio.h>

#include "solve_explain.h"

static ik_real bone(const ik_mat4 *model_ms, int a, int b) {
    return ik_vec3_distance(ik_mat4_translation(&model_ms[a]), ik_mat4_translation(&model_ms[b]));
}

/* A frame is singular when det^2 <= 1e-12 |c0|^2 |c1|^2 |c2|^2 (two_bone.c's
 * test), or a column is zero. */
static int singular(const ik_mat4 *m) {
    ik_real c0 = ik_vec3_length_sq(ik_v3(m->m[0], m->m[1], m->m[2]));
    ik_real c1 = ik_vec3_length_sq(ik_v3(m->m[4], m->m[5], m->m[6]));
    ik_real c2 = ik_vec3_length_sq(ik_v3(m->m[8], m->m[9], m->m[10]));
    ik_real det = ik_mat4_det3(m);
    return !(c0 > 0 && c1 > 0 && c2 > 0) || !(det * det > (ik_real)1e-12 * c0 * c1 * c2);
}

/* The first joint of the chain (root-first) with a singular frame: the
 * joints below it inherit it, so it is the one to name. */
void ikc_explain_degenerate(const ik_skeleton *s, const ik_mat4 *model_ms, const int *chain, int count, char *out,
                            size_t size) {
    size_t used;
    int k, n;
    if (size == 0) return;
    for (k = 0; k < count; ++k)
        if (singular(&model_ms[chain[k]])) {
            snprintf(out, size, "joint '%s' has a zero scale (its frame and those below it are singular)",
                     ik_skeleton_name(s, chain[k]));
            return;
        }
    for (k = 0; k + 1 < count; ++k)
        if (!(bone(model_ms, chain[k], chain[k + 1]) > 0)) {
            snprintf(out, size, "the bone from '%s' to '%s' has zero length", ik_skeleton_name(s, chain[k]),
                     ik_skeleton_name(s, chain[k + 1]));
            return;
        }
    n = snprintf(out, size, "in the chain ");
    used = n > 0 ? (size_t)n : 0;
    for (k = 0; k < count && used < size; ++k) {
        n = snprintf(out + used, size - used, "%s'%s'", k ? " > " : "", ik_skeleton_name(s, chain[k]));
        if (n < 0) return;
        used += (size_t)n;
    }
}

/* The nearest a chain of free joints folds its end to its first joint: the
 * longest bone less all the others, 2 max - sum, or 0. With one middle joint
 * bent at most b, the law of cosines: |end - start|^2 >= l1^2 + l2^2 +
 * 2 l1 l2 cos(b). */
void ikc_explain_short(const ik_skeleton *s, const ik_mat4 *model_ms, const int *chain, int count, ik_vec3 target,
                       ik_real max_bend, char *out, size_t size) {
    ik_real sum = 0, longest = 0, d = ik_vec3_distance(ik_mat4_translation(&model_ms[chain[0]]), target);
    int k;
    for (k = 0; k + 1 < count; ++k) {
        ik_real l = bone(model_ms, chain[k], chain[k + 1]);
        sum += l;
        longest = ik_maxr(longest, l);
    }
    if (count == 2) {
        snprintf(out, size,
                 "a single bone can only turn: the target is %.4g from '%s', the bone to '%s' is %.4g long; "
                 "give --chain 3 or more to bend",
                 (double)d, ik_skeleton_name(s, chain[0]), ik_skeleton_name(s, chain[1]), (double)sum);
        return;
    }
    if (count == 3 && max_bend > 0) {
        ik_real l1 = bone(model_ms, chain[0], chain[1]), l2 = bone(model_ms, chain[1], chain[2]);
        ik_real nearest = IK_SQRT(ik_maxr(l1 * l1 + l2 * l2 + 2 * l1 * l2 * IK_COS(max_bend), 0));
        if (d < nearest * (ik_real)1.001) {
            snprintf(out, size,
                     "'%s' bends at most %.0f degrees, so '%s' stays %.4g or more from '%s' (give --pole to bend "
                     "it freely)",
                     ik_skeleton_name(s, chain[1]), (double)ik_deg(max_bend), ik_skeleton_name(s, chain[2]),
                     (double)nearest, ik_skeleton_name(s, chain[0]));
            return;
        }
    }
    if (d < 2 * longest - sum)
        snprintf(out, size, "the target is %.4g from '%s', nearer than the chain folds (%.4g)", (double)d,
                 ik_skeleton_name(s, chain[0]), (double)(2 * longest - sum));
    else
        snprintf(out, size, "stopped short: limits or iterations");
}

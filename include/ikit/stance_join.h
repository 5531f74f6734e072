/* ikit stance join: the whole stance held, for a clean-up or a retarget
 * that holds contacts chosen elsewhere (the source's, or the input's).
 *
 * On the result of such a pass, the contacts an outside reader finds
 * (ik_ground_slide at its 60 Hz samples, as such a reader samples, with
 * 25 % more room in height and speed than its defaults, so their edges
 * are taken in; every frame of a 120 Hz take, with speeds over half the
 * interval, missed a 5.2 mm contact 131_02's clean-up then kept) that still slide over a
 * tolerance join the contacts meant to be held, each for its foot's toe
 * (a toe-less ankle's ball, a virtual toe; a virtual ankle itself): the
 * point's one contact it overlaps or
 * touches grows to cover it, its spot kept; several such become one, held
 * where the result stood on average (the input moved the foot between
 * them, the result's foot stood, and an outside reader saw one contact
 * sliding); with none it is added there. The caller then runs its pass
 * again from the input on the joined list, a few rounds, keeping the
 * round that slid least.
 *
 * Core layer: no allocation (the caller's scratch), builds for wasm32.
 */
#ifndef IKIT_STANCE_JOIN_H
#define IKIT_STANCE_JOIN_H

#include <stddef.h>

#include <ikit/foot_contacts.h>
#include <ikit/humanoid.h>
#include <ikit/math.h>
#include <ikit/result.h>
#include <ikit/take.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ik_stance_join {
    const ik_humanoid *rig;
    const ik_take *take;       /* the result of the pass */
    const ik_mat4 *root_ms;    /* model space to the contacts' space (a file's root above the
                                  skeleton); NULL: identity */
    ik_real metre;             /* units per metre of the contacts' space (> 0): ik_foot_metre,
                                  or a file's own (1 for glTF under its root) */
    ik_real tolerance;         /* a slide over this joins, model units; 0 (default): a millimetre */
    ik_bool join;              /* 1 (default): join; 0: only measure (*worst) */
    ik_foot_contact *contacts; /* in/out: the contacts meant to be held, in order of start, each
                                  point's disjoint */
    int *count;                /* in/out */
    int capacity;              /* of contacts; 2 * frame_count always suffices */
    void *scratch;             /* ik_stance_join_scratch_size(take, capacity) bytes */
    size_t scratch_bytes;
    ik_real *worst;  /* out, optional: the worst slide found, model units */
    ik_real *beyond; /* out, optional: the sum over the contacts found of how far each
                        slides past the tolerance, model units (0: none over it) */
    int *joined;     /* out, optional: how many contacts joined */
    unsigned long defaulted;
} ik_stance_join;

ik_stance_join ik_stance_join_def(void);
size_t ik_stance_join_scratch_size(const ik_take *take, int capacity);

/* IK_ERR_NOT_DEFAULTED, IK_ERR_NULL, IK_ERR_RANGE (take not of the rig's
 * skeleton, a count outside 0..capacity), IK_ERR_CAPACITY (small scratch,
 * or a join that would not fit: *count then holds the joins made before it),
 * IK_ERR_DEGENERATE (metre, tolerance), IK_ERR_NONFINITE (a pose, root_ms). */
ik_result ik_stance_join_run(const ik_stance_join *job);

#ifdef __cplusplus
}
#endif
#endif

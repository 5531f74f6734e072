/* The humanoid's whole body following its targets (web/body_full.c): the
 * page's full-body mode, one ik_full_body_run a frame, warm-started from the
 * last frame. Called by the page's C API (web/ikit_web.c), which hands in
 * the figure's rig and pose; this part calls nothing of the glue's. */
#ifndef IKIT_WEB_BODY_FULL_H
#define IKIT_WEB_BODY_FULL_H

#include <ikit/full_body.h>
#include <ikit/humanoid.h>
#include <ikit/math.h>

enum { IKW_FULL_MAX_JOINTS = 256 };

/* The targets the page drags, by full-body effector (IK_FB_HAND_L ..
 * IK_FB_HEAD): a hand or the head with `enabled` reaches for its position,
 * without it follows the body; a foot is pinned where the reference pose
 * has it, or with `enabled` at its position, unless that is lifted off the
 * ground (more than 0.05 leg lengths above where the foot stood): then the
 * foot reaches for it and is no support. */
typedef struct ikw_full_goals {
    ik_bool enabled[IK_FB_HEAD + 1];
    ik_vec3 position_ms[IK_FB_HEAD + 1];
    ik_bool balance; /* the centre of mass kept over the pinned feet */
} ikw_full_goals;

/* What the page draws and shows of the last solve, IKW_BALANCE_FLOATS
 * floats: the balance (ik_balance_status: 0 off, 1 kept, 2 no support,
 * 3 lost), the centre of mass's distance inside the support polygon (model
 * units, negative outside), the body steps run, the centre of mass (3), the
 * polygon's corner count, its corners (3 each, IK_FULL_BODY_MAX_SUPPORT). */
enum { IKW_BALANCE_FLOATS = 7 + 3 * IK_FULL_BODY_MAX_SUPPORT };

/* A new figure (`rig` NULL: none): its mass model (de Leva's male table,
 * 75 kg) made and the warm start forgotten. */
ik_result ikw_full_figure(const ik_humanoid *rig);
/* The warm start forgotten: the next solve starts from its reference. */
void ikw_full_forget(void);
/* Whether the figure has a mass model (else solves refuse balance). */
ik_bool ikw_full_can_balance(void);
/* One full-body solve. `pose_ls` in: the reference (the figure's pose,
 * standing on the ground), `model_ms` anything (rewritten); out: the solved
 * pose and its forward kinematics. Starts from the kept warm start (when
 * there is one for this figure), else from the reference. */
ik_result ikw_full_solve(const ik_humanoid *rig, ik_transform *pose_ls, ik_mat4 *model_ms, const ik_mat4 *root_ms,
                         const ikw_full_goals *goals);
/* The solved pose kept as the next solve's start. */
void ikw_full_keep(const ik_humanoid *rig, const ik_transform *pose_ls);
/* The last solve's report (NULL before any), its numbers for the page and
 * its words (ik_full_body_report_describe; "" before any). */
const ik_full_body_report *ikw_full_report(void);
const float *ikw_full_balance(void);
const char *ikw_full_summary(void);

#endif

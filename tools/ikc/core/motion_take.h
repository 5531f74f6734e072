/* A take for the motion commands (contacts, clean): the file loaded, its
 * clip baked to one pose per frame, the humanoid found, every frame's feet
 * recorded and the foot contacts found, with a clear message for each kind
 * of bad input. */
#ifndef IKC_MOTION_TAKE_H
#define IKC_MOTION_TAKE_H

#include <ikit/foot_contacts.h>
#include <ikit/in_place.h>
#include <ikit/take.h>

#include <stdio.h>

#include "asset.h"
#include "humanoid_setup.h"

/* glTF clips are baked at this frame time; BVH takes keep their own. */
#define IKC_MOTION_GLTF_FRAME_TIME (1.0 / 60.0)

typedef struct ikc_motion {
    ik_asset asset;
    int loaded;
    int clip;
    char clip_name[64];
    ikc_humanoid human;
    ik_take take;  /* poses_ls malloc'ed */
    ik_vec3 up_ms; /* the body's up under the asset's root_ms */
    ik_real leg_length;
    int joints[IK_FOOT_PATH_POINTS];              /* ik_foot_point_joints */
    ik_bool present[IK_FOOT_CONTACT_POINTS];      /* the rig has the point (a toe-less foot's ball too) */
    char point_label[IK_FOOT_CONTACT_POINTS][96]; /* its joint's name, or "ball of FOOT" */
    ik_mat4 *model_ms;                            /* [joint_count] scratch */
    ik_vec3 *paths_ms;                            /* [frames * IK_FOOT_PATH_POINTS] */
    ik_foot_contact *contacts;
    int contact_count;
    ik_real *heights, *speeds; /* [frames * IK_FOOT_CONTACT_POINTS] */
    ik_real levels[IK_FOOT_CONTACT_POINTS];
    ik_in_place_cycle cycle;  /* ik_in_place_run on the take */
    ik_foot_contact *stances; /* an in-place cycle's stances (ik_in_place) */
    ik_real *slides;          /* [stance_count] how far each stance's point slid */
    int stance_count;
} ikc_motion;

/* Load `path`, bake clip `clip_name` (NULL: the first), find the humanoid
 * (with the mapping file `map_path`, may be NULL), record the feet's paths
 * and find the contacts. Messages start "ikc COMMAND:". Returns an
 * IKC_EXIT_ code; free with ikc_motion_free either way. */
int ikc_motion_load(const char *command, const char *path, const char *clip_name, const char *map_path, ikc_motion *m);
/* The same with a glTF clip baked at `fps` frames per second (0: the
 * default IKC_MOTION_GLTF_FRAME_TIME; a BVH keeps its own either way). */
int ikc_motion_load_at(const char *command, const char *path, const char *clip_name, const char *map_path, double fps,
                       ikc_motion *m);
/* An option's value as frames per second for ikc_motion_load_at: a number
 * from 1 to 10000, else a message and -1. */
double ikc_motion_fps_option(const char *command, const char *value);
void ikc_motion_free(ikc_motion *m);

/* How many contacts `point` has; how many in-place stances. */
int ikc_motion_point_contacts(const ikc_motion *m, int point);
int ikc_motion_point_stances(const ikc_motion *m, int point);

/* An in-place cycle's summary to `out`: the slide speed in the rig's units
 * and in metres of the leg-length metre (ik_foot_metre), the hips' travel,
 * and per stance its frames and how far its foot slid. */
void ikc_motion_print_in_place(const ikc_motion *m, FILE *out);

/* The same as JSON (`ikc contacts --json`, `ikc clean --json`): whether it is
 * a cycle made in place, the slide velocity (units/s) and speed (units/s and
 * m/s by ik_foot_metre), the hips' speed, the stance count. */
struct cJSON *ikc_motion_in_place_json(const ikc_motion *m);

#endif

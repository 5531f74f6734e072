/* ikit_web: the playground's C API (web/ikit_web.c), for the scripted
 * benchmark cases (web/bench_cases.c) that run the same calls in wasm and
 * natively. The page itself calls these through ikit.js. */
#ifndef IKIT_WEB_H
#define IKIT_WEB_H

#include <ikit/math.h>

/* Exported by name from the wasm module; plain functions in a native build
 * (bench/bench_web.c times the same calls natively). */
#ifdef __wasm__
#define IKW_EXPORT(name) __attribute__((export_name(#name)))
#else
#define IKW_EXPORT(name)
#endif

/* The methods a chain slot can solve with (the page's menu, in this order). */
typedef enum ikw_method {
    IKW_DLS_SPRINGS, /* seed 002: DLS with the file's springs, comfort ranges and gravity */
    IKW_CCD,         /* CCD within the file's limits */
    IKW_FABRIK,      /* FABRIK within the file's limits */
    IKW_SDLS,        /* selectively damped least squares with the springs */
    IKW_TRANSPOSE,   /* seed 002's "sum of torques": Jacobian transpose with the springs */
    IKW_METHOD_COUNT
} ikw_method;

char *ikw_text_buffer(void);
int ikw_text_capacity(void);
const char *ikw_message(void);
int ikw_chain_load(int length);
int ikw_chain_joint_count(void);
const float *ikw_chain_file_target(void);
void ikw_chain_reset(int slot);
int ikw_chain_solve(int slot, int method, float x, float y, float z, float gravity, int repeats);
float ikw_chain_error(int slot);
ik_real *ikw_planar_lengths(void);
ik_real *ikw_planar_angles(void);
int ikw_planar_fk(int bone_count, float base_x, float base_y);
int ikw_planar_solve(int bone_count, int joint, int method, float base_x, float base_y, float x, float y,
                     int max_iterations, int repeats);
float ikw_planar_error(void);
int ikw_body_init(float height);
int ikw_body_goal(int limb, int enabled, float x, float y, float z);
int ikw_body_ground(int on, float slope_deg);
int ikw_body_solve(int repeats);
float ikw_body_residual(int limb);
const float *ikw_body_positions(void);
int ikw_body_limb_end(int limb);

/* Scripted cases (web/bench_cases.c). */
enum { IKW_BENCH_TAIL_DLS, IKW_BENCH_TAIL_CCD, IKW_BENCH_TAIL_FABRIK, IKW_BENCH_PLANAR_FABRIK, IKW_BENCH_HUMANOID,
       IKW_BENCH_CASES };
const char *ikw_bench_name(int which);
float ikw_bench_case(int which, int frames);

#endif

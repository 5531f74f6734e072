/* The TRAC-IK protocol (robot_protocol.h) on hand-built arms: the goals are
 * forward kinematics of in-limit configurations, the same for the same seed
 * and different for another, the seed is the mid-range; every solver's
 * answer lands on its goal by forward kinematics, inside the limits; the
 * closed form is there for a UR-shaped arm and not for a SCARA; the clock is
 * the caller's; bad input gets a clear error; TRAC-IK's goals are the
 * configurations srand(1) and rand() draw. */
#include <ikit/robot_protocol.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "support/rng.h"
#include "support/robot_chains.h"

#define QUERIES 40
/* The protocol's success is each of x, y, z and the rotation's three
 * components within 1e-5: the distance plus the angle within 2 sqrt(3) 1e-5. */
#ifdef IKIT_DOUBLE
#define LANDED 3.5e-5
#else
#define LANDED 2e-3
#endif

static union {
    ik_real align;
    unsigned char bytes[256 * 1024];
} scratch;

static double ticks;

/* A clock that moves a microsecond per read, so times are known. */
static double fake_clock(void *user) {
    (void)user;
    ticks += 1e-6;
    return ticks;
}

/* Distance from the tip at q to the goal: position, plus the rotation's
 * angle times a unit length. */
static double landed(const ik_robot_chain *c, const ik_real *q, ik_transform goal) {
    ik_transform tip;
    ik_quat d;
    if (ik_robot_fk(c, q, &tip, NULL) != IK_OK) return 1e9;
    d = ik_quat_mul(goal.rotation, ik_quat_conjugate(tip.rotation));
    return (double)ik_vec3_distance(tip.translation, goal.translation) +
           2 * atan2((double)ik_vec3_length(ik_v3(d.x, d.y, d.z)), fabs((double)d.w));
}

static void test_goals_and_answers(void) {
    ik_robot_chain arm = ur_shaped();
    ik_robot_protocol p, again;
    ik_transform goals[QUERIES], other[QUERIES];
    ik_robot_protocol_answer answer;
    ik_error error;
    check_property hit = {"protocol: answers land on their goals inside the limits", 0, 0};
    int i, v, s, solver, same = 1;
    CHECK(sizeof scratch.bytes >= ik_robot_protocol_scratch_size(&arm), "scratch size");
    CHECK(ik_robot_protocol_init(&p, &arm, QUERIES, 7, goals, scratch.bytes, sizeof scratch.bytes, fake_clock, NULL,
                                 &error) == IK_OK,
          "init: %s", error.message);
    CHECK(p.model.kind != IK_ROBOT_ANALYTIC_NONE && !p.no_closed_form, "a UR-shaped arm has a closed form");
    for (v = 0; v < p.variables; ++v)
        CHECK(fabs((double)p.seed[v] - (p.lower[v] + p.upper[v]) / 2) < 1e-6, "seed %d at mid-range", v);
    /* every goal is the tip of a configuration inside the limits: the closed
     * form finds one and it lands */
    for (i = 0; i < QUERIES; ++i)
        for (solver = IK_ROBOT_PROTOCOL_NUMERIC; solver <= IK_ROBOT_PROTOCOL_ANALYTIC; ++solver) {
            ik_transform goal = ik_robot_protocol_goal(&p, i);
            ticks = 0;
            CHECK(ik_robot_protocol_solve(&p, (ik_robot_protocol_solver)solver, i, &answer) == IK_OK, "solve");
            CHECK(answer.seconds > 0, "timed by the caller's clock");
            PROPERTY_CASE(hit, answer.success && answer.solutions >= 1, "query %d solver %d failed", i, solver);
            for (s = 0; s < answer.solutions; ++s)
                PROPERTY_CASE(hit,
                              landed(&arm, answer.q + (size_t)s * 6, goal) < LANDED &&
                                  inside_limits(&arm, answer.q + (size_t)s * 6),
                              "query %d solver %d solution %d: %g off", i, solver, s,
                              landed(&arm, answer.q + (size_t)s * 6, goal));
        }
    property_end(&hit);
    ticks = 0;
    CHECK(fabs(ik_robot_protocol_time_analytic(&p) - 1e-6) < 1e-12, "the batch timed by two clock reads");
    /* the same seed draws the same goals, another seed others */
    ik_robot_protocol_init(&again, &arm, QUERIES, 7, other, scratch.bytes, sizeof scratch.bytes, NULL, NULL, NULL);
    CHECK(memcmp(goals, other, sizeof goals) == 0, "same seed, same goals");
    ik_robot_protocol_init(&again, &arm, QUERIES, 8, other, scratch.bytes, sizeof scratch.bytes, NULL, NULL, NULL);
    for (i = 0; i < QUERIES; ++i) same = same && ik_vec3_distance(goals[i].translation, other[i].translation) < 1e-9;
    CHECK(!same, "another seed, other goals");
    ik_robot_protocol_solve(&again, IK_ROBOT_PROTOCOL_NUMERIC, 0, &answer);
    CHECK(answer.seconds == 0 && answer.success, "no clock: no budget and no time");
}

static void test_no_closed_form(void) {
    ik_robot_chain arm = scara();
    ik_robot_protocol p;
    ik_transform goals[QUERIES];
    ik_robot_protocol_answer answer;
    CHECK(ik_robot_protocol_init(&p, &arm, QUERIES, 3, goals, scratch.bytes, sizeof scratch.bytes, fake_clock, NULL,
                                 NULL) == IK_OK,
          "init on a SCARA");
    CHECK(p.model.kind == IK_ROBOT_ANALYTIC_NONE && p.no_closed_form && p.no_closed_form[0],
          "a SCARA has no closed form");
    CHECK(ik_robot_protocol_solve(&p, IK_ROBOT_PROTOCOL_NUMERIC, QUERIES - 1, &answer) == IK_OK && answer.success &&
              landed(&arm, answer.q, goals[QUERIES - 1]) < LANDED,
          "the numeric solver reaches a SCARA goal");
}

static void test_bad_input(void) {
    ik_robot_chain arm = ur_shaped();
    ik_robot_protocol p;
    ik_transform goals[4];
    ik_robot_protocol_answer answer;
    ik_error error;
    CHECK(ik_robot_protocol_init(&p, &arm, 0, 1, goals, scratch.bytes, sizeof scratch.bytes, NULL, NULL, &error) ==
                  IK_ERR_RANGE &&
              strstr(error.message, "queries"),
          "no queries: %s", error.message);
    CHECK(ik_robot_protocol_init(&p, &arm, 4, 1, goals, scratch.bytes, 16, NULL, NULL, &error) == IK_ERR_RANGE &&
              strstr(error.message, "scratch"),
          "scratch too small: %s", error.message);
    CHECK(ik_robot_protocol_init(&p, NULL, 4, 1, goals, scratch.bytes, sizeof scratch.bytes, NULL, NULL, &error) ==
                  IK_ERR_NULL &&
              strstr(error.message, "chain"),
          "no chain: %s", error.message);
    arm.joints[1].lower = (ik_real)NAN;
    CHECK(ik_robot_protocol_init(&p, &arm, 4, 1, goals, scratch.bytes, sizeof scratch.bytes, NULL, NULL, &error) !=
                  IK_OK &&
              error.message[0],
          "NaN limit: %s", error.message);
    arm = ur_shaped();
    ik_robot_protocol_init(&p, &arm, 4, 1, goals, scratch.bytes, sizeof scratch.bytes, NULL, NULL, NULL);
    CHECK(ik_robot_protocol_solve(&p, IK_ROBOT_PROTOCOL_NUMERIC, 4, &answer) == IK_ERR_RANGE && !answer.success,
          "query out of range");
    CHECK(ik_robot_protocol_solve(&p, (ik_robot_protocol_solver)7, 0, &answer) == IK_ERR_RANGE, "unknown solver");
    CHECK(ik_robot_protocol_solve(NULL, IK_ROBOT_PROTOCOL_NUMERIC, 0, &answer) == IK_ERR_NULL, "NULL protocol");
}

/* TRAC-IK's goals (issue 29): the configurations ik_tests.cpp draws,
 * drawn here with the C library's own srand and rand (glibc's on Linux,
 * where TRAC-IK ran), q = lower + rand() / RAND_MAX (upper - lower) joint by
 * joint; their FK is the protocol's goal, bit for bit. A second clock reads
 * the time of each query beside the budget's clock. */
static void test_trac_ik_goals(void) {
    ik_robot_chain c = ur_shaped();
    ik_transform goals[QUERIES];
    ik_robot_protocol p;
    ik_robot_protocol_answer answer;
    ik_error err;
    int i, v, same = 1;
    CHECK(ik_robot_protocol_init_goals(&p, &c, QUERIES, IK_ROBOT_PROTOCOL_GOALS_TRAC_IK, 1, goals, &scratch,
                                       sizeof scratch, fake_clock, NULL, &err) == IK_OK,
          "init: %s", err.message);
#if RAND_MAX == 2147483647
    srand(1);
    for (i = 0; i < QUERIES; ++i) {
        ik_real q[6];
        ik_transform tip;
        for (v = 0; v < 6; ++v) q[v] = (ik_real)(p.lower[v] + (double)rand() / RAND_MAX * (p.upper[v] - p.lower[v]));
        ik_robot_fk(&c, q, &tip, NULL);
        same &= memcmp(&tip.translation, &goals[i].translation, sizeof tip.translation) == 0 &&
                memcmp(&tip.rotation, &goals[i].rotation, sizeof tip.rotation) == 0;
    }
    CHECK(same, "the goals are FK of the configurations srand(1) and rand() draw");
#else
    check_skip("this C library's rand() is not glibc's (RAND_MAX differs)");
#endif
    CHECK(p.goals_from == IK_ROBOT_PROTOCOL_GOALS_TRAC_IK, "goals_from");
    p.report_clock_s = fake_clock;
    CHECK(ik_robot_protocol_solve(&p, IK_ROBOT_PROTOCOL_SEEDED, 0, &answer) == IK_OK && answer.success &&
              answer.report_seconds > answer.seconds && answer.seconds > 0,
          "second clock: %g s around %g s", answer.report_seconds, answer.seconds);
    CHECK(ik_robot_protocol_init_goals(&p, &c, QUERIES, (ik_robot_protocol_goals)7, 1, goals, &scratch, sizeof scratch,
                                       NULL, NULL, &err) == IK_ERR_RANGE,
          "an unknown goal source");
}

int main(void) {
    test_goals_and_answers();
    test_no_closed_form();
    test_bad_input();
    test_trac_ik_goals();
    return check_summary("robot_protocol");
}

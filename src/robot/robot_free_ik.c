/* ikit collision-free pose IK (see robot_free_ik.h): candidates from the
 * pose IK, the closed form's branches and random restarts, each checked
 * against the collision model. */
#include <ikit/robot_free_ik.h>

#include <math.h>
#include <string.h>

ik_robot_free_ik ik_robot_free_ik_def(void) {
    ik_robot_free_ik job;
    memset(&job, 0, sizeof job);
    job.defaulted = IK_JOB_DEFAULTED;
    job.ik = ik_robot_ik_def();
    job.margin = (ik_real)0.01;
    job.max_candidates = 64;
    job.restart_iterations = 200;
    return job;
}

/* The search's state: the best candidate so far. */
typedef struct search {
    const ik_robot_free_ik *job;
    int n, candidates;
    ik_real best[IK_ROBOT_MAX_JOINTS];
    int have_best, best_reached;
    double best_clearance;
    ik_bool found;
} search;

/* Solves once with `ik` (q_out set to a local array) and checks the
 * result; returns IK_OK or the first error. *done when it is free. */
static ik_result try_candidate(search *s, ik_robot_ik *ik) {
    ik_real q[IK_ROBOT_MAX_JOINTS];
    ik_bool reached = 0, is_free = 0;
    ik_result r;
    ik->q_out = q;
    ik->reached = &reached;
    ik->error_field = s->job->error_field;
    r = ik_robot_ik_run(ik);
    ++s->candidates;
    if (r != IK_OK) return r;
    if (reached) {
        r = ik_robot_collision_free(s->job->model, ik->chain, q, s->job->obstacles, s->job->obstacle_count,
                                    s->job->margin, &is_free);
        if (r != IK_OK) return r;
    }
    if (reached && is_free) {
        memcpy(s->best, q, (size_t)s->n * sizeof *q);
        s->found = 1;
        s->have_best = s->best_reached = 1;
        return IK_OK;
    }
    if (reached) {
        ik_robot_collision_report report;
        r = ik_robot_collision_check(s->job->model, ik->chain, q, s->job->obstacles, s->job->obstacle_count,
                                     s->job->margin, &report);
        if (r != IK_OK) return r;
        if (!s->best_reached || report.clearance > s->best_clearance) {
            memcpy(s->best, q, (size_t)s->n * sizeof *q);
            s->best_clearance = report.clearance;
            s->have_best = s->best_reached = 1;
        }
    } else if (!s->have_best) {
        memcpy(s->best, q, (size_t)s->n * sizeof *q);
        s->have_best = 1;
    }
    return IK_OK;
}

static int out_of_time(const ik_robot_ik *ik, double start) {
    return ik->clock_s && ik->clock_s(ik->clock_user) - start > ik->time_budget_s;
}

ik_result ik_robot_free_ik_run(const ik_robot_free_ik *job) {
    search s;
    ik_robot_ik ik;
    ik_robot_analytic_model own_model;
    const ik_robot_analytic_model *model = NULL;
    ik_real lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS], seed[IK_ROBOT_MAX_JOINTS];
    ik_bool limited[IK_ROBOT_MAX_JOINTS];
    ik_result r;
    double start = 0;
    int branches = 0, k;
    uint64_t state;
    if (!job) return IK_ERR_NULL;
    if (job->defaulted != IK_JOB_DEFAULTED) return IK_ERR_NOT_DEFAULTED;
    if (!job->model || !job->q_out || !job->ik.chain || !job->ik.q_seed) return IK_ERR_NULL;
    if (!isfinite((double)job->margin)) return IK_ERR_NONFINITE;
    if (job->margin < 0 || job->max_candidates < 1 || job->restart_iterations < 1) return IK_ERR_RANGE;
    memset(&s, 0, sizeof s);
    s.job = job;
    s.n = job->ik.chain->variable_count;
    if (s.n < 0 || s.n > IK_ROBOT_MAX_JOINTS) return IK_ERR_RANGE;
    /* The model and the obstacles are checked once here, at the seed (whose
     * freedom is not needed), so bad input is refused before any solve. */
    {
        ik_bool unused;
        r = ik_robot_collision_free(job->model, job->ik.chain, job->ik.q_seed, job->obstacles, job->obstacle_count,
                                    job->margin, &unused);
        if (r != IK_OK) return r;
    }
    r = ik_robot_variable_limits(job->ik.chain, lower, upper, limited, NULL);
    if (r != IK_OK) return r;
    if (job->ik.clock_s) start = job->ik.clock_s(job->ik.clock_user);

    /* 1. The pose IK as the caller set it up. */
    ik = job->ik;
    r = try_candidate(&s, &ik);
    if (r != IK_OK) return r;

    /* 2. Every branch of the closed form, polished from there. */
    if (!s.found && job->ik.orientation_importance > 0 && job->ik.analytic_starts) {
        if (job->ik.analytic_model && job->ik.analytic_model->kind != IK_ROBOT_ANALYTIC_NONE)
            model = job->ik.analytic_model;
        else if (!job->ik.analytic_model && ik_robot_analytic_prepare(job->ik.chain, &own_model, NULL) == IK_OK &&
                 own_model.kind != IK_ROBOT_ANALYTIC_NONE)
            model = &own_model;
    }
    if (model) {
        ik_real solutions[IK_ROBOT_ANALYTIC_MAX_SOLUTIONS * 6];
        ik_robot_analytic a = ik_robot_analytic_def();
        a.model = model;
        a.goal_position_bs = job->ik.goal_position_bs;
        a.goal_rotation_bs = job->ik.goal_rotation_bs;
        a.q_seed = job->ik.q_seed;
        a.prefer = job->ik.prefer;
        a.q_out = solutions;
        a.solution_count = &branches;
        if (ik_robot_analytic_run(&a) != IK_OK) branches = 0;
        for (k = 0; k < branches && !s.found && s.candidates < job->max_candidates; ++k) {
            ik = job->ik;
            ik.q_seed = solutions + 6 * k;
            ik.analytic_starts = 0;
            ik.max_iterations = job->restart_iterations;
            r = try_candidate(&s, &ik);
            if (r == IK_ERR_RANGE) continue; /* a branch rounded just past a limit */
            if (r != IK_OK) return r;
        }
    }

    /* 3. Random restarts, where the closed form did not list every branch. */
    state = (uint64_t)job->ik.random_seed * 0x9E3779B97F4A7C15ull + 12345u;
    while (!s.found && (!model || branches == 0) && s.candidates < job->max_candidates &&
           !out_of_time(&job->ik, start)) {
        ik_robot_random_configuration(lower, upper, s.n, &state, seed);
        ik = job->ik;
        ik.q_seed = seed;
        ik.analytic_starts = model ? 0 : job->ik.analytic_starts;
        ik.max_iterations = job->restart_iterations;
        ik.random_seed = job->ik.random_seed + (unsigned long)s.candidates;
        r = try_candidate(&s, &ik);
        if (r != IK_OK) return r;
    }

    memcpy(job->q_out, s.best, (size_t)s.n * sizeof *s.best);
    if (job->reached) *job->reached = s.best_reached;
    if (job->free) *job->free = s.found;
    if (job->candidates) *job->candidates = s.candidates;
    if (job->report)
        return ik_robot_collision_check(job->model, job->ik.chain, s.best, job->obstacles, job->obstacle_count,
                                        job->margin, job->report);
    return IK_OK;
}

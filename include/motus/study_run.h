/* motus/study_run.h — running one case of a study in this process and
 * computing its responses (core/analysis/mt_study_run.c); the study itself
 * is motus/study.h. The command line runs cases in worker processes
 * (app/cli_study.c); a program may call this directly. */
#ifndef MOTUS_STUDY_RUN_H
#define MOTUS_STUDY_RUN_H

#include "motus/run.h"
#include "motus/study.h"

/* Called with every output frame of a case's run (to keep its frames); non-zero stops the run. */
typedef int (*MtStudyFrameFn)(void *user, MtState *st);
/* Called once the case's system is compiled, before the run (to begin storing it); non-zero fails the case. */
typedef int (*MtStudyBeginFn)(void *user, const MtSystem *sys, MtError *err);

typedef struct {
    MtStudyBeginFn begin; /* may be NULL */
    MtStudyFrameFn frame; /* may be NULL */
    void *user;
    const volatile int *cancel; /* may be NULL */
} MtStudyRunHooks;

/* Runs case c of the model's study (m->study): the model copied, the case's
 * values applied, compiled, assembled and integrated with the model's solver
 * settings; then every response into resp (nresp values; NAN where a
 * response could not be computed). values (nvar, may be NULL) receives the
 * case's values. A failure (invalid model, solver) is returned with the
 * solver's message, naming the case's values. Cases may run on several
 * threads at once: each has its own copy of the model and its own system. */
MtStatus mt_study_run_case(const MtModel *m, int c, const MtStudyRunHooks *hooks, double *values, double *resp,
                           MtError *err);
/* The same at the given values (nvar, in the variables' units) instead of
 * the design's: an optimisation's evaluation c. */
MtStatus mt_study_run_values(const MtModel *m, int c, const double *values, const MtStudyRunHooks *hooks, double *resp,
                             MtError *err);
/* The responses of a case from its samples: t[n] and, for every response
 * that reads a column (all but expressions), col[r] (n values; NULL for
 * expressions). values are the case's variables (expressions read them). */
MtStatus mt_study_responses(const MtStudy *s, const double *values, const double *t, int n, double *const *col,
                            double *resp, MtError *err);

/* ---- optimisation (core/analysis/mt_study_opt.c; docs/studies.md) -------------
 * NLopt's COBYLA (derivative-free, inequality constraints by linear
 * approximations) over the study's range variables, each mapped onto [0, 1]
 * between its ends; the objective is scaled by its size at the start (the
 * middle of every range) and each constraint by its bound's (or, for a bound
 * of 0, the response's at the start), so responses of any unit weigh alike.
 * The evaluations are made one after another, each a case numbered from 0. */

/* Evaluation k at values (nvar, in the variables' units): the responses into
 * resp. Anything but MT_OK stops the optimisation with that error. */
typedef MtStatus (*MtStudyEvalFn)(void *user, int k, const double *values, double *resp, MtError *err);

typedef enum {
    MT_OPT_CONVERGED, /* the step fell below xtol of the ranges */
    MT_OPT_MAXEVAL,   /* the optimiser's budget of evaluations is spent */
    MT_OPT_ROUNDOFF,  /* rounding errors stopped the progress */
    MT_OPT_FAILED     /* an evaluation failed (its error is returned) */
} MtOptStop;

typedef struct {
    int nevals;   /* evaluations made: cases 0 … nevals-1 */
    int best;     /* the case of the optimum found (-1: none) */
    int feasible; /* every constraint holds there */
    MtOptStop stop;
} MtStudyOpt;

/* Runs the optimisation of study s (s->optimize), calling eval for every new
 * point (a point asked for again is not evaluated again). MT_OK with out
 * filled when it ends by its own criteria, else the error of the failed
 * evaluation (out filled with what was done until then). */
MtStatus mt_study_optimize(const MtStudy *s, MtStudyEvalFn eval, void *user, MtStudyOpt *out, MtError *err);
/* How far responses are from satisfying the constraints: the largest excess
 * over a bound, in units of the bound's size (of 1 for a bound of 0); 0 when
 * every constraint holds; INFINITY when the objective or a constrained
 * response is not finite. */
double mt_study_opt_violation(const MtStudy *s, const double *resp);
/* 1 when every constraint holds to 1e-6 of its bound's size (the optimiser's tolerance). */
int mt_study_opt_feasible(const MtStudy *s, const double *resp);
/* 1 when constraint i holds to that tolerance for the responses resp. */
int mt_study_opt_holds(const MtStudy *s, int i, const double *resp);
/* 1 when the responses a are a better optimum than b: cases where every
 * constraint holds exactly first, then those where they hold to the
 * tolerance, each ranked by the objective; then the others by their violation. */
int mt_study_opt_better(const MtStudy *s, const double *a, const double *b);
/* Words for why an optimisation stopped ("converged" …), translated. */
const char *mt_study_opt_stop_text(MtOptStop stop);

#endif

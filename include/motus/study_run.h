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
/* The responses of a case from its samples: t[n] and, for every response
 * that reads a column (all but expressions), col[r] (n values; NULL for
 * expressions). values are the case's variables (expressions read them). */
MtStatus mt_study_responses(const MtStudy *s, const double *values, const double *t, int n, double *const *col,
                            double *resp, MtError *err);

#endif

/* motus-study-job.h — a study's cases run on worker threads of this process
 * (the window's Study panel, motus-window-study.c): each thread takes the
 * next case to run, runs it on its own copy of the model
 * (mt_study_run_case) and leaves its result for the GTK thread, which
 * collects finished cases (and records them in the project: it is the
 * project's one writer) and ends the job when every thread is done. */
#ifndef MOTUS_STUDY_JOB_H
#define MOTUS_STUDY_JOB_H

#include <glib.h>

#include "motus/store.h"
#include "motus/study_run.h"

typedef struct MotusStudyJob MotusStudyJob;

/* Starts the cases whose todo[c] is non-zero (ncase of them in all) of the
 * model's study on nthread threads (the model is copied). With frames_dir
 * (NULL: not kept), each case's run is kept in frames_dir/case-NNNNNN.motus,
 * a project of its own, as `motus-cli study --keep-frames` keeps it. NULL
 * with error set when the model has no study or a thread cannot start. */
MotusStudyJob *motus_study_job_start(const MtModel *m, const unsigned char *todo, int ncase, int nthread,
                                     const char *frames_dir, GError **error);
/* An optimisation (m->study->optimize): one thread runs COBYLA (mt_study_optimize), each evaluation
 * a case collected like the others; a case of known (nknown: those recorded before) with the values
 * the optimiser asks for is read back instead of run. */
MotusStudyJob *motus_study_job_start_optimise(const MtModel *m, const MtStudyCaseResult *known, int nknown,
                                              const char *frames_dir, GError **error);
/* Once an optimisation ended: its outcome, and the message of a failed (or stopped) evaluation
 * (empty when it ended by its own criteria). FALSE before or for a design. */
gboolean motus_study_job_optimum(MotusStudyJob *j, MtStudyOpt *out, char *msg, size_t n);
/* Asks the threads to stop: the cases running are abandoned (not collected), no new one starts. */
void motus_study_job_cancel(MotusStudyJob *j);
/* Finished cases not collected before, into out (up to max); how many. */
int motus_study_job_collect(MotusStudyJob *j, MtStudyCaseResult *out, int max);
/* Cases to run in all, finished so far, failed so far, running now. */
void motus_study_job_progress(MotusStudyJob *j, int *total, int *done, int *failed, int *running);
/* Whether every thread has ended (then free it, after collecting). */
gboolean motus_study_job_ended(MotusStudyJob *j);
gboolean motus_study_job_cancelled(MotusStudyJob *j);
/* Cancels, joins the threads and frees the job. */
void motus_study_job_free(MotusStudyJob *j);

#endif

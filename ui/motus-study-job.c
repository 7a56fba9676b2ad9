/* motus-study-job.c — a study's cases on worker threads (see
 * motus-study-job.h). The threads share only the job's queue and results,
 * under its lock; each case runs on its own copy of the model (the core's
 * cases may run on threads at once). */
#include "motus-study-job.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "motus-i18n.h"
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

enum { CASE_SKIP, CASE_TODO, CASE_RUNNING, CASE_DONE, CASE_COLLECTED };

struct MotusStudyJob {
    MtModel *model;
    int ncase, total;
    unsigned char *state; /* CASE_… per case */
    MtStudyCaseResult *res;
    GMutex lock;
    int next, done, failed, running, ended;
    volatile int cancel; /* read by the solver between steps */
    int nthread;
    GThread **thread;
    char *frames_dir; /* NULL: frames not kept */
    /* an optimisation: the cases known before (read back when asked for again), its outcome */
    MtStudyCaseResult *known;
    int nknown, opt_ended;
    MtStudyOpt opt;
    MtStatus opt_rc;
    char opt_msg[sizeof ((MtError *)0)->msg];
};

/* Keeping a case's frames: a project of its own (as app/cli_study_case.c keeps them). */
typedef struct {
    const char *path;
    MtStore *store;
    MtRun *run;
} Frames;

static int frames_begin(void *user, const MtSystem *sys, MtError *err)
{
    Frames *fr = user;
    g_unlink(fr->path); /* a rerun starts afresh */
    if (!(fr->store = mt_store_open(fr->path, MT_STORE_CREATE, err))) return 1;
    if (mt_store_save_model(fr->store, mt_system_model(sys), NULL, err)) return 1;
    return !(fr->run = mt_store_run_begin(fr->store, sys, mt_system_solver(sys), err));
}

static int frames_frame(void *user, MtState *st) { return mt_store_run_frame(((Frames *)user)->run, st); }

static double now_s(void) { return (double)g_get_monotonic_time() * 1e-6; }

/* The next case to run (-1: none, or stopping), marked running. */
static int take(MotusStudyJob *j)
{
    int c = -1;
    g_mutex_lock(&j->lock);
    while (!j->cancel && j->next < j->ncase && c < 0) {
        if (j->state[j->next] == CASE_TODO) c = j->next;
        j->next++;
    }
    if (c >= 0) {
        j->state[c] = CASE_RUNNING;
        j->running++;
    }
    g_mutex_unlock(&j->lock);
    return c;
}

/* Runs case c (at values, or the design's when NULL) and leaves its result for collection; FALSE when stopped half way. */
static gboolean run_one(MotusStudyJob *j, int c, const double *values, MtStudyCaseResult *r)
{
    memset(r, 0, sizeof *r);
    r->index = c;
    snprintf(r->job, sizeof r->job, "local");
    g_autofree char *name = g_strdup_printf("case-%06d.motus", c);
    g_autofree char *path = j->frames_dir ? g_build_filename(j->frames_dir, name, NULL) : NULL;
    Frames fr = {path, NULL, NULL};
    MtStudyRunHooks hooks = {path ? frames_begin : NULL, path ? frames_frame : NULL, &fr, &j->cancel};
    MtError err = {0};
    double t0 = now_s();
    MtStatus rc;
    if (values) {
        memcpy(r->values, values, sizeof(double) * (size_t)j->model->study->nvar);
        rc = mt_study_run_values(j->model, c, values, &hooks, r->resp, &err);
    } else rc = mt_study_run_case(j->model, c, &hooks, r->values, r->resp, &err);
    r->seconds = now_s() - t0;
    if (fr.run) {
        MtError e2 = {0};
        if (mt_store_run_end(fr.run, rc, rc ? err.msg : "", &e2) && !rc) rc = mt_error_set(&err, e2.code, "", "%s", e2.msg);
    }
    if (fr.store) g_strlcpy(r->frames, name, sizeof r->frames);
    mt_store_close(fr.store);
    r->failed = rc != MT_OK;
    if (rc) snprintf(r->message, sizeof r->message, "%s", err.msg);
    g_mutex_lock(&j->lock);
    j->running--;
    gboolean stopped = j->cancel != 0;
    if (stopped) {
        j->state[c] = CASE_TODO; /* stopped half way: not a result */
    } else {
        j->res[c] = *r;
        j->state[c] = CASE_DONE;
        j->done++;
        j->failed += r->failed;
    }
    g_mutex_unlock(&j->lock);
    return !stopped;
}

static void below_interface(void)
{
#ifdef __linux__
    /* below the interface's thread (Linux nices threads one by one): the window answers while every core runs cases */
    if (setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10)) { /* not allowed: the cases run all the same */ }
#endif
}

static gpointer worker(gpointer data)
{
    MotusStudyJob *j = data;
    int c;
    below_interface();
    while ((c = take(j)) >= 0) {
        MtStudyCaseResult r;
        run_one(j, c, NULL, &r);
    }
    g_mutex_lock(&j->lock);
    j->ended++;
    g_mutex_unlock(&j->lock);
    return NULL;
}

/* ---- an optimisation: one thread, COBYLA asking for the cases in turn ---------------------------------- */

static MtStatus opt_eval(void *user, int k, const double *v, double *resp, MtError *err)
{
    MotusStudyJob *j = user;
    const MtStudy *s = j->model->study;
    if (j->cancel || k >= j->ncase) return mt_error_set(err, MT_ERR_ARG, "study", "%s", _("Stopped"));
    for (int i = 0; i < j->nknown; i++) /* recorded before with these values: read back (the optimiser is deterministic) */
        if (j->known[i].index == k && !memcmp(j->known[i].values, v, sizeof(double) * (size_t)s->nvar)) {
            memcpy(resp, j->known[i].resp, sizeof(double) * (size_t)s->nresp);
            return j->known[i].failed ? mt_error_set(err, MT_ERR_SOLVE, "study", "%s", j->known[i].message) : MT_OK;
        }
    g_mutex_lock(&j->lock);
    j->state[k] = CASE_RUNNING;
    j->running++;
    g_mutex_unlock(&j->lock);
    MtStudyCaseResult r;
    if (!run_one(j, k, v, &r)) return mt_error_set(err, MT_ERR_ARG, "study", "%s", _("Stopped"));
    memcpy(resp, r.resp, sizeof(double) * (size_t)s->nresp);
    return r.failed ? mt_error_set(err, MT_ERR_SOLVE, "study", "%s", r.message) : MT_OK;
}

static gpointer optimiser(gpointer data)
{
    MotusStudyJob *j = data;
    below_interface();
    MtError err = {0};
    MtStatus rc = mt_study_optimize(j->model->study, opt_eval, j, &j->opt, &err);
    g_mutex_lock(&j->lock);
    j->opt_rc = rc;
    g_strlcpy(j->opt_msg, rc ? err.msg : "", sizeof j->opt_msg);
    j->opt_ended = 1;
    j->ended++;
    g_mutex_unlock(&j->lock);
    return NULL;
}

MotusStudyJob *motus_study_job_start_optimise(const MtModel *m, const MtStudyCaseResult *known, int nknown,
                                              const char *frames_dir, GError **error)
{
    if (!m || !m->study || !m->study->optimize) {
        g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "no optimisation");
        return NULL;
    }
    MotusStudyJob *j = g_new0(MotusStudyJob, 1);
    g_mutex_init(&j->lock);
    j->model = mt_model_copy(m);
    j->frames_dir = g_strdup(frames_dir);
    j->ncase = j->total = m->study->maxeval;
    j->state = g_new0(unsigned char, (gsize)j->ncase);
    j->res = g_new0(MtStudyCaseResult, (gsize)j->ncase);
    j->known = g_memdup2(known, sizeof *known * (gsize)MAX(nknown, 0));
    j->nknown = MAX(nknown, 0);
    j->next = j->ncase; /* take() hands out nothing: the optimiser chooses */
    j->thread = g_new0(GThread *, 1);
    if (!j->model || !(j->thread[0] = g_thread_try_new("motus-optimise", optimiser, j, error))) {
        if (!j->model) g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_FAILED, "out of memory");
        motus_study_job_free(j);
        return NULL;
    }
    j->nthread = 1;
    return j;
}

gboolean motus_study_job_optimum(MotusStudyJob *j, MtStudyOpt *out, char *msg, size_t n)
{
    g_mutex_lock(&j->lock);
    gboolean ended = j->opt_ended;
    if (ended) {
        *out = j->opt;
        g_strlcpy(msg, j->opt_msg, n);
    }
    g_mutex_unlock(&j->lock);
    return ended;
}

MotusStudyJob *motus_study_job_start(const MtModel *m, const unsigned char *todo, int ncase, int nthread,
                                     const char *frames_dir, GError **error)
{
    if (!m || !m->study || ncase <= 0) {
        g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "no study");
        return NULL;
    }
    MotusStudyJob *j = g_new0(MotusStudyJob, 1);
    g_mutex_init(&j->lock);
    j->model = mt_model_copy(m);
    j->frames_dir = g_strdup(frames_dir);
    j->ncase = ncase;
    j->state = g_new0(unsigned char, (gsize)ncase);
    j->res = g_new0(MtStudyCaseResult, (gsize)ncase);
    for (int c = 0; c < ncase; c++)
        if (todo[c]) j->state[c] = CASE_TODO, j->total++;
    j->nthread = MAX(1, MIN(nthread, j->total));
    j->thread = g_new0(GThread *, (gsize)j->nthread);
    if (!j->model) {
        j->nthread = 0;
        motus_study_job_free(j);
        g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_FAILED, "out of memory");
        return NULL;
    }
    for (int i = 0; i < j->nthread; i++) {
        j->thread[i] = g_thread_try_new("motus-study", worker, j, error);
        if (!j->thread[i]) {
            j->nthread = i;
            motus_study_job_free(j);
            return NULL;
        }
    }
    return j;
}

void motus_study_job_cancel(MotusStudyJob *j)
{
    if (j) j->cancel = 1; /* the solver polls it (volatile) */
}

int motus_study_job_collect(MotusStudyJob *j, MtStudyCaseResult *out, int max)
{
    int n = 0;
    g_mutex_lock(&j->lock);
    for (int c = 0; c < j->ncase && n < max; c++)
        if (j->state[c] == CASE_DONE) {
            out[n++] = j->res[c];
            j->state[c] = CASE_COLLECTED;
        }
    g_mutex_unlock(&j->lock);
    return n;
}

void motus_study_job_progress(MotusStudyJob *j, int *total, int *done, int *failed, int *running)
{
    g_mutex_lock(&j->lock);
    *total = j->total, *done = j->done, *failed = j->failed, *running = j->running;
    g_mutex_unlock(&j->lock);
}

gboolean motus_study_job_ended(MotusStudyJob *j)
{
    g_mutex_lock(&j->lock);
    gboolean e = j->ended == j->nthread;
    g_mutex_unlock(&j->lock);
    return e;
}

gboolean motus_study_job_cancelled(MotusStudyJob *j) { return j->cancel != 0; }

void motus_study_job_free(MotusStudyJob *j)
{
    if (!j) return;
    motus_study_job_cancel(j);
    for (int i = 0; i < j->nthread; i++)
        if (j->thread[i]) g_thread_join(j->thread[i]);
    mt_model_free(j->model);
    g_free(j->frames_dir);
    g_free(j->thread);
    g_free(j->state);
    g_free(j->res);
    g_free(j->known);
    g_mutex_clear(&j->lock);
    g_free(j);
}

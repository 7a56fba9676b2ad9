/* motus-run-bridge.c — the solver's worker thread and its frames (see
 * motus-run-bridge.h). Threading: fields under "shared" are read and written
 * with `lock` held, except `paused` and `cancel`, which are atomic, and
 * `frames`, which has its own lock; everything else belongs to the GTK
 * thread, except sys/st/csv which the worker owns while it runs.
 *
 * The frames live in a MotusFrameStore (motus-frame-store.h): the worker
 * fills a row and appends it without the lock, and full blocks of frames go
 * to a spill file, so the window's memory holds the time of every frame, the
 * block being filled and the few columns read one value at a time, not every
 * result column of every frame (300 MB for 100 bodies, 10 s at 1 ms). */
#include "motus-run-bridge.h"

#include <math.h>
#include <string.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "motus-frame-store.h"
#include "motus-i18n.h"
#include "motus/analysis.h"
#include "motus/results.h"
#include "motus/run.h"
#include "motus/project.h"
#include "motus/store.h"

struct _MotusRunBridge {
    GObject parent_instance;

    /* GTK thread */
    GThread *thread;
    guint poll_id;
    guint last_emitted;
    char **colnames; /* ncol names, NULL-terminated */
    int nbody, ncol;
    double until;
    gint64 t_start, t_end;

    /* worker (owned while the thread runs) */
    MtSystem *sys;
    MtCsv *csv;
    MtStore *store;     /* the project the run is stored in (the worker's own handle), or NULL */
    MtRun *run;
    long run_id;        /* stored run (0: not stored); readable from the GTK thread after start */
    char store_error[512]; /* why the run could not be stored completely ("" when it was) */
    char diverged[512]; /* set by the frame callback when the state stopped being finite */
    MotusRunJob job;    /* what the worker does (job.fn NULL: mt_run) */
    gboolean nomem;     /* set by the frame callback when memory for a frame could not be had */

    /* shared */
    GMutex lock;
    GCond cond;
    MotusFrameStore *frames; /* its own lock; the worker appends, the GTK thread reads */
    int paused;        /* atomic */
    gboolean done;
    MtStatus status;
    char message[512];
    char singular[512]; /* mt_run_singular_note of the run ("" for a job) */
    volatile int cancel;
};

G_DEFINE_TYPE(MotusRunBridge, motus_run_bridge, G_TYPE_OBJECT)
G_DEFINE_QUARK(motus - run - error - quark, motus_run_error)

enum { SIG_FRAMES, SIG_FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void finish(MotusRunBridge *self);

static void motus_run_bridge_dispose(GObject *object)
{
    MotusRunBridge *self = MOTUS_RUN_BRIDGE(object);
    if (self->thread) {
        g_atomic_int_set(&self->cancel, 1);
        g_mutex_lock(&self->lock);
        g_atomic_int_set(&self->paused, FALSE);
        g_cond_broadcast(&self->cond);
        g_mutex_unlock(&self->lock);
        g_thread_join(self->thread);
        self->thread = NULL;
    }
    g_clear_handle_id(&self->poll_id, g_source_remove);
    G_OBJECT_CLASS(motus_run_bridge_parent_class)->dispose(object);
}

static void motus_run_bridge_finalize(GObject *object)
{
    MotusRunBridge *self = MOTUS_RUN_BRIDGE(object);
    g_clear_pointer(&self->csv, mt_csv_free);
    g_clear_pointer(&self->sys, mt_system_free);
    g_clear_pointer(&self->colnames, g_strfreev);
    if (self->run) mt_store_run_end(self->run, MT_ERR_ARG, "", NULL);
    g_clear_pointer(&self->store, mt_store_close);
    motus_frame_store_free(self->frames);
    g_mutex_clear(&self->lock);
    g_cond_clear(&self->cond);
    G_OBJECT_CLASS(motus_run_bridge_parent_class)->finalize(object);
}

static void motus_run_bridge_class_init(MotusRunBridgeClass *klass)
{
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    object_class->dispose = motus_run_bridge_dispose;
    object_class->finalize = motus_run_bridge_finalize;
    /* New frames are stored; argument: the number of frames now. */
    signals[SIG_FRAMES] = g_signal_new("frames", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                       G_TYPE_NONE, 1, G_TYPE_UINT);
    /* The run ended: ok, cancelled, message (the solver's, naming the entity; "" when ok). */
    signals[SIG_FINISHED] = g_signal_new("finished", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 3, G_TYPE_BOOLEAN, G_TYPE_BOOLEAN, G_TYPE_STRING);
}

static void motus_run_bridge_init(MotusRunBridge *self)
{
    g_mutex_init(&self->lock);
    g_cond_init(&self->cond);
    self->frames = motus_frame_store_new();
}

MotusRunBridge *motus_run_bridge_new(void) { return g_object_new(MOTUS_TYPE_RUN_BRIDGE, NULL); }

/* ---- worker thread -------------------------------------------------------- */

/* A run that blows up to NaN or infinity is stopped with a message naming the
 * first body affected (the core integrates on without complaint). */
static gboolean check_finite(MotusRunBridge *self, const MtState *st)
{
    int b = mt_state_nonfinite_body(st);
    if (b < 0) return TRUE;
    g_snprintf(self->diverged, sizeof self->diverged,
               _("body '%s': the motion is no longer finite at t = %g s; the run diverged "
                 "(try a smaller step, another method or softer springs)"),
               mt_system_model(mt_state_system(st))->body[b].name, mt_state_time(st));
    return FALSE;
}

/* One row of the frame store from a state: t, body poses, result columns. */
static void fill_row(MtCsv *csv, MtState *st, double *row)
{
    int nbody = mt_system_nbody(mt_state_system(st));
    row[0] = mt_state_time(st);
    for (int b = 0; b < nbody; b++) mt_state_body(st, b, row + 1 + 7 * b, row + 4 + 7 * b, NULL);
    mt_frame_values(csv, st, row + 1 + 7 * nbody);
}

static int frame_cb(void *user, MtState *st)
{
    MotusRunBridge *self = user;
    if (!check_finite(self, st)) return 1;
    double *row = motus_frame_store_row(self->frames);
    if (!row) {
        self->nomem = TRUE;
        return 1;
    }
    fill_row(self->csv, st, row); /* not a frame yet: no reader looks at it */
    if (self->run && mt_store_run_frame(self->run, st)) {
        g_strlcpy(self->store_error, mt_store_run_error(self->run)->msg, sizeof self->store_error);
        return 1;
    }
    if (!motus_frame_store_append(self->frames)) {
        self->nomem = TRUE;
        return 1;
    }
    if (g_atomic_int_get(&self->paused)) {
        g_mutex_lock(&self->lock);
        while (g_atomic_int_get(&self->paused) && !g_atomic_int_get(&self->cancel)) g_cond_wait(&self->cond, &self->lock);
        g_mutex_unlock(&self->lock);
    }
    return g_atomic_int_get(&self->cancel);
}

/* The solver thread runs at a slightly lower priority than the GTK thread
 * and llvmpipe's threads, so that a frame of the window is not queued behind
 * a step of the solver when the cores are busy. On the 2-core test machine
 * loaded by other users (load average 4.6-5), nice 5 took the 95th
 * percentile of the window's frame interval from 50 to 33 ms and of a 5 ms
 * timer's lateness from 35-45 to 21 ms, and the run did not take longer
 * (measured 2026-11-24, commit 19c80ce of bench/RESULTS.md). nice 10 did as well for the window but lengthened
 * runs by up to a third under a synthetic load, hence the middle value. */
enum { SOLVER_NICE = 5 };

static gpointer worker(gpointer data)
{
    MotusRunBridge *self = data;
#ifdef __linux__
    /* on Linux a thread's nice value is set through its thread id */
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), SOLVER_NICE);
#endif
    MtError err = {0};
    MtRunStats stats = {0};
    MtStatus rc = MT_ERR_NOMEM;
    MtState *st = mt_state_new(self->sys, &err);
    self->diverged[0] = 0;
    self->nomem = FALSE;
    if (st && self->job.fn)
        rc = self->job.fn(st, frame_cb, self, &self->cancel, self->job.data, &err);
    else if (st && !(rc = mt_run_start(st, mt_system_solver(self->sys), &err)))
        rc = mt_run(st, mt_system_solver(self->sys), frame_cb, self, &self->cancel, &stats, &err);
    double t_end = st ? mt_state_time(st) : 0;
    mt_state_free(st);
    if (rc == MT_OK && self->diverged[0]) {
        rc = MT_ERR_SOLVE;
        g_strlcpy(err.msg, self->diverged, sizeof err.msg);
    }
    if (rc == MT_OK && self->nomem) {
        rc = MT_ERR_NOMEM;
        g_snprintf(err.msg, sizeof err.msg,
                   _("the results no longer fit in memory: the run was stopped at t = %g s (the frames so far are "
                     "kept); set a larger output step or 'every' in the solver settings"),
                   t_end);
    }
    if (rc == MT_OK && self->store_error[0]) {
        rc = MT_ERR_IO;
        g_snprintf(err.msg, sizeof err.msg, _("the run could not be stored: %s"), self->store_error);
    }
    if (self->run) { /* the project gets the end of the run: finished, failed or stopped by the user */
        gboolean stopped = rc == MT_OK && g_atomic_int_get(&self->cancel);
        MtError serr = {0};
        MtStatus src = mt_store_run_end(self->run, rc, rc ? err.msg : "", &serr);
        self->run = NULL;
        if (src == MT_OK && stopped) {
            guint n = motus_frame_store_n_frames(self->frames);
            double t_last = n ? motus_frame_store_time(self->frames, n - 1) : t_end;
            src = mt_project_run_stopped(self->store, self->run_id, t_last, &serr);
        }
        if (src && rc == MT_OK) {
            rc = MT_ERR_IO;
            g_snprintf(err.msg, sizeof err.msg, _("the run could not be stored: %s"), serr.msg);
        }
        g_clear_pointer(&self->store, mt_store_close);
    }
    char singular[512];
    mt_run_singular_note(&stats, mt_system_solver(self->sys), singular, sizeof singular);
    g_mutex_lock(&self->lock);
    g_strlcpy(self->singular, singular, sizeof self->singular);
    self->status = rc;
    g_strlcpy(self->message, rc ? err.msg : "", sizeof self->message);
    self->done = TRUE;
    g_mutex_unlock(&self->lock);
    return NULL;
}

/* ---- GTK thread ------------------------------------------------------------ */

static gboolean poll_cb(gpointer data)
{
    MotusRunBridge *self = data;
    g_mutex_lock(&self->lock);
    gboolean done = self->done;
    g_mutex_unlock(&self->lock);
    guint n = motus_run_bridge_n_frames(self);
    if (n != self->last_emitted) {
        self->last_emitted = n;
        g_signal_emit(self, signals[SIG_FRAMES], 0, n);
    }
    if (!done) return G_SOURCE_CONTINUE;
    self->poll_id = 0;
    finish(self);
    return G_SOURCE_REMOVE;
}

/* Joins the finished worker, releases its data and emits "finished". */
static void finish(MotusRunBridge *self)
{
    g_thread_join(self->thread);
    self->thread = NULL;
    self->t_end = g_get_monotonic_time();
    g_clear_handle_id(&self->poll_id, g_source_remove);
    g_clear_pointer(&self->csv, mt_csv_free);
    g_clear_pointer(&self->sys, mt_system_free);
    motus_frame_store_trim(self->frames); /* the last frames to the spill file, the worker's buffers freed */
    self->job = (MotusRunJob){0}; /* its data is the caller's, read after "finished" */
    gboolean cancelled = g_atomic_int_get(&self->cancel) != 0;
    gboolean ok = self->status == MT_OK;
    char *msg = g_strdup(self->message);
    guint n = motus_run_bridge_n_frames(self);
    g_object_ref(self);
    if (n != self->last_emitted) {
        self->last_emitted = n;
        g_signal_emit(self, signals[SIG_FRAMES], 0, n);
    }
    g_signal_emit(self, signals[SIG_FINISHED], 0, ok, cancelled, msg);
    g_object_unref(self);
    g_free(msg);
}

/* The layout of the frame store for a system and its result columns (every frame dropped). */
static void set_shape(MotusRunBridge *self, const MtSystem *sys, MtCsv *csv)
{
    self->nbody = mt_system_nbody(sys);
    self->ncol = mt_csv_ncols(csv);
    motus_frame_store_reset(self->frames, self->nbody, self->ncol);
    self->until = mt_system_solver(sys)->until;
    g_strfreev(self->colnames);
    self->colnames = g_new0(char *, self->ncol + 1);
    for (int k = 0; k < self->ncol; k++) self->colnames[k] = g_strdup(mt_csv_colname(csv, k));
}

/* Memory the system could give now, bytes (0: unknown). */
static guint64 available_memory(void)
{
    g_autofree char *text = NULL;
    if (g_file_get_contents("/proc/meminfo", &text, NULL, NULL)) {
        const char *p = strstr(text, "MemAvailable:");
        if (p) return g_ascii_strtoull(p + strlen("MemAvailable:"), NULL, 10) * 1024;
    }
#ifdef _SC_AVPHYS_PAGES
    long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && size > 0) return (guint64)pages * (guint64)size;
#endif
    return 0;
}

/* Refuses a run (or a stored run to show) whose frames would not fit in the
 * memory free now, or in the disk space of the spill file: running out of
 * either would end the application with the user's unsaved work. In memory a
 * frame is its time, or every value when there is no spill file. */
static gboolean frames_fit(MotusRunBridge *self, double frames, int stride, GError **error)
{
    gboolean spill = motus_frame_store_spills(self->frames);
    int kept = spill ? 1 : stride;
    double bytes = frames * (double)kept * sizeof(double), disk = spill ? frames * (double)stride * sizeof(double) : 0;
    guint64 avail = available_memory(), free_disk = spill ? motus_frame_store_disk_free(self->frames) : 0;
    if (avail && bytes > 0.8 * (double)avail) {
        g_autofree char *need = g_format_size((guint64)fmin(bytes, 1e18)), *have = g_format_size(avail);
        g_set_error(error, MOTUS_RUN_ERROR, MOTUS_RUN_ERROR_MODEL,
                    _("the run would keep %s of results in memory (%.0f frames of %d values), more than the %s free: "
                      "set a larger output step or 'every' in the solver settings, or an earlier end time"),
                    need, frames, kept, have);
        return FALSE;
    }
    if (free_disk && disk > 0.9 * (double)free_disk) {
        g_autofree char *need = g_format_size((guint64)fmin(disk, 1e18)), *have = g_format_size(free_disk);
        g_set_error(error, MOTUS_RUN_ERROR, MOTUS_RUN_ERROR_MODEL,
                    _("the run would write %s of results to the folder %s (%.0f frames of %d values), more than the "
                      "%s free there: set a larger output step or 'every' in the solver settings, or an earlier end "
                      "time"),
                    need, motus_frame_store_dir(self->frames), frames, stride, have);
        return FALSE;
    }
    return TRUE;
}

gboolean motus_run_bridge_start(MotusRunBridge *self, const MtModel *model, GError **error)
{
    return motus_run_bridge_start_stored(self, model, NULL, error);
}

gboolean motus_run_bridge_start_stored(MotusRunBridge *self, const MtModel *model, const char *project, GError **error)
{
    return motus_run_bridge_start_job(self, model, project, NULL, error);
}

gboolean motus_run_bridge_start_job(MotusRunBridge *self, const MtModel *model, const char *project,
                                    const MotusRunJob *job, GError **error)
{
    g_return_val_if_fail(MOTUS_IS_RUN_BRIDGE(self), FALSE);
    if (self->thread) {
        g_set_error(error, MOTUS_RUN_ERROR, MOTUS_RUN_ERROR_BUSY, "%s", _("a run is going; stop it first"));
        return FALSE;
    }
    MtError err = {0};
    MtSystem *sys = mt_system_compile(model, &err);
    if (sys && mt_system_assemble(sys, &err)) { mt_system_free(sys); sys = NULL; }
    if (!sys) {
        g_set_error(error, MOTUS_RUN_ERROR, MOTUS_RUN_ERROR_MODEL, "%s", err.msg);
        return FALSE;
    }
    MtCsv *csv = mt_csv_new(sys, NULL, &err);
    if (!csv) {
        mt_system_free(sys);
        g_set_error(error, MOTUS_RUN_ERROR, MOTUS_RUN_ERROR_MODEL, "%s", err.msg);
        return FALSE;
    }
    const MtSolverSpec *sv = mt_system_solver(sys);
    double frames = sv->step > 0 && !(job && job->single) ? floor(sv->until / (sv->step * MAX(sv->every, 1))) + 2 : 2;
    if (!frames_fit(self, frames, 1 + 7 * mt_system_nbody(sys) + mt_csv_ncols(csv), error)) {
        mt_csv_free(csv);
        mt_system_free(sys);
        return FALSE;
    }
    /* the worker writes the run through its own handle on the project */
    MtStore *store = NULL;
    MtRun *run = NULL;
    if (project) {
        store = mt_store_open(project, 0, &err);
        run = store ? mt_store_run_begin(store, sys, sv, &err) : NULL;
        if (run && job && job->what && mt_store_run_log(run, "info", NAN, job->what, &err)) {
            mt_store_run_end(run, MT_ERR_IO, err.msg, NULL);
            run = NULL;
        }
        if (!run) {
            mt_store_close(store);
            mt_csv_free(csv);
            mt_system_free(sys);
            g_set_error(error, MOTUS_RUN_ERROR, MOTUS_RUN_ERROR_STORE, "%s", err.msg);
            return FALSE;
        }
    }
    self->store = store;
    self->run = run;
    self->run_id = run ? mt_store_run_id(run) : 0;
    self->store_error[0] = 0;
    self->sys = sys;
    self->csv = csv;
    set_shape(self, sys, csv);
    if (job && job->single) self->until = 0; /* runs start at 0 */
    self->job = job ? *job : (MotusRunJob){0};
    g_mutex_lock(&self->lock);
    g_atomic_int_set(&self->paused, FALSE);
    self->done = FALSE;
    self->status = MT_OK;
    self->message[0] = 0;
    g_mutex_unlock(&self->lock);
    g_atomic_int_set(&self->cancel, 0);
    self->last_emitted = 0;
    self->t_start = self->t_end = g_get_monotonic_time();
    self->thread = g_thread_new("motus-solver", worker, self);
    self->poll_id = g_timeout_add(30, poll_cb, self);
    return TRUE;
}

void motus_run_bridge_cancel(MotusRunBridge *self)
{
    g_return_if_fail(MOTUS_IS_RUN_BRIDGE(self));
    g_atomic_int_set(&self->cancel, 1);
    g_mutex_lock(&self->lock);
    g_cond_broadcast(&self->cond);
    g_mutex_unlock(&self->lock);
}

void motus_run_bridge_stop_and_wait(MotusRunBridge *self)
{
    g_return_if_fail(MOTUS_IS_RUN_BRIDGE(self));
    if (!self->thread) return;
    motus_run_bridge_cancel(self);
    finish(self);
}

void motus_run_bridge_set_paused(MotusRunBridge *self, gboolean paused)
{
    g_return_if_fail(MOTUS_IS_RUN_BRIDGE(self));
    g_mutex_lock(&self->lock);
    g_atomic_int_set(&self->paused, paused != FALSE);
    g_cond_broadcast(&self->cond);
    g_mutex_unlock(&self->lock);
}

gboolean motus_run_bridge_get_paused(MotusRunBridge *self)
{
    return g_atomic_int_get(&self->paused);
}

gboolean motus_run_bridge_is_running(MotusRunBridge *self) { return self->thread != NULL; }

void motus_run_bridge_clear(MotusRunBridge *self)
{
    if (self->thread) return;
    self->run_id = 0;
    motus_frame_store_reset(self->frames, 0, 0);
    self->last_emitted = 0;
    self->nbody = self->ncol = 0;
    g_clear_pointer(&self->colnames, g_strfreev);
}

int motus_run_bridge_n_bodies(MotusRunBridge *self) { return self->nbody; }
long motus_run_bridge_run_id(MotusRunBridge *self) { return self->run_id; }
int motus_run_bridge_n_columns(MotusRunBridge *self) { return self->ncol; }
double motus_run_bridge_until(MotusRunBridge *self) { return self->until; }

const char *motus_run_bridge_column_name(MotusRunBridge *self, int k)
{
    return (k >= 0 && k < self->ncol && self->colnames) ? self->colnames[k] : NULL;
}

int motus_run_bridge_find_column(MotusRunBridge *self, const char *name)
{
    for (int k = 0; k < self->ncol && self->colnames; k++)
        if (!strcmp(self->colnames[k], name)) return k;
    return -1;
}

double motus_run_bridge_elapsed(MotusRunBridge *self)
{
    gint64 end = self->thread ? g_get_monotonic_time() : self->t_end;
    return (double)(end - self->t_start) * 1e-6;
}

guint motus_run_bridge_n_frames(MotusRunBridge *self) { return motus_frame_store_n_frames(self->frames); }

double motus_run_bridge_last_time(MotusRunBridge *self)
{
    guint n = motus_run_bridge_n_frames(self);
    return n ? motus_frame_store_time(self->frames, n - 1) : 0;
}

gboolean motus_run_bridge_get_frame(MotusRunBridge *self, guint i, double *t, double *poses)
{
    return motus_frame_store_frame(self->frames, i, t, poses);
}

guint motus_run_bridge_frame_at(MotusRunBridge *self, double t) { return motus_frame_store_frame_at(self->frames, t); }

guint motus_run_bridge_copy_column(MotusRunBridge *self, int col, guint from, guint n, double *t, double *v)
{
    return motus_frame_store_copy_column(self->frames, col, from, n, t, v);
}

double motus_run_bridge_value(MotusRunBridge *self, int col, guint i)
{
    return motus_frame_store_value(self->frames, col, i);
}

gsize motus_run_bridge_bytes_held(MotusRunBridge *self) { return motus_frame_store_bytes_held(self->frames); }

gboolean motus_run_bridge_load(MotusRunBridge *self, const char *project, long run, GError **error)
{
    g_return_val_if_fail(MOTUS_IS_RUN_BRIDGE(self), FALSE);
    if (self->thread) {
        g_set_error(error, MOTUS_RUN_ERROR, MOTUS_RUN_ERROR_BUSY, "%s", _("a run is going; stop it first"));
        return FALSE;
    }
    MtError err = {0};
    MtStore *store = mt_store_open(project, MT_STORE_READONLY, &err);
    MtRunInfo info;
    MtSystem *sys = store && mt_store_run_info(store, run, &info, &err) == MT_OK ? mt_store_run_system(store, run, &err) : NULL;
    MtCsv *csv = sys ? mt_csv_new(sys, NULL, &err) : NULL;
    MtState *st = csv ? mt_state_new(sys, &err) : NULL;
    MtFrameReader *rd = st ? mt_frames_open(store, run, &err) : NULL;
    gboolean ok = rd != NULL;
    g_autoptr(GError) big = NULL; /* too many frames to hold: the frames shown stay */
    gboolean fits =
        !ok || frames_fit(self, (double)mt_frames_count(rd), 1 + 7 * mt_system_nbody(sys) + mt_csv_ncols(csv), &big);
    MtSystemInfo in = {0};
    if (sys) mt_system_info(sys, &in);
    if (ok && fits) {
        set_shape(self, sys, csv);
        self->until = info.solver.until;
        self->run_id = run;
        long n = mt_frames_count(rd);
        for (long i = 0; i < n && ok; i++) {
            const double *f = mt_frames_get(rd, i, &err);
            ok = f && mt_state_from_frame(st, f, mt_system_nbody(sys), in.nrow, &err) == MT_OK;
            double *row = ok ? motus_frame_store_row(self->frames) : NULL;
            if (ok && row) fill_row(csv, st, row);
            if (ok && (!row || !motus_frame_store_append(self->frames))) {
                ok = FALSE;
                g_strlcpy(err.msg, _("out of memory"), sizeof err.msg);
            }
        }
        motus_frame_store_trim(self->frames);
        self->last_emitted = motus_run_bridge_n_frames(self);
        self->t_start = self->t_end = 0;
    }
    if (!fits) {
        g_set_error(error, MOTUS_RUN_ERROR, MOTUS_RUN_ERROR_MODEL, _("run %ld of '%s' cannot be shown: %s"), run,
                    project, big->message);
    } else if (!ok) {
        motus_run_bridge_clear(self);
        g_set_error(error, MOTUS_RUN_ERROR, MOTUS_RUN_ERROR_STORE, _("run %ld of '%s' cannot be read: %s"), run, project,
                    err.msg);
    }
    mt_frames_close(rd);
    mt_state_free(st);
    mt_csv_free(csv);
    mt_system_free(sys);
    mt_store_close(store);
    return ok && fits;
}

void motus_run_bridge_singular_note(MotusRunBridge *self, char *buf, gsize n)
{
    g_mutex_lock(&self->lock);
    g_strlcpy(buf, self->singular, n);
    g_mutex_unlock(&self->lock);
}

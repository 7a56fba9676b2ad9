/* motus-run-bridge.h — runs the solver on a worker thread and hands its
 * frames to the GTK thread.
 *
 * Start compiles a copy of the model (mt_system_compile) on the calling
 * thread and starts mt_run on a GThread with its own MtState. Each output
 * frame (time, body poses and every result column of mt_frame_values) is
 * appended to a frame store (motus-frame-store.h: memory holds the times,
 * the block of frames being filled and the columns read value by value; the
 * rest is in a spill file, read on demand). The GTK thread polls the
 * store (about 30 times a second while running) and emits "frames" and, at
 * the end, "finished"; the worker never touches GTK. Stop sets the atomic
 * cancel flag that mt_run polls between steps; pause holds the worker in its
 * frame callback. The frames stay after the run for playback and plots.
 *
 * Frame layout: a pose is 7 doubles per body, the body frame origin and the
 * quaternion (w, x, y, z), as in motus-scene.h. */
#ifndef MOTUS_RUN_BRIDGE_H
#define MOTUS_RUN_BRIDGE_H

#include <glib-object.h>

#include "motus/model.h"
#include "motus/run.h"

G_BEGIN_DECLS

#define MOTUS_TYPE_RUN_BRIDGE (motus_run_bridge_get_type())
G_DECLARE_FINAL_TYPE(MotusRunBridge, motus_run_bridge, MOTUS, RUN_BRIDGE, GObject)

#define MOTUS_RUN_ERROR (motus_run_error_quark())
GQuark motus_run_error_quark(void);
typedef enum { MOTUS_RUN_ERROR_BUSY, MOTUS_RUN_ERROR_MODEL, MOTUS_RUN_ERROR_SOLVE, MOTUS_RUN_ERROR_STORE } MotusRunError;

MotusRunBridge *motus_run_bridge_new(void);

/* Compiles a copy of the model and starts the run; FALSE with error when a
 * run is going or the model does not compile (the message names the entity). */
gboolean motus_run_bridge_start(MotusRunBridge *self, const MtModel *model, GError **error);
/* The same, storing the run in the project file `project` (SQLite; NULL:
 * not stored): the worker writes frames through its own handle as they come
 * and closes the run finished, failed, or interrupted "stopped by the user". */
gboolean motus_run_bridge_start_stored(MotusRunBridge *self, const MtModel *model, const char *project,
                                       GError **error);
/* What the worker does instead of mt_run (an analysis, motus-analysis-job.h):
 * fn runs on the worker with the bridge's own state, hands its frames to
 * frame(frame_user, st) as mt_run would (they are kept, plotted and stored
 * like a run's) and polls cancel; data is the caller's (the worker's until
 * "finished"). what (NULL: none) goes into the stored run's log, saying what
 * made it; single: the job gives one frame (its end time is its start). */
typedef MtStatus (*MotusRunJobFn)(MtState *st, MtFrameFn frame, void *frame_user, const volatile int *cancel,
                                  gpointer data, MtError *err);
typedef struct {
    MotusRunJobFn fn;
    gpointer data;
    const char *what;
    gboolean single;
} MotusRunJob;
/* Starts a job (NULL: a run) as motus_run_bridge_start_stored starts a run. */
gboolean motus_run_bridge_start_job(MotusRunBridge *self, const MtModel *model, const char *project,
                                    const MotusRunJob *job, GError **error);
/* Id of the stored run being made or shown (0: not stored). */
long motus_run_bridge_run_id(MotusRunBridge *self);
/* Replaces the frames by those of a run stored in a project (every result
 * column recomputed from the stored frames with the run's own model). */
gboolean motus_run_bridge_load(MotusRunBridge *self, const char *project, long run, GError **error);
/* Asks the worker to stop at the next step; returns at once. */
void motus_run_bridge_cancel(MotusRunBridge *self);
/* Cancels and waits for the worker; "finished" is emitted before it returns. */
void motus_run_bridge_stop_and_wait(MotusRunBridge *self);
/* Holds (TRUE) or releases the worker. */
void motus_run_bridge_set_paused(MotusRunBridge *self, gboolean paused);
gboolean motus_run_bridge_get_paused(MotusRunBridge *self);
gboolean motus_run_bridge_is_running(MotusRunBridge *self);
/* Drops the stored frames (ignored while running). */
void motus_run_bridge_clear(MotusRunBridge *self);

/* Shape of the stored run (0 before the first run). */
int motus_run_bridge_n_bodies(MotusRunBridge *self);
int motus_run_bridge_n_columns(MotusRunBridge *self);
/* Name of result column k (mt_csv_colname), or NULL. */
const char *motus_run_bridge_column_name(MotusRunBridge *self, int k);
/* Index of a column by name, or -1. */
int motus_run_bridge_find_column(MotusRunBridge *self, const char *name);
/* End time of the run's solver settings, s. */
double motus_run_bridge_until(MotusRunBridge *self);
/* Wall-clock seconds since the start (to the end once finished). */
double motus_run_bridge_elapsed(MotusRunBridge *self);
/* After a run that passed singular positions, what to tell the user about
 * them (mt_run_singular_note), else "". */
void motus_run_bridge_singular_note(MotusRunBridge *self, char *buf, gsize n);

guint motus_run_bridge_n_frames(MotusRunBridge *self);
/* Time of the last stored frame (0 when none). */
double motus_run_bridge_last_time(MotusRunBridge *self);
/* Time and (if poses is not NULL) body poses of frame i; FALSE when absent. */
gboolean motus_run_bridge_get_frame(MotusRunBridge *self, guint i, double *t, double *poses);
/* Index of the last frame at or before time t (0 when none is). */
guint motus_run_bridge_frame_at(MotusRunBridge *self, double t);
/* Value of column col at frame i (NAN when absent). */
double motus_run_bridge_value(MotusRunBridge *self, int col, guint i);
/* Copies times and values of column col for frames from .. from + n - 1
 * (clipped to what is stored); returns how many were copied. */
guint motus_run_bridge_copy_column(MotusRunBridge *self, int col, guint from, guint n, double *t, double *v);
/* Bytes of memory the frames take (blocks in memory, times, cached columns). */
gsize motus_run_bridge_bytes_held(MotusRunBridge *self);

G_END_DECLS

#endif

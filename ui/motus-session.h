/* motus-session.h — the runs a window shows and their playback: the worker
 * (MotusRunBridge: the running or loaded run and its frames, which the plots
 * and the view read), the time shown, whether it plays and at what speed,
 * looping, and whether it follows a live run.
 *
 * Playback advances on the frame clock of the widget it is given (the
 * window), so that it stops when that is gone. Signals:
 *   "time-changed" (double t)  the time shown changed: views follow
 *   notify::playing            playback started or stopped
 * It holds no widgets: the window shows the frame at the time. It also keeps
 * how far the window's readers of the frames have got, so that they take in
 * only new frames as a live run grows. */
#ifndef MOTUS_SESSION_H
#define MOTUS_SESSION_H

#include <gtk/gtk.h>

#include "motus-run-bridge.h"

G_BEGIN_DECLS

#define MOTUS_TYPE_SESSION (motus_session_get_type())
G_DECLARE_FINAL_TYPE(MotusSession, motus_session, MOTUS, SESSION, GObject)

/* clock: the widget whose frame clock drives playback (not referenced). */
MotusSession *motus_session_new(GtkWidget *clock);
/* Stops ticking on the clock widget (call before it goes). */
void motus_session_detach(MotusSession *self);

MotusRunBridge *motus_session_get_bridge(MotusSession *self);
guint motus_session_n_frames(MotusSession *self);

double motus_session_get_time(MotusSession *self);
/* Shows time t ("time-changed"); playback and following go on. */
void motus_session_show_time(MotusSession *self, double t);
gboolean motus_session_get_playing(MotusSession *self);
/* Starts or stops playback (notify::playing every time: the controls follow). */
void motus_session_set_playing(MotusSession *self, gboolean playing);
/* Whether the time shown follows the newest frame of a live run. */
gboolean motus_session_get_follow_live(MotusSession *self);
void motus_session_set_follow_live(MotusSession *self, gboolean follow);
/* Playback speed (1: real time) and whether it starts again at the end. */
void motus_session_set_speed(MotusSession *self, double speed);
void motus_session_set_loop(MotusSession *self, gboolean loop);

/* Frames the plots have appended to their curves. */
guint motus_session_get_plotted(MotusSession *self);
void motus_session_set_plotted(MotusSession *self, guint n);
/* Frames whose flexible-body fields are in the colour range of the run. */
guint motus_session_get_flex_scanned(MotusSession *self);
void motus_session_set_flex_scanned(MotusSession *self, guint n);
/* Whether the running run's first frames have come (what needs frames may be enabled). */
gboolean motus_session_get_run_frames_seen(MotusSession *self);
void motus_session_set_run_frames_seen(MotusSession *self, gboolean seen);
/* A new run starts: every reader starts again from frame 0, no frame seen yet. */
void motus_session_restart_readers(MotusSession *self);

G_END_DECLS

#endif

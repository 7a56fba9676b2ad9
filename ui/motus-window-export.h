/* motus-window-export.h — exporting the 3D view's animation of the run shown
 * to a video file or an animated GIF (ui/motus-video.c), from the window
 * (win.export-video, Ctrl+Shift+E: a dialog with the file, frame rate, size
 * and time range) and from `motus --export-video` (app/motus.c).
 *
 * The frames are drawn one per main-loop turn at t0, t0 + 1/fps, … up to t1
 * (both ends included: floor((t1 − t0)·fps) + 1 frames), each at the size
 * asked for whatever the view's size on screen, with the camera and the
 * flexible-body settings of the view. The status bar shows the progress with
 * the runs' progress bar; Esc (win.stop) cancels and removes the file. */
#ifndef MOTUS_WINDOW_EXPORT_H
#define MOTUS_WINDOW_EXPORT_H

#include "motus-window.h"

G_BEGIN_DECLS

/* What the export ended with: ok, or the reason in words (cancelled, a
 * write error …); message is the status bar's text either way. */
typedef void (*MotusExportDone)(MotusWindow *win, gboolean ok, const char *message, gpointer data);

/* Starts exporting the frames of the run shown between t0 and t1 (s; NAN:
 * the run's first or last frame) to `path` at fps frames a second, w x h
 * pixels (rounded down to even for H.264 and VP9); plots: the window's plots
 * stacked in the right two fifths, the view in the rest. FALSE with the reason when it cannot start (no frames, a run or an
 * export going, a bad range, a file the encoder refuses). done (may be NULL)
 * is called once at the end. */
gboolean motus_window_export_video(MotusWindow *self, const char *path, int fps, int w, int h, double t0, double t1,
                                   gboolean plots, MotusExportDone done, gpointer data, GError **error);
/* An export is going; cancelling it (the unfinished file is removed). */
gboolean motus_window_export_busy(MotusWindow *self);
void motus_window_export_cancel(MotusWindow *self);
/* Frames written so far by the export going, and how many it will write. */
int motus_window_export_progress(MotusWindow *self, int *total);
/* The export dialog (win.export-video) when open, else NULL. Its widgets are
 * reachable with g_object_get_data: "file" (GtkEntry), "fps", "width",
 * "height", "from", "to" (GtkSpinButton), "plots" (GtkCheckButton), "export"
 * (the button), "message". */
GtkWidget *motus_window_export_dialog(MotusWindow *self);

G_END_DECLS

#endif

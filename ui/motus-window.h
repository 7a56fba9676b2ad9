/* motus-window.h — the main window: opens a text model, shows it in the model
 * tree and the 3D view, runs it on a worker thread (MotusRunBridge) with live
 * animation and plots, and plays the stored frames back.
 *
 * Besides the user's actions (win.open, win.run, win.pause, win.stop,
 * win.play-pause, win.step, win.view-*, win.fit-all, win.orthographic,
 * win.export-png, win.export-csv) it offers the hooks the headless tests use:
 * open a file, run, choose plot columns, set the playback time and save a
 * screenshot of the whole window with a description of where things are. */
#ifndef MOTUS_WINDOW_H
#define MOTUS_WINDOW_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define MOTUS_TYPE_WINDOW (motus_window_get_type())
G_DECLARE_FINAL_TYPE(MotusWindow, motus_window, MOTUS, WINDOW, GtkApplicationWindow)

/* Registers the application's GResource (window template, shaders, icon);
 * call once before creating a window. */
void motus_ui_register_resources(void);

MotusWindow *motus_window_new(GtkApplication *app);

/* Batch mode: errors go to stderr instead of dialogs. */
void motus_window_set_batch(MotusWindow *self, gboolean batch);
/* Opens a text model (stops a run first); FALSE with error naming the file and entity. */
gboolean motus_window_open_file(MotusWindow *self, GFile *file, GError **error);
/* Starts a run of the open model; FALSE with error when it cannot start. */
gboolean motus_window_run(MotusWindow *self, GError **error);
gboolean motus_window_is_running(MotusWindow *self);
/* Replaces the plotted curves by the named result columns; FALSE with error
 * naming the first unknown column. */
gboolean motus_window_set_plot_columns(MotusWindow *self, const char *const *names, GError **error);
/* Shows the stored frame at time t (playback stops). */
void motus_window_set_time(MotusWindow *self, double t);
/* The 3D view (view presets, frame counter, GL errors), the model tree and the plot. */
GtkWidget *motus_window_get_viewport(MotusWindow *self);
GtkWidget *motus_window_get_model_tree(MotusWindow *self);
GtkWidget *motus_window_get_plot(MotusWindow *self);
/* Frames stored by the last run, the playback time shown, whether it plays. */
guint motus_window_get_n_frames(MotusWindow *self);
double motus_window_get_time(MotusWindow *self);
gboolean motus_window_is_playing(MotusWindow *self);
/* The text of the status bar. */
const char *motus_window_get_status(MotusWindow *self);
/* Saves the whole window as a PNG (logical pixels). */
gboolean motus_window_save_screenshot(MotusWindow *self, const char *path, GError **error);
/* Writes where the 3D view, the plot and each visible body are in the
 * screenshot: lines "window W H", "viewport X Y W H", "plot X Y W H",
 * "body NAME X Y". */
gboolean motus_window_write_shot_info(MotusWindow *self, const char *path, GError **error);

G_END_DECLS

#endif

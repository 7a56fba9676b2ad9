/* motus-window.h — the main window: opens projects and text models, shows
 * the model in the tree, the 3D view and the property inspector, edits it
 * (undoable), runs it on a worker thread (MotusRunBridge) with live
 * animation and plots, stores runs in the project, and plays them back.
 *
 * Besides the user's actions (win.open, win.run, win.pause, win.stop,
 * win.play-pause, win.step, win.view-*, win.fit-all, win.orthographic,
 * win.export-png, win.export-csv) it offers the hooks the headless tests use:
 * open a file, run, choose plot columns, set the playback time and save a
 * screenshot of the whole window with a description of where things are. */
#ifndef MOTUS_WINDOW_H
#define MOTUS_WINDOW_H

#include <gtk/gtk.h>

#include "motus/check.h"
#include "motus/edit.h"
#include "motus/flexedit.h"

G_BEGIN_DECLS

#define MOTUS_TYPE_WINDOW (motus_window_get_type())
G_DECLARE_FINAL_TYPE(MotusWindow, motus_window, MOTUS, WINDOW, GtkApplicationWindow)

/* Registers the application's GResource (window template, shaders, icon);
 * call once before creating a window. */
void motus_ui_register_resources(void);

MotusWindow *motus_window_new(GtkApplication *app);

/* Batch mode: errors go to stderr instead of dialogs. */
void motus_window_set_batch(MotusWindow *self, gboolean batch);
/* Opens a project (SQLite, .motus) or a text model (.motus.txt), stopping a
 * run first; a project shows its newest stored run. FALSE with error naming
 * the file and entity. */
gboolean motus_window_open_file(MotusWindow *self, GFile *file, GError **error);
/* A new project: the ground and gravity, no file yet. */
void motus_window_new_project(MotusWindow *self);
/* Saves the model to its file (project or text); FALSE without a file (use
 * save-as) or on error. Save as: a path ending in .txt gets the text form, any
 * other a project (a copy of the open project with its runs, or a new one). */
gboolean motus_window_save(MotusWindow *self, GError **error);
gboolean motus_window_save_as(MotusWindow *self, const char *path, GError **error);
/* File of the document (NULL for a new project), unsaved changes, the editor (borrowed). */
const char *motus_window_get_path(MotusWindow *self);
gboolean motus_window_is_dirty(MotusWindow *self);
MtEditor *motus_window_get_editor(MotusWindow *self);
/* Sets a field of an entity from text (mt_edit_set_field: "25 mm", "L/2"),
 * undoably, and the views follow; FALSE with the reason naming the field. */
gboolean motus_window_set_field(MotusWindow *self, MtEditKind kind, int index, const char *field, const char *text,
                                GError **error);
/* Undo and redo of model edits (Ctrl+Z, Ctrl+Shift+Z); FALSE when there is nothing to do. */
gboolean motus_window_undo(MotusWindow *self);
gboolean motus_window_redo(MotusWindow *self);
/* Selects an entity (tree, view highlight, inspector); MT_EDIT_NKINDS: none. */
void motus_window_select_entity(MotusWindow *self, MtEditKind kind, int index);
/* Bodies and markers pinned for the classroom view (their vectors stay shown beside the selection's). */
guint motus_window_teach_n_pinned(MotusWindow *self);
/* Live meters over the view: add one (a result column, a sensor or "momentum"; FALSE with the reason), how
 * many there are, meter k's text ("system.kinetic = 1.2346 J") and its value (SI) at the time shown. */
gboolean motus_window_meters_add(MotusWindow *self, const char *name, GError **error);
guint motus_window_meters_count(MotusWindow *self);
const char *motus_window_meter_text(MotusWindow *self, guint k);
double motus_window_meter_value(MotusWindow *self, guint k);
/* The Display Units window (NULL when closed). */
GtkWidget *motus_window_units_window(MotusWindow *self);
/* TRUE when the open model is a course problem and its lesson panel is shown. */
gboolean motus_window_lesson_shown(MotusWindow *self);
/* The entity selected (MT_EDIT_NKINDS: none) and its index. */
MtEditKind motus_window_get_selection(MotusWindow *self, int *index);
/* Deletes the selection (asking first when others depend on it and ask is set). */
gboolean motus_window_delete_selected(MotusWindow *self, gboolean ask);
/* Adds a body from a primitive and selects it. */
gboolean motus_window_add_body(MotusWindow *self, const MtBodyDef *def, int *index, GError **error);
/* A click at (x, y) in the 3D view while creating a joint or force element
 * (win.add-joint, win.add-force): what a mouse click does. */
gboolean motus_window_pick_click(MotusWindow *self, double x, double y);
gboolean motus_window_is_picking(MotusWindow *self);
/* A sensor ("position", "velocity", "acceleration"; joints give reactions,
 * springs and force elements their force) on the selection. */
gboolean motus_window_add_sensor(MotusWindow *self, const char *what, GError **error);
/* On the selected joint: a motion driver (a rate law on its first
 * coordinate, shown in the inspector to edit), or a force element acting in
 * it ("torsion" or "friction"); FALSE with the reason when no joint is
 * selected or the joint cannot take it. */
gboolean motus_window_add_driver(MotusWindow *self, GError **error);
gboolean motus_window_add_joint_force(MotusWindow *self, const char *kind, GError **error);
/* Opens the list of modes of the flexible bodies (body: the one shown
 * first, -1 the first); selecting a mode animates its shape in the view.
 * Its "list" (GtkListBox) is reachable with g_object_get_data for tests. */
GtkWidget *motus_window_show_flex_modes(MotusWindow *self, int body);
/* Importing a flexible body from a mesh: the dialog (path may be NULL), and
 * what its Import button does: the body is added to a copy of the model,
 * reduced on a worker thread (progress window, cancel), then committed as
 * one undoable edit and selected. FALSE when it cannot start (the reason in
 * error); the outcome is in the status bar when the worker ends. */
GtkWidget *motus_window_import_mesh(MotusWindow *self, const char *path);
gboolean motus_window_import_mesh_def(MotusWindow *self, const MtFlexMeshDef *def, GError **error);
/* A marker on flexible body `body` at node `label` (spider ≤ 0), or a spider
 * of that radius at point `at` (body axes); reduced again on a worker thread
 * as above. The view's pick tool (win.add-flex-marker) calls it with the
 * surface node clicked. */
gboolean motus_window_add_flex_marker(MotusWindow *self, int body, int label, const double at[3], double spider,
                                      GError **error);
/* A reduction is running on a worker thread; cancelling it. */
gboolean motus_window_flex_busy(MotusWindow *self);
void motus_window_flex_cancel(MotusWindow *self);
/* Opens the solver settings dialog (an inspector of the solver fields). */
GtkWidget *motus_window_show_solver_settings(MotusWindow *self);
/* The property inspector. */
GtkWidget *motus_window_get_inspector(MotusWindow *self);
/* Times and values of a result column of the frames shown (g_free both); the count, 0 when absent. */
guint motus_window_get_column(MotusWindow *self, const char *name, double **t, double **v);
/* Starts a run of the open model; FALSE with error when it cannot start. */
gboolean motus_window_run(MotusWindow *self, GError **error);
gboolean motus_window_is_running(MotusWindow *self);
/* Plots: how many, adding one below (it becomes the active plot, which takes
 * new curves), removing the active one (never the last), choosing the active
 * one, the plot widget i. */
guint motus_window_n_plots(MotusWindow *self);
guint motus_window_add_plot(MotusWindow *self);
gboolean motus_window_remove_plot(MotusWindow *self);
void motus_window_set_active_plot(MotusWindow *self, guint i);
GtkWidget *motus_window_get_plot_n(MotusWindow *self, guint i);
/* The active plot against a result column (X–Y), or time (x NULL); FALSE for an unknown column. */
gboolean motus_window_set_plot_x(MotusWindow *self, const char *x, GError **error);
/* Keeps the active plot's curves as dashed curves to compare with later runs; returns how many. */
guint motus_window_pin_curves(MotusWindow *self);
/* Replaces the curves of the active plot by the named result columns; FALSE
 * with error naming the first unknown column. */
gboolean motus_window_set_plot_columns(MotusWindow *self, const char *const *names, GError **error);
/* Shows the stored frame at time t (playback stops). */
void motus_window_set_time(MotusWindow *self, double t);
/* The 3D view (view presets, frame counter, GL errors), the model tree and the plot. */
GtkWidget *motus_window_get_viewport(MotusWindow *self);
GtkWidget *motus_window_get_model_tree(MotusWindow *self);
GtkWidget *motus_window_get_plot(MotusWindow *self);
/* Frames stored by the last run, the playback time shown, whether it plays. */
guint motus_window_get_n_frames(MotusWindow *self);
/* Bytes of memory the frames of the run shown take (motus-frame-store.h). */
gsize motus_window_get_results_bytes(MotusWindow *self);
double motus_window_get_time(MotusWindow *self);
/* Parameters shown as sliders over the view (motus-window-sliders.c). */
guint motus_window_n_sliders(MotusWindow *self);
gboolean motus_window_is_playing(MotusWindow *self);
/* The text of the status bar. */
const char *motus_window_get_status(MotusWindow *self);
/* Saves the whole window as a PNG (logical pixels). */
gboolean motus_window_save_screenshot(MotusWindow *self, const char *path, GError **error);
/* Writes where the 3D view, the plot and each visible body are in the
 * screenshot: lines "window W H", "viewport X Y W H", "plot X Y W H",
 * "body NAME X Y". */
gboolean motus_window_write_shot_info(MotusWindow *self, const char *path, GError **error);

/* The model check of the model shown (motus/check.h), NULL until it has
 * run (a quarter of a second after the last edit); its header-bar badge
 * and the list of findings in its panel. */
const MtCheckReport *motus_window_check_report(MotusWindow *self);
GtkWidget *motus_window_check_button(MotusWindow *self);
GtkWidget *motus_window_check_list(MotusWindow *self);
/* The deformation scale a finished run proposes for the view (the largest
 * deformation a twentieth of the largest flexible body, 1, 2 or 5 × 10^k,
 * at least 1), 0 when nothing is deformed. */
double motus_window_flex_proposed_scale(MotusWindow *self);
/* The frequency of the largest value (past 0 Hz) of the first spectrum in plot `plot` (a bin's frequency); FALSE
 * when that plot is no spectrum. */
gboolean motus_window_spectrum_peak(MotusWindow *self, guint plot, double *f);
/* What the RMS button's popover shows: min, max, mean and RMS of the chosen plot's curves over the time shown. */
const char *motus_window_curve_stats(MotusWindow *self);

G_END_DECLS

#endif

/* motus-window-study.h — the Study panel of the main window
 * (motus-window-study.c): action win.study (Ctrl+T, the Analysis menu's
 * "Study…"). Functions for tests read what it shows. */
#ifndef MOTUS_WINDOW_STUDY_H
#define MOTUS_WINDOW_STUDY_H

#include "motus-study-results.h"
#include "motus-study-cluster.h"
#include "motus-study-form.h"
#include "motus-window.h"

void motus_window_study_init(MotusWindow *self);
/* The panel (NULL when closed), its results, its Run and Stop buttons, its progress text. */
GtkWidget *motus_window_study_panel(MotusWindow *self);
MotusStudyResults *motus_window_study_results(MotusWindow *self);
/* which: "run", "stop", "export", "apply", "keep" (the check button) */
GtkWidget *motus_window_study_button(MotusWindow *self, const char *which);
const char *motus_window_study_progress(MotusWindow *self);
/* The panel's text of `study …` lines, and the fields that write them (NULL when the panel is closed). */
GtkTextView *motus_window_study_text(MotusWindow *self);
MotusStudyForm *motus_window_study_form(MotusWindow *self);
/* The row of a study submitted to Slurm (NULL when the panel is closed). */
MotusStudyCluster *motus_window_study_cluster(MotusWindow *self);
/* Whether cases are running. */
gboolean motus_window_study_running(MotusWindow *self);
/* Exports the table as `motus-cli study --table` does (the Export button's file chooser ends here). */
gboolean motus_window_study_export(MotusWindow *self, const char *path, GError **error);

/* Headless (motus --study PAGE --screenshot FILE): opens the panel, runs the cases left, shows page
 * ("cases", "heatmap", "plot", "parallel" or, for an optimisation, "path"; the first response, the first variable across, the second up) and saves
 * the panel as a PNG to png (NULL: none); then done(user, ok, message). FALSE with error when it cannot start. */
typedef void (*MotusStudyShotFn)(gpointer user, gboolean ok, const char *message);
gboolean motus_window_study_shoot(MotusWindow *self, const char *page, const char *png, MotusStudyShotFn done,
                                  gpointer user, GError **error);

#endif

/* motus-window-analysis.h — what the window's analyses (statics,
 * kinematics, modes; motus-window-analysis.c) show, for tests and
 * screenshots: the last result, its window, the header bar's "Analysis"
 * button and the mode animated in the 3D view. */
#ifndef MOTUS_WINDOW_ANALYSIS_H
#define MOTUS_WINDOW_ANALYSIS_H

#include "motus-analysis-job.h"
#include "motus-window.h"

G_BEGIN_DECLS

/* The last analysis that finished without error (NULL: none yet, or the model was replaced). */
const MotusAnalysis *motus_window_analysis_result(MotusWindow *self);
/* The window listing the statics' reactions or the modes' table (NULL when closed). */
GtkWidget *motus_window_analysis_dialog(MotusWindow *self);
/* The list of modes in that window (NULL when it shows no modes). */
GtkWidget *motus_window_analysis_mode_list(MotusWindow *self);
/* The header bar's "Analysis" menu button. */
GtkWidget *motus_window_analysis_button(MotusWindow *self);
/* Animates mode k (0-based) of the last modes in the 3D view, as a click on its row does (their window
 * need not be open); FALSE when there is no such animated mode. */
gboolean motus_window_analysis_animate(MotusWindow *self, int k);
/* The mode animated in the 3D view (0-based), -1 when none. */
int motus_window_analysis_animated(MotusWindow *self);
/* Id of the newest modes kept in the open project for its model as saved (0: none; "Stored Modes" shows them). */
long motus_window_analysis_stored_modes(MotusWindow *self);

G_END_DECLS

#endif

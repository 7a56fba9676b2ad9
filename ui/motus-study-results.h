/* motus-study-results.h — the results of a study's cases as the Study panel
 * shows them (motus-window-study.c): a sortable table of cases (values,
 * responses, status), exported to CSV as `motus-cli study --table` writes
 * it; a heat map of a response over two variables; a response against one
 * variable (one curve per value of the others); parallel coordinates of
 * every variable and response, a line per case. */
#ifndef MOTUS_STUDY_RESULTS_H
#define MOTUS_STUDY_RESULTS_H

#include <gtk/gtk.h>

#include "motus-heatmap.h"
#include "motus-parcoords.h"
#include "motus-plot.h"
#include "motus/store.h"

typedef struct MotusStudyResults MotusStudyResults;
/* Called when a case's row is activated (double click, Enter): its index. */
typedef void (*MotusStudyCaseFn)(gpointer user, int c);

/* For the study s (copied); the widget (a notebook: Cases, Heat Map, Response Plot, Parallel Coordinates,
 * and for an optimisation Optimisation Path)
 * is owned by whoever packs it. */
MotusStudyResults *motus_study_results_new(const MtStudy *s, MotusStudyCaseFn activate, gpointer user);
void motus_study_results_free(MotusStudyResults *r);
GtkWidget *motus_study_results_widget(MotusStudyResults *r);
/* Replaces every case (n of them), or adds / replaces n cases. */
void motus_study_results_set(MotusStudyResults *r, const MtStudyCaseResult *c, int n);
void motus_study_results_put(MotusStudyResults *r, const MtStudyCaseResult *c, int n);
int motus_study_results_n(MotusStudyResults *r);
/* Case c's result (NULL when it has none). */
const MtStudyCaseResult *motus_study_results_case(MotusStudyResults *r, int c);
/* The table as `motus-cli study --table` writes it, in case order. */
gboolean motus_study_results_export_csv(MotusStudyResults *r, const char *path, GError **error);
/* The heat map's and the plot's choices: a response, the variables across and up (plot: across only). */
void motus_study_results_choose(MotusStudyResults *r, int resp, int xvar, int yvar);
/* For tests: the widgets. */
GtkColumnView *motus_study_results_table(MotusStudyResults *r);
MotusHeatmap *motus_study_results_heatmap(MotusStudyResults *r);
MotusPlot *motus_study_results_plot(MotusStudyResults *r);
MotusParcoords *motus_study_results_parcoords(MotusStudyResults *r);
/* An optimisation's path plot (page 4: the objective against the case and the best so far); NULL for a design. */
MotusPlot *motus_study_results_path(MotusStudyResults *r);
GtkNotebook *motus_study_results_notebook(MotusStudyResults *r);
/* The case shown at row i of the table as sorted now (-1 when none). */
int motus_study_results_row_case(MotusStudyResults *r, guint i);

#endif

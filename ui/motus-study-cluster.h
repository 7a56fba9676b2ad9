/* motus-study-cluster.h — the Study panel's row for a study submitted to a
 * Slurm cluster (`motus-cli study PROJECT --slurm`, docs/studies.md): the
 * newest submission's job (PROJECT.study/submit-N.job), the states of its
 * array tasks as squeue gives them (asked every 5 s without blocking the
 * window), and Collect, which runs `motus-cli study PROJECT --collect` (the
 * project's one writer while it runs) and then has the panel read the cases
 * again. The row is hidden when the project has no submission. */
#ifndef MOTUS_STUDY_CLUSTER_H
#define MOTUS_STUDY_CLUSTER_H

#include <gtk/gtk.h>

typedef struct MotusStudyCluster MotusStudyCluster;
/* Collect ended: the project's cases changed. */
typedef void (*MotusStudyClusterFn)(gpointer user);

MotusStudyCluster *motus_study_cluster_new(MotusStudyClusterFn collected, gpointer user);
void motus_study_cluster_free(MotusStudyCluster *c);
/* Its widget (a row: the job's state, Collect), owned by whoever packs it. */
GtkWidget *motus_study_cluster_widget(MotusStudyCluster *c);
/* The project the panel shows (NULL: not a project): its newest submission is looked for and followed. */
void motus_study_cluster_set_project(MotusStudyCluster *c, const char *project);
/* What the row says now ("" when hidden), and its Collect button (for tests). */
const char *motus_study_cluster_status(MotusStudyCluster *c);
GtkWidget *motus_study_cluster_collect_button(MotusStudyCluster *c);

#endif

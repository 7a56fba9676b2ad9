/* motus-study-form.h — the Study panel's fields (motus-window-study.c): the
 * design (kind, Latin hypercube's cases and seed), a row per variable
 * (parameter, levels or range, its values, count, unit) and per response
 * (name, kind, column or expression, options such as `at 0.7` or `from 1 to
 * 5`), and the optimisation (none, minimize or maximize a response; a row
 * per constraint; the most evaluations and xtol). Every change makes the
 * study's lines again (the lines it does not show — table cases — kept as
 * they were); when they read, they are handed to the panel, which shows them
 * beside the fields and makes them the model's study with Apply Lines. */
#ifndef MOTUS_STUDY_FORM_H
#define MOTUS_STUDY_FORM_H

#include <gtk/gtk.h>

#include "motus/model.h"
#include "motus/study.h"

typedef struct MotusStudyForm MotusStudyForm;
/* The fields made these lines (canonical text of a study that reads). */
typedef void (*MotusStudyFormFn)(gpointer user, const char *lines);

MotusStudyForm *motus_study_form_new(MotusStudyFormFn changed, gpointer user);
void motus_study_form_free(MotusStudyForm *f);
/* Its widget, owned by whoever packs it. */
GtkWidget *motus_study_form_widget(MotusStudyForm *f);
/* The fields of study s (NULL: none) with the model's parameters to choose from; changed is not called. */
void motus_study_form_set(MotusStudyForm *f, const MtStudy *s, const MtModel *m);
/* For tests: a field of variable, response or constraint row i — "var-values", "var-count", "var-unit",
 * "resp-name", "resp-column", "resp-options", "cons-resp", "cons-bound", "var-remove", "resp-remove",
 * "cons-remove" — or (i ignored) the buttons "add-var", "add-resp", "add-cons" and the fields "goal",
 * "objective", "maxeval"; NULL when there is none. */
GtkWidget *motus_study_form_field(MotusStudyForm *f, const char *which, int i);
/* What is wrong with the fields now ("" when their lines read). */
const char *motus_study_form_message(MotusStudyForm *f);

#endif

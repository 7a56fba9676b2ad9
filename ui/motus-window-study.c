/* motus-window-study.c — the Study panel (issue 21): a window of its own,
 * opened by win.study (Ctrl+T, the Analysis menu), showing the model's
 * study as its `study …` lines (edited there and applied as an edit of the
 * model, undone as any other), running its cases on worker threads of this process
 * (motus-study-job.c) with progress and Stop, and their results
 * (motus-study-results.c): the table of cases, exported to CSV, a heat map
 * and a plot of a response. When the document is a project saved as it is
 * shown, finished cases are recorded in it as `motus-cli study` records
 * them (so either continues what the other began); otherwise they are kept
 * in the panel only. Activating a case whose frames were kept
 * (`motus-cli study --keep-frames`) opens its run in a new window. */
#include "motus-window-study.h"

#include <glib/gstdio.h>
#include <math.h>

#include "motus-dialog.h"
#include "motus-i18n.h"
#include "motus-study-cluster.h"
#include "motus-study-form.h"
#include "motus-study-job.h"
#include "motus-window-private.h"

typedef struct StudyUi {
    MotusWindow *win;
    GtkWidget *panel, *summary, *text, *run, *stop, *export, *progress, *box, *keep, *apply;
    MotusStudyResults *results;
    MotusStudyForm *form; /* the fields beside the lines */
    MotusStudyCluster *cluster; /* a submission to Slurm: its state, Collect */
    MotusStudyJob *job;
    guint poll_id;
    gint64 started;
    gboolean stale;  /* the model changed since the panel's study was read */
    MtStore *store;  /* the project the cases are recorded in (the document's), or NULL */
    MtStudy *study;  /* the study shown */
    char *progress_text;
    /* headless: motus_window_study_shoot */
    int shot_page;
    char *shot_png;
    MotusStudyShotFn shot_done;
    gpointer shot_user;
    guint shot_id;
    int shot_tries;
} StudyUi;

static StudyUi *ui_of(MotusWindow *self) { return g_object_get_data(G_OBJECT(self), "motus-study"); }

static void set_progress(StudyUi *ui, double fraction, const char *text)
{
    g_free(ui->progress_text);
    ui->progress_text = g_strdup(text);
    if (!ui->progress) return;
    gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(ui->progress), fraction);
    gtk_progress_bar_set_text(GTK_PROGRESS_BAR(ui->progress), text);
}

static void update_buttons(StudyUi *ui)
{
    if (!ui->panel) return;
    gtk_widget_set_sensitive(ui->run, !ui->job && ui->study && ui->study->nvar > 0);
    gtk_widget_set_sensitive(ui->stop, ui->job != NULL);
    gtk_widget_set_sensitive(ui->apply, !ui->job);
    gtk_widget_set_sensitive(ui->export, ui->results && motus_study_results_n(ui->results) > 0);
}

/* The document's project when the cases can be recorded in it: a project, saved as shown. */
static MtStore *recording_store(MotusWindow *self)
{
    const char *path = motus_document_get_path(self->doc);
    if (!path || motus_document_is_text_path(path) || motus_document_get_dirty(self->doc)) return NULL;
    return motus_document_get_store(self->doc);
}

/* The cases the project holds for this study and model (none when it holds another's). */
static void load_stored(StudyUi *ui)
{
    MtStore *st = recording_store(ui->win);
    MtError err = {0};
    long version = st ? mt_store_model_version(st, &err) : -1;
    int kept = 0;
    if (version < 0 || mt_store_study_begin(st, ui->study, version, 0, &kept, &err) || !kept) return;
    MtStudyCaseResult *c = NULL;
    int n = mt_store_study_cases(st, ui->study, &c, &err);
    if (n > 0) motus_study_results_set(ui->results, c, n);
    free(c);
}

static void case_activated(gpointer user, int c);

/* The panel's content for the model's study now (results cleared, then those the project holds). */
static void rebuild(StudyUi *ui)
{
    const MtModel *m = motus_window_model(ui->win);
    if (ui->results) {
        gtk_box_remove(GTK_BOX(ui->box), motus_study_results_widget(ui->results));
        motus_study_results_free(ui->results);
        ui->results = NULL;
    }
    if (!ui->job) { /* while cases run, the panel shows (and records) the study they belong to */
        mt_study_free(ui->study);
        ui->study = m && m->study ? mt_study_copy(m->study) : NULL;
        ui->stale = FALSE;
    }
    GtkTextBuffer *buf = gtk_text_view_get_buffer(GTK_TEXT_VIEW(ui->text));
    if (ui->form) motus_study_form_set(ui->form, ui->study, m);
    if (ui->cluster) {
        const char *path = motus_document_get_path(ui->win->doc);
        motus_study_cluster_set_project(ui->cluster, path && !motus_document_is_text_path(path) ? path : NULL);
    }
    if (!ui->study) {
        gtk_label_set_text(GTK_LABEL(ui->summary),
                           _("The model has no study: add `study …` lines to its text (docs/studies.md)."));
        gtk_text_buffer_set_text(buf, "", -1);
        set_progress(ui, 0, "");
        update_buttons(ui);
        return;
    }
    char *text = mt_study_text(ui->study);
    gtk_text_buffer_set_text(buf, text ? text : "", -1);
    free(text);
    MtError err = {0};
    int n = mt_study_ncases(ui->study, &err);
    g_autofree char *sum =
        n < 0 ? g_strdup_printf(_("The study has no cases: %s"), err.msg)
        : ui->study->optimize
            ? g_strdup_printf(_("Optimisation (COBYLA): %s %s, constraints: %d, at most %d cases, one after another. Variables: %d. Responses: %d."),
                              ui->study->maximize ? _("maximise") : _("minimise"), ui->study->objective, ui->study->ncons, n,
                              ui->study->nvar, ui->study->nresp)
            : g_strdup_printf(_("Design: %s. Cases: %d. Variables: %d. Responses: %d."), /* no plural forms needed */
                              mt_study_design_name(ui->study->design), n, ui->study->nvar, ui->study->nresp);
    gtk_label_set_text(GTK_LABEL(ui->summary), sum);
    ui->results = motus_study_results_new(ui->study, case_activated, ui);
    gtk_box_append(GTK_BOX(ui->box), motus_study_results_widget(ui->results));
    load_stored(ui);
    int done = motus_study_results_n(ui->results);
    g_autofree char *p = g_strdup_printf(_("%d of %d cases done"), done, MAX(n, 0));
    set_progress(ui, n > 0 ? (double)done / n : 0, p);
    update_buttons(ui);
}

/* ---- running ---------------------------------------------------------------------------------------- */

/* "Optimum: case 10 (k = 5.03551 N/m): stiffness = 5.03551; the constraints hold. 17 cases, converged …" */
static char *optimum_text(StudyUi *ui, const MtStudyOpt *o, const char *failure, int ran, double secs)
{
    const MtStudy *s = ui->study;
    const MtStudyCaseResult *b = o->best >= 0 && ui->results ? motus_study_results_case(ui->results, o->best) : NULL;
    GString *t = g_string_new(NULL);
    if (b) {
        GString *v = g_string_new(NULL);
        for (int i = 0; i < s->nvar; i++)
            g_string_append_printf(v, "%s%s = %.6g%s%s", i ? ", " : "", s->var[i].name, b->values[i], s->var[i].unit[0] ? " " : "",
                                   s->var[i].unit);
        int r = mt_study_find_response(s, s->objective);
        g_string_append_printf(t, _("Optimum: case %d (%s): %s = %.6g"), o->best, v->str, s->objective, b->resp[r]);
        g_string_free(v, TRUE);
        if (s->ncons) g_string_append_printf(t, "; %s", o->feasible ? _("the constraints hold") : _("the constraints do not all hold"));
        g_string_append(t, ". ");
    }
    g_string_append_printf(t, _("%d cases (%d run now), %s, in %.1f s"), o->nevals, ran, mt_study_opt_stop_text(o->stop), secs);
    if (failure[0]) g_string_append_printf(t, ": %s", failure);
    return g_string_free(t, FALSE);
}

static void finish(StudyUi *ui)
{
    int total, done, failed, running;
    motus_study_job_progress(ui->job, &total, &done, &failed, &running);
    gboolean cancelled = motus_study_job_cancelled(ui->job);
    MtStudyOpt opt;
    char msg[512];
    gboolean optimised = motus_study_job_optimum(ui->job, &opt, msg, sizeof msg);
    motus_study_job_free(ui->job);
    ui->job = NULL;
    g_clear_handle_id(&ui->poll_id, g_source_remove);
    double secs = (double)(g_get_monotonic_time() - ui->started) * 1e-6;
    g_autofree char *t =
        cancelled   ? g_strdup_printf(_("Stopped: %d of %d cases done, %d failed"), done, total, failed)
        : optimised ? optimum_text(ui, &opt, msg, done, secs)
                    : g_strdup_printf(_("%d cases done, %d failed, in %.1f s"), done, failed, secs);
    motus_window_set_status(ui->win, t);
    if (ui->stale && ui->panel) rebuild(ui); /* the model changed while its cases ran: show the new study */
    else set_progress(ui, total && !optimised ? (double)done / total : 1, t); /* an optimisation ends before maxeval */
    update_buttons(ui);
}

static gboolean poll(gpointer data)
{
    StudyUi *ui = data;
    MtStudyCaseResult got[64];
    int n;
    while ((n = motus_study_job_collect(ui->job, got, (int)G_N_ELEMENTS(got))) > 0) {
        if (ui->results) motus_study_results_put(ui->results, got, n);
        for (int i = 0; i < n && ui->store; i++) {
            MtError err = {0};
            if (mt_store_study_put(ui->store, ui->study, &got[i], &err)) {
                motus_window_set_status(ui->win, err.msg); /* the panel still shows them */
                ui->store = NULL;
            }
        }
    }
    if (motus_study_job_ended(ui->job)) {
        ui->poll_id = 0;
        finish(ui);
        return G_SOURCE_REMOVE;
    }
    int total, done, failed, running;
    motus_study_job_progress(ui->job, &total, &done, &failed, &running);
    /* time left as motus-cli says it: the wall time so far per case finished, times the cases left */
    double secs = (double)(g_get_monotonic_time() - ui->started) * 1e-6;
    g_autofree char *t =
        ui->study->optimize ? g_strdup_printf(_("Optimisation: %d cases run, %d failed (at most %d in all)"), done, failed, total)
        : done ? g_strdup_printf(_("%d of %d cases done, %d failed, %d running, about %.0f s left"), done, total, failed,
                               running, secs / done * (total - done))
             : g_strdup_printf(_("%d of %d cases done, %d failed, %d running"), done, total, failed, running);
    set_progress(ui, total ? (double)done / total : 0, t);
    update_buttons(ui);
    return G_SOURCE_CONTINUE;
}

/* Runs the cases without a result (all of them when the study or the model changed). */
static void run_clicked(GtkButton *b, gpointer data)
{
    (void)b;
    StudyUi *ui = data;
    if (ui->job) return;
    if (ui->stale) rebuild(ui);
    if (!ui->study) return;
    const MtModel *m = motus_window_model(ui->win);
    MtError err = {0};
    int ncase = mt_study_ncases(ui->study, &err);
    if (ncase <= 0) {
        motus_window_set_status(ui->win, err.msg);
        return;
    }
    ui->store = recording_store(ui->win);
    long version = ui->store ? mt_store_model_version(ui->store, &err) : -1;
    int kept = 0;
    if (ui->store && (version < 0 || mt_store_study_begin(ui->store, ui->study, version, 1, &kept, &err))) {
        motus_window_set_status(ui->win, err.msg); /* run all the same, kept in the panel only */
        ui->store = NULL;
    }
    unsigned char *todo = g_new0(unsigned char, (gsize)ncase);
    int left = 0;
    for (int c = 0; c < ncase; c++) left += todo[c] = !motus_study_results_case(ui->results, c);
    if (ui->study->optimize) left = 1; /* the optimiser decides what is left; the cases done are read back */
    GError *error = NULL;
    g_autofree char *dir = NULL; /* frames beside the project, where motus-cli study --keep-frames keeps them */
    if (ui->store && gtk_check_button_get_active(GTK_CHECK_BUTTON(ui->keep))) {
        dir = g_strdup_printf("%s.study", motus_document_get_path(ui->win->doc));
        if (g_mkdir_with_parents(dir, 0755)) g_clear_pointer(&dir, g_free);
    }
    if (!dir && gtk_check_button_get_active(GTK_CHECK_BUTTON(ui->keep)))
        motus_window_set_status(ui->win, _("Frames are kept only for a project saved as shown"));
    if (ui->study->optimize) {
        MtStudyCaseResult *known = g_new0(MtStudyCaseResult, (gsize)ncase);
        int nknown = 0;
        for (int c = 0; c < ncase; c++) {
            const MtStudyCaseResult *r = motus_study_results_case(ui->results, c);
            if (r) known[nknown++] = *r;
        }
        ui->job = motus_study_job_start_optimise(m, known, nknown, dir, &error);
        g_free(known);
    } else if (left) ui->job = motus_study_job_start(m, todo, ncase, (int)g_get_num_processors(), dir, &error);
    g_free(todo);
    if (!left) {
        set_progress(ui, 1, _("Every case is done: change the study or the model to run it again"));
        return;
    }
    if (!ui->job) {
        motus_window_error_dialog(ui->win, _("The study cannot start"), error ? error->message : "");
        g_clear_error(&error);
        return;
    }
    ui->started = g_get_monotonic_time();
    ui->poll_id = g_timeout_add(100, poll, ui);
    g_autofree char *t = g_strdup_printf(_("%d of %d cases done, %d failed, %d running"), 0, left, 0, 0);
    set_progress(ui, 0, t);
    update_buttons(ui);
}

static void stop_clicked(GtkButton *b, gpointer data)
{
    (void)b;
    StudyUi *ui = data;
    motus_study_job_cancel(ui->job);
}

/* ---- export, cases' runs ------------------------------------------------------------------------------ */

static void export_response(GtkNativeDialog *d, int response, gpointer data)
{
    StudyUi *ui = data;
    g_autofree char *path = motus_chosen_path(d, response);
    GError *error = NULL;
    if (path && !motus_window_study_export(ui->win, path, &error)) {
        motus_window_error_dialog(ui->win, _("Cannot export the cases"), error->message);
        g_error_free(error);
    }
    g_object_unref(d);
}

static void export_clicked(GtkButton *b, gpointer data)
{
    (void)b;
    StudyUi *ui = data;
    GtkFileChooserNative *d = gtk_file_chooser_native_new(_("Export the Cases"), GTK_WINDOW(ui->panel),
                                                          GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
    gtk_file_chooser_set_current_name(GTK_FILE_CHOOSER(d), "cases.csv");
    g_signal_connect(d, "response", G_CALLBACK(export_response), ui);
    gtk_native_dialog_show(GTK_NATIVE_DIALOG(d));
}

/* A case's run, when its frames were kept: its own project in the study's directory, in a new window. */
static void case_activated(gpointer user, int c)
{
    StudyUi *ui = user;
    const MtStudyCaseResult *r = motus_study_results_case(ui->results, c);
    const char *path = motus_document_get_path(ui->win->doc);
    if (!r || !r->frames[0] || !path) {
        g_autofree char *t = g_strdup_printf(_("Case %d: its frames were not kept (motus-cli study --keep-frames)"), c);
        motus_window_set_status(ui->win, t);
        return;
    }
    g_autofree char *dir = g_strdup_printf("%s.study", path);
    g_autofree char *file = g_build_filename(dir, r->frames, NULL);
    g_autoptr(GFile) f = g_file_new_for_path(file);
    MotusWindow *w = motus_window_new(gtk_window_get_application(GTK_WINDOW(ui->win)));
    GError *error = NULL;
    if (!motus_window_open_file(w, f, &error)) {
        gtk_window_destroy(GTK_WINDOW(w));
        motus_window_error_dialog(ui->win, _("Cannot open the case's run"), error->message);
        g_error_free(error);
        return;
    }
    gtk_window_present(GTK_WINDOW(w));
}

/* ---- editing the study's lines ------------------------------------------------------------------------ */

/* The text's `study …` lines become the model's study: an edit like any other (undone by Ctrl+Z), refused
 * with the reader's or the check's message when they do not read or do not fit the model. */
static void apply_clicked(GtkButton *b, gpointer data)
{
    (void)b;
    StudyUi *ui = data;
    MtEditor *ed = motus_window_editor(ui->win);
    const MtModel *m = motus_window_model(ui->win);
    if (!ed || !m || ui->job) return;
    GtkTextBuffer *buf = gtk_text_view_get_buffer(GTK_TEXT_VIEW(ui->text));
    GtkTextIter a, z;
    gtk_text_buffer_get_bounds(buf, &a, &z);
    g_autofree char *text = gtk_text_buffer_get_text(buf, &a, &z, FALSE);
    MtError err = {0};
    MtStudy *st = mt_study_new();
    MtModel *changed = NULL;
    g_strstrip(text);
    if (!st || (text[0] && mt_study_read_text(st, text, &err)) || (text[0] && mt_study_check(st, m, &err)) ||
        !(changed = mt_model_copy(m))) {
        mt_study_free(st);
        if (!err.msg[0]) mt_error_set(&err, MT_ERR_NOMEM, "", "%s", _("out of memory"));
        motus_window_error_dialog(ui->win, _("The study was not changed"), err.msg);
        return;
    }
    mt_study_free(changed->study);
    changed->study = text[0] ? st : NULL; /* no lines: no study */
    if (!text[0]) mt_study_free(st);
    if (mt_editor_commit(ed, changed, _("edit the study"), &err)) {
        motus_window_error_dialog(ui->win, _("The study was not changed"), err.msg);
        return;
    }
    motus_window_model_changed(ui->win); /* the document says "changed": the panel reads the study again */
    motus_window_set_status(ui->win, _("edit the study"));
}

/* ---- the panel ------------------------------------------------------------------------------------------ */

/* Collect brought the cluster's cases into the project: the panel reads them (unless its own cases run). */
static void cluster_collected(gpointer user)
{
    StudyUi *ui = user;
    if (!ui->job && ui->panel) rebuild(ui);
}

/* The fields made new lines: shown beside them, applied (as lines edited by hand) with Apply Lines. */
static void form_changed(gpointer user, const char *lines)
{
    StudyUi *ui = user;
    gtk_text_buffer_set_text(gtk_text_view_get_buffer(GTK_TEXT_VIEW(ui->text)), lines, -1);
}

static void panel_destroyed(GtkWidget *w, gpointer data)
{
    (void)w;
    StudyUi *ui = data;
    ui->panel = ui->progress = NULL;
    g_clear_pointer(&ui->form, motus_study_form_free);
    g_clear_pointer(&ui->cluster, motus_study_cluster_free);
    if (ui->results) motus_study_results_free(ui->results); /* the cases run on: the project still records them */
    ui->results = NULL;
}

static GtkWidget *button(GtkWidget *bar, const char *label, const char *tip, GCallback cb, StudyUi *ui)
{
    GtkWidget *b = gtk_button_new_with_mnemonic(label);
    gtk_widget_set_tooltip_text(b, tip);
    g_signal_connect(b, "clicked", cb, ui);
    gtk_box_append(GTK_BOX(bar), b);
    return b;
}

/* Esc stops the cases running, or closes the panel when none runs. */
static gboolean key_pressed(GtkEventControllerKey *k, guint keyval, guint code, GdkModifierType mods, gpointer data)
{
    (void)k, (void)code;
    StudyUi *ui = data;
    if (keyval != GDK_KEY_Escape || (mods & gtk_accelerator_get_default_mod_mask())) return FALSE;
    if (ui->job) motus_study_job_cancel(ui->job);
    else gtk_window_close(GTK_WINDOW(ui->panel));
    return TRUE;
}

static void build_panel(StudyUi *ui)
{
    GtkWidget *d = motus_dialog_new(GTK_WINDOW(ui->win), _("Study"), 960, 780);
    ui->box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8);
    motus_set_margins(ui->box, 12, 12);
    gtk_window_set_child(GTK_WINDOW(d), ui->box);
    ui->summary = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(ui->summary), 0);
    gtk_label_set_wrap(GTK_LABEL(ui->summary), TRUE);
    gtk_box_append(GTK_BOX(ui->box), ui->summary);
    ui->text = gtk_text_view_new();
    gtk_text_view_set_monospace(GTK_TEXT_VIEW(ui->text), TRUE);
    GtkWidget *sw = gtk_scrolled_window_new();
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(sw), ui->text);
    /* the fields beside the lines they write: either may be edited, Apply Lines makes them the model's study */
    ui->form = motus_study_form_new(form_changed, ui);
    GtkWidget *fsw = gtk_scrolled_window_new();
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(fsw), motus_study_form_widget(ui->form));
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(fsw), GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC);
    GtkWidget *paned = gtk_paned_new(GTK_ORIENTATION_HORIZONTAL);
    gtk_paned_set_start_child(GTK_PANED(paned), fsw);
    gtk_paned_set_end_child(GTK_PANED(paned), sw);
    gtk_paned_set_position(GTK_PANED(paned), 540);
    gtk_widget_set_size_request(paned, -1, 270);
    gtk_box_append(GTK_BOX(ui->box), paned);
    GtkWidget *bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    ui->run =
        button(bar, _("_Run Cases"), _("Run the cases not done yet on this computer"), G_CALLBACK(run_clicked), ui);
    gtk_widget_add_css_class(ui->run, "suggested-action");
    ui->apply = button(bar, _("_Apply Lines"), _("Make the lines above the model's study (an edit: Ctrl+Z undoes it)"),
                       G_CALLBACK(apply_clicked), ui);
    ui->stop = button(bar, _("_Stop"), _("Stop the cases running (Esc); those finished are kept"),
                      G_CALLBACK(stop_clicked), ui);
    ui->export =
        button(bar, _("_Export CSV…"), _("Write the table of cases to a CSV file"), G_CALLBACK(export_clicked), ui);
    ui->keep = gtk_check_button_new_with_mnemonic(_("_Keep Frames"));
    gtk_widget_set_tooltip_text(ui->keep, _("Keep every case's run in a project of its own beside this one, to open "
                                            "it from the table (a double click on its row)"));
    gtk_box_append(GTK_BOX(bar), ui->keep);
    ui->progress = gtk_progress_bar_new();
    gtk_progress_bar_set_show_text(GTK_PROGRESS_BAR(ui->progress), TRUE);
    gtk_progress_bar_set_ellipsize(GTK_PROGRESS_BAR(ui->progress), PANGO_ELLIPSIZE_END); /* the panel keeps its width */
    gtk_widget_set_hexpand(ui->progress, TRUE);
    gtk_widget_set_valign(ui->progress, GTK_ALIGN_CENTER);
    gtk_box_append(GTK_BOX(bar), ui->progress);
    gtk_box_append(GTK_BOX(ui->box), bar);
    ui->cluster = motus_study_cluster_new(cluster_collected, ui);
    gtk_box_append(GTK_BOX(ui->box), motus_study_cluster_widget(ui->cluster));
    GtkEventController *keys = gtk_event_controller_key_new();
    g_signal_connect(keys, "key-pressed", G_CALLBACK(key_pressed), ui);
    gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE); /* before the text or a list takes it */
    gtk_widget_add_controller(d, keys);
    g_signal_connect(d, "destroy", G_CALLBACK(panel_destroyed), ui);
    ui->panel = d;
}

static void act_study(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    StudyUi *ui = ui_of(data);
    if (!ui->panel) {
        build_panel(ui);
        rebuild(ui);
    } else if (ui->stale && !ui->job) {
        rebuild(ui);
    }
    update_buttons(ui);
    gtk_window_present(GTK_WINDOW(ui->panel));
}

static void model_changed(MotusDocument *doc, gpointer data)
{
    (void)doc;
    StudyUi *ui = data;
    ui->stale = TRUE;
    if (ui->panel && !ui->job) rebuild(ui);
}

/* Another document: the cases running are for the one that went, and so was its project. */
static void document_replaced(MotusDocument *doc, gpointer data)
{
    StudyUi *ui = data;
    ui->store = NULL;
    motus_study_job_cancel(ui->job);
    model_changed(doc, data);
}

/* The window goes: nothing of the study may run on after it (its sources would find it gone). */
static void window_destroyed(GtkWidget *w, gpointer data)
{
    (void)w;
    StudyUi *ui = data;
    g_clear_pointer(&ui->job, motus_study_job_free);
    g_clear_handle_id(&ui->poll_id, g_source_remove);
    g_clear_handle_id(&ui->shot_id, g_source_remove);
    ui->store = NULL;
}

static void study_ui_free(gpointer data)
{
    StudyUi *ui = data;
    motus_study_job_free(ui->job); /* its threads touch only their own copy of the model */
    g_clear_handle_id(&ui->poll_id, g_source_remove);
    if (ui->panel) {
        g_signal_handlers_disconnect_by_data(ui->panel, ui);
        gtk_window_destroy(GTK_WINDOW(ui->panel));
    }
    motus_study_results_free(ui->results);
    motus_study_form_free(ui->form);
    motus_study_cluster_free(ui->cluster);
    mt_study_free(ui->study);
    g_clear_handle_id(&ui->shot_id, g_source_remove);
    g_free(ui->shot_png);
    g_free(ui->progress_text);
    g_free(ui);
}

void motus_window_study_init(MotusWindow *self)
{
    static const GActionEntry entries[] = {{"study", act_study, NULL, NULL, NULL, {0}}};
    StudyUi *ui = g_new0(StudyUi, 1);
    ui->win = self;
    g_object_set_data_full(G_OBJECT(self), "motus-study", ui, study_ui_free);
    g_action_map_add_action_entries(G_ACTION_MAP(self), entries, G_N_ELEMENTS(entries), self);
    g_signal_connect(self->doc, "changed", G_CALLBACK(model_changed), ui);
    g_signal_connect(self->doc, "replaced", G_CALLBACK(document_replaced), ui);
    g_signal_connect(self, "destroy", G_CALLBACK(window_destroyed), ui);
}

GtkWidget *motus_window_study_panel(MotusWindow *self) { return ui_of(self) ? ui_of(self)->panel : NULL; }
MotusStudyResults *motus_window_study_results(MotusWindow *self) { return ui_of(self) ? ui_of(self)->results : NULL; }
GtkTextView *motus_window_study_text(MotusWindow *self)
{
    return ui_of(self) && ui_of(self)->panel ? GTK_TEXT_VIEW(ui_of(self)->text) : NULL;
}
MotusStudyCluster *motus_window_study_cluster(MotusWindow *self) { return ui_of(self) ? ui_of(self)->cluster : NULL; }
MotusStudyForm *motus_window_study_form(MotusWindow *self) { return ui_of(self) ? ui_of(self)->form : NULL; }
gboolean motus_window_study_running(MotusWindow *self) { return ui_of(self) && ui_of(self)->job; }
const char *motus_window_study_progress(MotusWindow *self)
{
    return ui_of(self) && ui_of(self)->progress_text ? ui_of(self)->progress_text : "";
}

GtkWidget *motus_window_study_button(MotusWindow *self, const char *which)
{
    StudyUi *ui = ui_of(self);
    if (!ui || !ui->panel) return NULL;
    if (!strcmp(which, "keep")) return ui->keep;
    if (!strcmp(which, "apply")) return ui->apply;
    return !strcmp(which, "run") ? ui->run : !strcmp(which, "stop") ? ui->stop : ui->export;
}

gboolean motus_window_study_export(MotusWindow *self, const char *path, GError **error)
{
    StudyUi *ui = ui_of(self);
    if (!ui || !ui->results) {
        g_set_error_literal(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("The model has no study"));
        return FALSE;
    }
    return motus_study_results_export_csv(ui->results, path, error);
}

/* ---- headless screenshots ------------------------------------------------------------------------------ */

static gboolean save_panel(GtkWidget *w, const char *path)
{
    int width = gtk_widget_get_width(w), height = gtk_widget_get_height(w);
    g_autoptr(GdkPaintable) p = gtk_widget_paintable_new(w);
    GtkSnapshot *snap = gtk_snapshot_new();
    gdk_paintable_snapshot(p, GDK_SNAPSHOT(snap), width, height);
    GskRenderNode *node = gtk_snapshot_free_to_node(snap);
    if (!node) return FALSE;
    GdkTexture *t = gsk_renderer_render_texture(gtk_native_get_renderer(GTK_NATIVE(w)), node,
                                                &GRAPHENE_RECT_INIT(0, 0, (float)width, (float)height));
    gboolean ok = gdk_texture_save_to_png(t, path);
    g_object_unref(t);
    gsk_render_node_unref(node);
    return ok;
}

/* Shoots once the cases are done and the page has been drawn (a few ticks after it is shown). */
static gboolean shot_tick(gpointer data)
{
    StudyUi *ui = data;
    if (ui->job) return G_SOURCE_CONTINUE;
    if (!ui->panel || !ui->results) {
        ui->shot_id = 0;
        ui->shot_done(ui->shot_user, FALSE, _("The study panel was closed"));
        return G_SOURCE_REMOVE;
    }
    GtkNotebook *nb = motus_study_results_notebook(ui->results);
    if (gtk_notebook_get_current_page(nb) != ui->shot_page) {
        motus_study_results_choose(ui->results, 0, 0, ui->study->nvar > 1 ? 1 : 0);
        gtk_notebook_set_current_page(nb, ui->shot_page);
        return G_SOURCE_CONTINUE; /* drawn by the next tick */
    }
    gboolean ok = !ui->shot_png || save_panel(ui->panel, ui->shot_png);
    if (!ok && ++ui->shot_tries < 30) { /* not drawn yet (seen after long studies): again at the next tick */
        gtk_widget_queue_draw(ui->panel);
        return G_SOURCE_CONTINUE;
    }
    ui->shot_id = 0;
    g_autofree char *msg = ok ? g_strdup(ui->progress_text)
                              : g_strdup_printf(_("Cannot write '%s': %s"), ui->shot_png, _("nothing drawn"));
    ui->shot_done(ui->shot_user, ok, msg);
    return G_SOURCE_REMOVE;
}

gboolean motus_window_study_shoot(MotusWindow *self, const char *page, const char *png, MotusStudyShotFn done,
                                  gpointer user, GError **error)
{
    static const char *const pages[] = {"cases", "heatmap", "plot", "parallel", "path"};
    StudyUi *ui = ui_of(self);
    int k = 0;
    while (k < 5 && g_strcmp0(page, pages[k])) k++;
    const MtModel *m = motus_window_model(self);
    if (k == 5 || !m || !m->study || (k == 4 && !m->study->optimize)) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "%s",
                    k == 5                 ? _("--study: cases, heatmap, plot, parallel or path")
                    : !m || !m->study      ? _("The model has no study")
                                           : _("--study path: the study has no objective"));
        return FALSE;
    }
    g_action_group_activate_action(G_ACTION_GROUP(self), "study", NULL);
    ui->shot_page = k;
    g_free(ui->shot_png);
    ui->shot_png = g_strdup(png);
    ui->shot_done = done, ui->shot_user = user;
    ui->shot_tries = 0;
    run_clicked(NULL, ui);
    ui->shot_id = g_timeout_add(300, shot_tick, ui);
    return TRUE;
}

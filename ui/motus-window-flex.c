/* motus-window-flex.c — flexible bodies in the window: the modal
 * coordinates of the frame shown go to the 3D view (which deforms and
 * colours the bodies), and the run's largest displacement and von Mises
 * stress over all frames set the colour scale's "run maximum". The modal
 * coordinates are the result columns BODY.w1 … BODY.wN of the frames. The
 * modes dialog lists a body's modes with their frequencies and animates the
 * shape of the one selected.
 * A private part of MotusWindow (motus-window-private.h). */
#include <math.h>
#include <string.h>

#include "motus-dialog.h"
#include "motus-i18n.h"
#include "motus-window-private.h"
#include "motus/flex.h"
#include "motus/flexedit.h"
#include "motus/flexview.h"
#include "motus/units.h"

static void modes_fill(MotusWindow *self, GtkWidget *d);
static GArray *flex_bodies(MotusWindow *self);

/* First result column of the modal coordinates of flexible spec i (its N
 * columns follow), or -1 when the frames have none for it (another model). */
static int modal_column(MotusWindow *self, int i)
{
    const MtFlexSpec *f = &motus_window_model(self)->flex[i];
    MtFlexInfo fi;
    mt_flex_body_info(mt_model_flex_body(motus_window_model(self), i), &fi);
    int N = fi.nmode;
    if (N <= 0) return -1;
    const char *name = motus_window_model(self)->body[f->body].name;
    char buf[2 * MT_NAME_MAX];
    g_snprintf(buf, sizeof buf, "%s.w1", name);
    int col = motus_run_bridge_find_column(motus_window_bridge(self), buf);
    g_snprintf(buf, sizeof buf, "%s.w%d", name, N);
    const char *last = col >= 0 ? motus_run_bridge_column_name(motus_window_bridge(self), col + N - 1) : NULL;
    return last && !strcmp(last, buf) ? col : -1;
}

/* Modal coordinates of every flexible body at frame i into w (the view's
 * layout: specs with a reduction, in order); FALSE when there are none. */
static gboolean frame_modal(MotusWindow *self, guint i, double *w, int n)
{
    memset(w, 0, sizeof(double) * (size_t)n);
    if (!motus_window_model(self) || i >= motus_run_bridge_n_frames(motus_window_bridge(self))) return FALSE;
    int off = 0;
    gboolean any = FALSE;
    for (int s = 0; s < motus_window_model(self)->nflex && off < n; s++) {
        const MtFlexBody *fb = mt_model_flex_body(motus_window_model(self), s);
        if (!fb) continue;
        MtFlexInfo fi;
        mt_flex_body_info(fb, &fi);
        int N = fi.nmode, col = modal_column(self, s);
        for (int k = 0; col >= 0 && k < N && off + k < n; k++) w[off + k] = motus_run_bridge_value(motus_window_bridge(self), col + k, i);
        any |= col >= 0;
        off += N;
    }
    return any;
}

void motus_window_flex_show_frame(MotusWindow *self, gboolean has_frame, guint i)
{
    int n = motus_viewport_n_modal(self->viewport);
    if (!n) return;
    g_autofree double *w = g_new(double, n);
    if (has_frame && frame_modal(self, i, w, n))
        motus_viewport_set_modal(self->viewport, w, n);
    else
        motus_viewport_set_modal(self->viewport, NULL, 0);
}

/* The largest displacement and von Mises stress of the frames not scanned
 * yet (the session keeps how many were) join the run's maxima. */
void motus_window_flex_extend(MotusWindow *self)
{
    int n = motus_viewport_n_modal(self->viewport);
    guint frames = motus_run_bridge_n_frames(motus_window_bridge(self));
    guint from = motus_session_get_flex_scanned(self->session);
    if (!n || !motus_window_model(self) || from >= frames) return;
    g_autofree double *w = g_new(double, n);
    for (guint i = from; i < frames; i++) {
        if (!frame_modal(self, i, w, n)) break;
        int off = 0;
        for (int s = 0; s < motus_window_model(self)->nflex; s++) {
            const MtFlexBody *fb = mt_model_flex_body(motus_window_model(self), s);
            if (!fb) continue;
            MtFlexInfo fi;
            mt_flex_body_info(fb, &fi);
            double rig[6];
            mt_flexview_support_motion(fb, w + off, rig);
            for (int k = 0; k < MT_FLEXFIELD_COUNT; k++)
                self->flex_max[k] = fmax(self->flex_max[k], mt_flexview_field(fb, w + off, rig, (MtFlexField)k, NULL));
            off += fi.nmode;
        }
    }
    motus_session_set_flex_scanned(self->session, frames);
    motus_viewport_set_run_max(self->viewport, self->flex_max[0], self->flex_max[1]);
}

/* 1, 2 or 5 times a power of ten, at most x (x ≥ 1). */
static double nice_below(double x)
{
    double p = pow(10, floor(log10(x))), m = x / p;
    return p * (m >= 5 ? 5 : m >= 2 ? 2 : 1);
}

double motus_window_flex_proposed_scale(MotusWindow *self)
{
    const MtModel *m = motus_window_model(self);
    double size = 0;
    for (int s = 0; m && s < m->nflex; s++) {
        const MtFlexBody *fb = mt_model_flex_body(m, s);
        if (fb) size = fmax(size, mt_flexview_size(fb));
    }
    double d = self->flex_max[0];
    if (!(d > 0) || !(size > 0)) return 0;
    double s = 0.05 * size / d; /* the largest deformation a twentieth of the body: visible, not grotesque */
    return s <= 1 ? 1 : nice_below(s);
}

/* After a run of a model with flexible bodies: a deformation scale that makes the deformation visible and
 * colours by displacement, where the user has chosen neither (motus_viewport_propose_view); said in the
 * status bar. */
void motus_window_flex_propose(MotusWindow *self)
{
    double s = motus_window_flex_proposed_scale(self);
    if (!(s > 0) || !motus_viewport_propose_view(self->viewport, s, MOTUS_FIELD_DISPLACEMENT)) return;
    /* TRANSLATORS: after a run: the deformation scale chosen for the view, and where to change it. */
    g_autofree char *msg = g_strdup_printf(_("%s · deformation shown ×%g, coloured by displacement (change them under the view)"),
                                           motus_window_get_status(self), motus_viewport_get_deformation_scale(self->viewport));
    motus_window_set_status(self, msg);
}

/* Frames were replaced (a new run, a stored run loaded) or the model changed. */
/* ---- the view kept with the model (`view` line) ------------------------------------ */

void motus_window_view_apply(MotusWindow *self)
{
    const MtModel *m = motus_window_model(self);
    if (!m || !m->view.set) return;
    const MtViewSpec *v = &m->view;
    static const MotusField field[] = {MOTUS_FIELD_NONE, MOTUS_FIELD_DISPLACEMENT, MOTUS_FIELD_VONMISES};
    static const MotusRangeMode range[] = {MOTUS_RANGE_RUN, MOTUS_RANGE_FRAME, MOTUS_RANGE_FIXED};
    static const MotusViewPreset camera[] = {MOTUS_VIEW_ISO, MOTUS_VIEW_FRONT, MOTUS_VIEW_RIGHT, MOTUS_VIEW_TOP, MOTUS_VIEW_ISO};
    if (m->nflex) { /* chosen, not proposed: a run keeps them */
        motus_viewport_set_deformation_scale(self->viewport, v->deformation);
        motus_viewport_set_colour_field(self->viewport, field[v->field]);
        motus_viewport_set_colour_range(self->viewport, range[v->range], v->lo, v->hi);
    }
    if (v->camera != MT_VIEW_CAMERA_KEEP) motus_viewport_view_preset(self->viewport, camera[v->camera]);
    int b = v->focus[0] ? mt_model_find_body(m, v->focus) : -1;
    if (b >= 0) motus_viewport_fit_body(self->viewport, b);
}

void motus_window_view_keep(MotusWindow *self)
{ /* (flexible models: the deformation, colours and range shown now too) */
    const MtModel *m = motus_window_model(self);
    if (!m) return;
    MtViewSpec v = m->view;
    motus_window_meters_keep(self, &v);
    int fb = motus_viewport_get_follow(self->viewport);
    if (!v.set && !v.nmeter && fb < 0) return; /* nothing to keep */
    if (!v.set) {
        v.camera = MT_VIEW_CAMERA_KEEP, v.focus[0] = 0, v.deformation = 1;
        v.field = MT_VIEW_FIELD_NONE, v.range = MT_VIEW_RANGE_RUN, v.lo = v.hi = 0;
    }
    v.set = 1;
    snprintf(v.follow, sizeof v.follow, "%s", fb >= 0 && fb < m->nbody ? m->body[fb].name : ""); /* the Follow button */
    if (!m->nflex) { /* a rigid model's view (camera, focus) stays as written, with the meters shown now */
        mt_editor_set_view(motus_window_editor(self), &v);
        return;
    }
    v.deformation = motus_viewport_get_deformation_scale(self->viewport);
    if (!(v.deformation > 0)) v.deformation = 1;
    MotusField f = motus_viewport_get_colour_field(self->viewport);
    v.field = f == MOTUS_FIELD_VONMISES ? MT_VIEW_FIELD_STRESS : f == MOTUS_FIELD_DISPLACEMENT ? MT_VIEW_FIELD_DISPLACEMENT
                                                                                             : MT_VIEW_FIELD_NONE;
    MotusRangeMode r = motus_viewport_get_range_mode(self->viewport);
    v.range = r == MOTUS_RANGE_FIXED ? MT_VIEW_RANGE_FIXED : r == MOTUS_RANGE_FRAME ? MT_VIEW_RANGE_FRAME : MT_VIEW_RANGE_RUN;
    v.lo = v.hi = 0;
    if (v.range == MT_VIEW_RANGE_FIXED && !(motus_viewport_get_colour_range(self->viewport, &v.lo, &v.hi) && v.lo < v.hi))
        v.range = MT_VIEW_RANGE_RUN, v.lo = v.hi = 0;
    mt_editor_set_view(motus_window_editor(self), &v);
}

void motus_window_flex_reset(MotusWindow *self)
{
    if (self->modes_dialog) { /* the bodies may have changed: the list follows the model */
        GArray *bodies = flex_bodies(self);
        g_object_set_data_full(G_OBJECT(self->modes_dialog), "bodies", bodies, (GDestroyNotify)g_array_unref);
        GtkDropDown *dd = g_object_get_data(G_OBJECT(self->modes_dialog), "body");
        GtkStringList *names = gtk_string_list_new(NULL);
        for (guint i = 0; i < bodies->len; i++)
            gtk_string_list_append(names, motus_window_model(self)->body[g_array_index(bodies, int, i)].name);
        gtk_drop_down_set_model(dd, G_LIST_MODEL(names)); /* "notify::selected" refills the list */
        g_object_unref(names);
        modes_fill(self, self->modes_dialog);
    }
    motus_session_set_flex_scanned(self->session, 0);
    self->flex_max[0] = self->flex_max[1] = 0;
    motus_viewport_set_run_max(self->viewport, 0, 0);
    motus_window_flex_extend(self);
}

/* ---- mode shapes -------------------------------------------------------------------- */

/* The reduced flexible bodies of the model (body indices), in spec order. */
static GArray *flex_bodies(MotusWindow *self)
{
    GArray *a = g_array_new(FALSE, FALSE, sizeof(int));
    for (int i = 0; motus_window_model(self) && i < motus_window_model(self)->nflex; i++) {
        const MtFlexBody *fb = mt_model_flex_body(motus_window_model(self), i);
        MtFlexInfo fi;
        if (fb) mt_flex_body_info(fb, &fi);
        if (fb && fi.nmode > 0) g_array_append_val(a, motus_window_model(self)->flex[i].body);
    }
    return a;
}

static const char *method_name(int method)
{
    switch (method) {
    case MT_REDUCE_CB: return _("Craig–Bampton");
    case MT_REDUCE_GUYAN: return _("static condensation (Guyan)");
    case MT_REDUCE_ATTACH: return _("normal and attachment modes");
    default: return _("normal modes");
    }
}

/* The list of modes of the body chosen in the dialog's drop-down. */
static void modes_fill(MotusWindow *self, GtkWidget *d)
{
    GtkListBox *list = g_object_get_data(G_OBJECT(d), "list");
    GtkLabel *info = g_object_get_data(G_OBJECT(d), "info");
    GArray *bodies = g_object_get_data(G_OBJECT(d), "bodies");
    GtkDropDown *dd = g_object_get_data(G_OBJECT(d), "body");
    motus_viewport_preview_mode(self->viewport, -1, -1);
    GtkWidget *row;
    while ((row = GTK_WIDGET(gtk_list_box_get_row_at_index(list, 0)))) gtk_list_box_remove(list, row);
    guint sel = gtk_drop_down_get_selected(dd);
    if (!motus_window_model(self) || sel >= bodies->len) {
        gtk_label_set_text(info, _("The model has no reduced flexible body."));
        return;
    }
    int b = g_array_index(bodies, int, sel);
    MtFlexInfo fi, *fb = &fi;
    const MtModel *m = motus_window_model(self);
    mt_flex_body_info(mt_model_flex_body(m, mt_model_body_flex(m, b)), &fi);
    g_autofree char *text =
        g_strdup_printf(_("%s, %d modal coordinates (%d interface nodes). Select a mode to see its shape "
                          "animated; the frequencies are those of the free-floating reduced body."),
                        method_name(fb->method), fb->nmode, fb->nif);
    gtk_label_set_text(info, text);
    for (int k = 0; k < fb->nmode; k++) {
        /* TRANSLATORS: a row of the mode list: mode number, natural frequency. */
        g_autofree char *s = g_strdup_printf(_("Mode %d"), k + 1);
        g_autofree char *f = g_strdup_printf("%.5g Hz", fb->freq ? fb->freq[k] : 0.0);
        GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
        GtkWidget *l1 = gtk_label_new(s), *l2 = gtk_label_new(f);
        gtk_widget_set_hexpand(l1, TRUE);
        gtk_label_set_xalign(GTK_LABEL(l1), 0);
        gtk_widget_add_css_class(l2, "numeric");
        gtk_box_append(GTK_BOX(box), l1);
        gtk_box_append(GTK_BOX(box), l2);
        motus_set_margins(box, 8, 3);
        gtk_list_box_append(list, box);
    }
}

static void modes_body_changed(GObject *dd, GParamSpec *ps, gpointer data)
{
    (void)dd, (void)ps;
    MotusWindow *self = data;
    if (self->modes_dialog) modes_fill(self, self->modes_dialog);
}

static void modes_row_selected(GtkListBox *list, GtkListBoxRow *row, gpointer data)
{
    (void)list;
    MotusWindow *self = data;
    GtkWidget *d = self->modes_dialog;
    if (!d || !row) { /* also while the dialog is torn down: its other widgets may be gone */
        motus_viewport_preview_mode(self->viewport, -1, -1);
        return;
    }
    GArray *bodies = g_object_get_data(G_OBJECT(d), "bodies");
    guint sel = gtk_drop_down_get_selected(GTK_DROP_DOWN(g_object_get_data(G_OBJECT(d), "body")));
    if (sel >= bodies->len) return;
    motus_viewport_preview_mode(self->viewport, g_array_index(bodies, int, sel), gtk_list_box_row_get_index(row));
}

static void modes_destroyed(GtkWidget *w, gpointer data)
{
    (void)w;
    MotusWindow *self = data;
    self->modes_dialog = NULL;
    motus_viewport_preview_mode(self->viewport, -1, -1);
}

GtkWidget *motus_window_show_flex_modes(MotusWindow *self, int body)
{
    if (!motus_window_model(self)) return NULL;
    if (self->modes_dialog) gtk_window_destroy(GTK_WINDOW(self->modes_dialog));
    GArray *bodies = flex_bodies(self);
    GtkWidget *d = motus_dialog_new(GTK_WINDOW(self), _("Modes of Flexible Bodies"), 340, 460);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8);
    motus_set_margins(box, 12, 12);
    GtkStringList *names = gtk_string_list_new(NULL);
    guint sel = 0;
    for (guint i = 0; i < bodies->len; i++) {
        int b = g_array_index(bodies, int, i);
        gtk_string_list_append(names, motus_window_model(self)->body[b].name);
        if (b == body) sel = i;
    }
    GtkWidget *dd = gtk_drop_down_new(G_LIST_MODEL(names), NULL);
    gtk_drop_down_set_selected(GTK_DROP_DOWN(dd), sel);
    GtkWidget *info = gtk_label_new(NULL);
    gtk_label_set_wrap(GTK_LABEL(info), TRUE);
    gtk_label_set_xalign(GTK_LABEL(info), 0);
    gtk_widget_add_css_class(info, "dim-label");
    GtkWidget *list = gtk_list_box_new();
    gtk_list_box_set_selection_mode(GTK_LIST_BOX(list), GTK_SELECTION_SINGLE);
    GtkWidget *scroll = gtk_scrolled_window_new();
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroll), list);
    gtk_widget_set_vexpand(scroll, TRUE);
    gtk_widget_add_css_class(list, "boxed-list");
    gtk_box_append(GTK_BOX(box), dd);
    gtk_box_append(GTK_BOX(box), info);
    gtk_box_append(GTK_BOX(box), scroll);
    gtk_window_set_child(GTK_WINDOW(d), box);
    g_object_set_data(G_OBJECT(d), "list", list);
    g_object_set_data(G_OBJECT(d), "info", info);
    g_object_set_data(G_OBJECT(d), "body", dd);
    g_object_set_data_full(G_OBJECT(d), "bodies", bodies, (GDestroyNotify)g_array_unref);
    self->modes_dialog = d;
    modes_fill(self, d);
    g_signal_connect(dd, "notify::selected", G_CALLBACK(modes_body_changed), self);
    g_signal_connect(list, "row-selected", G_CALLBACK(modes_row_selected), self);
    g_signal_connect(d, "destroy", G_CALLBACK(modes_destroyed), self);
    gtk_window_present(GTK_WINDOW(d));
    return d;
}

/* ---- reductions on a worker thread ---------------------------------------------------
 * An edit that needs a new reduction (a body imported from a mesh, a marker
 * placed on a flexible body) is made on a copy of the model; a worker
 * reduces the copy (mt_model_flex_refresh_progress) while a small window
 * shows the stage and the fraction done and can cancel; the finished copy is
 * committed to the editor, whose check then finds the reduction up to date,
 * so the edit is undone and redone like any other. The worker touches no
 * reduced data shared with the editor's model (a stale reduction is dropped
 * before it starts), and the progress window is modal: nothing else edits
 * the model meanwhile (checked again at the commit). */

typedef struct FlexJob {
    MtModel *model;      /* the worker's while it runs */
    char *label;         /* the edit, for undo ("import flexible body 'strut'") */
    MtEditKind sel_kind; /* what to select afterwards */
    int sel_index;
    unsigned long state; /* the editor's state the copy was made from */
    GThread *thread;
    volatile int cancel;
    GMutex lock;         /* guards the fields below */
    char stage[32];
    double fraction;
    gboolean done;
    MtStatus rc;
    MtError err;
    guint poll_id;
    GtkWidget *window, *bar, *stage_label;
} FlexJob;

static int job_progress(void *user, const char *stage, double fraction)
{
    FlexJob *j = user;
    g_mutex_lock(&j->lock);
    g_strlcpy(j->stage, stage, sizeof j->stage);
    j->fraction = fraction;
    g_mutex_unlock(&j->lock);
    return 0; /* the cancel flag is read by the reduction itself */
}

static gpointer job_worker(gpointer data)
{
    FlexJob *j = data;
    MtFeProgress pr = {job_progress, j, &j->cancel};
    MtError err = {0};
    MtStatus rc = mt_model_flex_refresh_progress(j->model, &pr, &err);
    g_mutex_lock(&j->lock);
    j->rc = rc;
    j->err = err;
    j->done = TRUE;
    g_mutex_unlock(&j->lock);
    return NULL;
}

static void job_free(FlexJob *j)
{
    g_clear_handle_id(&j->poll_id, g_source_remove);
    if (j->thread) g_thread_join(j->thread);
    if (j->window) {
        g_signal_handlers_disconnect_matched(j->window, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, j);
        gtk_window_destroy(GTK_WINDOW(j->window));
    }
    mt_model_free(j->model);
    g_mutex_clear(&j->lock);
    g_free(j->label);
    g_free(j);
}

static gboolean job_poll(gpointer data)
{
    MotusWindow *self = data;
    FlexJob *j = self->flex_job;
    g_mutex_lock(&j->lock);
    gboolean done = j->done;
    double f = j->fraction;
    char stage[32];
    g_strlcpy(stage, j->stage, sizeof stage);
    g_mutex_unlock(&j->lock);
    if (!done) {
        gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(j->bar), CLAMP(f, 0, 1));
        /* TRANSLATORS: progress of a reduction: its stage (assembly, factorisation, eigenvalues …) */
        g_autofree char *text = g_strdup_printf(_("Reducing: %s"), stage[0] ? stage : "…");
        gtk_label_set_text(GTK_LABEL(j->stage_label), text);
        return G_SOURCE_CONTINUE;
    }
    j->poll_id = 0;
    g_thread_join(j->thread);
    j->thread = NULL;
    self->flex_job = NULL;
    if (j->rc == MT_OK && !j->cancel) {
        MtError err = {0};
        MtModel *m = j->model;
        j->model = NULL;
        MtEditor *ed = motus_window_editor(self);
        if (ed && mt_editor_state(ed) != j->state) { /* the model changed meanwhile */
            mt_model_free(m);
            mt_error_set(&err, MT_ERR_ARG, "", "%s", _("the model changed while the body was reduced; do it again"));
            motus_window_set_status(self, err.msg);
            motus_window_error_dialog(self, _("The edit was refused"), err.msg);
        } else if (!ed || mt_editor_commit(ed, m, j->label, &err) != MT_OK) {
            motus_window_set_status(self, err.msg);
            motus_window_error_dialog(self, _("The edit was refused"), err.msg);
        } else {
            motus_window_model_changed(self);
            motus_window_select(self, j->sel_kind, j->sel_index);
            motus_window_set_status(self, j->label);
        }
    } else if (j->cancel) {
        motus_window_set_status(self, _("Reduction cancelled; the model is as it was"));
    } else {
        motus_window_set_status(self, j->err.msg);
        motus_window_error_dialog(self, _("The flexible body cannot be reduced"), j->err.msg);
    }
    job_free(j);
    motus_window_update_actions(self);
    return G_SOURCE_REMOVE;
}

static void job_cancel_clicked(GtkButton *b, gpointer data)
{
    (void)b;
    FlexJob *j = data;
    j->cancel = 1;
    gtk_label_set_text(GTK_LABEL(j->stage_label), _("Cancelling…"));
}

static gboolean job_close_request(GtkWindow *w, gpointer data)
{
    (void)w;
    job_cancel_clicked(NULL, data);
    return TRUE; /* the window goes when the worker has stopped */
}

gboolean motus_window_flex_reduce(MotusWindow *self, MtModel *copy, const char *label, MtEditKind sel_kind,
                                  int sel_index, GError **error)
{
    if (self->flex_job || motus_run_bridge_is_running(motus_window_bridge(self))) {
        mt_model_free(copy);
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_BUSY, "%s",
                    _("a reduction or a run is going; wait for it or stop it first"));
        return FALSE;
    }
    FlexJob *j = g_new0(FlexJob, 1);
    g_mutex_init(&j->lock);
    j->model = copy;
    j->label = g_strdup(label);
    j->sel_kind = sel_kind;
    j->sel_index = sel_index;
    j->state = motus_window_editor(self) ? mt_editor_state(motus_window_editor(self)) : 0;
    j->window = gtk_window_new();
    gtk_window_set_title(GTK_WINDOW(j->window), _("Reducing a Flexible Body"));
    gtk_window_set_transient_for(GTK_WINDOW(j->window), GTK_WINDOW(self));
    gtk_window_set_modal(GTK_WINDOW(j->window), TRUE);
    gtk_window_set_default_size(GTK_WINDOW(j->window), 380, -1);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8);
    motus_set_margins(box, 16, 16);
    GtkWidget *what = gtk_label_new(label);
    gtk_label_set_wrap(GTK_LABEL(what), TRUE);
    gtk_label_set_xalign(GTK_LABEL(what), 0);
    j->stage_label = gtk_label_new(_("Reducing: reading the mesh…"));
    gtk_label_set_xalign(GTK_LABEL(j->stage_label), 0);
    gtk_widget_add_css_class(j->stage_label, "dim-label");
    j->bar = gtk_progress_bar_new();
    GtkWidget *cancel = gtk_button_new_with_mnemonic(_("_Cancel"));
    gtk_widget_set_halign(cancel, GTK_ALIGN_END);
    g_signal_connect(cancel, "clicked", G_CALLBACK(job_cancel_clicked), j);
    g_signal_connect(j->window, "close-request", G_CALLBACK(job_close_request), j);
    gtk_box_append(GTK_BOX(box), what);
    gtk_box_append(GTK_BOX(box), j->stage_label);
    gtk_box_append(GTK_BOX(box), j->bar);
    gtk_box_append(GTK_BOX(box), cancel);
    gtk_window_set_child(GTK_WINDOW(j->window), box);
    if (!self->batch) gtk_window_present(GTK_WINDOW(j->window));
    self->flex_job = j;
    j->thread = g_thread_new("motus-reduce", job_worker, j);
    j->poll_id = g_timeout_add(100, job_poll, self);
    motus_window_set_status(self, label);
    motus_window_update_actions(self);
    return TRUE;
}

gboolean motus_window_flex_busy(MotusWindow *self) { return self->flex_job != NULL; }

void motus_window_flex_cancel(MotusWindow *self)
{
    if (self->flex_job) self->flex_job->cancel = 1;
}

void motus_window_flex_dispose(MotusWindow *self)
{
    if (!self->flex_job) return;
    self->flex_job->cancel = 1;
    job_free(self->flex_job); /* joins the worker */
    self->flex_job = NULL;
}

/* ---- importing a mesh -------------------------------------------------------------------- */

/* The mesh file as the model will name it: relative to the model's directory when it lies there. */
static void model_relative(MotusWindow *self, const char *path, char *out, size_t n)
{
    const char *doc_path = motus_document_get_path(self->doc);
    g_autofree char *dir = doc_path ? g_path_get_dirname(doc_path) : NULL;
    g_autofree char *abs = g_canonicalize_filename(path, NULL);
    g_autofree char *adir = dir ? g_canonicalize_filename(dir, NULL) : NULL;
    size_t l = adir ? strlen(adir) : 0;
    if (adir && !strncmp(abs, adir, l) && abs[l] == '/')
        g_strlcpy(out, abs + l + 1, n);
    else
        g_strlcpy(out, abs, n);
}

gboolean motus_window_import_mesh_def(MotusWindow *self, const MtFlexMeshDef *def, GError **error)
{
    if (!motus_window_model(self)) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", _("no model is open"));
        return FALSE;
    }
    MtFlexMeshDef d = *def;
    model_relative(self, def->file, d.file, sizeof d.file);
    MtModel *copy = mt_model_copy(motus_window_model(self));
    MtError err = {0};
    int b = copy ? mt_flexedit_add_mesh_body(copy, &d, &err) : -1;
    if (b < 0) {
        mt_model_free(copy);
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", copy ? err.msg : _("out of memory"));
        return FALSE;
    }
    g_autofree char *label = g_strdup_printf(_("import flexible body '%s'"), copy->body[b].name);
    return motus_window_flex_reduce(self, copy, label, MT_EDIT_BODY, b, error);
}

/* The import dialog's fields: a quantity typed with or without its unit. */
static gboolean read_quantity(GtkWidget *d, const char *key, MtDim dim, const char *unit, double *v, GString *why)
{
    GtkEditable *e = g_object_get_data(G_OBJECT(d), key);
    MtError err = {0};
    g_autofree char *typed = motus_delocalise(gtk_editable_get_text(e));
    if (mt_units_parse(typed, dim, unit, v, &err) == MT_OK) {
        gtk_widget_remove_css_class(GTK_WIDGET(e), "error");
        return TRUE;
    }
    gtk_widget_add_css_class(GTK_WIDGET(e), "error");
    g_string_append_printf(why, "%s: %s\n", key, err.msg);
    return FALSE;
}

static void import_describe(GtkWidget *d)
{
    GtkLabel *info = g_object_get_data(G_OBJECT(d), "info");
    const char *path = gtk_editable_get_text(GTK_EDITABLE(g_object_get_data(G_OBJECT(d), "file")));
    if (!path[0]) {
        gtk_label_set_text(info, _("Choose a mesh: Gmsh .msh, Abaqus/CalculiX .inp or Nastran .bdf, in SI units."));
        return;
    }
    MtMeshInfo mi;
    MtError err = {0};
    if (mt_flexedit_mesh_info(path, &mi, &err) != MT_OK) {
        gtk_label_set_text(info, err.msg);
        return;
    }
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, _("%d nodes, %d elements ("), mi.nnode, mi.nelem);
    gboolean first = TRUE;
    for (int t = 0; t < MT_FE_NTYPES; t++)
        if (mi.count[t]) {
            g_string_append_printf(s, "%s%d %s", first ? "" : ", ", mi.count[t], mt_fe_type_name(t));
            first = FALSE;
        }
    g_string_append_printf(s, _("); %.4g × %.4g × %.4g m. "), mi.hi[0] - mi.lo[0], mi.hi[1] - mi.lo[1],
                           mi.hi[2] - mi.lo[2]);
    if (mi.nomat)
        g_string_append_printf(s, _("%d elements have no material: the material below applies to them."), mi.nomat);
    else
        g_string_append(s, _("Every element has its material from the file."));
    gtk_label_set_text(info, s->str);
    g_string_free(s, TRUE);
    GtkEditable *name = g_object_get_data(G_OBJECT(d), "name");
    if (!gtk_editable_get_text(name)[0]) {
        g_autofree char *base = g_path_get_basename(path);
        char *dot = strchr(base, '.');
        if (dot) *dot = 0;
        gtk_editable_set_text(name, base);
    }
}

static void import_file_changed(GtkEditable *e, gpointer data)
{
    (void)e;
    import_describe(data);
}

static void import_choose(GtkButton *b, gpointer data)
{
    (void)b;
    GtkWidget *d = data;
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    GtkFileChooserNative *fc = gtk_file_chooser_native_new(_("Choose a Mesh"), GTK_WINDOW(d),
                                                           GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
    GtkFileFilter *ff = gtk_file_filter_new();
    gtk_file_filter_set_name(ff, _("Meshes (.msh, .inp, .bdf, .nas, .dat)"));
    const char *pats[] = {"*.msh", "*.inp", "*.bdf", "*.nas", "*.dat", "*.MSH", "*.INP", "*.BDF"};
    for (guint i = 0; i < G_N_ELEMENTS(pats); i++) gtk_file_filter_add_pattern(ff, pats[i]);
    gtk_file_chooser_add_filter(GTK_FILE_CHOOSER(fc), ff);
    g_object_unref(ff);
    G_GNUC_END_IGNORE_DEPRECATIONS
    g_signal_connect(fc, "response", G_CALLBACK(motus_dialog_file_chosen), d);
    gtk_native_dialog_show(GTK_NATIVE_DIALOG(fc));
}

static void import_clicked(GtkButton *b, gpointer data)
{
    (void)b;
    GtkWidget *d = data;
    MotusWindow *self = g_object_get_data(G_OBJECT(d), "window");
    MtFlexMeshDef def;
    mt_flex_mesh_def_default(&def);
    g_autoptr(GString) why = g_string_new(NULL);
    g_strlcpy(def.file, gtk_editable_get_text(GTK_EDITABLE(g_object_get_data(G_OBJECT(d), "file"))), sizeof def.file);
    g_strlcpy(def.name, gtk_editable_get_text(GTK_EDITABLE(g_object_get_data(G_OBJECT(d), "name"))), sizeof def.name);
    read_quantity(d, "E", MT_DIM_PRESSURE, "GPa", &def.E, why);
    read_quantity(d, "ν", MT_DIM_NONE, NULL, &def.nu, why);
    read_quantity(d, "ρ", MT_DIM_DENSITY, NULL, &def.rho, why);
    read_quantity(d, "t", MT_DIM_LENGTH, "mm", &def.thickness, why);
    read_quantity(d, "ζ", MT_DIM_NONE, NULL, &def.zeta, why);
    const char *xyz[3] = {"x", "y", "z"};
    for (int c = 0; c < 3; c++) read_quantity(d, xyz[c], MT_DIM_LENGTH, "m", &def.pos[c], why);
    static const int methods[] = {MT_REDUCE_CB, MT_REDUCE_MODES, MT_REDUCE_GUYAN, MT_REDUCE_ATTACH};
    def.method = methods[MIN(3u, gtk_drop_down_get_selected(GTK_DROP_DOWN(g_object_get_data(G_OBJECT(d), "method"))))];
    def.modes = gtk_spin_button_get_value_as_int(GTK_SPIN_BUTTON(g_object_get_data(G_OBJECT(d), "modes")));
    def.stiffening = gtk_check_button_get_active(GTK_CHECK_BUTTON(g_object_get_data(G_OBJECT(d), "stiffening")));
    GtkLabel *msg = g_object_get_data(G_OBJECT(d), "message");
    g_autoptr(GError) error = NULL;
    if (why->len) {
        g_strchomp(why->str);
        gtk_label_set_text(msg, why->str);
        return;
    }
    if (!motus_window_import_mesh_def(self, &def, &error)) {
        gtk_label_set_text(msg, error->message);
        return;
    }
    gtk_window_destroy(GTK_WINDOW(d));
}

GtkWidget *motus_window_import_mesh(MotusWindow *self, const char *path)
{
    if (!motus_window_editor(self)) return NULL;
    GtkWidget *d = motus_dialog_new(GTK_WINDOW(self), _("Import a Flexible Body"), 520, -1);
    g_object_set_data(G_OBJECT(d), "window", self);
    GtkGrid *grid = motus_dialog_form(d);
    int r = 0;
    GtkWidget *file = motus_dialog_file_row(grid, r++, _("Mesh"), path ? path : "", _("The mesh file (SI units)"),
                                            G_CALLBACK(import_choose), d);
    motus_dialog_note(grid, r++, "dim-label", 60, d, "info");
    motus_dialog_entry(grid, r++, _("Name"), "name", "", _("The new body's name (from the file when empty)"), d);
    motus_dialog_entry(grid, r++, _("Young's modulus E"), "E", "210 GPa", _("For elements without a material"), d);
    motus_dialog_entry(grid, r++, _("Poisson's ratio ν"), "ν", "0.3", NULL, d);
    motus_dialog_entry(grid, r++, _("Density ρ"), "ρ", "7850 kg/m^3", NULL, d);
    motus_dialog_entry(grid, r++, _("Shell thickness"), "t", "0 mm", _("For shell elements without a thickness"), d);
    const char *methods[] = {_("Craig–Bampton"), _("Free-free normal modes"), _("Static condensation (Guyan)"),
                             _("Normal and attachment modes"), NULL};
    motus_dialog_field(grid, r++, _("Reduction"), gtk_drop_down_new_from_strings(methods), 2,
                       _("The interface nodes are those of the body's markers that joints and "
                         "forces act on; without any, Craig–Bampton gives free-free modes"),
                       d, "method");
    GtkWidget *modes = gtk_spin_button_new_with_range(0, 500, 1);
    gtk_spin_button_set_value(GTK_SPIN_BUTTON(modes), 10);
    motus_dialog_field(grid, r++, _("Modes"), modes, 2, _("Normal modes kept (Craig–Bampton: fixed-interface modes)"), d,
                       "modes");
    motus_dialog_entry(grid, r++, _("Damping ratio ζ"), "ζ", "0.02", _("Modal damping of every mode"), d);
    GtkWidget *stiff = gtk_check_button_new_with_label(_("Geometric stiffening"));
    gtk_widget_set_tooltip_text(stiff, _("The stress of gravity and of spinning stiffens the modes (a rotor blade, a "
                                         "long arm spun up): put the body's origin on the axis of rotation. Craig–Bampton "
                                         "or Guyan; beams and solids"));
    gtk_grid_attach(grid, stiff, 1, r++, 2, 1);
    g_object_set_data(G_OBJECT(d), "stiffening", stiff);
    motus_dialog_entry(grid, r++, _("Position x"), "x", "0 m", _("Where the mesh's origin goes, project axes"), d);
    motus_dialog_entry(grid, r++, _("Position y"), "y", "0 m", NULL, d);
    motus_dialog_entry(grid, r++, _("Position z"), "z", "0 m", NULL, d);
    motus_dialog_note(grid, r++, "error", -1, d, "message");
    GtkWidget *ok = motus_dialog_footer(grid, r++, _("_Import"), G_CALLBACK(import_clicked), d);
    g_object_set_data(G_OBJECT(d), "import", ok);
    g_signal_connect(file, "changed", G_CALLBACK(import_file_changed), d);
    import_describe(d);
    gtk_window_present(GTK_WINDOW(d));
    return d;
}

static void act_import_mesh(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    motus_window_import_mesh(data, NULL);
}

/* ---- markers on flexible bodies --------------------------------------------------------- */

void motus_window_flex_marker_click(MotusWindow *self, double x, double y)
{
    int b = motus_viewport_body_at(self->viewport, x, y);
    int n = b >= 0 && b < motus_window_model(self)->nbody ? motus_viewport_flex_n_vertices(self->viewport, b) : 0;
    if (!n) {
        motus_window_set_status(self, _("New marker: click a flexible body"));
        return;
    }
    /* the surface node drawn nearest to the click */
    int best = -1;
    double bd = INFINITY, p[3], sx, sy;
    for (int v = 0; v < n; v++)
        if (motus_viewport_flex_vertex(self->viewport, b, v, motus_viewport_get_deformation_scale(self->viewport), p) &&
            motus_viewport_project_point(self->viewport, p, &sx, &sy) && (sx - x) * (sx - x) + (sy - y) * (sy - y) < bd)
            bd = (sx - x) * (sx - x) + (sy - y) * (sy - y), best = v;
    MtFlexInfo fi, *fb = &fi;
    const MtModel *m = motus_window_model(self);
    mt_flex_body_info(mt_model_flex_body(m, mt_model_body_flex(m, b)), &fi);
    double r = 0;
    MtError err = {0};
    g_autofree char *rt = motus_delocalise(gtk_editable_get_text(GTK_EDITABLE(self->spider_entry)));
    if (rt[0] && mt_units_parse(rt, MT_DIM_LENGTH, "mm", &r, &err) != MT_OK) {
        motus_window_set_status(self, err.msg);
        return;
    }
    double at[3] = {fb->sv_x[3 * best], fb->sv_x[3 * best + 1], fb->sv_x[3 * best + 2]};
    motus_window_pick_cancel(self);
    g_autoptr(GError) error = NULL;
    if (!motus_window_add_flex_marker(self, b, r > 0 ? 0 : fb->sv_id[best], at, r, &error)) {
        motus_window_set_status(self, error->message);
        motus_window_error_dialog(self, _("Cannot add the marker"), error->message);
    }
}

gboolean motus_window_add_flex_marker(MotusWindow *self, int body, int label, const double at[3], double spider,
                                      GError **error)
{
    if (!motus_window_model(self)) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", _("no model is open"));
        return FALSE;
    }
    MtModel *copy = mt_model_copy(motus_window_model(self));
    MtError err = {0};
    int k = copy ? mt_flexedit_add_marker(copy, body, "", label, at, spider, &err) : -1;
    if (k < 0) {
        mt_model_free(copy);
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", copy ? err.msg : _("out of memory"));
        return FALSE;
    }
    /* the body's old reduction is dropped here, not on the worker: it is shared with the editor's model */
    mt_model_flex_invalidate(copy, mt_model_body_flex(copy, body));
    g_autofree char *what = g_strdup_printf(_("add marker '%s.%s'"), copy->body[body].name, copy->marker[k].name);
    return motus_window_flex_reduce(self, copy, what, MT_EDIT_MARKER, k, error);
}

static void act_add_flex_marker(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    motus_window_pick_start(data, PICK_FLEX_MARKER, "");
}

static void act_flex_modes(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    MotusWindow *self = data;
    int b = self->sel_kind == MT_EDIT_BODY ? self->sel_index : -1;
    motus_window_show_flex_modes(self, b);
}

void motus_window_flex_init(MotusWindow *self)
{
    static const GActionEntry entries[] = {
        {"flex-modes", act_flex_modes, NULL, NULL, NULL, {0}},
        {"import-mesh", act_import_mesh, NULL, NULL, NULL, {0}},
        {"add-flex-marker", act_add_flex_marker, NULL, NULL, NULL, {0}},
    };
    g_action_map_add_action_entries(G_ACTION_MAP(self), entries, G_N_ELEMENTS(entries), self);
    /* the pick bar gets a spider radius for markers on flexible bodies */
    self->spider_entry = gtk_entry_new();
    gtk_entry_set_placeholder_text(GTK_ENTRY(self->spider_entry), _("spider radius"));
    gtk_editable_set_width_chars(GTK_EDITABLE(self->spider_entry), 12);
    gtk_widget_set_tooltip_text(self->spider_entry, _("Empty: the marker rides on the node clicked. A radius (25 mm): "
                                                      "a new node there, tied rigidly to every node within it"));
    gtk_widget_set_visible(self->spider_entry, FALSE);
    GtkWidget *bar = gtk_revealer_get_child(self->pick_revealer);
    if (GTK_IS_BOX(bar)) gtk_box_insert_child_after(GTK_BOX(bar), self->spider_entry, GTK_WIDGET(self->pick_label));
}


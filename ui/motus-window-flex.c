/* motus-window-flex.c — flexible bodies in the window: the modal
 * coordinates of the frame shown go to the 3D view (which deforms and
 * colours the bodies), and the run's largest displacement and von Mises
 * stress over all frames set the colour scale's "run maximum". The modal
 * coordinates are the result columns BODY.w1 … BODY.wN of the frames. The
 * modes dialog lists a body's modes with their frequencies and animates the
 * shape of the one selected. */
#include <math.h>
#include <string.h>

#include "motus-i18n.h"
#include "motus-window-private.h"
#include "mt_flexdata.h"
#include "mt_flexview.h"

static void modes_fill(MotusWindow *self, GtkWidget *d);
static GArray *flex_bodies(MotusWindow *self);

/* First result column of the modal coordinates of flexible spec i (its N
 * columns follow), or -1 when the frames have none for it (another model). */
static int modal_column(MotusWindow *self, int i)
{
    const MtFlexSpec *f = &self->model->flex[i];
    int N = f->data->body->nmode;
    if (N <= 0) return -1;
    const char *name = self->model->body[f->body].name;
    char buf[2 * MT_NAME_MAX];
    g_snprintf(buf, sizeof buf, "%s.w1", name);
    int col = motus_run_bridge_find_column(self->bridge, buf);
    g_snprintf(buf, sizeof buf, "%s.w%d", name, N);
    const char *last = col >= 0 ? motus_run_bridge_column_name(self->bridge, col + N - 1) : NULL;
    return last && !strcmp(last, buf) ? col : -1;
}

/* Modal coordinates of every flexible body at frame i into w (the view's
 * layout: specs with a reduction, in order); FALSE when there are none. */
static gboolean frame_modal(MotusWindow *self, guint i, double *w, int n)
{
    memset(w, 0, sizeof(double) * (size_t)n);
    if (!self->model || i >= motus_run_bridge_n_frames(self->bridge)) return FALSE;
    int off = 0;
    gboolean any = FALSE;
    for (int s = 0; s < self->model->nflex && off < n; s++) {
        const MtFlexSpec *f = &self->model->flex[s];
        if (!f->data) continue;
        int N = f->data->body->nmode, col = modal_column(self, s);
        for (int k = 0; col >= 0 && k < N && off + k < n; k++) w[off + k] = motus_run_bridge_value(self->bridge, col + k, i);
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

/* The largest displacement and von Mises stress of frames flex_scanned … n-1
 * join the run's maxima. */
void motus_window_flex_extend(MotusWindow *self)
{
    int n = motus_viewport_n_modal(self->viewport);
    guint frames = motus_run_bridge_n_frames(self->bridge);
    if (!n || !self->model || self->flex_scanned >= frames) return;
    g_autofree double *w = g_new(double, n);
    for (guint i = self->flex_scanned; i < frames; i++) {
        if (!frame_modal(self, i, w, n)) break;
        int off = 0;
        for (int s = 0; s < self->model->nflex; s++) {
            const MtFlexSpec *f = &self->model->flex[s];
            if (!f->data) continue;
            const MtFlexBody *fb = f->data->body;
            double rig[6];
            mt_flexview_support_motion(fb, w + off, rig);
            for (int k = 0; k < MT_FLEXFIELD_COUNT; k++)
                self->flex_max[k] = fmax(self->flex_max[k], mt_flexview_field(fb, w + off, rig, (MtFlexField)k, NULL));
            off += fb->nmode;
        }
    }
    self->flex_scanned = frames;
    motus_viewport_set_run_max(self->viewport, self->flex_max[0], self->flex_max[1]);
}

/* Frames were replaced (a new run, a stored run loaded) or the model changed. */
void motus_window_flex_reset(MotusWindow *self)
{
    if (self->modes_dialog) { /* the bodies may have changed: the list follows the model */
        GArray *bodies = flex_bodies(self);
        g_object_set_data_full(G_OBJECT(self->modes_dialog), "bodies", bodies, (GDestroyNotify)g_array_unref);
        GtkDropDown *dd = g_object_get_data(G_OBJECT(self->modes_dialog), "body");
        GtkStringList *names = gtk_string_list_new(NULL);
        for (guint i = 0; i < bodies->len; i++)
            gtk_string_list_append(names, self->model->body[g_array_index(bodies, int, i)].name);
        gtk_drop_down_set_model(dd, G_LIST_MODEL(names)); /* "notify::selected" refills the list */
        g_object_unref(names);
        modes_fill(self, self->modes_dialog);
    }
    self->flex_scanned = 0;
    self->flex_max[0] = self->flex_max[1] = 0;
    motus_viewport_set_run_max(self->viewport, 0, 0);
    motus_window_flex_extend(self);
}

/* ---- mode shapes -------------------------------------------------------------------- */

/* The reduced flexible bodies of the model (body indices), in spec order. */
static GArray *flex_bodies(MotusWindow *self)
{
    GArray *a = g_array_new(FALSE, FALSE, sizeof(int));
    for (int i = 0; self->model && i < self->model->nflex; i++)
        if (self->model->flex[i].data && self->model->flex[i].data->body->nmode > 0)
            g_array_append_val(a, self->model->flex[i].body);
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
    if (!self->model || sel >= bodies->len) {
        gtk_label_set_text(info, _("The model has no reduced flexible body."));
        return;
    }
    int b = g_array_index(bodies, int, sel);
    const MtFlexBody *fb = self->model->flex[mt_model_body_flex(self->model, b)].data->body;
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
        gtk_widget_set_margin_start(box, 8);
        gtk_widget_set_margin_end(box, 8);
        gtk_widget_set_margin_top(box, 3);
        gtk_widget_set_margin_bottom(box, 3);
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
    if (!self->model) return NULL;
    if (self->modes_dialog) gtk_window_destroy(GTK_WINDOW(self->modes_dialog));
    GArray *bodies = flex_bodies(self);
    GtkWidget *d = gtk_window_new();
    gtk_window_set_title(GTK_WINDOW(d), _("Modes of Flexible Bodies"));
    gtk_window_set_transient_for(GTK_WINDOW(d), GTK_WINDOW(self));
    gtk_window_set_destroy_with_parent(GTK_WINDOW(d), TRUE);
    gtk_window_set_default_size(GTK_WINDOW(d), 340, 460);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8);
    gtk_widget_set_margin_start(box, 12);
    gtk_widget_set_margin_end(box, 12);
    gtk_widget_set_margin_top(box, 12);
    gtk_widget_set_margin_bottom(box, 12);
    GtkStringList *names = gtk_string_list_new(NULL);
    guint sel = 0;
    for (guint i = 0; i < bodies->len; i++) {
        int b = g_array_index(bodies, int, i);
        gtk_string_list_append(names, self->model->body[b].name);
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
    };
    g_action_map_add_action_entries(G_ACTION_MAP(self), entries, G_N_ELEMENTS(entries), self);
}

/* motus-window-sliders.c — parameters' sliders over the 3D view (the
 * model's `slider` lines; a parameter's inspector switches them on): a
 * small translucent box, one row per slider with the parameter's
 * name, the slider, its value (an entry one may type in) and its unit,
 * at the bottom centre of the view.
 *
 * Releasing a slider (or typing a value, or a key or the wheel settling for
 * a moment) sets the parameter — one undoable edit, not one per motion —,
 * keeps the plotted curves of the run shown as dashed references labelled
 * with the old value ("crank_pin.angle (n_crank = 60 rpm)"; only the last
 * previous run is kept), and runs the model again: one run at a time, a
 * value set while a run goes stops it and the newest value runs when it
 * has stopped. When the run is done, playback goes on from the time it
 * showed before. A private part of MotusWindow (motus-window-private.h). */
#include <math.h>
#include <string.h>

#include "motus-i18n.h"
#include "motus-window-private.h"

typedef struct SliderUi SliderUi;

typedef struct {
    SliderUi *ui;
    char name[MT_NAME_MAX];
    GtkWidget *scale, *entry;
    GtkAdjustment *adj; /* in the parameter's unit */
} SliderRow;

struct SliderUi {
    MotusWindow *win;
    GtkWidget *box;      /* over the view; hidden without sliders */
    GtkWidget *grid;     /* in it: name, slider, value, unit, one row a slider */
    GPtrArray *rows;     /* SliderRow* */
    char *shown;         /* what the rows were built for (names, ranges, units) */
    gboolean quiet;      /* the rows follow the model: no edits */
    gboolean held;       /* a button is down on a slider: its edit waits for the release */
    guint settle;        /* a key or the wheel moved a slider: the edit after a moment */
    SliderRow *settling; /* the row it is for */
    gboolean ours;       /* the run going was started by a slider */
    gboolean again;      /* a newer value waits for the run going to stop */
    gboolean resume;     /* playback to restore when the run is done */
    double resume_t;
    gboolean resume_play;
    char *kept;          /* the label of the run kept on the plots ("n_crank = 60 rpm"), or NULL */
};

static SliderUi *ui_of(MotusWindow *self) { return g_object_get_data(G_OBJECT(self), "motus-sliders"); }

static void ui_free(gpointer p)
{
    SliderUi *ui = p;
    if (ui->settle) g_source_remove(ui->settle);
    g_ptr_array_unref(ui->rows);
    g_free(ui->shown);
    g_free(ui->kept);
    g_free(ui);
}

/* A parameter's value in its own unit ("60" for 60 rpm), to the digits a person reads. */
static char *value_text(double v) { return g_strdup_printf("%.6g", v); }

/* ---- running again ---------------------------------------------------------------- */

static void start_run(SliderUi *ui)
{
    MotusWindow *self = ui->win;
    g_autoptr(GError) error = NULL;
    ui->again = FALSE;
    ui->ours = TRUE;
    if (!motus_window_run(self, &error)) {
        ui->ours = ui->resume = FALSE;
        g_autofree char *msg = g_strdup_printf(_("Cannot run: %s"), error->message);
        motus_window_set_status(self, msg);
    }
}

static gboolean start_later(gpointer data)
{
    SliderUi *ui = ui_of(data);
    if (ui && ui->again) start_run(ui);
    return G_SOURCE_REMOVE;
}

/* The run (ours or not) is over: the newest value runs, or playback goes on where it was. */
static void run_finished(MotusWindow *self, gboolean ok, const char *message, gpointer data)
{
    (void)ok, (void)message, (void)data;
    SliderUi *ui = ui_of(self);
    if (!ui) return;
    if (ui->again) { /* after the bridge has let go of the stopped run */
        g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, start_later, g_object_ref(self), g_object_unref);
        return;
    }
    if (!ui->ours) return;
    ui->ours = FALSE;
    if (ok && ui->kept) {
        /* TRANSLATORS: after "Run finished: …" in the status bar; %s is "n_crank = 60 rpm" */
        g_autofree char *msg = g_strdup_printf(_("%s · dashed on the plots: the run before, %s (only the last one is kept)"),
                                               motus_window_get_status(self), ui->kept);
        motus_window_set_status(self, msg);
    }
    if (!ui->resume) return;
    ui->resume = FALSE;
    MotusSession *s = self->session;
    motus_session_set_follow_live(s, FALSE);
    motus_session_show_time(s, MIN(ui->resume_t, motus_run_bridge_last_time(motus_window_bridge(self))));
    if (ui->resume_play) motus_session_set_playing(s, TRUE);
}

/* The parameter takes the slider's value (in its unit) and the model runs again. */
static void commit(SliderRow *r, double v)
{
    SliderUi *ui = r->ui;
    MotusWindow *self = ui->win;
    const MtModel *m = motus_window_model(self);
    int i = m ? mt_model_find_param(m, r->name) : -1;
    if (i < 0) return;
    const MtParamSpec *p = &m->param[i];
    double f = mt_param_unit_factor(p), old = p->value / f;
    if (fabs(v - old) <= 1e-12 * fmax(1, fabs(old))) return;
    g_autofree char *was = value_text(old), *now = value_text(v);
    /* TRANSLATORS: legend of a curve of the run before a slider moved: "n_crank = 60 rpm" */
    g_autofree char *label = p->unit[0] ? g_strdup_printf(_("%s = %s %s"), p->name, was, mt_unit_label_of(p->unit, MT_DIM_ANY))
                                        : g_strdup_printf(_("%s = %s"), p->name, was);
    MotusRunBridge *b = motus_window_bridge(self);
    /* a whole run is kept; while one goes, the one kept before it stays */
    if (!motus_run_bridge_is_running(b) && motus_run_bridge_n_frames(b) > 0 && motus_window_plots_keep_previous(self, label)) {
        g_free(ui->kept);
        ui->kept = g_strdup(label);
    }
    if (!ui->resume && motus_run_bridge_n_frames(b) > 0) {
        ui->resume = TRUE;
        ui->resume_t = motus_window_get_time(self);
        ui->resume_play = motus_session_get_playing(self->session);
    }
    char text[G_ASCII_DTOSTR_BUF_SIZE];
    g_ascii_dtostr(text, sizeof text, v);
    g_autoptr(GError) error = NULL;
    if (!motus_window_set_field(self, MT_EDIT_PARAM, i, "expr", text, &error)) {
        motus_window_set_status(self, error->message);
        return;
    }
    if (motus_run_bridge_is_running(b)) { /* one run at a time: the newest value runs when this one has stopped */
        ui->again = TRUE;
        motus_run_bridge_cancel(b);
        return;
    }
    start_run(ui);
}

/* ---- the rows ------------------------------------------------------------------- */

static gboolean settled(gpointer data)
{
    SliderUi *ui = data;
    ui->settle = 0;
    if (ui->settling) commit(ui->settling, gtk_adjustment_get_value(ui->settling->adj));
    return G_SOURCE_REMOVE;
}

static void value_changed(GtkAdjustment *adj, gpointer data)
{
    SliderRow *r = data;
    SliderUi *ui = r->ui;
    g_autofree char *t = value_text(gtk_adjustment_get_value(adj));
    gtk_editable_set_text(GTK_EDITABLE(r->entry), t);
    if (ui->quiet || ui->held) return;
    /* a key or the wheel: the edit once the value rests a moment */
    if (ui->settle) g_source_remove(ui->settle);
    ui->settling = r;
    ui->settle = g_timeout_add(400, settled, ui);
}

/* Button down and up on a slider (seen before the slider's own gestures take them). */
static gboolean scale_event(GtkEventControllerLegacy *c, GdkEvent *ev, gpointer data)
{
    (void)c;
    SliderRow *r = data;
    GdkEventType t = gdk_event_get_event_type(ev);
    if (t == GDK_BUTTON_PRESS) r->ui->held = TRUE;
    else if (t == GDK_BUTTON_RELEASE && r->ui->held) {
        r->ui->held = FALSE;
        commit(r, gtk_adjustment_get_value(r->adj));
    }
    return FALSE;
}

static void entry_activated(GtkEntry *e, gpointer data)
{
    SliderRow *r = data;
    g_autofree char *typed = motus_delocalise(gtk_editable_get_text(GTK_EDITABLE(e)));
    char *end;
    double v = g_ascii_strtod(typed, &end);
    if (end == typed || *end || !isfinite(v)) {
        gtk_widget_add_css_class(GTK_WIDGET(e), "error");
        motus_window_set_status(r->ui->win, _("Type a number in the parameter's unit"));
        return;
    }
    gtk_widget_remove_css_class(GTK_WIDGET(e), "error");
    commit(r, v); /* a value beyond the slider's ends is the parameter's too: the slider shows its end */
}

static void row_free(gpointer p) { g_free(p); }

static void add_row(SliderUi *ui, const MtParamSpec *p)
{
    SliderRow *r = g_new0(SliderRow, 1);
    r->ui = ui;
    g_strlcpy(r->name, p->name, sizeof r->name);
    double f = mt_param_unit_factor(p), lo = p->slider_lo / f, hi = p->slider_hi / f;
    /* steps of about a thousandth of the range, rounded to a decimal */
    int digits = CLAMP(3 - (int)floor(log10(hi - lo)), 0, 8);
    r->adj = gtk_adjustment_new(CLAMP(p->value / f, lo, hi), lo, hi, pow(10, -digits), (hi - lo) / 10, 0);
    GtkWidget *name = gtk_label_new(p->name);
    gtk_label_set_xalign(GTK_LABEL(name), 0);
    r->scale = gtk_scale_new(GTK_ORIENTATION_HORIZONTAL, r->adj);
    gtk_scale_set_draw_value(GTK_SCALE(r->scale), FALSE);
    gtk_range_set_round_digits(GTK_RANGE(r->scale), digits);
    gtk_widget_set_size_request(r->scale, 150, -1);
    g_autofree char *wname = g_strdup_printf("slider:%s", p->name);
    gtk_widget_set_name(r->scale, wname);
    g_autofree char *tip = g_strdup_printf(_("%s: release to run the model again with the new value (the run before is "
                                             "kept on the plots, dashed)"),
                                           p->name);
    gtk_widget_set_tooltip_text(r->scale, tip);
    r->entry = gtk_entry_new();
    gtk_editable_set_width_chars(GTK_EDITABLE(r->entry), 6);
    gtk_editable_set_max_width_chars(GTK_EDITABLE(r->entry), 6);
    g_autofree char *ename = g_strdup_printf("slider-value:%s", p->name);
    gtk_widget_set_name(r->entry, ename);
    g_autofree char *v = value_text(p->value / f);
    gtk_editable_set_text(GTK_EDITABLE(r->entry), v);
    GtkWidget *unit = gtk_label_new(p->unit[0] ? mt_unit_label_of(p->unit, MT_DIM_ANY) : "");
    gtk_label_set_xalign(GTK_LABEL(unit), 0);
    int k = (int)ui->rows->len;
    gtk_grid_attach(GTK_GRID(ui->grid), name, 0, k, 1, 1);
    gtk_grid_attach(GTK_GRID(ui->grid), r->scale, 1, k, 1, 1);
    gtk_grid_attach(GTK_GRID(ui->grid), r->entry, 2, k, 1, 1);
    gtk_grid_attach(GTK_GRID(ui->grid), unit, 3, k, 1, 1);
    GtkEventController *c = gtk_event_controller_legacy_new();
    gtk_event_controller_set_propagation_phase(c, GTK_PHASE_CAPTURE);
    g_signal_connect(c, "event", G_CALLBACK(scale_event), r);
    gtk_widget_add_controller(r->scale, c);
    g_signal_connect(r->adj, "value-changed", G_CALLBACK(value_changed), r);
    g_signal_connect(r->entry, "activate", G_CALLBACK(entry_activated), r);
    g_ptr_array_add(ui->rows, r);
}

/* What the rows show of the model: rebuilt when it differs. */
static char *shown_of(const MtModel *m)
{
    GString *s = g_string_new(NULL);
    for (int i = 0; m && i < m->nparam; i++) {
        char line[MT_NAME_MAX + 2 * MT_DOUBLE_BUF + 16];
        mt_slider_format(m, i, line, sizeof line);
        if (line[0]) g_string_append_printf(s, "%s %s\n", line, m->param[i].unit);
    }
    return g_string_free(s, FALSE);
}

/* The rows follow the model (sliders given or taken away, ranges, values after an edit, undo or redo). */
static void refresh(SliderUi *ui)
{
    const MtModel *m = motus_window_model(ui->win);
    g_autofree char *shown = shown_of(m);
    ui->quiet = TRUE;
    if (g_strcmp0(shown, ui->shown)) {
        if (ui->settle) g_source_remove(ui->settle);
        ui->settle = 0;
        ui->settling = NULL;
        ui->held = FALSE;
        GtkWidget *c;
        while ((c = gtk_widget_get_first_child(ui->grid))) gtk_grid_remove(GTK_GRID(ui->grid), c);
        g_ptr_array_set_size(ui->rows, 0);
        for (int i = 0; m && i < m->nparam; i++)
            if (m->param[i].slider) add_row(ui, &m->param[i]);
        g_free(ui->shown);
        ui->shown = g_steal_pointer(&shown);
    } else {
        for (guint k = 0; k < ui->rows->len; k++) {
            SliderRow *r = g_ptr_array_index(ui->rows, k);
            int i = mt_model_find_param(m, r->name);
            if (i < 0 || ui->held) continue;
            double v = m->param[i].value / mt_param_unit_factor(&m->param[i]);
            gtk_adjustment_set_value(r->adj, v);
            g_autofree char *t = value_text(v); /* the entry says the value, also beyond the slider's ends */
            gtk_editable_set_text(GTK_EDITABLE(r->entry), t);
        }
    }
    ui->quiet = FALSE;
    gtk_widget_set_visible(ui->box, ui->rows->len > 0);
}

static void model_changed(MotusDocument *doc, gpointer data)
{
    (void)doc;
    SliderUi *ui = ui_of(data);
    if (ui) refresh(ui);
}

static void document_replaced(MotusDocument *doc, gpointer data)
{
    (void)doc;
    SliderUi *ui = ui_of(data);
    if (!ui) return;
    ui->ours = ui->again = ui->resume = FALSE;
    g_clear_pointer(&ui->kept, g_free);
    refresh(ui);
}

void motus_window_sliders_init(MotusWindow *self)
{
    SliderUi *ui = g_new0(SliderUi, 1);
    ui->win = self;
    ui->rows = g_ptr_array_new_with_free_func(row_free);
    ui->box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
    gtk_widget_add_css_class(ui->box, "osd");
    gtk_widget_add_css_class(ui->box, "toolbar");
    /* bottom centre: the meters are top left, the view's buttons top right, the axes bottom left and the
     * flexible bodies' bar bottom right */
    gtk_widget_set_halign(ui->box, GTK_ALIGN_CENTER);
    gtk_widget_set_valign(ui->box, GTK_ALIGN_END);
    gtk_widget_set_margin_bottom(ui->box, 8);
    gtk_widget_set_visible(ui->box, FALSE);
    ui->grid = gtk_grid_new();
    gtk_grid_set_column_spacing(GTK_GRID(ui->grid), 6);
    gtk_grid_set_row_spacing(GTK_GRID(ui->grid), 2);
    gtk_box_append(GTK_BOX(ui->box), ui->grid);
    motus_viewport_add_overlay_widget(self->viewport, ui->box);
    g_object_set_data_full(G_OBJECT(self), "motus-sliders", ui, ui_free);
    g_signal_connect(self->doc, "changed", G_CALLBACK(model_changed), self);
    g_signal_connect(self->doc, "replaced", G_CALLBACK(document_replaced), self);
    g_signal_connect(self, "run-finished", G_CALLBACK(run_finished), NULL);
    refresh(ui);
}

guint motus_window_n_sliders(MotusWindow *self)
{
    SliderUi *ui = ui_of(self);
    return ui ? ui->rows->len : 0;
}

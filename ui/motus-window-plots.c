/* motus-window-plots.c — the window's plots: several plots stacked in the
 * plot area, each with its curves (result columns) against time or against
 * another column (X–Y), the active one taking new curves; curves of earlier
 * runs kept for comparison (dashed); units from the column names; the layout
 * saved with the project (plots table, a small JSON text). Data come from
 * the run bridge's frame store.
 * A private part of MotusWindow (motus-window-private.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "motus-i18n.h"
#include "motus-window-private.h"
#include "motus/units.h"
#include "motus/results.h"
#include "motus/signal.h"

typedef struct {
    char *name, *unit;
    GArray *x, *y; /* doubles */
    int colour;
    gboolean solid; /* a derived curve (a spectrum), not one kept from an earlier run */
    gboolean before; /* the run before a parameter's slider moved (motus-window-sliders.c): one such run kept */
} RefCurve;

struct MotusPlotSpec {
    MotusPlot *w;
    char *x;           /* the column on the horizontal axis; NULL: time */
    GPtrArray *curves; /* column names */
    GPtrArray *refs;   /* RefCurve*: kept from earlier runs, or a spectrum's */
    gboolean spectrum; /* a plot of spectra against frequency (its curves are refs) */
    gboolean amplitude; /* its spectra are amplitudes (one FFT), not power spectral densities */
    double fmax;       /* a spectrum's frequency range: where its curves still carry power */
};

static void ref_free(gpointer p)
{
    RefCurve *r = p;
    g_free(r->name);
    g_free(r->unit);
    g_array_unref(r->x);
    g_array_unref(r->y);
    g_free(r);
}

static void spec_free(gpointer p)
{
    MotusPlotSpec *ps = p;
    g_free(ps->x);
    g_ptr_array_unref(ps->curves);
    g_ptr_array_unref(ps->refs);
    g_free(ps);
}

static guint n_frames(MotusWindow *self) { return motus_run_bridge_n_frames(motus_window_bridge(self)); }
static MotusPlotSpec *spec(MotusWindow *self, guint i) { return g_ptr_array_index(self->plots, i); }
static MotusPlotSpec *active(MotusWindow *self) { return spec(self, self->active_plot); }

/* ---- units of result columns ---------------------------------------------------------- */

/* SI unit of a result column (core's mt_column_info knows what each holds; a sensor's own unit hint first) or
 * of a derived curve (from its curves' units; interned: a handful of strings). */
const char *motus_window_result_unit(MotusWindow *self, const char *name)
{
    const MtModel *m = motus_window_model(self);
    int k = m ? mt_model_find_sensor(m, name) : -1;
    if (k >= 0 && m->sensor[k].unit[0]) return m->sensor[k].unit;
    MtDim d = MT_DIM_NONE;
    if (!m || !mt_column_info(m, name, &d, NULL, 0)) return !strcmp(name, "time") ? "s" : "";
    const MtUnit *u = d == MT_DIM_NONE ? NULL : mt_unit_si(d);
    return u ? u->name : "";
}

static const char *column_unit(MotusWindow *self, const char *name)
{
    char buf[32];
    const char *du = motus_window_derived_unit(self, name, buf, sizeof buf);
    if (du || motus_window_find_derived(self, name)) return g_intern_string(du ? du : "");
    return motus_window_result_unit(self, name);
}

/* ---- filling plots from the frames ------------------------------------------------------ */

/* Times or x values and the values of a column for frames from .. from + n - 1. */
static guint column_data(MotusWindow *self, MotusPlotSpec *ps, const char *name, guint from, guint n, double *x,
                         double *v)
{
    guint k = motus_window_series(self, name, from, n, x, v);
    if (ps->x && k) k = MIN(k, motus_window_series(self, ps->x, from, n, NULL, x));
    return k;
}

/* Frames already appended to the curves (the session keeps the count). */
static guint plotted(MotusWindow *self) { return motus_session_get_plotted(self->session); }

/* Refills a plot with the first n frames: all plots hold the same frames
 * (plotted(); a live run's newer ones come with the next extend), so n is
 * read once by the caller while the worker keeps adding frames. */
static void refill_one(MotusWindow *self, MotusPlotSpec *ps, guint n)
{
    motus_plot_clear(ps->w);
    const MtModel *mu = motus_window_model(self);
    for (int d = MT_DIM_NONE + 1; d < MT_DIM_COUNT; d++) { /* the project's display units, else readable ones */
        const char *q = mt_dim_name((MtDim)d), *u = NULL;
        for (int k = 0; mu && q && k < mu->nunit; k++)
            if (!strcmp(mu->unit[k].quantity, q)) u = mu->unit[k].unit;
        motus_plot_set_unit(ps->w, (MtDim)d, u);
    }
    if (ps->spectrum) motus_plot_set_x_axis(ps->w, _("frequency"), "Hz");
    else motus_plot_set_x_axis(ps->w, ps->x, ps->x ? column_unit(self, ps->x) : NULL);
    double *x = g_new(double, MAX(n, 1)), *v = g_new(double, MAX(n, 1));
    for (guint i = 0; i < ps->curves->len; i++) {
        const char *name = g_ptr_array_index(ps->curves, i);
        int c = motus_plot_add_curve(ps->w, name, column_unit(self, name));
        motus_plot_set_data(ps->w, c, x, v, column_data(self, ps, name, 0, n, x, v));
    }
    for (guint i = 0; i < ps->refs->len; i++) {
        RefCurve *r = g_ptr_array_index(ps->refs, i);
        int c = motus_plot_add_curve(ps->w, r->name, r->unit);
        motus_plot_set_data(ps->w, c, (double *)r->x->data, (double *)r->y->data, r->x->len);
        motus_plot_set_curve_style(ps->w, c, r->colour, !r->solid);
    }
    g_free(x);
    g_free(v);
    const MtModel *m = motus_window_model(self);
    double until = n ? motus_run_bridge_until(motus_window_bridge(self)) : m ? m->solver.until : 1;
    motus_plot_set_x_range(ps->w, 0, ps->spectrum ? ps->fmax : ps->x ? 0 : until); /* X–Y: automatic */
}

void motus_window_refill_plots(MotusWindow *self)
{
    /* frames that arrive while the plots refill are appended by the next extend: none is lost */
    guint n = n_frames(self);
    for (guint i = 0; i < self->plots->len; i++) refill_one(self, spec(self, i), n);
    motus_session_set_plotted(self->session, n);
    motus_window_update_actions(self);
}

void motus_window_extend_plots(MotusWindow *self)
{
    guint n = n_frames(self), from = plotted(self);
    if (n <= from) return;
    guint m = n - from;
    double *x = g_new(double, m), *v = g_new(double, m);
    for (guint p = 0; p < self->plots->len; p++) {
        MotusPlotSpec *ps = spec(self, p);
        for (guint i = 0; i < ps->curves->len; i++) {
            const char *name = g_ptr_array_index(ps->curves, i);
            if (motus_window_find_derived(self, name) || motus_window_find_derived(self, ps->x)) {
                /* a derivative or a filter changes near the newest frames: computed again whole */
                double *xa = g_new(double, n), *va = g_new(double, n);
                motus_plot_set_data(ps->w, (int)i, xa, va, column_data(self, ps, name, 0, n, xa, va));
                g_free(xa);
                g_free(va);
            } else {
                motus_plot_append(ps->w, (int)i, x, v, column_data(self, ps, name, from, m, x, v));
            }
        }
    }
    g_free(x);
    g_free(v);
    motus_session_set_plotted(self->session, n);
}

void motus_window_plots_settle(MotusWindow *self)
{
    for (guint i = 0; i < self->plots->len; i++) motus_plot_redraw_whole(spec(self, i)->w);
}

void motus_window_plots_cursor(MotusWindow *self, double t)
{
    for (guint i = 0; i < self->plots->len; i++) motus_plot_set_cursor(spec(self, i)->w, t);
}

guint motus_window_n_curves(MotusWindow *self)
{
    guint n = 0;
    for (guint i = 0; i < self->plots->len; i++) n += spec(self, i)->curves->len + spec(self, i)->refs->len;
    return n;
}

static void show_active(MotusWindow *self);

/* ---- result columns of the model ----------------------------------------------------------- */

gboolean motus_window_has_column(MotusWindow *self, const char *name)
{
    guint n = g_list_model_get_n_items(G_LIST_MODEL(self->columns));
    for (guint i = 1; i < n; i++)
        if (!strcmp(gtk_string_list_get_string(self->columns, i), name)) return TRUE;
    return FALSE;
}

/* Result column names of the model, worked out from it without compiling
 * (mt_output_columns: cheap enough for every edit on the GTK thread). */
static void list_columns(MotusWindow *self);

void motus_window_list_columns(MotusWindow *self)
{
    gboolean quiet = self->quiet;
    self->quiet = TRUE; /* the drop-downs' selections move while their lists are replaced */
    list_columns(self);
    self->quiet = quiet;
    if (self->plots) show_active(self);
}

static void list_columns(MotusWindow *self)
{
    guint n = g_list_model_get_n_items(G_LIST_MODEL(self->columns));
    /* TRANSLATORS: first entry of the drop-down that adds a curve to the plot. */
    const char *first[] = {_("Add a curve…"), NULL};
    gtk_string_list_splice(self->columns, 0, n, first);
    n = g_list_model_get_n_items(G_LIST_MODEL(self->xcolumns));
    /* TRANSLATORS: first entry of the drop-down that chooses the horizontal axis of a plot. */
    const char *xfirst[] = {_("against time"), NULL};
    gtk_string_list_splice(self->xcolumns, 0, n, xfirst);
    if (motus_window_model(self)) {
        char **names = mt_output_columns(motus_window_model(self), NULL, NULL);
        if (names && names[0]) { /* not "time": it is the x axis */
            gtk_string_list_splice(self->columns, 1, 0, (const char *const *)names + 1);
            gtk_string_list_splice(self->xcolumns, 1, 0, (const char *const *)names + 1);
        }
        free(names);
    }
    motus_window_list_derived(self); /* after the model's columns */
}

/* The curve a user most likely wants first: a slider's displacement, else a joint angle, else a height. */
const char *motus_window_default_column(MotusWindow *self)
{
    guint n = g_list_model_get_n_items(G_LIST_MODEL(self->columns));
    const char *suffix[] = {".disp", ".angle", ".y"};
    for (guint s = 0; s < G_N_ELEMENTS(suffix); s++)
        for (guint i = 1; i < n; i++) {
            const char *c = gtk_string_list_get_string(self->columns, i);
            if (g_str_has_suffix(c, suffix[s])) return c;
        }
    return NULL;
}

void motus_window_plots_model_changed(MotusWindow *self, gboolean fresh)
{
    if (fresh) { /* a new document: its derived curves, one plot with the likely curve */
        const MtModel *m = motus_window_model(self);
        motus_window_set_derived(self, m ? m->derived : NULL, m ? m->nderived : 0);
        while (self->plots->len > 1) motus_window_remove_plot(self);
        MotusPlotSpec *ps = spec(self, 0);
        motus_plot_set_pin(ps->w, NAN); /* a reference cursor on the time of another model's run */
        g_ptr_array_set_size(ps->curves, 0);
        g_ptr_array_set_size(ps->refs, 0);
        g_clear_pointer(&ps->x, g_free);
        const char *def = motus_window_default_column(self);
        if (def) g_ptr_array_add(ps->curves, g_strdup(def));
        return;
    }
    /* curves of columns that went away are dropped */
    for (guint p = 0; p < self->plots->len; p++) {
        MotusPlotSpec *ps = spec(self, p);
        for (guint i = ps->curves->len; i-- > 0;)
            if (!motus_window_has_column(self, g_ptr_array_index(ps->curves, i))) g_ptr_array_remove_index(ps->curves, i);
        if (ps->x && !motus_window_has_column(self, ps->x)) g_clear_pointer(&ps->x, g_free);
    }
}

void motus_window_plots_default_curve(MotusWindow *self)
{
    if (motus_window_n_curves(self)) return;
    const char *def = motus_window_default_column(self);
    if (def) g_ptr_array_add(spec(self, 0)->curves, g_strdup(def));
}

/* ---- the plots and their curves ------------------------------------------------------------- */

static void show_active(MotusWindow *self)
{
    for (guint i = 0; i < self->plots->len; i++) {
        GtkWidget *w = GTK_WIDGET(spec(self, i)->w);
        if (i == self->active_plot && self->plots->len > 1)
            gtk_widget_add_css_class(w, "active-plot");
        else
            gtk_widget_remove_css_class(w, "active-plot");
    }
    MotusPlotSpec *ps = active(self);
    self->quiet = TRUE;
    guint sel = 0;
    if (ps->x) {
        guint n = g_list_model_get_n_items(G_LIST_MODEL(self->xcolumns));
        for (guint i = 1; i < n; i++)
            if (!strcmp(gtk_string_list_get_string(self->xcolumns, i), ps->x)) sel = i;
    }
    gtk_drop_down_set_selected(self->x_dropdown, sel);
    self->quiet = FALSE;
    motus_window_update_actions(self);
}

void motus_window_set_active_plot(MotusWindow *self, guint i)
{
    if (i >= self->plots->len) return;
    self->active_plot = i;
    show_active(self);
}

static void plot_pressed(GtkGestureClick *g, int n, double x, double y, gpointer data)
{
    (void)n, (void)x, (void)y;
    MotusWindow *self = data;
    GtkWidget *w = gtk_event_controller_get_widget(GTK_EVENT_CONTROLLER(g));
    for (guint i = 0; i < self->plots->len; i++)
        if (GTK_WIDGET(spec(self, i)->w) == w) motus_window_set_active_plot(self, i);
}

/* A result column dragged from the model tree onto a plot: a curve of that plot. */
/* A plot keeps at most MT_PLOT_CURVES curves (what the model and the project store). */
static gboolean room_for_curve(MotusWindow *self, MotusPlotSpec *ps)
{
    if (ps->curves->len < MT_PLOT_CURVES) return TRUE;
    g_autofree char *msg = g_strdup_printf(_("A plot shows at most %d curves: add another plot (+)"), MT_PLOT_CURVES);
    motus_window_set_status(self, msg);
    return FALSE;
}

/* The unit the curves of a plot share ("" for none, NULL for an empty plot). */
static const char *plot_unit(MotusWindow *self, MotusPlotSpec *ps)
{
    return ps->curves->len ? column_unit(self, g_ptr_array_index(ps->curves, 0)) : NULL;
}

/* Adds column `name` as a curve: to plot ps when its curves have the same unit (or it has none), else to the
 * first plot whose curves do, else to a new plot — one unit per axis, so that a force in N does not flatten a
 * displacement in m. Says where it went when that is not ps. */
void motus_window_add_curve(MotusWindow *self, guint i, const char *name)
{
    MotusPlotSpec *ps = spec(self, i);
    for (guint k = 0; k < ps->curves->len; k++)
        if (!strcmp(g_ptr_array_index(ps->curves, k), name)) return;
    const char *u = column_unit(self, name), *pu = plot_unit(self, ps);
    guint to = i;
    if (pu && strcmp(pu, u)) {
        to = G_MAXUINT;
        for (guint k = 0; k < self->plots->len && to == G_MAXUINT; k++) {
            const char *ku = plot_unit(self, spec(self, k));
            if (!ku || !strcmp(ku, u)) to = k;
        }
        if (to == G_MAXUINT) {
            if (self->plots->len >= MT_PLOT_MAX) {
                g_autofree char *msg = g_strdup_printf(_("'%s' has another unit than the curves of every plot, and there "
                                                         "are %d plots already: clear or remove one"), name, MT_PLOT_MAX);
                motus_window_set_status(self, msg);
                return;
            }
            to = motus_window_add_plot(self);
        }
    }
    ps = spec(self, to);
    if (!room_for_curve(self, ps)) return;
    g_ptr_array_add(ps->curves, g_strdup(name));
    refill_one(self, ps, plotted(self));
    self->active_plot = to;
    show_active(self);
    if (to != i) {
        const char *shown = pu && pu[0] ? mt_unit_label_of(pu, MT_DIM_ANY) : _("no unit");
        /* TRANSLATORS: a curve was put on another plot because its unit differs: column, its unit, plot number,
           the unit of the plot it was dropped on. */
        g_autofree char *msg = g_strdup_printf(_("'%s' [%s] went to plot %u: one unit per axis (the other plot shows %s)"),
                                               name, u[0] ? mt_unit_label_of(u, MT_DIM_ANY) : _("no unit"), to + 1, shown);
        motus_window_set_status(self, msg);
    }
}

static void column_dropped(MotusPlot *w, const char *column, gpointer data)
{
    MotusWindow *self = data;
    for (guint i = 0; i < self->plots->len; i++) {
        MotusPlotSpec *ps = spec(self, i);
        if (ps->w != w) continue;
        if (!motus_window_has_column(self, column)) {
            g_autofree char *msg = g_strdup_printf(_("no result column '%s' in this model"), column);
            motus_window_set_status(self, msg);
            return;
        }
        self->active_plot = i;
        motus_window_add_curve(self, i, column);
        show_active(self);
        return;
    }
}

static MotusPlotSpec *spec_new(MotusWindow *self, MotusPlot *w)
{
    MotusPlotSpec *ps = g_new0(MotusPlotSpec, 1);
    ps->w = w;
    ps->curves = g_ptr_array_new_with_free_func(g_free);
    ps->refs = g_ptr_array_new_with_free_func(ref_free);
    GtkGesture *click = gtk_gesture_click_new();
    gtk_event_controller_set_propagation_phase(GTK_EVENT_CONTROLLER(click), GTK_PHASE_CAPTURE);
    g_signal_connect(click, "pressed", G_CALLBACK(plot_pressed), self);
    gtk_widget_add_controller(GTK_WIDGET(w), GTK_EVENT_CONTROLLER(click));
    g_signal_connect(w, "column-dropped", G_CALLBACK(column_dropped), self);
    g_ptr_array_add(self->plots, ps);
    return ps;
}

guint motus_window_add_plot(MotusWindow *self)
{
    if (self->plots->len >= MT_PLOT_MAX) { /* what the model and the project store */
        g_autofree char *msg = g_strdup_printf(_("At most %d plots"), MT_PLOT_MAX);
        motus_window_set_status(self, msg);
        return self->plots->len - 1;
    }
    GtkWidget *w = motus_plot_new();
    gtk_widget_set_vexpand(w, TRUE);
    gtk_widget_set_size_request(w, 200, 90);
    gtk_box_append(self->plots_box, w);
    spec_new(self, MOTUS_PLOT(w));
    self->active_plot = self->plots->len - 1;
    refill_one(self, active(self), plotted(self));
    show_active(self);
    return self->plots->len - 1;
}

gboolean motus_window_remove_plot(MotusWindow *self)
{
    if (self->plots->len < 2) return FALSE;
    MotusPlotSpec *ps = active(self);
    GtkWidget *w = GTK_WIDGET(ps->w);
    g_ptr_array_remove_index(self->plots, self->active_plot);
    gtk_box_remove(self->plots_box, w);
    /* the first plot is the one tests name; w is gone now, so compare pointers without a checked cast */
    if ((gpointer)w == (gpointer)self->plot) self->plot = spec(self, 0)->w;
    self->active_plot = MIN(self->active_plot, self->plots->len - 1);
    show_active(self);
    return TRUE;
}

guint motus_window_n_plots(MotusWindow *self) { return self->plots->len; }
GtkWidget *motus_window_get_plot_n(MotusWindow *self, guint i) { return i < self->plots->len ? GTK_WIDGET(spec(self, i)->w) : NULL; }
MotusPlot *motus_window_active_plot(MotusWindow *self) { return active(self)->w; }

gboolean motus_window_set_plot_columns(MotusWindow *self, const char *const *names, GError **error)
{
    if (names && g_strv_length((char **)names) > MT_PLOT_CURVES) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("A plot shows at most %d curves: add another plot (+)"),
                    MT_PLOT_CURVES);
        return FALSE;
    }
    for (int i = 0; names && names[i]; i++)
        if (!motus_window_has_column(self, names[i])) {
            g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("no result column '%s' in this model"), names[i]);
            return FALSE;
        }
    MotusPlotSpec *ps = active(self);
    g_ptr_array_set_size(ps->curves, 0);
    for (int i = 0; names && names[i]; i++) g_ptr_array_add(ps->curves, g_strdup(names[i]));
    refill_one(self, ps, plotted(self));
    motus_window_update_actions(self);
    return TRUE;
}

gboolean motus_window_set_plot_x(MotusWindow *self, const char *x, GError **error)
{
    if (x && !motus_window_has_column(self, x)) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("no result column '%s' in this model"), x);
        return FALSE;
    }
    MotusPlotSpec *ps = active(self);
    if (g_strcmp0(ps->x, x) == 0) return TRUE;
    g_free(ps->x);
    ps->x = g_strdup(x);
    g_ptr_array_set_size(ps->refs, 0); /* kept curves were drawn against the old axis */
    refill_one(self, ps, plotted(self));
    show_active(self);
    return TRUE;
}

/* Curve i of a plot as shown now, kept as a reference curve called `name` (taken) in its colour. */
static RefCurve *ref_of(MotusWindow *self, MotusPlotSpec *ps, guint i, guint np, char *name)
{
    RefCurve *r = g_new0(RefCurve, 1);
    r->name = name;
    r->unit = g_strdup(column_unit(self, g_ptr_array_index(ps->curves, i)));
    r->x = g_array_sized_new(FALSE, FALSE, sizeof(double), np);
    r->y = g_array_sized_new(FALSE, FALSE, sizeof(double), np);
    for (guint k = 0; k < np; k++) {
        double x, y;
        motus_plot_get_point(ps->w, (int)i, k, &x, &y);
        g_array_append_val(r->x, x);
        g_array_append_val(r->y, y);
    }
    r->colour = (int)i;
    return r;
}

guint motus_window_pin_curves(MotusWindow *self)
{
    MotusPlotSpec *ps = active(self);
    guint n = 0;
    long run = motus_run_bridge_run_id(motus_window_bridge(self));
    for (guint i = 0; i < ps->curves->len; i++) {
        guint np = motus_plot_n_points(ps->w, (int)i);
        if (!np) continue;
        const char *name = g_ptr_array_index(ps->curves, i);
        /* TRANSLATORS: legend of a curve kept from an earlier run: column (run 3) / column (earlier run) */
        g_ptr_array_add(ps->refs, ref_of(self, ps, i, np, run > 0 ? g_strdup_printf(_("%s (run %ld)"), name, run)
                                                                  : g_strdup_printf(_("%s (earlier run)"), name)));
        n++;
    }
    refill_one(self, ps, plotted(self));
    return n;
}

guint motus_window_plots_keep_previous(MotusWindow *self, const char *label)
{
    guint n = 0;
    for (guint p = 0; p < self->plots->len; p++) {
        MotusPlotSpec *ps = spec(self, p);
        if (ps->spectrum) continue;
        for (guint i = ps->refs->len; i-- > 0;) /* the run before the one before goes */
            if (((RefCurve *)g_ptr_array_index(ps->refs, i))->before) g_ptr_array_remove_index(ps->refs, i);
        for (guint i = 0; i < ps->curves->len; i++) {
            guint np = motus_plot_n_points(ps->w, (int)i);
            if (!np) continue;
            RefCurve *r = ref_of(self, ps, i, np, g_strdup_printf("%s (%s)", (char *)g_ptr_array_index(ps->curves, i), label));
            r->before = TRUE;
            g_ptr_array_add(ps->refs, r);
            n++;
        }
        refill_one(self, ps, plotted(self));
    }
    return n;
}

static void column_item_setup(GtkSignalListItemFactory *f, GtkListItem *item, gpointer data)
{
    (void)f, (void)data;
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0), *name = gtk_label_new(""), *what = gtk_label_new("");
    gtk_label_set_xalign(GTK_LABEL(name), 0);
    gtk_label_set_xalign(GTK_LABEL(what), 0);
    gtk_label_set_ellipsize(GTK_LABEL(what), PANGO_ELLIPSIZE_END);
    gtk_label_set_max_width_chars(GTK_LABEL(what), 48);
    gtk_widget_add_css_class(what, "dim-label");
    gtk_widget_add_css_class(what, "caption");
    gtk_box_append(GTK_BOX(box), name);
    gtk_box_append(GTK_BOX(box), what);
    gtk_list_item_set_child(item, box);
}

/* A column's name, and under it what it holds with its unit ("body crank: angular velocity about z
 * (project axes), rad/s"). */
static void column_item_bind(GtkSignalListItemFactory *f, GtkListItem *item, gpointer data)
{
    (void)f;
    MotusWindow *self = data;
    GtkWidget *box = gtk_list_item_get_child(item), *name = gtk_widget_get_first_child(box), *what = gtk_widget_get_last_child(box);
    const char *col = gtk_string_object_get_string(GTK_STRING_OBJECT(gtk_list_item_get_item(item)));
    gtk_label_set_text(GTK_LABEL(name), col);
    char words[512] = "";
    const MtModel *m = motus_window_model(self);
    if (gtk_list_item_get_position(item) > 0 && m) mt_column_info(m, col, NULL, words, sizeof words);
    const MtDerivedSpec *d = motus_window_find_derived(self, col);
    if (d) { /* TRANSLATORS: what a derived curve holds: the operation (model-text word) and its curves */
        g_autofree char *args = g_strjoinv(", ", (char *[]){(char *)d->arg[0], d->narg > 1 ? (char *)d->arg[1] : NULL,
                                                            d->narg > 2 ? (char *)d->arg[2] : NULL, NULL});
        g_snprintf(words, sizeof words, _("derived curve: %s of %s"), mt_derived_op_name(d->op), args);
    }
    const char *u = m && words[0] ? column_unit(self, col) : "";
    g_autofree char *text = u[0] ? g_strdup_printf("%s, %s", words, mt_unit_label_of(u, MT_DIM_ANY)) : g_strdup(words);
    gtk_label_set_text(GTK_LABEL(what), text);
    gtk_widget_set_visible(what, words[0] != 0);
    gtk_widget_set_tooltip_text(box, words[0] ? text : NULL);
}

/* Enter in a column list's search: the first column whose name holds the text (GTK 4.8's drop-down picks
 * nothing on Enter). */
static void search_activated(GtkSearchEntry *e, gpointer data)
{
    GtkDropDown *dd = data;
    g_autofree char *want = g_utf8_casefold(gtk_editable_get_text(GTK_EDITABLE(e)), -1);
    GListModel *list = gtk_drop_down_get_model(dd);
    for (guint i = 1; want[0] && i < g_list_model_get_n_items(list); i++) {
        g_autoptr(GtkStringObject) o = g_list_model_get_item(list, i);
        g_autofree char *have = g_utf8_casefold(gtk_string_object_get_string(o), -1);
        if (!strstr(have, want)) continue;
        GtkWidget *pop = gtk_widget_get_ancestor(GTK_WIDGET(e), GTK_TYPE_POPOVER);
        if (pop) gtk_popover_popdown(GTK_POPOVER(pop));
        gtk_drop_down_set_selected(dd, i);
        return;
    }
}

/* The list opens with the keys in its search entry (GTK 4.8 focuses a row: typing went nowhere). */
static gboolean focus_search(gpointer entry)
{
    gtk_widget_grab_focus(entry);
    return G_SOURCE_REMOVE;
}

static void popup_shown(GtkWidget *pop, gpointer entry)
{
    (void)pop;
    g_idle_add_full(G_PRIORITY_HIGH_IDLE, focus_search, g_object_ref(entry), g_object_unref);
}

/* The search entry inside a drop-down's popup (built by GTK; found once). */
void motus_window_dropdown_search(GtkDropDown *dd)
{
    GPtrArray *todo = g_ptr_array_new();
    g_ptr_array_add(todo, dd);
    while (todo->len) {
        GtkWidget *w = g_ptr_array_steal_index(todo, todo->len - 1);
        if (GTK_IS_SEARCH_ENTRY(w)) {
            g_signal_connect(w, "activate", G_CALLBACK(search_activated), dd);
            GtkWidget *pop = gtk_widget_get_ancestor(w, GTK_TYPE_POPOVER);
            if (pop) g_signal_connect_after(pop, "show", G_CALLBACK(popup_shown), w);
        }
        for (GtkWidget *c = gtk_widget_get_first_child(w); c; c = gtk_widget_get_next_sibling(c)) g_ptr_array_add(todo, c);
    }
    g_ptr_array_unref(todo);
}

static void column_chosen(GtkDropDown *dd, GParamSpec *pspec, gpointer data)
{
    (void)pspec;
    MotusWindow *self = data;
    if (self->quiet) return;
    guint i = gtk_drop_down_get_selected(dd);
    if (i == 0 || i == GTK_INVALID_LIST_POSITION) return;
    motus_window_add_curve(self, self->active_plot, gtk_string_list_get_string(self->columns, i));
    self->quiet = TRUE;
    gtk_drop_down_set_selected(dd, 0);
    self->quiet = FALSE;
}

static void x_chosen(GtkDropDown *dd, GParamSpec *pspec, gpointer data)
{
    (void)pspec;
    MotusWindow *self = data;
    if (self->quiet) return;
    guint i = gtk_drop_down_get_selected(dd);
    if (i == GTK_INVALID_LIST_POSITION) return;
    motus_window_set_plot_x(self, i == 0 ? NULL : gtk_string_list_get_string(self->xcolumns, i), NULL);
}

static void act_clear_plot(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    MotusWindow *self = data;
    MotusPlotSpec *ps = active(self);
    g_ptr_array_set_size(ps->curves, 0);
    g_ptr_array_set_size(ps->refs, 0);
    refill_one(self, ps, plotted(self));
    motus_window_update_actions(self);
}

/* The power spectral density (or amplitude spectrum) of one column over [t0, t1] as a curve of a spectrum plot; FALSE with the reason
 * in the status bar. */
static gboolean add_psd(MotusWindow *self, MotusPlotSpec *sp, const char *name, const double *t, const double *v, guint k,
                        double t0, double t1, int colour, double *peak_f)
{
    MtPsd psd = {0};
    MtError err = {0};
    if (sp->amplitude ? mt_signal_amplitude(t, v, (int)k, t0, t1, name, &psd, &err)
                      : mt_signal_psd(t, v, (int)k, t0, t1, NULL, name, &psd, &err)) {
        motus_window_set_status(self, err.msg);
        return FALSE;
    }
    RefCurve *r = g_new0(RefCurve, 1);
    const char *u = column_unit(self, name);
    if (sp->amplitude) { /* TRANSLATORS: legend of an amplitude spectrum curve: the column's name. */
        r->name = g_strdup_printf(_("amplitude of %s"), name);
        r->unit = g_strdup(u);
    } else { /* TRANSLATORS: legend of a power spectral density curve: the column's name. */
        r->name = g_strdup_printf(_("PSD of %s"), name);
        r->unit = u[0] ? g_strdup_printf("%s²/Hz", u) : g_strdup("1/Hz");
    }
    r->x = g_array_sized_new(FALSE, FALSE, sizeof(double), (guint)psd.n);
    r->y = g_array_sized_new(FALSE, FALSE, sizeof(double), (guint)psd.n);
    for (int i = 0; i < psd.n; i++) {
        double f = i * psd.df;
        g_array_append_val(r->x, f);
        g_array_append_val(r->y, psd.psd[i]);
    }
    r->colour = colour;
    r->solid = TRUE;
    g_ptr_array_add(sp->refs, r);
    /* the range shown: up to where the density has fallen below 1e-4 of its peak for good, and a fifth more */
    double top = 0;
    int last = 0;
    for (int i = 1; i < psd.n; i++) top = fmax(top, psd.psd[i]);
    for (int i = 1; i < psd.n; i++)
        if (psd.psd[i] >= 1e-4 * top) last = i;
    sp->fmax = fmax(sp->fmax, fmin((last + 1) * 1.2 * psd.df, (psd.n - 1) * psd.df));
    double pv;
    if (peak_f && mt_psd_peak(&psd, psd.df, psd.df * psd.n, 1, &pv, peak_f) < 0) *peak_f = NAN;
    mt_psd_free(&psd);
    return TRUE;
}

/* Spectrum of the chosen plot ("psd" or "amplitude"): the power spectral densities (Welch's method: core's
 * mt_signal_psd, FFTW) or the amplitude spectra (mt_signal_amplitude) of its curves over the time it shows,
 * in a new plot against frequency. */
static void act_spectrum(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a;
    gboolean amplitude = p && !strcmp(g_variant_get_string(p, NULL), "amplitude");
    MotusWindow *self = data;
    MotusPlotSpec *ps = active(self);
    guint n = plotted(self);
    if (self->plots->len >= MT_PLOT_MAX) {
        g_autofree char *msg = g_strdup_printf(_("At most %d plots"), MT_PLOT_MAX);
        motus_window_set_status(self, msg);
        return;
    }
    if (ps->x || ps->spectrum || !ps->curves->len || n < 16) {
        motus_window_set_status(self, _("Spectrum: choose a plot of curves against time, after a run of 16 frames at least"));
        return;
    }
    double t0 = -INFINITY, t1 = INFINITY, y0, y1;
    if (motus_plot_get_view(ps->w, &t0, &t1, &y0, &y1) == FALSE) t0 = -INFINITY, t1 = INFINITY; /* all of the run */
    double *t = g_new(double, n), *v = g_new(double, n);
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i < ps->curves->len; i++) g_ptr_array_add(names, g_strdup(g_ptr_array_index(ps->curves, i)));
    guint at = motus_window_add_plot(self);
    MotusPlotSpec *sp = spec(self, at);
    sp->spectrum = TRUE;
    sp->amplitude = amplitude;
    double f = NAN, tlo = INFINITY, thi = -INFINITY;
    for (guint i = 0; i < names->len; i++) {
        const char *name = g_ptr_array_index(names, i);
        guint k = column_data(self, ps, name, 0, n, t, v);
        if (k) tlo = fmax(t0, t[0]), thi = fmin(t1, t[k - 1]);
        add_psd(self, sp, name, t, v, k, fmax(t0, k ? t[0] : 0), fmin(t1, k ? t[k - 1] : 0), (int)i, i ? NULL : &f);
    }
    g_free(t);
    g_free(v);
    refill_one(self, sp, plotted(self));
    if (sp->refs->len) {
        /* TRANSLATORS: after a spectrum: the time window and the first curve's peak frequency. */
        g_autofree char *msg = g_strdup_printf(_("Spectrum over t = %.4g … %.4g s; the first curve peaks at %.4g Hz"), tlo, thi, f);
        motus_window_set_status(self, msg);
    }
}

/* The time window statistics cover: between the pinned reference cursor and the time cursor when a reference
 * is pinned (and they differ), else the time the plot shows (zoomed), else the whole run; *how says which. */
static void stats_window(MotusWindow *self, MotusPlotSpec *ps, double *t0, double *t1, const char **how)
{
    double pin = motus_plot_get_pin(ps->w), now = motus_window_get_time(self), y0, y1;
    if (isfinite(pin) && fabs(now - pin) > 0) {
        *t0 = fmin(pin, now), *t1 = fmax(pin, now);
        /* TRANSLATORS: statistics over the time between the pinned reference cursor and the time cursor */
        *how = _("between the cursors");
    } else if (motus_plot_get_view(ps->w, t0, t1, &y0, &y1)) {
        *how = _("the time shown");
    } else {
        *t0 = -INFINITY, *t1 = INFINITY;
        *how = _("the whole run");
    }
}

/* Minimum, maximum, mean, RMS and peak (largest |y| and its time) of the chosen plot's curves over a time
 * window (stats_window), in the unit its legend shows (core's mt_signal_mean/_rms: trapezoids, the window's
 * ends interpolated). */
static char *curve_stats(MotusWindow *self)
{
    MotusPlotSpec *ps = active(self);
    guint n = plotted(self);
    if (ps->x || ps->spectrum || !ps->curves->len || n < 2)
        return g_strdup(_("Statistics need a plot of curves against time and a run"));
    double t0, t1;
    const char *how;
    stats_window(self, ps, &t0, &t1, &how);
    double *t = g_new(double, n), *v = g_new(double, n);
    GString *out = g_string_new(NULL);
    for (guint i = 0; i < ps->curves->len; i++) {
        const char *name = g_ptr_array_index(ps->curves, i);
        guint k = column_data(self, ps, name, 0, n, t, v);
        if (k < 2) continue;
        double a = fmax(t0, t[0]), b = fmin(t1, t[k - 1]), lo = INFINITY, hi = -INFINITY, peak = 0, tpeak = NAN;
        for (guint j = 0; j < k; j++)
            if (t[j] >= a && t[j] <= b) {
                lo = fmin(lo, v[j]), hi = fmax(hi, v[j]);
                if (!(fabs(v[j]) <= peak)) peak = fabs(v[j]), tpeak = t[j];
            }
        const char *si = column_unit(self, name);
        MtDim d = MT_DIM_NONE;
        const MtUnit *u = si[0] && mt_unit_find(si, NULL, &d) ? mt_unit_readable(d, fmax(fabs(lo), fabs(hi))) : NULL;
        double s = u ? u->den / u->num : 1;
        const char *ul = u ? mt_unit_label(u) : mt_unit_label_of(si, MT_DIM_ANY);
        /* TRANSLATORS: the time window of the statistics: from, to, and which window (between the cursors …) */
        if (i == 0) g_string_append_printf(out, _("t = %.4g … %.4g s (%s)"), a, b, how);
        /* TRANSLATORS: statistics of a curve: name, then min, max, mean and RMS with their unit, then the peak
           (largest absolute value) with its unit and time. */
        g_string_append_printf(out, _("\n%s: min %.5g, max %.5g, mean %.5g, RMS %.5g %s; peak |y| %.5g %s at t = %.5g s"),
                               name, lo * s, hi * s, mt_signal_mean(t, v, (int)k, a, b) * s,
                               mt_signal_rms(t, v, (int)k, a, b) * s, ul, peak * s, ul, tpeak);
    }
    g_free(t);
    g_free(v);
    return g_string_free(out, FALSE);
}

static void stats_shown(GtkWidget *pop, gpointer data)
{
    g_autofree char *text = curve_stats(data);
    gtk_label_set_text(GTK_LABEL(gtk_popover_get_child(GTK_POPOVER(pop))), text);
}

const char *motus_window_curve_stats(MotusWindow *self)
{
    GtkPopover *pop = gtk_menu_button_get_popover(self->stats_button);
    return pop ? gtk_label_get_text(GTK_LABEL(gtk_popover_get_child(pop))) : "";
}

gboolean motus_window_spectrum_peak(MotusWindow *self, guint plot, double *f)
{
    if (plot >= self->plots->len || !spec(self, plot)->spectrum || !spec(self, plot)->refs->len) return FALSE;
    RefCurve *r = g_ptr_array_index(spec(self, plot)->refs, 0);
    guint best = 1;
    for (guint i = 1; i < r->y->len; i++)
        if (g_array_index(r->y, double, i) > g_array_index(r->y, double, best)) best = i;
    *f = g_array_index(r->x, double, best);
    return r->y->len > 2;
}

static void act_add_plot(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    motus_window_add_plot(data);
}

static void act_remove_plot(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    motus_window_remove_plot(data);
}

static void act_pin(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    MotusWindow *self = data;
    guint n = motus_window_pin_curves(self);
    g_autofree char *msg = g_strdup_printf(_("%u curves kept for comparison (dashed); run again to compare"), n);
    motus_window_set_status(self, msg);
}

/* ---- the layout saved with the project ---------------------------------------------------- */

/* The plots as the model and the project keep them (the first MT_PLOT_MAX
 * plots, MT_PLOT_CURVES curves each). */
int motus_window_plots_specs(MotusWindow *self, MtPlotSpec *out, int *active)
{
    int n = 0;
    for (guint p = 0; p < self->plots->len && n < MT_PLOT_MAX; p++) {
        MotusPlotSpec *ps = spec(self, p);
        MtPlotSpec *o = &out[n++];
        memset(o, 0, sizeof *o);
        if (ps->x) g_strlcpy(o->x, ps->x, sizeof o->x);
        for (guint i = 0; i < ps->curves->len && o->ncurve < MT_PLOT_CURVES; i++)
            g_strlcpy(o->curve[o->ncurve++], g_ptr_array_index(ps->curves, i), MT_PLOT_NAME);
    }
    if (active) *active = (int)MIN(self->active_plot, (guint)MAX(n - 1, 0));
    return n;
}

char *motus_window_plots_layout(MotusWindow *self)
{
    MtPlotSpec plot[MT_PLOT_MAX];
    int active, n = motus_window_plots_specs(self, plot, &active);
    return mt_plots_to_json(plot, n, self->derived, self->nderived, active);
}

void motus_window_plots_apply(MotusWindow *self, const MtPlotSpec *plot, int n, int act)
{
    while (self->plots->len > 1) motus_window_remove_plot(self);
    GString *missing = g_string_new(NULL);
    for (int k = 0; k < MAX(n, 1); k++) {
        if (k > 0) motus_window_add_plot(self);
        MotusPlotSpec *ps = active(self);
        g_ptr_array_set_size(ps->curves, 0);
        g_ptr_array_set_size(ps->refs, 0);
        g_clear_pointer(&ps->x, g_free);
        if (k >= n) break;
        for (int i = -1; i < plot[k].ncurve; i++) {
            const char *name = i < 0 ? plot[k].x : plot[k].curve[i];
            if (!name[0]) continue;
            if (!motus_window_has_column(self, name)) { /* a column the model no longer has */
                g_string_append_printf(missing, "%s%s", missing->len ? ", " : "", name);
                continue;
            }
            if (i < 0) ps->x = g_strdup(name);
            else g_ptr_array_add(ps->curves, g_strdup(name));
        }
        refill_one(self, ps, plotted(self));
    }
    motus_window_set_active_plot(self, (guint)CLAMP(act, 0, (int)self->plots->len - 1));
    if (missing->len) {
        g_autofree char *msg = g_strdup_printf(_("Plots: the model has no result column %s (left out)"), missing->str);
        motus_window_set_status(self, msg);
    }
    g_string_free(missing, TRUE);
}

gboolean motus_window_plots_apply_layout(MotusWindow *self, const char *json)
{
    MtPlotSpec plot[MT_PLOT_MAX];
    MtDerivedSpec derived[MT_DERIVED_MAX];
    int n, nderived = 0, active;
    if (mt_plots_from_json(json, plot, &n, derived, &nderived, &active)) return FALSE;
    motus_window_set_derived(self, derived, nderived); /* before the plots that show them */
    motus_window_plots_apply(self, plot, n, active);
    return TRUE;
}

/* ---- setup ------------------------------------------------------------------------------------ */

void motus_window_plots_init(MotusWindow *self)
{
    static const GActionEntry entries[] = {
        {"clear-plot", act_clear_plot, NULL, NULL, NULL, {0}},
        {"add-plot", act_add_plot, NULL, NULL, NULL, {0}},
        {"remove-plot", act_remove_plot, NULL, NULL, NULL, {0}},
        {"spectrum", act_spectrum, "s", NULL, NULL, {0}},
        {"pin-curves", act_pin, NULL, NULL, NULL, {0}},
    };
    g_action_map_add_action_entries(G_ACTION_MAP(self), entries, G_N_ELEMENTS(entries), self);
    self->plots = g_ptr_array_new_with_free_func(spec_free);
    self->columns = gtk_string_list_new(NULL);
    self->xcolumns = gtk_string_list_new(NULL);
    spec_new(self, self->plot);
    GtkExpression *e1 = gtk_property_expression_new(GTK_TYPE_STRING_OBJECT, NULL, "string");
    GtkExpression *e2 = gtk_property_expression_new(GTK_TYPE_STRING_OBJECT, NULL, "string");
    self->quiet = TRUE;
    gtk_drop_down_set_model(self->column_dropdown, G_LIST_MODEL(self->columns));
    gtk_drop_down_set_expression(self->column_dropdown, e1);
    gtk_drop_down_set_model(self->x_dropdown, G_LIST_MODEL(self->xcolumns));
    gtk_drop_down_set_expression(self->x_dropdown, e2);
    gtk_expression_unref(e1);
    gtk_expression_unref(e2);
    GtkWidget *stats = gtk_popover_new(), *label = gtk_label_new("");
    gtk_label_set_selectable(GTK_LABEL(label), TRUE); /* to copy into a report */
    gtk_label_set_xalign(GTK_LABEL(label), 0);
    gtk_popover_set_child(GTK_POPOVER(stats), label);
    g_signal_connect(stats, "show", G_CALLBACK(stats_shown), self);
    gtk_menu_button_set_popover(self->stats_button, stats);
    motus_window_popover_gives_back_keys(self, GTK_POPOVER(stats));
    motus_window_dropdown_search(self->column_dropdown);
    motus_window_dropdown_search(self->x_dropdown);
    for (int k = 0; k < 2; k++) { /* the lists say what each column holds, under its name */
        GtkListItemFactory *f = gtk_signal_list_item_factory_new();
        g_signal_connect(f, "setup", G_CALLBACK(column_item_setup), NULL);
        g_signal_connect(f, "bind", G_CALLBACK(column_item_bind), self);
        gtk_drop_down_set_list_factory(k ? self->x_dropdown : self->column_dropdown, f);
        g_object_unref(f);
    }
    motus_window_list_columns(self);
    self->quiet = FALSE;
    gtk_drop_down_set_selected(self->column_dropdown, 0);
    g_signal_connect(self->column_dropdown, "notify::selected", G_CALLBACK(column_chosen), self);
    g_signal_connect(self->x_dropdown, "notify::selected", G_CALLBACK(x_chosen), self);
    /* the active plot among several: a thin accent frame */
    GtkCssProvider *css = gtk_css_provider_new();
    gtk_css_provider_load_from_data(css, "motus-plot.active-plot { box-shadow: inset 0 0 0 2px alpha(@accent_bg_color, 0.7); }", -1);
    gtk_style_context_add_provider_for_display(gtk_widget_get_display(GTK_WIDGET(self)), GTK_STYLE_PROVIDER(css),
                                               GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
    g_object_unref(css);
}

void motus_window_plots_finalize(MotusWindow *self)
{
    g_clear_pointer(&self->plots, g_ptr_array_unref);
    g_clear_object(&self->columns);
    g_clear_object(&self->xcolumns);
}

/* motus-window-derived.c — derived curves in the window: the f(x) popover
 * beside the plots defines one (an operation, up to three curves, a factor
 * or cut-off, a name), and the plots then read it like a result column: its
 * values are computed from its operands' frames by core (mt_derived_eval,
 * motus/derived.h) and its unit follows from theirs (mt_derived_unit). The
 * definitions go with the plots' layout (project) or as `derived` lines (text
 * model). A private part of MotusWindow (motus-window-private.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "motus-i18n.h"
#include "motus-window-private.h"
#include "motus/derived.h"
#include "motus/units.h"

typedef struct DerivedUi DerivedUi;
struct DerivedUi {
    GtkWidget *op[MT_DERIVED_COUNT]; /* toggle buttons, one active */
    GtkDropDown *arg[MT_DERIVED_ARGS];
    GtkWidget *param_label, *param, *name, *message;
    GtkWidget *defined; /* a box: the derived curves defined, each with a button that removes it */
    GtkStringList *names; /* the curves an operand may be: "—" first, then the columns and derived curves */
};

static MtDerivedOp chosen_op(MotusWindow *self)
{
    for (int k = 0; k < MT_DERIVED_COUNT; k++)
        if (gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(self->derived_ui->op[k]))) return (MtDerivedOp)k;
    return MT_DERIVED_MAGNITUDE;
}

/* The derived curve called name among the first `limit` ones, or -1: a curve's operands are looked up among
 * those defined before it, so that a cycle written by hand ends (in a column that is not there). */
static int index_before(MotusWindow *self, const char *name, int limit)
{
    for (int i = 0; name && i < limit; i++)
        if (!strcmp(self->derived[i].name, name)) return i;
    return -1;
}

const MtDerivedSpec *motus_window_find_derived(MotusWindow *self, const char *name)
{
    int i = index_before(self, name, self->nderived);
    return i < 0 ? NULL : &self->derived[i];
}

/* ---- values and units ------------------------------------------------------------------ */

static guint series_before(MotusWindow *self, const char *name, int limit, guint from, guint n, double *t, double *v);

/* The first n frames of derived curve i into t and out (n values each). */
static MtStatus derived_values(MotusWindow *self, int i, guint n, double *t, double *out, MtError *err)
{
    const MtDerivedSpec *d = &self->derived[i];
    double *x[MT_DERIVED_ARGS] = {0};
    MtStatus rc = MT_OK;
    for (int k = 0; k < d->narg && rc == MT_OK; k++) {
        x[k] = g_new(double, MAX(n, 1));
        if (series_before(self, d->arg[k], i, 0, n, t, x[k]) < n)
            rc = mt_error_set(err, MT_ERR_ARG, d->name, _("derived curve '%s': no values of '%s'"), d->name, d->arg[k]);
    }
    if (rc == MT_OK) rc = mt_derived_eval(d, t, (const double *const *)x, (int)n, out, err);
    for (int k = 0; k < d->narg; k++) g_free(x[k]);
    return rc;
}

static guint series_before(MotusWindow *self, const char *name, int limit, guint from, guint n, double *t, double *v)
{
    int i = index_before(self, name, limit);
    MotusRunBridge *b = motus_window_bridge(self);
    if (i < 0) {
        int col = motus_run_bridge_find_column(b, name);
        return col < 0 ? 0 : motus_run_bridge_copy_column(b, col, from, n, t, v);
    }
    guint all = MIN(from + n, motus_run_bridge_n_frames(b));
    if (all <= from) return 0;
    double *tt = g_new(double, all), *vv = g_new(double, all);
    MtError err = {0};
    guint got = 0;
    if (derived_values(self, i, all, tt, vv, &err) == MT_OK) {
        got = all - from;
        if (t) memcpy(t, tt + from, sizeof *t * got);
        memcpy(v, vv + from, sizeof *v * got);
    } else {
        motus_window_set_status(self, err.msg);
    }
    g_free(tt);
    g_free(vv);
    return got;
}

guint motus_window_series(MotusWindow *self, const char *name, guint from, guint n, double *t, double *v)
{
    return series_before(self, name, self->nderived, from, n, t, v);
}

static const char *unit_before(MotusWindow *self, const char *name, int limit, char *buf, size_t size)
{
    int i = index_before(self, name, limit);
    if (i < 0) {
        snprintf(buf, size, "%s", motus_window_result_unit(self, name));
        return buf;
    }
    const MtDerivedSpec *d = &self->derived[i];
    char ub[MT_DERIVED_ARGS][32];
    const char *u[MT_DERIVED_ARGS] = {0};
    for (int k = 0; k < d->narg; k++)
        if (!(u[k] = unit_before(self, d->arg[k], i, ub[k], sizeof ub[k]))) return NULL;
    return mt_derived_unit(d, u, buf, size);
}

const char *motus_window_derived_unit(MotusWindow *self, const char *name, char *buf, size_t size)
{
    return motus_window_find_derived(self, name) ? unit_before(self, name, self->nderived, buf, size) : NULL;
}

/* ---- the list of curves ---------------------------------------------------------------- */

void motus_window_list_derived(MotusWindow *self)
{
    const char *names[MT_DERIVED_MAX + 1] = {0};
    for (int i = 0; i < self->nderived; i++) names[i] = self->derived[i].name;
    gtk_string_list_splice(self->columns, g_list_model_get_n_items(G_LIST_MODEL(self->columns)), 0, names);
    gtk_string_list_splice(self->xcolumns, g_list_model_get_n_items(G_LIST_MODEL(self->xcolumns)), 0, names);
    DerivedUi *ui = self->derived_ui;
    if (!ui) return;
    guint had = g_list_model_get_n_items(G_LIST_MODEL(ui->names)), n = g_list_model_get_n_items(G_LIST_MODEL(self->columns));
    const char **all = g_new0(const char *, n + 1);
    all[0] = "—";
    for (guint i = 1; i < n; i++) all[i] = gtk_string_list_get_string(self->columns, i);
    guint keep[MT_DERIVED_ARGS];
    char *was[MT_DERIVED_ARGS];
    for (int k = 0; k < MT_DERIVED_ARGS; k++) { /* the operands chosen stay chosen while the list is rebuilt */
        keep[k] = gtk_drop_down_get_selected(ui->arg[k]);
        was[k] = keep[k] && keep[k] < had ? g_strdup(gtk_string_list_get_string(ui->names, keep[k])) : NULL;
    }
    gtk_string_list_splice(ui->names, 0, had, all);
    for (int k = 0; k < MT_DERIVED_ARGS; k++) {
        guint sel = 0;
        for (guint i = 1; was[k] && i < n; i++)
            if (!strcmp(all[i], was[k])) sel = i;
        gtk_drop_down_set_selected(ui->arg[k], sel);
        g_free(was[k]);
    }
    g_free(all);
}

void motus_window_set_derived(MotusWindow *self, const MtDerivedSpec *d, int n)
{
    self->nderived = CLAMP(n, 0, MT_DERIVED_MAX);
    if (self->nderived) memcpy(self->derived, d, sizeof *d * (size_t)self->nderived);
    motus_window_list_columns(self);
}

/* ---- the popover ----------------------------------------------------------------------- */

static void say(MotusWindow *self, const char *text) { gtk_label_set_text(GTK_LABEL(self->derived_ui->message), text); }

/* Operands and parameter as the operation takes them. */
static void op_toggled(GtkToggleButton *b, gpointer data)
{
    MotusWindow *self = data;
    if (!gtk_toggle_button_get_active(b)) return;
    DerivedUi *ui = self->derived_ui;
    int lo, hi, param = mt_derived_arity(chosen_op(self), &lo, &hi);
    for (int k = 0; k < MT_DERIVED_ARGS; k++) gtk_widget_set_sensitive(GTK_WIDGET(ui->arg[k]), k < hi);
    gtk_widget_set_sensitive(ui->param, param);
    gtk_label_set_text(GTK_LABEL(ui->param_label), chosen_op(self) == MT_DERIVED_LOWPASS ? _("Cut-off, Hz") : _("Factor k"));
    say(self, "");
}

/* A name for the new curve: "main.F_mag" for the magnitude of main.Fx, main.Fy, main.Fz, else the first
 * operand and a suffix; made unique. */
static void auto_name(MotusWindow *self, const MtDerivedSpec *d, char *out, size_t size)
{
    static const char *const suffix[MT_DERIVED_COUNT] = {"mag", "sum", "diff", "scaled", "rate", "int", "lp"};
    size_t common = strlen(d->arg[0]);
    for (int k = 1; k < d->narg; k++) {
        size_t c = 0;
        while (d->arg[0][c] && d->arg[0][c] == d->arg[k][c]) c++;
        common = MIN(common, c);
    }
    int same_stem = d->narg > 1 && common + 1 == strlen(d->arg[0]);
    for (int k = 1; k < d->narg; k++) same_stem = same_stem && strlen(d->arg[k]) == common + 1;
    g_autofree char *base = same_stem ? g_strdup_printf("%.*s_%s", (int)common, d->arg[0], suffix[d->op])
                                      : g_strdup_printf("%s_%s", d->arg[0], suffix[d->op]);
    snprintf(out, size, "%s", base);
    for (int i = 2; motus_window_has_column(self, out) && i < 100; i++) snprintf(out, size, "%s_%d", base, i);
}

/* The definition in the popover; FALSE with the reason said there. */
static gboolean read_popover(MotusWindow *self, MtDerivedSpec *d)
{
    DerivedUi *ui = self->derived_ui;
    memset(d, 0, sizeof *d);
    d->op = chosen_op(self);
    int lo, hi, param = mt_derived_arity(d->op, &lo, &hi);
    for (int k = 0; k < hi; k++) {
        guint i = gtk_drop_down_get_selected(ui->arg[k]);
        if (i == 0 || i == GTK_INVALID_LIST_POSITION) continue;
        g_strlcpy(d->arg[d->narg++], gtk_string_list_get_string(ui->names, i), MT_PLOT_NAME);
    }
    if (d->narg < lo) {
        g_autofree char *msg = g_strdup_printf(ngettext("Choose %d curve", "Choose %d curves", lo), lo);
        say(self, msg);
        return FALSE;
    }
    if (param) {
        const char *text = gtk_editable_get_text(GTK_EDITABLE(ui->param));
        char *end;
        d->param = g_ascii_strtod(text, &end);
        if (end == text || *end) {
            say(self, d->op == MT_DERIVED_LOWPASS ? _("Type the cut-off frequency in Hz") : _("Type the factor k"));
            return FALSE;
        }
    }
    const char *name = gtk_editable_get_text(GTK_EDITABLE(ui->name));
    if (name[0]) g_strlcpy(d->name, name, sizeof d->name);
    else auto_name(self, d, d->name, sizeof d->name);
    return TRUE;
}

gboolean motus_window_add_derived(MotusWindow *self, const MtDerivedSpec *d, GError **error)
{
    MtError err = {0};
    if (mt_derived_check(d, &err) != MT_OK) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "%s", err.msg);
        return FALSE;
    }
    if (motus_window_has_column(self, d->name)) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_EXISTS, _("'%s' is the name of a result column or derived curve already"),
                    d->name);
        return FALSE;
    }
    if (self->nderived >= MT_DERIVED_MAX) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, _("At most %d derived curves"), MT_DERIVED_MAX);
        return FALSE;
    }
    for (int k = 0; k < d->narg; k++)
        if (!motus_window_has_column(self, d->arg[k])) {
            g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("no result column '%s' in this model"), d->arg[k]);
            return FALSE;
        }
    self->derived[self->nderived++] = *d;
    char ub[32];
    if (!motus_window_derived_unit(self, d->name, ub, sizeof ub)) {
        self->nderived--;
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                    _("derived curve '%s': its curves have different units (they do not add)"), d->name);
        return FALSE;
    }
    guint n = motus_run_bridge_n_frames(motus_window_bridge(self));
    if (n > 0) { /* computed once now, so that a filter's cut-off above the frame rate is said here */
        double *t = g_new(double, n), *v = g_new(double, n);
        MtStatus rc = derived_values(self, self->nderived - 1, n, t, v, &err);
        g_free(t);
        g_free(v);
        if (rc != MT_OK) {
            self->nderived--;
            g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "%s", err.msg);
            return FALSE;
        }
    }
    motus_window_list_columns(self);
    motus_window_add_curve(self, self->active_plot, d->name);
    return TRUE;
}

static void add_clicked(GtkButton *b, gpointer data)
{
    (void)b;
    MotusWindow *self = data;
    MtDerivedSpec d;
    if (!read_popover(self, &d)) return;
    g_autoptr(GError) error = NULL;
    if (!motus_window_add_derived(self, &d, &error)) {
        say(self, error->message);
        return;
    }
    char ub[32];
    const char *u = motus_window_derived_unit(self, d.name, ub, sizeof ub);
    /* TRANSLATORS: a derived curve was added: its name and unit. */
    g_autofree char *msg = g_strdup_printf(_("Derived curve %s [%s] added to the plot"), d.name,
                                           u && u[0] ? mt_unit_label_of(u, MT_DIM_ANY) : _("no unit"));
    motus_window_set_status(self, msg);
    say(self, "");
    gtk_editable_set_text(GTK_EDITABLE(self->derived_ui->name), "");
    gtk_popover_popdown(gtk_menu_button_get_popover(self->derived_button));
}

gboolean motus_window_remove_derived(MotusWindow *self, const char *name, GError **error)
{
    int i = index_before(self, name, self->nderived);
    if (i < 0) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("no derived curve '%s'"), name);
        return FALSE;
    }
    for (int k = i + 1; k < self->nderived; k++)
        for (int a = 0; a < self->derived[k].narg; a++)
            if (!strcmp(self->derived[k].arg[a], name)) {
                g_set_error(error, G_IO_ERROR, G_IO_ERROR_BUSY, _("'%s' is computed from '%s': remove it first"),
                            self->derived[k].name, name);
                return FALSE;
            }
    memmove(&self->derived[i], &self->derived[i + 1], sizeof *self->derived * (size_t)(self->nderived - i - 1));
    self->nderived--;
    motus_window_list_columns(self);
    motus_window_plots_model_changed(self, FALSE); /* its curves leave the plots */
    motus_window_refill_plots(self);
    return TRUE;
}

static void fill_defined(MotusWindow *self);

static void remove_clicked(GtkButton *b, gpointer data)
{
    MotusWindow *self = data;
    g_autoptr(GError) error = NULL;
    g_autofree char *name = g_strdup(g_object_get_data(G_OBJECT(b), "derived"));
    if (!motus_window_remove_derived(self, name, &error)) {
        say(self, error->message);
        return;
    }
    say(self, "");
    fill_defined(self); /* b goes */
}

/* The derived curves defined, one line each: "F = magnitude of pin.Fx, pin.Fy, pin.Fz [N]" and a remove button. */
static void fill_defined(MotusWindow *self)
{
    DerivedUi *ui = self->derived_ui;
    GtkWidget *c;
    while ((c = gtk_widget_get_first_child(ui->defined))) gtk_box_remove(GTK_BOX(ui->defined), c);
    for (int i = 0; i < self->nderived; i++) {
        const MtDerivedSpec *d = &self->derived[i];
        GString *what = g_string_new(NULL);
        g_string_append_printf(what, "%s = %s(", d->name, mt_derived_op_name(d->op));
        for (int a = 0; a < d->narg; a++) g_string_append_printf(what, "%s%s", a ? ", " : "", d->arg[a]);
        int lo, hi;
        if (mt_derived_arity(d->op, &lo, &hi)) g_string_append_printf(what, ", %g", d->param);
        char ub[32];
        const char *u = motus_window_derived_unit(self, d->name, ub, sizeof ub);
        g_string_append_printf(what, ")%s%s%s", u && u[0] ? " [" : "", u && u[0] ? mt_unit_label_of(u, MT_DIM_ANY) : "",
                               u && u[0] ? "]" : "");
        GtkWidget *row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6), *l = gtk_label_new(what->str);
        g_string_free(what, TRUE);
        gtk_label_set_xalign(GTK_LABEL(l), 0);
        gtk_label_set_ellipsize(GTK_LABEL(l), PANGO_ELLIPSIZE_END);
        gtk_widget_set_hexpand(l, TRUE);
        GtkWidget *rm = gtk_button_new_from_icon_name("user-trash-symbolic");
        gtk_widget_add_css_class(rm, "flat");
        g_autofree char *tip = g_strdup_printf(_("Remove the derived curve %s (and its curves from the plots)"), d->name);
        gtk_widget_set_tooltip_text(rm, tip);
        g_object_set_data_full(G_OBJECT(rm), "derived", g_strdup(d->name), g_free);
        g_signal_connect(rm, "clicked", G_CALLBACK(remove_clicked), self);
        gtk_box_append(GTK_BOX(row), l);
        gtk_box_append(GTK_BOX(row), rm);
        gtk_box_append(GTK_BOX(ui->defined), row);
    }
    gtk_widget_set_visible(ui->defined, self->nderived > 0);
}

static void popover_shown(GtkWidget *pop, gpointer data)
{
    (void)pop;
    fill_defined(data);
}

static GtkWidget *grid_label(GtkGrid *g, const char *text, int row)
{
    GtkWidget *l = gtk_label_new(text);
    gtk_label_set_xalign(GTK_LABEL(l), 0);
    gtk_grid_attach(g, l, 0, row, 1, 1);
    return l;
}

void motus_window_derived_init(MotusWindow *self)
{
    DerivedUi *ui = self->derived_ui = g_new0(DerivedUi, 1);
    ui->names = gtk_string_list_new(NULL);
    GtkGrid *g = GTK_GRID(gtk_grid_new());
    gtk_grid_set_row_spacing(g, 6);
    gtk_grid_set_column_spacing(g, 8);
    /* TRANSLATORS: the operations of a derived curve, short labels of toggle buttons */
    const char *label[MT_DERIVED_COUNT] = {"|a|", "a + b", "a − b", "k·a", "da/dt", "∫a dt", N_("low-pass")};
    const char *tip[MT_DERIVED_COUNT] = {
        N_("Magnitude of a vector: √(a² + b² + c²), e.g. the resultant of Fx, Fy, Fz"),
        N_("Sum: a + b"),
        N_("Difference: a − b"),
        N_("Scale: k · a"),
        N_("Derivative over time: da/dt (three-point differences)"),
        N_("Integral over time from the first frame: ∫ a dt (trapezoids)"),
        N_("Low-pass filter: 2nd-order Butterworth run forward and backward (zero phase, gain ½ at the cut-off)"),
    };
    GtkWidget *ops = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
    gtk_widget_add_css_class(ops, "linked");
    for (int k = 0; k < MT_DERIVED_COUNT; k++) {
        ui->op[k] = gtk_toggle_button_new_with_label(k == MT_DERIVED_LOWPASS ? _(label[k]) : label[k]);
        gtk_widget_set_tooltip_text(ui->op[k], _(tip[k]));
        if (k) gtk_toggle_button_set_group(GTK_TOGGLE_BUTTON(ui->op[k]), GTK_TOGGLE_BUTTON(ui->op[0]));
        g_signal_connect(ui->op[k], "toggled", G_CALLBACK(op_toggled), self);
        gtk_box_append(GTK_BOX(ops), ui->op[k]);
    }
    grid_label(g, _("Operation"), 0);
    gtk_grid_attach(g, ops, 1, 0, 1, 1);
    const char *argtip[MT_DERIVED_ARGS] = {N_("Curve a"), N_("Curve b"), N_("Curve c (a vector's third component)")};
    for (int k = 0; k < MT_DERIVED_ARGS; k++) {
        GtkExpression *e = gtk_property_expression_new(GTK_TYPE_STRING_OBJECT, NULL, "string");
        ui->arg[k] = GTK_DROP_DOWN(gtk_drop_down_new(G_LIST_MODEL(g_object_ref(ui->names)), e));
        gtk_drop_down_set_enable_search(ui->arg[k], TRUE);
        gtk_widget_set_tooltip_text(GTK_WIDGET(ui->arg[k]), _(argtip[k]));
        grid_label(g, (const char *[]){"a", "b", "c"}[k], 1 + k);
        gtk_grid_attach(g, GTK_WIDGET(ui->arg[k]), 1, 1 + k, 1, 1);
        motus_window_dropdown_search(ui->arg[k]);
    }
    ui->param_label = grid_label(g, _("Factor k"), 4);
    ui->param = gtk_entry_new();
    gtk_widget_set_tooltip_text(ui->param, _("The factor k of a scaled curve, or the low-pass filter's cut-off in Hz"));
    gtk_grid_attach(g, ui->param, 1, 4, 1, 1);
    grid_label(g, _("Name"), 5);
    ui->name = gtk_entry_new();
    gtk_entry_set_placeholder_text(GTK_ENTRY(ui->name), _("automatic"));
    gtk_widget_set_tooltip_text(ui->name, _("Name of the derived curve (letters, digits and _.-); empty: made from its curves"));
    gtk_grid_attach(g, ui->name, 1, 5, 1, 1);
    GtkWidget *add = gtk_button_new_with_label(_("Add to plot"));
    gtk_widget_add_css_class(add, "suggested-action");
    gtk_widget_set_tooltip_text(add, _("Add the derived curve to the chosen plot"));
    g_signal_connect(add, "clicked", G_CALLBACK(add_clicked), self);
    gtk_grid_attach(g, add, 1, 6, 1, 1);
    ui->message = gtk_label_new("");
    gtk_label_set_wrap(GTK_LABEL(ui->message), TRUE);
    gtk_label_set_max_width_chars(GTK_LABEL(ui->message), 48);
    gtk_label_set_xalign(GTK_LABEL(ui->message), 0);
    gtk_widget_add_css_class(ui->message, "error");
    gtk_grid_attach(g, ui->message, 0, 7, 2, 1);
    ui->defined = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    gtk_grid_attach(g, ui->defined, 0, 8, 2, 1);
    GtkWidget *pop = gtk_popover_new();
    g_signal_connect(pop, "show", G_CALLBACK(popover_shown), self);
    gtk_popover_set_child(GTK_POPOVER(pop), GTK_WIDGET(g));
    gtk_menu_button_set_popover(self->derived_button, pop);
    motus_window_popover_gives_back_keys(self, GTK_POPOVER(pop));
    gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(ui->op[0]), TRUE);
    motus_window_list_derived(self);
}

void motus_window_derived_finalize(MotusWindow *self)
{
    if (!self->derived_ui) return;
    g_clear_object(&self->derived_ui->names);
    g_clear_pointer(&self->derived_ui, g_free);
}

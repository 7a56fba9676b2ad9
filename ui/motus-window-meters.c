/* motus-window-meters.c — live meters over the 3D view (Working Model's
 * value boxes): any result column, or the system's momentum, shown at the
 * time shown in a readable unit, updated in playback and while a run goes.
 * The eye popover adds them (a column typed and Enter; "Energy and
 * momentum" adds the kinetic and potential energy and the momentum); each
 * box has its own close button. They are kept with the model (the `view`
 * line's `meter` words). The boxes live on the window (g_object_set_data).
 * A private part of MotusWindow (motus-window-private.h). */
#include <math.h>
#include <string.h>

#include "motus-i18n.h"
#include "motus-window-private.h"
#include "motus/results.h"
#include "motus/teach.h"
#include "motus/units.h"

typedef struct {
    GtkWidget *box; /* over the view, top left */
    GPtrArray *names; /* char*: what each meter shows, in order */
} Meters;

static Meters *meters_of(MotusWindow *self) { return g_object_get_data(G_OBJECT(self), "motus-meters"); }

static void meters_free(gpointer p)
{
    Meters *m = p;
    g_ptr_array_unref(m->names);
    g_free(m);
}

typedef struct {
    MotusRunBridge *br;
    guint i;
} FrameAt;

static double frame_value(void *ctx, const char *column)
{
    FrameAt *f = ctx;
    int c = motus_run_bridge_find_column(f->br, column);
    return c < 0 ? NAN : motus_run_bridge_value(f->br, c, f->i);
}

/* The system's linear momentum at frame i (mt_teach_momentum); FALSE when the frame does not hold the
 * bodies' velocities. */
static gboolean momentum_at(MotusWindow *self, guint i, double p[3])
{
    const MtModel *m = motus_window_model(self);
    FrameAt f = {motus_window_bridge(self), i};
    p[0] = p[1] = p[2] = 0;
    if (!m) return FALSE;
    double *pose = g_new(double, 7 * (m->nbody + 1));
    gboolean ok = motus_run_bridge_get_frame(f.br, i, NULL, pose) && mt_teach_momentum(m, pose, frame_value, &f, p);
    g_free(pose);
    return ok;
}

/* "system.kinetic = 1.234 J": a meter's text at frame i. */
static char *meter_text(MotusWindow *self, const char *name, guint i, double *si)
{
    const MtModel *m = motus_window_model(self);
    MotusRunBridge *br = motus_window_bridge(self);
    MtDim dim = MT_DIM_NONE;
    double v = NAN;
    const char *label = name;
    if (!strcmp(name, "momentum")) { /* no quantity of its own among the units: kg·m/s */
        double p[3];
        if (momentum_at(self, i, p)) v = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        if (si) *si = v;
        /* TRANSLATORS: a meter of the magnitude of the system's linear momentum, then its unit */
        return isfinite(v) ? g_strdup_printf(_("|momentum| = %.5g kg·m/s"), v) : g_strdup_printf("%s = —", _("|momentum|"));
    } else {
        int c = motus_run_bridge_find_column(br, name);
        if (c >= 0) v = motus_run_bridge_value(br, c, i);
        char words[8];
        if (!m || !mt_column_info(m, name, &dim, words, sizeof words)) dim = MT_DIM_NONE;
    }
    if (si) *si = v;
    if (!isfinite(v)) return g_strdup_printf("%s = —", label);
    const MtUnit *u = dim == MT_DIM_NONE ? NULL : mt_unit_readable(dim, fabs(v));
    char num[64];
    mt_units_format(v, u, 5, num, sizeof num);
    const char *sp = u ? strchr(num, ' ') : NULL; /* the unit in the user's language */
    if (sp) return g_strdup_printf("%s = %.*s %s", label, (int)(sp - num), num, mt_unit_label(u));
    return g_strdup_printf("%s = %s", label, num);
}

static void remove_clicked(GtkButton *b, gpointer data);

static void rebuild(MotusWindow *self)
{
    Meters *ms = meters_of(self);
    GtkWidget *child;
    while ((child = gtk_widget_get_first_child(ms->box))) gtk_box_remove(GTK_BOX(ms->box), child);
    for (guint k = 0; k < ms->names->len; k++) {
        GtkWidget *row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4), *l = gtk_label_new(""), *x;
        gtk_widget_add_css_class(row, "osd");
        gtk_widget_add_css_class(row, "meter");
        gtk_label_set_xalign(GTK_LABEL(l), 0);
        gtk_widget_set_margin_start(l, 6);
        x = gtk_button_new_from_icon_name("window-close-symbolic");
        gtk_widget_add_css_class(x, "flat");
        gtk_widget_set_focus_on_click(x, FALSE);
        /* TRANSLATORS: tooltip of a meter's close button */
        gtk_widget_set_tooltip_text(x, _("Remove this meter"));
        g_object_set_data(G_OBJECT(x), "meter", GUINT_TO_POINTER(k));
        g_signal_connect(x, "clicked", G_CALLBACK(remove_clicked), self);
        gtk_box_append(GTK_BOX(row), l);
        gtk_box_append(GTK_BOX(row), x);
        gtk_box_append(GTK_BOX(ms->box), row);
    }
    gtk_widget_set_visible(ms->box, ms->names->len > 0);
    motus_window_meters_update(self);
}

void motus_window_meters_update(MotusWindow *self)
{
    Meters *ms = meters_of(self);
    if (!ms || !ms->names->len) return;
    MotusRunBridge *br = motus_window_bridge(self);
    guint n = motus_run_bridge_n_frames(br);
    guint i = n ? motus_run_bridge_frame_at(br, motus_session_get_time(self->session)) : 0;
    GtkWidget *row = gtk_widget_get_first_child(ms->box);
    for (guint k = 0; k < ms->names->len && row; k++, row = gtk_widget_get_next_sibling(row)) {
        const char *name = g_ptr_array_index(ms->names, k);
        g_autofree char *text = n ? meter_text(self, name, i, NULL) : g_strdup_printf("%s = —", name);
        gtk_label_set_text(GTK_LABEL(gtk_widget_get_first_child(row)), text);
    }
}

static gboolean has(Meters *ms, const char *name)
{
    for (guint k = 0; k < ms->names->len; k++)
        if (!strcmp(g_ptr_array_index(ms->names, k), name)) return TRUE;
    return FALSE;
}

gboolean motus_window_meters_add(MotusWindow *self, const char *name, GError **error)
{
    Meters *ms = meters_of(self);
    const MtModel *m = motus_window_model(self);
    MtDim dim;
    char words[8];
    if (!m || (strcmp(name, "momentum") && !mt_column_info(m, name, &dim, words, sizeof words) &&
               mt_model_find_sensor(m, name) < 0)) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                    _("'%s' is no result column of the model (names like crank.wz, pin.Fy, system.kinetic or a sensor's)"),
                    name);
        return FALSE;
    }
    if (ms->names->len >= MT_VIEW_METERS) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, _("at most %d meters: remove one first"), MT_VIEW_METERS);
        return FALSE;
    }
    if (!has(ms, name)) g_ptr_array_add(ms->names, g_strdup(name));
    rebuild(self);
    return TRUE;
}

guint motus_window_meters_count(MotusWindow *self) { return meters_of(self) ? meters_of(self)->names->len : 0; }

const char *motus_window_meter_text(MotusWindow *self, guint k)
{
    Meters *ms = meters_of(self);
    GtkWidget *row = ms ? gtk_widget_get_first_child(ms->box) : NULL;
    for (guint i = 0; row && i < k; i++) row = gtk_widget_get_next_sibling(row);
    return row ? gtk_label_get_text(GTK_LABEL(gtk_widget_get_first_child(row))) : NULL;
}

double motus_window_meter_value(MotusWindow *self, guint k)
{
    Meters *ms = meters_of(self);
    MotusRunBridge *br = motus_window_bridge(self);
    if (!ms || k >= ms->names->len || !motus_run_bridge_n_frames(br)) return NAN;
    double v;
    g_free(meter_text(self, g_ptr_array_index(ms->names, k), motus_run_bridge_frame_at(br, motus_session_get_time(self->session)), &v));
    return v;
}

static void remove_clicked(GtkButton *b, gpointer data)
{
    MotusWindow *self = data;
    Meters *ms = meters_of(self);
    guint k = GPOINTER_TO_UINT(g_object_get_data(G_OBJECT(b), "meter"));
    if (k < ms->names->len) g_ptr_array_remove_index(ms->names, k);
    rebuild(self);
}

/* The model's meters (its view line) on opening. */
static void document_replaced(MotusDocument *doc, gpointer data)
{
    (void)doc;
    MotusWindow *self = data;
    Meters *ms = meters_of(self);
    g_ptr_array_set_size(ms->names, 0);
    const MtModel *m = motus_window_model(self);
    for (int k = 0; m && m->view.set && k < m->view.nmeter; k++) g_ptr_array_add(ms->names, g_strdup(m->view.meter[k]));
    rebuild(self);
}

void motus_window_meters_keep(MotusWindow *self, MtViewSpec *v)
{
    Meters *ms = meters_of(self);
    v->nmeter = 0;
    for (guint k = 0; ms && k < ms->names->len && k < MT_VIEW_METERS; k++)
        g_strlcpy(v->meter[v->nmeter++], g_ptr_array_index(ms->names, k), sizeof v->meter[0]);
}

/* The eye popover's "Meter" field: a column typed, Enter. */
static void entry_activated(GtkEntry *e, gpointer data)
{
    MotusWindow *self = data;
    g_autoptr(GError) error = NULL;
    g_autofree char *name = g_strstrip(g_strdup(gtk_editable_get_text(GTK_EDITABLE(e))));
    if (!name[0]) return;
    if (motus_window_meters_add(self, name, &error)) gtk_editable_set_text(GTK_EDITABLE(e), "");
    else motus_window_set_status(self, error->message);
}

static void energy_clicked(GtkButton *b, gpointer data)
{
    (void)b;
    MotusWindow *self = data;
    motus_window_meters_add(self, "system.kinetic", NULL);
    motus_window_meters_add(self, "system.potential", NULL);
    motus_window_meters_add(self, "momentum", NULL);
}

GtkWidget *motus_window_meters_controls(MotusWindow *self)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4), *e = gtk_entry_new(), *b;
    /* TRANSLATORS: placeholder of the field that adds a meter over the 3D view */
    gtk_entry_set_placeholder_text(GTK_ENTRY(e), _("Meter: a result column, Enter"));
    gtk_widget_set_tooltip_text(e, _("Shows the column's value at the time shown in a box over the view (crank.wz, "
                                     "pin.Fy, system.energy, a sensor, momentum)"));
    g_signal_connect(e, "activate", G_CALLBACK(entry_activated), self);
    gtk_box_append(GTK_BOX(box), e);
    b = gtk_button_new_with_mnemonic(_("_Energy and Momentum"));
    gtk_widget_set_tooltip_text(b, _("Meters of the kinetic and potential energy and of the momentum"));
    g_signal_connect(b, "clicked", G_CALLBACK(energy_clicked), self);
    gtk_box_append(GTK_BOX(box), b);
    return box;
}

void motus_window_meters_init(MotusWindow *self)
{
    Meters *ms = g_new0(Meters, 1);
    ms->names = g_ptr_array_new_with_free_func(g_free);
    g_object_set_data_full(G_OBJECT(self), "motus-meters", ms, meters_free);
    ms->box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
    gtk_widget_set_halign(ms->box, GTK_ALIGN_START);
    gtk_widget_set_valign(ms->box, GTK_ALIGN_START);
    gtk_widget_set_margin_start(ms->box, 8);
    gtk_widget_set_margin_top(ms->box, 8);
    gtk_widget_set_visible(ms->box, FALSE);
    motus_viewport_add_overlay_widget(self->viewport, ms->box);
    g_signal_connect(self->doc, "replaced", G_CALLBACK(document_replaced), self);
}

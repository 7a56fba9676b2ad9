/* motus-window-units.c — the Display Units window (main menu): per quantity
 * the unit everything shows it in — plots' axes and legends, the inspector,
 * 3D labels, meters, the colour legend — or "readable" (mm, kN, MPa chosen
 * by size, the default). Each choice is one undoable edit of the model's
 * display units (`units` line; mt_edit_set_display_unit).
 * A private part of MotusWindow (motus-window-private.h). */
#include <string.h>

#include "motus-dialog.h"
#include "motus-i18n.h"
#include "motus-window-private.h"
#include "motus/edit.h"

static void chosen(GObject *dd, GParamSpec *pspec, gpointer data)
{
    (void)pspec;
    MotusWindow *self = data;
    if (g_object_get_data(dd, "quiet") || !motus_window_editor(self)) return;
    MtDim dim = (MtDim)GPOINTER_TO_INT(g_object_get_data(dd, "dim"));
    guint k = gtk_drop_down_get_selected(GTK_DROP_DOWN(dd));
    const MtUnit *list;
    int n = mt_units_of(dim, &list);
    MtError err = {0};
    if (mt_edit_set_display_unit(motus_window_editor(self), dim, k == 0 || (int)k > n ? NULL : list[k - 1].name, &err)) {
        motus_window_set_status(self, err.msg);
        return;
    }
    motus_window_model_changed(self);
    motus_window_set_status(self, mt_editor_undo_label(motus_window_editor(self)));
}

/* The drop-downs follow the model (an undo, another model). */
static void refresh(MotusWindow *self, GtkWidget *grid)
{
    const MtModel *m = motus_window_model(self);
    for (GtkWidget *w = gtk_widget_get_first_child(grid); w; w = gtk_widget_get_next_sibling(w)) {
        if (!GTK_IS_DROP_DOWN(w)) continue;
        MtDim dim = (MtDim)GPOINTER_TO_INT(g_object_get_data(G_OBJECT(w), "dim"));
        const MtUnit *list;
        int n = mt_units_of(dim, &list);
        guint sel = 0;
        for (int k = 0; m && k < m->nunit; k++)
            if (!strcmp(m->unit[k].quantity, mt_dim_name(dim)))
                for (int i = 0; i < n; i++)
                    if (!strcmp(list[i].name, m->unit[k].unit)) sel = (guint)i + 1;
        g_object_set_data(G_OBJECT(w), "quiet", GINT_TO_POINTER(1));
        gtk_drop_down_set_selected(GTK_DROP_DOWN(w), sel);
        g_object_set_data(G_OBJECT(w), "quiet", NULL);
    }
}

static void model_changed(GObject *doc, gpointer data)
{
    (void)doc;
    GtkWidget *grid = data;
    MotusWindow *self = g_object_get_data(G_OBJECT(grid), "window");
    refresh(self, grid);
}

/* The window is gone: forget it. */
static void units_destroyed(GtkWidget *w, gpointer data)
{
    (void)w;
    g_object_set_data(G_OBJECT(data), "motus-units-window", NULL);
}

static void act_units(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    MotusWindow *self = data;
    GtkWidget *w = g_object_get_data(G_OBJECT(self), "motus-units-window");
    if (w) {
        gtk_window_present(GTK_WINDOW(w));
        return;
    }
    w = motus_dialog_new(GTK_WINDOW(self), _("Display Units"), -1, -1);
    gtk_window_set_resizable(GTK_WINDOW(w), FALSE);
    GtkWidget *grid = gtk_grid_new();
    gtk_grid_set_row_spacing(GTK_GRID(grid), 6);
    gtk_grid_set_column_spacing(GTK_GRID(grid), 12);
    gtk_widget_set_margin_start(grid, 16), gtk_widget_set_margin_end(grid, 16);
    gtk_widget_set_margin_top(grid, 12), gtk_widget_set_margin_bottom(grid, 16);
    GtkWidget *note = gtk_label_new(_("What each quantity is shown in: plots, properties, labels in the view, meters and "
                                      "legends. \"Readable\" picks mm, kN or MPa by the size of the value."));
    gtk_label_set_wrap(GTK_LABEL(note), TRUE);
    gtk_label_set_max_width_chars(GTK_LABEL(note), 44);
    gtk_label_set_xalign(GTK_LABEL(note), 0);
    gtk_widget_add_css_class(note, "dim-label");
    gtk_grid_attach(GTK_GRID(grid), note, 0, 0, 2, 1);
    int row = 1;
    for (int d = MT_DIM_NONE + 1; d < MT_DIM_COUNT; d++) {
        const MtUnit *list;
        int n = mt_units_of((MtDim)d, &list);
        if (n < 2) continue; /* one unit: nothing to choose */
        GtkStringList *names = gtk_string_list_new(NULL);
        /* TRANSLATORS: the display unit chosen by the size of the value (mm, kN, MPa …) */
        gtk_string_list_append(names, _("Readable"));
        for (int i = 0; i < n; i++) gtk_string_list_append(names, mt_unit_label(&list[i]));
        GtkWidget *label = gtk_label_new(g_dpgettext2(GETTEXT_PACKAGE, "quantity", mt_dim_name((MtDim)d)));
        gtk_label_set_xalign(GTK_LABEL(label), 0);
        GtkWidget *dd = gtk_drop_down_new(G_LIST_MODEL(names), NULL);
        g_object_set_data(G_OBJECT(dd), "dim", GINT_TO_POINTER(d));
        gtk_accessible_update_property(GTK_ACCESSIBLE(dd), GTK_ACCESSIBLE_PROPERTY_LABEL, mt_dim_name((MtDim)d), -1);
        gtk_widget_set_name(dd, mt_dim_name((MtDim)d)); /* found by tests */
        g_signal_connect(dd, "notify::selected", G_CALLBACK(chosen), self);
        gtk_grid_attach(GTK_GRID(grid), label, 0, row, 1, 1);
        gtk_grid_attach(GTK_GRID(grid), dd, 1, row, 1, 1);
        row++;
    }
    g_object_set_data(G_OBJECT(grid), "window", self);
    refresh(self, grid);
    g_signal_connect_object(self->doc, "changed", G_CALLBACK(model_changed), grid, 0);
    g_signal_connect_object(self->doc, "replaced", G_CALLBACK(model_changed), grid, 0);
    gtk_window_set_child(GTK_WINDOW(w), grid);
    g_object_set_data(G_OBJECT(self), "motus-units-window", w);
    g_signal_connect_object(w, "destroy", G_CALLBACK(units_destroyed), self, 0);
    gtk_window_present(GTK_WINDOW(w));
}

void motus_window_units_init(MotusWindow *self)
{
    static const GActionEntry entries[] = {{"display-units", act_units, NULL, NULL, NULL, {0}}};
    g_action_map_add_action_entries(G_ACTION_MAP(self), entries, G_N_ELEMENTS(entries), self);
}

GtkWidget *motus_window_units_window(MotusWindow *self) { return g_object_get_data(G_OBJECT(self), "motus-units-window"); }

/* motus-dialog.c — the dialogs' shared parts (see motus-dialog.h). */
#include "motus-dialog.h"

#include "motus-i18n.h"

void motus_set_margins(GtkWidget *w, int side, int ends)
{
    gtk_widget_set_margin_start(w, side);
    gtk_widget_set_margin_end(w, side);
    gtk_widget_set_margin_top(w, ends);
    gtk_widget_set_margin_bottom(w, ends);
}

GtkWidget *motus_dialog_new(GtkWindow *parent, const char *title, int width, int height)
{
    GtkWidget *d = gtk_window_new();
    gtk_window_set_title(GTK_WINDOW(d), title);
    gtk_window_set_transient_for(GTK_WINDOW(d), parent);
    gtk_window_set_destroy_with_parent(GTK_WINDOW(d), TRUE);
    gtk_window_set_default_size(GTK_WINDOW(d), width, height);
    return d;
}

GtkGrid *motus_dialog_form(GtkWidget *dialog)
{
    GtkWidget *g = gtk_grid_new();
    gtk_grid_set_row_spacing(GTK_GRID(g), 6);
    gtk_grid_set_column_spacing(GTK_GRID(g), 8);
    motus_set_margins(g, 16, 16);
    gtk_window_set_child(GTK_WINDOW(dialog), g);
    return GTK_GRID(g);
}

GtkWidget *motus_dialog_field(GtkGrid *grid, int row, const char *label, GtkWidget *field, int span, const char *tooltip,
                              GtkWidget *dialog, const char *key)
{
    GtkWidget *l = gtk_label_new(label);
    gtk_label_set_xalign(GTK_LABEL(l), 1);
    gtk_widget_set_tooltip_text(field, tooltip);
    gtk_grid_attach(grid, l, 0, row, 1, 1);
    gtk_grid_attach(grid, field, 1, row, span, 1);
    g_object_set_data(G_OBJECT(dialog), key, field);
    return field;
}

/* An entry holding value that takes the width the form has. */
static GtkWidget *wide_entry(const char *value)
{
    GtkWidget *e = gtk_entry_new();
    gtk_editable_set_text(GTK_EDITABLE(e), value);
    gtk_widget_set_hexpand(e, TRUE);
    return e;
}

GtkWidget *motus_dialog_entry(GtkGrid *grid, int row, const char *label, const char *key, const char *value,
                              const char *tooltip, GtkWidget *dialog)
{
    return motus_dialog_field(grid, row, label, wide_entry(value), 2, tooltip, dialog, key);
}

GtkWidget *motus_dialog_file_row(GtkGrid *grid, int row, const char *label, const char *path, const char *tooltip,
                                 GCallback choose, GtkWidget *dialog)
{
    GtkWidget *file = motus_dialog_field(grid, row, label, wide_entry(path), 1, tooltip, dialog, "file");
    GtkWidget *b = gtk_button_new_with_label(_("Choose…"));
    g_signal_connect(b, "clicked", choose, dialog);
    gtk_grid_attach(grid, b, 2, row, 1, 1);
    return file;
}

char *motus_chosen_path(GtkNativeDialog *fc, int response)
{
    if (response != GTK_RESPONSE_ACCEPT) return NULL;
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS /* GtkFileDialog comes with GTK 4.10 */
    g_autoptr(GFile) f = gtk_file_chooser_get_file(GTK_FILE_CHOOSER(fc));
    G_GNUC_END_IGNORE_DEPRECATIONS
    return f ? g_file_get_path(f) : NULL;
}

void motus_dialog_file_chosen(GtkNativeDialog *fc, int response, gpointer dialog)
{
    g_autofree char *path = motus_chosen_path(fc, response);
    if (path) gtk_editable_set_text(GTK_EDITABLE(g_object_get_data(G_OBJECT(dialog), "file")), path);
    g_object_unref(fc);
}

GtkWidget *motus_dialog_note(GtkGrid *grid, int row, const char *css_class, int max_chars, GtkWidget *dialog,
                             const char *key)
{
    GtkWidget *l = gtk_label_new(NULL);
    gtk_label_set_wrap(GTK_LABEL(l), TRUE);
    gtk_label_set_xalign(GTK_LABEL(l), 0);
    gtk_label_set_max_width_chars(GTK_LABEL(l), max_chars);
    gtk_widget_add_css_class(l, css_class);
    gtk_grid_attach(grid, l, 0, row, 3, 1);
    g_object_set_data(G_OBJECT(dialog), key, l);
    return l;
}

GtkWidget *motus_dialog_footer(GtkGrid *grid, int row, const char *ok_label, GCallback ok, GtkWidget *dialog)
{
    GtkWidget *buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
    gtk_widget_set_halign(buttons, GTK_ALIGN_END);
    GtkWidget *cancel = gtk_button_new_with_mnemonic(_("_Cancel")), *b = gtk_button_new_with_mnemonic(ok_label);
    gtk_widget_add_css_class(b, "suggested-action");
    g_signal_connect_swapped(cancel, "clicked", G_CALLBACK(gtk_window_destroy), dialog);
    g_signal_connect(b, "clicked", ok, dialog);
    gtk_box_append(GTK_BOX(buttons), cancel);
    gtk_box_append(GTK_BOX(buttons), b);
    gtk_grid_attach(grid, buttons, 0, row, 3, 1);
    return b;
}

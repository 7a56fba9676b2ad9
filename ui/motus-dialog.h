/* motus-dialog.h — the parts the main window's dialogs share, made in one
 * place so that they look and behave alike: a window over the main window,
 * margins, and for a form dialog (the animation export, the flexible-body
 * import) its grid, its labelled fields, its file row with "Choose…", its
 * wrapped notes and its footer: Cancel, which closes it, and the suggested
 * action. */
#ifndef MOTUS_DIALOG_H
#define MOTUS_DIALOG_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The same margin on the start and end (`side`) and on the top and bottom (`ends`). */
void motus_set_margins(GtkWidget *w, int side, int ends);

/* A window over `parent`, destroyed with it, titled, of this default size (-1: its content's). */
GtkWidget *motus_dialog_new(GtkWindow *parent, const char *title, int width, int height);

/* The form grid of a dialog (its child): labels in column 0, fields in 1 and 2. */
GtkGrid *motus_dialog_form(GtkWidget *dialog);

/* A field at `row` after its label (right-aligned, column 0), across `span` columns from column 1, with its
 * tooltip (may be NULL), kept as the dialog's `key`. The field is returned. */
GtkWidget *motus_dialog_field(GtkGrid *grid, int row, const char *label, GtkWidget *field, int span, const char *tooltip,
                              GtkWidget *dialog, const char *key);

/* A text field holding `value` across the form (motus_dialog_field), kept as the dialog's `key`. */
GtkWidget *motus_dialog_entry(GtkGrid *grid, int row, const char *label, const char *key, const char *value,
                              const char *tooltip, GtkWidget *dialog);

/* The file row at `row`: label, an entry holding `path` (the dialog's "file"), and "Choose…", whose
 * "clicked" calls choose(button, dialog). The entry is returned. */
GtkWidget *motus_dialog_file_row(GtkGrid *grid, int row, const char *label, const char *path, const char *tooltip,
                                 GCallback choose, GtkWidget *dialog);

/* A file chooser's answer ("response") into the "file" entry of the form dialog `dialog` (its Choose…). */
void motus_dialog_file_chosen(GtkNativeDialog *fc, int response, gpointer dialog);

/* The local file chosen in a file chooser that answered `response`; NULL when it was cancelled (g_free it). */
char *motus_chosen_path(GtkNativeDialog *fc, int response);

/* A wrapped note across the form at `row` (the dialog's `key`), with a CSS class ("dim-label" for what the
 * fields mean, "error" for why the action was refused); max_chars -1 for no limit to its width. */
GtkWidget *motus_dialog_note(GtkGrid *grid, int row, const char *css_class, int max_chars, GtkWidget *dialog,
                             const char *key);

/* The footer at `row`, at the right: Cancel (closes the dialog) and the suggested action `ok_label`
 * (a mnemonic), whose "clicked" calls ok(button, dialog). The action's button is returned. */
GtkWidget *motus_dialog_footer(GtkGrid *grid, int row, const char *ok_label, GCallback ok, GtkWidget *dialog);

G_END_DECLS

#endif

/* motus-window-project.c — the window's side of its document (the
 * document itself is motus-document.c): the New, Open, Open Recent, Save and
 * Save As actions and their file dialogs, the status messages after them,
 * recent projects, and asking before unsaved changes are dropped.
 * A private part of MotusWindow (motus-window-private.h). */
#include <string.h>

#include "motus-dialog.h"
#include "motus-i18n.h"
#include "motus-recent.h"
#include "motus-window-private.h"
#include "motus/project.h"

/* ---- recent projects ------------------------------------------------------------ */

/* The "Recent" section of the main menu, rebuilt from the list. */
static void fill_recent_menu(MotusWindow *self)
{
    if (!self->recent_menu) return;
    g_menu_remove_all(self->recent_menu);
    g_auto(GStrv) paths = motus_recent_list();
    for (int i = 0; paths && paths[i]; i++) {
        g_autofree char *label = motus_recent_label(paths[i]);
        g_autoptr(GMenuItem) it = g_menu_item_new(label, NULL);
        g_menu_item_set_action_and_target_value(it, "win.open-recent", g_variant_new_string(paths[i]));
        g_menu_append_item(self->recent_menu, it);
    }
}

static void remember(MotusWindow *self, const char *path)
{
    motus_recent_add(path);
    fill_recent_menu(self);
}

/* ---- opening and saving ------------------------------------------------------- */

gboolean motus_window_open_file(MotusWindow *self, GFile *file, GError **error)
{
    g_autofree char *path = g_file_get_path(file);
    if (!path) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "%s", _("only local files can be opened"));
        return FALSE;
    }
    int recovered = 0;
    if (!motus_document_open(self->doc, path, &recovered, error)) return FALSE;
    MtStore *store = motus_document_get_store(self->doc);
    const MtModel *m = motus_window_model(self);
    remember(self, path);
    g_autofree char *base = g_path_get_basename(path);
    g_autofree char *nb = g_strdup_printf(ngettext("%d body", "%d bodies", m->nbody), m->nbody);
    g_autofree char *nj = g_strdup_printf(ngettext("%d joint", "%d joints", m->njoint), m->njoint);
    g_autofree char *nd = g_strdup_printf(ngettext("%d driver", "%d drivers", m->ndriver), m->ndriver);
    g_autofree char *ns = g_strdup_printf(ngettext("%d spring", "%d springs", m->nspring), m->nspring);
    /* TRANSLATORS: "Opened FILE: 3 bodies, 4 joints, 1 driver, 0 springs" */
    g_autofree char *text = g_strdup_printf(_("Opened %s: %s, %s, %s, %s"), base, nb, nj, nd, ns);
    motus_window_set_status(self, text);
    if (store) { /* the plots as they were saved (the active one too), then the newest run in them */
        MtError perr = {0};
        g_autofree char *layout = mt_store_load_plot(store, "layout", &perr);
        if (layout) motus_window_plots_apply_layout(self, layout);
        motus_window_load_last_run(self);
    } else if (m->nplot) { /* a text model's `plot` lines (its `derived` curves came with the model) */
        motus_window_plots_apply(self, m->plot, m->nplot, 0);
    }
    if (recovered) {
        g_autofree char *t2 = g_strdup_printf(_("%s — %d runs whose program had stopped were marked interrupted"), text, recovered);
        motus_window_set_status(self, t2);
    }
    return TRUE;
}

void motus_window_load_last_run(MotusWindow *self)
{
    if (!motus_document_get_store(self->doc)) return;
    MtError err = {0};
    long run = mt_project_last_run(motus_document_get_store(self->doc), &err);
    if (run <= 0) return;
    g_autoptr(GError) error = NULL;
    if (!motus_run_bridge_load(motus_window_bridge(self), motus_document_get_path(self->doc), run, &error)) {
        motus_window_set_status(self, error->message);
        return;
    }
    motus_window_frames_loaded(self);
    guint n = motus_run_bridge_n_frames(motus_window_bridge(self));
    g_autofree char *msg = g_strdup_printf(_("Showing run %ld: %u frames to t = %.3f s"), run, n,
                                           motus_run_bridge_last_time(motus_window_bridge(self)));
    motus_window_set_status(self, msg);
}

void motus_window_new_project(MotusWindow *self)
{
    motus_document_new_project(self->doc);
    motus_window_set_status(self, _("New project: the ground and gravity. Add bodies from the + menu (Ctrl+B)."));
}

/* The window's plots, as the document writes them: the layout (a project) and `plot` lines (a text model). */
typedef struct {
    char *layout;
    MtPlotSpec plot[MT_PLOT_MAX];
    int nplot;
} Plots; /* the derived curves are the window's (self->derived) */

static Plots *plots_now(MotusWindow *self)
{
    Plots *p = g_new0(Plots, 1);
    p->layout = motus_window_plots_layout(self);
    p->nplot = motus_window_plots_specs(self, p->plot, NULL);
    return p;
}

static void plots_free(Plots *p)
{
    g_free(p->layout);
    g_free(p);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Plots, plots_free)

gboolean motus_window_save(MotusWindow *self, GError **error)
{
    if (motus_window_editor(self)) motus_window_view_keep(self);
    g_autoptr(Plots) p = plots_now(self);
    if (!motus_document_save(self->doc, p->layout, p->plot, p->nplot, self->derived, self->nderived, error)) return FALSE;
    g_autofree char *base = g_path_get_basename(motus_document_get_path(self->doc));
    g_autofree char *msg = g_strdup_printf(_("Saved %s"), base);
    motus_window_set_status(self, msg);
    return TRUE;
}

gboolean motus_window_save_as(MotusWindow *self, const char *path, GError **error)
{
    if (!motus_window_editor(self)) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", _("nothing to save"));
        return FALSE;
    }
    if (motus_run_bridge_is_running(motus_window_bridge(self))) { /* it writes into the project or scratch project copied */
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_BUSY, "%s", _("a run is going: stop it before saving as"));
        return FALSE;
    }
    motus_window_view_keep(self);
    g_autoptr(Plots) p = plots_now(self);
    if (!motus_document_save_as(self->doc, path, p->layout, p->plot, p->nplot, self->derived, self->nderived, error)) return FALSE;
    remember(self, path);
    g_autofree char *base = g_path_get_basename(path);
    g_autofree char *msg = g_strdup_printf(_("Saved as %s"), base);
    motus_window_set_status(self, msg);
    return TRUE;
}

const char *motus_window_get_path(MotusWindow *self) { return motus_document_get_path(self->doc); }
gboolean motus_window_is_dirty(MotusWindow *self) { return motus_document_get_dirty(self->doc); }
MtEditor *motus_window_get_editor(MotusWindow *self) { return motus_window_editor(self); }

/* ---- asking before unsaved changes go --------------------------------------------- */

typedef void (*Then)(MotusWindow *self, gpointer data);
typedef struct {
    MotusWindow *self;
    Then then;
    gpointer data;
    GDestroyNotify free_data;
} Pending;

static void pending_free(Pending *p)
{
    if (p->free_data) p->free_data(p->data);
    g_free(p);
}

static void save_as_then(MotusWindow *self, Pending *then);

static void discard_response(GtkDialog *d, int response, gpointer data)
{
    Pending *p = data;
    MotusWindow *self = p->self;
    gtk_window_destroy(GTK_WINDOW(d));
    if (response == GTK_RESPONSE_ACCEPT) { /* save, then go on */
        if (!motus_document_get_path(self->doc) || motus_document_get_readonly(self->doc)) {
            save_as_then(self, p);
            return;
        }
        g_autoptr(GError) error = NULL;
        if (!motus_window_save(self, &error)) {
            motus_window_error_dialog(self, _("Cannot save"), error->message);
            pending_free(p);
            return;
        }
        p->then(self, p->data);
    } else if (response == GTK_RESPONSE_REJECT) {
        p->then(self, p->data);
    }
    pending_free(p);
}

/* Runs then(self, data) now when nothing would be lost, else after asking
 * whether to save (Save, Discard, Cancel); batch mode never asks. */
static void unless_unsaved(MotusWindow *self, Then then, gpointer data, GDestroyNotify free_data)
{
    if (self->batch || !motus_window_is_dirty(self)) {
        then(self, data);
        if (free_data) free_data(data);
        return;
    }
    Pending *p = g_new0(Pending, 1);
    *p = (Pending){self, then, data, free_data};
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    GtkWidget *d = gtk_message_dialog_new(GTK_WINDOW(self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                          GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE, "%s",
                                          _("Save the changes to the model?"));
    gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(d), "%s",
                                             _("Unsaved changes are lost if you do not save them."));
    gtk_dialog_add_buttons(GTK_DIALOG(d), _("_Cancel"), GTK_RESPONSE_CANCEL, _("_Discard"), GTK_RESPONSE_REJECT,
                           _("_Save"), GTK_RESPONSE_ACCEPT, NULL);
    gtk_dialog_set_default_response(GTK_DIALOG(d), GTK_RESPONSE_ACCEPT);
    G_GNUC_END_IGNORE_DEPRECATIONS
    g_signal_connect(d, "response", G_CALLBACK(discard_response), p);
    gtk_window_present(GTK_WINDOW(d));
}

/* ---- file dialogs ------------------------------------------------------------------ */

static void add_filters(GtkFileChooser *fc, gboolean text_first)
{
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    GtkFileFilter *proj = gtk_file_filter_new();
    gtk_file_filter_set_name(proj, _("Motus projects (*.motus)"));
    gtk_file_filter_add_pattern(proj, "*.motus");
    GtkFileFilter *text = gtk_file_filter_new();
    gtk_file_filter_set_name(text, _("Motus text models (*.motus.txt)"));
    gtk_file_filter_add_pattern(text, "*.motus.txt");
    GtkFileFilter *both = gtk_file_filter_new();
    gtk_file_filter_set_name(both, _("Projects and text models"));
    gtk_file_filter_add_pattern(both, "*.motus");
    gtk_file_filter_add_pattern(both, "*.motus.txt");
    if (!text_first) gtk_file_chooser_add_filter(fc, both);
    gtk_file_chooser_add_filter(fc, proj);
    gtk_file_chooser_add_filter(fc, text);
    GtkFileFilter *all = gtk_file_filter_new();
    gtk_file_filter_set_name(all, _("All files"));
    gtk_file_filter_add_pattern(all, "*");
    gtk_file_chooser_add_filter(fc, all);
    g_object_unref(proj);
    g_object_unref(text);
    g_object_unref(both);
    g_object_unref(all);
    G_GNUC_END_IGNORE_DEPRECATIONS
}

static void open_path(MotusWindow *self, gpointer data)
{
    g_autoptr(GFile) f = g_file_new_for_path(data);
    g_autoptr(GError) error = NULL;
    if (!motus_window_open_file(self, f, &error)) {
        g_autofree char *msg = g_strdup_printf(_("Cannot open: %s"), error->message);
        motus_window_set_status(self, msg);
        motus_window_error_dialog(self, _("Cannot open the project"), error->message);
    }
}

static void open_response(GtkNativeDialog *d, int response, gpointer data)
{
    char *path = motus_chosen_path(d, response);
    if (path) unless_unsaved(data, open_path, path, g_free);
    g_object_unref(d);
}

static void act_open(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    MotusWindow *self = data;
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    GtkFileChooserNative *d = gtk_file_chooser_native_new(_("Open a Project or a Model"), GTK_WINDOW(self),
                                                          GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
    add_filters(GTK_FILE_CHOOSER(d), FALSE);
    if (motus_document_get_path(self->doc)) {
        g_autofree char *dir = g_path_get_dirname(motus_document_get_path(self->doc));
        g_autoptr(GFile) df = g_file_new_for_path(dir);
        gtk_file_chooser_set_current_folder(GTK_FILE_CHOOSER(d), df, NULL);
    }
    G_GNUC_END_IGNORE_DEPRECATIONS
    g_signal_connect(d, "response", G_CALLBACK(open_response), self);
    gtk_native_dialog_show(GTK_NATIVE_DIALOG(d));
}

static void act_open_recent(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a;
    unless_unsaved(data, open_path, g_strdup(g_variant_get_string(p, NULL)), g_free);
}

static void new_then(MotusWindow *self, gpointer data)
{
    (void)data;
    motus_window_new_project(self);
}

static void act_new(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    unless_unsaved(data, new_then, NULL, NULL);
}

static void save_as_response(GtkNativeDialog *d, int response, gpointer data)
{
    Pending *then = data;
    MotusWindow *self = then->self;
    g_autofree char *path = motus_chosen_path(d, response);
    if (path) {
        g_autoptr(GError) error = NULL;
        /* a name without extension becomes a project */
        if (!g_str_has_suffix(path, ".motus") && !motus_document_is_text_path(path)) {
            char *p2 = g_strconcat(path, ".motus", NULL);
            g_free(path);
            path = p2;
        }
        if (!motus_window_save_as(self, path, &error)) {
            motus_window_set_status(self, error->message);
            motus_window_error_dialog(self, _("Cannot save"), error->message);
        } else if (then->then) {
            then->then(self, then->data);
        }
    }
    pending_free(then);
    g_object_unref(d);
}

static void save_as_then(MotusWindow *self, Pending *then)
{
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    GtkFileChooserNative *d = gtk_file_chooser_native_new(_("Save the Project As"), GTK_WINDOW(self),
                                                          GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
    add_filters(GTK_FILE_CHOOSER(d), FALSE);
    g_autofree char *name = NULL;
    if (motus_document_get_path(self->doc)) {
        g_autofree char *base = g_path_get_basename(motus_document_get_path(self->doc));
        if (g_str_has_suffix(base, ".motus.txt")) base[strlen(base) - 4] = 0; /* offer the project */
        name = g_steal_pointer(&base);
        g_autofree char *dir = g_path_get_dirname(motus_document_get_path(self->doc));
        g_autoptr(GFile) df = g_file_new_for_path(dir);
        gtk_file_chooser_set_current_folder(GTK_FILE_CHOOSER(d), df, NULL);
    }
    gtk_file_chooser_set_current_name(GTK_FILE_CHOOSER(d), name ? name : "untitled.motus");
    G_GNUC_END_IGNORE_DEPRECATIONS
    g_signal_connect(d, "response", G_CALLBACK(save_as_response), then);
    gtk_native_dialog_show(GTK_NATIVE_DIALOG(d));
}

static void act_save_as(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    Pending *none = g_new0(Pending, 1);
    none->self = data;
    save_as_then(data, none);
}

static void act_save(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    MotusWindow *self = data;
    if (!motus_document_get_path(self->doc) || motus_document_get_readonly(self->doc)) {
        act_save_as(NULL, NULL, self);
        return;
    }
    g_autoptr(GError) error = NULL;
    if (!motus_window_save(self, &error)) {
        motus_window_set_status(self, error->message);
        motus_window_error_dialog(self, _("Cannot save"), error->message);
    }
}

static gboolean destroy_idle(gpointer w)
{
    gtk_window_destroy(GTK_WINDOW(w));
    return G_SOURCE_REMOVE;
}

/* The window goes once the question's dialog is gone: destroyed inside the
 * dialog's response it was finalized while the dialog, still handling the
 * click, pointed to it as its parent. */
static void close_then(MotusWindow *self, gpointer data)
{
    (void)data;
    motus_document_forget_changes(self->doc); /* the user chose: do not ask again */
    g_idle_add_full(G_PRIORITY_DEFAULT, destroy_idle, g_object_ref(self), g_object_unref);
}

static gboolean close_request(GtkWindow *w, gpointer data)
{
    (void)data;
    MotusWindow *self = MOTUS_WINDOW(w);
    if (self->batch || !motus_window_is_dirty(self)) return FALSE;
    unless_unsaved(self, close_then, NULL, NULL);
    return TRUE;
}

void motus_window_project_init(MotusWindow *self)
{
    static const GActionEntry entries[] = {
        {"new", act_new, NULL, NULL, NULL, {0}},
        {"open", act_open, NULL, NULL, NULL, {0}},
        {"open-recent", act_open_recent, "s", NULL, NULL, {0}},
        {"save", act_save, NULL, NULL, NULL, {0}},
        {"save-as", act_save_as, NULL, NULL, NULL, {0}},
    };
    g_action_map_add_action_entries(G_ACTION_MAP(self), entries, G_N_ELEMENTS(entries), self);
    g_signal_connect(self, "close-request", G_CALLBACK(close_request), NULL);
    fill_recent_menu(self);
}

/* ---- runs of a document without a project -------------------------------------------- */

const char *motus_window_scratch_project(MotusWindow *self, GError **error)
{
    return motus_document_scratch_project(self->doc, error);
}

void motus_window_drop_scratch(MotusWindow *self) { motus_document_drop_scratch(self->doc); }

void motus_window_project_dispose(MotusWindow *self)
{
    if (self->doc) motus_document_drop_scratch(self->doc);
}

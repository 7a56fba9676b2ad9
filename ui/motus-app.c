/* motus-app.c — the application's actions and accelerators (motus-app.h). */
#include "motus-app.h"

#include "motus-i18n.h"
#include "motus-window.h"

static void act_about(GSimpleAction *a, GVariant *p, gpointer app)
{
    (void)a, (void)p;
    static const char *authors[] = {"The Motus authors", NULL};
    const char *version = g_object_get_data(G_OBJECT(app), "motus-version");
    gtk_show_about_dialog(gtk_application_get_active_window(GTK_APPLICATION(app)), "program-name", "Motus",
                          "logo-icon-name", "org.motus.Motus", "version", version, "comments",
                          _("Interactive studio for the dynamics of multibody systems"), "authors", authors, NULL);
}

static gboolean any_main_window(GtkApplication *app)
{
    for (GList *l = gtk_application_get_windows(app); l; l = l->next)
        if (MOTUS_IS_WINDOW(l->data)) return TRUE;
    return FALSE;
}

/* The last main window went (closed, or closed by quitting): the
 * application ends even if an auxiliary window (a job's progress, the
 * shortcuts) is still open. */
static void window_removed(GtkApplication *app, GtkWindow *w, gpointer data)
{
    (void)data;
    if (MOTUS_IS_WINDOW(w) && !any_main_window(app)) g_application_quit(G_APPLICATION(app));
}

void motus_app_quit(GtkApplication *app)
{
    /* a copy: closing a clean window removes it from the application's list */
    GList *wins = g_list_copy_deep(gtk_application_get_windows(app), (GCopyFunc)(void (*)(void))g_object_ref, NULL);
    for (GList *l = wins; l; l = l->next)
        if (MOTUS_IS_WINDOW(l->data)) gtk_window_close(GTK_WINDOW(l->data));
    g_list_free_full(wins, g_object_unref);
    if (!any_main_window(app)) g_application_quit(G_APPLICATION(app));
}

static void act_quit(GSimpleAction *a, GVariant *p, gpointer app)
{
    (void)a, (void)p;
    motus_app_quit(GTK_APPLICATION(app));
}

void motus_app_setup(GtkApplication *app, const char *version)
{
    g_object_set_data_full(G_OBJECT(app), "motus-version", g_strdup(version), g_free);
    static const GActionEntry entries[] = {
        {"about", act_about, NULL, NULL, NULL, {0}},
        {"quit", act_quit, NULL, NULL, NULL, {0}},
    };
    g_action_map_add_action_entries(G_ACTION_MAP(app), entries, G_N_ELEMENTS(entries), app);
    g_signal_connect(app, "window-removed", G_CALLBACK(window_removed), NULL);
    /* the keys the shortcuts window (ui/gtk/help-overlay.ui) and the README list */
    static const struct {
        const char *action, *accel[3];
    } accels[] = {
        {"win.new", {"<Control>n"}},
        {"win.open", {"<Control>o"}},
        {"win.save", {"<Control>s"}},
        {"win.save-as", {"<Control><Shift>s"}},
        {"win.undo", {"<Control>z"}},
        {"win.redo", {"<Control><Shift>z", "<Control>y"}},
        {"win.delete", {"Delete"}},
        {"win.duplicate", {"<Control>d"}},
        {"win.rename", {"F2"}},
        {"win.add-parameter", {"<Control><Shift>p"}},
        {"win.solver-settings", {"F6"}},
        {"win.run", {"F5"}},
        {"win.statics", {"F7"}},
        {"win.kinematics", {"F8"}},
        {"win.modes", {"F9"}},
        {"win.study", {"<Control>t"}},
        {"win.export-video", {"<Control><Shift>e"}},
        {"win.stop", {"Escape"}},
        {"win.add-body::box", {"<Control>b"}},
        {"win.add-joint::revolute", {"<Control>j"}},
        {"win.add-force::spring", {"<Control>k"}},
        {"app.quit", {"<Control>q"}},
    };
    for (guint i = 0; i < G_N_ELEMENTS(accels); i++)
        gtk_application_set_accels_for_action(app, accels[i].action, accels[i].accel);
    gtk_window_set_default_icon_name("org.motus.Motus");
}
